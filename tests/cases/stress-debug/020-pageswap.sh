# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# stress-ng --pageswap with --verify: pages written, swapped out with MADV_PAGEOUT and checked when they
# come back; a --vm worker holding 50 % of RAM keeps memory tight meanwhile.
. tests/lib/ghost.sh
. tests/lib/stress.sh
ghost_setup
stress_run "$STRESS_TARGET_PAGESWAP" "$STRESS_SAFETY" --pageswap 2 --vm 1 --vm-bytes "$(stress_ram_pct 50)" --vm-keep --verify
