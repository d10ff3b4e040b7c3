#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The benchmark's guest side, run by bench/run.sh through run-qemu.sh (cwd /gs): bench/guest.sh REP
#
# For each configuration -- ghost (ghostswap + zswap), ghost-bdev (ghostswap + zswap + backing disk),
# ghost-overflow (ghostswap + zswap at priority 10 above the swap partition at priority 5, zswap's
# default pool of 20 %), zram (lz4), zswap-swap (zswap + swap partition), zswap-swap-20 (the same with
# ghost-overflow's pool of 20 %), swap (swap partition alone) --
# runs a discarded warm-up and then the same workloads, then measures the static cost of swapping on
# devices of 1, 8, 64 and 1000 x RAM (BENCH_STATIC_MULTIPLES). The configurations run in a rotated
# order, starting one further on in each repetition, so that none is always the first after boot. One
# CSV row per configuration x workload goes to /gs/logs/bench/results-REP.csv (copied to the host), with
# the system time of the whole machine and zswap's and ghostswap's counters over that workload. Disks:
# /dev/vdb swap partition, /dev/vdc ghostswap's backing disk, /dev/vdd large sparse disk for the static
# cost of swap partitions. Compressor lz4 everywhere; zswap pool max_pool_percent=60
# except in ghost-overflow and zswap-swap-20.
set -euo pipefail
# shellcheck source=../tests/lib/guest.sh
. tests/lib/guest.sh
# shellcheck source=../tests/lib/ghost.sh
. tests/lib/ghost.sh
# shellcheck source=../tests/lib/fragment.sh
. tests/lib/fragment.sh

rep=${1:?usage: bench/guest.sh REP}
out=/gs/logs/bench/results-$rep.csv
SWAP_DISK=/dev/vdb
BACKING_DISK=/dev/vdc
BIG_DISK=/dev/vdd
ZRAM=/dev/zram0
GS_STATS=/sys/class/misc/ghostswap/stats
CONFIGS=(ghost ghost-bdev ghost-overflow zram zswap-swap zswap-swap-20 swap)
WORKLOADS=(seq-2x rand-2x seq-4x rand-4x memcg-ram/4 incomp-2x incomp-2x-refused procs-4 pageout swapoff
	fragmented)
# BENCH_CONFIGS, BENCH_WORKLOADS: subsets to run (bench/run.sh); swapoff includes metadata-per-slot.
# swapoff and fragmented leave the configuration swapped off: they come last.
[ -z "${BENCH_CONFIGS:-}" ] || read -ra CONFIGS <<<"$BENCH_CONFIGS"
[ -z "${BENCH_WORKLOADS:-}" ] || read -ra WORKLOADS <<<"$BENCH_WORKLOADS"
# Counters recorded per workload (deltas): zswap's (debugfs) and ghostswap's (its stats directory).
COUNTERS=(pool_limit_hit reject_reclaim_fail written_back_pages pages_kept step_asides)
# BENCH_STATIC_MULTIPLES: device sizes of the static cost, x RAM (bench/run.sh checks them: at most
# 1000, the size of the sparse disk).
read -ra STATIC_MULTIPLES <<<"${BENCH_STATIC_MULTIPLES:-1 8 64 1000}"
MIX=4:3:1 # zero : compressible (~3:1 with lz4) : incompressible pages
WORKLOAD_TIMEOUT=${BENCH_WORKLOAD_TIMEOUT:-300}
mem_kib=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)
cg=/sys/fs/cgroup/gs-bench

mkdir -p "${out%/*}"
echo "rep,config,workload,status,size_mib,elapsed_s,write_mibps,read_mibps,sys_s,sys_all_s,sys_s_per_gib,swapout_pages,swapin_pages,value,unit,$(
	IFS=,
	echo "${COUNTERS[*]}"
)" >"$out"
# The driver must survive the OOM kills that some configurations provoke; workloads run at score 0.
echo -1000 >/proc/self/oom_score_adj

# row FIELDS...: a CSV row, with the counters' change since the last counters_mark.
row() {
	local IFS=, c deltas=()
	for c in "${COUNTERS[@]}"; do
		deltas+=("$(($(counter "$c") - ${mark[$c]:-0}))")
	done
	echo "$rep,$*,${deltas[*]}" >>"$out"
	printf 'bench: %s %s\n' "$*" "${deltas[*]}"
}
# row_value CONFIG WORKLOAD STATUS SIZE_MIB VALUE UNIT: a row that is one measured value, not a workload
# run: elapsed_s to swapin_pages (8 fields) empty.
row_value() { row "$1,$2,$3,$4,,,,,,,,,$5,$6"; }
# counter NAME: a zswap or ghostswap counter, 0 where there is none (ghostswap not loaded).
counter() {
	local f
	for f in "/sys/kernel/debug/zswap/$1" "$GS_STATS/$1"; do
		[ -r "$f" ] && { cat "$f"; return; }
	done
	echo 0
}
declare -A mark
counters_mark() {
	local c
	for c in "${COUNTERS[@]}"; do
		mark[$c]=$(counter "$c")
	done
}
now() { date +%s.%N; }
secs_since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }'; }
swapouts() { echo $(($(gs_vmstat pswpout) + $(gs_vmstat zswpout))); }
swapins() { echo $(($(gs_vmstat pswpin) + $(gs_vmstat zswpin))); }
swap_used_kib() { awk 'NR > 1 { s += $4 } END { printf "%.0f\n", s }' /proc/swaps; }
kernel_kib() { awk '/^(Slab|VmallocUsed|Percpu):/ { s += $2 } END { print s }' /proc/meminfo; }
# quiesce: write back dirty pages and drop clean caches, so that every recorded workload starts from
# the same page cache and reclaims anonymous pages, not what the previous one left behind.
quiesce() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	sleep 1
}
# memtest_field FILE PHASE KEY: KEY of gs-memtest's first PHASE line in FILE; memtest_stime FILE...: the
# sum of stime over the phase lines of all FILEs.
memtest_field() { awk -v p="phase=$2" -v k="$3" '$2 == p { for (i = 3; i <= NF; i++) if (index($i, k "=") == 1) { print substr($i, length(k) + 2); exit } }' "$1"; }
memtest_stime() { awk '/ stime=/ { for (i = 3; i <= NF; i++) if (index($i, "stime=") == 1) s += substr($i, 7) } END { printf "%.3f", s }' "$@"; }
# sys_ticks: system time of the whole machine so far, summed over the CPUs, in USER_HZ ticks: the `system`
# field (3rd number) of /proc/stat's "cpu " line. /proc/stat counts in USER_HZ, 100 a second on x86
# whatever the kernel's HZ. Time in interrupts (`irq`, `softirq`: disk I/O completions) is not in it;
# compressing and storing a page is, whether direct reclaim in the workload, kswapd or a kworker does it.
sys_ticks() { awk '$1 == "cpu" { print $4; exit }' /proc/stat; }
# sys_fields TICKS0 SWAPOUT_PAGES: the CSV fields sys_all_s (system time of the whole machine since
# TICKS0: the workload's, kswapd's, kworkers') and sys_s_per_gib (that per GiB swapped out, 4 KiB pages;
# empty if nothing was). The workload's own sys_s misses what reclaim costs outside the process.
sys_fields() {
	awk -v t0="$1" -v t1="$(sys_ticks)" -v so="$2" 'BEGIN {
		s = (t1 - t0) / 100
		printf "%.2f,", s
		if (so > 0) printf "%.3f", s / (so * 4096 / 1073741824)
	}'
}
# in_workload_timeout CMD...: run CMD as a workload: at OOM score 0 (the driver is at -1000), killed
# after BENCH_WORKLOAD_TIMEOUT s. timeout(1) signals its whole process group, CMD's children too.
in_workload_timeout() {
	timeout -k 10 "$WORKLOAD_TIMEOUT" bash -c 'echo 0 >/proc/self/oom_score_adj && exec "$@"' _ "$@"
}
# workload_status RC ELAPSED OOM_KILLS0 SWAPOUT_PAGES MIN_PAGES: the status of a workload run under
# in_workload_timeout that exited RC after ELAPSED s; invalid unless at least MIN_PAGES went to swap.
workload_status() {
	# timeout(1) exits 124 after its TERM, 137 if it had to KILL: either way the clock ran out.
	if [ "$1" -eq 124 ] || { [ "$1" -ne 0 ] && [ "${2%.*}" -ge "$WORKLOAD_TIMEOUT" ]; }; then
		echo timeout
	elif [ "$1" -ne 0 ] && [ "$(gs_vmstat oom_kill)" -gt "$3" ]; then
		echo oom-killed
	elif [ "$1" -ne 0 ]; then
		echo "failed:$1"
	elif [ "$4" -lt "$5" ]; then
		echo invalid # swapping did not really happen
	else
		echo ok
	fi
}
# median_of N: the median of the numbers on stdin, one a line; empty unless there are N of them.
median_of() {
	sort -g | awk -v n="$1" 'NF { v[++k] = $1 } END { if (k == n && n > 0) printf "%.1f", n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }'
}

# --- configurations
zswap_on() {
	gs_zswap_enable lz4
	echo 60 >/sys/module/zswap/parameters/max_pool_percent
}

# config_load CONFIG SIZE_KIB: load what CONFIG's device needs before it is set up (ghostswap.ko, whose
# load-time allocations, e.g. a backing disk's per-segment tables, are part of the static cost).
config_load() {
	case $1 in
	ghost | ghost-overflow) insmod "$GS_MODULE" size="$2K" ;;
	ghost-bdev) insmod "$GS_MODULE" size="$2K" backing_dev=$BACKING_DISK ;;
	esac
}

# config_on CONFIG SIZE_KIB DISK: swap on CONFIG's device of SIZE_KIB (DISK for the swap partitions);
# fails if the device refuses that size.
config_on() {
	case $1 in
	ghost | ghost-bdev) zswap_on && swapon "$GS_DEV" ;;
	ghost-overflow)
		zswap_on && echo 20 >/sys/module/zswap/parameters/max_pool_percent &&
			swapon -p 10 "$GS_DEV" && mkswap -q -f "$3" "$2" >/dev/null && swapon -p 5 "$3"
		;;
	zram)
		gs_zswap_disable
		echo lz4 >/sys/block/zram0/comp_algorithm &&
			echo "$2K" >/sys/block/zram0/disksize && mkswap -q "$ZRAM" && swapon "$ZRAM"
		;;
	zswap-swap) zswap_on && mkswap -q -f "$3" "$2" >/dev/null && swapon "$3" ;;
	zswap-swap-20)
		zswap_on && echo 20 >/sys/module/zswap/parameters/max_pool_percent &&
			mkswap -q -f "$3" "$2" >/dev/null && swapon "$3"
		;;
	swap) gs_zswap_disable && mkswap -q -f "$3" "$2" >/dev/null && swapon "$3" ;;
	esac
}

config_up() { config_load "$1" "$2" && config_on "$@"; }

config_down() {
	swapoff -a 2>/dev/null || true
	grep -q '^ghostswap ' /proc/modules && rmmod ghostswap
	[ -e /sys/block/zram0/reset ] && echo 1 >/sys/block/zram0/reset
	gs_zswap_disable
}

# --- workloads
# memtest CONFIG WORKLOAD SIZE_KIB MIN_PAGES CMD...: run a gs-memtest command line and record its
# throughput; the run is invalid unless at least MIN_PAGES pages went to swap (pswpout + zswpout).
memtest() {
	local config=$1 workload=$2 size_kib=$3 min=$4 o=/tmp/bench.out so0 si0 oom0 st0 t0 rc=0 status elapsed so si sysf
	shift 4
	quiesce
	counters_mark
	so0=$(swapouts) si0=$(swapins) oom0=$(gs_vmstat oom_kill) st0=$(sys_ticks) t0=$(now)
	gs_expect_call_traces_begin # allocation stalls and OOM reports are results here, not splats
	in_workload_timeout "$@" >"$o" 2>&1 || rc=$?
	gs_expect_call_traces_end
	elapsed=$(secs_since "$t0") so=$(($(swapouts) - so0)) si=$(($(swapins) - si0)) sysf=$(sys_fields "$st0" "$so")
	status=$(workload_status "$rc" "$elapsed" "$oom0" "$so" "$min")
	row "$config,$workload,$status,$((size_kib / 1024)),$elapsed,$(memtest_field "$o" fill mibps),$(memtest_field "$o" verify mibps),$(memtest_stime "$o"),$sysf,$so,$si,,"
}

# procs CONFIG N: N gs-memtest processes of 2 x RAM / N each (different seeds), started at once, as usemem
# or memhog run several: reclaim serves N faulting tasks at a time. Sequential, the same mix; valid if a
# quarter of the pages beyond RAM went to swap, as for seq-2x; one process failing fails the run.
# write_mibps = all MiB filled / the longest per-process fill time, read_mibps likewise with the verify
# times (gs-memtest times each phase; the fills start together and overlap, the verifies start when
# each fill ends, so this is a lower bound of the aggregate read rate); value = the median per-process
# fill MiB/s.
procs() {
	local config=$1 n=$2 size_kib=$((mem_kib * 2 / $2)) o=/tmp/bench-procs files=() i f rc=0
	local so0 si0 oom0 st0 t0 status elapsed so si sysf write read median
	for i in $(seq "$n"); do
		files+=("$o.$i")
		: >"$o.$i" # every file exists for the parsers below, even if its process never started
	done
	quiesce
	counters_mark
	so0=$(swapouts) si0=$(swapins) oom0=$(gs_vmstat oom_kill) st0=$(sys_ticks) t0=$(now)
	gs_expect_call_traces_begin # allocation stalls and OOM reports are results here, not splats
	# shellcheck disable=SC2016 # expanded by the inner bash
	in_workload_timeout bash -c '
		n=$1 o=$2 rc=0 pids=()
		shift 2
		for i in $(seq "$n"); do
			"$@" --seed "$i" >"$o.$i" 2>&1 &
			pids+=($!)
		done
		for p in "${pids[@]}"; do
			wait "$p" || { s=$?; [ "$rc" -ne 0 ] || rc=$s; }
		done
		exit "$rc"' _ "$n" "$o" gs-memtest --size "${size_kib}K" --mix "$MIX" || rc=$?
	gs_expect_call_traces_end
	elapsed=$(secs_since "$t0") so=$(($(swapouts) - so0)) si=$(($(swapins) - si0)) sysf=$(sys_fields "$st0" "$so")
	status=$(workload_status "$rc" "$elapsed" "$oom0" "$so" $((mem_kib / 16)))
	write=$(procs_rate fill "${files[@]}") read=$(procs_rate verify "${files[@]}")
	median=$(for f in "${files[@]}"; do memtest_field "$f" fill mibps; done | median_of "$n")
	row "$config,procs-$n,$status,$((size_kib * n / 1024)),$elapsed,$write,$read,$(memtest_stime "${files[@]}"),$sysf,$so,$si,$median,MiB/s/proc"
}
# procs_rate PHASE FILE...: the bytes of every FILE's first PHASE line over the longest of their secs, in
# MiB/s; empty unless every FILE has one.
procs_rate() {
	local p=$1
	shift
	awk -v p="phase=$p" -v n=$# '
		FNR == 1 { got = 0 }
		$2 == p && !got {
			got = 1
			k++
			for (i = 3; i <= NF; i++) {
				split($i, kv, "=")
				if (kv[1] == "bytes") b += kv[2]
				if (kv[1] == "secs" && kv[2] + 0 > m) m = kv[2] + 0
			}
		}
		END { if (k == n && m > 0) printf "%.1f", b / 1048576 / m }' "$@"
}

# warm_up CONFIG: one discarded workload once CONFIG is set up, so that no configuration's first recorded
# workload pays for a cold boot (in the 2026-12-06 run the first workload after boot wrote at 28-33 MiB/s
# in every configuration, against 35-60 later; bench/RESULTS.md) and every configuration starts its
# recorded workloads with its device and zswap's pool once filled. A sequential 1.25 x RAM, which swaps,
# the same mix and timeout; not a CSV row.
warm_up() {
	local t0 rc=0
	t0=$(now)
	gs_expect_call_traces_begin # it may be OOM-killed (ghost at its limit): not a splat either
	in_workload_timeout gs-memtest --size "$((mem_kib * 5 / 4))K" --mix "$MIX" >/tmp/warm-up.out 2>&1 || rc=$?
	gs_expect_call_traces_end
	printf 'bench: warm-up of %s: %s s, exit %s\n' "$1" "$(secs_since "$t0")" "$rc"
}

# pageout CONFIG: MADV_PAGEOUT of RAM/2 and fault-back. The pageout is timed until no page is under
# writeback (gs-memtest --drain), not until the writes are submitted, and counts the pages that left
# memory (mincore(2)): write = MiB that left memory / pageout seconds (a disk's written pages stay in
# the swap cache until reclaim needs them: they count only once gone), read = fault-back MiB/s;
# value = pages that left memory.
pageout() {
	local size_kib=$((mem_kib / 2)) o=/tmp/bench.out so0 si0 st0 t0 rc=0 status=ok secs left elapsed so si sysf
	quiesce
	counters_mark
	so0=$(swapouts) si0=$(swapins) st0=$(sys_ticks) t0=$(now)
	gs-memtest --size "${size_kib}K" --mix $MIX --pageout --drain >"$o" 2>&1 || rc=$?
	elapsed=$(secs_since "$t0") so=$(($(swapouts) - so0)) si=$(($(swapins) - si0)) sysf=$(sys_fields "$st0" "$so")
	[ "$rc" -eq 0 ] || status=failed:$rc
	secs=$(memtest_field "$o" pageout secs) left=$(memtest_field "$o" pageout left)
	row "$1,pageout,$status,$((size_kib / 1024)),$elapsed,$(awk -v s="$secs" -v l="$left" 'BEGIN { if (s > 0 && l >= 0) printf "%.1f", l * 4 / 1024 / s }'),$(memtest_field "$o" verify mibps),$(memtest_stime "$o"),$sysf,$so,$si,$left,pages-left"
}

# hold_and_swapoff CONFIG: on a fresh device (CONFIG set up again, so that no slot or swap cache of the
# workloads before counts), push RAM/2 out and hold it; the kernel memory this costs (Slab +
# VmallocUsed + Percpu, which hold no compressed data) over the slots it took; then the time swapoff
# takes to bring it all back. Leaves the configuration swapped off.
hold_and_swapoff() {
	local size_kib=$((mem_kib / 2)) o=/tmp/hold.out k0 k1 u0 used_kib holder t0 rc=0 status=ok
	config_down >/dev/null 2>&1 || true
	config_up "$1" $((mem_kib * 8)) "$SWAP_DISK" >/dev/null || {
		row_value "$1" metadata-per-slot failed:setup $((size_kib / 1024)) "" bytes
		return 0
	}
	counters_mark
	quiesce
	k0=$(kernel_kib) u0=$(swap_used_kib)
	gs-memtest --size "${size_kib}K" --mix $MIX --pageout --hold 600 >"$o" 2>&1 &
	holder=$!
	for _ in $(seq 600); do
		grep -q 'state=ready' "$o" && break
		kill -0 "$holder" 2>/dev/null || break
		sleep 0.5
	done
	quiesce
	k1=$(kernel_kib)
	used_kib=$(($(swap_used_kib) - u0))
	if [ "$used_kib" -gt 0 ]; then
		row_value "$1" metadata-per-slot ok $((size_kib / 1024)) $(((k1 - k0) * 1024 / (used_kib / 4))) bytes
	else
		row_value "$1" metadata-per-slot invalid $((size_kib / 1024)) "" bytes
	fi
	t0=$(now)
	swapoff -a || status=failed:swapoff
	row_value "$1" swapoff "$status" $((used_kib / 1024)) "$(secs_since "$t0")" s
	kill -USR1 "$holder" 2>/dev/null || true
	wait "$holder" || rc=$?
	[ "$rc" -eq 0 ] || row_value "$1" swapoff-verify "failed:$rc" $((size_kib / 1024)) "" ""
}

# fragmented CONFIG: the cleaner's scenario (tests/lib/fragment.sh) as a workload, for the configurations
# that write pages to a disk (ghost-bdev, swap; no row for the others), on a 256 MiB loop device in place
# of their disk, zswap off. Two interleaved sets of 24 holders of 4 MiB push out their pages, then one set
# exits: 96 MiB live scattered over 192 MiB written (for ghost-bdev: 24 segments of 8 MiB half free).
# Then nine writers of 8 MiB, one after the other, push theirs out (MADV_PAGEOUT, again after each of two
# verify passes), with no wait for the cleaner. write_mibps: the MiB the writers got onto the disk
# (VmSwap, also the row's size) over their elapsed time; value: write amplification, blocks the loop
# device wrote over pages swapped out (ghost-bdev: its cleaner's copies; a swap partition writes in
# place). Every holder and writer then verifies. Leaves the configuration swapped off.
fragmented() {
	local config=$1 img=/var/tmp/bench-frag.img loop dev i h b=() kib=0 so0 si0 st0 t0 w0 elapsed so si
	local status=ok wrote
	case $config in
	ghost-bdev | swap) ;;
	*) return 0 ;;
	esac
	swapoff -a
	gs_zswap_disable
	truncate -s 256M "$img"
	loop=$(losetup -f --show --direct-io=on "$img")
	if [ "$config" = swap ]; then
		mkswap -q "$loop" >/dev/null
		dev=$loop
	else
		echo 8M >/sys/module/ghostswap/parameters/erase_block
		echo "$loop" >/sys/module/ghostswap/parameters/backing_dev
		dev=$GS_DEV
	fi
	swapon "$dev"
	FRAG_HOLDERS=()
	for i in $(seq 24); do
		frag_hold "a$i" 4096
		frag_hold "b$i" 4096
		b+=("b$i:$FRAG_PID")
	done
	for h in "${b[@]}"; do
		frag_release "$h"
	done
	quiesce
	counters_mark
	so0=$(gs_vmstat pswpout) si0=$(swapins) st0=$(sys_ticks) t0=$(now)
	w0=$(awk '{ print $7 }' "/sys/block/${loop#/dev/}/stat")
	for i in $(seq 9); do
		frag_hold "w$i" 8192 --passes 2
		kib=$((kib + $(awk '/^VmSwap:/ { print $2 }' "/proc/$FRAG_PID/status")))
	done
	elapsed=$(secs_since "$t0") so=$(($(gs_vmstat pswpout) - so0)) si=$(($(swapins) - si0))
	wrote=$((($(awk '{ print $7 }' "/sys/block/${loop#/dev/}/stat") - w0) / 8))
	# Valid if the writers got at least half of their 72 MiB onto the disk
	[ "$kib" -ge $((72 * 1024 / 2)) ] || status=invalid
	row "$config,fragmented,$status,$((kib / 1024)),$elapsed,$(awk -v k="$kib" -v s="$elapsed" \
		'BEGIN { printf "%.1f", k / 1024 / s }'),,$(memtest_stime /tmp/frag.w*.out),$(sys_fields "$st0" "$so"),$so,$si,$(
		awk -v w="$wrote" -v so="$so" 'BEGIN { if (so > 0) printf "%.2f", w / so }'),write-amp"
	for h in "${FRAG_HOLDERS[@]}"; do
		frag_release "$h"
	done
	swapoff "$dev"
	[ "$config" = swap ] || echo none >/sys/module/ghostswap/parameters/backing_dev
	losetup -d "$loop"
	rm -f "$img"
}

memcg_run() {
	local size_kib=$((mem_kib / 2))
	mkdir -p "$cg"
	echo $((mem_kib / 4))K >"$cg/memory.max"
	memtest "$1" memcg-ram/4 "$size_kib" $(((size_kib - mem_kib / 4) / 16)) "${GS_IN_CGROUP[@]}" "$cg" \
		gs-memtest --size "${size_kib}K" --mix $MIX
	rmdir "$cg"
}

# incompressible CONFIG WORKLOAD: 2 x RAM of incompressible pages, sequential, for the policy on them
# (README, "Incompressible pages"): incomp-2x as zswap does by default, storing each as it is, a whole
# page of its pool; incomp-2x-refused in a cgroup with memory.zswap.writeback=0, where zswap refuses
# them. Valid if RAM/16 pages went to swap.
incompressible() {
	local size_kib=$((mem_kib * 2)) run=()
	if [ "$2" = incomp-2x-refused ]; then
		mkdir -p "$cg"
		echo 0 >"$cg/memory.zswap.writeback"
		run=("${GS_IN_CGROUP[@]}" "$cg")
	fi
	memtest "$1" "$2" "$size_kib" $((mem_kib / 16)) "${run[@]}" gs-memtest --size "${size_kib}K" --mix 0:0:1
	[ "$2" = incomp-2x ] || rmdir "$cg"
}

# --- static cost: kernel memory that loading what a device needs (the module and what it allocates at
# load) and swapping on an empty device of N x RAM cost (row static-Nx), and the loading's part of it
# (static-Nx-load: on x86 a module's text takes a 2 MiB page of the execmem cache, VmallocUsed, when
# the cache has no room; a backing disk's reverse map, 4 bytes a block).
static_cost() {
	local config=$1 mult=$2 size_kib k0 kl k1 status=ok value='' load=''
	counters_mark
	size_kib=$((mem_kib * mult))
	quiesce
	k0=$(kernel_kib)
	config_load "$config" "$size_kib" || status=refused
	quiesce
	kl=$(kernel_kib)
	gs_expect_call_traces_begin # a refused size may come with an allocation failure report
	if [ "$status" = ok ] && config_on "$config" "$size_kib" "$BIG_DISK" >/tmp/static.err 2>&1; then
		quiesce
		k1=$(kernel_kib)
		value=$((k1 - k0)) load=$((kl - k0))
	else
		status=refused
		sed 's/^/# /' /tmp/static.err
	fi
	gs_expect_call_traces_end
	config_down >/dev/null 2>&1 || true
	row_value "$config" "static-${mult}x" "$status" $((size_kib / 1024)) "$value" KiB
	row_value "$config" "static-${mult}x-load" "$status" $((size_kib / 1024)) "$load" KiB
}

grep -qw memory /sys/fs/cgroup/cgroup.subtree_control || echo +memory >/sys/fs/cgroup/cgroup.subtree_control
size_kib=$((mem_kib * 8))
n=${#CONFIGS[@]}
config_order=()
for i in $(seq 0 $((n - 1))); do
	config_order+=("${CONFIGS[$(((rep - 1 + i) % n))]}")
done
for config in "${config_order[@]}"; do
	printf 'bench: === %s\n' "$config"
	config_up "$config" "$size_kib" "$SWAP_DISK" >/dev/null || {
		row_value "$config" setup failed $((size_kib / 1024)) "" ""
		config_down
		continue
	}
	[ "${WORKLOADS[*]}" = none ] || warm_up "$config"
	# Expect at least a quarter of the pages beyond RAM (half of them are zero pages) to be swapped.
	for workload in "${WORKLOADS[@]}"; do
		case $workload in
		seq-[0-9]x | rand-[0-9]x)
			mult=${workload#*-} mult=${mult%x}
			args=(--size "$((mem_kib * mult))K" --mix "$MIX")
			[ "${workload%-*}" = seq ] || args+=(--random)
			memtest "$config" "$workload" $((mem_kib * mult)) $((mem_kib * (mult - 1) / 16)) \
				gs-memtest "${args[@]}"
			;;
		memcg-ram/4) memcg_run "$config" ;;
		incomp-2x | incomp-2x-refused) incompressible "$config" "$workload" ;;
		procs-[1-9]) procs "$config" "${workload#procs-}" ;;
		pageout) pageout "$config" ;;
		swapoff) hold_and_swapoff "$config" ;;
		fragmented) fragmented "$config" ;;
		none) ;;
		*) echo "bench: unknown workload $workload" >&2 && exit 2 ;;
		esac
	done
	config_down
done
# ghost-overflow's static cost is ghost's plus the partition's, zswap-swap-20's zswap-swap's: not measured again.
[ "${BENCH_STATIC:-1}" = 1 ] || STATIC_MULTIPLES=()
for mult in "${STATIC_MULTIPLES[@]}"; do
	for config in "${config_order[@]}"; do
		[ "$config" = ghost-overflow ] || [ "$config" = zswap-swap-20 ] || static_cost "$config" "$mult"
	done
done
echo "bench: done"
