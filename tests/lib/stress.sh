# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034  # the STRESS_* settings are for the tests that source this
# stress-ng on /dev/ghostswap, sourced by a guest test after tests/lib/ghost.sh. A run is a fixed amount
# of work: it goes on until it has swapped out its target (swap-outs to zswap or to a disk, in pages, as a
# share of RAM) and fails if its safety timeout ends it first. How fast a host is decides how long a run
# takes, never whether it passes: the targets are what every run reached in CI on a slow host sharing
# its two CPUs with another boot, and the timeouts several times what that host needed (see the group's
# group.conf).

# The targets (hundredths of RAM) and the safety timeout (seconds) of the stress-debug runs. A slow host
# (two boots on two CPUs, debug kernel under TCG) swapped about 0.14 x RAM a minute in the vm-type runs and
# 0.06 x in pageswap, so a run there takes about two minutes; a run that has not reached its target in
# eight has stopped making progress, which is a failure.
STRESS_TARGET=25
STRESS_TARGET_PAGESWAP=10
STRESS_SAFETY=480

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
# --timeout does, and write the time (bash's SECONDS) to /tmp/stress.stopped.
stress_stop_at() {
	while [ "$(stress_swapped_pages)" -lt "$1" ]; do
		sleep 2
	done
	echo "$SECONDS" >/tmp/stress.stopped
	pkill -INT -o -x stress-ng || true
}

# stress_ratio PAGES RAM_PAGES: PAGES as a multiple of RAM with two decimals, e.g. 3.14.
stress_ratio() { printf '%d.%02d\n' $(($1 * 100 / $2 / 100)) $(($1 * 100 / $2 % 100)); }

# stress_run TARGET MAX_SECONDS ARGS...: run `stress-ng ARGS` with verification and brief metrics until
# the test has swapped out TARGET hundredths of RAM (then stress-ng is stopped with SIGINT, which ends the
# run as its --timeout does, verification included), for at most MAX_SECONDS, a safety timeout. Fail the
# test if stress-ng fails (a verification error is a failure), if the OOM killer kills anything but a
# stress-ng worker, or if the safety timeout came before the target. stress-ng workers run at
# oom_score_adj 1000 and are restarted when killed: under TCG, above all with KASAN, a swap-out can take
# long enough for reclaim to give up early, so their kills are counted, not failed.
stress_run() {
	local pct=$1 secs=$2 rc=0 swapped0 swapped ram_pages target kills0 kills others stopper t0 ended
	shift 2
	ram_pages=$(($(ghost_mem_kib) / 4))
	swapped0=$(stress_swapped_pages) kills0=$(gs_vmstat oom_kill)
	target=$((ram_pages * pct / 100))
	dmesg -C
	rm -f /tmp/stress.stopped
	stress_stop_at $((swapped0 + target)) &
	stopper=$!
	t0=$SECONDS
	ghost_pressure "${STRESS_WRAP[@]}" stress-ng "$@" --timeout "${secs}s" --metrics-brief --temp-path /var/tmp || rc=$?
	kill "$stopper" 2>/dev/null || true
	wait "$stopper" 2>/dev/null || true
	swapped=$(($(stress_swapped_pages) - swapped0)) kills=$(($(gs_vmstat oom_kill) - kills0))
	others=$(stress_oom_others)
	ended="safety timeout"
	[ ! -s /tmp/stress.stopped ] || ended="target reached after $(($(cat /tmp/stress.stopped) - t0)) s"
	gs_log "stress-ng $*: exit $rc after $((SECONDS - t0)) s ($ended); swapped out $swapped pages" \
		"($(stress_ratio "$swapped" "$ram_pages") x RAM, target $(stress_ratio "$pct" 100) x)," \
		"swapped in $(gs_vmstat zswpin) + $(gs_vmstat pswpin) (total), OOM kills $kills (not stress-ng workers: $others)"
	[ "$rc" -eq 0 ] || gs_fail "stress-ng $* failed (exit $rc)"
	[ "$others" -eq 0 ] || gs_fail "stress-ng $*: the OOM killer killed something else than a stress-ng worker"
	[ "$swapped" -ge "$target" ] ||
		gs_fail "stress-ng $* swapped out $(stress_ratio "$swapped" "$ram_pages") x RAM in its ${secs} s" \
			"safety timeout, short of its target $(stress_ratio "$pct" 100) x"
}
