# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# swapoff with data on the backing device: rmmod is refused while swapped on, swapoff reads every page
# back, the holder finds its data intact, no page is left on the disk, and the freed segments are
# discarded (the virtio disk supports it); on the debug kernel kmemleak finds nothing after rmmod.
. tests/lib/backend.sh
ghost_setup
gs_zswap_disable
out=/tmp/held.out
gs-memtest --size $(($(ghost_work_kib) / 2))K --mix 1:2:1 --pageout --hold 600 >"$out" 2>&1 &
holder=$!
ghost_wait_ready "$out" "$holder"
pages=$(ghost_stat backend_pages) read0=$(ghost_stat backend_bytes_read)
discards0=$(ghost_stat backend_discards) disk_discards0=$(backend_disk_stat 12)
gs_log "pages on $GS_BACKING before swapoff: $pages"
[ "$pages" -gt 0 ] || gs_fail "nothing was on the backing device before swapoff"
if rmmod ghostswap 2>/dev/null; then
	gs_fail "rmmod succeeded while swapped on with data on the backing device"
fi
swapoff "$GS_DEV" || gs_fail "swapoff with $pages pages on the backing device failed"
read_bytes=$(($(ghost_stat backend_bytes_read) - read0))
kill -USR1 "$holder"
rc=0
wait "$holder" || rc=$?
cat "$out"
[ "$rc" -eq 0 ] || gs_fail "data changed across swapoff (gs-memtest exit $rc)"
gs_log "swapoff read $read_bytes bytes back"
[ "$read_bytes" -gt 0 ] || gs_fail "swapoff read nothing from the backing device"
backend_check_empty
# The group's disks support discard (run-qemu.sh --disk): a disk without it would hide the discards the
# README claims, so that is a failure. Discards are issued after swapoff, asynchronously: wait for the
# first, 2 minutes at most.
[ "$(cat "/sys/block/${GS_BACKING#/dev/}/queue/discard_max_bytes")" -gt 0 ] ||
	gs_fail "$GS_BACKING does not support discard"
for _ in $(seq 240); do
	[ "$(ghost_stat backend_discards)" -gt "$discards0" ] && [ "$(backend_disk_stat 12)" -gt "$disk_discards0" ] && break
	sleep 0.5
done
gs_log "segments discarded: $(($(ghost_stat backend_discards) - discards0));" \
	"disk discard requests: $(($(backend_disk_stat 12) - disk_discards0))"
[ "$(ghost_stat backend_discards)" -gt "$discards0" ] || gs_fail "no freed segment was discarded"
[ "$(backend_disk_stat 12)" -gt "$disk_discards0" ] || gs_fail "no discard request reached $GS_BACKING"
backend_report
gs_module_unload
gs_kmemleak_check
