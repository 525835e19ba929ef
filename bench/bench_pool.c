/* ember benchmark: the caching pool's alloc+free cost from C.
 *
 * 1e6 em_malloc + em_free pairs on the default device and stream, sizes
 * spread from 256 bytes to 1 MiB (a fixed pseudo-random sequence, so runs
 * compare); after the first pass every pair is a cache hit, which is the
 * case DESIGN.md promises "well under a microsecond". Also a batch
 * pattern (8 live blocks at a time) and one thread per core for contention.
 *
 * usage: bench_pool [pairs]    (EMBER_DEVICE picks the device) */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "ember/ember.h"

#define NSIZES 4096

static size_t sizes[NSIZES];
static long pairs = 1000000;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void make_sizes(void)
{
    uint64_t x = 0x9E3779B97F4A7C15ull;
    int i;
    for (i = 0; i < NSIZES; i++) {
        /* log-uniform over [2^8, 2^20]: as many small as large blocks */
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        sizes[i] = (size_t)1 << (8 + x % 13);
        sizes[i] += (size_t)((x >> 8) % sizes[i]);
        if (sizes[i] > ((size_t)1 << 20))
            sizes[i] = (size_t)1 << 20;
    }
}

static int fail(const char *what, em_status s)
{
    fprintf(stderr, "bench_pool: %s: %s: %s\n", what, em_status_name(s), em_last_error());
    return 1;
}

/* ns per pair of one malloc and its free, back to back. */
static int run_pairs(em_device *d, double *ns)
{
    double t0;
    void *p;
    long i;
    em_status s;
    for (i = 0; i < NSIZES; i++) {   /* warm: every class cached once */
        if ((s = em_malloc(d, sizes[i], NULL, &p)) != EM_OK)
            return fail("em_malloc", s);
        em_free(d, p, NULL);
    }
    t0 = now_s();
    for (i = 0; i < pairs; i++) {
        if ((s = em_malloc(d, sizes[i & (NSIZES - 1)], NULL, &p)) != EM_OK)
            return fail("em_malloc", s);
        if ((s = em_free(d, p, NULL)) != EM_OK)
            return fail("em_free", s);
    }
    *ns = (now_s() - t0) * 1e9 / (double)pairs;
    return 0;
}

/* 8 live blocks: allocate 8, free 8. */
static int run_batch(em_device *d, double *ns)
{
    void *p[8];
    double t0;
    long i;
    int k;
    em_status s;
    t0 = now_s();
    for (i = 0; i < pairs; i += 8) {
        for (k = 0; k < 8; k++)
            if ((s = em_malloc(d, sizes[(i + k) & (NSIZES - 1)], NULL, &p[k])) != EM_OK)
                return fail("em_malloc", s);
        for (k = 0; k < 8; k++)
            em_free(d, p[k], NULL);
    }
    *ns = (now_s() - t0) * 1e9 / (double)pairs;
    return 0;
}

struct thread_arg {
    em_device *d;
    double ns;
    int rc;
};

static void *thread_main(void *v)
{
    struct thread_arg *a = v;
    a->rc = run_pairs(a->d, &a->ns);
    return NULL;
}

int main(int argc, char **argv)
{
    em_device *d;
    em_pool_stats st;
    em_status s;
    double ns;
    int nthreads = 4, i;
    pthread_t t[64];
    struct thread_arg args[64];

    if (argc > 1)
        pairs = atol(argv[1]) > 0 ? atol(argv[1]) : pairs;
    make_sizes();
    if ((s = em_device_default(&d)) != EM_OK)
        return fail("em_device_default", s);
    printf("device %s, %ld pairs, sizes 256 B .. 1 MiB\n", em_device_name(d), pairs);

    if (run_pairs(d, &ns))
        return 1;
    printf("%-34s %8.1f ns per malloc+free\n", "alloc+free, 1 thread", ns);
    if (run_batch(d, &ns))
        return 1;
    printf("%-34s %8.1f ns per malloc+free\n", "8 live blocks, 1 thread", ns);

    for (i = 0; i < nthreads; i++) {
        args[i].d = d;
        pthread_create(&t[i], NULL, thread_main, &args[i]);
    }
    ns = 0;
    for (i = 0; i < nthreads; i++) {
        pthread_join(t[i], NULL);
        if (args[i].rc)
            return 1;
        ns += args[i].ns;
    }
    printf("%-34s %8.1f ns per malloc+free (mean of %d)\n", "alloc+free, 4 threads",
           ns / nthreads, nthreads);

    em_pool_get_stats(d, &st);
    printf("pool: %llu allocations, %llu hits (%.2f%%), %zu bytes cached, peak %zu\n",
           (unsigned long long)st.n_allocs, (unsigned long long)st.n_hits,
           100.0 * (double)st.n_hits / (double)st.n_allocs, st.cached_bytes, st.peak_bytes);
    em_pool_free_all(d);
    return 0;
}
