# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# memcg and /dev/ghostswap: memory.swap.max caps a cgroup's ghost swap usage, memory.swap.current tracks
# it; after rmdir of a cgroup whose tmpfs pages are swapped out, another process reads them back intact.
. tests/lib/ghost.sh
ghost_setup
ghost_memcg gs-memcg
cg=$GHOST_CG
echo 32M >"$cg/memory.max"
echo 16M >"$cg/memory.swap.max"

out=/tmp/memcg.out
"${GS_IN_CGROUP[@]}" "$cg" gs-memtest --size 40M --mix 0:1:0 --hold 600 >"$out" 2>&1 &
holder=$!
ghost_wait_ready "$out" "$holder"
swap_now=$(cat "$cg/memory.swap.current")
gs_log "memory.current $(cat "$cg/memory.current"), memory.swap.current $swap_now"
[ "$swap_now" -gt 0 ] || gs_fail "memory.swap.current is 0 while the cgroup is swapped out"
kill -USR1 "$holder"
rc=0
wait "$holder" || rc=$?
cat "$out"
[ "$rc" -eq 0 ] || gs_fail "the cgroup's workload failed (exit $rc)"

# Beyond memory.max + memory.swap.max the cgroup is OOM-killed, its swap never above the limit.
# Only the OOM kill will do (SIGKILL: exit 137, counted in memory.events): any other failure of the
# workload, a data mismatch (exit 1) above all, is a failure of the test.
rc=0
oom_kills() { awk '$1 == "oom_kill" { print $2 }' "$cg/memory.events"; }
kills0=$(oom_kills)
gs_expect_call_traces_begin # the memcg OOM killer's report
"${GS_IN_CGROUP[@]}" "$cg" gs-memtest --size 80M --mix 0:1:0 >/tmp/memcg-oom.out 2>&1 || rc=$?
gs_expect_call_traces_end
peak=$(cat "$cg/memory.swap.peak") kills=$(($(oom_kills) - kills0))
gs_log "80M in a 32M + 16M swap cgroup: exit $rc, memory.swap.peak $peak, oom_kill +$kills"
grep -H . "$cg/memory.swap.events" "$cg/memory.events"
[ "$rc" -ne 0 ] || gs_fail "a workload beyond memory.max + memory.swap.max completed"
[ "$rc" -eq 137 ] || { tail -n 5 /tmp/memcg-oom.out && gs_fail "the workload failed (exit $rc) but was not OOM-killed (137)"; }
[ "$kills" -ge 1 ] || gs_fail "the workload was killed but memory.events counts no oom_kill"
[ "$peak" -le $((16 << 20)) ] || gs_fail "memory.swap.peak $peak exceeds memory.swap.max 16M"

# Swapped-out tmpfs pages of a removed cgroup fault back in from another process.
shm=/tmp/gs-shm
mkdir -p "$shm"
mount -t tmpfs -o size=64M none "$shm"
ghost_at_exit "umount $shm"
dying=/sys/fs/cgroup/gs-dying
mkdir "$dying"
# shellcheck disable=SC2016  # expanded by the inner bash
bash -c 'echo $$ >"$1/cgroup.procs" && yes "ghostswap tmpfs data $RANDOM" | head -c 24M >"$2/data"' \
	_ "$dying" "$shm"
sum=$(sha256sum <"$shm/data")
echo 32M >"$dying/memory.reclaim" || true
swapped=$(cat "$dying/memory.swap.current")
gs_log "tmpfs data charged to $dying: memory.swap.current $swapped after memory.reclaim"
[ "$swapped" -gt 0 ] || gs_fail "memory.reclaim swapped nothing of the tmpfs data out"
rmdir "$dying"
[ "$(sha256sum <"$shm/data")" = "$sum" ] || gs_fail "tmpfs data changed after its cgroup was removed"
