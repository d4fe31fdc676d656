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
#include "user-pci.h"

#define EDU_LIVENESS	0x04
#define EDU_DMA_SRC	0x80
#define EDU_DMA_DST	0x88
#define EDU_DMA_CNT	0x90
#define EDU_DMA_CMD	0x98
#define EDU_DMA_RUN	0x1
#define EDU_DMA_TO_RAM	0x2
#define EDU_DMA_BUF	0x40000
#define BAR_SIZE	(1 << 20)

static uint32_t *regs;

/* One DMA of @len bytes between RAM at @ram and the edu's buffer */
static void dma(uint64_t ram, uint32_t len, int to_ram)
{
	reg_write(regs, EDU_DMA_SRC, to_ram ? EDU_DMA_BUF : ram);
	reg_write(regs, EDU_DMA_DST, to_ram ? ram : EDU_DMA_BUF);
	reg_write(regs, EDU_DMA_CNT, len);
	reg_write(regs, EDU_DMA_CMD, EDU_DMA_RUN | (to_ram ? EDU_DMA_TO_RAM : 0));
	while (reg_read(regs, EDU_DMA_CMD) & EDU_DMA_RUN)
		usleep(1000);
}

int main(int argc, char **argv)
{
	char dir[128];
	unsigned long rounds;
	uint8_t *src, *dst;
	uint64_t src_bus, dst_bus;

	if (argc != 3) {
		fprintf(stderr, "usage: edu-dma BDF ROUNDS\n");
		return 2;
	}
	rounds = strtoul(argv[2], NULL, 0);
	snprintf(dir, sizeof(dir), "/sys/bus/pci/devices/%s", argv[1]);
	sysfs_write(dir, "enable", "1");
	bus_master(dir);
	regs = map_bar(dir, 0, BAR_SIZE);
	if (posix_memalign((void **)&src, PAGE, 2 * PAGE))
		die("posix_memalign");
	dst = src + PAGE;
	memset(src, 0, 2 * PAGE);
	if (mlock(src, 2 * PAGE))
		die("mlock");
	src_bus = phys(src);
	dst_bus = phys(dst);
	/* The edu's liveness check: it reads back the inverse */
	reg_write(regs, EDU_LIVENESS, 0x12345678);
	if (reg_read(regs, EDU_LIVENESS) != ~0x12345678u) {
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
