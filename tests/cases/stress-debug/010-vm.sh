# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# stress-ng --vm with --verify and --vm-keep, method walk-1d (writes and checks each page in place), two
# workers sharing 150 % of RAM (--vm-bytes is the total): what they write and check goes through zswap
# on /dev/ghostswap. The other stress-debug tests run --vm with its default method, which cycles
# through them all. zero-one ran here too, until a run showed it doing 0 bogo ops in 260 s: its first
# pass writes zero pages, which the swap core keeps without zswap and which do not count toward the
# target, so it took four minutes where walk-1d takes one. rand-set, random over 150 % of RAM, did no
# bogo op in 60 s (it thrashes).
. tests/lib/ghost.sh
. tests/lib/stress.sh
ghost_setup
stress_run "$STRESS_TARGET" "$STRESS_SAFETY" --vm 2 --vm-bytes "$(stress_ram_pct 150)" --vm-keep \
	--vm-method walk-1d --verify
