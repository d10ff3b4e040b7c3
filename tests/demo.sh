#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The ghostswap demo, run in the guest by ./run-qemu.sh when no command is given (cwd /gs):
# load ghostswap.ko, swap on /dev/ghostswap, enable zswap, push the guest well past its RAM with stress-ng
# (--verify), show that pages really went to swap, then swapoff, rmmod and print a summary.
set -euo pipefail
# shellcheck source=lib/guest.sh
. tests/lib/guest.sh

step() { printf '\n=== %s\n' "$*"; }
die() {
	printf '\nDEMO FAILED: %s\n' "$*"
	exit 1
}
counters() { printf '%s %s %s %s' "$(gs_vmstat pswpout)" "$(gs_vmstat pswpin)" "$(gs_vmstat zswpout)" "$(gs_vmstat zswpin)"; }

step "kernel $(uname -r), $(nproc) CPU(s), $(awk '/MemTotal/ { print int($2 / 1024) }' /proc/meminfo) MiB"

step "insmod $GS_MODULE"
[ -f "$GS_MODULE" ] ||
	die "$GS_MODULE was not built (its build failed: see make module)"
insmod "$GS_MODULE" || die "insmod $GS_MODULE failed (see the kernel messages above)"
for _ in $(seq 50); do
	[ -c "$GS_DEV" ] && break
	sleep 0.1
done
[ -c "$GS_DEV" ] || die "the module loaded but $GS_DEV (a character device) did not appear"
ls -l "$GS_DEV"

step "swapon $GS_DEV (no mkswap: the device reads as a swap header)"
swapon "$GS_DEV" || die "swapon $GS_DEV failed"
cat /proc/swaps
swapon --show
free -m

step "enable zswap (lz4, pool up to 60% of RAM)"
gs_zswap_enable lz4 || die "cannot enable zswap"
echo 60 >/sys/module/zswap/parameters/max_pool_percent
grep -H . /sys/module/zswap/parameters/* || true

mem_kb=$(awk '/MemTotal/ { print $2 }' /proc/meminfo)
swap_kb=$(awk -v d="$GS_DEV" '$1 == d { print $3 }' /proc/swaps)
[ -n "$swap_kb" ] || die "$GS_DEV is not in /proc/swaps"
extra_kb=$((swap_kb / 2 < mem_kb / 3 ? swap_kb / 2 : mem_kb / 3))
total_kb=$((mem_kb + extra_kb))
secs=${GS_DEMO_SECONDS:-60}
read -r out0 in0 zout0 zin0 <<<"$(counters)"

# stress-ng shares --vm-bytes among the workers.
step "stress-ng: 2 vm workers, $((total_kb / 1024)) MiB in all (RAM $((mem_kb / 1024)) MiB, swap $((swap_kb / 1024)) MiB), --verify, ${secs}s"
rc=0
timeout $((secs * 3 + 120)) stress-ng --vm 2 --vm-bytes "${total_kb}k" --vm-keep --vm-method "${GS_DEMO_VM_METHOD:-write64}" --verify \
	--timeout "${secs}s" --metrics-brief || rc=$?
read -r out1 in1 zout1 zin1 <<<"$(counters)"
free -m
cat /proc/swaps
[ -d /sys/kernel/debug/zswap ] && grep -H . /sys/kernel/debug/zswap/* 2>/dev/null | head -n 20
[ -d /sys/class/misc/ghostswap/stats ] && grep -H . /sys/class/misc/ghostswap/stats/* 2>/dev/null | head -n 20

swapped=$((out1 - out0 + zout1 - zout0))
step "swapoff $GS_DEV"
swapoff "$GS_DEV" || die "swapoff $GS_DEV failed"
step "rmmod ghostswap"
rmmod ghostswap || die "rmmod ghostswap failed"

step "summary"
printf '  pswpout +%d  pswpin +%d  zswpout +%d  zswpin +%d (pages)\n' \
	$((out1 - out0)) $((in1 - in0)) $((zout1 - zout0)) $((zin1 - zin0))
printf '  stress-ng --verify exit status: %d\n' "$rc"
[ "$rc" -eq 0 ] || die "stress-ng failed (exit $rc)"
[ "$swapped" -gt 0 ] || die "nothing was swapped out (pswpout and zswpout did not move)"
printf '\nDEMO PASSED: %d pages swapped out through %s, data verified, swapoff and rmmod clean\n' \
	"$swapped" "$GS_DEV"
