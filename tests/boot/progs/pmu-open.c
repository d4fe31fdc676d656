// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pmu-open: open perf events with raw configs on a named PMU, as one group,
 * and report what the kernel said, for the guest suites that check a
 * driver's validation (errnos) and its counting.
 *
 *   pmu-open [--cpu N | --task] [--sample] [--ms N | --until-signal]
 *            [--hold SEC] PMU:CONFIG[:CONFIG1[:CONFIG2]] ...
 *
 * The first event is the group leader. Prints "ok" when all opened, then
 * with --ms or --until-signal "started" once the group is enabled (a suite
 * that acts on the counters mid-count waits for it), and the count of each
 * event after counting N milliseconds, or until SIGUSR1 comes
 * ("count0=..." one per line) and the time the kernel had the group enabled
 * ("enabled_ns=...": usleep() oversleeps when the host is busy, so a count
 * is checked against this time, not against N); --hold keeps them open SEC
 * seconds more.
 * A suite that changes the device through QMP mid-count ends the count with
 * the signal: under -icount sleep=off the guest's clock jumps to its next
 * timer while it waits for QEMU, so a window of N guest milliseconds can
 * close before QEMU has carried out the change.
 * On failure prints "errno=NAME event=I" and exits 1. Numbers take any
 * base strtoull accepts (0x...).
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_EVENTS 32
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const struct {
	int err;
	const char *name;
} errnames[] = {
	{ EINVAL, "EINVAL" }, { ENOENT, "ENOENT" }, { EOPNOTSUPP, "EOPNOTSUPP" },
	{ EBUSY, "EBUSY" }, { EAGAIN, "EAGAIN" }, { ENODEV, "ENODEV" },
	{ EACCES, "EACCES" }, { EPERM, "EPERM" }, { ETIMEDOUT, "ETIMEDOUT" },
	{ E2BIG, "E2BIG" }, { ENOSPC, "ENOSPC" }, { ENXIO, "ENXIO" },
};

static const char *errname(int err)
{
	static char num[16];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(errnames); i++)
		if (errnames[i].err == err)
			return errnames[i].name;
	snprintf(num, sizeof(num), "%d", err);
	return num;
}

static void bad_usage(void)
{
	fprintf(stderr, "usage: pmu-open [--cpu N | --task] [--sample] [--ms N | --until-signal]\n"
		"                [--hold SEC] PMU:CONFIG[:CONFIG1[:CONFIG2]] ...\n");
	exit(2);
}

static int pmu_type(const char *pmu)
{
	char path[256];
	FILE *f;
	int type;

	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", pmu);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%d", &type) != 1) {
		fprintf(stderr, "pmu-open: no PMU %s\n", pmu);
		exit(2);
	}
	fclose(f);
	return type;
}

/* PMU:CONFIG[:CONFIG1[:CONFIG2]] into @attr */
static void parse_event(char *spec, struct perf_event_attr *attr)
{
	char *pmu = strtok(spec, ":");
	char *field;
	__u64 *configs[] = { &attr->config, &attr->config1, &attr->config2 };
	int i = 0;

	if (!pmu)
		bad_usage();
	attr->type = pmu_type(pmu);
	while ((field = strtok(NULL, ":")) && i < 3)
		*configs[i++] = strtoull(field, NULL, 0);
	if (!i)
		bad_usage();
}

int main(int argc, char **argv)
{
	struct perf_event_attr attr[MAX_EVENTS];
	int fd[MAX_EVENTS];
	int cpu = 0, task = 0, sample = 0, ms = 0, until_signal = 0, hold = 0, n = 0, i;
	sigset_t usr1;
	int sig;
	uint64_t enabled_ns = 0;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--cpu") && i + 1 < argc) {
			cpu = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "--task")) {
			task = 1;
		} else if (!strcmp(argv[i], "--sample")) {
			sample = 1;
		} else if (!strcmp(argv[i], "--ms") && i + 1 < argc) {
			ms = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "--until-signal")) {
			until_signal = 1;
		} else if (!strcmp(argv[i], "--hold") && i + 1 < argc) {
			hold = atoi(argv[++i]);
		} else if (argv[i][0] == '-' || n == MAX_EVENTS) {
			bad_usage();
		} else {
			memset(&attr[n], 0, sizeof(attr[n]));
			attr[n].size = sizeof(attr[n]);
			attr[n].disabled = n == 0;
			attr[n].read_format = PERF_FORMAT_TOTAL_TIME_ENABLED;
			if (sample)
				attr[n].sample_period = 1000;
			parse_event(argv[i], &attr[n]);
			n++;
		}
	}
	if (!n || (ms && until_signal))
		bad_usage();
	/* blocked before "started", so a signal sent right after is kept */
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, NULL);

	for (i = 0; i < n; i++) {
		fd[i] = syscall(SYS_perf_event_open, &attr[i], task ? 0 : -1,
				task ? -1 : cpu, i ? fd[0] : -1, 0);
		if (fd[i] < 0) {
			printf("errno=%s event=%d\n", errname(errno), i);
			return 1;
		}
	}
	printf("ok\n");
	fflush(stdout);
	if (ms || until_signal) {
		ioctl(fd[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
		printf("started\n");
		fflush(stdout);
		if (until_signal)
			sigwait(&usr1, &sig);
		else
			usleep(ms * 1000);
		ioctl(fd[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
		for (i = 0; i < n; i++) {
			struct {
				uint64_t count;
				uint64_t enabled_ns;
			} value;

			if (read(fd[i], &value, sizeof(value)) != sizeof(value)) {
				printf("errno=%s event=%d read\n", errname(errno), i);
				return 1;
			}
			printf("count%d=%llu\n", i, (unsigned long long)value.count);
			if (i == 0)
				enabled_ns = value.enabled_ns;
		}
		printf("enabled_ns=%llu\n", (unsigned long long)enabled_ns);
	}
	if (hold)
		sleep(hold);
	return 0;
}
