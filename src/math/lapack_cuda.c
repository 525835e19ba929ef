/* ember math: the cuSOLVER calls of include/ember/cusolver.h, through its
 * 64-bit generic API (cusolverDnX*: one entry point for the four dtypes),
 * opened at run time. cuSOLVER's types are declared here from its
 * documented ABI, so ember builds without CUDA's headers. One handle a
 * device (math/lib_handle.h). */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ember/cusolver.h"
#include "math/lib_handle.h"
#include "ember/runtime.h"
#include "ember/util.h"

typedef void *handle_t, *params_t;

/* cudaDataType values (library_types.h) */
enum { R_32F = 0, R_64F = 1, C_32F = 4, C_64F = 5 };

typedef struct cusolver_fns {
    int (*create)(handle_t *);
    int (*set_stream)(handle_t, void *);
    int (*create_params)(params_t *);
    int (*getrf_size)(handle_t, params_t, int64_t, int64_t, int, const void *,
                      int64_t, int, size_t *, size_t *);
    int (*getrf)(handle_t, params_t, int64_t, int64_t, int, void *, int64_t,
                 int64_t *, int, void *, size_t, void *, size_t, int *);
    int (*getrs)(handle_t, params_t, int, int64_t, int64_t, int, const void *,
                 int64_t, const int64_t *, int, void *, int64_t, int *);
    int (*potrf_size)(handle_t, params_t, int, int64_t, int, const void *,
                      int64_t, int, size_t *, size_t *);
    int (*potrf)(handle_t, params_t, int, int64_t, int, void *, int64_t, int,
                 void *, size_t, void *, size_t, int *);
    int (*syevd_size)(handle_t, params_t, int, int, int64_t, int,
                      const void *, int64_t, int, const void *, int, size_t *,
                      size_t *);
    int (*syevd)(handle_t, params_t, int, int, int64_t, int, void *, int64_t,
                 int, void *, int, void *, size_t, void *, size_t, int *);
    int (*gesvd_size)(handle_t, params_t, signed char, signed char, int64_t,
                      int64_t, int, const void *, int64_t, int, const void *,
                      int, const void *, int64_t, int, const void *, int64_t,
                      int, size_t *, size_t *);
    int (*gesvd)(handle_t, params_t, signed char, signed char, int64_t,
                 int64_t, int, void *, int64_t, int, void *, int, void *,
                 int64_t, int, void *, int64_t, int, void *, size_t, void *,
                 size_t, int *);
    int (*geqrf_size)(handle_t, params_t, int64_t, int64_t, int, const void *,
                      int64_t, int, const void *, int, size_t *, size_t *);
    int (*geqrf)(handle_t, params_t, int64_t, int64_t, int, void *, int64_t,
                 int, void *, int, void *, size_t, void *, size_t, int *);
    /* geev: bound on its own (geev_status), as older cuSOLVERs lack it */
    int (*geev_size)(handle_t, params_t, int, int, int64_t, int, const void *,
                     int64_t, int, const void *, int, const void *, int64_t,
                     int, const void *, int64_t, int, size_t *, size_t *);
    int (*geev)(handle_t, params_t, int, int, int64_t, int, void *, int64_t,
                int, void *, int, void *, int64_t, int, void *, int64_t, int,
                void *, size_t, void *, size_t, int *);
    /* orgqr has only the typed, 32-bit API: s d c z (ungqr for complex) */
    int (*orgqr_size[4])(handle_t, int, int, int, const void *, int,
                         const void *, int *);
    int (*orgqr[4])(handle_t, int, int, int, void *, int, const void *, void *,
                    int, int *);
} cusolver_fns;

static cusolver_fns cu;

static const em_vendor_sym syms[] = {
    {"cusolverDnCreate", offsetof(cusolver_fns, create)},
    {"cusolverDnSetStream", offsetof(cusolver_fns, set_stream)},
    {"cusolverDnCreateParams", offsetof(cusolver_fns, create_params)},
    {"cusolverDnXgetrf_bufferSize", offsetof(cusolver_fns, getrf_size)},
    {"cusolverDnXgetrf", offsetof(cusolver_fns, getrf)},
    {"cusolverDnXgetrs", offsetof(cusolver_fns, getrs)},
    {"cusolverDnXpotrf_bufferSize", offsetof(cusolver_fns, potrf_size)},
    {"cusolverDnXpotrf", offsetof(cusolver_fns, potrf)},
    {"cusolverDnXsyevd_bufferSize", offsetof(cusolver_fns, syevd_size)},
    {"cusolverDnXsyevd", offsetof(cusolver_fns, syevd)},
    {"cusolverDnXgesvd_bufferSize", offsetof(cusolver_fns, gesvd_size)},
    {"cusolverDnXgesvd", offsetof(cusolver_fns, gesvd)},
    {"cusolverDnXgeqrf_bufferSize", offsetof(cusolver_fns, geqrf_size)},
    {"cusolverDnXgeqrf", offsetof(cusolver_fns, geqrf)},
    {"cusolverDnSorgqr_bufferSize", offsetof(cusolver_fns, orgqr_size[0])},
    {"cusolverDnDorgqr_bufferSize", offsetof(cusolver_fns, orgqr_size[1])},
    {"cusolverDnCungqr_bufferSize", offsetof(cusolver_fns, orgqr_size[2])},
    {"cusolverDnZungqr_bufferSize", offsetof(cusolver_fns, orgqr_size[3])},
    {"cusolverDnSorgqr", offsetof(cusolver_fns, orgqr[0])},
    {"cusolverDnDorgqr", offsetof(cusolver_fns, orgqr[1])},
    {"cusolverDnCungqr", offsetof(cusolver_fns, orgqr[2])},
    {"cusolverDnZungqr", offsetof(cusolver_fns, orgqr[3])},
};

static const em_vendor_sym geev_syms[] = {
    {"cusolverDnXgeev_bufferSize", offsetof(cusolver_fns, geev_size)},
    {"cusolverDnXgeev", offsetof(cusolver_fns, geev)},
};
static em_vendor_lazy lib = EM_VENDOR_LAZY(EM_VENDOR_CUSOLVER, syms, &cu),
                      geev = EM_VENDOR_LAZY(EM_VENDOR_CUSOLVER, geev_syms, &cu);

static em_status fail(int r, const char *what)
{
    /* cusolverStatus_t: 2 is CUSOLVER_STATUS_ALLOC_FAILED */
    return em_error_native(r == 2 ? EM_ERR_OUT_OF_MEMORY : EM_ERR_CUDA, r,
                           "cusolverStatus_t", "%s failed (cusolverStatus_t "
                           "%d)", what, r);
}

static em_status create(em_lib_handle *slot)
{
    int r;
    if ((r = cu.create(&slot->h)) != 0) {
        slot->h = NULL;
        return fail(r, "cusolverDnCreate");
    }
    /* the 64-bit API's options object, default ones */
    if ((r = cu.create_params(&slot->aux)) != 0)
        return fail(r, "cusolverDnCreateParams");
    return EM_OK;
}

static em_status bind(void *h, void *stream)
{
    int r = cu.set_stream(h, stream);
    return r == 0 ? EM_OK : fail(r, "cusolverDnSetStream");
}

static em_lib_handles handles = EM_LIB_HANDLES_INIT("cuSOLVER", create, bind);

/* One call in progress: the device's handle locked and bound to the
 * stream, the stack's geometry, and the workspaces. */
typedef struct call {
    em_lib_handle *dh;
    em_device *dev;
    em_stream *s;
    int type;           /* cudaDataType of the matrices */
    int64_t batch, esz; /* entries, element bytes */
    void *wdev, *whost;
    size_t ndev, nhost;
} call;

/* cuSOLVER takes LAPACK's four types only */
static int data_type(em_dtype t)
{
    const em_dtype_info *info = em_dtype_get(t);
    return info && info->blas >= 0 ? info->cuda_type : -1;
}

/* The real type of a's dtype (eigenvalues, singular values). */
static int real_type(int type)
{
    return type == C_32F ? R_32F : type == C_64F ? R_64F : type;
}

/* The C-contiguous array x on a's device with ndim - drop dimensions
 * whose leading ones are a's batch axes, and (when t >= 0) dtype t. */
static em_status check_part(const em_array *a, const em_array *x, int drop,
                            int t, const char *what, const char *name)
{
    if (!x)
        return em_error(EM_ERR_INVALID_VALUE, "%s: %s is NULL", what, name);
    if (x->device != a->device || !(x->flags & EM_ARRAY_C_CONTIGUOUS) ||
        !(x->flags & EM_ARRAY_WRITEABLE) || (t >= 0 && x->dtype != (em_dtype)t) ||
        x->ndim != a->ndim - drop)
        return em_error(EM_ERR_INVALID_VALUE, "%s: %s must be a writeable "
                        "C-contiguous %s array of %d dimensions on %s", what,
                        name, t >= 0 ? em_dtype_get((em_dtype)t)->name : "",
                        a->ndim - drop, em_device_name(a->device));
    for (int d = 0; d < a->ndim - 2; d++)
        if (x->shape[d] != a->shape[d])
            return em_error(EM_ERR_INVALID_VALUE, "%s: %s's batch axis %d has "
                            "%lld entries, the matrices' %lld", what, name, d,
                            (long long)x->shape[d], (long long)a->shape[d]);
    return EM_OK;
}

/* Checks a (the matrix stack) and info, takes the device's handle (the
 * lock held on success) on the current stream. */
static em_status begin(call *c, const em_array *a, const em_array *info,
                       const char *what)
{
    em_status st;
    memset(c, 0, sizeof *c);
    if (!a || !info)
        return em_error(EM_ERR_INVALID_VALUE, "%s: NULL array", what);
    if ((c->type = data_type(a->dtype)) < 0)
        return em_error(EM_ERR_TYPE, "%s: no cuSOLVER routine for %s", what,
                        em_dtype_get(a->dtype)->name);
    if (a->ndim < 2 || !(a->flags & EM_ARRAY_C_CONTIGUOUS) ||
        !(a->flags & EM_ARRAY_WRITEABLE))
        return em_error(EM_ERR_INVALID_VALUE, "%s: the matrices must be a "
                        "writeable C-contiguous array of 2 or more "
                        "dimensions", what);
    if ((st = check_part(a, info, 2, EM_INT32, what, "info")) != EM_OK)
        return st;
    if (em_device_get_type(a->device) != EM_DEVICE_CUDA)
        return em_error(EM_ERR_NOT_SUPPORTED, "%s runs on CUDA devices "
                        "(cuSOLVER), not %s", what, em_device_name(a->device));
    if ((st = em_vendor_ready(&lib)) != EM_OK)
        return st;
    c->dev = a->device;
    c->esz = (int64_t)em_dtype_size(a->dtype);
    c->batch = 1;
    for (int d = 0; d < a->ndim - 2; d++)
        c->batch *= a->shape[d];
    c->s = em_current_stream();
    if (!c->s || em_stream_device(c->s) != c->dev)
        c->s = em_stream_default(c->dev);
    return em_lib_handle_take(&handles, c->s, &c->dh);
}

/* The workspaces a bufferSize query asked for. */
static em_status workspace(call *c, size_t ndev, size_t nhost)
{
    em_status st;
    c->ndev = ndev;
    c->nhost = nhost;
    if ((st = em_malloc(c->dev, ndev ? ndev : 1, c->s, &c->wdev)) != EM_OK)
        return st;
    if (nhost && !(c->whost = malloc(nhost)))
        return em_error(EM_ERR_OUT_OF_MEMORY, "out of host memory for a "
                        "cuSOLVER workspace of %zu bytes", nhost);
    return EM_OK;
}

/* Releases the workspaces (the device one after the stream's work, as
 * the pool orders it) and the handle. A host workspace is read by the
 * queued calls only while they are made, so it goes at once. */
static em_status end(call *c, em_status st)
{
    if (c->wdev) {
        em_status f = em_free(c->dev, c->wdev, c->s);
        if (st == EM_OK)
            st = f;
    }
    free(c->whost);
    em_lib_handle_give(c->dh);
    return st;
}

#define AT(x, i, per) ((char *)(x)->data + (size_t)(i) * (size_t)(per))

em_status em_cusolver_getrf(em_array *a, em_array *ipiv, em_array *info)
{
    static const char what[] = "em_cusolver_getrf";
    call c;
    size_t nd = 0, nh = 0;
    int64_t m, n, k;
    int r;
    em_status st = begin(&c, a, info, what);
    if (st != EM_OK)
        return st;
    m = a->shape[a->ndim - 1]; /* column-major: rows are the last axis */
    n = a->shape[a->ndim - 2];
    k = m < n ? m : n;
    if ((st = check_part(a, ipiv, 1, EM_INT64, what, "ipiv")) == EM_OK &&
        ipiv->shape[ipiv->ndim - 1] != k)
        st = em_error(EM_ERR_INVALID_VALUE, "%s: ipiv's last axis has %lld "
                      "entries, not %lld", what,
                      (long long)ipiv->shape[ipiv->ndim - 1], (long long)k);
    if (st != EM_OK || c.batch == 0 || k == 0)
        return end(&c, st);
    if ((r = cu.getrf_size(c.dh->h, c.dh->aux, m, n, c.type, a->data, m, c.type,
                           &nd, &nh)) != 0)
        return end(&c, fail(r, "cusolverDnXgetrf_bufferSize"));
    if ((st = workspace(&c, nd, nh)) != EM_OK)
        return end(&c, st);
    for (int64_t i = 0; i < c.batch && st == EM_OK; i++)
        if ((r = cu.getrf(c.dh->h, c.dh->aux, m, n, c.type, AT(a, i, m * n * c.esz),
                          m, (int64_t *)(void *)AT(ipiv, i, k * 8), c.type,
                          c.wdev, nd, c.whost, nh,
                          (int *)(void *)AT(info, i, 4))) != 0)
            st = fail(r, "cusolverDnXgetrf");
    return end(&c, st);
}

em_status em_cusolver_getrs(const em_array *lu, const em_array *ipiv,
                            em_array *b, int trans, em_array *info)
{
    static const char what[] = "em_cusolver_getrs";
    call c;
    int64_t n, nrhs;
    int r;
    em_status st = begin(&c, b, info, what);
    if (st != EM_OK)
        return st;
    if (!lu || !ipiv || trans < 0 || trans > 2) {
        st = em_error(EM_ERR_INVALID_VALUE, "%s: lu and ipiv are needed, "
                      "trans is 0, 1 or 2", what);
        return end(&c, st);
    }
    n = b->shape[b->ndim - 1];
    nrhs = b->shape[b->ndim - 2];
    if ((st = check_part(b, lu, 0, (int)b->dtype, what, "lu")) != EM_OK ||
        (st = check_part(b, ipiv, 1, EM_INT64, what, "ipiv")) != EM_OK)
        return end(&c, st);
    if (lu->shape[lu->ndim - 1] != n || lu->shape[lu->ndim - 2] != n ||
        ipiv->shape[ipiv->ndim - 1] != n)
        return end(&c, em_error(EM_ERR_INVALID_VALUE, "%s: lu must be %lld x "
                                "%lld and ipiv %lld long, as b's columns",
                                what, (long long)n, (long long)n,
                                (long long)n));
    if (c.batch == 0 || n == 0 || nrhs == 0)
        return end(&c, EM_OK);
    for (int64_t i = 0; i < c.batch && st == EM_OK; i++)
        if ((r = cu.getrs(c.dh->h, c.dh->aux, trans, n, nrhs, c.type,
                          AT(lu, i, n * n * c.esz), n,
                          (const int64_t *)(const void *)AT(ipiv, i, n * 8),
                          c.type, AT(b, i, n * nrhs * c.esz), n,
                          (int *)(void *)AT(info, i, 4))) != 0)
            st = fail(r, "cusolverDnXgetrs");
    return end(&c, st);
}

em_status em_cusolver_potrf(em_array *a, int lower, em_array *info)
{
    static const char what[] = "em_cusolver_potrf";
    call c;
    size_t nd = 0, nh = 0;
    int64_t n;
    int r, uplo = lower ? 0 : 1; /* cublasFillMode_t: LOWER 0, UPPER 1 */
    em_status st = begin(&c, a, info, what);
    if (st != EM_OK)
        return st;
    n = a->shape[a->ndim - 1];
    if (a->shape[a->ndim - 2] != n)
        return end(&c, em_error(EM_ERR_INVALID_VALUE, "%s: the matrices are "
                                "not square", what));
    if (c.batch == 0 || n == 0)
        return end(&c, EM_OK);
    if ((r = cu.potrf_size(c.dh->h, c.dh->aux, uplo, n, c.type, a->data, n,
                           c.type, &nd, &nh)) != 0)
        return end(&c, fail(r, "cusolverDnXpotrf_bufferSize"));
    if ((st = workspace(&c, nd, nh)) != EM_OK)
        return end(&c, st);
    for (int64_t i = 0; i < c.batch && st == EM_OK; i++)
        if ((r = cu.potrf(c.dh->h, c.dh->aux, uplo, n, c.type,
                          AT(a, i, n * n * c.esz), n, c.type, c.wdev, nd,
                          c.whost, nh, (int *)(void *)AT(info, i, 4))) != 0)
            st = fail(r, "cusolverDnXpotrf");
    return end(&c, st);
}

em_status em_cusolver_syevd(em_array *a, em_array *w, int lower, int vectors,
                            em_array *info)
{
    static const char what[] = "em_cusolver_syevd";
    call c;
    size_t nd = 0, nh = 0;
    int64_t n;
    int r, uplo = lower ? 0 : 1, rt;
    em_status st = begin(&c, a, info, what);
    if (st != EM_OK)
        return st;
    n = a->shape[a->ndim - 1];
    rt = real_type(c.type);
    if (a->shape[a->ndim - 2] != n)
        return end(&c, em_error(EM_ERR_INVALID_VALUE, "%s: the matrices are "
                                "not square", what));
    if ((st = check_part(a, w, 1, rt == R_32F ? EM_FLOAT32 : EM_FLOAT64, what,
                         "w")) != EM_OK)
        return end(&c, st);
    if (c.batch == 0 || n == 0)
        return end(&c, EM_OK);
    if ((r = cu.syevd_size(c.dh->h, c.dh->aux, vectors != 0, uplo, n, c.type,
                           a->data, n, rt, w->data, c.type, &nd, &nh)) != 0)
        return end(&c, fail(r, "cusolverDnXsyevd_bufferSize"));
    if ((st = workspace(&c, nd, nh)) != EM_OK)
        return end(&c, st);
    for (int64_t i = 0; i < c.batch && st == EM_OK; i++)
        if ((r = cu.syevd(c.dh->h, c.dh->aux, vectors != 0, uplo, n, c.type,
                          AT(a, i, n * n * c.esz), n, rt,
                          AT(w, i, n * (c.esz / (rt == c.type ? 1 : 2))),
                          c.type, c.wdev, nd, c.whost, nh,
                          (int *)(void *)AT(info, i, 4))) != 0)
            st = fail(r, "cusolverDnXsyevd");
    return end(&c, st);
}

em_status em_cusolver_geev(em_array *a, em_array *w, em_array *vr,
                           em_array *info)
{
    static const char what[] = "em_cusolver_geev";
    call c;
    size_t nd = 0, nh = 0;
    int64_t n, wper;
    int r, cplx, jobvr = vr != NULL; /* cusolverEigMode_t: NOVECTOR 0, VECTOR 1 */
    em_status st = begin(&c, a, info, what);
    if (st != EM_OK)
        return st;
    if (em_vendor_ready(&geev) != EM_OK)
        return end(&c, em_error(EM_ERR_NOT_SUPPORTED, "%s: this cuSOLVER has "
                                "no geev (cuSOLVER 11.7, CUDA 12.6, added "
                                "it): %s", what, geev.why));
    n = a->shape[a->ndim - 1];
    cplx = real_type(c.type) != c.type;
    wper = cplx ? n : 2 * n; /* real a: the real parts, then the imaginary */
    if (a->shape[a->ndim - 2] != n)
        return end(&c, em_error(EM_ERR_INVALID_VALUE, "%s: the matrices are "
                                "not square", what));
    if ((st = check_part(a, w, 1, (int)a->dtype, what, "w")) != EM_OK ||
        (vr && (st = check_part(a, vr, 0, (int)a->dtype, what, "vr")) != EM_OK))
        return end(&c, st);
    if (w->shape[w->ndim - 1] != wper ||
        (vr && (vr->shape[vr->ndim - 1] != n || vr->shape[vr->ndim - 2] != n)))
        return end(&c, em_error(EM_ERR_INVALID_VALUE, "%s: w must hold %lld "
                                "values and vr be %lld x %lld a matrix", what,
                                (long long)wper, (long long)n, (long long)n));
    if (c.batch == 0 || n == 0)
        return end(&c, EM_OK);
    if ((r = cu.geev_size(c.dh->h, c.dh->aux, 0, jobvr, n, c.type, a->data, n,
                          c.type, w->data, c.type, NULL, 1, c.type,
                          vr ? vr->data : NULL, n, c.type, &nd, &nh)) != 0)
        return end(&c, fail(r, "cusolverDnXgeev_bufferSize"));
    if ((st = workspace(&c, nd, nh)) != EM_OK)
        return end(&c, st);
    for (int64_t i = 0; i < c.batch && st == EM_OK; i++)
        if ((r = cu.geev(c.dh->h, c.dh->aux, 0, jobvr, n, c.type,
                         AT(a, i, n * n * c.esz), n, c.type,
                         AT(w, i, wper * c.esz), c.type, NULL, 1, c.type,
                         vr ? AT(vr, i, n * n * c.esz) : NULL, n, c.type,
                         c.wdev, nd, c.whost, nh,
                         (int *)(void *)AT(info, i, 4))) != 0)
            st = fail(r, "cusolverDnXgeev");
    return end(&c, st);
}

em_status em_cusolver_gesvd(em_array *a, em_array *s, em_array *u,
                            em_array *vt, int full, em_array *info)
{
    static const char what[] = "em_cusolver_gesvd";
    call c;
    size_t nd = 0, nh = 0;
    int64_t m, n, k;
    int r, rt;
    signed char job;
    em_status st = begin(&c, a, info, what);
    if (st != EM_OK)
        return st;
    m = a->shape[a->ndim - 1]; /* column-major: rows are the last axis */
    n = a->shape[a->ndim - 2];
    k = full ? m : n;
    rt = real_type(c.type);
    job = !u ? 'N' : full ? 'A' : 'S';
    if (m < n)
        return end(&c, em_error(EM_ERR_INVALID_VALUE, "%s: %lld x %lld: "
                                "cuSOLVER's gesvd needs at least as many rows "
                                "as columns", what, (long long)m,
                                (long long)n));
    if ((!u) != (!vt))
        return end(&c, em_error(EM_ERR_INVALID_VALUE, "%s: u and vt go "
                                "together", what));
    if ((st = check_part(a, s, 1, rt == R_32F ? EM_FLOAT32 : EM_FLOAT64, what,
                         "s")) != EM_OK ||
        (u && (st = check_part(a, u, 0, (int)a->dtype, what, "u")) != EM_OK) ||
        (vt && (st = check_part(a, vt, 0, (int)a->dtype, what, "vt")) != EM_OK))
        return end(&c, st);
    if (s->shape[s->ndim - 1] != n ||
        (u && (u->shape[u->ndim - 1] != m || u->shape[u->ndim - 2] != k)) ||
        (vt && (vt->shape[vt->ndim - 1] != n || vt->shape[vt->ndim - 2] != n)))
        return end(&c, em_error(EM_ERR_INVALID_VALUE, "%s: s must hold %lld "
                                "values, u %lld x %lld and vt %lld x %lld "
                                "(column-major)", what, (long long)n,
                                (long long)m, (long long)k, (long long)n,
                                (long long)n));
    if (c.batch == 0 || n == 0)
        return end(&c, EM_OK);
    if ((r = cu.gesvd_size(c.dh->h, c.dh->aux, job, job, m, n, c.type, a->data,
                           m, rt, s->data, c.type, u ? u->data : NULL, m,
                           c.type, vt ? vt->data : NULL, n, c.type, &nd,
                           &nh)) != 0)
        return end(&c, fail(r, "cusolverDnXgesvd_bufferSize"));
    if ((st = workspace(&c, nd, nh)) != EM_OK)
        return end(&c, st);
    for (int64_t i = 0; i < c.batch && st == EM_OK; i++)
        if ((r = cu.gesvd(c.dh->h, c.dh->aux, job, job, m, n, c.type,
                          AT(a, i, m * n * c.esz), m, rt,
                          AT(s, i, n * (c.esz / (rt == c.type ? 1 : 2))),
                          c.type, u ? AT(u, i, m * k * c.esz) : NULL, m,
                          c.type, vt ? AT(vt, i, n * n * c.esz) : NULL, n,
                          c.type, c.wdev, nd, c.whost, nh,
                          (int *)(void *)AT(info, i, 4))) != 0)
            st = fail(r, "cusolverDnXgesvd");
    return end(&c, st);
}

em_status em_cusolver_geqrf(em_array *a, em_array *tau, em_array *info)
{
    static const char what[] = "em_cusolver_geqrf";
    call c;
    size_t nd = 0, nh = 0;
    int64_t m, n, k;
    int r;
    em_status st = begin(&c, a, info, what);
    if (st != EM_OK)
        return st;
    m = a->shape[a->ndim - 1];
    n = a->shape[a->ndim - 2];
    k = m < n ? m : n;
    if ((st = check_part(a, tau, 1, (int)a->dtype, what, "tau")) != EM_OK)
        return end(&c, st);
    if (tau->shape[tau->ndim - 1] != k)
        return end(&c, em_error(EM_ERR_INVALID_VALUE, "%s: tau must hold %lld "
                                "scales", what, (long long)k));
    if (c.batch == 0 || k == 0)
        return end(&c, EM_OK);
    if ((r = cu.geqrf_size(c.dh->h, c.dh->aux, m, n, c.type, a->data, m, c.type,
                           tau->data, c.type, &nd, &nh)) != 0)
        return end(&c, fail(r, "cusolverDnXgeqrf_bufferSize"));
    if ((st = workspace(&c, nd, nh)) != EM_OK)
        return end(&c, st);
    for (int64_t i = 0; i < c.batch && st == EM_OK; i++)
        if ((r = cu.geqrf(c.dh->h, c.dh->aux, m, n, c.type,
                          AT(a, i, m * n * c.esz), m, c.type,
                          AT(tau, i, k * c.esz), c.type, c.wdev, nd, c.whost,
                          nh, (int *)(void *)AT(info, i, 4))) != 0)
            st = fail(r, "cusolverDnXgeqrf");
    return end(&c, st);
}

em_status em_cusolver_orgqr(em_array *a, const em_array *tau, em_array *info)
{
    static const char what[] = "em_cusolver_orgqr";
    call c;
    int64_t m, n, k;
    int r, lwork = 0, ti;
    em_status st = begin(&c, a, info, what);
    if (st != EM_OK)
        return st;
    m = a->shape[a->ndim - 1];
    n = a->shape[a->ndim - 2];
    ti = em_dtype_get(a->dtype)->blas;
    if ((st = check_part(a, tau, 1, (int)a->dtype, what, "tau")) != EM_OK)
        return end(&c, st);
    k = tau->shape[tau->ndim - 1];
    if (!(m >= n && n >= k) || m > INT32_MAX)
        return end(&c, em_error(EM_ERR_INVALID_VALUE, "%s: %lld x %lld from "
                                "%lld reflectors: orgqr needs m >= n >= k "
                                "and 32-bit sizes", what, (long long)m,
                                (long long)n, (long long)k));
    if (c.batch == 0 || n == 0)
        return end(&c, EM_OK);
    if ((r = cu.orgqr_size[ti](c.dh->h, (int)m, (int)n, (int)k, a->data,
                               (int)m, tau->data, &lwork)) != 0)
        return end(&c, fail(r, "cusolverDn?orgqr_bufferSize"));
    if ((st = workspace(&c, (size_t)lwork * (size_t)c.esz, 0)) != EM_OK)
        return end(&c, st);
    for (int64_t i = 0; i < c.batch && st == EM_OK; i++)
        if ((r = cu.orgqr[ti](c.dh->h, (int)m, (int)n, (int)k,
                              AT(a, i, m * n * c.esz), (int)m,
                              AT(tau, i, k * c.esz), c.wdev, lwork,
                              (int *)(void *)AT(info, i, 4))) != 0)
            st = fail(r, "cusolverDn?orgqr");
    return end(&c, st);
}
