// SPDX-License-Identifier: GPL-2.0
/*
 * Common perf plumbing for counting uncore PMUs (see uncore_pmu.h).
 *
 * Every perf callback of an event runs on the PMU's owning CPU with
 * interrupts off, and the overflow interrupt (or the poll timer) runs
 * there too: the counter table is only ever touched from there, so it
 * needs no lock.
 */
#include <linux/bitmap.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/perf_event.h>
#include <linux/sysfs.h>
#include <linux/topology.h>

#include "uncore_pmu.h"

static enum cpuhp_state uncore_pmu_cpuhp_state;

static ssize_t cpumask_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct uncore_pmu *upmu = to_uncore_pmu(dev_get_drvdata(dev));

	if (upmu->on_cpu >= nr_cpu_ids)
		return sysfs_emit(buf, "\n");
	return cpumap_print_to_pagebuf(true, buf, cpumask_of(upmu->on_cpu));
}
static DEVICE_ATTR_RO(cpumask);

static ssize_t identifier_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	struct uncore_pmu *upmu = to_uncore_pmu(dev_get_drvdata(dev));

	return sysfs_emit(buf, "%#x\n", upmu->identifier);
}
static DEVICE_ATTR_RO(identifier);

static struct attribute *uncore_pmu_common_attrs[] = {
	&dev_attr_cpumask.attr,
	&dev_attr_identifier.attr,
	NULL
};

const struct attribute_group uncore_pmu_common_group = {
	.attrs = uncore_pmu_common_attrs,
};
EXPORT_SYMBOL_NS_GPL(uncore_pmu_common_group, UNCORE_PMU_NS);

/**
 * uncore_pmu_event_show() - show an events/ entry made by UNCORE_PMU_EVENT_ATTR
 * @dev: the PMU device
 * @attr: the attribute, inside a struct dev_ext_attribute holding the config
 * @buf: the page to fill
 *
 * Return: the number of bytes written.
 */
ssize_t uncore_pmu_event_show(struct device *dev, struct device_attribute *attr,
			      char *buf)
{
	struct dev_ext_attribute *ext = container_of(attr, struct dev_ext_attribute, attr);

	return sysfs_emit(buf, "config=0x%lx\n", (unsigned long)ext->var);
}
EXPORT_SYMBOL_NS_GPL(uncore_pmu_event_show, UNCORE_PMU_NS);

static bool uncore_pmu_same_counter(struct uncore_pmu *upmu,
				    struct perf_event *a, struct perf_event *b)
{
	return upmu->ops->share_key &&
	       upmu->ops->share_key(a) == upmu->ops->share_key(b);
}

/*
 * Note @event among the events of a group that need a counter of their
 * own; one sharing a counter with an event already noted needs none.
 */
static int uncore_pmu_note_group_event(struct uncore_pmu *upmu,
				       struct perf_event **counted,
				       unsigned int *n, struct perf_event *event)
{
	unsigned int i;

	if (is_software_event(event))
		return 0;
	/* Events of two hardware PMUs cannot be scheduled as one group. */
	if (event->pmu != &upmu->pmu)
		return -EINVAL;
	for (i = 0; i < *n; i++)
		if (uncore_pmu_same_counter(upmu, counted[i], event))
			return 0;
	if (*n == upmu->num_counters)
		return -EINVAL;
	counted[(*n)++] = event;
	return 0;
}

static int uncore_pmu_validate_group(struct uncore_pmu *upmu,
				     struct perf_event *event)
{
	struct perf_event *counted[UNCORE_PMU_MAX_COUNTERS];
	struct perf_event *leader = event->group_leader;
	struct perf_event *sibling;
	unsigned int n = 0;
	int ret;

	if (leader == event)
		return 0;
	ret = uncore_pmu_note_group_event(upmu, counted, &n, leader);
	if (ret)
		return ret;
	for_each_sibling_event(sibling, leader) {
		ret = uncore_pmu_note_group_event(upmu, counted, &n, sibling);
		if (ret)
			return ret;
	}
	return uncore_pmu_note_group_event(upmu, counted, &n, event);
}

static int uncore_pmu_event_init(struct perf_event *event)
{
	struct uncore_pmu *upmu = to_uncore_pmu(event->pmu);
	int ret;

	if (event->attr.type != event->pmu->type)
		return -ENOENT;
	/* The counters count for the whole system and raise no samples. */
	if (is_sampling_event(event) || event->attach_state & PERF_ATTACH_TASK)
		return -EOPNOTSUPP;
	if (event->cpu < 0)
		return -EINVAL;
	if (upmu->on_cpu >= nr_cpu_ids)
		return -ENODEV;

	ret = upmu->ops->event_init(event);
	if (ret)
		return ret;
	ret = uncore_pmu_validate_group(upmu, event);
	if (ret)
		return ret;

	event->cpu = upmu->on_cpu;
	event->hw.idx = -1;
	return 0;
}

/* Fold what the counter of @event counted since the last look into it. */
static void uncore_pmu_update(struct perf_event *event)
{
	struct uncore_pmu *upmu = to_uncore_pmu(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	u64 prev, now;

	do {
		prev = local64_read(&hwc->prev_count);
		now = upmu->ops->read_counter(upmu, event);
	} while (local64_cmpxchg(&hwc->prev_count, prev, now) != prev);

	local64_add(now - prev, &event->count);
}

/*
 * Account a counter that wrapped around, once its overflow is acknowledged:
 * the events reading it take what it counted before the wrap, so a 64-bit
 * count stays exact.
 */
static void uncore_pmu_counter_overflow(struct uncore_pmu *upmu,
					unsigned int idx)
{
	struct uncore_pmu_counter *counter = &upmu->counters[idx];
	unsigned int i;

	for (i = 0; i < counter->users; i++)
		if (!(counter->events[i]->hw.state & PERF_HES_STOPPED))
			uncore_pmu_update(counter->events[i]);
}

/**
 * uncore_pmu_handle_overflow() - account the counters that overflowed
 * @upmu: the PMU
 *
 * The body of an overflow interrupt handler, for a driver whose interrupt
 * signals more than overflows; runs on the owning CPU with interrupts off.
 *
 * Return: IRQ_HANDLED if a counter had overflowed, else IRQ_NONE.
 */
irqreturn_t uncore_pmu_handle_overflow(struct uncore_pmu *upmu)
{
	unsigned long status;
	unsigned int idx;

	status = upmu->ops->overflow_status(upmu) &
		 GENMASK(upmu->num_counters - 1, 0);
	if (!status)
		return IRQ_NONE;
	upmu->ops->clear_overflow(upmu, status);
	for_each_set_bit(idx, &status, upmu->num_counters)
		uncore_pmu_counter_overflow(upmu, idx);
	return IRQ_HANDLED;
}
EXPORT_SYMBOL_NS_GPL(uncore_pmu_handle_overflow, UNCORE_PMU_NS);

static irqreturn_t uncore_pmu_irq(int irq, void *data)
{
	return uncore_pmu_handle_overflow(data);
}

/*
 * Without an interrupt: look for overflows on the owning CPU, as the
 * interrupt would, while counters are in use. A timer left on a CPU that
 * no longer owns the PMU stops; the owner's next enable starts its own.
 */
static enum hrtimer_restart uncore_pmu_poll(struct hrtimer *timer)
{
	struct uncore_pmu *upmu = container_of(timer, struct uncore_pmu,
					       poll_timer);

	if (smp_processor_id() != upmu->on_cpu ||
	    bitmap_empty(upmu->used_mask, upmu->num_counters))
		return HRTIMER_NORESTART;
	uncore_pmu_handle_overflow(upmu);
	hrtimer_forward_now(timer, ns_to_ktime(upmu->poll_ns));
	return HRTIMER_RESTART;
}

/*
 * Started once, not at every enable: perf enables the PMU at each
 * scheduling change, which may come more often than the period.
 */
static void uncore_pmu_start_poll(struct uncore_pmu *upmu)
{
	unsigned int cpu = smp_processor_id();

	if (hrtimer_active(&upmu->poll_timer) && upmu->poll_cpu == cpu)
		return;
	upmu->poll_cpu = cpu;
	hrtimer_start(&upmu->poll_timer, ns_to_ktime(upmu->poll_ns),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

static void uncore_pmu_start(struct perf_event *event, int flags)
{
	struct uncore_pmu *upmu = to_uncore_pmu(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	struct uncore_pmu_counter *counter = &upmu->counters[hwc->idx];

	if (WARN_ON_ONCE(!(hwc->state & PERF_HES_STOPPED)))
		return;
	hwc->state = 0;

	/* An event joining a running shared counter must not reset it. */
	if (!counter->running++)
		upmu->ops->start_counter(upmu, event);
	local64_set(&hwc->prev_count, upmu->ops->read_counter(upmu, event));
	perf_event_update_userpage(event);
}

static void uncore_pmu_stop(struct perf_event *event, int flags)
{
	struct uncore_pmu *upmu = to_uncore_pmu(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	struct uncore_pmu_counter *counter = &upmu->counters[hwc->idx];

	if (hwc->state & PERF_HES_STOPPED)
		return;
	hwc->state |= PERF_HES_STOPPED;

	if (!--counter->running)
		upmu->ops->stop_counter(upmu, event);
	/* A stopped counter keeps its value: take the last of it. */
	uncore_pmu_update(event);
	hwc->state |= PERF_HES_UPTODATE;
}

static int uncore_pmu_first_free_counter(struct uncore_pmu *upmu)
{
	unsigned int idx = find_first_zero_bit(upmu->used_mask,
					       upmu->num_counters);

	return idx < upmu->num_counters ? idx : -EAGAIN;
}

/* A counter of @event's group that already counts what @event counts. */
static int uncore_pmu_find_shared_counter(struct uncore_pmu *upmu,
					  struct perf_event *event)
{
	struct uncore_pmu_counter *counter;
	unsigned int idx;

	if (!upmu->ops->share_key)
		return -ENOENT;
	for_each_set_bit(idx, upmu->used_mask, upmu->num_counters) {
		counter = &upmu->counters[idx];
		if (counter->users < UNCORE_PMU_MAX_SHARERS &&
		    counter->events[0]->group_leader == event->group_leader &&
		    counter->key == upmu->ops->share_key(event))
			return idx;
	}
	return -ENOENT;
}

static int uncore_pmu_add(struct perf_event *event, int flags)
{
	struct uncore_pmu *upmu = to_uncore_pmu(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	struct uncore_pmu_counter *counter;
	int idx;

	hwc->state = PERF_HES_STOPPED | PERF_HES_UPTODATE;

	idx = uncore_pmu_find_shared_counter(upmu, event);
	if (idx < 0) {
		if (upmu->ops->get_event_idx)
			idx = upmu->ops->get_event_idx(event);
		else
			idx = uncore_pmu_first_free_counter(upmu);
		if (idx < 0)
			return idx;
		set_bit(idx, upmu->used_mask);
		upmu->counters[idx].key = upmu->ops->share_key ?
					  upmu->ops->share_key(event) : 0;
	}
	counter = &upmu->counters[idx];
	counter->events[counter->users++] = event;
	hwc->idx = idx;

	if (flags & PERF_EF_START)
		uncore_pmu_start(event, PERF_EF_RELOAD);
	return 0;
}

static void uncore_pmu_del(struct perf_event *event, int flags)
{
	struct uncore_pmu *upmu = to_uncore_pmu(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	struct uncore_pmu_counter *counter = &upmu->counters[hwc->idx];
	unsigned int i;

	uncore_pmu_stop(event, PERF_EF_UPDATE);

	for (i = 0; i < counter->users; i++)
		if (counter->events[i] == event)
			break;
	counter->events[i] = counter->events[--counter->users];
	counter->events[counter->users] = NULL;
	if (!counter->users) {
		if (upmu->ops->put_event_idx)
			upmu->ops->put_event_idx(event);
		clear_bit(hwc->idx, upmu->used_mask);
	}
	hwc->idx = -1;
	perf_event_update_userpage(event);
}

static void uncore_pmu_read(struct perf_event *event)
{
	if (!(event->hw.state & PERF_HES_STOPPED))
		uncore_pmu_update(event);
}

static void uncore_pmu_enable(struct pmu *pmu)
{
	struct uncore_pmu *upmu = to_uncore_pmu(pmu);

	if (bitmap_empty(upmu->used_mask, upmu->num_counters))
		return;
	upmu->ops->enable(upmu);
	if (upmu->poll_ns)
		uncore_pmu_start_poll(upmu);
}

static void uncore_pmu_disable(struct pmu *pmu)
{
	struct uncore_pmu *upmu = to_uncore_pmu(pmu);

	upmu->ops->disable(upmu);
}

static bool uncore_pmu_cpu_is_local(struct uncore_pmu *upmu, unsigned int cpu)
{
	return upmu->node == NUMA_NO_NODE || cpu_to_node(cpu) == upmu->node;
}

/* An online CPU other than @gone to own the PMU, of its node if possible. */
static unsigned int uncore_pmu_pick_cpu(struct uncore_pmu *upmu,
					unsigned int gone)
{
	unsigned int cpu, fallback = nr_cpu_ids;

	for_each_online_cpu(cpu) {
		if (cpu == gone)
			continue;
		if (uncore_pmu_cpu_is_local(upmu, cpu))
			return cpu;
		if (fallback >= nr_cpu_ids)
			fallback = cpu;
	}
	return fallback;
}

static void uncore_pmu_move_irq(struct uncore_pmu *upmu)
{
	if (upmu->irq > 0 && upmu->on_cpu < nr_cpu_ids)
		WARN_ON(irq_set_affinity(upmu->irq, cpumask_of(upmu->on_cpu)));
}

/*
 * Move the PMU's events and interrupt from its owner to @target, which is
 * online; the owner goes offline or is not of the device's node.
 */
static void uncore_pmu_migrate(struct uncore_pmu *upmu, unsigned int target)
{
	unsigned int from = upmu->on_cpu;

	upmu->on_cpu = target;
	perf_pmu_migrate_context(&upmu->pmu, from, target);
	uncore_pmu_move_irq(upmu);
}

static int uncore_pmu_online_cpu(unsigned int cpu, struct hlist_node *node)
{
	struct uncore_pmu *upmu = hlist_entry_safe(node, struct uncore_pmu,
						   cpuhp_node);

	if (upmu->on_cpu >= nr_cpu_ids) {
		upmu->on_cpu = cpu;
		uncore_pmu_move_irq(upmu);
	} else if (!uncore_pmu_cpu_is_local(upmu, upmu->on_cpu) &&
		   uncore_pmu_cpu_is_local(upmu, cpu)) {
		/* The device's node is back: its traffic is counted from there. */
		uncore_pmu_migrate(upmu, cpu);
	}
	return 0;
}

static int uncore_pmu_offline_cpu(unsigned int cpu, struct hlist_node *node)
{
	struct uncore_pmu *upmu = hlist_entry_safe(node, struct uncore_pmu,
						   cpuhp_node);
	unsigned int target;

	if (cpu != upmu->on_cpu)
		return 0;
	target = uncore_pmu_pick_cpu(upmu, cpu);
	if (target >= nr_cpu_ids)
		upmu->on_cpu = target;
	else
		uncore_pmu_migrate(upmu, target);
	return 0;
}

int __uncore_pmu_register(struct uncore_pmu *upmu, struct module *owner)
{
	int ret;

	if (WARN_ON(!upmu->num_counters ||
		    upmu->num_counters > UNCORE_PMU_MAX_COUNTERS))
		return -EINVAL;

	upmu->pmu.module = owner;
	upmu->pmu.parent = upmu->dev;
	upmu->pmu.task_ctx_nr = perf_invalid_context;
	upmu->pmu.capabilities |= PERF_PMU_CAP_NO_EXCLUDE;
	upmu->pmu.event_init = uncore_pmu_event_init;
	upmu->pmu.pmu_enable = uncore_pmu_enable;
	upmu->pmu.pmu_disable = uncore_pmu_disable;
	upmu->pmu.add = uncore_pmu_add;
	upmu->pmu.del = uncore_pmu_del;
	upmu->pmu.start = uncore_pmu_start;
	upmu->pmu.stop = uncore_pmu_stop;
	upmu->pmu.read = uncore_pmu_read;

	if (upmu->poll_ns)
		hrtimer_setup(&upmu->poll_timer, uncore_pmu_poll,
			      CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);

	upmu->on_cpu = nr_cpu_ids;
	ret = cpuhp_state_add_instance_nocalls(uncore_pmu_cpuhp_state,
					       &upmu->cpuhp_node);
	if (ret)
		return ret;
	/* From here on the hotplug callbacks keep the owner online. */
	cpus_read_lock();
	upmu->on_cpu = uncore_pmu_pick_cpu(upmu, nr_cpu_ids);
	uncore_pmu_move_irq(upmu);
	cpus_read_unlock();

	ret = perf_pmu_register(&upmu->pmu, upmu->name, -1);
	if (ret)
		cpuhp_state_remove_instance_nocalls(uncore_pmu_cpuhp_state,
						    &upmu->cpuhp_node);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(__uncore_pmu_register, UNCORE_PMU_NS);

/**
 * uncore_pmu_unregister() - remove a PMU registered by uncore_pmu_register
 * @upmu: the PMU
 */
void uncore_pmu_unregister(struct uncore_pmu *upmu)
{
	perf_pmu_unregister(&upmu->pmu);
	cpuhp_state_remove_instance_nocalls(uncore_pmu_cpuhp_state,
					    &upmu->cpuhp_node);
	if (upmu->poll_ns)
		hrtimer_cancel(&upmu->poll_timer);
	/* Nothing counts or interrupts for the device's next driver. */
	if (upmu->ops->quiesce)
		upmu->ops->quiesce(upmu);
}
EXPORT_SYMBOL_NS_GPL(uncore_pmu_unregister, UNCORE_PMU_NS);

/**
 * uncore_pmu_pci_map() - enable a PCI PMU and map the BAR of its registers
 * @pdev: the PMU's function
 * @bar: the BAR of its registers
 * @len: the register space its driver uses
 *
 * Bus mastering is on as well: the overflow interrupt is an MSI, a memory
 * write by the device. Managed: undone when the driver unbinds.
 *
 * Return: the mapping, or an ERR_PTR whose reason was logged.
 */
void __iomem *uncore_pmu_pci_map(struct pci_dev *pdev, int bar,
				 resource_size_t len)
{
	struct device *dev = &pdev->dev;
	void __iomem *base;
	int ret;

	ret = pcim_enable_device(pdev);
	if (ret)
		return IOMEM_ERR_PTR(dev_err_probe(dev, ret,
						   "cannot enable the device\n"));

	if (!(pci_resource_flags(pdev, bar) & IORESOURCE_MEM) ||
	    pci_resource_len(pdev, bar) < len)
		return IOMEM_ERR_PTR(dev_err_probe(dev, -ENODEV,
						   "BAR %d is not a memory BAR of %pa bytes\n",
						   bar, &len));

	base = pcim_iomap_region(pdev, bar, dev_driver_string(dev));
	if (IS_ERR(base))
		return IOMEM_ERR_PTR(dev_err_probe(dev, PTR_ERR(base),
						   "cannot map BAR %d\n", bar));
	pci_set_master(pdev);
	return base;
}
EXPORT_SYMBOL_NS_GPL(uncore_pmu_pci_map, UNCORE_PMU_NS);

/**
 * uncore_pmu_pci_request_irq() - the overflow interrupt of a PCI PMU
 * @upmu: the PMU; its @irq is set on success
 * @pdev: the PMU's function
 * @name: the interrupt's name in /proc/interrupts
 *
 * The device is quiesced first (@upmu->ops->quiesce), so that the first
 * interrupt is not one a previous owner left pending. One MSI vector,
 * neither threaded nor balanced: the core keeps it on the PMU's owning
 * CPU, and handles it with the driver's overflow operations. Managed:
 * released when the driver unbinds.
 *
 * Return: 0, or a negative errno whose reason was logged.
 */
int uncore_pmu_pci_request_irq(struct uncore_pmu *upmu, struct pci_dev *pdev,
			       const char *name)
{
	struct device *dev = &pdev->dev;
	int ret;

	if (upmu->ops->quiesce)
		upmu->ops->quiesce(upmu);

	ret = pci_alloc_irq_vectors(pdev, 1, 1, PCI_IRQ_MSI);
	if (ret < 0)
		return dev_err_probe(dev, ret, "no MSI vector\n");

	ret = pci_irq_vector(pdev, 0);
	if (ret < 0)
		return dev_err_probe(dev, ret, "no interrupt for MSI vector 0\n");
	upmu->irq = ret;

	ret = devm_request_irq(dev, upmu->irq, uncore_pmu_irq,
			       IRQF_NOBALANCING | IRQF_NO_THREAD, name, upmu);
	if (ret)
		return dev_err_probe(dev, ret, "cannot request IRQ %d\n",
				     upmu->irq);
	return 0;
}
EXPORT_SYMBOL_NS_GPL(uncore_pmu_pci_request_irq, UNCORE_PMU_NS);

/**
 * uncore_pmu_pci_requester_in() - whether a requester a filter names is one
 *	the PMU counts
 * @pdev: the PMU's function
 * @bdf: the requester ID the filter names, in the PMU's PCI domain
 * @by_root_port: judge the requester by its root port's ID, not its own
 * @min: the lowest ID the PMU counts
 * @max: the highest
 *
 * The PMUs filter by requester ID only within their own range (a NIC's
 * functions, a PCIe core's root ports); a filter naming any other, or a
 * function that does not exist, would count nothing.
 *
 * Return: true when a function with ID @bdf exists and its ID (or its root
 * port's) is in [@min, @max].
 */
bool uncore_pmu_pci_requester_in(struct pci_dev *pdev, u16 bdf,
				 bool by_root_port, u16 min, u16 max)
{
	struct pci_dev *req, *judged;
	bool in = false;

	req = pci_get_domain_bus_and_slot(pci_domain_nr(pdev->bus),
					  PCI_BUS_NUM(bdf), bdf & 0xff);
	if (!req)
		return false;
	judged = by_root_port ? pcie_find_root_port(req) : req;
	if (judged)
		in = pci_dev_id(judged) >= min && pci_dev_id(judged) <= max;
	pci_dev_put(req);
	return in;
}
EXPORT_SYMBOL_NS_GPL(uncore_pmu_pci_requester_in, UNCORE_PMU_NS);

static int __init uncore_pmu_module_init(void)
{
	int ret;

	ret = cpuhp_setup_state_multi(CPUHP_AP_ONLINE_DYN,
				      "perf/uncore_pmu:online",
				      uncore_pmu_online_cpu,
				      uncore_pmu_offline_cpu);
	if (ret < 0)
		return ret;
	uncore_pmu_cpuhp_state = ret;
	return 0;
}
module_init(uncore_pmu_module_init);

static void __exit uncore_pmu_module_exit(void)
{
	cpuhp_remove_multi_state(uncore_pmu_cpuhp_state);
}
module_exit(uncore_pmu_module_exit);

MODULE_DESCRIPTION("Common plumbing for counting uncore PMUs");
MODULE_AUTHOR("hisi-uncore-emu developers");
MODULE_LICENSE("GPL");
