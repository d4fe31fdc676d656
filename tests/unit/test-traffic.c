/*
 * Host unit tests: the traffic model and its rules.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <glib.h>
#include <string.h>

#include "traffic.h"
#include "traffic-rules.h"

static TrafficStream make_stream(uint64_t rate, int64_t epoch, uint16_t min,
                                 uint16_t max, uint64_t seed)
{
    TrafficStream s = {
        .endpoint = 0x0100, .port = 0x0080, .index = 0,
        .dir = TRAFFIC_INBOUND, .kind = TRAFFIC_POSTED,
        .addr_base = 0x100000000ull, .addr_window = 1 << 24,
    };

    model_traffic_stream_init(&s, seed, rate, epoch, min, max);
    return s;
}

/* Counting is exact: count_before agrees with the TLP times. */
static void test_count_matches_times(void)
{
    static const uint64_t rates[] = {
        1, 3, 7, 1000, 200000, 333333, 999999937, 1000000000, 3000000000ull,
    };
    GRand *r = g_rand_new_with_seed(1);

    for (size_t i = 0; i < G_N_ELEMENTS(rates); i++) {
        TrafficStream s = make_stream(rates[i], 1000, 1, 1, 0);

        g_assert_cmpuint(model_traffic_count_before(&s.flow, 0), ==, 0);
        g_assert_cmpuint(model_traffic_count_before(&s.flow, 1000), ==, 0);
        g_assert_cmpint(model_traffic_time(&s.flow, 0), ==, 1000);
        for (int j = 0; j < 2000; j++) {
            uint64_t k = g_rand_int_range(r, 0, 1 << 30);
            int64_t t = model_traffic_time(&s.flow, k);

            /* Above 1e9/s several TLPs share a nanosecond. */
            if (rates[i] <= 1000000000) {
                g_assert_cmpint(model_traffic_time(&s.flow, k + 1), >, t);
                g_assert_cmpuint(model_traffic_count_before(&s.flow, t), ==, k);
                g_assert_cmpuint(model_traffic_count_before(&s.flow, t + 1), ==,
                                 k + 1);
            } else {
                g_assert_cmpint(model_traffic_time(&s.flow, k + 1), >=, t);
                g_assert_cmpuint(model_traffic_count_before(&s.flow, t), <=, k);
                g_assert_cmpuint(model_traffic_count_before(&s.flow, t + 1), >,
                                 k);
            }
        }
        /* Brute force over a random window */
        for (int j = 0; j < 20; j++) {
            int64_t t0 = 1000 + g_rand_int_range(r, 0, 1 << 30);
            int64_t t1 = t0 + g_rand_int_range(r, 0, 1 << 20);
            uint64_t k = model_traffic_count_before(&s.flow, t0), n = 0;

            while (model_traffic_time(&s.flow, k + n) < t1) {
                n++;
            }
            g_assert_cmpuint(model_traffic_count_before(&s.flow, t1) -
                             model_traffic_count_before(&s.flow, t0), ==, n);
        }
    }
    g_rand_free(r);
}

/*
 * Ten years at a billion TLPs per second: TLP k happens at k ns, so k TLPs
 * come before k ns.
 */
static void test_long_runs(void)
{
    TrafficStream s = make_stream(1000000000, 0, 1, 1, 0);
    int64_t ten_years = 10ll * 365 * 24 * 3600 * 1000000000ll;
    int64_t fifty_years = 5 * ten_years;
    uint64_t n;

    g_assert_cmpuint(model_traffic_count_before(&s.flow, ten_years), ==,
                     ten_years);
    g_assert_cmpint(model_traffic_time(&s.flow, ten_years), ==, ten_years);
    /*
     * The highest rate allowed, 1e10/s, over 50 years: TLP k happens at
     * ceil(k / 10) ns, so those before T ns are k <= 10 (T - 1), 10 T - 9
     * of them: 1.6e19, still below 2^64 (counts stay exact for 58 years
     * at that rate).
     */
    s = make_stream(TRAFFIC_MAX_RATE, 0, 1, 1, 0);
    g_assert_cmpuint(TRAFFIC_MAX_RATE, ==, 10 * TRAFFIC_NS_PER_S);
    n = 10 * (uint64_t)fifty_years - 9;
    g_assert_cmpuint(model_traffic_count_before(&s.flow, fifty_years), ==, n);
    g_assert_cmpint(model_traffic_time(&s.flow, n - 1), ==, fifty_years - 1);
    g_assert_cmpint(model_traffic_time(&s.flow, n), ==, fifty_years);
    s.flow.rate = 0;
    g_assert_cmpint(model_traffic_time(&s.flow, 5), ==, TRAFFIC_NEVER);
    g_assert_cmpuint(model_traffic_count_before(&s.flow, ten_years), ==, 0);
}

static void test_lengths(void)
{
    TrafficStream a = make_stream(1000, 0, 8, 32, 1);
    TrafficStream b = make_stream(1000, 0, 8, 32, 2);
    GRand *r = g_rand_new_with_seed(2);
    bool differ = false;

    for (int i = 0; i < TRAFFIC_PATTERN; i++) {
        g_assert_cmpuint(a.flow.len[i], >=, 8);
        g_assert_cmpuint(a.flow.len[i], <=, 32);
        differ |= a.flow.len[i] != b.flow.len[i];
    }
    g_assert_true(differ);
    for (int j = 0; j < 200; j++) {
        uint64_t k0 = g_rand_int_range(r, 0, 100000);
        uint64_t k1 = k0 + g_rand_int_range(r, 0, 1000);
        uint64_t sum = 0;

        for (uint64_t k = k0; k < k1; k++) {
            sum += model_traffic_len(&a.flow, k);
        }
        g_assert_cmpuint(model_traffic_len_sum(&a.flow, k0, k1), ==, sum);
    }
    g_assert_cmpuint(model_traffic_len_sum(&a.flow, 10, 5), ==, 0);
    g_rand_free(r);
}

/*
 * TLP k is a pure function of the stream, seed and k; the seed draws the
 * lengths, so another seed gives other TLPs with the same tags, requester
 * and addresses.
 */
static void test_tlp_pure(void)
{
    TrafficStream a = make_stream(1000, 0, 8, 32, 9);
    TrafficStream b = make_stream(1000, 0, 8, 32, 9);
    TrafficStream other_seed = make_stream(1000, 0, 8, 32, 10);
    PcieTlp x, y, z;
    bool differ = false;

    for (uint64_t k = 0; k < 1000; k += 37) {
        model_traffic_tlp(&a, k, &x);
        model_traffic_tlp(&b, k, &y);
        model_traffic_tlp(&other_seed, k, &z);
        g_assert_cmpmem(&x, sizeof(x), &y, sizeof(y));
        g_assert_cmpuint(model_pcie_tlp_len_dw(&x), ==,
                         model_traffic_len(&a.flow, k));
        g_assert_cmphex(x.dw[1] >> 16, ==, 0x0100);        /* requester */
        g_assert_cmphex((x.dw[1] >> 8) & 0xff, ==, k & 0xff); /* tag */
        g_assert_cmphex(z.dw[1], ==, x.dw[1]);
        g_assert_cmphex(z.dw[2], ==, x.dw[2]);
        g_assert_cmphex(z.dw[3], ==, x.dw[3]);
        differ |= model_pcie_tlp_len_dw(&z) != model_pcie_tlp_len_dw(&x);
    }
    g_assert_true(differ);
}

static void test_set_rate_continuous(void)
{
    TrafficStream s = make_stream(1000, 0, 1, 1, 0);
    int64_t change = 1234567891;
    uint64_t at_change = model_traffic_count_before(&s.flow, change);

    model_traffic_set_rate(&s.flow, 5000, change);
    g_assert_cmpuint(model_traffic_count_before(&s.flow, change), ==,
                     at_change);
    /* From the change on, the new rate: 5000 per second */
    g_assert_cmpuint(model_traffic_count_before(&s.flow, change + 1000000000) -
                     at_change, ==, 5000);
}

/*
 * A rate change keeps the phase: the next event keeps the share of its
 * interval already run, so changing the rates of several streams at one
 * instant does not line their next events up at that instant; and a
 * change to the same rate changes nothing at all.
 */
static void test_set_rate_keeps_phase(void)
{
    static const uint64_t rates[] = { 200000, 100000, 30000, 7000, 5000 };
    TrafficStream s[G_N_ELEMENTS(rates)];
    int64_t change = 1234567;
    unsigned at_change = 0;

    for (size_t i = 0; i < G_N_ELEMENTS(rates); i++) {
        TrafficFlow same;
        uint64_t k;
        int64_t next;

        s[i] = make_stream(rates[i], 0, 1, 1, 0);
        same = s[i].flow;
        model_traffic_set_rate(&same, rates[i], change);
        g_assert_true(memcmp(&same, &s[i].flow, sizeof(same)) == 0);

        k = model_traffic_count_before(&s[i].flow, change);
        next = model_traffic_time(&s[i].flow, k);
        model_traffic_set_rate(&s[i].flow, rates[i] * 2, change);
        g_assert_cmpuint(model_traffic_count_before(&s[i].flow, change), ==,
                         k);
        /* half the time left at twice the rate, give or take a ns */
        g_assert_cmpint(model_traffic_time(&s[i].flow, k) - change, >=,
                        (next - change) / 2 - 1);
        g_assert_cmpint(model_traffic_time(&s[i].flow, k) - change, <=,
                        (next - change + 1) / 2 + 1);
        at_change += model_traffic_time(&s[i].flow, k) == change;
    }
    g_assert_cmpuint(at_change, <, G_N_ELEMENTS(rates));
}

/*
 * Paused (rate 0) and resumed, a flow goes on where it stopped: the time
 * left to the next event then is the time left after the resume.
 */
static void test_pause_keeps_phase(void)
{
    TrafficStream s = make_stream(3000, 0, 1, 1, 0);
    int64_t pause = 1000000 + 123, resume = 5000000;
    uint64_t k = model_traffic_count_before(&s.flow, pause);
    int64_t left = model_traffic_time(&s.flow, k) - pause;

    model_traffic_set_rate(&s.flow, 0, pause);
    g_assert_cmpuint(model_traffic_count_before(&s.flow, resume), ==, k);
    model_traffic_set_rate(&s.flow, 3000, resume);
    g_assert_cmpint(model_traffic_time(&s.flow, k), >=, resume + left - 1);
    g_assert_cmpint(model_traffic_time(&s.flow, k), <=, resume + left + 1);
    /* then the rate as before: 3000 per second */
    g_assert_cmpuint(model_traffic_count_before(&s.flow, resume + 1000000000) -
                     k, ==, 3000);
}

/*
 * Many changes at odd times: counts stay linear (each segment holds its
 * rate times its length, within one event), the TLP numbers go on, the
 * merge walks the flows exactly as count_before and time give them, and
 * the same changes give the same flows (determinism).
 */
static void test_changes_linear(void)
{
    GRand *r = g_rand_new_with_seed(7);
    TrafficStream s = make_stream(200000, 0, 1, 1, 0);
    TrafficStream again = s;
    int64_t t = 0;

    for (int i = 0; i < 1000; i++) {
        uint64_t rate = g_rand_int_range(r, 0, 4) ? 1000 *
                        g_rand_int_range(r, 1, 400) : 0;
        int64_t len = g_rand_int_range(r, 1, 1 << 22);
        uint64_t k0 = model_traffic_count_before(&s.flow, t);
        uint64_t k1;
        TrafficMerge m;
        uint32_t stream;
        uint64_t k;

        model_traffic_set_rate(&s.flow, rate, t);
        model_traffic_set_rate(&again.flow, rate, t);
        g_assert_cmpuint(model_traffic_count_before(&s.flow, t), ==, k0);
        k1 = model_traffic_count_before(&s.flow, t + len);
        g_assert_cmpuint(k1 - k0, <=, (uint64_t)len * rate / 1000000000 + 1);
        g_assert_cmpuint(k1 - k0 + 1, >=, (uint64_t)len * rate / 1000000000);
        model_traffic_merge_start(&m, &s, 1, t);
        for (uint64_t want = k0; want < k1; want++) {
            g_assert_cmpint(model_traffic_merge_peek(&m), ==,
                            model_traffic_time(&s.flow, want));
            model_traffic_merge_pop(&m, &stream, &k);
            g_assert_cmpuint(k, ==, want);
        }
        t += len;
    }
    g_assert_true(memcmp(&s, &again, sizeof(s)) == 0);
    g_rand_free(r);
}

/*
 * The default profile under tuning: QoS weight w of an outbound kind
 * scales its rate by 2^w / 2, the buffer level l of a direction its
 * latency by (4 - l) / 3 (docs/devices/traffic.md). Each case gives the kinds
 * and directions different settings, so that a setting applied to the wrong
 * streams shows.
 */
static void test_endpoint_profile(void)
{
    static const struct {
        TrafficTuning tune;
        uint64_t rate[TRAFFIC_ENDPOINT_STREAMS];
        uint32_t latency_ns[TRAFFIC_ENDPOINT_STREAMS];
    } cases[] = {
        /* weights and levels 1: the profile as it is */
        { TRAFFIC_TUNING_RESET,
          { 200000, 100000, 100000, 20000, 10000, 10000, 5000 },
          { 600, 900, 900, 300, 1200, 1200, 1500 } },
        { { .level = {
              [TRAFFIC_TUNE_QOS_TX_CPL] = 0,        /* half */
              [TRAFFIC_TUNE_QOS_TX_NP] = 2,         /* double */
              [TRAFFIC_TUNE_QOS_TX_P] = 1,
              [TRAFFIC_TUNE_RX_BUF_LEVEL] = 2,      /* 2/3 */
              [TRAFFIC_TUNE_TX_BUF_LEVEL] = 0 } },  /* 4/3 */
          { 200000, 100000, 50000, 20000, 20000, 10000, 5000 },
          { 400, 600, 1200, 400, 1600, 800, 1000 } },
        { { .level = {
              [TRAFFIC_TUNE_QOS_TX_CPL] = 2,
              [TRAFFIC_TUNE_QOS_TX_NP] = 0,
              [TRAFFIC_TUNE_QOS_TX_P] = 2,
              [TRAFFIC_TUNE_RX_BUF_LEVEL] = 0,
              [TRAFFIC_TUNE_TX_BUF_LEVEL] = 1 } },
          { 200000, 100000, 200000, 40000, 5000, 10000, 5000 },
          { 800, 1200, 900, 300, 1200, 1600, 2000 } },
    };
    TrafficSpec spec[TRAFFIC_ENDPOINT_STREAMS];
    TrafficStream s[TRAFFIC_ENDPOINT_STREAMS];

    model_traffic_profile_default(spec);
    for (size_t c = 0; c < G_N_ELEMENTS(cases); c++) {
        model_traffic_endpoint_streams(s, 0, spec, 0x100, 0x80, 0x10000000,
                                       4096, &cases[c].tune, 5);
        for (int i = 0; i < TRAFFIC_ENDPOINT_STREAMS; i++) {
            g_test_message("case %zu, stream %d", c, i);
            g_assert_cmpuint(s[i].flow.rate, ==, cases[c].rate[i]);
            g_assert_cmpuint(s[i].latency_ns, ==, cases[c].latency_ns[i]);
            g_assert_cmpint(s[i].flow.epoch_t, ==, 5);
        }
    }
    /* DMA goes to 16 MiB of host memory per endpoint above 4 GiB */
    g_assert_cmphex(s[0].addr_base, ==, 0x100000000ull + 0x100ull * (16 << 20));
    g_assert_cmphex(s[0].addr_window, ==, 16 << 20);
    /* the CPU's writes to the endpoint's BAR */
    g_assert_cmphex(s[3].addr_base, ==, 0x10000000);
    g_assert_cmphex(s[3].addr_window, ==, 4096);
}

/*
 * The TLPs of each stream of the profile, as the table of
 * docs/devices/traffic.md gives them: MWr, MRd or CplD (DMA above 4 GiB with
 * 4DW headers, the BAR below it with 3DW ones), Length the stream's length of
 * TLP k, the requester (model_traffic_requester()) and completer IDs, and the
 * CplD answering a read as a whole: Byte Count its 4 * Length bytes.
 */
static void test_stream_tlps(void)
{
    static const struct {
        unsigned fmt, type;
        bool cpl_from_ep;
    } want[TRAFFIC_ENDPOINT_STREAMS] = {
        { TLP_FMT_4DW_DATA, TLP_TYPE_MEM, false },  /* dma-write */
        { TLP_FMT_4DW_NODATA, TLP_TYPE_MEM, false }, /* dma-read */
        { TLP_FMT_3DW_DATA, TLP_TYPE_CPL, false },  /* dma-read-cpl */
        { TLP_FMT_3DW_DATA, TLP_TYPE_MEM, false },  /* mmio-write */
        { TLP_FMT_3DW_NODATA, TLP_TYPE_MEM, false }, /* mmio-read */
        { TLP_FMT_3DW_DATA, TLP_TYPE_CPL, true },   /* mmio-read-cpl */
        { TLP_FMT_3DW_DATA, TLP_TYPE_CPL, true },   /* p2p-cpl */
    };
    TrafficTuning tune = TRAFFIC_TUNING_RESET;
    TrafficSpec spec[TRAFFIC_ENDPOINT_STREAMS];
    TrafficStream s[TRAFFIC_ENDPOINT_STREAMS];

    model_traffic_profile_default(spec);
    model_traffic_endpoint_streams(s, 7, spec, 0x0100, 0x0080, 0x10000000,
                                   4096, &tune, 0);
    for (int i = 0; i < TRAFFIC_ENDPOINT_STREAMS; i++) {
        for (uint64_t k = 0; k < 40; k++) {
            unsigned len = model_traffic_len(&s[i].flow, k);
            PcieTlp t;

            g_test_message("stream %d, TLP %" G_GUINT64_FORMAT, i, k);
            model_traffic_tlp(&s[i], k, &t);
            g_assert_cmphex(model_pcie_tlp_fmt(&t), ==, want[i].fmt);
            g_assert_cmphex(model_pcie_tlp_type(&t), ==, want[i].type);
            g_assert_cmpuint(model_pcie_tlp_len_dw(&t), ==, len);
            if (want[i].type != TLP_TYPE_CPL) {
                g_assert_cmphex(t.dw[1] >> 16, ==,
                                model_traffic_requester(&s[i]));
                continue;
            }
            /* completer, then requester */
            g_assert_cmphex(t.dw[1] >> 16, ==,
                            want[i].cpl_from_ep ? 0x0100 : 0x0080);
            g_assert_cmphex(t.dw[2] >> 16, ==,
                            want[i].cpl_from_ep ? 0x0080 : 0x0100);
            g_assert_cmphex(t.dw[2] >> 16, ==,
                            model_traffic_requester(&s[i]));
            g_assert_cmpuint(t.dw[1] & 0xfff, ==, (len * 4) & 0xfff);
        }
    }
}

static void test_merge(void)
{
    TrafficSpec spec[TRAFFIC_ENDPOINT_STREAMS];
    TrafficStream s[2 * TRAFFIC_ENDPOINT_STREAMS];
    TrafficTuning mid = TRAFFIC_TUNING_RESET;
    TrafficMerge *m = g_new(TrafficMerge, 1);
    int64_t t0 = 123456789, t1 = t0 + 10000000, last = t0;
    uint64_t want = 0, got = 0;
    uint32_t last_stream = 0;

    model_traffic_profile_default(spec);
    spec[3].rate = 0;       /* a stream with no traffic */
    model_traffic_endpoint_streams(s, 0, spec, 0x100, 0x80, 0x10000000, 4096,
                                   &mid, 0);
    model_traffic_endpoint_streams(s + 7, 0, spec, 0x200, 0x88, 0x10001000,
                                   4096, &mid, 0);
    for (size_t i = 0; i < G_N_ELEMENTS(s); i++) {
        want += model_traffic_count_before(&s[i].flow, t1) -
                model_traffic_count_before(&s[i].flow, t0);
    }
    model_traffic_merge_start(m, s, G_N_ELEMENTS(s), t0);
    while (model_traffic_merge_peek(m) < t1) {
        int64_t t = model_traffic_merge_peek(m);
        uint32_t stream;
        uint64_t k;

        model_traffic_merge_pop(m, &stream, &k);
        g_assert_cmpint(t, ==, model_traffic_time(&s[stream].flow, k));
        g_assert_true(t > last || (t == last && stream >= last_stream) ||
                      got == 0);
        last = t;
        last_stream = stream;
        got++;
    }
    g_assert_cmpuint(got, ==, want);
    g_free(m);
}

static void test_period(void)
{
    TrafficStream s[3] = { { .flow.rate = 200000 }, { .flow.rate = 5000 },
                           { .flow.rate = 0 } };
    uint64_t tlps = 0;

    g_assert_cmpuint(model_traffic_period(s, 3, 1, 1000, &tlps), ==, 200000);
    g_assert_cmpuint(tlps, ==, 40 + 1);
    /* each stream a multiple of 16 TLPs: 3.2 ms */
    g_assert_cmpuint(model_traffic_period(s, 3, 16, 1000, &tlps), ==, 3200000);
    g_assert_cmpuint(tlps, ==, 640 + 16);
    g_assert_cmpuint(model_traffic_period(s, 3, 16, 655, &tlps), ==, 0);
    /* 1e9 / gcd(333333, 1e9): the order repeats every second */
    s[1].flow.rate = 333333;
    g_assert_cmpuint(model_traffic_period(s, 3, 1, 1000000, &tlps), ==,
                     TRAFFIC_NS_PER_S);
    g_assert_cmpuint(tlps, ==, 200000 + 333333);
    s[0].flow.rate = s[1].flow.rate = 0;
    g_assert_cmpuint(model_traffic_period(s, 3, 1, 1000000, &tlps), ==, 0);
}

static void test_rules(void)
{
    TrafficRules rules = { 0 };
    TrafficSpec spec[TRAFFIC_ENDPOINT_STREAMS], def[TRAFFIC_ENDPOINT_STREAMS];
    char err[256];

    g_assert_true(model_traffic_rules_parse(&rules,
        "stream=dma-write,rate=400000,len=16-20;"
        "ep=01:00.0,stream=all,rate=0;port=0000:00:11.0,stream=p2p-cpl,"
        "latency=5000", err, sizeof(err)));
    g_assert_cmpuint(rules.n, ==, 3);
    model_traffic_profile_default(def);

    /* Endpoint 02:00.0 below 00:10.0: the first rule only */
    model_traffic_profile_default(spec);
    model_traffic_rules_apply(&rules, 0x0200, 0x0080, spec);
    g_assert_cmpuint(spec[0].rate, ==, 400000);
    g_assert_cmpuint(spec[0].len_min, ==, 16);
    g_assert_cmpuint(spec[0].len_max, ==, 20);
    g_assert_cmpuint(spec[1].rate, ==, def[1].rate);
    g_assert_cmpuint(spec[6].latency_ns, ==, def[6].latency_ns);

    /* 01:00.0: the later rule wins, every stream off */
    model_traffic_profile_default(spec);
    model_traffic_rules_apply(&rules, 0x0100, 0x0080, spec);
    for (int i = 0; i < TRAFFIC_ENDPOINT_STREAMS; i++) {
        g_assert_cmpuint(spec[i].rate, ==, 0);
    }

    /* Below 00:11.0: the p2p latency */
    model_traffic_profile_default(spec);
    model_traffic_rules_apply(&rules, 0x0300, 0x0088, spec);
    g_assert_cmpuint(spec[6].latency_ns, ==, 5000);
    g_assert_cmpuint(spec[6].rate, ==, def[6].rate);

    g_assert_true(model_traffic_rules_parse(&rules, "", err, sizeof(err)));
    g_assert_cmpuint(rules.n, ==, 0);
}

static void test_nic_rules(void)
{
    TrafficRules rules = { 0 };
    NicSpec spec[NIC_KINDS], def[NIC_KINDS];
    char err[256];

    g_assert_true(model_traffic_rules_parse(&rules,
                                            "stream=nic-all,latency=700;"
                                            "ep=01:00.0,stream=nic-rx,"
                                            "rate=5000,len=64-9000,"
                                            "coalesce=4;"
                                            "stream=dma-write,rate=1", err,
                                            sizeof(err)));
    model_nic_profile_default(def);
    memcpy(spec, def, sizeof(spec));
    model_traffic_rules_apply_nic(&rules, 0x0100, 0x0080, spec);
    for (unsigned k = 0; k < NIC_KINDS; k++) {
        g_assert_cmpuint(spec[k].latency_ns, ==, 700);
        if (k != NIC_RX) {
            g_assert_cmpuint(spec[k].rate, ==, def[k].rate);
            g_assert_cmpuint(spec[k].coalesce, ==, def[k].coalesce);
        }
    }
    g_assert_cmpuint(spec[NIC_RX].rate, ==, 5000);
    g_assert_cmpuint(spec[NIC_RX].len_min, ==, 64);
    g_assert_cmpuint(spec[NIC_RX].len_max, ==, 9000);
    g_assert_cmpuint(spec[NIC_RX].coalesce, ==, 4);
    /* another function: only the first rule */
    memcpy(spec, def, sizeof(spec));
    model_traffic_rules_apply_nic(&rules, 0x0200, 0x0088, spec);
    g_assert_cmpuint(spec[NIC_RX].rate, ==, def[NIC_RX].rate);
    g_assert_cmpuint(spec[NIC_RX].latency_ns, ==, 700);
}

static void test_ring_rules(void)
{
    TrafficRules rules = { 0 };
    RingSpec spec, def;
    char err[256];

    g_assert_true(model_traffic_rules_parse(&rules,
                                            "stream=ring-all,rate=7;"
                                            "node=2,stream=ring-req-rx,"
                                            "rate=5000;"
                                            "stream=nic-rx,rate=1", err,
                                            sizeof(err)));
    model_ring_profile_default(RING_TYPE_HNF, &def);
    spec = def;
    model_traffic_rules_apply_ring(&rules, 2, &spec);
    for (unsigned k = 0; k < RING_NODE_STREAMS; k++) {
        g_assert_cmpuint(spec.rate[k], ==, k == 0 ? 5000 : 7);
    }
    spec = def;
    model_traffic_rules_apply_ring(&rules, 3, &spec);
    g_assert_cmpuint(spec.rate[0], ==, 7);
}

static void test_bad_rules(void)
{
    static const struct {
        const char *text, *err;
    } bad[] = {
        { "stream=dma-write,rate=fast", "bad rate value 'fast'" },
        { "stream=dma-write,rate=-1", "bad rate value '-1'" },
        { "stream=dma-write,rate=10000000001", "bad rate value" },
        { "stream=dma-write,len=0", "bad len value '0'" },
        { "stream=dma-write,len=9-8", "bad len value '9-8'" },
        { "stream=dma-write,len=1025", "PCIe streams take 1..1024 DWs" },
        { "stream=nic-tx,len=65536", "bad len value" },
        { "stream=nic-rx,coalesce=0", "bad coalesce value '0'" },
        { "stream=dma-write,coalesce=4", "only NIC streams have interrupts" },
        { "stream=dma-write,latency=1000000001", "bad latency value" },
        { "stream=bogus,rate=1", "bad stream value 'bogus'" },
        { "ep=1:2:3:4,stream=all,rate=1", "bad ep value" },
        { "ep=00:20.0,stream=all,rate=1", "bad ep value '00:20.0'" },
        { "port=00:10.8,stream=all,rate=1", "bad port value" },
        { "rate=1", "needs stream=" },
        { "stream=all", "needs rate=, len=, latency= or coalesce=" },
        { "node=2,stream=dma-write,rate=1", "the others ep=, port= and no" },
        { "ep=01:00.0,stream=ring-all,rate=1", "ring streams take node=" },
        { "stream=ring-req-rx,len=4", "ring streams take node= and rate=" },
        { "node=256,stream=ring-all,rate=1", "bad node value '256'" },
        { "stream=ring-req-up,rate=1", "bad stream value" },
        { "stream=all,speed=1", "unknown field 'speed'" },
        { "stream=all,rate", "'rate' is not name=value" },
    };
    TrafficRules rules = { 0 };
    char err[256];

    g_assert_true(model_traffic_rules_parse(&rules, "stream=all,rate=5", err,
                                            sizeof(err)));
    for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
        err[0] = '\0';
        g_test_message("%s", bad[i].text);
        g_assert_false(model_traffic_rules_parse(&rules, bad[i].text, err,
                                                 sizeof(err)));
        g_assert_nonnull(strstr(err, bad[i].err));
        /* A refused text changes nothing. */
        g_assert_cmpuint(rules.n, ==, 1);
        g_assert_cmpuint(rules.rule[0].rate, ==, 5);
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/traffic/count-matches-times", test_count_matches_times);
    g_test_add_func("/traffic/long-runs", test_long_runs);
    g_test_add_func("/traffic/lengths", test_lengths);
    g_test_add_func("/traffic/tlp-pure", test_tlp_pure);
    g_test_add_func("/traffic/set-rate-continuous", test_set_rate_continuous);
    g_test_add_func("/traffic/set-rate-keeps-phase", test_set_rate_keeps_phase);
    g_test_add_func("/traffic/pause-keeps-phase", test_pause_keeps_phase);
    g_test_add_func("/traffic/changes-linear", test_changes_linear);
    g_test_add_func("/traffic/endpoint-profile", test_endpoint_profile);
    g_test_add_func("/traffic/stream-tlps", test_stream_tlps);
    g_test_add_func("/traffic/merge", test_merge);
    g_test_add_func("/traffic/period", test_period);
    g_test_add_func("/traffic/rules", test_rules);
    g_test_add_func("/traffic/nic-rules", test_nic_rules);
    g_test_add_func("/traffic/ring-rules", test_ring_rules);
    g_test_add_func("/traffic/bad-rules", test_bad_rules);
    return g_test_run();
}
