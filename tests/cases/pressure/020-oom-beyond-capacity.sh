# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# A working set beyond RAM + the capacity of a 32 MiB /dev/ghostswap: the OOM killer kills the workload
# (and nothing else), the kernel survives, the workload's slots are freed, and afterwards the device swaps
# and verifies data again and swaps off cleanly.
. tests/lib/ghost.sh
trap ghost_cleanup EXIT
gs_module_load size=32M
ghost_zswap_setup
swapon "$GS_DEV"
mem_kib=$(ghost_mem_kib)
oom_kill0=$(gs_vmstat oom_kill)
dmesg -C # the OOM killer's "Killed process" lines of this test only
rc=0
# shellcheck disable=SC2016  # expanded by the inner bash
ghost_pressure bash -c 'echo 1000 >/proc/self/oom_score_adj && exec "$@"' _ \
	gs-memtest --size $((mem_kib * 3 / 2))K --mix 0:1:0 >/tmp/oom.out 2>&1 || rc=$?
tail -n 2 /tmp/oom.out
oom_kills=$(($(gs_vmstat oom_kill) - oom_kill0))
gs_log "workload of 1.5 x RAM on a 32 MiB device: exit $rc, OOM kills $oom_kills, peak slots used $(ghost_stat slots_used_peak)"
[ "$rc" -eq 137 ] || gs_fail "the workload beyond RAM + swap was not killed (exit $rc)"
[ "$oom_kills" -ge 1 ] || gs_fail "no OOM kill was counted"
# ... and nothing else: every process the OOM killer killed is the workload.
victims=$(dmesg | sed -n 's/.*Killed process [0-9]* (\([^)]*\)).*/\1/p')
gs_log "killed by the OOM killer: $(tr '\n' ' ' <<<"$victims")"
[ -n "$victims" ] || gs_fail "no 'Killed process' line in the kernel log"
! grep -vqx gs-memtest <<<"$victims" || gs_fail "the OOM killer killed something else than the workload"
# 32 MiB is 8191 slots: full is within a cluster (512) of that.
[ "$(ghost_stat slots_used_peak)" -ge 7680 ] || gs_fail "the device was never full (peak $(ghost_stat slots_used_peak) slots used)"
# What stays on the device is other processes' (shells, init) that the pressure pushed out. The dead
# workload's slots are freed as its address space is torn down: wait for that, for a minute at most.
for _ in $(seq 120); do
	[ "$(ghost_swap_field 4)" -lt 8192 ] && break
	sleep 0.5
done
gs_log "$(ghost_swap_field 4) KiB in use after the workload died"
[ "$(ghost_swap_field 4)" -lt 8192 ] || gs_fail "the killed workload's pages were not freed"
freed0=$(ghost_stat slots_freed)
gs-memtest --size 24M --mix 1:2:1 --pageout --passes 2 || gs_fail "the device does not work after the OOM kill"
[ "$(ghost_stat slots_freed)" -gt "$freed0" ] || gs_fail "the device did not swap again after the OOM kill"
swapoff "$GS_DEV" || gs_fail "swapoff after the OOM kill failed"
