/*
 * Host unit tests: HNS3 PMU events on NIC traffic (model/hns3-pmu.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <glib.h>

#include "hns3-pmu.h"

/* The driver's events with their filter_support bits (hns3_pmu.c) */
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

static void test_event_table(void)
{
    unsigned known = 0;

    g_assert_cmpuint(G_N_ELEMENTS(driver_events), ==, 55);
    for (size_t i = 0; i < G_N_ELEMENTS(driver_events); i++) {
        const Hns3PmuEvent *ev = hns3_pmu_event(driver_events[i].code);

        g_assert_nonnull(ev);
        g_assert_cmphex(ev->modes, ==, driver_events[i].support);
        g_assert_cmpuint(ev->kinds, !=, 0);
        /* latency events take a share of the latency, the others none */
        g_assert_cmpuint(ev->delay_pct != 0, ==,
                         (driver_events[i].code >> 8) == HNS3_PMU_DLY);
    }
    for (unsigned code = 0; code < 0x400; code++) {
        known += hns3_pmu_event(code) != NULL;
    }
    g_assert_cmpuint(known, ==, 55);
}

#define FUNCS   2
#define QUEUES  4
#define PER_FUNC (2 * QUEUES + 2)

/* Functions 01:00.0 on port 1 and 01:00.1 on port 2, 4 queues on 2 TCs */
static void make(NicStream *s)
{
    NicSpec spec[NIC_KINDS];

    nic_profile_default(spec);
    nic_function_streams(s, 1, spec, 0x0100, 1, QUEUES, 2, 0);
    nic_function_streams(s + PER_FUNC, 1, spec, 0x0101, 2, QUEUES, 2, 0);
}

static uint64_t units(uint16_t code, Hns3PmuFilter f, const NicStream *s,
                      int64_t t0, int64_t t1)
{
    const Hns3PmuEvent *ev = hns3_pmu_event(code);
    Hns3PmuSums sums = { 0 };

    for (unsigned i = 0; i < FUNCS * PER_FUNC; i++) {
        if (hns3_pmu_stream_matches(ev, &f, &s[i])) {
            hns3_pmu_stream_sums(ev, &s[i], t0, t1, &sums);
        }
    }
    return sums.units;
}

/* Filters select what the driver's documentation says they select */
static void test_filters(void)
{
    NicStream s[FUNCS * PER_FUNC];
    int64_t t1 = 100000000;     /* 0.1 s */
    uint64_t rx = 150000 / 10;  /* RX packets per queue in 0.1 s */
    Hns3PmuFilter global = { HNS3_PMU_MODE_GLOBAL, 0, 0 };
    Hns3PmuFilter port2 = { HNS3_PMU_MODE_PORT, 1u << 2, 0 };
    Hns3PmuFilter port1_tc1 = { HNS3_PMU_MODE_PORT_TC, 1 << 3 | 1, 0 };
    Hns3PmuFilter func1 = { HNS3_PMU_MODE_FUNC, 0x01, 0 };
    Hns3PmuFilter func0_q3 = { HNS3_PMU_MODE_FUNC_QUEUE, 0x00, 3 };

    make(s);
    /* pps_ssu_rpu: receive packets, every filter mode */
    g_assert_cmpuint(units(0x0102, global, s, 0, t1), ==, FUNCS * QUEUES * rx);
    g_assert_cmpuint(units(0x0102, port2, s, 0, t1), ==, QUEUES * rx);
    g_assert_cmpuint(units(0x0102, port1_tc1, s, 0, t1), ==, QUEUES / 2 * rx);
    g_assert_cmpuint(units(0x0102, func1, s, 0, t1), ==, QUEUES * rx);
    g_assert_cmpuint(units(0x0102, func0_q3, s, 0, t1), ==, rx);
    /* a mode the event does not take counts nothing */
    g_assert_cmpuint(units(0x0106, func1, s, 0, t1), ==, 0);
    /* igu_ssu sees RoCE receives too; the two memory ports split */
    g_assert_cmpuint(units(0x0100, global, s, 0, t1), ==,
                     FUNCS * (QUEUES * rx + 20000 / 10));
    g_assert_cmpuint(units(0x010f, global, s, 0, t1) +
                     units(0x0110, global, s, 0, t1), ==,
                     units(0x0102, global, s, 0, t1));
    /* interrupts: one per 16 packets of each queue, both directions */
    g_assert_cmpuint(units(0x0300, global, s, 0, t1), ==,
                     FUNCS * QUEUES * (rx / 16 + 100000 / 10 / 16));
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
    hns3_pmu_stream_sums(hns3_pmu_event(0x0002), q, t0, t1, &bw);
    hns3_pmu_stream_sums(hns3_pmu_event(0x0009), q, t0, t1, &bd);
    hns3_pmu_stream_sums(hns3_pmu_event(0x020e), q, t0, t1, &dly);
    k = traffic_count_before(&q->flow, t0);
    for (nic_packet(q, k, &p); p.time < t1; nic_packet(q, ++k, &p)) {
        bytes += p.len;
        n++;
    }
    g_assert_cmpuint(bw.units, ==, n);
    g_assert_cmpuint(bw.bytes, ==, bytes);
    g_assert_cmpuint(bd.bytes, ==, n * HNS3_PMU_BD_BYTES);
    g_assert_cmpuint(dly.delay_ns, ==, n * q->latency_ns * 25 / 100);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/hns3-pmu/event-table", test_event_table);
    g_test_add_func("/hns3-pmu/filters", test_filters);
    g_test_add_func("/hns3-pmu/sums", test_sums);
    return g_test_run();
}
