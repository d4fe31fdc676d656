# SPDX-License-Identifier: GPL-2.0-or-later
# The guest half of tests/boot/migration-test: three sessions, each a perf
# record of the hisi-ptt and a perf stat of the hisi-pcie-pmu, hns3-pmu and
# arm-ccn over one burst of traffic, during which the guest asks to be
# migrated (scripts/run-guest --requests migrate). It prints the traces and
# the counts as "# MIGRATION" lines for the host to compare with a run that
# was not migrated (--requests stay). The trace lines hash every record's
# bytes, each time stamp counted from the first record's: the burst starts
# at another virtual time in each run (docs/project/testing.md). Each trace
# fills several of the driver's buffers.
# Topology (set by migration-test): as determinism.sh but with an edu in
# place of the NVMe, which QEMU cannot migrate, the PCIe PMU and the CCN
# named pmu and ccn, the PTT ptt0, and the traffic object t0 created paused.
. /guest/tests/lib/ktap.sh
. /guest/tests/lib/qmp.sh

PMU=hisi_pcie0_core0
BURST_NS=5000000000

ktap_start migration

# In this shell: the connection is a file descriptor of the shell.
if qmp_open >/tmp/qmp-open.log 2>&1; then
	ktap_pass qmp
else
	ktap_fail qmp "$(cat /tmp/qmp-open.log)"
fi

# The workload of both perf processes: say it runs, then wait for the end
# of the session.
WAIT='touch /tmp/ready-$0; while [ ! -e /tmp/done ]; do sleep 0.05; done'

# session NAME REQUEST...: the 8DW trace of every TLP below both root ports
# and the counts of one burst, with a migration asked for (the request's
# QOM properties: scripts/run-guest --requests) while the burst runs. A
# request --when-paused is served when the PTT has paused the VM at the
# end of its first buffer (its pause-at-buffer-end).
session() {
	local name=$1 i
	shift
	rm -f /tmp/ready-* /tmp/done
	perf record -o /tmp/ptt.data -a \
		-e hisi_ptt0_0/filter=0x80005,type=7,direction=2,format=1/ \
		-- sh -c "$WAIT" record >/tmp/record.log 2>&1 &
	perf stat -x, -o /tmp/stat.log -a \
		-e "{$PMU/rx_mwr_flux,port=0x5/,$PMU/rx_mrd_flux,port=0x5/}" \
		-e 'hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,global=1/' \
		-e 'ccn/hnf_cache_miss,node=2/' \
		-- sh -c "$WAIT" stat >/tmp/stat.out 2>&1 &
	for i in $(seq 200); do
		[ -e /tmp/ready-record ] && [ -e /tmp/ready-stat ] && break
		sleep 0.05
	done
	if [ "$1" = --when-paused ]; then
		echo "# MIGRATION $name start-records $(records)" >>/tmp/results
		qom_set ptt0 pause-at-buffer-end true || return 1
	fi
	qom_set t0 burst-ns $BURST_NS || return 1
	echo "HISI-EMU-MIGRATE $*" >/dev/console
	# The burst, then some virtual time for the last records' DMA
	sleep $((BURST_NS / 1000000000 + 1))
	touch /tmp/done
	wait || { cat /tmp/record.log /tmp/stat.out; return 1; }
	trace "$name" && counts "$name"
}

# trace NAME: the trace perf wrote, read by perf-aux-hash: its records'
# bytes, each time stamp counted from the first record's; more than two of
# the driver's 4 MiB buffers (131072 records of 32 bytes each)
trace() {
	local out records

	out=$(/guest/progs/perf-aux-hash /tmp/ptt.data) || { echo "$out"; return 1; }
	echo "# MIGRATION $1 trace $out" >>/tmp/results
	records=$(echo "$out" | sed -n 's/^records=\([0-9]*\) .*/\1/p')
	[ "${records:-0}" -gt $((2 * 131072)) ] || { echo "not over two buffers: $out"; return 1; }
}

# records: the PTT's records since its reset
records() {
	qom_get ptt0 records | sed -n 's/.*"return": \([0-9]*\).*/\1/p'
}

# counts NAME: what perf stat counted, each PMU something
counts() {
	awk -F, '/hisi_pcie|hns3_pmu|ccn/ { v = v " " $3 "=" $1 } END { print v }' /tmp/stat.log >/tmp/counts
	echo "# MIGRATION $1 counts$(cat /tmp/counts)" >>/tmp/results
	grep -qE 'rx_mwr_flux[^ ]*=[1-9]' /tmp/counts && grep -qE 'byte_num[^ ]*=[1-9]' /tmp/counts &&
		grep -qE 'cache_miss[^ ]*=[1-9]' /tmp/counts || { cat /tmp/stat.log; return 1; }
}

rm -f /tmp/results
ktap_check mid-burst session mid-burst t0 burst-ns
# The PCIe PMU's counter 0 and the CCN's counter 0 (the first event of
# each) pushed past their overflow while the VM is stopped: both overflow
# interrupts are pending when it migrates. The counts take the pushes, in
# both runs alike.
ktap_check overflow-pending session overflow-pending t0 burst-ns \
	pmu advance=0=9223372036854775807 ccn advance=0=4294967295
# The VM paused by the PTT as the first buffer of the session completes,
# its MSI just sent, and migrated there
ktap_check at-buffer-boundary session at-buffer-boundary --when-paused \
	t0 burst-ns ptt0 records ptt0 pause-at-buffer-end
cat /tmp/results

ktap_finish
