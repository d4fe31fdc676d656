/*
 * Rules that change the built-in per-endpoint traffic profile, as users
 * write them in the hisi-traffic object's "rules" property:
 *
 *   rule[;rule...]
 *   rule = field[,field...]
 *   field = ep=BB:DD.F | port=BB:DD.F | node=N
 *         | stream=NAME|all|nic-all|ring-all
 *         | rate=PER_S | len=N[-N] | latency=NS | coalesce=N
 *
 * e.g. "stream=dma-write,rate=400000,len=32;ep=01:00.0,stream=all,rate=0".
 * A rule applies to the streams it names (stream= is required) of the
 * endpoints it selects (every endpoint without ep= or port=); later rules
 * win. PCIe stream names: dma-write, dma-read, dma-read-cpl, mmio-write,
 * mmio-read, mmio-read-cpl, p2p-cpl (model_traffic_stream_names; "all": these),
 * with rates in TLPs/s and lengths in DWs (1..1024). NIC stream names, for
 * the NIC functions an hns3-pmu watches (ep= is the function): nic-tx,
 * nic-rx, roce-tx, roce-rx (model_nic_stream_names; "nic-all": these), with
 * rates in packets/s, lengths in bytes (1..65535) and coalesce= packets
 * per interrupt (1..65535). Ring stream names, for the nodes of a CCN
 * (node= is the node id): ring-req-rx, ring-req-tx, ring-rsp-rx, ...,
 * ring-dat-tx (model_ring_stream_names; "ring-all": these), with rates in
 * flits/s and nothing else.
 *
 * Plain C with no QEMU headers: the host unit tests use it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HISI_MODEL_TRAFFIC_RULES_H
#define HISI_MODEL_TRAFFIC_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nic-traffic.h"
#include "ring-traffic.h"
#include "traffic.h"

#define TRAFFIC_MAX_RULES       32
#define TRAFFIC_MAX_RATE        10000000000ull  /* TLPs/s */
#define TRAFFIC_MAX_LATENCY_NS  1000000000u
#define TRAFFIC_ANY_BDF         (-1)
#define TRAFFIC_ANY_NODE        (-1)

typedef struct TrafficRule {
    int32_t ep;             /* BDF, or TRAFFIC_ANY_BDF */
    int32_t port;           /* BDF, or TRAFFIC_ANY_BDF */
    int32_t node;           /* ring node id, or TRAFFIC_ANY_NODE */
    uint8_t streams;        /* bit i: PCIe stream i of the profile */
    uint8_t nic_streams;    /* bit NicKind */
    uint8_t ring_streams;   /* bit vc * 2 + dir */
    bool set_rate;
    bool set_len;
    bool set_latency;
    bool set_coalesce;
    uint64_t rate;
    uint16_t len_min;
    uint16_t len_max;
    uint32_t latency_ns;
    uint16_t coalesce;
} TrafficRule;

typedef struct TrafficRules {
    unsigned n;
    TrafficRule rule[TRAFFIC_MAX_RULES];
} TrafficRules;

extern const char *const model_traffic_stream_names[TRAFFIC_ENDPOINT_STREAMS];
extern const char *const model_nic_stream_names[NIC_KINDS];
extern const char *const model_ring_stream_names[RING_NODE_STREAMS];

/*
 * Room for a refusal's own words: a message is at most this long beside
 * the one piece of the rules it quotes.
 */
#define TRAFFIC_RULES_ERROR_LEN 256

/*
 * Parse @text into @rules. On a mistake returns false, leaves @rules alone
 * and writes a message naming the faulty field into @err; it is whole when
 * @errlen is at least strlen(@text) + TRAFFIC_RULES_ERROR_LEN.
 */
bool model_traffic_rules_parse(TrafficRules *rules, const char *text,
                               char *err, size_t errlen);

/* Apply @rules to the profile @spec of endpoint @ep below root port @port. */
void model_traffic_rules_apply(const TrafficRules *rules, uint16_t ep,
                               uint16_t port, TrafficSpec *spec);

/* Apply @rules to the NIC profile @spec of function @ep below @port. */
void model_traffic_rules_apply_nic(const TrafficRules *rules, uint16_t ep,
                                   uint16_t port, NicSpec *spec);

/* Apply @rules to the ring profile @spec of node @node. */
void model_traffic_rules_apply_ring(const TrafficRules *rules, uint8_t node,
                                    RingSpec *spec);

#endif
