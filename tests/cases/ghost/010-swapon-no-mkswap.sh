# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# /dev/ghostswap is a 0600 char device that util-linux swapon accepts with no mkswap and no warning; its
# default size is 8 x RAM in whole 2 MiB clusters; it reads as a swap header and refuses writes; a second
# swapon is refused; /proc/swaps, swapon --show and free show it.
. tests/lib/ghost.sh
trap ghost_cleanup EXIT
gs_module_load
[ -c "$GS_DEV" ] || gs_fail "$GS_DEV is not a character device"
[ "$(stat -c %a "$GS_DEV")" = 600 ] || gs_fail "$GS_DEV has mode $(stat -c %a "$GS_DEV"), wanted 600"
[ "$(head -c 4096 "$GS_DEV" | tail -c 10)" = SWAPSPACE2 ] || gs_fail "reading $GS_DEV gives no SWAPSPACE2 header"
if out=$( (printf x >"$GS_DEV") 2>&1); then gs_fail "a write to $GS_DEV succeeded"; fi
gs_log "write refused: $out"
grep -q 'Operation not permitted' <<<"$out" || gs_fail "write refused without EPERM: $out"

ghost_zswap_setup
out=$(swapon "$GS_DEV" 2>&1) || gs_fail "swapon $GS_DEV failed: $out"
[ -z "$out" ] || gs_fail "swapon printed something: $out"
cat /proc/swaps
swapon --show
free -k

mem_kib=$(ghost_mem_kib)
want_kib=$((mem_kib * 8 / 2048 * 2048 - 4)) # whole clusters, less the header page
size_kib=$(ghost_swap_field 3)
gs_log "RAM ${mem_kib} KiB, /proc/swaps size ${size_kib} KiB, expected ${want_kib} KiB"
[ "$size_kib" -eq "$want_kib" ] || gs_fail "/proc/swaps size $size_kib KiB, wanted $want_kib (8 x RAM)"
[ "$(ghost_stat size_bytes)" -eq $(((want_kib + 4) * 1024)) ] || gs_fail "stats/size_bytes disagrees"
[ "$(ghost_stat swapped_on)" = 1 ] || gs_fail "stats/swapped_on is not 1"
swapon --show=NAME,SIZE --bytes --noheadings | grep -q "^$GS_DEV " || gs_fail "swapon --show does not list $GS_DEV"
free_kib=$(free -k | awk '/^Swap:/ { print $2 }')
[ "$free_kib" -ge "$size_kib" ] || gs_fail "free reports $free_kib KiB of swap, less than $size_kib"

if out=$(swapon "$GS_DEV" 2>&1); then gs_fail "a second swapon of $GS_DEV succeeded"; fi
gs_log "second swapon refused: $out"
