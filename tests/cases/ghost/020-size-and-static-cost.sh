# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# size= is honoured at 1000 x RAM and at the largest size a swap header describes (just under 16 TiB of
# 4 KiB slots): /proc/swaps (so swapon --show) shows the size SwapTotal grew by, beyond 4 TiB too, where
# a 32-bit page count once wrapped. Swapping on either costs the kernel (Slab + VmallocUsed + Percpu) at
# most 64 KiB: the cluster array is mapped a page at a time, zswap trees are sized by RAM. On the debug kernel the limit is
# 256 KiB: there KASAN's redzones and quarantine of freed objects and kmemleak's record of each object
# inflate Slab (124 KiB seen once, 384 KiB once at 16 TiB, 4-8 KiB on release). A measure above the
# limit is taken again, up to three times: a cost of the device comes back every time, noise does not.
# Either limit is far below any cost per slot, which at 1000 x RAM would be tens of MiB.
. tests/lib/ghost.sh
trap ghost_cleanup EXIT
mem_kib=$(ghost_mem_kib)
limit=64
gs_is_debug && limit=256
swap_total_kib() { awk '/^SwapTotal:/ { print $2 }' /proc/meminfo; }
# Whole pages the swap core takes for the device show in no meminfo field: the page of cluster array it
# maps, cluster 0's swap table and, at worst, a page table for the array. They are added to the measure.
pages_kib=12

# swapon_cost SIZE WANT_KIB LABEL: insmod size=SIZE, swapon; /proc/swaps must show WANT_KIB, as SwapTotal's
# growth must, and the swapon must cost at most $limit KiB of kernel memory (in one of three tries); then
# swapoff and unload.
swapon_cost() {
	local before after total0 size_kib delta try mapped costs=()
	gs_module_load size="$1"
	ghost_zswap_setup
	for try in 1 2 3; do
		sync
		echo 3 >/proc/sys/vm/drop_caches
		sleep 1
		before=$(ghost_kernel_meminfo_kib) total0=$(swap_total_kib)
		swapon "$GS_DEV" || gs_fail "swapon of a $3 $GS_DEV failed"
		sleep 1
		after=$(($(ghost_kernel_meminfo_kib) + pages_kib))
		size_kib=$(ghost_swap_field 3) delta=$(($(swap_total_kib) - total0))
		gs_log "$3: /proc/swaps size $size_kib KiB, SwapTotal +$delta KiB, expected $2 KiB"
		[ "$size_kib" -eq "$2" ] || gs_fail "$3: /proc/swaps size $size_kib KiB, wanted $2"
		[ "$delta" -eq "$2" ] || gs_fail "$3: SwapTotal grew by $delta KiB, wanted $2"
		printf 'static cost of swapon, %s: %d KiB (Slab+VmallocUsed+Percpu %d -> %d KiB, + %d KiB of pages)\n' \
			"$3" $((after - before)) "$before" "$((after - pages_kib))" "$pages_kib"
		# One page of the cluster array is mapped: 4096 / sizeof(struct swap_cluster_info) clusters.
		mapped=$(ghost_stat slots_mapped)
		if [ "$mapped" -eq 0 ] || [ "$mapped" -gt $((4096 * 512 / 32)) ]; then
			gs_fail "an idle device has $mapped slots mapped, wanted one page of clusters"
		fi
		costs+=("$((after - before))")
		[ $((after - before)) -le "$limit" ] && break
		swapoff "$GS_DEV" || gs_fail "swapoff of the $3 device failed"
	done
	[ $((after - before)) -le "$limit" ] ||
		gs_fail "swapon of a $3 device cost ${costs[*]} KiB of kernel memory in three tries, limit $limit"
	[ "$try" -eq 1 ] || gs_note "$3: static cost within the limit only on try $try (${costs[*]} KiB)"
	swapoff "$GS_DEV" || gs_fail "swapoff of the $3 device failed"
	gs_module_unload
}

# Sizes are whole 2 MiB clusters; the header's slot is not swap space.
swapon_cost $((mem_kib * 1000))K $((mem_kib * 1000 / 2048 * 2048 - 4)) "1000 x RAM"
# The largest: U32_MAX slots rounded down to whole clusters (512 slots), less the header's.
swapon_cost 16T $(((4294967295 / 512 * 512 - 1) * 4)) "largest (16 TiB)"
