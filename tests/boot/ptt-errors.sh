# SPDX-License-Identifier: GPL-2.0-or-later
# hisi_ptt beyond ptt.sh: every config the driver must refuse and its errno,
# AUX areas it cannot use, the device's fault injection (tuning and trace
# held busy, a failed trace DMA), a second trace, the tracing CPU going
# offline, module lifetime. Runs with either driver set and says so where
# they differ by design.
# kernel-config: CONFIG_HISI_PTT=m
# kernel-config: CONFIG_MODULE_UNLOAD
# kernel-config: CONFIG_HOTPLUG_CPU
# kernel-config: CONFIG_VIRTIO_CONSOLE
# run-guest: --guest-qmp
# qemu: -device hisi-ptt,bus=pcie.0,addr=0x8,sicl-id=1,core-id=2,id=ptt0
# qemu: -device pcie-root-port,id=rp0,bus=pcie.0,chassis=1,addr=0x10
# qemu: -device pcie-root-port,id=rp1,bus=pcie.0,chassis=2,addr=0x11
# qemu: -device nvme,bus=rp0,serial=e0
# qemu: -device edu,bus=rp1
# The PTT at 00:08.0 covers root ports 00:10.0-00:17.7: 00:10.0 -> 01:00.0
# nvme, 00:11.0 -> 02:00.0 edu; the default traffic.
. /guest/tests/lib/ktap.sh
. /guest/tests/lib/qmp.sh
. /guest/tests/lib/drivers.sh
. /guest/tests/lib/pmu.sh

NAME=hisi_ptt1_2
PMU=/sys/bus/event_source/devices/$NAME
MOD=hisi_ptt
DEV=/machine/peripheral/ptt0
MAP=0x100:0x80,0x200:0x88

# cfg FILTER TYPE DIRECTION FORMAT: perf_event_attr::config (format/ of the PMU)
cfg() {
	printf '0x%x%02x%x%05x' "$4" "$2" "$3" "$1"
}

# trace FILTER TYPE DIRECTION FORMAT MS [ptt-trace options]
trace() {
	local filter=$1 type=$2 dir=$3 format=$4 ms=$5
	shift 5
	ptt-trace --pmu $NAME --map $MAP --filter "$filter" --type "$type" \
		--direction "$dir" --format "$format" --ms "$ms" "$@"
}

# dmesg_count PATTERN: kernel messages matching PATTERN so far
dmesg_count() {
	dmesg | grep -c "$1"
}

ktap_start hisi_ptt_errors

ktap_check probe test -d $PMU
if qmp_open >/tmp/qmp-open.log 2>&1; then
	ktap_pass qmp-connects
else
	ktap_fail qmp-connects "$(cat /tmp/qmp-open.log)"
fi

# perf_event_open: the config checks of event_init
ktap_check valid-config-opens opens $NAME:$(cfg 0x80001 7 0 0)
ktap_check type-0-einval refused EINVAL $NAME:$(cfg 0x80001 0 0 0)
ktap_check type-0x8-einval refused EINVAL $NAME:$(cfg 0x80001 0xf 0 0)
ktap_check direction-4-einval refused EINVAL $NAME:$(cfg 0x80001 7 4 0)
ktap_check format-2-einval refused EINVAL $NAME:$(cfg 0x80001 7 0 2)
not_listed() {
	test ! -e /sys/bus/pci/devices/0000:03:00.0 || { echo "03:00.0 exists"; return 1; }
	refused EINVAL $NAME:$(cfg 0x00300 7 0 0) &&	# no such function
		refused EINVAL $NAME:$(cfg 0x00080 7 0 0)	# a root port, not a requester
}
ktap_check requester-not-listed-einval not_listed
not_subset() {
	refused EINVAL $NAME:$(cfg 0x80002 7 0 0) &&	# odd bits name no port
		refused EINVAL $NAME:$(cfg 0x80010 7 0 0) &&	# no port in slot 0x12
		refused EINVAL $NAME:$(cfg 0x80015 7 0 0)
}
ktap_check port-not-subset-einval not_subset
# Differs: upstream takes an empty port mask (a subset of any, tracing
# nothing) and ignores config bits no format field names; ours refuses
# both, so that a typo is an error and the bits stay free for later use.
if ours; then
	ktap_check port-mask-empty-einval refused EINVAL $NAME:$(cfg 0x80000 7 0 0)
	ktap_check reserved-bits-einval refused EINVAL $NAME:$(cfg 0x90001 7 0 0)
	ktap_check reserved-high-bits-einval refused EINVAL $NAME:0x1$(cfg 0x80001 7 0 0 | cut -c3-)
else
	ktap_check port-mask-empty-opens opens $NAME:$(cfg 0x80000 7 0 0)
	ktap_check reserved-bits-ignored opens $NAME:$(cfg 0x90001 7 0 0)
	ktap_check reserved-high-bits-ignored opens $NAME:0x1$(cfg 0x80001 7 0 0 | cut -c3-)
fi
ktap_check per-task-eopnotsupp refused EOPNOTSUPP --task $NAME:$(cfg 0x80001 7 0 0)

# The AUX area: at least 16 MiB.
aux_refused() {
	local out
	out=$(trace 0x80001 7 0 0 100 "$@")
	echo "$out"
	echo "$out" | grep -q '^# mmap aux: Cannot allocate memory'
}
ktap_check aux-8mib-enomem aux_refused --aux-mb 8
ktap_check aux-16mib-traces trace 0x80001 7 0 0 200 --aux-mb 16
ktap_check aux-64mib-traces trace 0x80001 7 0 0 200 --aux-mb 64

# aux_mode OPTIONS: how ours takes a trace with ptt-trace's OPTIONS, as its
# debug message says: "zero-copy" or "copied"
aux_mode() {
	local control=/sys/kernel/debug/dynamic_debug/control
	echo 'module hisi_ptt +p' >$control
	trace 0x80001 7 0 0 100 "$@" >/dev/null
	echo 'module hisi_ptt -p' >$control
	dmesg | sed -n 's/.*: AUX area of .*: //p' | tail -n 1
}
# Zero-copy when the area is the device's ring, 16 MiB in chunks of 4 MiB,
# and the zero_copy parameter is on (off: boot-test's HISI_PTT_COPY=1);
# copied from a larger area or one in smaller chunks (an AUX watermark of
# 1 MiB makes perf allocate it in chunks of 1 MiB).
zero_copy_when_ring() {
	local want=zero-copy got
	grep -q 'hisi_ptt.zero_copy=0' /proc/cmdline && want=copied
	got="$(aux_mode --aux-mb 16) $(aux_mode --aux-mb 64) $(aux_mode --aux-mb 16 --aux-watermark-kb 1024)"
	echo "16 MiB, 64 MiB, 16 MiB in 1 MiB chunks: $got"
	[ "$got" = "$want copied copied" ]
}
if ! ours; then
	:
elif [ -e /sys/kernel/debug/dynamic_debug/control ]; then
	ktap_check aux-zero-copy-when-ring zero_copy_when_ring
else
	ktap_skip aux-zero-copy-when-ring "the kernel has no dynamic debug"
fi

# field OUT NAME: the value of NAME=... in ptt-trace's summary line OUT
field() {
	echo "$1" | grep '^records=' | tr ' ' '\n' | sed -n "s/^$2=//p"
}

# A reader that never frees AUX space: the 16 MiB area fills, never with
# records written over ones not yet read (whole records, all valid). A
# copying driver stops the trace then; ours with zero-copy holds the device
# back instead, its last chunk one record short of full (a buffer is not
# completed while another waits for the driver), 32 bytes short of 16 MiB.
aux_full() {
	local out bytes
	out=$(trace 0x80005 7 2 0 3000 --aux-mb 16 --drain 0) || { echo "$out"; return 1; }
	echo "$out"
	bytes=$(field "$out" bytes)
	[ "$bytes" -gt $((12 << 20)) ] && [ "$bytes" -le $((16 << 20)) ]
}
ktap_check aux-full-no-record-lost aux_full

# traffic_rules RULES: the rules of the default traffic object ("": its
# defaults). 4 M DMA writes a second from each endpoint (about 128 MB/s of
# 4DW records) make the area go round in a short trace.
traffic_rules() {
	qom_set /machine/hisi-traffic-default rules "\"$1\"" >/dev/null
}
FAST=stream=dma-write,rate=4000000

# A reader that frees nothing for 1.5 s, then keeps up: with zero-copy the
# trace goes on where it was held back (data until its end, more than the
# area holds); a copying driver has stopped it for good when the area was
# full (a trace in the second half would show otherwise).
aux_stall() {
	local out bytes last
	traffic_rules $FAST || return 1
	out=$(trace 0x80005 7 2 0 3000 --stall-ms 1500)
	traffic_rules ""
	echo "$out"
	echo "device: $(qom_get $DEV records) $(qom_get $DEV lost-tlps)"
	echo "$out" | grep -q '^records=.* errors=0$' || return 1
	bytes=$(field "$out" bytes)
	last=$(field "$out" last_data_ms)
	if zero_copy; then
		[ "$bytes" -gt $((16 << 20)) ] && [ "$last" -ge 2000 ]
	else
		[ "$bytes" -le $((16 << 20)) ] && [ "$last" -lt 1500 ]
	fi
}
ktap_check aux-reader-stalls-then-keeps-up aux_stall

# perf's overwrite mode (the AUX area mapped read-only), the kernel side of
# perf record -S: ours goes round the area and leaves its last round, whole
# records up to aux_head, copied or not; upstream refuses the mode.
snapshot() {
	local out records
	traffic_rules $FAST || return 1
	out=$(trace 0x80005 7 2 1 1500 --aux-ro 1)
	traffic_rules ""
	echo "$out"
	records=$(field "$out" records)
	echo "$out" | grep -q '^records=.* errors=0$' &&
		[ "$(field "$out" bytes)" -gt $((16 << 20)) ] &&
		[ "$records" = $(((16 << 20) / 32)) ]
}
if ours; then
	ktap_check aux-overwrite-snapshot snapshot
else
	ktap_check aux-overwrite-enomem aux_refused --aux-ro 1
fi

# Tune files: anything but a decimal 0..65535 is EINVAL, the value stays.
TUNE=$PMU/tune/qos_tx_np
tune_bad_values() {
	local v out
	echo 2 >$TUNE || return 1
	for v in -1 65536 abc '' 1x 0x1 ' '; do
		out=$( (echo "$v" >$TUNE) 2>&1) && { echo "'$v' accepted"; return 1; }
		echo "$out" | grep -q 'Invalid argument' || { echo "'$v': $out"; return 1; }
	done
	[ "$(cat $TUNE)" = 2 ] || { echo "value now $(cat $TUNE)"; return 1; }
	echo 1 >$TUNE
}
ktap_check tune-bad-values-einval tune_bad_values

# Tuning held busy by the device: reads and writes time out (ETIMEDOUT)
# after the driver's 1 s, and nothing changes.
tune_busy() {
	local out
	qom_set $DEV hold-tuning-busy true || return 1
	out=$( (cat $PMU/tune/qos_tx_cpl) 2>&1) && { echo "read succeeded: $out"; return 1; }
	echo "read: $out"
	echo "$out" | grep -q 'timed out' || return 1
	out=$( (echo 2 >$PMU/tune/qos_tx_cpl) 2>&1) && { echo "write succeeded"; return 1; }
	echo "write: $out"
	echo "$out" | grep -q 'timed out' || return 1
	qom_set $DEV hold-tuning-busy false
	[ "$(cat $PMU/tune/qos_tx_cpl)" = 1 ]
}
ktap_check tune-busy-etimedout tune_busy
ktap_check tune-works-after-busy sh -c "echo 0 >$PMU/tune/qos_tx_cpl && [ \$(cat $PMU/tune/qos_tx_cpl) = 0 ] && echo 1 >$PMU/tune/qos_tx_cpl"

# trace_refused FAULT MESSAGE: with the fault property FAULT on, the trace
# does not start (the event never runs, no data) and the driver says why,
# in a message matching MESSAGE
trace_refused() {
	local before out
	before=$(dmesg_count "$2")
	qom_set $DEV "$1" true || return 1
	out=$(trace 0x80001 7 0 0 100)
	qom_set $DEV "$1" false
	echo "$out; '$2' messages: $before -> $(dmesg_count "$2")"
	echo "$out" | grep -q ' bytes=0 ' && [ "$(dmesg_count "$2")" -gt "$before" ]
}
# Trace held busy: the start is refused (-EBUSY).
ktap_check trace-busy-refused trace_refused hold-trace-busy busy
ktap_check trace-works-after-busy trace 0x80001 7 0 0 100
# A DMA reset that never completes: both drivers wait for TRACE_WR_STS to
# clear after the reset and give up (-ETIMEDOUT) before the trace starts.
ktap_check dma-reset-timeout-refused trace_refused hold-dma-reset 'DMA reset'
ktap_check trace-works-after-dma-reset-timeout trace 0x80001 7 0 0 100

# A trace DMA that fails: the device stops tracing; perf gets what was
# written before, without a kernel warning, and the next trace works.
dma_fail_start() {
	local out
	qom_set $DEV fail-next-dma true || return 1
	out=$(trace 0x80001 7 0 0 100)
	echo "$out"
	echo "$out" | grep -q ' bytes=0 '
}
ktap_check dma-fail-first-write-no-data dma_fail_start
ktap_check trace-works-after-dma-fail trace 0x80001 7 0 0 100

# Mid-trace: the fault is armed 1 s into a 4 s trace of about 14 MB/s, a
# full 4 MiB buffer every 300 ms, so the failing DMA is one of them and the
# device stops on its own. The records written before it reach perf, whole
# and right.
stopped_msgs=$(dmesg_count 'stopped by the device')
dma_fail_mid_run() {
	local before
	before=$(irqs $MOD)
	trace 0x80005 7 2 0 4000 >/tmp/dma-mid.log 2>&1 &
	sleep 1
	qom_set $DEV fail-next-dma true
	wait $!
	echo "status $?" >>/tmp/dma-mid.log
	echo "MSIs $(($(irqs $MOD) - before))" >>/tmp/dma-mid.log
	qom_get $DEV fail-next-dma >>/tmp/dma-mid.log
}
dma_fail_mid_run
dma_fail_mid() {
	cat /tmp/dma-mid.log
	grep -q '^status 0$' /tmp/dma-mid.log && grep -q '"return": false' /tmp/dma-mid.log &&
		grep -q ' errors=0$' /tmp/dma-mid.log
}
ktap_check dma-fail-mid-trace-keeps-records dma_fail_mid
# Differs by design: ours notices that the device stopped by itself, warns
# and flags the AUX record PARTIAL; upstream hands perf the data silently.
if ours; then
	ktap_check dma-fail-reported test "$(dmesg_count 'stopped by the device')" -gt "$stopped_msgs"
else
	ktap_skip dma-fail-reported "upstream does not report a trace the device stopped"
fi
ktap_check trace-works-after-mid-fail trace 0x80005 7 2 0 100

# One trace per CPU context: a second event on the tracing CPU is EBUSY
# (the PMU is exclusive); while the first runs, the driver stays on it.
second_event() {
	local out
	trace 0x80001 7 0 0 2000 >/tmp/second.log 2>&1 &
	sleep 1
	out=$(pmu-open --cpu 0 $NAME:$(cfg 0x80001 7 0 0) 2>&1)
	wait $!
	echo "second: $out; first: $(cat /tmp/second.log)"
	[ "$out" = "errno=EBUSY event=0" ] && grep -q ' errors=0$' /tmp/second.log
}
ktap_check second-event-same-cpu-ebusy second_event

mbps() {
	sed -n 's/.* MBps=\([0-9]*\).*/\1/p' "$1"
}

# The tracing CPU (ptt-trace opens on CPU 0) goes offline 1 s into a 3 s
# trace (AUX area of $1 MiB): the trace moves to CPU 1 with its interrupt
# and goes on to its end (data_till_end), at more than half the
# rate of a trace that stays on one CPU (a trace that stopped with its CPU
# would show a third of it; a loaded host stretches the move), with no AUX
# bytes skipped: the device goes on where it stopped, copied or not.
# data_till_end LOG REF: the 3 s trace of LOG had data until its last two
# buffers' time at the rate of REF's (the AUX area grows a buffer at a time)
data_till_end() {
	local buf_ms=$((4194304 / ($(mbps "$2") * 1000 + 1)))
	[ "$(field "$(cat "$1")" last_data_ms)" -ge $((3000 - 2 * buf_ms)) ]
}

cpu_offline() {
	local irq st
	[ -e /sys/devices/system/cpu/cpu0/online ] || { echo "CPU 0 cannot go offline"; return 1; }
	irq=$(irq_number $MOD)
	trace 0x80005 7 2 0 1000 --aux-mb "$1" >/tmp/cpu-ref.log 2>&1 || { cat /tmp/cpu-ref.log; return 1; }
	cpu_offline_during 0 /tmp/cpu.log true trace 0x80005 7 2 0 3000 --aux-mb "$1"
	st=$?
	cpu_online 0
	echo "one CPU: $(cat /tmp/cpu-ref.log)"
	echo "moved: $(cat /tmp/cpu.log); IRQ $irq on $(cat /proc/irq/$irq/smp_affinity_list)"
	[ "$st" = 0 ] && [ "$(cat /proc/irq/$irq/smp_affinity_list)" = 1 ] &&
		[ "$(field "$(cat /tmp/cpu.log)" aux_gap)" = 0 ] &&
		data_till_end /tmp/cpu.log /tmp/cpu-ref.log &&
		[ "$(mbps /tmp/cpu.log)" -gt $(($(mbps /tmp/cpu-ref.log) / 2)) ]
}
ktap_check cpu-offline-moves-trace cpu_offline 64
# The same with 16 MiB, which the 3 s trace goes round: the trace stopped
# and started again must wrap where the stop left the AUX head. Upstream
# copies each buffer in one piece and stops the trace for good instead
# when the head is less than a buffer from the end of the area, as it is
# after a stop (its data ends early; upstream fix 0011).
if fixed hwtracing-hisi_ptt-Copy-a-trace-buffer-round-the-end; then
	ktap_check cpu-offline-trace-goes-round cpu_offline 16
else
	cpu_offline_stops() {
		cpu_offline 16 && { echo "went round: upstream's bug fixed?"; return 1; }
		! data_till_end /tmp/cpu.log /tmp/cpu-ref.log
	}
	ktap_check cpu-offline-trace-stops-at-area-end cpu_offline_stops
fi

# Module lifetime: a running trace holds the module.
ktap_check rmmod-refused-while-tracing rmmod_refused $MOD $NAME trace 0x80001 7 0 0 3000
# Differs: upstream's sysfs unbind during a trace frees the DMA buffers the
# device still writes (a bug of upstream's); ours has no unbind file, so
# the trace goes on and ends clean, and the device stays bound.
unbind_refused() {
	local st=0
	trace 0x80001 7 0 0 2000 >/tmp/unbind.log 2>&1 &
	sleep 1
	echo 0000:00:08.0 2>/dev/null >/sys/bus/pci/drivers/hisi_ptt/unbind &&
		{ echo "unbind succeeded"; st=1; }
	wait $! || st=1
	cat /tmp/unbind.log
	grep -q ' errors=0$' /tmp/unbind.log && [ -e /sys/bus/pci/devices/0000:00:08.0/driver ] &&
		[ -d $PMU ] && return $st
	return 1
}
# Upstream has sysfs unbind. From Linux 7.2 on (at least) the perf core
# detaches the events of a PMU being unregistered, which stops the trace
# before the driver frees its buffers: once unbound the device is idle
# (TRACE_CTRL read with bar-rw, the BAR being free) and the trace ends
# clean. 6.12's core leaves the events on the unregistered PMU, and the
# trace's disable then reaches unmapped registers: an oops.
unbind_stops_trace() {
	local st=0 ctrl
	trace 0x80001 7 0 0 2000 >/tmp/unbind.log 2>&1 &
	sleep 1
	echo 0000:00:08.0 >/sys/bus/pci/drivers/hisi_ptt/unbind || st=1
	ctrl=$(bar-rw 0000:00:08.0 2 0x850) || st=1
	wait $! || st=1
	echo 0000:00:08.0 >/sys/bus/pci/drivers/hisi_ptt/bind || st=1
	cat /tmp/unbind.log
	echo "TRACE_CTRL once unbound: $ctrl"
	[ "$st" = 0 ] && [ $((ctrl & 1)) = 0 ] && grep -q ' errors=0$' /tmp/unbind.log &&
		[ -d $PMU ]
}
if ours; then
	ktap_check unbind-refused-while-tracing unbind_refused
elif [ "$(uname -r | cut -d. -f1)" -ge 7 ]; then
	ktap_check unbind-stops-trace unbind_stops_trace
else
	ktap_skip unbind-stops-trace "on 6.12 an unbind during a trace leaves the trace's event on the unregistered PMU: its disable oopses"
fi
ktap_check rmmod-after-close driver_unload $MOD

gone() {
	driver_gone $MOD hisi_ptt $PMU /sys/bus/pci/devices/0000:00:08.0/driver
}
ktap_check nothing-left-after-unload gone

# Fifty loads, each with a short trace, then an unload.
short_trace() {
	trace 0x80001 7 0 0 50 --aux-mb 16
}
ktap_check reload-50-times driver_reloads 50 $MOD short_trace gone
ktap_check nothing-left-after-reloads gone
# A trace a kexec'd kernel left running (tests/boot/progs/ptt-leftover
# plays that kernel, with no driver bound), then the driver loads and
# traces. Differs: ours, and upstream's with our fix, stop the old trace
# at probe and their own works; upstream leaves the old one running, its
# DMA aimed at pages the new kernel may give to anyone, and its own trace
# records nothing.
leftover() {
	local pid st=0 out
	ptt-leftover 0000:00:08.0 >/tmp/leftover.log 2>&1 &
	pid=$!
	for _ in $(seq 100); do
		grep -q '^tracing$' /tmp/leftover.log && break
		sleep 0.1
	done
	driver_load $MOD || st=1
	out=$(trace 0x80001 7 0 0 200 2>&1)
	echo "the new driver's trace: $out"
	driver_unload $MOD || st=1
	kill $pid
	wait $pid || st=1
	cat /tmp/leftover.log
	[ "$st" = 0 ] || return 1
	if [ "$1" = stopped ]; then
		echo "$out" | grep -q '^records=[1-9][0-9]* .* errors=0$'
	else
		! echo "$out" | grep -q '^records=[1-9]'
	fi
}
if fixed hwtracing-hisi_ptt-Stop-a-trace-left-running-by-a-pr; then
	ktap_check probe-stops-leftover-trace leftover stopped
else
	ktap_check probe-leaves-leftover-trace leftover running
fi
ktap_check loads-again driver_load $MOD

list_filters() {
	for f in $PMU/$1/*; do
		[ "$(basename $f)" = multiselect ] || echo "$(basename $f)=$(cat $f)"
	done | tr '\n' ' '
}
filters_again() {
	local got
	got="$(list_filters root_port_filters)| $(list_filters requester_filters)"
	echo "$got"
	[ "$got" = "0000:00:10.0=0x80001 0000:00:11.0=0x80004 | 0000:01:00.0=0x00100 0000:02:00.0=0x00200 " ]
}
ktap_check filters-after-reload filters_again
ktap_check traces-after-reload trace 0x00200 7 2 0 200
ktap_check no-kernel-errors no_kernel_errors
ktap_finish
