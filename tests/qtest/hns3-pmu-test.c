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

#define PMU_DEVFN           QPCI_DEVFN(0xa, 0)

#define GLOBAL_CTRL         0x0000
#define CLOCK_FREQ          0x0020
#define REG_BDF             0x0fe0
#define REG_VERSION         0x0fe4
#define REG_DEVICE_ID       0x0fe8
#define SLOT(i)             (0x1000 + 0x1000 * (i))
#define CTRL_LOW(i)         (SLOT(i) + 0x00)
#define CTRL_HIGH(i)        (SLOT(i) + 0x04)
#define INTR_STATUS(i)      (SLOT(i) + 0x08)
#define INTR_MASK(i)        (SLOT(i) + 0x0c)
#define COUNTER(i)          (SLOT(i) + 0x10)
#define EXT_COUNTER(i)      (SLOT(i) + 0x18)
#define QID_CTRL(i)         (SLOT(i) + 0x28)
#define QID_PARA(i)         (SLOT(i) + 0x2c)

#define STATUS_RESET        BIT(11)
#define EVENT_EN            BIT(12)
#define OVERFLOW_RESTART    BIT(15)
#define MASK_OVERFLOW       BIT(1)
#define QID_REQ             BIT(0)
#define QID_DONE            BIT(1)
#define QID_MISS            BIT(2)

/* EVENT_CTRL_LOW as the driver writes it: type, subevent, filter mode */
#define EVENT(code, mode)   (((code) >> 8) | ((code) & 0xff) << 4 | \
                             (mode) << 24 | OVERFLOW_RESTART)
#define MODE_GLOBAL         0
#define MODE_PORT           1
#define MODE_PORT_TC        2
#define MODE_FUNC           3
#define MODE_FUNC_QUEUE     4

#define BW_SSU_RPU          0x0002
#define BW_RPU_RCBRX        0x0006
#define PPS_SSU_RPU         0x0102
#define DLY_RPU             0x020e
#define INTR_MSIX_NIC       0x0300

#define RULES "stream=nic-all,,rate=0;" \
              "stream=nic-rx,,rate=1000000,,len=100,,latency=400,,coalesce=10"

typedef HisiDev Pmu;

static void pmu_init(Pmu *p, const char *extra)
{
    g_autofree char *args = g_strdup_printf(
        /* quoted: QEMU is started by a shell */
        "-object 'hisi-traffic,id=t0,rules=" RULES "' "
        "-device pcie-root-port,id=rp0,bus=pcie.0,chassis=1,addr=0x10 "
        "-device edu,bus=rp0 "
        "-device hns3-pmu,bus=pcie.0,addr=0xa,traffic=t0,id=pmu,queues=2,"
        "tcs=2,clock-freq=1000000000%s", extra);

    hisi_init(p, PMU_DEVFN, args);
}

static uint64_t rdq(Pmu *p, uint32_t off)
{
    return qpci_io_readq(p->dev, p->bar, off);
}

static void wrq(Pmu *p, uint32_t off, uint64_t val)
{
    qpci_io_writeq(p->dev, p->bar, off, val);
}

/* Count @ctrl_low / @cond in slot 0 for @ns, as the driver does */
static void count(Pmu *p, uint32_t ctrl_low, uint32_t cond, int64_t ns,
                  uint64_t *cnt, uint64_t *ext)
{
    wr(p, CTRL_LOW(0), ctrl_low);
    wr(p, CTRL_HIGH(0), cond);
    wrq(p, COUNTER(0), 0);
    wrq(p, EXT_COUNTER(0), 0);
    wr(p, CTRL_LOW(0), ctrl_low | EVENT_EN);
    wr(p, GLOBAL_CTRL, 1);
    qtest_clock_step(p->qts, ns);
    wr(p, GLOBAL_CTRL, 0);
    *cnt = rdq(p, COUNTER(0));
    *ext = rdq(p, EXT_COUNTER(0));
    wr(p, CTRL_LOW(0), ctrl_low);
}

static void test_reset_values(void)
{
    Pmu p;

    pmu_init(&p, ",sicl-id=7,bdf-min=0x100,bdf-max=0x1ff,version=0x41");
    g_assert_cmphex(qpci_config_readw(p.dev, PCI_VENDOR_ID), ==, 0x19e5);
    g_assert_cmphex(qpci_config_readw(p.dev, PCI_DEVICE_ID), ==, 0xa22b);
    g_assert_cmphex(rd(&p, GLOBAL_CTRL), ==, 0);
    g_assert_cmpuint(rd(&p, CLOCK_FREQ), ==, 1000000000);
    g_assert_cmphex(rd(&p, REG_BDF), ==, 0x01ff0100);
    g_assert_cmphex(rd(&p, REG_VERSION), ==, 0x41);
    g_assert_cmphex(rd(&p, REG_DEVICE_ID), ==, 7);
    for (int i = 0; i < 8; i++) {
        g_assert_cmphex(rd(&p, CTRL_LOW(i)), ==, 0);
        g_assert_cmphex(rd(&p, INTR_STATUS(i)), ==, 0);
        g_assert_cmphex(rd(&p, INTR_MASK(i)), ==, MASK_OVERFLOW);
        g_assert_cmpuint(rdq(&p, COUNTER(i)), ==, 0);
        g_assert_cmpuint(rdq(&p, EXT_COUNTER(i)), ==, 0);
    }
    hisi_fini(&p);
}

/* Every class counts exactly what the traffic rules say. */
static void test_exact_counts(void)
{
    uint64_t cnt, ext;
    Pmu p;

    pmu_init(&p, "");
    /* 2 queues x 1000 packets of 100 bytes in 1 ms; 1e6 cycles */
    count(&p, EVENT(PPS_SSU_RPU, MODE_GLOBAL), 0, 1000000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 2000);
    g_assert_cmpuint(ext, ==, 1000000);
    count(&p, EVENT(BW_SSU_RPU, MODE_GLOBAL), 0, 1000000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 200000);
    g_assert_cmpuint(ext, ==, 1000000);
    /* the RPU's share of the latency: 25 % of 400 ns, per packet */
    count(&p, EVENT(DLY_RPU, MODE_GLOBAL), 0, 1000000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 2000 * 100);
    g_assert_cmpuint(ext, ==, 2000);
    /* one interrupt per 10 packets */
    count(&p, EVENT(INTR_MSIX_NIC, MODE_GLOBAL), 0, 1000000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 200);
    /* No count without GLOBAL_CTRL.START or EVENT_EN */
    wr(&p, CTRL_LOW(1), EVENT(PPS_SSU_RPU, MODE_GLOBAL) | EVENT_EN);
    qtest_clock_step(p.qts, 1000000);
    g_assert_cmpuint(rdq(&p, COUNTER(1)), ==, 0);
    wr(&p, CTRL_LOW(1), EVENT(PPS_SSU_RPU, MODE_GLOBAL));
    wr(&p, GLOBAL_CTRL, 1);
    qtest_clock_step(p.qts, 1000000);
    g_assert_cmpuint(rdq(&p, COUNTER(1)), ==, 0);
    hisi_fini(&p);
}

static void test_filters(void)
{
    uint64_t cnt, ext;
    Pmu p;

    pmu_init(&p, "");
    /* 01:00.0 is function 0: MAC port 0; queue 1 on TC 1 */
    count(&p, EVENT(PPS_SSU_RPU, MODE_PORT), BIT(0), 1000000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 2000);
    count(&p, EVENT(PPS_SSU_RPU, MODE_PORT), BIT(1), 1000000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 0);
    count(&p, EVENT(PPS_SSU_RPU, MODE_PORT_TC), 0 << 3 | 1, 1000000, &cnt,
          &ext);
    g_assert_cmpuint(cnt, ==, 1000);
    count(&p, EVENT(PPS_SSU_RPU, MODE_FUNC), 0x00, 1000000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 2000);
    count(&p, EVENT(PPS_SSU_RPU, MODE_FUNC), 0x01, 1000000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 0);
    /* The QID check answers at once: queue 1 exists, queue 2 does not */
    wr(&p, QID_PARA(0), 0x00 | 1 << 16);
    wr(&p, QID_CTRL(0), QID_REQ);
    g_assert_cmphex(rd(&p, QID_CTRL(0)), ==, QID_DONE);
    wr(&p, QID_CTRL(0), 0);
    g_assert_cmphex(rd(&p, QID_CTRL(0)), ==, 0);
    wr(&p, QID_PARA(0), 0x00 | 2 << 16);
    wr(&p, QID_CTRL(0), QID_REQ);
    g_assert_cmphex(rd(&p, QID_CTRL(0)), ==, QID_DONE | QID_MISS);
    wr(&p, QID_CTRL(0), 0);
    wr(&p, QID_PARA(0), 0x00 | 1 << 16);
    count(&p, EVENT(PPS_SSU_RPU, MODE_FUNC_QUEUE), 0x00, 1000000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 1000);
    /* A mode the event does not take (rpu_rcbrx: global, func-queue) */
    count(&p, EVENT(BW_RPU_RCBRX, MODE_FUNC), 0x00, 1000000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 0);
    /* An unknown event counts nothing and harms nothing */
    count(&p, EVENT(0x0307, MODE_GLOBAL), 0, 1000000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 0);
    hisi_fini(&p);
}

static void test_overflow(void)
{
    uint32_t pps = EVENT(PPS_SSU_RPU, MODE_GLOBAL);
    Pmu p;

    pmu_init(&p, "");
    msi_taken(&p);
    wr(&p, CTRL_LOW(0), pps | EVENT_EN);
    wrq(&p, COUNTER(0), -10ull);          /* 10 packets (5 us) to go */
    wr(&p, INTR_MASK(0), 0);
    wr(&p, GLOBAL_CTRL, 1);
    qtest_clock_step(p.qts, 2000);
    g_assert_cmphex(rd(&p, INTR_STATUS(0)), ==, 0);
    g_assert_false(msi_taken(&p));
    /* The timer raises it when due, without a read; the count restarts */
    qtest_clock_step(p.qts, 10000);
    g_assert_true(msi_taken(&p));
    g_assert_cmphex(rd(&p, INTR_STATUS(0)), !=, 0);
    g_assert_cmpuint(rdq(&p, COUNTER(0)), <, 20);
    /* The driver's clear: pulse STATUS_RESET; it does not stay set */
    wr(&p, CTRL_LOW(0), pps | EVENT_EN | STATUS_RESET);
    wr(&p, CTRL_LOW(0), pps | EVENT_EN);
    g_assert_cmphex(rd(&p, INTR_STATUS(0)), ==, 0);
    g_assert_cmphex(rd(&p, CTRL_LOW(0)), ==, pps | EVENT_EN);
    /* Masked: the status, no MSI; unmasking sends it */
    wr(&p, INTR_MASK(0), MASK_OVERFLOW);
    wrq(&p, COUNTER(0), -10ull);
    qtest_clock_step(p.qts, 10000);
    g_assert_cmphex(rd(&p, INTR_STATUS(0)), !=, 0);
    g_assert_false(msi_taken(&p));
    wr(&p, INTR_MASK(0), 0);
    g_assert_true(msi_taken(&p));
    /* Fault injection: advance a counter over QMP, 808 packets short */
    wr(&p, CTRL_LOW(0), pps | EVENT_EN | STATUS_RESET);
    wrq(&p, COUNTER(0), 1ull << 63);
    qtest_qmp_assert_success(p.qts, "{'execute': 'qom-set', 'arguments': "
                             "{'path': 'pmu', 'property': 'advance', "
                             "'value': '0=9223372036854775000'}}");
    qtest_clock_step(p.qts, 300000);
    g_assert_false(msi_taken(&p));
    qtest_clock_step(p.qts, 200000);
    g_assert_true(msi_taken(&p));
    hisi_fini(&p);
}

/* Bad offsets, widths and writes are logged and change nothing. */
static void test_bad_accesses(void)
{
    Pmu p;

    pmu_init(&p, "");
    g_assert_cmphex(qpci_io_readw(p.dev, p.bar, CTRL_LOW(0)), ==, 0);
    g_assert_cmphex(qpci_io_readq(p.dev, p.bar, CTRL_LOW(0)), ==, 0);
    g_assert_cmphex(rd(&p, 0x0100), ==, 0);
    g_assert_cmphex(rd(&p, SLOT(3) + 0x40), ==, 0);
    wr(&p, CLOCK_FREQ, 5);
    g_assert_cmpuint(rd(&p, CLOCK_FREQ), ==, 1000000000);
    wr(&p, INTR_STATUS(0), 1);
    g_assert_cmphex(rd(&p, INTR_STATUS(0)), ==, 0);
    qpci_io_writew(p.dev, p.bar, GLOBAL_CTRL, 1);
    g_assert_cmphex(rd(&p, GLOBAL_CTRL), ==, 0);
    hisi_fini(&p);
}

static void test_migration(void)
{
    uint32_t pps = EVENT(PPS_SSU_RPU, MODE_GLOBAL) | EVENT_EN;
    uint64_t cnt;
    Pmu src, dst;

    pmu_init(&src, "");
    wr(&src, CTRL_LOW(2), pps);
    wr(&src, INTR_MASK(2), 0);
    wr(&src, GLOBAL_CTRL, 1);
    qtest_clock_step(src.qts, 1000 * 1000);
    cnt = rdq(&src, COUNTER(2));
    g_assert_cmpuint(cnt, ==, 2000);
    hisi_migrate(&src, &dst, pmu_init);
    g_assert_cmphex(rd(&dst, CTRL_LOW(2)), ==, pps);
    g_assert_cmphex(rd(&dst, INTR_MASK(2)), ==, 0);
    g_assert_cmpuint(rdq(&dst, COUNTER(2)), ==, cnt);
    qtest_clock_step(dst.qts, 1000 * 1000);
    g_assert_cmpuint(rdq(&dst, COUNTER(2)), ==, cnt + 2000);
    hisi_fini(&dst);
    hisi_fini(&src);
}

static void test_bad_properties(void)
{
    hisi_assert_refused("-device hns3-pmu,clock-freq=0",
                        "clock-freq must be 1..1000000000 Hz (got 0)");
    hisi_assert_refused("-device hns3-pmu,ports=9", "ports must be 1..8");
    hisi_assert_refused("-device hns3-pmu,tcs=0", "tcs must be 1..8");
    hisi_assert_refused("-device hns3-pmu,queues=300", "queues must be 1..256");
    hisi_assert_refused("-device hns3-pmu,bdf-min=0x100,bdf-max=0x2ff",
                        "must be on one bus");
    hisi_assert_refused("-device hns3-pmu,addr=0xa,sicl-id=3 "
                        "-device hns3-pmu,addr=0xb,sicl-id=3",
                        "another hns3-pmu already has sicl-id=3");
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/hns3-pmu/reset-values", test_reset_values);
    qtest_add_func("/hns3-pmu/exact-counts", test_exact_counts);
    qtest_add_func("/hns3-pmu/filters", test_filters);
    qtest_add_func("/hns3-pmu/overflow", test_overflow);
    qtest_add_func("/hns3-pmu/bad-accesses", test_bad_accesses);
    qtest_add_func("/hns3-pmu/migration", test_migration);
    qtest_add_func("/hns3-pmu/bad-properties", test_bad_properties);
    return g_test_run();
}
