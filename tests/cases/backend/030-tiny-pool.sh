# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# zswap with a tiny pool (max_pool_percent=2) and an incompressible workload of 2 x RAM in a cgroup held at
# half of RAM (ghost_fill_memcg): zswap refuses or writes back, the backing device takes at least RAM's
# worth of pages, sequentially, and they verify with 0 mismatches.
. tests/lib/backend.sh
GHOST_ZSWAP_POOL_PERCENT=2
ghost_setup
dmesg -C
mem_kib=$(ghost_mem_kib)
sectors0=$(backend_disk_stat 7) writes0=$(ghost_stat backend_writes) seq0=$(ghost_stat backend_writes_sequential)
ghost_fill_memcg backend-fill
ghost_pressure "${GS_IN_CGROUP[@]}" "$GHOST_CG" gs-memtest --size $((mem_kib * 2))K --mix 0:0:1 ||
	gs_fail "gs-memtest reported mismatches or failed"
gs_log "memory.events of the fill: $(tr '\n' ' ' <"$GHOST_CG/memory.events")"
written_kib=$((($(backend_disk_stat 7) - sectors0) / 2))
gs_log "disk writes $written_kib KiB"
grep -H . /sys/kernel/debug/zswap/pool_limit_hit /sys/kernel/debug/zswap/reject_* \
	/sys/kernel/debug/zswap/written_back_pages 2>/dev/null || true
backend_report
[ "$written_kib" -ge "$mem_kib" ] || gs_fail "only $written_kib KiB of 2 x RAM incompressible data reached $GS_BACKING"
backend_check_sequential "$writes0" "$seq0"
if dmesg | grep -q 'Out of memory'; then gs_fail "the OOM killer ran"; fi
