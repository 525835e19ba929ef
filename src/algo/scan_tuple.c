/* ember algorithms: scans and reductions by key of tuple (zipped) values
 * (em_scan_tuple, em_scan_by_key_tuple, em_reduce_by_key_tuple).
 *
 * The components travel as separate arrays; the generated kernel loads
 * them into one struct value, combines structs and stores each component
 * to its own output (codegen/scan.c). The kernel descriptor holds every
 * component's dtypes in its 64-bit word, so built-in operators are found
 * without building a string; expressions are joined into one key string
 * (hashed once per call, as single-value expressions are).
 */
#include <stdlib.h>
#include <string.h>

#include "algo/bykey_internal.h"
#include "array/array_internal.h"
#include "codegen/scan.h"

#define SHAPE_STR 256

typedef struct tup {
    int n;
    em_array flat[EM_SCAN_MAX_TUPLE]; /* contiguous 1-D inputs */
    em_gen_scan d;
    char *expr; /* the joined expressions (EM_PAR_EXPR) */
    unsigned char init[256] __attribute__((aligned(16)));
    size_t initsz;
} tup;

static void tup_release(tup *t)
{
    for (int k = 0; k < EM_SCAN_MAX_TUPLE; k++)
        em_array_release(&t->flat[k]);
    free(t->expr);
    t->expr = NULL;
}

/* x flattened to a contiguous 1-D array. */
static em_status flat_of(const em_array *x, em_stream *on, em_array *out)
{
    int64_t n = x->size;
    em_status st;
    if (x->flags & EM_ARRAY_C_CONTIGUOUS)
        return em_array_reshape_view(x, 1, &n, 'C', out);
    if ((st = em_array_empty(x->device, x->dtype, 1, &n, 'C', on, out)) !=
        EM_OK)
        return st;
    {
        em_array v = {0};
        st = em_array_reshape_view(out, x->ndim, x->shape, 'C', &v);
        if (st == EM_OK)
            st = em_array_copy(&v, x, on);
        em_array_release(&v);
    }
    if (st != EM_OK)
        em_array_release(out);
    return st;
}

/* Checks the components and the operator, fills t (descriptor, flat
 * inputs, packed init). len: the length every component must have
 * (-1: the first one's), named `what` in the message. */
static em_status tup_prepare(const char *fn, int n, const em_array *const *xs,
                             const em_par_tuple_op *op, int exclusive,
                             const void *const *init,
                             const em_dtype *out_dtypes, int segmented,
                             int64_t len, const char *what, em_stream *on,
                             tup *t)
{
    char b1[SHAPE_STR];
    size_t total = 0;
    em_status st;
    memset(t, 0, sizeof *t);
    if (!xs || !op)
        return em_error(EM_ERR_INVALID_VALUE, "%s: NULL argument", fn);
    if (n < 2 || n > EM_SCAN_MAX_TUPLE)
        return em_error(EM_ERR_INVALID_VALUE,
                        "%s: a tuple value has 2 to %d components, not %d", fn,
                        EM_SCAN_MAX_TUPLE, n);
    if ((unsigned)op->kind >= EM_PAR_BUILTIN_COUNT)
        return em_error(EM_ERR_INVALID_VALUE, "%s: no operator", fn);
    if (op->kind == EM_PAR_EXPR) {
        if (op->nexpr != n || !op->exprs)
            return em_error(EM_ERR_INVALID_VALUE,
                            "%s: %d expressions for a tuple of %d components "
                            "(one per component)",
                            fn, op->nexpr, n);
        for (int k = 0; k < n; k++) {
            if (!op->exprs[k] || !op->exprs[k][0])
                return em_error(EM_ERR_INVALID_VALUE,
                                "%s: expression %d is empty", fn, k);
            if (strchr(op->exprs[k], '\x1f'))
                return em_error(EM_ERR_INVALID_VALUE,
                                "%s: expression %d holds a control character",
                                fn, k);
            total += strlen(op->exprs[k]) + 1;
        }
    }
    if (exclusive && !init)
        return em_error(EM_ERR_INVALID_VALUE,
                        "%s: an exclusive scan needs an init value", fn);
    for (int k = 0; k < n; k++) {
        if (!xs[k])
            return em_error(EM_ERR_INVALID_VALUE, "%s: NULL argument", fn);
        if ((st = em_arr_check(xs[k], fn)) != EM_OK)
            return st;
        if (xs[k]->device != xs[0]->device)
            return em_error(EM_ERR_INVALID_VALUE,
                            "%s: component 0 is on %s and component %d on %s",
                            fn, em_device_name(xs[0]->device), k,
                            em_device_name(xs[k]->device));
        if (segmented && xs[k]->ndim != 1)
            return em_error(EM_ERR_INVALID_VALUE,
                            "%s: values must be 1-D, not of shape %s", fn,
                            em_shape_format(xs[k]->ndim, xs[k]->shape, b1,
                                            sizeof b1));
        if (len < 0)
            len = xs[0]->size;
        if (xs[k]->size != len)
            return em_error(EM_ERR_INVALID_VALUE,
                            "%s: %s has %lld elements and values[%d] %lld "
                            "(a tuple's arrays must have one length)",
                            fn, what, (long long)len, k,
                            (long long)xs[k]->size);
        if (out_dtypes && !em_dtype_get(out_dtypes[k]))
            return em_error(EM_ERR_TYPE, "%s: invalid dtype %d", fn,
                            (int)out_dtypes[k]);
        if (em_device_get_type(xs[k]->device) == EM_DEVICE_CUDA &&
            xs[k]->size &&
            (uintptr_t)xs[k]->data % em_dtype_get(xs[k]->dtype)->align)
            return em_error(EM_ERR_NOT_SUPPORTED,
                            "%s: component %d (%s) is not aligned to its "
                            "itemsize, which the GPU needs: copy it first",
                            fn, k, em_dtype_get(xs[k]->dtype)->name);
    }
    t->n = n;
    t->d.ncomp = (uint8_t)n;
    t->d.op = (uint8_t)op->kind;
    t->d.flags = (uint8_t)((exclusive ? EM_GEN_SCAN_EXCLUSIVE : 0) |
                           (init ? EM_GEN_SCAN_INIT : 0));
    /* n <= EM_SCAN_MAX_TUPLE (EM_GEN_SCAN_MAXT) was checked above; the bound
     * in the loop tells GCC -O3's overflow warning so too. */
    for (int k = 0; k < n && k < EM_GEN_SCAN_MAXT; k++) {
        t->d.tin[k] = (uint8_t)xs[k]->dtype;
        t->d.tout[k] = (uint8_t)(out_dtypes ? out_dtypes[k]
                                 : op->kind == EM_PAR_ADD ||
                                         op->kind == EM_PAR_MUL
                                     ? em_scan_default_dtype(op->kind,
                                                             xs[k]->dtype)
                                     : xs[k]->dtype);
    }
    if (op->kind == EM_PAR_EXPR) {
        char *p = t->expr = malloc(total);
        if (!p)
            return em_error(EM_ERR_OUT_OF_MEMORY, "%s: out of memory", fn);
        for (int k = 0; k < n; k++) {
            size_t l = strlen(op->exprs[k]);
            memcpy(p, op->exprs[k], l);
            p[l] = k + 1 < n ? '\x1f' : '\0';
            p += l + 1;
        }
        t->d.expr = t->expr;
    }
    if ((st = em_gen_scan_tuple_check(&t->d, fn)) != EM_OK)
        return st;
    if (init && (st = em_gen_scan_pack_init(&t->d, init, t->init,
                                            sizeof t->init, &t->initsz)) !=
                    EM_OK)
        return st;
    for (int k = 0; k < n; k++)
        if ((st = flat_of(xs[k], on, &t->flat[k])) != EM_OK)
            return st;
    return EM_OK;
}

/* The scan of t's values (over heads, when not NULL) into new outs. */
static em_status tup_scan(tup *t, int has_init, const unsigned char *heads,
                          em_stream *on, em_array *outs)
{
    const void *ins[EM_SCAN_MAX_TUPLE];
    void *po[EM_SCAN_MAX_TUPLE];
    int64_t len = t->flat[0].size;
    em_status st = EM_OK;
    for (int k = 0; k < t->n && st == EM_OK; k++) {
        st = em_array_empty(t->flat[0].device, (em_dtype)t->d.tout[k], 1,
                            &len, 'C', on, &outs[k]);
        ins[k] = t->flat[k].data;
        po[k] = outs[k].data;
    }
    if (st == EM_OK && len > 0)
        st = em_gen_scan_run_tuple(t->flat[0].device, &t->d, ins, po, len,
                                   has_init ? t->init : NULL, heads, on);
    return st;
}

static void release_all(int n, em_array *outs)
{
    for (int k = 0; k < n; k++)
        if (outs[k].storage)
            em_array_release(&outs[k]);
}

em_status em_scan_tuple(int n, const em_array *const *xs,
                        const em_par_tuple_op *op, int exclusive,
                        const void *const *init, const em_dtype *out_dtypes,
                        em_array *outs, em_stream *s)
{
    const char *fn = exclusive ? "exclusive_scan" : "inclusive_scan";
    em_stream *on;
    tup t;
    em_status st;
    if (!outs || !xs || n < 1 || !xs[0])
        return em_error(EM_ERR_INVALID_VALUE, "%s: NULL argument", fn);
    for (int k = 0; k < n && k < EM_SCAN_MAX_TUPLE; k++)
        memset(&outs[k], 0, sizeof outs[k]);
    if (!(on = em_arr_stream(xs[0]->device, s, fn)))
        return EM_ERR_INVALID_VALUE;
    st = tup_prepare(fn, n, xs, op, exclusive, init, out_dtypes, 0, -1,
                     "values[0]", on, &t);
    if (st == EM_OK)
        st = tup_scan(&t, init != NULL, NULL, on, outs);
    tup_release(&t);
    if (st != EM_OK)
        release_all(n < EM_SCAN_MAX_TUPLE ? n : EM_SCAN_MAX_TUPLE, outs);
    return st;
}

/* The by-key checks shared by scan and reduce: values on the keys'
 * device, of the keys' length. */
static em_status by_key_prepare(const char *fn, const em_array *keys, int n,
                                const em_array *const *values,
                                const em_par_tuple_op *op, int exclusive,
                                const void *const *init,
                                const em_dtype *out_dtypes, em_stream *on,
                                tup *t, em_array *kc, em_array *heads)
{
    em_status st;
    memset(t, 0, sizeof *t);
    if ((st = em_arr_check(keys, fn)) != EM_OK)
        return st;
    for (int k = 0; values && k < n && k < EM_SCAN_MAX_TUPLE; k++)
        if (values[k] && values[k]->device != keys->device)
            return em_error(EM_ERR_INVALID_VALUE,
                            "%s: keys are on %s and values[%d] on %s", fn,
                            em_device_name(keys->device), k,
                            em_device_name(values[k]->device));
    if ((st = tup_prepare(fn, n, values, op, exclusive, init, out_dtypes, 1,
                          keys->size, "keys", on, t)) != EM_OK)
        return st;
    return em_bykey_heads(fn, keys, NULL, on, kc, heads);
}

em_status em_scan_by_key_tuple(const em_array *keys, int n,
                               const em_array *const *values,
                               const em_par_tuple_op *op, int exclusive,
                               const void *const *init,
                               const em_dtype *out_dtypes, em_array *outs,
                               em_stream *s)
{
    static const char fn[] = "scan_by_key";
    em_array kc = {0}, heads = {0};
    em_stream *on;
    tup t;
    em_status st;
    if (!keys || !values || !outs)
        return em_error(EM_ERR_INVALID_VALUE, "%s: NULL argument", fn);
    for (int k = 0; k < n && k < EM_SCAN_MAX_TUPLE; k++)
        memset(&outs[k], 0, sizeof outs[k]);
    if (!(on = em_arr_stream(keys->device, s, fn)))
        return EM_ERR_INVALID_VALUE;
    st = by_key_prepare(fn, keys, n, values, op, exclusive, init, out_dtypes,
                        on, &t, &kc, &heads);
    if (st == EM_OK)
        st = tup_scan(&t, init != NULL, (const unsigned char *)heads.data, on,
                      outs);
    tup_release(&t);
    em_array_release(&kc);
    em_array_release(&heads);
    if (st != EM_OK)
        release_all(n < EM_SCAN_MAX_TUPLE ? n : EM_SCAN_MAX_TUPLE, outs);
    return st;
}

em_status em_reduce_by_key_tuple(const em_array *keys, int n,
                                 const em_array *const *values,
                                 const em_par_tuple_op *op,
                                 const em_dtype *out_dtypes,
                                 em_array *out_keys, em_array *outs,
                                 em_stream *s)
{
    static const char fn[] = "reduce_by_key";
    em_array kc = {0}, heads = {0}, tails = {0};
    em_array sc[EM_SCAN_MAX_TUPLE];
    int m = n < EM_SCAN_MAX_TUPLE ? n : EM_SCAN_MAX_TUPLE;
    em_stream *on;
    tup t;
    em_status st;
    if (!keys || !values || !outs || !out_keys)
        return em_error(EM_ERR_INVALID_VALUE, "%s: NULL argument", fn);
    memset(sc, 0, sizeof sc);
    memset(out_keys, 0, sizeof *out_keys);
    for (int k = 0; k < m; k++)
        memset(&outs[k], 0, sizeof outs[k]);
    if (!(on = em_arr_stream(keys->device, s, fn)))
        return EM_ERR_INVALID_VALUE;
    st = by_key_prepare(fn, keys, n, values, op, 0, NULL, out_dtypes, on, &t,
                        &kc, &heads);
    if (st == EM_OK)
        st = tup_scan(&t, 0, (const unsigned char *)heads.data, on, sc);
    /* The last element of each run holds its reduction. */
    if (st == EM_OK &&
        (st = em_array_empty(keys->device, EM_BOOL, 1, keys->shape, 'C', on,
                             &tails)) == EM_OK &&
        keys->size)
        st = em_gen_heads_run(keys->device, EM_BOOL, 1, heads.data,
                              (unsigned char *)tails.data, keys->size, on);
    if (st == EM_OK)
        st = em_select(&kc, NULL, &heads, out_keys, on);
    for (int k = 0; k < m && st == EM_OK; k++)
        st = em_select(&sc[k], NULL, &tails, &outs[k], on);
    tup_release(&t);
    em_array_release(&kc);
    em_array_release(&heads);
    em_array_release(&tails);
    for (int k = 0; k < m; k++)
        em_array_release(&sc[k]);
    if (st != EM_OK) {
        if (out_keys->storage)
            em_array_release(out_keys);
        release_all(m, outs);
    }
    return st;
}
