/*
 * HiSilicon PCIe PMU counting: what each event counts of the traffic
 * (Documentation/admin-guide/perf/hisi-pcie-pmu.rst, Linux 6.12).
 *
 * Events come in pairs read from one hardware counter: latency events count
 * the summed delay of the selected TLPs in CNT and their number in EXT_CNT;
 * bandwidth events count the flux (bytes of the TLP parts len_mode selects)
 * in CNT and the time in EXT_CNT. Delays and times are sums in ns here; the
 * device counts them as cycles of its clock. Thresholds (count only TLPs of
 * length >= or < 2^thr_len DW) and triggers (count from the first TLP
 * longer or shorter than 2^trig_len DW on) act on lengths, whose per-stream
 * pattern keeps every sum O(1); they apply to bandwidth events only.
 *
 * Plain C with no QEMU headers: the host unit tests use it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HISI_MODEL_PCIE_PMU_H
#define HISI_MODEL_PCIE_PMU_H

#include <stdbool.h>
#include <stdint.h>

#include "traffic.h"

typedef struct PciePmuEvent {
    uint16_t code;          /* EVENT_CTRL[15:0] */
    uint8_t dir;            /* TrafficDir */
    uint8_t kind;           /* TrafficKind */
    bool latency;           /* latency pair, else bandwidth pair */
} PciePmuEvent;

/* The event with EVENT_CTRL code @code, or NULL for an unknown code */
const PciePmuEvent *model_pcie_pmu_event(uint16_t code);

/* len_mode values */
#define PCIE_PMU_LEN_PAYLOAD    1
#define PCIE_PMU_LEN_HEADER     2
#define PCIE_PMU_LEN_BOTH       3

typedef struct PciePmuFilter {
    bool thr_en;
    bool thr_below;         /* thr_mode 1: length < 2^thr_len */
    uint8_t thr_len;
    bool trig_en;
    bool trig_below;        /* trig_mode 1: start at a length < 2^trig_len */
    uint8_t trig_len;
    uint8_t len_mode;
} PciePmuFilter;

typedef struct PciePmuSums {
    uint64_t tlps;
    uint64_t bytes;         /* of the parts len_mode selects */
    uint64_t delay_ns;
} PciePmuSums;

/*
 * The part of @f event @ev honours: hisi-pcie-pmu.rst says of the trigger
 * and the threshold "This filter can only be used in bandwidth events", so
 * latency events count as if neither were set.
 */
PciePmuFilter model_pcie_pmu_event_filter(const PciePmuEvent *ev,
                                          PciePmuFilter f);

/*
 * Whether stream @s carries the TLPs of @ev (inline: called for each TLP of
 * the real traffic)
 */
static inline bool model_pcie_pmu_stream_matches(const PciePmuEvent *ev,
                                                 const TrafficStream *s)
{
    return ev->dir == s->dir && ev->kind == s->kind;
}

/*
 * Add the sums of TLPs [k0, k1) of @s that pass the threshold to @sums.
 * A memory read request carries no payload: its Length (the length read)
 * counts for the threshold and the trigger, not as payload bytes.
 */
void model_pcie_pmu_stream_sums(const TrafficStream *s, const PciePmuFilter *f,
                                uint64_t k0, uint64_t k1, PciePmuSums *sums);

/*
 * The number of the first TLP k >= @k0 of @s that fires the trigger, or
 * UINT64_MAX when no length of the stream ever does.
 */
uint64_t model_pcie_pmu_trigger_tlp(const TrafficStream *s,
                                    const PciePmuFilter *f, uint64_t k0);

/* Whether a TLP of Length @len_dw fires the trigger of @f */
bool model_pcie_pmu_fires_trigger(const PciePmuFilter *f, uint16_t len_dw);

/*
 * Add one TLP of @kind, Length @len_dw, @header_dw header DWs and
 * @delay_ns of latency to @sums if it passes the threshold: a TLP of the
 * real traffic, counted as the TLPs of a stream are.
 */
void model_pcie_pmu_tlp_sums(const PciePmuFilter *f, uint8_t kind,
                             uint16_t len_dw, unsigned header_dw,
                             uint64_t delay_ns, PciePmuSums *sums);

#endif
