#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the guest test programs: scripts/build-progs.sh
#
# The programs of tests/prog are built on the host (static, so they run on any guest libc) into
# $GS_CACHE/build/progs/bin: with tests/prog/Makefile as `make -C tests/prog O=<that dir>`, else each
# tests/prog/NAME.c as one program NAME. run-qemu.sh puts them in the guest's /gs/bin, which is on the job's
# PATH. Rebuilt only when a file in tests/prog/ or this script changes. Nothing there: nothing to do.
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
mapfile -t progs < <(printf '%s\n' "${srcs[@]}" | grep '\.c$' || true)
key=$(gs_hash "${srcs[@]/#/$GS_TOP/}" "$GS_TOP/scripts/build-progs.sh")
if [ "$(cat "$out/.stamp" 2>/dev/null)" = "$key" ]; then
	gs_uptodate "test programs: up to date (${#progs[@]} in $out/bin)"
	exit 0
fi
mkdir -p "$out"
exec 9>"$out/.lock"
flock 9
t_all=$(gs_now)
rm -rf "${out:?}/bin" "$out/.stamp"
mkdir -p "$out/bin"
build() {
	local c
	if [ -f "$GS_TOP/tests/prog/Makefile" ]; then
		make -C "$GS_TOP/tests/prog" O="$out/bin"
		return
	fi
	for c in "${progs[@]}"; do
		echo "gcc $c"
		gcc -O2 -g -Wall -Wextra -static -pthread -o "$out/bin/$(basename "$c" .c)" "$GS_TOP/$c"
	done
}
if [ "${#srcs[@]}" -gt 0 ]; then
	run_step "test programs: build tests/prog" "$GS_LOGS/progs.log" build
fi
printf '%s\n' "$key" >"$out/.stamp"
[ "${#srcs[@]}" -eq 0 ] || gs_msg "test programs: built in $(gs_elapsed "$t_all") in $out/bin"
