# SPDX-License-Identifier: GPL-2.0-or-later
# The four upstream reference drivers load on a guest with no such devices:
# each registers its driver, binds nothing, registers no PMU, and unloads.
. /guest/tests/lib/ktap.sh

mods="hisi_ptt:pci hisi_pcie_pmu:pci hns3_pmu:pci arm-ccn:platform"
# Per driver: loads, registers, binds nothing, unloads; plus two checks.
ktap_start reference_drivers 18

no_bound_device() {
	ls "/sys/bus/$2/drivers/$1" | grep -E '^[0-9a-f]{4}:|^[0-9a-f]+\.' && return 1
	return 0
}

no_pmu() {
	ls /sys/bus/event_source/devices | grep -E '^(hisi_|hns3_|ccn)' && return 1
	return 0
}

for m in $mods; do
	drv=${m%%:*}
	bus=${m#*:}
	ktap_check "$drv-loads" insmod "/lib/modules/hisi/upstream/$drv.ko"
	ktap_check "$drv-registers-$bus-driver" test -d "/sys/bus/$bus/drivers/$drv"
	ktap_check "$drv-binds-nothing" no_bound_device "$drv" "$bus"
done
ktap_check "no-pmu-registered" no_pmu
for m in $mods; do
	ktap_check "${m%%:*}-unloads" rmmod "${m%%:*}"
done
ktap_check "drivers-gone" sh -c '! ls -d /sys/bus/pci/drivers/hisi_ptt /sys/bus/platform/drivers/arm-ccn 2>/dev/null'
ktap_finish
