# SPDX-License-Identifier: GPL-2.0-or-later
# arm-ccn with the upstream arm-ccn driver (bound through the device tree)
# and perf stat.
# kernel-config: CONFIG_ARM_CCN=m
# kernel-config: CONFIG_VIRTIO_CONSOLE
# run-guest: --perf
# run-guest: --guest-qmp
# qemu: -device arm-ccn
# Topology (hw/hisilicon/arm-ccn.c, docs/devices/arm-ccn.md): 11 XPs; RN-I nodes
# 0-1, HN-F nodes 2-5 and 8-11, HN-I 6, SBAS 7, MN 12, SBSX 13, and with no
# region (no node events) RN-F 14-17 and SN-F 20-21; XP 9 has no device
# (node n on XP n / 2, port n % 2). Default traffic
# (hw/hisilicon/model/ring-traffic.c): an HN-F receives 2000000 requests/s
# and sends 500000 snoops/s, and its misses on to an SN-F; an RN-I receives
# 800000 read data flits/s, an RN-F sends 3375000 requests/s, an SN-F
# receives 2400000; cycles count at 1 GHz. XP events count the ring's flits
# (bus 0 runs to higher XP numbers, bus 1 back), each sent flit at every XP
# from its sender's to its target's, the shorter way round.
. /guest/tests/lib/ktap.sh
. /guest/tests/lib/qmp.sh
. /guest/tests/lib/perf.sh

PMU=/sys/bus/event_source/devices/ccn

ktap_start arm_ccn
# one QMP session for the whole suite: cases run in subshells
qmp_open >/dev/null || echo "# no QMP"

ktap_check probe sh -c 'ls /sys/bus/platform/drivers/arm-ccn/ | grep -q ccn'
ktap_check pmu-registered test -d $PMU
ktap_check events-listed sh -c "ls $PMU/events | grep -qx hnf_cache_miss && ls $PMU/events | grep -qx xp_watchpoint && ls $PMU/events | grep -qx sbas_rxdat_flits"

# counts EVENT...: the counts of one perf stat group over 1 s, then the
# seconds it took
counts() {
	local group
	group=$(echo "$@" | sed 's/\([^ ]*\)/ccn\/\1\//g; s/ /,/g')
	perf stat -x, -a -e "{$group}" -- sleep 1 2>&1 |
		awk -F, '/ccn\// { printf "%s ", $1 }'
}

# per_s COUNT CYCLES WANT: COUNT per second of CYCLES at 1 GHz is WANT +-1 %
per_s() {
	awk -v n="$1" -v c="$2" -v want="$3" \
		'BEGIN { v = n / (c / 1e9); print v "/s"; exit !(c > 0 && v > want * 0.99 && v < want * 1.01) }'
}

hnf_requests() {
	set -- $(counts cycles hnf_pocq_reqs_recvd,node=2)
	echo "$2 requests in $1 cycles"
	per_s "$2" "$1" 2000000
}
ktap_check hnf-requests-2M-per-s hnf_requests

# Two streams of one HN-F at their own rates: a snoop sent for every fourth
# request received (500000/s against 2000000/s), so a wrong event number or
# stream shows; some of the requests miss, not none nor all. Not cache_miss
# against mc_reqs: the model defines those two identically.
hnf_snoops_misses() {
	set -- $(counts cycles hnf_pocq_reqs_recvd,node=4 hnf_snoops_sent,node=4 hnf_cache_miss,node=4)
	echo "requests $2, snoops $3, misses $4 in $1 cycles"
	per_s "$2" "$1" 2000000 && per_s "$3" "$1" 500000 &&
		[ "$4" -gt 0 ] && [ "$4" -lt "$2" ]
}
ktap_check hnf-snoops-quarter-misses-some hnf_snoops_misses

# read data beats of the three AXI ports add up to the flits received
rni_beats() {
	set -- $(counts rni_rdata_beats_p0,node=0 rni_rdata_beats_p1,node=0 rni_rdata_beats_p2,node=0 rni_rxdat_flits,node=0 cycles)
	echo "beats $1 + $2 + $3, flits $4, cycles $5"
	[ $(($1 + $2 + $3)) = "$4" ] && per_s "$4" "$5" 800000
}
ktap_check rni-beats-add-up rni_beats

# XP 9 has no device, yet flits pass it both ways: requests up (RN-Fs to
# HN-Fs, HN-Fs 10-11 to memory), read data down (memory to HN-Fs)
xp_through() {
	set -- $(counts cycles xp_valid_flit,xp=9,vc=0,bus=0 xp_valid_flit,xp=9,vc=3,bus=1)
	echo "XP 9: $2 requests up, $3 data flits down in $1 cycles"
	awk -v c="$1" -v a="$2" -v b="$3" \
		'BEGIN { exit !(c > 0 && a / c * 1e9 > 1e6 && b / c * 1e9 > 1e6) }'
}
ktap_check xp-without-devices-sees-through-traffic xp_through

# The RN-F and SN-F ports, which have no region: a watchpoint matching any
# flit counts an RN-F's requests and an SN-F's memory requests
rnf_snf() {
	set -- $(counts cycles xp_watchpoint,xp=7,port=0,vc=0,dir=1,cmp_l=0,cmp_h=0,mask=0x8 xp_watchpoint,xp=10,port=0,vc=0,dir=0,cmp_l=0,cmp_h=0,mask=0x8)
	echo "RN-F 14 sent $2, SN-F 20 received $3 requests in $1 cycles"
	per_s "$2" "$1" 3375000 && per_s "$3" "$1" 2400000
}
ktap_check rnf-snf-ports-watched rnf_snf

# What HN-F 2 sends to memory: its memory requests (hnf_mc_reqs), its
# misses, and a watchpoint on the requests it sends are one count
mc_reqs_sent() {
	set -- $(counts hnf_mc_reqs,node=2 hnf_cache_miss,node=2 xp_watchpoint,xp=1,port=0,vc=0,dir=1,cmp_l=0,cmp_h=0,mask=0x8)
	echo "mc_reqs $1, cache_miss $2, REQ flits sent $3"
	[ "$1" -gt 0 ] && [ "$1" = "$2" ] && [ "$1" = "$3" ]
}
ktap_check hnf-mc-reqs-are-sent-requests mc_reqs_sent

# A watchpoint matching every flit (mask 8: ANY) counts what the node event
# counts: the requests node 2 receives (XP 1, port 0, dir 0, vc 0)
watchpoint() {
	set -- $(counts xp_watchpoint,xp=1,port=0,vc=0,dir=0,cmp_l=0,cmp_h=0,mask=0x8 hnf_pocq_reqs_recvd,node=2)
	echo "watchpoint $1, requests $2"
	[ "$1" -gt 0 ] && [ "$1" = "$2" ]
}
ktap_check watchpoint-any-matches-all watchpoint

# The driver refuses what the topology does not have.
invalid_events() {
	perf_opens ccn hnf_cache_miss,node=2 || { echo "refused a valid node"; return 1; }
	perf_refused ccn hnf_cache_miss,node=1 &&       # node 1 is an RN-I
	perf_refused ccn xp_valid_flit,xp=11,vc=0,bus=0 &&
	perf_refused ccn hnf_cache_miss,node=40
}
ktap_check invalid-events-refused invalid_events

# Only HN-F 10 (XP 5) receiving requests: the ring's only requests are its
# memory requests, up from XP 5 to the SN-Fs' XP 10, so XPs 9 and 10 count
# exactly hnf_mc_reqs on bus 0, XP 4 and bus 1 nothing.
ring_route() {
	qom_set /machine/hisi-traffic-default rules '"stream=ring-all,rate=0;node=10,stream=ring-req-rx,rate=2000000"' ||
		return 1
	set -- $(counts hnf_mc_reqs,node=10 xp_valid_flit,xp=9,vc=0,bus=0 xp_valid_flit,xp=10,vc=0,bus=0 xp_valid_flit,xp=4,vc=0,bus=0 xp_valid_flit,xp=9,vc=0,bus=1)
	echo "mc_reqs $1; XP 9 up $2, XP 10 up $3, XP 4 up $4, XP 9 down $5"
	[ "$1" -gt 0 ] && [ "$2" = "$1" ] && [ "$3" = "$1" ] && [ "$4" = 0 ] &&
		[ "$5" = 0 ]
}
ktap_check ring-route-memory-requests ring_route

# A rule set over QMP while the guest runs changes what it measures.
runtime_rate() {
	qom_set /machine/hisi-traffic-default rules '"node=2,stream=ring-req-rx,rate=6000000"' ||
		return 1
	set -- $(counts cycles hnf_pocq_reqs_recvd,node=2 hnf_pocq_reqs_recvd,node=3)
	echo "node 2: $2, node 3: $3 requests in $1 cycles"
	per_s "$2" "$1" 6000000 && per_s "$3" "$1" 2000000
}
ktap_check runtime-rule-triples-rate runtime_rate

# A change carries every stream over in phase: changing HN-F 3's rate 6
# times adds no request to HN-F 2. At 1 request/s, HN-F 2 receives at most
# floor(W) + 1 in W seconds however the rules change; a stream restarted at
# every change would receive one at each change (6 + W). Rate 0 would not
# tell: it has no flit to restart.
changes_keep_phase() {
	qom_set /machine/hisi-traffic-default rules '"node=2,stream=ring-req-rx,rate=1"' ||
		return 1
	perf stat -x, -a -e "{ccn/cycles/,ccn/hnf_pocq_reqs_recvd,node=2/}" \
		-- sleep 4 >/tmp/changes.log 2>&1 &
	sleep 2
	for rx in 4000000 1000000 6000000 500000 3000000 2000000; do
		qom_set /machine/hisi-traffic-default rules "\"node=2,stream=ring-req-rx,rate=1;node=3,stream=ring-req-rx,rate=$rx\"" ||
			return 1
	done
	wait
	set -- $(awk -F, '/ccn\// { printf "%s ", $1 }' /tmp/changes.log)
	echo "node 2: $2 requests in $1 cycles, 6 changes"
	awk -v c="$1" -v n="$2" \
		'BEGIN { w = c / 1e9; most = int(w + 0.001) + 1; print "at most " most; exit !(c > 0 && n > 0 && n <= most) }'
}
ktap_check rule-changes-add-no-requests changes_keep_phase
qom_set /machine/hisi-traffic-default rules '""' >/dev/null ||
	echo "# rules not restored"

# Pausing the traffic over QMP stops the flits, not the cycles.
paused() {
	qom_set /machine/hisi-traffic-default paused true ||
		return 1
	set -- $(counts cycles hnf_pocq_reqs_recvd,node=2)
	echo "$2 requests in $1 cycles"
	[ "$2" = 0 ] && [ "$1" -gt 0 ]
}
ktap_check paused-traffic-stops-flits paused
ktap_finish
