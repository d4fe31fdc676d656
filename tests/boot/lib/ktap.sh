# SPDX-License-Identifier: GPL-2.0-or-later
# KTAP v1 output for the guest-side test suites (Documentation/dev-tools/ktap.rst).
# Source it, call ktap_start SUITE, then one result call per case, then
# ktap_finish, which prints the suite's result and exits 1 when a case
# failed.
#
# The output is one test, the suite, whose cases are its nested subtests:
#
#   KTAP version 1
#   1..1
#     KTAP version 1
#     # Subtest: SUITE
#     ok 1 CASE
#     not ok 2 CASE
#     # Totals: pass:1 fail:1 xfail:0 xpass:0 skip:0 error:0
#   not ok 1 SUITE
#
# So the plan comes first, as KTAP wants, while the suite's cases are
# counted as they run (no suite keeps a number by hand that goes stale, and
# the nested test's plan is optional). A suite that dies half way prints no
# result line; tests/boot/boot-test, which reads this output, fails the run
# then. Lines a suite prints itself stay unindented: KTAP takes them as
# diagnostics or unknown lines.

KTAP_NUM=0
KTAP_PASS=0
KTAP_FAIL=0
KTAP_SKIP=0
KTAP_SUITE=

ktap_start() {
	KTAP_SUITE=$1
	echo "KTAP version 1"
	echo "1..1"
	echo "  KTAP version 1"
	echo "  # Subtest: $1"
}

ktap_pass() {
	KTAP_NUM=$((KTAP_NUM + 1))
	KTAP_PASS=$((KTAP_PASS + 1))
	echo "  ok $KTAP_NUM $1"
}

# ktap_fail NAME [WHY...]
ktap_fail() {
	KTAP_NUM=$((KTAP_NUM + 1))
	KTAP_FAIL=$((KTAP_FAIL + 1))
	local name=$1
	shift
	[ $# -gt 0 ] && echo "  # $name: $*"
	echo "  not ok $KTAP_NUM $name"
}

# ktap_skip NAME REASON
ktap_skip() {
	KTAP_NUM=$((KTAP_NUM + 1))
	KTAP_SKIP=$((KTAP_SKIP + 1))
	echo "  ok $KTAP_NUM $1 # SKIP $2"
}

# ktap_check NAME COMMAND...: pass when COMMAND succeeds; its output is
# shown as diagnostics when it fails.
ktap_check() {
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then
		ktap_pass "$name"
	else
		ktap_fail "$name" "$(echo "$out" | head -n 5 | tr '\n' ' ')"
	fi
}

ktap_finish() {
	echo "  # Totals: pass:$KTAP_PASS fail:$KTAP_FAIL xfail:0 xpass:0 skip:$KTAP_SKIP error:0"
	if [ "$KTAP_FAIL" = 0 ]; then
		echo "ok 1 $KTAP_SUITE"
	else
		echo "not ok 1 $KTAP_SUITE"
	fi
	[ "$KTAP_FAIL" = 0 ]
	exit
}

# ratio_in BEFORE AFTER LOW HIGH: AFTER is LOW..HIGH % of BEFORE, for a
# suite that compares two rates it measured
ratio_in() {
	[ -n "$1" ] && [ "$1" -gt 0 ] && [ -n "$2" ] &&
		[ $(($2 * 100 / $1)) -ge $3 ] && [ $(($2 * 100 / $1)) -le $4 ]
}

# wait_for CONDITION...: poll CONDITION (a command) for up to 20 s, for a
# suite that waits on the guest (a hot-plug, a rescan, a file a test writes)
wait_for() {
	local i=0
	while ! "$@"; do
		i=$((i + 1))
		[ $i -lt 200 ] || return 1
		usleep 100000
	done
}
