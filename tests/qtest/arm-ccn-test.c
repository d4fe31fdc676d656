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

#define CCN_BASE            0x0c000000ull
#define REGION(r)           (CCN_BASE + 0x10000ull * (r))
#define OLY_ID              0xff00

#define MN                  REGION(0)
#define MN_ERRINT           (MN + 0x0008)
#define MN_COMP_LIST(w)     (MN + 0x01e0 + 4 * (w))
#define MN_ERR_SIG_VAL      (MN + 0x0300)

#define DT                  REGION(1)
#define DT_ACTIVE_DSM       (DT + 0x0000)
#define DT_CTL              (DT + 0x0028)
#define DT_PMEVCNT(i)       (DT + 0x0100 + 8 * (i))
#define DT_PMCCNTR          (DT + 0x0140)
#define DT_PMOVSR           (DT + 0x0198)
#define DT_PMOVSR_CLR       (DT + 0x01a0)
#define DT_PMCR             (DT + 0x01a8)
#define PMCR_PMU_EN         BIT(0)
#define PMCR_OVFL_INTR_EN   BIT(6)

#define XP(x)               REGION(0x80 + (x))
#define XP_DT_CONFIG(x)     (XP(x) + 0x0300)
#define XP_INTERFACE_SEL(x) (XP(x) + 0x0308)
#define XP_CMP_VAL_H(x)     (XP(x) + 0x0318)
#define XP_CMP_MASK_L(x)    (XP(x) + 0x0320)
#define XP_CMP_MASK_H(x)    (XP(x) + 0x0328)
#define XP_DT_CONTROL(x)    (XP(x) + 0x0370)
#define XP_EVENT_SEL(x)     (XP(x) + 0x0600)

#define HNF2                REGION(0x22)    /* node 2: XP 1, port 0 */
#define NODE_EVENT_SEL(r)   ((r) + 0x0600)

#define HNF_POCQ_REQS_RECVD 0x5
#define HNF_RATE            2000000         /* requests per second */

static QTestState *ccn_start(const char *extra)
{
    QTestState *qts = qtest_initf("-M virt -nic none -device arm-ccn,id=ccn%s",
                                  extra);

    qtest_irq_intercept_out_named(qts, "/machine/peripheral/ccn",
                                  "sysbus-irq");
    return qts;
}

static QTestState *ccn_init(void)
{
    QTestState *qts = ccn_start("");

    /* as the driver's probe leaves it */
    qtest_writel(qts, DT_CTL, 1);
    qtest_writel(qts, DT_PMCR, PMCR_OVFL_INTR_EN | PMCR_PMU_EN);
    for (int x = 0; x < 11; x++) {
        qtest_writel(qts, XP_DT_CONFIG(x), 0);
        qtest_writel(qts, XP_DT_CONTROL(x), 0x000ff001);
    }
    return qts;
}

/* Counter @idx counts on XP @xp what @nibble selects */
static void ccn_count(QTestState *qts, unsigned idx, unsigned xp,
                      unsigned nibble)
{
    uint32_t dsm = qtest_readl(qts, DT_ACTIVE_DSM + idx / 4 * 4);

    dsm = deposit32(dsm, (idx % 4) * 8, 8, xp);
    qtest_writel(qts, DT_ACTIVE_DSM + idx / 4 * 4, dsm);
    qtest_writel(qts, XP_DT_CONFIG(xp),
                 deposit32(qtest_readl(qts, XP_DT_CONFIG(xp)), idx * 4, 4,
                           nibble));
}

static void test_topology(void)
{
    QTestState *qts = qtest_init("-M virt -nic none -device arm-ccn");
    uint32_t list0 = qtest_readl(qts, MN_COMP_LIST(0));
    uint32_t list1 = qtest_readl(qts, MN_COMP_LIST(1));
    uint32_t list4 = qtest_readl(qts, MN_COMP_LIST(4));

    /* MN and DT; nodes 0-11 and 13 at regions 0x20..; XPs at 0x80..0x8a */
    g_assert_cmphex(list0, ==, 0x3);
    g_assert_cmphex(list1, ==, 0x2fff);
    g_assert_cmphex(list4, ==, 0x7ff);
    g_assert_cmphex(qtest_readl(qts, MN + OLY_ID), ==, 0x01 | 12 << 8);
    g_assert_cmphex(qtest_readl(qts, DT + OLY_ID), ==, 0x02);
    g_assert_cmphex(qtest_readl(qts, HNF2 + OLY_ID), ==, 0x04 | 2 << 8);
    g_assert_cmphex(qtest_readl(qts, XP(10) + OLY_ID), ==, 0x08 | 10 << 8);
    /* an absent region reads 0 and harms nothing */
    g_assert_cmphex(qtest_readl(qts, REGION(0x50) + OLY_ID), ==, 0);
    qtest_writel(qts, REGION(0x50), 1);
    /* the probe's handshake: PMU events disable reads back, enable */
    qtest_writel(qts, MN_ERRINT, 0x88);
    g_assert_cmphex(qtest_readl(qts, MN_ERRINT) & 0x80, ==, 0x80);
    qtest_writel(qts, MN_ERRINT, 0x08);
    g_assert_cmphex(qtest_readl(qts, MN_ERRINT) & 0x80, ==, 0);
    qtest_quit(qts);
}

static void test_exact_counts(void)
{
    QTestState *qts = ccn_init();

    /* counter 0: HN-F node 2's event source 0 = pocq_reqs_recvd */
    qtest_writel(qts, NODE_EVENT_SEL(HNF2), HNF_POCQ_REQS_RECVD);
    ccn_count(qts, 0, 1, 0x8);
    /* counter 1: XP 1's source 0 = valid_flit, vc 0, bus 0 */
    qtest_writel(qts, XP_EVENT_SEL(1), 0 << 4 | 0 << 3 | 4);
    ccn_count(qts, 1, 1, 0x4);
    /* counter 2: watchpoint 0, dir 0 (received), port 0, vc 0, ANY */
    qtest_writel(qts, XP_INTERFACE_SEL(1), 0);
    qtest_writel(qts, XP_CMP_MASK_L(1), 0xffffffff);
    qtest_writel(qts, XP_CMP_MASK_L(1) + 4, 0x7fffffff);
    qtest_writel(qts, XP_CMP_MASK_H(1), 0xffffffff);
    qtest_writel(qts, XP_CMP_MASK_H(1) + 4, 0x0fffffff);
    ccn_count(qts, 2, 1, 0x2);
    qtest_clock_step(qts, 1000000);     /* 1 ms */
    g_assert_cmpuint(qtest_readl(qts, DT_PMEVCNT(0)), ==, HNF_RATE / 1000);
    /* an HN-F sends no requests: valid REQ flits are those it receives */
    g_assert_cmpuint(qtest_readl(qts, DT_PMEVCNT(1)), ==, HNF_RATE / 1000);
    g_assert_cmpuint(qtest_readl(qts, DT_PMEVCNT(2)), ==, HNF_RATE / 1000);
    g_assert_cmpuint(qtest_readq(qts, DT_PMCCNTR), ==, 1000000);
    /* no count without PMU_EN, nor with the XP's nibble at 0 */
    qtest_writel(qts, DT_PMCR, PMCR_OVFL_INTR_EN);
    qtest_clock_step(qts, 1000000);
    g_assert_cmpuint(qtest_readl(qts, DT_PMEVCNT(0)), ==, HNF_RATE / 1000);
    g_assert_cmpuint(qtest_readq(qts, DT_PMCCNTR), ==, 1000000);
    qtest_writel(qts, DT_PMCR, PMCR_OVFL_INTR_EN | PMCR_PMU_EN);
    ccn_count(qts, 0, 1, 0);
    qtest_clock_step(qts, 1000000);
    g_assert_cmpuint(qtest_readl(qts, DT_PMEVCNT(0)), ==, HNF_RATE / 1000);
    qtest_quit(qts);
}

static void test_overflow(void)
{
    QTestState *qts = ccn_init();

    qtest_writel(qts, MN_ERRINT, 0x08);
    qtest_writel(qts, NODE_EVENT_SEL(HNF2), HNF_POCQ_REQS_RECVD);
    ccn_count(qts, 3, 1, 0x8);
    qtest_writel(qts, DT_PMEVCNT(3), 0xffffffff - 9);   /* 5 us to go */
    qtest_clock_step(qts, 2000);
    g_assert_cmphex(qtest_readl(qts, DT_PMOVSR), ==, 0);
    g_assert_false(qtest_get_irq(qts, 0));
    /* the timer raises it when due, without a read */
    qtest_clock_step(qts, 10000);
    g_assert_true(qtest_get_irq(qts, 0));
    g_assert_cmphex(qtest_readl(qts, DT_PMOVSR), ==, BIT(3));
    g_assert_cmphex(qtest_readl(qts, MN_ERR_SIG_VAL), ==, BIT(1));
    g_assert_cmpuint(qtest_readl(qts, DT_PMEVCNT(3)), <, 20);
    /* the handler: clear what it read, deassert */
    qtest_writel(qts, DT_PMOVSR_CLR, BIT(3));
    qtest_writel(qts, MN_ERRINT, 0x11);
    g_assert_false(qtest_get_irq(qts, 0));
    g_assert_cmphex(qtest_readl(qts, MN_ERR_SIG_VAL), ==, 0);
    /* PMU events disabled in the MN: the status, no interrupt */
    qtest_writel(qts, MN_ERRINT, 0x88);
    qtest_writel(qts, DT_PMEVCNT(3), 0xffffffff);
    qtest_clock_step(qts, 1000);
    g_assert_cmphex(qtest_readl(qts, DT_PMOVSR), ==, BIT(3));
    g_assert_false(qtest_get_irq(qts, 0));
    qtest_writel(qts, MN_ERRINT, 0x08);
    g_assert_true(qtest_get_irq(qts, 0));
    qtest_writel(qts, DT_PMOVSR_CLR, 0x1ff);
    g_assert_false(qtest_get_irq(qts, 0));
    /* fault injection: advance a counter past 2^32 over QMP */
    qtest_qmp_assert_success(qts, "{'execute': 'qom-set', 'arguments': "
                             "{'path': 'ccn', 'property': 'advance', "
                             "'value': '3=4294967295'}}");
    g_assert_true(qtest_get_irq(qts, 0));
    g_assert_cmphex(qtest_readl(qts, DT_PMOVSR), ==, BIT(3));
    qtest_quit(qts);
}

/* Above 2^32 events/s the overflow is still raised when due, not later */
static void test_overflow_fast(void)
{
    QTestState *qts = ccn_start(",traffic=t0 -object hisi-traffic,id=t0,"
                                "rules=node=2,,stream=ring-req-rx,,"
                                "rate=8000000000");

    qtest_writel(qts, DT_CTL, 1);
    qtest_writel(qts, DT_PMCR, PMCR_OVFL_INTR_EN | PMCR_PMU_EN);
    qtest_writel(qts, XP_DT_CONTROL(1), 0x000ff001);
    qtest_writel(qts, MN_ERRINT, 0x08);
    qtest_writel(qts, NODE_EVENT_SEL(HNF2), HNF_POCQ_REQS_RECVD);
    ccn_count(qts, 3, 1, 0x8);
    /* 8 requests a ns: 10 us to go */
    qtest_writel(qts, DT_PMEVCNT(3), 0xffffffff - 80000 + 1);
    qtest_clock_step(qts, 9000);
    g_assert_false(qtest_get_irq(qts, 0));
    qtest_clock_step(qts, 2000);
    g_assert_true(qtest_get_irq(qts, 0));
    g_assert_cmphex(qtest_readl(qts, DT_PMOVSR), ==, BIT(3));
    qtest_quit(qts);
}

/* A watchpoint on the MN's DVM operations, as the mn_dvmop event sets it */
static void test_watchpoint_opcode(void)
{
    QTestState *qts = ccn_init();
    uint32_t dvm, any;

    /* MN is node 12: XP 6, port 0; dir 1 (sent), vc 0; opcode mask */
    qtest_writel(qts, XP_INTERFACE_SEL(6), 1 | 0 << 1 | 0 << 2);
    qtest_writel(qts, XP_CMP_VAL_H(6), 0x14 << 9);
    qtest_writel(qts, XP_CMP_MASK_L(6), 0xffffffff);
    qtest_writel(qts, XP_CMP_MASK_L(6) + 4, 0x7fffffff);
    qtest_writel(qts, XP_CMP_MASK_H(6), ~(0x1fu << 9));
    qtest_writel(qts, XP_CMP_MASK_H(6) + 4, 0x0fffffff);
    ccn_count(qts, 0, 6, 0x2);
    /* XP 6's valid_flit, vc 0, bus 0: every MN request, both ways */
    qtest_writel(qts, XP_EVENT_SEL(6), 4);
    ccn_count(qts, 1, 6, 0x4);
    qtest_clock_step(qts, 100000000);   /* 0.1 s: 1000 requests sent */
    dvm = qtest_readl(qts, DT_PMEVCNT(0));
    any = qtest_readl(qts, DT_PMEVCNT(1));
    g_assert_cmpuint(dvm, >, 0);
    g_assert_cmpuint(dvm, <, 1000);
    g_assert_cmpuint(any, ==, 2000);
    qtest_quit(qts);
}

/* Bad widths and offsets are logged and change nothing. */
static void test_bad_accesses(void)
{
    QTestState *qts = ccn_init();

    g_assert_cmphex(qtest_readw(qts, DT_PMCR), ==, 0);
    g_assert_cmphex(qtest_readq(qts, DT_PMCR), ==, 0);
    qtest_writeq(qts, DT_PMCR, 0);
    g_assert_cmphex(qtest_readl(qts, DT_PMCR), ==,
                    PMCR_OVFL_INTR_EN | PMCR_PMU_EN);
    qtest_writel(qts, HNF2 + OLY_ID, 0);
    g_assert_cmphex(qtest_readl(qts, HNF2 + OLY_ID), ==, 0x04 | 2 << 8);
    g_assert_cmphex(qtest_readl(qts, DT + 0x0500), ==, 0);
    /* a counter pointed at a missing XP counts nothing */
    ccn_count(qts, 4, 10, 0x8);
    qtest_writel(qts, DT_ACTIVE_DSM + 4, 0x3f);
    qtest_clock_step(qts, 1000000);
    g_assert_cmpuint(qtest_readl(qts, DT_PMEVCNT(4)), ==, 0);
    qtest_quit(qts);
}

/* Counting and a pending overflow go on after migration. */
static void test_migration(void)
{
    QTestState *src = ccn_init(), *dst;
    uint32_t cnt;

    qtest_writel(src, NODE_EVENT_SEL(HNF2), HNF_POCQ_REQS_RECVD);
    ccn_count(src, 5, 1, 0x8);
    qtest_writel(src, DT_PMEVCNT(6), 0xffffffff);
    qtest_qmp_assert_success(src, "{'execute': 'qom-set', 'arguments': "
                             "{'path': 'ccn', 'property': 'advance', "
                             "'value': '6=1'}}");
    g_assert_true(qtest_get_irq(src, 0));
    qtest_clock_step(src, 1000000);
    cnt = qtest_readl(src, DT_PMEVCNT(5));
    g_assert_cmpuint(cnt, ==, HNF_RATE / 1000);
    dst = ccn_start(" -incoming defer");
    hisi_migrate_into(src, dst);
    /* (the interrupt controller's state carries the line's level) */
    g_assert_cmphex(qtest_readl(dst, DT_PMOVSR), ==, BIT(6));
    g_assert_cmphex(qtest_readl(dst, MN_ERR_SIG_VAL), ==, BIT(1));
    g_assert_cmpuint(qtest_readl(dst, DT_PMEVCNT(5)), ==, cnt);
    qtest_clock_step(dst, 1000000);
    g_assert_cmpuint(qtest_readl(dst, DT_PMEVCNT(5)), ==, 2 * cnt);
    qtest_quit(dst);
    qtest_quit(src);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/arm-ccn/topology", test_topology);
    qtest_add_func("/arm-ccn/exact-counts", test_exact_counts);
    qtest_add_func("/arm-ccn/overflow", test_overflow);
    qtest_add_func("/arm-ccn/overflow-fast", test_overflow_fast);
    qtest_add_func("/arm-ccn/watchpoint-opcode", test_watchpoint_opcode);
    qtest_add_func("/arm-ccn/bad-accesses", test_bad_accesses);
    qtest_add_func("/arm-ccn/migration", test_migration);
    return g_test_run();
}
