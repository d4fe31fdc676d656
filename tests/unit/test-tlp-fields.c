/*
 * Host unit tests: every field of the TLP headers and of both PTT record
 * formats, one field at a time, independently of the synthetic traffic.
 *
 * Each case sets one field to all ones (or to a boundary value) with the
 * others at zero and checks exactly which bits change, so a field that
 * moved, shrank, grew or overlaps another fails. The expected positions
 * are written down from the specifications, not taken from the encoders:
 * PCIe r5.0 section 2.2 for the headers, and for the records the layout
 * of Documentation/trace/hisi-ptt.rst, whose field names and widths are
 * those of perf's union hisi_ptt_4dw (tools/perf/util/hisi-ptt-decoder).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <glib.h>
#include <string.h>

#include "pcie-tlp.h"
#include "ptt-record.h"

/* Bits hi..lo set */
#define BITS(hi, lo)    ((uint32_t)(((1ull << ((hi) - (lo) + 1)) - 1) << (lo)))

/* Header DW0 fields, PCIe r5.0 figure 2-5 */
#define H_FMT           BITS(31, 29)
#define H_FMT10         BITS(30, 29)    /* Fmt[1:0] */
#define H_TYPE          BITS(28, 24)
#define H_T9            BITS(23, 23)
#define H_TC            BITS(22, 20)
#define H_T8            BITS(19, 19)
#define H_ATTR2         BITS(18, 18)
#define H_LN            BITS(17, 17)
#define H_TH            BITS(16, 16)
#define H_TD            BITS(15, 15)
#define H_EP            BITS(14, 14)
#define H_ATTR1         BITS(13, 13)    /* relaxed ordering */
#define H_ATTR0         BITS(12, 12)
#define H_AT            BITS(11, 10)
#define H_LENGTH        BITS(9, 0)

/*
 * 4DW record DW0 as hisi-ptt.rst draws it, most significant field first:
 *   [31:30] Fmt [29:25] Type [24] T9 [23] T8 [22] TH [21] SO
 *   [20:11] Length [10:0] Time
 * perf's union hisi_ptt_4dw lists the same fields with the same widths.
 */
static const struct {
    const char *name;
    unsigned width;
} record4_layout[] = {
    { "Fmt", 2 }, { "Type", 5 }, { "T9", 1 }, { "T8", 1 }, { "TH", 1 },
    { "SO", 1 }, { "Length", 10 }, { "Time", 11 },
};

static uint32_t r4(const char *name)
{
    unsigned top = 32;

    for (size_t i = 0; i < G_N_ELEMENTS(record4_layout); i++) {
        unsigned w = record4_layout[i].width;

        if (!strcmp(record4_layout[i].name, name)) {
            return BITS(top - 1, top - w);
        }
        top -= w;
    }
    g_assert_not_reached();
}

static uint32_t le32(const uint8_t *p)
{
    return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The lowest set bit of @mask times @v: value @v in field @mask */
static uint32_t field(uint32_t mask, uint32_t v)
{
    return (v * (mask & -mask)) & mask;
}

static void check_tlp(const PcieTlp *t, uint32_t dw0, uint32_t dw1,
                      uint32_t dw2, uint32_t dw3)
{
    g_assert_cmphex(t->dw[0], ==, dw0);
    g_assert_cmphex(t->dw[1], ==, dw1);
    g_assert_cmphex(t->dw[2], ==, dw2);
    g_assert_cmphex(t->dw[3], ==, dw3);
    g_assert_cmphex(t->prefix, ==, 0);
}

/*
 * Memory requests: a 1-DW read of address 0 from requester 0, tag 0, is
 * the base; each argument alone moves only its field (figures 2-15..2-17:
 * DW1 Requester ID 31:16, Tag 15:8, Last DW BE 7:4, First DW BE 3:0).
 */
static void test_mem_fields(void)
{
    const uint32_t fmt_3dw_data = field(H_FMT, 2), fmt_4dw = field(H_FMT, 1);
    const uint32_t fmt_4dw_data = field(H_FMT, 3);
    const uint32_t base0 = field(H_LENGTH, 1), be1 = 0x0000000f;
    PcieTlp t;

    memset(&t, 0xa5, sizeof(t));
    model_pcie_tlp_mem(&t, false, 0, 4, 0, 0, false);
    check_tlp(&t, base0, be1, 0, 0);

    /* Requester ID: 0xffff, 1, each alone */
    model_pcie_tlp_mem(&t, false, 0, 4, 0xffff, 0, false);
    check_tlp(&t, base0, BITS(31, 16) | be1, 0, 0);
    model_pcie_tlp_mem(&t, false, 0, 4, 1, 0, false);
    check_tlp(&t, base0, BITS(16, 16) | be1, 0, 0);
    /* Tag */
    model_pcie_tlp_mem(&t, false, 0, 4, 0, 0xff, false);
    check_tlp(&t, base0, BITS(15, 8) | be1, 0, 0);
    model_pcie_tlp_mem(&t, false, 0, 4, 0, 1, false);
    check_tlp(&t, base0, BITS(8, 8) | be1, 0, 0);
    /* Relaxed ordering is Attr[1], alone */
    model_pcie_tlp_mem(&t, false, 0, 4, 0, 0, true);
    check_tlp(&t, base0 | H_ATTR1, be1, 0, 0);
    /* A write is Fmt 010 (3DW with data) */
    model_pcie_tlp_mem(&t, true, 0, 4, 0, 0, false);
    check_tlp(&t, base0 | fmt_3dw_data, be1, 0, 0);

    /* 32-bit addresses: DW2 bits 31:2, the low two bits are not sent */
    model_pcie_tlp_mem(&t, false, 0xfffffffc, 4, 0, 0, false);
    check_tlp(&t, base0, be1, 0xfffffffc, 0);
    model_pcie_tlp_mem(&t, false, 0xffffffff, 1, 0, 0, false);
    check_tlp(&t, base0, 0x8, 0xfffffffc, 0);
    model_pcie_tlp_mem(&t, false, 4, 4, 0, 0, false);
    check_tlp(&t, base0, be1, 4, 0);
    model_pcie_tlp_mem(&t, false, 3, 1, 0, 0, false);
    check_tlp(&t, base0, 0x8, 0, 0);
    /* From 4 GiB on a 4DW header: DW2 address 63:32, DW3 31:2 */
    model_pcie_tlp_mem(&t, false, 0x100000000ull, 4, 0, 0, false);
    check_tlp(&t, base0 | fmt_4dw, be1, 1, 0);
    model_pcie_tlp_mem(&t, false, UINT64_MAX, 1, 0, 0, false);
    check_tlp(&t, base0 | fmt_4dw, 0x8, 0xffffffff, 0xfffffffc);
    model_pcie_tlp_mem(&t, false, 0x8000000000000004ull, 4, 0, 0, false);
    check_tlp(&t, base0 | fmt_4dw, be1, 0x80000000, 4);
    model_pcie_tlp_mem(&t, true, 0x100000000ull, 4, 0, 0, false);
    check_tlp(&t, base0 | fmt_4dw_data, be1, 1, 0);

    /*
     * Length: 1, 2, 1023 DWs as they are, 1024 as 0; more than one DW
     * enables every byte of the last DW too.
     */
    model_pcie_tlp_mem(&t, false, 0, 8, 0, 0, false);
    check_tlp(&t, field(H_LENGTH, 2), 0xff, 0, 0);
    model_pcie_tlp_mem(&t, false, 0, 4092, 0, 0, false);
    check_tlp(&t, H_LENGTH, 0xff, 0, 0);
    model_pcie_tlp_mem(&t, false, 0, 4096, 0, 0, false);
    check_tlp(&t, 0, 0xff, 0, 0);
    g_assert_cmpuint(model_pcie_tlp_len_dw(&t), ==, 1024);
    /* The field holds 10 bits: 1025 is 1 again, and never spills over */
    model_pcie_tlp_mem(&t, false, 0, 4100, 0, 0, false);
    check_tlp(&t, field(H_LENGTH, 1), 0xff, 0, 0);
    model_pcie_tlp_mem(&t, false, 0, 0x3fffc, 0, 0, false);
    check_tlp(&t, H_LENGTH, 0xff, 0, 0);

    /*
     * Byte enables (r5.0 2.2.5): the first DW's from the first byte on,
     * the last DW's up to the last byte; one DW has both in the first
     * enables and 0 in the last.
     */
    model_pcie_tlp_mem(&t, false, 1, 1, 0, 0, false);
    check_tlp(&t, base0, 0x2, 0, 0);
    model_pcie_tlp_mem(&t, false, 1, 2, 0, 0, false);
    check_tlp(&t, base0, 0x6, 0, 0);
    model_pcie_tlp_mem(&t, false, 2, 2, 0, 0, false);
    check_tlp(&t, base0, 0xc, 0, 0);
    model_pcie_tlp_mem(&t, false, 1, 3, 0, 0, false);
    check_tlp(&t, base0, 0xe, 0, 0);
    model_pcie_tlp_mem(&t, false, 0, 3, 0, 0, false);
    check_tlp(&t, base0, 0x7, 0, 0);
    model_pcie_tlp_mem(&t, false, 1, 4, 0, 0, false);
    check_tlp(&t, field(H_LENGTH, 2), 0x1e, 0, 0);
    model_pcie_tlp_mem(&t, false, 3, 2, 0, 0, false);
    check_tlp(&t, field(H_LENGTH, 2), 0x18, 0, 0);
    model_pcie_tlp_mem(&t, false, 0, 7, 0, 0, false);
    check_tlp(&t, field(H_LENGTH, 2), 0x7f, 0, 0);
    model_pcie_tlp_mem(&t, false, 3, 4087, 0, 0, false);
    check_tlp(&t, H_LENGTH, 0x38, 0, 0);
    model_pcie_tlp_mem(&t, false, 2, 4092, 0, 0, false);
    check_tlp(&t, field(H_LENGTH, 0), 0x3c, 0, 0);

    /*
     * Everything at its maximum: TC, T9, T8, Attr[2], LN, TH, TD, EP,
     * Attr[0] and AT stay 0, as the model never sets them.
     */
    model_pcie_tlp_mem(&t, true, UINT64_MAX - 3, 4096, 0xffff, 0xff, true);
    check_tlp(&t, fmt_4dw_data | H_ATTR1, 0xffffffff, 0xffffffff, 0xfffffffc);
    g_assert_cmpuint(model_pcie_tlp_fmt(&t), ==, TLP_FMT_4DW_DATA);
    g_assert_cmpuint(model_pcie_tlp_type(&t), ==, TLP_TYPE_MEM);
    g_assert_true(model_pcie_tlp_has_data(&t));
}

/*
 * Completions with data (figure 2-21): DW1 Completer ID 31:16, Status
 * 15:13, BCM 12, Byte Count 11:0; DW2 Requester ID 31:16, Tag 15:8, R 7,
 * Lower Address 6:0. The base completes a 1-DW read: Byte Count 4.
 */
static void test_cpl_fields(void)
{
    const uint32_t cpld = field(H_FMT, 2) | field(H_TYPE, 0x0a);
    PcieTlp t;

    memset(&t, 0xa5, sizeof(t));
    model_pcie_tlp_cpld(&t, 0, 0, 0, 0, 4, 4);
    check_tlp(&t, cpld | 1, 4, 0, 0);
    g_assert_cmpuint(model_pcie_tlp_type(&t), ==, TLP_TYPE_CPL);

    model_pcie_tlp_cpld(&t, 0xffff, 0, 0, 0, 4, 4);
    check_tlp(&t, cpld | 1, BITS(31, 16) | 4, 0, 0);
    model_pcie_tlp_cpld(&t, 1, 0, 0, 0, 4, 4);
    check_tlp(&t, cpld | 1, BITS(16, 16) | 4, 0, 0);
    model_pcie_tlp_cpld(&t, 0, 0xffff, 0, 0, 4, 4);
    check_tlp(&t, cpld | 1, 4, BITS(31, 16), 0);
    model_pcie_tlp_cpld(&t, 0, 1, 0, 0, 4, 4);
    check_tlp(&t, cpld | 1, 4, BITS(16, 16), 0);
    model_pcie_tlp_cpld(&t, 0, 0, 0xff, 0, 4, 4);
    check_tlp(&t, cpld | 1, 4, BITS(15, 8), 0);
    model_pcie_tlp_cpld(&t, 0, 0, 1, 0, 4, 4);
    check_tlp(&t, cpld | 1, 4, BITS(8, 8), 0);
    /* Lower Address is 7 bits: bit 7 of the address is dropped, R stays 0 */
    model_pcie_tlp_cpld(&t, 0, 0, 0, 0x7f, 1, 4);
    check_tlp(&t, cpld | 1, 4, BITS(6, 0), 0);
    model_pcie_tlp_cpld(&t, 0, 0, 0, 0xff, 1, 4);
    check_tlp(&t, cpld | 1, 4, BITS(6, 0), 0);
    model_pcie_tlp_cpld(&t, 0, 0, 0, 0x80, 4, 4);
    check_tlp(&t, cpld | 1, 4, 0, 0);
    model_pcie_tlp_cpld(&t, 0, 0, 0, 1, 1, 4);
    check_tlp(&t, cpld | 1, 4, 1, 0);

    /* Byte Count: 4 bytes a DW, 12 bits, 4096 encodes as 0 */
    model_pcie_tlp_cpld(&t, 0, 0, 0, 0, 8, 8);
    check_tlp(&t, cpld | 2, 8, 0, 0);
    model_pcie_tlp_cpld(&t, 0, 0, 0, 0, 4092, 4092);
    check_tlp(&t, cpld | H_LENGTH, 0xffc, 0, 0);
    model_pcie_tlp_cpld(&t, 0, 0, 0, 0, 4096, 4096);
    check_tlp(&t, cpld, 0, 0, 0);
    g_assert_cmpuint(model_pcie_tlp_len_dw(&t), ==, 1024);
    model_pcie_tlp_cpld(&t, 0, 0, 0, 0, 4100, 4100);
    check_tlp(&t, cpld | 1, 4, 0, 0);

    /*
     * Byte Count is what the request has left, this completion's bytes
     * and those of the completions after it: not its own length
     */
    model_pcie_tlp_cpld(&t, 0, 0, 0, 0, 4, 4096);
    check_tlp(&t, cpld | 1, 0, 0, 0);
    model_pcie_tlp_cpld(&t, 0, 0, 0, 0, 4, 0xfff);
    check_tlp(&t, cpld | 1, 0xfff, 0, 0);
    /* Length counts the DWs the bytes touch, from Lower Address */
    model_pcie_tlp_cpld(&t, 0, 0, 0, 0x43, 2, 2);
    check_tlp(&t, cpld | 2, 2, 0x43, 0);

    /* All at maximum: Status SC (0), BCM 0, R 0 */
    model_pcie_tlp_cpld(&t, 0xffff, 0xffff, 0xff, 0xff, 4089, 4092);
    check_tlp(&t, cpld | H_LENGTH, BITS(31, 16) | 0xffc, BITS(31, 8) |
              BITS(6, 0), 0);
}

/*
 * I/O and configuration requests (r5.0 2.2.7): Length 1, TC, Attr and TH
 * 0; DW1 Requester ID 31:16, Tag 15:8, Last DW BE 7:4 0, First DW BE 3:0;
 * DW2 the I/O address 31:2, or the target's BDF 31:16 and the register
 * 11:2, bits 1:0 reserved (0). A read of DW 0 from requester 0, tag 0, is
 * the base; each argument alone moves its field.
 */
static void test_dw_fields(void)
{
    const uint32_t io = field(H_TYPE, 0x02) | 1;
    PcieTlp t;

    memset(&t, 0xa5, sizeof(t));
    model_pcie_tlp_dw(&t, TLP_TYPE_IO, false, 0, 0xf, 0, 0);
    check_tlp(&t, io, 0xf, 0, 0);

    /* Requester ID, Tag */
    model_pcie_tlp_dw(&t, TLP_TYPE_IO, false, 0, 0xf, 0xffff, 0);
    check_tlp(&t, io, BITS(31, 16) | 0xf, 0, 0);
    model_pcie_tlp_dw(&t, TLP_TYPE_IO, false, 0, 0xf, 1, 0);
    check_tlp(&t, io, BITS(16, 16) | 0xf, 0, 0);
    model_pcie_tlp_dw(&t, TLP_TYPE_IO, false, 0, 0xf, 0, 0xff);
    check_tlp(&t, io, BITS(15, 8) | 0xf, 0, 0);
    model_pcie_tlp_dw(&t, TLP_TYPE_IO, false, 0, 0xf, 0, 1);
    check_tlp(&t, io, BITS(8, 8) | 0xf, 0, 0);
    /* First DW BE as given, Last DW BE 0 */
    model_pcie_tlp_dw(&t, TLP_TYPE_IO, false, 0, 0x1, 0, 0);
    check_tlp(&t, io, 0x1, 0, 0);
    model_pcie_tlp_dw(&t, TLP_TYPE_IO, false, 0, 0x8, 0, 0);
    check_tlp(&t, io, 0x8, 0, 0);
    /* A write is Fmt 010, still Length 1 */
    model_pcie_tlp_dw(&t, TLP_TYPE_IO, true, 0, 0xf, 0, 0);
    check_tlp(&t, io | field(H_FMT, 2), 0xf, 0, 0);

    /* I/O address: bits 31:2 go, bits 1:0 are reserved */
    model_pcie_tlp_dw(&t, TLP_TYPE_IO, false, 0xfffffffc, 0xf, 0, 0);
    check_tlp(&t, io, 0xf, 0xfffffffc, 0);
    model_pcie_tlp_dw(&t, TLP_TYPE_IO, false, 4, 0xf, 0, 0);
    check_tlp(&t, io, 0xf, 4, 0);
    model_pcie_tlp_dw(&t, TLP_TYPE_IO, false, 1, 0x2, 0, 0);
    check_tlp(&t, io, 0x2, 0, 0);
    model_pcie_tlp_dw(&t, TLP_TYPE_IO, false, 2, 0x4, 0, 0);
    check_tlp(&t, io, 0x4, 0, 0);
    model_pcie_tlp_dw(&t, TLP_TYPE_IO, false, 0xffffffff, 0x8, 0, 0);
    check_tlp(&t, io, 0x8, 0xfffffffc, 0);

    /* Configuration: Type 00100 and 00101, DW2 BDF and register */
    model_pcie_tlp_dw(&t, TLP_TYPE_CFG0, false, 0xffff0ffc, 0xf, 0, 0);
    check_tlp(&t, field(H_TYPE, 0x04) | 1, 0xf, 0xffff0ffc, 0);
    model_pcie_tlp_dw(&t, TLP_TYPE_CFG1, true, 0x00010004, 0xf, 0, 0);
    check_tlp(&t, field(H_FMT, 2) | field(H_TYPE, 0x05) | 1, 0xf,
              0x00010004, 0);
    model_pcie_tlp_dw(&t, TLP_TYPE_CFG0, false, 0x02080103, 0x8, 0, 0);
    check_tlp(&t, field(H_TYPE, 0x04) | 1, 0x8, 0x02080100, 0);

    /* All at maximum */
    model_pcie_tlp_dw(&t, TLP_TYPE_CFG1, true, 0xffff0fff, 0xf, 0xffff, 0xff);
    check_tlp(&t, field(H_FMT, 2) | field(H_TYPE, 0x05) | 1,
              BITS(31, 8) | 0xf, 0xffff0ffc, 0);
    g_assert_cmpuint(model_pcie_tlp_len_dw(&t), ==, 1);
}

/*
 * Completions without data (figure 2-21; 2.2.9): Fmt 000, Type 01010,
 * Length reserved (0); DW1 Completer ID 31:16, Status SC (0), BCM 0, Byte
 * Count 4; DW2 Requester ID 31:16, Tag 15:8, R 0, Lower Address 0.
 */
static void test_cpl_nodata_fields(void)
{
    const uint32_t cpl = field(H_TYPE, 0x0a);
    PcieTlp t;

    memset(&t, 0xa5, sizeof(t));
    model_pcie_tlp_cpl(&t, 0, 0, 0);
    check_tlp(&t, cpl, 4, 0, 0);
    g_assert_cmpuint(model_pcie_tlp_type(&t), ==, TLP_TYPE_CPL);
    g_assert_false(model_pcie_tlp_has_data(&t));
    g_assert_cmpuint(model_pcie_tlp_len_dw(&t), ==, 0);

    model_pcie_tlp_cpl(&t, 0xffff, 0, 0);
    check_tlp(&t, cpl, BITS(31, 16) | 4, 0, 0);
    model_pcie_tlp_cpl(&t, 1, 0, 0);
    check_tlp(&t, cpl, BITS(16, 16) | 4, 0, 0);
    model_pcie_tlp_cpl(&t, 0, 0xffff, 0);
    check_tlp(&t, cpl, 4, BITS(31, 16), 0);
    model_pcie_tlp_cpl(&t, 0, 1, 0);
    check_tlp(&t, cpl, 4, BITS(16, 16), 0);
    model_pcie_tlp_cpl(&t, 0, 0, 0xff);
    check_tlp(&t, cpl, 4, BITS(15, 8), 0);
    model_pcie_tlp_cpl(&t, 0, 0, 1);
    check_tlp(&t, cpl, 4, BITS(8, 8), 0);
    model_pcie_tlp_cpl(&t, 0xffff, 0xffff, 0xff);
    check_tlp(&t, cpl, BITS(31, 16) | 4, BITS(31, 8), 0);
}

/* The accessors read the fields back from where the spec puts them */
static void test_accessors(void)
{
    PcieTlp t = { .dw = { H_FMT } };

    g_assert_cmpuint(model_pcie_tlp_fmt(&t), ==, 7);
    g_assert_cmpuint(model_pcie_tlp_type(&t), ==, 0);
    g_assert_cmpuint(model_pcie_tlp_len_dw(&t), ==, 1024);
    g_assert_true(model_pcie_tlp_has_data(&t));
    t.dw[0] = H_TYPE;
    g_assert_cmpuint(model_pcie_tlp_fmt(&t), ==, 0);
    g_assert_cmpuint(model_pcie_tlp_type(&t), ==, 0x1f);
    g_assert_false(model_pcie_tlp_has_data(&t));
    t.dw[0] = ~H_TYPE;
    g_assert_cmpuint(model_pcie_tlp_type(&t), ==, 0);
    g_assert_cmpuint(model_pcie_tlp_len_dw(&t), ==, 1023);
    t.dw[0] = field(H_FMT, 1) | 1;
    g_assert_false(model_pcie_tlp_has_data(&t));
    g_assert_cmpuint(model_pcie_tlp_len_dw(&t), ==, 1);
    t.dw[0] = field(H_FMT, 2);
    g_assert_true(model_pcie_tlp_has_data(&t));
}

/* The 4DW record of header @h at @time: DW0, and DW1-3 into @rest */
static uint32_t record4(const PcieTlp *h, uint32_t time, uint32_t rest[3])
{
    uint8_t r[PTT_RECORD_4DW_SIZE + 4];

    memset(r, 0xa5, sizeof(r));
    model_ptt_record_4dw(r, h, time);
    /* exactly 16 bytes written */
    g_assert_cmphex(le32(r + PTT_RECORD_4DW_SIZE), ==, 0xa5a5a5a5);
    for (unsigned i = 0; i < 3; i++) {
        rest[i] = le32(r + 4 + 4 * i);
    }
    return le32(r);
}

/*
 * Record DW0, one header DW0 field at a time: each of Fmt[1:0], Type, T9,
 * T8, TH and Length goes to its place in the record, relaxed ordering
 * clears SO (set for every TLP without it), and the fields the record has
 * no room for (Fmt[2], TC, Attr[2], LN, TD, EP, Attr[0], AT) leave no trace.
 */
static void test_record4_fields(void)
{
    static const struct {
        uint32_t header;
        const char *record;     /* the record field it goes to, or none */
    } map[] = {
        { H_FMT10, "Fmt" }, { H_TYPE, "Type" }, { H_T9, "T9" },
        { H_T8, "T8" }, { H_TH, "TH" }, { H_LENGTH, "Length" },
        { H_FMT & ~H_FMT10, NULL }, { H_TC, NULL }, { H_ATTR2, NULL },
        { H_LN, NULL }, { H_TD, NULL }, { H_EP, NULL }, { H_ATTR0, NULL },
        { H_AT, NULL },
    };
    const uint32_t so = r4("SO");
    uint32_t all = 0, rest[3];
    PcieTlp h = { 0 };

    g_assert_cmphex(record4(&h, 0, rest), ==, so);
    g_assert_cmphex(rest[0] | rest[1] | rest[2], ==, 0);
    for (size_t i = 0; i < G_N_ELEMENTS(map); i++) {
        uint32_t in = map[i].header;
        uint32_t out = map[i].record ? r4(map[i].record) : 0;

        all |= in;
        h.dw[0] = in;
        g_assert_cmphex(record4(&h, 0, rest), ==, so | out);
        /* the lowest bit of the field alone: the field is not reversed */
        h.dw[0] = in & -in;
        g_assert_cmphex(record4(&h, 0, rest), ==, so | (out & -out));
        g_assert_cmphex(rest[0] | rest[1] | rest[2], ==, 0);
    }
    h.dw[0] = H_ATTR1;
    g_assert_cmphex(record4(&h, 0, rest), ==, 0);
    /* the table covers header DW0 whole */
    g_assert_cmphex(all | H_ATTR1, ==, 0xffffffff);
    h.dw[0] = 0xffffffff;
    g_assert_cmphex(record4(&h, 0, rest), ==,
                    r4("Fmt") | r4("Type") | r4("T9") | r4("T8") | r4("TH") |
                    r4("Length"));
}

/* Time: the low 11 bits, nothing of the rest */
static void test_record4_time(void)
{
    static const uint32_t times[][2] = {
        { 1, 1 }, { 0x7ff, 0x7ff }, { 0x800, 0 }, { 0x801, 1 },
        { 0xffffffff, 0x7ff }, { 0x80000000, 0 },
    };
    const uint32_t so = r4("SO");
    uint32_t rest[3];
    PcieTlp h = { 0 };

    g_assert_cmphex(r4("Time"), ==, 0x7ff);
    for (size_t i = 0; i < G_N_ELEMENTS(times); i++) {
        g_assert_cmphex(record4(&h, times[i][0], rest), ==,
                        so | field(r4("Time"), times[i][1]));
        g_assert_cmphex(rest[0] | rest[1] | rest[2], ==, 0);
    }
}

/* Record DW1-3 are header DW1-3 as they are, each alone */
static void test_record4_header_dws(void)
{
    static const uint32_t values[] = { 0xffffffff, 1, 0x80000000, 0x12345678 };
    uint32_t rest[3];

    for (unsigned d = 1; d < 4; d++) {
        for (size_t v = 0; v < G_N_ELEMENTS(values); v++) {
            PcieTlp h = { 0 };

            h.dw[d] = values[v];
            h.prefix = 0xffffffff;  /* no room for it in 4DW */
            g_assert_cmphex(record4(&h, 0, rest), ==, r4("SO"));
            for (unsigned j = 1; j < 4; j++) {
                g_assert_cmphex(rest[j - 1], ==, j == d ? values[v] : 0);
            }
        }
    }
}

/*
 * 8DW records (hisi-ptt.rst, and perf's HISI_PTT_8DW_CHECK_MASK): DW0 bits
 * 31:11 0x1fffff and reserved 10:0 0x7ff, DW1 the prefix, DW2-5 header
 * DW0-3, DW6 reserved 0, DW7 the time. Each input alone moves its DW only.
 */
static void test_record8_fields(void)
{
    static const uint32_t values[] = { 0xffffffff, 1, 0x80000000 };
    uint8_t r[PTT_RECORD_8DW_SIZE + 4];

    /* inputs: 0-3 header DW0-3, 4 prefix, 5 time; where each goes */
    for (unsigned in = 0; in < 6; in++) {
        static const unsigned record_dw[] = { 2, 3, 4, 5, 1, 7 };

        for (size_t v = 0; v < G_N_ELEMENTS(values); v++) {
            PcieTlp h = { 0 };
            uint32_t time = in == 5 ? values[v] : 0;

            if (in < 4) {
                h.dw[in] = values[v];
            } else if (in == 4) {
                h.prefix = values[v];
            }
            memset(r, 0xa5, sizeof(r));
            model_ptt_record_8dw(r, &h, time);
            g_assert_cmphex(le32(r + PTT_RECORD_8DW_SIZE), ==, 0xa5a5a5a5);
            g_assert_cmphex(le32(r) & BITS(31, 11), ==, BITS(31, 11));
            g_assert_cmphex(le32(r) & BITS(10, 0), ==, BITS(10, 0));
            for (unsigned j = 1; j < 8; j++) {
                g_assert_cmphex(le32(r + 4 * j), ==,
                                j == record_dw[in] ? values[v] : 0);
            }
        }
    }
}

/*
 * Records are little-endian DWs: byte 0 of a record DW is its bits 7:0
 * (perf reads DW0 as a host u32 on arm64).
 */
static void test_record_byte_order(void)
{
    uint8_t r[PTT_RECORD_8DW_SIZE];
    PcieTlp h = { .dw = { 0, 0x01020304 } };

    model_ptt_record_4dw(r, &h, 0);
    g_assert_cmpmem(r + 4, 4, "\x04\x03\x02\x01", 4);
    model_ptt_record_8dw(r, &h, 0x0a0b0c0d);
    g_assert_cmpmem(r + 12, 4, "\x04\x03\x02\x01", 4);
    g_assert_cmpmem(r + 28, 4, "\x0d\x0c\x0b\x0a", 4);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/tlp-fields/mem", test_mem_fields);
    g_test_add_func("/tlp-fields/cpl", test_cpl_fields);
    g_test_add_func("/tlp-fields/dw", test_dw_fields);
    g_test_add_func("/tlp-fields/cpl-nodata", test_cpl_nodata_fields);
    g_test_add_func("/tlp-fields/accessors", test_accessors);
    g_test_add_func("/tlp-fields/record4-dw0", test_record4_fields);
    g_test_add_func("/tlp-fields/record4-time", test_record4_time);
    g_test_add_func("/tlp-fields/record4-header-dws", test_record4_header_dws);
    g_test_add_func("/tlp-fields/record8", test_record8_fields);
    g_test_add_func("/tlp-fields/record-byte-order", test_record_byte_order);
    return g_test_run();
}
