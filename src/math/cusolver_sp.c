/* ember math: cuSOLVER's sparse direct solver (include/ember/cusolver.h's
 * em_cusolver_csrlsvqr), opened at run time with cuSPARSE, which owns the
 * matrix descriptor type. The types are declared from the documented ABI,
 * so ember builds without CUDA's headers. One handle a device
 * (math/lib_handle.h), with a default (general, zero-based) descriptor
 * beside it. */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>

#include "ember/cusolver.h"
#include "ember/runtime.h"
#include "ember/util.h"
#include "math/lib_handle.h"

typedef struct sp_fns {
    int (*create)(void **);
    int (*set_stream)(void *, void *);
    /* (handle, m, nnz, descr, values, indptr, indices, b, tol, reorder,
     * x, singularity): tol is a float for S and C, a double for D and Z;
     * values, b and x are passed by pointer, so the complex calls have
     * the real ones' signatures */
    int (*s_lsvqr)(void *, int, int, void *, const void *, const void *,
                   const void *, const void *, float, int, void *, int *);
    int (*d_lsvqr)(void *, int, int, void *, const void *, const void *,
                   const void *, const void *, double, int, void *, int *);
    int (*c_lsvqr)(void *, int, int, void *, const void *, const void *,
                   const void *, const void *, float, int, void *, int *);
    int (*z_lsvqr)(void *, int, int, void *, const void *, const void *,
                   const void *, const void *, double, int, void *, int *);
    int (*create_descr)(void **);
} sp_fns;

static sp_fns cu;

static const em_vendor_sym solver_syms[] = {
    {"cusolverSpCreate", offsetof(sp_fns, create)},
    {"cusolverSpSetStream", offsetof(sp_fns, set_stream)},
    {"cusolverSpScsrlsvqr", offsetof(sp_fns, s_lsvqr)},
    {"cusolverSpDcsrlsvqr", offsetof(sp_fns, d_lsvqr)},
    {"cusolverSpCcsrlsvqr", offsetof(sp_fns, c_lsvqr)},
    {"cusolverSpZcsrlsvqr", offsetof(sp_fns, z_lsvqr)},
};
static const em_vendor_sym sparse_syms[] = {
    {"cusparseCreateMatDescr", offsetof(sp_fns, create_descr)},
};

static em_vendor_lazy solver = EM_VENDOR_LAZY(EM_VENDOR_CUSOLVER, solver_syms, &cu),
                      sparse = EM_VENDOR_LAZY(EM_VENDOR_CUSPARSE, sparse_syms, &cu);

static em_status fail(int r, const char *what)
{
    /* cusolverStatus_t and cusparseStatus_t: 2 is ALLOC_FAILED in both */
    return em_error_native(r == 2 ? EM_ERR_OUT_OF_MEMORY : EM_ERR_CUDA, r,
                           "cusolverStatus_t", "%s failed (status %d)", what, r);
}

static em_status create(em_lib_handle *slot)
{
    int r;
    if ((r = cu.create(&slot->h)) != 0) {
        slot->h = NULL;
        return fail(r, "cusolverSpCreate");
    }
    if ((r = cu.create_descr(&slot->aux)) != 0)
        return fail(r, "cusparseCreateMatDescr");
    return EM_OK;
}

static em_status bind(void *h, void *stream)
{
    int r = cu.set_stream(h, stream);
    return r == 0 ? EM_OK : fail(r, "cusolverSpSetStream");
}

static em_lib_handles handles = EM_LIB_HANDLES_INIT("cuSOLVER (sparse)",
                                                    create, bind);

/* a's dtype and a contiguous 1-D shape of n entries on dev */
static em_status check(const em_array *a, const char *name, em_dtype t,
                       int64_t n, em_device *dev)
{
    if (!a)
        return em_error(EM_ERR_INVALID_VALUE, "em_cusolver_csrlsvqr: %s is "
                        "NULL", name);
    if (a->ndim != 1 || a->shape[0] != n || a->dtype != t ||
        !(a->flags & EM_ARRAY_C_CONTIGUOUS) || a->device != dev)
        return em_error(EM_ERR_INVALID_VALUE, "em_cusolver_csrlsvqr: %s must "
                        "be a contiguous %s array of %lld entries on %s",
                        name, em_dtype_get(t)->name, (long long)n,
                        em_device_name(dev));
    return EM_OK;
}

em_status em_cusolver_csrlsvqr(const em_array *data, const em_array *indptr,
                               const em_array *indices, const em_array *b,
                               double tol, int reorder, em_array *x,
                               int *singular)
{
    em_lib_handle *slot;
    em_stream *s;
    em_status st;
    int64_t n, nnz;
    const char *what;
    int r;

    *singular = -1;
    if (!data || !indptr || data->ndim != 1 || indptr->ndim != 1)
        return em_error(EM_ERR_INVALID_VALUE, "em_cusolver_csrlsvqr: data and "
                        "indptr must be 1-D arrays");
    if (data->dtype != EM_FLOAT32 && data->dtype != EM_FLOAT64 &&
        data->dtype != EM_COMPLEX64 && data->dtype != EM_COMPLEX128)
        return em_error(EM_ERR_TYPE, "em_cusolver_csrlsvqr: no sparse QR for "
                        "%s (float32, float64, complex64 and complex128 "
                        "only)", em_dtype_get(data->dtype)->name);
    if (em_device_get_type(data->device) != EM_DEVICE_CUDA)
        return em_error(EM_ERR_NOT_SUPPORTED, "em_cusolver_csrlsvqr runs on "
                        "CUDA devices, not %s", em_device_name(data->device));
    n = indptr->shape[0] - 1;
    nnz = data->shape[0];
    if (n < 0 || n > INT32_MAX || nnz > INT32_MAX || reorder < 0 || reorder > 3)
        return em_error(EM_ERR_INVALID_VALUE, "em_cusolver_csrlsvqr: %lld rows "
                        "and %lld entries (32-bit counts), reorder %d (0..3)",
                        (long long)n, (long long)nnz, reorder);
    if ((st = check(data, "data", data->dtype, nnz, data->device)) != EM_OK ||
        (st = check(indptr, "indptr", EM_INT32, n + 1, data->device)) != EM_OK ||
        (st = check(indices, "indices", EM_INT32, nnz, data->device)) != EM_OK ||
        (st = check(b, "b", data->dtype, n, data->device)) != EM_OK ||
        (st = check(x, "x", data->dtype, n, data->device)) != EM_OK)
        return st;
    if (!(x->flags & EM_ARRAY_WRITEABLE))
        return em_error(EM_ERR_INVALID_VALUE, "em_cusolver_csrlsvqr: x is "
                        "read-only");
    if (n == 0)
        return EM_OK;
    if ((st = em_vendor_ready(&solver)) != EM_OK ||
        (st = em_vendor_ready(&sparse)) != EM_OK)
        return st;
    s = em_current_stream();
    if (!s || em_stream_device(s) != data->device)
        s = em_stream_default(data->device);
    if ((st = em_lib_handle_take(&handles, s, &slot)) != EM_OK)
        return st;
    switch (data->dtype) {
    case EM_FLOAT32:
        r = cu.s_lsvqr(slot->h, (int)n, (int)nnz, slot->aux, data->data,
                       indptr->data, indices->data, b->data, (float)tol,
                       reorder, x->data, singular);
        what = "cusolverSpScsrlsvqr";
        break;
    case EM_FLOAT64:
        r = cu.d_lsvqr(slot->h, (int)n, (int)nnz, slot->aux, data->data,
                       indptr->data, indices->data, b->data, tol, reorder,
                       x->data, singular);
        what = "cusolverSpDcsrlsvqr";
        break;
    case EM_COMPLEX64:
        r = cu.c_lsvqr(slot->h, (int)n, (int)nnz, slot->aux, data->data,
                       indptr->data, indices->data, b->data, (float)tol,
                       reorder, x->data, singular);
        what = "cusolverSpCcsrlsvqr";
        break;
    default:
        r = cu.z_lsvqr(slot->h, (int)n, (int)nnz, slot->aux, data->data,
                       indptr->data, indices->data, b->data, tol, reorder,
                       x->data, singular);
        what = "cusolverSpZcsrlsvqr";
        break;
    }
    em_lib_handle_give(slot);
    return r == 0 ? EM_OK : fail(r, what);
}
