/*
 * A flow: when the events of one stream of traffic happen (PCIe TLPs, NIC
 * packets, ring flits), and their lengths.
 *
 * Event k (k = epoch_k, epoch_k + 1, ...) of a flow at a fixed rate happens
 * at
 *     t(k) = epoch_t + ceil(((k - epoch_k) * 1e9 + epoch_left) / rate)
 * ns of virtual time, so counts over any interval are O(1) exact integer
 * arithmetic: each event takes 1e9 units of work, a flow does rate units
 * per ns, and epoch_left is the work event epoch_k still needed at epoch_t.
 * A rate change starts a new epoch that keeps the count and the work left
 * to the next event, so counts, event numbers and the phase of the flow
 * all go on across it (a rate change is not a restart). Lengths (in the
 * flow's unit: DWs, bytes, beats) follow a pattern of TRAFFIC_PATTERN
 * entries drawn from a key, so length sums are O(1) too.
 *
 * Plain C with no QEMU headers: the host unit tests and benchmarks use it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HISI_MODEL_FLOW_H
#define HISI_MODEL_FLOW_H

#include <stdint.h>

#define TRAFFIC_NS_PER_S    1000000000ull
#define TRAFFIC_PATTERN     16
#define TRAFFIC_NEVER       INT64_MAX

typedef struct TrafficFlow {
    uint64_t rate;          /* events per second; 0: none */
    int64_t epoch_t;        /* ns: t(epoch_k) == epoch_t */
    uint64_t epoch_k;
    uint32_t epoch_left;    /* work event epoch_k needs after epoch_t */
    uint16_t len[TRAFFIC_PATTERN];
    uint32_t len_prefix[TRAFFIC_PATTERN + 1];   /* sums of len[0..i) */
} TrafficFlow;

/* Well-mixed 64 bits from @x (splitmix64), for keys and patterns */
uint64_t model_traffic_mix(uint64_t x);

/*
 * Set up @f at @rate from @epoch_t on (event 0 then), with lengths drawn
 * from [len_min, len_max] by @key.
 */
void model_traffic_flow_init(TrafficFlow *f, uint64_t key, uint64_t rate,
                             int64_t epoch_t, uint16_t len_min,
                             uint16_t len_max);

/*
 * Change the rate from time @now on (@now >= epoch_t): the events before
 * @now stay as they were, and the next one keeps the share of its work
 * done so far (at rate 0 a flow keeps it until the rate is set again).
 */
void model_traffic_set_rate(TrafficFlow *f, uint64_t rate, int64_t now);

/* Where a flow stands at its epoch, to carry it over to a rebuilt flow */
typedef struct TrafficPhase {
    int64_t t;
    uint64_t k;
    uint32_t left;
} TrafficPhase;

void model_traffic_phase_get(const TrafficFlow *f, TrafficPhase *p);
void model_traffic_phase_set(TrafficFlow *f, const TrafficPhase *p);

/* Number of events with time < @t. */
uint64_t model_traffic_count_before(const TrafficFlow *f, int64_t t);

/* Time of event @k (TRAFFIC_NEVER when the rate is 0). @k >= epoch_k. */
int64_t model_traffic_time(const TrafficFlow *f, uint64_t k);

static inline uint16_t model_traffic_len(const TrafficFlow *f, uint64_t k)
{
    return f->len[k % TRAFFIC_PATTERN];
}

/* Sum of the lengths of events [k0, k1). */
uint64_t model_traffic_len_sum(const TrafficFlow *f, uint64_t k0, uint64_t k1);

#endif
