/*
 * HiSilicon PTT trace records: the 4DW and 8DW formats the device writes
 * into its DMA buffers (Documentation/trace/hisi-ptt.rst, "format"), and
 * which TLPs a TRACE_CTRL direction/type selection lets through.
 *
 * Plain C with no QEMU headers: the host unit tests and benchmarks use it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HISI_MODEL_PTT_RECORD_H
#define HISI_MODEL_PTT_RECORD_H

#include <stdbool.h>
#include <stdint.h>

#include "pcie-tlp.h"
#include "traffic.h"

#define PTT_RECORD_4DW_SIZE 16
#define PTT_RECORD_8DW_SIZE 32

/* TRACE_CTRL.TYPE_SEL bits */
#define PTT_TYPE_P      0x1
#define PTT_TYPE_NP     0x2
#define PTT_TYPE_CPL    0x4
#define PTT_TYPE_ALL    0x7

/* 8DW DW0: bits 31:11 all ones mark the format, 10:0 reserved (ones) */
#define PTT_RECORD_8DW_MARK 0xffffffffu

/*
 * 4DW record: DW0 holds Fmt[1:0], Type, T9, T8, TH, SO, Length and the low
 * 11 bits of @time; DW1-3 are header DW1-3. SO (strong ordering) is set
 * when the TLP does not have relaxed ordering.
 */
void model_ptt_record_4dw(uint8_t out[PTT_RECORD_4DW_SIZE], const PcieTlp *tlp,
                          uint32_t time);

/* 8DW record: mark, prefix, header DW0-3, reserved, 32-bit @time. */
void model_ptt_record_8dw(uint8_t out[PTT_RECORD_8DW_SIZE], const PcieTlp *tlp,
                          uint32_t time);

/* 8DW traces define no direction 0 (reserved). */
static inline bool model_ptt_direction_valid(unsigned rxtx, bool format_8dw)
{
    return rxtx <= 3 && !(format_8dw && rxtx == 0);
}

/* Whether direction @rxtx traces outbound TLPs (see model_ptt_selects) */
static inline bool model_ptt_direction_outbound(unsigned rxtx, bool format_8dw)
{
    return format_8dw ? rxtx == 1 : rxtx >= 1 && rxtx <= 3;
}

/*
 * Whether @types selects one type, as outbound traces need: hisi-ptt.rst
 * "You can specify multiple types when tracing inbound TLP headers, but can
 * only specify one when tracing outbound TLP headers."
 */
static inline bool model_ptt_outbound_types_valid(unsigned types)
{
    types &= PTT_TYPE_ALL;
    return types && !(types & (types - 1));
}

/*
 * Whether TRACE_CTRL's RXTX_SEL @rxtx and TYPE_SEL @types trace a TLP of
 * stream @s, in the 4DW or 8DW meaning of the direction:
 *   4DW 0: inbound P/NP/CPL   1: outbound P/NP/CPL
 *       2: outbound + inbound P/NP/CPL B   3: outbound + inbound CPL A
 *   8DW 0: reserved   1: outbound   2: inbound P/NP/CPL B   3: inbound CPL A
 * Outbound TLPs are traced only when @types selects one type: the outbound
 * side matches a TLP's type against the one selected, so with more than one
 * no outbound TLP matches (the driver passes such a setting on).
 */
bool model_ptt_selects(unsigned rxtx, unsigned types, bool format_8dw,
                       const TrafficStream *s);

#endif
