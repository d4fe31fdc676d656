/*
 * hisi-traffic: the synthetic traffic the HiSilicon uncore models observe
 *
 * One object holds what the traffic is: the seed, the rules that change
 * the built-in per-endpoint profiles (model/traffic-rules.h), whether it
 * is paused (or runs for a burst of a set length), the tuning of each PCIe
 * core (the root ports of one PTT), where each endpoint's streams stand
 * (so that a change goes on from there instead of restarting them), and
 * the virtual time of the last change. Devices that observe it
 * (hisi-ptt, and the PMUs) get the PCIe streams of each endpoint, the NIC
 * streams of each function, or the ring streams of each CCN node from it,
 * and are told before and after every change, so that what they trace and
 * count stays continuous. Changes come from QMP (qom-set of "rules",
 * "paused", "burst-ns", "seed") and from the PTT's tuning.
 *
 * -object hisi-traffic,id=t0,seed=7,rules="stream=dma-write,rate=400000"
 * -device hisi-ptt,traffic=t0
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "qemu/timer.h"
#include "qom/object_interfaces.h"
#include "hw/boards.h"
#include "migration/vmstate.h"
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

struct HisiTraffic {
    Object parent_obj;

    uint64_t seed;
    char *rules_text;
    uint32_t rules_len;         /* strlen(rules_text) + 1, for migration */
    TrafficRules rules;
    bool paused;
    /* Pauses the traffic at the end of a burst (see traffic_set_burst) */
    QEMUTimer *burst_timer;
    int64_t epoch;              /* ns: when the traffic last changed */
    TrafficTunedCore *cores;    /* the cores tuned since the start */
    int32_t n_cores;
    TrafficEndpoint *eps;       /* the endpoints seen since the start */
    int32_t n_eps;
    NotifierList change_notifiers;
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
    if (t->paused) {
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

/* Run @apply(@t, @opaque) as a change of the traffic at the current time */
static void traffic_change(HisiTraffic *t,
                           void (*apply)(HisiTraffic *, const void *),
                           const void *opaque)
{
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    g_autofree TrafficStream *old = NULL;
    int32_t n;

    traffic_notify(t, now, false);
    /* Observers may have met new endpoints while they accounted. */
    n = t->n_eps;
    old = g_new(TrafficStream, n * TRAFFIC_ENDPOINT_STREAMS);
    /* The address windows do not matter here, only the flows. */
    for (int i = 0; i < n; i++) {
        traffic_build(t, &old[i * TRAFFIC_ENDPOINT_STREAMS], &t->eps[i], 0,
                      TRAFFIC_ADDR_STRIDE);
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
    t->epoch = now;
    trace_hisi_traffic_change(now);
    traffic_notify(t, now, true);
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

void hisi_traffic_remove_change_notifier(Notifier *n)
{
    notifier_remove(n);
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
    NicSpec spec[NIC_KINDS];

    model_nic_profile_default(spec);
    model_traffic_rules_apply_nic(&t->rules, func, port, spec);
    if (t->paused) {
        for (int i = 0; i < NIC_KINDS; i++) {
            spec[i].rate = 0;
        }
    }
    return model_nic_function_streams(out, t->seed, spec, func, mac_port,
                                      queues, tcs, t->epoch);
}

void hisi_traffic_ring_streams(HisiTraffic *t, RingStream *out, uint8_t node,
                               uint8_t type)
{
    RingSpec spec;

    model_ring_profile_default(type, &spec);
    model_traffic_rules_apply_ring(&t->rules, node, &spec);
    if (t->paused) {
        memset(&spec, 0, sizeof(spec));
    }
    model_ring_node_streams(out, t->seed, &spec, node, type, t->epoch);
}

static char *traffic_get_rules(Object *obj, Error **errp)
{
    return g_strdup(HISI_TRAFFIC(obj)->rules_text);
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

static void traffic_set_rules(Object *obj, const char *value, Error **errp)
{
    HisiTraffic *t = HISI_TRAFFIC(obj);
    g_autofree TrafficRules *rules = g_new0(TrafficRules, 1);
    TrafficNewRules nr = { .rules = rules, .text = value };
    char err[256];

    if (!model_traffic_rules_parse(rules, value, err, sizeof(err))) {
        error_setg(errp, "hisi-traffic: rules: %s", err);
        return;
    }
    traffic_change(t, apply_rules, &nr);
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
    const bool paused = true;

    traffic_change(opaque, apply_paused, &paused);
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
    timer_mod(t->burst_timer, t->epoch + ns);
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

static void traffic_get_epoch(Object *obj, Visitor *v, const char *name,
                              void *opaque, Error **errp)
{
    visit_type_int64(v, name, &HISI_TRAFFIC(obj)->epoch, errp);
}

static int traffic_pre_load(void *opaque)
{
    HisiTraffic *t = opaque;

    g_clear_pointer(&t->cores, g_free);
    g_clear_pointer(&t->eps, g_free);
    t->n_cores = 0;
    t->n_eps = 0;
    return 0;
}

static int traffic_post_load(void *opaque, int version_id)
{
    HisiTraffic *t = opaque;
    char err[256];

    if (!t->rules_len || t->rules_text[t->rules_len - 1] ||
        !model_traffic_rules_parse(&t->rules, t->rules_text, err,
                                   sizeof(err))) {
        return -EINVAL;
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
    .version_id = 1,
    .minimum_version_id = 1,
    .needed = traffic_burst_needed,
    .fields = (const VMStateField[]) {
        VMSTATE_TIMER_PTR(burst_timer, HisiTraffic),
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

static const VMStateDescription vmstate_hisi_traffic = {
    .name = TYPE_HISI_TRAFFIC,
    .version_id = 2,
    .minimum_version_id = 2,
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
    t->burst_timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, traffic_burst_end, t);
}

static void traffic_complete(UserCreatable *uc, Error **errp)
{
    HisiTraffic *t = HISI_TRAFFIC(uc);

    vmstate_register_any(VMSTATE_IF(NULL), &vmstate_hisi_traffic, t);
}

static void traffic_instance_finalize(Object *obj)
{
    HisiTraffic *t = HISI_TRAFFIC(obj);

    vmstate_unregister(VMSTATE_IF(NULL), &vmstate_hisi_traffic, t);
    timer_free(t->burst_timer);
    g_free(t->rules_text);
    g_free(t->cores);
    g_free(t->eps);
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

static void traffic_class_init(ObjectClass *oc, void *data)
{
    UserCreatableClass *ucc = USER_CREATABLE_CLASS(oc);

    ucc->complete = traffic_complete;
    object_class_property_add_str(oc, "rules", traffic_get_rules,
                                  traffic_set_rules);
    object_class_property_set_description(oc, "rules",
        "changes to the per-endpoint traffic, e.g. "
        "stream=dma-write,rate=400000;ep=01:00.0,stream=all,rate=0");
    object_class_property_add_bool(oc, "paused", traffic_get_paused,
                                   traffic_set_paused);
    object_class_property_set_description(oc, "paused",
        "no traffic while true");
    object_class_property_add(oc, "burst-ns", "uint64", traffic_get_burst,
                              traffic_set_burst, NULL, NULL);
    object_class_property_set_description(oc, "burst-ns",
        "set N: run the traffic for N ns of virtual time, then pause it; "
        "reads the ns left of the running burst");
    object_class_property_add(oc, "seed", "uint64", traffic_get_seed,
                              traffic_set_seed, NULL, NULL);
    object_class_property_set_description(oc, "seed",
        "seed of the TLP lengths");
    object_class_property_add(oc, "epoch-ns", "int64", traffic_get_epoch,
                              NULL, NULL, NULL);
    object_class_property_set_description(oc, "epoch-ns",
        "virtual time of the last change of the traffic");
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
