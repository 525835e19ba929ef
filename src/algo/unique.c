/* ember algorithms: unique and isin (histogram.h), on sort.h's stable
 * sorts, the compaction generator (codegen/compact.h: masks and the hash
 * set of plain integer unique) and em_take's gathers; the few kernels
 * of their own (run flags, run lengths, the inverse scatter, the isin
 * test) come from codegen/histogram.h.
 */
#include <string.h>

#include "algo/sets_internal.h"
#include "array/array_internal.h"
#include "array/compact_run.h"
#include "codegen/ewise.h"
#include "codegen/histogram.h"
#include "ember/index.h"
#include "ember/linalg.h"
#include "ember/sort.h"

/* Geometry of an elementwise pass over n elements. */
static void ew_geom(em_device *dev, int64_t n, em_dim3 *grid, em_dim3 *block,
                    int64_t *chunk)
{
    grid->x = grid->y = grid->z = 1;
    block->x = block->y = block->z = 1;
    if (em_device_get_type(dev) == EM_DEVICE_CUDA) {
        int64_t tiles = (n + EM_GEN_HIST_BLOCK - 1) / EM_GEN_HIST_BLOCK,
                cap = (int64_t)em_gen_device_units(dev) * 32;
        *chunk = 0;
        grid->x = (unsigned)(tiles < cap ? tiles : cap);
        block->x = EM_GEN_HIST_BLOCK;
    } else {
        int64_t units = em_gen_device_units(dev), c;
        c = (n + units * 4 - 1) / (units * 4);
        if (c < 65536)
            c = 65536;
        *chunk = c;
        grid->x = (unsigned)((n + c - 1) / c);
    }
}

static em_status ew_function(em_device *dev, int op, em_dtype xdt, int flags,
                             em_function **f)
{
    em_gen_hist d;
    em_function *fn[2];
    em_status st;
    memset(&d, 0, sizeof d);
    d.op = (uint8_t)op;
    d.xdt = (uint8_t)xdt;
    d.flags = (uint8_t)flags;
    st = em_gen_hist_functions(dev, &d, fn);
    *f = fn[0];
    return st;
}

static const char *dt_name(em_dtype d)
{
    const em_dtype_info *i = em_dtype_get(d);
    return i ? i->name : "?";
}

/* The working dtype of a sort-based set operation on dt: its own where
 * the flag kernels load it, float32 for float16 and bfloat16 (exact);
 * complex is refused. */
em_status em_sets_work_dtype(em_dtype dt, const char *fn, em_dtype *out)
{
    if (em_gen_hist_native(dt)) {
        *out = dt;
        return EM_OK;
    }
    if (dt == EM_FLOAT16 || dt == EM_BFLOAT16) {
        *out = EM_FLOAT32;
        return EM_OK;
    }
    return em_error(EM_ERR_TYPE,
                    "%s: dtype %s is not supported (only bool, "
                    "integer and real floating dtypes)",
                    fn, dt_name(dt));
}

/* a's elements in C order as a new 1-d contiguous array of dtype dt. */
em_status em_sets_flat(const em_array *a, em_dtype dt, em_stream *on,
                       em_array *out)
{
    int64_t n = a->size;
    em_array tmp;
    em_status st;
    if (dt == a->dtype && (a->flags & EM_ARRAY_C_CONTIGUOUS))
        return em_array_reshape_view(a, 1, &n, 'C', out);
    st = em_array_empty(a->device, dt, a->ndim, a->shape, 'C', on, &tmp);
    if (st != EM_OK)
        return st;
    if ((st = em_array_copy(&tmp, a, on)) == EM_OK)
        st = em_array_reshape_view(&tmp, 1, &n, 'C', out);
    em_array_release(&tmp);
    return st;
}

static void zero(em_array *a)
{
    if (a)
        memset(a, 0, sizeof *a);
}

static void drop(em_array *a)
{
    if (a && a->storage)
        em_array_release(a);
}

em_status em_sets_flags(const em_array *s, int flags, em_stream *on,
                        em_array *out)
{
    int64_t n = s->size, chunk;
    em_dim3 grid, block;
    em_function *f;
    em_status st = em_array_empty(s->device, EM_BOOL, 1, &n, 'C', on, out);
    if (st != EM_OK || n == 0)
        return st;
    st = ew_function(s->device, EM_GEN_UNIQ_FLAGS, s->dtype, flags, &f);
    if (st == EM_OK) {
        void *sp = s->data, *fp = out->data;
        void *args[] = {&sp, &n, &chunk, &fp};
        ew_geom(s->device, n, &grid, &block, &chunk);
        st = em_launch(f, grid, block, 0, on, args);
    }
    if (st != EM_OK)
        em_array_release(out);
    return st;
}

em_status em_sets_compress(const em_array *x, const em_array *f, em_stream *on,
                           em_array *out, em_array *pos)
{
    em_array nz, p;
    int64_t k;
    em_status st;
    if (!pos)
        /* the values alone: one compaction, no positions and no gather */
        return em_select(x, NULL, f, out, on);
    memset(pos, 0, sizeof *pos);
    memset(out, 0, sizeof *out);
    if ((st = em_nonzero(f, &nz, on)) != EM_OK)
        return st;
    k = nz.shape[1];
    st = em_array_reshape_view(&nz, 1, &k, 'C', &p);
    em_array_release(&nz);
    if (st != EM_OK)
        return st;
    st = em_take(x, &p, EM_TAKE_FLAT, EM_INDEX_RAISE, out, on);
    if (st == EM_OK)
        *pos = p;
    else
        em_array_release(&p);
    return st;
}

em_status em_unique(const em_array *a, int equal_nan, em_array *values,
                    em_array *index, em_array *inverse, em_array *counts,
                    em_stream *s)
{
    em_stream *on = NULL;
    em_device *dev;
    em_dtype wt;
    em_array flat, perm, sorted, flags, nz, pos, vals, cs;
    int64_t n, k;
    em_dim3 grid, block;
    int64_t chunk;
    em_function *f;
    em_status st;

    zero(&flat), zero(&perm), zero(&sorted), zero(&flags), zero(&nz);
    zero(&pos), zero(&vals), zero(&cs);
    zero(values), zero(index), zero(inverse), zero(counts);
    if (!a || !values)
        return em_error(EM_ERR_INVALID_VALUE, "unique: NULL argument");
    if ((st = em_arr_check(a, "unique")) != EM_OK)
        return st;
    if ((st = em_sets_work_dtype(a->dtype, "unique", &wt)) != EM_OK)
        return st;
    dev = a->device;
    if (!(on = em_arr_stream(dev, s, "unique")))
        return EM_ERR_INVALID_VALUE;
    n = a->size;
    if (n == 0) {
        int64_t z = 0;
        st = em_array_empty(dev, a->dtype, 1, &z, 'C', on, values);
        if (st == EM_OK && index)
            st = em_array_empty(dev, EM_INT64, 1, &z, 'C', on, index);
        if (st == EM_OK && inverse)
            st = em_array_empty(dev, EM_INT64, a->ndim, a->shape, 'C', on,
                                inverse);
        if (st == EM_OK && counts)
            st = em_array_empty(dev, EM_INT64, 1, &z, 'C', on, counts);
        goto done;
    }
    if ((st = em_sets_flat(a, wt, on, &flat)) != EM_OK)
        goto done;
    /* unique of 4- and 8-byte integers without index or inverse: a hash
     * set of the distinct values (one pass, the table in cache; with
     * return_counts a counter per slot), then a sort of only those. A
     * table that overflows falls back to sorting everything. */
    if (!index && !inverse &&
        (wt == EM_INT32 || wt == EM_UINT32 || wt == EM_INT64 ||
         wt == EM_UINT64)) {
        int fell_back = 0;
        st = em_compact_hash_unique(dev, flat.data, n, wt, &vals,
                                    counts ? &cs : NULL, &fell_back, on);
        if (st != EM_OK)
            goto done;
        if (!fell_back) {
            /* with counts, they travel with their values */
            st = counts ? em_radix_sort(&vals, &cs, 0, 0, -1, values, counts,
                                        on)
                        : em_sort(&vals, 0, 1, values, on);
            goto done;
        }
    }
    if (index || inverse) {
        st = em_argsort(&flat, 0, 1, &perm, on);
        if (st == EM_OK)
            st = em_take(&flat, &perm, EM_TAKE_FLAT, EM_INDEX_RAISE, &sorted,
                         on);
    } else {
        st = em_sort(&flat, 0, 1, &sorted, on);
    }
    if (st != EM_OK)
        goto done;
    /* run starts */
    if ((st = em_array_empty(dev, EM_BOOL, 1, &n, 'C', on, &flags)) != EM_OK)
        goto done;
    if ((st = ew_function(dev, EM_GEN_UNIQ_FLAGS, wt,
                          equal_nan ? EM_GEN_UNIQ_EQUAL_NAN : 0, &f)) != EM_OK)
        goto done;
    ew_geom(dev, n, &grid, &block, &chunk);
    {
        void *sp = sorted.data, *fp = flags.data;
        void *args[] = {&sp, &n, &chunk, &fp};
        if ((st = em_launch(f, grid, block, 0, on, args)) != EM_OK)
            goto done;
    }
    if (!index && !counts) {
        /* the run starts' values by one compaction (its count is the one
         * read of the size) */
        em_compact c;
        if ((st = em_compact_count(&c, dev, EM_GEN_COMPACT_ELEM,
                                   (int)em_dtype_size(wt), 0, flags.data, n,
                                   on)) != EM_OK)
            goto done;
        k = c.total;
        st = em_array_empty(dev, wt, 1, &k, 'C', on, &vals);
        if (st == EM_OK)
            st = em_compact_write(&c, sorted.data, vals.data, NULL);
        em_compact_end(&c);
        if (st != EM_OK)
            goto done;
    } else {
        /* their positions (the one read of the count is em_nonzero's) */
        if ((st = em_nonzero(&flags, &nz, on)) != EM_OK)
            goto done;
        k = nz.shape[1];
        if ((st = em_array_reshape_view(&nz, 1, &k, 'C', &pos)) != EM_OK)
            goto done;
        if ((st = em_take(&sorted, &pos, EM_TAKE_FLAT, EM_INDEX_RAISE, &vals,
                          on)) != EM_OK)
            goto done;
    }
    if (wt == a->dtype) {
        *values = vals;
        zero(&vals);
    } else {
        st = em_array_empty(dev, a->dtype, 1, &k, 'C', on, values);
        if (st == EM_OK)
            st = em_array_copy(values, &vals, on);
        if (st != EM_OK)
            goto done;
    }
    if (index && (st = em_take(&perm, &pos, EM_TAKE_FLAT, EM_INDEX_RAISE, index,
                               on)) != EM_OK)
        goto done;
    if (counts) {
        void *pp = pos.data, *cp;
        if ((st = em_array_empty(dev, EM_INT64, 1, &k, 'C', on, counts)) !=
                EM_OK ||
            (st = ew_function(dev, EM_GEN_UNIQ_COUNTS, EM_INT64, 0, &f)) !=
                EM_OK)
            goto done;
        cp = counts->data;
        ew_geom(dev, k, &grid, &block, &chunk);
        {
            void *args[] = {&pp, &k, &n, &chunk, &cp};
            if ((st = em_launch(f, grid, block, 0, on, args)) != EM_OK)
                goto done;
        }
    }
    if (inverse) {
        void *pp = perm.data, *cp, *ip;
        if ((st = em_cumulate(EM_CUM_SUM, &flags, 0, 1, 1, EM_INT64, &cs,
                              on)) != EM_OK ||
            (st = em_array_empty(dev, EM_INT64, a->ndim, a->shape, 'C', on,
                                 inverse)) != EM_OK ||
            (st = ew_function(dev, EM_GEN_UNIQ_INVERSE, EM_INT64, 0, &f)) !=
                EM_OK)
            goto done;
        cp = cs.data;
        ip = inverse->data;
        ew_geom(dev, n, &grid, &block, &chunk);
        {
            void *args[] = {&pp, &cp, &n, &chunk, &ip};
            st = em_launch(f, grid, block, 0, on, args);
        }
    }
done:
    drop(&flat), drop(&perm), drop(&sorted), drop(&flags), drop(&nz);
    drop(&pos), drop(&vals), drop(&cs);
    if (st != EM_OK) {
        drop(values), drop(index), drop(inverse), drop(counts);
    }
    return st;
}

em_status em_isin(const em_array *element, const em_array *test, int invert,
                  em_array *out, em_stream *s)
{
    em_stream *on = NULL;
    em_device *dev;
    em_dtype ct, wt;
    em_array x, t, u, j;
    int64_t n, m;
    em_dim3 grid, block;
    int64_t chunk;
    em_function *f;
    em_status st;

    zero(&x), zero(&t), zero(&u), zero(&j), zero(out);
    if (!element || !test || !out)
        return em_error(EM_ERR_INVALID_VALUE, "isin: NULL argument");
    if ((st = em_arr_check(element, "isin")) != EM_OK ||
        (st = em_arr_check(test, "isin")) != EM_OK)
        return st;
    if (element->device != test->device)
        return em_error(EM_ERR_INVALID_VALUE,
                        "isin: element and test_elements must be on one "
                        "device");
    if ((st = em_dtype_promote(element->dtype, test->dtype, &ct)) != EM_OK)
        return st;
    if ((st = em_sets_work_dtype(ct, "isin", &wt)) != EM_OK)
        return st;
    dev = element->device;
    if (!(on = em_arr_stream(dev, s, "isin")))
        return EM_ERR_INVALID_VALUE;
    n = element->size;
    m = test->size;
    if ((st = em_array_empty(dev, EM_BOOL, element->ndim, element->shape, 'C',
                             on, out)) != EM_OK)
        return st;
    if (n == 0)
        return EM_OK;
    if (m == 0) {
        unsigned char v = (unsigned char)(invert != 0);
        st = em_memset_async(dev, out->data, v, (size_t)n, on);
        goto done;
    }
    if ((st = em_sets_flat(element, wt, on, &x)) != EM_OK ||
        (st = em_sets_flat(test, wt, on, &t)) != EM_OK ||
        (st = em_sort(&t, 0, 1, &u, on)) != EM_OK ||
        (st = em_searchsorted(&u, &x, 0, NULL, &j, on)) != EM_OK ||
        (st = ew_function(dev, EM_GEN_SET_ISIN, wt,
                          invert ? EM_GEN_SET_INVERT : 0, &f)) != EM_OK)
        goto done;
    ew_geom(dev, n, &grid, &block, &chunk);
    {
        void *xp = x.data, *jp = j.data, *up = u.data, *op = out->data;
        void *args[] = {&xp, &jp, &up, &n, &m, &chunk, &op};
        st = em_launch(f, grid, block, 0, on, args);
    }
done:
    drop(&x), drop(&t), drop(&u), drop(&j);
    if (st != EM_OK)
        drop(out);
    return st;
}
