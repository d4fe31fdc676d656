/*
 * Host unit tests: what the HiSilicon PCIe PMU events count.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <glib.h>

#include "pcie-pmu.h"

static void test_events(void)
{
    static const struct {
        uint16_t code;
        uint8_t dir, kind;
        bool latency;
    } want[] = {
        { 0x0010, TRAFFIC_INBOUND, TRAFFIC_POSTED, true },
        { 0x0210, TRAFFIC_INBOUND, TRAFFIC_NON_POSTED, true },
        { 0x0011, TRAFFIC_OUTBOUND, TRAFFIC_NON_POSTED, true },
        { 0x0104, TRAFFIC_INBOUND, TRAFFIC_POSTED, false },
        { 0x0804, TRAFFIC_INBOUND, TRAFFIC_NON_POSTED, false },
        { 0x2004, TRAFFIC_INBOUND, TRAFFIC_COMPLETION, false },
        { 0x0105, TRAFFIC_OUTBOUND, TRAFFIC_POSTED, false },
        { 0x0405, TRAFFIC_OUTBOUND, TRAFFIC_NON_POSTED, false },
        { 0x1005, TRAFFIC_OUTBOUND, TRAFFIC_COMPLETION, false },
    };

    for (size_t i = 0; i < G_N_ELEMENTS(want); i++) {
        const PciePmuEvent *ev = pcie_pmu_event(want[i].code);

        g_assert_nonnull(ev);
        g_assert_cmpuint(ev->dir, ==, want[i].dir);
        g_assert_cmpuint(ev->kind, ==, want[i].kind);
        g_assert_cmpint(ev->latency, ==, want[i].latency);
    }
    g_assert_null(pcie_pmu_event(0x0000));
    g_assert_null(pcie_pmu_event(0x0012));
}

static TrafficStream stream(uint16_t min, uint16_t max, uint64_t addr)
{
    TrafficStream s = {
        .dir = TRAFFIC_INBOUND, .kind = TRAFFIC_POSTED,
        .addr_base = addr, .addr_window = 4096, .latency_ns = 700,
    };

    traffic_stream_init(&s, 3, 1000, 0, min, max);
    return s;
}

/* Brute force over [k0, k1) for comparison */
static PciePmuSums brute(const TrafficStream *s, const PciePmuFilter *f,
                         uint64_t k0, uint64_t k1, unsigned header_dw)
{
    PciePmuSums sums = { 0 };

    for (uint64_t k = k0; k < k1; k++) {
        uint16_t len = traffic_len(&s->flow, k);

        if (f->thr_en && (f->thr_below ? len >= (1u << f->thr_len) :
                                         len < (1u << f->thr_len))) {
            continue;
        }
        sums.tlps++;
        sums.delay_ns += s->latency_ns;
        sums.bytes += (f->len_mode & PCIE_PMU_LEN_PAYLOAD ? len * 4 : 0) +
                      (f->len_mode & PCIE_PMU_LEN_HEADER ? header_dw * 4 : 0);
    }
    return sums;
}

static void test_sums(void)
{
    TrafficStream s64 = stream(1, 40, 0x100000000ull);
    TrafficStream s32 = stream(1, 40, 0x10000000);
    GRand *r = g_rand_new_with_seed(5);

    for (int i = 0; i < 500; i++) {
        PciePmuFilter f = {
            .thr_en = g_rand_boolean(r),
            .thr_below = g_rand_boolean(r),
            .thr_len = g_rand_int_range(r, 0, 7),
            .len_mode = g_rand_int_range(r, 1, 4),
        };
        uint64_t k0 = g_rand_int_range(r, 0, 100000);
        uint64_t k1 = k0 + g_rand_int_range(r, 0, 300);
        bool wide = i & 1;
        const TrafficStream *s = wide ? &s64 : &s32;
        PciePmuSums got = { 0 }, want = brute(s, &f, k0, k1, wide ? 4 : 3);

        pcie_pmu_stream_sums(s, &f, k0, k1, &got);
        g_assert_cmpuint(got.tlps, ==, want.tlps);
        g_assert_cmpuint(got.bytes, ==, want.bytes);
        g_assert_cmpuint(got.delay_ns, ==, want.delay_ns);
    }
    g_rand_free(r);
}

static void test_trigger(void)
{
    TrafficStream s = stream(8, 8, 0x100000000ull);
    TrafficStream mixed = stream(1, 40, 0x100000000ull);
    PciePmuFilter above7 = { .trig_en = true, .trig_len = 2 };     /* > 4 */
    PciePmuFilter above8 = { .trig_en = true, .trig_len = 3 };     /* > 8 */
    PciePmuFilter below = { .trig_en = true, .trig_below = true,
                            .trig_len = 4 };                       /* < 16 */
    uint64_t k;

    g_assert_cmpuint(pcie_pmu_trigger_tlp(&s, &above7, 10), ==, 10);
    g_assert_cmpuint(pcie_pmu_trigger_tlp(&s, &above8, 10), ==, UINT64_MAX);
    g_assert_cmpuint(pcie_pmu_trigger_tlp(&s, &below, 3), ==, 3);
    k = pcie_pmu_trigger_tlp(&mixed, &above8, 100);
    g_assert_cmpuint(k, <, 100 + TRAFFIC_PATTERN);
    g_assert_cmpuint(traffic_len(&mixed.flow, k), >, 8);
    for (uint64_t j = 100; j < k; j++) {
        g_assert_cmpuint(traffic_len(&mixed.flow, j), <=, 8);
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/pcie-pmu/events", test_events);
    g_test_add_func("/pcie-pmu/sums", test_sums);
    g_test_add_func("/pcie-pmu/trigger", test_trigger);
    return g_test_run();
}
