/*
 * QTest: HiSilicon PCIe PMU (hisi-pcie-pmu) registers and counts
 *
 * Counts follow the hisi-traffic object; the tests set its rules so that
 * exact values can be asserted after virtual clock steps. The last test
 * checks that a hisi-ptt on the same traffic traces what the PMU counts.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bitops.h"
#include "hisi-qtest.h"

#define PMU_DEVFN           QPCI_DEVFN(9, 0)
#define PTT_DEVFN           QPCI_DEVFN(8, 0)
#define EDU_BDF             0x0100

#define GLOBAL_CTRL         0x000
#define EVENT_CTRL(i)       (0x010 + 8 * (i))
#define CNT(i)              (0x090 + 8 * (i))
#define EXT_CNT(i)          (0x110 + 8 * (i))
#define INT_STAT(i)         (0x150 + 8 * (i))
#define INT_MASK(i)         (0x154 + 8 * (i))
#define REG_BDF             0xfe0
#define REG_VERSION         0xfe4
#define REG_INFO            0xfe8

#define EV_EN               BIT_ULL(20)
#define EV_RESET_CNT        BIT_ULL(22)
#define EV_THR(len, below)  (BIT_ULL(26) | (uint64_t)(below) << 27 | \
                             (uint64_t)(len) << 28)
#define EV_TARGET_BDF(bdf)  (BIT_ULL(32) | (uint64_t)(bdf) << 36)
#define EV_PORTS(mask)      ((uint64_t)(mask) << 36)
#define EV_LEN(mode)        ((uint64_t)(mode) << 34)
#define EV_TRIG(len, below) (BIT_ULL(52) | (uint64_t)(below) << 53 | \
                             (uint64_t)(len) << 56)

#define RX_MWR_LATENCY      0x0010
#define RX_MWR_FLUX         0x0104
#define TX_MRD_LATENCY      0x0011


/* The edu endpoint's DMA writes: 1 per us, 16 DW, 500 ns */
#define RULES "stream=dma-write,,rate=1000000,,len=16,,latency=500"

typedef HisiDev Pmu;

static void pmu_init(Pmu *p, const char *extra)
{
    g_autofree char *args = g_strdup_printf(
        "-object hisi-traffic,id=t0,rules=" RULES " "
        "-device pcie-root-port,id=rp0,bus=pcie.0,chassis=1,addr=0x10 "
        "-device edu,bus=rp0 "
        "-device hisi-pcie-pmu,bus=pcie.0,addr=0x9,traffic=t0,id=pmu%s",
        extra);

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

/* Count @ctrl on counter 0 for @ns of virtual time, as the driver starts */
static void count(Pmu *p, uint64_t ctrl, int64_t ns, uint64_t *cnt,
                  uint64_t *ext)
{
    wrq(p, EVENT_CTRL(0), EV_RESET_CNT);
    wrq(p, EVENT_CTRL(0), ctrl);
    wrq(p, EVENT_CTRL(0), ctrl | EV_EN);
    wr(p, GLOBAL_CTRL, 1);
    qtest_clock_step(p->qts, ns);
    wr(p, GLOBAL_CTRL, 0);
    *cnt = rdq(p, CNT(0));
    *ext = rdq(p, EXT_CNT(0));
    wrq(p, EVENT_CTRL(0), 0);
}

static void test_reset_values(void)
{
    Pmu p;

    pmu_init(&p, ",sicl-id=4,core-id=6,bdf-min=0x80,bdf-max=0x9f,"
             "version=0x31");
    g_assert_cmphex(qpci_config_readw(p.dev, PCI_DEVICE_ID), ==, 0xa12d);
    g_assert_cmphex(rd(&p, GLOBAL_CTRL), ==, 0);
    for (int i = 0; i < 8; i++) {
        g_assert_cmphex(rdq(&p, EVENT_CTRL(i)), ==, 0);
        g_assert_cmphex(rdq(&p, CNT(i)), ==, 0);
        g_assert_cmphex(rdq(&p, EXT_CNT(i)), ==, 0);
        g_assert_cmphex(rd(&p, INT_STAT(i)), ==, 0);
        g_assert_cmphex(rd(&p, INT_MASK(i)), ==, 1);
    }
    g_assert_cmphex(rd(&p, REG_BDF), ==, 0x009f0080);
    g_assert_cmphex(rd(&p, REG_VERSION), ==, 0x31);
    g_assert_cmphex(rd(&p, REG_INFO), ==, 0x00040006);
    hisi_fini(&p);
}

static void test_access_widths(void)
{
    Pmu p;

    pmu_init(&p, "");
    wrq(&p, CNT(3), 0x1122334455667788ull);
    g_assert_cmphex(rd(&p, CNT(3)), ==, 0x55667788);
    g_assert_cmphex(rd(&p, CNT(3) + 4), ==, 0x11223344);
    wr(&p, EXT_CNT(5) + 4, 0xdeadbeef);
    wr(&p, EXT_CNT(5), 0x01020304);
    g_assert_cmphex(rdq(&p, EXT_CNT(5)), ==, 0xdeadbeef01020304ull);
    wrq(&p, EVENT_CTRL(7), 0x0f00000400000104ull);
    g_assert_cmphex(rdq(&p, EVENT_CTRL(7)), ==, 0x0f00000400000104ull);
    /* 64-bit access to a 32-bit register, byte accesses: ignored */
    wrq(&p, INT_STAT(0), 0);
    qpci_io_writeb(p.dev, p.bar, INT_MASK(1), 0);
    g_assert_cmphex(rd(&p, INT_MASK(0)), ==, 1);
    g_assert_cmphex(rd(&p, INT_MASK(1)), ==, 1);
    g_assert_cmphex(qpci_io_readb(p.dev, p.bar, REG_INFO), ==, 0);
    g_assert_cmphex(rd(&p, 0xff0), ==, 0);
    hisi_fini(&p);
}

static void test_gating_and_exact_counts(void)
{
    uint64_t lat = RX_MWR_LATENCY | EV_PORTS(1) | EV_LEN(3);
    uint64_t cnt, ext;
    Pmu p;

    pmu_init(&p, "");
    /* No GLOBAL_CTRL: nothing */
    wrq(&p, EVENT_CTRL(0), lat | EV_EN);
    qtest_clock_step(p.qts, 1000 * 1000);
    g_assert_cmpuint(rdq(&p, EXT_CNT(0)), ==, 0);
    /* No EVENT_EN: nothing */
    wrq(&p, EVENT_CTRL(0), lat);
    wr(&p, GLOBAL_CTRL, 1);
    qtest_clock_step(p.qts, 1000 * 1000);
    g_assert_cmpuint(rdq(&p, EXT_CNT(0)), ==, 0);
    wr(&p, GLOBAL_CTRL, 0);
    /* 1 ms at one TLP per us, 500 ns each */
    count(&p, lat, 1000 * 1000, &cnt, &ext);
    g_assert_cmpuint(ext, ==, 1000);
    g_assert_cmpuint(cnt, ==, 1000 * 500);
    /* Bandwidth: 64 bytes of payload + 16 of header, time in ns */
    count(&p, RX_MWR_FLUX | EV_PORTS(1) | EV_LEN(3), 1000 * 1000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 1000 * 80);
    g_assert_cmpuint(ext, ==, 1000 * 1000);
    count(&p, RX_MWR_FLUX | EV_PORTS(1) | EV_LEN(1), 1000 * 1000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 1000 * 64);
    count(&p, RX_MWR_FLUX | EV_PORTS(1) | EV_LEN(2), 1000 * 1000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 1000 * 16);
    /* RESET_CNT zeroes both */
    wrq(&p, CNT(0), 12345);
    wrq(&p, EVENT_CTRL(0), EV_RESET_CNT);
    g_assert_cmpuint(rdq(&p, CNT(0)), ==, 0);
    hisi_fini(&p);
}

static void test_filters(void)
{
    uint64_t cnt, ext;
    Pmu p;

    pmu_init(&p, "");
    /* Another port, another endpoint, another kind: nothing */
    count(&p, RX_MWR_FLUX | EV_PORTS(4), 1000 * 1000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 0);
    count(&p, RX_MWR_FLUX | EV_TARGET_BDF(EDU_BDF + 1), 1000 * 1000, &cnt,
          &ext);
    g_assert_cmpuint(cnt, ==, 0);
    count(&p, RX_MWR_FLUX | EV_TARGET_BDF(EDU_BDF) | EV_LEN(1), 1000 * 1000,
          &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 1000 * 64);
    /* tx_mrd: the built-in 10000 MMIO reads/s, 1200 ns each */
    count(&p, TX_MRD_LATENCY | EV_PORTS(1), 1000 * 1000, &cnt, &ext);
    g_assert_cmpuint(ext, >=, 9);
    g_assert_cmpuint(ext, <=, 11);
    g_assert_cmpuint(cnt, ==, ext * 1200);
    /* Threshold on the 16 DW TLPs */
    count(&p, RX_MWR_FLUX | EV_PORTS(1) | EV_LEN(1) | EV_THR(4, 0),
          1000 * 1000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 1000 * 64);
    count(&p, RX_MWR_FLUX | EV_PORTS(1) | EV_LEN(1) | EV_THR(4, 1),
          1000 * 1000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 0);
    count(&p, RX_MWR_FLUX | EV_PORTS(1) | EV_LEN(1) | EV_THR(5, 1),
          1000 * 1000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 1000 * 64);
    /* Trigger: starts at a TLP longer than 8 DW, never at one above 16 */
    count(&p, RX_MWR_FLUX | EV_PORTS(1) | EV_LEN(1) | EV_TRIG(3, 0),
          1000 * 1000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 1000 * 64);
    count(&p, RX_MWR_FLUX | EV_PORTS(1) | EV_LEN(1) | EV_TRIG(4, 0),
          1000 * 1000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 0);
    g_assert_cmpuint(ext, ==, 0);
    hisi_fini(&p);
}

static void test_overflow(void)
{
    uint64_t lat = RX_MWR_LATENCY | EV_PORTS(1);
    Pmu p;

    pmu_init(&p, "");
    msi_taken(&p);
    wrq(&p, EVENT_CTRL(0), lat | EV_EN);
    wrq(&p, CNT(0), -2000ull);            /* 4 TLPs of 500 ns to go */
    wr(&p, INT_MASK(0), 0);
    wr(&p, GLOBAL_CTRL, 1);
    qtest_clock_step(p.qts, 500);
    g_assert_cmphex(rd(&p, INT_STAT(0)), ==, 0);
    g_assert_false(msi_taken(&p));
    /* The timer raises it when due, without a read */
    qtest_clock_step(p.qts, 4000);
    g_assert_true(msi_taken(&p));
    g_assert_cmphex(rd(&p, INT_STAT(0)), ==, 1);
    g_assert_cmpuint(rdq(&p, CNT(0)), <, 2000);
    wr(&p, INT_STAT(0), 1);                /* W1C */
    g_assert_cmphex(rd(&p, INT_STAT(0)), ==, 0);
    /* Masked: the status, no MSI; unmasking sends it */
    wr(&p, INT_MASK(0), 1);
    wrq(&p, CNT(0), -500ull);
    qtest_clock_step(p.qts, 2000);
    g_assert_cmphex(rd(&p, INT_STAT(0)), ==, 1);
    g_assert_false(msi_taken(&p));
    wr(&p, INT_MASK(0), 0);
    g_assert_true(msi_taken(&p));
    hisi_fini(&p);
}

/*
 * The bytes the PMU counts for one requester's inbound memory writes are
 * the payload bytes of the records a PTT on the same traffic traces over
 * the same interval.
 */
static void test_agrees_with_ptt(void)
{
    QPCIDevice *ptt;
    QPCIBar pbar;
    uint64_t cnt, ext, traced = 0;
    uint32_t sts, bytes;
    Pmu p;

    pmu_init(&p, " -device hisi-ptt,bus=pcie.0,addr=0x8,traffic=t0");
    ptt = hisi_enable(&p, PTT_DEVFN, &pbar);
    for (int i = 0; i < 4; i++) {
        qpci_io_writel(ptt, pbar, 0x810 + 8 * i, 0x48000000 + i * 0x100000);
        qpci_io_writel(ptt, pbar, 0x814 + 8 * i, 0);
    }
    qpci_io_writel(ptt, pbar, 0x800, 0x100000);
    qpci_io_writel(ptt, pbar, 0x894, 0xf);
    /* Both start at this virtual time: 8DW, inbound P of 01:00.0 */
    qpci_io_writel(ptt, pbar, 0x850, 2);
    qpci_io_writel(ptt, pbar, 0x850, (EDU_BDF << 16) | BIT(15) | BIT(14) |
                   (1 << 4) | (2 << 2) | 1);
    count(&p, RX_MWR_FLUX | EV_TARGET_BDF(EDU_BDF) | EV_LEN(1),
          3 * 1000 * 1000 + 123, &cnt, &ext);
    qpci_io_writel(ptt, pbar, 0x850, 0);
    sts = qpci_io_readl(ptt, pbar, 0x8a0);
    g_assert_cmphex(sts >> 28, ==, 0);
    bytes = sts & 0xfffffff;
    for (uint32_t off = 0; off < bytes; off += 32) {
        uint32_t dw0 = qtest_readl(p.qts, 0x48000000 + off + 8);

        traced += (dw0 & 0x3ff) * 4;
    }
    g_test_message("PMU %" PRIu64 " bytes, PTT %" PRIu64 " bytes in %u "
                   "records", cnt, traced, bytes / 32);
    g_assert_cmpuint(traced, >, 0);
    g_assert_cmpuint(cnt, ==, traced);
    g_free(ptt);
    hisi_fini(&p);
}

/* Counting goes on after migration from where it was. */
static void test_migration(void)
{
    uint64_t lat = RX_MWR_LATENCY | EV_PORTS(1) | EV_EN;
    uint64_t ext;
    Pmu src, dst;

    pmu_init(&src, "");
    wrq(&src, EVENT_CTRL(2), lat);
    wr(&src, INT_MASK(2), 0);
    wr(&src, GLOBAL_CTRL, 1);
    qtest_clock_step(src.qts, 1000 * 1000);
    ext = rdq(&src, EXT_CNT(2));
    g_assert_cmpuint(ext, ==, 1000);
    hisi_migrate(&src, &dst, pmu_init);
    g_assert_cmphex(rdq(&dst, EVENT_CTRL(2)), ==, lat);
    g_assert_cmphex(rd(&dst, INT_MASK(2)), ==, 0);
    g_assert_cmpuint(rdq(&dst, EXT_CNT(2)), ==, ext);
    qtest_clock_step(dst.qts, 1000 * 1000);
    g_assert_cmpuint(rdq(&dst, EXT_CNT(2)), ==, ext + 1000);
    hisi_fini(&dst);
    hisi_fini(&src);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/hisi-pcie-pmu/reset-values", test_reset_values);
    qtest_add_func("/hisi-pcie-pmu/access-widths", test_access_widths);
    qtest_add_func("/hisi-pcie-pmu/gating-and-exact-counts",
                   test_gating_and_exact_counts);
    qtest_add_func("/hisi-pcie-pmu/filters", test_filters);
    qtest_add_func("/hisi-pcie-pmu/overflow", test_overflow);
    qtest_add_func("/hisi-pcie-pmu/agrees-with-ptt", test_agrees_with_ptt);
    qtest_add_func("/hisi-pcie-pmu/migration", test_migration);
    return g_test_run();
}
