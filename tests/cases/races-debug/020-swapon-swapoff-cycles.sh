# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Six swapoff/swapon cycles of /dev/ghostswap while two writers push pages out and read them back: every
# cycle swaps at least 256 pages out with both writers running, the writers verify all their data,
# the cluster array is gone after each swapoff.
. tests/lib/ghost.sh
ghost_setup
size_kib=$(($(ghost_mem_kib) / 8))
pids=()
for i in 1 2; do
	gs-memtest --size "${size_kib}K" --mix 1:2:1 --seed "$i" --pageout --passes 1000 >"/tmp/c$i.out" 2>&1 &
	pids+=($!)
done
freed0=$(ghost_stat slots_freed)
for cycle in $(seq 6); do
	# Each cycle swaps at least 256 pages (1 MiB) out before its swapoff; waiting for that, not for a fixed
	# time, keeps a slow host's cycles as full as a fast one's (5 minutes is a generous bound).
	zswpout0=$(gs_vmstat zswpout)
	for _ in $(seq 600); do
		[ $(($(gs_vmstat zswpout) - zswpout0)) -ge 256 ] && break
		sleep 0.5
	done
	[ $(($(gs_vmstat zswpout) - zswpout0)) -ge 256 ] ||
		gs_fail "cycle $cycle: fewer than 256 pages swapped out in 5 minutes"
	for i in 1 2; do
		kill -0 "${pids[i - 1]}" 2>/dev/null || { tail -n 3 "/tmp/c$i.out" && gs_fail "cycle $cycle: writer $i stopped"; }
	done
	swapoff "$GS_DEV" || gs_fail "cycle $cycle: swapoff failed"
	[ "$(ghost_stat slots_mapped)" -eq 0 ] || gs_fail "cycle $cycle: slots still mapped after swapoff"
	sleep 1
	swapon "$GS_DEV" || gs_fail "cycle $cycle: swapon failed"
done
gs_log "6 cycles, $(($(ghost_stat slots_freed) - freed0)) slots freed"
for i in 1 2; do
	kill -0 "${pids[i - 1]}" 2>/dev/null || { tail -n 3 "/tmp/c$i.out" && gs_fail "writer $i stopped early"; }
	kill "${pids[i - 1]}"
	wait "${pids[i - 1]}" || true
	passes=$(grep -c 'phase=verify.* mismatches=0' "/tmp/c$i.out" || true)
	gs_log "writer $i: $passes verify passes without a mismatch"
	if grep -E 'mismatches=[1-9]|^gs-memtest: mismatch' "/tmp/c$i.out"; then gs_fail "writer $i saw bad data"; fi
	[ "$passes" -ge 2 ] || gs_fail "writer $i verified fewer than 2 passes"
done
