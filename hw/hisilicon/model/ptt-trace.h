/*
 * HiSilicon PTT trace generation: the records of a set of streams, in time
 * order, about as fast as the records can be copied.
 *
 * Each stream gets one record image per TRAFFIC_PATTERN position of k (what
 * model_traffic_tlp() and model_ptt_record_*() give for it), and a record
 * is its image with the tag, address and time put in, in the order a
 * TrafficMerge gives. That order repeats (model_traffic_period()): over a
 * period in which every stream has a multiple of TRAFFIC_PATTERN TLPs, each
 * record differs from the one a period before only in its time, tag and
 * address, by a fixed amount per stream. So the records of the first period
 * are kept as a block, and each later period is the block with those fields
 * advanced, a few vector operations per record. Sets of streams whose
 * period holds more than PTT_TRACE_BLOCK_MAX TLPs, traces with fewer TLPs
 * than two periods hold, and traces whose end is TRAFFIC_NEVER -
 * 2 * UINT32_MAX ns (about 8.6 s before the end of time) or later take the
 * merge all the way: a replay works out times up to two periods, each of
 * at most UINT32_MAX ns (block times are 32-bit), past the end, and those
 * must not overflow. Either way the records are the same; `replaying` is
 * set once the block replay has taken over from the merge.
 *
 * Plain C with no QEMU headers: the host unit tests and benchmarks use it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HISI_MODEL_PTT_TRACE_H
#define HISI_MODEL_PTT_TRACE_H

#include <stdbool.h>
#include <stdint.h>

#include "ptt-record.h"
#include "traffic.h"

#define PTT_TRACE_BLOCK_MAX 65536

/* Two 64-bit words: a 4DW record, or half an 8DW one */
typedef uint64_t PttWords __attribute__((vector_size(16)));

/* The fields of a record that change each period, in two words */
typedef struct PttFieldAdvance {
    PttWords mask;
    PttWords offset;    /* how far they are from the block's */
} PttFieldAdvance;

/*
 * A stream's record images, as 64-bit words of two DWs (the even one in
 * bits 31:0); 4DW records use words 0-1.
 */
typedef struct PttStreamRecords {
    uint64_t image[TRAFFIC_PATTERN][4];
    uint64_t tag_mul_dw1;   /* tag * this: the tag in header DW1 ... */
    uint64_t tag_mul_dw2;   /* ... or in header DW2 */
    uint64_t addr_base;     /* model_traffic_addr() of the stream; 0 for */
    uint64_t addr_mask;     /* completions, which have no address */
    uint8_t addr_rot;       /* 32: a 64-bit address, its halves swapped */
    bool ready;
    /* In a replay */
    uint32_t period_tlps;
    PttFieldAdvance advance[2];     /* of words 0-1, 2-3 */
    PttWords step[2];               /* how far the fields go per period */
} PttStreamRecords;

typedef struct PttTraceGen {
    const TrafficStream *streams;
    uint32_t n;
    bool format_8dw;
    int64_t time_base;      /* record time 0 */
    int64_t end;            /* TLPs from then on are not generated */
    TrafficMerge merge;
    PttStreamRecords records[TRAFFIC_MERGE_MAX];
    /* The repeating block; period 0 when the merge walks it all */
    uint64_t period;
    int64_t replay_from;    /* where the first period ends */
    bool replaying;
    int64_t cycle_t;        /* start of the period being replayed */
    uint32_t block_len;
    uint32_t block_pos;
    uint32_t block_dt[PTT_TRACE_BLOCK_MAX];     /* ns into the period */
    /* its stream's advance[], and the records of the first period */
    const PttFieldAdvance *block_advance[PTT_TRACE_BLOCK_MAX];
    PttWords block[PTT_TRACE_BLOCK_MAX * 2];
} PttTraceGen;

/*
 * Start generating the records of the TLPs of @streams[0..@n) with time in
 * [@t0, @end), in the 4DW or 8DW format, times relative to @time_base.
 * The streams must not change until the generation is over.
 */
void model_ptt_trace_start(PttTraceGen *g, const TrafficStream *streams,
                           uint32_t n, int64_t t0, int64_t end, bool format_8dw,
                           int64_t time_base);

/* Time of the next TLP, TRAFFIC_NEVER when none is left before the end. */
int64_t model_ptt_trace_peek(const PttTraceGen *g);

/* Write the next records, at most @max, to @out; returns how many. */
uint32_t model_ptt_trace_fill(PttTraceGen *g, uint8_t *out, uint32_t max);

#endif
