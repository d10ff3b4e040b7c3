# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Module parameters written at run time: size= is read-only; erase_block= refuses what is not a whole
# number of pages up to its limit and keeps its value; backing_dev= refuses what it cannot use (nothing
# there, not a block device, a path too long for it), saying why, and leaves no device attached. A good
# device attached afterwards through sysfs works.
. tests/lib/ghost.sh
trap ghost_cleanup EXIT
params=/sys/module/ghostswap/parameters
disk=/dev/vdb
gs_module_load size=128M
ghost_zswap_setup

if echo 1G 2>/dev/null >"$params/size"; then gs_fail "size= was writable at run time"; fi
[ "$(ghost_stat size_bytes)" -eq $((128 << 20)) ] || gs_fail "size changed to $(ghost_stat size_bytes)"

erase0=$(cat "$params/erase_block")
for v in 0 4095 1T -1 abc "" 12Q; do
	dmesg -C
	if echo "$v" 2>/dev/null >"$params/erase_block"; then gs_fail "erase_block='$v' was accepted"; fi
	gs_log "erase_block='$v': $(dmesg | grep 'ghostswap: .*erase_block=' | tail -n 1)"
	dmesg | grep -q 'ghostswap: .*erase_block=' || gs_fail "erase_block='$v' refused without a message"
	[ "$(cat "$params/erase_block")" = "$erase0" ] || gs_fail "a refused erase_block='$v' changed it"
done

long=/dev/$(printf 'x%.0s' $(seq 300))
for v in /dev/nonexistent /dev/null "$long" /dev/vda; do
	dmesg -C
	if echo "$v" 2>/dev/null >"$params/backing_dev"; then gs_fail "backing_dev='${v:0:40}' was accepted"; fi
	gs_log "backing_dev='${v:0:40}': $(dmesg | grep 'ghostswap: ' | tail -n 1)"
	dmesg | grep -q 'ghostswap: ' || gs_fail "backing_dev='${v:0:40}' refused without a message"
	[ -z "$(cat "$params/backing_dev")" ] || gs_fail "a refused backing_dev left $(cat "$params/backing_dev")"
done
echo none >"$params/backing_dev" || gs_fail "backing_dev=none with nothing attached failed"

echo 1M >"$params/erase_block" || gs_fail "erase_block=1M was refused"
echo "$disk" >"$params/backing_dev" || gs_fail "attaching $disk through sysfs failed"
swapon "$GS_DEV" || gs_fail "swapon with $disk attached failed"
gs_zswap_disable
gs-memtest --size 32M --mix 0:1:1 --pageout || gs_fail "the device does not work with $disk attached"
[ "$(ghost_stat backend_bytes_written)" -gt 0 ] || gs_fail "nothing was written to $disk"
