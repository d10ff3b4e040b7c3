# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# An open file descriptor to /dev/ghostswap pins the module: rmmod fails with "in use", before, during and
# after a swapon/swapoff through other descriptors, and the descriptor still reads; once it is closed,
# rmmod works and the reloaded module gives a working device.
. tests/lib/ghost.sh
trap ghost_cleanup EXIT
gs_module_load
ghost_zswap_setup
exec 3<"$GS_DEV"
refcnt=$(cat /sys/module/ghostswap/refcnt)
gs_log "module refcnt with a descriptor open: $refcnt"
[ "$refcnt" -ge 1 ] || gs_fail "an open descriptor does not hold the module"
for when in "with the device open" "while swapped on" "after swapoff"; do
	case $when in
	"while swapped on") swapon "$GS_DEV" || gs_fail "swapon with a descriptor open failed" ;;
	"after swapoff") swapoff "$GS_DEV" || gs_fail "swapoff with a descriptor open failed" ;;
	esac
	if err=$(rmmod ghostswap 2>&1); then gs_fail "rmmod succeeded $when"; fi
	gs_log "rmmod $when: $err"
	grep -q 'in use' <<<"$err" || gs_fail "rmmod $when failed without saying the module is in use: $err"
done
[ "$(head -c 4096 <&3 | tail -c 10)" = SWAPSPACE2 ] || gs_fail "the descriptor no longer reads the header"
exec 3<&-
rmmod ghostswap || gs_fail "rmmod after closing the descriptor failed"
[ ! -e "$GS_DEV" ] || gs_fail "$GS_DEV is still there after rmmod"
gs_module_load
swapon "$GS_DEV" || gs_fail "swapon after a reload failed"
gs-memtest --size 32M --mix 1:2:1 --pageout || gs_fail "the reloaded device does not work"
