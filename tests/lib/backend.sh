# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034  # variables for the tests that source this
# Helpers for the tests of ghostswap's block device backend (module/swap_ops_bdev.c), sourced by a guest
# test instead of tests/lib/ghost.sh. The group's first --disk (/dev/vdb) is the backing device, its
# second (/dev/vdc) is too small for one segment.
. tests/lib/ghost.sh

GS_BACKING=/dev/vdb
GS_TINY_DISK=/dev/vdc
GS_PARAMS=/sys/module/ghostswap/parameters
GHOST_MODULE_PARAMS=("backing_dev=$GS_BACKING")

# backend_disk_stat FIELD: a /sys/block/<backing>/stat field (3: sectors read, 7: sectors written,
# 12: discard requests).
backend_disk_stat() { awk -v f="$1" '{ print $f }' "/sys/block/${GS_BACKING#/dev/}/stat"; }

# backend_report: the backend's statistics, one line.
backend_report() {
	local f line=
	for f in "$GS_STATS"/backend_*; do
		line="$line ${f##*/backend_}=$(cat "$f")"
	done
	gs_log "backend:$line"
}

# backend_check_sequential WRITES0 SEQ0: of the backend writes since the counters were WRITES0 and SEQ0,
# at least 95 % must continue where the previous one ended; prints the figure.
backend_check_sequential() {
	local writes=$(($(ghost_stat backend_writes) - $1)) seq=$(($(ghost_stat backend_writes_sequential) - $2))
	[ "$writes" -gt 0 ] || gs_fail "no write reached the backing device"
	gs_log "sequential backend writes: $seq of $writes ($((seq * 1000 / writes / 10)).$((seq * 1000 / writes % 10)) %)"
	[ $((seq * 100)) -ge $((writes * 95)) ] || gs_fail "fewer than 95 % of the backend writes were sequential"
}

# backend_check_empty: after swapoff no block of the backing device holds a page.
backend_check_empty() {
	local pages
	pages=$(ghost_stat backend_pages)
	[ "$pages" -eq 0 ] || gs_fail "$pages pages are still on the backing device after swapoff"
}

# backend_fail_io_setup PERCENT: fail_make_request (debug kernel) armed for PERCENT % of the backing
# device's bios, from backend_fail_io 1 to backend_fail_io 0 (and the test's exit). The debug kernel is
# built with it (kernel/config/debug.config): missing, it is a failure, not a skip.
backend_fail_io_setup() {
	local dir=/sys/kernel/debug/fail_make_request
	[ -d "$dir" ] || gs_fail "no $dir: the kernel has no CONFIG_FAIL_MAKE_REQUEST"
	ghost_at_exit "backend_fail_io 0"
	echo 0 >"$dir/verbose"
	echo "$1" >"$dir/probability"
	echo 1 >"$dir/interval"
	echo -1 >"$dir/times"
}
backend_fail_io() { echo "$1" >"/sys/block/${GS_BACKING#/dev/}/make-it-fail"; }
