/*
 * Host benchmark: PTT trace record generation against memcpy, and the cost
 * of one traffic count query.
 *
 * Two measurements, each side by side with memcpy of the same bytes in the
 * same run (goal: >= 0.5x memcpy):
 *  - full generation as hisi-ptt does it: a time-ordered merge of the 14
 *    streams of two endpoints, each TLP's header built and its record
 *    encoded into a 64 KiB chunk (memcpy: 64 KiB blocks);
 *  - record encoding alone (ptt-record.c) from headers drawn beforehand,
 *    into a 4 MiB trace buffer (memcpy: 4 MiB blocks).
 * A count query is timed at 1 s and at one year of virtual time, to show
 * it does not depend on the time elapsed. Times are the best of five runs.
 *
 * usage: ptt-record-bench [--records N]
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ptt-record.h"
#include "traffic.h"

#define CHUNK (64 * 1024)
#define BIG (4 * 1024 * 1024)   /* the driver's trace buffer size */
#define NTLPS 4096
#define MIN(a, b) ((a) < (b) ? (a) : (b))

static double now_s(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

/* Generate @n records of @size bytes; returns seconds taken. */
static double generate(uint64_t n, unsigned size, uint8_t *chunk,
                       uint32_t *checksum)
{
    TrafficSpec spec[TRAFFIC_ENDPOINT_STREAMS];
    TrafficStream s[2 * TRAFFIC_ENDPOINT_STREAMS];
    TrafficTuning tune = { 1, 1, 1, 1, 1 };
    static TrafficMerge m;
    uint32_t off = 0, sum = 0;
    double t0;

    traffic_profile_default(spec);
    traffic_endpoint_streams(s, 1, spec, 0x100, 0x80, 0x10000000, 4096, &tune,
                             0);
    traffic_endpoint_streams(s + 7, 1, spec, 0x200, 0x88, 0x10001000, 4096,
                             &tune, 0);
    t0 = now_s();
    traffic_merge_start(&m, s, 14, 0);
    for (uint64_t i = 0; i < n; i++) {
        int64_t t = traffic_merge_peek(&m);
        uint32_t stream;
        uint64_t k;
        PcieTlp tlp;

        traffic_merge_pop(&m, &stream, &k);
        traffic_tlp(&s[stream], k, &tlp);
        if (size == PTT_RECORD_8DW_SIZE) {
            ptt_record_8dw(chunk + off, &tlp, t);
        } else {
            ptt_record_4dw(chunk + off, &tlp, t);
        }
        off += size;
        if (off == CHUNK) {
            sum += chunk[CHUNK - 1];
            off = 0;
        }
    }
    *checksum = sum;
    return now_s() - t0;
}

/* @n TLPs drawn as the device draws them */
static void draw_tlps(PcieTlp *out, unsigned n)
{
    TrafficSpec spec[TRAFFIC_ENDPOINT_STREAMS];
    TrafficStream s[TRAFFIC_ENDPOINT_STREAMS];
    TrafficTuning tune = { 1, 1, 1, 1, 1 };
    static TrafficMerge m;

    traffic_profile_default(spec);
    traffic_endpoint_streams(s, 1, spec, 0x100, 0x80, 0x10000000, 4096, &tune,
                             0);
    traffic_merge_start(&m, s, TRAFFIC_ENDPOINT_STREAMS, 0);
    for (unsigned i = 0; i < n; i++) {
        uint32_t stream;
        uint64_t k;

        traffic_merge_pop(&m, &stream, &k);
        traffic_tlp(&s[stream], k, &out[i]);
    }
}

/*
 * Encode only: @n records from a batch of TLP headers drawn beforehand, into
 * a buffer of @buf_size bytes used round-robin.
 */
static double encode(uint64_t n, unsigned size, uint8_t *buf,
                     uint32_t buf_size, const PcieTlp *tlps, unsigned ntlps)
{
    uint32_t off = 0;
    unsigned t = 0;
    double t0 = now_s();

    for (uint64_t i = 0; i < n; i++) {
        const PcieTlp *tlp = &tlps[t];

        if (++t == ntlps) {
            t = 0;
        }
        if (size == PTT_RECORD_8DW_SIZE) {
            ptt_record_8dw(buf + off, tlp, i);
        } else {
            ptt_record_4dw(buf + off, tlp, i);
        }
        off += size;
        if (off == buf_size) {
            off = 0;
        }
    }
    return now_s() - t0;
}

/* memcpy @bytes in blocks of @block bytes */
static double copy(uint64_t bytes, uint8_t *dst, const uint8_t *src,
                   uint32_t block)
{
    double t0 = now_s();

    for (uint64_t done = 0; done < bytes; done += block) {
        memcpy(dst, src, block);
        __asm__ volatile("" : : "r"(dst) : "memory");
    }
    return now_s() - t0;
}

static double query_ns(int64_t t)
{
    TrafficSpec spec[TRAFFIC_ENDPOINT_STREAMS];
    TrafficStream s[TRAFFIC_ENDPOINT_STREAMS];
    TrafficTuning tune = { 1, 1, 1, 1, 1 };
    /* volatile: keeps the compiler from dropping the queries */
    volatile uint64_t sink = 0;
    const int n = 10000000;
    double t0;

    traffic_profile_default(spec);
    traffic_endpoint_streams(s, 1, spec, 0x100, 0x80, 0x10000000, 4096, &tune,
                             0);
    t0 = now_s();
    for (int i = 0; i < n; i++) {
        sink += traffic_count_before(&s[i % TRAFFIC_ENDPOINT_STREAMS], t + i);
    }
    return (now_s() - t0) * 1e9 / n;
}

int main(int argc, char **argv)
{
    uint64_t n = 4000000;
    uint8_t *chunk = malloc(CHUNK), *dst = malloc(CHUNK);
    uint8_t *big = calloc(1, BIG), *big_dst = calloc(1, BIG);
    static PcieTlp tlps[NTLPS];
    uint32_t sum;

    if (argc == 3 && !strcmp(argv[1], "--records")) {
        char extra;

        if (sscanf(argv[2], "%" SCNu64 "%c", &n, &extra) != 1 || !n) {
            fprintf(stderr, "ptt-record-bench: --records needs a positive "
                    "number\n");
            return 1;
        }
    } else if (argc != 1) {
        fprintf(stderr, "usage: ptt-record-bench [--records N]\n");
        return 1;
    }
    memset(chunk, 0x5a, CHUNK);
    printf("Full generation (merge of 14 streams, header, record) into "
           "64 KiB chunks,\nagainst memcpy of 64 KiB chunks:\n");
    printf("%-6s %12s %14s %12s %12s %8s %s\n", "format", "records",
           "records/s", "MB/s", "memcpy MB/s", "ratio", "goal >= 0.5");
    for (unsigned size = PTT_RECORD_4DW_SIZE; size <= PTT_RECORD_8DW_SIZE;
         size *= 2) {
        double g = 1e9, c = 1e9, ratio;

        for (int rep = 0; rep < 5; rep++) {
            g = MIN(g, generate(n, size, chunk, &sum));
            c = MIN(c, copy(n * size, dst, chunk, CHUNK));
        }
        ratio = c / g;

        printf("%-6s %12llu %14.0f %12.1f %12.1f %8.3f %s\n",
               size == PTT_RECORD_4DW_SIZE ? "4DW" : "8DW",
               (unsigned long long)n, n / g, n * size / g / 1e6,
               n * size / c / 1e6, ratio, ratio >= 0.5 ? "met" : "not met");
    }
    printf("Record encoding alone, into a 4 MiB trace buffer, against memcpy "
           "of 4 MiB buffers:\n");
    draw_tlps(tlps, NTLPS);
    for (unsigned size = PTT_RECORD_4DW_SIZE; size <= PTT_RECORD_8DW_SIZE;
         size *= 2) {
        double e = 1e9, c = 1e9, ratio;

        /* best of five: this is a shared machine */
        for (int rep = 0; rep < 5; rep++) {
            e = MIN(e, encode(n, size, big, BIG, tlps, NTLPS));
            c = MIN(c, copy(n * size, big_dst, big, BIG));
        }
        ratio = c / e;

        printf("%-6s %12llu %14.0f %12.1f %12.1f %8.3f %s\n",
               size == PTT_RECORD_4DW_SIZE ? "4DW" : "8DW",
               (unsigned long long)n, n / e, n * size / e / 1e6,
               n * size / c / 1e6, ratio, ratio >= 0.5 ? "met" : "not met");
    }
    printf("count query: %.2f ns at 1 s, %.2f ns at 1 year of virtual time "
           "(checksum %u)\n", query_ns(1000000000ll),
           query_ns(365ll * 24 * 3600 * 1000000000ll), sum);
    free(chunk);
    free(dst);
    free(big);
    free(big_dst);
    return 0;
}
