# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# No other swap device and a tiny pool (2 % of RAM): twice RAM of pages that are not zero cannot fit.
# Once the pool is full the device is full (stats/full): it declines every page and leaves its free
# slots out of the count of free swap, so reclaim sees swap as full and the OOM killer ends the workload
# promptly, as without swap: 13 to 24 s alone, 91 s beside a kernel build, against 50 s with no swap on
# at all (the run's splat check covers soft lockups and hung tasks). Before the free slots were
# withheld, reclaim kept scanning anonymous pages it could not swap, and the kill took 72 to 165 s alone
# and more than 10 minutes beside two other boots. On the debug kernel (KASAN under TCG) the kill took 47
# to 104 s alone, and 606 s once in CI beside another debug boot, before ghost_pressure pinned the
# per-CPU page lists: the bound there is 420 s. The samples in the log (device full, pages scanned, file
# refaults) say where the time went. Afterwards the device has room again, SwapFree counts its free
# slots again, and with room in the pool it swaps and the data verifies.
. tests/lib/ghost.sh
. tests/lib/overflow.sh
GHOST_ZSWAP_POOL_PERCENT=2
ghost_setup
mem_kib=$(ghost_mem_kib)
kills0=$(gs_vmstat oom_kill) periods0=$(ghost_stat full_periods)
t0=$SECONDS rc=0
overflow_sampler_start /tmp/oom.samples
# shellcheck disable=SC2016  # expanded by the inner bash
ghost_pressure timeout 600 bash -c 'echo 1000 >/proc/self/oom_score_adj && exec gs-memtest --size "$1" --mix 0:3:1' \
	_ $((mem_kib * 2))K >/tmp/oom.out 2>&1 || rc=$?
secs=$((SECONDS - t0)) kills=$(($(gs_vmstat oom_kill) - kills0))
tail -n 3 /tmp/oom.out
overflow_sample "$t0" >>/tmp/oom.samples
cat /tmp/oom.samples
overflow_report
gs_log "gs-memtest exit $rc after $secs s, OOM kills +$kills"
if [ "$rc" -ne 137 ] || [ "$kills" -lt 1 ]; then gs_fail "the workload was not OOM-killed (exit $rc, OOM kills +$kills)"; fi
[ "$(($(ghost_stat full_periods) - periods0))" -gt 0 ] || gs_fail "the device never counted as full"
bound=180
if gs_is_debug; then bound=420; fi
[ "$secs" -le "$bound" ] || gs_fail "the OOM kill took $secs s (want <= $bound)"

# The killed workload's pages left the pool: within a few polls the device has room, and SwapFree
# counts its free slots again (only its used slots are missing from SwapTotal).
for _ in $(seq 50); do
	[ "$(ghost_stat full)" = 0 ] && break
	sleep 0.1
done
[ "$(ghost_stat full)" = 0 ] || gs_fail "the device is still full 5 s after the OOM kill"
total=$(awk '$1 == "SwapTotal:" { print $2 }' /proc/meminfo) free=$(awk '$1 == "SwapFree:" { print $2 }' /proc/meminfo)
used=$(($(ghost_stat slots_used) * 4))
gs_log "SwapTotal $total kB, SwapFree $free kB, used $used kB"
off=$((total - free - used))
if [ "$free" -gt "$total" ] || [ "$off" -gt 1024 ] || [ "$off" -lt -1024 ]; then
	gs_fail "SwapFree $free kB does not match SwapTotal $total kB less the $used kB in use"
fi

echo 20 >/sys/module/zswap/parameters/max_pool_percent
zswpout0=$(gs_vmstat zswpout)
gs-memtest --size $((mem_kib / 4))K --mix 0:1:0 --pageout || gs_fail "gs-memtest failed after the OOM kill"
zswpout=$(($(gs_vmstat zswpout) - zswpout0))
gs_log "afterwards: zswpout +$zswpout"
[ "$zswpout" -ge $((mem_kib / 4 / 4 / 2)) ] ||
	gs_fail "only $zswpout pages went to zswap after the OOM kill (want half of $((mem_kib / 16)))"
