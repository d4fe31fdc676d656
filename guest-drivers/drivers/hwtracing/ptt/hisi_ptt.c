// SPDX-License-Identifier: GPL-2.0
/*
 * HiSilicon PCIe Tune and Trace (PTT) device.
 *
 * The PTT is a Root Complex integrated Endpoint that sits on one PCIe core
 * of a Kunpeng SoC. It offers two things:
 *
 * - tuning: a few link parameters of the core (QoS weights of the Tx TLP
 *   kinds, Rx/Tx buffer watermarks), reached through a mailbox of three
 *   registers and exposed as files in the PMU's tune/ directory;
 * - tracing: the headers of TLPs that pass the core's root ports, written by
 *   the device into four DMA buffers used in ring order, with one MSI for
 *   each buffer that fills up. The driver hands the records to perf as an
 *   AUX trace: when the AUX area is the device's ring (four physically
 *   contiguous chunks of one buffer's size) the device writes into it
 *   directly (zero-copy), otherwise each full buffer is copied into it.
 *
 * A trace selects its TLPs either by a requester ID or by a mask of root
 * ports. The valid choices are listed in the PMU's requester_filters/ and
 * root_port_filters/ directories and follow PCI hotplug below the ports.
 *
 * See Documentation/trace/hisi-ptt.rst for the user interface.
 */

#include <linux/align.h>
#include <linux/bitfield.h>
#include <linux/bits.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/hrtimer.h>
#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/iommu.h>
#include <linux/iopoll.h>
#include <linux/list.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/pci.h>
#include <linux/perf_event.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/vmalloc.h>

#define DRV_NAME "hisi_ptt"

#define PCI_DEVICE_ID_HISI_PTT			0xa12e
#define HISI_PTT_BAR				2

/* Registers in BAR 2 */
#define HISI_PTT_TUNING_CTRL			0x0000
#define   HISI_PTT_TUNING_CTRL_CODE		GENMASK(15, 0)
#define   HISI_PTT_TUNING_CTRL_SUB		GENMASK(23, 16)
#define HISI_PTT_TUNING_DATA			0x0004
#define   HISI_PTT_TUNING_DATA_VAL		GENMASK(15, 0)
/* Written to TUNING_DATA, asks for the current value instead of setting one */
#define   HISI_PTT_TUNING_DATA_READ		0xffffffff
#define HISI_PTT_TRACE_ADDR_SIZE		0x0800
#define HISI_PTT_TRACE_ADDR_BASE_LO(i)		(0x0810 + (i) * 8)
#define HISI_PTT_TRACE_ADDR_BASE_HI(i)		(0x0814 + (i) * 8)
#define HISI_PTT_TRACE_CTRL			0x0850
#define   HISI_PTT_TRACE_CTRL_EN		BIT(0)
#define   HISI_PTT_TRACE_CTRL_RST		BIT(1)
#define   HISI_PTT_TRACE_CTRL_RXTX_SEL		GENMASK(3, 2)
#define   HISI_PTT_TRACE_CTRL_TYPE_SEL		GENMASK(7, 4)
#define   HISI_PTT_TRACE_CTRL_DATA_FORMAT	BIT(14)
#define   HISI_PTT_TRACE_CTRL_FILTER_MODE	BIT(15)
#define   HISI_PTT_TRACE_CTRL_TARGET_SEL	GENMASK(31, 16)
#define HISI_PTT_TRACE_INT_STAT			0x0890
#define HISI_PTT_TRACE_INT_MASK			0x0894
#define   HISI_PTT_TRACE_INT_ALL		GENMASK(3, 0)
#define HISI_PTT_TUNING_INT_STAT		0x0898
#define   HISI_PTT_TUNING_BUSY			BIT(0)
#define HISI_PTT_TRACE_WR_STS			0x08a0
#define   HISI_PTT_TRACE_WR_STS_WRITE		GENMASK(27, 0)
#define   HISI_PTT_TRACE_WR_STS_BUFFER		GENMASK(29, 28)
#define HISI_PTT_TRACE_STS			0x08b0
#define   HISI_PTT_TRACE_IDLE			BIT(0)
#define HISI_PTT_DEVICE_RANGE			0x0fe0
#define   HISI_PTT_DEVICE_RANGE_LOWER		GENMASK(15, 0)
#define   HISI_PTT_DEVICE_RANGE_UPPER		GENMASK(31, 16)
#define HISI_PTT_LOCATION			0x0fe8
#define   HISI_PTT_LOCATION_CORE		GENMASK(15, 0)
#define   HISI_PTT_LOCATION_SICL		GENMASK(31, 16)

/* The trace DMA buffers */
#define HISI_PTT_NR_BUFS			4
#define HISI_PTT_BUF_SIZE			SZ_4M
/* Records are 16 or 32 bytes: a cut at this alignment keeps them whole. */
#define HISI_PTT_RECORD_ALIGN			32

/* Polling of the device, in microseconds */
#define HISI_PTT_POLL_US			10
#define HISI_PTT_TUNE_TIMEOUT_US		USEC_PER_SEC
#define HISI_PTT_IDLE_TIMEOUT_US		100
#define HISI_PTT_RESET_POLL_US			1
#define HISI_PTT_RESET_TIMEOUT_US		10
/* How often a zero-copy trace that waits for the reader looks for room */
#define HISI_PTT_ROOM_POLL_NS			(NSEC_PER_MSEC / 2)

/* perf_event_attr::config */
#define HISI_PTT_CFG_FILTER			GENMASK_ULL(15, 0)
#define HISI_PTT_CFG_FILTER_IS_PORT		BIT_ULL(19)
#define HISI_PTT_CFG_DIRECTION			GENMASK_ULL(23, 20)
#define HISI_PTT_CFG_TYPE			GENMASK_ULL(31, 24)
#define HISI_PTT_CFG_FORMAT			GENMASK_ULL(35, 32)
#define HISI_PTT_CFG_VALID			(HISI_PTT_CFG_FILTER | \
						 HISI_PTT_CFG_FILTER_IS_PORT | \
						 HISI_PTT_CFG_DIRECTION | \
						 HISI_PTT_CFG_TYPE | \
						 HISI_PTT_CFG_FORMAT)

#define HISI_PTT_DIRECTION_MAX			3
#define HISI_PTT_TYPE_ALL			GENMASK(2, 0)	/* P, NP, CPL */
#define HISI_PTT_FORMAT_MAX			1		/* 4DW, 8DW */

/* A tune event: main code and sub-code as they go into TUNING_CTRL */
#define HISI_PTT_TUNE_EVENT(code, sub)		((sub) << 16 | (code))

/**
 * struct hisi_ptt_filter - a PCI function or root port a trace can select
 * @node: entry in &struct hisi_ptt.filters
 * @attr: the file of the filter in requester_filters/ or root_port_filters/
 * @name: the PCI name of the function, which names the file
 * @devid: requester ID (bus and devfn) of the function
 * @is_port: the function is a root port
 */
struct hisi_ptt_filter {
	struct list_head node;
	struct device_attribute attr;
	char name[20];
	u16 devid;
	bool is_port;
};

/**
 * struct hisi_ptt_aux - the AUX area of a trace, mapped for the driver
 * @ptt: the device the area is for, @chunks mapped for its PCI function
 * @base: kernel mapping of the whole area, for the copy path
 * @size: size of the area in bytes
 * @overwrite: perf's overwrite (snapshot) mode: the trace goes round the
 *	area, the reader takes what is there when the trace stops
 * @zero_copy: the device writes into the area itself, through @chunks
 * @chunks: with @zero_copy, the device addresses of the area's chunks
 */
struct hisi_ptt_aux {
	struct hisi_ptt *ptt;
	void *base;
	size_t size;
	bool overwrite;
	bool zero_copy;
	dma_addr_t chunks[HISI_PTT_NR_BUFS];
};

/**
 * struct hisi_ptt_buf - one trace DMA buffer
 * @cpu: address for the CPU
 * @dma: address for the device
 */
struct hisi_ptt_buf {
	void *cpu;
	dma_addr_t dma;
};

/**
 * struct hisi_ptt - a PTT device
 * @pdev: the PCI function of the device
 * @base: BAR 2 mapping
 * @irq: the trace interrupt (buffer full)
 * @pmu: the perf PMU of the trace
 * @cpuhp_node: entry in the CPU hotplug state of the driver
 * @bufs: the trace DMA buffers, in the order the device fills them
 * @trace_lock: serialises the trace between perf callbacks and the interrupt
 * @trace_event: the event the device traces for, %NULL when it does not
 * @handle: AUX output handle of @trace_event, open while it traces
 * @cur_buf: index in @bufs of the buffer the device writes to
 * @first_chunk: with zero-copy, the AUX chunk the device uses as buffer 0
 * @held: with zero-copy, the status bit of a full buffer not acknowledged
 *	yet, which holds the device back until the reader makes room
 * @room_timer: looks for that room while @held is set
 * @snapshot: in overwrite mode, the bytes traced since the trace started
 * @aux_end: AUX position just past the last byte committed
 * @resume_aux: with zero-copy, the AUX area whose trace stopped cleanly
 *	last, with the device idle at its position @resume_head: a trace
 *	there goes on without a DMA reset
 * @resume_head: see @resume_aux
 * @tune_lock: serialises the tuning mailbox
 * @filter_lock: protects @filters, @port_mask and @filter_files
 * @filters: the filters, in the order the functions were found
 * @port_mask: the root port bits of all port filters
 * @filter_files: the files of @filters exist in sysfs
 * @pci_nb: PCI bus notifier that follows hotplug below the root ports
 * @lower_bdf: the lowest requester ID of the root ports of the device
 * @upper_bdf: the highest requester ID of the root ports of the device
 */
struct hisi_ptt {
	struct pci_dev *pdev;
	void __iomem *base;
	int irq;
	struct pmu pmu;
	struct hlist_node cpuhp_node;
	struct hisi_ptt_buf bufs[HISI_PTT_NR_BUFS];

	raw_spinlock_t trace_lock;
	struct perf_event *trace_event;
	struct perf_output_handle handle;
	unsigned int cur_buf;
	unsigned int first_chunk;
	u32 held;
	struct hrtimer room_timer;
	size_t snapshot;
	unsigned long aux_end;
	struct hisi_ptt_aux *resume_aux;
	unsigned long resume_head;

	struct mutex tune_lock;		/* one mailbox transaction at a time */

	struct mutex filter_lock;	/* filters vs. hotplug and event_init */
	struct list_head filters;
	u16 port_mask;
	bool filter_files;
	struct notifier_block pci_nb;
	u16 lower_bdf;
	u16 upper_bdf;
};

static enum cpuhp_state hisi_ptt_cpuhp_state;

static bool zero_copy = true;
module_param(zero_copy, bool, 0644);
MODULE_PARM_DESC(zero_copy,
		 "Trace straight into the perf AUX area when it is the device's ring of four 4 MiB chunks (default: on)");

static struct hisi_ptt *pmu_to_ptt(struct pmu *pmu)
{
	return container_of(pmu, struct hisi_ptt, pmu);
}

/* The PMU's sysfs files hang off pmu->dev, whose driver data is the PMU. */
static struct hisi_ptt *dev_to_ptt(struct device *dev)
{
	return pmu_to_ptt(dev_get_drvdata(dev));
}

static const struct cpumask *hisi_ptt_cpus(struct hisi_ptt *ptt)
{
	return cpumask_of_node(dev_to_node(&ptt->pdev->dev));
}

/* Tuning */

struct hisi_ptt_tune_attr {
	struct device_attribute attr;
	u32 event;
};

/*
 * One mailbox transaction: select the event of @tune, write @data (a value,
 * or HISI_PTT_TUNING_DATA_READ for a read) and wait for the device. On
 * success *@val, if given, holds the value TUNING_DATA gives back.
 */
static int hisi_ptt_tune(struct hisi_ptt *ptt,
			 const struct hisi_ptt_tune_attr *tune, u32 data,
			 u16 *val)
{
	void __iomem *base = ptt->base;
	u32 reg;
	int ret;

	mutex_lock(&ptt->tune_lock);
	reg = readl(base + HISI_PTT_TUNING_CTRL);
	reg &= ~(HISI_PTT_TUNING_CTRL_CODE | HISI_PTT_TUNING_CTRL_SUB);
	writel(reg | tune->event, base + HISI_PTT_TUNING_CTRL);
	writel(data, base + HISI_PTT_TUNING_DATA);
	ret = readl_poll_timeout(base + HISI_PTT_TUNING_INT_STAT, reg,
				 !(reg & HISI_PTT_TUNING_BUSY),
				 HISI_PTT_POLL_US, HISI_PTT_TUNE_TIMEOUT_US);
	if (!ret && val)
		*val = FIELD_GET(HISI_PTT_TUNING_DATA_VAL,
				 readl(base + HISI_PTT_TUNING_DATA));
	mutex_unlock(&ptt->tune_lock);

	if (ret)
		pci_err(ptt->pdev, "tune/%s: device busy, timed out\n",
			tune->attr.attr.name);
	return ret;
}

static ssize_t hisi_ptt_tune_show(struct device *dev,
				  struct device_attribute *attr, char *buf)
{
	struct hisi_ptt_tune_attr *tune = container_of(attr, struct hisi_ptt_tune_attr, attr);
	u16 val;
	int ret;

	ret = hisi_ptt_tune(dev_to_ptt(dev), tune, HISI_PTT_TUNING_DATA_READ,
			    &val);
	if (ret)
		return ret;
	return sysfs_emit(buf, "%u\n", val);
}

static ssize_t hisi_ptt_tune_store(struct device *dev,
				   struct device_attribute *attr,
				   const char *buf, size_t count)
{
	struct hisi_ptt_tune_attr *tune = container_of(attr, struct hisi_ptt_tune_attr, attr);
	u16 val;
	int ret;

	/* The device takes 0..2 and makes larger values 2; 16 bits go in. */
	if (kstrtou16(buf, 10, &val))
		return -EINVAL;

	ret = hisi_ptt_tune(dev_to_ptt(dev), tune, val, NULL);
	return ret ? ret : count;
}

#define HISI_PTT_TUNE_ATTR(_name, _code, _sub)				\
	static struct hisi_ptt_tune_attr hisi_ptt_tune_##_name = {	\
		.attr = __ATTR(_name, 0600, hisi_ptt_tune_show,		\
			       hisi_ptt_tune_store),			\
		.event = HISI_PTT_TUNE_EVENT(_code, _sub),		\
	}

/* Weights of the Tx TLP kinds and the Rx/Tx buffer watermarks */
HISI_PTT_TUNE_ATTR(qos_tx_cpl, 0x4, 3);
HISI_PTT_TUNE_ATTR(qos_tx_np, 0x4, 4);
HISI_PTT_TUNE_ATTR(qos_tx_p, 0x4, 5);
HISI_PTT_TUNE_ATTR(rx_alloc_buf_level, 0x5, 6);
HISI_PTT_TUNE_ATTR(tx_alloc_buf_level, 0x5, 7);

static struct attribute *hisi_ptt_tune_attrs[] = {
	&hisi_ptt_tune_qos_tx_cpl.attr.attr,
	&hisi_ptt_tune_qos_tx_np.attr.attr,
	&hisi_ptt_tune_qos_tx_p.attr.attr,
	&hisi_ptt_tune_rx_alloc_buf_level.attr.attr,
	&hisi_ptt_tune_tx_alloc_buf_level.attr.attr,
	NULL
};

static const struct attribute_group hisi_ptt_tune_group = {
	.name = "tune",
	.attrs = hisi_ptt_tune_attrs,
};

/* Filters */

#define HISI_PTT_PORT_FILTERS	"root_port_filters"
#define HISI_PTT_REQ_FILTERS	"requester_filters"

/* A root port's bit in the port mask is 2 * (slot mod 8); odd bits are unused. */
static u16 hisi_ptt_port_bit(u16 devid)
{
	return BIT((PCI_SLOT(devid & 0xff) & 0x7) << 1);
}

static u32 hisi_ptt_filter_value(const struct hisi_ptt_filter *filter)
{
	if (filter->is_port)
		return hisi_ptt_port_bit(filter->devid) |
		       FIELD_PREP(HISI_PTT_CFG_FILTER_IS_PORT, 1);
	return filter->devid;
}

static ssize_t hisi_ptt_filter_show(struct device *dev,
				    struct device_attribute *attr, char *buf)
{
	struct hisi_ptt_filter *filter = container_of(attr, struct hisi_ptt_filter, attr);

	return sysfs_emit(buf, "0x%05x\n", hisi_ptt_filter_value(filter));
}

static const char *hisi_ptt_filter_group(const struct hisi_ptt_filter *filter)
{
	return filter->is_port ? HISI_PTT_PORT_FILTERS : HISI_PTT_REQ_FILTERS;
}

static int hisi_ptt_filter_file_add(struct hisi_ptt *ptt,
				    struct hisi_ptt_filter *filter)
{
	int ret;

	ret = sysfs_add_file_to_group(&ptt->pmu.dev->kobj, &filter->attr.attr,
				      hisi_ptt_filter_group(filter));
	if (ret)
		pci_err(ptt->pdev, "no sysfs file for filter %s: %d\n",
			filter->name, ret);
	return ret;
}

static void hisi_ptt_filter_file_remove(struct hisi_ptt *ptt,
					struct hisi_ptt_filter *filter)
{
	sysfs_remove_file_from_group(&ptt->pmu.dev->kobj, &filter->attr.attr,
				     hisi_ptt_filter_group(filter));
}

static void hisi_ptt_update_port_mask(struct hisi_ptt *ptt)
{
	struct hisi_ptt_filter *filter;
	u16 mask = 0;

	/* Ports in slots eight apart share a bit: rebuild, don't clear. */
	list_for_each_entry(filter, &ptt->filters, node)
		if (filter->is_port)
			mask |= hisi_ptt_port_bit(filter->devid);
	ptt->port_mask = mask;
}

static struct hisi_ptt_filter *hisi_ptt_find_filter(struct hisi_ptt *ptt,
						    u16 devid, bool is_port)
{
	struct hisi_ptt_filter *filter;

	list_for_each_entry(filter, &ptt->filters, node)
		if (filter->devid == devid && filter->is_port == is_port)
			return filter;
	return NULL;
}

/* Whether @pdev sits below one of the root ports this PTT traces */
static bool hisi_ptt_covers(struct hisi_ptt *ptt, struct pci_dev *pdev)
{
	struct pci_dev *port = pcie_find_root_port(pdev);
	u16 devid;

	if (!port || pci_domain_nr(pdev->bus) != pci_domain_nr(ptt->pdev->bus))
		return false;
	devid = pci_dev_id(port);
	return devid >= ptt->lower_bdf && devid <= ptt->upper_bdf;
}

/* Called with filter_lock held */
static void hisi_ptt_add_filter(struct hisi_ptt *ptt, struct pci_dev *pdev)
{
	bool is_port = pci_pcie_type(pdev) == PCI_EXP_TYPE_ROOT_PORT;
	struct hisi_ptt_filter *filter;

	/* The probe's bus walk and the bus notifier may both report it. */
	if (hisi_ptt_find_filter(ptt, pci_dev_id(pdev), is_port))
		return;

	filter = kzalloc(sizeof(*filter), GFP_KERNEL);
	if (!filter)
		return;
	strscpy(filter->name, pci_name(pdev));
	filter->devid = pci_dev_id(pdev);
	filter->is_port = is_port;
	sysfs_attr_init(&filter->attr.attr);
	filter->attr.attr.name = filter->name;
	filter->attr.attr.mode = 0400;
	filter->attr.show = hisi_ptt_filter_show;

	if (ptt->filter_files && hisi_ptt_filter_file_add(ptt, filter)) {
		kfree(filter);
		return;
	}
	list_add_tail(&filter->node, &ptt->filters);
	hisi_ptt_update_port_mask(ptt);
}

/* Called with filter_lock held */
static void hisi_ptt_remove_filter(struct hisi_ptt *ptt, struct pci_dev *pdev)
{
	bool is_port = pci_pcie_type(pdev) == PCI_EXP_TYPE_ROOT_PORT;
	struct hisi_ptt_filter *filter;

	filter = hisi_ptt_find_filter(ptt, pci_dev_id(pdev), is_port);
	if (!filter)
		return;
	if (ptt->filter_files)
		hisi_ptt_filter_file_remove(ptt, filter);
	list_del(&filter->node);
	kfree(filter);
	hisi_ptt_update_port_mask(ptt);
}

static int hisi_ptt_scan_one(struct pci_dev *pdev, void *data)
{
	struct hisi_ptt *ptt = data;

	if (hisi_ptt_covers(ptt, pdev))
		hisi_ptt_add_filter(ptt, pdev);
	return 0;
}

/*
 * The root ports of the PTT are on the bus of DEVICE_RANGE's upper BDF;
 * the walk covers the buses below them as well.
 */
static void hisi_ptt_scan_filters(struct hisi_ptt *ptt)
{
	struct pci_bus *bus;

	bus = pci_find_bus(pci_domain_nr(ptt->pdev->bus),
			   PCI_BUS_NUM(ptt->upper_bdf));
	if (!bus)
		return;

	mutex_lock(&ptt->filter_lock);
	pci_walk_bus(bus, hisi_ptt_scan_one, ptt);
	mutex_unlock(&ptt->filter_lock);
}

/*
 * Bus notifiers run in process context, so the sysfs files of the filters
 * are created and removed right here.
 */
static int hisi_ptt_pci_notify(struct notifier_block *nb,
			       unsigned long action, void *data)
{
	struct hisi_ptt *ptt = container_of(nb, struct hisi_ptt, pci_nb);
	struct pci_dev *pdev = to_pci_dev(data);

	if (action != BUS_NOTIFY_ADD_DEVICE && action != BUS_NOTIFY_DEL_DEVICE)
		return NOTIFY_DONE;
	if (!hisi_ptt_covers(ptt, pdev))
		return NOTIFY_DONE;

	mutex_lock(&ptt->filter_lock);
	if (action == BUS_NOTIFY_ADD_DEVICE)
		hisi_ptt_add_filter(ptt, pdev);
	else
		hisi_ptt_remove_filter(ptt, pdev);
	mutex_unlock(&ptt->filter_lock);

	return NOTIFY_OK;
}

/* The PMU exists: give the filters found so far their files. */
static void hisi_ptt_add_filter_files(struct hisi_ptt *ptt)
{
	struct hisi_ptt_filter *filter, *next;

	mutex_lock(&ptt->filter_lock);
	list_for_each_entry_safe(filter, next, &ptt->filters, node) {
		if (hisi_ptt_filter_file_add(ptt, filter)) {
			list_del(&filter->node);
			kfree(filter);
		}
	}
	hisi_ptt_update_port_mask(ptt);
	ptt->filter_files = true;
	mutex_unlock(&ptt->filter_lock);
}

static void hisi_ptt_remove_filter_files(struct hisi_ptt *ptt)
{
	struct hisi_ptt_filter *filter;

	mutex_lock(&ptt->filter_lock);
	list_for_each_entry(filter, &ptt->filters, node)
		hisi_ptt_filter_file_remove(ptt, filter);
	ptt->filter_files = false;
	mutex_unlock(&ptt->filter_lock);
}

static void hisi_ptt_free_filters(struct hisi_ptt *ptt)
{
	struct hisi_ptt_filter *filter, *next;

	list_for_each_entry_safe(filter, next, &ptt->filters, node) {
		list_del(&filter->node);
		kfree(filter);
	}
}

static bool hisi_ptt_filter_valid(struct hisi_ptt *ptt, u64 config)
{
	u16 val = FIELD_GET(HISI_PTT_CFG_FILTER, config);
	bool valid;

	mutex_lock(&ptt->filter_lock);
	/* An empty port mask would start a trace that can record nothing. */
	if (config & HISI_PTT_CFG_FILTER_IS_PORT)
		valid = val && !(val & ~ptt->port_mask);
	else
		valid = hisi_ptt_find_filter(ptt, val, false);
	mutex_unlock(&ptt->filter_lock);

	return valid;
}

/* Trace hardware */

static bool hisi_ptt_wait_idle(struct hisi_ptt *ptt)
{
	u32 sts;

	return !readl_poll_timeout_atomic(ptt->base + HISI_PTT_TRACE_STS, sts,
					  sts & HISI_PTT_TRACE_IDLE,
					  HISI_PTT_POLL_US,
					  HISI_PTT_IDLE_TIMEOUT_US);
}

/* Point the idle device at @bufs and its DMA at the start of buffer 0. */
static int hisi_ptt_hw_reset(struct hisi_ptt *ptt, const dma_addr_t *bufs)
{
	void __iomem *base = ptt->base;
	u32 ctrl, sts;
	int ret, i;

	/* The device takes new buffer addresses only while it is idle. */
	for (i = 0; i < HISI_PTT_NR_BUFS; i++) {
		writel(lower_32_bits(bufs[i]),
		       base + HISI_PTT_TRACE_ADDR_BASE_LO(i));
		writel(upper_32_bits(bufs[i]),
		       base + HISI_PTT_TRACE_ADDR_BASE_HI(i));
	}

	/* Reset the DMA write pointer to the start of buffer 0. */
	ctrl = readl(base + HISI_PTT_TRACE_CTRL);
	writel(ctrl | HISI_PTT_TRACE_CTRL_RST, base + HISI_PTT_TRACE_CTRL);
	ret = readl_poll_timeout_atomic(base + HISI_PTT_TRACE_WR_STS, sts, !sts,
					HISI_PTT_RESET_POLL_US,
					HISI_PTT_RESET_TIMEOUT_US);
	writel(ctrl & ~HISI_PTT_TRACE_CTRL_RST, base + HISI_PTT_TRACE_CTRL);
	if (ret) {
		dev_err_ratelimited(&ptt->pdev->dev,
				    "trace not started: DMA reset timed out\n");
		return ret;
	}
	ptt->cur_buf = 0;
	return 0;
}

/*
 * Start a trace of @config into the buffers at @bufs, in ring order, or
 * with @bufs %NULL go on where the device stopped last: while idle it keeps
 * its place and its time.
 */
static int hisi_ptt_hw_start(struct hisi_ptt *ptt, u64 config,
			     const dma_addr_t *bufs)
{
	void __iomem *base = ptt->base;
	u32 ctrl;
	int ret;

	if (!hisi_ptt_wait_idle(ptt)) {
		dev_err_ratelimited(&ptt->pdev->dev,
				    "trace not started: device busy\n");
		return -EBUSY;
	}
	if (bufs) {
		ret = hisi_ptt_hw_reset(ptt, bufs);
		if (ret)
			return ret;
	}

	writel(HISI_PTT_TRACE_INT_ALL, base + HISI_PTT_TRACE_INT_STAT);
	writel(0, base + HISI_PTT_TRACE_INT_MASK);

	ctrl = FIELD_PREP(HISI_PTT_TRACE_CTRL_TYPE_SEL,
			  FIELD_GET(HISI_PTT_CFG_TYPE, config)) |
	       FIELD_PREP(HISI_PTT_TRACE_CTRL_RXTX_SEL,
			  FIELD_GET(HISI_PTT_CFG_DIRECTION, config)) |
	       FIELD_PREP(HISI_PTT_TRACE_CTRL_DATA_FORMAT,
			  FIELD_GET(HISI_PTT_CFG_FORMAT, config)) |
	       FIELD_PREP(HISI_PTT_TRACE_CTRL_TARGET_SEL,
			  FIELD_GET(HISI_PTT_CFG_FILTER, config)) |
	       HISI_PTT_TRACE_CTRL_EN;
	if (!(config & HISI_PTT_CFG_FILTER_IS_PORT))
		ctrl |= HISI_PTT_TRACE_CTRL_FILTER_MODE;
	writel(ctrl, base + HISI_PTT_TRACE_CTRL);

	return 0;
}

static void hisi_ptt_hw_stop(struct hisi_ptt *ptt)
{
	writel(0, ptt->base + HISI_PTT_TRACE_CTRL);
	writel(HISI_PTT_TRACE_INT_ALL, ptt->base + HISI_PTT_TRACE_INT_MASK);
}

/*
 * AUX output; all of it runs with trace_lock held.
 *
 * The copy path copies each full buffer to the AUX head and acknowledges it
 * at once. With zero-copy the records are in the AUX area already, and the
 * acknowledgment is what keeps the device off records the reader has not
 * read: while a status bit is pending the device cannot complete another
 * buffer, so acknowledging buffer N lets it write as far as buffer N + 2.
 * That is held back until the reader has freed the chunk of buffer N + 2,
 * and a timer looks for the room since perf tells no one when the reader
 * frees some.
 */

/* The device @aux's chunks are mapped for */
static struct device *hisi_ptt_dma_dev(struct hisi_ptt_aux *aux)
{
	return &aux->ptt->pdev->dev;
}

/* The DMA address of the AUX chunk the device uses as buffer @buf */
static dma_addr_t hisi_ptt_chunk(struct hisi_ptt *ptt,
				 struct hisi_ptt_aux *aux, unsigned int buf)
{
	return aux->chunks[(ptt->first_chunk + buf) % HISI_PTT_NR_BUFS];
}

/*
 * Make @len bytes of the current buffer from offset @start the CPU's, at
 * the AUX head.
 */
static void hisi_ptt_place(struct hisi_ptt *ptt, struct hisi_ptt_aux *aux,
			   size_t start, size_t len)
{
	const void *src = ptt->bufs[ptt->cur_buf].cpu + start;
	size_t off = ptt->handle.head % aux->size;
	size_t first = min(len, aux->size - off);

	if (!len)
		return;
	if (aux->zero_copy) {
		dma_sync_single_for_cpu(hisi_ptt_dma_dev(aux),
					hisi_ptt_chunk(ptt, aux, ptt->cur_buf) +
					start, len, DMA_FROM_DEVICE);
		return;
	}
	memcpy(aux->base + off, src, first);
	memcpy(aux->base, src + first, len - first);
}

/*
 * Hand the records of the current buffer up to offset @end to perf with the
 * AUX record flags @flags: all of them when copying; with zero-copy those
 * from the AUX head on, which is where the device went on after a stop. In
 * overwrite mode they only move the head of the open handle; otherwise
 * they are committed, which closes the handle. Returns false when the AUX
 * area ran out of room: what did not fit is dropped and perf is told so.
 */
static bool hisi_ptt_commit(struct hisi_ptt *ptt, size_t end, u64 flags)
{
	struct perf_output_handle *handle = &ptt->handle;
	struct hisi_ptt_aux *aux = perf_get_aux(handle);
	size_t start = aux->zero_copy ? handle->head % HISI_PTT_BUF_SIZE : 0;
	size_t len = end > start ? end - start : 0;
	bool fits = true;

	if (aux->overwrite) {
		hisi_ptt_place(ptt, aux, start, len);
		perf_aux_output_flag(handle, flags);
		handle->head += len;
		ptt->snapshot += len;
		ptt->aux_end = handle->head;
		return true;
	}
	if (len > handle->size) {
		/* The reader may have made room since the handle was opened. */
		perf_aux_output_end(handle, 0);
		if (!perf_aux_output_begin(handle, ptt->trace_event))
			return false;
		if (len > handle->size) {
			/* Zero-copy records sit in their chunk: none fits. */
			len = aux->zero_copy ? 0 :
			      ALIGN_DOWN(handle->size, HISI_PTT_RECORD_ALIGN);
			perf_aux_output_flag(handle, PERF_AUX_FLAG_TRUNCATED);
			fits = false;
		}
	}
	hisi_ptt_place(ptt, aux, start, len);
	perf_aux_output_flag(handle, flags);
	ptt->aux_end = handle->head + len;
	perf_aux_output_end(handle, len);
	return fits;
}

/*
 * Commit the current buffer, full, and open the handle for the next one.
 * Returns false when the AUX area ran out of room (handle closed).
 */
static bool hisi_ptt_commit_next(struct hisi_ptt *ptt)
{
	struct hisi_ptt_aux *aux = perf_get_aux(&ptt->handle);

	if (!hisi_ptt_commit(ptt, HISI_PTT_BUF_SIZE, 0) ||
	    (!aux->overwrite &&
	     !perf_aux_output_begin(&ptt->handle, ptt->trace_event)))
		return false;
	ptt->cur_buf = (ptt->cur_buf + 1) % HISI_PTT_NR_BUFS;
	return true;
}

/* Free AUX bytes for the device to write, as of when the handle opened */
static size_t hisi_ptt_room(struct hisi_ptt *ptt)
{
	/* perf's count of free space keeps one byte back */
	return ptt->handle.size + 1;
}

/*
 * Zero-copy: acknowledge the full buffers in @done, which lets the device
 * write as far as the buffer after the current one, if the reader has
 * freed its chunk; otherwise hold them (@held) for the room timer.
 */
static void hisi_ptt_release(struct hisi_ptt *ptt, u32 done)
{
	struct hisi_ptt_aux *aux = perf_get_aux(&ptt->handle);
	unsigned int next = (ptt->cur_buf + 1) % HISI_PTT_NR_BUFS;

	if (!aux->overwrite && hisi_ptt_room(ptt) < 2 * HISI_PTT_BUF_SIZE) {
		ptt->held = done;
		return;
	}
	ptt->held = 0;
	dma_sync_single_for_device(hisi_ptt_dma_dev(aux),
				   hisi_ptt_chunk(ptt, aux, next),
				   HISI_PTT_BUF_SIZE, DMA_FROM_DEVICE);
	writel(done, ptt->base + HISI_PTT_TRACE_INT_STAT);
}

/* Give up the trace: the AUX handle is closed already. */
static void hisi_ptt_abort(struct hisi_ptt *ptt)
{
	hisi_ptt_hw_stop(ptt);
	ptt->trace_event = NULL;
	ptt->held = 0;
}

/*
 * The timer of a zero-copy trace held back: reopen the handle to learn
 * how much the reader has freed. Runs on the trace's CPU (pinned, armed by
 * the interrupt), where the handle is.
 */
static enum hrtimer_restart hisi_ptt_room_poll(struct hrtimer *timer)
{
	struct hisi_ptt *ptt = container_of(timer, struct hisi_ptt, room_timer);
	enum hrtimer_restart ret = HRTIMER_NORESTART;

	raw_spin_lock(&ptt->trace_lock);
	if (ptt->held) {
		perf_aux_output_end(&ptt->handle, 0);
		if (!perf_aux_output_begin(&ptt->handle, ptt->trace_event)) {
			hisi_ptt_abort(ptt);
		} else {
			hisi_ptt_release(ptt, ptt->held);
			if (ptt->held) {
				hrtimer_forward_now(timer,
						    ns_to_ktime(HISI_PTT_ROOM_POLL_NS));
				ret = HRTIMER_RESTART;
			}
		}
	}
	raw_spin_unlock(&ptt->trace_lock);

	return ret;
}

/*
 * One interrupt per full buffer, in ring order: each interrupt takes one
 * buffer, so interrupts stay off for one 4 MiB copy at most (none with
 * zero-copy). Only that buffer's status is cleared; a buffer that filled
 * meanwhile has its own interrupt coming.
 */
static irqreturn_t hisi_ptt_irq(int irq, void *data)
{
	struct hisi_ptt *ptt = data;
	struct hisi_ptt_aux *aux;
	u32 status, cur;

	raw_spin_lock(&ptt->trace_lock);
	/* A held buffer was taken by its own interrupt. */
	status = readl(ptt->base + HISI_PTT_TRACE_INT_STAT) &
		 HISI_PTT_TRACE_INT_ALL & ~ptt->held;
	if (!status) {
		raw_spin_unlock(&ptt->trace_lock);
		return IRQ_NONE;
	}
	cur = BIT(ptt->cur_buf);
	if (!ptt->trace_event || !(status & cur)) {
		/* No trace, or a buffer out of order: nothing to keep. */
		if (ptt->trace_event)
			dev_dbg_ratelimited(&ptt->pdev->dev,
					    "buffers 0x%x full out of order, expected %u\n",
					    status, ptt->cur_buf);
		writel(status, ptt->base + HISI_PTT_TRACE_INT_STAT);
	} else {
		aux = perf_get_aux(&ptt->handle);
		/* Copying: acknowledge first, the device goes on meanwhile. */
		if (!aux->zero_copy)
			writel(cur, ptt->base + HISI_PTT_TRACE_INT_STAT);
		if (!hisi_ptt_commit_next(ptt)) {
			hisi_ptt_abort(ptt);
		} else if (aux->zero_copy) {
			hisi_ptt_release(ptt, cur);
			if (ptt->held)
				hrtimer_start(&ptt->room_timer,
					      ns_to_ktime(HISI_PTT_ROOM_POLL_NS),
					      HRTIMER_MODE_REL_PINNED_HARD);
		}
	}
	raw_spin_unlock(&ptt->trace_lock);

	return IRQ_HANDLED;
}

/* PMU */

static ssize_t cpumask_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	return cpumap_print_to_pagebuf(true, buf, hisi_ptt_cpus(dev_to_ptt(dev)));
}
static DEVICE_ATTR_RO(cpumask);

static struct attribute *hisi_ptt_cpumask_attrs[] = {
	&dev_attr_cpumask.attr,
	NULL
};

static const struct attribute_group hisi_ptt_cpumask_group = {
	.attrs = hisi_ptt_cpumask_attrs,
};

PMU_FORMAT_ATTR(filter, "config:0-19");
PMU_FORMAT_ATTR(direction, "config:20-23");
PMU_FORMAT_ATTR(type, "config:24-31");
PMU_FORMAT_ATTR(format, "config:32-35");

static struct attribute *hisi_ptt_format_attrs[] = {
	&format_attr_filter.attr,
	&format_attr_direction.attr,
	&format_attr_type.attr,
	&format_attr_format.attr,
	NULL
};

static const struct attribute_group hisi_ptt_format_group = {
	.name = "format",
	.attrs = hisi_ptt_format_attrs,
};

/* A mask of several root ports is one filter; requester IDs go one at a time. */
static ssize_t port_multiselect_show(struct device *dev,
				     struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "1\n");
}

static ssize_t req_multiselect_show(struct device *dev,
				    struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "0\n");
}

static struct device_attribute hisi_ptt_port_multiselect =
	__ATTR(multiselect, 0400, port_multiselect_show, NULL);
static struct device_attribute hisi_ptt_req_multiselect =
	__ATTR(multiselect, 0400, req_multiselect_show, NULL);

static struct attribute *hisi_ptt_port_filter_attrs[] = {
	&hisi_ptt_port_multiselect.attr,
	NULL
};

static const struct attribute_group hisi_ptt_port_filter_group = {
	.name = HISI_PTT_PORT_FILTERS,
	.attrs = hisi_ptt_port_filter_attrs,
};

static struct attribute *hisi_ptt_req_filter_attrs[] = {
	&hisi_ptt_req_multiselect.attr,
	NULL
};

static const struct attribute_group hisi_ptt_req_filter_group = {
	.name = HISI_PTT_REQ_FILTERS,
	.attrs = hisi_ptt_req_filter_attrs,
};

static const struct attribute_group *hisi_ptt_pmu_groups[] = {
	&hisi_ptt_cpumask_group,
	&hisi_ptt_format_group,
	&hisi_ptt_tune_group,
	&hisi_ptt_port_filter_group,
	&hisi_ptt_req_filter_group,
	NULL
};

static int hisi_ptt_event_init(struct perf_event *event)
{
	struct hisi_ptt *ptt = pmu_to_ptt(event->pmu);
	struct device *dev = event->pmu->dev;
	u64 config = event->attr.config;
	u32 type;

	if (event->attr.type != event->pmu->type)
		return -ENOENT;

	if (event->cpu < 0 || event->attach_state & PERF_ATTACH_TASK) {
		dev_dbg(dev, "a trace is bound to a CPU, not to a task\n");
		return -EOPNOTSUPP;
	}

	/* The trace interrupt goes to the event's CPU: one of the node's. */
	if (!cpumask_test_cpu(event->cpu, hisi_ptt_cpus(ptt))) {
		dev_dbg(dev, "CPU %d is not in cpumask\n", event->cpu);
		return -EINVAL;
	}

	/* Bits no format field names may mean something in a later driver. */
	if (config & ~HISI_PTT_CFG_VALID) {
		dev_dbg(dev, "reserved config bits 0x%llx set\n",
			config & ~HISI_PTT_CFG_VALID);
		return -EINVAL;
	}

	if (FIELD_GET(HISI_PTT_CFG_DIRECTION, config) > HISI_PTT_DIRECTION_MAX) {
		dev_dbg(dev, "direction %llu out of range 0-%u\n",
			FIELD_GET(HISI_PTT_CFG_DIRECTION, config),
			HISI_PTT_DIRECTION_MAX);
		return -EINVAL;
	}

	type = FIELD_GET(HISI_PTT_CFG_TYPE, config);
	if (!type || type & ~HISI_PTT_TYPE_ALL) {
		dev_dbg(dev, "type 0x%x is not a non-empty mask of 0x%lx\n",
			type, HISI_PTT_TYPE_ALL);
		return -EINVAL;
	}

	if (FIELD_GET(HISI_PTT_CFG_FORMAT, config) > HISI_PTT_FORMAT_MAX) {
		dev_dbg(dev, "format %llu out of range 0-%u\n",
			FIELD_GET(HISI_PTT_CFG_FORMAT, config),
			HISI_PTT_FORMAT_MAX);
		return -EINVAL;
	}

	if (!hisi_ptt_filter_valid(ptt, config)) {
		dev_dbg(dev, "filter 0x%05llx is not a %s\n",
			config & (HISI_PTT_CFG_FILTER | HISI_PTT_CFG_FILTER_IS_PORT),
			config & HISI_PTT_CFG_FILTER_IS_PORT ?
			"non-empty subset of " HISI_PTT_PORT_FILTERS :
			"file in " HISI_PTT_REQ_FILTERS);
		return -EINVAL;
	}

	return 0;
}

/* The page frame of AUX page @i, which perf gives by its kernel address */
static unsigned long hisi_ptt_aux_pfn(void **pages, int i)
{
	return page_to_pfn(virt_to_page(pages[i]));
}

static void hisi_ptt_unmap_chunks(struct hisi_ptt_aux *aux, int n)
{
	while (n--)
		dma_unmap_page(hisi_ptt_dma_dev(aux), aux->chunks[n],
			       HISI_PTT_BUF_SIZE, DMA_FROM_DEVICE);
}

/*
 * Zero-copy needs the AUX area to be the device's ring: one chunk per
 * buffer, each physically contiguous (perf allocates large chunks for
 * PERF_PMU_CAP_AUX_PREFER_LARGE, down to single pages when memory is
 * fragmented or the AUX watermark is small). The buffers' addresses cannot
 * change during a trace, so a larger area cannot be gone round.
 */
static bool hisi_ptt_map_chunks(struct hisi_ptt_aux *aux, void **pages,
				int nr_pages)
{
	const int chunk_pages = HISI_PTT_BUF_SIZE / PAGE_SIZE;
	struct device *dev = hisi_ptt_dma_dev(aux);
	int i, j;

	if (nr_pages != HISI_PTT_NR_BUFS * chunk_pages)
		return false;
	for (i = 0; i < HISI_PTT_NR_BUFS; i++) {
		unsigned long pfn = hisi_ptt_aux_pfn(pages, i * chunk_pages);

		for (j = 1; j < chunk_pages; j++)
			if (hisi_ptt_aux_pfn(pages, i * chunk_pages + j) != pfn + j)
				break;
		if (j < chunk_pages)
			break;
		aux->chunks[i] = dma_map_page(dev, pfn_to_page(pfn), 0,
					      HISI_PTT_BUF_SIZE, DMA_FROM_DEVICE);
		if (dma_mapping_error(dev, aux->chunks[i]))
			break;
	}
	if (i < HISI_PTT_NR_BUFS) {
		hisi_ptt_unmap_chunks(aux, i);
		return false;
	}
	return true;
}

static void *hisi_ptt_setup_aux(struct perf_event *event, void **pages,
				int nr_pages, bool overwrite)
{
	struct hisi_ptt *ptt = pmu_to_ptt(event->pmu);
	struct hisi_ptt_aux *aux;
	struct page **list;
	int i;

	/* A full round of the DMA buffers must fit. */
	if (nr_pages < HISI_PTT_NR_BUFS * HISI_PTT_BUF_SIZE / PAGE_SIZE) {
		dev_dbg(event->pmu->dev, "AUX area of %d pages, %lu needed\n",
			nr_pages, HISI_PTT_NR_BUFS * HISI_PTT_BUF_SIZE / PAGE_SIZE);
		return NULL;
	}

	aux = kzalloc(sizeof(*aux), GFP_KERNEL);
	if (!aux)
		return NULL;
	aux->ptt = ptt;
	aux->size = (size_t)nr_pages * PAGE_SIZE;
	aux->overwrite = overwrite;
	aux->zero_copy = READ_ONCE(zero_copy) &&
			 hisi_ptt_map_chunks(aux, pages, nr_pages);
	dev_dbg(event->pmu->dev, "AUX area of %zu MiB%s: %s\n", aux->size >> 20,
		overwrite ? ", overwrite mode" : "",
		aux->zero_copy ? "zero-copy" : "copied");
	if (aux->zero_copy)
		return aux;

	list = kvmalloc_array(nr_pages, sizeof(*list), GFP_KERNEL);
	if (!list)
		goto err_aux;
	for (i = 0; i < nr_pages; i++)
		list[i] = virt_to_page(pages[i]);
	aux->base = vmap(list, nr_pages, VM_MAP, PAGE_KERNEL);
	kvfree(list);
	if (!aux->base)
		goto err_aux;
	return aux;

err_aux:
	kfree(aux);
	return NULL;
}

static void hisi_ptt_free_aux(void *data)
{
	struct hisi_ptt_aux *aux = data;
	struct hisi_ptt *ptt = aux->ptt;
	unsigned long flags;

	/* No later area at the same address may pass for this one. */
	raw_spin_lock_irqsave(&ptt->trace_lock, flags);
	if (ptt->resume_aux == aux)
		ptt->resume_aux = NULL;
	raw_spin_unlock_irqrestore(&ptt->trace_lock, flags);

	if (aux->zero_copy)
		hisi_ptt_unmap_chunks(aux, HISI_PTT_NR_BUFS);
	else
		vunmap(aux->base);
	kfree(aux);
}

/*
 * Zero-copy: where the device is to write. A trace of this AUX area that
 * stopped cleanly left the device idle at the AUX head: it goes on there
 * (@resume). Otherwise buffer 0 is the chunk at the first boundary from the
 * head, and the bytes up to it are skipped: no PERF_RECORD_AUX covers them.
 * Either way the reader must have freed the rest of the current chunk and
 * all of the next: the device fills one and goes into the next before the
 * driver can hold it back.
 */
static bool hisi_ptt_zero_copy_start(struct hisi_ptt *ptt,
				     struct hisi_ptt_aux *aux, bool *resume)
{
	struct perf_output_handle *handle = &ptt->handle;
	size_t off = handle->head % HISI_PTT_BUF_SIZE;
	u32 sts = readl(ptt->base + HISI_PTT_TRACE_WR_STS);
	int i;

	*resume = ptt->resume_aux == aux && ptt->resume_head == handle->head &&
		  FIELD_GET(HISI_PTT_TRACE_WR_STS_BUFFER, sts) == ptt->cur_buf &&
		  FIELD_GET(HISI_PTT_TRACE_WR_STS_WRITE, sts) == off;
	if (!*resume && off) {
		if (aux->overwrite)
			handle->head += HISI_PTT_BUF_SIZE - off;
		else if (perf_aux_output_skip(handle, HISI_PTT_BUF_SIZE - off))
			goto no_room;
		off = 0;
	}
	if (!aux->overwrite && hisi_ptt_room(ptt) < 2 * HISI_PTT_BUF_SIZE - off)
		goto no_room;
	if (!*resume)
		ptt->first_chunk = handle->head / HISI_PTT_BUF_SIZE %
				   HISI_PTT_NR_BUFS;
	for (i = 0; i < HISI_PTT_NR_BUFS; i++)
		dma_sync_single_for_device(hisi_ptt_dma_dev(aux), aux->chunks[i],
					   HISI_PTT_BUF_SIZE, DMA_FROM_DEVICE);
	return true;

no_room:
	dev_dbg(ptt->pmu.dev, "no AUX room for the device to start in\n");
	return false;
}

/* perf calls start, stop, add and del with interrupts disabled. */
static void hisi_ptt_start(struct perf_event *event, int flags)
{
	struct hisi_ptt *ptt = pmu_to_ptt(event->pmu);
	struct device *dev = event->pmu->dev;
	dma_addr_t bufs[HISI_PTT_NR_BUFS];
	struct hisi_ptt_aux *aux;
	bool resume = false;
	int i;

	event->hw.state = 0;
	raw_spin_lock(&ptt->trace_lock);

	/* One trace at a time: perf opens an event on every CPU of cpumask. */
	if (ptt->trace_event) {
		dev_dbg(dev, "already tracing on CPU %d\n", ptt->trace_event->cpu);
		goto fail;
	}

	/* The buffer-full interrupt must reach the CPU that owns the handle. */
	if (irq_set_affinity(ptt->irq, cpumask_of(event->cpu)))
		dev_warn(dev, "trace interrupt not moved to CPU %d\n", event->cpu);

	aux = perf_aux_output_begin(&ptt->handle, event);
	if (!aux) {
		dev_dbg(dev, "no AUX output\n");
		goto fail;
	}
	for (i = 0; i < HISI_PTT_NR_BUFS; i++)
		bufs[i] = ptt->bufs[i].dma;
	if (aux->zero_copy) {
		if (!hisi_ptt_zero_copy_start(ptt, aux, &resume))
			goto fail_end;
		for (i = 0; i < HISI_PTT_NR_BUFS; i++)
			bufs[i] = hisi_ptt_chunk(ptt, aux, i);
	}
	ptt->resume_aux = NULL;
	if (hisi_ptt_hw_start(ptt, event->attr.config, resume ? NULL : bufs))
		goto fail_end;
	ptt->trace_event = event;
	if (!resume)
		ptt->snapshot = 0;
	raw_spin_unlock(&ptt->trace_lock);
	return;

fail_end:
	perf_aux_output_end(&ptt->handle, 0);
fail:
	event->hw.state = PERF_HES_STOPPED;
	raw_spin_unlock(&ptt->trace_lock);
}

static void hisi_ptt_stop(struct perf_event *event, int flags)
{
	struct hisi_ptt *ptt = pmu_to_ptt(event->pmu);
	struct hisi_ptt_aux *aux;
	u64 aux_flags = 0;
	u32 status, full, end;

	if (event->hw.state & PERF_HES_STOPPED)
		return;

	raw_spin_lock(&ptt->trace_lock);
	if (ptt->trace_event == event) {
		aux = perf_get_aux(&ptt->handle);
		/* The device clears EN itself when it has to give up (DMA error). */
		if (!(readl(ptt->base + HISI_PTT_TRACE_CTRL) & HISI_PTT_TRACE_CTRL_EN)) {
			dev_warn_ratelimited(&ptt->pdev->dev,
					     "trace stopped by the device, records lost\n");
			aux_flags = PERF_AUX_FLAG_PARTIAL;
		}
		hisi_ptt_hw_stop(ptt);
		if (!hisi_ptt_wait_idle(ptt))
			dev_warn(event->pmu->dev, "trace still busy after stop\n");

		/*
		 * The current buffer may have filled up since the last
		 * interrupt; the records after it are in the next one. A
		 * second full buffer would mean a third copy with interrupts
		 * off: from there on the records are dropped, and perf told so.
		 */
		status = readl(ptt->base + HISI_PTT_TRACE_INT_STAT) &
			 HISI_PTT_TRACE_INT_ALL;
		if (status)
			writel(status, ptt->base + HISI_PTT_TRACE_INT_STAT);
		/* A held buffer was committed by its interrupt. */
		status &= ~ptt->held;
		ptt->held = 0;
		hrtimer_try_to_cancel(&ptt->room_timer);
		full = status & BIT(ptt->cur_buf);
		if (!full || hisi_ptt_commit_next(ptt)) {
			status &= ~full;
			end = FIELD_GET(HISI_PTT_TRACE_WR_STS_WRITE,
					readl(ptt->base + HISI_PTT_TRACE_WR_STS));
			if (status) {
				dev_dbg_ratelimited(&ptt->pdev->dev,
						    "buffers 0x%x full at stop dropped\n",
						    status);
				aux_flags |= PERF_AUX_FLAG_TRUNCATED;
				end = 0;
			}
			if (hisi_ptt_commit(ptt, min(end, HISI_PTT_BUF_SIZE),
					    aux_flags) &&
			    aux->zero_copy && !aux_flags) {
				ptt->resume_aux = aux;
				ptt->resume_head = ptt->aux_end;
			}
			/* The reader takes what the area holds, up to the head. */
			if (aux->overwrite)
				perf_aux_output_end(&ptt->handle,
						    min(ptt->snapshot, aux->size));
		}
		ptt->trace_event = NULL;
	}
	raw_spin_unlock(&ptt->trace_lock);

	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

static int hisi_ptt_add(struct perf_event *event, int flags)
{
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;

	if (flags & PERF_EF_START) {
		hisi_ptt_start(event, PERF_EF_RELOAD);
		if (event->hw.state & PERF_HES_STOPPED)
			return -EINVAL;
	}
	return 0;
}

static void hisi_ptt_del(struct perf_event *event, int flags)
{
	hisi_ptt_stop(event, PERF_EF_UPDATE);
}

/* The trace has no count to read; perf still calls this. */
static void hisi_ptt_read(struct perf_event *event)
{
}

static int hisi_ptt_register_pmu(struct hisi_ptt *ptt)
{
	u32 location = readl(ptt->base + HISI_PTT_LOCATION);
	char *name;

	name = devm_kasprintf(&ptt->pdev->dev, GFP_KERNEL, "hisi_ptt%lu_%lu",
			      FIELD_GET(HISI_PTT_LOCATION_SICL, location),
			      FIELD_GET(HISI_PTT_LOCATION_CORE, location));
	if (!name)
		return -ENOMEM;

	ptt->pmu = (struct pmu) {
		.module		= THIS_MODULE,
		.parent		= &ptt->pdev->dev,
		/* Large AUX chunks let the device write into the area itself. */
		.capabilities	= PERF_PMU_CAP_EXCLUSIVE | PERF_PMU_CAP_NO_EXCLUDE |
				  PERF_PMU_CAP_AUX_PREFER_LARGE,
		.task_ctx_nr	= perf_sw_context,
		.attr_groups	= hisi_ptt_pmu_groups,
		.event_init	= hisi_ptt_event_init,
		.setup_aux	= hisi_ptt_setup_aux,
		.free_aux	= hisi_ptt_free_aux,
		.add		= hisi_ptt_add,
		.del		= hisi_ptt_del,
		.start		= hisi_ptt_start,
		.stop		= hisi_ptt_stop,
		.read		= hisi_ptt_read,
	};

	return perf_pmu_register(&ptt->pmu, name, -1);
}

/*
 * The tracing CPU goes offline: move the perf context, and with it the
 * trace, to another CPU of the node, and the interrupt along.
 */
static int hisi_ptt_cpu_teardown(unsigned int cpu, struct hlist_node *node)
{
	struct hisi_ptt *ptt = hlist_entry(node, struct hisi_ptt, cpuhp_node);
	unsigned long flags;
	unsigned int target;
	bool owner;

	raw_spin_lock_irqsave(&ptt->trace_lock, flags);
	owner = ptt->trace_event && ptt->trace_event->cpu == cpu;
	raw_spin_unlock_irqrestore(&ptt->trace_lock, flags);
	if (!owner)
		return 0;

	target = cpumask_any_and_but(hisi_ptt_cpus(ptt), cpu_online_mask, cpu);
	if (target >= nr_cpu_ids) {
		dev_err(ptt->pmu.dev, "no CPU left to move the trace to\n");
		return 0;
	}

	perf_pmu_migrate_context(&ptt->pmu, cpu, target);
	if (irq_set_affinity(ptt->irq, cpumask_of(target)))
		dev_warn(ptt->pmu.dev, "trace interrupt not moved to CPU %u\n",
			 target);
	return 0;
}

/* Probe and removal */

/*
 * The device cannot go through an IOMMU translation: its DMA must use
 * physical addresses (on Kunpeng the SMMUv3 driver gives it an identity
 * domain).
 */
static bool hisi_ptt_dma_direct(struct pci_dev *pdev)
{
	struct iommu_domain *domain = iommu_get_domain_for_dev(&pdev->dev);

	return !domain || domain->type == IOMMU_DOMAIN_IDENTITY;
}

static int hisi_ptt_init_bufs(struct hisi_ptt *ptt)
{
	struct device *dev = &ptt->pdev->dev;
	int i;

	/* The copy path's buffers; a trace start writes their addresses. */
	for (i = 0; i < HISI_PTT_NR_BUFS; i++) {
		ptt->bufs[i].cpu = dmam_alloc_coherent(dev, HISI_PTT_BUF_SIZE,
						       &ptt->bufs[i].dma,
						       GFP_KERNEL);
		if (!ptt->bufs[i].cpu)
			return -ENOMEM;
	}
	writel(HISI_PTT_BUF_SIZE, ptt->base + HISI_PTT_TRACE_ADDR_SIZE);

	return 0;
}

static int hisi_ptt_init_irq(struct hisi_ptt *ptt)
{
	struct pci_dev *pdev = ptt->pdev;
	int ret;

	/* Managed: released with the device since it was enabled by pcim. */
	ret = pci_alloc_irq_vectors(pdev, 1, 1, PCI_IRQ_MSI);
	if (ret < 0)
		return dev_err_probe(&pdev->dev, ret, "no MSI vector\n");

	ptt->irq = pci_irq_vector(pdev, 0);
	/* Hard IRQ, bound by the trace to its CPU: see hisi_ptt_start(). */
	ret = devm_request_irq(&pdev->dev, ptt->irq, hisi_ptt_irq,
			       IRQF_NOBALANCING | IRQF_NO_THREAD, DRV_NAME, ptt);
	if (ret)
		return dev_err_probe(&pdev->dev, ret, "cannot request IRQ %d\n",
				     ptt->irq);
	return 0;
}

static int hisi_ptt_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct device *dev = &pdev->dev;
	struct hisi_ptt *ptt;
	u32 range;
	int ret;

	if (!hisi_ptt_dma_direct(pdev))
		return dev_err_probe(dev, -EOPNOTSUPP,
				     "requires direct DMA mappings (no IOMMU or an identity domain)\n");

	ptt = devm_kzalloc(dev, sizeof(*ptt), GFP_KERNEL);
	if (!ptt)
		return -ENOMEM;
	ptt->pdev = pdev;
	raw_spin_lock_init(&ptt->trace_lock);
	hrtimer_setup(&ptt->room_timer, hisi_ptt_room_poll, CLOCK_MONOTONIC,
		      HRTIMER_MODE_REL_HARD);
	mutex_init(&ptt->tune_lock);
	mutex_init(&ptt->filter_lock);
	INIT_LIST_HEAD(&ptt->filters);
	pci_set_drvdata(pdev, ptt);

	ret = pcim_enable_device(pdev);
	if (ret)
		return dev_err_probe(dev, ret, "cannot enable device\n");

	ptt->base = pcim_iomap_region(pdev, HISI_PTT_BAR, DRV_NAME);
	if (IS_ERR(ptt->base))
		return dev_err_probe(dev, PTR_ERR(ptt->base),
				     "cannot map BAR %d\n", HISI_PTT_BAR);

	/*
	 * A kernel that kexec'd into this one may have left a trace running,
	 * its DMA aimed at memory that is now this kernel's.
	 */
	if (readl(ptt->base + HISI_PTT_TRACE_CTRL) & HISI_PTT_TRACE_CTRL_EN) {
		dev_warn(dev, "stopping a trace left running\n");
		hisi_ptt_hw_stop(ptt);
	}

	ret = dma_set_coherent_mask(dev, DMA_BIT_MASK(64));
	if (ret)
		return dev_err_probe(dev, ret, "no 64-bit DMA\n");
	pci_set_master(pdev);

	ret = hisi_ptt_init_irq(ptt);
	if (ret)
		return ret;

	ret = hisi_ptt_init_bufs(ptt);
	if (ret)
		return dev_err_probe(dev, ret, "no memory for trace buffers\n");

	range = readl(ptt->base + HISI_PTT_DEVICE_RANGE);
	ptt->lower_bdf = FIELD_GET(HISI_PTT_DEVICE_RANGE_LOWER, range);
	ptt->upper_bdf = FIELD_GET(HISI_PTT_DEVICE_RANGE_UPPER, range);

	/* Listen first, then scan: nothing added in between is missed. */
	ptt->pci_nb.notifier_call = hisi_ptt_pci_notify;
	ret = bus_register_notifier(&pci_bus_type, &ptt->pci_nb);
	if (ret) {
		dev_err_probe(dev, ret, "cannot follow PCI hotplug\n");
		goto err_filters;
	}
	hisi_ptt_scan_filters(ptt);

	ret = cpuhp_state_add_instance_nocalls(hisi_ptt_cpuhp_state,
					       &ptt->cpuhp_node);
	if (ret) {
		dev_err_probe(dev, ret, "cannot follow CPU hotplug\n");
		goto err_notifier;
	}

	ret = hisi_ptt_register_pmu(ptt);
	if (ret) {
		dev_err_probe(dev, ret, "cannot register PMU\n");
		goto err_cpuhp;
	}

	hisi_ptt_add_filter_files(ptt);
	return 0;

err_cpuhp:
	cpuhp_state_remove_instance_nocalls(hisi_ptt_cpuhp_state,
					    &ptt->cpuhp_node);
err_notifier:
	bus_unregister_notifier(&pci_bus_type, &ptt->pci_nb);
err_filters:
	hisi_ptt_free_filters(ptt);
	return ret;
}

static void hisi_ptt_remove(struct pci_dev *pdev)
{
	struct hisi_ptt *ptt = pci_get_drvdata(pdev);

	/* No filter file may come or go while the PMU goes away. */
	bus_unregister_notifier(&pci_bus_type, &ptt->pci_nb);
	hisi_ptt_remove_filter_files(ptt);
	perf_pmu_unregister(&ptt->pmu);
	hrtimer_cancel(&ptt->room_timer);
	cpuhp_state_remove_instance_nocalls(hisi_ptt_cpuhp_state,
					    &ptt->cpuhp_node);
	hisi_ptt_free_filters(ptt);
}

static const struct pci_device_id hisi_ptt_ids[] = {
	{ PCI_DEVICE(PCI_VENDOR_ID_HUAWEI, PCI_DEVICE_ID_HISI_PTT) },
	{ }
};
MODULE_DEVICE_TABLE(pci, hisi_ptt_ids);

static struct pci_driver hisi_ptt_driver = {
	.name		= DRV_NAME,
	.id_table	= hisi_ptt_ids,
	.probe		= hisi_ptt_probe,
	.remove		= hisi_ptt_remove,
	/*
	 * perf cannot take a PMU away under its events: a trace holds the
	 * module, and with no unbind in sysfs nothing else removes the
	 * device while the hardware writes into the trace buffers.
	 */
	.driver.suppress_bind_attrs = true,
};

static int __init hisi_ptt_init(void)
{
	int ret;

	ret = cpuhp_setup_state_multi(CPUHP_AP_ONLINE_DYN, "perf/hisi_ptt:online",
				      NULL, hisi_ptt_cpu_teardown);
	if (ret < 0)
		return ret;
	hisi_ptt_cpuhp_state = ret;

	ret = pci_register_driver(&hisi_ptt_driver);
	if (ret)
		cpuhp_remove_multi_state(hisi_ptt_cpuhp_state);
	return ret;
}
module_init(hisi_ptt_init);

static void __exit hisi_ptt_exit(void)
{
	pci_unregister_driver(&hisi_ptt_driver);
	cpuhp_remove_multi_state(hisi_ptt_cpuhp_state);
}
module_exit(hisi_ptt_exit);

MODULE_DESCRIPTION("HiSilicon PCIe Tune and Trace device driver");
MODULE_AUTHOR("hisi-uncore-emu developers");
MODULE_LICENSE("GPL");
