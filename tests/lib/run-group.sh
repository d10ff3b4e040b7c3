#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest side of tests/run.sh: run the tests of one group in this boot and report them on the console.
#   bash tests/lib/run-group.sh GROUP TIMEOUT TEST...     (in /gs; TEST = file name in tests/cases/GROUP/)
# Prints a TAP-like plan and one "GS-TAP: ok N - GROUP/TEST" / "GS-TAP: not ok N - GROUP/TEST" line per
# test (with "# SKIP reason" / the reason of a failure; a passing test's gs_note remarks after its time); a failed test's log tail follows as "GS-TAP: # ..."
# lines. Each test runs in its own bash with tests/lib/guest.sh sourced, stdin /dev/null, TIMEOUT seconds
# at most; its log is /gs/logs/GROUP/TEST.log; after a failed test, gs_reset (tests/lib/guest.sh) undoes
# what it may have left behind. On a kernel with kmemleak on (gs_kmemleak_on), one more result closes
# the group: "GROUP/kmemleak-scan", a scan for leaks after all its tests. Exits 0 iff no test failed.
set -uo pipefail
group=$1 timeout=$2
shift 2
logs=/gs/logs/$group
mkdir -p "$logs"
: >"$logs/results.tap"
# shellcheck source=tests/lib/guest.sh
. /gs/tests/lib/guest.sh # for gs_kmemleak_on
kmemleak=()
gs_kmemleak_on && kmemleak=(kmemleak-scan)
printf 'GS-TAP: 1..%d\n' $(($# + ${#kmemleak[@]}))
n=0 failed=0
for t in "$@" "${kmemleak[@]}"; do
	n=$((n + 1))
	name=$group/${t%.sh}
	log=$logs/${t%.sh}.log
	printf 'ghostswap: test %s start\n' "$name" >/dev/kmsg
	start=$(date +%s)
	rc=0
	if [ "$t" = kmemleak-scan ]; then
		code='set -euo pipefail; . /gs/tests/lib/guest.sh; gs_kmemleak_check'
	else
		# shellcheck disable=SC2016  # $1 is expanded by the inner bash
		code='set -euo pipefail; . /gs/tests/lib/guest.sh; . "$1"'
	fi
	GS_TEST=$name timeout -k 10 "$timeout" bash -c "$code" _ "/gs/tests/cases/$group/$t" \
		</dev/null >"$log" 2>&1 || rc=$?
	secs=$(($(date +%s) - start))
	printf 'ghostswap: test %s end (exit %d)\n' "$name" "$rc" >/dev/kmsg
	# The result line also goes to results.tap, which run-qemu.sh copies out of the guest: unlike the
	# console, it cannot have kernel messages in the middle of a line.
	case $rc in
	0)
		note=$(sed -n 's/^NOTE: //p' "$log" | paste -sd ';' -)
		result=$(printf 'GS-TAP: ok %d - %s (%ds%s)' "$n" "$name" "$secs" "${note:+; note: $note}")
		;;
	77) result=$(printf 'GS-TAP: ok %d - %s # SKIP %s' "$n" "$name" "$(sed -n 's/^SKIP: //p' "$log" | tail -n 1)") ;;
	*)
		failed=$((failed + 1))
		why="exit $rc"
		[ "$rc" -eq 124 ] || [ "$rc" -eq 137 ] && why="timeout after ${timeout}s"
		result=$(printf 'GS-TAP: not ok %d - %s (%s, %ds)' "$n" "$name" "$why" "$secs")
		;;
	esac
	printf '%s\n' "$result" | tee -a "$logs/results.tap"
	sync "$logs/results.tap"
	[ "$rc" -eq 0 ] || [ "$rc" -eq 77 ] || {
		tail -n 30 "$log" | sed 's/^/GS-TAP: # /'
		printf '# gs_reset after the failure\n' >>"$log"
		timeout -k 10 "$timeout" bash -c '. /gs/tests/lib/guest.sh; gs_reset' >>"$log" 2>&1 || true
	}
done
exit $((failed > 0))
