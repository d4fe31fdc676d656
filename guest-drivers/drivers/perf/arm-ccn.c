// SPDX-License-Identifier: GPL-2.0
/*
 * Perf driver for the PMU of the ARM CCN-502/504/512 Cache Coherent Network.
 *
 * The interconnect is a ring of crosspoints (XPs), each with two device
 * ports; device node n sits on XP n / 2, port n % 2. A Debug and Trace block
 * (DT) holds eight 32-bit event counters and a 40-bit cycle counter. Each
 * event counter counts what one XP puts on the DT bus for it: a flit that
 * matches one of the XP's two watchpoints, one of its four event sources,
 * or one of the four event sources of a device node on one of its ports.
 * Events of the MN, HN-I and SBSX are defined as watchpoints on the XP port
 * of the node.
 *
 * The counters run freely and are never written. Each wrap sets the
 * counter's bit in the overflow status and interrupts through the
 * Miscellaneous Node (MN); the driver counts the wraps and shows the core
 * 64-bit counters, so a count stays exact however late the interrupt
 * comes after the wrap (as long as the counter has not come halfway
 * round again).
 */

#include <linux/bitfield.h>
#include <linux/bitmap.h>
#include <linux/bits.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/hex.h>
#include <linux/idr.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/iopoll.h>
#include <linux/kstrtox.h>
#include <linux/minmax.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/platform_device.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "uncore_pmu.h"

#define CCN_REGION_SIZE			0x10000
#define CCN_NUM_REGIONS			256
#define CCN_MN_REGION			0
#define CCN_DT_REGION			1

/* Present in every region: what the region holds */
#define CCN_OLY_ID			0xff00
#define CCN_OLY_ID_TYPE			GENMASK(4, 0)
#define CCN_OLY_ID_NODE			GENMASK(13, 8)

/* MN registers */
#define CCN_MN_ERRINT_STATUS		0x0008
/*
 * ERRINT_STATUS takes commands: each bit of the low nibble selects a field
 * and the bit four places up gives its new value.
 */
#define CCN_ERRINT_INTREQ_DEASSERT	0x11
#define CCN_ERRINT_ALL_ERRORS_DISABLE	0x22
#define CCN_ERRINT_PMU_EVENTS_ENABLE	0x08
#define CCN_ERRINT_PMU_EVENTS_DISABLE	0x88
#define CCN_ERRINT_PMU_EVENTS_DISABLED	BIT(7)
#define CCN_MN_OLY_COMP_LIST		0x01e0
#define CCN_MN_ERR_SIG_VAL		0x0300
#define CCN_MN_ERR_SIG_WORDS		6
#define CCN_ERR_SIG_DT			BIT(1)

/* DT registers */
#define CCN_DT_ACTIVE_DSM(idx)		(((idx) / 4) * 4)
#define CCN_DT_DSM_SHIFT(idx)		(((idx) % 4) * 8)
#define CCN_DT_DSM_MASK			GENMASK(7, 0)
#define CCN_DT_CTL			0x0028
#define CCN_DT_CTL_DT_EN		BIT(0)
#define CCN_DT_PMEVCNT(idx)		(0x0100 + (idx) * 8)
#define CCN_DT_PMCCNTR			0x0140
#define CCN_DT_PMCCNTRSR		0x0190
#define CCN_DT_PMOVSR			0x0198
#define CCN_DT_PMOVSR_CLR		0x01a0
#define CCN_DT_PMCR			0x01a8
#define CCN_DT_PMCR_PMU_EN		BIT(0)
#define CCN_DT_PMCR_OVFL_INTR_EN	BIT(6)
#define CCN_DT_PMSR			0x01b0
#define CCN_DT_PMSR_READY		BIT(0)
#define CCN_DT_PMSR_REQ			0x01b8
#define CCN_DT_PMSR_CLR			0x01c0

/* XP registers */
#define CCN_XP_DT_CONFIG		0x0300
#define CCN_XP_DT_CFG_SHIFT(idx)	((idx) * 4)
#define CCN_XP_DT_CFG_MASK		GENMASK(3, 0)
#define CCN_DT_CFG_PASS_THROUGH		0x0
#define CCN_DT_CFG_WATCHPOINT(wp)	(0x2 + (wp))
#define CCN_DT_CFG_XP_EVENT(src)	(0x4 + (src))
#define CCN_DT_CFG_PORT_EVENT(port, src) (0x8 + (port) * 4 + (src))
#define CCN_XP_DT_INTERFACE_SEL		0x0308
#define CCN_IF_SEL_SHIFT(wp)		((wp) * 8)
#define CCN_IF_SEL_DIR			BIT(0)
#define CCN_IF_SEL_PORT			BIT(1)
#define CCN_IF_SEL_VC			GENMASK(3, 2)
#define CCN_IF_SEL_MASK			GENMASK(3, 0)
#define CCN_XP_DT_CMP_VAL_L(wp)		(0x0310 + (wp) * 0x40)
#define CCN_XP_DT_CMP_VAL_H(wp)		(0x0318 + (wp) * 0x40)
#define CCN_XP_DT_CMP_MASK_L(wp)	(0x0320 + (wp) * 0x40)
#define CCN_XP_DT_CMP_MASK_H(wp)	(0x0328 + (wp) * 0x40)
#define CCN_CMP_L_BITS			GENMASK_ULL(62, 0)
#define CCN_CMP_H_BITS			GENMASK_ULL(59, 0)
#define CCN_XP_DT_CONTROL		0x0370
#define CCN_XP_DT_CONTROL_DT_ENABLE	BIT(0)
#define CCN_XP_DT_CONTROL_ARM_ALWAYS(wp) (GENMASK(3, 0) << (12 + (wp) * 4))
#define CCN_XP_PMU_EVENT_SEL		0x0600
#define CCN_XP_EVENT_SEL_SHIFT(src)	((src) * 7)
#define CCN_XP_EVENT_SEL_MASK		GENMASK(5, 0)
#define CCN_XP_EVENT_ID_EVENT		GENMASK(2, 0)
#define CCN_XP_EVENT_ID_BUS		BIT(3)
#define CCN_XP_EVENT_ID_VC		GENMASK(5, 4)

/* HN-F, RN-I/RN-D and SBAS registers */
#define CCN_NODE_PMU_EVENT_SEL		0x0600
#define CCN_NODE_EVENT_SEL_SHIFT(src)	((src) * 4)
#define CCN_NODE_EVENT_SEL_MASK		GENMASK(3, 0)

/* Region types */
#define CCN_TYPE_MN			0x01
#define CCN_TYPE_DT			0x02
#define CCN_TYPE_HNF			0x04
#define CCN_TYPE_HNI			0x05
#define CCN_TYPE_XP			0x08
#define CCN_TYPE_SBSX			0x0c
#define CCN_TYPE_SBAS			0x10
#define CCN_TYPE_RNI_1P			0x14
#define CCN_TYPE_RNI_3P			0x16
#define CCN_TYPE_RND_1P			0x18
#define CCN_TYPE_RND_3P			0x1a
/* Not a region: the type of the cycle counter's event */
#define CCN_TYPE_CYCLES			0xff

/* Not a hardware event code: the event is a watchpoint match */
#define CCN_EVENT_WATCHPOINT		0xfe

#define CCN_NUM_PORTS			2
#define CCN_NUM_VCS			4
#define CCN_NUM_WATCHPOINTS		2
#define CCN_NUM_EVENT_SOURCES		4
#define CCN_NUM_EVENT_COUNTERS		8
#define CCN_CYCLE_COUNTER		CCN_NUM_EVENT_COUNTERS
#define CCN_NUM_COUNTERS		(CCN_NUM_EVENT_COUNTERS + 1)
#define CCN_EVENT_COUNTER_BITS		32
#define CCN_CYCLE_COUNTER_BITS		40

/*
 * Watchpoint comparator masks (a set bit: "don't care"): the first eight
 * are the user's, in cmp_mask/, the last four are fixed.
 */
#define CCN_MASK_ANY			8
#define CCN_MASK_EXACT			9
#define CCN_MASK_ORDER			10
#define CCN_MASK_OPCODE			11
#define CCN_NUM_MASKS			12
#define CCN_FLIT_H_ORDER		BIT_ULL(15)
#define CCN_FLIT_H_OPCODE		GENMASK_ULL(13, 9)

/* perf_event_attr::config; keep in step with the format/ entries */
#define CCN_CFG_NODE			GENMASK_ULL(7, 0)	/* or xp */
#define CCN_CFG_TYPE			GENMASK_ULL(15, 8)
#define CCN_CFG_EVENT			GENMASK_ULL(23, 16)
#define CCN_CFG_PORT			GENMASK_ULL(25, 24)	/* or bus */
#define CCN_CFG_VC			GENMASK_ULL(28, 26)
#define CCN_CFG_DIR			BIT_ULL(29)
#define CCN_CFG_MASK			GENMASK_ULL(33, 30)

/**
 * struct ccn_component - an XP or a device node
 * @base: its region
 * @type: its region type
 * @sources: event sources taken by events
 * @watchpoints: watchpoints taken by events (XPs only)
 */
struct ccn_component {
	void __iomem *base;
	u32 type;
	DECLARE_BITMAP(sources, CCN_NUM_EVENT_SOURCES);
	DECLARE_BITMAP(watchpoints, CCN_NUM_WATCHPOINTS);
};

/**
 * struct arm_ccn - one CCN and its PMU
 * @upmu: the counting PMU
 * @mn: the MN's region (region 0, the start of the device)
 * @dt: the DT's region
 * @nodes: the device nodes by node id; holes have type 0
 * @num_nodes: the highest device node id plus one
 * @xps: the crosspoints by XP id
 * @num_xps: the number of crosspoints
 * @mn_id: the node id of the MN
 * @sbas_present: an SBAS node exists
 * @sbsx_present: an SBSX node exists
 * @cmp_mask: the watchpoint comparator masks, low and high half
 * @wraps: the wraps of each counter the interrupt handler has taken
 * @id: the instance number in the PMU name
 */
struct arm_ccn {
	struct uncore_pmu upmu;
	void __iomem *mn;
	void __iomem *dt;
	struct ccn_component *nodes;
	unsigned int num_nodes;
	struct ccn_component *xps;
	unsigned int num_xps;
	unsigned int mn_id;
	bool sbas_present;
	bool sbsx_present;
	u64 cmp_mask[CCN_NUM_MASKS][2];
	u64 wraps[CCN_NUM_COUNTERS];
	int id;
};

static DEFINE_IDA(ccn_ida);

static struct arm_ccn *pmu_to_ccn(struct pmu *pmu)
{
	return container_of(to_uncore_pmu(pmu), struct arm_ccn, upmu);
}

static struct arm_ccn *dev_to_ccn(struct device *dev)
{
	return pmu_to_ccn(dev_get_drvdata(dev));
}

static void ccn_update_bits(void __iomem *reg, u32 mask, u32 val)
{
	writel((readl(reg) & ~mask) | (val & mask), reg);
}

/* The 64-bit comparator registers take two 32-bit writes, low word first */
static void ccn_write_cmp(void __iomem *reg, u64 val)
{
	writel(lower_32_bits(val), reg);
	writel(upper_32_bits(val), reg + 4);
}

/* RN-I and RN-D nodes of any port count share one set of events. */
static bool ccn_type_is_rni(u32 type)
{
	return (type >= CCN_TYPE_RNI_1P && type <= CCN_TYPE_RNI_3P) ||
	       (type >= CCN_TYPE_RND_1P && type <= CCN_TYPE_RND_3P);
}

static bool ccn_type_match(u32 a, u32 b)
{
	return a == b || (ccn_type_is_rni(a) && ccn_type_is_rni(b));
}

/* sysfs: events/ */

/**
 * struct ccn_event - an events/ entry
 * @attr: the sysfs attribute
 * @type: the node type the event belongs to
 * @event: the event code; 0 for the cycle counter
 * @terms: terms the event fixes, besides type and event
 * @mask: the comparator mask a watchpoint event uses; 0 for none
 */
struct ccn_event {
	struct device_attribute attr;
	u32 type;
	u32 event;
	const char *terms;
	u32 mask;
};

/* Events counted on the ring take a port (or bus) and a virtual channel. */
static bool ccn_event_on_ring(const struct ccn_event *e)
{
	return e->type == CCN_TYPE_XP || e->event == CCN_EVENT_WATCHPOINT;
}

static ssize_t ccn_event_show(struct device *dev, struct device_attribute *attr,
			      char *buf)
{
	const struct ccn_event *e = container_of(attr, struct ccn_event, attr);
	struct arm_ccn *ccn = dev_to_ccn(dev);
	int len;

	len = sysfs_emit(buf, "type=0x%x", e->type);
	if (e->event)
		len += sysfs_emit_at(buf, len, ",event=0x%x", e->event);
	if (e->terms)
		len += sysfs_emit_at(buf, len, ",%s", e->terms);
	if (e->mask)
		len += sysfs_emit_at(buf, len, ",mask=0x%x", e->mask);

	/* What the user still has to give ("?"), or the MN's own node id */
	switch (e->type) {
	case CCN_TYPE_CYCLES:
		break;
	case CCN_TYPE_XP:
		if (e->event == CCN_EVENT_WATCHPOINT)
			len += sysfs_emit_at(buf, len,
					     ",xp=?,vc=?,port=?,dir=?,cmp_l=?,cmp_h=?,mask=?");
		else
			len += sysfs_emit_at(buf, len, ",xp=?,vc=?,bus=?");
		break;
	case CCN_TYPE_MN:
		len += sysfs_emit_at(buf, len, ",node=%u", ccn->mn_id);
		break;
	default:
		len += sysfs_emit_at(buf, len, ",node=?");
		break;
	}
	return len + sysfs_emit_at(buf, len, "\n");
}

#define CCN_EVENT(_name, ...)						\
	{								\
		.attr = __ATTR(_name, 0444, ccn_event_show, NULL),	\
		__VA_ARGS__						\
	}

static struct ccn_event ccn_events[] = {
	/* MN: barriers and DVM operations it sends */
	CCN_EVENT(mn_eobarrier, .type = CCN_TYPE_MN,
		  .event = CCN_EVENT_WATCHPOINT,
		  .terms = "dir=1,vc=0,cmp_h=0x1c00",
		  .mask = CCN_MASK_OPCODE),
	CCN_EVENT(mn_ecbarrier, .type = CCN_TYPE_MN,
		  .event = CCN_EVENT_WATCHPOINT,
		  .terms = "dir=1,vc=0,cmp_h=0x1e00",
		  .mask = CCN_MASK_OPCODE),
	CCN_EVENT(mn_dvmop, .type = CCN_TYPE_MN,
		  .event = CCN_EVENT_WATCHPOINT,
		  .terms = "dir=1,vc=0,cmp_h=0x2800",
		  .mask = CCN_MASK_OPCODE),

	/* HN-I: flits on its XP port */
	CCN_EVENT(hni_txdatflits, .type = CCN_TYPE_HNI,
		  .event = CCN_EVENT_WATCHPOINT,
		  .terms = "dir=1,vc=3", .mask = CCN_MASK_ANY),
	CCN_EVENT(hni_rxdatflits, .type = CCN_TYPE_HNI,
		  .event = CCN_EVENT_WATCHPOINT,
		  .terms = "dir=0,vc=3", .mask = CCN_MASK_ANY),
	CCN_EVENT(hni_txreqflits, .type = CCN_TYPE_HNI,
		  .event = CCN_EVENT_WATCHPOINT,
		  .terms = "dir=1,vc=0", .mask = CCN_MASK_ANY),
	CCN_EVENT(hni_rxreqflits, .type = CCN_TYPE_HNI,
		  .event = CCN_EVENT_WATCHPOINT,
		  .terms = "dir=0,vc=0", .mask = CCN_MASK_ANY),
	CCN_EVENT(hni_rxreqflits_order, .type = CCN_TYPE_HNI,
		  .event = CCN_EVENT_WATCHPOINT,
		  .terms = "dir=0,vc=0,cmp_h=0x8000", .mask = CCN_MASK_ORDER),

	/* SBSX: flits on its XP port */
	CCN_EVENT(sbsx_txdatflits, .type = CCN_TYPE_SBSX,
		  .event = CCN_EVENT_WATCHPOINT,
		  .terms = "dir=1,vc=3", .mask = CCN_MASK_ANY),
	CCN_EVENT(sbsx_rxdatflits, .type = CCN_TYPE_SBSX,
		  .event = CCN_EVENT_WATCHPOINT,
		  .terms = "dir=0,vc=3", .mask = CCN_MASK_ANY),
	CCN_EVENT(sbsx_txreqflits, .type = CCN_TYPE_SBSX,
		  .event = CCN_EVENT_WATCHPOINT,
		  .terms = "dir=1,vc=0", .mask = CCN_MASK_ANY),
	CCN_EVENT(sbsx_rxreqflits, .type = CCN_TYPE_SBSX,
		  .event = CCN_EVENT_WATCHPOINT,
		  .terms = "dir=0,vc=0", .mask = CCN_MASK_ANY),
	CCN_EVENT(sbsx_rxreqflits_order, .type = CCN_TYPE_SBSX,
		  .event = CCN_EVENT_WATCHPOINT,
		  .terms = "dir=0,vc=0,cmp_h=0x8000", .mask = CCN_MASK_ORDER),

	/* HN-F: its own event sources */
	CCN_EVENT(hnf_cache_miss, .type = CCN_TYPE_HNF, .event = 0x01),
	CCN_EVENT(hnf_l3_sf_cache_access, .type = CCN_TYPE_HNF, .event = 0x02),
	CCN_EVENT(hnf_cache_fill, .type = CCN_TYPE_HNF, .event = 0x03),
	CCN_EVENT(hnf_pocq_retry, .type = CCN_TYPE_HNF, .event = 0x04),
	CCN_EVENT(hnf_pocq_reqs_recvd, .type = CCN_TYPE_HNF, .event = 0x05),
	CCN_EVENT(hnf_sf_hit, .type = CCN_TYPE_HNF, .event = 0x06),
	CCN_EVENT(hnf_sf_evictions, .type = CCN_TYPE_HNF, .event = 0x07),
	CCN_EVENT(hnf_snoops_sent, .type = CCN_TYPE_HNF, .event = 0x08),
	CCN_EVENT(hnf_snoops_broadcast, .type = CCN_TYPE_HNF, .event = 0x09),
	CCN_EVENT(hnf_l3_eviction, .type = CCN_TYPE_HNF, .event = 0x0a),
	CCN_EVENT(hnf_l3_fill_invalid_way, .type = CCN_TYPE_HNF, .event = 0x0b),
	CCN_EVENT(hnf_mc_retries, .type = CCN_TYPE_HNF, .event = 0x0c),
	CCN_EVENT(hnf_mc_reqs, .type = CCN_TYPE_HNF, .event = 0x0d),
	CCN_EVENT(hnf_qos_hh_retry, .type = CCN_TYPE_HNF, .event = 0x0e),

	/* RN-I and RN-D: shown with the RN-I 3P type, valid for all */
	CCN_EVENT(rni_rdata_beats_p0, .type = CCN_TYPE_RNI_3P, .event = 0x01),
	CCN_EVENT(rni_rdata_beats_p1, .type = CCN_TYPE_RNI_3P, .event = 0x02),
	CCN_EVENT(rni_rdata_beats_p2, .type = CCN_TYPE_RNI_3P, .event = 0x03),
	CCN_EVENT(rni_rxdat_flits, .type = CCN_TYPE_RNI_3P, .event = 0x04),
	CCN_EVENT(rni_txdat_flits, .type = CCN_TYPE_RNI_3P, .event = 0x05),
	CCN_EVENT(rni_txreq_flits, .type = CCN_TYPE_RNI_3P, .event = 0x06),
	CCN_EVENT(rni_txreq_flits_retried, .type = CCN_TYPE_RNI_3P,
		  .event = 0x07),
	CCN_EVENT(rni_rrt_full, .type = CCN_TYPE_RNI_3P, .event = 0x08),
	CCN_EVENT(rni_wrt_full, .type = CCN_TYPE_RNI_3P, .event = 0x09),
	CCN_EVENT(rni_txreq_flits_replayed, .type = CCN_TYPE_RNI_3P,
		  .event = 0x0a),

	/* XP: its event sources and watchpoints, on a bus or port of choice */
	CCN_EVENT(xp_upload_starvation, .type = CCN_TYPE_XP, .event = 0x01),
	CCN_EVENT(xp_download_starvation, .type = CCN_TYPE_XP, .event = 0x02),
	CCN_EVENT(xp_respin, .type = CCN_TYPE_XP, .event = 0x03),
	CCN_EVENT(xp_valid_flit, .type = CCN_TYPE_XP, .event = 0x04),
	CCN_EVENT(xp_watchpoint, .type = CCN_TYPE_XP,
		  .event = CCN_EVENT_WATCHPOINT),

	/* SBAS: its own event sources */
	CCN_EVENT(sbas_rdata_beats_p0, .type = CCN_TYPE_SBAS, .event = 0x01),
	CCN_EVENT(sbas_rxdat_flits, .type = CCN_TYPE_SBAS, .event = 0x04),
	CCN_EVENT(sbas_txdat_flits, .type = CCN_TYPE_SBAS, .event = 0x05),
	CCN_EVENT(sbas_txreq_flits, .type = CCN_TYPE_SBAS, .event = 0x06),
	CCN_EVENT(sbas_txreq_flits_retried, .type = CCN_TYPE_SBAS,
		  .event = 0x07),
	CCN_EVENT(sbas_rrt_full, .type = CCN_TYPE_SBAS, .event = 0x08),
	CCN_EVENT(sbas_wrt_full, .type = CCN_TYPE_SBAS, .event = 0x09),
	CCN_EVENT(sbas_txreq_flits_replayed, .type = CCN_TYPE_SBAS,
		  .event = 0x0a),

	CCN_EVENT(cycles, .type = CCN_TYPE_CYCLES),
};

/* Filled from ccn_events[] when the module loads */
static struct attribute *ccn_event_attrs[ARRAY_SIZE(ccn_events) + 1];

static const struct ccn_event *ccn_find_event(u32 type, u32 code)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ccn_events); i++)
		if (ccn_type_match(ccn_events[i].type, type) &&
		    ccn_events[i].event == code)
			return &ccn_events[i];
	return NULL;
}

/* Events of the SBAS and SBSX are listed only where such a node exists. */
static umode_t ccn_event_is_visible(struct kobject *kobj,
				    struct attribute *attr, int n)
{
	struct arm_ccn *ccn = dev_to_ccn(kobj_to_dev(kobj));
	u32 type = ccn_events[n].type;

	if ((type == CCN_TYPE_SBAS && !ccn->sbas_present) ||
	    (type == CCN_TYPE_SBSX && !ccn->sbsx_present))
		return 0;
	return attr->mode;
}

static const struct attribute_group ccn_events_group = {
	.name = "events",
	.attrs = ccn_event_attrs,
	.is_visible = ccn_event_is_visible,
};

/* sysfs: format/ */

static struct attribute *ccn_format_attrs[] = {
	UNCORE_PMU_FORMAT_ATTR(node, "config:0-7"),
	UNCORE_PMU_FORMAT_ATTR(xp, "config:0-7"),
	UNCORE_PMU_FORMAT_ATTR(type, "config:8-15"),
	UNCORE_PMU_FORMAT_ATTR(event, "config:16-23"),
	UNCORE_PMU_FORMAT_ATTR(port, "config:24-25"),
	UNCORE_PMU_FORMAT_ATTR(bus, "config:24-25"),
	UNCORE_PMU_FORMAT_ATTR(vc, "config:26-28"),
	UNCORE_PMU_FORMAT_ATTR(dir, "config:29-29"),
	UNCORE_PMU_FORMAT_ATTR(mask, "config:30-33"),
	UNCORE_PMU_FORMAT_ATTR(cmp_l, "config1:0-62"),
	UNCORE_PMU_FORMAT_ATTR(cmp_h, "config2:0-59"),
	NULL
};

static const struct attribute_group ccn_format_group = {
	.name = "format",
	.attrs = ccn_format_attrs,
};

/* sysfs: cmp_mask/, files named <mask number in hex><l or h> */

static u64 *ccn_cmp_mask(struct arm_ccn *ccn, const char *name)
{
	int n = hex_to_bin(name[0]);

	if (n < 0 || n >= CCN_NUM_MASKS || (name[1] != 'l' && name[1] != 'h'))
		return NULL;
	return &ccn->cmp_mask[n][name[1] == 'h'];
}

static ssize_t ccn_cmp_mask_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	u64 *mask = ccn_cmp_mask(dev_to_ccn(dev), attr->attr.name);

	if (!mask)
		return -EINVAL;
	return sysfs_emit(buf, "0x%016llx\n", READ_ONCE(*mask));
}

static ssize_t ccn_cmp_mask_store(struct device *dev,
				  struct device_attribute *attr,
				  const char *buf, size_t count)
{
	u64 *mask = ccn_cmp_mask(dev_to_ccn(dev), attr->attr.name);
	u64 val;
	int ret;

	if (!mask)
		return -EINVAL;
	ret = kstrtou64(buf, 0, &val);
	if (ret)
		return ret;
	WRITE_ONCE(*mask, val);
	return count;
}

#define CCN_CMP_MASK_RW(_name)						\
	static struct device_attribute ccn_cmp_mask_##_name =		\
		__ATTR(_name, 0644, ccn_cmp_mask_show, ccn_cmp_mask_store)
#define CCN_CMP_MASK_RO(_name)						\
	static struct device_attribute ccn_cmp_mask_##_name =		\
		__ATTR(_name, 0444, ccn_cmp_mask_show, NULL)

CCN_CMP_MASK_RW(0l);
CCN_CMP_MASK_RW(0h);
CCN_CMP_MASK_RW(1l);
CCN_CMP_MASK_RW(1h);
CCN_CMP_MASK_RW(2l);
CCN_CMP_MASK_RW(2h);
CCN_CMP_MASK_RW(3l);
CCN_CMP_MASK_RW(3h);
CCN_CMP_MASK_RW(4l);
CCN_CMP_MASK_RW(4h);
CCN_CMP_MASK_RW(5l);
CCN_CMP_MASK_RW(5h);
CCN_CMP_MASK_RW(6l);
CCN_CMP_MASK_RW(6h);
CCN_CMP_MASK_RW(7l);
CCN_CMP_MASK_RW(7h);
CCN_CMP_MASK_RO(8l);
CCN_CMP_MASK_RO(8h);
CCN_CMP_MASK_RO(9l);
CCN_CMP_MASK_RO(9h);
CCN_CMP_MASK_RO(al);
CCN_CMP_MASK_RO(ah);
CCN_CMP_MASK_RO(bl);
CCN_CMP_MASK_RO(bh);

static struct attribute *ccn_cmp_mask_attrs[] = {
	&ccn_cmp_mask_0l.attr, &ccn_cmp_mask_0h.attr,
	&ccn_cmp_mask_1l.attr, &ccn_cmp_mask_1h.attr,
	&ccn_cmp_mask_2l.attr, &ccn_cmp_mask_2h.attr,
	&ccn_cmp_mask_3l.attr, &ccn_cmp_mask_3h.attr,
	&ccn_cmp_mask_4l.attr, &ccn_cmp_mask_4h.attr,
	&ccn_cmp_mask_5l.attr, &ccn_cmp_mask_5h.attr,
	&ccn_cmp_mask_6l.attr, &ccn_cmp_mask_6h.attr,
	&ccn_cmp_mask_7l.attr, &ccn_cmp_mask_7h.attr,
	&ccn_cmp_mask_8l.attr, &ccn_cmp_mask_8h.attr,
	&ccn_cmp_mask_9l.attr, &ccn_cmp_mask_9h.attr,
	&ccn_cmp_mask_al.attr, &ccn_cmp_mask_ah.attr,
	&ccn_cmp_mask_bl.attr, &ccn_cmp_mask_bh.attr,
	NULL
};

static const struct attribute_group ccn_cmp_mask_group = {
	.name = "cmp_mask",
	.attrs = ccn_cmp_mask_attrs,
};

static const struct attribute_group *ccn_attr_groups[] = {
	&ccn_events_group,
	&ccn_format_group,
	&ccn_cmp_mask_group,
	&uncore_pmu_common_group,
	NULL
};

/* Events */

static bool ccn_is_watchpoint(u64 config)
{
	return FIELD_GET(CCN_CFG_EVENT, config) == CCN_EVENT_WATCHPOINT;
}

/* The XP that feeds the counter of an event (cycles excepted) */
static unsigned int ccn_event_xp(u64 config)
{
	unsigned int id = FIELD_GET(CCN_CFG_NODE, config);

	return FIELD_GET(CCN_CFG_TYPE, config) == CCN_TYPE_XP ?
	       id : id / CCN_NUM_PORTS;
}

/*
 * The watchpoints or event sources an event takes one of, and how many
 * there are; NULL for the cycle counter, which needs neither. Events with
 * the same set compete for it.
 */
static unsigned long *ccn_event_slots(struct arm_ccn *ccn, u64 config,
				      unsigned int *num)
{
	u32 type = FIELD_GET(CCN_CFG_TYPE, config);
	unsigned int id = FIELD_GET(CCN_CFG_NODE, config);

	if (type == CCN_TYPE_CYCLES)
		return NULL;
	if (type != CCN_TYPE_XP) {
		*num = CCN_NUM_EVENT_SOURCES;
		return ccn->nodes[id].sources;
	}
	if (ccn_is_watchpoint(config)) {
		*num = CCN_NUM_WATCHPOINTS;
		return ccn->xps[id].watchpoints;
	}
	*num = CCN_NUM_EVENT_SOURCES;
	return ccn->xps[id].sources;
}

static int ccn_check_node(struct arm_ccn *ccn, u32 type, unsigned int id)
{
	struct device *dev = ccn->upmu.dev;

	switch (type) {
	case CCN_TYPE_CYCLES:
		return 0;
	case CCN_TYPE_MN:
		if (id != ccn->mn_id) {
			dev_dbg(dev, "the MN is node %u, not %u\n",
				ccn->mn_id, id);
			return -EINVAL;
		}
		return 0;
	case CCN_TYPE_XP:
		if (id >= ccn->num_xps) {
			dev_dbg(dev, "no XP %u: there are %u\n",
				id, ccn->num_xps);
			return -EINVAL;
		}
		return 0;
	default:
		if (id >= ccn->num_nodes) {
			dev_dbg(dev, "no node %u: there are %u node ids\n",
				id, ccn->num_nodes);
			return -EINVAL;
		}
		if (!ccn_type_match(type, ccn->nodes[id].type)) {
			dev_dbg(dev, "node %u has type 0x%x, not 0x%x\n",
				id, ccn->nodes[id].type, type);
			return -EINVAL;
		}
		return 0;
	}
}

/**
 * struct ccn_group_use - what the members of a group take
 * @counters: event counters
 * @cycles: cycle counters
 * @slots: the watchpoints or event sources of the newest member
 * @same: members taking one of @slots
 */
struct ccn_group_use {
	unsigned int counters;
	unsigned int cycles;
	unsigned long *slots;
	unsigned int same;
};

static void ccn_group_count(struct arm_ccn *ccn, struct ccn_group_use *use,
			    struct perf_event *member)
{
	unsigned int num;

	/* Software events take nothing; the core refuses other PMUs. */
	if (member->pmu != &ccn->upmu.pmu)
		return;
	if (FIELD_GET(CCN_CFG_TYPE, member->hw.config) == CCN_TYPE_CYCLES)
		use->cycles++;
	else
		use->counters++;
	if (use->slots &&
	    ccn_event_slots(ccn, member->hw.config, &num) == use->slots)
		use->same++;
}

/*
 * A group is scheduled as a whole: refuse one that could never be, for
 * want of event counters, of the cycle counter, or of the watchpoints or
 * event sources of one XP or node.
 */
static int ccn_check_group(struct arm_ccn *ccn, struct perf_event *event)
{
	struct perf_event *leader = event->group_leader;
	struct ccn_group_use use = { };
	struct perf_event *sibling;
	unsigned int num;

	if (leader == event)
		return 0;
	use.slots = ccn_event_slots(ccn, event->hw.config, &num);
	ccn_group_count(ccn, &use, leader);
	for_each_sibling_event(sibling, leader)
		ccn_group_count(ccn, &use, sibling);
	ccn_group_count(ccn, &use, event);

	if (use.cycles > 1 || use.counters > CCN_NUM_EVENT_COUNTERS ||
	    (use.slots && use.same > num)) {
		dev_dbg(ccn->upmu.dev, "the group cannot fit in the PMU\n");
		return -EINVAL;
	}
	return 0;
}

static int ccn_event_init(struct perf_event *event)
{
	struct arm_ccn *ccn = pmu_to_ccn(event->pmu);
	struct device *dev = ccn->upmu.dev;
	u64 config = event->attr.config;
	u32 type = FIELD_GET(CCN_CFG_TYPE, config);
	unsigned int id = FIELD_GET(CCN_CFG_NODE, config);
	const struct ccn_event *e;
	int ret;

	if (has_branch_stack(event))
		return -EINVAL;

	ret = ccn_check_node(ccn, type, id);
	if (ret)
		return ret;

	e = ccn_find_event(type, FIELD_GET(CCN_CFG_EVENT, config));
	if (!e) {
		dev_dbg(dev, "no event 0x%llx for type 0x%x\n",
			FIELD_GET(CCN_CFG_EVENT, config), type);
		return -ENOENT;
	}
	if (ccn_event_on_ring(e)) {
		if (FIELD_GET(CCN_CFG_PORT, config) >= CCN_NUM_PORTS) {
			dev_dbg(dev, "port or bus %llu out of range\n",
				FIELD_GET(CCN_CFG_PORT, config));
			return -EINVAL;
		}
		if (FIELD_GET(CCN_CFG_VC, config) >= CCN_NUM_VCS) {
			dev_dbg(dev, "virtual channel %llu out of range\n",
				FIELD_GET(CCN_CFG_VC, config));
			return -EINVAL;
		}
	}
	if (e->event == CCN_EVENT_WATCHPOINT) {
		if (FIELD_GET(CCN_CFG_MASK, config) >= CCN_NUM_MASKS) {
			dev_dbg(dev, "no comparator mask %llu\n",
				FIELD_GET(CCN_CFG_MASK, config));
			return -EINVAL;
		}
		/* A node's watchpoint event is one of its XP, on its port. */
		if (type != CCN_TYPE_XP) {
			config &= ~(CCN_CFG_TYPE | CCN_CFG_NODE | CCN_CFG_PORT);
			config |= FIELD_PREP(CCN_CFG_TYPE, CCN_TYPE_XP) |
				  FIELD_PREP(CCN_CFG_NODE, id / CCN_NUM_PORTS) |
				  FIELD_PREP(CCN_CFG_PORT, id % CCN_NUM_PORTS);
		}
	}
	event->hw.config = config;

	return ccn_check_group(ccn, event);
}

static int ccn_get_event_idx(struct perf_event *event)
{
	struct arm_ccn *ccn = pmu_to_ccn(event->pmu);
	unsigned long *used = ccn->upmu.used_mask;
	unsigned int idx, slot, num;
	unsigned long *slots;

	slots = ccn_event_slots(ccn, event->hw.config, &num);
	if (!slots)
		return test_bit(CCN_CYCLE_COUNTER, used) ?
		       -EAGAIN : CCN_CYCLE_COUNTER;

	idx = find_first_zero_bit(used, CCN_NUM_EVENT_COUNTERS);
	slot = find_first_zero_bit(slots, num);
	if (idx >= CCN_NUM_EVENT_COUNTERS || slot >= num)
		return -EAGAIN;
	__set_bit(slot, slots);
	event->hw.config_base = slot;
	return idx;
}

static void ccn_put_event_idx(struct perf_event *event)
{
	struct arm_ccn *ccn = pmu_to_ccn(event->pmu);
	unsigned long *slots;
	unsigned int num;

	slots = ccn_event_slots(ccn, event->hw.config, &num);
	if (slots)
		__clear_bit(event->hw.config_base, slots);
}

/* Set up watchpoint @wp of @xp for @event; returns the DT_CONFIG source */
static u32 ccn_setup_watchpoint(struct arm_ccn *ccn, struct ccn_component *xp,
				struct perf_event *event, unsigned int wp)
{
	u64 config = event->hw.config;
	unsigned int mask = FIELD_GET(CCN_CFG_MASK, config);
	u32 sel;

	sel = FIELD_PREP(CCN_IF_SEL_DIR, FIELD_GET(CCN_CFG_DIR, config)) |
	      FIELD_PREP(CCN_IF_SEL_PORT, FIELD_GET(CCN_CFG_PORT, config)) |
	      FIELD_PREP(CCN_IF_SEL_VC, FIELD_GET(CCN_CFG_VC, config));
	ccn_update_bits(xp->base + CCN_XP_DT_INTERFACE_SEL,
			CCN_IF_SEL_MASK << CCN_IF_SEL_SHIFT(wp),
			sel << CCN_IF_SEL_SHIFT(wp));

	ccn_write_cmp(xp->base + CCN_XP_DT_CMP_VAL_L(wp),
		      event->attr.config1 & CCN_CMP_L_BITS);
	ccn_write_cmp(xp->base + CCN_XP_DT_CMP_VAL_H(wp),
		      event->attr.config2 & CCN_CMP_H_BITS);
	ccn_write_cmp(xp->base + CCN_XP_DT_CMP_MASK_L(wp),
		      READ_ONCE(ccn->cmp_mask[mask][0]) & CCN_CMP_L_BITS);
	ccn_write_cmp(xp->base + CCN_XP_DT_CMP_MASK_H(wp),
		      READ_ONCE(ccn->cmp_mask[mask][1]) & CCN_CMP_H_BITS);

	return CCN_DT_CFG_WATCHPOINT(wp);
}

/* Select the event of event source @src of @xp; returns the DT_CONFIG source */
static u32 ccn_setup_xp_event(struct ccn_component *xp, u64 config,
			      unsigned int src)
{
	u32 id = FIELD_PREP(CCN_XP_EVENT_ID_EVENT, FIELD_GET(CCN_CFG_EVENT, config)) |
		 FIELD_PREP(CCN_XP_EVENT_ID_BUS, FIELD_GET(CCN_CFG_PORT, config)) |
		 FIELD_PREP(CCN_XP_EVENT_ID_VC, FIELD_GET(CCN_CFG_VC, config));

	ccn_update_bits(xp->base + CCN_XP_PMU_EVENT_SEL,
			CCN_XP_EVENT_SEL_MASK << CCN_XP_EVENT_SEL_SHIFT(src),
			id << CCN_XP_EVENT_SEL_SHIFT(src));
	return CCN_DT_CFG_XP_EVENT(src);
}

/* Select the event of event source @src of a node; the DT_CONFIG source */
static u32 ccn_setup_node_event(struct arm_ccn *ccn, u64 config,
				unsigned int src)
{
	unsigned int id = FIELD_GET(CCN_CFG_NODE, config);

	ccn_update_bits(ccn->nodes[id].base + CCN_NODE_PMU_EVENT_SEL,
			CCN_NODE_EVENT_SEL_MASK << CCN_NODE_EVENT_SEL_SHIFT(src),
			FIELD_GET(CCN_CFG_EVENT, config) <<
			CCN_NODE_EVENT_SEL_SHIFT(src));
	return CCN_DT_CFG_PORT_EVENT(id % CCN_NUM_PORTS, src);
}

/* Point the counter of @event at the XP's DT bus @source (0: off). */
static void ccn_route_counter(struct arm_ccn *ccn, struct perf_event *event,
			      u32 source)
{
	struct ccn_component *xp = &ccn->xps[ccn_event_xp(event->hw.config)];
	int idx = event->hw.idx;

	ccn_update_bits(xp->base + CCN_XP_DT_CONFIG,
			CCN_XP_DT_CFG_MASK << CCN_XP_DT_CFG_SHIFT(idx),
			source << CCN_XP_DT_CFG_SHIFT(idx));
}

static void ccn_start_counter(struct uncore_pmu *upmu, struct perf_event *event)
{
	struct arm_ccn *ccn = container_of(upmu, struct arm_ccn, upmu);
	struct hw_perf_event *hw = &event->hw;
	struct ccn_component *xp;
	unsigned int xp_id;
	u32 source;

	/* The cycle counter runs whenever the PMU is enabled. */
	if (hw->idx == CCN_CYCLE_COUNTER)
		return;

	xp_id = ccn_event_xp(hw->config);
	xp = &ccn->xps[xp_id];
	ccn_update_bits(ccn->dt + CCN_DT_ACTIVE_DSM(hw->idx),
			CCN_DT_DSM_MASK << CCN_DT_DSM_SHIFT(hw->idx),
			xp_id << CCN_DT_DSM_SHIFT(hw->idx));

	if (FIELD_GET(CCN_CFG_TYPE, hw->config) != CCN_TYPE_XP)
		source = ccn_setup_node_event(ccn, hw->config, hw->config_base);
	else if (ccn_is_watchpoint(hw->config))
		source = ccn_setup_watchpoint(ccn, xp, event, hw->config_base);
	else
		source = ccn_setup_xp_event(xp, hw->config, hw->config_base);

	ccn_route_counter(ccn, event, source);
}

static void ccn_stop_counter(struct uncore_pmu *upmu, struct perf_event *event)
{
	struct arm_ccn *ccn = container_of(upmu, struct arm_ccn, upmu);

	if (event->hw.idx != CCN_CYCLE_COUNTER)
		ccn_route_counter(ccn, event, CCN_DT_CFG_PASS_THROUGH);
}

#ifdef readq
static u64 ccn_read_cycles(struct arm_ccn *ccn)
{
	return readq(ccn->dt + CCN_DT_PMCCNTR);
}
#else
/*
 * Without 64-bit accesses the two halves of the running counter could
 * disagree: read a snapshot the DT takes on request instead.
 */
static u64 ccn_read_cycles(struct arm_ccn *ccn)
{
	u32 status;
	u64 val;

	writel(CCN_DT_PMSR_READY, ccn->dt + CCN_DT_PMSR_REQ);
	if (readl_poll_timeout_atomic(ccn->dt + CCN_DT_PMSR, status,
				      status & CCN_DT_PMSR_READY, 0, 100))
		dev_warn_ratelimited(ccn->upmu.dev,
				     "cycle counter snapshot timed out\n");
	writel(CCN_DT_PMSR_READY, ccn->dt + CCN_DT_PMSR_CLR);
	val = readl(ccn->dt + CCN_DT_PMCCNTRSR + 4) & 0xff;
	return val << 32 | readl(ccn->dt + CCN_DT_PMCCNTRSR);
}
#endif

/*
 * The counter extended to 64 bits by its wraps. A wrap the interrupt has
 * not taken yet still shows in the overflow status: the counter is then
 * either just past it (low) or was read just before it (high).
 */
static u64 ccn_read_counter(struct uncore_pmu *upmu, struct perf_event *event)
{
	struct arm_ccn *ccn = container_of(upmu, struct arm_ccn, upmu);
	int idx = event->hw.idx;
	unsigned int bits;
	u64 raw, wraps;

	if (idx == CCN_CYCLE_COUNTER) {
		raw = ccn_read_cycles(ccn);
		bits = CCN_CYCLE_COUNTER_BITS;
	} else {
		raw = readl(ccn->dt + CCN_DT_PMEVCNT(idx));
		bits = CCN_EVENT_COUNTER_BITS;
	}
	wraps = ccn->wraps[idx];
	if ((readl(ccn->dt + CCN_DT_PMOVSR) & BIT(idx)) && raw < BIT_ULL(bits - 1))
		wraps++;
	return wraps << bits | raw;
}

static unsigned long ccn_overflow_status(struct uncore_pmu *upmu)
{
	struct arm_ccn *ccn = container_of(upmu, struct arm_ccn, upmu);

	return readl(ccn->dt + CCN_DT_PMOVSR);
}

/* Each PMOVSR bit is one wrap of the narrower hardware counter. */
static void ccn_clear_overflow(struct uncore_pmu *upmu, unsigned long status)
{
	struct arm_ccn *ccn = container_of(upmu, struct arm_ccn, upmu);
	unsigned int idx;

	writel(status, ccn->dt + CCN_DT_PMOVSR_CLR);
	for_each_set_bit(idx, &status, CCN_NUM_COUNTERS)
		ccn->wraps[idx]++;
}

static void ccn_enable(struct uncore_pmu *upmu)
{
	struct arm_ccn *ccn = container_of(upmu, struct arm_ccn, upmu);

	ccn_update_bits(ccn->dt + CCN_DT_PMCR, CCN_DT_PMCR_PMU_EN,
			CCN_DT_PMCR_PMU_EN);
}

static void ccn_disable(struct uncore_pmu *upmu)
{
	struct arm_ccn *ccn = container_of(upmu, struct arm_ccn, upmu);

	ccn_update_bits(ccn->dt + CCN_DT_PMCR, CCN_DT_PMCR_PMU_EN, 0);
}

/* Nothing counts, interrupts or drives a DT bus for the next driver. */
static void ccn_quiesce(struct uncore_pmu *upmu)
{
	struct arm_ccn *ccn = container_of(upmu, struct arm_ccn, upmu);
	unsigned int i;

	for (i = 0; i < ccn->num_xps; i++) {
		writel(0, ccn->xps[i].base + CCN_XP_DT_CONTROL);
		writel(CCN_DT_CFG_PASS_THROUGH, ccn->xps[i].base + CCN_XP_DT_CONFIG);
	}
	writel(0, ccn->dt + CCN_DT_PMCR);
	writel(0, ccn->dt + CCN_DT_CTL);
	writel(GENMASK(CCN_NUM_COUNTERS - 1, 0), ccn->dt + CCN_DT_PMOVSR_CLR);
}

static const struct uncore_pmu_ops ccn_pmu_ops = {
	.event_init = ccn_event_init,
	.get_event_idx = ccn_get_event_idx,
	.put_event_idx = ccn_put_event_idx,
	.start_counter = ccn_start_counter,
	.stop_counter = ccn_stop_counter,
	.read_counter = ccn_read_counter,
	.overflow_status = ccn_overflow_status,
	.clear_overflow = ccn_clear_overflow,
	.enable = ccn_enable,
	.disable = ccn_disable,
	.quiesce = ccn_quiesce,
};

/* Interrupt */

static irqreturn_t ccn_irq_handler(int irq, void *data)
{
	struct arm_ccn *ccn = data;
	u32 sig[CCN_MN_ERR_SIG_WORDS];
	irqreturn_t ret = IRQ_NONE;
	unsigned int i;

	/* Reading the signal words clears them, so read them all. */
	for (i = 0; i < CCN_MN_ERR_SIG_WORDS; i++)
		sig[i] = readl(ccn->mn + CCN_MN_ERR_SIG_VAL + i * 4);

	if (sig[0] & CCN_ERR_SIG_DT) {
		sig[0] &= ~CCN_ERR_SIG_DT;
		ret = uncore_pmu_handle_overflow(&ccn->upmu);
	}

	/* Errors are the firmware's business: say so once and mute them. */
	if (memchr_inv(sig, 0, sizeof(sig))) {
		dev_err(ccn->upmu.dev,
			"error signalled (%08x %08x %08x %08x %08x %08x), error interrupts now disabled\n",
			sig[5], sig[4], sig[3], sig[2], sig[1], sig[0]);
		writel(CCN_ERRINT_ALL_ERRORS_DISABLE,
		       ccn->mn + CCN_MN_ERRINT_STATUS);
		ret = IRQ_HANDLED;
	}

	if (ret == IRQ_HANDLED)
		writel(CCN_ERRINT_INTREQ_DEASSERT, ccn->mn + CCN_MN_ERRINT_STATUS);
	return ret;
}

/*
 * The MN acknowledges PMU interrupts only where the PMU events field of
 * ERRINT_STATUS is writable: firmware may keep the interrupt. Checks that
 * the field takes a "disabled", then enables it.
 */
static bool ccn_claim_interrupt(struct arm_ccn *ccn)
{
	writel(CCN_ERRINT_PMU_EVENTS_DISABLE, ccn->mn + CCN_MN_ERRINT_STATUS);
	if (!(readl(ccn->mn + CCN_MN_ERRINT_STATUS) &
	      CCN_ERRINT_PMU_EVENTS_DISABLED))
		return false;
	writel(CCN_ERRINT_PMU_EVENTS_ENABLE, ccn->mn + CCN_MN_ERRINT_STATUS);
	return true;
}

/*
 * Without the interrupt the core polls for overflows. A 32-bit counter
 * must not wrap twice between two looks: at one event per cycle of a
 * 1 GHz CCN it wraps every 4.3 s.
 */
static unsigned int ccn_poll_period_us = 10000;
module_param_named(pmu_poll_period_us, ccn_poll_period_us, uint, 0444);
MODULE_PARM_DESC(pmu_poll_period_us,
		 "Period of the overflow poll where firmware keeps the interrupt, in us (1-1000000, default 10000)");

static int ccn_setup_interrupt(struct arm_ccn *ccn, struct device *dev,
			       int irq)
{
	int ret;

	if (ccn_claim_interrupt(ccn)) {
		ret = devm_request_irq(dev, irq, ccn_irq_handler,
				       IRQF_NOBALANCING | IRQF_NO_THREAD,
				       dev_name(dev), ccn);
		if (ret)
			return dev_err_probe(dev, ret, "cannot get IRQ %d\n",
					     irq);
		ccn->upmu.irq = irq;
		return 0;
	}

	if (!ccn_poll_period_us || ccn_poll_period_us > USEC_PER_SEC)
		return dev_err_probe(dev, -EINVAL,
				     "pmu_poll_period_us=%u is not in 1-1000000\n",
				     ccn_poll_period_us);
	ccn->upmu.poll_ns = (u64)ccn_poll_period_us * NSEC_PER_USEC;
	dev_info(dev, "firmware keeps the PMU interrupt: polling for overflows every %u us\n",
		 ccn_poll_period_us);
	return 0;
}

/* Topology */

static void ccn_region_id(struct arm_ccn *ccn, unsigned int region,
			  void __iomem **base, u32 *type, unsigned int *id)
{
	u32 val;

	*base = ccn->mn + region * CCN_REGION_SIZE;
	val = readl(*base + CCN_OLY_ID);
	*type = FIELD_GET(CCN_OLY_ID_TYPE, val);
	*id = FIELD_GET(CCN_OLY_ID_NODE, val);
}

/*
 * The MN lists the regions present; each names its type and node id. The
 * XPs must be numbered densely and every device node's XP must be there.
 */
static int ccn_discover(struct arm_ccn *ccn, struct device *dev)
{
	DECLARE_BITMAP(present, CCN_NUM_REGIONS);
	u32 list[CCN_NUM_REGIONS / 32];
	struct ccn_component *c;
	void __iomem *base;
	unsigned int region, id, i;
	u32 type;

	ccn_region_id(ccn, CCN_MN_REGION, &base, &type, &ccn->mn_id);
	if (type != CCN_TYPE_MN)
		return dev_err_probe(dev, -ENODEV, "region %d is not an MN (type 0x%x)\n",
				     CCN_MN_REGION, type);
	ccn_region_id(ccn, CCN_DT_REGION, &base, &type, &id);
	if (type != CCN_TYPE_DT)
		return dev_err_probe(dev, -ENODEV, "region %d is not a DT (type 0x%x)\n",
				     CCN_DT_REGION, type);

	for (i = 0; i < ARRAY_SIZE(list); i++)
		list[i] = readl(ccn->mn + CCN_MN_OLY_COMP_LIST + i * 4);
	bitmap_from_arr32(present, list, CCN_NUM_REGIONS);

	for_each_set_bit(region, present, CCN_NUM_REGIONS) {
		ccn_region_id(ccn, region, &base, &type, &id);
		if (type == CCN_TYPE_XP)
			ccn->num_xps = max(ccn->num_xps, id + 1);
		else if (type != CCN_TYPE_MN && type != CCN_TYPE_DT)
			ccn->num_nodes = max(ccn->num_nodes, id + 1);
	}
	ccn->xps = devm_kcalloc(dev, ccn->num_xps, sizeof(*ccn->xps), GFP_KERNEL);
	ccn->nodes = devm_kcalloc(dev, ccn->num_nodes, sizeof(*ccn->nodes),
				  GFP_KERNEL);
	if (!ccn->xps || !ccn->nodes)
		return -ENOMEM;

	for_each_set_bit(region, present, CCN_NUM_REGIONS) {
		ccn_region_id(ccn, region, &base, &type, &id);
		dev_dbg(dev, "region %u: type 0x%02x, id %u\n", region, type, id);
		if (type == CCN_TYPE_MN || type == CCN_TYPE_DT)
			continue;
		c = type == CCN_TYPE_XP ? &ccn->xps[id] : &ccn->nodes[id];
		c->base = base;
		c->type = type;
		if (type == CCN_TYPE_SBAS)
			ccn->sbas_present = true;
		else if (type == CCN_TYPE_SBSX)
			ccn->sbsx_present = true;
	}

	for (id = 0; id < ccn->num_xps; id++)
		if (!ccn->xps[id].base)
			return dev_err_probe(dev, -ENODEV, "XP %u is missing\n", id);
	for (id = 0; id < ccn->num_nodes; id++)
		if (ccn->nodes[id].base && id / CCN_NUM_PORTS >= ccn->num_xps)
			return dev_err_probe(dev, -ENODEV, "node %u has no XP\n", id);
	return 0;
}

static void ccn_init_cmp_masks(struct arm_ccn *ccn)
{
	ccn->cmp_mask[CCN_MASK_ANY][0] = ~0ULL;
	ccn->cmp_mask[CCN_MASK_ANY][1] = ~0ULL;
	ccn->cmp_mask[CCN_MASK_EXACT][0] = 0;
	ccn->cmp_mask[CCN_MASK_EXACT][1] = 0;
	ccn->cmp_mask[CCN_MASK_ORDER][0] = ~0ULL;
	ccn->cmp_mask[CCN_MASK_ORDER][1] = ~CCN_FLIT_H_ORDER;
	ccn->cmp_mask[CCN_MASK_OPCODE][0] = ~0ULL;
	ccn->cmp_mask[CCN_MASK_OPCODE][1] = ~CCN_FLIT_H_OPCODE;
}

/*
 * Counting stays off (PMU_EN) until the core enables the PMU for its
 * first event; every XP passes its DT bus through until a counter takes
 * it, with the watchpoints always armed.
 */
static void ccn_hw_init(struct arm_ccn *ccn)
{
	unsigned int i;

	writel(GENMASK(CCN_NUM_COUNTERS - 1, 0), ccn->dt + CCN_DT_PMOVSR_CLR);
	writel(CCN_DT_PMCR_OVFL_INTR_EN, ccn->dt + CCN_DT_PMCR);
	writel(CCN_DT_CTL_DT_EN, ccn->dt + CCN_DT_CTL);
	for (i = 0; i < ccn->num_xps; i++) {
		writel(CCN_DT_CFG_PASS_THROUGH, ccn->xps[i].base + CCN_XP_DT_CONFIG);
		writel(CCN_XP_DT_CONTROL_ARM_ALWAYS(0) |
		       CCN_XP_DT_CONTROL_ARM_ALWAYS(1) |
		       CCN_XP_DT_CONTROL_DT_ENABLE,
		       ccn->xps[i].base + CCN_XP_DT_CONTROL);
	}
}

static int ccn_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct arm_ccn *ccn;
	int irq, ret;

	ccn = devm_kzalloc(dev, sizeof(*ccn), GFP_KERNEL);
	if (!ccn)
		return -ENOMEM;
	ccn->mn = devm_platform_ioremap_resource(pdev, 0);
	if (IS_ERR(ccn->mn))
		return PTR_ERR(ccn->mn);
	ccn->dt = ccn->mn + CCN_DT_REGION * CCN_REGION_SIZE;
	irq = platform_get_irq(pdev, 0);
	if (irq < 0)
		return irq;

	ret = ccn_discover(ccn, dev);
	if (ret)
		return ret;
	ccn_init_cmp_masks(ccn);

	ccn->upmu.ops = &ccn_pmu_ops;
	ccn->upmu.dev = dev;
	ccn->upmu.node = dev_to_node(dev);
	ccn->upmu.num_counters = CCN_NUM_COUNTERS;
	ccn->upmu.pmu.attr_groups = ccn_attr_groups;
	/*
	 * The identifier: this driver reads no product or revision register,
	 * so the MN's ID register (type and node id), which every CCN has,
	 * stands in; the MN's node id follows from how the ring is built.
	 */
	ccn->upmu.identifier = readl(ccn->mn + CCN_OLY_ID);

	ret = ccn_setup_interrupt(ccn, dev, irq);
	if (ret)
		return ret;
	ccn_hw_init(ccn);

	ccn->id = ida_alloc(&ccn_ida, GFP_KERNEL);
	if (ccn->id < 0) {
		ret = ccn->id;
		goto err_hw;
	}
	/* The first CCN's PMU is "ccn", the others "ccn_<n>". */
	if (ccn->id)
		ccn->upmu.name = devm_kasprintf(dev, GFP_KERNEL, "ccn_%d", ccn->id);
	else
		ccn->upmu.name = "ccn";
	if (!ccn->upmu.name) {
		ret = -ENOMEM;
		goto err_ida;
	}

	platform_set_drvdata(pdev, ccn);
	ret = uncore_pmu_register(&ccn->upmu);
	if (ret) {
		dev_err(dev, "cannot register PMU %s: %d\n", ccn->upmu.name, ret);
		goto err_ida;
	}
	return 0;

err_ida:
	ida_free(&ccn_ida, ccn->id);
err_hw:
	ccn_quiesce(&ccn->upmu);
	return ret;
}

static void ccn_remove(struct platform_device *pdev)
{
	struct arm_ccn *ccn = platform_get_drvdata(pdev);

	uncore_pmu_unregister(&ccn->upmu);
	ida_free(&ccn_ida, ccn->id);
}

static const struct of_device_id ccn_of_match[] = {
	{ .compatible = "arm,ccn-502" },
	{ .compatible = "arm,ccn-504" },
	{ .compatible = "arm,ccn-512" },
	{ }
};
MODULE_DEVICE_TABLE(of, ccn_of_match);

static struct platform_driver ccn_driver = {
	.driver = {
		.name = "arm-ccn",
		.of_match_table = ccn_of_match,
		/* Events may be open: only module removal, which waits, unbinds. */
		.suppress_bind_attrs = true,
	},
	.probe = ccn_probe,
	.remove = ccn_remove,
};

static int __init ccn_init(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ccn_events); i++)
		ccn_event_attrs[i] = &ccn_events[i].attr.attr;
	return platform_driver_register(&ccn_driver);
}
module_init(ccn_init);

static void __exit ccn_exit(void)
{
	platform_driver_unregister(&ccn_driver);
}
module_exit(ccn_exit);

MODULE_DESCRIPTION("ARM CCN (Cache Coherent Network) PMU driver");
MODULE_AUTHOR("hisi-uncore-emu developers");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(UNCORE_PMU_NS);
