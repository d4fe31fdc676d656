# SPDX-License-Identifier: GPL-2.0-or-later
# The guest half of the differential test in tests/boot/determinism-test:
# with the traffic paused from boot, a hisi-ptt trace and a perf stat of the
# hisi-pcie-pmu, hns3-pmu and arm-ccn over one burst of traffic of a set
# length each (the traffic object's burst-ns). What a burst holds does not
# depend on when the guest starts it, so the "# DIFFERENTIAL" lines printed
# must be the same whichever driver set ran. Topology: as determinism.sh,
# with the traffic object t0 created paused.
. /guest/tests/lib/ktap.sh
. /guest/tests/lib/qmp.sh

MAP=0x100:0x80,0x200:0x88
PMU=hisi_pcie0_core0

ktap_start differential

# In this shell: the connection is a file descriptor of the shell.
if qmp_open >/tmp/qmp-open.log 2>&1; then
	ktap_pass qmp
else
	ktap_fail qmp "$(cat /tmp/qmp-open.log)"
fi

burst() {
	qom_set t0 burst-ns 2000000
}

# The 8DW trace of all TLPs below both root ports during a 2 ms burst, time
# stamps counted from the first record (the trace starts before the burst,
# at a time that depends on the driver)
burst_trace() {
	local i

	rm -f /tmp/tracing
	/guest/progs/ptt-trace --pmu hisi_ptt0_0 --map $MAP --filter 0x80005 \
		--type 7 --direction 2 --format 1 --ms 500 --relative-time 1 \
		--ready /tmp/tracing >/tmp/trace.out &
	for i in $(seq 100); do
		[ -e /tmp/tracing ] && break
		sleep 0.01
	done
	burst || return 1
	wait $! || { cat /tmp/trace.out; return 1; }
	sed -n 's/^records=\([0-9]*\) .* hash=\([0-9a-f]*\).*/# DIFFERENTIAL trace records=\1 hash=\2/p' \
		/tmp/trace.out >/tmp/trace
	[ -s /tmp/trace ] || { cat /tmp/trace.out; return 1; }
}
ktap_check burst-trace burst_trace
cat /tmp/trace

# The counts of another 2 ms burst: traffic events only, none that counts
# time (the counting window is the driver's own), no more events than
# counters (no multiplexing)
burst_counts() {
	# The workload starts the burst once perf counts; it talks QMP over
	# the connection it inherits.
	perf stat -x, -a -e "{$PMU/rx_mwr_flux,port=0x5/,$PMU/rx_mrd_flux,port=0x5/}" \
		-e 'hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,global=1/' \
		-e 'ccn/hnf_cache_miss,node=2/' \
		-- sh -c '. /guest/tests/lib/qmp.sh && qom_set t0 burst-ns 2000000 && sleep 0.1' \
		>/tmp/counts.log 2>&1 || { cat /tmp/counts.log; return 1; }
	awk -F, '/hisi_pcie|hns3_pmu|ccn/ { v = v " " $3 "=" $1 } END { print "# DIFFERENTIAL counts" v }' \
		/tmp/counts.log >/tmp/counts
	grep -qE 'rx_mwr_flux[^ ]*=[1-9]' /tmp/counts && grep -qE 'byte_num[^ ]*=[1-9]' /tmp/counts &&
		grep -qE 'cache_miss[^ ]*=[1-9]' /tmp/counts || { cat /tmp/counts.log; return 1; }
}
ktap_check burst-counts burst_counts
cat /tmp/counts

ktap_finish
