# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Fault injection on the swap-out path (debug kernel), sourced by a guest test after tests/lib/ghost.sh.
# See Documentation/fault-injection/fault-injection.rst: the faults are limited to one task (task-filter,
# /proc/PID/make-it-fail), so only the workload's own allocations fail, sleeping ones included.

# FAULT_PERCENT: the share of the workload's allocations that fail, in percent.
FAULT_PERCENT=20

# fault_run TYPE: with /dev/ghostswap swapped on, a workload fills RAM/8 (mixed pages), then, with
# FAULT_PERCENT % of its TYPE (failslab | fail_page_alloc) allocations failing, pushes its pages out with
# MADV_PAGEOUT and verifies them, 4 times. Fails the test on a mismatch, on a kill, if nothing was
# swapped, or if fewer failures were injected than the swap traffic implies (see the end); logs the counts.
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
	local zswpout0 zswpin0 kept0
	zswpout0=$(gs_vmstat zswpout) zswpin0=$(gs_vmstat zswpin) kept0=$(ghost_stat pages_kept)
	gs_expect_call_traces_begin # allocation failure reports of what the faults hit
	gs-memtest --size $(($(ghost_mem_kib) / 8))K --mix 1:2:1 --pageout --passes 4 >"$out" 2>&1 &
	pid=$!
	ghost_wait_for "$out" "$pid" 'phase=fill'
	echo 1 >"/proc/$pid/make-it-fail" || gs_fail "the workload ended before its faults were armed"
	wait "$pid" || rc=$?
	gs_expect_call_traces_end
	local injected=$((budget - $(cat "$dir/times")))
	local zswpout=$(($(gs_vmstat zswpout) - zswpout0)) zswpin=$(($(gs_vmstat zswpin) - zswpin0)) want
	# Each page zswap stores took a slab allocation (its zswap_entry), each page it loads back a page
	# allocation (the swap-in folio), both in the workload's own context: with FAULT_PERCENT % of them
	# failing (at least a fifth), a quarter of the stores or loads is what failslab or fail_page_alloc
	# injects at the least, on average. A tenth of that count, with thousands of pages, cannot be missed
	# by chance: fewer means the faults did not reach the swap path.
	if [ "$type" = failslab ]; then want=$((zswpout / 10)); else want=$((zswpin / 10)); fi
	[ "$want" -ge 1 ] || want=1
	grep -E 'phase=(pageout|verify)' "$out" | tail -n 2
	gs_log "$type: $injected allocations failed (at least $want wanted); zswpout +$zswpout, zswpin +$zswpin," \
		"pages kept in RAM +$(($(ghost_stat pages_kept) - kept0)), workload exit $rc"
	[ "$rc" -eq 0 ] || { tail -n 5 "$out" && gs_fail "the workload failed (exit $rc) under $type"; }
	[ "$zswpout" -gt 0 ] || gs_fail "nothing was swapped out"
	[ "$injected" -ge "$want" ] || gs_fail "$type injected $injected failures, fewer than $want"
}

# fault_off DIR: stop injecting (the probability first, for the same reason).
fault_off() {
	echo 0 >"$1/probability"
	echo N >"$1/task-filter"
}
