// SPDX-License-Identifier: GPL-2.0
/*
 * ghostswap backend on a block device: the pages zswap does not keep
 * (incompressible, pool full, zswap off or over memory.zswap.max) and the
 * pages zswap writes back are written to a real disk and read back from it.
 *
 * Space on the disk is handed out like a log, flash-friendly: sequentially,
 * one segment of erase_block bytes (default 2 MiB) after the other, so the
 * device sees whole erase blocks written in order.  Where each ghost slot's
 * page went is kept in its cluster's private data, the ghost "virtual table":
 * one u32 per slot, block + 1 (0: none).  Freeing a slot frees its block; a
 * segment whose blocks are all free is discarded, if the device can, and
 * used again.  Segments that are only partly free stay as they are until
 * they empty (no compaction).
 *
 * Usage: insmod ghostswap.ko backing_dev=/dev/vdb [erase_block=2M], or
 * echo /dev/vdb > /sys/module/ghostswap/parameters/backing_dev (none to
 * detach) while /dev/ghostswap is not swapped on.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": backing_dev: " fmt

#include <linux/bio.h>
#include <linux/bitmap.h>
#include <linux/blkdev.h>
#include <linux/fs.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/swap.h>
#include <linux/swapops.h>
#include <linux/workqueue.h>

#include "ghostswap.h"

#define BDEV_SECTORS_PER_BLOCK	(PAGE_SIZE >> SECTOR_SHIFT)
/* Map entries hold block + 1 in a u32, so blocks are numbered below this */
#define BDEV_MAX_BLOCKS		((u64)U32_MAX)
#define BDEV_MAX_ERASE_BLOCK	SZ_1G
/* After a write error, new slots go elsewhere for this long */
#define BDEV_ERROR_BACKOFF	HZ

/*********************************
 * statistics
 *********************************/
/* Updated locklessly on the I/O paths, read through sysfs. */
static atomic_long_t bdev_pages;		/* blocks holding a page */
static atomic_long_t bdev_bytes_written;
static atomic_long_t bdev_bytes_read;
static atomic_long_t bdev_write_errors;
static atomic_long_t bdev_read_errors;
static atomic_long_t bdev_full;			/* writes refused: no space */
static atomic_long_t bdev_writes;		/* runs of blocks written */
static atomic_long_t bdev_writes_sequential;	/* ... right after the last */
static atomic_long_t bdev_discards;		/* segments discarded */
static atomic_long_t bdev_segments_used;	/* not free for writing */
static atomic_long_t bdev_segments;		/* on the attached device */

/*********************************
 * tunables
 *********************************/
/*
 * Written by the parameters' set callbacks, which the module parameter code
 * serializes with each other and with reads of the parameters.
 */
static char bdev_path[256];
static u64 bdev_erase_block = SZ_2M;

/*********************************
 * backend state
 *********************************/
/*
 * @file to @nr_segs change only under ghost_config_mutex, while the ghost
 * device is not swapped on; @sis is set at swapon.  @lock (taken with
 * interrupts off: blocks are freed from bio completion) guards the
 * allocator fields below it and every write of a slot map entry; the I/O
 * paths read a slot's entry without it while the slot is pinned by its
 * locked or writeback folio, which stops it from being freed or rewritten.
 * Exceptions: write completions set @error and @error_at without it, and
 * bdev_may_write() reads those, @cur_seg and @cur_next without it: a stale
 * answer only sends a page where it would have gone before.
 */
static struct ghost_bdev {
	struct file *file;		/* the device, held exclusively */
	struct block_device *bdev;
	struct swap_info_struct *sis;
	bool live;			/* module init done: attach at once */
	bool discard;			/* the device can discard */
	u32 seg_blocks;			/* blocks per segment */
	u32 nr_segs;

	spinlock_t lock;		/* see above */
	u32 *seg_live;			/* blocks in use per segment */
	unsigned long *seg_free;	/* segments ready to be written */
	unsigned long *seg_trim;	/* empty segments to discard */
	u32 cur_seg;			/* being written; nr_segs: none */
	u32 cur_next;			/* next block to hand out in it */
	u32 last_end;			/* block after the last run handed out */
	unsigned long error_at;		/* jiffies of the last write error */
	bool error;			/* error_at is set */
	struct work_struct discard_work;
} gb = {
	.lock = __SPIN_LOCK_UNLOCKED(gb.lock),
};

/*********************************
 * segment allocator
 *********************************/
static void bdev_segment_ready(u32 seg)
{
	__set_bit(seg, gb.seg_free);
	atomic_long_dec(&bdev_segments_used);
}

/* @seg has no block in use and is not being written: reuse it. */
static void bdev_segment_empty(u32 seg)
{
	lockdep_assert_held(&gb.lock);
	if (gb.discard) {
		__set_bit(seg, gb.seg_trim);
		queue_work(system_dfl_wq, &gb.discard_work);
	} else {
		bdev_segment_ready(seg);
	}
}

/* Close the full segment and open the next free one after it, in order. */
static bool bdev_segment_next(void)
{
	u32 prev = gb.cur_seg, seg;

	lockdep_assert_held(&gb.lock);
	if (prev < gb.nr_segs) {
		WRITE_ONCE(gb.cur_seg, gb.nr_segs);
		if (!gb.seg_live[prev])
			bdev_segment_empty(prev);
	}
	seg = find_next_bit(gb.seg_free, gb.nr_segs,
			    prev < gb.nr_segs ? prev + 1 : 0);
	if (seg >= gb.nr_segs)
		seg = find_first_bit(gb.seg_free, gb.nr_segs);
	if (seg >= gb.nr_segs)
		return false;
	__clear_bit(seg, gb.seg_free);
	atomic_long_inc(&bdev_segments_used);
	WRITE_ONCE(gb.cur_seg, seg);
	WRITE_ONCE(gb.cur_next, seg * gb.seg_blocks);
	return true;
}

/*
 * Hand out up to @want blocks following each other, from @start.
 * Return: how many, 0 when the device is full.
 */
static u32 bdev_alloc_run(u32 want, u32 *start)
{
	u32 n;

	lockdep_assert_held(&gb.lock);
	if ((gb.cur_seg >= gb.nr_segs ||
	     gb.cur_next == (gb.cur_seg + 1) * gb.seg_blocks) &&
	    !bdev_segment_next())
		return 0;
	n = min(want, (gb.cur_seg + 1) * gb.seg_blocks - gb.cur_next);
	*start = gb.cur_next;
	WRITE_ONCE(gb.cur_next, gb.cur_next + n);
	gb.seg_live[gb.cur_seg] += n;
	atomic_long_inc(&bdev_writes);
	if (*start == gb.last_end)
		atomic_long_inc(&bdev_writes_sequential);
	gb.last_end = *start + n;
	return n;
}

static void bdev_free_block(u32 block)
{
	u32 seg = block / gb.seg_blocks;

	lockdep_assert_held(&gb.lock);
	atomic_long_dec(&bdev_pages);
	if (!--gb.seg_live[seg] && seg != gb.cur_seg)
		bdev_segment_empty(seg);
}

/* Point slot map entry @entry at @block (U32_MAX: none), freeing the old. */
static void bdev_map_set(u32 *entry, u32 block)
{
	u32 old = *entry;

	lockdep_assert_held(&gb.lock);
	WRITE_ONCE(*entry, block + 1);
	if (old)
		bdev_free_block(old - 1);
	if (block != U32_MAX)
		atomic_long_inc(&bdev_pages);
}

static void bdev_discard_work(struct work_struct *work)
{
	unsigned long flags;
	u32 seg;

	spin_lock_irqsave(&gb.lock, flags);
	while ((seg = find_first_bit(gb.seg_trim, gb.nr_segs)) < gb.nr_segs) {
		__clear_bit(seg, gb.seg_trim);
		spin_unlock_irqrestore(&gb.lock, flags);
		/* Only a hint to the device: a failure loses nothing. */
		if (!blkdev_issue_discard(gb.bdev,
					  (sector_t)seg * gb.seg_blocks *
					  BDEV_SECTORS_PER_BLOCK,
					  gb.seg_blocks * BDEV_SECTORS_PER_BLOCK,
					  GFP_NOIO))
			atomic_long_inc(&bdev_discards);
		spin_lock_irqsave(&gb.lock, flags);
		bdev_segment_ready(seg);
	}
	spin_unlock_irqrestore(&gb.lock, flags);
}

/*********************************
 * slot map: the ghost virtual table
 *********************************/
static void *bdev_cluster_alloc(gfp_t gfp)
{
	u32 *map = kcalloc(GHOST_CLUSTER_SLOTS, sizeof(*map), gfp);

	return map ?: ERR_PTR(-ENOMEM);
}

/* Every slot of the cluster was freed before: nothing is mapped. */
static void bdev_cluster_free(void *priv)
{
	kfree(priv);
}

/*
 * Nothing else writes the entries of slots being freed, so most frees, of
 * slots that never reached the disk, need not take the lock.
 */
static void bdev_slots_free(void *priv, unsigned int index, unsigned int nr)
{
	u32 *map = priv;
	unsigned long flags;
	unsigned int i = index;

	while (i < index + nr && !READ_ONCE(map[i]))
		i++;
	if (i == index + nr)
		return;
	spin_lock_irqsave(&gb.lock, flags);
	for (; i < index + nr; i++)
		if (map[i])
			bdev_map_set(&map[i], U32_MAX);
	spin_unlock_irqrestore(&gb.lock, flags);
}

/* The slot map entries of a folio (all in one cluster) */
static u32 *bdev_folio_map(struct folio *folio)
{
	pgoff_t offset = swp_offset(folio->swap);
	u32 *map = swap_cluster_private(gb.sis, offset);

	return map + offset % GHOST_CLUSTER_SLOTS;
}

/* A walk over the pages of a swap_iocb, with their slot map entries */
struct bdev_sio_pos {
	const struct swap_iocb *sio;
	int bvec;		/* folio: index in sio->bvecs */
	long nr;		/* its pages done */
	u32 *map;		/* its slot map entries */
};

#define BDEV_SIO_POS(s)		((struct bdev_sio_pos){ .sio = (s) })

/* Step to the next page and its entry.  Return: false at the end. */
static bool bdev_sio_next(struct bdev_sio_pos *pos, struct page **page,
			  u32 **entry)
{
	struct folio *folio;

	if (pos->bvec >= pos->sio->nr_bvecs)
		return false;
	folio = bvec_folio(&pos->sio->bvecs[pos->bvec]);
	if (!pos->nr)
		pos->map = bdev_folio_map(folio);
	*page = folio_page(folio, pos->nr);
	*entry = &pos->map[pos->nr];
	if (++pos->nr == folio_nr_pages(folio)) {
		pos->bvec++;
		pos->nr = 0;
	}
	return true;
}

static void __bdev_unmap_sio(struct swap_iocb *sio)
{
	struct bdev_sio_pos pos = BDEV_SIO_POS(sio);
	struct page *page;
	u32 *entry;

	lockdep_assert_held(&gb.lock);
	while (bdev_sio_next(&pos, &page, &entry))
		if (*entry)
			bdev_map_set(entry, U32_MAX);
}

static void bdev_unmap_sio(struct swap_iocb *sio)
{
	unsigned long flags;

	spin_lock_irqsave(&gb.lock, flags);
	__bdev_unmap_sio(sio);
	spin_unlock_irqrestore(&gb.lock, flags);
}

/* Give every page of @sio a block, in runs.  False when the disk is full. */
static bool bdev_map_sio(struct swap_iocb *sio)
{
	u32 left = sio->len >> PAGE_SHIFT, block = 0, run = 0;
	struct bdev_sio_pos pos = BDEV_SIO_POS(sio);
	unsigned long flags;
	struct page *page;
	u32 *entry;

	spin_lock_irqsave(&gb.lock, flags);
	while (bdev_sio_next(&pos, &page, &entry)) {
		if (!run) {
			run = bdev_alloc_run(left, &block);
			if (!run)
				goto full;
		}
		bdev_map_set(entry, block++);
		run--;
		left--;
	}
	spin_unlock_irqrestore(&gb.lock, flags);
	return true;

full:
	/* Undo: the pages stay dirty in memory, their old copies are gone. */
	__bdev_unmap_sio(sio);
	spin_unlock_irqrestore(&gb.lock, flags);
	return false;
}

static bool bdev_sio_mapped(struct swap_iocb *sio)
{
	struct bdev_sio_pos pos = BDEV_SIO_POS(sio);
	struct page *page;
	u32 *entry;

	while (bdev_sio_next(&pos, &page, &entry))
		if (!READ_ONCE(*entry))
			return false;
	return true;
}

/*********************************
 * I/O
 *********************************/
/*
 * One bio per run of consecutive blocks, chained so that @end_io runs once,
 * after all of them, with the first error.
 */
static void bdev_submit_sio(struct swap_iocb *sio, blk_opf_t opf,
			    bio_end_io_t end_io)
{
	u32 left = sio->len >> PAGE_SHIFT, block, prev = 0;
	struct bdev_sio_pos pos = BDEV_SIO_POS(sio);
	struct bio *bio = NULL, *next;
	struct page *page;
	u32 *entry;

	while (bdev_sio_next(&pos, &page, &entry)) {
		block = READ_ONCE(*entry) - 1;
		if (!bio || block != prev + 1 ||
		    !bio_add_page(bio, page, PAGE_SIZE, 0)) {
			next = bio_alloc(gb.bdev, min_t(u32, left, BIO_MAX_VECS), opf,
					 GFP_NOIO);
			next->bi_iter.bi_sector =
				(sector_t)block * BDEV_SECTORS_PER_BLOCK;
			__bio_add_page(next, page, PAGE_SIZE, 0);
			if (bio) {
				bio_chain(bio, next);
				submit_bio(bio);
			}
			bio = next;
		}
		prev = block;
		left--;
	}
	bio->bi_private = sio;
	bio->bi_end_io = end_io;
	submit_bio(bio);
}

/* A failed write leaves the pages dirty in memory: nothing is lost. */
static void bdev_write_end_io(struct bio *bio)
{
	struct swap_iocb *sio = bio->bi_private;
	int err = blk_status_to_errno(bio->bi_status);

	bio_put(bio);
	if (err) {
		atomic_long_inc(&bdev_write_errors);
		WRITE_ONCE(gb.error_at, jiffies);
		WRITE_ONCE(gb.error, true);
		pr_err_ratelimited("write error %d, %d bytes stay in memory\n",
				   err, sio->len);
		bdev_unmap_sio(sio);
	} else {
		atomic_long_add(sio->len, &bdev_bytes_written);
	}
	sio->iocb.ki_complete(&sio->iocb, err ?: sio->len);
}

/* A failed read fails the swap-in: the faulting task gets SIGBUS. */
static void bdev_read_end_io(struct bio *bio)
{
	struct swap_iocb *sio = bio->bi_private;
	int err = blk_status_to_errno(bio->bi_status);

	bio_put(bio);
	if (err) {
		atomic_long_inc(&bdev_read_errors);
		pr_err_ratelimited("read error %d on %d bytes\n", err, sio->len);
	} else {
		atomic_long_add(sio->len, &bdev_bytes_read);
	}
	sio->iocb.ki_complete(&sio->iocb, err ?: sio->len);
}

static void bdev_submit_write(struct swap_io_ctx *ctx)
{
	struct swap_iocb *sio = ctx->sio;
	struct iov_iter iter;

	swap_fs_prepare_rw(ctx, WRITE, &iter);
	if (!bdev_map_sio(sio)) {
		atomic_long_inc(&bdev_full);
		pr_warn_ratelimited("device full, %d bytes stay in memory\n",
				    sio->len);
		sio->iocb.ki_complete(&sio->iocb, -ENOSPC);
		return;
	}
	bdev_submit_sio(sio, REQ_OP_WRITE | REQ_SWAP, bdev_write_end_io);
}

static void bdev_submit_read(struct swap_io_ctx *ctx)
{
	struct swap_iocb *sio = ctx->sio;
	struct iov_iter iter;

	swap_fs_prepare_rw(ctx, READ, &iter);
	if (!bdev_sio_mapped(sio)) {
		atomic_long_inc(&bdev_read_errors);
		pr_err_ratelimited("read of %d bytes never written to the device\n",
				   sio->len);
		sio->iocb.ki_complete(&sio->iocb, -EIO);
		return;
	}
	bdev_submit_sio(sio, REQ_OP_READ, bdev_read_end_io);
}

/*
 * Asked before every slot the device hands out, so lockless.  A folio
 * given a slot is unmapped at once but gets its blocks only when its batch
 * of writes is submitted, up to SWAP_CLUSTER_MAX folios later, and each
 * CPU and kswapd may be filling a batch: say no while fewer blocks than
 * those are left, so that the folios already let in find room.  One that
 * does not, after all (large folios, many reclaimers), fails its write and
 * stays in the swap cache, dirty, to be written when a segment is free.
 */
static bool bdev_may_write(void)
{
	u64 headroom = SWAP_CLUSTER_MAX * (num_online_cpus() + 1);
	u32 seg = READ_ONCE(gb.cur_seg), next = READ_ONCE(gb.cur_next);
	u64 free;

	if (READ_ONCE(gb.error) &&
	    time_before(jiffies, READ_ONCE(gb.error_at) + BDEV_ERROR_BACKOFF))
		return false;
	free = (u64)(gb.nr_segs - atomic_long_read(&bdev_segments_used)) *
	       gb.seg_blocks;
	if (seg < gb.nr_segs && next < (seg + 1) * gb.seg_blocks)
		free += (seg + 1) * gb.seg_blocks - next;
	return free > headroom;
}

static void bdev_swapon(struct swap_info_struct *sis)
{
	gb.sis = sis;
	gb.error = false;
}

/*********************************
 * attach/detach
 *********************************/
/* Close the device and free the allocator (NULL parts are fine). */
static void bdev_release(void)
{
	bdev_fput(gb.file);
	gb.file = NULL;
	gb.bdev = NULL;
	kvfree(gb.seg_live);
	bitmap_free(gb.seg_free);
	bitmap_free(gb.seg_trim);
	gb.seg_live = NULL;
	gb.seg_free = NULL;
	gb.seg_trim = NULL;
}

static void bdev_detach(void)
{
	lockdep_assert_held(&ghost_config_mutex);
	if (!gb.file)
		return;
	ghost_backend_set(NULL);
	flush_work(&gb.discard_work);
	pr_info("%pg detached\n", gb.bdev);
	bdev_release();
	atomic_long_set(&bdev_segments, 0);
	atomic_long_set(&bdev_segments_used, 0);
}

static struct file *bdev_open(const char *path)
{
	struct file *file;
	int ret;

	file = bdev_file_open_by_path(path, BLK_OPEN_READ | BLK_OPEN_WRITE,
				      &gb, NULL);
	if (!IS_ERR(file))
		return file;
	ret = PTR_ERR(file);
	switch (ret) {
	case -ENOENT:
		pr_err("%s: no such device\n", path);
		ret = -ENODEV;
		break;
	case -ENOTBLK:
		pr_err("%s is not a block device\n", path);
		break;
	case -EBUSY:
		pr_err("%s is in use (mounted, swapped on or held by a driver)\n",
		       path);
		break;
	default:
		pr_err("cannot open %s: error %d\n", path, ret);
	}
	return ERR_PTR(ret);
}

/*
 * Open @path and set up its allocator before detaching from the device in
 * use, if any: a change to a device that cannot be used keeps the old one.
 * Opening the attached device again is fine, as the holder is the same.
 */
static int bdev_attach(const char *path)
{
	u64 blocks, erase_blocks = bdev_erase_block >> PAGE_SHIFT;
	unsigned long *seg_free = NULL, *seg_trim = NULL;
	u32 *seg_live = NULL, nr_segs;
	struct block_device *bdev;
	struct file *file;
	int ret;

	lockdep_assert_held(&ghost_config_mutex);
	file = bdev_open(path);
	if (IS_ERR(file))
		return PTR_ERR(file);
	bdev = file_bdev(file);
	blocks = min_t(u64, bdev_nr_bytes(bdev) >> PAGE_SHIFT, BDEV_MAX_BLOCKS);
	if (blocks < erase_blocks) {
		pr_err("%s has %llu bytes, less than one segment (erase_block=%llu)\n",
		       path, bdev_nr_bytes(bdev), bdev_erase_block);
		ret = -ENOSPC;
		goto release;
	}
	nr_segs = div_u64(blocks, erase_blocks);
	seg_live = kvcalloc(nr_segs, sizeof(*seg_live), GFP_KERNEL);
	seg_free = bitmap_zalloc(nr_segs, GFP_KERNEL);
	seg_trim = bitmap_zalloc(nr_segs, GFP_KERNEL);
	if (!seg_live || !seg_free || !seg_trim) {
		ret = -ENOMEM;
		goto release;
	}

	bdev_detach();
	gb.file = file;
	gb.bdev = bdev;
	gb.seg_blocks = erase_blocks;
	gb.nr_segs = nr_segs;
	gb.discard = bdev_max_discard_sectors(bdev);
	gb.seg_live = seg_live;
	gb.seg_free = seg_free;
	gb.seg_trim = seg_trim;
	bitmap_fill(gb.seg_free, gb.nr_segs);
	gb.cur_seg = gb.nr_segs;
	gb.last_end = 0;
	atomic_long_set(&bdev_segments, gb.nr_segs);
	pr_info("%pg: %u segments of %llu KiB%s\n", gb.bdev, gb.nr_segs,
		bdev_erase_block >> 10, gb.discard ? ", discard" : "");
	ghost_backend_set(&ghost_bdev_backend);
	return 0;

release:
	kvfree(seg_live);
	bitmap_free(seg_free);
	bitmap_free(seg_trim);
	bdev_fput(file);
	return ret;
}

/*********************************
 * module parameters
 *********************************/
/*
 * At load time only remember the path: ghost_bdev_init() attaches once the
 * core is ready, so that a failed load leaves nothing open.  Later, unless
 * swapped on, switch to the new device, or detach for "none"; a new device
 * that cannot be used leaves the old one attached.
 */
static int bdev_path_set(const char *val, const struct kernel_param *kp)
{
	size_t len = strcspn(val, "\n");
	char path[sizeof(bdev_path)];
	int ret = 0;

	if (len >= sizeof(path)) {
		pr_err("path longer than %zu bytes\n", sizeof(path) - 1);
		return -ENAMETOOLONG;
	}
	strscpy(path, val, len + 1);
	if (!strcmp(path, "none"))
		path[0] = '\0';

	mutex_lock(&ghost_config_mutex);
	if (gb.live) {
		if (ghost_swapped_on()) {
			pr_err("cannot change while /dev/ghostswap is swapped on\n");
			ret = -EBUSY;
			goto unlock;
		}
		if (path[0])
			ret = bdev_attach(path);
		else
			bdev_detach();
	}
	if (!ret)
		strscpy(bdev_path, path);
unlock:
	mutex_unlock(&ghost_config_mutex);
	return ret;
}

static const struct kernel_param_ops bdev_path_ops = {
	.set	= bdev_path_set,
	.get	= param_get_string,
};

static struct kparam_string bdev_path_string = {
	.maxlen	= sizeof(bdev_path),
	.string	= bdev_path,
};
module_param_cb(backing_dev, &bdev_path_ops, &bdev_path_string, 0644);
MODULE_PARM_DESC(backing_dev,
		 "Block device for pages zswap does not keep (none: keep them in memory)");

static int bdev_erase_block_set(const char *val, const struct kernel_param *kp)
{
	u64 bytes;
	int ret = ghost_parse_bytes("erase_block", val, &bytes);

	if (ret)
		return ret;
	if (!bytes || bytes % PAGE_SIZE || bytes > BDEV_MAX_ERASE_BLOCK) {
		pr_err("erase_block=%.*s: give a multiple of %lu bytes up to %lu\n",
		       (int)strcspn(val, "\n"), val, PAGE_SIZE,
		       (unsigned long)BDEV_MAX_ERASE_BLOCK);
		return -EINVAL;
	}
	bdev_erase_block = bytes;
	return 0;
}

static const struct kernel_param_ops bdev_erase_block_ops = {
	.set	= bdev_erase_block_set,
	.get	= param_get_ullong,
};
module_param_cb(erase_block, &bdev_erase_block_ops, &bdev_erase_block, 0644);
MODULE_PARM_DESC(erase_block,
		 "Segment size on backing_dev in bytes, K/M/G suffixes accepted; used from the next attach (default: 2M)");

/*********************************
 * sysfs: stats/backend_*
 *********************************/
GHOST_COUNTER_ATTR(backend_pages, bdev_pages);
GHOST_COUNTER_ATTR(backend_bytes_written, bdev_bytes_written);
GHOST_COUNTER_ATTR(backend_bytes_read, bdev_bytes_read);
GHOST_COUNTER_ATTR(backend_write_errors, bdev_write_errors);
GHOST_COUNTER_ATTR(backend_read_errors, bdev_read_errors);
GHOST_COUNTER_ATTR(backend_full, bdev_full);
GHOST_COUNTER_ATTR(backend_writes, bdev_writes);
GHOST_COUNTER_ATTR(backend_writes_sequential, bdev_writes_sequential);
GHOST_COUNTER_ATTR(backend_discards, bdev_discards);
GHOST_COUNTER_ATTR(backend_segments, bdev_segments);
GHOST_COUNTER_ATTR(backend_segments_used, bdev_segments_used);

static struct attribute *bdev_stats_attrs[] = {
	&dev_attr_backend_pages.attr,
	&dev_attr_backend_bytes_written.attr,
	&dev_attr_backend_bytes_read.attr,
	&dev_attr_backend_write_errors.attr,
	&dev_attr_backend_read_errors.attr,
	&dev_attr_backend_full.attr,
	&dev_attr_backend_writes.attr,
	&dev_attr_backend_writes_sequential.attr,
	&dev_attr_backend_discards.attr,
	&dev_attr_backend_segments.attr,
	&dev_attr_backend_segments_used.attr,
	NULL,
};

/*********************************
 * init/exit
 *********************************/
static int ghost_bdev_init(void)
{
	int ret = 0;

	INIT_WORK(&gb.discard_work, bdev_discard_work);
	mutex_lock(&ghost_config_mutex);
	gb.live = true;
	if (bdev_path[0])
		ret = bdev_attach(bdev_path);
	if (ret)
		gb.live = false;
	mutex_unlock(&ghost_config_mutex);
	return ret;
}

static void ghost_bdev_exit(void)
{
	mutex_lock(&ghost_config_mutex);
	bdev_detach();
	gb.live = false;
	mutex_unlock(&ghost_config_mutex);
}

const struct ghost_backend ghost_bdev_backend = {
	.name		= "block device",
	.init		= ghost_bdev_init,
	.exit		= ghost_bdev_exit,
	.stats		= bdev_stats_attrs,
	.cluster_bytes	= GHOST_CLUSTER_SLOTS * sizeof(u32),
	.swapon		= bdev_swapon,
	.cluster_alloc	= bdev_cluster_alloc,
	.cluster_free	= bdev_cluster_free,
	.slots_free	= bdev_slots_free,
	.submit_write	= bdev_submit_write,
	.submit_read	= bdev_submit_read,
	.may_write	= bdev_may_write,
};
