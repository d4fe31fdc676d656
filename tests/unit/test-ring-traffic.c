/*
 * Host unit tests: ring interconnect flit streams (model/ring-traffic.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <glib.h>
#include <string.h>

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
        /* but its memory requests, which arrive with its requests */
        g_assert_cmpuint(s[i].flow.rate, ==,
                         spec.rate[i == RING_REQ * 2 + RING_TX ?
                                   RING_REQ * 2 + RING_RX : i]);
        for (unsigned k = 0; k < TRAFFIC_PATTERN; k++) {
            /* the node is the target of what it receives, else the source */
            unsigned id = s[i].dir == RING_RX ? (s[i].hdr_l[k] >> 15) & 0x7f :
                          (s[i].hdr_l[k] >> 8) & 0x7f;

            g_assert_cmpuint(id, ==, 9);
            g_assert_cmpuint(s[i].hdr_l[k] >> 63, ==, 0);
            g_assert_cmpuint(s[i].hdr_h[k] >> 60, ==, 0);
        }
    }
    /*
     * an HN-F serves requests and sends snoops, requests only to memory;
     * an RN-I makes requests
     */
    g_assert_cmpuint(s[RING_REQ * 2 + RING_RX].flow.rate, >, 0);
    g_assert_cmpuint(s[RING_SNP * 2 + RING_TX].flow.rate, >, 0);
    for (unsigned k = 0; k < TRAFFIC_PATTERN; k++) {
        g_assert_cmpuint(model_ring_ccn504_types[s[RING_REQ * 2 +
                                                   RING_TX].peer[k]], ==,
                         RING_TYPE_SNF);
        g_assert_cmpuint(model_ring_ccn504_types[s[RING_SNP * 2 +
                                                   RING_TX].peer[k]], ==,
                         RING_TYPE_RNF);
    }
    make(s, 1, 20, RING_TYPE_RNI_1P + 2);
    g_assert_cmpuint(s[RING_REQ * 2 + RING_TX].flow.rate, >, 0);
    g_assert_cmpuint(s[RING_SNP * 2 + RING_RX].flow.rate, ==, 0);
}

/* O(1) property and watchpoint counts equal counting flit by flit */
static void test_counts_match_flits(void)
{
    static const uint8_t types[] = { RING_TYPE_HNF, RING_TYPE_RNI_1P,
                                     RING_TYPE_MN, RING_TYPE_HNI,
                                     RING_TYPE_RNF, RING_TYPE_SNF };
    RingStream s[RING_NODE_STREAMS];

    for (int round = 0; round < 300; round++) {
        const RingStream *x;
        uint32_t props = 1u << g_test_rand_int_range(0, RING_PROPS);
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
            flits += f.present;
            with += f.present && (f.props & props) == props;
            matching += f.present &&
                        ((f.hdr_h ^ cmp_h) & ~OPCODE_MASK_H) == 0;
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
        n += f.present && f.hdr_l == l && f.hdr_h == h;
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
    RingEventDef miss, reqs, p[3], rx, none;
    RingXpEventDef xp_none;
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
    /* no such events */
    g_assert_false(model_ring_node_event(RING_TYPE_HNF, 15, &none));
    g_assert_false(model_ring_node_event(RING_TYPE_HNF, 0, &none));
    g_assert_false(model_ring_node_event(RING_TYPE_HNI, 1, &none));
    g_assert_false(model_ring_xp_event(5, RING_REQ, 0, &xp_none));
    g_assert_false(model_ring_xp_event(1, RING_VCS, 0, &xp_none));
    g_assert_false(model_ring_xp_event(1, RING_REQ, 2, &xp_none));
}

/* The streams of every node of the CCN-504, by node id */
static void make_all(RingStream s[RING_NODES][RING_NODE_STREAMS],
                     uint64_t seed)
{
    for (unsigned n = 0; n < RING_NODES; n++) {
        make(s[n], seed, n, model_ring_ccn504_types[n]);
    }
}

/*
 * Flits on the ring, one by one: each flit a node sends, from its XP hop
 * by hop to its peer's; the XP events of XP @xp on @vc and @bus see it at
 * the first, the last or every XP of the way.
 */
static void walk_ring(RingStream s[RING_NODES][RING_NODE_STREAMS], uint8_t xp,
                      uint8_t vc, uint8_t bus, int64_t t1,
                      uint64_t got[RING_PROPS + 1][3])
{
    for (unsigned n = 0; n < RING_NODES; n++) {
        const RingStream *x = &s[n][vc * 2 + RING_TX];
        uint64_t k = 0;
        RingFlit f;

        for (model_ring_flit(x, k, &f); f.time < t1;
             model_ring_flit(x, ++k, &f)) {
            unsigned at = n / 2, seen = 0, hops = 0;
            int step = bus ? RING_XPS - 1 : 1;

            if (!f.present || at == f.peer / 2) {
                continue;
            }
            /* the way on @bus, if it is the shorter one */
            while (at != f.peer / 2) {
                at = (at + step) % RING_XPS;
                hops++;
            }
            if (hops > RING_XPS / 2) {
                continue;
            }
            at = n / 2;
            for (unsigned h = 0; h <= hops; h++) {
                seen += at == xp;
                at = (at + step) % RING_XPS;
            }
            g_assert_cmpuint(seen, <=, 1);
            for (unsigned p = 0; p <= RING_PROPS; p++) {
                uint32_t props = p < RING_PROPS ? 1u << p : 0;

                if ((f.props & props) != props) {
                    continue;
                }
                got[p][RING_AT_EVERY_XP] += seen;
                got[p][RING_AT_SOURCE] += n / 2 == xp;
                got[p][RING_AT_TARGET] += f.peer / 2 == xp;
            }
        }
    }
}

/* XP events equal walking every flit round the ring, on every XP */
static void test_ring_route(void)
{
    static RingStream s[RING_NODES][RING_NODE_STREAMS];
    int64_t t1 = 200000;

    make_all(s, 7);
    for (uint8_t xp = 0; xp < RING_XPS; xp++) {
        for (uint8_t vc = 0; vc < RING_VCS; vc++) {
            for (uint8_t bus = 0; bus < 2; bus++) {
                uint64_t got[RING_PROPS + 1][3] = { { 0 } };
                uint64_t model[3] = { 0 };

                walk_ring(s, xp, vc, bus, t1, got);
                for (uint8_t ev = 1; ev <= 4; ev++) {
                    RingXpEventDef def;
                    uint64_t n = 0;

                    g_assert_true(model_ring_xp_event(ev, vc, bus, &def));
                    for (unsigned node = 0; node < RING_NODES; node++) {
                        for (unsigned i = 0; i < RING_NODE_STREAMS; i++) {
                            n += model_ring_xp_count(&s[node][i], xp, &def,
                                                     0, t1);
                        }
                    }
                    model[def.site] = n;
                    if (ev == 4) {
                        g_assert_cmpuint(n, ==,
                                         got[RING_PROPS][RING_AT_EVERY_XP]);
                    } else {
                        g_assert_cmpuint(n, ==,
                                         got[__builtin_ctz(def.props)]
                                            [def.site]);
                    }
                }
                /* a flit enters and leaves where valid flits are seen */
                g_assert_cmpuint(model[RING_AT_EVERY_XP], >=,
                                 got[RING_PROPS][RING_AT_SOURCE]);
            }
        }
    }
}

/* One flit from XP 1 to XP 10 goes down, seen at XPs 1, 0 and 10 only */
static void test_ring_route_one_flit(void)
{
    uint8_t bus;
    unsigned hops;

    g_assert_true(model_ring_route(1, 10, &bus, &hops));
    g_assert_cmpuint(bus, ==, 1);
    g_assert_cmpuint(hops, ==, 2);
    g_assert_true(model_ring_route(5, 10, &bus, &hops));
    g_assert_cmpuint(bus, ==, 0);
    g_assert_cmpuint(hops, ==, 5);
    g_assert_false(model_ring_route(3, 3, &bus, &hops));
    for (uint8_t from = 0; from < RING_XPS; from++) {
        for (uint8_t to = 0; to < RING_XPS; to++) {
            if (from != to) {
                g_assert_true(model_ring_route(from, to, &bus, &hops));
                g_assert_cmpuint(hops, <=, RING_XPS / 2);
            }
        }
    }
}

/* XP 9 has no device: it sees what passes it, both ways */
static void test_empty_xp_through_traffic(void)
{
    static RingStream s[RING_NODES][RING_NODE_STREAMS];
    int64_t t1 = 1000000;
    uint64_t n[2] = { 0 };

    g_assert_cmpuint(model_ring_ccn504_types[18], ==, 0);
    g_assert_cmpuint(model_ring_ccn504_types[19], ==, 0);
    make_all(s, 11);
    for (uint8_t bus = 0; bus < 2; bus++) {
        RingXpEventDef def;

        g_assert_true(model_ring_xp_event(4, bus ? RING_DAT : RING_REQ, bus,
                                          &def));
        for (unsigned node = 0; node < RING_NODES; node++) {
            n[bus] += model_ring_xp_count(&s[node][def.vc * 2 + RING_TX], 9,
                                          &def, 0, t1);
        }
    }
    /* requests: RN-Fs to HN-Fs up, HN-Fs 10, 11 to memory; read data down */
    g_assert_cmpuint(n[0], >, 1000);     /* per ms */
    g_assert_cmpuint(n[1], >, 1000);
}

/*
 * An HN-F's memory requests: each missed request, at its time, sent to an
 * SN-F; hnf_mc_reqs and a REQ TX watchpoint matching any flit agree.
 */
static void test_hnf_memory_requests(void)
{
    RingStream hnf[RING_NODE_STREAMS];
    const RingStream *rx = &hnf[RING_REQ * 2 + RING_RX];
    const RingStream *tx = &hnf[RING_REQ * 2 + RING_TX];
    int64_t t0 = 777, t1 = 20000000;
    RingEventDef mc_reqs;

    make(hnf, 13, 10, RING_TYPE_HNF);
    g_assert_true(model_ring_node_event(RING_TYPE_HNF, 13, &mc_reqs));
    g_assert_cmpuint(model_ring_event_count(hnf, &mc_reqs, t0, t1), >, 0);
    g_assert_cmpuint(model_ring_event_count(hnf, &mc_reqs, t0, t1), ==,
                     model_ring_flits_matching(tx, 0, 0, ~0ull, ~0ull, t0,
                                               t1));
    g_assert_cmpuint(model_ring_flits(tx, t0, t1), ==,
                     model_ring_flits_with(rx, RING_MISS, t0, t1));
    for (uint64_t k = 0; k < 64; k++) {
        RingFlit in, out;

        model_ring_flit(rx, k, &in);
        model_ring_flit(tx, k, &out);
        g_assert_cmpint(out.present, ==, !!(in.props & RING_MISS));
        g_assert_cmpint(out.time, ==, in.time);
        g_assert_cmpuint(model_ring_ccn504_types[out.peer], ==,
                         RING_TYPE_SNF);
        g_assert_cmpuint((out.hdr_l >> 15) & 0x7f, ==, out.peer);
        g_assert_cmpuint((out.hdr_l >> 8) & 0x7f, ==, 10);
        g_assert_cmphex(out.hdr_l >> 22, ==, in.hdr_l >> 22);
    }
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

/* A stream's rate from time @from on */
typedef struct RatePiece {
    int64_t from;
    uint64_t rate;
} RatePiece;

/*
 * Flits in [0, @t) of a flow whose rate changed as @pieces say (the first
 * from 0, at a rate > 0), in closed form: flit k comes at the first ns by
 * which the work done, the sum of rate x time over the pieces, reaches
 * k x 1e9; so each piece adds its own rate x length, no more.
 */
static uint64_t closed_form_flits(const RatePiece *pieces, unsigned n,
                                  int64_t t)
{
    unsigned __int128 work = 0;

    for (unsigned i = 0; i < n; i++) {
        int64_t end = i + 1 < n && pieces[i + 1].from < t - 1 ?
                      pieces[i + 1].from : t - 1;

        if (end > pieces[i].from) {
            work += (unsigned __int128)pieces[i].rate *
                    (uint64_t)(end - pieces[i].from);
        }
    }
    return (uint64_t)(work / TRAFFIC_NS_PER_S) + 1;
}

/*
 * A change at @now to rates x @num / @den: HN-F 10's streams rebuilt with
 * the new settings (from the epoch @now, as the traffic object builds
 * them) take over from @s, which they replace.
 */
static void change_hnf_rates(RingStream *s, int64_t now, uint64_t num,
                             uint64_t den)
{
    RingStream cur[RING_NODE_STREAMS];
    RingSpec spec;

    model_ring_profile_default(RING_TYPE_HNF, &spec);
    for (unsigned i = 0; i < RING_NODE_STREAMS; i++) {
        spec.rate[i] = spec.rate[i] * num / den;
    }
    model_ring_node_streams(cur, 5, &spec, 10, RING_TYPE_HNF, now);
    model_ring_node_carry(cur, s, now);
    memcpy(s, cur, sizeof(cur));
}

/*
 * A change at T goes on from where each stream stood: flit numbers are
 * continuous at T, a stream's next flit comes when its work left is done
 * at the new rate, not at T (unless it was due then), and an HN-F's
 * memory requests stay its misses.
 */
static void test_change_keeps_phase(void)
{
    RingStream old[RING_NODE_STREAMS], s[RING_NODE_STREAMS];
    const RingStream *rx = &s[RING_REQ * 2 + RING_RX];
    const RingStream *tx = &s[RING_REQ * 2 + RING_TX];
    TrafficPhase phase[RING_NODE_STREAMS] = { 0 };
    const int64_t t = 1234567;

    make(old, 5, 10, RING_TYPE_HNF);
    memcpy(s, old, sizeof(old));
    change_hnf_rates(s, t, 3, 1);
    for (unsigned i = 0; i < RING_NODE_STREAMS; i++) {
        uint64_t k = model_traffic_count_before(&old[i].flow, t);
        uint64_t r0 = old[i].flow.rate, r1 = s[i].flow.rate;
        /* the work flit k still needs at T (streams from 1000 ns on) */
        uint64_t left = k * TRAFFIC_NS_PER_S - (uint64_t)(t - 1000) * r0;
        RingFlit f;

        if (!r0) {
            continue;
        }
        g_test_message("stream %u: flit %" G_GUINT64_FORMAT, i, k);
        g_assert_cmpuint(model_traffic_count_before(&s[i].flow, t), ==, k);
        g_assert_cmpint(model_traffic_time(&old[i].flow, k), >, t);
        model_ring_flit(&s[i], k, &f);
        g_assert_cmpint(f.time, >, t);
        g_assert_cmpint(f.time, ==, t + (int64_t)((left + r1 - 1) / r1));
    }
    g_assert_cmpmem(&tx->flow, sizeof(tx->flow), &rx->flow, sizeof(rx->flow));
    /* whatever phase a table holds for them */
    phase[RING_REQ * 2 + RING_RX] = (TrafficPhase) { .t = 5, .k = 9 };
    phase[RING_REQ * 2 + RING_TX] = (TrafficPhase) { .t = 7, .k = 3 };
    model_ring_node_phase_set(s, phase);
    g_assert_cmpint(tx->flow.epoch_t, ==, 5);
    g_assert_cmpuint(tx->flow.epoch_k, ==, 9);
}

/*
 * Over several changes (a pause among them) the flits a PMU counts, each
 * interval between changes on the streams of that interval, are linear:
 * the sum of each interval at its rate, no extra flit per stream per
 * change; the HN-F's memory requests are its missed requests throughout,
 * flit for flit.
 */
static void test_changes_linear(void)
{
    static const struct {
        int64_t at;
        uint64_t num, den;
    } changes[] = {
        { 1000, 1, 1 }, { 1000003, 3, 1 }, { 1700011, 0, 1 },
        { 2100019, 7, 10 }, { 3500029, 1, 1 },
    };
    const int64_t end = 5000000;
    RingStream s[RING_NODE_STREAMS];
    const RingStream *rx = &s[RING_REQ * 2 + RING_RX];
    const RingStream *tx = &s[RING_REQ * 2 + RING_TX];
    RatePiece pieces[G_N_ELEMENTS(changes)];
    uint64_t counted[RING_NODE_STREAMS] = { 0 }, misses = 0, sent = 0;
    uint64_t missed = 0;
    RingSpec spec;

    make(s, 5, 10, RING_TYPE_HNF);
    for (unsigned c = 1; c <= G_N_ELEMENTS(changes); c++) {
        int64_t from = changes[c - 1].at;
        int64_t to = c < G_N_ELEMENTS(changes) ? changes[c].at : end;

        for (unsigned i = 0; i < RING_NODE_STREAMS; i++) {
            counted[i] += model_traffic_count_before(&s[i].flow, to) -
                          model_traffic_count_before(&s[i].flow, from);
        }
        misses += model_ring_flits_with(rx, RING_MISS, from, to);
        sent += model_ring_flits(tx, from, to);
        if (c < G_N_ELEMENTS(changes)) {
            change_hnf_rates(s, to, changes[c].num, changes[c].den);
        }
    }
    model_ring_profile_default(RING_TYPE_HNF, &spec);
    for (unsigned i = 0; i < RING_NODE_STREAMS; i++) {
        /* an HN-F's memory requests come with its requests */
        uint64_t rate = spec.rate[i == RING_REQ * 2 + RING_TX ?
                                  RING_REQ * 2 + RING_RX : i];

        if (!rate) {
            continue;
        }
        for (unsigned c = 0; c < G_N_ELEMENTS(changes); c++) {
            pieces[c].from = changes[c].at;
            pieces[c].rate = rate * changes[c].num / changes[c].den;
        }
        g_test_message("stream %u", i);
        g_assert_cmpuint(counted[i], ==,
                         closed_form_flits(pieces, G_N_ELEMENTS(changes),
                                           end));
    }
    /* the misses among requests 0..counted-1, however the rate went */
    for (uint64_t k = 0; k < counted[RING_REQ * 2 + RING_RX]; k++) {
        RingFlit f;

        model_ring_flit(rx, k, &f);
        missed += !!(f.props & RING_MISS);
    }
    g_assert_cmpuint(misses, ==, missed);
    g_assert_cmpuint(sent, ==, misses);
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
    g_test_add_func("/ring-traffic/ring-route", test_ring_route);
    g_test_add_func("/ring-traffic/ring-route-one-flit",
                    test_ring_route_one_flit);
    g_test_add_func("/ring-traffic/empty-xp-through-traffic",
                    test_empty_xp_through_traffic);
    g_test_add_func("/ring-traffic/hnf-memory-requests",
                    test_hnf_memory_requests);
    g_test_add_func("/ring-traffic/change-keeps-phase",
                    test_change_keeps_phase);
    g_test_add_func("/ring-traffic/changes-linear", test_changes_linear);
    return g_test_run();
}
