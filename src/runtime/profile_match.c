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

size_t em_prof_match(em_prof_call *calls, size_t n_calls, em_prof_act *acts,
                     size_t n_acts)
{
    size_t matched = 0, i = 0, j = 0;
    for (size_t k = 0; k < n_calls; k++)
        calls[k].start = calls[k].end = -1;
    n_acts = merge_calls(acts, n_acts);
    qsort(acts, n_acts, sizeof *acts, act_by_start);
    qsort(calls, n_calls, sizeof *calls, call_by_order);
    while (i < n_calls) {
        size_t ie = i, je;
        while (ie < n_calls && calls[ie].context == calls[i].context &&
               calls[ie].stream == calls[i].stream)
            ie++;
        /* the activities of the same stream (both lists are sorted by
         * context, then stream) */
        while (j < n_acts && (acts[j].context < calls[i].context ||
                              (acts[j].context == calls[i].context &&
                               acts[j].stream < calls[i].stream)))
            j++;
        je = j;
        while (je < n_acts && acts[je].context == calls[i].context &&
               acts[je].stream == calls[i].stream)
            je++;
        if (calls[i].stream != EM_PROF_NO_STREAM && calls[i].context != EM_PROF_NO_CONTEXT)
            matched += match_stream(&calls[i], ie - i, &acts[j], je - j);
        i = ie;
        j = je;
    }
    return matched;
}
