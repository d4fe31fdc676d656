# SPDX-License-Identifier: GPL-2.0-or-later
# Run inside the guest by scripts/demo: show the PCI topology, the drivers
# and the PMUs the emulated devices gave.
echo "=== PCI devices (bdf vendor:device class driver)"
for d in /sys/bus/pci/devices/*; do
	drv=-
	[ -e "$d/driver" ] && drv=$(basename "$(readlink "$d/driver")")
	echo "  $(basename "$d") $(cat "$d/vendor" | cut -c3-):$(cat "$d/device" | cut -c3-) $(cat "$d/class") $drv"
done
echo "=== loaded drivers"
lsmod | sed 's/^/  /'
echo "=== perf PMUs"
ls /sys/bus/event_source/devices | sed 's/^/  /'
