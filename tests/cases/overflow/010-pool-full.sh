# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# zswap's pool at 5 % of RAM, /dev/ghostswap without backing device above a swap partition: once the pool
# is full, ghostswap steps aside and the pages go to the partition, instead of being unmapped, refused by
# zswap and kept in RAM while zswap's shrink worker walks entries it can never write back (this workload
# was OOM-killed that way, after 21 million failed writeback attempts). A workload of mixed pages, twice
# RAM (RAM on the debug kernel), verifies; at least RAM/16 reaches the partition; reject_reclaim_fail
# grows by at most 100.
. tests/lib/ghost.sh
. tests/lib/overflow.sh
GHOST_ZSWAP_POOL_PERCENT=5
ghost_setup
overflow_partition_on
mem_kib=$(ghost_mem_kib)
written0=$(overflow_written_pages "$OVERFLOW_DISK") fail0=$(overflow_zswap reject_reclaim_fail)
asides0=$(ghost_stat step_asides) zswpout0=$(gs_vmstat zswpout)
ghost_pressure gs-memtest --size $(($(ghost_work_kib) * 2))K --mix 1:2:1 ||
	gs_fail "gs-memtest reported mismatches or failed"
overflow_report
written=$(($(overflow_written_pages "$OVERFLOW_DISK") - written0)) fails=$(($(overflow_zswap reject_reclaim_fail) - fail0))
asides=$(($(ghost_stat step_asides) - asides0)) zswpout=$(($(gs_vmstat zswpout) - zswpout0))
gs_log "partition +$written pages, zswpout +$zswpout, step_asides +$asides, reject_reclaim_fail +$fails"
[ "$asides" -gt 0 ] || gs_fail "ghostswap never stepped aside although zswap's pool was full"
[ "$zswpout" -gt 0 ] || gs_fail "nothing went to zswap on $GS_DEV"
[ "$written" -ge $((mem_kib / 4 / 16)) ] ||
	gs_fail "only $written pages reached the partition (want >= RAM/16, $((mem_kib / 4 / 16)))"
[ "$fails" -le 100 ] || gs_fail "zswap's reject_reclaim_fail grew by $fails (want <= 100)"
