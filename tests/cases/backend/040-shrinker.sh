# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# With the zswap shrinker on, reclaim moves cold compressed pages from zswap to the backing device
# (zswpwb, backend writes): at least a quarter of the workload's pages. The process that owns them then
# reads them back intact, from the disk: the written-back copies left in the swap cache are reclaimed
# first, and the backend must have read at least half of what it took.
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
# Reclaim from the cgroup over time: with nothing left on its LRUs, the zswap shrinker writes back. The
# target is a quarter of the workload's pages; 5 minutes is a generous bound for it.
target=$((size_kib / 4 / 4))
for _ in $(seq 300); do
	echo "${size_kib}K" 2>/dev/null >"$cg/memory.reclaim" || true
	[ $(($(gs_vmstat zswpwb) - zswpwb0)) -ge "$target" ] && break
	sleep 1
done
zswpwb=$(($(gs_vmstat zswpwb) - zswpwb0)) written=$(($(ghost_stat backend_bytes_written) - written0))
gs_log "zswap wrote back $zswpwb pages (target $target), the backend took $written bytes;" \
	"zswap now $(cat "$cg/memory.zswap.current")"
[ "$zswpwb" -ge "$target" ] || gs_fail "the zswap shrinker wrote back $zswpwb pages, fewer than $target"
[ "$written" -ge $((target * 4096)) ] || gs_fail "zswap wrote back $zswpwb pages but the backend took $written bytes"
# A written-back page stays in the swap cache, clean, until reclaimed: reclaim once more, so that the
# workload reads its pages from the disk, not from those copies.
echo "${size_kib}K" 2>/dev/null >"$cg/memory.reclaim" || true
read0=$(ghost_stat backend_bytes_read)
backend_report
kill -USR1 "$holder"
rc=0
wait "$holder" || rc=$?
cat "$out"
read=$(($(ghost_stat backend_bytes_read) - read0))
gs_log "the workload's verification read $read bytes from the backing device"
[ "$rc" -eq 0 ] || gs_fail "the written-back data did not verify (gs-memtest exit $rc)"
[ "$read" -ge $((written / 2)) ] ||
	gs_fail "the verification read $read bytes from the disk, less than half of the $written written back"
