# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# MADV_PAGEOUT pushes a region to /dev/ghostswap (zswap and the zero flag), and it reads back intact.
. tests/lib/ghost.sh
ghost_setup
region_kib=$(($(ghost_work_kib) / 2))
zswpout0=$(gs_vmstat zswpout) used0=$(ghost_stat slots_used)
ghost_pressure gs-memtest --size ${region_kib}K --mix 1:2:1 --pageout --passes 2 || gs_fail "gs-memtest failed"
zswpout=$(($(gs_vmstat zswpout) - zswpout0))
gs_log "zswpout +$zswpout for a region of $((region_kib / 4)) pages; slots used before $used0"
# Half the pages are compressible data (the mix 1:2:1): paged out twice, most of them reach zswap.
[ "$zswpout" -ge $((region_kib / 4 / 2)) ] || gs_fail "MADV_PAGEOUT sent only $zswpout pages to zswap"
