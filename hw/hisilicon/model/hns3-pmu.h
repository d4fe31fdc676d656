/*
 * HNS3 PMU events: what each of the hardware's events counts of the NIC
 * traffic (nic-traffic.h), and the filters it takes.
 *
 * Each event has a counter and an extended counter (Linux
 * drivers/perf/hisilicon/hns3_pmu.c):
 *   bandwidth (type 0)       bytes           / cycles
 *   packet rate (type 1)     packets         / cycles
 *   latency (type 2)         delay cycles    / packets
 *   interrupt rate (type 3)  interrupts      / cycles
 * The events name the stage of the NIC pipeline they watch; here a stage
 * sees the packets of the transmit, receive or RoCE streams that pass it,
 * so the stages of one path agree with each other.
 *
 * Plain C with no QEMU headers: the host unit tests use it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HISI_MODEL_HNS3_PMU_H
#define HISI_MODEL_HNS3_PMU_H

#include <stdbool.h>
#include <stdint.h>

#include "nic-traffic.h"

/* Event classes (event_type) */
#define HNS3_PMU_BW         0
#define HNS3_PMU_PPS        1
#define HNS3_PMU_DLY        2
#define HNS3_PMU_INTR       3

/* Hardware filter modes (EVENT_CTRL_LOW[31:24]) */
typedef enum Hns3PmuMode {
    HNS3_PMU_MODE_GLOBAL,
    HNS3_PMU_MODE_PORT,         /* condition: bitmap of ports */
    HNS3_PMU_MODE_PORT_TC,      /* condition: HNS3_PMU_PORT_TC_* */
    HNS3_PMU_MODE_FUNC,         /* condition: devfn */
    HNS3_PMU_MODE_FUNC_QUEUE,   /* condition: devfn; the queue apart */
    HNS3_PMU_MODE_FUNC_INTR,    /* condition: intr << 8 | devfn */
    HNS3_PMU_MODES,
} Hns3PmuMode;

/*
 * The port-tc condition as the driver writes it: port << 3 | tc, the port
 * from config1 bits 0-3 (0..15), so bits 3-6; ports the NIC does not have
 * match no stream.
 */
#define HNS3_PMU_PORT_TC_PORT(cond)     (((cond) >> 3) & 0xf)
#define HNS3_PMU_PORT_TC_TC(cond)       ((cond) & 7)

/* The packets a stage sees: by stream kind, and by queue for split paths */
#define HNS3_PMU_ANY_QUEUE  0
#define HNS3_PMU_EVEN_QUEUE 1
#define HNS3_PMU_ODD_QUEUE  2

/* Buffer descriptors are this many bytes. */
#define HNS3_PMU_BD_BYTES   32

typedef struct Hns3PmuEvent {
    uint16_t code;          /* event_type << 8 | subevent */
    uint8_t modes;          /* bit Hns3PmuMode: filter modes it takes */
    uint8_t kinds;          /* bit NicKind: the streams it sees */
    uint8_t queues;         /* HNS3_PMU_*_QUEUE */
    bool descriptors;       /* bytes: a descriptor per packet */
    bool interrupts;        /* it sees interrupts, not packets */
    uint8_t delay_pct;      /* latency: its share of the stream's */
} Hns3PmuEvent;

/* The event @code (event_type << 8 | subevent), or NULL */
const Hns3PmuEvent *model_hns3_pmu_event(uint16_t code);

/* A counter's filter, as the driver programs it */
typedef struct Hns3PmuFilter {
    uint8_t mode;           /* Hns3PmuMode */
    uint32_t cond;          /* EVENT_CTRL_HIGH */
    uint16_t queue;         /* QID_PARA[31:16], in FUNC_QUEUE mode */
} Hns3PmuFilter;

/* Whether event @ev with filter @f sees stream @s */
bool model_hns3_pmu_stream_matches(const Hns3PmuEvent *ev,
                                   const Hns3PmuFilter *f, const NicStream *s);

typedef struct Hns3PmuSums {
    uint64_t units;         /* packets, or interrupts */
    uint64_t bytes;
    uint64_t delay_ns;
} Hns3PmuSums;

/* Add what event @ev sees of stream @s in [t0, t1) to @sums. */
void model_hns3_pmu_stream_sums(const Hns3PmuEvent *ev, const NicStream *s,
                                int64_t t0, int64_t t1, Hns3PmuSums *sums);

#endif
