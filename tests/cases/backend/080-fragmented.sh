# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Free space in partly used segments stays usable (the cleaner). On a disk whose used segments are half
# free (tests/lib/fragment.sh), writers push out 72 MiB, more than the free segments hold. With 30 % of the
# disk still free at the end: at least 95 % of every writer's pages reached the disk, no write found it
# full, the cleaner moved blocks (write amplification at most 1.5, 95 % of writes sequential, no error),
# and every holder verifies, the first ones reading back pages from where the cleaner moved them.
. tests/lib/backend.sh
. tests/lib/fragment.sh
frag_setup
frag_fill
full0=$(ghost_stat backend_full) moved0=$(ghost_stat backend_blocks_moved) written0=$(ghost_stat backend_bytes_written)
writes0=$(ghost_stat backend_writes) seq0=$(ghost_stat backend_writes_sequential)
cleaned0=$(ghost_stat backend_segments_cleaned)
# A writer pushes its pages out three times, verifying them in between, as reclaim would come back to
# pages it could not swap out while the cleaner was freeing room.
frag_write 1 9 --passes 2
host=$((($(ghost_stat backend_bytes_written) - written0) / 4096)) moved=$(($(ghost_stat backend_blocks_moved) - moved0))
full=$(($(ghost_stat backend_full) - full0)) cleaned=$(($(ghost_stat backend_segments_cleaned) - cleaned0))
free_pct=$((100 - $(ghost_stat backend_pages) * 100 / (32 * FRAG_SEG_PAGES)))
backend_report
wa=$(((host + moved) * 100 / host))
gs_log "writers: $host pages written, $moved moved by the cleaner ($cleaned segments cleaned):" \
	"write amplification $((wa / 100)).$((wa % 100 / 10))$((wa % 10)); $free_pct % of the disk free"
[ "${#FRAG_SHORT[@]}" -eq 0 ] || gs_fail "writers that could not push out 95 % of their pages: ${FRAG_SHORT[*]}"
[ "$free_pct" -ge 30 ] || gs_fail "only $free_pct % of the disk is free: the scenario is mis-sized"
[ "$full" -eq 0 ] || gs_fail "$full writes found the disk full"
[ "$cleaned" -gt 0 ] || gs_fail "the cleaner cleaned no segment (moved $moved blocks)"
[ "$moved" -gt 0 ] || gs_fail "the cleaner moved no block"
[ "$wa" -le 150 ] || gs_fail "write amplification above 1.5"
[ "$(ghost_stat backend_clean_errors)" -eq 0 ] || gs_fail "the cleaner had I/O errors"
backend_check_sequential "$writes0" "$seq0"
frag_verify
