/*
 * What the HiSilicon device qtests share: QEMU command lines built an
 * argument at a time, a virt machine with one root port (bus 1 behind it)
 * and the device under test enabled, its BAR 2 mapped and its MSI aimed
 * at a word of guest RAM, register snapshots, migration, and QEMU refusing
 * bad properties.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef TESTS_QTEST_HISI_QTEST_H
#define TESTS_QTEST_HISI_QTEST_H

#include "qemu/bswap.h"
#include "libqtest.h"
#include "libqos/generic-pcihost.h"
#include "libqos/pci.h"
#include "hw/pci/pci_regs.h"
#include "qobject/qdict.h"

/* Guest RAM word the MSIs write */
#define HISI_MSI_ADDR       0x47000000ull
#define HISI_MSI_DATA       0x5a5a
#define HISI_RP_DEVFN       QPCI_DEVFN(0x10, 0)
/* That root port's -device option; bus 1 is behind it */
#define HISI_RP_ARGS        "pcie-root-port,id=rp0,bus=pcie.0,chassis=1," \
                            "addr=0x10"

/* The machine every test starts: no user data in it, so no quoting */
#define HISI_MACHINE_ARGS   "-M virt -nic none"

/*
 * QEMU arguments, one per element. Each reaches QEMU whole: libqtest runs
 * QEMU through "sh -c", so hisi_qtest_start() quotes every argument for
 * that shell, and hisi_assert_refused() passes them to exec as they are.
 * A space, quote, ';' or '$' in an argument is never split on or
 * interpreted; commas stay QEMU's own option separators (hisi_opt_escape()
 * doubles those of a value).
 */
static inline GPtrArray *hisi_args_new(void)
{
    return g_ptr_array_new_with_free_func(g_free);
}

/* Append the arguments of @ap, up to a NULL */
static inline void hisi_args_add_valist(GPtrArray *args, va_list ap)
{
    const char *arg;

    while ((arg = va_arg(ap, const char *))) {
        g_ptr_array_add(args, g_strdup(arg));
    }
}

/* Append the arguments, up to a NULL */
static inline void G_GNUC_NULL_TERMINATED hisi_args_add(GPtrArray *args, ...)
{
    va_list ap;

    va_start(ap, args);
    hisi_args_add_valist(args, ap);
    va_end(ap);
}

/* Append one argument, formatted */
static inline void G_GNUC_PRINTF(2, 3) hisi_args_addf(GPtrArray *args,
                                                      const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    g_ptr_array_add(args, g_strdup_vprintf(fmt, ap));
    va_end(ap);
}

/* @args as one shell command line: each quoted, so the shell keeps it whole */
static inline char *hisi_args_shell_join(GPtrArray *args)
{
    GString *line = g_string_new(NULL);

    for (guint i = 0; i < args->len; i++) {
        g_autofree char *quoted = g_shell_quote(g_ptr_array_index(args, i));

        g_string_append_printf(line, "%s%s", i ? " " : "", quoted);
    }
    return g_string_free(line, FALSE);
}

/* @value as a QEMU option value: its commas doubled, or QEMU splits it */
static inline char *hisi_opt_escape(const char *value)
{
    g_auto(GStrv) parts = g_strsplit(value, ",", -1);

    return g_strjoinv(",,", parts);
}

/*
 * The topology the PCIe device tests share: a hisi-traffic object "t0"
 * with @rules (none when NULL), the root port at 00:10.0 and an edu
 * endpoint behind it.
 */
static inline GPtrArray *hisi_args_topology(const char *rules)
{
    GPtrArray *args = hisi_args_new();

    if (rules) {
        g_autofree char *escaped = hisi_opt_escape(rules);

        hisi_args_add(args, "-object", NULL);
        hisi_args_addf(args, "hisi-traffic,id=t0,rules=%s", escaped);
    }
    hisi_args_add(args, "-device", HISI_RP_ARGS, "-device",
                  "edu,bus=rp0,id=edu0", NULL);
    return args;
}

/* Append "-device" and its option, formatted */
static inline void G_GNUC_PRINTF(2, 3) hisi_args_add_device(GPtrArray *args,
                                                            const char *fmt,
                                                            ...)
{
    va_list ap;

    g_ptr_array_add(args, g_strdup("-device"));
    va_start(ap, fmt);
    g_ptr_array_add(args, g_strdup_vprintf(fmt, ap));
    va_end(ap);
}

/* Start QEMU with HISI_MACHINE_ARGS, @extra_machine_args, then @args */
static inline QTestState *hisi_qtest_start(const char *extra_machine_args,
                                           GPtrArray *args)
{
    g_autofree char *line = hisi_args_shell_join(args);

    return qtest_initf(HISI_MACHINE_ARGS " %s %s", extra_machine_args, line);
}

typedef struct HisiDev {
    QTestState *qts;
    QGuestAllocator alloc;
    QGenericPCIBus bus;
    QPCIDevice *dev;
    QPCIBar bar;
    char *log;              /* QEMU's guest errors (-d guest_errors -D) */
    size_t log_taken;       /* how much of it hisi_guest_errors() gave */
} HisiDev;

/*
 * What QEMU logged as guest errors since the last call. qemu_log flushes
 * each message before the access that caused it completes, so the
 * messages of every access the test has made are there.
 */
static inline char *hisi_guest_errors(HisiDev *h)
{
    g_autofree char *text = NULL;
    size_t len = 0;
    char *fresh;

    if (!g_file_get_contents(h->log, &text, &len, NULL)) {
        return g_strdup("");        /* nothing logged yet: no file */
    }
    g_assert_cmpuint(len, >=, h->log_taken);
    fresh = g_strdup(text + h->log_taken);
    h->log_taken = len;
    return fresh;
}

/* Since the last check, QEMU logged a guest error containing @what */
static inline void hisi_assert_guest_error(HisiDev *h, const char *what)
{
    g_autofree char *fresh = hisi_guest_errors(h);

    if (!strstr(fresh, what)) {
        g_test_message("expected a guest error with '%s'; logged: '%s'",
                       what, fresh);
    }
    g_assert_nonnull(strstr(fresh, what));
}

/* hisi_assert_guest_error() of a formatted @fmt */
static inline void G_GNUC_PRINTF(2, 3)
hisi_assert_guest_errorf(HisiDev *h, const char *fmt, ...)
{
    g_autofree char *what = NULL;
    va_list ap;

    va_start(ap, fmt);
    what = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    hisi_assert_guest_error(h, what);
}

/* Since the last check, QEMU logged no guest error */
static inline void hisi_assert_no_guest_error(HisiDev *h)
{
    g_autofree char *fresh = hisi_guest_errors(h);

    g_assert_cmpstr(fresh, ==, "");
}

/*
 * @h's function is a Root Complex Integrated Endpoint: its capability list
 * (pointers dword-aligned, PCI 3.0 6.7) holds MSI (one vector, 64-bit)
 * and a PCI Express capability of that type; its registers are in BAR 2,
 * 64-bit memory
 */
static inline void hisi_assert_rciep(HisiDev *h)
{
    uint8_t cap = qpci_config_readb(h->dev, PCI_CAPABILITY_LIST);
    bool msi = false, exp = false;

    g_assert_cmphex(qpci_config_readl(h->dev, PCI_BASE_ADDRESS_2) &
                    (PCI_BASE_ADDRESS_SPACE | PCI_BASE_ADDRESS_MEM_TYPE_MASK),
                    ==, PCI_BASE_ADDRESS_SPACE_MEMORY |
                    PCI_BASE_ADDRESS_MEM_TYPE_64);

    g_assert_true(qpci_config_readw(h->dev, PCI_STATUS) & PCI_STATUS_CAP_LIST);
    for (int n = 0; cap; n++) {
        g_assert_cmpint(n, <, 48);
        g_assert_cmphex(cap & 3, ==, 0);
        g_assert_cmphex(cap, >=, PCI_STD_HEADER_SIZEOF);
        switch (qpci_config_readb(h->dev, cap)) {
        case PCI_CAP_ID_MSI:
            msi = true;
            /* one vector (the docs of the three devices), 64-bit */
            g_assert_cmphex(qpci_config_readw(h->dev, cap + PCI_MSI_FLAGS) &
                            (PCI_MSI_FLAGS_QMASK | PCI_MSI_FLAGS_64BIT), ==,
                            PCI_MSI_FLAGS_64BIT);
            break;
        case PCI_CAP_ID_EXP:
            exp = true;
            g_assert_cmphex(qpci_config_readw(h->dev, cap + PCI_EXP_FLAGS) &
                            PCI_EXP_FLAGS_TYPE, ==,
                            PCI_EXP_TYPE_RC_END << 4);
            break;
        }
        cap = qpci_config_readb(h->dev, cap + PCI_CAP_LIST_NEXT);
    }
    g_assert_true(msi);
    g_assert_true(exp);
}

/* Enable @devfn, map its BAR 2 into @bar and aim its MSI at the RAM word */
static inline QPCIDevice *hisi_enable(HisiDev *h, int devfn, QPCIBar *bar)
{
    QPCIDevice *d = qpci_device_find(&h->bus.bus, devfn);
    uint8_t msi;

    g_assert_nonnull(d);
    qpci_device_enable(d);
    *bar = qpci_iomap(d, 2, NULL);
    msi = qpci_find_capability(d, PCI_CAP_ID_MSI, 0);
    g_assert_cmpuint(msi, !=, 0);
    qpci_config_writel(d, msi + PCI_MSI_ADDRESS_LO, (uint32_t)HISI_MSI_ADDR);
    qpci_config_writel(d, msi + PCI_MSI_ADDRESS_HI, HISI_MSI_ADDR >> 32);
    qpci_config_writew(d, msi + PCI_MSI_DATA_64, HISI_MSI_DATA);
    qpci_config_writew(d, msi + PCI_MSI_FLAGS,
                       qpci_config_readw(d, msi + PCI_MSI_FLAGS) |
                       PCI_MSI_FLAGS_ENABLE);
    return d;
}

/*
 * Number the buses below the bridge at @bdf @secondary to @subordinate, as
 * firmware would
 */
static inline void hisi_number_buses(HisiDev *h, int bdf, uint8_t secondary,
                                     uint8_t subordinate)
{
    QPCIDevice *bridge = qpci_device_find(&h->bus.bus, bdf);

    g_assert_nonnull(bridge);
    qpci_config_writeb(bridge, PCI_SECONDARY_BUS, secondary);
    qpci_config_writeb(bridge, PCI_SUBORDINATE_BUS, subordinate);
    g_free(bridge);
}

/* Number the root port at @rp_devfn's secondary bus @bus, the only one */
static inline void hisi_number_bus(HisiDev *h, int rp_devfn, uint8_t bus)
{
    hisi_number_buses(h, rp_devfn, bus, bus);
}

/*
 * A switch below root port rp1 (bus 2): its upstream port at 02:00.0 and
 * downstream ports dn0 at 03:00.0 and dn1 at 03:01.0, over buses 4 and 5
 * once hisi_number_switch() has numbered them
 */
#define HISI_SWITCH_ARGS    "-device", "x3130-upstream,id=up,bus=rp1", \
                            "-device", "xio3130-downstream,id=dn0,bus=up," \
                            "chassis=5,slot=0", \
                            "-device", "xio3130-downstream,id=dn1,bus=up," \
                            "chassis=5,slot=1,addr=1"
#define HISI_SWITCH_UP_BDF  0x0200
#define HISI_SWITCH_DN0_BDF 0x0300
#define HISI_SWITCH_DN1_BDF 0x0308

/* Number the buses of HISI_SWITCH_ARGS below rp1 at @rp1_devfn */
static inline void hisi_number_switch(HisiDev *h, int rp1_devfn)
{
    hisi_number_buses(h, rp1_devfn, 2, 5);
    hisi_number_buses(h, HISI_SWITCH_UP_BDF, 3, 5);
    hisi_number_bus(h, HISI_SWITCH_DN0_BDF, 4);
    hisi_number_bus(h, HISI_SWITCH_DN1_BDF, 5);
}

/*
 * Start QEMU with 512M of RAM and @args, its guest errors logged for
 * hisi_guest_errors(), and no PCI function of @h's yet
 */
static inline void hisi_start(HisiDev *h, GPtrArray *args)
{
    static unsigned started;

    *h = (HisiDev) {
        .log = g_strdup_printf("%s/hisi-qtest-%d-%u.log", g_get_tmp_dir(),
                               getpid(), started++),
    };
    unlink(h->log);
    hisi_args_add(args, "-d", "guest_errors", "-D", h->log, NULL);
    h->qts = hisi_qtest_start("-m 512M", args);
    alloc_init(&h->alloc, 0, 0x40000000, 0x60000000, 4096);
}

/*
 * Start QEMU as hisi_start() does, with @args that put a root port at
 * 00:10.0, number the root port's secondary bus 1 as firmware would, and
 * enable the device at @devfn.
 */
static inline void hisi_init(HisiDev *h, int devfn, GPtrArray *args)
{
    hisi_start(h, args);
    qpci_init_generic(&h->bus, h->qts, &h->alloc, false);
    hisi_number_bus(h, HISI_RP_DEVFN, 1);
    h->dev = hisi_enable(h, devfn, &h->bar);
}

/*
 * The edu endpoint's DMA engine (hw/misc/edu.c), for real DMA below the
 * root port: QEMU needs HISI_EDU_DMA_ANY among its arguments for the edu
 * to reach all of RAM.
 */
#define HISI_EDU_DMA_ANY    "-global", "edu.dma_mask=0xffffffffffffffff"
#define HISI_EDU_DMA_SRC    0x80
#define HISI_EDU_DMA_DST    0x88
#define HISI_EDU_DMA_CNT    0x90
#define HISI_EDU_DMA_CMD    0x98
#define HISI_EDU_DMA_RUN    0x1
#define HISI_EDU_DMA_TO_RAM 0x2
#define HISI_EDU_DMA_BUF    0x40000     /* its buffer, in its own space */
#define HISI_EDU_DMA_NS     (101 * 1000 * 1000)  /* its timer, and some */

typedef struct HisiEndpoint {
    QPCIDevice *dev;
    QPCIBar bar;
} HisiEndpoint;

/*
 * The function at @bdf below the root port at @rp_devfn, set up as a
 * driver would have it: its BAR 0 in the root port's window, memory
 * decoding and bus mastering on
 */
static inline void hisi_endpoint_init(HisiDev *h, HisiEndpoint *e,
                                      int rp_devfn, int bdf)
{
    QPCIDevice *rp = qpci_device_find(&h->bus.bus, rp_devfn);
    uint64_t size;

    e->dev = qpci_device_find(&h->bus.bus, bdf);
    g_assert_nonnull(e->dev);
    qpci_device_enable(e->dev);
    e->bar = qpci_iomap(e->dev, 0, &size);
    qpci_config_writew(rp, PCI_MEMORY_BASE, (e->bar.addr >> 16) & 0xfff0);
    qpci_config_writew(rp, PCI_MEMORY_LIMIT,
                       ((e->bar.addr + size - 1) >> 16) & 0xfff0);
    qpci_device_enable(rp);
    g_free(rp);
}

/* The edu at @bdf below the root port at HISI_RP_DEVFN */
static inline void hisi_edu_init(HisiDev *h, HisiEndpoint *e, int bdf)
{
    hisi_endpoint_init(h, e, HISI_RP_DEVFN, bdf);
}

/* The edu copies @len bytes to RAM at @ram (@to_ram) or from it. */
static inline void hisi_edu_dma(HisiDev *h, HisiEndpoint *e, bool to_ram,
                                uint64_t ram, uint32_t len)
{
    qpci_io_writel(e->dev, e->bar, HISI_EDU_DMA_SRC,
                   to_ram ? HISI_EDU_DMA_BUF : ram);
    qpci_io_writel(e->dev, e->bar, HISI_EDU_DMA_DST,
                   to_ram ? ram : HISI_EDU_DMA_BUF);
    qpci_io_writel(e->dev, e->bar, HISI_EDU_DMA_CNT, len);
    qpci_io_writel(e->dev, e->bar, HISI_EDU_DMA_CMD,
                   HISI_EDU_DMA_RUN | (to_ram ? HISI_EDU_DMA_TO_RAM : 0));
    qtest_clock_step(h->qts, HISI_EDU_DMA_NS);
}

/*
 * The CPU's accesses to the edu that the real-traffic tests trace and
 * count, HISI_EDU_CPU_NS apart: a 4-byte write and read of its liveness
 * register (which reads back the inverse of what was written), a 2-byte
 * configuration read of its Vendor ID, a 1-byte configuration write and
 * read of its Command register's upper byte (INTx disabled). Each goes
 * through the tap to the edu and back.
 */
#define HISI_EDU_LIVENESS   0x04
#define HISI_EDU_CPU_NS     1000

static inline void hisi_edu_cpu_accesses(HisiDev *h, HisiEndpoint *e)
{
    qpci_io_writel(e->dev, e->bar, HISI_EDU_LIVENESS, 0x12345678);
    qtest_clock_step(h->qts, HISI_EDU_CPU_NS);
    g_assert_cmphex(qpci_io_readl(e->dev, e->bar, HISI_EDU_LIVENESS), ==,
                    ~0x12345678u);
    qtest_clock_step(h->qts, HISI_EDU_CPU_NS);
    g_assert_cmphex(qpci_config_readw(e->dev, PCI_VENDOR_ID), ==, 0x1234);
    qtest_clock_step(h->qts, HISI_EDU_CPU_NS);
    qpci_config_writeb(e->dev, PCI_COMMAND + 1,
                       PCI_COMMAND_INTX_DISABLE >> 8);
    g_assert_cmphex(qpci_config_readb(e->dev, PCI_COMMAND + 1), ==,
                    PCI_COMMAND_INTX_DISABLE >> 8);
}

static inline void hisi_fini(HisiDev *h)
{
    g_free(h->dev);
    alloc_destroy(&h->alloc);
    qtest_quit(h->qts);
    unlink(h->log);
    g_free(h->log);
}

/*
 * The guest's side of native PCIe hot-plug on the root port at @rp_devfn,
 * as Linux's pciehp does it: power the slot on once a device is present,
 * off to eject it (QEMU detaches the device when its slot powers off).
 */
static inline void hisi_slot_power(HisiDev *h, int rp_devfn, bool on)
{
    QPCIDevice *rp = qpci_device_find(&h->bus.bus, rp_devfn);
    uint8_t exp;
    uint16_t ctl;

    g_assert_nonnull(rp);
    exp = qpci_find_capability(rp, PCI_CAP_ID_EXP, 0);
    g_assert_cmpuint(exp, !=, 0);
    ctl = qpci_config_readw(rp, exp + PCI_EXP_SLTCTL) &
          ~(PCI_EXP_SLTCTL_PCC | PCI_EXP_SLTCTL_PIC);
    ctl |= on ? PCI_EXP_SLTCTL_PWR_ON | PCI_EXP_SLTCTL_PWR_IND_ON :
                PCI_EXP_SLTCTL_PWR_OFF | PCI_EXP_SLTCTL_PWR_IND_OFF;
    qpci_config_writew(rp, exp + PCI_EXP_SLTCTL, ctl);
    g_free(rp);
}

/* Hot-plug @driver as @id into root port @bus (at @rp_devfn), powered */
static inline void hisi_hotplug(HisiDev *h, const char *bus, int rp_devfn,
                                const char *driver, const char *id)
{
    qtest_qmp_device_add(h->qts, driver, id, "{'bus': %s}", bus);
    hisi_slot_power(h, rp_devfn, true);
}

/*
 * Hot-unplug device @id from the root port at @rp_devfn: device_del
 * presses the slot's attention button, the guest powers the slot off,
 * QEMU removes the device there and then.
 */
static inline void hisi_hot_unplug(HisiDev *h, int rp_devfn, const char *id)
{
    qtest_qmp_device_del_send(h->qts, id);
    hisi_slot_power(h, rp_devfn, false);
    qtest_qmp_eventwait(h->qts, "DEVICE_DELETED");
}

/*
 * The configuration header of one of our RCiEPs: its IDs, and interrupt
 * pin INTA, as the header of a Kunpeng RCiEP says (the devices interrupt
 * by MSI only)
 */
static inline void hisi_assert_rciep_header(HisiDev *h, uint16_t vendor_id,
                                            uint16_t device_id)
{
    g_assert_cmphex(qpci_config_readw(h->dev, PCI_VENDOR_ID), ==, vendor_id);
    g_assert_cmphex(qpci_config_readw(h->dev, PCI_DEVICE_ID), ==, device_id);
    g_assert_cmphex(qpci_config_readb(h->dev, PCI_INTERRUPT_PIN), ==, 1);
}

/* 32- and 64-bit accesses to the BAR */
static inline uint32_t hisi_rd(HisiDev *h, uint64_t off)
{
    return qpci_io_readl(h->dev, h->bar, off);
}

static inline void hisi_wr(HisiDev *h, uint64_t off, uint32_t val)
{
    qpci_io_writel(h->dev, h->bar, off, val);
}

static inline uint64_t hisi_rdq(HisiDev *h, uint64_t off)
{
    return qpci_io_readq(h->dev, h->bar, off);
}

static inline void hisi_wrq(HisiDev *h, uint64_t off, uint64_t val)
{
    qpci_io_writeq(h->dev, h->bar, off, val);
}

/* Took an MSI since the last call? */
static inline bool hisi_msi_taken(HisiDev *h)
{
    uint32_t v = qtest_readl(h->qts, HISI_MSI_ADDR);

    qtest_writel(h->qts, HISI_MSI_ADDR, 0);
    return v == HISI_MSI_DATA;
}

/* Sets the rules of traffic object t0 (qom-set) */
static inline void hisi_set_rules(QTestState *qts, const char *rules)
{
    qtest_qmp_assert_success(qts, "{'execute': 'qom-set', 'arguments': "
                             "{'path': 't0', 'property': 'rules', "
                             "'value': %s}}", rules);
}

/* The rules of traffic object t0, as QMP reads them (g_free() them) */
static inline char *hisi_rules(QTestState *qts)
{
    QDict *rsp = qtest_qmp(qts, "{'execute': 'qom-get', 'arguments': "
                           "{'path': 't0', 'property': 'rules'}}");
    char *rules = g_strdup(qdict_get_str(rsp, "return"));

    qobject_unref(rsp);
    return rules;
}

/*
 * The 32-bit words at some offsets of the BAR, read before accesses that
 * must change nothing, and compared after them.
 */
#define HISI_SNAPSHOT_MAX   128

typedef struct HisiSnapshot {
    size_t n;
    uint64_t off[HISI_SNAPSHOT_MAX];
    uint32_t val[HISI_SNAPSHOT_MAX];
} HisiSnapshot;

static inline void hisi_snapshot_add(HisiSnapshot *s, uint64_t off)
{
    g_assert_cmpuint(s->n, <, HISI_SNAPSHOT_MAX);
    s->off[s->n++] = off;
}

static inline void hisi_snapshot_take(HisiDev *h, HisiSnapshot *s)
{
    for (size_t i = 0; i < s->n; i++) {
        s->val[i] = hisi_rd(h, s->off[i]);
    }
}

static inline void hisi_snapshot_assert_same(HisiDev *h, const HisiSnapshot *s)
{
    for (size_t i = 0; i < s->n; i++) {
        uint32_t now = hisi_rd(h, s->off[i]);

        if (now != s->val[i]) {
            g_test_message("register 0x%04" PRIx64 " changed", s->off[i]);
        }
        g_assert_cmphex(now, ==, s->val[i]);
    }
}

static inline void hisi_wait_migration(QTestState *qts)
{
    for (int i = 0; i < 1000; i++) {
        QDict *rsp = qtest_qmp(qts, "{'execute': 'query-migrate'}");
        QDict *ret = qdict_get_qdict(rsp, "return");
        const char *status = qdict_haskey(ret, "status") ?
                             qdict_get_str(ret, "status") : "none";
        bool done = !strcmp(status, "completed");

        g_assert_cmpstr(status, !=, "failed");
        qobject_unref(rsp);
        if (done) {
            return;
        }
        g_usleep(10 * 1000);
    }
    g_assert_not_reached();
}

/*
 * Migrate @src into @dst, started with "-incoming defer"; @dst runs on
 * after, its virtual clock where @src's was.
 *
 * Under the qtest accelerator the virtual clock is qtest's own counter,
 * which migration does not carry: @dst's would start at 0, and the
 * devices' times (when a record happened, what a counter counted since)
 * would be ahead of it. So @dst's clock is set to @src's before the state
 * comes in, and what happens after is what would have happened in @src.
 * qtest reads a clock only by moving it ("clock_step 0" fails): @src's is
 * read by a 1 ns step once its state is saved, which that state never sees.
 */
static inline void hisi_migrate_into(QTestState *src, QTestState *dst)
{
    g_autofree char *file = g_strdup_printf("%s/hisi-qtest-mig-%d",
                                            g_get_tmp_dir(), getpid());
    g_autofree char *uri = g_strdup_printf("file:%s", file);
    int64_t now;

    qtest_qmp_assert_success(src, "{'execute': 'stop'}");
    qtest_qmp_assert_success(src, "{'execute': 'migrate', 'arguments':"
                             " {'uri': %s}}", uri);
    hisi_wait_migration(src);
    now = qtest_clock_step(src, 1) - 1;
    g_assert_cmpint(qtest_clock_set(dst, now), ==, now);
    qtest_qmp_assert_success(dst, "{'execute': 'migrate-incoming',"
                             " 'arguments': {'uri': %s}}", uri);
    hisi_wait_migration(dst);
    qtest_qmp_assert_success(dst, "{'execute': 'cont'}");
    unlink(file);
}

/*
 * A test's start-up: the device under test with @props appended to its
 * -device option (",name=value..."), then more QEMU arguments up to a NULL.
 */
typedef void HisiInitFn(HisiDev *h, const char *props, ...);

/* Migrate @src into @dst, which @init starts to take it */
static inline void hisi_migrate(HisiDev *src, HisiDev *dst, HisiInitFn *init)
{
    init(dst, "", "-incoming", "defer", NULL);
    hisi_migrate_into(src->qts, dst->qts);
}

/*
 * A device's section in the migration stream (migration/savevm.c,
 * save_section_header): QEMU_VM_SECTION_FULL, the section id (be32), the
 * idstr (its length in a byte, then its characters), the instance id and
 * the version (be32 each), then the fields of its VMState.
 */
#define STREAM_SECTION_FULL 0x04

/* @p's QEMU stopped, and its migration stream, saved to a file */
static inline GByteArray *hisi_save_stream(HisiDev *p)
{
    g_autofree char *file = g_strdup_printf("%s/hisi-qtest-stream-%d",
                                            g_get_tmp_dir(), getpid());
    g_autofree char *uri = g_strdup_printf("file:%s", file);
    g_autoptr(GError) err = NULL;
    gchar *data;
    gsize len;

    qtest_qmp_assert_success(p->qts, "{'execute': 'stop'}");
    qtest_qmp_assert_success(p->qts, "{'execute': 'migrate', 'arguments':"
                             " {'uri': %s}}", uri);
    hisi_wait_migration(p->qts);
    g_file_get_contents(file, &data, &len, &err);
    g_assert_no_error(err);
    unlink(file);
    return g_byte_array_new_take((guint8 *)data, len);
}

/*
 * Where in @stream the fields of the section start whose idstr is @name
 * or ends with "/" @name (a PCI function's); its version is the be32
 * before them
 */
static inline size_t hisi_stream_section_fields(GByteArray *stream,
                                                const char *name)
{
    size_t n = strlen(name);

    for (size_t i = 0; i + 6 < stream->len; i++) {
        const guint8 *s = stream->data + i;
        size_t id_len = s[5];
        const char *id = (const char *)s + 6;

        if (s[0] == STREAM_SECTION_FULL && id_len >= n &&
            i + 6 + id_len + 8 <= stream->len &&
            !memcmp(id + id_len - n, name, n) &&
            (id_len == n || id[id_len - n - 1] == '/')) {
            return i + 6 + id_len + 8;
        }
    }
    g_assert_not_reached();
}

static inline uint32_t hisi_stream_section_version(GByteArray *stream,
                                                   const char *name)
{
    return ldl_be_p(stream->data + hisi_stream_section_fields(stream, name) -
                    4);
}

/*
 * Where the version of @stream's subsection @name is (migration/vmstate.c,
 * vmstate_subsection_save: QEMU_VM_SUBSECTION, the name's length in a
 * byte, the name, the version as a be32, then its fields)
 */
#define STREAM_SUBSECTION   0x05

static inline guint8 *hisi_stream_subsection_version_at(GByteArray *stream,
                                                        const char *name)
{
    size_t n = strlen(name);

    for (size_t i = 0; i + 2 + n + 4 <= stream->len; i++) {
        guint8 *s = stream->data + i;

        if (s[0] == STREAM_SUBSECTION && s[1] == n &&
            !memcmp(s + 2, name, n)) {
            return s + 2 + n;
        }
    }
    g_assert_not_reached();
}

static inline uint32_t hisi_stream_subsection_version(GByteArray *stream,
                                                      const char *name)
{
    return ldl_be_p(hisi_stream_subsection_version_at(stream, name));
}

/* Make @stream's subsection @name claim @version (its layout stays) */
static inline void hisi_stream_set_subsection_version(GByteArray *stream,
                                                      const char *name,
                                                      uint32_t version)
{
    stl_be_p(hisi_stream_subsection_version_at(stream, name), version);
}

/* Make @stream's section @name claim @version (its layout stays) */
static inline void hisi_stream_set_section_version(GByteArray *stream,
                                                   const char *name,
                                                   uint32_t version)
{
    stl_be_p(stream->data + hisi_stream_section_fields(stream, name) - 4,
             version);
}

/*
 * A new QEMU, @dst started by @init, loads @stream: whether it completed
 * (else it failed, and @dst runs on)
 */
static inline bool hisi_load_stream_into(HisiDev *dst, GByteArray *stream,
                                         HisiInitFn *init)
{
    g_autofree char *file = g_strdup_printf("%s/hisi-qtest-stream-in-%d",
                                            g_get_tmp_dir(), getpid());
    g_autofree char *uri = g_strdup_printf("file:%s", file);
    g_autoptr(GError) err = NULL;
    bool completed = false;

    g_file_set_contents(file, (const char *)stream->data, stream->len, &err);
    g_assert_no_error(err);
    init(dst, "", "-incoming", "defer", NULL);
    qtest_qmp_assert_success(dst->qts, "{'execute': 'migrate-incoming',"
                             " 'arguments': {'uri': %s,"
                             " 'exit-on-error': false}}", uri);
    for (int i = 0;; i++) {
        QDict *rsp = qtest_qmp(dst->qts, "{'execute': 'query-migrate'}");
        QDict *ret = qdict_get_qdict(rsp, "return");
        const char *status = qdict_haskey(ret, "status") ?
                             qdict_get_str(ret, "status") : "none";
        bool done = !strcmp(status, "completed") ||
                    !strcmp(status, "failed");

        completed = !strcmp(status, "completed");
        qobject_unref(rsp);
        if (done) {
            break;
        }
        g_assert_cmpint(i, <, 1000);
        g_usleep(10 * 1000);
    }
    /* It runs on after a failed load */
    qtest_qmp_assert_success(dst->qts, "{'execute': 'query-status'}");
    unlink(file);
    return completed;
}

/* hisi_load_stream_into() a QEMU that ends after it */
static inline bool hisi_load_stream(GByteArray *stream, HisiInitFn *init)
{
    HisiDev dst;
    bool completed = hisi_load_stream_into(&dst, stream, init);

    hisi_fini(&dst);
    return completed;
}

/*
 * A destination that @init starts refuses the device's section @name one
 * version before @version, the one it saves (a layout it would misread),
 * and loads the same stream at @version.
 */
static inline void hisi_assert_old_section_refused(HisiInitFn *init,
                                                   const char *name,
                                                   uint32_t version)
{
    g_autoptr(GByteArray) stream = NULL;
    HisiDev src;

    init(&src, "", NULL);
    stream = hisi_save_stream(&src);
    hisi_fini(&src);
    g_assert_cmpuint(hisi_stream_section_version(stream, name), ==, version);
    g_assert_true(hisi_load_stream(stream, init));
    hisi_stream_set_section_version(stream, name, version - 1);
    g_assert_false(hisi_load_stream(stream, init));
}

/*
 * What a run saw, in order: a test runs its steps twice, once migrating at
 * some instant and once (the twin) not, and the two logs must be the same
 * entry for entry, name, index and value.
 */
typedef struct HisiTwinEntry {
    const char *what;
    uint64_t at;            /* an index or address within @what */
    uint64_t val;
} HisiTwinEntry;

typedef struct HisiTwinLog {
    GArray *entries;
} HisiTwinLog;

static inline void hisi_twin_init(HisiTwinLog *log)
{
    log->entries = g_array_new(FALSE, FALSE, sizeof(HisiTwinEntry));
}

static inline void hisi_twin_free(HisiTwinLog *log)
{
    g_array_free(log->entries, TRUE);
}

/* Log @val as @what[@at]; returns @val */
static inline uint64_t hisi_twin_log_at(HisiTwinLog *log, const char *what,
                                        uint64_t at, uint64_t val)
{
    HisiTwinEntry e = { .what = what, .at = at, .val = val };

    g_array_append_val(log->entries, e);
    return val;
}

static inline uint64_t hisi_twin_log(HisiTwinLog *log, const char *what,
                                     uint64_t val)
{
    return hisi_twin_log_at(log, what, 0, val);
}

/* Log guest memory [@addr, @addr + @len), @len a multiple of 8, by words */
static inline void hisi_twin_log_mem(HisiTwinLog *log, const char *what,
                                     QTestState *qts, uint64_t addr,
                                     size_t len)
{
    g_autofree uint64_t *buf = g_malloc(len);

    g_assert_cmpuint(len % sizeof(*buf), ==, 0);
    qtest_memread(qts, addr, buf, len);
    for (size_t i = 0; i < len / sizeof(*buf); i++) {
        hisi_twin_log_at(log, what, addr + i * sizeof(*buf),
                         le64_to_cpu(buf[i]));
    }
}

/* The migrated run saw what its twin saw */
static inline void hisi_twin_assert_same(const HisiTwinLog *migrated,
                                         const HisiTwinLog *twin)
{
    guint n = MIN(migrated->entries->len, twin->entries->len);

    for (guint i = 0; i < n; i++) {
        HisiTwinEntry *m = &g_array_index(migrated->entries, HisiTwinEntry,
                                          i);
        HisiTwinEntry *t = &g_array_index(twin->entries, HisiTwinEntry, i);

        if (strcmp(m->what, t->what) || m->at != t->at || m->val != t->val) {
            g_test_message("entry %u: migrated %s[0x%" PRIx64 "] = 0x%"
                           PRIx64 ", twin %s[0x%" PRIx64 "] = 0x%" PRIx64,
                           i, m->what, m->at, m->val, t->what, t->at,
                           t->val);
        }
        g_assert_cmpstr(m->what, ==, t->what);
        g_assert_cmphex(m->at, ==, t->at);
        g_assert_cmphex(m->val, ==, t->val);
    }
    g_assert_cmpuint(migrated->entries->len, ==, twin->entries->len);
}

/* Properties QEMU must refuse: a test case each (hisi_add_refusals) */
typedef struct HisiRefusal {
    const char *name;           /* the test case */
    const char *args[5];        /* the QEMU arguments, up to a NULL */
    const char *what;           /* in QEMU's error message */
} HisiRefusal;

/* QEMU with the arguments of @data, a HisiRefusal, must refuse to start */
static inline void hisi_assert_refused(const void *data)
{
    const HisiRefusal *r = data;
    const char *qemu = getenv("QTEST_QEMU_BINARY");
    g_autoptr(GPtrArray) argv = hisi_args_new();
    g_autofree char *out = NULL;
    g_autofree char *err = NULL;
    g_autofree char *line = NULL;
    int status;

    g_assert_nonnull(qemu);
    hisi_args_add(argv, qemu, "-M", "virt", "-nic", "none", "-display", "none",
                  "-S", NULL);
    for (const char *const *arg = r->args; *arg; arg++) {
        hisi_args_add(argv, *arg, NULL);
    }
    line = hisi_args_shell_join(argv);
    g_ptr_array_add(argv, NULL);
    g_assert_true(g_spawn_sync(NULL, (char **)argv->pdata, NULL,
                               G_SPAWN_DEFAULT, NULL, NULL, &out, &err,
                               &status, NULL));
    g_test_message("%s: %s", line, err);
    g_assert_cmpint(status, !=, 0);
    g_assert_nonnull(strstr(err, r->what));
}

/* A case @prefix/NAME for each of the @n refusals */
static inline void hisi_add_refusals(const char *prefix,
                                     const HisiRefusal *refusals, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        g_autofree char *path = g_strdup_printf("%s/%s", prefix,
                                                refusals[i].name);

        qtest_add_data_func(path, &refusals[i], hisi_assert_refused);
    }
}

#endif
