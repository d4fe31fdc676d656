/*
 * The counting engine the uncore PMU devices (hisi-pcie-pmu, hns3-pmu,
 * arm-ccn) share.
 *
 * A PMU has slots; a slot has one or two counters of a fixed width that
 * count the synthetic traffic of a hisi-traffic object. Counts are never
 * ticked: the engine folds what a slot counted since it last looked, as a
 * closed-form sum the device computes over an interval (HisiPmuOps.count),
 * whenever the guest reads a counter, something changes, or the one
 * overflow timer fires. After a change the timer is armed for the earliest
 * time a counter that would interrupt could wrap, from the most it can grow
 * by (HisiPmuOps.max_growth); when it fires, for the first ns by which a
 * counter has wrapped, found by probing HisiPmuOps.count ahead from that
 * bound on. So an overflow comes at the first ns by which its counter has
 * wrapped, register reads or none. An overflow sets the device's status
 * (HisiPmuOps.overflow); then the device works out its interrupt from its
 * state (HisiPmuOps.update_irq).
 *
 * In the spirit of the kernel's hisi_uncore_ops: the device keeps its
 * registers and what they select; the engine keeps the counters, the time
 * they are counted up to, the timer and the traffic it observes.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_HISILICON_HISI_PMU_H
#define HW_HISILICON_HISI_PMU_H

#include "qemu/notify.h"
#include "qemu/timer.h"
#include "migration/vmstate.h"
#include "hisi-traffic.h"

#define HISI_PMU_MAX_SLOTS      9
#define HISI_PMU_SLOT_COUNTERS  2

/* A slot's counters: the counter, and the extended counter where it has one */
enum {
    HISI_PMU_CNT,
    HISI_PMU_EXT_CNT,
};

typedef struct HisiPmuSlot {
    uint64_t value[HISI_PMU_SLOT_COUNTERS];
    /* cycles are ns * clock-freq / 1e9: the remainders, kept exact */
    uint64_t frac[HISI_PMU_SLOT_COUNTERS];
    int64_t since;          /* ns: counted up to here */
} HisiPmuSlot;

typedef struct HisiPmu HisiPmu;

/*
 * The most a counter can grow by in [t, t + d): per_s * d / 1e9 + burst.
 * Each stream's events are evenly spread (model/flow.h), so in any interval
 * a stream brings at most one event more than its rate does: @burst is one
 * event of each stream the counter counts, at its largest.
 */
typedef struct HisiPmuGrowth {
    uint64_t per_s;
    uint64_t burst;
} HisiPmuGrowth;

typedef struct HisiPmuOps {
    unsigned slots;
    /* Width in bits of each slot's counters (1..64) */
    uint8_t bits[HISI_PMU_MAX_SLOTS];
    /*
     * Add what slot @idx counted in [t0, t1) to its counters, with
     * hisi_pmu_add() and hisi_pmu_add_cycles(); nothing when it does not
     * count.
     */
    void (*count)(HisiPmu *pmu, unsigned idx, int64_t t0, int64_t t1);
    /*
     * The most each counter of slot @idx can grow by, into @growth (zeroed
     * by the caller); false when an overflow of the slot would not
     * interrupt (it does not count, or its interrupt is masked).
     */
    bool (*max_growth)(HisiPmu *pmu, unsigned idx,
                       HisiPmuGrowth growth[HISI_PMU_SLOT_COUNTERS]);
    /* A counter of slot @idx wrapped: set the device's status for it. */
    void (*overflow)(HisiPmu *pmu, unsigned idx);
    /* Work out the interrupt (or MSI) from the device's state. */
    void (*update_irq)(HisiPmu *pmu);
} HisiPmuOps;

struct HisiPmu {
    const HisiPmuOps *ops;
    Object *owner;
    HisiTraffic *traffic;       /* the "traffic" link property */
    uint32_t clock_freq;        /* Hz of the cycle counts */
    QEMUTimer *overflow_timer;  /* armed when an interrupt is due */
    Notifier traffic_changed;
    HisiPmuSlot slot[HISI_PMU_MAX_SLOTS];
    /* Within one probe of what a slot will count (hisi-pmu.c) */
    bool probing;
    bool probe_wrapped;
};

extern const VMStateDescription vmstate_hisi_pmu;

/*
 * From the device's instance_init: @ops, and the "advance" fault injection
 * property of @owner: qom-set "advance" to "IDX=N" adds N to counter 0 of
 * slot IDX as if that much had been counted (an N near the counter's
 * width makes it overflow within moments).
 */
void hisi_pmu_init(HisiPmu *pmu, Object *owner, const HisiPmuOps *ops);

/* From realize: the timer, and the traffic object observed. */
void hisi_pmu_realize(HisiPmu *pmu);
void hisi_pmu_unrealize(HisiPmu *pmu);

/* From the reset hold phase: counters 0, nothing due. */
void hisi_pmu_reset(HisiPmu *pmu);

/* Virtual time, ns */
int64_t hisi_pmu_now(void);

/*
 * Count what slot @idx, or every slot, saw up to @now (a guest read, or
 * before a change of what the slots count).
 */
void hisi_pmu_fold(HisiPmu *pmu, unsigned idx, int64_t now);
void hisi_pmu_fold_all(HisiPmu *pmu, int64_t now);

/* After a change: rearm the overflow timer for the new rates. */
void hisi_pmu_schedule(HisiPmu *pmu, int64_t now);

/*
 * Whether HisiPmuOps.count is called to look ahead: the engine puts the
 * counters back after it, and the device must leave its own state alone.
 */
bool hisi_pmu_probing(const HisiPmu *pmu);

/* Add @delta to counter @ctr of slot @idx; past its width it wraps. */
void hisi_pmu_add(HisiPmu *pmu, unsigned idx, unsigned ctr, uint64_t delta);

/* Add @ns of virtual time as cycles, exactly over any number of calls */
void hisi_pmu_add_cycles(HisiPmu *pmu, unsigned idx, unsigned ctr,
                         uint64_t ns);

/*
 * The growth, in cycles of the PMU's clock, of a counter of delays: its
 * streams bring @ns_per_s ns of delay a second in all, and one event of
 * each brings at most @ns_at_once ns of them (HisiPmuGrowth.burst).
 */
HisiPmuGrowth hisi_pmu_delay_growth(const HisiPmu *pmu, uint64_t ns_per_s,
                                    uint64_t ns_at_once);

/*
 * The earliest ns by which a 64-bit counter at @value at @now, growing by
 * at most @growth, can have wrapped (INT64_MAX when it does not grow).
 */
int64_t hisi_pmu_overflow_due(int64_t now, uint64_t value,
                              const HisiPmuGrowth *growth);

#endif
