/* ember math: CSR times a dense vector or matrix through cuSPARSE's
 * generic API (include/ember/cusparse.h), opened at run time. The types
 * are declared from the documented ABI (the enums are C ints, the
 * descriptors opaque pointers), so ember builds without CUDA's headers.
 * One handle a device (math/lib_handle.h), bound to the caller's stream
 * on each call; the descriptors are host objects made and dropped around
 * the call. */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>

#include "ember/cusparse.h"
#include "ember/runtime.h"
#include "ember/util.h"
#include "math/lib_handle.h"

/* cusparseIndexType_t, cusparseIndexBase_t, cusparseOperation_t,
 * cusparseOrder_t and the algorithms of SpMV and SpMM */
enum { INDEX_32I = 2, INDEX_64I = 3, BASE_ZERO = 0, OP_NON_TRANSPOSE = 0,
       OP_TRANSPOSE = 1, ORDER_ROW = 2, ALG_DEFAULT = 0, SPMV_CSR_ALG2 = 3 };

typedef struct sparse_fns {
    int (*create)(void **);
    int (*set_stream)(void *, void *);
    /* (descr, rows, cols, nnz, row offsets, column indices, values, the
     * offsets' index type, the indices' index type, base, value type) */
    int (*create_csr)(void **, int64_t, int64_t, int64_t, void *, void *,
                      void *, int, int, int, int);
    int (*create_dn_vec)(void **, int64_t, void *, int);
    /* (descr, rows, cols, leading dimension, values, value type, order) */
    int (*create_dn_mat)(void **, int64_t, int64_t, int64_t, void *, int, int);
    int (*destroy_sp_mat)(void *);
    int (*destroy_dn_vec)(void *);
    int (*destroy_dn_mat)(void *);
    /* (handle, opA, alpha, A, x, beta, y, compute type, algorithm, then
     * the buffer's size out, or the buffer) */
    int (*spmv_size)(void *, int, const void *, void *, void *, const void *,
                     void *, int, int, size_t *);
    int (*spmv)(void *, int, const void *, void *, void *, const void *,
                void *, int, int, void *);
    /* (handle, opA, opB, alpha, A, B, beta, C, compute type, algorithm,
     * then the buffer's size out, or the buffer) */
    int (*spmm_size)(void *, int, int, const void *, void *, void *,
                     const void *, void *, int, int, size_t *);
    int (*spmm)(void *, int, int, const void *, void *, void *, const void *,
                void *, int, int, void *);
} sparse_fns;

static sparse_fns cu;

static const em_vendor_sym syms[] = {
    {"cusparseCreate", offsetof(sparse_fns, create)},
    {"cusparseSetStream", offsetof(sparse_fns, set_stream)},
    {"cusparseCreateCsr", offsetof(sparse_fns, create_csr)},
    {"cusparseCreateDnVec", offsetof(sparse_fns, create_dn_vec)},
    {"cusparseCreateDnMat", offsetof(sparse_fns, create_dn_mat)},
    {"cusparseDestroySpMat", offsetof(sparse_fns, destroy_sp_mat)},
    {"cusparseDestroyDnVec", offsetof(sparse_fns, destroy_dn_vec)},
    {"cusparseDestroyDnMat", offsetof(sparse_fns, destroy_dn_mat)},
    {"cusparseSpMV_bufferSize", offsetof(sparse_fns, spmv_size)},
    {"cusparseSpMV", offsetof(sparse_fns, spmv)},
    {"cusparseSpMM_bufferSize", offsetof(sparse_fns, spmm_size)},
    {"cusparseSpMM", offsetof(sparse_fns, spmm)},
};

static em_vendor_lazy lib = EM_VENDOR_LAZY(EM_VENDOR_CUSPARSE, syms, &cu);

static em_status fail(int r, const char *what)
{
    /* cusparseStatus_t: 2 is CUSPARSE_STATUS_ALLOC_FAILED */
    return em_error_native(r == 2 ? EM_ERR_OUT_OF_MEMORY : EM_ERR_CUDA, r,
                           "cusparseStatus_t", "%s failed (status %d)", what, r);
}

static em_status create(em_lib_handle *slot)
{
    int r = cu.create(&slot->h);
    if (r != 0)
        slot->h = NULL;
    return r == 0 ? EM_OK : fail(r, "cusparseCreate");
}

static em_status bind(void *h, void *stream)
{
    int r = cu.set_stream(h, stream);
    return r == 0 ? EM_OK : fail(r, "cusparseSetStream");
}

static em_lib_handles handles = EM_LIB_HANDLES_INIT("cuSPARSE", create, bind);

#define FN "em_cusparse_csr_matmul"

/* "(3, 4)" */
static const char *shape_text(const em_array *a, char *buf, size_t n)
{
    if (a->ndim == 1)
        snprintf(buf, n, "(%lld,)", (long long)a->shape[0]);
    else if (a->ndim == 2)
        snprintf(buf, n, "(%lld, %lld)", (long long)a->shape[0],
                 (long long)a->shape[1]);
    else
        snprintf(buf, n, "of %d dimensions", a->ndim);
    return buf;
}

/* a, named name, is a C-contiguous (and, with write, writeable) array of
 * dtype t and the shape (n0) or (n0, n1) (ndim's) on dev. */
static em_status check(const em_array *a, const char *name, em_dtype t,
                       int ndim, int64_t n0, int64_t n1, em_device *dev,
                       int write)
{
    char want[48], got[48];
    if (!a)
        return em_error(EM_ERR_INVALID_VALUE, FN ": %s is NULL", name);
    if (a->ndim == ndim && a->shape[0] == n0 && (ndim == 1 || a->shape[1] == n1)
        && a->dtype == t && (a->flags & EM_ARRAY_C_CONTIGUOUS) &&
        a->device == dev && (!write || (a->flags & EM_ARRAY_WRITEABLE)))
        return EM_OK;
    if (ndim == 1)
        snprintf(want, sizeof want, "(%lld,)", (long long)n0);
    else
        snprintf(want, sizeof want, "(%lld, %lld)", (long long)n0,
                 (long long)n1);
    return em_error(EM_ERR_INVALID_VALUE, FN ": %s must be a C-contiguous%s "
                    "%s array of shape %s on %s, not %s %s%s on %s", name,
                    write ? " writeable" : "", em_dtype_get(t)->name, want,
                    em_device_name(dev), em_dtype_get(a->dtype)->name,
                    shape_text(a, got, sizeof got),
                    write && !(a->flags & EM_ARRAY_WRITEABLE) ? " (read-only)"
                                                              : "",
                    em_device_name(a->device));
}

/* The matrix's arrays: values of a type cuSPARSE multiplies, index arrays
 * of one integer type, all on one device. */
static em_status check_matrix(const em_array *data, const em_array *indices,
                              const em_array *indptr, int64_t ncols)
{
    const em_dtype_info *info;
    em_status st;
    if (!data || !indices || !indptr)
        return em_error(EM_ERR_INVALID_VALUE, FN ": data, indices and indptr "
                        "must be arrays");
    info = em_dtype_get(data->dtype);
    if (!info || info->blas < 0)
        return em_error(EM_ERR_TYPE, FN ": no cuSPARSE product for %s values "
                        "(float32, float64, complex64 or complex128)",
                        info ? info->name : "unknown");
    if (data->ndim != 1 || indptr->ndim != 1 || indptr->shape[0] < 1 ||
        ncols < 0)
        return em_error(EM_ERR_INVALID_VALUE, FN ": data and indptr must be "
                        "1-D, indptr of at least one entry, and the columns "
                        "not negative (%lld)", (long long)ncols);
    if (indptr->dtype != EM_INT32 && indptr->dtype != EM_INT64)
        return em_error(EM_ERR_TYPE, FN ": indptr must be int32 or int64, not "
                        "%s", em_dtype_get(indptr->dtype)->name);
    if ((st = check(data, "data", data->dtype, 1, data->shape[0], 0,
                    data->device, 0)) != EM_OK ||
        (st = check(indptr, "indptr", indptr->dtype, 1, indptr->shape[0], 0,
                    data->device, 0)) != EM_OK)
        return st;
    return check(indices, "indices", indptr->dtype, 1, data->shape[0], 0,
                 data->device, 0);
}

/* The product, the handle held on s: y = 1 op(A) x + 0 y, x of q rows
 * and y of p (op(A)'s shape). */
static em_status multiply(void *h, const em_array *data,
                          const em_array *indices, const em_array *indptr,
                          int64_t ncols, int transpose, const em_array *x,
                          em_array *y, int64_t p, int64_t q, int64_t k,
                          em_stream *s)
{
    const em_dtype_info *info = em_dtype_get(data->dtype);
    int type = info->cuda_type, it = indptr->dtype == EM_INT64 ? INDEX_64I
                                                              : INDEX_32I;
    int op = transpose ? OP_TRANSPOSE : OP_NON_TRANSPOSE;
    /* CSR_ALG2 (merge-path) read bench/scipy.py's csr @ vector 11% faster
     * than the default on an H100 (0.306 against 0.341 ms, CuPy 0.317);
     * a transposed product keeps the default, which cuSPARSE documents
     * for both operations. */
    int alg = transpose ? ALG_DEFAULT : SPMV_CSR_ALG2;
    int64_t m = indptr->shape[0] - 1;
    /* alpha and beta in the compute type (real, or a complex pair) */
    double one_d[2] = {1, 0}, zero_d[2] = {0, 0};
    float one_f[2] = {1, 0}, zero_f[2] = {0, 0};
    int single = data->dtype == EM_FLOAT32 || data->dtype == EM_COMPLEX64;
    const void *one = single ? (const void *)one_f : (const void *)one_d;
    const void *zero = single ? (const void *)zero_f : (const void *)zero_d;
    void *a = NULL, *vx = NULL, *vy = NULL, *work = NULL;
    size_t bytes = 0;
    em_status st = EM_OK;
    int r;

    if ((r = cu.create_csr(&a, m, ncols, data->shape[0], indptr->data,
                           indices->data, data->data, it, it, BASE_ZERO,
                           type)) != 0)
        return fail(r, "cusparseCreateCsr");
    if (k == 1) {
        if ((r = cu.create_dn_vec(&vx, q, x->data, type)) != 0 ||
            (r = cu.create_dn_vec(&vy, p, y->data, type)) != 0)
            st = fail(r, "cusparseCreateDnVec");
        else if ((r = cu.spmv_size(h, op, one, a, vx, zero, vy, type,
                                   alg, &bytes)) != 0)
            st = fail(r, "cusparseSpMV_bufferSize");
        else if ((st = em_malloc(data->device, bytes, s, &work)) == EM_OK &&
                 (r = cu.spmv(h, op, one, a, vx, zero, vy, type, alg,
                              work)) != 0)
            st = fail(r, "cusparseSpMV");
        if (vx)
            cu.destroy_dn_vec(vx);
        if (vy)
            cu.destroy_dn_vec(vy);
    } else {
        if ((r = cu.create_dn_mat(&vx, q, k, k, x->data, type,
                                  ORDER_ROW)) != 0 ||
            (r = cu.create_dn_mat(&vy, p, k, k, y->data, type,
                                  ORDER_ROW)) != 0)
            st = fail(r, "cusparseCreateDnMat");
        else if ((r = cu.spmm_size(h, OP_NON_TRANSPOSE, OP_NON_TRANSPOSE, one,
                                   a, vx, zero, vy, type, ALG_DEFAULT,
                                   &bytes)) != 0)
            st = fail(r, "cusparseSpMM_bufferSize");
        else if ((st = em_malloc(data->device, bytes, s, &work)) == EM_OK &&
                 (r = cu.spmm(h, OP_NON_TRANSPOSE, OP_NON_TRANSPOSE, one, a,
                              vx, zero, vy, type, ALG_DEFAULT, work)) != 0)
            st = fail(r, "cusparseSpMM");
        if (vx)
            cu.destroy_dn_mat(vx);
        if (vy)
            cu.destroy_dn_mat(vy);
    }
    cu.destroy_sp_mat(a);
    if (work) {
        /* the pool hands the block out again only after s's queued work */
        em_status f = em_free(data->device, work, s);
        if (st == EM_OK)
            st = f;
    }
    return st;
}

em_status em_cusparse_csr_matmul(const em_array *data, const em_array *indices,
                                 const em_array *indptr, int64_t ncols,
                                 int transpose, const em_array *x, em_array *y)
{
    em_lib_handle *slot;
    em_stream *s;
    em_status st;
    int64_t m, p, q, k;
    char xs[48];

    if ((st = check_matrix(data, indices, indptr, ncols)) != EM_OK)
        return st;
    m = indptr->shape[0] - 1;
    p = transpose ? ncols : m;
    q = transpose ? m : ncols;
    if (!x || (x->ndim != 1 && x->ndim != 2) || x->shape[0] != q)
        return em_error(EM_ERR_INVALID_VALUE, FN ": x %s does not fit a "
                        "%lld x %lld matrix%s", x ? shape_text(x, xs, sizeof xs)
                                                  : "NULL",
                        (long long)p, (long long)q,
                        transpose ? " (the transpose of the CSR arrays')" : "");
    k = x->ndim == 2 ? x->shape[1] : 1;
    if ((st = check(x, "x", data->dtype, x->ndim, q, k, data->device,
                    0)) != EM_OK ||
        (st = check(y, "y", data->dtype, x->ndim, p, k, data->device, 1)) !=
            EM_OK)
        return st;
    if (transpose && k != 1)
        return em_error(EM_ERR_NOT_SUPPORTED, FN ": the transpose times a "
                        "matrix of %lld columns is not wired (only the "
                        "vector product, SpMV, is relied on with a transposed "
                        "A): make the CSR form of the transpose", (long long)k);
    if (em_device_get_type(data->device) != EM_DEVICE_CUDA)
        return em_error(EM_ERR_NOT_SUPPORTED, FN " runs on CUDA devices "
                        "(cuSPARSE), not %s", em_device_name(data->device));
    if (p == 0 || k == 0)
        return EM_OK;
    s = em_current_stream();
    if (!s || em_stream_device(s) != data->device)
        s = em_stream_default(data->device);
    /* y starts at zero: beta is 0, but nothing in cuSPARSE's documentation
     * says y is then never read, and the pool's blocks may hold NaNs; it
     * is also the whole answer when A has no entries */
    if ((st = em_memset_async(data->device, y->data, 0,
                              (size_t)(p * k) * em_dtype_size(data->dtype),
                              s)) != EM_OK ||
        data->shape[0] == 0 || q == 0)
        return st;
    if ((st = em_vendor_ready(&lib)) != EM_OK)
        return st;
    if ((st = em_lib_handle_take(&handles, s, &slot)) != EM_OK)
        return st;
    st = multiply(slot->h, data, indices, indptr, ncols, transpose, x, y, p,
                  q, k, s);
    em_lib_handle_give(slot);
    return st;
}
