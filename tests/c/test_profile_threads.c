/* The profiler's recording under threads (src/runtime/profile.c): each
 * host thread appends to a buffer of its own and stop meets the threads
 * through a busy flag, with no lock on the launch path. Here profiles
 * start and stop while worker threads launch (two on the device's default
 * stream, one on a created stream, which is timed by events), and threads
 * that record once and exit leave their records behind for the stop.
 * Each profile's records must be whole, in the order calls returned,
 * within the profile's span of time and on the profile's thread numbers;
 * the workers' results must be right. EMBER_TEST_DEVICE=cuda:0 runs the
 * same on a GPU. */
#define _GNU_SOURCE 1
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "ember/profile.h"

#define WORKERS 3
#define N 64

static em_device *dev;
static em_stream *created;
static int stop_flag;

struct worker {
    em_array x;
    long launches;
    int failed;          /* a launch that did not succeed */
    int on_created;
};

static int64_t mono_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* x += 1 once on the worker's stream; 0 on success */
static int in_place_add(struct worker *w)
{
    em_operand in[2];
    memset(in, 0, sizeof in);
    in[0].array = &w->x;
    in[1].dtype = EM_FLOAT64;   /* a weak Python float: the result stays float32 */
    in[1].weak = 1;
    in[1].value.f = 1.0;
    if (em_ufunc_apply(EM_OP_ADD, in, 2, &w->x, NULL,
                       w->on_created ? created : NULL) != EM_OK)
        return 1;
    w->launches++;
    return 0;
}

/* x += 1 until told to stop */
static void *work(void *p)
{
    struct worker *w = p;
    while (!__atomic_load_n(&stop_flag, __ATOMIC_RELAXED))
        if (in_place_add(w)) {
            w->failed = 1;
            break;
        }
    return NULL;
}

/* one launch on a thread that then exits */
static void *once(void *p)
{
    struct worker *w = p;
    w->failed = in_place_add(w);
    return NULL;
}

int main(void)
{
    const char *spec = getenv("EMBER_TEST_DEVICE");
    em_device_type type = spec && !strncmp(spec, "cuda", 4) ? EM_DEVICE_CUDA
                                                             : EM_DEVICE_CPU;
    struct worker w[WORKERS];
    pthread_t th[WORKERS];
    int64_t n = N;
    long seen = 0, on_created = 0;

    CHECK_OK(em_device_get(type, 0, &dev));
    CHECK_OK(em_stream_create(dev, EM_STREAM_NON_BLOCKING, &created));
    memset(w, 0, sizeof w);
    for (int i = 0; i < WORKERS; i++) {
        float zero = 0;
        w[i].on_created = i == WORKERS - 1;
        CHECK_OK(em_array_empty(dev, EM_FLOAT32, 1, &n, 'C', NULL, &w[i].x));
        CHECK_OK(em_array_fill(&w[i].x, &zero, EM_FLOAT32, NULL));
        CHECK_OK(em_device_synchronize(dev));
        /* compiled before the profiles, so no compile shows in them */
        CHECK(in_place_add(&w[i]) == 0);
    }
    CHECK_OK(em_device_synchronize(dev));
    for (int i = 0; i < WORKERS; i++)
        CHECK(pthread_create(&th[i], NULL, work, &w[i]) == 0);

    for (int round = 0; round < 40; round++) {
        const em_prof_record *r;
        size_t count;
        int64_t t0 = mono_ns(), t1, last = 0;
        struct timespec nap = {0, 1000000};
        CHECK_OK(round % 2 ? em_prof_start_with(EM_PROF_TIMES_EVENTS) : em_prof_start());
        nanosleep(&nap, NULL);
        CHECK_OK(em_prof_stop());
        t1 = mono_ns();
        count = em_prof_count();
        r = em_prof_records();
        for (size_t i = 0; i < count; i++) {
            CHECK(r[i].kind == EM_PROF_KERNEL);
            CHECK(r[i].name[0] != 0);
            CHECK(!strcmp(r[i].device, em_device_name(dev)));
            CHECK(r[i].stream == 0 || r[i].stream == 1);
            CHECK(r[i].thread >= 0 && r[i].thread < WORKERS);
            CHECK(t0 <= r[i].host_start && r[i].host_start <= r[i].host_end &&
                  r[i].host_end <= t1);
            CHECK(r[i].host_end >= last);   /* the order calls returned in */
            last = r[i].host_end;
            /* every launch has its device time: the host clock, events
             * or CUPTI's */
            CHECK(r[i].dev_start > 0 && r[i].dev_end >= r[i].dev_start);
            on_created += r[i].stream == 1;
        }
        seen += (long)count;
    }
    __atomic_store_n(&stop_flag, 1, __ATOMIC_RELAXED);
    for (int i = 0; i < WORKERS; i++) {
        float host[N];
        CHECK(pthread_join(th[i], NULL) == 0);
        CHECK(!w[i].failed);
        CHECK_OK(em_device_synchronize(dev));
        CHECK_OK(em_array_to_host(&w[i].x, host, NULL, NULL));
        for (int k = 0; k < N; k++)
            CHECK(host[k] == (float)w[i].launches);
    }
    CHECK(seen > 0);
    CHECK(on_created > 0);
    printf("%ld records over 40 profiles, %ld on the created stream\n", seen,
           on_created);

    /* threads that record once and exit: their buffers outlive them until
     * the stop, which frees them; then the same again */
    for (int round = 0; round < 2; round++) {
        struct worker one[20];
        int kernels = 0, threads_seen[20] = {0}, distinct = 0;
        memset(one, 0, sizeof one);
        for (int i = 0; i < 20; i++) {
            float zero = 0;
            CHECK_OK(em_array_empty(dev, EM_FLOAT32, 1, &n, 'C', NULL, &one[i].x));
            CHECK_OK(em_array_fill(&one[i].x, &zero, EM_FLOAT32, NULL));
        }
        CHECK_OK(em_device_synchronize(dev));
        CHECK_OK(em_prof_start());
        for (int i = 0; i < 20; i++) {
            pthread_t t;
            CHECK(pthread_create(&t, NULL, once, &one[i]) == 0);
            CHECK(pthread_join(t, NULL) == 0);
            CHECK(!one[i].failed);
        }
        CHECK_OK(em_prof_stop());
        for (size_t i = 0; i < em_prof_count(); i++) {
            const em_prof_record *r = &em_prof_records()[i];
            if (r->kind != EM_PROF_KERNEL)
                continue;
            kernels++;
            CHECK(!strcmp(r->name, "add float32"));
            CHECK(r->thread >= 0 && r->thread < 20);
            if (r->thread >= 0 && r->thread < 20 && !threads_seen[r->thread]++)
                distinct++;
        }
        CHECK(kernels == 20);
        CHECK(distinct == 20);
        for (int i = 0; i < 20; i++)
            em_array_release(&one[i].x);
    }

    for (int i = 0; i < WORKERS; i++)
        em_array_release(&w[i].x);
    em_prof_clear();
    CHECK_OK(em_stream_destroy(created));
    return check_report("test_profile_threads");
}
