/*
 * Synthetic NIC traffic, as an HNS3 NIC carries it: packets per queue.
 *
 * An HNS3 NIC has MAC ports, each with traffic classes (TCs); its PCI
 * functions (PF and VFs) own queues, and each queue sends on one port and
 * TC. A queue has two streams of packets: transmit (host to wire) and
 * receive (wire to host); a function has two more for RoCE. Each stream is
 * a flow (flow.h) of packets whose lengths are in bytes, with a latency per
 * packet through the NIC and one interrupt per @coalesce packets. So the
 * packets, bytes, summed latency and interrupts of any stream over any
 * interval are O(1), and packet k is a pure function of (seed, stream, k).
 *
 * Plain C with no QEMU headers: the host unit tests and benchmarks use it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HISI_MODEL_NIC_TRAFFIC_H
#define HISI_MODEL_NIC_TRAFFIC_H

#include <stdbool.h>
#include <stdint.h>

#include "flow.h"

#define NIC_MAX_PORTS       8
#define NIC_MAX_TCS         8
#define NIC_QUEUE_NONE      0xffff      /* RoCE streams belong to no queue */
#define NIC_RING_SIZE       1024        /* buffer descriptors per queue */

typedef enum NicKind {
    NIC_TX,         /* queue: host to wire */
    NIC_RX,         /* queue: wire to host */
    NIC_ROCE_TX,    /* function: RDMA sends */
    NIC_ROCE_RX,    /* function: RDMA receives */
    NIC_KINDS,
} NicKind;

typedef struct NicStream {
    TrafficFlow flow;       /* packets; lengths in bytes */
    uint16_t func;          /* BDF of the PCI function */
    uint16_t queue;         /* or NIC_QUEUE_NONE */
    uint8_t port;           /* MAC port */
    uint8_t tc;
    uint8_t kind;           /* NicKind */
    uint16_t coalesce;      /* packets per interrupt, >= 1 */
    uint32_t latency_ns;    /* per packet, through the NIC */
} NicStream;

/* What one kind of stream carries by default, and what rules change */
typedef struct NicSpec {
    uint64_t rate;          /* packets per second */
    uint16_t len_min;       /* bytes */
    uint16_t len_max;
    uint32_t latency_ns;
    uint16_t coalesce;
} NicSpec;

/* The built-in profile: @spec[NIC_KINDS] */
void model_nic_profile_default(NicSpec *spec);

/*
 * The streams of PCI function @func on MAC port @port: @queues queues
 * (queue q on TC q % @tcs) with a transmit and a receive stream each, then
 * RoCE transmit and receive on TC 0: 2 * @queues + 2 streams into @out.
 * The streams start at @epoch_t ns. Returns how many.
 */
uint32_t model_nic_function_streams(NicStream *out, uint64_t seed,
                                    const NicSpec *spec, uint16_t func,
                                    uint8_t port, uint16_t queues, uint8_t tcs,
                                    int64_t epoch_t);

/*
 * A change of the traffic at @now: @cur, @n streams rebuilt with the new
 * settings, take over from @old, the same streams as they ran up to @now.
 * Each goes on at its new rate from where it stood: its packet numbers and
 * the work left to its next packet carry over, so a change restarts no
 * stream at packet 0 (it would, at @now, for every stream at once).
 */
void model_nic_streams_carry(NicStream *cur, const NicStream *old, uint32_t n,
                             int64_t now);

/* Packets of @s in [t0, t1) */
static inline uint64_t model_nic_packets(const NicStream *s, int64_t t0,
                                         int64_t t1)
{
    return model_traffic_count_before(&s->flow, t1) -
           model_traffic_count_before(&s->flow, t0);
}

/* Bytes of the packets of @s in [t0, t1) */
uint64_t model_nic_bytes(const NicStream *s, int64_t t0, int64_t t1);

/* Interrupts of @s in [t0, t1): one after each @coalesce-th packet */
uint64_t model_nic_interrupts(const NicStream *s, int64_t t0, int64_t t1);

/* Packet @k of @s */
typedef struct NicPacket {
    int64_t time;           /* ns */
    uint16_t len;           /* bytes */
    uint16_t bd;            /* its buffer descriptor in the queue's ring */
    bool interrupt;         /* an interrupt follows it */
} NicPacket;

void model_nic_packet(const NicStream *s, uint64_t k, NicPacket *p);

#endif
