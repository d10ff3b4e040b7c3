# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Incompressible pages that zswap refuses stay in memory (stats/pages_kept moves) while compressible ones
# keep swapping: both workloads verify, and nothing is killed.
. tests/lib/ghost.sh
ghost_setup
mem_kib=$(ghost_mem_kib)
kept0=$(ghost_stat pages_kept)
dmesg -C
out=/tmp/incompressible.out
gs-memtest --size $((mem_kib * 3 / 10))K --mix 0:0:1 --hold 600 >"$out" 2>&1 &
holder=$!
for _ in $(seq 600); do
	grep -q 'state=ready' "$out" && break
	kill -0 "$holder" 2>/dev/null || break
	sleep 0.5
done
grep -q 'state=ready' "$out" || { cat "$out"; gs_fail "the incompressible workload did not get ready"; }
gs-memtest --size $((mem_kib * 11 / 10))K --mix 1:3:0 || gs_fail "the compressible workload failed"
kill -USR1 "$holder"
rc=0
wait "$holder" || rc=$?
cat "$out"
[ "$rc" -eq 0 ] || gs_fail "the incompressible workload failed (exit $rc)"
kept=$(($(ghost_stat pages_kept) - kept0))
gs_log "pages kept in memory after zswap refused them: $kept"
[ "$kept" -gt 0 ] || gs_fail "stats/pages_kept did not move: zswap never refused a page"
if dmesg | grep -q 'Out of memory'; then gs_fail "the OOM killer ran"; fi
