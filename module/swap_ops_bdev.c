// SPDX-License-Identifier: GPL-2.0
/*
 * ghostswap backend on a block device: the pages zswap does not keep
 * (incompressible, pool full, zswap off or over memory.zswap.max) and the
 * pages zswap writes back are written to a real disk and read back from it.
 *
 * Space on the disk is handed out like a log, flash-friendly: sequentially,
 * one segment of erase_block bytes (default 2 MiB) after the other, so the
 * device sees whole erase blocks written in order.  Where each ghost slot's
 * page went is kept in the slot map, the ghost "virtual table": one u32 per
 * slot, block + 1 (0: none), in chunks that exist only while one of their
 * slots has a block.  Freeing a slot frees its block; a
 * segment whose blocks are all free is discarded, if the device can, and
 * used again.  A cleaner keeps segments free: when few are left, it copies
 * the live blocks of the least used segment to the log head and frees it.
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
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/srcu.h>
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
/* Free segments that only the cleaner may open, so that it always can */
#define BDEV_RESERVE_SEGS	1
/* Blocks the cleaner copies at a time */
#define BDEV_CLEAN_BATCH	64
/* Tries of each cleaner read or write before its blocks are left in place */
#define BDEV_CLEAN_TRIES	3
/* Times a write that finds no room waits for the cleaner before it fails */
#define BDEV_CLEAN_WAITS	16

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
static atomic_long_t bdev_segments_cleaned;
static atomic_long_t bdev_blocks_moved;		/* by the cleaner */
static atomic_long_t bdev_clean_errors;		/* failed tries of cleaner I/O */
static atomic_long_t bdev_clean_waits;		/* writes that waited for it */
static atomic_long_t bdev_blocks_stale;		/* freed: zswap took the slot */
static atomic_long_t bdev_maps;			/* slot map chunks */
static atomic_long_t bdev_map_alloc_failed;	/* writes failed for want of one */

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
 * A log head, where the blocks of one stream are handed out in order: the
 * pages swapped out, and the cleaner's copies.  Apart, the cleaner never
 * finds its room taken by swap-out, and moved blocks, older, stay together.
 */
struct bdev_head {
	u32 seg;			/* being written; nr_segs: none */
	u32 next;			/* next block to hand out in it */
	u32 last_end;			/* block after the last run handed out */
};

enum { BDEV_HOST, BDEV_CLEANER, BDEV_HEADS };

/*
 * @file to @nr_segs change only under ghost_config_mutex, while the ghost
 * device is not swapped on; @sis is set at swapon.  @lock (taken with
 * interrupts off: blocks are freed from bio completion) guards the
 * allocator fields below it and every write of a slot map entry; the I/O
 * paths read a slot's entry without it while the slot is pinned by its
 * locked or writeback folio, which stops it from being freed or rewritten.
 * Exceptions: write completions set @error and @error_at without it, and
 * bdev_may_write() reads those and the host's @head without it: a stale
 * answer only sends a page where it would have gone before.  The cleaner
 * reads @unfinished without it, and checks its choice under it.
 *
 * @rmap maps each block back to the slot whose data it holds, so that the
 * cleaner can move it: set with the slot's map entry, cleared when the
 * block is freed.  Under @lock, a block with an @rmap entry belongs to a
 * slot in use, whose slot map chunk cannot go away: freeing the slot takes
 * @lock to clear its entry first.  The cleaner repoints a slot
 * to the copy of its block under @lock, but a read may have looked up the
 * old block just before: the segment it cleaned is reused only after an
 * SRCU grace period of @bdev_read_srcu, which readers hold from their
 * lookup until their bio completes.  Nor does the cleaner pick a segment
 * with writes in flight (@seg_writing): it would copy blocks not written.
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
	struct xarray maps;		/* slot map chunks, see bdev_map */
	u32 *seg_live;			/* blocks in use per segment */
	u32 *seg_writing;		/* blocks being written per segment */
	unsigned long *seg_free;	/* segments ready to be written */
	unsigned long *seg_trim;	/* empty segments to discard */
	struct bdev_head head[BDEV_HEADS];
	u32 *rmap;			/* per block: slot offset + 1, 0: free */
	u32 reserve;			/* segments kept for the cleaner */
	u32 clean_low;			/* clean while this many or fewer free */
	u32 victim;			/* being cleaned; nr_segs: none */
	u32 unfinished;			/* to clean next; nr_segs: none */
	unsigned long error_at;		/* jiffies of the last write error */
	bool error;			/* error_at is set */
	/*
	 * The cleaner's buffers, allocated at attach: it runs when reclaim
	 * needs room on the disk, so it must not wait for reclaim itself.
	 * Only bdev_clean_work() uses them, one instance at a time.
	 */
	struct bdev_move *clean_moves;
	struct page *clean_pages[BDEV_CLEAN_BATCH];
	struct work_struct discard_work;
	struct delayed_work clean_work;
} gb = {
	.lock = __SPIN_LOCK_UNLOCKED(gb.lock),
	.maps = XARRAY_INIT(gb.maps, XA_FLAGS_LOCK_IRQ),
};

DEFINE_STATIC_SRCU(bdev_read_srcu);

/*
 * The cleaner's workqueue: writers in reclaim may wait for the cleaner
 * (bdev_clean_wait()), so it must make progress without a new worker.
 */
static struct workqueue_struct *bdev_wq;

/*********************************
 * segment allocator
 *********************************/
static u32 bdev_free_segments(void)
{
	return gb.nr_segs - atomic_long_read(&bdev_segments_used);
}

static void bdev_clean_kick(void)
{
	queue_delayed_work(bdev_wq, &gb.clean_work, 0);
}

static void bdev_segment_ready(u32 seg)
{
	__set_bit(seg, gb.seg_free);
	atomic_long_dec(&bdev_segments_used);
}

/* @seg has no block in use and is not being written: reuse it. */
static void bdev_segment_empty(u32 seg)
{
	lockdep_assert_held(&gb.lock);
	if (seg == gb.unfinished)
		WRITE_ONCE(gb.unfinished, gb.nr_segs);
	if (gb.discard) {
		__set_bit(seg, gb.seg_trim);
		queue_work(system_dfl_wq, &gb.discard_work);
	} else {
		bdev_segment_ready(seg);
	}
}

/* Whether @seg is being written by a log head */
static bool bdev_is_head(u32 seg)
{
	return seg == READ_ONCE(gb.head[BDEV_HOST].seg) ||
	       seg == READ_ONCE(gb.head[BDEV_CLEANER].seg);
}

/*
 * Close the full segment of head @h and open the next free one after it,
 * in order; the last @reserve free ones only for the cleaner.
 */
static bool bdev_segment_next(struct bdev_head *h)
{
	u32 prev = h->seg, seg;

	lockdep_assert_held(&gb.lock);
	if (prev < gb.nr_segs) {
		WRITE_ONCE(h->seg, gb.nr_segs);
		if (!gb.seg_live[prev])
			bdev_segment_empty(prev);
	}
	if (h == &gb.head[BDEV_HOST] && bdev_free_segments() <= gb.reserve)
		goto out;
	seg = find_next_bit(gb.seg_free, gb.nr_segs,
			    prev < gb.nr_segs ? prev + 1 : 0);
	if (seg >= gb.nr_segs)
		seg = find_first_bit(gb.seg_free, gb.nr_segs);
	if (seg >= gb.nr_segs)
		goto out;
	__clear_bit(seg, gb.seg_free);
	atomic_long_inc(&bdev_segments_used);
	WRITE_ONCE(h->seg, seg);
	WRITE_ONCE(h->next, seg * gb.seg_blocks);
out:
	if (bdev_free_segments() <= gb.clean_low)
		bdev_clean_kick();
	return h->seg < gb.nr_segs;
}

/*
 * Hand out up to @want blocks following each other at head @h, from
 * @start.  Return: how many, 0 when the device is full.
 */
static u32 bdev_alloc_run(struct bdev_head *h, u32 want, u32 *start)
{
	u32 n;

	lockdep_assert_held(&gb.lock);
	if ((h->seg >= gb.nr_segs || h->next == (h->seg + 1) * gb.seg_blocks) &&
	    !bdev_segment_next(h))
		return 0;
	n = min(want, (h->seg + 1) * gb.seg_blocks - h->next);
	*start = h->next;
	WRITE_ONCE(h->next, h->next + n);
	gb.seg_live[h->seg] += n;
	atomic_long_inc(&bdev_writes);
	if (*start == h->last_end)
		atomic_long_inc(&bdev_writes_sequential);
	h->last_end = *start + n;
	return n;
}

/*
 * @block no longer holds anything; its segment empties with the last.
 * With few segments free, a block freed may make one worth cleaning.
 */
static void bdev_put_block(u32 block)
{
	u32 seg = block / gb.seg_blocks;

	lockdep_assert_held(&gb.lock);
	gb.rmap[block] = 0;
	if (!--gb.seg_live[seg] && !bdev_is_head(seg) && seg != gb.victim)
		bdev_segment_empty(seg);
	else if (bdev_free_segments() <= gb.clean_low)
		bdev_clean_kick();
}

static void bdev_free_block(u32 block)
{
	atomic_long_dec(&bdev_pages);
	bdev_put_block(block);
}

/* Discard the empty segments and make them ready to be written again. */
static void bdev_discard_segments(void)
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

static void bdev_discard_work(struct work_struct *work)
{
	bdev_discard_segments();
}

/*********************************
 * slot map: the ghost virtual table
 *********************************/
/*
 * The slot map comes in chunks of BDEV_MAP_SLOTS slots, in gb.maps by chunk
 * index: a chunk is allocated before the first of its slots gets a block and
 * freed with its last block, so that slots whose pages stay in zswap cost
 * nothing here.  Chunks and their @blocks change under gb.lock.  A chunk
 * with blocks stays: the I/O paths read the entries of slots that have
 * blocks, pinned by their folios, without the lock; the other lockless
 * lookups run under RCU, hence kfree_rcu().
 */
/* At least the largest swap folio: its slots, aligned, are in one chunk */
#define BDEV_MAP_SLOTS	MAX(512, 1 << (SWAP_NR_ORDERS - 1))

struct bdev_map {
	u32 blocks;			/* entries set */
	struct rcu_head rcu;
	u32 slot[BDEV_MAP_SLOTS];	/* block + 1, 0: none */
};

static struct bdev_map *bdev_map_of(pgoff_t offset)
{
	return xa_load(&gb.maps, offset / BDEV_MAP_SLOTS);
}

/* The entry of slot @offset, whose chunk must exist (see bdev_map) */
static u32 *bdev_slot_entry(pgoff_t offset)
{
	return &bdev_map_of(offset)->slot[offset % BDEV_MAP_SLOTS];
}

/* Free the chunk of slot @offset if no slot of it has a block. */
static void bdev_map_put(pgoff_t offset)
{
	struct bdev_map *map = bdev_map_of(offset);

	lockdep_assert_held(&gb.lock);
	if (map && !map->blocks) {
		xa_erase(&gb.maps, offset / BDEV_MAP_SLOTS);
		kfree_rcu(map, rcu);
		atomic_long_dec(&bdev_maps);
	}
}

/*
 * Point the entry of slot @offset at @block (U32_MAX: none), freeing the
 * old one; the chunk must exist.
 */
static void bdev_map_set(pgoff_t offset, u32 block)
{
	struct bdev_map *map = bdev_map_of(offset);
	u32 *entry = &map->slot[offset % BDEV_MAP_SLOTS], old = *entry;

	lockdep_assert_held(&gb.lock);
	WRITE_ONCE(*entry, block + 1);
	if (old) {
		bdev_free_block(old - 1);
		map->blocks--;
	}
	if (block != U32_MAX) {
		gb.rmap[block] = offset + 1;
		atomic_long_inc(&bdev_pages);
		map->blocks++;
	}
	bdev_map_put(offset);
}

/*
 * Free the blocks of @nr slots from @offset.  Nothing else writes the
 * entries of these slots (being freed, or pinned by their locked folio), so
 * most calls, for slots that never reached the disk, need not take the lock.
 * Return: the blocks freed.
 */
static unsigned int bdev_slots_drop(pgoff_t offset, unsigned int nr)
{
	pgoff_t end = offset + nr, i = offset;
	unsigned int dropped = 0;
	struct bdev_map *map;
	unsigned long flags;

	rcu_read_lock();
	for (map = bdev_map_of(i); i < end; i++) {
		if (!(i % BDEV_MAP_SLOTS))
			map = bdev_map_of(i);
		if (map && READ_ONCE(map->slot[i % BDEV_MAP_SLOTS]))
			break;
	}
	rcu_read_unlock();
	if (i == end)
		return 0;
	spin_lock_irqsave(&gb.lock, flags);
	for (; i < end; i++) {
		map = bdev_map_of(i);
		if (map && map->slot[i % BDEV_MAP_SLOTS]) {
			bdev_map_set(i, U32_MAX);
			dropped++;
		}
	}
	spin_unlock_irqrestore(&gb.lock, flags);
	return dropped;
}

static void bdev_slots_free(pgoff_t offset, unsigned int nr)
{
	bdev_slots_drop(offset, nr);
}

/* The slots' data now lives in zswap or the zero map: their blocks are stale */
static void bdev_slots_stale(pgoff_t offset, unsigned int nr)
{
	atomic_long_add(bdev_slots_drop(offset, nr), &bdev_blocks_stale);
}

/* A walk over the pages of a swap_iocb, with their slot map entries */
struct bdev_sio_pos {
	const struct swap_iocb *sio;
	int bvec;		/* folio: index in sio->bvecs */
	long nr;		/* its pages done */
	u32 *map;		/* its slot map entries, NULL: no chunk */
};

#define BDEV_SIO_POS(s)		((struct bdev_sio_pos){ .sio = (s) })

/*
 * Step to the next page and its entry (NULL if its chunk is missing).
 * Return: false at the end.
 */
static bool bdev_sio_next(struct bdev_sio_pos *pos, struct page **page,
			  u32 **entry)
{
	struct folio *folio;

	if (pos->bvec >= pos->sio->nr_bvecs)
		return false;
	folio = bvec_folio(&pos->sio->bvecs[pos->bvec]);
	if (!pos->nr) {
		struct bdev_map *map = bdev_map_of(swp_offset(folio->swap));

		pos->map = map ? &map->slot[swp_offset(folio->swap) %
					    BDEV_MAP_SLOTS] : NULL;
	}
	*page = folio_page(folio, pos->nr);
	*entry = pos->map ? &pos->map[pos->nr] : NULL;
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
	while (bdev_sio_next(&pos, &page, &entry)) {
		if (entry && *entry)
			bdev_map_set(swp_offset(page_swap_entry(page)), U32_MAX);
		else
			bdev_map_put(swp_offset(page_swap_entry(page)));
	}
}

/* The writes of the first @nr pages of @sio, to their new blocks, are over. */
static void __bdev_written_sio(struct swap_iocb *sio, u32 nr)
{
	struct bdev_sio_pos pos = BDEV_SIO_POS(sio);
	struct page *page;
	u32 *entry;

	lockdep_assert_held(&gb.lock);
	while (nr-- && bdev_sio_next(&pos, &page, &entry))
		gb.seg_writing[(*entry - 1) / gb.seg_blocks]--;
}

/*
 * Take gb.lock with a slot map chunk for every folio of @sio, allocating the
 * missing ones without the lock.  Return: false, unlocked, if one cannot be.
 */
static bool bdev_lock_sio_maps(struct swap_iocb *sio, unsigned long *flags)
{
	struct bdev_map *new = NULL;
	pgoff_t slot;
	void *old;
	int i;

	for (;;) {
		spin_lock_irqsave(&gb.lock, *flags);
		for (i = 0; i < sio->nr_bvecs; i++) {
			slot = swp_offset(bvec_folio(&sio->bvecs[i])->swap);
			if (!bdev_map_of(slot))
				break;
		}
		if (i == sio->nr_bvecs)
			break;
		if (!new) {
			spin_unlock_irqrestore(&gb.lock, *flags);
			new = kzalloc_obj(*new, GFP_NOIO | __GFP_NOWARN);
			if (!new)
				goto fail;
			continue;
		}
		old = xa_store(&gb.maps, slot / BDEV_MAP_SLOTS, new,
			       GFP_ATOMIC | __GFP_NOWARN);
		spin_unlock_irqrestore(&gb.lock, *flags);
		if (xa_is_err(old)) {
			kfree(new);
			goto fail;
		}
		atomic_long_inc(&bdev_maps);
		new = NULL;
	}
	kfree(new);
	return true;

fail:
	atomic_long_inc(&bdev_map_alloc_failed);
	return false;
}

/*
 * Give every page of @sio a block, in runs.  Return: 0, -ENOSPC when the
 * disk is full, -ENOMEM when the slot map cannot grow.
 */
static int bdev_map_sio(struct swap_iocb *sio)
{
	u32 left = sio->len >> PAGE_SHIFT, block = 0, run = 0;
	struct bdev_sio_pos pos = BDEV_SIO_POS(sio);
	unsigned long flags;
	struct page *page;
	u32 *entry;

	if (!bdev_lock_sio_maps(sio, &flags))
		return -ENOMEM;
	while (bdev_sio_next(&pos, &page, &entry)) {
		if (!run) {
			run = bdev_alloc_run(&gb.head[BDEV_HOST], left, &block);
			if (!run)
				goto full;
		}
		gb.seg_writing[block / gb.seg_blocks]++;
		bdev_map_set(swp_offset(page_swap_entry(page)), block++);
		run--;
		left--;
	}
	spin_unlock_irqrestore(&gb.lock, flags);
	return 0;

full:
	/* Undo: the pages stay dirty in memory, their old copies are gone. */
	__bdev_written_sio(sio, (sio->len >> PAGE_SHIFT) - left);
	__bdev_unmap_sio(sio);
	spin_unlock_irqrestore(&gb.lock, flags);
	return -ENOSPC;
}

static bool bdev_sio_mapped(struct swap_iocb *sio)
{
	struct bdev_sio_pos pos = BDEV_SIO_POS(sio);
	struct page *page;
	bool mapped = true;
	u32 *entry;

	rcu_read_lock();
	while (mapped && bdev_sio_next(&pos, &page, &entry))
		mapped = entry && READ_ONCE(*entry);
	rcu_read_unlock();
	return mapped;
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
	unsigned long flags;

	bio_put(bio);
	spin_lock_irqsave(&gb.lock, flags);
	__bdev_written_sio(sio, sio->len >> PAGE_SHIFT);
	if (err)
		__bdev_unmap_sio(sio);
	spin_unlock_irqrestore(&gb.lock, flags);
	if (err) {
		atomic_long_inc(&bdev_write_errors);
		WRITE_ONCE(gb.error_at, jiffies);
		WRITE_ONCE(gb.error, true);
		pr_err_ratelimited("write error %d, %d bytes stay in memory\n",
				   err, sio->len);
	} else {
		atomic_long_add(sio->len, &bdev_bytes_written);
	}
	sio->iocb.ki_complete(&sio->iocb, err ?: sio->len);
}

/*
 * A read holds @bdev_read_srcu from its lookup of the blocks to the end of
 * its I/O; the index travels in the iocb's private field, which nothing
 * else uses on a swap device's read.
 */
static void bdev_read_begin(struct swap_iocb *sio)
{
	sio->iocb.private = (void *)(long)srcu_down_read(&bdev_read_srcu);
}

static void bdev_read_end(struct swap_iocb *sio)
{
	srcu_up_read(&bdev_read_srcu, (long)sio->iocb.private);
}

/* A failed read fails the swap-in: the faulting task gets SIGBUS. */
static void bdev_read_end_io(struct bio *bio)
{
	struct swap_iocb *sio = bio->bi_private;
	int err = blk_status_to_errno(bio->bi_status);

	bio_put(bio);
	bdev_read_end(sio);
	if (err) {
		atomic_long_inc(&bdev_read_errors);
		pr_err_ratelimited("read error %d on %d bytes\n", err, sio->len);
	} else {
		atomic_long_add(sio->len, &bdev_bytes_read);
	}
	sio->iocb.ki_complete(&sio->iocb, err ?: sio->len);
}

static bool bdev_clean_wait(void);

static void bdev_submit_write(struct swap_io_ctx *ctx)
{
	struct swap_iocb *sio = ctx->sio;
	struct iov_iter iter;
	int err, waits = 0;

	swap_fs_prepare_rw(ctx, WRITE, &iter);
	err = bdev_map_sio(sio);
	/* Other writers may take the room cleaned before this one gets it */
	while (err == -ENOSPC && waits++ < BDEV_CLEAN_WAITS && bdev_clean_wait())
		err = bdev_map_sio(sio);
	if (err) {
		if (err == -ENOSPC)
			atomic_long_inc(&bdev_full);
		pr_warn_ratelimited("%s, %d bytes stay in memory\n",
				    err == -ENOSPC ? "device full" :
				    "no memory for the slot map", sio->len);
		sio->iocb.ki_complete(&sio->iocb, err);
		return;
	}
	bdev_submit_sio(sio, REQ_OP_WRITE | REQ_SWAP, bdev_write_end_io);
}

static void bdev_submit_read(struct swap_io_ctx *ctx)
{
	struct swap_iocb *sio = ctx->sio;
	struct iov_iter iter;

	swap_fs_prepare_rw(ctx, READ, &iter);
	bdev_read_begin(sio);
	if (!bdev_sio_mapped(sio)) {
		bdev_read_end(sio);
		atomic_long_inc(&bdev_read_errors);
		pr_err_ratelimited("read of %d bytes never written to the device\n",
				   sio->len);
		sio->iocb.ki_complete(&sio->iocb, -EIO);
		return;
	}
	bdev_submit_sio(sio, REQ_OP_READ, bdev_read_end_io);
}

/*
 * A folio given a slot is unmapped at once but gets its blocks only when
 * its batch of writes is submitted, up to SWAP_CLUSTER_MAX folios later,
 * and each of @cpus and kswapd may be filling a batch: the blocks to keep
 * free so that the folios already let in find room.
 */
static u64 bdev_headroom(unsigned int cpus)
{
	return (u64)SWAP_CLUSTER_MAX * (cpus + 1);
}

/*
 * Asked before every slot the device hands out, so lockless: say no while
 * no more than the headroom is left.  A folio that finds no room after all
 * (large folios, many reclaimers) fails its write and stays in the swap
 * cache, dirty, to be written when a segment is free.
 */
static bool bdev_may_write(void)
{
	u64 headroom = bdev_headroom(num_online_cpus());
	u32 seg = READ_ONCE(gb.head[BDEV_HOST].seg);
	u32 next = READ_ONCE(gb.head[BDEV_HOST].next);
	u32 segs = bdev_free_segments();
	u64 free = 0;

	if (READ_ONCE(gb.error) &&
	    time_before(jiffies, READ_ONCE(gb.error_at) + BDEV_ERROR_BACKOFF))
		return false;
	if (segs > gb.reserve)
		free = (u64)(segs - gb.reserve) * gb.seg_blocks;
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
 * cleaner
 *********************************/
/* A live block of the segment being cleaned, and where its copy goes */
struct bdev_move {
	u32 from;
	u32 to;			/* U32_MAX: none */
	u32 slot;
	bool ok;		/* read, and written once @to is set */
};

/*
 * Greedy: the closed segment with the fewest live blocks, below @max_live.
 * With no seek cost on flash and data of no particular age, the cost of
 * freeing a block is what greedy minimises: the live blocks moved with it.
 * The scan reads the counts without the lock; bdev_victim_ok() checks the
 * choice under it.
 */
static u32 bdev_pick_victim(u32 max_live)
{
	u32 seg, live, best = gb.nr_segs;

	for (seg = 0; seg < gb.nr_segs; seg++) {
		/* A stale count only makes a worse choice, checked later */
		live = data_race(gb.seg_live[seg]);
		if (live && live < max_live && !bdev_is_head(seg) &&
		    !test_bit(seg, gb.seg_free) && !test_bit(seg, gb.seg_trim)) {
			best = seg;
			max_live = live;
		}
	}
	return best;
}

static bool bdev_victim_ok(u32 seg)
{
	lockdep_assert_held(&gb.lock);
	return gb.seg_live[seg] && gb.seg_live[seg] < gb.seg_blocks &&
	       !gb.seg_writing[seg] && !bdev_is_head(seg) &&
	       !test_bit(seg, gb.seg_free) && !test_bit(seg, gb.seg_trim);
}

/*
 * Read the pages of @mv[0..@nr) from their blocks, or write them to their
 * new ones: a bio per run of consecutive blocks, tried again on an error
 * (each failed try is counted).  A run that fails every try is not ok.
 * Returns false if one did.  A failed write is tried again on the same
 * blocks, which no slot points to yet: the reserve is sized for copies of
 * the blocks of one segment, not for copies thrown away.
 */
static bool bdev_clean_rw(struct bdev_move *mv, struct page **pages, int nr,
			  bool write)
{
	int i = 0, j, k, try;
	bool all_ok = true;
	int err;

	while (i < nr) {
		u32 block = write ? mv[i].to : mv[i].from;
		struct bio *bio;

		if (!mv[i].ok) {
			i++;
			continue;
		}
		for (j = i + 1; j < nr && mv[j].ok &&
		     (write ? mv[j].to : mv[j].from) == block + j - i; j++)
			;
		for (try = 0; try < BDEV_CLEAN_TRIES; try++) {
			bio = bio_alloc(gb.bdev, j - i,
					write ? REQ_OP_WRITE : REQ_OP_READ,
					GFP_KERNEL);
			bio->bi_iter.bi_sector =
				(sector_t)block * BDEV_SECTORS_PER_BLOCK;
			for (k = i; k < j; k++)
				__bio_add_page(bio, pages[k], PAGE_SIZE, 0);
			err = submit_bio_wait(bio);
			bio_put(bio);
			if (!err)
				break;
			atomic_long_inc(&bdev_clean_errors);
		}
		if (err) {
			pr_err_ratelimited("cleaner: %s error %d on %d blocks from %u, left where they were\n",
					   write ? "write" : "read", err, j - i,
					   block);
			for (k = i; k < j; k++)
				mv[k].ok = false;
			all_ok = false;
		}
		i = j;
	}
	return all_ok;
}

/*
 * Copy the live blocks of @victim to the log head, a batch at a time, and
 * point their slots at the copies.  A slot freed or rewritten meanwhile
 * keeps what it has now, and its copy is dropped; a block that could not
 * be copied stays where it is.  Returns -EIO if I/O errors left blocks
 * behind, -ENOSPC if the cleaner's head found no room, else 0.
 */
static int bdev_clean_segment(u32 victim, struct bdev_move *mv,
			      struct page **pages)
{
	u32 block = victim * gb.seg_blocks, end = block + gb.seg_blocks;
	u32 run = 0, start = 0, want;
	bool room = true, io_ok = true;
	unsigned long flags;
	int nr, i;

	while (block < end) {
		nr = 0;
		spin_lock_irqsave(&gb.lock, flags);
		for (; block < end && nr < BDEV_CLEAN_BATCH; block++) {
			if (!gb.rmap[block])
				continue;
			mv[nr++] = (struct bdev_move){ .from = block, .to = U32_MAX,
						       .slot = gb.rmap[block] - 1,
						       .ok = true };
		}
		spin_unlock_irqrestore(&gb.lock, flags);
		if (!nr)
			break;
		io_ok &= bdev_clean_rw(mv, pages, nr, false);

		spin_lock_irqsave(&gb.lock, flags);
		for (want = 0, i = 0; i < nr; i++)
			want += mv[i].ok;
		for (i = 0; i < nr; i++) {
			if (!mv[i].ok)
				continue;
			if (!run)
				run = bdev_alloc_run(&gb.head[BDEV_CLEANER],
						     want, &start);
			if (!run) {
				mv[i].ok = false;
				room = false;
				continue;
			}
			mv[i].to = start++;
			run--;
			want--;
		}
		spin_unlock_irqrestore(&gb.lock, flags);

		io_ok &= bdev_clean_rw(mv, pages, nr, true);

		spin_lock_irqsave(&gb.lock, flags);
		for (i = 0; i < nr; i++) {
			if (mv[i].to == U32_MAX)
				continue;
			if (!mv[i].ok || gb.rmap[mv[i].from] != mv[i].slot + 1) {
				bdev_put_block(mv[i].to);
				continue;
			}
			WRITE_ONCE(*bdev_slot_entry(mv[i].slot), mv[i].to + 1);
			gb.rmap[mv[i].to] = mv[i].slot + 1;
			bdev_put_block(mv[i].from);
			atomic_long_inc(&bdev_blocks_moved);
		}
		spin_unlock_irqrestore(&gb.lock, flags);
		if (!room)
			return -ENOSPC;
	}
	return io_ok ? 0 : -EIO;
}

/*
 * Kicked when a segment is opened or a block freed and few are left free:
 * clean segments, the least used first, until more than @clean_low are.
 * Segments with more than three quarters of their blocks live are left
 * alone (each block freed would cost more than three moved) unless the
 * device is full.
 *
 * A segment not emptied (I/O errors, or no room left) is the first cleaned
 * next time: the copies made for it freed blocks in it but no segment, and
 * so would those of other segments, half cleaned, until the reserve is
 * gone.  After I/O errors the work comes back by itself, a back-off later:
 * nothing else may wake it, as writes are turned away for lack of room.
 */
static void bdev_clean_work(struct work_struct *work)
{
	/* Writers may wait for it (bdev_clean_wait()): it must not swap */
	unsigned int noio = memalloc_noio_save();
	unsigned long flags;
	u32 victim, max_live;
	bool emptied, retry = false;
	int ret;

	while (bdev_free_segments() <= gb.clean_low) {
		max_live = bdev_free_segments() <= gb.reserve ?
			   gb.seg_blocks : gb.seg_blocks * 3 / 4 + 1;
		victim = READ_ONCE(gb.unfinished);
		if (victim >= gb.nr_segs)
			victim = bdev_pick_victim(max_live);
		if (victim >= gb.nr_segs)
			break;
		spin_lock_irqsave(&gb.lock, flags);
		if (!bdev_victim_ok(victim)) {
			spin_unlock_irqrestore(&gb.lock, flags);
			break;
		}
		gb.victim = victim;
		spin_unlock_irqrestore(&gb.lock, flags);

		ret = bdev_clean_segment(victim, gb.clean_moves,
					 gb.clean_pages);
		/* Reads that looked up a block of @victim before it moved */
		synchronize_srcu(&bdev_read_srcu);

		spin_lock_irqsave(&gb.lock, flags);
		gb.victim = gb.nr_segs;
		emptied = !gb.seg_live[victim];
		if (emptied)
			bdev_segment_empty(victim);
		else
			WRITE_ONCE(gb.unfinished, victim);
		spin_unlock_irqrestore(&gb.lock, flags);
		if (!emptied) {
			retry = ret == -EIO;
			break;
		}
		atomic_long_inc(&bdev_segments_cleaned);
		/* Not through the work: it could wait for a worker */
		bdev_discard_segments();
	}
	if (retry)
		queue_delayed_work(bdev_wq, &gb.clean_work,
				   BDEV_ERROR_BACKOFF);
	memalloc_noio_restore(noio);
}

/*
 * Foreground cleaning: a write found no room, which the headroom of
 * bdev_may_write() makes rare (rewrites of slots that already have a block
 * do not ask it, and randomly rewritten pages free no whole segment).
 * Rather than fail it and leave its pages dirty in memory, clean in the
 * writer's context, which may sleep, and let it try again.  Not within
 * the back-off after an I/O error: the cleaner is waiting out the device.
 * Return: whether the host may have room now, or a segment is left that
 * cleaning could win room from (other writers may take what it freed).
 */
static bool bdev_clean_wait(void)
{
	if (READ_ONCE(gb.error) &&
	    time_before(jiffies, READ_ONCE(gb.error_at) + BDEV_ERROR_BACKOFF))
		return false;
	atomic_long_inc(&bdev_clean_waits);
	bdev_clean_kick();
	flush_delayed_work(&gb.clean_work);
	return bdev_free_segments() > gb.reserve ||
	       bdev_pick_victim(gb.seg_blocks) < gb.nr_segs;
}

/*********************************
 * attach/detach
 *********************************/
/* The allocator's tables of a device, before they are in use */
struct bdev_tables {
	u32 *seg_live;
	u32 *seg_writing;
	u32 *rmap;
	unsigned long *seg_free;
	unsigned long *seg_trim;
	struct bdev_move *moves;
	struct page *pages[BDEV_CLEAN_BATCH];
};

/* NULL parts are fine. */
static void bdev_tables_free(struct bdev_tables *t)
{
	int i;

	kvfree(t->seg_live);
	kvfree(t->seg_writing);
	kvfree(t->rmap);
	bitmap_free(t->seg_free);
	bitmap_free(t->seg_trim);
	kfree(t->moves);
	for (i = 0; i < BDEV_CLEAN_BATCH; i++)
		if (t->pages[i])
			__free_page(t->pages[i]);
}

static int bdev_tables_alloc(struct bdev_tables *t, u32 nr_segs,
			     u32 seg_blocks)
{
	int i;

	t->seg_live = kvcalloc(nr_segs, sizeof(*t->seg_live), GFP_KERNEL);
	t->seg_writing = kvcalloc(nr_segs, sizeof(*t->seg_writing), GFP_KERNEL);
	t->rmap = kvcalloc((size_t)nr_segs * seg_blocks, sizeof(*t->rmap),
			   GFP_KERNEL);
	t->seg_free = bitmap_zalloc(nr_segs, GFP_KERNEL);
	t->seg_trim = bitmap_zalloc(nr_segs, GFP_KERNEL);
	t->moves = kmalloc_array(BDEV_CLEAN_BATCH, sizeof(*t->moves),
				 GFP_KERNEL);
	for (i = 0; i < BDEV_CLEAN_BATCH; i++) {
		t->pages[i] = alloc_page(GFP_KERNEL);
		if (!t->pages[i])
			goto fail;
	}
	if (t->seg_live && t->seg_writing && t->rmap && t->seg_free &&
	    t->seg_trim && t->moves)
		return 0;
fail:
	bdev_tables_free(t);
	return -ENOMEM;
}

/* Close the device and free the allocator. */
static void bdev_release(void)
{
	struct bdev_tables t = {
		.seg_live = gb.seg_live, .seg_writing = gb.seg_writing,
		.rmap = gb.rmap, .seg_free = gb.seg_free,
		.seg_trim = gb.seg_trim, .moves = gb.clean_moves,
	};

	memcpy(t.pages, gb.clean_pages, sizeof(t.pages));

	bdev_fput(gb.file);
	gb.file = NULL;
	gb.bdev = NULL;
	bdev_tables_free(&t);
	gb.seg_live = NULL;
	gb.seg_writing = NULL;
	gb.rmap = NULL;
	gb.seg_free = NULL;
	gb.seg_trim = NULL;
	gb.clean_moves = NULL;
	memset(gb.clean_pages, 0, sizeof(gb.clean_pages));
}

static void bdev_detach(void)
{
	lockdep_assert_held(&ghost_config_mutex);
	if (!gb.file)
		return;
	/* Every slot was freed at swapoff, and every chunk with its blocks */
	WARN_ON_ONCE(!xa_empty(&gb.maps));
	ghost_backend_set(NULL);
	cancel_delayed_work_sync(&gb.clean_work);
	flush_work(&gb.discard_work);
	pr_info("%pg detached\n", gb.bdev);
	bdev_release();
	atomic_long_set(&bdev_segments, 0);
	atomic_long_set(&bdev_segments_used, 0);
	gb.reserve = 0;
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
	struct bdev_tables t = {};
	struct block_device *bdev;
	u32 nr_segs;
	int i;
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
	ret = bdev_tables_alloc(&t, nr_segs, erase_blocks);
	if (ret)
		goto release;

	bdev_detach();
	gb.file = file;
	gb.bdev = bdev;
	gb.seg_blocks = erase_blocks;
	gb.nr_segs = nr_segs;
	gb.discard = bdev_max_discard_sectors(bdev);
	gb.seg_live = t.seg_live;
	gb.seg_writing = t.seg_writing;
	gb.rmap = t.rmap;
	gb.seg_free = t.seg_free;
	gb.seg_trim = t.seg_trim;
	gb.clean_moves = t.moves;
	memcpy(gb.clean_pages, t.pages, sizeof(gb.clean_pages));
	bitmap_fill(gb.seg_free, gb.nr_segs);
	for (i = 0; i < BDEV_HEADS; i++)
		gb.head[i] = (struct bdev_head){ .seg = gb.nr_segs };
	gb.victim = gb.nr_segs;
	gb.unfinished = gb.nr_segs;
	gb.reserve = nr_segs > 2 ? BDEV_RESERVE_SEGS : 0;
	/*
	 * The cleaner stops with more than @clean_low segments free: more
	 * than bdev_may_write() asks for, whatever CPUs come online, or the
	 * device could turn writes away with the cleaner idle.
	 */
	gb.clean_low = max_t(u64, nr_segs / 16, gb.reserve + 1 +
			     div_u64(bdev_headroom(num_possible_cpus()),
				     erase_blocks));
	atomic_long_set(&bdev_segments, gb.nr_segs);
	pr_info("%pg: %u segments of %llu KiB%s\n", gb.bdev, gb.nr_segs,
		bdev_erase_block >> 10, gb.discard ? ", discard" : "");
	ghost_backend_set(&ghost_bdev_backend);
	return 0;

release:
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
GHOST_COUNTER_ATTR(backend_segments_cleaned, bdev_segments_cleaned);
GHOST_COUNTER_ATTR(backend_blocks_moved, bdev_blocks_moved);
GHOST_COUNTER_ATTR(backend_clean_errors, bdev_clean_errors);
GHOST_COUNTER_ATTR(backend_clean_waits, bdev_clean_waits);
GHOST_COUNTER_ATTR(backend_blocks_stale, bdev_blocks_stale);
GHOST_COUNTER_ATTR(backend_map_alloc_failed, bdev_map_alloc_failed);

static ssize_t backend_map_bytes_show(struct device *dev,
				      struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%lu\n",
			  atomic_long_read(&bdev_maps) * sizeof(struct bdev_map));
}
static DEVICE_ATTR_RO(backend_map_bytes);

/* (host writes + the cleaner's copies) / host writes, in blocks, since load */
static ssize_t backend_write_amplification_show(struct device *dev,
						struct device_attribute *attr,
						char *buf)
{
	u64 host = atomic_long_read(&bdev_bytes_written) >> PAGE_SHIFT;
	u64 all = host + atomic_long_read(&bdev_blocks_moved);

	if (!host)
		return sysfs_emit(buf, "1.00\n");
	all = div64_u64(all * 100, host);
	return sysfs_emit(buf, "%llu.%02llu\n", all / 100, all % 100);
}
static DEVICE_ATTR_RO(backend_write_amplification);

/* Blocks of segments in use that hold nothing: what the cleaner can win */
static ssize_t backend_free_in_used_show(struct device *dev,
					 struct device_attribute *attr,
					 char *buf)
{
	long free = atomic_long_read(&bdev_segments_used) * gb.seg_blocks -
		    atomic_long_read(&bdev_pages);
	int i;

	for (i = 0; i < BDEV_HEADS; i++) {
		u32 seg = READ_ONCE(gb.head[i].seg);

		if (seg < gb.nr_segs)
			free -= (seg + 1) * gb.seg_blocks -
				READ_ONCE(gb.head[i].next);
	}
	return sysfs_emit(buf, "%ld\n", max(free, 0L));
}
static DEVICE_ATTR_RO(backend_free_in_used);

static ssize_t backend_segments_reserved_show(struct device *dev,
					      struct device_attribute *attr,
					      char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(gb.reserve));
}
static DEVICE_ATTR_RO(backend_segments_reserved);

/*
 * The allocator's tables: 4 bytes a block (the reverse map), 8 a segment,
 * and the cleaner's buffers
 */
static ssize_t backend_metadata_bytes_show(struct device *dev,
					   struct device_attribute *attr,
					   char *buf)
{
	u64 segs = atomic_long_read(&bdev_segments);

	if (!segs)
		return sysfs_emit(buf, "0\n");
	return sysfs_emit(buf, "%llu\n",
			  segs * gb.seg_blocks * sizeof(*gb.rmap) +
			  segs * (sizeof(*gb.seg_live) + sizeof(*gb.seg_writing)) +
			  2 * BITS_TO_LONGS(segs) * sizeof(long) +
			  BDEV_CLEAN_BATCH * (PAGE_SIZE + sizeof(struct bdev_move)));
}
static DEVICE_ATTR_RO(backend_metadata_bytes);

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
	&dev_attr_backend_segments_reserved.attr,
	&dev_attr_backend_segments_cleaned.attr,
	&dev_attr_backend_blocks_moved.attr,
	&dev_attr_backend_write_amplification.attr,
	&dev_attr_backend_clean_errors.attr,
	&dev_attr_backend_clean_waits.attr,
	&dev_attr_backend_blocks_stale.attr,
	&dev_attr_backend_free_in_used.attr,
	&dev_attr_backend_metadata_bytes.attr,
	&dev_attr_backend_map_bytes.attr,
	&dev_attr_backend_map_alloc_failed.attr,
	NULL,
};

/*********************************
 * init/exit
 *********************************/
static int ghost_bdev_init(void)
{
	int ret = 0;

	bdev_wq = alloc_workqueue("ghostswap_bdev", WQ_MEM_RECLAIM | WQ_UNBOUND,
				  0);
	if (!bdev_wq)
		return -ENOMEM;
	INIT_WORK(&gb.discard_work, bdev_discard_work);
	INIT_DELAYED_WORK(&gb.clean_work, bdev_clean_work);
	mutex_lock(&ghost_config_mutex);
	gb.live = true;
	if (bdev_path[0])
		ret = bdev_attach(bdev_path);
	if (ret)
		gb.live = false;
	mutex_unlock(&ghost_config_mutex);
	if (ret)
		destroy_workqueue(bdev_wq);
	return ret;
}

static void ghost_bdev_exit(void)
{
	mutex_lock(&ghost_config_mutex);
	bdev_detach();
	gb.live = false;
	mutex_unlock(&ghost_config_mutex);
	destroy_workqueue(bdev_wq);
}

const struct ghost_backend ghost_bdev_backend = {
	.name		= "block device",
	.init		= ghost_bdev_init,
	.exit		= ghost_bdev_exit,
	.stats		= bdev_stats_attrs,
	.swapon		= bdev_swapon,
	.slots_free	= bdev_slots_free,
	.slots_stale	= bdev_slots_stale,
	.submit_write	= bdev_submit_write,
	.submit_read	= bdev_submit_read,
	.may_write	= bdev_may_write,
};
