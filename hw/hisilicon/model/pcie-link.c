/*
 * How transfers go on a PCIe link.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "pcie-link.h"

uint32_t model_pcie_link_size(unsigned field)
{
    return 128u << (field > 5 ? 5 : field);
}

/* Bytes of the TLP that starts at @addr: up to @max, to @max's next multiple */
static uint32_t link_piece(uint64_t addr, uint64_t end, uint32_t max)
{
    uint64_t to_boundary = max - (addr & (max - 1));

    return end - addr < to_boundary ? end - addr : to_boundary;
}

uint64_t model_pcie_link_mem(const PcieLink *link, bool write,
                             uint64_t addr, uint64_t len, uint8_t *tag,
                             PcieLinkTlpFn *fn, void *opaque)
{
    const uint64_t end = addr + len;
    const bool up = !link->downstream;
    uint64_t tlps = 0;
    PcieTlp tlp;

    while (addr < end) {
        uint32_t req = link_piece(addr, end, write ? link->mps : link->mrrs);

        model_pcie_tlp_mem(&tlp, write, addr, req, link->requester,
                           write ? 0 : *tag, false);
        fn(opaque, &tlp, up, write ? req : 0);
        tlps++;
        if (!write) {
            for (uint64_t a = addr; a < addr + req; tlps++) {
                uint32_t cpl = link_piece(a, addr + req, link->mps);

                model_pcie_tlp_cpld(&tlp, link->completer, link->requester,
                                    *tag, a, cpl, addr + req - a);
                fn(opaque, &tlp, !up, cpl);
                a += cpl;
            }
            (*tag)++;
        }
        addr += req;
    }
    return tlps;
}

uint64_t model_pcie_link_dw(const PcieLink *link, unsigned type, bool write,
                            uint32_t addr, uint32_t len, uint8_t *tag,
                            PcieLinkTlpFn *fn, void *opaque)
{
    const uint64_t end = (uint64_t)addr + len;
    const bool up = !link->downstream;
    uint32_t target = type == TLP_TYPE_IO ? 0 : (uint32_t)link->completer << 16;
    uint64_t tlps = 0;
    PcieTlp tlp;

    for (uint64_t a = addr; a < end; tlps += 2) {
        uint32_t bytes = link_piece(a, end, 4);
        uint8_t be = (0xfu >> (4 - bytes)) << (a & 3);
        uint32_t dw2 = type == TLP_TYPE_IO ? a : target | (a & 0xffc);

        model_pcie_tlp_dw(&tlp, type, write, dw2, be, link->requester, *tag);
        fn(opaque, &tlp, up, write ? bytes : 0);
        if (write) {
            model_pcie_tlp_cpl(&tlp, link->completer, link->requester, *tag);
            fn(opaque, &tlp, !up, 0);
        } else {
            model_pcie_tlp_cpld(&tlp, link->completer, link->requester, *tag,
                                0, 4, 4);
            fn(opaque, &tlp, !up, 4);
        }
        (*tag)++;
        a += bytes;
    }
    return tlps;
}
