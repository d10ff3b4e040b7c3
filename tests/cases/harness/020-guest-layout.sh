# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The guest layout tests rely on: cwd /gs (writable), --disk disks as vdb, vdc in order, /gs/bin on PATH.
[ "$PWD" = /gs ] || gs_fail "cwd is $PWD, wanted /gs"
touch /gs/logs/.writable || gs_fail "/gs is not writable"
lsblk -b -d -n -o NAME,SIZE
[ "$(lsblk -b -d -n -o SIZE /dev/vdb)" -eq $((64 << 20)) ] || gs_fail "/dev/vdb is not the 64 MiB --disk"
[ "$(lsblk -b -d -n -o SIZE /dev/vdc)" -eq $((32 << 20)) ] || gs_fail "/dev/vdc is not the 32 MiB --disk"
[ "$(cat /sys/block/vdd/serial)" = gs-project ] || gs_fail "/dev/vdd is not the project disk"
case :$PATH: in *:/gs/bin:*) ;; *) gs_fail "/gs/bin not on PATH ($PATH)" ;; esac
[ "$(nproc)" -eq "$GS_CPUS" ] || gs_fail "nproc $(nproc), wanted $GS_CPUS"
free -m
