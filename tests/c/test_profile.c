/* Tests of the profiler's C API (ember/profile.h) on the cpu device: one
 * profile at a time, what a known sequence records (names, kinds, sizes,
 * streams, nesting of ranges), device times on the default stream (the
 * host clock) and on a created stream (its events), and nothing recorded
 * once stopped. EMBER_TEST_DEVICE=cuda:0 runs the same on a GPU. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ember/profile.h"

static const em_prof_record *find(const char *name, int nth)
{
    const em_prof_record *r = em_prof_records();
    for (size_t i = 0; i < em_prof_count(); i++)
        if (!strcmp(r[i].name, name) && nth-- == 0)
            return &r[i];
    return NULL;
}

static size_t count_kind(em_prof_kind k)
{
    size_t n = 0;
    for (size_t i = 0; i < em_prof_count(); i++)
        n += em_prof_records()[i].kind == k;
    return n;
}

static void check_times(const em_prof_record *r)
{
    CHECK(r->host_end >= r->host_start && r->host_start > 0);
    CHECK(r->dev_start > 0 && r->dev_end >= r->dev_start);
}

int main(void)
{
    const char *spec = getenv("EMBER_TEST_DEVICE");
    em_device_type type = spec && !strncmp(spec, "cuda", 4) ? EM_DEVICE_CUDA
                                                             : EM_DEVICE_CPU;
    int64_t n = 1000;
    em_array a, b, s, t;
    em_operand in[2];
    em_reduce_args all;
    em_stream *st = NULL;
    em_device *d;
    float host[1000];
    void *p = NULL;
    const em_prof_record *r, *outer, *inner, *k;

    CHECK_OK(em_device_get(type, 0, &d));
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    memset(&s, 0, sizeof s);
    memset(&t, 0, sizeof t);
    memset(in, 0, sizeof in);
    memset(&all, 0, sizeof all);
    CHECK_OK(em_array_empty(d, EM_FLOAT32, 1, &n, 'C', NULL, &a));
    in[0].array = in[1].array = &a;
    /* compile outside the profile */
    CHECK_OK(em_ufunc_apply(EM_OP_ADD, in, 2, &b, NULL, NULL));
    CHECK_OK(em_reduce(EM_RED_SUM, &a, &all, &s, NULL));
    em_array_release(&b);
    em_array_release(&s);
    CHECK_OK(em_stream_create(d, EM_STREAM_NON_BLOCKING, &st));

    CHECK(!em_prof_on);
    CHECK_OK(em_prof_start());
    CHECK(em_prof_on);
    CHECK_STATUS(em_prof_start(), EM_ERR_INVALID_VALUE);
    CHECK(strstr(em_last_error(), "already recording") != NULL);

    em_prof_range_push("outer");
    em_prof_range_push("inner");
    CHECK_OK(em_ufunc_apply(EM_OP_ADD, in, 2, &b, NULL, NULL));
    em_prof_range_pop();
    CHECK_OK(em_reduce(EM_RED_SUM, &a, &all, &s, NULL));
    em_prof_range_pop();
    em_prof_range_pop();     /* one too many: ignored */
    CHECK_OK(em_array_to_host(&b, host, NULL, NULL));
    CHECK_OK(em_malloc(d, 100, NULL, &p));
    CHECK_OK(em_memset_async(d, p, 0, 64, NULL));
    CHECK_OK(em_device_synchronize(d));
    CHECK_OK(em_ufunc_apply(EM_OP_ADD, in, 2, &t, NULL, st));
    CHECK_OK(em_stream_synchronize(st));
    CHECK_OK(em_prof_stop());
    CHECK(!em_prof_on);
    CHECK_STATUS(em_prof_stop(), EM_ERR_INVALID_VALUE);

    CHECK((k = find("add float32", 0)) != NULL);
    if (k) {
        CHECK(k->kind == EM_PROF_KERNEL && k->stream == 0 && k->thread == 0);
        CHECK(!strcmp(k->device, em_device_name(d)));
        check_times(k);
    }
    CHECK((r = find("sum float32", 0)) != NULL);
    if (r)
        check_times(r);
    CHECK((r = find("D2H 3.9 KiB", 0)) != NULL);
    if (r) {
        CHECK(r->kind == EM_PROF_COPY && r->bytes == 4000);
        check_times(r);
    }
    CHECK((r = find("alloc 100 B", 0)) != NULL);
    if (r)
        CHECK(r->kind == EM_PROF_ALLOC && r->bytes == 100 && r->dev_start == -1);
    CHECK((r = find("memset 64 B", 0)) != NULL);
    if (r)
        CHECK(r->kind == EM_PROF_FILL && r->bytes == 64);
    CHECK((r = find("synchronize device", 0)) != NULL);
    if (r)
        CHECK(r->kind == EM_PROF_SYNC && r->dev_start == -1);
    /* the created stream's launch: stream 1, timed by its events */
    CHECK((r = find("add float32", 1)) != NULL);
    if (r) {
        CHECK(r->stream == 1);
        check_times(r);
    }
    outer = find("outer", 0);
    inner = find("inner", 0);
    CHECK(outer && inner);
    if (outer && inner && k) {
        CHECK(outer->kind == EM_PROF_RANGE && outer->depth == 0);
        CHECK(inner->depth == 1 && !strcmp(inner->device, ""));
        CHECK(outer->host_start <= inner->host_start &&
              inner->host_end <= outer->host_end);
        CHECK(inner->host_start <= k->host_start && k->host_end <= inner->host_end);
    }
    CHECK(count_kind(EM_PROF_RANGE) == 2);

    /* stopped: nothing more is recorded */
    {
        size_t before = em_prof_count();
        em_array_release(&b);
        CHECK_OK(em_ufunc_apply(EM_OP_ADD, in, 2, &b, NULL, NULL));
        em_prof_range_push("late");
        em_prof_range_pop();
        CHECK(em_prof_count() == before);
    }
    em_prof_clear();
    CHECK(em_prof_count() == 0 && em_prof_records() == NULL);

    /* a second profile starts empty and numbers from 0 again */
    CHECK_OK(em_prof_start());
    CHECK_OK(em_ufunc_apply(EM_OP_ADD, in, 2, &t, NULL, st));
    CHECK_OK(em_prof_stop());
    CHECK(em_prof_count() >= 1);
    CHECK((r = find("add float32", 0)) != NULL);
    if (r)
        CHECK(r->stream == 1 && r->thread == 0 && r->dev_start > 0);
    /* the default chose one of the two; events asked for are events, and
     * time the same launch */
    CHECK(em_prof_device_times() == EM_PROF_TIMES_EVENTS ||
          em_prof_device_times() == EM_PROF_TIMES_CUPTI);
    CHECK_OK(em_prof_start_with(EM_PROF_TIMES_EVENTS));
    CHECK(em_prof_device_times() == EM_PROF_TIMES_EVENTS);
    CHECK_OK(em_ufunc_apply(EM_OP_ADD, in, 2, &t, NULL, st));
    CHECK_OK(em_prof_stop());
    CHECK((r = find("add float32", 0)) != NULL);
    if (r) {
        CHECK(r->stream == 1 && r->thread == 0);
        check_times(r);
    }

    CHECK_OK(em_free(d, p, NULL));
    em_array_release(&a);
    em_array_release(&b);
    em_array_release(&s);
    em_array_release(&t);
    CHECK_OK(em_stream_destroy(st));
    return check_report("test_profile");
}
