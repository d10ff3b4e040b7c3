#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench: ghostswap against zram and zswap + swap partition, side by side in the same guest boot.
#
# Builds what is missing (release kernel, module, test programs, rootfs; installs gnuplot), then boots the
# release guest once per repetition and runs bench/guest.sh in it: six configurations, in an order rotated
# per repetition, the same workloads, the static cost of devices of 1 to 1000 x RAM. Writes to $BENCH_OUT
# (default bench-results/): results.csv (raw rows), summary.md (medians, spread, ratios vs zram),
# throughput.png, static-cost.png.
# TCG makes absolute times meaningless: compare configurations within the results, never across machines.
# Environment: BENCH_REPS (5), BENCH_MEM (guest MiB, 256), BENCH_OUT, BENCH_WORKLOAD_TIMEOUT (s, 300),
# BENCH_CONFIGS and BENCH_WORKLOADS (space-separated subsets, default all; BENCH_WORKLOADS=none skips all
# but the static cost, BENCH_STATIC=0 skips that).
set -euo pipefail
# shellcheck source=../scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

case ${1:-} in
-h | --help)
	sed -n '3,10p' "$0" | sed 's/^# \{0,1\}//'
	exit 0
	;;
esac

reps=${BENCH_REPS:-5}
mem=${BENCH_MEM:-256}
out=${BENCH_OUT:-$GS_TOP/bench-results}
for n in "$reps" "$mem"; do
	[[ $n =~ ^[1-9][0-9]*$ ]] || gs_die "BENCH_REPS and BENCH_MEM must be positive integers"
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
		BENCH_STATIC="${BENCH_STATIC:-1}" bench/guest.sh "$rep" \
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
python3 "$GS_TOP/bench/report.py" "$out" || gs_die "bench report failed (input: $out/results.csv)"
gs_msg "bench done in $(gs_elapsed "$t_all"): $out/summary.md"
head -n 12 "$out/summary.md"
