# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# A workload of 2 x RAM (1.5 x on the debug kernel: ghost_integrity_kib), zero, compressible and
# incompressible pages mixed, verified page by page, goes through zswap on /dev/ghostswap with no
# mismatch, and nothing is ever written to a disk (pswpout). It uses more slots than the page of cluster
# array an idle device maps, so the swap core maps more of it under reclaim, kswapd's included.
. tests/lib/ghost.sh
ghost_setup
size_kib=$(ghost_integrity_kib)
mix=$(ghost_integrity_mix)
pages=$((size_kib / 4))
pswpout0=$(gs_vmstat pswpout) zswpout0=$(gs_vmstat zswpout) zswpin0=$(gs_vmstat zswpin)
idle_mapped=$(ghost_stat slots_mapped)
ghost_pressure gs-memtest --size "${size_kib}K" --mix "$mix" ||
	gs_fail "gs-memtest reported mismatches or failed"
zswpout=$(($(gs_vmstat zswpout) - zswpout0)) zswpin=$(($(gs_vmstat zswpin) - zswpin0))
pswpout=$(($(gs_vmstat pswpout) - pswpout0))
gs_log "mix $mix: zswpout +$zswpout zswpin +$zswpin pswpout +$pswpout peak slots used $(ghost_stat slots_used_peak), mapped $(ghost_stat slots_mapped) (idle $idle_mapped)"
[ "$(ghost_stat slots_used_peak)" -gt "$idle_mapped" ] || gs_fail "the workload never needed more cluster array"
[ "$(ghost_stat slots_mapped)" -ge "$(ghost_stat slots_used_peak)" ] || gs_fail "more slots used than mapped"
# At least half the compressible pages must have gone to zswap (the rest may never have left RAM).
min=$(($(ghost_mix_pages "$mix" "$pages" comp) / 2))
[ "$zswpout" -ge "$min" ] || gs_fail "only $zswpout pages went to zswap (want >= $min): the workload did not swap"
[ "$zswpin" -gt 0 ] || gs_fail "no page came back from zswap"
[ "$pswpout" -eq 0 ] || gs_fail "$pswpout pages were written to a device that has no backing store"
