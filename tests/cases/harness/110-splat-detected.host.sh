# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# A kernel WARNING makes run-qemu.sh fail (exit 125) and name the WARNING line, although the command
# succeeds; the report that tests/run.sh prints for a splat (gs_splat_report) holds its whole call trace.
# The WARNING comes from LKDTM (CONFIG_LKDTM=y).
. scripts/lib.sh
out=$(mktemp)
gs_run_qemu "$out" --mem 256 --timeout 300 -- \
	sh -c 'echo WARNING > /sys/kernel/debug/provoke-crash/DIRECT; echo provoked'
[ "$GS_RC" -eq 125 ] || gs_fail "run-qemu.sh exited $GS_RC, wanted 125 (kernel splat)"
grep -q 'KERNEL SPLAT' "$out" || gs_fail "run-qemu.sh did not report the splat"
grep -Eq '\] WARNING: .*lkdtm' "$out" || gs_fail "run-qemu.sh did not name the LKDTM WARNING line"
console=$(sed -n 's/.*console log: \(.*\)$/\1/p' "$out" | tail -n 1)
[ -f "$console" ] || gs_fail "run-qemu.sh did not name its console log"
report=$(gs_splat_report "$console") || gs_fail "gs_splat_report found no splat in $console"
printf '%s\n' "$report" | sed 's/^/    > /'
grep -q 'Call Trace:' <<<"$report" || gs_fail "the splat report has no call trace"
grep -q 'lkdtm_do_action' <<<"$report" || gs_fail "the splat report stops before the caller (lkdtm_do_action)"
rm -f "$out"
