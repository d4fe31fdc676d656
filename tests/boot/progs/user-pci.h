/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A PCI function driven from user space, for the test programs that play
 * a device's driver (edu-dma) or a kernel that left one running
 * (ptt-leftover, bar-rw). No IOMMU in the guest: a page's physical address
 * is its bus address.
 */
#ifndef USER_PCI_H
#define USER_PCI_H

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define PAGE		4096

static inline void die(const char *what)
{
	perror(what);
	exit(1);
}

/* Write @val to the function's sysfs file @name (relative to @dir) */
static inline void sysfs_write(const char *dir, const char *name, const char *val)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY);
	if (fd < 0 || write(fd, val, strlen(val)) != (ssize_t)strlen(val))
		die(path);
	close(fd);
}

/* Set Memory Space and Bus Master Enable in the Command register */
static inline void bus_master(const char *dir)
{
	char path[256];
	uint16_t cmd;
	int fd;

	snprintf(path, sizeof(path), "%s/config", dir);
	fd = open(path, O_RDWR);
	if (fd < 0 || pread(fd, &cmd, 2, 4) != 2)
		die(path);
	cmd |= 0x6;
	if (pwrite(fd, &cmd, 2, 4) != 2)
		die(path);
	close(fd);
}

/* BAR @bar of the function at @dir, @size bytes of it, mapped uncached */
static inline uint32_t *map_bar(const char *dir, int bar, size_t size)
{
	char path[256];
	void *p;
	int fd;

	snprintf(path, sizeof(path), "%s/resource%d", dir, bar);
	fd = open(path, O_RDWR | O_SYNC);
	if (fd < 0)
		die(path);
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		die("mmap");
	close(fd);
	return p;
}

/* The physical address of the page at @p, which must be resident */
static inline uint64_t phys(const void *p)
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
static inline uint32_t reg_read(const uint32_t *regs, unsigned int off)
{
	return __atomic_load_n(&regs[off / 4], __ATOMIC_RELAXED);
}

static inline void reg_write(uint32_t *regs, unsigned int off, uint32_t val)
{
	__atomic_store_n(&regs[off / 4], val, __ATOMIC_RELAXED);
}

/* A 64-bit register, in one access */
static inline uint64_t reg_read64(const uint32_t *regs, unsigned int off)
{
	return __atomic_load_n((const uint64_t *)&regs[off / 4], __ATOMIC_RELAXED);
}

static inline void reg_write64(uint32_t *regs, unsigned int off, uint64_t val)
{
	__atomic_store_n((uint64_t *)&regs[off / 4], val, __ATOMIC_RELAXED);
}

#endif
