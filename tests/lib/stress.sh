# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# stress-ng on /dev/ghostswap, sourced by a guest test after tests/lib/ghost.sh. Every run must swap out at
# least STRESS_MIN_SWAP tenths of RAM (swap-outs to zswap or to a disk, in pages), so that a stressor that
# happens not to swap cannot pass. Each test sets it to about half of what its run swaps on the debug
# kernel in a 256 MiB guest under TCG (the log prints the figure).

STRESS_MIN_SWAP=10
# A command that stress_run puts before stress-ng, e.g. ("${GS_IN_CGROUP[@]}" CG) to run it in cgroup CG.
STRESS_WRAP=()

# stress_swapped_pages: pages swapped out so far (zswap stores plus disk writes).
stress_swapped_pages() { echo $(($(gs_vmstat zswpout) + $(gs_vmstat pswpout))); }

# stress_oom_others: OOM kills since the last `dmesg -C` of anything but a stress-ng worker (stress-ng runs
# its workers at oom_score_adj 1000 and restarts them when they are killed).
stress_oom_others() { dmesg | grep 'Killed process' | grep -vc 'oom_score_adj:1000' || true; }

# stress_ram_pct PCT: PCT % of RAM in KiB, with a K suffix (for sizes of stress-ng and gs-memtest).
stress_ram_pct() { echo "$(($(ghost_mem_kib) * $1 / 100))K"; }

# stress_run SECONDS ARGS...: run `stress-ng ARGS` for SECONDS with verification and brief metrics; fail
# the test if stress-ng fails (a verification error is a failure), if the OOM killer kills anything but a
# stress-ng worker, or if less than STRESS_MIN_SWAP tenths of RAM were swapped out meanwhile. stress-ng
# workers run at oom_score_adj 1000 and are restarted when killed: under TCG, above all with KASAN, a
# swap-out can take long enough for reclaim to give up early, so their kills are counted, not failed.
stress_run() {
	local secs=$1 rc=0 swapped0 swapped ram_pages kills0 kills others
	shift
	ram_pages=$(($(ghost_mem_kib) / 4))
	swapped0=$(stress_swapped_pages) kills0=$(gs_vmstat oom_kill)
	dmesg -C
	ghost_pressure "${STRESS_WRAP[@]}" stress-ng "$@" --timeout "${secs}s" --metrics-brief --temp-path /var/tmp || rc=$?
	swapped=$(($(stress_swapped_pages) - swapped0)) kills=$(($(gs_vmstat oom_kill) - kills0))
	others=$(stress_oom_others)
	gs_log "stress-ng $*: exit $rc; swapped out $swapped pages ($((swapped * 10 / ram_pages / 10)).$((swapped * 10 / ram_pages % 10)) x RAM)," \
		"swapped in $(gs_vmstat zswpin) + $(gs_vmstat pswpin) (total), OOM kills $kills (not stress-ng workers: $others)"
	[ "$rc" -eq 0 ] || gs_fail "stress-ng $* failed (exit $rc)"
	[ "$others" -eq 0 ] || gs_fail "stress-ng $*: the OOM killer killed something else than a stress-ng worker"
	[ "$((swapped * 10))" -ge $((ram_pages * STRESS_MIN_SWAP)) ] ||
		gs_fail "stress-ng $* swapped out less than $STRESS_MIN_SWAP tenths of RAM"
}
