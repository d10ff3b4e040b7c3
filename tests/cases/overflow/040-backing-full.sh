# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# A backing device (/dev/vdc, 64 MiB) smaller than the workload, zswap off, a swap partition at a lower
# priority: pages go to the backing device until it is full, then ghostswap steps aside and they go to the
# partition (not kept in memory after a refused write); all of them verify.
. tests/lib/ghost.sh
. tests/lib/overflow.sh
backing=/dev/vdc
GHOST_MODULE_PARAMS=("backing_dev=$backing")
ghost_setup
gs_zswap_disable
overflow_partition_on
work_kib=$(ghost_work_kib)
written0=$(overflow_written_pages "$OVERFLOW_DISK") backing0=$(overflow_written_pages "$backing")
full0=$(ghost_stat backend_full) asides0=$(ghost_stat step_asides)
ghost_pressure gs-memtest --size $((work_kib * 3 / 2))K --mix 0:0:1 ||
	gs_fail "gs-memtest reported mismatches or failed"
overflow_report
written=$(($(overflow_written_pages "$OVERFLOW_DISK") - written0)) backing_written=$(($(overflow_written_pages "$backing") - backing0))
full=$(($(ghost_stat backend_full) - full0)) asides=$(($(ghost_stat step_asides) - asides0))
# What the device can take: its segments but those reserved for the cleaner.
capacity=$((($(ghost_stat backend_segments) - $(ghost_stat backend_segments_reserved)) *
	$(cat /sys/module/ghostswap/parameters/erase_block) / 4096))
gs_log "backing device +$backing_written pages (capacity $capacity), partition +$written," \
	"backend_full +$full, step_asides +$asides"
[ "$backing_written" -ge $((capacity * 9 / 10)) ] ||
	gs_fail "only $backing_written pages reached the backing device (want >= 90 % of its $capacity)"
[ "$written" -ge $((work_kib / 4 / 4)) ] ||
	gs_fail "only $written pages reached the partition (want >= $((work_kib / 16)))"
[ "$asides" -gt 0 ] || gs_fail "ghostswap never stepped aside although its backing device was full"
# The device says no while it has fewer free blocks than the reclaimers may be batching (bdev_may_write):
# a write finds it full only when more were in flight, a few batches at the most.
[ "$full" -le 64 ] || gs_fail "$full writes found the backing device full (want <= 64)"
