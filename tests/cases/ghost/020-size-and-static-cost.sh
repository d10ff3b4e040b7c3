# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# size= is honoured at 1000 x RAM, and swapping on such a device costs the kernel (Slab + VmallocUsed +
# Percpu) at most 64 KiB: its clusters and zswap trees are not allocated up front. On the debug kernel the
# limit is 256 KiB: there KASAN's redzones and quarantine of freed objects and kmemleak's record of each
# object inflate Slab (124 KiB seen once, 4-8 KiB on release). Either limit is far below any cost per
# slot, which at 1000 x RAM would be tens of MiB.
. tests/lib/ghost.sh
trap ghost_cleanup EXIT
mem_kib=$(ghost_mem_kib)
gs_module_load size=$((mem_kib * 1000))K
ghost_zswap_setup
sync
echo 3 >/proc/sys/vm/drop_caches
sleep 1
before=$(ghost_kernel_meminfo_kib)
swapon "$GS_DEV" || gs_fail "swapon of a 1000 x RAM $GS_DEV failed"
sleep 1
after=$(ghost_kernel_meminfo_kib)
size_kib=$(ghost_swap_field 3)
want_kib=$((mem_kib * 1000 / 2048 * 2048 - 4))
gs_log "size ${size_kib} KiB (RAM ${mem_kib} KiB), expected ${want_kib} KiB"
[ "$size_kib" -eq "$want_kib" ] || gs_fail "/proc/swaps size $size_kib KiB, wanted $want_kib (1000 x RAM)"
delta=$((after - before))
printf 'static cost of swapon, %d x RAM: %d KiB (Slab+VmallocUsed+Percpu %d -> %d KiB)\n' \
	1000 "$delta" "$before" "$after"
limit=64
gs_is_debug && limit=256
[ "$delta" -le "$limit" ] || gs_fail "swapon of a 1000 x RAM device cost $delta KiB of kernel memory, limit $limit"
[ "$(ghost_stat clusters)" -eq 1 ] || gs_fail "an idle device has $(ghost_stat clusters) clusters, wanted 1"
