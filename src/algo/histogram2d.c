/* ember algorithms: NumPy's histogram2d (histogram.h).
 *
 * NumPy stacks x and y into one sample (so both take their promoted
 * dtype), makes each coordinate's edges as histogramdd does, and counts
 * pairs by searchsorted and bincount. Here one generated kernel (op 2D
 * of codegen/histogram.h) finds both bins and counts each pair: one pass
 * over x and y, with per-block shared counters while the bins fit.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "algo/hist_internal.h"
#include "array/array_internal.h"
#include "codegen/histogram.h"
#include "ember/ufunc.h"

/* One coordinate's edges: *shown (what histogram2d returns: the given
 * edges, or new ones as histogramdd makes them from the sample column
 * xs) and *e64 (the same as contiguous float64, for the kernel), with a
 * host copy of e64 in *hv (caller frees). */
static em_status axis_edges(const em_array *xs, const em_hist_axis *ax, int i,
                            em_stream *on, em_array *shown, em_array *e64,
                            double **hv)
{
    em_status st;
    int64_t ne;
    *hv = NULL;
    if (ax->edges) {
        if ((st = em_hist_check_real(ax->edges, "histogram2d", "bins")) !=
            EM_OK)
            return st;
        if (ax->edges->ndim != 1 || ax->edges->size < 1)
            return em_error(EM_ERR_INVALID_VALUE,
                            "histogram2d: `bins[%d]` must be 1-d edges, at "
                            "least one",
                            i);
        if (ax->edges->device != xs->device)
            return em_error(EM_ERR_INVALID_VALUE,
                            "histogram2d: bins[%d] is on %s but x on %s", i,
                            em_device_name(ax->edges->device),
                            em_device_name(xs->device));
        em_array_retain(ax->edges, shown);
    } else {
        if (ax->count < 1)
            return em_error(EM_ERR_INVALID_VALUE,
                            "`bins[%d]` must be positive, when an integer", i);
        st = em_hist_edges(xs, ax->count, ax->has_range, ax->lo, ax->hi, 1,
                           shown, NULL, on);
        if (st != EM_OK)
            return st;
    }
    if ((st = em_hist_contiguous(shown, EM_FLOAT64, on, e64)) != EM_OK) {
        em_array_release(shown);
        return st;
    }
    ne = e64->size;
    if (!(*hv = malloc((size_t)ne * sizeof **hv)))
        st = em_error(EM_ERR_OUT_OF_MEMORY, "histogram2d: %lld edges",
                      (long long)ne);
    if (st == EM_OK)
        st = em_array_to_host(e64, *hv, NULL, on);
    for (int64_t k = 0; st == EM_OK && ax->edges && k + 1 < ne; k++)
        if ((*hv)[k] > (*hv)[k + 1])
            st = em_error(EM_ERR_INVALID_VALUE,
                          "`bins[%d]` must be monotonically increasing, when "
                          "an array (edge %lld is %g, edge %lld is %g)",
                          i, (long long)k, (*hv)[k], (long long)k + 1,
                          (*hv)[k + 1]);
    if (st != EM_OK) {
        free(*hv);
        *hv = NULL;
        em_array_release(e64);
        em_array_release(shown);
    }
    return st;
}

/* Count the pairs into buf (nbins counters of 8 bytes on x's device). */
static em_status count_pairs(const em_array *cx, const em_array *cy,
                             const em_array *w, const em_array *xe,
                             const em_array *ye, int64_t nbins, void *buf,
                             em_stream *on)
{
    em_device *dev = cx->device;
    int64_t n = cx->size, nxe = xe->size, nye = ye->size, chunk = 0, sbins = 0;
    const void *xp = cx->data, *yp = cy->data, *wp = w ? w->data : NULL,
               *xep = xe->data, *yep = ye->data;
    void *op = buf;
    em_gen_hist d;
    em_function *fn[2];
    em_dim3 grid = {1, 1, 1}, block = {1, 1, 1};
    void *args[] = {&xp,  &yp,  &wp,  &n,     &chunk, &xep,
                    &nxe, &yep, &nye, &sbins, &op};
    em_status st;
    memset(&d, 0, sizeof d);
    d.op = EM_GEN_HIST_2D;
    d.xdt = (uint8_t)cx->dtype;
    d.weighted = w != NULL;
    if ((st = em_gen_hist_functions(dev, &d, fn)) != EM_OK)
        return st;
    if (em_device_get_type(dev) == EM_DEVICE_CUDA) {
        int64_t tiles = (n + EM_GEN_HIST_BLOCK - 1) / EM_GEN_HIST_BLOCK,
                scap = em_hist_shared_cap(w != NULL);
        size_t shmem;
        sbins = nbins < scap ? nbins : scap;
        shmem = (size_t)sbins * (w ? 8 : 4);
        grid.x = (unsigned)em_hist_cuda_blocks(dev, n, tiles, shmem,
                                                    EM_GEN_HIST_BLOCKS_PER_SM);
        block.x = EM_GEN_HIST_BLOCK;
        st = em_memset_async(dev, buf, 0, (size_t)nbins * 8, on);
        if (st == EM_OK)
            st = em_launch(fn[0], grid, block, shmem, on, args);
        return st;
    }
    return em_hist_host_count(dev, fn, args, 10, n, nbins, &chunk, on);
}

/* NumPy's density: hist / dx[i] / dy[j] / hist.sum(), on a host copy. */
static em_status density(em_array *h, const double *xv, const double *yv,
                         int64_t nx, int64_t ny, em_stream *on)
{
    double *hv, sum = 0;
    em_status st;
    if (!(hv = malloc((size_t)(nx * ny + 1) * sizeof *hv)))
        return em_error(EM_ERR_OUT_OF_MEMORY, "histogram2d: %lld bins",
                        (long long)(nx * ny));
    st = em_array_to_host(h, hv, NULL, on);
    if (st == EM_OK) {
        for (int64_t k = 0; k < nx * ny; k++)
            sum += hv[k];
        for (int64_t i = 0; i < nx; i++)
            for (int64_t j = 0; j < ny; j++)
                hv[i * ny + j] = hv[i * ny + j] / (xv[i + 1] - xv[i]) /
                                 (yv[j + 1] - yv[j]) / sum;
        st = em_array_from_host(h, hv, NULL, on);
    }
    free(hv);
    return st;
}

em_status em_histogram2d(const em_array *x, const em_array *y,
                         const em_array *weights, const em_hist_axis axes[2],
                         int dens, em_array *hist, em_array *xedges,
                         em_array *yedges, em_stream *s)
{
    em_stream *on = NULL;
    em_dtype common;
    em_array xs, ys, cx, cy, w, shown[2], e64[2], buf, flat;
    double *hv[2] = {NULL, NULL};
    int64_t n, nx, ny, nbins;
    int made = 0;
    em_status st;
    if (!x || !y || !axes || !hist || !xedges || !yedges)
        return em_error(EM_ERR_INVALID_VALUE, "histogram2d: NULL argument");
    if ((st = em_hist_check_real(x, "histogram2d", "x")) != EM_OK ||
        (st = em_hist_check_real(y, "histogram2d", "y")) != EM_OK ||
        (weights &&
         (st = em_hist_check_real(weights, "histogram2d", "weights")) != EM_OK))
        return st;
    if (x->ndim != 1 || y->ndim != 1)
        return em_error(EM_ERR_INVALID_VALUE,
                        "histogram2d: x and y must be 1-d, not %d-d and %d-d",
                        x->ndim, y->ndim);
    if (x->size != y->size)
        return em_error(EM_ERR_INVALID_VALUE,
                        "histogram2d: x and y must have the same length "
                        "(x has %lld, y has %lld)",
                        (long long)x->size, (long long)y->size);
    if (weights && (weights->ndim != 1 || weights->size != x->size))
        return em_error(EM_ERR_INVALID_VALUE,
                        "histogram2d: weights must have the length of x and "
                        "y (weights has %lld, x and y have %lld)",
                        (long long)(weights->ndim == 1 ? weights->size : -1),
                        (long long)x->size);
    if (y->device != x->device || (weights && weights->device != x->device))
        return em_error(EM_ERR_INVALID_VALUE,
                        "histogram2d: x, y and weights must be on one device");
    if (!(on = em_arr_stream(x->device, s, "histogram2d")))
        return EM_ERR_INVALID_VALUE;
    if ((st = em_dtype_promote(x->dtype, y->dtype, &common)) != EM_OK)
        return st;
    n = x->size;
    memset(&w, 0, sizeof w);
    memset(&buf, 0, sizeof buf);
    /* the sample in NumPy's stacked dtype, for the edges; the kernel
     * loads it natively (float16 as float32) */
    if ((st = em_hist_contiguous(x, (int)common, on, &xs)) != EM_OK)
        return st;
    if ((st = em_hist_contiguous(y, (int)common, on, &ys)) != EM_OK) {
        em_array_release(&xs);
        return st;
    }
    if ((st = axis_edges(&xs, &axes[0], 0, on, &shown[0], &e64[0], &hv[0])) ==
        EM_OK) {
        made = 1;
        if ((st = axis_edges(&ys, &axes[1], 1, on, &shown[1], &e64[1],
                             &hv[1])) == EM_OK)
            made = 2;
    }
    if (st == EM_OK && (st = em_hist_contiguous(&xs, -1, on, &cx)) == EM_OK) {
        if ((st = em_hist_contiguous(&ys, -1, on, &cy)) != EM_OK)
            em_array_release(&cx);
    }
    em_array_release(&xs);
    em_array_release(&ys);
    if (st != EM_OK)
        goto out;
    if (weights &&
        (st = em_hist_contiguous(weights, EM_FLOAT64, on, &w)) != EM_OK)
        goto counted;
    nx = e64[0].size - 1;
    ny = e64[1].size - 1;
    if (nx > 0 && ny > INT64_MAX / 8 / nx) {
        st = em_error(EM_ERR_OVERFLOW, "histogram2d: %lld x %lld bins",
                      (long long)nx, (long long)ny);
        goto weighted;
    }
    nbins = nx * ny;
    /* the counts' bits: int64 counts, or float64 sums with weights */
    st = em_array_empty(x->device, weights ? EM_FLOAT64 : EM_INT64, 1, &nbins,
                        'C', on, &buf);
    if (st != EM_OK)
        goto weighted;
    if (nbins > 0) {
        if (n == 0)
            st = em_memset_async(x->device, buf.data, 0, (size_t)nbins * 8, on);
        else
            st = count_pairs(&cx, &cy, weights ? &w : NULL, &e64[0], &e64[1],
                             nbins, buf.data, on);
    }
    /* NumPy's histogram2d is float64 whatever it counted */
    if (st == EM_OK && !weights) {
        em_array f;
        st = em_array_empty(x->device, EM_FLOAT64, 1, &nbins, 'C', on, &f);
        if (st == EM_OK && (st = em_array_copy(&f, &buf, on)) != EM_OK)
            em_array_release(&f);
        if (st == EM_OK) {
            em_array_release(&buf);
            buf = f;
        }
    }
    if (st == EM_OK && dens && nbins > 0)
        st = density(&buf, hv[0], hv[1], nx, ny, on);
    if (st == EM_OK) {
        int64_t shape[2] = {nx, ny};
        if ((st = em_array_reshape_view(&buf, 2, shape, 'C', &flat)) == EM_OK)
            *hist = flat;
    }
    em_array_release(&buf);
weighted:
    if (weights)
        em_array_release(&w);
counted:
    em_array_release(&cx);
    em_array_release(&cy);
out:
    for (int i = 0; i < made; i++) {
        free(hv[i]);
        em_array_release(&e64[i]);
        if (st == EM_OK)
            *(i ? yedges : xedges) = shown[i];
        else
            em_array_release(&shown[i]);
    }
    return st;
}
