/*
 * Synthetic ring interconnect traffic, as an ARM CCN-504 carries it: flits
 * between the crosspoints (XPs) and the nodes on their device ports.
 *
 * Node n sits on XP n / 2, device port n % 2. Each node port carries eight
 * streams of flits: the four virtual channels (REQ, RSP, SNP, DAT), each
 * received by the node from its XP (RING_RX, the CCN's dir 0) and sent by
 * the node to it (RING_TX, dir 1). Each stream is a flow (flow.h) of
 * flits at a rate (lengths: data beats, 1 per flit). Flit k's header and
 * its event properties (what the node did with it: a cache miss, a retry,
 * ...) follow a pattern of TRAFFIC_PATTERN entries drawn from the seed, so
 * flits, watchpoint matches and node events over any interval are O(1),
 * and flit k is a pure function of (seed, stream, k).
 *
 * The node events the CCN PMU counts are defined here on these streams
 * (model_ring_node_event()): a node's events and its port's flit counts
 * agree by construction.
 *
 * The ring: the XPs form a ring of two buses, bus 0 carrying flits from
 * each XP to the next one up (XP 10 to XP 0), bus 1 the other way. Every
 * flit a node sends (its RING_TX streams) goes to a peer node (the TgtID
 * of its header): it enters the ring at the sender's XP, takes the shorter
 * way round to the peer's XP (11 XPs: there is always a shorter one) and is
 * seen by every XP on that way, both ends included; a flit between the two
 * ports of one XP never enters the ring. A node's received streams are
 * what its port delivers, drawn on their own at rates that balance what
 * the senders send it on average. An HN-F's requests to memory are its
 * missed requests, sent on to an SN-F at the moment they arrive.
 *
 * Plain C with no QEMU headers: the host unit tests and benchmarks use it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HISI_MODEL_RING_TRAFFIC_H
#define HISI_MODEL_RING_TRAFFIC_H

#include <stdbool.h>
#include <stdint.h>

#include "flow.h"

/* CCN node types (the region ID register's type field) */
#define RING_TYPE_MN        0x01
#define RING_TYPE_HNF       0x04
#define RING_TYPE_HNI       0x05
#define RING_TYPE_XP        0x08
#define RING_TYPE_SBSX      0x0c
#define RING_TYPE_SBAS      0x10
#define RING_TYPE_RNI_1P    0x14    /* RN-I and RN-D, 1 to 3 ports: alike */
#define RING_TYPE_RND_3P    0x1a
/*
 * Nodes on device ports with no region of their own in the CCN, so no ID
 * register and no type the driver knows: the fully coherent requesters
 * (CPU clusters) and the memory controllers. Codes past the 5-bit type
 * field, for the model only.
 */
#define RING_TYPE_RNF       0x20
#define RING_TYPE_SNF       0x21

#define RING_XPS            11
#define RING_NODES          (2 * RING_XPS)  /* node n: XP n / 2, port n % 2 */

/* The CCN-504 modelled: the type of the node on each port, 0 if none */
extern const uint8_t model_ring_ccn504_types[RING_NODES];

typedef enum RingVc {
    RING_REQ,
    RING_RSP,
    RING_SNP,
    RING_DAT,
    RING_VCS,
} RingVc;

typedef enum RingDir {
    RING_RX,        /* XP to node: the node receives */
    RING_TX,        /* node to XP: the node sends */
} RingDir;

#define RING_NODE_STREAMS   (2 * RING_VCS)  /* stream vc * 2 + dir */

/* Event properties of a flit */
#define RING_MISS           (1u << 0)   /* HN-F: L3 miss, memory request */
#define RING_RETRY          (1u << 1)   /* retried (POCQ, RN-I request) */
#define RING_SF_HIT         (1u << 2)   /* HN-F: snoop filter hit */
#define RING_SF_EVICT       (1u << 3)   /* HN-F: snoop filter eviction */
#define RING_L3_EVICT       (1u << 4)   /* HN-F: L3 eviction */
#define RING_FILL_INVALID   (1u << 5)   /* HN-F: fill into an invalid way */
#define RING_MC_RETRY       (1u << 6)   /* HN-F: memory controller retry */
#define RING_QOS_RETRY      (1u << 7)   /* HN-F: QoS high-high retry */
#define RING_BROADCAST      (1u << 8)   /* HN-F: snoop sent to all */
#define RING_AXI_P0         (1u << 9)   /* RN-I: read data for AXI port 0 */
#define RING_AXI_P1         (1u << 10)  /* ... port 1 */
#define RING_AXI_P2         (1u << 11)  /* ... port 2 */
#define RING_RRT_FULL       (1u << 12)  /* RN-I: read tracker was full */
#define RING_WRT_FULL       (1u << 13)  /* RN-I: write tracker was full */
#define RING_REPLAY         (1u << 14)  /* RN-I: request replayed */
#define RING_UPLOAD_STARVED (1u << 15)  /* XP: long wait to enter the ring */
#define RING_RESPIN         (1u << 16)  /* XP: its target could not take it */
#define RING_DOWNLOAD_STARVED (1u << 17) /* XP: long wait to leave the ring */
#define RING_PROPS          18          /* how many: bits 0-17 */

typedef struct RingStream {
    TrafficFlow flow;       /* flits; lengths in data beats */
    uint8_t node;           /* node id: XP node / 2, port node % 2 */
    uint8_t type;           /* the node's type */
    uint8_t vc;             /* RingVc */
    uint8_t dir;            /* RingDir */
    /*
     * Bit i: pattern position i carries a flit (all of them, but in an
     * HN-F's memory requests: its missed requests)
     */
    uint16_t present;
    /* Per pattern position: the node at the other end (TgtID or SrcID) */
    uint8_t peer[TRAFFIC_PATTERN];
    /* ... the flit header as watchpoints see it, properties */
    uint64_t hdr_l[TRAFFIC_PATTERN];    /* 63 bits */
    uint64_t hdr_h[TRAFFIC_PATTERN];    /* 60 bits; opcode at 13:9 */
    uint32_t props[TRAFFIC_PATTERN];
} RingStream;

/* What the streams of one node type carry, and what rules change */
typedef struct RingSpec {
    uint64_t rate[RING_NODE_STREAMS];   /* flits per second */
} RingSpec;

/* The built-in profile of nodes of @type */
void model_ring_profile_default(uint8_t type, RingSpec *spec);

/*
 * The RING_NODE_STREAMS streams of node @node of @type, from @epoch_t ns on,
 * into @out, in the order vc * 2 + dir. An HN-F's REQ TX stream is its
 * missed requests (@spec's rate for it does not apply).
 * model_ring_node_flits() then model_ring_node_flows().
 */
void model_ring_node_streams(RingStream *out, uint64_t seed,
                             const RingSpec *spec, uint8_t node, uint8_t type,
                             int64_t epoch_t);

/*
 * What the streams of node @node of @type carry (all but their flows):
 * it depends on @seed and the node alone, so a caller that rebuilds a
 * node's streams often keeps it and sets only the flows.
 */
void model_ring_node_flits(RingStream *out, uint64_t seed, uint8_t node,
                           uint8_t type);

/* The flows of a node's streams @out (flits set), from @epoch_t ns on */
void model_ring_node_flows(RingStream *out, uint64_t seed,
                           const RingSpec *spec, int64_t epoch_t);

/*
 * Set each of a node's RING_NODE_STREAMS streams @s where @phase says it
 * stands (flow.h). An HN-F's memory requests take its REQ RX stream's
 * phase, whatever @phase says for them: they stay its missed requests.
 */
void model_ring_node_phase_set(RingStream *s,
                               const TrafficPhase phase[RING_NODE_STREAMS]);

/*
 * A change of the traffic at @now: @cur, a node's streams rebuilt with the
 * new settings, take over from @old, the same streams as they ran up to
 * @now. Each goes on at its new rate from where it stood (flit numbers and
 * the work left to the next flit carry over), so a change restarts no
 * stream at flit 0 (it would, at @now, for every stream at once).
 */
void model_ring_node_carry(RingStream *cur, const RingStream *old,
                           int64_t now);

/* Flits of @s in [t0, t1) */
uint64_t model_ring_flits(const RingStream *s, int64_t t0, int64_t t1);

/* Flits of @s in [t0, t1) with all properties @props */
uint64_t model_ring_flits_with(const RingStream *s, uint32_t props, int64_t t0,
                               int64_t t1);

/*
 * Flits of @s in [t0, t1) that a CCN watchpoint matches: those whose
 * header differs from (cmp_l, cmp_h) only in bits set in (mask_l, mask_h).
 */
uint64_t model_ring_flits_matching(const RingStream *s, uint64_t cmp_l,
                                   uint64_t cmp_h, uint64_t mask_l,
                                   uint64_t mask_h, int64_t t0, int64_t t1);

typedef struct RingFlit {
    bool present;           /* false: slot k of the flow is not this stream's */
    uint8_t peer;
    int64_t time;           /* ns */
    uint64_t hdr_l;
    uint64_t hdr_h;
    uint32_t props;
} RingFlit;

/* Flit @k of @s */
void model_ring_flit(const RingStream *s, uint64_t k, RingFlit *f);

/* What an event of the CCN PMU counts: flits of a node's streams */
typedef struct RingEventDef {
    uint8_t vc;
    uint8_t dirs;           /* bit RING_RX, bit RING_TX: which streams */
    uint32_t props;         /* the flits with all of these */
} RingEventDef;

/*
 * The definition of event @event (the CCN event number, 1-based) of nodes
 * of @type (HN-F, RN-I/RN-D, SBAS); false when there is none.
 */
bool model_ring_node_event(uint8_t type, uint8_t event, RingEventDef *def);

/* Where on its way an XP event counts a flit */
typedef enum RingXpSite {
    RING_AT_EVERY_XP,       /* every XP it passes, both ends included */
    RING_AT_SOURCE,         /* the XP where it enters the ring */
    RING_AT_TARGET,         /* the XP where it leaves the ring */
} RingXpSite;

/* What an XP event counts: the ring's flits of one channel and bus */
typedef struct RingXpEventDef {
    uint8_t vc;
    uint8_t bus;            /* 0: towards higher XP numbers, 1: lower */
    uint8_t site;           /* RingXpSite */
    uint32_t props;         /* the flits with all of these */
} RingXpEventDef;

/*
 * The definition of XP event @event (1-based) on virtual channel @vc and
 * ring bus @bus (the driver's "bus": the ring has one each way).
 */
bool model_ring_xp_event(uint8_t event, uint8_t vc, uint8_t bus,
                         RingXpEventDef *def);

/*
 * The way from XP @from to XP @to, the shorter way round: its bus and its
 * hops; false when they are one XP (no way on the ring).
 */
bool model_ring_route(uint8_t from, uint8_t to, uint8_t *bus,
                      unsigned *hops);

/*
 * Flits of @s in [t0, t1) that XP event @def of XP @xp counts: none unless
 * @s is a stream the node sends on @def's channel.
 */
uint64_t model_ring_xp_count(const RingStream *s, uint8_t xp,
                             const RingXpEventDef *def, int64_t t0,
                             int64_t t1);

/* Flits of a node's @streams in [t0, t1) that event @def counts */
uint64_t model_ring_event_count(const RingStream *streams,
                                const RingEventDef *def, int64_t t0,
                                int64_t t1);

#endif
