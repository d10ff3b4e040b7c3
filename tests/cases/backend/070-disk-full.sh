# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# A backing disk smaller than the data, and no other swap device (the README's claim): a 16 MiB disk (a
# loop device on a file of the root file system) under 64 MiB of incompressible pages pushed out with
# zswap off. Once its segments are full ghostswap steps aside (stats/step_asides), and with nothing to
# step aside to the pages stay in memory; a write that still finds the disk full is refused with ENOSPC
# (stats/backend_full), a few at most. Every page verifies, the disk is filled to at least 90 % of what
# is not reserved for the cleaner and not beyond, nothing is OOM-killed, and swapoff leaves it empty.
# (overflow/040: the same with a partition.)
. tests/lib/backend.sh
img=/var/tmp/gs-small-disk.img
truncate -s 16M "$img"
loop=$(losetup -f --show --direct-io=on "$img") || gs_fail "losetup of $img failed"
detach() { losetup -d "$loop" && rm -f "$img"; }
ghost_at_exit detach
GS_BACKING=$loop
GHOST_MODULE_PARAMS=("backing_dev=$loop")
ghost_setup
gs_zswap_disable
disk_pages=$((16 << 20 >> 12))
seg_pages=$((disk_pages / $(ghost_stat backend_segments)))
usable=$(((disk_pages / seg_pages - $(ghost_stat backend_segments_reserved)) * seg_pages))
full0=$(ghost_stat backend_full) asides0=$(ghost_stat step_asides) oom0=$(gs_vmstat oom_kill)
out=/tmp/full.out
gs-memtest --size 64M --mix 0:0:1 --pageout --passes 2 --hold 600 >"$out" 2>&1 &
holder=$!
ghost_wait_ready "$out" "$holder"
# Held after its last pageout: what could go out is on the disk, the rest in memory.
full=$(($(ghost_stat backend_full) - full0)) on_disk=$(ghost_stat backend_pages)
asides=$(($(ghost_stat step_asides) - asides0))
backend_report
gs_log "step-asides: $asides; writes refused for lack of space: $full; on the disk $on_disk pages" \
	"(room for $disk_pages, $usable outside the cleaner's reserve)"
kill -USR1 "$holder"
rc=0
wait "$holder" || rc=$?
grep -E 'phase=(pageout|verify|hold)' "$out" | tail -n 3
[ "$rc" -eq 0 ] || { cat "$out" && gs_fail "the data did not verify with the backing disk full (exit $rc)"; }
[ "$asides" -gt 0 ] || gs_fail "64 MiB went out to a 16 MiB disk and ghostswap never stepped aside"
# A write can still find the disk full when the allocator's lockless look was stale: a few batches.
[ "$full" -le 64 ] || gs_fail "$full writes found the disk full (want <= 64)"
[ "$on_disk" -ge $((usable * 9 / 10)) ] ||
	gs_fail "only $on_disk pages reached the disk (room for $usable outside the cleaner's reserve)"
[ "$on_disk" -le "$disk_pages" ] || gs_fail "$on_disk pages on a disk with room for $disk_pages"
[ "$(ghost_stat backend_write_errors)" -eq 0 ] || gs_fail "a full disk counted as write errors"
[ "$(gs_vmstat oom_kill)" -eq "$oom0" ] || gs_fail "the OOM killer ran"
swapoff "$GS_DEV" || gs_fail "swapoff with the backing disk full failed"
backend_check_empty
