# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# With the module loaded but /dev/ghostswap removed, swapon fails with "No such file or directory" and
# nothing else changes; a node recreated with mknod (same major:minor) or under another name is the same
# device: swapon through it works, and a second swapon through the other name is refused as busy.
. tests/lib/ghost.sh
trap ghost_cleanup EXIT
gs_module_load
ghost_zswap_setup
devno=$(cat /sys/class/misc/ghostswap/dev)
alias=/dev/gs-alias
# Nodes made with mknod outlive rmmod (devtmpfs removes only its own): remove them before ghost_cleanup's
# rmmod; the next insmod makes /dev/ghostswap anew.
ghost_at_exit "rm -f $alias $GS_DEV"

rm "$GS_DEV"
if err=$(swapon "$GS_DEV" 2>&1); then gs_fail "swapon of a removed node succeeded"; fi
gs_log "swapon with the node removed: $err"
grep -q 'No such file or directory' <<<"$err" || gs_fail "swapon without a node failed without ENOENT: $err"
[ "$(ghost_stat swapped_on)" = 0 ] || gs_fail "stats/swapped_on is not 0 after a failed swapon"

mknod -m 600 "$GS_DEV" c "${devno%:*}" "${devno#*:}"
mknod -m 600 "$alias" c "${devno%:*}" "${devno#*:}"
swapon "$alias" || gs_fail "swapon through a node made with mknod ($alias, $devno) failed"
grep -q "^$alias " /proc/swaps || gs_fail "/proc/swaps does not show $alias"
if err=$(swapon "$GS_DEV" 2>&1); then gs_fail "a second swapon of the same device through $GS_DEV succeeded"; fi
gs_log "second swapon through another node: $err"
grep -q 'Device or resource busy' <<<"$err" || gs_fail "the second swapon failed without EBUSY: $err"
gs-memtest --size 32M --mix 1:2:1 --pageout || gs_fail "the device does not work through $alias"
[ "$(ghost_stat slots_used_peak)" -gt 0 ] || gs_fail "no slot was used through $alias"
# A node removed while the device is on changes nothing: swapoff by the open file, not the name.
rm "$alias"
[ "$(ghost_stat swapped_on)" = 1 ] || gs_fail "stats/swapped_on is not 1"
if err=$(swapoff "$alias" 2>&1); then gs_fail "swapoff of a removed path succeeded"; fi
gs_log "swapoff of the removed node: $err"
mknod -m 600 "$alias" c "${devno%:*}" "${devno#*:}"
swapoff "$alias" || gs_fail "swapoff through the recreated $alias failed"
[ "$(ghost_stat slots_mapped)" -eq 0 ] || gs_fail "$(ghost_stat slots_mapped) slots still mapped after swapoff"
