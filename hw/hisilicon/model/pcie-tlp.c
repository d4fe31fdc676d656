/*
 * PCIe TLP headers (PCI Express Base Specification r5.0, section 2.2).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "pcie-tlp.h"

static uint32_t tlp_dw0(unsigned fmt, unsigned type, uint16_t len_dw,
                        bool relaxed)
{
    return (uint32_t)fmt << 29 | (uint32_t)type << 24 |
           (relaxed ? TLP_ATTR_RO : 0) | (len_dw & 0x3ff);
}

void model_pcie_tlp_mem(PcieTlp *tlp, bool write, uint64_t addr,
                        uint16_t len_dw, uint16_t requester, uint8_t tag,
                        bool relaxed)
{
    bool addr64 = addr >> 32;
    unsigned fmt = write ? (addr64 ? TLP_FMT_4DW_DATA : TLP_FMT_3DW_DATA)
                         : (addr64 ? TLP_FMT_4DW_NODATA : TLP_FMT_3DW_NODATA);
    /* Byte enables: all bytes of the first and, if any, the last DW. */
    uint32_t be = len_dw == 1 ? 0x0f : 0xff;

    tlp->dw[0] = tlp_dw0(fmt, TLP_TYPE_MEM, len_dw, relaxed);
    tlp->dw[1] = (uint32_t)requester << 16 | (uint32_t)tag << 8 | be;
    if (addr64) {
        tlp->dw[2] = addr >> 32;
        tlp->dw[3] = (uint32_t)addr & ~3u;
    } else {
        tlp->dw[2] = (uint32_t)addr & ~3u;
        tlp->dw[3] = 0;
    }
    tlp->prefix = 0;
}

void model_pcie_tlp_cpld(PcieTlp *tlp, uint16_t completer, uint16_t requester,
                         uint8_t tag, uint16_t len_dw, uint8_t lower_addr)
{
    /* Byte Count: bytes left to complete the request, all in this TLP. */
    uint32_t byte_count = (len_dw * 4u) & 0xfff;

    tlp->dw[0] = tlp_dw0(TLP_FMT_3DW_DATA, TLP_TYPE_CPL, len_dw, false);
    tlp->dw[1] = (uint32_t)completer << 16 | TLP_CPL_STATUS_SC << 13 |
                 byte_count;
    tlp->dw[2] = (uint32_t)requester << 16 | (uint32_t)tag << 8 |
                 (lower_addr & 0x7f);
    tlp->dw[3] = 0;
    tlp->prefix = 0;
}
