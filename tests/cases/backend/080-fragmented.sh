# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Free space in partly used segments stays usable (the cleaner): used segments half free, writers push
# out 72 MiB, 40 MiB more than the free segments hold (tests/lib/fragment.sh, frag_scenario).
. tests/lib/backend.sh
. tests/lib/fragment.sh
frag_scenario 4 9
