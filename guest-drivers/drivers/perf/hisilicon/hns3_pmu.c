// SPDX-License-Identifier: GPL-2.0
/*
 * Perf driver for the HiSilicon HNS3 PMU, a Root Complex integrated Endpoint
 * that counts the traffic of the HNS3 NIC functions of one SICL: bandwidth,
 * packet rate, latency and interrupt rate at the stages of the NIC pipeline.
 *
 * The PMU has eight hardware events ("slots"). A slot counts one event code
 * under one filter into two 64-bit counters at once: the quantity itself
 * and its reference (bytes and cycles, packets and cycles, delay cycles and
 * packets, interrupts and cycles). Perf sees each half as an event of its
 * own, config bit 16 choosing the extended counter; the two halves of a
 * pair in one group share the slot, so the ratio is taken over one
 * interval. Cycles tick at the rate shown in "hw_clk_freq".
 *
 * A counter wraps to 0 past 2^64, raising an overflow interrupt.
 */
#include <linux/bitfield.h>
#include <linux/bitops.h>
#include <linux/device.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/io-64-nonatomic-hi-lo.h>
#include <linux/iopoll.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/perf_event.h>
#include <linux/sizes.h>
#include <linux/spinlock.h>
#include <linux/sysfs.h>

#include "../uncore_pmu.h"

#define HNS3_PMU_PCI_DEVICE_ID		0xa22b
#define HNS3_PMU_BAR			2
#define HNS3_PMU_BAR_SIZE		SZ_64K

/* Registers of the whole PMU */
#define HNS3_PMU_GLOBAL_CTRL		0x0000
#define HNS3_PMU_GLOBAL_START		BIT(0)
#define HNS3_PMU_CLOCK_FREQ		0x0020
#define HNS3_PMU_BDF			0x0fe0
#define HNS3_PMU_BDF_MIN		GENMASK(15, 0)
#define HNS3_PMU_BDF_MAX		GENMASK(31, 16)
#define HNS3_PMU_VERSION		0x0fe4
#define HNS3_PMU_DEVICE_ID		0x0fe8
#define HNS3_PMU_DEVICE_ID_SICL		GENMASK(15, 0)

/* Each slot has a page of registers */
#define HNS3_PMU_NUM_SLOTS		8
#define HNS3_PMU_SLOT(idx)		(0x1000 + 0x1000 * (idx))

/* Bit 11 would overlap the subevent field: no subevent reaches 0x80. */
#define HNS3_PMU_CTRL_LOW		0x00
#define HNS3_PMU_CTRL_TYPE		GENMASK(3, 0)
#define HNS3_PMU_CTRL_SUBEVENT		GENMASK(10, 4)
#define HNS3_PMU_CTRL_STATUS_RESET	BIT(11)
#define HNS3_PMU_CTRL_EN		BIT(12)
#define HNS3_PMU_CTRL_RESTART		BIT(15)
#define HNS3_PMU_CTRL_MODE		GENMASK(31, 24)
#define HNS3_PMU_CTRL_HIGH		0x04
#define HNS3_PMU_INTR_STATUS		0x08
#define HNS3_PMU_INTR_MASK		0x0c
#define HNS3_PMU_INTR_MASK_OVERFLOW	BIT(1)
#define HNS3_PMU_COUNTER		0x10
#define HNS3_PMU_EXT_COUNTER		0x18
#define HNS3_PMU_QID_CTRL		0x28
#define HNS3_PMU_QID_REQ		BIT(0)
#define HNS3_PMU_QID_DONE		BIT(1)
#define HNS3_PMU_QID_MISS		BIT(2)
#define HNS3_PMU_QID_PARA		0x2c
#define HNS3_PMU_QID_PARA_FUNC		GENMASK(7, 0)
#define HNS3_PMU_QID_PARA_QUEUE		GENMASK(31, 16)

#define HNS3_PMU_QID_POLL_US		10
#define HNS3_PMU_QID_TIMEOUT_US		1000

/* The event: config, as in format/ */
#define HNS3_PMU_CFG_SUBEVENT		GENMASK_ULL(7, 0)
#define HNS3_PMU_CFG_TYPE		GENMASK_ULL(15, 8)
#define HNS3_PMU_CFG_CODE		GENMASK_ULL(15, 0)
#define HNS3_PMU_CFG_EXT		BIT_ULL(16)

/* Its filter: config1 */
#define HNS3_PMU_CFG1_PORT		GENMASK_ULL(3, 0)
#define HNS3_PMU_CFG1_TC		GENMASK_ULL(7, 4)
#define HNS3_PMU_CFG1_BDF		GENMASK_ULL(23, 8)
#define HNS3_PMU_CFG1_QUEUE		GENMASK_ULL(39, 24)
#define HNS3_PMU_CFG1_GLOBAL		BIT_ULL(52)

#define HNS3_PMU_ALL_TCS		0xf
#define HNS3_PMU_ALL_QUEUES		0xffff
#define HNS3_PMU_BDF_DEVFN		GENMASK(7, 0)

/*
 * The filter modes, as EVENT_CTRL_LOW takes them. The hardware also has a
 * function and interrupt mode (5, the "intr" field) that no event takes.
 */
enum hns3_pmu_mode {
	HNS3_PMU_MODE_GLOBAL,
	HNS3_PMU_MODE_PORT,
	HNS3_PMU_MODE_PORT_TC,
	HNS3_PMU_MODE_FUNC,
	HNS3_PMU_MODE_FUNC_QUEUE,
	HNS3_PMU_NR_MODES
};

static const char *const hns3_pmu_mode_names[HNS3_PMU_NR_MODES] = {
	[HNS3_PMU_MODE_GLOBAL]		= "global",
	[HNS3_PMU_MODE_PORT]		= "port",
	[HNS3_PMU_MODE_PORT_TC]		= "port-tc",
	[HNS3_PMU_MODE_FUNC]		= "func",
	[HNS3_PMU_MODE_FUNC_QUEUE]	= "func-queue",
};

#define HNS3_PMU_F(mode)		BIT(HNS3_PMU_MODE_##mode)

/* The filter sets of the events: every event takes the global filter. */
#define HNS3_PMU_GLOBAL_ONLY		HNS3_PMU_F(GLOBAL)
#define HNS3_PMU_BY_QUEUE		(HNS3_PMU_F(GLOBAL) | HNS3_PMU_F(FUNC_QUEUE))
#define HNS3_PMU_BY_PORT		(HNS3_PMU_F(GLOBAL) | HNS3_PMU_F(PORT) | \
					 HNS3_PMU_F(PORT_TC))
#define HNS3_PMU_BY_PORT_FUNC		(HNS3_PMU_BY_PORT | HNS3_PMU_F(FUNC))
#define HNS3_PMU_BY_ANY			(HNS3_PMU_BY_PORT_FUNC | HNS3_PMU_F(FUNC_QUEUE))
#define HNS3_PMU_BY_PORT_NOT_TC		(HNS3_PMU_F(GLOBAL) | HNS3_PMU_F(PORT) | \
					 HNS3_PMU_F(FUNC))
#define HNS3_PMU_BY_PORT_NOT_TC_QUEUE	(HNS3_PMU_BY_PORT_NOT_TC | \
					 HNS3_PMU_F(FUNC_QUEUE))

/* Event types: the class of an event code */
#define HNS3_PMU_BW			0x000
#define HNS3_PMU_PPS			0x100
#define HNS3_PMU_DLY			0x200
#define HNS3_PMU_INTR			0x300

/**
 * struct hns3_pmu_pair - one hardware event, seen by perf as two events
 * @code: config[15:0], event_type << 8 | subevent
 * @filters: BIT() of each filter mode the event takes
 * @counter: the name of the event reading EVENT_COUNTER
 * @ext: the name of the event reading EVENT_EXT_COUNTER (config bit 16)
 */
struct hns3_pmu_pair {
	u16 code;
	u8 filters;
	const char *counter;
	const char *ext;
};

static const struct hns3_pmu_pair hns3_pmu_pairs[] = {
	/* bandwidth: bytes, and cycles */
	{ .code = HNS3_PMU_BW | 0x01, .filters = HNS3_PMU_BY_PORT,
	  .counter = "bw_ssu_egu_byte_num", .ext = "bw_ssu_egu_time" },
	{ .code = HNS3_PMU_BW | 0x02, .filters = HNS3_PMU_BY_ANY,
	  .counter = "bw_ssu_rpu_byte_num", .ext = "bw_ssu_rpu_time" },
	{ .code = HNS3_PMU_BW | 0x03, .filters = HNS3_PMU_BY_PORT_FUNC,
	  .counter = "bw_ssu_roce_byte_num", .ext = "bw_ssu_roce_time" },
	{ .code = HNS3_PMU_BW | 0x04, .filters = HNS3_PMU_BY_PORT_FUNC,
	  .counter = "bw_roce_ssu_byte_num", .ext = "bw_roce_ssu_time" },
	{ .code = HNS3_PMU_BW | 0x05, .filters = HNS3_PMU_BY_ANY,
	  .counter = "bw_tpu_ssu_byte_num", .ext = "bw_tpu_ssu_time" },
	{ .code = HNS3_PMU_BW | 0x06, .filters = HNS3_PMU_BY_QUEUE,
	  .counter = "bw_rpu_rcbrx_byte_num", .ext = "bw_rpu_rcbrx_time" },
	{ .code = HNS3_PMU_BW | 0x08, .filters = HNS3_PMU_BY_QUEUE,
	  .counter = "bw_rcbtx_txsch_byte_num", .ext = "bw_rcbtx_txsch_time" },
	{ .code = HNS3_PMU_BW | 0x09, .filters = HNS3_PMU_BY_PORT_NOT_TC_QUEUE,
	  .counter = "bw_wr_fbd_byte_num", .ext = "bw_wr_fbd_time" },
	{ .code = HNS3_PMU_BW | 0x0a, .filters = HNS3_PMU_BY_QUEUE,
	  .counter = "bw_wr_ebd_byte_num", .ext = "bw_wr_ebd_time" },
	{ .code = HNS3_PMU_BW | 0x0b, .filters = HNS3_PMU_GLOBAL_ONLY,
	  .counter = "bw_rd_fbd_byte_num", .ext = "bw_rd_fbd_time" },
	{ .code = HNS3_PMU_BW | 0x0c, .filters = HNS3_PMU_BY_PORT_NOT_TC_QUEUE,
	  .counter = "bw_rd_ebd_byte_num", .ext = "bw_rd_ebd_time" },
	{ .code = HNS3_PMU_BW | 0x0d, .filters = HNS3_PMU_GLOBAL_ONLY,
	  .counter = "bw_rd_pay_m0_byte_num", .ext = "bw_rd_pay_m0_time" },
	{ .code = HNS3_PMU_BW | 0x0e, .filters = HNS3_PMU_GLOBAL_ONLY,
	  .counter = "bw_rd_pay_m1_byte_num", .ext = "bw_rd_pay_m1_time" },
	{ .code = HNS3_PMU_BW | 0x0f, .filters = HNS3_PMU_GLOBAL_ONLY,
	  .counter = "bw_wr_pay_m0_byte_num", .ext = "bw_wr_pay_m0_time" },
	{ .code = HNS3_PMU_BW | 0x10, .filters = HNS3_PMU_GLOBAL_ONLY,
	  .counter = "bw_wr_pay_m1_byte_num", .ext = "bw_wr_pay_m1_time" },

	/* packet rate: packets, and cycles */
	{ .code = HNS3_PMU_PPS | 0x00, .filters = HNS3_PMU_BY_PORT,
	  .counter = "pps_igu_ssu_packet_num", .ext = "pps_igu_ssu_time" },
	{ .code = HNS3_PMU_PPS | 0x01, .filters = HNS3_PMU_BY_PORT,
	  .counter = "pps_ssu_egu_packet_num", .ext = "pps_ssu_egu_time" },
	{ .code = HNS3_PMU_PPS | 0x02, .filters = HNS3_PMU_BY_ANY,
	  .counter = "pps_ssu_rpu_packet_num", .ext = "pps_ssu_rpu_time" },
	{ .code = HNS3_PMU_PPS | 0x03, .filters = HNS3_PMU_BY_PORT_FUNC,
	  .counter = "pps_ssu_roce_packet_num", .ext = "pps_ssu_roce_time" },
	{ .code = HNS3_PMU_PPS | 0x04, .filters = HNS3_PMU_BY_PORT_FUNC,
	  .counter = "pps_roce_ssu_packet_num", .ext = "pps_roce_ssu_time" },
	{ .code = HNS3_PMU_PPS | 0x05, .filters = HNS3_PMU_BY_ANY,
	  .counter = "pps_tpu_ssu_packet_num", .ext = "pps_tpu_ssu_time" },
	{ .code = HNS3_PMU_PPS | 0x06, .filters = HNS3_PMU_BY_QUEUE,
	  .counter = "pps_rpu_rcbrx_packet_num", .ext = "pps_rpu_rcbrx_time" },
	{ .code = HNS3_PMU_PPS | 0x07, .filters = HNS3_PMU_BY_ANY,
	  .counter = "pps_rcbtx_tpu_packet_num", .ext = "pps_rcbtx_tpu_time" },
	{ .code = HNS3_PMU_PPS | 0x08, .filters = HNS3_PMU_BY_QUEUE,
	  .counter = "pps_rcbtx_txsch_packet_num", .ext = "pps_rcbtx_txsch_time" },
	{ .code = HNS3_PMU_PPS | 0x09, .filters = HNS3_PMU_BY_PORT_NOT_TC_QUEUE,
	  .counter = "pps_wr_fbd_packet_num", .ext = "pps_wr_fbd_time" },
	{ .code = HNS3_PMU_PPS | 0x0a, .filters = HNS3_PMU_BY_QUEUE,
	  .counter = "pps_wr_ebd_packet_num", .ext = "pps_wr_ebd_time" },
	{ .code = HNS3_PMU_PPS | 0x0b, .filters = HNS3_PMU_GLOBAL_ONLY,
	  .counter = "pps_rd_fbd_packet_num", .ext = "pps_rd_fbd_time" },
	{ .code = HNS3_PMU_PPS | 0x0c, .filters = HNS3_PMU_BY_PORT_NOT_TC_QUEUE,
	  .counter = "pps_rd_ebd_packet_num", .ext = "pps_rd_ebd_time" },
	{ .code = HNS3_PMU_PPS | 0x0d, .filters = HNS3_PMU_GLOBAL_ONLY,
	  .counter = "pps_rd_pay_m0_packet_num", .ext = "pps_rd_pay_m0_time" },
	{ .code = HNS3_PMU_PPS | 0x0e, .filters = HNS3_PMU_GLOBAL_ONLY,
	  .counter = "pps_rd_pay_m1_packet_num", .ext = "pps_rd_pay_m1_time" },
	{ .code = HNS3_PMU_PPS | 0x0f, .filters = HNS3_PMU_GLOBAL_ONLY,
	  .counter = "pps_wr_pay_m0_packet_num", .ext = "pps_wr_pay_m0_time" },
	{ .code = HNS3_PMU_PPS | 0x10, .filters = HNS3_PMU_GLOBAL_ONLY,
	  .counter = "pps_wr_pay_m1_packet_num", .ext = "pps_wr_pay_m1_time" },
	{ .code = HNS3_PMU_PPS | 0x11, .filters = HNS3_PMU_GLOBAL_ONLY,
	  .counter = "pps_intr_nicroh_tx_pre_packet_num",
	  .ext = "pps_intr_nicroh_tx_pre_time" },
	{ .code = HNS3_PMU_PPS | 0x12, .filters = HNS3_PMU_GLOBAL_ONLY,
	  .counter = "pps_intr_nicroh_rx_pre_packet_num",
	  .ext = "pps_intr_nicroh_rx_pre_time" },

	/* latency: delay cycles, and packets */
	{ .code = HNS3_PMU_DLY | 0x02, .filters = HNS3_PMU_GLOBAL_ONLY,
	  .counter = "dly_tx_push_to_mac_time", .ext = "dly_tx_push_to_mac_packet_num" },
	{ .code = HNS3_PMU_DLY | 0x04, .filters = HNS3_PMU_GLOBAL_ONLY,
	  .counter = "dly_tx_normal_to_mac_time", .ext = "dly_tx_normal_to_mac_packet_num" },
	{ .code = HNS3_PMU_DLY | 0x06, .filters = HNS3_PMU_BY_PORT,
	  .counter = "dly_ssu_tx_th_nic_time", .ext = "dly_ssu_tx_th_nic_packet_num" },
	{ .code = HNS3_PMU_DLY | 0x07, .filters = HNS3_PMU_BY_PORT,
	  .counter = "dly_ssu_tx_th_roce_time", .ext = "dly_ssu_tx_th_roce_packet_num" },
	{ .code = HNS3_PMU_DLY | 0x08, .filters = HNS3_PMU_BY_PORT,
	  .counter = "dly_ssu_rx_th_nic_time", .ext = "dly_ssu_rx_th_nic_packet_num" },
	{ .code = HNS3_PMU_DLY | 0x09, .filters = HNS3_PMU_BY_PORT,
	  .counter = "dly_ssu_rx_th_roce_time", .ext = "dly_ssu_rx_th_roce_packet_num" },
	{ .code = HNS3_PMU_DLY | 0x0e, .filters = HNS3_PMU_BY_QUEUE,
	  .counter = "dly_rpu_time", .ext = "dly_rpu_packet_num" },
	{ .code = HNS3_PMU_DLY | 0x0f, .filters = HNS3_PMU_BY_ANY,
	  .counter = "dly_tpu_time", .ext = "dly_tpu_packet_num" },
	{ .code = HNS3_PMU_DLY | 0x10, .filters = HNS3_PMU_GLOBAL_ONLY,
	  .counter = "dly_rpe_time", .ext = "dly_rpe_packet_num" },
	{ .code = HNS3_PMU_DLY | 0x11, .filters = HNS3_PMU_BY_PORT_NOT_TC,
	  .counter = "dly_tpe_normal_time", .ext = "dly_tpe_normal_packet_num" },
	{ .code = HNS3_PMU_DLY | 0x12, .filters = HNS3_PMU_BY_PORT_NOT_TC_QUEUE,
	  .counter = "dly_tpe_push_time", .ext = "dly_tpe_push_packet_num" },
	{ .code = HNS3_PMU_DLY | 0x13, .filters = HNS3_PMU_BY_PORT_NOT_TC_QUEUE,
	  .counter = "dly_wr_fbd_time", .ext = "dly_wr_fbd_packet_num" },
	{ .code = HNS3_PMU_DLY | 0x14, .filters = HNS3_PMU_BY_QUEUE,
	  .counter = "dly_wr_ebd_time", .ext = "dly_wr_ebd_packet_num" },
	{ .code = HNS3_PMU_DLY | 0x15, .filters = HNS3_PMU_GLOBAL_ONLY,
	  .counter = "dly_rd_fbd_time", .ext = "dly_rd_fbd_packet_num" },
	{ .code = HNS3_PMU_DLY | 0x16, .filters = HNS3_PMU_BY_PORT_NOT_TC_QUEUE,
	  .counter = "dly_rd_ebd_time", .ext = "dly_rd_ebd_packet_num" },
	{ .code = HNS3_PMU_DLY | 0x17, .filters = HNS3_PMU_GLOBAL_ONLY,
	  .counter = "dly_rd_pay_m0_time", .ext = "dly_rd_pay_m0_packet_num" },
	{ .code = HNS3_PMU_DLY | 0x18, .filters = HNS3_PMU_GLOBAL_ONLY,
	  .counter = "dly_rd_pay_m1_time", .ext = "dly_rd_pay_m1_packet_num" },
	{ .code = HNS3_PMU_DLY | 0x19, .filters = HNS3_PMU_GLOBAL_ONLY,
	  .counter = "dly_wr_pay_m0_time", .ext = "dly_wr_pay_m0_packet_num" },
	{ .code = HNS3_PMU_DLY | 0x1a, .filters = HNS3_PMU_GLOBAL_ONLY,
	  .counter = "dly_wr_pay_m1_time", .ext = "dly_wr_pay_m1_packet_num" },
	{ .code = HNS3_PMU_DLY | 0x1c, .filters = HNS3_PMU_GLOBAL_ONLY,
	  .counter = "dly_msix_write_time", .ext = "dly_msix_write_packet_num" },

	/* interrupt rate: interrupts, and cycles */
	{ .code = HNS3_PMU_INTR | 0x00, .filters = HNS3_PMU_GLOBAL_ONLY,
	  .counter = "pps_intr_msix_nic_intr_num", .ext = "pps_intr_msix_nic_time" },
};

#define HNS3_PMU_NR_EVENTS		(2 * ARRAY_SIZE(hns3_pmu_pairs))

/**
 * struct hns3_pmu - one HNS3 PMU
 * @upmu: the counting PMU the core drives
 * @pdev: its PCI function
 * @base: BAR 2
 * @clock_freq: the rate of the cycle counts, Hz
 * @bdf_min: the lowest BDF a function filter may name
 * @bdf_max: the highest
 * @lock: serialises the programming of slots with the queue checks, which
 *	borrow the registers of a slot that does not count
 * @busy: the slots programmed to count, under @lock
 */
struct hns3_pmu {
	struct uncore_pmu upmu;
	struct pci_dev *pdev;
	void __iomem *base;
	u32 clock_freq;
	u16 bdf_min;
	u16 bdf_max;
	raw_spinlock_t lock;
	unsigned long busy;
};

static struct hns3_pmu *to_hns3_pmu(struct pmu *pmu)
{
	return container_of(to_uncore_pmu(pmu), struct hns3_pmu, upmu);
}

static struct hns3_pmu *dev_to_hns3_pmu(struct device *dev)
{
	return to_hns3_pmu(dev_get_drvdata(dev));
}

static void __iomem *hns3_pmu_slot(struct hns3_pmu *hns3, unsigned int idx)
{
	return hns3->base + HNS3_PMU_SLOT(idx);
}

static ssize_t hns3_pmu_filtermode_show(struct device *dev,
					struct device_attribute *attr, char *buf)
{
	const struct hns3_pmu_pair *pair =
		container_of(attr, struct dev_ext_attribute, attr)->var;
	unsigned int mode;
	int len;

	len = sysfs_emit(buf, "filter mode supported: ");
	for (mode = 0; mode < HNS3_PMU_NR_MODES; mode++)
		if (pair->filters & BIT(mode))
			len += sysfs_emit_at(buf, len, "%s ",
					     hns3_pmu_mode_names[mode]);
	len += sysfs_emit_at(buf, len, "\n");
	return len;
}

/*
 * events/ and filtermode/ have an entry per half of each pair, made from
 * hns3_pmu_pairs when the module loads.
 */
static struct dev_ext_attribute hns3_pmu_event_attrs[HNS3_PMU_NR_EVENTS] __ro_after_init;
static struct dev_ext_attribute hns3_pmu_mode_attrs[HNS3_PMU_NR_EVENTS] __ro_after_init;
static struct attribute *hns3_pmu_events[HNS3_PMU_NR_EVENTS + 1] __ro_after_init;
static struct attribute *hns3_pmu_modes[HNS3_PMU_NR_EVENTS + 1] __ro_after_init;

static void __init hns3_pmu_add_event(unsigned int n, const char *name,
				      u64 config, const struct hns3_pmu_pair *pair)
{
	struct dev_ext_attribute *event = &hns3_pmu_event_attrs[n];
	struct dev_ext_attribute *mode = &hns3_pmu_mode_attrs[n];

	event->attr.attr.name = name;
	event->attr.attr.mode = 0444;
	event->attr.show = uncore_pmu_event_show;
	event->var = (void *)(unsigned long)config;
	hns3_pmu_events[n] = &event->attr.attr;

	mode->attr.attr.name = name;
	mode->attr.attr.mode = 0444;
	mode->attr.show = hns3_pmu_filtermode_show;
	mode->var = (void *)pair;
	hns3_pmu_modes[n] = &mode->attr.attr;
}

static void __init hns3_pmu_make_events(void)
{
	const struct hns3_pmu_pair *pair;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(hns3_pmu_pairs); i++) {
		pair = &hns3_pmu_pairs[i];
		hns3_pmu_add_event(2 * i, pair->counter, pair->code, pair);
		hns3_pmu_add_event(2 * i + 1, pair->ext,
				   pair->code | HNS3_PMU_CFG_EXT, pair);
	}
}

static const struct attribute_group hns3_pmu_events_group = {
	.name = "events",
	.attrs = hns3_pmu_events,
};

static const struct attribute_group hns3_pmu_filtermode_group = {
	.name = "filtermode",
	.attrs = hns3_pmu_modes,
};

static struct attribute *hns3_pmu_format_attrs[] = {
	UNCORE_PMU_FORMAT_ATTR(subevent, "config:0-7"),
	UNCORE_PMU_FORMAT_ATTR(event_type, "config:8-15"),
	UNCORE_PMU_FORMAT_ATTR(ext_counter_used, "config:16"),
	UNCORE_PMU_FORMAT_ATTR(port, "config1:0-3"),
	UNCORE_PMU_FORMAT_ATTR(tc, "config1:4-7"),
	UNCORE_PMU_FORMAT_ATTR(bdf, "config1:8-23"),
	UNCORE_PMU_FORMAT_ATTR(queue, "config1:24-39"),
	UNCORE_PMU_FORMAT_ATTR(intr, "config1:40-51"),
	UNCORE_PMU_FORMAT_ATTR(global, "config1:52"),
	NULL
};

static const struct attribute_group hns3_pmu_format_group = {
	.name = "format",
	.attrs = hns3_pmu_format_attrs,
};

static ssize_t hns3_pmu_show_bdf(char *buf, u16 bdf)
{
	return sysfs_emit(buf, "%02x:%02x.%x\n", PCI_BUS_NUM(bdf),
			  PCI_SLOT(bdf), PCI_FUNC(bdf));
}

static ssize_t bdf_min_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	return hns3_pmu_show_bdf(buf, dev_to_hns3_pmu(dev)->bdf_min);
}
static DEVICE_ATTR_RO(bdf_min);

static ssize_t bdf_max_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	return hns3_pmu_show_bdf(buf, dev_to_hns3_pmu(dev)->bdf_max);
}
static DEVICE_ATTR_RO(bdf_max);

static ssize_t hw_clk_freq_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", dev_to_hns3_pmu(dev)->clock_freq);
}
static DEVICE_ATTR_RO(hw_clk_freq);

static struct attribute *hns3_pmu_device_attrs[] = {
	&dev_attr_bdf_min.attr,
	&dev_attr_bdf_max.attr,
	&dev_attr_hw_clk_freq.attr,
	NULL
};

static const struct attribute_group hns3_pmu_device_group = {
	.attrs = hns3_pmu_device_attrs,
};

static const struct attribute_group *hns3_pmu_groups[] = {
	&hns3_pmu_events_group,
	&hns3_pmu_filtermode_group,
	&hns3_pmu_format_group,
	&uncore_pmu_common_group,
	&hns3_pmu_device_group,
	NULL
};

static const struct hns3_pmu_pair *hns3_pmu_find_pair(u16 code)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(hns3_pmu_pairs); i++)
		if (hns3_pmu_pairs[i].code == code)
			return &hns3_pmu_pairs[i];
	return NULL;
}

/* A function filter names a PCI function of the NIC: one within the range. */
static int hns3_pmu_check_function(struct hns3_pmu *hns3, u16 bdf)
{
	if (!uncore_pmu_pci_requester_in(hns3->pdev, bdf, false, hns3->bdf_min,
					 hns3->bdf_max)) {
		pci_dbg(hns3->pdev, "no PCI function at bdf %#x in %#x-%#x\n",
			bdf, hns3->bdf_min, hns3->bdf_max);
		return -EINVAL;
	}
	return 0;
}

static u32 hns3_pmu_qid_para(u16 bdf, u16 queue)
{
	return FIELD_PREP(HNS3_PMU_QID_PARA_FUNC,
			  FIELD_GET(HNS3_PMU_BDF_DEVFN, bdf)) |
	       FIELD_PREP(HNS3_PMU_QID_PARA_QUEUE, queue);
}

/*
 * Ask the hardware whether the function has the queue. The question goes
 * through the QID registers of a slot; one that counts keeps its own
 * QID_PARA, so an idle slot is used. The question is put under the lock
 * that programming takes, and the answer awaited outside it, sleeping:
 * any user allowed to open the event may ask. A slot that starts counting
 * meanwhile may have changed QID_PARA under the question, which is then
 * asked again on another idle slot.
 */
static int hns3_pmu_check_queue(struct hns3_pmu *hns3, u16 bdf, u16 queue)
{
	unsigned long tried = 0, taken, flags;
	void __iomem *slot;
	unsigned int idx;
	bool moved;
	u32 val;
	int ret;

	for (;;) {
		raw_spin_lock_irqsave(&hns3->lock, flags);
		taken = hns3->busy | tried;
		idx = find_first_zero_bit(&taken, HNS3_PMU_NUM_SLOTS);
		if (idx >= HNS3_PMU_NUM_SLOTS) {
			raw_spin_unlock_irqrestore(&hns3->lock, flags);
			pci_dbg(hns3->pdev, "no idle slot to check a queue with\n");
			return -EBUSY;
		}
		slot = hns3_pmu_slot(hns3, idx);
		writel(hns3_pmu_qid_para(bdf, queue), slot + HNS3_PMU_QID_PARA);
		writel(HNS3_PMU_QID_REQ, slot + HNS3_PMU_QID_CTRL);
		raw_spin_unlock_irqrestore(&hns3->lock, flags);

		ret = readl_poll_timeout(slot + HNS3_PMU_QID_CTRL, val,
					 val & HNS3_PMU_QID_DONE,
					 HNS3_PMU_QID_POLL_US,
					 HNS3_PMU_QID_TIMEOUT_US);

		raw_spin_lock_irqsave(&hns3->lock, flags);
		/* Withdrawing the request clears its answer for the next one. */
		writel(0, slot + HNS3_PMU_QID_CTRL);
		moved = test_bit(idx, &hns3->busy);
		raw_spin_unlock_irqrestore(&hns3->lock, flags);
		if (!moved)
			break;
		__set_bit(idx, &tried);
	}

	if (ret) {
		pci_err(hns3->pdev, "queue check got no answer\n");
		return ret;
	}
	if (val & HNS3_PMU_QID_MISS) {
		pci_dbg(hns3->pdev, "function %#x has no queue %u\n", bdf,
			queue);
		return -EINVAL;
	}
	return 0;
}

/*
 * The filter mode of @event: the first of global, function, function and
 * queue, port, and port and TC that the event takes and its fields ask
 * for, checked against the hardware; -EINVAL when none fits.
 */
static int hns3_pmu_select_mode(struct hns3_pmu *hns3,
				struct perf_event *event, unsigned int filters)
{
	u64 config1 = event->attr.config1;
	u16 queue = FIELD_GET(HNS3_PMU_CFG1_QUEUE, config1);
	u16 bdf = FIELD_GET(HNS3_PMU_CFG1_BDF, config1);
	u8 tc = FIELD_GET(HNS3_PMU_CFG1_TC, config1);
	int ret;

	if (filters & HNS3_PMU_F(GLOBAL) && config1 & HNS3_PMU_CFG1_GLOBAL)
		return HNS3_PMU_MODE_GLOBAL;

	if (filters & HNS3_PMU_F(FUNC) && bdf && queue == HNS3_PMU_ALL_QUEUES) {
		ret = hns3_pmu_check_function(hns3, bdf);
		return ret ?: HNS3_PMU_MODE_FUNC;
	}

	if (filters & HNS3_PMU_F(FUNC_QUEUE) && bdf &&
	    queue != HNS3_PMU_ALL_QUEUES) {
		ret = hns3_pmu_check_function(hns3, bdf);
		if (!ret)
			ret = hns3_pmu_check_queue(hns3, bdf, queue);
		return ret ?: HNS3_PMU_MODE_FUNC_QUEUE;
	}

	if (filters & HNS3_PMU_F(PORT) && tc == HNS3_PMU_ALL_TCS)
		return HNS3_PMU_MODE_PORT;

	if (filters & HNS3_PMU_F(PORT_TC) && tc != HNS3_PMU_ALL_TCS)
		return HNS3_PMU_MODE_PORT_TC;

	pci_dbg(hns3->pdev, "config1 %#llx selects no filter of event %#llx\n",
		config1, event->attr.config);
	return -EINVAL;
}

/* What EVENT_CTRL_HIGH holds for the filter @mode of @event */
static u32 hns3_pmu_condition(struct perf_event *event,
			      enum hns3_pmu_mode mode)
{
	u64 config1 = event->attr.config1;
	u8 port = FIELD_GET(HNS3_PMU_CFG1_PORT, config1);
	u8 tc = FIELD_GET(HNS3_PMU_CFG1_TC, config1);

	switch (mode) {
	case HNS3_PMU_MODE_PORT:
		/* A bitmap of the eight MAC ports: ports 8..15 select none. */
		return BIT(port) & GENMASK(7, 0);
	case HNS3_PMU_MODE_PORT_TC:
		return port << 3 | (tc & GENMASK(2, 0));
	case HNS3_PMU_MODE_FUNC:
	case HNS3_PMU_MODE_FUNC_QUEUE:
		return FIELD_GET(HNS3_PMU_BDF_DEVFN,
				 FIELD_GET(HNS3_PMU_CFG1_BDF, config1));
	default:
		return 0;
	}
}

static enum hns3_pmu_mode hns3_pmu_event_mode(struct perf_event *event)
{
	return FIELD_GET(HNS3_PMU_CTRL_MODE, event->hw.config);
}

static u32 hns3_pmu_event_qid_para(struct perf_event *event)
{
	u64 config1 = event->attr.config1;

	return hns3_pmu_qid_para(FIELD_GET(HNS3_PMU_CFG1_BDF, config1),
				 FIELD_GET(HNS3_PMU_CFG1_QUEUE, config1));
}

/*
 * hw.config: EVENT_CTRL_LOW but the enable bit; hw.config_base:
 * EVENT_CTRL_HIGH; hw.event_base: the counter the event reads.
 */
static int hns3_pmu_event_init(struct perf_event *event)
{
	struct hns3_pmu *hns3 = to_hns3_pmu(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	const struct hns3_pmu_pair *pair;
	u16 code;
	int mode;

	code = FIELD_GET(HNS3_PMU_CFG_CODE, event->attr.config);
	pair = hns3_pmu_find_pair(code);
	if (!pair) {
		pci_dbg(hns3->pdev, "no event %#x\n", code);
		return -ENOENT;
	}

	mode = hns3_pmu_select_mode(hns3, event, pair->filters);
	if (mode < 0)
		return mode;

	hwc->config = FIELD_PREP(HNS3_PMU_CTRL_TYPE,
				 FIELD_GET(HNS3_PMU_CFG_TYPE, code)) |
		      FIELD_PREP(HNS3_PMU_CTRL_SUBEVENT,
				 FIELD_GET(HNS3_PMU_CFG_SUBEVENT, code)) |
		      FIELD_PREP(HNS3_PMU_CTRL_MODE, mode) |
		      HNS3_PMU_CTRL_RESTART;
	hwc->config_base = hns3_pmu_condition(event, mode);
	hwc->event_base = event->attr.config & HNS3_PMU_CFG_EXT ?
			  HNS3_PMU_EXT_COUNTER : HNS3_PMU_COUNTER;
	return 0;
}

/*
 * Events that program a slot alike count the same: one may read the
 * counter and the other the extended counter of one slot. Equal keys mean
 * equal EVENT_CTRL_LOW, and equal EVENT_CTRL_HIGH, or QID_PARA (which has
 * the function too) in the function and queue mode.
 */
static u64 hns3_pmu_share_key(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u32 filter = hwc->config_base;

	if (hns3_pmu_event_mode(event) == HNS3_PMU_MODE_FUNC_QUEUE)
		filter = hns3_pmu_event_qid_para(event);
	return (u64)filter << 32 | lower_32_bits(hwc->config);
}

static void hns3_pmu_start_counter(struct uncore_pmu *upmu,
				   struct perf_event *event)
{
	struct hns3_pmu *hns3 = container_of(upmu, struct hns3_pmu, upmu);
	struct hw_perf_event *hwc = &event->hw;
	void __iomem *slot = hns3_pmu_slot(hns3, hwc->idx);
	unsigned long flags;
	u32 mask;

	raw_spin_lock_irqsave(&hns3->lock, flags);
	__set_bit(hwc->idx, &hns3->busy);
	/* Pulse STATUS_RESET: a stale overflow must not fire once unmasked. */
	writel(hwc->config | HNS3_PMU_CTRL_STATUS_RESET,
	       slot + HNS3_PMU_CTRL_LOW);
	writel(hwc->config, slot + HNS3_PMU_CTRL_LOW);
	writel(hwc->config_base, slot + HNS3_PMU_CTRL_HIGH);
	if (hns3_pmu_event_mode(event) == HNS3_PMU_MODE_FUNC_QUEUE)
		writel(hns3_pmu_event_qid_para(event),
		       slot + HNS3_PMU_QID_PARA);
	writeq(0, slot + HNS3_PMU_COUNTER);
	writeq(0, slot + HNS3_PMU_EXT_COUNTER);
	mask = readl(slot + HNS3_PMU_INTR_MASK);
	writel(mask & ~HNS3_PMU_INTR_MASK_OVERFLOW, slot + HNS3_PMU_INTR_MASK);
	writel(hwc->config | HNS3_PMU_CTRL_EN, slot + HNS3_PMU_CTRL_LOW);
	raw_spin_unlock_irqrestore(&hns3->lock, flags);
}

static void hns3_pmu_stop_counter(struct uncore_pmu *upmu,
				  struct perf_event *event)
{
	struct hns3_pmu *hns3 = container_of(upmu, struct hns3_pmu, upmu);
	struct hw_perf_event *hwc = &event->hw;
	void __iomem *slot = hns3_pmu_slot(hns3, hwc->idx);
	unsigned long flags;
	u32 mask;

	raw_spin_lock_irqsave(&hns3->lock, flags);
	writel(hwc->config, slot + HNS3_PMU_CTRL_LOW);
	mask = readl(slot + HNS3_PMU_INTR_MASK);
	writel(mask | HNS3_PMU_INTR_MASK_OVERFLOW, slot + HNS3_PMU_INTR_MASK);
	__clear_bit(hwc->idx, &hns3->busy);
	raw_spin_unlock_irqrestore(&hns3->lock, flags);
}

static u64 hns3_pmu_read_counter(struct uncore_pmu *upmu,
				 struct perf_event *event)
{
	struct hns3_pmu *hns3 = container_of(upmu, struct hns3_pmu, upmu);

	return readq(hns3_pmu_slot(hns3, event->hw.idx) + event->hw.event_base);
}

/*
 * A slot whose counter wrapped raises the interrupt until its status is
 * cleared by a pulse of STATUS_RESET. The counter itself goes on from 0,
 * so the core only has to take the count up to the wrap.
 */
static unsigned long hns3_pmu_overflow_status(struct uncore_pmu *upmu)
{
	struct hns3_pmu *hns3 = container_of(upmu, struct hns3_pmu, upmu);
	unsigned long status = 0;
	unsigned int idx;

	for (idx = 0; idx < HNS3_PMU_NUM_SLOTS; idx++)
		if (readl(hns3_pmu_slot(hns3, idx) + HNS3_PMU_INTR_STATUS))
			__set_bit(idx, &status);
	return status;
}

static void hns3_pmu_clear_overflow(struct uncore_pmu *upmu,
				    unsigned long status)
{
	struct hns3_pmu *hns3 = container_of(upmu, struct hns3_pmu, upmu);
	void __iomem *slot;
	unsigned int idx;
	u32 ctrl;

	/* Every writer of CTRL_LOW holds the lock. */
	raw_spin_lock(&hns3->lock);
	for_each_set_bit(idx, &status, HNS3_PMU_NUM_SLOTS) {
		slot = hns3_pmu_slot(hns3, idx);
		ctrl = readl(slot + HNS3_PMU_CTRL_LOW);
		writel(ctrl | HNS3_PMU_CTRL_STATUS_RESET,
		       slot + HNS3_PMU_CTRL_LOW);
		writel(ctrl & ~HNS3_PMU_CTRL_STATUS_RESET,
		       slot + HNS3_PMU_CTRL_LOW);
	}
	raw_spin_unlock(&hns3->lock);
}

static void hns3_pmu_enable(struct uncore_pmu *upmu)
{
	struct hns3_pmu *hns3 = container_of(upmu, struct hns3_pmu, upmu);
	u32 val = readl(hns3->base + HNS3_PMU_GLOBAL_CTRL);

	writel(val | HNS3_PMU_GLOBAL_START, hns3->base + HNS3_PMU_GLOBAL_CTRL);
}

static void hns3_pmu_disable(struct uncore_pmu *upmu)
{
	struct hns3_pmu *hns3 = container_of(upmu, struct hns3_pmu, upmu);
	u32 val = readl(hns3->base + HNS3_PMU_GLOBAL_CTRL);

	writel(val & ~HNS3_PMU_GLOBAL_START, hns3->base + HNS3_PMU_GLOBAL_CTRL);
}

/*
 * Whoever had the PMU before (a driver that went away without cleaning up,
 * a kexec'd kernel) may have left slots counting with their interrupt
 * unmasked.
 */
static void hns3_pmu_quiesce(struct uncore_pmu *upmu)
{
	struct hns3_pmu *hns3 = container_of(upmu, struct hns3_pmu, upmu);
	void __iomem *slot;
	unsigned int idx;

	writel(0, hns3->base + HNS3_PMU_GLOBAL_CTRL);
	for (idx = 0; idx < HNS3_PMU_NUM_SLOTS; idx++) {
		slot = hns3_pmu_slot(hns3, idx);
		writel(HNS3_PMU_INTR_MASK_OVERFLOW, slot + HNS3_PMU_INTR_MASK);
		writel(HNS3_PMU_CTRL_STATUS_RESET, slot + HNS3_PMU_CTRL_LOW);
		writel(0, slot + HNS3_PMU_CTRL_LOW);
	}
}

static const struct uncore_pmu_ops hns3_pmu_ops = {
	.event_init	= hns3_pmu_event_init,
	.share_key	= hns3_pmu_share_key,
	.start_counter	= hns3_pmu_start_counter,
	.stop_counter	= hns3_pmu_stop_counter,
	.read_counter	= hns3_pmu_read_counter,
	.overflow_status = hns3_pmu_overflow_status,
	.clear_overflow	= hns3_pmu_clear_overflow,
	.enable		= hns3_pmu_enable,
	.disable	= hns3_pmu_disable,
	.quiesce	= hns3_pmu_quiesce,
};

static int hns3_pmu_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct device *dev = &pdev->dev;
	struct hns3_pmu *hns3;
	u16 sicl;
	u32 val;
	int ret;

	hns3 = devm_kzalloc(dev, sizeof(*hns3), GFP_KERNEL);
	if (!hns3)
		return -ENOMEM;
	hns3->pdev = pdev;
	raw_spin_lock_init(&hns3->lock);

	hns3->base = uncore_pmu_pci_map(pdev, HNS3_PMU_BAR, HNS3_PMU_BAR_SIZE);
	if (IS_ERR(hns3->base))
		return PTR_ERR(hns3->base);

	hns3->clock_freq = readl(hns3->base + HNS3_PMU_CLOCK_FREQ);
	val = readl(hns3->base + HNS3_PMU_BDF);
	hns3->bdf_min = FIELD_GET(HNS3_PMU_BDF_MIN, val);
	hns3->bdf_max = FIELD_GET(HNS3_PMU_BDF_MAX, val);
	sicl = FIELD_GET(HNS3_PMU_DEVICE_ID_SICL,
			 readl(hns3->base + HNS3_PMU_DEVICE_ID));
	hns3->upmu.name = devm_kasprintf(dev, GFP_KERNEL, "hns3_pmu_sicl_%u",
					 sicl);
	if (!hns3->upmu.name)
		return -ENOMEM;

	hns3->upmu.ops = &hns3_pmu_ops;
	hns3->upmu.dev = dev;
	hns3->upmu.node = dev_to_node(dev);
	hns3->upmu.identifier = readl(hns3->base + HNS3_PMU_VERSION);
	hns3->upmu.num_counters = HNS3_PMU_NUM_SLOTS;
	hns3->upmu.pmu.attr_groups = hns3_pmu_groups;

	ret = uncore_pmu_pci_request_irq(&hns3->upmu, pdev, hns3->upmu.name);
	if (ret)
		return ret;

	ret = uncore_pmu_register(&hns3->upmu);
	if (ret)
		return dev_err_probe(dev, ret, "cannot register PMU %s\n",
				     hns3->upmu.name);
	pci_set_drvdata(pdev, hns3);
	return 0;
}

static void hns3_pmu_remove(struct pci_dev *pdev)
{
	struct hns3_pmu *hns3 = pci_get_drvdata(pdev);

	uncore_pmu_unregister(&hns3->upmu);
}

static const struct pci_device_id hns3_pmu_ids[] = {
	{ PCI_DEVICE(PCI_VENDOR_ID_HUAWEI, HNS3_PMU_PCI_DEVICE_ID) },
	{ }
};
MODULE_DEVICE_TABLE(pci, hns3_pmu_ids);

static struct pci_driver hns3_pmu_driver = {
	.name		= "hns3_pmu",
	.id_table	= hns3_pmu_ids,
	.probe		= hns3_pmu_probe,
	.remove		= hns3_pmu_remove,
};

static int __init hns3_pmu_init(void)
{
	hns3_pmu_make_events();
	return pci_register_driver(&hns3_pmu_driver);
}
module_init(hns3_pmu_init);

static void __exit hns3_pmu_exit(void)
{
	pci_unregister_driver(&hns3_pmu_driver);
}
module_exit(hns3_pmu_exit);

MODULE_DESCRIPTION("HiSilicon HNS3 PMU driver");
MODULE_AUTHOR("hisi-uncore-emu developers");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(UNCORE_PMU_NS);
