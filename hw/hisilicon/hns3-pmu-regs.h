/*
 * HiSilicon HNS3 PMU: the register map, shared by the device and its qtest.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_HISILICON_HNS3_PMU_REGS_H
#define HW_HISILICON_HNS3_PMU_REGS_H

#include "hisi-regs.h"

#define HNS3_PMU_VENDOR_ID          0x19e5
#define HNS3_PMU_DEVICE_ID          0xa22b
#define HNS3_PMU_MMIO_SIZE          0x10000
#define HNS3_PMU_SLOTS              8

/* Event slot @idx's registers: a block of HNS3_PMU_SLOT_SIZE bytes each */
#define HNS3_PMU_SLOT_BASE          0x1000
#define HNS3_PMU_SLOT_SIZE          0x1000
#define HNS3_PMU_SLOT_REG(reg, idx) \
    (HISI_REG_AT(HNS3_PMU_SLOT_BASE, HNS3_PMU_SLOT_SIZE, idx) + A_ ## reg)

REG32(GLOBAL_CTRL, 0x0000)
    FIELD(GLOBAL_CTRL, START, 0, 1)
REG32(CLOCK_FREQ, 0x0020)
REG32(BDF, 0x0fe0)
    FIELD(BDF, MIN, 0, 16)
    FIELD(BDF, MAX, 16, 16)
REG32(VERSION, 0x0fe4)
REG32(DEVICE_ID, 0x0fe8)

/* In each event slot */
REG32(EVENT_CTRL_LOW, 0x00)
    FIELD(EVENT_CTRL_LOW, TYPE, 0, 4)
    FIELD(EVENT_CTRL_LOW, SUBEVENT, 4, 7)
    FIELD(EVENT_CTRL_LOW, STATUS_RESET, 11, 1)
    FIELD(EVENT_CTRL_LOW, EN, 12, 1)
    FIELD(EVENT_CTRL_LOW, OVERFLOW_RESTART, 15, 1)
    FIELD(EVENT_CTRL_LOW, FILTER_MODE, 24, 8)
REG32(EVENT_CTRL_HIGH, 0x04)         /* the filter's condition, by mode */
    FIELD(EVENT_CTRL_HIGH, TC, 0, 3)        /* port-tc mode */
    /* port-tc mode: the driver's port, config1 bits 0-3 (0..15), << 3 */
    FIELD(EVENT_CTRL_HIGH, PORT, 3, 4)
    FIELD(EVENT_CTRL_HIGH, FUNC, 0, 8)      /* func, func-queue: devfn */
REG32(EVENT_INTR_STATUS, 0x08)
    FIELD(EVENT_INTR_STATUS, OVERFLOW, 1, 1)
REG32(EVENT_INTR_MASK, 0x0c)
    FIELD(EVENT_INTR_MASK, OVERFLOW, 1, 1)
REG64(EVENT_COUNTER, 0x10)
REG64(EVENT_EXT_COUNTER, 0x18)
REG32(EVENT_QID_CTRL, 0x28)
    FIELD(EVENT_QID_CTRL, REQ, 0, 1)
    FIELD(EVENT_QID_CTRL, DONE, 1, 1)
    FIELD(EVENT_QID_CTRL, MISS, 2, 1)
REG32(EVENT_QID_PARA, 0x2c)
    FIELD(EVENT_QID_PARA, FUNC, 0, 8)
    FIELD(EVENT_QID_PARA, QUEUE, 16, 16)

/* The event code the driver writes: TYPE and SUBEVENT together */
#define HNS3_PMU_EVENT_CODE(ctrl_low) \
    (FIELD_EX32(ctrl_low, EVENT_CTRL_LOW, TYPE) << 8 | \
     FIELD_EX32(ctrl_low, EVENT_CTRL_LOW, SUBEVENT))

#endif
