# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# stress-ng --swap adds and removes plain swap files (swapon/swapoff churn of other devices, on the ext4
# root) while a verifying --vm load of 120 % of RAM swaps through /dev/ghostswap, which has the highest
# priority; ghost stays on throughout and ends with nothing on it but what the load still holds.
. tests/lib/ghost.sh
. tests/lib/stress.sh
ghost_setup
swapoff "$GS_DEV" && swapon -p 100 "$GS_DEV"
stress_run "$STRESS_TARGET" "$STRESS_SAFETY" --swap 1 --vm 2 --vm-bytes "$(stress_ram_pct 120)" --vm-keep --verify
ghost_is_on || gs_fail "$GS_DEV is no longer swapped on"
[ "$(awk 'NR > 1' /proc/swaps | wc -l)" -eq 1 ] || { cat /proc/swaps && gs_fail "swap files of stress-ng are left"; }
[ "$(ghost_stat slots_used_peak)" -gt 0 ] || gs_fail "the load never used $GS_DEV"
