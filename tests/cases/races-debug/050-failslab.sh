# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# failslab on the swap-out path: a workload pushes its pages out with MADV_PAGEOUT and reads them back,
# while one in five of its slab allocations fail (cluster memcg tables, zswap entries and their tree
# nodes, the swap cache). The injected count is shown; no splat, no mismatch, no kill.
. tests/lib/ghost.sh
. tests/lib/fault.sh
fault_run failslab
