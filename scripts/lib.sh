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
# phase NAME COMMAND...: a step whose time goes to build/phase-times.tsv,
# for the table scripts/test prints at its end; returns COMMAND's status
phase() {
	local name=$1 start=$SECONDS rc=0
	shift
	step "$name"
	"$@" || rc=$?
	printf '%s\t%s\n' "$name" $((SECONDS - start)) >>"$BUILD/phase-times.tsv"
	return $rc
}

version_of() {
	[ -f "$VERSIONS" ] || die "no $VERSIONS: run scripts/fetch first"
	sed -n "s/^$1=//p" "$VERSIONS"
}

# The QEMU release series we build our devices into, newest first: 10.2
# from Debian sid, 10.0 from trixie. HISI_QEMU picks the one that build,
# demo, run-guest and the tests use (default: the newest); the series test
# builds the other too.
QEMU_SERIES=(10.2 10.0)

# qemu_series: the series HISI_QEMU picks, or an error naming the others.
qemu_series() {
	local want=${HISI_QEMU:-${QEMU_SERIES[0]}} s
	for s in "${QEMU_SERIES[@]}"; do
		[ "$want" = "$s" ] && { echo "$s"; return; }
	done
	die "QEMU $want: not a version we build (${QEMU_SERIES[*]}; HISI_QEMU or --qemu picks one)"
}

# A HISI_QEMU we do not build stops every script at once, before any work.
qemu_series >/dev/null

# qemu_version [SERIES]: the Debian version of the QEMU source scripts/fetch
# got for SERIES (default: the one HISI_QEMU picks).
qemu_version() {
	local series=${1:-$(qemu_series)} v
	v=$(version_of "qemu-$series")
	[ -n "$v" ] || die "no QEMU $series in $VERSIONS: run scripts/fetch"
	echo "$v"
}

# qemu_patches SERIES: our changes to QEMU's own files for that series, in
# order: patches/qemu/NAME.patch, or patches/qemu/SERIES/NAME.patch where
# the series needs its own (patches/README.md).
qemu_patches() {
	local p name
	for p in "$TOP"/patches/qemu/*.patch "$TOP/patches/qemu/$1"/*.patch; do
		basename "$p"
	done | sort -u | while read -r name; do
		if [ -f "$TOP/patches/qemu/$1/$name" ]; then
			echo "$TOP/patches/qemu/$1/$name"
		else
			echo "$TOP/patches/qemu/$name"
		fi
	done
}

# qemu_build SRC BLD LOG TARGETS... [-- CONFIGURE-ARGS...]: configure QEMU's
# SRC in BLD for our aarch64 device set (reconfiguring from scratch when the
# arguments change) and build TARGETS. Compiles go through ccache with paths
# relative to BLD's parent, so that trees laid out alike (SRC and BLD side by
# side) share cached objects, from any clone. QEMU_CC picks the compiler
# (default gcc).
qemu_build() {
	local src=$1 bld=$2 log=$3 targets=() conf
	shift 3
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		targets+=("$1")
		shift
	done
	[ $# -gt 0 ] && shift
	local cc=${QEMU_CC:-gcc}
	if command -v ccache >/dev/null; then
		cc="ccache $cc"
		export CCACHE_DIR=${CCACHE_DIR:-$CACHE/ccache}
		export CCACHE_BASEDIR=$(dirname "$bld") CCACHE_NOHASHDIR=1
		ccache -M 5G >/dev/null
	fi
	conf=(--target-list=aarch64-softmmu --python=/usr/bin/python3 "--cc=$cc"
		--without-default-features --without-default-devices
		--with-devices-aarch64=hisi-virt --enable-fdt=system
		--disable-install-blobs "$@")
	# A tree configured for another QEMU version is configured afresh.
	local key="QEMU $(cat "$src/VERSION") ${conf[*]}"
	if [ "$(cat "$bld/.configure-args" 2>/dev/null)" != "$key" ] ||
		[ ! -f "$bld/build.ninja" ]; then
		info "configuring QEMU in $bld"
		rm -rf "$bld" && mkdir -p "$bld"
		(cd "$bld" && "$src/configure" "${conf[@]}") >"$log" 2>&1 ||
			die "QEMU configure failed: see $log"
		echo "$key" >"$bld/.configure-args"
	fi
	info "building ${targets[*]} (ninja progress every 250 steps)"
	# Keep the log short: every 250th ninja step, and every line that is
	# not a step (compiler errors and warnings).
	ninja -C "$bld" "${targets[@]}" 2>&1 |
		awk '/^\[[0-9]+\/[0-9]+\]/ { if (++n % 250 == 1) { print; fflush() } next } { print; fflush() }' >&2 ||
		die "QEMU build failed (errors above)"
}

# suite_header VAR SCRIPT KEY: append to the array named VAR the arguments
# of the boot suite SCRIPT's leading comment lines "# KEY: OPTION [VALUE]"
# (tests/boot/*.sh: KEY run-guest for scripts/run-guest's options, qemu for
# the QEMU topology). The line splits at its first space only: VALUE is the
# rest of the line as written, commas, ',,' and ';' included, so QEMU gets
# it unchanged.
suite_header() {
	local -n _suite_header_out=$1
	local line rest
	while IFS= read -r line && [[ $line == '#'* ]]; do
		[[ $line == "# $3: "* ]] || continue
		rest=${line#"# $3: "}
		_suite_header_out+=("${rest%% *}")
		if [[ $rest == *' '* ]]; then
			_suite_header_out+=("${rest#* }")
		fi
	done <"$2"
}

# hisi_qtests: the names of our qtests (tests/qtest/*-test.c).
hisi_qtests() {
	local t
	for t in "$TOP"/tests/qtest/*-test.c; do
		basename "$t" .c
	done
}

# kbuild_modules KDIR SUFFIX NAME SRCDIR [MAKE-ARGS...]: build the modules of
# one Kbuild tree against the kernel tree KDIR, in a copy under
# build/kbuild$SUFFIX/NAME, and collect them in build/modules$SUFFIX/NAME.
kbuild_modules() {
	local kdir=$1 suffix=$2 name=$3 srcdir=$4 files
	local out=$BUILD/kbuild$suffix/$name mods=$BUILD/modules$suffix/$name
	shift 4
	files=$(cd "$srcdir" && find . -type f | sort)
	# A file removed from the source must not linger in the copy.
	[ "$(cat "$out/.files" 2>/dev/null)" = "$files" ] || rm -rf "$out"
	mkdir -p "$out" "$mods"
	echo "$files" >"$out/.files"
	# Kbuild writes its objects next to the sources: build in a copy that
	# keeps timestamps, so only what changed is rebuilt.
	cp -au "$srcdir/." "$out/"
	make -s -C "$kdir" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- \
		M="$out" "$@" modules ||
		die "building the $name modules against $kdir failed (errors above)"
	rm -f "$mods"/*.ko
	find "$out" -name '*.ko' -exec cp {} "$mods/" \;
	info "modules$suffix/$name: $(cd "$mods" && ls | tr '\n' ' ')"
}

# build_driver_sets KDIR SUFFIX [MAKE-ARGS...]: the driver sets the guest
# loads (upstream, from build/upstream-src; ours; the test modules) against
# the kernel tree KDIR, into build/modules$SUFFIX/SET.
build_driver_sets() {
	local kdir=$1 suffix=$2
	shift 2
	kbuild_modules "$kdir" "$suffix" upstream "$BUILD/upstream-src" "$@"
	[ ! -f "$TOP/guest-drivers/Kbuild" ] ||
		kbuild_modules "$kdir" "$suffix" ours "$TOP/guest-drivers" "$@"
	kbuild_modules "$kdir" "$suffix" test "$TOP/tests/boot/modules" "$@"
}
