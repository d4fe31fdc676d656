/*
 * QTest: ARM CCN-504 PMU (arm-ccn) registers and counts
 *
 * The model sits on the virt machine's platform bus, the first device
 * there, at its base. Node 2 is an HN-F on XP 1, port 0; its requests
 * arrive at 2000000 flits/s by default, so exact counts can be asserted
 * after virtual clock steps (cycles at 1 GHz are nanoseconds).
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
#define TYPE_XP             0x08

#define HNF_POCQ_REQS_RECVD 0x5     /* node event */
#define XP_VALID_FLIT       0x4     /* XP event */
#define DVM_OPCODE          0x14    /* the REQ flit opcode of DVMOp */

#define HNF_RATE            2000000         /* requests per second */

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
 * QEMU with the CCN, id "ccn": @props go on its -device option, then the
 * QEMU arguments up to a NULL.
 */
static QTestState *G_GNUC_NULL_TERMINATED ccn_start(const char *props, ...)
{
    g_autoptr(GPtrArray) args = hisi_args_new();
    QTestState *qts;
    va_list ap;

    hisi_args_add(args, "-device", NULL);
    hisi_args_addf(args, "arm-ccn,id=ccn%s", props);
    va_start(ap, props);
    hisi_args_add_valist(args, ap);
    va_end(ap);
    qts = hisi_qtest_start("", args);
    qtest_irq_intercept_out_named(qts, "/machine/peripheral/ccn",
                                  "sysbus-irq");
    return qts;
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

/* Counter @idx: XP @xp's source 0 = valid_flit, vc 0, port 0 */
static void ccn_count_xp_valid_flits(QTestState *qts, unsigned idx,
                                     unsigned xp)
{
    ccn_wr(qts, CCN_XP_REGION(xp), A_XP_PMU_EVENT_SEL,
           FIELD_DP32(0, XP_EVENT_ID, EVENT, XP_VALID_FLIT));
    ccn_counter_select(qts, idx, xp, DT_CONFIG_XP_EVENT);
}

/* Watchpoint 0 of XP @xp: a mask matching any flit, but @val_h's opcode */
static void ccn_watch(QTestState *qts, unsigned xp, uint32_t if_sel,
                      uint64_t val_h, uint64_t mask_h)
{
    ccn_wr(qts, CCN_XP_REGION(xp), A_XP_DT_INTERFACE_SEL, if_sel);
    ccn_wr64(qts, CCN_XP_REGION(xp), XP_DT_WP_AT(XP_DT_CMP_VAL_H, 0), val_h);
    ccn_wr64(qts, CCN_XP_REGION(xp), XP_DT_WP_AT(XP_DT_CMP_MASK_L, 0),
             MAKE_64BIT_MASK(0, XP_DT_CMP_L_BITS));
    ccn_wr64(qts, CCN_XP_REGION(xp), XP_DT_WP_AT(XP_DT_CMP_MASK_H, 0),
             mask_h);
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

static void test_region_ids(void)
{
    QTestState *qts = ccn_start("", NULL);

    g_assert_cmphex(ccn_rd(qts, CCN_MN_REGION, A_ALL_OLY_ID), ==,
                    ccn_oly_id(TYPE_MN, 12));
    g_assert_cmphex(ccn_rd(qts, CCN_DT_REGION, A_ALL_OLY_ID), ==,
                    ccn_oly_id(TYPE_DT, 0));
    g_assert_cmphex(ccn_rd(qts, HNF2_REGION, A_ALL_OLY_ID), ==,
                    ccn_oly_id(TYPE_HNF, 2));
    g_assert_cmphex(ccn_rd(qts, CCN_XP_REGION(LAST_XP), A_ALL_OLY_ID), ==,
                    ccn_oly_id(TYPE_XP, LAST_XP));
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

/* The probe's handshake: PMU events disable reads back, enable */
static void test_errint_handshake(void)
{
    QTestState *qts = ccn_start("", NULL);

    ccn_wr(qts, CCN_MN_REGION, A_MN_ERRINT_STATUS,
           MN_ERRINT_CMD_PMU_EVENTS_DISABLE);
    g_assert_true(FIELD_EX32(ccn_rd(qts, CCN_MN_REGION, A_MN_ERRINT_STATUS),
                             MN_ERRINT_STATUS, PMU_EVENTS_DISABLED));
    ccn_wr(qts, CCN_MN_REGION, A_MN_ERRINT_STATUS,
           MN_ERRINT_CMD_PMU_EVENTS_ENABLE);
    g_assert_false(FIELD_EX32(ccn_rd(qts, CCN_MN_REGION, A_MN_ERRINT_STATUS),
                              MN_ERRINT_STATUS, PMU_EVENTS_DISABLED));
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

/* An HN-F sends no requests: valid REQ flits are those it receives. */
static void test_count_xp_event(void)
{
    QTestState *qts = ccn_init();

    ccn_count_xp_valid_flits(qts, 1, HNF2_XP);
    qtest_clock_step(qts, 1000000);
    g_assert_cmpuint(ccn_counter(qts, 1), ==, HNF_RATE / 1000);
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
    /* every counter's and the cycle counter's bit */
    ccn_wr(qts, CCN_DT_REGION, A_DT_PMOVSR_CLR,
           MAKE_64BIT_MASK(0, CCN_COUNTERS + 1));
    g_assert_false(qtest_get_irq(qts, 0));
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

/* Above 2^32 events/s the overflow is still raised when due, not later */
static void test_overflow_fast(void)
{
    g_autofree char *rules = hisi_opt_escape("node=2,stream=ring-req-rx,"
                                             "rate=8000000000");
    g_autofree char *traffic = g_strdup_printf("hisi-traffic,id=t0,rules=%s",
                                               rules);
    QTestState *qts = ccn_start(",traffic=t0", "-object", traffic, NULL);

    ccn_pmu_enable(qts);
    ccn_xp_dt_enable(qts, HNF2_XP);
    ccn_wr(qts, CCN_MN_REGION, A_MN_ERRINT_STATUS,
           MN_ERRINT_CMD_PMU_EVENTS_ENABLE);
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

/* A watchpoint on the MN's DVM operations, as the mn_dvmop event sets it */
static void test_watchpoint_opcode(void)
{
    QTestState *qts = ccn_init();
    uint64_t any_h = MAKE_64BIT_MASK(0, XP_DT_CMP_H_BITS);
    uint32_t dvm, any;

    /* dir 1 (sent), port 0, vc 0; all but the opcode masked */
    ccn_watch(qts, MN_XP, FIELD_DP32(0, XP_DT_INTERFACE_SEL, IO_SEL, 1),
              FIELD_DP64(0, XP_DT_CMP_VAL_H, OPCODE, DVM_OPCODE),
              any_h & ~R_XP_DT_CMP_VAL_H_OPCODE_MASK);
    ccn_counter_select(qts, 0, MN_XP, DT_CONFIG_WP0);
    /* XP 6's valid_flit, vc 0, port 0: every MN request, both ways */
    ccn_count_xp_valid_flits(qts, 1, MN_XP);
    qtest_clock_step(qts, 100000000);   /* 0.1 s: 1000 requests sent */
    dvm = ccn_counter(qts, 0);
    any = ccn_counter(qts, 1);
    g_assert_cmpuint(dvm, >, 0);
    g_assert_cmpuint(dvm, <, 1000);
    g_assert_cmpuint(any, ==, 2000);
    qtest_quit(qts);
}

/* No register there */
#define DT_UNKNOWN_REG      0x0500

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
    g_assert_cmphex(ccn_rd(qts, CCN_DT_REGION, DT_UNKNOWN_REG), ==, 0);
    ccn_wr(qts, CCN_DT_REGION, DT_UNKNOWN_REG, 0xffffffff);
    ccn_wr(qts, CCN_DT_REGION, A_DT_PMOVSR, 0xffffffff);
    ccn_snapshot_assert_same(qts, &before);
    g_assert_false(qtest_get_irq(qts, 0));
    ccn_assert_still_counts(qts);
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

/* Counting and a pending overflow go on after migration. */
static void test_migration(void)
{
    QTestState *src = ccn_init(), *dst;
    uint32_t cnt;

    ccn_count_hnf2_reqs(src, 5);
    ccn_wr(src, CCN_DT_REGION, DT_PMEVCNT_AT(6), UINT32_MAX);
    qtest_qmp_assert_success(src, "{'execute': 'qom-set', 'arguments': "
                             "{'path': 'ccn', 'property': 'advance', "
                             "'value': '6=1'}}");
    g_assert_true(qtest_get_irq(src, 0));
    qtest_clock_step(src, 1000000);
    cnt = ccn_counter(src, 5);
    g_assert_cmpuint(cnt, ==, HNF_RATE / 1000);
    dst = ccn_start("", "-incoming", "defer", NULL);
    hisi_migrate_into(src, dst);
    /* (the interrupt controller's state carries the line's level) */
    g_assert_cmphex(ccn_rd(dst, CCN_DT_REGION, A_DT_PMOVSR), ==, BIT(6));
    g_assert_cmphex(ccn_rd(dst, CCN_MN_REGION, A_MN_ERR_SIG_VAL), ==,
                    R_MN_ERR_SIG_VAL_DT_MASK);
    g_assert_cmpuint(ccn_counter(dst, 5), ==, cnt);
    qtest_clock_step(dst, 1000000);
    g_assert_cmpuint(ccn_counter(dst, 5), ==, 2 * cnt);
    qtest_quit(dst);
    qtest_quit(src);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/arm-ccn/present-regions", test_present_regions);
    qtest_add_func("/arm-ccn/region-ids", test_region_ids);
    qtest_add_func("/arm-ccn/absent-region", test_absent_region);
    qtest_add_func("/arm-ccn/errint-handshake", test_errint_handshake);
    qtest_add_func("/arm-ccn/count-node-event", test_count_node_event);
    qtest_add_func("/arm-ccn/count-xp-event", test_count_xp_event);
    qtest_add_func("/arm-ccn/count-watchpoint", test_count_watchpoint);
    qtest_add_func("/arm-ccn/count-cycles", test_count_cycles);
    qtest_add_func("/arm-ccn/no-count-without-pmu-en",
                   test_no_count_without_pmu_en);
    qtest_add_func("/arm-ccn/no-count-with-dt-config-0",
                   test_no_count_with_dt_config_0);
    qtest_add_func("/arm-ccn/overflow-irq-when-due",
                   test_overflow_irq_when_due);
    qtest_add_func("/arm-ccn/overflow-pmu-events-disabled",
                   test_overflow_pmu_events_disabled);
    qtest_add_func("/arm-ccn/overflow-advance", test_overflow_advance);
    qtest_add_func("/arm-ccn/overflow-fast", test_overflow_fast);
    qtest_add_func("/arm-ccn/watchpoint-opcode", test_watchpoint_opcode);
    qtest_add_func("/arm-ccn/bad-accesses", test_bad_accesses);
    qtest_add_func("/arm-ccn/counter-on-missing-xp",
                   test_counter_on_missing_xp);
    qtest_add_func("/arm-ccn/migration", test_migration);
    return g_test_run();
}
