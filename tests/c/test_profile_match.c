/* Tests of em_prof_match (src/runtime/profile_match.c): how a profile's
 * records of CUDA work meet CUPTI's activity records, by each stream's
 * order, with made-up activities, so the pairing that a GPU run only
 * confirms is checked on every machine. Each activity's times encode which
 * operation it is (start = 1000 * operation + 1), so a check names the
 * operation a record was given. */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "runtime/profile.h"

#define MAXN 64

static em_prof_call calls[MAXN];
static em_prof_act acts[MAXN];
static size_t n_calls, n_acts;

static void reset(void) { n_calls = n_acts = 0; }

/* The next call ember issued: operation op on (context, stream). */
static void call(int op, uint32_t context, uint32_t stream, em_prof_kind kind,
                 const char *kernel, uint64_t bytes)
{
    em_prof_call *c = &calls[n_calls++];
    memset(c, 0, sizeof *c);
    c->context = context;
    c->stream = stream;
    c->kind = (uint8_t)kind;
    c->key = kernel ? em_prof_name_key(kernel) : 0;
    c->bytes = bytes;
    c->order = 100 * (int64_t)n_calls;      /* host clock: issue order */
    c->tag = (size_t)op;
}

/* An activity CUPTI reports for operation op (correlation id corr),
 * running from its start for dur ns. */
static void act(int op, uint32_t context, uint32_t stream, uint32_t corr,
                em_prof_kind kind, const char *kernel, uint64_t bytes,
                int64_t start, int64_t dur)
{
    em_prof_act *a = &acts[n_acts++];
    memset(a, 0, sizeof *a);
    (void)op;
    a->context = context;
    a->stream = stream;
    a->corr = corr;
    a->kind = (uint8_t)kind;
    a->key = kernel ? em_prof_name_key(kernel) : 0;
    a->bytes = bytes;
    a->start = start;
    a->end = start + dur;
}

/* The times operation op's call was given. */
static const em_prof_call *result(int op)
{
    for (size_t i = 0; i < n_calls; i++)
        if (calls[i].tag == (size_t)op)
            return &calls[i];
    return NULL;
}

static int64_t start_of(int op)
{
    const em_prof_call *c = result(op);
    return c ? c->start : -2;
}

/* Two streams, launches interleaved between them, the activities handed
 * back by CUPTI grouped by stream and out of order: each launch gets its
 * own kernel's times, and each stream's times increase. */
static void test_two_streams_interleaved(void)
{
    const char *names[2] = {"k_scale_f32", "_Z3addPfS_i"};
    reset();
    for (int i = 0; i < 8; i++)
        call(i, 0, 10 + (uint32_t)(i % 2), EM_PROF_KERNEL, names[i % 2], 0);
    /* stream 11's records arrive first, each stream's newest first */
    for (int i = 7; i >= 0; i -= 2)
        act(i, 0, 11, 100 + (uint32_t)i, EM_PROF_KERNEL, names[1], 0,
            1000 * i + 1, 500);
    for (int i = 6; i >= 0; i -= 2)
        act(i, 0, 10, 100 + (uint32_t)i, EM_PROF_KERNEL, names[0], 0,
            1000 * i + 1, 500);
    CHECK(em_prof_match(calls, n_calls, acts, n_acts) == 8);
    for (int i = 0; i < 8; i++) {
        CHECK(start_of(i) == 1000 * i + 1);
        CHECK(result(i) && result(i)->end == 1000 * i + 501);
    }
    for (int i = 2; i < 8; i++)
        CHECK(start_of(i) > start_of(i - 2));
}

/* A stream's work runs in issue order: the activities are paired by their
 * start, whatever order their correlation ids are in. */
static void test_order_by_start_not_id(void)
{
    reset();
    call(0, 0, 7, EM_PROF_KERNEL, "k", 0);
    call(1, 0, 7, EM_PROF_KERNEL, "k", 0);
    call(2, 0, 7, EM_PROF_KERNEL, "k", 0);
    act(0, 0, 7, 30, EM_PROF_KERNEL, "k", 0, 1, 10);
    act(1, 0, 7, 20, EM_PROF_KERNEL, "k", 0, 1001, 10);
    act(2, 0, 7, 10, EM_PROF_KERNEL, "k", 0, 2001, 10);
    CHECK(em_prof_match(calls, n_calls, acts, n_acts) == 3);
    CHECK(start_of(0) == 1 && start_of(1) == 1001 && start_of(2) == 2001);
}

/* Kernels ember did not launch on its stream (a vendor library's) are
 * passed over by name; the launches after them keep their own times. */
static void test_foreign_work_skipped(void)
{
    reset();
    call(0, 0, 3, EM_PROF_KERNEL, "add_f32", 0);
    call(1, 0, 3, EM_PROF_COPY, NULL, 4096);
    call(2, 0, 3, EM_PROF_KERNEL, "sum_f32", 0);
    call(3, 0, 3, EM_PROF_FILL, NULL, 64);
    act(0, 0, 3, 1, EM_PROF_KERNEL, "add_f32", 0, 1, 100);
    act(-1, 0, 3, 2, EM_PROF_KERNEL, "cublas_gemm", 0, 500, 100);
    act(-1, 0, 3, 3, EM_PROF_FILL, NULL, 8, 700, 10);
    act(1, 0, 3, 4, EM_PROF_COPY, NULL, 4096, 1001, 100);
    act(-1, 0, 3, 5, EM_PROF_KERNEL, "cublas_gemm", 0, 1500, 100);
    act(2, 0, 3, 6, EM_PROF_KERNEL, "sum_f32", 0, 2001, 100);
    act(3, 0, 3, 7, EM_PROF_FILL, NULL, 64, 3001, 10);
    CHECK(em_prof_match(calls, n_calls, acts, n_acts) == 4);
    for (int i = 0; i < 4; i++)
        CHECK(start_of(i) == 1000 * i + 1);
}

/* An activity CUPTI dropped: that call gets no times (-1), and no other
 * call's times move onto it. */
static void test_dropped_activity(void)
{
    reset();
    call(0, 0, 3, EM_PROF_KERNEL, "a", 0);
    call(1, 0, 3, EM_PROF_KERNEL, "b", 0);
    call(2, 0, 3, EM_PROF_KERNEL, "c", 0);
    call(3, 0, 3, EM_PROF_COPY, NULL, 100);
    act(0, 0, 3, 1, EM_PROF_KERNEL, "a", 0, 1, 10);
    act(2, 0, 3, 3, EM_PROF_KERNEL, "c", 0, 2001, 10);
    act(3, 0, 3, 4, EM_PROF_COPY, NULL, 100, 3001, 10);
    CHECK(em_prof_match(calls, n_calls, acts, n_acts) == 3);
    CHECK(start_of(0) == 1);
    CHECK(start_of(1) == -1 && result(1)->end == -1);
    CHECK(start_of(2) == 2001 && start_of(3) == 3001);
}

/* One driver call, several activities (a pageable copy staged in parts):
 * one operation from the first start to the last end, its bytes the sum. */
static void test_split_copy_is_one_call(void)
{
    reset();
    call(0, 1, 5, EM_PROF_COPY, NULL, 3 << 20);
    call(1, 1, 5, EM_PROF_KERNEL, "k", 0);
    act(0, 1, 5, 40, EM_PROF_COPY, NULL, 2 << 20, 1, 300);
    act(0, 1, 5, 40, EM_PROF_COPY, NULL, 1 << 20, 400, 200);
    act(1, 1, 5, 41, EM_PROF_KERNEL, "k", 0, 1001, 50);
    CHECK(em_prof_match(calls, n_calls, acts, n_acts) == 2);
    CHECK(start_of(0) == 1 && result(0)->end == 600);
    CHECK(start_of(1) == 1001);
}

/* A graph replay's activities, set aside by their correlation id, are no
 * one else's; the same stream id in another context (another device) is
 * another stream; a call whose stream or context CUPTI could not name
 * gets nothing. */
static void test_taken_devices_and_unknown_streams(void)
{
    reset();
    call(0, 0, 9, EM_PROF_KERNEL, "k", 0);
    call(1, 1, 9, EM_PROF_KERNEL, "k", 0);
    call(2, 0, EM_PROF_NO_STREAM, EM_PROF_KERNEL, "k", 0);
    call(3, EM_PROF_NO_CONTEXT, 9, EM_PROF_KERNEL, "k", 0);
    act(-1, 0, 9, 1, EM_PROF_KERNEL, "k", 0, 10, 5);    /* the replay's */
    acts[n_acts - 1].taken = 1;
    act(0, 0, 9, 2, EM_PROF_KERNEL, "k", 0, 1, 100);
    act(1, 1, 9, 3, EM_PROF_KERNEL, "k", 0, 1001, 100);
    CHECK(em_prof_match(calls, n_calls, acts, n_acts) == 2);
    CHECK(start_of(0) == 1 && start_of(1) == 1001);
    CHECK(start_of(2) == -1 && start_of(3) == -1);
}

/* As many activities as calls, kinds agreeing: paired one to one even
 * where CUPTI spells a kernel's name otherwise than ember loaded it. A
 * copy of another size is not taken for ember's copy when the lists
 * differ. */
static void test_names_and_sizes(void)
{
    reset();
    call(0, 0, 2, EM_PROF_KERNEL, "scale", 0);
    call(1, 0, 2, EM_PROF_KERNEL, "scale", 0);
    act(0, 0, 2, 1, EM_PROF_KERNEL, "void scale(float*)", 0, 1, 10);
    act(1, 0, 2, 2, EM_PROF_KERNEL, "void scale(float*)", 0, 1001, 10);
    CHECK(em_prof_match(calls, n_calls, acts, n_acts) == 2);
    CHECK(start_of(0) == 1 && start_of(1) == 1001);

    reset();
    call(0, 0, 2, EM_PROF_COPY, NULL, 256);
    call(1, 0, 2, EM_PROF_KERNEL, "k", 0);
    act(-1, 0, 2, 1, EM_PROF_COPY, NULL, 512, 1, 10);
    act(-1, 0, 2, 2, EM_PROF_KERNEL, "other", 0, 500, 10);
    act(1, 0, 2, 3, EM_PROF_KERNEL, "k", 0, 1001, 10);
    CHECK(em_prof_match(calls, n_calls, acts, n_acts) == 1);
    CHECK(start_of(0) == -1 && start_of(1) == 1001);
}

/* Two host threads launch into one stream at once: ember lists their
 * calls in the order they began, the driver queued them the other way
 * round. Each still gets its own kernel's times. */
static void test_swapped_calls(void)
{
    reset();
    call(0, 0, 4, EM_PROF_KERNEL, "add_f32", 0);
    call(1, 0, 4, EM_PROF_KERNEL, "sum_f32", 0);
    call(2, 0, 4, EM_PROF_KERNEL, "add_f32", 0);
    act(1, 0, 4, 11, EM_PROF_KERNEL, "sum_f32", 0, 1001, 10);
    act(0, 0, 4, 12, EM_PROF_KERNEL, "add_f32", 0, 1, 10);  /* ran second */
    act(2, 0, 4, 13, EM_PROF_KERNEL, "add_f32", 0, 2001, 10);
    acts[1].start = 1500;           /* the driver queued call 0 after call 1 */
    acts[1].end = 1510;
    CHECK(em_prof_match(calls, n_calls, acts, n_acts) == 3);
    CHECK(start_of(0) == 1500 && start_of(1) == 1001 && start_of(2) == 2001);
}

/* A vendor library's kernel between every two of ember's, over a run
 * several times EM_PROF_MATCH_AHEAD long: the foreign activities left
 * behind are given up, never fill the window, and every call gets its
 * own times to the end. */
static void test_foreign_throughout(void)
{
    enum { RUN = 3 * EM_PROF_MATCH_AHEAD };
    static em_prof_call many_calls[RUN];
    static em_prof_act many_acts[2 * RUN];
    int ok = 1;
    memset(many_calls, 0, sizeof many_calls);
    memset(many_acts, 0, sizeof many_acts);
    for (int i = 0; i < RUN; i++) {
        em_prof_act *f = &many_acts[2 * i], *e = &many_acts[2 * i + 1];
        many_calls[i].stream = 1;
        many_calls[i].kind = EM_PROF_KERNEL;
        many_calls[i].key = em_prof_name_key("k");
        many_calls[i].order = i;
        many_calls[i].tag = (size_t)i;
        f->stream = e->stream = 1;
        f->kind = e->kind = EM_PROF_KERNEL;
        f->key = em_prof_name_key("cublas_gemm");
        e->key = many_calls[i].key;
        f->corr = (uint32_t)(2 * i + 1);
        e->corr = (uint32_t)(2 * i + 2);
        f->start = 1000 * (int64_t)i - 500;
        e->start = 1000 * (int64_t)i + 1;
        f->end = f->start + 10;
        e->end = e->start + 10;
    }
    CHECK(em_prof_match(many_calls, RUN, many_acts, 2 * RUN) == RUN);
    for (int k = 0; k < RUN; k++)
        ok &= many_calls[k].start == 1000 * (int64_t)many_calls[k].tag + 1;
    CHECK(ok);
}

/* The stream id ember was told for a stream and the one CUPTI's records
 * carry disagree (or CUPTI gave none): in a context where that run of
 * calls and one run of activities are each the only ones without a
 * counterpart, they are the same stream. Where two runs of activities are
 * without one, nothing is guessed. Synchronous copies (no stream) are no
 * stream to adopt. */
static void test_stream_id_disagreement(void)
{
    reset();
    call(0, 0, 10, EM_PROF_KERNEL, "a", 0);              /* named right */
    call(1, 0, 99, EM_PROF_KERNEL, "b", 0);              /* CUPTI says 7 */
    call(2, 0, 99, EM_PROF_COPY, NULL, 64);
    call(3, 1, EM_PROF_NO_STREAM, EM_PROF_KERNEL, "c", 0);
    call(4, 2, 99, EM_PROF_KERNEL, "d", 0);
    act(0, 0, 10, 1, EM_PROF_KERNEL, "a", 0, 1, 10);
    act(1, 0, 7, 2, EM_PROF_KERNEL, "b", 0, 1001, 10);
    act(2, 0, 7, 3, EM_PROF_COPY, NULL, 64, 2001, 10);
    act(3, 1, 7, 4, EM_PROF_KERNEL, "c", 0, 3001, 10);
    act(-1, 1, EM_PROF_NO_STREAM, 5, EM_PROF_COPY, NULL, 8, 3500, 10);
    act(4, 2, 7, 6, EM_PROF_KERNEL, "d", 0, 4001, 10);  /* two lone runs */
    act(-1, 2, 8, 7, EM_PROF_KERNEL, "d", 0, 4501, 10);
    CHECK(em_prof_match(calls, n_calls, acts, n_acts) == 4);
    for (int i = 0; i < 4; i++)
        CHECK(start_of(i) == 1000 * i + 1);
    CHECK(start_of(4) == -1);
}

/* Keys: the same name the same key, never 0 (0 is "unknown"). */
static void test_name_key(void)
{
    CHECK(em_prof_name_key("sum_f32") == em_prof_name_key("sum_f32"));
    CHECK(em_prof_name_key("sum_f32") != em_prof_name_key("sum_f64"));
    CHECK(em_prof_name_key("") != 0 && em_prof_name_key(NULL) != 0);
}

/* Nothing to pair: no times, and no reading past the arrays. */
static void test_empty_inputs(void)
{
    reset();
    CHECK(em_prof_match(calls, 0, acts, 0) == 0);
    call(0, 0, 1, EM_PROF_KERNEL, "k", 0);
    CHECK(em_prof_match(calls, n_calls, acts, 0) == 0);
    CHECK(start_of(0) == -1);
}

int main(void)
{
    test_two_streams_interleaved();
    test_order_by_start_not_id();
    test_foreign_work_skipped();
    test_dropped_activity();
    test_split_copy_is_one_call();
    test_taken_devices_and_unknown_streams();
    test_names_and_sizes();
    test_swapped_calls();
    test_foreign_throughout();
    test_stream_id_disagreement();
    test_name_key();
    test_empty_inputs();
    return check_report("test_profile_match");
}
