# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Invalid size= values make insmod fail with a message that says what is wrong.
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
