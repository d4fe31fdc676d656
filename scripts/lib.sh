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

# The drivers of the emulated devices, by module name: what run-guest
# --modules loads from a kernel build.
DRIVER_MODULES=(hisi_ptt hisi_pcie_pmu hns3_pmu arm-ccn)

# image_release IMAGE: the kernel release (uname -r) of the arm64 Image
# IMAGE, raw or gzip-compressed; fails when IMAGE is not one.
image_release() {
	local unpack=cat v
	[ "$(head -c 2 "$1" | od -An -tx1 | tr -d ' \n')" = 1f8b ] && unpack="gzip -dc"
	# The arm64 boot header's magic, "ARM\x64" at offset 56
	[ "$($unpack "$1" 2>/dev/null | head -c 60 | tail -c 4)" = ARMd ] || return 1
	v=$($unpack "$1" 2>/dev/null | grep -a -o -m 1 -E 'Linux version [0-9]+\.[0-9]+[^ ]*' || true)
	[ -n "$v" ] || return 1
	echo "${v#Linux version }"
}

# Debian sid, read through apt lists of its own under the cache: sid is
# never an apt source of the host, and none of its packages is installed
# (they are downloaded and unpacked). An empty dpkg status keeps the host's
# packages out of sid's dependency resolution. Mirrors that lag (snapshots,
# registries) serve a Release file past its Valid-Until of a week: apt
# still checks its signature and every file's hash, so only that date
# check is off.
SID=$CACHE/apt-sid
SID_APT=(-o "Dir::Etc::sourcelist=$SID/sources.list" -o Dir::Etc::sourceparts=-
	-o "Dir::State::Lists=$SID/lists" -o "Dir::Cache=$SID/cache"
	-o "Dir::State::status=$SID/status" -o APT::Architectures::=amd64
	-o APT::Architectures::=arm64 -o Acquire::Check-Valid-Until=false
	-o APT::Sandbox::User=root)

# sid_lists: sid's source and binary (amd64, arm64) package lists, read
# again once a day; a failed update keeps the old lists.
sid_lists() {
	mkdir -p "$SID/lists/partial" "$SID/cache/archives/partial"
	: >>"$SID/status"
	printf '%s\n' 'deb-src http://deb.debian.org/debian sid main' \
		'deb [arch=amd64,arm64] http://deb.debian.org/debian sid main' >"$SID/sources.list"
	if [ -z "$(find "$SID/lists" -name '*_Packages*' -mtime -1 2>/dev/null)" ]; then
		info "reading Debian sid's package lists"
		apt-get -qq "${SID_APT[@]}" update >&2 ||
			[ -n "$(ls "$SID/lists/"*_Packages* 2>/dev/null)" ] ||
			die "apt-get update of Debian sid's lists failed: check the network"
	fi
}

# The guest kernels: Debian 12's Linux 6.12 (scripts/build-guest, the
# default) and Debian sid's Linux 7.2 (scripts/build-linux-sid), each with
# both driver sets built against it; run-guest --linux picks one.
LINUX_DEFAULT=6.12
LINUX_SID=7.2

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

# build_driver_sets KDIR SUFFIX UPSTREAM [MAKE-ARGS...]: the driver sets
# the guest loads (upstream, from the copy UPSTREAM that upstream_src made;
# ours; the test modules) against the kernel tree KDIR, into
# build/modules$SUFFIX/SET.
build_driver_sets() {
	local kdir=$1 suffix=$2 upstream=$3
	shift 3
	kbuild_modules "$kdir" "$suffix" upstream "$upstream" "$@"
	[ ! -f "$TOP/guest-drivers/Kbuild" ] ||
		kbuild_modules "$kdir" "$suffix" ours "$TOP/guest-drivers" "$@"
	kbuild_modules "$kdir" "$suffix" test "$TOP/tests/boot/modules" "$@"
}

# build_fixed_set KDIR SUFFIX UPSTREAM [MAKE-ARGS...]: the set "fixed"
# (upstream's drivers, from the copy UPSTREAM, with our fix patches:
# fixed_src) against the kernel tree KDIR, into build/modules$SUFFIX/fixed,
# with its FIXES.
build_fixed_set() {
	local kdir=$1 suffix=$2 upstream=$3 src=$BUILD/fixed-src$2
	shift 3
	fixed_src "$upstream" "$src"
	kbuild_modules "$kdir" "$suffix" fixed "$src" "$@"
	cp "$src/FIXES" "$BUILD/modules$suffix/fixed/FIXES"
}

# upstream_src LINUX DEST: the upstream drivers of the kernel source tree
# LINUX (its unpacked parts), our reference client, unmodified, with a
# Kbuild of our own (Debian's config does not enable three of them), in
# DEST; only what changed is copied.
upstream_src() {
	local src=$1 up=$2
	mkdir -p "$up"
	cp -u "$src"/drivers/hwtracing/ptt/hisi_ptt.[ch] "$src"/drivers/perf/hisilicon/hisi_pcie_pmu.c \
		"$src"/drivers/perf/hisilicon/hns3_pmu.c "$src"/drivers/perf/arm-ccn.c "$up/"
	echo 'obj-m := hisi_ptt.o hisi_pcie_pmu.o hns3_pmu.o arm-ccn.o' >"$up/Kbuild.new"
	cmp -s "$up/Kbuild.new" "$up/Kbuild" || mv "$up/Kbuild.new" "$up/Kbuild"
	rm -f "$up/Kbuild.new"
}

# fixed_src UPSTREAM DEST: the copy UPSTREAM of upstream_src with our fix
# patches for it applied (guest-drivers/upstream-fixes/*.patch, made against
# the kernel tree: applied here by file name, the copy being flat), in DEST,
# with FIXES naming each patch applied. Only what changed is copied.
fixed_src() {
	local up=$1 dest=$2 tmp p
	tmp=$(mktemp -d)
	cp -p "$up"/* "$tmp/"
	for p in "$TOP"/guest-drivers/upstream-fixes/*.patch; do
		sed -E 's#^(---|\+\+\+) ([ab])/(.*/)?([^/]+)$#\1 \2/\4#' "$p" |
			patch -s -p1 -d "$tmp" --no-backup-if-mismatch ||
			{ rm -rf "$tmp"; die "$(basename "$p") does not apply to $up"; }
		basename "$p" .patch | sed 's/^[0-9]*-//'
	done >"$tmp/FIXES"
	mkdir -p "$dest"
	for p in "$tmp"/*; do
		cmp -s "$p" "$dest/$(basename "$p")" || cp "$p" "$dest/"
	done
	rm -rf "$tmp"
}

# The user-space tools the guest gets from Debian beside perf: trinity, the
# syscall fuzzer (tests/boot/syscall-fuzz.sh). A change here refetches.
GUEST_TOOLS="trinity"

# fetch_perf VERSION [APT-OPTIONS...]: download linux-perf:arm64 VERSION,
# the arm64 GUEST_TOOLS (the version the lists hold) and the arm64 packages
# they depend on, recursively, into $CACHE/perf/VERSION (APT-OPTIONS: which
# apt lists, e.g. sid's).
fetch_perf() {
	local ver=$1 dir=$CACHE/perf/$1 pkgs tool tools=()
	shift
	[ "$(cat "$dir/.done" 2>/dev/null)" = "$GUEST_TOOLS" ] && return
	for tool in $GUEST_TOOLS; do tools+=("$tool:arm64"); done
	pkgs=$(apt-cache "$@" depends --recurse --no-recommends --no-suggests --no-conflicts \
		--no-breaks --no-replaces --no-enhances "linux-perf:arm64=$ver" "${tools[@]}" |
		grep -E '^[^ <]+:arm64$' | grep -vE "^(linux-perf|${GUEST_TOOLS// /|}):" | sort -u)
	info "downloading perf $ver, $GUEST_TOOLS and $(echo "$pkgs" | wc -l) arm64 packages they depend on (about 60 MB)"
	rm -rf "$dir" && mkdir -p "$dir/debs"
	# shellcheck disable=SC2086 # one package per word
	(cd "$dir/debs" && apt-get download -q "$@" "linux-perf:arm64=$ver" "${tools[@]}" $pkgs) >&2 ||
		die "apt-get download of perf $ver, $GUEST_TOOLS and their libraries failed"
	echo "$GUEST_TOOLS" >"$dir/.done"
}

# perf_root VERSION DEST: the real perf tool for the guest, perf VERSION,
# and GUEST_TOOLS (fetch_perf) with the shared libraries of their ELF NEEDED
# closure, in DEST (run-guest --perf copies it in).
perf_root() {
	local ver=$1 pr=$2 dir=$CACHE/perf/$1 todo=() elf lib src f tool
	[ "$(cat "$dir/.done" 2>/dev/null)" = "$GUEST_TOOLS" ] ||
		die "perf $ver and $GUEST_TOOLS not downloaded: run scripts/fetch"
	if [ "$(cat "$dir/root/.done" 2>/dev/null)" != "$GUEST_TOOLS" ]; then
		rm -rf "$dir/root" && mkdir -p "$dir/root"
		for f in "$dir"/debs/*.deb; do dpkg-deb -x "$f" "$dir/root"; done
		echo "$GUEST_TOOLS" >"$dir/root/.done"
	fi
	[ "$(cat "$pr/.version" 2>/dev/null)" != "$ver $GUEST_TOOLS" ] || return 0
	rm -rf "$pr" && mkdir -p "$pr/usr/bin" "$pr/lib/aarch64-linux-gnu"
	ln -s aarch64-linux-gnu/ld-linux-aarch64.so.1 "$pr/lib/ld-linux-aarch64.so.1"
	for tool in perf $GUEST_TOOLS; do
		[ -f "$dir/root/usr/bin/$tool" ] || die "no usr/bin/$tool in the packages of $dir/debs"
		cp "$dir/root/usr/bin/$tool" "$pr/usr/bin/$tool"
		todo+=("$pr/usr/bin/$tool")
	done
	while [ ${#todo[@]} -gt 0 ]; do
		elf=${todo[0]}
		todo=("${todo[@]:1}")
		for lib in $(aarch64-linux-gnu-readelf -d "$elf" |
			sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p') ld-linux-aarch64.so.1; do
			[ -e "$pr/lib/aarch64-linux-gnu/$lib" ] && continue
			src=$(find "$dir/root" -name "$lib" \( -type f -o -type l \) | head -n 1)
			[ -n "$src" ] || die "$(basename "$elf") needs $lib, which no downloaded package has"
			cp -L "$src" "$pr/lib/aarch64-linux-gnu/$lib"
			todo+=("$pr/lib/aarch64-linux-gnu/$lib")
		done
	done
	echo "$ver $GUEST_TOOLS" >"$pr/.version"
	info "$(basename "$pr"): perf $ver, $GUEST_TOOLS with $(ls "$pr/lib/aarch64-linux-gnu" | wc -l) libraries, $(du -sh "$pr" | cut -f1)"
}

# linux_kver LINUX: the Debian package version of the guest kernel LINUX
# (6.12: Debian 12's; 7.2: Debian sid's, once scripts/build-linux-sid ran)
linux_kver() {
	case $1 in
	"$LINUX_DEFAULT") version_of kernel ;;
	"$LINUX_SID")
		cat "$BUILD/linux-$1.version" 2>/dev/null ||
			die "Linux $1 not fetched: run scripts/build-linux-sid" ;;
	*) die "--linux must be $LINUX_DEFAULT or $LINUX_SID (got '$1')" ;;
	esac
}

# linux_source_tree [LINUX]: the whole source tree of the guest kernel
# LINUX (default 6.12: Debian 12's linux-source-6.12; 7.2: Debian sid's
# linux-source-7.2, downloaded by scripts/build-linux-sid), unpacked once per
# version under the cache (for the kernel builds); its path.
linux_source_tree() {
	local linux=${1:-$LINUX_DEFAULT} kver base debs f
	kver=$(linux_kver "$linux")
	case $linux in
	"$LINUX_DEFAULT") base=$CACHE/linux-source/$kver debs=$CACHE/debs ;;
	*) base=$CACHE/linux-sid/$kver/full debs=$CACHE/linux-sid/$kver/debs ;;
	esac
	mkdir -p "$base"
	(
		# One unpacking at a time, from any clone (a second waits).
		flock 9
		[ -f "$base/linux-source-$linux/.done" ] && exit 0
		f=$(ls "$debs/linux-source-${linux}_${kver}_"*.deb 2>/dev/null | head -n 1)
		[ -n "$f" ] || die "linux-source-$linux $kver not downloaded: run scripts/fetch (6.12) or scripts/build-linux-sid (7.2)"
		step "unpacking linux-source-$linux $kver (full tree)"
		rm -rf "$base/linux-source-$linux"
		dpkg-deb --fsys-tarfile "$f" | tar -xO "./usr/src/linux-source-$linux.tar.xz" |
			tar -xJ -C "$base"
		touch "$base/linux-source-$linux/.done"
	) 9>"$base/.lock" || exit 1
	echo "$base/linux-source-$linux"
}
