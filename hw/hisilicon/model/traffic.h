/*
 * Synthetic PCIe traffic: streams of TLPs over virtual time.
 *
 * A stream is the TLPs of one kind and direction that one endpoint takes
 * part in: a flow (flow.h) of TLPs, whose lengths are payload or read
 * lengths in DWs. The TLP itself (header, length, tag, address) is a pure
 * function of (seed, stream, k): what a trace records over an interval is
 * exactly what is counted over it.
 *
 * Plain C with no QEMU headers: the host unit tests and benchmarks use it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HISI_MODEL_TRAFFIC_H
#define HISI_MODEL_TRAFFIC_H

#include <stdbool.h>
#include <stdint.h>

#include "flow.h"
#include "pcie-tlp.h"

typedef enum TrafficDir {
    TRAFFIC_INBOUND,    /* endpoint -> root complex */
    TRAFFIC_OUTBOUND,   /* root complex -> endpoint */
} TrafficDir;

typedef enum TrafficKind {
    TRAFFIC_POSTED,         /* memory write */
    TRAFFIC_NON_POSTED,     /* memory read */
    TRAFFIC_COMPLETION,     /* completion with data */
} TrafficKind;

typedef struct TrafficStream {
    TrafficFlow flow;       /* lengths in DWs */
    uint16_t endpoint;      /* BDF of the endpoint */
    uint16_t port;          /* BDF of its root port (the RC side) */
    uint8_t index;          /* which stream of the endpoint, for the seed */
    uint8_t dir;            /* TrafficDir */
    uint8_t kind;           /* TrafficKind */
    bool cpl_b;             /* inbound completion of a P2P request */
    uint64_t addr_base;     /* requests address [base, base + window), */
    uint32_t addr_window;   /* a power of two that aligns the base */
    uint32_t latency_ns;    /* request to completion, for latency counts */
} TrafficStream;

/*
 * Set up the flow of @s, whose other fields are set, at @rate TLPs/s from
 * @epoch_t on, with lengths drawn from [len_min, len_max] DWs (1..1024)
 * by @seed and the stream's identity.
 */
void model_traffic_stream_init(TrafficStream *s, uint64_t seed, uint64_t rate,
                               int64_t epoch_t, uint16_t len_min,
                               uint16_t len_max);

/* Requests walk their address window in steps of this many bytes. */
#define TRAFFIC_ADDR_STRIDE 128

/* The address TLP @k of @s requests (unused by completions) */
static inline uint64_t model_traffic_addr(const TrafficStream *s, uint64_t k)
{
    return s->addr_base + ((k * TRAFFIC_ADDR_STRIDE) & (s->addr_window - 1));
}

/*
 * The header of TLP @k of @s. Only the length (TRAFFIC_PATTERN), relaxed
 * ordering (every fourth), tag (k mod 256) and address depend on k.
 */
void model_traffic_tlp(const TrafficStream *s, uint64_t k, PcieTlp *tlp);

/*
 * The merged order of a set of streams repeats: TLP k + n of a stream of
 * rate r comes exactly P = 1e9 / gcd(r, 1e9) ns after TLP k (n = r * P /
 * 1e9), so the order of all @n streams repeats every lcm of their P ns.
 * Returns the shortest such period in which every stream has a multiple
 * of @multiple TLPs (a divisor of @multiple seconds), and the number of
 * TLPs in it in *@tlps; 0 when there is no traffic or more than @max_tlps
 * TLPs per period.
 */
uint64_t model_traffic_period(const TrafficStream *s, uint32_t n,
                              uint32_t multiple, uint64_t max_tlps,
                              uint64_t *tlps);

/*
 * The traffic of one PCIe endpoint: seven streams, in this order: DMA
 * writes, DMA reads, their completions, MMIO writes from the CPU, MMIO
 * reads, their completions (CPL A), peer-to-peer completions (CPL B).
 * model_traffic_profile_default() gives the built-in rates, lengths and
 * latencies; traffic-rules.h changes them.
 *
 * Tuning scales it like the PTT tune events: a QoS weight w (0..2)
 * multiplies the rate of that outbound kind by 2^w / 2, a buffer level l
 * (0..2) multiplies the latency of that direction by (4 - l) / 3.
 */
#define TRAFFIC_ENDPOINT_STREAMS 7

typedef struct TrafficSpec {
    uint8_t dir;            /* TrafficDir */
    uint8_t kind;           /* TrafficKind */
    bool cpl_b;
    uint64_t rate;          /* TLPs per second at weight 1 */
    uint16_t len_min;       /* DWs */
    uint16_t len_max;
    uint32_t latency_ns;    /* at buffer level 1 */
} TrafficSpec;

/* The PTT tune events that shape the traffic */
typedef enum TrafficTuneEvent {
    TRAFFIC_TUNE_QOS_TX_CPL,
    TRAFFIC_TUNE_QOS_TX_NP,
    TRAFFIC_TUNE_QOS_TX_P,
    TRAFFIC_TUNE_RX_BUF_LEVEL,
    TRAFFIC_TUNE_TX_BUF_LEVEL,
    TRAFFIC_TUNE_EVENTS
} TrafficTuneEvent;

#define TRAFFIC_TUNE_MAX    2   /* the highest weight or level */
#define TRAFFIC_TUNE_RESET  1   /* every tune event's reset value */

typedef struct TrafficTuning {
    uint8_t level[TRAFFIC_TUNE_EVENTS];
} TrafficTuning;

/* Every event at its reset value: the rates and latencies as specified */
#define TRAFFIC_TUNING_RESET ((TrafficTuning) { \
    .level = { [0 ... TRAFFIC_TUNE_EVENTS - 1] = TRAFFIC_TUNE_RESET } })

/* The built-in profile: @spec[TRAFFIC_ENDPOINT_STREAMS] */
void model_traffic_profile_default(TrafficSpec *spec);

/*
 * Fill @out[TRAFFIC_ENDPOINT_STREAMS] from @spec for the endpoint
 * @endpoint below root port @port, whose MMIO window (a BAR) is
 * [mmio_base, mmio_base + mmio_size), mmio_size a power of two. The
 * streams start at @epoch_t ns (their TLP 0 happens then).
 */
void model_traffic_endpoint_streams(TrafficStream *out, uint64_t seed,
                                    const TrafficSpec *spec, uint16_t endpoint,
                                    uint16_t port, uint64_t mmio_base,
                                    uint32_t mmio_size,
                                    const TrafficTuning *tune, int64_t epoch_t);

/*
 * Walks the TLPs of a set of streams in time order (ties: lower stream
 * index first), from a start time on, with a binary heap.
 */
#define TRAFFIC_MERGE_MAX 256

/*
 * An item walks one stream without dividing: (k - epoch_k) * 1e9 +
 * epoch_left = q * rate + r, so t(k) = epoch_t + q + (r != 0), and each
 * step adds the stream's 1e9 / rate and 1e9 % rate.
 */
typedef struct TrafficMergeItem {
    int64_t t;
    uint64_t k;
    uint64_t q;
    uint64_t r;
    uint32_t stream;
} TrafficMergeItem;

typedef struct TrafficMerge {
    const TrafficStream *streams;
    uint32_t n;
    TrafficMergeItem heap[TRAFFIC_MERGE_MAX];
    uint64_t step_q[TRAFFIC_MERGE_MAX];     /* 1e9 / rate, per stream */
    uint64_t step_r[TRAFFIC_MERGE_MAX];     /* 1e9 % rate */
} TrafficMerge;

/* Only the first TRAFFIC_MERGE_MAX streams take part. */
void model_traffic_merge_start(TrafficMerge *m, const TrafficStream *streams,
                               uint32_t n, int64_t t0);

/* Time of the next TLP, TRAFFIC_NEVER when there is none. */
static inline int64_t model_traffic_merge_peek(const TrafficMerge *m)
{
    return m->n ? m->heap[0].t : TRAFFIC_NEVER;
}

/* Take the next TLP: its stream and number. Only when peek < NEVER. */
void model_traffic_merge_pop(TrafficMerge *m, uint32_t *stream, uint64_t *k);

/*
 * The Requester ID of the TLPs of @s, as model_traffic_tlp() encodes it:
 * the endpoint for its own requests (inbound P/NP) and for the completions
 * it receives (outbound CPL); the root port for the CPU's requests to the
 * endpoint (outbound P/NP) and the completions they get (inbound CPL).
 */
uint16_t model_traffic_requester(const TrafficStream *s);

#endif
