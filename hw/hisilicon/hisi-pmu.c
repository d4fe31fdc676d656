/*
 * The counting engine the uncore PMU devices share (see hisi-pmu.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/ctype.h"
#include "qemu/cutils.h"
#include "qemu/host-utils.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "hisi-compat.h"
#include HISI_QDEV_CORE_H
#include "trace.h"
#include "hisi-pmu.h"

int64_t hisi_pmu_now(void)
{
    return qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
}

static uint64_t counter_mask(HisiPmu *pmu, unsigned idx)
{
    return MAKE_64BIT_MASK(0, pmu->ops->bits[idx]);
}

static void counter_wrapped(HisiPmu *pmu, unsigned idx)
{
    trace_hisi_pmu_overflow(object_get_typename(pmu->owner), idx);
    pmu->ops->overflow(pmu, idx);
    pmu->ops->update_irq(pmu);
}

void hisi_pmu_add(HisiPmu *pmu, unsigned idx, unsigned ctr, uint64_t delta)
{
    uint64_t *value = &pmu->slot[idx].value[ctr];
    uint64_t mask = counter_mask(pmu, idx);
    uint64_t sum = *value + delta;
    bool wrapped = sum < *value || sum > mask;

    *value = sum & mask;
    if (wrapped && pmu->probing) {
        pmu->probe_wrapped = true;
    } else if (wrapped) {
        counter_wrapped(pmu, idx);
    }
}

bool hisi_pmu_probing(const HisiPmu *pmu)
{
    return pmu->probing;
}

void hisi_pmu_add_cycles(HisiPmu *pmu, unsigned idx, unsigned ctr,
                         uint64_t ns)
{
    uint64_t *frac = &pmu->slot[idx].frac[ctr];
    uint64_t lo, hi;

    /* ns * freq + frac in 128 bits, divided by 1e9 */
    mulu64(&lo, &hi, ns, pmu->clock_freq);
    hi += uadd64_overflow(lo, *frac, &lo);
    *frac = divu128(&lo, &hi, NANOSECONDS_PER_SECOND);
    hisi_pmu_add(pmu, idx, ctr, hi ? UINT64_MAX : lo);
}

void hisi_pmu_fold(HisiPmu *pmu, unsigned idx, int64_t now)
{
    HisiPmuSlot *c = &pmu->slot[idx];

    /* The real TLPs before now count first, each at its time. */
    hisi_traffic_flush_real(pmu->traffic);
    /* A time before the last: a qtest clock restarts after migration. */
    if (now > c->since) {
        pmu->ops->count(pmu, idx, c->since, now);
    }
    c->since = now;
}

void hisi_pmu_fold_all(HisiPmu *pmu, int64_t now)
{
    for (unsigned idx = 0; idx < pmu->ops->slots; idx++) {
        hisi_pmu_fold(pmu, idx, now);
    }
}

HisiPmuGrowth hisi_pmu_delay_growth(const HisiPmu *pmu, uint64_t ns_per_s,
                                    uint64_t ns_at_once)
{
    if (!ns_per_s) {
        return (HisiPmuGrowth) { 0 };
    }
    /*
     * Both rounded up; and hisi_pmu_add_cycles() carries a fraction of a
     * cycle from before, which can complete one more.
     */
    return (HisiPmuGrowth) {
        .per_s = muldiv64(ns_per_s, pmu->clock_freq,
                          NANOSECONDS_PER_SECOND) + 1,
        .burst = muldiv64(ns_at_once, pmu->clock_freq,
                          NANOSECONDS_PER_SECOND) + 2,
    };
}

int64_t hisi_pmu_overflow_due(int64_t now, uint64_t value,
                              const HisiPmuGrowth *growth)
{
    /* 2^64 - value to go; from 0 that is all of 2^64 */
    uint64_t left = value ? -value : UINT64_MAX;
    uint64_t lo, hi;

    if (!growth->per_s) {
        return INT64_MAX;
    }
    if (left <= growth->burst) {
        return now;
    }
    /* In 128 bits: rates go beyond 2^32 per second (muldiv64's limit). */
    mulu64(&lo, &hi, left - growth->burst, NANOSECONDS_PER_SECOND);
    divu128(&lo, &hi, growth->per_s);
    return now + (int64_t)(hi ? INT64_MAX / 4 : MIN(lo, INT64_MAX / 4));
}

/*
 * The earliest ns by which a counter of slot @idx, counted up to @now,
 * could have wrapped, from the most its source could count; INT64_MAX
 * when its overflow would not interrupt, or it does not grow.
 */
static int64_t slot_earliest_wrap(HisiPmu *pmu, unsigned idx, int64_t now)
{
    HisiPmuGrowth growth[HISI_PMU_SLOT_COUNTERS] = { 0 };
    /* as a 64-bit counter at the same distance from its wrap */
    uint64_t above = ~counter_mask(pmu, idx);
    int64_t earliest = INT64_MAX;

    if (!pmu->ops->max_growth(pmu, idx, growth)) {
        return INT64_MAX;
    }
    for (unsigned ctr = 0; ctr < HISI_PMU_SLOT_COUNTERS; ctr++) {
        earliest = MIN(earliest, hisi_pmu_overflow_due(
                           now, pmu->slot[idx].value[ctr] | above,
                           &growth[ctr]));
    }
    return earliest;
}

/* Arm the overflow timer for @due (> @now), or stop it: INT64_MAX */
static void arm_timer(HisiPmu *pmu, int64_t now, int64_t due)
{
    trace_hisi_pmu_arm(object_get_typename(pmu->owner), now, due);
    if (due == INT64_MAX) {
        timer_del(pmu->overflow_timer);
    } else {
        timer_mod(pmu->overflow_timer, due);
    }
}

void hisi_pmu_schedule(HisiPmu *pmu, int64_t now)
{
    int64_t due = INT64_MAX;

    for (unsigned idx = 0; idx < pmu->ops->slots; idx++) {
        due = MIN(due, slot_earliest_wrap(pmu, idx, now));
    }
    arm_timer(pmu, now, MAX(due, now + 1));
}

/*
 * Whether slot @idx, counted up to @now, wraps by @t: the device counts
 * [now, t) into the slot as a probe (no overflow, and the device's own
 * state left alone), then the slot is put back.
 */
static bool slot_wraps_by(HisiPmu *pmu, unsigned idx, int64_t now, int64_t t)
{
    HisiPmuSlot counted = pmu->slot[idx];

    pmu->probing = true;
    pmu->probe_wrapped = false;
    pmu->ops->count(pmu, idx, now, t);
    pmu->probing = false;
    pmu->slot[idx] = counted;
    return pmu->probe_wrapped;
}

/*
 * The first ns in [@lo, @hi] by which slot @idx wraps, by bisection on
 * probes (counts only grow with time); @hi when it does not wrap by then.
 */
static int64_t slot_wrap_time(HisiPmu *pmu, unsigned idx, int64_t now,
                              int64_t lo, int64_t hi)
{
    if (!slot_wraps_by(pmu, idx, now, hi)) {
        return hi;
    }
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;

        if (slot_wraps_by(pmu, idx, now, mid)) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    return hi;
}

/*
 * The timer fired at the earliest time a counter could have wrapped, from
 * the most its source could count. A counter that counts slower than that
 * (a filter that matches few events, or none) would bring the timer back
 * ever sooner as it nears its wrap: one event short of it at a bound of
 * 1e9 a second, every ns. So from here on the timer is armed for the first
 * ns, from that bound on, by which a counter has wrapped, found by probing
 * what the slots will count, and no more than a second ahead. A change (a
 * register write, the traffic) arms it at the cheap early bound again
 * (hisi_pmu_schedule). The bound is never late (HisiPmuGrowth counts the
 * event a stream can bring ahead of its rate), so an overflow comes at the
 * first ns by which its counter has wrapped.
 */
static void overflow_timer_cb(void *opaque)
{
    HisiPmu *pmu = opaque;
    int64_t now = hisi_pmu_now();
    int64_t horizon = now + NANOSECONDS_PER_SECOND;
    int64_t due = INT64_MAX;

    hisi_pmu_fold_all(pmu, now);
    for (unsigned idx = 0; idx < pmu->ops->slots; idx++) {
        int64_t earliest = slot_earliest_wrap(pmu, idx, now);

        if (earliest < horizon) {
            earliest = slot_wrap_time(pmu, idx, now, MAX(earliest, now + 1),
                                      horizon);
        }
        due = MIN(due, earliest);
    }
    arm_timer(pmu, now, due);
}

static void traffic_changed(Notifier *n, void *data)
{
    HisiPmu *pmu = container_of(n, HisiPmu, traffic_changed);
    HisiTrafficChange *change = data;

    if (change->done) {
        hisi_pmu_schedule(pmu, change->now);
    } else {
        hisi_pmu_fold_all(pmu, change->now);
    }
}

/* @value as IDX=N: unsigned integers, no sign, blank or trailing text */
static bool parse_advance(const char *value, unsigned slots, unsigned *idx,
                          int64_t *n)
{
    const char *eq = strchr(value, '=');
    const char *end;

    return eq && qemu_isdigit(value[0]) && qemu_isdigit(eq[1]) &&
           !qemu_strtoui(value, &end, 10, idx) && end == eq && *idx < slots &&
           !qemu_strtoi64(eq + 1, NULL, 0, n);
}

static void set_advance(Object *obj, Visitor *v, const char *name,
                        void *opaque, Error **errp)
{
    HisiPmu *pmu = opaque;
    g_autofree char *value = NULL;
    int64_t now = hisi_pmu_now();
    unsigned idx;
    int64_t n;

    if (!visit_type_str(v, name, &value, errp)) {
        return;
    }
    if (!parse_advance(value, pmu->ops->slots, &idx, &n)) {
        error_setg(errp, "%s: advance must be IDX=N with IDX in 0..%u and N "
                   "in 0..2^63-1 (got '%s')", object_get_typename(obj),
                   pmu->ops->slots - 1, value);
        return;
    }
    /* The counters count from realize on, and the reset clears them. */
    if (!DEVICE(obj)->realized) {
        error_setg(errp, "%s: advance is for the counters of a running "
                   "machine (qom-set), not a start-up property",
                   object_get_typename(obj));
        return;
    }
    hisi_pmu_fold_all(pmu, now);
    hisi_pmu_add(pmu, idx, HISI_PMU_CNT, n);
    hisi_pmu_schedule(pmu, now);
}

void hisi_pmu_init(HisiPmu *pmu, Object *owner, const HisiPmuOps *ops)
{
    g_autofree char *advance_desc = g_strdup_printf(
        "Fault injection, qom-set on a running machine (write-only): IDX=N "
        "adds N (0-2^63-1) to counter IDX (0-%u) as if counted",
        ops->slots - 1);

    assert(ops->slots <= HISI_PMU_MAX_SLOTS);
    for (unsigned idx = 0; idx < ops->slots; idx++) {
        /* counter_mask() cannot make a mask of 0 bits (a shift by 64) */
        assert(ops->bits[idx] >= 1 && ops->bits[idx] <= 64);
    }
    pmu->ops = ops;
    pmu->owner = owner;
    object_property_add(owner, "advance", "string", NULL, set_advance, NULL,
                        pmu);
    object_property_set_description(owner, "advance", advance_desc);
}

void hisi_pmu_realize(HisiPmu *pmu)
{
    pmu->overflow_timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, overflow_timer_cb,
                                       pmu);
    pmu->traffic = hisi_traffic_observe(pmu->traffic, &pmu->traffic_changed,
                                        traffic_changed);
}

void hisi_pmu_unrealize(HisiPmu *pmu)
{
    hisi_traffic_unobserve(&pmu->traffic_changed);
    timer_free(pmu->overflow_timer);
}

void hisi_pmu_reset(HisiPmu *pmu)
{
    int64_t now = hisi_pmu_now();

    timer_del(pmu->overflow_timer);
    for (unsigned idx = 0; idx < HISI_PMU_MAX_SLOTS; idx++) {
        pmu->slot[idx] = (HisiPmuSlot) { .since = now };
    }
}

static const VMStateDescription vmstate_hisi_pmu_slot = {
    .name = "hisi-pmu-slot",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT64_ARRAY(value, HisiPmuSlot, HISI_PMU_SLOT_COUNTERS),
        VMSTATE_UINT64_ARRAY(frac, HisiPmuSlot, HISI_PMU_SLOT_COUNTERS),
        VMSTATE_INT64(since, HisiPmuSlot),
        VMSTATE_END_OF_LIST()
    },
};

const VMStateDescription vmstate_hisi_pmu = {
    .name = "hisi-pmu",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_STRUCT_ARRAY(slot, HisiPmu, HISI_PMU_MAX_SLOTS, 1,
                             vmstate_hisi_pmu_slot, HisiPmuSlot),
        VMSTATE_TIMER_PTR(overflow_timer, HisiPmu),
        VMSTATE_END_OF_LIST()
    },
};
