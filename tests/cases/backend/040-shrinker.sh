# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# With the zswap shrinker on, reclaim moves cold compressed pages from zswap to the backing device
# (zswpwb, backend writes); the process that owns them then reads them back intact.
. tests/lib/backend.sh
ghost_setup
shrinker() { echo "$1" >/sys/module/zswap/parameters/shrinker_enabled; }
shrinker Y
ghost_at_exit "shrinker N"
ghost_memcg gs-shrinker
cg=$GHOST_CG
size_kib=$(($(ghost_work_kib) / 4))

out=/tmp/cold.out
"${GS_IN_CGROUP[@]}" "$cg" \
	gs-memtest --size "${size_kib}K" --mix 0:1:0 --pageout --hold 600 >"$out" 2>&1 &
holder=$!
ghost_wait_ready "$out" "$holder"
zswpwb0=$(gs_vmstat zswpwb) written0=$(ghost_stat backend_bytes_written)
gs_log "in zswap: $(cat "$cg/memory.zswap.current") bytes of the cgroup"
# Reclaim from the cgroup over time: with nothing left on its LRUs, the zswap shrinker writes back.
for _ in $(seq 20); do
	echo "${size_kib}K" 2>/dev/null >"$cg/memory.reclaim" || true
	[ $(($(gs_vmstat zswpwb) - zswpwb0)) -ge $((size_kib / 4 / 4)) ] && break
	sleep 1
done
zswpwb=$(($(gs_vmstat zswpwb) - zswpwb0)) written=$(($(ghost_stat backend_bytes_written) - written0))
gs_log "zswap wrote back $zswpwb pages, the backend took $written bytes; zswap now $(cat "$cg/memory.zswap.current")"
backend_report
kill -USR1 "$holder"
rc=0
wait "$holder" || rc=$?
cat "$out"
[ "$rc" -eq 0 ] || gs_fail "the written-back data did not verify (gs-memtest exit $rc)"
[ "$zswpwb" -gt 0 ] || gs_fail "the zswap shrinker wrote nothing back"
[ "$written" -gt 0 ] || gs_fail "zswap wrote back $zswpwb pages but none reached the backend"
