# SPDX-License-Identifier: GPL-2.0-or-later
# Run inside the guest by scripts/demo: show the PCI topology, the drivers,
# the PMUs, the PTT tuning and tracing, and the PCIe, HNS3 and CCN PMUs
# counting, through the real perf tool.
PTT=/sys/bus/event_source/devices/hisi_ptt0_2

echo "=== PCI devices (bdf vendor:device class driver)"
for d in /sys/bus/pci/devices/*; do
	drv=-
	[ -e "$d/driver" ] && drv=$(basename "$(readlink "$d/driver")")
	echo "  $(basename "$d") $(cut -c3- "$d/vendor"):$(cut -c3- "$d/device") $(cat "$d/class") $drv"
done
echo "=== perf PMUs"
ls /sys/bus/event_source/devices | sed 's/^/  /'

echo "=== PTT tune: values, then qos_tx_p set to 2 and 7 (clamped to 2)"
for f in $PTT/tune/*; do echo "  $(basename "$f") = $(cat "$f")"; done
echo 2 >$PTT/tune/qos_tx_p && echo "  qos_tx_p = $(cat $PTT/tune/qos_tx_p)"
echo 7 >$PTT/tune/qos_tx_p && echo "  qos_tx_p = $(cat $PTT/tune/qos_tx_p)"
echo -1 >$PTT/tune/qos_tx_p 2>/dev/null || echo "  echo -1: rejected (EINVAL)"

echo "=== PTT filters"
for f in $PTT/root_port_filters/* $PTT/requester_filters/*; do
	echo "  ${f#$PTT/} = $(cat "$f")"
done

cd /tmp
echo "=== perf record -a -e hisi_ptt0_2/filter=0x00100,type=7,direction=2,format=1/ -- sleep 0.5"
perf record -o perf.data -a -e hisi_ptt0_2/filter=0x00100,type=7,direction=2,format=1/ -- sleep 0.5 2>&1 | sed 's/^/  /'
echo "=== perf report -D (inbound P, NP and CPL B TLPs of the NVMe drive 01:00.0, 8DW)"
perf report -D -i perf.data 2>/dev/null | grep -A 18 -m 1 'HISI PTT data' | sed 's/^/  /'
echo "=== perf record ... format=0 (4DW) of root port 00:11.0, outbound completions (outbound takes one type)"
perf record -o perf.data -a -e hisi_ptt0_2/filter=0x80004,type=4,direction=1,format=0/ -- sleep 0.5 >/dev/null 2>&1
perf report -D -i perf.data 2>/dev/null | grep -A 8 -m 1 'HISI PTT data' | sed 's/^/  /'

PMU=hisi_pcie0_core2
echo "=== PCIe PMU: $(cat /sys/bus/event_source/devices/$PMU/identifier) identifier, $(ls /sys/bus/event_source/devices/$PMU/events | wc -l) events"
echo "=== perf stat: DMA write latency of the NVMe drive's root port (configured 800 ns: 80 cycles of the 100 MHz clock-freq per TLP)"
perf stat -a -e "{$PMU/rx_mwr_latency,port=0x1/,$PMU/rx_mwr_cnt,port=0x1/}" -- sleep 1 2>&1 |
	grep -E 'hisi_pcie|elapsed' | sed 's/^/  /'
echo "=== perf stat: its DMA write bandwidth, payload only (configured 16 MB/s; time in 100 MHz cycles)"
perf stat -a -e "{$PMU/rx_mwr_flux,port=0x1,len_mode=1/,$PMU/rx_mwr_time,port=0x1,len_mode=1/}" -- sleep 1 2>&1 |
	grep -E 'hisi_pcie|elapsed' | sed 's/^/  /'

NIC=hns3_pmu_sicl_0
echo "=== HNS3 PMU: $(cat /sys/bus/event_source/devices/$NIC/identifier) identifier, $(ls /sys/bus/event_source/devices/$NIC/events | wc -l) events, cycles at $(cat /sys/bus/event_source/devices/$NIC/hw_clk_freq) Hz"
echo "=== perf stat: packets received by NIC function 01:00.0, 4 queues (configured 400000/s)"
perf stat -a -e "{$NIC/pps_ssu_rpu_packet_num,bdf=0x100,queue=0xffff/,$NIC/pps_ssu_rpu_time,bdf=0x100,queue=0xffff/}" -- sleep 1 2>&1 |
	grep -E 'hns3_pmu|elapsed' | sed 's/^/  /'
echo "=== perf stat: their bytes (configured 400 MB/s) and the RPU's latency (375 ns)"
perf stat -a -e "{$NIC/bw_ssu_rpu_byte_num,bdf=0x100,queue=0xffff/,$NIC/bw_ssu_rpu_time,bdf=0x100,queue=0xffff/}" -e "{$NIC/dly_rpu_time,global=1/,$NIC/dly_rpu_packet_num,global=1/}" -- sleep 1 2>&1 |
	grep -E 'hns3_pmu|elapsed' | sed 's/^/  /'

echo "=== CCN PMU: $(ls /sys/bus/event_source/devices/ccn/events | wc -l) events; perf stat of HN-F node 2 (2 M requests/s) and the DAT flits passing XP 1 on ring bus 0"
perf stat -a -e ccn/cycles/ -e ccn/hnf_pocq_reqs_recvd,node=2/ -e ccn/hnf_cache_miss,node=2/ -e ccn/xp_valid_flit,xp=1,vc=3,bus=0/ -- sleep 1 2>&1 |
	grep -E 'ccn/|elapsed' | sed 's/^/  /'
