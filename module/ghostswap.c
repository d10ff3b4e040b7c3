// SPDX-License-Identifier: GPL-2.0
/*
 * ghostswap - a swap device with no backing store, sized as a number.
 *
 * /dev/ghostswap is a character device that swapon(8) accepts as it is:
 * reading it returns a SWAPSPACE2 header, and opening it points the file at
 * a pseudo inode whose address_space operations provide that header to
 * swapon(2) and register our swap_ops through ->swap_activate().  The swap
 * core then maps the device's cluster array as it uses it
 * (SWAP_OPS_F_DYNAMIC), so an unused device costs a page whatever its size.
 * Without a backend, every page zswap refuses stays in memory
 * (SWAP_OPS_F_NO_BACKING); with one (ghostswap.h), those pages and the ones
 * zswap writes back go to it.
 *
 * More devices, /dev/ghostswap1 and up, are created and removed at run time
 * through /sys/class/ghostswap-control/ (hot_add, hot_remove), as zram's
 * are; each has its own size, statistics and swap priority.  A backend
 * attaches to /dev/ghostswap only; the others keep nothing but zswap's.
 *
 * Usage: insmod ghostswap.ko [size=BYTES] [backing_dev=PATH];
 *        swapon /dev/ghostswap
 * Statistics: /sys/class/misc/ghostswap{,N}/stats/
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/fs.h>
#include <linux/fs_context.h>
#include <linux/highmem.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mount.h>
#include <linux/overflow.h>
#include <linux/pagemap.h>
#include <linux/percpu.h>
#include <linux/pseudo_fs.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/swap.h>
#include <linux/swap_ops.h>
#include <linux/swapops.h>
#include <linux/uaccess.h>
#include <linux/uuid.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <linux/zswap.h>

#include "ghostswap.h"

/* Highest slot count a swap header can describe, in whole clusters */
#define GHOST_MAX_SLOTS	round_down((u64)U32_MAX, GHOST_CLUSTER_SLOTS)

#define GHOSTSWAP_MAGIC	0x67687377	/* "ghsw" */

/*********************************
 * tunables
 *********************************/
/*
 * /dev/ghostswap's size in bytes as last asked for (size=, its size
 * attribute); 0: the default, which hot-added devices start with too
 */
static u64 ghost_size;

/**
 * ghost_parse_bytes() - parse a module parameter given in bytes
 * @name: the parameter's name, for the error message
 * @val: digits, optionally followed by K, M, G or T (binary units)
 * @bytes: the result
 *
 * Return: 0, or -EINVAL or -ERANGE after logging what is wrong with @val.
 */
int ghost_parse_bytes(const char *name, const char *val, u64 *bytes)
{
	static const char suffixes[] = "KMGT";
	char digits[24];
	int vlen = strcspn(val, "\n");	/* sysfs writes end in a newline */
	size_t len = vlen;
	const char *unit = len ? strchr(suffixes, toupper(val[len - 1])) : NULL;
	unsigned int shift = 0;
	u64 number;

	if (unit && *unit) {
		shift = 10 * (unit - suffixes + 1);
		len--;
	}
	if (!len || len >= sizeof(digits))
		goto invalid;
	memcpy(digits, val, len);
	digits[len] = '\0';
	switch (kstrtou64(digits, 10, &number)) {
	case 0:
		break;
	case -ERANGE:
		goto too_large;
	default:
		goto invalid;
	}
	if (check_shl_overflow(number, shift, bytes))
		goto too_large;
	return 0;

invalid:
	pr_err("%s=%.*s is not a size: give bytes, optionally with a K, M, G or T suffix\n",
	       name, vlen, val);
	return -EINVAL;
too_large:
	pr_err("%s=%.*s does not fit in 64 bits\n", name, vlen, val);
	return -ERANGE;
}

/* Parse a device size: bytes, at least one swap cluster. */
static int ghost_size_parse(const char *val, u64 *bytes)
{
	int ret = ghost_parse_bytes("size", val, bytes);

	if (!ret && *bytes < (u64)GHOST_CLUSTER_SLOTS * PAGE_SIZE) {
		pr_err("size=%.*s is below the minimum of %lu bytes (one swap cluster)\n",
		       (int)strcspn(val, "\n"), val,
		       GHOST_CLUSTER_SLOTS * PAGE_SIZE);
		ret = -EINVAL;
	}
	return ret;
}

static int ghost_size_set(const char *val, const struct kernel_param *kp)
{
	u64 bytes;
	int ret = ghost_size_parse(val, &bytes);

	if (!ret)
		*(u64 *)kp->arg = bytes;
	return ret;
}

/* Whole clusters, at most what a swap header describes. */
static unsigned long ghost_size_slots(u64 bytes)
{
	u64 slots = round_down(bytes >> PAGE_SHIFT, GHOST_CLUSTER_SLOTS);

	if (slots > GHOST_MAX_SLOTS) {
		pr_notice("size %llu clamped to %llu bytes, the largest a swap header describes\n",
			  bytes, GHOST_MAX_SLOTS << PAGE_SHIFT);
		slots = GHOST_MAX_SLOTS;
	}
	return slots;
}

static const struct kernel_param_ops ghost_size_ops = {
	.set	= ghost_size_set,
	.get	= param_get_ullong,
};
module_param_cb(size, &ghost_size_ops, &ghost_size, 0444);
MODULE_PARM_DESC(size,
		 "Device size in bytes, K/M/G/T suffixes accepted (default: 8 x RAM)");

/*********************************
 * device state
 *********************************/
/* Backends /dev/ghostswap can use; each attaches itself when configured. */
static const struct ghost_backend *const ghost_backends[] = {
	&ghost_bdev_backend,
};

/*
 * Guards what struct ghost_device says it does, for every device.  Taken
 * under misc_mtx by ghost_open(), so never held across misc_register() or
 * misc_deregister().
 */
DEFINE_MUTEX(ghost_config_mutex);

/*
 * One device: /dev/ghostswap (id 0) or a hot-added /dev/ghostswapN.  Set up
 * when it is created and constant until it is removed, except:
 * @nr_slots, @open_files and @removed, written under ghost_config_mutex
 * (@nr_slots read locklessly by sysfs);
 * @swap_info, written by ->swap_activate()/->swap_deactivate() under
 * ghost_config_mutex, read locklessly by sysfs;
 * @backend (/dev/ghostswap only), written under ghost_config_mutex while the
 * device is not swapped on, so constant for the swap core's callbacks;
 * @full, written by @full_work only, read locklessly by ghost_may_alloc();
 * the statistics, updated without locks by the swap core's callbacks and
 * read through sysfs (only @slots_used_peak needs a compare-and-exchange).
 */
struct ghost_device {
	int id;
	char name[16];			/* ghostswap, ghostswap1, ... */
	struct miscdevice misc;
	union swap_header *header;	/* what reads of the device return */
	struct inode *inode;		/* f_mapping of every open file */
	unsigned long nr_slots;		/* size in pages */
	unsigned int open_files;
	bool removed;			/* hot_remove began: no more opens */
	struct swap_info_struct *swap_info;	/* while swapped on */
	const struct ghost_backend *backend;	/* NULL: no backing store */
	bool full;			/* see ghost_full_check() */
	struct delayed_work full_work;
	struct list_head on_node;	/* in ghost_on_list while on */

	unsigned long __percpu *slots_freed;
	atomic_long_t slots_used_peak;	/* since swapon */
	atomic_long_t pages_kept;	/* zswap refused, kept in RAM */
	atomic_long_t step_asides;	/* slot allocations declined */
	bool stepping_aside;		/* the last one was declined */
	atomic_long_t full_periods;	/* times @full was set */
};

/* The devices swapped on, under ghost_config_mutex */
static LIST_HEAD(ghost_on_list);

/* The pseudo file system holding every device's inode */
static struct vfsmount *ghost_mnt;

/* /dev/ghostswap, there from module init to exit, numbered 0 */
static struct ghost_device *ghost_first;

/*
 * The hot-added devices by number.  ghost_devices_mutex serializes adding
 * and removing them.
 */
static DEFINE_MUTEX(ghost_devices_mutex);
static DEFINE_XARRAY_ALLOC(ghost_devices);

/* Every open file, swapon's included, points at its device's inode. */
static struct ghost_device *ghost_of_file(struct file *file)
{
	return file->f_mapping->host->i_private;
}

/* Valid from swapon's enable_swap_info() until swapoff has freed every slot */
static struct ghost_device *ghost_of_sis(struct swap_info_struct *sis)
{
	return ghost_of_file(sis->swap_file);
}

/*
 * /dev/ghostswap is in use from swapon to ->swap_deactivate(), which swapoff
 * calls once every slot is free.  Caller holds ghost_config_mutex.
 */
bool ghost_swapped_on(void)
{
	lockdep_assert_held(&ghost_config_mutex);
	return ghost_first->swap_info;
}

/* Use @backend (NULL for none) on /dev/ghostswap from its next swapon. */
void ghost_backend_set(const struct ghost_backend *backend)
{
	lockdep_assert_held(&ghost_config_mutex);
	if (WARN_ON_ONCE(ghost_swapped_on()))
		return;
	ghost_first->backend = backend;
	if (backend)
		pr_info("backend: %s\n", backend->name);
}

/*********************************
 * swap_ops
 *********************************/
static void ghost_slots_free(struct swap_info_struct *sis, pgoff_t offset,
			     unsigned int nr)
{
	struct ghost_device *dev = ghost_of_sis(sis);

	this_cpu_add(*dev->slots_freed, nr);
	if (dev->backend)
		dev->backend->slots_free(offset, nr);
}

static void ghost_folio_stored(struct swap_info_struct *sis,
			       struct folio *folio)
{
	ghost_of_sis(sis)->backend->slots_stale(swp_offset(folio->swap),
						folio_nr_pages(folio));
}

static void ghost_folio_kept(struct swap_info_struct *sis, struct folio *folio)
{
	atomic_long_add(folio_nr_pages(folio), &ghost_of_sis(sis)->pages_kept);
}

/* The swap table's zero flag holds such a folio: it needs no store. */
static bool ghost_folio_zero_filled(struct folio *folio)
{
	unsigned long i;
	bool zero = true;

	for (i = 0; zero && i < folio_nr_pages(folio); i++) {
		void *addr = kmap_local_folio(folio, i * PAGE_SIZE);

		zero = !memchr_inv(addr, 0, PAGE_SIZE);
		kunmap_local(addr);
	}
	return zero;
}

/*
 * Whether zswap could store a folio of some cgroup now.  A device with a
 * backend is never full: its disk makes room by cleaning, and declining
 * every folio until the next poll would starve one-shot writers such as
 * MADV_PAGEOUT while it does; the backend declines folios one by one.
 */
static bool ghost_has_room(struct ghost_device *dev)
{
	return dev->backend || zswap_may_store(NULL);
}

/*
 * A device is full while it has no backend and zswap has no room for any
 * cgroup.  Declining each folio then is not enough: reclaim would still count
 * our free slots as swap space, go on isolating anonymous folios only to keep
 * them, and hold off the OOM killer for minutes.  So the free slots are
 * withheld from the swap core's count until there is room again, unless
 * another swap device has free slots: reclaim should then go on swapping to
 * it, and withholding would only make vm_swap_full() true, which drops the
 * swap cache of every page swapped in from that device, so that each must be
 * written again when reclaimed.  Nothing says when there is room again (a
 * raised pool limit, zswap writing back another device's pages, entries
 * freed), so full_work polls while full.
 */
#define GHOST_FULL_POLL	(HZ / 10)

/*
 * Free slots that reclaim could use: those of every swap device but the
 * full ghost devices.  Caller holds ghost_config_mutex.  Racy, as any count
 * of free swap.
 */
static long ghost_usable_free(void)
{
	long free = get_nr_swap_pages();
	struct ghost_device *dev;

	list_for_each_entry(dev, &ghost_on_list, on_node) {
		struct swap_info_struct *sis = dev->swap_info;

		if (dev->full)
			free -= sis->pages - swap_usage_in_pages(sis) -
				READ_ONCE(sis->withheld_pages);
	}
	return free;
}

static void ghost_full_check(struct work_struct *work)
{
	struct ghost_device *dev = container_of(to_delayed_work(work),
						struct ghost_device, full_work);
	struct swap_info_struct *sis;
	bool full = !ghost_has_room(dev);

	mutex_lock(&ghost_config_mutex);
	sis = dev->swap_info;
	if (!sis)
		full = false;
	if (full && !dev->full) {
		WRITE_ONCE(dev->full, true);
		atomic_long_inc(&dev->full_periods);
		/*
		 * Allocations that passed ghost_may_alloc() before it saw
		 * @full run with preemption disabled: let them finish
		 * before their slots are counted as free, and withheld.
		 */
		synchronize_rcu();
	}
	WRITE_ONCE(dev->full, full);
	if (sis)
		swap_withhold_free(sis, full && ghost_usable_free() <= 0);
	mutex_unlock(&ghost_config_mutex);
	if (full)
		schedule_delayed_work(&dev->full_work, GHOST_FULL_POLL);
}

/*
 * The swap allocator asks before it gives @folio a slot: decline while
 * neither zswap nor the backend could store it, so that the folio goes to
 * the next swap device by priority, or stays mapped, instead of being
 * unmapped only to be kept in memory (and faulted back, again and again).
 * Zero-filled folios are welcome unless the device is full; a folio still
 * mapped may change before it is written out, and then be kept as before.
 */
static bool ghost_may_alloc(struct swap_info_struct *sis, struct folio *folio)
{
	struct ghost_device *dev = ghost_of_sis(sis);
	long used = swap_usage_in_pages(sis);
	long peak = atomic_long_read(&dev->slots_used_peak);
	bool ok = !READ_ONCE(dev->full) &&
		  (zswap_may_store(folio) ||
		   (dev->backend && dev->backend->may_write()) ||
		   ghost_folio_zero_filled(folio));

	while (used > peak &&
	       !atomic_long_try_cmpxchg(&dev->slots_used_peak, &peak, used))
		;

	if (READ_ONCE(dev->stepping_aside) == ok)
		WRITE_ONCE(dev->stepping_aside, !ok);
	if (ok)
		return true;
	atomic_long_inc(&dev->step_asides);
	if (!READ_ONCE(dev->full) && !delayed_work_pending(&dev->full_work) &&
	    !ghost_has_room(dev))
		schedule_delayed_work(&dev->full_work, 0);
	return false;
}

/*
 * With SWAP_OPS_F_NO_BACKING the swap core never writes to the device and
 * every slot's data is zero-flagged or in zswap, so no I/O should reach it.
 * Should one come, fail it: a failed write leaves the folio dirty in memory,
 * a failed read is reported to the faulting task as for any swap device.
 */
static void ghost_fail_io(struct swap_io_ctx *ctx, int rw)
{
	struct swap_iocb *sio = ctx->sio;
	struct iov_iter iter;

	pr_err_ratelimited("unexpected %s of %d bytes: no backing store\n",
			   rw == WRITE ? "write" : "read", sio->len);
	swap_fs_prepare_rw(ctx, rw, &iter);
	sio->iocb.ki_complete(&sio->iocb, -EIO);
}

static void ghost_fail_write(struct swap_io_ctx *ctx)
{
	ghost_fail_io(ctx, WRITE);
}

static void ghost_fail_read(struct swap_io_ctx *ctx)
{
	ghost_fail_io(ctx, READ);
}

static const struct swap_ops ghost_swap_ops = {
	.flags		= SWAP_OPS_F_DYNAMIC | SWAP_OPS_F_NO_BACKING,
	.can_merge	= swap_fs_can_merge,
	.submit_write	= ghost_fail_write,
	.submit_read	= ghost_fail_read,
	.slots_free	= ghost_slots_free,
	.folio_kept	= ghost_folio_kept,
	.may_alloc	= ghost_may_alloc,
};

static void ghost_backend_write(struct swap_io_ctx *ctx)
{
	ghost_of_sis(ctx->sis)->backend->submit_write(ctx);
}

static void ghost_backend_read(struct swap_io_ctx *ctx)
{
	ghost_of_sis(ctx->sis)->backend->submit_read(ctx);
}

/* The backend places every page itself: any batch of the device can merge. */
static bool ghost_backend_can_merge(struct folio *folio,
				    struct folio *prev_folio,
				    size_t prev_folio_size, int rw)
{
	return true;
}

static const struct swap_ops ghost_backed_swap_ops = {
	.flags		= SWAP_OPS_F_DYNAMIC,
	.can_merge	= ghost_backend_can_merge,
	.submit_write	= ghost_backend_write,
	.submit_read	= ghost_backend_read,
	.slots_free	= ghost_slots_free,
	.folio_stored	= ghost_folio_stored,
	.may_alloc	= ghost_may_alloc,
};

/*********************************
 * swap header and swapon glue
 *********************************/
static void ghost_fill_header(struct ghost_device *dev)
{
	union swap_header *header = dev->header;
	uuid_t uuid;

	memset(header, 0, PAGE_SIZE);
	header->info.version = 1;
	header->info.last_page = dev->nr_slots - 1;
	uuid_gen(&uuid);
	memcpy(header->info.sws_uuid, &uuid, sizeof(header->info.sws_uuid));
	strscpy(header->info.sws_volume, dev->name);
	memcpy(header->magic.magic, "SWAPSPACE2", sizeof(header->magic.magic));
}

/*
 * The size the next swapon takes: the header's, whose cached page goes (a
 * swapon reading it meanwhile may see either size: see activation).
 */
static void ghost_set_slots(struct ghost_device *dev, unsigned long slots)
{
	lockdep_assert_held(&ghost_config_mutex);
	WRITE_ONCE(dev->nr_slots, slots);
	WRITE_ONCE(dev->header->info.last_page, slots - 1);
	i_size_write(dev->inode, (loff_t)slots << PAGE_SHIFT);
	truncate_inode_pages(dev->inode->i_mapping, 0);
}

/* Page 0 of the pseudo inode is the header; swapon(2) reads nothing else. */
static int ghost_read_folio(struct file *file, struct folio *folio)
{
	struct ghost_device *dev = folio->mapping->host->i_private;

	if (folio->index)
		folio_zero_range(folio, 0, folio_size(folio));
	else
		memcpy_to_folio(folio, 0, (char *)dev->header, PAGE_SIZE);
	folio_mark_uptodate(folio);
	folio_unlock(folio);
	return 0;
}

static int ghost_swap_activate(struct swap_info_struct *sis, struct file *file,
			       sector_t *span)
{
	struct ghost_device *dev = ghost_of_file(file);
	int ret;

	mutex_lock(&ghost_config_mutex);
	if (dev->backend) {
		/*
		 * Through the swap cache: reads of a backend are block I/O,
		 * writes are batched into sequential runs.
		 */
		dev->backend->swapon(sis);
		ret = swap_fs_activate(sis, &ghost_backed_swap_ops);
	} else {
		/* Reads come from zswap or the zero flag, never from a disk. */
		sis->flags |= SWP_SYNCHRONOUS_IO;
		ret = swap_fs_activate(sis, &ghost_swap_ops);
	}
	if (ret < 0)
		goto unlock;
	if (sis->max != dev->nr_slots) {
		/* The kernel's limit, or a size written while swapon read */
		pr_notice("%s: swapon took %u slots, not %lu: the size is now that\n",
			  dev->name, sis->max, dev->nr_slots);
		ghost_set_slots(dev, round_down(sis->max, GHOST_CLUSTER_SLOTS));
	}
	*span = sis->pages;
	atomic_long_set(&dev->slots_used_peak, 0);
	WRITE_ONCE(dev->swap_info, sis);
	list_add(&dev->on_node, &ghost_on_list);
unlock:
	mutex_unlock(&ghost_config_mutex);
	return ret;
}

static void ghost_swap_deactivate(struct file *file)
{
	struct ghost_device *dev = ghost_of_file(file);

	mutex_lock(&ghost_config_mutex);
	list_del(&dev->on_node);
	WRITE_ONCE(dev->swap_info, NULL);
	mutex_unlock(&ghost_config_mutex);
	/* Swapoff gave the withheld slots back; the poll has nothing to do. */
	cancel_delayed_work_sync(&dev->full_work);
	WRITE_ONCE(dev->full, false);
}

static const struct address_space_operations ghost_aops = {
	.read_folio	 = ghost_read_folio,
	.swap_activate	 = ghost_swap_activate,
	.swap_deactivate = ghost_swap_deactivate,
};

/*********************************
 * /dev/ghostswap, /dev/ghostswapN
 *********************************/
static int ghost_open(struct inode *inode, struct file *file)
{
	struct ghost_device *dev = container_of(file->private_data,
						struct ghost_device, misc);
	int ret = 0;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	mutex_lock(&ghost_config_mutex);
	if (dev->removed) {
		ret = -ENODEV;
	} else {
		dev->open_files++;
		/* swapon and swapoff find the device through its mapping. */
		file->f_mapping = dev->inode->i_mapping;
	}
	mutex_unlock(&ghost_config_mutex);
	return ret;
}

static int ghost_release(struct inode *inode, struct file *file)
{
	mutex_lock(&ghost_config_mutex);
	ghost_of_file(file)->open_files--;
	mutex_unlock(&ghost_config_mutex);
	return 0;
}

static ssize_t ghost_read(struct file *file, char __user *buf, size_t count,
			  loff_t *ppos)
{
	return simple_read_from_buffer(buf, count, ppos,
				       ghost_of_file(file)->header, PAGE_SIZE);
}

/* Nothing but the swap core writes to a swap device. */
static ssize_t ghost_write(struct file *file, const char __user *buf,
			   size_t count, loff_t *ppos)
{
	return -EPERM;
}

static loff_t ghost_llseek(struct file *file, loff_t offset, int whence)
{
	return fixed_size_llseek(file, offset, whence, PAGE_SIZE);
}

static const struct file_operations ghost_fops = {
	.owner		= THIS_MODULE,
	.open		= ghost_open,
	.release	= ghost_release,
	.read		= ghost_read,
	.write		= ghost_write,
	.llseek		= ghost_llseek,
};

/*********************************
 * sysfs: /sys/class/misc/ghostswap{,N}/size
 *********************************/
/* misc_register() makes the miscdevice its device's driver data. */
static struct ghost_device *ghost_of_dev(struct device *d)
{
	return container_of((struct miscdevice *)dev_get_drvdata(d),
			    struct ghost_device, misc);
}

static ssize_t size_show(struct device *d, struct device_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "%llu\n",
			  (u64)READ_ONCE(ghost_of_dev(d)->nr_slots) << PAGE_SHIFT);
}

/*
 * While swapped on, resize the swap area at once: growing costs nothing
 * until the new slots are used; shrinking needs the slots beyond the new
 * end free (the swap core moves no page).  Otherwise the next swapon takes
 * the new size.
 */
static ssize_t size_store(struct device *d, struct device_attribute *attr,
			  const char *buf, size_t len)
{
	struct ghost_device *dev = ghost_of_dev(d);
	unsigned long slots;
	u64 bytes;
	int ret = ghost_size_parse(buf, &bytes);

	if (ret)
		return ret;
	slots = ghost_size_slots(bytes);
	mutex_lock(&ghost_config_mutex);
	if (dev->swap_info)
		ret = swap_dynamic_resize(dev->swap_info, slots);
	if (!ret) {
		if (dev == ghost_first)
			ghost_size = bytes;
		ghost_set_slots(dev, slots);
		pr_info("%s: size %lu MiB%s\n", dev->name,
			slots >> (20 - PAGE_SHIFT),
			dev->swap_info ? ", swapped on" : "");
	} else if (ret == -EBUSY) {
		pr_err("%s: size=%llu: slots beyond it are in use, or swapoff is running: size unchanged\n",
		       dev->name, bytes);
	} else {
		pr_err("%s: size=%llu: the swap core cannot resize to it (%d): size unchanged\n",
		       dev->name, bytes, ret);
	}
	mutex_unlock(&ghost_config_mutex);
	return ret ?: len;
}
static DEVICE_ATTR_RW(size);

static struct attribute *ghost_dev_attrs[] = {
	&dev_attr_size.attr,
	NULL,
};

static const struct attribute_group ghost_dev_group = {
	.attrs	= ghost_dev_attrs,
};

/*********************************
 * sysfs: /sys/class/misc/ghostswap{,N}/stats/
 *********************************/
static ssize_t size_bytes_show(struct device *d,
			       struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%lu\n",
			  READ_ONCE(ghost_of_dev(d)->nr_slots) << PAGE_SHIFT);
}
static DEVICE_ATTR_RO(size_bytes);

static ssize_t swapped_on_show(struct device *d,
			       struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", !!READ_ONCE(ghost_of_dev(d)->swap_info));
}
static DEVICE_ATTR_RO(swapped_on);

/* Racy by nature: swapoff may end right after the check. */
static ssize_t slots_used_show(struct device *d,
			       struct device_attribute *attr, char *buf)
{
	struct swap_info_struct *sis = READ_ONCE(ghost_of_dev(d)->swap_info);

	return sysfs_emit(buf, "%ld\n", sis ? swap_usage_in_pages(sis) : 0);
}
static DEVICE_ATTR_RO(slots_used);

/*
 * The slots the swap core has mapped cluster metadata for: it grows with
 * use and stays until swapoff.  Racy like slots_used.
 */
static ssize_t slots_mapped_show(struct device *d,
				 struct device_attribute *attr, char *buf)
{
	struct swap_info_struct *sis = READ_ONCE(ghost_of_dev(d)->swap_info);

	return sysfs_emit(buf, "%u\n", sis ? READ_ONCE(sis->max) : 0);
}
static DEVICE_ATTR_RO(slots_mapped);

static ssize_t slots_freed_show(struct device *d,
				struct device_attribute *attr, char *buf)
{
	struct ghost_device *dev = ghost_of_dev(d);
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += *per_cpu_ptr(dev->slots_freed, cpu);
	return sysfs_emit(buf, "%lu\n", sum);
}
static DEVICE_ATTR_RO(slots_freed);

static ssize_t slots_used_peak_show(struct device *d,
				    struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%ld\n",
			  atomic_long_read(&ghost_of_dev(d)->slots_used_peak));
}
static DEVICE_ATTR_RO(slots_used_peak);

static ssize_t pages_kept_show(struct device *d,
			       struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%ld\n",
			  atomic_long_read(&ghost_of_dev(d)->pages_kept));
}
static DEVICE_ATTR_RO(pages_kept);

static ssize_t step_asides_show(struct device *d,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%ld\n",
			  atomic_long_read(&ghost_of_dev(d)->step_asides));
}
static DEVICE_ATTR_RO(step_asides);

static ssize_t stepping_aside_show(struct device *d,
				   struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n",
			  READ_ONCE(ghost_of_dev(d)->stepping_aside));
}
static DEVICE_ATTR_RO(stepping_aside);

static ssize_t full_show(struct device *d, struct device_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "%d\n", READ_ONCE(ghost_of_dev(d)->full));
}
static DEVICE_ATTR_RO(full);

static ssize_t full_periods_show(struct device *d,
				 struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%ld\n",
			  atomic_long_read(&ghost_of_dev(d)->full_periods));
}
static DEVICE_ATTR_RO(full_periods);

static struct attribute *ghost_stats_attrs[] = {
	&dev_attr_size_bytes.attr,
	&dev_attr_swapped_on.attr,
	&dev_attr_slots_used.attr,
	&dev_attr_slots_used_peak.attr,
	&dev_attr_slots_freed.attr,
	&dev_attr_slots_mapped.attr,
	&dev_attr_pages_kept.attr,
	&dev_attr_step_asides.attr,
	&dev_attr_stepping_aside.attr,
	&dev_attr_full.attr,
	&dev_attr_full_periods.attr,
	NULL,
};

/* The backends' attributes follow the core's, on /dev/ghostswap only. */
static umode_t ghost_stats_visible(struct kobject *kobj, struct attribute *attr,
				   int n)
{
	if (n < ARRAY_SIZE(ghost_stats_attrs) - 1 ||
	    ghost_of_dev(kobj_to_dev(kobj)) == ghost_first)
		return attr->mode;
	return 0;
}

/* .attrs: the core's and every backend's, set up by ghost_stats_init() */
static struct attribute_group ghost_stats_group = {
	.name		= "stats",
	.is_visible	= ghost_stats_visible,
};

static const struct attribute_group *ghost_groups[] = {
	&ghost_dev_group,
	&ghost_stats_group,
	NULL,
};

/*********************************
 * devices
 *********************************/
static void ghost_free(struct ghost_device *dev)
{
	cancel_delayed_work_sync(&dev->full_work);
	if (!IS_ERR_OR_NULL(dev->inode))
		iput(dev->inode);
	free_percpu(dev->slots_freed);
	kfree(dev->header);
	kfree(dev);
}

/*
 * A device of @bytes numbered @id, with its inode and header, not yet
 * registered as /dev/ghostswap or /dev/ghostswapN.
 */
static struct ghost_device *ghost_alloc(int id, u64 bytes)
{
	struct ghost_device *dev = kzalloc(sizeof(*dev), GFP_KERNEL);

	if (!dev)
		return NULL;
	INIT_DELAYED_WORK(&dev->full_work, ghost_full_check);
	dev->header = kmalloc(PAGE_SIZE, GFP_KERNEL);
	dev->slots_freed = alloc_percpu(unsigned long);
	dev->inode = alloc_anon_inode(ghost_mnt->mnt_sb);
	if (!dev->header || !dev->slots_freed || IS_ERR(dev->inode)) {
		ghost_free(dev);
		return NULL;
	}
	dev->id = id;
	if (id)
		snprintf(dev->name, sizeof(dev->name), "ghostswap%d", id);
	else
		strscpy(dev->name, "ghostswap");
	dev->nr_slots = ghost_size_slots(bytes);
	ghost_fill_header(dev);
	dev->inode->i_private = dev;
	dev->inode->i_mapping->a_ops = &ghost_aops;
	i_size_write(dev->inode, (loff_t)dev->nr_slots << PAGE_SHIFT);
	dev->misc = (struct miscdevice) {
		.minor	= MISC_DYNAMIC_MINOR,
		.name	= dev->name,
		.fops	= &ghost_fops,
		.mode	= 0600,
		.groups	= ghost_groups,
	};
	return dev;
}

static u64 ghost_default_bytes(void)
{
	return (u64)totalram_pages() * 8 << PAGE_SHIFT;
}

/* Caller holds ghost_devices_mutex; the device is neither open nor on. */
static void ghost_remove(struct ghost_device *dev)
{
	misc_deregister(&dev->misc);
	xa_erase(&ghost_devices, dev->id);
	ghost_free(dev);
}

/*********************************
 * sysfs: /sys/class/ghostswap-control/
 *********************************/
/*
 * Reading hot_add creates a device and prints its number, as zram-control's
 * does (hence mode 0400, not CLASS_ATTR_RO()).  It starts at the default
 * size, 8 x RAM, not swapped on.
 */
static ssize_t hot_add_show(const struct class *class,
			    const struct class_attribute *attr, char *buf)
{
	struct ghost_device *dev;
	u32 id;
	int ret;

	mutex_lock(&ghost_devices_mutex);
	ret = xa_alloc(&ghost_devices, &id, NULL,
		       XA_LIMIT(1, MAX_SWAPFILES - 1), GFP_KERNEL);
	if (ret == -EBUSY) {
		pr_err("hot_add: %d devices already, as many as can be swapped on\n",
		       MAX_SWAPFILES);
		ret = -ENOSPC;
	}
	if (ret)
		goto unlock;
	ret = -ENOMEM;
	dev = ghost_alloc(id, ghost_default_bytes());
	if (!dev)
		goto free_id;
	ret = misc_register(&dev->misc);
	if (ret) {
		pr_err("hot_add: cannot register /dev/%s (%d)\n", dev->name, ret);
		ghost_free(dev);
		goto free_id;
	}
	/* Before the unlock: a hot_remove may free the device right after. */
	pr_info("/dev/%s ready: %lu MiB\n", dev->name,
		dev->nr_slots >> (20 - PAGE_SHIFT));
	xa_store(&ghost_devices, id, dev, GFP_KERNEL);
	mutex_unlock(&ghost_devices_mutex);
	return sysfs_emit(buf, "%d\n", id);

free_id:
	xa_erase(&ghost_devices, id);
unlock:
	mutex_unlock(&ghost_devices_mutex);
	return ret;
}

static struct class_attribute class_attr_hot_add =
	__ATTR(hot_add, 0400, hot_add_show, NULL);

/* Writing N to hot_remove removes /dev/ghostswapN if nothing uses it. */
static ssize_t hot_remove_store(const struct class *class,
				const struct class_attribute *attr,
				const char *buf, size_t len)
{
	struct ghost_device *dev;
	const char *busy = NULL;
	int id, ret;

	ret = kstrtoint(buf, 10, &id);
	if (ret) {
		pr_err("hot_remove: %.*s is not a device number\n",
		       (int)strcspn(buf, "\n"), buf);
		return ret;
	}
	if (!id) {
		pr_err("hot_remove: /dev/ghostswap goes only with the module\n");
		return -EINVAL;
	}
	mutex_lock(&ghost_devices_mutex);
	dev = id > 0 ? xa_load(&ghost_devices, id) : NULL;
	if (!dev) {
		pr_err("hot_remove: there is no /dev/ghostswap%d\n", id);
		ret = -ENODEV;
		goto unlock;
	}
	mutex_lock(&ghost_config_mutex);
	if (dev->swap_info)
		busy = "swapped on";
	else if (dev->open_files)
		busy = "open";
	else
		dev->removed = true;
	mutex_unlock(&ghost_config_mutex);
	if (busy) {
		pr_err("hot_remove: /dev/%s is %s\n", dev->name, busy);
		ret = -EBUSY;
		goto unlock;
	}
	pr_info("/dev/%s removed\n", dev->name);
	ghost_remove(dev);
unlock:
	mutex_unlock(&ghost_devices_mutex);
	return ret ?: len;
}
static CLASS_ATTR_WO(hot_remove);

static struct attribute *ghost_control_class_attrs[] = {
	&class_attr_hot_add.attr,
	&class_attr_hot_remove.attr,
	NULL,
};
ATTRIBUTE_GROUPS(ghost_control_class);

static struct class ghost_control_class = {
	.name		= "ghostswap-control",
	.class_groups	= ghost_control_class_groups,
};

/*********************************
 * init/exit
 *********************************/
static int ghost_init_fs_context(struct fs_context *fc)
{
	return init_pseudo(fc, GHOSTSWAP_MAGIC) ? 0 : -ENOMEM;
}

static struct file_system_type ghost_fs_type = {
	.name			= "ghostswap",
	.init_fs_context	= ghost_init_fs_context,
	.kill_sb		= kill_anon_super,
};

/*
 * stats/ shows the core's attributes and every backend's, all created with
 * the device, so that nothing can fail once /dev/ghostswap is there.
 */
static int ghost_stats_init(void)
{
	size_t n = ARRAY_SIZE(ghost_stats_attrs), i, k;
	struct attribute **attrs;

	for (i = 0; i < ARRAY_SIZE(ghost_backends); i++)
		for (k = 0; ghost_backends[i]->stats[k]; k++)
			n++;
	attrs = kcalloc(n, sizeof(*attrs), GFP_KERNEL);
	if (!attrs)
		return -ENOMEM;
	n = 0;
	for (k = 0; ghost_stats_attrs[k]; k++)
		attrs[n++] = ghost_stats_attrs[k];
	for (i = 0; i < ARRAY_SIZE(ghost_backends); i++)
		for (k = 0; ghost_backends[i]->stats[k]; k++)
			attrs[n++] = ghost_backends[i]->stats[k];
	ghost_stats_group.attrs = attrs;
	return 0;
}

static void ghost_backends_exit(unsigned int nr)
{
	while (nr--)
		ghost_backends[nr]->exit();
}

/*
 * Before the device is registered: a swapon can only come once every
 * backend is ready, and none is torn down under it if a later step fails.
 */
static int ghost_backends_init(void)
{
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(ghost_backends); i++) {
		ret = ghost_backends[i]->init();
		if (ret)
			goto unwind;
	}
	return 0;

unwind:
	ghost_backends_exit(i);
	return ret;
}

static int __init ghost_init(void)
{
	int ret;

	if (!ghost_size)
		ghost_size = ghost_default_bytes();
	ghost_mnt = kern_mount(&ghost_fs_type);
	if (IS_ERR(ghost_mnt))
		return PTR_ERR(ghost_mnt);
	ret = ghost_stats_init();
	if (ret)
		goto unmount;
	ret = -ENOMEM;
	ghost_first = ghost_alloc(0, ghost_size);
	if (!ghost_first)
		goto free_stats;
	ret = ghost_backends_init();
	if (ret)
		goto free_first;
	ret = misc_register(&ghost_first->misc);
	if (ret)
		goto backends_exit;
	ret = class_register(&ghost_control_class);
	if (ret)
		goto deregister;
	pr_info("/dev/ghostswap ready: %lu MiB\n",
		ghost_first->nr_slots >> (20 - PAGE_SHIFT));
	return 0;

deregister:
	misc_deregister(&ghost_first->misc);
backends_exit:
	ghost_backends_exit(ARRAY_SIZE(ghost_backends));
free_first:
	ghost_free(ghost_first);
free_stats:
	kfree(ghost_stats_group.attrs);
unmount:
	kern_unmount(ghost_mnt);
	return ret;
}

/* No device is open: an open file holds the module. */
static void __exit ghost_exit(void)
{
	struct ghost_device *dev;
	unsigned long id;

	class_unregister(&ghost_control_class);
	mutex_lock(&ghost_devices_mutex);
	xa_for_each(&ghost_devices, id, dev)
		ghost_remove(dev);
	mutex_unlock(&ghost_devices_mutex);
	misc_deregister(&ghost_first->misc);
	ghost_backends_exit(ARRAY_SIZE(ghost_backends));
	ghost_free(ghost_first);
	kfree(ghost_stats_group.attrs);
	kern_unmount(ghost_mnt);
}

module_init(ghost_init);
module_exit(ghost_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Dynamically sized swap devices backed by zswap and optionally a block device");
