# SPDX-License-Identifier: GPL-2.0-or-later
# hisi-ptt follows the PCI topology while the guest runs: an endpoint
# hot-plugged below one of its root ports becomes a requester filter and
# its traffic is traced; once unplugged, both are gone. Traffic starts at
# the plug: no record of an endpoint plugged during a trace is older.
# kernel-config: CONFIG_HISI_PTT=m
# kernel-config: CONFIG_HOTPLUG_PCI_PCIE
# kernel-config: CONFIG_VIRTIO_CONSOLE
# run-guest: --guest-qmp
# qemu: -device hisi-ptt,bus=pcie.0,addr=0x8
# qemu: -device pcie-root-port,id=rp0,bus=pcie.0,chassis=1,addr=0x10
# qemu: -device pcie-root-port,id=rp1,bus=pcie.0,chassis=2,addr=0x11
# qemu: -device nvme,bus=rp0,serial=hp0
# The guest sees the PTT (sicl 0, core 0) at 00:08.0 and root ports
# 00:10.0 (nvme, 01:00.0) and 00:11.0 (empty, bus 02).
. /guest/tests/lib/ktap.sh
. /guest/tests/lib/qmp.sh

PMU=/sys/bus/event_source/devices/hisi_ptt0_0
MAP=0x100:0x80,0x200:0x88

filters() {
	ls $PMU/requester_filters | grep -v multiselect | tr '\n' ' '
}

filters_are() {
	test "$(filters)" = "$1"
}

traced() {
	/guest/progs/ptt-trace --pmu hisi_ptt0_0 --map $MAP --filter 0x00200 \
		--type 7 --direction 2 --format 0 --ms 200
}

# An edu endpoint plugged into the empty rp1 (02:00.0 again) while a trace
# of rp1 runs, 8DW: its TLP 0 happens at the plug, the time of the traffic
# object's last change (epoch-ns). Record time 0 is the driver's DMA reset,
# which ptt-trace --times brackets with the virtual counter in [S, E], so
# the first record's stamp must lie in [plug - E, plug - S]: none before
# the plug (but for those E - S ns), and traffic from the plug on.
traced_from_plug() {
	local pid plug
	rm -f /tmp/ptt-ready
	/guest/progs/ptt-trace --pmu hisi_ptt0_0 --map $MAP --filter 0x80004 \
		--type 7 --direction 2 --format 1 --ms 1500 --times 1 \
		--ready /tmp/ptt-ready >/tmp/ptt-plug.out 2>&1 &
	pid=$!
	wait_for test -e /tmp/ptt-ready || return 1
	usleep 300000
	qmp '{"execute": "device_add", "arguments":
		{"driver": "edu", "bus": "rp1", "id": "hp1"}}' || return 1
	plug=$(qom_get /machine/hisi-traffic-default epoch-ns |
		sed -n 's/.*"return": *\([0-9]*\).*/\1/p')
	wait $pid || { cat /tmp/ptt-plug.out; return 1; }
	set -- $(sed -n 's/^# times start_ns=\([0-9]*\) enabled_ns=\([0-9]*\) first=\([0-9]*\)$/\1 \2 \3/p' \
		/tmp/ptt-plug.out)
	echo "plug=$plug start_ns=$1 enabled_ns=$2 first=$3" |
		tee /tmp/ptt-plug.times
	[ -n "$plug" ] && [ $# = 3 ] && [ "$3" -ge $((plug - $2)) ] &&
		[ "$3" -le $((plug - $1)) ]
}

ktap_start hisi_ptt_hotplug
ktap_check before-hotplug filters_are "0000:01:00.0 "
# Not in a subshell: the connection must outlive the check.
if qmp_open >/tmp/qmp-open.log 2>&1; then
	ktap_pass qmp-connects
else
	ktap_fail qmp-connects "$(cat /tmp/qmp-open.log)"
fi
ktap_check device-add qmp '{"execute": "device_add", "arguments":
	{"driver": "edu", "bus": "rp1", "id": "hp0"}}'
ktap_check requester-added wait_for filters_are "0000:01:00.0 0000:02:00.0 "
ktap_check hotplugged-endpoint-traced traced
ktap_check device-del qmp '{"execute": "device_del", "arguments": {"id": "hp0"}}'
# pciehp powers the slot off 5 s after the attention button.
ktap_check requester-removed wait_for filters_are "0000:01:00.0 "
ktap_check device-deleted-event qmp_event DEVICE_DELETED
ktap_check unplugged-endpoint-not-traced sh -c '! /guest/progs/ptt-trace --pmu hisi_ptt0_0 --map '$MAP' --filter 0x80004 --type 7 --direction 2 --format 0 --ms 200'
ktap_check traced-from-plug traced_from_plug
sed 's/^/# traced-from-plug: /' /tmp/ptt-plug.times 2>/dev/null
ktap_finish
