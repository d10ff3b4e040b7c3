# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# failslab with the backing device attached: a chunk of the backend's slot map is one more slab
# allocation of the swap-out path, when the first page of its 512 slots goes to the disk (zswap refuses
# the pages whose zswap_entry allocation failed); when it fails the write fails
# (stats/backend_map_alloc_failed) and the pages stay in memory, dirty. The XArray nodes of zswap's trees are slab allocations too:
# a store that gets its upper nodes but not a lower one fails and leaves them in the tree, empty; swapoff
# warned about them and leaked them (one swapoff in four here) until hook patch 0007. No splat, no
# mismatch, no kill.
. tests/lib/backend.sh
. tests/lib/fault.sh
# The workload's RAM/8 spans only about a dozen chunks, so a chunk allocation is attempted about a
# dozen times: at 20 % none of them fails one run in ten (0.8^11), at 50 % one in two thousand.
FAULT_PERCENT=50
# zswap's debugfs appears when zswap is first enabled (ghost_setup in fault_run): 0 stores failed before.
zswap_alloc_fail() { cat /sys/kernel/debug/zswap/reject_alloc_fail 2>/dev/null || echo 0; }
alloc_fail0=$(zswap_alloc_fail)
fault_run failslab
alloc_fail=$(($(zswap_alloc_fail) - alloc_fail0))
gs_log "zswap stores failed for want of a tree node: $alloc_fail"
gs_log "backend_map_alloc_failed: $(ghost_stat backend_map_alloc_failed)"
backend_report
[ "$(ghost_stat backend_map_alloc_failed)" -gt 0 ] || gs_fail "no slot map allocation failed: the path was not tested"
[ "$alloc_fail" -gt 0 ] || gs_fail "no zswap store failed for want of a tree node: the path was not tested"
