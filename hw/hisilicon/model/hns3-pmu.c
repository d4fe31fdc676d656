/*
 * HNS3 PMU events.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <stddef.h>

#include "hns3-pmu.h"

#define TX      (1u << NIC_TX)
#define RX      (1u << NIC_RX)
#define RTX     (1u << NIC_ROCE_TX)
#define RRX     (1u << NIC_ROCE_RX)
#define ANY     HNS3_PMU_ANY_QUEUE
#define EVEN    HNS3_PMU_EVEN_QUEUE
#define ODD     HNS3_PMU_ODD_QUEUE

/* The filter modes an event takes (the driver's filter_support) */
#define MODE(m)         (1u << HNS3_PMU_MODE_ ## m)
#define GLOBAL          MODE(GLOBAL)
#define PORTS           (MODE(GLOBAL) | MODE(PORT) | MODE(PORT_TC))
#define PORTS_FUNC      (PORTS | MODE(FUNC))
#define PORTS_QUEUE     (PORTS_FUNC | MODE(FUNC_QUEUE))
#define PORT_FUNC       (MODE(GLOBAL) | MODE(PORT) | MODE(FUNC))
#define PORT_QUEUE      (PORT_FUNC | MODE(FUNC_QUEUE))
#define QUEUE           (MODE(GLOBAL) | MODE(FUNC_QUEUE))

/* Its code, filter modes, the streams it sees and on which queues */
#define EVENT(c, m, k, q) \
    .code = (c), .modes = (m), .kinds = (k), .queues = (q)

/*
 * The driver's event table with what each stage sees. Filter modes are
 * the driver's filter_support bits. Payload and descriptor traffic goes
 * through memory port 0 for even queues, 1 for odd ones; odd queues send
 * in push mode, even ones in normal mode.
 */
static const Hns3PmuEvent hns3_pmu_events[] = {
    /* bandwidth: bytes / cycles */
    { EVENT(0x0001, PORTS, TX | RTX, ANY) },                /* ssu_egu */
    { EVENT(0x0002, PORTS_QUEUE, RX, ANY) },                /* ssu_rpu */
    { EVENT(0x0003, PORTS_FUNC, RRX, ANY) },                /* ssu_roce */
    { EVENT(0x0004, PORTS_FUNC, RTX, ANY) },                /* roce_ssu */
    { EVENT(0x0005, PORTS_QUEUE, TX, ANY) },                /* tpu_ssu */
    { EVENT(0x0006, QUEUE, RX, ANY) },                      /* rpu_rcbrx */
    { EVENT(0x0008, QUEUE, TX, ANY) },                      /* rcbtx_txsch */
    { EVENT(0x0009, PORT_QUEUE, RX, ANY), .descriptors = true }, /* wr_fbd */
    { EVENT(0x000a, QUEUE, RX, ANY), .descriptors = true }, /* wr_ebd */
    { EVENT(0x000b, GLOBAL, TX, ANY), .descriptors = true }, /* rd_fbd */
    { EVENT(0x000c, PORT_QUEUE, TX, ANY), .descriptors = true }, /* rd_ebd */
    { EVENT(0x000d, GLOBAL, TX, EVEN) },                    /* rd_pay_m0 */
    { EVENT(0x000e, GLOBAL, TX, ODD) },                     /* rd_pay_m1 */
    { EVENT(0x000f, GLOBAL, RX, EVEN) },                    /* wr_pay_m0 */
    { EVENT(0x0010, GLOBAL, RX, ODD) },                     /* wr_pay_m1 */
    /* packet rate: packets / cycles */
    { EVENT(0x0100, PORTS, RX | RRX, ANY) },                /* igu_ssu */
    { EVENT(0x0101, PORTS, TX | RTX, ANY) },                /* ssu_egu */
    { EVENT(0x0102, PORTS_QUEUE, RX, ANY) },                /* ssu_rpu */
    { EVENT(0x0103, PORTS_FUNC, RRX, ANY) },                /* ssu_roce */
    { EVENT(0x0104, PORTS_FUNC, RTX, ANY) },                /* roce_ssu */
    { EVENT(0x0105, PORTS_QUEUE, TX, ANY) },                /* tpu_ssu */
    { EVENT(0x0106, QUEUE, RX, ANY) },                      /* rpu_rcbrx */
    { EVENT(0x0107, PORTS_QUEUE, TX, ANY) },                /* rcbtx_tpu */
    { EVENT(0x0108, QUEUE, TX, ANY) },                      /* rcbtx_txsch */
    { EVENT(0x0109, PORT_QUEUE, RX, ANY) },                 /* wr_fbd */
    { EVENT(0x010a, QUEUE, RX, ANY) },                      /* wr_ebd */
    { EVENT(0x010b, GLOBAL, TX, ANY) },                     /* rd_fbd */
    { EVENT(0x010c, PORT_QUEUE, TX, ANY) },                 /* rd_ebd */
    { EVENT(0x010d, GLOBAL, TX, EVEN) },                    /* rd_pay_m0 */
    { EVENT(0x010e, GLOBAL, TX, ODD) },                     /* rd_pay_m1 */
    { EVENT(0x010f, GLOBAL, RX, EVEN) },                    /* wr_pay_m0 */
    { EVENT(0x0110, GLOBAL, RX, ODD) },                     /* wr_pay_m1 */
    { EVENT(0x0111, GLOBAL, TX, ANY) }, /* intr_nicroh_tx_pre */
    { EVENT(0x0112, GLOBAL, RX, ANY) }, /* intr_nicroh_rx_pre */
    /* latency: delay cycles / packets, a share of the stream's latency */
    { EVENT(0x0202, GLOBAL, TX, ODD), .delay_pct = 100 },   /* tx_push_to_mac */
    /* tx_normal_to_mac */
    { EVENT(0x0204, GLOBAL, TX, EVEN), .delay_pct = 100 },
    { EVENT(0x0206, PORTS, TX, ANY), .delay_pct = 30 },     /* ssu_tx_th_nic */
    { EVENT(0x0207, PORTS, RTX, ANY), .delay_pct = 30 },    /* ssu_tx_th_roce */
    { EVENT(0x0208, PORTS, RX, ANY), .delay_pct = 30 },     /* ssu_rx_th_nic */
    { EVENT(0x0209, PORTS, RRX, ANY), .delay_pct = 30 },    /* ssu_rx_th_roce */
    { EVENT(0x020e, QUEUE, RX, ANY), .delay_pct = 25 },     /* rpu */
    { EVENT(0x020f, PORTS_QUEUE, TX, ANY), .delay_pct = 25 }, /* tpu */
    { EVENT(0x0210, GLOBAL, RX, ANY), .delay_pct = 20 },    /* rpe */
    { EVENT(0x0211, PORT_FUNC, TX, EVEN), .delay_pct = 20 }, /* tpe_normal */
    { EVENT(0x0212, PORT_QUEUE, TX, ODD), .delay_pct = 20 }, /* tpe_push */
    { EVENT(0x0213, PORT_QUEUE, RX, ANY), .delay_pct = 10 }, /* wr_fbd */
    { EVENT(0x0214, QUEUE, RX, ANY), .delay_pct = 10 },     /* wr_ebd */
    { EVENT(0x0215, GLOBAL, TX, ANY), .delay_pct = 10 },    /* rd_fbd */
    { EVENT(0x0216, PORT_QUEUE, TX, ANY), .delay_pct = 10 }, /* rd_ebd */
    { EVENT(0x0217, GLOBAL, TX, EVEN), .delay_pct = 15 },   /* rd_pay_m0 */
    { EVENT(0x0218, GLOBAL, TX, ODD), .delay_pct = 15 },    /* rd_pay_m1 */
    { EVENT(0x0219, GLOBAL, RX, EVEN), .delay_pct = 15 },   /* wr_pay_m0 */
    { EVENT(0x021a, GLOBAL, RX, ODD), .delay_pct = 15 },    /* wr_pay_m1 */
    /* msix_write */
    { EVENT(0x021c, GLOBAL, TX | RX, ANY), .interrupts = true, .delay_pct = 5 },
    /* interrupt rate: interrupts / cycles */
    { EVENT(0x0300, GLOBAL, TX | RX, ANY), .interrupts = true }, /* msix_nic */
};

const Hns3PmuEvent *model_hns3_pmu_event(uint16_t code)
{
    for (size_t i = 0; i < sizeof(hns3_pmu_events) /
                           sizeof(hns3_pmu_events[0]); i++) {
        if (hns3_pmu_events[i].code == code) {
            return &hns3_pmu_events[i];
        }
    }
    return NULL;
}

bool model_hns3_pmu_stream_matches(const Hns3PmuEvent *ev,
                                   const Hns3PmuFilter *f, const NicStream *s)
{
    bool devfn = (s->func & 0xff) == (f->cond & 0xff);

    /* The guest writes any 8-bit mode: no shift past the type's width */
    if (f->mode >= HNS3_PMU_MODES ||
        !(ev->kinds & (1u << s->kind)) || !(ev->modes & (1u << f->mode)) ||
        (ev->queues == EVEN && (s->queue & 1)) ||
        (ev->queues == ODD && !(s->queue & 1))) {
        return false;
    }
    switch (f->mode) {
    case HNS3_PMU_MODE_GLOBAL:
        return true;
    case HNS3_PMU_MODE_PORT:
        return (f->cond >> s->port) & 1;
    case HNS3_PMU_MODE_PORT_TC:
        return s->port == HNS3_PMU_PORT_TC_PORT(f->cond) &&
               s->tc == HNS3_PMU_PORT_TC_TC(f->cond);
    case HNS3_PMU_MODE_FUNC:
    case HNS3_PMU_MODE_FUNC_INTR:
        return devfn;
    case HNS3_PMU_MODE_FUNC_QUEUE:
        return devfn && s->queue == f->queue;
    default:
        return false;
    }
}

void model_hns3_pmu_stream_sums(const Hns3PmuEvent *ev, const NicStream *s,
                                int64_t t0, int64_t t1, Hns3PmuSums *sums)
{
    uint64_t units = ev->interrupts ? model_nic_interrupts(s, t0, t1) :
                     model_nic_packets(s, t0, t1);

    sums->units += units;
    if (!ev->interrupts) {
        sums->bytes += ev->descriptors ? units * HNS3_PMU_BD_BYTES :
                       model_nic_bytes(s, t0, t1);
    }
    sums->delay_ns += units * s->latency_ns * ev->delay_pct / 100;
}
