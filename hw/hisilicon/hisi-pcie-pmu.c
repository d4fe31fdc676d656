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
 * Not modelled: the events of other PMU kinds of the hardware (buffer
 * occupancy, bus utilization); delays and times count nanoseconds.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qemu/timer.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "hw/pci/pci_device.h"
#include "hw/pci/pcie.h"
#include "hw/pci/msi.h"
#include "hw/qdev-properties.h"
#include "hw/registerfields.h"
#include "migration/vmstate.h"
#include "trace.h"
#include "hisi-pcie-core.h"
#include "hisi-traffic.h"
#include "model/pcie-pmu.h"

#define TYPE_HISI_PCIE_PMU "hisi-pcie-pmu"
OBJECT_DECLARE_SIMPLE_TYPE(HisiPciePmuState, HISI_PCIE_PMU)

#define PCI_VENDOR_ID_HUAWEI_PMU    0x19e5
#define PCI_DEVICE_ID_HISI_PCIE_PMU 0xa12d

#define PMU_MMIO_SIZE       0x1000
#define PMU_COUNTERS        8
#define PMU_STEP            8

REG32(GLOBAL_CTRL, 0x000)
    FIELD(GLOBAL_CTRL, EN, 0, 1)
REG64(EVENT_CTRL, 0x010)
    FIELD(EVENT_CTRL, EVENT, 0, 16)
    FIELD(EVENT_CTRL, EVENT_EN, 20, 1)
    FIELD(EVENT_CTRL, RESET_CNT, 22, 1)
    FIELD(EVENT_CTRL, THR_EN, 26, 1)
    FIELD(EVENT_CTRL, THR_MODE, 27, 1)
    FIELD(EVENT_CTRL, THR, 28, 4)
    FIELD(EVENT_CTRL, TARGET_EN, 32, 1)
    FIELD(EVENT_CTRL, LEN_MODE, 34, 2)
    FIELD(EVENT_CTRL, TARGET, 36, 16)
    FIELD(EVENT_CTRL, TRIG_EN, 52, 1)
    FIELD(EVENT_CTRL, TRIG_MODE, 53, 1)
    FIELD(EVENT_CTRL, TRIG, 56, 4)
REG64(CNT, 0x090)
REG64(EXT_CNT, 0x110)
REG32(INT_STAT, 0x150)
REG32(INT_MASK, 0x154)
REG32(REG_BDF, 0xfe0)
    FIELD(REG_BDF, MIN, 0, 16)
    FIELD(REG_BDF, MAX, 16, 16)
REG32(REG_VERSION, 0xfe4)
REG32(REG_INFO, 0xfe8)
    FIELD(REG_INFO, CORE_ID, 0, 16)
    FIELD(REG_INFO, SICL_ID, 16, 16)

/* Largest thr_len/trig_len the driver takes */
#define PMU_LEN_SHIFT_MAX   10

typedef struct PmuCounter {
    uint64_t event_ctrl;
    uint64_t cnt;
    uint64_t ext_cnt;
    uint32_t int_stat;
    uint32_t int_mask;
    int64_t since;          /* ns: counted up to here */
    bool triggered;
} PmuCounter;

struct HisiPciePmuState {
    PCIDevice parent_obj;

    MemoryRegion mmio;
    QEMUTimer *overflow_timer;  /* armed when an unmasked overflow is due */
    Notifier traffic_changed;
    TrafficStream streams[TRAFFIC_MERGE_MAX];

    /* properties */
    uint16_t sicl_id;
    uint16_t core_id;
    uint16_t bdf_min;
    uint16_t bdf_max;
    uint32_t version;
    HisiTraffic *traffic;

    uint32_t global_ctrl;
    PmuCounter ctr[PMU_COUNTERS];
};

static int64_t pmu_now(void)
{
    return qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
}

static bool pmu_counting(HisiPciePmuState *s, PmuCounter *c)
{
    return FIELD_EX32(s->global_ctrl, GLOBAL_CTRL, EN) &&
           FIELD_EX64(c->event_ctrl, EVENT_CTRL, EVENT_EN) &&
           pcie_pmu_event(FIELD_EX64(c->event_ctrl, EVENT_CTRL, EVENT));
}

static PciePmuFilter pmu_filter(uint64_t ctrl)
{
    uint8_t len_mode = FIELD_EX64(ctrl, EVENT_CTRL, LEN_MODE);

    return (PciePmuFilter) {
        .thr_en = FIELD_EX64(ctrl, EVENT_CTRL, THR_EN),
        .thr_below = FIELD_EX64(ctrl, EVENT_CTRL, THR_MODE),
        .thr_len = MIN(FIELD_EX64(ctrl, EVENT_CTRL, THR), PMU_LEN_SHIFT_MAX),
        .trig_en = FIELD_EX64(ctrl, EVENT_CTRL, TRIG_EN),
        .trig_below = FIELD_EX64(ctrl, EVENT_CTRL, TRIG_MODE),
        .trig_len = MIN(FIELD_EX64(ctrl, EVENT_CTRL, TRIG),
                        PMU_LEN_SHIFT_MAX),
        /* 0 is reserved: count both parts */
        .len_mode = len_mode ? len_mode : PCIE_PMU_LEN_BOTH,
    };
}

typedef struct PmuWalk {
    HisiPciePmuState *s;
    uint64_t ctrl;
    const PciePmuEvent *ev;
    uint32_t n;
} PmuWalk;

static void pmu_add_endpoint(PCIDevice *ep, PCIDevice *port, void *opaque)
{
    PmuWalk *w = opaque;
    TrafficStream streams[TRAFFIC_ENDPOINT_STREAMS];
    uint32_t target = FIELD_EX64(w->ctrl, EVENT_CTRL, TARGET);
    uint16_t bdf = pci_get_bdf(ep);
    uint64_t mmio_base;
    uint32_t mmio_size;

    if (FIELD_EX64(w->ctrl, EVENT_CTRL, TARGET_EN) ? target != bdf :
        !(target & hisi_pcie_port_bit(port))) {
        return;
    }
    hisi_pcie_mmio_window(ep, &mmio_base, &mmio_size);
    hisi_traffic_endpoint_streams(w->s->traffic, streams, bdf,
                                  pci_get_bdf(port), mmio_base, mmio_size);
    for (int i = 0; i < TRAFFIC_ENDPOINT_STREAMS; i++) {
        if (pcie_pmu_stream_matches(w->ev, &streams[i]) &&
            w->n < ARRAY_SIZE(w->s->streams)) {
            w->s->streams[w->n++] = streams[i];
        }
    }
}

/* The streams counter @c counts, from the topology as it is now */
static uint32_t pmu_streams(HisiPciePmuState *s, PmuCounter *c)
{
    PmuWalk w = {
        .s = s,
        .ctrl = c->event_ctrl,
        .ev = pcie_pmu_event(FIELD_EX64(c->event_ctrl, EVENT_CTRL, EVENT)),
    };

    hisi_pcie_foreach_endpoint(PCI_DEVICE(s), s->bdf_min, s->bdf_max,
                               pmu_add_endpoint, &w);
    return w.n;
}

static void pmu_update_irq(HisiPciePmuState *s, unsigned idx, bool raised)
{
    PCIDevice *pdev = PCI_DEVICE(s);

    if (raised && !s->ctr[idx].int_mask && msi_enabled(pdev)) {
        msi_notify(pdev, 0);
    }
}

/* Add @delta to a 64-bit counter; an overflow sets the status. */
static void pmu_add(HisiPciePmuState *s, unsigned idx, uint64_t *reg,
                    uint64_t delta)
{
    uint64_t old = *reg;

    *reg += delta;
    if (*reg < old) {
        trace_hisi_pcie_pmu_overflow(idx);
        s->ctr[idx].int_stat = 1;
        pmu_update_irq(s, idx, true);
    }
}

/* Count what counter @idx saw up to @now. */
static void pmu_fold(HisiPciePmuState *s, unsigned idx, int64_t now)
{
    PmuCounter *c = &s->ctr[idx];
    const PciePmuEvent *ev;
    PciePmuFilter f;
    PciePmuSums sums = { 0 };
    int64_t from = c->since;
    uint32_t n;

    if (!pmu_counting(s, c) || now <= c->since) {
        c->since = now;
        return;
    }
    ev = pcie_pmu_event(FIELD_EX64(c->event_ctrl, EVENT_CTRL, EVENT));
    f = pmu_filter(c->event_ctrl);
    n = pmu_streams(s, c);
    if (f.trig_en && !c->triggered) {
        int64_t first = TRAFFIC_NEVER;

        for (uint32_t i = 0; i < n; i++) {
            uint64_t k = pcie_pmu_trigger_tlp(&s->streams[i], &f,
                             traffic_count_before(&s->streams[i].flow, from));

            if (k != UINT64_MAX) {
                first = MIN(first, traffic_time(&s->streams[i].flow, k));
            }
        }
        if (first >= now) {
            c->since = now;
            return;
        }
        c->triggered = true;
        from = first;
    }
    for (uint32_t i = 0; i < n; i++) {
        pcie_pmu_stream_sums(&s->streams[i], &f,
                             traffic_count_before(&s->streams[i].flow, from),
                             traffic_count_before(&s->streams[i].flow, now),
                             &sums);
    }
    if (ev->latency) {
        pmu_add(s, idx, &c->cnt, sums.delay_ns);
        pmu_add(s, idx, &c->ext_cnt, sums.tlps);
    } else {
        pmu_add(s, idx, &c->cnt, sums.bytes);
        pmu_add(s, idx, &c->ext_cnt, now - from);
    }
    c->since = now;
}

static void pmu_fold_all(HisiPciePmuState *s, int64_t now)
{
    for (unsigned i = 0; i < PMU_COUNTERS; i++) {
        pmu_fold(s, i, now);
    }
}

/*
 * Arm the timer for the earliest overflow of an unmasked counter: an
 * early bound from the highest rate each counter can grow at.
 */
static void pmu_schedule(HisiPciePmuState *s, int64_t now)
{
    int64_t due = INT64_MAX;

    for (unsigned idx = 0; idx < PMU_COUNTERS; idx++) {
        PmuCounter *c = &s->ctr[idx];
        const PciePmuEvent *ev;
        uint64_t cnt_rate = 0, ext_rate = 0;
        uint32_t n;

        if (!pmu_counting(s, c) || c->int_mask) {
            continue;
        }
        ev = pcie_pmu_event(FIELD_EX64(c->event_ctrl, EVENT_CTRL, EVENT));
        n = pmu_streams(s, c);
        for (uint32_t i = 0; i < n; i++) {
            TrafficStream *st = &s->streams[i];
            uint16_t max_len = 0;

            for (int j = 0; j < TRAFFIC_PATTERN; j++) {
                max_len = MAX(max_len, st->flow.len[j]);
            }
            cnt_rate += st->flow.rate * (ev->latency ? st->latency_ns :
                                    (max_len + 4) * 4u);
            ext_rate += ev->latency ? st->flow.rate : NANOSECONDS_PER_SECOND;
        }
        if (!ev->latency) {
            ext_rate = NANOSECONDS_PER_SECOND;
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
    HisiPciePmuState *s = opaque;
    int64_t now = pmu_now();

    pmu_fold_all(s, now);
    pmu_schedule(s, now);
}

static void pmu_traffic_changed(Notifier *n, void *data)
{
    HisiPciePmuState *s = container_of(n, HisiPciePmuState, traffic_changed);
    HisiTrafficChange *change = data;

    if (change->done) {
        pmu_schedule(s, change->now);
    } else {
        pmu_fold_all(s, change->now);
    }
}

/* Which per-counter register @addr is, and its counter */
static bool pmu_counter_reg(hwaddr addr, hwaddr base, unsigned *idx,
                            unsigned *half)
{
    if (addr < base || addr >= base + PMU_COUNTERS * PMU_STEP) {
        return false;
    }
    *idx = (addr - base) / PMU_STEP;
    *half = (addr - base) % PMU_STEP;
    return true;
}

static uint64_t reg_read(uint64_t reg, unsigned half, unsigned size)
{
    return size == 8 ? reg : extract64(reg, half * 8, 32);
}

static uint64_t reg_write(uint64_t reg, unsigned half, unsigned size,
                          uint64_t val)
{
    return size == 8 ? val : deposit64(reg, half * 8, 32, val);
}

static bool pmu_access_ok(hwaddr addr, unsigned size, bool wide)
{
    return (size == 4 || (size == 8 && wide)) && !(addr & (size - 1));
}

static uint64_t hisi_pcie_pmu_read(void *opaque, hwaddr addr, unsigned size)
{
    HisiPciePmuState *s = opaque;
    unsigned idx, half;
    uint64_t val = 0;
    bool wide = addr >= A_EVENT_CTRL && addr < A_INT_STAT;

    if (!pmu_access_ok(addr, size, wide)) {
        qemu_log_mask(LOG_GUEST_ERROR, "hisi-pcie-pmu: %u-byte read at "
                      "0x%03" HWADDR_PRIx ": only aligned 32-bit accesses, "
                      "and 64-bit ones to 64-bit registers\n", size, addr);
        trace_hisi_pcie_pmu_read(addr, size, 0);
        return 0;
    }
    if (addr == A_GLOBAL_CTRL) {
        val = s->global_ctrl;
    } else if (pmu_counter_reg(addr, A_EVENT_CTRL, &idx, &half)) {
        val = reg_read(s->ctr[idx].event_ctrl, half, size);
    } else if (pmu_counter_reg(addr, A_CNT, &idx, &half)) {
        pmu_fold(s, idx, pmu_now());
        val = reg_read(s->ctr[idx].cnt, half, size);
    } else if (pmu_counter_reg(addr, A_EXT_CNT, &idx, &half)) {
        pmu_fold(s, idx, pmu_now());
        val = reg_read(s->ctr[idx].ext_cnt, half, size);
    } else if (pmu_counter_reg(addr, A_INT_STAT, &idx, &half)) {
        pmu_fold(s, idx, pmu_now());
        val = half ? s->ctr[idx].int_mask : s->ctr[idx].int_stat;
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

static void pmu_write_event_ctrl(HisiPciePmuState *s, unsigned idx,
                                 uint64_t val)
{
    PmuCounter *c = &s->ctr[idx];
    uint16_t code = FIELD_EX64(val, EVENT_CTRL, EVENT);

    if (FIELD_EX64(val, EVENT_CTRL, RESET_CNT)) {
        c->cnt = 0;
        c->ext_cnt = 0;
    }
    if (FIELD_EX64(val, EVENT_CTRL, EVENT_EN) && !pcie_pmu_event(code)) {
        qemu_log_mask(LOG_GUEST_ERROR, "hisi-pcie-pmu: counter %u enabled "
                      "with unknown event 0x%04x: it does not count\n",
                      idx, code);
    }
    if (FIELD_EX64(val, EVENT_CTRL, THR) > PMU_LEN_SHIFT_MAX ||
        FIELD_EX64(val, EVENT_CTRL, TRIG) > PMU_LEN_SHIFT_MAX) {
        qemu_log_mask(LOG_GUEST_ERROR, "hisi-pcie-pmu: counter %u: threshold"
                      " or trigger length above 2^%d DW: taken as 2^%d\n",
                      idx, PMU_LEN_SHIFT_MAX, PMU_LEN_SHIFT_MAX);
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
    unsigned idx, half;
    bool wide = addr >= A_EVENT_CTRL && addr < A_INT_STAT;
    int64_t now = pmu_now();

    trace_hisi_pcie_pmu_write(addr, size, val);
    if (!pmu_access_ok(addr, size, wide)) {
        qemu_log_mask(LOG_GUEST_ERROR, "hisi-pcie-pmu: %u-byte write at "
                      "0x%03" HWADDR_PRIx " ignored: only aligned 32-bit "
                      "accesses, and 64-bit ones to 64-bit registers\n",
                      size, addr);
        return;
    }
    /* Counts up to now go by the old settings. */
    pmu_fold_all(s, now);
    if (addr == A_GLOBAL_CTRL) {
        s->global_ctrl = val & R_GLOBAL_CTRL_EN_MASK;
    } else if (pmu_counter_reg(addr, A_EVENT_CTRL, &idx, &half)) {
        pmu_write_event_ctrl(s, idx, reg_write(s->ctr[idx].event_ctrl, half,
                                               size, val));
    } else if (pmu_counter_reg(addr, A_CNT, &idx, &half)) {
        s->ctr[idx].cnt = reg_write(s->ctr[idx].cnt, half, size, val);
    } else if (pmu_counter_reg(addr, A_EXT_CNT, &idx, &half)) {
        s->ctr[idx].ext_cnt = reg_write(s->ctr[idx].ext_cnt, half, size, val);
    } else if (pmu_counter_reg(addr, A_INT_STAT, &idx, &half)) {
        if (half) {
            bool unmasked = s->ctr[idx].int_mask && !(val & 1);

            s->ctr[idx].int_mask = val & 1;
            pmu_update_irq(s, idx, unmasked && s->ctr[idx].int_stat);
        } else {
            s->ctr[idx].int_stat &= ~(val & 1);     /* W1C */
        }
    } else if (addr == A_REG_BDF || addr == A_REG_VERSION ||
               addr == A_REG_INFO) {
        qemu_log_mask(LOG_GUEST_ERROR, "hisi-pcie-pmu: write to read-only "
                      "register 0x%03" HWADDR_PRIx " ignored\n", addr);
    } else {
        qemu_log_mask(LOG_GUEST_ERROR, "hisi-pcie-pmu: write to unknown "
                      "register 0x%03" HWADDR_PRIx " ignored\n", addr);
    }
    pmu_schedule(s, now);
}

static const MemoryRegionOps hisi_pcie_pmu_ops = {
    .read = hisi_pcie_pmu_read,
    .write = hisi_pcie_pmu_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    /* Other sizes reach the handlers to be logged as guest errors. */
    .valid.min_access_size = 1,
    .valid.max_access_size = 8,
    .impl.min_access_size = 1,
    .impl.max_access_size = 8,
};

static void hisi_pcie_pmu_reset_hold(Object *obj, ResetType type)
{
    HisiPciePmuState *s = HISI_PCIE_PMU(obj);
    int64_t now = pmu_now();

    timer_del(s->overflow_timer);
    s->global_ctrl = 0;
    for (unsigned i = 0; i < PMU_COUNTERS; i++) {
        s->ctr[i] = (PmuCounter) { .int_mask = 1, .since = now };
    }
}

/*
 * Fault injection: qom-set "advance" to "IDX=N" adds N to counter IDX's
 * CNT as if that much had been counted; an N near 2^63 makes the counter
 * the driver started at 2^63 overflow within moments.
 */
static void pmu_set_advance(Object *obj, const char *value, Error **errp)
{
    HisiPciePmuState *s = HISI_PCIE_PMU(obj);
    int64_t now = pmu_now();
    unsigned idx;
    uint64_t n;

    if (!hisi_pmu_parse_advance(TYPE_HISI_PCIE_PMU, value, PMU_COUNTERS, &idx,
                                &n, errp)) {
        return;
    }
    pmu_fold_all(s, now);
    pmu_add(s, idx, &s->ctr[idx].cnt, n);
    pmu_schedule(s, now);
}

static void hisi_pcie_pmu_realize(PCIDevice *pdev, Error **errp)
{
    HisiPciePmuState *s = HISI_PCIE_PMU(pdev);
    g_autofree char *pmu = g_strdup_printf("hisi_pcie%u_core%u", s->sicl_id,
                                           s->core_id);

    if (!hisi_pcie_check_config(pdev, s->bdf_min, s->bdf_max, "bdf-min",
                                "bdf-max", PCIE_ROOT_PORTS_HINT, pmu, errp)) {
        return;
    }
    memory_region_init_io(&s->mmio, OBJECT(s), &hisi_pcie_pmu_ops, s,
                          "hisi-pcie-pmu-mmio", PMU_MMIO_SIZE);
    if (!hisi_pcie_rciep_init(pdev, &s->mmio, errp)) {
        return;
    }
    s->overflow_timer = timer_new_ns(QEMU_CLOCK_VIRTUAL,
                                     pmu_overflow_timer_cb, s);
    s->traffic = hisi_traffic_observe(s->traffic, &s->traffic_changed,
                                      pmu_traffic_changed);
}

static void hisi_pcie_pmu_exit(PCIDevice *pdev)
{
    HisiPciePmuState *s = HISI_PCIE_PMU(pdev);

    hisi_traffic_remove_change_notifier(&s->traffic_changed);
    timer_free(s->overflow_timer);
    msi_uninit(pdev);
    pcie_cap_exit(pdev);
}

static const VMStateDescription vmstate_pmu_counter = {
    .name = "hisi-pcie-pmu-counter",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT64(event_ctrl, PmuCounter),
        VMSTATE_UINT64(cnt, PmuCounter),
        VMSTATE_UINT64(ext_cnt, PmuCounter),
        VMSTATE_UINT32(int_stat, PmuCounter),
        VMSTATE_UINT32(int_mask, PmuCounter),
        VMSTATE_INT64(since, PmuCounter),
        VMSTATE_BOOL(triggered, PmuCounter),
        VMSTATE_END_OF_LIST()
    },
};

static const VMStateDescription vmstate_hisi_pcie_pmu = {
    .name = TYPE_HISI_PCIE_PMU,
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_PCI_DEVICE(parent_obj, HisiPciePmuState),
        VMSTATE_UINT32(global_ctrl, HisiPciePmuState),
        VMSTATE_STRUCT_ARRAY(ctr, HisiPciePmuState, PMU_COUNTERS, 1,
                             vmstate_pmu_counter, PmuCounter),
        VMSTATE_TIMER_PTR(overflow_timer, HisiPciePmuState),
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
    DEFINE_PROP_LINK("traffic", HisiPciePmuState, traffic, TYPE_HISI_TRAFFIC,
                     HisiTraffic *),
};

static void hisi_pcie_pmu_instance_init(Object *obj)
{
    object_property_add_str(obj, "advance", NULL, pmu_set_advance);
}

static void hisi_pcie_pmu_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    PCIDeviceClass *k = PCI_DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    k->realize = hisi_pcie_pmu_realize;
    k->exit = hisi_pcie_pmu_exit;
    k->vendor_id = PCI_VENDOR_ID_HUAWEI_PMU;
    k->device_id = PCI_DEVICE_ID_HISI_PCIE_PMU;
    k->class_id = PCI_CLASS_SYSTEM_OTHER;
    rc->phases.hold = hisi_pcie_pmu_reset_hold;
    dc->desc = "HiSilicon PCIe PMU";
    dc->vmsd = &vmstate_hisi_pcie_pmu;
    device_class_set_props(dc, hisi_pcie_pmu_properties);
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
