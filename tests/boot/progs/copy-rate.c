// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * copy-rate: the guest's own memory copy rate, in the blocks a PTT driver
 * copies (4 MiB, from one of four buffers into a 16 MiB ring), for
 * bench/ptt-guest-drain to set the drain rates against.
 *
 * usage: copy-rate MS   copy for MS milliseconds, then print
 *                       "copy_bytes=.. copy_MBps=.."
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BLOCK		(4u << 20)
#define NR_BLOCKS	4

static double seconds(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	unsigned long ms = argc == 2 ? strtoul(argv[1], NULL, 0) : 0;
	uint8_t *src, *dst;
	uint64_t bytes = 0;
	double t0, secs;
	unsigned int i = 0;

	if (!ms) {
		fprintf(stderr, "usage: copy-rate MS\n");
		return 2;
	}
	src = malloc((size_t)BLOCK * NR_BLOCKS);
	dst = malloc((size_t)BLOCK * NR_BLOCKS);
	if (!src || !dst) {
		perror("malloc");
		return 1;
	}
	/* Touch every page first: the copy is timed, not the page faults. */
	memset(src, 0x5a, (size_t)BLOCK * NR_BLOCKS);
	memset(dst, 0, (size_t)BLOCK * NR_BLOCKS);
	t0 = seconds();
	do {
		memcpy(dst + (size_t)(i % NR_BLOCKS) * BLOCK,
		       src + (size_t)((i + 1) % NR_BLOCKS) * BLOCK, BLOCK);
		bytes += BLOCK;
		i++;
	} while ((secs = seconds() - t0) * 1000 < ms);
	/* dst is read, so the copies cannot be dropped */
	printf("copy_bytes=%llu copy_MBps=%.1f check=%u\n",
	       (unsigned long long)bytes, bytes / secs / 1e6,
	       dst[(size_t)BLOCK * NR_BLOCKS - 1]);
	return 0;
}
