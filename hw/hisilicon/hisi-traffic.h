/*
 * hisi-traffic: the synthetic traffic the HiSilicon uncore models observe
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_HISILICON_HISI_TRAFFIC_H
#define HW_HISILICON_HISI_TRAFFIC_H

#include "qemu/notify.h"
#include "qom/object.h"
#include "model/traffic.h"
#include "model/ring-traffic.h"
#include "model/traffic-rules.h"

#define TYPE_HISI_TRAFFIC "hisi-traffic"
OBJECT_DECLARE_SIMPLE_TYPE(HisiTraffic, HISI_TRAFFIC)

/*
 * Change notifiers get a HisiTrafficChange: once before the traffic
 * changes (to account for what happened up to @now under the old
 * settings) and once after (to rearm timers for the new rates).
 */
typedef struct HisiTrafficChange {
    int64_t now;
    bool done;
} HisiTrafficChange;

/* The object devices share when none is given to them */
HisiTraffic *hisi_traffic_default(void);

/*
 * Observe @t, or the shared default object when @t is NULL: @fn gets the
 * HisiTrafficChange of each change through @n. Returns the object.
 */
HisiTraffic *hisi_traffic_observe(HisiTraffic *t, Notifier *n,
                                  void (*fn)(Notifier *n, void *data));
/* Stop observing, through @n, changes or real TLPs */
void hisi_traffic_unobserve(Notifier *n);

/*
 * The real traffic (source=real or mixed): @fn gets, through @n, the TLPs
 * of each transfer of the functions below the root ports (their DMA, the
 * CPU's accesses to them) as HisiRealTlps (hisi-tap.h), while some
 * observer wants them.
 */
void hisi_traffic_observe_real(HisiTraffic *t, Notifier *n,
                               void (*fn)(Notifier *n, void *data));

/*
 * An observer starts (@want) or stops wanting the real TLPs: the DMA is
 * seen, at a cost, only while one does.
 */
void hisi_traffic_want_real(HisiTraffic *t, bool want);

/*
 * Give out the real TLPs up to now: an observer calls it before it
 * accounts for time, so that they come in time order.
 */
void hisi_traffic_flush_real(HisiTraffic *t);

/*
 * The PCI function being hot-unplugged, while the observers account for
 * the traffic up to its removal (QEMU has taken it off its bus already),
 * with the bridge on the root bus above it in @port (NULL on the root
 * bus); NULL otherwise. Its configuration space is gone: only its BDF,
 * type and BARs may be read.
 */
PCIDevice *hisi_traffic_departing(PCIDevice **port);

/*
 * The tuning of the PCIe core whose root ports are [port_min, port_max],
 * set by the PTT of that core: it shapes the traffic of the endpoints
 * below those ports only (the others keep theirs).
 */
void hisi_traffic_set_tuning(HisiTraffic *t, uint16_t port_min,
                             uint16_t port_max, const TrafficTuning *tune);

/*
 * Whether the endpoints have synthetic TLPs: not with source=real, whose
 * endpoint streams never run, so that an observer need not collect them
 * (a walk of the topology) for each real TLP.
 */
bool hisi_traffic_synthetic(HisiTraffic *t);

/*
 * The TRAFFIC_ENDPOINT_STREAMS streams of endpoint @ep below root port
 * @port, whose CPU-visible MMIO window is [mmio_base, + mmio_size).
 */
void hisi_traffic_endpoint_streams(HisiTraffic *t, TrafficStream *out,
                                   uint16_t ep, uint16_t port,
                                   uint64_t mmio_base, uint32_t mmio_size);

/*
 * The NIC streams of function @func below root port @port: on MAC port
 * @mac_port, @queues queues on @tcs traffic classes; 2 * @queues + 2 of
 * them into @out (model_nic_function_streams()). Returns how many.
 */
uint32_t hisi_traffic_nic_streams(HisiTraffic *t, NicStream *out,
                                  uint16_t func, uint16_t port,
                                  uint8_t mac_port, uint16_t queues,
                                  uint8_t tcs);

/*
 * The RING_NODE_STREAMS flit streams of ring node @node of @type (a CCN
 * node type) into @out (model_ring_node_streams()).
 */
void hisi_traffic_ring_streams(HisiTraffic *t, RingStream *out, uint8_t node,
                               uint8_t type);

#endif
