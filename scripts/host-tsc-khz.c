// SPDX-License-Identifier: GPL-2.0
/*
 * host-tsc-khz: print the rate of this x86-64 machine's time stamp counter, in kHz.
 *
 * Under TCG, QEMU gives the guest the host's TSC, but the guest kernel calibrates it
 * against the emulated PIT, which a busy host can throw off by a factor of 40: the
 * guest's clock then runs that much too fast and every timeout in it fires that much
 * early. run-qemu.sh passes this value as tsc_early_khz=; the guest refines it against
 * its HPET a second after boot.
 *
 * The TSC is read against CLOCK_MONOTONIC_RAW 200 ms apart; at each end the reading
 * taken between the two closest clock reads of 50 tries counts, so that a preemption
 * does not skew it.
 */
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <x86intrin.h>

struct tsc_sample {
	int64_t ns;
	uint64_t tsc;
};

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static struct tsc_sample tsc_sample(void)
{
	struct tsc_sample best = { 0, 0 };
	int64_t best_gap = INT64_MAX;

	for (int i = 0; i < 50; i++) {
		int64_t before = now_ns();
		uint64_t tsc = __rdtsc();
		int64_t after = now_ns();

		if (after - before < best_gap) {
			best_gap = after - before;
			best.ns = before + (after - before) / 2;
			best.tsc = tsc;
		}
	}
	return best;
}

int main(void)
{
	const struct timespec pause = { 0, 200 * 1000 * 1000 };
	struct tsc_sample start, end;

	start = tsc_sample();
	nanosleep(&pause, NULL);
	end = tsc_sample();
	if (end.ns <= start.ns || end.tsc <= start.tsc) {
		fprintf(stderr, "host-tsc-khz: the TSC or the clock did not advance\n");
		return 1;
	}
	printf("%llu\n", (unsigned long long)((end.tsc - start.tsc) * 1000000ULL /
					    (uint64_t)(end.ns - start.ns)));
	return 0;
}
