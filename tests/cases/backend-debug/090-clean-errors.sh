# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# I/O errors while the cleaner works (fail_make_request, debug kernel): on the fragmented disk of
# tests/lib/fragment.sh, writers push out nine segments, the last four (those that make the cleaner run)
# while 10 % of the bios to the disk fail (5 % made 3 to 5 failed cleaner tries a run; at 10 % a run with
# none is unlikely); those writers only write (a failed read of its pages would kill one, as
# backend-debug/070 shows). The cleaner's failed reads and writes are counted and leave their blocks where
# they were after three tries. Once the faults stop, the cleaner frees room again (a run cut short by errors
# comes back a second later, on the segment it could not empty): one more writer pushes out 95 % of its
# pages. Nothing is lost: afterwards every holder verifies, and swapoff leaves the disk empty.
. tests/lib/backend.sh
. tests/lib/fragment.sh
frag_setup
frag_fill
backend_fail_io_setup 10
frag_write 1 5 --passes 2
clean0=$(ghost_stat backend_clean_errors) write0=$(ghost_stat backend_write_errors)
moved0=$(ghost_stat backend_blocks_moved)
backend_fail_io 1
frag_write 6 9
backend_fail_io 0
clean=$(($(ghost_stat backend_clean_errors) - clean0)) write=$(($(ghost_stat backend_write_errors) - write0))
backend_report
gs_log "with 10 % of bios failing: cleaner errors $clean, write errors $write," \
	"blocks moved $(($(ghost_stat backend_blocks_moved) - moved0)); writers short: ${FRAG_SHORT[*]:-none}"
[ "$clean" -gt 0 ] || gs_fail "no cleaner read or write failed: the faults did not reach the cleaner"
FRAG_SHORT=()
frag_write 10 10 --passes 2
backend_report
[ "${#FRAG_SHORT[@]}" -eq 0 ] || gs_fail "after the faults stopped, a writer pushed out only ${FRAG_SHORT[*]}"
frag_verify
