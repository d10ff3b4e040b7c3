# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Fault injection on the swap-out path (debug kernel), sourced by a guest test after tests/lib/ghost.sh.
# See Documentation/fault-injection/fault-injection.rst: the faults are limited to one task (task-filter,
# /proc/PID/make-it-fail), so only the workload's own allocations fail, sleeping ones included.

# FAULT_PERCENT: the share of the workload's allocations that fail, in percent.
FAULT_PERCENT=20

# fault_run TYPE: with /dev/ghostswap swapped on, a workload fills RAM/8 (mixed pages), then, with
# FAULT_PERCENT % of its TYPE (failslab | fail_page_alloc) allocations failing, pushes its pages out with
# MADV_PAGEOUT and verifies them, 4 times. Fails the test on a mismatch, on a kill, or if nothing was
# injected or swapped; logs the injected count.
fault_run() {
	local type=$1 dir=/sys/kernel/debug/$1 budget=1000000 out=/tmp/fault.out pid rc=0
	# The debug kernel is built with fault injection (kernel/config/debug.config): missing there, it is a
	# failure, not a skip.
	if [ ! -d "$dir" ]; then
		gs_is_debug && gs_fail "no $dir on the debug kernel"
		gs_skip "no $dir: this kernel has no $type"
	fi
	ghost_setup
	# The task filter first, the probability last: in between, every task's allocations could fail.
	ghost_at_exit "fault_off $dir"
	echo Y >"$dir/task-filter"
	echo 0 >"$dir/verbose"
	echo 1 >"$dir/interval"
	echo 0 >"$dir/space"
	echo "$budget" >"$dir/times"
	echo N >"$dir/ignore-gfp-wait"
	if [ "$type" = fail_page_alloc ]; then
		echo N >"$dir/ignore-gfp-highmem"
		echo 0 >"$dir/min-order"
	fi
	echo "$FAULT_PERCENT" >"$dir/probability"
	local zswpout0 kept0
	zswpout0=$(gs_vmstat zswpout) kept0=$(ghost_stat pages_kept)
	gs_expect_call_traces_begin # allocation failure reports of what the faults hit
	gs-memtest --size $(($(ghost_mem_kib) / 8))K --mix 1:2:1 --pageout --passes 4 >"$out" 2>&1 &
	pid=$!
	ghost_wait_for "$out" "$pid" 'phase=fill'
	echo 1 >"/proc/$pid/make-it-fail" || gs_fail "the workload ended before its faults were armed"
	wait "$pid" || rc=$?
	gs_expect_call_traces_end
	local injected=$((budget - $(cat "$dir/times")))
	grep -E 'phase=(pageout|verify)' "$out" | tail -n 2
	gs_log "$type: $injected allocations failed; zswpout +$(($(gs_vmstat zswpout) - zswpout0))," \
		"pages kept in RAM +$(($(ghost_stat pages_kept) - kept0)), workload exit $rc"
	[ "$rc" -eq 0 ] || { tail -n 5 "$out" && gs_fail "the workload failed (exit $rc) under $type"; }
	[ "$injected" -gt 0 ] || gs_fail "$type injected no failure"
	[ "$(gs_vmstat zswpout)" -gt "$zswpout0" ] || gs_fail "nothing was swapped out"
}

# fault_off DIR: stop injecting (the probability first, for the same reason).
fault_off() {
	echo 0 >"$1/probability"
	echo N >"$1/task-filter"
}
