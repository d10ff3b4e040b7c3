# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# I/O errors on the backing device (fail_make_request, debug kernel): while every write fails, pages
# pushed out stay in memory and verify; while reads fail, the process whose pages cannot be read dies of
# SIGBUS and no other process dies, nor the kernel; afterwards the device works again. Both error
# counters move.
. tests/lib/backend.sh
ghost_setup
gs_zswap_disable
backend_fail_io_setup 100
size_kib=$(($(ghost_mem_kib) / 8))

write_errors0=$(ghost_stat backend_write_errors)
backend_fail_io 1
gs-memtest --size "${size_kib}K" --mix 0:1:1 --pageout --passes 2 ||
	gs_fail "data changed while writes to the backing device failed"
backend_fail_io 0
write_errors=$(($(ghost_stat backend_write_errors) - write_errors0))
gs_log "failed backend writes: $write_errors; pages on the disk: $(ghost_stat backend_pages)"
[ "$write_errors" -gt 0 ] || gs_fail "no write error was injected"

out=/tmp/held.out
gs-memtest --size "${size_kib}K" --mix 0:1:1 --pageout --hold 600 >"$out" 2>&1 &
holder=$!
ghost_wait_ready "$out" "$holder"
[ "$(ghost_stat backend_pages)" -gt 0 ] || gs_fail "nothing reached the backing device"
read_errors0=$(ghost_stat backend_read_errors)
# Every other process that lives through the failed reads must still be there afterwards: the long-lived
# ones (up for 10 s or more: init, the test runner, this shell), not the reader.
others=$(ps -e -o pid=,etimes= | awk -v h="$holder" '$1 != h && $2 >= 10 { print $1 }')
backend_fail_io 1
kill -USR1 "$holder"
rc=0
wait "$holder" || rc=$?
backend_fail_io 0
gone=()
for pid in $others; do
	kill -0 "$pid" 2>/dev/null || gone+=("$pid")
done
read_errors=$(($(ghost_stat backend_read_errors) - read_errors0))
gs_log "reader exit status $rc, failed backend reads: $read_errors"
[ "$rc" -eq $((128 + 7)) ] || { cat "$out" && gs_fail "the reader did not die of SIGBUS (exit $rc)"; }
[ "$read_errors" -gt 0 ] || gs_fail "no read error was counted"
[ "${#gone[@]}" -eq 0 ] || gs_fail "processes other than the reader died while reads failed: ${gone[*]}"
gs_log "$(wc -w <<<"$others") other processes lived through the failed reads"

gs-memtest --size "${size_kib}K" --mix 0:1:1 --pageout || gs_fail "the device does not work after the errors"
swapoff "$GS_DEV" || gs_fail "swapoff after I/O errors failed"
backend_check_empty
backend_report
