/*
 * A flow: when the events of one stream of traffic happen.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "flow.h"

typedef unsigned __int128 u128;

uint64_t model_traffic_mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

void model_traffic_flow_init(TrafficFlow *f, uint64_t key, uint64_t rate,
                             int64_t epoch_t, uint16_t len_min,
                             uint16_t len_max)
{
    uint32_t span = len_max >= len_min ? len_max - len_min + 1u : 1u;

    f->rate = rate;
    f->epoch_t = epoch_t;
    f->epoch_k = 0;
    f->epoch_left = 0;
    f->len_prefix[0] = 0;
    for (unsigned i = 0; i < TRAFFIC_PATTERN; i++) {
        f->len[i] = len_min + model_traffic_mix(key + i) % span;
        f->len_prefix[i + 1] = f->len_prefix[i] + f->len[i];
    }
}

uint64_t model_traffic_count_before(const TrafficFlow *f, int64_t t)
{
    u128 work;

    if (!f->rate || t <= f->epoch_t) {
        return f->epoch_k;
    }
    /*
     * Event epoch_k + j is before t iff
     * j * 1e9 + epoch_left <= (t - epoch_t - 1) * rate
     */
    work = (u128)(uint64_t)(t - f->epoch_t - 1) * f->rate;
    if (work < f->epoch_left) {
        return f->epoch_k;
    }
    return f->epoch_k + 1 +
           (uint64_t)((work - f->epoch_left) / TRAFFIC_NS_PER_S);
}

int64_t model_traffic_time(const TrafficFlow *f, uint64_t k)
{
    u128 dt;

    if (!f->rate) {
        return TRAFFIC_NEVER;
    }
    dt = ((u128)(k - f->epoch_k) * TRAFFIC_NS_PER_S + f->epoch_left +
          f->rate - 1) / f->rate;
    if (dt >= (u128)(TRAFFIC_NEVER - f->epoch_t)) {
        return TRAFFIC_NEVER;
    }
    return f->epoch_t + (int64_t)dt;
}

void model_traffic_set_rate(TrafficFlow *f, uint64_t rate, int64_t now)
{
    uint64_t k = model_traffic_count_before(f, now);

    if (rate == f->rate) {
        return;
    }
    if (f->rate && now > f->epoch_t) {
        /* The work event k needs, less what was done up to now */
        u128 need = (u128)(k - f->epoch_k) * TRAFFIC_NS_PER_S + f->epoch_left;
        u128 done = f->rate * (u128)(uint64_t)(now - f->epoch_t);

        /*
         * Event k may lie less than a ns before now, rounded up to now:
         * it still happens at now.
         */
        f->epoch_left = need > done ? (uint32_t)(need - done) : 0;
    }
    f->epoch_k = k;
    f->epoch_t = now;
    f->rate = rate;
}

void model_traffic_phase_get(const TrafficFlow *f, TrafficPhase *p)
{
    *p = (TrafficPhase) {
        .t = f->epoch_t, .k = f->epoch_k, .left = f->epoch_left,
    };
}

void model_traffic_phase_set(TrafficFlow *f, const TrafficPhase *p)
{
    f->epoch_t = p->t;
    f->epoch_k = p->k;
    f->epoch_left = p->left;
}

/* Sum of the lengths of events [0, k) */
static uint64_t len_total(const TrafficFlow *f, uint64_t k)
{
    return k / TRAFFIC_PATTERN * f->len_prefix[TRAFFIC_PATTERN] +
           f->len_prefix[k % TRAFFIC_PATTERN];
}

uint64_t model_traffic_len_sum(const TrafficFlow *f, uint64_t k0, uint64_t k1)
{
    return k1 > k0 ? len_total(f, k1) - len_total(f, k0) : 0;
}
