# SPDX-License-Identifier: GPL-2.0-or-later
# The four drivers of the set (upstream or ours) load on a guest with no such
# devices: each registers its driver, binds nothing, registers no PMU, and
# unloads with whatever it needed.
# kernel-config: CONFIG_HISI_PTT=m
# kernel-config: CONFIG_HISI_PCIE_PMU=m
# kernel-config: CONFIG_HNS3_PMU=m
# kernel-config: CONFIG_ARM_CCN=m
# kernel-config: CONFIG_MODULE_UNLOAD
# run-guest: --no-autoload
. /guest/tests/lib/ktap.sh
. /guest/tests/lib/drivers.sh

mods="hisi_ptt:pci hisi_pcie_pmu:pci hns3_pmu:pci arm-ccn:platform"
# Per driver: loads, registers, binds nothing, unloads; plus two checks.
ktap_start reference_drivers

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
	ktap_check "$drv-loads" driver_load "$drv"
	ktap_check "$drv-registers-$bus-driver" test -d "/sys/bus/$bus/drivers/$drv"
	ktap_check "$drv-binds-nothing" no_bound_device "$drv" "$bus"
done
ktap_check "no-pmu-registered" no_pmu
for m in $mods; do
	ktap_check "${m%%:*}-unloads" driver_unload "${m%%:*}"
done
# Nothing of the set left: no driver directory, no module (ours: the shared
# counting-PMU core goes with its last user).
nothing_left() {
	ls -d /sys/bus/pci/drivers/hisi_ptt /sys/bus/platform/drivers/arm-ccn 2>/dev/null && return 1
	for ko in "$DRIVER_DIR"/*.ko; do
		m=$(basename "$ko" .ko | tr - _)
		[ -d "/sys/module/$m" ] && { echo "module $m still loaded"; return 1; }
	done
	return 0
}
ktap_check "drivers-gone" nothing_left
ktap_finish
