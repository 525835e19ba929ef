/* Which cases a compile test samples. Compiling every kernel a generator
 * can make (op x dtype x layout x flags) costs minutes of NVRTC and cc on
 * a cold cache, most of it re-checking the same emitter code with another
 * dtype. The tests keep one axis exhaustive (every op with every dtype in
 * its common layout) and take the rest by rotation: a case is compiled
 * when (seed + its coordinates) falls on a residue, so every op meets
 * every variant, every dtype meets every variant, and each run takes a
 * different slice. The seed is printed; EMBER_TEST_SEED=N repeats a run. */
#ifndef EMBER_TEST_SAMPLE_H
#define EMBER_TEST_SAMPLE_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static unsigned sample_seed_value;

/* Reads EMBER_TEST_SEED or takes the clock; prints it once per test. */
static inline unsigned sample_seed(const char *test)
{
    static int done;
    const char *v = getenv("EMBER_TEST_SEED");
    if (done)
        return sample_seed_value;
    sample_seed_value = v && *v ? (unsigned)strtoul(v, NULL, 10)
                                : (unsigned)time(NULL) % 1000u;
    printf("%s: sampling seed %u (EMBER_TEST_SEED=%u repeats this run)\n",
           test, sample_seed_value, sample_seed_value);
    done = 1;
    return sample_seed_value;
}

/* Whether the case at coordinates (a, b, c) is in this run's 1-in-`every`
 * slice. Rotation rather than hashing: for fixed b and c, consecutive a
 * take every residue in turn, so no (b, c) pair is left out of a run
 * that walks at least `every` values of a. */
static inline int sample_pick(unsigned a, unsigned b, unsigned c,
                              unsigned every)
{
    return every <= 1 || (sample_seed_value + a + b + c) % every == 0;
}

/* NVRTC options for a test that asks only whether a kernel compiles:
 * -G skips NVVM's optimiser (half of NVRTC's time per kernel), as the
 * tests' host compiles use -O0. The front end, the types and the code
 * generator still see every line; the optimised build of each kernel is
 * what the GPU suite's calls compile. */
static const char *const sample_nvrtc_opts[] = {"-G"};
#define SAMPLE_NVRTC_NOPTS 1

#endif
