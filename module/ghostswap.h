/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ghostswap: what the device core (ghostswap.c) and its backends share.
 *
 * A backend is a lower tier for the pages zswap does not keep: with one
 * attached, the core registers swap_ops that send those pages, and those
 * zswap writes back, to the backend instead of keeping them in memory.
 * A backend lists itself in ghost_backends[] (ghostswap.c) and attaches
 * itself to /dev/ghostswap when the user configures it (e.g. a module
 * parameter), through ghost_backend_set() while that device is not swapped
 * on.  Hot-added devices (/dev/ghostswapN) have no backend.
 */
#ifndef _GHOSTSWAP_H
#define _GHOSTSWAP_H

#include <linux/device.h>
#include <linux/huge_mm.h>
#include <linux/mutex.h>
#include <linux/swap_ops.h>
#include <linux/sysfs.h>

/* The swap core's cluster size (SWAPFILE_CLUSTER in mm/swap.h) */
#ifdef CONFIG_THP_SWAP
#define GHOST_CLUSTER_SLOTS	HPAGE_PMD_NR
#else
#define GHOST_CLUSTER_SLOTS	256
#endif

/**
 * struct ghost_backend - a lower tier behind the ghost device
 * @name: shown in the log when attached
 * @init: called at module load, before /dev/ghostswap is registered; may
 *	attach
 * @exit: called at module unload, after /dev/ghostswap is gone; detaches
 * @stats: NULL-terminated attributes shown in the core's stats/ directory
 * @swapon: the device is being swapped on with this backend
 * @slots_free: as swap_ops->slots_free
 * @slots_stale: as swap_ops->folio_stored, for the folio's @nr slots from
 *	@offset
 * @submit_write: as swap_ops->submit_write, for pages zswap did not keep
 * @submit_read: as swap_ops->submit_read
 * @may_write: whether a write would find room on a working device now;
 *	called without sleeping before every slot the device hands out
 *
 * The swap_ops callbacks are only called between @swapon and the end of
 * swapoff, with the semantics of include/linux/swap_ops.h.
 */
struct ghost_backend {
	const char *name;
	int (*init)(void);
	void (*exit)(void);
	struct attribute *const *stats;

	void (*swapon)(struct swap_info_struct *sis);
	void (*slots_free)(pgoff_t offset, unsigned int nr);
	void (*slots_stale)(pgoff_t offset, unsigned int nr);
	void (*submit_write)(struct swap_io_ctx *ctx);
	void (*submit_read)(struct swap_io_ctx *ctx);
	bool (*may_write)(void);
};

extern const struct ghost_backend ghost_bdev_backend;

/*
 * Serializes backend changes against swapon and swapoff of /dev/ghostswap
 * (and every device's configuration); the backend in use cannot change
 * while the device is swapped on.
 */
extern struct mutex ghost_config_mutex;

bool ghost_swapped_on(void);
void ghost_backend_set(const struct ghost_backend *backend);
int ghost_parse_bytes(const char *name, const char *val, u64 *bytes);

/* A read-only stats/ file showing an atomic_long_t counter */
#define GHOST_COUNTER_ATTR(name, counter)				\
static ssize_t name##_show(struct device *dev,				\
			   struct device_attribute *attr, char *buf)	\
{									\
	return sysfs_emit(buf, "%ld\n", atomic_long_read(&(counter)));	\
}									\
static DEVICE_ATTR_RO(name)

#endif /* _GHOSTSWAP_H */
