# SPDX-License-Identifier: GPL-2.0-or-later
# QMP from inside the guest, over the virtio-serial port scripts/run-guest
# --guest-qmp connects to the guest's own QEMU. Source it, then:
#   qmp_open                   connect and negotiate capabilities
#   qmp 'JSON'                 run a command; prints the reply line, fails on error
#   qmp_event NAME [SECONDS]   wait for an event (default 20 s)
#   qom_set PATH PROPERTY JSON set a QOM property to a JSON value (a string
#                              in quotes); prints the reply when it fails
#   qom_get PATH PROPERTY      prints the reply line
# The connection is fd 9 of the shell that ran qmp_open: open it in the
# suite's own shell, not in a ktap_check, whose command runs in a subshell.

qmp_open() {
	local port dev
	for port in /sys/class/virtio-ports/*; do
		[ "$(cat "$port/name" 2>/dev/null)" = qmp ] && dev=/dev/$(basename "$port")
	done
	[ -n "$dev" ] || { echo "no virtio-serial port named qmp (run-guest --guest-qmp)"; return 1; }
	exec 9<>"$dev"
	qmp_reply >/dev/null || return 1    # the greeting
	qmp '{"execute": "qmp_capabilities"}' >/dev/null
}

# Read lines until a reply ("return" or "error"), skipping events. A
# reply has taken over 10 s on a loaded host (guests and builds beside a
# suite on two cores); 30 s without one means the monitor is gone.
# QMP_TIMEOUT=0 waits as long as it takes, for a guest whose clock does not
# run while it waits: under -icount with sleep=off QEMU moves the clock
# straight to the guest's next timer, the read's own, whenever the guest
# is idle, and a loaded host answers later than that.
qmp_reply() {
	local line timeout="-t ${QMP_TIMEOUT:-30}"
	[ "${QMP_TIMEOUT:-30}" != 0 ] || timeout=
	# shellcheck disable=SC2086 # no -t at all for QMP_TIMEOUT=0
	while read -r $timeout line <&9; do
		line=$(printf '%s' "$line" | tr -d '\r')
		case $line in
		*'"QMP"'* | *'"return"'*) echo "$line"; return 0 ;;
		*'"error"'*) echo "$line"; return 1 ;;
		esac
	done
	echo "no QMP reply"
	return 1
}

# A greeting in place of the reply: the VM migrated into a new QEMU (tests/boot/
# migration-test), whose monitor refused the command until it negotiates.
qmp() {
	local reply
	echo "$1" >&9
	reply=$(qmp_reply) || { echo "$reply"; return 1; }
	case $reply in
	*'"QMP"'*)
		qmp_reply >/dev/null
		echo '{"execute": "qmp_capabilities"}' >&9
		qmp_reply >/dev/null || return 1
		echo "$1" >&9
		qmp_reply
		;;
	*) echo "$reply" ;;
	esac
}

# Quiet seconds do not end the wait: a PCIe hot-unplug takes 5 s and more
# (pciehp's attention button delay) before QEMU sends DEVICE_DELETED.
# One read to the deadline, not a read per second: busybox's read drops the
# part of a line it has read when its time runs out, and an event that
# straddled a second would be lost.
qmp_event() {
	local line left end=$(($(date +%s) + ${2:-20}))
	while left=$((end - $(date +%s))) && [ "$left" -gt 0 ]; do
		read -r -t "$left" line <&9 || break
		case $line in
		*'"event": "'"$1"'"'*) echo "$line"; return 0 ;;
		esac
	done
	echo "no $1 event"
	return 1
}

qom_set() {
	local reply
	reply=$(qmp "{\"execute\": \"qom-set\", \"arguments\": {\"path\": \"$1\", \"property\": \"$2\", \"value\": $3}}") ||
		{ echo "$reply"; return 1; }
}

qom_get() {
	qmp "{\"execute\": \"qom-get\", \"arguments\": {\"path\": \"$1\", \"property\": \"$2\"}}"
}
