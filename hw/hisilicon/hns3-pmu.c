/*
 * HiSilicon HNS3 PMU device
 *
 * The HNS3 PMU is a Root Complex integrated Endpoint that counts the
 * traffic of the HNS3 NIC functions of its SICL: bandwidth, packet rate,
 * latency and interrupt rate at the stages of the NIC pipeline, globally
 * or per MAC port, port and TC, function, or function and queue. Eight
 * event slots each have a counter and an extended counter.
 *
 * Reference: Linux Documentation/admin-guide/perf/hns3-pmu.rst and the
 * hns3_pmu driver (drivers/perf/hisilicon/hns3_pmu.c), whose register use
 * this follows.
 *
 * The NIC: QEMU has no HNS3 NIC, so the PCI functions in [bdf-min,
 * bdf-max] stand for its functions, function f on MAC port f % ports, each
 * with @queues queues: every function the driver's filters accept there
 * (any that exists, hns3_pmu_valid_bdf()), on the root bus as RCiEPs like
 * the NIC's functions on hardware, or below a root port. Their traffic
 * comes from the hisi-traffic object (model/nic-traffic.c); counts are
 * O(1) sums (model/hns3-pmu.c) computed when the guest reads a counter or
 * something changes. Cycles count at "clock-freq" Hz of virtual time. No
 * timer runs but one armed when an unmasked counter is due to overflow.
 *
 * Not modelled: the func-intr filter's interrupt number (the driver never
 * selects it); the NIC's own registers.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qemu/timer.h"
#include "qapi/error.h"
#include "hw/pci/pci_device.h"
#include "hw/pci/pcie.h"
#include "hw/pci/msi.h"
#include "hisi-compat.h"
#include HISI_QDEV_PROPERTIES_H
#include "migration/vmstate.h"
#include "trace.h"
#include "hisi-pcie.h"
#include "hisi-pmu.h"
#include "hns3-pmu-regs.h"
#include "model/hns3-pmu.h"

#define TYPE_HNS3_PMU "hns3-pmu"
OBJECT_DECLARE_SIMPLE_TYPE(Hns3PmuState, HNS3_PMU)

#define PMU_MAX_QUEUES      256
#define PMU_MAX_STREAMS     (2 * PMU_MAX_QUEUES + 2)

/*
 * The root port traffic rules (port=) see for a function on the root bus:
 * the host bridge's BDF, 00:00.0, which no root port has.
 */
#define PMU_ROOT_BUS_PORT   0

/* An event slot's registers; its counts are in the engine's slot */
typedef struct Hns3PmuSlot {
    uint32_t ctrl_low;
    uint32_t ctrl_high;
    uint32_t intr_status;
    uint32_t intr_mask;
    uint32_t qid_ctrl;
    uint32_t qid_para;
} Hns3PmuSlot;

struct Hns3PmuState {
    PCIDevice parent_obj;

    MemoryRegion mmio;
    HisiPmu pmu;
    NicStream streams[PMU_MAX_STREAMS];

    /* properties */
    uint16_t sicl_id;
    uint16_t bdf_min;
    uint16_t bdf_max;
    uint32_t version;
    uint8_t ports;
    uint16_t queues;
    uint8_t tcs;

    uint32_t global_ctrl;
    Hns3PmuSlot slot[HNS3_PMU_SLOTS];
    uint32_t msi_sent;      /* slots whose pending overflow has its MSI */
};

static const Hns3PmuEvent *pmu_event(Hns3PmuSlot *c)
{
    return model_hns3_pmu_event(HNS3_PMU_EVENT_CODE(c->ctrl_low));
}

static bool pmu_counting(Hns3PmuState *s, Hns3PmuSlot *c)
{
    return FIELD_EX32(s->global_ctrl, GLOBAL_CTRL, START) &&
           FIELD_EX32(c->ctrl_low, EVENT_CTRL_LOW, EN) && pmu_event(c);
}

static Hns3PmuFilter pmu_filter(Hns3PmuSlot *c)
{
    return (Hns3PmuFilter) {
        .mode = FIELD_EX32(c->ctrl_low, EVENT_CTRL_LOW, FILTER_MODE),
        .cond = c->ctrl_high,
        .queue = FIELD_EX32(c->qid_para, EVENT_QID_PARA, QUEUE),
    };
}

typedef struct PmuWalk {
    Hns3PmuState *s;
    void (*fn)(struct PmuWalk *w, const NicStream *st);
    /* for counting */
    const Hns3PmuEvent *ev;
    Hns3PmuFilter filter;
    int64_t t0, t1;
    Hns3PmuSums sums;
    /* for the overflow bound: the most per second, and in one packet each */
    uint64_t max_units, max_bytes, max_delay_ns;
    uint64_t burst_units, burst_bytes, burst_delay_ns;
    /* for the queue check */
    uint8_t devfn;
    uint16_t queue;
    bool found;
} PmuWalk;

static void pmu_walk_function(PCIDevice *func, PCIDevice *port, void *opaque)
{
    PmuWalk *w = opaque;
    Hns3PmuState *s = w->s;
    uint32_t n = hisi_traffic_nic_streams(s->pmu.traffic, s->streams,
                                          pci_get_bdf(func),
                                          port ? pci_get_bdf(port) :
                                          PMU_ROOT_BUS_PORT,
                                          PCI_FUNC(func->devfn) % s->ports,
                                          s->queues, s->tcs);

    for (uint32_t i = 0; i < n; i++) {
        w->fn(w, &s->streams[i]);
    }
}

/* Call @w->fn for the streams of every NIC function, as they are now */
static void pmu_walk(Hns3PmuState *s, PmuWalk *w)
{
    w->s = s;
    hisi_pcie_foreach_function(PCI_DEVICE(s), s->bdf_min, s->bdf_max,
                               pmu_walk_function, w);
}

static void pmu_sum_stream(PmuWalk *w, const NicStream *st)
{
    if (model_hns3_pmu_stream_matches(w->ev, &w->filter, st)) {
        model_hns3_pmu_stream_sums(w->ev, st, w->t0, w->t1, &w->sums);
    }
}

/*
 * The MSI: sent when a slot's overflow becomes pending (status set and
 * unmasked); the driver's handler clears the status of each it handles.
 */
static void pmu_update_irq(HisiPmu *pmu)
{
    Hns3PmuState *s = container_of(pmu, Hns3PmuState, pmu);
    uint32_t pending = 0;

    for (unsigned idx = 0; idx < HNS3_PMU_SLOTS; idx++) {
        Hns3PmuSlot *c = &s->slot[idx];

        pending |= (c->intr_status &&
                    !FIELD_EX32(c->intr_mask, EVENT_INTR_MASK, OVERFLOW)) <<
                   idx;
    }
    hisi_pcie_msi_update(PCI_DEVICE(s), pending, &s->msi_sent);
}

static void pmu_overflow(HisiPmu *pmu, unsigned idx)
{
    Hns3PmuState *s = container_of(pmu, Hns3PmuState, pmu);

    s->slot[idx].intr_status = R_EVENT_INTR_STATUS_OVERFLOW_MASK;
}

/* Add what slot @idx counted in [t0, t1) */
static void pmu_count(HisiPmu *pmu, unsigned idx, int64_t t0, int64_t t1)
{
    Hns3PmuState *s = container_of(pmu, Hns3PmuState, pmu);
    Hns3PmuSlot *c = &s->slot[idx];
    PmuWalk w = { .fn = pmu_sum_stream };

    if (!pmu_counting(s, c)) {
        return;
    }
    w.ev = pmu_event(c);
    w.filter = pmu_filter(c);
    w.t0 = t0;
    w.t1 = t1;
    pmu_walk(s, &w);
    switch (w.ev->code >> 8) {
    case HNS3_PMU_BW:
        hisi_pmu_add(pmu, idx, HISI_PMU_CNT, w.sums.bytes);
        hisi_pmu_add_cycles(pmu, idx, HISI_PMU_EXT_CNT, t1 - t0);
        break;
    case HNS3_PMU_DLY:
        hisi_pmu_add_cycles(pmu, idx, HISI_PMU_CNT, w.sums.delay_ns);
        hisi_pmu_add(pmu, idx, HISI_PMU_EXT_CNT, w.sums.units);
        break;
    default:    /* packets or interrupts */
        hisi_pmu_add(pmu, idx, HISI_PMU_CNT, w.sums.units);
        hisi_pmu_add_cycles(pmu, idx, HISI_PMU_EXT_CNT, t1 - t0);
        break;
    }
}

static void pmu_bound_stream(PmuWalk *w, const NicStream *st)
{
    uint16_t max_len = 0;

    if (!model_hns3_pmu_stream_matches(w->ev, &w->filter, st)) {
        return;
    }
    for (int j = 0; j < TRAFFIC_PATTERN; j++) {
        max_len = MAX(max_len, st->flow.len[j]);
    }
    w->max_units += st->flow.rate;
    w->max_bytes += st->flow.rate * MAX(max_len, HNS3_PMU_BD_BYTES);
    w->max_delay_ns += st->flow.rate * st->latency_ns;
    w->burst_units++;
    w->burst_bytes += MAX(max_len, HNS3_PMU_BD_BYTES);
    w->burst_delay_ns += st->latency_ns;
}

/* The most slot @idx's counter and extended counter grow by */
static bool pmu_max_growth(HisiPmu *pmu, unsigned idx,
                           HisiPmuGrowth growth[HISI_PMU_SLOT_COUNTERS])
{
    Hns3PmuState *s = container_of(pmu, Hns3PmuState, pmu);
    Hns3PmuSlot *c = &s->slot[idx];
    PmuWalk w = { .fn = pmu_bound_stream };

    if (!pmu_counting(s, c) ||
        FIELD_EX32(c->intr_mask, EVENT_INTR_MASK, OVERFLOW)) {
        return false;
    }
    w.ev = pmu_event(c);
    w.filter = pmu_filter(c);
    pmu_walk(s, &w);
    switch (w.ev->code >> 8) {
    case HNS3_PMU_BW:
        growth[HISI_PMU_CNT] = (HisiPmuGrowth) { w.max_bytes, w.burst_bytes };
        growth[HISI_PMU_EXT_CNT] = (HisiPmuGrowth) { pmu->clock_freq, 1 };
        break;
    case HNS3_PMU_DLY:
        growth[HISI_PMU_CNT] = hisi_pmu_delay_growth(pmu, w.max_delay_ns,
                                                     w.burst_delay_ns);
        growth[HISI_PMU_EXT_CNT] = (HisiPmuGrowth) {
            w.max_units, w.burst_units,
        };
        break;
    default:
        growth[HISI_PMU_CNT] = (HisiPmuGrowth) { w.max_units, w.burst_units };
        growth[HISI_PMU_EXT_CNT] = (HisiPmuGrowth) { pmu->clock_freq, 1 };
        break;
    }
    return true;
}

static const HisiPmuOps pmu_ops = {
    .slots = HNS3_PMU_SLOTS,
    .bits = { [0 ... HNS3_PMU_SLOTS - 1] = 64 },
    .count = pmu_count,
    .max_growth = pmu_max_growth,
    .overflow = pmu_overflow,
    .update_irq = pmu_update_irq,
};

static void pmu_find_queue(PmuWalk *w, const NicStream *st)
{
    w->found |= (st->func & 0xff) == w->devfn && st->queue == w->queue;
}

/* The QID check: does function @devfn have queue @queue? */
static bool pmu_queue_exists(Hns3PmuState *s, uint32_t qid_para)
{
    PmuWalk w = {
        .fn = pmu_find_queue,
        .devfn = FIELD_EX32(qid_para, EVENT_QID_PARA, FUNC),
        .queue = FIELD_EX32(qid_para, EVENT_QID_PARA, QUEUE),
    };

    pmu_walk(s, &w);
    return w.found;
}

/* Which slot @addr is in, and the offset within it */
static bool pmu_slot_reg(hwaddr addr, unsigned *idx, hwaddr *off)
{
    return hisi_reg_in_array(addr, HNS3_PMU_SLOT_BASE, HNS3_PMU_SLOT_SIZE,
                             HNS3_PMU_SLOTS, idx, off);
}

/* Aligned 32-bit accesses, and 64-bit ones to the counters */
static bool pmu_access_ok(void *opaque, hwaddr addr, unsigned size,
                          bool is_write, MemTxAttrs attrs)
{
    unsigned idx;
    hwaddr off;

    return size == 4 || (pmu_slot_reg(addr, &idx, &off) &&
                         (off == A_EVENT_COUNTER ||
                          off == A_EVENT_EXT_COUNTER));
}

static uint64_t pmu_slot_read(Hns3PmuState *s, unsigned idx, hwaddr off,
                              unsigned size)
{
    Hns3PmuSlot *c = &s->slot[idx];
    HisiPmuSlot *counts = &s->pmu.slot[idx];

    switch (off & ~7) {
    case A_EVENT_COUNTER:
        hisi_pmu_fold(&s->pmu, idx, hisi_pmu_now());
        return hisi_reg64_read(counts->value[HISI_PMU_CNT], off, size);
    case A_EVENT_EXT_COUNTER:
        hisi_pmu_fold(&s->pmu, idx, hisi_pmu_now());
        return hisi_reg64_read(counts->value[HISI_PMU_EXT_CNT], off, size);
    }
    switch (off) {
    case A_EVENT_CTRL_LOW:
        return c->ctrl_low;
    case A_EVENT_CTRL_HIGH:
        return c->ctrl_high;
    case A_EVENT_INTR_STATUS:
        hisi_pmu_fold(&s->pmu, idx, hisi_pmu_now());
        return c->intr_status;
    case A_EVENT_INTR_MASK:
        return c->intr_mask;
    case A_EVENT_QID_CTRL:
        return c->qid_ctrl;
    case A_EVENT_QID_PARA:
        return c->qid_para;
    }
    qemu_log_mask(LOG_GUEST_ERROR, "hns3-pmu: read of unknown register "
                  "0x%04" HWADDR_PRIx " of event slot %u\n", off, idx);
    return 0;
}

static uint64_t hns3_pmu_read(void *opaque, hwaddr addr, unsigned size)
{
    Hns3PmuState *s = opaque;
    uint64_t val = 0;
    unsigned idx;
    hwaddr off;

    if (pmu_slot_reg(addr, &idx, &off)) {
        val = pmu_slot_read(s, idx, off, size);
    } else if (addr == A_GLOBAL_CTRL) {
        val = s->global_ctrl;
    } else if (addr == A_CLOCK_FREQ) {
        val = s->pmu.clock_freq;
    } else if (addr == A_BDF) {
        val = FIELD_DP32(s->bdf_min, BDF, MAX, s->bdf_max);
    } else if (addr == A_VERSION) {
        val = s->version;
    } else if (addr == A_DEVICE_ID) {
        val = s->sicl_id;
    } else {
        qemu_log_mask(LOG_GUEST_ERROR, "hns3-pmu: read of unknown register "
                      "0x%04" HWADDR_PRIx "\n", addr);
    }
    trace_hns3_pmu_read(addr, size, val);
    return val;
}

static void pmu_write_ctrl_low(Hns3PmuState *s, unsigned idx, uint32_t val)
{
    Hns3PmuSlot *c = &s->slot[idx];
    unsigned mode = FIELD_EX32(val, EVENT_CTRL_LOW, FILTER_MODE);
    uint16_t code = HNS3_PMU_EVENT_CODE(val);
    const Hns3PmuEvent *ev = model_hns3_pmu_event(code);

    /* STATUS_RESET clears a pending overflow; it does not stay set. */
    if (FIELD_EX32(val, EVENT_CTRL_LOW, STATUS_RESET)) {
        c->intr_status = 0;
        val = FIELD_DP32(val, EVENT_CTRL_LOW, STATUS_RESET, 0);
    }
    if (FIELD_EX32(val, EVENT_CTRL_LOW, EN) && !ev) {
        qemu_log_mask(LOG_GUEST_ERROR, "hns3-pmu: slot %u enabled with "
                      "unknown event 0x%03x: it does not count\n", idx, code);
    } else if (FIELD_EX32(val, EVENT_CTRL_LOW, EN) &&
               (mode >= HNS3_PMU_MODES || !(ev->modes & BIT(mode)))) {
        qemu_log_mask(LOG_GUEST_ERROR, "hns3-pmu: slot %u: event 0x%03x "
                      "has no filter mode %u: it counts nothing\n", idx,
                      code, mode);
    }
    c->ctrl_low = val;
}

static void pmu_slot_write(Hns3PmuState *s, unsigned idx, hwaddr off,
                           unsigned size, uint64_t val)
{
    Hns3PmuSlot *c = &s->slot[idx];
    HisiPmuSlot *counts = &s->pmu.slot[idx];

    switch (off & ~7) {
    case A_EVENT_COUNTER:
        counts->value[HISI_PMU_CNT] =
            hisi_reg64_write(counts->value[HISI_PMU_CNT], off, size, val);
        return;
    case A_EVENT_EXT_COUNTER:
        counts->value[HISI_PMU_EXT_CNT] =
            hisi_reg64_write(counts->value[HISI_PMU_EXT_CNT], off, size, val);
        return;
    }
    switch (off) {
    case A_EVENT_CTRL_LOW:
        pmu_write_ctrl_low(s, idx, val);
        break;
    case A_EVENT_CTRL_HIGH:
        c->ctrl_high = val;
        break;
    case A_EVENT_INTR_STATUS:
        qemu_log_mask(LOG_GUEST_ERROR, "hns3-pmu: slot %u: the interrupt "
                      "status is cleared by EVENT_CTRL_LOW bit 11, not "
                      "written\n", idx);
        break;
    case A_EVENT_INTR_MASK:
        c->intr_mask = val & R_EVENT_INTR_MASK_OVERFLOW_MASK;
        break;
    case A_EVENT_QID_CTRL:
        /* A request is answered at once; writing 0 clears the answer. */
        c->qid_ctrl = 0;
        if (FIELD_EX32(val, EVENT_QID_CTRL, REQ)) {
            c->qid_ctrl = R_EVENT_QID_CTRL_DONE_MASK |
                          (pmu_queue_exists(s, c->qid_para) ? 0 :
                           R_EVENT_QID_CTRL_MISS_MASK);
        }
        break;
    case A_EVENT_QID_PARA:
        c->qid_para = val;
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "hns3-pmu: write to unknown register "
                      "0x%04" HWADDR_PRIx " of event slot %u ignored\n", off,
                      idx);
    }
}

static void hns3_pmu_write(void *opaque, hwaddr addr, uint64_t val,
                           unsigned size)
{
    Hns3PmuState *s = opaque;
    int64_t now = hisi_pmu_now();
    unsigned idx;
    hwaddr off;

    trace_hns3_pmu_write(addr, size, val);
    /* Counts up to now go by the old settings. */
    hisi_pmu_fold_all(&s->pmu, now);
    if (pmu_slot_reg(addr, &idx, &off)) {
        pmu_slot_write(s, idx, off, size, val);
    } else if (addr == A_GLOBAL_CTRL) {
        s->global_ctrl = val & R_GLOBAL_CTRL_START_MASK;
    } else if (addr == A_CLOCK_FREQ || addr == A_BDF || addr == A_VERSION ||
               addr == A_DEVICE_ID) {
        qemu_log_mask(LOG_GUEST_ERROR, "hns3-pmu: write to read-only "
                      "register 0x%04" HWADDR_PRIx " ignored\n", addr);
    } else {
        qemu_log_mask(LOG_GUEST_ERROR, "hns3-pmu: write to unknown register "
                      "0x%04" HWADDR_PRIx " ignored\n", addr);
    }
    pmu_update_irq(&s->pmu);
    hisi_pmu_schedule(&s->pmu, now);
}

static const MemoryRegionOps hns3_pmu_ops = {
    .read = hns3_pmu_read,
    .write = hns3_pmu_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid.min_access_size = 4,
    .valid.max_access_size = 8,
    .valid.accepts = pmu_access_ok,
    .impl.min_access_size = 4,
    .impl.max_access_size = 8,
};

static void hns3_pmu_reset_hold(Object *obj, ResetType type)
{
    Hns3PmuState *s = HNS3_PMU(obj);

    hisi_pmu_reset(&s->pmu);
    s->global_ctrl = 0;
    for (unsigned i = 0; i < HNS3_PMU_SLOTS; i++) {
        s->slot[i] = (Hns3PmuSlot) {
            .intr_mask = R_EVENT_INTR_MASK_OVERFLOW_MASK,
        };
    }
    s->msi_sent = 0;
}

static void hns3_pmu_realize(PCIDevice *pdev, Error **errp)
{
    Hns3PmuState *s = HNS3_PMU(pdev);
    g_autofree char *pmu = g_strdup_printf("hns3_pmu_sicl_%u", s->sicl_id);

    if (!hisi_pcie_check_config(pdev, s->bdf_min, s->bdf_max, "bdf-min",
                                "bdf-max", "the NIC's functions are on one "
                                "bus, for example 0x0100..0x01ff", pmu,
                                errp)) {
        return;
    }
    if (!s->pmu.clock_freq || s->pmu.clock_freq > NANOSECONDS_PER_SECOND) {
        error_setg(errp, "hns3-pmu: clock-freq must be 1..1000000000 Hz "
                   "(got %u)", s->pmu.clock_freq);
        return;
    }
    if (!s->ports || s->ports > NIC_MAX_PORTS) {
        error_setg(errp, "hns3-pmu: ports must be 1..%d (got %u)",
                   NIC_MAX_PORTS, s->ports);
        return;
    }
    if (!s->tcs || s->tcs > NIC_MAX_TCS) {
        error_setg(errp, "hns3-pmu: tcs must be 1..%d (got %u)", NIC_MAX_TCS,
                   s->tcs);
        return;
    }
    if (!s->queues || s->queues > PMU_MAX_QUEUES) {
        error_setg(errp, "hns3-pmu: queues must be 1..%d (got %u)",
                   PMU_MAX_QUEUES, s->queues);
        return;
    }
    memory_region_init_io(&s->mmio, OBJECT(s), &hns3_pmu_ops, s,
                          "hns3-pmu-mmio", HNS3_PMU_MMIO_SIZE);
    if (!hisi_pcie_rciep_init(pdev, &s->mmio, errp)) {
        return;
    }
    hisi_pmu_realize(&s->pmu);
}

static void hns3_pmu_exit(PCIDevice *pdev)
{
    Hns3PmuState *s = HNS3_PMU(pdev);

    hisi_pmu_unrealize(&s->pmu);
    hisi_pcie_rciep_exit(pdev);
}

static const VMStateDescription vmstate_hns3_pmu_slot = {
    .name = "hns3-pmu-slot",
    .version_id = 2,
    .minimum_version_id = 2,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(ctrl_low, Hns3PmuSlot),
        VMSTATE_UINT32(ctrl_high, Hns3PmuSlot),
        VMSTATE_UINT32(intr_status, Hns3PmuSlot),
        VMSTATE_UINT32(intr_mask, Hns3PmuSlot),
        VMSTATE_UINT32(qid_ctrl, Hns3PmuSlot),
        VMSTATE_UINT32(qid_para, Hns3PmuSlot),
        VMSTATE_END_OF_LIST()
    },
};

static const VMStateDescription vmstate_hns3_pmu = {
    .name = TYPE_HNS3_PMU,
    .version_id = 2,
    .minimum_version_id = 2,
    .fields = (const VMStateField[]) {
        VMSTATE_PCI_DEVICE(parent_obj, Hns3PmuState),
        VMSTATE_UINT32(global_ctrl, Hns3PmuState),
        VMSTATE_STRUCT_ARRAY(slot, Hns3PmuState, HNS3_PMU_SLOTS, 2,
                             vmstate_hns3_pmu_slot, Hns3PmuSlot),
        VMSTATE_UINT32(msi_sent, Hns3PmuState),
        VMSTATE_STRUCT(pmu, Hns3PmuState, 1, vmstate_hisi_pmu, HisiPmu),
        VMSTATE_END_OF_LIST()
    },
};

static const Property hns3_pmu_properties[] = {
    DEFINE_PROP_UINT16("sicl-id", Hns3PmuState, sicl_id, 0),
    /* The NIC's functions: bus 1 */
    DEFINE_PROP_UINT16("bdf-min", Hns3PmuState, bdf_min, 0x0100),
    DEFINE_PROP_UINT16("bdf-max", Hns3PmuState, bdf_max, 0x01ff),
    DEFINE_PROP_UINT32("version", Hns3PmuState, version, 0x40),
    DEFINE_PROP_UINT32("clock-freq", Hns3PmuState, pmu.clock_freq, 100000000),
    DEFINE_PROP_UINT8("ports", Hns3PmuState, ports, 4),
    DEFINE_PROP_UINT16("queues", Hns3PmuState, queues, 4),
    DEFINE_PROP_UINT8("tcs", Hns3PmuState, tcs, 4),
    DEFINE_PROP_LINK("traffic", Hns3PmuState, pmu.traffic, TYPE_HISI_TRAFFIC,
                     HisiTraffic *),
};

static void hns3_pmu_instance_init(Object *obj)
{
    Hns3PmuState *s = HNS3_PMU(obj);

    hisi_pmu_init(&s->pmu, obj, &pmu_ops);
}

static void hns3_pmu_class_init(ObjectClass *klass, HisiClassData *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    PCIDeviceClass *k = PCI_DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    k->realize = hns3_pmu_realize;
    k->exit = hns3_pmu_exit;
    k->vendor_id = HNS3_PMU_VENDOR_ID;
    k->device_id = HNS3_PMU_DEVICE_ID;
    k->class_id = PCI_CLASS_SYSTEM_OTHER;
    rc->phases.hold = hns3_pmu_reset_hold;
    dc->desc = "HiSilicon HNS3 PMU: counts the bandwidth, packets, latency "
               "and interrupts of the HNS3 NIC's functions";
    dc->vmsd = &vmstate_hns3_pmu;
    device_class_set_props(dc, hns3_pmu_properties);
    object_class_property_set_description(klass, "sicl-id",
        "SICL id in DEVICE_ID, 0-65535: the PMU is hns3_pmu_sicl_<sicl-id>, "
        "unique per bus");
    object_class_property_set_description(klass, "bdf-min",
        "BDF of the first NIC function counted (BDF register), on the bus "
        "of bdf-max and not above it; 0x0100 is 01:00.0");
    object_class_property_set_description(klass, "bdf-max",
        "BDF of the last NIC function counted (BDF register); "
        "0x01ff is 01:1f.7");
    object_class_property_set_description(klass, "version",
        "VERSION register, the PMU's identifier in sysfs, 32 bits; "
        "0x40 by default");
    object_class_property_set_description(klass, "clock-freq",
        "CLOCK_FREQ register: Hz of the cycles latencies count, "
        "1-1000000000");
    object_class_property_set_description(klass, "ports",
        "MAC ports of the NIC, 1-8: function f is on port f % ports");
    object_class_property_set_description(klass, "queues",
        "Queues of each NIC function, 1-256");
    object_class_property_set_description(klass, "tcs",
        "Traffic classes of each MAC port, 1-8");
    object_class_property_set_description(klass, "traffic",
        "hisi-traffic object whose NIC traffic is counted; "
        "without it, the board's shared /machine/hisi-traffic-default");
    set_bit(DEVICE_CATEGORY_MISC, dc->categories);
}

static const TypeInfo hns3_pmu_info = {
    .name = TYPE_HNS3_PMU,
    .parent = TYPE_PCI_DEVICE,
    .instance_size = sizeof(Hns3PmuState),
    .instance_init = hns3_pmu_instance_init,
    .class_init = hns3_pmu_class_init,
    .interfaces = (InterfaceInfo[]) {
        { INTERFACE_PCIE_DEVICE },
        { }
    },
};

static void hns3_pmu_register_types(void)
{
    type_register_static(&hns3_pmu_info);
}

type_init(hns3_pmu_register_types)
