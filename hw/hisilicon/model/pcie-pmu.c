/*
 * HiSilicon PCIe PMU counting.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <stddef.h>

#include "pcie-pmu.h"

/* The latency pair (delay, TLPs) or the bandwidth pair (bytes, time) */
#define LATENCY(c, d, k)    { .code = (c), .dir = (d), .kind = (k), \
                              .latency = true }
#define BANDWIDTH(c, d, k)  { .code = (c), .dir = (d), .kind = (k) }

static const PciePmuEvent pcie_pmu_events[] = {
    LATENCY(0x0010, TRAFFIC_INBOUND, TRAFFIC_POSTED),     /* rx_mwr */
    LATENCY(0x0210, TRAFFIC_INBOUND, TRAFFIC_NON_POSTED), /* rx_mrd */
    LATENCY(0x0011, TRAFFIC_OUTBOUND, TRAFFIC_NON_POSTED), /* tx_mrd */
    BANDWIDTH(0x0104, TRAFFIC_INBOUND, TRAFFIC_POSTED),   /* rx_mwr */
    BANDWIDTH(0x0804, TRAFFIC_INBOUND, TRAFFIC_NON_POSTED), /* rx_mrd */
    BANDWIDTH(0x2004, TRAFFIC_INBOUND, TRAFFIC_COMPLETION), /* rx_cpl */
    BANDWIDTH(0x0105, TRAFFIC_OUTBOUND, TRAFFIC_POSTED),  /* tx_mwr */
    BANDWIDTH(0x0405, TRAFFIC_OUTBOUND, TRAFFIC_NON_POSTED), /* tx_mrd */
    BANDWIDTH(0x1005, TRAFFIC_OUTBOUND, TRAFFIC_COMPLETION), /* tx_cpl */
};

const PciePmuEvent *model_pcie_pmu_event(uint16_t code)
{
    for (size_t i = 0; i < sizeof(pcie_pmu_events) /
                           sizeof(pcie_pmu_events[0]); i++) {
        if (pcie_pmu_events[i].code == code) {
            return &pcie_pmu_events[i];
        }
    }
    return NULL;
}

PciePmuFilter model_pcie_pmu_event_filter(const PciePmuEvent *ev,
                                          PciePmuFilter f)
{
    if (ev->latency) {
        f.thr_en = false;
        f.trig_en = false;
    }
    return f;
}

static bool passes_threshold(const PciePmuFilter *f, uint16_t len)
{
    if (!f->thr_en) {
        return true;
    }
    return f->thr_below ? len < (1u << f->thr_len) : len >= (1u << f->thr_len);
}

bool model_pcie_pmu_fires_trigger(const PciePmuFilter *f, uint16_t len)
{
    return f->trig_below ? len < (1u << f->trig_len) :
                           len > (1u << f->trig_len);
}

/* Header DWs: 64-bit memory requests take 4, the rest 3 */
static unsigned header_dw(const TrafficStream *s)
{
    return s->kind != TRAFFIC_COMPLETION && (s->addr_base >> 32) ? 4 : 3;
}

/* Sums of the TLPs [0, k) of @s that pass the threshold */
static void sums_before(const TrafficStream *s, const PciePmuFilter *f,
                        uint64_t k, uint64_t *tlps, uint64_t *len_dw)
{
    uint64_t period_tlps = 0, period_dw = 0, part_tlps = 0, part_dw = 0;
    unsigned part = k % TRAFFIC_PATTERN;

    for (unsigned i = 0; i < TRAFFIC_PATTERN; i++) {
        uint16_t len = s->flow.len[i];

        if (!passes_threshold(f, len)) {
            continue;
        }
        period_tlps++;
        period_dw += len;
        if (i < part) {
            part_tlps++;
            part_dw += len;
        }
    }
    *tlps = k / TRAFFIC_PATTERN * period_tlps + part_tlps;
    *len_dw = k / TRAFFIC_PATTERN * period_dw + part_dw;
}

/* Add @tlps TLPs of @kind with @dw DWs of Length in all to @sums */
static void add_sums(const PciePmuFilter *f, uint8_t kind, unsigned hdr_dw,
                     uint64_t tlps, uint64_t dw, uint64_t delay_ns,
                     PciePmuSums *sums)
{
    sums->tlps += tlps;
    sums->delay_ns += delay_ns;
    if ((f->len_mode & PCIE_PMU_LEN_PAYLOAD) && kind != TRAFFIC_NON_POSTED) {
        sums->bytes += dw * 4;
    }
    if (f->len_mode & PCIE_PMU_LEN_HEADER) {
        sums->bytes += tlps * hdr_dw * 4;
    }
}

void model_pcie_pmu_stream_sums(const TrafficStream *s, const PciePmuFilter *f,
                                uint64_t k0, uint64_t k1, PciePmuSums *sums)
{
    uint64_t t0, d0, t1, d1;

    if (k1 <= k0) {
        return;
    }
    sums_before(s, f, k0, &t0, &d0);
    sums_before(s, f, k1, &t1, &d1);
    add_sums(f, s->kind, header_dw(s), t1 - t0, d1 - d0,
             (t1 - t0) * s->latency_ns, sums);
}

void model_pcie_pmu_tlp_sums(const PciePmuFilter *f, uint8_t kind,
                             uint16_t len_dw, unsigned header_dw,
                             uint64_t delay_ns, PciePmuSums *sums)
{
    if (passes_threshold(f, len_dw)) {
        add_sums(f, kind, header_dw, 1, len_dw, delay_ns, sums);
    }
}

uint64_t model_pcie_pmu_trigger_tlp(const TrafficStream *s,
                                    const PciePmuFilter *f, uint64_t k0)
{
    /* k0 + i must not wrap: UINT64_MAX itself is the answer "none" */
    for (uint64_t i = 0; i < TRAFFIC_PATTERN && i < UINT64_MAX - k0; i++) {
        uint64_t k = k0 + i;

        if (model_pcie_pmu_fires_trigger(f, model_traffic_len(&s->flow, k))) {
            return k;
        }
    }
    return UINT64_MAX;
}
