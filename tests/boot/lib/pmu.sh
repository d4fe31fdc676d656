# SPDX-License-Identifier: GPL-2.0-or-later
# What the error suites ask of a PMU beyond perf stat (lib/perf.sh): events
# opened with raw configs by /guest/progs/pmu-open (tests/boot/progs/pmu-open.c),
# the PMU's interrupt, and its owner CPU going offline. Source it, then:
#   opens [pmu-open options] EVENT...          pmu-open takes the events
#   refused ERRNO [pmu-open options] EVENT...  pmu-open fails with ERRNO
#   count_start LOG [pmu-open options] EVENT...
#                      pmu-open counts in the background, its output in LOG,
#                      until count_stop; returns once the group counts
#   count_stop         ends that count and waits for pmu-open's last words
#   irq_number NAME    the IRQ the driver requested under NAME (the last
#                      column of /proc/interrupts)
#   irqs NAME          how often it fired so far, summed over the CPUs
#   cpu_offline_during CPU LOG WHILE-OFFLINE COMMAND...
#   cpu_online CPU
#   leftover_counter MODULE IRQ QOM-ID LEAVE CLEAN
# Both open helpers say what pmu-open said only when it is not what was
# wanted: in a chain of them the one that failed is what ktap_check shows.

opens() {
	local out
	out=$(pmu-open "$@" 2>&1)
	[ "$(echo "$out" | head -n 1)" = ok ] && return 0
	echo "pmu-open $*: got '$out', want ok"
	return 1
}

refused() {
	local want="$1" out
	shift
	out=$(pmu-open "$@" 2>&1)
	case $out in
	"errno=$want event="*) return 0 ;;
	esac
	echo "pmu-open $*: got '$out', want errno=$want"
	return 1
}

# A count that QMP acts on is ended by a signal, not a time: see
# pmu-open.c. One count at a time, its pid in COUNTING.
count_start() {
	local log="$1"
	shift
	pmu-open --until-signal "$@" >"$log" 2>&1 &
	COUNTING=$!
	wait_for grep -q '^started\|^errno=' "$log" && grep -qx started "$log" ||
		{ count_stop; return 1; }
}

count_stop() {
	kill -USR1 "$COUNTING" 2>/dev/null
	wait "$COUNTING"
}

irq_number() {
	awk -v name="$1" '$NF == name { sub(":", "", $1); print $1 }' /proc/interrupts
}

# The per-CPU counts are the numeric columns after the IRQ number; the
# first column that is not a number is the interrupt controller's name.
irqs() {
	awk -v name="$1" '$NF == name {
		for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) n += $i
	} END { print n + 0 }' /proc/interrupts
}

# cpu_offline_during CPU LOG WHILE-OFFLINE COMMAND...: COMMAND (counting,
# tracing) runs in the background with its output in LOG; a second into it
# CPU goes offline and WHILE-OFFLINE (a command: "true" for nothing) looks
# at where things moved while COMMAND still runs. Returns COMMAND's status,
# or 1 when CPU could not go offline or WHILE-OFFLINE failed. CPU is left
# offline: the caller brings it back (cpu_online) when it sees fit.
cpu_offline_during() {
	local cpu="$1" log="$2" while_offline="$3" pid st=0
	shift 3
	"$@" >"$log" 2>&1 &
	pid=$!
	sleep 1
	if ! echo 0 >"/sys/devices/system/cpu/cpu$cpu/online"; then
		wait $pid
		echo "CPU $cpu cannot go offline"
		return 1
	fi
	$while_offline || st=1
	wait $pid || st=1
	return $st
}

cpu_online() {
	echo 1 >"/sys/devices/system/cpu/cpu$1/online"
}

# leftover_counter MODULE IRQ QOM-ID LEAVE CLEAN: with MODULE unloaded, the
# suite's function LEAVE plays a previous owner of the PMU (a kexec'd
# kernel, a driver gone without cleaning up) that left counter 0 counting
# with its overflow interrupt unmasked, 2^40 short of its wrap (bar-rw
# on the PMU's BAR). MODULE loads, then the device's fault injection wraps
# the counter. Differs by design: ours quiesce the PMU at probe, so the
# interrupt IRQ does not fire; upstream leaves the counter as it found it
# and takes an interrupt for no event of its own. Then CLEAN, with MODULE
# unloaded again, leaves the PMU as nobody left it, for the next points.
leftover_counter() {
	local mod=$1 irq=$2 dev=$3 leave=$4 clean=$5 before after st
	driver_unload "$mod" && "$leave" && driver_load "$mod" || return 1
	before=$(irqs "$irq")
	# LEAVE put the counter 2^40 short of 2^64: no traffic wraps it so soon
	qom_set "$dev" advance '"0=2199023255552"' || return 1
	sleep 1
	after=$(irqs "$irq")
	echo "interrupts: $before before the wrap, $after after"
	if ours; then
		[ "$after" = "$before" ]
	else
		[ "$after" -gt "$before" ]
	fi
	st=$?
	driver_unload "$mod" && "$clean" && driver_load "$mod" && return $st
}
