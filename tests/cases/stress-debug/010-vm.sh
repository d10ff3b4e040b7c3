# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# stress-ng --vm with --verify and --vm-keep, two methods in turn (walk-1d sequential, rand-set random),
# two workers sharing 150 % of RAM (--vm-bytes is the total): what they write and check goes through zswap
# on /dev/ghostswap.
. tests/lib/ghost.sh
. tests/lib/stress.sh
ghost_setup
for method in walk-1d rand-set; do
	stress_run 60 --vm 2 --vm-bytes "$(stress_ram_pct 150)" --vm-keep --vm-method "$method" --verify
done
