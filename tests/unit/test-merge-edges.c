/*
 * Host unit tests: the merge of streams into time order (traffic.h) and
 * the period of that order at their edges: ties, streams that run out of
 * time, the first and the last stream, against a walk here of each
 * stream's TLP times by the definition in flow.h.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <glib.h>
#include <string.h>

#include "traffic.h"

/* t(k) = epoch_t + ceil(((k - epoch_k) * 1e9 + epoch_left) / rate) */
static int64_t t_of(const TrafficFlow *f, uint64_t k)
{
    unsigned __int128 dt = ((unsigned __int128)(k - f->epoch_k) *
                            1000000000u + f->epoch_left + f->rate - 1) /
                           f->rate;

    return dt >= (unsigned __int128)(INT64_MAX - f->epoch_t) ?
           TRAFFIC_NEVER : f->epoch_t + (int64_t)dt;
}

static void stream(TrafficStream *s, uint64_t rate, int64_t epoch_t)
{
    memset(s, 0, sizeof(*s));
    model_traffic_flow_init(&s->flow, 1, rate, epoch_t, 1, 1);
}

/*
 * Pop @n TLPs from t0 on: each must be the earliest of all streams' next
 * TLPs, the lowest stream on a tie; after the last, peek says NEVER.
 */
static void check_merge(const TrafficStream *s, uint32_t n, int64_t t0,
                        unsigned pops)
{
    static TrafficMerge m;
    uint64_t next[8];

    g_assert_cmpuint(n, <=, G_N_ELEMENTS(next));
    for (uint32_t i = 0; i < n; i++) {
        next[i] = s[i].flow.epoch_k;
        while (s[i].flow.rate && t_of(&s[i].flow, next[i]) < t0) {
            next[i]++;
        }
    }
    model_traffic_merge_start(&m, s, n, t0);
    for (unsigned p = 0; p < pops; p++) {
        int64_t best_t = TRAFFIC_NEVER;
        uint32_t best = 0, got_s;
        uint64_t got_k;

        for (uint32_t i = 0; i < n; i++) {
            int64_t t = s[i].flow.rate ? t_of(&s[i].flow, next[i]) :
                        TRAFFIC_NEVER;

            if (t < best_t) {
                best_t = t;
                best = i;
            }
        }
        g_assert_cmpint(model_traffic_merge_peek(&m), ==, best_t);
        if (best_t == TRAFFIC_NEVER) {
            return;
        }
        model_traffic_merge_pop(&m, &got_s, &got_k);
        g_assert_cmpuint(got_s, ==, best);
        g_assert_cmpuint(got_k, ==, next[best]);
        next[best]++;
    }
}

static void test_merge_ties(void)
{
    TrafficStream s[5];

    /* 1e6/s twice, 5e5/s, 3/s and 2e9/s (two TLPs per ns) */
    stream(&s[0], 1000000, 0);
    stream(&s[1], 1000000, 0);
    stream(&s[2], 500000, 0);
    stream(&s[3], 3, 0);
    stream(&s[4], 2000000000, 0);
    check_merge(s, 5, 0, 20000);
    check_merge(s, 5, 1, 20000);
    check_merge(s, 5, 333333334, 20000);
    /* the fast stream last, first, alone */
    check_merge(s + 4, 1, 7, 100);
    check_merge(s, 1, 999, 100);
}

/*
 * Streams near the end of time: a stream whose next TLP would come after
 * INT64_MAX leaves the merge; the others go on in order.
 */
static void test_merge_end_of_time(void)
{
    const int64_t late = INT64_MAX - 3500000000ll;   /* 3.5 s before */
    TrafficStream s[4];

    stream(&s[0], 1, late);             /* 4 TLPs left */
    stream(&s[1], 2, late + 1);         /* 7 */
    stream(&s[2], 3, late + 2);         /* 11 */
    stream(&s[3], 0, late);             /* none */
    check_merge(s, 4, late, 100);
    check_merge(s, 4, late + 1500000000ll, 100);
    check_merge(s + 1, 3, late, 100);
    /* nothing at all left */
    check_merge(s, 4, INT64_MAX, 10);
}

/*
 * The period of the merged order: the lcm over the streams with traffic
 * of 1e9 / gcd(rate, 1e9) ns times what makes each stream's TLPs a
 * multiple of @multiple; every stream counts, the first and the last.
 */
static void test_period(void)
{
    TrafficStream s[3];
    uint64_t tlps = 0;

    stream(&s[0], 3, 0);                /* 1 s, 3 TLPs */
    stream(&s[1], 1000, 0);             /* 1 ms */
    stream(&s[2], 0, 0);
    g_assert_cmpuint(model_traffic_period(s, 3, 1, 10000, &tlps), ==,
                     1000000000);
    g_assert_cmpuint(tlps, ==, 1003);
    g_assert_cmpuint(model_traffic_period(s + 1, 2, 1, 10000, &tlps), ==,
                     1000000);
    g_assert_cmpuint(tlps, ==, 1);
    /* the last stream alone sets it */
    stream(&s[2], 7, 0);
    g_assert_cmpuint(model_traffic_period(s + 1, 2, 1, 100000, &tlps), ==,
                     1000000000);
    g_assert_cmpuint(tlps, ==, 1007);
    /* a multiple of 4 TLPs each: 3 TLPs/s need 4 s */
    g_assert_cmpuint(model_traffic_period(s, 1, 4, 100, &tlps), ==,
                     4000000000ull);
    g_assert_cmpuint(tlps, ==, 12);
    /* at most max_tlps: 12 fit in 12, not in 11 */
    g_assert_cmpuint(model_traffic_period(s, 1, 4, 12, &tlps), ==,
                     4000000000ull);
    g_assert_cmpuint(model_traffic_period(s, 1, 4, 11, &tlps), ==, 0);
    /* 3 TLPs/s, a multiple of 3 (or 6) TLPs: 1 s (2 s) already has one */
    g_assert_cmpuint(model_traffic_period(s, 1, 3, 100, &tlps), ==,
                     1000000000);
    g_assert_cmpuint(tlps, ==, 3);
    g_assert_cmpuint(model_traffic_period(s, 1, 6, 100, &tlps), ==,
                     2000000000);
    g_assert_cmpuint(tlps, ==, 6);
    /* odd periods: 512e6 TLPs/s repeat every 125 ns (64 TLPs), 1e9 each ns */
    stream(&s[0], 512000000, 0);
    g_assert_cmpuint(model_traffic_period(s, 1, 1, 100, &tlps), ==, 125);
    g_assert_cmpuint(tlps, ==, 64);
    stream(&s[0], 1000000000, 0);
    g_assert_cmpuint(model_traffic_period(s, 1, 1, 100, &tlps), ==, 1);
    g_assert_cmpuint(tlps, ==, 1);
}

/*
 * Only the first TRAFFIC_MERGE_MAX streams take part (traffic.h); equal
 * rates tie at every TLP, so the streams pop in order 0, 1, ... The merge
 * lives on the heap, its exact size, where ASan sees any access past it.
 */
static void test_merge_max(void)
{
    static const uint32_t counts[] = { 180, TRAFFIC_MERGE_MAX + 1 };
    TrafficStream *s = g_new0(TrafficStream, TRAFFIC_MERGE_MAX + 1);
    TrafficMerge *m = g_new(TrafficMerge, 1);

    for (uint32_t i = 0; i <= TRAFFIC_MERGE_MAX; i++) {
        stream(&s[i], 1000, 0);
    }
    for (size_t c = 0; c < G_N_ELEMENTS(counts); c++) {
        uint32_t n = MIN(counts[c], TRAFFIC_MERGE_MAX);

        model_traffic_merge_start(m, s, counts[c], 1);
        for (uint32_t j = 0; j < 2 * n; j++) {
            uint32_t got_s;
            uint64_t got_k;

            model_traffic_merge_pop(m, &got_s, &got_k);
            g_assert_cmpuint(got_s, ==, j % n);
            g_assert_cmpuint(got_k, ==, 1 + j / n);
        }
    }
    g_free(m);
    g_free(s);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/merge-edges/ties", test_merge_ties);
    g_test_add_func("/merge-edges/end-of-time", test_merge_end_of_time);
    g_test_add_func("/merge-edges/period", test_period);
    g_test_add_func("/merge-edges/merge-max", test_merge_max);
    return g_test_run();
}
