# SPDX-License-Identifier: GPL-2.0-or-later
# Prints a kernel log (dmesg, with or without -r) without the reports of the
# kernel's own code listed here, each of which appears with no device or
# driver of ours (docs/project/testing.md, "The kernel log", gives the
# reproducer), and a "known kernel report: NAME [STAMP]" line in place of
# each. scripts/guest-init and no_kernel_errors (lib/drivers.sh) read the
# log through it.
#   pciehp-reset-lock: lockdep's circular dependency report when pciehp_ist,
#   holding its slot's reset_lock, takes pci_rescan_remove_lock (a PCIe
#   hot-unplug on a lockdep kernel)
# and of the unmodified upstream drivers, found with our devices:
#   upstream-leader-sibling-walk: the WARNING of for_each_sibling_event()'s
#   lockdep assertion in the event_init of hisi_pcie_pmu, hns3_pmu and
#   arm-ccn, which walk the siblings of a group leader that is the event
#   being created and has no context yet (at these lines of 6.12 and 7.2)
#   upstream-ccn-overflow-of-released-counter: the WARN_ON_ONCE of
#   arm-ccn's overflow handler for an overflow flag whose counter has no
#   event: the counter wrapped while perf removed its event, and the
#   interrupt came after the release (the driver leaves the flag set)
#   upstream-sleeping-lock-in-raw-context: lockdep's invalid wait context,
#   a spinlock_t (hisi_ptt's pmu_lock, arm-ccn's dt.config_lock) taken in
#   a PMU callback under perf's raw context lock (7.2's debug kernel)
# The upstream ones are named only with -v set=upstream (the driver set
# loaded, /etc/driver-set in the guest): 7.2 prints a file's name without
# its path, so the set cannot be told from the report.

function stamp_of(text) {
	sub(/^[^[]*/, "", text)
	sub(/\].*/, "]", text)
	return text
}

# The task or CPU that printed the line ("[ T123]" or "[ C1]" after the
# time stamp, with CONFIG_PRINTK_CALLER; "" without): the reports of two
# CPUs interleave line by line, so each caller's is followed on its own.
function caller_of(text) {
	if (!match(text, /^(<[0-9]>)?\[[ 0-9.]*\]\[ *[TC][0-9]+\]/))
		return ""
	text = substr(text, 1, RLENGTH)
	sub(/^.*\]\[ */, "", text)
	sub(/\]$/, "", text)
	return text
}

function report(name) {
	print "known kernel report: " name " " stamp_of($0)
}

function flush(c,    i) {
	for (i = 1; i <= held[c]; i++)
		print line[c, i]
	held[c] = 0
}

{ c = caller_of($0) }
# A known report is dropped up to the end of its stack trace, or up to the
# start of another report of its caller if that comes first (a log cut
# short)
state[c] != "" && state[c] != "head" && state[c] != "wait-head" && /\[ cut here \]|WARNING:|BUG:|Internal error:|Unable to handle|=====/ {
	state[c] = ""
}
state[c] == "skip" {
	if (/Call trace:/)
		state[c] = "frames"
	next
}
state[c] == "frames" {
	if (/^(<[0-9]>)?\[[ 0-9.]*\](\[ *[TC][0-9]+\])?  [^ ]/)
		next
	state[c] = ""
}
state[c] == "warning" {
	if (/---\[ end trace/)
		state[c] = ""
	next
}
# The head of a lockdep report, held until it names its locks
state[c] == "head" {
	line[c, ++held[c]] = $0
	if (/\(pci_rescan_remove_lock\)/)
		acquiring[c] = 1
	if (acquiring[c] && /\(&ctrl->reset_lock\).* at: pciehp_ist/)
		known[c] = 1
	if (/which lock already depends on the new lock/) {
		if (known[c]) {
			print "known kernel report: pciehp-reset-lock " stamp[c]
			held[c] = 0
			state[c] = "skip"
		} else {
			flush(c)
			state[c] = ""
		}
	}
	next
}
# 6.12 prints "WARNING: CPU: 0 PID: 62 at PATH/FILE:LINE FUNCTION+...",
# 7.2 "WARNING: FILE:LINE at FUNCTION+..."
set == "upstream" && /WARNING: (CPU: [0-9]+ PID: [0-9]+ at [^ ]*\/)?(hisi_pcie_pmu\.c:350 (at )?hisi_pcie_pmu|hns3_pmu\.c:1070 (at )?hns3_pmu|arm-ccn\.c:82[56] (at )?arm_ccn_pmu)_event_init\+/ {
	report("upstream-leader-sibling-walk")
	state[c] = "warning"
	next
}
set == "upstream" && /WARNING: (CPU: [0-9]+ PID: [0-9]+ at [^ ]*\/)?arm-ccn\.c:116[34] (at )?arm_ccn_pmu_overflow_handler\+/ {
	report("upstream-ccn-overflow-of-released-counter")
	state[c] = "warning"
	next
}
# lockdep's invalid wait context: held until it names the lock taken
state[c] == "wait-head" {
	line[c, ++held[c]] = $0
	if (/is trying to lock:/)
		next
	if (set == "upstream" && /\((&hisi_ptt->pmu_lock|&ccn->dt\.config_lock)\)\{[^}]*\}-\{3:3\}, at: (hisi_ptt|arm_ccn)_pmu_[a-z_]+\+/) {
		print "known kernel report: upstream-sleeping-lock-in-raw-context " stamp[c]
		held[c] = 0
		state[c] = "skip"
	} else if (held[c] > 4) {
		flush(c)
		state[c] = ""
	}
	next
}
/\[ BUG: Invalid wait context \]/ {
	state[c] = "wait-head"
	held[c] = 0
	line[c, ++held[c]] = $0
	stamp[c] = stamp_of($0)
	next
}
/WARNING: possible circular locking dependency detected/ {
	state[c] = "head"
	held[c] = 0
	line[c, ++held[c]] = $0
	acquiring[c] = known[c] = 0
	stamp[c] = stamp_of($0)
	next
}
{ print }
END {
	for (c in held)
		flush(c)
}
