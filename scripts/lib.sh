# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034  # the GS_* variables are for the scripts that source this
# Shared helpers for the ghostswap build and test scripts. Source it; do not run it.
#
# Every long step goes through run_step, which prints what it is doing, how long it took, and on failure
# the name of the step and the log to read.

GS_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
GS_CACHE=${GHOSTSWAP_CACHE:-$HOME/.cache/ghostswap}
GS_KVER_WANTED=7.3
GS_LOGS=$GS_CACHE/logs
mkdir -p "$GS_CACHE" "$GS_LOGS"

# Wall-clock seconds since the epoch, for elapsed-time reports.
gs_now() { date +%s; }

gs_msg() { printf '[ghostswap] %s\n' "$*" >&2; }

gs_die() {
	printf '[ghostswap] ERROR: %s\n' "$*" >&2
	exit 1
}

# run_step NAME LOG CMD [ARG...]: run CMD with its output in LOG; report time; name step and log on failure.
run_step() {
	local name=$1 log=$2 start rc
	shift 2
	start=$(gs_now)
	gs_msg "$name ... (log: $log)"
	rc=0
	"$@" >"$log" 2>&1 || rc=$?
	if [ "$rc" -ne 0 ]; then
		printf '[ghostswap] FAILED: %s (exit %d after %ds); last lines of %s:\n' \
			"$name" "$rc" "$(($(gs_now) - start))" "$log" >&2
		tail -n 25 "$log" | sed 's/^/    /' >&2
		exit "$rc"
	fi
	gs_msg "$name done in $(($(gs_now) - start))s"
}

# Content hash of files and literal strings: the cache key of a build artifact.
gs_hash() {
	local f
	for f in "$@"; do
		if [ -f "$f" ]; then
			printf '%s\n' "$f" | sed "s|^$GS_TOP/||"
			cat "$f"
		else
			printf '%s\n' "$f"
		fi
	done | sha256sum | cut -c1-16
}

# apt-get as root: directly when root, else through sudo.
gs_as_root() {
	if [ "$(id -u)" -eq 0 ]; then
		"$@"
	else
		sudo "$@"
	fi
}

# Install the Debian packages named (only those missing).
gs_need_pkgs() {
	local missing=() p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
	done
	[ "${#missing[@]}" -eq 0 ] && return 0
	gs_msg "installing host packages: ${missing[*]}"
	gs_as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq ||
		gs_die "host packages: apt-get update failed"
	gs_as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		"${missing[@]}" >"$GS_LOGS/host-packages.log" 2>&1 ||
		gs_die "host packages: apt-get install failed (log: $GS_LOGS/host-packages.log)"
}

# The packages every build or boot needs on the host.
GS_HOST_PKGS=(build-essential bc bison flex libelf-dev libssl-dev ccache cpio xz-utils kmod
	qemu-system-x86 qemu-utils debootstrap e2fsprogs rsync python3 zstd util-linux)

# ---------------------------------------------------------------------------------------------------------
# Build layout (everything outside the repo):
#   $GS_CACHE/src/linux-source-7.3   pristine kernel tree (scripts/get-kernel-source.sh; never modified)
#   $GS_CACHE/build/<variant>/src    patched copy of it           /obj  kernel objects (KDIR), bzImage
#   $GS_CACHE/build/<variant>/ext    copy of Kbuild + module/ where ghostswap.ko is built
#   $GS_CACHE/rootfs/                debootstrap tree and base.img
#   $GS_CACHE/runs/<stamp>-<pid>/    one run-qemu.sh run: console.log, project image, overlay
GS_BUILD=$GS_CACHE/build
GS_VARIANTS=(release debug)

# gs_check_variant V: die unless V is a known kernel variant.
gs_check_variant() {
	case ${1:-} in
	release | debug) ;;
	*) gs_die "unknown kernel variant '${1:-}' (want: ${GS_VARIANTS[*]})" ;;
	esac
}

# gs_kernel_src: print the pristine kernel tree, fetching it (and the host packages) on first use.
gs_kernel_src() {
	local tree
	tree=$(find "$GS_CACHE/src" -mindepth 1 -maxdepth 1 -type d -name "linux-source-$GS_KVER_WANTED*" \
		-exec test -f '{}/.unpacked' ';' -print -quit 2>/dev/null || true)
	if [ -z "$tree" ]; then
		gs_need_pkgs "${GS_HOST_PKGS[@]}"
		tree=$("$GS_TOP/scripts/get-kernel-source.sh") || gs_die "kernel source: scripts/get-kernel-source.sh failed"
	fi
	printf '%s\n' "$tree"
}

# gs_series_file: the hook-patch series in use (GHOSTSWAP_SERIES overrides, e.g. /dev/null for none).
gs_series_file() {
	readlink -m "${GHOSTSWAP_SERIES:-$GS_TOP/hook-patch/series}"
}

# gs_series_patches: print "PATH STRIP" for each patch of the series, in order (blank lines and # comments
# skipped; a -pN after the name is honoured, -p1 otherwise). Patch names are relative to the series' folder.
gs_series_patches() {
	local series dir name opt _
	series=$(gs_series_file)
	[ -f "$series" ] || [ -c "$series" ] || return 0
	dir=$(dirname "$series")
	while read -r name opt _; do
		case $name in '' | '#'*) continue ;; esac
		case ${opt:-} in -p[0-9]*) ;; *) opt=-p1 ;; esac
		printf '%s %s\n' "$dir/$name" "$opt"
	done <"$series"
}

# gs_kernel_fragments V: the config fragments of variant V, in merge order.
gs_kernel_fragments() {
	printf '%s\n' "$GS_TOP/kernel/config/ghostswap.config"
	[ "$1" = debug ] && printf '%s\n' "$GS_TOP/kernel/config/debug.config"
	return 0
}

# gs_elapsed START: "Ns" since START (from gs_now).
gs_elapsed() { printf '%ds' "$(($(gs_now) - $1))"; }

# gs_uptodate MSG: report a cache hit, unless GS_QUIET=1 (run-qemu.sh builds quietly when up to date).
gs_uptodate() {
	[ "${GS_QUIET:-0}" = 1 ] || gs_msg "$*"
}

# Kernel splats: what run-qemu.sh and tests/run.sh look for in a console log. Only kernel lines count (they
# carry the printk time stamp, "[   12.345678] "), so a job printing such words itself does not trip it.
GS_SPLAT_RE='WARNING:|BUG:|kernel BUG at|Oops|general protection fault|KASAN:|UBSAN:|possible circular locking|inconsistent lock state|INFO: possible|kmemleak: .*new suspected memory leaks|INFO: task .* blocked for more than|Kernel panic|Call Trace:'

# gs_splat_lines LOG: "NUMBER<tab>LINE" for each splat line of a console log. "Call Trace:" lines between
# the kernel-log markers "ghostswap: expect-call-traces begin" and "... end" (written to /dev/kmsg by tests
# that provoke allocation failures on purpose) do not count; the other patterns always do. The windows
# nest (a depth count: an inner end does not close the outer window), and the group runner's
# "ghostswap: test ... start" closes all of them, so a test that failed inside a window does not hide
# the next test's traces.
gs_splat_lines() {
	tr -d '\r' <"$1" | awk -v re="$GS_SPLAT_RE" '
		/ghostswap: expect-call-traces begin/ { quiet++ }
		/ghostswap: expect-call-traces end/ { if (quiet > 0) quiet-- }
		/ghostswap: test [^ ]+ start/ { quiet = 0 }
		{
			p = match($0, /\[ *[0-9]+\.[0-9]+\] /)
			if (!p) next
			msg = substr($0, p + RLENGTH)
			if (msg !~ re) next
			if (quiet && msg ~ /Call Trace:/ && msg !~ /WARNING:|BUG:|KASAN:|Oops/) next
			print NR "\t" $0
		}'
}

# gs_scan_splats LOG: print the splat lines of a console log (at most 20), succeed iff there is one.
gs_scan_splats() {
	local lines
	lines=$(gs_splat_lines "$1")
	[ -n "$lines" ] || return 1
	printf '%s\n' "$lines" | awk 'NR <= 20' | cut -f 2-
}

# gs_splat_report LOG [LINES]: print the console log around its first splat (3 lines before, LINES in all,
# default 60): the whole first report with its task and call trace, so that a run failing on a splat shows
# what happened even where only its output survives (CI). Fails if there is no splat.
gs_splat_report() {
	local first
	first=$(gs_splat_lines "$1" | awk -F '\t' 'NR == 1 { print $1 }')
	[ -n "$first" ] || return 1
	tr -d '\r' <"$1" | awk -v from=$((first - 3)) -v n="${2:-60}" 'NR >= from && NR < from + n'
}
