# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# fail_page_alloc on the swap-out path: a workload pushes its pages out with MADV_PAGEOUT and reads them
# back, while one in five of its page allocations fail (swap tables, zsmalloc pages, swap-in folios, page
# tables). The injected count is shown; no splat, no mismatch, no kill.
. tests/lib/ghost.sh
. tests/lib/fault.sh
fault_run fail_page_alloc
