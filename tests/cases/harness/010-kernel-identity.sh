# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The booted kernel is the 7.3 "-ghostswap" build made from the current hook-patch series.
release=$(uname -r)
gs_log "uname -a: $(uname -a)"
case $release in
7.3.*-ghostswap) ;;
*) gs_fail "kernel release is '$release', wanted 7.3.x-ghostswap" ;;
esac
grep -q "^Linux version $release " /proc/version || gs_fail "/proc/version does not name $release"
[ "$(uname -v)" = "$GS_KERNEL_UTS_VERSION" ] ||
	gs_fail "booted kernel '$(uname -v)' is not the last build '$GS_KERNEL_UTS_VERSION'"
# The series the kernel was built with is the series in the repo (copied to /gs/hook-patch/series).
want=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' /gs/hook-patch/series 2>/dev/null | awk '{ print $1 }' |
	xargs -r -n1 basename)
gs_log "hook patches applied: ${GS_KERNEL_PATCHES:-none}"
[ "$want" = "$GS_KERNEL_PATCHES" ] || gs_fail "built with patches '$GS_KERNEL_PATCHES', series lists '$want'"
# What every test relies on.
[ -d /sys/module/zswap/parameters ] || gs_fail "no zswap in this kernel"
grep -q zsmalloc /proc/filesystems /proc/slabinfo /proc/kallsyms 2>/dev/null || gs_log "note: zsmalloc not visible"
[ -r /proc/swaps ] || gs_fail "no /proc/swaps (CONFIG_SWAP)"
grep -q ' /sys/fs/cgroup cgroup2 ' /proc/mounts || gs_fail "cgroup2 not mounted at /sys/fs/cgroup"
grep -q ' /sys/kernel/debug debugfs ' /proc/mounts || gs_fail "debugfs not mounted"
[ -e /sys/kernel/debug/provoke-crash/DIRECT ] || gs_fail "no LKDTM (needed by the splat self-test)"
[ -e /sys/kernel/mm/transparent_hugepage/enabled ] || gs_fail "no THP"
# Under TCG (run-qemu.sh sets watchdog_thresh=60 there) the stall detectors wait longer, so that a slow
# host cannot produce a splat: RCU stalls after 300 s, hung tasks after 600 s.
if grep -qw 'watchdog_thresh=60' /proc/cmdline; then
	stall=$(cat /sys/module/rcupdate/parameters/rcu_cpu_stall_timeout)
	hung=$(cat /proc/sys/kernel/hung_task_timeout_secs)
	gs_log "TCG guest: rcu_cpu_stall_timeout $stall s, hung_task_timeout_secs $hung s"
	[ "$stall" -eq 300 ] || gs_fail "RCU stall timeout $stall s under TCG, wanted 300"
	[ "$hung" -eq 600 ] || gs_fail "hung-task timeout $hung s under TCG, wanted 600"
fi
