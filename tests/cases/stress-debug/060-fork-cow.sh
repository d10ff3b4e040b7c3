# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Copy-on-write of swapped pages: two gs-memtest --fork workloads (15 % of RAM each, pushed out before the
# fork) whose children verify the shared swapped pages, rewrite their own copies and verify those, while
# the parents verify theirs; meanwhile a stress-ng fork and a clone worker run next to two --vm
# workers with --verify holding 90 % of RAM, so that everything swaps.
. tests/lib/ghost.sh
. tests/lib/stress.sh
ghost_setup
gs_expect_call_traces_begin # allocation stall reports under TCG, outside stress_run too
(
	pids=()
	for i in 1 2; do
		gs-memtest --size "$(stress_ram_pct 15)" --mix 1:2:1 --seed "$i" --pageout --fork \
			>"/tmp/cow$i.out" 2>&1 &
		pids+=($!)
	done
	for i in 1 2; do
		wait "${pids[i - 1]}" || { tail -n 5 "/tmp/cow$i.out" && exit 1; }
	done
) &
cow=$!
stress_run "$STRESS_TARGET" "$STRESS_SAFETY" --fork 1 --clone 1 --vm 2 --vm-bytes "$(stress_ram_pct 90)" --vm-keep --verify
wait "$cow" || gs_fail "a forked workload failed"
gs_expect_call_traces_end
