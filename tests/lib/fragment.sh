# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034  # GS_BACKING, GHOST_MODULE_PARAMS: read by tests/lib/ghost.sh
# A fragmented backing disk for the cleaner's tests, sourced after tests/lib/backend.sh: a loop device of
# 32 segments, zswap off. frag_fill leaves the first 24 segments partly used (by default half: holders A
# and B of half a segment each push their pages out in turn, then every B exits), beside 8 free
# segments, one of them reserved for the cleaner; frag_write then pushes out more, in writers of one
# segment, than the free segments hold (the cleaner keeps three free). Segments are 8 MiB, 4 MiB on the
# debug kernel: there the same scenario at half the volume is what KASAN under TCG affords (at 8 MiB,
# backend-debug/090 spent four of its seven minutes filling the disk).

FRAG_SEG_KIB=8192
if gs_is_debug; then FRAG_SEG_KIB=4096; fi
FRAG_SEG_PAGES=$((FRAG_SEG_KIB / 4))
FRAG_HOLDERS=() # NAME:PID of the holders still alive
FRAG_SHORT=()   # writers that could not push out 95 % of their pages, with how much they did

# frag_setup: the loop device, ghostswap swapped on with it, zswap off.
frag_setup() {
	local img=/var/tmp/gs-frag-disk.img
	ghost_at_exit frag_kill_holders
	truncate -s $((32 * FRAG_SEG_KIB))K "$img"
	FRAG_DISK=$(losetup -f --show --direct-io=on "$img") || gs_fail "losetup of $img failed"
	ghost_at_exit "rm -f $img"
	ghost_at_exit "losetup -d $FRAG_DISK"
	GS_BACKING=$FRAG_DISK
	GHOST_MODULE_PARAMS=("backing_dev=$FRAG_DISK" "erase_block=${FRAG_SEG_KIB}K")
	ghost_setup
	gs_zswap_disable
	[ "$(ghost_stat backend_segments)" -eq 32 ] || gs_fail "want 32 segments, got $(ghost_stat backend_segments)"
}

# frag_kill_holders: at exit, the holders still alive are killed and reaped quietly (else the shell
# reports each one killed, and a failure's log starts with a screenful of that).
frag_kill_holders() {
	local h
	{
		for h in "${FRAG_HOLDERS[@]}"; do kill -KILL "${h#*:}"; done
		for h in "${FRAG_HOLDERS[@]}"; do wait "${h#*:}"; done
	} 2>/dev/null
	return 0
}

# frag_hold NAME KIB [ARGS...]: a gs-memtest of KIB KiB of incompressible pages, pushed out and held (with
# more gs-memtest ARGS); pid in $FRAG_PID. Each pageout waits for writeback to drain (--settle): a page
# its verify pass faulted back while the cleaner's I/O held up its write is skipped by MADV_PAGEOUT
# (a writer held 0 of its 8 MiB out so in CI, though its pages were written).
frag_hold() {
	gs-memtest --size "$2K" --mix 0:0:1 --seed "$((${#FRAG_HOLDERS[@]} + 1))" --pageout --settle --hold 3600 \
		"${@:3}" >"/tmp/frag.$1.out" 2>&1 &
	FRAG_PID=$!
	FRAG_HOLDERS+=("$1:$FRAG_PID")
	ghost_wait_ready "/tmp/frag.$1.out" "$FRAG_PID"
}

# frag_release NAME:PID: let a holder verify its pages and exit; fail on a mismatch.
frag_release() {
	local name=${1%%:*} pid=${1#*:} rc=0 h keep=()
	kill -USR1 "$pid"
	wait "$pid" || rc=$?
	[ "$rc" -eq 0 ] || { tail -n 5 "/tmp/frag.$name.out" && gs_fail "holder $name failed to verify (exit $rc)"; }
	for h in "${FRAG_HOLDERS[@]}"; do
		[ "$h" = "$1" ] || keep+=("$h")
	done
	FRAG_HOLDERS=("${keep[@]}")
}

# frag_fill [LIVE]: 24 segments each holding LIVE eighths (1 to 7, default 4) of a segment of the A
# holders' pages and 8 - LIVE eighths free, 8 segments free.
frag_fill() {
	local live=${1:-4} i b=() in_used
	for i in $(seq 24); do
		frag_hold "a$i" $((FRAG_SEG_KIB * live / 8))
		frag_hold "b$i" $((FRAG_SEG_KIB * (8 - live) / 8))
		b+=("b$i:$FRAG_PID")
	done
	for i in "${b[@]}"; do
		frag_release "$i"
	done
	in_used=$(ghost_stat backend_free_in_used)
	gs_log "after the B holders exit: $(ghost_stat backend_segments_used) segments in use," \
		"$((in_used * 4 / 1024)) MiB free in them"
	[ "$in_used" -ge $((FRAG_SEG_PAGES * 22 * (8 - live) / 8)) ] ||
		gs_fail "only $in_used blocks free in used segments: the disk is not fragmented"
}

# frag_write FIRST LAST [ARGS...]: writers wFIRST..wLAST of one segment (gs-memtest ARGS added), each once
# more than two segments are free (the cleaner caught up) or after 60 s. Adds to FRAG_SHORT the writers that
# could not push out 95 % of their pages. From w6 on, the cleaner runs.
frag_write() {
	local i swapped t0
	for i in $(seq "$1" "$2"); do
		t0=$SECONDS
		while [ $((SECONDS - t0)) -lt 60 ]; do
			[ $(($(ghost_stat backend_segments) - $(ghost_stat backend_segments_used))) -gt 2 ] && break
			sleep 0.2
		done
		frag_hold "w$i" "$FRAG_SEG_KIB" "${@:3}"
		swapped=$(awk '/^VmSwap:/ { print $2 }' "/proc/$FRAG_PID/status")
		[ "$swapped" -ge $((FRAG_SEG_KIB * 95 / 100)) ] && continue
		FRAG_SHORT+=("w$i:${swapped}KiB")
		gs_log "w$i short: $(grep -v '^gs-memtest: start' "/tmp/frag.w$i.out" | tr '\n' ' ')"
		gs_log "w$i short: step_asides=$(ghost_stat step_asides), free segments" \
			"$(($(ghost_stat backend_segments) - $(ghost_stat backend_segments_used)))"
	done
}

# frag_verify: every holder left verifies its pages, then swapoff leaves the disk empty.
frag_verify() {
	local h
	for h in "${FRAG_HOLDERS[@]}"; do
		frag_release "$h"
	done
	swapoff "$GS_DEV" || gs_fail "swapoff failed"
	backend_check_empty
}

# frag_scenario LIVE WRITERS: the cleaner's target on a disk whose 24 used segments are LIVE eighths full
# (frag_fill): writers w1..wWRITERS push out a segment each, more than the free segments hold, each
# three times with verifies in between (as reclaim comes back to pages it could not swap out while the
# cleaner was freeing room). With 30 % of the disk still free at the end: at least 95 % of every
# writer's pages reached the disk, no write found it full, the cleaner moved blocks (write amplification
# at most 1.5, 95 % of writes sequential, no error), and every holder verifies, the first ones reading
# back pages from where the cleaner moved them.
frag_scenario() {
	local full0 moved0 written0 writes0 seq0 cleaned0 host moved full cleaned free_pct wa
	frag_setup
	frag_fill "$1"
	full0=$(ghost_stat backend_full) moved0=$(ghost_stat backend_blocks_moved)
	written0=$(ghost_stat backend_bytes_written) writes0=$(ghost_stat backend_writes)
	seq0=$(ghost_stat backend_writes_sequential) cleaned0=$(ghost_stat backend_segments_cleaned)
	frag_write 1 "$2" --passes 2
	host=$((($(ghost_stat backend_bytes_written) - written0) / 4096))
	moved=$(($(ghost_stat backend_blocks_moved) - moved0))
	full=$(($(ghost_stat backend_full) - full0)) cleaned=$(($(ghost_stat backend_segments_cleaned) - cleaned0))
	free_pct=$((100 - $(ghost_stat backend_pages) * 100 / (32 * FRAG_SEG_PAGES)))
	backend_report
	wa=$(((host + moved) * 100 / host))
	gs_log "writers: $host pages written, $moved moved by the cleaner ($cleaned segments cleaned):" \
		"write amplification $((wa / 100)).$((wa % 100 / 10))$((wa % 10)); $free_pct % of the disk free;" \
		"step_asides=$(ghost_stat step_asides)"
	[ "${#FRAG_SHORT[@]}" -eq 0 ] || gs_fail "writers that could not push out 95 % of their pages: ${FRAG_SHORT[*]}"
	[ "$free_pct" -ge 30 ] || gs_fail "only $free_pct % of the disk is free: the scenario is mis-sized"
	[ "$full" -eq 0 ] || gs_fail "$full writes found the disk full"
	[ "$cleaned" -gt 0 ] || gs_fail "the cleaner cleaned no segment (moved $moved blocks)"
	[ "$moved" -gt 0 ] || gs_fail "the cleaner moved no block"
	[ "$wa" -le 150 ] || gs_fail "write amplification above 1.5"
	[ "$(ghost_stat backend_clean_errors)" -eq 0 ] || gs_fail "the cleaner had I/O errors"
	backend_check_sequential "$writes0" "$seq0"
	frag_verify
}
