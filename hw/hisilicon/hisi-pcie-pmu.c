/*
 * HiSilicon PCIe PMU device
 *
 * The PCIe PMU is a Root Complex integrated Endpoint of a HiSilicon Kunpeng
 * PCIe core that counts the traffic of the core's root ports and the
 * endpoints below them: latency (summed delay and TLP count) and bandwidth
 * (flux and time) per TLP kind and direction, with port or requester
 * filters, a length threshold, a trigger and a length mode.
 *
 * Reference: Linux Documentation/admin-guide/perf/hisi-pcie-pmu.rst and the
 * hisi_pcie_pmu driver (drivers/perf/hisilicon/hisi_pcie_pmu.c), whose
 * register use this follows.
 *
 * Counts come from the hisi-traffic object (model/traffic.c) as O(1) sums
 * computed when the guest reads a counter or something changes; no timer
 * runs but one armed when an unmasked counter is due to overflow.
 *
 * Delays and times count cycles of the PMU's clock ("clock-freq" Hz of
 * virtual time), as the driver's "delay cycles" says.
 *
 * Not modelled: the events of other PMU kinds of the hardware (buffer
 * occupancy, bus utilization): a counter set to an event code the model
 * does not know is not implemented, so it neither counts nor takes writes
 * (what the driver's set_period checks for an unsupported event).
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
#include "hisi-tap.h"
#include "hisi-pcie-pmu-regs.h"
#include "model/pcie-pmu.h"

#define TYPE_HISI_PCIE_PMU "hisi-pcie-pmu"
OBJECT_DECLARE_SIMPLE_TYPE(HisiPciePmuState, HISI_PCIE_PMU)

/* A counter's registers; its counts are in the engine's slot */
typedef struct PmuCounter {
    uint64_t event_ctrl;
    uint32_t int_stat;
    uint32_t int_mask;
    bool triggered;
} PmuCounter;

struct HisiPciePmuState {
    PCIDevice parent_obj;

    MemoryRegion mmio;
    HisiPmu pmu;
    GArray *streams;        /* of TrafficStream: a counter's, pmu_streams() */
    Notifier real_tlp;
    bool wants_real;        /* what the traffic was told (not migrated) */

    /* properties */
    uint16_t sicl_id;
    uint16_t core_id;
    uint16_t bdf_min;
    uint16_t bdf_max;
    uint32_t version;

    uint32_t global_ctrl;
    PmuCounter ctr[HISI_PCIE_PMU_COUNTERS];
    uint32_t msi_sent;      /* counters whose pending overflow has its MSI */
};

static bool pmu_counting(HisiPciePmuState *s, PmuCounter *c)
{
    return FIELD_EX32(s->global_ctrl, GLOBAL_CTRL, EN) &&
           FIELD_EX64(c->event_ctrl, EVENT_CTRL, EVENT_EN) &&
           model_pcie_pmu_event(FIELD_EX64(c->event_ctrl, EVENT_CTRL, EVENT));
}

/* What the filters of @ctrl are for event @ev */
static PciePmuFilter pmu_filter(const PciePmuEvent *ev, uint64_t ctrl)
{
    uint8_t len_mode = FIELD_EX64(ctrl, EVENT_CTRL, LEN_MODE);

    return model_pcie_pmu_event_filter(ev, (PciePmuFilter) {
        .thr_en = FIELD_EX64(ctrl, EVENT_CTRL, THR_EN),
        .thr_below = FIELD_EX64(ctrl, EVENT_CTRL, THR_MODE),
        .thr_len = MIN(FIELD_EX64(ctrl, EVENT_CTRL, THR),
                       HISI_PCIE_PMU_LEN_SHIFT_MAX),
        .trig_en = FIELD_EX64(ctrl, EVENT_CTRL, TRIG_EN),
        .trig_below = FIELD_EX64(ctrl, EVENT_CTRL, TRIG_MODE),
        .trig_len = MIN(FIELD_EX64(ctrl, EVENT_CTRL, TRIG),
                        HISI_PCIE_PMU_LEN_SHIFT_MAX),
        /* 0 is reserved: count both parts */
        .len_mode = len_mode ? len_mode : PCIE_PMU_LEN_BOTH,
    });
}

typedef struct PmuWalk {
    HisiPciePmuState *s;
    uint64_t ctrl;
    const PciePmuEvent *ev;
} PmuWalk;

/*
 * The target filter: root ports (TARGET a port bitmap), or with TARGET_EN
 * a requester (hisi-pcie-pmu.rst: "Counter only counts the bandwidth of
 * message requested by target Endpoint"): the TLPs whose Requester ID is
 * TARGET, i.e. its requests and the completions addressed to it, not the
 * CPU's requests to it. The requester filter "can only be used in
 * bandwidth events": latency counters select by port only, so TARGET_EN
 * leaves them no port and they count nothing.
 */
static void pmu_add_endpoint(PCIDevice *ep, PCIDevice *port, void *opaque)
{
    PmuWalk *w = opaque;
    TrafficStream streams[TRAFFIC_ENDPOINT_STREAMS];
    uint32_t target = FIELD_EX64(w->ctrl, EVENT_CTRL, TARGET);
    bool by_requester = FIELD_EX64(w->ctrl, EVENT_CTRL, TARGET_EN);
    uint16_t bdf = pci_get_bdf(ep);
    uint64_t mmio_base;
    uint32_t mmio_size;

    if (by_requester ? w->ev->latency ||
                       (target != bdf && target != pci_get_bdf(port)) :
        !(target & hisi_pcie_port_bit(port))) {
        return;
    }
    hisi_pcie_mmio_window(ep, &mmio_base, &mmio_size);
    hisi_traffic_endpoint_streams(w->s->pmu.traffic, streams, bdf,
                                  pci_get_bdf(port), mmio_base, mmio_size);
    for (int i = 0; i < TRAFFIC_ENDPOINT_STREAMS; i++) {
        if (by_requester && model_traffic_requester(&streams[i]) != target) {
            continue;
        }
        if (model_pcie_pmu_stream_matches(w->ev, &streams[i])) {
            g_array_append_val(w->s->streams, streams[i]);
        }
    }
}

/*
 * The streams counter @c counts, from the topology as it is now: their
 * number in @n. However many endpoints the root ports have, a counter
 * counts them all, as the hardware does.
 */
static TrafficStream *pmu_streams(HisiPciePmuState *s, PmuCounter *c,
                                  uint32_t *n)
{
    PmuWalk w = {
        .s = s,
        .ctrl = c->event_ctrl,
        .ev = model_pcie_pmu_event(FIELD_EX64(c->event_ctrl, EVENT_CTRL,
                                              EVENT)),
    };

    g_array_set_size(s->streams, 0);
    if (hisi_traffic_synthetic(s->pmu.traffic)) {
        hisi_pcie_foreach_endpoint(PCI_DEVICE(s), s->bdf_min, s->bdf_max,
                                   pmu_add_endpoint, &w);
    }
    *n = s->streams->len;
    return (TrafficStream *)s->streams->data;
}

/*
 * The MSI: sent when a counter's overflow becomes pending (status set and
 * unmasked); the driver's handler clears the status of each it handles.
 */
static void pmu_update_irq(HisiPmu *pmu)
{
    HisiPciePmuState *s = container_of(pmu, HisiPciePmuState, pmu);
    uint32_t pending = 0;

    for (unsigned idx = 0; idx < HISI_PCIE_PMU_COUNTERS; idx++) {
        pending |= (s->ctr[idx].int_stat && !s->ctr[idx].int_mask) << idx;
    }
    hisi_pcie_msi_update(PCI_DEVICE(s), pending, &s->msi_sent);
}

static void pmu_overflow(HisiPmu *pmu, unsigned idx)
{
    HisiPciePmuState *s = container_of(pmu, HisiPciePmuState, pmu);

    s->ctr[idx].int_stat = R_INT_STAT_OVERFLOW_MASK;
}

/* Add what counter @idx counted in [t0, t1) */
static void pmu_count(HisiPmu *pmu, unsigned idx, int64_t t0, int64_t t1)
{
    HisiPciePmuState *s = container_of(pmu, HisiPciePmuState, pmu);
    PmuCounter *c = &s->ctr[idx];
    const PciePmuEvent *ev;
    PciePmuFilter f;
    PciePmuSums sums = { 0 };
    TrafficStream *streams;
    uint32_t n;

    if (!pmu_counting(s, c)) {
        return;
    }
    ev = model_pcie_pmu_event(FIELD_EX64(c->event_ctrl, EVENT_CTRL, EVENT));
    f = pmu_filter(ev, c->event_ctrl);
    streams = pmu_streams(s, c, &n);
    if (f.trig_en && !c->triggered) {
        int64_t first = TRAFFIC_NEVER;

        for (uint32_t i = 0; i < n; i++) {
            const TrafficFlow *flow = &streams[i].flow;
            uint64_t k = model_pcie_pmu_trigger_tlp(
                &streams[i], &f, model_traffic_count_before(flow, t0));

            if (k != UINT64_MAX) {
                first = MIN(first, model_traffic_time(flow, k));
            }
        }
        if (first >= t1) {
            return;
        }
        if (!hisi_pmu_probing(pmu)) {
            c->triggered = true;
        }
        t0 = first;
    }
    for (uint32_t i = 0; i < n; i++) {
        const TrafficFlow *flow = &streams[i].flow;

        model_pcie_pmu_stream_sums(&streams[i], &f,
                                   model_traffic_count_before(flow, t0),
                                   model_traffic_count_before(flow, t1),
                                   &sums);
    }
    if (ev->latency) {
        hisi_pmu_add_cycles(pmu, idx, HISI_PMU_CNT, sums.delay_ns);
        hisi_pmu_add(pmu, idx, HISI_PMU_EXT_CNT, sums.tlps);
    } else {
        hisi_pmu_add(pmu, idx, HISI_PMU_CNT, sums.bytes);
        hisi_pmu_add_cycles(pmu, idx, HISI_PMU_EXT_CNT, t1 - t0);
    }
}

/*
 * Whether counter @c counts the real TLPs of root port @port and
 * requester @requester (those of a transfer): its ports and the target
 * filter, as pmu_add_endpoint applies it
 */
static bool pmu_selects_real_source(HisiPciePmuState *s, PmuCounter *c,
                                    const PciePmuEvent *ev, PCIDevice *port,
                                    uint16_t requester)
{
    uint32_t target = FIELD_EX64(c->event_ctrl, EVENT_CTRL, TARGET);
    uint16_t bdf = pci_get_bdf(port);

    if (bdf < s->bdf_min || bdf > s->bdf_max) {
        return false;
    }
    if (FIELD_EX64(c->event_ctrl, EVENT_CTRL, TARGET_EN)) {
        return !ev->latency && target == requester;
    }
    return target & hisi_pcie_port_bit(port);
}

/*
 * Whether event @ev counts @t, a real TLP: its requests are memory reads
 * and writes, no I/O or configuration
 */
static bool pmu_selects_real_tlp(const PciePmuEvent *ev, const HisiRealTlp *t)
{
    TrafficStream like = { .dir = t->dir, .kind = t->kind };

    return model_pcie_pmu_stream_matches(ev, &like) &&
           (t->kind == TRAFFIC_COMPLETION ||
            model_pcie_tlp_type(&t->tlp) == TLP_TYPE_MEM);
}

/*
 * Counter @idx counts @t, a TLP of the real traffic it selects, under
 * filter @f of its event @ev
 */
static void pmu_count_real(HisiPciePmuState *s, unsigned idx,
                           const PciePmuEvent *ev, const PciePmuFilter *f,
                           const HisiRealTlp *t)
{
    PmuCounter *c = &s->ctr[idx];
    uint16_t len_dw = model_pcie_tlp_len_dw(&t->tlp);
    unsigned header_dw = model_pcie_tlp_fmt(&t->tlp) & 1 ? 4 : 3;
    PciePmuSums sums = { 0 };

    if (f->trig_en && !c->triggered) {
        if (!model_pcie_pmu_fires_trigger(f, len_dw)) {
            return;
        }
        c->triggered = true;
    }
    model_pcie_pmu_tlp_sums(f, t->kind, len_dw, header_dw, 0, &sums);
    if (ev->latency) {
        hisi_pmu_add(&s->pmu, idx, HISI_PMU_EXT_CNT, sums.tlps);
    } else {
        hisi_pmu_add(&s->pmu, idx, HISI_PMU_CNT, sums.bytes);
    }
}

/*
 * The TLPs of a transfer of the real traffic (source=real or mixed),
 * counted at their time by each counter that selects them, as TLPs of a
 * stream would be. QEMU completes a read at once: its latency counts the
 * TLP, no delay.
 */
static void pmu_real_tlps(Notifier *n, void *data)
{
    HisiPciePmuState *s = container_of(n, HisiPciePmuState, real_tlp);
    const HisiRealTlps *tlps = data;
    int64_t now = tlps->now;
    bool counted = false;

    for (unsigned idx = 0; idx < HISI_PCIE_PMU_COUNTERS; idx++) {
        PmuCounter *c = &s->ctr[idx];
        const PciePmuEvent *ev;
        PciePmuFilter f;
        bool folded = false;

        if (!pmu_counting(s, c)) {
            continue;
        }
        ev = model_pcie_pmu_event(FIELD_EX64(c->event_ctrl, EVENT_CTRL,
                                             EVENT));
        if (!pmu_selects_real_source(s, c, ev, tlps->port, tlps->requester)) {
            continue;
        }
        f = pmu_filter(ev, c->event_ctrl);
        for (unsigned i = 0; i < tlps->n; i++) {
            if (!pmu_selects_real_tlp(ev, &tlps->tlp[i])) {
                continue;
            }
            if (!folded) {
                hisi_pmu_fold(&s->pmu, idx, now);
                folded = true;
            }
            pmu_count_real(s, idx, ev, &f, &tlps->tlp[i]);
        }
        counted |= folded;
    }
    if (counted) {
        pmu_update_irq(&s->pmu);
        hisi_pmu_schedule(&s->pmu, now);
    }
}

/* A PMU with a counter counting wants the real TLPs. */
static void pmu_want_real(HisiPciePmuState *s)
{
    bool want = false;

    for (unsigned idx = 0; idx < HISI_PCIE_PMU_COUNTERS; idx++) {
        want |= pmu_counting(s, &s->ctr[idx]);
    }
    if (want != s->wants_real) {
        s->wants_real = want;
        hisi_traffic_want_real(s->pmu.traffic, want);
    }
}

/* The most counter @idx's CNT and EXT_CNT grow by (HisiPmuGrowth) */
static bool pmu_max_growth(HisiPmu *pmu, unsigned idx,
                           HisiPmuGrowth growth[HISI_PMU_SLOT_COUNTERS])
{
    HisiPciePmuState *s = container_of(pmu, HisiPciePmuState, pmu);
    PmuCounter *c = &s->ctr[idx];
    const PciePmuEvent *ev;
    uint64_t delay_ns_per_s = 0, delay_ns_at_once = 0;
    TrafficStream *streams;
    uint32_t n;

    if (!pmu_counting(s, c) || c->int_mask) {
        return false;
    }
    ev = model_pcie_pmu_event(FIELD_EX64(c->event_ctrl, EVENT_CTRL, EVENT));
    streams = pmu_streams(s, c, &n);
    for (uint32_t i = 0; i < n; i++) {
        const TrafficStream *st = &streams[i];
        uint16_t max_len = 0;

        for (int j = 0; j < TRAFFIC_PATTERN; j++) {
            max_len = MAX(max_len, st->flow.len[j]);
        }
        if (ev->latency) {
            delay_ns_per_s += st->flow.rate * st->latency_ns;
            delay_ns_at_once += st->latency_ns;
        } else {
            growth[HISI_PMU_CNT].per_s += st->flow.rate * (max_len + 4) * 4u;
            growth[HISI_PMU_CNT].burst += (max_len + 4) * 4u;
        }
        growth[HISI_PMU_EXT_CNT].per_s += st->flow.rate;
        growth[HISI_PMU_EXT_CNT].burst++;
    }
    if (ev->latency) {
        growth[HISI_PMU_CNT] = hisi_pmu_delay_growth(pmu, delay_ns_per_s,
                                                     delay_ns_at_once);
    } else {
        growth[HISI_PMU_EXT_CNT] = (HisiPmuGrowth) { pmu->clock_freq, 1 };
    }
    return true;
}

static const HisiPmuOps pmu_ops = {
    .slots = HISI_PCIE_PMU_COUNTERS,
    .bits = { [0 ... HISI_PCIE_PMU_COUNTERS - 1] = 64 },
    .count = pmu_count,
    .max_growth = pmu_max_growth,
    .overflow = pmu_overflow,
    .update_irq = pmu_update_irq,
};

/* Is @addr a 64-bit register (which may also be accessed by halves)? */
static bool pmu_reg_is_wide(hwaddr addr)
{
    return addr >= A_EVENT_CTRL && addr < A_INT_STAT;
}

/* Aligned 32-bit accesses, and 64-bit ones to the 64-bit registers */
static bool pmu_access_ok(void *opaque, hwaddr addr, unsigned size,
                          bool is_write, MemTxAttrs attrs)
{
    return size == 4 || pmu_reg_is_wide(addr);
}

/* Which per-counter register of array @base @addr is, and its counter */
static bool pmu_counter_reg(hwaddr addr, hwaddr base, unsigned *idx,
                            hwaddr *off)
{
    return hisi_reg_in_array(addr, base, HISI_PCIE_PMU_STRIDE,
                             HISI_PCIE_PMU_COUNTERS, idx, off);
}

static uint64_t hisi_pcie_pmu_read(void *opaque, hwaddr addr, unsigned size)
{
    HisiPciePmuState *s = opaque;
    HisiPmuSlot *slot;
    unsigned idx;
    hwaddr off;
    uint64_t val = 0;

    if (addr == A_GLOBAL_CTRL) {
        val = s->global_ctrl;
    } else if (pmu_counter_reg(addr, A_EVENT_CTRL, &idx, &off)) {
        val = hisi_reg64_read(s->ctr[idx].event_ctrl, off, size);
    } else if (pmu_counter_reg(addr, A_CNT, &idx, &off)) {
        slot = &s->pmu.slot[idx];
        hisi_pmu_fold(&s->pmu, idx, hisi_pmu_now());
        val = hisi_reg64_read(slot->value[HISI_PMU_CNT], off, size);
    } else if (pmu_counter_reg(addr, A_EXT_CNT, &idx, &off)) {
        slot = &s->pmu.slot[idx];
        hisi_pmu_fold(&s->pmu, idx, hisi_pmu_now());
        val = hisi_reg64_read(slot->value[HISI_PMU_EXT_CNT], off, size);
    } else if (pmu_counter_reg(addr, A_INT_STAT, &idx, &off)) {
        hisi_pmu_fold(&s->pmu, idx, hisi_pmu_now());
        val = off == A_INT_MASK - A_INT_STAT ? s->ctr[idx].int_mask :
                                               s->ctr[idx].int_stat;
    } else if (addr == A_REG_BDF) {
        val = FIELD_DP32(s->bdf_min, REG_BDF, MAX, s->bdf_max);
    } else if (addr == A_REG_VERSION) {
        val = s->version;
    } else if (addr == A_REG_INFO) {
        val = FIELD_DP32(s->core_id, REG_INFO, SICL_ID, s->sicl_id);
    } else {
        qemu_log_mask(LOG_GUEST_ERROR, "hisi-pcie-pmu: read of unknown "
                      "register 0x%03" HWADDR_PRIx "\n", addr);
    }
    trace_hisi_pcie_pmu_read(addr, size, val);
    return val;
}

/*
 * Whether counter @idx takes a write of CNT or EXT_CNT: not when its event
 * code is unknown, as on hardware for an unsupported event (the driver's
 * set_period writes the counter and reads it back to find that out).
 */
static bool pmu_counter_writable(HisiPciePmuState *s, unsigned idx)
{
    uint16_t code = FIELD_EX64(s->ctr[idx].event_ctrl, EVENT_CTRL, EVENT);

    if (model_pcie_pmu_event(code)) {
        return true;
    }
    qemu_log_mask(LOG_GUEST_ERROR, "hisi-pcie-pmu: counter %u written with "
                  "unknown event 0x%04x: ignored\n", idx, code);
    return false;
}

static void pmu_write_event_ctrl(HisiPciePmuState *s, unsigned idx,
                                 uint64_t val)
{
    PmuCounter *c = &s->ctr[idx];
    HisiPmuSlot *slot = &s->pmu.slot[idx];
    uint16_t code = FIELD_EX64(val, EVENT_CTRL, EVENT);

    if (FIELD_EX64(val, EVENT_CTRL, RESET_CNT)) {
        memset(slot->value, 0, sizeof(slot->value));
        memset(slot->frac, 0, sizeof(slot->frac));
    }
    if (FIELD_EX64(val, EVENT_CTRL, EVENT_EN) && !model_pcie_pmu_event(code)) {
        qemu_log_mask(LOG_GUEST_ERROR, "hisi-pcie-pmu: counter %u enabled "
                      "with unknown event 0x%04x: it does not count\n",
                      idx, code);
    }
    if (FIELD_EX64(val, EVENT_CTRL, THR) > HISI_PCIE_PMU_LEN_SHIFT_MAX ||
        FIELD_EX64(val, EVENT_CTRL, TRIG) > HISI_PCIE_PMU_LEN_SHIFT_MAX) {
        qemu_log_mask(LOG_GUEST_ERROR, "hisi-pcie-pmu: counter %u: threshold"
                      " or trigger length above 2^%d DW: taken as 2^%d\n",
                      idx, HISI_PCIE_PMU_LEN_SHIFT_MAX,
                      HISI_PCIE_PMU_LEN_SHIFT_MAX);
    }
    if (!FIELD_EX64(val, EVENT_CTRL, EVENT_EN)) {
        c->triggered = false;
    }
    c->event_ctrl = val;
}

static void hisi_pcie_pmu_write(void *opaque, hwaddr addr, uint64_t val,
                                unsigned size)
{
    HisiPciePmuState *s = opaque;
    HisiPmuSlot *slot;
    unsigned idx;
    hwaddr off;
    int64_t now = hisi_pmu_now();

    trace_hisi_pcie_pmu_write(addr, size, val);
    /* Counts up to now go by the old settings. */
    hisi_pmu_fold_all(&s->pmu, now);
    if (addr == A_GLOBAL_CTRL) {
        s->global_ctrl = val & R_GLOBAL_CTRL_EN_MASK;
    } else if (pmu_counter_reg(addr, A_EVENT_CTRL, &idx, &off)) {
        pmu_write_event_ctrl(s, idx, hisi_reg64_write(s->ctr[idx].event_ctrl,
                                                      off, size, val));
    } else if (pmu_counter_reg(addr, A_CNT, &idx, &off)) {
        slot = &s->pmu.slot[idx];
        if (pmu_counter_writable(s, idx)) {
            slot->value[HISI_PMU_CNT] =
                hisi_reg64_write(slot->value[HISI_PMU_CNT], off, size, val);
        }
    } else if (pmu_counter_reg(addr, A_EXT_CNT, &idx, &off)) {
        slot = &s->pmu.slot[idx];
        if (pmu_counter_writable(s, idx)) {
            slot->value[HISI_PMU_EXT_CNT] =
                hisi_reg64_write(slot->value[HISI_PMU_EXT_CNT], off, size,
                                 val);
        }
    } else if (pmu_counter_reg(addr, A_INT_STAT, &idx, &off)) {
        if (off == A_INT_MASK - A_INT_STAT) {
            s->ctr[idx].int_mask = val & R_INT_MASK_OVERFLOW_MASK;
        } else {
            /* W1C */
            s->ctr[idx].int_stat &= ~(val & R_INT_STAT_OVERFLOW_MASK);
        }
    } else if (addr == A_REG_BDF || addr == A_REG_VERSION ||
               addr == A_REG_INFO) {
        qemu_log_mask(LOG_GUEST_ERROR, "hisi-pcie-pmu: write to read-only "
                      "register 0x%03" HWADDR_PRIx " ignored\n", addr);
    } else {
        qemu_log_mask(LOG_GUEST_ERROR, "hisi-pcie-pmu: write to unknown "
                      "register 0x%03" HWADDR_PRIx " ignored\n", addr);
    }
    pmu_update_irq(&s->pmu);
    hisi_pmu_schedule(&s->pmu, now);
    pmu_want_real(s);
}

static const MemoryRegionOps hisi_pcie_pmu_ops = {
    .read = hisi_pcie_pmu_read,
    .write = hisi_pcie_pmu_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid.min_access_size = 4,
    .valid.max_access_size = 8,
    .valid.accepts = pmu_access_ok,
    .impl.min_access_size = 4,
    .impl.max_access_size = 8,
};

static void hisi_pcie_pmu_reset_hold(Object *obj, ResetType type)
{
    HisiPciePmuState *s = HISI_PCIE_PMU(obj);

    hisi_pmu_reset(&s->pmu);
    s->global_ctrl = 0;
    for (unsigned i = 0; i < HISI_PCIE_PMU_COUNTERS; i++) {
        s->ctr[i] = (PmuCounter) { .int_mask = R_INT_MASK_OVERFLOW_MASK };
    }
    s->msi_sent = 0;
    pmu_want_real(s);
}

static void hisi_pcie_pmu_realize(PCIDevice *pdev, Error **errp)
{
    HisiPciePmuState *s = HISI_PCIE_PMU(pdev);
    g_autofree char *pmu = g_strdup_printf("hisi_pcie%u_core%u", s->sicl_id,
                                           s->core_id);

    if (!hisi_pcie_check_config(pdev, s->bdf_min, s->bdf_max, "bdf-min",
                                "bdf-max", PCIE_ROOT_PORTS_HINT, pmu, errp) ||
        !hisi_pcie_check_root_ports(pdev, s->bdf_min, s->bdf_max, "bdf-min",
                                    "bdf-max", errp)) {
        return;
    }
    if (!s->pmu.clock_freq || s->pmu.clock_freq > NANOSECONDS_PER_SECOND) {
        error_setg(errp, "hisi-pcie-pmu: clock-freq must be 1..1000000000 "
                   "Hz (got %u)", s->pmu.clock_freq);
        return;
    }
    memory_region_init_io(&s->mmio, OBJECT(s), &hisi_pcie_pmu_ops, s,
                          "hisi-pcie-pmu-mmio", HISI_PCIE_PMU_MMIO_SIZE);
    if (!hisi_pcie_rciep_init(pdev, &s->mmio, errp)) {
        return;
    }
    s->streams = g_array_new(false, false, sizeof(TrafficStream));
    hisi_pmu_realize(&s->pmu);
    hisi_traffic_observe_real(s->pmu.traffic, &s->real_tlp, pmu_real_tlps);
}

static void hisi_pcie_pmu_exit(PCIDevice *pdev)
{
    HisiPciePmuState *s = HISI_PCIE_PMU(pdev);

    s->global_ctrl = 0;
    pmu_want_real(s);
    hisi_traffic_unobserve(&s->real_tlp);
    hisi_pmu_unrealize(&s->pmu);
    g_array_free(s->streams, true);
    hisi_pcie_rciep_exit(pdev);
}

static const VMStateDescription vmstate_pmu_counter = {
    .name = "hisi-pcie-pmu-counter",
    .version_id = 2,
    .minimum_version_id = 2,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT64(event_ctrl, PmuCounter),
        VMSTATE_UINT32(int_stat, PmuCounter),
        VMSTATE_UINT32(int_mask, PmuCounter),
        VMSTATE_BOOL(triggered, PmuCounter),
        VMSTATE_END_OF_LIST()
    },
};

static int hisi_pcie_pmu_post_load(void *opaque, int version_id)
{
    pmu_want_real(opaque);
    return 0;
}

static const VMStateDescription vmstate_hisi_pcie_pmu = {
    .name = TYPE_HISI_PCIE_PMU,
    .post_load = hisi_pcie_pmu_post_load,
    .version_id = 2,
    .minimum_version_id = 2,
    .fields = (const VMStateField[]) {
        VMSTATE_PCI_DEVICE(parent_obj, HisiPciePmuState),
        VMSTATE_UINT32(global_ctrl, HisiPciePmuState),
        VMSTATE_STRUCT_ARRAY(ctr, HisiPciePmuState, HISI_PCIE_PMU_COUNTERS, 2,
                             vmstate_pmu_counter, PmuCounter),
        VMSTATE_UINT32(msi_sent, HisiPciePmuState),
        VMSTATE_STRUCT(pmu, HisiPciePmuState, 1, vmstate_hisi_pmu, HisiPmu),
        VMSTATE_END_OF_LIST()
    },
};

static const Property hisi_pcie_pmu_properties[] = {
    DEFINE_PROP_UINT16("sicl-id", HisiPciePmuState, sicl_id, 0),
    DEFINE_PROP_UINT16("core-id", HisiPciePmuState, core_id, 0),
    /* Root ports 00:10.0 to 00:17.7 */
    DEFINE_PROP_UINT16("bdf-min", HisiPciePmuState, bdf_min, 0x0080),
    DEFINE_PROP_UINT16("bdf-max", HisiPciePmuState, bdf_max, 0x00bf),
    DEFINE_PROP_UINT32("version", HisiPciePmuState, version, 0x30),
    /* Hz of the cycles delays and times count */
    DEFINE_PROP_UINT32("clock-freq", HisiPciePmuState, pmu.clock_freq,
                       100000000),
    DEFINE_PROP_LINK("traffic", HisiPciePmuState, pmu.traffic,
                     TYPE_HISI_TRAFFIC, HisiTraffic *),
};

static void hisi_pcie_pmu_instance_init(Object *obj)
{
    HisiPciePmuState *s = HISI_PCIE_PMU(obj);

    hisi_pmu_init(&s->pmu, obj, &pmu_ops);
}

static void hisi_pcie_pmu_class_init(ObjectClass *klass, HisiClassData *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    PCIDeviceClass *k = PCI_DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    k->realize = hisi_pcie_pmu_realize;
    k->exit = hisi_pcie_pmu_exit;
    k->vendor_id = HISI_PCIE_PMU_VENDOR_ID;
    k->device_id = HISI_PCIE_PMU_DEVICE_ID;
    k->class_id = PCI_CLASS_SYSTEM_OTHER;
    rc->phases.hold = hisi_pcie_pmu_reset_hold;
    dc->desc = "HiSilicon PCIe PMU: counts the bandwidth and latency of a "
               "PCIe core's root ports and their endpoints";
    dc->vmsd = &vmstate_hisi_pcie_pmu;
    device_class_set_props(dc, hisi_pcie_pmu_properties);
    object_class_property_set_description(klass, "sicl-id",
        "SICL id in REG_INFO, 0-65535: the PMU is "
        "hisi_pcie<sicl-id>_core<core-id>, unique per bus");
    object_class_property_set_description(klass, "core-id",
        "PCIe core id in REG_INFO, 0-65535");
    object_class_property_set_description(klass, "bdf-min",
        "BDF of the first root port counted (REG_BDF), on the PMU's root "
        "bus, not above bdf-max; 0x0080 is 00:10.0");
    object_class_property_set_description(klass, "bdf-max",
        "BDF of the last root port counted (REG_BDF); 0x00bf is 00:17.7");
    object_class_property_set_description(klass, "version",
        "REG_VERSION, the PMU's identifier in sysfs, 32 bits; "
        "0x30 by default");
    object_class_property_set_description(klass, "clock-freq",
        "Hz of the cycles delays and times count, 1-1000000000");
    object_class_property_set_description(klass, "traffic",
        "hisi-traffic object whose traffic is counted; "
        "without it, the board's shared /machine/hisi-traffic-default");
    set_bit(DEVICE_CATEGORY_MISC, dc->categories);
}

static const TypeInfo hisi_pcie_pmu_info = {
    .name = TYPE_HISI_PCIE_PMU,
    .parent = TYPE_PCI_DEVICE,
    .instance_size = sizeof(HisiPciePmuState),
    .instance_init = hisi_pcie_pmu_instance_init,
    .class_init = hisi_pcie_pmu_class_init,
    .interfaces = (InterfaceInfo[]) {
        { INTERFACE_PCIE_DEVICE },
        { }
    },
};

static void hisi_pcie_pmu_register_types(void)
{
    type_register_static(&hisi_pcie_pmu_info);
}

type_init(hisi_pcie_pmu_register_types)
