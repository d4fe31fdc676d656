/*
 * What the HiSilicon PCIe devices (hisi-ptt, hisi-pcie-pmu, hns3-pmu)
 * share: an RCiEP on the root bus with BAR 2 and one MSI, a BDF range it
 * covers, the endpoints it sees, and the PMUs' fault injection.
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
 * Check the BDF range given by the properties @min_name and @max_name (one
 * bus; @range_hint says which), and that no other device of @pdev's type
 * on its bus has the same "sicl-id" and "core-id" (where it has one): the
 * PMU names would clash.
 */
#define PCIE_ROOT_PORTS_HINT \
    "root ports sit on the root bus, for example 0x0080..0x00bf"

bool hisi_pcie_check_config(PCIDevice *pdev, uint16_t min, uint16_t max,
                            const char *min_name, const char *max_name,
                            const char *range_hint, const char *pmu_name,
                            Error **errp);

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
 * Call @fn for every endpoint below a root port on @pdev's bus whose own
 * BDF is in [min, max], with its root port, as the topology stands now.
 */
void hisi_pcie_foreach_function(PCIDevice *pdev, uint16_t min, uint16_t max,
                                HisiPcieEndpointFn *fn, void *opaque);

/*
 * Fault injection of the PMUs: parse the "advance" value "IDX=N" (add N to
 * counter IDX, IDX < @counters, N < 2^63). False with @errp set, naming
 * @type, when it is not one.
 */
bool hisi_pmu_parse_advance(const char *type, const char *value,
                            unsigned counters, unsigned *idx, uint64_t *n,
                            Error **errp);

/*
 * When a 64-bit counter at @value that grows by at most @per_s a second
 * from @now wraps: an early bound (INT64_MAX when it does not grow).
 */
int64_t hisi_pmu_overflow_due(int64_t now, uint64_t value, uint64_t per_s);

/*
 * The MMIO window CPU requests to @ep target: its first memory BAR, or a
 * stand-in window while the guest has not mapped one.
 */
void hisi_pcie_mmio_window(PCIDevice *ep, uint64_t *base, uint32_t *size);

#endif
