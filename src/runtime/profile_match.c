/* ember runtime: pairing a profile's records with CUPTI's activity records
 * by the order of work in each stream (profile.h, em_prof_match).
 *
 * Why order and not CUPTI's correlation ids: learning a launch's id takes
 * a CUPTI callback on the launch call, a call through CUPTI with its own
 * bookkeeping on every launch, which was most of what a CUPTI profile
 * still cost a small launch. A stream runs its work in the order it was
 * issued (CUDA's stream semantics), so a stream's activities sorted by
 * start are its work in issue order, and ember knows the order it issued
 * its own. Checks on kind, kernel name and size keep a record from taking
 * another operation's times where the two lists differ: work on ember's
 * streams that ember did not record (a vendor library's kernels), or an
 * activity CUPTI dropped.
 *
 * Pure: no CUPTI and no device, so tests/c/test_profile_match.c checks it
 * with made-up activities.
 */
#include <stdlib.h>

#include "profile.h"

uint32_t em_prof_name_key(const char *name)
{
    uint32_t h = 2166136261u;
    for (const unsigned char *p = (const unsigned char *)name; p && *p; p++)
        h = (h ^ *p) * 16777619u;
    return h ? h : 1;
}

static int cmp_u32(uint32_t a, uint32_t b) { return a < b ? -1 : a > b; }
static int cmp_i64(int64_t a, int64_t b) { return a < b ? -1 : a > b; }

static int act_by_corr(const void *pa, const void *pb)
{
    const em_prof_act *a = pa, *b = pb;
    int c = cmp_u32(a->context, b->context);
    if (!c)
        c = cmp_u32(a->stream, b->stream);
    if (!c)
        c = cmp_u32(a->corr, b->corr);
    return c ? c : cmp_i64(a->start, b->start);
}

static int act_by_start(const void *pa, const void *pb)
{
    const em_prof_act *a = pa, *b = pb;
    int c = cmp_u32(a->context, b->context);
    if (!c)
        c = cmp_u32(a->stream, b->stream);
    if (!c)
        c = cmp_i64(a->start, b->start);
    return c ? c : cmp_u32(a->corr, b->corr);
}

static int call_by_order(const void *pa, const void *pb)
{
    const em_prof_call *a = pa, *b = pb;
    int c = cmp_u32(a->context, b->context);
    if (!c)
        c = cmp_u32(a->stream, b->stream);
    if (!c)
        c = cmp_i64(a->order, b->order);
    return c ? c : (a->tag < b->tag ? -1 : a->tag > b->tag);
}

/* The activities left to match, one per driver call: the set-aside ones
 * dropped, those of one correlation id on one stream merged. Returns how
 * many are left at the front of acts. */
static size_t merge_calls(em_prof_act *acts, size_t n)
{
    size_t out = 0;
    qsort(acts, n, sizeof *acts, act_by_corr);
    for (size_t i = 0; i < n; i++) {
        em_prof_act *a = &acts[i], *last = out ? &acts[out - 1] : NULL;
        if (a->taken)
            continue;
        if (last && last->context == a->context && last->stream == a->stream &&
            last->corr == a->corr) {
            if (a->start < last->start)
                last->start = a->start;
            if (a->end > last->end)
                last->end = a->end;
            last->bytes += a->bytes;
            continue;
        }
        acts[out++] = *a;
    }
    return out;
}

/* Whether a can be c's work: the same kind, and for kernels the same name
 * where both are known, for copies and fills the same size. */
static int fits(const em_prof_call *c, const em_prof_act *a)
{
    if (c->kind != a->kind)
        return 0;
    if (c->kind == EM_PROF_KERNEL)
        return !c->key || !a->key || c->key == a->key;
    return c->bytes == a->bytes;
}

static void take(em_prof_call *c, const em_prof_act *a)
{
    c->start = a->start;
    c->end = a->end;
}

/* Each call in turn takes the first activity not yet taken that fits it,
 * passing over at most EM_PROF_MATCH_AHEAD that do not (work ember did
 * not issue), and looking back at most that far behind the newest one
 * taken: an activity left further behind is given up as not ember's.
 * Taking the first unused fit, not the first fit after the last one
 * taken, lets two calls swap: launches into one stream from two threads
 * at once are in ember's list in the order the calls began, which need
 * not be the order the driver queued them. a[].taken marks what is
 * taken. Returns how many calls got times; *kernels how many of those
 * were kernels. */
static size_t match_checked(em_prof_call *c, size_t nc, em_prof_act *a, size_t na,
                            size_t *kernels)
{
    size_t matched = 0, lo = 0, newest = 0;   /* newest: past the newest taken */
    *kernels = 0;
    for (size_t i = 0; i < nc; i++) {
        size_t k, passed = 0;
        if (newest > EM_PROF_MATCH_AHEAD && lo < newest - EM_PROF_MATCH_AHEAD)
            lo = newest - EM_PROF_MATCH_AHEAD;
        while (lo < na && a[lo].taken)
            lo++;
        for (k = lo; k < na; k++) {
            if (a[k].taken)
                continue;
            if (fits(&c[i], &a[k]))
                break;
            if (++passed > EM_PROF_MATCH_AHEAD)
                break;
        }
        if (k < na && passed <= EM_PROF_MATCH_AHEAD) {
            take(&c[i], &a[k]);
            a[k].taken = 1;
            matched++;
            *kernels += c[i].kind == EM_PROF_KERNEL;
            if (k + 1 > newest)
                newest = k + 1;
        }
    }
    return matched;
}

/* One stream's calls and activities, both in issue order. */
static size_t match_stream(em_prof_call *c, size_t nc, em_prof_act *a, size_t na)
{
    size_t kernels, i, matched = match_checked(c, nc, a, na, &kernels);
    int named = 0;
    for (i = 0; i < nc; i++)
        named |= c[i].kind == EM_PROF_KERNEL && c[i].key != 0;
    if (matched == nc || nc != na || kernels > 0 || !named)
        return matched;
    /* As many activities as calls, kernels among them, and not one
     * kernel's name fitted: CUPTI spells the names otherwise than ember
     * loaded them. The lists are the same work where every operation
     * agrees in kind; then they pair one to one. */
    for (i = 0; i < nc && c[i].kind == a[i].kind; i++)
        ;
    if (i < nc)
        return matched;
    for (i = 0; i < nc; i++)
        take(&c[i], &a[i]);
    return nc;
}

/* A stream's run of calls or activities: [at, end) of its sorted array. */
struct run {
    size_t at, end;
};

/* The end of the run of (context, stream) starting at calls[i] / acts[j]. */
static size_t calls_run(const em_prof_call *c, size_t n, size_t i)
{
    size_t e = i;
    while (e < n && c[e].context == c[i].context && c[e].stream == c[i].stream)
        e++;
    return e;
}

static size_t acts_run(const em_prof_act *a, size_t n, size_t j)
{
    size_t e = j;
    while (e < n && a[e].context == a[j].context && a[e].stream == a[j].stream)
        e++;
    return e;
}

/* Runs with no counterpart: in one context, a run of calls whose stream id
 * no activity carries (or that CUPTI could not name) and a run of
 * activities of a stream no call names are the same stream when each is
 * the only one of its kind there; such a pair is matched as a stream.
 * This is what a stream id ember was told and CUPTI's records disagree on
 * (or one CUPTI would not give) costs: nothing, where it can be told.
 * oc, oa: the lone runs (calls', activities'), sorted by context. */
static size_t adopt(em_prof_call *calls, const struct run *oc, size_t n_oc,
                    em_prof_act *acts, const struct run *oa, size_t n_oa)
{
    size_t matched = 0, i = 0, j = 0;
    while (i < n_oc && j < n_oa) {
        uint32_t ci = calls[oc[i].at].context, cj = acts[oa[j].at].context;
        size_t ie = i, je = j;
        if (ci != cj) {
            if (ci < cj)
                i++;
            else
                j++;
            continue;
        }
        while (ie < n_oc && calls[oc[ie].at].context == ci)
            ie++;
        while (je < n_oa && acts[oa[je].at].context == ci)
            je++;
        if (ie - i == 1 && je - j == 1)
            matched += match_stream(&calls[oc[i].at], oc[i].end - oc[i].at,
                                    &acts[oa[j].at], oa[j].end - oa[j].at);
        i = ie;
        j = je;
    }
    return matched;
}

size_t em_prof_match(em_prof_call *calls, size_t n_calls, em_prof_act *acts,
                     size_t n_acts)
{
    size_t matched = 0, i = 0, j = 0, n_oc = 0, n_oa = 0;
    struct run *oc, *oa;
    for (size_t k = 0; k < n_calls; k++)
        calls[k].start = calls[k].end = -1;
    n_acts = merge_calls(acts, n_acts);
    qsort(acts, n_acts, sizeof *acts, act_by_start);
    qsort(calls, n_calls, sizeof *calls, call_by_order);
    /* at most one lone run per call and per activity; out of memory,
     * none are adopted */
    oc = malloc((n_calls ? n_calls : 1) * sizeof *oc);
    oa = malloc((n_acts ? n_acts : 1) * sizeof *oa);
    /* both arrays are sorted by context, then stream: walk their runs
     * side by side */
    while (i < n_calls || j < n_acts) {
        int side;   /* <0 calls only, >0 activities only, 0 both */
        size_t ie = i, je = j;
        if (i == n_calls)
            side = 1;
        else if (j == n_acts)
            side = -1;
        else if (calls[i].context != acts[j].context)
            side = calls[i].context < acts[j].context ? -1 : 1;
        else
            side = calls[i].stream < acts[j].stream ? -1
                 : calls[i].stream > acts[j].stream;
        if (side <= 0)
            ie = calls_run(calls, n_calls, i);
        if (side >= 0)
            je = acts_run(acts, n_acts, j);
        if (side == 0 && calls[i].stream != EM_PROF_NO_STREAM) {
            matched += match_stream(&calls[i], ie - i, &acts[j], je - j);
        } else {
            /* a run of calls CUPTI gave no stream id may only be adopted;
             * activities with no stream (CUPTI's invalid id, the same
             * value: synchronous copies) are no stream to adopt */
            if (side <= 0 && calls[i].context != EM_PROF_NO_CONTEXT && oc)
                oc[n_oc++] = (struct run){i, ie};
            if (side > 0 && acts[j].stream != EM_PROF_NO_STREAM && oa)
                oa[n_oa++] = (struct run){j, je};
        }
        i = ie;
        j = je;
    }
    if (oc && oa)
        matched += adopt(calls, oc, n_oc, acts, oa, n_oa);
    free(oc);
    free(oa);
    return matched;
}
