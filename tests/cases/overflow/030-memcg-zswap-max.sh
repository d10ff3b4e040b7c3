# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# A cgroup at its memory.zswap.max (2 MiB): ghostswap steps aside for its pages, which go to the swap
# partition instead of being unmapped and kept in memory; the workload (compressible pages, twice the
# cgroup's memory.max) verifies, and other cgroups' pages still go to zswap.
. tests/lib/ghost.sh
. tests/lib/overflow.sh
ghost_setup
overflow_partition_on
ghost_memcg gs-zswap-max
work_kib=$(ghost_work_kib)
echo $((work_kib / 4))K >"$GHOST_CG/memory.max"
echo 2M >"$GHOST_CG/memory.zswap.max"
written0=$(overflow_written_pages "$OVERFLOW_DISK") kept0=$(ghost_stat pages_kept) asides0=$(ghost_stat step_asides)
ghost_pressure "${GS_IN_CGROUP[@]}" "$GHOST_CG" gs-memtest --size $((work_kib / 2))K --mix 0:1:0 ||
	gs_fail "gs-memtest failed in a cgroup at memory.zswap.max"
overflow_report
written=$(($(overflow_written_pages "$OVERFLOW_DISK") - written0)) kept=$(($(ghost_stat pages_kept) - kept0))
asides=$(($(ghost_stat step_asides) - asides0))
zswapped=$(awk '$1 == "zswapped" { print $2 }' "$GHOST_CG/memory.stat")
gs_log "partition +$written pages, pages_kept +$kept, step_asides +$asides, cgroup zswapped $zswapped bytes"
grep -q '^oom_kill 0$' "$GHOST_CG/memory.events" || gs_fail "the cgroup saw an OOM kill"
# What exceeds memory.max (a quarter of the work size) must be swapped: at least half of it to disk.
[ "$written" -ge $((work_kib / 4 / 4 / 2)) ] ||
	gs_fail "only $written pages reached the partition (want >= $((work_kib / 32)))"
[ "$asides" -gt 0 ] || gs_fail "ghostswap never stepped aside for the cgroup"
[ "$kept" -le $((work_kib / 4 / 10)) ] ||
	gs_fail "$kept pages were unmapped, refused by zswap and kept (want <= a tenth of the workload)"
zswpout0=$(gs_vmstat zswpout)
gs-memtest --size $((work_kib / 8))K --mix 0:1:0 --pageout || gs_fail "gs-memtest failed outside the cgroup"
[ "$(($(gs_vmstat zswpout) - zswpout0))" -gt 0 ] || gs_fail "outside the cgroup, nothing went to zswap"
