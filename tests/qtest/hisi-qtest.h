/*
 * What the HiSilicon device qtests share: a virt machine with one root port
 * (bus 1 behind it) and the device under test enabled, its BAR 2 mapped and
 * its MSI aimed at a word of guest RAM.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef TESTS_QTEST_HISI_QTEST_H
#define TESTS_QTEST_HISI_QTEST_H

#include "libqtest.h"
#include "libqos/generic-pcihost.h"
#include "libqos/pci.h"
#include "hw/pci/pci_regs.h"
#include "qobject/qdict.h"

/* Guest RAM word the MSIs write */
#define HISI_MSI_ADDR       0x47000000ull
#define HISI_MSI_DATA       0x5a5a
#define HISI_RP_DEVFN       QPCI_DEVFN(0x10, 0)

typedef struct HisiDev {
    QTestState *qts;
    QGuestAllocator alloc;
    QGenericPCIBus bus;
    QPCIDevice *dev;
    QPCIBar bar;
} HisiDev;

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
 * Start QEMU with "-M virt -nic none -m 512M" and @args (which put a root
 * port at 00:10.0), number the root port's secondary bus 1 as firmware
 * would, and enable the device at @devfn.
 */
static inline void hisi_init(HisiDev *h, int devfn, const char *args)
{
    QPCIDevice *rp;

    h->qts = qtest_initf("-M virt -nic none -m 512M %s", args);
    alloc_init(&h->alloc, 0, 0x40000000, 0x60000000, 4096);
    qpci_init_generic(&h->bus, h->qts, &h->alloc, false);
    rp = qpci_device_find(&h->bus.bus, HISI_RP_DEVFN);
    g_assert_nonnull(rp);
    qpci_config_writeb(rp, PCI_SECONDARY_BUS, 1);
    qpci_config_writeb(rp, PCI_SUBORDINATE_BUS, 1);
    g_free(rp);
    h->dev = hisi_enable(h, devfn, &h->bar);
}

static inline void hisi_fini(HisiDev *h)
{
    g_free(h->dev);
    alloc_destroy(&h->alloc);
    qtest_quit(h->qts);
}

static inline uint32_t rd(HisiDev *h, uint32_t off)
{
    return qpci_io_readl(h->dev, h->bar, off);
}

static inline void wr(HisiDev *h, uint32_t off, uint32_t val)
{
    qpci_io_writel(h->dev, h->bar, off, val);
}

/* Took an MSI since the last call? */
static inline bool msi_taken(HisiDev *h)
{
    uint32_t v = qtest_readl(h->qts, HISI_MSI_ADDR);

    qtest_writel(h->qts, HISI_MSI_ADDR, 0);
    return v == HISI_MSI_DATA;
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
 * Migrate the stopped @src into @dst, started with "-incoming defer"; @dst
 * runs on after.
 */
static inline void hisi_migrate_into(QTestState *src, QTestState *dst)
{
    g_autofree char *file = g_strdup_printf("%s/hisi-qtest-mig-%d",
                                            g_get_tmp_dir(), getpid());
    g_autofree char *uri = g_strdup_printf("file:%s", file);

    qtest_qmp_assert_success(src, "{'execute': 'stop'}");
    qtest_qmp_assert_success(src, "{'execute': 'migrate', 'arguments':"
                             " {'uri': %s}}", uri);
    hisi_wait_migration(src);
    qtest_qmp_assert_success(dst, "{'execute': 'migrate-incoming',"
                             " 'arguments': {'uri': %s}}", uri);
    hisi_wait_migration(dst);
    qtest_qmp_assert_success(dst, "{'execute': 'cont'}");
    unlink(file);
}

typedef void HisiInitFn(HisiDev *h, const char *extra);

/* Migrate @src into @dst, which @init starts to take it */
static inline void hisi_migrate(HisiDev *src, HisiDev *dst, HisiInitFn *init)
{
    init(dst, " -incoming defer");
    hisi_migrate_into(src->qts, dst->qts);
}

/* QEMU with @args must refuse to start, saying @what */
static inline void hisi_assert_refused(const char *args, const char *what)
{
    g_autofree char *out = NULL;
    g_autofree char *err = NULL;
    g_autofree char *cmd = g_strdup_printf("%s -M virt -nic none -display none"
                                           " -S %s",
                                           getenv("QTEST_QEMU_BINARY"), args);
    g_auto(GStrv) argv = g_strsplit(cmd, " ", -1);
    int status;

    g_assert_true(g_spawn_sync(NULL, argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                               &out, &err, &status, NULL));
    g_test_message("%s: %s", args, err);
    g_assert_cmpint(status, !=, 0);
    g_assert_nonnull(strstr(err, what));
}

#endif
