/*
 * ARM CCN-504 cache coherent network: its PMU
 *
 * The CCN's PMU as the arm-ccn driver (drivers/perf/arm-ccn.c) sees it: a
 * platform device described in the device tree, 256 regions of 64 KiB, the
 * Miscellaneous Node (MN) in region 0 listing the regions present, the
 * Debug and Trace block (DT) in region 1 with eight 32-bit event counters
 * and a 40-bit cycle counter, crosspoints (XPs) with watchpoints and event
 * sources, and device nodes (HN-F, HN-I, RN-I, SBAS, SBSX) with event
 * sources; the RN-F and SN-F nodes have no region. Reference: Linux
 * Documentation/admin-guide/perf/arm-ccn.rst.
 *
 * The ring's traffic comes from the hisi-traffic object
 * (model/ring-traffic.c): flits of each node's eight streams, with the
 * node events and the watchpoint matches (on a device port) defined on
 * them, and the XP events on the ring's two buses, which carry every flit
 * the nodes send from XP to XP; so counts are O(1) sums computed when the
 * guest reads a counter or something changes. Cycles count at
 * "clock-freq" Hz of virtual time. No timer runs but one armed when a
 * counter is due to overflow with the overflow interrupt enabled.
 *
 * The topology (node ids, types, regions) is fixed, CCN-504-like: 11 XPs
 * and the nodes of model_ring_ccn504_types[], those with a region in
 * arm_ccn_nodes[]; docs/devices/arm-ccn.md has the map.
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
#include "qemu/units.h"
#include "qapi/error.h"
#include "hisi-compat.h"
#include HISI_IRQ_H
#include HISI_PLATFORM_BUS_H
#include HISI_QDEV_PROPERTIES_H
#include HISI_SYSBUS_H
#include "migration/vmstate.h"
#include "trace.h"
#include "hisi-pmu.h"
#include "arm-ccn-regs.h"
#include "model/ring-traffic.h"

#define TYPE_ARM_CCN "arm-ccn"
OBJECT_DECLARE_SIMPLE_TYPE(ArmCcnState, ARM_CCN)

#define CCN_XPS             RING_XPS
#define CCN_NODES           RING_NODES
#define CCN_TYPE_DT         0x02
#define CCN_ERR_SIG_DT_WORD 0   /* the ERR_SIG_VAL word of the DT's bit */

/* A watchpoint's comparator registers, in address order */
enum {
    WP_VAL_L,
    WP_VAL_H,
    WP_MASK_L,
    WP_MASK_H,
};

typedef struct CcnNodeInfo {
    uint8_t region;
    uint8_t type;
    uint8_t id;
} CcnNodeInfo;

/*
 * The regions: MN, DT, device nodes (node n on XP n / 2, port n % 2) and
 * the XPs 0..10 (dense, as the driver needs). The device nodes' types are
 * model_ring_ccn504_types[]'s; the RN-Fs (nodes 14-17) and SN-Fs (20, 21)
 * have no region.
 */
static const CcnNodeInfo arm_ccn_nodes[] = {
    { CCN_MN_REGION, RING_TYPE_MN, 12 },
    { CCN_DT_REGION, CCN_TYPE_DT, 0 },
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
    { CCN_XP_REGION(0), RING_TYPE_XP, 0 },
    { CCN_XP_REGION(1), RING_TYPE_XP, 1 },
    { CCN_XP_REGION(2), RING_TYPE_XP, 2 },
    { CCN_XP_REGION(3), RING_TYPE_XP, 3 },
    { CCN_XP_REGION(4), RING_TYPE_XP, 4 },
    { CCN_XP_REGION(5), RING_TYPE_XP, 5 },
    { CCN_XP_REGION(6), RING_TYPE_XP, 6 },
    { CCN_XP_REGION(7), RING_TYPE_XP, 7 },
    { CCN_XP_REGION(8), RING_TYPE_XP, 8 },
    { CCN_XP_REGION(9), RING_TYPE_XP, 9 },
    { CCN_XP_REGION(10), RING_TYPE_XP, 10 },
};

typedef struct CcnXp {
    uint32_t dt_config;
    uint32_t interface_sel;
    uint64_t wp_cmp[CCN_WPS][XP_DT_CMP_REGS];
    uint32_t dt_control;
    uint32_t pmu_event_sel;
} CcnXp;

struct ArmCcnState {
    SysBusDevice parent_obj;

    MemoryRegion mmio;
    qemu_irq irq;
    /* slots 0-7: the event counters; slot CCN_CYCLE_IDX: the cycles */
    HisiPmu pmu;
    const CcnNodeInfo *region[CCN_REGIONS];
    RingStream streams[RING_NODE_STREAMS];

    /* property: the MN's interrupt goes to firmware, not to the OS */
    bool firmware_irq;
    uint32_t errint;            /* MN_ERRINT_STATUS fields, bits 7:4 */
    uint32_t active_dsm[DT_ACTIVE_DSM_WORDS];
    uint32_t dt_ctl;
    uint32_t pmcr;
    uint32_t pmovsr;
    uint32_t pmsr;
    uint64_t pmccntr_snapshot;
    CcnXp xp[CCN_XPS];
    uint32_t node_event_sel[CCN_NODES];
    /*
     * The MN's interrupt request and the DT's bit of ERR_SIG_VAL: set when
     * the DT signals an overflow, the bit cleared by reading its word, the
     * request by the deassert command once the bit was read.
     */
    bool intreq;
    bool err_sig_dt;
};

/* The streams of node @id into s->streams; false when there is no node */
static bool ccn_node_streams(ArmCcnState *s, uint8_t id, uint8_t *type)
{
    if (id >= CCN_NODES || !model_ring_ccn504_types[id]) {
        return false;
    }
    *type = model_ring_ccn504_types[id];
    hisi_traffic_ring_streams(s->pmu.traffic, s->streams, id, *type);
    return true;
}

/* What event counter @idx counts, as the registers stand */
typedef enum CcnSourceKind {
    CCN_SRC_WATCHPOINT,     /* a device port's flits */
    CCN_SRC_XP_EVENT,       /* the ring's flits at the XP */
    CCN_SRC_NODE_EVENT,     /* a node's event */
} CcnSourceKind;

typedef struct CcnSource {
    CcnSourceKind kind;
    unsigned wp;
    uint8_t xp;
    uint8_t node;
    RingEventDef def;           /* watchpoints and node events */
    RingXpEventDef xp_def;      /* XP events */
} CcnSource;

static bool ccn_source(ArmCcnState *s, unsigned idx, CcnSource *src,
                       uint8_t *type)
{
    uint8_t xp = extract32(s->active_dsm[idx / 4],
                           (idx % 4) * DT_ACTIVE_DSM_BITS, DT_ACTIVE_DSM_BITS);
    CcnXp *x;
    unsigned nib;

    if (!FIELD_EX32(s->dt_ctl, DT_CTL, DT_EN) ||
        !FIELD_EX32(s->pmcr, DT_PMCR, PMU_EN) || xp >= CCN_XPS) {
        return false;
    }
    x = &s->xp[xp];
    nib = extract32(x->dt_config, idx * XP_DT_CONFIG_BITS, XP_DT_CONFIG_BITS);
    if (!FIELD_EX32(x->dt_control, XP_DT_CONTROL, DT_ENABLE) ||
        nib < DT_CONFIG_WP0) {
        return false;
    }
    src->xp = xp;
    if (nib < DT_CONFIG_XP_EVENT) {
        uint8_t sel = extract32(x->interface_sel,
                                (nib - DT_CONFIG_WP0) *
                                XP_DT_INTERFACE_SEL_BITS,
                                XP_DT_INTERFACE_SEL_BITS);

        src->kind = CCN_SRC_WATCHPOINT;
        src->wp = nib - DT_CONFIG_WP0;
        src->node = xp * 2 + FIELD_EX32(sel, XP_DT_INTERFACE_SEL, DEV_SEL);
        src->def.vc = FIELD_EX32(sel, XP_DT_INTERFACE_SEL, VC_SEL);
        src->def.dirs = BIT(FIELD_EX32(sel, XP_DT_INTERFACE_SEL, IO_SEL));
        return ccn_node_streams(s, src->node, type);
    }
    if (nib < DT_CONFIG_NODE) {
        uint8_t id = extract32(x->pmu_event_sel,
                               (nib - DT_CONFIG_XP_EVENT) *
                               XP_PMU_EVENT_SEL_BITS, XP_PMU_EVENT_SEL_BITS);

        src->kind = CCN_SRC_XP_EVENT;
        return model_ring_xp_event(FIELD_EX32(id, XP_EVENT_ID, EVENT),
                                   FIELD_EX32(id, XP_EVENT_ID, VC),
                                   FIELD_EX32(id, XP_EVENT_ID, BUS),
                                   &src->xp_def);
    }
    src->kind = CCN_SRC_NODE_EVENT;
    src->node = xp * 2 + (nib - DT_CONFIG_NODE) / 4;
    return ccn_node_streams(s, src->node, type) &&
           model_ring_node_event(*type,
                                 extract32(s->node_event_sel[src->node],
                                           ((nib - DT_CONFIG_NODE) % 4) *
                                           NODE_PMU_EVENT_SEL_BITS,
                                           NODE_PMU_EVENT_SEL_BITS),
                                 &src->def);
}

/*
 * Flits an XP event counts in [t0, t1), or with @growth the most it counts
 * (a flit of each node at most ahead of its rate): of what every node
 * sends on the event's channel.
 */
static uint64_t ccn_xp_flits(ArmCcnState *s, const CcnSource *src, int64_t t0,
                             int64_t t1, HisiPmuGrowth *growth)
{
    const RingStream *sent = &s->streams[src->xp_def.vc * 2 + RING_TX];
    uint64_t n = 0;
    uint8_t type;

    for (uint8_t id = 0; id < CCN_NODES; id++) {
        if (!ccn_node_streams(s, id, &type)) {
            continue;
        }
        if (growth) {
            growth->per_s += sent->flow.rate;
            growth->burst++;
        } else {
            n += model_ring_xp_count(sent, src->xp, &src->xp_def, t0, t1);
        }
    }
    return n;
}

/* Flits counter @idx counts in [t0, t1) (s->streams: its node's) */
static uint64_t ccn_flits(ArmCcnState *s, const CcnSource *src, int64_t t0,
                          int64_t t1)
{
    unsigned dir = src->def.dirs & BIT(RING_TX) ? RING_TX : RING_RX;

    if (src->kind == CCN_SRC_XP_EVENT) {
        return ccn_xp_flits(s, src, t0, t1, NULL);
    }
    if (src->kind == CCN_SRC_WATCHPOINT) {
        const uint64_t *cmp = s->xp[src->xp].wp_cmp[src->wp];

        return model_ring_flits_matching(&s->streams[src->def.vc * 2 + dir],
                                         cmp[WP_VAL_L], cmp[WP_VAL_H],
                                         cmp[WP_MASK_L], cmp[WP_MASK_H], t0,
                                         t1);
    }
    return model_ring_event_count(s->streams, &src->def, t0, t1);
}

/*
 * The MN's interrupt: its request, while the MN passes the PMU's events on
 * (its request, not the DT's status: the handler reads ERR_SIG_VAL and
 * deasserts after clearing the overflows)
 */
static void ccn_update_irq(HisiPmu *pmu)
{
    ArmCcnState *s = container_of(pmu, ArmCcnState, pmu);
    bool level = !s->firmware_irq && s->intreq &&
                 !FIELD_EX32(s->errint, MN_ERRINT_STATUS, PMU_EVENTS_DISABLED);

    qemu_set_irq(s->irq, level);
}

/*
 * The DT signals the MN: an overflow with its interrupt enabled. The MN
 * records it in ERR_SIG_VAL and requests the interrupt.
 */
static void ccn_dt_signal(ArmCcnState *s)
{
    s->err_sig_dt = true;
    s->intreq = true;
}

static void ccn_overflow(HisiPmu *pmu, unsigned idx)
{
    ArmCcnState *s = container_of(pmu, ArmCcnState, pmu);

    s->pmovsr |= BIT(idx);
    if (FIELD_EX32(s->pmcr, DT_PMCR, OVFL_INTR_EN)) {
        ccn_dt_signal(s);
    }
}

/* Add what counter @idx (or the cycle counter) counted in [t0, t1) */
static void ccn_count(HisiPmu *pmu, unsigned idx, int64_t t0, int64_t t1)
{
    ArmCcnState *s = container_of(pmu, ArmCcnState, pmu);
    CcnSource src;
    uint8_t type;

    if (idx == CCN_CYCLE_IDX) {
        if (FIELD_EX32(s->pmcr, DT_PMCR, PMU_EN)) {
            hisi_pmu_add_cycles(pmu, idx, HISI_PMU_CNT, t1 - t0);
        }
    } else if (ccn_source(s, idx, &src, &type)) {
        hisi_pmu_add(pmu, idx, HISI_PMU_CNT, ccn_flits(s, &src, t0, t1));
    }
}

/* The most counter @idx grows by in a second, when it would interrupt */
static bool ccn_max_growth(HisiPmu *pmu, unsigned idx,
                           HisiPmuGrowth growth[HISI_PMU_SLOT_COUNTERS])
{
    ArmCcnState *s = container_of(pmu, ArmCcnState, pmu);
    CcnSource src;
    uint8_t type;

    if (!FIELD_EX32(s->pmcr, DT_PMCR, OVFL_INTR_EN) ||
        !FIELD_EX32(s->pmcr, DT_PMCR, PMU_EN)) {
        return false;
    }
    if (idx == CCN_CYCLE_IDX) {
        growth[HISI_PMU_CNT] = (HisiPmuGrowth) { pmu->clock_freq, 1 };
        return true;
    }
    if (!ccn_source(s, idx, &src, &type)) {
        return false;
    }
    if (src.kind == CCN_SRC_XP_EVENT) {
        ccn_xp_flits(s, &src, 0, 0, &growth[HISI_PMU_CNT]);
        return true;
    }
    for (unsigned dir = 0; dir < 2; dir++) {
        if (src.def.dirs & BIT(dir)) {
            growth[HISI_PMU_CNT].per_s +=
                s->streams[src.def.vc * 2 + dir].flow.rate;
            growth[HISI_PMU_CNT].burst++;
        }
    }
    return true;
}

static const HisiPmuOps ccn_pmu_ops = {
    .slots = CCN_COUNTERS + 1,
    .bits = {
        [0 ... CCN_COUNTERS - 1] = CCN_EVENT_BITS,
        [CCN_CYCLE_IDX] = CCN_CYCLE_BITS,
    },
    .count = ccn_count,
    .max_growth = ccn_max_growth,
    .overflow = ccn_overflow,
    .update_irq = ccn_update_irq,
};

static uint32_t ccn_mn_read(ArmCcnState *s, hwaddr off)
{
    unsigned word;
    hwaddr rest;

    if (off == A_MN_ERRINT_STATUS) {
        return s->errint;
    }
    if (hisi_reg_in_array(off, A_MN_OLY_COMP_LIST, 4, MN_OLY_COMP_LIST_WORDS,
                          &word, &rest)) {
        uint32_t val = 0;

        for (size_t i = 0; i < ARRAY_SIZE(arm_ccn_nodes); i++) {
            unsigned r = arm_ccn_nodes[i].region;

            if (r / 32 == word) {
                val |= BIT(r % 32);
            }
        }
        return val;
    }
    if (hisi_reg_in_array(off, A_MN_ERR_SIG_VAL, 4, MN_ERR_SIG_WORDS, &word,
                          &rest)) {
        /*
         * Only the DT's overflow is ever signalled; a read returns what
         * was recorded since the last one and clears it (the handler
         * reads every word "to clear them").
         */
        if (word == CCN_ERR_SIG_DT_WORD && s->err_sig_dt) {
            s->err_sig_dt = false;
            return R_MN_ERR_SIG_VAL_DT_MASK;
        }
        return 0;
    }
    qemu_log_mask(LOG_GUEST_ERROR, "arm-ccn: read of unknown MN register "
                  "0x%04" HWADDR_PRIx "\n", off);
    return 0;
}

/* Is @off DT event counter @idx (its low word: the counters are 32-bit)? */
static bool ccn_dt_pmevcnt(hwaddr off, unsigned *idx)
{
    hwaddr rest;

    return hisi_reg_in_array(off, A_DT_PMEVCNT, DT_PMEVCNT_STRIDE,
                             CCN_COUNTERS, idx, &rest) && rest == 0;
}

static uint64_t ccn_dt_read(ArmCcnState *s, hwaddr off, unsigned size)
{
    HisiPmuSlot *cycles = &s->pmu.slot[CCN_CYCLE_IDX];
    unsigned idx;
    hwaddr rest;

    if (hisi_reg_in_array(off, A_DT_ACTIVE_DSM, 4, DT_ACTIVE_DSM_WORDS, &idx,
                          &rest)) {
        return s->active_dsm[idx];
    }
    if (ccn_dt_pmevcnt(off, &idx)) {
        hisi_pmu_fold(&s->pmu, idx, hisi_pmu_now());
        return s->pmu.slot[idx].value[HISI_PMU_CNT];
    }
    if (hisi_reg_in_array(off, A_DT_PMCCNTR, 8, 1, &idx, &rest)) {
        hisi_pmu_fold(&s->pmu, CCN_CYCLE_IDX, hisi_pmu_now());
        return hisi_reg64_read(cycles->value[HISI_PMU_CNT], rest, size);
    }
    if (hisi_reg_in_array(off, A_DT_PMCCNTRSR, 8, 1, &idx, &rest)) {
        return hisi_reg64_read(s->pmccntr_snapshot, rest, 4);
    }
    switch (off) {
    case A_DT_CTL:
        return s->dt_ctl;
    case A_DT_PMOVSR:
        hisi_pmu_fold_all(&s->pmu, hisi_pmu_now());
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

/* XP comparator registers: which one, of which watchpoint; the offset */
static uint64_t *ccn_xp_cmp(CcnXp *x, hwaddr off, hwaddr *rest)
{
    unsigned wp;

    if (!hisi_reg_in_array(off, A_XP_DT_CMP_VAL_L, XP_DT_WP_STRIDE, CCN_WPS,
                           &wp, rest) ||
        *rest >= XP_DT_CMP_REGS * 8) {
        return NULL;
    }
    return &x->wp_cmp[wp][*rest / 8];
}

static uint32_t ccn_xp_read(ArmCcnState *s, CcnXp *x, hwaddr off)
{
    hwaddr rest;
    uint64_t *cmp = ccn_xp_cmp(x, off, &rest);

    if (cmp) {
        return hisi_reg64_read(*cmp, rest, 4);
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

/* Aligned 32-bit accesses, and 64-bit reads of PMCCNTR */
static bool ccn_access_ok(void *opaque, hwaddr addr, unsigned size,
                          bool is_write, MemTxAttrs attrs)
{
    return size == 4 ||
           (!is_write && addr == CCN_REGION(CCN_DT_REGION) + A_DT_PMCCNTR);
}

static uint64_t arm_ccn_read(void *opaque, hwaddr addr, unsigned size)
{
    ArmCcnState *s = opaque;
    const CcnNodeInfo *n = s->region[addr / CCN_REGION_SIZE];
    hwaddr off = addr % CCN_REGION_SIZE;
    uint64_t val = 0;

    if (!n) {
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
     * the interrupt request, which a deassert drops only once what it
     * signals was read: an overflow recorded after the handler's read
     * keeps it up.
     */
    if (FIELD_EX32(val, MN_ERRINT_STATUS, INTREQ_UPDATE) &&
        FIELD_EX32(val, MN_ERRINT_STATUS, INTREQ_DEASSERTED) &&
        !s->err_sig_dt) {
        s->intreq = false;
    }
    for (unsigned f = 1; f < 4; f++) {
        /* Firmware that keeps the interrupt keeps its PMU events field. */
        if (s->firmware_irq &&
            f == R_MN_ERRINT_STATUS_PMU_EVENTS_UPDATE_SHIFT) {
            continue;
        }
        if (val & BIT(f)) {
            s->errint = deposit32(s->errint, f + 4, 1,
                                  extract32(val, f + 4, 1));
        }
    }
}

static void ccn_dt_write(ArmCcnState *s, hwaddr off, uint32_t val)
{
    HisiPmuSlot *cycles = &s->pmu.slot[CCN_CYCLE_IDX];
    unsigned idx;
    hwaddr rest;

    if (hisi_reg_in_array(off, A_DT_ACTIVE_DSM, 4, DT_ACTIVE_DSM_WORDS, &idx,
                          &rest)) {
        s->active_dsm[idx] = val;
        return;
    }
    if (ccn_dt_pmevcnt(off, &idx)) {
        s->pmu.slot[idx].value[HISI_PMU_CNT] = val;
        return;
    }
    if (hisi_reg_in_array(off, A_DT_PMCCNTR, 8, 1, &idx, &rest)) {
        cycles->value[HISI_PMU_CNT] =
            hisi_reg64_write(cycles->value[HISI_PMU_CNT], rest, 4, val) &
            MAKE_64BIT_MASK(0, CCN_CYCLE_BITS);
        return;
    }
    switch (off) {
    case A_DT_CTL:
        s->dt_ctl = val & R_DT_CTL_DT_EN_MASK;
        break;
    case A_DT_PMOVSR_CLR:
        s->pmovsr &= ~val;
        break;
    case A_DT_PMCR:
        /* overflows pending when their interrupt is enabled signal then */
        if (s->pmovsr && !FIELD_EX32(s->pmcr, DT_PMCR, OVFL_INTR_EN) &&
            FIELD_EX32(val, DT_PMCR, OVFL_INTR_EN)) {
            ccn_dt_signal(s);
        }
        s->pmcr = val & (R_DT_PMCR_PMU_EN_MASK | R_DT_PMCR_OVFL_INTR_EN_MASK);
        break;
    case A_DT_PMSR_REQ:
        if (val & 1) {
            s->pmccntr_snapshot = cycles->value[HISI_PMU_CNT];
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
    hwaddr rest;
    uint64_t *cmp = ccn_xp_cmp(x, off, &rest);

    if (cmp) {
        *cmp = hisi_reg64_write(*cmp, rest, 4, val);
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
    int64_t now = hisi_pmu_now();

    trace_arm_ccn_write(addr, size, val);
    if (!n) {
        qemu_log_mask(LOG_GUEST_ERROR, "arm-ccn: write at 0x%06" HWADDR_PRIx
                      " of region %u, which is not present, ignored\n", addr,
                      (unsigned)(addr / CCN_REGION_SIZE));
        return;
    }
    /* Counts up to now go by the old settings. */
    hisi_pmu_fold_all(&s->pmu, now);
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
    ccn_update_irq(&s->pmu);
    hisi_pmu_schedule(&s->pmu, now);
}

static const MemoryRegionOps arm_ccn_ops = {
    .read = arm_ccn_read,
    .write = arm_ccn_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid.min_access_size = 4,
    .valid.max_access_size = 8,
    .valid.accepts = ccn_access_ok,
    .impl.min_access_size = 4,
    .impl.max_access_size = 8,
};

static void arm_ccn_reset_hold(Object *obj, ResetType type)
{
    ArmCcnState *s = ARM_CCN(obj);

    hisi_pmu_reset(&s->pmu);
    s->errint = 0;
    memset(s->active_dsm, 0, sizeof(s->active_dsm));
    s->dt_ctl = 0;
    s->pmcr = 0;
    s->pmovsr = 0;
    s->pmsr = 0;
    s->pmccntr_snapshot = 0;
    memset(s->xp, 0, sizeof(s->xp));
    memset(s->node_event_sel, 0, sizeof(s->node_event_sel));
    s->intreq = false;
    s->err_sig_dt = false;
}

static void arm_ccn_reset_exit(Object *obj, ResetType type)
{
    ccn_update_irq(&ARM_CCN(obj)->pmu);
}

/*
 * Whether the machine's platform bus has a free, naturally aligned
 * CCN_MMIO_SIZE window for one more CCN. The machine maps the CCN there
 * after realize and exits when it does not fit, without saying why.
 */
static bool ccn_platform_bus_has_room(Error **errp)
{
    Object *obj = object_resolve_path_type("", TYPE_PLATFORM_BUS_DEVICE, NULL);
    PlatformBusDevice *pbus;

    if (!obj) {
        return true;
    }
    pbus = PLATFORM_BUS_DEVICE(obj);
    for (uint64_t off = 0; off + CCN_MMIO_SIZE <= pbus->mmio_size;
         off += CCN_MMIO_SIZE) {
        MemoryRegion *mr = memory_region_find(&pbus->mmio, off,
                                              CCN_MMIO_SIZE).mr;

        if (!mr) {
            return true;
        }
        memory_region_unref(mr);
    }
    error_setg(errp, "arm-ccn: no free %u MiB on the machine's platform bus "
               "of %u MiB: it takes %u CCNs at most, fewer beside other "
               "platform devices", (unsigned)(CCN_MMIO_SIZE / MiB),
               (unsigned)(pbus->mmio_size / MiB),
               (unsigned)(pbus->mmio_size / CCN_MMIO_SIZE));
    return false;
}

static void arm_ccn_realize(DeviceState *dev, Error **errp)
{
    ArmCcnState *s = ARM_CCN(dev);

    if (!s->pmu.clock_freq || s->pmu.clock_freq > NANOSECONDS_PER_SECOND) {
        error_setg(errp, "arm-ccn: clock-freq must be 1..1000000000 Hz "
                   "(got %u)", s->pmu.clock_freq);
        return;
    }
    if (!ccn_platform_bus_has_room(errp)) {
        return;
    }
    for (size_t i = 0; i < ARRAY_SIZE(arm_ccn_nodes); i++) {
        const CcnNodeInfo *n = &arm_ccn_nodes[i];

        /* a device node's region and the ring model agree on its type */
        assert(n->type == RING_TYPE_XP || n->type == CCN_TYPE_DT ||
               n->type == model_ring_ccn504_types[n->id]);
        s->region[n->region] = n;
    }
    memory_region_init_io(&s->mmio, OBJECT(s), &arm_ccn_ops, s, "arm-ccn",
                          CCN_MMIO_SIZE);
    sysbus_init_mmio(SYS_BUS_DEVICE(s), &s->mmio);
    sysbus_init_irq(SYS_BUS_DEVICE(s), &s->irq);
    hisi_pmu_realize(&s->pmu);
}

static void arm_ccn_unrealize(DeviceState *dev)
{
    hisi_pmu_unrealize(&ARM_CCN(dev)->pmu);
}

static const VMStateDescription vmstate_ccn_xp = {
    .name = "arm-ccn-xp",
    .version_id = 2,
    .minimum_version_id = 2,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(dt_config, CcnXp),
        VMSTATE_UINT32(interface_sel, CcnXp),
        VMSTATE_UINT64_2DARRAY(wp_cmp, CcnXp, CCN_WPS, XP_DT_CMP_REGS),
        VMSTATE_UINT32(dt_control, CcnXp),
        VMSTATE_UINT32(pmu_event_sel, CcnXp),
        VMSTATE_END_OF_LIST()
    },
};

static const VMStateDescription vmstate_arm_ccn = {
    .name = TYPE_ARM_CCN,
    .version_id = 3,
    .minimum_version_id = 3,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(errint, ArmCcnState),
        VMSTATE_UINT32_ARRAY(active_dsm, ArmCcnState, DT_ACTIVE_DSM_WORDS),
        VMSTATE_UINT32(dt_ctl, ArmCcnState),
        VMSTATE_UINT32(pmcr, ArmCcnState),
        VMSTATE_UINT32(pmovsr, ArmCcnState),
        VMSTATE_UINT32(pmsr, ArmCcnState),
        VMSTATE_UINT64(pmccntr_snapshot, ArmCcnState),
        VMSTATE_STRUCT_ARRAY(xp, ArmCcnState, CCN_XPS, 2, vmstate_ccn_xp,
                             CcnXp),
        VMSTATE_UINT32_ARRAY(node_event_sel, ArmCcnState, CCN_NODES),
        VMSTATE_STRUCT(pmu, ArmCcnState, 1, vmstate_hisi_pmu, HisiPmu),
        VMSTATE_BOOL(intreq, ArmCcnState),
        VMSTATE_BOOL(err_sig_dt, ArmCcnState),
        VMSTATE_END_OF_LIST()
    },
};

static const Property arm_ccn_properties[] = {
    DEFINE_PROP_UINT32("clock-freq", ArmCcnState, pmu.clock_freq, 1000000000),
    DEFINE_PROP_LINK("traffic", ArmCcnState, pmu.traffic, TYPE_HISI_TRAFFIC,
                     HisiTraffic *),
    DEFINE_PROP_BOOL("firmware-irq", ArmCcnState, firmware_irq, false),
};

static void arm_ccn_instance_init(Object *obj)
{
    hisi_pmu_init(&ARM_CCN(obj)->pmu, obj, &ccn_pmu_ops);
}

static void arm_ccn_class_init(ObjectClass *klass, HisiClassData *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    dc->realize = arm_ccn_realize;
    dc->unrealize = arm_ccn_unrealize;
    rc->phases.hold = arm_ccn_reset_hold;
    rc->phases.exit = arm_ccn_reset_exit;
    dc->desc = "ARM CCN-504 cache coherent network (its PMU): counts the "
               "ring's flits and its nodes' events";
    dc->vmsd = &vmstate_arm_ccn;
    /* -device on machines with a platform bus (virt): a dynamic sysbus */
    dc->user_creatable = true;
    device_class_set_props(dc, arm_ccn_properties);
    object_class_property_set_description(klass, "clock-freq",
        "Hz of the cycle counter, 1-1000000000");
    object_class_property_set_description(klass, "traffic",
        "hisi-traffic object whose ring traffic is counted; "
        "without it, the board's shared /machine/hisi-traffic-default");
    object_class_property_set_description(klass, "firmware-irq",
        "the MN's interrupt belongs to firmware: the OS cannot set the PMU "
        "events field of MN_ERRINT_STATUS and never sees the interrupt, so "
        "its driver must poll for overflows");
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
