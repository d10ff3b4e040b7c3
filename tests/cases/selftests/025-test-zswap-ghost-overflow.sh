# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# test_zswap with /dev/ghostswap (no backing device) at priority 10 above the plain partition at priority
# 5, the overflow configuration of the README: what zswap cannot store goes to the partition, so the
# tests that 020 excuses for want of a device to write to pass here, and test_no_invasive_cgroup_shrink
# no longer kills test_zswap (test_zswap_incompressible runs). Excused: test_zswap_writeback_enabled,
# which waits for zswap to write back entries of the device they are on, and ghostswap's never are.
. tests/lib/ghost.sh
. tests/lib/selftest.sh
trap ghost_cleanup EXIT
selftest_reference
GHOST_SWAPON_OPTS=(-p 10)
ghost_setup
mkswap "$SELFTEST_DISK" >/dev/null
swapon -p 5 "$SELFTEST_DISK" || gs_fail "swapon -p 5 $SELFTEST_DISK failed"
ghost_at_exit "swapoff $SELFTEST_DISK"
selftest_check ghost-overflow test_zswap_writeback_enabled
