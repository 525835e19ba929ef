/* ember core: loop geometry (see layout.h). */
#include <string.h>

#include "core/layout.h"

#define LIMIT32 ((int64_t)1 << 31)

static int64_t iabs64(int64_t v)
{
    return v < 0 ? -v : v;
}

em_status em_layout_broadcast(int n, const int *ndim,
                              const int64_t *const *shape, int *out_nd,
                              int64_t *out)
{
    int seen = 0;
    *out_nd = 0;
    for (int i = 0; i < n; i++) {
        em_status st;
        if (!shape[i])
            continue;
        if (!seen++) {
            /* the first operand's shape as it is, as the pairwise rule
             * would give it (and without re-checking its extents) */
            *out_nd = ndim[i];
            if (ndim[i] > 0)
                memcpy(out, shape[i], (size_t)ndim[i] * sizeof *out);
            continue;
        }
        st = em_shape_broadcast(*out_nd, out, ndim[i], shape[i], out_nd, out);
        if (st != EM_OK)
            return st;
    }
    return EM_OK;
}

void em_layout_broadcast_strides(int ndim, const int64_t *shape,
                                 const int64_t *strides, int nd,
                                 const int64_t *bshape, int64_t *out)
{
    int off = nd - ndim;
    for (int i = 0; i < nd; i++) {
        int j = i - off;
        out[i] = (j < 0 || shape[j] == 1 || bshape[i] == 1) ? 0 : strides[j];
    }
}

/* Axis a of every row to position m. */
static void move_axis(int nop, int64_t (*st)[EM_MAX_NDIM], int m, int a)
{
    for (int j = 0; j < nop; j++)
        st[j][m] = st[j][a];
}

int em_layout_collapse(int nd, int64_t *shape, int nop,
                       int64_t (*st)[EM_MAX_NDIM], const int *used,
                       int sort_by, int merge)
{
    int n = 0, m = 0;
    for (int i = 0; i < nd; i++) {
        if (shape[i] == 1)
            continue;
        shape[n] = shape[i];
        move_axis(nop, st, n, i);
        n++;
    }
    /* Insertion sort: stable, and the few axes a call has make anything
     * cleverer slower. */
    for (int i = 1; sort_by >= 0 && i < n; i++) {
        for (int k = i; k > 0; k--) {
            int64_t t;
            if (iabs64(st[sort_by][k - 1]) >= iabs64(st[sort_by][k]))
                break;
            t = shape[k];
            shape[k] = shape[k - 1];
            shape[k - 1] = t;
            for (int j = 0; j < nop; j++) {
                t = st[j][k];
                st[j][k] = st[j][k - 1];
                st[j][k - 1] = t;
            }
        }
    }
    for (int i = 0; i < n; i++) {
        int ok = merge && m > 0;
        for (int j = 0; j < nop && ok; j++) {
            int64_t run;
            /* a product past int64 is no run (and no real array) */
            if ((!used || used[j]) &&
                (__builtin_mul_overflow(shape[i], st[j][i], &run) ||
                 st[j][m - 1] != run))
                ok = 0;
        }
        if (ok) {
            shape[m - 1] *= shape[i];
            move_axis(nop, st, m - 1, i);
        } else {
            shape[m] = shape[i];
            move_axis(nop, st, m, i);
            m++;
        }
    }
    return m;
}

int em_layout_run(int n, const int64_t *shape, const int64_t *strides,
                  int sort, int64_t *extent, int64_t *stride)
{
    int64_t sh[EM_MAX_NDIM], st[1][EM_MAX_NDIM];
    int m;
    /* No element is visited, whatever the strides: an empty (2, 0) has
     * strides (1, 1), which do not chain, and a caller that then walked
     * the first axis alone read two elements of an empty buffer. */
    for (int i = 0; i < n; i++)
        if (shape[i] == 0) {
            *extent = 0;
            *stride = 0;
            return 1;
        }
    if (n > 0) {
        memcpy(sh, shape, (size_t)n * sizeof *sh);
        memcpy(st[0], strides, (size_t)n * sizeof *sh);
    }
    m = em_layout_collapse(n, sh, 1, st, NULL, sort ? 0 : -1, 1);
    *extent = m ? sh[0] : 1;
    *stride = m ? st[0][0] : 0;
    return m <= 1;
}

int em_layout_fits32(int nd, const int64_t *shape, int nop,
                     const int64_t (*st)[EM_MAX_NDIM], const int *used,
                     int64_t count, int64_t margin)
{
    if (count >= LIMIT32)
        return 0;
    for (int j = 0; j < nop; j++) {
        int64_t span = margin, term;
        if (used && !used[j])
            continue;
        for (int i = 0; i < nd; i++) {
            int64_t s = iabs64(st[j][i]);
            if (shape[i] > 1 && s >= LIMIT32)
                return 0;
            if (__builtin_mul_overflow(shape[i] - 1, s, &term) ||
                __builtin_add_overflow(span, term, &span))
                return 0;
        }
        if (span >= LIMIT32)
            return 0;
    }
    return 1;
}

int em_layout_overlap(const em_layout_mem *a, const em_layout_mem *b)
{
    int64_t alo, ahi, blo, bhi;
    uintptr_t pa = (uintptr_t)a->data, pb = (uintptr_t)b->data;
    em_layout_extent(a->ndim, a->shape, a->strides, a->itemsize, &alo, &ahi);
    em_layout_extent(b->ndim, b->shape, b->strides, b->itemsize, &blo, &bhi);
    return alo < ahi && blo < bhi && pa + (uintptr_t)alo < pb + (uintptr_t)bhi &&
           pb + (uintptr_t)blo < pa + (uintptr_t)ahi;
}
