# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The soak: 10 minutes of mixed load on /dev/ghostswap, all of it verified. stress-ng --vm and --pageswap
# (--verify), gs-memtest --fork rounds (copy-on-write of swapped pages), gs-memtest rounds in a cgroup
# held at memory.high = a third of its working set, and every 45 seconds a swapoff/swapon of the device
# under all of that (a swapoff may fail for lack of memory, never with anything else). At the end every
# workload has verified its data, more than 4 x RAM went through swap, and the device drains to empty.
. tests/lib/ghost.sh
. tests/lib/stress.sh
ghost_setup
SOAK_SECONDS=${SOAK_SECONDS:-600}
mem_kib=$(ghost_mem_kib)
ghost_memcg gs-soak
echo $((mem_kib * 5 / 100))K >"$GHOST_CG/memory.high"
end=$((SECONDS + SOAK_SECONDS))
swapped0=$(stress_swapped_pages) kills0=$(gs_vmstat oom_kill)

# rounds NAME CMD...: run CMD again and again until the end; exit 1 at the first failure.
rounds() {
	local name=$1 n=0
	shift
	while [ "$SECONDS" -lt "$end" ]; do
		n=$((n + 1))
		"$@" --seed "$n" >"/tmp/soak-$name.out" 2>&1 || { tail -n 5 "/tmp/soak-$name.out" && return 1; }
	done
	echo "# $name: $n rounds verified"
}
gs_expect_call_traces_begin # allocation stall reports under TCG
stress-ng --vm 1 --vm-bytes $((mem_kib * 20 / 100))K --vm-keep --verify --pageswap 1 \
	--timeout "${SOAK_SECONDS}s" --metrics-brief >/tmp/soak-stress.out 2>&1 &
stress=$!
rounds fork gs-memtest --size $((mem_kib * 10 / 100))K --mix 1:2:1 --pageout --fork &
fork=$!
rounds memcg "${GS_IN_CGROUP[@]}" "$GHOST_CG" gs-memtest --size $((mem_kib * 15 / 100))K --mix 1:2:1 --passes 2 &
memcg=$!

offs=0 enomem=0
while [ $((SECONDS + 45)) -lt "$end" ]; do
	sleep 45
	if err=$(swapoff "$GS_DEV" 2>&1); then
		offs=$((offs + 1))
	else
		grep -q 'Cannot allocate memory' <<<"$err" || gs_fail "swapoff failed: $err"
		enomem=$((enomem + 1))
	fi
	ghost_is_on || swapon "$GS_DEV" || gs_fail "swapon after swapoff failed"
done
rc=0
wait "$stress" || { rc=1 && tail -n 5 /tmp/soak-stress.out; }
wait "$fork" || rc=1
wait "$memcg" || rc=1
gs_expect_call_traces_end
swapped=$(($(stress_swapped_pages) - swapped0)) kills=$(($(gs_vmstat oom_kill) - kills0))
gs_log "soak of ${SOAK_SECONDS}s: $offs swapoffs done, $enomem refused for lack of memory; swapped out" \
	"$swapped pages ($((swapped / (mem_kib / 4))) x RAM); OOM kills $kills; memcg: $(tr '\n' ' ' <"$GHOST_CG/memory.events")"
[ "$rc" -eq 0 ] || gs_fail "a workload of the soak failed"
[ "$kills" -eq 0 ] || gs_fail "$kills OOM kills during the soak"
[ "$offs" -ge 1 ] || gs_fail "no swapoff succeeded during the soak"
[ "$swapped" -ge $((mem_kib / 4 * 4)) ] || gs_fail "less than 4 x RAM went through swap"
swapoff "$GS_DEV" || gs_fail "the final swapoff failed"
[ "$(ghost_stat clusters)" -eq 0 ] || gs_fail "$(ghost_stat clusters) clusters left after the final swapoff"
