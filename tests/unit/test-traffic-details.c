/*
 * Host unit tests: the details of the traffic model that
 * docs/devices/traffic.md ("Details the model fixes") and
 * docs/devices/arm-ccn.md ("Flit details") write down: stream keys, relaxed
 * ordering, and how a ring flit is drawn. The expected values come from those
 * documents, not from the model's tables.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <glib.h>

#include "nic-traffic.h"
#include "ring-traffic.h"
#include "traffic.h"

static const uint64_t seeds[] = {
    0, 1, 7, 0x0123456789abcdefull, 0xfedcba9876543210ull, ~0ull,
};

static void assert_same_lengths(const TrafficFlow *got, uint64_t key,
                                uint16_t len_min, uint16_t len_max)
{
    TrafficFlow want;

    model_traffic_flow_init(&want, key, 1, 0, len_min, len_max);
    for (unsigned i = 0; i < TRAFFIC_PATTERN; i++) {
        g_assert_cmpuint(got->len[i], ==, want.len[i]);
    }
}

/* PCIe: key = seed ^ (endpoint << 32 | stream << 16 | root port) */
static void test_pcie_keys(void)
{
    static const uint16_t bdfs[][2] = {
        { 0x0100, 0x0080 }, { 0x0101, 0x0080 }, { 0xff07, 0x00f8 },
    };

    for (size_t i = 0; i < G_N_ELEMENTS(seeds); i++) {
        for (size_t b = 0; b < G_N_ELEMENTS(bdfs); b++) {
            for (uint8_t index = 0; index < TRAFFIC_ENDPOINT_STREAMS;
                 index++) {
                TrafficStream s = {
                    .endpoint = bdfs[b][0], .port = bdfs[b][1],
                    .index = index,
                };
                uint64_t key = seeds[i] ^ ((uint64_t)s.endpoint << 32 |
                                           (uint64_t)index << 16 | s.port);

                model_traffic_stream_init(&s, seeds[i], 1000, 0, 1, 1024);
                assert_same_lengths(&s.flow, key, 1, 1024);
            }
        }
    }
}

/*
 * NIC: key = seed ^ mix("NIC" << 40 | function << 24 | queue << 8 | kind),
 * queue 0xffff for the RoCE streams; kind 0-3 is transmit, receive, RoCE
 * transmit, RoCE receive.
 */
static void test_nic_keys(void)
{
    NicSpec spec[NIC_KINDS];
    NicStream s[2 * 5 + 2];

    model_nic_profile_default(spec);
    for (size_t i = 0; i < G_N_ELEMENTS(seeds); i++) {
        for (uint16_t func = 0x0100; func <= 0x0301; func += 0x0101) {
            uint32_t n = model_nic_function_streams(s, seeds[i], spec, func,
                                                    1, 5, 2, 0);

            g_assert_cmpuint(n, ==, G_N_ELEMENTS(s));
            for (uint32_t j = 0; j < n; j++) {
                uint16_t queue = j < 10 ? j / 2 : 0xffff;
                unsigned kind = j < 10 ? j % 2 : 2 + (j - 10);
                uint64_t key = seeds[i] ^
                               model_traffic_mix(0x4e4943ull << 40 |
                                                 (uint64_t)func << 24 |
                                                 (uint64_t)queue << 8 | kind);

                g_assert_cmpuint(s[j].queue, ==, queue);
                g_assert_cmpuint(s[j].kind, ==, kind);
                assert_same_lengths(&s[j].flow, key, spec[kind].len_min,
                                    spec[kind].len_max);
            }
        }
    }
}

/* Another seed or another stream: other lengths; the same: the same */
static void test_keys_apart(void)
{
    TrafficStream a = { .endpoint = 0x100, .port = 0x80 }, b = a, c = a;
    bool differ_stream = false, differ_seed = false;

    c.index = 1;
    model_traffic_stream_init(&a, 1, 1000, 0, 1, 1024);
    model_traffic_stream_init(&b, 1, 1000, 0, 1, 1024);
    for (unsigned i = 0; i < TRAFFIC_PATTERN; i++) {
        g_assert_cmpuint(a.flow.len[i], ==, b.flow.len[i]);
    }
    model_traffic_stream_init(&b, 2, 1000, 0, 1, 1024);
    model_traffic_stream_init(&c, 1, 1000, 0, 1, 1024);
    for (unsigned i = 0; i < TRAFFIC_PATTERN; i++) {
        differ_seed |= a.flow.len[i] != b.flow.len[i];
        differ_stream |= a.flow.len[i] != c.flow.len[i];
    }
    g_assert_true(differ_seed);
    g_assert_true(differ_stream);
}

/* Relaxed ordering: dma-write TLPs k = 0 mod 4, no other TLP */
static void test_relaxed_ordering(void)
{
    TrafficSpec spec[TRAFFIC_ENDPOINT_STREAMS];
    TrafficTuning tune = TRAFFIC_TUNING_RESET;
    TrafficStream s[TRAFFIC_ENDPOINT_STREAMS];

    model_traffic_profile_default(spec);
    model_traffic_endpoint_streams(s, 1, spec, 0x100, 0x80, 0x10000000, 4096,
                                   &tune, 0);
    for (unsigned i = 0; i < TRAFFIC_ENDPOINT_STREAMS; i++) {
        for (uint64_t k = 0; k < 64; k++) {
            PcieTlp tlp;
            bool want = i == 0 && k % 4 == 0;   /* stream 0: dma-write */

            model_traffic_tlp(&s[i], k, &tlp);
            g_assert_cmpint(!!(tlp.dw[0] & TLP_ATTR_RO), ==, want);
        }
    }
}

/*
 * Ring flits, as docs/devices/arm-ccn.md "Flit details" has them. Per node
 * type: the odds (per mille) of the properties of a stream's flits.
 */
typedef struct Odds {
    uint32_t prop;
    unsigned per_mille;
} Odds;

static const Odds hnf_req_rx[] = {
    { RING_MISS, 300 }, { RING_RETRY, 20 }, { RING_SF_HIT, 500 },
    { RING_SF_EVICT, 50 }, { RING_L3_EVICT, 100 },
    { RING_FILL_INVALID, 200 }, { RING_MC_RETRY, 100 },
    { RING_QOS_RETRY, 10 },
};
static const Odds hnf_snp_tx[] = { { RING_BROADCAST, 200 } };
static const Odds rni_req_tx[] = {
    { RING_RETRY, 30 }, { RING_RRT_FULL, 20 }, { RING_WRT_FULL, 20 },
    { RING_REPLAY, 10 },
};
static const Odds every_stream[] = {
    { RING_UPLOAD_STARVED, 10 }, { RING_RESPIN, 20 },
    { RING_DOWNLOAD_STARVED, 10 },
};

/* CHI opcodes of each channel, each as often as it is listed */
static const uint8_t req_ops[] = {
    0x01, 0x01, 0x04, 0x04, 0x07, 0x1b, 0x1b, 0x1d, 0x19,
};
static const uint8_t mn_req_ops[] = { 0x0e, 0x0f, 0x14, 0x14 };
static const uint8_t rsp_ops[] = { 0x04, 0x05, 0x09 };
static const uint8_t snp_ops[] = { 0x01, 0x02, 0x07, 0x09 };
static const uint8_t dat_ops[] = { 0x02, 0x03, 0x04 };

static bool is_rni(uint8_t type)
{
    return type >= RING_TYPE_RNI_1P && type <= RING_TYPE_RND_3P;
}

static bool is_requester(uint8_t type)
{
    return type == RING_TYPE_RNF || is_rni(type) || type == RING_TYPE_SBAS;
}

/* Whether a node of @type is a peer of the stream @s */
static bool is_peer(const RingStream *s, uint8_t type)
{
    if (is_requester(s->type) || s->type == RING_TYPE_SNF) {
        return type == RING_TYPE_HNF;
    }
    if (s->type == RING_TYPE_HNF && s->dir == RING_TX && s->vc == RING_SNP) {
        return type == RING_TYPE_RNF;
    }
    /* HN-F (but its memory requests), MN, HN-I, SBSX: the requesters */
    return is_requester(type);
}

static void stream_odds(const RingStream *s, const Odds **odds, size_t *n)
{
    *odds = NULL;
    *n = 0;
    if (s->type == RING_TYPE_HNF && s->vc == RING_REQ && s->dir == RING_RX) {
        *odds = hnf_req_rx;
        *n = G_N_ELEMENTS(hnf_req_rx);
    } else if (s->type == RING_TYPE_HNF && s->vc == RING_SNP &&
               s->dir == RING_TX) {
        *odds = hnf_snp_tx;
        *n = G_N_ELEMENTS(hnf_snp_tx);
    } else if ((is_rni(s->type) || s->type == RING_TYPE_SBAS) &&
               s->vc == RING_REQ && s->dir == RING_TX) {
        *odds = rni_req_tx;
        *n = G_N_ELEMENTS(rni_req_tx);
    }
}

static void channel_ops(const RingStream *s, const uint8_t **ops, size_t *n)
{
    switch (s->vc) {
    case RING_REQ:
        *ops = s->type == RING_TYPE_MN ? mn_req_ops : req_ops;
        *n = s->type == RING_TYPE_MN ? sizeof(mn_req_ops) : sizeof(req_ops);
        break;
    case RING_RSP:
        *ops = rsp_ops;
        *n = sizeof(rsp_ops);
        break;
    case RING_SNP:
        *ops = snp_ops;
        *n = sizeof(snp_ops);
        break;
    default:
        *ops = dat_ops;
        *n = sizeof(dat_ops);
        break;
    }
}

/* The @pick-th (mod their number) node, in node order, that is a peer */
static uint8_t pick_peer(const RingStream *s, uint64_t pick)
{
    unsigned n = 0;

    for (unsigned i = 0; i < RING_NODES; i++) {
        n += is_peer(s, model_ring_ccn504_types[i]);
    }
    g_assert_cmpuint(n, >, 0);
    pick %= n;
    for (unsigned i = 0; i < RING_NODES; i++) {
        if (is_peer(s, model_ring_ccn504_types[i]) && !pick--) {
            return i;
        }
    }
    g_assert_not_reached();
}

#define RING_SEEDS  1000

/* Calls @fn on every flit drawn from a seed (not: HN-F memory requests) */
static void each_drawn_flit(void (*fn)(const RingStream *s, unsigned i,
                                       uint64_t key, void *opaque),
                            void *opaque)
{
    for (uint64_t seed = 0; seed < RING_SEEDS; seed++) {
        /* seeds with high bits too, where the key's fields lie */
        uint64_t sd = seed * 0x9e3779b97f4a7c15ull;

        for (uint8_t node = 0; node < RING_NODES; node++) {
            uint8_t type = model_ring_ccn504_types[node];
            RingStream out[RING_NODE_STREAMS];
            RingSpec spec;

            if (!type) {
                continue;
            }
            model_ring_profile_default(type, &spec);
            model_ring_node_streams(out, sd, &spec, node, type, 0);
            for (unsigned st = 0; st < RING_NODE_STREAMS; st++) {
                uint64_t key = sd ^ model_traffic_mix(0x43434eull << 40 |
                                                      (uint64_t)node << 8 |
                                                      st);

                if (type == RING_TYPE_HNF && st == RING_REQ * 2 + RING_TX) {
                    continue;
                }
                for (unsigned i = 0; i < TRAFFIC_PATTERN; i++) {
                    fn(&out[st], i, key, opaque);
                }
            }
        }
    }
}

/* Every field of every flit from the documented draws */
static void check_flit(const RingStream *s, unsigned i, uint64_t key,
                       void *opaque)
{
    uint64_t r = model_traffic_mix(key + i);
    uint64_t r2 = model_traffic_mix(key + i + 0x100);
    uint8_t peer = pick_peer(s, r2 >> 44);
    uint8_t src = s->dir == RING_TX ? s->node : peer;
    uint8_t tgt = s->dir == RING_TX ? peer : s->node;
    const uint8_t *ops;
    const Odds *odds;
    size_t nops, nodds;
    uint32_t props = 0;

    channel_ops(s, &ops, &nops);
    stream_odds(s, &odds, &nodds);
    g_assert_cmpuint(s->peer[i], ==, peer);
    g_assert_cmphex(s->hdr_l[i], ==, (r & 0xff) | (uint64_t)src << 8 |
                    (uint64_t)tgt << 15 | (r2 & 0x1ffffffffffull) << 22);
    g_assert_cmphex(s->hdr_h[i], ==, ((r >> 24) & 7) |
                    ((r >> 28) & 0xf) << 5 |
                    (uint64_t)ops[(r >> 32) % nops] << 9 |
                    (uint64_t)(s->vc == RING_REQ &&
                               ((r >> 40) & 3) == 0) << 15);
    for (size_t o = 0; o < nodds; o++) {
        if (model_traffic_mix(r ^ odds[o].prop) % 1000 < odds[o].per_mille) {
            props |= odds[o].prop;
        }
    }
    for (size_t o = 0; o < G_N_ELEMENTS(every_stream); o++) {
        if (model_traffic_mix(r2 ^ every_stream[o].prop) % 1000 <
            every_stream[o].per_mille) {
            props |= every_stream[o].prop;
        }
    }
    if ((is_rni(s->type) || s->type == RING_TYPE_SBAS) &&
        s->vc == RING_DAT && s->dir == RING_RX) {
        props |= RING_AXI_P0 << ((r >> 48) % 3);
    }
    g_assert_cmphex(s->props[i], ==, props);
    (*(unsigned *)opaque)++;
}

static void test_ring_flit_draws(void)
{
    unsigned flits = 0;

    each_drawn_flit(check_flit, &flits);
    g_assert_cmpuint(flits, >, 0);
}

/* What the flits show: how often each opcode, the order bit, a property */
typedef struct FlitStats {
    uint64_t op[RING_VCS][2][32];   /* [vc][from the MN][opcode] */
    uint64_t reqs, ordered;
    /* [which table of odds: hnf_req_rx, hnf_snp_tx, rni_req_tx][prop] */
    uint64_t with_odds[3][RING_PROPS], with_prop[3][RING_PROPS];
    uint64_t any, any_prop[RING_PROPS];
} FlitStats;

static void count_flit(const RingStream *s, unsigned i,
                       G_GNUC_UNUSED uint64_t key,
                       void *opaque)
{
    FlitStats *st = opaque;
    const Odds *odds;
    size_t nodds;

    st->op[s->vc][s->type == RING_TYPE_MN][(s->hdr_h[i] >> 9) & 0x1f]++;
    if (s->vc == RING_REQ) {
        st->reqs++;
        st->ordered += (s->hdr_h[i] >> 15) & 1;
    }
    stream_odds(s, &odds, &nodds);
    for (size_t o = 0; o < nodds; o++) {
        unsigned t = odds == hnf_req_rx ? 0 : odds == hnf_snp_tx ? 1 : 2;
        unsigned bit = __builtin_ctz(odds[o].prop);

        st->with_odds[t][bit]++;
        st->with_prop[t][bit] += !!(s->props[i] & odds[o].prop);
    }
    st->any++;
    for (size_t o = 0; o < G_N_ELEMENTS(every_stream); o++) {
        st->any_prop[__builtin_ctz(every_stream[o].prop)] +=
            !!(s->props[i] & every_stream[o].prop);
    }
}

/* @hits of @n within 5 standard deviations of the chance @p */
static void assert_fraction(uint64_t hits, uint64_t n, double p)
{
    double off = hits - n * p;

    g_assert_cmpuint(n, >, 1000);
    g_assert_cmpfloat(off * off, <=, 25 * n * p * (1 - p));
}

static FlitStats *flit_stats(void)
{
    FlitStats *st = g_new0(FlitStats, 1);

    each_drawn_flit(count_flit, st);
    return st;
}

/* Each channel's opcodes in the documented proportions, no other */
static void test_ring_opcodes(void)
{
    g_autofree FlitStats *st = flit_stats();
    static const struct {
        unsigned vc;
        bool mn;
        const uint8_t *ops;
        size_t n;
    } channels[] = {
        { RING_REQ, false, req_ops, sizeof(req_ops) },
        { RING_REQ, true, mn_req_ops, sizeof(mn_req_ops) },
        { RING_RSP, false, rsp_ops, sizeof(rsp_ops) },
        { RING_SNP, false, snp_ops, sizeof(snp_ops) },
        { RING_DAT, false, dat_ops, sizeof(dat_ops) },
    };

    for (size_t c = 0; c < G_N_ELEMENTS(channels); c++) {
        const uint64_t *got = st->op[channels[c].vc][channels[c].mn];
        uint64_t total = 0;

        for (unsigned op = 0; op < 32; op++) {
            total += got[op];
        }
        for (unsigned op = 0; op < 32; op++) {
            unsigned listed = 0;

            for (size_t j = 0; j < channels[c].n; j++) {
                listed += channels[c].ops[j] == op;
            }
            if (!listed) {
                g_assert_cmpuint(got[op], ==, 0);
            } else {
                assert_fraction(got[op], total,
                                (double)listed / channels[c].n);
            }
        }
    }
}

/* One request in four carries the order bit; no other flit does */
static void test_ring_order_bit(void)
{
    g_autofree FlitStats *st = flit_stats();

    assert_fraction(st->ordered, st->reqs, 0.25);
}

/* Each property at its documented odds (within the statistics) */
static void test_ring_odds(void)
{
    g_autofree FlitStats *st = flit_stats();
    static const struct {
        const Odds *odds;
        size_t n;
    } tables[] = {
        { hnf_req_rx, G_N_ELEMENTS(hnf_req_rx) },
        { hnf_snp_tx, G_N_ELEMENTS(hnf_snp_tx) },
        { rni_req_tx, G_N_ELEMENTS(rni_req_tx) },
    };

    for (size_t t = 0; t < G_N_ELEMENTS(tables); t++) {
        for (size_t o = 0; o < tables[t].n; o++) {
            unsigned bit = __builtin_ctz(tables[t].odds[o].prop);

            assert_fraction(st->with_prop[t][bit], st->with_odds[t][bit],
                            tables[t].odds[o].per_mille / 1000.0);
        }
    }
    for (size_t o = 0; o < G_N_ELEMENTS(every_stream); o++) {
        unsigned bit = __builtin_ctz(every_stream[o].prop);

        assert_fraction(st->any_prop[bit], st->any,
                        every_stream[o].per_mille / 1000.0);
    }
}

/* The MN's requests (barriers, DVM operations) go to the requesters */
static void test_mn_requests_to_requesters(void)
{
    for (uint8_t node = 0; node < RING_NODES; node++) {
        RingStream out[RING_NODE_STREAMS];
        const RingStream *req_tx = &out[RING_REQ * 2 + RING_TX];
        RingSpec spec;

        if (model_ring_ccn504_types[node] != RING_TYPE_MN) {
            continue;
        }
        model_ring_profile_default(RING_TYPE_MN, &spec);
        g_assert_cmpuint(spec.rate[RING_REQ * 2 + RING_TX], >, 0);
        model_ring_node_streams(out, 1, &spec, node, RING_TYPE_MN, 0);
        for (unsigned i = 0; i < TRAFFIC_PATTERN; i++) {
            uint8_t type = model_ring_ccn504_types[req_tx->peer[i]];

            g_assert_true(is_requester(type));
        }
        return;
    }
    g_assert_not_reached();
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/traffic-details/pcie-keys", test_pcie_keys);
    g_test_add_func("/traffic-details/nic-keys", test_nic_keys);
    g_test_add_func("/traffic-details/keys-apart", test_keys_apart);
    g_test_add_func("/traffic-details/relaxed-ordering",
                    test_relaxed_ordering);
    g_test_add_func("/traffic-details/ring-flit-draws", test_ring_flit_draws);
    g_test_add_func("/traffic-details/ring-opcodes", test_ring_opcodes);
    g_test_add_func("/traffic-details/ring-order-bit", test_ring_order_bit);
    g_test_add_func("/traffic-details/ring-odds", test_ring_odds);
    g_test_add_func("/traffic-details/mn-requests-to-requesters",
                    test_mn_requests_to_requesters);
    return g_test_run();
}
