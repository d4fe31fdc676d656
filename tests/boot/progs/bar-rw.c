// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bar-rw: read or write one register of a PCI function's BAR from user
 * space, with no driver bound: the suites play a previous owner of a
 * device (a kexec'd kernel, a driver gone without cleaning up) that left
 * it running.
 *
 * usage: bar-rw [-q] BDF BAR OFFSET [VALUE]
 *   without VALUE, print the register (0x%08x, or 0x%016llx with -q);
 *   with VALUE, write it. -q: a 64-bit register, else 32-bit. OFFSET and
 *   VALUE in C notation (0x for hex). Memory space and bus mastering are
 *   switched on first.
 */
#include <errno.h>
#include <sys/stat.h>

#include "user-pci.h"

static uint64_t parse_u64(const char *text, const char *what)
{
	char *end;
	uint64_t v;

	errno = 0;
	v = strtoull(text, &end, 0);
	if (errno || end == text || *end) {
		fprintf(stderr, "bar-rw: %s '%s' is not a number\n", what, text);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	int wide = argc > 1 && !strcmp(argv[1], "-q");
	char dir[128], path[160];
	struct stat st;
	uint64_t off, bar, val;
	uint32_t *regs;

	argv += wide;
	argc -= wide;
	if (argc != 4 && argc != 5) {
		fprintf(stderr, "usage: bar-rw [-q] BDF BAR OFFSET [VALUE]\n");
		return 2;
	}
	bar = parse_u64(argv[2], "BAR");
	off = parse_u64(argv[3], "OFFSET");
	snprintf(dir, sizeof(dir), "/sys/bus/pci/devices/%s", argv[1]);
	snprintf(path, sizeof(path), "%s/resource%llu", dir, (unsigned long long)bar);
	if (bar > 5 || stat(path, &st))
		die(path);
	if (off % (wide ? 8 : 4) || off >= (uint64_t)st.st_size) {
		fprintf(stderr, "bar-rw: OFFSET must be aligned and inside the BAR's %lld bytes\n",
			(long long)st.st_size);
		return 2;
	}
	bus_master(dir);
	regs = map_bar(dir, bar, st.st_size);
	if (argc == 4) {
		if (wide)
			printf("0x%016llx\n", (unsigned long long)reg_read64(regs, off));
		else
			printf("0x%08x\n", reg_read(regs, off));
		return 0;
	}
	val = parse_u64(argv[4], "VALUE");
	if (wide)
		reg_write64(regs, off, val);
	else
		reg_write(regs, off, val);
	return 0;
}
