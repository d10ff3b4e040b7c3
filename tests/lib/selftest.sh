# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The kernel's cgroup selftest test_zswap (built from the same 7.3 tree, tests/prog/Makefile) as a peer
# suite, sourced by a guest test after tests/lib/ghost.sh: its results with /dev/ghostswap as the only
# swap device are compared with its results on a plain swap partition (SELFTEST_DISK), same boot.

SELFTEST_DISK=/dev/vdb
SELFTEST_RESULTS=/tmp/test_zswap

# selftest_run LABEL: run test_zswap with zswap on (lz4) and whatever swap is on now; its results go to
# $SELFTEST_RESULTS.LABEL as "NAME ok|fail|skip|killed" lines, in order (a test during which test_zswap
# was killed is "killed", the tests after it are missing). Its OOM kills (memcg limits) and allocation
# failure reports are not splats. Fails the test if test_zswap did not start.
selftest_run() {
	local out=$SELFTEST_RESULTS.$1.tap rc=0 next cgroups_before left
	command -v test_zswap >/dev/null || gs_fail "no test_zswap in /gs/bin: see scripts/build-progs.sh"
	gs_zswap_enable lz4
	cgroups_before=$(find /sys/fs/cgroup -mindepth 1 -type d | sort)
	gs_expect_call_traces_begin
	(cd /tmp && test_zswap) >"$out" 2>&1 || rc=$?
	gs_expect_call_traces_end
	# A test_zswap killed in a test leaves that test's cgroups behind, and the same test in the next run
	# fails to create them: remove them (children first).
	left=$(comm -13 <(echo "$cgroups_before") <(find /sys/fs/cgroup -mindepth 1 -type d | sort) | sort -r)
	if [ -n "$left" ]; then
		gs_log "removing cgroups test_zswap left behind: $(echo "$left" | tr '\n' ' ')"
		echo "$left" | xargs rmdir || gs_fail "could not remove the cgroups test_zswap left behind"
	fi
	sed 's/^/    /' "$out"
	awk '/^(not )?ok [0-9]+ / {
		name = ($1 == "not") ? $4 : $3
		res = ($1 == "not") ? "fail" : (/# SKIP/ ? "skip" : "ok")
		print name, res
	}' "$out" >"$SELFTEST_RESULTS.$1"
	grep -q '^1\.\.[0-9]' "$out" || gs_fail "test_zswap with $1 did not start (exit $rc)"
	if [ "$rc" -eq 137 ] && [ -s "$SELFTEST_RESULTS.plain" ]; then
		next=$(awk 'NR == FNR { seen[$1] = 1; next } !($1 in seen) { print $1; exit }' \
			"$SELFTEST_RESULTS.$1" "$SELFTEST_RESULTS.plain")
		[ -z "$next" ] || echo "$next killed" >>"$SELFTEST_RESULTS.$1"
	fi
	gs_log "test_zswap with $1: exit $rc; $(awk '{ n[$2]++ } END { for (r in n) printf "%s %d, ", r, n[r] }' \
		"$SELFTEST_RESULTS.$1")$(wc -l <"$SELFTEST_RESULTS.$1") reported"
}

# selftest_reference: the results on a plain swap partition, zswap on (once per boot).
selftest_reference() {
	[ -s "$SELFTEST_RESULTS.plain" ] && return 0
	[ -b "$SELFTEST_DISK" ] || gs_fail "no $SELFTEST_DISK for the plain swap reference run"
	mkswap "$SELFTEST_DISK" >/dev/null
	swapon "$SELFTEST_DISK" || gs_fail "swapon $SELFTEST_DISK failed"
	selftest_run plain
	swapoff "$SELFTEST_DISK" || gs_fail "swapoff $SELFTEST_DISK failed"
	grep -q '^# Totals:' "$SELFTEST_RESULTS.plain.tap" || gs_fail "test_zswap on a plain swap partition did not finish"
}

# selftest_regressions LABEL EXCUSED...: print the comparison with the plain partition; the count of
# tests that passed there and not with LABEL (EXCUSED ones, whose reason the calling test's header gives,
# and tests never reached because test_zswap was killed in an EXCUSED one, do not count) is the exit
# status.
selftest_regressions() {
	local label=$1 name res mine bad=0 killer=
	shift
	killer=$(awk '$2 == "killed" { print $1 }' "$SELFTEST_RESULTS.$label")
	printf '#   %-36s %-6s %s\n' test plain "$label"
	while read -r name res; do
		mine=$(awk -v n="$name" '$1 == n { print $2 }' "$SELFTEST_RESULTS.$label")
		printf '#   %-36s %-6s %-6s' "$name" "$res" "${mine:-none}"
		if [ "$res" = ok ] && [ "$mine" != ok ]; then
			if [[ " $* " == *" $name "* ]]; then
				printf '  excused: see the header of %s' "${GS_TEST:-the test}"
			elif [ -z "$mine" ] && [ -n "$killer" ] && [[ " $* " == *" $killer "* ]]; then
				printf '  not reached: test_zswap was killed in %s' "$killer"
			else
				printf '  <-- REGRESSION'
				bad=$((bad + 1))
			fi
		fi
		printf '\n'
	done <"$SELFTEST_RESULTS.plain"
	return "$bad"
}

# selftest_check LABEL EXCUSED...: run test_zswap as LABEL and fail the test if a test that passed on the
# plain partition does not pass (see selftest_regressions). Some tests are timing-sensitive (they wait 5 s
# for zswap writeback, which KASAN under TCG can exceed): on a regression test_zswap runs once more and a
# test counts as passed if it passed in either run, so a test fails only if it fails twice; a pass that
# needed the retry is a gs_note (on the result line and in tests/run.sh's summary).
selftest_check() {
	local label=$1
	selftest_run "$label"
	selftest_regressions "$@" && return 0
	gs_log "regressions in the first run: running test_zswap with $label once more"
	mv "$SELFTEST_RESULTS.$label" "$SELFTEST_RESULTS.$label.first"
	selftest_run "$label"
	awk 'NR == FNR { if ($2 == "ok") ok[$1] = 1; next } { print $1, ($1 in ok) ? "ok" : $2 }' \
		"$SELFTEST_RESULTS.$label.first" "$SELFTEST_RESULTS.$label" >"$SELFTEST_RESULTS.$label.best"
	mv "$SELFTEST_RESULTS.$label.best" "$SELFTEST_RESULTS.$label"
	gs_log "best of two runs:"
	selftest_regressions "$@" || gs_fail "test(s) pass on a plain swap partition but not with $label, twice"
	# A pass that needed the retry is reported as such on the test's result line and in the summary.
	gs_note "with $label passed only on the retry: $(awk 'NR == FNR { if ($2 == "ok") ok[$1] = 1; next }
		$2 == "ok" && !($1 in ok) { print $1 }' "$SELFTEST_RESULTS.$label.first" "$SELFTEST_RESULTS.$label" |
		tr '\n' ' ')"
}
