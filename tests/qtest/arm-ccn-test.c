/*
 * QTest: ARM CCN-504 PMU (arm-ccn) registers and counts
 *
 * The model sits on the virt machine's platform bus, the first device
 * there, at its base. Node 2 is an HN-F on XP 1, port 0; its requests
 * arrive at 2000000 flits/s by default, so exact counts can be asserted
 * after virtual clock steps (cycles at 1 GHz are nanoseconds). Nodes 14-17
 * are RN-Fs (XPs 7, 8), 20 and 21 SN-Fs (XP 10), with no region; XP 9 has
 * no device.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bitops.h"
#include "hisi-qtest.h"
#include "hw/hisilicon/arm-ccn-regs.h"

/* Where the virt machine's platform bus puts its first device */
#define CCN_BASE            0x0c000000ull

#define HNF2_REGION         CCN_NODE_REGION(2)  /* node 2: XP 1, port 0 */
#define HNF2_XP             1
#define MN_XP               6                   /* node 12: XP 6, port 0 */
#define HNF10_REGION        CCN_NODE_REGION(10) /* node 10: XP 5, port 0 */
#define HNF10_XP            5
#define RNF14_XP            7                   /* node 14: XP 7, port 0 */
#define SNF20_XP            10                  /* node 20: XP 10, port 0 */
#define EMPTY_XP            9                   /* no device */
#define LAST_XP             10
#define ABSENT_REGION       0x50
#define MISSING_XP          0x3f

/*
 * What the driver's ABI defines, not the register map: region types
 * (ALL_OLY_ID.TYPE, the driver's CCN_TYPE_*) and event codes.
 */
#define TYPE_MN             0x01
#define TYPE_DT             0x02
#define TYPE_HNF            0x04
#define TYPE_HNI            0x05
#define TYPE_XP             0x08
#define TYPE_SBSX           0x0c
#define TYPE_SBAS           0x10
#define TYPE_RNI_3P         0x16

#define HNF_POCQ_REQS_RECVD 0x5     /* node event */
#define HNF_MC_REQS         0xd
#define XP_VALID_FLIT       0x4     /* XP event */
#define VC_REQ              0
#define VC_RSP              1
#define VC_DAT              3
#define DIR_RX              0       /* the node receives */
#define DIR_TX              1       /* the node sends */
#define DVM_OPCODE          0x14    /* the REQ flit opcode of DVMOp */

#define HNF_RATE            2000000         /* requests per second */
#define RNF_REQ_RATE        3375000         /* an RN-F's requests */
#define SNF_REQ_RATE        2400000         /* an SN-F's memory requests */

static uint32_t ccn_rd(QTestState *qts, unsigned region, uint32_t off)
{
    return qtest_readl(qts, CCN_BASE + CCN_REGION(region) + off);
}

static void ccn_wr(QTestState *qts, unsigned region, uint32_t off,
                   uint32_t val)
{
    qtest_writel(qts, CCN_BASE + CCN_REGION(region) + off, val);
}

/* A 64-bit register, written as the driver does: by words, low first */
static void ccn_wr64(QTestState *qts, unsigned region, uint32_t off,
                     uint64_t val)
{
    ccn_wr(qts, region, off, (uint32_t)val);
    ccn_wr(qts, region, off + 4, val >> 32);
}

static uint32_t ccn_counter(QTestState *qts, unsigned idx)
{
    return ccn_rd(qts, CCN_DT_REGION, DT_PMEVCNT_AT(idx));
}

static uint64_t ccn_cycles(QTestState *qts)
{
    return qtest_readq(qts, CCN_BASE + CCN_REGION(CCN_DT_REGION) +
                       A_DT_PMCCNTR);
}

/*
 * The arguments of QEMU with the CCN, id "ccn": @props go on its -device
 * option, then the QEMU arguments of @ap up to a NULL
 */
static GPtrArray *ccn_args(const char *props, va_list ap)
{
    GPtrArray *args = hisi_args_new();

    hisi_args_add(args, "-device", NULL);
    hisi_args_addf(args, "arm-ccn,id=ccn%s", props);
    hisi_args_add_valist(args, ap);
    return args;
}

/* QEMU with the CCN, as ccn_args() has it */
static QTestState *G_GNUC_NULL_TERMINATED ccn_start(const char *props, ...)
{
    g_autoptr(GPtrArray) args = NULL;
    QTestState *qts;
    va_list ap;

    va_start(ap, props);
    args = ccn_args(props, ap);
    va_end(ap);
    qts = hisi_qtest_start("", args);
    qtest_irq_intercept_out_named(qts, "/machine/peripheral/ccn",
                                  "sysbus-irq");
    return qts;
}

/* QEMU with the CCN on traffic object t0, whose rules are @rules */
static QTestState *ccn_start_rules(const char *rules)
{
    g_autofree char *escaped = hisi_opt_escape(rules);
    g_autofree char *traffic = g_strdup_printf("hisi-traffic,id=t0,rules=%s",
                                               escaped);

    return ccn_start(",traffic=t0", "-object", traffic, NULL);
}

/* XP @xp's debug and trace on, its watchpoints always armed */
static void ccn_xp_dt_enable(QTestState *qts, unsigned xp)
{
    ccn_wr(qts, CCN_XP_REGION(xp), A_XP_DT_CONTROL,
           R_XP_DT_CONTROL_DT_ENABLE_MASK | XP_DT_CONTROL_WP_ARM_ALWAYS(0) |
           XP_DT_CONTROL_WP_ARM_ALWAYS(1));
}

static void ccn_pmu_enable(QTestState *qts)
{
    ccn_wr(qts, CCN_DT_REGION, A_DT_CTL, R_DT_CTL_DT_EN_MASK);
    ccn_wr(qts, CCN_DT_REGION, A_DT_PMCR,
           R_DT_PMCR_OVFL_INTR_EN_MASK | R_DT_PMCR_PMU_EN_MASK);
}

/* As the driver's probe leaves it */
static QTestState *ccn_init(void)
{
    QTestState *qts = ccn_start("", NULL);

    ccn_pmu_enable(qts);
    for (int x = 0; x <= LAST_XP; x++) {
        ccn_wr(qts, CCN_XP_REGION(x), A_XP_DT_CONFIG, 0);
        ccn_xp_dt_enable(qts, x);
    }
    return qts;
}

/* Counter @idx takes its events from XP @xp */
static void ccn_counter_xp(QTestState *qts, unsigned idx, unsigned xp)
{
    uint32_t dsm = ccn_rd(qts, CCN_DT_REGION, DT_ACTIVE_DSM_AT(idx));

    dsm = deposit32(dsm, DT_ACTIVE_DSM_SHIFT(idx), DT_ACTIVE_DSM_BITS, xp);
    ccn_wr(qts, CCN_DT_REGION, DT_ACTIVE_DSM_AT(idx), dsm);
}

/* Counter @idx counts what XP @xp's DT_CONFIG nibble @source selects */
static void ccn_counter_select(QTestState *qts, unsigned idx, unsigned xp,
                               unsigned source)
{
    uint32_t config = ccn_rd(qts, CCN_XP_REGION(xp), A_XP_DT_CONFIG);

    ccn_counter_xp(qts, idx, xp);
    ccn_wr(qts, CCN_XP_REGION(xp), A_XP_DT_CONFIG,
           deposit32(config, idx * XP_DT_CONFIG_BITS, XP_DT_CONFIG_BITS,
                     source));
}

/* Counter @idx: HN-F node 2's event source 0 = pocq_reqs_recvd */
static void ccn_count_hnf2_reqs(QTestState *qts, unsigned idx)
{
    ccn_wr(qts, HNF2_REGION, A_NODE_PMU_EVENT_SEL, HNF_POCQ_REQS_RECVD);
    ccn_counter_select(qts, idx, HNF2_XP, DT_CONFIG_NODE);
}

/* Counter @idx: XP @xp's source @src = valid_flit on @vc and ring @bus */
static void ccn_count_xp_flits(QTestState *qts, unsigned idx, unsigned xp,
                               unsigned src, unsigned vc, unsigned bus)
{
    uint32_t sel = ccn_rd(qts, CCN_XP_REGION(xp), A_XP_PMU_EVENT_SEL);
    uint32_t id = FIELD_DP32(0, XP_EVENT_ID, EVENT, XP_VALID_FLIT);

    id = FIELD_DP32(id, XP_EVENT_ID, VC, vc);
    id = FIELD_DP32(id, XP_EVENT_ID, BUS, bus);
    ccn_wr(qts, CCN_XP_REGION(xp), A_XP_PMU_EVENT_SEL,
           deposit32(sel, src * XP_PMU_EVENT_SEL_BITS, XP_PMU_EVENT_SEL_BITS,
                     id));
    ccn_counter_select(qts, idx, xp, DT_CONFIG_XP_EVENT + src);
}

/*
 * Watchpoint @wp of XP @xp on port @port, @dir, @vc: a mask matching any
 * flit, but @val_h's bits outside @mask_h
 */
static void ccn_watch_port(QTestState *qts, unsigned xp, unsigned wp,
                           unsigned port, unsigned dir, unsigned vc,
                           uint64_t val_h, uint64_t mask_h)
{
    uint32_t if_sel = ccn_rd(qts, CCN_XP_REGION(xp), A_XP_DT_INTERFACE_SEL);
    uint32_t lane = FIELD_DP32(0, XP_DT_INTERFACE_SEL, IO_SEL, dir);

    lane = FIELD_DP32(lane, XP_DT_INTERFACE_SEL, DEV_SEL, port);
    lane = FIELD_DP32(lane, XP_DT_INTERFACE_SEL, VC_SEL, vc);
    ccn_wr(qts, CCN_XP_REGION(xp), A_XP_DT_INTERFACE_SEL,
           deposit32(if_sel, wp * XP_DT_INTERFACE_SEL_BITS,
                     XP_DT_INTERFACE_SEL_BITS, lane));
    ccn_wr64(qts, CCN_XP_REGION(xp), XP_DT_WP_AT(XP_DT_CMP_VAL_H, wp), val_h);
    ccn_wr64(qts, CCN_XP_REGION(xp), XP_DT_WP_AT(XP_DT_CMP_MASK_L, wp),
             MAKE_64BIT_MASK(0, XP_DT_CMP_L_BITS));
    ccn_wr64(qts, CCN_XP_REGION(xp), XP_DT_WP_AT(XP_DT_CMP_MASK_H, wp),
             mask_h);
}

/* Watchpoint 0 of XP @xp: a mask matching any flit, but @val_h's opcode */
static void ccn_watch(QTestState *qts, unsigned xp, uint32_t if_sel,
                      uint64_t val_h, uint64_t mask_h)
{
    ccn_watch_port(qts, xp, 0,
                   FIELD_EX32(if_sel, XP_DT_INTERFACE_SEL, DEV_SEL),
                   FIELD_EX32(if_sel, XP_DT_INTERFACE_SEL, IO_SEL),
                   FIELD_EX32(if_sel, XP_DT_INTERFACE_SEL, VC_SEL), val_h,
                   mask_h);
}

/* A watchpoint on port @port of XP @xp matching any flit of @dir, @vc */
static void ccn_watch_any(QTestState *qts, unsigned xp, unsigned wp,
                          unsigned port, unsigned dir, unsigned vc)
{
    ccn_watch_port(qts, xp, wp, port, dir, vc, 0,
                   MAKE_64BIT_MASK(0, XP_DT_CMP_H_BITS));
}

/* MN and DT; nodes 0-11 and 13 at regions 0x20..; XPs at 0x80..0x8a */
static void test_present_regions(void)
{
    QTestState *qts = ccn_start("", NULL);
    uint32_t expect[MN_OLY_COMP_LIST_WORDS] = { 0 };
    unsigned present[] = {
        CCN_MN_REGION, CCN_DT_REGION, CCN_NODE_REGION(13),
    };

    for (int i = 0; i < ARRAY_SIZE(present); i++) {
        expect[present[i] / 32] |= BIT(present[i] % 32);
    }
    for (int n = 0; n <= 11; n++) {
        expect[CCN_NODE_REGION(n) / 32] |= BIT(CCN_NODE_REGION(n) % 32);
    }
    for (int x = 0; x <= LAST_XP; x++) {
        expect[CCN_XP_REGION(x) / 32] |= BIT(CCN_XP_REGION(x) % 32);
    }
    /* the bitmaps the driver reads */
    g_assert_cmphex(expect[0], ==, 0x3);
    g_assert_cmphex(expect[1], ==, 0x2fff);
    g_assert_cmphex(expect[4], ==, 0x7ff);
    for (int w = 0; w < MN_OLY_COMP_LIST_WORDS; w++) {
        g_test_message("MN_OLY_COMP_LIST word %d", w);
        g_assert_cmphex(ccn_rd(qts, CCN_MN_REGION, MN_OLY_COMP_LIST_AT(w)), ==,
                        expect[w]);
    }
    qtest_quit(qts);
}

/* Each region's ID register: its type and node id */
static uint32_t ccn_oly_id(unsigned type, unsigned id)
{
    return FIELD_DP32(type, ALL_OLY_ID, ID, id);
}

/* Every region of docs/devices/arm-ccn.md's table, with its type and node id */
static void test_region_ids(void)
{
    static const struct {
        unsigned region, type, id;
    } regions[] = {
        { CCN_MN_REGION, TYPE_MN, 12 }, { CCN_DT_REGION, TYPE_DT, 0 },
        { 0x20, TYPE_RNI_3P, 0 }, { 0x21, TYPE_RNI_3P, 1 },
        { 0x22, TYPE_HNF, 2 }, { 0x23, TYPE_HNF, 3 },
        { 0x24, TYPE_HNF, 4 }, { 0x25, TYPE_HNF, 5 },
        { 0x26, TYPE_HNI, 6 }, { 0x27, TYPE_SBAS, 7 },
        { 0x28, TYPE_HNF, 8 }, { 0x29, TYPE_HNF, 9 },
        { 0x2a, TYPE_HNF, 10 }, { 0x2b, TYPE_HNF, 11 },
        { 0x2d, TYPE_SBSX, 13 },
    };
    QTestState *qts = ccn_start("", NULL);

    for (int i = 0; i < ARRAY_SIZE(regions); i++) {
        g_test_message("region 0x%02x", regions[i].region);
        g_assert_cmphex(ccn_rd(qts, regions[i].region, A_ALL_OLY_ID), ==,
                        ccn_oly_id(regions[i].type, regions[i].id));
    }
    for (int x = 0; x <= LAST_XP; x++) {
        g_assert_cmphex(ccn_rd(qts, CCN_XP_REGION(x), A_ALL_OLY_ID), ==,
                        ccn_oly_id(TYPE_XP, x));
    }
    qtest_quit(qts);
}

/*
 * PMSR_REQ takes a snapshot and sets PMSR to 1, which the driver polls
 * for before it reads the snapshot; PMSR_CLR sets it back to 0
 */
/* PMCCNTRSR, the cycle counter's snapshot: its low word, then its high */
static uint64_t ccn_cycles_snapshot(QTestState *qts)
{
    return ccn_rd(qts, CCN_DT_REGION, A_DT_PMCCNTRSR) |
           (uint64_t)ccn_rd(qts, CCN_DT_REGION, A_DT_PMCCNTRSR + 4) << 32;
}

/*
 * PMSR_REQ copies the cycle counter, then 1000 (1 us at 1 GHz since
 * ccn_init() enabled the PMU), into PMCCNTRSR, which keeps it while the
 * counter goes on; before any request it reads 0, as the DT resets it. A
 * write with bit 0 clear requests nothing, and clears nothing either.
 */
static void test_snapshot_status(void)
{
    QTestState *qts = ccn_init();

    g_assert_cmphex(ccn_rd(qts, CCN_DT_REGION, A_DT_PMSR), ==, 0);
    g_assert_cmphex(ccn_cycles_snapshot(qts), ==, 0);
    qtest_clock_step(qts, 1000);
    ccn_wr(qts, CCN_DT_REGION, A_DT_PMSR_REQ, 0);
    g_assert_cmphex(ccn_rd(qts, CCN_DT_REGION, A_DT_PMSR), ==, 0);
    g_assert_cmphex(ccn_cycles_snapshot(qts), ==, 0);
    ccn_wr(qts, CCN_DT_REGION, A_DT_PMSR_REQ, 1);
    g_assert_cmphex(ccn_rd(qts, CCN_DT_REGION, A_DT_PMSR), ==, 1);
    g_assert_cmpuint(ccn_cycles_snapshot(qts), ==, 1000);
    qtest_clock_step(qts, 500);
    g_assert_cmpuint(ccn_cycles(qts), ==, 1500);
    g_assert_cmpuint(ccn_cycles_snapshot(qts), ==, 1000);
    ccn_wr(qts, CCN_DT_REGION, A_DT_PMSR_CLR, 0);
    g_assert_cmphex(ccn_rd(qts, CCN_DT_REGION, A_DT_PMSR), ==, 1);
    ccn_wr(qts, CCN_DT_REGION, A_DT_PMSR_CLR, 1);
    g_assert_cmphex(ccn_rd(qts, CCN_DT_REGION, A_DT_PMSR), ==, 0);
    qtest_quit(qts);
}

/* Registers read before accesses that must change nothing */
#define CCN_SNAPSHOT_MAX    32

typedef struct CcnSnapshot {
    size_t n;
    unsigned region[CCN_SNAPSHOT_MAX];
    uint32_t off[CCN_SNAPSHOT_MAX];
    uint32_t val[CCN_SNAPSHOT_MAX];
} CcnSnapshot;

static void ccn_snapshot_add(CcnSnapshot *s, unsigned region, uint32_t off)
{
    g_assert_cmpuint(s->n, <, CCN_SNAPSHOT_MAX);
    s->region[s->n] = region;
    s->off[s->n++] = off;
}

/*
 * The DT's registers, XP 1's and its watchpoint 0's, the MN's status and
 * HN-F 2's event select
 */
static void ccn_snapshot_take(QTestState *qts, CcnSnapshot *s)
{
    static const uint32_t dt_regs[] = {
        A_DT_CTL, A_DT_PMCR, A_DT_PMOVSR, A_DT_PMSR, A_DT_PMCCNTR,
        A_DT_PMCCNTR + 4,
    };
    static const uint32_t xp_regs[] = {
        A_XP_DT_CONFIG, A_XP_DT_INTERFACE_SEL, A_XP_DT_CONTROL,
        A_XP_PMU_EVENT_SEL,
    };

    for (int c = 0; c < CCN_COUNTERS; c += DT_ACTIVE_DSM_PER_WORD) {
        ccn_snapshot_add(s, CCN_DT_REGION, DT_ACTIVE_DSM_AT(c));
    }
    for (int c = 0; c < CCN_COUNTERS; c++) {
        ccn_snapshot_add(s, CCN_DT_REGION, DT_PMEVCNT_AT(c));
    }
    for (int r = 0; r < ARRAY_SIZE(dt_regs); r++) {
        ccn_snapshot_add(s, CCN_DT_REGION, dt_regs[r]);
    }
    for (int r = 0; r < ARRAY_SIZE(xp_regs); r++) {
        ccn_snapshot_add(s, CCN_XP_REGION(HNF2_XP), xp_regs[r]);
    }
    for (int off = 0; off < XP_DT_CMP_REGS * 8; off += 4) {
        ccn_snapshot_add(s, CCN_XP_REGION(HNF2_XP),
                         XP_DT_WP_AT(XP_DT_CMP_VAL_L, 0) + off);
    }
    ccn_snapshot_add(s, CCN_MN_REGION, A_MN_ERRINT_STATUS);
    ccn_snapshot_add(s, HNF2_REGION, A_NODE_PMU_EVENT_SEL);
    for (size_t i = 0; i < s->n; i++) {
        s->val[i] = ccn_rd(qts, s->region[i], s->off[i]);
    }
}

static void ccn_snapshot_assert_same(QTestState *qts, const CcnSnapshot *s)
{
    for (size_t i = 0; i < s->n; i++) {
        uint32_t now = ccn_rd(qts, s->region[i], s->off[i]);

        if (now != s->val[i]) {
            g_test_message("region 0x%02x register 0x%04x changed",
                           s->region[i], s->off[i]);
        }
        g_assert_cmphex(now, ==, s->val[i]);
    }
}

/* The probe's set-up, one counter counting HN-F 2's requests, loaded */
static QTestState *ccn_init_counting(CcnSnapshot *snapshot)
{
    QTestState *qts = ccn_init();

    ccn_count_hnf2_reqs(qts, 0);
    ccn_watch(qts, HNF2_XP, 0, 0, MAKE_64BIT_MASK(0, XP_DT_CMP_H_BITS));
    ccn_wr(qts, CCN_DT_REGION, DT_PMEVCNT_AT(0), 0x12345678);
    ccn_snapshot_take(qts, snapshot);
    return qts;
}

/* Counter 0 counts on exactly: 1 ms of HN-F 2's requests */
static void ccn_assert_still_counts(QTestState *qts)
{
    uint32_t before = ccn_counter(qts, 0);

    qtest_clock_step(qts, 1000000);
    g_assert_cmpuint(ccn_counter(qts, 0) - before, ==, HNF_RATE / 1000);
}

/*
 * While the traffic is paused the ring is still: HN-F 2's requests, and
 * the watchpoint on them, stop counting while the cycle counter runs on;
 * resumed, they count on at their rate.
 */
static void test_paused_stops_ring(void)
{
    CcnSnapshot counting = { 0 };
    QTestState *qts = ccn_init_counting(&counting);
    uint32_t reqs;
    uint64_t cycles;

    ccn_counter_select(qts, 1, HNF2_XP, DT_CONFIG_WP0);
    ccn_assert_still_counts(qts);
    qtest_qom_set_bool(qts, "/machine/hisi-traffic-default", "paused", true);
    reqs = ccn_counter(qts, 0);
    g_assert_cmpuint(ccn_counter(qts, 1), >, 0);
    ccn_wr(qts, CCN_DT_REGION, DT_PMEVCNT_AT(1), 0);
    cycles = ccn_cycles(qts);
    qtest_clock_step(qts, 1000000);
    g_assert_cmpuint(ccn_counter(qts, 0), ==, reqs);
    g_assert_cmpuint(ccn_counter(qts, 1), ==, 0);
    g_assert_cmpuint(ccn_cycles(qts) - cycles, ==, 1000000);
    qtest_qom_set_bool(qts, "/machine/hisi-traffic-default", "paused", false);
    ccn_assert_still_counts(qts);
    qtest_quit(qts);
}

/* An absent region reads 0, and writing it harms nothing. */
static void test_absent_region(void)
{
    CcnSnapshot before = { 0 };
    QTestState *qts = ccn_init_counting(&before);

    g_assert_cmphex(ccn_rd(qts, ABSENT_REGION, A_ALL_OLY_ID), ==, 0);
    ccn_wr(qts, ABSENT_REGION, 0, 1);
    ccn_wr(qts, ABSENT_REGION, A_ALL_OLY_ID, 0xffffffff);
    g_assert_cmphex(ccn_rd(qts, ABSENT_REGION, 0), ==, 0);
    ccn_snapshot_assert_same(qts, &before);
    g_assert_cmphex(ccn_rd(qts, HNF2_REGION, A_ALL_OLY_ID), ==,
                    ccn_oly_id(TYPE_HNF, 2));
    ccn_assert_still_counts(qts);
    qtest_quit(qts);
}

/*
 * The probe's handshake: the MN's status reads 0 out of reset, PMU
 * events disable reads back, enable clears it again; so do the two error
 * fields (the driver's ALL_ERRORS and CORRECTED_ERRORS commands), each on
 * its own, leaving the others, or all at once; the handler's deassert
 * command is an action, which reads back nothing
 */
static void test_errint_handshake(void)
{
    /* field n's disable command: update bit n, disabled bit n + 4 */
    static const uint32_t disable[] = { 0x22, 0x44 };
    QTestState *qts = ccn_start("", NULL);

    g_assert_cmphex(ccn_rd(qts, CCN_MN_REGION, A_MN_ERRINT_STATUS), ==, 0);
    ccn_wr(qts, CCN_MN_REGION, A_MN_ERRINT_STATUS,
           MN_ERRINT_CMD_PMU_EVENTS_DISABLE);
    g_assert_true(FIELD_EX32(ccn_rd(qts, CCN_MN_REGION, A_MN_ERRINT_STATUS),
                             MN_ERRINT_STATUS, PMU_EVENTS_DISABLED));
    ccn_wr(qts, CCN_MN_REGION, A_MN_ERRINT_STATUS,
           MN_ERRINT_CMD_PMU_EVENTS_ENABLE);
    g_assert_cmphex(ccn_rd(qts, CCN_MN_REGION, A_MN_ERRINT_STATUS), ==, 0);
    for (int i = 0; i < ARRAY_SIZE(disable); i++) {
        ccn_wr(qts, CCN_MN_REGION, A_MN_ERRINT_STATUS, disable[i]);
        g_assert_cmphex(ccn_rd(qts, CCN_MN_REGION, A_MN_ERRINT_STATUS), ==,
                        disable[i] & 0xf0);
        ccn_wr(qts, CCN_MN_REGION, A_MN_ERRINT_STATUS, disable[i] & 0x0f);
        g_assert_cmphex(ccn_rd(qts, CCN_MN_REGION, A_MN_ERRINT_STATUS), ==, 0);
    }
    /* one field's command leaves the others */
    ccn_wr(qts, CCN_MN_REGION, A_MN_ERRINT_STATUS, disable[1]);
    ccn_wr(qts, CCN_MN_REGION, A_MN_ERRINT_STATUS, disable[0]);
    g_assert_cmphex(ccn_rd(qts, CCN_MN_REGION, A_MN_ERRINT_STATUS), ==,
                    (disable[0] | disable[1]) & 0xf0);
    /* every bit: the three fields set, and nothing above them */
    ccn_wr(qts, CCN_MN_REGION, A_MN_ERRINT_STATUS, 0xffffffff);
    g_assert_cmphex(ccn_rd(qts, CCN_MN_REGION, A_MN_ERRINT_STATUS), ==, 0xe0);
    ccn_wr(qts, CCN_MN_REGION, A_MN_ERRINT_STATUS, 0x0e);
    g_assert_cmphex(ccn_rd(qts, CCN_MN_REGION, A_MN_ERRINT_STATUS), ==, 0);
    ccn_wr(qts, CCN_MN_REGION, A_MN_ERRINT_STATUS,
           MN_ERRINT_CMD_INTREQ_DEASSERT);
    g_assert_cmphex(ccn_rd(qts, CCN_MN_REGION, A_MN_ERRINT_STATUS), ==, 0);
    qtest_quit(qts);
}

/*
 * The four comparator registers of each watchpoint keep all 64 bits a
 * driver writes, word by word, and read them back. The words that follow
 * them within each watchpoint's 0x40 bytes are none of them: the first
 * watchpoint's gap reads 0 and a write there changes nothing; the
 * second's starts with XP_DT_CONTROL.
 */
static void test_watchpoint_registers(void)
{
    static const uint32_t regs[XP_DT_CMP_REGS] = {
        A_XP_DT_CMP_VAL_L, A_XP_DT_CMP_VAL_H, A_XP_DT_CMP_MASK_L,
        A_XP_DT_CMP_MASK_H,
    };
    QTestState *qts = ccn_start("", NULL);

    for (int wp = 0; wp < CCN_WPS; wp++) {
        for (int r = 0; r < XP_DT_CMP_REGS; r++) {
            ccn_wr64(qts, CCN_XP_REGION(HNF2_XP),
                     HISI_REG_AT(regs[r], XP_DT_WP_STRIDE, wp),
                     0xf0e1d2c3b4a59687ull + wp * 0x10 + r);
        }
    }
    for (int off = XP_DT_WP_AT(XP_DT_CMP_VAL_L, 0) + XP_DT_CMP_REGS * 8;
         off < XP_DT_WP_AT(XP_DT_CMP_VAL_L, 1); off += 4) {
        ccn_wr(qts, CCN_XP_REGION(HNF2_XP), off, 0xffffffff);
        g_assert_cmphex(ccn_rd(qts, CCN_XP_REGION(HNF2_XP), off), ==, 0);
    }
    for (int wp = 0; wp < CCN_WPS; wp++) {
        for (int r = 0; r < XP_DT_CMP_REGS; r++) {
            uint32_t off = HISI_REG_AT(regs[r], XP_DT_WP_STRIDE, wp);
            uint64_t val = ccn_rd(qts, CCN_XP_REGION(HNF2_XP), off) |
                (uint64_t)ccn_rd(qts, CCN_XP_REGION(HNF2_XP), off + 4) << 32;

            g_assert_cmphex(val, ==, 0xf0e1d2c3b4a59687ull + wp * 0x10 + r);
        }
    }
    qtest_quit(qts);
}

/*
 * A system reset takes the CCN back to where it starts: counting, with
 * every counter and the cycles written, it then reads as a fresh CCN
 * (the registers of the snapshot, which all reset to 0), and stays so, as
 * nothing counts.
 */
static void test_system_reset(void)
{
    CcnSnapshot fresh = { 0 };
    CcnSnapshot counting = { 0 };
    QTestState *qts = ccn_start("", NULL);

    ccn_snapshot_take(qts, &fresh);
    for (size_t i = 0; i < fresh.n; i++) {
        g_test_message("region 0x%x offset 0x%x", fresh.region[i],
                       fresh.off[i]);
        g_assert_cmphex(fresh.val[i], ==, 0);
    }
    qtest_quit(qts);

    qts = ccn_init_counting(&counting);
    for (int c = 1; c < CCN_COUNTERS; c++) {
        ccn_wr(qts, CCN_DT_REGION, DT_PMEVCNT_AT(c), 0x1000 * c);
    }
    qtest_clock_step(qts, 1000000);
    g_assert_cmpuint(ccn_cycles(qts), ==, 1000000);
    qtest_system_reset(qts);
    ccn_snapshot_assert_same(qts, &fresh);
    qtest_clock_step(qts, 1000000);
    ccn_snapshot_assert_same(qts, &fresh);
    qtest_quit(qts);
}

static void test_count_node_event(void)
{
    QTestState *qts = ccn_init();

    ccn_count_hnf2_reqs(qts, 0);
    qtest_clock_step(qts, 1000000);     /* 1 ms */
    g_assert_cmpuint(ccn_counter(qts, 0), ==, HNF_RATE / 1000);
    qtest_quit(qts);
}

/*
 * The event in the last of the four fields of a node's PMU_EVENT_SEL,
 * the first holding none: counter 1 on the DT config's node source 3. The
 * register reads back what was written, as the driver's read-modify-write
 * of one field needs.
 */
static void test_count_node_event_last_field(void)
{
    QTestState *qts = ccn_init();

    ccn_wr(qts, HNF2_REGION, A_NODE_PMU_EVENT_SEL,
           HNF_POCQ_REQS_RECVD << (3 * NODE_PMU_EVENT_SEL_BITS));
    g_assert_cmphex(ccn_rd(qts, HNF2_REGION, A_NODE_PMU_EVENT_SEL), ==,
                    HNF_POCQ_REQS_RECVD << (3 * NODE_PMU_EVENT_SEL_BITS));
    ccn_counter_select(qts, 1, HNF2_XP, DT_CONFIG_NODE + 3);
    qtest_clock_step(qts, 1000000);     /* 1 ms */
    g_assert_cmpuint(ccn_counter(qts, 1), ==, HNF_RATE / 1000);
    qtest_quit(qts);
}

/*
 * A node event of the device on an XP's port 1, in the first of the
 * node's four fields: HN-F 3 (XP 1, port 1) is the DT config's node source
 * 4 (port 1's first); HN-F 2 beside it, source 0, selects nothing.
 */
static void test_count_node_event_port_1(void)
{
    QTestState *qts = ccn_init();

    ccn_wr(qts, CCN_NODE_REGION(3), A_NODE_PMU_EVENT_SEL,
           HNF_POCQ_REQS_RECVD);
    ccn_counter_select(qts, 0, HNF2_XP, DT_CONFIG_NODE + 4);
    qtest_clock_step(qts, 1000000);     /* 1 ms */
    g_assert_cmpuint(ccn_counter(qts, 0), ==, HNF_RATE / 1000);
    qtest_quit(qts);
}

/*
 * XP events count the ring's flits (its "bus": one each way), not a device
 * port's. With only HN-F 10 (XP 5) receiving requests, the ring's only
 * REQ flits are its requests to memory: each one goes from XP 5 up to the
 * SN-Fs' XP 10, seen by XPs 5 to 10 on bus 0 (XP 9 with no device too),
 * by no XP on bus 1 nor below; hnf_mc_reqs and a watchpoint on the HN-F's
 * sent requests count them too.
 */
static void test_count_xp_event(void)
{
    QTestState *qts = ccn_start_rules("stream=ring-all,rate=0;"
                                      "node=10,stream=ring-req-rx,"
                                      "rate=2000000");
    static const unsigned on_way[] = { HNF10_XP, EMPTY_XP, SNF20_XP };
    uint32_t mc_reqs;

    ccn_pmu_enable(qts);
    for (int x = 0; x <= LAST_XP; x++) {
        ccn_xp_dt_enable(qts, x);
    }
    ccn_wr(qts, HNF10_REGION, A_NODE_PMU_EVENT_SEL, HNF_MC_REQS);
    ccn_counter_select(qts, 0, HNF10_XP, DT_CONFIG_NODE);
    ccn_watch_any(qts, HNF10_XP, 0, 0, DIR_TX, VC_REQ);
    ccn_counter_select(qts, 1, HNF10_XP, DT_CONFIG_WP0);
    for (int i = 0; i < ARRAY_SIZE(on_way); i++) {
        ccn_count_xp_flits(qts, 2 + i, on_way[i], 0, VC_REQ, 0);
    }
    ccn_count_xp_flits(qts, 5, EMPTY_XP, 1, VC_REQ, 1);
    ccn_count_xp_flits(qts, 6, HNF10_XP - 1, 0, VC_REQ, 0);
    qtest_clock_step(qts, 1000000);
    mc_reqs = ccn_counter(qts, 0);
    /* some of the 2000 requests miss */
    g_assert_cmpuint(mc_reqs, >, 0);
    g_assert_cmpuint(mc_reqs, <, HNF_RATE / 1000);
    g_assert_cmpuint(ccn_counter(qts, 1), ==, mc_reqs);
    for (int i = 0; i < ARRAY_SIZE(on_way); i++) {
        g_test_message("XP %u", on_way[i]);
        g_assert_cmpuint(ccn_counter(qts, 2 + i), ==, mc_reqs);
    }
    g_assert_cmpuint(ccn_counter(qts, 5), ==, 0);
    g_assert_cmpuint(ccn_counter(qts, 6), ==, 0);
    qtest_quit(qts);
}

/*
 * The two RN-Is of XP 0, nodes 0 (port 0) and 1 (port 1), alone sending
 * requests, 1000 and 3000 in 1 ms: a watchpoint on each port sees its
 * node's, and XP 0's REQ flits (on its two buses) are all 4000.
 */
static void test_count_xp_event_two_ports(void)
{
    QTestState *qts = ccn_start_rules("stream=ring-all,rate=0;"
                                      "node=0,stream=ring-req-tx,"
                                      "rate=1000000;"
                                      "node=1,stream=ring-req-tx,"
                                      "rate=3000000");

    ccn_pmu_enable(qts);
    ccn_xp_dt_enable(qts, 0);
    ccn_count_xp_flits(qts, 0, 0, 0, VC_REQ, 0);
    ccn_count_xp_flits(qts, 1, 0, 1, VC_REQ, 1);
    ccn_watch_any(qts, 0, 0, 0, DIR_TX, VC_REQ);
    ccn_counter_select(qts, 2, 0, DT_CONFIG_WP0);
    ccn_watch_any(qts, 0, 1, 1, DIR_TX, VC_REQ);
    ccn_counter_select(qts, 3, 0, DT_CONFIG_WP0 + 1);
    qtest_clock_step(qts, 1000000);
    g_assert_cmpuint(ccn_counter(qts, 2), ==, 1000);
    g_assert_cmpuint(ccn_counter(qts, 3), ==, 3000);
    g_assert_cmpuint(ccn_counter(qts, 0) + ccn_counter(qts, 1), ==, 4000);
    qtest_quit(qts);
}

/* XP 9 has no device; with the default traffic both its buses are busy */
static void test_xp_without_devices(void)
{
    QTestState *qts = ccn_init();

    ccn_count_xp_flits(qts, 0, EMPTY_XP, 0, VC_REQ, 0);
    ccn_count_xp_flits(qts, 1, EMPTY_XP, 1, VC_DAT, 1);
    qtest_clock_step(qts, 1000000);
    g_assert_cmpuint(ccn_counter(qts, 0), >, 1000);
    g_assert_cmpuint(ccn_counter(qts, 1), >, 1000);
    qtest_quit(qts);
}

/*
 * Nodes 18 and 19, the device ports of XP 9, have no device: a rule that
 * gives node 18 sent requests applies to no node, so with every other
 * stream at rate 0 a watchpoint on its port and XP 9's REQ flits on both
 * buses count none.
 */
static void test_rule_on_absent_node(void)
{
    QTestState *qts = ccn_start_rules("stream=ring-all,rate=0;"
                                      "node=18,stream=ring-req-tx,"
                                      "rate=1000000");

    ccn_pmu_enable(qts);
    ccn_xp_dt_enable(qts, EMPTY_XP);
    ccn_watch_any(qts, EMPTY_XP, 0, 0, DIR_TX, VC_REQ);
    ccn_counter_select(qts, 0, EMPTY_XP, DT_CONFIG_WP0);
    ccn_count_xp_flits(qts, 1, EMPTY_XP, 0, VC_REQ, 0);
    ccn_count_xp_flits(qts, 2, EMPTY_XP, 1, VC_REQ, 1);
    qtest_clock_step(qts, 1000000);
    for (int i = 0; i < 3; i++) {
        g_assert_cmpuint(ccn_counter(qts, i), ==, 0);
    }
    qtest_quit(qts);
}

/*
 * The RN-Fs and SN-Fs have no region but are on the ring: a watchpoint on
 * their ports sees their flits (CPU requests, memory requests).
 */
static void test_rnf_snf_ports(void)
{
    QTestState *qts = ccn_init();

    ccn_watch_any(qts, RNF14_XP, 0, 0, DIR_TX, VC_REQ);
    ccn_counter_select(qts, 0, RNF14_XP, DT_CONFIG_WP0);
    ccn_watch_any(qts, SNF20_XP, 0, 0, DIR_RX, VC_REQ);
    ccn_counter_select(qts, 1, SNF20_XP, DT_CONFIG_WP0);
    qtest_clock_step(qts, 1000000);
    g_assert_cmpuint(ccn_counter(qts, 0), ==, RNF_REQ_RATE / 1000);
    g_assert_cmpuint(ccn_counter(qts, 1), ==, SNF_REQ_RATE / 1000);
    qtest_quit(qts);
}

/* HN-F 2's memory requests: hnf_mc_reqs, and its sent REQ flits */
static void test_hnf_mc_reqs_sent(void)
{
    QTestState *qts = ccn_init();

    ccn_wr(qts, HNF2_REGION, A_NODE_PMU_EVENT_SEL, HNF_MC_REQS);
    ccn_counter_select(qts, 0, HNF2_XP, DT_CONFIG_NODE);
    ccn_watch_any(qts, HNF2_XP, 1, 0, DIR_TX, VC_REQ);
    ccn_counter_select(qts, 1, HNF2_XP, DT_CONFIG_WP0 + 1);
    qtest_clock_step(qts, 10000000);
    g_assert_cmpuint(ccn_counter(qts, 0), >, 0);
    g_assert_cmpuint(ccn_counter(qts, 1), ==, ccn_counter(qts, 0));
    qtest_quit(qts);
}

/* Watchpoint 0, dir 0 (received), port 0, vc 0, any flit */
static void test_count_watchpoint(void)
{
    QTestState *qts = ccn_init();

    ccn_watch(qts, HNF2_XP, 0, 0, MAKE_64BIT_MASK(0, XP_DT_CMP_H_BITS));
    ccn_counter_select(qts, 2, HNF2_XP, DT_CONFIG_WP0);
    qtest_clock_step(qts, 1000000);
    g_assert_cmpuint(ccn_counter(qts, 2), ==, HNF_RATE / 1000);
    qtest_quit(qts);
}

static void test_count_cycles(void)
{
    QTestState *qts = ccn_init();

    qtest_clock_step(qts, 1000000);
    g_assert_cmpuint(ccn_cycles(qts), ==, 1000000);
    qtest_quit(qts);
}

/*
 * PMCCNTR written by words, low first, with PMU_EN clear: the 40-bit
 * counter holds what it was given, cut to its 40 bits, and the bits
 * above them are no overflow; enabled, it counts on from there.
 */
static void test_cycles_write(void)
{
    QTestState *qts = ccn_start("", NULL);

    ccn_wr(qts, CCN_DT_REGION, A_DT_PMCCNTR, 0x12345678);
    g_assert_cmphex(ccn_cycles(qts), ==, 0x12345678);
    ccn_wr(qts, CCN_DT_REGION, A_DT_PMCCNTR + 4, 0xffffffab);
    qtest_clock_step(qts, 1000);
    g_assert_cmphex(ccn_cycles(qts), ==, 0xab12345678ull);
    g_assert_cmphex(ccn_rd(qts, CCN_DT_REGION, A_DT_PMOVSR), ==, 0);
    ccn_pmu_enable(qts);
    qtest_clock_step(qts, 1000);
    g_assert_cmphex(ccn_cycles(qts), ==, 0xab12345678ull + 1000);
    g_assert_cmphex(ccn_rd(qts, CCN_DT_REGION, A_DT_PMOVSR), ==, 0);
    qtest_quit(qts);
}

/*
 * The cycle counter carries its fraction of a cycle over a write: at 100
 * MHz (a cycle every 10 ns), 15 ns after the start half a cycle is in, so
 * PMCCNTR written one cycle short of its 40-bit wrap wraps 5 ns on, and
 * the interrupt comes then. A bound that left out the cycle a fraction can
 * bring ahead of the clock's rate would arm the timer at 10 ns.
 */
static void test_overflow_cycles_carried(void)
{
    QTestState *qts = ccn_start(",clock-freq=100000000", NULL);

    ccn_wr(qts, CCN_MN_REGION, A_MN_ERRINT_STATUS,
           MN_ERRINT_CMD_PMU_EVENTS_ENABLE);
    ccn_pmu_enable(qts);
    qtest_clock_step(qts, 15);
    ccn_wr64(qts, CCN_DT_REGION, A_DT_PMCCNTR, MAKE_64BIT_MASK(0, 40));
    qtest_clock_step(qts, 4);
    g_assert_false(qtest_get_irq(qts, 0));
    qtest_clock_step(qts, 1);
    g_assert_true(qtest_get_irq(qts, 0));
    g_assert_cmphex(ccn_cycles(qts), ==, 0);
    qtest_quit(qts);
}

/*
 * firmware-irq: the PMU events field ignores the OS's commands (a driver's
 * check that it can acknowledge reads "enabled" after a disable), and a
 * wrap sets its PMOVSR bit, for a poll to find, without ever raising the
 * interrupt.
 */
static void test_firmware_irq(void)
{
    QTestState *qts = ccn_start(",clock-freq=100000000,firmware-irq=on",
                                NULL);

    ccn_wr(qts, CCN_MN_REGION, A_MN_ERRINT_STATUS,
           MN_ERRINT_CMD_PMU_EVENTS_DISABLE);
    g_assert_cmphex(ccn_rd(qts, CCN_MN_REGION, A_MN_ERRINT_STATUS), ==, 0);
    /* the other fields still take the OS's commands */
    ccn_wr(qts, CCN_MN_REGION, A_MN_ERRINT_STATUS, 0x22);
    g_assert_cmphex(ccn_rd(qts, CCN_MN_REGION, A_MN_ERRINT_STATUS), ==, 0x20);
    ccn_wr(qts, CCN_MN_REGION, A_MN_ERRINT_STATUS, 0x02);

    ccn_pmu_enable(qts);
    ccn_wr64(qts, CCN_DT_REGION, A_DT_PMCCNTR, MAKE_64BIT_MASK(0, 40));
    qtest_clock_step(qts, 10);
    g_assert_cmphex(ccn_rd(qts, CCN_DT_REGION, A_DT_PMOVSR), ==,
                    BIT(CCN_CYCLE_IDX));
    g_assert_false(qtest_get_irq(qts, 0));
    qtest_clock_step(qts, 1000000000);
    g_assert_false(qtest_get_irq(qts, 0));
    qtest_quit(qts);
}

/* No count without PMU_EN: neither events nor cycles */
static void test_no_count_without_pmu_en(void)
{
    QTestState *qts = ccn_init();

    ccn_count_hnf2_reqs(qts, 0);
    qtest_clock_step(qts, 1000000);
    ccn_wr(qts, CCN_DT_REGION, A_DT_PMCR, R_DT_PMCR_OVFL_INTR_EN_MASK);
    qtest_clock_step(qts, 1000000);
    g_assert_cmpuint(ccn_counter(qts, 0), ==, HNF_RATE / 1000);
    g_assert_cmpuint(ccn_cycles(qts), ==, 1000000);
    qtest_quit(qts);
}

/* No count with the XP's DT_CONFIG nibble at 0 (pass-through) */
static void test_no_count_with_dt_config_0(void)
{
    QTestState *qts = ccn_init();

    ccn_count_hnf2_reqs(qts, 0);
    qtest_clock_step(qts, 1000000);
    ccn_counter_select(qts, 0, HNF2_XP, 0);
    qtest_clock_step(qts, 1000000);
    g_assert_cmpuint(ccn_counter(qts, 0), ==, HNF_RATE / 1000);
    qtest_quit(qts);
}

/*
 * DT_CTL's DT_EN gates the event counters: cleared (as the driver's remove
 * does), DT_CTL reads 0 and a counter of HN-F 2's requests stands still.
 */
static void test_dt_disabled_stops_events(void)
{
    QTestState *qts = ccn_init();
    uint32_t count;

    ccn_count_hnf2_reqs(qts, 0);
    qtest_clock_step(qts, 1000000);
    ccn_wr(qts, CCN_DT_REGION, A_DT_CTL, 0);
    g_assert_cmphex(ccn_rd(qts, CCN_DT_REGION, A_DT_CTL), ==, 0);
    count = ccn_counter(qts, 0);
    g_assert_cmpuint(count, ==, HNF_RATE / 1000);
    qtest_clock_step(qts, 1000000);
    g_assert_cmpuint(ccn_counter(qts, 0), ==, count);
    qtest_quit(qts);
}

/* Counter 3 counting HN-F 2's requests, 10 (5 us) to go to overflow */
static QTestState *ccn_init_near_overflow(void)
{
    QTestState *qts = ccn_init();

    ccn_wr(qts, CCN_MN_REGION, A_MN_ERRINT_STATUS,
           MN_ERRINT_CMD_PMU_EVENTS_ENABLE);
    ccn_count_hnf2_reqs(qts, 3);
    ccn_wr(qts, CCN_DT_REGION, DT_PMEVCNT_AT(3), (uint32_t)-10);
    return qts;
}

/*
 * Counter 3 20000 of HN-F 2's requests short of its wrap, 10 ms at
 * HNF_RATE: the overflow timer is armed when the most its source could
 * count would wrap it, ms on, not 1 ns on again and again (as a bound
 * that wrapped below zero would arm it).
 */
static void test_overflow_timer_by_rate(void)
{
    QTestState *qts = ccn_init();
    int64_t start, due;

    ccn_wr(qts, CCN_MN_REGION, A_MN_ERRINT_STATUS,
           MN_ERRINT_CMD_PMU_EVENTS_ENABLE);
    start = qtest_clock_step(qts, 1);
    ccn_count_hnf2_reqs(qts, 3);
    ccn_wr(qts, CCN_DT_REGION, DT_PMEVCNT_AT(3), (uint32_t)-20000);
    due = qtest_clock_step_next(qts) - start;
    g_assert_cmpint(due, >=, 9 * 1000 * 1000);
    g_assert_cmpint(due, <=, 10 * 1000 * 1000);
    qtest_quit(qts);
}

/*
 * The same for an XP event: counter 3 20000 of XP 0's REQ flits on bus 0
 * short of its wrap, node 0 alone sending them, a flit a us: it wraps
 * 20 ms on, and the timer is armed by the most the nodes could send (node
 * 0's rate, and a flit ahead of it from each node), within the last ms
 * before, not 1 ns on again and again.
 */
static void test_overflow_timer_xp_event(void)
{
    QTestState *qts = ccn_start_rules("stream=ring-all,rate=0;"
                                      "node=0,stream=ring-req-tx,"
                                      "rate=1000000");
    int64_t start, due;

    ccn_pmu_enable(qts);
    ccn_xp_dt_enable(qts, 0);
    ccn_wr(qts, CCN_MN_REGION, A_MN_ERRINT_STATUS,
           MN_ERRINT_CMD_PMU_EVENTS_ENABLE);
    start = qtest_clock_step(qts, 1);
    ccn_count_xp_flits(qts, 3, 0, 0, VC_REQ, 0);
    ccn_wr(qts, CCN_DT_REGION, DT_PMEVCNT_AT(3), (uint32_t)-20000);
    due = qtest_clock_step_next(qts) - start;
    g_assert_cmpint(due, >=, 19 * 1000 * 1000);
    g_assert_cmpint(due, <=, 20 * 1000 * 1000);
    qtest_quit(qts);
}

/* The timer raises the overflow when due, without a read; the handler */
static void test_overflow_irq_when_due(void)
{
    QTestState *qts = ccn_init_near_overflow();

    qtest_clock_step(qts, 2000);
    g_assert_cmphex(ccn_rd(qts, CCN_DT_REGION, A_DT_PMOVSR), ==, 0);
    g_assert_false(qtest_get_irq(qts, 0));
    qtest_clock_step(qts, 10000);
    g_assert_true(qtest_get_irq(qts, 0));
    g_assert_cmphex(ccn_rd(qts, CCN_DT_REGION, A_DT_PMOVSR), ==, BIT(3));
    g_assert_cmphex(ccn_rd(qts, CCN_MN_REGION, A_MN_ERR_SIG_VAL), ==,
                    R_MN_ERR_SIG_VAL_DT_MASK);
    g_assert_cmpuint(ccn_counter(qts, 3), <, 20);
    /* the handler: clear what it read, deassert */
    ccn_wr(qts, CCN_DT_REGION, A_DT_PMOVSR_CLR, BIT(3));
    ccn_wr(qts, CCN_MN_REGION, A_MN_ERRINT_STATUS,
           MN_ERRINT_CMD_INTREQ_DEASSERT);
    g_assert_false(qtest_get_irq(qts, 0));
    g_assert_cmphex(ccn_rd(qts, CCN_MN_REGION, A_MN_ERR_SIG_VAL), ==, 0);
    qtest_quit(qts);
}

/*
 * An overflow sets its PMOVSR bit, also one already set: counter 3 wraps,
 * is set 10 short of its wrap again with PMOVSR left as it was, and wraps
 * again; its bit stays set (it does not toggle).
 */
static void test_overflow_twice_stays_set(void)
{
    QTestState *qts = ccn_init_near_overflow();

    qtest_clock_step(qts, 10000);
    g_assert_cmphex(ccn_rd(qts, CCN_DT_REGION, A_DT_PMOVSR), ==, BIT(3));
    ccn_wr(qts, CCN_DT_REGION, DT_PMEVCNT_AT(3), (uint32_t)-10);
    qtest_clock_step(qts, 10000);
    g_assert_cmpuint(ccn_counter(qts, 3), <, 20);
    g_assert_cmphex(ccn_rd(qts, CCN_DT_REGION, A_DT_PMOVSR), ==, BIT(3));
    qtest_quit(qts);
}

/*
 * The overflow interrupt comes at the first ns by which the counter has
 * wrapped (docs/devices/arm-ccn.md), with no register read: a twin that reads
 * its counter every ns finds that ns.
 */
static void test_overflow_irq_at_wrap(void)
{
    QTestState *twin = ccn_init_near_overflow();
    QTestState *qts;
    int64_t wrap_ns = 0;

    while (ccn_counter(twin, 3) >= (uint32_t)-10) {
        g_assert_cmpint(wrap_ns, <, 20 * 1000);
        qtest_clock_step(twin, 1);
        wrap_ns++;
    }
    qtest_quit(twin);

    qts = ccn_init_near_overflow();
    qtest_clock_step(qts, wrap_ns - 1);
    g_assert_false(qtest_get_irq(qts, 0));
    qtest_clock_step(qts, 1);
    g_assert_true(qtest_get_irq(qts, 0));
    g_assert_cmphex(ccn_rd(qts, CCN_DT_REGION, A_DT_PMOVSR), ==, BIT(3));
    qtest_quit(qts);
}

/* The traffic of @rules, HN-F 2's XP's DT and the PMU on */
static QTestState *ccn_start_hnf2_rules(const char *rules)
{
    QTestState *qts = ccn_start_rules(rules);

    ccn_pmu_enable(qts);
    ccn_xp_dt_enable(qts, HNF2_XP);
    ccn_wr(qts, CCN_MN_REGION, A_MN_ERRINT_STATUS,
           MN_ERRINT_CMD_PMU_EVENTS_ENABLE);
    return qts;
}

/*
 * The timer raises the overflow when due on any channel and direction
 * (@data: DIR_RX or DIR_TX), by the rate of the flits the counter counts:
 * HN-F 2's responses that way, at 2000000 a second its only flits, on
 * watchpoint 0 of its port; counter 3, 10 responses (5 us) short of its
 * wrap, wraps with the response at 4500 ns and the interrupt comes with
 * no register access.
 */
static void test_overflow_irq_rsp(const void *data)
{
    unsigned dir = GPOINTER_TO_UINT(data);
    g_autofree char *rules = g_strdup_printf(
        "stream=ring-all,rate=0;node=2,stream=ring-rsp-%s,rate=2000000",
        dir == DIR_TX ? "tx" : "rx");
    QTestState *qts = ccn_start_hnf2_rules(rules);

    ccn_watch_any(qts, HNF2_XP, 0, 0, dir, VC_RSP);
    ccn_counter_select(qts, 3, HNF2_XP, DT_CONFIG_WP0);
    ccn_wr(qts, CCN_DT_REGION, DT_PMEVCNT_AT(3), (uint32_t)-10);
    qtest_clock_step(qts, 2000);
    g_assert_false(qtest_get_irq(qts, 0));
    qtest_clock_step(qts, 4000);
    g_assert_true(qtest_get_irq(qts, 0));
    g_assert_cmphex(ccn_rd(qts, CCN_DT_REGION, A_DT_PMOVSR), ==, BIT(3));
    /* 12 responses in 6 us */
    g_assert_cmpuint(ccn_counter(qts, 3), ==, 2);
    qtest_quit(qts);
}

/* PMU events disabled in the MN: the status, no interrupt */
static void test_overflow_pmu_events_disabled(void)
{
    QTestState *qts = ccn_init_near_overflow();

    ccn_wr(qts, CCN_MN_REGION, A_MN_ERRINT_STATUS,
           MN_ERRINT_CMD_PMU_EVENTS_DISABLE);
    ccn_wr(qts, CCN_DT_REGION, DT_PMEVCNT_AT(3), UINT32_MAX);
    qtest_clock_step(qts, 1000);
    g_assert_cmphex(ccn_rd(qts, CCN_DT_REGION, A_DT_PMOVSR), ==, BIT(3));
    g_assert_false(qtest_get_irq(qts, 0));
    ccn_wr(qts, CCN_MN_REGION, A_MN_ERRINT_STATUS,
           MN_ERRINT_CMD_PMU_EVENTS_ENABLE);
    g_assert_true(qtest_get_irq(qts, 0));
    /* the handler: every counter's and the cycle counter's bit, deassert */
    g_assert_cmphex(ccn_rd(qts, CCN_MN_REGION, A_MN_ERR_SIG_VAL), ==,
                    R_MN_ERR_SIG_VAL_DT_MASK);
    ccn_wr(qts, CCN_DT_REGION, A_DT_PMOVSR_CLR,
           MAKE_64BIT_MASK(0, CCN_COUNTERS + 1));
    ccn_wr(qts, CCN_MN_REGION, A_MN_ERRINT_STATUS,
           MN_ERRINT_CMD_INTREQ_DEASSERT);
    g_assert_false(qtest_get_irq(qts, 0));
    qtest_quit(qts);
}

/* Every ERR_SIG_VAL word, as the interrupt handler reads them */
static uint32_t ccn_err_sig_words(QTestState *qts, uint32_t *others)
{
    uint32_t w0 = ccn_rd(qts, CCN_MN_REGION, A_MN_ERR_SIG_VAL);

    *others = w0 & ~R_MN_ERR_SIG_VAL_DT_MASK;
    for (int w = 1; w < MN_ERR_SIG_WORDS; w++) {
        *others |= ccn_rd(qts, CCN_MN_REGION, A_MN_ERR_SIG_VAL + 4 * w);
    }
    return w0 & R_MN_ERR_SIG_VAL_DT_MASK;
}

/*
 * ERR_SIG_VAL as arm_ccn_irq_handler() reads it: the DT's bit once per
 * overflow signalled, cleared by the read, no other error ever; the
 * interrupt stays requested until the deassert command after that read,
 * and an overflow between the read and the command requests it again.
 */
static void test_err_sig_val_read_clears(void)
{
    QTestState *qts = ccn_init_near_overflow();
    uint32_t others;

    qtest_clock_step(qts, 12000);
    g_assert_true(qtest_get_irq(qts, 0));
    /* a word of the other errors neither shows the DT's bit nor clears it */
    g_assert_cmphex(ccn_rd(qts, CCN_MN_REGION, A_MN_ERR_SIG_VAL + 4), ==, 0);
    g_assert_cmphex(ccn_err_sig_words(qts, &others), ==,
                    R_MN_ERR_SIG_VAL_DT_MASK);
    g_assert_cmphex(others, ==, 0);
    /* read: cleared, though PMOVSR is not yet; still requested */
    g_assert_cmphex(ccn_err_sig_words(qts, &others), ==, 0);
    g_assert_cmphex(ccn_rd(qts, CCN_DT_REGION, A_DT_PMOVSR), ==, BIT(3));
    g_assert_true(qtest_get_irq(qts, 0));
    /* another counter overflows before the handler deasserts */
    ccn_wr(qts, CCN_DT_REGION, A_DT_PMOVSR_CLR, BIT(3));
    qtest_qmp_assert_success(qts, "{'execute': 'qom-set', 'arguments': "
                             "{'path': 'ccn', 'property': 'advance', "
                             "'value': '8=1099511627776'}}");
    ccn_wr(qts, CCN_MN_REGION, A_MN_ERRINT_STATUS,
           MN_ERRINT_CMD_INTREQ_DEASSERT);
    g_assert_true(qtest_get_irq(qts, 0));
    /* the handler's next run finds it, and then the line drops */
    g_assert_cmphex(ccn_err_sig_words(qts, &others), ==,
                    R_MN_ERR_SIG_VAL_DT_MASK);
    g_assert_cmphex(ccn_rd(qts, CCN_DT_REGION, A_DT_PMOVSR), ==,
                    BIT(CCN_CYCLE_IDX));
    ccn_wr(qts, CCN_DT_REGION, A_DT_PMOVSR_CLR, BIT(CCN_CYCLE_IDX));
    ccn_wr(qts, CCN_MN_REGION, A_MN_ERRINT_STATUS,
           MN_ERRINT_CMD_INTREQ_DEASSERT);
    g_assert_false(qtest_get_irq(qts, 0));
    g_assert_cmphex(ccn_err_sig_words(qts, &others), ==, 0);
    qtest_quit(qts);
}

/* No overflow interrupt enabled: the DT signals nothing, until enabled */
static void test_err_sig_val_intr_disabled(void)
{
    QTestState *qts = ccn_init_near_overflow();
    uint32_t others;

    ccn_wr(qts, CCN_DT_REGION, A_DT_PMCR, R_DT_PMCR_PMU_EN_MASK);
    qtest_clock_step(qts, 12000);
    g_assert_cmphex(ccn_rd(qts, CCN_DT_REGION, A_DT_PMOVSR), ==, BIT(3));
    g_assert_false(qtest_get_irq(qts, 0));
    g_assert_cmphex(ccn_err_sig_words(qts, &others), ==, 0);
    ccn_wr(qts, CCN_DT_REGION, A_DT_PMCR,
           R_DT_PMCR_PMU_EN_MASK | R_DT_PMCR_OVFL_INTR_EN_MASK);
    g_assert_true(qtest_get_irq(qts, 0));
    g_assert_cmphex(ccn_err_sig_words(qts, &others), ==,
                    R_MN_ERR_SIG_VAL_DT_MASK);
    qtest_quit(qts);
}

/* A burst of the default traffic object's: the next deadline it arms */
#define CCN_BURST_NS        (1000 * 1000)

/*
 * No timer runs but one armed when an overflow is due with the interrupt
 * enabled: counter 3, 10 requests (5 us) short of its wrap, arms none
 * with the PMU on and the overflow interrupt off, nor with the interrupt
 * on and the PMU off (the driver's PMCR between perf runs). The next
 * deadline is then the end of a burst started at once, not the wrap.
 */
static void test_no_timer_without_interrupt(void)
{
    static const uint32_t pmcr[] = {
        R_DT_PMCR_PMU_EN_MASK, R_DT_PMCR_OVFL_INTR_EN_MASK,
    };
    QTestState *qts = ccn_init_near_overflow();

    for (int i = 0; i < G_N_ELEMENTS(pmcr); i++) {
        int64_t now;

        ccn_wr(qts, CCN_DT_REGION, A_DT_PMOVSR_CLR, BIT(3));
        ccn_wr(qts, CCN_DT_REGION, DT_PMEVCNT_AT(3), (uint32_t)-10);
        ccn_wr(qts, CCN_DT_REGION, A_DT_PMCR, pmcr[i]);
        now = qtest_clock_step(qts, 1);
        qtest_qmp_assert_success(qts, "{'execute': 'qom-set', 'arguments': "
                                 "{'path': '/machine/hisi-traffic-default', "
                                 "'property': 'burst-ns', 'value': %d}}",
                                 CCN_BURST_NS);
        g_assert_cmpint(qtest_clock_step_next(qts), ==, now + CCN_BURST_NS);
        g_assert_false(qtest_get_irq(qts, 0));
    }
    qtest_quit(qts);
}

/* Fault injection: advance a counter past 2^32 over QMP */
static void test_overflow_advance(void)
{
    QTestState *qts = ccn_init_near_overflow();

    ccn_wr(qts, CCN_DT_REGION, DT_PMEVCNT_AT(3), 1);
    qtest_qmp_assert_success(qts, "{'execute': 'qom-set', 'arguments': "
                             "{'path': 'ccn', 'property': 'advance', "
                             "'value': '3=4294967295'}}");
    g_assert_true(qtest_get_irq(qts, 0));
    g_assert_cmphex(ccn_rd(qts, CCN_DT_REGION, A_DT_PMOVSR), ==, BIT(3));
    qtest_quit(qts);
}

/* HN-F 2 receiving 8 requests a ns, its XP's DT and the PMU on */
static QTestState *ccn_start_hnf2_fast(void)
{
    return ccn_start_hnf2_rules("node=2,stream=ring-req-rx,rate=8000000000");
}

/* Above 2^32 events/s the overflow is still raised when due, not later */
static void test_overflow_fast(void)
{
    QTestState *qts = ccn_start_hnf2_fast();

    ccn_count_hnf2_reqs(qts, 3);
    /* 8 requests a ns: 10 us to go */
    ccn_wr(qts, CCN_DT_REGION, DT_PMEVCNT_AT(3), UINT32_MAX - 80000 + 1);
    qtest_clock_step(qts, 9000);
    g_assert_false(qtest_get_irq(qts, 0));
    qtest_clock_step(qts, 2000);
    g_assert_true(qtest_get_irq(qts, 0));
    g_assert_cmphex(ccn_rd(qts, CCN_DT_REGION, A_DT_PMOVSR), ==, BIT(3));
    qtest_quit(qts);
}

/*
 * A counter one flit short of its wrap on a watchpoint no flit matches
 * (DVMOp among HN-F 2's 8 requests a ns): its source could count the next
 * ns, every ns, yet it never wraps. 0.1 s of it passes in moments, with no
 * overflow (arm-ccn-fuzz found the overflow timer firing every ns there).
 * Then the watchpoint matches ReadShared instead, and the overflow comes.
 */
static void test_overflow_never_due(void)
{
    QTestState *qts = ccn_start_hnf2_fast();
    uint64_t any_h = MAKE_64BIT_MASK(0, XP_DT_CMP_H_BITS);
    uint64_t opcode_h = R_XP_DT_CMP_VAL_H_OPCODE_MASK;
    int64_t start;

    ccn_watch_port(qts, HNF2_XP, 0, 0, DIR_RX, VC_REQ,
                   FIELD_DP64(0, XP_DT_CMP_VAL_H, OPCODE, DVM_OPCODE),
                   any_h & ~opcode_h);
    ccn_counter_select(qts, 3, HNF2_XP, DT_CONFIG_WP0);
    ccn_wr(qts, CCN_DT_REGION, DT_PMEVCNT_AT(3), UINT32_MAX);
    start = g_get_monotonic_time();
    qtest_clock_step(qts, 100000000);
    g_assert_cmpint(g_get_monotonic_time() - start, <, 20 * G_USEC_PER_SEC);
    g_assert_cmphex(ccn_counter(qts, 3), ==, UINT32_MAX);
    g_assert_cmphex(ccn_rd(qts, CCN_DT_REGION, A_DT_PMOVSR), ==, 0);
    g_assert_false(qtest_get_irq(qts, 0));
    /* ReadShared: 2 requests in 9 */
    ccn_watch_port(qts, HNF2_XP, 0, 0, DIR_RX, VC_REQ,
                   FIELD_DP64(0, XP_DT_CMP_VAL_H, OPCODE, 0x01),
                   any_h & ~opcode_h);
    qtest_clock_step(qts, 1000);
    g_assert_true(qtest_get_irq(qts, 0));
    g_assert_cmphex(ccn_rd(qts, CCN_DT_REGION, A_DT_PMOVSR), ==, BIT(3));
    qtest_quit(qts);
}

/*
 * Counter @idx counts the MN's DVM operations with its XP's watchpoint 0,
 * as the mn_dvmop event sets it
 */
static void ccn_count_mn_dvm(QTestState *qts, unsigned idx)
{
    uint64_t any_h = MAKE_64BIT_MASK(0, XP_DT_CMP_H_BITS);

    /* dir 1 (sent), port 0, vc 0; all but the opcode masked */
    ccn_watch(qts, MN_XP, FIELD_DP32(0, XP_DT_INTERFACE_SEL, IO_SEL, 1),
              FIELD_DP64(0, XP_DT_CMP_VAL_H, OPCODE, DVM_OPCODE),
              any_h & ~R_XP_DT_CMP_VAL_H_OPCODE_MASK);
    ccn_counter_select(qts, idx, MN_XP, DT_CONFIG_WP0);
}

/* A watchpoint on the MN's DVM operations, as the mn_dvmop event sets it */
static void test_watchpoint_opcode(void)
{
    QTestState *qts = ccn_init();
    uint32_t dvm, any;

    ccn_count_mn_dvm(qts, 0);
    /* watchpoint 1 on the same port: every request the MN sends */
    ccn_watch_any(qts, MN_XP, 1, 0, DIR_TX, VC_REQ);
    ccn_counter_select(qts, 1, MN_XP, DT_CONFIG_WP0 + 1);
    qtest_clock_step(qts, 100000000);   /* 0.1 s: 1000 requests sent */
    dvm = ccn_counter(qts, 0);
    any = ccn_counter(qts, 1);
    g_assert_cmpuint(dvm, >, 0);
    g_assert_cmpuint(dvm, <, 1000);
    g_assert_cmpuint(any, ==, 1000);
    qtest_quit(qts);
}

/*
 * The MN's DVM operations in 0.1 s with seed @seed (@before), then in the
 * next 0.1 s (@after), after a qom-set of the seed to 2 between them
 */
static void ccn_dvm_across_seed_change(uint64_t seed, uint32_t *before,
                                       uint32_t *after)
{
    g_autofree char *traffic =
        g_strdup_printf("hisi-traffic,id=t0,seed=%" PRIu64, seed);
    QTestState *qts = ccn_start(",traffic=t0", "-object", traffic, NULL);

    ccn_pmu_enable(qts);
    ccn_xp_dt_enable(qts, MN_XP);
    ccn_count_mn_dvm(qts, 0);
    qtest_clock_step(qts, 100000000);
    *before = ccn_counter(qts, 0);
    qtest_qmp_assert_success(qts, "{'execute': 'qom-set', 'arguments': "
                             "{'path': '/objects/t0', 'property': 'seed', "
                             "'value': 2}}");
    qtest_clock_step(qts, 100000000);
    *after = ccn_counter(qts, 0) - *before;
    qtest_quit(qts);
}

/*
 * A new seed draws new flits for every node, also for one whose flits
 * were drawn (and counted) before. Flows of one-beat flits keep their pace
 * whatever the seed, so after the change a machine that started with
 * another seed counts what one that had the new seed all along counts.
 */
static void test_seed_change(void)
{
    uint32_t before1, after1, before2, after2;

    ccn_dvm_across_seed_change(1, &before1, &after1);
    ccn_dvm_across_seed_change(2, &before2, &after2);
    /* the two seeds draw different flits: the test can tell them apart */
    g_assert_cmpuint(before1, !=, before2);
    g_assert_cmpuint(after1, ==, after2);
}

/* No register there, in the DT or in the MN */
#define UNKNOWN_REG         0x0500
/* Between PMCCNTR's two words and PMCCNTRSR: no register either */
#define DT_AFTER_PMCCNTR    (A_DT_PMCCNTR + 8)

/* Bad widths and offsets are logged and change nothing. */
static void test_bad_accesses(void)
{
    uint64_t pmcr = CCN_BASE + CCN_REGION(CCN_DT_REGION) + A_DT_PMCR;
    CcnSnapshot before = { 0 };
    QTestState *qts = ccn_init_counting(&before);

    g_assert_cmphex(qtest_readw(qts, pmcr), ==, 0);
    g_assert_cmphex(qtest_readq(qts, pmcr), ==, 0);
    qtest_writeq(qts, pmcr, 0);
    qtest_writew(qts, pmcr, 0);
    g_assert_cmphex(ccn_rd(qts, CCN_DT_REGION, A_DT_PMCR), ==,
                    R_DT_PMCR_OVFL_INTR_EN_MASK | R_DT_PMCR_PMU_EN_MASK);
    ccn_wr(qts, HNF2_REGION, A_ALL_OLY_ID, 0);
    g_assert_cmphex(ccn_rd(qts, HNF2_REGION, A_ALL_OLY_ID), ==,
                    ccn_oly_id(TYPE_HNF, 2));
    g_assert_cmphex(ccn_rd(qts, CCN_DT_REGION, UNKNOWN_REG), ==, 0);
    g_assert_cmphex(ccn_rd(qts, CCN_MN_REGION, UNKNOWN_REG), ==, 0);
    ccn_wr(qts, CCN_DT_REGION, UNKNOWN_REG, 0xffffffff);
    ccn_wr(qts, CCN_DT_REGION, A_DT_PMOVSR, 0xffffffff);
    ccn_snapshot_assert_same(qts, &before);
    g_assert_false(qtest_get_irq(qts, 0));
    ccn_assert_still_counts(qts);
    /*
     * The two words after PMCCNTR read 0, not the cycle counter's words,
     * while it runs with both of them non-zero; writes to them leave it
     * alone.
     */
    ccn_wr64(qts, CCN_DT_REGION, A_DT_PMCCNTR, 0xab12345678ull);
    qtest_clock_step(qts, 1000);
    g_assert_cmphex(ccn_cycles(qts), ==, 0xab12345678ull + 1000);
    g_assert_cmphex(ccn_rd(qts, CCN_DT_REGION, DT_AFTER_PMCCNTR), ==, 0);
    g_assert_cmphex(ccn_rd(qts, CCN_DT_REGION, DT_AFTER_PMCCNTR + 4), ==, 0);
    ccn_wr(qts, CCN_DT_REGION, DT_AFTER_PMCCNTR, 0);
    ccn_wr(qts, CCN_DT_REGION, DT_AFTER_PMCCNTR + 4, 0);
    g_assert_cmphex(ccn_cycles(qts), ==, 0xab12345678ull + 1000);
    qtest_quit(qts);
}

/*
 * A counter pointed at a missing XP counts nothing, and the others count
 * on; pointed back at a present XP, it counts.
 */
static void test_counter_on_missing_xp(void)
{
    QTestState *qts = ccn_init();

    ccn_count_hnf2_reqs(qts, 0);
    ccn_counter_select(qts, 4, LAST_XP, DT_CONFIG_NODE);
    ccn_counter_xp(qts, 4, MISSING_XP);
    qtest_clock_step(qts, 1000000);
    g_assert_cmpuint(ccn_counter(qts, 4), ==, 0);
    g_assert_cmpuint(ccn_counter(qts, 0), ==, HNF_RATE / 1000);
    ccn_count_hnf2_reqs(qts, 4);
    qtest_clock_step(qts, 1000000);
    g_assert_cmpuint(ccn_counter(qts, 4), ==, HNF_RATE / 1000);
    qtest_quit(qts);
}

/* A stream's rate from time @from on */
typedef struct RatePiece {
    int64_t from;
    uint64_t rate;
} RatePiece;

/*
 * Flits before @t of a stream whose rate went as @pieces say (the first
 * from the stream's start, at a rate > 0), in closed form: flit k comes at
 * the first ns by which the sum of rate x time over the pieces reaches
 * k x 1e9.
 */
static uint64_t closed_form_flits(const RatePiece *pieces, unsigned n,
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

/* Only HN-F 2 receives requests, at @rate: qom-set of the rules */
static void ccn_set_hnf2_rate(QTestState *qts, uint64_t rate)
{
    g_autofree char *rules = g_strdup_printf("stream=ring-all,rate=0;"
                                             "node=2,stream=ring-req-rx,"
                                             "rate=%" PRIu64, rate);

    hisi_set_rules(qts, rules);
}

/*
 * Rule changes (QMP) keep each stream's phase: HN-F 2's requests counted
 * across several of them, a pause among them, are linear (each interval
 * at its rate, no extra flit per change); its memory requests stay its
 * misses throughout: hnf_mc_reqs, a watchpoint on its sent requests and
 * the ring's REQ flits at XP 0 on bus 1 (its way to the SN-Fs' XP 10)
 * agree.
 */
static void test_rule_changes_linear(void)
{
    QTestState *qts = ccn_start_rules("stream=ring-all,rate=0;"
                                      "node=2,stream=ring-req-rx,"
                                      "rate=2000000");
    /* after each wait, HN-F 2's new request rate */
    static const struct {
        int64_t wait_ns;
        uint64_t rate;
    } changes[] = {
        { 1000003, 6000000 }, { 700009, 0 }, { 400007, 1400000 },
        { 1400011, HNF_RATE },
    };
    RatePiece pieces[ARRAY_SIZE(changes) + 1] = { { 0, HNF_RATE } };
    int64_t start, now;
    uint32_t mc_reqs;

    ccn_pmu_enable(qts);
    ccn_xp_dt_enable(qts, HNF2_XP);
    ccn_xp_dt_enable(qts, 0);
    start = qtest_clock_step(qts, 123457);
    ccn_wr(qts, HNF2_REGION, A_NODE_PMU_EVENT_SEL,
           HNF_POCQ_REQS_RECVD | HNF_MC_REQS << NODE_PMU_EVENT_SEL_BITS);
    ccn_counter_select(qts, 0, HNF2_XP, DT_CONFIG_NODE);
    ccn_counter_select(qts, 1, HNF2_XP, DT_CONFIG_NODE + 1);
    ccn_watch_any(qts, HNF2_XP, 1, 0, DIR_TX, VC_REQ);
    ccn_counter_select(qts, 2, HNF2_XP, DT_CONFIG_WP0 + 1);
    ccn_count_xp_flits(qts, 3, 0, 0, VC_REQ, 1);
    for (int i = 0; i < ARRAY_SIZE(changes); i++) {
        now = qtest_clock_step(qts, changes[i].wait_ns);
        ccn_set_hnf2_rate(qts, changes[i].rate);
        pieces[i + 1] = (RatePiece) { now, changes[i].rate };
    }
    now = qtest_clock_step(qts, 1500013);
    g_assert_cmpuint(ccn_counter(qts, 0), ==,
                     closed_form_flits(pieces, ARRAY_SIZE(pieces), now) -
                     closed_form_flits(pieces, ARRAY_SIZE(pieces), start));
    mc_reqs = ccn_counter(qts, 1);
    g_assert_cmpuint(mc_reqs, >, 0);
    g_assert_cmpuint(ccn_counter(qts, 2), ==, mc_reqs);
    g_assert_cmpuint(ccn_counter(qts, 3), ==, mc_reqs);
    qtest_quit(qts);
}

/*
 * A ring node first met after a rule change joins with its streams as they
 * have run since that change: HN-F 2 receives 2000000 requests a second,
 * then 3000000 from a change at 1000203 ns, and is met by counter 0 at
 * 1500000 ns. Its count in the 1000167 ns after is the closed form of a
 * stream started at the change, which this window tells apart from one
 * that had run at that rate since 0 (the change is 204 ns past a flit of
 * that one: 3000 flits against 3001).
 */
static void test_node_met_after_change(void)
{
    QTestState *qts = ccn_start_hnf2_rules("stream=ring-all,rate=0;"
                                           "node=2,stream=ring-req-rx,"
                                           "rate=2000000");
    RatePiece since_change, since_0 = { 0, 3000000 };
    int64_t start, now;
    uint64_t want;

    now = qtest_clock_step(qts, 1000203);
    ccn_set_hnf2_rate(qts, 3000000);
    since_change = (RatePiece) { now, 3000000 };
    start = qtest_clock_step(qts, 1500000 - now);
    ccn_count_hnf2_reqs(qts, 0);
    now = qtest_clock_step(qts, 1000167);
    want = closed_form_flits(&since_change, 1, now) -
           closed_form_flits(&since_change, 1, start);
    g_assert_cmpuint(want, !=, closed_form_flits(&since_0, 1, now) -
                               closed_form_flits(&since_0, 1, start));
    g_assert_cmpuint(ccn_counter(qts, 0), ==, want);
    qtest_quit(qts);
}

/*
 * A rule change carries each ring node's streams on from where that node's
 * stood: HN-F 2 and HN-F 10 receive requests at 2000000 and 3000000 a
 * second, counted from 123457 ns (HN-F 2 met first, by counter 0, then
 * HN-F 10 by counter 1). At 1123460 ns, 0.92 of HN-F 2's flit interval on
 * and 0.38 of HN-F 10's, a change sets 5000000 and 1200000; 1000301 ns
 * later each count is its own closed form (7002 and 4200 requests): HN-F
 * 10's next request comes 0.62 of a flit's work after the change, not
 * HN-F 2's 0.08.
 */
static void test_rule_change_two_nodes(void)
{
    QTestState *qts = ccn_start_rules("stream=ring-all,rate=0;"
                                      "node=2,stream=ring-req-rx,"
                                      "rate=2000000;"
                                      "node=10,stream=ring-req-rx,"
                                      "rate=3000000");
    RatePiece hnf2[2] = { { 0, 2000000 } };
    RatePiece hnf10[2] = { { 0, 3000000 } };
    int64_t start, now;

    ccn_pmu_enable(qts);
    ccn_xp_dt_enable(qts, HNF2_XP);
    ccn_xp_dt_enable(qts, HNF10_XP);
    start = qtest_clock_step(qts, 123457);
    ccn_count_hnf2_reqs(qts, 0);
    ccn_wr(qts, HNF10_REGION, A_NODE_PMU_EVENT_SEL, HNF_POCQ_REQS_RECVD);
    ccn_counter_select(qts, 1, HNF10_XP, DT_CONFIG_NODE);
    now = qtest_clock_step(qts, 1000003);
    hisi_set_rules(qts, "stream=ring-all,rate=0;"
                   "node=2,stream=ring-req-rx,rate=5000000;"
                   "node=10,stream=ring-req-rx,rate=1200000");
    hnf2[1] = (RatePiece) { now, 5000000 };
    hnf10[1] = (RatePiece) { now, 1200000 };
    now = qtest_clock_step(qts, 1000301);
    g_assert_cmpuint(ccn_counter(qts, 0), ==,
                     closed_form_flits(hnf2, ARRAY_SIZE(hnf2), now) -
                     closed_form_flits(hnf2, ARRAY_SIZE(hnf2), start));
    g_assert_cmpuint(ccn_counter(qts, 1), ==,
                     closed_form_flits(hnf10, ARRAY_SIZE(hnf10), now) -
                     closed_form_flits(hnf10, ARRAY_SIZE(hnf10), start));
    qtest_quit(qts);
}

/*
 * The first ring node the traffic object met carries on across a change
 * too, also when no counter looked at it then: node 0's requests, a
 * million a second, are counted by XP 0's REQ flits on bus 0 at 123457 ns
 * (where the traffic meets node 0, first of all, and once), then not
 * (counter 0 passes through). A change at 1123460 ns (0.46 of a request's
 * interval on) sets three million. Counted again from 100 ns after the
 * change, the next 100 ns hold the request that carried on, 180 ns after
 * the change; a stream started afresh at the change would have none there
 * (0 and 333 ns).
 */
static void test_rule_change_first_node(void)
{
    QTestState *qts = ccn_start_rules("stream=ring-all,rate=0;"
                                      "node=0,stream=ring-req-tx,"
                                      "rate=1000000");
    RatePiece node0[2] = { { 0, 1000000 } };
    int64_t from, now;
    uint32_t before;

    ccn_pmu_enable(qts);
    ccn_xp_dt_enable(qts, 0);
    qtest_clock_step(qts, 123457);
    ccn_count_xp_flits(qts, 0, 0, 0, VC_REQ, 0);
    /* one write: each fold of the XP event asks for node 0 */
    ccn_wr(qts, CCN_XP_REGION(0), A_XP_DT_CONFIG, 0);
    now = qtest_clock_step(qts, 1000003);
    hisi_set_rules(qts, "stream=ring-all,rate=0;"
                   "node=0,stream=ring-req-tx,rate=3000000");
    node0[1] = (RatePiece) { now, 3000000 };
    from = qtest_clock_step(qts, 100);
    before = ccn_counter(qts, 0);
    ccn_count_xp_flits(qts, 0, 0, 0, VC_REQ, 0);
    now = qtest_clock_step(qts, 100);
    g_assert_cmpuint(closed_form_flits(node0, ARRAY_SIZE(node0), now) -
                     closed_form_flits(node0, ARRAY_SIZE(node0), from), ==,
                     1);
    g_assert_cmpuint(ccn_counter(qts, 0) - before, ==, 1);
    qtest_quit(qts);
}

/* The counters, the cycle counter and the overflow status */
static void ccn_twin_log_counters(QTestState *qts, HisiTwinLog *log)
{
    for (int i = 0; i < CCN_COUNTERS; i++) {
        hisi_twin_log_at(log, "PMEVCNT", i, ccn_counter(qts, i));
    }
    hisi_twin_log(log, "PMCCNTR", ccn_cycles(qts));
    hisi_twin_log(log, "PMOVSR", ccn_rd(qts, CCN_DT_REGION, A_DT_PMOVSR));
}

/* The driver's probe: all errors disabled in the MN (its 0x22) */
#define MN_ERRINT_CMD_ALL_ERRORS_DISABLE    0x22

/* The registers of the snapshot, the cycle snapshot and every counter */
static void ccn_twin_log_regs(QTestState *qts, HisiTwinLog *log)
{
    CcnSnapshot regs = { 0 };

    ccn_snapshot_take(qts, &regs);
    for (size_t i = 0; i < regs.n; i++) {
        hisi_twin_log_at(log, "register",
                         (uint64_t)regs.region[i] << 16 | regs.off[i],
                         regs.val[i]);
    }
    hisi_twin_log(log, "PMCCNTRSR",
                  ccn_rd(qts, CCN_DT_REGION, A_DT_PMCCNTRSR) |
                  (uint64_t)ccn_rd(qts, CCN_DT_REGION,
                                   A_DT_PMCCNTRSR + 4) << 32);
    ccn_twin_log_counters(qts, log);
}

/*
 * One run: counter 5 counting HN-F 2's requests, 2 its sent REQ flits
 * (watchpoint 0), 1 the REQ flits through its XP, counter 6 overflowed
 * and its interrupt requested, a cycle counter snapshot taken; then
 * (migrated if @migrate, at an odd time) counter 3 due to overflow 20
 * requests later. The handler reads ERR_SIG_VAL and clears counter 6's
 * overflow, the request stays up; counter 3's overflow comes by the clock
 * alone; the handler clears it and deasserts; the counters go on over a
 * few more steps. What it saw goes to @log.
 */
static void ccn_twin_run(bool migrate, HisiTwinLog *log)
{
    static const int64_t steps[] = { 1, 999, 1000 * 1000 + 17 };
    QTestState *qts = ccn_init(), *dst;
    uint32_t others;

    ccn_wr(qts, CCN_MN_REGION, A_MN_ERRINT_STATUS,
           MN_ERRINT_CMD_ALL_ERRORS_DISABLE);
    ccn_count_hnf2_reqs(qts, 5);
    ccn_watch_any(qts, HNF2_XP, 0, 0, DIR_TX, VC_REQ);
    ccn_counter_select(qts, 2, HNF2_XP, DT_CONFIG_WP0);
    ccn_count_xp_flits(qts, 1, HNF2_XP, 0, VC_REQ, 0);
    ccn_wr(qts, CCN_DT_REGION, DT_PMEVCNT_AT(6), UINT32_MAX);
    qtest_qmp_assert_success(qts, "{'execute': 'qom-set', 'arguments': "
                             "{'path': 'ccn', 'property': 'advance', "
                             "'value': '6=1'}}");
    g_assert_true(qtest_get_irq(qts, 0));
    qtest_clock_step(qts, 1000 * 1000);
    g_assert_cmpuint(ccn_counter(qts, 5), ==, HNF_RATE / 1000);
    g_assert_cmpuint(ccn_counter(qts, 2), >, 0);
    g_assert_cmpuint(ccn_counter(qts, 1), >, 0);
    ccn_wr(qts, CCN_DT_REGION, A_DT_PMSR_REQ, 1);
    qtest_clock_step(qts, 37);
    ccn_count_hnf2_reqs(qts, 3);
    ccn_wr(qts, CCN_DT_REGION, DT_PMEVCNT_AT(3), (uint32_t)-20);
    if (migrate) {
        dst = ccn_start("", "-incoming", "defer", NULL);
        hisi_migrate_into(qts, dst);
        qtest_quit(qts);
        qts = dst;
    }
    ccn_twin_log_regs(qts, log);
    g_assert_cmphex(ccn_rd(qts, CCN_DT_REGION, A_DT_PMOVSR), ==, BIT(6));
    /* the handler: what ERR_SIG_VAL says, counter 6 cleared */
    g_assert_cmphex(hisi_twin_log(log, "ERR_SIG_VAL DT",
                                  ccn_err_sig_words(qts, &others)), ==,
                    R_MN_ERR_SIG_VAL_DT_MASK);
    hisi_twin_log(log, "ERR_SIG_VAL others", others);
    ccn_wr(qts, CCN_DT_REGION, A_DT_PMOVSR_CLR, BIT(6));
    /*
     * The request stays up until the deassert. (A register write sets
     * the line; the migrated interrupt controller has its level.)
     */
    g_assert_true(hisi_twin_log(log, "IRQ", qtest_get_irq(qts, 0)));
    /* Counter 3's overflow, with no register access to find it */
    qtest_clock_step(qts, 10 * 1000 + 1);
    ccn_twin_log_counters(qts, log);
    g_assert_cmphex(ccn_rd(qts, CCN_DT_REGION, A_DT_PMOVSR), ==, BIT(3));
    g_assert_cmphex(hisi_twin_log(log, "ERR_SIG_VAL DT",
                                  ccn_err_sig_words(qts, &others)), ==,
                    R_MN_ERR_SIG_VAL_DT_MASK);
    hisi_twin_log(log, "ERR_SIG_VAL others", others);
    ccn_wr(qts, CCN_DT_REGION, A_DT_PMOVSR_CLR, BIT(3));
    ccn_wr(qts, CCN_MN_REGION, A_MN_ERRINT_STATUS,
           MN_ERRINT_CMD_INTREQ_DEASSERT);
    g_assert_false(hisi_twin_log(log, "IRQ", qtest_get_irq(qts, 0)));
    for (int i = 0; i < ARRAY_SIZE(steps); i++) {
        qtest_clock_step(qts, steps[i]);
        ccn_twin_log_counters(qts, log);
        hisi_twin_log(log, "IRQ", qtest_get_irq(qts, 0));
    }
    ccn_twin_log_regs(qts, log);
    qtest_quit(qts);
}

/*
 * Counting and a pending overflow go on after migration as in a twin that
 * is not migrated: the same counts, statuses and interrupt after the same
 * steps.
 */
static void test_migration(void)
{
    HisiTwinLog twin, migrated;

    hisi_twin_init(&twin);
    hisi_twin_init(&migrated);
    ccn_twin_run(false, &twin);
    ccn_twin_run(true, &migrated);
    hisi_twin_assert_same(&migrated, &twin);
    hisi_twin_free(&migrated);
    hisi_twin_free(&twin);
}

/*
 * A machine whose traffic object takes real traffic but has no root port
 * to take it from (a CCN's) migrates: the object saves no requester's
 * tag, and the destination takes that empty list.
 */
static void test_migration_real_source_no_ports(void)
{
    const char *traffic = "hisi-traffic,id=t0,source=real";
    QTestState *src = ccn_start(",traffic=t0", "-object", traffic, NULL);
    QTestState *dst = ccn_start(",traffic=t0", "-object", traffic,
                                "-incoming", "defer", NULL);

    ccn_pmu_enable(src);
    qtest_clock_step(src, 1000);
    hisi_migrate_into(src, dst);
    g_assert_cmpuint(ccn_cycles(dst), ==, 1000);
    qtest_clock_step(dst, 500);
    g_assert_cmpuint(ccn_cycles(dst), ==, 1500);
    qtest_quit(dst);
    qtest_quit(src);
}

/* The CCN's QEMU in @h, for the helpers that take a HisiInitFn */
static void G_GNUC_NULL_TERMINATED ccn_init_dev(HisiDev *h, const char *props,
                                                ...)
{
    g_autoptr(GPtrArray) args = NULL;
    va_list ap;

    va_start(ap, props);
    args = ccn_args(props, ap);
    va_end(ap);
    hisi_start(h, args);
}

/* A destination refuses the CCN's section of version 2, and loads 3 */
static void test_stream_old_version_refused(void)
{
    hisi_assert_old_section_refused(ccn_init_dev, "arm-ccn", 3);
}

/*
 * The stream says which version of its VMState the CCN's section holds,
 * 3, the one a QEMU of these devices loads
 */
static void test_stream_version(void)
{
    HisiDev h = { .qts = ccn_start("", NULL) };
    g_autoptr(GByteArray) stream = hisi_save_stream(&h);

    g_assert_cmpuint(hisi_stream_section_version(stream, "arm-ccn"), ==, 3);
    qtest_quit(h.qts);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/arm-ccn/present-regions", test_present_regions);
    qtest_add_func("/arm-ccn/region-ids", test_region_ids);
    qtest_add_func("/arm-ccn/snapshot-status", test_snapshot_status);
    qtest_add_func("/arm-ccn/absent-region", test_absent_region);
    qtest_add_func("/arm-ccn/errint-handshake", test_errint_handshake);
    qtest_add_func("/arm-ccn/firmware-irq", test_firmware_irq);
    qtest_add_func("/arm-ccn/watchpoint-registers",
                   test_watchpoint_registers);
    qtest_add_func("/arm-ccn/system-reset", test_system_reset);
    qtest_add_func("/arm-ccn/count-node-event", test_count_node_event);
    qtest_add_func("/arm-ccn/count-node-event-last-field",
                   test_count_node_event_last_field);
    qtest_add_func("/arm-ccn/count-xp-event", test_count_xp_event);
    qtest_add_func("/arm-ccn/count-node-event-port-1",
                   test_count_node_event_port_1);
    qtest_add_func("/arm-ccn/count-xp-event-two-ports",
                   test_count_xp_event_two_ports);
    qtest_add_func("/arm-ccn/xp-without-devices", test_xp_without_devices);
    qtest_add_func("/arm-ccn/rule-on-absent-node", test_rule_on_absent_node);
    qtest_add_func("/arm-ccn/rnf-snf-ports", test_rnf_snf_ports);
    qtest_add_func("/arm-ccn/hnf-mc-reqs-sent", test_hnf_mc_reqs_sent);
    qtest_add_func("/arm-ccn/count-watchpoint", test_count_watchpoint);
    qtest_add_func("/arm-ccn/paused-stops-ring", test_paused_stops_ring);
    qtest_add_func("/arm-ccn/count-cycles", test_count_cycles);
    qtest_add_func("/arm-ccn/cycles-write", test_cycles_write);
    qtest_add_func("/arm-ccn/no-count-without-pmu-en",
                   test_no_count_without_pmu_en);
    qtest_add_func("/arm-ccn/dt-disabled-stops-events",
                   test_dt_disabled_stops_events);
    qtest_add_func("/arm-ccn/no-count-with-dt-config-0",
                   test_no_count_with_dt_config_0);
    qtest_add_func("/arm-ccn/overflow-irq-when-due",
                   test_overflow_irq_when_due);
    qtest_add_func("/arm-ccn/overflow-timer-by-rate",
                   test_overflow_timer_by_rate);
    qtest_add_func("/arm-ccn/overflow-timer-xp-event",
                   test_overflow_timer_xp_event);
    qtest_add_func("/arm-ccn/overflow-irq-at-wrap", test_overflow_irq_at_wrap);
    qtest_add_func("/arm-ccn/overflow-cycles-carried",
                   test_overflow_cycles_carried);
    qtest_add_func("/arm-ccn/overflow-twice-stays-set",
                   test_overflow_twice_stays_set);
    qtest_add_data_func("/arm-ccn/overflow-irq-rsp-rx",
                        GUINT_TO_POINTER(DIR_RX), test_overflow_irq_rsp);
    qtest_add_data_func("/arm-ccn/overflow-irq-rsp-tx",
                        GUINT_TO_POINTER(DIR_TX), test_overflow_irq_rsp);
    qtest_add_func("/arm-ccn/overflow-pmu-events-disabled",
                   test_overflow_pmu_events_disabled);
    qtest_add_func("/arm-ccn/no-timer-without-interrupt",
                   test_no_timer_without_interrupt);
    qtest_add_func("/arm-ccn/overflow-advance", test_overflow_advance);
    qtest_add_func("/arm-ccn/err-sig-val-read-clears",
                   test_err_sig_val_read_clears);
    qtest_add_func("/arm-ccn/err-sig-val-intr-disabled",
                   test_err_sig_val_intr_disabled);
    qtest_add_func("/arm-ccn/overflow-fast", test_overflow_fast);
    qtest_add_func("/arm-ccn/overflow-never-due", test_overflow_never_due);
    qtest_add_func("/arm-ccn/watchpoint-opcode", test_watchpoint_opcode);
    qtest_add_func("/arm-ccn/seed-change", test_seed_change);
    qtest_add_func("/arm-ccn/bad-accesses", test_bad_accesses);
    qtest_add_func("/arm-ccn/counter-on-missing-xp",
                   test_counter_on_missing_xp);
    qtest_add_func("/arm-ccn/migration", test_migration);
    qtest_add_func("/arm-ccn/stream-version", test_stream_version);
    qtest_add_func("/arm-ccn/stream-old-version-refused",
                   test_stream_old_version_refused);
    qtest_add_func("/arm-ccn/migration-real-source-no-ports",
                   test_migration_real_source_no_ports);
    qtest_add_func("/arm-ccn/rule-changes-linear", test_rule_changes_linear);
    qtest_add_func("/arm-ccn/node-met-after-change",
                   test_node_met_after_change);
    qtest_add_func("/arm-ccn/rule-change-two-nodes",
                   test_rule_change_two_nodes);
    qtest_add_func("/arm-ccn/rule-change-first-node",
                   test_rule_change_first_node);
    return g_test_run();
}
