# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Helpers for HOST-side tests (tests/cases/<group>/NNN-name.host.sh), which tests/run.sh runs on the host
# with bash, `set -euo pipefail`, cwd = repo top, GS_TOP/GS_CACHE set and this file sourced. They test
# the pipeline itself, typically by calling run-qemu.sh. Exit 0 = pass, 77 = skip, else fail.

gs_fail() {
	printf 'FAIL: %s\n' "$*"
	exit 1
}
gs_skip() {
	printf 'SKIP: %s\n' "$*"
	exit 77
}

# gs_run_qemu OUT [run-qemu.sh ARGS...]: run run-qemu.sh --quiet, output (stdout+stderr) in file OUT;
# sets GS_RC to its exit status (never fails itself). The output is echoed to the test's log.
gs_run_qemu() {
	local out=$1
	shift
	GS_RC=0
	GHOSTSWAP_NO_BUILD=1 "$GS_TOP/run-qemu.sh" --quiet "$@" >"$out" 2>&1 || GS_RC=$?
	sed 's/^/    | /' "$out"
	printf 'run-qemu.sh exited %d\n' "$GS_RC"
}
