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

/*
 * The driver's event table with what each stage sees. Filter modes are
 * the driver's filter_support bits. Payload and descriptor traffic goes
 * through memory port 0 for even queues, 1 for odd ones; odd queues send
 * in push mode, even ones in normal mode.
 */
static const Hns3PmuEvent hns3_pmu_events[] = {
    /* bandwidth: bytes / cycles */
    { 0x0001, 0x07, TX | RTX, ANY, false, false, 0 },   /* ssu_egu */
    { 0x0002, 0x1f, RX, ANY, false, false, 0 },         /* ssu_rpu */
    { 0x0003, 0x0f, RRX, ANY, false, false, 0 },        /* ssu_roce */
    { 0x0004, 0x0f, RTX, ANY, false, false, 0 },        /* roce_ssu */
    { 0x0005, 0x1f, TX, ANY, false, false, 0 },         /* tpu_ssu */
    { 0x0006, 0x11, RX, ANY, false, false, 0 },         /* rpu_rcbrx */
    { 0x0008, 0x11, TX, ANY, false, false, 0 },         /* rcbtx_txsch */
    { 0x0009, 0x1b, RX, ANY, true, false, 0 },          /* wr_fbd */
    { 0x000a, 0x11, RX, ANY, true, false, 0 },          /* wr_ebd */
    { 0x000b, 0x01, TX, ANY, true, false, 0 },          /* rd_fbd */
    { 0x000c, 0x1b, TX, ANY, true, false, 0 },          /* rd_ebd */
    { 0x000d, 0x01, TX, EVEN, false, false, 0 },        /* rd_pay_m0 */
    { 0x000e, 0x01, TX, ODD, false, false, 0 },         /* rd_pay_m1 */
    { 0x000f, 0x01, RX, EVEN, false, false, 0 },        /* wr_pay_m0 */
    { 0x0010, 0x01, RX, ODD, false, false, 0 },         /* wr_pay_m1 */
    /* packet rate: packets / cycles */
    { 0x0100, 0x07, RX | RRX, ANY, false, false, 0 },   /* igu_ssu */
    { 0x0101, 0x07, TX | RTX, ANY, false, false, 0 },   /* ssu_egu */
    { 0x0102, 0x1f, RX, ANY, false, false, 0 },         /* ssu_rpu */
    { 0x0103, 0x0f, RRX, ANY, false, false, 0 },        /* ssu_roce */
    { 0x0104, 0x0f, RTX, ANY, false, false, 0 },        /* roce_ssu */
    { 0x0105, 0x1f, TX, ANY, false, false, 0 },         /* tpu_ssu */
    { 0x0106, 0x11, RX, ANY, false, false, 0 },         /* rpu_rcbrx */
    { 0x0107, 0x1f, TX, ANY, false, false, 0 },         /* rcbtx_tpu */
    { 0x0108, 0x11, TX, ANY, false, false, 0 },         /* rcbtx_txsch */
    { 0x0109, 0x1b, RX, ANY, false, false, 0 },         /* wr_fbd */
    { 0x010a, 0x11, RX, ANY, false, false, 0 },         /* wr_ebd */
    { 0x010b, 0x01, TX, ANY, false, false, 0 },         /* rd_fbd */
    { 0x010c, 0x1b, TX, ANY, false, false, 0 },         /* rd_ebd */
    { 0x010d, 0x01, TX, EVEN, false, false, 0 },        /* rd_pay_m0 */
    { 0x010e, 0x01, TX, ODD, false, false, 0 },         /* rd_pay_m1 */
    { 0x010f, 0x01, RX, EVEN, false, false, 0 },        /* wr_pay_m0 */
    { 0x0110, 0x01, RX, ODD, false, false, 0 },         /* wr_pay_m1 */
    { 0x0111, 0x01, TX, ANY, false, false, 0 },         /* intr_nicroh_tx_pre */
    { 0x0112, 0x01, RX, ANY, false, false, 0 },         /* intr_nicroh_rx_pre */
    /* latency: delay cycles / packets, a share of the stream's latency */
    { 0x0202, 0x01, TX, ODD, false, false, 100 },       /* tx_push_to_mac */
    { 0x0204, 0x01, TX, EVEN, false, false, 100 },      /* tx_normal_to_mac */
    { 0x0206, 0x07, TX, ANY, false, false, 30 },        /* ssu_tx_th_nic */
    { 0x0207, 0x07, RTX, ANY, false, false, 30 },       /* ssu_tx_th_roce */
    { 0x0208, 0x07, RX, ANY, false, false, 30 },        /* ssu_rx_th_nic */
    { 0x0209, 0x07, RRX, ANY, false, false, 30 },       /* ssu_rx_th_roce */
    { 0x020e, 0x11, RX, ANY, false, false, 25 },        /* rpu */
    { 0x020f, 0x1f, TX, ANY, false, false, 25 },        /* tpu */
    { 0x0210, 0x01, RX, ANY, false, false, 20 },        /* rpe */
    { 0x0211, 0x0b, TX, EVEN, false, false, 20 },       /* tpe_normal */
    { 0x0212, 0x1b, TX, ODD, false, false, 20 },        /* tpe_push */
    { 0x0213, 0x1b, RX, ANY, false, false, 10 },        /* wr_fbd */
    { 0x0214, 0x11, RX, ANY, false, false, 10 },        /* wr_ebd */
    { 0x0215, 0x01, TX, ANY, false, false, 10 },        /* rd_fbd */
    { 0x0216, 0x1b, TX, ANY, false, false, 10 },        /* rd_ebd */
    { 0x0217, 0x01, TX, EVEN, false, false, 15 },       /* rd_pay_m0 */
    { 0x0218, 0x01, TX, ODD, false, false, 15 },        /* rd_pay_m1 */
    { 0x0219, 0x01, RX, EVEN, false, false, 15 },       /* wr_pay_m0 */
    { 0x021a, 0x01, RX, ODD, false, false, 15 },        /* wr_pay_m1 */
    { 0x021c, 0x01, TX | RX, ANY, false, true, 5 },     /* msix_write */
    /* interrupt rate: interrupts / cycles */
    { 0x0300, 0x01, TX | RX, ANY, false, true, 0 },     /* msix_nic */
};

const Hns3PmuEvent *hns3_pmu_event(uint16_t code)
{
    for (size_t i = 0; i < sizeof(hns3_pmu_events) /
                           sizeof(hns3_pmu_events[0]); i++) {
        if (hns3_pmu_events[i].code == code) {
            return &hns3_pmu_events[i];
        }
    }
    return NULL;
}

bool hns3_pmu_stream_matches(const Hns3PmuEvent *ev, const Hns3PmuFilter *f,
                             const NicStream *s)
{
    bool devfn = (s->func & 0xff) == (f->cond & 0xff);

    if (!(ev->kinds & (1u << s->kind)) || !(ev->modes & (1u << f->mode)) ||
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
        return s->port == ((f->cond >> 3) & 7) && s->tc == (f->cond & 7);
    case HNS3_PMU_MODE_FUNC:
    case HNS3_PMU_MODE_FUNC_INTR:
        return devfn;
    case HNS3_PMU_MODE_FUNC_QUEUE:
        return devfn && s->queue == f->queue;
    default:
        return false;
    }
}

void hns3_pmu_stream_sums(const Hns3PmuEvent *ev, const NicStream *s,
                          int64_t t0, int64_t t1, Hns3PmuSums *sums)
{
    uint64_t units = ev->interrupts ? nic_interrupts(s, t0, t1) :
                     nic_packets(s, t0, t1);

    sums->units += units;
    if (!ev->interrupts) {
        sums->bytes += ev->descriptors ? units * HNS3_PMU_BD_BYTES :
                       nic_bytes(s, t0, t1);
    }
    sums->delay_ns += units * s->latency_ns * ev->delay_pct / 100;
}
