# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Slots rewritten in place, on the cleaner's 32-segment disk (tests/lib/fragment.sh), zswap off at first:
# 1. A disk block is freed as soon as its slot's new data lives elsewhere: pages read back from the disk
#    keep their slots; rewritten (a quarter as zero pages) and pushed out again with zswap on, they go to
#    zswap or the zero map, and their old blocks must go with it (backend_blocks_stale), not stay
#    allocated until the process exits.
# 2. Foreground cleaning: holders B, each sharing its segments half and half with a holder A, rewrite
#    their pages all at once, zswap off. A rewrite keeps its slot, so no headroom check stops it; the
#    new blocks need more than the free segments hold, and the old ones free no whole segment. Every
#    write that finds no room must wait for the cleaner rather than fail (backend_full stays 0), and every
#    B must push out 95 % of its pages; all verify.
. tests/lib/backend.sh
. tests/lib/fragment.sh

# wait_hold OUT PID: wait for gs-memtest's --hold "ready" (its --rewrite-hold one comes first).
wait_hold() { ghost_wait_for "$1" "$2" 'phase=hold state=ready'; }

frag_setup

# --- 1. stale blocks
kib=$((FRAG_SEG_KIB * 6))
gs-memtest --size "${kib}K" --mix 1:3:0 --pageout --settle --rewrite-hold 900 --hold 900 >/tmp/stale.out 2>&1 &
pid=$!
ghost_wait_ready /tmp/stale.out "$pid"
on_disk=$(ghost_stat backend_pages) stale0=$(ghost_stat backend_blocks_stale) zswpout0=$(gs_vmstat zswpout)
gs_log "generation 1 on the disk: $on_disk pages of $((kib / 4)) (a quarter are zero pages)"
# pages: kib / 4, three quarters of them not zero; 95 % of those
[ "$on_disk" -ge $((kib * 3 * 95 / 1600)) ] || gs_fail "only $on_disk pages reached the disk"
ghost_zswap_setup
kill -USR1 "$pid"
wait_hold /tmp/stale.out "$pid"
left=$(ghost_stat backend_pages) stale=$(($(ghost_stat backend_blocks_stale) - stale0))
gs_log "rewritten with zswap on: zswpout +$(($(gs_vmstat zswpout) - zswpout0)), $stale blocks freed as stale," \
	"$left pages left on the disk"
kill -USR1 "$pid"
wait "$pid" || { tail -n 5 /tmp/stale.out && gs_fail "gs-memtest failed to verify"; }
[ "$stale" -ge $((on_disk * 95 / 100)) ] || gs_fail "only $stale of $on_disk rewritten slots' blocks were freed"
[ "$left" -le $((on_disk / 20)) ] || gs_fail "$left stale pages stay on the disk"
[ "$(ghost_stat backend_pages)" -eq 0 ] || gs_fail "$(ghost_stat backend_pages) pages on the disk after the exit"

# --- 2. foreground cleaning
gs_zswap_disable
b=()
for i in $(seq 24); do
	frag_hold "a$i" $((FRAG_SEG_KIB / 2))
	frag_hold "b$i" $((FRAG_SEG_KIB / 2)) --rewrite-hold 3600
	b+=("b$i:$FRAG_PID")
done
full0=$(ghost_stat backend_full) waits0=$(ghost_stat backend_clean_waits) moved0=$(ghost_stat backend_blocks_moved)
gs_log "filled: $(ghost_stat backend_segments_used) segments in use, $(ghost_stat backend_pages) pages; the B holders rewrite"
for h in "${b[@]}"; do
	kill -USR1 "${h#*:}"
done
short=()
for h in "${b[@]}"; do
	wait_hold "/tmp/frag.${h%%:*}.out" "${h#*:}"
	swapped=$(awk '/^VmSwap:/ { print $2 }' "/proc/${h#*:}/status")
	[ "$swapped" -ge $((FRAG_SEG_KIB * 95 / 200)) ] || short+=("${h%%:*}:${swapped}KiB")
done
backend_report
full=$(($(ghost_stat backend_full) - full0)) waits=$(($(ghost_stat backend_clean_waits) - waits0))
gs_log "rewrites: $waits writes waited for the cleaner, $(($(ghost_stat backend_blocks_moved) - moved0)) blocks moved," \
	"$full found the disk full"
[ "${#short[@]}" -eq 0 ] || gs_fail "B holders that could not push out 95 % of their pages: ${short[*]}"
[ "$full" -eq 0 ] || gs_fail "$full writes found the disk full"
[ "$(ghost_stat backend_clean_errors)" -eq 0 ] || gs_fail "the cleaner had I/O errors"
frag_verify
