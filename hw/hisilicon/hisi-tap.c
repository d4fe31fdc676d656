/*
 * hisi-tap: the real traffic of the PCI functions below PCIe root ports, as
 * the TLPs that would carry it.
 *
 * DMA. Each root port's secondary bus gets PCI IOMMU ops (pci_setup_iommu)
 * that give every requester below it (a function, or the PCIe-to-PCI
 * bridge QEMU hands the requester ID of the functions behind it) an
 * address space of its own, an alias of system memory: the DMA goes to RAM
 * directly, observed or not. While someone observes, an AddressSpace
 * observer on each function's bus master address space sees its accesses
 * as the device model makes them: a dma_memory_map() of 64 KiB is one
 * access, read when mapped, written when unmapped (with the length the
 * model wrote). The accesses of one requester that follow each other in
 * memory make one transfer, at the time of its first, which the PCIe model
 * cuts into TLPs by the function's Max_Payload_Size and
 * Max_Read_Request_Size (model_pcie_link_mem()). Without -icount the
 * virtual clock runs on between the accesses of one DMA. A transfer is
 * given out when another access does not continue it, when a consumer
 * flushes (before it accounts for time after it) or from a bottom half at
 * the latest, so it never spans more than a turn of the main loop.
 *
 * The CPU's accesses. The memory and I/O spaces of the secondary bus, where
 * the functions below map their BARs, move into containers of the tap's;
 * the bridge's own containers, which its windows alias, hold an alias of
 * them and, above it and again enabled only while observing, an I/O
 * region that forwards each access and notes it as the root port's
 * request to the function that claims the address. Configuration
 * accesses to the functions below go through their config_read and
 * config_write hooks, which the tap wraps as they are plugged.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qemu/bitops.h"
#include "qemu/bswap.h"
#include "qemu/main-loop.h"
#include "qemu/timer.h"
#include "hisi-compat.h"
#include HISI_ADDRESS_SPACES_H
#include HISI_QDEV_CORE_H
#include "migration/vmstate.h"
#include "system/runstate.h"
#include "system/system.h"
#include "hw/pci/pci_bridge.h"
#include "hw/pci/pci_bus.h"
#include "hw/pci/pcie_regs.h"
#include "trace.h"
#include "hisi-tap.h"
#include "model/pcie-link.h"

/*
 * What an observing I/O region does with each access: @note(@opaque, ...)
 * sees it, then it goes on to @as with its attributes.
 */
typedef void TapNoteFn(void *opaque, bool write, hwaddr addr, unsigned size);

typedef struct TapForward {
    AddressSpace *as;
    TapNoteFn *note;
    void *opaque;
} TapForward;

/* A requester below a root port and its DMA address space */
typedef struct TapFunction {
    HisiTap *tap;
    PCIBus *bus;            /* NULL: unplugged, its space free */
    int devfn;
    MemoryRegion root;
    MemoryRegion direct;    /* system memory */
    AddressSpace as;
    uint8_t tag;            /* of its next read request */
} TapFunction;

/* A buffer a device model mapped for writing and has not unmapped yet */
typedef struct TapMapping {
    void *buffer;
    hwaddr addr;
} TapMapping;

/* What observes a PCI function's DMA, its requester's, while observing */
typedef struct TapObserver {
    struct rcu_head rcu;
    AddressSpaceObserver obs;
    PCIDevice *dev;
    TapFunction *f;         /* NULL: the function left */
    GArray *writes;         /* of TapMapping */
} TapObserver;

typedef struct TapPort TapPort;

/* A space of a root port's secondary bus, as the CPU reaches it */
typedef struct TapWindow {
    TapPort *port;
    bool io;
    MemoryRegion bus_space; /* where the functions below map their BARs */
    MemoryRegion direct;    /* the bus space, at full speed */
    MemoryRegion observed;  /* the bus space, each access noted */
    TapForward forward;
    AddressSpace as;        /* over the bus space */
} TapWindow;

struct TapPort {
    HisiTap *tap;
    PCIDevice *dev;
    TapWindow mem, io;
    uint8_t tag;            /* of its next non-posted request */
};

/* The tag of a requester's next non-posted request, as migrated */
typedef struct TapTag {
    uint16_t requester;     /* BDF */
    uint8_t tag;
} TapTag;

/* The accesses so far of a transfer that may still grow */
typedef struct TapTransfer {
    TapFunction *f;         /* NULL: none */
    bool write;
    uint64_t addr;
    uint64_t len;
    int64_t now;
} TapTransfer;

struct HisiTap {
    Object *owner;
    HisiTapFn *fn;
    void *opaque;
    GPtrArray *functions;
    GPtrArray *ports;
    GPtrArray *observers;   /* of TapObserver */
    HisiRealTlp *tlps;      /* the transfer being cut: n_tlps of max_tlps */
    unsigned n_tlps, max_tlps;
    bool observing;
    TapTransfer pending;
    QEMUBH *bh;
    QEMUBH *observe_bh;     /* observe the functions just plugged */
    Notifier machine_done;
    int32_t n_tags;         /* migration only: the requesters' tags */
    TapTag *tags;
};

/*
 * The configuration hooks of a function below a root port (or of the port
 * itself), which the tap wraps. QEMU calls them without an opaque, so the
 * tap finds them by the function.
 */
typedef struct TapConfig {
    TapPort *port;          /* NULL: the root port itself */
    PCIConfigReadFunc *read;
    PCIConfigWriteFunc *write;
} TapConfig;

static GHashTable *tap_configs;
/*
 * The one tap: a second would wrap the first one's hooks, and its own
 * entries in tap_configs would replace the first one's, whose hooks would
 * then call themselves.
 */
static HisiTap *tap_one;
/*
 * Configuration accesses under way: a hook that reads another function's
 * registers (a downstream port syncing its Link Status from the function
 * below) does so inside QEMU, not on the link.
 */
static unsigned tap_config_depth;

/* The root port above @bus: the bridge whose own bus is a root bus */
static PCIDevice *tap_root_port(PCIBus *bus)
{
    PCIDevice *bridge = bus->parent_dev;

    while (bridge && !pci_bus_is_root(pci_get_bus(bridge))) {
        bridge = pci_get_bus(bridge)->parent_dev;
    }
    return bridge;
}

static TapPort *tap_port_of(HisiTap *tap, PCIDevice *dev)
{
    for (guint i = 0; i < tap->ports->len; i++) {
        TapPort *p = g_ptr_array_index(tap->ports, i);

        if (p->dev == dev) {
            return p;
        }
    }
    return NULL;
}

/*
 * @dev's link settings: Device Control's sizes, or the defaults of a
 * function without a PCIe capability (or an alias of functions behind a
 * PCIe-to-PCI bridge, which QEMU hands the bridge's requester ID)
 */
static void tap_link_sizes(PCIDevice *dev, PcieLink *link)
{
    uint8_t exp = dev ? pci_find_capability(dev, PCI_CAP_ID_EXP) : 0;

    link->mps = PCIE_LINK_MPS_DEFAULT;
    link->mrrs = PCIE_LINK_MRRS_DEFAULT;
    if (exp) {
        uint16_t ctl = pci_get_word(dev->config + exp + PCI_EXP_DEVCTL);

        link->mps = model_pcie_link_size(extract16(ctl, 5, 3));
        link->mrrs = model_pcie_link_size(extract16(ctl, 12, 3));
    }
}

/* One more TLP of the transfer being cut (millions a second: no call) */
static void tap_emit(void *opaque, const PcieTlp *tlp, bool inbound,
                     uint32_t payload)
{
    HisiTap *tap = opaque;

    if (tap->n_tlps == tap->max_tlps) {
        tap->max_tlps = MAX(tap->max_tlps * 2, 64);
        tap->tlps = g_renew(HisiRealTlp, tap->tlps, tap->max_tlps);
    }
    tap->tlps[tap->n_tlps++] = (HisiRealTlp) {
        .tlp = *tlp,
        .dir = inbound ? TRAFFIC_INBOUND : TRAFFIC_OUTBOUND,
        .kind = model_pcie_tlp_type(tlp) == TLP_TYPE_CPL ? TRAFFIC_COMPLETION :
                model_pcie_tlp_type(tlp) == TLP_TYPE_MEM &&
                model_pcie_tlp_has_data(tlp) ? TRAFFIC_POSTED :
                TRAFFIC_NON_POSTED,
        .payload = payload,
    };
}

/* Give out the TLPs of the transfer cut, at once */
static void tap_emit_done(HisiTap *tap, PCIDevice *port, uint16_t requester,
                          int64_t now)
{
    HisiRealTlps tlps = {
        .now = now, .port = port, .requester = requester,
        .tlp = tap->tlps, .n = tap->n_tlps,
    };

    tap->n_tlps = 0;
    if (tlps.n) {
        tap->fn(tap->opaque, &tlps);
    }
}

void hisi_tap_flush(HisiTap *tap)
{
    TapTransfer p = tap->pending;
    PCIDevice *port;
    PcieLink link;

    if (!p.f) {
        return;
    }
    tap->pending.f = NULL;
    port = tap_root_port(p.f->bus);
    link = (PcieLink) {
        .requester = PCI_BUILD_BDF(pci_bus_num(p.f->bus), p.f->devfn),
        .completer = pci_get_bdf(port),
    };
    tap_link_sizes(p.f->bus->devices[p.f->devfn], &link);
    trace_hisi_tap_transfer(link.requester, p.write, p.addr, p.len, p.now);
    model_pcie_link_mem(&link, p.write, p.addr, p.len, &p.f->tag, tap_emit,
                        tap);
    tap_emit_done(tap, port, link.requester, p.now);
}

static void tap_bh(void *opaque)
{
    hisi_tap_flush(opaque);
}

/* @len bytes of @o's DMA, read or written, with the BQL held */
static void tap_note(TapObserver *o, bool write, hwaddr addr, uint64_t len)
{
    TapFunction *f = o->f;
    HisiTap *tap;
    TapTransfer *p;

    /* A function that left, or the bus master bit off: no TLP */
    if (!f || !len || !o->dev->bus_master_enable_region.enabled) {
        return;
    }
    tap = f->tap;
    p = &tap->pending;
    if (p->f == f && p->write == write && p->addr + p->len == addr) {
        p->len += len;
        return;
    }
    hisi_tap_flush(tap);
    *p = (TapTransfer) {
        .f = f, .write = write, .addr = addr, .len = len,
        .now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL),
    };
    qemu_bh_schedule(tap->bh);
}

/*
 * The observer's calls come from the thread that makes the access (an
 * IOThread's, say), with or without the BQL: the tap runs under it.
 */
static void tap_observe_access(AddressSpaceObserver *obs, hwaddr addr,
                               hwaddr len, bool is_write, MemTxAttrs attrs)
{
    BQL_LOCK_GUARD();
    tap_note(container_of(obs, TapObserver, obs), is_write, addr, len);
}

/*
 * A buffer mapped for reading is read now; one mapped for writing is
 * written when unmapped, by as much as the model wrote.
 */
static void tap_observe_map(AddressSpaceObserver *obs, hwaddr addr,
                            hwaddr len, bool is_write, MemTxAttrs attrs,
                            void *buffer)
{
    TapObserver *o = container_of(obs, TapObserver, obs);
    TapMapping m = { .buffer = buffer, .addr = addr };

    BQL_LOCK_GUARD();
    trace_hisi_tap_map(pci_requester_id(o->dev), is_write, addr, len, buffer);
    if (is_write) {
        g_array_append_val(o->writes, m);
    } else {
        tap_note(o, false, addr, len);
    }
}

static void tap_observe_unmap(AddressSpaceObserver *obs, void *buffer,
                              bool is_write, hwaddr access_len)
{
    TapObserver *o = container_of(obs, TapObserver, obs);

    BQL_LOCK_GUARD();
    trace_hisi_tap_unmap(pci_requester_id(o->dev), is_write, access_len,
                         buffer);
    if (!is_write) {
        return;
    }
    /* Models unmap in the order they map: the first match is soon found. */
    for (guint i = 0; i < o->writes->len; i++) {
        TapMapping *m = &g_array_index(o->writes, TapMapping, i);

        if (m->buffer == buffer) {
            hwaddr addr = m->addr;

            g_array_remove_index(o->writes, i);
            tap_note(o, true, addr, access_len);
            return;
        }
    }
}

static MemTxResult tap_forward_read(void *opaque, hwaddr addr,
                                    uint64_t *data, unsigned size,
                                    MemTxAttrs attrs)
{
    TapForward *fw = opaque;
    uint8_t buf[8];
    MemTxResult res;

    fw->note(fw->opaque, false, addr, size);
    res = address_space_read(fw->as, addr, attrs, buf, size);
    *data = ldn_le_p(buf, size);
    return res;
}

static MemTxResult tap_forward_write(void *opaque, hwaddr addr,
                                     uint64_t data, unsigned size,
                                     MemTxAttrs attrs)
{
    TapForward *fw = opaque;
    uint8_t buf[8];

    fw->note(fw->opaque, true, addr, size);
    stn_le_p(buf, size, data);
    return address_space_write(fw->as, addr, attrs, buf, size);
}

static const MemoryRegionOps tap_forward_ops = {
    .read_with_attrs = tap_forward_read,
    .write_with_attrs = tap_forward_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid.min_access_size = 1,
    .valid.max_access_size = 8,
    .valid.unaligned = true,
    .impl.min_access_size = 1,
    .impl.max_access_size = 8,
    .impl.unaligned = true,
};

/*
 * The root port's request to @target, completed by it: after the DMA seen
 * so far, at the time of the access. @type is TLP_TYPE_MEM, _IO, _CFG0 or
 * _CFG1.
 */
static void tap_request(TapPort *p, PCIDevice *target, unsigned type,
                        bool write, uint64_t addr, unsigned size)
{
    HisiTap *tap = p->tap;
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    PcieLink link = {
        .requester = pci_get_bdf(p->dev),
        .completer = pci_get_bdf(target),
        .downstream = true,
    };

    hisi_tap_flush(tap);
    trace_hisi_tap_request(link.requester, link.completer, type, write, addr,
                           size, now);
    if (type == TLP_TYPE_MEM) {
        tap_link_sizes(target, &link);
        model_pcie_link_mem(&link, write, addr, size, &p->tag, tap_emit, tap);
    } else {
        model_pcie_link_dw(&link, type, write, addr, size, &p->tag, tap_emit,
                           tap);
    }
    tap_emit_done(tap, p->dev, link.requester, now);
}

/*
 * The function below the port whose BAR holds @addr of @w; NULL: none.
 * (address_space_translate, not memory_region_find: that one searches an
 * empty memory map, a window with no BAR in it, with a NULL array.)
 */
static PCIDevice *tap_claimant(TapWindow *w, hwaddr addr)
{
    MemoryRegion *mr;
    hwaddr xlat, len = 1;

    RCU_READ_LOCK_GUARD();
    mr = address_space_translate(&w->as, addr, &xlat, &len, false,
                                 MEMTXATTRS_UNSPECIFIED);
    return (PCIDevice *)object_dynamic_cast(mr->owner, TYPE_PCI_DEVICE);
}

/* A CPU access to @w: noted when a function claims it, then forwarded */
static void tap_window_note(void *opaque, bool write, hwaddr addr,
                            unsigned size)
{
    TapWindow *w = opaque;
    PCIDevice *target = tap_claimant(w, addr);

    if (target) {
        tap_request(w->port, target, w->io ? TLP_TYPE_IO : TLP_TYPE_MEM,
                    write, addr, size);
    }
}

static AddressSpace *tap_address_space(PCIBus *bus, void *opaque, int devfn)
{
    HisiTap *tap = opaque;
    g_autofree char *name = g_strdup_printf("hisi-tap[%s:%02x.%x]",
                                            bus->qbus.name, PCI_SLOT(devfn),
                                            PCI_FUNC(devfn));
    TapFunction *f;

    for (guint i = 0; i < tap->functions->len; i++) {
        f = g_ptr_array_index(tap->functions, i);
        if (f->bus == bus && f->devfn == devfn) {
            return &f->as;
        }
    }
    /*
     * A space is never taken back from the memory core: an unplugged
     * function's serves the next one plugged at the same place (its bus
     * named the same), a new requester whose tags start from 0.
     */
    for (guint i = 0; i < tap->functions->len; i++) {
        f = g_ptr_array_index(tap->functions, i);
        if (!f->bus && !strcmp(f->as.name, name)) {
            f->bus = bus;
            f->tag = 0;
            return &f->as;
        }
    }
    f = g_new0(TapFunction, 1);
    f->tap = tap;
    f->bus = bus;
    f->devfn = devfn;
    memory_region_init(&f->root, tap->owner, name, UINT64_MAX);
    memory_region_init_alias(&f->direct, tap->owner, "direct",
                             get_system_memory(), 0, UINT64_MAX);
    memory_region_add_subregion(&f->root, 0, &f->direct);
    address_space_init(&f->as, &f->root, name);
    g_ptr_array_add(tap->functions, f);
    return &f->as;
}

static const PCIIOMMUOps tap_iommu_ops = {
    .get_address_space = tap_address_space,
};

static TapObserver *tap_observer_of(HisiTap *tap, PCIDevice *dev)
{
    for (guint i = 0; i < tap->observers->len; i++) {
        TapObserver *o = g_ptr_array_index(tap->observers, i);

        if (o->dev == dev) {
            return o;
        }
    }
    return NULL;
}

/* Observe @dev's DMA (a function below a port, realized), once */
static void tap_observe(HisiTap *tap, PCIDevice *dev)
{
    AddressSpace *as;
    TapObserver *o;

    if (tap_observer_of(tap, dev)) {
        return;
    }
    as = pci_device_iommu_address_space(dev);
    o = g_new0(TapObserver, 1);
    for (guint i = 0; i < tap->functions->len; i++) {
        TapFunction *f = g_ptr_array_index(tap->functions, i);

        if (&f->as == as) {
            o->f = f;
        }
    }
    assert(o->f);
    o->obs = (AddressSpaceObserver) {
        .access = tap_observe_access,
        .map = tap_observe_map,
        .unmap = tap_observe_unmap,
    };
    o->dev = dev;
    o->writes = g_array_new(false, false, sizeof(TapMapping));
    address_space_add_observer(&dev->bus_master_as, &o->obs);
    g_ptr_array_add(tap->observers, o);
}

static void tap_observer_free(TapObserver *o)
{
    g_array_free(o->writes, true);
    g_free(o);
}

/*
 * Stop observing @o, whose calls under way in other threads wait for the
 * BQL and then find no function
 */
static void tap_unobserve(HisiTap *tap, TapObserver *o)
{
    address_space_remove_observer(&o->dev->bus_master_as, &o->obs);
    o->f = NULL;
    g_ptr_array_remove_fast(tap->observers, o);
    call_rcu(o, tap_observer_free, rcu);
}

/* Observe the functions on @bus and on the buses behind its bridges */
static void tap_observe_bus(HisiTap *tap, PCIBus *bus)
{
    for (int devfn = 0; devfn < ARRAY_SIZE(bus->devices); devfn++) {
        PCIDevice *dev = bus->devices[devfn];

        if (!dev || !DEVICE(dev)->realized) {
            continue;
        }
        tap_observe(tap, dev);
        if (IS_PCI_BRIDGE(dev)) {
            tap_observe_bus(tap, pci_bridge_get_sec_bus(PCI_BRIDGE(dev)));
        }
    }
}

/* Observe every function below the ports not observed yet */
static void tap_observe_all(HisiTap *tap)
{
    memory_region_transaction_begin();
    for (guint i = 0; i < tap->ports->len; i++) {
        TapPort *p = g_ptr_array_index(tap->ports, i);

        tap_observe_bus(tap, pci_bridge_get_sec_bus(PCI_BRIDGE(p->dev)));
    }
    memory_region_transaction_commit();
}

static void tap_observe_bh(void *opaque)
{
    HisiTap *tap = opaque;

    if (tap->observing) {
        tap_observe_all(tap);
    }
}

/*
 * Move the secondary bus's space *@bus_space (the bridge's @bridge_space)
 * into @w, and make @bridge_space reach it through @w's regions.
 */
static void tap_window_init(TapWindow *w, TapPort *p, bool io,
                            MemoryRegion *bridge_space,
                            MemoryRegion **bus_space)
{
    Object *owner = p->tap->owner;
    uint64_t size = memory_region_size(bridge_space);
    g_autofree char *name = g_strdup_printf("hisi-tap[%s]-%s",
                                            DEVICE(p->dev)->id ?: "port",
                                            io ? "io" : "mem");

    w->port = p;
    w->io = io;
    memory_region_init(&w->bus_space, owner, name, size);
    memory_region_init_alias(&w->direct, owner, "direct", &w->bus_space, 0,
                             size);
    w->forward = (TapForward) { &w->as, tap_window_note, w };
    memory_region_init_io(&w->observed, owner, &tap_forward_ops, &w->forward,
                          "observed", size);
    memory_region_add_subregion_overlap(bridge_space, 0, &w->direct, 0);
    memory_region_add_subregion_overlap(bridge_space, 0, &w->observed, 1);
    memory_region_set_enabled(&w->observed, p->tap->observing);
    address_space_init(&w->as, &w->bus_space, name);
    *bus_space = &w->bus_space;
}

/*
 * A configuration access to @dev, whose hooks are @c: the root port's
 * request, when it is one on the link and the tap observes
 */
static void tap_config_note(TapConfig *c, PCIDevice *dev, bool write,
                            uint32_t addr, int len)
{
    PCIBus *port_bus;

    if (!c->port || !c->port->tap->observing || tap_config_depth) {
        return;
    }
    port_bus = pci_bridge_get_sec_bus(PCI_BRIDGE(c->port->dev));
    tap_request(c->port, dev, pci_get_bus(dev) == port_bus ? TLP_TYPE_CFG0 :
                TLP_TYPE_CFG1, write, addr, len);
}

static uint32_t tap_config_read(PCIDevice *dev, uint32_t addr, int len)
{
    TapConfig *c = g_hash_table_lookup(tap_configs, dev);
    uint32_t val;

    tap_config_note(c, dev, false, addr, len);
    tap_config_depth++;
    val = c->read(dev, addr, len);
    tap_config_depth--;
    return val;
}

static void tap_config_write(PCIDevice *dev, uint32_t addr, uint32_t val,
                             int len)
{
    TapConfig *c = g_hash_table_lookup(tap_configs, dev);

    tap_config_note(c, dev, true, addr, len);
    tap_config_depth++;
    c->write(dev, addr, val, len);
    tap_config_depth--;
}

/* Wrap @dev's configuration hooks; @port NULL for a root port itself */
static void tap_wrap_config(PCIDevice *dev, TapPort *port)
{
    TapConfig *c = g_new(TapConfig, 1);

    *c = (TapConfig) {
        .port = port, .read = dev->config_read, .write = dev->config_write,
    };
    if (!tap_configs) {
        tap_configs = g_hash_table_new_full(NULL, NULL, NULL, g_free);
    }
    g_hash_table_insert(tap_configs, dev, c);
    dev->config_read = tap_config_read;
    dev->config_write = tap_config_write;
}

/* The BDF of @f now: the bus numbers are the guest's */
static uint16_t tap_function_bdf(TapFunction *f)
{
    return PCI_BUILD_BDF(pci_bus_num(f->bus), f->devfn);
}

static int tap_pre_save(void *opaque)
{
    HisiTap *tap = opaque;
    guint n = 0;

    tap->tags = g_renew(TapTag, tap->tags,
                        tap->functions->len + tap->ports->len);
    for (guint i = 0; i < tap->functions->len; i++) {
        TapFunction *f = g_ptr_array_index(tap->functions, i);

        if (f->bus) {
            tap->tags[n++] = (TapTag) { tap_function_bdf(f), f->tag };
        }
    }
    for (guint i = 0; i < tap->ports->len; i++) {
        TapPort *p = g_ptr_array_index(tap->ports, i);

        tap->tags[n++] = (TapTag) { pci_get_bdf(p->dev), p->tag };
    }
    tap->n_tags = n;
    return 0;
}

/* The functions' and ports' configuration is in: their BDFs are known. */
static int tap_post_load(void *opaque, int version_id)
{
    HisiTap *tap = opaque;

    for (int32_t k = 0; k < tap->n_tags; k++) {
        const TapTag *t = &tap->tags[k];

        for (guint i = 0; i < tap->functions->len; i++) {
            TapFunction *f = g_ptr_array_index(tap->functions, i);

            if (f->bus && tap_function_bdf(f) == t->requester) {
                f->tag = t->tag;
            }
        }
        for (guint i = 0; i < tap->ports->len; i++) {
            TapPort *p = g_ptr_array_index(tap->ports, i);

            if (pci_get_bdf(p->dev) == t->requester) {
                p->tag = t->tag;
            }
        }
    }
    return 0;
}

static bool tap_n_tags_valid(void *opaque, int version_id)
{
    HisiTap *tap = opaque;

    return tap->n_tags >= 0 && tap->n_tags <= UINT16_MAX + 1;
}

static const VMStateDescription vmstate_tap_tag = {
    .name = "hisi-tap-tag",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT16(requester, TapTag),
        VMSTATE_UINT8(tag, TapTag),
        VMSTATE_END_OF_LIST()
    },
};

static const VMStateDescription vmstate_hisi_tap = {
    .name = "hisi-tap",
    .version_id = 1,
    .minimum_version_id = 1,
    .pre_save = tap_pre_save,
    .post_load = tap_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_INT32(n_tags, HisiTap),
        VMSTATE_VALIDATE("n_tags within the BDFs", tap_n_tags_valid),
        VMSTATE_STRUCT_VARRAY_ALLOC(tags, HisiTap, n_tags, 1,
                                    vmstate_tap_tag, TapTag),
        VMSTATE_END_OF_LIST()
    },
};

/*
 * Registered once the machine is built, so that it loads after the PCI
 * functions (and the bus numbers in their bridges' registers).
 */
static void tap_machine_done(Notifier *n, void *data)
{
    HisiTap *tap = container_of(n, HisiTap, machine_done);

    vmstate_register_any(VMSTATE_IF(NULL), &vmstate_hisi_tap, tap);
}

/*
 * The VM stops (for a migration, say): give out the transfer under way,
 * whose accesses are all done.
 */
static void tap_vm_state(void *opaque, bool running, RunState state)
{
    if (!running) {
        hisi_tap_flush(opaque);
    }
}

HisiTap *hisi_tap_new(Object *owner, HisiTapFn *fn, void *opaque,
                      Error **errp)
{
    HisiTap *tap;

    if (tap_one) {
        error_setg(errp, "hisi-traffic: '%s' cannot take real traffic: "
                   "'%s' does (one object can have source=real or mixed)",
                   object_get_canonical_path_component(owner),
                   object_get_canonical_path_component(tap_one->owner));
        return NULL;
    }
    tap = g_new0(HisiTap, 1);
    tap_one = tap;
    tap->owner = owner;
    tap->fn = fn;
    tap->opaque = opaque;
    tap->functions = g_ptr_array_new();
    tap->ports = g_ptr_array_new();
    tap->observers = g_ptr_array_new();
    tap->bh = qemu_bh_new(tap_bh, tap);
    tap->observe_bh = qemu_bh_new(tap_observe_bh, tap);
    tap->machine_done.notify = tap_machine_done;
    qemu_add_machine_init_done_notifier(&tap->machine_done);
    qemu_add_vm_change_state_handler(tap_vm_state, tap);
    return tap;
}

void hisi_tap_attach(HisiTap *tap, PCIDevice *port)
{
    PCIBridge *br = PCI_BRIDGE(port);
    PCIBus *bus = pci_bridge_get_sec_bus(br);
    TapPort *p = g_new0(TapPort, 1);

    p->tap = tap;
    p->dev = port;
    memory_region_transaction_begin();
    tap_window_init(&p->mem, p, false, &br->address_space_mem,
                    &bus->address_space_mem);
    tap_window_init(&p->io, p, true, &br->address_space_io,
                    &bus->address_space_io);
    memory_region_transaction_commit();
    g_ptr_array_add(tap->ports, p);
    tap_wrap_config(port, NULL);
    pci_setup_iommu(bus, &tap_iommu_ops, tap);
}

void hisi_tap_plug(HisiTap *tap, PCIDevice *dev)
{
    PCIDevice *root = tap_root_port(pci_get_bus(dev));
    TapPort *p = root ? tap_port_of(tap, root) : NULL;

    if (p) {
        tap_wrap_config(dev, p);
        /* Its bus master address space is made as it is realized. */
        if (tap->observing) {
            qemu_bh_schedule(tap->observe_bh);
        }
    }
}

void hisi_tap_unplug(HisiTap *tap, PCIDevice *dev)
{
    TapConfig *c = tap_configs ? g_hash_table_lookup(tap_configs, dev) : NULL;
    TapObserver *o = tap_observer_of(tap, dev);
    PCIBus *bus;

    /* Its own hooks back (a root port, which cannot leave, stays wrapped) */
    if (c && c->port) {
        dev->config_read = c->read;
        dev->config_write = c->write;
        g_hash_table_remove(tap_configs, dev);
    }
    /*
     * The function leaves its space, and so do those below a bridge, whose
     * secondary bus is freed with it. The transfer under way may be theirs.
     */
    hisi_tap_flush(tap);
    if (o) {
        tap_unobserve(tap, o);
    }
    bus = IS_PCI_BRIDGE(dev) ? pci_bridge_get_sec_bus(PCI_BRIDGE(dev)) : NULL;
    for (guint i = 0; i < tap->functions->len; i++) {
        TapFunction *f = g_ptr_array_index(tap->functions, i);

        if ((f->bus == pci_get_bus(dev) && f->devfn == dev->devfn) ||
            (bus && f->bus == bus)) {
            f->bus = NULL;
        }
    }
}

void hisi_tap_set_observing(HisiTap *tap, bool on)
{
    if (tap->observing == on) {
        return;
    }
    hisi_tap_flush(tap);
    tap->observing = on;
    memory_region_transaction_begin();
    if (on) {
        tap_observe_all(tap);
    }
    while (!on && tap->observers->len) {
        tap_unobserve(tap, g_ptr_array_index(tap->observers, 0));
    }
    for (guint i = 0; i < tap->ports->len; i++) {
        TapPort *p = g_ptr_array_index(tap->ports, i);

        memory_region_set_enabled(&p->mem.observed, on);
        memory_region_set_enabled(&p->io.observed, on);
    }
    memory_region_transaction_commit();
    trace_hisi_tap_observing(on, tap->observers->len);
}
