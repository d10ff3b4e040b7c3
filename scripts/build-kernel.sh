#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the ghostswap guest kernel: scripts/build-kernel.sh release|debug
#
# Copies the pristine linux-source-7.3 tree to $GS_CACHE/build/<variant>/src, applies hook-patch/series,
# configures tinyconfig + kvm_guest.config + kernel/config/<fragments> and builds out of tree in
# $GS_CACHE/build/<variant>/obj (bzImage, and a KDIR for out-of-tree modules).
#
# Cached: nothing is done while the key (kernel version, series and its patches, the variant's fragments,
# this script) matches the stamp. When only the patch set changed, only the source files whose patched
# content changed are rewritten, and the object dir is reused: make rebuilds what the change touches.
#
# Environment: GHOSTSWAP_CACHE (cache root), GHOSTSWAP_SERIES (series file to use instead of
# hook-patch/series; /dev/null for none), GHOSTSWAP_JOBS (make -j, default nproc).
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

case ${1:-} in
-h | --help)
	sed -n '3,15p' "$0" | sed 's/^# \{0,1\}//'
	exit 0
	;;
esac
[ $# -eq 1 ] || gs_die "usage: scripts/build-kernel.sh release|debug"
variant=$1
gs_check_variant "$variant"

pristine=$(gs_kernel_src)
srcver=$(cat "$pristine/.unpacked")
base=$GS_BUILD/$variant
src=$base/src
obj=$base/obj
mkdir -p "$base"

mapfile -t frags < <(gs_kernel_fragments "$variant")
mapfile -t patches < <(gs_series_patches)
patch_files=()
for p in "${patches[@]}"; do
	patch_files+=("${p% *}")
done
for f in "${patch_files[@]}"; do
	[ -f "$f" ] || gs_die "kernel $variant: patch '$f' listed in $(gs_series_file) does not exist"
done

# What the patched source depends on, and what the whole build depends on.
# (Paths inside the repo are hashed relative to it: a clone elsewhere shares the cache.)
srckey=$(gs_hash "kernel source $srcver" "${patches[@]#"$GS_TOP"/}" "${patch_files[@]}")
key=$(gs_hash "$srckey" "${frags[@]}" "$GS_TOP/scripts/build-kernel.sh")

if [ "$(cat "$base/stamp" 2>/dev/null)" = "$key" ] && [ -f "$obj/arch/x86/boot/bzImage" ]; then
	gs_uptodate "kernel $variant: up to date ($obj/arch/x86/boot/bzImage)"
	exit 0
fi

# One build of a variant at a time.
exec 9>"$base/.lock"
flock 9

t_all=$(gs_now)
rm -f "$base/stamp" # no stamp while (re)building: run-qemu.sh refuses to boot a half-built kernel
gs_need_pkgs "${GS_HOST_PKGS[@]}"
gs_msg "kernel $variant: building ($srcver, ${#patches[@]} hook patch(es))"
log=$GS_LOGS/kernel-$variant

# --- source: pristine copy + patches (skipped when only the config changed)
# The series is applied to a staging copy of the pristine tree, and only files whose content differs
# from the source copy are brought over (rsync --checksum without --times: they get a new mtime, the
# others keep theirs). So a change of the series rebuilds what it changes, not everything that includes
# a header some patch touches (memcontrol.h is included almost everywhere).
if [ "$(cat "$base/src.stamp" 2>/dev/null)" != "$srckey" ] || [ ! -f "$src/Makefile" ]; then
	rm -f "$base/src.stamp"
	stage=$base/src.staging
	rm -rf "$stage"
	run_step "kernel $variant: copy the pristine source to patch it" "$log-stage.log" cp -a "$pristine" "$stage"
	: >"$log-patch.log"
	for p in "${patches[@]}"; do
		pf=${p% *}
		strip=${p##* }
		gs_msg "kernel $variant: applying $(basename "$pf")"
		if ! (cd "$stage" && patch "$strip" --forward --batch --no-backup-if-mismatch -i "$pf") \
			>>"$log-patch.log" 2>&1; then
			tail -n 20 "$log-patch.log" | sed 's/^/    /' >&2
			gs_die "kernel $variant: patch $pf does not apply (series $(gs_series_file); log: $log-patch.log)"
		fi
	done
	mkdir -p "$src"
	run_step "kernel $variant: update the source copy where its content changed" "$log-rsync.log" \
		rsync -rlpgoD --delete --checksum --out-format='%i %n' "$stage/" "$src/"
	rm -rf "$stage"
	printf '%s\n' "$srckey" >"$base/src.stamp"
fi
# What run-qemu.sh tells the guest about this kernel (tests check the booted kernel is this build).
for p in "${patch_files[@]}"; do basename "$p"; done >"$base/applied-patches"

# --- config
export CCACHE_DIR=$GS_CACHE/ccache
export KBUILD_BUILD_USER=ghostswap KBUILD_BUILD_HOST=ghostswap
mkdir -p "$obj" "$CCACHE_DIR"
ccache -M 8G >/dev/null
mk=(make -C "$src" O="$obj" ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc" -j"${GHOSTSWAP_JOBS:-$(nproc)}")

configure() {
	"${mk[@]}" tinyconfig
	"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" \
		"$src/kernel/configs/kvm_guest.config" "${frags[@]}"
	"${mk[@]}" olddefconfig
}
run_step "kernel $variant: configure (tinyconfig + kvm_guest + ${frags[*]##*/})" "$log-config.log" configure

# merge_config.sh drops options whose dependencies are unmet without failing: check every request.
check_config() {
	awk '
		FNR == 1 { file = FILENAME }
		/^CONFIG_[A-Za-z0-9_]+=/ { i = index($0, "="); want[substr($0, 1, i - 1)] = substr($0, i + 1); next }
		/^# CONFIG_[A-Za-z0-9_]+ is not set/ { want[$2] = "n" }
		END {
			while ((getline line < cfg) > 0) {
				if (line ~ /^CONFIG_/) { i = index(line, "="); have[substr(line, 1, i - 1)] = substr(line, i + 1) }
			}
			bad = 0
			for (k in want) {
				h = (k in have) ? have[k] : "n"
				if (h != want[k]) { printf "    %s: wanted %s, got %s\n", k, want[k], h; bad = 1 }
			}
			exit bad
		}' cfg="$obj/.config" "${frags[@]}"
}
if ! check_config >"$log-config-check.log" 2>&1; then
	cat "$log-config-check.log" >&2
	gs_die "kernel $variant: config check failed: the options above did not end up in $obj/.config (unmet dependencies?) (log: $log-config-check.log)"
fi
gs_msg "kernel $variant: config check passed (every option of ${frags[*]##*/} is in .config)"

# --- build
run_step "kernel $variant: make (bzImage, modules, modules_prepare)" "$log-build.log" "${mk[@]}" all
[ -f "$obj/arch/x86/boot/bzImage" ] || gs_die "kernel $variant: no bzImage after make (log: $log-build.log)"
[ -f "$obj/Module.symvers" ] || gs_die "kernel $variant: no Module.symvers after make (log: $log-build.log)"
sed -n 's/^#define UTS_VERSION "\(.*\)"$/\1/p' "$obj/include/generated/utsversion.h" >"$base/uts-version"
printf '%s\n' "$key" >"$base/stamp"
gs_msg "kernel $variant: built in $(gs_elapsed "$t_all"): $obj/arch/x86/boot/bzImage ($(cat "$obj/include/config/kernel.release"))"
