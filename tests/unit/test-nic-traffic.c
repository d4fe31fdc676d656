/*
 * Host unit tests: NIC packet streams (model/nic-traffic.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <glib.h>
#include <string.h>

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

/* A stream's rate from time @from on */
typedef struct RatePiece {
    int64_t from;
    uint64_t rate;
} RatePiece;

/*
 * Events in [0, @t) of a flow whose rate changed as @pieces say (the first
 * from 0, at a rate > 0), in closed form: event k happens at the first ns
 * by which the work done, the sum of rate x time over the pieces, reaches
 * k x 1e9; so each piece adds its own rate x length, no more.
 */
static uint64_t closed_form_events(const RatePiece *pieces, unsigned n,
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
 * A change at @now to rates x @num / @den: the streams rebuilt with the new
 * settings (from the epoch @now, as the traffic object builds them) take
 * over from @s, which they replace.
 */
static void change_rates(NicStream *s, uint32_t n, int64_t now, uint64_t num,
                         uint64_t den)
{
    NicStream cur[2 * QUEUES + 2];
    NicSpec spec[NIC_KINDS];

    model_nic_profile_default(spec);
    for (unsigned i = 0; i < NIC_KINDS; i++) {
        spec[i].rate = spec[i].rate * num / den;
    }
    g_assert_cmpuint(model_nic_function_streams(cur, 7, spec, 0x0301, 2,
                                                QUEUES, 3, now), ==, n);
    model_nic_streams_carry(cur, s, n, now);
    memcpy(s, cur, sizeof(cur));
}

/*
 * A change at T goes on from where each stream stood: the count is
 * continuous at T, and a stream's next packet comes when its work left is
 * done at the new rate, not at T (unless it was due then).
 */
static void test_change_keeps_phase(void)
{
    NicStream old[2 * QUEUES + 2], s[2 * QUEUES + 2];
    uint32_t n = make(old, 7, 0);
    const int64_t t = 1234567;

    memcpy(s, old, sizeof(old));
    change_rates(s, n, t, 3, 1);
    for (uint32_t i = 0; i < n; i++) {
        uint64_t k = model_traffic_count_before(&old[i].flow, t);
        uint64_t r0 = old[i].flow.rate, r1 = s[i].flow.rate;
        /* the work packet k still needs at T, done at 3x the rate */
        uint64_t left = k * TRAFFIC_NS_PER_S - (uint64_t)t * r0;
        NicPacket p;

        g_test_message("stream %u: packet %" G_GUINT64_FORMAT, i, k);
        g_assert_cmpuint(model_traffic_count_before(&s[i].flow, t), ==, k);
        g_assert_cmpint(model_traffic_time(&old[i].flow, k), >, t);
        model_nic_packet(&s[i], k, &p);
        g_assert_cmpint(p.time, >, t);
        g_assert_cmpint(p.time, ==, t + (int64_t)((left + r1 - 1) / r1));
        g_assert_cmpuint(p.bd, ==, k % NIC_RING_SIZE);
    }
    /* a change that leaves a rate alone changes nothing */
    memcpy(s, old, sizeof(old));
    change_rates(s, n, t, 1, 1);
    for (uint32_t i = 0; i < n; i++) {
        for (uint64_t k = 0; k < 100; k++) {
            uint64_t at = model_traffic_count_before(&old[i].flow, t) + k;

            g_assert_cmpint(model_traffic_time(&s[i].flow, at), ==,
                            model_traffic_time(&old[i].flow, at));
        }
    }
}

/*
 * Over several changes (a pause among them) the packets a PMU counts, each
 * interval between changes on the streams of that interval, are linear:
 * the sum of each interval at its rate, no extra packet per stream per
 * change.
 */
static void test_changes_linear(void)
{
    static const struct {
        int64_t at;
        uint64_t num, den;
    } changes[] = {
        { 0, 1, 1 }, { 1000003, 3, 1 }, { 1700011, 0, 1 },
        { 2100019, 7, 10 }, { 3500029, 1, 1 },
    };
    const int64_t end = 5000000;
    NicStream s[2 * QUEUES + 2];
    RatePiece pieces[G_N_ELEMENTS(changes)];
    uint64_t counted[2 * QUEUES + 2] = { 0 };
    uint32_t n = make(s, 7, 0);

    for (unsigned c = 1; c <= G_N_ELEMENTS(changes); c++) {
        int64_t to = c < G_N_ELEMENTS(changes) ? changes[c].at : end;

        for (uint32_t i = 0; i < n; i++) {
            counted[i] += model_nic_packets(&s[i], changes[c - 1].at, to);
        }
        if (c < G_N_ELEMENTS(changes)) {
            change_rates(s, n, to, changes[c].num, changes[c].den);
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        NicSpec spec[NIC_KINDS];

        model_nic_profile_default(spec);
        for (unsigned c = 0; c < G_N_ELEMENTS(changes); c++) {
            pieces[c].from = changes[c].at;
            pieces[c].rate = spec[s[i].kind].rate * changes[c].num /
                             changes[c].den;
        }
        g_test_message("stream %u", i);
        g_assert_cmpuint(counted[i], ==,
                         closed_form_events(pieces, G_N_ELEMENTS(changes),
                                            end));
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/nic-traffic/function-streams", test_function_streams);
    g_test_add_func("/nic-traffic/counts-match-packets",
                    test_counts_match_packets);
    g_test_add_func("/nic-traffic/pure", test_pure);
    g_test_add_func("/nic-traffic/long-runs", test_long_runs);
    g_test_add_func("/nic-traffic/change-keeps-phase",
                    test_change_keeps_phase);
    g_test_add_func("/nic-traffic/changes-linear", test_changes_linear);
    return g_test_run();
}
