# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The verifier can fail: gs-memtest with one byte of one page flipped after the fill (--selftest-corrupt)
# exits 1 and names that page, and only that page, in its mismatch line. Every data test relies on
# gs-memtest's exit status; without this, a verifier that never reports a mismatch would pass them all.
page=37
rc=0
out=$(gs-memtest --size 1M --mix 1:2:1 --passes 2 --selftest-corrupt "$page" 2>&1) || rc=$?
printf '%s\n' "$out"
[ "$rc" -eq 1 ] || gs_fail "gs-memtest with page $page corrupted exited $rc, wanted 1 (mismatch)"
grep -q "^gs-memtest: mismatch .* page=$page " <<<"$out" || gs_fail "no mismatch line names page $page"
[ "$(grep -c '^gs-memtest: mismatch ' <<<"$out")" -eq 2 ] ||
	gs_fail "wanted one mismatch line per verify pass (2), for page $page alone"
grep -q '^gs-memtest: result=fail mismatches=2 ' <<<"$out" || gs_fail "the result line does not report the 2 mismatches"
# The same run without the corruption passes, so the failure above is the corruption's.
gs-memtest --size 1M --mix 1:2:1 --passes 2 >/dev/null || gs_fail "gs-memtest fails without a corruption"
