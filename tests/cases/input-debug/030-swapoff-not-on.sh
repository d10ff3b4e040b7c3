# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# swapoff of /dev/ghostswap when it is not swapped on fails with EINVAL (module loaded) or ENOENT (module
# not loaded, no node), twice in a row too, and a swapon afterwards works.
. tests/lib/ghost.sh
trap ghost_cleanup EXIT
gs_module_unload
if err=$(swapoff "$GS_DEV" 2>&1); then gs_fail "swapoff with the module not loaded succeeded"; fi
gs_log "swapoff, module not loaded: $err"
grep -q 'No such file or directory' <<<"$err" || gs_fail "swapoff without the module failed without ENOENT: $err"
gs_module_load
ghost_zswap_setup
for i in 1 2; do
	if err=$(swapoff "$GS_DEV" 2>&1); then gs_fail "swapoff $i of a device that is not on succeeded"; fi
	gs_log "swapoff $i, not swapped on: $err"
	grep -q 'Invalid argument' <<<"$err" || gs_fail "swapoff of a device that is not on failed without EINVAL: $err"
done
swapon "$GS_DEV" || gs_fail "swapon after the failed swapoffs failed"
gs-memtest --size 32M --mix 1:2:1 --pageout || gs_fail "the device does not work"
swapoff "$GS_DEV" || gs_fail "swapoff failed"
if swapoff "$GS_DEV" 2>/dev/null; then gs_fail "a second swapoff succeeded"; fi
[ "$(ghost_stat slots_mapped)" -eq 0 ] || gs_fail "slots still mapped after swapoff"
