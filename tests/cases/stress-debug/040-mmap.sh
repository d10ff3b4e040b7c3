# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# stress-ng --mmap with --verify: two workers map 20 % of RAM each, fill and check it, mprotect, mremap
# and unmap it in random order, over and over, next to two verifying --vm workers holding 100 % of RAM,
# so that mappings come and go while their pages are swapped out and faulted back.
. tests/lib/ghost.sh
. tests/lib/stress.sh
ghost_setup
stress_run "$STRESS_TARGET" "$STRESS_SAFETY" --mmap 2 --mmap-bytes "$(stress_ram_pct 40)" --vm 2 --vm-bytes "$(stress_ram_pct 100)" --vm-keep --verify
