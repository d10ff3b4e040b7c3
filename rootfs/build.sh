#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the guest root file system image: rootfs/build.sh
#
# debootstrap --variant=minbase bookworm (debootstrap's default mirror) with the packages of rootfs/packages,
# plus /sbin/gs-init (rootfs/gs-init), packed with mkfs.ext4 -d (no loop mounts) into a 1 GiB sparse image:
#   $GS_CACHE/rootfs/base.img
# The image is never written by a run: run-qemu.sh boots a qcow2 overlay on top of it.
#
# Cached in two levels: debootstrap reruns only when rootfs/packages or this script change; the image is
# repacked when rootfs/gs-init changes too. Otherwise prints "rootfs: up to date" and exits.
set -euo pipefail
# shellcheck source=../scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

case ${1:-} in
-h | --help)
	sed -n '3,11p' "$0" | sed 's/^# \{0,1\}//'
	exit 0
	;;
esac

dir=$GS_CACHE/rootfs
img=$dir/base.img
tree=$dir/tree
mkdir -p "$dir"
tree_key=$(gs_hash "$GS_TOP/rootfs/packages" "$GS_TOP/rootfs/build.sh" bookworm minbase)
img_key=$(gs_hash "$tree_key" "$GS_TOP/rootfs/gs-init")

if [ "$(cat "$dir/img.stamp" 2>/dev/null)" = "$img_key" ] && [ -f "$img" ]; then
	gs_uptodate "rootfs: up to date ($img)"
	exit 0
fi

exec 9>"$dir/.lock"
flock 9
t_all=$(gs_now)
gs_need_pkgs "${GS_HOST_PKGS[@]}"
[ "$(id -u)" -eq 0 ] || gs_die "rootfs: debootstrap and mkfs.ext4 -d with root-owned files need root"

if [ "$(cat "$dir/tree.stamp" 2>/dev/null)" != "$tree_key" ] || [ ! -x "$tree/bin/bash" ]; then
	rm -f "$dir/tree.stamp"
	pkgs=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$GS_TOP/rootfs/packages" | tr -s ' \n\t' ',' | sed 's/,$//')
	rm -rf "$tree"
	run_step "rootfs: debootstrap minbase bookworm (+ $pkgs)" "$GS_LOGS/rootfs-debootstrap.log" \
		debootstrap --variant=minbase --include="$pkgs" bookworm "$tree"
	configure_tree() {
		# Keep the image small: no package caches or lists, no docs.
		rm -rf "$tree"/var/cache/apt/archives/*.deb "$tree"/var/lib/apt/lists/* \
			"$tree"/usr/share/doc/* "$tree"/usr/share/man/* "$tree"/usr/share/locale/*
		echo ghostswap >"$tree/etc/hostname"
		printf '127.0.0.1 localhost\n127.0.1.1 ghostswap\n' >"$tree/etc/hosts"
		printf '/dev/vda / ext4 rw 0 1\n' >"$tree/etc/fstab"
		mkdir -p "$tree/gs"
		# Device nodes come from devtmpfs at boot.
		find "$tree/dev" -mindepth 1 -delete
	}
	run_step "rootfs: configure tree" "$GS_LOGS/rootfs-configure.log" configure_tree
	printf '%s\n' "$tree_key" >"$dir/tree.stamp"
fi

install -m 0755 "$GS_TOP/rootfs/gs-init" "$tree/sbin/gs-init"
rm -f "$img.new"
truncate -s 1G "$img.new"
run_step "rootfs: mkfs.ext4 -d (1 GiB sparse)" "$GS_LOGS/rootfs-mkfs.log" \
	mkfs.ext4 -q -F -L gs-root -d "$tree" "$img.new"
mv -f "$img.new" "$img"
printf '%s\n' "$img_key" >"$dir/img.stamp"
gs_msg "rootfs: built in $(gs_elapsed "$t_all"): $img ($(du -sh --apparent-size "$tree" | cut -f1) of files)"
