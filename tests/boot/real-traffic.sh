# SPDX-License-Identifier: GPL-2.0-or-later
# Real traffic (docs/devices/traffic.md): with the traffic object's source=real,
# hisi-ptt traces and hisi-pcie-pmu counts the actual DMA of an NVMe drive
# below root port 00:10.0, and the CPU's accesses to it. The drive reads zeroes and drops writes
# (null-co), so only its DMA matters.
# kernel-config: CONFIG_HISI_PTT=m
# kernel-config: CONFIG_HISI_PCIE_PMU=m
# kernel-config: CONFIG_BLK_DEV_NVME
# run-guest: --perf
# run-guest: --kmod nvme
# qemu: -object hisi-traffic,id=t0,source=real
# qemu: -device hisi-ptt,bus=pcie.0,addr=0x8,traffic=t0
# qemu: -device hisi-pcie-pmu,bus=pcie.0,addr=0x9,traffic=t0
# qemu: -device pcie-root-port,id=rp0,bus=pcie.0,chassis=1,addr=0x10
# qemu: -blockdev driver=null-co,node-name=disk0,size=67108864,read-zeroes=on
# qemu: -device nvme,bus=rp0,serial=real0,drive=disk0
. /guest/tests/lib/ktap.sh

PTT=hisi_ptt0_0
PMU=hisi_pcie0_core0
DISK=/dev/nvme0n1
# 64 O_DIRECT transfers of 64 KiB
BLOCKS=64
BYTES=$((BLOCKS * 65536))

ktap_start real_traffic

ktap_check drive-present wait_for test -b $DISK

# The guest's RAM, LO-HI in hex: from the lowest to the highest System RAM
RAM=$(awk '/System RAM/ { split($1, r, "-"); lo = lo == "" ? r[1] : lo; hi = r[2] }
	END { print lo "-" hi }' /proc/iomem)

# The drive's interrupts so far: each one is an MSI-X write
irqs() {
	awk '/0000:01:00.0/ { for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) n += $i }
		END { print n + 0 }' /proc/interrupts
}

# transfer NAME TYPE DIRECTION EVENT DD-ARGS...: dd with DD-ARGS while
# ptt-trace traces the drive's TLPs of TYPE and 4DW DIRECTION (requester
# filter) and perf stat counts EVENT's payload on root port 00:10.0; the
# trace summary in /tmp/NAME.trace, the count in /tmp/NAME.count, the
# drive's interrupts over the trace in /tmp/NAME.irqs
transfer() {
	local name=$1 type=$2 dir=$3 event=$4 pid irqs0
	shift 4
	rm -f /tmp/ready
	irqs0=$(irqs)
	/guest/progs/ptt-trace --pmu $PTT --map 0100:0080 --filter 0x00100 \
		--type "$type" --direction "$dir" --format 0 --ms 8000 --ram "$RAM" \
		--ready /tmp/ready >"/tmp/$name.trace" 2>&1 &
	pid=$!
	wait_for test -e /tmp/ready || return 1
	perf stat -x, -o "/tmp/$name.stat" -a \
		-e "{$PMU/${event}_flux,port=0x1,len_mode=1/,$PMU/${event}_time,port=0x1,len_mode=1/}" \
		-- dd "$@" bs=65536 count=$BLOCKS 2>"/tmp/$name.dd" || { cat "/tmp/$name.dd"; return 1; }
	wait $pid || { cat "/tmp/$name.trace"; return 1; }
	echo $(($(irqs) - irqs0)) >"/tmp/$name.irqs"
	awk -F, -v e="${event}_flux" '$3 ~ e { print $1 }' "/tmp/$name.stat" >"/tmp/$name.count"
	echo "# $name: $(cat "/tmp/$name.trace") flux=$(cat "/tmp/$name.count")"
}

# field NAME KEY: KEY=VALUE of NAME's trace summary
field() { sed -n "s/.* $2=\([0-9]*\) .*/\1/p; s/^$2=\([0-9]*\) .*/\1/p" "/tmp/$1.trace"; }

# carries NAME LO HI: the payload the trace holds is the bytes dd moved
# and, per command, between LO and HI bytes of its own; perf stat counted
# the same bytes exactly
carries() {
	local payload=$(( $(field "$1" payload_dw) * 4 )) flux
	flux=$(cat "/tmp/$1.count")
	echo "# $1: $payload payload bytes traced, $flux counted, $BYTES moved," \
		"$(( (payload - BYTES) / BLOCKS )) a command besides"
	[ "$payload" -ge $((BYTES + BLOCKS * $2)) ] &&
		[ "$payload" -le $((BYTES + BLOCKS * $3)) ] &&
		[ "$flux" = "$payload" ]
}

# The drive writes what it reads into memory: MWr, inbound posted
ktap_check dd-read-traced transfer read 1 0 rx_mwr if=$DISK of=/dev/null iflag=direct
# A read's own: its completion queue entry (16 bytes), the driver's shadow
# doorbell words and the MSI-X write (4 bytes each)
ktap_check dd-read-mwr-carry-the-bytes carries read 16 256
# Every MWr goes to guest RAM but the MSI-X writes, one per interrupt
msi_outside_ram() {
	echo "# read: $(field read ram_out) MWr outside RAM $RAM, $(cat /tmp/read.irqs) interrupts"
	[ "$(field read ram_out)" -gt 0 ] && [ "$(field read ram_out)" = "$(cat /tmp/read.irqs)" ]
}
ktap_check dd-read-mwr-to-ram-but-msi msi_outside_ram
# No MWr is longer than the 128-byte Max_Payload_Size Linux leaves
ktap_check dd-read-mwr-split-at-mps \
	test $(( $(field read P) * 32 )) -ge "$(field read payload_dw)"
# It fetches what it writes: MRd inbound, the root port's CplD outbound
ktap_check dd-write-traced transfer write 4 1 tx_cpl if=/dev/zero of=$DISK oflag=direct
# A write's own: its submission queue entry (64 bytes), the shadow doorbell
# words, and its PRP list from the entry PRP2 points at to the end of that
# page, 256 bytes to 4 KiB (QEMU's NVMe, docs/devices/traffic.md)
ktap_check dd-write-cpld-carry-the-bytes carries write $((64 + 256)) $((64 + 4096 + 256))

# trace_during NAME TYPE COMMAND...: ptt-trace traces root port 00:10.0's
# outbound TLPs of TYPE (8DW format, the first record dumped) while
# COMMAND runs; the summary in /tmp/NAME.trace
trace_during() {
	local name=$1 type=$2 pid
	shift 2
	rm -f /tmp/ready
	/guest/progs/ptt-trace --pmu $PTT --map 0100:0080 --filter 0x80001 \
		--type "$type" --direction 1 --format 1 --ms 3000 --dump 1 \
		--ready /tmp/ready >"/tmp/$name.trace" 2>&1 &
	pid=$!
	wait_for test -e /tmp/ready || return 1
	"$@" >/dev/null 2>&1 || return 1
	wait $pid || { cat "/tmp/$name.trace"; return 1; }
	echo "# $name: $(grep -v '^# record' "/tmp/$name.trace")"
}

# The CPU's side: the driver rings the drive's doorbells, a DW written
# into its BAR 0 with the root port as requester, at least once a command
doorbells() {
	local lo hi addr p
	trace_during doorbells 1 \
		dd if=$DISK of=/dev/null bs=65536 count=$BLOCKS iflag=direct || return 1
	read -r lo hi _ </sys/bus/pci/devices/0000:01:00.0/resource
	# the dumped 8DW record: header DW0 is its third DW, the address the
	# fifth (3DW header) or the fifth and sixth (4DW: Fmt 1 or 3)
	addr=$(awk '/^# record 0:/ { print (substr($6, 1, 1) ~ /[2367]/) ? $8 $9 : $8 }' \
		/tmp/doorbells.trace)
	p=$(field doorbells P)
	echo "# doorbells: $p MWr, the first to 0x$addr, BAR 0 is $lo-$hi"
	[ "$p" -ge $BLOCKS ] && [ "$(field doorbells payload_dw)" = "$p" ] &&
		[ $((0x$addr)) -ge $((lo)) ] && [ $((0x$addr)) -le $((hi)) ]
}
ktap_check cpu-doorbell-writes-traced doorbells

# Reading 64 bytes of the drive's configuration space through sysfs: 16
# CfgRd0 of a DW from the root port, and no other non-posted request
config_reads() {
	trace_during config 2 dd if=/sys/bus/pci/devices/0000:01:00.0/config \
		of=/dev/null bs=64 count=1 || return 1
	[ "$(field config cfg)" = 16 ] && [ "$(field config NP)" = 16 ]
}
ktap_check cpu-config-reads-traced config_reads

# Nothing traced while the drive does nothing
idle() {
	local out
	out=$(/guest/progs/ptt-trace --pmu $PTT --map 0100:0080 --filter 0x00100 \
		--type 7 --direction 0 --format 0 --ms 1000)
	echo "# idle: $out"
	echo "$out" | grep -q '^records=0 '
}
ktap_check idle-drive-no-records idle

ktap_finish
