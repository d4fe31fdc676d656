/*
 * Host unit tests: the PCIe PMU's and the HNS3 PMU's filters at each edge,
 * on streams built here with lengths and identities chosen for the edge,
 * not on the synthetic traffic. Expectations come from the guides and the
 * drivers: Documentation/admin-guide/perf/hisi-pcie-pmu.rst (threshold,
 * trigger, len_mode) and drivers/perf/hisilicon/hns3_pmu.c (filter modes,
 * FILTER_CONDITION_PORT_TC, GET_PCI_DEVFN).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <glib.h>
#include <string.h>

#include "hns3-pmu.h"
#include "pcie-pmu.h"

/* The driver's event codes (hisi_pcie_pmu.c, bits 15:0 of the config) */
enum {
    RX_MWR_LATENCY = 0x0010, RX_MRD_LATENCY = 0x0210, TX_MRD_LATENCY = 0x0011,
    RX_MWR_FLUX = 0x0104, RX_MRD_FLUX = 0x0804, RX_CPL_FLUX = 0x2004,
    TX_MWR_FLUX = 0x0105, TX_MRD_FLUX = 0x0405, TX_CPL_FLUX = 0x1005,
};

/* A stream whose TLPs are all @len DWs, or follow @pattern when given */
static void pcie_stream(TrafficStream *s, uint8_t dir, uint8_t kind,
                        uint16_t len, uint64_t addr_base)
{
    memset(s, 0, sizeof(*s));
    s->dir = dir;
    s->kind = kind;
    s->addr_base = addr_base;
    s->addr_window = 4096;
    s->latency_ns = 700;
    model_traffic_flow_init(&s->flow, 1, 1000000, 0, len, len);
}

static PciePmuSums pcie_sums(const TrafficStream *s, const PciePmuFilter *f,
                             uint64_t k0, uint64_t k1)
{
    PciePmuSums sums = { 0 };

    model_pcie_pmu_stream_sums(s, f, k0, k1, &sums);
    return sums;
}

/*
 * "thr_len=4 means threshold is 2^4 DW, thr_mode=0 means counter counts
 * when TLP length >= threshold, and thr_mode=1 means counts when TLP
 * length < threshold": lengths one below, at and one above 2^thr_len, for
 * thr_len from 0 to 10 (1024 DWs, the longest TLP) and 15 (4 bits).
 */
static void test_pcie_threshold(void)
{
    static const uint8_t thr_lens[] = { 0, 1, 2, 4, 9, 10, 15 };

    for (size_t i = 0; i < G_N_ELEMENTS(thr_lens); i++) {
        uint32_t edge = 1u << thr_lens[i];

        for (int d = -1; d <= 1; d++) {
            uint32_t len = edge + d;
            PciePmuFilter at_least = { .thr_en = true,
                                       .thr_len = thr_lens[i],
                                       .len_mode = PCIE_PMU_LEN_PAYLOAD };
            PciePmuFilter below = at_least, off = at_least;
            TrafficStream s;
            PciePmuSums sums;
            bool ge = len >= edge;

            if (len < 1 || len > 1024) {
                continue;
            }
            below.thr_below = true;
            off.thr_en = false;
            off.thr_below = true;
            pcie_stream(&s, TRAFFIC_INBOUND, TRAFFIC_POSTED, len, 0x1000);
            sums = pcie_sums(&s, &at_least, 0, 32);
            g_assert_cmpuint(sums.tlps, ==, ge ? 32 : 0);
            g_assert_cmpuint(sums.bytes, ==, ge ? 32 * len * 4 : 0);
            sums = pcie_sums(&s, &below, 0, 32);
            g_assert_cmpuint(sums.tlps, ==, ge ? 0 : 32);
            g_assert_cmpuint(sums.bytes, ==, ge ? 0 : 32 * len * 4);
            /* thr_en clear: every TLP, whatever the mode and length */
            g_assert_cmpuint(pcie_sums(&s, &off, 0, 32).tlps, ==, 32);
        }
    }
}

/*
 * The threshold on a stream of mixed lengths over intervals that start
 * and end inside the pattern: the count equals a TLP-by-TLP check.
 */
static void test_pcie_threshold_mixed(void)
{
    static const uint64_t ranges[][2] = {
        { 0, 1 }, { 0, 16 }, { 3, 21 }, { 15, 17 }, { 16, 32 },
        { 1000003, 1000100 }, { 5, 5 },
    };
    static const uint16_t lens[TRAFFIC_PATTERN] = {
        15, 16, 17, 1, 1024, 8, 32, 31, 2, 16, 100, 3, 15, 64, 1, 17,
    };
    PciePmuFilter f = { .thr_en = true, .thr_len = 4,
                        .len_mode = PCIE_PMU_LEN_BOTH };
    TrafficStream s;

    /* inbound 64-bit writes: header 4 DWs */
    pcie_stream(&s, TRAFFIC_INBOUND, TRAFFIC_POSTED, 1, 0x100000000ull);
    memcpy(s.flow.len, lens, sizeof(lens));
    for (int below = 0; below <= 1; below++) {
        f.thr_below = below;
        for (size_t r = 0; r < G_N_ELEMENTS(ranges); r++) {
            uint64_t tlps = 0, dw = 0;
            PciePmuSums sums;

            for (uint64_t k = ranges[r][0]; k < ranges[r][1]; k++) {
                uint16_t len = s.flow.len[k % TRAFFIC_PATTERN];

                if ((len >= 16) != below) {
                    tlps++;
                    dw += len;
                }
            }
            sums = pcie_sums(&s, &f, ranges[r][0], ranges[r][1]);
            g_assert_cmpuint(sums.tlps, ==, tlps);
            g_assert_cmpuint(sums.bytes, ==, (dw + tlps * 4) * 4);
            g_assert_cmpuint(sums.delay_ns, ==, tlps * 700);
        }
    }
}

/*
 * "trig_len=4 means trigger condition is 2^4 DW, trig_mode=0 means
 * statistics start when TLP length > trigger condition, trig_mode=1 means
 * start when TLP length < condition": a length equal to the condition
 * fires neither mode; one DW more fires mode 0, one less mode 1.
 */
static void test_pcie_trigger(void)
{
    static const uint8_t trig_lens[] = { 0, 1, 4, 9 };

    for (size_t i = 0; i < G_N_ELEMENTS(trig_lens); i++) {
        uint16_t edge = 1u << trig_lens[i];
        PciePmuFilter above = { .trig_en = true, .trig_len = trig_lens[i] };
        PciePmuFilter below = above;
        TrafficStream s;

        below.trig_below = true;
        pcie_stream(&s, TRAFFIC_INBOUND, TRAFFIC_POSTED, edge, 0x1000);
        g_assert_cmpuint(model_pcie_pmu_trigger_tlp(&s, &above, 0), ==,
                         UINT64_MAX);
        g_assert_cmpuint(model_pcie_pmu_trigger_tlp(&s, &below, 0), ==,
                         UINT64_MAX);
        s.flow.len[5] = edge + 1;
        g_assert_cmpuint(model_pcie_pmu_trigger_tlp(&s, &above, 0), ==, 5);
        g_assert_cmpuint(model_pcie_pmu_trigger_tlp(&s, &above, 5), ==, 5);
        g_assert_cmpuint(model_pcie_pmu_trigger_tlp(&s, &above, 6), ==, 21);
        g_assert_cmpuint(model_pcie_pmu_trigger_tlp(&s, &above, 1600005), ==,
                         1600005);
        g_assert_cmpuint(model_pcie_pmu_trigger_tlp(&s, &below, 0), ==,
                         UINT64_MAX);
        if (edge > 1) {
            s.flow.len[15] = edge - 1;
            g_assert_cmpuint(model_pcie_pmu_trigger_tlp(&s, &below, 0), ==,
                             15);
            g_assert_cmpuint(model_pcie_pmu_trigger_tlp(&s, &below, 16), ==,
                             31);
            g_assert_cmpuint(model_pcie_pmu_trigger_tlp(&s, &above, 6), ==,
                             21);
        }
    }
}

/*
 * len_mode 2'b01 payload, 2'b10 header, 2'b11 both (and the reserved 0:
 * nothing). Headers are 3 DWs, 4 for memory requests above 4 GiB
 * (PCIe r5.0 2.2.4.1); reads carry no payload, completions do.
 */
static void test_pcie_len_mode(void)
{
    static const struct {
        uint8_t dir, kind;
        uint64_t addr;
        unsigned hdr_dw, payload;
    } cases[] = {
        { TRAFFIC_INBOUND, TRAFFIC_POSTED, 0xfffff000, 3, 1 },
        { TRAFFIC_INBOUND, TRAFFIC_POSTED, 0x100000000ull, 4, 1 },
        { TRAFFIC_OUTBOUND, TRAFFIC_POSTED, 0xffffffff00000000ull, 4, 1 },
        { TRAFFIC_INBOUND, TRAFFIC_NON_POSTED, 0x1000, 3, 0 },
        { TRAFFIC_OUTBOUND, TRAFFIC_NON_POSTED, 0x100000000ull, 4, 0 },
        { TRAFFIC_INBOUND, TRAFFIC_COMPLETION, 0, 3, 1 },
        /* a completion has no address: 3 DWs whatever the stream's base */
        { TRAFFIC_OUTBOUND, TRAFFIC_COMPLETION, 0x100000000ull, 3, 1 },
    };

    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        TrafficStream s;

        pcie_stream(&s, cases[i].dir, cases[i].kind, 9, cases[i].addr);
        for (uint8_t mode = 0; mode <= 3; mode++) {
            PciePmuFilter f = { .len_mode = mode };
            uint64_t bytes = 0;

            if (mode & 1) {
                bytes += cases[i].payload * 10 * 9 * 4;
            }
            if (mode & 2) {
                bytes += 10 * cases[i].hdr_dw * 4;
            }
            g_assert_cmpuint(pcie_sums(&s, &f, 7, 17).bytes, ==, bytes);
            g_assert_cmpuint(pcie_sums(&s, &f, 7, 17).tlps, ==, 10);
        }
    }
}

/* Sums add to what is there; an empty or reversed interval adds nothing */
static void test_pcie_sums_accumulate(void)
{
    PciePmuFilter f = { .len_mode = PCIE_PMU_LEN_BOTH };
    PciePmuSums sums = { .tlps = 1, .bytes = 2, .delay_ns = 3 };
    TrafficStream s;

    pcie_stream(&s, TRAFFIC_INBOUND, TRAFFIC_POSTED, 2, 0x1000);
    model_pcie_pmu_stream_sums(&s, &f, 5, 5, &sums);
    model_pcie_pmu_stream_sums(&s, &f, 6, 5, &sums);
    g_assert_cmpuint(sums.tlps, ==, 1);
    g_assert_cmpuint(sums.bytes, ==, 2);
    g_assert_cmpuint(sums.delay_ns, ==, 3);
    model_pcie_pmu_stream_sums(&s, &f, 5, 6, &sums);
    g_assert_cmpuint(sums.tlps, ==, 2);
    g_assert_cmpuint(sums.bytes, ==, 2 + (2 + 3) * 4);
    g_assert_cmpuint(sums.delay_ns, ==, 3 + 700);
}

/*
 * The driver's events: rx is inbound, tx outbound; mwr posted, mrd
 * non-posted, cpl completions. Each matches the streams of its direction
 * and kind and no other; every other 16-bit code is unknown.
 */
static void test_pcie_events(void)
{
    static const struct {
        uint16_t code;
        uint8_t dir, kind;
        bool latency;
    } events[] = {
        { RX_MWR_LATENCY, TRAFFIC_INBOUND, TRAFFIC_POSTED, true },
        { RX_MRD_LATENCY, TRAFFIC_INBOUND, TRAFFIC_NON_POSTED, true },
        { TX_MRD_LATENCY, TRAFFIC_OUTBOUND, TRAFFIC_NON_POSTED, true },
        { RX_MWR_FLUX, TRAFFIC_INBOUND, TRAFFIC_POSTED, false },
        { RX_MRD_FLUX, TRAFFIC_INBOUND, TRAFFIC_NON_POSTED, false },
        { RX_CPL_FLUX, TRAFFIC_INBOUND, TRAFFIC_COMPLETION, false },
        { TX_MWR_FLUX, TRAFFIC_OUTBOUND, TRAFFIC_POSTED, false },
        { TX_MRD_FLUX, TRAFFIC_OUTBOUND, TRAFFIC_NON_POSTED, false },
        { TX_CPL_FLUX, TRAFFIC_OUTBOUND, TRAFFIC_COMPLETION, false },
    };
    unsigned known = 0;

    for (uint32_t code = 0; code <= 0xffff; code++) {
        known += model_pcie_pmu_event(code) != NULL;
    }
    g_assert_cmpuint(known, ==, G_N_ELEMENTS(events));
    for (size_t i = 0; i < G_N_ELEMENTS(events); i++) {
        const PciePmuEvent *ev = model_pcie_pmu_event(events[i].code);
        PciePmuFilter all = { .thr_en = true, .thr_below = true,
                              .thr_len = 3, .trig_en = true,
                              .trig_below = true, .trig_len = 2,
                              .len_mode = PCIE_PMU_LEN_HEADER };
        PciePmuFilter f;

        g_assert_nonnull(ev);
        g_assert_cmphex(ev->code, ==, events[i].code);
        g_assert_cmpint(ev->latency, ==, events[i].latency);
        for (uint8_t dir = 0; dir <= 1; dir++) {
            for (uint8_t kind = 0; kind <= 2; kind++) {
                TrafficStream s;

                pcie_stream(&s, dir, kind, 1, 0);
                g_assert_cmpint(model_pcie_pmu_stream_matches(ev, &s), ==,
                                dir == events[i].dir &&
                                kind == events[i].kind);
            }
        }
        /* "This filter can only be used in bandwidth events" */
        f = model_pcie_pmu_event_filter(ev, all);
        g_assert_cmpint(f.thr_en, ==, !events[i].latency);
        g_assert_cmpint(f.trig_en, ==, !events[i].latency);
        g_assert_true(f.thr_below && f.trig_below);
        g_assert_cmpuint(f.thr_len, ==, 3);
        g_assert_cmpuint(f.trig_len, ==, 2);
        g_assert_cmpuint(f.len_mode, ==, PCIE_PMU_LEN_HEADER);
    }
}

/* HNS3 */

enum {
    SSU_EGU_PPS = 0x0101,       /* PORTS: global, port, port-tc */
    SSU_RPU_PPS = 0x0102,       /* PORTS + func, func-queue; rx */
    SSU_ROCE_PPS = 0x0103,      /* PORTS + func; RoCE rx */
    RD_FBD_PPS = 0x010b,        /* global only */
    RD_PAY_M0_PPS = 0x010d,     /* global; tx payload of even queues */
    RD_PAY_M1_PPS = 0x010e,     /* ... of odd queues */
};

static NicStream nic(uint8_t kind, uint16_t func, uint16_t queue, uint8_t port,
                     uint8_t tc)
{
    NicStream s = { .func = func, .queue = queue, .port = port, .tc = tc,
                    .kind = kind, .coalesce = 1, .latency_ns = 1000 };

    model_traffic_flow_init(&s.flow, 1, 1000000, 0, 64, 64);
    return s;
}

static bool sees(uint16_t code, uint8_t mode, uint32_t cond, uint16_t queue,
                 const NicStream *s)
{
    const Hns3PmuEvent *ev = model_hns3_pmu_event(code);
    Hns3PmuFilter f = { .mode = mode, .cond = cond, .queue = queue };

    g_assert_nonnull(ev);
    return model_hns3_pmu_stream_matches(ev, &f, s);
}

/* Port mode: the condition is a bitmap of ports, bit p for port p */
static void test_hns3_port(void)
{
    for (uint8_t p = 0; p < NIC_MAX_PORTS; p++) {
        NicStream s = nic(NIC_TX, 0x100, 0, p, 0);

        g_assert_true(sees(SSU_EGU_PPS, HNS3_PMU_MODE_PORT, 1u << p, 0, &s));
        g_assert_true(sees(SSU_EGU_PPS, HNS3_PMU_MODE_PORT, 0xff, 0, &s));
        g_assert_false(sees(SSU_EGU_PPS, HNS3_PMU_MODE_PORT, 0, 0, &s));
        g_assert_false(sees(SSU_EGU_PPS, HNS3_PMU_MODE_PORT,
                            0xff & ~(1u << p), 0, &s));
        g_assert_false(sees(SSU_EGU_PPS, HNS3_PMU_MODE_PORT, 2u << p, 0, &s));
        if (p) {
            g_assert_false(sees(SSU_EGU_PPS, HNS3_PMU_MODE_PORT,
                                1u << (p - 1), 0, &s));
        }
        /* global mode takes every port */
        g_assert_true(sees(SSU_EGU_PPS, HNS3_PMU_MODE_GLOBAL, 0, 0, &s));
    }
}

/*
 * Port-tc mode: FILTER_CONDITION_PORT_TC(port, tc) is port << 3 | tc; the
 * port and the TC must both match, at their edges 0 and 7.
 */
static void test_hns3_port_tc(void)
{
    static const uint8_t edges[] = { 0, 1, 6, 7 };

    for (size_t i = 0; i < G_N_ELEMENTS(edges); i++) {
        for (size_t j = 0; j < G_N_ELEMENTS(edges); j++) {
            uint8_t port = edges[i], tc = edges[j];
            NicStream s = nic(NIC_TX, 0x100, 0, port, tc);

            for (uint8_t cp = 0; cp < 8; cp++) {
                for (uint8_t ct = 0; ct < 8; ct++) {
                    uint32_t cond = cp << 3 | ct;

                    g_assert_cmpint(sees(SSU_EGU_PPS, HNS3_PMU_MODE_PORT_TC,
                                         cond, 0, &s), ==,
                                    cp == port && ct == tc);
                }
            }
        }
    }
}

/*
 * Function modes: the condition's low 8 bits are the function's devfn
 * (GET_PCI_DEVFN(bdf)); the bus is not part of it, nor are the bits above
 * (FILTER_CONDITION_FUNC_INTR puts the interrupt there). Func-queue also
 * needs the queue.
 */
static void test_hns3_func(void)
{
    static const uint16_t funcs[] = { 0x0100, 0x01ff, 0x7d00, 0x0081 };

    for (size_t i = 0; i < G_N_ELEMENTS(funcs); i++) {
        uint8_t devfn = funcs[i] & 0xff;
        NicStream roce = nic(NIC_ROCE_RX, funcs[i], NIC_QUEUE_NONE, 0, 0);
        NicStream rx = nic(NIC_RX, funcs[i], 0xfffe, 0, 0);

        g_assert_true(sees(SSU_ROCE_PPS, HNS3_PMU_MODE_FUNC, devfn, 0, &roce));
        g_assert_true(sees(SSU_ROCE_PPS, HNS3_PMU_MODE_FUNC,
                           0xfff00 | devfn, 0, &roce));
        g_assert_false(sees(SSU_ROCE_PPS, HNS3_PMU_MODE_FUNC,
                            (devfn + 1) & 0xff, 0, &roce));
        g_assert_false(sees(SSU_ROCE_PPS, HNS3_PMU_MODE_FUNC,
                            (devfn - 1) & 0xff, 0, &roce));
        g_assert_false(sees(SSU_ROCE_PPS, HNS3_PMU_MODE_FUNC,
                            devfn ^ 0x80, 0, &roce));
        /* func-queue: the devfn and the queue, the largest queue too */
        g_assert_true(sees(SSU_RPU_PPS, HNS3_PMU_MODE_FUNC_QUEUE, devfn,
                           0xfffe, &rx));
        g_assert_false(sees(SSU_RPU_PPS, HNS3_PMU_MODE_FUNC_QUEUE, devfn,
                            0xfffd, &rx));
        g_assert_false(sees(SSU_RPU_PPS, HNS3_PMU_MODE_FUNC_QUEUE, devfn,
                            0xffff, &rx));
        g_assert_false(sees(SSU_RPU_PPS, HNS3_PMU_MODE_FUNC_QUEUE,
                            devfn ^ 1, 0xfffe, &rx));
        rx.queue = 0;
        g_assert_true(sees(SSU_RPU_PPS, HNS3_PMU_MODE_FUNC_QUEUE, devfn, 0,
                           &rx));
        g_assert_false(sees(SSU_RPU_PPS, HNS3_PMU_MODE_FUNC_QUEUE, devfn, 1,
                            &rx));
        g_assert_true(sees(SSU_RPU_PPS, HNS3_PMU_MODE_FUNC, devfn, 1, &rx));
    }
}

/*
 * An event sees the stream kinds of its stage only, takes the filter modes
 * of its filter_support only (rd_fbd: global), and the payload events of
 * memory port 0 / 1 the even / odd queues.
 */
static void test_hns3_event_scope(void)
{
    NicStream s;

    for (uint8_t kind = 0; kind < NIC_KINDS; kind++) {
        s = nic(kind, 0x100, 0, 0, 0);
        g_assert_cmpint(sees(SSU_EGU_PPS, HNS3_PMU_MODE_GLOBAL, 0, 0, &s), ==,
                        kind == NIC_TX || kind == NIC_ROCE_TX);
    }
    s = nic(NIC_TX, 0x100, 0, 0, 0);
    g_assert_true(sees(RD_FBD_PPS, HNS3_PMU_MODE_GLOBAL, 0, 0, &s));
    for (uint8_t mode = HNS3_PMU_MODE_PORT; mode < HNS3_PMU_MODES; mode++) {
        g_assert_false(sees(RD_FBD_PPS, mode, 0xff, 0, &s));
    }
    g_assert_false(sees(SSU_EGU_PPS, HNS3_PMU_MODE_FUNC, 0, 0, &s));
    g_assert_false(sees(SSU_EGU_PPS, HNS3_PMU_MODE_FUNC_QUEUE, 0, 0, &s));
    g_assert_false(sees(SSU_EGU_PPS, HNS3_PMU_MODE_FUNC_INTR, 0, 0, &s));
    for (uint32_t q = 0; q < 6; q++) {
        s.queue = q == 5 ? 0xfffe : q;
        g_assert_cmpint(sees(RD_PAY_M0_PPS, HNS3_PMU_MODE_GLOBAL, 0, 0, &s),
                        ==, !(s.queue & 1));
        g_assert_cmpint(sees(RD_PAY_M1_PPS, HNS3_PMU_MODE_GLOBAL, 0, 0, &s),
                        ==, s.queue & 1);
    }
}

/*
 * What a match adds: packets and their bytes, or a 32-byte descriptor per
 * packet, or interrupts (one per coalesce packets) and no bytes; latency
 * events (type 2) add the event's share of the stream's latency per unit,
 * the others no delay. Sums add up.
 */
static void test_hns3_sums(void)
{
    const int64_t t1 = 100000;      /* 100 us: 100 packets at 1 Mpps */
    NicStream s = nic(NIC_TX, 0x100, 0, 0, 0);
    const uint64_t packets = model_nic_packets(&s, 0, t1);
    const uint64_t bytes = model_nic_bytes(&s, 0, t1);
    Hns3PmuSums rpu = { 0 };
    static const struct {
        uint16_t code;
        int what;           /* 0 bytes, 1 descriptors, 2 interrupts */
    } cases[] = {
        { 0x0001, 0 },      /* bw ssu_egu */
        { 0x000b, 1 },      /* bw rd_fbd: descriptors */
        { 0x0101, 0 },      /* pps ssu_egu */
        { 0x0206, 0 },      /* dly ssu_tx_th_nic */
        { 0x0215, 0 },      /* dly rd_fbd */
        { 0x021c, 2 },      /* dly msix_write */
        { 0x0300, 2 },      /* intr msix_nic */
    };

    g_assert_cmpuint(packets, ==, 100);
    g_assert_cmpuint(bytes, ==, 100 * 64);
    s.coalesce = 7;
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        const Hns3PmuEvent *ev = model_hns3_pmu_event(cases[i].code);
        Hns3PmuSums sums = { .units = 1, .bytes = 2, .delay_ns = 3 };
        uint64_t units = packets, b = bytes;
        bool latency = cases[i].code >> 8 == HNS3_PMU_DLY;

        if (cases[i].what == 1) {
            b = packets * 32;   /* hns3's struct hns3_desc: 32 bytes */
        } else if (cases[i].what == 2) {
            units = model_nic_interrupts(&s, 0, t1);
            b = 0;
        }
        g_assert_nonnull(ev);
        g_assert_cmpuint(units, >, 0);
        g_assert_cmpint(ev->delay_pct > 0, ==, latency);
        g_assert_cmpuint(ev->delay_pct, <=, 100);
        model_hns3_pmu_stream_sums(ev, &s, 0, t1, &sums);
        g_assert_cmpuint(sums.units, ==, 1 + units);
        g_assert_cmpuint(sums.bytes, ==, 2 + b);
        g_assert_cmpuint(sums.delay_ns, ==,
                         3 + units * 1000 * ev->delay_pct / 100);
    }
    g_assert_cmpuint(model_nic_interrupts(&s, 0, t1), ==, 100 / 7);

    /*
     * docs/devices/hns3-pmu.md: "The RPU's share of the 1500 ns receive latency
     * is 37.5 cycles, 375 ns" (dly_rpu, 0x020e).
     */
    s = nic(NIC_RX, 0x101, 0, 0, 0);
    s.latency_ns = 1500;
    model_hns3_pmu_stream_sums(model_hns3_pmu_event(0x020e), &s, 0, t1, &rpu);
    g_assert_cmpuint(rpu.units, ==, 100);
    g_assert_cmpuint(rpu.delay_ns, ==, 100 * 375);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/pmu-filters/pcie-threshold", test_pcie_threshold);
    g_test_add_func("/pmu-filters/pcie-threshold-mixed",
                    test_pcie_threshold_mixed);
    g_test_add_func("/pmu-filters/pcie-trigger", test_pcie_trigger);
    g_test_add_func("/pmu-filters/pcie-len-mode", test_pcie_len_mode);
    g_test_add_func("/pmu-filters/pcie-sums-accumulate",
                    test_pcie_sums_accumulate);
    g_test_add_func("/pmu-filters/pcie-events", test_pcie_events);
    g_test_add_func("/pmu-filters/hns3-port", test_hns3_port);
    g_test_add_func("/pmu-filters/hns3-port-tc", test_hns3_port_tc);
    g_test_add_func("/pmu-filters/hns3-func", test_hns3_func);
    g_test_add_func("/pmu-filters/hns3-event-scope", test_hns3_event_scope);
    g_test_add_func("/pmu-filters/hns3-sums", test_hns3_sums);
    return g_test_run();
}
