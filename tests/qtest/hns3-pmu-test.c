/*
 * QTest: HiSilicon HNS3 PMU (hns3-pmu) registers and counts
 *
 * The edu endpoint at 01:00.0 stands for the NIC's one function, with two
 * queues on two traffic classes. The traffic rules make its receive
 * streams exact (1 packet per us per queue, 100 bytes, 400 ns, an
 * interrupt per 10 packets) and silence the others, and the PMU counts
 * cycles at 1 GHz, so exact values can be asserted after virtual clock
 * steps.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bitops.h"
#include "hisi-qtest.h"
#include "hw/hisilicon/hns3-pmu-regs.h"

#define PMU_DEVFN           QPCI_DEVFN(0xa, 0)
#define EDU_DEVFN           0x00        /* 01:00.0: function 0, port 0 */
#define OTHER_DEVFN         0x01
#define RCIEP_DEVFN         QPCI_DEVFN(3, 0)    /* 00:03.0: an RCiEP */
#define RP_DEVFN            QPCI_DEVFN(0x10, 0) /* 00:10.0: root port rp0 */

/* The ports the driver can name in a filter: config1 bits 0-3 */
#define DRIVER_PORTS        16

/*
 * What the driver's ABI defines, not the register map: its events (type
 * << 8 | subevent) and its filter modes (enum hns3_pmu_mode).
 */
#define BW_SSU_RPU          0x0002
#define BW_RPU_RCBRX        0x0006
#define PPS_SSU_RPU         0x0102
#define PPS_SSU_ROCE        0x0103
#define PPS_ROCE_SSU        0x0104
#define PPS_TPU_SSU         0x0105
#define DLY_RPU             0x020e
#define INTR_MSIX_NIC       0x0300
#define UNKNOWN_EVENT       0x0307

enum {
    MODE_GLOBAL,
    MODE_PORT,
    MODE_PORT_TC,
    MODE_FUNC,
    MODE_FUNC_QUEUE,
};

#define RULES "stream=nic-all,rate=0;" \
              "stream=nic-rx,rate=1000000,len=100,latency=400,coalesce=10"

typedef HisiDev Pmu;

/*
 * QEMU with the PMU at 00:0a.0 on traffic object t0 and an edu endpoint
 * behind root port 00:10.0: @props go on the PMU's -device option, then
 * the QEMU arguments up to a NULL.
 */
static void G_GNUC_NULL_TERMINATED pmu_init(Pmu *p, const char *props, ...)
{
    g_autoptr(GPtrArray) args = hisi_args_topology(RULES);
    va_list ap;

    hisi_args_add_device(args, "hns3-pmu,bus=pcie.0,addr=0xa,traffic=t0,"
                         "id=pmu,queues=2,tcs=2,clock-freq=1000000000%s",
                         props);
    va_start(ap, props);
    hisi_args_add_valist(args, ap);
    va_end(ap);
    hisi_init(p, PMU_DEVFN, args);
}

/*
 * EVENT_CTRL_LOW as the driver writes it for @event (type << 8 | subevent)
 * in filter @mode
 */
static uint32_t pmu_event(uint16_t event, unsigned mode)
{
    uint32_t ctrl = FIELD_DP32(R_EVENT_CTRL_LOW_OVERFLOW_RESTART_MASK,
                               EVENT_CTRL_LOW, TYPE, event >> 8);

    ctrl = FIELD_DP32(ctrl, EVENT_CTRL_LOW, SUBEVENT, event & 0xff);
    ctrl = FIELD_DP32(ctrl, EVENT_CTRL_LOW, FILTER_MODE, mode);
    g_assert_cmphex(HNS3_PMU_EVENT_CODE(ctrl), ==, event);
    return ctrl;
}

/*
 * EVENT_CTRL_HIGH in port-tc mode, as the driver writes it
 * (FILTER_CONDITION_PORT_TC): its port is config1 bits 0-3, 0..15
 */
static uint32_t pmu_port_tc(unsigned port, unsigned tc)
{
    uint32_t cond = port << 3 | (tc & 7);

    g_assert_cmpuint(FIELD_EX32(cond, EVENT_CTRL_HIGH, PORT), ==, port);
    g_assert_cmpuint(FIELD_EX32(cond, EVENT_CTRL_HIGH, TC), ==, tc);
    return cond;
}

/* EVENT_CTRL_HIGH in func and func-queue mode */
static uint32_t pmu_func(unsigned devfn)
{
    return FIELD_DP32(0, EVENT_CTRL_HIGH, FUNC, devfn);
}

static uint32_t pmu_qid_para(unsigned devfn, unsigned queue)
{
    uint32_t para = FIELD_DP32(0, EVENT_QID_PARA, FUNC, devfn);

    return FIELD_DP32(para, EVENT_QID_PARA, QUEUE, queue);
}

/* Count @ctrl_low / @cond in slot 0 for @ns, as the driver does */
static void pmu_count(Pmu *p, uint32_t ctrl_low, uint32_t cond, int64_t ns,
                      uint64_t *cnt, uint64_t *ext)
{
    hisi_wr(p, HNS3_PMU_SLOT_REG(EVENT_CTRL_LOW, 0), ctrl_low);
    hisi_wr(p, HNS3_PMU_SLOT_REG(EVENT_CTRL_HIGH, 0), cond);
    hisi_wrq(p, HNS3_PMU_SLOT_REG(EVENT_COUNTER, 0), 0);
    hisi_wrq(p, HNS3_PMU_SLOT_REG(EVENT_EXT_COUNTER, 0), 0);
    hisi_wr(p, HNS3_PMU_SLOT_REG(EVENT_CTRL_LOW, 0),
            ctrl_low | R_EVENT_CTRL_LOW_EN_MASK);
    hisi_wr(p, A_GLOBAL_CTRL, R_GLOBAL_CTRL_START_MASK);
    qtest_clock_step(p->qts, ns);
    hisi_wr(p, A_GLOBAL_CTRL, 0);
    *cnt = hisi_rdq(p, HNS3_PMU_SLOT_REG(EVENT_COUNTER, 0));
    *ext = hisi_rdq(p, HNS3_PMU_SLOT_REG(EVENT_EXT_COUNTER, 0));
    hisi_wr(p, HNS3_PMU_SLOT_REG(EVENT_CTRL_LOW, 0), ctrl_low);
}

static void test_reset_values(void)
{
    uint32_t bdf;
    Pmu p;

    pmu_init(&p, ",sicl-id=7,bdf-min=0x100,bdf-max=0x1ff,version=0x41",
             NULL);
    hisi_assert_rciep_header(&p, HNS3_PMU_VENDOR_ID, HNS3_PMU_DEVICE_ID);
    g_assert_cmphex(hisi_rd(&p, A_GLOBAL_CTRL), ==, 0);
    g_assert_cmpuint(hisi_rd(&p, A_CLOCK_FREQ), ==, 1000000000);
    bdf = hisi_rd(&p, A_BDF);
    g_assert_cmphex(FIELD_EX32(bdf, BDF, MIN), ==, 0x100);
    g_assert_cmphex(FIELD_EX32(bdf, BDF, MAX), ==, 0x1ff);
    g_assert_cmphex(hisi_rd(&p, A_VERSION), ==, 0x41);
    g_assert_cmphex(hisi_rd(&p, A_DEVICE_ID), ==, 7);
    for (int i = 0; i < HNS3_PMU_SLOTS; i++) {
        g_assert_cmphex(hisi_rd(&p, HNS3_PMU_SLOT_REG(EVENT_CTRL_LOW, i)), ==,
                        0);
        g_assert_cmphex(hisi_rd(&p, HNS3_PMU_SLOT_REG(EVENT_INTR_STATUS, i)),
                        ==, 0);
        /* the overflow interrupt masked */
        g_assert_cmphex(hisi_rd(&p, HNS3_PMU_SLOT_REG(EVENT_INTR_MASK, i)),
                        ==, R_EVENT_INTR_MASK_OVERFLOW_MASK);
        g_assert_cmpuint(hisi_rdq(&p, HNS3_PMU_SLOT_REG(EVENT_COUNTER, i)),
                         ==, 0);
        g_assert_cmpuint(hisi_rdq(&p,
                                  HNS3_PMU_SLOT_REG(EVENT_EXT_COUNTER, i)),
                         ==, 0);
    }
    hisi_fini(&p);
}

/* 2 queues x 1000 packets of 100 bytes in 1 ms; 1e6 cycles */
static void test_exact_packets(void)
{
    uint64_t cnt, ext;
    Pmu p;

    pmu_init(&p, "", NULL);
    pmu_count(&p, pmu_event(PPS_SSU_RPU, MODE_GLOBAL), 0, 1000000, &cnt,
              &ext);
    g_assert_cmpuint(cnt, ==, 2000);
    g_assert_cmpuint(ext, ==, 1000000);
    hisi_fini(&p);
}

/*
 * The most queues a function can have, 256 (queues= overrides pmu_init's
 * 2): 256 queues x 1000 packets in 1 ms, the QID check finds queue 255,
 * and counting over all of the function's streams leaves the PMU's own
 * registers as the properties set them.
 */
static void test_max_queues(void)
{
    uint64_t cnt, ext;
    uint32_t bdf;
    Pmu p;

    pmu_init(&p, ",queues=256,sicl-id=7", NULL);
    pmu_count(&p, pmu_event(PPS_SSU_RPU, MODE_GLOBAL), 0, 1000000, &cnt,
              &ext);
    g_assert_cmpuint(cnt, ==, 256000);
    g_assert_cmpuint(ext, ==, 1000000);
    hisi_wr(&p, HNS3_PMU_SLOT_REG(EVENT_QID_PARA, 0),
            pmu_qid_para(EDU_DEVFN, 255));
    hisi_wr(&p, HNS3_PMU_SLOT_REG(EVENT_QID_CTRL, 0),
            R_EVENT_QID_CTRL_REQ_MASK);
    g_assert_cmphex(hisi_rd(&p, HNS3_PMU_SLOT_REG(EVENT_QID_CTRL, 0)), ==,
                    R_EVENT_QID_CTRL_DONE_MASK);
    g_assert_cmphex(hisi_rd(&p, A_DEVICE_ID), ==, 7);
    g_assert_cmphex(hisi_rd(&p, A_VERSION), ==, 0x40);
    bdf = hisi_rd(&p, A_BDF);
    g_assert_cmphex(FIELD_EX32(bdf, BDF, MIN), ==, 0x100);
    g_assert_cmphex(FIELD_EX32(bdf, BDF, MAX), ==, 0x1ff);
    g_assert_cmphex(hisi_rd(&p, A_GLOBAL_CTRL), ==, 0);
    hisi_fini(&p);
}

/*
 * 2 queues x 1000 packets of 100 bytes; EXT_CNT counts the cycles of the
 * 1 ms counted, started 300 us after start-up: not the time since start-up
 */
static void test_exact_bandwidth(void)
{
    uint64_t cnt, ext;
    Pmu p;

    pmu_init(&p, "", NULL);
    qtest_clock_step(p.qts, 300000);
    pmu_count(&p, pmu_event(BW_SSU_RPU, MODE_GLOBAL), 0, 1000000, &cnt,
              &ext);
    g_assert_cmpuint(cnt, ==, 200000);
    g_assert_cmpuint(ext, ==, 1000000);
    hisi_fini(&p);
}

/* The RPU's share of the latency: 25 % of 400 ns, per packet */
static void test_exact_rpu_latency(void)
{
    uint64_t cnt, ext;
    Pmu p;

    pmu_init(&p, "", NULL);
    pmu_count(&p, pmu_event(DLY_RPU, MODE_GLOBAL), 0, 1000000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 2000 * 100);
    g_assert_cmpuint(ext, ==, 2000);
    hisi_fini(&p);
}

/*
 * One interrupt per 10 packets; EXT_CNT counts the cycles of the 1 ms
 * counted, started 300 us after start-up: not the time since start-up
 */
static void test_exact_interrupts(void)
{
    uint64_t cnt, ext;
    Pmu p;

    pmu_init(&p, "", NULL);
    qtest_clock_step(p.qts, 300000);
    pmu_count(&p, pmu_event(INTR_MSIX_NIC, MODE_GLOBAL), 0, 1000000, &cnt,
              &ext);
    g_assert_cmpuint(cnt, ==, 200);
    g_assert_cmpuint(ext, ==, 1000000);
    hisi_fini(&p);
}

static void test_no_count_without_start(void)
{
    Pmu p;

    pmu_init(&p, "", NULL);
    hisi_wr(&p, HNS3_PMU_SLOT_REG(EVENT_CTRL_LOW, 1),
            pmu_event(PPS_SSU_RPU, MODE_GLOBAL) | R_EVENT_CTRL_LOW_EN_MASK);
    qtest_clock_step(p.qts, 1000000);
    g_assert_cmpuint(hisi_rdq(&p, HNS3_PMU_SLOT_REG(EVENT_COUNTER, 1)), ==,
                     0);
    hisi_fini(&p);
}

static void test_no_count_without_event_enable(void)
{
    Pmu p;

    pmu_init(&p, "", NULL);
    hisi_wr(&p, HNS3_PMU_SLOT_REG(EVENT_CTRL_LOW, 1),
            pmu_event(PPS_SSU_RPU, MODE_GLOBAL));
    hisi_wr(&p, A_GLOBAL_CTRL, R_GLOBAL_CTRL_START_MASK);
    qtest_clock_step(p.qts, 1000000);
    g_assert_cmpuint(hisi_rdq(&p, HNS3_PMU_SLOT_REG(EVENT_COUNTER, 1)), ==,
                     0);
    hisi_fini(&p);
}

/* 01:00.0 is function 0: MAC port 0 */
static void test_filter_port(void)
{
    uint64_t cnt, ext;
    Pmu p;

    pmu_init(&p, "", NULL);
    pmu_count(&p, pmu_event(PPS_SSU_RPU, MODE_PORT), BIT(0), 1000000, &cnt,
              &ext);
    g_assert_cmpuint(cnt, ==, 2000);
    pmu_count(&p, pmu_event(PPS_SSU_RPU, MODE_PORT), BIT(1), 1000000, &cnt,
              &ext);
    g_assert_cmpuint(cnt, ==, 0);
    hisi_fini(&p);
}

/*
 * Function f sends on MAC port f % ports: with ports=2, function 1 of the
 * device below the root port is on port 1, function 3 too (3 % 2), and
 * only function 0 on port 0. ("-global" makes the topology's edu at
 * 01:00.0 multifunction, so that 01:00.1 and 01:00.3 can join it.)
 */
static void test_filter_port_functions(void)
{
    uint64_t cnt, ext;
    Pmu p;

    pmu_init(&p, ",ports=2", "-global", "edu.multifunction=on",
             "-device", "edu,bus=rp0,addr=0.1",
             "-device", "edu,bus=rp0,addr=0.3", NULL);
    pmu_count(&p, pmu_event(PPS_SSU_RPU, MODE_PORT), BIT(0), 1000000, &cnt,
              &ext);
    g_assert_cmpuint(cnt, ==, 2000);
    pmu_count(&p, pmu_event(PPS_SSU_RPU, MODE_PORT), BIT(1), 1000000, &cnt,
              &ext);
    g_assert_cmpuint(cnt, ==, 2 * 2000);
    hisi_fini(&p);
}

/* Queue 1 is on TC 1 */
static void test_filter_port_tc(void)
{
    uint64_t cnt, ext;
    Pmu p;

    pmu_init(&p, "", NULL);
    pmu_count(&p, pmu_event(PPS_SSU_RPU, MODE_PORT_TC), pmu_port_tc(0, 1),
              1000000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 1000);
    hisi_fini(&p);
}

/*
 * Ports the NIC does not have (ports=4: 4..15) count nothing; none is
 * another port (port 8 is not port 0, though 8 << 3 has bits 3-5 clear).
 */
static void test_filter_port_tc_absent_ports(void)
{
    uint64_t cnt, ext;
    Pmu p;

    pmu_init(&p, ",ports=4", NULL);
    for (unsigned port = 1; port < DRIVER_PORTS; port++) {
        pmu_count(&p, pmu_event(PPS_SSU_RPU, MODE_PORT_TC),
                  pmu_port_tc(port, 1), 1000000, &cnt, &ext);
        if (cnt) {
            g_test_message("port %u", port);
        }
        g_assert_cmpuint(cnt, ==, 0);
    }
    pmu_count(&p, pmu_event(PPS_SSU_RPU, MODE_PORT_TC), pmu_port_tc(0, 1),
              1000000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 1000);
    hisi_fini(&p);
}

static void test_filter_func(void)
{
    uint64_t cnt, ext;
    Pmu p;

    pmu_init(&p, "", NULL);
    pmu_count(&p, pmu_event(PPS_SSU_RPU, MODE_FUNC), pmu_func(EDU_DEVFN),
              1000000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 2000);
    pmu_count(&p, pmu_event(PPS_SSU_RPU, MODE_FUNC), pmu_func(OTHER_DEVFN),
              1000000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 0);
    hisi_fini(&p);
}

/* The QID check answers at once: queue 1 exists, queue 2 does not */
static void test_qid_check(void)
{
    Pmu p;

    pmu_init(&p, "", NULL);
    hisi_wr(&p, HNS3_PMU_SLOT_REG(EVENT_QID_PARA, 0),
            pmu_qid_para(EDU_DEVFN, 1));
    hisi_wr(&p, HNS3_PMU_SLOT_REG(EVENT_QID_CTRL, 0),
            R_EVENT_QID_CTRL_REQ_MASK);
    g_assert_cmphex(hisi_rd(&p, HNS3_PMU_SLOT_REG(EVENT_QID_CTRL, 0)), ==,
                    R_EVENT_QID_CTRL_DONE_MASK);
    hisi_wr(&p, HNS3_PMU_SLOT_REG(EVENT_QID_CTRL, 0), 0);
    g_assert_cmphex(hisi_rd(&p, HNS3_PMU_SLOT_REG(EVENT_QID_CTRL, 0)), ==, 0);
    hisi_wr(&p, HNS3_PMU_SLOT_REG(EVENT_QID_PARA, 0),
            pmu_qid_para(EDU_DEVFN, 2));
    hisi_wr(&p, HNS3_PMU_SLOT_REG(EVENT_QID_CTRL, 0),
            R_EVENT_QID_CTRL_REQ_MASK);
    g_assert_cmphex(hisi_rd(&p, HNS3_PMU_SLOT_REG(EVENT_QID_CTRL, 0)), ==,
                    R_EVENT_QID_CTRL_DONE_MASK | R_EVENT_QID_CTRL_MISS_MASK);
    hisi_fini(&p);
}

static void test_filter_func_queue(void)
{
    uint64_t cnt, ext;
    Pmu p;

    pmu_init(&p, "", NULL);
    hisi_wr(&p, HNS3_PMU_SLOT_REG(EVENT_QID_PARA, 0),
            pmu_qid_para(EDU_DEVFN, 1));
    pmu_count(&p, pmu_event(PPS_SSU_RPU, MODE_FUNC_QUEUE),
              pmu_func(EDU_DEVFN), 1000000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 1000);
    hisi_fini(&p);
}

/*
 * A function on the root bus in [bdf-min, bdf-max] is one of the NIC's, as
 * the NIC's RCiEPs are on hardware: it counts globally and in the function
 * filter and has its queues. The edu below the root port (bus 1) and the
 * root-bus edu at 00:04.0 are outside the range. Rules see its root port
 * as 00:00.0, the host bridge's BDF, which no root port has: a rule with
 * port=00:00.0 sets its queues' packets to 3 a us.
 */
static void test_root_bus_function(void)
{
    uint64_t cnt, ext;
    Pmu p;

    pmu_init(&p, ",bdf-min=0x0018,bdf-max=0x001f",
             "-device", "edu,bus=pcie.0,addr=0x3",
             "-device", "edu,bus=pcie.0,addr=0x4", NULL);
    pmu_count(&p, pmu_event(PPS_SSU_RPU, MODE_GLOBAL), 0, 1000000, &cnt,
              &ext);
    g_assert_cmpuint(cnt, ==, 2000);
    pmu_count(&p, pmu_event(PPS_SSU_RPU, MODE_FUNC), pmu_func(RCIEP_DEVFN),
              1000000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 2000);
    hisi_wr(&p, HNS3_PMU_SLOT_REG(EVENT_QID_PARA, 0),
            pmu_qid_para(RCIEP_DEVFN, 1));
    hisi_wr(&p, HNS3_PMU_SLOT_REG(EVENT_QID_CTRL, 0),
            R_EVENT_QID_CTRL_REQ_MASK);
    g_assert_cmphex(hisi_rd(&p, HNS3_PMU_SLOT_REG(EVENT_QID_CTRL, 0)), ==,
                    R_EVENT_QID_CTRL_DONE_MASK);
    hisi_set_rules(p.qts, RULES ";port=00:00.0,stream=nic-rx,rate=3000000");
    pmu_count(&p, pmu_event(PPS_SSU_RPU, MODE_FUNC), pmu_func(RCIEP_DEVFN),
              1000000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 6000);
    hisi_fini(&p);
}

/*
 * The QID check looks for the function it is asked about, all 8 bits of
 * its devfn: of a two-function RCiEP at 00:03, queue 1 of 00:03.1 exists,
 * and 00:03.2 has none.
 */
static void test_qid_check_second_function(void)
{
    static const struct {
        unsigned devfn;
        uint32_t answer;
    } cases[] = {
        { QPCI_DEVFN(3, 1), R_EVENT_QID_CTRL_DONE_MASK },
        { QPCI_DEVFN(3, 2),
          R_EVENT_QID_CTRL_DONE_MASK | R_EVENT_QID_CTRL_MISS_MASK },
    };
    Pmu p;

    pmu_init(&p, ",bdf-min=0x0018,bdf-max=0x001f",
             "-device", "edu,bus=pcie.0,addr=0x3.0,multifunction=on",
             "-device", "edu,bus=pcie.0,addr=0x3.1", NULL);
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        hisi_wr(&p, HNS3_PMU_SLOT_REG(EVENT_QID_PARA, 0),
                pmu_qid_para(cases[i].devfn, 1));
        hisi_wr(&p, HNS3_PMU_SLOT_REG(EVENT_QID_CTRL, 0),
                R_EVENT_QID_CTRL_REQ_MASK);
        g_assert_cmphex(hisi_rd(&p, HNS3_PMU_SLOT_REG(EVENT_QID_CTRL, 0)), ==,
                        cases[i].answer);
        hisi_wr(&p, HNS3_PMU_SLOT_REG(EVENT_QID_CTRL, 0), 0);
    }
    hisi_fini(&p);
}

/*
 * The driver's function filter takes any function that exists in range, a
 * root port too (hns3_pmu_valid_bdf()): it counts as one of the NIC's.
 */
static void test_root_port_in_range_function(void)
{
    uint64_t cnt, ext;
    Pmu p;

    pmu_init(&p, ",bdf-min=0x0080,bdf-max=0x0087", NULL);
    pmu_count(&p, pmu_event(PPS_SSU_RPU, MODE_FUNC), pmu_func(RP_DEVFN),
              1000000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 2000);
    hisi_fini(&p);
}

/*
 * A mode the event does not take (rpu_rcbrx: global, func-queue) counts
 * nothing, and QEMU logs the guest's mistake; the slot counts the event in
 * a mode it takes after, with nothing logged.
 */
static void test_mode_not_taken(void)
{
    uint64_t cnt, ext;
    Pmu p;

    pmu_init(&p, "", NULL);
    pmu_count(&p, pmu_event(BW_RPU_RCBRX, MODE_FUNC), pmu_func(EDU_DEVFN),
              1000000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 0);
    hisi_assert_guest_errorf(&p, "hns3-pmu: slot 0: event 0x%03x has no "
                             "filter mode %u", BW_RPU_RCBRX, MODE_FUNC);
    pmu_count(&p, pmu_event(BW_RPU_RCBRX, MODE_GLOBAL), 0, 1000000, &cnt,
              &ext);
    g_assert_cmpuint(cnt, >, 0);
    hisi_assert_no_guest_error(&p);
    hisi_fini(&p);
}

/*
 * An unknown event counts nothing and harms nothing: a slot counting
 * beside it, and the slot after it, count exactly.
 */
static void test_unknown_event(void)
{
    uint32_t pps = pmu_event(PPS_SSU_RPU, MODE_GLOBAL);
    uint64_t cnt, ext;
    Pmu p;

    pmu_init(&p, "", NULL);
    hisi_wr(&p, HNS3_PMU_SLOT_REG(EVENT_CTRL_LOW, 1),
            pps | R_EVENT_CTRL_LOW_EN_MASK);
    pmu_count(&p, pmu_event(UNKNOWN_EVENT, MODE_GLOBAL), 0, 1000000, &cnt,
              &ext);
    g_assert_cmpuint(cnt, ==, 0);
    g_assert_cmpuint(hisi_rdq(&p, HNS3_PMU_SLOT_REG(EVENT_COUNTER, 1)), ==,
                     2000);
    pmu_count(&p, pps, 0, 1000000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 2000);
    hisi_fini(&p);
}

/* Slot 0 counting @event, its overflow unmasked, @left to go */
static uint32_t pmu_start_near_overflow_of(Pmu *p, uint16_t event,
                                           uint64_t left)
{
    uint32_t ctrl = pmu_event(event, MODE_GLOBAL) | R_EVENT_CTRL_LOW_EN_MASK;

    hisi_msi_taken(p);
    hisi_wr(p, HNS3_PMU_SLOT_REG(EVENT_CTRL_LOW, 0), ctrl);
    hisi_wrq(p, HNS3_PMU_SLOT_REG(EVENT_COUNTER, 0), -left);
    hisi_wr(p, HNS3_PMU_SLOT_REG(EVENT_INTR_MASK, 0), 0);
    hisi_wr(p, A_GLOBAL_CTRL, R_GLOBAL_CTRL_START_MASK);
    return ctrl;
}

/* Slot 0 counting packets, its overflow unmasked, 10 packets (5 us) to go */
static uint32_t pmu_start_near_overflow(Pmu *p)
{
    return pmu_start_near_overflow_of(p, PPS_SSU_RPU, 10);
}

static bool pmu_overflow_pending(Pmu *p, unsigned slot)
{
    return FIELD_EX32(hisi_rd(p, HNS3_PMU_SLOT_REG(EVENT_INTR_STATUS, slot)),
                      EVENT_INTR_STATUS, OVERFLOW);
}

/* The timer raises the overflow when due, without a read; it restarts */
static void test_overflow_msi_when_due(void)
{
    Pmu p;

    pmu_init(&p, "", NULL);
    pmu_start_near_overflow(&p);
    qtest_clock_step(p.qts, 2000);
    g_assert_cmphex(hisi_rd(&p, HNS3_PMU_SLOT_REG(EVENT_INTR_STATUS, 0)), ==,
                    0);
    g_assert_false(hisi_msi_taken(&p));
    qtest_clock_step(p.qts, 10000);
    g_assert_true(hisi_msi_taken(&p));
    g_assert_true(pmu_overflow_pending(&p, 0));
    g_assert_cmpuint(hisi_rdq(&p, HNS3_PMU_SLOT_REG(EVENT_COUNTER, 0)), <,
                     20);
    hisi_fini(&p);
}

/*
 * The timer raises the overflow when due for the counters of bytes and of
 * delay cycles too, each bounded by how fast it can grow (bytes by the
 * longest packet, delay cycles by its stream's latency), not by the
 * packets: 1000 bytes, or 1000 cycles of the RPU's 100 ns a packet, are
 * 10 packets, the last of them at 4 us. @data: the event.
 */
static void test_overflow_msi_when_due_of(gconstpointer data)
{
    Pmu p;

    pmu_init(&p, "", NULL);
    pmu_start_near_overflow_of(&p, GPOINTER_TO_INT(data), 1000);
    qtest_clock_step(p.qts, 2000);
    g_assert_false(hisi_msi_taken(&p));
    qtest_clock_step(p.qts, 10000);
    g_assert_true(hisi_msi_taken(&p));
    g_assert_true(pmu_overflow_pending(&p, 0));
    g_assert_cmpuint(hisi_rdq(&p, HNS3_PMU_SLOT_REG(EVENT_COUNTER, 0)), <,
                     2000);
    hisi_fini(&p);
}

/*
 * A delay counter that grows by less than a cycle a second overflows by
 * the clock too: at clock-freq=1 the RPU's 100 ns a packet, 2 packets a
 * us, are 0.2 cycles a second, so the one cycle to go is counted (and
 * the counter wraps) 5 s after the start; the MSI comes then, with no
 * register read.
 */
static void test_overflow_msi_when_due_slow_delay(void)
{
    Pmu p;

    pmu_init(&p, ",clock-freq=1", NULL);
    pmu_start_near_overflow_of(&p, DLY_RPU, 1);
    qtest_clock_step(p.qts, 4500 * 1000 * 1000ll);
    g_assert_false(hisi_msi_taken(&p));
    qtest_clock_step(p.qts, 2000 * 1000 * 1000ll);
    g_assert_true(hisi_msi_taken(&p));
    g_assert_true(pmu_overflow_pending(&p, 0));
    g_assert_cmpuint(hisi_rdq(&p, HNS3_PMU_SLOT_REG(EVENT_COUNTER, 0)), ==,
                     0);
    hisi_fini(&p);
}

/*
 * A delay counter 10^6 cycles short of its wrap: the RPU's 100 ns a
 * packet, 2 packets a us, are 2 * 10^7 cycles a second at 100 MHz, so it
 * wraps 50 ms on. The overflow timer is armed before that, by the most
 * the streams it counts could bring (each at its whole latency, with a
 * margin): more than a ms on, not 1 ns on again and again, as a bound
 * that wrapped below zero would arm it.
 */
static void test_overflow_timer_delay_bound(void)
{
    int64_t start, due;
    Pmu p;

    pmu_init(&p, "", NULL);
    start = qtest_clock_step(p.qts, 1);
    pmu_start_near_overflow_of(&p, DLY_RPU, 1000 * 1000);
    due = qtest_clock_step_next(p.qts) - start;
    g_assert_cmpint(due, >, 1000 * 1000);
    g_assert_cmpint(due, <=, 50 * 1000 * 1000);
    hisi_fini(&p);
}

/* An event, and how far short of its wrap a counter of it starts */
typedef struct OverflowCase {
    uint16_t event;
    uint64_t left;
    /* @left is the cycles' (the extended counter's), written 5 ns in */
    bool ext;
} OverflowCase;

/*
 * A PMU with slot 0 started as @c says. The cycles are counted at 100 MHz
 * and written 5 ns into a cycle, so the half cycle counted before the
 * write completes the first one 5 ns early.
 */
static void pmu_init_overflow_case(Pmu *p, const OverflowCase *c)
{
    if (!c->ext) {
        pmu_init(p, "", NULL);
        pmu_start_near_overflow_of(p, c->event, c->left);
        return;
    }
    pmu_init(p, ",clock-freq=100000000", NULL);
    pmu_start_near_overflow_of(p, c->event, 0);
    qtest_clock_step(p->qts, 5);
    hisi_wrq(p, HNS3_PMU_SLOT_REG(EVENT_EXT_COUNTER, 0), -c->left);
}

/* The ns on by which @counter of @twin wraps, read every ns (20 us at most) */
static int64_t pmu_twin_wrap_ns(Pmu *twin, uint64_t counter)
{
    int64_t wrap_ns = 0;

    while ((int64_t)hisi_rdq(twin, counter) < 0) {
        g_assert_cmpint(wrap_ns, <, 20 * 1000);
        qtest_clock_step(twin->qts, 1);
        wrap_ns++;
    }
    return wrap_ns;
}

/* Slot 0's overflow MSI comes @wrap_ns on, not a ns before */
static void pmu_assert_msi_at(Pmu *p, int64_t wrap_ns)
{
    qtest_clock_step(p->qts, wrap_ns - 1);
    g_assert_false(hisi_msi_taken(p));
    qtest_clock_step(p->qts, 1);
    g_assert_true(hisi_msi_taken(p));
    g_assert_true(pmu_overflow_pending(p, 0));
}

/*
 * The overflow MSI comes at the first ns by which the counter has wrapped
 * (docs/devices/hns3-pmu.md), with no register read, for packets, bytes
 * (bounded by the longest packet) and delay cycles (by the stream's latency),
 * and for the cycles of packet and byte counters: a twin that reads its counter
 * every ns finds that ns. @data: the case.
 */
static void test_overflow_msi_at_wrap(gconstpointer data)
{
    const OverflowCase *c = data;
    uint64_t counter = c->ext ? HNS3_PMU_SLOT_REG(EVENT_EXT_COUNTER, 0) :
                                HNS3_PMU_SLOT_REG(EVENT_COUNTER, 0);
    int64_t wrap_ns;
    Pmu p, twin;

    pmu_init_overflow_case(&twin, c);
    wrap_ns = pmu_twin_wrap_ns(&twin, counter);
    hisi_fini(&twin);
    pmu_init_overflow_case(&p, c);
    pmu_assert_msi_at(&p, wrap_ns);
    hisi_fini(&p);
}

/*
 * Writing the status clears nothing; the driver's clear is a pulse of
 * STATUS_RESET, which does not stay set.
 */
static void test_overflow_status_reset(void)
{
    uint32_t ctrl;
    Pmu p;

    pmu_init(&p, "", NULL);
    ctrl = pmu_start_near_overflow(&p);
    qtest_clock_step(p.qts, 12000);
    g_assert_true(pmu_overflow_pending(&p, 0));
    hisi_wr(&p, HNS3_PMU_SLOT_REG(EVENT_INTR_STATUS, 0),
            R_EVENT_INTR_STATUS_OVERFLOW_MASK);
    g_assert_true(pmu_overflow_pending(&p, 0));
    hisi_wr(&p, HNS3_PMU_SLOT_REG(EVENT_CTRL_LOW, 0),
            ctrl | R_EVENT_CTRL_LOW_STATUS_RESET_MASK);
    /* the pulse's first write clears the overflow; its bit is not kept */
    g_assert_false(pmu_overflow_pending(&p, 0));
    g_assert_cmphex(hisi_rd(&p, HNS3_PMU_SLOT_REG(EVENT_CTRL_LOW, 0)), ==,
                    ctrl);
    hisi_wr(&p, HNS3_PMU_SLOT_REG(EVENT_CTRL_LOW, 0), ctrl);
    g_assert_cmphex(hisi_rd(&p, HNS3_PMU_SLOT_REG(EVENT_INTR_STATUS, 0)), ==,
                    0);
    g_assert_cmphex(hisi_rd(&p, HNS3_PMU_SLOT_REG(EVENT_CTRL_LOW, 0)), ==,
                    ctrl);
    hisi_fini(&p);
}

/* Masked: the status, no MSI; unmasking sends it */
static void test_overflow_masked_msi_on_unmask(void)
{
    Pmu p;

    pmu_init(&p, "", NULL);
    pmu_start_near_overflow(&p);
    hisi_wr(&p, HNS3_PMU_SLOT_REG(EVENT_INTR_MASK, 0),
            R_EVENT_INTR_MASK_OVERFLOW_MASK);
    qtest_clock_step(p.qts, 10000);
    g_assert_true(pmu_overflow_pending(&p, 0));
    g_assert_false(hisi_msi_taken(&p));
    hisi_wr(&p, HNS3_PMU_SLOT_REG(EVENT_INTR_MASK, 0), 0);
    g_assert_true(hisi_msi_taken(&p));
    hisi_fini(&p);
}

/* Fault injection: advance a counter over QMP, 808 packets short */
static void test_overflow_advance(void)
{
    Pmu p;

    pmu_init(&p, "", NULL);
    pmu_start_near_overflow(&p);
    hisi_wrq(&p, HNS3_PMU_SLOT_REG(EVENT_COUNTER, 0), 1ull << 63);
    qtest_qmp_assert_success(p.qts, "{'execute': 'qom-set', 'arguments': "
                             "{'path': 'pmu', 'property': 'advance', "
                             "'value': '0=9223372036854775000'}}");
    qtest_clock_step(p.qts, 300000);
    g_assert_false(hisi_msi_taken(&p));
    qtest_clock_step(p.qts, 200000);
    g_assert_true(hisi_msi_taken(&p));
    hisi_fini(&p);
}

/* A stream's rate from time @from on */
typedef struct RatePiece {
    int64_t from;
    uint64_t rate;
} RatePiece;

/*
 * Packets in [0, @t) of a stream whose rate went as @pieces say (the first
 * from 0, at a rate > 0), in closed form: packet k comes at the first ns
 * by which the sum of rate x time over the pieces reaches k x 1e9.
 */
static uint64_t closed_form_packets(const RatePiece *pieces, unsigned n,
                                    int64_t t)
{
    unsigned __int128 work = 0;

    for (unsigned i = 0; i < n; i++) {
        int64_t end = i + 1 < n ? MIN(pieces[i + 1].from, t - 1) : t - 1;

        if (end > pieces[i].from) {
            work += (unsigned __int128)pieces[i].rate *
                    (uint64_t)(end - pieces[i].from);
        }
    }
    return work / 1000000000u + 1;
}

/* The queue streams of @kind (nic-rx or nic-tx) at @rate, the others at 0 */
static void pmu_set_queue_rate(Pmu *p, const char *kind, uint64_t rate)
{
    g_autofree char *rules = g_strdup_printf("stream=nic-all,rate=0;"
                                             "stream=%s,rate=%" PRIu64
                                             ",len=100,latency=400,"
                                             "coalesce=10", kind, rate);

    hisi_set_rules(p->qts, rules);
}

/*
 * Traffic seed 45766372 gives the queue-0 stream of the edu's function
 * (01:00.0), receiving packets of 64 to 9000 bytes, a pattern of 16 whose
 * first packet is its longest: 7679 bytes, the other 15 of 2904 at most
 * (a search over the seeds found it).
 */
#define LONGEST_FIRST_SEED  45766372
#define LONGEST_FIRST_BYTES 7679

/*
 * Slot 0 counting the bytes 01:00.0's queue 0 receives, a packet a us,
 * from 15.5 us on, the overflow unmasked: the pattern's first packet comes
 * again at 16 us (packet 16), and the counter is that packet's bytes short
 * of its wrap.
 */
static void pmu_init_longest_first(Pmu *p)
{
    pmu_init(p, "", NULL);
    qtest_qmp_assert_success(p->qts, "{'execute': 'qom-set', 'arguments': "
                             "{'path': 't0', 'property': 'seed', "
                             "'value': %d}}", LONGEST_FIRST_SEED);
    hisi_set_rules(p->qts, "stream=nic-all,rate=0;"
                   "stream=nic-rx,rate=1000000,len=64-9000");
    qtest_clock_step(p->qts, 15500);
    hisi_msi_taken(p);
    hisi_wr(p, HNS3_PMU_SLOT_REG(EVENT_QID_PARA, 0),
            pmu_qid_para(EDU_DEVFN, 0));
    hisi_wr(p, HNS3_PMU_SLOT_REG(EVENT_CTRL_HIGH, 0), pmu_func(EDU_DEVFN));
    hisi_wr(p, HNS3_PMU_SLOT_REG(EVENT_CTRL_LOW, 0),
            pmu_event(BW_SSU_RPU, MODE_FUNC_QUEUE) |
            R_EVENT_CTRL_LOW_EN_MASK);
    hisi_wrq(p, HNS3_PMU_SLOT_REG(EVENT_COUNTER, 0), -LONGEST_FIRST_BYTES);
    hisi_wr(p, HNS3_PMU_SLOT_REG(EVENT_INTR_MASK, 0), 0);
    hisi_wr(p, A_GLOBAL_CTRL, R_GLOBAL_CTRL_START_MASK);
}

/*
 * The bound of a byte counter takes the longest packet of each stream's
 * whole pattern, its first too: a counter one packet short of its wrap
 * wraps at that packet, the pattern's longest, twice as long as any other,
 * and its MSI comes then (a twin that reads its counter every ns finds
 * that ns), not once a bound from the others' longest is reached.
 */
static void test_overflow_msi_longest_first(void)
{
    uint64_t counter = HNS3_PMU_SLOT_REG(EVENT_COUNTER, 0);
    int64_t wrap_ns;
    Pmu p, twin;

    pmu_init_longest_first(&twin);
    wrap_ns = pmu_twin_wrap_ns(&twin, counter);
    /* that one packet brought the bytes to go, no more */
    g_assert_cmpuint(hisi_rdq(&twin, counter), ==, 0);
    hisi_fini(&twin);
    pmu_init_longest_first(&p);
    pmu_assert_msi_at(&p, wrap_ns);
    hisi_fini(&p);
}

/*
 * Queues no PMU asked for before join with their streams as they have run since
 * the last change (docs/devices/traffic.md), even when another PMU counted the
 * function's other queues before it: a second PMU with 3 queues counts queue 2
 * of the edu's function from a rule change on, the first (2 queues) having
 * counted the function since the start. At a packet a us per queue and the
 * change at 1000500 ns, the 400 ns from the change hold queue 2's first packet,
 * at the change (one from the start would come at 1001000 ns).
 */
static void test_queues_join_at_change(void)
{
    uint64_t cnt, ext;
    Pmu p, second = { 0 };

    pmu_init(&p, "", "-device", "hns3-pmu,bus=pcie.0,addr=0xb,traffic=t0,"
             "id=pmu1,sicl-id=1,queues=3,tcs=2", NULL);
    second.qts = p.qts;
    second.dev = hisi_enable(&p, QPCI_DEVFN(0xb, 0), &second.bar);
    hisi_wr(&p, HNS3_PMU_SLOT_REG(EVENT_CTRL_LOW, 0),
            pmu_event(PPS_SSU_RPU, MODE_GLOBAL) | R_EVENT_CTRL_LOW_EN_MASK);
    hisi_wr(&p, A_GLOBAL_CTRL, R_GLOBAL_CTRL_START_MASK);
    qtest_clock_step(p.qts, 1000500);
    pmu_set_queue_rate(&p, "nic-rx", 1000000);
    hisi_wr(&second, HNS3_PMU_SLOT_REG(EVENT_QID_PARA, 0),
            pmu_qid_para(EDU_DEVFN, 2));
    pmu_count(&second, pmu_event(PPS_SSU_RPU, MODE_FUNC_QUEUE),
              pmu_func(EDU_DEVFN), 400, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 1);
    g_free(second.dev);
    hisi_fini(&p);
}

/* The queue streams a test changes the rate of, and their packets' event */
typedef struct QueueKind {
    const char *kind;
    uint16_t packets;
} QueueKind;

static const QueueKind queue_rx = { "nic-rx", PPS_SSU_RPU };
static const QueueKind queue_tx = { "nic-tx", PPS_TPU_SSU };

/*
 * Rule changes (QMP) keep each stream's phase: the packets counted across
 * several of them, a pause among them, are linear (each interval at its
 * rate, no extra packet per queue per change), and the interrupts, one
 * per 10 packets of a queue, follow the same packet numbers throughout.
 * The last rate, 1 packet per ms, makes the phase count: each queue's
 * next packet comes when the work it still needed at that change is done,
 * 492.3 us on, and 2 packets come in the last 1.5 ms (a stream at that
 * rate from 0 ns would have them on whole ms: 1). The same for the
 * receive and the transmit streams: a function's queue 0 transmits on its
 * first stream, which a change carries like the others.
 */
static void test_rule_changes_linear(const void *data)
{
    const QueueKind *q = data;
    /* after each wait, the receive streams' new rate */
    static const struct {
        int64_t wait_ns;
        uint64_t rate;
    } changes[] = {
        { 1000003, 3000000 }, { 700009, 0 }, { 400007, 700000 },
        { 1400011, 1000000 }, { 1500013, 1000 },
    };
    RatePiece pieces[ARRAY_SIZE(changes) + 1] = { { 0, 1000000 } };
    int64_t start, now;
    uint64_t k0, k1;
    Pmu p;

    pmu_init(&p, "", NULL);
    pmu_set_queue_rate(&p, q->kind, pieces[0].rate);
    start = qtest_clock_step(p.qts, 123457);
    hisi_wr(&p, HNS3_PMU_SLOT_REG(EVENT_CTRL_LOW, 0),
            pmu_event(q->packets, MODE_GLOBAL) | R_EVENT_CTRL_LOW_EN_MASK);
    hisi_wr(&p, HNS3_PMU_SLOT_REG(EVENT_CTRL_LOW, 1),
            pmu_event(INTR_MSIX_NIC, MODE_GLOBAL) | R_EVENT_CTRL_LOW_EN_MASK);
    hisi_wr(&p, A_GLOBAL_CTRL, R_GLOBAL_CTRL_START_MASK);
    for (int i = 0; i < ARRAY_SIZE(changes); i++) {
        now = qtest_clock_step(p.qts, changes[i].wait_ns);
        pmu_set_queue_rate(&p, q->kind, changes[i].rate);
        pieces[i + 1] = (RatePiece) { now, changes[i].rate };
    }
    now = qtest_clock_step(p.qts, 1500013);
    hisi_wr(&p, A_GLOBAL_CTRL, 0);
    k0 = closed_form_packets(pieces, ARRAY_SIZE(pieces), start);
    k1 = closed_form_packets(pieces, ARRAY_SIZE(pieces), now);
    g_test_message("packets %" PRIu64 "..%" PRIu64 " of each queue", k0, k1);
    g_assert_cmpuint(hisi_rdq(&p, HNS3_PMU_SLOT_REG(EVENT_COUNTER, 0)), ==,
                     2 * (k1 - k0));
    g_assert_cmpuint(hisi_rdq(&p, HNS3_PMU_SLOT_REG(EVENT_COUNTER, 1)), ==,
                     2 * (k1 / 10 - k0 / 10));
    hisi_fini(&p);
}

/*
 * One event per NIC stream kind, each seen by its stage alone, and the
 * packets per ms it counts with every stream at 1 packet per us: the
 * queues' streams on both queues, RoCE once per function.
 */
static const struct {
    const char *kind;
    uint16_t event;
    uint64_t per_ms;
} kind_events[] = {
    { "nic-tx", PPS_TPU_SSU, 2000 },
    { "nic-rx", PPS_SSU_RPU, 2000 },
    { "roce-tx", PPS_ROCE_SSU, 1000 },
    { "roce-rx", PPS_SSU_ROCE, 1000 },
};

/* Slot i has counted @ms ms of kind_events[i]'s stream kind */
static void pmu_assert_kinds_counted(Pmu *p, uint64_t ms)
{
    for (int i = 0; i < ARRAY_SIZE(kind_events); i++) {
        uint64_t cnt = hisi_rdq(p, HNS3_PMU_SLOT_REG(EVENT_COUNTER, i));

        if (cnt != ms * kind_events[i].per_ms) {
            g_test_message("%s", kind_events[i].kind);
        }
        g_assert_cmpuint(cnt, ==, ms * kind_events[i].per_ms);
    }
}

/*
 * While the traffic is paused no stream moves, whatever its kind; resumed,
 * each goes on at its rate. Every interval is a whole number of the
 * streams' 1 us period, so each counts exactly, whatever its phase.
 */
static void test_paused_stops_all_kinds(void)
{
    Pmu p;

    pmu_init(&p, "", NULL);
    hisi_set_rules(p.qts, "stream=nic-all,rate=1000000,len=100");
    for (int i = 0; i < ARRAY_SIZE(kind_events); i++) {
        hisi_wr(&p, HNS3_PMU_SLOT_REG(EVENT_CTRL_LOW, i),
                pmu_event(kind_events[i].event, MODE_GLOBAL) |
                R_EVENT_CTRL_LOW_EN_MASK);
    }
    hisi_wr(&p, A_GLOBAL_CTRL, R_GLOBAL_CTRL_START_MASK);
    qtest_clock_step(p.qts, 1000000);
    pmu_assert_kinds_counted(&p, 1);
    qtest_qom_set_bool(p.qts, "t0", "paused", true);
    qtest_clock_step(p.qts, 1000000);
    pmu_assert_kinds_counted(&p, 1);
    qtest_qom_set_bool(p.qts, "t0", "paused", false);
    qtest_clock_step(p.qts, 1000000);
    pmu_assert_kinds_counted(&p, 2);
    hisi_fini(&p);
}

/* A second root port, rp1 at 00:11.0, whose secondary bus is 2 */
#define RP1_ARGS            "pcie-root-port,id=rp1,bus=pcie.0,chassis=2," \
                            "addr=0x11"
#define RP1_DEVFN           QPCI_DEVFN(0x11, 0)
/* And rp2 at 00:12.0 and rp3 at 00:13.0 (buses 3 and 4) */
#define RP2_ARGS            "pcie-root-port,id=rp2,bus=pcie.0,chassis=3," \
                            "addr=0x12"
#define RP2_DEVFN           QPCI_DEVFN(0x12, 0)
#define RP3_ARGS            "pcie-root-port,id=rp3,bus=pcie.0,chassis=4," \
                            "addr=0x13"
#define RP3_DEVFN           QPCI_DEVFN(0x13, 0)

/*
 * A NIC function hot-plugged while a slot counts has traffic from its plug on,
 * RoCE's streams as well as its queues' (docs/devices/traffic.md, Hot-plug):
 * 02:00.0, the PMU's whole range (bdf-min and bdf-max both), sends RoCE packets
 * at 1 per us, the first at the plug, so 701 in the 700.3 us after it, none
 * before. Plugged 300.5 us after the last change (the rules), a stream that had
 * run since that change (packets on whole us from it) would count 700 after the
 * plug, and 1001 with the 301 before it.
 */
/* Slot 0 counting the RoCE packets sent (10^6/s a NIC function) from 1 us */
static void pmu_count_roce_from_1us(Pmu *p)
{
    qtest_clock_step(p->qts, 1000);
    hisi_set_rules(p->qts, "stream=nic-all,rate=0;stream=roce-tx,rate=1000000");
    hisi_wr(p, HNS3_PMU_SLOT_REG(EVENT_CTRL_LOW, 0),
            pmu_event(PPS_ROCE_SSU, MODE_GLOBAL) | R_EVENT_CTRL_LOW_EN_MASK);
    hisi_wr(p, A_GLOBAL_CTRL, R_GLOBAL_CTRL_START_MASK);
}

/* That, below an empty root port rp1 (bus 2), the PMU's range 02:00.0 */
static void pmu_init_roce_below_rp1(Pmu *p)
{
    pmu_init(p, ",bdf-min=0x200,bdf-max=0x200", "-device", RP1_ARGS, NULL);
    hisi_number_bus(p, RP1_DEVFN, 2);
    pmu_count_roce_from_1us(p);
}

static void test_hotplug_counted_from_plug(void)
{
    Pmu p;

    pmu_init_roce_below_rp1(&p);
    qtest_clock_step(p.qts, 300 * 1000 + 500);
    hisi_hotplug(&p, "rp1", RP1_DEVFN, "edu", "hp0");
    qtest_clock_step(p.qts, 700 * 1000 + 300);
    g_assert_cmpuint(hisi_rdq(&p, HNS3_PMU_SLOT_REG(EVENT_COUNTER, 0)), ==,
                     701);
    hisi_fini(&p);
}

/*
 * Unplugged and plugged again at the same place, a NIC function counts
 * up to its removal, and from the new plug, not on the grid of the one
 * removed: plugged at 301.5 us, removed at 401.5 us (100 packets),
 * plugged again at 500 us, 701 packets in the 700.3 us after that (the
 * removed one's grid would give 700).
 */
static void test_replug_counted_from_plug(void)
{
    uint64_t before;
    Pmu p;

    pmu_init_roce_below_rp1(&p);
    qtest_clock_step(p.qts, 300 * 1000 + 500);
    hisi_hotplug(&p, "rp1", RP1_DEVFN, "edu", "hp0");
    qtest_clock_step(p.qts, 100 * 1000);
    hisi_hot_unplug(&p, RP1_DEVFN, "hp0");
    qtest_clock_step(p.qts, 98 * 1000 + 500);
    before = hisi_rdq(&p, HNS3_PMU_SLOT_REG(EVENT_COUNTER, 0));
    g_assert_cmpuint(before, ==, 100);
    hisi_hotplug(&p, "rp1", RP1_DEVFN, "edu", "hp1");
    qtest_clock_step(p.qts, 700 * 1000 + 300);
    g_assert_cmpuint(hisi_rdq(&p, HNS3_PMU_SLOT_REG(EVENT_COUNTER, 0)) -
                     before, ==, 701);
    hisi_fini(&p);
}

/*
 * 89.2 us after an unplug at x.2 us, the function left plugged at x.5 us
 * sends on its own grid: 701 RoCE packets in the next 700.3 us (700 on the
 * grid of the unplug)
 */
static void pmu_assert_roce_on_own_grid(Pmu *p)
{
    uint64_t before;

    qtest_clock_step(p->qts, 89 * 1000 + 200);
    before = hisi_rdq(p, HNS3_PMU_SLOT_REG(EVENT_COUNTER, 0));
    qtest_clock_step(p->qts, 700 * 1000 + 300);
    g_assert_cmpuint(hisi_rdq(p, HNS3_PMU_SLOT_REG(EVENT_COUNTER, 0)) -
                     before, ==, 701);
}

/*
 * A function unplugged from the middle of the traffic object's list of
 * hot-plugged functions leaves the others' places as they were. A plugged
 * at 301.5 us below rp1 (bus 2), B at 311.5 us below rp3 (bus 4), D at
 * 321.5 us below rp2 (bus 3, the PMU's range only), B removed at 411.2 us:
 * D sends on its own grid (x.5 us), 701 packets in 500.4 to 1200.7 us (on
 * the grid of the change at B's removal, x.2 us, 700).
 */
static void test_unplug_middle_keeps_others(void)
{
    Pmu p;

    pmu_init(&p, ",bdf-min=0x300,bdf-max=0x3ff", "-device", RP1_ARGS,
             "-device", RP2_ARGS, "-device", RP3_ARGS, NULL);
    hisi_number_bus(&p, RP1_DEVFN, 2);
    hisi_number_bus(&p, RP2_DEVFN, 3);
    hisi_number_bus(&p, RP3_DEVFN, 4);
    pmu_count_roce_from_1us(&p);
    qtest_clock_step(p.qts, 300 * 1000 + 500);
    hisi_hotplug(&p, "rp1", RP1_DEVFN, "edu", "a");
    qtest_clock_step(p.qts, 10 * 1000);
    hisi_hotplug(&p, "rp3", RP3_DEVFN, "edu", "b");
    qtest_clock_step(p.qts, 10 * 1000);
    hisi_hotplug(&p, "rp2", RP2_DEVFN, "edu", "d");
    qtest_clock_step(p.qts, 89 * 1000 + 700);
    hisi_hot_unplug(&p, RP3_DEVFN, "b");
    pmu_assert_roce_on_own_grid(&p);
    hisi_fini(&p);
}

/*
 * Two NIC functions below one root port, each on a downstream port of a
 * switch below rp1 (HISI_SWITCH_ARGS): A at 04:00.0, the PMU's range only,
 * plugged at 301.5 us, B at 05:00.0 plugged at 311.5 us and removed at
 * 411.2 us. Removing B leaves A, whose port is B's: A sends on its own
 * grid, 701 packets in 500.4 to 1200.7 us.
 */
static void test_unplug_keeps_same_port(void)
{
    Pmu p;

    pmu_init(&p, ",bdf-min=0x400,bdf-max=0x4ff", "-device", RP1_ARGS,
             HISI_SWITCH_ARGS, NULL);
    hisi_number_switch(&p, RP1_DEVFN);
    pmu_count_roce_from_1us(&p);
    qtest_clock_step(p.qts, 300 * 1000 + 500);
    hisi_hotplug(&p, "dn0", HISI_SWITCH_DN0_BDF, "edu", "a");
    qtest_clock_step(p.qts, 10 * 1000);
    hisi_hotplug(&p, "dn1", HISI_SWITCH_DN1_BDF, "edu", "b");
    qtest_clock_step(p.qts, 99 * 1000 + 700);
    hisi_hot_unplug(&p, HISI_SWITCH_DN1_BDF, "b");
    pmu_assert_roce_on_own_grid(&p);
    hisi_fini(&p);
}

/*
 * A NIC function hot-plugged in the source goes on on its own grid after
 * a migration: plugged at 301.5 us, migrated at 401.2 us into a
 * destination where it was hot-plugged too before the load (at 0, as the
 * destination's own table had it), it sends 701 packets in 490.4 to
 * 1190.7 us (700 on the destination's grid).
 */
static void test_migration_hotplugged(void)
{
    Pmu src, dst;

    pmu_init_roce_below_rp1(&src);
    qtest_clock_step(src.qts, 300 * 1000 + 500);
    hisi_hotplug(&src, "rp1", RP1_DEVFN, "edu", "hp0");
    qtest_clock_step(src.qts, 99 * 1000 + 700);
    pmu_init(&dst, ",bdf-min=0x200,bdf-max=0x2ff", "-device", RP1_ARGS,
             "-incoming", "defer", NULL);
    qtest_qmp_device_add(dst.qts, "edu", "hp0", "{'bus': 'rp1'}");
    hisi_migrate_into(src.qts, dst.qts);
    hisi_fini(&src);
    pmu_assert_roce_on_own_grid(&dst);
    hisi_fini(&dst);
}

/*
 * Two NIC functions with one BDF, each below its own root port: a guest
 * that gives rp1 and rp2 one bus number (2) has A at 02:00.0 below rp1,
 * plugged at 301.5 us, and B at 02:00.0 below rp2, plugged at 311.5 us and
 * removed at 411.2 us. The function removed is the one below rp2: A sends
 * on its own grid, 701 packets in 500.4 to 1200.7 us.
 */
static void test_unplug_keeps_same_bdf(void)
{
    Pmu p;

    pmu_init(&p, ",bdf-min=0x200,bdf-max=0x2ff", "-device", RP1_ARGS,
             "-device", RP2_ARGS, NULL);
    hisi_number_bus(&p, RP1_DEVFN, 2);
    hisi_number_bus(&p, RP2_DEVFN, 2);
    pmu_count_roce_from_1us(&p);
    qtest_clock_step(p.qts, 300 * 1000 + 500);
    hisi_hotplug(&p, "rp1", RP1_DEVFN, "edu", "a");
    qtest_clock_step(p.qts, 10 * 1000);
    hisi_hotplug(&p, "rp2", RP2_DEVFN, "edu", "b");
    qtest_clock_step(p.qts, 99 * 1000 + 700);
    hisi_hot_unplug(&p, RP2_DEVFN, "b");
    pmu_assert_roce_on_own_grid(&p);
    hisi_fini(&p);
}

/* No register at these offsets, of the PMU and of a slot */
#define UNKNOWN_REG         0x0100
#define UNKNOWN_SLOT_REG(i) (HNS3_PMU_SLOT_REG(EVENT_CTRL_LOW, i) + 0x40)

/* Every register, 64-bit ones by halves */
static void pmu_snapshot_all(HisiSnapshot *s)
{
    static const uint64_t slot_regs[] = {
        A_EVENT_CTRL_LOW, A_EVENT_CTRL_HIGH, A_EVENT_INTR_STATUS,
        A_EVENT_INTR_MASK, A_EVENT_COUNTER, A_EVENT_COUNTER + 4,
        A_EVENT_EXT_COUNTER, A_EVENT_EXT_COUNTER + 4, A_EVENT_QID_CTRL,
        A_EVENT_QID_PARA,
    };

    hisi_snapshot_add(s, A_GLOBAL_CTRL);
    hisi_snapshot_add(s, A_CLOCK_FREQ);
    hisi_snapshot_add(s, A_BDF);
    hisi_snapshot_add(s, A_VERSION);
    hisi_snapshot_add(s, A_DEVICE_ID);
    for (int i = 0; i < HNS3_PMU_SLOTS; i++) {
        for (int r = 0; r < ARRAY_SIZE(slot_regs); r++) {
            hisi_snapshot_add(s, HNS3_PMU_SLOT_REG(EVENT_CTRL_LOW, i) +
                              slot_regs[r]);
        }
    }
}

/* The counters, accessed whole or by 32-bit halves */
static void test_counter_halves(void)
{
    uint64_t cnt = HNS3_PMU_SLOT_REG(EVENT_COUNTER, 2);
    uint64_t ext = HNS3_PMU_SLOT_REG(EVENT_EXT_COUNTER, 2);
    Pmu p;

    pmu_init(&p, "", NULL);
    hisi_wrq(&p, cnt, 0x1122334455667788ull);
    g_assert_cmphex(hisi_rd(&p, cnt), ==, 0x55667788);
    g_assert_cmphex(hisi_rd(&p, cnt + 4), ==, 0x11223344);
    hisi_wr(&p, cnt + 4, 0xcafef00d);
    g_assert_cmphex(hisi_rdq(&p, cnt), ==, 0xcafef00d55667788ull);
    hisi_wr(&p, ext + 4, 0xdeadbeef);
    hisi_wr(&p, ext, 0x01020304);
    g_assert_cmphex(hisi_rdq(&p, ext), ==, 0xdeadbeef01020304ull);
    hisi_fini(&p);
}

/* An RCiEP, as the device's driver and lspci find it */
static void test_rciep(void)
{
    Pmu p;

    pmu_init(&p, "", NULL);
    hisi_assert_rciep(&p);
    hisi_fini(&p);
}

/* Bad offsets, widths and writes are logged and change nothing. */
static void test_bad_accesses(void)
{
    static const uint32_t read_only[] = {
        A_CLOCK_FREQ, A_BDF, A_VERSION, A_DEVICE_ID,
    };
    uint32_t pps = pmu_event(PPS_SSU_RPU, MODE_GLOBAL);
    HisiSnapshot before = { 0 };
    uint64_t cnt, ext;
    Pmu p;

    pmu_init(&p, "", NULL);
    /* a state to keep: slots set up, one loaded */
    hisi_wr(&p, HNS3_PMU_SLOT_REG(EVENT_CTRL_LOW, 0), pps);
    hisi_wr(&p, HNS3_PMU_SLOT_REG(EVENT_CTRL_LOW, 1), pps);
    hisi_wrq(&p, HNS3_PMU_SLOT_REG(EVENT_COUNTER, 1), 0x1122334455667788ull);
    pmu_snapshot_all(&before);
    hisi_snapshot_take(&p, &before);

    g_assert_cmphex(qpci_io_readw(p.dev, p.bar,
                                  HNS3_PMU_SLOT_REG(EVENT_CTRL_LOW, 0)), ==, 0);
    g_assert_cmphex(qpci_io_readq(p.dev, p.bar,
                                  HNS3_PMU_SLOT_REG(EVENT_CTRL_LOW, 0)), ==, 0);
    hisi_assert_no_guest_error(&p);
    g_assert_cmphex(hisi_rd(&p, UNKNOWN_REG), ==, 0);
    hisi_assert_guest_error(&p, "hns3-pmu: read of unknown register "
                            "0x0100\n");
    g_assert_cmphex(hisi_rd(&p, UNKNOWN_SLOT_REG(3)), ==, 0);
    hisi_assert_guest_errorf(&p, "hns3-pmu: read of unknown register 0x%04x "
                             "of event slot 3\n",
                             A_EVENT_CTRL_LOW + 0x40);
    hisi_wr(&p, HNS3_PMU_SLOT_REG(EVENT_INTR_STATUS, 0), 1);
    g_assert_cmphex(hisi_rd(&p, HNS3_PMU_SLOT_REG(EVENT_INTR_STATUS, 0)), ==,
                    0);
    hisi_assert_guest_error(&p, "hns3-pmu: slot 0: the interrupt status is "
                            "cleared by EVENT_CTRL_LOW bit 11, not written");
    qpci_io_writew(p.dev, p.bar, A_GLOBAL_CTRL, R_GLOBAL_CTRL_START_MASK);
    g_assert_cmphex(hisi_rd(&p, A_GLOBAL_CTRL), ==, 0);
    qpci_io_writeq(p.dev, p.bar, HNS3_PMU_SLOT_REG(EVENT_CTRL_LOW, 1), 0);
    hisi_wr(&p, UNKNOWN_REG, 0xffffffff);
    hisi_assert_guest_error(&p, "hns3-pmu: write to unknown register 0x0100 "
                            "ignored\n");
    hisi_wr(&p, UNKNOWN_SLOT_REG(3), 0xffffffff);
    hisi_assert_guest_errorf(&p, "hns3-pmu: write to unknown register 0x%04x "
                             "of event slot 3 ignored\n",
                             A_EVENT_CTRL_LOW + 0x40);
    for (int i = 0; i < ARRAY_SIZE(read_only); i++) {
        hisi_wr(&p, read_only[i], 0x12345678);
        hisi_assert_guest_errorf(&p, "hns3-pmu: write to read-only register "
                                 "0x%04x ignored\n", read_only[i]);
    }
    g_assert_cmpuint(hisi_rd(&p, A_CLOCK_FREQ), ==, 1000000000);
    hisi_snapshot_assert_same(&p, &before);

    /* The PMU still counts exactly. */
    pmu_count(&p, pps, 0, 1000000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 2000);
    hisi_fini(&p);
}

static void test_migration(void)
{
    uint32_t pps = pmu_event(PPS_SSU_RPU, MODE_GLOBAL) |
                   R_EVENT_CTRL_LOW_EN_MASK;
    uint64_t cnt;
    Pmu src, dst;

    pmu_init(&src, "", NULL);
    hisi_wr(&src, HNS3_PMU_SLOT_REG(EVENT_CTRL_LOW, 2), pps);
    hisi_wr(&src, HNS3_PMU_SLOT_REG(EVENT_INTR_MASK, 2), 0);
    hisi_wr(&src, A_GLOBAL_CTRL, R_GLOBAL_CTRL_START_MASK);
    qtest_clock_step(src.qts, 1000 * 1000);
    cnt = hisi_rdq(&src, HNS3_PMU_SLOT_REG(EVENT_COUNTER, 2));
    g_assert_cmpuint(cnt, ==, 2000);
    hisi_migrate(&src, &dst, pmu_init);
    g_assert_cmphex(hisi_rd(&dst, HNS3_PMU_SLOT_REG(EVENT_CTRL_LOW, 2)), ==,
                    pps);
    g_assert_cmphex(hisi_rd(&dst, HNS3_PMU_SLOT_REG(EVENT_INTR_MASK, 2)), ==,
                    0);
    g_assert_cmpuint(hisi_rdq(&dst, HNS3_PMU_SLOT_REG(EVENT_COUNTER, 2)), ==,
                     cnt);
    qtest_clock_step(dst.qts, 1000 * 1000);
    g_assert_cmpuint(hisi_rdq(&dst, HNS3_PMU_SLOT_REG(EVENT_COUNTER, 2)), ==,
                     cnt + 2000);
    hisi_fini(&dst);
    hisi_fini(&src);
}

/*
 * A destination refuses an hns3-pmu section of version 1 (the layout
 * before the PMU engine, which it would misread); the same stream at
 * version 2 loads.
 */
static void test_stream_old_version_refused(void)
{
    hisi_assert_old_section_refused(pmu_init, "hns3-pmu", 2);
}

/*
 * A destination that has counted NIC traffic of its own before the state
 * comes in: the state replaces what it counted, and its streams' memory
 * goes (LeakSanitizer checks that in the sanitize suite).
 */
static void test_migration_into_counted(void)
{
    uint32_t pps = pmu_event(PPS_SSU_RPU, MODE_GLOBAL) |
                   R_EVENT_CTRL_LOW_EN_MASK;
    uint32_t bytes = pmu_event(BW_SSU_RPU, MODE_GLOBAL) |
                     R_EVENT_CTRL_LOW_EN_MASK;
    Pmu src, dst;

    pmu_init(&src, "", NULL);
    hisi_wr(&src, HNS3_PMU_SLOT_REG(EVENT_CTRL_LOW, 2), pps);
    hisi_wr(&src, A_GLOBAL_CTRL, R_GLOBAL_CTRL_START_MASK);
    qtest_clock_step(src.qts, 1000 * 1000);

    pmu_init(&dst, "", "-incoming", "defer", NULL);
    hisi_wr(&dst, HNS3_PMU_SLOT_REG(EVENT_CTRL_LOW, 5), bytes);
    hisi_wr(&dst, A_GLOBAL_CTRL, R_GLOBAL_CTRL_START_MASK);
    qtest_clock_step(dst.qts, 100 * 1000);
    g_assert_cmpuint(hisi_rdq(&dst, HNS3_PMU_SLOT_REG(EVENT_COUNTER, 5)), >,
                     0);

    hisi_migrate_into(src.qts, dst.qts);
    g_assert_cmphex(hisi_rd(&dst, HNS3_PMU_SLOT_REG(EVENT_CTRL_LOW, 5)), ==,
                    0);
    g_assert_cmpuint(hisi_rdq(&dst, HNS3_PMU_SLOT_REG(EVENT_COUNTER, 2)), ==,
                     2000);
    qtest_clock_step(dst.qts, 1000 * 1000);
    g_assert_cmpuint(hisi_rdq(&dst, HNS3_PMU_SLOT_REG(EVENT_COUNTER, 2)), ==,
                     4000);
    hisi_fini(&dst);
    hisi_fini(&src);
}

/* Every slot's counters, overflow status and settings */
static void pmu_twin_log_counters(Pmu *p, HisiTwinLog *log)
{
    static const struct {
        const char *name;
        uint64_t off;
    } regs[] = {
        { "EVENT_CTRL_LOW", A_EVENT_CTRL_LOW },
        { "EVENT_CTRL_HIGH", A_EVENT_CTRL_HIGH },
        { "EVENT_INTR_MASK", A_EVENT_INTR_MASK },
        { "EVENT_QID_CTRL", A_EVENT_QID_CTRL },
        { "EVENT_QID_PARA", A_EVENT_QID_PARA },
    };

    hisi_twin_log(log, "GLOBAL_CTRL", hisi_rd(p, A_GLOBAL_CTRL));
    for (int i = 0; i < HNS3_PMU_SLOTS; i++) {
        for (int r = 0; r < ARRAY_SIZE(regs); r++) {
            hisi_twin_log_at(log, regs[r].name, i,
                             hisi_rd(p, HISI_REG_AT(HNS3_PMU_SLOT_BASE,
                                                    HNS3_PMU_SLOT_SIZE, i) +
                                        regs[r].off));
        }
        hisi_twin_log_at(log, "EVENT_COUNTER", i,
                         hisi_rdq(p, HNS3_PMU_SLOT_REG(EVENT_COUNTER, i)));
        hisi_twin_log_at(log, "EVENT_EXT_COUNTER", i,
                         hisi_rdq(p, HNS3_PMU_SLOT_REG(EVENT_EXT_COUNTER,
                                                       i)));
        hisi_twin_log_at(log, "EVENT_INTR_STATUS", i,
                         hisi_rd(p, HNS3_PMU_SLOT_REG(EVENT_INTR_STATUS,
                                                      i)));
    }
}

/* perf starts slot 1, its interrupt unmasked: it counts, no overflow */
static void pmu_twin_start_slot_1(Pmu *p, HisiTwinLog *log)
{
    hisi_wr(p, HNS3_PMU_SLOT_REG(EVENT_CTRL_LOW, 1),
            pmu_event(DLY_RPU, MODE_GLOBAL) | R_EVENT_CTRL_LOW_EN_MASK);
    hisi_wr(p, HNS3_PMU_SLOT_REG(EVENT_INTR_MASK, 1), 0);
    /* no second MSI for the overflow still pending */
    g_assert_false(hisi_twin_log(log, "MSI", hisi_msi_taken(p)));
}

/*
 * One run: slot 0 brought to its overflow in small clock steps, and there
 * (migrated if @migrate) its status set and its MSI in RAM, not taken;
 * slot 3 due to overflow 50 packets later, slot 2 counting bytes all
 * along. Then the driver: takes the MSI, starts another event (first, or
 * if @timer_first after slot 3's overflow), lets slot 3's overflow come by
 * the clock alone (its MSI from the device's timer), clears both statuses
 * with the STATUS_RESET pulse, and reads the counters over a few more
 * steps. What it saw goes to @log.
 */
static void pmu_twin_run(bool timer_first, bool migrate, HisiTwinLog *log)
{
    uint32_t pps = pmu_event(PPS_SSU_RPU, MODE_GLOBAL) |
                   R_EVENT_CTRL_LOW_EN_MASK;
    static const int64_t steps[] = { 1, 999, 33333, 1000 * 1000 + 17 };
    Pmu src, dst, *p = &src;
    int polls;

    pmu_init(p, "", NULL);
    qtest_clock_step(p->qts, 7919);
    hisi_wr(p, HNS3_PMU_SLOT_REG(EVENT_CTRL_LOW, 2),
            pmu_event(BW_SSU_RPU, MODE_GLOBAL) | R_EVENT_CTRL_LOW_EN_MASK);
    hisi_wr(p, HNS3_PMU_SLOT_REG(EVENT_CTRL_LOW, 3), pps);
    hisi_wrq(p, HNS3_PMU_SLOT_REG(EVENT_COUNTER, 3), -60ull);
    hisi_wr(p, HNS3_PMU_SLOT_REG(EVENT_INTR_MASK, 3), 0);
    /* slot 4: packets of port 0, TC 1, after the driver's QID check */
    hisi_wr(p, HNS3_PMU_SLOT_REG(EVENT_QID_PARA, 4),
            pmu_qid_para(EDU_DEVFN, 1));
    hisi_wr(p, HNS3_PMU_SLOT_REG(EVENT_QID_CTRL, 4),
            R_EVENT_QID_CTRL_REQ_MASK);
    hisi_wr(p, HNS3_PMU_SLOT_REG(EVENT_CTRL_HIGH, 4), pmu_port_tc(0, 1));
    hisi_wr(p, HNS3_PMU_SLOT_REG(EVENT_CTRL_LOW, 4),
            pmu_event(PPS_SSU_RPU, MODE_PORT_TC) | R_EVENT_CTRL_LOW_EN_MASK);
    pmu_start_near_overflow(p);
    for (polls = 0; !pmu_overflow_pending(p, 0); polls++) {
        g_assert_cmpint(polls, <, 1000);
        qtest_clock_step(p->qts, 97);
    }
    hisi_twin_log(log, "polls to the overflow", polls);
    g_assert_cmphex(qtest_readl(p->qts, HISI_MSI_ADDR), ==, HISI_MSI_DATA);
    /* Counted up to this odd time */
    pmu_twin_log_counters(p, log);
    if (migrate) {
        pmu_init(&dst, "", "-incoming", "defer", NULL);
        hisi_migrate_into(src.qts, dst.qts);
        hisi_fini(&src);
        p = &dst;
    }
    g_assert_true(hisi_twin_log(log, "MSI", hisi_msi_taken(p)));
    if (!timer_first) {
        pmu_twin_start_slot_1(p, log);
    }
    /* Slot 3's overflow, with no register access to find it */
    qtest_clock_step(p->qts, 50 * 1000);
    g_assert_true(hisi_twin_log(log, "MSI", hisi_msi_taken(p)));
    if (timer_first) {
        pmu_twin_start_slot_1(p, log);
    }
    pmu_twin_log_counters(p, log);
    g_assert_true(pmu_overflow_pending(p, 0));
    g_assert_true(pmu_overflow_pending(p, 3));
    /* the handler: the STATUS_RESET pulse for each status it finds */
    for (int i = 0; i < HNS3_PMU_SLOTS; i++) {
        if (pmu_overflow_pending(p, i)) {
            uint32_t ctrl = hisi_rd(p, HNS3_PMU_SLOT_REG(EVENT_CTRL_LOW, i));

            hisi_twin_log(log, "handled", i);
            hisi_wr(p, HNS3_PMU_SLOT_REG(EVENT_CTRL_LOW, i),
                    ctrl | R_EVENT_CTRL_LOW_STATUS_RESET_MASK);
            hisi_wr(p, HNS3_PMU_SLOT_REG(EVENT_CTRL_LOW, i), ctrl);
            g_assert_false(pmu_overflow_pending(p, i));
        }
    }
    for (int i = 0; i < ARRAY_SIZE(steps); i++) {
        qtest_clock_step(p->qts, steps[i]);
        pmu_twin_log_counters(p, log);
        hisi_twin_log(log, "MSI", hisi_msi_taken(p));
    }
    hisi_fini(p);
}

/*
 * Migrated with an overflow pending and its MSI not taken, the PMU goes
 * on as a twin that is not migrated: the status stays set until the
 * driver clears it, the MSI is there once, a timer's overflow comes on
 * time, and every counter then counts the same. @data: whether the next
 * overflow comes before the driver's next register write, which would
 * re-arm the timer.
 */
static void test_migration_overflow_pending(gconstpointer data)
{
    bool timer_first = GPOINTER_TO_INT(data);
    HisiTwinLog twin, migrated;

    hisi_twin_init(&twin);
    hisi_twin_init(&migrated);
    pmu_twin_run(timer_first, false, &twin);
    pmu_twin_run(timer_first, true, &migrated);
    hisi_twin_assert_same(&migrated, &twin);
    hisi_twin_free(&migrated);
    hisi_twin_free(&twin);
}

static const HisiRefusal bad_properties[] = {
    { "clock-freq-0", { "-device", "hns3-pmu,clock-freq=0" },
      "clock-freq must be 1..1000000000 Hz (got 0)" },
    { "ports-9", { "-device", "hns3-pmu,ports=9" }, "ports must be 1..8" },
    { "tcs-0", { "-device", "hns3-pmu,tcs=0" }, "tcs must be 1..8" },
    { "queues-300", { "-device", "hns3-pmu,queues=300" },
      "queues must be 1..256" },
    { "bdf-range-across-buses",
      { "-device", "hns3-pmu,bdf-min=0x100,bdf-max=0x2ff" },
      "must be on one bus" },
    { "same-sicl-twice",
      { "-device", "hns3-pmu,addr=0xa,sicl-id=3",
        "-device", "hns3-pmu,addr=0xb,sicl-id=3" },
      "another hns3-pmu already has sicl-id=3" },
};

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/hns3-pmu/reset-values", test_reset_values);
    qtest_add_func("/hns3-pmu/exact-packets", test_exact_packets);
    qtest_add_func("/hns3-pmu/max-queues", test_max_queues);
    qtest_add_func("/hns3-pmu/exact-bandwidth", test_exact_bandwidth);
    qtest_add_func("/hns3-pmu/exact-rpu-latency", test_exact_rpu_latency);
    qtest_add_func("/hns3-pmu/exact-interrupts", test_exact_interrupts);
    qtest_add_func("/hns3-pmu/no-count-without-start",
                   test_no_count_without_start);
    qtest_add_func("/hns3-pmu/no-count-without-event-enable",
                   test_no_count_without_event_enable);
    qtest_add_func("/hns3-pmu/filter-port", test_filter_port);
    qtest_add_func("/hns3-pmu/filter-port-functions",
                   test_filter_port_functions);
    qtest_add_func("/hns3-pmu/filter-port-tc", test_filter_port_tc);
    qtest_add_func("/hns3-pmu/filter-port-tc-absent-ports",
                   test_filter_port_tc_absent_ports);
    qtest_add_func("/hns3-pmu/filter-func", test_filter_func);
    qtest_add_func("/hns3-pmu/root-bus-function", test_root_bus_function);
    qtest_add_func("/hns3-pmu/root-port-in-range-function",
                   test_root_port_in_range_function);
    qtest_add_func("/hns3-pmu/qid-check", test_qid_check);
    qtest_add_func("/hns3-pmu/qid-check-second-function",
                   test_qid_check_second_function);
    qtest_add_func("/hns3-pmu/filter-func-queue", test_filter_func_queue);
    qtest_add_func("/hns3-pmu/mode-not-taken", test_mode_not_taken);
    qtest_add_func("/hns3-pmu/unknown-event", test_unknown_event);
    qtest_add_func("/hns3-pmu/overflow-msi-when-due",
                   test_overflow_msi_when_due);
    qtest_add_data_func("/hns3-pmu/overflow-msi-when-due-bytes",
                        GINT_TO_POINTER(BW_SSU_RPU),
                        test_overflow_msi_when_due_of);
    qtest_add_data_func("/hns3-pmu/overflow-msi-when-due-delay",
                        GINT_TO_POINTER(DLY_RPU),
                        test_overflow_msi_when_due_of);
    static const OverflowCase at_wrap[] = {
        { PPS_SSU_RPU, 10 }, { BW_SSU_RPU, 1000 }, { DLY_RPU, 1000 },
        { PPS_SSU_RPU, 100, true }, { BW_SSU_RPU, 100, true },
    };
    static const char *const at_wrap_names[] = {
        "packets", "bytes", "delay", "packets-cycles", "bytes-cycles",
    };
    for (size_t i = 0; i < ARRAY_SIZE(at_wrap); i++) {
        g_autofree char *path = g_strdup_printf(
            "/hns3-pmu/overflow-msi-at-wrap/%s", at_wrap_names[i]);

        qtest_add_data_func(path, &at_wrap[i], test_overflow_msi_at_wrap);
    }
    qtest_add_func("/hns3-pmu/overflow-msi-when-due-slow-delay",
                   test_overflow_msi_when_due_slow_delay);
    qtest_add_func("/hns3-pmu/overflow-msi-longest-first",
                   test_overflow_msi_longest_first);
    qtest_add_func("/hns3-pmu/overflow-timer-delay-bound",
                   test_overflow_timer_delay_bound);
    qtest_add_func("/hns3-pmu/overflow-status-reset",
                   test_overflow_status_reset);
    qtest_add_func("/hns3-pmu/overflow-masked-msi-on-unmask",
                   test_overflow_masked_msi_on_unmask);
    qtest_add_func("/hns3-pmu/overflow-advance", test_overflow_advance);
    qtest_add_func("/hns3-pmu/rciep", test_rciep);
    qtest_add_func("/hns3-pmu/counter-halves", test_counter_halves);
    qtest_add_func("/hns3-pmu/bad-accesses", test_bad_accesses);
    qtest_add_func("/hns3-pmu/migration", test_migration);
    qtest_add_func("/hns3-pmu/stream-old-version-refused",
                   test_stream_old_version_refused);
    qtest_add_func("/hns3-pmu/migration-into-counted",
                   test_migration_into_counted);
    qtest_add_data_func("/hns3-pmu/migration-overflow-pending/"
                        "event-started", GINT_TO_POINTER(false),
                        test_migration_overflow_pending);
    qtest_add_data_func("/hns3-pmu/migration-overflow-pending/"
                        "next-overflow-by-timer", GINT_TO_POINTER(true),
                        test_migration_overflow_pending);
    qtest_add_data_func("/hns3-pmu/rule-changes-linear/rx", &queue_rx,
                        test_rule_changes_linear);
    qtest_add_data_func("/hns3-pmu/rule-changes-linear/tx", &queue_tx,
                        test_rule_changes_linear);
    qtest_add_func("/hns3-pmu/queues-join-at-change",
                   test_queues_join_at_change);
    qtest_add_func("/hns3-pmu/paused-stops-all-kinds",
                   test_paused_stops_all_kinds);
    qtest_add_func("/hns3-pmu/replug-counted-from-plug",
                   test_replug_counted_from_plug);
    qtest_add_func("/hns3-pmu/unplug-middle-keeps-others",
                   test_unplug_middle_keeps_others);
    qtest_add_func("/hns3-pmu/unplug-keeps-same-port",
                   test_unplug_keeps_same_port);
    qtest_add_func("/hns3-pmu/unplug-keeps-same-bdf",
                   test_unplug_keeps_same_bdf);
    qtest_add_func("/hns3-pmu/migration-hotplugged",
                   test_migration_hotplugged);
    qtest_add_func("/hns3-pmu/hotplug-counted-from-plug",
                   test_hotplug_counted_from_plug);
    hisi_add_refusals("/hns3-pmu/bad-properties", bad_properties,
                      ARRAY_SIZE(bad_properties));
    return g_test_run();
}
