# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Invalid size= values make insmod fail with a message that says what is wrong; sizes beyond what a swap
# header describes are clamped, with a message.
. tests/lib/ghost.sh
trap ghost_cleanup EXIT
for v in 0 abc 12Q 1.5G -1 99999999999999999999 16777216T 4096 ""; do
	dmesg -C
	if insmod "$GS_MODULE" "size=$v" 2>/dev/null; then
		gs_fail "insmod size='$v' succeeded"
	fi
	msg=$(dmesg | grep 'ghostswap: size=' | tail -n 1)
	gs_log "size='$v': $msg"
	[ -n "$msg" ] || gs_fail "insmod size='$v' failed without a ghostswap message"
done
gs_module_load size=64M
[ "$(ghost_stat size_bytes)" -eq $((64 << 20)) ] || gs_fail "size=64M gave $(ghost_stat size_bytes) bytes"
gs_module_unload
# Beyond what a swap header describes (2^32 - 1 slots, in whole 2 MiB clusters: 2^32 - 512 slots of
# 4 KiB) size= is clamped, with a message saying so (the README's claim).
max=$(((4294967296 - 512) * 4096))
for v in 16T 20T; do
	dmesg -C
	insmod "$GS_MODULE" "size=$v" || gs_fail "insmod size=$v failed"
	msg=$(dmesg | grep 'ghostswap: size .* clamped to' | tail -n 1)
	gs_log "size=$v: $msg"
	[ -n "$msg" ] || gs_fail "size=$v was not reported as clamped"
	grep -q "clamped to $max bytes" <<<"$msg" || gs_fail "size=$v not clamped to $max bytes"
	[ "$(ghost_stat size_bytes)" -eq "$max" ] || gs_fail "size=$v gave $(ghost_stat size_bytes) bytes, wanted $max"
	gs_module_unload
done
