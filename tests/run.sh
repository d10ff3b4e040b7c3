#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The ghostswap test runner (what `make check` runs): tests/run.sh [GROUP | GROUP/TEST]...
#
# A group is a folder tests/cases/<group>/ with an optional group.conf (bash: QEMU_OPTS=(run-qemu.sh
# options), TEST_TIMEOUT=seconds per test, BOOT_TIMEOUT=seconds for the boot). Its tests are files
#   NNN-name.sh       run INSIDE the guest; all of a group's guest tests share one boot (run in name order)
#   NNN-name.host.sh  run on the HOST (they test the pipeline itself, e.g. by calling run-qemu.sh)
# A kernel splat or a timeout of a group's boot counts as one more failed test, "<group>: kernel splat" or
# "<group>: timeout". Builds whatever is missing first. Prints one line per test and, last, exactly
# "N passed, N failed" (", N skipped" when some were skipped); exits non-zero if any test failed.
# Without arguments runs every group. TEST may be given with or without its .sh / .host.sh suffix.
# Groups run GHOSTSWAP_TEST_JOBS boots at a time (default 2), longest first; a group's results are printed
# together when it ends.
set -euo pipefail
# shellcheck source=../scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

case ${1:-} in
-h | --help)
	sed -n '3,14p' "$0" | sed 's/^# \{0,1\}//'
	exit 0
	;;
esac

cases=$GS_TOP/tests/cases
t_all=$(gs_now)
passed=0 failed=0 skipped=0

# report ok|fail|skip NAME [DETAIL]
report() {
	local line
	case $1 in
	ok) passed=$((passed + 1)) && line="ok      $2" ;;
	skip) skipped=$((skipped + 1)) && line="skip    $2" ;;
	*) failed=$((failed + 1)) && line="not ok  $2" ;;
	esac
	[ -z "${3:-}" ] || line="$line  ($3)"
	printf '%s\n' "$line"
}

# notes: the passing tests' remarks (gs_note in tests/lib/guest.sh) from the result files of this run's
# groups, listed before the summary so that a pass with a remark is not silent.
notes() {
	local g
	for g in "${groups[@]}"; do
		[ ! -f "$GS_LOGS/group-$g.results" ] || cat "$GS_LOGS/group-$g.results"
	done | sed -n 's/^ok      \([^ ]*\)  (.*; note: \(.*\))$/\1: \2/p'
}

# --- which groups and tests
declare -A want=() # group -> space-separated test selection ("" = all)
groups=()
if [ $# -eq 0 ]; then
	for d in "$cases"/*/; do
		[ -d "$d" ] && groups+=("$(basename "$d")")
	done
else
	for a in "$@"; do
		a=${a#tests/cases/}
		g=${a%%/*}
		[ -d "$cases/$g" ] || gs_die "no test group '$g' (groups: $(cd "$cases" && echo */ | tr -d /))"
		if [ -z "${want[$g]+x}" ]; then
			groups+=("$g")
			want[$g]=""
		fi
		if [ "$a" != "$g" ]; then
			t=${a#*/}
			t=${t%.sh}
			t=${t%.host}
			[ -f "$cases/$g/$t.sh" ] || [ -f "$cases/$g/$t.host.sh" ] || gs_die "no test '$g/$t'"
			want[$g]="${want[$g]} $t"
		fi
	done
fi
[ "${#groups[@]}" -gt 0 ] || gs_die "no test groups in $cases"

# group_results CONSOLE GROUP: the group's GS-TAP lines. Results come from the results.tap that run-qemu.sh
# copied out of the guest next to CONSOLE (on the console a kernel message can land inside a line);
# without results.tap, from the console, with the failure details ("GS-TAP: # ...").
group_results() {
	local tap
	tap=$(dirname "$1")/logs/$2/results.tap
	if [ -s "$tap" ]; then
		cat "$tap"
	else
		tr -d '\r' <"$1" | grep -o 'GS-TAP: .*'
	fi
}

# group_conf G: load the group's settings into QEMU_OPTS, TEST_TIMEOUT, BOOT_TIMEOUT.
group_conf() {
	QEMU_OPTS=() TEST_TIMEOUT=600 BOOT_TIMEOUT=''
	# shellcheck source=/dev/null
	[ -f "$cases/$1/group.conf" ] && . "$cases/$1/group.conf"
	return 0
}

# group_variant: the kernel variant in QEMU_OPTS.
group_variant() {
	local i v=release
	for ((i = 0; i < ${#QEMU_OPTS[@]}; i++)); do
		[ "${QEMU_OPTS[i]}" = --kernel ] && v=${QEMU_OPTS[i + 1]}
	done
	printf '%s\n' "$v"
}

# --- builds: every variant a selected group needs, the module, the test programs, the rootfs
t=$(gs_now)
variants=(release) # host-side tests boot the release kernel
for g in "${groups[@]}"; do
	group_conf "$g"
	v=$(group_variant)
	[[ " ${variants[*]} " == *" $v "* ]] || variants+=("$v")
done
# A failed build is a failed "build: ..." test; groups that need what failed are not run.
declare -A broken=()
for v in "${variants[@]}"; do
	if ! "$GS_TOP/scripts/build-kernel.sh" "$v"; then
		report fail "build: kernel $v" "see the messages above"
		broken[$v]=1
	elif ! "$GS_TOP/scripts/build-module.sh" "$v"; then
		report fail "build: module $v" "see $GS_LOGS/module-$v.log"
	fi
done
"$GS_TOP/scripts/build-progs.sh" || report fail "build: tests/prog" "see $GS_LOGS/progs.log"
if ! "$GS_TOP/rootfs/build.sh"; then
	report fail "build: rootfs" "see the messages above"
	for v in "${variants[@]}"; do broken[$v]=1; done
fi
gs_msg "phase builds: $(gs_elapsed "$t")"

# --- groups
# run_group G: boot G's guest tests, then run its host tests; prints the result lines (report) and ends
# with G's elapsed time. Run in the background, several groups at a time (see below).
run_group() {
	local g=$1 t_group guest host f b n v out boot_timeout rc console line name rest detail tlog splat log t
	t_group=$(gs_now)
	group_conf "$g"
	guest=() host=()
	for f in "$cases/$g"/*.sh; do
		[ -f "$f" ] || continue
		b=$(basename "$f")
		n=${b%.sh}
		n=${n%.host}
		if [ -n "${want[$g]:-}" ] && [[ " ${want[$g]} " != *" $n "* ]]; then
			continue
		fi
		case $b in
		*.host.sh) host+=("$b") ;;
		*) guest+=("$b") ;;
		esac
	done
	gs_msg "group $g: ${#guest[@]} guest test(s), ${#host[@]} host test(s)"
	v=$(group_variant)
	if [ -n "${broken[$v]:-}" ] || { [ "${#host[@]}" -gt 0 ] && [ -n "${broken[release]:-}" ]; }; then
		report fail "$g" "not run: the kernel $v or rootfs build failed"
		return 0
	fi

	if [ "${#guest[@]}" -gt 0 ]; then
		out=$GS_LOGS/group-$g.out
		boot_timeout=${BOOT_TIMEOUT:-$((TEST_TIMEOUT * ${#guest[@]} + 120))}
		rc=0
		GHOSTSWAP_NO_BUILD=1 "$GS_TOP/run-qemu.sh" --quiet --timeout "$boot_timeout" "${QEMU_OPTS[@]}" -- \
			bash tests/lib/run-group.sh "$g" "$TEST_TIMEOUT" "${guest[@]}" >"$out" 2>&1 || rc=$?
		console=$(sed -n 's/.*console log: \(.*console\.log\).*/\1/p' "$out" | tail -n 1)
		declare -A seen=()
		if [ -n "$console" ] && [ -f "$console" ]; then
			while IFS= read -r line; do
				if [[ $line =~ ^GS-TAP:\ (ok|not\ ok)\ [0-9]+\ -\ ([^ ]+)(.*)$ ]]; then
					name=${BASH_REMATCH[2]} rest=${BASH_REMATCH[3]}
					seen[$name]=1
					if [ "${BASH_REMATCH[1]}" = "not ok" ]; then
						detail=${rest# (}
						report fail "$name" "${detail%)}; console: $console"
						tlog=$(dirname "$console")/logs/$name.log
						[ ! -f "$tlog" ] || tail -n 30 "$tlog" | sed 's/^/        /'
					elif [[ $rest == *"# SKIP"* ]]; then
						report skip "$name" "${rest#*# SKIP }"
					else
						detail=${rest# (}
						report ok "$name" "${detail%)}"
					fi
				elif [[ $line == "GS-TAP: # "* ]]; then
					printf '        %s\n' "${line#GS-TAP: # }"
				fi
			done < <(group_results "$console" "$g")
		fi
		for b in "${guest[@]}"; do
			name=$g/${b%.sh}
			[ -n "${seen[$name]:-}" ] || report fail "$name" "no result: the boot ended before it (run-qemu.sh exit $rc; see $out)"
		done
		unset seen
		splat=0
		if [ -n "$console" ] && [ -f "$console" ] && gs_scan_splats "$console" >/dev/null; then
			splat=1
		fi
		case $rc in
		0 | 1 | 125) ;; # 1: the group runner's "a test failed", reported per test; 125: the splat below
		124) report fail "$g: timeout" "boot killed after ${boot_timeout}s; console: ${console:-?}" ;;
		*)
			report fail "$g: boot" "run-qemu.sh exit $rc; see $out"
			grep -v '^\[ghostswap\] \(run folder\|booting\|console log\)' "$out" | tail -n 25 | sed 's/^/        /'
			;;
		esac
		if [ "$splat" = 1 ]; then
			report fail "$g: kernel splat" "console: $console"
			gs_splat_report "$console" | sed 's/^/        /'
		fi
	fi

	for b in "${host[@]}"; do
		name=$g/${b%.host.sh}
		log=$GS_LOGS/test-$g-${b%.host.sh}.log
		t=$(gs_now)
		rc=0
		# shellcheck disable=SC2016  # $1 is expanded by the inner bash
		(cd "$GS_TOP" && GS_TOP=$GS_TOP GS_CACHE=$GS_CACHE timeout -k 10 "$TEST_TIMEOUT" bash -c \
			'set -euo pipefail; . tests/lib/host.sh; . "$1"' _ "$cases/$g/$b") </dev/null >"$log" 2>&1 || rc=$?
		case $rc in
		0) report ok "$name" "$(gs_elapsed "$t")" ;;
		77) report skip "$name" "$(sed -n 's/^SKIP: //p' "$log" | tail -n 1)" ;;
		*)
			report fail "$name" "exit $rc after $(gs_elapsed "$t"); log: $log"
			tail -n 20 "$log" | sed 's/^/        /'
			;;
		esac
	done
	gs_msg "phase group $g: $(gs_elapsed "$t_group")"
	# The whole group's time orders the next runs (see below).
	[ -n "${want[$g]:-}" ] || echo $(($(gs_now) - t_group)) >"$GS_LOGS/group-$g.seconds"
}

# Groups run GHOSTSWAP_TEST_JOBS boots at a time (default 2): under TCG a guest keeps about one host CPU
# busy, so on a two-CPU host two boots get about 1.3 x as many tests done an hour as one (a debug test
# took 516 s next to another boot, 332 s alone). Longest first (by the group's last measured time, else
# by its boot timeout), so that short groups fill in at the end. A group's results are printed together
# when it ends.
jobs_max=${GHOSTSWAP_TEST_JOBS:-2}
[[ $jobs_max =~ ^[1-9][0-9]*$ ]] || gs_die "GHOSTSWAP_TEST_JOBS must be a positive number, not '$jobs_max'"

# group_cost G: the seconds G is expected to take.
group_cost() {
	if [ -s "$GS_LOGS/group-$1.seconds" ]; then
		cat "$GS_LOGS/group-$1.seconds"
	else
		group_conf "$1"
		echo "${BOOT_TIMEOUT:-$TEST_TIMEOUT}"
	fi
}
mapfile -t order < <(for g in "${groups[@]}"; do echo "$(group_cost "$g") $g"; done | sort -rn | cut -d' ' -f2)

declare -A job_group=() # pid of a running group -> its name
# collect: wait until one running group has ended, print its results and count them.
collect() {
	local pid g res rc
	while :; do
		for pid in "${!job_group[@]}"; do
			kill -0 "$pid" 2>/dev/null && continue
			rc=0
			wait "$pid" || rc=$?
			g=${job_group[$pid]}
			unset "job_group[$pid]"
			res=$GS_LOGS/group-$g.results
			cat "$res"
			passed=$((passed + $(grep -c '^ok      ' "$res" || true)))
			failed=$((failed + $(grep -c '^not ok  ' "$res" || true)))
			skipped=$((skipped + $(grep -c '^skip    ' "$res" || true)))
			[ "$rc" -eq 0 ] || report fail "$g: runner" "run_group exited with $rc; log: $res"
			return 0
		done
		sleep 2
	done
}
for g in "${order[@]}"; do
	while [ "${#job_group[@]}" -ge "$jobs_max" ]; do
		collect
	done
	gs_msg "group $g: started (results when it ends; log: $GS_LOGS/group-$g.results)"
	run_group "$g" >"$GS_LOGS/group-$g.results" 2>&1 &
	job_group[$!]=$g
done
while [ "${#job_group[@]}" -gt 0 ]; do
	collect
done
gs_msg "total: $(gs_elapsed "$t_all")"
note_lines=$(notes)
if [ -n "$note_lines" ]; then
	printf 'notes (tests that passed with a remark):\n'
	printf '%s\n' "$note_lines" | sed 's/^/  /'
fi
summary="$passed passed, $failed failed"
[ "$skipped" -eq 0 ] || summary="$summary, $skipped skipped"
printf '%s\n' "$summary"
[ "$failed" -eq 0 ]
