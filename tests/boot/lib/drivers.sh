# SPDX-License-Identifier: GPL-2.0-or-later
# The driver set a suite runs with (scripts/run-guest --drivers), loading
# and unloading its modules with their dependencies, and what the error
# suites check of a module's lifetime. Source it.

DRIVERS=$(cat /etc/driver-set)
DRIVER_DIR=/lib/modules/hisi/$DRIVERS
# The behaviour the suite expects: upstream's or ours (your own build,
# run-guest --modules, is judged as upstream unless --contract says ours)
CONTRACT=$(cat /etc/driver-contract)

# driver_deps NAME: the modules NAME needs, from the set's deps file
driver_deps() {
	sed -n "s/^$1: *//p" "$DRIVER_DIR/deps"
}

# driver_load NAME: insmod NAME after the modules it needs
driver_load() {
	local dep
	for dep in $(driver_deps "$1"); do
		[ -d "/sys/module/$dep" ] || guest-insmod "$DRIVER_DIR/$dep.ko" || return 1
	done
	guest-insmod "$DRIVER_DIR/$1.ko"
}

# driver_unload NAME: rmmod NAME, then the modules it needed that nothing
# else uses any more
driver_unload() {
	local dep deps
	deps=$(driver_deps "$1")
	rmmod "$1" || return 1
	for dep in $deps; do
		[ "$(cat "/sys/module/$dep/refcnt" 2>/dev/null)" = 0 ] && rmmod "$dep"
	done
	return 0
}

# ours: the suite runs with drivers that behave as ours. Where the two sets
# differ by design a suite checks each against its own behaviour.
ours() {
	[ "$CONTRACT" = ours ]
}

# zero_copy: the hisi_ptt loaded writes a trace straight into perf's AUX
# area when the area's layout allows (ours, unless hisi_ptt.zero_copy=0 is
# on the kernel command line: boot-test's HISI_PTT_COPY=1)
zero_copy() {
	[ "$(cat /sys/module/hisi_ptt/parameters/zero_copy 2>/dev/null)" = Y ]
}

# fixed FIX: the set behaves as the upstream fix patch FIX makes upstream's
# driver behave (guest-drivers/upstream-fixes/NNNN-FIX.patch): ours does by
# design, the set "fixed" has the patch applied.
fixed() {
	ours || grep -qxF "$1" /etc/driver-fixes
}

# module_name NAME: the module NAME as the kernel names it, in /sys/module
# for one (arm-ccn is arm_ccn)
module_name() {
	echo "$1" | tr - _
}

# Module lifetime, as the error suites check it of each driver.

# rmmod_refused MODULE PMU COMMAND...: while COMMAND, in the background,
# holds an event of MODULE's PMU (its name under event_source) open, rmmod
# MODULE is refused, module and PMU stay, and COMMAND still succeeds.
# COMMAND gets a second to open its event first.
rmmod_refused() {
	local mod="$1" dir pmu="/sys/bus/event_source/devices/$2" pid st=0
	shift 2
	dir=/sys/module/$(module_name "$mod")
	"$@" >/tmp/rmmod-refused.log 2>&1 &
	pid=$!
	sleep 1
	echo "refcnt $(cat "$dir/refcnt")"
	rmmod "$mod" && { echo "rmmod $mod succeeded"; st=1; }
	[ -d "$dir" ] || { echo "module gone"; st=1; }
	[ -d "$pmu" ] || { echo "PMU gone"; st=1; }
	wait $pid || { echo "$1: status $?"; st=1; }
	cat /tmp/rmmod-refused.log
	return $st
}

# driver_gone MODULE PATTERN [PATH...]: after MODULE's unload nothing of it
# is left: not the module, not its bus driver (named MODULE), none of PATH
# (its PMU, its device's driver link), and nothing named after PATTERN among
# the PMUs, the interrupts, the vmalloc areas and the CPU hotplug states.
# With our set MODULE no longer holds the shared core uncore_pmu, which goes
# with its last user: it stays while other drivers of the set (run-guest
# loads them all) still use it.
driver_gone() {
	local mod="$1" pattern="$2" left=0 p
	shift 2
	for p in "/sys/module/$(module_name "$mod")" /sys/bus/*/drivers/"$mod" \
		"/sys/module/uncore_pmu/holders/$(module_name "$mod")" "$@"; do
		[ -e "$p" ] && { echo "left: $p"; left=1; }
	done
	ls /sys/bus/event_source/devices | grep "$pattern" && left=1
	grep "$pattern" /proc/interrupts && left=1
	grep "$pattern" /proc/vmallocinfo && left=1
	grep -i "$pattern" /sys/devices/system/cpu/hotplug/states && left=1
	if ours && [ "$(cat /sys/module/uncore_pmu/refcnt 2>/dev/null)" = 0 ]; then
		echo "left: /sys/module/uncore_pmu, with no user"
		left=1
	fi
	return $left
}

# driver_reloads N MODULE USE GONE: MODULE goes and comes back N times,
# starting from and ending in the state it is in (loaded or not). After
# each load the command USE (the PMU counts, traces) succeeds, after each
# unload the command GONE (driver_gone for MODULE) does.
driver_reloads() {
	local n="$1" mod="$2" use="$3" gone="$4" i round out
	for i in $(seq $((2 * n))); do
		round=$(((i + 1) / 2))
		if [ -d "/sys/module/$(module_name "$mod")" ]; then
			driver_unload "$mod" || { echo "unload $round failed"; return 1; }
			out=$($gone 2>&1) || { echo "unload $round: $out"; return 1; }
		else
			driver_load "$mod" || { echo "load $round failed"; return 1; }
			out=$($use 2>&1) || { echo "load $round: $out"; return 1; }
		fi
	done
}

# no_kernel_errors: the kernel log has no warning, BUG, oops, refcount or
# list corruption, or report of the slab debugger (ours run under
# slub_debug=FZPU), but for the kernel's own known reports (lib/kernel-log.awk)
no_kernel_errors() {
	local first from

	dmesg | awk -v set="$(cat /etc/driver-set)" -f /guest/tests/lib/kernel-log.awk >/tmp/kernel-log
	first=$(grep -nE 'WARNING:|BUG:|(^|[] ])BUG|Oops|Call trace:|refcount_t|list_(add|del) corruption|Poison overwritten|Redzone|Padding overwritten|Freepointer' \
		/tmp/kernel-log | head -n 1 | cut -d: -f1)
	[ -z "$first" ] && return 0
	# A log whose buffer wrapped starts inside a report, its head lost
	dmesg | head -n 1 | grep -q 'Booting Linux' ||
		echo "(the kernel log lost its start: log_buf_len)"
	# the first report, with what led to it
	from=$((first - 8))
	[ "$from" -ge 1 ] || from=1
	sed -n "$from,$((first + 2))p" /tmp/kernel-log
	return 1
}
