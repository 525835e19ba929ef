/* ember algorithms: union1d, intersect1d, setdiff1d and setxor1d
 * (histogram.h), as NumPy composes them: unique the inputs, concatenate,
 * sort, flag by neighbours, compress. */
#include <string.h>

#include "algo/sets_internal.h"
#include "array/array_internal.h"
#include "ember/index.h"
#include "ember/manip.h"
#include "ember/sort.h"
#include "ember/ufunc.h"

static void drop(em_array *a)
{
    if (a && a->storage)
        em_array_release(a);
}

/* Both inputs flattened into one new 1-d array of their promoted
 * dtype. */
static em_status concat_flat(const em_array *a, const em_array *b,
                             em_stream *on, em_array *out)
{
    em_array fa, fb;
    const em_array *in[2];
    int64_t na = a->size, nb = b->size;
    em_status st;
    memset(out, 0, sizeof *out);
    if ((st = em_array_reshape_view(a, 1, &na, 'C', &fa)) != EM_OK)
        return st;
    if ((st = em_array_reshape_view(b, 1, &nb, 'C', &fb)) != EM_OK) {
        em_array_release(&fa);
        return st;
    }
    in[0] = &fa;
    in[1] = &fb;
    st = em_array_concatenate(in, 2, 0, -1, EM_CASTING_SAME_KIND, out, on);
    em_array_release(&fa);
    em_array_release(&fb);
    return st;
}

/* reshape_view fails on layouts that need a copy: take a copy then. */
static em_status flat_any(const em_array *a, em_stream *on, em_array *out)
{
    return em_sets_flat(a, a->dtype, on, out);
}

static em_status pair_check(const em_array *a, const em_array *b,
                            const char *fn, em_stream *s, em_stream **on)
{
    em_status st;
    em_dtype ct, wt;
    if (!a || !b)
        return em_error(EM_ERR_INVALID_VALUE, "%s: NULL argument", fn);
    if ((st = em_arr_check(a, fn)) != EM_OK ||
        (st = em_arr_check(b, fn)) != EM_OK)
        return st;
    if (a->device != b->device)
        return em_error(EM_ERR_INVALID_VALUE,
                        "%s: operands are on different devices: %s and %s "
                        "(ember does not copy between devices implicitly)",
                        fn, em_device_name(a->device), em_device_name(b->device));
    if ((st = em_dtype_promote(a->dtype, b->dtype, &ct)) != EM_OK ||
        (st = em_sets_work_dtype(ct, fn, &wt)) != EM_OK)
        return st;
    if (!(*on = em_arr_stream(a->device, s, fn)))
        return EM_ERR_INVALID_VALUE;
    return EM_OK;
}

em_status em_union1d(const em_array *a, const em_array *b, em_array *out,
                     em_stream *s)
{
    em_stream *on = NULL;
    em_array fa, fb, c;
    em_status st;
    memset(out, 0, sizeof *out);
    if ((st = pair_check(a, b, "union1d", s, &on)) != EM_OK)
        return st;
    if ((st = flat_any(a, on, &fa)) != EM_OK)
        return st;
    if ((st = flat_any(b, on, &fb)) == EM_OK) {
        if ((st = concat_flat(&fa, &fb, on, &c)) == EM_OK) {
            st = em_unique(&c, 1, out, NULL, NULL, NULL, on);
            em_array_release(&c);
        }
        em_array_release(&fb);
    }
    em_array_release(&fa);
    return st;
}

/* The distinct values of a (and, with idx, first indices), or a
 * flattened as it is with assume_unique. */
static em_status uniq_or_flat(const em_array *a, int assume_unique,
                              em_stream *on, em_array *out, em_array *idx)
{
    memset(out, 0, sizeof *out);
    if (idx)
        memset(idx, 0, sizeof *idx);
    if (!assume_unique)
        return em_unique(a, 1, out, idx, NULL, NULL, on);
    return flat_any(a, on, out);
}

/* a's and b's distinct values (each as it is with assume_unique; ia and
 * ib, when given, their first indices) joined into c, in the dtype the
 * set kernels work in. */
static em_status joined(const em_array *a, const em_array *b,
                        int assume_unique, const char *fn, em_stream *on,
                        em_array *ua, em_array *ia, em_array *ub,
                        em_array *ib, em_array *c)
{
    em_dtype wt;
    em_array cw;
    em_status st;
    if ((st = uniq_or_flat(a, assume_unique, on, ua, ia)) != EM_OK ||
        (st = uniq_or_flat(b, assume_unique, on, ub, ib)) != EM_OK ||
        (st = concat_flat(ua, ub, on, c)) != EM_OK ||
        (st = em_sets_work_dtype(c->dtype, fn, &wt)) != EM_OK)
        return st;
    if (wt != c->dtype) {
        if ((st = em_sets_flat(c, wt, on, &cw)) != EM_OK)
            return st;
        em_array_release(c);
        *c = cw;
    }
    return EM_OK;
}

em_status em_intersect1d(const em_array *a, const em_array *b,
                         int assume_unique, em_array *out, em_array *idx1,
                         em_array *idx2, em_stream *s)
{
    em_stream *on = NULL;
    em_array ua, ub, ia, ib, c, perm, sorted, f, pos, p1, p2, q;
    int want = idx1 && idx2;
    em_status st;
    memset(out, 0, sizeof *out);
    memset(&ua, 0, sizeof ua), memset(&ub, 0, sizeof ub);
    memset(&ia, 0, sizeof ia), memset(&ib, 0, sizeof ib);
    memset(&c, 0, sizeof c), memset(&perm, 0, sizeof perm);
    memset(&sorted, 0, sizeof sorted), memset(&f, 0, sizeof f);
    memset(&pos, 0, sizeof pos), memset(&p1, 0, sizeof p1);
    memset(&p2, 0, sizeof p2), memset(&q, 0, sizeof q);
    if (idx1)
        memset(idx1, 0, sizeof *idx1);
    if (idx2)
        memset(idx2, 0, sizeof *idx2);
    if ((st = pair_check(a, b, "intersect1d", s, &on)) != EM_OK)
        return st;
    if ((st = joined(a, b, assume_unique, "intersect1d", on, &ua,
                     want && !assume_unique ? &ia : NULL, &ub,
                     want && !assume_unique ? &ib : NULL, &c)) != EM_OK)
        goto done;
    if (want) {
        if ((st = em_argsort(&c, 0, 1, &perm, on)) != EM_OK ||
            (st = em_take(&c, &perm, EM_TAKE_FLAT, EM_INDEX_RAISE, &sorted,
                          on)) != EM_OK)
            goto done;
    } else if ((st = em_sort(&c, 0, 1, &sorted, on)) != EM_OK) {
        goto done;
    }
    if ((st = em_sets_flags(&sorted, EM_GEN_UNIQ_DUP_FLAG, on, &f)) != EM_OK ||
        (st = em_sets_compress(&sorted, &f, on, &q, &pos)) != EM_OK)
        goto done;
    {
        /* the result is in the inputs' promoted dtype (float16 sorted as
         * float32 goes back) */
        em_dtype rt;
        if ((st = em_dtype_promote(a->dtype, b->dtype, &rt)) != EM_OK)
            goto done;
        if (rt == q.dtype) {
            *out = q;
            memset(&q, 0, sizeof q);
        } else {
            int64_t k = q.size;
            if ((st = em_array_empty(q.device, rt, 1, &k, 'C', on, out)) !=
                    EM_OK ||
                (st = em_array_copy(out, &q, on)) != EM_OK)
                goto done;
        }
    }
    if (want) {
        /* perm[pos] is in ua, perm[pos + 1] - len(ua) in ub */
        em_operand in[2];
        em_array pos1;
        int64_t na = ua.size;
        memset(in, 0, sizeof in);
        if ((st = em_take(&perm, &pos, EM_TAKE_FLAT, EM_INDEX_RAISE, &p1,
                          on)) != EM_OK)
            goto done;
        memset(&pos1, 0, sizeof pos1);
        in[0].array = &pos;
        in[1].dtype = EM_INT64;
        in[1].value.i = 1;
        if ((st = em_array_empty(pos.device, EM_INT64, 1, &pos.size, 'C', on,
                                 &pos1)) != EM_OK)
            goto done;
        if ((st = em_ufunc_apply(EM_OP_ADD, in, 2, &pos1, NULL, on)) != EM_OK ||
            (st = em_take(&perm, &pos1, EM_TAKE_FLAT, EM_INDEX_RAISE, &p2,
                          on)) != EM_OK) {
            em_array_release(&pos1);
            goto done;
        }
        em_array_release(&pos1);
        in[0].array = &p2;
        in[1].value.i = na;
        if ((st = em_ufunc_apply(EM_OP_SUBTRACT, in, 2, &p2, NULL, on)) !=
            EM_OK)
            goto done;
        if (assume_unique) {
            *idx1 = p1;
            *idx2 = p2;
            memset(&p1, 0, sizeof p1);
            memset(&p2, 0, sizeof p2);
        } else if ((st = em_take(&ia, &p1, EM_TAKE_FLAT, EM_INDEX_RAISE, idx1,
                                 on)) != EM_OK ||
                   (st = em_take(&ib, &p2, EM_TAKE_FLAT, EM_INDEX_RAISE, idx2,
                                 on)) != EM_OK) {
            goto done;
        }
    }
done:
    drop(&ua), drop(&ub), drop(&ia), drop(&ib), drop(&c), drop(&perm);
    drop(&sorted), drop(&f), drop(&pos), drop(&p1), drop(&p2), drop(&q);
    if (st != EM_OK) {
        drop(out);
        drop(idx1);
        drop(idx2);
    }
    return st;
}

em_status em_setdiff1d(const em_array *a, const em_array *b, int assume_unique,
                       em_array *out, em_stream *s)
{
    em_stream *on = NULL;
    em_array ua, m;
    em_status st;
    memset(out, 0, sizeof *out);
    if ((st = pair_check(a, b, "setdiff1d", s, &on)) != EM_OK)
        return st;
    if ((st = uniq_or_flat(a, assume_unique, on, &ua, NULL)) != EM_OK)
        return st;
    if ((st = em_isin(&ua, b, 1, &m, on)) == EM_OK) {
        st = em_sets_compress(&ua, &m, on, out, NULL);
        em_array_release(&m);
    }
    em_array_release(&ua);
    return st;
}

em_status em_setxor1d(const em_array *a, const em_array *b, int assume_unique,
                      em_array *out, em_stream *s)
{
    em_stream *on = NULL;
    em_array ua, ub, c, sorted, f;
    em_status st;
    memset(out, 0, sizeof *out);
    memset(&ua, 0, sizeof ua), memset(&ub, 0, sizeof ub);
    memset(&c, 0, sizeof c), memset(&sorted, 0, sizeof sorted);
    memset(&f, 0, sizeof f);
    if ((st = pair_check(a, b, "setxor1d", s, &on)) != EM_OK)
        return st;
    if ((st = joined(a, b, assume_unique, "setxor1d", on, &ua, NULL, &ub, NULL,
                     &c)) != EM_OK)
        goto done;
    if ((st = em_sort(&c, 0, 1, &sorted, on)) != EM_OK ||
        (st = em_sets_flags(&sorted, EM_GEN_UNIQ_XOR_FLAG, on, &f)) != EM_OK)
        goto done;
    {
        em_array q;
        em_dtype rt;
        if ((st = em_sets_compress(&sorted, &f, on, &q, NULL)) != EM_OK)
            goto done;
        if ((st = em_dtype_promote(a->dtype, b->dtype, &rt)) == EM_OK &&
            rt != q.dtype) {
            int64_t k = q.size;
            if ((st = em_array_empty(q.device, rt, 1, &k, 'C', on, out)) ==
                EM_OK)
                st = em_array_copy(out, &q, on);
            em_array_release(&q);
        } else if (st == EM_OK) {
            *out = q;
        } else {
            em_array_release(&q);
        }
    }
done:
    drop(&ua), drop(&ub), drop(&c), drop(&sorted), drop(&f);
    if (st != EM_OK)
        drop(out);
    return st;
}
