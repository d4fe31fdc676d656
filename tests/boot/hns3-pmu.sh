# SPDX-License-Identifier: GPL-2.0-or-later
# hns3-pmu with the upstream hns3_pmu driver and perf stat.
# kernel-config: CONFIG_HNS3_PMU=m
# kernel-config: CONFIG_VIRTIO_CONSOLE
# run-guest: --perf
# run-guest: --guest-qmp
# qemu: -object hisi-traffic,id=t0,rules=stream=nic-rx,,rate=100000,,len=1000
# qemu: -device hns3-pmu,bus=pcie.0,addr=0xa,sicl-id=5,id=pmu0,traffic=t0
# qemu: -device pcie-root-port,id=rp0,bus=pcie.0,chassis=1,addr=0x10
# qemu: -device pci-testdev,bus=rp0,addr=0.0,multifunction=on
# qemu: -device pci-testdev,bus=rp0,addr=0.1
# qemu: -device hns3-pmu,bus=pcie.0,addr=0xb,sicl-id=6,id=pmu1,traffic=t0,bdf-min=0x0030,bdf-max=0x0037
# qemu: -device pci-testdev,bus=pcie.0,addr=0x6
# The PMU is at 00:0a.0; root port 00:10.0 -> 01:00.0 and 01:00.1, the
# NIC's two functions, on MAC ports 0 and 1 (of 4), 4 queues each on 4 TCs.
# A second PMU (sicl 6, at 00:0b.0) covers 00:06.0-00:06.7 on the root bus,
# where 00:06.0 is its NIC's one function, an RCiEP as on hardware. The
# rules: every queue receives 100000 packets/s of 1000 bytes; the rest is the
# default profile (transmit 100000/s per queue, an interrupt per 16
# packets, receive latency 1500 ns). Cycles count at 100 MHz.
. /guest/tests/lib/ktap.sh
. /guest/tests/lib/qmp.sh
. /guest/tests/lib/perf.sh

NAME=hns3_pmu_sicl_5
PMU=/sys/bus/event_source/devices/$NAME
CLK=100000000

ktap_start hns3_pmu

ktap_check probe test -e /sys/bus/pci/drivers/hns3_pmu/0000:00:0a.0
ktap_check pmu-name-from-sicl test -d $PMU
ktap_check sysfs-values test "$(cat $PMU/identifier) $(cat $PMU/bdf_min) $(cat $PMU/bdf_max) $(cat $PMU/hw_clk_freq)" = "0x40 01:00.0 01:1f.7 $CLK"
ktap_check cpumask-one-cpu grep -qxE '[0-9]+' $PMU/cpumask
ktap_check events-110 test "$(ls $PMU/events | wc -l) $(ls $PMU/filtermode | wc -l)" = "110 110"

# pair A B FILTER [SECONDS]: the counts of the two halves of an event pair
pair() {
	perf stat -x, -a -e "{$NAME/$1,$3/,$NAME/$2,$3/}" -- sleep "${4:-1}" 2>&1 |
		awk -F, '/hns3_pmu/ { printf "%s ", $1 }'
}

# rate COUNTER-EVENT TIME-EVENT FILTER WANT: COUNTER per second, +-1 %
rate() {
	set -- $(pair "$1" "$2" "$3") "$4"
	echo "$1 over $2 cycles"
	awk -v n="$1" -v c="$2" -v clk=$CLK -v want="$3" \
		'BEGIN { v = n / (c / clk); print v "/s"; exit !(c > 0 && v > want * 0.99 && v < want * 1.01) }'
}

# 2 functions x 4 queues x 100000 packets/s, of 1000 bytes
ktap_check receive-packets-global rate pps_ssu_rpu_packet_num pps_ssu_rpu_time global=1 800000
ktap_check receive-bytes-global rate bw_ssu_rpu_byte_num bw_ssu_rpu_time global=1 800000000
# one function (queue=0xffff: the driver's func mode), one of its queues
ktap_check function-filter rate pps_ssu_rpu_packet_num pps_ssu_rpu_time bdf=0x101,queue=0xffff 400000
ktap_check function-queue-filter rate pps_ssu_rpu_packet_num pps_ssu_rpu_time bdf=0x101,queue=3 100000
# 01:00.1 sends on MAC port 1; its queue 2 is on TC 2
ktap_check port-tc-filter rate pps_ssu_egu_packet_num pps_ssu_egu_time port=1,tc=2 100000
# port 9 is a port the NIC does not have (ports=4), not port 1: nothing
absent_port() {
	set -- $(pair pps_ssu_egu_packet_num pps_ssu_egu_time port=9,tc=2)
	echo "$1 packets over $2 cycles"
	[ "$1" = 0 ] && [ "$2" -gt 0 ]
}
ktap_check port-tc-absent-port-counts-nothing absent_port
# an interrupt per 16 packets of each queue, both directions
ktap_check interrupt-rate rate pps_intr_msix_nic_intr_num pps_intr_msix_nic_time global=1 100000

# The RPU's share of the receive latency: 25 % of 1500 ns
latency() {
	set -- $(pair dly_rpu_time dly_rpu_packet_num global=1)
	echo "$1 cycles over $2 packets"
	awk -v c="$1" -v n="$2" -v clk=$CLK \
		'BEGIN { v = c / n * 1e9 / clk; print v " ns"; exit !(n > 0 && v > 375 * 0.99 && v < 375 * 1.01) }'
}
ktap_check receive-latency-375ns latency

# The RCiEP 00:06.0 on the root bus is the sicl 6 NIC's function: 4 queues
# x 100000 packets/s, globally and in its function filter.
root_bus_rate() (
	NAME=hns3_pmu_sicl_6
	rate "$@"
)
ktap_check root-bus-range test "$(cat /sys/bus/event_source/devices/hns3_pmu_sicl_6/bdf_min) $(cat /sys/bus/event_source/devices/hns3_pmu_sicl_6/bdf_max)" = "00:06.0 00:06.7"
ktap_check root-bus-function-global root_bus_rate pps_ssu_rpu_packet_num pps_ssu_rpu_time global=1 400000
ktap_check root-bus-function-filter root_bus_rate pps_ssu_rpu_packet_num pps_ssu_rpu_time bdf=0x30,queue=0xffff 400000

# The driver refuses what the hardware cannot do.
invalid_filters() {
	perf_opens $NAME pps_ssu_rpu_packet_num,bdf=0x100,queue=3 || { echo "refused a valid queue"; return 1; }
	perf_refused $NAME pps_ssu_rpu_packet_num,bdf=0x100,queue=4 &&   # no such queue
	perf_refused $NAME pps_ssu_rpu_packet_num,bdf=0x102,queue=0xffff &&  # no such function
	perf_refused $NAME pps_ssu_rpu_packet_num,bdf=0x300,queue=0xffff &&  # outside bdf_max
	perf_refused $NAME bw_rd_fbd_byte_num,port=1                     # global only
}
ktap_check invalid-filters-refused invalid_filters

# one QMP session for the rest: cases run in subshells, and the port
# greets only once
qmp_open >/dev/null || echo "# no QMP"

# A rule set over QMP while the guest runs changes what it measures.
runtime_rate() {
	qom_set t0 rules '"stream=nic-rx,rate=300000,len=1000"' ||
		return 1
	rate pps_ssu_rpu_packet_num pps_ssu_rpu_time global=1 2400000
}
ktap_check runtime-rule-triples-rate runtime_rate

# A change carries every stream over in phase: changing the transmit rates
# 6 times adds no received packet. At 1 packet/s per queue, each of the 8
# queues receives at most floor(W) + 1 packets in W seconds however the
# rules change; a stream restarted at every change would receive one at
# each change (6 + W). Rate 0 would not tell: it has no packet to restart.
changes_keep_phase() {
	qom_set t0 rules '"stream=nic-rx,rate=1,len=1000"' || return 1
	perf stat -x, -a -e "{$NAME/pps_ssu_rpu_packet_num,global=1/,$NAME/pps_ssu_rpu_time,global=1/}" \
		-- sleep 4 >/tmp/changes.log 2>&1 &
	sleep 2
	for tx in 200000 50000 300000 10000 400000 100000; do
		qom_set t0 rules "\"stream=nic-rx,rate=1,len=1000;stream=nic-tx,rate=$tx\"" ||
			return 1
	done
	wait
	set -- $(awk -F, '/hns3_pmu/ { printf "%s ", $1 }' /tmp/changes.log)
	echo "$1 packets over $2 cycles, 6 changes"
	awk -v n="$1" -v c="$2" -v clk=$CLK \
		'BEGIN { w = c / clk; most = 8 * (int(w + 0.001) + 1); print "at most " most; exit !(c > 0 && n > 0 && n <= most) }'
}
ktap_check rule-changes-add-no-packets changes_keep_phase
qom_set t0 rules '"stream=nic-rx,rate=100000,len=1000"' >/dev/null ||
	echo "# rules not restored"
ktap_finish
