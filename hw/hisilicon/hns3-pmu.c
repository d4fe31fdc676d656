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
 * with @queues queues. Their traffic comes from the hisi-traffic object
 * (model/nic-traffic.c); counts are O(1) sums (model/hns3-pmu.c) computed
 * when the guest reads a counter or something changes. Cycles count at
 * "clock-freq" Hz of virtual time. No timer runs but one armed when an
 * unmasked counter is due to overflow.
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
#include "hw/qdev-properties.h"
#include "hw/registerfields.h"
#include "migration/vmstate.h"
#include "trace.h"
#include "hisi-pcie-core.h"
#include "hisi-traffic.h"
#include "model/hns3-pmu.h"

#define TYPE_HNS3_PMU "hns3-pmu"
OBJECT_DECLARE_SIMPLE_TYPE(Hns3PmuState, HNS3_PMU)

#define PCI_VENDOR_ID_HUAWEI_PMU    0x19e5
#define PCI_DEVICE_ID_HNS3_PMU      0xa22b

#define PMU_MMIO_SIZE       0x10000
#define PMU_SLOTS           8
#define PMU_SLOT_BASE       0x1000
#define PMU_SLOT_SIZE       0x1000
#define PMU_MAX_QUEUES      256
#define PMU_MAX_STREAMS     (2 * PMU_MAX_QUEUES + 2)

REG32(GLOBAL_CTRL, 0x0000)
    FIELD(GLOBAL_CTRL, START, 0, 1)
REG32(CLOCK_FREQ, 0x0020)
REG32(BDF, 0x0fe0)
    FIELD(BDF, MIN, 0, 16)
    FIELD(BDF, MAX, 16, 16)
REG32(VERSION, 0x0fe4)
REG32(DEVICE_ID, 0x0fe8)

/* Per slot, from PMU_SLOT_BASE + PMU_SLOT_SIZE * idx */
REG32(EVENT_CTRL_LOW, 0x00)
    FIELD(EVENT_CTRL_LOW, TYPE, 0, 4)
    FIELD(EVENT_CTRL_LOW, SUBEVENT, 4, 7)
    FIELD(EVENT_CTRL_LOW, STATUS_RESET, 11, 1)
    FIELD(EVENT_CTRL_LOW, EN, 12, 1)
    FIELD(EVENT_CTRL_LOW, OVERFLOW_RESTART, 15, 1)
    FIELD(EVENT_CTRL_LOW, FILTER_MODE, 24, 8)
REG32(EVENT_CTRL_HIGH, 0x04)
REG32(EVENT_INTR_STATUS, 0x08)
REG32(EVENT_INTR_MASK, 0x0c)
    FIELD(EVENT_INTR_MASK, OVERFLOW, 1, 1)
REG64(EVENT_COUNTER, 0x10)
REG64(EVENT_EXT_COUNTER, 0x18)
REG32(EVENT_QID_CTRL, 0x28)
    FIELD(EVENT_QID_CTRL, REQ, 0, 1)
    FIELD(EVENT_QID_CTRL, DONE, 1, 1)
    FIELD(EVENT_QID_CTRL, MISS, 2, 1)
REG32(EVENT_QID_PARA, 0x2c)
    FIELD(EVENT_QID_PARA, FUNC, 0, 8)
    FIELD(EVENT_QID_PARA, QUEUE, 16, 16)

typedef struct Hns3PmuSlot {
    uint32_t ctrl_low;
    uint32_t ctrl_high;
    uint32_t intr_status;
    uint32_t intr_mask;
    uint64_t cnt;
    uint64_t ext_cnt;
    /* cycles are ns * clock-freq / 1e9: the remainders, kept exact */
    uint64_t cnt_frac;
    uint64_t ext_frac;
    uint32_t qid_ctrl;
    uint32_t qid_para;
    int64_t since;          /* ns: counted up to here */
} Hns3PmuSlot;

struct Hns3PmuState {
    PCIDevice parent_obj;

    MemoryRegion mmio;
    QEMUTimer *overflow_timer;  /* armed when an unmasked overflow is due */
    Notifier traffic_changed;
    NicStream streams[PMU_MAX_STREAMS];

    /* properties */
    uint16_t sicl_id;
    uint16_t bdf_min;
    uint16_t bdf_max;
    uint32_t version;
    uint32_t clock_freq;
    uint8_t ports;
    uint16_t queues;
    uint8_t tcs;
    HisiTraffic *traffic;

    uint32_t global_ctrl;
    Hns3PmuSlot slot[PMU_SLOTS];
};

static int64_t pmu_now(void)
{
    return qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
}

static const Hns3PmuEvent *pmu_event(Hns3PmuSlot *c)
{
    return hns3_pmu_event(FIELD_EX32(c->ctrl_low, EVENT_CTRL_LOW, TYPE) << 8 |
                          FIELD_EX32(c->ctrl_low, EVENT_CTRL_LOW, SUBEVENT));
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
    /* for the overflow bound: the most per second */
    uint64_t max_units, max_bytes, max_delay_ns;
    /* for the queue check */
    uint8_t devfn;
    uint16_t queue;
    bool found;
} PmuWalk;

static void pmu_walk_function(PCIDevice *func, PCIDevice *port, void *opaque)
{
    PmuWalk *w = opaque;
    Hns3PmuState *s = w->s;
    uint32_t n = hisi_traffic_nic_streams(s->traffic, s->streams,
                                          pci_get_bdf(func),
                                          port ? pci_get_bdf(port) : 0,
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
    if (hns3_pmu_stream_matches(w->ev, &w->filter, st)) {
        hns3_pmu_stream_sums(w->ev, st, w->t0, w->t1, &w->sums);
    }
}

static void pmu_update_irq(Hns3PmuState *s, unsigned idx)
{
    PCIDevice *pdev = PCI_DEVICE(s);
    Hns3PmuSlot *c = &s->slot[idx];

    if (c->intr_status && !FIELD_EX32(c->intr_mask, EVENT_INTR_MASK,
                                      OVERFLOW) && msi_enabled(pdev)) {
        msi_notify(pdev, 0);
    }
}

/* Add @delta to a 64-bit counter; it restarts from 0 past 2^64. */
static void pmu_add(Hns3PmuState *s, unsigned idx, uint64_t *reg,
                    uint64_t delta)
{
    uint64_t old = *reg;

    *reg += delta;
    if (*reg < old) {
        trace_hns3_pmu_overflow(idx);
        s->slot[idx].intr_status = R_EVENT_INTR_MASK_OVERFLOW_MASK;
        pmu_update_irq(s, idx);
    }
}

/* Add @ns of virtual time as cycles, exactly over any number of calls */
static void pmu_add_cycles(Hns3PmuState *s, unsigned idx, uint64_t *reg,
                           uint64_t *frac, uint64_t ns)
{
    unsigned __int128 total = (unsigned __int128)ns * s->clock_freq + *frac;

    *frac = total % NANOSECONDS_PER_SECOND;
    pmu_add(s, idx, reg, total / NANOSECONDS_PER_SECOND);
}

/* Count what slot @idx saw up to @now. */
static void pmu_fold(Hns3PmuState *s, unsigned idx, int64_t now)
{
    Hns3PmuSlot *c = &s->slot[idx];
    PmuWalk w = { .fn = pmu_sum_stream };

    if (!pmu_counting(s, c) || now <= c->since) {
        c->since = now;
        return;
    }
    w.ev = pmu_event(c);
    w.filter = pmu_filter(c);
    w.t0 = c->since;
    w.t1 = now;
    pmu_walk(s, &w);
    switch (w.ev->code >> 8) {
    case HNS3_PMU_BW:
        pmu_add(s, idx, &c->cnt, w.sums.bytes);
        pmu_add_cycles(s, idx, &c->ext_cnt, &c->ext_frac, now - c->since);
        break;
    case HNS3_PMU_DLY:
        pmu_add_cycles(s, idx, &c->cnt, &c->cnt_frac, w.sums.delay_ns);
        pmu_add(s, idx, &c->ext_cnt, w.sums.units);
        break;
    default:    /* packets or interrupts */
        pmu_add(s, idx, &c->cnt, w.sums.units);
        pmu_add_cycles(s, idx, &c->ext_cnt, &c->ext_frac, now - c->since);
        break;
    }
    c->since = now;
}

static void pmu_fold_all(Hns3PmuState *s, int64_t now)
{
    for (unsigned i = 0; i < PMU_SLOTS; i++) {
        pmu_fold(s, i, now);
    }
}

static void pmu_bound_stream(PmuWalk *w, const NicStream *st)
{
    uint16_t max_len = 0;

    if (!hns3_pmu_stream_matches(w->ev, &w->filter, st)) {
        return;
    }
    for (int j = 0; j < TRAFFIC_PATTERN; j++) {
        max_len = MAX(max_len, st->flow.len[j]);
    }
    w->max_units += st->flow.rate;
    w->max_bytes += st->flow.rate * MAX(max_len, HNS3_PMU_BD_BYTES);
    w->max_delay_ns += st->flow.rate * st->latency_ns;
}

/*
 * Arm the timer for the earliest overflow of an unmasked counter: an
 * early bound from the highest rate each counter can grow at.
 */
static void pmu_schedule(Hns3PmuState *s, int64_t now)
{
    int64_t due = INT64_MAX;

    for (unsigned idx = 0; idx < PMU_SLOTS; idx++) {
        Hns3PmuSlot *c = &s->slot[idx];
        PmuWalk w = { .fn = pmu_bound_stream };
        uint64_t cnt_rate, ext_rate;

        if (!pmu_counting(s, c) ||
            FIELD_EX32(c->intr_mask, EVENT_INTR_MASK, OVERFLOW)) {
            continue;
        }
        w.ev = pmu_event(c);
        w.filter = pmu_filter(c);
        pmu_walk(s, &w);
        switch (w.ev->code >> 8) {
        case HNS3_PMU_BW:
            cnt_rate = w.max_bytes;
            ext_rate = s->clock_freq;
            break;
        case HNS3_PMU_DLY:
            cnt_rate = muldiv64(w.max_delay_ns, s->clock_freq,
                                NANOSECONDS_PER_SECOND) + 1;
            ext_rate = w.max_units;
            break;
        default:
            cnt_rate = w.max_units;
            ext_rate = s->clock_freq;
            break;
        }
        due = MIN(due, hisi_pmu_overflow_due(now, c->cnt, cnt_rate));
        due = MIN(due, hisi_pmu_overflow_due(now, c->ext_cnt, ext_rate));
    }
    if (due == INT64_MAX) {
        timer_del(s->overflow_timer);
    } else {
        timer_mod(s->overflow_timer, MAX(due, now + 1));
    }
}

static void pmu_overflow_timer_cb(void *opaque)
{
    Hns3PmuState *s = opaque;
    int64_t now = pmu_now();

    pmu_fold_all(s, now);
    pmu_schedule(s, now);
}

static void pmu_traffic_changed(Notifier *n, void *data)
{
    Hns3PmuState *s = container_of(n, Hns3PmuState, traffic_changed);
    HisiTrafficChange *change = data;

    if (change->done) {
        pmu_schedule(s, change->now);
    } else {
        pmu_fold_all(s, change->now);
    }
}

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
    if (addr < PMU_SLOT_BASE ||
        addr >= PMU_SLOT_BASE + PMU_SLOTS * PMU_SLOT_SIZE) {
        return false;
    }
    *idx = (addr - PMU_SLOT_BASE) / PMU_SLOT_SIZE;
    *off = (addr - PMU_SLOT_BASE) % PMU_SLOT_SIZE;
    return true;
}

static bool pmu_is_counter(hwaddr off)
{
    return off >= A_EVENT_COUNTER && off < A_EVENT_COUNTER + 16;
}

/* 32-bit accesses, and 64-bit ones to the counters, aligned */
static bool pmu_access_ok(hwaddr addr, unsigned size)
{
    unsigned idx;
    hwaddr off;
    bool wide = pmu_slot_reg(addr, &idx, &off) && pmu_is_counter(off);

    return (size == 4 || (size == 8 && wide)) && !(addr & (size - 1));
}

static uint64_t counter_read(uint64_t reg, hwaddr off, unsigned size)
{
    return size == 8 ? reg : extract64(reg, (off & 4) * 8, 32);
}

static uint64_t counter_write(uint64_t reg, hwaddr off, unsigned size,
                              uint64_t val)
{
    return size == 8 ? val : deposit64(reg, (off & 4) * 8, 32, val);
}

static uint64_t pmu_slot_read(Hns3PmuState *s, unsigned idx, hwaddr off,
                              unsigned size)
{
    Hns3PmuSlot *c = &s->slot[idx];

    switch (off & ~7) {
    case A_EVENT_COUNTER:
        pmu_fold(s, idx, pmu_now());
        return counter_read(c->cnt, off, size);
    case A_EVENT_EXT_COUNTER:
        pmu_fold(s, idx, pmu_now());
        return counter_read(c->ext_cnt, off, size);
    }
    switch (off) {
    case A_EVENT_CTRL_LOW:
        return c->ctrl_low;
    case A_EVENT_CTRL_HIGH:
        return c->ctrl_high;
    case A_EVENT_INTR_STATUS:
        pmu_fold(s, idx, pmu_now());
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

    if (!pmu_access_ok(addr, size)) {
        qemu_log_mask(LOG_GUEST_ERROR, "hns3-pmu: %u-byte read at 0x%04"
                      HWADDR_PRIx ": only aligned 32-bit accesses, and "
                      "64-bit ones to the counters\n", size, addr);
    } else if (pmu_slot_reg(addr, &idx, &off)) {
        val = pmu_slot_read(s, idx, off, size);
    } else if (addr == A_GLOBAL_CTRL) {
        val = s->global_ctrl;
    } else if (addr == A_CLOCK_FREQ) {
        val = s->clock_freq;
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
    uint16_t code = FIELD_EX32(val, EVENT_CTRL_LOW, TYPE) << 8 |
                    FIELD_EX32(val, EVENT_CTRL_LOW, SUBEVENT);
    const Hns3PmuEvent *ev = hns3_pmu_event(code);

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

    switch (off & ~7) {
    case A_EVENT_COUNTER:
        c->cnt = counter_write(c->cnt, off, size, val);
        return;
    case A_EVENT_EXT_COUNTER:
        c->ext_cnt = counter_write(c->ext_cnt, off, size, val);
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
        pmu_update_irq(s, idx);
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
    int64_t now = pmu_now();
    unsigned idx;
    hwaddr off;

    trace_hns3_pmu_write(addr, size, val);
    if (!pmu_access_ok(addr, size)) {
        qemu_log_mask(LOG_GUEST_ERROR, "hns3-pmu: %u-byte write at 0x%04"
                      HWADDR_PRIx " ignored: only aligned 32-bit accesses, "
                      "and 64-bit ones to the counters\n", size, addr);
        return;
    }
    /* Counts up to now go by the old settings. */
    pmu_fold_all(s, now);
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
    pmu_schedule(s, now);
}

static const MemoryRegionOps hns3_pmu_ops = {
    .read = hns3_pmu_read,
    .write = hns3_pmu_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    /* Other sizes reach the handlers to be logged as guest errors. */
    .valid.min_access_size = 1,
    .valid.max_access_size = 8,
    .impl.min_access_size = 1,
    .impl.max_access_size = 8,
};

static void hns3_pmu_reset_hold(Object *obj, ResetType type)
{
    Hns3PmuState *s = HNS3_PMU(obj);
    int64_t now = pmu_now();

    timer_del(s->overflow_timer);
    s->global_ctrl = 0;
    for (unsigned i = 0; i < PMU_SLOTS; i++) {
        s->slot[i] = (Hns3PmuSlot) {
            .intr_mask = R_EVENT_INTR_MASK_OVERFLOW_MASK,
            .since = now,
        };
    }
}

/*
 * Fault injection: qom-set "advance" to "IDX=N" adds N to slot IDX's
 * counter as if that much had been counted, to reach an overflow soon.
 */
static void pmu_set_advance(Object *obj, const char *value, Error **errp)
{
    Hns3PmuState *s = HNS3_PMU(obj);
    int64_t now = pmu_now();
    unsigned idx;
    uint64_t n;

    if (!hisi_pmu_parse_advance(TYPE_HNS3_PMU, value, PMU_SLOTS, &idx, &n,
                                errp)) {
        return;
    }
    pmu_fold_all(s, now);
    pmu_add(s, idx, &s->slot[idx].cnt, n);
    pmu_schedule(s, now);
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
    if (!s->clock_freq || s->clock_freq > NANOSECONDS_PER_SECOND) {
        error_setg(errp, "hns3-pmu: clock-freq must be 1..1000000000 Hz "
                   "(got %u)", s->clock_freq);
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
                          "hns3-pmu-mmio", PMU_MMIO_SIZE);
    if (!hisi_pcie_rciep_init(pdev, &s->mmio, errp)) {
        return;
    }
    s->overflow_timer = timer_new_ns(QEMU_CLOCK_VIRTUAL,
                                     pmu_overflow_timer_cb, s);
    s->traffic = hisi_traffic_observe(s->traffic, &s->traffic_changed,
                                      pmu_traffic_changed);
}

static void hns3_pmu_exit(PCIDevice *pdev)
{
    Hns3PmuState *s = HNS3_PMU(pdev);

    hisi_traffic_remove_change_notifier(&s->traffic_changed);
    timer_free(s->overflow_timer);
    msi_uninit(pdev);
    pcie_cap_exit(pdev);
}

static const VMStateDescription vmstate_hns3_pmu_slot = {
    .name = "hns3-pmu-slot",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(ctrl_low, Hns3PmuSlot),
        VMSTATE_UINT32(ctrl_high, Hns3PmuSlot),
        VMSTATE_UINT32(intr_status, Hns3PmuSlot),
        VMSTATE_UINT32(intr_mask, Hns3PmuSlot),
        VMSTATE_UINT64(cnt, Hns3PmuSlot),
        VMSTATE_UINT64(ext_cnt, Hns3PmuSlot),
        VMSTATE_UINT64(cnt_frac, Hns3PmuSlot),
        VMSTATE_UINT64(ext_frac, Hns3PmuSlot),
        VMSTATE_UINT32(qid_ctrl, Hns3PmuSlot),
        VMSTATE_UINT32(qid_para, Hns3PmuSlot),
        VMSTATE_INT64(since, Hns3PmuSlot),
        VMSTATE_END_OF_LIST()
    },
};

static const VMStateDescription vmstate_hns3_pmu = {
    .name = TYPE_HNS3_PMU,
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_PCI_DEVICE(parent_obj, Hns3PmuState),
        VMSTATE_UINT32(global_ctrl, Hns3PmuState),
        VMSTATE_STRUCT_ARRAY(slot, Hns3PmuState, PMU_SLOTS, 1,
                             vmstate_hns3_pmu_slot, Hns3PmuSlot),
        VMSTATE_TIMER_PTR(overflow_timer, Hns3PmuState),
        VMSTATE_END_OF_LIST()
    },
};

static const Property hns3_pmu_properties[] = {
    DEFINE_PROP_UINT16("sicl-id", Hns3PmuState, sicl_id, 0),
    /* The NIC's functions: bus 1 */
    DEFINE_PROP_UINT16("bdf-min", Hns3PmuState, bdf_min, 0x0100),
    DEFINE_PROP_UINT16("bdf-max", Hns3PmuState, bdf_max, 0x01ff),
    DEFINE_PROP_UINT32("version", Hns3PmuState, version, 0x40),
    DEFINE_PROP_UINT32("clock-freq", Hns3PmuState, clock_freq, 100000000),
    DEFINE_PROP_UINT8("ports", Hns3PmuState, ports, 4),
    DEFINE_PROP_UINT16("queues", Hns3PmuState, queues, 4),
    DEFINE_PROP_UINT8("tcs", Hns3PmuState, tcs, 4),
    DEFINE_PROP_LINK("traffic", Hns3PmuState, traffic, TYPE_HISI_TRAFFIC,
                     HisiTraffic *),
};

static void hns3_pmu_instance_init(Object *obj)
{
    object_property_add_str(obj, "advance", NULL, pmu_set_advance);
}

static void hns3_pmu_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    PCIDeviceClass *k = PCI_DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    k->realize = hns3_pmu_realize;
    k->exit = hns3_pmu_exit;
    k->vendor_id = PCI_VENDOR_ID_HUAWEI_PMU;
    k->device_id = PCI_DEVICE_ID_HNS3_PMU;
    k->class_id = PCI_CLASS_SYSTEM_OTHER;
    rc->phases.hold = hns3_pmu_reset_hold;
    dc->desc = "HiSilicon HNS3 PMU";
    dc->vmsd = &vmstate_hns3_pmu;
    device_class_set_props(dc, hns3_pmu_properties);
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
