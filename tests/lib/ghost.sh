# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Helpers for the tests of /dev/ghostswap, sourced after tests/lib/guest.sh by a test that runs in the
# guest. ghost_setup loads the module, enables zswap and swaps on; an EXIT trap set by ghost_setup undoes
# all of it, so every test leaves the guest as it found it, pass or fail.

GS_STATS=/sys/class/misc/ghostswap/stats

# ghost_stat NAME: one of the module's statistics.
ghost_stat() { cat "$GS_STATS/$1"; }

# ghost_mem_kib: guest RAM (MemTotal) in KiB.
ghost_mem_kib() { awk '/^MemTotal:/ { print $2 }' /proc/meminfo; }

# ghost_work_kib: what the sizes of workloads that swap by MADV_PAGEOUT or a cgroup limit scale with, in
# KiB: RAM on the release kernel, half of it on the debug kernel. There KASAN, lockdep and kmemleak under
# TCG make every swapped page dearer; the debug groups run the same paths with half the traffic, and the
# tests whose point is a volume (2 x RAM and more) run on release.
ghost_work_kib() {
	local mem_kib
	mem_kib=$(ghost_mem_kib)
	if gs_is_debug; then echo $((mem_kib / 2)); else echo "$mem_kib"; fi
}

# ghost_integrity_kib: the size of the integrity workloads (040, and 120 on release only) in KiB: 2 x RAM
# on the release kernel, 1.5 x on the debug one, where KASAN and kmemleak under TCG make every page dearer
# (2 x RAM took 640 s there in CI) and the volume is the release run's point.
ghost_integrity_kib() {
	local mem_kib
	mem_kib=$(ghost_mem_kib)
	if gs_is_debug; then echo $((mem_kib * 3 / 2)); else echo $((mem_kib * 2)); fi
}

# ghost_integrity_mix: the zero:compressible:incompressible mix of the integrity workloads (040, 120).
# With no backing device, zswap's pool holds every non-zero page swapped out, taken from RAM: at 8:3:1
# and 2 x RAM it peaks near a quarter of a 512 MiB guest (4:3:1 came near half), well inside the device's
# capacity, whose edge is the overflow group's subject. On the debug kernel mostly zero pages (12:3:1): at
# 4:3:1 a 320 MiB debug guest did not finish in 20 minutes. 12:3:1 still sends a few thousand
# compressible pages through zswap and reads them back.
ghost_integrity_mix() {
	if gs_is_debug; then echo 12:3:1; else echo 8:3:1; fi
}

# ghost_mix_pages MIX TOTAL CLASS: how many of TOTAL pages of mix Z:C:I are compressible (CLASS comp) or
# not zero (CLASS nonzero).
ghost_mix_pages() {
	local z c i
	IFS=: read -r z c i <<<"$1"
	case $3 in
	comp) echo $(($2 * c / (z + c + i))) ;;
	nonzero) echo $(($2 * (c + i) / (z + c + i))) ;;
	*) gs_fail "ghost_mix_pages: unknown page class '$3'" ;;
	esac
}

# ghost_swap_field FIELD: a /proc/swaps column (3 = size KiB, 4 = used KiB) of /dev/ghostswap, or "".
ghost_swap_field() { awk -v d="$GS_DEV" -v f="$1" '$1 == d { print $f }' /proc/swaps; }

ghost_is_on() { [ -n "$(ghost_swap_field 1)" ]; }

# ghost_zswap_setup: zswap with lz4 and a pool big enough for tests whose data lives only in zswap.
ghost_zswap_setup() {
	gs_zswap_enable lz4
	echo "${GHOST_ZSWAP_POOL_PERCENT:-60}" >/sys/module/zswap/parameters/max_pool_percent
}

# Module parameters for ghost_setup's insmod (e.g. backing_dev=/dev/vdb); default size, no backend.
GHOST_MODULE_PARAMS=()

# Options for ghost_setup's swapon, e.g. (-p 10) to rank it above another swap device.
GHOST_SWAPON_OPTS=()

# ghost_setup: insmod, zswap on, swapon /dev/ghostswap (no mkswap); arm the cleanup.
ghost_setup() {
	trap ghost_cleanup EXIT
	gs_module_load "${GHOST_MODULE_PARAMS[@]}"
	[ -c "$GS_DEV" ] || gs_fail "$GS_DEV is not a character device after insmod"
	ghost_zswap_setup
	swapon "${GHOST_SWAPON_OPTS[@]}" "$GS_DEV" || gs_fail "swapon ${GHOST_SWAPON_OPTS[*]} $GS_DEV failed"
	ghost_is_on || gs_fail "$GS_DEV is not in /proc/swaps after swapon"
}

# ghost_at_exit CMD: run CMD (a simple command) at exit, before ghost_cleanup undoes ghost_setup.
GHOST_EXIT_HOOKS=()
ghost_at_exit() { GHOST_EXIT_HOOKS+=("$1"); }

# ghost_cleanup: undo ghost_setup whatever state the test left (EXIT trap); keeps the test's status.
ghost_cleanup() {
	local rc=$? hook
	for hook in "${GHOST_EXIT_HOOKS[@]}"; do
		$hook || rc=1
	done
	pkill -KILL -f gs-memtest 2>/dev/null || true
	if ghost_is_on; then
		swapoff "$GS_DEV" || rc=1
	fi
	ghost_check_swap_count || rc=1
	if grep -q '^ghostswap ' /proc/modules; then
		rmmod ghostswap || rc=1
	fi
	gs_zswap_disable
	exit "$rc"
}

# ghost_check_swap_count: with no swap device on, /proc/meminfo's SwapFree must be 0: the free slots
# the device withheld from the swap core's count while it was full (stats/full) must all be given back
# by swapoff, or the count of free swap stays off for good. Prints why, and returns 1, if not.
ghost_check_swap_count() {
	local free
	[ "$(wc -l </proc/swaps)" -eq 1 ] || return 0
	free=$(awk '$1 == "SwapFree:" { print $2 }' /proc/meminfo)
	[ "$free" = 0 ] && return 0
	printf 'FAIL: SwapFree is %s kB with no swap device on\n' "$free"
	return 1
}

# ghost_memcg NAME: create cgroup /sys/fs/cgroup/NAME with the memory controller on, removed at exit;
# its path is in $GHOST_CG.
ghost_memcg() {
	local root=/sys/fs/cgroup
	grep -qw memory "$root/cgroup.subtree_control" || echo +memory >"$root/cgroup.subtree_control"
	GHOST_CG=$root/$1
	mkdir "$GHOST_CG"
	ghost_at_exit "rmdir $GHOST_CG"
}

# ghost_fill_memcg NAME: cgroup NAME ($GHOST_CG, removed at exit) held at memory.high = half of RAM, for
# the fills of twice RAM or more whose subject is a swap device's data path. Under global pressure such a
# fill was OOM-killed in CI with 3 GiB of swap free (backend/030, beside a debug guest on a busy host):
# kswapd had given up, 7.3 leaves a node "hopeless" after 16 kswapd runs that free nothing until the node
# is balanced again, which it never is while a fill runs, and direct reclaim alone, waiting on swap writes
# the host completed slowly, ran out of retries. (The likely way there, kswapd failing to create clusters
# without the memory reserves, is fixed in the hook series; swap writes stalled by a busy host are
# another, for a plain partition too: ghost/120's fill took 207 s there against 44 s alone.) memory.high
# reclaim runs in the workload's own context and throttles it instead of OOM-killing it, and the node
# stays above its watermarks. What these tests check (the data path to the disk, sequential writes,
# integrity) does not depend on which reclaim sends the pages; reclaim at the device's limits is the
# overflow group's subject, and global reclaim the ghost group's (040-integrity).
ghost_fill_memcg() {
	ghost_memcg "$1"
	echo $(($(ghost_mem_kib) / 2))K >"$GHOST_CG/memory.high"
}

# ghost_kernel_meminfo_kib: Slab + VmallocUsed + Percpu, the kernel memory a swapon can cost statically.
ghost_kernel_meminfo_kib() {
	awk '/^(Slab|VmallocUsed|Percpu):/ { s += $2 } END { print s }' /proc/meminfo
}

# ghost_wait_for OUT PID PATTERN: wait until gs-memtest (pid PID, output in OUT) prints a line matching
# PATTERN; fail the test if it exits first or takes more than 5 minutes.
ghost_wait_for() {
	local i
	for i in $(seq 600); do
		grep -q "$3" "$1" && return 0
		kill -0 "$2" 2>/dev/null || break
		sleep 0.5
	done
	cat "$1"
	gs_fail "gs-memtest (pid $2) did not print '$3' (waited $((i / 2))s)"
}

# ghost_wait_ready OUT PID: wait until gs-memtest --hold has filled its memory and waits for SIGUSR1.
ghost_wait_ready() { ghost_wait_for "$1" "$2" 'state=ready'; }

# ghost_pcp_fraction: the vm.percpu_pagelist_high_fraction that gives the per-CPU page lists of the
# largest zone the size its low watermark gives them now (managed pages / low watermark; 8 at least).
ghost_pcp_fraction() {
	awk '$1 == "Node" { z++ } $1 == "low" { low[z] = $2 } $1 == "managed" { m[z] = $2 }
	     END { for (i in m) if (m[i] > best) { best = m[i]; f = int(m[i] / low[i]) }
		   print (f > 8 ? f : 8) }' /proc/zoneinfo
}

# ghost_pressure CMD...: run a memory-pressure workload. Its allocation stall or failure reports (slow
# reclaim under TCG, above all with KASAN) do not count as splats; WARNING, BUG, KASAN still do.
# Meanwhile kswapd gets a head start (vm.watermark_scale_factor 4 %, default 0.1 %): under TCG a swap
# write can take long enough that direct reclaim, finding nothing but pages under writeback, runs out
# of retries and OOM-kills a workload that would fit in RAM + swap. Watermark boosting is switched off
# (vm.watermark_boost_factor 0): a boost is up to 1.5 x the high watermark, which the bigger scale factor
# makes 13 % of a small guest's RAM, and a boosted min watermark refuses user page faults that RAM could
# serve (an OOM kill with 26 MiB free in CI). The per-CPU free page lists are pinned meanwhile
# (vm.percpu_pagelist_high_fraction) at the size the default watermarks give them: their floor follows
# the low watermark (zone_highsize()), and at the raised scale factor kswapd's CPU kept 3.5 MiB of a
# 512 MiB guest's free pages in its list, where watermark checks do not count them: with 0 KiB free
# in the buddy lists, the swap-table allocations of reclaim (__GFP_NOMEMALLOC) failed for 40 s and the
# OOM killer ended overflow/040 with 5 GiB of swap free. If CMD is killed, the kernel's OOM report goes
# to the test's log.
ghost_pressure() {
	local rc=0 wsf=/proc/sys/vm/watermark_scale_factor wbf=/proc/sys/vm/watermark_boost_factor
	local pcp=/proc/sys/vm/percpu_pagelist_high_fraction old_wsf old_wbf old_pcp
	old_wsf=$(cat "$wsf") old_wbf=$(cat "$wbf") old_pcp=$(cat "$pcp")
	ghost_pcp_fraction >"$pcp"
	echo 400 >"$wsf"
	echo 0 >"$wbf"
	gs_expect_call_traces_begin
	"$@" || rc=$?
	gs_expect_call_traces_end
	echo "$old_wsf" >"$wsf"
	echo "$old_wbf" >"$wbf"
	echo "$old_pcp" >"$pcp"
	if [ "$rc" -eq 137 ]; then
		dmesg | grep -A 40 'invoked oom-killer' | tail -n 60 || true
	fi
	return "$rc"
}
