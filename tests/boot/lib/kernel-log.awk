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

function flush(    i) {
	for (i = 1; i <= held; i++)
		print line[i]
	held = 0
}

# A known report, dropped up to the last frame of its stack trace
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
/WARNING: possible circular locking dependency detected/ {
	state = "head"
	held = 0
	line[++held] = $0
	acquiring = known = 0
	stamp = $0
	sub(/^[^[]*/, "", stamp)
	sub(/\].*/, "]", stamp)
	next
}
{ print }
END { flush() }
