# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# test_zswap with /dev/ghostswap and its backing device (/dev/vdb) as the only swap: every test that
# passes on the plain partition passes, writeback and zswap-bypass included. On the release kernel (the
# selftests group) only, to keep the debug suite inside the CI budget.
. tests/lib/backend.sh
. tests/lib/selftest.sh
trap ghost_cleanup EXIT
selftest_reference
ghost_setup
selftest_check ghost-backend
