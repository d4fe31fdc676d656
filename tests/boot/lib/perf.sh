# SPDX-License-Identifier: GPL-2.0-or-later
# What the PMU suites ask of perf. Source it, then:
#   perf_opens PMU EVENT     perf stat takes PMU/EVENT/ (counts it)
#   perf_refused PMU EVENT   the driver refuses it: perf stat reports the
#                            event "<not supported>" (or fails)

perf_opens() {
	perf stat -a -e "$1/$2/" -- true >/tmp/perf-opens.log 2>&1 &&
		! grep -q 'not supported' /tmp/perf-opens.log
}

perf_refused() {
	perf_opens "$1" "$2" && { echo "accepted: $1/$2/"; return 1; }
	return 0
}
