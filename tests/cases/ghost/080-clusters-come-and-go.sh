# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Clusters are created under load and freed with their last slot: once the workload has exited and the
# swap cache it left behind is reclaimed, the device is back to its one idle cluster (the header's), and
# after swapoff every cluster created was freed. The pressure stays inside the workload's cgroup
# (memory.max), so no other process's pages are swapped out and keep clusters.
. tests/lib/ghost.sh
ghost_setup
mem_kib=$(ghost_mem_kib) work_kib=$(ghost_work_kib)
[ "$(ghost_stat clusters)" -eq 1 ] || gs_fail "idle device has $(ghost_stat clusters) clusters, wanted 1"
idle_meta=$(ghost_stat metadata_bytes)
ghost_memcg gs-clusters
cg=$GHOST_CG
echo $((work_kib / 4))K >"$cg/memory.max"
ghost_pressure "${GS_IN_CGROUP[@]}" "$cg" \
	gs-memtest --size $((work_kib / 2))K --mix 1:3:0 || gs_fail "gs-memtest failed"
peak=$(ghost_stat clusters_peak)
gs_log "clusters peak $peak, created $(ghost_stat clusters_created), freed $(ghost_stat clusters_freed)"
[ "$peak" -gt 1 ] || gs_fail "no cluster was created under load (peak $peak)"
# Swap-cache folios whose process is gone keep their slots while swap is not full: reclaim them.
gs_log "after exit: clusters $(ghost_stat clusters), slots used $(ghost_stat slots_used)"
echo "$((mem_kib * 2))K swappiness=max" >"$cg/memory.reclaim" 2>/dev/null || true
gs_log "after reclaim: clusters $(ghost_stat clusters), slots used $(ghost_stat slots_used)"
[ "$(ghost_stat clusters)" -eq 1 ] || gs_fail "$(ghost_stat clusters) clusters remain after the workload"
[ "$(ghost_stat slots_used)" -eq 0 ] || gs_fail "$(ghost_stat slots_used) slots still used"
[ "$(ghost_stat metadata_bytes)" -eq "$idle_meta" ] || gs_fail "metadata did not return to its idle size"
swapoff "$GS_DEV" || gs_fail "swapoff failed"
[ "$(ghost_stat clusters)" -eq 0 ] || gs_fail "$(ghost_stat clusters) clusters remain after swapoff"
[ "$(ghost_stat clusters_created)" -eq "$(ghost_stat clusters_freed)" ] ||
	gs_fail "created $(ghost_stat clusters_created) clusters but freed $(ghost_stat clusters_freed)"
