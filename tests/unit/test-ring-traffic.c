/*
 * Host unit tests: ring interconnect flit streams (model/ring-traffic.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <glib.h>

#include "ring-traffic.h"

#define OPCODE_MASK_H   (~(0x1full << 9))   /* the driver's cmp_mask b */

static void make(RingStream *s, uint64_t seed, uint8_t node, uint8_t type)
{
    RingSpec spec;

    model_ring_profile_default(type, &spec);
    model_ring_node_streams(s, seed, &spec, node, type, 1000);
}

static void test_node_streams(void)
{
    RingStream s[RING_NODE_STREAMS];
    RingSpec spec;

    model_ring_profile_default(RING_TYPE_HNF, &spec);
    make(s, 1, 9, RING_TYPE_HNF);
    for (unsigned i = 0; i < RING_NODE_STREAMS; i++) {
        g_assert_cmpuint(s[i].node, ==, 9);
        g_assert_cmpuint(s[i].vc, ==, i / 2);
        g_assert_cmpuint(s[i].dir, ==, i % 2);
        g_assert_cmpuint(s[i].flow.rate, ==, spec.rate[i]);
        for (unsigned k = 0; k < TRAFFIC_PATTERN; k++) {
            /* the node is the target of what it receives, else the source */
            unsigned id = s[i].dir == RING_RX ? (s[i].hdr_l[k] >> 15) & 0x7f :
                          (s[i].hdr_l[k] >> 8) & 0x7f;

            g_assert_cmpuint(id, ==, 9);
            g_assert_cmpuint(s[i].hdr_l[k] >> 63, ==, 0);
            g_assert_cmpuint(s[i].hdr_h[k] >> 60, ==, 0);
        }
    }
    /* an HN-F serves requests and sends snoops; an RN-I makes requests */
    g_assert_cmpuint(s[RING_REQ * 2 + RING_RX].flow.rate, >, 0);
    g_assert_cmpuint(s[RING_SNP * 2 + RING_TX].flow.rate, >, 0);
    g_assert_cmpuint(s[RING_REQ * 2 + RING_TX].flow.rate, ==, 0);
    make(s, 1, 20, RING_TYPE_RNI_1P + 2);
    g_assert_cmpuint(s[RING_REQ * 2 + RING_TX].flow.rate, >, 0);
    g_assert_cmpuint(s[RING_SNP * 2 + RING_RX].flow.rate, ==, 0);
}

/* O(1) property and watchpoint counts equal counting flit by flit */
static void test_counts_match_flits(void)
{
    static const uint8_t types[] = { RING_TYPE_HNF, RING_TYPE_RNI_1P,
                                     RING_TYPE_MN, RING_TYPE_HNI };
    RingStream s[RING_NODE_STREAMS];

    for (int round = 0; round < 300; round++) {
        const RingStream *x;
        uint32_t props = 1u << g_test_rand_int_range(0, 17);
        uint64_t cmp_h = (uint64_t)g_test_rand_int_range(0, 32) << 9;
        int64_t t0 = g_test_rand_int_range(0, 10000000);
        int64_t t1 = t0 + g_test_rand_int_range(0, 200000);
        uint64_t flits = 0, with = 0, matching = 0, k;
        RingFlit f;

        make(s, round, 3, types[round % G_N_ELEMENTS(types)]);
        x = &s[g_test_rand_int_range(0, RING_NODE_STREAMS)];
        k = model_traffic_count_before(&x->flow, t0);
        for (model_ring_flit(x, k, &f); f.time < t1; model_ring_flit(x, ++k,
                                                                     &f)) {
            flits++;
            with += (f.props & props) == props;
            matching += ((f.hdr_h ^ cmp_h) & ~OPCODE_MASK_H) == 0;
        }
        g_assert_cmpuint(model_ring_flits(x, t0, t1), ==, flits);
        g_assert_cmpuint(model_ring_flits_with(x, props, t0, t1), ==, with);
        g_assert_cmpuint(model_ring_flits_matching(x, 0, cmp_h, ~0ull,
                                                   OPCODE_MASK_H, t0, t1), ==,
                         matching);
    }
}

/* Flits of @s in [0, t1) whose header is (l, h), one by one */
static uint64_t flits_with_header(const RingStream *s, uint64_t l, uint64_t h,
                                  int64_t t1)
{
    uint64_t n = 0, k = 0;
    RingFlit f;

    for (model_ring_flit(s, k, &f); f.time < t1; model_ring_flit(s, ++k, &f)) {
        n += f.hdr_l == l && f.hdr_h == h;
    }
    return n;
}

/* The CCN driver's own watchpoint events find what the profile sends */
static void test_driver_watchpoints(void)
{
    RingStream mn[RING_NODE_STREAMS], hni[RING_NODE_STREAMS];
    const RingStream *mn_req_tx = &mn[RING_REQ * 2 + RING_TX];
    const RingStream *hni_req_rx = &hni[RING_REQ * 2 + RING_RX];
    int64_t t1 = 100000000;
    uint64_t barriers = 0, same;
    RingFlit first;

    make(mn, 5, 12, RING_TYPE_MN);
    make(hni, 5, 14, RING_TYPE_HNI);
    /* mn_eobarrier, mn_ecbarrier, mn_dvmop: opcode mask, dir 1, vc 0 */
    for (unsigned op = 0x0e; op <= 0x14; op++) {
        uint64_t n = model_ring_flits_matching(mn_req_tx, 0, op << 9, ~0ull,
                                               OPCODE_MASK_H, 0, t1);

        g_assert_true(n == 0 || op == 0x0e || op == 0x0f || op == 0x14);
        barriers += n;
    }
    g_assert_cmpuint(barriers, ==, model_ring_flits(mn_req_tx, 0, t1));
    g_assert_cmpuint(barriers, >, 0);
    /* hni_rxreqflits_order: ORDER mask, the order bit set */
    g_assert_cmpuint(model_ring_flits_matching(hni_req_rx, 0, 0x8000, ~0ull,
                                               ~(1ull << 15), 0, t1), >, 0);
    /* ANY matches every flit, EXACT only an identical header */
    g_assert_cmpuint(model_ring_flits_matching(hni_req_rx, 0, 0, ~0ull, ~0ull,
                                               0, t1), ==,
                     model_ring_flits(hni_req_rx, 0, t1));
    model_ring_flit(hni_req_rx, 0, &first);
    same = flits_with_header(hni_req_rx, first.hdr_l, first.hdr_h, t1);
    g_assert_cmpuint(same, >, 0);
    g_assert_cmpuint(same, <, model_ring_flits(hni_req_rx, 0, t1));
    g_assert_cmpuint(model_ring_flits_matching(hni_req_rx, first.hdr_l,
                                               first.hdr_h, 0, 0, 0, t1), ==,
                     same);
    /* one bit off anywhere in the 63 + 60 header bits: another header */
    for (unsigned b = 0; b < 63 + 60; b++) {
        uint64_t l = b < 63 ? 1ull << b : 0, h = b < 63 ? 0 : 1ull << (b - 63);
        uint64_t near = flits_with_header(hni_req_rx, first.hdr_l ^ l,
                                          first.hdr_h ^ h, t1);

        g_assert_cmpuint(model_ring_flits_matching(hni_req_rx, first.hdr_l ^ l,
                                                   first.hdr_h ^ h, 0, 0, 0,
                                                   t1), ==, near);
        /* ... which a mask of that bit matches too */
        g_assert_cmpuint(model_ring_flits_matching(hni_req_rx, first.hdr_l ^ l,
                                                   first.hdr_h ^ h, l, h, 0,
                                                   t1), ==, same + near);
    }
}

/* Node and XP events agree with each other and with the flit counts */
static void test_events_agree(void)
{
    RingStream hnf[RING_NODE_STREAMS], rni[RING_NODE_STREAMS];
    int64_t t0 = 12345, t1 = 50000000;
    RingEventDef miss, reqs, p[3], rx, vf, none;
    uint64_t beats = 0;

    make(hnf, 9, 8, RING_TYPE_HNF);
    make(rni, 9, 21, RING_TYPE_RNI_1P);
    g_assert_true(model_ring_node_event(RING_TYPE_HNF, 1, &miss));
    g_assert_true(model_ring_node_event(RING_TYPE_HNF, 5, &reqs));
    g_assert_cmpuint(model_ring_event_count(hnf, &miss, t0, t1), >, 0);
    g_assert_cmpuint(model_ring_event_count(hnf, &miss, t0, t1), <,
                     model_ring_event_count(hnf, &reqs, t0, t1));
    g_assert_cmpuint(model_ring_event_count(hnf, &reqs, t0, t1), ==,
                     model_ring_flits(&hnf[RING_REQ * 2 + RING_RX], t0, t1));
    /* RN-I read data beats of ports 0-2 add up to the flits received */
    for (unsigned i = 0; i < 3; i++) {
        g_assert_true(model_ring_node_event(RING_TYPE_RNI_1P, 1 + i, &p[i]));
        beats += model_ring_event_count(rni, &p[i], t0, t1);
    }
    g_assert_true(model_ring_node_event(RING_TYPE_RNI_1P, 4, &rx));
    g_assert_cmpuint(beats, ==, model_ring_event_count(rni, &rx, t0, t1));
    /* XP valid_flit: both directions of the port's channel */
    g_assert_true(model_ring_xp_event(4, RING_DAT, &vf));
    g_assert_cmpuint(model_ring_event_count(rni, &vf, t0, t1), ==,
                     model_ring_flits(&rni[RING_DAT * 2 + RING_RX], t0, t1) +
                     model_ring_flits(&rni[RING_DAT * 2 + RING_TX], t0, t1));
    /* no such events */
    g_assert_false(model_ring_node_event(RING_TYPE_HNF, 15, &none));
    g_assert_false(model_ring_node_event(RING_TYPE_HNF, 0, &none));
    g_assert_false(model_ring_node_event(RING_TYPE_HNI, 1, &none));
    g_assert_false(model_ring_xp_event(5, RING_REQ, &none));
    g_assert_false(model_ring_xp_event(1, RING_VCS, &none));
}

/* Flit k is a pure function of (seed, stream, k); other seeds differ */
static void test_pure(void)
{
    RingStream a[RING_NODE_STREAMS], b[RING_NODE_STREAMS];
    RingStream c[RING_NODE_STREAMS];
    bool differ = false;

    make(a, 3, 8, RING_TYPE_HNF);
    make(b, 3, 8, RING_TYPE_HNF);
    make(c, 4, 8, RING_TYPE_HNF);
    for (uint64_t k = 0; k < 64; k++) {
        RingFlit fa, fb, fc;

        model_ring_flit(&a[0], k, &fa);
        model_ring_flit(&b[0], k, &fb);
        model_ring_flit(&c[0], k, &fc);
        g_assert_cmpint(fa.time, ==, fb.time);
        g_assert_cmphex(fa.hdr_l, ==, fb.hdr_l);
        g_assert_cmphex(fa.hdr_h, ==, fb.hdr_h);
        g_assert_cmphex(fa.props, ==, fb.props);
        differ |= fa.hdr_l != fc.hdr_l;
    }
    g_assert_true(differ);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/ring-traffic/node-streams", test_node_streams);
    g_test_add_func("/ring-traffic/counts-match-flits",
                    test_counts_match_flits);
    g_test_add_func("/ring-traffic/driver-watchpoints",
                    test_driver_watchpoints);
    g_test_add_func("/ring-traffic/events-agree", test_events_agree);
    g_test_add_func("/ring-traffic/pure", test_pure);
    return g_test_run();
}
