/*
 * QTest: HiSilicon PCIe PMU (hisi-pcie-pmu) registers and counts
 *
 * Counts follow the hisi-traffic object; the tests set its rules so that
 * exact values can be asserted after virtual clock steps. The last test
 * checks that a hisi-ptt on the same traffic traces what the PMU counts.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bitops.h"
#include "hisi-qtest.h"
#include "hw/hisilicon/hisi-pcie-pmu-regs.h"
#include "hw/hisilicon/hisi-ptt-regs.h"

#define PMU_DEVFN           QPCI_DEVFN(9, 0)
#define PTT_DEVFN           QPCI_DEVFN(8, 0)
#define EDU_BDF             0x0100

/* Port bits of root port 00:10.0 (slot 16 -> bit 0) and of another */
#define RP_PORT_BIT         0x1
#define OTHER_PORT_BIT      0x4

/*
 * What the driver's ABI defines, not the register map: its events and
 * length modes (perf's hisi_pcie format), the PTT's trace options and
 * 8DW records (Documentation/trace/hisi-ptt.rst) and a TLP's Length.
 */
#define RX_MWR_LATENCY      0x0010
#define RX_MWR_FLUX         0x0104
#define RX_MRD_FLUX         0x0804
#define RX_CPL_FLUX         0x2004
#define TX_MWR_FLUX         0x0105
#define TX_MRD_FLUX         0x0405
#define TX_CPL_FLUX         0x1005
#define TX_MRD_LATENCY      0x0011
#define UNKNOWN_EVENT       0x1234

#define LEN_DEFAULT         0   /* headers and payloads */
#define LEN_PAYLOAD         1
#define LEN_HEADER          2
#define LEN_BOTH            3

#define PTT_DIR_INBOUND_B   2
#define PTT_TYPE_POSTED     0x1
#define PTT_REC8_SIZE       32
#define PTT_REC8_HDR_DW0    8   /* the TLP header's DW0 in a record */
#define TLP_LENGTH_DW       0x3ff   /* DW0 Length, in DW */

/* Guest RAM for the PTT's trace buffers */
#define PTT_BUF_BASE        0x48000000ull
#define PTT_BUF_SIZE        0x100000
#define PTT_BUF_ADDR(buf)   (PTT_BUF_BASE + (uint64_t)(buf) * PTT_BUF_SIZE)

/* The edu endpoint's DMA writes: 1 per us, 16 DW, 500 ns */
#define RULES "stream=dma-write,rate=1000000,len=16,latency=500"

/* The default clock-freq: delays and times count cycles of 10 ns */
#define CYCLES_PER_US       100

/* The root port's BDF: the requester of the CPU's requests below it */
#define RP_BDF              0x0080

/* What the driver writes to a counter before it counts (set_period) */
#define COUNTER_INIT        BIT_ULL(63)

typedef HisiDev Pmu;

/* The PMU at 00:09.0 on traffic object t0, @props on its -device option */
static void pmu_add_device(GPtrArray *args, const char *props)
{
    hisi_args_add_device(args, "hisi-pcie-pmu,bus=pcie.0,addr=0x9,"
                         "traffic=t0,id=pmu%s", props);
}

/*
 * QEMU with the PMU at 00:09.0 on traffic object t0 and an edu endpoint
 * behind root port 00:10.0: @props go on the PMU's -device option, then
 * the QEMU arguments up to a NULL.
 */
static void G_GNUC_NULL_TERMINATED pmu_init(Pmu *p, const char *props, ...)
{
    g_autoptr(GPtrArray) args = hisi_args_topology(RULES);
    va_list ap;

    pmu_add_device(args, props);
    va_start(ap, props);
    hisi_args_add_valist(args, ap);
    va_end(ap);
    hisi_init(p, PMU_DEVFN, args);
}

/* EVENT_CTRL for @event on the root ports in @ports */
static uint64_t pmu_port_event(uint16_t event, uint16_t ports,
                               unsigned len_mode)
{
    uint64_t ctrl = FIELD_DP64(0, EVENT_CTRL, EVENT, event);

    ctrl = FIELD_DP64(ctrl, EVENT_CTRL, TARGET, ports);
    return FIELD_DP64(ctrl, EVENT_CTRL, LEN_MODE, len_mode);
}

/* EVENT_CTRL for @event on the requester @bdf */
static uint64_t pmu_requester_event(uint16_t event, uint16_t bdf,
                                    unsigned len_mode)
{
    return pmu_port_event(event, bdf, len_mode) |
           R_EVENT_CTRL_TARGET_EN_MASK;
}

/* Only TLPs of 2^@len DW or more (@below: of less) */
static uint64_t pmu_threshold(unsigned len, bool below)
{
    uint64_t ctrl = FIELD_DP64(R_EVENT_CTRL_THR_EN_MASK, EVENT_CTRL,
                               THR_MODE, below);

    return FIELD_DP64(ctrl, EVENT_CTRL, THR, len);
}

/* Counting from the first TLP longer than 2^@len DW (@below: shorter) */
static uint64_t pmu_trigger(unsigned len, bool below)
{
    uint64_t ctrl = FIELD_DP64(R_EVENT_CTRL_TRIG_EN_MASK, EVENT_CTRL,
                               TRIG_MODE, below);

    return FIELD_DP64(ctrl, EVENT_CTRL, TRIG, len);
}

/* Start counting @ctrl on counter 0, as the driver does */
static void pmu_start(Pmu *p, uint64_t ctrl)
{
    hisi_wrq(p, HISI_PCIE_PMU_REG(EVENT_CTRL, 0),
             R_EVENT_CTRL_RESET_CNT_MASK);
    hisi_wrq(p, HISI_PCIE_PMU_REG(EVENT_CTRL, 0), ctrl);
    hisi_wrq(p, HISI_PCIE_PMU_REG(EVENT_CTRL, 0),
             ctrl | R_EVENT_CTRL_EVENT_EN_MASK);
    hisi_wr(p, A_GLOBAL_CTRL, R_GLOBAL_CTRL_EN_MASK);
}

/* Stop counter 0; what it counted */
static void pmu_stop(Pmu *p, uint64_t *cnt, uint64_t *ext)
{
    hisi_wr(p, A_GLOBAL_CTRL, 0);
    *cnt = hisi_rdq(p, HISI_PCIE_PMU_REG(CNT, 0));
    *ext = hisi_rdq(p, HISI_PCIE_PMU_REG(EXT_CNT, 0));
    hisi_wrq(p, HISI_PCIE_PMU_REG(EVENT_CTRL, 0), 0);
}

/* Count @ctrl on counter 0 for @ns of virtual time */
static void pmu_count(Pmu *p, uint64_t ctrl, int64_t ns, uint64_t *cnt,
                      uint64_t *ext)
{
    pmu_start(p, ctrl);
    qtest_clock_step(p->qts, ns);
    pmu_stop(p, cnt, ext);
}

/* RAM the edu endpoint's DMA goes to, clear of the PTT's buffers */
#define DMA_RAM             0x49000000ull

/* The PMU on traffic object t0 with source=real, the edu ready for DMA */
static void pmu_init_real(Pmu *p, HisiEndpoint *edu)
{
    g_autoptr(GPtrArray) args = hisi_args_topology(NULL);

    hisi_args_add(args, "-object", "hisi-traffic,id=t0,source=real",
                  HISI_EDU_DMA_ANY, NULL);
    pmu_add_device(args, "");
    hisi_init(p, PMU_DEVFN, args);
    hisi_edu_init(p, edu, EDU_BDF);
}

/* An event, the edu's DMA direction and what the event counts of it */
typedef struct RealDmaCase {
    uint64_t ctrl;
    bool to_ram;
    uint64_t cnt, ext;      /* ext: TLPs for latency events only */
} RealDmaCase;

/*
 * The edu's DMA of 1000 bytes to (@to_ram) or from @addr, its address
 * written whole (8 bytes: hisi_edu_dma() writes 4, below 4 GiB only)
 */
static void pmu_edu_dma(Pmu *p, HisiEndpoint *edu, bool to_ram,
                        uint64_t addr)
{
    qpci_io_writeq(edu->dev, edu->bar,
                   to_ram ? HISI_EDU_DMA_DST : HISI_EDU_DMA_SRC, addr);
    qpci_io_writeq(edu->dev, edu->bar,
                   to_ram ? HISI_EDU_DMA_SRC : HISI_EDU_DMA_DST,
                   HISI_EDU_DMA_BUF);
    qpci_io_writel(edu->dev, edu->bar, HISI_EDU_DMA_CNT, 1000);
    qpci_io_writel(edu->dev, edu->bar, HISI_EDU_DMA_CMD,
                   HISI_EDU_DMA_RUN | (to_ram ? HISI_EDU_DMA_TO_RAM : 0));
    qtest_clock_step(p->qts, HISI_EDU_DMA_NS);
}

/* Each of @cases counted over one DMA of the edu at @addr */
static void pmu_check_real_dma(const RealDmaCase *cases, size_t n,
                               uint64_t addr)
{
    HisiEndpoint edu;
    Pmu p;

    pmu_init_real(&p, &edu);
    for (size_t i = 0; i < n; i++) {
        uint64_t cnt, ext;

        pmu_start(&p, cases[i].ctrl);
        pmu_edu_dma(&p, &edu, cases[i].to_ram, addr);
        pmu_stop(&p, &cnt, &ext);
        g_test_message("case %zu: cnt %" PRIu64 " ext %" PRIu64, i, cnt,
                       ext);
        g_assert_cmpuint(cnt, ==, cases[i].cnt);
        if (cases[i].ext) {
            g_assert_cmpuint(ext, ==, cases[i].ext);
        }
    }
    g_free(edu.dev);
    hisi_fini(&p);
}

/*
 * The real DMA of the edu endpoint (traffic source=real), counted: 1000
 * bytes at an odd address go as eight MWr whose Lengths add up to 251 DWs
 * (their byte enables mask the 4 bytes beyond the data) with 3-DW headers;
 * read, as two MRd (headers only) and eight CplD of 251 DWs back. Each
 * event counts what it selects of them, by requester or by port, and
 * nothing of the other direction; a latency event counts the TLPs, with
 * no delay (QEMU completes a read at once). The MWr are cut at 128-byte
 * boundaries: seven of 32 DWs, then 27. A trigger on one longer than 32
 * DWs never starts the count; on one shorter, it starts at the last.
 */
static void test_real_dma(void)
{
    const RealDmaCase cases[] = {
        { pmu_requester_event(RX_MWR_FLUX, EDU_BDF, LEN_PAYLOAD), true,
          251 * 4 },
        { pmu_requester_event(RX_MWR_FLUX, EDU_BDF, LEN_BOTH), true,
          251 * 4 + 8 * 12 },
        { pmu_requester_event(RX_MWR_FLUX, EDU_BDF, LEN_BOTH), false, 0 },
        { pmu_requester_event(RX_MWR_FLUX, EDU_BDF + 1, LEN_BOTH), true, 0 },
        { pmu_port_event(RX_MWR_FLUX, RP_PORT_BIT, LEN_PAYLOAD), true,
          251 * 4 },
        { pmu_port_event(RX_MWR_FLUX, OTHER_PORT_BIT, LEN_PAYLOAD), true, 0 },
        { pmu_requester_event(RX_MRD_FLUX, EDU_BDF, LEN_BOTH), false,
          2 * 12 },
        { pmu_requester_event(TX_CPL_FLUX, EDU_BDF, LEN_PAYLOAD), false,
          251 * 4 },
        { pmu_requester_event(TX_CPL_FLUX, EDU_BDF, LEN_HEADER), false,
          8 * 12 },
        { pmu_port_event(RX_MWR_LATENCY, RP_PORT_BIT, LEN_DEFAULT), true,
          0, 8 },
        { pmu_requester_event(RX_MWR_FLUX, EDU_BDF, LEN_PAYLOAD) |
          pmu_trigger(5, false), true, 0 },
        { pmu_requester_event(RX_MWR_FLUX, EDU_BDF, LEN_PAYLOAD) |
          pmu_trigger(5, true), true, 27 * 4 },
    };

    pmu_check_real_dma(cases, G_N_ELEMENTS(cases), DMA_RAM + 3);
}

/*
 * The PMU takes the real traffic while any counter counts, not only
 * counter 0: the edu's DMA of 1000 bytes to RAM (251 DWs of payload)
 * counts on the last counter alone, then on it and counter 0, then on it
 * after counter 0 stopped.
 */
static void test_real_dma_any_counter(void)
{
    uint64_t ctrl = pmu_requester_event(RX_MWR_FLUX, EDU_BDF, LEN_PAYLOAD) |
                    R_EVENT_CTRL_EVENT_EN_MASK;
    const unsigned last = HISI_PCIE_PMU_COUNTERS - 1;
    HisiEndpoint edu;
    Pmu p;

    pmu_init_real(&p, &edu);
    hisi_wrq(&p, HISI_PCIE_PMU_REG(EVENT_CTRL, last), ctrl);
    hisi_wr(&p, A_GLOBAL_CTRL, R_GLOBAL_CTRL_EN_MASK);
    hisi_edu_dma(&p, &edu, true, DMA_RAM + 3, 1000);
    g_assert_cmpuint(hisi_rdq(&p, HISI_PCIE_PMU_REG(CNT, last)), ==,
                     251 * 4);
    hisi_wrq(&p, HISI_PCIE_PMU_REG(EVENT_CTRL, 0), ctrl);
    hisi_edu_dma(&p, &edu, true, DMA_RAM + 3, 1000);
    g_assert_cmpuint(hisi_rdq(&p, HISI_PCIE_PMU_REG(CNT, 0)), ==, 251 * 4);
    g_assert_cmpuint(hisi_rdq(&p, HISI_PCIE_PMU_REG(CNT, last)), ==,
                     2 * 251 * 4);
    hisi_wrq(&p, HISI_PCIE_PMU_REG(EVENT_CTRL, 0), 0);
    hisi_edu_dma(&p, &edu, true, DMA_RAM + 3, 1000);
    g_assert_cmpuint(hisi_rdq(&p, HISI_PCIE_PMU_REG(CNT, 0)), ==, 251 * 4);
    g_assert_cmpuint(hisi_rdq(&p, HISI_PCIE_PMU_REG(CNT, last)), ==,
                     3 * 251 * 4);
    g_free(edu.dev);
    hisi_fini(&p);
}

/*
 * 4 GiB + 3, above the RAM of -m 512M: nothing answers there, but the edu's
 * requests go out on the link all the same
 */
#define DMA_ABOVE_4G        0x100000003ull

/*
 * Real requests with a 64-bit address have 4-DW headers: the edu's DMA of
 * 1000 bytes at 4 GiB + 3 goes as the eight MWr (or two MRd) of
 * /hisi-pcie-pmu/real-dma, with headers of 16 bytes, not 12; the
 * completions of the read keep their 3-DW headers.
 */
static void test_real_dma_64bit_address(void)
{
    const RealDmaCase cases[] = {
        { pmu_requester_event(RX_MWR_FLUX, EDU_BDF, LEN_HEADER), true,
          8 * 16 },
        { pmu_requester_event(RX_MWR_FLUX, EDU_BDF, LEN_BOTH), true,
          251 * 4 + 8 * 16 },
        { pmu_requester_event(RX_MRD_FLUX, EDU_BDF, LEN_BOTH), false,
          2 * 16 },
        { pmu_requester_event(TX_CPL_FLUX, EDU_BDF, LEN_HEADER), false,
          8 * 12 },
    };

    pmu_check_real_dma(cases, G_N_ELEMENTS(cases), DMA_ABOVE_4G);
}

/* A second PMU, of core 1 */
#define PMU1_DEVFN          QPCI_DEVFN(0xa, 0)

/*
 * A PMU counts the real traffic of the root ports it covers (bdf-min to
 * bdf-max) only: the edu's DMA of 1000 bytes to RAM through 00:10.0, 251
 * DWs of payload, counts on a PMU of 00:10.0 alone (bdf-max 0x80: the
 * bounds are in the range) and not on one of 00:11.0 to 00:11.7, whether
 * by requester or by the port bit 00:10.0 would have.
 */
static void test_real_dma_uncovered_port(void)
{
    const uint64_t ctrl[] = {
        pmu_requester_event(RX_MWR_FLUX, EDU_BDF, LEN_PAYLOAD),
        pmu_port_event(RX_MWR_FLUX, RP_PORT_BIT, LEN_PAYLOAD),
    };
    HisiEndpoint edu;
    Pmu p, covering;
    g_autoptr(GPtrArray) args = hisi_args_topology(NULL);

    hisi_args_add(args, "-object", "hisi-traffic,id=t0,source=real",
                  HISI_EDU_DMA_ANY, NULL);
    pmu_add_device(args, ",bdf-min=0x88,bdf-max=0x8f");
    hisi_args_add_device(args, "hisi-pcie-pmu,bus=pcie.0,addr=0xa,"
                         "traffic=t0,id=pmu1,core-id=1,bdf-max=0x80");
    hisi_init(&p, PMU_DEVFN, args);
    covering = p;
    covering.dev = hisi_enable(&p, PMU1_DEVFN, &covering.bar);
    hisi_edu_init(&p, &edu, EDU_BDF);
    for (int i = 0; i < G_N_ELEMENTS(ctrl); i++) {
        uint64_t cnt, ext;

        pmu_start(&p, ctrl[i]);
        pmu_start(&covering, ctrl[i]);
        hisi_edu_dma(&p, &edu, true, DMA_RAM + 3, 1000);
        pmu_stop(&covering, &cnt, &ext);
        g_assert_cmpuint(cnt, ==, 251 * 4);
        pmu_stop(&p, &cnt, &ext);
        g_assert_cmpuint(cnt, ==, 0);
    }
    g_free(covering.dev);
    g_free(edu.dev);
    hisi_fini(&p);
}

/*
 * The CPU's accesses to the edu (hisi_edu_cpu_accesses), counted on the
 * root port: a 4-byte MWr and an MRd outbound, completed by a CplD of a
 * DW; the configuration requests are no memory reads or writes, but the
 * edu's completions of them count (two CplD of a DW and a Cpl). The root
 * port requests, so none counts for the edu as requester.
 */
static void test_real_cpu_accesses(void)
{
    const struct {
        uint64_t ctrl;
        uint64_t cnt, ext;      /* ext: TLPs for latency events only */
    } cases[] = {
        { pmu_port_event(TX_MWR_FLUX, RP_PORT_BIT, LEN_PAYLOAD), 4 },
        { pmu_port_event(TX_MWR_FLUX, RP_PORT_BIT, LEN_HEADER), 12 },
        { pmu_port_event(TX_MRD_FLUX, RP_PORT_BIT, LEN_BOTH), 12 },
        { pmu_port_event(TX_MRD_LATENCY, RP_PORT_BIT, LEN_DEFAULT), 0, 1 },
        { pmu_port_event(RX_CPL_FLUX, RP_PORT_BIT, LEN_PAYLOAD), 3 * 4 },
        { pmu_port_event(RX_CPL_FLUX, RP_PORT_BIT, LEN_HEADER), 4 * 12 },
        { pmu_port_event(RX_MWR_FLUX, RP_PORT_BIT, LEN_BOTH), 0 },
        { pmu_port_event(TX_MWR_FLUX, OTHER_PORT_BIT, LEN_BOTH), 0 },
        { pmu_requester_event(TX_MWR_FLUX, EDU_BDF, LEN_BOTH), 0 },
    };
    HisiEndpoint edu;
    Pmu p;
    g_autoptr(GPtrArray) args = hisi_args_topology(NULL);

    hisi_args_add(args, "-object", "hisi-traffic,id=t0,source=real", NULL);
    pmu_add_device(args, "");
    hisi_init(&p, PMU_DEVFN, args);
    hisi_edu_init(&p, &edu, EDU_BDF);
    for (int i = 0; i < G_N_ELEMENTS(cases); i++) {
        uint64_t cnt, ext;

        pmu_start(&p, cases[i].ctrl);
        hisi_edu_cpu_accesses(&p, &edu);
        pmu_stop(&p, &cnt, &ext);
        g_test_message("case %d: cnt %" PRIu64 " ext %" PRIu64, i, cnt, ext);
        g_assert_cmpuint(cnt, ==, cases[i].cnt);
        if (cases[i].ext) {
            g_assert_cmpuint(ext, ==, cases[i].ext);
        }
    }
    g_free(edu.dev);
    hisi_fini(&p);
}

/*
 * GLOBAL_CTRL 0 stops every counter where it stands (the driver's
 * pmu_disable): counter 0 counts the DMA writes below rp0 for 100 us, none
 * in the 100 us after, and the register reads 0.
 */
static void test_global_disable_stops(void)
{
    uint64_t cnt;
    Pmu p;

    pmu_init(&p, "", NULL);
    pmu_start(&p, pmu_port_event(RX_MWR_FLUX, RP_PORT_BIT, LEN_PAYLOAD));
    qtest_clock_step(p.qts, 100 * 1000);
    hisi_wr(&p, A_GLOBAL_CTRL, 0);
    g_assert_cmphex(hisi_rd(&p, A_GLOBAL_CTRL), ==, 0);
    cnt = hisi_rdq(&p, HISI_PCIE_PMU_REG(CNT, 0));
    g_assert_cmpuint(cnt, >, 0);
    qtest_clock_step(p.qts, 100 * 1000);
    g_assert_cmpuint(hisi_rdq(&p, HISI_PCIE_PMU_REG(CNT, 0)), ==, cnt);
    hisi_fini(&p);
}

static void test_reset_values(void)
{
    uint32_t bdf, info;
    Pmu p;

    pmu_init(&p, ",sicl-id=4,core-id=6,bdf-min=0x80,bdf-max=0x9f,"
             "version=0x31", NULL);
    hisi_assert_rciep_header(&p, HISI_PCIE_PMU_VENDOR_ID,
                             HISI_PCIE_PMU_DEVICE_ID);
    g_assert_cmphex(hisi_rd(&p, A_GLOBAL_CTRL), ==, 0);
    for (int i = 0; i < HISI_PCIE_PMU_COUNTERS; i++) {
        g_assert_cmphex(hisi_rdq(&p, HISI_PCIE_PMU_REG(EVENT_CTRL, i)), ==,
                        0);
        g_assert_cmphex(hisi_rdq(&p, HISI_PCIE_PMU_REG(CNT, i)), ==, 0);
        g_assert_cmphex(hisi_rdq(&p, HISI_PCIE_PMU_REG(EXT_CNT, i)), ==, 0);
        g_assert_cmphex(hisi_rd(&p, HISI_PCIE_PMU_REG(INT_STAT, i)), ==, 0);
        /* the overflow interrupt masked */
        g_assert_cmphex(hisi_rd(&p, HISI_PCIE_PMU_REG(INT_MASK, i)), ==,
                        R_INT_MASK_OVERFLOW_MASK);
    }
    bdf = hisi_rd(&p, A_REG_BDF);
    g_assert_cmphex(FIELD_EX32(bdf, REG_BDF, MIN), ==, 0x80);
    g_assert_cmphex(FIELD_EX32(bdf, REG_BDF, MAX), ==, 0x9f);
    g_assert_cmphex(hisi_rd(&p, A_REG_VERSION), ==, 0x31);
    info = hisi_rd(&p, A_REG_INFO);
    g_assert_cmphex(FIELD_EX32(info, REG_INFO, SICL_ID), ==, 4);
    g_assert_cmphex(FIELD_EX32(info, REG_INFO, CORE_ID), ==, 6);
    hisi_fini(&p);
}

/* The 64-bit registers, accessed whole or by 32-bit halves */
static void test_counter_halves(void)
{
    Pmu p;

    pmu_init(&p, "", NULL);
    /* counters of an event the PMU has: only those take writes */
    hisi_wrq(&p, HISI_PCIE_PMU_REG(EVENT_CTRL, 3), RX_MWR_FLUX);
    hisi_wrq(&p, HISI_PCIE_PMU_REG(EVENT_CTRL, 5), RX_MWR_FLUX);
    hisi_wrq(&p, HISI_PCIE_PMU_REG(CNT, 3), 0x1122334455667788ull);
    g_assert_cmphex(hisi_rd(&p, HISI_PCIE_PMU_REG(CNT, 3)), ==, 0x55667788);
    g_assert_cmphex(hisi_rd(&p, HISI_PCIE_PMU_REG(CNT, 3) + 4), ==,
                    0x11223344);
    hisi_wr(&p, HISI_PCIE_PMU_REG(EXT_CNT, 5) + 4, 0xdeadbeef);
    hisi_wr(&p, HISI_PCIE_PMU_REG(EXT_CNT, 5), 0x01020304);
    g_assert_cmphex(hisi_rdq(&p, HISI_PCIE_PMU_REG(EXT_CNT, 5)), ==,
                    0xdeadbeef01020304ull);
    hisi_wrq(&p, HISI_PCIE_PMU_REG(EVENT_CTRL, 7), 0x0f00000400000104ull);
    g_assert_cmphex(hisi_rdq(&p, HISI_PCIE_PMU_REG(EVENT_CTRL, 7)), ==,
                    0x0f00000400000104ull);
    hisi_fini(&p);
}

/* After REG_INFO: no register there */
#define UNKNOWN_REG         0xff0

/* Every register, 64-bit ones by halves */
static void pmu_snapshot_all(HisiSnapshot *s)
{
    hisi_snapshot_add(s, A_GLOBAL_CTRL);
    for (int i = 0; i < HISI_PCIE_PMU_COUNTERS; i++) {
        hisi_snapshot_add(s, HISI_PCIE_PMU_REG(EVENT_CTRL, i));
        hisi_snapshot_add(s, HISI_PCIE_PMU_REG(EVENT_CTRL, i) + 4);
        hisi_snapshot_add(s, HISI_PCIE_PMU_REG(CNT, i));
        hisi_snapshot_add(s, HISI_PCIE_PMU_REG(CNT, i) + 4);
        hisi_snapshot_add(s, HISI_PCIE_PMU_REG(EXT_CNT, i));
        hisi_snapshot_add(s, HISI_PCIE_PMU_REG(EXT_CNT, i) + 4);
        hisi_snapshot_add(s, HISI_PCIE_PMU_REG(INT_STAT, i));
        hisi_snapshot_add(s, HISI_PCIE_PMU_REG(INT_MASK, i));
    }
    hisi_snapshot_add(s, A_REG_BDF);
    hisi_snapshot_add(s, A_REG_VERSION);
    hisi_snapshot_add(s, A_REG_INFO);
}

/* An RCiEP, as the device's driver and lspci find it */
static void test_rciep(void)
{
    Pmu p;

    pmu_init(&p, "", NULL);
    hisi_assert_rciep(&p);
    hisi_fini(&p);
}

/*
 * 64-bit accesses to 32-bit registers, byte accesses, unknown offsets:
 * logged, no effect, and the PMU counts on.
 */
static void test_bad_accesses(void)
{
    static const uint32_t read_only[] = {
        A_REG_BDF, A_REG_VERSION, A_REG_INFO,
    };
    uint64_t lat = pmu_port_event(RX_MWR_LATENCY, RP_PORT_BIT, LEN_DEFAULT);
    HisiSnapshot before = { 0 };
    uint64_t cnt, ext;
    Pmu p;

    pmu_init(&p, "", NULL);
    /* a state to keep: a counter set up and loaded */
    hisi_wrq(&p, HISI_PCIE_PMU_REG(EVENT_CTRL, 2), lat);
    hisi_wrq(&p, HISI_PCIE_PMU_REG(CNT, 2), 0x1122334455667788ull);
    pmu_snapshot_all(&before);
    hisi_snapshot_take(&p, &before);

    hisi_wrq(&p, HISI_PCIE_PMU_REG(INT_STAT, 0), 0);
    qpci_io_writeb(p.dev, p.bar, HISI_PCIE_PMU_REG(INT_MASK, 1), 0);
    qpci_io_writeb(p.dev, p.bar, A_GLOBAL_CTRL, R_GLOBAL_CTRL_EN_MASK);
    hisi_wr(&p, UNKNOWN_REG, 0xffffffff);
    hisi_assert_guest_error(&p, "hisi-pcie-pmu: write to unknown register "
                            "0xff0 ignored\n");
    for (int i = 0; i < ARRAY_SIZE(read_only); i++) {
        hisi_wr(&p, read_only[i], 0x12345678);
        hisi_assert_guest_errorf(&p, "hisi-pcie-pmu: write to read-only "
                                 "register 0x%03x ignored\n", read_only[i]);
    }
    g_assert_cmphex(hisi_rd(&p, HISI_PCIE_PMU_REG(INT_MASK, 0)), ==,
                    R_INT_MASK_OVERFLOW_MASK);
    g_assert_cmphex(hisi_rd(&p, HISI_PCIE_PMU_REG(INT_MASK, 1)), ==,
                    R_INT_MASK_OVERFLOW_MASK);
    g_assert_cmphex(qpci_io_readb(p.dev, p.bar, A_REG_INFO), ==, 0);
    hisi_assert_no_guest_error(&p);
    g_assert_cmphex(hisi_rd(&p, UNKNOWN_REG), ==, 0);
    hisi_assert_guest_error(&p, "hisi-pcie-pmu: read of unknown register "
                            "0xff0\n");
    hisi_snapshot_assert_same(&p, &before);

    /* 1 ms at one TLP per us, as before */
    pmu_count(&p, lat, 1000 * 1000, &cnt, &ext);
    g_assert_cmpuint(ext, ==, 1000);
    hisi_fini(&p);
}

static void test_no_count_without_global_enable(void)
{
    uint64_t lat = pmu_port_event(RX_MWR_LATENCY, RP_PORT_BIT, LEN_BOTH);
    Pmu p;

    pmu_init(&p, "", NULL);
    hisi_wrq(&p, HISI_PCIE_PMU_REG(EVENT_CTRL, 0),
             lat | R_EVENT_CTRL_EVENT_EN_MASK);
    qtest_clock_step(p.qts, 1000 * 1000);
    g_assert_cmpuint(hisi_rdq(&p, HISI_PCIE_PMU_REG(EXT_CNT, 0)), ==, 0);
    hisi_fini(&p);
}

static void test_no_count_without_event_enable(void)
{
    uint64_t lat = pmu_port_event(RX_MWR_LATENCY, RP_PORT_BIT, LEN_BOTH);
    Pmu p;

    pmu_init(&p, "", NULL);
    hisi_wrq(&p, HISI_PCIE_PMU_REG(EVENT_CTRL, 0), lat);
    hisi_wr(&p, A_GLOBAL_CTRL, R_GLOBAL_CTRL_EN_MASK);
    qtest_clock_step(p.qts, 1000 * 1000);
    g_assert_cmpuint(hisi_rdq(&p, HISI_PCIE_PMU_REG(EXT_CNT, 0)), ==, 0);
    hisi_fini(&p);
}

/* 1 ms at one TLP per us, 500 ns (50 cycles) each */
static void test_exact_latency(void)
{
    uint64_t cnt, ext;
    Pmu p;

    pmu_init(&p, "", NULL);
    pmu_count(&p, pmu_port_event(RX_MWR_LATENCY, RP_PORT_BIT, LEN_BOTH),
              1000 * 1000, &cnt, &ext);
    g_assert_cmpuint(ext, ==, 1000);
    g_assert_cmpuint(cnt, ==, 1000 * CYCLES_PER_US / 2);
    hisi_fini(&p);
}

/*
 * Bandwidth: 64 bytes of payload + 16 of header, time in cycles; over a
 * whole second, which shows the default clock at exactly 100 MHz
 */
static void test_exact_bandwidth(void)
{
    uint64_t cnt, ext;
    Pmu p;

    pmu_init(&p, "", NULL);
    pmu_count(&p, pmu_port_event(RX_MWR_FLUX, RP_PORT_BIT, LEN_BOTH),
              1000 * 1000 * 1000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 1000 * 1000 * 80);
    g_assert_cmpuint(ext, ==, 1000 * 1000 * CYCLES_PER_US);
    hisi_fini(&p);
}

/*
 * clock-freq: the cycles of delays and times. At 250 MHz, 500 ns is 125
 * cycles and 1 ms 250000; the counts of TLPs and bytes stay.
 */
static void test_clock_freq(void)
{
    uint64_t cnt, ext;
    Pmu p;

    pmu_init(&p, ",clock-freq=250000000", NULL);
    pmu_count(&p, pmu_port_event(RX_MWR_LATENCY, RP_PORT_BIT, LEN_BOTH),
              1000 * 1000, &cnt, &ext);
    g_assert_cmpuint(ext, ==, 1000);
    g_assert_cmpuint(cnt, ==, 1000 * 125);
    pmu_count(&p, pmu_port_event(RX_MWR_FLUX, RP_PORT_BIT, LEN_BOTH),
              1000 * 1000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 1000 * 80);
    g_assert_cmpuint(ext, ==, 250000);
    hisi_fini(&p);
}

/* A slow clock (1 kHz): whole cycles, the rest carried exactly */
static void test_clock_freq_slow(void)
{
    uint64_t cnt, ext;
    Pmu p;

    pmu_init(&p, ",clock-freq=1000", NULL);
    pmu_count(&p, pmu_port_event(RX_MWR_FLUX, RP_PORT_BIT, LEN_BOTH),
              2500 * 1000, &cnt, &ext);
    g_assert_cmpuint(ext, ==, 2);
    hisi_fini(&p);
}

/* The length mode picks the payload or the header */
static void test_bandwidth_len_mode(void)
{
    uint64_t cnt, ext;
    Pmu p;

    pmu_init(&p, "", NULL);
    pmu_count(&p, pmu_port_event(RX_MWR_FLUX, RP_PORT_BIT, LEN_PAYLOAD),
              1000 * 1000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 1000 * 64);
    pmu_count(&p, pmu_port_event(RX_MWR_FLUX, RP_PORT_BIT, LEN_HEADER),
              1000 * 1000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 1000 * 16);
    hisi_fini(&p);
}

/* RESET_CNT zeroes the counters */
static void test_reset_cnt(void)
{
    Pmu p;

    pmu_init(&p, "", NULL);
    hisi_wrq(&p, HISI_PCIE_PMU_REG(EVENT_CTRL, 0), RX_MWR_FLUX);
    hisi_wrq(&p, HISI_PCIE_PMU_REG(CNT, 0), 12345);
    g_assert_cmpuint(hisi_rdq(&p, HISI_PCIE_PMU_REG(CNT, 0)), ==, 12345);
    hisi_wrq(&p, HISI_PCIE_PMU_REG(EVENT_CTRL, 0),
             R_EVENT_CTRL_RESET_CNT_MASK);
    g_assert_cmpuint(hisi_rdq(&p, HISI_PCIE_PMU_REG(CNT, 0)), ==, 0);
    hisi_fini(&p);
}

/* Another root port: nothing */
static void test_filter_other_port(void)
{
    uint64_t cnt, ext;
    Pmu p;

    pmu_init(&p, "", NULL);
    pmu_count(&p, pmu_port_event(RX_MWR_FLUX, OTHER_PORT_BIT, LEN_DEFAULT),
              1000 * 1000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 0);
    hisi_fini(&p);
}

/* Another requester: nothing; the edu endpoint: its writes */
static void test_filter_requester(void)
{
    uint64_t cnt, ext;
    Pmu p;

    pmu_init(&p, "", NULL);
    pmu_count(&p, pmu_requester_event(RX_MWR_FLUX, EDU_BDF + 1, LEN_DEFAULT),
              1000 * 1000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 0);
    pmu_count(&p, pmu_requester_event(RX_MWR_FLUX, EDU_BDF, LEN_PAYLOAD),
              1000 * 1000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 1000 * 64);
    hisi_fini(&p);
}

/*
 * The requester filter counts the TLPs whose Requester ID is the target:
 * the edu endpoint's requests and the completions addressed to it, not
 * the CPU's requests to it nor their completions, whose requester is the
 * root port (and counted as such with the root port as target). The
 * built-in MMIO: 20000 writes/s and 10000 reads/s of 1 DW, 3DW headers.
 */
static void test_filter_requester_id(void)
{
    uint64_t cnt, ext, by_port;
    Pmu p;

    pmu_init(&p, "", NULL);
    pmu_count(&p, pmu_requester_event(TX_MWR_FLUX, EDU_BDF, LEN_DEFAULT),
              1000 * 1000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 0);
    pmu_count(&p, pmu_requester_event(RX_CPL_FLUX, EDU_BDF, LEN_DEFAULT),
              1000 * 1000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 0);
    pmu_count(&p, pmu_requester_event(TX_CPL_FLUX, EDU_BDF, LEN_DEFAULT),
              1000 * 1000, &cnt, &ext);
    g_assert_cmpuint(cnt, >, 0);
    pmu_count(&p, pmu_requester_event(TX_MWR_FLUX, RP_BDF, LEN_DEFAULT),
              1000 * 1000, &cnt, &ext);
    pmu_count(&p, pmu_port_event(TX_MWR_FLUX, RP_PORT_BIT, LEN_DEFAULT),
              1000 * 1000, &by_port, &ext);
    g_assert_cmpuint(cnt, ==, 20 * (1 + 3) * 4);
    g_assert_cmpuint(cnt, ==, by_port);
    hisi_fini(&p);
}

/*
 * A memory read request carries no payload: len_mode 1 counts nothing of
 * rx_mrd_flux, 2 its headers (4DW: DMA above 4 GiB), 3 the same; the
 * built-in 100000 DMA reads/s.
 */
static void test_read_request_payload(void)
{
    uint64_t payload, header, both, ext;
    uint64_t rd = pmu_port_event(RX_MRD_FLUX, RP_PORT_BIT, LEN_DEFAULT);
    Pmu p;

    pmu_init(&p, "", NULL);
    pmu_count(&p, rd | FIELD_DP64(0, EVENT_CTRL, LEN_MODE, LEN_PAYLOAD),
              1000 * 1000, &payload, &ext);
    pmu_count(&p, rd | FIELD_DP64(0, EVENT_CTRL, LEN_MODE, LEN_HEADER),
              1000 * 1000, &header, &ext);
    pmu_count(&p, rd | FIELD_DP64(0, EVENT_CTRL, LEN_MODE, LEN_BOTH),
              1000 * 1000, &both, &ext);
    g_assert_cmpuint(payload, ==, 0);
    g_assert_cmpuint(header, ==, 100 * 4 * 4);
    g_assert_cmpuint(payload + header, ==, both);
    hisi_fini(&p);
}

/*
 * Latency events ignore the threshold and the trigger, which "can only be
 * used in bandwidth events": a threshold that drops the 16 DW TLPs and a
 * trigger they never fire leave the 1000 TLPs of 1 ms counted.
 */
static void test_latency_ignores_thr_trig(void)
{
    uint64_t lat = pmu_port_event(RX_MWR_LATENCY, RP_PORT_BIT, LEN_DEFAULT);
    uint64_t cnt, ext;
    Pmu p;

    pmu_init(&p, "", NULL);
    pmu_count(&p, lat | pmu_threshold(4, true), 1000 * 1000, &cnt, &ext);
    g_assert_cmpuint(ext, ==, 1000);
    g_assert_cmpuint(cnt, ==, 1000 * CYCLES_PER_US / 2);
    pmu_count(&p, lat | pmu_trigger(4, false), 1000 * 1000, &cnt, &ext);
    g_assert_cmpuint(ext, ==, 1000);
    hisi_fini(&p);
}

/*
 * The bdf filter "can only be used in bandwidth events": a latency counter
 * selects by port only, and with TARGET_EN it has none.
 */
static void test_latency_no_requester_filter(void)
{
    uint64_t cnt, ext;
    Pmu p;

    pmu_init(&p, "", NULL);
    pmu_count(&p, pmu_requester_event(RX_MWR_LATENCY, EDU_BDF, LEN_DEFAULT),
              1000 * 1000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 0);
    g_assert_cmpuint(ext, ==, 0);
    hisi_fini(&p);
}

/*
 * A counter set to an unknown event is not implemented: as the driver
 * starts one (reset, event, set_period), the value it writes does not
 * stick, so set_period's read-back finds the counter unwritable and the
 * event counts 0; RESET_CNT still zeroes it.
 */
static void test_unknown_event_unwritable(void)
{
    uint64_t ctrl = pmu_port_event(UNKNOWN_EVENT, RP_PORT_BIT, LEN_DEFAULT);
    Pmu p;

    pmu_init(&p, "", NULL);
    hisi_wrq(&p, HISI_PCIE_PMU_REG(EVENT_CTRL, 1),
             R_EVENT_CTRL_RESET_CNT_MASK);
    hisi_wrq(&p, HISI_PCIE_PMU_REG(EVENT_CTRL, 1),
             ctrl | R_EVENT_CTRL_EVENT_EN_MASK);
    hisi_wr(&p, HISI_PCIE_PMU_REG(INT_MASK, 1), 0);
    hisi_wrq(&p, HISI_PCIE_PMU_REG(CNT, 1), COUNTER_INIT);
    hisi_wrq(&p, HISI_PCIE_PMU_REG(EXT_CNT, 1), COUNTER_INIT);
    g_assert_cmphex(hisi_rdq(&p, HISI_PCIE_PMU_REG(CNT, 1)), ==, 0);
    g_assert_cmphex(hisi_rdq(&p, HISI_PCIE_PMU_REG(EXT_CNT, 1)), ==, 0);
    hisi_wr(&p, A_GLOBAL_CTRL, R_GLOBAL_CTRL_EN_MASK);
    qtest_clock_step(p.qts, 1000 * 1000);
    g_assert_cmphex(hisi_rdq(&p, HISI_PCIE_PMU_REG(CNT, 1)), ==, 0);
    g_assert_cmphex(hisi_rdq(&p, HISI_PCIE_PMU_REG(EXT_CNT, 1)), ==, 0);
    /* a known event on the counter: it takes the write again */
    hisi_wrq(&p, HISI_PCIE_PMU_REG(EVENT_CTRL, 1), RX_MWR_FLUX);
    hisi_wrq(&p, HISI_PCIE_PMU_REG(CNT, 1), COUNTER_INIT);
    g_assert_cmphex(hisi_rdq(&p, HISI_PCIE_PMU_REG(CNT, 1)), ==,
                    COUNTER_INIT);
    hisi_fini(&p);
}

/* tx_mrd: the built-in 10000 MMIO reads/s, 1200 ns (120 cycles) each */
static void test_tx_mrd_latency(void)
{
    uint64_t cnt, ext;
    Pmu p;

    pmu_init(&p, "", NULL);
    pmu_count(&p, pmu_port_event(TX_MRD_LATENCY, RP_PORT_BIT, LEN_DEFAULT),
              1000 * 1000, &cnt, &ext);
    g_assert_cmpuint(ext, >=, 9);
    g_assert_cmpuint(ext, <=, 11);
    g_assert_cmpuint(cnt, ==, ext * 120);
    hisi_fini(&p);
}

/*
 * Lengths above 2^10 DW are taken as 2^10 with a guest error, the
 * threshold's and the trigger's alike; 2^10 itself is no mistake.
 */
static void test_length_above_max(void)
{
    uint64_t flux = pmu_port_event(RX_MWR_FLUX, RP_PORT_BIT, LEN_PAYLOAD);
    const char *above = "hisi-pcie-pmu: counter 0: threshold or trigger "
                        "length above 2^10 DW: taken as 2^10\n";
    uint64_t cnt, ext;
    Pmu p;

    pmu_init(&p, "", NULL);
    pmu_count(&p, flux | pmu_threshold(10, true), 1000 * 1000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 1000 * 64);
    hisi_assert_no_guest_error(&p);
    pmu_count(&p, flux | pmu_threshold(11, true), 1000 * 1000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 1000 * 64);
    hisi_assert_guest_error(&p, above);
    pmu_count(&p, flux | pmu_trigger(10, false), 1000 * 1000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 0);
    hisi_assert_no_guest_error(&p);
    pmu_count(&p, flux | pmu_trigger(11, false), 1000 * 1000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 0);
    hisi_assert_guest_error(&p, above);
    hisi_fini(&p);
}

/* Threshold on the 16 DW TLPs */
static void test_threshold(void)
{
    uint64_t flux = pmu_port_event(RX_MWR_FLUX, RP_PORT_BIT, LEN_PAYLOAD);
    uint64_t cnt, ext;
    Pmu p;

    pmu_init(&p, "", NULL);
    pmu_count(&p, flux | pmu_threshold(4, false), 1000 * 1000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 1000 * 64);
    pmu_count(&p, flux | pmu_threshold(4, true), 1000 * 1000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 0);
    pmu_count(&p, flux | pmu_threshold(5, true), 1000 * 1000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 1000 * 64);
    hisi_fini(&p);
}

/* Trigger: starts at a TLP longer than 8 DW, never at one above 16 */
static void test_trigger(void)
{
    uint64_t flux = pmu_port_event(RX_MWR_FLUX, RP_PORT_BIT, LEN_PAYLOAD);
    uint64_t cnt, ext;
    Pmu p;

    pmu_init(&p, "", NULL);
    pmu_count(&p, flux | pmu_trigger(3, false), 1000 * 1000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 1000 * 64);
    pmu_count(&p, flux | pmu_trigger(4, false), 1000 * 1000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 0);
    g_assert_cmpuint(ext, ==, 0);
    hisi_fini(&p);
}

/*
 * A trigger looks at its own counter's TLPs only: counter 0 counts the
 * DMA writes below the root port (16 DW each), counter 1 those of
 * requester EDU_BDF + 1, where no function sits, from a trigger the
 * writes of the edu would meet. Counter 1 neither counts nor starts its
 * cycles.
 */
static void test_trigger_own_tlps(void)
{
    uint64_t flux = pmu_port_event(RX_MWR_FLUX, RP_PORT_BIT, LEN_PAYLOAD);
    uint64_t nobody = pmu_requester_event(RX_MWR_FLUX, EDU_BDF + 1,
                                          LEN_PAYLOAD) |
                      pmu_trigger(3, false);
    Pmu p;

    pmu_init(&p, "", NULL);
    hisi_wrq(&p, HISI_PCIE_PMU_REG(EVENT_CTRL, 0),
             flux | R_EVENT_CTRL_EVENT_EN_MASK);
    hisi_wrq(&p, HISI_PCIE_PMU_REG(EVENT_CTRL, 1),
             nobody | R_EVENT_CTRL_EVENT_EN_MASK);
    hisi_wr(&p, A_GLOBAL_CTRL, R_GLOBAL_CTRL_EN_MASK);
    qtest_clock_step(p.qts, 1000 * 1000);
    g_assert_cmpuint(hisi_rdq(&p, HISI_PCIE_PMU_REG(CNT, 0)), ==, 1000 * 64);
    g_assert_cmpuint(hisi_rdq(&p, HISI_PCIE_PMU_REG(CNT, 1)), ==, 0);
    g_assert_cmpuint(hisi_rdq(&p, HISI_PCIE_PMU_REG(EXT_CNT, 1)), ==, 0);
    hisi_fini(&p);
}

/* Counter 0 counting RX_MWR_LATENCY, overflow unmasked, 4 TLPs to go */
static void pmu_start_near_overflow(Pmu *p)
{
    uint64_t lat = pmu_port_event(RX_MWR_LATENCY, RP_PORT_BIT, LEN_DEFAULT);

    hisi_msi_taken(p);
    hisi_wrq(p, HISI_PCIE_PMU_REG(EVENT_CTRL, 0),
             lat | R_EVENT_CTRL_EVENT_EN_MASK);
    /* 4 TLPs of 500 ns: 4 of 50 cycles */
    hisi_wrq(p, HISI_PCIE_PMU_REG(CNT, 0), -(4ull * CYCLES_PER_US / 2));
    hisi_wr(p, HISI_PCIE_PMU_REG(INT_MASK, 0), 0);
    hisi_wr(p, A_GLOBAL_CTRL, R_GLOBAL_CTRL_EN_MASK);
}

/*
 * The timer raises the overflow when due, without a read; W1C clears it, a
 * write of 0 nothing
 */
static void test_overflow_msi_when_due(void)
{
    Pmu p;

    pmu_init(&p, "", NULL);
    pmu_start_near_overflow(&p);
    qtest_clock_step(p.qts, 500);
    g_assert_cmphex(hisi_rd(&p, HISI_PCIE_PMU_REG(INT_STAT, 0)), ==, 0);
    g_assert_false(hisi_msi_taken(&p));
    qtest_clock_step(p.qts, 4000);
    g_assert_true(hisi_msi_taken(&p));
    g_assert_cmphex(hisi_rd(&p, HISI_PCIE_PMU_REG(INT_STAT, 0)), ==,
                    R_INT_STAT_OVERFLOW_MASK);
    g_assert_cmpuint(hisi_rdq(&p, HISI_PCIE_PMU_REG(CNT, 0)), <,
                     4 * CYCLES_PER_US / 2);
    hisi_wr(&p, HISI_PCIE_PMU_REG(INT_STAT, 0), 0);
    g_assert_cmphex(hisi_rd(&p, HISI_PCIE_PMU_REG(INT_STAT, 0)), ==,
                    R_INT_STAT_OVERFLOW_MASK);
    hisi_wr(&p, HISI_PCIE_PMU_REG(INT_STAT, 0), R_INT_STAT_OVERFLOW_MASK);
    g_assert_cmphex(hisi_rd(&p, HISI_PCIE_PMU_REG(INT_STAT, 0)), ==, 0);
    hisi_fini(&p);
}

/*
 * Counter 0's overflow MSI comes @ns on from now, not a ns sooner, and
 * INT_STAT says so
 */
static void pmu_assert_overflow_msi_in(Pmu *p, int64_t ns)
{
    /* qtest refuses a clock_step of 0 ns ("could not advance time") */
    if (ns > 1) {
        qtest_clock_step(p->qts, ns - 1);
    }
    g_assert_false(hisi_msi_taken(p));
    qtest_clock_step(p->qts, 1);
    g_assert_true(hisi_msi_taken(p));
    g_assert_cmphex(hisi_rd(p, HISI_PCIE_PMU_REG(INT_STAT, 0)), ==,
                    R_INT_STAT_OVERFLOW_MASK);
}

/*
 * A bandwidth counter's overflow comes when due too, with no register read:
 * RX_MWR_FLUX counts 80 bytes per TLP (16 DW of payload, a 4-DW header),
 * one TLP per us at 0, 1000, 2000 ns, ...; 320 bytes short of its wrap,
 * the TLP at 3000 ns wraps it, counted by 3001 ns. The timer is armed by
 * the most bytes the TLPs could bring (the rate times the longest TLP, and
 * one TLP more), then finds that ns: the MSI comes at 3001 ns.
 */
static void test_overflow_flux_msi_when_due(void)
{
    Pmu p;

    pmu_init(&p, "", NULL);
    hisi_msi_taken(&p);
    pmu_start(&p, pmu_port_event(RX_MWR_FLUX, RP_PORT_BIT, LEN_BOTH));
    hisi_wrq(&p, HISI_PCIE_PMU_REG(CNT, 0), -(4ull * 80));
    hisi_wr(&p, HISI_PCIE_PMU_REG(INT_MASK, 0), 0);
    pmu_assert_overflow_msi_in(&p, 3001);
    g_assert_cmpuint(hisi_rdq(&p, HISI_PCIE_PMU_REG(CNT, 0)), ==, 0);
    /* the TLP at 4000 ns */
    qtest_clock_step(p.qts, 1000);
    g_assert_cmpuint(hisi_rdq(&p, HISI_PCIE_PMU_REG(CNT, 0)), ==, 80);
    hisi_fini(&p);
}

/* A clock, and when the cycle counter one short of its wrap wraps */
typedef struct CyclesWrap {
    const char *props;
    int64_t msi_ns;
} CyclesWrap;

/*
 * The MSI of an overflow comes with no register read, at the first ns by
 * which the counter has wrapped: EXT_CNT of a bandwidth event on a port
 * with no traffic, one cycle short of its wrap. At 900 MHz that cycle
 * ends 1.11 ns on, so the counter has not wrapped at 1 ns, has at 2 ns,
 * and the MSI comes at 2 ns; at 1 GHz it comes 1 ns on, the soonest the
 * timer can be armed.
 */
static const CyclesWrap wrap_within_a_cycle = { ",clock-freq=900000000", 2 };
static const CyclesWrap wrap_next_ns = { ",clock-freq=1000000000", 1 };

static void test_overflow_cycles_one_short(gconstpointer data)
{
    const CyclesWrap *w = data;
    Pmu p;

    pmu_init(&p, w->props, NULL);
    hisi_msi_taken(&p);
    pmu_start(&p, pmu_port_event(RX_MWR_FLUX, OTHER_PORT_BIT, LEN_BOTH));
    hisi_wrq(&p, HISI_PCIE_PMU_REG(EXT_CNT, 0), UINT64_MAX);
    hisi_wr(&p, HISI_PCIE_PMU_REG(INT_MASK, 0), 0);
    pmu_assert_overflow_msi_in(&p, w->msi_ns);
    g_assert_cmpuint(hisi_rdq(&p, HISI_PCIE_PMU_REG(EXT_CNT, 0)), ==, 0);
    hisi_fini(&p);
}

/*
 * The cycles EXT_CNT counts carry their fractions over a write: at 100 MHz
 * (a cycle every 10 ns), 15 ns after the start half a cycle is in, so the
 * counter written one cycle short of its wrap wraps 5 ns on, and the MSI
 * comes then. A bound that left out the cycle a fraction can bring ahead
 * of the clock's rate would arm the timer at 10 ns.
 */
static void test_overflow_cycles_carried(void)
{
    Pmu p;

    pmu_init(&p, ",clock-freq=100000000", NULL);
    hisi_msi_taken(&p);
    pmu_start(&p, pmu_port_event(RX_MWR_FLUX, OTHER_PORT_BIT, LEN_BOTH));
    qtest_clock_step(p.qts, 15);
    hisi_wrq(&p, HISI_PCIE_PMU_REG(EXT_CNT, 0), UINT64_MAX);
    hisi_wr(&p, HISI_PCIE_PMU_REG(INT_MASK, 0), 0);
    pmu_assert_overflow_msi_in(&p, 5);
    g_assert_cmpuint(hisi_rdq(&p, HISI_PCIE_PMU_REG(EXT_CNT, 0)), ==, 0);
    hisi_fini(&p);
}

/*
 * A delay counter far from its wrap: the timer is armed by the most delay
 * cycles its TLPs could bring, a bound that must not fall short of what
 * they bring, or the MSI comes late by the distance times the shortfall.
 * At 100000001 Hz each TLP's 500 ns are 50.0000005 cycles, 50000000.5 a
 * second (one TLP per us, at 0, 1000, 2000 ns, ...); a counter 50000000500
 * cycles short is wrapped exactly by the 10^9th TLP, at 999999999000 ns,
 * counted by 999999999001 ns. The MSI comes then. A bound of 50000000
 * cycles a second would arm the timer 10 us after it.
 */
static void test_overflow_far_delay_msi_when_due(void)
{
    const int64_t wrap_ns = 999999999000;
    Pmu p;

    pmu_init(&p, ",clock-freq=100000001", NULL);
    hisi_msi_taken(&p);
    pmu_start(&p, pmu_port_event(RX_MWR_LATENCY, RP_PORT_BIT, LEN_BOTH));
    hisi_wrq(&p, HISI_PCIE_PMU_REG(CNT, 0), -50000000500ull);
    hisi_wr(&p, HISI_PCIE_PMU_REG(INT_MASK, 0), 0);
    pmu_assert_overflow_msi_in(&p, wrap_ns + 1);
    g_assert_cmpuint(hisi_rdq(&p, HISI_PCIE_PMU_REG(CNT, 0)), ==, 0);
    hisi_fini(&p);
}

/*
 * The bound of a bandwidth counter takes the longest TLP of a stream's
 * pattern of 16 lengths, the first one too. With seed 81819240 (found by
 * a search over the model's hash) and len=1-1024, the edu's DMA writes
 * (one a us) have a pattern that begins with 1017 DWs, the other 15 being
 * 330 or fewer. Counter 1 (masked) finds a 1017-DW TLP (4068 bytes of
 * payload) by reading every ns; 15 TLPs and half a us later counter 0
 * starts 4068 bytes short of its wrap, which the next 1017-DW TLP, half a
 * us on, reaches. The MSI comes then, not when a bound of 330-DW TLPs
 * would arm the timer (2 us on).
 */
static void test_overflow_longest_first_msi_when_due(void)
{
    uint64_t flux = pmu_requester_event(RX_MWR_FLUX, EDU_BDF, LEN_PAYLOAD) |
                    R_EVENT_CTRL_EVENT_EN_MASK;
    uint64_t seen, before;
    int64_t waited = 0;
    Pmu p;

    pmu_init(&p, "", NULL);
    qtest_qmp_assert_success(p.qts, "{'execute': 'qom-set', 'arguments': "
                             "{'path': '/objects/t0', 'property': 'seed', "
                             "'value': 81819240}}");
    hisi_set_rules(p.qts, "stream=dma-write,rate=1000000,len=1-1024");
    hisi_msi_taken(&p);
    hisi_wrq(&p, HISI_PCIE_PMU_REG(EVENT_CTRL, 1), flux);
    hisi_wr(&p, A_GLOBAL_CTRL, R_GLOBAL_CTRL_EN_MASK);
    seen = hisi_rdq(&p, HISI_PCIE_PMU_REG(CNT, 1));
    do {
        g_assert_cmpint(waited, <, 17 * 1000);
        before = seen;
        qtest_clock_step(p.qts, 1);
        waited++;
        seen = hisi_rdq(&p, HISI_PCIE_PMU_REG(CNT, 1));
        g_assert_cmpuint(seen - before, <=, 1017 * 4);
    } while (seen - before != 1017 * 4);
    /* that TLP came 1 ns ago; 15.5 us after it, the next is 0.5 us on */
    qtest_clock_step(p.qts, 15500 - 1);
    hisi_wrq(&p, HISI_PCIE_PMU_REG(EVENT_CTRL, 0), flux);
    hisi_wrq(&p, HISI_PCIE_PMU_REG(CNT, 0), -(1017ull * 4));
    hisi_wr(&p, HISI_PCIE_PMU_REG(INT_MASK, 0), 0);
    pmu_assert_overflow_msi_in(&p, 500 + 1);
    hisi_fini(&p);
}

/*
 * The 64-bit registers end where INT_STAT begins: a 64-bit read of counter
 * 0's INT_STAT, the first 32-bit register after them, is refused (reads
 * 0) while a 32-bit read gives its overflow status.
 */
static void test_int_stat_not_wide(void)
{
    Pmu p;

    pmu_init(&p, "", NULL);
    pmu_start_near_overflow(&p);
    qtest_clock_step(p.qts, 5000);
    g_assert_cmphex(hisi_rd(&p, HISI_PCIE_PMU_REG(INT_STAT, 0)), ==,
                    R_INT_STAT_OVERFLOW_MASK);
    g_assert_cmphex(hisi_rdq(&p, HISI_PCIE_PMU_REG(INT_STAT, 0)), ==, 0);
    hisi_fini(&p);
}

/*
 * A counter far from its wrap arms the overflow timer far ahead, not every
 * second: counter 0 from the driver's 2^63 at 500 cycles a us (1 GHz) has
 * hundreds of years to go, and the machine's next timer is more than a
 * second away. (A bound gone wrong at 1 GHz, 2^64 cycles a second, would
 * put the wrap half a second ahead.)
 */
static void test_overflow_timer_far(void)
{
    int64_t start;
    Pmu p;

    pmu_init(&p, ",clock-freq=1000000000", NULL);
    pmu_start(&p, pmu_port_event(RX_MWR_LATENCY, RP_PORT_BIT, LEN_BOTH));
    hisi_wrq(&p, HISI_PCIE_PMU_REG(CNT, 0), COUNTER_INIT);
    hisi_wr(&p, HISI_PCIE_PMU_REG(INT_MASK, 0), 0);
    start = qtest_clock_step(p.qts, 1);
    g_assert_cmpint(qtest_clock_step_next(p.qts) - start, >,
                    1000 * 1000 * 1000ll);
    hisi_fini(&p);
}

/*
 * A flux counter 80000 bytes short of its wrap, on the DMA writes of RULES
 * (10^6 TLPs a second of 80 bytes: 16 DW of payload and the 4 of the
 * header): the overflow timer is armed when the most those TLPs count
 * could wrap it, 999 us on (one TLP's bytes counted at once), not sooner. A
 * bound too loose arms it 1 ns on, again and again.
 */
static void test_overflow_timer_flux_bound(void)
{
    int64_t start;
    Pmu p;

    pmu_init(&p, "", NULL);
    start = qtest_clock_step(p.qts, 1);
    pmu_start(&p, pmu_port_event(RX_MWR_FLUX, RP_PORT_BIT, LEN_BOTH));
    hisi_wrq(&p, HISI_PCIE_PMU_REG(CNT, 0), -80000ull);
    hisi_wr(&p, HISI_PCIE_PMU_REG(INT_MASK, 0), 0);
    g_assert_cmpint(qtest_clock_step_next(p.qts) - start, ==, 999 * 1000);
    hisi_fini(&p);
}

/*
 * The cycles of a flux event over 2^64 / 10^8 ns, some 184 s: their count
 * at 100 MHz, ns times Hz plus the tenth of a cycle carried from 1 ns
 * before, passes 2^64 and is divided in 128 bits, to 18446744073 cycles.
 */
static void test_cycles_past_2_64(void)
{
    const int64_t ns = UINT64_MAX / (1000 * 1000 * 100);
    Pmu p;

    pmu_init(&p, "", NULL);
    pmu_start(&p, pmu_port_event(RX_MWR_FLUX, RP_PORT_BIT, LEN_BOTH));
    qtest_clock_step(p.qts, 1);
    g_assert_cmpuint(hisi_rdq(&p, HISI_PCIE_PMU_REG(EXT_CNT, 0)), ==, 0);
    qtest_clock_step(p.qts, ns);
    g_assert_cmpuint(hisi_rdq(&p, HISI_PCIE_PMU_REG(EXT_CNT, 0)), ==,
                     (ns + 1) / 10);
    hisi_fini(&p);
}

/*
 * A delay of half a cycle a TLP (5 ns at 100 MHz), one cycle short of the
 * wrap: the TLP at 0 ns brings half a cycle, the one at 1000 ns the other
 * half, and the MSI comes at 1001 ns. No TLP brings a whole cycle, yet the
 * overflow timer's bound must take one at once: the half carried from
 * before completes it.
 */
static void test_overflow_half_cycle_delays(void)
{
    Pmu p;

    pmu_init(&p, "", NULL);
    hisi_set_rules(p.qts, "stream=dma-write,rate=1000000,len=16,latency=5");
    hisi_msi_taken(&p);
    pmu_start(&p, pmu_port_event(RX_MWR_LATENCY, RP_PORT_BIT, LEN_DEFAULT));
    hisi_wrq(&p, HISI_PCIE_PMU_REG(CNT, 0), UINT64_MAX);
    hisi_wr(&p, HISI_PCIE_PMU_REG(INT_MASK, 0), 0);
    pmu_assert_overflow_msi_in(&p, 1001);
    hisi_fini(&p);
}

/*
 * A latency counter one TLP's delay short of its wrap: the TLPs of RULES
 * each bring 500 ns, 50 cycles, which wrap it at its first TLP. Started at
 * 1 ns, that is the TLP at 1000 ns, and the MSI comes the ns it is counted
 * by, 1001 ns, not later.
 */
static void test_overflow_one_tlp_delay(void)
{
    Pmu p;

    pmu_init(&p, "", NULL);
    g_assert_cmpint(qtest_clock_step(p.qts, 1), ==, 1);
    hisi_msi_taken(&p);
    pmu_start(&p, pmu_port_event(RX_MWR_LATENCY, RP_PORT_BIT, LEN_DEFAULT));
    hisi_wrq(&p, HISI_PCIE_PMU_REG(CNT, 0), -(1ull * CYCLES_PER_US / 2));
    hisi_wr(&p, HISI_PCIE_PMU_REG(INT_MASK, 0), 0);
    pmu_assert_overflow_msi_in(&p, 1000);
    hisi_fini(&p);
}

/* Masked: the status, no MSI; unmasking sends it */
static void test_overflow_masked_msi_on_unmask(void)
{
    Pmu p;

    pmu_init(&p, "", NULL);
    pmu_start_near_overflow(&p);
    hisi_wr(&p, HISI_PCIE_PMU_REG(INT_MASK, 0), R_INT_MASK_OVERFLOW_MASK);
    hisi_wrq(&p, HISI_PCIE_PMU_REG(CNT, 0), -(1ull * CYCLES_PER_US / 2));
    qtest_clock_step(p.qts, 2000);
    g_assert_cmphex(hisi_rd(&p, HISI_PCIE_PMU_REG(INT_STAT, 0)), ==,
                    R_INT_STAT_OVERFLOW_MASK);
    g_assert_false(hisi_msi_taken(&p));
    hisi_wr(&p, HISI_PCIE_PMU_REG(INT_MASK, 0), 0);
    g_assert_true(hisi_msi_taken(&p));
    hisi_fini(&p);
}

/*
 * A counter one byte short of its wrap on a threshold no TLP passes: by the
 * rate of its TLPs it could wrap within ns, every ns, yet it never does. A
 * second of it passes in moments, with no overflow (arm-ccn-fuzz found the
 * overflow timer, which the PMUs share, firing every ns on such a counter).
 */
static void test_overflow_never_due(void)
{
    uint64_t flux = pmu_port_event(RX_MWR_FLUX, RP_PORT_BIT, LEN_PAYLOAD);
    int64_t start;
    Pmu p;

    pmu_init(&p, "", NULL);
    hisi_wrq(&p, HISI_PCIE_PMU_REG(EVENT_CTRL, 0),
             flux | pmu_threshold(4, true) | R_EVENT_CTRL_EVENT_EN_MASK);
    hisi_wrq(&p, HISI_PCIE_PMU_REG(CNT, 0), UINT64_MAX);
    hisi_wr(&p, HISI_PCIE_PMU_REG(INT_MASK, 0), 0);
    hisi_wr(&p, A_GLOBAL_CTRL, R_GLOBAL_CTRL_EN_MASK);
    start = g_get_monotonic_time();
    qtest_clock_step(p.qts, 1000 * 1000 * 1000);
    g_assert_cmpint(g_get_monotonic_time() - start, <, 20 * G_USEC_PER_SEC);
    g_assert_cmphex(hisi_rdq(&p, HISI_PCIE_PMU_REG(CNT, 0)), ==, UINT64_MAX);
    g_assert_cmphex(hisi_rd(&p, HISI_PCIE_PMU_REG(INT_STAT, 0)), ==, 0);
    g_assert_false(hisi_msi_taken(&p));
    hisi_fini(&p);
}

/* Bandwidth counters 0 and 1 on one trigger, which 1 TLP in 9 or fewer meets */
static uint64_t pmu_two_on_trigger(Pmu *p)
{
    uint64_t flux = pmu_port_event(RX_MWR_FLUX, RP_PORT_BIT, LEN_PAYLOAD) |
                    pmu_trigger(3, false) | R_EVENT_CTRL_EVENT_EN_MASK;

    /* TLPs of 1 to 9 DW: 1 in 9 or fewer is longer than 8 DW */
    hisi_set_rules(p->qts, "stream=dma-write,rate=1000000,len=1-9,latency=500");
    for (unsigned idx = 0; idx < 2; idx++) {
        hisi_wrq(p, HISI_PCIE_PMU_REG(EVENT_CTRL, idx), flux);
    }
    return flux;
}

/*
 * The overflow timer looks ahead at what a counter will count, and a
 * trigger met in that future must not start the counter now: two counters
 * on one trigger, one near its overflow (the timer looks ahead for it) and
 * one with its overflow masked, count the same all along.
 */
static void test_trigger_not_met_ahead(void)
{
    uint64_t near = UINT64_MAX;     /* the timer fires within ns */
    Pmu p;

    pmu_init(&p, "", NULL);
    pmu_two_on_trigger(&p);
    hisi_wrq(&p, HISI_PCIE_PMU_REG(CNT, 0), near);
    hisi_wr(&p, HISI_PCIE_PMU_REG(INT_MASK, 0), 0);
    hisi_wr(&p, A_GLOBAL_CTRL, R_GLOBAL_CTRL_EN_MASK);
    for (int step = 0; step < 200; step++) {
        qtest_clock_step(p.qts, 97);
        g_assert_cmphex(hisi_rdq(&p, HISI_PCIE_PMU_REG(CNT, 0)) - near, ==,
                        hisi_rdq(&p, HISI_PCIE_PMU_REG(CNT, 1)));
    }
    g_assert_cmpuint(hisi_rdq(&p, HISI_PCIE_PMU_REG(CNT, 1)), >, 0);
    hisi_fini(&p);
}

/*
 * A trigger met stays met until EVENT_EN is cleared: rewriting EVENT_CTRL
 * with the same value, EVENT_EN set, changes nothing. Two counters on one
 * trigger, counter 0's control written again every 10 us: they count the
 * same.
 */
static void test_trigger_kept_by_rewrite(void)
{
    uint64_t flux;
    Pmu p;

    pmu_init(&p, "", NULL);
    flux = pmu_two_on_trigger(&p);
    hisi_wr(&p, A_GLOBAL_CTRL, R_GLOBAL_CTRL_EN_MASK);
    for (int step = 0; step < 20; step++) {
        qtest_clock_step(p.qts, 10 * 1000);
        hisi_wrq(&p, HISI_PCIE_PMU_REG(EVENT_CTRL, 0), flux);
    }
    g_assert_cmpuint(hisi_rdq(&p, HISI_PCIE_PMU_REG(CNT, 1)), >, 0);
    g_assert_cmpuint(hisi_rdq(&p, HISI_PCIE_PMU_REG(CNT, 0)), ==,
                     hisi_rdq(&p, HISI_PCIE_PMU_REG(CNT, 1)));
    hisi_fini(&p);
}

/*
 * A TLP at the very ns of a write to EVENT_CTRL comes after it: a counter
 * on a trigger every TLP meets (16 DW above 8), started 500 ns before the
 * TLP at 1000 ns, has its trigger changed at 1000 ns to one no TLP meets
 * (above 16 DW), EVENT_EN kept. Its trigger was never met, and it never
 * counts.
 */
static void test_trigger_changed_at_tlp(void)
{
    uint64_t flux = pmu_port_event(RX_MWR_FLUX, RP_PORT_BIT, LEN_PAYLOAD) |
                    R_EVENT_CTRL_EVENT_EN_MASK;
    int64_t now;
    Pmu p;

    pmu_init(&p, "", NULL);
    now = qtest_clock_step(p.qts, 1);
    g_assert_cmpint(now, <, 500);
    qtest_clock_step(p.qts, 500 - now);
    pmu_start(&p, flux | pmu_trigger(3, false));
    qtest_clock_step(p.qts, 500);
    hisi_wrq(&p, HISI_PCIE_PMU_REG(EVENT_CTRL, 0),
             flux | pmu_trigger(4, false));
    qtest_clock_step(p.qts, 10 * 1000);
    g_assert_cmpuint(hisi_rdq(&p, HISI_PCIE_PMU_REG(CNT, 0)), ==, 0);
    g_assert_cmpuint(hisi_rdq(&p, HISI_PCIE_PMU_REG(EXT_CNT, 0)), ==, 0);
    hisi_fini(&p);
}

/*
 * The bytes the PMU counts for one requester's inbound memory writes are
 * the payload bytes of the records a PTT on the same traffic traces over
 * the same interval.
 */
static void test_agrees_with_ptt(void)
{
    uint64_t cnt, ext, traced = 0;
    uint32_t sts, bytes, ptt_ctrl;
    HisiDev ptt;
    Pmu p;

    pmu_init(&p, "", "-device", "hisi-ptt,bus=pcie.0,addr=0x8,traffic=t0",
             NULL);
    ptt = p;
    ptt.dev = hisi_enable(&p, PTT_DEVFN, &ptt.bar);
    for (int i = 0; i < HISI_PTT_NUM_BUFS; i++) {
        hisi_wr(&ptt, TRACE_ADDR_BASE_LO(i), (uint32_t)PTT_BUF_ADDR(i));
        hisi_wr(&ptt, TRACE_ADDR_BASE_HI(i), PTT_BUF_ADDR(i) >> 32);
    }
    hisi_wr(&ptt, A_TRACE_ADDR_SIZE, PTT_BUF_SIZE);
    hisi_wr(&ptt, A_TRACE_INT_MASK, R_TRACE_INT_MASK_BUFS_MASK);
    /* Both start at this virtual time: 8DW, inbound P of 01:00.0 */
    ptt_ctrl = FIELD_DP32(R_TRACE_CTRL_EN_MASK | R_TRACE_CTRL_DATA_FORMAT_MASK |
                          R_TRACE_CTRL_FILTER_MODE_MASK, TRACE_CTRL, RXTX_SEL,
                          PTT_DIR_INBOUND_B);
    ptt_ctrl = FIELD_DP32(ptt_ctrl, TRACE_CTRL, TYPE_SEL, PTT_TYPE_POSTED);
    ptt_ctrl = FIELD_DP32(ptt_ctrl, TRACE_CTRL, TARGET_SEL, EDU_BDF);
    hisi_wr(&ptt, A_TRACE_CTRL, R_TRACE_CTRL_RST_MASK);
    hisi_wr(&ptt, A_TRACE_CTRL, ptt_ctrl);
    pmu_count(&p, pmu_requester_event(RX_MWR_FLUX, EDU_BDF, LEN_PAYLOAD),
              3 * 1000 * 1000 + 123, &cnt, &ext);
    hisi_wr(&ptt, A_TRACE_CTRL, 0);
    sts = hisi_rd(&ptt, A_TRACE_WR_STS);
    g_assert_cmphex(FIELD_EX32(sts, TRACE_WR_STS, BUFFER), ==, 0);
    bytes = FIELD_EX32(sts, TRACE_WR_STS, WRITE);
    for (uint32_t off = 0; off < bytes; off += PTT_REC8_SIZE) {
        uint32_t dw0 = qtest_readl(p.qts, PTT_BUF_BASE + off +
                                   PTT_REC8_HDR_DW0);

        traced += (dw0 & TLP_LENGTH_DW) * 4;
    }
    g_test_message("PMU %" PRIu64 " bytes, PTT %" PRIu64 " bytes in %u "
                   "records", cnt, traced, bytes / PTT_REC8_SIZE);
    g_assert_cmpuint(traced, >, 0);
    g_assert_cmpuint(cnt, ==, traced);
    g_free(ptt.dev);
    hisi_fini(&p);
}

/*
 * A destination refuses a hisi-pcie-pmu section of version 1 (the layout
 * before the PMU engine, which it would misread); the same stream at
 * version 2 loads.
 */
static void test_stream_old_version_refused(void)
{
    hisi_assert_old_section_refused(pmu_init, "hisi-pcie-pmu", 2);
}

/*
 * Version 1's layout has no counters (they are fields of version 2): a
 * stream in it is refused too, as the destination's counters would stay
 * as reset, not be the source's. The counters' part of a stream of today,
 * each counter's EVENT_CTRL (be64), INT_STAT and INT_MASK (be32 each) and
 * whether its trigger was met (a byte), is cut out, and the section
 * claims version 1.
 */
static void test_stream_v1_layout_refused(void)
{
    const size_t counter_bytes = 8 + 4 + 4 + 1;
    const unsigned last = HISI_PCIE_PMU_COUNTERS - 1;
    uint64_t first = pmu_port_event(RX_MWR_FLUX, RP_PORT_BIT, LEN_PAYLOAD);
    uint64_t other = pmu_port_event(RX_MWR_LATENCY, RP_PORT_BIT,
                                    LEN_DEFAULT);
    g_autoptr(GByteArray) stream = NULL;
    size_t at;
    Pmu src;

    pmu_init(&src, "", NULL);
    hisi_wrq(&src, HISI_PCIE_PMU_REG(EVENT_CTRL, 0), first);
    hisi_wrq(&src, HISI_PCIE_PMU_REG(EVENT_CTRL, last), other);
    stream = hisi_save_stream(&src);
    hisi_fini(&src);
    at = hisi_stream_section_fields(stream, "hisi-pcie-pmu");
    while (ldq_be_p(stream->data + at) != first) {
        at++;
        g_assert_cmpuint(at + HISI_PCIE_PMU_COUNTERS * counter_bytes, <=,
                         stream->len);
    }
    g_assert_cmphex(ldq_be_p(stream->data + at + last * counter_bytes), ==,
                    other);
    g_byte_array_remove_range(stream, at,
                              HISI_PCIE_PMU_COUNTERS * counter_bytes);
    hisi_stream_set_section_version(stream, "hisi-pcie-pmu", 1);
    g_assert_false(hisi_load_stream(stream, pmu_init));
}

/* Counting goes on after migration from where it was. */
static void test_migration(void)
{
    uint64_t lat = pmu_port_event(RX_MWR_LATENCY, RP_PORT_BIT, LEN_DEFAULT) |
                   R_EVENT_CTRL_EVENT_EN_MASK;
    uint64_t ext;
    Pmu src, dst;

    pmu_init(&src, "", NULL);
    hisi_wrq(&src, HISI_PCIE_PMU_REG(EVENT_CTRL, 2), lat);
    hisi_wr(&src, HISI_PCIE_PMU_REG(INT_MASK, 2), 0);
    hisi_wr(&src, A_GLOBAL_CTRL, R_GLOBAL_CTRL_EN_MASK);
    qtest_clock_step(src.qts, 1000 * 1000);
    ext = hisi_rdq(&src, HISI_PCIE_PMU_REG(EXT_CNT, 2));
    g_assert_cmpuint(ext, ==, 1000);
    hisi_migrate(&src, &dst, pmu_init);
    g_assert_cmphex(hisi_rdq(&dst, HISI_PCIE_PMU_REG(EVENT_CTRL, 2)), ==,
                    lat);
    g_assert_cmphex(hisi_rd(&dst, HISI_PCIE_PMU_REG(INT_MASK, 2)), ==, 0);
    g_assert_cmpuint(hisi_rdq(&dst, HISI_PCIE_PMU_REG(EXT_CNT, 2)), ==, ext);
    qtest_clock_step(dst.qts, 1000 * 1000);
    g_assert_cmpuint(hisi_rdq(&dst, HISI_PCIE_PMU_REG(EXT_CNT, 2)), ==,
                     ext + 1000);
    hisi_fini(&dst);
    hisi_fini(&src);
}

/*
 * The stream says which version of its VMState each section holds, and a
 * QEMU loads only the versions it knows: the PMU's is 2 (and 2 the only
 * one it loads), the traffic object's 3, the tap's of the real traffic
 * (which a traffic object with source=real has) 1, so that a stream of
 * this QEMU loads into another build of the same devices.
 */
static void test_stream_versions(void)
{
    g_autoptr(GByteArray) stream = NULL;
    HisiEndpoint edu;
    Pmu p;

    pmu_init_real(&p, &edu);
    stream = hisi_save_stream(&p);
    g_assert_cmpuint(hisi_stream_section_version(stream, "hisi-pcie-pmu"),
                     ==, 2);
    g_assert_cmpuint(hisi_stream_section_version(stream, "hisi-traffic"),
                     ==, 3);
    g_assert_cmpuint(hisi_stream_section_version(stream, "hisi-tap"), ==, 1);
    g_free(edu.dev);
    hisi_fini(&p);
}

/*
 * A copy of @stream whose hisi-traffic section has the @len bytes of
 * @rules for its rules text (its fields: the seed, the length of the
 * text with its NUL as a be32, the text)
 */
static GByteArray *stream_with_rules(GByteArray *stream, const void *rules,
                                     uint32_t len)
{
    size_t at = hisi_stream_section_fields(stream, "hisi-traffic") + 8;
    size_t end = at + 4 + ldl_be_p(stream->data + at);
    GByteArray *copy = g_byte_array_new();
    uint8_t be_len[4];

    g_assert_cmpuint(end, <=, stream->len);
    stl_be_p(be_len, len);
    g_byte_array_append(copy, stream->data, at);
    g_byte_array_append(copy, be_len, sizeof(be_len));
    g_byte_array_append(copy, rules, len);
    g_byte_array_append(copy, stream->data + end, stream->len - end);
    return copy;
}

/* Sizes of entries of the hisi-traffic section (vmstate_traffic_*) */
#define STREAM_PHASE_SIZE   20          /* t, k, left */
#define STREAM_CORE_SIZE    (4 + 5)     /* its ports, five tune levels */
#define STREAM_EP_SIZE      (4 + 7 * STREAM_PHASE_SIZE)
#define STREAM_NIC_SIZE     16          /* func, port, plugged, n_phase */

/*
 * A copy of @stream, whose hisi-traffic section holds no NIC function,
 * with one: 01:00.0 below 00:10.0, plugged at 0, with @n_phase phases
 * (all 0). Its fields after the rules: paused, epoch, the cores, the
 * endpoints, then the NIC functions, each array after its be32 count.
 */
static GByteArray *stream_with_nic(GByteArray *stream, int32_t n_phase)
{
    static const uint8_t phase[STREAM_PHASE_SIZE];
    size_t at = hisi_stream_section_fields(stream, "hisi-traffic") + 8;
    GByteArray *copy = g_byte_array_new();
    uint8_t nic[STREAM_NIC_SIZE] = { 0 };
    uint8_t n_nics[4];

    at += 4 + ldl_be_p(stream->data + at) + 1 + 8;
    at += 4 + ldl_be_p(stream->data + at) * STREAM_CORE_SIZE;
    at += 4 + ldl_be_p(stream->data + at) * STREAM_EP_SIZE;
    g_assert_cmpuint(at + 4, <=, stream->len);
    g_assert_cmpint(ldl_be_p(stream->data + at), ==, 0);
    stl_be_p(n_nics, 1);
    stw_be_p(nic, EDU_BDF);
    stw_be_p(nic + 2, RP_BDF);
    stl_be_p(nic + 12, n_phase);
    g_byte_array_append(copy, stream->data, at);
    g_byte_array_append(copy, n_nics, sizeof(n_nics));
    g_byte_array_append(copy, nic, sizeof(nic));
    for (int32_t i = 0; i < n_phase; i++) {
        g_byte_array_append(copy, phase, sizeof(phase));
    }
    g_byte_array_append(copy, stream->data + at + 4, stream->len - at - 4);
    return copy;
}

/*
 * A destination refuses a hisi-traffic section it cannot read, and the
 * migration fails: one of version 2 (the layout before NIC functions and
 * ring nodes were in it), rules of no bytes, rules whose last byte is not
 * their NUL (here an empty text, then a stray byte), a NIC function with
 * fewer phases than RoCE's two streams (each function is checked, the
 * first too). The same stream with valid rules ("", its NUL) loads, and
 * so does one with a NIC function of two phases.
 */
static void test_traffic_stream_refused(void)
{
    static const char unterminated[] = { '\0', 'x' };
    g_autoptr(GByteArray) stream = NULL;
    g_autoptr(GByteArray) version_2 = NULL;
    g_autoptr(GByteArray) no_rules = NULL;
    g_autoptr(GByteArray) empty_rules = NULL;
    g_autoptr(GByteArray) stray_byte = NULL;
    g_autoptr(GByteArray) roce_only = NULL;
    g_autoptr(GByteArray) one_phase = NULL;
    Pmu p;

    pmu_init(&p, "", NULL);
    stream = hisi_save_stream(&p);
    hisi_fini(&p);
    empty_rules = stream_with_rules(stream, "", 1);
    g_assert_true(hisi_load_stream(empty_rules, pmu_init));
    version_2 = g_byte_array_new();
    g_byte_array_append(version_2, stream->data, stream->len);
    hisi_stream_set_section_version(version_2, "hisi-traffic", 2);
    g_assert_false(hisi_load_stream(version_2, pmu_init));
    no_rules = stream_with_rules(stream, "", 0);
    g_assert_false(hisi_load_stream(no_rules, pmu_init));
    stray_byte = stream_with_rules(stream, unterminated,
                                   sizeof(unterminated));
    g_assert_false(hisi_load_stream(stray_byte, pmu_init));
    roce_only = stream_with_nic(stream, 2);
    g_assert_true(hisi_load_stream(roce_only, pmu_init));
    one_phase = stream_with_nic(stream, 1);
    g_assert_false(hisi_load_stream(one_phase, pmu_init));
}

/*
 * A load that fails within the hisi-traffic section, after its pre_load
 * freed the tables to take the stream's (this stream ends after the seed),
 * leaves an object that QMP can go on using: it has no rules, and new ones
 * apply to the endpoints, NIC functions and ring nodes it holds: none. The
 * edu joins it when the PMU counts it, with RULES's 1000 TLPs in 1 ms.
 */
static void test_traffic_load_fails_midway(void)
{
    g_autoptr(GByteArray) stream = NULL;
    g_autoptr(GByteArray) cut = g_byte_array_new();
    g_autofree char *rules_after_load = NULL;
    g_autofree char *rules_set = NULL;
    uint64_t cnt, ext;
    Pmu p, dst;

    pmu_init(&p, "", NULL);
    stream = hisi_save_stream(&p);
    hisi_fini(&p);
    g_byte_array_append(cut, stream->data,
                        hisi_stream_section_fields(stream, "hisi-traffic") +
                        8);
    g_assert_false(hisi_load_stream_into(&dst, cut, pmu_init));
    rules_after_load = hisi_rules(dst.qts);
    g_assert_cmpstr(rules_after_load, ==, "");
    hisi_set_rules(dst.qts, RULES);
    rules_set = hisi_rules(dst.qts);
    g_assert_cmpstr(rules_set, ==, RULES);
    pmu_count(&dst, pmu_port_event(RX_MWR_FLUX, RP_PORT_BIT, LEN_PAYLOAD),
              1000 * 1000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 1000 * 64);
    hisi_fini(&dst);
}

/* Every counter's CNT, EXT_CNT and status */
static void pmu_twin_log_counters(Pmu *p, HisiTwinLog *log)
{
    for (int i = 0; i < HISI_PCIE_PMU_COUNTERS; i++) {
        hisi_twin_log_at(log, "CNT", i,
                         hisi_rdq(p, HISI_PCIE_PMU_REG(CNT, i)));
        hisi_twin_log_at(log, "EXT_CNT", i,
                         hisi_rdq(p, HISI_PCIE_PMU_REG(EXT_CNT, i)));
        hisi_twin_log_at(log, "INT_STAT", i,
                         hisi_rd(p, HISI_PCIE_PMU_REG(INT_STAT, i)));
    }
}

/* perf starts counter 1, its interrupt unmasked: it counts, no overflow */
static void pmu_twin_start_counter_1(Pmu *p, HisiTwinLog *log)
{
    hisi_wrq(p, HISI_PCIE_PMU_REG(EVENT_CTRL, 1),
             pmu_port_event(TX_MWR_FLUX, RP_PORT_BIT, LEN_DEFAULT) |
             R_EVENT_CTRL_EVENT_EN_MASK);
    hisi_wr(p, HISI_PCIE_PMU_REG(INT_MASK, 1), 0);
    /* no second MSI for the overflow still pending */
    g_assert_false(hisi_twin_log(log, "MSI", hisi_msi_taken(p)));
}

/*
 * One run: counter 0 brought to its overflow in small clock steps, and
 * there (migrated if @migrate) its status set and its MSI in RAM, not
 * taken; counter 3 due to overflow 26 TLPs later, counter 2 counting
 * bytes all along (and parts of a cycle), counter 4 since its trigger.
 * Then the driver: takes the MSI, starts another event (first, or if
 * @timer_first after counter 3's overflow), lets counter 3's overflow come
 * by the clock alone (its MSI from the device's timer), clears both
 * statuses, and reads the counters over a few more steps. What it saw
 * goes to @log.
 */
static void pmu_twin_run(bool timer_first, bool migrate, HisiTwinLog *log)
{
    uint64_t lat = pmu_port_event(RX_MWR_LATENCY, RP_PORT_BIT, LEN_DEFAULT);
    static const int64_t steps[] = { 9, 999, 33333, 1000 * 1000 + 17 };
    Pmu src, dst, *p = &src;
    int polls;

    pmu_init(p, "", NULL);
    qtest_clock_step(p->qts, 7919);
    hisi_wrq(p, HISI_PCIE_PMU_REG(EVENT_CTRL, 2),
             pmu_port_event(RX_MWR_FLUX, RP_PORT_BIT, LEN_DEFAULT) |
             R_EVENT_CTRL_EVENT_EN_MASK);
    hisi_wrq(p, HISI_PCIE_PMU_REG(EVENT_CTRL, 3),
             lat | R_EVENT_CTRL_EVENT_EN_MASK);
    hisi_wrq(p, HISI_PCIE_PMU_REG(CNT, 3), -(30ull * CYCLES_PER_US / 2));
    hisi_wr(p, HISI_PCIE_PMU_REG(INT_MASK, 3), 0);
    hisi_wrq(p, HISI_PCIE_PMU_REG(EVENT_CTRL, 4),
             pmu_port_event(RX_MWR_FLUX, RP_PORT_BIT, LEN_PAYLOAD) |
             pmu_trigger(3, false) | R_EVENT_CTRL_EVENT_EN_MASK);
    pmu_start_near_overflow(p);
    for (polls = 0; !hisi_rd(p, HISI_PCIE_PMU_REG(INT_STAT, 0)); polls++) {
        g_assert_cmpint(polls, <, 1000);
        qtest_clock_step(p->qts, 97);
    }
    hisi_twin_log(log, "polls to the overflow", polls);
    g_assert_cmphex(qtest_readl(p->qts, HISI_MSI_ADDR), ==, HISI_MSI_DATA);
    /* Counted up to this odd time: parts of a cycle, a trigger met */
    pmu_twin_log_counters(p, log);
    g_assert_cmpuint(hisi_rdq(p, HISI_PCIE_PMU_REG(CNT, 4)), >, 0);
    if (migrate) {
        pmu_init(&dst, "", "-incoming", "defer", NULL);
        hisi_migrate_into(src.qts, dst.qts);
        hisi_fini(&src);
        p = &dst;
    }
    g_assert_true(hisi_twin_log(log, "MSI", hisi_msi_taken(p)));
    if (!timer_first) {
        pmu_twin_start_counter_1(p, log);
    }
    /* Counter 3's overflow, with no register access to find it */
    qtest_clock_step(p->qts, 50 * 1000);
    g_assert_true(hisi_twin_log(log, "MSI", hisi_msi_taken(p)));
    if (timer_first) {
        pmu_twin_start_counter_1(p, log);
    }
    pmu_twin_log_counters(p, log);
    g_assert_cmphex(hisi_rd(p, HISI_PCIE_PMU_REG(INT_STAT, 0)), ==,
                    R_INT_STAT_OVERFLOW_MASK);
    g_assert_cmphex(hisi_rd(p, HISI_PCIE_PMU_REG(INT_STAT, 3)), ==,
                    R_INT_STAT_OVERFLOW_MASK);
    /* the handler: W1C of each status it finds */
    for (int i = 0; i < HISI_PCIE_PMU_COUNTERS; i++) {
        if (hisi_rd(p, HISI_PCIE_PMU_REG(INT_STAT, i))) {
            hisi_twin_log(log, "handled", i);
            hisi_wr(p, HISI_PCIE_PMU_REG(INT_STAT, i),
                    R_INT_STAT_OVERFLOW_MASK);
            g_assert_cmphex(hisi_rd(p, HISI_PCIE_PMU_REG(INT_STAT, i)), ==,
                            0);
        }
    }
    for (int i = 0; i < ARRAY_SIZE(steps); i++) {
        qtest_clock_step(p->qts, steps[i]);
        pmu_twin_log_counters(p, log);
        hisi_twin_log(log, "MSI", hisi_msi_taken(p));
    }
    hisi_fini(p);
}

/*
 * Migrated with an overflow pending and its MSI not taken, the PMU goes
 * on as a twin that is not migrated: the status stays set until the W1C,
 * the MSI is there once, a timer's overflow comes on time, and every
 * counter then counts the same. @data: whether the next overflow comes
 * before the driver's next register write, which would re-arm the timer.
 */
static void test_migration_overflow_pending(gconstpointer data)
{
    bool timer_first = GPOINTER_TO_INT(data);
    HisiTwinLog twin, migrated;

    hisi_twin_init(&twin);
    hisi_twin_init(&migrated);
    pmu_twin_run(timer_first, false, &twin);
    pmu_twin_run(timer_first, true, &migrated);
    hisi_twin_assert_same(&migrated, &twin);
    hisi_twin_free(&migrated);
    hisi_twin_free(&twin);
}

/*
 * Hot-plug: an edu endpoint below root port 00:11.0 (bus 2, "rp1", port
 * bit OTHER_PORT_BIT), counted alone by that port's filter: its DMA writes
 * of RULES, 1 per us of 64 bytes of payload, TLP k at 1000 k ns after it
 * appears.
 */
#define RP1_DEVFN           QPCI_DEVFN(0x11, 0)
#define RP1_ARGS            "pcie-root-port,id=rp1,bus=pcie.0,chassis=2," \
                            "addr=0x11"
#define RP1_FN1_BDF         0x0201  /* function 1 of the device below rp1 */
#define HP_TLP_NS           1000
#define HP_TLP_PAYLOAD      64
#define PAUSE_NS            500     /* half a TLP interval */

/*
 * The PMU with root port rp1 (bus 2) and below it -device @fn0, then
 * -device @fn1, those that are not NULL (@fn1 only with @fn0)
 */
static void pmu_init_rp1(Pmu *p, const char *fn0, const char *fn1)
{
    g_assert(fn0 || !fn1);
    /* pmu_init()'s arguments end at the first NULL: an absent function */
    pmu_init(p, "", "-device", RP1_ARGS, fn0 ? "-device" : NULL, fn0,
             fn1 ? "-device" : NULL, fn1, NULL);
    hisi_number_bus(p, RP1_DEVFN, 2);
}

/* Start counting the DMA write payload below root ports @ports on counter 0 */
static void pmu_start_payload(Pmu *p, uint16_t ports)
{
    pmu_start(p, pmu_port_event(RX_MWR_FLUX, ports, LEN_PAYLOAD));
}

/*
 * An endpoint hot-plugged while a counter runs: the count covers only the
 * time since the plug (700 TLPs in 700 us), none of the 300 us before.
 */
static void test_hotplug_counted_from_plug(void)
{
    Pmu p;

    pmu_init_rp1(&p, NULL, NULL);
    pmu_start_payload(&p, OTHER_PORT_BIT);
    qtest_clock_step(p.qts, 300 * 1000);
    hisi_hotplug(&p, "rp1", RP1_DEVFN, "edu", "hp0");
    qtest_clock_step(p.qts, 700 * 1000);
    g_assert_cmpuint(hisi_rdq(&p, HISI_PCIE_PMU_REG(CNT, 0)), ==,
                     700 * 1000 / HP_TLP_NS * HP_TLP_PAYLOAD);
    hisi_fini(&p);
}

/*
 * An endpoint hot-unplugged while a counter runs: its last interval (from
 * the counter's last update to the removal) counts, exactly the TLPs the
 * closed form puts before the removal; nothing after. It was there from
 * the start: TLP k at 1000 k ns. With @data, the counter counts rp0's port
 * too, so that the traffic met rp0's edu (01:00.0) before hp0, which is
 * then not the first endpoint it knows: the removal drops hp0's entry
 * alone, and 01:00.0's TLPs (also TLP k at 1000 k ns) go on counting.
 */
static void test_hot_unplug_counted_to_removal(gconstpointer data)
{
    bool with_rp0 = GPOINTER_TO_INT(data);
    uint16_t ports = OTHER_PORT_BIT | (with_rp0 ? RP_PORT_BIT : 0);
    int64_t start, gone, end;
    uint64_t tlps, rp0_tlps_after = 0;
    Pmu p;

    pmu_init_rp1(&p, "edu,bus=rp1,id=hp0", NULL);
    start = qtest_clock_step(p.qts, 1234);
    pmu_start_payload(&p, ports);
    gone = qtest_clock_step(p.qts, 300 * 1000 + 567);
    hisi_hot_unplug(&p, RP1_DEVFN, "hp0");
    /* hp0's TLPs up to the removal, and as many of 01:00.0's if counted */
    tlps = (with_rp0 ? 2 : 1) *
           (DIV_ROUND_UP(gone, HP_TLP_NS) - DIV_ROUND_UP(start, HP_TLP_NS));
    g_assert_cmpuint(hisi_rdq(&p, HISI_PCIE_PMU_REG(CNT, 0)), ==,
                     tlps * HP_TLP_PAYLOAD);
    end = qtest_clock_step(p.qts, 700 * 1000);
    if (with_rp0) {
        rp0_tlps_after = DIV_ROUND_UP(end, HP_TLP_NS) -
                         DIV_ROUND_UP(gone, HP_TLP_NS);
    }
    g_assert_cmpuint(hisi_rdq(&p, HISI_PCIE_PMU_REG(CNT, 0)), ==,
                     (tlps + rp0_tlps_after) * HP_TLP_PAYLOAD);
    hisi_fini(&p);
}

/* Pause (@paused) or resume the traffic of t0, as QMP does */
static void pmu_traffic_pause(Pmu *p, bool paused)
{
    qtest_qmp_assert_success(p->qts, "{'execute': 'qom-set', 'arguments': "
                             "{'path': 't0', 'property': 'paused', "
                             "'value': %i}}", paused);
}

/*
 * An endpoint hot-unplugged below a port no counter counts, so that the
 * traffic never met it while it met rp0's edu (01:00.0): the removal
 * takes nothing of 01:00.0 with it, whose streams go on from where they
 * stand, not afresh from time 0. A pause of 500 ns in the middle of a TLP
 * interval tells the two apart: TLP k of 01:00.0 is at 1000 k ns before
 * it and 1000 k + 500 ns after it, so that DIV_ROUND_UP(t - 500, 1000) of
 * them are before any time t after it.
 */
static void test_hot_unplug_uncounted_port(void)
{
    int64_t gone, end;
    Pmu p;

    pmu_init_rp1(&p, "edu,bus=rp1,id=hp0", NULL);
    pmu_start_payload(&p, RP_PORT_BIT);
    qtest_clock_step(p.qts, 100 * 1000 + 250);
    pmu_traffic_pause(&p, true);
    qtest_clock_step(p.qts, PAUSE_NS);
    pmu_traffic_pause(&p, false);
    gone = qtest_clock_step(p.qts, 200 * 1000 + 50);
    hisi_hot_unplug(&p, RP1_DEVFN, "hp0");
    g_assert_cmpuint(hisi_rdq(&p, HISI_PCIE_PMU_REG(CNT, 0)), ==,
                     DIV_ROUND_UP(gone - PAUSE_NS, HP_TLP_NS) *
                     HP_TLP_PAYLOAD);
    /* Not a whole number of intervals: afresh, 01:00.0 would send one more */
    end = qtest_clock_step(p.qts, 700 * 1000 + 300);
    g_assert_cmpuint(hisi_rdq(&p, HISI_PCIE_PMU_REG(CNT, 0)), ==,
                     DIV_ROUND_UP(end - PAUSE_NS, HP_TLP_NS) *
                     HP_TLP_PAYLOAD);
    hisi_fini(&p);
}

/*
 * An endpoint hot-unplugged below a root port outside the PMU's range
 * (bdf-max 0x87: rp0 alone) is none of its business, even as it leaves: a
 * counter on the port bits of both rp0 and rp1 counts rp0's edu (01:00.0)
 * alone, never hp0's TLPs below rp1, which come as often.
 */
static void test_hot_unplug_outside_range(void)
{
    int64_t start, gone;
    Pmu p;

    pmu_init(&p, ",bdf-max=0x87", "-device", RP1_ARGS, "-device",
             "edu,bus=rp1,id=hp0", NULL);
    hisi_number_bus(&p, RP1_DEVFN, 2);
    start = qtest_clock_step(p.qts, 1234);
    pmu_start_payload(&p, RP_PORT_BIT | OTHER_PORT_BIT);
    gone = qtest_clock_step(p.qts, 300 * 1000 + 567);
    hisi_hot_unplug(&p, RP1_DEVFN, "hp0");
    g_assert_cmpuint(hisi_rdq(&p, HISI_PCIE_PMU_REG(CNT, 0)), ==,
                     (DIV_ROUND_UP(gone, HP_TLP_NS) -
                      DIV_ROUND_UP(start, HP_TLP_NS)) * HP_TLP_PAYLOAD);
    hisi_fini(&p);
}

/*
 * Two endpoints below one root port, on the two downstream ports of a
 * switch below rp1 (HISI_SWITCH_ARGS): A at 04:00.0 and B at 05:00.0, both
 * there from the start, counted by rp1's port. A 500 ns pause moves their
 * TLPs to 1000 k + 500 ns; B removed at 300.8 us leaves A's streams where
 * they stand, though A's port is B's: 700 of A's TLPs in the 700.3 us after
 * (A afresh from the removal would send 701).
 */
static void test_unplug_keeps_same_port(void)
{
    int64_t gone, end;
    uint64_t before;
    Pmu p;

    pmu_init(&p, "", "-device", RP1_ARGS, HISI_SWITCH_ARGS,
             "-device", "edu,bus=dn0", "-device", "edu,bus=dn1,id=b", NULL);
    hisi_number_switch(&p, RP1_DEVFN);
    pmu_start_payload(&p, OTHER_PORT_BIT);
    qtest_clock_step(p.qts, 100 * 1000 + 250);
    pmu_traffic_pause(&p, true);
    qtest_clock_step(p.qts, PAUSE_NS);
    pmu_traffic_pause(&p, false);
    gone = qtest_clock_step(p.qts, 200 * 1000 + 50);
    hisi_hot_unplug(&p, HISI_SWITCH_DN1_BDF, "b");
    before = hisi_rdq(&p, HISI_PCIE_PMU_REG(CNT, 0));
    end = qtest_clock_step(p.qts, 700 * 1000 + 300);
    g_assert_cmpuint(hisi_rdq(&p, HISI_PCIE_PMU_REG(CNT, 0)) - before, ==,
                     (DIV_ROUND_UP(end - PAUSE_NS, HP_TLP_NS) -
                      DIV_ROUND_UP(gone - PAUSE_NS, HP_TLP_NS)) *
                     HP_TLP_PAYLOAD);
    hisi_fini(&p);
}

/*
 * Two functions of one device below rp1, each with its own streams: 02:00.0
 * with the DMA writes of RULES, 02:00.1 a quarter as many (TLP k at 4000 k
 * ns)
 */
static void pmu_set_two_function_rules(Pmu *p)
{
    hisi_set_rules(p->qts, RULES ";ep=02:00.1,stream=dma-write,rate=250000");
}

/*
 * The two functions of pmu_set_two_function_rules(): a count by the port
 * is the sum of both, 1000 + 250 TLPs in 1 ms; then, the traffic having met
 * 02:00.0 first, one by requester 02:00.1 its 250 alone, with its own
 * Requester ID.
 */
static void test_two_functions_below_one_port(void)
{
    uint64_t cnt, ext;
    Pmu p;

    pmu_init_rp1(&p, "edu,bus=rp1,addr=0.0,multifunction=on",
                 "edu,bus=rp1,addr=0.1");
    pmu_set_two_function_rules(&p);
    pmu_count(&p, pmu_port_event(RX_MWR_FLUX, OTHER_PORT_BIT, LEN_PAYLOAD),
              1000 * 1000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, (1000 + 250) * HP_TLP_PAYLOAD);
    pmu_count(&p, pmu_requester_event(RX_MWR_FLUX, RP1_FN1_BDF, LEN_PAYLOAD),
              1000 * 1000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 250 * HP_TLP_PAYLOAD);
    hisi_fini(&p);
}

/*
 * A counter counts every endpoint below its root ports, however many: 17
 * downstream ports of a switch below rp1, each with a device of 8
 * functions, are 136 endpoints, and their inbound completions 272
 * streams, each of 1000 TLPs of 16 DW in 1 ms (the CPU's reads of the
 * endpoint and the peer-to-peer reads it answers).
 */
#define MANY_PORTS          17
#define MANY_FUNCTIONS      (MANY_PORTS * 8)

static void test_many_endpoints_all_counted(void)
{
    g_autoptr(GPtrArray) args = hisi_args_topology(RULES);
    uint64_t cnt, ext;
    Pmu p;

    pmu_add_device(args, "");
    hisi_args_add(args, "-device", RP1_ARGS, "-device",
                  "x3130-upstream,id=up,bus=rp1", NULL);
    for (unsigned port = 0; port < MANY_PORTS; port++) {
        hisi_args_add_device(args, "xio3130-downstream,id=dn%u,bus=up,"
                             "chassis=5,slot=%u,addr=%x", port, port, port);
        for (unsigned fn = 0; fn < 8; fn++) {
            hisi_args_add_device(args, "pci-testdev,bus=dn%u,addr=0.%u%s",
                                 port, fn, fn ? "" : ",multifunction=on");
        }
    }
    hisi_init(&p, PMU_DEVFN, args);
    hisi_number_buses(&p, RP1_DEVFN, 2, 3 + MANY_PORTS);
    hisi_number_buses(&p, HISI_SWITCH_UP_BDF, 3, 3 + MANY_PORTS);
    for (unsigned port = 0; port < MANY_PORTS; port++) {
        hisi_number_bus(&p, HISI_SWITCH_DN0_BDF + (port << 3), 4 + port);
    }
    hisi_set_rules(p.qts, "stream=all,rate=0;"
                   "stream=mmio-read-cpl,rate=1000000,len=16;"
                   "stream=p2p-cpl,rate=1000000,len=16");
    pmu_count(&p, pmu_port_event(RX_CPL_FLUX, OTHER_PORT_BIT, LEN_PAYLOAD),
              1000 * 1000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, MANY_FUNCTIONS * 2 * 1000 * 16 * 4);
    hisi_fini(&p);
}

/*
 * A trigger met in any stream a counter counts starts it for all: below
 * rp1, 02:00.0 writes 16 DW a us and 02:00.1 32 DW every 4 us (TLP k at
 * 4000 k ns), so a count by the port from 1 ns on, from the first TLP
 * longer than 16 DW, starts at 02:00.1's at 4000 ns. In 1 ms it holds
 * 02:00.0's 997 TLPs from 4000 ns on and 02:00.1's 250, and the cycles
 * from 4000 ns.
 */
static void test_trigger_met_by_second_function(void)
{
    uint64_t cnt, ext;
    Pmu p;

    pmu_init_rp1(&p, "edu,bus=rp1,addr=0.0,multifunction=on",
                 "edu,bus=rp1,addr=0.1");
    hisi_set_rules(p.qts, RULES ";ep=02:00.1,stream=dma-write,"
                   "rate=250000,len=32");
    qtest_clock_step(p.qts, 1);
    pmu_count(&p, pmu_port_event(RX_MWR_FLUX, OTHER_PORT_BIT, LEN_PAYLOAD) |
              pmu_trigger(4, false), 1000 * 1000, &cnt, &ext);
    g_assert_cmpuint(cnt, ==, 997 * HP_TLP_PAYLOAD + 250 * 2 * HP_TLP_PAYLOAD);
    g_assert_cmpuint(ext, ==, (1000 * 1000 + 1 - 4000) * CYCLES_PER_US / 1000);
    hisi_fini(&p);
}

/*
 * The overflow timer's bound adds up every stream a counter counts: a
 * count by the port of both functions' whole TLPs (80 bytes) meets
 * 02:00.0's at 0, 1000, 2000 ns, ... and 02:00.1's at 0, 4000, 8000 ns,
 * ...; 50 TLPs short of its wrap, the 50th comes at 39000 ns, and the MSI
 * at 39001 ns. A bound from one function alone comes 10 us late or more.
 */
static void test_overflow_two_functions_msi_when_due(void)
{
    Pmu p;

    pmu_init_rp1(&p, "edu,bus=rp1,addr=0.0,multifunction=on",
                 "edu,bus=rp1,addr=0.1");
    pmu_set_two_function_rules(&p);
    hisi_msi_taken(&p);
    pmu_start(&p, pmu_port_event(RX_MWR_FLUX, OTHER_PORT_BIT, LEN_BOTH));
    hisi_wrq(&p, HISI_PCIE_PMU_REG(CNT, 0), -(50ull * 80));
    hisi_wr(&p, HISI_PCIE_PMU_REG(INT_MASK, 0), 0);
    pmu_assert_overflow_msi_in(&p, 39001);
    g_assert_cmpuint(hisi_rdq(&p, HISI_PCIE_PMU_REG(CNT, 0)), ==, 0);
    hisi_fini(&p);
}

/*
 * The two functions of two-functions-below-one-port, 2 ms on: when
 * 02:00.1's next TLP comes, in ns from now to within 100 ns, the same
 * rules set again halfway if @rechange (a change of nothing)
 */
static int64_t two_functions_next_tlp(bool rechange)
{
    uint64_t cnt, ext;
    int64_t ns = 0;
    Pmu p;

    pmu_init_rp1(&p, "edu,bus=rp1,addr=0.0,multifunction=on",
                 "edu,bus=rp1,addr=0.1");
    for (int i = 0; i < 2; i++) {
        if (i == 0 || rechange) {
            pmu_set_two_function_rules(&p);
        }
        /* The port's count meets both functions, 02:00.0 first. */
        pmu_count(&p, pmu_port_event(RX_MWR_FLUX, OTHER_PORT_BIT,
                                     LEN_PAYLOAD),
                  1000 * 1000 + 1234, &cnt, &ext);
    }
    pmu_start(&p, pmu_requester_event(RX_MWR_FLUX, RP1_FN1_BDF,
                                      LEN_PAYLOAD));
    while (!hisi_rdq(&p, HISI_PCIE_PMU_REG(CNT, 0))) {
        g_assert_cmpint(ns, <, 8000);
        ns += 100;
        qtest_clock_step(p.qts, 100);
    }
    hisi_fini(&p);
    return ns;
}

/*
 * A change carries each function's streams over from where they stood:
 * after a change of nothing 02:00.1's next TLP comes when it comes
 * without one, not on 02:00.0's beat (a TLP every 1000 ns against 4000)
 */
static void test_change_keeps_each_function(void)
{
    int64_t as_before = two_functions_next_tlp(false);

    g_test_message("next TLP of 02:00.1 in %" PRId64 " ns", as_before);
    g_assert_cmpint(two_functions_next_tlp(true), ==, as_before);
}

static const HisiRefusal bad_properties[] = {
    { "clock-freq-0",
      { "-device", "hisi-pcie-pmu,clock-freq=0" },
      "clock-freq must be 1..1000000000 Hz (got 0)" },
    { "clock-freq-above-1ghz",
      { "-device", "hisi-pcie-pmu,clock-freq=1000000001" },
      "clock-freq must be 1..1000000000 Hz" },
};

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/hisi-pcie-pmu/reset-values", test_reset_values);
    qtest_add_func("/hisi-pcie-pmu/global-disable-stops",
                   test_global_disable_stops);
    qtest_add_func("/hisi-pcie-pmu/real-dma", test_real_dma);
    qtest_add_func("/hisi-pcie-pmu/real-dma-any-counter",
                   test_real_dma_any_counter);
    qtest_add_func("/hisi-pcie-pmu/real-dma-uncovered-port",
                   test_real_dma_uncovered_port);
    qtest_add_func("/hisi-pcie-pmu/real-dma-64bit-address",
                   test_real_dma_64bit_address);
    qtest_add_func("/hisi-pcie-pmu/real-cpu-accesses",
                   test_real_cpu_accesses);
    qtest_add_func("/hisi-pcie-pmu/counter-halves", test_counter_halves);
    qtest_add_func("/hisi-pcie-pmu/rciep", test_rciep);
    qtest_add_func("/hisi-pcie-pmu/bad-accesses", test_bad_accesses);
    qtest_add_func("/hisi-pcie-pmu/int-stat-not-wide", test_int_stat_not_wide);
    qtest_add_func("/hisi-pcie-pmu/no-count-without-global-enable",
                   test_no_count_without_global_enable);
    qtest_add_func("/hisi-pcie-pmu/no-count-without-event-enable",
                   test_no_count_without_event_enable);
    qtest_add_func("/hisi-pcie-pmu/exact-latency", test_exact_latency);
    qtest_add_func("/hisi-pcie-pmu/exact-bandwidth", test_exact_bandwidth);
    qtest_add_func("/hisi-pcie-pmu/clock-freq", test_clock_freq);
    qtest_add_func("/hisi-pcie-pmu/clock-freq-slow", test_clock_freq_slow);
    qtest_add_func("/hisi-pcie-pmu/bandwidth-len-mode",
                   test_bandwidth_len_mode);
    qtest_add_func("/hisi-pcie-pmu/reset-cnt", test_reset_cnt);
    qtest_add_func("/hisi-pcie-pmu/filter-other-port",
                   test_filter_other_port);
    qtest_add_func("/hisi-pcie-pmu/filter-requester", test_filter_requester);
    qtest_add_func("/hisi-pcie-pmu/filter-requester-id",
                   test_filter_requester_id);
    qtest_add_func("/hisi-pcie-pmu/read-request-payload",
                   test_read_request_payload);
    qtest_add_func("/hisi-pcie-pmu/latency-ignores-thr-trig",
                   test_latency_ignores_thr_trig);
    qtest_add_func("/hisi-pcie-pmu/latency-no-requester-filter",
                   test_latency_no_requester_filter);
    qtest_add_func("/hisi-pcie-pmu/unknown-event-unwritable",
                   test_unknown_event_unwritable);
    qtest_add_func("/hisi-pcie-pmu/tx-mrd-latency", test_tx_mrd_latency);
    qtest_add_func("/hisi-pcie-pmu/threshold", test_threshold);
    qtest_add_func("/hisi-pcie-pmu/length-above-max", test_length_above_max);
    qtest_add_func("/hisi-pcie-pmu/trigger", test_trigger);
    qtest_add_func("/hisi-pcie-pmu/trigger-own-tlps", test_trigger_own_tlps);
    qtest_add_func("/hisi-pcie-pmu/overflow-msi-when-due",
                   test_overflow_msi_when_due);
    qtest_add_func("/hisi-pcie-pmu/overflow-flux-msi-when-due",
                   test_overflow_flux_msi_when_due);
    qtest_add_func("/hisi-pcie-pmu/overflow-timer-far",
                   test_overflow_timer_far);
    qtest_add_func("/hisi-pcie-pmu/overflow-timer-flux-bound",
                   test_overflow_timer_flux_bound);
    qtest_add_func("/hisi-pcie-pmu/cycles-past-2-64",
                   test_cycles_past_2_64);
    qtest_add_func("/hisi-pcie-pmu/overflow-half-cycle-delays",
                   test_overflow_half_cycle_delays);
    qtest_add_func("/hisi-pcie-pmu/overflow-one-tlp-delay",
                   test_overflow_one_tlp_delay);
    qtest_add_func("/hisi-pcie-pmu/overflow-far-delay-msi-when-due",
                   test_overflow_far_delay_msi_when_due);
    qtest_add_func("/hisi-pcie-pmu/overflow-longest-first-msi-when-due",
                   test_overflow_longest_first_msi_when_due);
    qtest_add_func("/hisi-pcie-pmu/overflow-cycles-carried",
                   test_overflow_cycles_carried);
    qtest_add_data_func("/hisi-pcie-pmu/overflow-cycles-within-a-cycle",
                        &wrap_within_a_cycle, test_overflow_cycles_one_short);
    qtest_add_data_func("/hisi-pcie-pmu/overflow-cycles-next-ns",
                        &wrap_next_ns, test_overflow_cycles_one_short);
    qtest_add_func("/hisi-pcie-pmu/overflow-masked-msi-on-unmask",
                   test_overflow_masked_msi_on_unmask);
    qtest_add_func("/hisi-pcie-pmu/overflow-never-due",
                   test_overflow_never_due);
    qtest_add_func("/hisi-pcie-pmu/trigger-changed-at-tlp",
                   test_trigger_changed_at_tlp);
    qtest_add_func("/hisi-pcie-pmu/trigger-kept-by-rewrite",
                   test_trigger_kept_by_rewrite);
    qtest_add_func("/hisi-pcie-pmu/trigger-not-met-ahead",
                   test_trigger_not_met_ahead);
    qtest_add_func("/hisi-pcie-pmu/agrees-with-ptt", test_agrees_with_ptt);
    qtest_add_func("/hisi-pcie-pmu/migration", test_migration);
    qtest_add_func("/hisi-pcie-pmu/stream-old-version-refused",
                   test_stream_old_version_refused);
    qtest_add_func("/hisi-pcie-pmu/stream-v1-layout-refused",
                   test_stream_v1_layout_refused);
    qtest_add_func("/hisi-pcie-pmu/stream-versions", test_stream_versions);
    qtest_add_func("/hisi-pcie-pmu/traffic-stream-refused",
                   test_traffic_stream_refused);
    qtest_add_func("/hisi-pcie-pmu/traffic-load-fails-midway",
                   test_traffic_load_fails_midway);
    qtest_add_data_func("/hisi-pcie-pmu/migration-overflow-pending/"
                        "event-started", GINT_TO_POINTER(false),
                        test_migration_overflow_pending);
    qtest_add_data_func("/hisi-pcie-pmu/migration-overflow-pending/"
                        "next-overflow-by-timer", GINT_TO_POINTER(true),
                        test_migration_overflow_pending);
    qtest_add_func("/hisi-pcie-pmu/hotplug-counted-from-plug",
                   test_hotplug_counted_from_plug);
    qtest_add_data_func("/hisi-pcie-pmu/hot-unplug-counted-to-removal",
                        GINT_TO_POINTER(false),
                        test_hot_unplug_counted_to_removal);
    qtest_add_data_func("/hisi-pcie-pmu/hot-unplug-other-port-counts-on",
                        GINT_TO_POINTER(true),
                        test_hot_unplug_counted_to_removal);
    qtest_add_func("/hisi-pcie-pmu/hot-unplug-outside-range",
                   test_hot_unplug_outside_range);
    qtest_add_func("/hisi-pcie-pmu/hot-unplug-uncounted-port",
                   test_hot_unplug_uncounted_port);
    qtest_add_func("/hisi-pcie-pmu/unplug-keeps-same-port",
                   test_unplug_keeps_same_port);
    qtest_add_func("/hisi-pcie-pmu/change-keeps-each-function",
                   test_change_keeps_each_function);
    qtest_add_func("/hisi-pcie-pmu/two-functions-below-one-port",
                   test_two_functions_below_one_port);
    qtest_add_func("/hisi-pcie-pmu/many-endpoints-all-counted",
                   test_many_endpoints_all_counted);
    qtest_add_func("/hisi-pcie-pmu/trigger-met-by-second-function",
                   test_trigger_met_by_second_function);
    qtest_add_func("/hisi-pcie-pmu/overflow-two-functions-msi-when-due",
                   test_overflow_two_functions_msi_when_due);
    hisi_add_refusals("/hisi-pcie-pmu/refused", bad_properties,
                      G_N_ELEMENTS(bad_properties));
    return g_test_run();
}
