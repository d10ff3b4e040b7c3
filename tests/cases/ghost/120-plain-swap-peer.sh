# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The patched kernel still swaps to a plain swap partition (virtio disk /dev/vdb, zswap off): the same
# verifying workload as 040-integrity passes and really writes to the disk. It runs in a cgroup held at
# half of RAM (ghost_fill_memcg says why): its subject is the partition's data path, global reclaim is
# 040's.
. tests/lib/ghost.sh
disk=/dev/vdb
[ -b "$disk" ] || gs_fail "no $disk: the group needs a --disk for the plain swap partition"
plain_cleanup() {
	if grep -q "^$disk " /proc/swaps; then swapoff "$disk"; fi
}
trap ghost_cleanup EXIT
ghost_at_exit plain_cleanup
gs_zswap_disable
mkswap "$disk" >/dev/null
swapon "$disk"
cat /proc/swaps
size_kib=$(ghost_integrity_kib)
mix=$(ghost_integrity_mix)
pswpout0=$(gs_vmstat pswpout)
# Stock 7.3 may report a failed sleeping swap table allocation here (swap_cluster_populate() has no
# __GFP_NOWARN); it is handled, and plain swap is deliberately left as upstream has it.
ghost_fill_memcg plain-fill
ghost_pressure "${GS_IN_CGROUP[@]}" "$GHOST_CG" gs-memtest --size "${size_kib}K" --mix "$mix" ||
	gs_fail "gs-memtest failed on a plain swap partition"
pswpout=$(($(gs_vmstat pswpout) - pswpout0))
gs_log "mix $mix: pswpout +$pswpout; memory.events of the fill: $(tr '\n' ' ' <"$GHOST_CG/memory.events")"
# Zero pages are never written (the swap table's zero flag); at least half the others must have been.
min=$(($(ghost_mix_pages "$mix" $((size_kib / 4)) nonzero) / 2))
[ "$pswpout" -ge "$min" ] || gs_fail "only $pswpout pages were written to $disk (want >= $min)"
