# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The soak: mixed load on /dev/ghostswap, all of it verified, until at least 10 minutes have passed AND
# 2 x RAM has gone through swap (a safety bound of 20 minutes fails a soak that swaps too little).
# stress-ng --vm and --pageswap (--verify), gs-memtest --fork rounds (copy-on-write of swapped pages),
# gs-memtest rounds in a cgroup held at memory.high = a twentieth of RAM, and every 45 seconds a
# swapoff/swapon of the device under all of that (a swapoff may fail for lack of memory, never with
# anything else). Bringing everything back in at swapoff may make the OOM killer act: it may kill
# stress-ng workers (oom_score_adj 1000, restarted by stress-ng) or the swapoff itself (its first choice
# while try_to_unuse() runs: set_current_oom_origin()), never a verifying gs-memtest. At the end
# every workload has verified its data, the memcg rounds hit memory.high, and the device drains to empty.
# (A slow two-CPU host shared with a kernel build and another test boot swapped 4.2 x RAM in 10 minutes.)
. tests/lib/ghost.sh
. tests/lib/stress.sh
ghost_setup
SOAK_SECONDS=${SOAK_SECONDS:-600} SOAK_MAX_SECONDS=${SOAK_MAX_SECONDS:-1200}
mem_kib=$(ghost_mem_kib)
ghost_memcg gs-soak
echo $((mem_kib * 5 / 100))K >"$GHOST_CG/memory.high"
t0=$SECONDS
swapped0=$(stress_swapped_pages)
target=$((mem_kib * 2 / 4)) # 2 x RAM, in pages
stop=/tmp/soak.stop         # the workloads start no new round once it exists
rm -f "$stop"
high0=$(awk '$1 == "high" { print $2 }' "$GHOST_CG/memory.events")
dmesg -C

# rounds NAME CMD...: run CMD (with --seed N) again and again until $stop exists, at oom_score_adj -500;
# exit 1 at the first failure.
rounds() {
	local name=$1 n=0
	shift
	echo -500 >/proc/self/oom_score_adj
	while [ ! -e "$stop" ]; do
		n=$((n + 1))
		"$@" --seed "$n" >"/tmp/soak-$name.out" 2>&1 || { tail -n 5 "/tmp/soak-$name.out" && return 1; }
	done
	echo "# $name: $n rounds verified"
}
gs_expect_call_traces_begin # allocation stall and OOM reports
stress-ng --vm 1 --vm-bytes $((mem_kib * 15 / 100))K --vm-keep --verify --pageswap 1 \
	--timeout "${SOAK_MAX_SECONDS}s" --metrics-brief >/tmp/soak-stress.out 2>&1 &
stress=$!
rounds fork gs-memtest --size $((mem_kib * 10 / 100))K --mix 1:2:1 --pageout --fork &
fork=$!
rounds memcg "${GS_IN_CGROUP[@]}" "$GHOST_CG" gs-memtest --size $((mem_kib * 10 / 100))K --mix 1:2:1 &
memcg=$!

# soak_done: 10 minutes and 2 x RAM swapped, or the safety bound.
soak_done() {
	{ [ $((SECONDS - t0)) -ge "$SOAK_SECONDS" ] &&
		[ $(($(stress_swapped_pages) - swapped0)) -ge "$target" ]; } ||
		[ $((SECONDS - t0)) -ge "$SOAK_MAX_SECONDS" ]
}
offs=0 enomem=0
while ! soak_done; do
	# A swapoff every 45 s, checking for the end every 5 s in between.
	for _ in $(seq 9); do
		sleep 5
		! soak_done || break 2
	done
	off_rc=0
	err=$(swapoff "$GS_DEV" 2>&1) || off_rc=$?
	if [ "$off_rc" -eq 0 ]; then
		offs=$((offs + 1))
	elif grep -q 'Cannot allocate memory' <<<"$err" ||
		{ [ "$off_rc" -eq 137 ] && dmesg | grep -q 'Killed process [0-9]* (swapoff)'; }; then
		enomem=$((enomem + 1))
	else
		gs_fail "swapoff failed (exit $off_rc): $err"
	fi
	ghost_is_on || swapon "$GS_DEV" || gs_fail "swapon after swapoff failed"
done
soak_secs=$((SECONDS - t0))
# Every workload stops starting rounds at the end; give the last ones 3 minutes. stress-ng stops on
# SIGINT as at its --timeout (verification included, exit 0).
touch "$stop"
kill -INT "$stress" 2>/dev/null || true
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
swapoff_kills=$(dmesg | grep -c 'Killed process [0-9]* (swapoff)' || true)
others=$(($(stress_oom_others) - swapoff_kills))
high=$(($(awk '$1 == "high" { print $2 }' "$GHOST_CG/memory.events") - high0))
gs_log "soak of ${soak_secs}s: $offs swapoffs done, $enomem refused for lack of memory ($swapoff_kills OOM-killed);" \
	"swapped out $swapped pages ($(stress_ratio "$swapped" $((mem_kib / 4))) x RAM); OOM kills $kills" \
	"(not stress-ng workers or swapoff: $others);" \
	"memcg: $(tr '\n' ' ' <"$GHOST_CG/memory.events")"
[ "$rc" -eq 0 ] || gs_fail "a workload of the soak failed"
[ "$others" -eq 0 ] || gs_fail "the OOM killer killed something else than a stress-ng worker or swapoff"
[ "$offs" -ge 1 ] || gs_fail "no swapoff succeeded during the soak"
[ "$swapped" -ge "$target" ] ||
	gs_fail "less than 2 x RAM went through swap in the ${SOAK_MAX_SECONDS}s safety bound"
[ "$high" -gt 0 ] || gs_fail "the memcg rounds never hit memory.high"
swapoff "$GS_DEV" || gs_fail "the final swapoff failed"
[ "$(ghost_stat slots_mapped)" -eq 0 ] || gs_fail "$(ghost_stat slots_mapped) slots still mapped after the final swapoff"
