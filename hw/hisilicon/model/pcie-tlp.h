/*
 * PCIe TLP headers (PCI Express Base Specification r5.0, section 2.2),
 * built as the four header DWs a trace device stores.
 *
 * Plain C with no QEMU headers: the host unit tests and benchmarks use it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HISI_MODEL_PCIE_TLP_H
#define HISI_MODEL_PCIE_TLP_H

#include <stdbool.h>
#include <stdint.h>

/* Fmt field, DW0[31:29] */
#define TLP_FMT_3DW_NODATA  0x0
#define TLP_FMT_4DW_NODATA  0x1
#define TLP_FMT_3DW_DATA    0x2
#define TLP_FMT_4DW_DATA    0x3

/* Type field, DW0[28:24] */
#define TLP_TYPE_MEM        0x00
#define TLP_TYPE_IO         0x02
#define TLP_TYPE_CFG0       0x04    /* to a function on the link's bus */
#define TLP_TYPE_CFG1       0x05    /* to one on a bus behind a bridge */
#define TLP_TYPE_CPL        0x0a

/* Attr[1] of DW0 bit 13: relaxed ordering */
#define TLP_ATTR_RO         (1u << 13)

#define TLP_CPL_STATUS_SC   0x0

/*
 * A header as four DWs; each DW is the big-endian value of its four header
 * bytes (byte 0 in bits 31:24), which is how trace records store it.
 * A 3DW header has dw[3] == 0.
 */
typedef struct PcieTlp {
    uint32_t dw[4];
    uint32_t prefix;    /* TLP prefix DW, 0 when there is none */
} PcieTlp;

/*
 * Memory request for the bytes [@addr, @addr + @len) (a write when the
 * payload goes with it, else a read of them): Length counts the DWs they
 * touch and the first and last DW byte enables mask the bytes outside
 * (r5.0 2.2.5). 64-bit addresses above 4 GiB take a 4DW header. @len is
 * 1..4096 and the bytes must not cross a 4 KiB boundary.
 */
void model_pcie_tlp_mem(PcieTlp *tlp, bool write, uint64_t addr, uint32_t len,
                        uint16_t requester, uint8_t tag, bool relaxed);

/*
 * Successful completion carrying the bytes [@addr, @addr + @len) of a read
 * that has @byte_count bytes left to complete, these included (r5.0
 * 2.2.9): Lower Address is @addr's low 7 bits. @len and @byte_count are
 * 1..4096.
 */
void model_pcie_tlp_cpld(PcieTlp *tlp, uint16_t completer, uint16_t requester,
                         uint8_t tag, uint64_t addr, uint32_t len,
                         uint32_t byte_count);

/*
 * I/O or configuration request (@type TLP_TYPE_IO, _CFG0 or _CFG1) for the
 * bytes that @be enables of the DW that @dw2 addresses: for I/O its
 * address, for configuration the target's BDF in bits 31:16 and the
 * register's offset in bits 11:2 (r5.0 2.2.7). Length 1; a write carries
 * the DW. Both kinds are non-posted.
 */
void model_pcie_tlp_dw(PcieTlp *tlp, unsigned type, bool write, uint32_t dw2,
                       uint8_t be, uint16_t requester, uint8_t tag);

/*
 * Successful completion without data, of an I/O or configuration write:
 * Byte Count 4 and Lower Address 0, as for all but memory reads (r5.0
 * 2.2.9).
 */
void model_pcie_tlp_cpl(PcieTlp *tlp, uint16_t completer, uint16_t requester,
                        uint8_t tag);

static inline unsigned model_pcie_tlp_fmt(const PcieTlp *tlp)
{
    return tlp->dw[0] >> 29;
}

static inline unsigned model_pcie_tlp_type(const PcieTlp *tlp)
{
    return (tlp->dw[0] >> 24) & 0x1f;
}

static inline bool model_pcie_tlp_has_data(const PcieTlp *tlp)
{
    return model_pcie_tlp_fmt(tlp) & 0x2;
}

/*
 * Length in DWs as encoded (1..1024); 0 for a completion without data,
 * whose Length field is reserved
 */
static inline unsigned model_pcie_tlp_len_dw(const PcieTlp *tlp)
{
    unsigned len = tlp->dw[0] & 0x3ff;

    if (model_pcie_tlp_type(tlp) == TLP_TYPE_CPL &&
        !model_pcie_tlp_has_data(tlp)) {
        return 0;
    }
    return len ? len : 1024;
}

#endif
