# SPDX-License-Identifier: GPL-2.0-or-later
# The guest half of tests/boot/determinism-test real-determinism: the real
# traffic (source=real) of the edu endpoint at 02:00.0, below root port
# 00:11.0, as tests/boot/progs/edu-dma drives it, traced by hisi-ptt and
# counted by hisi-pcie-pmu; the results printed as "# REAL-DETERMINISM"
# lines for the host to compare between a recorded run and its replay.
# The kernel parameter hisi_rounds=N sets edu-dma's rounds (default 4).
. /guest/tests/lib/ktap.sh

EDU=0000:02:00.0
PMU=hisi_pcie0_core0
ROUNDS=$(sed -n 's/.*hisi_rounds=\([0-9]*\).*/\1/p' /proc/cmdline)
ROUNDS=${ROUNDS:-4}

ktap_start real_determinism

# trace_dir NAME TYPE DIRECTION: ptt-trace of root port 00:11.0 (8DW) while
# edu-dma runs; its records and hash as "NAME_records=.. NAME_hash=.."
trace_dir() {
	local pid
	rm -f /tmp/ready
	/guest/progs/ptt-trace --pmu hisi_ptt0_0 --map 0200:0088 --filter 0x80004 \
		--type "$2" --direction "$3" --format 1 --ms 3000 --ready /tmp/ready \
		>"/tmp/$1.out" 2>&1 &
	pid=$!
	wait_for test -e /tmp/ready || return 1
	/guest/progs/edu-dma $EDU "$ROUNDS" || return 1
	wait $pid || { cat "/tmp/$1.out"; return 1; }
	sed -n "s/^records=\([1-9][0-9]*\) .* hash=\([0-9a-f]*\).*/$1_records=\1 $1_hash=\2/p" \
		"/tmp/$1.out" >"/tmp/$1"
	[ -s "/tmp/$1" ] || { cat "/tmp/$1.out"; return 1; }
}

# The edu's requests (inbound MRd and MWr) and the CPU's writes to it
# (outbound MWr)
trace() {
	trace_dir inbound 7 2 && trace_dir outbound 1 1 &&
		echo "# REAL-DETERMINISM trace $(cat /tmp/inbound) $(cat /tmp/outbound)" >/tmp/trace
}
ktap_check trace trace
cat /tmp/trace

# The same work counted on the root port
counts() {
	perf stat -x, -a -e "{$PMU/rx_mwr_flux,port=0x4/,$PMU/tx_cpl_flux,port=0x4/,$PMU/tx_mwr_flux,port=0x4/}" \
		-- /guest/progs/edu-dma $EDU "$ROUNDS" >/tmp/counts.log 2>&1 ||
		{ cat /tmp/counts.log; return 1; }
	awk -F, '/hisi_pcie/ { v = v " " $3 "=" $1 } END { print "# REAL-DETERMINISM counts" v }' \
		/tmp/counts.log >/tmp/counts
	grep -qE 'rx_mwr_flux[^ ]*=[1-9]' /tmp/counts && grep -qE 'tx_cpl_flux[^ ]*=[1-9]' /tmp/counts &&
		grep -qE 'tx_mwr_flux[^ ]*=[1-9]' /tmp/counts || { cat /tmp/counts.log; return 1; }
}
ktap_check counts counts
cat /tmp/counts

ktap_finish
