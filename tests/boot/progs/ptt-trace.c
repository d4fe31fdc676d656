// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ptt-trace: take an AUX trace from a hisi_ptt PMU with perf_event_open and
 * check every record against the trace settings and the PCI topology.
 *
 * usage: ptt-trace --pmu NAME --filter V --type T --direction D --format F
 *                  --map EP:PORT[,EP:PORT...] [--ms N] [--dump N]
 *                  [--check 0] [--relative-time 1] [--aux-mb N] [--aux-ro 1]
 *                  [--drain 0] [--stall-ms N] [--ready FILE] [--times 1]
 *                  [--ram LO-HI] [--aux-watermark-kb N]
 *
 * --map gives each endpoint BDF (hex) with its root port BDF; the filter
 * decides which endpoints may appear (a requester filter: that one; a root
 * port filter: those below the ports in its mask). Each record must have a
 * valid TLP header whose kind is in --type, whose direction the --direction
 * allows for the --format, and which belongs to an allowed endpoint.
 * --check 0 only drains and counts bytes, for measuring the drain rate.
 * --relative-time 1 hashes each record with its time stamp taken from the
 * first record's, so that the same traffic traced from another start time
 * (another driver, a later trace) gives the same hash.
 * --aux-mb sets the AUX area size in MiB (default 16, perf's for the PMU: a
 * driver that can write into it writes there directly) and --aux-ro 1 maps
 * it read-only, perf's overwrite (snapshot) mode: the trace goes round the
 * area and the records checked are those it holds when the trace is
 * disabled, up to aux_head. A failed mmap prints "# mmap aux: <strerror>".
 * --drain 0 reads the records but never gives the space back (aux_tail
 * stays 0), as a reader that cannot keep up; --stall-ms N does so for the
 * first N ms only. --aux-watermark-kb sets perf_event_attr::aux_watermark,
 * which also bounds the size of the chunks perf allocates the area in.
 * --ready FILE creates FILE once the trace is enabled,
 * for a script that must act while it runs.
 * --times 1 prints "# times start_ns=S enabled_ns=E first=T" before the
 * summary: the guest's virtual time in ns (the virtual counter, which QEMU
 * derives from its virtual clock, the one the device time-stamps with)
 * rounded down just before the trace is enabled and rounded up just after,
 * so the driver's DMA reset, time 0 of the records, lies in [S, E]; and T,
 * the time stamp of the first record (with --format 1: 32 bits of ns), or
 * "none".
 * --ram LO-HI (hex) gives the guest's RAM: ram_out counts the endpoints'
 * memory requests to addresses outside it (an MSI's write, say).
 * The AUX buffer is drained while the trace runs, as perf record does
 * (woken by the event when the AUX watermark is crossed, at least every
 * 5 ms), and read as perf's decoders read
 * it: the records checked are those in the ranges the PERF_RECORD_AUX
 * records of the event's ring buffer give (in overwrite mode: what the area
 * holds up to aux_head), so bytes a driver skipped are not taken for
 * records. Prints one summary line
 * "records=N P=.. NP=.. CPL=.. in=.. out=.. payload_dw=.. cfg=.. ram_out=..
 * bytes=.. records_per_s=.. MBps=.. hash=.." (cfg: configuration requests;
 * records_per_s and MBps: over the time the trace ran, which a starved guest
 * oversleeping --ms stretches; stamp_rate: with --format 1, the records a
 * second between the first and the last record's time stamps, the
 * device's own time, which no scheduling of the guest skews;
 * last_data_ms: when the AUX buffer last grew while the trace ran, well
 * short of --ms for a trace the driver gave up; enabled_ms: how long the
 * event was enabled, short of --ms when perf disabled it; aux_gap: AUX bytes up to
 * aux_head that no PERF_RECORD_AUX covers; hash: FNV-1a of the
 * checked records' bytes)
 * and exits 0 when there were records and all were right.
 */
#include <errno.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static uint64_t aux_size = 16u << 20;
#define DATA_PAGES	8
#define MAX_EPS		32
#define FILTER_IS_PORT	(1u << 19)

struct ep {
	unsigned int bdf, port;
};

static struct ep eps[MAX_EPS];
static unsigned int n_eps;
static unsigned int filter, types = 7, direction, format, check = 1, relative_time;
/* --ram: guest RAM, [ram_lo, ram_hi] */
static uint64_t ram_lo, ram_hi = UINT64_MAX;
static unsigned long errors;
static uint32_t first_stamp;	/* time stamp of record 0 */
static uint64_t stamp_span;	/* ns from record 0's time stamp to the last's */
static uint64_t hash = 0xcbf29ce484222325ull;	/* FNV-1a of the records */
static uint64_t aux_covered;	/* AUX bytes the PERF_RECORD_AUX records cover */

static void fail(unsigned long rec, const char *what, const uint32_t *dw,
		 unsigned int ndw)
{
	if (errors++ < 10) {
		printf("# record %lu: %s:", rec, what);
		for (unsigned int i = 0; i < ndw; i++)
			printf(" %08x", dw[i]);
		printf("\n");
	}
}

static int port_selected(unsigned int port)
{
	unsigned int slot = (port >> 3) & 0x1f;

	return filter & (1u << ((slot & 7) << 1));
}

static int ep_allowed(unsigned int bdf)
{
	for (unsigned int i = 0; i < n_eps; i++) {
		if (eps[i].bdf != bdf)
			continue;
		if (filter & FILTER_IS_PORT)
			return port_selected(eps[i].port);
		return (filter & 0xffff) == bdf;
	}
	return 0;
}

static int is_port(unsigned int bdf)
{
	for (unsigned int i = 0; i < n_eps; i++)
		if (eps[i].port == bdf)
			return 1;
	return 0;
}

/* An outbound request's requester is a root port: one with an allowed endpoint */
static int port_of_allowed_ep(unsigned int port)
{
	for (unsigned int i = 0; i < n_eps; i++)
		if (eps[i].port == port && ep_allowed(eps[i].bdf))
			return 1;
	return 0;
}

struct counts {
	unsigned long records, p, np, cpl, in, out, payload_dw, cfg, ram_out;
};

/* Check one TLP header (hdr[0..3]); @rec numbers the record for messages. */
static void check_tlp(unsigned long rec, const uint32_t *hdr, struct counts *c)
{
	unsigned int fmt = hdr[0] >> 29, type = (hdr[0] >> 24) & 0x1f;
	unsigned int len = hdr[0] & 0x3ff ? hdr[0] & 0x3ff : 1024;
	unsigned int id1 = hdr[1] >> 16, id2 = hdr[2] >> 16;
	int kind, out, ep_ok, dir_ok, cpl;
	uint64_t addr;

	if (type == 0x00 && fmt <= 3) {
		kind = fmt & 2 ? 1 : 2;			/* MWr: P, MRd: NP */
		out = is_port(id1);
		ep_ok = out ? port_of_allowed_ep(id1) : ep_allowed(id1);
		if ((fmt & 1) ? hdr[2] == 0 : hdr[3] != 0)
			fail(rec, "bad address for the header size", hdr, 4);
		if ((fmt & 1 ? hdr[3] : hdr[2]) & 3)
			fail(rec, "address not DW aligned", hdr, 4);
		addr = fmt & 1 ? (uint64_t)hdr[2] << 32 | hdr[3] : hdr[2];
		if (!out && (addr < ram_lo || addr > ram_hi))
			c->ram_out++;
	} else if ((type == 0x02 || type == 0x04 || type == 0x05) &&
		   (fmt == 0 || fmt == 2)) {
		/* IORd/IOWr, CfgRd/CfgWr: the root port's, one DW, non-posted */
		kind = 2;
		out = 1;
		ep_ok = port_of_allowed_ep(id1) &&
			(type == 0x02 || ep_allowed(hdr[2] >> 16));
		if ((hdr[0] & 0x3ff) != 1 || hdr[3])
			fail(rec, "I/O or configuration request not of one DW", hdr, 4);
		c->cfg += type != 0x02;
	} else if (type == 0x0a && (fmt == 2 || fmt == 0)) {
		kind = 4;				/* CplD, Cpl */
		out = is_port(id1);
		ep_ok = ep_allowed(out ? id2 : id1);
		if (fmt == 2 && (hdr[1] & 0xfff) != ((len * 4) & 0xfff))
			fail(rec, "byte count does not match length", hdr, 4);
		if (fmt == 0 && (hdr[1] & 0xfff) != 4)
			fail(rec, "completion without data of byte count not 4", hdr, 4);
		if ((hdr[1] >> 13) & 7)
			fail(rec, "completion status not successful", hdr, 4);
	} else {
		fail(rec, "not a memory, I/O, configuration or completion header", hdr, 4);
		return;
	}
	if (!(types & kind))
		fail(rec, "TLP type not selected", hdr, 4);
	if (!ep_ok)
		fail(rec, "TLP of an endpoint the filter excludes", hdr, 4);
	/*
	 * The header does not tell CPL A from CPL B apart, so directions 2
	 * and 3 are checked for the direction only, and 8DW direction 3 for
	 * inbound completions.
	 */
	cpl = kind == 4;
	if (format)
		dir_ok = direction == 1 ? out : direction == 2 ? !out :
			 direction == 3 ? !out && cpl : 0;
	else
		dir_ok = direction == 0 ? !out : direction == 1 ? out : 1;
	if (!dir_ok)
		fail(rec, "direction not selected", hdr, 4);
	c->records++;
	c->p += kind == 1;
	c->np += kind == 2;
	c->cpl += cpl;
	c->out += out;
	c->in += !out;
	if (fmt & 2)
		c->payload_dw += len;
}

/* Check the records in AUX bytes [from, to) (offsets grow without wrapping). */
static void consume(const uint8_t *aux, uint64_t from, uint64_t to,
		    struct counts *c, unsigned long dump)
{
	static uint32_t last_time, first_time;
	static unsigned long seen;	/* records consumed before */
	unsigned int rec_size = format ? 32 : 16;

	if ((to - from) % rec_size)
		fail(0, "trace size not a whole number of records", NULL, 0);
	for (uint64_t off = from; off + rec_size <= to; off += rec_size) {
		const uint32_t *dw = (const uint32_t *)(aux + off % aux_size);
		unsigned long rec = seen++;
		uint32_t hdr[4], hashed[8];

		memcpy(hashed, dw, rec_size);
		if (!rec)
			first_stamp = format ? dw[7] : dw[0] & 0x7ff;
		if (relative_time) {
			if (!rec)
				first_time = format ? dw[7] : dw[0] & 0x7ff;
			if (format)
				hashed[7] -= first_time;
			else
				hashed[0] = (dw[0] & ~0x7ffu) | ((dw[0] - first_time) & 0x7ff);
		}
		for (unsigned int i = 0; i < rec_size; i++)
			hash = (hash ^ ((const uint8_t *)hashed)[i]) * 0x100000001b3ull;
		if (rec < dump) {
			printf("# record %lu:", rec);
			for (unsigned int i = 0; i < rec_size / 4; i++)
				printf(" %08x", dw[i]);
			printf("\n");
		}
		if (format) {
			if (dw[0] != 0xffffffff || dw[6] != 0)
				fail(rec, "not an 8DW record", dw, 8);
			/*
			 * The stamp is the low 32 bits of the ns time: it wraps
			 * every 4.3 s, and only a step of more than half that
			 * range is one back.
			 */
			if (rec && (int32_t)(dw[7] - last_time) < 0)
				fail(rec, "time stamp went back", dw, 8);
			if (rec)
				stamp_span += dw[7] - last_time;
			last_time = dw[7];
			memcpy(hdr, dw + 2, sizeof(hdr));
		} else {
			if ((dw[0] & 0xfffff800) == 0xfffff800)
				fail(rec, "8DW mark in a 4DW trace", dw, 4);
			/* Rebuild header DW0 from Fmt[1:0], Type and Length. */
			hdr[0] = (dw[0] >> 30) << 29 | ((dw[0] >> 25) & 0x1f) << 24 |
				 ((dw[0] >> 11) & 0x3ff);
			memcpy(hdr + 1, dw + 1, 3 * sizeof(uint32_t));
		}
		check_tlp(rec, hdr, c);
	}
}

/*
 * Check the AUX ranges of the PERF_RECORD_AUX records that came since the
 * last call, and give their space in the event's ring buffer back.
 */
static void consume_records(struct perf_event_mmap_page *up, const uint8_t *aux,
			    struct counts *c, unsigned long dump)
{
	const uint8_t *data = (const uint8_t *)up + up->data_offset;
	uint64_t head = __atomic_load_n(&up->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = up->data_tail;

	while (tail < head) {
		struct {
			struct perf_event_header hdr;
			uint64_t offset, size, flags;
		} rec;
		uint8_t *dst = (uint8_t *)&rec;
		uint64_t len = sizeof(rec.hdr);

		/* A record may wrap round the end of the ring. */
		for (uint64_t i = 0; i < len; i++) {
			dst[i] = data[(tail + i) % up->data_size];
			if (i + 1 == sizeof(rec.hdr) && rec.hdr.type == PERF_RECORD_AUX)
				len = sizeof(rec);
		}
		if (rec.hdr.type == PERF_RECORD_AUX) {
			if (check)
				consume(aux, rec.offset, rec.offset + rec.size, c, dump);
			aux_covered += rec.size;
		}
		tail += rec.hdr.size;
	}
	__atomic_store_n(&up->data_tail, tail, __ATOMIC_RELEASE);
}

static double seconds_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) + (t.tv_nsec - t0->tv_nsec) / 1e9;
}

static unsigned long num(const char *s)
{
	char *end;
	unsigned long v = strtoul(s, &end, 0);

	if (*s == '\0' || *end != '\0') {
		fprintf(stderr, "ptt-trace: bad number '%s'\n", s);
		exit(2);
	}
	return v;
}

/* Virtual time in ns from the virtual counter, rounded down (@up: up) */
static uint64_t counter_ns(int up)
{
	uint64_t cnt, frq;

	__asm__ volatile("isb; mrs %0, cntvct_el0" : "=r"(cnt) : : "memory");
	__asm__ volatile("mrs %0, cntfrq_el0" : "=r"(frq));
	if (up)
		return ((__uint128_t)(cnt + 1) * 1000000000u + frq - 1) / frq;
	return (__uint128_t)cnt * 1000000000u / frq;
}

static int read_pmu_type(const char *pmu)
{
	char path[256];
	FILE *f;
	int type = -1;

	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", pmu);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%d", &type) != 1) {
		fprintf(stderr, "ptt-trace: no PMU %s\n", pmu);
		exit(2);
	}
	fclose(f);
	return type;
}

int main(int argc, char **argv)
{
	const char *pmu = NULL, *ready = NULL;
	unsigned long ms = 200, dump = 0, aux_ro = 0, drain = 1, times = 0;
	unsigned long stall_ms = 0;
	uint64_t enabled_time[2];	/* count (none), time enabled in ns */
	uint64_t start_ns, enabled_ns;
	struct perf_event_attr attr = { .size = sizeof(attr) };
	struct perf_event_mmap_page *up;
	long page = sysconf(_SC_PAGESIZE);
	struct counts c = { 0 };
	struct pollfd pfd = { .events = POLLIN };
	struct timespec t0;
	uint8_t *aux;
	uint64_t head, tail = 0;
	double secs, last_data = 0;
	int fd;

	for (int i = 1; i + 1 < argc; i += 2) {
		const char *o = argv[i], *v = argv[i + 1];

		if (!strcmp(o, "--pmu")) {
			pmu = v;
		} else if (!strcmp(o, "--filter")) {
			filter = num(v);
		} else if (!strcmp(o, "--type")) {
			types = num(v);
		} else if (!strcmp(o, "--direction")) {
			direction = num(v);
		} else if (!strcmp(o, "--format")) {
			format = num(v);
		} else if (!strcmp(o, "--ms")) {
			ms = num(v);
		} else if (!strcmp(o, "--check")) {
			check = num(v);
		} else if (!strcmp(o, "--ready")) {
			ready = v;
		} else if (!strcmp(o, "--ram")) {
			if (sscanf(v, "%" SCNx64 "-%" SCNx64, &ram_lo, &ram_hi) != 2) {
				fprintf(stderr, "ptt-trace: bad --ram '%s'\n", v);
				exit(2);
			}
		} else if (!strcmp(o, "--relative-time")) {
			relative_time = num(v);
		} else if (!strcmp(o, "--aux-mb")) {
			aux_size = (uint64_t)num(v) << 20;
		} else if (!strcmp(o, "--aux-ro")) {
			aux_ro = num(v);
		} else if (!strcmp(o, "--drain")) {
			drain = num(v);
		} else if (!strcmp(o, "--stall-ms")) {
			stall_ms = num(v);
		} else if (!strcmp(o, "--aux-watermark-kb")) {
			attr.aux_watermark = num(v) << 10;
		} else if (!strcmp(o, "--times")) {
			times = num(v);
		} else if (!strcmp(o, "--dump")) {
			dump = num(v);
		} else if (!strcmp(o, "--map")) {
			char *s = strdup(v), *tok, *save;

			for (tok = strtok_r(s, ",", &save); tok && n_eps < MAX_EPS;
			     tok = strtok_r(NULL, ",", &save)) {
				if (sscanf(tok, "%x:%x", &eps[n_eps].bdf,
					   &eps[n_eps].port) != 2) {
					fprintf(stderr, "ptt-trace: bad --map entry %s\n", tok);
					return 2;
				}
				n_eps++;
			}
			free(s);
		} else {
			fprintf(stderr, "ptt-trace: unknown option %s\n", o);
			return 2;
		}
	}
	if (!pmu || !n_eps) {
		fprintf(stderr, "usage: ptt-trace --pmu NAME --map EP:PORT,... [options]\n");
		return 2;
	}

	attr.type = read_pmu_type(pmu);
	attr.config = (filter & 0xfffff) | (uint64_t)(direction & 0xf) << 20 |
		      (uint64_t)(types & 0xff) << 24 | (uint64_t)(format & 0xf) << 32;
	attr.disabled = 1;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED;
	fd = syscall(SYS_perf_event_open, &attr, -1, 0, -1, 0);
	pfd.fd = fd;
	if (fd < 0) {
		printf("# perf_event_open: %s\n", strerror(errno));
		return 1;
	}
	up = mmap(NULL, (1 + DATA_PAGES) * page, PROT_READ | PROT_WRITE,
		  MAP_SHARED, fd, 0);
	if (up == MAP_FAILED) {
		printf("# mmap: %s\n", strerror(errno));
		return 1;
	}
	up->aux_offset = (1 + DATA_PAGES) * page;
	up->aux_size = aux_size;
	aux = mmap(NULL, aux_size, aux_ro ? PROT_READ : PROT_READ | PROT_WRITE,
		   MAP_SHARED, fd, up->aux_offset);
	if (aux == MAP_FAILED) {
		printf("# mmap aux: %s\n", strerror(errno));
		return 1;
	}
	start_ns = counter_ns(0);
	if (ioctl(fd, PERF_EVENT_IOC_ENABLE, 0)) {
		printf("# enable: %s\n", strerror(errno));
		return 1;
	}
	enabled_ns = counter_ns(1);
	if (ready) {
		FILE *f = fopen(ready, "w");

		if (!f) {
			printf("# %s: %s\n", ready, strerror(errno));
			return 1;
		}
		fclose(f);
	}
	/*
	 * Drain the AUX buffer as the trace runs, as perf does, so that the
	 * driver always has room for the next 4 MiB buffer. In overwrite
	 * mode aux_head moves when the trace stops.
	 */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		/* As perf: woken when the AUX watermark is crossed */
		poll(&pfd, 1, 5);
		if (aux_ro)
			continue;
		head = __atomic_load_n(&up->aux_head, __ATOMIC_ACQUIRE);
		if (head != tail)
			last_data = seconds_since(&t0);
		consume_records(up, aux, &c, dump);
		tail = head;
		if (drain && seconds_since(&t0) * 1000 >= stall_ms)
			__atomic_store_n(&up->aux_tail, tail, __ATOMIC_RELEASE);
	} while (seconds_since(&t0) * 1000 < ms);
	/* Enabled time stops when perf disables the event (its AUX area full) */
	if (read(fd, enabled_time, sizeof(enabled_time)) != sizeof(enabled_time))
		enabled_time[1] = 0;
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	secs = seconds_since(&t0);
	head = __atomic_load_n(&up->aux_head, __ATOMIC_ACQUIRE);
	if (aux_ro) {
		/* The snapshot: the area's last round up to the head */
		if (check)
			consume(aux, head > aux_size ? head - aux_size : 0, head,
				&c, dump);
	} else {
		consume_records(up, aux, &c, dump);
	}
	if (times && c.records)
		printf("# times start_ns=%llu enabled_ns=%llu first=%u\n",
		       (unsigned long long)start_ns,
		       (unsigned long long)enabled_ns, first_stamp);
	else if (times)
		printf("# times start_ns=%llu enabled_ns=%llu first=none\n",
		       (unsigned long long)start_ns,
		       (unsigned long long)enabled_ns);
	printf("records=%lu P=%lu NP=%lu CPL=%lu in=%lu out=%lu payload_dw=%lu cfg=%lu ram_out=%lu bytes=%llu records_per_s=%.0f MBps=%.1f stamp_rate=%.0f last_data_ms=%.0f enabled_ms=%.0f aux_gap=%llu hash=%016llx errors=%lu\n",
	       c.records, c.p, c.np, c.cpl, c.in, c.out, c.payload_dw, c.cfg, c.ram_out,
	       (unsigned long long)head, c.records / secs, head / secs / 1e6,
	       stamp_span ? (c.records - 1) * 1e9 / stamp_span : 0.0,
	       last_data * 1000, enabled_time[1] / 1e6,
	       (unsigned long long)(aux_ro ? 0 : head - aux_covered),
	       (unsigned long long)hash, errors);
	return (c.records || !check) && head && !errors ? 0 : 1;
}
