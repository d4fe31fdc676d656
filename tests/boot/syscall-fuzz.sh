# SPDX-License-Identifier: GPL-2.0-or-later
# Syscall fuzzing of the four PMUs: tests/boot/progs/perf-fuzz, run as an
# unprivileged user (perf_event_paranoid -1), opens events on hisi_ptt0_0,
# hisi_pcie0_core0, hns3_pmu_sicl_5 and ccn with random attributes and
# drives ioctl, read, mmap (ring and AUX) and close on them while every
# device has traffic. What it looks for are the kernel's reports, which
# fail the run (boot-test's guest-run-clean case). The suite also checks
# that the calls reach the drivers: each PMU accepts and refuses opens, and
# a kprobe on each driver's event_init counts its calls.
# The kernel command line may set fuzz.calls=N (default 20000) and
# fuzz.seed=N (default 1): scripts/fuzz-syscalls runs campaigns.
#
# kernel-config: CONFIG_HISI_PTT=m
# kernel-config: CONFIG_HISI_PCIE_PMU=m
# kernel-config: CONFIG_HNS3_PMU=m
# kernel-config: CONFIG_ARM_CCN=m
# kernel-config: CONFIG_KPROBE_EVENTS
# run-guest: --timeout 1800
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
	for f in $INITS; do
		echo "p:fuzz_$f $f" >>$T/kprobe_events || return 1
		echo 1 >$T/events/kprobes/fuzz_$f/enable || return 1
	done
	echo -1 >/proc/sys/kernel/perf_event_paranoid &&
		echo 65536 >/proc/sys/kernel/perf_event_mlock_kb
}
ktap_check setup setup

fuzz() {
	/guest/progs/perf-fuzz --seed "${seed:-1}" --calls "${calls:-20000}" \
		--user 65534 $PMUS >/tmp/fuzz.out 2>&1
	local status=$?
	cat /tmp/fuzz.out
	return $status
}
ktap_check fuzz fuzz
sed 's/^/  # FUZZ /' /tmp/fuzz.out

# Every PMU took some of the opens and refused others.
reached() {
	local pmu line
	for pmu in $PMUS; do
		line=$(grep "^pmu=$pmu " /tmp/fuzz.out) || { echo "no line for $pmu"; return 1; }
		echo "$line" | grep -q ' opened=[1-9]' && echo "$line" | grep -q ' refused=[1-9]' ||
			{ echo "$line"; return 1; }
	done
}
ktap_check every-pmu-opens-and-refuses reached

# The kprobes saw the drivers' event_init called (kprobe_profile: name,
# hits, misses).
inits() {
	local f hits
	for f in $INITS; do
		hits=$(awk -v p="fuzz_$f" '$1 == p { print $2 }' $T/kprobe_profile)
		echo "  # FUZZ event_init $f calls=${hits:-0}"
		[ "${hits:-0}" -gt 0 ] || return 1
	done
}
ktap_check event-init-reached inits
inits | grep '^  # FUZZ'

ktap_finish
