#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build ghostswap.ko against a kernel variant: scripts/build-module.sh release|debug
#
# The repo stays clean: Kbuild and module/ are copied (rsync, only changed files) to
# $GS_CACHE/build/<variant>/ext and built there with make -C <kernel obj> M=<that dir>.
# Output: $GS_CACHE/build/<variant>/ext/ghostswap.ko. Builds the kernel variant first if needed.
# Rebuilt only when the module sources, the top-level Kbuild, this script or the kernel change.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

case ${1:-} in
-h | --help)
	sed -n '3,9p' "$0" | sed 's/^# \{0,1\}//'
	exit 0
	;;
esac
[ $# -eq 1 ] || gs_die "usage: scripts/build-module.sh release|debug"
variant=$1
gs_check_variant "$variant"

GS_QUIET=1 "$GS_TOP/scripts/build-kernel.sh" "$variant"
base=$GS_BUILD/$variant
obj=$base/obj
ext=$base/ext

# Build products that must not be copied from (or deleted in) the copy.
excl=(--exclude='*.o' --exclude='*.ko' --exclude='*.mod' --exclude='*.mod.c' --exclude='.*.cmd'
	--exclude='modules.order' --exclude='Module.symvers' --exclude='*.a' --exclude='.*.d' --exclude='*.tmp')
mapfile -t srcs < <(cd "$GS_TOP" && find module -type f ! -name '*.o' ! -name '*.ko' ! -name '*.mod' \
	! -name '*.mod.c' ! -name '.*.cmd' ! -name modules.order ! -name Module.symvers ! -name '*.a' \
	! -name '.*.d' ! -name '*.tmp' | LC_ALL=C sort)
key=$(gs_hash "kernel $(cat "$base/stamp")" "$GS_TOP/Kbuild" "${srcs[@]/#/$GS_TOP/}" \
	"$GS_TOP/scripts/build-module.sh")

if [ "$(cat "$ext/.stamp" 2>/dev/null)" = "$key" ] && [ -f "$ext/ghostswap.ko" ]; then
	gs_uptodate "module $variant: up to date ($ext/ghostswap.ko)"
	exit 0
fi

exec 9>"$base/.module.lock"
flock 9
t_all=$(gs_now)
mkdir -p "$ext/module"
# No stale module may survive a failed build.
rm -f "$ext/.stamp" "$ext/ghostswap.ko"
rsync -a --checksum "$GS_TOP/Kbuild" "$ext/Kbuild"
rsync -a --checksum --delete "${excl[@]}" "$GS_TOP/module/" "$ext/module/"
export CCACHE_DIR=$GS_CACHE/ccache
run_step "module $variant: make -C <kernel $variant> M=$ext modules" "$GS_LOGS/module-$variant.log" \
	make -C "$obj" M="$ext" ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc" -j"$(nproc)" modules
[ -f "$ext/ghostswap.ko" ] ||
	gs_die "module $variant: make succeeded but made no ghostswap.ko (log: $GS_LOGS/module-$variant.log)"
printf '%s\n' "$key" >"$ext/.stamp"
gs_msg "module $variant: built in $(gs_elapsed "$t_all"): $ext/ghostswap.ko"
