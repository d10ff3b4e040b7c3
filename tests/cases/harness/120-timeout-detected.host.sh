# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# A guest that does not finish within --timeout is killed and run-qemu.sh exits 124.
out=$(mktemp)
start=$(date +%s)
gs_run_qemu "$out" --mem 256 --timeout 20 -- sleep 600
[ "$GS_RC" -eq 124 ] || gs_fail "run-qemu.sh exited $GS_RC, wanted 124 (timeout)"
[ $(($(date +%s) - start)) -lt 120 ] || gs_fail "run-qemu.sh took too long to kill QEMU"
grep -q TIMEOUT "$out" || gs_fail "run-qemu.sh did not report the timeout"
rm -f "$out"
