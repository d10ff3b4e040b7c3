#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boot the ghostswap kernel in QEMU and run one command in the guest (without a command: the demo).
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/scripts/lib.sh"

usage() {
	cat <<'EOF'
Usage: ./run-qemu.sh [OPTIONS] [-- CMD [ARG...]]

Boots the ghostswap guest kernel in QEMU (TCG) on a throw-away overlay of the Debian rootfs and runs CMD
in the guest, in /gs (a writable per-run copy of the project: tests/, bench/, module/ with the built
ghostswap.ko, bin/ with the built test programs). Without "-- CMD" it runs the demo (tests/demo.sh).
Whatever is missing (kernel variant, module, rootfs) is built first.

Options:
  --kernel release|debug  kernel variant (default release; debug = KASAN, lockdep, kmemleak, fault injection)
  --mem MIB               guest memory (default 1024)
  --cpus N                guest CPUs (default 2)
  --disk MIB              add a blank disk of MIB MiB; repeatable: /dev/vdb, /dev/vdc, ... in order
  --copy PATH             copy a host file or folder into the guest as /tmp/host/<name>; repeatable
  --timeout S             kill QEMU after S seconds (default 900)
  --append ARGS           extra kernel command line arguments (e.g. debug_pagealloc=on)
  --quiet                 do not echo the console to the terminal (it is always in console.log)
  --keep                  keep the run's disk images (default: only console.log is kept)
  -h, --help              this help

Guest: root=/dev/vda (overlay of the rootfs), the --disk disks, then the project disk (serial gs-project,
mounted at /gs, the cwd of CMD). CMD runs with bash, stdin /dev/null, output on the console; the guest
prints "GHOSTSWAP-EXIT-<nonce>: N" and reboots, which ends QEMU (-no-reboot).

Exit status: CMD's status; 124 if QEMU was killed at --timeout; 125 if CMD succeeded but the console shows a
kernel splat (WARNING, BUG, Oops, KASAN, lockdep, kmemleak leaks, hung task, panic, Call Trace...);
123 if the guest ended without reporting an exit status (and no splat explains it); 122 if a build failed;
2 for bad usage. The console log is kept in $GHOSTSWAP_CACHE/runs/<time>-<pid>/console.log.

Environment: GHOSTSWAP_CACHE (cache, default ~/.cache/ghostswap), GHOSTSWAP_ACCEL=kvm to use KVM instead
of TCG, GHOSTSWAP_SERIES (series file instead of hook-patch/series), GHOSTSWAP_NO_BUILD=1 (use what is
built, build nothing).
EOF
}

bad_usage() {
	printf 'run-qemu.sh: %s (see --help)\n' "$*" >&2
	exit 2
}

variant=release mem=1024 cpus=2 timeout=900 append='' quiet=0 keep=0
disks=() copies=() cmd=()
while [ $# -gt 0 ]; do
	case $1 in
	--kernel | --mem | --cpus | --disk | --copy | --timeout | --append)
		[ $# -ge 2 ] || bad_usage "$1 needs an argument"
		case $1 in
		--kernel) variant=$2 ;;
		--mem) mem=$2 ;;
		--cpus) cpus=$2 ;;
		--disk) disks+=("$2") ;;
		--copy) copies+=("$2") ;;
		--timeout) timeout=$2 ;;
		--append) append="$append $2" ;;
		esac
		shift 2
		;;
	--quiet) quiet=1 && shift ;;
	--keep) keep=1 && shift ;;
	-h | --help) usage && exit 0 ;;
	--) shift && cmd=("$@") && break ;;
	*) bad_usage "unknown argument '$1'" ;;
	esac
done
case $variant in release | debug) ;; *) bad_usage "--kernel wants release or debug, not '$variant'" ;; esac
for n in "$mem" "$cpus" "$timeout" "${disks[@]}"; do
	[[ $n =~ ^[1-9][0-9]*$ ]] || bad_usage "'$n' is not a positive number"
done
for c in "${copies[@]}"; do
	[ -e "$c" ] || bad_usage "--copy $c: no such file or folder"
done
[ "${#disks[@]}" -le 20 ] || bad_usage "at most 20 --disk"

# --- build what is missing (quiet when up to date)
if [ "${GHOSTSWAP_NO_BUILD:-0}" != 1 ]; then
	t=$(gs_now)
	export GS_QUIET=1
	"$GS_TOP/scripts/build-kernel.sh" "$variant" || exit 122
	"$GS_TOP/scripts/build-module.sh" "$variant" || exit 122
	"$GS_TOP/scripts/build-progs.sh" || exit 122
	"$GS_TOP/rootfs/build.sh" || exit 122
	unset GS_QUIET
	[ $(($(gs_now) - t)) -lt 2 ] || gs_msg "builds checked/done in $(gs_elapsed "$t")"
fi
gs_need_pkgs qemu-system-x86 qemu-utils e2fsprogs rsync gcc
kbase=$GS_BUILD/$variant
bzimage=$kbase/obj/arch/x86/boot/bzImage
base_img=$GS_CACHE/rootfs/base.img
if [ ! -f "$bzimage" ] || [ ! -f "$kbase/stamp" ]; then
	gs_die "kernel $variant is not built, or its last build failed (run scripts/build-kernel.sh $variant)"
fi
[ -f "$base_img" ] || gs_die "no rootfs $base_img (run rootfs/build.sh)"

# --- the run folder: console log, overlay, disks, project image
runs=$GS_CACHE/runs
run=$runs/$(date +%Y%m%d-%H%M%S)-$$
mkdir -p "$run"
# Keep the 30 newest runs.
find "$runs" -mindepth 1 -maxdepth 1 -type d -printf '%T@ %p\n' | sort -rn | tail -n +31 | cut -d' ' -f2- |
	xargs -r rm -rf
console=$run/console.log
gs_msg "run folder: $run"

# The guest's /gs/logs (per-test logs, test results) is copied out of the project image to $run/logs
# before the images go: the console can interleave kernel messages with a job's output, this cannot.
# shellcheck disable=SC2317  # run by the EXIT trap
cleanup() {
	if [ -f "$run/project.img" ]; then
		debugfs -R "rdump /logs $run" "$run/project.img" >/dev/null 2>&1 || true
	fi
	[ "$keep" = 1 ] || rm -rf "$run/project" "$run"/*.img "$run"/*.qcow2
}
trap cleanup EXIT

qemu-img create -q -f qcow2 -b "$base_img" -F raw "$run/root.qcow2"
# Disks are virtio-blk PCI devices in command-line order, which is the guest's vda, vdb, ... order.
drives=()
add_disk() { # add_disk ID FILE FORMAT [DEVICE-OPTIONS]
	drives+=(-drive "file=$2,if=none,id=$1,format=$3,cache=unsafe,discard=unmap" -device "virtio-blk-pci,drive=$1${4:+,$4}")
}
add_disk root "$run/root.qcow2" qcow2
i=0
for d in "${disks[@]}"; do
	truncate -s "${d}M" "$run/disk$i.img"
	add_disk "disk$i" "$run/disk$i.img" raw
	i=$((i + 1))
done

# The project disk: a per-run copy of the repo's test material plus what was built for this variant.
p=$run/project
mkdir -p "$p/.gs" "$p/bin" "$p/host" "$p/module" "$p/hook-patch"
rsync -a --exclude='*.o' --exclude='.*.cmd' "$GS_TOP/tests" "$p/"
rsync -a "$GS_TOP/bench" "$p/"
rsync -a --exclude='*.o' --exclude='*.ko' --exclude='.*.cmd' "$GS_TOP/module/" "$p/module/"
[ -f "$kbase/ext/.stamp" ] && cp "$kbase/ext/ghostswap.ko" "$p/module/"
[ -f "$(gs_series_file)" ] && cp "$(gs_series_file)" "$p/hook-patch/series"
if [ -d "$GS_BUILD/progs/bin" ]; then
	cp -a "$GS_BUILD/progs/bin/." "$p/bin/"
fi
for c in "${copies[@]}"; do
	cp -a "$c" "$p/host/"
done
nonce=$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')
printf '%s\n' "$nonce" >"$p/.gs/nonce"
{
	printf 'export GS_KERNEL_VARIANT=%q\n' "$variant"
	printf 'export GS_KERNEL_UTS_VERSION=%q\n' \
		"$(sed -n 's/^#define UTS_VERSION "\(.*\)"$/\1/p' "$kbase/obj/include/generated/utsversion.h")"
	printf 'export GS_KERNEL_PATCHES=%q\n' "$(cat "$kbase/applied-patches" 2>/dev/null)"
	printf 'export GS_MEM_MIB=%q GS_CPUS=%q\n' "$mem" "$cpus"
	# shellcheck disable=SC2016  # expanded in the guest
	printf 'export PATH=/gs/bin:$PATH\n'
} >"$p/.gs/env"
if [ "${#cmd[@]}" -eq 0 ]; then
	cmd=(bash tests/demo.sh)
	what="demo (tests/demo.sh)"
else
	what="${cmd[*]}"
fi
printf '%q ' "${cmd[@]}" >"$p/.gs/cmd"
echo >>"$p/.gs/cmd"
size=$(($(du -sm "$p" | cut -f1) * 2 + 256))
truncate -s "${size}M" "$run/project.img"
mkfs.ext4 -q -F -L gs-project -d "$p" "$run/project.img" >"$run/mkfs.log" 2>&1 ||
	gs_die "project disk: mkfs.ext4 -d failed (log: $run/mkfs.log)"
add_disk project "$run/project.img" raw serial=gs-project

# Under TCG a vCPU can stall for tens of seconds when the host (itself a VM here) is busy; the soft lockup
# watchdog (2 x watchdog_thresh) then reports a lockup that is not the guest's. A 60 s threshold keeps
# real lockups (reported after 120 s) and drops those. The same goes for the RCU stall detector (21 s by
# default; 300 s is its maximum) and the hung-task detector (120 s): under TCG, KASAN and a busy host a
# swapoff that reads back a device's worth of pages can hold a lock that long, and a task waiting on it is
# not hung. Real hangs still fail: a test that does not end hits its timeout.
if [ "${GHOSTSWAP_ACCEL:-tcg}" = kvm ]; then
	accel=(-accel kvm -cpu host)
	accel_append=''
else
	# No 5-level paging (la57=off), as on most real x86 machines: 7.3 asks the boot CPU's feature bits
	# whether it is on (pgtable_l5_enabled()), and identify_cpu() rewrites them with interrupts enabled.
	# An interrupt in that window once found KASAN's idea of the address space changed under it and
	# reported its own descriptor as a wild-memory-access (handle_edge_irq, a debug guest in CI).
	accel=(-accel tcg -cpu 'max,la57=off')
	accel_append=' watchdog_thresh=60 rcupdate.rcu_cpu_stall_timeout=300 sysctl.kernel.hung_task_timeout_secs=600'
	# Under TCG the guest's TSC is the host's, but the guest calibrates it against the emulated PIT, which a
	# busy host throws off: once by 46 x, and every timeout in that guest fired 46 x early. Tell the guest
	# the host's TSC rate (scripts/host-tsc-khz.c); it refines the value against its HPET.
	if [ "$(uname -m)" = x86_64 ]; then
		tsc_tool=$GS_BUILD/host/tsc-khz
		if [ ! "$tsc_tool" -nt "$GS_TOP/scripts/host-tsc-khz.c" ]; then
			mkdir -p "$GS_BUILD/host"
			gcc -O2 -o "$tsc_tool.$$" "$GS_TOP/scripts/host-tsc-khz.c" ||
				gs_die "could not build $tsc_tool from scripts/host-tsc-khz.c"
			mv "$tsc_tool.$$" "$tsc_tool"
		fi
		tsc_khz=$("$tsc_tool") || gs_die "$tsc_tool could not measure the host's TSC rate"
		accel_append="$accel_append tsc_early_khz=$tsc_khz"
	fi
fi
qemu=(qemu-system-x86_64 -machine q35 "${accel[@]}" -smp "$cpus" -m "$mem" -nographic -no-reboot -nic none
	-kernel "$bzimage"
	-append "console=ttyS0 root=/dev/vda rw init=/sbin/gs-init panic=-1$accel_append ${append# }"
	"${drives[@]}")
printf '%q ' "${qemu[@]}" >"$run/qemu-cmdline"
echo >>"$run/qemu-cmdline"

# --- boot
gs_msg "booting kernel $variant ($(cat "$kbase/obj/include/config/kernel.release")), ${mem} MiB, $cpus CPU(s), timeout ${timeout}s: $what"
gs_msg "console log: $console"
t_boot=$(gs_now)
qrc=0
if [ "$quiet" = 1 ]; then
	timeout -k 10 "$timeout" "${qemu[@]}" </dev/null >"$console" 2>&1 || qrc=$?
else
	set +o pipefail
	timeout -k 10 "$timeout" "${qemu[@]}" </dev/null 2>&1 | tee "$console"
	qrc=${PIPESTATUS[0]}
	set -o pipefail
fi
elapsed=$(gs_elapsed "$t_boot")
# A guest clock that ran fast (a TSC calibrated wrong) makes every timeout in the guest fire early: say so.
guest_secs=$(tr -d '\r' <"$console" | sed -n 's/^\[ *\([0-9][0-9]*\)\.[0-9]*\].*/\1/p' | tail -n 1)
if [ -n "$guest_secs" ] && [ "$guest_secs" -gt $((${elapsed%s} * 2 + 30)) ]; then
	gs_msg "GUEST CLOCK: the guest counted ${guest_secs}s in ${elapsed} of host time, so its timeouts fired" \
		"early (see its 'tsc:' lines in $console)"
fi

# --- verdict
status=$(tr -d '\r' <"$console" | sed -n "s/.*GHOSTSWAP-EXIT-$nonce: \([0-9][0-9]*\).*/\1/p" | tail -n 1)
splats=$(gs_scan_splats "$console" || true)
timed_out=0
if [ "$qrc" -eq 124 ] || [ "$qrc" -eq 137 ]; then
	timed_out=1
fi

if [ -n "$splats" ]; then
	gs_msg "KERNEL SPLAT in $console:"
	printf '%s\n' "$splats" | sed 's/^/    /' >&2
fi
if [ -n "$status" ]; then
	rc=$status
	[ "$timed_out" = 1 ] && gs_msg "note: the job had ended but the guest did not power off; QEMU was killed"
	if [ "$rc" -eq 0 ] && [ -n "$splats" ]; then
		rc=125
	fi
	gs_msg "guest job exited $status after ${elapsed} (boot + job); run-qemu.sh exit $rc; console log: $console"
elif [ "$timed_out" = 1 ]; then
	rc=124
	gs_msg "TIMEOUT: QEMU killed after ${timeout}s without the job finishing; exit 124; console log: $console"
elif [ -n "$splats" ]; then
	rc=125
	gs_msg "guest died without an exit status (kernel splat above) after ${elapsed}; exit 125; console log: $console"
else
	rc=123
	gs_msg "guest ended without an exit status (QEMU exit $qrc) after ${elapsed}; exit 123; console log: $console"
	tail -n 15 "$console" | sed 's/^/    /' >&2
fi
printf 'status=%s\nrc=%s\nqemu_rc=%s\ntimed_out=%s\nsplat=%s\nelapsed=%s\n' "${status:-}" "$rc" "$qrc" \
	"$timed_out" "$([ -n "$splats" ] && echo 1 || echo 0)" "$elapsed" >"$run/result"
exit "$rc"
