/*
 * Synthetic ring interconnect traffic: flits of the CCN's nodes.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <string.h>

#include "ring-traffic.h"

#define STREAM(vc, dir)     ((vc) * 2 + (dir))

/*
 * CCN-504-like: eight HN-F (the L3 slices), four RN-F (CPU clusters), two
 * SN-F (memory controllers), I/O bridges, the MN; XP 9 has no device.
 */
const uint8_t model_ring_ccn504_types[RING_NODES] = {
    [0] = RING_TYPE_RNI_1P + 2, [1] = RING_TYPE_RNI_1P + 2,    /* 3 ports */
    [2 ... 5] = RING_TYPE_HNF,
    [6] = RING_TYPE_HNI,
    [7] = RING_TYPE_SBAS,
    [8 ... 11] = RING_TYPE_HNF,
    [12] = RING_TYPE_MN,
    [13] = RING_TYPE_SBSX,
    [14 ... 17] = RING_TYPE_RNF,
    [20 ... 21] = RING_TYPE_SNF,
};

/* Flits per second of each stream, by the node's role */
static const uint64_t hnf_rates[RING_NODE_STREAMS] = {
    [STREAM(RING_REQ, RING_RX)] = 2000000,  /* requests to serve */
    [STREAM(RING_RSP, RING_RX)] = 1000000,  /* snoop responses, acks */
    [STREAM(RING_RSP, RING_TX)] = 2000000,  /* completions */
    [STREAM(RING_SNP, RING_TX)] = 500000,   /* snoops */
    [STREAM(RING_DAT, RING_RX)] = 1000000,  /* write data */
    [STREAM(RING_DAT, RING_TX)] = 1500000,  /* read data */
};

static const uint64_t rni_rates[RING_NODE_STREAMS] = {
    [STREAM(RING_REQ, RING_TX)] = 1000000,  /* I/O masters' requests */
    [STREAM(RING_RSP, RING_RX)] = 1000000,
    [STREAM(RING_RSP, RING_TX)] = 200000,
    [STREAM(RING_DAT, RING_RX)] = 800000,   /* read data */
    [STREAM(RING_DAT, RING_TX)] = 400000,   /* write data */
};

/*
 * A CPU cluster: with the RN-Is and the SBAS, what the eight HN-Fs receive
 * (requests, write data, snoop responses) and send (completions, read
 * data, snoops) balances on average.
 */
static const uint64_t rnf_rates[RING_NODE_STREAMS] = {
    [STREAM(RING_REQ, RING_TX)] = 3375000,
    [STREAM(RING_RSP, RING_RX)] = 3375000,  /* completions */
    [STREAM(RING_RSP, RING_TX)] = 1875000,  /* snoop responses, acks */
    [STREAM(RING_SNP, RING_RX)] = 1000000,
    [STREAM(RING_DAT, RING_RX)] = 2500000,  /* read data */
    [STREAM(RING_DAT, RING_TX)] = 1750000,  /* write data */
};

/* A memory controller: the memory requests of four HN-Fs on average */
static const uint64_t snf_rates[RING_NODE_STREAMS] = {
    [STREAM(RING_REQ, RING_RX)] = 2400000,
    [STREAM(RING_RSP, RING_TX)] = 600000,   /* write completions */
    [STREAM(RING_DAT, RING_RX)] = 600000,   /* write data */
    [STREAM(RING_DAT, RING_TX)] = 1800000,  /* read data */
};

static const uint64_t hni_rates[RING_NODE_STREAMS] = {
    [STREAM(RING_REQ, RING_RX)] = 200000,   /* requests to I/O space */
    [STREAM(RING_RSP, RING_TX)] = 200000,
    [STREAM(RING_DAT, RING_RX)] = 100000,
    [STREAM(RING_DAT, RING_TX)] = 100000,
};

static const uint64_t mn_rates[RING_NODE_STREAMS] = {
    [STREAM(RING_REQ, RING_RX)] = 10000,    /* barriers and DVM to handle */
    [STREAM(RING_REQ, RING_TX)] = 10000,    /* ... and passed on */
    [STREAM(RING_RSP, RING_RX)] = 10000,
    [STREAM(RING_RSP, RING_TX)] = 10000,
};

static bool is_rni(uint8_t type)
{
    return type >= RING_TYPE_RNI_1P && type <= RING_TYPE_RND_3P;
}

void model_ring_profile_default(uint8_t type, RingSpec *spec)
{
    const uint64_t *rates = NULL;

    memset(spec, 0, sizeof(*spec));
    if (type == RING_TYPE_HNF) {
        rates = hnf_rates;
    } else if (is_rni(type)) {
        rates = rni_rates;
    } else if (type == RING_TYPE_SBAS) {
        /* a bridge to another coherent system: RN-I traffic, halved */
        for (unsigned i = 0; i < RING_NODE_STREAMS; i++) {
            spec->rate[i] = rni_rates[i] / 2;
        }
        return;
    } else if (type == RING_TYPE_HNI || type == RING_TYPE_SBSX) {
        rates = hni_rates;
    } else if (type == RING_TYPE_MN) {
        rates = mn_rates;
    } else if (type == RING_TYPE_RNF) {
        rates = rnf_rates;
    } else if (type == RING_TYPE_SNF) {
        rates = snf_rates;
    }
    if (rates) {
        memcpy(spec->rate, rates, sizeof(spec->rate));
    }
}

/* Chance (per mille) of each property, by the stream it is on */
typedef struct RingOdds {
    uint32_t prop;
    uint16_t per_mille;
} RingOdds;

static const RingOdds hnf_req_rx_odds[] = {
    { RING_MISS, 300 }, { RING_RETRY, 20 }, { RING_SF_HIT, 500 },
    { RING_SF_EVICT, 50 }, { RING_L3_EVICT, 100 }, { RING_FILL_INVALID, 200 },
    { RING_MC_RETRY, 100 }, { RING_QOS_RETRY, 10 }, { 0, 0 },
};
static const RingOdds hnf_snp_tx_odds[] = { { RING_BROADCAST, 200 }, { 0 } };
static const RingOdds rni_req_tx_odds[] = {
    { RING_RETRY, 30 }, { RING_RRT_FULL, 20 }, { RING_WRT_FULL, 20 },
    { RING_REPLAY, 10 }, { 0, 0 },
};
static const RingOdds any_odds[] = {
    { RING_UPLOAD_STARVED, 10 }, { RING_RESPIN, 20 },
    { RING_DOWNLOAD_STARVED, 10 }, { 0, 0 },
};

static const RingOdds *stream_odds(uint8_t type, unsigned vc, unsigned dir)
{
    if (type == RING_TYPE_HNF && vc == RING_REQ && dir == RING_RX) {
        return hnf_req_rx_odds;
    }
    if (type == RING_TYPE_HNF && vc == RING_SNP && dir == RING_TX) {
        return hnf_snp_tx_odds;
    }
    if ((is_rni(type) || type == RING_TYPE_SBAS) && vc == RING_REQ &&
        dir == RING_TX) {
        return rni_req_tx_odds;
    }
    return NULL;
}

/* CHI opcodes (header bits 13:9 of hdr_h) each channel carries */
static const uint8_t req_opcodes[] = {
    0x01, 0x01, 0x04, 0x04, 0x07, 0x1b, 0x1b, 0x1d, 0x19,   /* reads, writes */
};
static const uint8_t mn_req_opcodes[] = {
    0x0e, 0x0f, 0x14, 0x14,     /* EOBarrier, ECBarrier, DVMOp */
};
static const uint8_t rsp_opcodes[] = { 0x04, 0x05, 0x09 };  /* Comp, ... */
static const uint8_t snp_opcodes[] = { 0x01, 0x02, 0x07, 0x09 };
static const uint8_t dat_opcodes[] = { 0x02, 0x03, 0x04 };  /* CompData ... */

#define HDR_ORDER   (1ull << 15)
#define HDR_SRC_SHIFT   8
#define HDR_TGT_SHIFT   15
#define HDR_ID_MASK     0x7full
#define HDR_OPCODE_SHIFT 9
#define HDR_OPCODE_MASK (0x1full << HDR_OPCODE_SHIFT)
#define OP_READ_NO_SNP      0x04
#define OP_FIRST_WRITE      0x18
#define OP_WRITE_NO_SNP_FULL 0x1d

/* Who a node exchanges flits with */
typedef enum RingRole {
    ROLE_REQUESTER,         /* RN-F, RN-I, RN-D, SBAS */
    ROLE_HOME,              /* HN-F */
    ROLE_CLUSTER,           /* RN-F: what HN-Fs snoop */
    ROLE_MEMORY,            /* SN-F */
} RingRole;

static bool has_role(uint8_t type, RingRole role)
{
    switch (role) {
    case ROLE_REQUESTER:
        return type == RING_TYPE_RNF || is_rni(type) ||
               type == RING_TYPE_SBAS;
    case ROLE_HOME:
        return type == RING_TYPE_HNF;
    case ROLE_CLUSTER:
        return type == RING_TYPE_RNF;
    default:
        return type == RING_TYPE_SNF;
    }
}

/* The peers of a node's stream: requesters talk to homes, and so on */
static RingRole peer_role(uint8_t type, unsigned vc, unsigned dir)
{
    if (has_role(type, ROLE_REQUESTER) || type == RING_TYPE_SNF) {
        return ROLE_HOME;
    }
    if (type == RING_TYPE_HNF && dir == RING_TX && vc == RING_REQ) {
        return ROLE_MEMORY;
    }
    if (type == RING_TYPE_HNF && dir == RING_TX && vc == RING_SNP) {
        return ROLE_CLUSTER;
    }
    return ROLE_REQUESTER;
}

/* Node @pick (mod their number) of those with @role; @self if none */
static uint8_t pick_node(RingRole role, uint64_t pick, uint8_t self)
{
    unsigned n = 0;

    for (unsigned i = 0; i < RING_NODES; i++) {
        n += has_role(model_ring_ccn504_types[i], role);
    }
    if (!n) {
        return self;
    }
    pick %= n;
    for (unsigned i = 0; i < RING_NODES; i++) {
        if (has_role(model_ring_ccn504_types[i], role) && !pick--) {
            return i;
        }
    }
    return self;
}

/* Set @hdr_l's SrcID and TgtID */
static uint64_t hdr_ids(uint64_t hdr_l, uint8_t src, uint8_t tgt)
{
    hdr_l &= ~(HDR_ID_MASK << HDR_SRC_SHIFT | HDR_ID_MASK << HDR_TGT_SHIFT);
    return hdr_l | (uint64_t)src << HDR_SRC_SHIFT |
           (uint64_t)tgt << HDR_TGT_SHIFT;
}

static uint8_t extract_opcode(uint64_t hdr_h)
{
    return (hdr_h & HDR_OPCODE_MASK) >> HDR_OPCODE_SHIFT;
}

static void draw_flit(RingStream *s, uint64_t key, unsigned i)
{
    uint64_t r = model_traffic_mix(key + i);
    uint64_t r2 = model_traffic_mix(key + i + 0x100);
    const uint8_t *ops;
    unsigned nops;
    const RingOdds *odds = stream_odds(s->type, s->vc, s->dir);
    uint32_t props = 0;

    switch (s->vc) {
    case RING_REQ:
        ops = s->type == RING_TYPE_MN ? mn_req_opcodes : req_opcodes;
        nops = s->type == RING_TYPE_MN ? sizeof(mn_req_opcodes) :
               sizeof(req_opcodes);
        break;
    case RING_RSP:
        ops = rsp_opcodes;
        nops = sizeof(rsp_opcodes);
        break;
    case RING_SNP:
        ops = snp_opcodes;
        nops = sizeof(snp_opcodes);
        break;
    default:
        ops = dat_opcodes;
        nops = sizeof(dat_opcodes);
        break;
    }
    /*
     * low: TxnID 7:0, SrcID 14:8, TgtID 21:15, address 47:6 at 62:22; the
     * peer picked by the address, as homes interleave it
     */
    s->peer[i] = pick_node(peer_role(s->type, s->vc, s->dir), r2 >> 44,
                           s->node);
    s->hdr_l[i] = hdr_ids((r & 0xff) | (r2 & 0x1ffffffffffull) << 22,
                          s->dir == RING_TX ? s->node : s->peer[i],
                          s->dir == RING_RX ? s->node : s->peer[i]);
    /* high: size 2:0, QoS 8:5, opcode 13:9, order 15 (one request in 4) */
    s->hdr_h[i] = ((r >> 24) & 0x7) | ((r >> 28) & 0xf) << 5 |
                  (uint64_t)ops[(r >> 32) % nops] << 9 |
                  (s->vc == RING_REQ && ((r >> 40) & 3) == 0 ? HDR_ORDER : 0);
    for (; odds && odds->prop; odds++) {
        if (model_traffic_mix(r ^ odds->prop) % 1000 < odds->per_mille) {
            props |= odds->prop;
        }
    }
    for (odds = any_odds; odds->prop; odds++) {
        if (model_traffic_mix(r2 ^ odds->prop) % 1000 < odds->per_mille) {
            props |= odds->prop;
        }
    }
    if ((is_rni(s->type) || s->type == RING_TYPE_SBAS) &&
        s->vc == RING_DAT && s->dir == RING_RX) {
        props |= RING_AXI_P0 << ((r >> 48) % 3);
    }
    s->props[i] = props;
}

/*
 * An HN-F's requests to memory (@tx): each request it receives (@rx) that
 * misses goes on to an SN-F then, as a read or a write of the same line;
 * so they are what hnf_mc_reqs counts. Their ring properties stay @tx's.
 */
static void hnf_memory_requests(RingStream *tx, const RingStream *rx)
{
    tx->present = 0;
    for (unsigned i = 0; i < TRAFFIC_PATTERN; i++) {
        uint8_t op = extract_opcode(rx->hdr_h[i]) >= OP_FIRST_WRITE ?
                     OP_WRITE_NO_SNP_FULL : OP_READ_NO_SNP;

        if (rx->props[i] & RING_MISS) {
            tx->present |= 1u << i;
        }
        tx->peer[i] = pick_node(ROLE_MEMORY, rx->hdr_l[i] >> 22, tx->node);
        tx->hdr_l[i] = hdr_ids(rx->hdr_l[i], tx->node, tx->peer[i]);
        tx->hdr_h[i] = (rx->hdr_h[i] & ~HDR_OPCODE_MASK) |
                       (uint64_t)op << HDR_OPCODE_SHIFT;
    }
}

/* The key of stream @stream of node @node: its flits' and its flow's */
static uint64_t stream_key(uint64_t seed, uint8_t node, unsigned stream)
{
    /* "CCN" in the top bits keeps these keys apart from others */
    return seed ^ model_traffic_mix(0x43434eull << 40 | (uint64_t)node << 8 |
                                    stream);
}

void model_ring_node_flits(RingStream *out, uint64_t seed, uint8_t node,
                           uint8_t type)
{
    for (unsigned vc = 0; vc < RING_VCS; vc++) {
        for (unsigned dir = 0; dir < 2; dir++) {
            RingStream *s = &out[STREAM(vc, dir)];
            uint64_t key = stream_key(seed, node, STREAM(vc, dir));

            s->node = node;
            s->type = type;
            s->vc = vc;
            s->dir = dir;
            s->present = (1u << TRAFFIC_PATTERN) - 1;
            for (unsigned i = 0; i < TRAFFIC_PATTERN; i++) {
                draw_flit(s, key, i);
            }
        }
    }
    if (type == RING_TYPE_HNF) {
        hnf_memory_requests(&out[STREAM(RING_REQ, RING_TX)],
                            &out[STREAM(RING_REQ, RING_RX)]);
    }
}

void model_ring_node_flows(RingStream *out, uint64_t seed,
                           const RingSpec *spec, int64_t epoch_t)
{
    for (unsigned i = 0; i < RING_NODE_STREAMS; i++) {
        model_traffic_flow_init(&out[i].flow, stream_key(seed, out[i].node, i),
                                spec->rate[i], epoch_t, 1, 1);
    }
    if (out->type == RING_TYPE_HNF) {
        RingStream *tx = &out[STREAM(RING_REQ, RING_TX)];

        tx->flow = out[STREAM(RING_REQ, RING_RX)].flow;
    }
}

void model_ring_node_streams(RingStream *out, uint64_t seed,
                             const RingSpec *spec, uint8_t node, uint8_t type,
                             int64_t epoch_t)
{
    model_ring_node_flits(out, seed, node, type);
    model_ring_node_flows(out, seed, spec, epoch_t);
}

void model_ring_node_phase_set(RingStream *s,
                               const TrafficPhase phase[RING_NODE_STREAMS])
{
    for (unsigned i = 0; i < RING_NODE_STREAMS; i++) {
        model_traffic_phase_set(&s[i].flow, &phase[i]);
    }
    if (s->type == RING_TYPE_HNF) {
        s[STREAM(RING_REQ, RING_TX)].flow = s[STREAM(RING_REQ, RING_RX)].flow;
    }
}

void model_ring_node_carry(RingStream *cur, const RingStream *old,
                           int64_t now)
{
    TrafficPhase phase[RING_NODE_STREAMS];

    for (unsigned i = 0; i < RING_NODE_STREAMS; i++) {
        TrafficFlow f = old[i].flow;

        model_traffic_set_rate(&f, cur[i].flow.rate, now);
        model_traffic_phase_get(&f, &phase[i]);
    }
    model_ring_node_phase_set(cur, phase);
}

/*
 * Flits [k0, k1) whose pattern position @match says yes to: whole patterns
 * times the matches in one, plus the partial ones at each end.
 */
static uint64_t count_positions(const bool match[TRAFFIC_PATTERN],
                                uint64_t k0, uint64_t k1)
{
    unsigned per_pattern = 0, before[TRAFFIC_PATTERN + 1] = { 0 };

    for (unsigned i = 0; i < TRAFFIC_PATTERN; i++) {
        per_pattern += match[i];
        before[i + 1] = per_pattern;
    }
    if (k1 <= k0) {
        return 0;
    }
    return (k1 / TRAFFIC_PATTERN * per_pattern + before[k1 % TRAFFIC_PATTERN]) -
           (k0 / TRAFFIC_PATTERN * per_pattern + before[k0 % TRAFFIC_PATTERN]);
}

static bool is_present(const RingStream *s, unsigned i)
{
    return s->present & (1u << i);
}

uint64_t model_ring_flits(const RingStream *s, int64_t t0, int64_t t1)
{
    return model_ring_flits_with(s, 0, t0, t1);
}

uint64_t model_ring_flits_with(const RingStream *s, uint32_t props, int64_t t0,
                               int64_t t1)
{
    bool match[TRAFFIC_PATTERN];

    for (unsigned i = 0; i < TRAFFIC_PATTERN; i++) {
        match[i] = is_present(s, i) && (s->props[i] & props) == props;
    }
    return count_positions(match, model_traffic_count_before(&s->flow, t0),
                           model_traffic_count_before(&s->flow, t1));
}

uint64_t model_ring_flits_matching(const RingStream *s, uint64_t cmp_l,
                                   uint64_t cmp_h, uint64_t mask_l,
                                   uint64_t mask_h, int64_t t0, int64_t t1)
{
    bool match[TRAFFIC_PATTERN];

    for (unsigned i = 0; i < TRAFFIC_PATTERN; i++) {
        match[i] = is_present(s, i) &&
                   !((s->hdr_l[i] ^ cmp_l) & ~mask_l) &&
                   !((s->hdr_h[i] ^ cmp_h) & ~mask_h);
    }
    return count_positions(match, model_traffic_count_before(&s->flow, t0),
                           model_traffic_count_before(&s->flow, t1));
}

void model_ring_flit(const RingStream *s, uint64_t k, RingFlit *f)
{
    f->present = is_present(s, k % TRAFFIC_PATTERN);
    f->peer = s->peer[k % TRAFFIC_PATTERN];
    f->time = model_traffic_time(&s->flow, k);
    f->hdr_l = s->hdr_l[k % TRAFFIC_PATTERN];
    f->hdr_h = s->hdr_h[k % TRAFFIC_PATTERN];
    f->props = s->props[k % TRAFFIC_PATTERN];
}

#define RX  (1u << RING_RX)
#define TX  (1u << RING_TX)

/* HN-F events 1..14 (the CCN PMU's numbering) */
static const RingEventDef hnf_events[] = {
    { RING_REQ, RX, RING_MISS },                        /* cache_miss */
    { RING_REQ, RX, 0 },                                /* l3_sf_cache_access */
    { RING_REQ, RX, RING_MISS },                        /* cache_fill */
    { RING_REQ, RX, RING_RETRY },                       /* pocq_retry */
    { RING_REQ, RX, 0 },                                /* pocq_reqs_recvd */
    { RING_REQ, RX, RING_SF_HIT },                      /* sf_hit */
    { RING_REQ, RX, RING_SF_EVICT },                    /* sf_evictions */
    { RING_SNP, TX, 0 },                                /* snoops_sent */
    { RING_SNP, TX, RING_BROADCAST },                   /* snoops_broadcast */
    { RING_REQ, RX, RING_L3_EVICT },                    /* l3_eviction */
    /* l3_fill_invalid_way */
    { RING_REQ, RX, RING_MISS | RING_FILL_INVALID },
    { RING_REQ, RX, RING_MISS | RING_MC_RETRY },        /* mc_retries */
    { RING_REQ, RX, RING_MISS },                        /* mc_reqs */
    { RING_REQ, RX, RING_QOS_RETRY },                   /* qos_hh_retry */
};

/* RN-I, RN-D and SBAS events 1..10 */
static const RingEventDef rni_events[] = {
    { RING_DAT, RX, RING_AXI_P0 },                      /* rdata_beats_p0 */
    { RING_DAT, RX, RING_AXI_P1 },                      /* rdata_beats_p1 */
    { RING_DAT, RX, RING_AXI_P2 },                      /* rdata_beats_p2 */
    { RING_DAT, RX, 0 },                                /* rxdat_flits */
    { RING_DAT, TX, 0 },                                /* txdat_flits */
    { RING_REQ, TX, 0 },                                /* txreq_flits */
    { RING_REQ, TX, RING_RETRY },               /* txreq_flits_retried */
    { RING_REQ, TX, RING_RRT_FULL },                    /* rrt_full */
    { RING_REQ, TX, RING_WRT_FULL },                    /* wrt_full */
    { RING_REQ, TX, RING_REPLAY },              /* txreq_flits_replayed */
};

bool model_ring_node_event(uint8_t type, uint8_t event, RingEventDef *def)
{
    if (type == RING_TYPE_HNF && event >= 1 &&
        event <= sizeof(hnf_events) / sizeof(hnf_events[0])) {
        *def = hnf_events[event - 1];
        return true;
    }
    if ((is_rni(type) || type == RING_TYPE_SBAS) && event >= 1 &&
        event <= sizeof(rni_events) / sizeof(rni_events[0])) {
        *def = rni_events[event - 1];
        return true;
    }
    return false;
}

bool model_ring_xp_event(uint8_t event, uint8_t vc, uint8_t bus,
                         RingXpEventDef *def)
{
    static const RingXpEventDef xp_events[] = {
        /* upload_starvation: counted by the XP the flit enters at */
        { .site = RING_AT_SOURCE, .props = RING_UPLOAD_STARVED },
        /* download_starvation: by the XP it leaves at */
        { .site = RING_AT_TARGET, .props = RING_DOWNLOAD_STARVED },
        /* respin: by the XP that could not take it in */
        { .site = RING_AT_TARGET, .props = RING_RESPIN },
        /* valid_flit: by each XP it passes */
        { .site = RING_AT_EVERY_XP },
    };

    if (event < 1 || event > sizeof(xp_events) / sizeof(xp_events[0]) ||
        vc >= RING_VCS || bus > 1) {
        return false;
    }
    *def = xp_events[event - 1];
    def->vc = vc;
    def->bus = bus;
    return true;
}

bool model_ring_route(uint8_t from, uint8_t to, uint8_t *bus, unsigned *hops)
{
    unsigned up = (to + RING_XPS - from) % RING_XPS;

    if (!up) {
        return false;
    }
    *bus = up > RING_XPS / 2;
    *hops = *bus ? RING_XPS - up : up;
    return true;
}

uint64_t model_ring_xp_count(const RingStream *s, uint8_t xp,
                             const RingXpEventDef *def, int64_t t0,
                             int64_t t1)
{
    uint8_t from = s->node / 2;
    bool match[TRAFFIC_PATTERN];

    if (s->dir != RING_TX || s->vc != def->vc) {
        return 0;
    }
    for (unsigned i = 0; i < TRAFFIC_PATTERN; i++) {
        uint8_t to = s->peer[i] / 2, bus;
        unsigned hops, along;

        match[i] = false;
        if (!is_present(s, i) || (s->props[i] & def->props) != def->props ||
            !model_ring_route(from, to, &bus, &hops) || bus != def->bus) {
            continue;
        }
        /* how far along the bus @xp is from the sender's XP */
        along = (bus ? from + RING_XPS - xp : xp + RING_XPS - from) % RING_XPS;
        switch (def->site) {
        case RING_AT_SOURCE:
            match[i] = along == 0;
            break;
        case RING_AT_TARGET:
            match[i] = along == hops;
            break;
        default:
            match[i] = along <= hops;
        }
    }
    return count_positions(match, model_traffic_count_before(&s->flow, t0),
                           model_traffic_count_before(&s->flow, t1));
}

uint64_t model_ring_event_count(const RingStream *streams,
                                const RingEventDef *def, int64_t t0, int64_t t1)
{
    uint64_t n = 0;

    for (unsigned dir = 0; dir < 2; dir++) {
        if (def->dirs & (1u << dir)) {
            n += model_ring_flits_with(&streams[STREAM(def->vc, dir)],
                                       def->props, t0, t1);
        }
    }
    return n;
}
