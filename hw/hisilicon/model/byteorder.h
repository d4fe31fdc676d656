/*
 * Little-endian stores for the model's records, one store each on
 * little-endian hosts.
 *
 * Plain C with no QEMU headers: the host unit tests and benchmarks use it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HISI_MODEL_BYTEORDER_H
#define HISI_MODEL_BYTEORDER_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* Whether the host is little-endian; compilers fold it to a constant */
static inline bool model_host_is_le(void)
{
    const uint16_t one = 1;
    uint8_t first;

    memcpy(&first, &one, 1);
    return first;
}

static inline void model_put_le32(uint8_t *p, uint32_t v)
{
    if (!model_host_is_le()) {
        v = __builtin_bswap32(v);
    }
    memcpy(p, &v, sizeof(v));
}

static inline void model_put_le64(uint8_t *p, uint64_t v)
{
    if (!model_host_is_le()) {
        v = __builtin_bswap64(v);
    }
    memcpy(p, &v, sizeof(v));
}

#endif
