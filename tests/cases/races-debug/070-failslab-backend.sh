# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# failslab with the backing device attached: the backend's per-cluster slot map is one more slab
# allocation of the swap-out path; when it fails the cluster is not created (stats/cluster_alloc_failed)
# and the pages stay in memory or go elsewhere. No splat, no mismatch, no kill.
. tests/lib/backend.sh
. tests/lib/fault.sh
# The workload's RAM/8 needs only about a dozen clusters, so a slot map allocation is attempted about a
# dozen times: at 20 % none of them fails one run in ten (0.8^11), at 50 % one in two thousand.
FAULT_PERCENT=50
fault_run failslab
gs_log "cluster_alloc_failed: $(ghost_stat cluster_alloc_failed)"
backend_report
[ "$(ghost_stat cluster_alloc_failed)" -gt 0 ] || gs_fail "no slot map allocation failed: the path was not tested"
