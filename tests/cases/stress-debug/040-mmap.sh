# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# stress-ng --mmap with --verify: two workers map, touch, check, mprotect and unmap 130 % of RAM between
# them, so their pages are swapped out and back while mappings come and go.
. tests/lib/ghost.sh
. tests/lib/stress.sh
ghost_setup
STRESS_MIN_SWAP=2
stress_run 60 --mmap 2 --mmap-bytes "$(stress_ram_pct 130)" --verify
