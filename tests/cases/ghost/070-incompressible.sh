# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Incompressible pages, 6 x the size of zswap's pool (3 x on the debug kernel), pushed out with
# MADV_PAGEOUT twice: zswap stores them as they are until its pool is full, then /dev/ghostswap steps
# aside and the rest stay mapped in memory. The workload verifies, nothing is OOM-killed, nothing is
# written to a disk (pswpout), and few pages take the futile path of being unmapped and kept.
. tests/lib/ghost.sh
GHOST_ZSWAP_POOL_PERCENT=10
ghost_setup
kept0=$(ghost_stat pages_kept) pswpout0=$(gs_vmstat pswpout) asides0=$(ghost_stat step_asides)
zswpout0=$(gs_vmstat zswpout)
pages=$(($(ghost_work_kib) * 6 / 10 / 4))
dmesg -C
ghost_pressure gs-memtest --size $((pages * 4))K --mix 0:0:1 --pageout --passes 2 ||
	gs_fail "the workload failed when zswap's pool was full"
kept=$(($(ghost_stat pages_kept) - kept0)) pswpout=$(($(gs_vmstat pswpout) - pswpout0))
asides=$(($(ghost_stat step_asides) - asides0))
zswpout=$(($(gs_vmstat zswpout) - zswpout0))
pool_pages=$(($(ghost_mem_kib) * GHOST_ZSWAP_POOL_PERCENT / 100 / 4))
gs_log "zswpout +$zswpout (pool limit $pool_pages pages), step_asides +$asides, pages kept +$kept, pswpout +$pswpout"
grep -H . /sys/kernel/debug/zswap/pool_limit_hit /sys/kernel/debug/zswap/reject_* 2>/dev/null || true
[ "$zswpout" -ge $((pool_pages / 2)) ] || gs_fail "zswap stored only $zswpout incompressible pages as they are"
[ "$asides" -gt 0 ] || gs_fail "ghostswap never stepped aside: zswap's pool never filled"
[ "$pswpout" -eq 0 ] || gs_fail "$pswpout pages were written to a device without backing store"
[ "$kept" -le $((pages / 10)) ] ||
	gs_fail "$kept pages were unmapped, refused by zswap and kept (want <= a tenth of $pages)"
if dmesg | grep -q 'Out of memory'; then gs_fail "the OOM killer ran"; fi
