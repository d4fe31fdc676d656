# SPDX-License-Identifier: GPL-2.0-or-later
# Run-time control over QMP, as the driver sees it: a traffic rule changes
# what a running guest measures by the expected ratio, the PTT's fault
# injection drives the driver's timeout and error paths, and a tune file
# of one core's PTT changes that core's traffic only.
# kernel-config: CONFIG_HISI_PTT=m
# kernel-config: CONFIG_VIRTIO_CONSOLE
# run-guest: --guest-qmp
# qemu: -device hisi-ptt,bus=pcie.0,addr=0x8,id=ptt0,rp-bdf-max=0x87
# qemu: -device pcie-root-port,id=rp0,bus=pcie.0,chassis=1,addr=0x10
# qemu: -device nvme,bus=rp0,serial=c0
# qemu: -device hisi-ptt,bus=pcie.0,addr=0x9,id=ptt1,sicl-id=1,rp-bdf-min=0x88,rp-bdf-max=0x8f
# qemu: -device pcie-root-port,id=rp1,bus=pcie.0,chassis=2,addr=0x11
# qemu: -device nvme,bus=rp1,serial=c1
# Two PCIe cores on the default traffic object: PTT hisi_ptt0_0 at 00:08.0
# with root port 00:10.0 -> 01:00.0 nvme, and PTT hisi_ptt1_0 at 00:09.0
# with root port 00:11.0 -> 02:00.0 nvme.
. /guest/tests/lib/ktap.sh
. /guest/tests/lib/qmp.sh

PMU=/sys/bus/event_source/devices/hisi_ptt0_0
TRAFFIC=/machine/hisi-traffic-default

# The DMA writes of 01:00.0 a second, traced for 300 ms (8DW, inbound,
# posted). A second of the records' own time stamps (ptt-trace's
# stamp_rate), not of the guest's clock: a guest starved by a loaded host
# oversleeps the 300 ms and is late to stop the trace.
dma_writes() {
	/guest/progs/ptt-trace --pmu hisi_ptt0_0 --map 0x100:0x80 --filter 0x00100 \
		--type 1 --direction 2 --format 1 --ms 300 |
		sed -n 's/^records=.* stamp_rate=\([0-9]*\) .*/\1/p'
}

rule_scales_rate() {
	local before after
	before=$(dma_writes)
	qom_set $TRAFFIC rules '"stream=dma-write,rate=600000"' >/dev/null || return 1
	after=$(dma_writes)
	qom_set $TRAFFIC rules '""' >/dev/null
	echo "DMA writes traced a second: $before at 200000/s, $after at 600000/s"
	ratio_in "$before" "$after" 270 330
}

bad_rule_refused() {
	local out
	out=$(qom_set $TRAFFIC rules '"stream=dma-write,rate=-1"') && return 1
	echo "$out" | grep -q "bad rate value" || { echo "$out"; return 1; }
	out=$(qom_get $TRAFFIC rules)
	echo "rules now: $out"
	echo "$out" | grep -q '"return": ""'
}

tuning_times_out() {
	qom_set /machine/peripheral/ptt0 hold-tuning-busy true >/dev/null || return 1
	cat $PMU/tune/qos_tx_p 2>/tmp/tune.err && { echo "read succeeded"; return 1; }
	qom_set /machine/peripheral/ptt0 hold-tuning-busy false >/dev/null
	grep -q 'timed out' /tmp/tune.err || { cat /tmp/tune.err; return 1; }
	[ "$(cat $PMU/tune/qos_tx_p)" = 1 ]
}

trace_busy_refused() {
	local out
	qom_set /machine/peripheral/ptt0 hold-trace-busy true >/dev/null || return 1
	out=$(/guest/progs/ptt-trace --pmu hisi_ptt0_0 --map 0x100:0x80 --filter 0x80001 \
		--type 7 --direction 0 --format 0 --ms 100)
	qom_set /machine/peripheral/ptt0 hold-trace-busy false >/dev/null
	echo "$out"
	echo "$out" | grep -q ' bytes=0 '
}

dma_failure_stops_trace() {
	local out records
	qom_set /machine/peripheral/ptt0 fail-next-dma true >/dev/null || return 1
	out=$(/guest/progs/ptt-trace --pmu hisi_ptt0_0 --map 0x100:0x80 --filter 0x80001 \
		--type 7 --direction 0 --format 0 --ms 100)
	echo "$out"
	echo "$out" | grep -q ' bytes=0 ' || return 1
	# and the next trace works again
	/guest/progs/ptt-trace --pmu hisi_ptt0_0 --map 0x100:0x80 --filter 0x80001 \
		--type 7 --direction 0 --format 0 --ms 100
}

# The CPU's MMIO writes below the root port of PTT $1 (sicl) a second of
# the records' time stamps, traced for 300 ms (8DW, outbound, posted)
mmio_writes() {
	local map=0x100:0x80 filter=0x80001
	[ "$1" = 1 ] && map=0x200:0x88 filter=0x80004
	/guest/progs/ptt-trace --pmu hisi_ptt$1_0 --map $map --filter $filter \
		--type 1 --direction 1 --format 1 --ms 300 |
		sed -n 's/^records=.* stamp_rate=\([0-9]*\) .*/\1/p'
}

# hisi-ptt.rst: the tune events "tune the PCIe link/bus" of the PTT's
# core. The highest QoS weight of TX P on core 0 doubles the MMIO writes
# traced there; core 1's rate and tune file stay as they were.
tune_scope_own_core() {
	local tuned0=/sys/bus/event_source/devices/hisi_ptt0_0/tune/qos_tx_p
	local tuned1=/sys/bus/event_source/devices/hisi_ptt1_0/tune/qos_tx_p
	local a0 b0 a1 b1 ok=0
	a0=$(mmio_writes 0)
	b0=$(mmio_writes 1)
	echo 2 >$tuned0 || return 1
	a1=$(mmio_writes 0)
	b1=$(mmio_writes 1)
	echo "MMIO writes traced a second: core 0 $a0 -> $a1 (tuned)," \
		"core 1 $b0 -> $b1; qos_tx_p: core 0 $(cat $tuned0), core 1 $(cat $tuned1)"
	ratio_in "$a0" "$a1" 180 220 && ratio_in "$b0" "$b1" 90 110 &&
		[ "$(cat $tuned0)" = 2 ] && [ "$(cat $tuned1)" = 1 ] || ok=1
	echo 1 >$tuned0
	return $ok
}

ktap_start hisi_ptt_control
if qmp_open >/tmp/qmp-open.log 2>&1; then
	ktap_pass qmp-connects
else
	ktap_fail qmp-connects "$(cat /tmp/qmp-open.log)"
fi
ktap_check rule-scales-traced-rate rule_scales_rate
ktap_check bad-rule-refused-unchanged bad_rule_refused
ktap_check hold-tuning-busy-times-out tuning_times_out
ktap_check hold-trace-busy-refuses-start trace_busy_refused
ktap_check fail-next-dma-stops-trace dma_failure_stops_trace
ktap_check tune-scope-own-core tune_scope_own_core
ktap_finish
