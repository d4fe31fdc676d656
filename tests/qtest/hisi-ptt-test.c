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
#include "hw/hisilicon/hisi-ptt-regs.h"
#include "hw/hisilicon/hisi-pcie-pmu-regs.h"

#define PTT_DEVFN           QPCI_DEVFN(8, 0)
#define EDU_BDF             0x0100      /* behind the root port, bus 1 */

/* Port filter bit of root port 00:10.0 (slot 16 -> bit 0) */
#define RP_PORT_BIT         0x1

/* Guest RAM for the trace buffers */
#define BUF_BASE            0x48000000ull
#define BUF_SIZE            0x1000
#define BUF_ADDR(buf)       (BUF_BASE + (uint64_t)(buf) * BUF_SIZE)

/*
 * What the driver's ABI defines, not the register map: its tune events
 * (sysfs tune/), the levels they take, its trace options (perf's
 * direction and type), and the records (Documentation/trace/hisi-ptt.rst).
 */
#define TUNE_QOS_TX_CPL     PTT_TUNE_EVENT(0x4, 3)
#define TUNE_QOS_TX_NP      PTT_TUNE_EVENT(0x4, 4)
#define TUNE_QOS_TX_P       PTT_TUNE_EVENT(0x4, 5)
#define TUNE_RX_BUF_LEVEL   PTT_TUNE_EVENT(0x5, 6)
#define TUNE_TX_BUF_LEVEL   PTT_TUNE_EVENT(0x5, 7)
#define TUNE_UNKNOWN        PTT_TUNE_EVENT(0x4, 1)
#define TUNE_LEVEL_RESET    1
#define TUNE_LEVEL_MAX      2

#define DIR_INBOUND         0   /* 4DW: inbound; reserved in 8DW */
#define DIR_OUTBOUND        1
#define DIR_INBOUND_B       2   /* inbound P/NP/CPL B (4DW: and outbound) */
#define DIR_INBOUND_A       3   /* inbound CPL A (4DW: and outbound) */
#define TYPE_POSTED         0x1
#define TYPE_NON_POSTED     0x2
#define TYPE_CPL            0x4
#define TYPE_ALL            0x7 /* P, NP, CPL */

#define REC4_SIZE           16
#define REC8_SIZE           32
#define REC8_MARK           0xffffffff  /* DW0 of an 8DW record */
#define REC8_TIME           28          /* its time stamp's offset */

static const uint32_t tune_events[] = {
    TUNE_QOS_TX_CPL, TUNE_QOS_TX_NP, TUNE_QOS_TX_P, TUNE_RX_BUF_LEVEL,
    TUNE_TX_BUF_LEVEL,
};

typedef HisiDev Ptt;

/* A trace as the driver sets it up: what TRACE_CTRL gets */
typedef struct PttTrace {
    unsigned dir;
    unsigned type;
    bool fmt_8dw;
    bool requester;     /* @target is a requester's BDF, not root ports */
    uint16_t target;
} PttTrace;

/* Every TLP type through the root port, in the 4DW and 8DW formats */
static const PttTrace rp_4dw = {
    .dir = DIR_INBOUND_B, .type = TYPE_ALL, .target = RP_PORT_BIT,
};
static const PttTrace rp_8dw = {
    .dir = DIR_INBOUND_B, .type = TYPE_ALL, .fmt_8dw = true,
    .target = RP_PORT_BIT,
};
/* Inbound TLPs only: the 4DW direction 0 */
static const PttTrace rp_inbound_4dw = {
    .dir = DIR_INBOUND, .type = TYPE_ALL, .target = RP_PORT_BIT,
};
/* Only the DMA writes of the edu endpoint: 8DW, inbound, posted */
static const PttTrace edu_dma_writes = {
    .dir = DIR_INBOUND_B, .type = TYPE_POSTED, .fmt_8dw = true,
    .requester = true, .target = EDU_BDF,
};

static uint32_t ptt_ctrl(PttTrace t)
{
    uint32_t ctrl = FIELD_DP32(0, TRACE_CTRL, RXTX_SEL, t.dir);

    ctrl = FIELD_DP32(ctrl, TRACE_CTRL, TYPE_SEL, t.type);
    ctrl = FIELD_DP32(ctrl, TRACE_CTRL, DATA_FORMAT, t.fmt_8dw);
    ctrl = FIELD_DP32(ctrl, TRACE_CTRL, FILTER_MODE, t.requester);
    return FIELD_DP32(ctrl, TRACE_CTRL, TARGET_SEL, t.target);
}

/*
 * QEMU with the PTT at 00:08.0 and an edu endpoint behind root port
 * 00:10.0: @props go on the PTT's -device option, then the QEMU arguments
 * up to a NULL.
 */
static void G_GNUC_NULL_TERMINATED ptt_init(Ptt *p, const char *props, ...)
{
    g_autoptr(GPtrArray) args = hisi_args_topology(NULL);
    va_list ap;

    hisi_args_add_device(args, "hisi-ptt,bus=pcie.0,addr=0x8%s", props);
    va_start(ap, props);
    hisi_args_add_valist(args, ap);
    va_end(ap);
    hisi_init(p, PTT_DEVFN, args);
}

static bool ptt_idle(Ptt *p)
{
    return FIELD_EX32(hisi_rd(p, A_TRACE_STS), TRACE_STS, IDLE);
}

/* Where the write status @sts is in the ring of buffers, in bytes */
static uint32_t ptt_ring_pos(uint32_t sts)
{
    return FIELD_EX32(sts, TRACE_WR_STS, BUFFER) * BUF_SIZE +
           FIELD_EX32(sts, TRACE_WR_STS, WRITE);
}

/*
 * The driver's buffer set-up and trace start (hisi_ptt_trace_start), with
 * buffers of @size bytes (at most BUF_SIZE)
 */
static void ptt_start_sized(Ptt *p, PttTrace t, uint32_t size)
{
    for (int i = 0; i < HISI_PTT_NUM_BUFS; i++) {
        hisi_wr(p, TRACE_ADDR_BASE_LO(i), (uint32_t)BUF_ADDR(i));
        hisi_wr(p, TRACE_ADDR_BASE_HI(i), BUF_ADDR(i) >> 32);
    }
    hisi_wr(p, A_TRACE_ADDR_SIZE, size);
    g_assert_true(ptt_idle(p));
    hisi_wr(p, A_TRACE_CTRL,
            hisi_rd(p, A_TRACE_CTRL) | R_TRACE_CTRL_RST_MASK);
    g_assert_cmphex(hisi_rd(p, A_TRACE_WR_STS), ==, 0);
    hisi_wr(p, A_TRACE_CTRL,
            hisi_rd(p, A_TRACE_CTRL) & ~R_TRACE_CTRL_RST_MASK);
    hisi_wr(p, A_TRACE_INT_STAT, R_TRACE_INT_STAT_BUFS_MASK);
    hisi_wr(p, A_TRACE_INT_MASK, 0);
    hisi_msi_taken(p);
    hisi_wr(p, A_TRACE_CTRL, ptt_ctrl(t) | R_TRACE_CTRL_EN_MASK);
}

static void ptt_start(Ptt *p, PttTrace t)
{
    ptt_start_sized(p, t, BUF_SIZE);
}

static void ptt_stop(Ptt *p)
{
    hisi_wr(p, A_TRACE_CTRL, 0);
}

static uint64_t ptt_qom_get_uint_at(Ptt *p, const char *path,
                                    const char *property)
{
    QDict *rsp = qtest_qmp(p->qts, "{'execute': 'qom-get', 'arguments':"
                           " {'path': %s, 'property': %s}}", path, property);
    uint64_t n = qdict_get_int(rsp, "return");

    qobject_unref(rsp);
    return n;
}

static uint64_t ptt_qom_get_uint(Ptt *p, const char *property)
{
    return ptt_qom_get_uint_at(p, "ptt", property);
}

static void test_reset_values(void)
{
    uint32_t range, location;
    Ptt p;

    ptt_init(&p, ",sicl-id=3,core-id=7,rp-bdf-min=0x80,rp-bdf-max=0x9f",
             NULL);
    hisi_assert_rciep_header(&p, HISI_PTT_VENDOR_ID, HISI_PTT_DEVICE_ID);
    g_assert_cmphex(hisi_rd(&p, A_TUNING_CTRL), ==, 0);
    g_assert_cmphex(hisi_rd(&p, A_TUNING_DATA), ==, 0);
    g_assert_cmphex(hisi_rd(&p, A_TRACE_ADDR_SIZE), ==, 0);
    g_assert_cmphex(hisi_rd(&p, TRACE_ADDR_BASE_LO(0)), ==, 0);
    g_assert_cmphex(hisi_rd(&p, TRACE_ADDR_BASE_HI(3)), ==, 0);
    g_assert_cmphex(hisi_rd(&p, A_TRACE_CTRL), ==, 0);
    g_assert_cmphex(hisi_rd(&p, A_TRACE_INT_STAT), ==, 0);
    /* every buffer's interrupt masked */
    g_assert_cmphex(hisi_rd(&p, A_TRACE_INT_MASK), ==,
                    R_TRACE_INT_MASK_BUFS_MASK);
    g_assert_cmphex(hisi_rd(&p, A_TUNING_INT_STAT), ==, 0);
    g_assert_cmphex(hisi_rd(&p, A_TRACE_WR_STS), ==, 0);
    g_assert_cmphex(hisi_rd(&p, A_TRACE_STS), ==, R_TRACE_STS_IDLE_MASK);
    range = hisi_rd(&p, A_DEVICE_RANGE);
    g_assert_cmphex(FIELD_EX32(range, DEVICE_RANGE, LOWER), ==, 0x80);
    g_assert_cmphex(FIELD_EX32(range, DEVICE_RANGE, UPPER), ==, 0x9f);
    location = hisi_rd(&p, A_LOCATION);
    g_assert_cmphex(FIELD_EX32(location, LOCATION, SICL_ID), ==, 3);
    g_assert_cmphex(FIELD_EX32(location, LOCATION, CORE_ID), ==, 7);
    hisi_fini(&p);
}

/*
 * The driver's tune: select @event, write @data (TUNING_DATA_READ_REQ
 * asks for the value); the value TUNING_DATA then holds.
 */
static uint32_t ptt_tune(Ptt *p, uint32_t event, uint32_t data)
{
    uint32_t ctrl = hisi_rd(p, A_TUNING_CTRL);

    ctrl &= ~(R_TUNING_CTRL_CODE_MASK | R_TUNING_CTRL_SUB_MASK);
    hisi_wr(p, A_TUNING_CTRL, ctrl | event);
    hisi_wr(p, A_TUNING_DATA, data);
    g_assert_false(FIELD_EX32(hisi_rd(p, A_TUNING_INT_STAT), TUNING_INT_STAT,
                              BUSY));
    return FIELD_EX32(hisi_rd(p, A_TUNING_DATA), TUNING_DATA, VAL);
}

static uint32_t ptt_tune_read(Ptt *p, uint32_t event)
{
    return ptt_tune(p, event, TUNING_DATA_READ_REQ);
}

/* Each event reads its reset level, takes a level, clamps one too high */
static void test_tune_levels(void)
{
    Ptt p;

    ptt_init(&p, "", NULL);
    for (int i = 0; i < ARRAY_SIZE(tune_events); i++) {
        g_test_message("tune event 0x%06x", tune_events[i]);
        g_assert_cmpuint(ptt_tune_read(&p, tune_events[i]), ==,
                         TUNE_LEVEL_RESET);
        ptt_tune(&p, tune_events[i], 0);
        g_assert_cmpuint(ptt_tune_read(&p, tune_events[i]), ==, 0);
        ptt_tune(&p, tune_events[i], 9);
        g_assert_cmpuint(ptt_tune_read(&p, tune_events[i]), ==,
                         TUNE_LEVEL_MAX);
    }
    hisi_fini(&p);
}

static void test_tune_events_independent(void)
{
    Ptt p;

    ptt_init(&p, "", NULL);
    for (int i = 0; i < ARRAY_SIZE(tune_events); i++) {
        ptt_tune(&p, tune_events[i], TUNE_LEVEL_MAX);
    }
    ptt_tune(&p, tune_events[0], 0);
    for (int i = 1; i < ARRAY_SIZE(tune_events); i++) {
        g_assert_cmpuint(ptt_tune_read(&p, tune_events[i]), ==,
                         TUNE_LEVEL_MAX);
    }
    g_assert_cmpuint(ptt_tune_read(&p, tune_events[0]), ==, 0);
    hisi_fini(&p);
}

/* TUNING_CTRL keeps the bits above the event's code and sub-event. */
static void test_tune_ctrl_upper_bits(void)
{
    uint32_t upper = 0xabu << (R_TUNING_CTRL_SUB_SHIFT +
                               R_TUNING_CTRL_SUB_LENGTH);
    Ptt p;

    ptt_init(&p, "", NULL);
    hisi_wr(&p, A_TUNING_CTRL, upper | TUNE_QOS_TX_P);
    g_assert_cmphex(hisi_rd(&p, A_TUNING_CTRL), ==, upper | TUNE_QOS_TX_P);
    g_assert_cmpuint(ptt_tune_read(&p, TUNE_QOS_TX_P), ==, TUNE_LEVEL_RESET);
    g_assert_cmphex(hisi_rd(&p, A_TUNING_CTRL), ==, upper | TUNE_QOS_TX_P);
    hisi_fini(&p);
}

/* An unknown event reads 0, and writing it changes no event's level. */
static void test_tune_unknown_event(void)
{
    Ptt p;

    ptt_init(&p, "", NULL);
    ptt_tune(&p, TUNE_QOS_TX_CPL, 0);
    hisi_assert_no_guest_error(&p);
    g_assert_cmpuint(ptt_tune_read(&p, TUNE_UNKNOWN), ==, 0);
    hisi_assert_guest_error(&p, "hisi-ptt: tuning data for unknown event "
                            "0x010004 ignored");
    g_assert_cmpuint(ptt_tune(&p, TUNE_UNKNOWN, TUNE_LEVEL_MAX), ==, 0);
    hisi_assert_guest_error(&p, "hisi-ptt: tuning data for unknown event "
                            "0x010004 ignored");
    g_assert_cmphex(hisi_rd(&p, A_TUNING_CTRL), ==, TUNE_UNKNOWN);
    g_assert_cmpuint(ptt_tune_read(&p, TUNE_QOS_TX_CPL), ==, 0);
    for (int i = 1; i < ARRAY_SIZE(tune_events); i++) {
        g_assert_cmpuint(ptt_tune_read(&p, tune_events[i]), ==,
                         TUNE_LEVEL_RESET);
    }
    /* and tuning still works */
    g_assert_cmpuint(ptt_tune(&p, TUNE_QOS_TX_NP, TUNE_LEVEL_MAX), ==,
                     TUNE_LEVEL_MAX);
    hisi_fini(&p);
}

/* Busy while tracing, idle at once when stopped */
static void test_idle_follows_trace(void)
{
    Ptt p;

    ptt_init(&p, "", NULL);
    ptt_start(&p, rp_inbound_4dw);
    g_assert_false(ptt_idle(&p));
    qtest_clock_step(p.qts, 100 * 1000);
    g_assert_false(ptt_idle(&p));
    ptt_stop(&p);
    g_assert_true(ptt_idle(&p));
    hisi_fini(&p);
}

/* The write status counts whole records into the first buffer. */
static void test_wr_sts_counts_records(void)
{
    uint32_t sts;
    Ptt p;

    ptt_init(&p, "", NULL);
    ptt_start(&p, rp_inbound_4dw);
    qtest_clock_step(p.qts, 100 * 1000);        /* 100 us: ~31 records */
    sts = hisi_rd(&p, A_TRACE_WR_STS);
    g_assert_cmphex(FIELD_EX32(sts, TRACE_WR_STS, BUFFER), ==, 0);
    g_assert_cmpuint(FIELD_EX32(sts, TRACE_WR_STS, WRITE), >, 0);
    g_assert_cmpuint(FIELD_EX32(sts, TRACE_WR_STS, WRITE) % REC4_SIZE, ==,
                     0);
    hisi_fini(&p);
}

/* Trace @t for 100 us and stop: the write status it leaves */
static uint32_t ptt_trace_100us(Ptt *p, PttTrace t)
{
    ptt_start(p, t);
    qtest_clock_step(p->qts, 100 * 1000);
    ptt_stop(p);
    return hisi_rd(p, A_TRACE_WR_STS);
}

/* Stopped, the write status stays for the driver. */
static void test_wr_sts_kept_after_stop(void)
{
    uint32_t sts;
    Ptt p;

    ptt_init(&p, "", NULL);
    sts = ptt_trace_100us(&p, rp_inbound_4dw);
    g_assert_cmphex(sts, !=, 0);
    qtest_clock_step(p.qts, 10 * 1000 * 1000);
    g_assert_cmphex(hisi_rd(&p, A_TRACE_WR_STS), ==, sts);
    hisi_fini(&p);
}

static void test_rst_clears_wr_sts(void)
{
    Ptt p;

    ptt_init(&p, "", NULL);
    ptt_start(&p, rp_inbound_4dw);
    qtest_clock_step(p.qts, 100 * 1000);
    ptt_stop(&p);
    g_assert_cmphex(hisi_rd(&p, A_TRACE_WR_STS), !=, 0);
    hisi_wr(&p, A_TRACE_CTRL, R_TRACE_CTRL_RST_MASK);
    g_assert_cmphex(hisi_rd(&p, A_TRACE_WR_STS), ==, 0);
    hisi_fini(&p);
}

/*
 * Step the clock until a buffer's status is set; whether an MSI came
 * before it.
 */
static bool ptt_wait_buffer_full(Ptt *p)
{
    bool early_msi = false;

    for (int steps = 0; !(hisi_rd(p, A_TRACE_INT_STAT) &
                          R_TRACE_INT_STAT_BUFS_MASK); steps++) {
        g_assert_cmpint(steps, <, 1000);
        early_msi |= hisi_msi_taken(p);
        qtest_clock_step(p->qts, 20 * 1000);
    }
    return early_msi;
}

/* Buffers 0, 1, 2, 3, then 0 again: a status bit each, W1C */
static void test_ring_order(void)
{
    Ptt p;

    ptt_init(&p, "", NULL);
    ptt_start(&p, rp_8dw);
    for (int round = 0; round < 6; round++) {
        unsigned buf = round % HISI_PTT_NUM_BUFS;

        ptt_wait_buffer_full(&p);
        g_assert_cmphex(hisi_rd(&p, A_TRACE_INT_STAT), ==, BIT(buf));
        g_assert_cmphex(FIELD_EX32(hisi_rd(&p, A_TRACE_WR_STS), TRACE_WR_STS,
                                   BUFFER), ==,
                        (buf + 1) % HISI_PTT_NUM_BUFS);
        hisi_wr(&p, A_TRACE_INT_STAT, BIT(buf));
        g_assert_cmphex(hisi_rd(&p, A_TRACE_INT_STAT), ==, 0);
    }
    ptt_stop(&p);
    hisi_fini(&p);
}

/* Time stamp of 8DW record @n of buffer @buf */
static uint32_t ptt_rec8_time(Ptt *p, int buf, int n)
{
    return qtest_readl(p->qts, BUF_ADDR(buf) + n * REC8_SIZE + REC8_TIME);
}

/* 8DW records, in time order across buffers too */
static void test_records_in_time_order(void)
{
    uint32_t last_time = 0;
    Ptt p;

    ptt_init(&p, "", NULL);
    ptt_start(&p, rp_8dw);
    for (int round = 0; round < 6; round++) {
        unsigned buf = round % HISI_PTT_NUM_BUFS;

        ptt_wait_buffer_full(&p);
        for (int n = 0; n < BUF_SIZE / REC8_SIZE; n++) {
            g_assert_cmphex(qtest_readl(p.qts, BUF_ADDR(buf) +
                                        n * REC8_SIZE), ==, REC8_MARK);
            g_assert_cmpuint(ptt_rec8_time(&p, buf, n), >=, last_time);
            last_time = ptt_rec8_time(&p, buf, n);
        }
        hisi_wr(&p, A_TRACE_INT_STAT, BIT(buf));
    }
    ptt_stop(&p);
    hisi_fini(&p);
}

/* One MSI per full buffer, none before */
static void test_msi_per_full_buffer(void)
{
    Ptt p;

    ptt_init(&p, "", NULL);
    ptt_start(&p, rp_8dw);
    for (int round = 0; round < 6; round++) {
        unsigned buf = round % HISI_PTT_NUM_BUFS;

        g_assert_false(ptt_wait_buffer_full(&p));
        g_assert_true(hisi_msi_taken(&p));
        hisi_wr(&p, A_TRACE_INT_STAT, BIT(buf));
    }
    ptt_stop(&p);
    hisi_fini(&p);
}

/*
 * While buffer 0's status is set, buffer 1 waits one record short;
 * writing 0 releases nothing, the W1C write of bit 0 lets it end.
 */
static void test_stall_until_released(void)
{
    Ptt p;

    ptt_init(&p, "", NULL);
    ptt_start(&p, rp_4dw);
    qtest_clock_step(p.qts, 100 * 1000 * 1000);
    g_assert_cmphex(hisi_rd(&p, A_TRACE_INT_STAT), ==, BIT(0));
    g_assert_true(hisi_msi_taken(&p));
    g_assert_cmphex(FIELD_EX32(hisi_rd(&p, A_TRACE_WR_STS), TRACE_WR_STS,
                               BUFFER), ==, 1);
    g_assert_cmphex(FIELD_EX32(hisi_rd(&p, A_TRACE_WR_STS), TRACE_WR_STS,
                               WRITE), ==, BUF_SIZE - REC4_SIZE);
    hisi_wr(&p, A_TRACE_INT_STAT, 0);
    g_assert_cmphex(hisi_rd(&p, A_TRACE_INT_STAT), ==, BIT(0));
    hisi_wr(&p, A_TRACE_INT_STAT, BIT(0));
    qtest_clock_step(p.qts, 1000 * 1000);
    g_assert_cmphex(hisi_rd(&p, A_TRACE_INT_STAT), ==, BIT(1));
    ptt_stop(&p);
    hisi_fini(&p);
}

/*
 * While buffer 0's status waits for the driver, the clock alone fills
 * the next buffer up to its last record, with no register access: 8DW
 * buffers of two records and the edu's DMA writes, 200000/s from time 0
 * (a TLP every 5 us), fill buffer 0 at 10 us (TLPs at 0 and 5 us); by
 * 20 us buffer 1 has the record of the TLP at 10 us and the one at 15 us
 * is lost, as the records and lost-tlps properties show in between.
 * Then one record short, the stalled trace runs no timer: the TLPs lost
 * meanwhile are counted at the driver's next access, not by the clock.
 */
static void test_stalled_buffer_filled_by_clock(void)
{
    Ptt p;

    ptt_init(&p, ",traffic=t0,id=ptt", "-object", "hisi-traffic,id=t0",
             NULL);
    ptt_start_sized(&p, edu_dma_writes, 2 * REC8_SIZE);
    qtest_clock_step(p.qts, 12 * 1000);
    g_assert_true(hisi_msi_taken(&p));              /* buffer 0's */
    qtest_clock_step(p.qts, 10 * 1000);             /* to 22 us */
    g_assert_cmpuint(ptt_qom_get_uint(&p, "records"), ==, 3);
    g_assert_cmpuint(ptt_qom_get_uint(&p, "lost-tlps"), ==, 1);
    g_assert_cmphex(qtest_readl(p.qts, BUF_ADDR(1)), ==, REC8_MARK);
    g_assert_cmpuint(ptt_rec8_time(&p, 1, 0), ==, 10 * 1000);
    /* A register read adds the TLP at 20 us, lost too. */
    g_assert_cmphex(hisi_rd(&p, A_TRACE_WR_STS), ==,
                    FIELD_DP32(REC8_SIZE, TRACE_WR_STS, BUFFER, 1));
    g_assert_cmpuint(ptt_qom_get_uint(&p, "records"), ==, 3);
    g_assert_cmpuint(ptt_qom_get_uint(&p, "lost-tlps"), ==, 2);
    g_assert_cmphex(hisi_rd(&p, A_TRACE_INT_STAT), ==, BIT(0));
    /* The TLPs at 25, 30, 35 and 40 us wait for the next access. */
    qtest_clock_step(p.qts, 20 * 1000);             /* to 42 us */
    g_assert_cmpuint(ptt_qom_get_uint(&p, "lost-tlps"), ==, 2);
    g_assert_cmphex(hisi_rd(&p, A_TRACE_INT_STAT), ==, BIT(0));
    g_assert_cmpuint(ptt_qom_get_uint(&p, "records"), ==, 3);
    g_assert_cmpuint(ptt_qom_get_uint(&p, "lost-tlps"), ==, 6);
    ptt_stop(&p);
    hisi_fini(&p);
}

/*
 * With no register access, the clock completes a buffer 1 us after the
 * last one at the soonest: ten 8DW records of DMA writes at 10^8/s are
 * there by 100 ns, the MSI comes at 1 us.
 */
static void test_fast_buffer_msi_after_1us(void)
{
    Ptt p;

    ptt_init(&p, ",traffic=t0,id=ptt", "-object",
             "hisi-traffic,id=t0,rules=stream=dma-write,,rate=100000000",
             NULL);
    ptt_start_sized(&p, edu_dma_writes, 10 * REC8_SIZE);
    qtest_clock_step(p.qts, 999);
    g_assert_false(hisi_msi_taken(&p));
    qtest_clock_step(p.qts, 1);
    g_assert_true(hisi_msi_taken(&p));
    g_assert_cmpuint(ptt_rec8_time(&p, 0, 9), <, 100);
    ptt_stop(&p);
    hisi_fini(&p);
}

/* A masked buffer: its status, no MSI; unmasked while pending: the MSI */
static void test_masked_buffer_msi_on_unmask(void)
{
    Ptt p;

    ptt_init(&p, "", NULL);
    ptt_start(&p, rp_4dw);
    hisi_wr(&p, A_TRACE_INT_MASK, BIT(1));
    qtest_clock_step(p.qts, 100 * 1000 * 1000);
    g_assert_true(hisi_msi_taken(&p));          /* buffer 0's */
    hisi_wr(&p, A_TRACE_INT_STAT, BIT(0));
    qtest_clock_step(p.qts, 1000 * 1000);
    g_assert_cmphex(hisi_rd(&p, A_TRACE_INT_STAT), ==, BIT(1));
    g_assert_false(hisi_msi_taken(&p));
    hisi_wr(&p, A_TRACE_INT_MASK, 0);
    g_assert_true(hisi_msi_taken(&p));
    ptt_stop(&p);
    hisi_fini(&p);
}

/* Bytes traced in 1 ms of @t */
static uint32_t ptt_traced_1ms(Ptt *p, PttTrace t)
{
    ptt_start(p, t);
    qtest_clock_step(p->qts, 1000 * 1000);
    ptt_stop(p);
    return ptt_ring_pos(hisi_rd(p, A_TRACE_WR_STS));
}

static void test_filter_root_port(void)
{
    PttTrace other_port = rp_4dw;
    Ptt p;

    other_port.target = BIT(2);
    ptt_init(&p, "", NULL);
    g_assert_cmpuint(ptt_traced_1ms(&p, rp_4dw), >, 0);
    g_assert_cmpuint(ptt_traced_1ms(&p, other_port), ==, 0);
    hisi_fini(&p);
}

static void test_filter_requester(void)
{
    PttTrace edu = { .dir = DIR_INBOUND_B, .type = TYPE_ALL,
                     .requester = true, .target = EDU_BDF };
    PttTrace other = edu;
    Ptt p;

    other.target = EDU_BDF + 1;
    ptt_init(&p, "", NULL);
    g_assert_cmpuint(ptt_traced_1ms(&p, edu), >, 0);
    g_assert_cmpuint(ptt_traced_1ms(&p, other), ==, 0);
    hisi_fini(&p);
}

/* The TLP header's Type, in DW0 of a 4DW record */
#define REC4_TYPE(dw0)      (((dw0) >> 25) & 0x1f)
#define TLP_TYPE_CPL        0x0a

/*
 * Trace @t for 100 us (one buffer's worth) and decode each 4DW record's
 * Requester ID (header DW1[31:16] of a request, DW2[31:16] of a
 * completion): how many records there were, and how many had @requester.
 */
static uint32_t ptt_records_of_requester(Ptt *p, PttTrace t,
                                         uint16_t requester, uint32_t *match)
{
    uint32_t sts, n;

    sts = ptt_trace_100us(p, t);
    g_assert_cmphex(FIELD_EX32(sts, TRACE_WR_STS, BUFFER), ==, 0);
    n = FIELD_EX32(sts, TRACE_WR_STS, WRITE) / REC4_SIZE;
    *match = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t rec = BUF_ADDR(0) + i * REC4_SIZE;
        bool cpl = REC4_TYPE(qtest_readl(p->qts, rec)) == TLP_TYPE_CPL;
        uint32_t id = qtest_readl(p->qts, rec + (cpl ? 8 : 4)) >> 16;

        *match += id == requester;
    }
    return n;
}

/*
 * The requester filter selects by the TLP's Requester ID: every record of
 * a trace filtered on the edu endpoint has the edu endpoint as requester
 * (its DMA requests inbound, the completions to it outbound); the CPU's
 * writes to it, whose requester is the root port (00:10.0), are not
 * traced, but are all of a trace filtered on the root port.
 */
static void test_filter_requester_id(void)
{
    PttTrace in = { .dir = DIR_INBOUND, .type = TYPE_ALL,
                    .requester = true, .target = EDU_BDF };
    PttTrace out_cpl = { .dir = DIR_OUTBOUND, .type = TYPE_CPL,
                         .requester = true, .target = EDU_BDF };
    PttTrace out_posted = out_cpl;
    uint32_t n, match;
    Ptt p;

    out_posted.type = TYPE_POSTED;
    ptt_init(&p, "", NULL);
    n = ptt_records_of_requester(&p, in, EDU_BDF, &match);
    g_assert_cmpuint(n, >, 0);
    g_assert_cmpuint(match, ==, n);
    n = ptt_records_of_requester(&p, out_cpl, EDU_BDF, &match);
    g_assert_cmpuint(n, >, 0);
    g_assert_cmpuint(match, ==, n);
    g_assert_cmpuint(ptt_traced_1ms(&p, out_posted), ==, 0);
    out_posted.target = 0x0080;
    n = ptt_records_of_requester(&p, out_posted, 0x0080, &match);
    g_assert_cmpuint(n, >, 0);
    g_assert_cmpuint(match, ==, n);
    hisi_fini(&p);
}

/*
 * Outbound TLPs take one type (hisi-ptt.rst: "can only specify one when
 * tracing outbound TLP headers"): with two selected, none is traced.
 */
static void test_outbound_one_type(void)
{
    PttTrace out_p = { .dir = DIR_OUTBOUND, .type = TYPE_POSTED,
                       .target = RP_PORT_BIT };
    PttTrace out_p_np = out_p;
    Ptt p;

    out_p_np.type = TYPE_POSTED | TYPE_NON_POSTED;
    ptt_init(&p, "", NULL);
    g_assert_cmpuint(ptt_traced_1ms(&p, out_p), >, 0);
    hisi_assert_no_guest_error(&p);
    g_assert_cmpuint(ptt_traced_1ms(&p, out_p_np), ==, 0);
    hisi_assert_guest_error(&p, "outbound takes one type, no outbound TLP "
                            "will be traced");
    hisi_fini(&p);
}

static void test_no_type_traces_nothing(void)
{
    PttTrace no_type = rp_4dw;
    Ptt p;

    no_type.type = 0;
    ptt_init(&p, "", NULL);
    g_assert_cmpuint(ptt_traced_1ms(&p, no_type), ==, 0);
    hisi_assert_guest_error(&p, "hisi-ptt: trace started with no TLP type "
                            "selected");
    hisi_fini(&p);
}

static void test_8dw_direction_0_traces_nothing(void)
{
    PttTrace reserved = rp_inbound_4dw;
    Ptt p;

    reserved.fmt_8dw = true;
    ptt_init(&p, "", NULL);
    g_assert_cmpuint(ptt_traced_1ms(&p, reserved), ==, 0);
    hisi_assert_guest_error(&p, "hisi-ptt: direction 0 is reserved with the "
                            "8DW format");
    hisi_fini(&p);
}

static void test_no_dma_without_bus_master(void)
{
    Ptt p;
    uint16_t cmd;

    ptt_init(&p, "", NULL);
    cmd = qpci_config_readw(p.dev, PCI_COMMAND);
    qpci_config_writew(p.dev, PCI_COMMAND, cmd & ~PCI_COMMAND_MASTER);
    qtest_writel(p.qts, BUF_BASE, 0);
    ptt_start(&p, rp_4dw);
    qtest_clock_step(p.qts, 1000 * 1000);
    /* The trace stops at the first DMA; nothing reaches memory. */
    g_assert_true(ptt_idle(&p));
    g_assert_cmphex(qtest_readl(p.qts, BUF_BASE), ==, 0);
    g_assert_false(hisi_msi_taken(&p));
    hisi_assert_guest_error(&p, "hisi-ptt: trace DMA with bus mastering "
                            "disabled: trace stopped");
    hisi_fini(&p);
}

/* Where a test aims trace buffer 1: none of them is writable RAM */
typedef enum PttBadBuffer {
    BAD_BUFFER_NOWHERE,         /* nothing is mapped there */
    BAD_BUFFER_FLASH,           /* the virt machine's second flash */
    BAD_BUFFER_OWN_REGISTERS,   /* the PTT's BAR */
    BAD_BUFFER_RAM_END,         /* starts in RAM, ends past it */
} PttBadBuffer;

#define VIRT_FLASH1             0x04000000ull
#define RAM_END                 0x60000000ull   /* -m 512M */

static uint64_t ptt_bad_buffer(Ptt *p, PttBadBuffer where)
{
    switch (where) {
    case BAD_BUFFER_NOWHERE:
        return 0xdead00000000ull;
    case BAD_BUFFER_FLASH:
        return VIRT_FLASH1;
    case BAD_BUFFER_OWN_REGISTERS:
        return p->bar.addr;
    default:
        return RAM_END - BUF_SIZE / 2;
    }
}

/*
 * A buffer that is not RAM fails the trace at its first write, and nothing
 * is written there (each 8 bytes to the flash would be a flash command to
 * QEMU: one new memory map each); one that ends past RAM takes the records
 * that fit in RAM.
 */
static void test_bad_dma_address(gconstpointer data)
{
    PttBadBuffer where = GPOINTER_TO_UINT(data);
    bool readable = where == BAD_BUFFER_NOWHERE || where == BAD_BUFFER_FLASH;
    uint64_t addr, before[BUF_SIZE / 8], after[BUF_SIZE / 8];
    Ptt p;

    ptt_init(&p, "", NULL);
    addr = ptt_bad_buffer(&p, where);
    if (readable) {
        qtest_memread(p.qts, addr, before, sizeof(before));
    }
    ptt_start(&p, rp_4dw);
    ptt_stop(&p);
    hisi_wr(&p, TRACE_ADDR_BASE_LO(1), (uint32_t)addr);
    hisi_wr(&p, TRACE_ADDR_BASE_HI(1), addr >> 32);
    hisi_wr(&p, A_TRACE_CTRL, R_TRACE_CTRL_RST_MASK);
    hisi_wr(&p, A_TRACE_CTRL, ptt_ctrl(rp_4dw) | R_TRACE_CTRL_EN_MASK);
    qtest_clock_step(p.qts, 100 * 1000 * 1000);
    hisi_wr(&p, A_TRACE_INT_STAT, BIT(0));
    qtest_clock_step(p.qts, 100 * 1000 * 1000);
    /* The first write to buffer 1 failed: the trace stopped there. */
    g_assert_true(ptt_idle(&p));
    g_assert_cmphex(FIELD_EX32(hisi_rd(&p, A_TRACE_WR_STS), TRACE_WR_STS,
                               BUFFER), ==, 1);
    g_assert_cmphex(FIELD_EX32(hisi_rd(&p, A_TRACE_WR_STS), TRACE_WR_STS,
                               WRITE), <=,
                    where == BAD_BUFFER_RAM_END ? BUF_SIZE / 2 : 0);
    g_assert_cmphex(hisi_rd(&p, A_TRACE_INT_STAT), ==, 0);
    hisi_assert_guest_error(&p, ": trace stopped");
    if (readable) {
        qtest_memread(p.qts, addr, after, sizeof(after));
        g_assert_cmpmem(before, sizeof(before), after, sizeof(after));
    }
    /* With buffer 1 in RAM again, a new trace fills it. */
    ptt_start(&p, rp_4dw);
    ptt_wait_buffer_full(&p);
    hisi_wr(&p, A_TRACE_INT_STAT, BIT(0));
    ptt_wait_buffer_full(&p);
    g_assert_cmphex(hisi_rd(&p, A_TRACE_INT_STAT), ==, BIT(1));
    ptt_stop(&p);
    hisi_fini(&p);
}

/*
 * A setting changed while tracing is ignored, and TRACE_CTRL written again
 * with the same value (EN still set) is no stop: the trace goes on as it
 * was.
 */
static void test_ctrl_change_while_tracing(void)
{
    uint32_t ctrl = ptt_ctrl(rp_4dw) | R_TRACE_CTRL_EN_MASK;
    uint32_t written;
    Ptt p;

    ptt_init(&p, "", NULL);
    ptt_start(&p, rp_4dw);
    qtest_clock_step(p.qts, 100 * 1000);
    hisi_wr(&p, A_TRACE_CTRL, ctrl | R_TRACE_CTRL_DATA_FORMAT_MASK);
    g_assert_cmphex(hisi_rd(&p, A_TRACE_CTRL), ==, ctrl);
    hisi_assert_guest_error(&p, "written while tracing: only EN and RST act "
                            "then, ignored");
    hisi_wr(&p, A_TRACE_CTRL, ctrl);
    g_assert_cmphex(hisi_rd(&p, A_TRACE_CTRL), ==, ctrl);
    hisi_assert_no_guest_error(&p);
    written = FIELD_EX32(hisi_rd(&p, A_TRACE_WR_STS), TRACE_WR_STS, WRITE);
    qtest_clock_step(p.qts, 100 * 1000);
    g_assert_false(ptt_idle(&p));
    g_assert_cmpuint(FIELD_EX32(hisi_rd(&p, A_TRACE_WR_STS), TRACE_WR_STS,
                                WRITE), >, written);
    g_assert_cmphex(hisi_rd(&p, A_TRACE_CTRL), ==, ctrl);
    ptt_stop(&p);
    hisi_fini(&p);
}

/* Trace 4DW for 100 us, stop, and shrink the buffers to one 4DW record */
static uint32_t ptt_stop_and_shrink(Ptt *p)
{
    uint32_t sts;

    sts = ptt_trace_100us(p, rp_4dw);
    g_assert_cmpuint(FIELD_EX32(sts, TRACE_WR_STS, WRITE), >, REC4_SIZE);
    hisi_wr(p, A_TRACE_ADDR_SIZE, REC4_SIZE);
    hisi_wr(p, A_TRACE_INT_MASK, R_TRACE_INT_MASK_BUFS_MASK);
    return sts;
}

/* Buffers too small for an 8DW record: the trace is not started. */
static void test_8dw_small_buffers_not_started(void)
{
    PttTrace t = rp_4dw;
    uint32_t sts;
    Ptt p;

    ptt_init(&p, "", NULL);
    sts = ptt_stop_and_shrink(&p);
    t.fmt_8dw = true;
    hisi_wr(&p, A_TRACE_CTRL, ptt_ctrl(t) | R_TRACE_CTRL_EN_MASK);
    qtest_clock_step(p.qts, 10 * 1000 * 1000);
    g_assert_true(ptt_idle(&p));
    g_assert_false(FIELD_EX32(hisi_rd(&p, A_TRACE_CTRL), TRACE_CTRL, EN));
    g_assert_cmphex(hisi_rd(&p, A_TRACE_WR_STS), ==, sts);
    hisi_assert_guest_error(&p, "smaller than a record: not started");
    hisi_fini(&p);
}

/*
 * Started again without RST at an offset past the shrunk buffers' end:
 * one 4DW record per buffer, from offset 0, never past the end.
 */
static void test_restart_without_rst_from_offset_0(void)
{
    Ptt p;

    ptt_init(&p, "", NULL);
    qtest_writel(p.qts, BUF_BASE + BUF_SIZE / 2, 0x5a5a5a5a);
    ptt_stop_and_shrink(&p);
    hisi_wr(&p, A_TRACE_CTRL, ptt_ctrl(rp_4dw) | R_TRACE_CTRL_EN_MASK);
    qtest_clock_step(p.qts, 10 * 1000 * 1000);
    g_assert_cmphex(FIELD_EX32(hisi_rd(&p, A_TRACE_WR_STS), TRACE_WR_STS,
                               WRITE), ==, 0);
    g_assert_cmphex(qtest_readl(p.qts, BUF_BASE + BUF_SIZE / 2), ==,
                    0x5a5a5a5a);
    hisi_assert_guest_error(&p, "trace started without a DMA reset at offset "
                            "0x");
    ptt_stop(&p);
    hisi_fini(&p);
}

/*
 * Started again without RST where a record still fits: only RST clears
 * TRACE_WR_STS, so the trace goes on from the offset where it stopped,
 * after the records already in the buffer.
 */
static void test_restart_without_rst_goes_on(void)
{
    uint32_t sts;
    Ptt p;

    ptt_init(&p, "", NULL);
    sts = ptt_trace_100us(&p, rp_4dw);
    g_assert_cmpuint(FIELD_EX32(sts, TRACE_WR_STS, WRITE), >, 0);
    hisi_wr(&p, A_TRACE_CTRL, ptt_ctrl(rp_4dw) | R_TRACE_CTRL_EN_MASK);
    g_assert_false(ptt_idle(&p));
    g_assert_cmphex(hisi_rd(&p, A_TRACE_WR_STS), ==, sts);
    qtest_clock_step(p.qts, 100 * 1000);
    g_assert_cmpuint(ptt_ring_pos(hisi_rd(&p, A_TRACE_WR_STS)), >,
                     ptt_ring_pos(sts));
    ptt_stop(&p);
    hisi_fini(&p);
}

/*
 * Started again without RST where exactly one record still fits (the
 * buffers shrunk to end one 4DW record after the offset where the trace
 * stopped): that record goes at the end of buffer 0, after the records
 * there, which stay as they were.
 */
static void test_restart_without_rst_last_record(void)
{
    g_autofree uint8_t *before = NULL;
    g_autofree uint8_t *after = NULL;
    uint32_t sts, write;
    Ptt p;

    ptt_init(&p, "", NULL);
    sts = ptt_trace_100us(&p, rp_inbound_4dw);
    write = FIELD_EX32(sts, TRACE_WR_STS, WRITE);
    g_assert_cmpuint(FIELD_EX32(sts, TRACE_WR_STS, BUFFER), ==, 0);
    g_assert_cmpuint(write, >, 0);
    before = g_malloc(write);
    after = g_malloc(write);
    qtest_memread(p.qts, BUF_BASE, before, write);
    hisi_wr(&p, A_TRACE_ADDR_SIZE, write + REC4_SIZE);
    hisi_wr(&p, A_TRACE_CTRL, ptt_ctrl(rp_inbound_4dw) | R_TRACE_CTRL_EN_MASK);
    qtest_clock_step(p.qts, 100 * 1000);
    g_assert_cmphex(hisi_rd(&p, A_TRACE_INT_STAT) & BIT(0), ==, BIT(0));
    qtest_memread(p.qts, BUF_BASE, after, write);
    g_assert_cmpmem(after, write, before, write);
    hisi_assert_no_guest_error(&p);
    ptt_stop(&p);
    hisi_fini(&p);
}

/* Every buffer needs its address: the first or the last missing, no start */
static void test_buffer_without_address(void)
{
    static const unsigned missing[] = { 0, HISI_PTT_NUM_BUFS - 1 };
    Ptt p;

    ptt_init(&p, "", NULL);
    for (int i = 0; i < ARRAY_SIZE(missing); i++) {
        ptt_start(&p, rp_inbound_4dw);
        ptt_stop(&p);
        hisi_wr(&p, TRACE_ADDR_BASE_LO(missing[i]), 0);
        hisi_wr(&p, TRACE_ADDR_BASE_HI(missing[i]), 0);
        hisi_wr(&p, A_TRACE_CTRL, ptt_ctrl(rp_inbound_4dw) |
                R_TRACE_CTRL_EN_MASK);
        g_assert_true(ptt_idle(&p));
        hisi_assert_guest_errorf(&p, "hisi-ptt: trace started with no address "
                                 "for buffer %u: not started", missing[i]);
    }
    hisi_fini(&p);
}

/* Started with no buffers: not started; with buffers later, it traces. */
static void test_no_buffers(void)
{
    Ptt p;

    ptt_init(&p, "", NULL);
    hisi_wr(&p, A_TRACE_CTRL, ptt_ctrl(rp_inbound_4dw) |
            R_TRACE_CTRL_EN_MASK);
    g_assert_true(ptt_idle(&p));
    hisi_assert_guest_error(&p, "hisi-ptt: trace started with buffer size "
                            "0x0, smaller than a record: not started");
    qtest_clock_step(p.qts, 1000 * 1000);
    g_assert_cmphex(hisi_rd(&p, A_TRACE_WR_STS), ==, 0);
    ptt_start(&p, rp_inbound_4dw);
    qtest_clock_step(p.qts, 100 * 1000);
    g_assert_cmpuint(FIELD_EX32(hisi_rd(&p, A_TRACE_WR_STS), TRACE_WR_STS,
                                WRITE), >, 0);
    hisi_fini(&p);
}

/* After LOCATION: no register there */
#define UNKNOWN_REG         0x0ffc

/* Every register */
static void ptt_snapshot_all(HisiSnapshot *s)
{
    static const uint64_t regs[] = {
        A_TUNING_CTRL, A_TUNING_DATA, A_TRACE_ADDR_SIZE, A_TRACE_CTRL,
        A_TRACE_INT_STAT, A_TRACE_INT_MASK, A_TUNING_INT_STAT,
        A_TRACE_WR_STS, A_TRACE_STS, A_DEVICE_RANGE, A_LOCATION,
    };

    for (int i = 0; i < ARRAY_SIZE(regs); i++) {
        hisi_snapshot_add(s, regs[i]);
    }
    for (int i = 0; i < HISI_PTT_NUM_BUFS; i++) {
        hisi_snapshot_add(s, TRACE_ADDR_BASE_LO(i));
        hisi_snapshot_add(s, TRACE_ADDR_BASE_HI(i));
    }
}

/* An RCiEP, as the device's driver and lspci find it */
static void test_rciep(void)
{
    Ptt p;

    ptt_init(&p, "", NULL);
    hisi_assert_rciep(&p);
    hisi_fini(&p);
}

/*
 * Byte and halfword accesses, unaligned or unknown offsets, writes to
 * read-only registers: logged, no effect. (A 64-bit access is two 32-bit
 * ones: the registers are 32 bits, .valid.max_access_size.)
 */
static void test_bad_accesses(void)
{
    static const uint32_t read_only[] = {
        A_LOCATION, A_TRACE_STS, A_TUNING_INT_STAT, A_TRACE_WR_STS,
        A_DEVICE_RANGE,
    };
    HisiSnapshot before = { 0 };
    Ptt p;

    ptt_init(&p, "", NULL);
    /* a state to keep: buffers and a tune event set up */
    for (int i = 0; i < HISI_PTT_NUM_BUFS; i++) {
        hisi_wr(&p, TRACE_ADDR_BASE_LO(i), (uint32_t)BUF_ADDR(i));
    }
    hisi_wr(&p, A_TRACE_ADDR_SIZE, BUF_SIZE);
    ptt_tune(&p, TUNE_QOS_TX_P, TUNE_LEVEL_MAX);
    ptt_snapshot_all(&before);
    hisi_snapshot_take(&p, &before);

    g_assert_cmphex(qpci_io_readb(p.dev, p.bar, A_TRACE_STS), ==, 0);
    g_assert_cmphex(qpci_io_readw(p.dev, p.bar, A_TRACE_STS), ==, 0);
    hisi_assert_no_guest_error(&p);
    g_assert_cmphex(hisi_rd(&p, UNKNOWN_REG), ==, 0);
    hisi_assert_guest_error(&p, "hisi-ptt: read of unknown register 0xffc\n");
    g_assert_cmphex(hisi_rd(&p, A_TRACE_STS + 2), ==, 0);
    qpci_io_writeb(p.dev, p.bar, A_TRACE_INT_MASK, 0);
    qpci_io_writew(p.dev, p.bar, A_TRACE_INT_MASK, 0);
    qpci_io_writeb(p.dev, p.bar, A_TRACE_CTRL, R_TRACE_CTRL_EN_MASK);
    hisi_wr(&p, UNKNOWN_REG, 0xffffffff);
    hisi_assert_guest_error(&p, "hisi-ptt: write to unknown register 0xffc "
                            "ignored\n");
    for (int i = 0; i < ARRAY_SIZE(read_only); i++) {
        hisi_wr(&p, read_only[i], 0x12345678);
        hisi_assert_guest_errorf(&p, "hisi-ptt: write to read-only register "
                                 "0x%03x ignored\n", read_only[i]);
    }
    g_assert_cmphex(hisi_rd(&p, A_TRACE_INT_MASK), ==,
                    R_TRACE_INT_MASK_BUFS_MASK);
    g_assert_cmphex(hisi_rd(&p, A_LOCATION), ==, 0);
    g_assert_true(ptt_idle(&p));
    hisi_snapshot_assert_same(&p, &before);

    /* The device still tunes and traces. */
    g_assert_cmpuint(ptt_tune_read(&p, TUNE_QOS_TX_P), ==, TUNE_LEVEL_MAX);
    ptt_start(&p, rp_4dw);
    qtest_clock_step(p.qts, 100 * 1000);
    g_assert_cmpuint(FIELD_EX32(hisi_rd(&p, A_TRACE_WR_STS), TRACE_WR_STS,
                                WRITE), >, 0);
    hisi_fini(&p);
}

/*
 * TLPs the trace selected so far, from the device's statistics: the
 * records written, and those lost while the full buffers waited.
 */
static uint64_t ptt_tlps_selected(Ptt *p)
{
    return ptt_qom_get_uint(p, "records") + ptt_qom_get_uint(p, "lost-tlps");
}

/* TLPs the trace selected over the next @ns of virtual time */
static uint64_t ptt_tlps_selected_in(Ptt *p, int64_t ns)
{
    uint64_t before;

    hisi_rd(p, A_TRACE_WR_STS);     /* brings the trace up to now */
    before = ptt_tlps_selected(p);
    qtest_clock_step(p->qts, ns);
    hisi_rd(p, A_TRACE_WR_STS);
    return ptt_tlps_selected(p) - before;
}

/*
 * TLPs a trace of the root port's TLPs selects in its first ms, written or
 * lost (@lost of them), in buffers of @size bytes the driver never frees
 */
static uint64_t ptt_rp_tlps_in_1ms(uint32_t size, uint64_t *lost)
{
    uint64_t n;
    Ptt p;

    ptt_init(&p, ",traffic=t0,id=ptt", "-object", "hisi-traffic,id=t0",
             NULL);
    ptt_start_sized(&p, rp_8dw, size);
    qtest_clock_step(p.qts, 1000 * 1000);
    hisi_rd(&p, A_TRACE_WR_STS);
    n = ptt_tlps_selected(&p);
    *lost = ptt_qom_get_uint(&p, "lost-tlps");
    g_test_message("%" PRIu64 " TLPs, %" PRIu64 " lost", n, *lost);
    hisi_fini(&p);
    return n;
}

/*
 * A stalled trace counts what it loses of every stream it selects, and
 * nothing it wrote: in buffers of 4 KiB, 128 records, the trace of the
 * root port's TLPs (several streams, some of them at the same ns) fills
 * the first, writes the second up to its last record and loses the rest;
 * the two add up to what it selects in buffers of 16 KiB, which hold them
 * all (they overlap in RAM, which the count does not mind). The loss once
 * counted from the time of the first TLP not written, so also the TLPs of
 * that ns written before it: here one more (306).
 */
static void test_stalled_lost_every_stream(void)
{
    uint64_t lost;
    uint64_t all = ptt_rp_tlps_in_1ms(0x4000, &lost);

    g_assert_cmpuint(lost, ==, 0);
    g_assert_cmpuint(ptt_rp_tlps_in_1ms(BUF_SIZE, &lost), ==, all);
    g_assert_cmpuint(lost, ==, all - (2 * BUF_SIZE / REC8_SIZE - 1));
}

/* The PTT on traffic object t0, tracing the edu endpoint's DMA writes */
static void ptt_init_traced_traffic(Ptt *p)
{
    ptt_init(p, ",traffic=t0,id=ptt", "-object", "hisi-traffic,id=t0", NULL);
    ptt_start(p, edu_dma_writes);
}

static void ptt_set_paused(Ptt *p, bool paused)
{
    qtest_qom_set_bool(p->qts, "t0", "paused", paused);
}

static void ptt_set_burst_ns(Ptt *p, int burst_ns)
{
    qtest_qmp_assert_success(p->qts, "{'execute': 'qom-set', 'arguments':"
                             " {'path': 't0', 'property': 'burst-ns',"
                             "  'value': %d}}", burst_ns);
}

/* The built-in 200000 DMA writes/s: 200 per ms, give or take one */
static void test_traffic_default_rate(void)
{
    Ptt p;

    ptt_init_traced_traffic(&p);
    g_assert_cmpuint(ptt_tlps_selected_in(&p, 1000 * 1000), >=, 199);
    g_assert_cmpuint(ptt_tlps_selected_in(&p, 1000 * 1000), <=, 201);
    hisi_fini(&p);
}

/* From a rule change on, exactly the new rate: TLP 0 at the change */
static void test_traffic_rule_change(void)
{
    Ptt p;

    ptt_init_traced_traffic(&p);
    qtest_clock_step(p.qts, 1000 * 1000);
    hisi_set_rules(p.qts, "stream=dma-write,rate=600000");
    g_assert_cmpuint(ptt_tlps_selected_in(&p, 1000 * 1000), ==, 600);
    hisi_fini(&p);
}

/* A rule for another endpoint changes nothing here. */
static void test_traffic_rule_other_endpoint(void)
{
    Ptt p;

    ptt_init_traced_traffic(&p);
    qtest_clock_step(p.qts, 1000 * 1000);
    hisi_set_rules(p.qts, "ep=05:00.0,stream=all,rate=0");
    g_assert_cmpuint(ptt_tlps_selected_in(&p, 1000 * 1000), ==, 200);
    hisi_fini(&p);
}

/* Bad rules are refused with a reason, and change nothing. */
static void test_traffic_bad_rule_refused(void)
{
    g_autofree char *rules = NULL;
    QDict *err;
    Ptt p;

    ptt_init_traced_traffic(&p);
    hisi_set_rules(p.qts, "stream=dma-write,rate=600000");
    err = qtest_qmp_assert_failure_ref(p.qts, "{'execute': 'qom-set',"
                                       " 'arguments': {'path': 't0',"
                                       "  'property': 'rules',"
                                       "  'value': 'stream=dma-write,"
                                       "rate=fast'}}");
    g_assert_nonnull(strstr(qdict_get_str(err, "desc"),
                            "bad rate value 'fast'"));
    qobject_unref(err);
    rules = hisi_rules(p.qts);
    g_assert_cmpstr(rules, ==, "stream=dma-write,rate=600000");
    g_assert_cmpuint(ptt_tlps_selected_in(&p, 1000 * 1000), ==, 600);
    hisi_fini(&p);
}

/* Paused: nothing; resumed: the traffic again */
static void test_traffic_pause_resume(void)
{
    Ptt p;

    ptt_init_traced_traffic(&p);
    qtest_clock_step(p.qts, 1000 * 1000);
    ptt_set_paused(&p, true);
    g_assert_cmpuint(ptt_tlps_selected_in(&p, 1000 * 1000), ==, 0);
    ptt_set_paused(&p, false);
    g_assert_cmpuint(ptt_tlps_selected_in(&p, 1000 * 1000), ==, 200);
    hisi_fini(&p);
}

/* A burst: exactly 0.5 ms of traffic, then paused again */
static void test_traffic_burst(void)
{
    QDict *rsp;
    Ptt p;

    ptt_init_traced_traffic(&p);
    qtest_clock_step(p.qts, 1000 * 1000);
    ptt_set_burst_ns(&p, 500000);
    rsp = qtest_qmp(p.qts, "{'execute': 'qom-get', 'arguments':"
                    " {'path': 't0', 'property': 'burst-ns'}}");
    g_assert_cmpuint(qdict_get_int(rsp, "return"), ==, 500000);
    qobject_unref(rsp);
    g_assert_cmpuint(ptt_tlps_selected_in(&p, 1000 * 1000), ==, 100);
    g_assert_cmpuint(ptt_tlps_selected_in(&p, 1000 * 1000), ==, 0);
    hisi_fini(&p);
}

/* The destination of a migration of ptt_init_traced_traffic's QEMU */
static void ptt_init_traced_traffic_incoming(Ptt *dst)
{
    ptt_init(dst, ",traffic=t0,id=ptt", "-object", "hisi-traffic,id=t0",
             "-incoming", "defer", NULL);
}

/*
 * A burst running at a migration goes on in the destination: 300 us into
 * a burst of 1 ms it reads the 700 us left, and the traffic pauses at the
 * burst's end: 140 DMA writes at 200000/s, then none.
 */
static void test_traffic_burst_migrates(void)
{
    Ptt src, dst;

    ptt_init_traced_traffic(&src);
    qtest_clock_step(src.qts, 1000 * 1000);
    ptt_set_burst_ns(&src, 1000 * 1000);
    qtest_clock_step(src.qts, 300 * 1000);
    ptt_init_traced_traffic_incoming(&dst);
    hisi_migrate_into(src.qts, dst.qts);
    g_assert_cmpuint(ptt_qom_get_uint_at(&dst, "t0", "burst-ns"), ==,
                     700 * 1000);
    g_assert_cmpuint(ptt_tlps_selected_in(&dst, 1000 * 1000), ==, 140);
    g_assert_cmpuint(ptt_tlps_selected_in(&dst, 1000 * 1000), ==, 0);
    hisi_fini(&dst);
    hisi_fini(&src);
}

/*
 * Rules set before a migration hold in the destination, text and rate:
 * 1000 DMA writes per ms. Their 23 characters and NUL fill the heap
 * block g_strdup gives them (glibc: 24 usable bytes), so a stream that
 * carried a byte past the NUL would carry a nonzero one, which the
 * destination refuses.
 */
static void test_traffic_rules_migrate(void)
{
    const char *rules = "stream=all,rate=1000000";
    g_autofree char *rules_migrated = NULL;
    Ptt src, dst;

    ptt_init_traced_traffic(&src);
    qtest_clock_step(src.qts, 1000 * 1000);
    hisi_set_rules(src.qts, rules);
    qtest_clock_step(src.qts, 1000 * 1000);
    ptt_init_traced_traffic_incoming(&dst);
    hisi_migrate_into(src.qts, dst.qts);
    rules_migrated = hisi_rules(dst.qts);
    g_assert_cmpstr(rules_migrated, ==, rules);
    g_assert_cmpuint(ptt_tlps_selected_in(&dst, 1000 * 1000), ==, 1000);
    hisi_fini(&dst);
    hisi_fini(&src);
}

/* A burst of 0 ns is refused, and the traffic runs on unchanged. */
static void test_traffic_bad_burst_refused(void)
{
    QDict *err, *rsp;
    Ptt p;

    ptt_init_traced_traffic(&p);
    qtest_clock_step(p.qts, 1000 * 1000);
    err = qtest_qmp_assert_failure_ref(p.qts, "{'execute': 'qom-set',"
                                       " 'arguments': {'path': 't0',"
                                       "  'property': 'burst-ns',"
                                       "  'value': 0}}");
    g_assert_nonnull(strstr(qdict_get_str(err, "desc"),
                            "burst-ns must be 1.."));
    qobject_unref(err);
    g_assert_false(qtest_qom_get_bool(p.qts, "t0", "paused"));
    rsp = qtest_qmp(p.qts, "{'execute': 'qom-get', 'arguments':"
                    " {'path': 't0', 'property': 'burst-ns'}}");
    g_assert_cmpuint(qdict_get_int(rsp, "return"), ==, 0);
    qobject_unref(rsp);
    g_assert_cmpuint(ptt_tlps_selected_in(&p, 1000 * 1000), ==, 200);
    hisi_fini(&p);
}

/* FNV-1a of the first trace buffer after 1 ms of tracing with @seed */
static uint64_t ptt_trace_hash(uint64_t seed)
{
    g_autofree char *traffic = g_strdup_printf("hisi-traffic,id=t0,seed=%"
                                               PRIu64, seed);
    uint8_t buf[BUF_SIZE];
    uint64_t h = 0xcbf29ce484222325ull;
    Ptt p;

    ptt_init(&p, ",traffic=t0,id=ptt", "-object", traffic, NULL);
    ptt_start(&p, rp_8dw);
    qtest_clock_step(p.qts, 1000 * 1000);
    hisi_rd(&p, A_TRACE_WR_STS);
    qtest_memread(p.qts, BUF_BASE, buf, sizeof(buf));
    for (int i = 0; i < sizeof(buf); i++) {
        h = (h ^ buf[i]) * 0x100000001b3ull;
    }
    hisi_fini(&p);
    return h;
}

static void test_traffic_deterministic(void)
{
    g_assert_cmphex(ptt_trace_hash(7), ==, ptt_trace_hash(7));
    g_assert_cmphex(ptt_trace_hash(7), !=, ptt_trace_hash(8));
}

/* Tuning held busy: the status stays set and the value is not taken. */
static void test_fault_tuning_busy(void)
{
    Ptt p;

    ptt_init(&p, ",id=ptt", NULL);
    qtest_qom_set_bool(p.qts, "ptt", "hold-tuning-busy", true);
    hisi_wr(&p, A_TUNING_CTRL, TUNE_QOS_TX_P);
    hisi_wr(&p, A_TUNING_DATA, TUNE_LEVEL_MAX);
    g_assert_cmphex(hisi_rd(&p, A_TUNING_INT_STAT), ==,
                    R_TUNING_INT_STAT_BUSY_MASK);
    qtest_qom_set_bool(p.qts, "ptt", "hold-tuning-busy", false);
    g_assert_cmpuint(ptt_tune_read(&p, TUNE_QOS_TX_P), ==, TUNE_LEVEL_RESET);
    hisi_fini(&p);
}

/* The next DMA write fails: the trace stops at it. */
static void test_fault_dma_fails(void)
{
    Ptt p;

    ptt_init(&p, ",id=ptt", NULL);
    ptt_start(&p, rp_4dw);
    qtest_qom_set_bool(p.qts, "ptt", "fail-next-dma", true);
    qtest_clock_step(p.qts, 1000 * 1000);
    hisi_rd(&p, A_TRACE_WR_STS);
    g_assert_true(ptt_idle(&p));
    g_assert_false(qtest_qom_get_bool(p.qts, "ptt", "fail-next-dma"));
    /* Nothing was written: the write offset stays at the last record. */
    g_assert_cmphex(hisi_rd(&p, A_TRACE_WR_STS), ==, 0);
    hisi_assert_guest_error(&p, "hisi-ptt: trace DMA failed (fail-next-dma): "
                            "trace stopped");
    hisi_fini(&p);
}

/* Trace held busy: never idle, and RST does not clear the status. */
static void test_fault_trace_busy(void)
{
    Ptt p;

    ptt_init(&p, ",id=ptt", NULL);
    ptt_start(&p, rp_4dw);
    qtest_clock_step(p.qts, 100 * 1000);
    ptt_stop(&p);
    qtest_qom_set_bool(p.qts, "ptt", "hold-trace-busy", true);
    g_assert_false(ptt_idle(&p));
    hisi_wr(&p, A_TRACE_CTRL, R_TRACE_CTRL_RST_MASK);
    g_assert_cmphex(hisi_rd(&p, A_TRACE_WR_STS), !=, 0);
    qtest_qom_set_bool(p.qts, "ptt", "hold-trace-busy", false);
    g_assert_true(ptt_idle(&p));
    hisi_fini(&p);
}

/*
 * DMA reset held: while RST is set TRACE_WR_STS reads non-zero even from a
 * write pointer at 0, the pointer stays; after the fault, a reset clears it.
 */
static void test_fault_dma_reset(void)
{
    Ptt p;

    ptt_init(&p, ",id=ptt", NULL);
    ptt_start(&p, rp_4dw);
    qtest_clock_step(p.qts, 100 * 1000);
    ptt_stop(&p);
    g_assert_cmphex(hisi_rd(&p, A_TRACE_WR_STS), !=, 0);
    qtest_qom_set_bool(p.qts, "ptt", "hold-dma-reset", true);
    g_assert_true(ptt_idle(&p));
    hisi_wr(&p, A_TRACE_CTRL, R_TRACE_CTRL_RST_MASK);
    g_assert_cmphex(hisi_rd(&p, A_TRACE_WR_STS) & R_TRACE_WR_STS_WRITE_MASK,
                    ==, R_TRACE_WR_STS_WRITE_MASK);
    hisi_wr(&p, A_TRACE_CTRL, 0);
    g_assert_cmphex(hisi_rd(&p, A_TRACE_WR_STS), !=, 0);
    qtest_qom_set_bool(p.qts, "ptt", "hold-dma-reset", false);
    hisi_wr(&p, A_TRACE_CTRL, R_TRACE_CTRL_RST_MASK);
    g_assert_cmphex(hisi_rd(&p, A_TRACE_WR_STS), ==, 0);
    hisi_wr(&p, A_TRACE_CTRL, 0);
    hisi_fini(&p);
}

/* A trace in progress goes on after migration, where it left off. */
static void test_migration(void)
{
    static const uint64_t regs[] = {
        A_TRACE_CTRL, A_TRACE_INT_STAT, A_TRACE_INT_MASK, A_TRACE_WR_STS,
        A_TRACE_STS, A_TRACE_ADDR_SIZE, TRACE_ADDR_BASE_LO(2),
    };
    HisiSnapshot before = { 0 };
    Ptt src, dst;
    uint32_t sts_before, sts;

    ptt_init(&src, "", NULL);
    ptt_tune(&src, TUNE_QOS_TX_P, TUNE_LEVEL_MAX);
    ptt_start(&src, rp_8dw);
    qtest_clock_step(src.qts, 2 * 1000 * 1000);     /* into buffer 1 or 2 */
    for (int i = 0; i < ARRAY_SIZE(regs); i++) {
        hisi_snapshot_add(&before, regs[i]);
    }
    hisi_snapshot_take(&src, &before);
    sts_before = hisi_rd(&src, A_TRACE_WR_STS);
    g_assert_false(ptt_idle(&src));
    hisi_migrate(&src, &dst, ptt_init);
    hisi_snapshot_assert_same(&dst, &before);
    g_assert_cmpuint(ptt_tune_read(&dst, TUNE_QOS_TX_P), ==, TUNE_LEVEL_MAX);
    /* The trace goes on: records are added after the migrated ones. */
    qtest_clock_step(dst.qts, 1000 * 1000);
    sts = hisi_rd(&dst, A_TRACE_WR_STS);
    g_assert_cmpuint(ptt_ring_pos(sts) +
                     (hisi_rd(&dst, A_TRACE_INT_STAT) ?
                      HISI_PTT_NUM_BUFS * BUF_SIZE : 0), >,
                     ptt_ring_pos(sts_before));
    hisi_fini(&dst);
    hisi_fini(&src);
}

/*
 * A destination refuses a hisi-ptt section of version 3 (the layout before
 * hold-dma-reset, which it would misread); the same stream at version 4
 * loads.
 */
static void test_stream_old_version_refused(void)
{
    hisi_assert_old_section_refused(ptt_init, "hisi-ptt", 4);
}

/* Where a twin-run test migrates the trace */
typedef enum PttMigAt {
    PTT_MIG_AT_FULL,        /* a buffer's status just set, its MSI not taken */
    PTT_MIG_MID_BUFFER,     /* at an odd time, the records not yet written */
    PTT_MIG_STALLED,        /* the next buffer stalled, TLPs being lost */
} PttMigAt;

typedef struct PttMigCase {
    const char *name;
    const PttTrace *trace;
    PttMigAt at;
} PttMigCase;

static const PttMigCase ptt_mig_cases[] = {
    { "migration-at-buffer-boundary/8dw", &rp_8dw, PTT_MIG_AT_FULL },
    { "migration-at-buffer-boundary/4dw", &rp_4dw, PTT_MIG_AT_FULL },
    { "migration-mid-buffer/8dw", &rp_8dw, PTT_MIG_MID_BUFFER },
    { "migration-mid-buffer/4dw", &rp_4dw, PTT_MIG_MID_BUFFER },
    { "migration-while-stalled/4dw", &rp_4dw, PTT_MIG_STALLED },
};

/* The driver's poll: a few records a step, never on a TLP's time */
#define PTT_POLL_NS         997
#define PTT_POLLS_MAX       100000

/* Every register, and the device's statistics */
static void ptt_twin_log_regs(Ptt *p, HisiTwinLog *log)
{
    HisiSnapshot regs = { 0 };

    ptt_snapshot_all(&regs);
    hisi_snapshot_take(p, &regs);
    for (size_t i = 0; i < regs.n; i++) {
        hisi_twin_log_at(log, "register", regs.off[i], regs.val[i]);
    }
    hisi_twin_log(log, "records", ptt_qom_get_uint(p, "records"));
    hisi_twin_log(log, "lost-tlps", ptt_qom_get_uint(p, "lost-tlps"));
}

/*
 * One run of case @c: a trace started at an odd time, polled in small
 * steps to the first full buffer. Then, migrated at the case's instant if
 * @migrate: the driver takes the MSI, writes the interrupt mask again
 * (no second MSI for the same buffer), and in the mid-buffer case lets
 * the clock alone fill the next buffer (its MSI by the device's timer);
 * then it takes each full buffer (its MSI, the W1C) over two more buffer
 * switches, and an odd time more. What the driver saw at each poll, the
 * registers, the tune events and all four buffers go to @log.
 */
static void ptt_twin_run(const PttMigCase *c, bool migrate, HisiTwinLog *log)
{
    unsigned fulls = 0;
    int64_t fill_ns;
    uint32_t stat, sts;
    Ptt src, dst, *p = &src;
    int polls;

    ptt_init(p, ",id=ptt", NULL);
    ptt_tune(p, TUNE_QOS_TX_P, TUNE_LEVEL_MAX);
    qtest_clock_step(p->qts, 54321);
    ptt_start(p, *c->trace);
    for (polls = 0; !(stat = hisi_rd(p, A_TRACE_INT_STAT)); polls++) {
        g_assert_cmpint(polls, <, PTT_POLLS_MAX);
        qtest_clock_step(p->qts, PTT_POLL_NS);
    }
    fill_ns = polls * PTT_POLL_NS;
    hisi_twin_log(log, "polls to the first full buffer", polls);
    hisi_twin_log(log, "TRACE_INT_STAT", stat);
    hisi_twin_log(log, "TRACE_WR_STS", hisi_rd(p, A_TRACE_WR_STS));
    /* Its MSI is in RAM, not yet taken by the driver. */
    g_assert_cmphex(stat, ==, BIT(0));
    g_assert_cmphex(qtest_readl(p->qts, HISI_MSI_ADDR), ==, HISI_MSI_DATA);
    if (c->at == PTT_MIG_MID_BUFFER) {
        hisi_twin_log(log, "MSI", hisi_msi_taken(p));
        hisi_wr(p, A_TRACE_INT_STAT, stat);
        fulls++;
        /* a quarter of a buffer in, and records due since the last read */
        qtest_clock_step(p->qts, fill_ns / 4);
        sts = hisi_twin_log(log, "TRACE_WR_STS", hisi_rd(p, A_TRACE_WR_STS));
        g_assert_cmphex(FIELD_EX32(sts, TRACE_WR_STS, BUFFER), ==, 1);
        g_assert_cmpuint(FIELD_EX32(sts, TRACE_WR_STS, WRITE), >, 0);
        qtest_clock_step(p->qts, 3331);
    } else if (c->at == PTT_MIG_STALLED) {
        qtest_clock_step(p->qts, 2 * fill_ns + 1234);
        hisi_twin_log(log, "TRACE_WR_STS", hisi_rd(p, A_TRACE_WR_STS));
        g_assert_cmpuint(ptt_qom_get_uint(p, "lost-tlps"), >, 0);
    }
    if (migrate) {
        ptt_init(&dst, ",id=ptt", "-incoming", "defer", NULL);
        hisi_migrate_into(src.qts, dst.qts);
        hisi_fini(&src);
        p = &dst;
    }
    /* The status still set, its MSI there once */
    g_assert_cmpint(hisi_twin_log(log, "MSI", hisi_msi_taken(p)), ==,
                    c->at != PTT_MIG_MID_BUFFER);
    hisi_twin_log(log, "TRACE_INT_MASK", hisi_rd(p, A_TRACE_INT_MASK));
    hisi_wr(p, A_TRACE_INT_MASK, 0);
    g_assert_false(hisi_twin_log(log, "MSI", hisi_msi_taken(p)));
    if (c->at == PTT_MIG_MID_BUFFER) {
        /* no register access: the device finds the buffer full itself */
        qtest_clock_step(p->qts, fill_ns);
        g_assert_true(hisi_twin_log(log, "MSI", hisi_msi_taken(p)));
    }
    /* The driver takes the pending buffer, then two more switches */
    for (polls = 0; fulls < 3; polls++) {
        g_assert_cmpint(polls, <, PTT_POLLS_MAX);
        stat = hisi_rd(p, A_TRACE_INT_STAT);
        hisi_twin_log_at(log, "TRACE_INT_STAT", polls, stat);
        hisi_twin_log_at(log, "TRACE_WR_STS", polls,
                         hisi_rd(p, A_TRACE_WR_STS));
        hisi_twin_log_at(log, "MSI", polls, hisi_msi_taken(p));
        if (stat) {
            hisi_wr(p, A_TRACE_INT_STAT, stat);
            fulls++;
        }
        qtest_clock_step(p->qts, PTT_POLL_NS);
    }
    hisi_twin_log(log, "polls after the migration point", polls);
    qtest_clock_step(p->qts, 123457);
    ptt_twin_log_regs(p, log);
    for (int i = 0; i < ARRAY_SIZE(tune_events); i++) {
        hisi_twin_log_at(log, "tune event", i,
                         ptt_tune_read(p, tune_events[i]));
    }
    hisi_twin_log(log, "MSI", hisi_msi_taken(p));
    hisi_twin_log_mem(log, "buffers", p->qts, BUF_BASE,
                      HISI_PTT_NUM_BUFS * BUF_SIZE);
    hisi_fini(p);
}

/*
 * Migrated at an adversarial instant, the trace loses, repeats and
 * reorders nothing: what the driver sees, the registers and every byte of
 * the four buffers are those of a twin run that is not migrated.
 */
static void test_migration_twin(gconstpointer data)
{
    const PttMigCase *c = data;
    HisiTwinLog twin, migrated;

    hisi_twin_init(&twin);
    hisi_twin_init(&migrated);
    ptt_twin_run(c, false, &twin);
    ptt_twin_run(c, true, &migrated);
    g_test_message("%u entries compared", migrated.entries->len);
    hisi_twin_assert_same(&migrated, &twin);
    hisi_twin_free(&migrated);
    hisi_twin_free(&twin);
}

/* The VM's run state, as query-status gives it */
static bool ptt_vm_running(Ptt *p)
{
    QDict *rsp = qtest_qmp(p->qts, "{'execute': 'query-status'}");
    bool running = qdict_get_bool(qdict_get_qdict(rsp, "return"), "running");

    qobject_unref(rsp);
    return running;
}

/* Wait for the stop that pause-at-buffer-end asked for */
static void ptt_wait_paused(Ptt *p)
{
    /* The stop request is served once the access or step is over. */
    for (int tries = 0; ptt_vm_running(p); tries++) {
        g_assert_cmpint(tries, <, 100);
        g_usleep(10 * 1000);
    }
}

/*
 * One run for test_pause_at_buffer_end: an 8DW trace of the traffic of
 * @object, the pause asked for if @pause, one clock step far past the
 * first buffer's end; if paused, the device at the boundary, then "cont".
 * Then the driver takes the first buffer and two more; what it saw, the
 * registers and the buffers go to @log.
 */
static void ptt_pause_run(const char *object, bool pause, HisiTwinLog *log)
{
    unsigned fulls = 0;
    uint32_t stat;
    Ptt p;

    ptt_init(&p, ",id=ptt,traffic=t0", "-object", object, NULL);
    ptt_start(&p, rp_8dw);
    qtest_qom_set_bool(p.qts, "ptt", "pause-at-buffer-end", pause);
    qtest_clock_step(p.qts, 50 * 1000 * 1000);
    if (pause) {
        ptt_wait_paused(&p);
        g_assert_cmphex(hisi_rd(&p, A_TRACE_INT_STAT), ==, BIT(0));
        g_assert_cmphex(hisi_rd(&p, A_TRACE_WR_STS), ==,
                        FIELD_DP32(0, TRACE_WR_STS, BUFFER, 1));
        g_assert_cmpuint(ptt_qom_get_uint(&p, "records"), ==,
                         BUF_SIZE / REC8_SIZE);
        g_assert_false(qtest_qom_get_bool(p.qts, "ptt",
                                          "pause-at-buffer-end"));
        qtest_qmp_assert_success(p.qts, "{'execute': 'cont'}");
    }
    g_assert_true(ptt_vm_running(&p));
    hisi_twin_log(log, "MSI", hisi_msi_taken(&p));
    for (int polls = 0; fulls < 3; polls++) {
        g_assert_cmpint(polls, <, PTT_POLLS_MAX);
        stat = hisi_rd(&p, A_TRACE_INT_STAT);
        hisi_twin_log_at(log, "TRACE_INT_STAT", polls, stat);
        hisi_twin_log_at(log, "TRACE_WR_STS", polls,
                         hisi_rd(&p, A_TRACE_WR_STS));
        hisi_twin_log_at(log, "MSI", polls, hisi_msi_taken(&p));
        if (stat) {
            hisi_wr(&p, A_TRACE_INT_STAT, stat);
            fulls++;
        }
        qtest_clock_step(p.qts, PTT_POLL_NS);
    }
    ptt_twin_log_regs(&p, log);
    hisi_twin_log_mem(log, "buffers", p.qts, BUF_BASE,
                      HISI_PTT_NUM_BUFS * BUF_SIZE);
    hisi_fini(&p);
}

/*
 * pause-at-buffer-end stops the VM with the first buffer just complete
 * and the next one empty, however long the clock step that completes it;
 * going on from there gives the trace of a run with no pause. The traffic
 * object is @data: the default streams, or seven in step, whose records
 * of one nanosecond straddle the boundary (128 records a buffer).
 */
static void test_pause_at_buffer_end(gconstpointer data)
{
    HisiTwinLog twin, paused;

    hisi_twin_init(&twin);
    hisi_twin_init(&paused);
    ptt_pause_run(data, false, &twin);
    ptt_pause_run(data, true, &paused);
    g_test_message("%u entries compared", paused.entries->len);
    hisi_twin_assert_same(&paused, &twin);
    hisi_twin_free(&paused);
    hisi_twin_free(&twin);
}

#define PTT_IN_STEP         "hisi-traffic,id=t0,rules=stream=all,,rate=100000"

/*
 * pause-at-buffer-end asked for again during a pause, the status cleared
 * meanwhile: the VM stops at the next buffer's end too, and the records
 * of the nanoseconds that straddle both boundaries go in once each. Seven
 * streams in step give three records a tick (every 10 us), 128 a buffer:
 * buffer 0 ends with two of a tick's three, buffer 1 with one. The first
 * three buffers then hold what a driver that takes each buffer in time
 * gets with no pause.
 */
static void test_pause_at_buffer_end_twice(void)
{
    g_autofree uint8_t *want = g_malloc(3 * BUF_SIZE);
    g_autofree uint8_t *got = g_malloc(3 * BUF_SIZE);
    Ptt p;

    /* 1.4 ms, the status cleared every 100 us: 3.3 buffers, none lost */
    ptt_init(&p, ",id=ptt,traffic=t0", "-object", PTT_IN_STEP, NULL);
    ptt_start(&p, rp_8dw);
    for (int i = 0; i < 14; i++) {
        qtest_clock_step(p.qts, 100 * 1000);
        hisi_wr(&p, A_TRACE_INT_STAT, hisi_rd(&p, A_TRACE_INT_STAT));
    }
    g_assert_cmpuint(FIELD_EX32(hisi_rd(&p, A_TRACE_WR_STS), TRACE_WR_STS,
                                BUFFER), ==, 3);
    qtest_memread(p.qts, BUF_BASE, want, 3 * BUF_SIZE);
    hisi_fini(&p);

    ptt_init(&p, ",id=ptt,traffic=t0", "-object", PTT_IN_STEP, NULL);
    ptt_start(&p, rp_8dw);
    qtest_qom_set_bool(p.qts, "ptt", "pause-at-buffer-end", true);
    qtest_clock_step(p.qts, 2 * 1000 * 1000);
    ptt_wait_paused(&p);
    g_assert_cmphex(hisi_rd(&p, A_TRACE_INT_STAT), ==, BIT(0));
    hisi_wr(&p, A_TRACE_INT_STAT, BIT(0));
    qtest_qom_set_bool(p.qts, "ptt", "pause-at-buffer-end", true);
    qtest_qmp_assert_success(p.qts, "{'execute': 'cont'}");
    /* Brought up to date: buffer 1 completes, and the VM stops again. */
    g_assert_cmphex(hisi_rd(&p, A_TRACE_WR_STS), ==,
                    FIELD_DP32(0, TRACE_WR_STS, BUFFER, 2));
    ptt_wait_paused(&p);
    g_assert_cmphex(hisi_rd(&p, A_TRACE_INT_STAT), ==, BIT(1));
    hisi_wr(&p, A_TRACE_INT_STAT, BIT(1));
    qtest_qmp_assert_success(p.qts, "{'execute': 'cont'}");
    g_assert_cmphex(hisi_rd(&p, A_TRACE_INT_STAT), ==, BIT(2));
    g_assert_cmpuint(ptt_qom_get_uint(&p, "records"), ==,
                     3 * BUF_SIZE / REC8_SIZE + BUF_SIZE / REC8_SIZE - 1);
    qtest_memread(p.qts, BUF_BASE, got, 3 * BUF_SIZE);
    g_assert_cmpmem(got, 3 * BUF_SIZE, want, 3 * BUF_SIZE);
    hisi_fini(&p);
}

#define DMA_RAM             0x48100000ull

typedef struct RealPtt {
    Ptt p;
    HisiEndpoint edu;
} RealPtt;

/*
 * The PTT with @props on traffic object t0 with @source, the edu ready
 * for DMA
 */
static void ptt_init_real_props(RealPtt *r, const char *source,
                                const char *props)
{
    g_autofree char *obj = g_strdup_printf("hisi-traffic,id=t0,source=%s",
                                           source);
    g_autofree char *ptt = g_strdup_printf(",traffic=t0,id=ptt%s", props);

    ptt_init(&r->p, ptt, "-object", obj, HISI_EDU_DMA_ANY, NULL);
    hisi_edu_init(&r->p, &r->edu, EDU_BDF);
}

static void ptt_init_real(RealPtt *r, const char *source)
{
    ptt_init_real_props(r, source, "");
}

static void ptt_fini_real(RealPtt *r)
{
    g_free(r->edu.dev);
    hisi_fini(&r->p);
}

/* An 8DW record of the trace, its header decoded */
typedef struct RealRecord {
    uint32_t dw[4];
    uint32_t time;
    uint8_t fmt_type;
    uint16_t len_dw;
    uint16_t requester;
    uint8_t tag;
    uint8_t be;
    uint64_t addr;
} RealRecord;

/* The 8DW records of buffer 0, at most @max, into @out; how many */
static unsigned ptt_read_records(Ptt *p, RealRecord *out, unsigned max)
{
    uint32_t sts = hisi_rd(p, A_TRACE_WR_STS);
    unsigned n = FIELD_EX32(sts, TRACE_WR_STS, WRITE) / REC8_SIZE;

    g_assert_cmphex(FIELD_EX32(sts, TRACE_WR_STS, BUFFER), ==, 0);
    g_assert_cmpuint(n, <=, max);
    for (unsigned i = 0; i < n; i++) {
        uint64_t rec = BUF_ADDR(0) + i * REC8_SIZE;
        RealRecord *o = &out[i];

        g_assert_cmphex(qtest_readl(p->qts, rec), ==, REC8_MARK);
        for (int j = 0; j < 4; j++) {
            o->dw[j] = qtest_readl(p->qts, rec + 8 + 4 * j);
        }
        o->time = qtest_readl(p->qts, rec + REC8_TIME);
        o->fmt_type = o->dw[0] >> 24;
        o->len_dw = o->dw[0] & 0x3ff;
        o->requester = o->dw[1] >> 16;
        o->tag = o->dw[1] >> 8;
        o->be = o->dw[1];
        o->addr = o->dw[2];
    }
    return n;
}

/* The @n 8DW records of buffer 0 into @out: they must be all there are */
static void ptt_real_records(Ptt *p, RealRecord *out, unsigned n)
{
    g_assert_cmpuint(ptt_read_records(p, out, n), ==, n);
}

/*
 * The edu endpoint's real DMA, traced inbound with a requester filter:
 * 1000 bytes read from an odd address go as two MRd split at the 512-byte
 * Max_Read_Request_Size a function without a PCIe capability has, with
 * tags 0 and 1; 1000 bytes written go as eight MWr split at the 128-byte
 * Max_Payload_Size, the byte enables marking the ends. Every TLP carries
 * the edu's Requester ID and the time of its DMA, and the data gets
 * through the tap both ways.
 */
static void test_real_dma_requests(void)
{
    static const struct {
        uint8_t fmt_type;
        uint64_t addr;
        uint16_t len_dw;
        uint8_t be;
    } want[] = {
        { 0x00, DMA_RAM, 128, 0xf8 },           /* 509 bytes from +3 */
        { 0x00, DMA_RAM + 0x200, 123, 0x7f },   /* 491 bytes */
        { 0x40, DMA_RAM + 0x1000, 32, 0xf8 },   /* 125 bytes from +3 */
        { 0x40, DMA_RAM + 0x1080, 32, 0xff },
        { 0x40, DMA_RAM + 0x1100, 32, 0xff },
        { 0x40, DMA_RAM + 0x1180, 32, 0xff },
        { 0x40, DMA_RAM + 0x1200, 32, 0xff },
        { 0x40, DMA_RAM + 0x1280, 32, 0xff },
        { 0x40, DMA_RAM + 0x1300, 32, 0xff },
        { 0x40, DMA_RAM + 0x1380, 27, 0x7f },   /* 107 bytes */
    };
    static const PttTrace edu_inbound = {
        .dir = DIR_INBOUND_B, .type = TYPE_ALL, .fmt_8dw = true,
        .requester = true, .target = EDU_BDF,
    };
    RealRecord rec[G_N_ELEMENTS(want)];
    uint8_t data[1000], copy[1000];
    RealPtt r;

    for (int i = 0; i < sizeof(data); i++) {
        data[i] = i * 7 + 1;
    }
    ptt_init_real(&r, "real");
    qtest_memwrite(r.p.qts, DMA_RAM + 3, data, sizeof(data));
    ptt_start(&r.p, edu_inbound);
    hisi_edu_dma(&r.p, &r.edu, false, DMA_RAM + 3, sizeof(data));
    hisi_edu_dma(&r.p, &r.edu, true, DMA_RAM + 0x1003, sizeof(data));
    ptt_real_records(&r.p, rec, G_N_ELEMENTS(want));
    for (int i = 0; i < G_N_ELEMENTS(want); i++) {
        g_test_message("record %d: %08x %08x %08x %08x at %u", i, rec[i].dw[0],
                       rec[i].dw[1], rec[i].dw[2], rec[i].dw[3], rec[i].time);
        g_assert_cmphex(rec[i].fmt_type, ==, want[i].fmt_type);
        g_assert_cmphex(rec[i].addr, ==, want[i].addr);
        g_assert_cmpuint(rec[i].len_dw, ==, want[i].len_dw);
        g_assert_cmphex(rec[i].be, ==, want[i].be);
        g_assert_cmphex(rec[i].requester, ==, EDU_BDF);
        /* one time per DMA, the reads' before the writes' */
        g_assert_cmpuint(rec[i].time, ==, rec[i < 2 ? 0 : 2].time);
    }
    g_assert_cmpuint(rec[2].time - rec[0].time, >=, HISI_EDU_DMA_NS / 2);
    g_assert_cmphex(rec[0].tag, ==, 0);
    g_assert_cmphex(rec[1].tag, ==, 1);
    qtest_memread(r.p.qts, DMA_RAM + 0x1003, copy, sizeof(copy));
    g_assert_cmpmem(copy, sizeof(copy), data, sizeof(data));
    ptt_stop(&r.p);
    ptt_fini_real(&r);
}

/*
 * The DMA of real-dma-requests (1000 bytes read, then written), traced by
 * @t started @start ns into the run: the words of buffer 0, into @words
 * (at most @max); how many
 */
static unsigned ptt_real_dma_words(PttTrace t, int64_t start,
                                   uint32_t *words, unsigned max)
{
    unsigned n;
    RealPtt r;

    ptt_init_real(&r, "real");
    qtest_clock_step(r.p.qts, start);
    ptt_start(&r.p, t);
    hisi_edu_dma(&r.p, &r.edu, false, DMA_RAM + 3, 1000);
    hisi_edu_dma(&r.p, &r.edu, true, DMA_RAM + 0x1003, 1000);
    n = FIELD_EX32(hisi_rd(&r.p, A_TRACE_WR_STS), TRACE_WR_STS, WRITE) / 4;
    g_assert_cmpuint(n, <=, max);
    for (unsigned i = 0; i < n; i++) {
        words[i] = qtest_readl(r.p.qts, BUF_ADDR(0) + 4 * i);
    }
    ptt_stop(&r.p);
    ptt_fini_real(&r);
    return n;
}

/*
 * Real TLPs in the 4DW format: the ten requests of real-dma-requests,
 * traced in both formats from a trace reset that is not at the clock's 0.
 * A 4DW record is the 8DW record's header with DW0 folded: Fmt, Type and
 * T9 one bit up, Length at bits 20:11, and the low 11 bits of the same
 * time stamp (from the reset: one from the clock's 0 would differ).
 */
static void test_real_dma_requests_4dw(void)
{
    static const PttTrace edu_in_4dw = {
        .dir = DIR_INBOUND, .type = TYPE_ALL,
        .requester = true, .target = EDU_BDF,
    };
    static const PttTrace edu_in_8dw = {
        .dir = DIR_INBOUND_B, .type = TYPE_ALL, .fmt_8dw = true,
        .requester = true, .target = EDU_BDF,
    };
    enum { N_TLPS = 10, START_NS = 12345 };
    uint32_t rec4[N_TLPS][REC4_SIZE / 4], rec8[N_TLPS][REC8_SIZE / 4];

    g_assert_cmpuint(ptt_real_dma_words(edu_in_4dw, START_NS, rec4[0],
                                        sizeof(rec4) / 4), ==,
                     sizeof(rec4) / 4);
    g_assert_cmpuint(ptt_real_dma_words(edu_in_8dw, START_NS, rec8[0],
                                        sizeof(rec8) / 4), ==,
                     sizeof(rec8) / 4);
    for (int i = 0; i < N_TLPS; i++) {
        uint32_t dw0 = rec8[i][2];
        uint32_t time = rec8[i][REC8_TIME / 4];

        g_assert_cmphex(rec4[i][0] >> 24, ==, (dw0 >> 23) & 0xff);
        g_assert_cmphex((rec4[i][0] >> 11) & 0x3ff, ==, dw0 & 0x3ff);
        g_assert_cmphex(rec4[i][0] & 0x7ff, ==, time & 0x7ff);
        for (int j = 1; j < 4; j++) {
            g_assert_cmphex(rec4[i][j], ==, rec8[i][2 + j]);
        }
    }
}

/*
 * Outbound, the completions of the edu's reads: cut at the 128-byte
 * Max_Payload_Size, from the root port (00:10.0) to the edu, with the
 * bytes left to complete counting down and the tags of their requests
 */
static void test_real_dma_completions(void)
{
    static const PttTrace edu_cpl_out = {
        .dir = DIR_OUTBOUND, .type = TYPE_CPL, .fmt_8dw = true,
        .requester = true, .target = EDU_BDF,
    };
    static const uint16_t byte_count[] = {
        509, 384, 256, 128, 491, 363, 235, 107,
    };
    RealRecord rec[G_N_ELEMENTS(byte_count)];
    RealPtt r;

    ptt_init_real(&r, "real");
    ptt_start(&r.p, edu_cpl_out);
    hisi_edu_dma(&r.p, &r.edu, false, DMA_RAM + 3, 1000);
    ptt_real_records(&r.p, rec, G_N_ELEMENTS(byte_count));
    for (int i = 0; i < G_N_ELEMENTS(byte_count); i++) {
        g_assert_cmphex(rec[i].fmt_type, ==, 0x4a);
        g_assert_cmphex(rec[i].dw[1] >> 16, ==, 0x0080);
        g_assert_cmpuint(rec[i].dw[1] & 0xfff, ==, byte_count[i]);
        g_assert_cmphex(rec[i].dw[2] >> 16, ==, EDU_BDF);
        g_assert_cmphex((rec[i].dw[2] >> 8) & 0xff, ==, i < 4 ? 0 : 1);
    }
    g_assert_cmphex(rec[0].dw[2] & 0x7f, ==, 3);
    ptt_stop(&r.p);
    ptt_fini_real(&r);
}

/*
 * An 8-byte read by the CPU through the root port's window, traced: the
 * edu's DMA source address reads back what an 8-byte write put there, and
 * the root port's MRd for it asks for its 2 DWs.
 */
static void test_real_cpu_qword_read(void)
{
    static const PttTrace port_np = {
        .dir = DIR_OUTBOUND, .type = TYPE_NON_POSTED, .fmt_8dw = true,
        .target = RP_PORT_BIT,
    };
    const uint64_t src = 0x0123456789abcdefull;
    RealRecord rec[1];
    RealPtt r;

    ptt_init_real(&r, "real");
    qpci_io_writeq(r.edu.dev, r.edu.bar, HISI_EDU_DMA_SRC, src);
    ptt_start(&r.p, port_np);
    g_assert_cmphex(qpci_io_readq(r.edu.dev, r.edu.bar, HISI_EDU_DMA_SRC), ==,
                    src);
    ptt_real_records(&r.p, rec, ARRAY_SIZE(rec));
    g_assert_cmphex(rec[0].fmt_type, ==, 0x00);
    g_assert_cmpuint(rec[0].len_dw, ==, 2);
    g_assert_cmphex(rec[0].addr, ==, r.edu.bar.addr + HISI_EDU_DMA_SRC);
    ptt_stop(&r.p);
    ptt_fini_real(&r);
}

/*
 * The CPU's accesses to the edu (hisi_edu_cpu_accesses), traced by the
 * root port in three runs, one per kind the outbound direction takes
 * alone and then the inbound completions: the root port (00:10.0)
 * requests, with tags that advance over its non-posted requests, MWr and
 * MRd to the edu's BAR, CfgRd0 and CfgWr0 to its registers; the edu
 * completes them with CplD (a DW for configuration, Byte Count 4) and Cpl.
 * Each TLP has the time of its access.
 */
static void test_real_cpu_accesses(void)
{
    static const struct {
        unsigned dir, type;
        unsigned n;
        uint32_t dw[5][3];      /* the headers' DW 0-2; DW 2 of a BAR: + */
        bool bar[5];
        uint32_t time[5];       /* since the trace started */
    } runs[] = {
        { DIR_OUTBOUND, TYPE_POSTED, 1, {
            { 0x40000001, 0x0080000f, HISI_EDU_LIVENESS } }, { true },
          { 0 } },
        /* the posted run's non-posted requests took tags 0-3 */
        { DIR_OUTBOUND, TYPE_NON_POSTED, 4, {
            { 0x00000001, 0x0080040f, HISI_EDU_LIVENESS },
            { 0x04000001, 0x00800503, EDU_BDF << 16 | PCI_VENDOR_ID },
            { 0x44000001, 0x00800602, EDU_BDF << 16 | PCI_COMMAND },
            { 0x04000001, 0x00800702, EDU_BDF << 16 | PCI_COMMAND } },
          { true }, { 1000, 2000, 3000, 3000 } },
        { DIR_INBOUND_A, TYPE_CPL, 4, {
            { 0x4a000001, EDU_BDF << 16 | 4, 0x00800800 | HISI_EDU_LIVENESS },
            { 0x4a000001, EDU_BDF << 16 | 4, 0x00800900 },
            { 0x0a000000, EDU_BDF << 16 | 4, 0x00800a00 },
            { 0x4a000001, EDU_BDF << 16 | 4, 0x00800b00 } },
          { false }, { 1000, 2000, 3000, 3000 } },
    };
    RealRecord rec[5];
    RealPtt r;

    ptt_init_real(&r, "real");
    for (int i = 0; i < G_N_ELEMENTS(runs); i++) {
        PttTrace t = {
            .dir = runs[i].dir, .type = runs[i].type, .fmt_8dw = true,
            .target = RP_PORT_BIT,
        };

        ptt_start(&r.p, t);
        hisi_edu_cpu_accesses(&r.p, &r.edu);
        ptt_real_records(&r.p, rec, runs[i].n);
        for (int j = 0; j < runs[i].n; j++) {
            uint32_t dw2 = runs[i].dw[j][2] +
                           (runs[i].bar[j] ? r.edu.bar.addr : 0);

            g_test_message("run %d record %d: %08x %08x %08x %08x at %u", i,
                           j, rec[j].dw[0], rec[j].dw[1], rec[j].dw[2],
                           rec[j].dw[3], rec[j].time);
            g_assert_cmphex(rec[j].dw[0], ==, runs[i].dw[j][0]);
            g_assert_cmphex(rec[j].dw[1], ==, runs[i].dw[j][1]);
            g_assert_cmphex(rec[j].dw[2], ==, dw2);
            g_assert_cmphex(rec[j].dw[3], ==, 0);
            g_assert_cmpuint(rec[j].time, ==, runs[i].time[j]);
        }
        ptt_stop(&r.p);
    }
    ptt_fini_real(&r);
}

/* Outbound posted TLPs through the root port, synthetic and real */
static const PttTrace rp_out_posted = {
    .dir = DIR_OUTBOUND, .type = TYPE_POSTED, .fmt_8dw = true,
    .target = RP_PORT_BIT,
};

#define MIXED_MAX_RECORDS   256

/*
 * With traffic @source, the records of rp_out_posted over 200 us, the
 * CPU's accesses to the edu and 200 us more
 */
static unsigned ptt_mixed_run(const char *source, RealRecord *rec)
{
    unsigned n;
    RealPtt r;

    ptt_init_real(&r, source);
    ptt_start(&r.p, rp_out_posted);
    qtest_clock_step(r.p.qts, 200 * 1000);
    hisi_edu_cpu_accesses(&r.p, &r.edu);
    qtest_clock_step(r.p.qts, 200 * 1000);
    n = ptt_read_records(&r.p, rec, MIXED_MAX_RECORDS);
    ptt_stop(&r.p);
    ptt_fini_real(&r);
    return n;
}

static bool real_record_same(const RealRecord *a, const RealRecord *b)
{
    return !memcmp(a->dw, b->dw, sizeof(a->dw)) && a->time == b->time;
}

/*
 * source=mixed traces both: its records are those of source=synthetic
 * with those of source=real among them, each kind in its own order, by
 * time.
 */
static void test_real_mixed(void)
{
    static RealRecord syn[MIXED_MAX_RECORDS], real[MIXED_MAX_RECORDS],
                      mixed[MIXED_MAX_RECORDS];
    unsigned n_syn = ptt_mixed_run("synthetic", syn);
    unsigned n_real = ptt_mixed_run("real", real);
    unsigned n_mixed = ptt_mixed_run("mixed", mixed);
    unsigned i_syn = 0, i_real = 0;

    g_test_message("%u synthetic, %u real, %u mixed records", n_syn, n_real,
                   n_mixed);
    g_assert_cmpuint(n_syn, >, 2);
    g_assert_cmpuint(n_real, ==, 1);    /* the MWr to the edu's BAR */
    g_assert_cmpuint(n_mixed, ==, n_syn + n_real);
    for (unsigned i = 0; i < n_mixed; i++) {
        if (i_real < n_real && real_record_same(&mixed[i], &real[i_real])) {
            i_real++;
        } else {
            g_assert_cmpuint(i_syn, <, n_syn);
            g_assert_true(real_record_same(&mixed[i], &syn[i_syn]));
            i_syn++;
        }
        if (i) {
            g_assert_cmpuint(mixed[i].time, >=, mixed[i - 1].time);
        }
    }
    g_assert_cmpuint(i_real, ==, n_real);
}

/*
 * The CPU's 1-byte accesses to the edu's BAR, traced by the root port: a
 * write to each byte of its liveness register in a posted run, a read of
 * each in a non-posted one. Each goes on the link as the CPU made it, a
 * 1-DW MWr or MRd to that register's DW whose First DW BE names the byte
 * alone (Last DW BE 0), the reads with the port's tags from 0. The edu
 * takes only 4-byte accesses there: the writes leave the register as it
 * was, and the reads, refused, give 0.
 */
static void test_real_cpu_byte_accesses(void)
{
    static const PttTrace rp_out_non_posted = {
        .dir = DIR_OUTBOUND, .type = TYPE_NON_POSTED, .fmt_8dw = true,
        .target = RP_PORT_BIT,
    };
    RealRecord rec[4];
    RealPtt r;

    ptt_init_real(&r, "real");
    qpci_io_writel(r.edu.dev, r.edu.bar, HISI_EDU_LIVENESS, 0x12345678);
    for (int write = 1; write >= 0; write--) {
        ptt_start(&r.p, write ? rp_out_posted : rp_out_non_posted);
        for (int b = 0; b < 4; b++) {
            if (write) {
                qpci_io_writeb(r.edu.dev, r.edu.bar, HISI_EDU_LIVENESS + b,
                               0xa5);
            } else {
                g_assert_cmphex(qpci_io_readb(r.edu.dev, r.edu.bar,
                                              HISI_EDU_LIVENESS + b), ==, 0);
            }
        }
        ptt_real_records(&r.p, rec, 4);
        for (int b = 0; b < 4; b++) {
            g_test_message("%s of byte %d: %08x %08x %08x %08x",
                           write ? "write" : "read", b, rec[b].dw[0],
                           rec[b].dw[1], rec[b].dw[2], rec[b].dw[3]);
            g_assert_cmphex(rec[b].dw[0], ==, write ? 0x40000001 : 0x00000001);
            g_assert_cmphex(rec[b].dw[1], ==,
                            0x00800000 | (write ? 0 : b << 8) | 1 << b);
            g_assert_cmphex(rec[b].dw[2], ==,
                            r.edu.bar.addr + HISI_EDU_LIVENESS);
            g_assert_cmphex(rec[b].dw[3], ==, 0);
        }
        ptt_stop(&r.p);
    }
    g_assert_cmphex(qpci_io_readl(r.edu.dev, r.edu.bar, HISI_EDU_LIVENESS), ==,
                    ~0x12345678u);
    ptt_fini_real(&r);
}

/*
 * A real TLP that comes while the device holds a pause at a buffer end
 * (here the CPU's write to the edu while the VM is stopped) is lost, not
 * written into the next buffer.
 */
static void test_real_lost_while_paused(void)
{
    uint64_t lost;
    RealPtt r;

    ptt_init_real(&r, "mixed");
    ptt_start(&r.p, rp_out_posted);
    qtest_qom_set_bool(r.p.qts, "ptt", "pause-at-buffer-end", true);
    qtest_clock_step(r.p.qts, 50 * 1000 * 1000);
    for (int tries = 0; ptt_vm_running(&r.p); tries++) {
        g_assert_cmpint(tries, <, 100);
        g_usleep(10 * 1000);
    }
    g_assert_cmphex(hisi_rd(&r.p, A_TRACE_WR_STS), ==,
                    FIELD_DP32(0, TRACE_WR_STS, BUFFER, 1));
    lost = ptt_qom_get_uint(&r.p, "lost-tlps");
    qpci_io_writel(r.edu.dev, r.edu.bar, HISI_EDU_LIVENESS, 1);
    g_assert_cmphex(hisi_rd(&r.p, A_TRACE_WR_STS), ==,
                    FIELD_DP32(0, TRACE_WR_STS, BUFFER, 1));
    g_assert_cmpuint(ptt_qom_get_uint(&r.p, "lost-tlps"), ==, lost + 1);
    qtest_qmp_assert_success(r.p.qts, "{'execute': 'cont'}");
    ptt_stop(&r.p);
    ptt_fini_real(&r);
}

/*
 * While buffer 0's status is pending, real TLPs fill buffer 1 up to one
 * record short, as the synthetic ones do: with buffers of two 8DW records,
 * the CPU's first two writes to the edu fill buffer 0, the third is
 * written into buffer 1, and the fourth, which would complete it, is lost.
 */
static void test_real_stall_one_short(void)
{
    RealPtt r;

    ptt_init_real(&r, "real");
    ptt_start_sized(&r.p, rp_out_posted, 2 * REC8_SIZE);
    for (int i = 0; i < 3; i++) {
        qpci_io_writel(r.edu.dev, r.edu.bar, HISI_EDU_LIVENESS, i);
    }
    g_assert_cmphex(hisi_rd(&r.p, A_TRACE_INT_STAT), ==, BIT(0));
    g_assert_cmphex(hisi_rd(&r.p, A_TRACE_WR_STS), ==,
                    FIELD_DP32(REC8_SIZE, TRACE_WR_STS, BUFFER, 1));
    g_assert_cmphex(qtest_readl(r.p.qts, BUF_ADDR(1)), ==, REC8_MARK);
    g_assert_cmpuint(ptt_qom_get_uint(&r.p, "lost-tlps"), ==, 0);
    qpci_io_writel(r.edu.dev, r.edu.bar, HISI_EDU_LIVENESS, 3);
    g_assert_cmphex(hisi_rd(&r.p, A_TRACE_WR_STS), ==,
                    FIELD_DP32(REC8_SIZE, TRACE_WR_STS, BUFFER, 1));
    g_assert_cmpuint(ptt_qom_get_uint(&r.p, "lost-tlps"), ==, 1);
    g_assert_cmphex(hisi_rd(&r.p, A_TRACE_INT_STAT), ==, BIT(0));
    ptt_stop(&r.p);
    ptt_fini_real(&r);
}

/*
 * The CPU's accesses into the root port's window where no function has a
 * BAR: the tap lets them through unclaimed (reads give 0) and traces
 * nothing. Found by hisi-ptt-fuzz: the tap looked such an address up in
 * the window's empty memory map, passing bsearch a NULL array.
 */
static void test_real_window_without_bar(void)
{
    static const PttTrace port_out = {
        .dir = DIR_OUTBOUND, .type = TYPE_POSTED, .fmt_8dw = true,
        .target = RP_PORT_BIT,
    };
    const uint64_t window = 0x10f00000;
    QPCIDevice *rp;
    RealRecord rec[1];
    RealPtt r;

    ptt_init(&r.p, ",traffic=t0,id=ptt", "-object",
             "hisi-traffic,id=t0,source=real", NULL);
    rp = qpci_device_find(&r.p.bus.bus, HISI_RP_DEVFN);
    g_assert_nonnull(rp);
    qpci_config_writew(rp, PCI_MEMORY_BASE, window >> 16);
    qpci_config_writew(rp, PCI_MEMORY_LIMIT, window >> 16);
    qpci_device_enable(rp);
    g_free(rp);
    ptt_start(&r.p, port_out);
    qtest_writel(r.p.qts, window + 0x100, 0x5a5a5a5a);
    g_assert_cmphex(qtest_readl(r.p.qts, window + 0x100), ==, 0);
    qtest_writeq(r.p.qts, window + 0xffff8, 1);
    g_assert_cmpuint(ptt_read_records(&r.p, rec, 1), ==, 0);
    ptt_stop(&r.p);
    hisi_fini(&r.p);
}

/* The edu's non-posted requests: its DMA reads */
static const PttTrace edu_np = {
    .dir = DIR_INBOUND_B, .type = TYPE_NON_POSTED, .fmt_8dw = true,
    .requester = true, .target = EDU_BDF,
};

/*
 * The DMA read of 1000 bytes of edu @e at @bdf, traced by @trace: two
 * MRd of @bdf, tags @tag and next
 */
static void ptt_dma_read_tags(Ptt *p, PttTrace trace, HisiEndpoint *e,
                              uint16_t bdf, uint8_t tag)
{
    RealRecord rec[2];

    ptt_start(p, trace);
    hisi_edu_dma(p, e, false, DMA_RAM, 1000);
    ptt_real_records(p, rec, ARRAY_SIZE(rec));
    ptt_stop(p);
    for (int i = 0; i < ARRAY_SIZE(rec); i++) {
        g_assert_cmphex(rec[i].requester, ==, bdf);
        g_assert_cmphex(rec[i].tag, ==, tag + i);
    }
}

/* The edu's DMA read of 1000 bytes, traced: two MRd, tags @tag and next */
static void ptt_edu_read_tags(RealPtt *r, uint8_t tag)
{
    ptt_dma_read_tags(&r->p, edu_np, &r->edu, EDU_BDF, tag);
}

/*
 * The root port at rp-bdf-max is in the PTT's range: with 00:10.0 (BDF
 * 0x80) both its lowest and highest, the edu's real DMA read of 1000
 * bytes through it is traced, two MRd split at the 512-byte
 * Max_Read_Request_Size with tags 0 and 1.
 */
static void test_real_port_at_rp_bdf_max(void)
{
    RealRecord rec[2];
    RealPtt r;

    ptt_init_real_props(&r, "real", ",rp-bdf-max=0x80");
    g_assert_cmphex(hisi_rd(&r.p, A_DEVICE_RANGE), ==,
                    FIELD_DP32(0x80, DEVICE_RANGE, UPPER, 0x80));
    ptt_start(&r.p, edu_np);
    hisi_edu_dma(&r.p, &r.edu, false, DMA_RAM, 1000);
    ptt_real_records(&r.p, rec, G_N_ELEMENTS(rec));
    for (int i = 0; i < G_N_ELEMENTS(rec); i++) {
        g_assert_cmphex(rec[i].fmt_type, ==, 0x00);
        g_assert_cmphex(rec[i].addr, ==, DMA_RAM + i * 0x200);
        g_assert_cmpuint(rec[i].len_dw, ==, i ? 122 : 128);
        g_assert_cmphex(rec[i].be, ==, 0xff);
        g_assert_cmphex(rec[i].requester, ==, EDU_BDF);
        g_assert_cmphex(rec[i].tag, ==, i);
    }
    ptt_stop(&r.p);
    ptt_fini_real(&r);
}

/*
 * A root port outside the PTT's range is none of its business: on a PTT of
 * 00:11.0 to 00:11.7, the edu's real DMA read through 00:10.0 is not
 * traced, though the trace selects the edu as its requester.
 */
static void test_real_port_outside_range(void)
{
    RealPtt r;

    ptt_init_real_props(&r, "real", ",rp-bdf-min=0x88,rp-bdf-max=0x8f");
    ptt_start(&r.p, edu_np);
    hisi_edu_dma(&r.p, &r.edu, false, DMA_RAM, 1000);
    hisi_rd(&r.p, A_TRACE_WR_STS);
    g_assert_cmpuint(ptt_tlps_selected(&r.p), ==, 0);
    ptt_stop(&r.p);
    ptt_fini_real(&r);
}

/*
 * The PTT on a traffic object of source=real, as ptt_init_real builds it,
 * with @props and the QEMU arguments up to a NULL: hisi_load_stream's
 * @init
 */
static void G_GNUC_NULL_TERMINATED ptt_init_on_real(Ptt *p, const char *props,
                                                    ...)
{
    g_autoptr(GPtrArray) args = hisi_args_topology(NULL);
    va_list ap;

    hisi_args_add(args, "-object", "hisi-traffic,id=t0,source=real",
                  HISI_EDU_DMA_ANY, NULL);
    hisi_args_add_device(args, "hisi-ptt,bus=pcie.0,addr=0x8,traffic=t0,"
                         "id=ptt%s", props);
    va_start(ap, props);
    hisi_args_add_valist(args, ap);
    va_end(ap);
    hisi_init(p, PTT_DEVFN, args);
}

/*
 * A burst running at a migration sends the traffic object's burst
 * subsection at its version 2, the only one every build takes: a
 * destination loads it, and refuses it claiming version 1 (the layout
 * before the burst's end was saved, which it would misread).
 */
static void test_traffic_burst_stream_version(void)
{
    g_autoptr(GByteArray) stream = NULL;
    Ptt p;

    ptt_init_on_real(&p, "", NULL);
    ptt_set_burst_ns(&p, 1000 * 1000);
    qtest_clock_step(p.qts, 300 * 1000);
    stream = hisi_save_stream(&p);
    hisi_fini(&p);
    g_assert_cmpuint(hisi_stream_subsection_version(stream,
                                                    "hisi-traffic/burst"),
                     ==, 2);
    g_assert_true(hisi_load_stream(stream, ptt_init_on_real));
    hisi_stream_set_subsection_version(stream, "hisi-traffic/burst", 1);
    g_assert_false(hisi_load_stream(stream, ptt_init_on_real));
}

/* The bytes of one next tag in a hisi-tap section: BDF (be16), tag */
#define STREAM_TAG_SIZE     3

/*
 * A copy of @stream whose hisi-tap section (the count of next tags, be32,
 * then the tags) holds @n: its own, then more for BDF ff:1f.7
 */
static GByteArray *stream_with_tags(GByteArray *stream, int32_t n)
{
    static const uint8_t more[STREAM_TAG_SIZE] = { 0xff, 0xff, 0 };
    size_t at = hisi_stream_section_fields(stream, "hisi-tap");
    int32_t had = ldl_be_p(stream->data + at);
    size_t rest = at + 4 + had * STREAM_TAG_SIZE;
    GByteArray *copy = g_byte_array_new();
    uint8_t count[4];

    g_assert_cmpint(had, <=, n);
    g_assert_cmpuint(rest, <=, stream->len);
    stl_be_p(count, n);
    g_byte_array_append(copy, stream->data, at);
    g_byte_array_append(copy, count, sizeof(count));
    g_byte_array_append(copy, stream->data + at + 4, rest - at - 4);
    for (int32_t i = had; i < n; i++) {
        g_byte_array_append(copy, more, sizeof(more));
    }
    g_byte_array_append(copy, stream->data + rest, stream->len - rest);
    return copy;
}

/*
 * A destination takes a hisi-tap section with a next tag for each of the
 * 65536 BDFs and refuses one with more (two for a BDF: it is corrupt),
 * before it allocates them; it refuses a section of version 0 too (the
 * tap's first version is 1)
 */
static void test_real_tap_stream_refused(void)
{
    g_autoptr(GByteArray) stream = NULL;
    g_autoptr(GByteArray) every_bdf = NULL;
    g_autoptr(GByteArray) one_more = NULL;
    RealPtt r;

    ptt_init_real(&r, "real");
    stream = hisi_save_stream(&r.p);
    ptt_fini_real(&r);
    every_bdf = stream_with_tags(stream, UINT16_MAX + 1);
    g_assert_true(hisi_load_stream(every_bdf, ptt_init_on_real));
    one_more = stream_with_tags(stream, UINT16_MAX + 2);
    g_assert_false(hisi_load_stream(one_more, ptt_init_on_real));
    g_assert_cmpuint(hisi_stream_section_version(stream, "hisi-tap"), ==, 1);
    hisi_stream_set_section_version(stream, "hisi-tap", 0);
    g_assert_false(hisi_load_stream(stream, ptt_init_on_real));
}

/*
 * Tags go on across a migration: the edu's read requests and the root
 * port's non-posted requests take, in the destination, the tags after
 * those they took in the source.
 */
static void test_real_tags_migrate(void)
{
    static const PttTrace port_np = {
        .dir = DIR_OUTBOUND, .type = TYPE_NON_POSTED, .fmt_8dw = true,
        .target = RP_PORT_BIT,
    };
    RealRecord rec[4];
    RealPtt src, dst;

    ptt_init_real(&src, "real");
    ptt_start(&src.p, port_np);
    hisi_edu_cpu_accesses(&src.p, &src.edu);        /* port: tags 0-3 */
    hisi_edu_dma(&src.p, &src.edu, false, DMA_RAM, 1000);  /* edu: 0, 1 */
    ptt_real_records(&src.p, rec, 4);
    g_assert_cmphex(rec[3].tag, ==, 3);
    ptt_stop(&src.p);

    ptt_init(&dst.p, ",traffic=t0,id=ptt", "-object",
             "hisi-traffic,id=t0,source=real", HISI_EDU_DMA_ANY,
             "-incoming", "defer", NULL);
    hisi_migrate_into(src.p.qts, dst.p.qts);
    ptt_fini_real(&src);
    hisi_edu_init(&dst.p, &dst.edu, EDU_BDF);
    ptt_edu_read_tags(&dst, 2);
    ptt_start(&dst.p, port_np);
    hisi_edu_cpu_accesses(&dst.p, &dst.edu);
    ptt_real_records(&dst.p, rec, 4);
    g_assert_cmphex(rec[0].tag, ==, 4);
    ptt_stop(&dst.p);
    ptt_fini_real(&dst);
}

/*
 * With source=real no synthetic TLP is traced; DMA while no trace runs
 * goes straight to memory and leaves nothing to trace; source is set at
 * creation only.
 */
static void test_real_idle_and_source(void)
{
    static const PttTrace edu_inbound = {
        .dir = DIR_INBOUND_B, .type = TYPE_ALL, .fmt_8dw = true,
        .target = RP_PORT_BIT,
    };
    uint8_t data[64], copy[64];
    QDict *rsp;
    RealPtt r;

    memset(data, 0x5a, sizeof(data));
    ptt_init_real(&r, "real");
    qtest_memwrite(r.p.qts, DMA_RAM, data, sizeof(data));
    hisi_edu_dma(&r.p, &r.edu, false, DMA_RAM, sizeof(data));
    hisi_edu_dma(&r.p, &r.edu, true, DMA_RAM + 0x1000, sizeof(data));
    qtest_memread(r.p.qts, DMA_RAM + 0x1000, copy, sizeof(copy));
    g_assert_cmpmem(copy, sizeof(copy), data, sizeof(data));
    ptt_start(&r.p, edu_inbound);
    qtest_clock_step(r.p.qts, 10 * 1000 * 1000);
    g_assert_cmphex(hisi_rd(&r.p, A_TRACE_WR_STS), ==, 0);
    rsp = qtest_qmp(r.p.qts, "{'execute': 'qom-set', 'arguments':"
                    " {'path': 't0', 'property': 'source',"
                    "  'value': 'synthetic'}}");
    g_assert_true(qdict_haskey(rsp, "error"));
    g_assert_nonnull(strstr(qdict_get_str(qdict_get_qdict(rsp, "error"),
                                          "desc"), "only be set when"));
    qobject_unref(rsp);
    ptt_stop(&r.p);
    ptt_fini_real(&r);
}

static const HisiRefusal bad_properties[] = {
    { "bdf-min-above-max",
      { "-device", "hisi-ptt,rp-bdf-min=0x90,rp-bdf-max=0x80" },
      "rp-bdf-min (0x0090) must not be above rp-bdf-max" },
    { "bdf-range-across-buses",
      { "-device", "hisi-ptt,rp-bdf-min=0x80,rp-bdf-max=0x180" },
      "must be on one bus" },
    { "sicl-id-too-big",
      { "-device", "hisi-ptt,sicl-id=70000" },
      "Parameter 'sicl-id' expects uint16_t" },
    { "same-location-twice",
      { "-device", "hisi-ptt,addr=0x8,sicl-id=1,core-id=2",
        "-device", "hisi-ptt,addr=0x9,sicl-id=1,core-id=2" },
      "another hisi-ptt already has sicl-id=1 core-id=2" },
};

/*
 * Two PCIe cores on one traffic object: this PTT (root port 00:10.0, the
 * edu endpoint on bus 1) and PTT "pttb" of sicl 1 at 00:09.0 (root port
 * 00:11.0, an edu endpoint on bus 2). Each core has its PCIe PMU too, on
 * the same root ports: 00:0a.0 for this core, 00:0b.0 for sicl 1.
 */
#define PTTB_DEVFN          QPCI_DEVFN(9, 0)
#define PMU_DEVFN           QPCI_DEVFN(0xa, 0)
#define PMUB_DEVFN          QPCI_DEVFN(0xb, 0)
#define RP1_DEVFN           QPCI_DEVFN(0x11, 0)
#define RP1_PORT_BIT        0x4     /* slot 17 -> bit 2 */
#define RP1_ARGS            "pcie-root-port,id=rp1,bus=pcie.0,chassis=2," \
                            "addr=0x11"

/* Number root port rp1's secondary bus 2, as firmware would */
static void ptt_number_rp1(Ptt *p)
{
    hisi_number_bus(p, RP1_DEVFN, 2);
}

/*
 * A PTT traces the synthetic traffic of up to PTT_MAX_ENDPOINTS endpoints
 * below its root ports, not a few: with eight, the edu below 00:10.0 and
 * seven functions of an edu slot below rp1 (02:00.0 to 02:00.6), a trace
 * of both ports' inbound posted TLPs has DMA writes from each of them.
 */
static void test_eight_endpoints(void)
{
    static const PttTrace in_posted = {
        .dir = DIR_INBOUND, .type = TYPE_POSTED,
        .target = RP_PORT_BIT | RP1_PORT_BIT,
    };
    g_autoptr(GPtrArray) args = hisi_args_topology(NULL);
    uint32_t match;
    Ptt p;

    hisi_args_add_device(args, "hisi-ptt,bus=pcie.0,addr=0x8");
    hisi_args_add(args, "-device", RP1_ARGS, NULL);
    for (int f = 0; f < 7; f++) {
        hisi_args_add_device(args, "edu,bus=rp1,addr=0.%d%s", f,
                             f ? "" : ",multifunction=on");
    }
    hisi_init(&p, PTT_DEVFN, args);
    ptt_number_rp1(&p);
    g_assert_cmpuint(ptt_records_of_requester(&p, in_posted, EDU_BDF,
                                              &match), >, 0);
    g_assert_cmpuint(match, >, 0);
    for (int f = 0; f < 7; f++) {
        g_test_message("requester 02:00.%d", f);
        ptt_records_of_requester(&p, in_posted, 0x0200 + f, &match);
        g_assert_cmpuint(match, >, 0);
    }
    hisi_fini(&p);
}

/*
 * An NVMe controller (hw/nvme) below root port 00:11.0 (bus 2), driven as
 * its driver would: admin queues of 8 entries in RAM, commands submitted
 * one at a time, interrupts unused (completions polled).
 */
#define NVME_BDF            0x0200
#define NVME_BAR            0x10f00000u
#define NVME_RAM            0x48200000ull
#define NVME_ASQ            NVME_RAM
#define NVME_ACQ            (NVME_RAM + 0x1000)
#define NVME_DATA           (NVME_RAM + 0x2000)
/* Configuration space past any extended capability of QEMU's controller */
#define NVME_FREE_CONFIG    0x200
#define NVME_CONFIG_SIZE    0x1000
#define NVME_REG_AQA        0x24
#define NVME_REG_ASQ        0x28
#define NVME_REG_ACQ        0x30
#define NVME_REG_CC         0x14
#define NVME_REG_CSTS       0x1c
#define NVME_REG_SQ0TDBL    0x1000
#define NVME_CC_READY       0x00460001  /* EN, 64-byte SQEs, 16-byte CQEs */
#define NVME_SET_FEATURES   0x09
#define NVME_IDENTIFY       0x06
#define NVME_FID_HOST_BEHAVIOR 0x16     /* 512 bytes of data to it */
#define NVME_CNS_CONTROLLER 0x01        /* 4096 bytes of data from it */

typedef struct Nvme {
    Ptt p;
    HisiEndpoint ep;
    unsigned sq_tail;
} Nvme;

/*
 * Ready, its BAR 0 alone in the MiB at NVME_BAR, which root port rp1's
 * window is (qpci put it in the MiB of the PTT's BAR, which the window
 * would then hide)
 */
static void nvme_init(Nvme *n)
{
    QPCIDevice *rp1;

    ptt_init(&n->p, ",id=ptt,traffic=t0", "-object",
             "hisi-traffic,id=t0,source=real", "-device", RP1_ARGS,
             "-device", "nvme,bus=rp1,serial=hisi0", NULL);
    hisi_number_bus(&n->p, RP1_DEVFN, 2);
    rp1 = qpci_device_find(&n->p.bus.bus, RP1_DEVFN);
    g_assert_nonnull(rp1);
    hisi_endpoint_init(&n->p, &n->ep, RP1_DEVFN, NVME_BDF);
    qpci_config_writel(n->ep.dev, PCI_BASE_ADDRESS_0, NVME_BAR);
    qpci_config_writel(n->ep.dev, PCI_BASE_ADDRESS_1, 0);
    n->ep.bar.addr = NVME_BAR;
    qpci_config_writew(rp1, PCI_MEMORY_BASE, NVME_BAR >> 16);
    qpci_config_writew(rp1, PCI_MEMORY_LIMIT, NVME_BAR >> 16);
    g_free(rp1);
    n->sq_tail = 0;
    qtest_memset(n->p.qts, NVME_RAM, 0, 0x3000);
    qpci_io_writel(n->ep.dev, n->ep.bar, NVME_REG_AQA, 7 << 16 | 7);
    qpci_io_writeq(n->ep.dev, n->ep.bar, NVME_REG_ASQ, NVME_ASQ);
    qpci_io_writeq(n->ep.dev, n->ep.bar, NVME_REG_ACQ, NVME_ACQ);
    qpci_io_writel(n->ep.dev, n->ep.bar, NVME_REG_CC, NVME_CC_READY);
    for (int tries = 0;
         !(qpci_io_readl(n->ep.dev, n->ep.bar, NVME_REG_CSTS) & 1);
         tries++) {
        g_assert_cmpint(tries, <, 100);
        qtest_clock_step(n->p.qts, 1000 * 1000);
    }
}

/* Submit admin command @opcode with data at NVME_DATA; wait for it. */
static void nvme_admin(Nvme *n, uint8_t opcode, uint32_t cdw10)
{
    uint64_t sqe = NVME_ASQ + n->sq_tail * 64;
    uint64_t cqe = NVME_ACQ + n->sq_tail * 16;

    qtest_memset(n->p.qts, sqe, 0, 64);
    qtest_writel(n->p.qts, sqe, opcode | (n->sq_tail + 1) << 16);
    qtest_writeq(n->p.qts, sqe + 24, NVME_DATA);        /* PRP 1 */
    qtest_writel(n->p.qts, sqe + 40, cdw10);
    n->sq_tail++;
    qpci_io_writel(n->ep.dev, n->ep.bar, NVME_REG_SQ0TDBL, n->sq_tail);
    for (int tries = 0; !(qtest_readl(n->p.qts, cqe + 12) & BIT(16));
         tries++) {
        g_assert_cmpint(tries, <, 1000);
        qtest_clock_step(n->p.qts, 1000);
        g_usleep(1000);
    }
    /* Status: successful */
    g_assert_cmphex(qtest_readl(n->p.qts, cqe + 12) >> 17, ==, 0);
}

/*
 * The TLPs of an NVMe controller's DMA are cut by the sizes in its Device
 * Control register. QEMU's PCIe functions hold both at 128 bytes (the
 * fields are read-only 0 there), where a function without the capability
 * has the defaults of 128 and 512: a Set Features command reads its
 * 64-byte entry and its 512 bytes of data as MRd of 64 and 4 x 128 bytes,
 * each completed by one CplD; an Identify writes its 4 KiB of data as 32
 * MWr of 128 bytes, then the 16-byte completion entry.
 */
static void test_real_link_sizes(void)
{
    static const PttTrace nvme_np = {
        .dir = DIR_INBOUND_B, .type = TYPE_NON_POSTED, .fmt_8dw = true,
        .requester = true, .target = NVME_BDF,
    };
    static const PttTrace nvme_cpl = {
        .dir = DIR_OUTBOUND, .type = TYPE_CPL, .fmt_8dw = true,
        .requester = true, .target = NVME_BDF,
    };
    static const PttTrace nvme_posted = {
        .dir = DIR_INBOUND_B, .type = TYPE_POSTED, .fmt_8dw = true,
        .requester = true, .target = NVME_BDF,
    };
    RealRecord rec[33];
    uint64_t ecam;
    uint16_t ctl;
    uint8_t exp;
    Nvme n;

    nvme_init(&n);
    /* qpci reaches the first 256 bytes of configuration space only */
    ecam = n.p.bus.ecam_alloc_ptr + ((uint64_t)NVME_BDF << 12);
    exp = qpci_find_capability(n.ep.dev, PCI_CAP_ID_EXP, 0);
    g_assert_cmpuint(exp, !=, 0);
    qpci_config_writew(n.ep.dev, exp + PCI_EXP_DEVCTL,
                       PCI_EXP_DEVCTL_PAYLOAD | PCI_EXP_DEVCTL_READRQ);
    ctl = qpci_config_readw(n.ep.dev, exp + PCI_EXP_DEVCTL);
    g_assert_cmphex(ctl & (PCI_EXP_DEVCTL_PAYLOAD | PCI_EXP_DEVCTL_READRQ),
                    ==, 0);
    /*
     * The configuration space past the controller's capabilities, which
     * QEMU keeps as written, with ones in the size fields' places: the
     * sizes come from Device Control alone.
     */
    for (uint16_t off = NVME_FREE_CONFIG; off < NVME_CONFIG_SIZE;
         off += 2) {
        qtest_writew(n.p.qts, ecam + off,
                     PCI_EXP_DEVCTL_PAYLOAD | PCI_EXP_DEVCTL_READRQ);
    }
    g_assert_cmphex(qtest_readw(n.p.qts, ecam + NVME_CONFIG_SIZE - 2), ==,
                    PCI_EXP_DEVCTL_PAYLOAD | PCI_EXP_DEVCTL_READRQ);

    ptt_start(&n.p, nvme_np);
    nvme_admin(&n, NVME_SET_FEATURES, NVME_FID_HOST_BEHAVIOR);
    ptt_real_records(&n.p, rec, 5);
    g_assert_cmphex(rec[0].addr, ==, NVME_ASQ);
    g_assert_cmpuint(rec[0].len_dw, ==, 16);
    for (int i = 1; i < 5; i++) {
        g_assert_cmphex(rec[i].addr, ==, NVME_DATA + (i - 1) * 128);
        g_assert_cmpuint(rec[i].len_dw, ==, 32);
        g_assert_cmphex(rec[i].tag, ==, i);
    }
    ptt_stop(&n.p);

    ptt_start(&n.p, nvme_cpl);
    nvme_admin(&n, NVME_SET_FEATURES, NVME_FID_HOST_BEHAVIOR);
    ptt_real_records(&n.p, rec, 5);
    g_assert_cmpuint(rec[0].len_dw, ==, 16);
    for (int i = 1; i < 5; i++) {
        g_assert_cmpuint(rec[i].len_dw, ==, 32);
        g_assert_cmpuint(rec[i].dw[1] & 0xfff, ==, 128);    /* Byte Count */
    }
    ptt_stop(&n.p);

    ptt_start(&n.p, nvme_posted);
    nvme_admin(&n, NVME_IDENTIFY, NVME_CNS_CONTROLLER);
    ptt_real_records(&n.p, rec, 33);
    for (int i = 0; i < 32; i++) {
        g_assert_cmphex(rec[i].addr, ==, NVME_DATA + i * 128);
        g_assert_cmpuint(rec[i].len_dw, ==, 32);
    }
    g_assert_cmphex(rec[32].addr, ==, NVME_ACQ + 2 * 16);
    g_assert_cmpuint(rec[32].len_dw, ==, 4);
    ptt_stop(&n.p);
    g_free(n.ep.dev);
    hisi_fini(&n.p);
}

/*
 * Two cores' PTTs and PCIe PMUs on one traffic object: 00:10.0 is the
 * last root port of the first PTT's range, rp1 (00:11.0) the first of the
 * second's
 */
static void ptt_init_two_cores(Ptt *a, Ptt *b)
{
    ptt_init(a, ",traffic=t0,id=ptt,rp-bdf-min=0x79,rp-bdf-max=0x80",
             "-object", "hisi-traffic,id=t0", "-device", RP1_ARGS,
             "-device", "edu,bus=rp1",
             "-device", "hisi-ptt,bus=pcie.0,addr=0x9,sicl-id=1,traffic=t0,"
             "id=pttb,rp-bdf-min=0x88,rp-bdf-max=0x8f",
             "-device", "hisi-pcie-pmu,bus=pcie.0,addr=0xa,traffic=t0,"
             "bdf-min=0x80,bdf-max=0x87",
             "-device", "hisi-pcie-pmu,bus=pcie.0,addr=0xb,sicl-id=1,"
             "traffic=t0,bdf-min=0x88,bdf-max=0x8f", NULL);
    ptt_number_rp1(a);
    *b = *a;
    b->dev = hisi_enable(a, PTTB_DEVFN, &b->bar);
}

/* TLPs PTT @path selected over the next @ns */
static uint64_t ptt_tlps_of_in(Ptt *p, const char *path, int64_t ns)
{
    uint64_t before;

    hisi_rd(p, A_TRACE_WR_STS);
    before = ptt_qom_get_uint_at(p, path, "records") +
             ptt_qom_get_uint_at(p, path, "lost-tlps");
    qtest_clock_step(p->qts, ns);
    hisi_rd(p, A_TRACE_WR_STS);
    return ptt_qom_get_uint_at(p, path, "records") +
           ptt_qom_get_uint_at(p, path, "lost-tlps") - before;
}

/*
 * The tune events act on the PTT's own core (hisi-ptt.rst: "tune the PCIe
 * link/bus"): tuning one core's PTT changes neither the traffic below the
 * other core's root ports nor what the other's tune files read.
 */
static void test_tune_scope_own_core(void)
{
    /*
     * The outbound posted TLPs, the CPU's MMIO writes: 20 per ms in the
     * default profile (docs/devices/traffic.md), scaled by 2^w / 2 by the QoS
     * weight w of TX P
     */
    const PttTrace mmio_writes = {
        .dir = DIR_OUTBOUND, .type = TYPE_POSTED, .target = RP_PORT_BIT,
    };
    const PttTrace mmio_writes_b = {
        .dir = DIR_OUTBOUND, .type = TYPE_POSTED, .target = RP1_PORT_BIT,
    };
    Ptt a, b;

    ptt_init_two_cores(&a, &b);
    ptt_start(&b, mmio_writes_b);
    ptt_start(&a, mmio_writes);
    g_assert_cmpuint(ptt_tlps_of_in(&b, "pttb", 1000 * 1000), ==, 20);
    g_assert_cmpuint(ptt_tlps_of_in(&a, "ptt", 1000 * 1000), ==, 20);
    ptt_tune(&a, TUNE_QOS_TX_P, TUNE_LEVEL_MAX);
    qtest_clock_step(a.qts, 1000 * 1000);
    g_assert_cmpuint(ptt_tlps_of_in(&a, "ptt", 1000 * 1000), ==, 40);
    g_assert_cmpuint(ptt_tlps_of_in(&b, "pttb", 1000 * 1000), ==, 20);
    g_assert_cmpuint(ptt_tune_read(&b, TUNE_QOS_TX_P), ==, TUNE_LEVEL_RESET);
    g_assert_cmpuint(ptt_tune_read(&a, TUNE_QOS_TX_P), ==, TUNE_LEVEL_MAX);
    /* and the other way round */
    ptt_tune(&b, TUNE_QOS_TX_P, 0);
    qtest_clock_step(a.qts, 1000 * 1000);
    g_assert_cmpuint(ptt_tlps_of_in(&b, "pttb", 1000 * 1000), ==, 10);
    g_assert_cmpuint(ptt_tlps_of_in(&a, "ptt", 1000 * 1000), ==, 40);
    g_free(b.dev);
    hisi_fini(&a);
}

/*
 * What the PCIe PMU's driver ABI defines (perf's hisi_pcie format): the
 * event of the bytes of outbound posted TLPs, the CPU's MMIO writes, and
 * the length mode of their headers only, so that the count is the TLPs
 * times one header size whatever their payloads.
 */
#define PMU_TX_MWR_FLUX     0x0105
#define PMU_LEN_HEADER      2

/* Counter 0 of @pmu counts the MMIO write headers through @ports. */
static void pmu_count_tx_mwr_headers(HisiDev *pmu, uint16_t ports)
{
    uint64_t ctrl = FIELD_DP64(R_EVENT_CTRL_EVENT_EN_MASK, EVENT_CTRL, EVENT,
                               PMU_TX_MWR_FLUX);

    ctrl = FIELD_DP64(ctrl, EVENT_CTRL, TARGET, ports);
    ctrl = FIELD_DP64(ctrl, EVENT_CTRL, LEN_MODE, PMU_LEN_HEADER);
    hisi_wrq(pmu, HISI_PCIE_PMU_REG(EVENT_CTRL, 0),
             R_EVENT_CTRL_RESET_CNT_MASK);
    hisi_wrq(pmu, HISI_PCIE_PMU_REG(EVENT_CTRL, 0), ctrl);
    hisi_wr(pmu, A_GLOBAL_CTRL, R_GLOBAL_CTRL_EN_MASK);
}

/* What counter 0 of @pmu and of @pmub count over the same next @ns */
static void pmu_counts_in(HisiDev *pmu, HisiDev *pmub, int64_t ns,
                          uint64_t *cnt, uint64_t *cntb)
{
    uint64_t before = hisi_rdq(pmu, HISI_PCIE_PMU_REG(CNT, 0));
    uint64_t beforeb = hisi_rdq(pmub, HISI_PCIE_PMU_REG(CNT, 0));

    qtest_clock_step(pmu->qts, ns);
    *cnt = hisi_rdq(pmu, HISI_PCIE_PMU_REG(CNT, 0)) - before;
    *cntb = hisi_rdq(pmub, HISI_PCIE_PMU_REG(CNT, 0)) - beforeb;
}

/*
 * What the PCIe PMUs count follows the same scope (hisi-ptt.rst: the tune
 * events "tune the PCIe link/bus" of the PTT's core): after TX P is tuned
 * to its highest weight on this core, this core's PMU counts twice the
 * MMIO writes, the other core's PMU the same as before.
 */
static void test_tune_scope_pmu_counts(void)
{
    uint64_t cnt, cntb, tuned, tunedb;
    HisiDev pmu, pmub;
    Ptt a, b;

    ptt_init_two_cores(&a, &b);
    pmu = a;
    pmu.dev = hisi_enable(&a, PMU_DEVFN, &pmu.bar);
    pmub = a;
    pmub.dev = hisi_enable(&a, PMUB_DEVFN, &pmub.bar);
    pmu_count_tx_mwr_headers(&pmu, RP_PORT_BIT);
    pmu_count_tx_mwr_headers(&pmub, RP1_PORT_BIT);
    pmu_counts_in(&pmu, &pmub, 1000 * 1000, &cnt, &cntb);
    g_assert_cmpuint(cnt, >, 0);
    g_assert_cmpuint(cntb, ==, cnt);
    ptt_tune(&a, TUNE_QOS_TX_P, TUNE_LEVEL_MAX);
    qtest_clock_step(a.qts, 1000 * 1000);
    pmu_counts_in(&pmu, &pmub, 1000 * 1000, &tuned, &tunedb);
    g_test_message("MMIO write header bytes in 1 ms: this core %" PRIu64
                   " -> %" PRIu64 ", the other %" PRIu64 " -> %" PRIu64,
                   cnt, tuned, cntb, tunedb);
    g_assert_cmpuint(tuned, ==, 2 * cnt);
    g_assert_cmpuint(tunedb, ==, cntb);
    g_free(pmub.dev);
    g_free(pmu.dev);
    g_free(b.dev);
    hisi_fini(&a);
}

/* An 8DW record's TLP type (header DW0 31:24) and tag */
static void ptt_rec8_tlp(Ptt *p, uint64_t rec, uint8_t *fmt_type,
                         uint8_t *tag)
{
    uint32_t dw0 = qtest_readl(p->qts, rec + 8);
    bool cpl = ((dw0 >> 24) & 0x1f) == 0x0a;

    *fmt_type = dw0 >> 24;
    /* requests: DW1 15:8; completions: DW2 15:8 */
    *tag = qtest_readl(p->qts, rec + (cpl ? 16 : 12)) >> 8;
}

typedef struct PttStreamSeen {
    uint8_t fmt_type;
    uint8_t last_tag;
    uint64_t records;
} PttStreamSeen;

typedef struct PttContinuity {
    PttStreamSeen seen[3];
    unsigned n;
    int64_t change[8];      /* ns since the trace's time base */
    unsigned changes;
    unsigned at_change[8];  /* streams with a record at each change */
} PttContinuity;

static void ptt_check_record(PttContinuity *c, Ptt *p, uint64_t rec)
{
    uint32_t time = qtest_readl(p->qts, rec + REC8_TIME);
    PttStreamSeen *s = NULL;
    uint8_t fmt_type, tag;

    ptt_rec8_tlp(p, rec, &fmt_type, &tag);
    for (unsigned i = 0; i < c->n; i++) {
        if (c->seen[i].fmt_type == fmt_type) {
            s = &c->seen[i];
        }
    }
    if (!s) {
        g_assert_cmpuint(c->n, <, ARRAY_SIZE(c->seen));
        s = &c->seen[c->n++];
        s->fmt_type = fmt_type;
    } else {
        /* TLP numbers go on: each tag is the one after the last */
        g_assert_cmphex(tag, ==, (uint8_t)(s->last_tag + 1));
    }
    s->last_tag = tag;
    s->records++;
    for (unsigned i = 0; i < c->changes; i++) {
        c->at_change[i] += time == c->change[i];
    }
}

/*
 * Tune writes, rule changes and pause/resume go on from where each stream
 * is: no burst of one TLP of every stream at a change, tags continue.
 */
static void test_traffic_changes_keep_phase(void)
{
    static const PttTrace inbound = {
        .dir = DIR_INBOUND_B, .type = TYPE_ALL, .fmt_8dw = true,
        .target = RP_PORT_BIT,
    };
    PttContinuity c = { 0 };
    unsigned next_buf = 0;
    int64_t base;
    uint32_t sts;
    Ptt p;

    ptt_init(&p, ",traffic=t0,id=ptt", "-object",
             "hisi-traffic,id=t0,rules=stream=dma-write,,rate=30000;"
             "stream=dma-read,,rate=20000;stream=p2p-cpl,,rate=7000", NULL);
    /* Register accesses take no virtual time: the trace's time base */
    base = qtest_clock_step(p.qts, 123457);
    ptt_start(&p, inbound);
    for (int step = 1; step <= 100; step++) {
        int64_t now = qtest_clock_step(p.qts, 100 * 1000 + 37);
        bool changed = true;

        switch (step) {
        case 13:
            ptt_tune(&p, TUNE_QOS_TX_P, TUNE_LEVEL_MAX);
            break;
        case 27:
            hisi_set_rules(p.qts, "stream=dma-write,rate=25000;"
                           "stream=dma-read,rate=21000;"
                           "stream=p2p-cpl,rate=9000");
            break;
        case 41:
            ptt_set_paused(&p, true);
            break;
        case 49:
            ptt_set_paused(&p, false);
            break;
        case 62:
            ptt_tune(&p, TUNE_RX_BUF_LEVEL, 0);
            break;
        case 75:
            hisi_set_rules(p.qts, "");
            break;
        default:
            changed = false;
        }
        if (changed) {
            c.change[c.changes++] = now - base;
        }
        while (hisi_rd(&p, A_TRACE_INT_STAT) & BIT(next_buf)) {
            for (int n = 0; n < BUF_SIZE / REC8_SIZE; n++) {
                ptt_check_record(&c, &p, BUF_ADDR(next_buf) + n * REC8_SIZE);
            }
            hisi_wr(&p, A_TRACE_INT_STAT, BIT(next_buf));
            next_buf = (next_buf + 1) % HISI_PTT_NUM_BUFS;
        }
    }
    sts = hisi_rd(&p, A_TRACE_WR_STS);
    g_assert_cmpuint(FIELD_EX32(sts, TRACE_WR_STS, BUFFER), ==, next_buf);
    for (uint32_t off = 0; off < FIELD_EX32(sts, TRACE_WR_STS, WRITE);
         off += REC8_SIZE) {
        ptt_check_record(&c, &p, BUF_ADDR(next_buf) + off);
    }
    g_assert_cmpuint(ptt_qom_get_uint(&p, "lost-tlps"), ==, 0);
    g_assert_cmpuint(c.n, ==, 3);
    for (unsigned i = 0; i < c.changes; i++) {
        g_test_message("change at %" PRId64 " ns: %u streams", c.change[i],
                       c.at_change[i]);
        g_assert_cmpuint(c.at_change[i], <, c.n);
    }
    hisi_fini(&p);
}

/*
 * An endpoint whose BAR is not mapped (nothing enabled the edu) still has
 * its MMIO writes, to a stand-in window of its own: 4 KiB at 0x10000000 +
 * BDF * 4 KiB, TLP k at k * 128 bytes into it, as into a BAR. The CPU's
 * writes carry the root port's ID; from time 0 on, TLP k comes at k * 50
 * us (20000/s), so 200 us of trace from 1 us hold TLPs 1-4.
 */
#define EDU_STANDIN_WINDOW  (0x10000000u + EDU_BDF * 0x1000u)
#define MMIO_WRITE_NS       50000
#define TLP_MWR_3DW         0x40        /* header DW0 31:24 */

/*
 * With its BAR 0 (1 MiB) mapped, the same TLPs go into that BAR, and wrap
 * at its end: TLP 8191 at 1 MiB - 128, TLP 8192 at the start again (in
 * the 4 KiB stand-in window they wrap every 32 TLPs).
 */
static void test_mmio_window_in_bar(void)
{
    HisiEndpoint edu;
    RealRecord rec[2];
    Ptt p;

    ptt_init(&p, "", NULL);
    hisi_edu_init(&p, &edu, EDU_BDF);
    qtest_clock_step(p.qts, 8190 * MMIO_WRITE_NS + MMIO_WRITE_NS / 2);
    ptt_start(&p, rp_out_posted);
    qtest_clock_step(p.qts, ARRAY_SIZE(rec) * MMIO_WRITE_NS);
    ptt_stop(&p);
    ptt_real_records(&p, rec, ARRAY_SIZE(rec));
    g_assert_cmphex(rec[0].fmt_type, ==, TLP_MWR_3DW);
    g_assert_cmphex(rec[0].addr, ==, edu.bar.addr + 0x100000 - 128);
    g_assert_cmphex(rec[1].addr, ==, edu.bar.addr);
    g_free(edu.dev);
    hisi_fini(&p);
}

/*
 * The PTT @p's MMIO writes from TLP @first on go to the edu's stand-in
 * window, wrapping at its end
 */
static void ptt_assert_standin_writes(Ptt *p, unsigned first)
{
    RealRecord rec[4];

    qtest_clock_step(p->qts, (first - 1) * MMIO_WRITE_NS + 1000);
    ptt_start(p, rp_out_posted);
    qtest_clock_step(p->qts, ARRAY_SIZE(rec) * MMIO_WRITE_NS);
    ptt_stop(p);
    ptt_real_records(p, rec, ARRAY_SIZE(rec));
    for (int i = 0; i < ARRAY_SIZE(rec); i++) {
        unsigned k = first + i;

        g_assert_cmphex(rec[i].fmt_type, ==, TLP_MWR_3DW);
        g_assert_cmphex(rec[i].requester, ==, HISI_RP_DEVFN);
        g_assert_cmpuint(rec[i].tag, ==, k);
        g_assert_cmphex(rec[i].addr, ==,
                        EDU_STANDIN_WINDOW + k * 128 % 0x1000);
    }
}

static void test_mmio_window_without_bar(void)
{
    Ptt p;

    ptt_init(&p, "", NULL);
    ptt_assert_standin_writes(&p, 1);
    hisi_fini(&p);
}

/* TLPs 30 to 33: the stand-in window's last two lines, then its first */
static void test_mmio_window_standin_wraps(void)
{
    Ptt p;

    ptt_init(&p, "", NULL);
    ptt_assert_standin_writes(&p, 30);
    hisi_fini(&p);
}

/*
 * An expansion ROM is no window for writes: with the edu's ROM mapped
 * (BAR 0 sized, not placed, as firmware leaves a BAR it cannot fit), its
 * writes still go to the stand-in window.
 */
#define EDU_ROM_ADDR        0x10800000u
#define EDU_ROM_SIZE        4096

static void test_mmio_window_not_rom(void)
{
    g_autofree char *rom = g_strdup_printf("%s/hisi-ptt-rom-%d",
                                           g_get_tmp_dir(), getpid());
    g_autofree char *romfile = g_strdup_printf("edu.romfile=%s", rom);
    g_autofree uint8_t *zeros = g_malloc0(EDU_ROM_SIZE);
    g_autoptr(GError) err = NULL;
    QPCIDevice *edu;
    Ptt p;

    g_file_set_contents(rom, (const char *)zeros, EDU_ROM_SIZE, &err);
    g_assert_no_error(err);
    ptt_init(&p, "", "-global", romfile, NULL);
    unlink(rom);
    edu = qpci_device_find(&p.bus.bus, EDU_BDF);
    g_assert_nonnull(edu);
    qpci_config_writel(edu, PCI_BASE_ADDRESS_0, 0xffffffff);
    qpci_config_writel(edu, PCI_ROM_ADDRESS,
                       EDU_ROM_ADDR | PCI_ROM_ADDRESS_ENABLE);
    qpci_config_writew(edu, PCI_COMMAND, PCI_COMMAND_MEMORY);
    g_free(edu);
    ptt_assert_standin_writes(&p, 1);
    hisi_fini(&p);
}

/*
 * Hot-plug: an edu endpoint below root port 00:11.0 (bus 2, "rp1"), traced
 * alone by that port's filter: its built-in DMA writes, 200000/s, TLP k
 * at 5000 k ns after it appears.
 */
#define HP_DMA_WRITE_NS     5000

static const PttTrace rp1_dma_writes = {
    .dir = DIR_INBOUND_B, .type = TYPE_POSTED, .fmt_8dw = true,
    .target = RP1_PORT_BIT,
};

/* The PTT with root port rp1 (bus 2) and -device @rp1_endpoint, if any */
static void ptt_init_rp1(Ptt *p, const char *rp1_endpoint)
{
    if (rp1_endpoint) {
        ptt_init(p, ",id=ptt", "-device", RP1_ARGS, "-device", rp1_endpoint,
                 NULL);
    } else {
        ptt_init(p, ",id=ptt", "-device", RP1_ARGS, NULL);
    }
    ptt_number_rp1(p);
}

/*
 * Real traffic follows hot-plug: the CPU's configuration read of an edu
 * hot-plugged below root port rp1 is traced (CfgRd0 to 02:00.0), and so
 * is that of another edu plugged after the first was removed.
 */
static void test_real_hotplug(void)
{
    static const PttTrace rp1_np = {
        .dir = DIR_OUTBOUND, .type = TYPE_NON_POSTED, .fmt_8dw = true,
        .target = RP1_PORT_BIT,
    };
    RealRecord rec[1];
    Ptt p;

    ptt_init(&p, ",id=ptt,traffic=t0", "-object",
             "hisi-traffic,id=t0,source=real", "-device", RP1_ARGS, NULL);
    ptt_number_rp1(&p);
    for (int plug = 0; plug < 2; plug++) {
        QPCIDevice *edu;

        hisi_hotplug(&p, "rp1", RP1_DEVFN, "edu", "hp0");
        edu = qpci_device_find(&p.bus.bus, 0x0200);
        g_assert_nonnull(edu);
        ptt_start(&p, rp1_np);
        g_assert_cmphex(qpci_config_readw(edu, PCI_VENDOR_ID), ==, 0x1234);
        ptt_stop(&p);
        g_assert_cmpuint(ptt_read_records(&p, rec, 1), ==, 1);
        g_assert_cmphex(rec[0].dw[0], ==, 0x04000001);
        g_assert_cmphex(rec[0].dw[2], ==, 0x02000000);
        g_free(edu);
        hisi_hot_unplug(&p, RP1_DEVFN, "hp0");
    }
    hisi_fini(&p);
}

#define RP1_EDU_BDF         0x0200      /* behind root port rp1, bus 2 */

/*
 * The PTT on traffic object t0 with source=real, an edu behind each root
 * port (00:10.0 and rp1), both able to reach all of RAM by DMA; QEMU
 * waits for an incoming migration if @incoming.
 */
static void ptt_init_real_two_ports(Ptt *p, bool incoming)
{
    /* without @incoming, the arguments end before "-incoming defer" */
    ptt_init(p, ",traffic=t0,id=ptt", "-object",
             "hisi-traffic,id=t0,source=real", HISI_EDU_DMA_ANY, "-device",
             RP1_ARGS, "-device", "edu,bus=rp1",
             incoming ? "-incoming" : NULL, "defer", NULL);
    if (!incoming) {
        ptt_number_rp1(p);
    }
}

/* @n configuration reads of the edu @d's Vendor ID */
static void ptt_edu_vendor_reads(QPCIDevice *d, int n)
{
    for (int i = 0; i < n; i++) {
        g_assert_cmphex(qpci_config_readw(d, PCI_VENDOR_ID), ==, 0x1234);
    }
}

/*
 * Record @rec is a CfgRd0 of the Vendor ID (First DW BE 0x3) of @bdf from
 * the root port at @port_devfn (on bus 0: its BDF) with @tag
 */
static void ptt_assert_vendor_read(const RealRecord *rec, int port_devfn,
                                   uint16_t bdf, uint8_t tag)
{
    g_test_message("%08x %08x %08x %08x", rec->dw[0], rec->dw[1], rec->dw[2],
                   rec->dw[3]);
    g_assert_cmphex(rec->dw[0], ==, 0x04000001);
    g_assert_cmphex(rec->dw[1], ==, port_devfn << 16 | tag << 8 | 0x3);
    g_assert_cmphex(rec->dw[2], ==, bdf << 16 | PCI_VENDOR_ID);
    g_assert_cmphex(rec->dw[3], ==, 0);
}

/*
 * In a trace of the non-posted requests of the root ports in @ports, @n0
 * configuration reads of the edu behind 00:10.0, then @n1 of the one
 * behind rp1; the records of those the ports select into @rec
 */
static void ptt_two_port_vendor_reads(Ptt *p, uint16_t ports, int n0,
                                      int n1, RealRecord *rec)
{
    const PttTrace ports_np = {
        .dir = DIR_OUTBOUND, .type = TYPE_NON_POSTED, .fmt_8dw = true,
        .target = ports,
    };
    /* found before the trace: finding a function reads its Vendor ID */
    QPCIDevice *edu = qpci_device_find(&p->bus.bus, EDU_BDF);
    QPCIDevice *edu1 = qpci_device_find(&p->bus.bus, RP1_EDU_BDF);

    g_assert_nonnull(edu);
    g_assert_nonnull(edu1);
    ptt_start(p, ports_np);
    ptt_edu_vendor_reads(edu, n0);
    ptt_edu_vendor_reads(edu1, n1);
    ptt_real_records(p, rec, (ports & RP_PORT_BIT ? n0 : 0) +
                             (ports & RP1_PORT_BIT ? n1 : 0));
    ptt_stop(p);
    g_free(edu);
    g_free(edu1);
}

/*
 * Every root port's tags go on across a migration, not the first port's
 * alone: with the configuration reads of the edu behind each, 00:10.0
 * takes tag 0 in the source and rp1 tags 0-2; in the destination their
 * next reads take tags 1 and 3.
 */
static void test_real_tags_migrate_two_ports(void)
{
    RealRecord rec[4];
    Ptt src, dst;

    ptt_init_real_two_ports(&src, false);
    ptt_two_port_vendor_reads(&src, RP_PORT_BIT | RP1_PORT_BIT, 1, 3, rec);
    ptt_assert_vendor_read(&rec[0], HISI_RP_DEVFN, EDU_BDF, 0);
    for (int i = 1; i < 4; i++) {
        ptt_assert_vendor_read(&rec[i], RP1_DEVFN, RP1_EDU_BDF, i - 1);
    }

    ptt_init_real_two_ports(&dst, true);
    hisi_migrate_into(src.qts, dst.qts);
    hisi_fini(&src);
    ptt_two_port_vendor_reads(&dst, RP_PORT_BIT | RP1_PORT_BIT, 1, 1, rec);
    ptt_assert_vendor_read(&rec[0], HISI_RP_DEVFN, EDU_BDF, 1);
    ptt_assert_vendor_read(&rec[1], RP1_DEVFN, RP1_EDU_BDF, 3);
    hisi_fini(&dst);
}

/*
 * Every function's tags go on across a migration, not the first one's
 * alone: in the source the edu behind 00:10.0 reads by DMA once (tags 0
 * and 1) and the one behind rp1 twice (tags 0 to 3); in the destination
 * their next reads take tags 2, 3 and 4, 5.
 */
static void test_real_tags_migrate_two_functions(void)
{
    static const PttTrace ports_np = {
        .dir = DIR_INBOUND_B, .type = TYPE_NON_POSTED, .fmt_8dw = true,
        .target = RP_PORT_BIT | RP1_PORT_BIT,
    };
    static const uint16_t bdf[] = { EDU_BDF, RP1_EDU_BDF };
    static const int rp_devfn[] = { HISI_RP_DEVFN, RP1_DEVFN };
    static const uint8_t next_tag[] = { 2, 4 };
    HisiEndpoint edu[ARRAY_SIZE(bdf)];
    Ptt src, dst;

    ptt_init_real_two_ports(&src, false);
    for (int i = 0; i < ARRAY_SIZE(bdf); i++) {
        hisi_endpoint_init(&src, &edu[i], rp_devfn[i], bdf[i]);
        for (uint8_t tag = 0; tag < next_tag[i]; tag += 2) {
            ptt_dma_read_tags(&src, ports_np, &edu[i], bdf[i], tag);
        }
        g_free(edu[i].dev);
    }

    ptt_init_real_two_ports(&dst, true);
    hisi_migrate_into(src.qts, dst.qts);
    hisi_fini(&src);
    for (int i = 0; i < ARRAY_SIZE(bdf); i++) {
        hisi_endpoint_init(&dst, &edu[i], rp_devfn[i], bdf[i]);
        ptt_dma_read_tags(&dst, ports_np, &edu[i], bdf[i], next_tag[i]);
        g_free(edu[i].dev);
    }
    hisi_fini(&dst);
}

/*
 * The CPU's accesses through every root port's window are traced, not
 * through the first port's alone: a write of the liveness register of the
 * edu behind rp1 is one MWr through rp1.
 */
static void test_real_cpu_write_second_port(void)
{
    static const PttTrace rp1_posted = {
        .dir = DIR_OUTBOUND, .type = TYPE_POSTED, .fmt_8dw = true,
        .target = RP1_PORT_BIT,
    };
    HisiEndpoint edu;
    RealRecord rec[1];
    Ptt p;

    ptt_init_real_two_ports(&p, false);
    hisi_endpoint_init(&p, &edu, RP1_DEVFN, RP1_EDU_BDF);
    ptt_start(&p, rp1_posted);
    qpci_io_writel(edu.dev, edu.bar, HISI_EDU_LIVENESS, 0x5a5a5a5a);
    ptt_real_records(&p, rec, ARRAY_SIZE(rec));
    ptt_stop(&p);
    g_assert_cmphex(rec[0].dw[0], ==, 0x40000001);
    g_assert_cmphex(rec[0].addr, ==, edu.bar.addr + HISI_EDU_LIVENESS);
    g_free(edu.dev);
    hisi_fini(&p);
}

/*
 * The root-port filter selects real TLPs by the port they go through:
 * with rp1's bit alone, of two configuration reads of the edu behind
 * 00:10.0 and one of the edu behind rp1, the last alone is traced.
 */
static void test_real_port_filter(void)
{
    RealRecord rec[1];
    Ptt p;

    ptt_init_real_two_ports(&p, false);
    ptt_two_port_vendor_reads(&p, RP1_PORT_BIT, 2, 1, rec);
    ptt_assert_vendor_read(&rec[0], RP1_DEVFN, RP1_EDU_BDF, 0);
    hisi_fini(&p);
}

/* An edu's DMA write of 128 bytes: who writes, and where */
typedef struct EduWrite {
    uint16_t requester;
    uint64_t addr;
} EduWrite;

/* @rec are the one MWr (32 DW) each of the @n writes @want, in order */
static void ptt_assert_edu_writes(const RealRecord *rec, const EduWrite *want,
                                  int n)
{
    for (int i = 0; i < n; i++) {
        g_test_message("record %d: %08x %08x %08x %08x", i, rec[i].dw[0],
                       rec[i].dw[1], rec[i].dw[2], rec[i].dw[3]);
        g_assert_cmphex(rec[i].fmt_type, ==, 0x40);
        g_assert_cmpuint(rec[i].len_dw, ==, 32);
        g_assert_cmphex(rec[i].requester, ==, want[i].requester);
        g_assert_cmphex(rec[i].addr, ==, want[i].addr);
    }
}

/*
 * Each function's DMA carries its own Requester ID and goes through its
 * own root port, also when functions below two root ports have the same
 * device and function numbers: the edus at 01:00.0 (below 00:10.0) and
 * 02:00.0 (below rp1) each write 128 bytes to RAM, one MWr each, traced
 * inbound on both ports.
 */
static void test_real_two_ports_requesters(void)
{
    static const PttTrace ports_dma_writes = {
        .dir = DIR_INBOUND_B, .type = TYPE_POSTED, .fmt_8dw = true,
        .target = RP_PORT_BIT | RP1_PORT_BIT,
    };
    static const EduWrite want[] = {
        { EDU_BDF, DMA_RAM },
        { RP1_EDU_BDF, DMA_RAM + 0x1000 },
    };
    HisiEndpoint edu[G_N_ELEMENTS(want)];
    RealRecord rec[G_N_ELEMENTS(want)];
    Ptt p;

    ptt_init_real_two_ports(&p, false);
    hisi_edu_init(&p, &edu[0], EDU_BDF);
    hisi_endpoint_init(&p, &edu[1], RP1_DEVFN, RP1_EDU_BDF);
    ptt_start(&p, ports_dma_writes);
    for (int i = 0; i < G_N_ELEMENTS(want); i++) {
        hisi_edu_dma(&p, &edu[i], true, want[i].addr, 128);
    }
    ptt_real_records(&p, rec, G_N_ELEMENTS(want));
    ptt_stop(&p);
    ptt_assert_edu_writes(rec, want, G_N_ELEMENTS(want));
    for (int i = 0; i < G_N_ELEMENTS(want); i++) {
        g_free(edu[i].dev);
    }
    hisi_fini(&p);
}

/*
 * Each function on a bus has its own Requester ID, also when two of one
 * device do DMA: the edus at 02:00.0 and 02:00.1 (below rp1) each write
 * 128 bytes to RAM, one MWr each, traced inbound on rp1's port.
 */
static void test_real_two_functions_requesters(void)
{
    static const EduWrite want[] = {
        { RP1_EDU_BDF, DMA_RAM },
        { RP1_EDU_BDF + 1, DMA_RAM + 0x1000 },
    };
    HisiEndpoint edu[G_N_ELEMENTS(want)];
    RealRecord rec[G_N_ELEMENTS(want)];
    Ptt p;

    ptt_init(&p, ",traffic=t0,id=ptt", "-object",
             "hisi-traffic,id=t0,source=real", HISI_EDU_DMA_ANY, "-device",
             RP1_ARGS, "-device", "edu,bus=rp1,addr=0.0,multifunction=on",
             "-device", "edu,bus=rp1,addr=0.1", NULL);
    ptt_number_rp1(&p);
    ptt_start(&p, rp1_dma_writes);
    for (int i = 0; i < G_N_ELEMENTS(want); i++) {
        /* each in its turn: the root port's window holds one BAR */
        hisi_endpoint_init(&p, &edu[i], RP1_DEVFN, want[i].requester);
        hisi_edu_dma(&p, &edu[i], true, want[i].addr, 128);
    }
    ptt_real_records(&p, rec, G_N_ELEMENTS(want));
    ptt_stop(&p);
    ptt_assert_edu_writes(rec, want, G_N_ELEMENTS(want));
    for (int i = 0; i < G_N_ELEMENTS(want); i++) {
        g_free(edu[i].dev);
    }
    hisi_fini(&p);
}

/* The 8DW records in buffer 0 so far, the trace stopped and in buffer 0 */
static uint32_t ptt_rec8_in_buf0(Ptt *p)
{
    uint32_t sts = hisi_rd(p, A_TRACE_WR_STS);

    g_assert_cmpuint(FIELD_EX32(sts, TRACE_WR_STS, BUFFER), ==, 0);
    return FIELD_EX32(sts, TRACE_WR_STS, WRITE) / REC8_SIZE;
}

/*
 * An endpoint hot-plugged during a trace: its TLPs start at the plug, so
 * no record of it is time-stamped before the plug time (the first, TLP 0,
 * at exactly that time), and those after it are all traced.
 */
static void test_hotplug_traced_from_plug(void)
{
    int64_t base, plug;
    uint32_t n;
    Ptt p;

    ptt_init_rp1(&p, NULL);
    base = qtest_clock_step(p.qts, 1000);
    ptt_start(&p, rp1_dma_writes);
    plug = qtest_clock_step(p.qts, 300 * 1000);
    hisi_hotplug(&p, "rp1", RP1_DEVFN, "edu", "hp0");
    qtest_clock_step(p.qts, 200 * 1000);
    ptt_stop(&p);
    n = ptt_rec8_in_buf0(&p);
    g_assert_cmpuint(n, ==, 200 * 1000 / HP_DMA_WRITE_NS);
    g_assert_cmpuint(ptt_rec8_time(&p, 0, 0), ==, plug - base);
    for (uint32_t i = 0; i < n; i++) {
        g_assert_cmpuint(ptt_rec8_time(&p, 0, i), ==,
                         plug - base + i * HP_DMA_WRITE_NS);
    }
    hisi_fini(&p);
}

/*
 * An endpoint hot-unplugged during a trace: its TLPs up to the removal are
 * traced (also those since the trace was last brought up to date), none
 * after. It was there from the start: TLP k at 5000 k ns.
 */
static void test_hot_unplug_traced_to_removal(void)
{
    int64_t base, gone;
    uint32_t n;
    Ptt p;

    ptt_init_rp1(&p, "edu,bus=rp1,id=hp0");
    base = qtest_clock_step(p.qts, 1234);
    ptt_start(&p, rp1_dma_writes);
    gone = qtest_clock_step(p.qts, 300 * 1000 + 777);
    hisi_hot_unplug(&p, RP1_DEVFN, "hp0");
    qtest_clock_step(p.qts, 200 * 1000);
    ptt_stop(&p);
    n = ptt_rec8_in_buf0(&p);
    g_assert_cmpuint(n, ==, DIV_ROUND_UP(gone, HP_DMA_WRITE_NS) -
                            DIV_ROUND_UP(base, HP_DMA_WRITE_NS));
    g_assert_cmpuint(n, >, 0);
    g_assert_cmpuint(ptt_rec8_time(&p, 0, n - 1), <, gone - base);
    hisi_fini(&p);
}

/*
 * An unplugged endpoint's streams go with it. Below rp1, edu hp0 is
 * plugged at 02:00.0 2.5 us off the 5 us grid of time 0 and removed; the
 * guest then numbers rp1's bus 3, plugs edu hp1 (03:00.0) on the grid and
 * numbers the bus 2 again, which puts hp1 at hp0's old BDF. That BDF is
 * new to the traffic: hp1's DMA writes come on the grid, one every 5 us,
 * none 2.5 us off it where hp0's would have gone on.
 */
static void test_unplugged_streams_not_inherited(void)
{
    int64_t base;
    uint32_t n;
    Ptt p;

    ptt_init_rp1(&p, NULL);
    qtest_clock_step(p.qts, 20 * HP_DMA_WRITE_NS + HP_DMA_WRITE_NS / 2);
    hisi_hotplug(&p, "rp1", RP1_DEVFN, "edu", "hp0");
    qtest_clock_step(p.qts, 100 * 1000);
    hisi_hot_unplug(&p, RP1_DEVFN, "hp0");
    hisi_number_bus(&p, RP1_DEVFN, 3);
    g_assert_cmpint(qtest_clock_step(p.qts, 20 * HP_DMA_WRITE_NS -
                                            HP_DMA_WRITE_NS / 2), ==,
                    60 * HP_DMA_WRITE_NS);
    hisi_hotplug(&p, "rp1", RP1_DEVFN, "edu", "hp1");
    qtest_clock_step(p.qts, 100 * 1000);
    hisi_number_bus(&p, RP1_DEVFN, 2);
    base = qtest_clock_step(p.qts, 1000);
    ptt_start(&p, rp1_dma_writes);
    qtest_clock_step(p.qts, 100 * 1000);
    ptt_stop(&p);
    n = ptt_rec8_in_buf0(&p);
    g_assert_cmpuint(n, ==, 100 * 1000 / HP_DMA_WRITE_NS);
    for (uint32_t i = 0; i < n; i++) {
        g_assert_cmpuint((base + ptt_rec8_time(&p, 0, i)) % HP_DMA_WRITE_NS,
                         ==, 0);
    }
    hisi_fini(&p);
}

/*
 * DMA from behind a PCIe-to-PCI bridge: QEMU gives the functions below a
 * pcie-pci-bridge the Requester ID the bridge takes on a real link, its
 * secondary bus and devfn 0 (the PCIe-to-PCI/PCI-X Bridge specification,
 * 2.3), where no function is: slot 0 of a bridge with a hot-plug
 * controller is no slot, so the edu is at 03:01.0. The PTT traces its 1000
 * bytes written as eight MWr from 03:00.0, cut at the 128-byte
 * Max_Payload_Size of a requester the tap cannot look at, and the data
 * gets through.
 */
#define PCI_BRIDGE_BDF      0x0200
#define BRIDGED_EDU_BDF     0x0308
#define BRIDGE_ALIAS_BDF    0x0300

static void test_real_dma_behind_pci_bridge(void)
{
    static const PttTrace alias_writes = {
        .dir = DIR_INBOUND_B, .type = TYPE_POSTED, .fmt_8dw = true,
        .requester = true, .target = BRIDGE_ALIAS_BDF,
    };
    uint8_t data[1000], copy[sizeof(data)];
    QPCIDevice *bridge, *rp1;
    HisiEndpoint edu;
    RealRecord rec[8];
    Ptt p;

    for (int i = 0; i < sizeof(data); i++) {
        data[i] = i * 5 + 3;
    }
    ptt_init(&p, ",id=ptt,traffic=t0", "-object",
             "hisi-traffic,id=t0,source=real", HISI_EDU_DMA_ANY,
             "-device", RP1_ARGS, "-device", "pcie-pci-bridge,id=pb,bus=rp1",
             "-device", "edu,bus=pb,addr=1", NULL);
    hisi_number_buses(&p, RP1_DEVFN, 2, 3);
    hisi_number_buses(&p, PCI_BRIDGE_BDF, 3, 3);
    hisi_endpoint_init(&p, &edu, PCI_BRIDGE_BDF, BRIDGED_EDU_BDF);
    /* rp1 forwards the bridge's memory window */
    bridge = qpci_device_find(&p.bus.bus, PCI_BRIDGE_BDF);
    rp1 = qpci_device_find(&p.bus.bus, RP1_DEVFN);
    qpci_config_writel(rp1, PCI_MEMORY_BASE,
                       qpci_config_readl(bridge, PCI_MEMORY_BASE));
    qpci_device_enable(rp1);
    qtest_memwrite(p.qts, DMA_RAM, data, sizeof(data));
    hisi_edu_dma(&p, &edu, false, DMA_RAM, sizeof(data));
    ptt_start(&p, alias_writes);
    hisi_edu_dma(&p, &edu, true, DMA_RAM + 0x1000, sizeof(data));
    ptt_real_records(&p, rec, ARRAY_SIZE(rec));
    for (int i = 0; i < ARRAY_SIZE(rec); i++) {
        g_assert_cmphex(rec[i].fmt_type, ==, 0x40);
        g_assert_cmphex(rec[i].requester, ==, BRIDGE_ALIAS_BDF);
        g_assert_cmphex(rec[i].addr, ==, DMA_RAM + 0x1000 + 128 * i);
        g_assert_cmpuint(rec[i].len_dw, ==, i < 7 ? 32 : 26);
    }
    qtest_memread(p.qts, DMA_RAM + 0x1000, copy, sizeof(copy));
    g_assert_cmpmem(copy, sizeof(copy), data, sizeof(data));
    ptt_stop(&p);
    g_free(edu.dev);
    g_free(rp1);
    g_free(bridge);
    hisi_fini(&p);
}

/*
 * A switch below root port 00:11.0 (its upstream port, a downstream port
 * and an edu below that) taken away whole: its buses go with it, and a
 * migration afterwards still carries the tags of the functions left (the
 * edu at 01:00.0 goes on with tags 2 and 3 in the destination).
 */
static void test_real_switch_unplug_migrates(void)
{
    RealPtt src, dst;

    ptt_init(&src.p, ",traffic=t0,id=ptt", "-object",
             "hisi-traffic,id=t0,source=real", HISI_EDU_DMA_ANY,
             "-device", RP1_ARGS,
             "-device", "x3130-upstream,id=up,bus=rp1",
             "-device", "xio3130-downstream,id=dn,bus=up,chassis=3,slot=0",
             "-device", "edu,id=swedu,bus=dn", NULL);
    hisi_edu_init(&src.p, &src.edu, EDU_BDF);
    ptt_edu_read_tags(&src, 0);
    hisi_hot_unplug(&src.p, RP1_DEVFN, "up");

    ptt_init(&dst.p, ",traffic=t0,id=ptt", "-object",
             "hisi-traffic,id=t0,source=real", HISI_EDU_DMA_ANY,
             "-device", RP1_ARGS, "-incoming", "defer", NULL);
    hisi_migrate_into(src.p.qts, dst.p.qts);
    ptt_fini_real(&src);
    hisi_edu_init(&dst.p, &dst.edu, EDU_BDF);
    ptt_edu_read_tags(&dst, 2);
    ptt_fini_real(&dst);
}

/* The DMA reads of the edu plugged below rp1 (02:00.0) */
static const PttTrace rp1_edu_np = {
    .dir = DIR_INBOUND_B, .type = TYPE_NON_POSTED, .fmt_8dw = true,
    .requester = true, .target = RP1_EDU_BDF,
};

/* A PTT on the real traffic, with an empty root port rp1, its bus numbered */
static void ptt_init_real_rp1(Ptt *p)
{
    ptt_init(p, ",id=ptt,traffic=t0", "-object",
             "hisi-traffic,id=t0,source=real", HISI_EDU_DMA_ANY,
             "-device", RP1_ARGS, NULL);
    ptt_number_rp1(p);
}

/* How many DMA spaces the tap has made for the function at @place */
static unsigned ptt_tap_spaces(Ptt *p, const char *place)
{
    g_autofree char *mtree = qtest_hmp(p->qts, "info mtree");
    g_autofree char *name = g_strdup_printf("address-space: hisi-tap[%s]",
                                            place);
    g_auto(GStrv) around = g_strsplit(mtree, name, -1);

    return g_strv_length(around) - 1;
}

/*
 * A function plugged where another was removed is a new requester: an edu
 * hot-plugged below rp1 (02:00.0) reads 1000 bytes by DMA with tags 0 and
 * 1, and so does the one plugged there after it is removed. The second
 * takes the first one's DMA space: QEMU never takes a space back, so one
 * made for each plug would pile up.
 */
static void test_real_replug_tags_from_0(void)
{
    Ptt p;

    ptt_init_real_rp1(&p);
    for (int plug = 0; plug < 2; plug++) {
        HisiEndpoint edu;

        hisi_hotplug(&p, "rp1", RP1_DEVFN, "edu", "hp0");
        hisi_endpoint_init(&p, &edu, RP1_DEVFN, RP1_EDU_BDF);
        ptt_dma_read_tags(&p, rp1_edu_np, &edu, RP1_EDU_BDF, 0);
        g_free(edu.dev);
        hisi_hot_unplug(&p, RP1_DEVFN, "hp0");
    }
    g_assert_cmpuint(ptt_tap_spaces(&p, "rp1:00.0"), ==, 1);
    hisi_fini(&p);
}

/*
 * The same for the edu below rp0 from the start, the first function the
 * tap saw: it reads by DMA with tags 0 and 1, is removed, and an edu
 * plugged in its place reads with tags 0 and 1 again, not 2 and 3, in the
 * space the first one had.
 */
static void test_real_replug_first_function(void)
{
    HisiEndpoint edu;
    RealPtt r;

    ptt_init_real(&r, "real");
    ptt_edu_read_tags(&r, 0);
    g_free(r.edu.dev);
    hisi_hot_unplug(&r.p, HISI_RP_DEVFN, "edu0");
    hisi_hotplug(&r.p, "rp0", HISI_RP_DEVFN, "edu", "hp0");
    hisi_endpoint_init(&r.p, &edu, HISI_RP_DEVFN, EDU_BDF);
    ptt_dma_read_tags(&r.p, edu_np, &edu, EDU_BDF, 0);
    g_assert_cmpuint(ptt_tap_spaces(&r.p, "rp0:00.0"), ==, 1);
    g_free(edu.dev);
    hisi_fini(&r.p);
}

/*
 * A function that leaves from below a bridge on the root bus was never
 * observed (no root port is above it), and the observation goes on: an
 * edu hot-plugged below a pci-bridge at 00:1e.0 is removed at once (its
 * SHPC slot was never powered on), and the edu below rp0 then reads by
 * DMA as before, tags 0 and 1.
 */
static void test_real_unplug_beside_ports(void)
{
    HisiEndpoint edu;
    Ptt p;

    ptt_init(&p, ",id=ptt,traffic=t0", "-object",
             "hisi-traffic,id=t0,source=real", HISI_EDU_DMA_ANY, "-device",
             "pci-bridge,id=br,bus=pcie.0,addr=0x1e,chassis_nr=3", NULL);
    qtest_qmp_device_add(p.qts, "edu", "hp0", "{'bus': 'br', 'addr': '1'}");
    qtest_qmp_device_del_send(p.qts, "hp0");
    qtest_qmp_eventwait(p.qts, "DEVICE_DELETED");
    hisi_edu_init(&p, &edu, EDU_BDF);
    ptt_dma_read_tags(&p, edu_np, &edu, EDU_BDF, 0);
    g_free(edu.dev);
    hisi_fini(&p);
}

/* How many of the tap's "observed" regions `info mtree` shows enabled */
static unsigned ptt_observed_regions(Ptt *p)
{
    g_autofree char *mtree = qtest_hmp(p->qts, "info mtree");
    g_auto(GStrv) lines = g_strsplit(mtree, "\n", -1);
    unsigned n = 0;

    for (int i = 0; lines[i]; i++) {
        n += strstr(lines[i], ": observed") &&
             !strstr(lines[i], "[disabled]");
    }
    return n;
}

/*
 * The tap observes only while a device wants the real TLPs, as an idle
 * tap costs nothing (bench/real-traffic-cost): its regions over the root
 * ports' windows are enabled while the PTT traces, disabled before and
 * again after.
 */
static void test_real_observes_while_tracing(void)
{
    RealPtt r;

    ptt_init_real(&r, "real");
    g_assert_cmpuint(ptt_observed_regions(&r.p), ==, 0);
    ptt_start(&r.p, edu_np);
    g_assert_cmpuint(ptt_observed_regions(&r.p), >, 0);
    ptt_stop(&r.p);
    g_assert_cmpuint(ptt_observed_regions(&r.p), ==, 0);
    ptt_fini_real(&r);
}

/*
 * A function plugged while the trace runs is observed from the start: the
 * tap observes its bus master address space once it is realized (a bottom
 * half after the plug). Its DMA read of 1000 bytes is two MRd, tags 0
 * and 1, traced at once.
 */
static void test_real_plugged_while_tracing(void)
{
    RealRecord rec[2];
    HisiEndpoint edu;
    Ptt p;

    ptt_init_real_rp1(&p);
    ptt_start(&p, rp1_edu_np);
    hisi_hotplug(&p, "rp1", RP1_DEVFN, "edu", "hp0");
    hisi_endpoint_init(&p, &edu, RP1_DEVFN, RP1_EDU_BDF);
    hisi_edu_dma(&p, &edu, false, DMA_RAM, 1000);
    ptt_stop(&p);
    ptt_real_records(&p, rec, ARRAY_SIZE(rec));
    for (int i = 0; i < ARRAY_SIZE(rec); i++) {
        g_assert_cmphex(rec[i].requester, ==, RP1_EDU_BDF);
        g_assert_cmphex(rec[i].addr, ==, DMA_RAM + i * 512);
        g_assert_cmphex(rec[i].tag, ==, i);
    }
    g_free(edu.dev);
    hisi_fini(&p);
}

/*
 * A function plugged takes a space left at its own place only: a slot
 * below rp1 with two functions, function 1 plugged before function 0 (its
 * space comes first), is removed; an edu then plugged at 02:00.0 reads by
 * DMA as 02:00.0, not as the 02:00.1 whose space was freed first.
 */
static void test_real_replug_takes_own_space(void)
{
    RealRecord rec[2];
    HisiEndpoint edu;
    Ptt p;

    ptt_init_real_rp1(&p);
    qtest_qmp_device_add(p.qts, "edu", "fn1", "{'bus': 'rp1', 'addr': '0.1'}");
    qtest_qmp_device_add(p.qts, "edu", "fn0", "{'bus': 'rp1', 'addr': '0.0', "
                         "'multifunction': true}");
    hisi_slot_power(&p, RP1_DEVFN, true);
    hisi_hot_unplug(&p, RP1_DEVFN, "fn0");
    hisi_hotplug(&p, "rp1", RP1_DEVFN, "edu", "hp0");
    hisi_endpoint_init(&p, &edu, RP1_DEVFN, RP1_EDU_BDF);
    ptt_start(&p, rp1_edu_np);
    hisi_edu_dma(&p, &edu, false, DMA_RAM, 1000);
    ptt_stop(&p);
    ptt_real_records(&p, rec, ARRAY_SIZE(rec));
    g_assert_cmphex(rec[0].requester, ==, RP1_EDU_BDF);
    g_assert_cmphex(rec[1].requester, ==, RP1_EDU_BDF);
    g_free(edu.dev);
    hisi_fini(&p);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/hisi-ptt/reset-values", test_reset_values);
    qtest_add_func("/hisi-ptt/tune-levels", test_tune_levels);
    qtest_add_func("/hisi-ptt/tune-events-independent",
                   test_tune_events_independent);
    qtest_add_func("/hisi-ptt/tune-ctrl-upper-bits",
                   test_tune_ctrl_upper_bits);
    qtest_add_func("/hisi-ptt/tune-unknown-event", test_tune_unknown_event);
    qtest_add_func("/hisi-ptt/idle-follows-trace", test_idle_follows_trace);
    qtest_add_func("/hisi-ptt/wr-sts-counts-records",
                   test_wr_sts_counts_records);
    qtest_add_func("/hisi-ptt/wr-sts-kept-after-stop",
                   test_wr_sts_kept_after_stop);
    qtest_add_func("/hisi-ptt/rst-clears-wr-sts", test_rst_clears_wr_sts);
    qtest_add_func("/hisi-ptt/ring-order", test_ring_order);
    qtest_add_func("/hisi-ptt/records-in-time-order",
                   test_records_in_time_order);
    qtest_add_func("/hisi-ptt/msi-per-full-buffer", test_msi_per_full_buffer);
    qtest_add_func("/hisi-ptt/stall-until-released",
                   test_stall_until_released);
    qtest_add_func("/hisi-ptt/stalled-buffer-filled-by-clock",
                   test_stalled_buffer_filled_by_clock);
    qtest_add_func("/hisi-ptt/stalled-lost-every-stream",
                   test_stalled_lost_every_stream);
    qtest_add_func("/hisi-ptt/fast-buffer-msi-after-1us",
                   test_fast_buffer_msi_after_1us);
    qtest_add_func("/hisi-ptt/masked-buffer-msi-on-unmask",
                   test_masked_buffer_msi_on_unmask);
    qtest_add_func("/hisi-ptt/filter-root-port", test_filter_root_port);
    qtest_add_func("/hisi-ptt/filter-requester", test_filter_requester);
    qtest_add_func("/hisi-ptt/filter-requester-id", test_filter_requester_id);
    qtest_add_func("/hisi-ptt/eight-endpoints", test_eight_endpoints);
    qtest_add_func("/hisi-ptt/outbound-one-type", test_outbound_one_type);
    qtest_add_func("/hisi-ptt/no-type-traces-nothing",
                   test_no_type_traces_nothing);
    qtest_add_func("/hisi-ptt/8dw-direction-0-traces-nothing",
                   test_8dw_direction_0_traces_nothing);
    qtest_add_func("/hisi-ptt/no-dma-without-bus-master",
                   test_no_dma_without_bus_master);
    qtest_add_data_func("/hisi-ptt/bad-dma-address/nowhere",
                        GUINT_TO_POINTER(BAD_BUFFER_NOWHERE),
                        test_bad_dma_address);
    qtest_add_data_func("/hisi-ptt/bad-dma-address/flash",
                        GUINT_TO_POINTER(BAD_BUFFER_FLASH),
                        test_bad_dma_address);
    qtest_add_data_func("/hisi-ptt/bad-dma-address/own-registers",
                        GUINT_TO_POINTER(BAD_BUFFER_OWN_REGISTERS),
                        test_bad_dma_address);
    qtest_add_data_func("/hisi-ptt/bad-dma-address/ram-end",
                        GUINT_TO_POINTER(BAD_BUFFER_RAM_END),
                        test_bad_dma_address);
    qtest_add_func("/hisi-ptt/ctrl-change-while-tracing",
                   test_ctrl_change_while_tracing);
    qtest_add_func("/hisi-ptt/8dw-small-buffers-not-started",
                   test_8dw_small_buffers_not_started);
    qtest_add_func("/hisi-ptt/restart-without-rst-from-offset-0",
                   test_restart_without_rst_from_offset_0);
    qtest_add_func("/hisi-ptt/restart-without-rst-last-record",
                   test_restart_without_rst_last_record);
    qtest_add_func("/hisi-ptt/restart-without-rst-goes-on",
                   test_restart_without_rst_goes_on);
    qtest_add_func("/hisi-ptt/no-buffers", test_no_buffers);
    qtest_add_func("/hisi-ptt/buffer-without-address",
                   test_buffer_without_address);
    qtest_add_func("/hisi-ptt/rciep", test_rciep);
    qtest_add_func("/hisi-ptt/bad-accesses", test_bad_accesses);
    hisi_add_refusals("/hisi-ptt/bad-properties", bad_properties,
                      ARRAY_SIZE(bad_properties));
    qtest_add_func("/hisi-ptt/migration", test_migration);
    qtest_add_func("/hisi-ptt/stream-old-version-refused",
                   test_stream_old_version_refused);
    for (int i = 0; i < ARRAY_SIZE(ptt_mig_cases); i++) {
        g_autofree char *path = g_strdup_printf("/hisi-ptt/%s",
                                                ptt_mig_cases[i].name);

        qtest_add_data_func(path, &ptt_mig_cases[i], test_migration_twin);
    }
    qtest_add_data_func("/hisi-ptt/pause-at-buffer-end/default",
                        "hisi-traffic,id=t0", test_pause_at_buffer_end);
    qtest_add_data_func("/hisi-ptt/pause-at-buffer-end/streams-in-step",
                        PTT_IN_STEP, test_pause_at_buffer_end);
    qtest_add_func("/hisi-ptt/pause-at-buffer-end/twice",
                   test_pause_at_buffer_end_twice);
    qtest_add_func("/hisi-ptt/real-traffic/dma-requests",
                   test_real_dma_requests);
    qtest_add_func("/hisi-ptt/real-traffic/dma-requests-4dw",
                   test_real_dma_requests_4dw);
    qtest_add_func("/hisi-ptt/real-traffic/dma-completions",
                   test_real_dma_completions);
    qtest_add_func("/hisi-ptt/real-traffic/idle-and-source",
                   test_real_idle_and_source);
    qtest_add_func("/hisi-ptt/real-traffic/cpu-accesses",
                   test_real_cpu_accesses);
    qtest_add_func("/hisi-ptt/real-traffic/cpu-qword-read",
                   test_real_cpu_qword_read);
    qtest_add_func("/hisi-ptt/real-traffic/cpu-byte-accesses",
                   test_real_cpu_byte_accesses);
    qtest_add_func("/hisi-ptt/real-traffic/cpu-write-second-port",
                   test_real_cpu_write_second_port);
    qtest_add_func("/hisi-ptt/real-traffic/port-filter",
                   test_real_port_filter);
    qtest_add_func("/hisi-ptt/real-traffic/port-at-rp-bdf-max",
                   test_real_port_at_rp_bdf_max);
    qtest_add_func("/hisi-ptt/real-traffic/port-outside-range",
                   test_real_port_outside_range);
    qtest_add_func("/hisi-ptt/real-traffic/tags-migrate",
                   test_real_tags_migrate);
    qtest_add_func("/hisi-ptt/real-traffic/tap-stream-refused",
                   test_real_tap_stream_refused);
    qtest_add_func("/hisi-ptt/real-traffic/tags-migrate-two-ports",
                   test_real_tags_migrate_two_ports);
    qtest_add_func("/hisi-ptt/real-traffic/tags-migrate-two-functions",
                   test_real_tags_migrate_two_functions);
    qtest_add_func("/hisi-ptt/real-traffic/two-functions-requesters",
                   test_real_two_functions_requesters);
    qtest_add_func("/hisi-ptt/real-traffic/two-ports-requesters",
                   test_real_two_ports_requesters);
    qtest_add_func("/hisi-ptt/real-traffic/mixed", test_real_mixed);
    qtest_add_func("/hisi-ptt/real-traffic/hotplug", test_real_hotplug);
    qtest_add_func("/hisi-ptt/real-traffic/window-without-bar",
                   test_real_window_without_bar);
    qtest_add_func("/hisi-ptt/real-traffic/link-sizes",
                   test_real_link_sizes);
    qtest_add_func("/hisi-ptt/real-traffic/lost-while-paused",
                   test_real_lost_while_paused);
    qtest_add_func("/hisi-ptt/real-traffic/stall-one-short",
                   test_real_stall_one_short);
    qtest_add_func("/hisi-ptt/traffic-default-rate",
                   test_traffic_default_rate);
    qtest_add_func("/hisi-ptt/traffic-rule-change", test_traffic_rule_change);
    qtest_add_func("/hisi-ptt/traffic-rule-other-endpoint",
                   test_traffic_rule_other_endpoint);
    qtest_add_func("/hisi-ptt/traffic-bad-rule-refused",
                   test_traffic_bad_rule_refused);
    qtest_add_func("/hisi-ptt/traffic-pause-resume",
                   test_traffic_pause_resume);
    qtest_add_func("/hisi-ptt/traffic-burst", test_traffic_burst);
    qtest_add_func("/hisi-ptt/traffic-burst-migrates",
                   test_traffic_burst_migrates);
    qtest_add_func("/hisi-ptt/traffic-burst-stream-version",
                   test_traffic_burst_stream_version);
    qtest_add_func("/hisi-ptt/traffic-rules-migrate",
                   test_traffic_rules_migrate);
    qtest_add_func("/hisi-ptt/traffic-bad-burst-refused",
                   test_traffic_bad_burst_refused);
    qtest_add_func("/hisi-ptt/traffic-deterministic",
                   test_traffic_deterministic);
    qtest_add_func("/hisi-ptt/tune-scope-own-core", test_tune_scope_own_core);
    qtest_add_func("/hisi-ptt/tune-scope-pmu-counts",
                   test_tune_scope_pmu_counts);
    qtest_add_func("/hisi-ptt/traffic-changes-keep-phase",
                   test_traffic_changes_keep_phase);
    qtest_add_func("/hisi-ptt/mmio-window-in-bar", test_mmio_window_in_bar);
    qtest_add_func("/hisi-ptt/mmio-window-not-rom", test_mmio_window_not_rom);
    qtest_add_func("/hisi-ptt/mmio-window-standin-wraps",
                   test_mmio_window_standin_wraps);
    qtest_add_func("/hisi-ptt/mmio-window-without-bar",
                   test_mmio_window_without_bar);
    qtest_add_func("/hisi-ptt/hotplug-traced-from-plug",
                   test_hotplug_traced_from_plug);
    qtest_add_func("/hisi-ptt/hot-unplug-traced-to-removal",
                   test_hot_unplug_traced_to_removal);
    qtest_add_func("/hisi-ptt/unplugged-streams-not-inherited",
                   test_unplugged_streams_not_inherited);
    qtest_add_func("/hisi-ptt/real-traffic/dma-behind-pci-bridge",
                   test_real_dma_behind_pci_bridge);
    qtest_add_func("/hisi-ptt/real-traffic/switch-unplug-migrates",
                   test_real_switch_unplug_migrates);
    qtest_add_func("/hisi-ptt/real-traffic/replug-tags-from-0",
                   test_real_replug_tags_from_0);
    qtest_add_func("/hisi-ptt/real-traffic/plugged-while-tracing",
                   test_real_plugged_while_tracing);
    qtest_add_func("/hisi-ptt/real-traffic/observes-while-tracing",
                   test_real_observes_while_tracing);
    qtest_add_func("/hisi-ptt/real-traffic/unplug-beside-ports",
                   test_real_unplug_beside_ports);
    qtest_add_func("/hisi-ptt/real-traffic/replug-first-function",
                   test_real_replug_first_function);
    qtest_add_func("/hisi-ptt/real-traffic/replug-takes-own-space",
                   test_real_replug_takes_own_space);
    qtest_add_func("/hisi-ptt/fault-tuning-busy", test_fault_tuning_busy);
    qtest_add_func("/hisi-ptt/fault-dma-fails", test_fault_dma_fails);
    qtest_add_func("/hisi-ptt/fault-trace-busy", test_fault_trace_busy);
    qtest_add_func("/hisi-ptt/fault-dma-reset", test_fault_dma_reset);
    return g_test_run();
}
