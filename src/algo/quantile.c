/* ember algorithms: quantile and median (histogram.h): move the axis
 * last, sort each row (sort.h), then one generated kernel reads the one
 * or two order statistics of each row and quantile and interpolates as
 * NumPy's 'linear' method does. */
#include <math.h>
#include <string.h>

#include "algo/sets_internal.h"
#include "array/array_internal.h"
#include "codegen/ewise.h"
#include "codegen/histogram.h"
#include "ember/sort.h"

em_status em_quantile(const em_array *a, const double *q, int qndim,
                      const int64_t *qshape, const int *axes, int naxes,
                      int keepdims, int median, int skipnan,
                      em_dtype out_dtype, em_array *out, em_stream *s)
{
    const int nan = skipnan != 0;
    const char *fn = median ? "median" : "quantile";
    em_stream *on = NULL;
    em_device *dev;
    em_dtype wt;
    em_array work, moved, sorted, qd, res;
    int64_t nq = 1, len, rows = 1, oshape[2 * EM_MAX_NDIM];
    int ond = 0, perm[EM_MAX_NDIM], red[EM_MAX_NDIM], nred = 0;
    em_status st;

    memset(&work, 0, sizeof work), memset(&moved, 0, sizeof moved);
    memset(&sorted, 0, sizeof sorted), memset(&qd, 0, sizeof qd);
    memset(&res, 0, sizeof res);
    if (out)
        memset(out, 0, sizeof *out);
    if (!a || !out || (!median && !q))
        return em_error(EM_ERR_INVALID_VALUE, "%s: NULL argument", fn);
    if ((st = em_arr_check(a, fn)) != EM_OK)
        return st;
    if (a->dtype == EM_BOOL && !median)
        return em_error(EM_ERR_TYPE, "quantile: dtype bool is not supported "
                                     "(NumPy cannot subtract booleans)");
    if ((st = em_sets_work_dtype(a->dtype, fn, &wt)) != EM_OK)
        return st;
    if (em_dtype_get(out_dtype) == NULL ||
        em_dtype_get(out_dtype)->kind_id != EM_KIND_FLOAT)
        return em_error(EM_ERR_TYPE, "%s: result dtype must be a float type",
                        fn);
    if (median) {
        qndim = 0;
    } else {
        if (qndim < 0 || qndim > EM_MAX_NDIM)
            return em_error(EM_ERR_INVALID_VALUE,
                            "quantile: q of %d "
                            "dimensions",
                            qndim);
        for (int i = 0; i < qndim; i++)
            nq *= qshape[i];
        for (int64_t i = 0; i < nq; i++)
            if (!(q[i] >= 0 && q[i] <= 1))
                return em_error(EM_ERR_INVALID_VALUE,
                                "Quantiles must be in the range [0, 1] "
                                "(got %g)",
                                q[i]);
    }
    memset(red, 0, sizeof red);
    if (!axes) {
        for (int i = 0; i < a->ndim; i++)
            red[i] = 1;
    } else {
        for (int j = 0; j < naxes; j++) {
            int ax = axes[j];
            if ((st = em_arr_axis(&ax, a->ndim)) != EM_OK)
                return st;
            if (red[ax])
                return em_error(EM_ERR_INVALID_VALUE, "%s: repeated axis %d",
                                fn, ax);
            red[ax] = 1;
        }
    }
    for (int i = 0; i < a->ndim; i++)
        nred += red[i];
    dev = a->device;
    if (!(on = em_arr_stream(dev, s, fn)))
        return EM_ERR_INVALID_VALUE;
    /* the result's shape: q's, then the kept axes */
    for (int i = 0; i < qndim; i++)
        oshape[ond++] = qshape[i];
    for (int i = 0; i < a->ndim; i++) {
        if (red[i]) {
            if (keepdims)
                oshape[ond++] = 1;
        } else {
            oshape[ond++] = a->shape[i];
            rows *= a->shape[i];
        }
    }
    /* the data in the working dtype, the reduced axes last (merged into
     * one), each row sorted */
    len = 1;
    for (int i = 0; i < a->ndim; i++)
        if (red[i])
            len *= a->shape[i];
    if (nred == a->ndim || nred == 0) {
        /* all axes: one row; none (axis=()): rows of one, nothing to sort */
        st = em_sets_flat(a, wt, on, &work);
        if (st == EM_OK && nred == 0)
            em_array_retain(&work, &sorted);
        else if (st == EM_OK)
            st = em_sort(&work, 0, 1, &sorted, on);
    } else {
        int k = 0;
        if (wt == a->dtype) {
            em_array_retain(a, &work);
        } else if ((st = em_array_empty(dev, wt, a->ndim, a->shape, 'C', on,
                                        &work)) == EM_OK &&
                   (st = em_array_copy(&work, a, on)) != EM_OK) {
            em_array_release(&work);
        }
        for (int i = 0; i < a->ndim; i++)
            if (!red[i])
                perm[k++] = i;
        for (int i = 0; i < a->ndim; i++)
            if (red[i])
                perm[k++] = i;
        if (st == EM_OK)
            st = em_array_transpose(&work, perm, &moved);
        if (st == EM_OK && nred > 1) {
            /* merge the reduced axes: a C-ordered copy, viewed 2-d */
            em_array c, v;
            int64_t sh2[2];
            sh2[0] = rows;
            sh2[1] = len;
            st = em_array_empty(dev, wt, moved.ndim, moved.shape, 'C', on, &c);
            if (st == EM_OK && (st = em_array_copy(&c, &moved, on)) == EM_OK)
                st = em_array_reshape_view(&c, 2, sh2, 'C', &v);
            if (c.storage)
                em_array_release(&c);
            em_array_release(&moved);
            if (st == EM_OK)
                moved = v;
            else
                memset(&moved, 0, sizeof moved);
        }
        if (st == EM_OK)
            st = em_sort(&moved, -1, 0, &sorted, on);
    }
    if (st != EM_OK)
        goto done;
    {
        int64_t total = nq * rows;
        em_gen_hist d;
        em_function *f[2];
        em_dim3 grid = {1, 1, 1}, block = {1, 1, 1};
        int64_t chunk;
        if ((st = em_array_empty(dev, EM_FLOAT64, 1, &total, 'C', on, &res)) !=
            EM_OK)
            goto done;
        if (!median && (st = em_array_empty(dev, EM_FLOAT64, 1, &nq, 'C', on,
                                            &qd)) == EM_OK)
            st = em_array_from_host(&qd, q, NULL, on);
        if (st != EM_OK)
            goto done;
        if (total > 0) {
            void *sp = sorted.data, *qp = median ? NULL : qd.data,
                 *op = res.data;
            void *args[] = {&sp, &total, &rows, &len, &qp, &chunk, &op};
            memset(&d, 0, sizeof d);
            d.op = EM_GEN_QUANTILE;
            d.xdt = (uint8_t)wt;
            d.flags = (uint8_t)((median ? EM_GEN_QUANT_MEDIAN : 0) |
                                (nan ? EM_GEN_QUANT_NAN : 0));
            if ((st = em_gen_hist_functions(dev, &d, f)) != EM_OK)
                goto done;
            if (em_device_get_type(dev) == EM_DEVICE_CUDA) {
                int64_t tiles =
                            (total + EM_GEN_HIST_BLOCK - 1) / EM_GEN_HIST_BLOCK,
                        cap = (int64_t)em_gen_device_units(dev) * 32;
                chunk = 0;
                grid.x = (unsigned)(tiles < cap ? tiles : cap);
                block.x = EM_GEN_HIST_BLOCK;
            } else {
                chunk = 16384;
                grid.x = (unsigned)((total + chunk - 1) / chunk);
            }
            if ((st = em_launch(f[0], grid, block, 0, on, args)) != EM_OK)
                goto done;
        }
    }
    if (out_dtype == EM_FLOAT64) {
        st = em_array_reshape_view(&res, ond, oshape, 'C', out);
    } else if ((st = em_array_empty(dev, out_dtype, ond, oshape, 'C', on,
                                    out)) == EM_OK) {
        em_array rv;
        if ((st = em_array_reshape_view(&res, ond, oshape, 'C', &rv)) ==
            EM_OK) {
            st = em_array_copy(out, &rv, on);
            em_array_release(&rv);
        }
        if (st != EM_OK)
            em_array_release(out);
    }
done:
    if (work.storage)
        em_array_release(&work);
    if (moved.storage)
        em_array_release(&moved);
    if (sorted.storage)
        em_array_release(&sorted);
    if (qd.storage)
        em_array_release(&qd);
    if (res.storage)
        em_array_release(&res);
    return st;
}
