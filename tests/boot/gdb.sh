# SPDX-License-Identifier: GPL-2.0-or-later
# The guest half of tests/boot/gdb-test: says where hisi_ptt's code was
# loaded, stops its own VM over QMP so that the gdb attached to QEMU can
# load the module's symbols and set a breakpoint in it, then starts a trace
# that runs into that breakpoint.
. /guest/tests/lib/qmp.sh

echo "HISI-GDB-TEXT $(cat /sys/module/hisi_ptt/sections/.text)"
# The line out of the UART before the VM stops (stty sets its mode with
# TCSADRAIN: it returns when the tty's output is sent)
stty onlcr </dev/console
qmp_open || exit 1
# A VM stopped over QMP is a stop gdb sees: it gets control here and
# continues the VM when the breakpoint is set.
qmp '{"execute": "stop"}' >/dev/null || exit 1
perf record -o /tmp/perf.data -a \
	-e hisi_ptt0_0/filter=0x100,type=7,direction=2,format=1/ -- sleep 0.2 ||
	exit 1
echo "HISI-GDB-TRACED"
