# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# swapoff while four writers keep pushing their pages out (MADV_PAGEOUT) and reading them back: it
# completes, every writer verifies all its data, and the device is empty afterwards. The writers'
# memory fits in RAM, so swapoff must succeed. Meanwhile, two ballast processes take more slots than the
# page of cluster array an idle device maps, with zero-filled pages (a slot each, no memory): the swap core
# maps more of the array under the writers' swap-outs and swap-ins. The ballast frees its slots before the
# swapoff, which then walks a grown array with the writers' slots in it, and unmaps all of it.
. tests/lib/ghost.sh
ghost_setup
size_kib=$(($(ghost_mem_kib) / 10))
idle_mapped=$(ghost_stat slots_mapped)
pids=()
for i in 1 2 3 4; do
	gs-memtest --size "${size_kib}K" --mix 1:2:1 --seed "$i" --pageout --passes 40 --random >"/tmp/w$i.out" 2>&1 &
	pids+=($!)
done
ballast=()
for i in 1 2; do
	gs-memtest --size $(((idle_mapped / 2 + 2048) * 4))K --mix 1:0:0 --pageout --hold 600 >"/tmp/b$i.out" 2>&1 &
	ballast+=($!)
	ghost_wait_ready "/tmp/b$i.out" "$!"
done
mapped=$(ghost_stat slots_mapped)
gs_log "ballast held: $(ghost_stat slots_used) slots used, $mapped mapped (idle $idle_mapped)"
[ "$mapped" -gt "$idle_mapped" ] || gs_fail "the cluster array did not grow under the writers"
for i in 1 2; do
	kill -USR1 "${ballast[i - 1]}"
	wait "${ballast[i - 1]}" || { tail -n 3 "/tmp/b$i.out" && gs_fail "ballast $i failed"; }
done
for _ in $(seq 120); do
	[ "$(ghost_swap_field 4)" -gt $((size_kib)) ] && break
	sleep 0.5
done
used=$(ghost_swap_field 4)
# The race needs its load: every writer must still be running (40 passes take minutes here; the waits
# above end early).
for i in 1 2 3 4; do
	kill -0 "${pids[i - 1]}" 2>/dev/null || { tail -n 3 "/tmp/w$i.out" && gs_fail "writer $i ended before swapoff"; }
done
gs_log "swapoff with $used KiB on $GS_DEV and 4 writers running; $(ghost_stat slots_mapped) slots mapped"
[ "$used" -gt 0 ] || gs_fail "nothing was swapped out before swapoff"
swapoff "$GS_DEV" || gs_fail "swapoff under writers failed"
running=0
for i in 1 2 3 4; do
	! kill -0 "${pids[i - 1]}" 2>/dev/null || running=$((running + 1))
done
gs_log "$running writers still running when swapoff returned"
[ "$(ghost_stat slots_mapped)" -eq 0 ] || gs_fail "$(ghost_stat slots_mapped) slots still mapped after swapoff"
rc=0
for i in 1 2 3 4; do
	wait "${pids[i - 1]}" || { rc=1 && tail -n 3 "/tmp/w$i.out"; }
done
[ "$rc" -eq 0 ] || gs_fail "a writer failed"
