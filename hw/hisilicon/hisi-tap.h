/*
 * hisi-tap: the real traffic of the PCI functions below PCIe root ports
 * (their DMA, the CPU's accesses to them), as the TLPs that would carry it
 * (docs/devices/traffic.md, "Real traffic")
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_HISILICON_HISI_TAP_H
#define HW_HISILICON_HISI_TAP_H

#include "hw/pci/pci_device.h"
#include "model/pcie-tlp.h"
#include "model/traffic.h"

typedef struct HisiTap HisiTap;

/* One TLP of the real traffic */
typedef struct HisiRealTlp {
    uint8_t dir;            /* TrafficDir: inbound goes toward memory */
    uint8_t kind;           /* TrafficKind */
    uint32_t payload;       /* bytes of data */
    PcieTlp tlp;
} HisiRealTlp;

/* The TLPs of one transfer or request, in order (@n >= 1) */
typedef struct HisiRealTlps {
    int64_t now;            /* the virtual time of the access */
    PCIDevice *port;        /* the root port the function is below */
    /* Requester ID: the function's for its DMA, the port's for the CPU's */
    uint16_t requester;
    const HisiRealTlp *tlp;
    unsigned n;
} HisiRealTlps;

typedef void HisiTapFn(void *opaque, const HisiRealTlps *tlps);

/*
 * A tap that gives the TLPs of each transfer to @fn(@opaque, ...). @owner
 * owns its regions and must live as long as the machine: the buses keep
 * the tap. There is one at most: NULL, with @errp set, when there is one
 * already.
 */
HisiTap *hisi_tap_new(Object *owner, HisiTapFn *fn, void *opaque,
                      Error **errp);

/*
 * Give the requesters below root port @port (on its secondary bus and the
 * buses behind it) a DMA address space of their own, whose accesses the
 * tap observes, and put the tap between the CPU and their BARs. Call it
 * while @port is realized, before any function is plugged below it.
 */
void hisi_tap_attach(HisiTap *tap, PCIDevice *port);

/*
 * A function is being plugged (or unplugged): when it is below a port of
 * the tap, the tap sees (or no longer sees) its configuration accesses.
 */
void hisi_tap_plug(HisiTap *tap, PCIDevice *dev);
void hisi_tap_unplug(HisiTap *tap, PCIDevice *dev);

/*
 * Whether the tap sees the traffic: off, the functions' DMA goes straight
 * to memory and the CPU's accesses straight to them, at full speed, and
 * nothing is seen.
 */
void hisi_tap_set_observing(HisiTap *tap, bool on);

/* Give out the TLPs of the DMA seen so far (a transfer still growing). */
void hisi_tap_flush(HisiTap *tap);

#endif
