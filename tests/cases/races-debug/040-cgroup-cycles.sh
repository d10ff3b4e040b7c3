# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Three times: a cgroup is created, a process in it has its pages swapped out to /dev/ghostswap, the
# process moves to the root cgroup and the cgroup is removed while its pages are still swapped out (their
# swap entries still name the removed cgroup); then the process faults them back and verifies them. The
# same with tmpfs pages, which outlive their writer. Memory charged to the removed cgroups goes away.
. tests/lib/ghost.sh
ghost_setup
shm=/tmp/gs-shm
mkdir -p "$shm"
mount -t tmpfs -o size=64M none "$shm"
ghost_at_exit "umount $shm"
ghost_memcg gs-cycle-parent
echo +memory >"$GHOST_CG/cgroup.subtree_control"
# shmem_bytes CG: resident tmpfs memory charged to cgroup CG (memory.stat).
shmem_bytes() { awk '$1 == "shmem" { print $2 }' "$1/memory.stat"; }
for i in $(seq 3); do
	cg=$GHOST_CG/c$i
	mkdir "$cg"
	out=/tmp/cg$i.out
	"${GS_IN_CGROUP[@]}" "$cg" gs-memtest --size 16M --mix 1:2:1 --seed "$i" --pageout --hold 300 >"$out" 2>&1 &
	holder=$!
	ghost_wait_ready "$out" "$holder"
	# shellcheck disable=SC2016  # expanded by the inner bash
	"${GS_IN_CGROUP[@]}" "$cg" bash -c 'head -c 4M /dev/urandom >"$1"' _ "$shm/f$i"
	sum=$(sha256sum <"$shm/f$i")
	shmem0=$(shmem_bytes "$cg")
	echo 12M >"$cg/memory.reclaim" 2>/dev/null || true
	swapped=$(cat "$cg/memory.swap.current") shmem=$(shmem_bytes "$cg")
	[ "$swapped" -gt 0 ] || gs_fail "cycle $i: nothing of the cgroup was swapped out"
	# tmpfs pages leave memory only by swap: resident shmem must have dropped by at least 1 MiB of the
	# file's 4 MiB, apart from the anonymous pages that memory.swap.current counts too.
	[ $((shmem0 - shmem)) -ge $((1 << 20)) ] ||
		gs_fail "cycle $i: resident tmpfs data went from $shmem0 to $shmem bytes: not swapped out"
	echo "$holder" >/sys/fs/cgroup/cgroup.procs
	rmdir "$cg" || gs_fail "cycle $i: rmdir of the cgroup failed"
	kill -USR1 "$holder"
	rc=0
	wait "$holder" || rc=$?
	[ "$rc" -eq 0 ] || { cat "$out" && gs_fail "cycle $i: the data swapped out by a removed cgroup came back wrong"; }
	[ "$(sha256sum <"$shm/f$i")" = "$sum" ] || gs_fail "cycle $i: tmpfs data of a removed cgroup changed"
	rm "$shm/f$i"
	gs_log "cycle $i: $swapped bytes swapped when the cgroup was removed, $((shmem0 - shmem)) of them tmpfs"
done
gs_log "memory.current of the parent after 3 removed children: $(cat "$GHOST_CG/memory.current")"
