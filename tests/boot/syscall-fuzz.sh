# SPDX-License-Identifier: GPL-2.0-or-later
# Syscall fuzzing of the four PMUs, as an unprivileged user
# (perf_event_paranoid -1), on hisi_ptt0_0, hisi_pcie0_core0,
# hns3_pmu_sicl_5 and ccn while every device has traffic, by one of two
# fuzzers (the kernel command line's fuzz.fuzzer=):
#   perf-fuzz (default)  tests/boot/progs/perf-fuzz: perf_event_open with
#                        attributes drawn from each PMU's events/, format/
#                        and filters, then ioctl, read, mmap (ring and AUX)
#                        and close on what opened;
#   trinity              Debian's trinity on perf_event_open, ioctl, mmap,
#                        read and close: it draws the type of most events
#                        from perf's own (hardware, software, tracepoint,
#                        raw, any number) and one in eight from a PMU of
#                        sysfs, any of them, so few of its opens are of our
#                        PMUs' types.
# What it looks for are the kernel's reports, which fail the run
# (boot-test's guest-run-clean case). The suite also checks that the calls
# reach the drivers: a return probe on each driver's event_init counts its
# calls by result (an event of another PMU's type, or of none, is offered
# to every PMU and each says ENOENT: those are calls too), and with
# perf-fuzz each PMU accepts and refuses opens.
# The kernel command line may set fuzz.calls=N (default 20000 with
# perf-fuzz, about 10 s; 5000 with trinity, about 80 s under TCG) and
# fuzz.seed=N (default 1): scripts/fuzz-syscalls runs campaigns.
#
# kernel-config: CONFIG_HISI_PTT=m
# kernel-config: CONFIG_HISI_PCIE_PMU=m
# kernel-config: CONFIG_HNS3_PMU=m
# kernel-config: CONFIG_ARM_CCN=m
# kernel-config: CONFIG_KPROBE_EVENTS
# run-guest: --timeout 1800
# run-guest: --perf
# qemu: -object hisi-traffic,id=t0,rules=stream=dma-write,,rate=250000,,len=16
# qemu: -device hisi-ptt,bus=pcie.0,addr=0x8,id=ptt0,rp-bdf-min=0x80,rp-bdf-max=0x87,traffic=t0
# qemu: -device hisi-pcie-pmu,bus=pcie.0,addr=0xa,id=pmu0,bdf-min=0x80,bdf-max=0x87,traffic=t0
# qemu: -device hns3-pmu,bus=pcie.0,addr=0xc,id=hns3,sicl-id=5,bdf-min=0x30,bdf-max=0x30,traffic=t0
# qemu: -device pci-testdev,bus=pcie.0,addr=0x6
# qemu: -device arm-ccn,id=ccn,traffic=t0
# qemu: -device pcie-root-port,id=rp0,bus=pcie.0,chassis=1,addr=0x10
# qemu: -device nvme,bus=rp0,serial=fz0
# PTT hisi_ptt0_0 (00:08.0) and PMU hisi_pcie0_core0 (00:0a.0) cover root
# port 00:10.0 -> 01:00.0 nvme; the HNS3 PMU (sicl 5) counts the NIC
# function 00:06.0; the CCN counts the ring. Every endpoint's DMA writes:
# 250000/s of 16 DW.
. /guest/tests/lib/ktap.sh
. /guest/tests/lib/drivers.sh

PMUS="hisi_ptt0_0 hisi_pcie0_core0 hns3_pmu_sicl_5 ccn"
T=/sys/kernel/tracing
calls=$(sed -n 's/.*fuzz\.calls=\([0-9]*\).*/\1/p' /proc/cmdline)
seed=$(sed -n 's/.*fuzz\.seed=\([0-9]*\).*/\1/p' /proc/cmdline)
fuzzer=$(sed -n 's/.*fuzz\.fuzzer=\([a-z-]*\).*/\1/p' /proc/cmdline)
fuzzer=${fuzzer:-perf-fuzz}
[ "$fuzzer" = trinity ] && calls=${calls:-5000}
calls=${calls:-20000}

ktap_start syscall_fuzz

# The event_init of each driver of the set: ours share the core's.
if ours; then
	INITS="hisi_ptt_event_init uncore_pmu_event_init"
else
	INITS="hisi_ptt_pmu_event_init hisi_pcie_pmu_event_init hns3_pmu_event_init arm_ccn_pmu_event_init"
fi

setup() {
	local f
	[ -e $T/kprobe_events ] || mount -t tracefs nodev $T || return 1
	# room for every probe hit of a campaign's run (about 100 bytes each;
	# inits checks that none was lost)
	echo 16384 >$T/buffer_size_kb || return 1
	for f in $INITS; do
		echo "r:fuzz_$f $f ret=\$retval:s32" >>$T/kprobe_events &&
			echo 1 >$T/events/kprobes/fuzz_$f/enable || return 1
	done
	echo -1 >/proc/sys/kernel/perf_event_paranoid &&
		echo 65536 >/proc/sys/kernel/perf_event_mlock_kb
}
ktap_check setup setup

perf_fuzz() {
	/guest/progs/perf-fuzz --seed "${seed:-1}" --calls "$calls" \
		--user 65534 $PMUS >/tmp/fuzz.out 2>&1
	local status=$?
	cat /tmp/fuzz.out
	return $status
}

# Trinity refuses to run as root. Its sockets are left out (--enable-fds):
# Debian's trinity 2023.01 dies of SIGSEGV while it sets them up. It prints
# its set-up at length: the summary from "Ran N syscalls" on is kept. It
# stops early when the kernel taints itself (a WARNING, a lockdep report):
# then the kernel's report is what the run is judged by.
trinity() {
	local taint
	taint=$(cat /proc/sys/kernel/tainted)
	chmod 1777 /tmp && cd /tmp || return 1
	/guest/progs/run-as 65534 /usr/bin/trinity -q -l off --stats \
		--enable-fds=perf,pipes,testfile -C 2 -s "${seed:-1}" -N "$calls" \
		-c perf_event_open -c ioctl -c mmap -c read -c close >/tmp/trinity.out 2>&1
	local status=$?
	cd /
	sed -n '/Ran [0-9]* syscalls/,$p' /tmp/trinity.out >/tmp/fuzz.out
	cat /tmp/fuzz.out
	[ $status = 0 ] || { echo "trinity exited $status"; tail -n 5 /tmp/trinity.out; return 1; }
	grep -q "Ran $calls syscalls" /tmp/fuzz.out && return 0
	[ "$(cat /proc/sys/kernel/tainted)" != "$taint" ] ||
		{ echo "trinity stopped short of $calls syscalls"; return 1; }
	echo "trinity stopped early: the kernel tainted itself (taint $taint -> $(cat /proc/sys/kernel/tainted))"
}

case $fuzzer in
perf-fuzz) ktap_check fuzz perf_fuzz ;;
trinity) ktap_check fuzz trinity ;;
*) ktap_check fuzz sh -c "echo 'fuzz.fuzzer=$fuzzer: perf-fuzz or trinity'; false" ;;
esac
sed 's/^/  # FUZZ /' /tmp/fuzz.out

# With perf-fuzz, every PMU took some of the opens and refused others.
reached() {
	local pmu line
	for pmu in $PMUS; do
		line=$(grep "^pmu=$pmu " /tmp/fuzz.out) || { echo "no line for $pmu"; return 1; }
		echo "$line" | grep -q ' opened=[1-9]' && echo "$line" | grep -q ' refused=[1-9]' ||
			{ echo "$line"; return 1; }
	done
}
[ "$fuzzer" != perf-fuzz ] || ktap_check every-pmu-opens-and-refuses reached

# The return probes saw each driver's event_init called: its calls by
# result, from the trace (a line per return: "... fuzz_FUNCTION: (...)
# ret=-22"), read once and all of it: no CPU's buffer overran.
inits() {
	local lost
	lost=$(cat $T/per_cpu/cpu*/stats | awk '$1 == "overrun:" { n += $2 } END { print n + 0 }')
	[ "$lost" = 0 ] || { echo "the trace lost $lost probe hits" | tee /tmp/inits.out; return 1; }
	awk -v inits="$INITS" 'BEGIN {
		split("1 EPERM 2 ENOENT 7 E2BIG 12 ENOMEM 13 EACCES 14 EFAULT 16 EBUSY 19 ENODEV 22 EINVAL 28 ENOSPC 95 EOPNOTSUPP", t)
		for (i = 1; i < 22; i += 2) name[t[i]] = t[i + 1]
		n = split(inits, f, " ")
	}
	match($0, / fuzz_[a-z0-9_]+: /) {
		fn = substr($0, RSTART + 6, RLENGTH - 8)
		if (!match($0, / ret=-?[0-9]+$/))
			next
		v = -substr($0, RSTART + 5); calls[fn]++
		if (v == 0) { accepted[fn]++; next }
		by[fn, v in name ? name[v] : "E" v]++
	}
	END {
		for (i = 1; i <= n; i++) {
			line = "event_init " f[i] " calls=" calls[f[i]] + 0 " accepted=" accepted[f[i]] + 0
			for (k in by) {
				split(k, p, SUBSEP)
				if (p[1] == f[i]) line = line " " p[2] "=" by[k]
			}
			print line
			if (!calls[f[i]]) bad = 1
		}
		exit bad
	}' $T/trace >/tmp/inits.out
	local status=$?
	cat /tmp/inits.out
	return $status
}
ktap_check event-init-reached inits
sed 's/^/  # FUZZ /' /tmp/inits.out

ktap_finish
