# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# rmmod is refused while the device is swapped on; 20 load / swapon / swapout / swapoff / unload cycles
# work, each swapping the workload's pages out, and leak nothing (kernel memory back to where it was). On
# the debug kernel, where kmemleak decides and each cycle costs ten times more, 3 cycles after one warm-up.
. tests/lib/ghost.sh
ghost_setup
if err=$(rmmod ghostswap 2>&1); then gs_fail "rmmod succeeded while $GS_DEV is swapped on"; fi
gs_log "rmmod while swapped on: $err"
grep -q '^ghostswap ' /proc/modules || gs_fail "the module is gone"
ghost_is_on || gs_fail "$GS_DEV is no longer swapped on"
swapoff "$GS_DEV"
rmmod ghostswap || gs_fail "rmmod after swapoff failed"

# Unreclaimable kernel memory: reclaimable slab (dentries, inodes of /proc and /sys) is noise here.
kernel_kib() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	sleep 2
	awk '/^(SUnreclaim|VmallocUsed|Percpu):/ { s += $2 } END { print s }' /proc/meminfo
}
# cycle: one load / swapon / swap-out / swapoff / unload; fails at the first step that fails (the caller's
# || turns off set -e in here), and if zswap stored less than half of the workload's compressible pages
# (MADV_PAGEOUT of 32 MiB at 1:2:0): a cycle that swaps nothing would test load and unload alone.
comp_pages=$(ghost_mix_pages 1:2:0 $((32 * 256)) comp)
cycle() {
	local zswpout0
	zswpout0=$(gs_vmstat zswpout)
	insmod "$GS_MODULE" size=256M &&
		swapon "$GS_DEV" &&
		gs-memtest --size 32M --mix 1:2:0 --pageout >/dev/null &&
		swapoff "$GS_DEV" &&
		rmmod ghostswap || return 1
	[ $(($(gs_vmstat zswpout) - zswpout0)) -ge $((comp_pages / 2)) ] || {
		gs_log "zswap stored $(($(gs_vmstat zswpout) - zswpout0)) pages, wanted $((comp_pages / 2)) at least"
		return 1
	}
}
warmups=3 cycles=20
gs_is_debug && warmups=1 cycles=3
for i in $(seq "$warmups"); do
	cycle || gs_fail "warm-up cycle $i failed" # fills caches that stay filled
done
before=$(kernel_kib)
for i in $(seq "$cycles"); do
	cycle || gs_fail "cycle $i failed"
done
after=$(kernel_kib)
gs_log "kernel memory (SUnreclaim+VmallocUsed+Percpu) before $cycles cycles ${before} KiB, after ${after} KiB"
gs_kmemleak_check
# KASAN's quarantine holds freed objects back, so on the debug kernel kmemleak alone decides.
if ! gs_is_debug; then
	[ $((after - before)) -le 512 ] || gs_fail "$cycles cycles grew kernel memory by $((after - before)) KiB"
fi
