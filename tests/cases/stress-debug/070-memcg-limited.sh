# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# A memcg-limited workload: memory.max at a quarter of the working set, which stress-ng --vm (--verify)
# and a verifying gs-memtest share inside the cgroup, so the cgroup's own reclaim swaps its pages through
# /dev/ghostswap over and over (memory.events counts the limit hits).
. tests/lib/ghost.sh
. tests/lib/stress.sh
ghost_setup
ghost_memcg gs-limited
mem_kib=$(ghost_mem_kib)
echo $((mem_kib / 4))K >"$GHOST_CG/memory.max"
"${GS_IN_CGROUP[@]}" "$GHOST_CG" gs-memtest --size $((mem_kib / 4))K --mix 1:2:1 --passes 2 --random \
	>/tmp/memcg.out 2>&1 &
memtest=$!
STRESS_WRAP=("${GS_IN_CGROUP[@]}" "$GHOST_CG")
stress_run "$STRESS_TARGET" "$STRESS_SAFETY" --vm 2 --vm-bytes $((mem_kib * 3 / 8))K --vm-keep --verify
wait "$memtest" || { tail -n 5 /tmp/memcg.out && gs_fail "gs-memtest in the limited cgroup failed"; }
grep -H . "$GHOST_CG/memory.events" "$GHOST_CG/memory.swap.peak"
[ "$(awk '$1 == "max" { print $2 }' "$GHOST_CG/memory.events")" -gt 0 ] || gs_fail "the cgroup never hit memory.max"
[ "$(cat "$GHOST_CG/memory.swap.peak")" -gt 0 ] || gs_fail "the cgroup never swapped"
