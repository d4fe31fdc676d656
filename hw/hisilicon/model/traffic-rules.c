/*
 * Rules that change the built-in per-endpoint traffic profile.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "traffic-rules.h"

const char *const model_traffic_stream_names[TRAFFIC_ENDPOINT_STREAMS] = {
    "dma-write", "dma-read", "dma-read-cpl",
    "mmio-write", "mmio-read", "mmio-read-cpl", "p2p-cpl",
};

const char *const model_ring_stream_names[RING_NODE_STREAMS] = {
    "ring-req-rx", "ring-req-tx", "ring-rsp-rx", "ring-rsp-tx",
    "ring-snp-rx", "ring-snp-tx", "ring-dat-rx", "ring-dat-tx",
};

const char *const model_nic_stream_names[NIC_KINDS] = {
    [NIC_TX] = "nic-tx", [NIC_RX] = "nic-rx",
    [NIC_ROCE_TX] = "roce-tx", [NIC_ROCE_RX] = "roce-rx",
};

/* The value of @n hex digits at @s; -1 if any of them is not one */
static int parse_hex_digits(const char *s, unsigned n)
{
    int v = 0;

    for (unsigned i = 0; i < n; i++) {
        char c = s[i];
        int d = c >= '0' && c <= '9' ? c - '0' :
                c >= 'a' && c <= 'f' ? c - 'a' + 10 :
                c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;

        if (d < 0) {
            return -1;
        }
        v = v << 4 | d;
    }
    return v;
}

/*
 * [0000:]BB:DD.F, digits exactly as lspci prints them (sscanf's %x would
 * also take signs, spaces and a bare "0x")
 */
static bool parse_bdf(const char *s, int32_t *bdf)
{
    int bus, dev, fn;

    if (strlen(s) == 12) {
        if (parse_hex_digits(s, 4) != 0 || s[4] != ':') {
            return false;
        }
        s += 5;
    }
    if (strlen(s) != 7 || s[2] != ':' || s[5] != '.') {
        return false;
    }
    bus = parse_hex_digits(s, 2);
    dev = parse_hex_digits(s + 3, 2);
    fn = parse_hex_digits(s + 6, 1);
    if (bus < 0 || dev < 0 || dev > 0x1f || fn < 0 || fn > 7) {
        return false;
    }
    *bdf = bus << 8 | dev << 3 | fn;
    return true;
}

/* A decimal number in 0..@max, digits only */
static bool parse_u64(const char *s, uint64_t max, uint64_t *v)
{
    uint64_t n = 0;

    if (!*s) {
        return false;
    }
    for (; *s; s++) {
        if (*s < '0' || *s > '9' || n > (max - (*s - '0')) / 10) {
            return false;
        }
        n = n * 10 + (*s - '0');
    }
    *v = n;
    return true;
}

/* N or MIN-MAX in 1..65535; which streams take what is checked later */
static bool parse_len(const char *s, uint16_t *min, uint16_t *max)
{
    const char *dash = strchr(s, '-');
    char first[16];
    uint64_t a, b;

    if (!dash) {
        if (!parse_u64(s, UINT16_MAX, &a) || !a) {
            return false;
        }
        *min = *max = a;
        return true;
    }
    if (dash - s >= (long)sizeof(first)) {
        return false;
    }
    memcpy(first, s, dash - s);
    first[dash - s] = '\0';
    if (!parse_u64(first, UINT16_MAX, &a) ||
        !parse_u64(dash + 1, UINT16_MAX, &b) || !a || a > b) {
        return false;
    }
    *min = a;
    *max = b;
    return true;
}

static bool parse_streams(const char *s, TrafficRule *r)
{
    if (!strcmp(s, "all")) {
        r->streams = (1u << TRAFFIC_ENDPOINT_STREAMS) - 1;
        return true;
    }
    if (!strcmp(s, "nic-all")) {
        r->nic_streams = (1u << NIC_KINDS) - 1;
        return true;
    }
    for (unsigned i = 0; i < TRAFFIC_ENDPOINT_STREAMS; i++) {
        if (!strcmp(s, model_traffic_stream_names[i])) {
            r->streams = 1u << i;
            return true;
        }
    }
    for (unsigned i = 0; i < NIC_KINDS; i++) {
        if (!strcmp(s, model_nic_stream_names[i])) {
            r->nic_streams = 1u << i;
            return true;
        }
    }
    if (!strcmp(s, "ring-all")) {
        r->ring_streams = (1u << RING_NODE_STREAMS) - 1;
        return true;
    }
    for (unsigned i = 0; i < RING_NODE_STREAMS; i++) {
        if (!strcmp(s, model_ring_stream_names[i])) {
            r->ring_streams = 1u << i;
            return true;
        }
    }
    return false;
}

/* Parse one rule from the field list @fields (modified in place). */
static bool parse_rule(TrafficRule *r, char *fields, char *err, size_t errlen)
{
    char *save = NULL;

    memset(r, 0, sizeof(*r));
    r->ep = TRAFFIC_ANY_BDF;
    r->port = TRAFFIC_ANY_BDF;
    r->node = TRAFFIC_ANY_NODE;
    for (char *f = strtok_r(fields, ",", &save); f;
         f = strtok_r(NULL, ",", &save)) {
        char *val = strchr(f, '=');
        bool ok;

        if (!val) {
            snprintf(err, errlen, "'%s' is not name=value", f);
            return false;
        }
        *val++ = '\0';
        if (!strcmp(f, "ep")) {
            ok = parse_bdf(val, &r->ep);
        } else if (!strcmp(f, "port")) {
            ok = parse_bdf(val, &r->port);
        } else if (!strcmp(f, "node")) {
            uint64_t n = 0;

            ok = parse_u64(val, UINT8_MAX, &n);
            r->node = n;
        } else if (!strcmp(f, "stream")) {
            r->streams = r->nic_streams = r->ring_streams = 0;
            ok = parse_streams(val, r);
        } else if (!strcmp(f, "rate")) {
            ok = parse_u64(val, TRAFFIC_MAX_RATE, &r->rate);
            r->set_rate = true;
        } else if (!strcmp(f, "len")) {
            ok = parse_len(val, &r->len_min, &r->len_max);
            r->set_len = true;
        } else if (!strcmp(f, "latency")) {
            uint64_t ns = 0;

            ok = parse_u64(val, TRAFFIC_MAX_LATENCY_NS, &ns);
            r->latency_ns = ns;
            r->set_latency = true;
        } else if (!strcmp(f, "coalesce")) {
            uint64_t n = 0;

            ok = parse_u64(val, UINT16_MAX, &n) && n;
            r->coalesce = n;
            r->set_coalesce = true;
        } else {
            snprintf(err, errlen, "unknown field '%s' (ep, port, node, "
                     "stream, rate, len, latency, coalesce)", f);
            return false;
        }
        if (!ok) {
            snprintf(err, errlen, "bad %s value '%s' (ep/port: BB:DD.F; "
                     "node: 0..255; stream: a stream name, all, nic-all or "
                     "ring-all; rate: 0..%llu per s; len: N or N-N in "
                     "1..65535; latency: 0..%u ns; coalesce: 1..65535)", f,
                     val,
                     (unsigned long long)TRAFFIC_MAX_RATE,
                     TRAFFIC_MAX_LATENCY_NS);
            return false;
        }
    }
    if (!r->streams && !r->nic_streams && !r->ring_streams) {
        snprintf(err, errlen, "a rule needs stream=NAME, all, nic-all or "
                 "ring-all");
        return false;
    }
    if (r->ring_streams ? r->ep != TRAFFIC_ANY_BDF ||
                          r->port != TRAFFIC_ANY_BDF ||
                          r->set_len || r->set_latency || r->set_coalesce :
        r->node != TRAFFIC_ANY_NODE) {
        snprintf(err, errlen, "ring streams take node= and rate=, the "
                 "others ep=, port= and no node=");
        return false;
    }
    if (!r->set_rate && !r->set_len && !r->set_latency && !r->set_coalesce) {
        snprintf(err, errlen, "a rule needs rate=, len=, latency= or "
                 "coalesce=");
        return false;
    }
    if (r->streams && r->set_len && r->len_max > 1024) {
        snprintf(err, errlen, "len: PCIe streams take 1..1024 DWs");
        return false;
    }
    if (r->streams && r->set_coalesce) {
        snprintf(err, errlen, "coalesce: only NIC streams have interrupts");
        return false;
    }
    return true;
}

bool model_traffic_rules_parse(TrafficRules *rules, const char *text,
                               char *err, size_t errlen)
{
    TrafficRules parsed = { 0 };
    char *copy = strdup(text);
    char *save = NULL;
    bool ok = true;

    if (!copy) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    for (char *r = strtok_r(copy, ";", &save); r && ok;
         r = strtok_r(NULL, ";", &save)) {
        if (parsed.n == TRAFFIC_MAX_RULES) {
            snprintf(err, errlen, "more than %d rules", TRAFFIC_MAX_RULES);
            ok = false;
        } else {
            ok = parse_rule(&parsed.rule[parsed.n++], r, err, errlen);
        }
    }
    free(copy);
    if (ok) {
        *rules = parsed;
    }
    return ok;
}

void model_traffic_rules_apply(const TrafficRules *rules, uint16_t ep,
                               uint16_t port, TrafficSpec *spec)
{
    for (unsigned i = 0; i < rules->n; i++) {
        const TrafficRule *r = &rules->rule[i];

        if ((r->ep != TRAFFIC_ANY_BDF && r->ep != ep) ||
            (r->port != TRAFFIC_ANY_BDF && r->port != port)) {
            continue;
        }
        for (unsigned s = 0; s < TRAFFIC_ENDPOINT_STREAMS; s++) {
            if (!(r->streams & (1u << s))) {
                continue;
            }
            if (r->set_rate) {
                spec[s].rate = r->rate;
            }
            if (r->set_len) {
                spec[s].len_min = r->len_min;
                spec[s].len_max = r->len_max;
            }
            if (r->set_latency) {
                spec[s].latency_ns = r->latency_ns;
            }
        }
    }
}

void model_traffic_rules_apply_nic(const TrafficRules *rules, uint16_t ep,
                                   uint16_t port, NicSpec *spec)
{
    for (unsigned i = 0; i < rules->n; i++) {
        const TrafficRule *r = &rules->rule[i];

        if ((r->ep != TRAFFIC_ANY_BDF && r->ep != ep) ||
            (r->port != TRAFFIC_ANY_BDF && r->port != port)) {
            continue;
        }
        for (unsigned k = 0; k < NIC_KINDS; k++) {
            if (!(r->nic_streams & (1u << k))) {
                continue;
            }
            if (r->set_rate) {
                spec[k].rate = r->rate;
            }
            if (r->set_len) {
                spec[k].len_min = r->len_min;
                spec[k].len_max = r->len_max;
            }
            if (r->set_latency) {
                spec[k].latency_ns = r->latency_ns;
            }
            if (r->set_coalesce) {
                spec[k].coalesce = r->coalesce;
            }
        }
    }
}

void model_traffic_rules_apply_ring(const TrafficRules *rules, uint8_t node,
                                    RingSpec *spec)
{
    for (unsigned i = 0; i < rules->n; i++) {
        const TrafficRule *r = &rules->rule[i];

        if (!r->set_rate ||
            (r->node != TRAFFIC_ANY_NODE && r->node != node)) {
            continue;
        }
        for (unsigned k = 0; k < RING_NODE_STREAMS; k++) {
            if (r->ring_streams & (1u << k)) {
                spec->rate[k] = r->rate;
            }
        }
    }
}
