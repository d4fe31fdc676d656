/*
 * How an endpoint's DMA goes on its PCIe link: the TLPs that carry one
 * transfer between the endpoint and memory (PCI Express Base Specification
 * r5.0: 2.2.7 memory requests, 2.3.1.1 completions, 7.5.3.4 Device
 * Control's Max_Payload_Size and Max_Read_Request_Size).
 *
 * Plain C with no QEMU headers: the host unit tests and benchmarks use it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HISI_MODEL_PCIE_DMA_H
#define HISI_MODEL_PCIE_DMA_H

#include <stdbool.h>
#include <stdint.h>

#include "pcie-tlp.h"

/* What a function without a PCIe capability (or Device Control) uses */
#define PCIE_DMA_MPS_DEFAULT    128
#define PCIE_DMA_MRRS_DEFAULT   512

/*
 * Bytes that a Max_Payload_Size or Max_Read_Request_Size field (3 bits)
 * allows: 128 << @field. The reserved values 6 and 7 give the largest
 * defined size, 4096.
 */
uint32_t model_pcie_dma_size(unsigned field);

/* The link a transfer goes over, as the endpoint's registers set it */
typedef struct PcieDmaLink {
    uint16_t endpoint;      /* BDF: the requester */
    uint16_t port;          /* BDF of its root port: the reads' completer */
    uint32_t mps;           /* bytes, a power of two 128..4096 */
    uint32_t mrrs;          /* bytes, a power of two 128..4096 */
} PcieDmaLink;

/*
 * A TLP of a transfer: inbound when it goes toward the root complex;
 * @payload is its data in bytes (0 for a read request).
 */
typedef void PcieDmaTlpFn(void *opaque, const PcieTlp *tlp, bool inbound,
                          uint32_t payload);

/*
 * Call @fn, in link order, for each TLP of the endpoint's transfer of the
 * bytes [@addr, @addr + @len) to memory (@write) or from it. A write goes
 * as MWr of up to MPS bytes. A read goes as MRd of up to MRRS bytes, each
 * followed by its CplDs of up to MPS bytes (the completer's Read
 * Completion Boundary is its MPS); each MRd takes tag *@tag, which then
 * advances. Every TLP but the last of a transfer or of a completion ends on
 * a multiple of its size limit, so none crosses a 4 KiB boundary. Returns
 * the number of TLPs.
 */
uint64_t model_pcie_dma_tlps(const PcieDmaLink *link, bool write,
                             uint64_t addr, uint64_t len, uint8_t *tag,
                             PcieDmaTlpFn *fn, void *opaque);

#endif
