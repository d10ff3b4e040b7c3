# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# File operations on /dev/ghostswap: reads past the one-page header give EOF, seeks past it EINVAL, writes
# EPERM at any offset, ioctls ENOTTY, truncate fails; an unprivileged user can neither open it (even with
# mode 0666: CAP_SYS_ADMIN is checked at open) nor swapon it. None of it disturbs a swapped-on device.
. tests/lib/ghost.sh
ghost_setup
nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --bounding-set=-all)

[ "$(dd if="$GS_DEV" bs=1 skip=4086 count=10 status=none)" = SWAPSPACE2 ] ||
	gs_fail "a seek to byte 4086 and a read did not give the SWAPSPACE2 signature"
[ "$(wc -c <"$GS_DEV")" -eq 4096 ] || gs_fail "reading $GS_DEV to EOF did not give exactly one page"
[ "$(dd if="$GS_DEV" bs=4096 skip=1 count=1 status=none | wc -c)" -eq 0 ] ||
	gs_fail "a read at the end of the header returned data"
if err=$(dd if="$GS_DEV" bs=4096 skip=2 count=1 status=none 2>&1); then
	gs_fail "a seek past the end of the header succeeded"
fi
gs_log "seek past the header: $err"
grep -q 'Invalid argument' <<<"$err" || gs_fail "a seek past the header failed without EINVAL: $err"
for seek in 0 1 4095 1048576; do
	if err=$(dd if=/dev/zero of="$GS_DEV" bs=1 seek="$seek" count=1 conv=notrunc status=none 2>&1); then
		gs_fail "a write at offset $seek succeeded"
	fi
	grep -q 'Operation not permitted\|Invalid argument' <<<"$err" || gs_fail "a write at $seek: $err"
done
if err=$(blockdev --getsize64 "$GS_DEV" 2>&1); then gs_fail "the block device ioctl BLKGETSIZE64 succeeded"; fi
gs_log "BLKGETSIZE64: $err"
grep -q 'Inappropriate ioctl' <<<"$err" || gs_fail "an ioctl failed without ENOTTY: $err"
if err=$(truncate -s 0 "$GS_DEV" 2>&1); then gs_fail "truncate of $GS_DEV succeeded"; fi
gs_log "truncate: $err"

if err=$("${nobody[@]}" head -c 1 "$GS_DEV" 2>&1); then gs_fail "an unprivileged user read $GS_DEV"; fi
gs_log "unprivileged open, mode 0600: $err"
chmod 0666 "$GS_DEV"
ghost_at_exit "chmod 0600 $GS_DEV"
if err=$("${nobody[@]}" head -c 1 "$GS_DEV" 2>&1); then gs_fail "an unprivileged user opened $GS_DEV at mode 0666"; fi
gs_log "unprivileged open, mode 0666: $err"
grep -q 'Operation not permitted' <<<"$err" || gs_fail "an unprivileged open failed without EPERM: $err"
if err=$("${nobody[@]}" swapoff "$GS_DEV" 2>&1); then gs_fail "an unprivileged swapoff succeeded"; fi
gs_log "unprivileged swapoff: $err"
chmod 0600 "$GS_DEV"
"${nobody[@]}" cat "$GS_STATS/swapped_on" >/dev/null || gs_fail "an unprivileged user cannot read the statistics"
if "${nobody[@]}" bash -c "echo 1 >$GS_STATS/../stats/swapped_on" 2>/dev/null; then
	gs_fail "an unprivileged user wrote a statistic"
fi

ghost_is_on || gs_fail "$GS_DEV is no longer swapped on"
gs-memtest --size 32M --mix 1:2:1 --pageout || gs_fail "the device does not work after the bad file operations"
