// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mmio-bench: the cost of reading a PMU counter register against a
 * constant register, through the BAR 2 mapping of sysfs (the driver must
 * not be bound).
 *
 * usage: mmio-bench PCI-DEVICE-DIR READS [hns3]
 * A hisi-pcie-pmu counts rx_mwr flux on all ports, an hns3-pmu (hns3)
 * received packets of every function; then it prints one line:
 * "counter_ns=.. constant_ns=.. ratio=.."
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define ROUNDS		16

/* hisi-pcie-pmu */
#define GLOBAL_CTRL	0x000
#define EVENT_CTRL0	0x010
#define CNT0		0x090
#define REG_VERSION	0xfe4

/* hns3-pmu: slot 0 */
#define HNS3_CTRL_LOW0	0x1000
#define HNS3_COUNTER0	0x1010
#define HNS3_VERSION	0xfe4

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/* Device registers: single accesses the compiler may neither drop nor merge */
static uint32_t mmio_read32(uint8_t *bar, unsigned int off)
{
	return __atomic_load_n((uint32_t *)(bar + off), __ATOMIC_RELAXED);
}

static void mmio_write32(uint8_t *bar, unsigned int off, uint32_t val)
{
	__atomic_store_n((uint32_t *)(bar + off), val, __ATOMIC_RELAXED);
}

static void mmio_write64(uint8_t *bar, unsigned int off, uint64_t val)
{
	__atomic_store_n((uint64_t *)(bar + off), val, __ATOMIC_RELAXED);
}

/* ns per read of the 32-bit register at @off */
static double read_ns(uint8_t *bar, unsigned int off, long n)
{
	uint32_t sink = 0;
	double t0 = now();

	for (long i = 0; i < n; i++)
		sink += mmio_read32(bar, off);
	if (sink == 1)
		printf("#\n");
	return (now() - t0) * 1e9 / n;
}

int main(int argc, char **argv)
{
	char path[512];
	uint8_t *bar;
	double cnt_ns = 0, const_ns = 0;
	unsigned int cnt_off, const_off;
	int hns3;
	long n;
	int fd;

	n = argc >= 3 ? atol(argv[2]) : 0;
	hns3 = argc == 4 && !strcmp(argv[3], "hns3");
	if (n <= 0 || argc > 4 || (argc == 4 && !hns3)) {
		fprintf(stderr, "usage: mmio-bench PCI-DEVICE-DIR READS [hns3]\n");
		return 2;
	}
	snprintf(path, sizeof(path), "%s/resource2", argv[1]);
	fd = open(path, O_RDWR | O_SYNC);
	if (fd < 0) {
		perror(path);
		return 1;
	}
	/* the registers used: 4 KiB of a hisi-pcie-pmu, 8 of an hns3-pmu */
	bar = mmap(NULL, hns3 ? 0x2000 : 0x1000, PROT_READ | PROT_WRITE,
		   MAP_SHARED, fd, 0);
	if (bar == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	if (hns3) {
		/* pps_ssu_rpu_packet_num, global, enabled */
		mmio_write32(bar, HNS3_CTRL_LOW0, 0x1 | 0x2 << 4 | 1 << 12 | 1 << 15);
		cnt_off = HNS3_COUNTER0;
		const_off = HNS3_VERSION;
	} else {
		/* rx_mwr_flux on every port, enabled */
		mmio_write64(bar, EVENT_CTRL0, 0x0104 | 0xffffull << 36 |
			     3ull << 34 | 1ull << 20);
		cnt_off = CNT0;
		const_off = REG_VERSION;
	}
	mmio_write32(bar, GLOBAL_CTRL, 1);
	/* interleaved rounds, so both see the same machine state */
	for (int round = 0; round < ROUNDS; round++) {
		cnt_ns += read_ns(bar, cnt_off, n / ROUNDS);
		const_ns += read_ns(bar, const_off, n / ROUNDS);
	}
	printf("counter_ns=%.0f constant_ns=%.0f ratio=%.3f\n", cnt_ns / ROUNDS,
	       const_ns / ROUNDS, cnt_ns / const_ns);
	return 0;
}
