# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The debug groups prove something only if their kernel really runs its bug finders: this guest's kernel
# is the debug variant, built with KASAN, lockdep, DEBUG_VM, kmemleak and fault injection, and each of
# them is active now (KASAN initialized, lockdep's debug_locks still 1, kmemleak accepting commands, the
# fault injection knobs present).
. tests/lib/guest.sh
gs_is_debug || gs_fail "GS_KERNEL_VARIANT is '${GS_KERNEL_VARIANT:-}', not debug"
config=$(zcat /proc/config.gz) || gs_fail "no /proc/config.gz"
for opt in KASAN PROVE_LOCKING DEBUG_VM DEBUG_KMEMLEAK DEBUG_ATOMIC_SLEEP FAILSLAB FAIL_PAGE_ALLOC \
	FAIL_MAKE_REQUEST; do
	grep -qx "CONFIG_$opt=y" <<<"$config" || gs_fail "the kernel is built without CONFIG_$opt"
done
dmesg | grep -q 'KernelAddressSanitizer initialized' || gs_fail "KASAN did not report itself initialized"
debug_locks=$(awk '/debug_locks:/ { print $2 }' /proc/lockdep_stats)
gs_log "lockdep debug_locks=$debug_locks"
[ "$debug_locks" = 1 ] || gs_fail "lockdep is off (debug_locks=$debug_locks): an earlier report disabled it"
gs_kmemleak_on || gs_fail "the group was booted with kmemleak=off"
# A scan is refused once kmemleak is off; gs_kmemleak_check fails then, or on a leak found already.
gs_kmemleak_check
for f in failslab fail_page_alloc fail_make_request; do
	[ -d "/sys/kernel/debug/$f" ] || gs_fail "no /sys/kernel/debug/$f"
done
gs_log "$(uname -r): KASAN, lockdep, DEBUG_VM, kmemleak and fault injection on"
