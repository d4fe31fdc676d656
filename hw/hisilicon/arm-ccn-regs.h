/*
 * ARM CCN-504 PMU: the register map, shared by the device and its qtest.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_HISILICON_ARM_CCN_REGS_H
#define HW_HISILICON_ARM_CCN_REGS_H

#include "hisi-regs.h"

/* 256 regions of 64 KiB: the MN, the DT, device nodes and XPs */
#define CCN_REGION_SIZE     0x10000
#define CCN_REGIONS         256
#define CCN_MMIO_SIZE       (CCN_REGION_SIZE * CCN_REGIONS)
#define CCN_REGION(r)       HISI_REG_AT(0, CCN_REGION_SIZE, r)
#define CCN_MN_REGION       0x00
#define CCN_DT_REGION       0x01
#define CCN_XP_REGION(x)    (0x80 + (x))
#define CCN_NODE_REGION(n)  (0x20 + (n))    /* device node n */

#define CCN_COUNTERS        8       /* DT event counters */
#define CCN_CYCLE_IDX       8       /* the cycle counter's PMOVSR bit */
#define CCN_EVENT_BITS      32
#define CCN_CYCLE_BITS      40
#define CCN_WPS             2       /* watchpoints per XP */

/* Every region */
REG32(ALL_OLY_ID, 0xff00)
    FIELD(ALL_OLY_ID, TYPE, 0, 5)
    FIELD(ALL_OLY_ID, ID, 8, 6)

/* MN, region 0 */
REG32(MN_ERRINT_STATUS, 0x0008)
    FIELD(MN_ERRINT_STATUS, INTREQ_UPDATE, 0, 1)
    FIELD(MN_ERRINT_STATUS, PMU_EVENTS_UPDATE, 3, 1)
    FIELD(MN_ERRINT_STATUS, INTREQ_DEASSERTED, 4, 1)
    FIELD(MN_ERRINT_STATUS, PMU_EVENTS_DISABLED, 7, 1)
/* Commands: an UPDATE bit selects a field, the bit 4 up is its new value */
#define MN_ERRINT_CMD_PMU_EVENTS_ENABLE \
    R_MN_ERRINT_STATUS_PMU_EVENTS_UPDATE_MASK
#define MN_ERRINT_CMD_PMU_EVENTS_DISABLE \
    (R_MN_ERRINT_STATUS_PMU_EVENTS_UPDATE_MASK | \
     R_MN_ERRINT_STATUS_PMU_EVENTS_DISABLED_MASK)
#define MN_ERRINT_CMD_INTREQ_DEASSERT \
    (R_MN_ERRINT_STATUS_INTREQ_UPDATE_MASK | \
     R_MN_ERRINT_STATUS_INTREQ_DEASSERTED_MASK)
REG32(MN_OLY_COMP_LIST, 0x01e0)     /* a bit per region present */
#define MN_OLY_COMP_LIST_WORDS  (CCN_REGIONS / 32)
#define MN_OLY_COMP_LIST_AT(word) HISI_REG_AT(A_MN_OLY_COMP_LIST, 4, word)
REG32(MN_ERR_SIG_VAL, 0x0300)
    FIELD(MN_ERR_SIG_VAL, DT, 1, 1)
#define MN_ERR_SIG_WORDS    6

/* DT, region 1 */
REG32(DT_ACTIVE_DSM, 0x0000)        /* a byte per counter: its XP */
#define DT_ACTIVE_DSM_BITS  8
#define DT_ACTIVE_DSM_WORDS 2
#define DT_ACTIVE_DSM_PER_WORD (32 / DT_ACTIVE_DSM_BITS)
/* The word holding counter idx's XP, and the byte's place in it */
#define DT_ACTIVE_DSM_AT(idx) \
    HISI_REG_AT(A_DT_ACTIVE_DSM, 4, (idx) / DT_ACTIVE_DSM_PER_WORD)
#define DT_ACTIVE_DSM_SHIFT(idx) \
    ((idx) % DT_ACTIVE_DSM_PER_WORD * DT_ACTIVE_DSM_BITS)
REG32(DT_CTL, 0x0028)
    FIELD(DT_CTL, DT_EN, 0, 1)
REG32(DT_PMEVCNT, 0x0100)           /* counter idx at DT_PMEVCNT_AT(idx) */
#define DT_PMEVCNT_STRIDE   8
#define DT_PMEVCNT_AT(idx)  HISI_REG_AT(A_DT_PMEVCNT, DT_PMEVCNT_STRIDE, idx)
REG64(DT_PMCCNTR, 0x0140)
REG32(DT_PMCCNTRSR, 0x0190)         /* the snapshot: low word, then high */
REG32(DT_PMOVSR, 0x0198)
REG32(DT_PMOVSR_CLR, 0x01a0)
REG32(DT_PMCR, 0x01a8)
    FIELD(DT_PMCR, PMU_EN, 0, 1)
    FIELD(DT_PMCR, OVFL_INTR_EN, 6, 1)
REG32(DT_PMSR, 0x01b0)
REG32(DT_PMSR_REQ, 0x01b8)
REG32(DT_PMSR_CLR, 0x01c0)

/* XP regions */
REG32(XP_DT_CONFIG, 0x0300)         /* a nibble per counter */
#define XP_DT_CONFIG_BITS   4
REG32(XP_DT_INTERFACE_SEL, 0x0308)  /* a byte per watchpoint */
#define XP_DT_INTERFACE_SEL_BITS 8
    FIELD(XP_DT_INTERFACE_SEL, IO_SEL, 0, 1)
    FIELD(XP_DT_INTERFACE_SEL, DEV_SEL, 1, 1)
    FIELD(XP_DT_INTERFACE_SEL, VC_SEL, 2, 2)
/* Watchpoint wp's comparator: four 64-bit registers, written as words */
REG64(XP_DT_CMP_VAL_L, 0x0310)
REG64(XP_DT_CMP_VAL_H, 0x0318)
    FIELD(XP_DT_CMP_VAL_H, OPCODE, 9, 5)
REG64(XP_DT_CMP_MASK_L, 0x0320)
REG64(XP_DT_CMP_MASK_H, 0x0328)
#define XP_DT_WP_STRIDE     0x40
#define XP_DT_WP_AT(reg, wp) HISI_REG_AT(A_ ## reg, XP_DT_WP_STRIDE, wp)
#define XP_DT_CMP_REGS      4
/* The comparators' widths: a mask of all ones matches any flit */
#define XP_DT_CMP_L_BITS    63
#define XP_DT_CMP_H_BITS    60
REG32(XP_DT_CONTROL, 0x0370)
    FIELD(XP_DT_CONTROL, DT_ENABLE, 0, 1)
/* Watchpoint wp always armed, as the driver sets it */
#define XP_DT_CONTROL_WP_ARM_ALWAYS(wp) (0xfu << (12 + 4 * (wp)))
REG32(XP_PMU_EVENT_SEL, 0x0600)     /* 7 bits per source */
#define XP_PMU_EVENT_SEL_BITS 7
/* What a source selects: an XP event, on a ring bus (one each way), a VC */
    FIELD(XP_EVENT_ID, EVENT, 0, 3)
    FIELD(XP_EVENT_ID, BUS, 3, 1)
    FIELD(XP_EVENT_ID, VC, 4, 2)

/* Device node regions */
REG32(NODE_PMU_EVENT_SEL, 0x0600)   /* 4 bits per source */
#define NODE_PMU_EVENT_SEL_BITS 4

/* What XP_DT_CONFIG's nibble for a counter selects */
#define DT_CONFIG_WP0       0x2
#define DT_CONFIG_XP_EVENT  0x4
#define DT_CONFIG_NODE      0x8

#endif
