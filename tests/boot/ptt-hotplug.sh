# SPDX-License-Identifier: GPL-2.0-or-later
# hisi-ptt follows the PCI topology while the guest runs: an endpoint
# hot-plugged below one of its root ports becomes a requester filter and
# its traffic is traced; once unplugged, both are gone.
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

# wait_for CONDITION...: poll for up to 20 s
wait_for() {
	local i=0
	while ! "$@"; do
		i=$((i + 1))
		[ $i -lt 200 ] || return 1
		usleep 100000
	done
}

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
ktap_finish
