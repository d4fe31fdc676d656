/*
 * Register decoding the HiSilicon device models and their qtests share:
 * arrays of registers at a fixed stride, and 64-bit registers that the
 * guest may access whole or by 32-bit halves.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_HISILICON_HISI_REGS_H
#define HW_HISILICON_HISI_REGS_H

#include "hw/hisilicon/hisi-compat.h"
#include HISI_REGISTERFIELDS_H

/*
 * Is @addr in the array of @count registers (or register blocks) of
 * @stride bytes that starts at @base? Its index into @idx and its offset
 * in the element into @off.
 */
static inline bool hisi_reg_in_array(uint64_t addr, uint64_t base,
                                     uint64_t stride, unsigned count,
                                     unsigned *idx, uint64_t *off)
{
    if (addr < base || addr - base >= stride * count) {
        return false;
    }
    *idx = (addr - base) / stride;
    *off = (addr - base) % stride;
    return true;
}

/* Element @idx of an array of registers at @base, @stride apart */
#define HISI_REG_AT(base, stride, idx) ((base) + (uint64_t)(stride) * (idx))

/*
 * A 64-bit register accessed whole (@size 8) or by its 32-bit halves
 * (@off & 4 says which).
 */
static inline uint64_t hisi_reg64_read(uint64_t reg, uint64_t off,
                                       unsigned size)
{
    return size == 8 ? reg : extract64(reg, (off & 4) * 8, 32);
}

static inline uint64_t hisi_reg64_write(uint64_t reg, uint64_t off,
                                        unsigned size, uint64_t val)
{
    return size == 8 ? val : deposit64(reg, (off & 4) * 8, 32, val);
}

#endif
