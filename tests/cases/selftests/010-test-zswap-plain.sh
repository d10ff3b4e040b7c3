# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The reference: test_zswap on a plain swap partition (/dev/vdb) with zswap on, on the patched kernel.
# It must run through and pass at least one test; what fails here is stock 7.3's, reported as such.
. tests/lib/ghost.sh
. tests/lib/selftest.sh
trap ghost_cleanup EXIT
selftest_reference
grep -q ' ok$' "$SELFTEST_RESULTS.plain" || gs_fail "no test_zswap test passed on a plain swap partition"
