#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench: ghostswap against zram and zswap + swap partition, side by side in the same guest boot.
#
# Builds what is missing (release kernel, module, test programs, rootfs; installs gnuplot), then boots the
# release guest once per repetition and runs bench/guest.sh in it: six configurations, in an order rotated
# per repetition, each warmed up once and then the same workloads, the static cost of devices of 1 to 1000
# x RAM. Writes to $BENCH_OUT (default bench-results/): results.csv (raw rows), summary.md (medians,
# spread, ratios vs zram and zswap + swap partition), throughput.png, sys-per-gib.png, static-cost.png.
# TCG makes absolute times meaningless: compare configurations within the results, never across machines.
# Environment: BENCH_REPS (5), BENCH_MEM (guest MiB, 256), BENCH_OUT, BENCH_WORKLOAD_TIMEOUT (s, 300),
# BENCH_CONFIGS and BENCH_WORKLOADS (space-separated subsets, default all; BENCH_WORKLOADS=none skips all
# but the static cost, BENCH_STATIC=0 skips that), BENCH_STATIC_MULTIPLES (device sizes of the static
# cost, x RAM, at most 1000; "1 8 64 1000").
# BENCH_QUICK=1: a smoke run, not for claims (meant to take under 20 minutes once built): one repetition
# of ghost, zswap-swap and zram on seq-2x, rand-2x and pageout, static cost at 1 and 1000 x RAM. Any of
# BENCH_REPS, BENCH_CONFIGS, BENCH_WORKLOADS, BENCH_STATIC_MULTIPLES set explicitly wins.
set -euo pipefail
# shellcheck source=../scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

case ${1:-} in
-h | --help)
	sed -n '3,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
	exit 0
	;;
esac

quick=${BENCH_QUICK:-0}
case $quick in
0) ;;
1)
	# Only where unset: an explicit setting, even an empty one (all configurations or workloads), wins.
	: "${BENCH_REPS=1}" "${BENCH_CONFIGS=ghost zswap-swap zram}" "${BENCH_WORKLOADS=seq-2x rand-2x pageout}"
	: "${BENCH_STATIC_MULTIPLES=1 1000}"
	gs_msg "BENCH_QUICK=1: $BENCH_REPS repetition(s) of configurations '${BENCH_CONFIGS:-all}', workloads" \
		"'${BENCH_WORKLOADS:-all}', static cost at '${BENCH_STATIC_MULTIPLES:-1 8 64 1000}' x RAM:" \
		"a smoke run, not for claims"
	;;
*) gs_die "BENCH_QUICK must be 0 or 1" ;;
esac
reps=${BENCH_REPS:-5}
mem=${BENCH_MEM:-256}
out=${BENCH_OUT:-$GS_TOP/bench-results}
for n in "$reps" "$mem"; do
	[[ $n =~ ^[1-9][0-9]*$ ]] || gs_die "BENCH_REPS and BENCH_MEM must be positive integers"
done
# The sparse disk for the static cost of swap partitions holds 1000 x RAM.
for n in ${BENCH_STATIC_MULTIPLES:-}; do
	if ! [[ $n =~ ^[1-9][0-9]*$ ]] || [ "$n" -gt 1000 ]; then
		gs_die "BENCH_STATIC_MULTIPLES must be integers from 1 to 1000, not '$n'"
	fi
done
t_all=$(gs_now)

gs_need_pkgs gnuplot-nox
"$GS_TOP/scripts/build-kernel.sh" release
"$GS_TOP/scripts/build-module.sh" release
"$GS_TOP/scripts/build-progs.sh"
"$GS_TOP/rootfs/build.sh"
gs_msg "phase builds: $(gs_elapsed "$t_all")"

mkdir -p "$out"
rm -f "$out"/results-*.csv
for rep in $(seq "$reps"); do
	t=$(gs_now)
	log=$out/run-$rep.log
	gs_msg "bench repetition $rep/$reps: booting a $mem MiB guest (log: $log)"
	rc=0
	# Disks: swap partition (8 x RAM), ghostswap backing disk (8 x RAM), a sparse one for the static cost
	# of swap partitions up to 1000 x RAM. Every boot runs what was built above, not a later change.
	GHOSTSWAP_NO_BUILD=1 "$GS_TOP/run-qemu.sh" --kernel release \
		--mem "$mem" --cpus 2 --disk $((mem * 8)) --disk $((mem * 8)) --disk $((mem * 1000 + 16)) \
		--timeout 7200 -- env BENCH_WORKLOAD_TIMEOUT="${BENCH_WORKLOAD_TIMEOUT:-300}" \
		BENCH_CONFIGS="${BENCH_CONFIGS:-}" BENCH_WORKLOADS="${BENCH_WORKLOADS:-}" \
		BENCH_STATIC="${BENCH_STATIC:-1}" BENCH_STATIC_MULTIPLES="${BENCH_STATIC_MULTIPLES:-}" \
		bench/guest.sh "$rep" \
		>"$log" 2>&1 || rc=$?
	run=$(sed -n 's/.*run folder: //p' "$log" | tail -n 1)
	if [ -n "$run" ] && [ -f "$run/logs/bench/results-$rep.csv" ]; then
		cp "$run/logs/bench/results-$rep.csv" "$out/"
	else
		gs_die "bench repetition $rep: no results (exit $rc; log: $log)"
	fi
	[ "$rc" -eq 0 ] || gs_msg "bench repetition $rep: run-qemu.sh exit $rc (splat or failure; log: $log)"
	gs_msg "bench repetition $rep/$reps done in $(gs_elapsed "$t")"
done

{
	head -n 1 "$out/results-1.csv"
	tail -q -n +2 "$out"/results-*.csv
} >"$out/results.csv"
rm -f "$out"/results-*.csv
# BENCH_QUICK tells the report to head the summary as a smoke run.
BENCH_QUICK=$quick python3 "$GS_TOP/bench/report.py" "$out" ||
	gs_die "bench report failed (input: $out/results.csv)"
gs_msg "bench done in $(gs_elapsed "$t_all"): $out/summary.md"
# The summary's headline: everything before its first table.
awk '/^## / { exit } { print }' "$out/summary.md"
