/* ember algorithms: merge sort with a user comparator, and merge.
 *
 * The comparator is a C expression over a and b of the key's type
 * ("a goes before b"); it is pasted into a generated kernel that does one
 * bottom-up merge pass: every element finds its output position by
 * itself (its offset in its run plus a binary search in the other run:
 * elements of the left run go before equal elements of the right run,
 * which keeps the sort stable). One kernel, log2(n) launches, no block
 * cooperation, so it runs the same on both targets. Only the permutation
 * moves; keys and values are gathered through it at the end.
 *
 * Without an expression (or with a built-in) both use the radix order,
 * which is NumPy's (NaNs last) and also stable.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algo/sort_internal.h"
#include "codegen/linalg_table.h"
#include "core/embedded.h"

/* The expression of the kernel being generated (a miss in the table asks
 * source_from_key for source on the calling thread). */
static _Thread_local const char *cur_expr;

static em_status merge_source(uint64_t key, em_device_type target,
                              const char *name, char **out)
{
    (void)name;
    return em_srt_merge_source((em_dtype)((key >> 8) & 0xff), cur_expr, target,
                               out);
}

em_status em_srt_merge_source(em_dtype dt, const char *expr,
                              em_device_type target, char **out)
{
    const em_gen_lt_type *t = em_gen_lt_type_of(dt);
    const char *base = em_gen_ops_base();
    const char *kt, *ld;
    em_gen_buf b = {0};
    *out = NULL;
    if (!t || !expr)
        return em_error(EM_ERR_INVALID_VALUE, "merge_sort: bad kernel key");
    if (!base)
        return em_error(EM_ERR_OUT_OF_MEMORY,
                        "out of memory generating a merge kernel");
    /* Keys in their natural C type (signed integers signed; 16-bit
     * floats as float), so `a < b` means what it says. */
    if (t->cls == 'i' || t->cls == 'b' || t->cls == 'c') {
        kt = t->storage;
        ld = "(x)";
    } else {
        kt = t->acc;
        ld = t->ld;
    }
    em_gen_buf_printf(
        &b,
        "/* ember merge sort pass: %s, comparator: %s */\n%s\n%s"
        "typedef %s srt_raw;\ntypedef %s srt_k;\n"
        "#define SRT_LD(x) %s\n"
        "EW_FN int srt_less(srt_k a, srt_k b)\n{\n    return (%s);\n}\n%s",
        em_dtype_get(dt)->name, expr, base, em_gen_sort_loop(target),
        t->storage, kt, ld, expr, em_embedded_merge_sort_cuh);
    if (b.oom) {
        free(b.p);
        return em_error(EM_ERR_OUT_OF_MEMORY,
                        "out of memory generating a merge kernel");
    }
    *out = b.p;
    return EM_OK;
}

static em_status merge_fn(em_device *dev, em_dtype dt, const char *expr,
                          int iota, em_function **out)
{
    /* The expression's hash is part of the key (40 bits of it). */
    uint64_t h = em_hash64(expr, strlen(expr), 0x5eed) & 0xffffffffffull;
    uint64_t key = (uint64_t)EM_GEN_FAMILY_SORT << 56 | h << 16 |
                   (uint64_t)dt << 8 | (uint64_t)(EM_SRT_UNIMAGE + 1 + iota);
    em_status st;
    cur_expr = expr;
    st = em_gen_table_function(dev, key, merge_source,
                               iota ? "srt_iota" : "srt_merge",
                               EM_GEN_SORT_VERSION, out);
    cur_expr = NULL;
    if (st == EM_ERR_COMPILE) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", em_last_error());
        st = em_error(EM_ERR_COMPILE,
                      "the comparator '%s' (a C expression over a and b of "
                      "type %s) does not compile: %s",
                      expr, em_dtype_get(dt)->name, msg);
    }
    return st;
}

/* The stable order of contiguous keys c under expr: split < 0 sorts,
 * split >= 0 merges [0, split) with [split, n). */
static em_status merge_order(const em_array *c, const char *expr,
                             long long split, em_stream *s, long long **perm)
{
    em_device *dev = c->device;
    long long n = c->size, *p = NULL, *q = NULL, w = 1;
    em_function *fm, *fi;
    em_status st;
    *perm = NULL;
    if ((st = merge_fn(dev, c->dtype, expr, 0, &fm)) != EM_OK ||
        (st = merge_fn(dev, c->dtype, expr, 1, &fi)) != EM_OK)
        return st;
    if ((st = em_malloc(dev, (size_t)n * 8, s, (void **)&p)) != EM_OK)
        return st;
    if ((st = em_malloc(dev, (size_t)n * 8, s, (void **)&q)) != EM_OK) {
        em_free(dev, p, s);
        return st;
    }
    {
        void *args[2] = {&p, &n};
        st = em_srt_launch_n(fi, dev, n, args, s);
    }
    for (; st == EM_OK && (split >= 0 ? w == 1 : w < n); w *= 2) {
        const char *kp = c->data;
        long long *t;
        void *args[6] = {&kp, &p, &q, &n, &w, &split};
        st = em_srt_launch_n(fm, dev, n, args, s);
        t = p, p = q, q = t;
    }
    em_free(dev, q, s);
    if (st != EM_OK) {
        em_free(dev, p, s);
        return st;
    }
    *perm = p;
    return EM_OK;
}

static int has_expr(const em_par_op *cmp)
{
    return cmp && cmp->kind == EM_PAR_EXPR && cmp->expr;
}

/* keys (contiguous, 1-D) and values by perm into new arrays. */
static em_status gather_out(const em_array *kc, const em_array *vc,
                            const long long *perm, em_stream *s,
                            em_array *out_keys, em_array *out_values)
{
    em_status st =
        em_array_empty(kc->device, kc->dtype, 1, kc->shape, 'C', s, out_keys);
    if (st == EM_OK && vc)
        st = em_array_empty(vc->device, vc->dtype, 1, vc->shape, 'C', s,
                            out_values);
    if (st == EM_OK && kc->size)
        st = em_srt_gather(kc->device, kc->data, perm, out_keys->data, kc->size,
                           em_dtype_size(kc->dtype), s);
    if (st == EM_OK && vc && kc->size)
        st = em_srt_gather(kc->device, vc->data, perm, out_values->data,
                           kc->size, em_dtype_size(vc->dtype), s);
    return st;
}

/* The stable order of 1-D contiguous c: by expr, or NumPy's (split is
 * ignored then: a stable sort of the concatenation is the merge). */
static em_status order_of(const em_array *c, const em_par_op *cmp,
                          long long split, em_stream *s, long long **perm)
{
    em_srt_key k[3];
    long long item = (long long)em_dtype_size(c->dtype);
    *perm = NULL;
    if (!c->size)
        return EM_OK;
    if (has_expr(cmp))
        return merge_order(c, cmp->expr, split, s, perm);
    memset(k, 0, sizeof k);
    if (c->dtype == EM_COMPLEX64 || c->dtype == EM_COMPLEX128) {
        for (int i = 0; i < 3; i++) {
            k[i].dtype = c->dtype;
            k[i].stride = item;
            k[i].end = (int)item * 4;
            k[i].keys = c->data;
        }
        k[0].keys = c->data + item / 2;
        k[2].group = 1;
        k[2].end = 2;
        return em_srt_order(c->device, c->size, 0, k, 3, s, perm);
    }
    k[0].dtype = c->dtype;
    k[0].keys = c->data;
    k[0].stride = item;
    k[0].end = em_srt_key_bits(c->dtype);
    return em_srt_order(c->device, c->size, 0, k, 1, s, perm);
}

static em_status check_keys(const em_array *k, const em_array *v,
                            const char *fn)
{
    em_status st;
    if ((st = em_arr_check(k, fn)) != EM_OK)
        return st;
    if (k->ndim != 1)
        return em_error(EM_ERR_INVALID_VALUE,
                        "%s: keys must be 1-D, got %d dimensions", fn, k->ndim);
    if (!em_srt_key_bits(k->dtype) && k->dtype != EM_COMPLEX64 &&
        k->dtype != EM_COMPLEX128)
        return em_error(EM_ERR_TYPE, "%s: unsupported key dtype %s", fn,
                        em_dtype_get(k->dtype)->name);
    if (!v)
        return EM_OK;
    if ((st = em_arr_check(v, fn)) != EM_OK)
        return st;
    if (v->ndim != 1 || v->shape[0] != k->shape[0])
        return em_error(EM_ERR_INVALID_VALUE,
                        "%s: keys have length %lld but values have %s %lld", fn,
                        (long long)k->shape[0],
                        v->ndim == 1 ? "length" : "dimensions",
                        (long long)(v->ndim == 1 ? v->shape[0] : v->ndim));
    if (v->device != k->device)
        return em_error(EM_ERR_INVALID_VALUE,
                        "%s: keys are on %s and values "
                        "on %s",
                        fn, em_device_name(k->device),
                        em_device_name(v->device));
    return EM_OK;
}

/* The end of em_merge_sort and em_merge, given st of making kc and vc
 * (the contiguous keys and values, which it releases): orders kc by cmp
 * (split as order_of) and gathers keys and values into the outputs,
 * which are released on failure. */
static em_status order_and_gather(em_status st, em_array *kc, em_array *vc,
                                  const em_par_op *cmp, long long split,
                                  em_stream *on, em_array *out_keys,
                                  em_array *out_values)
{
    long long *perm = NULL;
    if (st == EM_OK)
        st = order_of(kc, cmp, split, on, &perm);
    if (st == EM_OK)
        st = gather_out(kc, vc, perm, on, out_keys, out_values);
    if (perm)
        em_free(kc->device, perm, on);
    em_array_release(kc);
    if (vc)
        em_array_release(vc);
    return em_srt_outs_end(st, out_keys, out_values);
}

/* [a; b] as one new contiguous 1-D array of a's dtype. */
static em_status concat(const em_array *a, const em_array *b, em_stream *s,
                        em_array *out)
{
    int64_t n = a->shape[0] + b->shape[0];
    em_array part = {0};
    em_slice sl;
    em_status st = em_array_empty(a->device, a->dtype, 1, &n, 'C', s, out);
    if (st != EM_OK)
        return st;
    sl.start = 0, sl.stop = a->shape[0], sl.step = 1;
    if ((st = em_array_slice(out, &sl, &part)) == EM_OK && a->size)
        st = em_array_copy(&part, a, s);
    em_array_release(&part);
    sl.start = a->shape[0], sl.stop = n;
    if (st == EM_OK && (st = em_array_slice(out, &sl, &part)) == EM_OK &&
        b->size)
        st = em_array_copy(&part, b, s);
    em_array_release(&part);
    if (st != EM_OK)
        em_array_release(out);
    return st;
}

/* em_merge_sort (b_keys NULL: sorts a) and em_merge (sorts [a; b], whose
 * halves are each in order): checks, makes the keys and values
 * contiguous (concatenated for a merge) and orders them. */
static em_status sort_parts(const char *fn, const em_array *a_keys,
                            const em_array *a_values, const em_array *b_keys,
                            const em_array *b_values, const em_par_op *cmp,
                            em_array *out_keys, em_array *out_values,
                            em_stream *s)
{
    em_array kc = {0}, vc = {0};
    em_stream *on = NULL;
    em_status st;
    if ((st = em_srt_outs_begin(fn, a_keys, a_values, out_keys,
                                out_values)) != EM_OK)
        return st;
    if ((st = check_keys(a_keys, a_values, fn)) != EM_OK ||
        (b_keys && (st = check_keys(b_keys, b_values, fn)) != EM_OK))
        return st;
    if (b_keys && (a_keys->dtype != b_keys->dtype ||
                   (a_values && a_values->dtype != b_values->dtype)))
        return em_error(EM_ERR_TYPE,
                        "%s: a and b must have one dtype (%s and %s)", fn,
                        em_dtype_get(a_keys->dtype)->name,
                        em_dtype_get(b_keys->dtype)->name);
    if (b_keys && a_keys->device != b_keys->device)
        return em_error(EM_ERR_INVALID_VALUE, "%s: a is on %s and b on %s", fn,
                        em_device_name(a_keys->device),
                        em_device_name(b_keys->device));
    if (!(on = em_arr_stream(a_keys->device, s, fn)))
        return EM_ERR_INVALID_VALUE;
    st = b_keys ? concat(a_keys, b_keys, on, &kc)
                : em_srt_contiguous(a_keys, on, &kc);
    if (st != EM_OK)
        return st;
    if (a_values)
        st = b_keys ? concat(a_values, b_values, on, &vc)
                    : em_srt_contiguous(a_values, on, &vc);
    return order_and_gather(st, &kc, a_values ? &vc : NULL, cmp,
                            b_keys ? a_keys->shape[0] : -1, on, out_keys,
                            out_values);
}

em_status em_merge_sort(const em_array *keys, const em_array *values,
                        const em_par_op *cmp, em_array *out_keys,
                        em_array *out_values, em_stream *s)
{
    return sort_parts("merge_sort", keys, values, NULL, NULL, cmp, out_keys,
                      out_values, s);
}

em_status em_merge(const em_array *a_keys, const em_array *a_values,
                   const em_array *b_keys, const em_array *b_values,
                   const em_par_op *cmp, em_array *out_keys,
                   em_array *out_values, em_stream *s)
{
    if (!b_keys || (!a_values) != (!b_values))
        return em_error(EM_ERR_INVALID_VALUE, "merge: NULL argument");
    return sort_parts("merge", a_keys, a_values, b_keys, b_values, cmp,
                      out_keys, out_values, s);
}
