#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the guest test programs: scripts/build-progs.sh
#
# The programs of tests/prog are built on the host (static, so they run on any guest libc) into
# $GS_CACHE/build/progs/bin with `make -C tests/prog O=<that dir> KSELFTESTS=<kernel tree>/tools/testing/
# selftests`, which also builds the kernel's cgroup selftest test_zswap from the 7.3 tree. run-qemu.sh puts
# them in the guest's /gs/bin, which is on the job's PATH. Rebuilt only when a file in tests/prog/, this
# script or the kernel tree changes.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

case ${1:-} in
-h | --help)
	sed -n '3,8p' "$0" | sed 's/^# \{0,1\}//'
	exit 0
	;;
esac

out=$GS_BUILD/progs
mapfile -t srcs < <(cd "$GS_TOP" && find tests/prog -maxdepth 1 -type f 2>/dev/null | LC_ALL=C sort)
ksrc=$(gs_kernel_src)
selftests=$ksrc/tools/testing/selftests
key=$(gs_hash "${srcs[@]/#/$GS_TOP/}" "$GS_TOP/scripts/build-progs.sh" "$selftests/cgroup/test_zswap.c" \
	"$selftests/cgroup/lib/cgroup_util.c")
if [ "$(cat "$out/.stamp" 2>/dev/null)" = "$key" ]; then
	gs_uptodate "test programs: up to date ($(find "$out/bin" -type f | wc -l) in $out/bin)"
	exit 0
fi
mkdir -p "$out"
exec 9>"$out/.lock"
flock 9
t_all=$(gs_now)
rm -rf "${out:?}/bin" "$out/.stamp"
mkdir -p "$out/bin"
run_step "test programs: build tests/prog and test_zswap" "$GS_LOGS/progs.log" \
	make -C "$GS_TOP/tests/prog" O="$out/bin" KSELFTESTS="$selftests"
printf '%s\n' "$key" >"$out/.stamp"
gs_msg "test programs: built in $(gs_elapsed "$t_all") in $out/bin"
