// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ptt-leftover: what a kernel that kexec'd into the next one without
 * stopping its PTT trace leaves behind, played from user space with no
 * driver bound: the PTT tracing, its DMA aimed at pages that are no longer
 * the new kernel's business (here, this program's), bus mastering on.
 *
 * usage: ptt-leftover BDF   start such a trace, print "tracing", stay until
 *                           SIGTERM or SIGINT, then stop the trace (so that
 *                           no DMA outlives the pages) and exit
 *
 * A driver that binds meanwhile takes the BAR (Debian's kernels revoke user
 * mappings of a claimed region): unbind it before the signal, so that the
 * program can map the BAR again to stop the trace.
 *
 * The trace: every type, inbound, 4DW, root port filter 0x1, into four
 * one-page buffers, buffer interrupts masked (the vector is not ours).
 */
#include <signal.h>

#include "user-pci.h"

#define PTT_BAR			2
#define PTT_BAR_SIZE		PAGE
#define PTT_ADDR_SIZE		0x0800
#define PTT_ADDR_BASE_LO(i)	(0x0810 + (i) * 8)
#define PTT_ADDR_BASE_HI(i)	(0x0814 + (i) * 8)
#define PTT_CTRL		0x0850
#define PTT_CTRL_EN		0x1
#define PTT_CTRL_TYPE_ALL	(0x7 << 4)
#define PTT_CTRL_TARGET(x)	((uint32_t)(x) << 16)
#define PTT_INT_STAT		0x0890
#define PTT_INT_MASK		0x0894
#define PTT_INT_ALL		0xf
#define PTT_NR_BUFS		4

int main(int argc, char **argv)
{
	sigset_t stop;
	int sig;
	uint8_t *bufs;
	uint32_t *regs;
	char dir[128];
	uint64_t bus;

	if (argc != 2) {
		fprintf(stderr, "usage: ptt-leftover BDF\n");
		return 2;
	}
	snprintf(dir, sizeof(dir), "/sys/bus/pci/devices/%s", argv[1]);
	sysfs_write(dir, "enable", "1");
	bus_master(dir);
	regs = map_bar(dir, PTT_BAR, PTT_BAR_SIZE);
	if (posix_memalign((void **)&bufs, PAGE, PTT_NR_BUFS * PAGE))
		die("posix_memalign");
	memset(bufs, 0, PTT_NR_BUFS * PAGE);
	if (mlock(bufs, PTT_NR_BUFS * PAGE))
		die("mlock");
	/* Blocked here, taken by sigwait() below: the signal ends the wait. */
	sigemptyset(&stop);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGINT);
	if (sigprocmask(SIG_BLOCK, &stop, NULL))
		die("sigprocmask");

	reg_write(regs, PTT_ADDR_SIZE, PAGE);
	for (int i = 0; i < PTT_NR_BUFS; i++) {
		bus = phys(bufs + i * PAGE);
		reg_write(regs, PTT_ADDR_BASE_LO(i), (uint32_t)bus);
		reg_write(regs, PTT_ADDR_BASE_HI(i), (uint32_t)(bus >> 32));
	}
	reg_write(regs, PTT_INT_MASK, PTT_INT_ALL);
	reg_write(regs, PTT_INT_STAT, PTT_INT_ALL);
	reg_write(regs, PTT_CTRL, PTT_CTRL_EN | PTT_CTRL_TYPE_ALL |
		  PTT_CTRL_TARGET(0x1));
	if (!(reg_read(regs, PTT_CTRL) & PTT_CTRL_EN)) {
		fprintf(stderr, "the trace did not start\n");
		return 1;
	}
	printf("tracing\n");
	fflush(stdout);

	if (sigwait(&stop, &sig))
		die("sigwait");
	munmap(regs, PTT_BAR_SIZE);
	regs = map_bar(dir, PTT_BAR, PTT_BAR_SIZE);
	reg_write(regs, PTT_CTRL, 0);
	return 0;
}
