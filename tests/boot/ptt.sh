# SPDX-License-Identifier: GPL-2.0-or-later
# hisi-ptt with the upstream hisi_ptt driver.
# kernel-config: CONFIG_HISI_PTT=m
# run-guest: --perf
# qemu: -device hisi-ptt,bus=pcie.0,addr=0x8,sicl-id=2,core-id=5
# qemu: -device pcie-root-port,id=rp0,bus=pcie.0,chassis=1,addr=0x10
# qemu: -device pcie-root-port,id=rp1,bus=pcie.0,chassis=2,addr=0x11
# qemu: -device pcie-root-port,id=rp2,bus=pcie.0,chassis=3,addr=0x18
# qemu: -device nvme,bus=rp0,serial=ptt0
# qemu: -device edu,bus=rp1
# qemu: -device pci-testdev,bus=rp2
# The guest sees the PTT at 00:08.0 and root ports 00:10.0 -> 01:00.0 nvme,
# 00:11.0 -> 02:00.0 edu and 00:18.0 (outside the PTT's range
# 00:10.0-00:17.7) -> 03:00.0 pci-testdev.
. /guest/tests/lib/ktap.sh

PMU=/sys/bus/event_source/devices/hisi_ptt2_5
MAP=0x100:0x80,0x200:0x88,0x300:0xc0
TUNES="qos_tx_cpl qos_tx_np qos_tx_p rx_alloc_buf_level tx_alloc_buf_level"

ktap_start hisi_ptt

ktap_check probe test -e /sys/bus/pci/drivers/hisi_ptt/0000:00:08.0
ktap_check pmu-name-from-sicl-core test -d $PMU
ktap_check msi-vector grep -q 'ITS-PCI-MSI-0000:00:08.0.*hisi_ptt' /proc/interrupts

tune_defaults() {
	for t in $TUNES; do
		[ "$(cat $PMU/tune/$t)" = 1 ] || { echo "$t = $(cat $PMU/tune/$t)"; return 1; }
	done
}
ktap_check tune-defaults tune_defaults

tune_write_read() {
	for t in $TUNES; do
		for v in 0 2 1; do
			echo $v >$PMU/tune/$t || return 1
			[ "$(cat $PMU/tune/$t)" = $v ] || { echo "$t: wrote $v, read $(cat $PMU/tune/$t)"; return 1; }
		done
	done
}
ktap_check tune-write-read tune_write_read

tune_clamp() {
	echo 7 >$PMU/tune/qos_tx_p && [ "$(cat $PMU/tune/qos_tx_p)" = 2 ] &&
	echo 65535 >$PMU/tune/rx_alloc_buf_level && [ "$(cat $PMU/tune/rx_alloc_buf_level)" = 2 ]
}
ktap_check tune-clamps-to-2 tune_clamp

tune_negative() {
	echo 1 >$PMU/tune/qos_tx_np
	echo -1 >$PMU/tune/qos_tx_np 2>/dev/null && { echo "-1 accepted"; return 1; }
	echo 65536 >$PMU/tune/qos_tx_np 2>/dev/null && { echo "65536 accepted"; return 1; }
	[ "$(cat $PMU/tune/qos_tx_np)" = 1 ]
}
ktap_check tune-rejects-negative-and-too-big tune_negative
for t in $TUNES; do echo 1 >$PMU/tune/$t; done

list_filters() {
	for f in $PMU/$1/*; do
		[ "$(basename $f)" = multiselect ] || echo "$(basename $f)=$(cat $f)"
	done | tr '\n' ' '
}
ktap_check root-port-filters test "$(list_filters root_port_filters)" = \
	"0000:00:10.0=0x80001 0000:00:11.0=0x80004 "
ktap_check requester-filters test "$(list_filters requester_filters)" = \
	"0000:01:00.0=0x00100 0000:02:00.0=0x00200 "
ktap_check filter-multiselect test "$(cat $PMU/root_port_filters/multiselect)$(cat $PMU/requester_filters/multiselect)" = 10

# trace NAME FILTER TYPE DIRECTION FORMAT [MS]: an AUX trace whose every
# record ptt-trace checks against the settings and the topology.
trace() {
	local name=$1
	shift
	ktap_check "$name" /guest/progs/ptt-trace --pmu hisi_ptt2_5 --map $MAP \
		--filter $1 --type $2 --direction $3 --format $4 --ms ${5:-200}
}
trace trace-4dw-requester-inbound 0x00100 7 0 0
trace trace-4dw-port-outbound 0x80005 1 1 0
trace trace-4dw-both-ports-dir2 0x80005 3 2 0
trace trace-4dw-dir3-cpl 0x80004 4 3 0
trace trace-8dw-requester-outbound-cpl 0x00200 4 1 1
trace trace-8dw-port-inbound-np 0x80001 2 2 1
trace trace-8dw-inbound-cpl-a 0x80004 4 3 1
# 8DW time stamps are the low 32 bits of the ns time: over 9 s they wrap
# twice, and go on rising modulo 2^32
trace trace-8dw-time-stamp-wraps 0x80004 4 3 1 9000

# no_records NAME FILTER TYPE DIRECTION FORMAT: a trace that holds nothing
no_records() {
	local out
	out=$(/guest/progs/ptt-trace --pmu hisi_ptt2_5 --map $MAP --filter $1 \
		--type $2 --direction $3 --format $4 --ms 200)
	echo "$out"
	echo "$out" | grep -q '^records=0 '
}

# The requester filter selects by Requester ID: the CPU's writes to
# 02:00.0 carry its root port's ID, so a trace of 02:00.0's outbound
# posted TLPs holds none; every record of 01:00.0's inbound trace (DMA
# requests, and no completion of the CPU's reads) has 01:00.0 as requester
# (4DW record: header DW1[31:16] of a request, DW2[31:16] of a completion).
ktap_check requester-excludes-cpu-writes no_records 0x00200 1 1 1
requester_id_in_every_record() {
	local out n=0 bad=0 type id
	out=$(/guest/progs/ptt-trace --pmu hisi_ptt2_5 --map $MAP --filter 0x00100 \
		--type 7 --direction 0 --format 0 --ms 100 --dump 400) || { echo "$out"; return 1; }
	echo "$out" | grep '^# record [0-9]*:' >/tmp/requester-records
	while read -r _ _ _ dw0 dw1 dw2 _; do
		type=$(( (0x$dw0 >> 25) & 0x1f ))
		if [ $type = 10 ]; then id=$(( 0x$dw2 >> 16 )); else id=$(( 0x$dw1 >> 16 )); fi
		n=$((n + 1))
		[ $id = 256 ] || bad=$((bad + 1))
	done </tmp/requester-records
	echo "$n records decoded, $bad with another requester"
	[ $n -gt 0 ] && [ $bad = 0 ]
}
ktap_check requester-id-in-every-record requester_id_in_every_record

# Outbound TLPs take one type (hisi-ptt.rst: "can only specify one when
# tracing outbound TLP headers"); the driver passes more on and the device
# traces no outbound TLP then.
ktap_check outbound-two-types-traces-nothing no_records 0x80005 3 1 0

# Buffers fill in order with one MSI each: the driver copies 4 MiB per MSI
# and the partial buffer at the end.
one_msi_per_buffer() {
	local before after out bytes
	before=$(awk '/hisi_ptt/ {print $2 + $3}' /proc/interrupts)
	out=$(/guest/progs/ptt-trace --pmu hisi_ptt2_5 --map $MAP --filter 0x80005 \
		--type 7 --direction 2 --format 0 --ms 800) || { echo "$out"; return 1; }
	after=$(awk '/hisi_ptt/ {print $2 + $3}' /proc/interrupts)
	bytes=$(echo "$out" | sed -n 's/.* bytes=\([0-9]*\).*/\1/p')
	echo "$out; MSIs $((after - before))"
	[ $((after - before)) -ge 1 ] && [ $((after - before)) = $((bytes / 4194304)) ]
}
ktap_check one-msi-per-full-buffer one_msi_per_buffer

# Tuning acts on the traffic: QoS weight 2 doubles, 0 halves outbound
# posted (the CPU's writes below root port 00:10.0). Counted a second of
# the records' own time stamps (ptt-trace's stamp_rate), which no
# scheduling of a guest starved by a loaded host skews.
posted_rate() {
	/guest/progs/ptt-trace --pmu hisi_ptt2_5 --map $MAP --filter 0x80001 \
		--type 1 --direction 1 --format 1 --ms 500 |
		sed -n 's/^records=.* stamp_rate=\([0-9]*\) .*/\1/p'
}
tune_changes_traffic() {
	local low high
	echo 0 >$PMU/tune/qos_tx_p
	low=$(posted_rate)
	echo 2 >$PMU/tune/qos_tx_p
	high=$(posted_rate)
	echo 1 >$PMU/tune/qos_tx_p
	echo "posted TLPs traced a second: weight 0 $low, weight 2 $high"
	# 4x the rate
	ratio_in "$low" "$high" 300 500
}
ktap_check tune-qos-scales-traffic tune_changes_traffic

# The real perf tool: perf record of an AUX trace, perf report -D decodes it.
# The PMU takes CPU-wide events only, hence -a.
perf_record() {
	cd /tmp && rm -f perf.data
	perf record -o /tmp/perf.data -a -e "hisi_ptt2_5/$1/" -- sleep 1 >/tmp/perf-record.log 2>&1 ||
		{ cat /tmp/perf-record.log; return 1; }
	perf report -D -i /tmp/perf.data >/tmp/perf-dump.txt 2>&1 ||
		{ tail -n 5 /tmp/perf-dump.txt; return 1; }
	grep -q 'HISI PTT data: size [1-9]' /tmp/perf-dump.txt || { echo "no HISI PTT data"; return 1; }
}

# perf 6.12's decoder prints a field as its four bytes in memory order;
# 7.2's prints the field's value, most significant byte first, and decodes
# a 4DW record's Format and Type as the guide lays them out (6.12's bit
# fields take them in the reverse order: docs/devices/hisi-ptt.md).
perf_prints_values() {
	! perf version | grep -q '^perf version 6\.'
}

# 8DW, outbound posted of root port 00:10.0: every header is a memory write
# (Fmt 010/011, Type 0) whose requester is the root port 00:10.0.
perf_8dw() {
	local n bad dw0=': .. .. .. (40|60) ' dw1=': .. .. 80 00 '
	perf_prints_values && dw0=': (40|60) .. .. .. ' dw1=': 00 80 .. .. '
	perf_record filter=0x80001,type=1,direction=1,format=1 || return 1
	n=$(grep -c 'Header DW0' /tmp/perf-dump.txt)
	bad=$(grep 'Header DW0' /tmp/perf-dump.txt | grep -c -v -E "$dw0")
	bad=$((bad + $(grep 'Header DW1' /tmp/perf-dump.txt | grep -c -v -E "$dw1")))
	echo "$n headers, $bad wrong ($(perf version))"
	[ "$n" -gt 0 ] && [ "$bad" = 0 ]
}
ktap_check perf-record-report-8dw perf_8dw

# 4DW, inbound completions: the decoder prints a Format/Type/Length line for
# each record; perf 7.2 decodes each as a completion, with data (Format 2,
# CplD) or without (Format 0, Cpl), Type 0b01010.
perf_4dw() {
	local n bad=0
	perf_record filter=0x80004,type=4,direction=0,format=0 || return 1
	n=$(grep -c 'Format .* Type .* Length' /tmp/perf-dump.txt)
	perf_prints_values &&
		bad=$(grep 'Format .* Type .* Length' /tmp/perf-dump.txt | grep -c -v -E 'Format [02] Type a ')
	echo "$n records, $bad not a completion ($(perf version))"
	[ "$n" -gt 0 ] && [ "$bad" = 0 ]
}
ktap_check perf-record-report-4dw perf_4dw
ktap_finish
