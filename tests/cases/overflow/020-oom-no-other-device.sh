# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# No other swap device and a tiny pool (2 % of RAM): twice RAM of pages that are not zero (zero pages
# always get a slot, and with them reclaim keeps making some progress) cannot fit. ghostswap steps aside,
# so reclaim no longer unmaps pages only to keep them, and the OOM killer ends the workload (the run's
# splat check covers soft lockups and hung tasks). Not promptly: reclaim still counts the device's free
# slots as room for anonymous pages and keeps trying, and the kill took 72 to 165 s alone or beside one
# other boot, 608 s beside two; the bound is the 10 minutes of the workload's timeout. Afterwards, with
# room in the pool again, the device swaps and the data verifies.
. tests/lib/ghost.sh
. tests/lib/overflow.sh
GHOST_ZSWAP_POOL_PERCENT=2
ghost_setup
mem_kib=$(ghost_mem_kib)
kills0=$(gs_vmstat oom_kill)
t0=$SECONDS rc=0
# shellcheck disable=SC2016  # expanded by the inner bash
ghost_pressure timeout 600 bash -c 'echo 1000 >/proc/self/oom_score_adj && exec gs-memtest --size "$1" --mix 0:3:1' \
	_ $((mem_kib * 2))K >/tmp/oom.out 2>&1 || rc=$?
secs=$((SECONDS - t0)) kills=$(($(gs_vmstat oom_kill) - kills0))
tail -n 3 /tmp/oom.out
overflow_report
gs_log "gs-memtest exit $rc after $secs s, OOM kills +$kills"
if [ "$rc" -ne 137 ] || [ "$kills" -lt 1 ]; then gs_fail "the workload was not OOM-killed (exit $rc, OOM kills +$kills)"; fi
[ "$secs" -le 610 ] || gs_fail "the OOM kill took $secs s (want <= 610)"
[ "$(ghost_stat step_asides)" -gt 0 ] || gs_fail "ghostswap never stepped aside"

echo 20 >/sys/module/zswap/parameters/max_pool_percent
zswpout0=$(gs_vmstat zswpout)
gs-memtest --size $((mem_kib / 4))K --mix 0:1:0 --pageout || gs_fail "gs-memtest failed after the OOM kill"
zswpout=$(($(gs_vmstat zswpout) - zswpout0))
gs_log "afterwards: zswpout +$zswpout"
[ "$zswpout" -ge $((mem_kib / 4 / 4 / 2)) ] ||
	gs_fail "only $zswpout pages went to zswap after the OOM kill (want half of $((mem_kib / 16)))"
