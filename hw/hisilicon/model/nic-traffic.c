/*
 * Synthetic NIC traffic: packets per queue.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <string.h>

#include "nic-traffic.h"

static const NicSpec nic_default_profile[NIC_KINDS] = {
    [NIC_TX] = { 100000, 64, 1518, 2000, 16 },
    [NIC_RX] = { 150000, 64, 1518, 1500, 16 },
    [NIC_ROCE_TX] = { 20000, 256, 4096, 3000, 8 },
    [NIC_ROCE_RX] = { 20000, 256, 4096, 3000, 8 },
};

void model_nic_profile_default(NicSpec *spec)
{
    memcpy(spec, nic_default_profile, sizeof(nic_default_profile));
}

static void nic_stream_init(NicStream *s, uint64_t seed, const NicSpec *spec,
                            uint16_t func, uint16_t queue, uint8_t port,
                            uint8_t tc, NicKind kind, int64_t epoch_t)
{
    /* "NIC" in the top bits keeps these keys apart from the PCIe ones */
    uint64_t key = seed ^ model_traffic_mix(0x4e4943ull << 40 |
                                            (uint64_t)func << 24 |
                                            (uint64_t)queue << 8 | kind);

    s->func = func;
    s->queue = queue;
    s->port = port;
    s->tc = tc;
    s->kind = kind;
    s->coalesce = spec->coalesce ? spec->coalesce : 1;
    s->latency_ns = spec->latency_ns;
    model_traffic_flow_init(&s->flow, key, spec->rate, epoch_t, spec->len_min,
                            spec->len_max);
}

uint32_t model_nic_function_streams(NicStream *out, uint64_t seed,
                                    const NicSpec *spec, uint16_t func,
                                    uint8_t port, uint16_t queues, uint8_t tcs,
                                    int64_t epoch_t)
{
    uint32_t n = 0;

    tcs = tcs ? tcs : 1;
    for (uint16_t q = 0; q < queues; q++) {
        nic_stream_init(&out[n++], seed, &spec[NIC_TX], func, q, port,
                        q % tcs, NIC_TX, epoch_t);
        nic_stream_init(&out[n++], seed, &spec[NIC_RX], func, q, port,
                        q % tcs, NIC_RX, epoch_t);
    }
    nic_stream_init(&out[n++], seed, &spec[NIC_ROCE_TX], func, NIC_QUEUE_NONE,
                    port, 0, NIC_ROCE_TX, epoch_t);
    nic_stream_init(&out[n++], seed, &spec[NIC_ROCE_RX], func, NIC_QUEUE_NONE,
                    port, 0, NIC_ROCE_RX, epoch_t);
    return n;
}

void model_nic_streams_carry(NicStream *cur, const NicStream *old, uint32_t n,
                             int64_t now)
{
    for (uint32_t i = 0; i < n; i++) {
        TrafficFlow f = old[i].flow;
        TrafficPhase p;

        model_traffic_set_rate(&f, cur[i].flow.rate, now);
        model_traffic_phase_get(&f, &p);
        model_traffic_phase_set(&cur[i].flow, &p);
    }
}

uint64_t model_nic_bytes(const NicStream *s, int64_t t0, int64_t t1)
{
    return model_traffic_len_sum(&s->flow, model_traffic_count_before(&s->flow,
                                                                      t0),
                                 model_traffic_count_before(&s->flow, t1));
}

uint64_t model_nic_interrupts(const NicStream *s, int64_t t0, int64_t t1)
{
    return model_traffic_count_before(&s->flow, t1) / s->coalesce -
           model_traffic_count_before(&s->flow, t0) / s->coalesce;
}

void model_nic_packet(const NicStream *s, uint64_t k, NicPacket *p)
{
    p->time = model_traffic_time(&s->flow, k);
    p->len = model_traffic_len(&s->flow, k);
    p->bd = k % NIC_RING_SIZE;
    p->interrupt = (k + 1) % s->coalesce == 0;
}
