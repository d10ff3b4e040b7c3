# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# stress-ng on /dev/ghostswap, sourced by a guest test after tests/lib/ghost.sh. A run goes on until it has
# swapped out STRESS_SWAP_TARGET hundredths of RAM (swap-outs to zswap or to a disk, in pages: 200 is twice
# RAM) or its time limit is up, whichever comes first, and fails if it swapped out less than
# STRESS_SWAP_FLOOR hundredths of RAM, so that a stressor that happens not to swap cannot pass. The limits
# keep the debug group inside the CI budget on a slow host; a fast one reaches the target (the log prints
# what each run did). The floor is below what the slowest host seen does: with two boots sharing its two
# CPUs, pageswap swapped 0.04 x RAM a minute there, the others 0.1-0.2 x (walk-1d 2 x in about 140 s on a
# faster host).
STRESS_SWAP_TARGET=200
STRESS_SWAP_FLOOR=3
# A command that stress_run puts before stress-ng, e.g. ("${GS_IN_CGROUP[@]}" CG) to run it in cgroup CG.
STRESS_WRAP=()

# stress_swapped_pages: pages swapped out so far (zswap stores plus disk writes).
stress_swapped_pages() { echo $(($(gs_vmstat zswpout) + $(gs_vmstat pswpout))); }

# stress_oom_others: OOM kills since the last `dmesg -C` of anything but a stress-ng worker (stress-ng runs
# its workers at oom_score_adj 1000 and restarts them when they are killed).
stress_oom_others() { dmesg | grep 'Killed process' | grep -vc 'oom_score_adj:1000' || true; }

# stress_ram_pct PCT: PCT % of RAM in KiB, with a K suffix (for sizes of stress-ng and gs-memtest).
stress_ram_pct() { echo "$(($(ghost_mem_kib) * $1 / 100))K"; }

# stress_stop_at PAGES: once PAGES pages have been swapped out in all, stop the running stress-ng with
# SIGINT to its main process, which ends the run (verification and metrics included, exit 0) as its
# --timeout does.
stress_stop_at() {
	while [ "$(stress_swapped_pages)" -lt "$1" ]; do
		sleep 2
	done
	pkill -INT -o -x stress-ng || true
}

# stress_ratio PAGES RAM_PAGES: PAGES as a multiple of RAM with two decimals, e.g. 3.14.
stress_ratio() { printf '%d.%02d\n' $(($1 * 100 / $2 / 100)) $(($1 * 100 / $2 % 100)); }

# stress_run MAX_SECONDS ARGS...: run `stress-ng ARGS` with verification and brief metrics until the
# test has swapped out STRESS_SWAP_TARGET hundredths of RAM, for at most MAX_SECONDS. Fail the test if
# stress-ng fails (a verification error is a failure), if the OOM killer kills anything but a stress-ng
# worker, or if less than STRESS_SWAP_FLOOR hundredths of RAM were swapped out. stress-ng workers run at
# oom_score_adj 1000 and are restarted when killed: under TCG, above all with KASAN, a swap-out can take
# long enough for reclaim to give up early, so their kills are counted, not failed.
stress_run() {
	local secs=$1 rc=0 swapped0 swapped ram_pages target kills0 kills others stopper t0 ended
	shift
	ram_pages=$(($(ghost_mem_kib) / 4))
	swapped0=$(stress_swapped_pages) kills0=$(gs_vmstat oom_kill)
	target=$((ram_pages * STRESS_SWAP_TARGET / 100))
	dmesg -C
	stress_stop_at $((swapped0 + target)) &
	stopper=$!
	t0=$SECONDS
	ghost_pressure "${STRESS_WRAP[@]}" stress-ng "$@" --timeout "${secs}s" --metrics-brief --temp-path /var/tmp || rc=$?
	kill "$stopper" 2>/dev/null || true
	wait "$stopper" 2>/dev/null || true
	swapped=$(($(stress_swapped_pages) - swapped0)) kills=$(($(gs_vmstat oom_kill) - kills0))
	others=$(stress_oom_others)
	ended="time limit"
	[ "$swapped" -lt "$target" ] || ended="target reached"
	gs_log "stress-ng $*: exit $rc after $((SECONDS - t0)) s ($ended); swapped out $swapped pages" \
		"($(stress_ratio "$swapped" "$ram_pages") x RAM), swapped in $(gs_vmstat zswpin) + $(gs_vmstat pswpin) (total)," \
		"OOM kills $kills (not stress-ng workers: $others)"
	[ "$rc" -eq 0 ] || gs_fail "stress-ng $* failed (exit $rc)"
	[ "$others" -eq 0 ] || gs_fail "stress-ng $*: the OOM killer killed something else than a stress-ng worker"
	[ "$((swapped * 100))" -ge $((ram_pages * STRESS_SWAP_FLOOR)) ] ||
		gs_fail "stress-ng $* swapped out $(stress_ratio "$swapped" "$ram_pages") x RAM in ${secs} s," \
			"less than $(stress_ratio "$STRESS_SWAP_FLOOR" 100) x"
}
