/*
 * Host unit tests: PCIe TLP headers and HiSilicon PTT trace records.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <glib.h>
#include <string.h>

#include "pcie-tlp.h"
#include "ptt-record.h"
#include "ptt-trace.h"

static uint32_t le32(const uint8_t *p)
{
    return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static void test_mwr_64(void)
{
    PcieTlp t;

    model_pcie_tlp_mem(&t, true, 0x123456789abcull, 64, 0x0100, 0x5a, false);
    /* Fmt 011, Type 00000, Length 16 */
    g_assert_cmphex(t.dw[0], ==, 0x60000010);
    /* Requester 01:00.0, tag 0x5a, last BE 0xf, first BE 0xf */
    g_assert_cmphex(t.dw[1], ==, 0x01005aff);
    g_assert_cmphex(t.dw[2], ==, 0x00001234);
    g_assert_cmphex(t.dw[3], ==, 0x56789abc);
    g_assert_cmpuint(model_pcie_tlp_fmt(&t), ==, TLP_FMT_4DW_DATA);
    g_assert_true(model_pcie_tlp_has_data(&t));
    g_assert_cmphex(t.prefix, ==, 0);
}

static void test_mwr_32_len1_relaxed(void)
{
    PcieTlp t;

    model_pcie_tlp_mem(&t, true, 0x10100a80, 4, 0x0080, 0x01, true);
    /* Fmt 010, RO (Attr[1], bit 13), Length 1 */
    g_assert_cmphex(t.dw[0], ==, 0x40002001);
    /* One DW: last BE 0, first BE 0xf */
    g_assert_cmphex(t.dw[1], ==, 0x0080010f);
    /* DW-aligned address, no DW3 */
    g_assert_cmphex(t.dw[2], ==, 0x10100a80);
    g_assert_cmphex(t.dw[3], ==, 0);
}

static void test_mrd(void)
{
    PcieTlp t;

    model_pcie_tlp_mem(&t, false, 0x200000000ull, 4096, 0x0200, 0xff, false);
    /* Fmt 001, Length 1024 encodes as 0 */
    g_assert_cmphex(t.dw[0], ==, 0x20000000);
    g_assert_cmpuint(model_pcie_tlp_len_dw(&t), ==, 1024);
    g_assert_false(model_pcie_tlp_has_data(&t));
    g_assert_cmphex(t.dw[2], ==, 2);
    model_pcie_tlp_mem(&t, false, 0x1000, 8, 0x0200, 0, false);
    g_assert_cmphex(t.dw[0], ==, 0x00000002);   /* Fmt 000 */
    g_assert_cmphex(t.dw[2], ==, 0x1000);
}

static void test_cpld(void)
{
    PcieTlp t;

    model_pcie_tlp_cpld(&t, 0x0080, 0x0100, 0x33, 0x40, 48, 48);
    /* Fmt 010, Type 01010, Length 12 */
    g_assert_cmphex(t.dw[0], ==, 0x4a00000c);
    /* Completer 00:10.0, status SC, byte count 48 */
    g_assert_cmphex(t.dw[1], ==, 0x00800030);
    /* Requester 01:00.0, tag 0x33, lower address 0x40 */
    g_assert_cmphex(t.dw[2], ==, 0x01003340);
    g_assert_cmphex(t.dw[3], ==, 0);
    /* 1024 DWs: byte count 4096 encodes as 0 */
    model_pcie_tlp_cpld(&t, 0x0080, 0x0100, 0, 0, 4096, 4096);
    g_assert_cmphex(t.dw[1] & 0xfff, ==, 0);
}

static void test_record_8dw(void)
{
    uint8_t r[PTT_RECORD_8DW_SIZE];
    PcieTlp t;

    model_pcie_tlp_mem(&t, true, 0x123456789abcull, 4, 0x0100, 0x5a, false);
    t.prefix = 0x91000001;
    memset(r, 0xee, sizeof(r));
    model_ptt_record_8dw(r, &t, 0xdeadbeef);
    g_assert_cmphex(le32(r), ==, 0xffffffff);
    g_assert_cmphex(le32(r + 4), ==, 0x91000001);
    /* The guide's example: header DW0 bytes 01 00 00 60 */
    g_assert_cmpmem(r + 8, 4, "\x01\x00\x00\x60", 4);
    g_assert_cmphex(le32(r + 12), ==, t.dw[1]);
    g_assert_cmphex(le32(r + 16), ==, t.dw[2]);
    g_assert_cmphex(le32(r + 20), ==, t.dw[3]);
    g_assert_cmphex(le32(r + 24), ==, 0);
    g_assert_cmphex(le32(r + 28), ==, 0xdeadbeef);
}

static void test_record_4dw(void)
{
    uint8_t r[PTT_RECORD_4DW_SIZE];
    PcieTlp t;
    uint32_t dw0;

    /* CplD, 3DW with data: Fmt 010 -> 10, Type 01010, Length 12, no RO */
    model_pcie_tlp_cpld(&t, 0x0080, 0x0100, 0x33, 0, 48, 48);
    model_ptt_record_4dw(r, &t, 0x12345);
    dw0 = le32(r);
    g_assert_cmphex(dw0 >> 30, ==, 0x2);            /* Fmt[1:0] */
    g_assert_cmphex((dw0 >> 25) & 0x1f, ==, 0x0a);  /* Type */
    g_assert_cmphex((dw0 >> 24) & 1, ==, 0);        /* T9 */
    g_assert_cmphex((dw0 >> 23) & 1, ==, 0);        /* T8 */
    g_assert_cmphex((dw0 >> 22) & 1, ==, 0);        /* TH */
    g_assert_cmphex((dw0 >> 21) & 1, ==, 1);        /* SO: not relaxed */
    g_assert_cmphex((dw0 >> 11) & 0x3ff, ==, 12);   /* Length */
    g_assert_cmphex(dw0 & 0x7ff, ==, 0x345);        /* low 11 bits of time */
    g_assert_cmphex(dw0, ==, 0x94206345);
    g_assert_cmphex(le32(r + 4), ==, t.dw[1]);
    g_assert_cmphex(le32(r + 8), ==, t.dw[2]);
    g_assert_cmphex(le32(r + 12), ==, t.dw[3]);

    /* MWr 4DW, relaxed: Fmt 011 -> 11, SO 0; not mistaken for 8DW */
    model_pcie_tlp_mem(&t, true, 0x100000000ull, 4, 0x0100, 0, true);
    model_ptt_record_4dw(r, &t, 0x7ff);
    g_assert_cmphex(le32(r), ==, 0xc00007ff | 1 << 11);
    g_assert_cmphex(le32(r) & 0xfffff800, !=, 0xfffff800);
}

/*
 * The direction semantics of the guide, as an independent table:
 * for each direction, which of the seven stream classes it traces.
 */
enum { IN_P, IN_NP, IN_CPL_A, IN_CPL_B, OUT_P, OUT_NP, OUT_CPL, CLASSES };

static const bool selects_4dw[4][CLASSES] = {
    [0] = { 1, 1, 1, 1, 0, 0, 0 },
    [1] = { 0, 0, 0, 0, 1, 1, 1 },
    [2] = { 1, 1, 0, 1, 1, 1, 1 },
    [3] = { 0, 0, 1, 0, 1, 1, 1 },
};

static const bool selects_8dw[4][CLASSES] = {
    [0] = { 0 },
    [1] = { 0, 0, 0, 0, 1, 1, 1 },
    [2] = { 1, 1, 0, 1, 0, 0, 0 },
    [3] = { 0, 0, 1, 0, 0, 0, 0 },
};

static TrafficStream stream_of_class(int c)
{
    TrafficStream s = { 0 };

    s.dir = c >= OUT_P ? TRAFFIC_OUTBOUND : TRAFFIC_INBOUND;
    switch (c) {
    case IN_P:
    case OUT_P:
        s.kind = TRAFFIC_POSTED;
        break;
    case IN_NP:
    case OUT_NP:
        s.kind = TRAFFIC_NON_POSTED;
        break;
    default:
        s.kind = TRAFFIC_COMPLETION;
        s.cpl_b = c == IN_CPL_B;
    }
    return s;
}

static unsigned type_bit(int c)
{
    switch (c) {
    case IN_P:
    case OUT_P:
        return PTT_TYPE_P;
    case IN_NP:
    case OUT_NP:
        return PTT_TYPE_NP;
    default:
        return PTT_TYPE_CPL;
    }
}

static void test_selects(void)
{
    for (unsigned fmt = 0; fmt < 2; fmt++) {
        for (unsigned dir = 0; dir < 4; dir++) {
            for (unsigned types = 0; types <= PTT_TYPE_ALL; types++) {
                for (int c = 0; c < CLASSES; c++) {
                    TrafficStream s = stream_of_class(c);
                    /* outbound takes one type: with more, none */
                    bool one_type = types && !(types & (types - 1));
                    bool want = (fmt ? selects_8dw : selects_4dw)[dir][c] &&
                                (types & type_bit(c)) &&
                                (c < OUT_P || one_type);

                    g_assert_cmpint(model_ptt_selects(dir, types, fmt, &s), ==,
                                    want);
                }
            }
        }
    }
    g_assert_true(model_ptt_direction_valid(0, false));
    g_assert_false(model_ptt_direction_valid(0, true));
    for (unsigned dir = 1; dir < 4; dir++) {
        g_assert_true(model_ptt_direction_valid(dir, true));
    }
    g_assert_false(model_ptt_direction_valid(4, false));
    /* the 4-bit direction past the last one: nothing, in either format */
    for (unsigned dir = 4; dir < 16; dir++) {
        for (int c = 0; c < CLASSES; c++) {
            TrafficStream s = stream_of_class(c);

            g_assert_false(model_ptt_selects(dir, type_bit(c), false, &s));
            g_assert_false(model_ptt_selects(dir, type_bit(c), true, &s));
        }
        g_assert_false(model_ptt_direction_valid(dir, false));
        g_assert_false(model_ptt_direction_valid(dir, true));
        g_assert_false(model_ptt_direction_outbound(dir, false));
        g_assert_false(model_ptt_direction_outbound(dir, true));
    }
}

/*
 * Outbound TLPs with more than one type selected: none traced (hisi-ptt.rst
 * "can only specify one when tracing outbound TLP headers"); inbound ones
 * of those types still are.
 */
static void test_outbound_one_type(void)
{
    TrafficStream out_p = stream_of_class(OUT_P);
    TrafficStream in_p = stream_of_class(IN_P);

    g_assert_true(model_ptt_selects(1, PTT_TYPE_P, false, &out_p));
    g_assert_false(model_ptt_selects(1, PTT_TYPE_P | PTT_TYPE_NP, false,
                                     &out_p));
    g_assert_false(model_ptt_selects(1, PTT_TYPE_ALL, true, &out_p));
    g_assert_false(model_ptt_selects(2, PTT_TYPE_ALL, false, &out_p));
    g_assert_true(model_ptt_selects(2, PTT_TYPE_ALL, false, &in_p));
    g_assert_true(model_ptt_outbound_types_valid(PTT_TYPE_CPL));
    g_assert_false(model_ptt_outbound_types_valid(0));
    g_assert_false(model_ptt_outbound_types_valid(PTT_TYPE_P | PTT_TYPE_CPL));
    for (unsigned dir = 0; dir < 4; dir++) {
        g_assert_cmpint(model_ptt_direction_outbound(dir, false), ==,
                        selects_4dw[dir][OUT_P]);
        g_assert_cmpint(model_ptt_direction_outbound(dir, true), ==,
                        selects_8dw[dir][OUT_P]);
    }
}

/*
 * model_traffic_requester() is the Requester ID of every TLP of the
 * stream, as its header carries it: DW1[31:16] of a request, DW2[31:16]
 * of a completion.
 */
static void test_requester_of_streams(void)
{
    TrafficSpec spec[TRAFFIC_ENDPOINT_STREAMS];
    TrafficStream s[TRAFFIC_ENDPOINT_STREAMS];
    TrafficTuning tune = TRAFFIC_TUNING_RESET;
    unsigned by_endpoint = 0;

    model_traffic_profile_default(spec);
    model_traffic_endpoint_streams(s, 9, spec, 0x0100, 0x0080, 0x10000000,
                                   0x4000, &tune, 0);
    for (unsigned i = 0; i < TRAFFIC_ENDPOINT_STREAMS; i++) {
        for (uint64_t k = 0; k < 40; k++) {
            PcieTlp t;
            bool cpl;

            model_traffic_tlp(&s[i], k, &t);
            cpl = model_pcie_tlp_type(&t) == TLP_TYPE_CPL;
            g_assert_cmphex((cpl ? t.dw[2] : t.dw[1]) >> 16, ==,
                            model_traffic_requester(&s[i]));
        }
        by_endpoint += model_traffic_requester(&s[i]) == 0x0100;
    }
    /* DMA writes, reads and their completions; not the CPU's MMIO */
    g_assert_cmpuint(by_endpoint, ==, 3);
}

/*
 * The records ptt-trace.c must give, straight from the definitions: the
 * merge order, model_traffic_tlp() and model_ptt_record_*(). Returns how many.
 */
static size_t reference_trace(uint8_t *out, size_t max, const TrafficStream *s,
                              uint32_t n, int64_t t0, int64_t end,
                              bool format_8dw, int64_t time_base)
{
    static TrafficMerge m;
    size_t done = 0;

    model_traffic_merge_start(&m, s, n, t0);
    for (; done < max && model_traffic_merge_peek(&m) < end; done++) {
        int64_t t = model_traffic_merge_peek(&m);
        uint32_t i;
        uint64_t k;
        PcieTlp tlp;

        model_traffic_merge_pop(&m, &i, &k);
        model_traffic_tlp(&s[i], k, &tlp);
        if (format_8dw) {
            model_ptt_record_8dw(out + done * PTT_RECORD_8DW_SIZE, &tlp,
                                 t - time_base);
        } else {
            model_ptt_record_4dw(out + done * PTT_RECORD_4DW_SIZE, &tlp,
                                 t - time_base);
        }
    }
    return done;
}

/* TLPs of @s[0..@n) in [t0, end), counted without the merge */
static uint64_t count_tlps(const TrafficStream *s, uint32_t n, int64_t t0,
                           int64_t end)
{
    uint64_t tlps = 0;

    for (uint32_t i = 0; i < n; i++) {
        tlps += model_traffic_count_before(&s[i].flow, end) -
                model_traffic_count_before(&s[i].flow, t0);
    }
    return tlps;
}

/*
 * Generate [t0, end) with ptt-trace.c in pieces of 1 to @piece_max
 * records; every byte must equal the reference, each peek the next
 * record's time, and the last one TRAFFIC_NEVER. The generator starts
 * from memory filled with @garbage (the device's g_new() does not zero it:
 * nothing may read what start did not set, even of a stream with no TLP).
 * Returns whether the block replay took part.
 */
static bool check_trace_pieces(const TrafficStream *s, uint32_t n, int64_t t0,
                               int64_t end, bool format_8dw,
                               int64_t time_base, uint32_t piece_max,
                               uint8_t garbage)
{
    static PttTraceGen gen;
    size_t size = format_8dw ? PTT_RECORD_8DW_SIZE : PTT_RECORD_4DW_SIZE;
    size_t max = 200000, want, got = 0;
    uint8_t *ref = g_malloc(max * size), *out = g_malloc(max * size);
    static TrafficMerge times;

    want = reference_trace(ref, max, s, n, t0, end, format_8dw, time_base);
    g_assert_cmpuint(want, <, max);
    /* one record per TLP in [t0, end) */
    g_assert_cmpuint(want, ==, count_tlps(s, n, t0, end));
    model_traffic_merge_start(&times, s, n, t0);
    memset(&gen, garbage, sizeof(gen));
    model_ptt_trace_start(&gen, s, n, t0, end, format_8dw, time_base);
    for (;;) {
        int64_t next = model_traffic_merge_peek(&times);
        uint32_t piece = piece_max > 1 ?
                         g_test_rand_int_range(1, piece_max + 1) : 1;
        uint32_t filled;

        g_assert_cmpint(model_ptt_trace_peek(&gen), ==,
                        next < end ? next : TRAFFIC_NEVER);
        filled = model_ptt_trace_fill(&gen, out + got * size, piece);
        /* never more records than asked for: the caller's buffer ends */
        g_assert_cmpuint(filled, <=, piece);
        for (uint32_t i = 0; i < filled; i++) {
            uint32_t stream;
            uint64_t k;

            model_traffic_merge_pop(&times, &stream, &k);
        }
        got += filled;
        g_assert_cmpuint(got, <=, want);
        if (filled < piece) {
            break;
        }
    }
    g_assert_cmpuint(got, ==, want);
    /* none left before the end, even when a TLP comes right at it */
    g_assert_cmpint(model_ptt_trace_peek(&gen), ==, TRAFFIC_NEVER);
    for (size_t i = 0; i < want; i++) {
        if (memcmp(out + i * size, ref + i * size, size)) {
            GString *d = g_string_new(NULL);

            for (size_t j = 0; j < size; j++) {
                g_string_append_printf(d, " %02x/%02x", out[i * size + j],
                                       ref[i * size + j]);
            }
            g_test_message("record %zu of %zu differs (got/want):%s", i, want,
                           d->str);
            g_assert_cmpmem(out + i * size, size, ref + i * size, size);
        }
    }
    g_free(ref);
    g_free(out);
    return gen.replaying;
}

static bool check_trace(const TrafficStream *s, uint32_t n, int64_t t0,
                        int64_t end, bool format_8dw, int64_t time_base)
{
    return check_trace_pieces(s, n, t0, end, format_8dw, time_base, 699,
                              0xa5);
}

/* @eps endpoints of the default profile, under @tune, from @epoch_t on */
static uint32_t make_streams(TrafficStream *s, unsigned eps,
                             const TrafficTuning *tune, int64_t epoch_t)
{
    TrafficSpec spec[TRAFFIC_ENDPOINT_STREAMS];

    model_traffic_profile_default(spec);
    for (unsigned e = 0; e < eps; e++) {
        /* a 32-bit MMIO window for odd endpoints, 64-bit for even ones */
        uint64_t mmio = e & 1 ? 0x10000000 + e * 0x4000 :
                        0x8000000000ull + e * 0x100000;

        model_traffic_endpoint_streams(s + e * TRAFFIC_ENDPOINT_STREAMS, 3,
                                       spec, 0x100 * (e + 1), 0x80 + e * 8,
                                       mmio, e & 1 ? 0x4000 : 0x100000, tune,
                                       epoch_t);
    }
    return eps * TRAFFIC_ENDPOINT_STREAMS;
}

static void test_trace_matches_records(void)
{
    TrafficStream s[4 * TRAFFIC_ENDPOINT_STREAMS];
    TrafficTuning tunes[] = { { { 1, 1, 1, 1, 1 } }, { { 0, 2, 1, 0, 2 } },
                              { { 2, 0, 2, 2, 0 } } };

    for (unsigned f = 0; f < 2; f++) {
        for (unsigned eps = 1; eps <= 4; eps++) {
            const TrafficTuning *tune = &tunes[eps % G_N_ELEMENTS(tunes)];
            uint32_t n = make_streams(s, eps, tune, 1000);
            int64_t t0 = g_test_rand_int_range(0, 1000000) + 5000000;

            /* 30 ms: many periods, tags and DMA addresses wrap */
            g_assert_true(check_trace(s, n, t0, t0 + 30000000, f, 777));
            /* short: under two periods, the merge only */
            g_assert_false(check_trace(s, n, t0, t0 + 300000, f, 0));
        }
    }
}

static void test_trace_epochs_and_wraps(void)
{
    TrafficStream s[2 * TRAFFIC_ENDPOINT_STREAMS];
    TrafficTuning mid = TRAFFIC_TUNING_RESET;
    uint32_t n = make_streams(s, 2, &mid, 0);
    int64_t t0 = 3000000000ll;

    /* Rate changes at different times: streams in different epochs */
    model_traffic_set_rate(&s[0].flow, 250000, 1234567);
    model_traffic_set_rate(&s[8].flow, 40000, 2000000001ll);
    model_traffic_set_rate(&s[3].flow, 0, 5);
    for (unsigned f = 0; f < 2; f++) {
        /* record times cross 2^32 ns (8DW) inside the trace */
        g_assert_true(check_trace(s, n, t0, t0 + 20000000, f,
                                  t0 + 10000000 - (1ll << 32)));
    }
    /* A period of one second: far too many TLPs for a block */
    model_traffic_set_rate(&s[1].flow, 100007, 4000000);
    g_assert_false(check_trace(s, n, t0, t0 + 20000000, false, 0));
    /* No traffic at all */
    for (uint32_t i = 0; i < n; i++) {
        model_traffic_set_rate(&s[i].flow, 0, t0);
    }
    g_assert_false(check_trace(s, n, t0, t0 + 20000000, true, 0));
}

/* One endpoint with the streams of @spec, from @epoch_t on */
static uint32_t spec_streams(TrafficStream *s, const TrafficSpec *spec,
                             uint32_t mmio_size, int64_t epoch_t)
{
    TrafficTuning tune = TRAFFIC_TUNING_RESET;

    model_traffic_endpoint_streams(s, 5, spec, 0x0100, 0x0080, 0x10000000,
                                   mmio_size, &tune, epoch_t);
    return TRAFFIC_ENDPOINT_STREAMS;
}

/*
 * ptt-trace.h: "traces shorter than two periods take the merge all the
 * way"; from two periods on the block is replayed. The default endpoint's
 * order repeats every 3.2 ms (16 TLPs of its 5000/s stream) with 1424
 * TLPs; at a multiple of 3.2 ms after the epoch every stream has a TLP.
 */
static void test_trace_two_periods(void)
{
    TrafficStream s[TRAFFIC_ENDPOINT_STREAMS];
    TrafficTuning mid = TRAFFIC_TUNING_RESET;
    uint32_t n = make_streams(s, 1, &mid, 1000);
    uint64_t tlps = 0;
    int64_t period = 3200000, t0 = 1000 + 10 * period;

    g_assert_cmpuint(model_traffic_period(s, n, TRAFFIC_PATTERN,
                                          PTT_TRACE_BLOCK_MAX, &tlps), ==,
                     period);
    g_assert_cmpuint(tlps, ==, 1424);
    for (unsigned f = 0; f < 2; f++) {
        /* two periods; the next TLP comes at the end */
        g_assert_cmpuint(count_tlps(s, n, t0, t0 + 2 * period), ==,
                         2 * tlps);
        g_assert_true(check_trace(s, n, t0, t0 + 2 * period, f, 0));
        /* one TLP short: the 200000/s stream's alone, 5 us before */
        g_assert_cmpuint(count_tlps(s, n, t0, t0 + 2 * period - 5000), ==,
                         2 * tlps - 1);
        g_assert_false(check_trace(s, n, t0, t0 + 2 * period - 5000, f,
                                   0));
    }
}

/*
 * Rates of 8192 * m TLPs/s: TLP k + 16 comes 1e9 * 16 / (8192 * m) ns =
 * 5^9 / m ns after TLP k, so the order repeats every 5^9 ns, an odd number
 * of ns: each period the 8DW time advances by an odd amount, and the 4DW
 * time's low 11 bits by 5^9 mod 2^11 = 1381.
 */
static void test_trace_odd_period(void)
{
    TrafficSpec spec[TRAFFIC_ENDPOINT_STREAMS];
    TrafficStream s[TRAFFIC_ENDPOINT_STREAMS];
    uint32_t n;
    uint64_t tlps = 0;

    model_traffic_profile_default(spec);
    for (unsigned i = 0; i < TRAFFIC_ENDPOINT_STREAMS; i++) {
        spec[i].rate = 8192 * (i + 1);
    }
    n = spec_streams(s, spec, 0x4000, 777);
    g_assert_cmpuint(model_traffic_period(s, n, TRAFFIC_PATTERN,
                                          PTT_TRACE_BLOCK_MAX, &tlps), ==,
                     1953125);
    for (unsigned f = 0; f < 2; f++) {
        g_assert_true(check_trace(s, n, 5000000, 25000000, f, 1234));
    }
}

/*
 * Fmt[1:0], Type, Length and header DW1-2 of record @r, in either format
 * (hisi-ptt.md: the 4DW DW0 holds Fmt[1:0] at 31:30, Type at 29:25 and
 * Length at 20:11; an 8DW record has header DW0-3 at bytes 8-23)
 */
typedef struct RecordHeader {
    unsigned fmt, type, len;
    uint32_t dw1, dw2;
} RecordHeader;

static RecordHeader record_header(const uint8_t *r, bool format_8dw)
{
    uint32_t dw0 = le32(format_8dw ? r + 8 : r);
    const uint8_t *dw1 = r + (format_8dw ? 12 : 4);

    return (RecordHeader) {
        .fmt = format_8dw ? (dw0 >> 29) & 3 : dw0 >> 30,
        .type = format_8dw ? (dw0 >> 24) & 0x1f : (dw0 >> 25) & 0x1f,
        .len = format_8dw ? dw0 & 0x3ff : (dw0 >> 11) & 0x3ff,
        .dw1 = le32(dw1),
        .dw2 = le32(dw1 + 4),
    };
}

/*
 * Completions of 64 to 1024 DWs: header DW1[11:0] is the Byte Count
 * (PCIe r5.0 2.2.9; pcie-tlp.h), here the whole payload: 4 * Length,
 * 4096 encoded as 0 (as Length 1024 is).
 */
static void test_trace_long_completions(void)
{
    static const unsigned cpl[] = { 2, 5, 6 };
    TrafficSpec spec[TRAFFIC_ENDPOINT_STREAMS];
    TrafficStream s[TRAFFIC_ENDPOINT_STREAMS];
    static uint8_t rec[100000 * PTT_RECORD_8DW_SIZE];
    uint32_t n;

    model_traffic_profile_default(spec);
    for (unsigned i = 0; i < G_N_ELEMENTS(cpl); i++) {
        spec[cpl[i]].len_min = 64;
        spec[cpl[i]].len_max = 1024;
    }
    n = spec_streams(s, spec, 0x4000, 0);
    for (unsigned f = 0; f < 2; f++) {
        size_t size = f ? PTT_RECORD_8DW_SIZE : PTT_RECORD_4DW_SIZE;
        size_t got = reference_trace(rec, 100000, s, n, 1000000, 11000000,
                                     f, 0);
        unsigned high = 0;

        for (size_t i = 0; i < got; i++) {
            RecordHeader h = record_header(rec + i * size, f);

            if (h.type == TLP_TYPE_CPL) {
                g_assert_cmphex(h.dw1 & 0xfff, ==, (h.len * 4) & 0xfff);
                high += (h.dw1 & 0xf00) != 0;
            }
        }
        /* many Byte Counts from 256 up: bits 11:8 set */
        g_assert_cmpuint(high, >, 500);
        g_assert_true(check_trace(s, n, 1000000, 11000000, f, 0));
    }
}

/*
 * MMIO windows are powers of two (traffic.h): one of 1 byte, the
 * smallest, has every MMIO request at its base (model_traffic_addr()).
 */
static void test_trace_one_byte_window(void)
{
    TrafficSpec spec[TRAFFIC_ENDPOINT_STREAMS];
    TrafficStream s[TRAFFIC_ENDPOINT_STREAMS];
    static uint8_t rec[100000 * PTT_RECORD_8DW_SIZE];
    uint32_t n;

    model_traffic_profile_default(spec);
    n = spec_streams(s, spec, 1, 0);
    for (unsigned f = 0; f < 2; f++) {
        size_t size = f ? PTT_RECORD_8DW_SIZE : PTT_RECORD_4DW_SIZE;
        size_t got = reference_trace(rec, 100000, s, n, 1000000, 11000000,
                                     f, 0);
        unsigned mmio = 0;

        for (size_t i = 0; i < got; i++) {
            RecordHeader h = record_header(rec + i * size, f);

            /* 3DW memory requests: MMIO (DMA is above 4 GiB) */
            if (!(h.fmt & 1) && h.type == TLP_TYPE_MEM) {
                g_assert_cmphex(h.dw2, ==, 0x10000000);
                mmio++;
            }
        }
        /* streams 3 and 4: the CPU's MMIO writes and reads */
        g_assert_cmpuint(mmio, ==, count_tlps(s + 3, 2, 1000000, 11000000));
        g_assert_true(check_trace(s, n, 1000000, 11000000, f, 0));
    }
}

/*
 * As many streams as a trace takes (TRAFFIC_MERGE_MAX: 36 endpoints and
 * four streams of a 37th), their 52608 TLPs per period in one block;
 * every record's time is peeked.
 */
static void test_trace_merge_max_streams(void)
{
    static TrafficStream s[37 * TRAFFIC_ENDPOINT_STREAMS];
    TrafficTuning mid = TRAFFIC_TUNING_RESET;
    int64_t t0 = 5000000 + g_test_rand_int_range(0, 1000000);
    uint64_t tlps = 0;

    make_streams(s, 37, &mid, 1000);
    g_assert_cmpuint(model_traffic_period(s, TRAFFIC_MERGE_MAX,
                                          TRAFFIC_PATTERN,
                                          PTT_TRACE_BLOCK_MAX, &tlps), ==,
                     3200000);
    g_assert_cmpuint(tlps, ==, 52608);
    for (unsigned f = 0; f < 2; f++) {
        g_assert_true(check_trace_pieces(s, TRAFFIC_MERGE_MAX, t0,
                                         t0 + 8000000, f, 0, 1, 0x5a));
    }
}

/*
 * Traces that end at, or 1 ns before, the end of time (TRAFFIC_NEVER):
 * records and times as ever, whether the block takes part or not
 */
static void test_trace_end_of_time(void)
{
    TrafficStream s[TRAFFIC_ENDPOINT_STREAMS];
    TrafficTuning mid = TRAFFIC_TUNING_RESET;
    int64_t epoch = TRAFFIC_NEVER - 20000000;
    uint32_t n = make_streams(s, 1, &mid, epoch);

    for (unsigned f = 0; f < 2; f++) {
        check_trace(s, n, epoch, TRAFFIC_NEVER - 1, f, epoch - 12345);
        check_trace(s, n, epoch + 3000, TRAFFIC_NEVER, f, 0);
    }
}

/*
 * ptt-trace.h: traces whose end is TRAFFIC_NEVER - 2 * UINT32_MAX or
 * later take the merge all the way. At exactly that end the merge, 1 ns
 * before it the block, here with six periods of the default endpoint
 * (3.2 ms, 1424 TLPs); the records are the reference's either way.
 */
static void test_trace_end_of_time_cutoff(void)
{
    TrafficStream s[TRAFFIC_ENDPOINT_STREAMS];
    TrafficTuning mid = TRAFFIC_TUNING_RESET;
    int64_t cutoff = TRAFFIC_NEVER - 2 * (int64_t)UINT32_MAX;
    int64_t epoch = cutoff - 20000000;
    uint32_t n = make_streams(s, 1, &mid, epoch);
    uint64_t tlps = 0;

    g_assert_cmpuint(model_traffic_period(s, n, TRAFFIC_PATTERN,
                                          PTT_TRACE_BLOCK_MAX, &tlps), ==,
                     3200000);
    /* enough TLPs for the block both times: only the end decides */
    g_assert_cmpuint(count_tlps(s, n, epoch, cutoff - 1), >=, 6 * tlps);
    for (unsigned f = 0; f < 2; f++) {
        g_assert_false(check_trace(s, n, epoch, cutoff, f, epoch - 777));
        g_assert_true(check_trace(s, n, epoch, cutoff - 1, f, epoch - 777));
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/pcie-tlp/mwr-64", test_mwr_64);
    g_test_add_func("/pcie-tlp/mwr-32-len1-relaxed", test_mwr_32_len1_relaxed);
    g_test_add_func("/pcie-tlp/mrd", test_mrd);
    g_test_add_func("/pcie-tlp/cpld", test_cpld);
    g_test_add_func("/ptt-record/8dw", test_record_8dw);
    g_test_add_func("/ptt-record/4dw", test_record_4dw);
    g_test_add_func("/ptt-record/selects", test_selects);
    g_test_add_func("/ptt-record/outbound-one-type", test_outbound_one_type);
    g_test_add_func("/ptt-record/requester-of-streams",
                    test_requester_of_streams);
    g_test_add_func("/ptt-trace/matches-records", test_trace_matches_records);
    g_test_add_func("/ptt-trace/epochs-and-wraps", test_trace_epochs_and_wraps);
    g_test_add_func("/ptt-trace/two-periods", test_trace_two_periods);
    g_test_add_func("/ptt-trace/odd-period", test_trace_odd_period);
    g_test_add_func("/ptt-trace/long-completions",
                    test_trace_long_completions);
    g_test_add_func("/ptt-trace/one-byte-window", test_trace_one_byte_window);
    g_test_add_func("/ptt-trace/merge-max-streams",
                    test_trace_merge_max_streams);
    g_test_add_func("/ptt-trace/end-of-time", test_trace_end_of_time);
    g_test_add_func("/ptt-trace/end-of-time-cutoff",
                    test_trace_end_of_time_cutoff);
    return g_test_run();
}
