/*
 * Host unit tests: the built-in traffic profiles are the ones users are told
 * about. Expected values are typed from the documentation's tables:
 * docs/devices/traffic.md (PCIe streams, NIC streams, ring rates by node type,
 * tuning) and docs/devices/arm-ccn.md (the CCN-504 node map, with the node
 * types of the driver's CCN_TYPE_*).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <glib.h>
#include <string.h>

#include "nic-traffic.h"
#include "ring-traffic.h"
#include "traffic.h"

/*
 * docs/devices/traffic.md, "stream | direction | TLPs | rate | length |
 * latency"
 */
static void test_pcie_profile(void)
{
    static const struct {
        uint8_t dir, kind;
        bool cpl_b;
        uint64_t rate;
        uint16_t lo, hi;
        uint32_t latency;
    } doc[TRAFFIC_ENDPOINT_STREAMS] = {
        { TRAFFIC_INBOUND, TRAFFIC_POSTED, false, 200000, 8, 32, 600 },
        { TRAFFIC_INBOUND, TRAFFIC_NON_POSTED, false, 100000, 8, 32, 900 },
        { TRAFFIC_OUTBOUND, TRAFFIC_COMPLETION, false, 100000, 8, 32, 900 },
        { TRAFFIC_OUTBOUND, TRAFFIC_POSTED, false, 20000, 1, 1, 300 },
        { TRAFFIC_OUTBOUND, TRAFFIC_NON_POSTED, false, 10000, 1, 1, 1200 },
        { TRAFFIC_INBOUND, TRAFFIC_COMPLETION, false, 10000, 1, 1, 1200 },
        { TRAFFIC_INBOUND, TRAFFIC_COMPLETION, true, 5000, 8, 16, 1500 },
    };
    TrafficSpec spec[TRAFFIC_ENDPOINT_STREAMS];

    model_traffic_profile_default(spec);
    for (unsigned i = 0; i < TRAFFIC_ENDPOINT_STREAMS; i++) {
        g_assert_cmpuint(spec[i].dir, ==, doc[i].dir);
        g_assert_cmpuint(spec[i].kind, ==, doc[i].kind);
        g_assert_cmpint(spec[i].cpl_b, ==, doc[i].cpl_b);
        g_assert_cmpuint(spec[i].rate, ==, doc[i].rate);
        g_assert_cmpuint(spec[i].len_min, ==, doc[i].lo);
        g_assert_cmpuint(spec[i].len_max, ==, doc[i].hi);
        g_assert_cmpuint(spec[i].latency_ns, ==, doc[i].latency);
    }
}

/*
 * "a QoS weight w (0..2) multiplies the rate of that outbound kind by
 * 2^w / 2, a buffer level l (0..2) multiplies the latency of that
 * direction by (4 - l) / 3"; DMA (the endpoint's requests and their
 * completions) goes to host memory above 4 GiB, 16 MiB per endpoint;
 * MMIO to the BAR.
 */
static void test_endpoint_streams(void)
{
    TrafficSpec spec[TRAFFIC_ENDPOINT_STREAMS];
    TrafficStream s[TRAFFIC_ENDPOINT_STREAMS];
    static const unsigned weight_of[] = {
        [TRAFFIC_POSTED] = TRAFFIC_TUNE_QOS_TX_P,
        [TRAFFIC_NON_POSTED] = TRAFFIC_TUNE_QOS_TX_NP,
        [TRAFFIC_COMPLETION] = TRAFFIC_TUNE_QOS_TX_CPL,
    };

    model_traffic_profile_default(spec);
    for (unsigned e = 0; e < TRAFFIC_TUNE_EVENTS; e++) {
        for (uint8_t l = 0; l <= TRAFFIC_TUNE_MAX; l++) {
            TrafficTuning tune = TRAFFIC_TUNING_RESET;

            tune.level[e] = l;
            model_traffic_endpoint_streams(s, 7, spec, 0x0102, 0x0080,
                                           0xe0000000, 0x4000, &tune, 99);
            for (unsigned i = 0; i < TRAFFIC_ENDPOINT_STREAMS; i++) {
                bool in = spec[i].dir == TRAFFIC_INBOUND;
                bool dma = in != (spec[i].kind == TRAFFIC_COMPLETION);
                unsigned buf = in ? TRAFFIC_TUNE_RX_BUF_LEVEL :
                                    TRAFFIC_TUNE_TX_BUF_LEVEL;
                uint64_t rate = spec[i].rate;
                uint32_t lat = spec[i].latency_ns;

                if (!in && e == weight_of[spec[i].kind]) {
                    rate = rate * (1u << l) / 2;
                }
                if (e == buf) {
                    lat = (uint64_t)lat * (4 - l) / 3;
                }
                g_assert_cmpuint(s[i].flow.rate, ==, rate);
                g_assert_cmpuint(s[i].latency_ns, ==, lat);
                g_assert_cmpint(s[i].flow.epoch_t, ==, 99);
                g_assert_cmpuint(s[i].endpoint, ==, 0x0102);
                g_assert_cmpuint(s[i].port, ==, 0x0080);
                g_assert_cmpuint(s[i].index, ==, i);
                g_assert_cmpuint(s[i].dir, ==, spec[i].dir);
                g_assert_cmpuint(s[i].kind, ==, spec[i].kind);
                g_assert_cmpint(s[i].cpl_b, ==, spec[i].cpl_b);
                g_assert_cmphex(s[i].addr_base, ==, dma ?
                                0x100000000ull + 0x0102ull * (16 << 20) :
                                0xe0000000);
                g_assert_cmphex(s[i].addr_window, ==, dma ? 16 << 20 :
                                0x4000);
                for (unsigned k = 0; k < TRAFFIC_PATTERN; k++) {
                    g_assert_cmpuint(s[i].flow.len[k], >=, spec[i].len_min);
                    g_assert_cmpuint(s[i].flow.len[k], <=, spec[i].len_max);
                }
            }
        }
    }
}

/* docs/devices/traffic.md, the NIC table */
static void test_nic_profile(void)
{
    static const NicSpec doc[NIC_KINDS] = {
        [NIC_TX] = { .rate = 100000, .len_min = 64, .len_max = 1518,
                     .latency_ns = 2000, .coalesce = 16 },
        [NIC_RX] = { .rate = 150000, .len_min = 64, .len_max = 1518,
                     .latency_ns = 1500, .coalesce = 16 },
        [NIC_ROCE_TX] = { .rate = 20000, .len_min = 256, .len_max = 4096,
                          .latency_ns = 3000, .coalesce = 8 },
        [NIC_ROCE_RX] = { .rate = 20000, .len_min = 256, .len_max = 4096,
                          .latency_ns = 3000, .coalesce = 8 },
    };
    NicSpec spec[NIC_KINDS];

    model_nic_profile_default(spec);
    for (unsigned k = 0; k < NIC_KINDS; k++) {
        g_assert_cmpuint(spec[k].rate, ==, doc[k].rate);
        g_assert_cmpuint(spec[k].len_min, ==, doc[k].len_min);
        g_assert_cmpuint(spec[k].len_max, ==, doc[k].len_max);
        g_assert_cmpuint(spec[k].latency_ns, ==, doc[k].latency_ns);
        g_assert_cmpuint(spec[k].coalesce, ==, doc[k].coalesce);
    }
}

/*
 * docs/devices/traffic.md: "a PCI function on MAC port P owns queues, queue q
 * on traffic class q mod TCs; each queue has a transmit and a receive stream
 * of packets, each function a RoCE transmit and receive stream";
 * coalesce 0 in a spec means 1 (one interrupt per packet).
 */
static void test_nic_streams(void)
{
    NicSpec spec[NIC_KINDS];
    NicStream s[2 * 5 + 2];
    uint32_t n;

    model_nic_profile_default(spec);
    spec[NIC_RX].coalesce = 0;
    n = model_nic_function_streams(s, 3, spec, 0x0201, 7, 5, 3, 44);
    g_assert_cmpuint(n, ==, 12);
    for (unsigned q = 0; q < 5; q++) {
        for (unsigned d = 0; d < 2; d++) {
            const NicStream *x = &s[2 * q + d];

            g_assert_cmpuint(x->kind, ==, d ? NIC_RX : NIC_TX);
            g_assert_cmpuint(x->queue, ==, q);
            g_assert_cmpuint(x->tc, ==, q % 3);
            g_assert_cmpuint(x->port, ==, 7);
            g_assert_cmphex(x->func, ==, 0x0201);
            g_assert_cmpuint(x->coalesce, ==, d ? 1 : 16);
            g_assert_cmpuint(x->latency_ns, ==, d ? 1500 : 2000);
            g_assert_cmpuint(x->flow.rate, ==, d ? 150000 : 100000);
            g_assert_cmpint(x->flow.epoch_t, ==, 44);
        }
    }
    for (unsigned r = 0; r < 2; r++) {
        const NicStream *x = &s[10 + r];

        g_assert_cmpuint(x->kind, ==, r ? NIC_ROCE_RX : NIC_ROCE_TX);
        g_assert_cmpuint(x->queue, ==, NIC_QUEUE_NONE);
        g_assert_cmpuint(x->tc, ==, 0);
        g_assert_cmpuint(x->port, ==, 7);
        g_assert_cmpuint(x->coalesce, ==, 8);
        g_assert_cmpuint(x->flow.rate, ==, 20000);
        for (unsigned k = 0; k < TRAFFIC_PATTERN; k++) {
            g_assert_cmpuint(x->flow.len[k], >=, 256);
            g_assert_cmpuint(x->flow.len[k], <=, 4096);
        }
    }
    /* no TCs means one; no queues: RoCE only */
    n = model_nic_function_streams(s, 3, spec, 0x0201, 0, 2, 0, 0);
    g_assert_cmpuint(n, ==, 6);
    g_assert_cmpuint(s[2].tc, ==, 0);
    n = model_nic_function_streams(s, 3, spec, 0x0201, 0, 0, 1, 0);
    g_assert_cmpuint(n, ==, 2);
    g_assert_cmpuint(s[0].kind, ==, NIC_ROCE_TX);
    /* streams differ by queue, kind and function: their patterns too */
    model_nic_function_streams(s, 3, spec, 0x0201, 0, 2, 1, 0);
    g_assert_true(memcmp(s[0].flow.len, s[2].flow.len,
                         sizeof(s[0].flow.len)));
}

/*
 * A NIC stream's packets: packet k uses buffer descriptor k mod the ring
 * size (1024) and an interrupt follows each coalesce-th packet; bytes and
 * interrupts over an interval add up packet by packet.
 */
static void test_nic_packets(void)
{
    NicSpec spec[NIC_KINDS];
    NicStream s[4];

    model_nic_profile_default(spec);
    spec[NIC_TX].coalesce = 3;
    model_nic_function_streams(s, 5, spec, 0x0100, 0, 1, 1, 0);
    for (uint64_t k = 0; k < 2100; k++) {
        NicPacket p;

        model_nic_packet(&s[0], k, &p);
        g_assert_cmpuint(p.bd, ==, k % 1024);
        g_assert_cmpint(p.interrupt, ==, k % 3 == 2);
        g_assert_cmpuint(p.len, ==, s[0].flow.len[k % TRAFFIC_PATTERN]);
        g_assert_cmpint(p.time, ==, model_traffic_time(&s[0].flow, k));
    }
    for (int64_t t0 = 0; t0 < 100000; t0 += 7919) {
        for (int64_t t1 = t0; t1 < t0 + 60000; t1 += 6007) {
            uint64_t bytes = 0, irqs = 0;

            for (uint64_t k = 0;; k++) {
                NicPacket p;

                model_nic_packet(&s[0], k, &p);
                if (p.time >= t1) {
                    break;
                }
                if (p.time >= t0) {
                    bytes += p.len;
                    irqs += p.interrupt;
                }
            }
            g_assert_cmpuint(model_nic_bytes(&s[0], t0, t1), ==, bytes);
            g_assert_cmpuint(model_nic_interrupts(&s[0], t0, t1), ==, irqs);
        }
    }
}

/*
 * docs/devices/arm-ccn.md's map: node n on XP n / 2, CCN_TYPE_* of the driver
 */
static void test_ring_map(void)
{
    static const uint8_t doc[RING_NODES] = {
        0x16, 0x16,                     /* RN-I (3 ports): CCN_TYPE_RNI_3P */
        0x04, 0x04, 0x04, 0x04,         /* HN-F */
        0x05,                           /* HN-I */
        0x10,                           /* SBAS */
        0x04, 0x04, 0x04, 0x04,         /* HN-F */
        0x01,                           /* MN */
        0x0c,                           /* SBSX */
        0x20, 0x20, 0x20, 0x20,         /* RN-F: no CCN type */
        0, 0,                           /* XP 9: no device */
        0x21, 0x21,                     /* SN-F */
    };

    g_assert_cmpmem(model_ring_ccn504_types, RING_NODES, doc, RING_NODES);
}

/* docs/devices/traffic.md, flits/s by node type: REQ, RSP, SNP, DAT; rx / tx */
static void test_ring_profile(void)
{
    static const struct {
        uint8_t type;
        uint64_t rate[RING_NODE_STREAMS];   /* vc * 2 + dir (rx 0, tx 1) */
    } doc[] = {
        /* HN-F sent requests: its misses, the profile's 0 */
        { RING_TYPE_HNF, { 2000000, 0, 1000000, 2000000, 0, 500000,
                           1000000, 1500000 } },
        { RING_TYPE_RNF, { 0, 3375000, 3375000, 1875000, 1000000, 0,
                           2500000, 1750000 } },
        { RING_TYPE_SNF, { 2400000, 0, 0, 600000, 0, 0, 600000, 1800000 } },
        { RING_TYPE_RNI_1P, { 0, 1000000, 1000000, 200000, 0, 0, 800000,
                              400000 } },
        { RING_TYPE_RNI_1P + 2, { 0, 1000000, 1000000, 200000, 0, 0, 800000,
                                  400000 } },
        { 0x18, { 0, 1000000, 1000000, 200000, 0, 0, 800000, 400000 } },
        { RING_TYPE_RND_3P, { 0, 1000000, 1000000, 200000, 0, 0, 800000,
                              400000 } },
        { RING_TYPE_SBAS, { 0, 500000, 500000, 100000, 0, 0, 400000,
                            200000 } },
        { RING_TYPE_HNI, { 200000, 0, 0, 200000, 0, 0, 100000, 100000 } },
        { RING_TYPE_SBSX, { 200000, 0, 0, 200000, 0, 0, 100000, 100000 } },
        { RING_TYPE_MN, { 10000, 10000, 10000, 10000, 0, 0, 0, 0 } },
        /* no device, the XP itself, one past RN-D: no traffic */
        { 0, { 0 } }, { RING_TYPE_XP, { 0 } }, { RING_TYPE_RND_3P + 1, { 0 } },
        { RING_TYPE_RNI_1P - 1, { 0 } },
    };

    for (size_t i = 0; i < G_N_ELEMENTS(doc); i++) {
        RingSpec spec;

        memset(&spec, 0xa5, sizeof(spec));
        model_ring_profile_default(doc[i].type, &spec);
        for (unsigned s = 0; s < RING_NODE_STREAMS; s++) {
            g_assert_cmpuint(spec.rate[s], ==, doc[i].rate[s]);
        }
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/profiles/pcie", test_pcie_profile);
    g_test_add_func("/profiles/endpoint-streams", test_endpoint_streams);
    g_test_add_func("/profiles/nic", test_nic_profile);
    g_test_add_func("/profiles/nic-streams", test_nic_streams);
    g_test_add_func("/profiles/nic-packets", test_nic_packets);
    g_test_add_func("/profiles/ring-map", test_ring_map);
    g_test_add_func("/profiles/ring", test_ring_profile);
    return g_test_run();
}
