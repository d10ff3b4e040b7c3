# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The cleaner at another fill level: used segments a quarter live (three quarters free), writers push
# out 112 MiB, 72 MiB more than the free segments hold, so that the cleaner frees most of the partly used
# segments (tests/lib/fragment.sh, frag_scenario).
. tests/lib/backend.sh
. tests/lib/fragment.sh
frag_scenario 2 14
