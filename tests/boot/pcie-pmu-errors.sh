# SPDX-License-Identifier: GPL-2.0-or-later
# hisi_pcie_pmu beyond pcie-pmu.sh: every config the driver must refuse and
# its errno, counter sharing, overflow across a 64-bit wrap, the owning CPU
# going offline, module lifetime. Runs with either driver set and says so
# where they differ by design.
# kernel-config: CONFIG_HISI_PCIE_PMU=m
# kernel-config: CONFIG_MODULE_UNLOAD
# kernel-config: CONFIG_VIRTIO_CONSOLE
# run-guest: --perf
# run-guest: --guest-qmp
# qemu: -object hisi-traffic,id=t0,rules=stream=dma-write,,rate=250000,,len=16,,latency=800;ep=02:00.0,,stream=dma-write,,rate=50000
# qemu: -device hisi-pcie-pmu,bus=pcie.0,addr=0x9,sicl-id=1,core-id=3,id=pmu0,traffic=t0,clock-freq=1000000000
# qemu: -device pcie-root-port,id=rp0,bus=pcie.0,chassis=1,addr=0x10
# qemu: -device pcie-root-port,id=rp1,bus=pcie.0,chassis=2,addr=0x11
# qemu: -device pcie-root-port,id=rp2,bus=pcie.0,chassis=3,addr=0x18
# qemu: -device nvme,bus=rp0,serial=pmu0
# qemu: -device edu,bus=rp1
# qemu: -device pci-testdev,bus=rp2
# The PMU at 00:09.0 covers root ports 00:10.0-00:17.7: 00:10.0 -> 01:00.0
# nvme, 00:11.0 -> 02:00.0 edu; 00:18.0 -> 03:00.0 pci-testdev is outside
# its range. The rules (',,' is a comma within the value): every endpoint's
# DMA writes at 250000/s, 16 DW, 800 ns; 02:00.0's at 50000/s.
. /guest/tests/lib/ktap.sh
. /guest/tests/lib/qmp.sh
. /guest/tests/lib/drivers.sh
. /guest/tests/lib/pmu.sh

NAME=hisi_pcie1_core3
PMU=/sys/bus/event_source/devices/$NAME
MOD=hisi_pcie_pmu

# Raw configs for pmu-open (NAME:config:config1:config2). config1:
# thr_len 0-3, trig_len 5-8, len_mode 10-11; config2: port 0-15, bdf 16-31.
LAT=0x10
CNT=0x10010
FLUX=0x104
TIME=0x10104
LEN1=0x400
LEN2=0x800
LEN3=0xc00

ktap_start hisi_pcie_pmu_errors
qmp_open >/dev/null || echo "# no QMP"

ktap_check probe test -d $PMU

# An event code the device does not have. Differs by design: ours refuses
# it (ENOENT, as for any PMU without that event); upstream takes any code
# and the counter counts nothing.
if ours; then
	ktap_check unknown-event-enoent refused ENOENT $NAME:0x106:0:0x1
else
	ktap_check unknown-event-accepted-by-upstream opens $NAME:0x106:0:0x1
fi
ktap_check thr-len-11-einval refused EINVAL $NAME:$FLUX:0xb:0x1
ktap_check trig-len-11-einval refused EINVAL $NAME:$FLUX:0x160:0x1
ktap_check thr-trig-len-10-open opens $NAME:$FLUX:0x14a:0x1
ktap_check bdf-missing-device-einval refused EINVAL $NAME:$FLUX:0:0x5000000
outside_range() {
	test -e /sys/bus/pci/devices/0000:03:00.0 || { echo "no 03:00.0"; return 1; }
	refused EINVAL $NAME:$FLUX:0:0x3000000 &&      # below root port 00:18.0
		refused EINVAL $NAME:$FLUX:0:0xc00000   # that root port itself
}
ktap_check bdf-outside-range-einval outside_range
# bdf 0 without a port is 00:00.0, the host bridge: below no root port
ktap_check bdf-no-root-port-einval refused EINVAL $NAME:$FLUX:0:0
ktap_check bdf-in-range-opens opens $NAME:$FLUX:0:0x2000000
ktap_check sampling-eopnotsupp refused EOPNOTSUPP --sample $NAME:$FLUX:0:0x1
ktap_check per-task-eopnotsupp refused EOPNOTSUPP --task $NAME:$FLUX:0:0x1

# The nine filters below program nine different EVENT_CTRL values.
FILTERS="$LEN1:0x1 $LEN2:0x1 $LEN3:0x1 $LEN1:0x4 $LEN2:0x4 $LEN3:0x4 $LEN1:0x5 $LEN2:0x5 $LEN3:0x5"
# bytes/s each filter sees: 250000 TLPs/s of 64 + 16 bytes below 00:10.0,
# 50000/s below 00:11.0
RATES="16000000 4000000 20000000 3200000 800000 4000000 19200000 4800000 24000000"

# pairs N: the flux/time pairs of the first N filters, as pmu-open events
pairs() {
	echo $FILTERS | tr ' ' '\n' | head -n "$1" |
		sed "s/.*/$NAME:$FLUX:& $NAME:$TIME:&/" | tr '\n' ' '
}

ktap_check group-9-counters-einval refused EINVAL \
	$(echo $FILTERS | tr ' ' '\n' | sed "s/^/$NAME:$FLUX:/")

# Eight pairs fill the eight counters only when each pair shares one: the
# group then opens, is scheduled, and each pair reads the two halves of its
# counter (bytes/time = the filter's rate). Without sharing it is refused
# or never counts.
eight_pairs() {
	local out
	out=$(pmu-open --ms 1000 $(pairs 8)) || { echo "$out"; return 1; }
	echo "$out" | awk -F= -v rates="$RATES" '
		/^count/ { c[substr($1, 6)] = $2 }
		END {
			split(rates, r, " ")
			for (i = 0; i < 8; i++) {
				bw = c[2 * i + 1] ? c[2 * i] / c[2 * i + 1] * 1e9 : 0
				printf "pair %d: %d bytes/s, want %d\n", i, bw, r[i + 1]
				if (bw < r[i + 1] * 0.99 || bw > r[i + 1] * 1.01)
					bad = 1
			}
			exit bad
		}'
}
ktap_check sharing-8-pairs-count eight_pairs
ktap_check sharing-9-pairs-einval refused EINVAL $(pairs 9)
latency_pair() {
	local out
	out=$(pmu-open --ms 500 $NAME:$LAT:0:0x1 $NAME:$CNT:0:0x1) || { echo "$out"; return 1; }
	echo "$out" | awk -F= '/^count/ { c[substr($1, 6)] = $2 }
		END { v = c[1] ? c[0] / c[1] : 0; print "latency " v " ns";
		      exit !(v > 800 * 0.99 && v < 800 * 1.01) }'
}
ktap_check sharing-latency-pair latency_pair

# len_mode 0 is reserved: the driver programs 3, headers and payloads.
len_mode_default() {
	local out
	out=$(pmu-open --ms 1000 $NAME:$FLUX:0:0x1 $NAME:$TIME:0:0x1) || { echo "$out"; return 1; }
	echo "$out" | awk -F= '/^count/ { c[substr($1, 6)] = $2 }
		END { v = c[1] ? c[0] / c[1] * 1e9 : 0; print v " bytes/s";
		      exit !(v > 20000000 * 0.99 && v < 20000000 * 1.01) }'
}
ktap_check len-mode-0-counts-both len_mode_default

# Overflow: counter 0 advanced (fault injection) to just below its 64-bit
# wrap while it counts payload bytes (and time in its other half), and
# counter 1 counts time alone, for 3 s. The bytes must be the advance plus
# 16 MB/s of payload, and the time on counter 0, read by the second event
# of a shared counter, the time on counter 1.
ADV=9223372036854000000
overflow_run() {
	local before after
	before=$(irqs $MOD)
	count_start /tmp/ovf.log $NAME:$FLUX:$LEN1:0x1 $NAME:$TIME:$LEN2:0x1 $NAME:$TIME:$LEN1:0x1 ||
		return 1
	sleep 1
	qom_set pmu0 advance "\"0=$ADV\"" || { count_stop; return 1; }
	sleep 2
	count_stop
	after=$(irqs $MOD)
	echo "$((after - before))" >/tmp/ovf.irqs
}
overflow_run >/tmp/ovf.run 2>&1
ovf() { sed -n "s/^count$1=//p" /tmp/ovf.log; }
overflow_exact() {
	cat /tmp/ovf.run /tmp/ovf.log
	echo "advanced by $ADV, overflow interrupts $(cat /tmp/ovf.irqs)"
	[ "$(cat /tmp/ovf.irqs)" -ge 1 ] &&
		awk -v c="$(ovf 0)" -v a="$ADV" -v t="$(ovf 1)" \
			'BEGIN { v = t ? (c - a) / t * 1e9 : 0; print v " bytes/s";
				 exit !(t > 2.9e9 && v > 16000000 * 0.99 && v < 16000000 * 1.01) }'
}
ktap_check overflow-keeps-count-exact overflow_exact
# Differs by design: upstream's overflow handler rewinds both halves of the
# counter but accounts only the first event on it, so the other event of a
# shared pair loses what it counted before the overflow (1 s of the 3 s);
# ours, and upstream's with our fix, leave the counter where it is.
partner_count() {
	awk -v t0="$(ovf 2)" -v t1="$(ovf 1)" -v up="$(fixed drivers-perf-hisi_pcie-Don-t-rewind-a-shared-counter || echo 1)" 'BEGIN {
		print "time " t0 " ns on counter 0, " t1 " ns on counter 1"
		if (up)
			exit !(t1 > 2.9e9 && t0 > t1 * 0.5 && t0 < t1 * 0.8)
		exit !(t1 > 2.9e9 && t0 > t1 * 0.999 && t0 < t1 * 1.001) }'
}
ktap_check overflow-shared-partner partner_count

# The owning CPU goes offline while a pair counts: the PMU moves to another
# CPU and the count goes on (its time the time enabled, the bandwidth unchanged).
new_owner() {
	cat $PMU/cpumask >/tmp/hp.new
}
hotplug_run() {
	local owner
	owner=$(cat $PMU/cpumask)
	echo "$owner" >/tmp/hp.owner
	cpu_offline_during "$owner" /tmp/hp.log new_owner \
		pmu-open --ms 3000 $NAME:$FLUX:$LEN1:0x1 $NAME:$TIME:$LEN1:0x1
	cpu_online "$owner"
}
hotplug_run >/tmp/hp.run 2>&1
cpumask_moved() {
	cat /tmp/hp.run
	echo "owner $(cat /tmp/hp.owner), then $(cat /tmp/hp.new)"
	grep -qxE '[0-9]+' /tmp/hp.new && [ "$(cat /tmp/hp.new)" != "$(cat /tmp/hp.owner)" ]
}
ktap_check offline-owner-moves-cpumask cpumask_moved
counting_goes_on() {
	cat /tmp/hp.log
	# the time counted is the time perf had the pair enabled, which is
	# short of 3 s by the move (perf stops the events while it moves
	# them; a loaded host made that 140 ms): over 2 s is a second after
	# the move
	awk -F= '/^count/ { c[substr($1, 6)] = $2 } /^enabled_ns/ { en = $2 }
		END { v = c[1] ? c[0] / c[1] * 1e9 : 0
		      print v " bytes/s over " c[1] " ns, enabled " en " ns"
		      exit !(c[1] > 2e9 && c[1] > en * 0.99 && c[1] < en * 1.01 &&
			     v > 16000000 * 0.99 && v < 16000000 * 1.01) }' /tmp/hp.log
}
ktap_check offline-owner-counting-goes-on counting_goes_on

# A counter a previous owner left counting (lib/pmu.sh, leftover_counter)
BDF=0000:00:09.0
leave_counter() {
	bar-rw $BDF 2 0x154 0 &&			# INT_MASK(0): unmasked
	bar-rw -q $BDF 2 0x10 $((0x100000 | FLUX)) &&	# EVENT_CTRL(0): flux, enabled
	bar-rw -q $BDF 2 0x90 0xffffff0000000000 &&	# CNT(0): 2^40 short of the wrap
	bar-rw $BDF 2 0 1				# GLOBAL_CTRL: counting
}
clean_counter() {
	bar-rw $BDF 2 0 0 && bar-rw -q $BDF 2 0x10 0 && bar-rw $BDF 2 0x154 1 &&
		bar-rw $BDF 2 0x150 1
}
ktap_check probe-and-leftover-counter leftover_counter $MOD $MOD pmu0 leave_counter clean_counter

# Module lifetime: an open event holds the module.
ktap_check rmmod-refused-while-open \
	rmmod_refused $MOD $NAME pmu-open --hold 3 $NAME:$FLUX:0:0x1 $NAME:$TIME:0:0x1
ktap_check rmmod-after-close driver_unload $MOD

# Fifty loads, each with a short perf stat of a pair, then an unload.
pair_counts() {
	local out
	out=$(perf stat -x, -a -e "{$NAME/rx_mwr_flux,port=0x1/,$NAME/rx_mwr_time,port=0x1/}" \
		-- sleep 0.05 2>&1)
	echo "$out"
	echo "$out" | awk -F, '/hisi_pcie/ && $1 + 0 > 0 { n++ } END { exit n != 2 }'
}
gone() {
	driver_gone $MOD hisi_pcie $PMU /sys/bus/pci/devices/0000:00:09.0/driver
}
ktap_check reload-50-times driver_reloads 50 $MOD pair_counts gone
ktap_check nothing-left-in-sysfs gone
ktap_check loads-again driver_load $MOD
ktap_check counts-after-reload latency_pair
ktap_check no-kernel-errors no_kernel_errors
ktap_finish
