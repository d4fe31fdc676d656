/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Common perf plumbing for counting uncore PMUs: a PMU owned by one CPU,
 * with a handful of hardware counters that count system-wide events only.
 *
 * The core implements the perf callbacks (event_init, add/del, start/stop,
 * read), the "cpumask" and "identifier" attributes, group validation,
 * counter sharing, 64-bit accumulation of narrower counters, the overflow
 * interrupt (or a poll where there is none) and the move of the perf
 * context and the interrupt when the owning CPU goes offline, and back to
 * the device's node when one of its CPUs comes online. A device driver
 * fills struct uncore_pmu_ops with what only it knows: how its events are
 * checked and programmed, how a counter reads and how overflows are seen
 * and acknowledged.
 */
#ifndef __UNCORE_PMU_H__
#define __UNCORE_PMU_H__

#include <linux/bitmap.h>
#include <linux/device.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/types.h>

struct pci_dev;

/*
 * The core's exports are for its drivers only. A namespace is a string
 * literal since Linux 6.13; the out-of-tree build (guest-drivers/Kbuild)
 * gives older kernels the bare name their macros quote themselves.
 */
#ifndef UNCORE_PMU_NS
#define UNCORE_PMU_NS			"UNCORE_PMU"
#endif

#define UNCORE_PMU_MAX_COUNTERS		16
/* Events of one group that may read one hardware counter together. */
#define UNCORE_PMU_MAX_SHARERS		4

struct uncore_pmu;

/**
 * struct uncore_pmu_ops - what a device driver supplies to the core
 * @event_init: check the device-specific part of a new event (event code,
 *	filters) and fill @event->hw.config / event_base for the other
 *	callbacks. Generic checks (type, sampling, task, CPU, group size) are
 *	already done. Return 0 or:
 *	-ENOENT: the config names no event of this PMU;
 *	-EINVAL: a field or filter the device cannot count with (out of range,
 *	naming a function, queue or node it does not have), or a group that
 *	can never be scheduled;
 *	-EBUSY: the device has no resource free to check the event now;
 *	-ETIMEDOUT: the device did not answer a check.
 * @share_key: optional. Events of one group whose keys are equal count on
 *	one hardware counter (for example a latency and its TLP count, read
 *	from the two halves of one counter pair). Without it nothing is shared.
 * @get_event_idx: optional. Claim a hardware counter for @event and return
 *	its index, or -EAGAIN when none fits now (perf then multiplexes). The
 *	default takes the lowest free index below @num_counters.
 * @put_event_idx: optional. Release what @get_event_idx claimed besides the
 *	counter itself.
 * @start_counter: program and enable the counter of @event, starting from
 *	a known value, and unmask its overflow interrupt. Called for the first
 *	event that starts on a counter only.
 * @stop_counter: disable the counter of @event and mask its interrupt; the
 *	counter keeps its value for a last read. Called when the last event
 *	on a counter stops.
 * @read_counter: the counter of @event as a 64-bit value that wraps at
 *	2^64: a driver extends a narrower counter (the core takes deltas modulo
 *	2^64).
 * @overflow_status: the counters whose overflow is pending, one bit each.
 * @clear_overflow: acknowledge the overflows of @status, so that they are
 *	not seen again; a driver that extends a narrower counter in software
 *	accounts the wraps here.
 * @enable: start counting on the whole PMU (global enable).
 * @disable: stop counting on the whole PMU.
 * @quiesce: optional. Disable every counter and mask its overflow
 *	interrupt, whoever left them running (a driver gone without cleaning
 *	up, a kexec'd kernel). The core calls it before it requests a PCI
 *	PMU's interrupt and after it unregisters the PMU.
 */
struct uncore_pmu_ops {
	int (*event_init)(struct perf_event *event);
	u64 (*share_key)(struct perf_event *event);
	int (*get_event_idx)(struct perf_event *event);
	void (*put_event_idx)(struct perf_event *event);
	void (*start_counter)(struct uncore_pmu *upmu, struct perf_event *event);
	void (*stop_counter)(struct uncore_pmu *upmu, struct perf_event *event);
	u64 (*read_counter)(struct uncore_pmu *upmu, struct perf_event *event);
	unsigned long (*overflow_status)(struct uncore_pmu *upmu);
	void (*clear_overflow)(struct uncore_pmu *upmu, unsigned long status);
	void (*enable)(struct uncore_pmu *upmu);
	void (*disable)(struct uncore_pmu *upmu);
	void (*quiesce)(struct uncore_pmu *upmu);
};

/**
 * struct uncore_pmu_counter - one hardware counter and the events on it
 * @events: the events reading this counter, @users of them
 * @users: how many events hold this counter
 * @running: how many of them are started
 * @key: the share key of the events on it
 */
struct uncore_pmu_counter {
	struct perf_event *events[UNCORE_PMU_MAX_SHARERS];
	unsigned int users;
	unsigned int running;
	u64 key;
};

/**
 * struct uncore_pmu - a counting PMU instance
 * @pmu: the perf PMU; the core fills its callbacks and adds its
 *	capabilities to those the driver set
 * @ops: the device driver's operations
 * @dev: the parent device (PCI function or platform device)
 * @name: the PMU name under /sys/bus/event_source/devices
 * @irq: the overflow interrupt, moved with the owning CPU; 0 for none
 * @poll_ns: without an overflow interrupt, how often the core looks for
 *	overflows while counters are in use; 0 with one
 * @node: NUMA node whose CPUs are preferred as owner
 * @on_cpu: the CPU that owns the PMU's events (nr_cpu_ids: none online)
 * @identifier: version shown in the "identifier" attribute
 * @num_counters: number of hardware counters
 * @counters: the counters and the events using them
 * @used_mask: counters held by an event
 * @poll_timer: the overflow poll, pinned to @poll_cpu
 * @poll_cpu: the CPU @poll_timer was last started on
 * @cpuhp_node: link in the core's CPU hotplug instance list
 */
struct uncore_pmu {
	struct pmu pmu;
	const struct uncore_pmu_ops *ops;
	struct device *dev;
	const char *name;
	int irq;
	u64 poll_ns;
	int node;
	unsigned int on_cpu;
	u32 identifier;
	unsigned int num_counters;
	struct uncore_pmu_counter counters[UNCORE_PMU_MAX_COUNTERS];
	DECLARE_BITMAP(used_mask, UNCORE_PMU_MAX_COUNTERS);
	struct hrtimer poll_timer;
	unsigned int poll_cpu;
	struct hlist_node cpuhp_node;
};

static inline struct uncore_pmu *to_uncore_pmu(struct pmu *pmu)
{
	return container_of(pmu, struct uncore_pmu, pmu);
}

/*
 * The "cpumask" and "identifier" attributes: a driver lists this group
 * among its attribute groups.
 */
extern const struct attribute_group uncore_pmu_common_group;

ssize_t uncore_pmu_event_show(struct device *dev, struct device_attribute *attr,
			      char *buf);

/* An events/ entry whose text is "config=<value>". */
#define UNCORE_PMU_EVENT_ATTR(_name, _config)				\
	(&((struct dev_ext_attribute[]) {				\
		{ __ATTR(_name, 0444, uncore_pmu_event_show, NULL),	\
		  (void *)(unsigned long)(_config) }			\
	})[0].attr.attr)

/* A format/ entry: the config bits a field occupies. */
#define UNCORE_PMU_FORMAT_ATTR(_name, _bits)				\
	(&((struct dev_ext_attribute[]) {				\
		{ __ATTR(_name, 0444, device_show_string, NULL), _bits }	\
	})[0].attr.attr)

int __uncore_pmu_register(struct uncore_pmu *upmu, struct module *owner);
/**
 * uncore_pmu_register - register a counting PMU filled in by its driver
 * @upmu: the PMU: @ops, @dev, @name, @irq or @poll_ns, @node,
 *	@identifier, @num_counters and @pmu.attr_groups set
 *
 * Return: 0, or a negative errno when the PMU could not be registered.
 */
#define uncore_pmu_register(upmu) __uncore_pmu_register(upmu, THIS_MODULE)
void uncore_pmu_unregister(struct uncore_pmu *upmu);

irqreturn_t uncore_pmu_handle_overflow(struct uncore_pmu *upmu);

void __iomem *uncore_pmu_pci_map(struct pci_dev *pdev, int bar,
				 resource_size_t len);
int uncore_pmu_pci_request_irq(struct uncore_pmu *upmu, struct pci_dev *pdev,
			       const char *name);
bool uncore_pmu_pci_requester_in(struct pci_dev *pdev, u16 bdf,
				 bool by_root_port, u16 min, u16 max);

#endif /* __UNCORE_PMU_H__ */
