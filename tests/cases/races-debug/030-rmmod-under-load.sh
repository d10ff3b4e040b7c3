# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# rmmod attempted 30 times while writers swap through /dev/ghostswap: each attempt fails cleanly ("in
# use"), the module and the device stay, and the writers verify all their data. The writers then hold
# their pages swapped out (--hold) until signalled, so they cannot end before the attempts do, however
# fast or slow the host. Once swapoff is done, rmmod works at the first attempt.
. tests/lib/ghost.sh
ghost_setup
size_kib=$(($(ghost_mem_kib) / 8))
pids=()
for i in 1 2; do
	gs-memtest --size "${size_kib}K" --mix 1:2:1 --seed "$i" --pageout --passes 1 --hold 900 \
		>"/tmp/r$i.out" 2>&1 &
	pids+=($!)
done
# The attempts need the load: swapped pages on the device and both writers running, before and after.
for _ in $(seq 600); do
	[ "$(ghost_swap_field 4)" -gt 0 ] && break
	sleep 0.5
done
[ "$(ghost_swap_field 4)" -gt 0 ] || gs_fail "nothing was swapped out in 5 minutes"
writers_running() {
	local i
	for i in 1 2; do
		kill -0 "${pids[i - 1]}" 2>/dev/null || { tail -n 3 "/tmp/r$i.out" && gs_fail "writer $i ended $1"; }
	done
}
writers_running "before the rmmod attempts"
refused=0
for _ in $(seq 30); do
	if err=$(rmmod ghostswap 2>&1); then gs_fail "rmmod succeeded while swapped on"; fi
	grep -q 'in use' <<<"$err" || gs_fail "rmmod failed without saying the module is in use: $err"
	refused=$((refused + 1))
	sleep 0.1
done
writers_running "during the rmmod attempts"
gs_log "$refused rmmod attempts refused under load; $(ghost_swap_field 4) KiB swapped"
ghost_is_on || gs_fail "$GS_DEV is no longer swapped on"
for i in 1 2; do
	ghost_wait_ready "/tmp/r$i.out" "${pids[i - 1]}"
	kill -USR1 "${pids[i - 1]}"
	wait "${pids[i - 1]}" || { tail -n 3 "/tmp/r$i.out" && gs_fail "writer $i failed"; }
done
[ "$(ghost_stat slots_used_peak)" -gt 0 ] || gs_fail "the writers never used the device"
swapoff "$GS_DEV"
rmmod ghostswap || gs_fail "rmmod after swapoff failed"
