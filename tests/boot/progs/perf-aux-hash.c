// SPDX-License-Identifier: GPL-2.0
/*
 * perf-aux-hash PERF.DATA: the AUX area trace that perf record wrote of a
 * hisi-ptt 8DW trace (the payloads of its PERF_RECORD_AUXTRACE records, in
 * file order), as records. Prints
 *
 *   records=N chunks=C hash=H
 *
 * with C the AUXTRACE records (the pieces perf copied out of its AUX
 * buffer as the driver filled it) and H an FNV-1a hash of every
 * record's bytes, its time stamp (the last word) taken relative to the
 * first record's: two traces of the same TLPs that started at other
 * virtual times hash the same. Reading the file directly keeps a trace of
 * several 4 MiB buffers cheap to check, where perf report -D would print
 * seven lines per record. Exits 1 on a file that is not such a trace.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PERF_MAGIC		0x32454c4946524550ull	/* "PERFILE2" */
#define PERF_RECORD_AUXTRACE	71
#define REC_SIZE		32
#define REC_MARK		0xffffffffu	/* DW0 of an 8DW record */

struct file_section {
	uint64_t offset;
	uint64_t size;
};

struct file_header {
	uint64_t magic;
	uint64_t size;
	uint64_t attr_size;
	struct file_section attrs;
	struct file_section data;
};

struct event_header {
	uint32_t type;
	uint16_t misc;
	uint16_t size;
};

/* PERF_RECORD_AUXTRACE: its payload of size bytes follows it */
struct auxtrace_event {
	struct event_header header;
	uint64_t size;
	uint64_t offset;
	uint64_t reference;
	uint32_t idx;
	uint32_t tid;
	uint32_t cpu;
	uint32_t reserved;
};

static unsigned char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t cap = 0, n;

	if (!f)
		return NULL;
	*len = 0;
	do {
		if (*len == cap) {
			cap = cap ? 2 * cap : 1 << 20;
			buf = realloc(buf, cap);
			if (!buf)
				break;
		}
		n = fread(buf + *len, 1, cap - *len, f);
		*len += n;
	} while (n);
	fclose(f);
	return buf;
}

int main(int argc, char **argv)
{
	uint64_t hash = 0xcbf29ce484222325ull, records = 0, chunks = 0;
	uint32_t first_time = 0;
	struct file_header hdr;
	size_t len, pos, end;
	unsigned char *buf;

	if (argc != 2) {
		fprintf(stderr, "usage: perf-aux-hash PERF.DATA\n");
		return 2;
	}
	buf = read_file(argv[1], &len);
	if (!buf || len < sizeof(hdr)) {
		fprintf(stderr, "perf-aux-hash: cannot read %s\n", argv[1]);
		return 1;
	}
	memcpy(&hdr, buf, sizeof(hdr));
	if (hdr.magic != PERF_MAGIC || hdr.data.offset > len ||
	    hdr.data.size > len - hdr.data.offset) {
		fprintf(stderr, "perf-aux-hash: %s is not a perf.data file\n", argv[1]);
		return 1;
	}
	pos = hdr.data.offset;
	end = hdr.data.offset + hdr.data.size;
	while (pos + sizeof(struct event_header) <= end) {
		struct auxtrace_event ev;

		memcpy(&ev.header, buf + pos, sizeof(ev.header));
		if (ev.header.size < sizeof(ev.header) || ev.header.size > end - pos) {
			fprintf(stderr, "perf-aux-hash: bad record at 0x%zx\n", pos);
			return 1;
		}
		if (ev.header.type != PERF_RECORD_AUXTRACE) {
			pos += ev.header.size;
			continue;
		}
		memcpy(&ev, buf + pos, sizeof(ev));
		pos += ev.header.size;
		if (ev.size > end - pos || ev.size % REC_SIZE) {
			fprintf(stderr, "perf-aux-hash: AUX data of %llu bytes at 0x%zx is not whole 8DW records\n",
				(unsigned long long)ev.size, pos);
			return 1;
		}
		chunks++;
		for (size_t off = 0; off < ev.size; off += REC_SIZE) {
			uint32_t dw[REC_SIZE / 4];

			memcpy(dw, buf + pos + off, REC_SIZE);
			if (dw[0] != REC_MARK) {
				fprintf(stderr, "perf-aux-hash: record %llu is not an 8DW record\n",
					(unsigned long long)records);
				return 1;
			}
			if (!records)
				first_time = dw[7];
			dw[7] -= first_time;
			for (unsigned int i = 0; i < REC_SIZE; i++)
				hash = (hash ^ ((unsigned char *)dw)[i]) * 0x100000001b3ull;
			records++;
		}
		pos += ev.size;
	}
	printf("records=%llu chunks=%llu hash=%016llx\n",
	       (unsigned long long)records, (unsigned long long)chunks,
	       (unsigned long long)hash);
	free(buf);
	return 0;
}
