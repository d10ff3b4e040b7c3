# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# stress-ng --madvise (random advice, MADV_PAGEOUT, MADV_COLD, MADV_FREE, MADV_DONTNEED... on mapped pages)
# next to two --vm workers with --verify whose 120 % of RAM must swap.
. tests/lib/ghost.sh
. tests/lib/stress.sh
ghost_setup
stress_run "$STRESS_TARGET" "$STRESS_SAFETY" --madvise 2 --vm 2 --vm-bytes "$(stress_ram_pct 120)" --vm-keep --verify
