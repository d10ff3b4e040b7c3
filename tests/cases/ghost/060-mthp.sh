# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# With 64 KiB mTHP always on, large folios are swapped out whole to /dev/ghostswap (through zswap) and
# the data reads back intact.
. tests/lib/ghost.sh
thp=/sys/kernel/mm/transparent_hugepage/hugepages-64kB
# The README claims 64 KiB mTHP swap-out: a kernel without that size is a failure, not a skip.
[ -d "$thp" ] || gs_fail "no 64 KiB mTHP size on this kernel ($thp)"
old=$(sed 's/.*\[\(.*\)\].*/\1/' "$thp/enabled")
restore_mthp() { echo "$old" >"$thp/enabled"; }
ghost_setup
ghost_at_exit restore_mthp
echo always >"$thp/enabled"
zswpout0=$(cat "$thp/stats/zswpout")
ghost_pressure gs-memtest --size $(($(ghost_work_kib) / 2))K --mix 0:1:0 --pageout --passes 2 || gs_fail "gs-memtest failed"
zswpout=$(($(cat "$thp/stats/zswpout") - zswpout0))
gs_log "64 KiB folios stored whole in zswap: $zswpout"
grep -H . "$thp"/stats/* || true
[ "$zswpout" -gt 0 ] || gs_fail "no 64 KiB folio was swapped out whole"
