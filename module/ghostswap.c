// SPDX-License-Identifier: GPL-2.0
/*
 * ghostswap - a swap device with no backing store, sized as a number.
 *
 * /dev/ghostswap is a character device that swapon(8) accepts as it is:
 * reading it returns a SWAPSPACE2 header, and opening it points the file at
 * a pseudo inode whose address_space operations provide that header to
 * swapon(2) and register our swap_ops through ->swap_activate().  The swap
 * core then allocates the device's clusters on demand (SWAP_OPS_F_DYNAMIC),
 * so an unused device costs nothing whatever its size, and keeps every
 * page zswap refuses in memory (SWAP_OPS_F_NO_BACKING).
 *
 * Usage: insmod ghostswap.ko [size=BYTES]; swapon /dev/ghostswap
 * Statistics: /sys/class/misc/ghostswap/stats/
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/fs.h>
#include <linux/fs_context.h>
#include <linux/huge_mm.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mount.h>
#include <linux/overflow.h>
#include <linux/pagemap.h>
#include <linux/pseudo_fs.h>
#include <linux/slab.h>
#include <linux/swap.h>
#include <linux/swap_ops.h>
#include <linux/uaccess.h>
#include <linux/uuid.h>

/* The swap core's cluster size (SWAPFILE_CLUSTER in mm/swap.h) */
#ifdef CONFIG_THP_SWAP
#define GHOST_CLUSTER_SLOTS	HPAGE_PMD_NR
#else
#define GHOST_CLUSTER_SLOTS	256
#endif

/* Highest slot count a swap header can describe, in whole clusters */
#define GHOST_MAX_SLOTS	round_down((u64)U32_MAX, GHOST_CLUSTER_SLOTS)

/* Swap core metadata of one cluster: swap table and memcg table entries */
#define GHOST_CLUSTER_META_BYTES \
	(GHOST_CLUSTER_SLOTS * (sizeof(atomic_long_t) + sizeof(unsigned short)))

#define GHOSTSWAP_MAGIC	0x67687377	/* "ghsw" */

/*********************************
 * statistics
 *********************************/
/*
 * Updated without locks by the swap core's callbacks and read through sysfs;
 * only clusters_peak needs a compare-and-exchange loop.
 */
static atomic_long_t ghost_clusters;		/* clusters existing now */
static atomic_long_t ghost_clusters_peak;	/* highest ghost_clusters */
static atomic_long_t ghost_clusters_created;
static atomic_long_t ghost_clusters_freed;
static atomic_long_t ghost_pages_kept;		/* zswap refused, kept in RAM */

/*********************************
 * tunables
 *********************************/
/* Device size in bytes, fixed at load time; 0 until ghost_size_init() */
static u64 ghost_size;

static int ghost_size_set(const char *val, const struct kernel_param *kp)
{
	static const char suffixes[] = "KMGT";
	char digits[24];
	size_t len = strcspn(val, "\n");
	const char *unit = len ? strchr(suffixes, toupper(val[len - 1])) : NULL;
	unsigned int shift = 0;
	u64 number, bytes;

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
	if (check_shl_overflow(number, shift, &bytes))
		goto too_large;
	if (bytes < (u64)GHOST_CLUSTER_SLOTS * PAGE_SIZE) {
		pr_err("size=%s is below the minimum of %lu bytes (one swap cluster)\n",
		       val, GHOST_CLUSTER_SLOTS * PAGE_SIZE);
		return -EINVAL;
	}
	*(u64 *)kp->arg = bytes;
	return 0;

invalid:
	pr_err("size=%s is not a size: give bytes, optionally with a K, M, G or T suffix\n",
	       val);
	return -EINVAL;
too_large:
	pr_err("size=%s does not fit in 64 bits\n", val);
	return -ERANGE;
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
/*
 * Set up at module init and constant until exit, except swap_info, which
 * the swap core writes through ->swap_activate()/->swap_deactivate() under
 * the pseudo inode's lock (swapon/swapoff hold it) and sysfs only reads.
 */
static struct ghost_device {
	unsigned long nr_slots;		/* ghost_size in pages */
	union swap_header *header;	/* what reads of the device return */
	struct vfsmount *mnt;		/* pseudo fs holding the inode */
	struct inode *inode;		/* f_mapping of every open file */
	struct swap_info_struct *swap_info;	/* while swapped on */
} ghost;

/*********************************
 * swap_ops
 *********************************/
/* Each cluster the swap core creates is counted; no private data yet. */
static void *ghost_cluster_alloc(struct swap_info_struct *sis, gfp_t gfp)
{
	long now = atomic_long_inc_return(&ghost_clusters);
	long peak = atomic_long_read(&ghost_clusters_peak);

	while (now > peak &&
	       !atomic_long_try_cmpxchg(&ghost_clusters_peak, &peak, now))
		;
	atomic_long_inc(&ghost_clusters_created);
	return NULL;
}

static void ghost_cluster_free(struct swap_info_struct *sis, void *priv)
{
	atomic_long_dec(&ghost_clusters);
	atomic_long_inc(&ghost_clusters_freed);
}

static void ghost_folio_kept(struct swap_info_struct *sis, struct folio *folio)
{
	atomic_long_add(folio_nr_pages(folio), &ghost_pages_kept);
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

static void ghost_submit_write(struct swap_io_ctx *ctx)
{
	ghost_fail_io(ctx, WRITE);
}

static void ghost_submit_read(struct swap_io_ctx *ctx)
{
	ghost_fail_io(ctx, READ);
}

static const struct swap_ops ghost_swap_ops = {
	.flags		= SWAP_OPS_F_DYNAMIC | SWAP_OPS_F_NO_BACKING,
	.can_merge	= swap_fs_can_merge,
	.submit_write	= ghost_submit_write,
	.submit_read	= ghost_submit_read,
	.cluster_alloc	= ghost_cluster_alloc,
	.cluster_free	= ghost_cluster_free,
	.folio_kept	= ghost_folio_kept,
};

/*********************************
 * swap header and swapon glue
 *********************************/
static void ghost_fill_header(union swap_header *header)
{
	uuid_t uuid;

	memset(header, 0, PAGE_SIZE);
	header->info.version = 1;
	header->info.last_page = ghost.nr_slots - 1;
	uuid_gen(&uuid);
	memcpy(header->info.sws_uuid, &uuid, sizeof(header->info.sws_uuid));
	memcpy(header->info.sws_volume, "ghostswap", sizeof("ghostswap"));
	memcpy(header->magic.magic, "SWAPSPACE2", sizeof(header->magic.magic));
}

/* Page 0 of the pseudo inode is the header; swapon(2) reads nothing else. */
static int ghost_read_folio(struct file *file, struct folio *folio)
{
	if (folio->index)
		folio_zero_range(folio, 0, folio_size(folio));
	else
		memcpy_to_folio(folio, 0, (char *)ghost.header, PAGE_SIZE);
	folio_mark_uptodate(folio);
	folio_unlock(folio);
	return 0;
}

static int ghost_swap_activate(struct swap_info_struct *sis, struct file *file,
			       sector_t *span)
{
	int ret;

	/* Reads come from zswap or the zero flag, never from a disk. */
	sis->flags |= SWP_SOLIDSTATE | SWP_SYNCHRONOUS_IO;
	ret = swap_fs_activate(sis, &ghost_swap_ops);
	if (ret < 0)
		return ret;
	if (sis->max < ghost.nr_slots)
		pr_notice("the kernel addresses %u of the %lu slots asked for\n",
			  sis->max, ghost.nr_slots);
	*span = sis->pages;
	WRITE_ONCE(ghost.swap_info, sis);
	return ret;
}

static void ghost_swap_deactivate(struct file *file)
{
	WRITE_ONCE(ghost.swap_info, NULL);
}

static const struct address_space_operations ghost_aops = {
	.read_folio	 = ghost_read_folio,
	.swap_activate	 = ghost_swap_activate,
	.swap_deactivate = ghost_swap_deactivate,
};

/*********************************
 * /dev/ghostswap
 *********************************/
static int ghost_open(struct inode *inode, struct file *file)
{
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	/* swapon and swapoff find the device through its mapping. */
	file->f_mapping = ghost.inode->i_mapping;
	return 0;
}

static ssize_t ghost_read(struct file *file, char __user *buf, size_t count,
			  loff_t *ppos)
{
	return simple_read_from_buffer(buf, count, ppos, ghost.header,
				       PAGE_SIZE);
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
	.read		= ghost_read,
	.write		= ghost_write,
	.llseek		= ghost_llseek,
};

/*********************************
 * sysfs: /sys/class/misc/ghostswap/stats/
 *********************************/
static ssize_t size_bytes_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%lu\n", ghost.nr_slots << PAGE_SHIFT);
}
static DEVICE_ATTR_RO(size_bytes);

static ssize_t swapped_on_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", !!READ_ONCE(ghost.swap_info));
}
static DEVICE_ATTR_RO(swapped_on);

/* Racy by nature: swapoff may end right after the check. */
static ssize_t slots_used_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	struct swap_info_struct *sis = READ_ONCE(ghost.swap_info);

	return sysfs_emit(buf, "%ld\n", sis ? swap_usage_in_pages(sis) : 0);
}
static DEVICE_ATTR_RO(slots_used);

static ssize_t metadata_bytes_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%lu\n", atomic_long_read(&ghost_clusters) *
			  GHOST_CLUSTER_META_BYTES);
}
static DEVICE_ATTR_RO(metadata_bytes);

#define GHOST_COUNTER_ATTR(name, counter)				\
static ssize_t name##_show(struct device *dev,				\
			   struct device_attribute *attr, char *buf)	\
{									\
	return sysfs_emit(buf, "%ld\n", atomic_long_read(&(counter)));	\
}									\
static DEVICE_ATTR_RO(name)

GHOST_COUNTER_ATTR(clusters, ghost_clusters);
GHOST_COUNTER_ATTR(clusters_peak, ghost_clusters_peak);
GHOST_COUNTER_ATTR(clusters_created, ghost_clusters_created);
GHOST_COUNTER_ATTR(clusters_freed, ghost_clusters_freed);
GHOST_COUNTER_ATTR(pages_kept, ghost_pages_kept);

static struct attribute *ghost_stats_attrs[] = {
	&dev_attr_size_bytes.attr,
	&dev_attr_swapped_on.attr,
	&dev_attr_slots_used.attr,
	&dev_attr_clusters.attr,
	&dev_attr_clusters_peak.attr,
	&dev_attr_clusters_created.attr,
	&dev_attr_clusters_freed.attr,
	&dev_attr_metadata_bytes.attr,
	&dev_attr_pages_kept.attr,
	NULL,
};

static const struct attribute_group ghost_stats_group = {
	.name	= "stats",
	.attrs	= ghost_stats_attrs,
};
__ATTRIBUTE_GROUPS(ghost_stats);

static struct miscdevice ghost_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "ghostswap",
	.fops	= &ghost_fops,
	.mode	= 0600,
	.groups	= ghost_stats_groups,
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

/* Default to 8 x RAM; keep whole clusters and what a header can describe. */
static void ghost_size_init(void)
{
	u64 slots;

	if (!ghost_size)
		ghost_size = (u64)totalram_pages() * 8 << PAGE_SHIFT;
	slots = round_down(ghost_size >> PAGE_SHIFT, GHOST_CLUSTER_SLOTS);
	if (slots > GHOST_MAX_SLOTS) {
		pr_notice("size %llu clamped to %llu bytes, the largest a swap header describes\n",
			  ghost_size, GHOST_MAX_SLOTS << PAGE_SHIFT);
		slots = GHOST_MAX_SLOTS;
	}
	ghost.nr_slots = slots;
}

static int __init ghost_init(void)
{
	int ret;

	ghost_size_init();
	ghost.header = kmalloc(PAGE_SIZE, GFP_KERNEL);
	if (!ghost.header)
		return -ENOMEM;
	ghost_fill_header(ghost.header);

	ghost.mnt = kern_mount(&ghost_fs_type);
	if (IS_ERR(ghost.mnt)) {
		ret = PTR_ERR(ghost.mnt);
		goto free_header;
	}
	ghost.inode = alloc_anon_inode(ghost.mnt->mnt_sb);
	if (IS_ERR(ghost.inode)) {
		ret = PTR_ERR(ghost.inode);
		goto unmount;
	}
	ghost.inode->i_mapping->a_ops = &ghost_aops;
	i_size_write(ghost.inode, (loff_t)ghost.nr_slots << PAGE_SHIFT);

	ret = misc_register(&ghost_misc);
	if (ret)
		goto put_inode;
	pr_info("/dev/ghostswap ready: %lu MiB\n",
		ghost.nr_slots >> (20 - PAGE_SHIFT));
	return 0;

put_inode:
	iput(ghost.inode);
unmount:
	kern_unmount(ghost.mnt);
free_header:
	kfree(ghost.header);
	return ret;
}

static void __exit ghost_exit(void)
{
	misc_deregister(&ghost_misc);
	iput(ghost.inode);
	kern_unmount(ghost.mnt);
	kfree(ghost.header);
}

module_init(ghost_init);
module_exit(ghost_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Swap device with no backing store, backed by zswap");
