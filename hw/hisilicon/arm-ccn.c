/*
 * ARM CCN-504 cache coherent network: its PMU
 *
 * The CCN's PMU as the arm-ccn driver (drivers/perf/arm-ccn.c) sees it: a
 * platform device described in the device tree, 256 regions of 64 KiB, the
 * Miscellaneous Node (MN) in region 0 listing the regions present, the
 * Debug and Trace block (DT) in region 1 with eight 32-bit event counters
 * and a 40-bit cycle counter, crosspoints (XPs) with watchpoints and event
 * sources, and device nodes (HN-F, HN-I, RN-I, SBAS, SBSX) with event
 * sources. Reference: Linux Documentation/admin-guide/perf/arm-ccn.rst.
 *
 * The ring's traffic comes from the hisi-traffic object
 * (model/ring-traffic.c): flits of each node's eight streams, with the
 * node and XP events and the watchpoint matches defined on them, so counts
 * are O(1) sums computed when the guest reads a counter or something
 * changes. Cycles count at "clock-freq" Hz of virtual time. No timer runs
 * but one armed when a counter is due to overflow with the overflow
 * interrupt enabled.
 *
 * The topology (node ids, types, regions) is fixed, CCN-504-like: 11 XPs
 * and the nodes in arm_ccn_nodes[]; docs/arm-ccn.md has the map.
 *
 * Not modelled: the CCN's error reporting beyond the PMU overflow, the
 * 32-bit ARM snapshot path's timing (the snapshot is taken at once), the
 * watchpoints' "arm" conditions (always armed, as the driver sets them).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qemu/timer.h"
#include "qapi/error.h"
#include "hw/irq.h"
#include "hw/qdev-properties.h"
#include "hw/registerfields.h"
#include "hw/sysbus.h"
#include "migration/vmstate.h"
#include "trace.h"
#include "hisi-pcie-core.h"
#include "hisi-traffic.h"
#include "model/ring-traffic.h"

#define TYPE_ARM_CCN "arm-ccn"
OBJECT_DECLARE_SIMPLE_TYPE(ArmCcnState, ARM_CCN)

#define CCN_REGION_SIZE     0x10000
#define CCN_REGIONS         256
#define CCN_MMIO_SIZE       (CCN_REGION_SIZE * CCN_REGIONS)
#define CCN_COUNTERS        8
#define CCN_CYCLE_IDX       8       /* its PMOVSR bit */
#define CCN_XPS             11
#define CCN_NODES           (2 * CCN_XPS)
#define CCN_WPS             2
#define CCN_EVENT_MASK      0xffffffffull
#define CCN_CYCLE_MASK      0xffffffffffull

#define CCN_TYPE_DT         0x02

/* Every region */
REG32(ALL_OLY_ID, 0xff00)
    FIELD(ALL_OLY_ID, TYPE, 0, 5)
    FIELD(ALL_OLY_ID, ID, 8, 6)

/* MN, region 0 */
REG32(MN_ERRINT_STATUS, 0x0008)
    FIELD(MN_ERRINT_STATUS, INTREQ_UPDATE, 0, 1)
    FIELD(MN_ERRINT_STATUS, PMU_EVENTS_DISABLED, 7, 1)
REG32(MN_OLY_COMP_LIST, 0x01e0)
REG32(MN_ERR_SIG_VAL, 0x0300)
    FIELD(MN_ERR_SIG_VAL, DT, 1, 1)
#define MN_ERR_SIG_WORDS    6

/* DT, region 1 */
REG32(DT_ACTIVE_DSM, 0x0000)
REG32(DT_CTL, 0x0028)
    FIELD(DT_CTL, DT_EN, 0, 1)
REG32(DT_PMEVCNT, 0x0100)           /* + 8 * idx */
REG64(DT_PMCCNTR, 0x0140)
REG32(DT_PMCCNTRSR, 0x0190)         /* the snapshot: low word, then high */
REG32(DT_PMOVSR, 0x0198)
REG32(DT_PMOVSR_CLR, 0x01a0)
REG32(DT_PMCR, 0x01a8)
    FIELD(DT_PMCR, PMU_EN, 0, 1)
    FIELD(DT_PMCR, OVFL_INTR_EN, 6, 1)
REG32(DT_PMSR, 0x01b0)
REG32(DT_PMSR_REQ, 0x01b8)
REG32(DT_PMSR_CLR, 0x01c0)
#define DT_PMOVSR_MASK      0x1ff

/* XP regions */
REG32(XP_DT_CONFIG, 0x0300)         /* a nibble per counter */
REG32(XP_DT_INTERFACE_SEL, 0x0308)  /* a byte per watchpoint */
    FIELD(XP_DT_INTERFACE_SEL, IO_SEL, 0, 1)
    FIELD(XP_DT_INTERFACE_SEL, DEV_SEL, 1, 1)
    FIELD(XP_DT_INTERFACE_SEL, VC_SEL, 2, 2)
REG32(XP_DT_CMP_VAL_L, 0x0310)      /* + 0x40 * wp, 64 bits as two words */
REG32(XP_DT_CMP_VAL_H, 0x0318)
REG32(XP_DT_CMP_MASK_L, 0x0320)
REG32(XP_DT_CMP_MASK_H, 0x0328)
REG32(XP_DT_CONTROL, 0x0370)
    FIELD(XP_DT_CONTROL, DT_ENABLE, 0, 1)
REG32(XP_PMU_EVENT_SEL, 0x0600)     /* 7 bits per source */

/* Device node regions */
REG32(NODE_PMU_EVENT_SEL, 0x0600)   /* 4 bits per source */

/* What XP_DT_CONFIG's nibble for a counter selects */
#define DT_CONFIG_WP0       0x2
#define DT_CONFIG_XP_EVENT  0x4
#define DT_CONFIG_NODE      0x8

typedef struct CcnNodeInfo {
    uint8_t region;
    uint8_t type;
    uint8_t id;
} CcnNodeInfo;

/*
 * The regions: MN, DT, device nodes (node n on XP n / 2, port n % 2) and
 * the XPs 0..10 (dense, as the driver needs).
 */
static const CcnNodeInfo arm_ccn_nodes[] = {
    { 0x00, RING_TYPE_MN, 12 },
    { 0x01, CCN_TYPE_DT, 0 },
    { 0x20, RING_TYPE_RNI_1P + 2, 0 },      /* RN-I 3P */
    { 0x21, RING_TYPE_RNI_1P + 2, 1 },
    { 0x22, RING_TYPE_HNF, 2 },
    { 0x23, RING_TYPE_HNF, 3 },
    { 0x24, RING_TYPE_HNF, 4 },
    { 0x25, RING_TYPE_HNF, 5 },
    { 0x26, RING_TYPE_HNI, 6 },
    { 0x27, RING_TYPE_SBAS, 7 },
    { 0x28, RING_TYPE_HNF, 8 },
    { 0x29, RING_TYPE_HNF, 9 },
    { 0x2a, RING_TYPE_HNF, 10 },
    { 0x2b, RING_TYPE_HNF, 11 },
    { 0x2d, RING_TYPE_SBSX, 13 },
    { 0x80, RING_TYPE_XP, 0 }, { 0x81, RING_TYPE_XP, 1 },
    { 0x82, RING_TYPE_XP, 2 }, { 0x83, RING_TYPE_XP, 3 },
    { 0x84, RING_TYPE_XP, 4 }, { 0x85, RING_TYPE_XP, 5 },
    { 0x86, RING_TYPE_XP, 6 }, { 0x87, RING_TYPE_XP, 7 },
    { 0x88, RING_TYPE_XP, 8 }, { 0x89, RING_TYPE_XP, 9 },
    { 0x8a, RING_TYPE_XP, 10 },
};

typedef struct CcnXp {
    uint32_t dt_config;
    uint32_t interface_sel;
    uint64_t cmp_l[CCN_WPS];
    uint64_t cmp_h[CCN_WPS];
    uint64_t mask_l[CCN_WPS];
    uint64_t mask_h[CCN_WPS];
    uint32_t dt_control;
    uint32_t pmu_event_sel;
} CcnXp;

struct ArmCcnState {
    SysBusDevice parent_obj;

    MemoryRegion mmio;
    qemu_irq irq;
    QEMUTimer *overflow_timer;  /* armed when an overflow interrupt is due */
    Notifier traffic_changed;
    const CcnNodeInfo *region[CCN_REGIONS];
    RingStream streams[RING_NODE_STREAMS];

    /* properties */
    uint32_t clock_freq;
    HisiTraffic *traffic;

    uint32_t errint;            /* MN_ERRINT_STATUS fields, bits 7:4 */
    uint32_t active_dsm[2];
    uint32_t dt_ctl;
    uint32_t pmcr;
    uint32_t pmovsr;
    uint32_t pmsr;
    uint32_t pmevcnt[CCN_COUNTERS];
    uint64_t pmccntr;
    uint64_t cycle_frac;        /* ns * clock-freq mod 1e9, kept exact */
    uint64_t pmccntr_snapshot;
    CcnXp xp[CCN_XPS];
    uint32_t node_event_sel[CCN_NODES];
    int64_t since;              /* ns: counted up to here */
};

static int64_t ccn_now(void)
{
    return qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
}

static const CcnNodeInfo *ccn_node(uint8_t id)
{
    for (size_t i = 0; i < ARRAY_SIZE(arm_ccn_nodes); i++) {
        const CcnNodeInfo *n = &arm_ccn_nodes[i];

        if (n->id == id && n->type != RING_TYPE_XP &&
            n->type != CCN_TYPE_DT) {
            return n;
        }
    }
    return NULL;
}

/* The streams of node @id into s->streams; false when there is no node */
static bool ccn_node_streams(ArmCcnState *s, uint8_t id, uint8_t *type)
{
    const CcnNodeInfo *n = ccn_node(id);

    if (!n) {
        return false;
    }
    hisi_traffic_ring_streams(s->traffic, s->streams, id, n->type);
    *type = n->type;
    return true;
}

/* What event counter @idx counts, as the registers stand */
typedef struct CcnSource {
    bool watchpoint;
    unsigned wp;
    uint8_t xp;
    uint8_t node;
    RingEventDef def;
} CcnSource;

static bool ccn_source(ArmCcnState *s, unsigned idx, CcnSource *src,
                       uint8_t *type)
{
    uint8_t xp = extract32(s->active_dsm[idx / 4], (idx % 4) * 8, 8);
    CcnXp *x;
    unsigned nib;

    if (!FIELD_EX32(s->dt_ctl, DT_CTL, DT_EN) ||
        !FIELD_EX32(s->pmcr, DT_PMCR, PMU_EN) || xp >= CCN_XPS) {
        return false;
    }
    x = &s->xp[xp];
    nib = extract32(x->dt_config, idx * 4, 4);
    if (!FIELD_EX32(x->dt_control, XP_DT_CONTROL, DT_ENABLE) ||
        nib < DT_CONFIG_WP0) {
        return false;
    }
    src->xp = xp;
    if (nib < DT_CONFIG_XP_EVENT) {
        uint8_t sel = extract32(x->interface_sel, (nib - DT_CONFIG_WP0) * 8,
                                8);

        src->watchpoint = true;
        src->wp = nib - DT_CONFIG_WP0;
        src->node = xp * 2 + FIELD_EX32(sel, XP_DT_INTERFACE_SEL, DEV_SEL);
        src->def.vc = FIELD_EX32(sel, XP_DT_INTERFACE_SEL, VC_SEL);
        src->def.dirs = BIT(FIELD_EX32(sel, XP_DT_INTERFACE_SEL, IO_SEL));
        return ccn_node_streams(s, src->node, type);
    }
    src->watchpoint = false;
    if (nib < DT_CONFIG_NODE) {
        uint8_t id = extract32(x->pmu_event_sel,
                               (nib - DT_CONFIG_XP_EVENT) * 7, 6);

        src->node = xp * 2 + extract32(id, 3, 1);
        return ring_xp_event(extract32(id, 0, 3), extract32(id, 4, 2),
                             &src->def) &&
               ccn_node_streams(s, src->node, type);
    }
    src->node = xp * 2 + (nib - DT_CONFIG_NODE) / 4;
    return ccn_node_streams(s, src->node, type) &&
           ring_node_event(*type,
                           extract32(s->node_event_sel[src->node],
                                     ((nib - DT_CONFIG_NODE) % 4) * 4, 4),
                           &src->def);
}

/* Flits counter @idx counts in [t0, t1) (s->streams: its node's) */
static uint64_t ccn_count(ArmCcnState *s, const CcnSource *src, int64_t t0,
                          int64_t t1)
{
    const CcnXp *x = &s->xp[src->xp];
    unsigned dir = src->def.dirs & BIT(RING_TX) ? RING_TX : RING_RX;

    if (src->watchpoint) {
        return ring_flits_matching(&s->streams[src->def.vc * 2 + dir],
                                   x->cmp_l[src->wp], x->cmp_h[src->wp],
                                   x->mask_l[src->wp], x->mask_h[src->wp],
                                   t0, t1);
    }
    return ring_event_count(s->streams, &src->def, t0, t1);
}

static void ccn_update_irq(ArmCcnState *s)
{
    bool level = s->pmovsr && FIELD_EX32(s->pmcr, DT_PMCR, OVFL_INTR_EN) &&
                 !FIELD_EX32(s->errint, MN_ERRINT_STATUS,
                             PMU_EVENTS_DISABLED);

    qemu_set_irq(s->irq, level);
}

/* Count everything up to @now. */
static void ccn_fold(ArmCcnState *s, int64_t now)
{
    uint32_t overflowed = 0;

    /* A time before the last (a qtest clock restarts after migration) */
    if (now <= s->since) {
        s->since = now;
        return;
    }
    for (unsigned idx = 0; idx < CCN_COUNTERS; idx++) {
        CcnSource src;
        uint8_t type;
        uint64_t sum;

        if (!ccn_source(s, idx, &src, &type)) {
            continue;
        }
        sum = s->pmevcnt[idx] + ccn_count(s, &src, s->since, now);
        if (sum > CCN_EVENT_MASK) {
            overflowed |= BIT(idx);
        }
        s->pmevcnt[idx] = sum;
    }
    if (FIELD_EX32(s->pmcr, DT_PMCR, PMU_EN)) {
        unsigned __int128 total = (unsigned __int128)(now - s->since) *
                                  s->clock_freq + s->cycle_frac;
        uint64_t sum = s->pmccntr + (uint64_t)(total / NANOSECONDS_PER_SECOND);

        s->cycle_frac = total % NANOSECONDS_PER_SECOND;
        if (sum > CCN_CYCLE_MASK) {
            overflowed |= BIT(CCN_CYCLE_IDX);
        }
        s->pmccntr = sum & CCN_CYCLE_MASK;
    }
    s->since = now;
    if (overflowed) {
        trace_arm_ccn_overflow(overflowed);
        s->pmovsr |= overflowed;
        ccn_update_irq(s);
    }
}

/*
 * Arm the timer for the earliest overflow, when it would interrupt: an
 * early bound from the rates of the streams each counter watches.
 */
static void ccn_schedule(ArmCcnState *s, int64_t now)
{
    int64_t due = INT64_MAX;

    if (!FIELD_EX32(s->pmcr, DT_PMCR, OVFL_INTR_EN) ||
        !FIELD_EX32(s->pmcr, DT_PMCR, PMU_EN)) {
        timer_del(s->overflow_timer);
        return;
    }
    for (unsigned idx = 0; idx < CCN_COUNTERS; idx++) {
        uint64_t rate = 0;
        CcnSource src;
        uint8_t type;

        if (!ccn_source(s, idx, &src, &type)) {
            continue;
        }
        for (unsigned dir = 0; dir < 2; dir++) {
            if (src.def.dirs & BIT(dir)) {
                rate += s->streams[src.def.vc * 2 + dir].flow.rate;
            }
        }
        /* as a 64-bit counter at 2^64 - 2^32 + value */
        due = MIN(due, hisi_pmu_overflow_due(now, s->pmevcnt[idx] |
                                             ~CCN_EVENT_MASK, rate));
    }
    due = MIN(due, hisi_pmu_overflow_due(now, s->pmccntr | ~CCN_CYCLE_MASK,
                                         s->clock_freq));
    if (due == INT64_MAX) {
        timer_del(s->overflow_timer);
    } else {
        timer_mod(s->overflow_timer, MAX(due, now + 1));
    }
}

static void ccn_overflow_timer_cb(void *opaque)
{
    ArmCcnState *s = opaque;
    int64_t now = ccn_now();

    ccn_fold(s, now);
    ccn_schedule(s, now);
}

static void ccn_traffic_changed(Notifier *n, void *data)
{
    ArmCcnState *s = container_of(n, ArmCcnState, traffic_changed);
    HisiTrafficChange *change = data;

    if (change->done) {
        ccn_schedule(s, change->now);
    } else {
        ccn_fold(s, change->now);
    }
}

static uint32_t ccn_mn_read(ArmCcnState *s, hwaddr off)
{
    if (off == A_MN_ERRINT_STATUS) {
        return s->errint;
    }
    if (off >= A_MN_OLY_COMP_LIST && off < A_MN_OLY_COMP_LIST + 32) {
        uint32_t val = 0;
        unsigned first = (off - A_MN_OLY_COMP_LIST) / 4 * 32;

        for (size_t i = 0; i < ARRAY_SIZE(arm_ccn_nodes); i++) {
            unsigned r = arm_ccn_nodes[i].region;

            if (r >= first && r < first + 32) {
                val |= BIT(r - first);
            }
        }
        return val;
    }
    if (off >= A_MN_ERR_SIG_VAL && off < A_MN_ERR_SIG_VAL + 4 *
        MN_ERR_SIG_WORDS) {
        /* Only the DT's overflow is ever signalled. */
        return off == A_MN_ERR_SIG_VAL && s->pmovsr ?
               R_MN_ERR_SIG_VAL_DT_MASK : 0;
    }
    qemu_log_mask(LOG_GUEST_ERROR, "arm-ccn: read of unknown MN register "
                  "0x%04" HWADDR_PRIx "\n", off);
    return 0;
}

static uint64_t ccn_dt_read(ArmCcnState *s, hwaddr off, unsigned size)
{
    if (off < A_DT_ACTIVE_DSM + 8) {
        return s->active_dsm[off / 4];
    }
    if (off >= A_DT_PMEVCNT && off < A_DT_PMEVCNT + 8 * CCN_COUNTERS &&
        !(off & 7)) {
        ccn_fold(s, ccn_now());
        return s->pmevcnt[(off - A_DT_PMEVCNT) / 8];
    }
    switch (off) {
    case A_DT_CTL:
        return s->dt_ctl;
    case A_DT_PMCCNTR:
        ccn_fold(s, ccn_now());
        return size == 8 ? s->pmccntr : extract64(s->pmccntr, 0, 32);
    case A_DT_PMCCNTR + 4:
        ccn_fold(s, ccn_now());
        return extract64(s->pmccntr, 32, 32);
    case A_DT_PMCCNTRSR:
        return extract64(s->pmccntr_snapshot, 0, 32);
    case A_DT_PMCCNTRSR + 4:
        return extract64(s->pmccntr_snapshot, 32, 8);
    case A_DT_PMOVSR:
        ccn_fold(s, ccn_now());
        return s->pmovsr;
    case A_DT_PMCR:
        return s->pmcr;
    case A_DT_PMSR:
        return s->pmsr;
    }
    qemu_log_mask(LOG_GUEST_ERROR, "arm-ccn: read of unknown DT register "
                  "0x%04" HWADDR_PRIx "\n", off);
    return 0;
}

/* XP comparator registers: which one, of which watchpoint, which word */
static uint64_t *ccn_xp_cmp(CcnXp *x, hwaddr off, unsigned *word)
{
    unsigned wp = (off - A_XP_DT_CMP_VAL_L) / 0x40;
    hwaddr reg = off - wp * 0x40;

    if (off < A_XP_DT_CMP_VAL_L || wp >= CCN_WPS ||
        reg >= A_XP_DT_CMP_MASK_H + 8) {
        return NULL;
    }
    *word = (reg & 4) ? 1 : 0;
    switch (reg & ~7) {
    case A_XP_DT_CMP_VAL_L:
        return &x->cmp_l[wp];
    case A_XP_DT_CMP_VAL_H:
        return &x->cmp_h[wp];
    case A_XP_DT_CMP_MASK_L:
        return &x->mask_l[wp];
    default:
        return &x->mask_h[wp];
    }
}

static uint32_t ccn_xp_read(ArmCcnState *s, CcnXp *x, hwaddr off)
{
    unsigned word;
    uint64_t *cmp = ccn_xp_cmp(x, off, &word);

    if (cmp) {
        return extract64(*cmp, word * 32, 32);
    }
    switch (off) {
    case A_XP_DT_CONFIG:
        return x->dt_config;
    case A_XP_DT_INTERFACE_SEL:
        return x->interface_sel;
    case A_XP_DT_CONTROL:
        return x->dt_control;
    case A_XP_PMU_EVENT_SEL:
        return x->pmu_event_sel;
    }
    qemu_log_mask(LOG_GUEST_ERROR, "arm-ccn: read of unknown XP register "
                  "0x%04" HWADDR_PRIx "\n", off);
    return 0;
}

static bool ccn_access_ok(hwaddr addr, unsigned size)
{
    hwaddr off = addr % CCN_REGION_SIZE;
    bool wide = addr / CCN_REGION_SIZE == 1 && off == A_DT_PMCCNTR;

    return (size == 4 || (size == 8 && wide)) && !(addr & (size - 1));
}

static uint64_t arm_ccn_read(void *opaque, hwaddr addr, unsigned size)
{
    ArmCcnState *s = opaque;
    const CcnNodeInfo *n = s->region[addr / CCN_REGION_SIZE];
    hwaddr off = addr % CCN_REGION_SIZE;
    uint64_t val = 0;

    if (!ccn_access_ok(addr, size)) {
        qemu_log_mask(LOG_GUEST_ERROR, "arm-ccn: %u-byte read at 0x%06"
                      HWADDR_PRIx ": only aligned 32-bit accesses, and "
                      "64-bit ones to PMCCNTR\n", size, addr);
    } else if (!n) {
        qemu_log_mask(LOG_GUEST_ERROR, "arm-ccn: read at 0x%06" HWADDR_PRIx
                      " of region %u, which is not present\n", addr,
                      (unsigned)(addr / CCN_REGION_SIZE));
    } else if (off == A_ALL_OLY_ID) {
        val = FIELD_DP32(n->type, ALL_OLY_ID, ID, n->id);
    } else if (n->type == RING_TYPE_MN) {
        val = ccn_mn_read(s, off);
    } else if (n->type == CCN_TYPE_DT) {
        val = ccn_dt_read(s, off, size);
    } else if (n->type == RING_TYPE_XP) {
        val = ccn_xp_read(s, &s->xp[n->id], off);
    } else if (off == A_NODE_PMU_EVENT_SEL) {
        val = s->node_event_sel[n->id];
    } else {
        qemu_log_mask(LOG_GUEST_ERROR, "arm-ccn: read of unknown node "
                      "register 0x%04" HWADDR_PRIx "\n", off);
    }
    trace_arm_ccn_read(addr, size, val);
    return val;
}

static void ccn_mn_write(ArmCcnState *s, hwaddr off, uint32_t val)
{
    if (off != A_MN_ERRINT_STATUS) {
        qemu_log_mask(LOG_GUEST_ERROR, "arm-ccn: write to unknown or "
                      "read-only MN register 0x%04" HWADDR_PRIx " ignored\n",
                      off);
        return;
    }
    /*
     * Bit n of the low nibble updates field n, to bit n + 4; field 0 is
     * the interrupt request, whose deassertion holds only while nothing
     * is pending (the line follows the overflow status).
     */
    for (unsigned f = 1; f < 4; f++) {
        if (val & BIT(f)) {
            s->errint = deposit32(s->errint, f + 4, 1,
                                  extract32(val, f + 4, 1));
        }
    }
    ccn_update_irq(s);
}

static void ccn_dt_write(ArmCcnState *s, hwaddr off, uint32_t val)
{
    if (off < A_DT_ACTIVE_DSM + 8) {
        s->active_dsm[off / 4] = val;
        return;
    }
    if (off >= A_DT_PMEVCNT && off < A_DT_PMEVCNT + 8 * CCN_COUNTERS &&
        !(off & 7)) {
        s->pmevcnt[(off - A_DT_PMEVCNT) / 8] = val;
        return;
    }
    switch (off) {
    case A_DT_CTL:
        s->dt_ctl = val & R_DT_CTL_DT_EN_MASK;
        break;
    case A_DT_PMCCNTR:
        s->pmccntr = deposit64(s->pmccntr, 0, 32, val);
        break;
    case A_DT_PMCCNTR + 4:
        s->pmccntr = deposit64(s->pmccntr, 32, 8, val);
        break;
    case A_DT_PMOVSR_CLR:
        s->pmovsr &= ~val;
        ccn_update_irq(s);
        break;
    case A_DT_PMCR:
        s->pmcr = val & (R_DT_PMCR_PMU_EN_MASK | R_DT_PMCR_OVFL_INTR_EN_MASK);
        ccn_update_irq(s);
        break;
    case A_DT_PMSR_REQ:
        if (val & 1) {
            s->pmccntr_snapshot = s->pmccntr;
            s->pmsr = 1;
        }
        break;
    case A_DT_PMSR_CLR:
        if (val & 1) {
            s->pmsr = 0;
        }
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "arm-ccn: write to unknown or "
                      "read-only DT register 0x%04" HWADDR_PRIx " ignored\n",
                      off);
    }
}

static void ccn_xp_write(CcnXp *x, hwaddr off, uint32_t val)
{
    unsigned word;
    uint64_t *cmp = ccn_xp_cmp(x, off, &word);

    if (cmp) {
        *cmp = deposit64(*cmp, word * 32, 32, val);
        return;
    }
    switch (off) {
    case A_XP_DT_CONFIG:
        x->dt_config = val;
        break;
    case A_XP_DT_INTERFACE_SEL:
        x->interface_sel = val;
        break;
    case A_XP_DT_CONTROL:
        x->dt_control = val;
        break;
    case A_XP_PMU_EVENT_SEL:
        x->pmu_event_sel = val;
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "arm-ccn: write to unknown XP "
                      "register 0x%04" HWADDR_PRIx " ignored\n", off);
    }
}

static void arm_ccn_write(void *opaque, hwaddr addr, uint64_t val,
                          unsigned size)
{
    ArmCcnState *s = opaque;
    const CcnNodeInfo *n = s->region[addr / CCN_REGION_SIZE];
    hwaddr off = addr % CCN_REGION_SIZE;
    int64_t now = ccn_now();

    trace_arm_ccn_write(addr, size, val);
    if (!ccn_access_ok(addr, size) || size == 8) {
        qemu_log_mask(LOG_GUEST_ERROR, "arm-ccn: %u-byte write at 0x%06"
                      HWADDR_PRIx " ignored: only aligned 32-bit writes\n",
                      size, addr);
        return;
    }
    if (!n) {
        qemu_log_mask(LOG_GUEST_ERROR, "arm-ccn: write at 0x%06" HWADDR_PRIx
                      " of region %u, which is not present, ignored\n", addr,
                      (unsigned)(addr / CCN_REGION_SIZE));
        return;
    }
    /* Counts up to now go by the old settings. */
    ccn_fold(s, now);
    if (off == A_ALL_OLY_ID) {
        qemu_log_mask(LOG_GUEST_ERROR, "arm-ccn: write to the read-only ID "
                      "register of region %u ignored\n", n->region);
    } else if (n->type == RING_TYPE_MN) {
        ccn_mn_write(s, off, val);
    } else if (n->type == CCN_TYPE_DT) {
        ccn_dt_write(s, off, val);
    } else if (n->type == RING_TYPE_XP) {
        ccn_xp_write(&s->xp[n->id], off, val);
    } else if (off == A_NODE_PMU_EVENT_SEL) {
        s->node_event_sel[n->id] = val;
    } else {
        qemu_log_mask(LOG_GUEST_ERROR, "arm-ccn: write to unknown node "
                      "register 0x%04" HWADDR_PRIx " ignored\n", off);
    }
    ccn_schedule(s, now);
}

static const MemoryRegionOps arm_ccn_ops = {
    .read = arm_ccn_read,
    .write = arm_ccn_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    /* Other sizes reach the handlers to be logged as guest errors. */
    .valid.min_access_size = 1,
    .valid.max_access_size = 8,
    .impl.min_access_size = 1,
    .impl.max_access_size = 8,
};

static void arm_ccn_reset_hold(Object *obj, ResetType type)
{
    ArmCcnState *s = ARM_CCN(obj);

    timer_del(s->overflow_timer);
    s->errint = 0;
    memset(s->active_dsm, 0, sizeof(s->active_dsm));
    s->dt_ctl = 0;
    s->pmcr = 0;
    s->pmovsr = 0;
    s->pmsr = 0;
    memset(s->pmevcnt, 0, sizeof(s->pmevcnt));
    s->pmccntr = 0;
    s->cycle_frac = 0;
    s->pmccntr_snapshot = 0;
    memset(s->xp, 0, sizeof(s->xp));
    memset(s->node_event_sel, 0, sizeof(s->node_event_sel));
    s->since = ccn_now();
}

static void arm_ccn_reset_exit(Object *obj, ResetType type)
{
    ccn_update_irq(ARM_CCN(obj));
}

/*
 * Fault injection: qom-set "advance" to "IDX=N" adds N (mod 2^32) to event
 * counter IDX as if counted, to reach its overflow soon.
 */
static void ccn_set_advance(Object *obj, const char *value, Error **errp)
{
    ArmCcnState *s = ARM_CCN(obj);
    int64_t now = ccn_now();
    unsigned idx;
    uint64_t n;

    if (!hisi_pmu_parse_advance(TYPE_ARM_CCN, value, CCN_COUNTERS, &idx, &n,
                                errp)) {
        return;
    }
    ccn_fold(s, now);
    if (s->pmevcnt[idx] + (n & CCN_EVENT_MASK) > CCN_EVENT_MASK) {
        s->pmovsr |= BIT(idx);
        ccn_update_irq(s);
    }
    s->pmevcnt[idx] += n;
    ccn_schedule(s, now);
}

static void arm_ccn_realize(DeviceState *dev, Error **errp)
{
    ArmCcnState *s = ARM_CCN(dev);

    if (!s->clock_freq || s->clock_freq > NANOSECONDS_PER_SECOND) {
        error_setg(errp, "arm-ccn: clock-freq must be 1..1000000000 Hz "
                   "(got %u)", s->clock_freq);
        return;
    }
    for (size_t i = 0; i < ARRAY_SIZE(arm_ccn_nodes); i++) {
        s->region[arm_ccn_nodes[i].region] = &arm_ccn_nodes[i];
    }
    memory_region_init_io(&s->mmio, OBJECT(s), &arm_ccn_ops, s, "arm-ccn",
                          CCN_MMIO_SIZE);
    sysbus_init_mmio(SYS_BUS_DEVICE(s), &s->mmio);
    sysbus_init_irq(SYS_BUS_DEVICE(s), &s->irq);
    s->overflow_timer = timer_new_ns(QEMU_CLOCK_VIRTUAL,
                                     ccn_overflow_timer_cb, s);
    s->traffic = hisi_traffic_observe(s->traffic, &s->traffic_changed,
                                      ccn_traffic_changed);
}

static void arm_ccn_unrealize(DeviceState *dev)
{
    ArmCcnState *s = ARM_CCN(dev);

    hisi_traffic_remove_change_notifier(&s->traffic_changed);
    timer_free(s->overflow_timer);
}

static const VMStateDescription vmstate_ccn_xp = {
    .name = "arm-ccn-xp",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(dt_config, CcnXp),
        VMSTATE_UINT32(interface_sel, CcnXp),
        VMSTATE_UINT64_ARRAY(cmp_l, CcnXp, CCN_WPS),
        VMSTATE_UINT64_ARRAY(cmp_h, CcnXp, CCN_WPS),
        VMSTATE_UINT64_ARRAY(mask_l, CcnXp, CCN_WPS),
        VMSTATE_UINT64_ARRAY(mask_h, CcnXp, CCN_WPS),
        VMSTATE_UINT32(dt_control, CcnXp),
        VMSTATE_UINT32(pmu_event_sel, CcnXp),
        VMSTATE_END_OF_LIST()
    },
};

static const VMStateDescription vmstate_arm_ccn = {
    .name = TYPE_ARM_CCN,
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(errint, ArmCcnState),
        VMSTATE_UINT32_ARRAY(active_dsm, ArmCcnState, 2),
        VMSTATE_UINT32(dt_ctl, ArmCcnState),
        VMSTATE_UINT32(pmcr, ArmCcnState),
        VMSTATE_UINT32(pmovsr, ArmCcnState),
        VMSTATE_UINT32(pmsr, ArmCcnState),
        VMSTATE_UINT32_ARRAY(pmevcnt, ArmCcnState, CCN_COUNTERS),
        VMSTATE_UINT64(pmccntr, ArmCcnState),
        VMSTATE_UINT64(cycle_frac, ArmCcnState),
        VMSTATE_UINT64(pmccntr_snapshot, ArmCcnState),
        VMSTATE_STRUCT_ARRAY(xp, ArmCcnState, CCN_XPS, 1, vmstate_ccn_xp,
                             CcnXp),
        VMSTATE_UINT32_ARRAY(node_event_sel, ArmCcnState, CCN_NODES),
        VMSTATE_INT64(since, ArmCcnState),
        VMSTATE_TIMER_PTR(overflow_timer, ArmCcnState),
        VMSTATE_END_OF_LIST()
    },
};

static const Property arm_ccn_properties[] = {
    DEFINE_PROP_UINT32("clock-freq", ArmCcnState, clock_freq, 1000000000),
    DEFINE_PROP_LINK("traffic", ArmCcnState, traffic, TYPE_HISI_TRAFFIC,
                     HisiTraffic *),
};

static void arm_ccn_instance_init(Object *obj)
{
    object_property_add_str(obj, "advance", NULL, ccn_set_advance);
}

static void arm_ccn_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    dc->realize = arm_ccn_realize;
    dc->unrealize = arm_ccn_unrealize;
    rc->phases.hold = arm_ccn_reset_hold;
    rc->phases.exit = arm_ccn_reset_exit;
    dc->desc = "ARM CCN-504 cache coherent network (its PMU)";
    dc->vmsd = &vmstate_arm_ccn;
    /* -device on machines with a platform bus (virt): a dynamic sysbus */
    dc->user_creatable = true;
    device_class_set_props(dc, arm_ccn_properties);
    set_bit(DEVICE_CATEGORY_MISC, dc->categories);
}

static const TypeInfo arm_ccn_info = {
    .name = TYPE_ARM_CCN,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(ArmCcnState),
    .instance_init = arm_ccn_instance_init,
    .class_init = arm_ccn_class_init,
};

static void arm_ccn_register_types(void)
{
    type_register_static(&arm_ccn_info);
}

type_init(arm_ccn_register_types)
