/*
 * HiSilicon PCIe Tune and Trace: the register map, shared by the device
 * and its qtest.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_HISILICON_HISI_PTT_REGS_H
#define HW_HISILICON_HISI_PTT_REGS_H

#include "hisi-regs.h"

#define HISI_PTT_VENDOR_ID          0x19e5
#define HISI_PTT_DEVICE_ID          0xa12e
#define HISI_PTT_MMIO_SIZE          0x1000
#define HISI_PTT_NUM_BUFS           4

REG32(TUNING_CTRL, 0x0000)
    FIELD(TUNING_CTRL, CODE, 0, 16)
    FIELD(TUNING_CTRL, SUB, 16, 8)
REG32(TUNING_DATA, 0x0004)
    FIELD(TUNING_DATA, VAL, 0, 16)
REG32(TRACE_ADDR_SIZE, 0x0800)
/* Buffer @buf's base address: a 64-bit register, written as two words */
REG64(TRACE_ADDR_BASE, 0x0810)
#define TRACE_ADDR_BASE_STRIDE      8
#define TRACE_ADDR_BASE_LO(buf) \
    HISI_REG_AT(A_TRACE_ADDR_BASE, TRACE_ADDR_BASE_STRIDE, buf)
#define TRACE_ADDR_BASE_HI(buf)     (TRACE_ADDR_BASE_LO(buf) + 4)
REG32(TRACE_CTRL, 0x0850)
    FIELD(TRACE_CTRL, EN, 0, 1)
    FIELD(TRACE_CTRL, RST, 1, 1)
    FIELD(TRACE_CTRL, RXTX_SEL, 2, 2)
    FIELD(TRACE_CTRL, TYPE_SEL, 4, 4)
    FIELD(TRACE_CTRL, DATA_FORMAT, 14, 1)
    FIELD(TRACE_CTRL, FILTER_MODE, 15, 1)
    FIELD(TRACE_CTRL, TARGET_SEL, 16, 16)
REG32(TRACE_INT_STAT, 0x0890)           /* a bit per buffer */
    FIELD(TRACE_INT_STAT, BUFS, 0, HISI_PTT_NUM_BUFS)
REG32(TRACE_INT_MASK, 0x0894)
    FIELD(TRACE_INT_MASK, BUFS, 0, HISI_PTT_NUM_BUFS)
REG32(TUNING_INT_STAT, 0x0898)
    FIELD(TUNING_INT_STAT, BUSY, 0, 1)
REG32(TRACE_WR_STS, 0x08a0)
    FIELD(TRACE_WR_STS, WRITE, 0, 28)
    FIELD(TRACE_WR_STS, BUFFER, 28, 2)
REG32(TRACE_STS, 0x08b0)
    FIELD(TRACE_STS, IDLE, 0, 1)
REG32(DEVICE_RANGE, 0x0fe0)
    FIELD(DEVICE_RANGE, LOWER, 0, 16)
    FIELD(DEVICE_RANGE, UPPER, 16, 16)
REG32(LOCATION, 0x0fe8)
    FIELD(LOCATION, CORE_ID, 0, 16)
    FIELD(LOCATION, SICL_ID, 16, 16)

/* Reset values */
#define TRACE_INT_MASK_RESET        R_TRACE_INT_MASK_BUFS_MASK

/* TUNING_DATA written with this reads the event's value back */
#define TUNING_DATA_READ_REQ        0xffffffffu

/* A tune event's TUNING_CTRL: its code and sub-event */
#define PTT_TUNE_EVENT(code, sub) \
    ((code) | (sub) << R_TUNING_CTRL_SUB_SHIFT)

#endif
