// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run-as: run a command as an unprivileged user, in a guest that has no
 * user database: for programs that refuse to run as root (trinity).
 *
 *   run-as UID COMMAND [ARG...]
 *
 * Drops the supplementary groups, then the group and user IDs (all to
 * UID), and executes COMMAND, searched in PATH.
 */
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char *end;
	long uid;

	if (argc < 3) {
		fprintf(stderr, "usage: run-as UID COMMAND [ARG...]\n");
		return 2;
	}
	uid = strtol(argv[1], &end, 0);
	if (*end || uid <= 0) {
		fprintf(stderr, "run-as: '%s' is not a user ID other than root's\n", argv[1]);
		return 2;
	}
	if (setgroups(0, NULL) || setgid(uid) || setuid(uid)) {
		perror("run-as");
		return 2;
	}
	execvp(argv[2], argv + 2);
	perror(argv[2]);
	return 127;
}
