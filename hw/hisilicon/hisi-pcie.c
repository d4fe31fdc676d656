/*
 * What the HiSilicon PCIe devices (hisi-ptt, hisi-pcie-pmu, hns3-pmu) share:
 * the RCiEP set-up, the configuration checks and the topology walks.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/units.h"
#include "qemu/host-utils.h"
#include "qapi/error.h"
#include "qom/object.h"
#include "hw/pci/pci_bridge.h"
#include "hw/pci/pcie.h"
#include "hw/pci/msi.h"
#include "hisi-pcie.h"
#include "hisi-traffic.h"

bool hisi_pcie_rciep_init(PCIDevice *pdev, MemoryRegion *bar, Error **errp)
{
    pci_config_set_interrupt_pin(pdev->config, 1);
    if (pcie_endpoint_cap_init(pdev, 0x80) < 0) {
        error_setg(errp, "%s: cannot add the PCIe capability",
                   object_get_typename(OBJECT(pdev)));
        return false;
    }
    if (msi_init(pdev, 0x50, 1, true, false, errp) < 0) {
        return false;
    }
    pci_register_bar(pdev, 2, PCI_BASE_ADDRESS_SPACE_MEMORY |
                     PCI_BASE_ADDRESS_MEM_TYPE_64, bar);
    return true;
}

void hisi_pcie_rciep_exit(PCIDevice *pdev)
{
    msi_uninit(pdev);
    pcie_cap_exit(pdev);
}

void hisi_pcie_msi_update(PCIDevice *pdev, uint32_t pending, uint32_t *sent)
{
    if ((pending & ~*sent) && msi_enabled(pdev)) {
        msi_notify(pdev, 0);
    }
    *sent = pending;
}

typedef struct SameLocation {
    PCIDevice *self;
    bool found;
} SameLocation;

/* Same value of property @name, or both without it */
static bool same_id(Object *a, Object *b, const char *name)
{
    if (!object_property_find(a, name)) {
        return true;
    }
    return object_property_get_uint(a, name, &error_abort) ==
           object_property_get_uint(b, name, &error_abort);
}

static void find_same_location(PCIBus *bus, PCIDevice *d, void *opaque)
{
    SameLocation *s = opaque;
    Object *a = OBJECT(s->self), *b = OBJECT(d);

    if (d != s->self &&
        !strcmp(object_get_typename(a), object_get_typename(b)) &&
        same_id(a, b, "sicl-id") && same_id(a, b, "core-id")) {
        s->found = true;
    }
}

bool hisi_pcie_check_config(PCIDevice *pdev, uint16_t min, uint16_t max,
                            const char *min_name, const char *max_name,
                            const char *range_hint, const char *pmu_name,
                            Error **errp)
{
    const char *type = object_get_typename(OBJECT(pdev));
    PCIBus *bus = pci_get_bus(pdev);
    SameLocation same = { .self = pdev };

    /*
     * Behind a root port or a switch it would be an ordinary endpoint,
     * hot-pluggable, while a root complex integrated endpoint is part of
     * the root complex from power-on: the drivers find it on the root bus.
     */
    if (!pci_bus_is_root(bus)) {
        error_setg(errp, "%s: bus %s is behind a bridge: a root complex "
                   "integrated endpoint sits on the root bus (bus=%s)", type,
                   bus->qbus.name, pci_device_root_bus(pdev)->qbus.name);
        return false;
    }
    if (min > max) {
        error_setg(errp, "%s: %s (0x%04x) must not be above %s (0x%04x)",
                   type, min_name, min, max_name, max);
        return false;
    }
    if (PCI_BUS_NUM(min) != PCI_BUS_NUM(max)) {
        error_setg(errp, "%s: %s (0x%04x) and %s (0x%04x) must be on one "
                   "bus: %s", type, min_name, min, max_name, max, range_hint);
        return false;
    }
    pci_for_each_device_under_bus(bus, find_same_location, &same);
    if (same.found) {
        g_autofree char *core = object_property_find(OBJECT(pdev),
                                                     "core-id") ?
            g_strdup_printf(" core-id=%" PRIu64, object_property_get_uint(
                                OBJECT(pdev), "core-id", &error_abort)) :
            g_strdup("");

        error_setg(errp, "%s: another %s already has sicl-id=%" PRIu64 "%s "
                   "(the PMU name %s must be unique)", type, type,
                   object_property_get_uint(OBJECT(pdev), "sicl-id",
                                            &error_abort), core, pmu_name);
        return false;
    }
    return true;
}

bool hisi_pcie_check_root_ports(PCIDevice *pdev, uint16_t min, uint16_t max,
                                const char *min_name, const char *max_name,
                                Error **errp)
{
    unsigned root = pci_bus_num(pci_get_bus(pdev));

    if (PCI_BUS_NUM(min) != root) {
        error_setg(errp, "%s: %s (0x%04x) and %s (0x%04x) are on bus %u, "
                   "not the root bus %u: %s", object_get_typename(OBJECT(pdev)),
                   min_name, min, max_name, max, PCI_BUS_NUM(min), root,
                   PCIE_ROOT_PORTS_HINT);
        return false;
    }
    return true;
}

uint32_t hisi_pcie_port_bit(PCIDevice *port)
{
    return BIT((PCI_SLOT(port->devfn) & 7) << 1);
}

typedef struct EndpointWalk {
    uint16_t port_min, port_max;    /* root ports to walk below */
    PCIDevice *port;
    HisiPcieEndpointFn *fn;
    void *opaque;
} EndpointWalk;

static void walk_below_port(PCIBus *bus, PCIDevice *d, void *opaque)
{
    EndpointWalk *w = opaque;

    if (IS_PCI_BRIDGE(d)) {
        pci_for_each_device_under_bus(pci_bridge_get_sec_bus(PCI_BRIDGE(d)),
                                      walk_below_port, w);
    } else {
        w->fn(d, w->port, w->opaque);
    }
}

/* Is @d one of the root ports whose endpoints @w walks? */
static bool walked_root_port(EndpointWalk *w, PCIDevice *d)
{
    uint16_t bdf = pci_get_bdf(d);

    return pci_is_express(d) &&
           pcie_cap_get_type(d) == PCI_EXP_TYPE_ROOT_PORT &&
           bdf >= w->port_min && bdf <= w->port_max;
}

static void walk_root_bus(PCIBus *bus, PCIDevice *d, void *opaque)
{
    EndpointWalk *w = opaque;

    if (!walked_root_port(w, d)) {
        return;
    }
    w->port = d;
    pci_for_each_device_under_bus(pci_bridge_get_sec_bus(PCI_BRIDGE(d)),
                                  walk_below_port, w);
}

void hisi_pcie_foreach_endpoint(PCIDevice *pdev, uint16_t min, uint16_t max,
                                HisiPcieEndpointFn *fn, void *opaque)
{
    EndpointWalk w = {
        .port_min = min, .port_max = max, .fn = fn, .opaque = opaque,
    };
    PCIDevice *port;
    PCIDevice *gone = hisi_traffic_departing(&port);

    pci_for_each_device_under_bus(pci_get_bus(pdev), walk_root_bus, &w);
    /* An endpoint being unplugged, up to its removal */
    if (gone && port && !IS_PCI_BRIDGE(gone) &&
        pci_get_bus(port) == pci_get_bus(pdev) && walked_root_port(&w, port)) {
        fn(gone, port, opaque);
    }
}

typedef struct FunctionWalk {
    uint16_t min, max;
    PCIDevice *port;                /* the bridge on the root bus above */
    HisiPcieEndpointFn *fn;
    void *opaque;
} FunctionWalk;

static void walk_functions(PCIBus *bus, PCIDevice *d, void *opaque)
{
    FunctionWalk *w = opaque;
    uint16_t bdf = pci_get_bdf(d);
    PCIDevice *port = w->port;

    if (bdf >= w->min && bdf <= w->max) {
        w->fn(d, port, w->opaque);
    }
    if (IS_PCI_BRIDGE(d)) {
        w->port = port ? port : d;
        pci_for_each_device_under_bus(pci_bridge_get_sec_bus(PCI_BRIDGE(d)),
                                      walk_functions, w);
        w->port = port;
    }
}

void hisi_pcie_foreach_function(PCIDevice *pdev, uint16_t min, uint16_t max,
                                HisiPcieEndpointFn *fn, void *opaque)
{
    FunctionWalk w = { .min = min, .max = max, .fn = fn, .opaque = opaque };
    PCIDevice *port;
    PCIDevice *gone = hisi_traffic_departing(&port);

    pci_for_each_device_under_bus(pci_get_bus(pdev), walk_functions, &w);
    /* A function being unplugged, up to its removal */
    if (gone && pci_device_root_bus(gone) == pci_get_bus(pdev) &&
        pci_get_bdf(gone) >= min && pci_get_bdf(gone) <= max) {
        fn(gone, port, opaque);
    }
}

void hisi_pcie_mmio_window(PCIDevice *ep, uint64_t *base, uint32_t *size)
{
    for (int i = 0; i < PCI_NUM_REGIONS - 1; i++) {
        PCIIORegion *r = &ep->io_regions[i];
        pcibus_t addr = pci_get_bar_addr(ep, i);

        if (r->size && !(r->type & PCI_BASE_ADDRESS_SPACE_IO) &&
            addr != PCI_BAR_UNMAPPED) {
            *base = addr;
            *size = pow2floor(MIN(r->size, 1 * GiB));
            return;
        }
    }
    /* Not mapped yet: a stand-in window, so the traffic still flows. */
    *base = 0x10000000 + ((uint64_t)pci_get_bdf(ep) << 12);
    *size = 4 * KiB;
}
