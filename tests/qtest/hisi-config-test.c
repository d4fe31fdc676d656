/*
 * QTest: bad configurations of the HiSilicon devices and hisi-traffic
 *
 * One table: QEMU arguments, and what QEMU must say of them. A command
 * line QEMU must refuse runs QEMU itself (libqtest aborts the test when
 * QEMU does not start): exit status 1, one line on stderr, the program's
 * name then the expected text, and no abort. A QMP command QEMU must
 * refuse (device_add of a device that cannot be hot-plugged, qom-set of a
 * bad value) runs on a qtest machine, which must answer after it, with no
 * device half added. Rows without an expected error are configurations
 * next to refused ones that QEMU must take. Last, the PMUs' help for the
 * advance property gives the range those rows check.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qobject/qlist.h"
#include "hisi-qtest.h"

/* The virt machine, and a root port rp0 at 00:10.0 on its root bus */
#define VIRT    "-M virt "
#define RP0     "-device pcie-root-port,id=rp0,bus=pcie.0,chassis=1,addr=0x10 "
/* A switch below rp0: its downstream port dn0 */
#define SWITCH  RP0 "-device x3130-upstream,id=up0,bus=rp0 " \
                "-device xio3130-downstream,id=dn0,bus=up0,chassis=2 "
#define TRAFFIC "-object hisi-traffic,id=t0 "
#define MEMDEV  "-object memory-backend-ram,id=m0,size=1M "
/* A rules value longer than any refusal's own words */
#define X32     "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
#define LONG_VALUE X32 X32 X32 X32 X32 X32 X32 X32 X32 X32

typedef struct ConfigCase {
    const char *name;       /* the test case */
    const char *args;       /* QEMU arguments, as a shell splits them */
    /*
     * NULL: QEMU must refuse @args. Otherwise a QMP command that the
     * machine started with @args must refuse; a device it adds is "dut".
     */
    const char *qmp;
    const char *error;      /* in the error; NULL: QEMU must take it */
} ConfigCase;

static const ConfigCase cases[] = {
    /* hisi-ptt */
    { "ptt/rp-bdf-inverted",
      VIRT "-device hisi-ptt,rp-bdf-min=0xc0,rp-bdf-max=0x80", NULL,
      "hisi-ptt: rp-bdf-min (0x00c0) must not be above rp-bdf-max (0x0080)" },
    { "ptt/rp-bdf-across-buses",
      VIRT "-device hisi-ptt,rp-bdf-min=0x80,rp-bdf-max=0x180", NULL,
      "hisi-ptt: rp-bdf-min (0x0080) and rp-bdf-max (0x0180) must be on one "
      "bus: root ports sit on the root bus" },
    { "ptt/rp-bdf-not-on-root-bus",
      VIRT "-device hisi-ptt,rp-bdf-min=0x100,rp-bdf-max=0x1ff", NULL,
      "hisi-ptt: rp-bdf-min (0x0100) and rp-bdf-max (0x01ff) are on bus 1, "
      "not the root bus 0: root ports sit on the root bus" },
    { "ptt/rp-bdf-max-above-16-bits",
      VIRT "-device hisi-ptt,rp-bdf-max=0x10000", NULL,
      "Parameter 'rp-bdf-max' expects uint16_t" },
    { "ptt/sicl-id-above-16-bits",
      VIRT "-device hisi-ptt,sicl-id=70000", NULL,
      "Parameter 'sicl-id' expects uint16_t" },
    { "ptt/core-id-negative",
      VIRT "-device hisi-ptt,core-id=-1", NULL,
      "Parameter 'core-id' expects uint16_t" },
    { "ptt/same-location-twice",
      VIRT "-device hisi-ptt,addr=0x8,sicl-id=1,core-id=2 "
      "-device hisi-ptt,addr=0x9,sicl-id=1,core-id=2", NULL,
      "hisi-ptt: another hisi-ptt already has sicl-id=1 core-id=2 (the PMU "
      "name hisi_ptt1_2 must be unique)" },
    { "ptt/root-ports-overlap",
      VIRT "-device hisi-ptt,addr=0x8,rp-bdf-max=0x87 "
      "-device hisi-ptt,addr=0x9,sicl-id=1,rp-bdf-min=0x87", NULL,
      "hisi-ptt: root ports 0x0087-0x00bf overlap those of hisi_ptt0_0 "
      "(0x0080-0x0087): a root port belongs to one PCIe core, set "
      "rp-bdf-min and rp-bdf-max apart" },
    { "ptt/root-ports-overlap-below",
      VIRT "-device hisi-ptt,addr=0x8,rp-bdf-min=0x88 "
      "-device hisi-ptt,addr=0x9,sicl-id=1,rp-bdf-max=0x88", NULL,
      "hisi-ptt: root ports 0x0080-0x0088 overlap those of hisi_ptt0_0 "
      "(0x0088-0x00bf)" },
    { "ptt/behind-root-port",
      VIRT RP0 "-device hisi-ptt,bus=rp0", NULL,
      "hisi-ptt: bus rp0 is behind a bridge: a root complex integrated "
      "endpoint sits on the root bus (bus=pcie.0)" },
    { "ptt/behind-switch",
      VIRT SWITCH "-device hisi-ptt,bus=dn0", NULL,
      "hisi-ptt: bus dn0 is behind a bridge" },
    { "ptt/traffic-missing",
      VIRT "-device hisi-ptt,traffic=nosuch", NULL,
      "Device 'nosuch' not found" },
    { "ptt/traffic-wrong-type",
      VIRT MEMDEV "-device hisi-ptt,traffic=m0", NULL,
      "Invalid parameter type for 'traffic', expected: hisi-traffic" },
    { "ptt/device-add-root-bus", VIRT,
      "{'execute': 'device_add', 'arguments': {'driver': 'hisi-ptt', "
      "'id': 'dut', 'bus': 'pcie.0', 'addr': '0x8'}}",
      "Bus 'pcie.0' does not support hotplugging" },
    { "ptt/device-add-root-port", VIRT RP0,
      "{'execute': 'device_add', 'arguments': {'driver': 'hisi-ptt', "
      "'id': 'dut', 'bus': 'rp0'}}",
      "hisi-ptt: bus rp0 is behind a bridge: a root complex integrated "
      "endpoint sits on the root bus (bus=pcie.0)" },
    { "ptt/same-location-other-kind",
      VIRT "-device hisi-ptt,addr=0x8,sicl-id=1,core-id=2 "
      "-device hisi-pcie-pmu,addr=0x9,sicl-id=1,core-id=2", NULL, NULL },

    /* hisi-pcie-pmu */
    { "pcie-pmu/bdf-inverted",
      VIRT "-device hisi-pcie-pmu,bdf-min=0x80,bdf-max=0x7f", NULL,
      "hisi-pcie-pmu: bdf-min (0x0080) must not be above bdf-max (0x007f)" },
    { "pcie-pmu/bdf-across-buses",
      VIRT "-device hisi-pcie-pmu,bdf-min=0x80,bdf-max=0x2bf", NULL,
      "hisi-pcie-pmu: bdf-min (0x0080) and bdf-max (0x02bf) must be on one "
      "bus" },
    { "pcie-pmu/bdf-not-on-root-bus",
      VIRT "-device hisi-pcie-pmu,bdf-min=0x280,bdf-max=0x2bf", NULL,
      "hisi-pcie-pmu: bdf-min (0x0280) and bdf-max (0x02bf) are on bus 2, "
      "not the root bus 0" },
    { "pcie-pmu/clock-freq-0",
      VIRT "-device hisi-pcie-pmu,clock-freq=0", NULL,
      "hisi-pcie-pmu: clock-freq must be 1..1000000000 Hz (got 0)" },
    { "pcie-pmu/clock-freq-above-1ghz",
      VIRT "-device hisi-pcie-pmu,clock-freq=1000000001", NULL,
      "hisi-pcie-pmu: clock-freq must be 1..1000000000 Hz (got 1000000001)" },
    { "pcie-pmu/same-location-twice",
      VIRT "-device hisi-pcie-pmu,addr=0x8,core-id=3 "
      "-device hisi-pcie-pmu,addr=0x9,core-id=3", NULL,
      "hisi-pcie-pmu: another hisi-pcie-pmu already has sicl-id=0 core-id=3 "
      "(the PMU name hisi_pcie0_core3 must be unique)" },
    { "pcie-pmu/behind-root-port",
      VIRT RP0 "-device hisi-pcie-pmu,bus=rp0", NULL,
      "hisi-pcie-pmu: bus rp0 is behind a bridge" },
    { "pcie-pmu/device-add-root-port", VIRT RP0,
      "{'execute': 'device_add', 'arguments': {'driver': 'hisi-pcie-pmu', "
      "'id': 'dut', 'bus': 'rp0'}}",
      "hisi-pcie-pmu: bus rp0 is behind a bridge" },
    { "pcie-pmu/advance-at-start-up",
      VIRT "-device hisi-pcie-pmu,advance=0=5", NULL,
      "hisi-pcie-pmu: advance is for the counters of a running machine "
      "(qom-set), not a start-up property" },
    { "pcie-pmu/advance-malformed",
      VIRT "-device hisi-pcie-pmu,advance=garbage", NULL,
      "hisi-pcie-pmu: advance must be IDX=N with IDX in 0..7 and N in "
      "0..2^63-1 (got 'garbage')" },
    { "pcie-pmu/advance-idx-too-big",
      VIRT "-device hisi-pcie-pmu,id=pmu,addr=0x8",
      "{'execute': 'qom-set', 'arguments': {'path': 'pmu', "
      "'property': 'advance', 'value': '8=1'}}",
      "hisi-pcie-pmu: advance must be IDX=N with IDX in 0..7" },
    { "pcie-pmu/advance-negative",
      VIRT "-device hisi-pcie-pmu,id=pmu,addr=0x8",
      "{'execute': 'qom-set', 'arguments': {'path': 'pmu', "
      "'property': 'advance', 'value': '0=-1'}}",
      "(got '0=-1')" },
    { "pcie-pmu/advance-above-63-bits",
      VIRT "-device hisi-pcie-pmu,id=pmu,addr=0x8",
      "{'execute': 'qom-set', 'arguments': {'path': 'pmu', "
      "'property': 'advance', 'value': '0=9223372036854775808'}}",
      "(got '0=9223372036854775808')" },
    { "pcie-pmu/advance-trailing-text",
      VIRT "-device hisi-pcie-pmu,id=pmu,addr=0x8",
      "{'execute': 'qom-set', 'arguments': {'path': 'pmu', "
      "'property': 'advance', 'value': '0=5 '}}",
      "(got '0=5 ')" },
    { "pcie-pmu/advance-signed-idx",
      VIRT "-device hisi-pcie-pmu,id=pmu,addr=0x8",
      "{'execute': 'qom-set', 'arguments': {'path': 'pmu', "
      "'property': 'advance', 'value': '-0=5'}}",
      "(got '-0=5')" },
    { "pcie-pmu/advance-running",
      VIRT "-device hisi-pcie-pmu,id=pmu,addr=0x8",
      "{'execute': 'qom-set', 'arguments': {'path': 'pmu', "
      "'property': 'advance', 'value': '7=9223372036854775807'}}", NULL },

    /* hns3-pmu */
    { "hns3-pmu/bdf-inverted",
      VIRT "-device hns3-pmu,bdf-min=0x1ff,bdf-max=0x100", NULL,
      "hns3-pmu: bdf-min (0x01ff) must not be above bdf-max (0x0100)" },
    { "hns3-pmu/bdf-across-buses",
      VIRT "-device hns3-pmu,bdf-min=0x100,bdf-max=0x2ff", NULL,
      "hns3-pmu: bdf-min (0x0100) and bdf-max (0x02ff) must be on one bus: "
      "the NIC's functions are on one bus" },
    { "hns3-pmu/ports-0", VIRT "-device hns3-pmu,ports=0", NULL,
      "hns3-pmu: ports must be 1..8 (got 0)" },
    { "hns3-pmu/ports-9", VIRT "-device hns3-pmu,ports=9", NULL,
      "hns3-pmu: ports must be 1..8 (got 9)" },
    { "hns3-pmu/tcs-0", VIRT "-device hns3-pmu,tcs=0", NULL,
      "hns3-pmu: tcs must be 1..8 (got 0)" },
    { "hns3-pmu/tcs-9", VIRT "-device hns3-pmu,tcs=9", NULL,
      "hns3-pmu: tcs must be 1..8 (got 9)" },
    { "hns3-pmu/queues-0", VIRT "-device hns3-pmu,queues=0", NULL,
      "hns3-pmu: queues must be 1..256 (got 0)" },
    { "hns3-pmu/queues-257", VIRT "-device hns3-pmu,queues=257", NULL,
      "hns3-pmu: queues must be 1..256 (got 257)" },
    { "hns3-pmu/clock-freq-0", VIRT "-device hns3-pmu,clock-freq=0", NULL,
      "hns3-pmu: clock-freq must be 1..1000000000 Hz (got 0)" },
    { "hns3-pmu/clock-freq-above-1ghz",
      VIRT "-device hns3-pmu,clock-freq=4000000000", NULL,
      "hns3-pmu: clock-freq must be 1..1000000000 Hz (got 4000000000)" },
    { "hns3-pmu/same-sicl-twice",
      VIRT "-device hns3-pmu,addr=0xa,sicl-id=3 "
      "-device hns3-pmu,addr=0xb,sicl-id=3", NULL,
      "hns3-pmu: another hns3-pmu already has sicl-id=3 (the PMU name "
      "hns3_pmu_sicl_3 must be unique)" },
    { "hns3-pmu/behind-switch",
      VIRT SWITCH "-device hns3-pmu,bus=dn0", NULL,
      "hns3-pmu: bus dn0 is behind a bridge: a root complex integrated "
      "endpoint sits on the root bus (bus=pcie.0)" },
    { "hns3-pmu/traffic-wrong-type",
      VIRT MEMDEV "-device hns3-pmu,traffic=m0", NULL,
      "Invalid parameter type for 'traffic', expected: hisi-traffic" },
    { "hns3-pmu/device-add-root-bus", VIRT,
      "{'execute': 'device_add', 'arguments': {'driver': 'hns3-pmu', "
      "'id': 'dut', 'bus': 'pcie.0', 'addr': '0xa'}}",
      "Bus 'pcie.0' does not support hotplugging" },
    { "hns3-pmu/advance-idx-too-big",
      VIRT "-device hns3-pmu,id=pmu,addr=0xa",
      "{'execute': 'qom-set', 'arguments': {'path': 'pmu', "
      "'property': 'advance', 'value': '8=1'}}",
      "hns3-pmu: advance must be IDX=N with IDX in 0..7" },
    /* The NIC's functions may be RCiEPs: a range on the root bus is fine */
    { "hns3-pmu/bdf-on-root-bus",
      VIRT "-device hns3-pmu,bdf-min=0x0,bdf-max=0xff", NULL, NULL },
    /* The top of each range is taken */
    { "hns3-pmu/ports-8", VIRT "-device hns3-pmu,ports=8", NULL, NULL },
    { "hns3-pmu/tcs-8", VIRT "-device hns3-pmu,tcs=8", NULL, NULL },
    { "hns3-pmu/queues-256", VIRT "-device hns3-pmu,queues=256", NULL, NULL },

    /* arm-ccn */
    { "arm-ccn/clock-freq-0", VIRT "-device arm-ccn,clock-freq=0", NULL,
      "arm-ccn: clock-freq must be 1..1000000000 Hz (got 0)" },
    { "arm-ccn/clock-freq-above-1ghz",
      VIRT "-device arm-ccn,clock-freq=1000000001", NULL,
      "arm-ccn: clock-freq must be 1..1000000000 Hz (got 1000000001)" },
    { "arm-ccn/machine-none", "-M none -device arm-ccn", NULL,
      "Parameter 'driver' expects a dynamic sysbus device type for the "
      "machine" },
    /* Linux's driver takes several CCNs (ccn, ccn_1); virt's bus fits two */
    { "arm-ccn/two", VIRT "-device arm-ccn -device arm-ccn", NULL, NULL },
    { "arm-ccn/three",
      VIRT "-device arm-ccn -device arm-ccn -device arm-ccn", NULL,
      "arm-ccn: no free 16 MiB on the machine's platform bus of 32 MiB: it "
      "takes 2 CCNs at most" },
    { "arm-ccn/traffic-missing", VIRT "-device arm-ccn,traffic=nosuch", NULL,
      "Device 'nosuch' not found" },
    { "arm-ccn/advance-at-start-up",
      VIRT "-device arm-ccn,advance=0=5", NULL,
      "arm-ccn: advance is for the counters of a running machine" },
    { "arm-ccn/advance-idx-too-big",
      VIRT "-device arm-ccn,id=ccn",
      "{'execute': 'qom-set', 'arguments': {'path': 'ccn', "
      "'property': 'advance', 'value': '9=1'}}",
      "arm-ccn: advance must be IDX=N with IDX in 0..8" },
    { "arm-ccn/device-add", VIRT,
      "{'execute': 'device_add', 'arguments': {'driver': 'arm-ccn', "
      "'id': 'dut'}}",
      "Bus 'main-system-bus' does not support hotplugging" },

    /* hisi-traffic */
    { "traffic/rules-not-name-value",
      VIRT "-object hisi-traffic,id=t0,rules=bogus", NULL,
      "hisi-traffic: rules: 'bogus' is not name=value" },
    { "traffic/rules-unknown-field",
      VIRT "-object hisi-traffic,id=t0,rules=stream=all,,foo=1", NULL,
      "hisi-traffic: rules: unknown field 'foo' (ep, port, node, stream, "
      "rate, len, latency, coalesce)" },
    { "traffic/rules-no-stream",
      VIRT "-object hisi-traffic,id=t0,rules=rate=5", NULL,
      "hisi-traffic: rules: a rule needs stream=NAME, all, nic-all or "
      "ring-all" },
    { "traffic/rules-unknown-stream",
      VIRT "-object hisi-traffic,id=t0,rules=stream=nosuch", NULL,
      "hisi-traffic: rules: bad stream value 'nosuch'" },
    { "traffic/rules-rate-too-big",
      VIRT "-object hisi-traffic,id=t0,rules=stream=all,,rate=10000000001",
      NULL, "hisi-traffic: rules: bad rate value '10000000001'" },
    { "traffic/rules-len-inverted",
      VIRT "-object hisi-traffic,id=t0,rules=stream=all,,len=9-3", NULL,
      "hisi-traffic: rules: bad len value '9-3'" },
    { "traffic/rules-pcie-len-too-big",
      VIRT "-object hisi-traffic,id=t0,rules=stream=all,,len=1025", NULL,
      "hisi-traffic: rules: len: PCIe streams take 1..1024 DWs" },
    { "traffic/rules-node-too-big",
      VIRT "-object hisi-traffic,id=t0,rules=node=256,,stream=ring-all", NULL,
      "hisi-traffic: rules: bad node value '256'" },
    { "traffic/rules-bad-ep",
      VIRT "-object hisi-traffic,id=t0,rules=ep=zz,,stream=all", NULL,
      "hisi-traffic: rules: bad ep value 'zz'" },
    { "traffic/rules-long-value-whole",
      VIRT "-object hisi-traffic,id=t0,rules=stream=all,,latency=" LONG_VALUE,
      NULL, "hisi-traffic: rules: bad latency value '" LONG_VALUE "' (ep/port: "
      "BB:DD.F; node: 0..255; stream: a stream name, all, nic-all or "
      "ring-all; rate: 0..10000000000 per s; len: N or N-N in 1..65535; "
      "latency: 0..1000000000 ns; coalesce: 1..65535)" },
    { "traffic/seed-negative", VIRT "-object hisi-traffic,id=t0,seed=-1",
      NULL, "Parameter 'seed' expects a uint64 value" },
    { "traffic/seed-above-64-bits",
      VIRT "-object hisi-traffic,id=t0,seed=18446744073709551616", NULL,
      "Parameter 'seed' expects a uint64 value" },
    { "traffic/paused-not-bool",
      VIRT "-object hisi-traffic,id=t0,paused=maybe", NULL,
      "Parameter 'paused' expects 'on' or 'off'" },
    { "traffic/burst-ns-at-start-up",
      VIRT "-object hisi-traffic,id=t0,burst-ns=1000", NULL,
      "Invalid parameter 'burst-ns'" },
    { "traffic/burst-ns-0", VIRT TRAFFIC,
      "{'execute': 'qom-set', 'arguments': {'path': '/objects/t0', "
      "'property': 'burst-ns', 'value': 0}}",
      "hisi-traffic: burst-ns must be 1..4611686018427387903 (got 0)" },
    { "traffic/burst-ns-max", VIRT TRAFFIC,
      "{'execute': 'qom-set', 'arguments': {'path': '/objects/t0', "
      "'property': 'burst-ns', 'value': 4611686018427387903}}", NULL },
    { "traffic/burst-ns-too-big", VIRT TRAFFIC,
      "{'execute': 'qom-set', 'arguments': {'path': '/objects/t0', "
      "'property': 'burst-ns', 'value': 4611686018427387904}}",
      "hisi-traffic: burst-ns must be 1..4611686018427387903 "
      "(got 4611686018427387904)" },
    { "traffic/rules-by-qom-set", VIRT TRAFFIC,
      "{'execute': 'qom-set', 'arguments': {'path': '/objects/t0', "
      "'property': 'rules', 'value': 'stream=all,coalesce=0'}}",
      "hisi-traffic: rules: bad coalesce value '0'" },
    { "traffic/two-real-sources",
      VIRT RP0 "-object hisi-traffic,id=t0,source=real "
      "-object hisi-traffic,id=t1,source=mixed", NULL,
      "hisi-traffic: 't1' cannot take real traffic: 't0' does (one object "
      "can have source=real or mixed)" },
    { "traffic/real-beside-synthetic",
      VIRT RP0 "-object hisi-traffic,id=t0,source=real "
      "-object hisi-traffic,id=t1", NULL, NULL },
    { "traffic/second-real-by-object-add",
      VIRT RP0 "-object hisi-traffic,id=t0,source=mixed",
      "{'execute': 'object-add', 'arguments': {'qom-type': 'hisi-traffic', "
      "'id': 't1', 'source': 'real'}}",
      "hisi-traffic: 't1' cannot take real traffic: 't0' does (one object "
      "can have source=real or mixed)" },
};

/*
 * QMP input that makes a QEMU that took its command line quit at once,
 * so that a configuration it should refuse fails the test, not hangs it
 */
static char *quit_file;

/* In the child, before exec: stdin from quit_file */
static void stdin_from_quit_file(gpointer data)
{
    int fd = open(quit_file, O_RDONLY);

    if (fd >= 0) {
        dup2(fd, STDIN_FILENO);
        close(fd);
    }
}

/* QEMU refuses the command line of @c: one line, exit status 1 */
static void assert_refused(const ConfigCase *c)
{
    const char *qemu = g_getenv("QTEST_QEMU_BINARY");
    g_autoptr(GPtrArray) argv = hisi_args_new();
    g_auto(GStrv) args = NULL;
    g_autofree char *prog = NULL;
    g_autofree char *prefix = NULL;
    g_autofree char *out = NULL;
    g_autofree char *err = NULL;
    int status;

    g_assert_nonnull(qemu);
    g_assert_true(g_shell_parse_argv(c->args, NULL, &args, NULL));
    hisi_args_add(argv, qemu, "-display", "none", "-nodefaults", "-S",
                  "-qmp", "stdio", NULL);
    for (char **arg = args; *arg; arg++) {
        hisi_args_add(argv, *arg, NULL);
    }
    g_ptr_array_add(argv, NULL);
    g_assert_true(g_spawn_sync(NULL, (char **)argv->pdata, NULL,
                               G_SPAWN_DEFAULT, stdin_from_quit_file, NULL,
                               &out, &err, &status, NULL));
    g_test_message("%s: %s", c->args, err);
    g_assert_true(WIFEXITED(status));
    g_assert_cmpint(WEXITSTATUS(status), ==, 1);
    /* one line, the program's name first */
    prog = g_path_get_basename(qemu);
    prefix = g_strdup_printf("%s: ", prog);
    g_assert_true(g_str_has_prefix(err, prefix));
    /* its only newline ends it */
    g_assert_true(strchr(err, '\n') == err + strlen(err) - 1);
    g_assert_nonnull(strstr(err, c->error));
    g_assert_null(strstr(err, "Aborted"));
    g_assert_null(strstr(err, "assertion"));
    g_assert_null(strstr(err, "Unexpected error"));
}

/* The machine @qts answers, and has no device "dut" */
static void assert_running_without_dut(QTestState *qts)
{
    QDict *rsp;

    qtest_qmp_assert_success(qts, "{'execute': 'query-status'}");
    rsp = qtest_qmp(qts, "{'execute': 'qom-get', 'arguments': "
                    "{'path': '/machine/peripheral/dut', "
                    "'property': 'type'}}");
    g_assert_true(qdict_haskey(rsp, "error"));
    qobject_unref(rsp);
}

/* The machine of @c refuses its QMP command with a GenericError */
static void assert_qmp_refused(const ConfigCase *c)
{
    QTestState *qts = qtest_initf("-nodefaults %s", c->args);
    QDict *rsp, *error;

    qtest_qmp_send_raw(qts, "%s", c->qmp);
    rsp = qtest_qmp_receive(qts);
    g_assert_true(qdict_haskey(rsp, "error"));
    error = qdict_get_qdict(rsp, "error");
    g_test_message("%s: %s", c->qmp, qdict_get_str(error, "desc"));
    g_assert_cmpstr(qdict_get_str(error, "class"), ==, "GenericError");
    g_assert_nonnull(strstr(qdict_get_str(error, "desc"), c->error));
    qobject_unref(rsp);
    assert_running_without_dut(qts);
    qtest_quit(qts);
}

/* QEMU takes @c: it starts, and its QMP command (if any) succeeds */
static void assert_taken(const ConfigCase *c)
{
    QTestState *qts = qtest_initf("-nodefaults %s", c->args);

    if (c->qmp) {
        QDict *rsp;

        qtest_qmp_send_raw(qts, "%s", c->qmp);
        rsp = qtest_qmp_receive(qts);
        g_assert_false(qdict_haskey(rsp, "error"));
        qobject_unref(rsp);
    }
    qtest_qmp_assert_success(qts, "{'execute': 'query-status'}");
    qtest_quit(qts);
}

/*
 * The help of each PMU's advance property gives the range of IDX that
 * qom-set takes: what the advance-idx-too-big rows are refused for going
 * past
 */
static void test_advance_described(void)
{
    static const struct {
        const char *type;
        const char *range;
    } pmus[] = {
        { "hisi-pcie-pmu", "to counter IDX (0-7)" },
        { "hns3-pmu", "to counter IDX (0-7)" },
        { "arm-ccn", "to counter IDX (0-8)" },
    };
    QTestState *qts = qtest_init("-nodefaults " VIRT);

    for (size_t i = 0; i < ARRAY_SIZE(pmus); i++) {
        QDict *rsp = qtest_qmp(qts, "{'execute': 'device-list-properties', "
                               "'arguments': {'typename': %s}}",
                               pmus[i].type);
        const char *desc = NULL;
        QListEntry *e;

        g_assert_nonnull(qdict_get_qlist(rsp, "return"));
        QLIST_FOREACH_ENTRY(qdict_get_qlist(rsp, "return"), e) {
            QDict *prop = qobject_to(QDict, qlist_entry_obj(e));

            if (!strcmp(qdict_get_str(prop, "name"), "advance")) {
                desc = qdict_get_try_str(prop, "description");
            }
        }
        g_assert_nonnull(desc);
        g_test_message("%s advance: %s", pmus[i].type, desc);
        g_assert_nonnull(strstr(desc, pmus[i].range));
        qobject_unref(rsp);
    }
    qtest_quit(qts);
}

static void test_config(const void *data)
{
    const ConfigCase *c = data;

    if (!c->error) {
        assert_taken(c);
    } else if (c->qmp) {
        assert_qmp_refused(c);
    } else {
        assert_refused(c);
    }
}

int main(int argc, char **argv)
{
    int fd = g_file_open_tmp("hisi-config-XXXXXX", &quit_file, NULL);
    int ret;

    g_assert_cmpint(fd, >=, 0);
    g_assert_true(g_file_set_contents(quit_file,
                                      "{'execute': 'qmp_capabilities'}\n"
                                      "{'execute': 'quit'}\n", -1, NULL));
    close(fd);
    g_test_init(&argc, &argv, NULL);
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        g_autofree char *path = g_strdup_printf("/hisi-config/%s",
                                                cases[i].name);

        qtest_add_data_func(path, &cases[i], test_config);
    }
    qtest_add_func("/hisi-config/advance-described", test_advance_described);
    ret = g_test_run();
    unlink(quit_file);
    g_free(quit_file);
    return ret;
}
