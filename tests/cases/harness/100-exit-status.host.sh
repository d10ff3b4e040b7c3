# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2016  # expanded in the guest
# run-qemu.sh exits with the guest command's exit status.
out=$(mktemp)
gs_run_qemu "$out" --mem 256 --timeout 300 -- sh -c 'echo "hello from $(uname -r)"; exit 3'
[ "$GS_RC" -eq 3 ] || gs_fail "run-qemu.sh exited $GS_RC, wanted the command's 3"
grep -q 'console log: .*/console.log' "$out" || gs_fail "run-qemu.sh did not print the console log path"
log=$(sed -n 's/.*console log: \(.*console\.log\).*/\1/p' "$out" | tail -n 1)
grep -q 'hello from 7.3' "$log" || gs_fail "the command's output is not in $log"
rm -f "$out"
