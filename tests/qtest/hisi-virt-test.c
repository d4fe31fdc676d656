/*
 * QTest: the hisi-virt QEMU build starts the virt board and answers.
 *
 * Checks the board itself (the PL011 identification registers) and that the
 * device set users build topologies from is compiled in.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "libqtest.h"
#include "qobject/qdict.h"
#include "qobject/qlist.h"

/* The Debian source has no option ROMs, so no default NIC. */
#define VIRT_ARGS "-M virt -nic none"

/* virt's first UART; PrimeCell ID registers at the top of its 4 KiB page */
#define VIRT_UART_BASE 0x09000000
#define PL011_PERIPHID0 0xfe0
#define PL011_CELLID0 0xff0

static void test_pl011_id(void)
{
    QTestState *qts = qtest_init(VIRT_ARGS);

    uint64_t id = VIRT_UART_BASE;

    g_assert_cmphex(qtest_readl(qts, id + PL011_PERIPHID0), ==, 0x11);
    g_assert_cmphex(qtest_readl(qts, id + PL011_CELLID0), ==, 0x0d);
    g_assert_cmphex(qtest_readl(qts, id + PL011_CELLID0 + 4), ==, 0xf0);
    qtest_quit(qts);
}

static bool type_exists(QTestState *qts, const char *name)
{
    QDict *resp = qtest_qmp(qts, "{ 'execute': 'qom-list-types',"
                            "  'arguments': { 'abstract': false } }");
    QList *types = qdict_get_qlist(resp, "return");
    QListEntry *e;
    bool found = false;

    QLIST_FOREACH_ENTRY(types, e) {
        QDict *t = qobject_to(QDict, qlist_entry_obj(e));

        if (!strcmp(qdict_get_str(t, "name"), name)) {
            found = true;
            break;
        }
    }
    qobject_unref(resp);
    return found;
}

static void test_topology_devices(void)
{
    static const char *const devices[] = {
        "pcie-root-port", "x3130-upstream", "xio3130-downstream",
        "nvme", "e1000e", "virtio-blk-pci", "virtio-net-pci",
        "pci-testdev", "edu",
    };
    QTestState *qts = qtest_init(VIRT_ARGS);

    for (size_t i = 0; i < ARRAY_SIZE(devices); i++) {
        g_test_message("device %s", devices[i]);
        g_assert_true(type_exists(qts, devices[i]));
    }
    g_assert_false(type_exists(qts, "no-such-device"));
    qtest_quit(qts);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/hisi-virt/pl011-id", test_pl011_id);
    qtest_add_func("/hisi-virt/topology-devices", test_topology_devices);
    return g_test_run();
}
