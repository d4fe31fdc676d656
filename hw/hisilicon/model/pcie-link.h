/*
 * How transfers go on a PCIe link: the TLPs that carry an endpoint's DMA
 * between it and memory, or the CPU's access to an endpoint through its
 * root port (PCI Express Base Specification r5.0: 2.2.7 requests, 2.3.1.1
 * completions, 7.5.3.4 Device Control's Max_Payload_Size and
 * Max_Read_Request_Size).
 *
 * Plain C with no QEMU headers: the host unit tests and benchmarks use it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HISI_MODEL_PCIE_LINK_H
#define HISI_MODEL_PCIE_LINK_H

#include <stdbool.h>
#include <stdint.h>

#include "pcie-tlp.h"

/* What a function without a PCIe capability (or Device Control) uses */
#define PCIE_LINK_MPS_DEFAULT    128
#define PCIE_LINK_MRRS_DEFAULT   512

/*
 * Bytes that a Max_Payload_Size or Max_Read_Request_Size field (3 bits)
 * allows: 128 << @field. The reserved values 6 and 7 give the largest
 * defined size, 4096.
 */
uint32_t model_pcie_link_size(unsigned field);

/* Who requests over the link, and the sizes the endpoint's registers set */
typedef struct PcieLink {
    uint16_t requester;     /* BDF */
    uint16_t completer;     /* BDF: the completions' and the targets' */
    bool downstream;        /* the root port requests, toward the endpoint */
    uint32_t mps;           /* bytes, a power of two 128..4096 */
    uint32_t mrrs;          /* bytes, a power of two 128..4096 */
} PcieLink;

/*
 * A TLP of a transfer: inbound when it goes toward the root complex;
 * @payload is its data in bytes (0 for a read request).
 */
typedef void PcieLinkTlpFn(void *opaque, const PcieTlp *tlp, bool inbound,
                           uint32_t payload);

/*
 * Call @fn, in link order, for each TLP of the memory transfer of the bytes
 * [@addr, @addr + @len): a write (@write) goes as MWr of up to MPS bytes; a
 * read as MRd of up to MRRS bytes, each followed by its CplDs of up to MPS
 * bytes (the completer's Read Completion Boundary is its MPS). Each MRd
 * takes tag *@tag, which then advances. Every TLP but the last of a
 * transfer or of a completion ends on a multiple of its size limit, so
 * none crosses a 4 KiB boundary. Returns the number of TLPs.
 */
uint64_t model_pcie_link_mem(const PcieLink *link, bool write,
                             uint64_t addr, uint64_t len, uint8_t *tag,
                             PcieLinkTlpFn *fn, void *opaque);

/*
 * Likewise for an I/O or configuration transfer (@type TLP_TYPE_IO, _CFG0
 * or _CFG1) of the bytes [@addr, @addr + @len), @addr an I/O address or a
 * register offset in the completer's configuration space: a request per
 * DW they touch, each taking tag *@tag, completed by a CplD of the DW (a
 * read) or a Cpl (a write).
 */
uint64_t model_pcie_link_dw(const PcieLink *link, unsigned type, bool write,
                            uint32_t addr, uint32_t len, uint8_t *tag,
                            PcieLinkTlpFn *fn, void *opaque);

#endif
