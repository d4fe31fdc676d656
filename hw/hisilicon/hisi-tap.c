/*
 * hisi-tap: the real DMA of the PCI functions below PCIe root ports, as
 * the TLPs that would carry it.
 *
 * Each root port's secondary bus gets PCI IOMMU ops (pci_setup_iommu) that
 * give every function below it an address space of its own. Its root holds
 * an alias of system memory and, above it and enabled only while someone
 * observes, an I/O region that forwards each access to system memory with
 * its attributes (an MSI's requester ID included) and notes it. So an idle
 * tap costs nothing: QEMU maps the alias as RAM. While observing, DMA
 * reaches the I/O region in accesses of at most 8 bytes (dma_memory_map
 * gets bounce buffers); the accesses of one function that follow each
 * other in memory make one transfer, at the time of its first, which the
 * PCIe model cuts into TLPs by the function's Max_Payload_Size and
 * Max_Read_Request_Size (model_pcie_dma_tlps()). Without -icount the
 * virtual clock runs on between the accesses of one DMA. A transfer is
 * given out when another access does not continue it, when a consumer
 * flushes (before it accounts for time after it) or from a bottom half at
 * the latest, so it never spans more than a turn of the main loop.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bitops.h"
#include "qemu/bswap.h"
#include "qemu/main-loop.h"
#include "qemu/timer.h"
#include "exec/address-spaces.h"
#include "hw/pci/pci_bridge.h"
#include "hw/pci/pci_bus.h"
#include "hw/pci/pcie_regs.h"
#include "trace.h"
#include "hisi-tap.h"
#include "model/pcie-dma.h"

typedef struct TapFunction {
    HisiTap *tap;
    PCIBus *bus;
    int devfn;
    MemoryRegion root;
    MemoryRegion direct;    /* system memory, at full speed */
    MemoryRegion observed;  /* system memory, each access noted */
    AddressSpace as;
    uint8_t tag;            /* of its next read request */
} TapFunction;

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
    bool observing;
    TapTransfer pending;
    QEMUBH *bh;
};

/* The root port above @bus: the bridge whose own bus is a root bus */
static PCIDevice *tap_root_port(PCIBus *bus)
{
    PCIDevice *bridge = bus->parent_dev;

    while (bridge && !pci_bus_is_root(pci_get_bus(bridge))) {
        bridge = pci_get_bus(bridge)->parent_dev;
    }
    return bridge;
}

/*
 * The function's link settings: Device Control's sizes, or the defaults
 * of a function without a PCIe capability (or an alias of functions
 * behind a PCIe-to-PCI bridge, which QEMU hands the bridge's requester ID)
 */
static void tap_link(TapFunction *f, PcieDmaLink *link, PCIDevice *port)
{
    PCIDevice *dev = f->bus->devices[f->devfn];
    uint8_t exp = dev ? pci_find_capability(dev, PCI_CAP_ID_EXP) : 0;

    link->endpoint = PCI_BUILD_BDF(pci_bus_num(f->bus), f->devfn);
    link->port = pci_get_bdf(port);
    link->mps = PCIE_DMA_MPS_DEFAULT;
    link->mrrs = PCIE_DMA_MRRS_DEFAULT;
    if (exp) {
        uint16_t ctl = pci_get_word(dev->config + exp + PCI_EXP_DEVCTL);

        link->mps = model_pcie_dma_size(extract16(ctl, 5, 3));
        link->mrrs = model_pcie_dma_size(extract16(ctl, 12, 3));
    }
}

typedef struct TapEmit {
    HisiTap *tap;
    HisiRealTlp real;
} TapEmit;

static void tap_emit(void *opaque, const PcieTlp *tlp, bool inbound,
                     uint32_t payload)
{
    TapEmit *e = opaque;

    e->real.tlp = *tlp;
    e->real.dir = inbound ? TRAFFIC_INBOUND : TRAFFIC_OUTBOUND;
    e->real.kind = model_pcie_tlp_type(tlp) == TLP_TYPE_CPL ?
                   TRAFFIC_COMPLETION :
                   model_pcie_tlp_has_data(tlp) ? TRAFFIC_POSTED :
                   TRAFFIC_NON_POSTED;
    e->real.payload = payload;
    e->tap->fn(e->tap->opaque, &e->real);
}

void hisi_tap_flush(HisiTap *tap)
{
    TapTransfer p = tap->pending;
    PcieDmaLink link;
    TapEmit e = { .tap = tap };
    PCIDevice *port;

    if (!p.f) {
        return;
    }
    tap->pending.f = NULL;
    port = tap_root_port(p.f->bus);
    tap_link(p.f, &link, port);
    trace_hisi_tap_transfer(link.endpoint, p.write, p.addr, p.len, p.now);
    e.real.now = p.now;
    e.real.port = port;
    e.real.requester = link.endpoint;
    model_pcie_dma_tlps(&link, p.write, p.addr, p.len, &p.f->tag, tap_emit,
                        &e);
}

static void tap_bh(void *opaque)
{
    hisi_tap_flush(opaque);
}

static void tap_note(TapFunction *f, bool write, hwaddr addr, unsigned size)
{
    HisiTap *tap = f->tap;
    TapTransfer *p = &tap->pending;

    /* Every 8 bytes of DMA come here: continuing a transfer is all. */
    if (p->f == f && p->write == write && p->addr + p->len == addr) {
        p->len += size;
        return;
    }
    hisi_tap_flush(tap);
    *p = (TapTransfer) {
        .f = f, .write = write, .addr = addr, .len = size,
        .now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL),
    };
    qemu_bh_schedule(tap->bh);
}

static MemTxResult tap_read(void *opaque, hwaddr addr, uint64_t *data,
                            unsigned size, MemTxAttrs attrs)
{
    uint8_t buf[8];
    MemTxResult res = address_space_read(&address_space_memory, addr, attrs,
                                         buf, size);

    *data = ldn_le_p(buf, size);
    tap_note(opaque, false, addr, size);
    return res;
}

static MemTxResult tap_write(void *opaque, hwaddr addr, uint64_t data,
                             unsigned size, MemTxAttrs attrs)
{
    uint8_t buf[8];

    stn_le_p(buf, size, data);
    tap_note(opaque, true, addr, size);
    return address_space_write(&address_space_memory, addr, attrs, buf, size);
}

static const MemoryRegionOps tap_ops = {
    .read_with_attrs = tap_read,
    .write_with_attrs = tap_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid.min_access_size = 1,
    .valid.max_access_size = 8,
    .valid.unaligned = true,
    .impl.min_access_size = 1,
    .impl.max_access_size = 8,
    .impl.unaligned = true,
};

static AddressSpace *tap_address_space(PCIBus *bus, void *opaque, int devfn)
{
    HisiTap *tap = opaque;
    g_autofree char *name = NULL;
    TapFunction *f;

    for (guint i = 0; i < tap->functions->len; i++) {
        f = g_ptr_array_index(tap->functions, i);
        if (f->bus == bus && f->devfn == devfn) {
            return &f->as;
        }
    }
    f = g_new0(TapFunction, 1);
    f->tap = tap;
    f->bus = bus;
    f->devfn = devfn;
    name = g_strdup_printf("hisi-tap[%s:%02x.%x]", bus->qbus.name,
                           PCI_SLOT(devfn), PCI_FUNC(devfn));
    memory_region_init(&f->root, tap->owner, name, UINT64_MAX);
    memory_region_init_alias(&f->direct, tap->owner, "direct",
                             get_system_memory(), 0, UINT64_MAX);
    memory_region_init_io(&f->observed, tap->owner, &tap_ops, f, "observed",
                          UINT64_MAX);
    memory_region_add_subregion_overlap(&f->root, 0, &f->direct, 0);
    memory_region_add_subregion_overlap(&f->root, 0, &f->observed, 1);
    memory_region_set_enabled(&f->observed, tap->observing);
    address_space_init(&f->as, &f->root, name);
    g_ptr_array_add(tap->functions, f);
    return &f->as;
}

static const PCIIOMMUOps tap_iommu_ops = {
    .get_address_space = tap_address_space,
};

HisiTap *hisi_tap_new(Object *owner, HisiTapFn *fn, void *opaque)
{
    HisiTap *tap = g_new0(HisiTap, 1);

    tap->owner = owner;
    tap->fn = fn;
    tap->opaque = opaque;
    tap->functions = g_ptr_array_new();
    tap->bh = qemu_bh_new(tap_bh, tap);
    return tap;
}

void hisi_tap_attach(HisiTap *tap, PCIDevice *port)
{
    pci_setup_iommu(pci_bridge_get_sec_bus(PCI_BRIDGE(port)), &tap_iommu_ops,
                    tap);
}

void hisi_tap_set_observing(HisiTap *tap, bool on)
{
    if (tap->observing == on) {
        return;
    }
    hisi_tap_flush(tap);
    tap->observing = on;
    memory_region_transaction_begin();
    for (guint i = 0; i < tap->functions->len; i++) {
        TapFunction *f = g_ptr_array_index(tap->functions, i);

        memory_region_set_enabled(&f->observed, on);
    }
    memory_region_transaction_commit();
}
