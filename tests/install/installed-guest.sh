#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Run by tests/install/install-test inside a guest of the installed QEMU:
# the four devices' PMUs are there and count.
fail=0
for pmu in hisi_ptt0_2 hisi_pcie0_core2 hns3_pmu_sicl_0 ccn; do
	if [ -d "/sys/bus/event_source/devices/$pmu" ]; then
		echo "PMU $pmu: present"
	else
		echo "PMU $pmu: MISSING"
		fail=1
	fi
done
cycles=$(perf stat -x, -a -e ccn/cycles/ -- sleep 0.1 2>&1 | cut -d, -f1 | head -n 1)
echo "ccn/cycles/ over 0.1 s: $cycles"
case $cycles in '' | 0 | *[!0-9]*) fail=1 ;; esac
exit $fail
