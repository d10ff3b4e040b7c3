# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Pages zswap does not take (here: its pool is full) stay in memory, counted in stats/pages_kept, and
# nothing is written anywhere: the workload verifies, nothing is OOM-killed, pswpout does not move.
. tests/lib/ghost.sh
GHOST_ZSWAP_POOL_PERCENT=10
ghost_setup
kept0=$(ghost_stat pages_kept) pswpout0=$(gs_vmstat pswpout)
dmesg -C
# Incompressible data, 6 x the pool's size (3 x on the debug kernel), pushed out with MADV_PAGEOUT twice.
ghost_pressure gs-memtest --size $(($(ghost_work_kib) * 6 / 10))K --mix 0:0:1 --pageout --passes 2 ||
	gs_fail "the workload failed when zswap refused its pages"
kept=$(($(ghost_stat pages_kept) - kept0)) pswpout=$(($(gs_vmstat pswpout) - pswpout0))
gs_log "pages kept in memory after zswap refused them: $kept; pswpout +$pswpout"
grep -H . /sys/kernel/debug/zswap/pool_limit_hit /sys/kernel/debug/zswap/reject_* 2>/dev/null || true
[ "$kept" -gt 0 ] || gs_fail "stats/pages_kept did not move: zswap never refused a page"
[ "$pswpout" -eq 0 ] || gs_fail "$pswpout pages were written to a device without backing store"
if dmesg | grep -q 'Out of memory'; then gs_fail "the OOM killer ran"; fi
