# SPDX-License-Identifier: GPL-2.0-or-later
# Torture on the debug kernel (KASAN, lockdep, kmemleak, DEBUG_OBJECTS,
# DEBUG_ATOMIC_SLEEP): all the drivers of the set at once on four CPUs,
# reloaded, counting and tracing together, their CPUs going away, their
# endpoints unplugged and their devices failing, while the kernel watches.
# boot-test's guest-run-clean case fails on any report, kmemleak's scan
# before poweroff included.
# run-guest: --kernel debug
# run-guest: --perf
# run-guest: --guest-qmp
# run-guest: --smp 4
# run-guest: --timeout 2400
# qemu: -object hisi-traffic,id=t0,rules=stream=dma-write,,rate=250000,,len=16
# qemu: -device hisi-ptt,bus=pcie.0,addr=0x8,id=ptt0,core-id=0,rp-bdf-min=0x80,rp-bdf-max=0x87,traffic=t0
# qemu: -device hisi-ptt,bus=pcie.0,addr=0x9,id=ptt1,core-id=1,rp-bdf-min=0x88,rp-bdf-max=0x8f,traffic=t0
# qemu: -device hisi-pcie-pmu,bus=pcie.0,addr=0xa,id=pmu0,core-id=0,bdf-min=0x80,bdf-max=0x87,traffic=t0
# qemu: -device hisi-pcie-pmu,bus=pcie.0,addr=0xb,id=pmu1,core-id=1,bdf-min=0x88,bdf-max=0x8f,traffic=t0
# qemu: -device hns3-pmu,bus=pcie.0,addr=0xc,id=hns3,sicl-id=5,bdf-min=0x30,bdf-max=0x30,traffic=t0
# qemu: -device pci-testdev,bus=pcie.0,addr=0x6
# qemu: -device arm-ccn,id=ccn
# qemu: -device pcie-root-port,id=rp0,bus=pcie.0,chassis=1,addr=0x10
# qemu: -device pcie-root-port,id=rp1,bus=pcie.0,chassis=2,addr=0x11
# qemu: -device nvme,bus=rp0,serial=t0,id=nvme0
# qemu: -device edu,bus=rp1,id=edu0
# Two PCIe cores of SICL 0: core 0 (PTT hisi_ptt0_0 at 00:08.0, PMU
# hisi_pcie0_core0 at 00:0a.0) has root port 00:10.0 -> 01:00.0 nvme;
# core 1 (hisi_ptt0_1 at 00:09.0, hisi_pcie0_core1 at 00:0b.0) has
# 00:11.0 -> 02:00.0 edu. The HNS3 PMU (sicl 5) counts the NIC function
# 00:06.0; the CCN counts the default ring traffic. Every endpoint's DMA
# writes: 250000/s of 16 DW (16000000 payload bytes/s).
. /guest/tests/lib/ktap.sh
. /guest/tests/lib/qmp.sh
. /guest/tests/lib/drivers.sh
. /guest/tests/lib/pmu.sh

PCIE0=hisi_pcie0_core0
PCIE1=hisi_pcie0_core1
HNS3=hns3_pmu_sicl_5
MAP=0x100:0x80,0x200:0x88
EV=/sys/bus/event_source/devices
MODULES="hisi_ptt hisi_pcie_pmu hns3_pmu arm-ccn"

# A perf session of every PMU of the set: one perf stat counting an event
# of each counting PMU while a 50 ms trace of each PTT runs under it.
session() {
	perf stat -x, -a -e "$PCIE0/rx_mwr_flux,bdf=0x100/" \
		-e "$PCIE1/rx_mwr_flux,bdf=0x200/" \
		-e "$HNS3/pps_ssu_rpu_packet_num,global=1/" -e ccn/cycles/ -- \
		sh -c "ptt-trace --pmu hisi_ptt0_0 --map $MAP --filter 0x80001 --type 7 --direction 2 --format 0 --ms 50 &&
			ptt-trace --pmu hisi_ptt0_1 --map $MAP --filter 0x80004 --type 7 --direction 2 --format 0 --ms 50" \
		>/tmp/session.log 2>&1 || { cat /tmp/session.log; return 1; }
	# Every PMU counted something.
	[ "$(grep -cE '^[1-9][0-9]*,' /tmp/session.log)" = 4 ] ||
		{ cat /tmp/session.log; return 1; }
}

all_loaded() {
	local m
	for m in $MODULES; do
		[ -d "/sys/module/$(module_name "$m")" ] || return 1
	done
	for m in $PCIE0 $PCIE1 $HNS3 ccn hisi_ptt0_0 hisi_ptt0_1; do
		[ -d "$EV/$m" ] || { echo "no PMU $m"; return 1; }
	done
}

# Every driver of the set goes and comes back 100 times, with a perf
# session of all of them after each load.
reload_100() {
	local i m
	for i in $(seq 100); do
		for m in $MODULES; do
			driver_unload "$m" || { echo "round $i: unload $m"; return 1; }
		done
		for m in $MODULES; do
			driver_load "$m" || { echo "round $i: load $m"; return 1; }
		done
		wait_for all_loaded || { echo "round $i: not all back"; return 1; }
		session || { echo "round $i: session failed"; return 1; }
	done
}

# rate NUM SECONDS WANT: NUM / SECONDS is WANT +-1 %
rate() {
	awk -v n="$1" -v s="$2" -v want="$3" \
		'BEGIN { v = n / s; print v "/s"; exit !(s > 0 && v > want * 0.99 && v < want * 1.01) }'
}

# A minute of everything at once, from six perf processes: each PCIe PMU's
# bandwidth and time, the HNS3 PMU's and the CCN's counts in their own
# perf stat, and a trace of each PTT, every record checked. The PCIe
# counts are exact against the traffic given: 16000000 bytes/s per core.
all_at_once() {
	local st=0 pids="" n
	for n in 0 1; do
		# Core n's PMU, hisi_pcie0_core<n>, counts its endpoint 0<n+1>:00.0.
		set -- "hisi_pcie0_core$n/rx_mwr_flux,bdf=0x$((n + 1))00,len_mode=1/" \
			"hisi_pcie0_core$n/rx_mwr_time,bdf=0x$((n + 1))00,len_mode=1/"
		perf stat -x, -a -e "{$1,$2}" -- sleep 60 >/tmp/aao.pcie$n 2>&1 &
		pids="$pids $!"
	done
	perf stat -x, -a -e "{$HNS3/pps_ssu_rpu_packet_num,global=1/,$HNS3/pps_ssu_rpu_time,global=1/}" \
		-- sleep 60 >/tmp/aao.hns3 2>&1 &
	pids="$pids $!"
	perf stat -x, -a -e "{ccn/cycles/,ccn/hnf_pocq_reqs_recvd,node=2/}" \
		-- sleep 60 >/tmp/aao.ccn 2>&1 &
	pids="$pids $!"
	ptt-trace --pmu hisi_ptt0_0 --map $MAP --filter 0x80001 --type 7 \
		--direction 2 --format 0 --ms 60000 >/tmp/aao.ptt0 2>&1 &
	pids="$pids $!"
	ptt-trace --pmu hisi_ptt0_1 --map $MAP --filter 0x80004 --type 7 \
		--direction 2 --format 1 --ms 60000 >/tmp/aao.ptt1 2>&1 &
	pids="$pids $!"
	# Which one failed first, and how, then the counts.
	for p in $pids; do
		wait "$p" || { echo "process $p failed"; st=1; }
	done
	[ $st = 0 ] || { tail -n 3 /tmp/aao.* | tr '\n' ' '; return 1; }
	for n in 0 1; do
		set -- $(awk -F, '/hisi_pcie/ { printf "%s ", $1 }' /tmp/aao.pcie$n)
		echo "core $n: $1 bytes in $2 cycles"
		rate "$1" "$(awk -v c="$2" 'BEGIN { print c / 100000000 }')" 16000000 ||
			return 1
	done
	set -- $(awk -F, '/ccn\// { printf "%s ", $1 }' /tmp/aao.ccn)
	rate "$2" "$(awk -v c="$1" 'BEGIN { print c / 1e9 }')" 2000000
}

# A CPU that owns PMUs goes offline while all of them count: every cpumask
# that named it moves to a CPU that is online, and counting goes on.
cpumasks() {
	local p
	for p in $PCIE0 $PCIE1 $HNS3 ccn; do
		printf '%s ' "$(cat "$EV/$p/cpumask")"
	done
}
hotplug_moves() {
	local owner before after c
	owner=$(cat "$EV/$PCIE0/cpumask")
	before=$(cpumasks)
	cpu_offline_during "$owner" /tmp/hp.out "eval cpumasks >/tmp/hp.moved" \
		perf stat -x, -a -e "$PCIE0/rx_mwr_flux,bdf=0x100/" -e "$PCIE1/rx_mwr_flux,bdf=0x200/" \
		-e "$HNS3/pps_ssu_rpu_packet_num,global=1/" -e ccn/cycles/ -- sleep 3 ||
		{ cpu_online "$owner"; cat /tmp/hp.out; return 1; }
	cpu_online "$owner"
	after=$(cat /tmp/hp.moved)
	echo "CPU $owner offline: cpumasks $before -> $after"
	cat /tmp/hp.out
	for c in $after; do
		[ "$c" != "$owner" ] || return 1
	done
	[ "$(grep -cE '^[1-9][0-9]*,' /tmp/hp.out)" = 4 ]
}

# Each CPU in turn goes offline and back, twice, while a perf stat of all
# the PMUs and a trace of each PTT run.
hotplug_churn() {
	local st=0 cpu round
	session_bg() {
		perf stat -x, -a -e "$PCIE0/rx_mwr_flux,bdf=0x100/" -e "$PCIE1/rx_mwr_flux,bdf=0x200/" \
			-e "$HNS3/pps_ssu_rpu_packet_num,global=1/" -e ccn/cycles/ -- \
			ptt-trace --pmu hisi_ptt0_1 --map $MAP --filter 0x80004 --type 7 \
			--direction 2 --format 0 --ms 8000 --ready /tmp/churn-ready >/tmp/churn.out 2>&1
	}
	rm -f /tmp/churn-ready
	session_bg &
	# Churn once every event is open: an event opened on the PMU's CPU as
	# it goes offline fails with ENODEV, as on real hardware
	wait_for test -e /tmp/churn-ready || { cat /tmp/churn.out; return 1; }
	for round in 1 2; do
		for cpu in 1 2 3 0; do
			echo 0 >/sys/devices/system/cpu/cpu$cpu/online || st="$st cpu$cpu-off"
			usleep 300000
			echo 1 >/sys/devices/system/cpu/cpu$cpu/online || st="$st cpu$cpu-on"
		done
	done
	wait $! || { cat /tmp/churn.out; return 1; }
	# (what failed first: ktap_fail shows the first lines)
	[ "$st" = 0 ] && [ "$(grep -cE '^[1-9][0-9]*,' /tmp/churn.out)" = 4 ] ||
		{ echo "failed writes: $st"; grep -vE '^[1-9][0-9]*,' /tmp/churn.out; return 1; }
}

# The endpoint a requester filter traces goes (QMP device_del) in the middle
# of the trace; the trace ends with its data, and the filter is gone.
unplug_traced_endpoint() {
	rm -f /tmp/unplug-ready
	ptt-trace --pmu hisi_ptt0_0 --map $MAP --filter 0x00100 --type 7 \
		--direction 2 --format 0 --ms 9000 --ready /tmp/unplug-ready \
		>/tmp/unplug.out 2>&1 &
	wait_for test -e /tmp/unplug-ready || return 1
	usleep 500000
	qmp '{"execute": "device_del", "arguments": {"id": "nvme0"}}' || return 1
	qmp_event DEVICE_DELETED 30 || return 1
	wait $! || { cat /tmp/unplug.out; return 1; }
	tail -n 2 /tmp/unplug.out
	grep -q 'records=[1-9]' /tmp/unplug.out &&
		[ ! -e /sys/bus/pci/devices/0000:01:00.0 ] &&
		[ ! -e "$EV/hisi_ptt0_0/requester_filters/0000:01:00.0" ]
}

# The NVMe back, for the cases after (their filters name it)
replug_endpoint() {
	[ -e /sys/bus/pci/devices/0000:01:00.0 ] && return 0
	qmp '{"execute": "device_add", "arguments":
		{"driver": "nvme", "bus": "rp0", "serial": "t0", "id": "nvme0"}}' ||
		return 1
	wait_for test -e /sys/bus/pci/devices/0000:01:00.0
}

# QEMU cannot unplug a root port of the virt machine's root bus, so the
# guest removes one (as `echo 1 > remove` does) during a root-port trace
# of it and a count of its PMU, then finds it again by a rescan.
remove_root_port() {
	local pids=""
	rm -f /tmp/rp-ready
	ptt-trace --pmu hisi_ptt0_1 --map $MAP --filter 0x80004 --type 7 \
		--direction 2 --format 0 --ms 3000 --ready /tmp/rp-ready \
		>/tmp/rp.ptt 2>&1 &
	pids="$!"
	perf stat -x, -a -e "$PCIE1/rx_mwr_flux,bdf=0x200/" -- sleep 3 \
		>/tmp/rp.pmu 2>&1 &
	pids="$pids $!"
	wait_for test -e /tmp/rp-ready || return 1
	usleep 500000
	echo 1 >/sys/bus/pci/devices/0000:00:11.0/remove || return 1
	for p in $pids; do
		wait "$p" || { cat /tmp/rp.ptt /tmp/rp.pmu; return 1; }
	done
	[ ! -e /sys/bus/pci/devices/0000:02:00.0 ] || { echo "edu still there"; return 1; }
	echo 1 >/sys/bus/pci/rescan
	wait_for test -e /sys/bus/pci/devices/0000:02:00.0 || { echo "no rescan"; return 1; }
	# The trace and the count of the port work again.
	ptt-trace --pmu hisi_ptt0_1 --map $MAP --filter 0x80004 --type 7 \
		--direction 2 --format 0 --ms 200 && session
}

# The device fault injections during sessions: each ends (with an error
# when the device failed it), and the next session works.
faults() {
	qom_set ptt0 fail-next-dma true || return 1
	ptt-trace --pmu hisi_ptt0_0 --map $MAP --filter 0x80001 --type 7 \
		--direction 2 --format 0 --ms 500 >/tmp/faults.log 2>&1
	echo "trace with a failing DMA: status $?"
	qom_set ptt0 hold-trace-busy true || return 1
	ptt-trace --pmu hisi_ptt0_0 --map $MAP --filter 0x80001 --type 7 \
		--direction 2 --format 0 --ms 200 >>/tmp/faults.log 2>&1 &&
		{ echo "trace started on a busy PTT"; return 1; }
	qom_set ptt0 hold-trace-busy false || return 1
	qom_set ptt0 hold-tuning-busy true || return 1
	echo 2 >"$EV/hisi_ptt0_0/tune/qos_tx_p" 2>/dev/null &&
		{ echo "tuning worked on a busy PTT"; return 1; }
	qom_set ptt0 hold-tuning-busy false || return 1
	echo 1 >"$EV/hisi_ptt0_0/tune/qos_tx_p" || return 1
	# Counters pushed to the brink overflow while perf counts.
	perf stat -x, -a -e "$PCIE0/rx_mwr_flux,bdf=0x100/" -e "$HNS3/pps_ssu_rpu_packet_num,global=1/" \
		-e ccn/cycles/ -- sleep 3 >>/tmp/faults.log 2>&1 &
	sleep 1
	qom_set pmu0 advance '"0=9223372036854775000"' &&
		qom_set hns3 advance '"0=9223372036854775000"' &&
		qom_set ccn advance '"8=1099511627000"' || return 1
	wait $! || { cat /tmp/faults.log; return 1; }
	session
}

ktap_start torture
four_cpus_all_loaded() {
	[ "$(nproc)" = 4 ] && all_loaded
}
ktap_check all-loaded-smp4 four_cpus_all_loaded
if qmp_open >/tmp/qmp-open.log 2>&1; then
	ktap_pass qmp-connects
else
	ktap_fail qmp-connects "$(cat /tmp/qmp-open.log)"
fi
ktap_check session session
ktap_check reload-every-driver-100-times reload_100
ktap_check all-at-once-60s all_at_once
ktap_check cpu-offline-moves-cpumasks hotplug_moves
ktap_check cpu-hotplug-churn hotplug_churn
ktap_check unplug-traced-endpoint unplug_traced_endpoint
ktap_check replug-endpoint replug_endpoint
ktap_check remove-root-port-during-trace remove_root_port
ktap_check fault-injection-during-sessions faults
ktap_check no-kernel-errors no_kernel_errors
ktap_finish
