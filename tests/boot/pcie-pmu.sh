# SPDX-License-Identifier: GPL-2.0-or-later
# hisi-pcie-pmu with the upstream hisi_pcie_pmu driver and perf stat.
# kernel-config: CONFIG_HISI_PCIE_PMU=m
# kernel-config: CONFIG_VIRTIO_CONSOLE
# run-guest: --perf
# run-guest: --guest-qmp
# qemu: -object hisi-traffic,id=t0,rules=stream=dma-write,,rate=250000,,len=16,,latency=800;ep=02:00.0,,stream=dma-write,,rate=50000
# qemu: -device hisi-pcie-pmu,bus=pcie.0,addr=0x9,sicl-id=1,core-id=3,id=pmu0,traffic=t0,clock-freq=200000000
# qemu: -device pcie-root-port,id=rp0,bus=pcie.0,chassis=1,addr=0x10
# qemu: -device pcie-root-port,id=rp1,bus=pcie.0,chassis=2,addr=0x11
# qemu: -device nvme,bus=rp0,serial=pmu0
# qemu: -device edu,bus=rp1
# The PMU is at 00:09.0; root port 00:10.0 -> 01:00.0 nvme, 00:11.0 ->
# 02:00.0 edu. The rules (',,' is a comma within the value): every
# endpoint's DMA writes at 250000/s, 16 DW, 800 ns; 02:00.0's at 50000/s.
# Delays and times count cycles of the PMU's clock-freq, 200 MHz here.
. /guest/tests/lib/ktap.sh
. /guest/tests/lib/qmp.sh
. /guest/tests/lib/perf.sh
. /guest/tests/lib/drivers.sh

NAME=hisi_pcie1_core3
PMU=/sys/bus/event_source/devices/$NAME
CLOCK_HZ=200000000

ktap_start hisi_pcie_pmu

ktap_check probe test -e /sys/bus/pci/drivers/hisi_pcie_pmu/0000:00:09.0
ktap_check pmu-name-from-sicl-core test -d $PMU
ktap_check sysfs-values test "$(cat $PMU/identifier) $(cat $PMU/bus) $(cat $PMU/bdf_min) $(cat $PMU/bdf_max)" = "0x30 0x00 0x80 0xbf"
ktap_check cpumask-one-cpu grep -qxE '[0-9]+' $PMU/cpumask
ktap_check events-18 test "$(ls $PMU/events | wc -l)" = 18
ktap_check format-fields test "$(ls $PMU/format | tr '\n' ' ')" = "bdf event len_mode port thr_len thr_mode trig_len trig_mode "

# pair A B FILTER: the two counts of a perf stat group over 1 s
pair() {
	perf stat -x, -a -e "{$NAME/$1,$3/,$NAME/$2,$3/}" -- sleep 1 2>&1 |
		awk -F, '/hisi_pcie/ { printf "%s ", $1 }'
}

# within NUM DEN WANT SCALE: NUM / DEN * SCALE is WANT +-1 %
within() {
	awk -v a="$1" -v b="$2" -v want="$3" -v scale="$4" \
		'BEGIN { v = a / b * scale; print v; exit !(b > 0 && v > want * 0.99 && v < want * 1.01) }'
}

# latency FILTER: ns per DMA write, from delay cycles per TLP, +-1 %
latency() {
	set -- $(pair rx_mwr_latency rx_mwr_cnt "$1")
	echo "delay $1 cycles of $CLOCK_HZ Hz over $2 TLPs"
	within "$1" "$2" 800 $((1000000000 / CLOCK_HZ))
}
ktap_check perf-stat-latency-800ns latency port=0x1
# Threshold and trigger apply to bandwidth events only: a threshold that
# drops the 16 DW writes and a trigger they never fire change no latency.
ktap_check latency-ignores-threshold latency port=0x1,thr_len=5
ktap_check latency-ignores-trigger latency port=0x1,trig_len=4

# bw LEN_MODE WANT FILTER [EVENT]: bytes/s of DMA writes (or EVENT's
# flux), from bytes per cycle of the time event, +-1 %
bw() {
	local mode=$1 want=$2 filter=$3 ev=${4:-rx_mwr}
	set -- $(pair ${ev}_flux ${ev}_time "$filter,len_mode=$mode")
	echo "$ev len_mode $mode, $filter: $1 bytes in $2 cycles"
	within "$1" "$2" "$want" $CLOCK_HZ
}
# 250000 TLPs/s of 16 DW (64 bytes) payload and a 4 DW (16 bytes) header
ktap_check perf-stat-bandwidth-payload bw 1 16000000 port=0x1
ktap_check perf-stat-bandwidth-header bw 2 4000000 port=0x1
ktap_check perf-stat-bandwidth-both bw 3 20000000 port=0x1
# Filters select endpoints: the port of 02:00.0, and 02:00.0 by BDF
ktap_check port-filter-other-endpoint bw 1 3200000 port=0x4
ktap_check bdf-filter-endpoint bw 1 3200000 bdf=0x200
ktap_check both-ports bw 1 19200000 port=0x5

# count EVENT: what perf stat counts of one event over 0.2 s
count() {
	perf stat -x, -a -e "$NAME/$1/" -- sleep 0.2 2>&1 |
		awk -F, '/hisi_pcie/ { print $1 }'
}

# zero EVENT: perf stat counts 0 of it
zero() {
	local n
	n=$(count "$1")
	echo "$1: $n"
	[ "$n" = 0 ]
}

# some EVENT: perf stat counts more than 0 of it
some() {
	local n
	n=$(count "$1")
	echo "$1: $n"
	[ -n "$n" ] && [ "$n" -gt 0 ] 2>/dev/null
}

# The bdf filter counts what 01:00.0 requested (hisi-pcie-pmu.rst: "the
# bandwidth of message requested by target Endpoint"): the completions of
# its DMA reads, not the CPU's writes to it, whose requester is the root
# port 00:10.0 (and which that BDF counts, as the port filter does).
ktap_check bdf-not-cpu-writes zero tx_mwr_flux,bdf=0x100
ktap_check bdf-its-read-completions some tx_cpl_flux,bdf=0x100
# 20000 CPU writes/s of 1 DW
ktap_check bdf-root-port-cpu-writes bw 1 80000 bdf=0x80 tx_mwr
ktap_check port-cpu-writes bw 1 80000 port=0x1 tx_mwr
# The bdf filter "can only be used in bandwidth events": a latency event
# with it selects no port and counts nothing.
ktap_check latency-bdf-counts-nothing zero rx_mwr_latency,bdf=0x100

# A memory read request has no payload: rx_mrd_flux with len_mode=1 is 0,
# its headers (4 DW, 100000 reads/s) are all of len_mode=3.
ktap_check read-request-no-payload zero rx_mrd_flux,port=0x1,len_mode=1
ktap_check read-request-header bw 2 1600000 port=0x1 rx_mrd
ktap_check read-request-both bw 3 1600000 port=0x1 rx_mrd

# An event code the PMU does not have: the counter does not take the value
# the driver writes, so upstream's set_period finds it unwritable and perf
# counts 0 (the same 0 it got when the write took). Differs by design: ours
# refuses an unknown code before it reaches the device.
if ours; then
	ktap_check unknown-event-refused perf_refused $NAME event=0x1234,port=0x1
else
	ktap_check unknown-event-counts-0 zero event=0x1234,port=0x1
fi

# The driver refuses what the hardware cannot do.
invalid_filters() {
	perf_opens $NAME rx_mwr_flux,bdf=0x100 || { echo "refused a valid bdf"; return 1; }
	perf_refused $NAME rx_mwr_flux,bdf=0x0 &&          # the host bridge: no root port
	perf_refused $NAME rx_mwr_flux,bdf=0x500 &&        # no such device
	perf_refused $NAME rx_mwr_flux,port=0x1,thr_len=11 &&
	perf_refused $NAME rx_mwr_flux,port=0x1,trig_len=11
}
ktap_check invalid-filters-refused invalid_filters

# A counter advanced near its overflow (fault injection) crosses it while
# perf counts; the overflow interrupt keeps perf's 64-bit count exact.
overflow_exact() {
	local adv=9223372036854000000 before after out
	qmp_open >/dev/null || return 1
	before=$(awk '/hisi_pcie/ { print $2 + $3 }' /proc/interrupts)
	perf stat -x, -a -e "$NAME/rx_mwr_flux,port=0x1,len_mode=1/" -- sleep 2 \
		>/tmp/ovf.log 2>&1 &
	sleep 1
	qom_set pmu0 advance "\"0=$adv\"" ||
		return 1
	wait
	after=$(awk '/hisi_pcie/ { print $2 + $3 }' /proc/interrupts)
	# count and the time the event counted (ns): perf -x prints it after the
	# event, whose name holds commas and ends in /
	out=$(awk -F, '/hisi_pcie/ { for (i = 3; i < NF; i++) if ($i ~ /\/$/) { print $1, $(i + 1); exit } }' \
		/tmp/ovf.log)
	echo "count and ns $out, advanced by $adv, overflow interrupts $((after - before))"
	[ $((after - before)) -ge 1 ] &&
		echo "$out" | awk -v a="$adv" '{ v = ($1 - a) * 1e9 / $2; exit !(v > 16000000 * 0.98 && v < 16000000 * 1.02) }'
}
ktap_check overflow-keeps-count-exact overflow_exact
ktap_finish
