/*
 * QTest: HiSilicon PCIe Tune and Trace (hisi-ptt) registers
 *
 * Drives the device as the hisi_ptt driver does, stepping the virtual clock
 * to let the synthetic traffic of one endpoint fill the trace buffers.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bitops.h"
#include "hisi-qtest.h"

#define PTT_DEVFN           QPCI_DEVFN(8, 0)
#define EDU_BDF             0x0100      /* behind the root port, bus 1 */

#define TUNING_CTRL         0x0000
#define TUNING_DATA         0x0004
#define TRACE_ADDR_SIZE     0x0800
#define TRACE_ADDR_BASE_LO(i) (0x0810 + 8 * (i))
#define TRACE_ADDR_BASE_HI(i) (0x0814 + 8 * (i))
#define TRACE_CTRL          0x0850
#define TRACE_INT_STAT      0x0890
#define TRACE_INT_MASK      0x0894
#define TUNING_INT_STAT     0x0898
#define TRACE_WR_STS        0x08a0
#define TRACE_STS           0x08b0
#define DEVICE_RANGE        0x0fe0
#define LOCATION            0x0fe8

#define CTRL_EN             BIT(0)
#define CTRL_RST            BIT(1)
#define CTRL_RXTX(d)        ((d) << 2)
#define CTRL_TYPE(t)        ((t) << 4)
#define CTRL_8DW            BIT(14)
#define CTRL_REQUESTER      BIT(15)
#define CTRL_TARGET(t)      ((uint32_t)(t) << 16)

/* Guest RAM for the trace buffers */
#define BUF_BASE            0x48000000ull
#define BUF_SIZE            0x1000

/* Port filter bit of root port 00:10.0 (slot 16 -> bit 0) */
#define RP_PORT_BIT         0x1

typedef HisiDev Ptt;

static void ptt_init(Ptt *p, const char *extra)
{
    g_autofree char *args = g_strdup_printf(
        "-device pcie-root-port,id=rp0,bus=pcie.0,chassis=1,addr=0x10 "
        "-device edu,bus=rp0 -device hisi-ptt,bus=pcie.0,addr=0x8%s", extra);

    hisi_init(p, PTT_DEVFN, args);
}

/* The driver's buffer set-up and trace start (hisi_ptt_trace_start) */
static void ptt_start(Ptt *p, uint32_t ctrl)
{
    for (int i = 0; i < 4; i++) {
        wr(p, TRACE_ADDR_BASE_LO(i), (uint32_t)(BUF_BASE + i * BUF_SIZE));
        wr(p, TRACE_ADDR_BASE_HI(i), (BUF_BASE + i * BUF_SIZE) >> 32);
    }
    wr(p, TRACE_ADDR_SIZE, BUF_SIZE);
    g_assert_cmphex(rd(p, TRACE_STS) & 1, ==, 1);
    wr(p, TRACE_CTRL, rd(p, TRACE_CTRL) | CTRL_RST);
    g_assert_cmphex(rd(p, TRACE_WR_STS), ==, 0);
    wr(p, TRACE_CTRL, rd(p, TRACE_CTRL) & ~CTRL_RST);
    wr(p, TRACE_INT_STAT, 0xf);
    wr(p, TRACE_INT_MASK, 0);
    msi_taken(p);
    wr(p, TRACE_CTRL, ctrl | CTRL_EN);
}

static void test_reset_values(void)
{
    Ptt p;

    ptt_init(&p, ",sicl-id=3,core-id=7,rp-bdf-min=0x80,rp-bdf-max=0x9f");
    g_assert_cmphex(qpci_config_readw(p.dev, PCI_VENDOR_ID), ==, 0x19e5);
    g_assert_cmphex(qpci_config_readw(p.dev, PCI_DEVICE_ID), ==, 0xa12e);
    g_assert_cmphex(rd(&p, TUNING_CTRL), ==, 0);
    g_assert_cmphex(rd(&p, TUNING_DATA), ==, 0);
    g_assert_cmphex(rd(&p, TRACE_ADDR_SIZE), ==, 0);
    g_assert_cmphex(rd(&p, TRACE_ADDR_BASE_LO(0)), ==, 0);
    g_assert_cmphex(rd(&p, TRACE_ADDR_BASE_HI(3)), ==, 0);
    g_assert_cmphex(rd(&p, TRACE_CTRL), ==, 0);
    g_assert_cmphex(rd(&p, TRACE_INT_STAT), ==, 0);
    g_assert_cmphex(rd(&p, TRACE_INT_MASK), ==, 0xf);
    g_assert_cmphex(rd(&p, TUNING_INT_STAT), ==, 0);
    g_assert_cmphex(rd(&p, TRACE_WR_STS), ==, 0);
    g_assert_cmphex(rd(&p, TRACE_STS), ==, 1);
    g_assert_cmphex(rd(&p, DEVICE_RANGE), ==, 0x009f0080);
    g_assert_cmphex(rd(&p, LOCATION), ==, 0x00030007);
    hisi_fini(&p);
}

static uint32_t tune(Ptt *p, uint32_t code, uint32_t data)
{
    uint32_t ctrl = rd(p, TUNING_CTRL);

    wr(p, TUNING_CTRL, (ctrl & ~0xffffffu) | code);
    wr(p, TUNING_DATA, data);
    g_assert_cmphex(rd(p, TUNING_INT_STAT) & 1, ==, 0);
    return rd(p, TUNING_DATA) & 0xffff;
}

static void test_tune(void)
{
    static const uint32_t codes[] = {
        0x30004, 0x40004, 0x50004, 0x60005, 0x70005,
    };
    Ptt p;

    ptt_init(&p, "");
    for (int i = 0; i < ARRAY_SIZE(codes); i++) {
        g_assert_cmpuint(tune(&p, codes[i], 0xffffffff), ==, 1);
        tune(&p, codes[i], 0);
        g_assert_cmpuint(tune(&p, codes[i], 0xffffffff), ==, 0);
        tune(&p, codes[i], 9);          /* clamped */
        g_assert_cmpuint(tune(&p, codes[i], 0xffffffff), ==, 2);
    }
    /* The events are independent. */
    tune(&p, codes[0], 0);
    g_assert_cmpuint(tune(&p, codes[1], 0xffffffff), ==, 2);
    /* Bits 31:24 are kept; an unknown event reads 0. */
    wr(&p, TUNING_CTRL, 0xab000000 | codes[2]);
    g_assert_cmphex(rd(&p, TUNING_CTRL), ==, 0xab000000 | codes[2]);
    g_assert_cmpuint(tune(&p, 0x10004, 0xffffffff), ==, 0);
    hisi_fini(&p);
}

static void test_rst_idle_wr_sts(void)
{
    Ptt p;
    uint32_t sts;

    ptt_init(&p, "");
    ptt_start(&p, CTRL_RXTX(0) | CTRL_TYPE(7) | CTRL_TARGET(RP_PORT_BIT));
    g_assert_cmphex(rd(&p, TRACE_STS) & 1, ==, 0);
    qtest_clock_step(p.qts, 100 * 1000);        /* 100 us: ~31 records */
    sts = rd(&p, TRACE_WR_STS);
    g_assert_cmphex(sts >> 28, ==, 0);
    g_assert_cmpuint(sts & 0xfffffff, >, 0);
    g_assert_cmpuint(sts % 16, ==, 0);
    /* Stop: idle at once, the write status stays for the driver. */
    wr(&p, TRACE_CTRL, 0);
    g_assert_cmphex(rd(&p, TRACE_STS) & 1, ==, 1);
    sts = rd(&p, TRACE_WR_STS);
    qtest_clock_step(p.qts, 10 * 1000 * 1000);
    g_assert_cmphex(rd(&p, TRACE_WR_STS), ==, sts);
    /* Only RST clears it. */
    wr(&p, TRACE_CTRL, CTRL_RST);
    g_assert_cmphex(rd(&p, TRACE_WR_STS), ==, 0);
    hisi_fini(&p);
}

/* Time stamp of 8DW record @n of buffer @buf */
static uint32_t rec8_time(Ptt *p, int buf, int n)
{
    return qtest_readl(p->qts, BUF_BASE + buf * BUF_SIZE + n * 32 + 28);
}

static void test_ring_order_and_msi(void)
{
    Ptt p;
    uint32_t last_time = 0;

    ptt_init(&p, "");
    ptt_start(&p, CTRL_RXTX(2) | CTRL_TYPE(7) | CTRL_8DW |
              CTRL_TARGET(RP_PORT_BIT));
    /* Buffers 0, 1, 2, 3, then 0 again: one MSI and one status bit each. */
    for (int round = 0; round < 6; round++) {
        int buf = round % 4;
        int steps = 0;

        while (!(rd(&p, TRACE_INT_STAT) & 0xf)) {
            g_assert_false(msi_taken(&p));
            qtest_clock_step(p.qts, 20 * 1000);
            g_assert_cmpint(++steps, <, 1000);
        }
        g_assert_cmphex(rd(&p, TRACE_INT_STAT), ==, BIT(buf));
        g_assert_true(msi_taken(&p));
        g_assert_cmphex(rd(&p, TRACE_WR_STS) >> 28, ==, (buf + 1) % 4);
        /* Records in time order, across buffers too */
        for (int n = 0; n < BUF_SIZE / 32; n++) {
            g_assert_cmphex(qtest_readl(p.qts, BUF_BASE + buf * BUF_SIZE +
                                        n * 32), ==, 0xffffffff);
            g_assert_cmpuint(rec8_time(&p, buf, n), >=, last_time);
            last_time = rec8_time(&p, buf, n);
        }
        wr(&p, TRACE_INT_STAT, BIT(buf));          /* W1C */
        g_assert_cmphex(rd(&p, TRACE_INT_STAT), ==, 0);
    }
    wr(&p, TRACE_CTRL, 0);
    hisi_fini(&p);
}

static void test_stall_and_mask(void)
{
    Ptt p;

    ptt_init(&p, "");
    ptt_start(&p, CTRL_RXTX(2) | CTRL_TYPE(7) | CTRL_TARGET(RP_PORT_BIT));
    wr(&p, TRACE_INT_MASK, 0x2);            /* buffer 1 masked */
    qtest_clock_step(p.qts, 100 * 1000 * 1000);
    /* Buffer 0 completed; buffer 1 waits one record short. */
    g_assert_cmphex(rd(&p, TRACE_INT_STAT), ==, 0x1);
    g_assert_true(msi_taken(&p));
    g_assert_cmphex(rd(&p, TRACE_WR_STS), ==, (1u << 28) | (BUF_SIZE - 16));
    /* Writing 0 clears nothing; the W1C write of bit 0 lets buffer 1 end. */
    wr(&p, TRACE_INT_STAT, 0);
    g_assert_cmphex(rd(&p, TRACE_INT_STAT), ==, 0x1);
    wr(&p, TRACE_INT_STAT, 0x1);
    qtest_clock_step(p.qts, 1000 * 1000);
    g_assert_cmphex(rd(&p, TRACE_INT_STAT), ==, 0x2);
    g_assert_false(msi_taken(&p));          /* masked */
    wr(&p, TRACE_INT_MASK, 0);              /* unmasked while pending */
    g_assert_true(msi_taken(&p));
    wr(&p, TRACE_CTRL, 0);
    hisi_fini(&p);
}

/* Bytes traced in 1 ms with @ctrl */
static uint32_t traced_1ms(Ptt *p, uint32_t ctrl)
{
    uint32_t sts;

    ptt_start(p, ctrl);
    qtest_clock_step(p->qts, 1000 * 1000);
    wr(p, TRACE_CTRL, 0);
    sts = rd(p, TRACE_WR_STS);
    return (sts >> 28) * BUF_SIZE + (sts & 0xfffffff);
}

static void test_filters(void)
{
    Ptt p;
    uint32_t all = CTRL_RXTX(2) | CTRL_TYPE(7);

    ptt_init(&p, "");
    wr(&p, TRACE_INT_MASK, 0xf);
    g_assert_cmpuint(traced_1ms(&p, all | CTRL_TARGET(RP_PORT_BIT)), >, 0);
    g_assert_cmpuint(traced_1ms(&p, all | CTRL_TARGET(0x4)), ==, 0);
    g_assert_cmpuint(traced_1ms(&p, all | CTRL_REQUESTER |
                                CTRL_TARGET(EDU_BDF)), >, 0);
    g_assert_cmpuint(traced_1ms(&p, all | CTRL_REQUESTER |
                                CTRL_TARGET(EDU_BDF + 1)), ==, 0);
    /* No type selected, or 8DW with the reserved direction 0: nothing */
    g_assert_cmpuint(traced_1ms(&p, CTRL_RXTX(2) |
                                CTRL_TARGET(RP_PORT_BIT)), ==, 0);
    g_assert_cmpuint(traced_1ms(&p, CTRL_RXTX(0) | CTRL_TYPE(7) | CTRL_8DW |
                                CTRL_TARGET(RP_PORT_BIT)), ==, 0);
    hisi_fini(&p);
}

static void test_no_dma_without_bus_master(void)
{
    Ptt p;
    uint16_t cmd;

    ptt_init(&p, "");
    cmd = qpci_config_readw(p.dev, PCI_COMMAND);
    qpci_config_writew(p.dev, PCI_COMMAND, cmd & ~PCI_COMMAND_MASTER);
    qtest_writel(p.qts, BUF_BASE, 0);
    ptt_start(&p, CTRL_RXTX(2) | CTRL_TYPE(7) | CTRL_TARGET(RP_PORT_BIT));
    qtest_clock_step(p.qts, 1000 * 1000);
    /* The trace stops at the first DMA; nothing reaches memory. */
    g_assert_cmphex(rd(&p, TRACE_STS) & 1, ==, 1);
    g_assert_cmphex(qtest_readl(p.qts, BUF_BASE), ==, 0);
    g_assert_false(msi_taken(&p));
    hisi_fini(&p);
}

static void test_bad_dma_address(void)
{
    Ptt p;

    ptt_init(&p, "");
    ptt_start(&p, CTRL_RXTX(2) | CTRL_TYPE(7) | CTRL_TARGET(RP_PORT_BIT));
    /* Buffer 1 points at nothing; buffer 0 works. */
    wr(&p, TRACE_CTRL, 0);
    wr(&p, TRACE_ADDR_BASE_HI(1), 0xdead);
    wr(&p, TRACE_CTRL, CTRL_RST);
    wr(&p, TRACE_CTRL, CTRL_RXTX(2) | CTRL_TYPE(7) | CTRL_EN |
       CTRL_TARGET(RP_PORT_BIT));
    qtest_clock_step(p.qts, 100 * 1000 * 1000);
    wr(&p, TRACE_INT_STAT, 0x1);
    qtest_clock_step(p.qts, 100 * 1000 * 1000);
    /* The first write to buffer 1 failed: the trace stopped there. */
    g_assert_cmphex(rd(&p, TRACE_STS) & 1, ==, 1);
    g_assert_cmphex(rd(&p, TRACE_WR_STS) >> 28, ==, 1);
    g_assert_cmphex(rd(&p, TRACE_INT_STAT), ==, 0);
    hisi_fini(&p);
}

/* Settings a driver would not make: no crash, no DMA past a buffer */
static void test_bad_settings(void)
{
    uint32_t ctrl = CTRL_RXTX(2) | CTRL_TYPE(7) | CTRL_TARGET(RP_PORT_BIT);
    Ptt p;

    ptt_init(&p, "");
    qtest_writel(p.qts, BUF_BASE + BUF_SIZE / 2, 0x5a5a5a5a);
    ptt_start(&p, ctrl);
    qtest_clock_step(p.qts, 100 * 1000);
    /* Format changed while tracing: ignored */
    wr(&p, TRACE_CTRL, ctrl | CTRL_8DW | CTRL_EN);
    g_assert_cmphex(rd(&p, TRACE_CTRL), ==, ctrl | CTRL_EN);
    /* Stop at an offset, shrink the buffers, start again without RST */
    wr(&p, TRACE_CTRL, 0);
    g_assert_cmpuint(rd(&p, TRACE_WR_STS), >, 16);
    wr(&p, TRACE_ADDR_SIZE, 16);
    wr(&p, TRACE_INT_MASK, 0xf);
    wr(&p, TRACE_CTRL, ctrl | CTRL_8DW | CTRL_EN);
    qtest_clock_step(p.qts, 10 * 1000 * 1000);
    /* Buffers of 16 bytes cannot hold an 8DW record: not started */
    g_assert_cmphex(rd(&p, TRACE_STS) & 1, ==, 1);
    wr(&p, TRACE_CTRL, ctrl | CTRL_EN);
    qtest_clock_step(p.qts, 10 * 1000 * 1000);
    /* One 4DW record per buffer, from offset 0, never past the end */
    g_assert_cmphex(rd(&p, TRACE_WR_STS) & 0xfffffff, ==, 0);
    g_assert_cmphex(qtest_readl(p.qts, BUF_BASE + BUF_SIZE / 2), ==,
                    0x5a5a5a5a);
    wr(&p, TRACE_CTRL, 0);
    hisi_fini(&p);
}

static void test_no_buffers(void)
{
    Ptt p;

    ptt_init(&p, "");
    wr(&p, TRACE_CTRL, CTRL_RXTX(0) | CTRL_TYPE(7) | CTRL_EN |
       CTRL_TARGET(RP_PORT_BIT));
    g_assert_cmphex(rd(&p, TRACE_STS) & 1, ==, 1);
    qtest_clock_step(p.qts, 1000 * 1000);
    g_assert_cmphex(rd(&p, TRACE_WR_STS), ==, 0);
    hisi_fini(&p);
}

static void test_bad_accesses(void)
{
    Ptt p;

    ptt_init(&p, "");
    /* Other widths and unaligned or unknown offsets: logged, no effect */
    g_assert_cmphex(qpci_io_readb(p.dev, p.bar, TRACE_STS), ==, 0);
    g_assert_cmphex(qpci_io_readw(p.dev, p.bar, TRACE_STS), ==, 0);
    /* One 64-bit access over INT_STAT and INT_MASK (0xf) reads 0. */
    g_assert_cmphex(qpci_io_readq(p.dev, p.bar, TRACE_INT_STAT), ==, 0);
    g_assert_cmphex(rd(&p, 0x0ffc), ==, 0);
    g_assert_cmphex(rd(&p, TRACE_STS + 2), ==, 0);
    qpci_io_writeb(p.dev, p.bar, TRACE_INT_MASK, 0);
    qpci_io_writeq(p.dev, p.bar, TRACE_INT_STAT, 0);
    wr(&p, 0x0ffc, 0xffffffff);
    wr(&p, LOCATION, 0x12345678);
    wr(&p, TRACE_STS, 0);
    g_assert_cmphex(rd(&p, TRACE_INT_MASK), ==, 0xf);
    g_assert_cmphex(rd(&p, LOCATION), ==, 0);
    g_assert_cmphex(rd(&p, TRACE_STS), ==, 1);
    hisi_fini(&p);
}

static uint64_t qom_get_uint(Ptt *p, const char *property)
{
    QDict *rsp = qtest_qmp(p->qts, "{'execute': 'qom-get', 'arguments':"
                           " {'path': 'ptt', 'property': %s}}", property);
    uint64_t n = qdict_get_int(rsp, "return");

    qobject_unref(rsp);
    return n;
}

/*
 * TLPs the trace selected so far, from the device's statistics: the
 * records written, and those lost while the full buffers waited.
 */
static uint64_t selected(Ptt *p)
{
    return qom_get_uint(p, "records") + qom_get_uint(p, "lost-tlps");
}

/* TLPs the trace selected over the next @ns of virtual time */
static uint64_t records_in(Ptt *p, int64_t ns)
{
    uint64_t before;

    rd(p, TRACE_WR_STS);        /* brings the trace up to now */
    before = selected(p);
    qtest_clock_step(p->qts, ns);
    rd(p, TRACE_WR_STS);
    return selected(p) - before;
}

/* Only the DMA writes of the edu endpoint: 8DW, inbound, posted */
#define DMA_WRITES (CTRL_RXTX(2) | CTRL_TYPE(1) | CTRL_8DW | CTRL_REQUESTER | \
                    CTRL_TARGET(EDU_BDF))

static void test_traffic_rules(void)
{
    QDict *rsp;
    Ptt p;

    ptt_init(&p, ",traffic=t0,id=ptt -object hisi-traffic,id=t0");
    wr(&p, TRACE_INT_MASK, 0xf);
    ptt_start(&p, DMA_WRITES);
    /* The built-in 200000 DMA writes/s: 200 per ms, give or take one */
    g_assert_cmpuint(records_in(&p, 1000 * 1000), >=, 199);
    g_assert_cmpuint(records_in(&p, 1000 * 1000), <=, 201);
    /* From a rule change on, exactly the new rate: TLP 0 at the change */
    qtest_qmp_assert_success(p.qts, "{'execute': 'qom-set', 'arguments':"
                             " {'path': 't0', 'property': 'rules',"
                             "  'value': 'stream=dma-write,rate=600000'}}");
    g_assert_cmpuint(records_in(&p, 1000 * 1000), ==, 600);
    /* A rule for another endpoint changes nothing here. */
    qtest_qmp_assert_success(p.qts, "{'execute': 'qom-set', 'arguments':"
                             " {'path': 't0', 'property': 'rules',"
                             "  'value': 'ep=05:00.0,stream=all,rate=0'}}");
    g_assert_cmpuint(records_in(&p, 1000 * 1000), ==, 200);
    /* Bad rules are refused with a reason, and change nothing. */
    rsp = qtest_qmp(p.qts, "{'execute': 'qom-set', 'arguments':"
                    " {'path': 't0', 'property': 'rules',"
                    "  'value': 'stream=dma-write,rate=fast'}}");
    g_assert_nonnull(strstr(qdict_get_str(qdict_get_qdict(rsp, "error"),
                                          "desc"), "bad rate value 'fast'"));
    qobject_unref(rsp);
    rsp = qtest_qmp(p.qts, "{'execute': 'qom-get', 'arguments':"
                    " {'path': 't0', 'property': 'rules'}}");
    g_assert_cmpstr(qdict_get_str(rsp, "return"), ==,
                    "ep=05:00.0,stream=all,rate=0");
    qobject_unref(rsp);
    /* Paused: nothing; resumed: the traffic again */
    qtest_qmp_assert_success(p.qts, "{'execute': 'qom-set', 'arguments':"
                             " {'path': 't0', 'property': 'paused',"
                             "  'value': true}}");
    g_assert_cmpuint(records_in(&p, 1000 * 1000), ==, 0);
    qtest_qmp_assert_success(p.qts, "{'execute': 'qom-set', 'arguments':"
                             " {'path': 't0', 'property': 'paused',"
                             "  'value': false}}");
    g_assert_cmpuint(records_in(&p, 1000 * 1000), ==, 200);
    /* A burst: exactly 0.5 ms of traffic, then paused again */
    qtest_qmp_assert_success(p.qts, "{'execute': 'qom-set', 'arguments':"
                             " {'path': 't0', 'property': 'burst-ns',"
                             "  'value': 500000}}");
    rsp = qtest_qmp(p.qts, "{'execute': 'qom-get', 'arguments':"
                    " {'path': 't0', 'property': 'burst-ns'}}");
    g_assert_cmpuint(qdict_get_int(rsp, "return"), ==, 500000);
    qobject_unref(rsp);
    g_assert_cmpuint(records_in(&p, 1000 * 1000), ==, 100);
    g_assert_cmpuint(records_in(&p, 1000 * 1000), ==, 0);
    rsp = qtest_qmp(p.qts, "{'execute': 'qom-set', 'arguments':"
                    " {'path': 't0', 'property': 'burst-ns', 'value': 0}}");
    g_assert_nonnull(strstr(qdict_get_str(qdict_get_qdict(rsp, "error"),
                                          "desc"), "burst-ns must be 1.."));
    qobject_unref(rsp);
    hisi_fini(&p);
}

/* FNV-1a of the first trace buffer after 1 ms of tracing with @seed */
static uint64_t trace_hash(uint64_t seed)
{
    g_autofree char *args = g_strdup_printf(",traffic=t0,id=ptt -object "
                                            "hisi-traffic,id=t0,seed=%"
                                            PRIu64, seed);
    uint8_t buf[BUF_SIZE];
    uint64_t h = 0xcbf29ce484222325ull;
    Ptt p;

    ptt_init(&p, args);
    ptt_start(&p, CTRL_RXTX(2) | CTRL_TYPE(7) | CTRL_8DW |
              CTRL_TARGET(RP_PORT_BIT));
    qtest_clock_step(p.qts, 1000 * 1000);
    rd(&p, TRACE_WR_STS);
    qtest_memread(p.qts, BUF_BASE, buf, sizeof(buf));
    for (int i = 0; i < sizeof(buf); i++) {
        h = (h ^ buf[i]) * 0x100000001b3ull;
    }
    hisi_fini(&p);
    return h;
}

static void test_traffic_deterministic(void)
{
    g_assert_cmphex(trace_hash(7), ==, trace_hash(7));
    g_assert_cmphex(trace_hash(7), !=, trace_hash(8));
}

static void set_flag(Ptt *p, const char *name, bool on)
{
    qtest_qmp_assert_success(p->qts, "{'execute': 'qom-set', 'arguments':"
                             " {'path': 'ptt', 'property': %s,"
                             "  'value': %i}}", name, on);
}

static void test_fault_injection(void)
{
    Ptt p;

    ptt_init(&p, ",id=ptt");
    /* Tuning held busy: the status stays set and the value is not taken. */
    set_flag(&p, "hold-tuning-busy", true);
    wr(&p, TUNING_CTRL, 0x50004);
    wr(&p, TUNING_DATA, 2);
    g_assert_cmphex(rd(&p, TUNING_INT_STAT), ==, 1);
    set_flag(&p, "hold-tuning-busy", false);
    g_assert_cmpuint(tune(&p, 0x50004, 0xffffffff), ==, 1);

    /* The next DMA write fails: the trace stops at it. */
    ptt_start(&p, CTRL_RXTX(2) | CTRL_TYPE(7) | CTRL_TARGET(RP_PORT_BIT));
    set_flag(&p, "fail-next-dma", true);
    qtest_clock_step(p.qts, 1000 * 1000);
    rd(&p, TRACE_WR_STS);
    g_assert_cmphex(rd(&p, TRACE_STS) & 1, ==, 1);
    g_assert_false(qtest_qom_get_bool(p.qts, "ptt", "fail-next-dma"));
    /* Nothing was written: the write offset stays at the last record. */
    g_assert_cmphex(rd(&p, TRACE_WR_STS), ==, 0);

    /* Trace held busy: never idle, and RST does not clear the status. */
    ptt_start(&p, CTRL_RXTX(2) | CTRL_TYPE(7) | CTRL_TARGET(RP_PORT_BIT));
    qtest_clock_step(p.qts, 100 * 1000);
    wr(&p, TRACE_CTRL, 0);
    set_flag(&p, "hold-trace-busy", true);
    g_assert_cmphex(rd(&p, TRACE_STS) & 1, ==, 0);
    wr(&p, TRACE_CTRL, CTRL_RST);
    g_assert_cmphex(rd(&p, TRACE_WR_STS), !=, 0);
    set_flag(&p, "hold-trace-busy", false);
    g_assert_cmphex(rd(&p, TRACE_STS) & 1, ==, 1);
    hisi_fini(&p);
}

/* A trace in progress goes on after migration, where it left off. */
static void test_migration(void)
{
    uint32_t regs[] = { TRACE_CTRL, TRACE_INT_STAT, TRACE_INT_MASK,
                        TRACE_WR_STS, TRACE_STS, TRACE_ADDR_SIZE,
                        TRACE_ADDR_BASE_LO(2) };
    uint32_t before[ARRAY_SIZE(regs)];
    Ptt src, dst;
    uint32_t sts;

    ptt_init(&src, "");
    tune(&src, 0x50004, 2);
    ptt_start(&src, CTRL_RXTX(2) | CTRL_TYPE(7) | CTRL_8DW |
              CTRL_TARGET(RP_PORT_BIT));
    qtest_clock_step(src.qts, 2 * 1000 * 1000);     /* into buffer 1 or 2 */
    for (int i = 0; i < ARRAY_SIZE(regs); i++) {
        before[i] = rd(&src, regs[i]);
    }
    g_assert_cmphex(before[4] & 1, ==, 0);          /* tracing */
    hisi_migrate(&src, &dst, ptt_init);
    for (int i = 0; i < ARRAY_SIZE(regs); i++) {
        g_test_message("register 0x%03x", regs[i]);
        g_assert_cmphex(rd(&dst, regs[i]), ==, before[i]);
    }
    g_assert_cmpuint(tune(&dst, 0x50004, 0xffffffff), ==, 2);
    /* The trace goes on: records are added after the migrated ones. */
    qtest_clock_step(dst.qts, 1000 * 1000);
    sts = rd(&dst, TRACE_WR_STS);
    g_assert_cmpuint((sts >> 28) * BUF_SIZE + (sts & 0xfffffff) +
                     (rd(&dst, TRACE_INT_STAT) ? 4 * BUF_SIZE : 0), >,
                     (before[3] >> 28) * BUF_SIZE + (before[3] & 0xfffffff));
    hisi_fini(&dst);
    hisi_fini(&src);
}

static void test_bad_properties(void)
{
    hisi_assert_refused("-device hisi-ptt,rp-bdf-min=0x90,rp-bdf-max=0x80",
                        "rp-bdf-min (0x0090) must not be above rp-bdf-max");
    hisi_assert_refused("-device hisi-ptt,rp-bdf-min=0x80,rp-bdf-max=0x180",
                        "must be on one bus");
    hisi_assert_refused("-device hisi-ptt,sicl-id=70000",
                        "Parameter 'sicl-id' expects uint16_t");
    hisi_assert_refused("-device hisi-ptt,addr=0x8,sicl-id=1,core-id=2 "
                        "-device hisi-ptt,addr=0x9,sicl-id=1,core-id=2",
                        "another hisi-ptt already has sicl-id=1 core-id=2");
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/hisi-ptt/reset-values", test_reset_values);
    qtest_add_func("/hisi-ptt/tune", test_tune);
    qtest_add_func("/hisi-ptt/rst-idle-wr-sts", test_rst_idle_wr_sts);
    qtest_add_func("/hisi-ptt/ring-order-and-msi", test_ring_order_and_msi);
    qtest_add_func("/hisi-ptt/stall-and-mask", test_stall_and_mask);
    qtest_add_func("/hisi-ptt/filters", test_filters);
    qtest_add_func("/hisi-ptt/no-dma-without-bus-master",
                   test_no_dma_without_bus_master);
    qtest_add_func("/hisi-ptt/bad-dma-address", test_bad_dma_address);
    qtest_add_func("/hisi-ptt/bad-settings", test_bad_settings);
    qtest_add_func("/hisi-ptt/no-buffers", test_no_buffers);
    qtest_add_func("/hisi-ptt/bad-accesses", test_bad_accesses);
    qtest_add_func("/hisi-ptt/bad-properties", test_bad_properties);
    qtest_add_func("/hisi-ptt/migration", test_migration);
    qtest_add_func("/hisi-ptt/traffic-rules", test_traffic_rules);
    qtest_add_func("/hisi-ptt/traffic-deterministic",
                   test_traffic_deterministic);
    qtest_add_func("/hisi-ptt/fault-injection", test_fault_injection);
    return g_test_run();
}
