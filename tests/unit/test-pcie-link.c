/*
 * Host unit tests: how transfers are cut into TLPs (model_pcie_link_mem,
 * model_pcie_link_dw), checked by decoding the headers they give back:
 * each TLP's bytes, requester, tag and direction, the size limits, the
 * 4 KiB rule and the completions' byte counts (PCIe r5.0 2.2.7, 2.3.1.1).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <glib.h>
#include <string.h>

#include "pcie-link.h"

#define EP      0x0100      /* 01:00.0 */
#define PORT    0x0080      /* 00:10.0 */
#define MAX_TLPS 4096

/* A TLP as the header says: which bytes, from whom, which way */
typedef struct Seen {
    bool inbound;
    bool cpl;
    bool write;
    unsigned type;          /* of a request */
    uint16_t target;        /* of a configuration request */
    uint64_t addr;          /* first enabled byte (completions: low 7 bits) */
    uint32_t len;           /* enabled bytes */
    uint32_t payload;
    uint16_t requester;
    uint16_t completer;
    uint8_t tag;
    uint32_t byte_count;
} Seen;

typedef struct Tlps {
    unsigned n;
    Seen t[MAX_TLPS];
} Tlps;

/* Bytes the byte enables of a @len_dw-DW request let through */
static uint32_t enabled_bytes(unsigned len_dw, uint32_t be, unsigned *skip)
{
    unsigned first = be & 0xf, last = len_dw == 1 ? first : be >> 4;
    unsigned lead = __builtin_ctz(first);
    unsigned tail = 3 - (31 - __builtin_clz(last));

    g_assert_cmpuint(first, !=, 0);
    g_assert_cmpuint(last, !=, 0);
    *skip = lead;
    return len_dw * 4 - lead - tail;
}

static void record(void *opaque, const PcieTlp *h, bool inbound,
                   uint32_t payload)
{
    Tlps *tlps = opaque;
    Seen *s = &tlps->t[tlps->n++];
    unsigned len_dw = model_pcie_tlp_len_dw(h), skip;

    g_assert_cmpuint(tlps->n, <=, MAX_TLPS);
    memset(s, 0, sizeof(*s));
    s->inbound = inbound;
    s->payload = payload;
    s->cpl = model_pcie_tlp_type(h) == TLP_TYPE_CPL;
    if (s->cpl) {
        s->completer = h->dw[1] >> 16;
        s->byte_count = h->dw[1] & 0xfff ? h->dw[1] & 0xfff : 4096;
        s->requester = h->dw[2] >> 16;
        s->tag = h->dw[2] >> 8;
        s->addr = h->dw[2] & 0x7f;
        /* Length covers the DWs from Lower Address to the last byte */
        s->len = MIN(len_dw * 4 - (s->addr & 3), s->byte_count);
        return;
    }
    s->type = model_pcie_tlp_type(h);
    s->write = model_pcie_tlp_has_data(h);
    s->requester = h->dw[1] >> 16;
    s->tag = h->dw[1] >> 8;
    s->len = enabled_bytes(len_dw, h->dw[1] & 0xff, &skip);
    if (s->type == TLP_TYPE_MEM) {
        s->addr = (model_pcie_tlp_fmt(h) & 1 ?
                   (uint64_t)h->dw[2] << 32 | h->dw[3] : h->dw[2]) + skip;
        return;
    }
    g_assert_cmpuint(len_dw, ==, 1);
    g_assert_cmphex(h->dw[3], ==, 0);
    if (s->type == TLP_TYPE_IO) {
        s->addr = h->dw[2] + skip;
    } else {
        g_assert_true(s->type == TLP_TYPE_CFG0 || s->type == TLP_TYPE_CFG1);
        g_assert_cmphex(h->dw[2] & 0xf003, ==, 0);  /* reserved bits */
        s->target = h->dw[2] >> 16;
        s->addr = (h->dw[2] & 0xffc) + skip;
    }
}

/* A completion without data of @tag to @requester from @completer */
static void assert_cpl(const PcieTlp *h, uint16_t completer,
                       uint16_t requester, uint8_t tag)
{
    g_assert_cmpuint(model_pcie_tlp_fmt(h), ==, TLP_FMT_3DW_NODATA);
    g_assert_cmpuint(model_pcie_tlp_len_dw(h), ==, 0);
    g_assert_cmphex(h->dw[0] & 0x3ff, ==, 0);
    g_assert_cmphex(h->dw[1], ==, (uint32_t)completer << 16 | 4);
    g_assert_cmphex(h->dw[2], ==, (uint32_t)requester << 16 | tag << 8);
}

static PcieLink link_of(uint32_t mps, uint32_t mrrs)
{
    return (PcieLink) {
        .requester = EP, .completer = PORT, .mps = mps, .mrrs = mrrs,
    };
}

static void test_sizes(void)
{
    static const uint32_t want[] = { 128, 256, 512, 1024, 2048, 4096,
                                     4096, 4096 };

    for (unsigned f = 0; f < G_N_ELEMENTS(want); f++) {
        g_assert_cmpuint(model_pcie_link_size(f), ==, want[f]);
    }
}

/* 1000 bytes written from an odd address at MPS 128 */
static void test_write_split_at_mps(void)
{
    static const uint32_t lens[] = { 125, 128, 128, 128, 128, 128, 128, 107 };
    PcieLink link = link_of(128, 512);
    uint64_t addr = 0x40000003;
    uint8_t tag = 7;
    Tlps t = { 0 };

    g_assert_cmpuint(model_pcie_link_mem(&link, true, addr, 1000, &tag,
                                         record, &t), ==, 8);
    g_assert_cmpuint(t.n, ==, 8);
    for (unsigned i = 0; i < t.n; i++) {
        g_assert_true(t.t[i].inbound);
        g_assert_true(t.t[i].write);
        g_assert_false(t.t[i].cpl);
        g_assert_cmphex(t.t[i].requester, ==, EP);
        g_assert_cmphex(t.t[i].addr, ==, addr);
        g_assert_cmpuint(t.t[i].len, ==, lens[i]);
        g_assert_cmpuint(t.t[i].payload, ==, lens[i]);
        /* docs/devices/traffic.md: "a write's tag is 0" */
        g_assert_cmphex(t.t[i].tag, ==, 0);
        addr += lens[i];
    }
    /* Writes take no tag */
    g_assert_cmpuint(tag, ==, 7);
}

/* The 4 KiB rule holds at MPS 4096 too: a write across a page is two */
static void test_write_split_at_page(void)
{
    PcieLink link = link_of(4096, 4096);
    uint8_t tag = 0;
    Tlps t = { 0 };

    model_pcie_link_mem(&link, true, 0x40000ff0, 32, &tag, record, &t);
    g_assert_cmpuint(t.n, ==, 2);
    g_assert_cmphex(t.t[0].addr, ==, 0x40000ff0);
    g_assert_cmpuint(t.t[0].len, ==, 16);
    g_assert_cmphex(t.t[1].addr, ==, 0x40001000);
    g_assert_cmpuint(t.t[1].len, ==, 16);
}

/*
 * 1000 bytes read from an odd address, MRRS 512, MPS 128: an MRd to the
 * 512-byte boundary and one for the rest, each completed by CplDs cut at
 * 128-byte boundaries, with the bytes left to complete counting down.
 */
static void test_read_requests_and_completions(void)
{
    PcieLink link = link_of(128, 512);
    uint8_t tag = 0xfe;
    Tlps t = { 0 };
    static const struct {
        bool cpl;
        uint32_t len, byte_count;
        uint8_t tag;
    } want[] = {
        { false, 509, 0, 0xfe },
        { true, 125, 509, 0xfe }, { true, 128, 384, 0xfe },
        { true, 128, 256, 0xfe }, { true, 128, 128, 0xfe },
        { false, 491, 0, 0xff },
        { true, 128, 491, 0xff }, { true, 128, 363, 0xff },
        { true, 128, 235, 0xff }, { true, 107, 107, 0xff },
    };

    model_pcie_link_mem(&link, false, 0x40000003, 1000, &tag, record, &t);
    g_assert_cmpuint(t.n, ==, G_N_ELEMENTS(want));
    for (unsigned i = 0; i < t.n; i++) {
        g_assert_cmpint(t.t[i].cpl, ==, want[i].cpl);
        g_assert_cmpint(t.t[i].inbound, ==, !want[i].cpl);
        g_assert_false(t.t[i].write);
        g_assert_cmpuint(t.t[i].len, ==, want[i].len);
        g_assert_cmphex(t.t[i].tag, ==, want[i].tag);
        g_assert_cmphex(t.t[i].requester, ==, EP);
        g_assert_cmpuint(t.t[i].payload, ==, want[i].cpl ? want[i].len : 0);
        if (want[i].cpl) {
            g_assert_cmphex(t.t[i].completer, ==, PORT);
            g_assert_cmpuint(t.t[i].byte_count, ==, want[i].byte_count);
        }
    }
    g_assert_cmphex(t.t[0].addr, ==, 0x40000003);
    g_assert_cmphex(t.t[1].addr, ==, 0x03);   /* Lower Address */
    g_assert_cmphex(t.t[2].addr, ==, 0x00);
    g_assert_cmphex(t.t[5].addr, ==, 0x40000200);
    /* Tags wrap around */
    g_assert_cmphex(tag, ==, 0x00);
}

static void test_nothing(void)
{
    PcieLink link = link_of(128, 512);
    uint8_t tag = 0;
    Tlps t = { 0 };

    g_assert_cmpuint(model_pcie_link_mem(&link, false, 0x1000, 0, &tag,
                                         record, &t), ==, 0);
    g_assert_cmpuint(t.n, ==, 0);
}

/*
 * Random transfers: the bytes add up, in order and without gaps; no TLP
 * is over its limit or crosses a 4 KiB boundary; each TLP but the last of
 * its request or transfer ends on a multiple of its limit; tags advance
 * by one per read request.
 */
static void test_random_transfers(void)
{
    GRand *r = g_rand_new_with_seed(42);
    static Tlps t;

    for (int round = 0; round < 2000; round++) {
        uint32_t mps = model_pcie_link_size(g_rand_int_range(r, 0, 6));
        uint32_t mrrs = model_pcie_link_size(g_rand_int_range(r, 0, 6));
        PcieLink link = link_of(mps, mrrs);
        bool write = g_rand_boolean(r);
        uint64_t addr = (uint64_t)g_rand_int(r) << 8 |
                        g_rand_int_range(r, 0, 256);
        uint64_t len = g_rand_int_range(r, 1, 20000);
        uint64_t next = addr, req_end = 0;
        uint8_t tag = g_rand_int_range(r, 0, 256), tag0 = tag, reqs = 0;
        uint64_t payload = 0;

        t.n = 0;
        model_pcie_link_mem(&link, write, addr, len, &tag, record, &t);
        for (unsigned i = 0; i < t.n; i++) {
            Seen *s = &t.t[i];
            uint32_t limit = s->cpl || write ? mps : mrrs;
            uint64_t a = s->cpl ? next : s->addr;

            payload += s->payload;
            g_assert_cmpuint(s->len, <=, limit);
            g_assert_cmpuint(a >> 12, ==, (a + s->len - 1) >> 12);
            if (s->cpl) {
                g_assert_cmphex(s->addr, ==, next & 0x7f);
                g_assert_cmpuint(s->byte_count, ==, req_end - next);
                g_assert_cmphex(s->tag, ==, (uint8_t)(tag0 + reqs - 1));
            } else {
                g_assert_cmphex(s->addr, ==, next);
                if (!write) {
                    g_assert_cmphex(s->tag, ==, (uint8_t)(tag0 + reqs));
                    reqs++;
                    req_end = next + s->len;
                    if (req_end != addr + len) {
                        g_assert_cmpuint(req_end % mrrs, ==, 0);
                    }
                    continue;
                }
            }
            next += s->len;
            if (next != addr + len && next != req_end) {
                g_assert_cmpuint(next % limit, ==, 0);
            }
        }
        g_assert_cmpuint(next, ==, addr + len);
        g_assert_cmpuint(payload, ==, len);
        g_assert_cmphex(tag, ==, (uint8_t)(tag0 + reqs));
    }
    g_rand_free(r);
}

/*
 * The CPU's access through the root port: the same cutting, with the root
 * port requesting outbound and the endpoint completing inbound
 */
static void test_downstream_read(void)
{
    PcieLink link = {
        .requester = PORT, .completer = EP, .downstream = true,
        .mps = 128, .mrrs = 512,
    };
    uint8_t tag = 3;
    Tlps t = { 0 };

    g_assert_cmpuint(model_pcie_link_mem(&link, false, 0x10000004, 8, &tag,
                                         record, &t), ==, 2);
    g_assert_false(t.t[0].inbound);
    g_assert_false(t.t[0].cpl);
    g_assert_cmphex(t.t[0].requester, ==, PORT);
    g_assert_cmphex(t.t[0].addr, ==, 0x10000004);
    g_assert_cmpuint(t.t[0].len, ==, 8);
    g_assert_cmphex(t.t[0].tag, ==, 3);
    g_assert_true(t.t[1].inbound);
    g_assert_true(t.t[1].cpl);
    g_assert_cmphex(t.t[1].completer, ==, EP);
    g_assert_cmphex(t.t[1].requester, ==, PORT);
    g_assert_cmpuint(t.t[1].byte_count, ==, 8);
    g_assert_cmpuint(t.t[1].payload, ==, 8);
    g_assert_cmphex(tag, ==, 4);

    t.n = 0;
    model_pcie_link_mem(&link, true, 0x10000004, 4, &tag, record, &t);
    g_assert_cmpuint(t.n, ==, 1);
    g_assert_false(t.t[0].inbound);
    g_assert_true(t.t[0].write);
    g_assert_cmphex(tag, ==, 4);
}

/* Collects the raw headers and directions */
typedef struct Raw {
    unsigned n;
    PcieTlp h[16];
    bool inbound[16];
    uint32_t payload[16];
} Raw;

static void raw(void *opaque, const PcieTlp *h, bool inbound, uint32_t payload)
{
    Raw *r = opaque;

    g_assert_cmpuint(r->n, <, G_N_ELEMENTS(r->h));
    r->h[r->n] = *h;
    r->inbound[r->n] = inbound;
    r->payload[r->n++] = payload;
}

/*
 * A configuration write of 2 bytes across a DW boundary (register 0x103,
 * extended space): two CfgWr with the byte enables of each DW, each taking
 * a tag and completed by a Cpl without data
 */
static void test_config_write(void)
{
    PcieLink link = { .requester = PORT, .completer = 0x0208,
                      .downstream = true };
    uint8_t tag = 0xff;
    Raw r = { 0 };
    Tlps t = { 0 };

    g_assert_cmpuint(model_pcie_link_dw(&link, TLP_TYPE_CFG1, true, 0x103, 2,
                                        &tag, raw, &r), ==, 4);
    g_assert_cmpuint(r.n, ==, 4);
    for (unsigned i = 0; i < r.n; i++) {
        record(&t, &r.h[i], r.inbound[i], r.payload[i]);
    }
    g_assert_cmpuint(t.t[0].type, ==, TLP_TYPE_CFG1);
    g_assert_true(t.t[0].write);
    g_assert_false(t.t[0].inbound);
    g_assert_cmphex(t.t[0].target, ==, 0x0208);
    g_assert_cmphex(t.t[0].addr, ==, 0x103);
    g_assert_cmpuint(t.t[0].len, ==, 1);
    g_assert_cmpuint(t.t[0].payload, ==, 1);
    g_assert_cmphex(r.h[0].dw[1] & 0xff, ==, 0x8);
    assert_cpl(&r.h[1], 0x0208, PORT, 0xff);
    g_assert_true(r.inbound[1]);
    g_assert_cmpuint(r.payload[1], ==, 0);
    g_assert_cmphex(t.t[2].addr, ==, 0x104);
    g_assert_cmpuint(t.t[2].len, ==, 1);
    g_assert_cmphex(t.t[2].tag, ==, 0x00);
    g_assert_cmphex(r.h[2].dw[1] & 0xff, ==, 0x1);
    g_assert_cmphex(r.h[2].dw[2], ==, 0x02080104);
    assert_cpl(&r.h[3], 0x0208, PORT, 0x00);
    g_assert_cmphex(tag, ==, 0x01);
}

/* Reads: a CfgRd0 or IORd of the DW, a CplD of 4 bytes with Byte Count 4 */
static void test_dw_reads(void)
{
    PcieLink link = { .requester = PORT, .completer = EP,
                      .downstream = true };
    uint8_t tag = 0;
    Tlps t = { 0 };

    model_pcie_link_dw(&link, TLP_TYPE_CFG0, false, 0xffc, 4, &tag, record,
                       &t);
    model_pcie_link_dw(&link, TLP_TYPE_IO, false, 0xfffffffe, 2, &tag, record,
                       &t);
    g_assert_cmpuint(t.n, ==, 4);
    g_assert_cmpuint(t.t[0].type, ==, TLP_TYPE_CFG0);
    g_assert_false(t.t[0].write);
    g_assert_cmphex(t.t[0].target, ==, EP);
    g_assert_cmphex(t.t[0].addr, ==, 0xffc);
    g_assert_cmpuint(t.t[0].len, ==, 4);
    g_assert_cmpuint(t.t[0].payload, ==, 0);
    g_assert_true(t.t[1].cpl);
    g_assert_true(t.t[1].inbound);
    g_assert_cmpuint(t.t[1].byte_count, ==, 4);
    g_assert_cmphex(t.t[1].addr, ==, 0);
    g_assert_cmpuint(t.t[1].payload, ==, 4);
    g_assert_cmphex(t.t[1].completer, ==, EP);
    g_assert_cmpuint(t.t[2].type, ==, TLP_TYPE_IO);
    g_assert_cmphex(t.t[2].addr, ==, 0xfffffffe);
    g_assert_cmpuint(t.t[2].len, ==, 2);
    g_assert_cmphex(t.t[2].tag, ==, 1);
    g_assert_cmphex(t.t[3].tag, ==, 1);
    g_assert_cmphex(tag, ==, 2);
}

/*
 * The headers of I/O and configuration reads, whole (r5.0 2.2.7, 2.2.9;
 * docs/devices/traffic.md): the request is Length 1 with Last DW BE 0 and the
 * address's bits 1:0 reserved (0); its completion is a CplD of the one DW:
 * Length 1, Byte Count 4, Lower Address 0.
 */
static void test_dw_read_headers(void)
{
    PcieLink link = { .requester = PORT, .completer = EP,
                      .downstream = true };
    const uint32_t cpld = 0x4a000001;   /* Fmt 010, Type 01010, Length 1 */
    uint8_t tag = 0x42;
    Raw r = { 0 };

    /* One byte at an odd I/O address: byte 1 of the DW at 0x1000 */
    g_assert_cmpuint(model_pcie_link_dw(&link, TLP_TYPE_IO, false, 0x1001, 1,
                                        &tag, raw, &r), ==, 2);
    g_assert_cmpuint(r.n, ==, 2);
    g_assert_cmphex(r.h[0].dw[0], ==, 0x02000001); /* IORd, Length 1 */
    g_assert_cmphex(r.h[0].dw[1], ==, (uint32_t)PORT << 16 | 0x42 << 8 | 0x2);
    g_assert_cmphex(r.h[0].dw[2], ==, 0x1000);
    g_assert_cmphex(r.h[0].dw[3], ==, 0);
    g_assert_cmphex(r.h[0].prefix, ==, 0);
    g_assert_false(r.inbound[0]);
    g_assert_cmpuint(r.payload[0], ==, 0);
    g_assert_cmphex(r.h[1].dw[0], ==, cpld);
    g_assert_cmphex(r.h[1].dw[1], ==, (uint32_t)EP << 16 | 4);
    g_assert_cmphex(r.h[1].dw[2], ==, (uint32_t)PORT << 16 | 0x42 << 8);
    g_assert_cmphex(r.h[1].dw[3], ==, 0);
    g_assert_cmphex(r.h[1].prefix, ==, 0);
    g_assert_true(r.inbound[1]);
    g_assert_cmpuint(r.payload[1], ==, 4);

    /* Bytes 2-3 of configuration register 0x40: the target's BDF */
    r.n = 0;
    g_assert_cmpuint(model_pcie_link_dw(&link, TLP_TYPE_CFG0, false, 0x42, 2,
                                        &tag, raw, &r), ==, 2);
    g_assert_cmphex(r.h[0].dw[0], ==, 0x04000001); /* CfgRd0, Length 1 */
    g_assert_cmphex(r.h[0].dw[1], ==, (uint32_t)PORT << 16 | 0x43 << 8 | 0xc);
    g_assert_cmphex(r.h[0].dw[2], ==, (uint32_t)EP << 16 | 0x40);
    g_assert_cmphex(r.h[0].dw[3], ==, 0);
    g_assert_cmphex(r.h[1].dw[0], ==, cpld);
    g_assert_cmphex(r.h[1].dw[1], ==, (uint32_t)EP << 16 | 4);
    g_assert_cmphex(r.h[1].dw[2], ==, (uint32_t)PORT << 16 | 0x43 << 8);
    g_assert_cmphex(r.h[1].dw[3], ==, 0);
    g_assert_cmphex(tag, ==, 0x44);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/pcie-link/sizes", test_sizes);
    g_test_add_func("/pcie-link/write-split-at-mps", test_write_split_at_mps);
    g_test_add_func("/pcie-link/write-split-at-page", test_write_split_at_page);
    g_test_add_func("/pcie-link/read-requests-and-completions",
                    test_read_requests_and_completions);
    g_test_add_func("/pcie-link/nothing", test_nothing);
    g_test_add_func("/pcie-link/random-transfers", test_random_transfers);
    g_test_add_func("/pcie-link/downstream-read", test_downstream_read);
    g_test_add_func("/pcie-link/config-write", test_config_write);
    g_test_add_func("/pcie-link/dw-reads", test_dw_reads);
    g_test_add_func("/pcie-link/dw-read-headers", test_dw_read_headers);
    return g_test_run();
}
