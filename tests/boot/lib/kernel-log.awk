# SPDX-License-Identifier: GPL-2.0-or-later
# Prints a kernel log (dmesg, with or without -r) without the reports of the
# kernel's own code listed here, each of which appears with no device or
# driver of ours (docs/reliability.md, "Known kernel reports", gives the
# reproducer), and a "known kernel report: NAME [STAMP]" line in place of
# each. scripts/guest-init and no_kernel_errors (lib/drivers.sh) read the
# log through it.
#   pciehp-reset-lock: lockdep's circular dependency report when pciehp_ist,
#   holding its slot's reset_lock, takes pci_rescan_remove_lock (a PCIe
#   hot-unplug on a lockdep kernel)
# and of the unmodified upstream drivers (built from the upstream set, whose
# source path has an upstream/ directory), found with our devices:
#   upstream-leader-sibling-walk: the WARNING of for_each_sibling_event()'s
#   lockdep assertion in the event_init of hisi_pcie_pmu, hns3_pmu and
#   arm-ccn, which walk the siblings of a group leader that is the event
#   being created and has no context yet (at these lines of 6.12)

function stamp_of(text) {
	sub(/^[^[]*/, "", text)
	sub(/\].*/, "]", text)
	return text
}

function report(name) {
	print "known kernel report: " name " " stamp_of($0)
}

function flush(    i) {
	for (i = 1; i <= held; i++)
		print line[i]
	held = 0
}

# A known report is dropped up to the end of its stack trace, or up to the
# start of another report if that comes first (a log cut short)
state != "" && state != "head" && /\[ cut here \]|WARNING:|BUG:|Internal error:|Unable to handle|=====/ {
	state = ""
}
state == "skip" {
	if (/Call trace:/)
		state = "frames"
	next
}
state == "frames" {
	if (/^(<[0-9]>)?\[[ 0-9.]*\]  [^ ]/)
		next
	state = ""
}
state == "warning" {
	if (/---\[ end trace/)
		state = ""
	next
}
# The head of a lockdep report, held until it names its locks
state == "head" {
	line[++held] = $0
	if (/\(pci_rescan_remove_lock\)/)
		acquiring = 1
	if (acquiring && /\(&ctrl->reset_lock\).* at: pciehp_ist/)
		known = 1
	if (/which lock already depends on the new lock/) {
		if (known) {
			print "known kernel report: pciehp-reset-lock " stamp
			held = 0
			state = "skip"
		} else {
			flush()
			state = ""
		}
	}
	next
}
/WARNING: CPU: [0-9]+ PID: [0-9]+ at [^ ]*\/upstream\/(hisi_pcie_pmu\.c:350 hisi_pcie_pmu|hns3_pmu\.c:1070 hns3_pmu|arm-ccn\.c:826 arm_ccn_pmu)_event_init\+/ {
	report("upstream-leader-sibling-walk")
	state = "warning"
	next
}
/WARNING: possible circular locking dependency detected/ {
	state = "head"
	held = 0
	line[++held] = $0
	acquiring = known = 0
	stamp = stamp_of($0)
	next
}
{ print }
END { flush() }
