/*
 * Fuzz targets of the HiSilicon uncore devices (hisi-ptt, hisi-pcie-pmu,
 * hns3-pmu, arm-ccn) on the virt machine: a guest must never crash or
 * corrupt QEMU, whatever it writes to the devices' registers, their
 * configuration space or the memory they write to, and whatever the
 * management side sets through their fault-injection properties.
 *
 * generic-fuzz finds PCI functions through x86 I/O ports, so these targets
 * map the BARs themselves, through the virt machine's ECAM.
 *
 * The traffic object's source is mixed: the synthetic traffic, and the real
 * traffic of the endpoints below the root ports (the configuration
 * accesses to them go through the tap while a device observes).
 *
 * Every input starts from the same state: the machine after a reset, with
 * the BARs and MSIs set up. After an input, the least reset that restores
 * that state runs: the whole machine's when the trace buffers were aimed
 * outside RAM (the DMA may have reached anything); the PCI hierarchy's and
 * our devices' when configuration space was written; else our devices'
 * alone. Then the set-up again, in the same memory transaction, so that
 * QEMU computes one new memory map (for each of the machine's address
 * spaces), not two; none at all after the devices' reset alone.
 *
 * An input is a sequence of operations, each an opcode byte and its
 * operands (little-endian); an operation cut short ends the input:
 *
 *   0 MMIO read     u8 region, u8 size (1 << (n & 3)), u32 offset
 *   1 MMIO write    u8 region, u8 size, u32 offset, u64 value
 *   2 config read   u8 function, u8 size (1 << (n % 3)), u16 offset
 *   3 config write  u8 function, u8 size, u16 offset, u32 value
 *   4 config field  u8 function, u8 field (HisiConfigField), u32 value
 *   5 clock step    u32 ns (at most HISI_STEP_MAX_NS, HISI_CLOCK_BUDGET_NS
 *                   in all per input)
 *   6 RAM write     u32 offset, u8 length (1 + (n & 63)), that many bytes
 *   7 PTT buffers   u8 address kind (HisiBufKind), u32 offset, u32 size:
 *                   the four trace buffers at kind + offset + i * size
 *   8 qom-set       u8 property, u8 value kind, u64 value
 *
 * Regions, functions and properties are the target's, indexed modulo
 * their number. tests/qtest/fuzz/make-corpus writes seed inputs in this
 * format; change both together.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/module.h"
#include "qemu/units.h"
#include "qemu/timer.h"
#include "qapi/error.h"
#include "hw/hisilicon/hisi-compat.h"
#include HISI_MEMORY_H
#include "qapi/qapi-commands-qom.h"
#include "qemu/rcu.h"
#include HISI_QDEV_CORE_H
#include "hw/pci/pci_host.h"
#include "hw/pci-host/gpex.h"
#include "qobject/qbool.h"
#include "qobject/qnum.h"
#include "qobject/qstring.h"
#include "hw/pci/pci_regs.h"
#include "hw/hisilicon/hisi-ptt-regs.h"
#include "tests/qtest/libqtest.h"
#include "fuzz.h"

/* The virt machine's memory map (hw/arm/virt.c) with -m 128M */
#define HISI_RAM_BASE           0x40000000ull
#define HISI_RAM_SIZE           (128 * MiB)
#define HISI_ECAM_BASE          0x4010000000ull     /* highmem ECAM */
#define HISI_PLATFORM_BUS       0x0c000000ull       /* arm-ccn, if any */
#define HISI_CCN_SIZE           (16 * MiB)

/* Where the set-up aims the MSIs: a word of guest RAM */
#define HISI_MSI_ADDR           0x47000000ull
#define HISI_MSI_DATA           0x5a5a

/* Virtual time an input may run, so that none runs long */
#define HISI_STEP_MAX_NS        (10 * SCALE_MS)
#define HISI_CLOCK_BUDGET_NS    (100 * SCALE_MS)

/* Inputs between two drains of QEMU's RCU callbacks (see hisi_fuzz()) */
#define HISI_RCU_DRAIN_INPUTS   64

#define HISI_BDF(bus, dev, fn)  (((bus) << 8) | ((dev) << 3) | (fn))

/* The traffic every input starts with, restored after each */
#define HISI_RULES              "stream=all,rate=1000000"

enum {
    HISI_PTT        = 1 << 0,
    HISI_PCIE_PMU   = 1 << 1,
    HISI_HNS3_PMU   = 1 << 2,
    HISI_CCN        = 1 << 3,
    HISI_ALL        = HISI_PTT | HISI_PCIE_PMU | HISI_HNS3_PMU | HISI_CCN,
};

/* A PCI function the set-up enables; @bar_addr is where BAR @bar goes */
typedef struct HisiFunction {
    unsigned device;            /* the HISI_* it belongs to, 0: always */
    uint16_t bdf;
    int bar;                    /* the 64-bit BAR mapped, or -1 */
    uint64_t bar_addr;
    uint64_t bar_size;
    uint8_t secondary_bus;      /* a root port's, or 0 */
} HisiFunction;

static const HisiFunction hisi_functions[] = {
    { HISI_PTT, HISI_BDF(0, 8, 0), 2, 0x10000000, 4 * KiB },
    { HISI_PCIE_PMU, HISI_BDF(0, 9, 0), 2, 0x10001000, 4 * KiB },
    { HISI_HNS3_PMU, HISI_BDF(0, 10, 0), 2, 0x10010000, 64 * KiB },
    { 0, HISI_BDF(0, 0x10, 0), -1, .secondary_bus = 1 },    /* rp0 */
    { 0, HISI_BDF(0, 0x11, 0), -1, .secondary_bus = 2 },    /* rp1 */
    { 0, HISI_BDF(1, 0, 0), -1 },                           /* edu */
    { 0, HISI_BDF(2, 0, 0), -1 },                           /* pci-testdev */
};

/* The -device options and the devices' QOM paths, in the order of HISI_* */
static const char *const hisi_device_args[] = {
    "hisi-ptt,id=ptt,bus=pcie.0,addr=0x8,traffic=t0",
    "hisi-pcie-pmu,id=pcie-pmu,bus=pcie.0,addr=0x9,traffic=t0",
    "hns3-pmu,id=hns3-pmu,bus=pcie.0,addr=0xa,traffic=t0,queues=2,tcs=2",
    "arm-ccn,id=ccn,traffic=t0",
};
static const char *const hisi_device_paths[] = {
    "/machine/peripheral/ptt", "/machine/peripheral/pcie-pmu",
    "/machine/peripheral/hns3-pmu", "/machine/peripheral/ccn",
};

typedef enum HisiPropKind {
    PROP_FLAG,                  /* the PTT's fault injection, bool */
    PROP_ADVANCE,               /* a PMU's "IDX=N" */
    PROP_RULES,
    PROP_PAUSED,
    PROP_BURST,
} HisiPropKind;

typedef struct HisiProp {
    unsigned device;            /* the HISI_* it belongs to, 0: always */
    const char *path;
    const char *name;
    HisiPropKind kind;
} HisiProp;

static const HisiProp hisi_props[] = {
    { HISI_PTT, "/machine/peripheral/ptt", "fail-next-dma", PROP_FLAG },
    { HISI_PTT, "/machine/peripheral/ptt", "hold-tuning-busy", PROP_FLAG },
    { HISI_PTT, "/machine/peripheral/ptt", "hold-trace-busy", PROP_FLAG },
    { HISI_PCIE_PMU, "/machine/peripheral/pcie-pmu", "advance",
      PROP_ADVANCE },
    { HISI_HNS3_PMU, "/machine/peripheral/hns3-pmu", "advance",
      PROP_ADVANCE },
    { HISI_CCN, "/machine/peripheral/ccn", "advance", PROP_ADVANCE },
    { 0, "/objects/t0", "rules", PROP_RULES },
    { 0, "/objects/t0", "paused", PROP_PAUSED },
    { 0, "/objects/t0", "burst-ns", PROP_BURST },
};

typedef enum HisiConfigField {
    FIELD_COMMAND,
    FIELD_BAR0,                 /* FIELD_BAR0 + n: BAR n, 0-5 */
    FIELD_MSI_FLAGS = FIELD_BAR0 + 6,
    FIELD_MSI_ADDR_LO,
    FIELD_MSI_ADDR_HI,
    FIELD_MSI_DATA,
    FIELD_BUSES,                /* a bridge's primary/secondary/subordinate */
    FIELD_COUNT,
} HisiConfigField;

typedef enum HisiBufKind {
    BUF_RAM,                    /* in RAM */
    BUF_RAM_END,                /* across the end of RAM */
    BUF_LOW,                    /* below 4 GiB: flash, devices, PCI window */
    BUF_OWN_BAR,                /* the PTT's own registers */
    BUF_ECAM,                   /* configuration space */
    BUF_ANY,                    /* anywhere in 64 bits */
    BUF_NONE,                   /* address 0: the start is refused */
    BUF_KINDS,
} HisiBufKind;

/* An MMIO region the operations reach */
typedef struct HisiRegion {
    uint64_t base;
    uint64_t size;              /* a power of 2 */
} HisiRegion;

/* The current target's parts, chosen when QEMU starts */
static struct {
    unsigned devices;
    HisiRegion regions[ARRAY_SIZE(hisi_functions) + 1];
    unsigned n_regions;
    const HisiFunction *functions[ARRAY_SIZE(hisi_functions)];
    uint8_t msi_cap[ARRAY_SIZE(hisi_functions)];    /* 0: no MSI */
    bool msi_64[ARRAY_SIZE(hisi_functions)];
    unsigned n_functions;
    const HisiProp *props[ARRAY_SIZE(hisi_props)];
    unsigned n_props;
    DeviceState *devices_under_test[ARRAY_SIZE(hisi_device_paths)];
    unsigned n_devices_under_test;
    BusState *pci_root_bus;
} hisi;

/* What an input may have changed, in the order of the resets it needs */
typedef enum HisiReach {
    REACH_DEVICES,              /* only our devices' state */
    REACH_PCI,                  /* configuration space */
    REACH_MACHINE,              /* anything: DMA outside RAM */
} HisiReach;

/* The input being decoded */
typedef struct HisiInput {
    const uint8_t *data;
    size_t left;
    uint64_t clock_left;        /* ns */
    HisiReach reach;            /* what the input may have changed */
} HisiInput;

static bool take(HisiInput *in, void *buf, size_t n)
{
    if (in->left < n) {
        return false;
    }
    memcpy(buf, in->data, n);
    in->data += n;
    in->left -= n;
    return true;
}

static bool take_u8(HisiInput *in, uint8_t *v)
{
    return take(in, v, 1);
}

static bool take_u16(HisiInput *in, uint16_t *v)
{
    if (!take(in, v, 2)) {
        return false;
    }
    *v = le16_to_cpu(*v);
    return true;
}

static bool take_u32(HisiInput *in, uint32_t *v)
{
    if (!take(in, v, 4)) {
        return false;
    }
    *v = le32_to_cpu(*v);
    return true;
}

static bool take_u64(HisiInput *in, uint64_t *v)
{
    if (!take(in, v, 8)) {
        return false;
    }
    *v = le64_to_cpu(*v);
    return true;
}

static uint64_t ecam(uint16_t bdf, uint16_t off)
{
    return HISI_ECAM_BASE + ((uint64_t)bdf << 12) + (off & 0xfff);
}

static void mem_write(QTestState *s, uint64_t addr, unsigned size,
                      uint64_t val)
{
    switch (size) {
    case 1:
        qtest_writeb(s, addr, val);
        break;
    case 2:
        qtest_writew(s, addr, val);
        break;
    case 4:
        qtest_writel(s, addr, val);
        break;
    default:
        qtest_writeq(s, addr, val);
        break;
    }
}

static void mem_read(QTestState *s, uint64_t addr, unsigned size)
{
    switch (size) {
    case 1:
        qtest_readb(s, addr);
        break;
    case 2:
        qtest_readw(s, addr);
        break;
    case 4:
        qtest_readl(s, addr);
        break;
    default:
        qtest_readq(s, addr);
        break;
    }
}

/*
 * What firmware and the drivers' probe would leave: bus numbers behind
 * the root ports, every function decoding memory and mastering, each
 * device's BAR mapped and its MSI aimed at a RAM word.
 */
static void hisi_setup(QTestState *s)
{
    /* One new memory map for all of it, not one per write: 3x the speed */
    memory_region_transaction_begin();
    for (unsigned i = 0; i < hisi.n_functions; i++) {
        const HisiFunction *f = hisi.functions[i];
        uint8_t msi = hisi.msi_cap[i];

        if (f->secondary_bus) {
            qtest_writeb(s, ecam(f->bdf, PCI_SECONDARY_BUS), f->secondary_bus);
            qtest_writeb(s, ecam(f->bdf, PCI_SUBORDINATE_BUS),
                         f->secondary_bus);
        }
        if (f->bar >= 0) {
            uint16_t bar = PCI_BASE_ADDRESS_0 + 4 * f->bar;

            qtest_writel(s, ecam(f->bdf, bar), (uint32_t)f->bar_addr);
            qtest_writel(s, ecam(f->bdf, bar + 4), f->bar_addr >> 32);
        }
        if (msi) {
            uint16_t flags = qtest_readw(s, ecam(f->bdf, msi + PCI_MSI_FLAGS));

            qtest_writel(s, ecam(f->bdf, msi + PCI_MSI_ADDRESS_LO),
                         (uint32_t)HISI_MSI_ADDR);
            if (hisi.msi_64[i]) {
                qtest_writel(s, ecam(f->bdf, msi + PCI_MSI_ADDRESS_HI),
                             HISI_MSI_ADDR >> 32);
            }
            qtest_writew(s, ecam(f->bdf, msi + (hisi.msi_64[i] ?
                                                PCI_MSI_DATA_64 :
                                                PCI_MSI_DATA_32)),
                         HISI_MSI_DATA);
            qtest_writew(s, ecam(f->bdf, msi + PCI_MSI_FLAGS),
                         flags | PCI_MSI_FLAGS_ENABLE);
        }
        qtest_writew(s, ecam(f->bdf, PCI_COMMAND),
                     PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER);
    }
    memory_region_transaction_commit();
}

/*
 * Once: where the functions' MSI capabilities are (a reset keeps them),
 * and the devices a light reset resets.
 */
static void hisi_pre_fuzz(QTestState *s)
{
    for (unsigned i = 0; i < ARRAY_SIZE(hisi_device_paths); i++) {
        if (hisi.devices & BIT(i)) {
            Object *dev = object_resolve_path(hisi_device_paths[i], NULL);

            g_assert(dev);
            hisi.devices_under_test[hisi.n_devices_under_test++] =
                DEVICE(dev);
        }
    }
    hisi.pci_root_bus = BUS(PCI_HOST_BRIDGE(object_resolve_path_type(
        "", TYPE_GPEX_HOST, NULL))->bus);
    hisi_setup(s);
    for (unsigned i = 0; i < hisi.n_functions; i++) {
        uint16_t bdf = hisi.functions[i]->bdf;
        uint8_t cap = qtest_readb(s, ecam(bdf, PCI_CAPABILITY_LIST));

        for (int hops = 0; cap && hops < 48; hops++) {
            if (qtest_readb(s, ecam(bdf, cap)) == PCI_CAP_ID_MSI) {
                uint16_t flags = qtest_readw(s, ecam(bdf, cap + PCI_MSI_FLAGS));

                hisi.msi_cap[i] = cap;
                hisi.msi_64[i] = flags & PCI_MSI_FLAGS_64BIT;
                break;
            }
            cap = qtest_readb(s, ecam(bdf, cap + PCI_CAP_LIST_NEXT));
        }
    }
    fuzz_reset(s);
    hisi_setup(s);
}

static bool op_mmio(QTestState *s, HisiInput *in, bool write)
{
    uint8_t region, size;
    uint32_t off;
    uint64_t val = 0;
    const HisiRegion *r;

    if (!take_u8(in, &region) || !take_u8(in, &size) || !take_u32(in, &off) ||
        (write && !take_u64(in, &val))) {
        return false;
    }
    r = &hisi.regions[region % hisi.n_regions];
    if (write) {
        mem_write(s, r->base + (off & (r->size - 1)), 1 << (size & 3), val);
    } else {
        mem_read(s, r->base + (off & (r->size - 1)), 1 << (size & 3));
    }
    return true;
}

static bool op_mmio_read(QTestState *s, HisiInput *in)
{
    return op_mmio(s, in, false);
}

static bool op_mmio_write(QTestState *s, HisiInput *in)
{
    return op_mmio(s, in, true);
}

static bool op_config(QTestState *s, HisiInput *in, bool write)
{
    uint8_t fn, size;
    uint16_t off;
    uint32_t val = 0;
    uint16_t bdf;

    if (!take_u8(in, &fn) || !take_u8(in, &size) || !take_u16(in, &off) ||
        (write && !take_u32(in, &val))) {
        return false;
    }
    bdf = hisi.functions[fn % hisi.n_functions]->bdf;
    if (write) {
        in->reach = MAX(in->reach, REACH_PCI);
        mem_write(s, ecam(bdf, off), 1 << (size % 3), val);
    } else {
        mem_read(s, ecam(bdf, off), 1 << (size % 3));
    }
    return true;
}

static bool op_config_read(QTestState *s, HisiInput *in)
{
    return op_config(s, in, false);
}

static bool op_config_write(QTestState *s, HisiInput *in)
{
    return op_config(s, in, true);
}

/* The registers a driver and firmware program, found by name */
static bool op_config_field(QTestState *s, HisiInput *in)
{
    uint8_t fn, field;
    uint32_t val;
    unsigned i;
    uint16_t bdf;
    uint8_t msi;

    if (!take_u8(in, &fn) || !take_u8(in, &field) || !take_u32(in, &val)) {
        return false;
    }
    in->reach = MAX(in->reach, REACH_PCI);
    i = fn % hisi.n_functions;
    bdf = hisi.functions[i]->bdf;
    msi = hisi.msi_cap[i];
    field %= FIELD_COUNT;
    if (field >= FIELD_MSI_FLAGS && field <= FIELD_MSI_DATA && !msi) {
        return true;
    }
    switch (field) {
    case FIELD_COMMAND:
        qtest_writew(s, ecam(bdf, PCI_COMMAND), val);
        break;
    case FIELD_MSI_FLAGS:
        qtest_writew(s, ecam(bdf, msi + PCI_MSI_FLAGS), val);
        break;
    case FIELD_MSI_ADDR_LO:
        qtest_writel(s, ecam(bdf, msi + PCI_MSI_ADDRESS_LO), val);
        break;
    case FIELD_MSI_ADDR_HI:
        qtest_writel(s, ecam(bdf, msi + PCI_MSI_ADDRESS_HI), val);
        break;
    case FIELD_MSI_DATA:
        qtest_writew(s, ecam(bdf, msi + (hisi.msi_64[i] ? PCI_MSI_DATA_64 :
                                                         PCI_MSI_DATA_32)),
                     val);
        break;
    case FIELD_BUSES:
        qtest_writel(s, ecam(bdf, PCI_PRIMARY_BUS), val);
        break;
    default:
        qtest_writel(s, ecam(bdf, PCI_BASE_ADDRESS_0 +
                             4 * (field - FIELD_BAR0)), val);
        break;
    }
    return true;
}

static bool op_clock_step(QTestState *s, HisiInput *in)
{
    uint32_t ns;
    uint64_t step;

    if (!take_u32(in, &ns)) {
        return false;
    }
    step = MIN(ns % (HISI_STEP_MAX_NS + 1), in->clock_left);
    if (step) {
        qtest_clock_step(s, step);
        in->clock_left -= step;
    }
    return true;
}

static bool op_ram_write(QTestState *s, HisiInput *in)
{
    uint32_t off;
    uint8_t len;
    size_t n;

    if (!take_u32(in, &off) || !take_u8(in, &len)) {
        return false;
    }
    off %= HISI_RAM_SIZE;
    n = MIN(MIN((size_t)(len & 63) + 1, in->left),
            (size_t)(HISI_RAM_SIZE - off));
    qtest_memwrite(s, HISI_RAM_BASE + off, in->data, n);
    in->data += n;
    in->left -= n;
    return true;
}

/* The trace buffers, where the fuzzer chooses: good places and bad ones */
static bool op_ptt_buffers(QTestState *s, HisiInput *in)
{
    uint8_t kind;
    uint32_t off, size;
    uint64_t base, bar = hisi_functions[0].bar_addr;

    if (!take_u8(in, &kind) || !take_u32(in, &off) || !take_u32(in, &size)) {
        return false;
    }
    if (!(hisi.devices & HISI_PTT)) {
        return true;
    }
    switch (kind % BUF_KINDS) {
    case BUF_RAM:
        base = HISI_RAM_BASE + off % HISI_RAM_SIZE;
        break;
    case BUF_RAM_END:
        base = HISI_RAM_BASE + HISI_RAM_SIZE - off % (64 * KiB);
        break;
    case BUF_LOW:
        base = off;
        break;
    case BUF_OWN_BAR:
        base = bar + off % (4 * KiB);
        break;
    case BUF_ECAM:
        base = HISI_ECAM_BASE + off;
        break;
    case BUF_ANY:
        base = (uint64_t)off << 32 | size;
        break;
    default:
        base = 0;
        break;
    }
    /* Only RAM and the PTT's own registers are the PTT's to write */
    if (!(kind % BUF_KINDS == BUF_OWN_BAR ||
          (kind % BUF_KINDS == BUF_RAM &&
           base + (uint64_t)HISI_PTT_NUM_BUFS * size <=
           HISI_RAM_BASE + HISI_RAM_SIZE))) {
        in->reach = REACH_MACHINE;
    }
    for (int i = 0; i < HISI_PTT_NUM_BUFS; i++) {
        uint64_t addr = base ? base + (uint64_t)i * size : 0;

        qtest_writel(s, bar + TRACE_ADDR_BASE_LO(i), (uint32_t)addr);
        qtest_writel(s, bar + TRACE_ADDR_BASE_HI(i), addr >> 32);
    }
    qtest_writel(s, bar + A_TRACE_ADDR_SIZE, size);
    return true;
}

/* A traffic rule from the bits of @v: fields valid and not */
static char *make_rule(uint64_t v)
{
    static const char *const streams[] = {
        "all", "nic-all", "ring-all", "dma-write", "dma-read", "mmio-read",
        "nic-rx", "roce-tx", "ring-dat-rx", "nosuch", "",
    };
    static const char *const rates[] = {
        "0", "1", "1000", "1000000", "1000000000", "10000000000",
        "10000000001", "18446744073709551616", "-1",
    };
    static const char *const lens[] = {
        "1", "1024", "1025", "65535", "65536", "0", "9-3", "1-1024", "x",
    };
    static const char *const latencies[] = {
        "0", "400", "1000000000", "1000000001",
    };
    static const char *const coalesces[] = { "1", "10", "65535", "0", "65536" };
    GString *r = g_string_new(NULL);

    if (v & BIT_ULL(40)) {
        g_string_append_printf(r, "ep=%02x:%02x.%x,", (unsigned)(v >> 48) & 3,
                               (unsigned)(v >> 50) & 0x1f,
                               (unsigned)(v >> 55) & 7);
    }
    if (v & BIT_ULL(41)) {
        g_string_append_printf(r, "port=00:%02x.0,",
                               0x10 + ((unsigned)(v >> 58) & 3));
    }
    if (v & BIT_ULL(42)) {
        g_string_append_printf(r, "node=%u,", (unsigned)(v >> 48) & 0x1ff);
    }
    g_string_append_printf(r, "stream=%s", streams[v % ARRAY_SIZE(streams)]);
    if (v & BIT_ULL(43)) {
        g_string_append_printf(r, ",rate=%s",
                               rates[(v >> 8) % ARRAY_SIZE(rates)]);
    }
    if (v & BIT_ULL(44)) {
        g_string_append_printf(r, ",len=%s",
                               lens[(v >> 16) % ARRAY_SIZE(lens)]);
    }
    if (v & BIT_ULL(45)) {
        g_string_append_printf(r, ",latency=%s",
                               latencies[(v >> 24) % ARRAY_SIZE(latencies)]);
    }
    if (v & BIT_ULL(46)) {
        g_string_append_printf(r, ",coalesce=%s",
                               coalesces[(v >> 32) % ARRAY_SIZE(coalesces)]);
    }
    if (v & BIT_ULL(47)) {
        g_string_append(r, ";stream=all,rate=0");
    }
    return g_string_free(r, false);
}

/* A qom-set value for a property of @kind: right and wrong ones */
static QObject *make_value(HisiPropKind kind, uint8_t how, uint64_t v)
{
    static const char *const bad_advance[] = {
        "", "=", "0", "0=", "=1", "x=1", "-1=5", "0=-1", "0=1x", " 0=1",
        "0=9223372036854775808", "99999999999=1", "0=0x7fffffffffffffff",
    };
    static const char *const rules[] = {
        "", HISI_RULES, "stream=all,rate=10000000000,len=1-1024",
        "stream=nic-all,rate=0;stream=nic-rx,rate=1000000,len=100,"
        "latency=400,coalesce=10",
        "ep=01:00.0,stream=dma-write,rate=1000000000",
        "port=00:10.0,stream=all,rate=10000000000", "stream=ring-all",
        "bogus", "stream=all,,foo=1", "rate=5", ";", "stream=all;;",
    };

    how %= 4;
    switch (kind) {
    case PROP_FLAG:
    case PROP_PAUSED:
        return how < 2 ? QOBJECT(qbool_from_bool(v & 1)) :
               how == 2 ? QOBJECT(qnum_from_uint(v)) :
               QOBJECT(qstring_from_str("on"));
    case PROP_ADVANCE:
        if (how < 2) {
            /* In range, then any slot and count (most out of range) */
            GString *text = g_string_new(NULL);

            g_string_printf(text, "%u=%" PRIu64,
                            how ? (unsigned)(v >> 56) : (unsigned)(v & 15),
                            how ? v : v >> 4);
            return QOBJECT(qstring_from_gstring(text));
        }
        return how == 2 ?
               QOBJECT(qstring_from_str(bad_advance[v %
                                                    ARRAY_SIZE(bad_advance)])) :
               QOBJECT(qnum_from_uint(v));
    case PROP_RULES:
        if (how == 2) {
            g_autofree char *rule = make_rule(v);

            return QOBJECT(qstring_from_str(rule));
        }
        return how < 2 ?
               QOBJECT(qstring_from_str(rules[v % ARRAY_SIZE(rules)])) :
               QOBJECT(qnum_from_uint(v));
    default:
        return how == 0 ? QOBJECT(qnum_from_uint(v % (2 * HISI_STEP_MAX_NS))) :
               how == 1 ? QOBJECT(qnum_from_uint(v)) :
               how == 2 ? QOBJECT(qnum_from_int((int64_t)v)) :
               QOBJECT(qstring_from_str("5"));
    }
}

static bool op_qom_set(QTestState *s, HisiInput *in)
{
    uint8_t prop, how;
    uint64_t v;
    const HisiProp *p;
    QObject *value;
    Error *err = NULL;

    if (!take_u8(in, &prop) || !take_u8(in, &how) || !take_u64(in, &v)) {
        return false;
    }
    p = hisi.props[prop % hisi.n_props];
    value = make_value(p->kind, how, v);
    qmp_qom_set(p->path, p->name, value, &err);
    error_free(err);
    qobject_unref(value);
    return true;
}

typedef bool HisiOp(QTestState *s, HisiInput *in);

static HisiOp *const hisi_ops[] = {
    op_mmio_read, op_mmio_write, op_config_read, op_config_write,
    op_config_field, op_clock_step, op_ram_write, op_ptt_buffers, op_qom_set,
};

static void qom_set_or_abort(const char *path, const char *name,
                             QObject *value)
{
    qmp_qom_set(path, name, value, &error_abort);
    qobject_unref(value);
}

/*
 * Back to the state every input starts from: the properties a reset
 * leaves alone, then the reset the input's @reach needs.
 */
static void hisi_restore(QTestState *s, HisiReach reach)
{
    for (unsigned i = 0; i < hisi.n_props; i++) {
        const HisiProp *p = hisi.props[i];

        if (p->kind == PROP_FLAG || p->kind == PROP_PAUSED) {
            qom_set_or_abort(p->path, p->name, QOBJECT(qbool_from_bool(false)));
        } else if (p->kind == PROP_RULES) {
            qom_set_or_abort(p->path, p->name,
                             QOBJECT(qstring_from_str(HISI_RULES)));
        }
    }
    memory_region_transaction_begin();
    if (reach == REACH_MACHINE) {
        fuzz_reset(s);
    } else {
        if (reach == REACH_PCI) {
            bus_cold_reset(hisi.pci_root_bus);
        }
        for (unsigned i = 0; i < hisi.n_devices_under_test; i++) {
            DeviceState *dev = hisi.devices_under_test[i];

            if (reach == REACH_DEVICES ||
                dev->parent_bus != hisi.pci_root_bus) {
                device_cold_reset(dev);
            }
        }
    }
    if (reach != REACH_DEVICES) {
        hisi_setup(s);
    }
    memory_region_transaction_commit();
}

static void hisi_fuzz(QTestState *s, const unsigned char *data, size_t size)
{
    HisiInput in = {
        .data = data, .left = size, .clock_left = HISI_CLOCK_BUDGET_NS,
    };
    static unsigned inputs;
    uint8_t op;

    while (take_u8(&in, &op) &&
           hisi_ops[op % ARRAY_SIZE(hisi_ops)](s, &in)) {
        flush_events(s);
    }
    flush_events(s);
    hisi_restore(s, in.reach);
    /*
     * QEMU frees old memory maps in RCU callbacks, which run under the BQL,
     * and the fuzzer hardly ever lets go of it: without a drain now and
     * then they pile up (4 GiB within minutes of PTT DMA to the flash).
     */
    if (++inputs % HISI_RCU_DRAIN_INPUTS == 0) {
        drain_call_rcu();
    }
}

static GString *hisi_cmdline(FuzzTarget *t)
{
    GString *cmd = g_string_new(TARGET_NAME " -M virt -m 128M -nic none "
                                "-display none -accel qtest "
                                "-object hisi-traffic,id=t0,source=mixed,"
                                "rules=");
    g_auto(GStrv) rule_parts = g_strsplit(HISI_RULES, ",", -1);
    g_autofree char *rules = g_strjoinv(",,", rule_parts);

    hisi.devices = GPOINTER_TO_UINT(t->opaque);
    g_string_append(cmd, rules);
    g_string_append(cmd, " -device pcie-root-port,id=rp0,bus=pcie.0,"
                    "chassis=1,addr=0x10 -device pcie-root-port,id=rp1,"
                    "bus=pcie.0,chassis=2,addr=0x11 -device edu,bus=rp0 "
                    "-device pci-testdev,bus=rp1");
    for (unsigned i = 0; i < ARRAY_SIZE(hisi_device_args); i++) {
        if (hisi.devices & BIT(i)) {
            g_string_append_printf(cmd, " -device %s", hisi_device_args[i]);
        }
    }

    for (unsigned i = 0; i < ARRAY_SIZE(hisi_functions); i++) {
        const HisiFunction *f = &hisi_functions[i];

        if (f->device && !(hisi.devices & f->device)) {
            continue;
        }
        hisi.functions[hisi.n_functions++] = f;
        if (f->bar >= 0) {
            hisi.regions[hisi.n_regions++] = (HisiRegion) {
                f->bar_addr, f->bar_size,
            };
        }
    }
    if (hisi.devices & HISI_CCN) {
        hisi.regions[hisi.n_regions++] = (HisiRegion) {
            HISI_PLATFORM_BUS, HISI_CCN_SIZE,
        };
    }
    for (unsigned i = 0; i < ARRAY_SIZE(hisi_props); i++) {
        if (!hisi_props[i].device || (hisi.devices & hisi_props[i].device)) {
            hisi.props[hisi.n_props++] = &hisi_props[i];
        }
    }
    return cmd;
}

static void hisi_add_target(const char *name, const char *description,
                            unsigned devices)
{
    fuzz_add_target(&(FuzzTarget) {
        .name = name,
        .description = description,
        .get_init_cmdline = hisi_cmdline,
        .pre_fuzz = hisi_pre_fuzz,
        .fuzz = hisi_fuzz,
        .opaque = GUINT_TO_POINTER(devices),
    });
}

static void hisi_register_fuzz_targets(void)
{
    hisi_add_target("hisi-ptt-fuzz", "Fuzz hisi-ptt on the virt machine: "
                    "registers, configuration space, trace buffers, fault "
                    "injection", HISI_PTT);
    hisi_add_target("hisi-pcie-pmu-fuzz", "Fuzz hisi-pcie-pmu on the virt "
                    "machine", HISI_PCIE_PMU);
    hisi_add_target("hns3-pmu-fuzz", "Fuzz hns3-pmu on the virt machine",
                    HISI_HNS3_PMU);
    hisi_add_target("arm-ccn-fuzz", "Fuzz arm-ccn on the virt machine",
                    HISI_CCN);
    hisi_add_target("hisi-all-fuzz", "Fuzz the four HiSilicon uncore devices "
                    "together on the virt machine", HISI_ALL);
}

fuzz_target_init(hisi_register_fuzz_targets);
