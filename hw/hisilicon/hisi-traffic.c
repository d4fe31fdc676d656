/*
 * hisi-traffic: the synthetic traffic the HiSilicon uncore models observe
 *
 * One object holds what the traffic is: the seed, the rules that change
 * the built-in per-endpoint profiles (model/traffic-rules.h), whether it
 * is paused (or runs for a burst of a set length), the tuning of each PCIe
 * core (the root ports of one PTT), where the streams of each endpoint,
 * NIC function and ring node stand (so that a change goes on from there
 * instead of restarting them), and
 * the virtual time of the last change. Devices that observe it
 * (hisi-ptt, and the PMUs) get the PCIe streams of each endpoint, the NIC
 * streams of each function, or the ring streams of each CCN node from it,
 * and are told before and after every change, so that what they trace and
 * count stays continuous. Changes come from QMP (qom-set of "rules",
 * "paused", "burst-ns", "seed") and from the PTT's tuning.
 *
 * -object hisi-traffic,id=t0,seed=7,rules=stream=dma-write,,rate=400000
 * -device hisi-ptt,traffic=t0
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qapi/qapi-types-qom.h"
#include "qapi/visitor.h"
#include "qemu/timer.h"
#include "qom/object_interfaces.h"
#include "hisi-compat.h"
#include HISI_BOARDS_H
#include "hw/pci/pci_bridge.h"
#include "hw/pci/pcie_port.h"
#include "migration/vmstate.h"
#include "hisi-tap.h"
#include "hisi-traffic.h"
#include "trace.h"

#define HISI_TRAFFIC_DEFAULT_NAME "hisi-traffic-default"

/* The tuning of the PCIe core whose root ports are [port_min, port_max] */
typedef struct TrafficTunedCore {
    uint16_t port_min;
    uint16_t port_max;
    TrafficTuning tune;
} TrafficTunedCore;

/*
 * Where the streams of endpoint @ep below root port @port (BDFs as the
 * guest numbers them) stand since the last change: each change carries
 * them over, so TLP numbers (tags, addresses) and phases go on.
 */
typedef struct TrafficEndpoint {
    uint16_t ep;
    uint16_t port;
    TrafficPhase phase[TRAFFIC_ENDPOINT_STREAMS];
} TrafficEndpoint;

/*
 * Where the NIC streams of PCI function @func below root port @port stand
 * since the last change, RoCE transmit and receive first, then transmit
 * and receive of each queue (traffic_nic_phase_index()): for as many
 * queues as an observer asked for, so that queue q keeps its place
 * whoever asks for more.
 */
typedef struct TrafficNicFunction {
    uint16_t func;
    uint16_t port;
    int64_t plugged;        /* ns: no traffic before (a hot-plug) */
    int32_t n_phase;
    TrafficPhase *phase;
} TrafficNicFunction;

/* Where the streams of ring node @node of @type stand since the last change */
typedef struct TrafficRingNode {
    uint8_t node;
    uint8_t type;
    TrafficPhase phase[RING_NODE_STREAMS];
    /*
     * Not migrated: the node's flits for @flits_seed, kept because an XP
     * counter rebuilds the streams of every node on its ring at each read
     */
    bool has_flits;
    uint64_t flits_seed;
    RingStream flits[RING_NODE_STREAMS];
} TrafficRingNode;

struct HisiTraffic {
    Object parent_obj;

    uint64_t seed;
    HisiTrafficSource source;
    HisiTap *tap;               /* the real traffic; NULL: none */
    NotifierList real_notifiers;
    unsigned real_wanted;       /* observers that want the real TLPs now */
    char *rules_text;
    uint32_t rules_len;         /* strlen(rules_text) + 1, for migration */
    TrafficRules rules;
    bool paused;
    /* Pauses the traffic at the end of a burst (see traffic_set_burst) */
    QEMUTimer *burst_timer;
    int64_t burst_end;          /* ns: when the running burst ends */
    int64_t epoch;              /* ns: when the traffic last changed */
    TrafficTunedCore *cores;    /* the cores tuned since the start */
    int32_t n_cores;
    TrafficEndpoint *eps;       /* the endpoints seen since the start */
    int32_t n_eps;
    TrafficNicFunction *nics;   /* the NIC functions seen since the start */
    int32_t n_nics;
    TrafficRingNode *rings;     /* the ring nodes seen since the start */
    int32_t n_rings;
    NotifierList change_notifiers;
    DeviceListener hotplug;     /* PCI functions plugged and unplugged */
};

static void traffic_notify(HisiTraffic *t, int64_t now, bool done)
{
    HisiTrafficChange change = { .now = now, .done = done };

    notifier_list_notify(&t->change_notifiers, &change);
}

static const TrafficTuning *traffic_tuning(HisiTraffic *t, uint16_t port)
{
    static const TrafficTuning reset = TRAFFIC_TUNING_RESET;

    for (int i = 0; i < t->n_cores; i++) {
        if (port >= t->cores[i].port_min && port <= t->cores[i].port_max) {
            return &t->cores[i].tune;
        }
    }
    return &reset;
}

/* The streams of @e as the settings are now, from where they stand */
static void traffic_build(HisiTraffic *t, TrafficStream *out,
                          const TrafficEndpoint *e, uint64_t mmio_base,
                          uint32_t mmio_size)
{
    TrafficSpec spec[TRAFFIC_ENDPOINT_STREAMS];

    model_traffic_profile_default(spec);
    model_traffic_rules_apply(&t->rules, e->ep, e->port, spec);
    if (t->paused || t->source == HISI_TRAFFIC_SOURCE_REAL) {
        for (int i = 0; i < TRAFFIC_ENDPOINT_STREAMS; i++) {
            spec[i].rate = 0;
        }
    }
    model_traffic_endpoint_streams(out, t->seed, spec, e->ep, e->port,
                                   mmio_base, mmio_size,
                                   traffic_tuning(t, e->port), 0);
    for (int i = 0; i < TRAFFIC_ENDPOINT_STREAMS; i++) {
        model_traffic_phase_set(&out[i].flow, &e->phase[i]);
    }
}

/*
 * The endpoint @ep below @port; one not seen before joins with its
 * streams as they have run since time 0 (no observer has seen them yet).
 */
static TrafficEndpoint *traffic_endpoint(HisiTraffic *t, uint16_t ep,
                                         uint16_t port)
{
    TrafficEndpoint *e;

    for (int i = 0; i < t->n_eps; i++) {
        if (t->eps[i].ep == ep && t->eps[i].port == port) {
            return &t->eps[i];
        }
    }
    t->eps = g_renew(TrafficEndpoint, t->eps, t->n_eps + 1);
    e = &t->eps[t->n_eps++];
    *e = (TrafficEndpoint) { .ep = ep, .port = port };
    return e;
}

/* Where stream @s of a NIC function keeps its phase in TrafficNicFunction */
static unsigned traffic_nic_phase_index(const NicStream *s)
{
    if (s->queue == NIC_QUEUE_NONE) {
        return s->kind - NIC_ROCE_TX;
    }
    return 2 + 2 * s->queue + (s->kind == NIC_RX);
}

/* How many queues @f holds the phases of */
static uint16_t traffic_nic_queues(const TrafficNicFunction *f)
{
    return (f->n_phase - 2) / 2;
}

/*
 * The streams of @f as the settings are now, from where they stand: on
 * MAC port @mac_port, @queues queues (at most traffic_nic_queues(@f)) on
 * @tcs traffic classes. Returns how many.
 */
static uint32_t traffic_nic_build(HisiTraffic *t, NicStream *out,
                                  const TrafficNicFunction *f,
                                  uint8_t mac_port, uint16_t queues,
                                  uint8_t tcs)
{
    NicSpec spec[NIC_KINDS];
    uint32_t n;

    model_nic_profile_default(spec);
    model_traffic_rules_apply_nic(&t->rules, f->func, f->port, spec);
    if (t->paused) {
        for (int i = 0; i < NIC_KINDS; i++) {
            spec[i].rate = 0;
        }
    }
    n = model_nic_function_streams(out, t->seed, spec, f->func, mac_port,
                                   queues, tcs, 0);
    for (uint32_t i = 0; i < n; i++) {
        model_traffic_phase_set(&out[i].flow,
                                &f->phase[traffic_nic_phase_index(&out[i])]);
    }
    return n;
}

/*
 * The NIC function @func below @port, with the phases of @queues queues at
 * least. A function or queues not asked for before join with their streams
 * as they have run since the last change, as before there was this table:
 * a function plugged in has traffic from its plug on, which is a change.
 */
static TrafficNicFunction *traffic_nic_function(HisiTraffic *t, uint16_t func,
                                                uint16_t port, uint16_t queues)
{
    int32_t n_phase = 2 + 2 * queues;
    TrafficNicFunction *f = NULL;

    for (int i = 0; i < t->n_nics && !f; i++) {
        if (t->nics[i].func == func && t->nics[i].port == port) {
            f = &t->nics[i];
        }
    }
    if (!f) {
        t->nics = g_renew(TrafficNicFunction, t->nics, t->n_nics + 1);
        f = &t->nics[t->n_nics++];
        *f = (TrafficNicFunction) { .func = func, .port = port };
    }
    if (f->n_phase < n_phase) {
        f->phase = g_renew(TrafficPhase, f->phase, n_phase);
        while (f->n_phase < n_phase) {
            f->phase[f->n_phase++] = (TrafficPhase) {
                .t = MAX(t->epoch, f->plugged),
            };
        }
    }
    return f;
}

/* The streams of the first @n NIC functions, one after another */
static NicStream *traffic_nic_build_all(HisiTraffic *t, int32_t n)
{
    size_t total = 0;
    NicStream *all;

    for (int i = 0; i < n; i++) {
        total += t->nics[i].n_phase;
    }
    all = g_new(NicStream, total);
    total = 0;
    for (int i = 0; i < n; i++) {
        total += traffic_nic_build(t, &all[total], &t->nics[i], 0,
                                   traffic_nic_queues(&t->nics[i]), 1);
    }
    return all;
}

/*
 * Carry the streams of the first @n NIC functions over a change at @now
 * from @old (traffic_nic_build_all() before the change) to the settings
 * as they are now.
 */
static void traffic_nic_carry(HisiTraffic *t, const NicStream *old,
                              int32_t n, int64_t now)
{
    for (int i = 0; i < n; i++) {
        TrafficNicFunction *f = &t->nics[i];
        g_autofree NicStream *cur = g_new(NicStream, f->n_phase);
        uint32_t streams = traffic_nic_build(t, cur, f, 0,
                                             traffic_nic_queues(f), 1);

        model_nic_streams_carry(cur, old, streams, now);
        for (uint32_t j = 0; j < streams; j++) {
            unsigned at = traffic_nic_phase_index(&cur[j]);

            model_traffic_phase_get(&cur[j].flow, &f->phase[at]);
        }
        old += streams;
    }
}

/* The streams of ring node @r as the settings are now, from where they stand */
static void traffic_ring_build(HisiTraffic *t, RingStream *out,
                               TrafficRingNode *r)
{
    RingSpec spec;

    model_ring_profile_default(r->type, &spec);
    model_traffic_rules_apply_ring(&t->rules, r->node, &spec);
    if (t->paused) {
        memset(&spec, 0, sizeof(spec));
    }
    if (!r->has_flits || r->flits_seed != t->seed) {
        model_ring_node_flits(r->flits, t->seed, r->node, r->type);
        r->flits_seed = t->seed;
        r->has_flits = true;
    }
    memcpy(out, r->flits, sizeof(r->flits));
    model_ring_node_flows(out, t->seed, &spec, 0);
    model_ring_node_phase_set(out, r->phase);
}

/*
 * The ring node @node of @type; one not seen before joins with its streams
 * as they have run since the last change (as NIC functions do).
 */
static TrafficRingNode *traffic_ring_node(HisiTraffic *t, uint8_t node,
                                          uint8_t type)
{
    TrafficRingNode *r;

    for (int i = 0; i < t->n_rings; i++) {
        if (t->rings[i].node == node && t->rings[i].type == type) {
            return &t->rings[i];
        }
    }
    t->rings = g_renew(TrafficRingNode, t->rings, t->n_rings + 1);
    r = &t->rings[t->n_rings++];
    *r = (TrafficRingNode) { .node = node, .type = type };
    for (int i = 0; i < RING_NODE_STREAMS; i++) {
        r->phase[i].t = t->epoch;
    }
    return r;
}

/*
 * Run @apply(@t, @opaque) as a change of the traffic at time @now (the
 * current time, or the end of a burst: under -icount an idle guest's
 * clock warps past a timer's deadline before the timer runs).
 */
static void traffic_change_at(HisiTraffic *t, int64_t now,
                              void (*apply)(HisiTraffic *, const void *),
                              const void *opaque)
{
    g_autofree TrafficStream *old = NULL;
    g_autofree NicStream *old_nics = NULL;
    g_autofree RingStream *old_rings = NULL;
    int32_t n, n_nics, n_rings;

    traffic_notify(t, now, false);
    /* Observers may have met new endpoints, functions, nodes meanwhile. */
    n = t->n_eps;
    n_nics = t->n_nics;
    n_rings = t->n_rings;
    old = g_new(TrafficStream, n * TRAFFIC_ENDPOINT_STREAMS);
    /* The address windows do not matter here, only the flows. */
    for (int i = 0; i < n; i++) {
        traffic_build(t, &old[i * TRAFFIC_ENDPOINT_STREAMS], &t->eps[i], 0,
                      TRAFFIC_ADDR_STRIDE);
    }
    old_nics = traffic_nic_build_all(t, n_nics);
    old_rings = g_new(RingStream, n_rings * RING_NODE_STREAMS);
    for (int i = 0; i < n_rings; i++) {
        traffic_ring_build(t, &old_rings[i * RING_NODE_STREAMS],
                           &t->rings[i]);
    }
    apply(t, opaque);
    for (int i = 0; i < n; i++) {
        TrafficStream cur[TRAFFIC_ENDPOINT_STREAMS];

        traffic_build(t, cur, &t->eps[i], 0, TRAFFIC_ADDR_STRIDE);
        for (int j = 0; j < TRAFFIC_ENDPOINT_STREAMS; j++) {
            TrafficFlow *f = &old[i * TRAFFIC_ENDPOINT_STREAMS + j].flow;

            model_traffic_set_rate(f, cur[j].flow.rate, now);
            model_traffic_phase_get(f, &t->eps[i].phase[j]);
        }
    }
    traffic_nic_carry(t, old_nics, n_nics, now);
    for (int i = 0; i < n_rings; i++) {
        TrafficRingNode *r = &t->rings[i];
        RingStream cur[RING_NODE_STREAMS];

        traffic_ring_build(t, cur, r);
        model_ring_node_carry(cur, &old_rings[i * RING_NODE_STREAMS], now);
        for (int j = 0; j < RING_NODE_STREAMS; j++) {
            model_traffic_phase_get(&cur[j].flow, &r->phase[j]);
        }
    }
    t->epoch = now;
    trace_hisi_traffic_change(now);
    traffic_notify(t, now, true);
}

/* Run @apply(@t, @opaque) as a change of the traffic at the current time */
static void traffic_change(HisiTraffic *t,
                           void (*apply)(HisiTraffic *, const void *),
                           const void *opaque)
{
    traffic_change_at(t, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL), apply,
                      opaque);
}

HisiTraffic *hisi_traffic_observe(HisiTraffic *t, Notifier *n,
                                  void (*fn)(Notifier *n, void *data))
{
    if (!t) {
        t = hisi_traffic_default();
    }
    n->notify = fn;
    notifier_list_add(&t->change_notifiers, n);
    return t;
}

void hisi_traffic_unobserve(Notifier *n)
{
    notifier_remove(n);
}

void hisi_traffic_observe_real(HisiTraffic *t, Notifier *n,
                               void (*fn)(Notifier *n, void *data))
{
    n->notify = fn;
    notifier_list_add(&t->real_notifiers, n);
}

void hisi_traffic_want_real(HisiTraffic *t, bool want)
{
    if (!t->tap) {
        return;
    }
    assert(want || t->real_wanted);
    t->real_wanted += want ? 1 : -1;
    hisi_tap_set_observing(t->tap, t->real_wanted);
}

void hisi_traffic_flush_real(HisiTraffic *t)
{
    if (t->tap) {
        hisi_tap_flush(t->tap);
    }
}

static void traffic_real_tlps(void *opaque, const HisiRealTlps *tlps)
{
    HisiTraffic *t = opaque;

    notifier_list_notify(&t->real_notifiers, (void *)tlps);
}

/*
 * Hot-plug. A PCI function plugged while the machine runs has traffic from
 * the plug on, and one unplugged has it up to the removal: both are a
 * change of the traffic at that time (so that hns3-pmu's NIC streams,
 * which start at the last change, start at the plug too). An endpoint
 * plugged below a root port starts its streams afresh, TLP 0 at the plug,
 * before the observers account up to then: they meet it in the topology
 * already and find nothing of it before now. QEMU tells the listeners of
 * an unplug once the function has left its bus; the walks of hisi-pcie.c
 * still report it (hisi_traffic_departing()) while the observers account
 * up to the removal, so its last interval counts, and its entry goes once
 * they have rearmed without it: a function plugged later at the same BDF
 * starts afresh.
 *
 * The function being unplugged and the bridge on the root bus above it:
 * set only during the first half of a change, so never migrated.
 */
static PCIDevice *departing, *departing_port;

PCIDevice *hisi_traffic_departing(PCIDevice **port)
{
    *port = departing_port;
    return departing;
}

/* The bridge on the root bus above @d (a root port); NULL on the root bus */
static PCIDevice *traffic_top_bridge(PCIDevice *d)
{
    PCIDevice *top = NULL;
    PCIBus *bus = pci_get_bus(d);

    while (!pci_bus_is_root(bus)) {
        top = pci_bridge_get_device(bus);
        bus = pci_get_bus(top);
    }
    return top;
}

/* The topology changed: a departing function is gone from now on */
static void apply_topology(HisiTraffic *t, const void *opaque)
{
    departing = NULL;
    departing_port = NULL;
}

static void traffic_device_realize(DeviceListener *listener, DeviceState *dev)
{
    HisiTraffic *t = container_of(listener, HisiTraffic, hotplug);
    PCIDevice *d = (PCIDevice *)object_dynamic_cast(OBJECT(dev),
                                                    TYPE_PCI_DEVICE);
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    TrafficNicFunction *nic;
    PCIDevice *port;

    /* Before the functions below it are plugged, cold or hot */
    if (t->tap && object_dynamic_cast(OBJECT(dev), TYPE_PCIE_ROOT_PORT) &&
        !dev->realized) {
        hisi_tap_attach(t->tap, d);
    } else if (t->tap && d && !dev->realized) {
        hisi_tap_plug(t->tap, d);
    }
    /*
     * Functions there at start-up have had traffic since time 0; those
     * the listener's registration replays are realized already (the call
     * for a function being realized comes before dev->realized is set).
     */
    if (!d || !phase_check(PHASE_MACHINE_READY) || dev->realized) {
        return;
    }
    port = traffic_top_bridge(d);
    if (port && !IS_PCI_BRIDGE(d)) {
        TrafficEndpoint *e = traffic_endpoint(t, pci_get_bdf(d),
                                              pci_get_bdf(port));

        for (int i = 0; i < TRAFFIC_ENDPOINT_STREAMS; i++) {
            e->phase[i] = (TrafficPhase) { .t = now };
        }
    }
    /* As a NIC function (hns3-pmu: port 0 on the root bus) likewise */
    nic = traffic_nic_function(t, pci_get_bdf(d),
                               port ? pci_get_bdf(port) : 0, 0);
    nic->plugged = now;
    for (int i = 0; i < nic->n_phase; i++) {
        nic->phase[i] = (TrafficPhase) { .t = now };
    }
    traffic_change(t, apply_topology, NULL);
}

static void traffic_device_unrealize(DeviceListener *listener,
                                     DeviceState *dev)
{
    HisiTraffic *t = container_of(listener, HisiTraffic, hotplug);
    PCIDevice *d = (PCIDevice *)object_dynamic_cast(OBJECT(dev),
                                                    TYPE_PCI_DEVICE);
    PCIDevice *port;
    uint16_t bdf;

    if (!d) {
        return;
    }
    if (t->tap) {
        hisi_tap_unplug(t->tap, d);
    }
    port = traffic_top_bridge(d);
    bdf = pci_get_bdf(d);
    departing = d;
    departing_port = port;
    traffic_change(t, apply_topology, NULL);
    for (int i = 0; port && i < t->n_eps; i++) {
        if (t->eps[i].ep == bdf && t->eps[i].port == pci_get_bdf(port)) {
            t->eps[i] = t->eps[--t->n_eps];
            break;
        }
    }
    for (int i = 0; i < t->n_nics; i++) {
        if (t->nics[i].func == bdf &&
            t->nics[i].port == (port ? pci_get_bdf(port) : 0)) {
            g_free(t->nics[i].phase);
            t->nics[i] = t->nics[--t->n_nics];
            break;
        }
    }
}

static void apply_tuning(HisiTraffic *t, const void *opaque)
{
    const TrafficTunedCore *core = opaque;
    int i;

    for (i = 0; i < t->n_cores; i++) {
        if (t->cores[i].port_min == core->port_min &&
            t->cores[i].port_max == core->port_max) {
            break;
        }
    }
    if (i == t->n_cores) {
        t->cores = g_renew(TrafficTunedCore, t->cores, ++t->n_cores);
    }
    t->cores[i] = *core;
}

void hisi_traffic_set_tuning(HisiTraffic *t, uint16_t port_min,
                             uint16_t port_max, const TrafficTuning *tune)
{
    TrafficTunedCore core = {
        .port_min = port_min, .port_max = port_max, .tune = *tune,
    };

    traffic_change(t, apply_tuning, &core);
}

bool hisi_traffic_synthetic(HisiTraffic *t)
{
    return t->source != HISI_TRAFFIC_SOURCE_REAL;
}

void hisi_traffic_endpoint_streams(HisiTraffic *t, TrafficStream *out,
                                   uint16_t ep, uint16_t port,
                                   uint64_t mmio_base, uint32_t mmio_size)
{
    traffic_build(t, out, traffic_endpoint(t, ep, port), mmio_base,
                  mmio_size);
}

uint32_t hisi_traffic_nic_streams(HisiTraffic *t, NicStream *out,
                                  uint16_t func, uint16_t port,
                                  uint8_t mac_port, uint16_t queues,
                                  uint8_t tcs)
{
    return traffic_nic_build(t, out,
                             traffic_nic_function(t, func, port, queues),
                             mac_port, queues, tcs);
}

void hisi_traffic_ring_streams(HisiTraffic *t, RingStream *out, uint8_t node,
                               uint8_t type)
{
    traffic_ring_build(t, out, traffic_ring_node(t, node, type));
}

static char *traffic_get_rules(Object *obj, Error **errp)
{
    const char *text = HISI_TRAFFIC(obj)->rules_text;

    /* NULL only after an incoming migration that failed */
    return g_strdup(text ? text : "");
}

typedef struct TrafficNewRules {
    const TrafficRules *rules;
    const char *text;
} TrafficNewRules;

static void apply_rules(HisiTraffic *t, const void *opaque)
{
    const TrafficNewRules *nr = opaque;

    t->rules = *nr->rules;
    g_free(t->rules_text);
    t->rules_text = g_strdup(nr->text);
    t->rules_len = strlen(t->rules_text) + 1;
}

/* The message quotes the faulty piece of @text whole, however long. */
static bool traffic_parse_rules(TrafficRules *rules, const char *text,
                                Error **errp)
{
    size_t errlen = strlen(text) + TRAFFIC_RULES_ERROR_LEN;
    g_autofree char *err = g_malloc(errlen);

    if (!model_traffic_rules_parse(rules, text, err, errlen)) {
        error_setg(errp, "hisi-traffic: rules: %s", err);
        return false;
    }
    return true;
}

static void traffic_set_rules(Object *obj, const char *value, Error **errp)
{
    HisiTraffic *t = HISI_TRAFFIC(obj);
    g_autofree TrafficRules *rules = g_new0(TrafficRules, 1);
    TrafficNewRules nr = { .rules = rules, .text = value };

    if (traffic_parse_rules(rules, value, errp)) {
        traffic_change(t, apply_rules, &nr);
    }
}

static bool traffic_get_paused(Object *obj, Error **errp)
{
    return HISI_TRAFFIC(obj)->paused;
}

static void apply_paused(HisiTraffic *t, const void *opaque)
{
    t->paused = *(const bool *)opaque;
}

static void traffic_set_paused(Object *obj, bool value, Error **errp)
{
    HisiTraffic *t = HISI_TRAFFIC(obj);

    /* Pausing or resuming by hand ends a running burst. */
    timer_del(t->burst_timer);
    traffic_change(t, apply_paused, &value);
}

static void traffic_burst_end(void *opaque)
{
    HisiTraffic *t = opaque;
    const bool paused = true;

    /*
     * Exactly at the end: the clock may have warped past it (-icount),
     * though not before a change that came after it.
     */
    traffic_change_at(t, MAX(t->epoch,
                             MIN(t->burst_end,
                                 qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL))),
                      apply_paused, &paused);
}

static void traffic_get_burst(Object *obj, Visitor *v, const char *name,
                              void *opaque, Error **errp)
{
    HisiTraffic *t = HISI_TRAFFIC(obj);
    uint64_t left = 0;

    if (timer_pending(t->burst_timer)) {
        left = timer_expire_time_ns(t->burst_timer) -
               qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    }
    visit_type_uint64(v, name, &left, errp);
}

/*
 * Run the traffic for exactly @value ns of virtual time from now, then
 * pause it: a known amount of traffic, whatever the guest does meanwhile
 * (the differential test of the guest drivers counts the same burst with
 * each driver set).
 */
static void traffic_set_burst(Object *obj, Visitor *v, const char *name,
                              void *opaque, Error **errp)
{
    const bool paused = false;
    HisiTraffic *t = HISI_TRAFFIC(obj);
    uint64_t ns;

    if (!visit_type_uint64(v, name, &ns, errp)) {
        return;
    }
    if (ns == 0 || ns > INT64_MAX / 2) {
        error_setg(errp, "hisi-traffic: burst-ns must be 1..%" PRId64
                   " (got %" PRIu64 ")", INT64_MAX / 2, ns);
        return;
    }
    traffic_change(t, apply_paused, &paused);
    t->burst_end = t->epoch + ns;
    timer_mod(t->burst_timer, t->burst_end);
}

static void traffic_get_seed(Object *obj, Visitor *v, const char *name,
                             void *opaque, Error **errp)
{
    visit_type_uint64(v, name, &HISI_TRAFFIC(obj)->seed, errp);
}

static void apply_seed(HisiTraffic *t, const void *opaque)
{
    t->seed = *(const uint64_t *)opaque;
}

static void traffic_set_seed(Object *obj, Visitor *v, const char *name,
                             void *opaque, Error **errp)
{
    uint64_t seed;

    if (visit_type_uint64(v, name, &seed, errp)) {
        traffic_change(HISI_TRAFFIC(obj), apply_seed, &seed);
    }
}

static int traffic_get_source(Object *obj, Error **errp)
{
    return HISI_TRAFFIC(obj)->source;
}

static void traffic_set_source(Object *obj, int value, Error **errp)
{
    HisiTraffic *t = HISI_TRAFFIC(obj);

    /* The tap goes on the root ports as they are realized. */
    if (t->hotplug.realize) {
        error_setg(errp, "hisi-traffic: source can only be set when the "
                   "object is created (-object hisi-traffic,source=...)");
        return;
    }
    t->source = value;
}

static void traffic_get_epoch(Object *obj, Visitor *v, const char *name,
                              void *opaque, Error **errp)
{
    visit_type_int64(v, name, &HISI_TRAFFIC(obj)->epoch, errp);
}

static void traffic_free_nics(HisiTraffic *t)
{
    for (int i = 0; i < t->n_nics; i++) {
        g_free(t->nics[i].phase);
    }
    g_clear_pointer(&t->nics, g_free);
    t->n_nics = 0;
}

static int traffic_pre_load(void *opaque)
{
    HisiTraffic *t = opaque;

    /* The stream's fields come in fresh memory (VMS_ALLOC) */
    g_clear_pointer(&t->rules_text, g_free);
    t->rules_len = 0;
    g_clear_pointer(&t->cores, g_free);
    g_clear_pointer(&t->eps, g_free);
    t->n_cores = 0;
    t->n_eps = 0;
    traffic_free_nics(t);
    g_clear_pointer(&t->rings, g_free);
    t->n_rings = 0;
    return 0;
}

static int traffic_post_load(void *opaque, int version_id)
{
    HisiTraffic *t = opaque;

    if (!t->rules_len || t->rules_text[t->rules_len - 1] ||
        !traffic_parse_rules(&t->rules, t->rules_text, NULL)) {
        return -EINVAL;
    }
    for (int i = 0; i < t->n_nics; i++) {
        /* RoCE's two streams at least */
        if (t->nics[i].n_phase < 2) {
            return -EINVAL;
        }
    }
    /* The rings came in fresh memory, without the flits they keep */
    for (int i = 0; i < t->n_rings; i++) {
        t->rings[i].has_flits = false;
    }
    return 0;
}

static bool traffic_burst_needed(void *opaque)
{
    HisiTraffic *t = opaque;

    return timer_pending(t->burst_timer);
}

static const VMStateDescription vmstate_hisi_traffic_burst = {
    .name = TYPE_HISI_TRAFFIC "/burst",
    .version_id = 2,
    .minimum_version_id = 2,
    .needed = traffic_burst_needed,
    .fields = (const VMStateField[]) {
        VMSTATE_TIMER_PTR(burst_timer, HisiTraffic),
        VMSTATE_INT64(burst_end, HisiTraffic),
        VMSTATE_END_OF_LIST()
    },
};

static const VMStateDescription vmstate_traffic_core = {
    .name = TYPE_HISI_TRAFFIC "/core",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT16(port_min, TrafficTunedCore),
        VMSTATE_UINT16(port_max, TrafficTunedCore),
        VMSTATE_UINT8_ARRAY(tune.level, TrafficTunedCore,
                            TRAFFIC_TUNE_EVENTS),
        VMSTATE_END_OF_LIST()
    },
};

static const VMStateDescription vmstate_traffic_phase = {
    .name = TYPE_HISI_TRAFFIC "/phase",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_INT64(t, TrafficPhase),
        VMSTATE_UINT64(k, TrafficPhase),
        VMSTATE_UINT32(left, TrafficPhase),
        VMSTATE_END_OF_LIST()
    },
};

static const VMStateDescription vmstate_traffic_endpoint = {
    .name = TYPE_HISI_TRAFFIC "/endpoint",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT16(ep, TrafficEndpoint),
        VMSTATE_UINT16(port, TrafficEndpoint),
        VMSTATE_STRUCT_ARRAY(phase, TrafficEndpoint, TRAFFIC_ENDPOINT_STREAMS,
                             1, vmstate_traffic_phase, TrafficPhase),
        VMSTATE_END_OF_LIST()
    },
};

static const VMStateDescription vmstate_traffic_nic_function = {
    .name = TYPE_HISI_TRAFFIC "/nic-function",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT16(func, TrafficNicFunction),
        VMSTATE_UINT16(port, TrafficNicFunction),
        VMSTATE_INT64(plugged, TrafficNicFunction),
        VMSTATE_INT32(n_phase, TrafficNicFunction),
        VMSTATE_STRUCT_VARRAY_ALLOC(phase, TrafficNicFunction, n_phase, 1,
                                    vmstate_traffic_phase, TrafficPhase),
        VMSTATE_END_OF_LIST()
    },
};

static const VMStateDescription vmstate_traffic_ring_node = {
    .name = TYPE_HISI_TRAFFIC "/ring-node",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT8(node, TrafficRingNode),
        VMSTATE_UINT8(type, TrafficRingNode),
        VMSTATE_STRUCT_ARRAY(phase, TrafficRingNode, RING_NODE_STREAMS, 1,
                             vmstate_traffic_phase, TrafficPhase),
        VMSTATE_END_OF_LIST()
    },
};

static const VMStateDescription vmstate_hisi_traffic = {
    .name = TYPE_HISI_TRAFFIC,
    .version_id = 3,
    .minimum_version_id = 3,
    .pre_load = traffic_pre_load,
    .post_load = traffic_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT64(seed, HisiTraffic),
        VMSTATE_UINT32(rules_len, HisiTraffic),
        VMSTATE_VBUFFER_ALLOC_UINT32(rules_text, HisiTraffic, 0, NULL,
                                     rules_len),
        VMSTATE_BOOL(paused, HisiTraffic),
        VMSTATE_INT64(epoch, HisiTraffic),
        VMSTATE_INT32(n_cores, HisiTraffic),
        VMSTATE_STRUCT_VARRAY_ALLOC(cores, HisiTraffic, n_cores, 1,
                                    vmstate_traffic_core, TrafficTunedCore),
        VMSTATE_INT32(n_eps, HisiTraffic),
        VMSTATE_STRUCT_VARRAY_ALLOC(eps, HisiTraffic, n_eps, 1,
                                    vmstate_traffic_endpoint,
                                    TrafficEndpoint),
        VMSTATE_INT32(n_nics, HisiTraffic),
        VMSTATE_STRUCT_VARRAY_ALLOC(nics, HisiTraffic, n_nics, 1,
                                    vmstate_traffic_nic_function,
                                    TrafficNicFunction),
        VMSTATE_INT32(n_rings, HisiTraffic),
        VMSTATE_STRUCT_VARRAY_ALLOC(rings, HisiTraffic, n_rings, 1,
                                    vmstate_traffic_ring_node,
                                    TrafficRingNode),
        VMSTATE_END_OF_LIST()
    },
    .subsections = (const VMStateDescription * const []) {
        &vmstate_hisi_traffic_burst,
        NULL
    },
};

static void traffic_instance_init(Object *obj)
{
    HisiTraffic *t = HISI_TRAFFIC(obj);

    t->rules_text = g_strdup("");
    t->rules_len = 1;
    notifier_list_init(&t->change_notifiers);
    notifier_list_init(&t->real_notifiers);
    t->burst_timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, traffic_burst_end, t);
}

static void traffic_complete(UserCreatable *uc, Error **errp)
{
    HisiTraffic *t = HISI_TRAFFIC(uc);

    if (t->source != HISI_TRAFFIC_SOURCE_SYNTHETIC) {
        t->tap = hisi_tap_new(OBJECT(t), traffic_real_tlps, t, errp);
        if (!t->tap) {
            return;
        }
    }
    vmstate_register_any(VMSTATE_IF(NULL), &vmstate_hisi_traffic, t);
    t->hotplug.realize = traffic_device_realize;
    t->hotplug.unrealize = traffic_device_unrealize;
    device_listener_register(&t->hotplug);
}

static void traffic_instance_finalize(Object *obj)
{
    HisiTraffic *t = HISI_TRAFFIC(obj);

    vmstate_unregister(VMSTATE_IF(NULL), &vmstate_hisi_traffic, t);
    if (t->hotplug.realize) {
        device_listener_unregister(&t->hotplug);
    }
    timer_free(t->burst_timer);
    g_free(t->rules_text);
    g_free(t->cores);
    g_free(t->eps);
    traffic_free_nics(t);
    g_free(t->rings);
}

/* The buses keep the tap, and with it the object. */
static bool traffic_can_be_deleted(UserCreatable *uc)
{
    return !HISI_TRAFFIC(uc)->tap;
}

HisiTraffic *hisi_traffic_default(void)
{
    Object *machine = qdev_get_machine();
    Object *obj = object_resolve_path_component(machine,
                                                HISI_TRAFFIC_DEFAULT_NAME);

    if (!obj) {
        obj = object_new(TYPE_HISI_TRAFFIC);
        object_property_add_child(machine, HISI_TRAFFIC_DEFAULT_NAME, obj);
        object_unref(obj);
        traffic_complete(USER_CREATABLE(obj), &error_abort);
    }
    return HISI_TRAFFIC(obj);
}

static void traffic_class_init(ObjectClass *oc, HisiClassData *data)
{
    UserCreatableClass *ucc = USER_CREATABLE_CLASS(oc);

    ucc->complete = traffic_complete;
    ucc->can_be_deleted = traffic_can_be_deleted;
    object_class_property_add_enum(oc, "source", "HisiTrafficSource",
                                   &HisiTrafficSource_lookup,
                                   traffic_get_source,
                                   traffic_set_source);
    object_class_property_set_description(oc, "source",
        "Where the PCIe TLPs come from: synthetic (the built-in profile and "
        "the rules), real (the DMA of the PCI functions below the PCIe root "
        "ports, docs/devices/traffic.md) or mixed (both); the NIC and ring "
        "traffic stay synthetic (default: synthetic)");
    object_class_property_add_str(oc, "rules", traffic_get_rules,
                                  traffic_set_rules);
    object_class_property_set_description(oc, "rules",
        "Changes to the built-in traffic: rule[;rule...], rule = "
        "field[,field...] of ep=BB:DD.F, port=BB:DD.F, node=0-255, "
        "stream=NAME|all|nic-all|ring-all (required), rate=0-10000000000 "
        "per s, len=N[-N] (PCIe 1-1024 DWs, NIC 1-65535 bytes), "
        "latency=0-1000000000 ns, coalesce=1-65535; later rules win "
        "(default: \"\", none)");
    object_class_property_add_bool(oc, "paused", traffic_get_paused,
                                   traffic_set_paused);
    object_class_property_set_description(oc, "paused",
        "No traffic at all while on; setting it ends a running burst "
        "(default: off)");
    object_class_property_add(oc, "burst-ns", "uint64", traffic_get_burst,
                              traffic_set_burst, NULL, NULL);
    object_class_property_set_description(oc, "burst-ns",
        "Run time only (qom-set): N in 1-4611686018427387903 runs the "
        "traffic for N ns of virtual time from now, then pauses it; "
        "reads the ns left of the running burst, 0 when none");
    object_class_property_add(oc, "seed", "uint64", traffic_get_seed,
                              traffic_set_seed, NULL, NULL);
    object_class_property_set_description(oc, "seed",
        "Seed of the TLP, packet and flit length patterns, 64 bits "
        "(default: 0)");
    object_class_property_add(oc, "epoch-ns", "int64", traffic_get_epoch,
                              NULL, NULL, NULL);
    object_class_property_set_description(oc, "epoch-ns",
        "Virtual time in ns of the last change of the traffic "
        "(read-only)");
}

static const TypeInfo hisi_traffic_info = {
    .name = TYPE_HISI_TRAFFIC,
    .parent = TYPE_OBJECT,
    .instance_size = sizeof(HisiTraffic),
    .instance_init = traffic_instance_init,
    .instance_finalize = traffic_instance_finalize,
    .class_init = traffic_class_init,
    .interfaces = (InterfaceInfo[]) {
        { TYPE_USER_CREATABLE },
        { }
    },
};

static void hisi_traffic_register_types(void)
{
    type_register_static(&hisi_traffic_info);
}

type_init(hisi_traffic_register_types)
