# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# swapoff while four writers keep pushing their pages out (MADV_PAGEOUT) and reading them back: it
# completes, every writer verifies all its data, and the device is empty afterwards. The writers'
# memory fits in RAM, so swapoff must succeed.
. tests/lib/ghost.sh
ghost_setup
size_kib=$(($(ghost_mem_kib) / 10))
pids=()
for i in 1 2 3 4; do
	gs-memtest --size "${size_kib}K" --mix 1:2:1 --seed "$i" --pageout --passes 12 --random >"/tmp/w$i.out" 2>&1 &
	pids+=($!)
done
for _ in $(seq 120); do
	[ "$(ghost_stat clusters)" -gt 0 ] && [ "$(ghost_swap_field 4)" -gt $((size_kib)) ] && break
	sleep 0.5
done
used=$(ghost_swap_field 4)
# The race needs its load: every writer must still be running (12 passes take minutes here; the wait
# above ends early in the first one).
for i in 1 2 3 4; do
	kill -0 "${pids[i - 1]}" 2>/dev/null || { tail -n 3 "/tmp/w$i.out" && gs_fail "writer $i ended before swapoff"; }
done
gs_log "swapoff with $used KiB on $GS_DEV and 4 writers running"
[ "$used" -gt 0 ] || gs_fail "nothing was swapped out before swapoff"
swapoff "$GS_DEV" || gs_fail "swapoff under writers failed"
running=0
for i in 1 2 3 4; do
	! kill -0 "${pids[i - 1]}" 2>/dev/null || running=$((running + 1))
done
gs_log "$running writers still running when swapoff returned"
[ "$(ghost_stat clusters)" -eq 0 ] || gs_fail "$(ghost_stat clusters) clusters left after swapoff"
rc=0
for i in 1 2 3 4; do
	wait "${pids[i - 1]}" || { rc=1 && tail -n 3 "/tmp/w$i.out"; }
done
[ "$rc" -eq 0 ] || gs_fail "a writer failed"
