// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * perf-fuzz: a syscall fuzzer aimed at chosen PMUs. It opens perf events
 * on them with attributes drawn at random (a config from the PMU's events/
 * or none, its format/ fields set at random, mostly small values, the
 * filter field often one of the PMU's *_filters/ values, sometimes bits no
 * field names; the other attribute fields anywhere), and drives random
 * ioctl, read,
 * mmap (ring buffer and AUX area) and close calls on what opened, with up
 * to MAX_FDS events open at once, some in groups.
 *
 *   perf-fuzz [--seed N] [--calls N] [--user UID] PMU...
 *
 * With --user it runs as that user (then perf_event_paranoid must be -1
 * for CPU-wide events). The same seed gives the same calls. At the end it
 * prints, per PMU, the opens the kernel accepted and refused, by errno:
 *   "pmu=NAME type=T opened=N refused=N EINVAL=N ..."
 * then "calls=N open=N ioctl=N read=N mmap=N close=N seed=N". The kernel's
 * own reports (KASAN, lockdep, WARN) are what the run looks for; the guest
 * init turns them into a failure.
 */
#include <dirent.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_PMUS	8
#define MAX_FORMATS	24
#define MAX_EVENTS	64
#define MAX_FILTERS	16
#define MAX_FDS		16
#define PAGE		4096UL
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

struct format {
	char name[32];
	int word;		/* 0: config, 1: config1, 2: config2 */
	uint64_t mask;
};

/* The attribute words an events/ entry sets */
struct event {
	uint64_t word[3];
};

struct pmu {
	const char *name;
	uint32_t type;
	int cpu;		/* the first CPU of its cpumask, or -1 */
	struct format formats[MAX_FORMATS];
	int nr_formats;
	struct event events[MAX_EVENTS];
	int nr_events;
	uint64_t filters[MAX_FILTERS];	/* values of the "filter" field */
	int nr_filters;
	unsigned long opened;
	unsigned long refused[140];	/* by errno */
};

struct slot {
	int fd;
	void *ring;
	size_t ring_len;
	void *aux;
	size_t aux_len;
};

static struct pmu pmus[MAX_PMUS];
static int nr_pmus;
static struct slot slots[MAX_FDS];
static unsigned long counts[5];
static const char *const op_names[] = { "open", "ioctl", "read", "mmap", "close" };
static uint64_t rng_state;

/* xorshift64*: the same seed, the same calls */
static uint64_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

static unsigned int below(unsigned int n)
{
	return rnd() % n;
}

/* true with probability @pct percent */
static int chance(unsigned int pct)
{
	return below(100) < pct;
}

/* @val's low bits spread over the set bits of @mask (a pdep) */
static uint64_t deposit(uint64_t mask, uint64_t val)
{
	uint64_t out = 0;
	int bit;

	for (bit = 0; bit < 64; bit++) {
		if (!(mask & (1ULL << bit)))
			continue;
		if (val & 1)
			out |= 1ULL << bit;
		val >>= 1;
	}
	return out;
}

static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return -1;
	ok = fgets(buf, len, f) != NULL;
	fclose(f);
	return ok ? 0 : -1;
}

/* "config1:0-15,32" -> word 1, bits 0-15 and 32 */
static int parse_format(const char *text, struct format *fmt)
{
	const char *p = strchr(text, ':');
	unsigned int lo, hi;
	int n;

	if (!p)
		return -1;
	fmt->word = !strncmp(text, "config2", 7) ? 2 :
		    !strncmp(text, "config1", 7) ? 1 : 0;
	fmt->mask = 0;
	for (p++; *p && *p != '\n'; p += n) {
		if (sscanf(p, "%u-%u%n", &lo, &hi, &n) != 2) {
			if (sscanf(p, "%u%n", &lo, &n) != 1)
				return -1;
			hi = lo;
		}
		if (lo > hi || hi > 63)
			return -1;
		fmt->mask |= (hi - lo == 63 ? ~0ULL :
			      ((1ULL << (hi - lo + 1)) - 1)) << lo;
		if (p[n] == ',')
			n++;
	}
	return 0;
}

static struct format *find_format(struct pmu *pmu, const char *name)
{
	int i;

	for (i = 0; i < pmu->nr_formats; i++)
		if (!strcmp(pmu->formats[i].name, name))
			return &pmu->formats[i];
	return NULL;
}

/* "event=0x1,node=?,config1=0x5": each term into its field's bits */
static int parse_event(struct pmu *pmu, char *text, struct event *ev)
{
	char *term, *save = NULL, *eq;
	struct format *f;
	uint64_t val;

	memset(ev, 0, sizeof(*ev));
	for (term = strtok_r(text, ",\n", &save); term;
	     term = strtok_r(NULL, ",\n", &save)) {
		eq = strchr(term, '=');
		val = eq ? strtoull(eq + 1, NULL, 0) : 1;
		if (eq)
			*eq = 0;
		f = find_format(pmu, term);
		if (!strcmp(term, "config"))
			ev->word[0] = val;
		else if (!strcmp(term, "config1"))
			ev->word[1] = val;
		else if (!strcmp(term, "config2"))
			ev->word[2] = val;
		else if (f)
			ev->word[f->word] |= deposit(f->mask, val);
		else
			return -1;
	}
	return 0;
}

static void load_events(struct pmu *pmu, const char *name)
{
	char path[256], file[512], line[256];
	struct dirent *d;
	DIR *dir;

	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/events", name);
	dir = opendir(path);
	while (dir && (d = readdir(dir)) && pmu->nr_events < MAX_EVENTS) {
		if (d->d_name[0] == '.' || strchr(d->d_name, '.'))
			continue;	/* .scale, .unit */
		snprintf(file, sizeof(file), "%s/%s", path, d->d_name);
		if (!read_line(file, line, sizeof(line)) &&
		    !parse_event(pmu, line, &pmu->events[pmu->nr_events]))
			pmu->nr_events++;
	}
	if (dir)
		closedir(dir);
}

/* hisi_ptt's root_port_filters/ and requester_filters/: filter values */
static void load_filters(struct pmu *pmu, const char *name, const char *kind)
{
	char path[256], file[512], line[64];
	struct dirent *d;
	DIR *dir;

	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/%s", name, kind);
	dir = opendir(path);
	while (dir && (d = readdir(dir)) && pmu->nr_filters < MAX_FILTERS) {
		if (d->d_name[0] == '.' || !strcmp(d->d_name, "multiselect"))
			continue;
		snprintf(file, sizeof(file), "%s/%s", path, d->d_name);
		if (!read_line(file, line, sizeof(line)))
			pmu->filters[pmu->nr_filters++] = strtoull(line, NULL, 0);
	}
	if (dir)
		closedir(dir);
}

static void load_pmu(const char *name)
{
	struct pmu *pmu = &pmus[nr_pmus];
	char path[256], line[256];
	struct dirent *d;
	DIR *dir;

	if (nr_pmus == MAX_PMUS) {
		fprintf(stderr, "perf-fuzz: at most %d PMUs\n", MAX_PMUS);
		exit(2);
	}
	pmu->name = name;
	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", name);
	if (read_line(path, line, sizeof(line))) {
		fprintf(stderr, "perf-fuzz: no PMU %s\n", name);
		exit(2);
	}
	pmu->type = strtoul(line, NULL, 0);
	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/cpumask", name);
	pmu->cpu = read_line(path, line, sizeof(line)) ? -1 : atoi(line);
	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/format", name);
	dir = opendir(path);
	while (dir && (d = readdir(dir)) && pmu->nr_formats < MAX_FORMATS) {
		char file[512];

		struct format *f = &pmu->formats[pmu->nr_formats];
		size_t len = strlen(d->d_name);

		if (d->d_name[0] == '.' || len >= sizeof(f->name))
			continue;
		snprintf(file, sizeof(file), "%s/%s", path, d->d_name);
		if (!read_line(file, line, sizeof(line)) && !parse_format(line, f)) {
			memcpy(f->name, d->d_name, len + 1);
			pmu->nr_formats++;
		}
	}
	if (dir)
		closedir(dir);
	load_events(pmu, name);
	load_filters(pmu, name, "root_port_filters");
	load_filters(pmu, name, "requester_filters");
	nr_pmus++;
}

static int free_slot(void)
{
	int i;

	for (i = 0; i < MAX_FDS; i++)
		if (slots[i].fd < 0)
			return i;
	return -1;
}

/* An open slot at random, or -1 */
static int some_slot(void)
{
	int i, start = below(MAX_FDS);

	for (i = 0; i < MAX_FDS; i++)
		if (slots[(start + i) % MAX_FDS].fd >= 0)
			return (start + i) % MAX_FDS;
	return -1;
}

static void draw_attr(struct perf_event_attr *attr, struct pmu *pmu)
{
	__u64 *word[3] = { &attr->config, &attr->config1, &attr->config2 };
	int i;

	memset(attr, 0, sizeof(*attr));
	attr->type = chance(95) ? pmu->type : (uint32_t)rnd();
	attr->size = chance(95) ? sizeof(*attr) : below(2 * sizeof(*attr));
	if (pmu->nr_events && chance(70)) {
		const struct event *ev = &pmu->events[below(pmu->nr_events)];

		for (i = 0; i < 3; i++)
			*word[i] = ev->word[i];
	}
	for (i = 0; i < pmu->nr_formats; i++) {
		const struct format *f = &pmu->formats[i];
		uint64_t val;

		if (!strcmp(f->name, "filter") && pmu->nr_filters && chance(70))
			val = pmu->filters[below(pmu->nr_filters)];
		else if (chance(pmu->nr_events ? 30 : 60))
			val = chance(50) ? below(4) : chance(60) ? below(256) : rnd();
		else
			continue;
		*word[f->word] = (*word[f->word] & ~f->mask) | deposit(f->mask, val);
	}
	/* bits no format field names */
	if (chance(10))
		*word[below(3)] ^= 1ULL << below(64);
	if (chance(10))
		attr->sample_period = chance(50) ? below(10000) : rnd();
	if (chance(10))
		attr->sample_type = rnd() & ((PERF_SAMPLE_WEIGHT_STRUCT << 1) - 1);
	attr->read_format = chance(50) ? rnd() & 0x1f : 0;
	attr->disabled = chance(50);
	attr->inherit = chance(5);
	attr->pinned = chance(5);
	attr->exclusive = chance(5);
	attr->exclude_user = chance(5);
	attr->exclude_kernel = chance(5);
	attr->exclude_hv = chance(5);
	attr->exclude_idle = chance(5);
	attr->freq = chance(5);
	attr->enable_on_exec = chance(5);
	attr->watermark = chance(10);
	attr->wakeup_events = chance(20) ? below(100) : 0;
	if (chance(20))
		attr->aux_watermark = below(1 << 24);
}

static void op_open(void)
{
	struct perf_event_attr attr;
	struct pmu *pmu = &pmus[below(nr_pmus)];
	int i = free_slot(), fd, cpu, group = -1, leader;
	unsigned long flags = 0;
	pid_t pid = -1;

	if (i < 0)
		return;
	draw_attr(&attr, pmu);
	cpu = chance(85) ? pmu->cpu : (int)below(6) - 1;
	if (chance(10))
		pid = 0;
	leader = some_slot();
	if (chance(30) && leader >= 0)
		group = slots[leader].fd;
	if (chance(20))
		flags |= PERF_FLAG_FD_CLOEXEC;
	if (chance(3))
		flags |= 1UL << below(8);
	fd = syscall(__NR_perf_event_open, &attr, pid, cpu, group, flags);
	if (fd < 0) {
		pmu->refused[errno < 140 ? errno : 0]++;
		return;
	}
	pmu->opened++;
	slots[i].fd = fd;
}

static void op_ioctl(void)
{
	static const unsigned long cmds[] = {
		PERF_EVENT_IOC_ENABLE, PERF_EVENT_IOC_DISABLE,
		PERF_EVENT_IOC_RESET, PERF_EVENT_IOC_REFRESH,
		PERF_EVENT_IOC_PERIOD, PERF_EVENT_IOC_SET_OUTPUT,
		PERF_EVENT_IOC_ID, PERF_EVENT_IOC_PAUSE_OUTPUT,
		PERF_EVENT_IOC_MODIFY_ATTRIBUTES,
	};
	struct perf_event_attr attr;
	int i = some_slot(), other;
	unsigned long cmd;
	uint64_t val;

	if (i < 0)
		return;
	cmd = cmds[below(ARRAY_SIZE(cmds))];
	switch (cmd) {
	case PERF_EVENT_IOC_PERIOD:
	case PERF_EVENT_IOC_ID:
		val = chance(50) ? below(100000) : rnd();
		ioctl(slots[i].fd, cmd, &val);
		break;
	case PERF_EVENT_IOC_SET_OUTPUT:
		other = some_slot();
		ioctl(slots[i].fd, cmd, chance(30) || other < 0 ? -1 : slots[other].fd);
		break;
	case PERF_EVENT_IOC_MODIFY_ATTRIBUTES:
		draw_attr(&attr, &pmus[below(nr_pmus)]);
		ioctl(slots[i].fd, cmd, &attr);
		break;
	case PERF_EVENT_IOC_REFRESH:
	case PERF_EVENT_IOC_PAUSE_OUTPUT:
		ioctl(slots[i].fd, cmd, below(3));
		break;
	default:
		ioctl(slots[i].fd, cmd, chance(30) ? PERF_IOC_FLAG_GROUP : 0);
		break;
	}
}

static void op_read(void)
{
	static char buf[4096];
	int i = some_slot();

	if (i >= 0)
		(void)!read(slots[i].fd, buf, chance(70) ? below(128) : below(sizeof(buf)));
}

static void unmap(struct slot *s)
{
	if (s->aux)
		munmap(s->aux, s->aux_len);
	if (s->ring)
		munmap(s->ring, s->ring_len);
	s->aux = s->ring = NULL;
}

/* A ring buffer, and behind it, sometimes, an AUX area (up to 32 MiB) */
static void op_mmap(void)
{
	struct perf_event_mmap_page *page;
	int i = some_slot(), writable;
	struct slot *s;
	void *p;

	if (i < 0)
		return;
	s = &slots[i];
	if (s->ring) {
		unmap(s);
		return;
	}
	s->ring_len = (1 + (chance(90) ? 1UL << below(4) : below(8))) * PAGE;
	writable = chance(90);
	p = mmap(NULL, s->ring_len, PROT_READ | (writable ? PROT_WRITE : 0),
		 MAP_SHARED, s->fd, 0);
	if (p == MAP_FAILED)
		return;
	s->ring = p;
	/* The AUX area is asked for in the user page, which must be writable. */
	if (!writable || !chance(50))
		return;
	page = p;
	s->aux_len = (chance(80) ? 1UL << below(14) : below(9000)) * PAGE;
	page->aux_offset = s->ring_len;
	page->aux_size = s->aux_len;
	p = mmap(NULL, s->aux_len, PROT_READ | (chance(80) ? PROT_WRITE : 0),
		 MAP_SHARED, s->fd, s->ring_len);
	if (p != MAP_FAILED)
		s->aux = p;
}

static void op_close(void)
{
	int i = some_slot();

	if (i < 0)
		return;
	unmap(&slots[i]);
	close(slots[i].fd);
	slots[i].fd = -1;
}

static const char *errno_name(int e)
{
	switch (e) {
	case EINVAL: return "EINVAL";
	case ENOENT: return "ENOENT";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case EBUSY: return "EBUSY";
	case EACCES: return "EACCES";
	case EPERM: return "EPERM";
	case E2BIG: return "E2BIG";
	case ENODEV: return "ENODEV";
	case ETIMEDOUT: return "ETIMEDOUT";
	case EBADF: return "EBADF";
	case ENOSPC: return "ENOSPC";
	case EAGAIN: return "EAGAIN";
	case EFAULT: return "EFAULT";
	default: return NULL;
	}
}

static void bad_usage(void)
{
	fprintf(stderr, "usage: perf-fuzz [--seed N] [--calls N] [--user UID] PMU...\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static void (*const ops[])(void) = {
		op_open, op_ioctl, op_read, op_mmap, op_close,
	};
	static const unsigned int weights[] = { 35, 25, 15, 10, 15 };
	unsigned long calls = 10000, n, seed = 1;
	long uid = -1;
	unsigned int w, k;
	int i, e;

	for (i = 1; i < argc && argv[i][0] == '-'; i += 2) {
		if (i + 1 >= argc)
			bad_usage();
		if (!strcmp(argv[i], "--seed"))
			seed = strtoul(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "--calls"))
			calls = strtoul(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "--user"))
			uid = strtol(argv[i + 1], NULL, 0);
		else
			bad_usage();
	}
	if (i == argc)
		bad_usage();
	for (; i < argc; i++)
		load_pmu(argv[i]);
	if (uid >= 0 && (setgid(uid) || setuid(uid))) {
		perror("perf-fuzz: setuid");
		return 2;
	}
	for (i = 0; i < MAX_FDS; i++)
		slots[i].fd = -1;
	rng_state = seed * 0x9e3779b97f4a7c15ULL + 1;

	for (n = 0; n < calls; n++) {
		w = below(100);
		for (k = 0; w >= weights[k]; k++)
			w -= weights[k];
		ops[k]();
		counts[k]++;
	}
	for (i = 0; i < MAX_FDS; i++)
		if (slots[i].fd >= 0) {
			unmap(&slots[i]);
			close(slots[i].fd);
		}

	for (i = 0; i < nr_pmus; i++) {
		unsigned long refused = 0;

		for (e = 0; e < 140; e++)
			refused += pmus[i].refused[e];
		printf("pmu=%s type=%u opened=%lu refused=%lu", pmus[i].name,
		       pmus[i].type, pmus[i].opened, refused);
		for (e = 0; e < 140; e++) {
			if (!pmus[i].refused[e])
				continue;
			if (errno_name(e))
				printf(" %s=%lu", errno_name(e), pmus[i].refused[e]);
			else
				printf(" errno%d=%lu", e, pmus[i].refused[e]);
		}
		printf("\n");
	}
	printf("calls=%lu", calls);
	for (k = 0; k < 5; k++)
		printf(" %s=%lu", op_names[k], counts[k]);
	printf(" seed=%lu\n", seed);
	return 0;
}
