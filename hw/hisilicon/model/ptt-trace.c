/*
 * HiSilicon PTT trace generation.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <string.h>

#include "byteorder.h"
#include "ptt-trace.h"

static inline uint64_t rotl64(uint64_t v, unsigned n)
{
    return n ? v << n | v >> (64 - n) : v;
}

/*
 * The images of TLPs k = 0..TRAFFIC_PATTERN-1 stand for every k of the same
 * position: only the tag and the address differ, and they are cleared.
 * The tag is header DW1 bits 15:8 in requests, DW2 bits 15:8 in
 * completions; a 64-bit address is header DW2 (63:32) and DW3 (31:2), a
 * 32-bit one DW2, where DW3 is 0.
 */
static void build_records(PttStreamRecords *r, const TrafficStream *s,
                          bool format_8dw)
{
    /* Record DW of header DW1; words hold DWs 2i and 2i + 1 */
    unsigned hdr1 = format_8dw ? 3 : 1;
    bool cpl = s->kind == TRAFFIC_COMPLETION;

    for (unsigned i = 0; i < TRAFFIC_PATTERN; i++) {
        uint8_t bytes[PTT_RECORD_8DW_SIZE] = { 0 };
        uint32_t dw[8];
        PcieTlp tlp;

        model_traffic_tlp(s, i, &tlp);
        if (format_8dw) {
            model_ptt_record_8dw(bytes, &tlp, 0);
        } else {
            model_ptt_record_4dw(bytes, &tlp, 0);
        }
        for (unsigned j = 0; j < 8; j++) {
            dw[j] = (uint32_t)bytes[4 * j] | (uint32_t)bytes[4 * j + 1] << 8 |
                    (uint32_t)bytes[4 * j + 2] << 16 |
                    (uint32_t)bytes[4 * j + 3] << 24;
        }
        dw[cpl ? hdr1 + 1 : hdr1] &= ~0xff00u;
        if (!cpl) {
            dw[hdr1 + 1] = 0;
            dw[hdr1 + 2] = 0;
        }
        r->addr_rot = model_pcie_tlp_fmt(&tlp) & 1 ? 32 : 0;
        for (unsigned j = 0; j < 4; j++) {
            r->image[i][j] = dw[2 * j] | (uint64_t)dw[2 * j + 1] << 32;
        }
    }
    /* header DW1 is the high half of word hdr1 / 2, DW2 the low of the next */
    r->tag_mul_dw1 = cpl ? 0 : 1ull << 40;
    r->tag_mul_dw2 = cpl ? 1ull << 8 : 0;
    r->addr_base = cpl ? 0 : s->addr_base;
    r->addr_mask = cpl ? 0 : s->addr_window - 1;
    r->ready = true;
}

/* The words of the record of TLP @k at @time */
static void record_words(uint64_t w[4], const PttStreamRecords *r, uint64_t k,
                         uint32_t time, bool format_8dw)
{
    /* model_traffic_addr(), or 0 for completions */
    uint64_t addr = r->addr_base + ((k * TRAFFIC_ADDR_STRIDE) & r->addr_mask);
    const uint64_t *image = r->image[k % TRAFFIC_PATTERN];
    uint64_t tag = (uint8_t)k;
    /* header DW1 is in word 0 of 4DW records, word 1 of 8DW ones */
    unsigned h1 = format_8dw;

    memcpy(w, image, 4 * sizeof(w[0]));
    w[h1] |= tag * r->tag_mul_dw1;
    w[h1 + 1] |= tag * r->tag_mul_dw2 | rotl64(addr, r->addr_rot);
    if (format_8dw) {
        w[3] |= (uint64_t)time << 32;
    } else {
        w[0] |= time & 0x7ff;
    }
}

void model_ptt_trace_start(PttTraceGen *g, const TrafficStream *streams,
                           uint32_t n, int64_t t0, int64_t end, bool format_8dw,
                           int64_t time_base)
{
    uint64_t tlps, expected = 0;

    n = n < TRAFFIC_MERGE_MAX ? n : TRAFFIC_MERGE_MAX;
    g->streams = streams;
    g->n = n;
    g->format_8dw = format_8dw;
    g->time_base = time_base;
    g->end = end;
    model_traffic_merge_start(&g->merge, streams, n, t0);
    for (uint32_t i = 0; i < n; i++) {
        g->records[i].ready = false;
        g->records[i].period_tlps = 0;
    }
    g->replaying = false;
    g->block_len = 0;
    g->period = 0;
    /* Block times are 32-bit, and periods end before the end of time. */
    if (end >= TRAFFIC_NEVER - 2 * (int64_t)UINT32_MAX || end <= t0) {
        return;
    }
    g->period = model_traffic_period(streams, n, TRAFFIC_PATTERN,
                                     PTT_TRACE_BLOCK_MAX, &tlps);
    for (uint32_t i = 0; i < n && g->period; i++) {
        expected += model_traffic_count_before(&streams[i].flow, end) -
                    model_traffic_count_before(&streams[i].flow, t0);
    }
    /* A block pays off from the second period on. */
    if (g->period > UINT32_MAX || expected < 2 * tlps) {
        g->period = 0;
    }
    g->replay_from = t0 + (int64_t)g->period;
}

/*
 * Each period a stream's TLP numbers advance by its period_tlps, a
 * multiple of TRAFFIC_PATTERN: its records keep their image and only the
 * time, tag and address fields advance.
 */
static void start_replay(PttTraceGen *g)
{
    unsigned h1 = g->format_8dw;    /* word holding header DW1 */

    for (uint32_t i = 0; i < g->n; i++) {
        PttStreamRecords *r = &g->records[i];
        uint64_t tag_step;
        uint64_t addr_step;
        uint64_t mask[4] = { 0 }, step[4] = { 0 };

        /*
         * A stream with no TLP in the first period (rate 0) has none in
         * any: its records were never built, and nothing reads them.
         */
        if (!r->ready) {
            continue;
        }
        tag_step = r->period_tlps & 0xff;
        addr_step = (r->period_tlps * TRAFFIC_ADDR_STRIDE) & r->addr_mask;

        mask[h1] = 0xff * r->tag_mul_dw1;
        step[h1] = tag_step * r->tag_mul_dw1;
        mask[h1 + 1] = 0xff * r->tag_mul_dw2 |
                       rotl64(r->addr_mask, r->addr_rot);
        step[h1 + 1] = tag_step * r->tag_mul_dw2 |
                       rotl64(addr_step, r->addr_rot);
        if (g->format_8dw) {
            mask[3] = 0xffffffff00000000ull;
            step[3] = g->period << 32;
        } else {
            mask[0] |= 0x7ff;
            step[0] |= g->period & 0x7ff;
        }
        for (unsigned j = 0; j < 2; j++) {
            r->advance[j].mask = (PttWords){ mask[2 * j], mask[2 * j + 1] };
            r->step[j] = (PttWords){ step[2 * j], step[2 * j + 1] };
            r->advance[j].offset = r->step[j];
        }
    }
    g->cycle_t = g->replay_from;
    g->block_pos = 0;
    g->replaying = true;
}

int64_t model_ptt_trace_peek(const PttTraceGen *g)
{
    int64_t t = g->replaying ? g->cycle_t + g->block_dt[g->block_pos] :
                model_traffic_merge_peek(&g->merge);

    return t < g->end ? t : TRAFFIC_NEVER;
}

static inline void put_words(uint8_t *p, PttWords w)
{
    if (model_host_is_le()) {
        memcpy(p, &w, sizeof(w));
    } else {
        model_put_le64(p, w[0]);
        model_put_le64(p + 8, w[1]);
    }
}

/* The TLPs of the first period, or of all the trace, from the merge */
static uint32_t fill_merged(PttTraceGen *g, uint8_t *out, uint32_t max)
{
    uint32_t size = g->format_8dw ? PTT_RECORD_8DW_SIZE : PTT_RECORD_4DW_SIZE;
    uint32_t done = 0;

    while (done < max) {
        int64_t t = model_traffic_merge_peek(&g->merge);
        PttStreamRecords *r;
        uint64_t k, w[4];
        uint32_t i;

        if (t >= g->end) {
            break;
        }
        if (g->period && t >= g->replay_from) {
            start_replay(g);
            break;
        }
        model_traffic_merge_pop(&g->merge, &i, &k);
        r = &g->records[i];
        if (!r->ready) {
            build_records(r, &g->streams[i], g->format_8dw);
        }
        record_words(w, r, k, t - g->time_base, g->format_8dw);
        if (g->format_8dw) {
            model_put_le64(out, w[0]);
            model_put_le64(out + 8, w[1]);
            model_put_le64(out + 16, w[2]);
            model_put_le64(out + 24, w[3]);
        } else {
            model_put_le64(out, w[0]);
            model_put_le64(out + 8, w[1]);
        }
        if (g->period && g->block_len < PTT_TRACE_BLOCK_MAX) {
            uint32_t b = g->block_len++;

            g->block_dt[b] = t - (g->replay_from - (int64_t)g->period);
            g->block_advance[b] = r->advance;
            if (g->format_8dw) {
                g->block[2 * b] = (PttWords){ w[0], w[1] };
                g->block[2 * b + 1] = (PttWords){ w[2], w[3] };
            } else {
                g->block[b] = (PttWords){ w[0], w[1] };
            }
            r->period_tlps++;
        }
        out += size;
        done++;
    }
    return done;
}

static inline PttWords advance(PttWords w, const PttFieldAdvance *a)
{
    /* A zero bit above each field takes its carry, which is masked off. */
    return (w & ~a->mask) | (((w & a->mask) + a->offset) & a->mask);
}

/* The first block entry at or after @dt, from @pos on */
static uint32_t block_find(const PttTraceGen *g, uint32_t pos, int64_t dt)
{
    uint32_t hi = g->block_len;

    while (pos < hi) {
        uint32_t mid = pos + (hi - pos) / 2;

        if (g->block_dt[mid] < dt) {
            pos = mid + 1;
        } else {
            hi = mid;
        }
    }
    return pos;
}

static inline __attribute__((always_inline))
uint32_t fill_replayed(PttTraceGen *g, uint8_t *restrict out, uint32_t max,
                       bool format_8dw)
{
    uint32_t size = format_8dw ? PTT_RECORD_8DW_SIZE : PTT_RECORD_4DW_SIZE;
    uint32_t done = 0;

    while (done < max) {
        /* Locals: the stores through @out could alias @g's fields. */
        const PttFieldAdvance *const *adv = g->block_advance;
        const PttWords *block = g->block;
        uint32_t pos = g->block_pos, stop = g->block_len;

        /* The period the end falls in stops short of it. */
        if (g->cycle_t + (int64_t)g->period > g->end) {
            stop = block_find(g, pos, g->end - g->cycle_t);
        }
        if (stop - pos > max - done) {
            stop = pos + (max - done);
        }
        if (pos == stop) {
            break;
        }
        done += stop - pos;
        for (; pos < stop; pos++) {
            const PttFieldAdvance *a = adv[pos];

            if (format_8dw) {
                put_words(out, advance(block[2 * pos], &a[0]));
                put_words(out + 16, advance(block[2 * pos + 1], &a[1]));
            } else {
                put_words(out, advance(block[pos], &a[0]));
            }
            out += size;
        }
        g->block_pos = pos;
        if (pos == g->block_len) {
            g->block_pos = 0;
            g->cycle_t += g->period;
            for (uint32_t i = 0; i < g->n; i++) {
                PttStreamRecords *r = &g->records[i];

                for (unsigned j = 0; j < 2; j++) {
                    r->advance[j].offset = (r->advance[j].offset +
                                            r->step[j]) & r->advance[j].mask;
                }
            }
        }
    }
    return done;
}

uint32_t model_ptt_trace_fill(PttTraceGen *g, uint8_t *out, uint32_t max)
{
    uint32_t size = g->format_8dw ? PTT_RECORD_8DW_SIZE : PTT_RECORD_4DW_SIZE;
    uint32_t done = g->replaying ? 0 : fill_merged(g, out, max);

    if (!g->replaying || done == max) {
        return done;
    }
    out += done * size;
    return done + (g->format_8dw ? fill_replayed(g, out, max - done, true) :
                   fill_replayed(g, out, max - done, false));
}
