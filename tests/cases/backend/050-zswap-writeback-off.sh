# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# memory.zswap.writeback=0 is honoured with a backing device: in a cgroup where zswap takes nothing
# (memory.zswap.max=0), pages pushed out stay in memory and nothing is written to the disk; with
# writeback=1 the same workload goes to the disk. Both verify.
. tests/lib/backend.sh
ghost_setup
ghost_memcg gs-nowb
cg=$GHOST_CG
echo 0 >"$cg/memory.zswap.max"
size_kib=$(($(ghost_mem_kib) / 8))

# pageout WRITEBACK: push a cgroup workload out; $written = the bytes the backend took meanwhile.
pageout() {
	local written0
	echo "$1" >"$cg/memory.zswap.writeback"
	written0=$(ghost_stat backend_bytes_written)
	"${GS_IN_CGROUP[@]}" "$cg" \
		gs-memtest --size "${size_kib}K" --mix 0:1:1 --pageout --passes 2 >/tmp/nowb.out 2>&1 ||
		{ cat /tmp/nowb.out && gs_fail "the workload failed with memory.zswap.writeback=$1"; }
	written=$(($(ghost_stat backend_bytes_written) - written0))
}

pageout 0
off=$written
pageout 1
on=$written
gs_log "backend bytes written: $off with memory.zswap.writeback=0, $on with 1"
backend_report
[ "$off" -eq 0 ] || gs_fail "$off bytes were written to the disk with memory.zswap.writeback=0"
[ "$on" -gt 0 ] || gs_fail "nothing was written to the disk with memory.zswap.writeback=1"
