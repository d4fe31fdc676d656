/*
 * What the HiSilicon PCIe core devices (hisi-ptt, hisi-pcie-pmu) share:
 * an RCiEP on the root bus with BAR 2 and one MSI, a range of root ports
 * it covers, and the endpoints below them.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_HISILICON_HISI_PCIE_CORE_H
#define HW_HISILICON_HISI_PCIE_CORE_H

#include "hw/pci/pci_device.h"

/*
 * Add the PCIe endpoint capability, one 64-bit MSI vector and @bar as the
 * 64-bit memory BAR 2. False with @errp set on failure.
 */
bool hisi_pcie_rciep_init(PCIDevice *pdev, MemoryRegion *bar, Error **errp);

/*
 * Check the root port BDF range given by the properties @min_name and
 * @max_name, and that no other device of @pdev's type on its bus has the
 * same "sicl-id" and "core-id" (the PMU names would clash).
 */
bool hisi_pcie_check_config(PCIDevice *pdev, uint16_t min, uint16_t max,
                            const char *min_name, const char *max_name,
                            const char *pmu_name, Error **errp);

/* The bit of root port @port in the cores' port bitmaps: 2 * (slot & 7) */
uint32_t hisi_pcie_port_bit(PCIDevice *port);

typedef void HisiPcieEndpointFn(PCIDevice *ep, PCIDevice *port,
                                void *opaque);

/*
 * Call @fn for every endpoint (non-bridge device) below the root ports on
 * @pdev's bus whose BDF is in [min, max], with its root port, as the
 * topology stands now (hot-plug included, the guest's bus numbers).
 */
void hisi_pcie_foreach_endpoint(PCIDevice *pdev, uint16_t min, uint16_t max,
                                HisiPcieEndpointFn *fn, void *opaque);

/*
 * The MMIO window CPU requests to @ep target: its first memory BAR, or a
 * stand-in window while the guest has not mapped one.
 */
void hisi_pcie_mmio_window(PCIDevice *ep, uint64_t *base, uint32_t *size);

#endif
