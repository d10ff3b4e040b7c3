# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# stress-ng --vm with --verify and --vm-keep, two methods in turn, two workers sharing 150 % of RAM
# (--vm-bytes is the total): what they write and check goes through zswap on /dev/ghostswap. walk-1d
# writes and checks each page in place, zero-one writes the whole buffer, then reads it all back (twice
# a round): pages come back in from swap long after they went out. Both make progress on the debug
# kernel under TCG; rand-set, random over 150 % of RAM, did no bogo op in 60 s there (it thrashes).
. tests/lib/ghost.sh
. tests/lib/stress.sh
ghost_setup
for method in walk-1d zero-one; do
	stress_run "$STRESS_TARGET" "$STRESS_SAFETY" --vm 2 --vm-bytes "$(stress_ram_pct 150)" --vm-keep --vm-method "$method" --verify
done
