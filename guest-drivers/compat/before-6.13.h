/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the drivers, written for the newest kernel, use from Linux 6.13 on,
 * for an out-of-tree build against an older one (guest-drivers/Kbuild
 * includes this file first in every compilation then).
 */
#ifndef __HISI_UNCORE_BEFORE_6_13_H__
#define __HISI_UNCORE_BEFORE_6_13_H__

#include <linux/hrtimer.h>

/*
 * EXPORT_SYMBOL_NS_GPL and MODULE_IMPORT_NS quote the namespace
 * themselves: uncore_pmu.h's string literal would be quoted twice.
 */
#define UNCORE_PMU_NS	UNCORE_PMU

static inline void hrtimer_setup(struct hrtimer *timer,
				 enum hrtimer_restart (*function)(struct hrtimer *),
				 clockid_t clock_id, enum hrtimer_mode mode)
{
	hrtimer_init(timer, clock_id, mode);
	timer->function = function;
}

#endif /* __HISI_UNCORE_BEFORE_6_13_H__ */
