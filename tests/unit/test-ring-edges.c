/*
 * Host unit tests: the ring model's event tables and routing at their
 * edges. Event numbers are the CCN driver's (drivers/perf/arm-ccn.c:
 * CCN_EVENT_HNF 0x1..0xe, CCN_EVENT_RNI / CCN_EVENT_SBAS 0x1..0xa,
 * CCN_EVENT_XP 0x1..0x4, node types CCN_TYPE_*); what each counts follows
 * from its name; routes go "the shorter way round the ring of 11
 * crosspoints" (docs/devices/traffic.md).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <glib.h>

#include "ring-traffic.h"

#define RX  (1u << RING_RX)
#define TX  (1u << RING_TX)

static const RingEventDef hnf[] = {
    [0x1] = { RING_REQ, RX, RING_MISS },                    /* cache_miss */
    [0x2] = { RING_REQ, RX, 0 },                    /* l3_sf_cache_access */
    [0x3] = { RING_REQ, RX, RING_MISS },                    /* cache_fill */
    [0x4] = { RING_REQ, RX, RING_RETRY },                   /* pocq_retry */
    [0x5] = { RING_REQ, RX, 0 },                       /* pocq_reqs_recvd */
    [0x6] = { RING_REQ, RX, RING_SF_HIT },                  /* sf_hit */
    [0x7] = { RING_REQ, RX, RING_SF_EVICT },                /* sf_evictions */
    [0x8] = { RING_SNP, TX, 0 },                            /* snoops_sent */
    [0x9] = { RING_SNP, TX, RING_BROADCAST },           /* snoops_broadcast */
    [0xa] = { RING_REQ, RX, RING_L3_EVICT },                /* l3_eviction */
    [0xb] = { RING_REQ, RX, RING_MISS | RING_FILL_INVALID },
    [0xc] = { RING_REQ, RX, RING_MISS | RING_MC_RETRY },    /* mc_retries */
    [0xd] = { RING_REQ, RX, RING_MISS },                    /* mc_reqs */
    [0xe] = { RING_REQ, RX, RING_QOS_RETRY },               /* qos_hh_retry */
};

static const RingEventDef rni[] = {
    [0x1] = { RING_DAT, RX, RING_AXI_P0 },              /* rdata_beats_p0 */
    [0x2] = { RING_DAT, RX, RING_AXI_P1 },
    [0x3] = { RING_DAT, RX, RING_AXI_P2 },
    [0x4] = { RING_DAT, RX, 0 },                        /* rxdat_flits */
    [0x5] = { RING_DAT, TX, 0 },                        /* txdat_flits */
    [0x6] = { RING_REQ, TX, 0 },                        /* txreq_flits */
    [0x7] = { RING_REQ, TX, RING_RETRY },               /* ..._retried */
    [0x8] = { RING_REQ, TX, RING_RRT_FULL },            /* rrt_full */
    [0x9] = { RING_REQ, TX, RING_WRT_FULL },            /* wrt_full */
    [0xa] = { RING_REQ, TX, RING_REPLAY },              /* ..._replayed */
};

/*
 * Node events: HN-F 1..14; RN-I and RN-D (CCN_TYPE_RNI_1P 0x14 ..
 * CCN_TYPE_RND_3P 0x1a) and SBAS 1..10; nothing for any other type, event
 * 0 or one past the last.
 */
static void test_node_events(void)
{
    for (unsigned type = 0; type <= 0x22; type++) {
        bool is_hnf = type == 0x04;
        bool is_rni = (type >= 0x14 && type <= 0x1a) || type == 0x10;

        for (unsigned e = 0; e <= 16; e++) {
            RingEventDef def = { 0xff, 0xff, 0xffffffff };
            bool want = (is_hnf && e >= 1 && e <= 0xe) ||
                        (is_rni && e >= 1 && e <= 0xa);
            const RingEventDef *exp;

            g_assert_cmpint(model_ring_node_event(type, e, &def), ==, want);
            if (!want) {
                continue;
            }
            exp = is_hnf ? &hnf[e] : &rni[e];
            g_assert_cmpuint(def.vc, ==, exp->vc);
            g_assert_cmpuint(def.dirs, ==, exp->dirs);
            g_assert_cmphex(def.props, ==, exp->props);
        }
    }
}

/*
 * XP events 1..4 (upload_starvation at the XP a flit enters, download_
 * starvation and respin at the XP it leaves, valid_flit at every XP it
 * passes) on VC 0..3 and bus 0..1; anything else is refused.
 */
static void test_xp_events(void)
{
    static const RingXpEventDef xp[] = {
        [1] = { .site = RING_AT_SOURCE, .props = RING_UPLOAD_STARVED },
        [2] = { .site = RING_AT_TARGET, .props = RING_DOWNLOAD_STARVED },
        [3] = { .site = RING_AT_TARGET, .props = RING_RESPIN },
        [4] = { .site = RING_AT_EVERY_XP, .props = 0 },
    };

    for (unsigned e = 0; e <= 6; e++) {
        for (unsigned vc = 0; vc <= RING_VCS; vc++) {
            for (unsigned bus = 0; bus <= 2; bus++) {
                RingXpEventDef def = { 0xff, 0xff, 0xff, 0xffffffff };
                bool want = e >= 1 && e <= 4 && vc < RING_VCS && bus <= 1;

                g_assert_cmpint(model_ring_xp_event(e, vc, bus, &def), ==,
                                want);
                if (want) {
                    g_assert_cmpuint(def.vc, ==, vc);
                    g_assert_cmpuint(def.bus, ==, bus);
                    g_assert_cmpuint(def.site, ==, xp[e].site);
                    g_assert_cmphex(def.props, ==, xp[e].props);
                }
            }
        }
    }
    g_assert_false(model_ring_xp_event(255, 0, 0, &(RingXpEventDef){ 0 }));
}

/*
 * Routes: bus 0 goes up (XP x to x + 1, XP 10 to XP 0), bus 1 down; a
 * flit takes the shorter way, never both (11 XPs: no tie); none from an
 * XP to itself. Counted here by walking the ring.
 */
static void test_routes(void)
{
    for (unsigned from = 0; from < RING_XPS; from++) {
        for (unsigned to = 0; to < RING_XPS; to++) {
            unsigned up = 0, down = 0, hops = 99;
            uint8_t bus = 99;

            for (unsigned x = from; x != to; x = (x + 1) % RING_XPS) {
                up++;
            }
            for (unsigned x = from; x != to; x = (x + RING_XPS - 1) %
                                                 RING_XPS) {
                down++;
            }
            g_assert_cmpint(model_ring_route(from, to, &bus, &hops), ==,
                            from != to);
            if (from == to) {
                continue;
            }
            g_assert_cmpuint(up + down, ==, RING_XPS);
            g_assert_cmpuint(bus, ==, up < down ? 0 : 1);
            g_assert_cmpuint(hops, ==, up < down ? up : down);
            g_assert_cmpuint(hops, <=, RING_XPS / 2);
        }
    }
}

/*
 * An HN-F's requests to memory are its missed requests, each a read
 * (CHI ReadNoSnp, 0x04) or a write (WriteNoSnpFull, 0x1d) as the request
 * it received (CHI writes: opcodes 0x18 and up), with the opcode at bits
 * 13:9 of the high header word (docs/devices/traffic.md), sent to an SN-F.
 */
static void test_hnf_memory_requests(void)
{
    RingStream s[RING_NODE_STREAMS];
    RingSpec spec;
    unsigned reads = 0, writes = 0;

    for (uint64_t seed = 1; seed <= 8; seed++) {
        const RingStream *rx = &s[RING_REQ * 2 + RING_RX];
        const RingStream *tx = &s[RING_REQ * 2 + RING_TX];

        model_ring_profile_default(RING_TYPE_HNF, &spec);
        model_ring_node_streams(s, seed, &spec, 4, RING_TYPE_HNF, 0);
        for (unsigned i = 0; i < TRAFFIC_PATTERN; i++) {
            unsigned in_op = (rx->hdr_h[i] >> 9) & 0x1f;
            unsigned out_op = (tx->hdr_h[i] >> 9) & 0x1f;

            g_assert_cmpint(!!(tx->present & (1u << i)), ==,
                            !!(rx->props[i] & RING_MISS));
            g_assert_cmphex(out_op, ==, in_op >= 0x18 ? 0x1d : 0x04);
            /* the rest of the header stays the request's */
            g_assert_cmphex(tx->hdr_h[i] & ~(0x1full << 9), ==,
                            rx->hdr_h[i] & ~(0x1full << 9));
            g_assert_cmpuint(model_ring_ccn504_types[tx->peer[i]], ==,
                             RING_TYPE_SNF);
            reads += out_op == 0x04;
            writes += out_op == 0x1d;
        }
    }
    g_assert_cmpuint(reads, >, 0);
    g_assert_cmpuint(writes, >, 0);
}

/*
 * The header words (docs/devices/traffic.md): low TxnID 7:0, SrcID 14:8, TgtID
 * 21:15 (the sender and the receiver: the node and its peer), address
 * 62:22; high size 2:0, QoS 8:5, opcode 13:9 and the order bit 15, set
 * on requests only. Opcode 0 is each CHI channel's link-credit return,
 * not a transaction: no flit has it. Over the CCN-504's nodes each field
 * takes more than one value: its top and bottom bits are set somewhere,
 * clear somewhere.
 */
static void test_header_fields(void)
{
    uint64_t h_or = 0, h_and = ~0ull, l_or = 0, l_and = ~0ull;

    for (unsigned node = 0; node < RING_NODES; node++) {
        uint8_t type = model_ring_ccn504_types[node];
        RingStream s[RING_NODE_STREAMS];
        RingSpec spec;

        model_ring_profile_default(type, &spec);
        model_ring_node_streams(s, 5, &spec, node, type, 0);
        for (unsigned j = 0; j < RING_NODE_STREAMS; j++) {
            for (unsigned i = 0; i < TRAFFIC_PATTERN; i++) {
                uint64_t h = s[j].hdr_h[i], l = s[j].hdr_l[i];
                uint8_t src = s[j].dir == RING_TX ? node : s[j].peer[i];
                uint8_t tgt = s[j].dir == RING_TX ? s[j].peer[i] : node;

                g_assert_cmphex(h & ~0xbfe7ull, ==, 0);
                g_assert_cmphex((h >> 9) & 0x1f, !=, 0);
                if (s[j].vc != RING_REQ) {
                    g_assert_cmphex(h & 0x8000, ==, 0);
                }
                g_assert_cmpuint((l >> 8) & 0x7f, ==, src);
                g_assert_cmpuint((l >> 15) & 0x7f, ==, tgt);
                g_assert_cmphex(l >> 63, ==, 0);
                h_or |= h;
                h_and &= h;
                l_or |= l;
                l_and &= l;
            }
        }
    }
    g_assert_cmphex(h_or & 0xbe25, ==, 0xbe25);
    g_assert_cmphex(h_and & 0xbe25, ==, 0);
    /* TxnID 7, 0 and address 62, 22 */
    g_assert_cmphex(l_or & 0x4000000000400081ull, ==, 0x4000000000400081ull);
    g_assert_cmphex(l_and & 0x4000000000400081ull, ==, 0);
}

/*
 * XP events on the default traffic: each counts flits at some XP, and
 * the starvation and respin ones stay exceptions: fewer than half of the
 * flits at the same XPs (the event without its property).
 */
static void test_xp_events_count(void)
{
    static RingStream s[RING_NODES][RING_NODE_STREAMS];
    RingSpec spec;

    for (unsigned node = 0; node < RING_NODES; node++) {
        uint8_t type = model_ring_ccn504_types[node];

        model_ring_profile_default(type, &spec);
        model_ring_node_streams(s[node], 5, &spec, node, type, 0);
    }
    for (uint8_t e = 1; e <= 4; e++) {
        uint64_t n = 0, all = 0;

        for (uint8_t vc = 0; vc < RING_VCS; vc++) {
            for (uint8_t bus = 0; bus <= 1; bus++) {
                RingXpEventDef def, any;

                g_assert_true(model_ring_xp_event(e, vc, bus, &def));
                any = def;
                any.props = 0;
                for (unsigned xp = 0; xp < RING_XPS; xp++) {
                    for (unsigned node = 0; node < RING_NODES; node++) {
                        for (unsigned j = 0; j < RING_NODE_STREAMS; j++) {
                            n += model_ring_xp_count(&s[node][j], xp, &def,
                                                     0, 1000000);
                            all += model_ring_xp_count(&s[node][j], xp, &any,
                                                       0, 1000000);
                        }
                    }
                }
            }
        }
        g_assert_cmpuint(n, >, 0);
        g_assert_cmpuint(n, <=, all);
        if (e < 4) {
            g_assert_cmpuint(n, <, all / 2);
        }
    }
}

/*
 * Every node event of the driver counts something in the default traffic
 * of the CCN-504's HN-Fs, RN-Is and SBAS (the rarer ones, 1 % of the
 * flits, for some seed of the first 256), and never more than the flits
 * of its channel.
 */
static void test_events_count(void)
{
    static const uint8_t nodes[] = { 0, 2, 7 };

    for (size_t n = 0; n < G_N_ELEMENTS(nodes); n++) {
        uint8_t type = model_ring_ccn504_types[nodes[n]];
        RingEventDef def;

        for (uint8_t e = 1; model_ring_node_event(type, e, &def); e++) {
            RingEventDef all = { def.vc, def.dirs, 0 };
            uint64_t some = 0;

            for (uint64_t seed = 1; seed <= 256 && !some; seed++) {
                RingStream s[RING_NODE_STREAMS];
                RingSpec spec;
                uint64_t c;

                model_ring_profile_default(type, &spec);
                model_ring_node_streams(s, seed, &spec, nodes[n], type, 0);
                c = model_ring_event_count(s, &def, 0, 1000000);
                g_assert_cmpuint(c, <=, model_ring_event_count(s, &all, 0,
                                                               1000000));
                some += c;
            }
            g_assert_cmpuint(some, >, 0);
        }
    }
}

/*
 * A flit is one data beat: every stream of every node of the CCN-504 has
 * flits of length 1 ("lengths: data beats, 1 per flit", ring-traffic.h),
 * so the length sum of any run of flits is their number.
 */
static void test_flit_lengths(void)
{
    for (unsigned node = 0; node < RING_NODES; node++) {
        uint8_t type = model_ring_ccn504_types[node];
        RingStream s[RING_NODE_STREAMS];
        RingSpec spec;

        model_ring_profile_default(type, &spec);
        for (uint64_t seed = 1; seed <= 4; seed++) {
            model_ring_node_streams(s, seed, &spec, node, type, 0);
            for (unsigned j = 0; j < RING_NODE_STREAMS; j++) {
                for (uint64_t k = 0; k < TRAFFIC_PATTERN; k++) {
                    g_assert_cmpuint(model_traffic_len(&s[j].flow, k), ==,
                                     1);
                }
                g_assert_cmpuint(model_traffic_len_sum(&s[j].flow, 3, 100),
                                 ==, 97);
            }
        }
    }
}

/*
 * An HN-F's memory requests go to the SN-Fs picked by their address, as
 * the HN-Fs interleave addresses (docs/devices/arm-ccn.md, "The ring"), so that
 * each memory controller takes the requests of four HN-Fs on average
 * (docs/devices/traffic.md: the two SN-Fs receive 2.4 M requests/s each): over
 * the eight HN-Fs and many seeds, each SN-F takes half of them (within 5
 * standard deviations). Each request keeps the address of the one it
 * received (and missed), and goes to the a mod n-th SN-F of the n in node
 * order, a its address field (low word 62:22, the line: address bits
 * 47:6; docs/devices/traffic.md, "Details the model fixes"): the CCN-504's
 * SN-Fs are nodes 20 and 21, so even lines go to 20 and odd ones to 21.
 */
static void test_memory_interleave(void)
{
    uint64_t to[RING_NODES] = { 0 }, n = 0;
    unsigned by_bits[2][2] = { { 0 } };

    for (unsigned node = 0; node < RING_NODES; node++) {
        g_assert_cmpint(model_ring_ccn504_types[node] == RING_TYPE_SNF, ==,
                        node == 20 || node == 21);
    }
    for (uint64_t seed = 1; seed <= 64; seed++) {
        /* seeds far apart: nearby ones share most of their draws */
        uint64_t sd = seed * 0x9e3779b97f4a7c15ull;

        for (unsigned node = 0; node < RING_NODES; node++) {
            const uint8_t type = model_ring_ccn504_types[node];
            RingStream s[RING_NODE_STREAMS];
            const RingStream *rx = &s[RING_REQ * 2 + RING_RX];
            const RingStream *tx = &s[RING_REQ * 2 + RING_TX];
            RingSpec spec;

            if (type != RING_TYPE_HNF) {
                continue;
            }
            model_ring_profile_default(type, &spec);
            model_ring_node_streams(s, sd, &spec, node, type, 0);
            for (unsigned i = 0; i < TRAFFIC_PATTERN; i++) {
                uint64_t a = tx->hdr_l[i] >> 22;

                if (!(tx->present & (1u << i))) {
                    continue;
                }
                g_assert_cmphex(a, ==, rx->hdr_l[i] >> 22);
                g_assert_cmpuint(tx->peer[i], ==, 20 + (a & 1));
                /* TgtID 21:15 */
                g_assert_cmpuint((tx->hdr_l[i] >> 15) & 0x7f, ==,
                                 20 + (a & 1));
                by_bits[a & 1][(a >> 1) & 1]++;
                to[tx->peer[i]]++;
                n++;
            }
        }
    }
    g_assert_cmpuint(n, >, 1000);
    for (unsigned node = 0; node < RING_NODES; node++) {
        double off = to[node] - n / 2.0;

        if (model_ring_ccn504_types[node] != RING_TYPE_SNF) {
            g_assert_cmpuint(to[node], ==, 0);
            continue;
        }
        g_assert_cmpfloat(off * off, <=, 25 * n * 0.25);
    }
    /*
     * Every line parity with either value of the next address bit: the
     * SN-F follows bit 0 of the line (address bit 6), not a higher one
     */
    for (unsigned b0 = 0; b0 < 2; b0++) {
        for (unsigned b1 = 0; b1 < 2; b1++) {
            g_assert_cmpuint(by_bits[b0][b1], >, 0);
        }
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/ring-edges/node-events", test_node_events);
    g_test_add_func("/ring-edges/xp-events", test_xp_events);
    g_test_add_func("/ring-edges/routes", test_routes);
    g_test_add_func("/ring-edges/hnf-memory-requests",
                    test_hnf_memory_requests);
    g_test_add_func("/ring-edges/header-fields", test_header_fields);
    g_test_add_func("/ring-edges/events-count", test_events_count);
    g_test_add_func("/ring-edges/xp-events-count", test_xp_events_count);
    g_test_add_func("/ring-edges/flit-lengths", test_flit_lengths);
    g_test_add_func("/ring-edges/memory-interleave",
                    test_memory_interleave);
    return g_test_run();
}
