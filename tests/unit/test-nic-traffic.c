/*
 * Host unit tests: NIC packet streams (model/nic-traffic.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <glib.h>

#include "nic-traffic.h"

#define QUEUES 4

static uint32_t make(NicStream *s, uint64_t seed, int64_t epoch)
{
    NicSpec spec[NIC_KINDS];

    model_nic_profile_default(spec);
    return model_nic_function_streams(s, seed, spec, 0x0301, 2, QUEUES, 3,
                                      epoch);
}

static void test_function_streams(void)
{
    NicStream s[2 * QUEUES + 2];
    NicSpec spec[NIC_KINDS];

    model_nic_profile_default(spec);
    g_assert_cmpuint(make(s, 1, 100), ==, 2 * QUEUES + 2);
    for (unsigned q = 0; q < QUEUES; q++) {
        for (unsigned d = 0; d < 2; d++) {
            const NicStream *x = &s[2 * q + d];

            g_assert_cmpuint(x->kind, ==, d ? NIC_RX : NIC_TX);
            g_assert_cmpuint(x->queue, ==, q);
            g_assert_cmpuint(x->tc, ==, q % 3);
            g_assert_cmpuint(x->port, ==, 2);
            g_assert_cmpuint(x->func, ==, 0x0301);
            g_assert_cmpuint(x->flow.rate, ==, spec[x->kind].rate);
            g_assert_cmpint(x->flow.epoch_t, ==, 100);
        }
    }
    g_assert_cmpuint(s[2 * QUEUES].kind, ==, NIC_ROCE_TX);
    g_assert_cmpuint(s[2 * QUEUES + 1].kind, ==, NIC_ROCE_RX);
    g_assert_cmpuint(s[2 * QUEUES].queue, ==, NIC_QUEUE_NONE);
}

/* O(1) packets, bytes and interrupts equal the sums over the packets */
static void test_counts_match_packets(void)
{
    NicStream s[2 * QUEUES + 2];
    uint32_t n = make(s, 7, 5000);

    for (int round = 0; round < 200; round++) {
        const NicStream *x = &s[g_test_rand_int_range(0, n)];
        int64_t t0 = g_test_rand_int_range(0, 20000000);
        int64_t t1 = t0 + g_test_rand_int_range(0, 3000000);
        uint64_t k = model_traffic_count_before(&x->flow, t0);
        uint64_t packets = 0, bytes = 0, intr = 0;
        NicPacket p;

        for (model_nic_packet(x, k, &p); p.time < t1; model_nic_packet(x, ++k,
                                                                       &p)) {
            g_assert_cmpint(p.time, >=, t0);
            g_assert_cmpuint(p.len, >=, x->kind < NIC_ROCE_TX ? 64 : 256);
            g_assert_cmpuint(p.len, <=, x->kind < NIC_ROCE_TX ? 1518 : 4096);
            g_assert_cmpuint(p.bd, ==, k % NIC_RING_SIZE);
            packets++;
            bytes += p.len;
            intr += p.interrupt;
        }
        g_assert_cmpuint(model_nic_packets(x, t0, t1), ==, packets);
        g_assert_cmpuint(model_nic_bytes(x, t0, t1), ==, bytes);
        g_assert_cmpuint(model_nic_interrupts(x, t0, t1), ==, intr);
    }
}

/* Packet k is a pure function of (seed, stream, k); other seeds differ */
static void test_pure(void)
{
    NicStream a[2 * QUEUES + 2], b[2 * QUEUES + 2], c[2 * QUEUES + 2];
    bool differ = false;

    make(a, 3, 0);
    make(b, 3, 0);
    make(c, 4, 0);
    for (uint64_t k = 0; k < 64; k++) {
        NicPacket pa, pb, pc;

        model_nic_packet(&a[1], k, &pa);
        model_nic_packet(&b[1], k, &pb);
        model_nic_packet(&c[1], k, &pc);
        g_assert_cmpint(pa.time, ==, pb.time);
        g_assert_cmpuint(pa.len, ==, pb.len);
        g_assert_cmpuint(pa.bd, ==, pb.bd);
        g_assert_cmpuint(pa.interrupt, ==, pb.interrupt);
        differ |= pa.len != pc.len;
    }
    g_assert_true(differ);
}

/* Ten years at a million packets/s of 9 KB: no overflow, exact */
static void test_long_runs(void)
{
    NicSpec spec = { 1000000, 9000, 9000, 1000, 1 };
    NicSpec all[NIC_KINDS] = { spec, spec, spec, spec };
    NicStream s[4];
    int64_t ten_years = 10ll * 365 * 24 * 3600 * 1000000000ll;
    uint64_t packets = 10ull * 365 * 24 * 3600 * 1000000;

    model_nic_function_streams(s, 1, all, 0x0100, 0, 1, 1, 0);
    g_assert_cmpuint(model_nic_packets(&s[0], 0, ten_years), ==, packets);
    g_assert_cmpuint(model_nic_bytes(&s[0], 0, ten_years), ==, packets * 9000);
    g_assert_cmpuint(model_nic_interrupts(&s[0], 0, ten_years), ==, packets);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/nic-traffic/function-streams", test_function_streams);
    g_test_add_func("/nic-traffic/counts-match-packets",
                    test_counts_match_packets);
    g_test_add_func("/nic-traffic/pure", test_pure);
    g_test_add_func("/nic-traffic/long-runs", test_long_runs);
    return g_test_run();
}
