/*
 * Host unit tests: what the HiSilicon PCIe PMU events count.
 *
 * The expected counts are worked out here from the streams' rates, lengths
 * and latencies (docs/devices/hisi-pcie-pmu.md says which TLPs each event
 * counts), not read back from the model's event table.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <glib.h>

#include "pcie-pmu.h"

/*
 * One endpoint's seven streams, in traffic.h's order, each with its own
 * rate and a single length, so that each one's share of a count shows:
 * over 1 ms a stream of R TLPs/s has exactly R / 1000 TLPs.
 */
enum { DMA_WR, DMA_RD, DMA_RD_CPL, MMIO_WR, MMIO_RD, MMIO_RD_CPL, P2P_CPL };

static const TrafficSpec test_profile[TRAFFIC_ENDPOINT_STREAMS] = {
    [DMA_WR] = { TRAFFIC_INBOUND, TRAFFIC_POSTED, false, 300000, 16, 16, 600 },
    [DMA_RD] = { TRAFFIC_INBOUND, TRAFFIC_NON_POSTED, false, 110000, 8, 8,
                 900 },
    [DMA_RD_CPL] = { TRAFFIC_OUTBOUND, TRAFFIC_COMPLETION, false, 120000, 8,
                     8, 950 },
    [MMIO_WR] = { TRAFFIC_OUTBOUND, TRAFFIC_POSTED, false, 23000, 1, 1, 300 },
    [MMIO_RD] = { TRAFFIC_OUTBOUND, TRAFFIC_NON_POSTED, false, 13000, 1, 1,
                  1200 },
    [MMIO_RD_CPL] = { TRAFFIC_INBOUND, TRAFFIC_COMPLETION, false, 17000, 2, 2,
                      1250 },
    [P2P_CPL] = { TRAFFIC_INBOUND, TRAFFIC_COMPLETION, true, 5000, 4, 4,
                  1500 },
};

/* The interval counted: 1 ms, a while after the streams start at 0 */
#define T0      7000000
#define T1      (T0 + 1000000)

/*
 * Endpoint 01:00.0 below root port 00:10.0 with the test profile: its DMA
 * goes above 4 GiB (4DW request headers), the CPU's requests to its BAR at
 * @mmio_base (3DW headers below 4 GiB, 4DW above); completions are 3DW.
 */
static void make_endpoint(TrafficStream *s, uint64_t mmio_base)
{
    /* tuning at reset: the rates and latencies as given */
    TrafficTuning neutral = TRAFFIC_TUNING_RESET;

    model_traffic_endpoint_streams(s, 1, test_profile, 0x0100, 0x0080,
                                   mmio_base, 0x4000, &neutral, 0);
}

/*
 * What event @code with filter @f counts of @s in [t0, t1): the part of
 * @f the event honours, as the device applies it.
 */
static PciePmuSums count(uint16_t code, const PciePmuFilter *filter,
                         const TrafficStream *s, int64_t t0, int64_t t1)
{
    const PciePmuEvent *ev = model_pcie_pmu_event(code);
    PciePmuSums sums = { 0 };
    PciePmuFilter f;

    g_assert_nonnull(ev);
    f = model_pcie_pmu_event_filter(ev, *filter);
    for (unsigned i = 0; i < TRAFFIC_ENDPOINT_STREAMS; i++) {
        if (model_pcie_pmu_stream_matches(ev, &s[i])) {
            model_pcie_pmu_stream_sums(&s[i], &f,
                                       model_traffic_count_before(&s[i].flow,
                                                                  t0),
                                       model_traffic_count_before(&s[i].flow,
                                                                  t1), &sums);
        }
    }
    return sums;
}

static const PciePmuFilter both = { .len_mode = PCIE_PMU_LEN_BOTH };

/*
 * The Linux 6.12 driver's events (hisi_pcie_pmu.c) over 1 ms of the test
 * profile: TLPs per ms, times (payload + header DWs) * 4 bytes, or times
 * the stream's latency. Memory read requests carry no payload.
 */
static const struct {
    const char *name;
    uint16_t code;
    bool latency;
    uint64_t tlps;
    uint64_t bytes;         /* bandwidth events, len_mode both */
    uint64_t delay_ns;      /* latency events */
} driver_events[] = {
    /* the endpoint's DMA writes */
    { "rx_mwr_latency", 0x0010, true, 300, 0, 300 * 600 },
    /* its DMA reads */
    { "rx_mrd_latency", 0x0210, true, 110, 0, 110 * 900 },
    /* the CPU's reads of its BAR */
    { "tx_mrd_latency", 0x0011, true, 13, 0, 13 * 1200 },
    { "rx_mwr_flux", 0x0104, false, 300, 300 * (16 + 4) * 4, 0 },
    { "rx_mrd_flux", 0x0804, false, 110, 110 * 4 * 4, 0 },
    /* completions of the CPU's reads (CPL A) and of peer reads (CPL B) */
    { "rx_cpl_flux", 0x2004, false, 17 + 5,
      17 * (2 + 3) * 4 + 5 * (4 + 3) * 4, 0 },
    { "tx_mwr_flux", 0x0105, false, 23, 23 * (1 + 3) * 4, 0 },
    { "tx_mrd_flux", 0x0405, false, 13, 13 * 3 * 4, 0 },
    /* completions of the endpoint's DMA reads */
    { "tx_cpl_flux", 0x1005, false, 120, 120 * (8 + 3) * 4, 0 },
};

/* Each event counts the TLPs of its kind and direction, and no others */
static void test_event_counts(void)
{
    TrafficStream s[TRAFFIC_ENDPOINT_STREAMS];
    uint64_t flux_tlps = 0;

    make_endpoint(s, 0x10000000);
    for (size_t i = 0; i < G_N_ELEMENTS(driver_events); i++) {
        PciePmuSums got = count(driver_events[i].code, &both, s, T0, T1);

        g_test_message("%s", driver_events[i].name);
        g_assert_cmpint(model_pcie_pmu_event(driver_events[i].code)->latency,
                        ==, driver_events[i].latency);
        g_assert_cmpuint(got.tlps, ==, driver_events[i].tlps);
        if (driver_events[i].latency) {
            g_assert_cmpuint(got.delay_ns, ==, driver_events[i].delay_ns);
        } else {
            g_assert_cmpuint(got.bytes, ==, driver_events[i].bytes);
            flux_tlps += got.tlps;
        }
    }
    /* the bandwidth events split the traffic: every TLP in exactly one */
    g_assert_cmpuint(flux_tlps, ==, 300 + 110 + 120 + 23 + 13 + 17 + 5);
}

/* The codes the driver does not define are no events */
static void test_unknown_codes(void)
{
    unsigned known = 0;

    for (uint32_t code = 0; code <= 0xffff; code++) {
        bool driver = false;

        for (size_t i = 0; i < G_N_ELEMENTS(driver_events); i++) {
            driver |= driver_events[i].code == code;
        }
        if (!driver) {
            g_assert_null(model_pcie_pmu_event(code));
        } else {
            known++;
        }
    }
    g_assert_cmpuint(known, ==, 9);
}

/* len_mode: payload, header, or both, which is their sum */
static void test_len_mode(void)
{
    TrafficStream s32[TRAFFIC_ENDPOINT_STREAMS], s64[TRAFFIC_ENDPOINT_STREAMS];
    PciePmuFilter payload = { .len_mode = PCIE_PMU_LEN_PAYLOAD };
    PciePmuFilter header = { .len_mode = PCIE_PMU_LEN_HEADER };

    make_endpoint(s32, 0x10000000);
    /* a BAR above 4 GiB: the CPU's requests to it take 4DW headers */
    make_endpoint(s64, 0x8000000000ull);
    g_assert_cmpuint(count(0x0104, &payload, s32, T0, T1).bytes, ==,
                     300 * 16 * 4);
    g_assert_cmpuint(count(0x0104, &header, s32, T0, T1).bytes, ==,
                     300 * 4 * 4);
    g_assert_cmpuint(count(0x0105, &header, s32, T0, T1).bytes, ==,
                     23 * 3 * 4);
    g_assert_cmpuint(count(0x0105, &header, s64, T0, T1).bytes, ==,
                     23 * 4 * 4);
    g_assert_cmpuint(count(0x0405, &header, s64, T0, T1).bytes, ==,
                     13 * 4 * 4);
    /* completions carry no address: 3DW whatever the BAR */
    g_assert_cmpuint(count(0x2004, &header, s64, T0, T1).bytes, ==,
                     (17 + 5) * 3 * 4);
    /* a memory read request is a header alone: no payload to count */
    g_assert_cmpuint(count(0x0804, &payload, s32, T0, T1).bytes, ==, 0);
    g_assert_cmpuint(count(0x0405, &payload, s64, T0, T1).bytes, ==, 0);
    g_assert_cmpuint(count(0x0804, &header, s32, T0, T1).bytes, ==,
                     110 * 4 * 4);
    g_assert_cmpuint(count(0x0804, &both, s32, T0, T1).bytes, ==,
                     110 * 4 * 4);
    /* the completions of those reads carry the data */
    g_assert_cmpuint(count(0x1005, &payload, s32, T0, T1).bytes, ==,
                     120 * 8 * 4);
    for (size_t i = 0; i < G_N_ELEMENTS(driver_events); i++) {
        uint16_t code = driver_events[i].code;

        g_assert_cmpuint(count(code, &payload, s64, T0, T1).bytes +
                         count(code, &header, s64, T0, T1).bytes, ==,
                         count(code, &both, s64, T0, T1).bytes);
    }
}

/*
 * Thresholds at the edge: the DMA writes are all 16 DWs, 2^4; "length >=
 * 2^thr_len" keeps them at thr_len 4, "length < 2^thr_len" drops them.
 */
static void test_threshold_edges(void)
{
    TrafficStream s[TRAFFIC_ENDPOINT_STREAMS];
    PciePmuFilter at_least_16 = { .thr_en = true, .thr_len = 4,
                                  .len_mode = PCIE_PMU_LEN_BOTH };
    PciePmuFilter below_16 = { .thr_en = true, .thr_below = true,
                               .thr_len = 4, .len_mode = PCIE_PMU_LEN_BOTH };
    PciePmuFilter at_least_32 = { .thr_en = true, .thr_len = 5,
                                  .len_mode = PCIE_PMU_LEN_BOTH };
    PciePmuFilter below_32 = { .thr_en = true, .thr_below = true,
                               .thr_len = 5, .len_mode = PCIE_PMU_LEN_BOTH };
    PciePmuSums kept;

    make_endpoint(s, 0x10000000);
    kept = count(0x0104, &at_least_16, s, T0, T1);
    g_assert_cmpuint(kept.tlps, ==, 300);
    g_assert_cmpuint(kept.bytes, ==, 300 * (16 + 4) * 4);
    g_assert_cmpuint(count(0x0104, &below_32, s, T0, T1).tlps, ==, 300);
    g_assert_cmpuint(count(0x0104, &below_16, s, T0, T1).tlps, ==, 0);
    g_assert_cmpuint(count(0x0104, &below_16, s, T0, T1).bytes, ==, 0);
    g_assert_cmpuint(count(0x0104, &at_least_32, s, T0, T1).tlps, ==, 0);
    /* latency events have no threshold: every TLP adds its delay */
    g_assert_cmpuint(count(0x0010, &below_16, s, T0, T1).delay_ns, ==,
                     300 * 600);
    g_assert_cmpuint(count(0x0010, &below_16, s, T0, T1).tlps, ==, 300);
    g_assert_cmpuint(count(0x0010, &at_least_16, s, T0, T1).delay_ns, ==,
                     300 * 600);
}

/*
 * hisi-pcie-pmu.rst: the trigger and the threshold "can only be used in
 * bandwidth events"; latency events ignore them, bandwidth events keep
 * them, and both keep len_mode.
 */
static void test_latency_ignores_filters(void)
{
    PciePmuFilter f = {
        .thr_en = true, .thr_below = true, .thr_len = 3,
        .trig_en = true, .trig_below = true, .trig_len = 2,
        .len_mode = PCIE_PMU_LEN_PAYLOAD,
    };
    PciePmuFilter lat = model_pcie_pmu_event_filter(model_pcie_pmu_event(
                                                        0x0010), f);
    PciePmuFilter bw = model_pcie_pmu_event_filter(model_pcie_pmu_event(
                                                       0x0104), f);

    g_assert_false(lat.thr_en);
    g_assert_false(lat.trig_en);
    g_assert_cmpuint(lat.len_mode, ==, PCIE_PMU_LEN_PAYLOAD);
    g_assert_true(bw.thr_en && bw.thr_below && bw.thr_len == 3);
    g_assert_true(bw.trig_en && bw.trig_below && bw.trig_len == 2);
    g_assert_cmpuint(bw.len_mode, ==, PCIE_PMU_LEN_PAYLOAD);
}

static TrafficStream stream_of(TrafficKind kind, uint16_t min, uint16_t max,
                               uint64_t addr)
{
    TrafficStream s = {
        .dir = TRAFFIC_INBOUND, .kind = kind,
        .addr_base = addr, .addr_window = 4096, .latency_ns = 700,
    };

    model_traffic_stream_init(&s, 3, 1000, 0, min, max);
    return s;
}

/* Inbound memory writes */
static TrafficStream stream(uint16_t min, uint16_t max, uint64_t addr)
{
    return stream_of(TRAFFIC_POSTED, min, max, addr);
}

/* Brute force over [k0, k1) for comparison */
static PciePmuSums brute(const TrafficStream *s, const PciePmuFilter *f,
                         uint64_t k0, uint64_t k1, unsigned header_dw)
{
    PciePmuSums sums = { 0 };

    for (uint64_t k = k0; k < k1; k++) {
        uint16_t len = model_traffic_len(&s->flow, k);

        if (f->thr_en && (f->thr_below ? len >= (1u << f->thr_len) :
                                         len < (1u << f->thr_len))) {
            continue;
        }
        sums.tlps++;
        sums.delay_ns += s->latency_ns;
        /* a read request's length is what it reads, not its payload */
        if (s->kind != TRAFFIC_NON_POSTED &&
            (f->len_mode & PCIE_PMU_LEN_PAYLOAD)) {
            sums.bytes += len * 4;
        }
        if (f->len_mode & PCIE_PMU_LEN_HEADER) {
            sums.bytes += header_dw * 4;
        }
    }
    return sums;
}

static void test_sums(void)
{
    TrafficStream s64 = stream(1, 40, 0x100000000ull);
    TrafficStream s32 = stream(1, 40, 0x10000000);
    TrafficStream reads = stream_of(TRAFFIC_NON_POSTED, 1, 40,
                                    0x100000000ull);
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
        const TrafficStream *s = i % 3 == 2 ? &reads : i & 1 ? &s64 : &s32;
        PciePmuSums got = { 0 };
        PciePmuSums want = brute(s, &f, k0, k1, s->addr_base >> 32 ? 4 : 3);

        model_pcie_pmu_stream_sums(s, &f, k0, k1, &got);
        g_assert_cmpuint(got.tlps, ==, want.tlps);
        g_assert_cmpuint(got.bytes, ==, want.bytes);
        g_assert_cmpuint(got.delay_ns, ==, want.delay_ns);
    }
    g_rand_free(r);
}

static void test_trigger(void)
{
    TrafficStream s = stream(8, 8, 0x100000000ull);
    TrafficStream s16 = stream(16, 16, 0x100000000ull);
    TrafficStream mixed = stream(1, 40, 0x100000000ull);
    PciePmuFilter above4 = { .trig_en = true, .trig_len = 2 };
    PciePmuFilter above8 = { .trig_en = true, .trig_len = 3 };
    PciePmuFilter below16 = { .trig_en = true, .trig_below = true,
                              .trig_len = 4 };
    uint64_t k;

    g_assert_cmpuint(model_pcie_pmu_trigger_tlp(&s, &above4, 10), ==, 10);
    /* longer than 2^trig_len: a length of exactly 8 never fires "> 8" */
    g_assert_cmpuint(model_pcie_pmu_trigger_tlp(&s, &above8, 10), ==,
                     UINT64_MAX);
    g_assert_cmpuint(model_pcie_pmu_trigger_tlp(&s, &below16, 3), ==, 3);
    /* shorter than 2^trig_len: nor 16 "< 16" */
    g_assert_cmpuint(model_pcie_pmu_trigger_tlp(&s16, &below16, 3), ==,
                     UINT64_MAX);
    /*
     * UINT64_MAX for any @k0 when no length fires, the largest numbers
     * included: the search looks at one pattern's worth, then stops.
     */
    g_assert_cmpuint(model_pcie_pmu_trigger_tlp(&s, &above8,
                                                UINT64_MAX - TRAFFIC_PATTERN),
                     ==, UINT64_MAX);
    /* ... and finds the TLP that fires up there too, k0 + i not wrapping */
    g_assert_cmpuint(model_pcie_pmu_trigger_tlp(&s, &above4, UINT64_MAX - 15),
                     ==, UINT64_MAX - 15);
    g_assert_cmpuint(model_pcie_pmu_trigger_tlp(&s, &above4, UINT64_MAX - 1),
                     ==, UINT64_MAX - 1);
    g_assert_cmpuint(model_pcie_pmu_trigger_tlp(&s, &above4, UINT64_MAX), ==,
                     UINT64_MAX);
    k = model_pcie_pmu_trigger_tlp(&mixed, &above8, 100);
    g_assert_cmpuint(k, <, 100 + TRAFFIC_PATTERN);
    g_assert_cmpuint(model_traffic_len(&mixed.flow, k), >, 8);
    for (uint64_t j = 100; j < k; j++) {
        g_assert_cmpuint(model_traffic_len(&mixed.flow, j), <=, 8);
    }
}

/*
 * One real TLP (model_pcie_pmu_tlp_sums) counts as one TLP of its stream
 * would: its delay, and the header DWs and payload len_mode selects (none
 * for a read request); one the threshold leaves out counts nothing.
 */
static void test_tlp_sums(void)
{
    const PciePmuFilter payload = { .len_mode = PCIE_PMU_LEN_PAYLOAD };
    const PciePmuFilter header = { .len_mode = PCIE_PMU_LEN_HEADER };
    const PciePmuFilter long_only = { .thr_en = true, .thr_len = 3,
                                      .len_mode = PCIE_PMU_LEN_BOTH };
    PciePmuSums sums = { 0 };

    model_pcie_pmu_tlp_sums(&both, TRAFFIC_POSTED, 16, 4, 250, &sums);
    g_assert_cmpuint(sums.tlps, ==, 1);
    g_assert_cmpuint(sums.bytes, ==, (16 + 4) * 4);
    g_assert_cmpuint(sums.delay_ns, ==, 250);
    /* Each call adds to the sums */
    model_pcie_pmu_tlp_sums(&header, TRAFFIC_COMPLETION, 1, 3, 0, &sums);
    g_assert_cmpuint(sums.tlps, ==, 2);
    g_assert_cmpuint(sums.bytes, ==, 80 + 3 * 4);
    model_pcie_pmu_tlp_sums(&payload, TRAFFIC_COMPLETION, 1, 3, 0, &sums);
    g_assert_cmpuint(sums.tlps, ==, 3);
    g_assert_cmpuint(sums.bytes, ==, 92 + 4);
    model_pcie_pmu_tlp_sums(&both, TRAFFIC_NON_POSTED, 8, 3, 0, &sums);
    g_assert_cmpuint(sums.tlps, ==, 4);
    g_assert_cmpuint(sums.bytes, ==, 96 + 3 * 4);
    g_assert_cmpuint(sums.delay_ns, ==, 250);
    /* Threshold: Length >= 2^3 DW counts, 7 DW does not */
    model_pcie_pmu_tlp_sums(&long_only, TRAFFIC_POSTED, 7, 3, 100, &sums);
    g_assert_cmpuint(sums.tlps, ==, 4);
    g_assert_cmpuint(sums.bytes, ==, 108);
    g_assert_cmpuint(sums.delay_ns, ==, 250);
    model_pcie_pmu_tlp_sums(&long_only, TRAFFIC_POSTED, 8, 3, 100, &sums);
    g_assert_cmpuint(sums.tlps, ==, 5);
    g_assert_cmpuint(sums.bytes, ==, 108 + (8 + 3) * 4);
    g_assert_cmpuint(sums.delay_ns, ==, 350);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/pcie-pmu/event-counts", test_event_counts);
    g_test_add_func("/pcie-pmu/unknown-codes", test_unknown_codes);
    g_test_add_func("/pcie-pmu/len-mode", test_len_mode);
    g_test_add_func("/pcie-pmu/threshold-edges", test_threshold_edges);
    g_test_add_func("/pcie-pmu/latency-ignores-filters",
                    test_latency_ignores_filters);
    g_test_add_func("/pcie-pmu/sums", test_sums);
    g_test_add_func("/pcie-pmu/trigger", test_trigger);
    g_test_add_func("/pcie-pmu/tlp-sums", test_tlp_sums);
    return g_test_run();
}
