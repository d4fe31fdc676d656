/*
 * Synthetic PCIe traffic: streams of TLPs over virtual time.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <string.h>

#include "traffic.h"

typedef unsigned __int128 u128;

void model_traffic_stream_init(TrafficStream *s, uint64_t seed, uint64_t rate,
                               int64_t epoch_t, uint16_t len_min,
                               uint16_t len_max)
{
    uint64_t key = seed ^ ((uint64_t)s->endpoint << 32 |
                           (uint64_t)s->index << 16 | s->port);

    model_traffic_flow_init(&s->flow, key, rate, epoch_t, len_min, len_max);
}

void model_traffic_tlp(const TrafficStream *s, uint64_t k, PcieTlp *tlp)
{
    uint8_t tag = k;
    uint16_t len = model_traffic_len(&s->flow, k);
    uint64_t addr = model_traffic_addr(s, k);
    bool in = s->dir == TRAFFIC_INBOUND;
    /* Endpoints mark every fourth DMA write relaxed-ordered. */
    bool relaxed = in && (k & 3) == 0;

    switch (s->kind) {
    case TRAFFIC_POSTED:
    case TRAFFIC_NON_POSTED:
        model_pcie_tlp_mem(tlp, s->kind == TRAFFIC_POSTED, addr, len * 4u,
                           in ? s->endpoint : s->port, tag,
                           relaxed && s->kind == TRAFFIC_POSTED);
        break;
    default:
        if (in) {
            model_pcie_tlp_cpld(tlp, s->endpoint, s->port, tag, 0, len * 4u,
                                len * 4u);
        } else {
            model_pcie_tlp_cpld(tlp, s->port, s->endpoint, tag, 0, len * 4u,
                                len * 4u);
        }
        break;
    }
}

static uint64_t gcd64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t r = a % b;

        a = b;
        b = r;
    }
    return a;
}

uint64_t model_traffic_period(const TrafficStream *s, uint32_t n,
                              uint32_t multiple, uint64_t max_tlps,
                              uint64_t *tlps)
{
    uint64_t period = 1;
    u128 total = 0;

    for (uint32_t i = 0; i < n; i++) {
        uint64_t g, p;

        if (!s[i].flow.rate) {
            continue;
        }
        g = gcd64(s[i].flow.rate, TRAFFIC_NS_PER_S);
        /* @multiple / gcd(multiple, TLPs per 1e9 / g ns) of those */
        p = TRAFFIC_NS_PER_S / g *
            (multiple / gcd64(multiple, s[i].flow.rate / g));
        /* all divide multiple * 1e9, so their lcm does too */
        period = period / gcd64(period, p) * p;
    }
    for (uint32_t i = 0; i < n; i++) {
        total += (u128)s[i].flow.rate * period / TRAFFIC_NS_PER_S;
    }
    if (!total || total > max_tlps) {
        return 0;
    }
    *tlps = (uint64_t)total;
    return period;
}

/* DMA targets host memory above 4 GiB: 4DW headers, 16 MiB per endpoint */
#define TRAFFIC_DMA_BASE    0x100000000ull
#define TRAFFIC_DMA_WINDOW  (16u << 20)

/* Direction, kind, TLPs per second, length range (DW), latency (ns) */
#define STREAM(d, k, r, lo, hi, lat) \
    .dir = TRAFFIC_ ## d, .kind = TRAFFIC_ ## k, .rate = (r), \
    .len_min = (lo), .len_max = (hi), .latency_ns = (lat)

static const TrafficSpec traffic_default_profile[TRAFFIC_ENDPOINT_STREAMS] = {
    /* DMA: the endpoint writes and reads host memory */
    { STREAM(INBOUND, POSTED, 200000, 8, 32, 600) },
    { STREAM(INBOUND, NON_POSTED, 100000, 8, 32, 900) },
    { STREAM(OUTBOUND, COMPLETION, 100000, 8, 32, 900) },
    /* MMIO: the CPU writes and reads the endpoint's registers */
    { STREAM(OUTBOUND, POSTED, 20000, 1, 1, 300) },
    { STREAM(OUTBOUND, NON_POSTED, 10000, 1, 1, 1200) },
    { STREAM(INBOUND, COMPLETION, 10000, 1, 1, 1200) },
    /* peer-to-peer reads answered by this endpoint */
    { STREAM(INBOUND, COMPLETION, 5000, 8, 16, 1500), .cpl_b = true },
};

void model_traffic_profile_default(TrafficSpec *spec)
{
    memcpy(spec, traffic_default_profile, sizeof(traffic_default_profile));
}

static uint64_t qos_rate(uint64_t rate, uint8_t weight)
{
    return rate * (1u << weight) / 2;
}

void model_traffic_endpoint_streams(TrafficStream *out, uint64_t seed,
                                    const TrafficSpec *spec, uint16_t endpoint,
                                    uint16_t port, uint64_t mmio_base,
                                    uint32_t mmio_size,
                                    const TrafficTuning *tune, int64_t epoch_t)
{
    for (unsigned i = 0; i < TRAFFIC_ENDPOINT_STREAMS; i++) {
        const TrafficSpec *e = &spec[i];
        TrafficStream *s = &out[i];
        bool in = e->dir == TRAFFIC_INBOUND;
        bool dma = in != (e->kind == TRAFFIC_COMPLETION);
        uint8_t level = tune->level[in ? TRAFFIC_TUNE_RX_BUF_LEVEL :
                                    TRAFFIC_TUNE_TX_BUF_LEVEL];
        TrafficTuneEvent weight = e->kind == TRAFFIC_POSTED ?
                                  TRAFFIC_TUNE_QOS_TX_P :
                                  e->kind == TRAFFIC_NON_POSTED ?
                                  TRAFFIC_TUNE_QOS_TX_NP :
                                  TRAFFIC_TUNE_QOS_TX_CPL;

        s->endpoint = endpoint;
        s->port = port;
        s->index = i;
        s->dir = e->dir;
        s->kind = e->kind;
        s->cpl_b = e->cpl_b;
        if (dma) {
            s->addr_base = TRAFFIC_DMA_BASE +
                           (uint64_t)endpoint * TRAFFIC_DMA_WINDOW;
            s->addr_window = TRAFFIC_DMA_WINDOW;
        } else {
            s->addr_base = mmio_base;
            s->addr_window = mmio_size;
        }
        s->latency_ns = (uint64_t)e->latency_ns * (4 - level) / 3;
        model_traffic_stream_init(s, seed, in ? e->rate :
                                  qos_rate(e->rate, tune->level[weight]),
                                  epoch_t, e->len_min, e->len_max);
    }
}

static bool item_before(const TrafficMergeItem *a, const TrafficMergeItem *b)
{
    return a->t < b->t || (a->t == b->t && a->stream < b->stream);
}

static void sift_down(TrafficMerge *m, uint32_t i)
{
    TrafficMergeItem item = m->heap[i];

    for (;;) {
        uint32_t c = 2 * i + 1;

        if (c >= m->n) {
            break;
        }
        if (c + 1 < m->n && item_before(&m->heap[c + 1], &m->heap[c])) {
            c++;
        }
        if (!item_before(&m->heap[c], &item)) {
            break;
        }
        m->heap[i] = m->heap[c];
        i = c;
    }
    m->heap[i] = item;
}

/* Time of @item's TLP, TRAFFIC_NEVER past the end of time */
static int64_t item_time(const TrafficFlow *s, const TrafficMergeItem *item)
{
    uint64_t dt = item->q + (item->r != 0);

    return dt >= (uint64_t)(TRAFFIC_NEVER - s->epoch_t) ? TRAFFIC_NEVER :
           s->epoch_t + (int64_t)dt;
}

void model_traffic_merge_start(TrafficMerge *m, const TrafficStream *streams,
                               uint32_t n, int64_t t0)
{
    m->streams = streams;
    m->n = 0;
    for (uint32_t i = 0; i < n && i < TRAFFIC_MERGE_MAX; i++) {
        const TrafficFlow *s = &streams[i].flow;
        uint64_t k = model_traffic_count_before(s, t0);
        u128 num;
        TrafficMergeItem item = { .k = k, .stream = i };

        if (!s->rate) {
            continue;
        }
        num = (u128)(k - s->epoch_k) * TRAFFIC_NS_PER_S + s->epoch_left;
        if (num / s->rate >= (u128)TRAFFIC_NEVER) {
            continue;
        }
        item.q = num / s->rate;
        item.r = num % s->rate;
        item.t = item_time(s, &item);
        if (item.t == TRAFFIC_NEVER) {
            continue;
        }
        m->step_q[i] = TRAFFIC_NS_PER_S / s->rate;
        m->step_r[i] = TRAFFIC_NS_PER_S % s->rate;
        m->heap[m->n++] = item;
    }
    for (uint32_t i = m->n / 2; i-- > 0;) {
        sift_down(m, i);
    }
}

void model_traffic_merge_pop(TrafficMerge *m, uint32_t *stream, uint64_t *k)
{
    TrafficMergeItem *top = &m->heap[0];
    const TrafficFlow *s = &m->streams[top->stream].flow;

    *stream = top->stream;
    *k = top->k;
    top->k++;
    top->q += m->step_q[top->stream];
    top->r += m->step_r[top->stream];
    if (top->r >= s->rate) {
        top->r -= s->rate;
        top->q++;
    }
    top->t = item_time(s, top);
    if (top->t == TRAFFIC_NEVER) {
        m->heap[0] = m->heap[--m->n];
    }
    if (m->n) {
        sift_down(m, 0);
    }
}

uint16_t model_traffic_requester(const TrafficStream *s)
{
    bool in = s->dir == TRAFFIC_INBOUND;

    return in != (s->kind == TRAFFIC_COMPLETION) ? s->endpoint : s->port;
}
