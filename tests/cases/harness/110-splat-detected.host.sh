# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# A kernel WARNING makes run-qemu.sh fail (exit 125) and name the WARNING line, although the command
# succeeds. The WARNING comes from LKDTM (CONFIG_LKDTM=y).
out=$(mktemp)
gs_run_qemu "$out" --mem 256 --timeout 300 -- \
	sh -c 'echo WARNING > /sys/kernel/debug/provoke-crash/DIRECT; echo provoked'
[ "$GS_RC" -eq 125 ] || gs_fail "run-qemu.sh exited $GS_RC, wanted 125 (kernel splat)"
grep -q 'KERNEL SPLAT' "$out" || gs_fail "run-qemu.sh did not report the splat"
grep -Eq '\] WARNING: .*lkdtm' "$out" || gs_fail "run-qemu.sh did not name the LKDTM WARNING line"
rm -f "$out"
