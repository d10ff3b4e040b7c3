# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# backing_dev= and erase_block= refuse what they cannot use, saying why: nothing at the path, a char
# device, the mounted root disk, a disk smaller than one segment, bad sizes. The backing device is held
# exclusively while attached, and cannot be changed while /dev/ghostswap is swapped on; a change to a
# device it cannot use keeps the attached one.
. tests/lib/backend.sh

# refused MESSAGE PARAM=VALUE...: insmod with these parameters must fail and log MESSAGE.
refused() {
	local msg=$1 err
	shift
	dmesg -C
	if err=$(insmod "$GS_MODULE" "$@" 2>&1); then
		rmmod ghostswap
		gs_fail "insmod $* succeeded"
	fi
	gs_log "insmod $*: $err; kernel: $(dmesg | grep ghostswap | tail -n 1)"
	dmesg | grep -q "ghostswap: .*$msg" || gs_fail "insmod $*: the kernel log does not say \"$msg\""
}

refused "no such device" backing_dev=/dev/nonexistent
refused "is not a block device" backing_dev=/dev/null
refused "is in use" backing_dev=/dev/vda # the root file system
refused "less than one segment" backing_dev=$GS_TINY_DISK
refused "is not a size" backing_dev=$GS_BACKING erase_block=lots
refused "give a multiple of" backing_dev=$GS_BACKING erase_block=1000
grep -q '^ghostswap ' /proc/modules && gs_fail "a failed insmod left the module loaded"

ghost_setup
[ "$(cat "$GS_PARAMS/backing_dev")" = "$GS_BACKING" ] || gs_fail "parameters/backing_dev does not show $GS_BACKING"
if err=$(mkswap "$GS_BACKING" 2>&1); then
	gs_fail "mkswap could open $GS_BACKING while the module holds it"
fi
gs_log "mkswap $GS_BACKING while attached: $err"
if echo "$GS_TINY_DISK" 2>/dev/null >"$GS_PARAMS/backing_dev"; then
	gs_fail "backing_dev changed while swapped on"
fi
dmesg | grep -q 'ghostswap: backing_dev: cannot change while' || gs_fail "no message for a change while swapped on"
if rmmod ghostswap 2>/dev/null; then
	gs_fail "rmmod succeeded while swapped on"
fi

swapoff "$GS_DEV" || gs_fail "swapoff failed"
# A device that cannot be used leaves the attached one in place; the attached one can be given again.
segments=$(ghost_stat backend_segments)
for bad in /dev/nonexistent "$GS_TINY_DISK"; do
	if echo "$bad" 2>/dev/null >"$GS_PARAMS/backing_dev"; then
		gs_fail "backing_dev accepted $bad"
	fi
	[ "$(cat "$GS_PARAMS/backing_dev")" = "$GS_BACKING" ] ||
		gs_fail "after refusing $bad, parameters/backing_dev shows '$(cat "$GS_PARAMS/backing_dev")'"
	[ "$(ghost_stat backend_segments)" -eq "$segments" ] ||
		gs_fail "refusing $bad detached $GS_BACKING (backend_segments $(ghost_stat backend_segments))"
done
echo "$GS_BACKING" >"$GS_PARAMS/backing_dev" || gs_fail "giving the attached $GS_BACKING again failed"
swapon "$GS_DEV" || gs_fail "swapon after the refused changes failed"
gs_zswap_disable
written0=$(ghost_stat backend_bytes_written)
gs-memtest --size 32M --mix 0:0:1 --pageout >/tmp/pageout.out 2>&1 ||
	gs_fail "gs-memtest --pageout failed after the refused changes: $(tail -n 2 /tmp/pageout.out)"
[ "$(ghost_stat backend_bytes_written)" -gt "$written0" ] || gs_fail "nothing reached $GS_BACKING after the refused changes"
swapoff "$GS_DEV" || gs_fail "swapoff failed"
echo none >"$GS_PARAMS/backing_dev" || gs_fail "detaching the backing device failed"
[ -z "$(cat "$GS_PARAMS/backing_dev")" ] || gs_fail "parameters/backing_dev not empty after detaching"
mkswap "$GS_BACKING" >/dev/null || gs_fail "$GS_BACKING is still held after detaching"
echo "$GS_BACKING" >"$GS_PARAMS/backing_dev" || gs_fail "attaching $GS_BACKING through sysfs failed"
swapon "$GS_DEV" || gs_fail "swapon with a backing device attached through sysfs failed"
