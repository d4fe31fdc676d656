# SPDX-License-Identifier: GPL-2.0-or-later
# Shared helpers and paths for the project's shell scripts (sourced, not run).

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=$TOP/build
# Downloads and unpacked packages live outside the clone so a fresh clone is
# fast; every entry is keyed by the package version it holds.
CACHE=${HISI_EMU_CACHE:-$HOME/.cache/hisi-uncore-emu}
VERSIONS=$BUILD/versions

die() {
	echo "error: $*" >&2
	exit 1
}

info() {
	echo "$*" >&2
}

# step "what": progress line; STEP_TOTAL gives "[n/m]" when set.
step() {
	if [ -n "${STEP_TOTAL:-}" ]; then
		STEP_NUM=$((${STEP_NUM:-0} + 1))
		echo ">>> [$STEP_NUM/$STEP_TOTAL] $*" >&2
	else
		echo ">>> $*" >&2
	fi
}

# version_of KEY: a version recorded by scripts/fetch.
version_of() {
	[ -f "$VERSIONS" ] || die "no $VERSIONS: run scripts/fetch first"
	sed -n "s/^$1=//p" "$VERSIONS"
}
