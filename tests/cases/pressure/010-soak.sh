# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The soak: 10 minutes of mixed load on /dev/ghostswap, all of it verified. stress-ng --vm and --pageswap
# (--verify), gs-memtest --fork rounds (copy-on-write of swapped pages), gs-memtest rounds in a cgroup
# held at memory.high = half its working set, and every 45 seconds a swapoff/swapon of the device under
# all of that (a swapoff may fail for lack of memory, never with anything else). Bringing everything
# back in at swapoff may make the OOM killer act: it may kill stress-ng workers (oom_score_adj 1000,
# restarted by stress-ng), never a verifying gs-memtest. At the end every workload has verified its
# data, more than 2 x RAM went through swap (4.2 x on a slow two-CPU host shared with a kernel build and
# another test boot), and the device drains to empty.
. tests/lib/ghost.sh
. tests/lib/stress.sh
ghost_setup
SOAK_SECONDS=${SOAK_SECONDS:-600}
mem_kib=$(ghost_mem_kib)
ghost_memcg gs-soak
echo $((mem_kib * 5 / 100))K >"$GHOST_CG/memory.high"
end=$((SECONDS + SOAK_SECONDS))
swapped0=$(stress_swapped_pages)
dmesg -C

# rounds NAME CMD...: run CMD (with --seed N) again and again until the end, at oom_score_adj -500;
# exit 1 at the first failure.
rounds() {
	local name=$1 n=0
	shift
	echo -500 >/proc/self/oom_score_adj
	while [ "$SECONDS" -lt "$end" ]; do
		n=$((n + 1))
		"$@" --seed "$n" >"/tmp/soak-$name.out" 2>&1 || { tail -n 5 "/tmp/soak-$name.out" && return 1; }
	done
	echo "# $name: $n rounds verified"
}
gs_expect_call_traces_begin # allocation stall and OOM reports
stress-ng --vm 1 --vm-bytes $((mem_kib * 15 / 100))K --vm-keep --verify --pageswap 1 \
	--timeout "${SOAK_SECONDS}s" --metrics-brief >/tmp/soak-stress.out 2>&1 &
stress=$!
rounds fork gs-memtest --size $((mem_kib * 10 / 100))K --mix 1:2:1 --pageout --fork &
fork=$!
rounds memcg "${GS_IN_CGROUP[@]}" "$GHOST_CG" gs-memtest --size $((mem_kib * 10 / 100))K --mix 1:2:1 &
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
# Every workload stops starting rounds at the end; give the last ones 3 minutes.
rc=0
for pid in "$stress" "$fork" "$memcg"; do
	for _ in $(seq 180); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 1
	done
	if kill -0 "$pid" 2>/dev/null; then
		ps -o pid,stat,etime,args --ppid "$pid" || true
		gs_fail "a soak workload (pid $pid) is still running 3 minutes after the end"
	fi
	wait "$pid" || rc=1
done
[ "$rc" -eq 0 ] || tail -n 5 /tmp/soak-stress.out
gs_expect_call_traces_end
swapped=$(($(stress_swapped_pages) - swapped0))
kills=$(dmesg | grep -c 'Killed process' || true)
others=$(stress_oom_others)
gs_log "soak of ${SOAK_SECONDS}s: $offs swapoffs done, $enomem refused for lack of memory; swapped out" \
	"$swapped pages ($(stress_ratio "$swapped" $((mem_kib / 4))) x RAM); OOM kills $kills (not stress-ng workers: $others);" \
	"memcg: $(tr '\n' ' ' <"$GHOST_CG/memory.events")"
[ "$rc" -eq 0 ] || gs_fail "a workload of the soak failed"
[ "$others" -eq 0 ] || gs_fail "the OOM killer killed something else than a stress-ng worker"
[ "$offs" -ge 1 ] || gs_fail "no swapoff succeeded during the soak"
[ "$swapped" -ge $((mem_kib * 2 / 4)) ] || gs_fail "less than 2 x RAM went through swap"
swapoff "$GS_DEV" || gs_fail "the final swapoff failed"
[ "$(ghost_stat clusters)" -eq 0 ] || gs_fail "$(ghost_stat clusters) clusters left after the final swapoff"
