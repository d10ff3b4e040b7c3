# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034  # variables for the tests that source this
# Helpers for tests that run INSIDE the guest. A test is tests/cases/<group>/NNN-name.sh; the group runner
# (tests/lib/run-group.sh) runs it with bash in /gs with this file sourced and `set -euo pipefail` on.
#
# Exit status of a test: 0 pass, 77 skip (gs_skip), anything else fail. Output goes to the test's log
# (/gs/logs/<group>/<test>.log); the runner prints its tail on the console when the test fails.
#
# Guest layout: /gs = per-run copy of the repo's tests/ and module/ (with the built ghostswap.ko),
# /gs/bin (built tests/prog programs, on PATH), /tmp/host (files given with run-qemu.sh --copy).
# Environment: GS_KERNEL_VARIANT (release|debug), GS_KERNEL_UTS_VERSION, GS_KERNEL_PATCHES, GS_MEM_MIB,
# GS_CPUS, GS_TEST (group/name of the running test).

GS_MODULE=/gs/module/ghostswap.ko
GS_DEV=/dev/ghostswap

gs_log() { printf '# %s\n' "$*"; }

# gs_fail MSG: fail the test now.
gs_fail() {
	printf 'FAIL: %s\n' "$*"
	exit 1
}

# gs_skip REASON: skip the test (reported as ok with # SKIP).
gs_skip() {
	printf 'SKIP: %s\n' "$*"
	exit 77
}

# gs_note MSG: a passing test's remark that must not go unseen (e.g. it passed only on a retry): the group
# runner adds it to the test's result line, and tests/run.sh lists it before its summary.
gs_note() { printf 'NOTE: %s\n' "$*"; }

# gs_assert CMD...: run CMD; fail the test naming it if it fails.
gs_assert() {
	"$@" || gs_fail "assertion failed: $*"
}

# gs_kmsg MSG: write MSG to the kernel log (shows on the console between kernel messages).
gs_kmsg() { printf 'ghostswap: %s\n' "$*" >/dev/kmsg; }

# Allocation-failure reports (warn_alloc, fault injection) and OOM-killer reports print "Call Trace:",
# which run-qemu.sh counts as a splat; between these two calls they do not count (WARNING/BUG/KASAN/Oops
# still do). For tests that provoke them on purpose. Windows nest: the console filter (gs_splat_lines in
# scripts/lib.sh) counts the markers, so a helper's window (ghost_pressure) inside a test's own keeps the
# test's open; the group runner's start line of the next test closes any that a failed test left open.
# GS_EXPECT_DEPTH counts this shell's open windows: an end without a begin is a test bug and fails.
GS_EXPECT_DEPTH=0
gs_expect_call_traces_begin() {
	GS_EXPECT_DEPTH=$((GS_EXPECT_DEPTH + 1))
	gs_kmsg "expect-call-traces begin (depth $GS_EXPECT_DEPTH)"
}
gs_expect_call_traces_end() {
	[ "$GS_EXPECT_DEPTH" -gt 0 ] || gs_fail "gs_expect_call_traces_end without a begin"
	gs_kmsg "expect-call-traces end (depth $GS_EXPECT_DEPTH)"
	GS_EXPECT_DEPTH=$((GS_EXPECT_DEPTH - 1))
}

# gs_vmstat NAME: a /proc/vmstat counter (0 if absent).
gs_vmstat() { awk -v k="$1" '$1 == k { print $2; found = 1 } END { if (!found) print 0 }' /proc/vmstat; }

# "${GS_IN_CGROUP[@]}" CG CMD...: run CMD inside cgroup directory CG as the same process, so $! is CMD's
# pid; a plain command line (not a function), so it also works under timeout, nohup and the like.
# shellcheck disable=SC2016,SC2034  # expanded by the inner bash; used by the tests
GS_IN_CGROUP=(bash -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' _)

# gs_module_load [PARAM=VALUE...]: insmod module/ghostswap.ko unless loaded; fail if it is not built.
gs_module_load() {
	grep -q '^ghostswap ' /proc/modules && return 0
	[ -f "$GS_MODULE" ] || gs_fail "no $GS_MODULE: the module was not built (see make module)"
	insmod "$GS_MODULE" "$@" || gs_fail "insmod $GS_MODULE failed"
}

# gs_module_unload: rmmod ghostswap if loaded.
gs_module_unload() {
	grep -q '^ghostswap ' /proc/modules || return 0
	rmmod ghostswap || gs_fail "rmmod ghostswap failed"
}

# gs_zswap_enable [COMPRESSOR]: turn zswap on (default compressor lz4).
gs_zswap_enable() {
	echo "${1:-lz4}" >/sys/module/zswap/parameters/compressor
	echo Y >/sys/module/zswap/parameters/enabled
}
gs_zswap_disable() { echo N >/sys/module/zswap/parameters/enabled; }

# gs_reset: bring the guest back to where a test starts (no workload, no swap, no module, zswap off)
# after a test that failed. A test killed at its timeout may not have undone what it set up, and a device
# left swapped on would fail the group's next tests as well.
gs_reset() {
	local dev
	pkill -KILL -x gs-memtest || true
	pkill -KILL -x stress-ng || true
	awk 'NR > 1 { print $1 }' /proc/swaps | while read -r dev; do
		swapoff "$dev" || true
	done
	rmmod ghostswap 2>/dev/null || true
	gs_zswap_disable
}

# gs_is_debug: true on the debug kernel variant.
gs_is_debug() { [ "${GS_KERNEL_VARIANT:-}" = debug ]; }

# gs_kmemleak_on: true where leaks are checked: on the debug kernel (built with kmemleak) unless it was
# booted with kmemleak=off (some debug groups are, for time: see their group.conf), and on any kernel
# that has kmemleak and was not booted with it off.
GS_KMEMLEAK=/sys/kernel/debug/kmemleak
gs_kmemleak_on() {
	{ gs_is_debug || [ -e "$GS_KMEMLEAK" ]; } && ! grep -qw 'kmemleak=off' /proc/cmdline
}

# gs_kmemleak_check: if gs_kmemleak_on, scan now and fail with kmemleak's records if it reports leaks.
# Fails too if kmemleak should run and does not: no $GS_KMEMLEAK, or kmemleak has switched itself off
# (e.g. "kmemleak: Memory pool empty" under memory pressure), since then no leak can be found. The
# records are cleared after a failure, so that the group's later checks report only new leaks. No-op where
# kmemleak is not on. (A debugfs file has size 0: what kmemleak found is in its content, not its size.)
gs_kmemleak_check() {
	local f=$GS_KMEMLEAK report n
	gs_kmemleak_on || return 0
	[ -e "$f" ] || gs_fail "no $f on the $GS_KERNEL_VARIANT kernel: kmemleak is not built in"
	if ! { echo scan >"$f"; } 2>/dev/null; then
		dmesg | grep -i kmemleak | tail -n 10 || true
		gs_fail "kmemleak is disabled (see its kernel messages above): no leak check possible"
	fi
	echo scan >"$f" # a second scan reports what the first one found unreferenced
	report=$(cat "$f")
	[ -n "$report" ] || return 0
	n=$(grep -c '^unreferenced object' <<<"$report" || true)
	printf '%s\n' "$report" | head -n 400
	echo clear >"$f" || true
	gs_fail "kmemleak reports $n suspected leak(s) (records above)"
}
