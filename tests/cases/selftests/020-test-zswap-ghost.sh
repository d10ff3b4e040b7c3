# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# test_zswap with /dev/ghostswap (no backing device) as the only swap device: every test that passes on
# the plain partition passes, except those that need pages written to a device, which ghost keeps in RAM
# by design: test_swapin_nozswap (memory.zswap.max=0), test_zswap_writeback_enabled (zswap writeback),
# test_no_invasive_cgroup_shrink (test_zswap moves itself into a cgroup whose zswap.max is one page: with
# nowhere to write, that cgroup's OOM killer kills test_zswap, so the tests after it are not reached;
# 030-test-zswap-ghost-backend runs them all).
. tests/lib/ghost.sh
. tests/lib/selftest.sh
trap ghost_cleanup EXIT
selftest_reference
ghost_setup
selftest_check ghost test_swapin_nozswap test_zswap_writeback_enabled test_no_invasive_cgroup_shrink
