# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# zswap off: a workload of 2 x RAM (zero, compressible and incompressible pages), in a cgroup held at half
# of RAM (ghost_fill_memcg), goes to the backing device, which /sys/block shows written, in sequential
# runs (>= 95 %), and comes back with 0 mismatches.
. tests/lib/backend.sh
ghost_setup
gs_zswap_disable
mem_kib=$(ghost_mem_kib)
sectors0=$(backend_disk_stat 7) writes0=$(ghost_stat backend_writes) seq0=$(ghost_stat backend_writes_sequential)
pswpout0=$(gs_vmstat pswpout) pswpin0=$(gs_vmstat pswpin) zswpout0=$(gs_vmstat zswpout)
ghost_fill_memcg backend-fill
ghost_pressure "${GS_IN_CGROUP[@]}" "$GHOST_CG" gs-memtest --size $((mem_kib * 2))K --mix 2:1:1 ||
	gs_fail "gs-memtest reported mismatches or failed"
gs_log "memory.events of the fill: $(tr '\n' ' ' <"$GHOST_CG/memory.events")"
written_kib=$((($(backend_disk_stat 7) - sectors0) / 2))
pswpout=$(($(gs_vmstat pswpout) - pswpout0)) pswpin=$(($(gs_vmstat pswpin) - pswpin0))
gs_log "disk writes $written_kib KiB, pswpout +$pswpout pswpin +$pswpin, zswpout +$(($(gs_vmstat zswpout) - zswpout0))"
backend_report
[ "$written_kib" -ge $((mem_kib / 4)) ] || gs_fail "only $written_kib KiB reached $GS_BACKING"
[ "$pswpin" -gt 0 ] || gs_fail "no page was read back from $GS_BACKING"
[ "$(ghost_stat backend_read_errors)" -eq 0 ] || gs_fail "read errors on the backing device"
[ "$(ghost_stat backend_write_errors)" -eq 0 ] || gs_fail "write errors on the backing device"
backend_check_sequential "$writes0" "$seq0"
swapoff "$GS_DEV" || gs_fail "swapoff failed"
backend_check_empty
