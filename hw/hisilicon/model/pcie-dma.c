/*
 * How an endpoint's DMA goes on its PCIe link.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "pcie-dma.h"

uint32_t model_pcie_dma_size(unsigned field)
{
    return 128u << (field > 5 ? 5 : field);
}

/* Bytes of the TLP that starts at @addr: up to @max, to @max's next multiple */
static uint32_t dma_piece(uint64_t addr, uint64_t end, uint32_t max)
{
    uint64_t to_boundary = max - (addr & (max - 1));

    return end - addr < to_boundary ? end - addr : to_boundary;
}

uint64_t model_pcie_dma_tlps(const PcieDmaLink *link, bool write,
                             uint64_t addr, uint64_t len, uint8_t *tag,
                             PcieDmaTlpFn *fn, void *opaque)
{
    const uint64_t end = addr + len;
    uint64_t tlps = 0;
    PcieTlp tlp;

    while (addr < end) {
        uint32_t req = dma_piece(addr, end, write ? link->mps : link->mrrs);

        model_pcie_tlp_mem(&tlp, write, addr, req, link->endpoint,
                           write ? 0 : *tag, false);
        fn(opaque, &tlp, true, write ? req : 0);
        tlps++;
        if (!write) {
            for (uint64_t a = addr; a < addr + req; tlps++) {
                uint32_t cpl = dma_piece(a, addr + req, link->mps);

                model_pcie_tlp_cpld(&tlp, link->port, link->endpoint, *tag,
                                    a, cpl, addr + req - a);
                fn(opaque, &tlp, false, cpl);
                a += cpl;
            }
            (*tag)++;
        }
        addr += req;
    }
    return tlps;
}
