# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034  # variables for the tests that source this
# Helpers for the capacity-boundary tests (tests/cases/overflow*/), sourced after tests/lib/ghost.sh:
# /dev/ghostswap at priority 10 above a plain swap partition at priority 5, the partition being the
# group's first --disk (/dev/vdb). Once zswap cannot store a page (pool full, zswap off, the cgroup at
# memory.zswap.max) nor a backend take it, ghostswap declines the slot ("steps aside", counted in
# stats/step_asides) and the page goes to the partition.

OVERFLOW_DISK=/dev/vdb
GHOST_SWAPON_OPTS=(-p 10)

# overflow_partition_on: mkswap the partition and swap on it at priority 5; swapped off at exit.
overflow_partition_on() {
	[ -b "$OVERFLOW_DISK" ] || gs_fail "no $OVERFLOW_DISK: the group needs a --disk for the swap partition"
	mkswap "$OVERFLOW_DISK" >/dev/null || gs_fail "mkswap $OVERFLOW_DISK failed"
	swapon -p 5 "$OVERFLOW_DISK" || gs_fail "swapon -p 5 $OVERFLOW_DISK failed"
	ghost_at_exit overflow_partition_off
}

overflow_partition_off() {
	if grep -q "^$OVERFLOW_DISK " /proc/swaps; then swapoff "$OVERFLOW_DISK"; fi
}

# overflow_written_pages DISK: pages written to DISK since boot, from its
# block-layer statistics.
overflow_written_pages() { awk '{ print int($7 / 8) }' "/sys/block/${1#/dev/}/stat"; }

# overflow_zswap NAME: one of zswap's debugfs counters.
overflow_zswap() { cat "/sys/kernel/debug/zswap/$1"; }

# overflow_report: ghostswap's and zswap's counters of the capacity boundary, one line.
overflow_report() {
	gs_log "step_asides=$(ghost_stat step_asides) stepping_aside=$(ghost_stat stepping_aside)" \
		"full=$(ghost_stat full) full_periods=$(ghost_stat full_periods)" \
		"pages_kept=$(ghost_stat pages_kept) pool_limit_hit=$(overflow_zswap pool_limit_hit)" \
		"reject_reclaim_fail=$(overflow_zswap reject_reclaim_fail)" \
		"written_back_pages=$(overflow_zswap written_back_pages) partition_written=$(overflow_written_pages "$OVERFLOW_DISK")"
}

# overflow_sample T0: one line of what decides how fast reclaim gives up, T0 being $SECONDS at the start:
# the device's full flag and slots in use, anonymous and file pages scanned, file refaults (thrashing),
# pages swapped out, free pages. Shell builtins only: a fork can take seconds then.
overflow_sample() {
	local full used k v line
	read -r full <"$GS_STATS/full"
	read -r used <"$GS_STATS/slots_used"
	line="$((SECONDS - $1))s full=$full slots_used=$used"
	while read -r k v; do
		case $k in
		pgscan_anon | pgscan_file | workingset_refault_file | pswpout | zswpout | oom_kill | nr_free_pages)
			line+=" $k=$v" ;;
		esac
	done </proc/vmstat
	printf '%s\n' "$line"
}

# overflow_sampler_start FILE: overflow_sample every 5 s into FILE until the test ends. Under thrashing
# the sampler stalls too (its own pages are reclaimed and faulted back): the test samples once more when
# its workload is gone.
overflow_sampler_start() {
	local t0=$SECONDS sfd
	{
		exec {sfd}<> <(:) # a pipe nobody writes to: read -t on it is a sleep that does not fork
		while :; do
			overflow_sample "$t0"
			read -r -t 5 -u "$sfd" _ || true
		done
	} >"$1" 2>&1 &
	ghost_at_exit "kill $!"
}
