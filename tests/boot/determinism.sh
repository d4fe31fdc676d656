# SPDX-License-Identifier: GPL-2.0-or-later
# The guest half of tests/boot/determinism-test: a short hisi-ptt trace and a
# perf stat of the hisi-pcie-pmu, hns3-pmu and arm-ccn, whose results it
# prints as "# DETERMINISM" lines for the host to compare between runs.
# Topology (set by run() in determinism-test): hisi-ptt at 00:08.0,
# hisi-pcie-pmu at 00:09.0 (sicl 0, core 0), hns3-pmu at 00:0a.0 and arm-ccn
# sharing the traffic object; root port 00:10.0 -> 01:00.0 nvme (the NIC
# function), root port 00:11.0 -> 02:00.0 edu.
. /guest/tests/lib/ktap.sh

MAP=0x100:0x80,0x200:0x88
PMU=hisi_pcie0_core0

ktap_start determinism

# An 8DW trace of all inbound TLPs below both root ports
trace() {
	local out

	out=$(/guest/progs/ptt-trace --pmu hisi_ptt0_0 --map $MAP --filter 0x80005 \
		--type 7 --direction 2 --format 1 --ms 100) || { echo "$out"; return 1; }
	echo "$out" | sed -n 's/^records=\([0-9]*\) .* hash=\([0-9a-f]*\).*/# DETERMINISM trace records=\1 hash=\2/p' >/tmp/trace
	[ -s /tmp/trace ] || { echo "no summary line: $out"; return 1; }
}
ktap_check trace trace
cat /tmp/trace

# Over 100 ms: DMA write and read bytes of both root ports, bytes the NIC
# function received, an HN-F's misses (all depend on the seed's patterns)
counts() {
	perf stat -x, -a -e "{$PMU/rx_mwr_flux,port=0x5/,$PMU/rx_mrd_flux,port=0x5/}" \
		-e 'hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,global=1/' \
		-e 'ccn/hnf_cache_miss,node=2/' \
		-- sleep 0.1 >/tmp/counts.log 2>&1 || { cat /tmp/counts.log; return 1; }
	awk -F, '/hisi_pcie|hns3_pmu|ccn/ { v = v " " $3 "=" $1 } END { print "# DETERMINISM counts" v }' \
		/tmp/counts.log >/tmp/counts
	grep -qE 'rx_mwr_flux[^ ]*=[1-9]' /tmp/counts && grep -qE 'byte_num[^ ]*=[1-9]' /tmp/counts &&
		grep -qE 'cache_miss[^ ]*=[1-9]' /tmp/counts || { cat /tmp/counts.log; return 1; }
}
ktap_check counts counts
cat /tmp/counts

ktap_finish
