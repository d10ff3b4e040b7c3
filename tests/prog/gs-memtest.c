// SPDX-License-Identifier: GPL-2.0
/*
 * gs-memtest - data-integrity and throughput workload for swap testing.
 *
 * Fills an anonymous mapping with per-page contents that can be recomputed
 * from (seed, page index, generation), optionally pushes it out to swap with
 * MADV_PAGEOUT (or lets memory pressure do it), and verifies it page by page.
 * Nothing about the expected contents is stored: verification regenerates
 * each page into a scratch buffer and memcmp()s it against the region.
 *
 * Usage: gs-memtest --size SIZE [options]    (see --help)
 *
 *   --size SIZE        region size, K/M/G/T suffix (1024-based); required
 *   --mix Z:C:I        zero : compressible : incompressible page ratio (1:2:1)
 *   --seed N           PRNG seed (default 0x67686f7374737770)
 *   --passes N         verify passes (default 1)
 *   --random           fill, rewrite and verify in a pseudo-random order
 *   --pageout          MADV_PAGEOUT the whole region before each verify pass
 *                      (and before --fork and --hold waits)
 *   --settle           before each MADV_PAGEOUT, wait (up to 10 s) until no
 *                      page is under writeback (/proc/meminfo Writeback)
 *   --drain            after each MADV_PAGEOUT, wait (up to 10 s) until no
 *                      page is under writeback, within the phase's time, so
 *                      that it ends when the writes are done, not submitted
 *   --thp              2M-align the region and madvise(MADV_HUGEPAGE) it
 *   --fork             after fill: fork; the child verifies, rewrites its COW
 *                      copy (generation 0x1000 + gen) and verifies that; the
 *                      parent then verifies its own copy as usual
 *   --rewrite          after the verify passes, rewrite every page with
 *                      generation 2 and run the verify passes again
 *   --rewrite-hold SECS  --rewrite, but first print "phase=rewrite-hold
 *                      state=ready" and wait up to SECS seconds for SIGUSR1
 *                      (e.g. sent after zswap is turned on)
 *   --hold SECS        after everything else, print "phase=hold state=ready",
 *                      wait up to SECS seconds for SIGUSR1 (e.g. sent after a
 *                      swapoff), then verify once more whether or not it came
 *                      ("state=signal" or "state=timeout" tells which)
 *
 * Hidden (for harness self-tests):
 *   --selftest-corrupt N   after the generation-1 fill, XOR one byte of page N
 *                          with 0xff so verification must fail (exit 1)
 *
 * Page layout:
 *   zero:  all bytes zero (the class may change between generations, so
 *          --rewrite also exercises zero <-> data transitions)
 *   comp:  header, then 64-byte lines; each line is either a text-like line
 *          (words picked by the page's PRNG; the same line within a page)
 *          or 64 PRNG bytes (~30% of lines): ~3:1 with LZ4 per 4 KiB page
 *   rand:  header, then PRNG bytes
 *   header (first 16 bytes, native endian): u64 page index,
 *          u64 (0x544d5347 "GSMT" << 32 | generation << 8 | class)
 *
 * Output: one line per event, "gs-memtest: key=value ...", e.g.
 *   gs-memtest: start size=... pages=... page_size=... mix=1:2:1 ...
 *   gs-memtest: phase=fill gen=1 pass=- pages=N bytes=B secs=S mibps=M
 *               utime=U stime=S majflt=F minflt=F rss_kb=R swap_kb=W
 *   gs-memtest: phase=pageout chunks=N settle_ms=W drain_ms=D left=L bytes=B
 *               secs=S ...   (L: pages of the region no longer in memory,
 *               by mincore(2), once the phase ends)
 *   gs-memtest: phase=verify gen=1 pass=1 pages=N mismatches=M bytes=B ...
 *   gs-memtest: mismatch gen=1 pass=1 page=P class=C offset=O diff_bytes=D
 *               expected=HEX got=HEX got_page=P got_gen=G   (max 10 per pass)
 *   gs-memtest: phase=fork child_pid=PID child_status=exit:0
 *   gs-memtest: phase=hold|rewrite-hold state=ready pid=PID timeout=SECS
 *   gs-memtest: phase=hold|rewrite-hold state=signal|timeout waited=SECS
 *   gs-memtest: result=pass|fail mismatches=M errors=E exit=X
 * All lines go to stdout, line buffered; warnings/errors also to stderr.
 *
 * Exit status: 0 all verified, 1 any mismatch (also in the --fork child),
 * 2 usage error, 3 mmap/allocation failure, 4 other runtime error
 * (madvise, fork, child killed, ...). A mismatch wins over 4.
 *
 * SIGUSR1 is blocked for the whole run so an early signal is not fatal; one
 * that arrives before the hold "ready" line is discarded.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>

#ifndef MADV_HUGEPAGE
#define MADV_HUGEPAGE 14
#endif
#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

#define EXIT_OK		0
#define EXIT_MISMATCH	1
#define EXIT_USAGE	2
#define EXIT_NOMEM	3
#define EXIT_SYSERR	4

#define PFX		"gs-memtest: "
#define HDR_MAGIC	0x544d5347ULL	/* "GSMT" */
#define COMP_LINE	64
#define COMP_RAND_PCT	30
#define MAX_REPORT	10
#define PAGEOUT_CHUNK	(64ULL << 20)
#define SETTLE_MAX_MS	10000
#define CHILD_GEN	0x1000u
#define DEFAULT_SEED	0x67686f7374737770ULL	/* "ghostswp" */

#define SALT_CLASS	0x636c617373ULL
#define SALT_DATA	0x64617461ULL
#define SALT_ORDER	0x6f72646572ULL

enum page_class { CLS_ZERO, CLS_COMP, CLS_RAND, NR_CLASSES };
static const char *const class_name[NR_CLASSES] = { "zero", "comp", "rand" };

static struct {
	uint64_t size;
	uint64_t pages;
	size_t psz;
	unsigned int mix[NR_CLASSES];
	uint64_t mix_total;
	uint64_t seed;
	unsigned int passes;
	bool random;
	bool pageout;
	bool settle;
	bool drain;
	bool thp;
	bool fork;
	bool rewrite;
	long rewrite_hold;
	long hold;
	int64_t corrupt;
} cfg = {
	.mix = { 1, 2, 1 },
	.seed = DEFAULT_SEED,
	.passes = 1,
	.corrupt = -1,
};

static unsigned char *region;
static uint64_t *expbuf;
static unsigned char *zerobuf;
static uint64_t errors;

static const char *const words[32] = {
	"swap", "page", "slot", "ghost", "zero", "cache", "disk", "block",
	"kernel", "write", "read", "entry", "map", "anon", "fault", "lru",
	"memory", "cgroup", "reclaim", "folio", "queue", "device", "sector",
	"offset", "index", "count", "flush", "evict", "shadow", "cluster",
	"table", "frame",
};

/* ---- PRNG: splitmix64 ---- */

static inline uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline uint64_t rnd(uint64_t *s)
{
	*s += 0x9e3779b97f4a7c15ULL;
	return mix64(*s);
}

static uint64_t key3(uint64_t salt, uint64_t a, uint64_t b)
{
	uint64_t h = mix64(cfg.seed ^ salt);

	h = mix64(h ^ a);
	return mix64(h ^ (b * 0x9e3779b97f4a7c15ULL));
}

static enum page_class page_class(uint64_t idx, uint32_t gen)
{
	uint64_t r = key3(SALT_CLASS, idx, gen) % cfg.mix_total;

	if (r < cfg.mix[CLS_ZERO])
		return CLS_ZERO;
	if (r < cfg.mix[CLS_ZERO] + cfg.mix[CLS_COMP])
		return CLS_COMP;
	return CLS_RAND;
}

/* Build one text-like 64-byte line: words separated by spaces. */
static void text_line(uint64_t *line, uint64_t *s)
{
	char *p = (char *)line;
	size_t n = 0;

	while (n < COMP_LINE) {
		uint64_t r = rnd(s);
		const char *w = words[r & 31];
		size_t l = strlen(w);

		if (l > COMP_LINE - n)
			l = COMP_LINE - n;
		memcpy(p + n, w, l);
		n += l;
		if (n < COMP_LINE)
			p[n++] = (r >> 8) % 7 ? ' ' : '\n';
	}
}

/* Generate the contents of a non-zero page into w (psz bytes). */
static void gen_page(uint64_t *w, uint64_t idx, uint32_t gen,
		     enum page_class cls)
{
	size_t nw = cfg.psz / 8, i, l;
	uint64_t s = key3(SALT_DATA, idx, gen);
	uint64_t line[COMP_LINE / 8];

	w[0] = idx;
	w[1] = HDR_MAGIC << 32 | (uint64_t)(gen & 0xffffff) << 8 | cls;

	if (cls == CLS_RAND) {
		for (i = 2; i < nw; i++)
			w[i] = rnd(&s);
		return;
	}

	text_line(line, &s);
	for (i = 2; i < COMP_LINE / 8; i++)
		w[i] = line[i];
	for (l = 1; l < nw / (COMP_LINE / 8); l++) {
		uint64_t *d = w + l * (COMP_LINE / 8);

		if (rnd(&s) % 100 < COMP_RAND_PCT) {
			for (i = 0; i < COMP_LINE / 8; i++)
				d[i] = rnd(&s);
		} else {
			memcpy(d, line, COMP_LINE);
		}
	}
}

static void fill_page(unsigned char *p, uint64_t idx, uint32_t gen)
{
	enum page_class cls = page_class(idx, gen);

	if (cls == CLS_ZERO)
		memset(p, 0, cfg.psz);
	else
		gen_page((uint64_t *)p, idx, gen, cls);
}

/* ---- access order: sequential or a storage-free permutation ---- */

struct order {
	uint64_t n, mask, i;
	uint64_t k[4];
	unsigned int shift;
	bool random;
};

static void order_init(struct order *o, uint64_t n, uint64_t salt)
{
	unsigned int bits = 0, r;

	memset(o, 0, sizeof(*o));
	o->n = n;
	o->random = cfg.random;
	while (bits < 64 && (1ULL << bits) < n)
		bits++;
	o->mask = bits >= 64 ? ~0ULL : (1ULL << bits) - 1;
	o->shift = bits / 2 + 1;
	for (r = 0; r < 4; r++)
		o->k[r] = key3(SALT_ORDER, salt, r);
}

/* A bijection on [0, mask]: odd multiply, xorshift, add; all mod 2^bits. */
static inline uint64_t perm(const struct order *o, uint64_t x)
{
	unsigned int r;

	for (r = 0; r < 4; r++) {
		x = (x * (o->k[r] | 1)) & o->mask;
		x ^= x >> o->shift;
		x = (x + (o->k[r] >> 17)) & o->mask;
	}
	return x;
}

static bool order_next(struct order *o, uint64_t *idx)
{
	if (!o->random) {
		if (o->i >= o->n)
			return false;
		*idx = o->i++;
		return true;
	}
	/*
	 * Walk the whole 2^bits domain (at most 2n steps) and keep the
	 * images that land below n: a permutation of [0, n).
	 */
	while (o->i <= o->mask) {
		uint64_t x = perm(o, o->i++);

		if (x < o->n) {
			*idx = x;
			return true;
		}
	}
	return false;
}

/* ---- phase statistics ---- */

struct phase {
	struct timespec t0;
	struct rusage ru0;
};

static double ts_sec(const struct timespec *t)
{
	return t->tv_sec + t->tv_nsec / 1e9;
}

static double tv_sec(const struct timeval *t)
{
	return t->tv_sec + t->tv_usec / 1e6;
}

static void phase_begin(struct phase *ph)
{
	clock_gettime(CLOCK_MONOTONIC, &ph->t0);
	getrusage(RUSAGE_SELF, &ph->ru0);
}

/* The "KEY: N kB" value of KEY in a /proc file, or -1. */
static long proc_kb(const char *path, const char *key)
{
	char line[256];
	size_t kl = strlen(key);
	long v = -1;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, kl) && line[kl] == ':') {
			v = strtol(line + kl + 1, NULL, 10);
			break;
		}
	}
	fclose(f);
	return v;
}

/* Print the tail of a phase line: timings, rusage deltas and memory. */
static void phase_end(const struct phase *ph, uint64_t bytes)
{
	struct timespec t1;
	struct rusage ru1;
	double secs;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	getrusage(RUSAGE_SELF, &ru1);
	secs = ts_sec(&t1) - ts_sec(&ph->t0);
	printf("bytes=%" PRIu64 " secs=%.3f mibps=%.1f utime=%.3f stime=%.3f majflt=%ld minflt=%ld rss_kb=%ld swap_kb=%ld\n",
	       bytes, secs,
	       secs > 0 ? bytes / secs / (1024.0 * 1024.0) : 0.0,
	       tv_sec(&ru1.ru_utime) - tv_sec(&ph->ru0.ru_utime),
	       tv_sec(&ru1.ru_stime) - tv_sec(&ph->ru0.ru_stime),
	       ru1.ru_majflt - ph->ru0.ru_majflt,
	       ru1.ru_minflt - ph->ru0.ru_minflt,
	       proc_kb("/proc/self/status", "VmRSS"),
	       proc_kb("/proc/self/status", "VmSwap"));
}

/* ---- phases ---- */

static void do_fill(const char *phase, const char *pass, uint32_t gen)
{
	struct phase ph;
	struct order o;
	uint64_t idx;

	phase_begin(&ph);
	order_init(&o, cfg.pages, (uint64_t)gen << 32 | 0xf111);
	while (order_next(&o, &idx))
		fill_page(region + idx * cfg.psz, idx, gen);
	printf(PFX "phase=%s gen=%u pass=%s pages=%" PRIu64 " ",
	       phase, gen, pass, cfg.pages);
	phase_end(&ph, cfg.size);
	if (cfg.thp)
		printf(PFX "phase=%s gen=%u pass=%s anon_huge_kb=%ld\n",
		       phase, gen, pass, proc_kb("/proc/self/smaps_rollup", "AnonHugePages"));
}

static void hexdump(char *out, const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", p[i]);
	out[2 * n] = '\0';
}

static void report_mismatch(const char *pass, uint32_t gen, uint64_t idx,
			    enum page_class cls, const unsigned char *got,
			    const unsigned char *exp)
{
	size_t off, n, diff = 0, i;
	char ehex[33], ghex[33];
	const uint64_t *gw = (const uint64_t *)got;
	long long got_page = -1, got_gen = -1;

	for (off = 0; off < cfg.psz && got[off] == exp[off]; off++)
		;
	for (i = off; i < cfg.psz; i++)
		diff += got[i] != exp[i];
	n = cfg.psz - off < 16 ? cfg.psz - off : 16;
	hexdump(ehex, exp + off, n);
	hexdump(ghex, got + off, n);
	if (gw[1] >> 32 == HDR_MAGIC) {
		got_page = (long long)gw[0];
		got_gen = (long long)((gw[1] >> 8) & 0xffffff);
	}
	printf(PFX "mismatch gen=%u pass=%s page=%" PRIu64 " class=%s offset=%zu diff_bytes=%zu expected=%s got=%s got_page=%lld got_gen=%lld\n",
	       gen, pass, idx, class_name[cls], off, diff, ehex, ghex,
	       got_page, got_gen);
}

static uint64_t do_verify(const char *pass, uint32_t gen, uint64_t salt)
{
	struct phase ph;
	struct order o;
	uint64_t idx, bad = 0;

	phase_begin(&ph);
	order_init(&o, cfg.pages, salt);
	while (order_next(&o, &idx)) {
		const unsigned char *p = region + idx * cfg.psz;
		enum page_class cls = page_class(idx, gen);
		const unsigned char *exp = zerobuf;

		if (cls != CLS_ZERO) {
			gen_page(expbuf, idx, gen, cls);
			exp = (const unsigned char *)expbuf;
		}
		if (memcmp(p, exp, cfg.psz)) {
			if (bad < MAX_REPORT)
				report_mismatch(pass, gen, idx, cls, p, exp);
			bad++;
		}
	}
	printf(PFX "phase=verify gen=%u pass=%s pages=%" PRIu64 " mismatches=%" PRIu64 " ",
	       gen, pass, cfg.pages, bad);
	phase_end(&ph, cfg.size);
	return bad;
}

/* /proc/meminfo's Writeback in KiB, or -1 if it cannot be read */
static long writeback_kib(void)
{
	char line[128];
	long kib = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Writeback: %ld kB", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

/*
 * A page faulted back while its swap write is still in flight cannot be
 * paged out again until the write completes: MADV_PAGEOUT skips it.  Wait
 * for writeback to drain first; return the milliseconds waited.
 */
static long settle_writeback(void)
{
	const struct timespec tick = { .tv_nsec = 10 * 1000 * 1000 };
	long ms;

	for (ms = 0; ms < SETTLE_MAX_MS && writeback_kib() > 0; ms += 10)
		nanosleep(&tick, NULL);
	return ms;
}

/* Pages of the region mincore(2) says are not in memory, or -1 */
static long pages_left(void)
{
	size_t n = (cfg.size + cfg.psz - 1) / cfg.psz, i;
	unsigned char *vec = malloc(n);
	long left = 0;

	if (!vec || mincore(region, cfg.size, vec)) {
		free(vec);
		return -1;
	}
	for (i = 0; i < n; i++)
		left += !(vec[i] & 1);
	free(vec);
	return left;
}

static void do_pageout(void)
{
	struct phase ph;
	uint64_t off, chunks = 0;
	long settle_ms = cfg.settle ? settle_writeback() : 0, drain_ms;

	phase_begin(&ph);
	for (off = 0; off < cfg.size; off += PAGEOUT_CHUNK) {
		uint64_t len = cfg.size - off;

		if (len > PAGEOUT_CHUNK)
			len = PAGEOUT_CHUNK;
		if (madvise(region + off, len, MADV_PAGEOUT)) {
			fprintf(stderr, PFX "error: madvise(MADV_PAGEOUT): %s\n",
				strerror(errno));
			printf(PFX "error=madvise_pageout errno=%d\n", errno);
			errors++;
			break;
		}
		chunks++;
	}
	drain_ms = cfg.drain ? settle_writeback() : 0;
	printf(PFX "phase=pageout chunks=%" PRIu64 " settle_ms=%ld drain_ms=%ld left=%ld ",
	       chunks, settle_ms, drain_ms, pages_left());
	phase_end(&ph, off < cfg.size ? off : cfg.size);
}

static uint64_t verify_passes(uint32_t gen)
{
	uint64_t bad = 0;
	unsigned int p;
	char pass[16];

	for (p = 1; p <= cfg.passes; p++) {
		if (cfg.pageout)
			do_pageout();
		snprintf(pass, sizeof(pass), "%u", p);
		bad += do_verify(pass, gen, (uint64_t)gen << 32 | p);
	}
	return bad;
}

/* Returns mismatches seen by the child (1 if it failed at all). */
static uint64_t do_fork(uint32_t gen)
{
	int status;
	pid_t pid;
	char st[32];

	if (cfg.pageout)
		do_pageout();
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, PFX "error: fork: %s\n", strerror(errno));
		printf(PFX "error=fork errno=%d\n", errno);
		errors++;
		return 0;
	}
	if (pid == 0) {
		uint64_t bad;

		bad = do_verify("child", gen, 0xc0c0);
		do_fill("rewrite", "child", CHILD_GEN + gen);
		bad += do_verify("child", CHILD_GEN + gen, 0xc0c1);
		fflush(stdout);
		_exit(bad ? EXIT_MISMATCH : EXIT_OK);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			fprintf(stderr, PFX "error: waitpid: %s\n",
				strerror(errno));
			errors++;
			return 0;
		}
	}
	if (WIFEXITED(status))
		snprintf(st, sizeof(st), "exit:%d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(st, sizeof(st), "signal:%d", WTERMSIG(status));
	else
		snprintf(st, sizeof(st), "unknown:%d", status);
	printf(PFX "phase=fork child_pid=%d child_status=%s\n", (int)pid, st);
	if (WIFEXITED(status) && WEXITSTATUS(status) == EXIT_MISMATCH)
		return 1;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != EXIT_OK)
		errors++;
	return 0;
}

/* Print "phase=PHASE state=ready", wait up to @secs for SIGUSR1 */
static void wait_signal(const char *phase, long secs)
{
	struct timespec start, now, left;
	sigset_t set;
	bool got = false;
	double waited;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	/* Only a SIGUSR1 sent after the ready line counts: drop earlier ones. */
	left.tv_sec = 0;
	left.tv_nsec = 0;
	while (sigtimedwait(&set, NULL, &left) == SIGUSR1)
		;
	printf(PFX "phase=%s state=ready pid=%d timeout=%ld\n",
	       phase, (int)getpid(), secs);
	fflush(stdout);
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		double rem;

		clock_gettime(CLOCK_MONOTONIC, &now);
		rem = secs - (ts_sec(&now) - ts_sec(&start));
		if (rem <= 0)
			break;
		left.tv_sec = (time_t)rem;
		left.tv_nsec = (long)((rem - left.tv_sec) * 1e9);
		if (sigtimedwait(&set, NULL, &left) == SIGUSR1) {
			got = true;
			break;
		}
		if (errno == EAGAIN)
			break;
		if (errno != EINTR) {
			fprintf(stderr, PFX "error: sigtimedwait: %s\n",
				strerror(errno));
			errors++;
			break;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &now);
	waited = ts_sec(&now) - ts_sec(&start);
	printf(PFX "phase=%s state=%s waited=%.3f\n",
	       phase, got ? "signal" : "timeout", waited);
}

static uint64_t do_hold(uint32_t gen)
{
	if (cfg.pageout)
		do_pageout();
	wait_signal("hold", cfg.hold);
	return do_verify("hold", gen, (uint64_t)gen << 32 | 0x401d);
}

/* ---- option parsing ---- */

static void usage(FILE *f)
{
	fprintf(f,
"Usage: gs-memtest --size SIZE [options]\n"
"Fill anonymous memory with recomputable per-page patterns, let it go to\n"
"swap, and verify it page by page.\n"
"\n"
"  -s, --size SIZE     region size; suffix K, M, G or T (1024-based); required\n"
"  -m, --mix Z:C:I     ratio of zero : compressible (~3:1 lz4) :\n"
"                      incompressible pages (default 1:2:1)\n"
"  -S, --seed N        PRNG seed, decimal or 0x hex (default %#llx)\n"
"  -n, --passes N      verify passes (default 1)\n"
"  -r, --random        fill and verify in pseudo-random page order\n"
"  -o, --pageout       madvise(MADV_PAGEOUT) the region (64M chunks) before\n"
"                      each verify pass, the --fork and the --hold wait\n"
"  -W, --settle        before each MADV_PAGEOUT, wait up to 10 s until no page\n"
"                      is under writeback\n"
"  -D, --drain         after each MADV_PAGEOUT, wait up to 10 s until no page\n"
"                      is under writeback, timed with the pageout\n"
"  -t, --thp           2M-align the region and madvise(MADV_HUGEPAGE) it\n"
"  -f, --fork          after fill, fork: the child verifies, rewrites its\n"
"                      copy-on-write copy and verifies that; then the parent\n"
"                      verifies its own copy\n"
"  -w, --rewrite       after the verify passes, rewrite all pages with\n"
"                      generation 2 and run the verify passes again\n"
"      --rewrite-hold SECS  --rewrite, but first print\n"
"                      'phase=rewrite-hold state=ready' and wait up to SECS\n"
"                      for SIGUSR1\n"
"  -H, --hold SECS     at the end, print 'phase=hold state=ready', wait up to\n"
"                      SECS for SIGUSR1, then verify once more\n"
"  -h, --help          show this help\n"
"\n"
"Output: 'gs-memtest: key=value ...' lines on stdout.\n"
"Exit: 0 verified, 1 mismatch, 2 usage, 3 mmap/allocation failure,\n"
"      4 other runtime error.\n",
		(unsigned long long)DEFAULT_SEED);
}

static void __attribute__((noreturn, format(printf, 1, 2)))
usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs(PFX "", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'gs-memtest --help'.\n", stderr);
	exit(EXIT_USAGE);
}

static uint64_t parse_u64(const char *s, const char *what, uint64_t max)
{
	unsigned long long v;
	char *end;

	errno = 0;
	if (!*s || *s == '-')
		usage_error("invalid %s '%s'", what, s);
	v = strtoull(s, &end, 0);
	if (errno || *end || v > max)
		usage_error("invalid %s '%s'", what, s);
	return v;
}

static uint64_t parse_size(const char *s)
{
	unsigned long long v;
	unsigned int shift = 0;
	char *end;

	errno = 0;
	if (*s < '0' || *s > '9')
		usage_error("invalid size '%s'", s);
	v = strtoull(s, &end, 10);
	if (errno)
		usage_error("invalid size '%s'", s);
	switch (*end) {
	case '\0':
		break;
	case 'k': case 'K':
		shift = 10;
		break;
	case 'm': case 'M':
		shift = 20;
		break;
	case 'g': case 'G':
		shift = 30;
		break;
	case 't': case 'T':
		shift = 40;
		break;
	default:
		usage_error("invalid size '%s'", s);
	}
	if (*end && end[1])
		usage_error("invalid size '%s'", s);
	if (!v || v > (~0ULL >> 1) >> shift)
		usage_error("invalid size '%s'", s);
	return (uint64_t)v << shift;
}

static void parse_mix(const char *s)
{
	unsigned int i;
	const char *p = s;

	cfg.mix_total = 0;
	for (i = 0; i < NR_CLASSES; i++) {
		unsigned long v;
		char *end;

		if (*p < '0' || *p > '9')
			usage_error("invalid mix '%s' (want Z:C:I)", s);
		errno = 0;
		v = strtoul(p, &end, 10);
		if (errno || v > 1000000 ||
		    (i < NR_CLASSES - 1 ? *end != ':' : *end != '\0'))
			usage_error("invalid mix '%s' (want Z:C:I)", s);
		cfg.mix[i] = v;
		cfg.mix_total += v;
		p = end + 1;
	}
	if (!cfg.mix_total)
		usage_error("invalid mix '%s': all zero", s);
}

static void parse_args(int argc, char **argv)
{
	enum { OPT_CORRUPT = 0x100, OPT_REWRITE_HOLD };
	static const struct option opts[] = {
		{ "size",		required_argument, NULL, 's' },
		{ "mix",		required_argument, NULL, 'm' },
		{ "seed",		required_argument, NULL, 'S' },
		{ "passes",		required_argument, NULL, 'n' },
		{ "random",		no_argument,	   NULL, 'r' },
		{ "pageout",		no_argument,	   NULL, 'o' },
		{ "settle",		no_argument,	   NULL, 'W' },
		{ "drain",		no_argument,	   NULL, 'D' },
		{ "thp",		no_argument,	   NULL, 't' },
		{ "fork",		no_argument,	   NULL, 'f' },
		{ "rewrite",		no_argument,	   NULL, 'w' },
		{ "rewrite-hold",	required_argument, NULL, OPT_REWRITE_HOLD },
		{ "hold",		required_argument, NULL, 'H' },
		{ "help",		no_argument,	   NULL, 'h' },
		{ "selftest-corrupt",	required_argument, NULL, OPT_CORRUPT },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	cfg.mix_total = cfg.mix[0] + cfg.mix[1] + cfg.mix[2];
	while ((c = getopt_long(argc, argv, "s:m:S:n:roWDtfwH:h", opts,
				NULL)) != -1) {
		switch (c) {
		case 's':
			cfg.size = parse_size(optarg);
			break;
		case 'm':
			parse_mix(optarg);
			break;
		case 'S':
			cfg.seed = parse_u64(optarg, "seed", ~0ULL);
			break;
		case 'n':
			cfg.passes = parse_u64(optarg, "passes", 1000000);
			if (!cfg.passes)
				usage_error("--passes must be at least 1");
			break;
		case 'r':
			cfg.random = true;
			break;
		case 'o':
			cfg.pageout = true;
			break;
		case 'W':
			cfg.settle = true;
			break;
		case 'D':
			cfg.drain = true;
			break;
		case 't':
			cfg.thp = true;
			break;
		case 'f':
			cfg.fork = true;
			break;
		case 'w':
			cfg.rewrite = true;
			break;
		case OPT_REWRITE_HOLD:
			cfg.rewrite = true;
			cfg.rewrite_hold = parse_u64(optarg, "rewrite hold seconds",
						     1000000);
			if (!cfg.rewrite_hold)
				usage_error("--rewrite-hold must be at least 1 second");
			break;
		case 'H':
			cfg.hold = parse_u64(optarg, "hold seconds", 1000000);
			if (!cfg.hold)
				usage_error("--hold must be at least 1 second");
			break;
		case 'h':
			usage(stdout);
			exit(EXIT_OK);
		case OPT_CORRUPT:
			cfg.corrupt = parse_u64(optarg, "page", INT64_MAX);
			break;
		default:
			fputs("Try 'gs-memtest --help'.\n", stderr);
			exit(EXIT_USAGE);
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	if (!cfg.size)
		usage_error("--size is required");
}

static size_t thp_size(void)
{
	unsigned long long v = 0;
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size",
			"r");

	if (f) {
		if (fscanf(f, "%llu", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v ? v : 2UL << 20;
}

static int map_region(void)
{
	size_t align = cfg.thp ? thp_size() : cfg.psz;
	size_t len = cfg.size + align - cfg.psz;
	uintptr_t start, a;
	void *p;

	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED) {
		fprintf(stderr, PFX "error: mmap %zu bytes: %s\n", len,
			strerror(errno));
		printf(PFX "error=mmap errno=%d\n", errno);
		return -1;
	}
	start = (uintptr_t)p;
	a = (start + align - 1) & ~(uintptr_t)(align - 1);
	if (a > start)
		munmap(p, a - start);
	if (start + len > a + cfg.size)
		munmap((void *)(a + cfg.size), start + len - (a + cfg.size));
	region = (unsigned char *)a;

	if (cfg.thp && madvise(region, cfg.size, MADV_HUGEPAGE)) {
		fprintf(stderr, PFX "error: madvise(MADV_HUGEPAGE): %s\n",
			strerror(errno));
		printf(PFX "error=madvise_hugepage errno=%d\n", errno);
		errors++;
	}
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t bad = 0;
	uint32_t gen = 1;
	sigset_t set;
	long psz;
	int rc;

	/* Never die from an early SIGUSR1; --hold collects it. */
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	setvbuf(stdout, NULL, _IOLBF, 0);

	psz = sysconf(_SC_PAGESIZE);
	if (psz <= 0 || psz % COMP_LINE) {
		fprintf(stderr, PFX "error: unusable page size %ld\n", psz);
		return EXIT_SYSERR;
	}
	cfg.psz = psz;

	parse_args(argc, argv);
	cfg.size = (cfg.size + cfg.psz - 1) / cfg.psz * cfg.psz;
	cfg.pages = cfg.size / cfg.psz;
	if (cfg.corrupt >= 0 && (uint64_t)cfg.corrupt >= cfg.pages)
		usage_error("--selftest-corrupt page %" PRId64 " out of range (pages=%" PRIu64 ")",
			    cfg.corrupt, cfg.pages);

	printf(PFX "start size=%" PRIu64 " pages=%" PRIu64 " page_size=%zu mix=%u:%u:%u seed=%#" PRIx64 " passes=%u order=%s pageout=%d thp=%d fork=%d rewrite=%d hold=%ld pid=%d\n",
	       cfg.size, cfg.pages, cfg.psz, cfg.mix[0], cfg.mix[1],
	       cfg.mix[2], cfg.seed, cfg.passes,
	       cfg.random ? "random" : "seq", cfg.pageout, cfg.thp,
	       cfg.fork, cfg.rewrite, cfg.hold, (int)getpid());

	expbuf = aligned_alloc(64, cfg.psz);
	zerobuf = calloc(1, cfg.psz);
	if (!expbuf || !zerobuf) {
		fprintf(stderr, PFX "error: out of memory\n");
		return EXIT_NOMEM;
	}
	if (map_region())
		return EXIT_NOMEM;

	do_fill("fill", "-", gen);
	if (cfg.corrupt >= 0) {
		size_t off = cfg.psz / 2 + 5;

		region[cfg.corrupt * cfg.psz + off] ^= 0xff;
		printf(PFX "selftest corrupt page=%" PRId64 " offset=%zu\n",
		       cfg.corrupt, off);
	}
	if (cfg.fork)
		bad += do_fork(gen);
	bad += verify_passes(gen);
	if (cfg.rewrite) {
		gen = 2;
		if (cfg.rewrite_hold)
			wait_signal("rewrite-hold", cfg.rewrite_hold);
		do_fill("rewrite", "-", gen);
		bad += verify_passes(gen);
	}
	if (cfg.hold)
		bad += do_hold(gen);

	rc = bad ? EXIT_MISMATCH : errors ? EXIT_SYSERR : EXIT_OK;
	printf(PFX "result=%s mismatches=%" PRIu64 " errors=%" PRIu64 " exit=%d\n",
	       rc ? "fail" : "pass", bad, errors, rc);
	return rc;
}
