# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2016  # expanded in the guest
# The expect-call-traces windows (gs_expect_call_traces_begin/_end) hide "Call Trace:" lines only: a
# WARNING inside a window still fails a run. The windows nest: an inner end leaves the outer window open,
# the outer end closes it, and the group runner's next "test ... start" line closes what a failed test
# left open. First on a made-up console log (every case of the filter, no boot), then in a guest: a
# WARNING provoked (LKDTM) inside two nested windows makes run-qemu.sh exit 125 and name it.
. scripts/lib.sh
log=$(mktemp)
cat >"$log" <<'LOG'
[    1.000000] Call Trace:  (1: outside any window, counts)
[    2.000000] ghostswap: expect-call-traces begin (depth 1)
[    2.100000] ghostswap: expect-call-traces begin (depth 2)
[    2.200000] Call Trace:  (hidden: depth 2)
[    2.300000] ghostswap: expect-call-traces end (depth 2)
[    2.400000] Call Trace:  (hidden: the outer window is still open)
[    2.500000] WARNING: CPU: 0 PID: 1 at x.c:1 f+0x0/0x0  (2: a WARNING inside a window counts)
[    2.600000] ghostswap: expect-call-traces end (depth 1)
[    2.700000] Call Trace:  (3: all windows closed, counts)
[    3.000000] ghostswap: expect-call-traces begin (depth 1)
[    3.100000] ghostswap: test g/failed end (exit 1)
[    3.200000] ghostswap: test g/next start
[    3.300000] Call Trace:  (4: the next test closed the failed test's window, counts)
[    3.400000] ghostswap: expect-call-traces end (depth 1)
[    3.500000] ghostswap: expect-call-traces end (depth 1)
[    3.600000] Call Trace:  (5: an extra end does not open anything, counts)
LOG
got=$(gs_splat_lines "$log" | cut -f 2- | sed -n 's/.*(\([0-9]\+\): .*/\1/p' | tr '\n' ' ')
found=$(gs_splat_lines "$log" | wc -l)
rm -f "$log"
printf 'splat lines found in the made-up log: %s(%d lines)\n' "$got" "$found"
{ [ "$got" = "1 2 3 4 5 " ] && [ "$found" -eq 5 ]; } ||
	gs_fail "the filter found splat lines '$got' ($found lines), wanted exactly 1 2 3 4 5"

out=$(mktemp)
gs_run_qemu "$out" --mem 256 --timeout 300 -- sh -c '
	echo "ghostswap: expect-call-traces begin (depth 1)" >/dev/kmsg
	echo "ghostswap: expect-call-traces begin (depth 2)" >/dev/kmsg
	echo WARNING >/sys/kernel/debug/provoke-crash/DIRECT
	echo "ghostswap: expect-call-traces end (depth 2)" >/dev/kmsg
	echo "ghostswap: expect-call-traces end (depth 1)" >/dev/kmsg
	echo provoked'
[ "$GS_RC" -eq 125 ] || gs_fail "run-qemu.sh exited $GS_RC, wanted 125: a WARNING inside a window was not a splat"
grep -Eq '\] WARNING: .*lkdtm' "$out" || gs_fail "run-qemu.sh did not name the LKDTM WARNING line"
rm -f "$out"
