# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# swapoff while a process holds swapped-out data succeeds, and the process finds its data intact.
. tests/lib/ghost.sh
ghost_setup
out=/tmp/held.out
gs-memtest --size $(($(ghost_work_kib) / 2))K --mix 1:2:1 --pageout --hold 600 >"$out" 2>&1 &
holder=$!
ghost_wait_ready "$out" "$holder"
used=$(ghost_stat slots_used)
gs_log "slots in use before swapoff: $used"
[ "$used" -gt 0 ] || gs_fail "nothing was swapped out before swapoff"
swapoff "$GS_DEV" || gs_fail "swapoff with $used slots in use failed"
kill -USR1 "$holder"
rc=0
wait "$holder" || rc=$?
cat "$out"
[ "$rc" -eq 0 ] || gs_fail "data changed across swapoff (gs-memtest exit $rc)"
