# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# zswap disabled while pages are on /dev/ghostswap: new pages skip the device and go to the partition,
# ghostswap's share does not grow, and the pages already there read back from zswap and verify. The
# device is full then, but its free slots still count in SwapFree while the partition has room, and
# leave it once the partition is swapped off.
. tests/lib/ghost.sh
. tests/lib/overflow.sh
ghost_setup
overflow_partition_on
size=$(($(ghost_work_kib) / 4))K
gs-memtest --size "$size" --mix 0:1:0 --pageout --hold 900 >/tmp/held.out 2>&1 &
held=$!
ghost_wait_ready /tmp/held.out "$held"
used=$(ghost_swap_field 4)
[ "$used" -gt 0 ] || gs_fail "nothing was swapped out to $GS_DEV before zswap was disabled"
gs_zswap_disable
written0=$(overflow_written_pages "$OVERFLOW_DISK") asides0=$(ghost_stat step_asides)
gs-memtest --size "$size" --mix 0:1:0 --pageout || gs_fail "gs-memtest failed with zswap disabled"
overflow_report
# Full (zswap off), but the partition has room: the device's free slots still count as free swap, or
# vm_swap_full() would drop the swap cache of every page read back from the partition.
[ "$(ghost_stat full)" = 1 ] || gs_fail "$GS_DEV is not full with zswap disabled"
swaps_free=$(awk 'NR > 1 { s += $3 - $4 } END { printf "%.0f\n", s }' /proc/swaps)
swap_free=$(awk '$1 == "SwapFree:" { print $2 }' /proc/meminfo)
gs_log "SwapFree $swap_free KiB, free in /proc/swaps $swaps_free KiB"
[ "$swap_free" -ge $((swaps_free - 4096)) ] ||
	gs_fail "SwapFree is $swap_free KiB, /proc/swaps has $swaps_free free: $GS_DEV withholds its slots beside a partition with room"
# Without the partition, the full device is the only one left: within a few polls its free slots leave
# SwapFree, so that reclaim sees swap as full.
swapoff "$OVERFLOW_DISK" || gs_fail "swapoff of the partition failed"
for _ in $(seq 50); do
	swap_free=$(awk '$1 == "SwapFree:" { print $2 }' /proc/meminfo)
	[ "$swap_free" -le 4096 ] && break
	sleep 0.1
done
gs_log "without the partition: SwapFree $swap_free KiB"
[ "$swap_free" -le 4096 ] || gs_fail "SwapFree is $swap_free KiB with only the full $GS_DEV on: its free slots still count"
written=$(($(overflow_written_pages "$OVERFLOW_DISK") - written0)) asides=$(($(ghost_stat step_asides) - asides0))
used_after=$(ghost_swap_field 4)
gs_log "ghostswap used $used KiB before, $used_after KiB after; partition +$written pages, step_asides +$asides"
[ "$used_after" -le "$used" ] || gs_fail "$GS_DEV took new pages with zswap disabled ($used -> $used_after KiB)"
[ "$written" -ge $((${size%K} / 4 / 2)) ] || gs_fail "only $written pages reached the partition"
[ "$asides" -gt 0 ] || gs_fail "ghostswap never stepped aside with zswap disabled"
kill -USR1 "$held"
wait "$held" || { cat /tmp/held.out; gs_fail "the pages swapped out before zswap was disabled did not verify"; }
grep -q 'state=signal' /tmp/held.out || gs_fail "the held workload did not get its signal"
