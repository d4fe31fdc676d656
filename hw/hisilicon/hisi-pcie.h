/*
 * What the HiSilicon PCIe devices (hisi-ptt, hisi-pcie-pmu, hns3-pmu)
 * share: an RCiEP on the root bus with BAR 2 and one MSI, a BDF range it
 * covers, and the endpoints it sees.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_HISILICON_HISI_PCIE_H
#define HW_HISILICON_HISI_PCIE_H

#include "hw/pci/pci_device.h"

/*
 * Add the PCIe endpoint capability, one 64-bit MSI vector and @bar as the
 * 64-bit memory BAR 2. False with @errp set on failure.
 */
bool hisi_pcie_rciep_init(PCIDevice *pdev, MemoryRegion *bar, Error **errp);

/* Undo hisi_pcie_rciep_init(), from the device's exit */
void hisi_pcie_rciep_exit(PCIDevice *pdev);

/*
 * The MSI of a device whose interrupt sources (a bitmap, @pending: status
 * set and unmasked) share one vector: an MSI when a source becomes
 * pending, none while it stays so. @sent keeps the sources signalled.
 */
void hisi_pcie_msi_update(PCIDevice *pdev, uint32_t pending, uint32_t *sent);

/*
 * Check that @pdev sits on a root bus (an RCiEP, not behind a bridge), the
 * BDF range given by the properties @min_name and @max_name (one bus;
 * @range_hint says which), and that no other device of @pdev's type on its
 * bus has the same "sicl-id" and "core-id" (where it has one): the PMU
 * names would clash.
 */
#define PCIE_ROOT_PORTS_HINT \
    "root ports sit on the root bus, for example 0x0080..0x00bf"

bool hisi_pcie_check_config(PCIDevice *pdev, uint16_t min, uint16_t max,
                            const char *min_name, const char *max_name,
                            const char *range_hint, const char *pmu_name,
                            Error **errp);

/*
 * Check that the range [@min, @max] of root ports, one bus, is on @pdev's
 * root bus, where root ports are: a range on another bus covers none.
 */
bool hisi_pcie_check_root_ports(PCIDevice *pdev, uint16_t min, uint16_t max,
                                const char *min_name, const char *max_name,
                                Error **errp);

/* The bit of root port @port in the cores' port bitmaps: 2 * (slot & 7) */
uint32_t hisi_pcie_port_bit(PCIDevice *port);

typedef void HisiPcieEndpointFn(PCIDevice *ep, PCIDevice *port,
                                void *opaque);

/*
 * Call @fn for every endpoint (non-bridge device) below the root ports on
 * @pdev's bus whose BDF is in [min, max], with its root port, as the
 * topology stands now (hot-plug included, the guest's bus numbers), and
 * one being unplugged while the traffic's observers account up to its
 * removal (hisi_traffic_departing(): @fn must not read its configuration).
 */
void hisi_pcie_foreach_endpoint(PCIDevice *pdev, uint16_t min, uint16_t max,
                                HisiPcieEndpointFn *fn, void *opaque);

/*
 * Call @fn for every PCI function in @pdev's hierarchy whose BDF is in
 * [min, max], wherever it sits: on the root bus (an RCiEP, or a root port
 * itself; @port NULL) or below a bridge of the root bus (@port that
 * bridge), as the topology stands now, and one being unplugged, as for
 * hisi_pcie_foreach_endpoint(). These are the functions a driver finds by
 * BDF in the domain (pci_get_domain_bus_and_slot()).
 */
void hisi_pcie_foreach_function(PCIDevice *pdev, uint16_t min, uint16_t max,
                                HisiPcieEndpointFn *fn, void *opaque);

/*
 * The MMIO window CPU requests to @ep target: its first memory BAR, or a
 * stand-in window while the guest has not mapped one.
 */
void hisi_pcie_mmio_window(PCIDevice *ep, uint64_t *base, uint32_t *size);

#endif
