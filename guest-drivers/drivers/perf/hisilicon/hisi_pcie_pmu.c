// SPDX-License-Identifier: GPL-2.0
/*
 * HiSilicon PCIe PMU: a Root Complex integrated Endpoint of a PCIe core that
 * counts the latency and the bandwidth of the TLPs of the core's root ports
 * and of the endpoints below them, in eight 64-bit counter pairs.
 *
 * Each event of a pair reads one half of a counter: CNT holds a latency's
 * summed delay or a bandwidth's bytes, EXT_CNT the TLP count or the elapsed
 * time. Bit 16 of an event code selects the half, bits 15:0 are what the
 * counter is programmed with, so the two events of a pair in one group with
 * the same filters share one counter.
 */
#include <linux/bitfield.h>
#include <linux/bits.h>
#include <linux/device.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/perf_event.h>
#include <linux/sizes.h>
#include <linux/sysfs.h>

#include "../uncore_pmu.h"

#define HISI_PCIE_PMU_BAR		2

#define HISI_PCIE_GLOBAL_CTRL		0x000
#define  HISI_PCIE_GLOBAL_EN		BIT(0)
#define HISI_PCIE_EVENT_CTRL(idx)	(0x010 + (idx) * 8)
#define HISI_PCIE_CNT(idx)		(0x090 + (idx) * 8)
#define HISI_PCIE_EXT_CNT(idx)		(0x110 + (idx) * 8)
#define HISI_PCIE_INT_STAT(idx)		(0x150 + (idx) * 8)
#define HISI_PCIE_INT_MASK(idx)		(0x154 + (idx) * 8)
#define HISI_PCIE_REG_BDF		0xfe0
#define  HISI_PCIE_BDF_MIN		GENMASK(15, 0)
#define  HISI_PCIE_BDF_MAX		GENMASK(31, 16)
#define HISI_PCIE_REG_VERSION		0xfe4
#define HISI_PCIE_REG_INFO		0xfe8
#define  HISI_PCIE_INFO_CORE		GENMASK(15, 0)
#define  HISI_PCIE_INFO_SICL		GENMASK(31, 16)

/* EVENT_CTRL fields */
#define HISI_PCIE_CTRL_EVENT		GENMASK_ULL(15, 0)
#define HISI_PCIE_CTRL_EVENT_EN		BIT_ULL(20)
#define HISI_PCIE_CTRL_THR_EN		BIT_ULL(26)
#define HISI_PCIE_CTRL_THR_MODE		BIT_ULL(27)
#define HISI_PCIE_CTRL_THR_LEN		GENMASK_ULL(31, 28)
#define HISI_PCIE_CTRL_TARGET_EN	BIT_ULL(32)
#define HISI_PCIE_CTRL_LEN_MODE		GENMASK_ULL(35, 34)
#define HISI_PCIE_CTRL_TARGET		GENMASK_ULL(51, 36)
#define HISI_PCIE_CTRL_TRIG_EN		BIT_ULL(52)
#define HISI_PCIE_CTRL_TRIG_MODE	BIT_ULL(53)
#define HISI_PCIE_CTRL_TRIG_LEN		GENMASK_ULL(59, 56)

/* perf_event_attr fields, as format/ publishes them */
#define HISI_PCIE_ATTR_EVENT		GENMASK_ULL(16, 0)
#define  HISI_PCIE_ATTR_EXT		BIT_ULL(16)
#define HISI_PCIE_ATTR_THR_LEN		GENMASK_ULL(3, 0)
#define HISI_PCIE_ATTR_THR_MODE		BIT_ULL(4)
#define HISI_PCIE_ATTR_TRIG_LEN		GENMASK_ULL(8, 5)
#define HISI_PCIE_ATTR_TRIG_MODE	BIT_ULL(9)
#define HISI_PCIE_ATTR_LEN_MODE		GENMASK_ULL(11, 10)
#define HISI_PCIE_ATTR_PORT		GENMASK_ULL(15, 0)
#define HISI_PCIE_ATTR_BDF		GENMASK_ULL(31, 16)

/* Threshold and trigger lengths are powers of two DW up to 2^10 */
#define HISI_PCIE_MAX_LEN_SHIFT		10
/* len_mode 0 is reserved: it asks for the default, headers and payloads */
#define HISI_PCIE_LEN_MODE_BOTH		3

#define HISI_PCIE_NUM_COUNTERS		8
/*
 * A counter starts halfway to its wrap, where the vendor's driver starts it
 * too, so that its overflow interrupt comes after the same 2^63 counts with
 * either driver. The counts do not depend on it: deltas are taken modulo
 * 2^64.
 */
#define HISI_PCIE_COUNTER_START		BIT_ULL(63)

struct hisi_pcie_pmu {
	struct uncore_pmu upmu;
	struct pci_dev *pdev;
	void __iomem *base;
	u16 bdf_min;
	u16 bdf_max;
};

static struct hisi_pcie_pmu *to_hisi_pcie_pmu(struct uncore_pmu *upmu)
{
	return container_of(upmu, struct hisi_pcie_pmu, upmu);
}

static struct hisi_pcie_pmu *dev_to_hisi_pcie_pmu(struct device *dev)
{
	return to_hisi_pcie_pmu(to_uncore_pmu(dev_get_drvdata(dev)));
}

static ssize_t bus_show(struct device *dev, struct device_attribute *attr,
			char *buf)
{
	return sysfs_emit(buf, "%#04x\n",
			  PCI_BUS_NUM(dev_to_hisi_pcie_pmu(dev)->bdf_min));
}
static DEVICE_ATTR_RO(bus);

static ssize_t bdf_min_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%#04x\n", dev_to_hisi_pcie_pmu(dev)->bdf_min);
}
static DEVICE_ATTR_RO(bdf_min);

static ssize_t bdf_max_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%#04x\n", dev_to_hisi_pcie_pmu(dev)->bdf_max);
}
static DEVICE_ATTR_RO(bdf_max);

static struct attribute *hisi_pcie_pmu_device_attrs[] = {
	&dev_attr_bus.attr,
	&dev_attr_bdf_min.attr,
	&dev_attr_bdf_max.attr,
	NULL
};

static const struct attribute_group hisi_pcie_pmu_device_group = {
	.attrs = hisi_pcie_pmu_device_attrs,
};

static struct attribute *hisi_pcie_pmu_event_attrs[] = {
	UNCORE_PMU_EVENT_ATTR(rx_mwr_latency, 0x00010),
	UNCORE_PMU_EVENT_ATTR(rx_mwr_cnt, 0x10010),
	UNCORE_PMU_EVENT_ATTR(rx_mrd_latency, 0x00210),
	UNCORE_PMU_EVENT_ATTR(rx_mrd_cnt, 0x10210),
	UNCORE_PMU_EVENT_ATTR(tx_mrd_latency, 0x00011),
	UNCORE_PMU_EVENT_ATTR(tx_mrd_cnt, 0x10011),
	UNCORE_PMU_EVENT_ATTR(rx_mwr_flux, 0x00104),
	UNCORE_PMU_EVENT_ATTR(rx_mwr_time, 0x10104),
	UNCORE_PMU_EVENT_ATTR(rx_mrd_flux, 0x00804),
	UNCORE_PMU_EVENT_ATTR(rx_mrd_time, 0x10804),
	UNCORE_PMU_EVENT_ATTR(rx_cpl_flux, 0x02004),
	UNCORE_PMU_EVENT_ATTR(rx_cpl_time, 0x12004),
	UNCORE_PMU_EVENT_ATTR(tx_mwr_flux, 0x00105),
	UNCORE_PMU_EVENT_ATTR(tx_mwr_time, 0x10105),
	UNCORE_PMU_EVENT_ATTR(tx_mrd_flux, 0x00405),
	UNCORE_PMU_EVENT_ATTR(tx_mrd_time, 0x10405),
	UNCORE_PMU_EVENT_ATTR(tx_cpl_flux, 0x01005),
	UNCORE_PMU_EVENT_ATTR(tx_cpl_time, 0x11005),
	NULL
};

static const struct attribute_group hisi_pcie_pmu_events_group = {
	.name = "events",
	.attrs = hisi_pcie_pmu_event_attrs,
};

static struct attribute *hisi_pcie_pmu_format_attrs[] = {
	UNCORE_PMU_FORMAT_ATTR(event, "config:0-16"),
	UNCORE_PMU_FORMAT_ATTR(thr_len, "config1:0-3"),
	UNCORE_PMU_FORMAT_ATTR(thr_mode, "config1:4"),
	UNCORE_PMU_FORMAT_ATTR(trig_len, "config1:5-8"),
	UNCORE_PMU_FORMAT_ATTR(trig_mode, "config1:9"),
	UNCORE_PMU_FORMAT_ATTR(len_mode, "config1:10-11"),
	UNCORE_PMU_FORMAT_ATTR(port, "config2:0-15"),
	UNCORE_PMU_FORMAT_ATTR(bdf, "config2:16-31"),
	NULL
};

static const struct attribute_group hisi_pcie_pmu_format_group = {
	.name = "format",
	.attrs = hisi_pcie_pmu_format_attrs,
};

static const struct attribute_group *hisi_pcie_pmu_groups[] = {
	&hisi_pcie_pmu_events_group,
	&hisi_pcie_pmu_format_group,
	&hisi_pcie_pmu_device_group,
	&uncore_pmu_common_group,
	NULL
};

/* The device counts exactly the events that events/ lists. */
static bool hisi_pcie_pmu_known_event(u64 code)
{
	struct dev_ext_attribute *ext;
	struct attribute **attr;

	for (attr = hisi_pcie_pmu_event_attrs; *attr; attr++) {
		ext = container_of(*attr, struct dev_ext_attribute, attr.attr);
		if ((unsigned long)ext->var == code)
			return true;
	}
	return false;
}

static int hisi_pcie_pmu_event_init(struct perf_event *event)
{
	struct hisi_pcie_pmu *pcie_pmu = to_hisi_pcie_pmu(to_uncore_pmu(event->pmu));
	struct perf_event_attr *attr = &event->attr;
	u64 code = FIELD_GET(HISI_PCIE_ATTR_EVENT, attr->config);
	u64 thr_len = FIELD_GET(HISI_PCIE_ATTR_THR_LEN, attr->config1);
	u64 trig_len = FIELD_GET(HISI_PCIE_ATTR_TRIG_LEN, attr->config1);
	u64 len_mode = FIELD_GET(HISI_PCIE_ATTR_LEN_MODE, attr->config1);
	u64 port = FIELD_GET(HISI_PCIE_ATTR_PORT, attr->config2);
	u64 bdf = FIELD_GET(HISI_PCIE_ATTR_BDF, attr->config2);
	u64 ctrl;

	if (!hisi_pcie_pmu_known_event(code))
		return -ENOENT;
	if (thr_len > HISI_PCIE_MAX_LEN_SHIFT ||
	    trig_len > HISI_PCIE_MAX_LEN_SHIFT)
		return -EINVAL;

	ctrl = FIELD_PREP(HISI_PCIE_CTRL_EVENT, code);
	/*
	 * Without a port the counter needs a requester to filter on: one
	 * below the PMU's root ports.
	 */
	if (port) {
		ctrl |= FIELD_PREP(HISI_PCIE_CTRL_TARGET, port);
	} else {
		if (!uncore_pmu_pci_requester_in(pcie_pmu->pdev, bdf, true,
						 pcie_pmu->bdf_min,
						 pcie_pmu->bdf_max))
			return -EINVAL;
		ctrl |= HISI_PCIE_CTRL_TARGET_EN |
			FIELD_PREP(HISI_PCIE_CTRL_TARGET, bdf);
	}
	if (thr_len)
		ctrl |= HISI_PCIE_CTRL_THR_EN |
			FIELD_PREP(HISI_PCIE_CTRL_THR_LEN, thr_len) |
			FIELD_PREP(HISI_PCIE_CTRL_THR_MODE,
				   FIELD_GET(HISI_PCIE_ATTR_THR_MODE, attr->config1));
	if (trig_len)
		ctrl |= HISI_PCIE_CTRL_TRIG_EN |
			FIELD_PREP(HISI_PCIE_CTRL_TRIG_LEN, trig_len) |
			FIELD_PREP(HISI_PCIE_CTRL_TRIG_MODE,
				   FIELD_GET(HISI_PCIE_ATTR_TRIG_MODE, attr->config1));
	ctrl |= FIELD_PREP(HISI_PCIE_CTRL_LEN_MODE,
			   len_mode ?: HISI_PCIE_LEN_MODE_BOTH);

	event->hw.config = ctrl;
	event->hw.event_base = code & HISI_PCIE_ATTR_EXT ? HISI_PCIE_EXT_CNT(0) :
							  HISI_PCIE_CNT(0);
	return 0;
}

/* Events programming the same EVENT_CTRL read the two halves of a counter. */
static u64 hisi_pcie_pmu_share_key(struct perf_event *event)
{
	return event->hw.config;
}

static void hisi_pcie_pmu_start_counter(struct uncore_pmu *upmu,
					struct perf_event *event)
{
	struct hisi_pcie_pmu *pcie_pmu = to_hisi_pcie_pmu(upmu);
	void __iomem *base = pcie_pmu->base;
	int idx = event->hw.idx;

	writeq_relaxed(event->hw.config, base + HISI_PCIE_EVENT_CTRL(idx));
	writeq_relaxed(HISI_PCIE_COUNTER_START, base + HISI_PCIE_CNT(idx));
	writeq_relaxed(HISI_PCIE_COUNTER_START, base + HISI_PCIE_EXT_CNT(idx));
	/* An overflow left over from an earlier event is not this one's. */
	writel_relaxed(1, base + HISI_PCIE_INT_STAT(idx));
	writeq_relaxed(event->hw.config | HISI_PCIE_CTRL_EVENT_EN,
		       base + HISI_PCIE_EVENT_CTRL(idx));
	writel_relaxed(0, base + HISI_PCIE_INT_MASK(idx));
}

static void hisi_pcie_pmu_stop_counter(struct uncore_pmu *upmu,
				       struct perf_event *event)
{
	struct hisi_pcie_pmu *pcie_pmu = to_hisi_pcie_pmu(upmu);
	int idx = event->hw.idx;

	writel_relaxed(1, pcie_pmu->base + HISI_PCIE_INT_MASK(idx));
	writeq_relaxed(event->hw.config,
		       pcie_pmu->base + HISI_PCIE_EVENT_CTRL(idx));
}

static u64 hisi_pcie_pmu_read_counter(struct uncore_pmu *upmu,
				      struct perf_event *event)
{
	struct hisi_pcie_pmu *pcie_pmu = to_hisi_pcie_pmu(upmu);

	return readq_relaxed(pcie_pmu->base + event->hw.event_base +
			     event->hw.idx * 8);
}

static unsigned long hisi_pcie_pmu_overflow_status(struct uncore_pmu *upmu)
{
	struct hisi_pcie_pmu *pcie_pmu = to_hisi_pcie_pmu(upmu);
	unsigned long status = 0;
	unsigned int idx;

	for (idx = 0; idx < HISI_PCIE_NUM_COUNTERS; idx++)
		if (readl_relaxed(pcie_pmu->base + HISI_PCIE_INT_STAT(idx)))
			__set_bit(idx, &status);
	return status;
}

static void hisi_pcie_pmu_clear_overflow(struct uncore_pmu *upmu,
					 unsigned long status)
{
	struct hisi_pcie_pmu *pcie_pmu = to_hisi_pcie_pmu(upmu);
	unsigned int idx;

	for_each_set_bit(idx, &status, HISI_PCIE_NUM_COUNTERS)
		writel_relaxed(1, pcie_pmu->base + HISI_PCIE_INT_STAT(idx));
}

static void hisi_pcie_pmu_enable(struct uncore_pmu *upmu)
{
	writel(HISI_PCIE_GLOBAL_EN,
	       to_hisi_pcie_pmu(upmu)->base + HISI_PCIE_GLOBAL_CTRL);
}

static void hisi_pcie_pmu_disable(struct uncore_pmu *upmu)
{
	writel(0, to_hisi_pcie_pmu(upmu)->base + HISI_PCIE_GLOBAL_CTRL);
}

/* Nothing counts or interrupts until an event programs a counter. */
static void hisi_pcie_pmu_quiesce(struct uncore_pmu *upmu)
{
	struct hisi_pcie_pmu *pcie_pmu = to_hisi_pcie_pmu(upmu);
	unsigned int idx;

	writel(0, pcie_pmu->base + HISI_PCIE_GLOBAL_CTRL);
	for (idx = 0; idx < HISI_PCIE_NUM_COUNTERS; idx++) {
		writel_relaxed(1, pcie_pmu->base + HISI_PCIE_INT_MASK(idx));
		writeq_relaxed(0, pcie_pmu->base + HISI_PCIE_EVENT_CTRL(idx));
		writel_relaxed(1, pcie_pmu->base + HISI_PCIE_INT_STAT(idx));
	}
}

static const struct uncore_pmu_ops hisi_pcie_pmu_ops = {
	.event_init	= hisi_pcie_pmu_event_init,
	.share_key	= hisi_pcie_pmu_share_key,
	.start_counter	= hisi_pcie_pmu_start_counter,
	.stop_counter	= hisi_pcie_pmu_stop_counter,
	.read_counter	= hisi_pcie_pmu_read_counter,
	.overflow_status = hisi_pcie_pmu_overflow_status,
	.clear_overflow	= hisi_pcie_pmu_clear_overflow,
	.enable		= hisi_pcie_pmu_enable,
	.disable	= hisi_pcie_pmu_disable,
	.quiesce	= hisi_pcie_pmu_quiesce,
};

static int hisi_pcie_pmu_probe(struct pci_dev *pdev,
			       const struct pci_device_id *id)
{
	struct hisi_pcie_pmu *pcie_pmu;
	struct uncore_pmu *upmu;
	u32 reg;
	int ret;

	pcie_pmu = devm_kzalloc(&pdev->dev, sizeof(*pcie_pmu), GFP_KERNEL);
	if (!pcie_pmu)
		return -ENOMEM;
	pcie_pmu->pdev = pdev;
	upmu = &pcie_pmu->upmu;

	pcie_pmu->base = uncore_pmu_pci_map(pdev, HISI_PCIE_PMU_BAR, SZ_4K);
	if (IS_ERR(pcie_pmu->base))
		return PTR_ERR(pcie_pmu->base);

	reg = readl(pcie_pmu->base + HISI_PCIE_REG_BDF);
	pcie_pmu->bdf_min = FIELD_GET(HISI_PCIE_BDF_MIN, reg);
	pcie_pmu->bdf_max = FIELD_GET(HISI_PCIE_BDF_MAX, reg);

	reg = readl(pcie_pmu->base + HISI_PCIE_REG_INFO);
	upmu->name = devm_kasprintf(&pdev->dev, GFP_KERNEL, "hisi_pcie%lu_core%lu",
				    FIELD_GET(HISI_PCIE_INFO_SICL, reg),
				    FIELD_GET(HISI_PCIE_INFO_CORE, reg));
	if (!upmu->name)
		return -ENOMEM;

	upmu->ops = &hisi_pcie_pmu_ops;
	upmu->dev = &pdev->dev;
	upmu->node = dev_to_node(&pdev->dev);
	upmu->identifier = readl(pcie_pmu->base + HISI_PCIE_REG_VERSION);
	upmu->num_counters = HISI_PCIE_NUM_COUNTERS;
	upmu->pmu.attr_groups = hisi_pcie_pmu_groups;

	/* Named after the driver in /proc/interrupts, as it always was. */
	ret = uncore_pmu_pci_request_irq(upmu, pdev, KBUILD_MODNAME);
	if (ret)
		return ret;

	ret = uncore_pmu_register(upmu);
	if (ret)
		return dev_err_probe(&pdev->dev, ret, "cannot register PMU %s\n",
				     upmu->name);

	pci_set_drvdata(pdev, pcie_pmu);
	return 0;
}

static void hisi_pcie_pmu_remove(struct pci_dev *pdev)
{
	struct hisi_pcie_pmu *pcie_pmu = pci_get_drvdata(pdev);

	uncore_pmu_unregister(&pcie_pmu->upmu);
}

static const struct pci_device_id hisi_pcie_pmu_ids[] = {
	{ PCI_DEVICE(PCI_VENDOR_ID_HUAWEI, 0xa12d) },
	{ }
};
MODULE_DEVICE_TABLE(pci, hisi_pcie_pmu_ids);

static struct pci_driver hisi_pcie_pmu_driver = {
	.name		= KBUILD_MODNAME,
	.id_table	= hisi_pcie_pmu_ids,
	.probe		= hisi_pcie_pmu_probe,
	.remove		= hisi_pcie_pmu_remove,
};
module_pci_driver(hisi_pcie_pmu_driver);

MODULE_DESCRIPTION("HiSilicon PCIe PMU driver");
MODULE_AUTHOR("hisi-uncore-emu developers");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(UNCORE_PMU_NS);
