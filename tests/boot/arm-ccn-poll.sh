# SPDX-License-Identifier: GPL-2.0-or-later
# arm-ccn where firmware keeps the MN's interrupt (the model's firmware-irq):
# the driver cannot acknowledge PMU interrupts and never gets one, so it
# must poll the overflow status, under either driver set. Counts stay right
# across wraps of the 32-bit event counters (the device's fault injection
# wraps one, each wrap left to a poll before the next).
#
# kernel-config: CONFIG_ARM_CCN=m
# kernel-config: CONFIG_VIRTIO_CONSOLE
# run-guest: --guest-qmp
# qemu: -device arm-ccn,id=ccn,firmware-irq=on
. /guest/tests/lib/ktap.sh
. /guest/tests/lib/qmp.sh
. /guest/tests/lib/drivers.sh
. /guest/tests/lib/pmu.sh
. /guest/tests/lib/ccn.sh


ktap_start arm_ccn_poll
qmp_open >/dev/null || echo "# no QMP"

ktap_check probe test -d $PMU

# No interrupt requested: it is the firmware's.
no_irq() {
	local name
	name=$(ls /sys/bus/platform/drivers/arm-ccn | grep ccn) || return 1
	! grep -qw "$name" /proc/interrupts
}
ktap_check no-interrupt-requested no_irq

# A second of HN-F requests: 2 M, as with the interrupt
one_second() {
	local out
	out=$(pmu-open --ms 1000 ccn:$REQS2) || { echo "$out"; return 1; }
	set -- $(echo "$out" | sed -n 's/^count0=//p; s/^enabled_ns=//p')
	echo "$1 requests in $2 ns"
	near "$1" "$(awk -v ns="$2" 'BEGIN { printf "%.0f", ns * 0.002 }')" \
		"$(awk -v ns="$2" 'BEGIN { printf "%.0f", ns * 0.00004 }')"
}
ktap_check count-without-interrupt one_second

# Three wraps of counter 0 (fault injection: 2^32 - 1 added each time, with
# the traffic paused), 0.2 s apart, many poll periods: the event on it
# counts exactly that much more than the same event on counter 1.
advance() {
	local i
	count_start /tmp/adv.out ccn:$REQS2 ccn:$REQS2 || { cat /tmp/adv.out; return 1; }
	sleep 1
	qom_set $TRAFFIC paused true || { count_stop; return 1; }
	for i in 1 2 3; do
		qom_set $DEV advance '"0=4294967295"' || break
		sleep 0.2
	done
	qom_set $TRAFFIC paused false
	sleep 1
	count_stop
	[ "$i" = 3 ] || return 1
	set -- $(sed -n 's/^count[0-9]*=//p' /tmp/adv.out)
	echo "counter 0: $1, counter 1: $2, want 3 * (2^32 - 1) more on counter 0"
	[ "$2" -gt 1000000 ] &&
		wrapped "$(awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", a - b }')" 12884901885 100
}
ktap_check overflow-polled advance

ktap_finish
