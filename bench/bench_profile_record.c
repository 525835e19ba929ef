/* What recording costs the host per operation while ember.profile() is
 * on (issue 24: at most 10% on a loop of small launches), from C, so the
 * Python loop's own time and noise stay out of it:
 *
 *   build/dev-NAME/bench_profile_record [cpu|cuda:0 [auto|events|cupti [PAIRS]]]
 *
 * (default cpu, auto: the profile's default device times, 101 pairs).
 * Two operations that go through the profiler's hooks: an in-place ufunc
 * `a = a + a` on 1,000 float32 (one launch, recorded as "add float32") and
 * a 4-byte fill (em_memset_async: no kernel, so the recording is most of
 * what the call costs). Batches of BATCH operations, unprofiled and inside
 * a profile back to back, which goes first alternating (ABBA), a
 * synchronize after each batch inside its timing; a profile is started
 * and stopped around each profiled batch, outside the timing. Printed: the
 * median per operation of each side and the median of the batches' paired
 * differences, in ns ("device times": the profile's source; on the cpu
 * device the host clock whatever it says). On the cpu device the default stream runs the
 * operation inside the call, so the difference is the recording itself
 * (two clock reads, the handshake, a 96-byte record, the name's parts);
 * on a GPU with CUPTI it is that plus CUPTI's own work in the driver. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ember/ember.h"
#include "ember/profile.h"
#include "bench_time.h"

#define BATCH 2000
#define MAX_PAIRS 1001

static int pairs = 101;
static em_prof_times how = EM_PROF_TIMES_AUTO;


static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

struct ctx {
    em_device *d;
    em_array a;
    em_operand in[2];
    void *cell;
};

typedef em_status (*op_fn)(struct ctx *c);

static em_status op_add(struct ctx *c)
{
    return em_ufunc_apply(EM_OP_ADD, c->in, 2, &c->a, NULL, NULL);
}

static em_status op_fill(struct ctx *c)
{
    return em_memset_async(c->d, c->cell, 0, 4, NULL);
}

/* ns per operation of one batch, profiled or not; < 0 on failure. */
static double batch(struct ctx *c, op_fn op, int profiled)
{
    double t0, t1;
    if (profiled && em_prof_start_with(how) != EM_OK)
        return -1;
    if (em_device_synchronize(c->d) != EM_OK)
        return -1;
    t0 = now_ns();
    for (int i = 0; i < BATCH; i++)
        if (op(c) != EM_OK)
            return -1;
    if (em_device_synchronize(c->d) != EM_OK)
        return -1;
    t1 = now_ns();
    if (profiled && (em_prof_stop() != EM_OK || em_prof_count() < BATCH))
        return -1;
    return (t1 - t0) / BATCH;
}

static int run(struct ctx *c, const char *name, op_fn op)
{
    static double off[MAX_PAIRS], on[MAX_PAIRS], diff[MAX_PAIRS];
    for (int w = 0; w < 3; w++)         /* compile, grow the buffers */
        if (batch(c, op, 0) < 0 || batch(c, op, 1) < 0)
            goto fail;
    for (int k = 0; k < pairs; k++) {
        int first = k % 2;              /* ABBA: which side goes first */
        double t[2];
        for (int j = 0; j < 2; j++)
            if ((t[first ^ j] = batch(c, op, first ^ j)) < 0)
                goto fail;
        off[k] = t[0];
        on[k] = t[1];
        diff[k] = t[1] - t[0];
    }
    printf("| %s | %s | %s | %.0f | %.0f | %+.0f | %+.1f%% |\n", name,
           em_device_name(c->d), em_prof_device_times() == EM_PROF_TIMES_CUPTI
           ? "cupti" : "events", median(off, pairs), median(on, pairs),
           median(diff, pairs), 100.0 * median(diff, pairs) / median(off, pairs));
    return 0;
fail:
    fprintf(stderr, "%s: %s\n", name, em_last_error());
    return 1;
}

int main(int argc, char **argv)
{
    const char *spec = argc > 1 ? argv[1] : "cpu";
    struct ctx c;
    int64_t n = 1000;
    int rc = 0;
    memset(&c, 0, sizeof c);
    if (argc > 2)
        how = !strcmp(argv[2], "events") ? EM_PROF_TIMES_EVENTS
            : !strcmp(argv[2], "cupti") ? EM_PROF_TIMES_CUPTI : EM_PROF_TIMES_AUTO;
    if (argc > 3 && (pairs = atoi(argv[3])) < 1)
        pairs = 1;
    if (pairs > MAX_PAIRS)
        pairs = MAX_PAIRS;
    if (em_device_get(strncmp(spec, "cuda", 4) ? EM_DEVICE_CPU : EM_DEVICE_CUDA,
                      strncmp(spec, "cuda:", 5) ? 0 : atoi(spec + 5), &c.d) != EM_OK ||
        em_array_empty(c.d, EM_FLOAT32, 1, &n, 'C', NULL, &c.a) != EM_OK ||
        em_memset_async(c.d, c.a.data, 0, 4000, NULL) != EM_OK) {
        fprintf(stderr, "%s: %s\n", spec, em_last_error());
        return 1;
    }
    c.in[0].array = c.in[1].array = &c.a;
    c.cell = c.a.data;
    printf("%d operations a batch, %d pairs of batches (ABBA), medians per operation\n",
           BATCH, pairs);
    printf("| operation | device | device times | off ns | profiling ns | difference ns "
           "| overhead |\n|---|---|---|---|---|---|---|\n");
    rc |= run(&c, "a = a + a (1,000 float32)", op_add);
    rc |= run(&c, "fill 4 B", op_fill);
    em_array_release(&c.a);
    return rc;
}
