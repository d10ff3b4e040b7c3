# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The cluster array grows with use: an idle device has one page of it mapped, a workload beyond that page
# makes the swap core map more, and it stays mapped (slots_mapped) until swapoff, which unmaps all of it.
# Slots come and go: once the workload has exited and the swap cache it left behind is reclaimed, no slot
# is in use, and every slot the workload used was freed through the device (slots_freed). The pressure
# stays inside the workload's cgroup (memory.max), so no other process's pages are swapped out.
. tests/lib/ghost.sh
ghost_setup
mem_kib=$(ghost_mem_kib) work_kib=$(ghost_work_kib)
idle_mapped=$(ghost_stat slots_mapped) freed0=$(ghost_stat slots_freed)
[ "$idle_mapped" -gt 0 ] || gs_fail "an idle device has no slot mapped"
ghost_memcg gs-slots
cg=$GHOST_CG
echo $((work_kib / 4))K >"$cg/memory.max"
ghost_pressure "${GS_IN_CGROUP[@]}" "$cg" \
	gs-memtest --size $((work_kib / 2))K --mix 1:3:0 || gs_fail "gs-memtest failed"
peak=$(ghost_stat slots_used_peak) mapped=$(ghost_stat slots_mapped)
gs_log "slots used at peak $peak, mapped $mapped (idle $idle_mapped)"
[ "$peak" -gt 0 ] || gs_fail "the workload used no slot"
[ "$mapped" -ge "$peak" ] || gs_fail "$peak slots used but only $mapped mapped"
# Swap-cache folios whose process is gone keep their slots while swap is not full: reclaim them.
gs_log "after exit: slots used $(ghost_stat slots_used)"
echo "$((mem_kib * 2))K swappiness=max" >"$cg/memory.reclaim" 2>/dev/null || true
gs_log "after reclaim: slots used $(ghost_stat slots_used), freed $(($(ghost_stat slots_freed) - freed0))"
[ "$(ghost_stat slots_used)" -eq 0 ] || gs_fail "$(ghost_stat slots_used) slots still used"
[ $(($(ghost_stat slots_freed) - freed0)) -ge "$peak" ] ||
	gs_fail "$peak slots were used at once but only $(($(ghost_stat slots_freed) - freed0)) freed"
[ "$(ghost_stat slots_mapped)" -eq "$mapped" ] || gs_fail "the cluster array changed size while idle"
swapoff "$GS_DEV" || gs_fail "swapoff failed"
[ "$(ghost_stat slots_mapped)" -eq 0 ] || gs_fail "$(ghost_stat slots_mapped) slots mapped after swapoff"
