# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Resizing /dev/ghostswap while it is swapped on (the `size` attribute, hook patch 0008):
# - growing from RAM/2 to 1000 x RAM shows at once in /proc/swaps, SwapTotal and CommitLimit, and costs
#   the kernel (Slab + VmallocUsed + Percpu) at most 64 KiB (256 on the debug kernel, as in 020); pages
#   then take slots beyond the old end;
# - shrinking below slots in use fails with EBUSY and changes nothing; once they are free it succeeds;
# - bad sizes fail with a clear error and leave the size and the device as they were;
# - two writers of `size` at once, beside a process swapping, and a resize racing swapoff, end with the
#   attribute, /proc/swaps and SwapTotal agreeing, and every page verified.
# What this does not show: a shrink that moves pages from beyond the new end (not built; issue 17).
. tests/lib/ghost.sh
mem_kib=$(ghost_mem_kib) work_kib=$(ghost_work_kib)
attr=/sys/class/misc/ghostswap/size
limit=64
gs_is_debug && limit=256
small_kib=$((mem_kib / 2 / 2048 * 2048)) # whole 2 MiB clusters
big_kib=$((mem_kib * 1000 / 2048 * 2048))
GHOST_MODULE_PARAMS=(size="${small_kib}K")
ghost_setup
meminfo() { awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo; }

# expect_size KIB: the attribute says KIB, /proc/swaps KIB less the header's slot, and SwapTotal is the
# sum of /proc/swaps.
expect_size() {
	local swaps total
	[ "$(cat "$attr")" -eq $(($1 * 1024)) ] || gs_fail "size is $(cat "$attr") bytes, wanted $(($1 * 1024))"
	swaps=$(ghost_swap_field 3) total=$(awk 'NR > 1 { s += $3 } END { printf "%.0f\n", s }' /proc/swaps)
	[ "$swaps" -eq $(($1 - 4)) ] || gs_fail "/proc/swaps shows $swaps KiB, wanted $(($1 - 4))"
	[ "$(meminfo SwapTotal)" -eq "$total" ] || gs_fail "SwapTotal $(meminfo SwapTotal) KiB, /proc/swaps $total"
}

# resize KIB: write KIB to the attribute; fails the test if the write fails.
resize() { echo "${1}K" >"$attr" || gs_fail "writing ${1}K to $attr failed"; }

expect_size "$small_kib"
# --- grow 1 -> 1000 x: what it costs (one of three tries within the limit, as in 020)
costs=()
for _ in 1 2 3; do
	sync
	echo 3 >/proc/sys/vm/drop_caches
	sleep 1
	k0=$(ghost_kernel_meminfo_kib) t0=$(meminfo SwapTotal) c0=$(meminfo CommitLimit)
	resize "$big_kib"
	sleep 1
	cost=$(($(ghost_kernel_meminfo_kib) - k0))
	costs+=("$cost")
	expect_size "$big_kib"
	[ $(($(meminfo SwapTotal) - t0)) -eq $((big_kib - small_kib)) ] || gs_fail "SwapTotal grew by the wrong amount"
	[ $(($(meminfo CommitLimit) - c0)) -eq $((big_kib - small_kib)) ] ||
		gs_fail "CommitLimit grew by $(($(meminfo CommitLimit) - c0)) KiB, wanted $((big_kib - small_kib))"
	printf 'kernel memory cost of growing %s from %d to %d KiB: %d KiB\n' "$GS_DEV" "$small_kib" "$big_kib" "$cost"
	[ "$cost" -le "$limit" ] && break
	resize "$small_kib"
done
[ "$cost" -le "$limit" ] || gs_fail "growing cost ${costs[*]} KiB in three tries, limit $limit"

# --- slots beyond the old end, then a shrink below them
hold_kib=$((small_kib + work_kib / 8))
gs-memtest --size "${hold_kib}K" --mix 1:0:0 --pageout --hold 900 >/tmp/hold.out 2>&1 &
holder=$!
ghost_wait_ready /tmp/hold.out "$holder"
used=$(ghost_stat slots_used)
gs_log "holding $hold_kib KiB of zero pages: $used slots used, $(ghost_stat slots_mapped) mapped"
[ "$used" -gt $((small_kib / 4)) ] || gs_fail "$used slots used: none beyond the old end of $((small_kib / 4))"
if echo "${small_kib}K" >"$attr" 2>/tmp/shrink.err; then
	gs_fail "shrinking below $used used slots succeeded"
fi
grep -q "Device or resource busy" /tmp/shrink.err || gs_fail "shrink failed with: $(cat /tmp/shrink.err)"
dmesg | grep -q "ghostswap: size=$((small_kib * 1024)): slots beyond it are in use" ||
	gs_fail "no log line says why the shrink failed"
expect_size "$big_kib"
kill -USR1 "$holder"
wait "$holder" || { tail -n 3 /tmp/hold.out && gs_fail "the holder's pages did not verify"; }
# Its slots are freed as it exits; a few may wait in the swap cache for a moment.
for _ in $(seq 30); do
	echo "${small_kib}K" >"$attr" 2>/dev/null && break
	sleep 1
done
gs_log "after the holder: $(ghost_stat slots_used) slots used"
expect_size "$small_kib"

# --- bad sizes: each fails, nothing changes
for bad in 0 1 4095 garbage 12X "" 99999999999999999999 -4096; do
	if echo "$bad" >"$attr" 2>/dev/null; then
		gs_fail "size '$bad' was accepted"
	fi
	expect_size "$small_kib"
done
# Above what a header describes: clamped with a message, like size=
echo 100T >"$attr" || gs_fail "size 100T was refused, not clamped"
dmesg | grep -q "clamped to" || gs_fail "no message says 100T was clamped"
expect_size $(((4294967295 / 512 * 512) * 4))
resize "$small_kib"

# --- two writers of size at once, beside a process swapping; then a resize racing swapoff
gs-memtest --size $((work_kib / 4))K --mix 1:2:1 --pageout --passes 10 --random >/tmp/w.out 2>&1 &
writer=$!
writers=()
for s in "$small_kib $big_kib" "$((small_kib * 2)) $((small_kib * 3))"; do
	# shellcheck disable=SC2086 # two sizes
	bash -c 'for i in $(seq 40); do for s in "$@"; do echo "${s}K" >'"$attr"' 2>/dev/null; done; done' _ $s &
	writers+=($!)
done
wait "${writers[@]}"
wait "$writer" || { tail -n 3 /tmp/w.out && gs_fail "the swapping process failed to verify"; }
gs_log "after the concurrent writes: size $(cat "$attr") bytes"
expect_size $(($(cat "$attr") / 1024))
bash -c 'for i in $(seq 200); do echo '"$big_kib"'K; echo '"$small_kib"'K; done 2>/dev/null | while read -r s; do
	echo "$s" >'"$attr"' 2>/dev/null; done' &
racer=$!
swapoff "$GS_DEV" || gs_fail "swapoff failed during resizes"
wait "$racer" || true
swapon "$GS_DEV" || gs_fail "swapon after the race failed"
expect_size $(($(cat "$attr") / 1024))
