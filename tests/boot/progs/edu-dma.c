// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * edu-dma: drive QEMU's edu device (hw/misc/edu.c) from user space, for
 * real traffic that does not depend on host timing: its DMA engine runs
 * on the virtual clock, and the program's own register accesses are the
 * CPU's MMIO.
 *
 * usage: edu-dma BDF ROUNDS
 *
 * Each round writes a pattern into a page of the program's, has the edu
 * copy it into its buffer (DMA from RAM: MRd) and back into another page
 * (DMA to RAM: MWr), and checks the copy. The edu needs
 * -global edu.dma_mask=0xffffffffffffffff to reach the guest's RAM. The
 * program enables the function, its memory decoding and bus mastering, and
 * finds its pages' bus addresses in /proc/self/pagemap (no IOMMU: they are
 * the physical ones). Prints "rounds=N bytes=B" and exits 0 when every
 * copy came back intact.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define EDU_LIVENESS	0x04
#define EDU_DMA_SRC	0x80
#define EDU_DMA_DST	0x88
#define EDU_DMA_CNT	0x90
#define EDU_DMA_CMD	0x98
#define EDU_DMA_RUN	0x1
#define EDU_DMA_TO_RAM	0x2
#define EDU_DMA_BUF	0x40000
#define PAGE		4096
#define BAR_SIZE	(1 << 20)

static uint32_t *regs;

static void die(const char *what)
{
	perror(what);
	exit(1);
}

/* Write @val to the function's sysfs file @name (relative to @dir) */
static void sysfs_write(const char *dir, const char *name, const char *val)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY);
	if (fd < 0 || write(fd, val, strlen(val)) != (ssize_t)strlen(val))
		die(path);
	close(fd);
}

/* Set Bus Master Enable in the Command register */
static void bus_master(const char *dir)
{
	char path[256];
	uint16_t cmd;
	int fd;

	snprintf(path, sizeof(path), "%s/config", dir);
	fd = open(path, O_RDWR);
	if (fd < 0 || pread(fd, &cmd, 2, 4) != 2)
		die(path);
	cmd |= 0x6;	/* memory space, bus master */
	if (pwrite(fd, &cmd, 2, 4) != 2)
		die(path);
	close(fd);
}

/* The physical address of the page at @p, which must be resident */
static uint64_t phys(const void *p)
{
	uint64_t entry;
	int fd = open("/proc/self/pagemap", O_RDONLY);

	if (fd < 0 || pread(fd, &entry, 8, (uintptr_t)p / PAGE * 8) != 8)
		die("/proc/self/pagemap");
	close(fd);
	if (!(entry >> 63) || !(entry & ((1ull << 55) - 1))) {
		fprintf(stderr, "no physical address for %p\n", p);
		exit(1);
	}
	return (entry & ((1ull << 55) - 1)) * PAGE + (uintptr_t)p % PAGE;
}

/* Relaxed atomics: each access reaches the device, whole and once */
static uint32_t reg_read(unsigned int off)
{
	return __atomic_load_n(&regs[off / 4], __ATOMIC_RELAXED);
}

static void reg_write(unsigned int off, uint32_t val)
{
	__atomic_store_n(&regs[off / 4], val, __ATOMIC_RELAXED);
}

/* One DMA of @len bytes between RAM at @ram and the edu's buffer */
static void dma(uint64_t ram, uint32_t len, int to_ram)
{
	reg_write(EDU_DMA_SRC, to_ram ? EDU_DMA_BUF : ram);
	reg_write(EDU_DMA_DST, to_ram ? ram : EDU_DMA_BUF);
	reg_write(EDU_DMA_CNT, len);
	reg_write(EDU_DMA_CMD, EDU_DMA_RUN | (to_ram ? EDU_DMA_TO_RAM : 0));
	while (reg_read(EDU_DMA_CMD) & EDU_DMA_RUN)
		usleep(1000);
}

int main(int argc, char **argv)
{
	char dir[128], path[160];
	unsigned long rounds;
	uint8_t *src, *dst;
	uint64_t src_bus, dst_bus;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: edu-dma BDF ROUNDS\n");
		return 2;
	}
	rounds = strtoul(argv[2], NULL, 0);
	snprintf(dir, sizeof(dir), "/sys/bus/pci/devices/%s", argv[1]);
	sysfs_write(dir, "enable", "1");
	bus_master(dir);
	snprintf(path, sizeof(path), "%s/resource0", dir);
	fd = open(path, O_RDWR | O_SYNC);
	if (fd < 0)
		die(path);
	regs = mmap(NULL, BAR_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (regs == MAP_FAILED)
		die("mmap");
	if (posix_memalign((void **)&src, PAGE, 2 * PAGE))
		die("posix_memalign");
	dst = src + PAGE;
	memset(src, 0, 2 * PAGE);
	if (mlock(src, 2 * PAGE))
		die("mlock");
	src_bus = phys(src);
	dst_bus = phys(dst);
	/* The edu's liveness check: it reads back the inverse */
	reg_write(EDU_LIVENESS, 0x12345678);
	if (reg_read(EDU_LIVENESS) != ~0x12345678u) {
		fprintf(stderr, "edu liveness check failed\n");
		return 1;
	}
	for (unsigned long r = 0; r < rounds; r++) {
		for (int i = 0; i < PAGE; i++)
			src[i] = (uint8_t)(i * 7 + r);
		memset(dst, 0, PAGE);
		dma(src_bus, PAGE, 0);
		dma(dst_bus, PAGE, 1);
		if (memcmp(src, dst, PAGE)) {
			fprintf(stderr, "round %lu: the copy differs\n", r);
			return 1;
		}
	}
	printf("rounds=%lu bytes=%lu\n", rounds, rounds * 2 * PAGE);
	return 0;
}
