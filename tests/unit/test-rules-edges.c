/*
 * Host unit tests: the traffic rules' grammar (traffic-rules.h) at each
 * edge: every number at its smallest and largest value and one past, BDFs
 * at their field limits, every stream name, the rule count limit, and
 * which endpoints, functions and nodes a rule selects.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "traffic-rules.h"

static bool parse(TrafficRules *rules, const char *text)
{
    char err[512] = "";
    bool ok = model_traffic_rules_parse(rules, text, err, sizeof(err));

    /* a refusal says why */
    g_assert_true(ok || err[0]);
    return ok;
}

static const TrafficRule *one(const char *text)
{
    static TrafficRules rules;

    g_assert_true(parse(&rules, text));
    g_assert_cmpuint(rules.n, ==, 1);
    return &rules.rule[0];
}

static bool ok(const char *text)
{
    TrafficRules rules;

    return parse(&rules, text);
}

/* rate: 0..TRAFFIC_MAX_RATE per s, decimal digits only */
static void test_numbers(void)
{
    g_assert_cmpuint(one("stream=all,rate=0")->rate, ==, 0);
    g_assert_cmpuint(one("stream=all,rate=1")->rate, ==, 1);
    g_assert_cmpuint(one("stream=all,rate=9")->rate, ==, 9);
    g_assert_cmpuint(one("stream=all,rate=10")->rate, ==, 10);
    g_assert_cmpuint(one("stream=all,rate=10000000000")->rate, ==,
                     TRAFFIC_MAX_RATE);
    g_assert_cmpuint(one("stream=all,rate=9999999999")->rate, ==,
                     TRAFFIC_MAX_RATE - 1);
    g_assert_cmpuint(one("stream=all,rate=0010")->rate, ==, 10);
    g_assert_false(ok("stream=all,rate=10000000001"));
    g_assert_false(ok("stream=all,rate=10000000010"));
    g_assert_false(ok("stream=all,rate=18446744073709551616"));
    g_assert_false(ok("stream=all,rate=184467440737095516150"));
    g_assert_false(ok("stream=all,rate="));
    g_assert_false(ok("stream=all,rate=-1"));
    g_assert_false(ok("stream=all,rate=+1"));
    g_assert_false(ok("stream=all,rate=1k"));
    g_assert_false(ok("stream=all,rate=/"));    /* '0' - 1 */
    g_assert_false(ok("stream=all,rate=:"));    /* '9' + 1 */
    g_assert_false(ok("stream=all,rate=0x10"));
    /* latency: 0..1e9 ns */
    g_assert_cmpuint(one("stream=all,latency=0")->latency_ns, ==, 0);
    g_assert_cmpuint(one("stream=all,latency=1000000000")->latency_ns, ==,
                     TRAFFIC_MAX_LATENCY_NS);
    g_assert_true(one("stream=all,latency=0")->set_latency);
    g_assert_false(ok("stream=all,latency=1000000001"));
    /* node: 0..255 */
    g_assert_cmpint(one("stream=ring-all,node=0,rate=1")->node, ==, 0);
    g_assert_cmpint(one("stream=ring-all,node=255,rate=1")->node, ==, 255);
    g_assert_false(ok("stream=ring-all,node=256,rate=1"));
    g_assert_cmpint(one("stream=ring-all,rate=1")->node, ==,
                    TRAFFIC_ANY_NODE);
    /* coalesce: 1..65535, NIC streams only */
    g_assert_cmpuint(one("stream=nic-tx,coalesce=1")->coalesce, ==, 1);
    g_assert_cmpuint(one("stream=nic-tx,coalesce=65535")->coalesce, ==,
                     65535);
    g_assert_true(one("stream=nic-tx,coalesce=1")->set_coalesce);
    g_assert_false(ok("stream=nic-tx,coalesce=0"));
    g_assert_false(ok("stream=nic-tx,coalesce=65536"));
    g_assert_false(ok("stream=dma-write,coalesce=1"));
    g_assert_false(ok("stream=all,coalesce=1"));
}

/* len: N or MIN-MAX, 1..65535; PCIe streams 1..1024 */
static void test_lengths(void)
{
    const TrafficRule *r;

    r = one("stream=dma-write,len=1");
    g_assert_true(r->set_len);
    g_assert_cmpuint(r->len_min, ==, 1);
    g_assert_cmpuint(r->len_max, ==, 1);
    r = one("stream=dma-write,len=1024");
    g_assert_cmpuint(r->len_min, ==, 1024);
    g_assert_cmpuint(r->len_max, ==, 1024);
    r = one("stream=dma-write,len=1-1024");
    g_assert_cmpuint(r->len_min, ==, 1);
    g_assert_cmpuint(r->len_max, ==, 1024);
    r = one("stream=dma-write,len=7-7");
    g_assert_cmpuint(r->len_min, ==, 7);
    g_assert_cmpuint(r->len_max, ==, 7);
    g_assert_false(ok("stream=dma-write,len=1025"));
    g_assert_false(ok("stream=dma-write,len=1-1025"));
    g_assert_false(ok("stream=dma-write,len=0"));
    g_assert_false(ok("stream=dma-write,len=0-4"));
    g_assert_false(ok("stream=dma-write,len=8-7"));
    g_assert_false(ok("stream=dma-write,len=-4"));
    g_assert_false(ok("stream=dma-write,len=4-"));
    g_assert_false(ok("stream=dma-write,len="));
    r = one("stream=nic-rx,len=65535");
    g_assert_cmpuint(r->len_max, ==, 65535);
    r = one("stream=nic-rx,len=1-65535");
    g_assert_cmpuint(r->len_min, ==, 1);
    g_assert_cmpuint(r->len_max, ==, 65535);
    r = one("stream=nic-rx,len=65534-65535");
    g_assert_cmpuint(r->len_min, ==, 65534);
    g_assert_false(ok("stream=nic-rx,len=65536"));
    g_assert_false(ok("stream=nic-rx,len=1-65536"));
    g_assert_false(ok("stream=nic-rx,len=65536-65536"));
    /* a long first number: 15 characters fit the parser's buffer */
    r = one("stream=nic-rx,len=000000000000002-3");
    g_assert_cmpuint(r->len_min, ==, 2);
    g_assert_cmpuint(r->len_max, ==, 3);
    /* ... 16 and more are refused, never overrun it */
    g_assert_false(ok("stream=nic-rx,len=0000000000000002-3"));
    g_assert_false(ok("stream=nic-rx,len=00000000000000000000000000002-3"));
}

/* ep= and port=: [0000:]BB:DD.F, bus 0..ff, device 0..1f, function 0..7 */
static void test_bdfs(void)
{
    g_assert_cmpint(one("ep=00:00.0,stream=all,rate=1")->ep, ==, 0);
    g_assert_cmpint(one("ep=ff:1f.7,stream=all,rate=1")->ep, ==, 0xffff);
    g_assert_cmpint(one("ep=12:03.4,stream=all,rate=1")->ep, ==,
                    0x12 << 8 | 3 << 3 | 4);
    g_assert_cmpint(one("ep=01:00.1,stream=all,rate=1")->ep, ==, 0x101);
    g_assert_cmpint(one("ep=01:01.0,stream=all,rate=1")->ep, ==, 0x108);
    g_assert_cmpint(one("ep=0000:7f:10.0,stream=all,rate=1")->ep, ==,
                    0x7f80);
    g_assert_cmpint(one("port=00:10.0,stream=all,rate=1")->port, ==, 0x80);
    g_assert_cmpint(one("port=00:10.0,stream=all,rate=1")->ep, ==,
                    TRAFFIC_ANY_BDF);
    g_assert_cmpint(one("stream=all,rate=1")->port, ==, TRAFFIC_ANY_BDF);
    g_assert_false(ok("ep=100:00.0,stream=all,rate=1"));
    g_assert_false(ok("ep=00:20.0,stream=all,rate=1"));
    g_assert_false(ok("ep=00:00.8,stream=all,rate=1"));
    g_assert_false(ok("ep=0001:00:00.0,stream=all,rate=1"));
    g_assert_false(ok("ep=00:00.0z,stream=all,rate=1"));
    g_assert_false(ok("ep=0000:00:00.0z,stream=all,rate=1"));
    g_assert_false(ok("ep=00:00,stream=all,rate=1"));
    g_assert_false(ok("port=00:00.8,stream=all,rate=1"));
}

/*
 * Only the hex digits of BB:DD.F (two, two, one; lspci's form), not what
 * strtoul or %x would also take: a bare "0x", signs, spaces, other widths
 */
static void test_bdf_digits(void)
{
    static const char *const refused[] = {
        "00:00.0x", "0x:00.0", "00:0x.0", "0x0:00.0", "+1:00.0", "-1:00.0",
        " 1:00.0", "1:00.0", "001:00.0", "00:1.0", "00:001.0", "00:00.00",
        "00:00.+1", "00:00.0 ", "0000:00:00.0x", "000:00:00.0",
        "00000:00:00.0", "0x00:00:00.0", "00.00.0", "00:00:0", "g0:00.0",
    };

    g_assert_cmpint(one("ep=aB:1F.7,stream=all,rate=1")->ep, ==,
                    0xab << 8 | 0x1f << 3 | 7);
    for (size_t i = 0; i < G_N_ELEMENTS(refused); i++) {
        g_autofree char *ep = g_strdup_printf("ep=%s,stream=all,rate=1",
                                              refused[i]);
        g_autofree char *port = g_strdup_printf("port=%s,stream=all,rate=1",
                                                refused[i]);

        if (ok(ep) || ok(port)) {
            g_test_message("BDF '%s' accepted", refused[i]);
            g_test_fail();
        }
    }
}

/*
 * Each end of each range of hex digits ('0'-'9', 'a'-'f', 'A'-'F', the
 * case of /rules-edges/bdf-digits' "aB:1F.7") in each field, and the
 * characters just outside them refused
 */
static void test_bdf_digit_ends(void)
{
    static const char *const refused[] = {
        "/0:00.0", ":0:00.0", "`0:00.0", "g0:00.0", "@0:00.0", "G0:00.0",
        "00:0/.0", "00:0`.0", "00:0@.0", "00:0G.0",
    };

    g_assert_cmpint(one("ep=09:19.7,stream=all,rate=1")->ep, ==,
                    0x09 << 8 | 0x19 << 3 | 7);
    g_assert_cmpint(one("ep=90:09.0,stream=all,rate=1")->ep, ==,
                    0x90 << 8 | 0x09 << 3);
    g_assert_cmpint(one("ep=Af:1A.0,stream=all,rate=1")->ep, ==,
                    0xaf << 8 | 0x1a << 3);
    g_assert_cmpint(one("port=aF:0a.0,stream=all,rate=1")->port, ==,
                    0xaf << 8 | 0x0a << 3);
    g_assert_cmpint(one("port=A0:0A.0,stream=all,rate=1")->port, ==,
                    0xa0 << 8 | 0x0a << 3);
    for (size_t i = 0; i < G_N_ELEMENTS(refused); i++) {
        g_autofree char *ep = g_strdup_printf("ep=%s,stream=all,rate=1",
                                              refused[i]);

        if (ok(ep)) {
            g_test_message("BDF '%s' accepted", refused[i]);
            g_test_fail();
        }
    }
}

/* Every stream name selects its stream alone; the groups select theirs */
static void test_streams(void)
{
    const TrafficRule *r;
    char text[64];

    for (unsigned i = 0; i < TRAFFIC_ENDPOINT_STREAMS; i++) {
        snprintf(text, sizeof(text), "stream=%s,rate=1",
                 model_traffic_stream_names[i]);
        r = one(text);
        g_assert_cmphex(r->streams, ==, 1u << i);
        g_assert_cmphex(r->nic_streams | r->ring_streams, ==, 0);
    }
    for (unsigned i = 0; i < NIC_KINDS; i++) {
        snprintf(text, sizeof(text), "stream=%s,rate=1",
                 model_nic_stream_names[i]);
        r = one(text);
        g_assert_cmphex(r->nic_streams, ==, 1u << i);
        g_assert_cmphex(r->streams | r->ring_streams, ==, 0);
    }
    for (unsigned i = 0; i < RING_NODE_STREAMS; i++) {
        snprintf(text, sizeof(text), "stream=%s,rate=1",
                 model_ring_stream_names[i]);
        r = one(text);
        g_assert_cmphex(r->ring_streams, ==, 1u << i);
        g_assert_cmphex(r->streams | r->nic_streams, ==, 0);
    }
    g_assert_cmpstr(model_nic_stream_names[NIC_TX], ==, "nic-tx");
    g_assert_cmpstr(model_nic_stream_names[NIC_ROCE_RX], ==, "roce-rx");
    g_assert_cmpstr(model_ring_stream_names[0], ==, "ring-req-rx");
    g_assert_cmpstr(model_ring_stream_names[7], ==, "ring-dat-tx");
    g_assert_cmphex(one("stream=all,rate=1")->streams, ==, 0x7f);
    g_assert_cmphex(one("stream=nic-all,rate=1")->nic_streams, ==, 0xf);
    g_assert_cmphex(one("stream=ring-all,rate=1")->ring_streams, ==, 0xff);
    /* a later stream= replaces an earlier one */
    r = one("stream=all,stream=nic-rx,rate=1");
    g_assert_cmphex(r->streams, ==, 0);
    g_assert_cmphex(r->nic_streams, ==, 1u << NIC_RX);
    g_assert_false(ok("stream=dma,rate=1"));
    g_assert_false(ok("stream=,rate=1"));
    g_assert_false(ok("rate=1"));
    g_assert_false(ok("stream=all"));
    g_assert_false(ok("stream=all,rate"));
    g_assert_false(ok("stream=all,speed=1"));
    /* ring streams: node= and rate= only; the others no node= */
    g_assert_false(ok("stream=ring-req-rx,ep=01:00.0,rate=1"));
    g_assert_false(ok("stream=ring-req-rx,port=00:10.0,rate=1"));
    g_assert_false(ok("stream=ring-req-rx,len=1"));
    g_assert_false(ok("stream=ring-req-rx,latency=1"));
    g_assert_false(ok("stream=ring-req-rx,coalesce=1"));
    g_assert_false(ok("stream=dma-write,node=0,rate=1"));
    g_assert_false(ok("stream=nic-tx,node=0,rate=1"));
}

/* TRAFFIC_MAX_RULES rules, not one more; a refused text changes nothing */
static void test_rule_count(void)
{
    GString *text = g_string_new("");
    TrafficRules rules = { 0 };
    TrafficSpec spec[TRAFFIC_ENDPOINT_STREAMS] = { 0 };
    NicSpec nic[NIC_KINDS] = { 0 };
    RingSpec ring = { { 0 } };

    for (unsigned i = 0; i < TRAFFIC_MAX_RULES; i++) {
        g_string_append_printf(text, "%sstream=all,rate=%u", i ? ";" : "", i);
    }
    g_assert_true(parse(&rules, text->str));
    g_assert_cmpuint(rules.n, ==, TRAFFIC_MAX_RULES);
    g_assert_cmpuint(rules.rule[TRAFFIC_MAX_RULES - 1].rate, ==,
                     TRAFFIC_MAX_RULES - 1);
    /* a full set applies every rule, and none past the last */
    model_traffic_rules_apply(&rules, 0, 0, spec);
    model_traffic_rules_apply_nic(&rules, 0, 0, nic);
    model_traffic_rules_apply_ring(&rules, 0, &ring);
    g_assert_cmpuint(spec[6].rate, ==, TRAFFIC_MAX_RULES - 1);
    g_string_append(text, ";stream=all,rate=99");
    g_assert_false(parse(&rules, text->str));
    g_assert_cmpuint(rules.n, ==, TRAFFIC_MAX_RULES);
    g_assert_false(parse(&rules, "stream=all,rate=5;stream=bad,rate=1"));
    g_assert_cmpuint(rules.n, ==, TRAFFIC_MAX_RULES);
    g_assert_cmpuint(rules.rule[0].rate, ==, 0);
    g_string_free(text, true);
}

/*
 * A refusal quoting a long piece of the rules is whole in strlen(text) +
 * TRAFFIC_RULES_ERROR_LEN bytes: the same as in a buffer with room to
 * spare, the quoted piece and what is allowed after it. Each message's
 * longest form: a known field's longest name, the longest numbers.
 */
static void test_error_whole(void)
{
    static const char *const forms[] = {
        "%s",
        "stream=all,rate=1;stream=all,%s=1",
        "stream=all,coalesce=%s",
        "stream=all,node=%s",
        "stream=all,latency=1000000001%s",
        "stream=nosuch%s,rate=1",
    };
    g_autofree char *piece = g_strnfill(300, 'x');

    for (unsigned i = 0; i < G_N_ELEMENTS(forms); i++) {
        g_autofree char *text = g_strdup_printf(forms[i], piece);
        size_t errlen = strlen(text) + TRAFFIC_RULES_ERROR_LEN;
        g_autofree char *err = g_malloc0(errlen);
        char roomy[4096] = "";
        TrafficRules rules;

        g_assert_false(model_traffic_rules_parse(&rules, text, err, errlen));
        g_assert_false(model_traffic_rules_parse(&rules, text, roomy,
                                                 sizeof(roomy)));
        g_assert_cmpstr(err, ==, roomy);
        g_assert_nonnull(strstr(err, piece));
    }
}

/*
 * Which endpoints a rule selects: ep= the endpoint, port= every endpoint
 * below the root port, both: both must match; later rules win; a rule
 * sets what it names only.
 */
static void test_apply(void)
{
    TrafficRules rules;
    TrafficSpec spec[TRAFFIC_ENDPOINT_STREAMS];
    const TrafficSpec zero = { .rate = 5, .len_min = 6, .len_max = 7,
                               .latency_ns = 8 };

    g_assert_true(parse(&rules, "ep=01:00.0,stream=dma-write,rate=100;"
                        "port=00:10.0,stream=p2p-cpl,len=3-4;"
                        "ep=01:00.1,port=00:10.1,stream=all,latency=9"));
    for (unsigned ep = 0x00ff; ep <= 0x0102; ep++) {
        for (unsigned port = 0x7f; port <= 0x81; port++) {
            for (unsigned s = 0; s < TRAFFIC_ENDPOINT_STREAMS; s++) {
                spec[s] = zero;
            }
            model_traffic_rules_apply(&rules, ep, port, spec);
            for (unsigned s = 0; s < TRAFFIC_ENDPOINT_STREAMS; s++) {
                bool rate = ep == 0x100 && s == 0;
                bool len = port == 0x80 && s == 6;
                bool lat = ep == 0x101 && port == 0x81;

                g_assert_cmpuint(spec[s].rate, ==, rate ? 100 : 5);
                g_assert_cmpuint(spec[s].len_min, ==, len ? 3 : 6);
                g_assert_cmpuint(spec[s].len_max, ==, len ? 4 : 7);
                g_assert_cmpuint(spec[s].latency_ns, ==, lat ? 9 : 8);
            }
        }
    }
    g_assert_true(parse(&rules, "stream=all,rate=1;stream=mmio-read,rate=2"));
    model_traffic_rules_apply(&rules, 0, 0, spec);
    g_assert_cmpuint(spec[3].rate, ==, 1);
    g_assert_cmpuint(spec[4].rate, ==, 2);
}

static void test_apply_nic(void)
{
    TrafficRules rules;
    NicSpec spec[NIC_KINDS];
    const NicSpec zero = { .rate = 5, .len_min = 6, .len_max = 7,
                           .latency_ns = 8, .coalesce = 9 };

    g_assert_true(parse(&rules, "ep=01:00.0,stream=nic-rx,rate=100;"
                        "port=00:10.0,stream=roce-tx,len=3-4,coalesce=2;"
                        "ep=01:00.1,port=00:10.1,stream=nic-all,latency=1"));
    for (unsigned ep = 0x00ff; ep <= 0x0102; ep++) {
        for (unsigned port = 0x7f; port <= 0x81; port++) {
            for (unsigned k = 0; k < NIC_KINDS; k++) {
                spec[k] = zero;
            }
            model_traffic_rules_apply_nic(&rules, ep, port, spec);
            for (unsigned k = 0; k < NIC_KINDS; k++) {
                bool rate = ep == 0x100 && k == NIC_RX;
                bool len = port == 0x80 && k == NIC_ROCE_TX;
                bool lat = ep == 0x101 && port == 0x81;

                g_assert_cmpuint(spec[k].rate, ==, rate ? 100 : 5);
                g_assert_cmpuint(spec[k].len_min, ==, len ? 3 : 6);
                g_assert_cmpuint(spec[k].len_max, ==, len ? 4 : 7);
                g_assert_cmpuint(spec[k].coalesce, ==, len ? 2 : 9);
                g_assert_cmpuint(spec[k].latency_ns, ==, lat ? 1 : 8);
            }
        }
    }
}

static void test_apply_ring(void)
{
    TrafficRules rules;
    RingSpec spec;

    g_assert_true(parse(&rules, "node=0,stream=ring-req-rx,rate=100;"
                        "node=255,stream=ring-dat-tx,rate=200;"
                        "stream=ring-snp-tx,rate=300"));
    for (unsigned node = 0; node <= 255; node += 1) {
        for (unsigned k = 0; k < RING_NODE_STREAMS; k++) {
            spec.rate[k] = 5;
        }
        model_traffic_rules_apply_ring(&rules, node, &spec);
        for (unsigned k = 0; k < RING_NODE_STREAMS; k++) {
            uint64_t want = k == 0 && node == 0 ? 100 :
                            k == 7 && node == 255 ? 200 :
                            k == 5 ? 300 : 5;

            g_assert_cmpuint(spec.rate[k], ==, want);
        }
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/rules-edges/numbers", test_numbers);
    g_test_add_func("/rules-edges/lengths", test_lengths);
    g_test_add_func("/rules-edges/bdfs", test_bdfs);
    g_test_add_func("/rules-edges/bdf-digits", test_bdf_digits);
    g_test_add_func("/rules-edges/bdf-digit-ends", test_bdf_digit_ends);
    g_test_add_func("/rules-edges/streams", test_streams);
    g_test_add_func("/rules-edges/rule-count", test_rule_count);
    g_test_add_func("/rules-edges/error-whole", test_error_whole);
    g_test_add_func("/rules-edges/apply", test_apply);
    g_test_add_func("/rules-edges/apply-nic", test_apply_nic);
    g_test_add_func("/rules-edges/apply-ring", test_apply_ring);
    return g_test_run();
}
