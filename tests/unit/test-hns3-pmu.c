/*
 * Host unit tests: HNS3 PMU events on NIC traffic (model/hns3-pmu.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <glib.h>

#include "hns3-pmu.h"

/*
 * The Linux 6.12 driver's events (hns3_pmu.c) with the filter modes it
 * offers for each (its filter_support, HNS3_PMU_FILTER_SUPPORT_* bits):
 * the model must count in those modes and in no other.
 */
static const struct {
    uint16_t code;
    uint8_t support;
} driver_events[] = {
    { 0x0001, 0x07 }, { 0x0002, 0x1f }, { 0x0003, 0x0f }, { 0x0004, 0x0f },
    { 0x0005, 0x1f }, { 0x0006, 0x11 }, { 0x0008, 0x11 }, { 0x0009, 0x1b },
    { 0x000a, 0x11 }, { 0x000b, 0x01 }, { 0x000c, 0x1b }, { 0x000d, 0x01 },
    { 0x000e, 0x01 }, { 0x000f, 0x01 }, { 0x0010, 0x01 }, { 0x0100, 0x07 },
    { 0x0101, 0x07 }, { 0x0102, 0x1f }, { 0x0103, 0x0f }, { 0x0104, 0x0f },
    { 0x0105, 0x1f }, { 0x0106, 0x11 }, { 0x0107, 0x1f }, { 0x0108, 0x11 },
    { 0x0109, 0x1b }, { 0x010a, 0x11 }, { 0x010b, 0x01 }, { 0x010c, 0x1b },
    { 0x010d, 0x01 }, { 0x010e, 0x01 }, { 0x010f, 0x01 }, { 0x0110, 0x01 },
    { 0x0111, 0x01 }, { 0x0112, 0x01 }, { 0x0202, 0x01 }, { 0x0204, 0x01 },
    { 0x0206, 0x07 }, { 0x0207, 0x07 }, { 0x0208, 0x07 }, { 0x0209, 0x07 },
    { 0x020e, 0x11 }, { 0x020f, 0x1f }, { 0x0210, 0x01 }, { 0x0211, 0x0b },
    { 0x0212, 0x1b }, { 0x0213, 0x1b }, { 0x0214, 0x11 }, { 0x0215, 0x01 },
    { 0x0216, 0x1b }, { 0x0217, 0x01 }, { 0x0218, 0x01 }, { 0x0219, 0x01 },
    { 0x021a, 0x01 }, { 0x021c, 0x01 }, { 0x0300, 0x01 },
};

/* The codes the driver does not define are no events */
static void test_unknown_codes(void)
{
    for (uint32_t code = 0; code <= 0xffff; code++) {
        bool driver = false;

        for (size_t i = 0; i < G_N_ELEMENTS(driver_events); i++) {
            driver |= driver_events[i].code == code;
        }
        g_assert_cmpint(model_hns3_pmu_event(code) != NULL, ==, driver);
    }
}

/* The ports a filter can name: the driver's port is config1 bits 0-3 */
#define DRIVER_PORTS 16

#define FUNCS   2
#define QUEUES  4
#define PER_FUNC (2 * QUEUES + 2)

/* 0.1 s of the default profile */
#define T1      100000000

/* Functions 01:00.0 on port 1 and 01:00.1 on port 2, 4 queues on 2 TCs */
static void make(NicStream *s)
{
    NicSpec spec[NIC_KINDS];

    model_nic_profile_default(spec);
    model_nic_function_streams(s, 1, spec, 0x0100, 1, QUEUES, 2, 0);
    model_nic_function_streams(s + PER_FUNC, 1, spec, 0x0101, 2, QUEUES, 2, 0);
}

/* What event @code with filter @f counts of the streams @s in [t0, t1) */
static Hns3PmuSums sums(uint16_t code, Hns3PmuFilter f, const NicStream *s,
                        int64_t t0, int64_t t1)
{
    const Hns3PmuEvent *ev = model_hns3_pmu_event(code);
    Hns3PmuSums total = { 0 };

    g_assert_nonnull(ev);
    for (unsigned i = 0; i < FUNCS * PER_FUNC; i++) {
        if (model_hns3_pmu_stream_matches(ev, &f, &s[i])) {
            model_hns3_pmu_stream_sums(ev, &s[i], t0, t1, &total);
        }
    }
    return total;
}

static uint64_t units(uint16_t code, Hns3PmuFilter f, const NicStream *s,
                      int64_t t0, int64_t t1)
{
    return sums(code, f, s, t0, t1).units;
}

/*
 * What event @code counts in @mode over every condition of that mode the
 * driver can write: each port, each port and TC (ports 0..15 as the driver
 * encodes them, port << 3 | tc), each function, each queue of each
 * function.
 * These split the NIC's queues, so in a mode the event supports they add
 * up to the global count of its queue traffic.
 */
static uint64_t units_over_mode(uint16_t code, uint8_t mode,
                                const NicStream *s)
{
    uint64_t n = 0;

    for (uint32_t c = 0; c < 256; c++) {
        switch (mode) {
        case HNS3_PMU_MODE_PORT:
            if (c < NIC_MAX_PORTS) {
                n += units(code, (Hns3PmuFilter){ mode, 1u << c, 0 }, s, 0,
                           T1);
            }
            break;
        case HNS3_PMU_MODE_PORT_TC:
            if (c < DRIVER_PORTS * NIC_MAX_TCS) {
                n += units(code, (Hns3PmuFilter){ mode, c, 0 }, s, 0, T1);
            }
            break;
        case HNS3_PMU_MODE_FUNC:
        case HNS3_PMU_MODE_FUNC_INTR:
            n += units(code, (Hns3PmuFilter){ mode, c, 0 }, s, 0, T1);
            break;
        case HNS3_PMU_MODE_FUNC_QUEUE:
            for (uint16_t q = 0; q < QUEUES; q++) {
                n += units(code, (Hns3PmuFilter){ mode, c, q }, s, 0, T1);
            }
            break;
        }
    }
    return n;
}

/*
 * Each event counts in the filter modes the driver offers for it, and the
 * conditions of such a mode split its count; in any other mode it counts
 * nothing (the driver would not program one; a guest that does gets 0).
 */
/*
 * The guest writes any byte as the filter mode (EVENT_CTRL_LOW[31:24]); a
 * mode the PMU lacks selects nothing. The fuzzer found the mode used as a
 * shift count past the mask's width (undefined behaviour, which the unit
 * tests' UBSan build turns into a failure).
 */
static void test_unknown_modes_match_nothing(void)
{
    NicStream s[FUNCS * PER_FUNC];

    make(s);
    for (unsigned mode = HNS3_PMU_MODES; mode <= 0xff; mode++) {
        Hns3PmuFilter f = { mode, 0, 0 };

        for (size_t i = 0; i < G_N_ELEMENTS(driver_events); i++) {
            g_assert_cmpuint(units(driver_events[i].code, f, s, 0, T1), ==, 0);
        }
    }
}

static void test_filter_modes(void)
{
    NicStream s[FUNCS * PER_FUNC];
    Hns3PmuFilter global = { HNS3_PMU_MODE_GLOBAL, 0, 0 };

    make(s);
    for (size_t i = 0; i < G_N_ELEMENTS(driver_events); i++) {
        uint16_t code = driver_events[i].code;
        uint64_t all = units(code, global, s, 0, T1);

        /* every event sees some of the default traffic */
        if (!all) {
            g_test_message("event 0x%04x", code);
        }
        g_assert_cmpuint(all, >, 0);
        for (uint8_t mode = HNS3_PMU_MODE_PORT; mode < HNS3_PMU_MODES;
             mode++) {
            bool supported = driver_events[i].support & (1u << mode);
            uint64_t got = units_over_mode(code, mode, s);

            if (got != (supported ? all : 0)) {
                g_test_message("event 0x%04x, mode %u", code, mode);
            }
            g_assert_cmpuint(got, ==, supported ? all : 0);
        }
    }
}

/*
 * The stages of one path see the same packets. The default profile with
 * queue q at q + 1 times its rates, so that even and odd queues differ: in
 * 0.1 s it sends 10000 (q + 1) and receives 15000 (q + 1) packets, with
 * one interrupt per 16 of each; RoCE 2000 each way per function.
 */
static void test_stages_agree(void)
{
    NicStream s[FUNCS * PER_FUNC];
    Hns3PmuFilter global = { HNS3_PMU_MODE_GLOBAL, 0, 0 };
    uint64_t tx_even = 0, tx_odd = 0, rx_even = 0, rx_odd = 0, tx, rx;
    uint64_t roce = FUNCS * 20000 / 10, intr = 0, intr_delay = 0;
    static const uint16_t tx_stages[] = {
        0x0105, 0x0107, 0x0108, 0x010b, 0x010c, 0x0111,
    };
    static const uint16_t rx_stages[] = { 0x0102, 0x0106, 0x0109, 0x010a,
                                          0x0112 };
    Hns3PmuSums push, normal, msix;

    make(s);
    for (unsigned f = 0; f < FUNCS; f++) {
        for (unsigned q = 0; q < QUEUES; q++) {
            NicStream *qtx = &s[f * PER_FUNC + 2 * q], *qrx = qtx + 1;
            uint64_t ntx = 10000 * (q + 1), nrx = 15000 * (q + 1);

            model_traffic_set_rate(&qtx->flow, 100000 * (q + 1), 0);
            model_traffic_set_rate(&qrx->flow, 150000 * (q + 1), 0);
            *(q & 1 ? &tx_odd : &tx_even) += ntx;
            *(q & 1 ? &rx_odd : &rx_even) += nrx;
            intr += ntx / 16 + nrx / 16;
            /* 5 % of the 2000 ns transmit and 1500 ns receive latency */
            intr_delay += ntx / 16 * 100 + nrx / 16 * 75;
        }
    }
    tx = tx_even + tx_odd;
    rx = rx_even + rx_odd;
    for (size_t i = 0; i < G_N_ELEMENTS(tx_stages); i++) {
        g_assert_cmpuint(units(tx_stages[i], global, s, 0, T1), ==, tx);
    }
    for (size_t i = 0; i < G_N_ELEMENTS(rx_stages); i++) {
        g_assert_cmpuint(units(rx_stages[i], global, s, 0, T1), ==, rx);
    }
    /* the SSU sees NIC and RoCE packets, the RoCE engine only RoCE */
    g_assert_cmpuint(units(0x0101, global, s, 0, T1), ==, tx + roce);
    g_assert_cmpuint(units(0x0104, global, s, 0, T1), ==, roce);
    g_assert_cmpuint(units(0x0100, global, s, 0, T1), ==, rx + roce);
    g_assert_cmpuint(units(0x0103, global, s, 0, T1), ==, roce);
    /* memory ports 0 and 1 carry the even and the odd queues */
    g_assert_cmpuint(units(0x010d, global, s, 0, T1), ==, tx_even);
    g_assert_cmpuint(units(0x010e, global, s, 0, T1), ==, tx_odd);
    g_assert_cmpuint(units(0x010f, global, s, 0, T1), ==, rx_even);
    g_assert_cmpuint(units(0x0110, global, s, 0, T1), ==, rx_odd);
    /* ... and between them the payload the SSU sends and receives */
    g_assert_cmpuint(sums(0x000d, global, s, 0, T1).bytes +
                     sums(0x000e, global, s, 0, T1).bytes, ==,
                     sums(0x0005, global, s, 0, T1).bytes);
    g_assert_cmpuint(sums(0x000f, global, s, 0, T1).bytes +
                     sums(0x0010, global, s, 0, T1).bytes, ==,
                     sums(0x0002, global, s, 0, T1).bytes);
    /* a bandwidth stage and the packet rate stage of the same name agree */
    for (uint16_t bw = 0x0001; bw <= 0x0010; bw++) {
        if (model_hns3_pmu_event(bw)) {
            g_assert_cmpuint(units(bw, global, s, 0, T1), ==,
                             units(0x0100 | bw, global, s, 0, T1));
        }
    }
    /* descriptor stages move a 32-byte descriptor per packet */
    for (uint16_t bd = 0x0009; bd <= 0x000c; bd++) {
        Hns3PmuSums d = sums(bd, global, s, 0, T1);

        g_assert_cmpuint(d.bytes, ==, d.units * 32);
    }
    /*
     * To the MAC: odd queues push, even ones do not; each takes the
     * whole of the 2000 ns transmit latency.
     */
    push = sums(0x0202, global, s, 0, T1);
    normal = sums(0x0204, global, s, 0, T1);
    g_assert_cmpuint(push.units, ==, tx_odd);
    g_assert_cmpuint(normal.units, ==, tx_even);
    g_assert_cmpuint(push.delay_ns, ==, tx_odd * 2000);
    g_assert_cmpuint(normal.delay_ns, ==, tx_even * 2000);
    /* TPU: a quarter of it; RPU a quarter of the 1500 ns receive one */
    g_assert_cmpuint(sums(0x020f, global, s, 0, T1).delay_ns, ==, tx * 500);
    g_assert_cmpuint(sums(0x020e, global, s, 0, T1).delay_ns, ==, rx * 375);
    /* MSI-X writes: the interrupts of both directions */
    msix = sums(0x021c, global, s, 0, T1);
    g_assert_cmpuint(msix.units, ==, intr);
    g_assert_cmpuint(msix.delay_ns, ==, intr_delay);
    g_assert_cmpuint(units(0x0300, global, s, 0, T1), ==, intr);
}

/*
 * docs/devices/hns3-pmu.md, "Latency events": each dly_* event adds, per packet
 * it counts (per interrupt for dly_msix_write), its stage's share of the
 * latency of the packet's stream.
 */
static const struct {
    uint16_t code;
    unsigned pct;
} latency_shares[] = {
    { 0x0202, 100 }, { 0x0204, 100 },                   /* to the MAC */
    { 0x0206, 30 }, { 0x0207, 30 }, { 0x0208, 30 }, { 0x0209, 30 }, /* SSU */
    { 0x020e, 25 }, { 0x020f, 25 },                     /* RPU, TPU */
    { 0x0210, 20 }, { 0x0211, 20 }, { 0x0212, 20 },     /* RPE, TPE */
    { 0x0213, 10 }, { 0x0214, 10 }, { 0x0215, 10 }, { 0x0216, 10 }, /* BDs */
    { 0x0217, 15 }, { 0x0218, 15 }, { 0x0219, 15 }, { 0x021a, 15 }, /* pay */
    { 0x021c, 5 },                                      /* MSI-X write */
};

static void test_latency_shares(void)
{
    NicStream s[FUNCS * PER_FUNC];
    Hns3PmuFilter global = { HNS3_PMU_MODE_GLOBAL, 0, 0 };
    unsigned dly_events = 0;

    make(s);
    for (size_t e = 0; e < G_N_ELEMENTS(latency_shares); e++) {
        const Hns3PmuEvent *ev = model_hns3_pmu_event(latency_shares[e].code);
        uint64_t expected = 0, units = 0;

        g_assert_nonnull(ev);
        for (unsigned i = 0; i < FUNCS * PER_FUNC; i++) {
            Hns3PmuSums one = { 0 };

            if (model_hns3_pmu_stream_matches(ev, &global, &s[i])) {
                model_hns3_pmu_stream_sums(ev, &s[i], 0, T1, &one);
                expected += one.units * s[i].latency_ns *
                            latency_shares[e].pct / 100;
                units += one.units;
            }
        }
        g_assert_cmpuint(units, >, 0);
        g_assert_cmpuint(sums(latency_shares[e].code, global, s, 0,
                              T1).delay_ns, ==, expected);
    }
    /* ... and the table above is every latency event the driver has */
    for (size_t i = 0; i < G_N_ELEMENTS(driver_events); i++) {
        dly_events += (driver_events[i].code & 0xff00) == 0x0200;
    }
    g_assert_cmpuint(dly_events, ==, G_N_ELEMENTS(latency_shares));
}

/* Filters select what the driver's documentation says they select */
static void test_filters(void)
{
    NicStream s[FUNCS * PER_FUNC];
    uint64_t rx = 150000 / 10;  /* RX packets per queue in 0.1 s */
    Hns3PmuFilter global = { HNS3_PMU_MODE_GLOBAL, 0, 0 };
    Hns3PmuFilter port2 = { HNS3_PMU_MODE_PORT, 1u << 2, 0 };
    Hns3PmuFilter port1_tc1 = { HNS3_PMU_MODE_PORT_TC, 1 << 3 | 1, 0 };
    Hns3PmuFilter func1 = { HNS3_PMU_MODE_FUNC, 0x01, 0 };
    Hns3PmuFilter func0_q3 = { HNS3_PMU_MODE_FUNC_QUEUE, 0x00, 3 };

    make(s);
    /* pps_ssu_rpu: receive packets, every filter mode */
    g_assert_cmpuint(units(0x0102, global, s, 0, T1), ==, FUNCS * QUEUES * rx);
    g_assert_cmpuint(units(0x0102, port2, s, 0, T1), ==, QUEUES * rx);
    g_assert_cmpuint(units(0x0102, port1_tc1, s, 0, T1), ==, QUEUES / 2 * rx);
    g_assert_cmpuint(units(0x0102, func1, s, 0, T1), ==, QUEUES * rx);
    g_assert_cmpuint(units(0x0102, func0_q3, s, 0, T1), ==, rx);
    /* a mode the event does not take counts nothing */
    g_assert_cmpuint(units(0x0106, func1, s, 0, T1), ==, 0);
    /* igu_ssu sees RoCE receives too; the two memory ports split */
    g_assert_cmpuint(units(0x0100, global, s, 0, T1), ==,
                     FUNCS * (QUEUES * rx + 20000 / 10));
    g_assert_cmpuint(units(0x010f, global, s, 0, T1) +
                     units(0x0110, global, s, 0, T1), ==,
                     units(0x0102, global, s, 0, T1));
    /* interrupts: one per 16 packets of each queue, both directions */
    g_assert_cmpuint(units(0x0300, global, s, 0, T1), ==,
                     FUNCS * QUEUES * (rx / 16 + 100000 / 10 / 16));
}

/* The port-tc condition as the driver writes it (FILTER_CONDITION_PORT_TC) */
static Hns3PmuFilter port_tc(unsigned port, unsigned tc)
{
    return (Hns3PmuFilter){ HNS3_PMU_MODE_PORT_TC, port << 3 | (tc & 7), 0 };
}

/*
 * Port-tc mode takes the driver's four port bits: port 9 is not port 1
 * (9 << 3 has bit 6 set), and a port no function sends on counts nothing.
 * The functions are on ports 1 and 2.
 */
static void test_port_tc_port_width(void)
{
    NicStream s[FUNCS * PER_FUNC];
    uint64_t rx = 150000 / 10;  /* RX packets per queue in 0.1 s */

    make(s);
    g_assert_cmpuint(units(0x0102, port_tc(1, 1), s, 0, T1), ==,
                     QUEUES / 2 * rx);
    g_assert_cmpuint(units(0x0102, port_tc(2, 0), s, 0, T1), ==,
                     QUEUES / 2 * rx);
    for (unsigned port = 0; port < DRIVER_PORTS; port++) {
        for (unsigned tc = 0; tc < NIC_MAX_TCS; tc++) {
            if (port != 1 && port != 2) {
                g_assert_cmpuint(units(0x0102, port_tc(port, tc), s, 0, T1),
                                 ==, 0);
            }
        }
    }
}

/* Bytes, descriptors and delays against the packets themselves */
static void test_sums(void)
{
    NicStream s[FUNCS * PER_FUNC];
    const NicStream *q = &s[2 * 2 + 1];     /* function 0, queue 2, RX */
    int64_t t0 = 777, t1 = 3000777;
    Hns3PmuSums bw = { 0 }, bd = { 0 }, dly = { 0 };
    uint64_t bytes = 0, n = 0, k;
    NicPacket p;

    make(s);
    model_hns3_pmu_stream_sums(model_hns3_pmu_event(0x0002), q, t0, t1, &bw);
    model_hns3_pmu_stream_sums(model_hns3_pmu_event(0x0009), q, t0, t1, &bd);
    model_hns3_pmu_stream_sums(model_hns3_pmu_event(0x020e), q, t0, t1, &dly);
    k = model_traffic_count_before(&q->flow, t0);
    for (model_nic_packet(q, k, &p); p.time < t1; model_nic_packet(q, ++k,
                                                                   &p)) {
        bytes += p.len;
        n++;
    }
    /* 3 ms at 150000 packets/s */
    g_assert_cmpuint(n, ==, 450);
    g_assert_cmpuint(bw.units, ==, n);
    g_assert_cmpuint(bw.bytes, ==, bytes);
    g_assert_cmpuint(bd.bytes, ==, n * HNS3_PMU_BD_BYTES);
    /* the RPU's share: a quarter of the 1500 ns receive latency */
    g_assert_cmpuint(dly.delay_ns, ==, n * 375);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/hns3-pmu/unknown-codes", test_unknown_codes);
    g_test_add_func("/hns3-pmu/filter-modes", test_filter_modes);
    g_test_add_func("/hns3-pmu/unknown-modes-match-nothing",
                    test_unknown_modes_match_nothing);
    g_test_add_func("/hns3-pmu/stages-agree", test_stages_agree);
    g_test_add_func("/hns3-pmu/latency-shares", test_latency_shares);
    g_test_add_func("/hns3-pmu/filters", test_filters);
    g_test_add_func("/hns3-pmu/port-tc-port-width", test_port_tc_port_width);
    g_test_add_func("/hns3-pmu/sums", test_sums);
    return g_test_run();
}
