/*
 * QTest: the hisi-virt QEMU build: the virt board, our uncore devices and
 * the device set users build PCIe topologies from.
 *
 * The devices' own qtests drive each device alone. These check what the
 * build and the board give them together: each device is compiled in with
 * the properties its docs/<device>.md lists (the names, types and defaults
 * that scripts, boot suites and users set), and on one board the devices
 * share one default traffic object unless given their own, so that what a
 * PTT traces is what the PMUs count.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "libqtest.h"
#include "qobject/qdict.h"
#include "qobject/qlist.h"

/* The Debian source has no option ROMs, so no default NIC. */
#define VIRT_ARGS "-M virt -nic none"

/* A documented property: its QOM type (NULL: any), its default if it has */
typedef struct DocProp {
    const char *name;
    const char *type;
    bool has_default;
    int64_t default_value;
} DocProp;

#define TRAFFIC_LINK { "traffic", "link<hisi-traffic>", false, 0 }
#define ADVANCE { "advance", NULL, false, 0 }

static const struct {
    const char *name;
    const char *implements;     /* where it plugs in */
    DocProp props[11];
} uncore_devices[] = {
    { "hisi-ptt", "pci-express-device", {
        { "sicl-id", "uint16", true, 0 },
        { "core-id", "uint16", true, 0 },
        { "rp-bdf-min", "uint16", true, 0x0080 },
        { "rp-bdf-max", "uint16", true, 0x00bf },
        TRAFFIC_LINK,
        { "fail-next-dma", "bool", false, 0 },
        { "hold-tuning-busy", "bool", false, 0 },
        { "hold-trace-busy", "bool", false, 0 },
        { "records", "uint64", false, 0 },
        { "lost-tlps", "uint64", false, 0 },
    } },
    { "hisi-pcie-pmu", "pci-express-device", {
        { "sicl-id", "uint16", true, 0 },
        { "core-id", "uint16", true, 0 },
        { "bdf-min", "uint16", true, 0x0080 },
        { "bdf-max", "uint16", true, 0x00bf },
        { "version", "uint32", true, 0x30 },
        TRAFFIC_LINK,
        ADVANCE,
    } },
    { "hns3-pmu", "pci-express-device", {
        { "sicl-id", "uint16", true, 0 },
        { "bdf-min", "uint16", true, 0x0100 },
        { "bdf-max", "uint16", true, 0x01ff },
        { "version", "uint32", true, 0x40 },
        { "clock-freq", "uint32", true, 100000000 },
        { "ports", "uint8", true, 4 },
        { "queues", "uint16", true, 4 },
        { "tcs", "uint8", true, 4 },
        TRAFFIC_LINK,
        ADVANCE,
    } },
    /* a dynamic sysbus device: virt maps it on its platform bus */
    { "arm-ccn", "sys-bus-device", {
        { "clock-freq", "uint32", true, 1000000000 },
        TRAFFIC_LINK,
        ADVANCE,
    } },
};

/* docs/devices/traffic.md: the object's properties */
static const DocProp traffic_props[] = {
    { "seed", "uint64", false, 0 },
    { "rules", "string", false, 0 },
    { "paused", "bool", false, 0 },
    { "burst-ns", "uint64", false, 0 },
    { "epoch-ns", "int64", false, 0 },
};

/* Whether the non-abstract type @name implements @iface */
static bool type_implements(QTestState *qts, const char *name,
                            const char *iface)
{
    QDict *resp = qtest_qmp(qts, "{ 'execute': 'qom-list-types',"
                            "  'arguments': { 'abstract': false,"
                            "                 'implements': %s } }", iface);
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

/* Concrete types all implement "object" */
static bool type_exists(QTestState *qts, const char *name)
{
    return type_implements(qts, name, "object");
}

/* "name type = default" of a property, as it is or as documented */
static char *describe(const char *name, const char *type, bool has_default,
                      int64_t default_value)
{
    return has_default ?
           g_strdup_printf("%s %s = %" PRId64, name, type, default_value) :
           g_strdup_printf("%s %s", name, type);
}

/* Check the property list @resp answers with against @want[n] */
static void check_props(QDict *resp, const DocProp *want, size_t n)
{
    QList *props;

    if (!qdict_haskey(resp, "return")) {
        g_test_message("%s", qdict_get_str(qdict_get_qdict(resp, "error"),
                                           "desc"));
    }
    props = qdict_get_qlist(resp, "return");
    g_assert_nonnull(props);
    for (size_t i = 0; i < n && want[i].name; i++) {
        const char *type = want[i].type ? want[i].type : "(any type)";
        g_autofree char *doc = describe(want[i].name, type,
                                        want[i].has_default,
                                        want[i].default_value);
        g_autofree char *got = g_strdup_printf("%s missing", want[i].name);
        QListEntry *e;

        QLIST_FOREACH_ENTRY(props, e) {
            QDict *p = qobject_to(QDict, qlist_entry_obj(e));
            bool has_default = want[i].has_default &&
                               qdict_haskey(p, "default-value");

            if (!strcmp(qdict_get_str(p, "name"), want[i].name)) {
                g_free(got);
                got = describe(want[i].name, want[i].type ?
                               qdict_get_str(p, "type") : type, has_default,
                               has_default ?
                               qdict_get_int(p, "default-value") : 0);
                break;
            }
        }
        g_assert_cmpstr(got, ==, doc);
    }
}

/* Our devices and the traffic object are in the build, as documented */
static void test_uncore_devices(void)
{
    QTestState *qts = qtest_init(VIRT_ARGS);
    QDict *resp;

    for (size_t i = 0; i < G_N_ELEMENTS(uncore_devices); i++) {
        g_test_message("device %s", uncore_devices[i].name);
        g_assert_true(type_implements(qts, uncore_devices[i].name,
                                      uncore_devices[i].implements));
        resp = qtest_qmp(qts, "{ 'execute': 'device-list-properties',"
                         "  'arguments': { 'typename': %s } }",
                         uncore_devices[i].name);
        check_props(resp, uncore_devices[i].props,
                    G_N_ELEMENTS(uncore_devices[i].props));
        qobject_unref(resp);
    }
    /* -object hisi-traffic and object-add take it */
    g_assert_true(type_implements(qts, "hisi-traffic", "user-creatable"));
    resp = qtest_qmp(qts, "{ 'execute': 'qom-list-properties',"
                     "  'arguments': { 'typename': 'hisi-traffic' } }");
    check_props(resp, traffic_props, G_N_ELEMENTS(traffic_props));
    qobject_unref(resp);
    qtest_quit(qts);
}

/*
 * object-del takes a traffic object back unless it has a tap: one with
 * real traffic gave the buses its tap, which they keep, so it stays and
 * QEMU says why.
 */
static void test_traffic_object_del(void)
{
    QTestState *qts = qtest_init(VIRT_ARGS " -object hisi-traffic,id=synth"
                                 " -object hisi-traffic,id=real,source=real");
    QDict *resp;

    qtest_qmp_assert_success(qts, "{ 'execute': 'object-del',"
                             "  'arguments': { 'id': 'synth' } }");
    resp = qtest_qmp(qts, "{ 'execute': 'object-del',"
                     "  'arguments': { 'id': 'real' } }");
    g_assert_cmpstr(qdict_get_str(qdict_get_qdict(resp, "error"), "desc"),
                    ==, "object 'real' is in use, can not be deleted");
    qobject_unref(resp);
    qtest_quit(qts);
}

/* Status properties: they only report, and their description says so */
static const char *const read_only_props[] = {
    "records", "lost-tlps", "epoch-ns",
};

static bool is_read_only(const char *name)
{
    for (size_t i = 0; i < G_N_ELEMENTS(read_only_props); i++) {
        if (!strcmp(name, read_only_props[i])) {
            return true;
        }
    }
    return false;
}

/* The property list @cmd answers for @type; @resp holds it */
static QList *type_props(QTestState *qts, const char *cmd, const char *type,
                         QDict **resp)
{
    *resp = qtest_qmp(qts, "{ 'execute': %s,"
                      "  'arguments': { 'typename': %s } }", cmd, type);
    g_assert_nonnull(qdict_get_qlist(*resp, "return"));
    return qdict_get_qlist(*resp, "return");
}

/*
 * Check that every property @type adds to @parent has a description (one
 * that says "(read-only)" for a status property), as @cmd answers for
 * @type, and so has every property the instance at @path has beyond its
 * parent's: what is added at realize too. An instance's properties named
 * "...[N]" are QEMU's numbering of its memory regions and IRQ lines, and
 * "legacy-..." ones string forms of others, not settings.
 * Returns how many status properties it met.
 */
static unsigned check_descriptions(QTestState *qts, const char *cmd,
                                   const char *type, const char *parent,
                                   const char *path)
{
    QDict *parent_resp, *type_resp, *inst_resp;
    g_autoptr(GHashTable) inherited = g_hash_table_new(g_str_hash,
                                                       g_str_equal);
    g_autoptr(GHashTable) described = g_hash_table_new(g_str_hash,
                                                       g_str_equal);
    unsigned read_only = 0;
    QListEntry *e;

    QLIST_FOREACH_ENTRY(type_props(qts, "qom-list-properties", parent,
                                   &parent_resp), e) {
        QDict *p = qobject_to(QDict, qlist_entry_obj(e));

        g_hash_table_add(inherited, (char *)qdict_get_str(p, "name"));
    }
    QLIST_FOREACH_ENTRY(type_props(qts, cmd, type, &type_resp), e) {
        QDict *p = qobject_to(QDict, qlist_entry_obj(e));
        const char *name = qdict_get_str(p, "name");
        const char *desc = qdict_get_try_str(p, "description");

        if (g_hash_table_contains(inherited, name)) {
            continue;
        }
        g_test_message("%s %s: %s", type, name, desc ? desc : "(none)");
        g_assert_nonnull(desc);
        g_assert_cmpstr(desc, !=, "");
        if (is_read_only(name)) {
            g_assert_nonnull(strstr(desc, "(read-only)"));
            read_only++;
        }
        g_hash_table_add(described, (char *)name);
    }
    inst_resp = qtest_qmp(qts, "{ 'execute': 'qom-list',"
                          "  'arguments': { 'path': %s } }", path);
    QLIST_FOREACH_ENTRY(qdict_get_qlist(inst_resp, "return"), e) {
        QDict *p = qobject_to(QDict, qlist_entry_obj(e));
        const char *name = qdict_get_str(p, "name");

        if (g_hash_table_contains(inherited, name) || strchr(name, '[') ||
            g_str_has_prefix(name, "legacy-")) {
            continue;
        }
        g_test_message("%s %s: %s", path, name,
                       g_hash_table_contains(described, name) ?
                       "described" : "no description");
        g_assert_true(g_hash_table_contains(described, name));
    }
    qobject_unref(inst_resp);
    qobject_unref(type_resp);
    qobject_unref(parent_resp);
    return read_only;
}

/*
 * -device TYPE,help, -object hisi-traffic,help and the QMP property lists
 * say what each property of ours is
 */
static void test_property_descriptions(void)
{
    static const struct {
        const char *type;
        const char *parent;
        const char *path;
    } devices[] = {
        { "hisi-ptt", "pci-device", "/machine/peripheral/ptt" },
        { "hisi-pcie-pmu", "pci-device", "/machine/peripheral/pcie-pmu" },
        { "hns3-pmu", "pci-device", "/machine/peripheral/hns3-pmu" },
        { "arm-ccn", "sys-bus-device", "/machine/peripheral/ccn" },
    };
    QTestState *qts = qtest_init(VIRT_ARGS
        " -device hisi-ptt,id=ptt,bus=pcie.0,addr=0x8"
        " -device hisi-pcie-pmu,id=pcie-pmu,bus=pcie.0,addr=0x9"
        " -device hns3-pmu,id=hns3-pmu,bus=pcie.0,addr=0xa"
        " -device arm-ccn,id=ccn"
        " -object hisi-traffic,id=t0");
    unsigned read_only = 0;

    for (size_t i = 0; i < G_N_ELEMENTS(devices); i++) {
        read_only += check_descriptions(qts, "device-list-properties",
                                        devices[i].type, devices[i].parent,
                                        devices[i].path);
    }
    read_only += check_descriptions(qts, "qom-list-properties",
                                    "hisi-traffic", "object", "/objects/t0");
    g_assert_cmpuint(read_only, ==, G_N_ELEMENTS(read_only_props));
    qtest_quit(qts);
}

static char *traffic_of(QTestState *qts, const char *id)
{
    QDict *resp = qtest_qmp(qts, "{ 'execute': 'qom-get',"
                            "  'arguments': { 'path': %s,"
                            "                 'property': 'traffic' } }", id);
    char *path = g_strdup(qdict_get_str(resp, "return"));

    qobject_unref(resp);
    return path;
}

/* The PCI function in slot @slot of bus 0 in a query-pci answer */
static QDict *pci_slot(QDict *resp, int64_t slot)
{
    QList *buses = qdict_get_qlist(resp, "return");
    QDict *bus0 = qobject_to(QDict, qlist_peek(buses));
    QListEntry *e;

    g_assert_cmpint(qdict_get_int(bus0, "bus"), ==, 0);
    QLIST_FOREACH_ENTRY(qdict_get_qlist(bus0, "devices"), e) {
        QDict *d = qobject_to(QDict, qlist_entry_obj(e));

        if (qdict_get_int(d, "slot") == slot &&
            qdict_get_int(d, "function") == 0) {
            return d;
        }
    }
    return NULL;
}

/* The whole set on one board, as the boot suites put it */
static void test_device_set(void)
{
    static const struct {
        const char *id;
        int64_t slot;
        int64_t device_id;
        const char *traffic;
    } pci[] = {
        { "ptt", 8, 0xa12e, "/machine/hisi-traffic-default" },
        { "pcie-pmu", 9, 0xa12d, "/machine/hisi-traffic-default" },
        { "hns3-pmu", 10, 0xa22b, "/machine/hisi-traffic-default" },
        { "pcie-pmu1", 11, 0xa12d, "/objects/t0" },
    };
    QTestState *qts = qtest_init(VIRT_ARGS
        " -device hisi-ptt,id=ptt,bus=pcie.0,addr=0x8"
        " -device hisi-pcie-pmu,id=pcie-pmu,bus=pcie.0,addr=0x9"
        " -device hns3-pmu,id=hns3-pmu,bus=pcie.0,addr=0xa"
        " -device arm-ccn,id=ccn"
        " -object hisi-traffic,id=t0"
        " -device hisi-pcie-pmu,id=pcie-pmu1,bus=pcie.0,addr=0xb,sicl-id=1,"
        "traffic=t0");
    QDict *resp = qtest_qmp(qts, "{ 'execute': 'query-pci' }");
    QDict *list = qtest_qmp(qts, "{ 'execute': 'qom-list',"
                            "  'arguments': { 'path': '/machine' } }");
    g_autofree char *ccn_traffic = traffic_of(qts, "/machine/peripheral/ccn");
    unsigned defaults = 0;
    QListEntry *e;

    for (size_t i = 0; i < G_N_ELEMENTS(pci); i++) {
        g_autofree char *path = g_strdup_printf("/machine/peripheral/%s",
                                                pci[i].id);
        g_autofree char *traffic = traffic_of(qts, path);
        QDict *d = pci_slot(resp, pci[i].slot);
        QDict *id;

        g_test_message("%s", pci[i].id);
        g_assert_nonnull(d);
        id = qdict_get_qdict(d, "id");
        g_assert_cmpstr(qdict_get_str(d, "qdev_id"), ==, pci[i].id);
        g_assert_cmphex(qdict_get_int(id, "vendor"), ==, 0x19e5);
        g_assert_cmphex(qdict_get_int(id, "device"), ==, pci[i].device_id);
        g_assert_cmphex(qdict_get_int(qdict_get_qdict(d, "class_info"),
                                      "class"), ==, 0x0880);
        g_assert_cmpstr(traffic, ==, pci[i].traffic);
    }
    g_assert_cmpstr(ccn_traffic, ==, "/machine/hisi-traffic-default");
    /* one default object for them all */
    QLIST_FOREACH_ENTRY(qdict_get_qlist(list, "return"), e) {
        QDict *p = qobject_to(QDict, qlist_entry_obj(e));

        defaults += !strcmp(qdict_get_str(p, "type"), "child<hisi-traffic>");
    }
    g_assert_cmpuint(defaults, ==, 1);
    /* the CCN at the platform bus base: the MN's id, node 12 */
    g_assert_cmphex(qtest_readl(qts, 0x0c000000 + 0xff00), ==, 0x01 | 12 << 8);
    qobject_unref(list);
    qobject_unref(resp);
    qtest_quit(qts);
}

static void test_topology_devices(void)
{
    static const char *const devices[] = {
        "pcie-root-port", "x3130-upstream", "xio3130-downstream",
        "pci-bridge", "pcie-pci-bridge",
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
    qtest_add_func("/hisi-virt/uncore-devices", test_uncore_devices);
    qtest_add_func("/hisi-virt/traffic-object-del", test_traffic_object_del);
    qtest_add_func("/hisi-virt/property-descriptions",
                   test_property_descriptions);
    qtest_add_func("/hisi-virt/device-set", test_device_set);
    qtest_add_func("/hisi-virt/topology-devices", test_topology_devices);
    return g_test_run();
}
