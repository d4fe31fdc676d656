# SPDX-License-Identifier: GPL-2.0-or-later
# What the arm-ccn suites share: the device's paths (the CCN with id=ccn,
# on the default traffic object), event configs and the checks of counts
# across counter wraps. Source it after drivers.sh.

PMU=/sys/bus/event_source/devices/ccn
DEV=/machine/peripheral/ccn
TRAFFIC=/machine/hisi-traffic-default

# cfg FIELD=VALUE...: a config from the fields of format/ (config only)
cfg() {
	local kv node=0 type=0 event=0 port=0 vc=0 dir=0 mask=0
	for kv in "$@"; do
		case ${kv%%=*} in
		node | xp) node=${kv#*=} ;;
		type) type=${kv#*=} ;;
		event) event=${kv#*=} ;;
		port | bus) port=${kv#*=} ;;
		vc) vc=${kv#*=} ;;
		dir) dir=${kv#*=} ;;
		mask) mask=${kv#*=} ;;
		*) echo "cfg: no field ${kv%%=*}" >&2; return 1 ;;
		esac
	done
	printf '0x%x\n' $((node | type << 8 | event << 16 | port << 24 | vc << 26 | dir << 29 | mask << 30))
}

# HN-F node 2's requests received: 2 M/s by default
REQS2=$(cfg type=4 event=5 node=2)

# near A B TOLERANCE [OFFSET]: |A - B - OFFSET| <= TOLERANCE (awk: exact
# below 2^53, where the shell's arithmetic might not reach)
near() {
	awk -v a="$1" -v b="$2" -v t="$3" -v o="${4:-0}" \
		'BEGIN { d = a - b - o; exit !(d <= t && -d <= t) }'
}

# wrapped COUNT WANT TOLERANCE: COUNT is WANT +- TOLERANCE. Differs by
# design: upstream takes a counter modulo 2^32 between two of its reads,
# which come only at the overflow interrupts; when the counter has moved by
# more since (the interrupt comes after the wrap, and the previous read was
# closer to the wrap than that), a whole 2^32 is lost. Ours, and upstream's
# with our fix, count the wraps from the overflow status. So for upstream
# only COUNT mod 2^32 is checked.
WRAP_FIX=perf-arm-ccn-Count-a-wrap-that-takes-a-counter-past-
wrapped() {
	awk -v c="$1" -v w="$2" -v t="$3" -v up="$(fixed $WRAP_FIX || echo 1)" 'BEGIN {
		d = c - w; m = 4294967296
		if (up) {
			k = int((d < 0 ? d - m / 2 : d + m / 2) / m)
			d -= k * m
			if (k) print "upstream: off by " k " x 2^32"
		}
		exit !(d <= t && -d <= t)
	}'
}
