#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Fetch Debian's linux-source-7.3 (trixie-backports) and unpack it into the cache.
#
# apt runs with a private configuration inside the cache (its own sources list and package lists), pointed at
# the Debian mirror that this machine's apt already uses, so the system's apt setup is never changed and no
# mirror is named here. Prints the path of the unpacked, pristine tree on stdout.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

aptdir=$GS_CACHE/apt
srcdir=$GS_CACHE/src
mkdir -p "$aptdir/lists/partial" "$aptdir/archives/partial" "$aptdir/sources.list.d" "$srcdir"

if tree=$(find "$srcdir" -mindepth 1 -maxdepth 1 -type d -name "linux-source-$GS_KVER_WANTED*" \
	-exec test -f '{}/.unpacked' ';' -print -quit) && [ -n "$tree" ]; then
	printf '%s\n' "$tree"
	exit 0
fi

# The main Debian archive this machine's apt is configured with (not the security archive).
# shellcheck disable=SC2016  # apt format fields, not shell expansions
mirror=$(apt-get indextargets --format '$(REPO_URI) $(LABEL)' 2>/dev/null |
	awk '$2 == "Debian" { print $1; exit }')
[ -n "$mirror" ] || gs_die "kernel source: no Debian archive found in this machine's apt sources"

cat >"$aptdir/sources.list" <<EOL
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror trixie-backports main
EOL
apt_private=(-o "Dir::Etc::SourceList=$aptdir/sources.list" -o "Dir::Etc::SourceParts=$aptdir/sources.list.d"
	-o "Dir::State::Lists=$aptdir/lists" -o "Dir::Cache::Archives=$aptdir/archives"
	-o "Dir::Cache=$aptdir" -o "APT::Sandbox::User=$(id -un)")

run_step "kernel source: apt-get update (trixie-backports)" "$GS_LOGS/apt-update.log" \
	apt-get "${apt_private[@]}" update

pkg=$(apt-cache "${apt_private[@]}" pkgnames linux-source- 2>/dev/null |
	grep -E "^linux-source-$GS_KVER_WANTED\$" || true)
[ -n "$pkg" ] || gs_die "kernel source: package linux-source-$GS_KVER_WANTED not found in trixie-backports at $mirror"
ver=$(apt-cache "${apt_private[@]}" policy "$pkg" | awk '/Candidate:/ { print $2 }')
case $ver in
$GS_KVER_WANTED.* | $GS_KVER_WANTED-*) ;;
*) gs_die "kernel source: $pkg has version '$ver', wanted $GS_KVER_WANTED.x" ;;
esac

# shellcheck disable=SC2016  # expanded by the inner bash
run_step "kernel source: download $pkg $ver" "$GS_LOGS/apt-download.log" \
	bash -c 'cd "$1" && shift && apt-get "$@" download '"$pkg" _ "$aptdir/archives" "${apt_private[@]}"

deb=$(find "$aptdir/archives" -maxdepth 1 -name "${pkg}_*.deb" -print -quit)
[ -n "$deb" ] || gs_die "kernel source: downloaded .deb not found in $aptdir/archives"

tmp=$srcdir/.unpack.$$
rm -rf "$tmp"
mkdir -p "$tmp"
run_step "kernel source: extract $(basename "$deb")" "$GS_LOGS/kernel-extract.log" \
	dpkg-deb -x "$deb" "$tmp"
tarball=$(find "$tmp/usr/src" -maxdepth 1 -name "$pkg.tar.*" -print -quit)
[ -n "$tarball" ] || gs_die "kernel source: no $pkg tarball inside $deb"
run_step "kernel source: unpack $(basename "$tarball")" "$GS_LOGS/kernel-unpack.log" \
	tar -C "$srcdir" -xf "$tarball"
rm -rf "$tmp"
tree=$srcdir/$pkg
[ -f "$tree/Makefile" ] || gs_die "kernel source: $tree has no Makefile after unpacking"
printf '%s %s\n' "$pkg" "$ver" >"$tree/.unpacked"
printf '%s\n' "$tree"
