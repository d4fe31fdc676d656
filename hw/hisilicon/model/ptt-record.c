/*
 * HiSilicon PTT trace records.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "byteorder.h"
#include "ptt-record.h"

void model_ptt_record_4dw(uint8_t out[PTT_RECORD_4DW_SIZE], const PcieTlp *tlp,
                          uint32_t time)
{
    uint32_t h = tlp->dw[0];
    /*
     * Header bits 30:23 (Fmt[1:0], Type, T9) move up by one as a block;
     * T8 (19), TH (16), not-RO (13) and Length (9:0) each move to their
     * place; the time takes the low 11 bits.
     */
    uint32_t dw0 = (h & 0x7f800000) << 1 |         /* Fmt[1:0], Type, T9 */
                   (h & 0x00080000) << 4 |         /* T8 */
                   (h & 0x00010000) << 6 |         /* TH */
                   (~h & TLP_ATTR_RO) << 8 |       /* SO */
                   (h & 0x3ff) << 11 |             /* Length */
                   (time & 0x7ff);

    model_put_le32(out, dw0);
    model_put_le32(out + 4, tlp->dw[1]);
    model_put_le32(out + 8, tlp->dw[2]);
    model_put_le32(out + 12, tlp->dw[3]);
}

void model_ptt_record_8dw(uint8_t out[PTT_RECORD_8DW_SIZE], const PcieTlp *tlp,
                          uint32_t time)
{
    model_put_le32(out, PTT_RECORD_8DW_MARK);
    model_put_le32(out + 4, tlp->prefix);
    model_put_le32(out + 8, tlp->dw[0]);
    model_put_le32(out + 12, tlp->dw[1]);
    model_put_le32(out + 16, tlp->dw[2]);
    model_put_le32(out + 20, tlp->dw[3]);
    model_put_le32(out + 24, 0);
    model_put_le32(out + 28, time);
}

static unsigned ptt_type_bit(TrafficKind kind)
{
    switch (kind) {
    case TRAFFIC_POSTED:
        return PTT_TYPE_P;
    case TRAFFIC_NON_POSTED:
        return PTT_TYPE_NP;
    default:
        return PTT_TYPE_CPL;
    }
}

bool model_ptt_selects(unsigned rxtx, unsigned types, bool format_8dw,
                       const TrafficStream *s)
{
    bool out = s->dir == TRAFFIC_OUTBOUND;
    bool cpl = s->kind == TRAFFIC_COMPLETION;
    /* Inbound completions: CPL B answers P2P/remote requests, CPL A the rest */
    bool in_b = !out && (!cpl || s->cpl_b);
    bool in_a = !out && cpl && !s->cpl_b;
    bool dir_ok;

    if (!(types & ptt_type_bit(s->kind)) ||
        (out && !model_ptt_outbound_types_valid(types))) {
        return false;
    }
    if (format_8dw) {
        switch (rxtx) {
        case 1:
            dir_ok = out;
            break;
        case 2:
            dir_ok = in_b;
            break;
        case 3:
            dir_ok = in_a;
            break;
        default:
            dir_ok = false;
        }
    } else {
        switch (rxtx) {
        case 0:
            dir_ok = !out;
            break;
        case 1:
            dir_ok = out;
            break;
        case 2:
            dir_ok = out || in_b;
            break;
        case 3:
            dir_ok = out || in_a;
            break;
        default:
            dir_ok = false;
        }
    }
    return dir_ok;
}
