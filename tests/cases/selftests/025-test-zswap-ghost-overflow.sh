# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# test_zswap with /dev/ghostswap (no backing device) at priority 10 above the plain partition at priority
# 5, the overflow configuration of the README: what zswap cannot store goes to the partition, so the
# tests that 020 excuses for want of a device to write to pass here, and test_no_invasive_cgroup_shrink
# no longer kills test_zswap (test_zswap_incompressible runs). Excused, as zswap never writes back
# ghostswap's entries (they are not on its LRU): test_zswap_writeback_enabled, which waits for its entries
# to be written back and passes only when enough of them went to the partition (it did in the run that
# brought this test back), and test_no_invasive_cgroup_shrink, which needs its cgroup's
# entries written back when they reach its memory.zswap.max of one page. Here the first pages of that
# cgroup are stored for ghostswap; then ghostswap steps aside, the next pages go to the partition, and
# zswap_store() on the partition, over the limit, finds nothing on the cgroup's LRU to write back: it
# rejects them and they are written to the partition uncompressed, so the test sees no writeback at all
# (the other cgroup's count, what "not invasive" is about, does not change either).
. tests/lib/ghost.sh
. tests/lib/selftest.sh
trap ghost_cleanup EXIT
selftest_reference
GHOST_SWAPON_OPTS=(-p 10)
ghost_setup
mkswap "$SELFTEST_DISK" >/dev/null
swapon -p 5 "$SELFTEST_DISK" || gs_fail "swapon -p 5 $SELFTEST_DISK failed"
ghost_at_exit "swapoff $SELFTEST_DISK"
selftest_check ghost-overflow test_zswap_writeback_enabled test_no_invasive_cgroup_shrink
