/*
 * Host unit tests: the flow arithmetic of model/flow.c at its edges,
 * against the definitions in flow.h evaluated event by event here:
 *     t(k) = epoch_t + ceil(((k - epoch_k) * 1e9 + epoch_left) / rate)
 * and "number of events with time < t".
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <glib.h>
#include <stdbool.h>

#include "flow.h"

/*
 * splitmix64 (Steele, Lea, Flood 2014; Vigna's reference splitmix64.c):
 * from state 1234567 the generator returns these, each call adding the
 * golden gamma to the state and mixing it.
 */
static void test_mix_vectors(void)
{
    static const uint64_t out[] = {
        6457827717110365317ull, 3203168211198807973ull,
        9817491932198370423ull, 4593380528125082431ull,
        16408922859458223821ull,
    };
    uint64_t state = 1234567;

    for (size_t i = 0; i < G_N_ELEMENTS(out); i++) {
        g_assert_cmpuint(model_traffic_mix(state), ==, out[i]);
        state += 0x9e3779b97f4a7c15ull;
    }
}

/* t(k) by the definition */
static int64_t t_of(const TrafficFlow *f, uint64_t k)
{
    unsigned __int128 work = (unsigned __int128)(k - f->epoch_k) *
                             1000000000u + f->epoch_left;

    return f->epoch_t + (int64_t)((work + f->rate - 1) / f->rate);
}

/* Events before @t: the first k with t(k) >= t, t() being monotonic */
static uint64_t count_of(const TrafficFlow *f, int64_t t)
{
    uint64_t lo = f->epoch_k, hi = f->epoch_k + 1;

    while (t_of(f, hi) < t) {
        hi += hi - f->epoch_k;
    }
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;

        if (t_of(f, mid) < t) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

static void check_flow(const TrafficFlow *f)
{
    for (uint64_t k = f->epoch_k; k < f->epoch_k + 40; k++) {
        int64_t t = t_of(f, k);

        g_assert_cmpint(model_traffic_time(f, k), ==, t);
        for (int64_t d = -1; d <= 1; d++) {
            g_assert_cmpuint(model_traffic_count_before(f, t + d), ==,
                             count_of(f, t + d));
        }
    }
    g_assert_cmpuint(model_traffic_count_before(f, f->epoch_t), ==,
                     f->epoch_k);
    g_assert_cmpuint(model_traffic_count_before(f, f->epoch_t - 1), ==,
                     f->epoch_k);
    g_assert_cmpuint(model_traffic_count_before(f, INT64_MIN), ==,
                     f->epoch_k);
}

/*
 * Rates that divide 1e9, that do not, of one event per second and of more
 * than one per ns; epochs with work left of 0, 1 and almost a whole event.
 */
static void test_time_and_count(void)
{
    static const uint64_t rates[] = {
        1, 3, 7, 1000000, 999999999, 1000000000, 1000000001, 3000000000ull,
    };
    static const uint32_t lefts[] = { 0, 1, 999999999 };
    static const int64_t epochs[] = { 0, 1, 123456789 };

    for (size_t r = 0; r < G_N_ELEMENTS(rates); r++) {
        for (size_t l = 0; l < G_N_ELEMENTS(lefts); l++) {
            for (size_t e = 0; e < G_N_ELEMENTS(epochs); e++) {
                TrafficFlow f;

                model_traffic_flow_init(&f, 1, rates[r], epochs[e], 1, 1);
                f.epoch_k = e * 1000;
                f.epoch_left = lefts[l];
                check_flow(&f);
            }
        }
    }
}

/* No rate: no event ever; far events saturate at TRAFFIC_NEVER */
static void test_never(void)
{
    TrafficFlow f;

    model_traffic_flow_init(&f, 1, 0, 0, 1, 1);
    f.epoch_k = 7;
    g_assert_cmpint(model_traffic_time(&f, 7), ==, TRAFFIC_NEVER);
    g_assert_cmpuint(model_traffic_count_before(&f, INT64_MAX), ==, 7);
    model_traffic_flow_init(&f, 1, 1, 0, 1, 1);
    /* event k of 1/s is at k s: 9223372036 s fit in int64 ns, more not */
    g_assert_cmpint(model_traffic_time(&f, 9223372036ull), ==,
                    9223372036000000000ll);
    g_assert_cmpint(model_traffic_time(&f, 9223372037ull), ==,
                    TRAFFIC_NEVER);
    f.epoch_t = 1;
    g_assert_cmpint(model_traffic_time(&f, 9223372036ull), ==,
                    9223372036000000001ll);
    f.epoch_t = 854775807;
    g_assert_cmpint(model_traffic_time(&f, 9223372036ull), ==,
                    TRAFFIC_NEVER);
    f.epoch_t = 854775806;
    g_assert_cmpint(model_traffic_time(&f, 9223372036ull), ==,
                    INT64_MAX - 1);
}

/*
 * A rate change at @now keeps the events before now (the new epoch starts
 * at the first one not before now), and the next event keeps the work done
 * on it: it comes when the new rate has done the rest. Checked against the
 * definition before and after.
 */
static void test_set_rate(void)
{
    static const uint64_t rates[][2] = {
        { 3, 7 }, { 7, 3 }, { 1000000, 1 }, { 1, 1000000000 },
        { 999999999, 1000000001 }, { 5, 0 },
    };
    static const int64_t nows[] = { 0, 1, 333333333, 333333334, 1500000000 };

    for (size_t r = 0; r < G_N_ELEMENTS(rates); r++) {
        for (size_t n = 0; n < G_N_ELEMENTS(nows); n++) {
            int64_t now = nows[n];
            TrafficFlow f, old;
            uint64_t k;
            unsigned __int128 need, done;

            model_traffic_flow_init(&f, 1, rates[r][0], 0, 1, 1);
            old = f;
            k = count_of(&old, now);
            model_traffic_set_rate(&f, rates[r][1], now);
            g_assert_cmpuint(f.epoch_k, ==, k);
            g_assert_cmpint(f.epoch_t, ==, now);
            g_assert_cmpuint(f.rate, ==, rates[r][1]);
            g_assert_cmpuint(model_traffic_count_before(&f, now), ==, k);
            /* the work event k needs, less what the old rate did by now */
            need = (unsigned __int128)k * 1000000000u;
            done = (unsigned __int128)rates[r][0] * (uint64_t)now;
            g_assert_cmpuint(f.epoch_left, ==,
                             need > done ? (uint64_t)(need - done) : 0);
            if (rates[r][1]) {
                check_flow(&f);
            }
        }
    }
}

/* Setting the rate a flow has changes nothing, not even its epoch */
static void test_same_rate(void)
{
    TrafficFlow f, g;

    model_traffic_flow_init(&f, 1, 3, 0, 1, 1);
    g = f;
    model_traffic_set_rate(&f, 3, 1000);
    g_assert_cmpmem(&f, sizeof(f), &g, sizeof(g));
    /* a rate change exactly at the epoch keeps the work left */
    f.epoch_left = 5;
    model_traffic_set_rate(&f, 4, 0);
    g_assert_cmpuint(f.epoch_left, ==, 5);
    g_assert_cmpuint(f.epoch_k, ==, 0);
}

/* Phases carry epoch_t, epoch_k and the work left, and nothing else */
static void test_phase(void)
{
    TrafficFlow f, g;
    TrafficPhase p;

    model_traffic_flow_init(&f, 1, 3, 11, 1, 1);
    f.epoch_k = 12;
    f.epoch_left = 13;
    model_traffic_phase_get(&f, &p);
    g_assert_cmpint(p.t, ==, 11);
    g_assert_cmpuint(p.k, ==, 12);
    g_assert_cmpuint(p.left, ==, 13);
    model_traffic_flow_init(&g, 2, 5, 0, 1, 1);
    model_traffic_phase_set(&g, &p);
    g_assert_cmpint(g.epoch_t, ==, 11);
    g_assert_cmpuint(g.epoch_k, ==, 12);
    g_assert_cmpuint(g.epoch_left, ==, 13);
    g_assert_cmpuint(g.rate, ==, 5);
}

/*
 * Lengths are drawn from [len_min, len_max], both ends reachable, by
 * mix(key + i) mod the span; a reversed range gives len_min. Prefix sums
 * and len_sum() over any [k0, k1) add the pattern up event by event.
 */
static void test_lengths(void)
{
    static const uint16_t ranges[][2] = {
        { 1, 1 }, { 1, 2 }, { 16, 16 }, { 1, 1024 }, { 1023, 1024 },
        { 8, 3 }, { 0, 65535 },
    };

    for (size_t r = 0; r < G_N_ELEMENTS(ranges); r++) {
        uint16_t lo = ranges[r][0], hi = ranges[r][1];
        uint32_t span = hi >= lo ? hi - lo + 1u : 1;
        TrafficFlow f;

        model_traffic_flow_init(&f, 99, 1, 0, lo, hi);
        g_assert_cmpuint(f.len_prefix[0], ==, 0);
        for (unsigned i = 0; i < TRAFFIC_PATTERN; i++) {
            g_assert_cmpuint(f.len[i], ==,
                             lo + model_traffic_mix(99 + i) % span);
            g_assert_cmpuint(f.len_prefix[i + 1], ==,
                             f.len_prefix[i] + f.len[i]);
            g_assert_cmpuint(model_traffic_len(&f, i + 5 * TRAFFIC_PATTERN),
                             ==, f.len[i]);
        }
        for (uint64_t k0 = 0; k0 < 40; k0 += 3) {
            uint64_t sum = 0;

            for (uint64_t k1 = k0; k1 < k0 + 40; k1++) {
                g_assert_cmpuint(model_traffic_len_sum(&f, k0, k1), ==, sum);
                sum += f.len[k1 % TRAFFIC_PATTERN];
            }
            g_assert_cmpuint(model_traffic_len_sum(&f, k0 + 1, k0), ==, 0);
        }
    }
    /* 1 and 2 both drawn: the span is hi - lo + 1 */
    {
        TrafficFlow f;
        bool seen[3] = { false };

        model_traffic_flow_init(&f, 99, 1, 0, 1, 2);
        for (unsigned i = 0; i < TRAFFIC_PATTERN; i++) {
            seen[f.len[i]] = true;
        }
        g_assert_true(seen[1] && seen[2]);
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/flow-edges/mix-vectors", test_mix_vectors);
    g_test_add_func("/flow-edges/time-and-count", test_time_and_count);
    g_test_add_func("/flow-edges/never", test_never);
    g_test_add_func("/flow-edges/set-rate", test_set_rate);
    g_test_add_func("/flow-edges/same-rate", test_same_rate);
    g_test_add_func("/flow-edges/phase", test_phase);
    g_test_add_func("/flow-edges/lengths", test_lengths);
    return g_test_run();
}
