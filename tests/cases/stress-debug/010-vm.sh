# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# stress-ng --vm with --verify and --vm-keep, two methods in turn (inc-nybble, walk-1d), two workers
# sharing 150 % of RAM (--vm-bytes is the total): what they write and check goes through zswap on
# /dev/ghostswap.
. tests/lib/ghost.sh
. tests/lib/stress.sh
ghost_setup
STRESS_MIN_SWAP=4
for method in inc-nybble walk-1d; do
	stress_run 40 --vm 2 --vm-bytes "$(stress_ram_pct 150)" --vm-keep --vm-method "$method" --verify
done
