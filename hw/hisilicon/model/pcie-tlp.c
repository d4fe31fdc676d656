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

/* DWs that the bytes [@addr, @addr + @len) touch */
static uint16_t tlp_len_dw(uint64_t addr, uint32_t len)
{
    return ((addr & 3) + len + 3) / 4;
}

void model_pcie_tlp_mem(PcieTlp *tlp, bool write, uint64_t addr, uint32_t len,
                        uint16_t requester, uint8_t tag, bool relaxed)
{
    bool addr64 = addr >> 32;
    unsigned fmt = write ? (addr64 ? TLP_FMT_4DW_DATA : TLP_FMT_3DW_DATA)
                         : (addr64 ? TLP_FMT_4DW_NODATA : TLP_FMT_3DW_NODATA);
    uint16_t len_dw = tlp_len_dw(addr, len);
    /* Bytes from @addr in the first DW, up to the end in the last one */
    uint32_t first_be = (0xfu << (addr & 3)) & 0xf;
    uint32_t last_be = 0xfu >> ((4 - ((addr + len) & 3)) & 3);
    uint32_t be;

    if (len_dw == 1) {
        /* One DW: the first enables hold both ends, the last are 0. */
        be = first_be & last_be;
    } else {
        be = last_be << 4 | first_be;
    }
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
                         uint8_t tag, uint64_t addr, uint32_t len,
                         uint32_t byte_count)
{
    tlp->dw[0] = tlp_dw0(TLP_FMT_3DW_DATA, TLP_TYPE_CPL,
                         tlp_len_dw(addr, len), false);
    /* Byte Count: 4096 encodes as 0 */
    tlp->dw[1] = (uint32_t)completer << 16 | TLP_CPL_STATUS_SC << 13 |
                 (byte_count & 0xfff);
    tlp->dw[2] = (uint32_t)requester << 16 | (uint32_t)tag << 8 |
                 (addr & 0x7f);
    tlp->dw[3] = 0;
    tlp->prefix = 0;
}

void model_pcie_tlp_dw(PcieTlp *tlp, unsigned type, bool write, uint32_t dw2,
                       uint8_t be, uint16_t requester, uint8_t tag)
{
    tlp->dw[0] = tlp_dw0(write ? TLP_FMT_3DW_DATA : TLP_FMT_3DW_NODATA,
                         type, 1, false);
    tlp->dw[1] = (uint32_t)requester << 16 | (uint32_t)tag << 8 | (be & 0xf);
    tlp->dw[2] = dw2 & ~3u;
    tlp->dw[3] = 0;
    tlp->prefix = 0;
}

void model_pcie_tlp_cpl(PcieTlp *tlp, uint16_t completer, uint16_t requester,
                        uint8_t tag)
{
    tlp->dw[0] = tlp_dw0(TLP_FMT_3DW_NODATA, TLP_TYPE_CPL, 0, false);
    tlp->dw[1] = (uint32_t)completer << 16 | TLP_CPL_STATUS_SC << 13 | 4;
    tlp->dw[2] = (uint32_t)requester << 16 | (uint32_t)tag << 8;
    tlp->dw[3] = 0;
    tlp->prefix = 0;
}
