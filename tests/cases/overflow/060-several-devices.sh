# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Several ghost devices (/sys/class/ghostswap-control/hot_add and hot_remove, as zram-control):
# - /dev/ghostswap1 (priority 20, RAM/8) above /dev/ghostswap (10, RAM/16) above the partition (5): a
#   held workload of 3/8 x RAM fills them in that order (each ghost device at least 90 % used, the rest
#   on the partition) and verifies; a hot-added device has its own size and statistics, and no backend's;
# - hot_remove of a device swapped on or open fails with EBUSY and a log line, of /dev/ghostswap with
#   EINVAL, of a number with no device with ENODEV, of garbage with EINVAL; rmmod is refused while a
#   hot-added device is swapped on; hot_add stops with ENOSPC at the number of swap areas the kernel has;
# - under a writer swapping, devices are added, swapped on above everything, swapped off and removed;
#   then hot_remove races swapon of the same device, at once or up to 100 ms after it started: exactly
#   one of them wins, every time.
# Halved on the debug kernel (ghost_work_kib).
. tests/lib/ghost.sh
. tests/lib/overflow.sh
control=/sys/class/ghostswap-control
work_kib=$(ghost_work_kib)
g1_kib=$((work_kib / 8 / 2048 * 2048)) g0_kib=$((work_kib / 16 / 2048 * 2048))
GHOST_MODULE_PARAMS=(size="${g0_kib}K")
ghost_setup
overflow_partition_on

# extra_devices_off: swap off and remove every hot-added device (at exit, before ghost_cleanup).
extra_devices_off() {
	local d
	for d in /sys/class/misc/ghostswap[0-9]*; do
		[ -e "$d" ] || continue
		if grep -q "^/dev/${d##*/} " /proc/swaps; then swapoff "/dev/${d##*/}"; fi
		echo "${d##*ghostswap}" >"$control/hot_remove"
	done
}
ghost_at_exit extra_devices_off

# hot_add: create a device, print its number.
hot_add() { cat "$control/hot_add" || gs_fail "hot_add failed"; }

# expect_remove_fails ID ERROR LOG: writing ID to hot_remove fails with ERROR (strerror text) and the
# kernel log gains a line containing LOG.
expect_remove_fails() {
	if echo "$1" >"$control/hot_remove" 2>/tmp/remove.err; then
		gs_fail "hot_remove of '$1' succeeded"
	fi
	grep -q "$2" /tmp/remove.err || gs_fail "hot_remove of '$1' failed with: $(cat /tmp/remove.err), wanted $2"
	dmesg | grep -qF "$3" || gs_fail "no log line '$3' after hot_remove of '$1'"
}

# used_kib DEV: the KiB /proc/swaps shows used on DEV.
used_kib() { awk -v d="$1" '$1 == d { print $4 }' /proc/swaps; }

# --- a second device: its own size and statistics
id=$(hot_add)
[ "$id" = 1 ] || gs_fail "the first hot_add made device '$id', wanted 1"
[ -c /dev/ghostswap1 ] || gs_fail "/dev/ghostswap1 is not a character device after hot_add"
dmesg | grep -q 'ghostswap: /dev/ghostswap1 ready' || gs_fail "no log line says /dev/ghostswap1 was added"
g1=/sys/class/misc/ghostswap1
[ "$(cat "$g1/size")" -eq $(($(ghost_mem_kib) * 8 / 2048 * 2048 * 1024)) ] ||
	gs_fail "a new device's size is $(cat "$g1/size") bytes, not 8 x RAM"
[ ! -e "$g1/stats/backend_pages" ] || gs_fail "/dev/ghostswap1 shows backend statistics"
[ -e "$GS_STATS/backend_pages" ] || gs_fail "/dev/ghostswap lost its backend statistics"
echo "${g1_kib}K" >"$g1/size" || gs_fail "setting /dev/ghostswap1's size failed"
swapon -p 20 /dev/ghostswap1 || gs_fail "swapon -p 20 /dev/ghostswap1 failed"
[ "$(awk '$1 == "/dev/ghostswap1" { print $5 }' /proc/swaps)" = 20 ] || gs_fail "/dev/ghostswap1 is not at priority 20"
[ "$(cat "$GS_STATS/size_bytes")" -eq $((g0_kib * 1024)) ] || gs_fail "/dev/ghostswap's size changed"

# --- priorities: ghostswap1, then ghostswap, then the partition
hold_kib=$((work_kib * 3 / 8))
gs-memtest --size "${hold_kib}K" --mix 1:2:1 --pageout --hold 900 >/tmp/hold.out 2>&1 &
holder=$!
ghost_wait_ready /tmp/hold.out "$holder"
u1=$(used_kib /dev/ghostswap1) u0=$(used_kib "$GS_DEV") up=$(used_kib "$OVERFLOW_DISK")
gs_log "holding $hold_kib KiB: ghostswap1 $u1 of $g1_kib KiB, ghostswap $u0 of $g0_kib, partition $up;" \
	"ghostswap1 stats: slots_used $(cat "$g1/stats/slots_used") slots_used_peak $(cat "$g1/stats/slots_used_peak")"
[ "$u1" -ge $((g1_kib * 9 / 10)) ] || gs_fail "/dev/ghostswap1 (priority 20) holds only $u1 of $g1_kib KiB"
[ "$u0" -ge $((g0_kib * 9 / 10)) ] || gs_fail "/dev/ghostswap (priority 10) holds only $u0 of $g0_kib KiB"
[ "$up" -gt 0 ] || gs_fail "nothing reached the partition although both ghost devices are full"
[ "$(cat "$g1/stats/slots_used")" -eq $((u1 / 4)) ] || gs_fail "ghostswap1's slots_used disagrees with /proc/swaps"

# --- hot_remove refusals, while the pages are held
expect_remove_fails 1 "Device or resource busy" "hot_remove: /dev/ghostswap1 is swapped on"
expect_remove_fails 0 "Invalid argument" "hot_remove: /dev/ghostswap goes only with the module"
expect_remove_fails 9 "No such device" "hot_remove: there is no /dev/ghostswap9"
expect_remove_fails garbage "Invalid argument" "hot_remove: garbage is not a device number"
if rmmod ghostswap 2>/dev/null; then gs_fail "rmmod succeeded with devices swapped on"; fi
swapoff /dev/ghostswap1 || gs_fail "swapoff /dev/ghostswap1 with pages held failed"
exec 3</dev/ghostswap1
expect_remove_fails 1 "Device or resource busy" "hot_remove: /dev/ghostswap1 is open"
exec 3<&-
echo 1 >"$control/hot_remove" || gs_fail "hot_remove of an unused /dev/ghostswap1 failed"
if [ -e /dev/ghostswap1 ] || [ -e "$g1" ]; then gs_fail "/dev/ghostswap1 is still there after hot_remove"; fi
kill -USR1 "$holder"
wait "$holder" || { tail -n 3 /tmp/hold.out && gs_fail "the held pages did not verify"; }

# --- as many devices as the kernel has swap areas, then ENOSPC
ids=()
for _ in $(seq 64); do
	n=$(cat "$control/hot_add" 2>/tmp/add.err) || break
	ids+=("$n")
done
grep -q "No space left on device" /tmp/add.err || gs_fail "hot_add stopped with: $(cat /tmp/add.err)"
dmesg | grep -q "hot_add: .* devices already" || gs_fail "no log line says why hot_add stopped"
gs_log "hot_add made ${#ids[@]} devices beside /dev/ghostswap before ENOSPC"
[ "${#ids[@]}" -ge 8 ] || gs_fail "only ${#ids[@]} devices could be added"
for n in "${ids[@]}"; do
	echo "$n" >"$control/hot_remove" || gs_fail "hot_remove of /dev/ghostswap$n failed"
done

# --- devices come and go above a writer
gs-memtest --size $((work_kib / 4))K --mix 1:2:1 --pageout --passes 8 --random >/tmp/w.out 2>&1 &
writer=$!
took=0
for _ in 1 2 3 4; do
	n=$(hot_add)
	echo "${g1_kib}K" >"/sys/class/misc/ghostswap$n/size"
	swapon -p 30 "/dev/ghostswap$n" || gs_fail "swapon of /dev/ghostswap$n under load failed"
	sleep 2
	took=$((took + $(cat "/sys/class/misc/ghostswap$n/stats/slots_used_peak")))
	swapoff "/dev/ghostswap$n" || gs_fail "swapoff of /dev/ghostswap$n under load failed"
	echo "$n" >"$control/hot_remove" || gs_fail "hot_remove of /dev/ghostswap$n after swapoff failed"
done
wait "$writer" || { tail -n 3 /tmp/w.out && gs_fail "the writer's pages did not verify"; }
gs_log "four devices added and removed under the writer took $took slots at their peaks"
[ "$took" -gt 0 ] || gs_fail "no device added under the writer took a page"

# --- hot_remove against swapon of the same device: exactly one wins
wins=()
for i in $(seq 20); do
	n=$(hot_add)
	swapon "/dev/ghostswap$n" 2>/dev/null &
	swapon_pid=$!
	# At once (it tends to win), or 10 to 100 ms later (swapon tends to)
	if [ "$i" -gt 10 ]; then sleep "$(printf '0.%03d' $(((i - 10) * 10)))"; fi
	removed=0
	echo "$n" >"$control/hot_remove" 2>/dev/null && removed=1
	swapped=0
	wait "$swapon_pid" && swapped=1
	on=0
	if grep -q "^/dev/ghostswap$n " /proc/swaps; then on=1; fi
	if [ $((removed + swapped)) -ne 1 ] || [ "$on" -ne "$swapped" ]; then
		gs_fail "round $i: hot_remove $removed, swapon $swapped, in /proc/swaps $on"
	fi
	if [ "$swapped" -eq 1 ]; then
		swapoff "/dev/ghostswap$n"
		echo "$n" >"$control/hot_remove" || gs_fail "round $i: hot_remove after swapoff failed"
	fi
	wins+=("$removed")
done
gs_log "hot_remove won $(grep -o 1 <<<"${wins[*]}" | wc -l) of 20 races against swapon"
