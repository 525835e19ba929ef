/* ember math: dense linear algebra on the cpu device through OpenBLAS's
 * LAPACK (include/ember/lapack.h). The library is the scipy-openblas64
 * wheel's, opened at run time: 64-bit integers, symbols named
 * scipy_<routine>_64_. One entry per family: check the operands, make
 * the results, then for each matrix of the batch copy it into a
 * workspace, call LAPACK and check its info. */
#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ember/lapack.h"

typedef int64_t lint; /* LAPACK's INTEGER in the ILP64 build */

/* ---- the routines, resolved once ------------------------------------- */

/* s d c z variants of each routine, in this order. Complex and real
 * signatures differ for some (rwork); each call site casts to the one it
 * uses. Character arguments get Fortran's hidden lengths at the end. */
enum {
    R_GESV, R_GETRF, R_POTRF, R_GEQRF, R_ORGQR, R_SYEVD, R_GEEV,
    R_GESDD, R_GELSD, R_GETRS, R_GEES, R_TRSEN, R_GEHRD, R_ORGHR, R_GGES,
    R_TGSEN, R_SYTRF, R_HETRF, R_TRSYL, R_GEBAL, R_COUNT
};
static const char *const rnames[R_COUNT][4] = {
    [R_GESV] = {"sgesv", "dgesv", "cgesv", "zgesv"},
    [R_GETRF] = {"sgetrf", "dgetrf", "cgetrf", "zgetrf"},
    [R_POTRF] = {"spotrf", "dpotrf", "cpotrf", "zpotrf"},
    [R_GEQRF] = {"sgeqrf", "dgeqrf", "cgeqrf", "zgeqrf"},
    [R_ORGQR] = {"sorgqr", "dorgqr", "cungqr", "zungqr"},
    [R_SYEVD] = {"ssyevd", "dsyevd", "cheevd", "zheevd"},
    [R_GEEV] = {"sgeev", "dgeev", "cgeev", "zgeev"},
    [R_GESDD] = {"sgesdd", "dgesdd", "cgesdd", "zgesdd"},
    [R_GELSD] = {"sgelsd", "dgelsd", "cgelsd", "zgelsd"},
    [R_GETRS] = {"sgetrs", "dgetrs", "cgetrs", "zgetrs"},
    [R_GEES] = {"sgees", "dgees", "cgees", "zgees"},
    [R_TRSEN] = {"strsen", "dtrsen", "ctrsen", "ztrsen"},
    [R_GEHRD] = {"sgehrd", "dgehrd", "cgehrd", "zgehrd"},
    [R_ORGHR] = {"sorghr", "dorghr", "cunghr", "zunghr"},
    [R_GGES] = {"sgges", "dgges", "cgges", "zgges"},
    [R_TGSEN] = {"stgsen", "dtgsen", "ctgsen", "ztgsen"},
    [R_SYTRF] = {"ssytrf", "dsytrf", "csytrf", "zsytrf"},
    /* real symmetric is Hermitian: hetrf's real slots are sytrf */
    [R_HETRF] = {"ssytrf", "dsytrf", "chetrf", "zhetrf"},
    [R_TRSYL] = {"strsyl", "dtrsyl", "ctrsyl", "ztrsyl"},
    [R_GEBAL] = {"sgebal", "dgebal", "cgebal", "zgebal"},
};

typedef void (*lfn)(void);
static pthread_once_t once = PTHREAD_ONCE_INIT;
static em_status load_status;
static char load_why[1200];
static lfn fns[R_COUNT][4];

static void load(void)
{
    void *h;
    if (em_vendor_open(EM_VENDOR_OPENBLAS, &h) != EM_OK) {
        load_status = EM_ERR_UNAVAILABLE;
        snprintf(load_why, sizeof load_why, "%s", em_last_error());
        return;
    }
    for (int r = 0; r < R_COUNT; r++)
        for (int t = 0; t < 4; t++) {
            char sym[64];
            snprintf(sym, sizeof sym, "scipy_%s_64_", rnames[r][t]);
            *(void **)&fns[r][t] = dlsym(h, sym);
            if (!fns[r][t]) {
                load_status = EM_ERR_UNAVAILABLE;
                snprintf(load_why, sizeof load_why, "OpenBLAS at %s has no %s: "
                         "`pip install -U scipy-openblas64`",
                         em_vendor_path(EM_VENDOR_OPENBLAS), sym);
                return;
            }
        }
}

static em_status ready(void)
{
    pthread_once(&once, load);
    return load_status == EM_OK ? EM_OK : em_error(load_status, "%s", load_why);
}

/* ---- dtypes ------------------------------------------------------------ */

/* 0..3 for s d c z, -1 for a dtype LAPACK does not take */
static int tix(em_dtype d)
{
    const em_dtype_info *info = em_dtype_get(d);
    return info ? info->blas : -1;
}
static const em_dtype t_dtype[4] = {EM_FLOAT32, EM_FLOAT64, EM_COMPLEX64,
                                    EM_COMPLEX128};
static const em_dtype t_real[4] = {EM_FLOAT32, EM_FLOAT64, EM_FLOAT32,
                                   EM_FLOAT64};
static const em_dtype t_cplx[4] = {EM_COMPLEX64, EM_COMPLEX128, EM_COMPLEX64,
                                   EM_COMPLEX128};
static const size_t t_size[4] = {4, 8, 8, 16};
#define CPLX(t) ((t) >= 2)
#define DBL(t) ((t) & 1)

/* element i of a t-typed buffer as double (real part and imaginary part) */
static void get(int t, const char *p, int64_t i, double *re, double *im)
{
    switch (t) {
    case 0: *re = ((const float *)p)[i]; *im = 0; break;
    case 1: *re = ((const double *)p)[i]; *im = 0; break;
    case 2: *re = ((const float *)p)[2 * i]; *im = ((const float *)p)[2 * i + 1]; break;
    default: *re = ((const double *)p)[2 * i]; *im = ((const double *)p)[2 * i + 1];
    }
}
static void put(int t, char *p, int64_t i, double re, double im)
{
    switch (t) {
    case 0: ((float *)p)[i] = (float)re; break;
    case 1: ((double *)p)[i] = re; break;
    case 2: ((float *)p)[2 * i] = (float)re; ((float *)p)[2 * i + 1] = (float)im; break;
    default: ((double *)p)[2 * i] = re; ((double *)p)[2 * i + 1] = im;
    }
}
/* a real value into the real dtype of t */
static void put_real(int t, char *p, int64_t i, double v)
{
    if (DBL(t))
        ((double *)p)[i] = v;
    else
        ((float *)p)[i] = (float)v;
}
static double get_real(int t, const char *p, int64_t i)
{
    return DBL(t) ? ((const double *)p)[i] : ((const float *)p)[i];
}

/* ---- layouts ----------------------------------------------------------- */

static inline void copy_elem(char *d, const char *s, size_t es)
{
    switch (es) { /* fixed sizes, so each memcpy is one load and store */
    case 4: memcpy(d, s, 4); break;
    case 8: memcpy(d, s, 8); break;
    case 16: memcpy(d, s, 16); break;
    default: memcpy(d, s, es);
    }
}

/* Copy an m x n matrix between byte-strided layouts, in 32 x 32 tiles: a
 * transposing copy element by element wrote one page an element (C order
 * to Fortran's), and that copy, not LAPACK, made solve of 1024^2 float64
 * on 16 cores take 1.7x NumPy's time. */
#define MAT_TILE 32
static void mat_copy(char *dst, int64_t drs, int64_t dcs, const char *src,
                     int64_t srs, int64_t scs, int64_t m, int64_t n, size_t es)
{
    for (int64_t i0 = 0; i0 < m; i0 += MAT_TILE)
        for (int64_t j0 = 0; j0 < n; j0 += MAT_TILE) {
            int64_t i1 = i0 + MAT_TILE < m ? i0 + MAT_TILE : m;
            int64_t j1 = j0 + MAT_TILE < n ? j0 + MAT_TILE : n;
            for (int64_t i = i0; i < i1; i++)
                for (int64_t j = j0; j < j1; j++)
                    copy_elem(dst + i * drs + j * dcs, src + i * srs + j * scs, es);
        }
}

/* Matrix i of the batch of x (its leading nb axes, C order). */
static const char *mat_at(const em_array *x, int nb, int64_t i)
{
    const char *p = x->data;
    for (int d = nb - 1; d >= 0; d--) {
        int64_t e = x->shape[d];
        p += (i % e) * x->strides[d];
        i /= e;
    }
    return p;
}

/* What one call works on: a's type, batch and core shape. */
typedef struct job {
    const char *name;
    int t, nb;
    int64_t batch, m, n;
    const int64_t *bshape;
    em_device *dev;
    void *ws[8]; /* workspaces, freed by finish() */
    int nws;
} job;

static em_status start(job *j, const char *name, const em_array *a, int square)
{
    em_stream *s;
    em_status rc;
    j->nws = 0;
    if (!a || !a->storage)
        return em_error(EM_ERR_INVALID_VALUE, "%s: no array", name);
    j->name = name;
    if (em_device_get_type(a->device) != EM_DEVICE_CPU)
        return em_error(EM_ERR_NOT_SUPPORTED, "%s on %s needs cuSOLVER, not "
                        "wired yet", name, em_device_name(a->device));
    if (a->ndim < 2)
        return em_error(EM_ERR_LINALG, "%d-dimensional array given. Array must "
                        "be at least two-dimensional", a->ndim);
    if ((j->t = tix(a->dtype)) < 0)
        return em_error(EM_ERR_TYPE, "%s: array type %s is unsupported in "
                        "linalg", name, em_dtype_get(a->dtype)->name);
    j->nb = a->ndim - 2;
    j->bshape = a->shape;
    j->m = a->shape[a->ndim - 2];
    j->n = a->shape[a->ndim - 1];
    if (square && j->m != j->n)
        return em_error(EM_ERR_LINALG, "Last 2 dimensions of the array must be "
                        "square");
    j->batch = 1;
    for (int d = 0; d < j->nb; d++)
        j->batch *= a->shape[d];
    j->dev = a->device;
    if ((rc = ready()) != EM_OK)
        return rc;
    /* LAPACK reads host memory now: work queued on the current stream
     * (a created host stream runs on its own thread; the default one
     * waits for the blocking streams) must be done. */
    s = em_current_stream();
    if (!s || em_stream_device(s) != a->device)
        s = em_stream_default(a->device);
    if ((rc = em_stream_synchronize(s)) != EM_OK)
        return rc;
    return EM_OK;
}

/* A second operand: same device, dtype and batch shape as a. */
static em_status check_b(const job *j, const em_array *b)
{
    if (!b || !b->storage)
        return em_error(EM_ERR_INVALID_VALUE, "%s: no second array", j->name);
    if (b->device != j->dev)
        return em_error(EM_ERR_INVALID_VALUE, "%s: operands on %s and %s",
                        j->name, em_device_name(j->dev), em_device_name(b->device));
    if (tix(b->dtype) != j->t)
        return em_error(EM_ERR_TYPE, "%s: operands of dtypes %s and %s", j->name,
                        em_dtype_get(t_dtype[j->t])->name,
                        em_dtype_get(b->dtype)->name);
    if (b->ndim != j->nb + 2)
        return em_error(EM_ERR_INVALID_VALUE, "%s: b has %d dimensions, a %d",
                        j->name, b->ndim, j->nb + 2);
    for (int d = 0; d < j->nb; d++)
        if (b->shape[d] != j->bshape[d])
            return em_error(EM_ERR_INVALID_VALUE, "%s: batch axis %d has %lld "
                            "in a and %lld in b", j->name, d,
                            (long long)j->bshape[d], (long long)b->shape[d]);
    if (b->shape[j->nb] != j->m)
        return em_error(EM_ERR_INVALID_VALUE, "%s: a has %lld rows and b %lld",
                        j->name, (long long)j->m, (long long)b->shape[j->nb]);
    return EM_OK;
}

/* A result: the batch shape then up to two core axes (-1: none). */
static em_status make(const job *j, em_array *out, em_dtype dt, int64_t d1,
                      int64_t d2)
{
    int64_t shape[EM_MAX_NDIM];
    int nd = j->nb;
    memcpy(shape, j->bshape, sizeof(int64_t) * (size_t)j->nb);
    if (d1 >= 0)
        shape[nd++] = d1;
    if (d2 >= 0)
        shape[nd++] = d2;
    return em_array_empty(j->dev, dt, nd, shape, 'C', NULL, out);
}

/* Byte size of one matrix of a result, or of a workspace (checked). */
static em_status wsize(const job *j, int64_t n, size_t es, size_t *out)
{
    if (n < 0 || (uint64_t)n > (SIZE_MAX - 64) / es)
        return em_error(EM_ERR_OVERFLOW, "%s: a workspace of %lld elements",
                        j->name, (long long)n);
    *out = (size_t)n * es;
    return EM_OK;
}

static em_status walloc(job *j, void **p, int64_t n, size_t es)
{
    size_t nbytes = 0;
    em_status rc = wsize(j, n < 1 ? 1 : n, es, &nbytes);
    if (rc != EM_OK)
        return rc;
    if (j->nws == (int)(sizeof j->ws / sizeof j->ws[0]))
        return em_error(EM_ERR_INTERNAL, "%s: more than %d workspaces", j->name,
                        j->nws);
    if (!(*p = calloc(1, nbytes)))
        return em_error(EM_ERR_OUT_OF_MEMORY, "%s: out of host memory for a "
                        "workspace of %zu bytes", j->name, nbytes);
    j->ws[j->nws++] = *p;
    return EM_OK;
}

static em_status bad_arg(const job *j, const char *routine, lint info)
{
    return em_error(EM_ERR_INTERNAL, "%s: LAPACK %s rejected argument %lld",
                    j->name, routine, (long long)-info);
}

/* A routine's info as a status: positive is the math failing (NumPy's
 * LinAlgError message), negative is ember passing a bad argument. */
static em_status check_info(const job *j, const char *routine, lint info,
                            const char *failed)
{
    if (info > 0)
        return em_error(EM_ERR_LINALG, "%s", failed);
    if (info < 0)
        return bad_arg(j, routine, info);
    return EM_OK;
}

/* A workspace size from a query's first element (a real or complex). */
static lint query_len(int t, const void *w)
{
    double re, im;
    get(t, w, 0, &re, &im);
    return (lint)re > 1 ? (lint)re : 1;
}

#define MAX1(x) ((x) > 1 ? (x) : 1)

/* Copy matrix i of a (m x n, any strides) into a Fortran buffer of
 * leading dimension ld. */
static void to_fortran(const job *j, const em_array *a, int64_t i, char *buf,
                       lint ld)
{
    size_t es = t_size[j->t];
    const char *src = mat_at(a, j->nb, i);
    int64_t m = a->shape[a->ndim - 2], n = a->shape[a->ndim - 1];
    mat_copy(buf, (int64_t)es, ld * (int64_t)es, src, a->strides[a->ndim - 2],
             a->strides[a->ndim - 1], m, n, es);
}

/* Copy the leading m x n of a Fortran buffer into a C-ordered matrix. */
static void from_fortran(const job *j, char *dst, const char *buf, lint ld,
                         int64_t m, int64_t n)
{
    size_t es = t_size[j->t];
    mat_copy(dst, n * (int64_t)es, (int64_t)es, buf, (int64_t)es,
             ld * (int64_t)es, m, n, es);
}

/* The identity into a C-ordered n x n matrix of type t. */
static void eye(int t, char *o, int64_t n)
{
    memset(o, 0, (size_t)(n * n) * t_size[t]);
    for (int64_t d = 0; d < n; d++)
        put(t, o, d * n + d, 1, 0);
}

/* The workspaces go; on failure so do the outputs made so far (NULL: an
 * output not asked for); rc passes through. */
static em_status finish(job *j, em_status rc, em_array *a, em_array *b,
                        em_array *c, em_array *d)
{
    em_array *o[4] = {a, b, c, d};
    for (int k = 0; k < j->nws; k++)
        free(j->ws[k]);
    j->nws = 0;
    if (rc != EM_OK)
        for (int k = 0; k < 4; k++)
            if (o[k])
                em_array_release(o[k]);
    return rc;
}

/* ---- solve ------------------------------------------------------------- */

typedef void (*gesv_fn)(lint *, lint *, void *, lint *, lint *, void *,
                        lint *, lint *);

em_status em_linalg_solve(const em_array *a, const em_array *b, em_array *x)
{
    job j;
    em_status rc;
    void *wa = NULL, *wb = NULL, *piv = NULL;
    lint n, k, info = 0;
    size_t es;
    if ((rc = start(&j, "solve", a, 1)) != EM_OK || (rc = check_b(&j, b)) != EM_OK)
        return rc;
    n = j.n;
    k = b->shape[b->ndim - 1];
    es = t_size[j.t];
    if ((rc = make(&j, x, b->dtype, n, k)) != EM_OK)
        return rc;
    if (j.batch == 0 || n == 0)
        return EM_OK;
    if ((rc = walloc(&j, &wa, n * n, es)) != EM_OK ||
        (rc = walloc(&j, &wb, n * k, es)) != EM_OK ||
        (rc = walloc(&j, &piv, n, sizeof(lint))) != EM_OK)
        goto done;
    for (int64_t i = 0; i < j.batch; i++) {
        lint ld = n;
        to_fortran(&j, a, i, wa, n);
        to_fortran(&j, b, i, wb, n);
        ((gesv_fn)fns[R_GESV][j.t])(&n, &k, wa, &ld, piv, wb, &ld, &info);
        if ((rc = check_info(&j, "gesv", info, "Singular matrix")) != EM_OK)
            goto done;
        from_fortran(&j, x->data + i * n * k * (int64_t)es, wb, n, n, k);
    }
done:
    return finish(&j, rc, x, NULL, NULL, NULL);
}

/* ---- inv, det ---------------------------------------------------------- */

typedef void (*getrf_fn)(lint *, lint *, void *, lint *, lint *, lint *);

em_status em_linalg_inv(const em_array *a, em_array *out)
{
    job j;
    em_status rc;
    void *wa = NULL, *piv = NULL;
    lint n, info = 0;
    size_t es;
    if ((rc = start(&j, "inv", a, 1)) != EM_OK)
        return rc;
    n = j.n;
    es = t_size[j.t];
    if ((rc = make(&j, out, a->dtype, n, n)) != EM_OK)
        return rc;
    if (j.batch == 0 || n == 0)
        return EM_OK;
    if ((rc = walloc(&j, &wa, n * n, es)) != EM_OK ||
        (rc = walloc(&j, &piv, n, sizeof(lint))) != EM_OK)
        goto done;
    for (int64_t i = 0; i < j.batch; i++) {
        /* gesv against the identity, as NumPy (OpenBLAS's getri is the
         * slower way). a copied in C order is a^T to Fortran, and the
         * solution inv(a^T) = inv(a)^T read in C order is inv(a): the
         * result is the right-hand side, with no transposes. */
        char *o = out->data + i * n * n * (int64_t)es;
        mat_copy(wa, n * (int64_t)es, (int64_t)es, mat_at(a, j.nb, i),
                 a->strides[j.nb], a->strides[j.nb + 1], n, n, es);
        eye(j.t, o, n);
        ((gesv_fn)fns[R_GESV][j.t])(&n, &n, wa, &n, piv, o, &n, &info);
        if ((rc = check_info(&j, "gesv", info, "Singular matrix")) != EM_OK)
            goto done;
    }
done:
    return finish(&j, rc, out, NULL, NULL, NULL);
}

em_status em_linalg_det(const em_array *a, em_array *det, em_array *sign,
                        em_array *logabs)
{
    job j;
    em_status rc;
    void *wa = NULL, *piv = NULL;
    lint n, info = 0;
    if ((rc = start(&j, "det", a, 1)) != EM_OK)
        return rc;
    n = j.n;
    if ((det && (rc = make(&j, det, a->dtype, -1, -1)) != EM_OK) ||
        (sign && (rc = make(&j, sign, a->dtype, -1, -1)) != EM_OK) ||
        (logabs && (rc = make(&j, logabs, t_real[j.t], -1, -1)) != EM_OK))
        goto done;
    if (j.batch == 0)
        goto done;
    if ((rc = walloc(&j, &wa, n * n, t_size[j.t])) != EM_OK ||
        (rc = walloc(&j, &piv, n, sizeof(lint))) != EM_OK)
        goto done;
    for (int64_t i = 0; i < j.batch; i++) {
        double sr = 1, si = 0, la = 0;
        if (n > 0) {
            to_fortran(&j, a, i, wa, n);
            ((getrf_fn)fns[R_GETRF][j.t])(&n, &n, wa, &n, piv, &info);
            if (info < 0) {
                rc = bad_arg(&j, "getrf", info);
                goto done;
            }
        }
        if (n > 0 && info > 0) {
            sr = 0;
            la = -INFINITY;
        } else
            for (lint d = 0; d < n; d++) {
                double re, im, ab, ur, ui, t;
                get(j.t, wa, d * n + d, &re, &im);
                if (((lint *)piv)[d] != d + 1) {
                    sr = -sr;
                    si = -si;
                }
                ab = CPLX(j.t) ? hypot(re, im) : fabs(re);
                ur = re / ab;
                ui = im / ab;
                t = sr * ur - si * ui;
                si = sr * ui + si * ur;
                sr = t;
                la += log(ab);
            }
        if (sign)
            put(j.t, sign->data, i, sr, si);
        if (logabs)
            put_real(j.t, logabs->data, i, la);
        if (det) {
            double e = exp(la);
            put(j.t, det->data, i, sr * e, si * e);
        }
    }
done:
    return finish(&j, rc, det, sign, logabs, NULL);
}

/* ---- cholesky ------------------------------------------------------- */

typedef void (*potrf_fn)(char *, lint *, void *, lint *, lint *, size_t);

em_status em_linalg_cholesky(const em_array *a, int upper, em_array *out)
{
    job j;
    em_status rc;
    lint n, info = 0;
    size_t es;
    /* a in C order is a^T = conj(a) in Fortran's: factoring its 'U'
     * triangle (a's lower) as U^H U leaves U^T = L in C order. */
    char uplo = upper ? 'L' : 'U';
    if ((rc = start(&j, "cholesky", a, 1)) != EM_OK)
        return rc;
    n = j.n;
    es = t_size[j.t];
    if ((rc = make(&j, out, a->dtype, n, n)) != EM_OK)
        return rc;
    for (int64_t i = 0; i < j.batch && n > 0; i++) {
        char *o = out->data + i * n * n * (int64_t)es;
        mat_copy(o, n * (int64_t)es, (int64_t)es, mat_at(a, j.nb, i),
                 a->strides[j.nb], a->strides[j.nb + 1], n, n, es);
        ((potrf_fn)fns[R_POTRF][j.t])(&uplo, &n, o, &n, &info, 1);
        if ((rc = check_info(&j, "potrf", info,
                             "Matrix is not positive definite")) != EM_OK) {
            em_array_release(out);
            return rc;
        }
        for (lint r = 0; r < n; r++)
            for (lint c = 0; c < n; c++)
                if (upper ? c < r : c > r)
                    memset(o + (r * n + c) * (int64_t)es, 0, es);
    }
    return EM_OK;
}

/* ---- qr ------------------------------------------------------------- */

typedef void (*geqrf_fn)(lint *, lint *, void *, lint *, void *, void *,
                         lint *, lint *);
typedef void (*orgqr_fn)(lint *, lint *, lint *, void *, lint *, void *,
                         void *, lint *, lint *);

em_status em_linalg_qr(const em_array *a, em_qr_mode mode, em_array *q,
                       em_array *r)
{
    job j;
    em_status rc;
    void *wa = NULL, *tau = NULL, *work = NULL;
    lint m, n, k, qc, ld, info = 0, lwork = 1, lw;
    size_t es;
    char w1[32];
    if ((unsigned)mode > EM_QR_RAW || (mode == EM_QR_R && q) ||
        (mode != EM_QR_R && !q) || !r)
        return em_error(EM_ERR_INVALID_VALUE, "qr: mode %d with results q %s, "
                        "r %s", (int)mode, q ? "given" : "NULL",
                        r ? "given" : "NULL");
    if ((rc = start(&j, "qr", a, 0)) != EM_OK)
        return rc;
    m = j.m;
    n = j.n;
    k = m < n ? m : n;
    es = t_size[j.t];
    ld = MAX1(m);
    qc = mode == EM_QR_COMPLETE ? m : k; /* Q's columns */
    if (mode == EM_QR_RAW)
        rc = make(&j, q, a->dtype, n, m);
    else if (q)
        rc = make(&j, q, a->dtype, m, qc);
    if (rc == EM_OK)
        rc = mode == EM_QR_RAW ? make(&j, r, a->dtype, k, -1)
                               : make(&j, r, a->dtype,
                                      mode == EM_QR_COMPLETE ? m : k, n);
    if (rc != EM_OK || j.batch == 0)
        goto done;
    if ((rc = walloc(&j, &wa, ld * (n > m ? n : m), es)) != EM_OK ||
        (rc = walloc(&j, &tau, k, es)) != EM_OK)
        goto done;
    /* the larger workspace of the two routines */
    if (k > 0) {
        lw = -1;
        ((geqrf_fn)fns[R_GEQRF][j.t])(&m, &n, wa, &ld, tau, w1, &lw, &info);
        lwork = query_len(j.t, w1);
    }
    if (mode <= EM_QR_COMPLETE && qc > 0) {
        lw = -1;
        ((orgqr_fn)fns[R_ORGQR][j.t])(&m, &qc, &k, wa, &ld, tau, w1, &lw, &info);
        if (query_len(j.t, w1) > lwork)
            lwork = query_len(j.t, w1);
    }
    if ((rc = walloc(&j, &work, lwork, es)) != EM_OK)
        goto done;
    for (int64_t i = 0; i < j.batch; i++) {
        if (k > 0) {
            to_fortran(&j, a, i, wa, ld);
            ((geqrf_fn)fns[R_GEQRF][j.t])(&m, &n, wa, &ld, tau, work, &lwork,
                                          &info);
            if (info < 0) {
                rc = bad_arg(&j, "geqrf", info);
                goto done;
            }
        }
        if (mode == EM_QR_RAW) {
            /* h is geqrf's Fortran array read in C order: (n, m) */
            if (m > 0 && n > 0)
                memcpy(q->data + i * m * n * (int64_t)es, wa,
                       (size_t)(m * n) * es);
            if (k > 0)
                memcpy(r->data + i * k * (int64_t)es, tau, (size_t)k * es);
            continue;
        }
        {
            /* R: the upper triangle of the first rows, zeros below */
            int64_t rr = mode == EM_QR_COMPLETE ? m : k;
            char *o = r->data + i * rr * n * (int64_t)es;
            memset(o, 0, (size_t)(rr * n) * es);
            for (int64_t row = 0; row < k; row++)
                for (int64_t c = row; c < n; c++)
                    memcpy(o + (row * n + c) * (int64_t)es,
                           (char *)wa + (row + c * ld) * (int64_t)es, es);
        }
        if (q && qc > 0) {
            ((orgqr_fn)fns[R_ORGQR][j.t])(&m, &qc, &k, wa, &ld, tau, work,
                                          &lwork, &info);
            if (info < 0) {
                rc = bad_arg(&j, "orgqr", info);
                goto done;
            }
            from_fortran(&j, q->data + i * m * qc * (int64_t)es, wa, ld, m, qc);
        }
    }
done:
    return finish(&j, rc, q, r, NULL, NULL);
}

/* ---- eigh ----------------------------------------------------------- */

typedef void (*syevd_fn)(char *, char *, lint *, void *, lint *, void *, void *,
                         lint *, lint *, lint *, lint *, size_t, size_t);
typedef void (*heevd_fn)(char *, char *, lint *, void *, lint *, void *, void *,
                         lint *, void *, lint *, lint *, lint *, lint *, size_t,
                         size_t);

em_status em_linalg_eigh(const em_array *a, int lower, em_array *w, em_array *v)
{
    job j;
    em_status rc;
    void *wa = NULL, *work = NULL, *rwork = NULL, *iwork = NULL, *ev = NULL;
    lint n, info = 0, lw = -1, lrw = -1, liw = -1, qi = 0;
    size_t es;
    char jobz = v ? 'V' : 'N', uplo = lower ? 'L' : 'U', qw[32], qr[16];
    if ((rc = start(&j, "eigh", a, 1)) != EM_OK)
        return rc;
    if (!w)
        return em_error(EM_ERR_INVALID_VALUE, "eigh: no eigenvalue result");
    n = j.n;
    es = t_size[j.t];
    if ((rc = make(&j, w, t_real[j.t], n, -1)) != EM_OK ||
        (v && (rc = make(&j, v, a->dtype, n, n)) != EM_OK))
        goto done;
    if (j.batch == 0 || n == 0)
        goto done;
    if ((rc = walloc(&j, &wa, n * n, es)) != EM_OK ||
        (rc = walloc(&j, &ev, n, 8)) != EM_OK)
        goto done;
    if (CPLX(j.t))
        ((heevd_fn)fns[R_SYEVD][j.t])(&jobz, &uplo, &n, wa, &n, ev, qw, &lw, qr,
                                      &lrw, &qi, &liw, &info, 1, 1);
    else
        ((syevd_fn)fns[R_SYEVD][j.t])(&jobz, &uplo, &n, wa, &n, ev, qw, &lw, &qi,
                                      &liw, &info, 1, 1);
    lw = query_len(j.t, qw);
    lrw = CPLX(j.t) ? query_len(j.t - 2, qr) : 1;
    liw = MAX1(qi);
    if ((rc = walloc(&j, &work, lw, es)) != EM_OK ||
        (rc = walloc(&j, &rwork, lrw, t_size[j.t & 1])) != EM_OK ||
        (rc = walloc(&j, &iwork, liw, sizeof(lint))) != EM_OK)
        goto done;
    for (int64_t i = 0; i < j.batch; i++) {
        to_fortran(&j, a, i, wa, n);
        if (CPLX(j.t))
            ((heevd_fn)fns[R_SYEVD][j.t])(&jobz, &uplo, &n, wa, &n, ev, work,
                                          &lw, rwork, &lrw, iwork, &liw, &info,
                                          1, 1);
        else
            ((syevd_fn)fns[R_SYEVD][j.t])(&jobz, &uplo, &n, wa, &n, ev, work,
                                          &lw, iwork, &liw, &info, 1, 1);
        if ((rc = check_info(&j, "syevd/heevd", info,
                             "Eigenvalues did not converge")) != EM_OK)
            goto done;
        memcpy(w->data + i * n * (int64_t)t_size[j.t & 1], ev,
               (size_t)n * t_size[j.t & 1]);
        if (v)
            from_fortran(&j, v->data + i * n * n * (int64_t)es, wa, n, n, n);
    }
done:
    return finish(&j, rc, w, v, NULL, NULL);
}

/* ---- eig ------------------------------------------------------------ */

typedef void (*geev_r_fn)(char *, char *, lint *, void *, lint *, void *, void *,
                          void *, lint *, void *, lint *, void *, lint *, lint *,
                          size_t, size_t);
typedef void (*geev_c_fn)(char *, char *, lint *, void *, lint *, void *, void *,
                          lint *, void *, lint *, void *, lint *, void *, lint *,
                          size_t, size_t);

em_status em_linalg_eig(const em_array *a, em_array *w, em_array *v)
{
    job j;
    em_status rc;
    void *wa = NULL, *work = NULL, *rwork = NULL, *wr = NULL, *wi = NULL,
         *vr = NULL;
    lint n, info = 0, lw = -1, one = 1;
    size_t es;
    char jl = 'N', jr = v ? 'V' : 'N', qw[32], dl[32];
    int ct;
    if ((rc = start(&j, "eig", a, 1)) != EM_OK)
        return rc;
    if (!w)
        return em_error(EM_ERR_INVALID_VALUE, "eig: no eigenvalue result");
    n = j.n;
    es = t_size[j.t];
    ct = j.t | 2; /* the complex type of the results */
    if ((rc = make(&j, w, t_cplx[j.t], n, -1)) != EM_OK ||
        (v && (rc = make(&j, v, t_cplx[j.t], n, n)) != EM_OK))
        goto done;
    if (j.batch == 0 || n == 0)
        goto done;
    if ((rc = walloc(&j, &wa, n * n, es)) != EM_OK ||
        (rc = walloc(&j, &wr, n, es)) != EM_OK ||
        (rc = walloc(&j, &wi, n, es)) != EM_OK ||
        (rc = walloc(&j, &vr, v ? n * n : 1, es)) != EM_OK ||
        (rc = walloc(&j, &rwork, 2 * n, t_size[j.t & 1])) != EM_OK)
        goto done;
    {
        lint ldv = v ? n : 1;
        if (CPLX(j.t))
            ((geev_c_fn)fns[R_GEEV][j.t])(&jl, &jr, &n, wa, &n, wr, dl, &one,
                                          vr, &ldv, qw, &lw, rwork, &info, 1, 1);
        else
            ((geev_r_fn)fns[R_GEEV][j.t])(&jl, &jr, &n, wa, &n, wr, wi, dl, &one,
                                          vr, &ldv, qw, &lw, &info, 1, 1);
        lw = query_len(j.t, qw);
        if ((rc = walloc(&j, &work, lw, es)) != EM_OK)
            goto done;
        for (int64_t i = 0; i < j.batch; i++) {
            char *wo = w->data + i * n * (int64_t)t_size[ct];
            char *vo = v ? v->data + i * n * n * (int64_t)t_size[ct] : NULL;
            to_fortran(&j, a, i, wa, n);
            if (CPLX(j.t))
                ((geev_c_fn)fns[R_GEEV][j.t])(&jl, &jr, &n, wa, &n, wr, dl, &one,
                                              vr, &ldv, work, &lw, rwork, &info,
                                              1, 1);
            else
                ((geev_r_fn)fns[R_GEEV][j.t])(&jl, &jr, &n, wa, &n, wr, wi, dl,
                                              &one, vr, &ldv, work, &lw, &info,
                                              1, 1);
            if ((rc = check_info(&j, "geev", info,
                                 "Eigenvalues did not converge")) != EM_OK)
                goto done;
            if (CPLX(j.t)) {
                memcpy(wo, wr, (size_t)n * es);
                if (vo)
                    from_fortran(&j, vo, vr, n, n, n);
                continue;
            }
            for (lint c = 0; c < n; c++)
                put(ct, wo, c, get_real(j.t, wr, c), get_real(j.t, wi, c));
            if (!vo)
                continue;
            /* LAPACK packs a conjugate pair's vectors as two real columns
             * (re, im) at the pair's first eigenvalue (positive imag). */
            for (lint c = 0; c < n; c++) {
                double im = get_real(j.t, wi, c);
                for (lint r = 0; r < n; r++) {
                    double x = get_real(j.t, vr, r + c * n), y = 0;
                    if (im > 0)
                        y = get_real(j.t, vr, r + (c + 1) * n);
                    else if (im < 0) {
                        x = get_real(j.t, vr, r + (c - 1) * n);
                        y = -get_real(j.t, vr, r + c * n);
                    }
                    put(ct, vo, r * n + c, x, y);
                }
            }
        }
    }
done:
    return finish(&j, rc, w, v, NULL, NULL);
}

/* ---- svd ------------------------------------------------------------ */

typedef void (*gesdd_r_fn)(char *, lint *, lint *, void *, lint *, void *,
                           void *, lint *, void *, lint *, void *, lint *,
                           lint *, lint *, size_t);
typedef void (*gesdd_c_fn)(char *, lint *, lint *, void *, lint *, void *,
                           void *, lint *, void *, lint *, void *, lint *,
                           void *, lint *, lint *, size_t);

em_status em_linalg_svd(const em_array *a, int full, em_array *s, em_array *u,
                        em_array *vh)
{
    job j;
    em_status rc;
    void *wa = NULL, *work = NULL, *rwork = NULL, *iwork = NULL, *wu = NULL,
         *wv = NULL;
    lint m, n, k, mx, info = 0, lw = -1, ldu, ldvt, ucols, vrows;
    size_t es, rs;
    char jobz, qw[32];
    int vecs = u && vh;
    if ((rc = start(&j, "svd", a, 0)) != EM_OK)
        return rc;
    if (!s || (!!u != !!vh))
        return em_error(EM_ERR_INVALID_VALUE, "svd: s and both or neither of "
                        "u, vh");
    m = j.m;
    n = j.n;
    k = m < n ? m : n;
    mx = m > n ? m : n;
    es = t_size[j.t];
    rs = t_size[j.t & 1];
    ucols = full ? m : k;
    vrows = full ? n : k;
    jobz = !vecs ? 'N' : full ? 'A' : 'S';
    ldu = MAX1(m);
    ldvt = MAX1(vrows);
    if ((rc = make(&j, s, t_real[j.t], k, -1)) != EM_OK ||
        (vecs && ((rc = make(&j, u, a->dtype, m, ucols)) != EM_OK ||
                  (rc = make(&j, vh, a->dtype, vrows, n)) != EM_OK)))
        goto done;
    if (j.batch == 0)
        goto done;
    if (k == 0) {
        /* nothing to factor: the square factors are identities */
        for (int64_t i = 0; vecs && i < j.batch; i++) {
            if (ucols == m && m > 0)
                eye(j.t, u->data + i * m * m * (int64_t)es, m);
            if (vrows == n && n > 0)
                eye(j.t, vh->data + i * n * n * (int64_t)es, n);
        }
        goto done;
    }
    if ((rc = walloc(&j, &wa, m * n, es)) != EM_OK ||
        (rc = walloc(&j, &wu, vecs ? ldu * ucols : 1, es)) != EM_OK ||
        (rc = walloc(&j, &wv, vecs ? ldvt * n : 1, es)) != EM_OK ||
        (rc = walloc(&j, &iwork, 8 * k, sizeof(lint))) != EM_OK)
        goto done;
    if (CPLX(j.t)) {
        /* LAPACK 3.7's bound for every jobz */
        lint a1 = 5 * k * k + 5 * k, a2 = 2 * mx * k + 2 * k * k + k;
        lint lrw = a1 > a2 ? a1 : a2;
        if (!vecs)
            lrw = 7 * k;
        if ((rc = walloc(&j, &rwork, MAX1(lrw), rs)) != EM_OK)
            goto done;
        ((gesdd_c_fn)fns[R_GESDD][j.t])(&jobz, &m, &n, wa, &ldu, s->data, wu,
                                        &ldu, wv, &ldvt, qw, &lw, rwork, iwork,
                                        &info, 1);
    } else
        ((gesdd_r_fn)fns[R_GESDD][j.t])(&jobz, &m, &n, wa, &ldu, s->data, wu,
                                        &ldu, wv, &ldvt, qw, &lw, iwork, &info, 1);
    lw = query_len(j.t, qw);
    if ((rc = walloc(&j, &work, lw, es)) != EM_OK)
        goto done;
    for (int64_t i = 0; i < j.batch; i++) {
        char *so = s->data + i * k * (int64_t)rs;
        to_fortran(&j, a, i, wa, ldu);
        if (CPLX(j.t))
            ((gesdd_c_fn)fns[R_GESDD][j.t])(&jobz, &m, &n, wa, &ldu, so, wu, &ldu,
                                            wv, &ldvt, work, &lw, rwork, iwork,
                                            &info, 1);
        else
            ((gesdd_r_fn)fns[R_GESDD][j.t])(&jobz, &m, &n, wa, &ldu, so, wu, &ldu,
                                            wv, &ldvt, work, &lw, iwork, &info, 1);
        /* -4: LAPACK 3.10's gesdd found a NaN in A, which NumPy reports
         * as non-convergence */
        if ((rc = check_info(&j, "gesdd", info == -4 ? 1 : info,
                             "SVD did not converge")) != EM_OK)
            goto done;
        if (vecs) {
            from_fortran(&j, u->data + i * m * ucols * (int64_t)es, wu, ldu, m,
                         ucols);
            from_fortran(&j, vh->data + i * vrows * n * (int64_t)es, wv, ldvt,
                         vrows, n);
        }
    }
done:
    return finish(&j, rc, s, u, vh, NULL);
}

/* ---- lstsq ---------------------------------------------------------- */

typedef void (*gelsd_r_fn)(lint *, lint *, lint *, void *, lint *, void *,
                           lint *, void *, void *, lint *, void *, lint *,
                           lint *, lint *);
typedef void (*gelsd_c_fn)(lint *, lint *, lint *, void *, lint *, void *,
                           lint *, void *, void *, lint *, void *, lint *,
                           void *, lint *, lint *);

em_status em_linalg_lstsq(const em_array *a, const em_array *b, double rcond,
                          em_array *x, em_array *resid, em_array *rank,
                          em_array *s)
{
    job j;
    em_status rc;
    void *wa = NULL, *wb = NULL, *work = NULL, *rwork = NULL, *iwork = NULL,
         *ws = NULL;
    lint m, n, k, nrhs, mn, ldb, info = 0, lw = -1, rk = 0, qi = 0;
    size_t es, rs;
    char qw[32], qr[16];
    float rc32 = (float)rcond;
    if ((rc = start(&j, "lstsq", a, 0)) != EM_OK || (rc = check_b(&j, b)) != EM_OK)
        return rc;
    if (!x || !resid || !rank || !s)
        return em_error(EM_ERR_INVALID_VALUE, "lstsq: a result is NULL");
    m = j.m;
    n = j.n;
    mn = m < n ? m : n;
    k = m > n ? m : n;
    nrhs = b->shape[b->ndim - 1];
    ldb = MAX1(k);
    es = t_size[j.t];
    rs = t_size[j.t & 1];
    if ((rc = make(&j, x, a->dtype, n, nrhs)) != EM_OK ||
        (rc = make(&j, resid, t_real[j.t], nrhs, -1)) != EM_OK ||
        (rc = make(&j, rank, EM_INT64, -1, -1)) != EM_OK ||
        (rc = make(&j, s, t_real[j.t], mn, -1)) != EM_OK)
        goto done;
    if (j.batch == 0)
        goto done;
    if ((rc = walloc(&j, &wa, m * n, es)) != EM_OK ||
        (rc = walloc(&j, &wb, ldb * nrhs, es)) != EM_OK ||
        (rc = walloc(&j, &ws, mn, rs)) != EM_OK)
        goto done;
    if (mn > 0) {
        lint lda = MAX1(m);
        if (CPLX(j.t))
            ((gelsd_c_fn)fns[R_GELSD][j.t])(&m, &n, &nrhs, wa, &lda, wb, &ldb, ws,
                                            DBL(j.t) ? (void *)&rcond : (void *)&rc32,
                                            &rk, qw, &lw, qr, &qi, &info);
        else
            ((gelsd_r_fn)fns[R_GELSD][j.t])(&m, &n, &nrhs, wa, &lda, wb, &ldb, ws,
                                            DBL(j.t) ? (void *)&rcond : (void *)&rc32,
                                            &rk, qw, &lw, &qi, &info);
        lw = query_len(j.t, qw);
        if ((rc = walloc(&j, &work, lw, es)) != EM_OK ||
            (rc = walloc(&j, &iwork, MAX1(qi), sizeof(lint))) != EM_OK ||
            (CPLX(j.t) &&
             (rc = walloc(&j, &rwork, query_len(j.t & 1, qr), rs)) != EM_OK))
            goto done;
    }
    for (int64_t i = 0; i < j.batch; i++) {
        lint lda = MAX1(m);
        memset(wb, 0, (size_t)(ldb * nrhs) * es);
        to_fortran(&j, b, i, wb, ldb);
        rk = 0;
        if (mn > 0) {
            to_fortran(&j, a, i, wa, lda);
            if (CPLX(j.t))
                ((gelsd_c_fn)fns[R_GELSD][j.t])(
                    &m, &n, &nrhs, wa, &lda, wb, &ldb, ws,
                    DBL(j.t) ? (void *)&rcond : (void *)&rc32, &rk, work, &lw,
                    rwork, iwork, &info);
            else
                ((gelsd_r_fn)fns[R_GELSD][j.t])(
                    &m, &n, &nrhs, wa, &lda, wb, &ldb, ws,
                    DBL(j.t) ? (void *)&rcond : (void *)&rc32, &rk, work, &lw,
                    iwork, &info);
            if ((rc = check_info(&j, "gelsd", info, "SVD did not converge in "
                                 "Linear Least Squares")) != EM_OK)
                goto done;
        } else
            /* no unknowns or no equations: x = 0, the residual is b */
            for (lint c = 0; c < nrhs; c++)
                for (lint r = 0; r < n && r < ldb; r++)
                    memset((char *)wb + (r + c * ldb) * (int64_t)es, 0, es);
        from_fortran(&j, x->data + i * n * nrhs * (int64_t)es, wb, ldb, n, nrhs);
        for (lint c = 0; c < nrhs; c++) {
            double sum = 0, re, im;
            for (lint r = n; r < m; r++) {
                get(j.t, wb, r + c * ldb, &re, &im);
                sum += re * re + im * im;
            }
            put_real(j.t, resid->data, i * nrhs + c, sum);
        }
        ((int64_t *)rank->data)[i] = rk;
        memcpy(s->data + i * mn * (int64_t)rs, ws, (size_t)mn * rs);
    }
done:
    return finish(&j, rc, x, resid, rank, s);
}

/* ---- getrf, getrs: the raw LU pair, as cuSOLVER's ------------------ */

/* A raw call's array: writeable, C-contiguous, of a's device and of the
 * dtype t (-1: a's), with a's batch axes then core axes. */
static em_status raw_part(const job *j, const em_array *a, const em_array *x,
                          int t, int ncore, const char *name)
{
    if (!x || !x->storage || x->device != a->device ||
        !(x->flags & EM_ARRAY_C_CONTIGUOUS) || !(x->flags & EM_ARRAY_WRITEABLE) ||
        x->dtype != (t >= 0 ? (em_dtype)t : a->dtype) ||
        x->ndim != j->nb + ncore)
        return em_error(EM_ERR_INVALID_VALUE, "%s: %s must be a writeable "
                        "C-contiguous %s array of %d dimensions on %s",
                        j->name, name, em_dtype_get(t >= 0 ? (em_dtype)t
                                                           : a->dtype)->name,
                        j->nb + ncore, em_device_name(a->device));
    for (int d = 0; d < j->nb; d++)
        if (x->shape[d] != j->bshape[d])
            return em_error(EM_ERR_INVALID_VALUE, "%s: %s's batch axis %d has "
                            "%lld entries, the matrices' %lld", j->name, name,
                            d, (long long)x->shape[d], (long long)j->bshape[d]);
    return EM_OK;
}

em_status em_linalg_getrf(em_array *a, em_array *ipiv, em_array *info)
{
    job j;
    em_status rc;
    lint rows, cols, k, ld, inf = 0;
    size_t es;
    if ((rc = start(&j, "getrf", a, 0)) != EM_OK ||
        (rc = raw_part(&j, a, a, -1, 2, "a")) != EM_OK ||
        (rc = raw_part(&j, a, ipiv, EM_INT64, 1, "ipiv")) != EM_OK ||
        (rc = raw_part(&j, a, info, EM_INT32, 0, "info")) != EM_OK)
        return rc;
    cols = j.m; /* column-major: each matrix is (cols, rows) in C order */
    rows = j.n;
    k = rows < cols ? rows : cols;
    ld = MAX1(rows);
    es = t_size[j.t];
    if (ipiv->shape[j.nb] != k)
        return em_error(EM_ERR_INVALID_VALUE, "getrf: ipiv's last axis has "
                        "%lld entries, not %lld", (long long)ipiv->shape[j.nb],
                        (long long)k);
    for (int64_t i = 0; i < j.batch; i++) {
        inf = 0;
        if (k > 0)
            ((getrf_fn)fns[R_GETRF][j.t])(&rows, &cols,
                                          a->data + i * rows * cols * (int64_t)es,
                                          &ld, (lint *)(void *)ipiv->data + i * k,
                                          &inf);
        if (inf < 0)
            return bad_arg(&j, "getrf", inf);
        ((int32_t *)(void *)info->data)[i] = (int32_t)inf;
    }
    return EM_OK;
}

typedef void (*getrs_fn)(char *, lint *, lint *, const void *, lint *,
                         const lint *, void *, lint *, lint *, size_t);

em_status em_linalg_getrs(const em_array *lu, const em_array *ipiv,
                          em_array *b, int trans, em_array *info)
{
    job j;
    em_status rc;
    lint n, nrhs, ld, inf = 0;
    size_t es;
    char tr = trans == 1 ? 'T' : trans == 2 ? 'C' : 'N';
    if (trans < 0 || trans > 2)
        return em_error(EM_ERR_INVALID_VALUE, "getrs: trans is 0, 1 or 2, not "
                        "%d", trans);
    if ((rc = start(&j, "getrs", b, 0)) != EM_OK ||
        (rc = raw_part(&j, b, b, -1, 2, "b")) != EM_OK ||
        (rc = raw_part(&j, b, (em_array *)lu, -1, 2, "lu")) != EM_OK ||
        (rc = raw_part(&j, b, (em_array *)ipiv, EM_INT64, 1, "ipiv")) != EM_OK ||
        (rc = raw_part(&j, b, info, EM_INT32, 0, "info")) != EM_OK)
        return rc;
    n = j.n; /* b is (nrhs, n) in C order: n x nrhs column-major */
    nrhs = j.m;
    ld = MAX1(n);
    es = t_size[j.t];
    if (lu->shape[j.nb] != n || lu->shape[j.nb + 1] != n ||
        ipiv->shape[j.nb] != n)
        return em_error(EM_ERR_INVALID_VALUE, "getrs: lu must be %lld x %lld "
                        "and ipiv %lld long, as b's columns", (long long)n,
                        (long long)n, (long long)n);
    for (int64_t i = 0; i < j.batch; i++) {
        inf = 0;
        if (n > 0 && nrhs > 0)
            ((getrs_fn)fns[R_GETRS][j.t])(&tr, &n, &nrhs,
                                          lu->data + i * n * n * (int64_t)es,
                                          &ld, (const lint *)(const void *)
                                          ipiv->data + i * n,
                                          b->data + i * n * nrhs * (int64_t)es,
                                          &ld, &inf, 1);
        if (inf < 0)
            return bad_arg(&j, "getrs", inf);
        ((int32_t *)(void *)info->data)[i] = (int32_t)inf;
    }
    return EM_OK;
}

/* ---- the Schur family: raw calls in place, as getrf's --------------- */

/* raw_part, and x's core axes are (d0[, d1]) (-1: not checked). */
static em_status raw_mat(const job *j, const em_array *a, const em_array *x,
                         int t, int ncore, int64_t d0, int64_t d1,
                         const char *name)
{
    em_status rc = raw_part(j, a, x, t, ncore, name);
    if (rc != EM_OK)
        return rc;
    if ((ncore > 0 && d0 >= 0 && x->shape[j->nb] != d0) ||
        (ncore > 1 && d1 >= 0 && x->shape[j->nb + 1] != d1))
        return em_error(EM_ERR_INVALID_VALUE, "%s: %s's core shape does not "
                        "match the matrices' %lld", j->name, name,
                        (long long)j->n);
    return EM_OK;
}

/* A square matrix stack and its int32 info: the common start. */
static em_status raw_start(job *j, const char *name, em_array *a,
                           em_array *info)
{
    em_status rc;
    if ((rc = start(j, name, a, 1)) != EM_OK ||
        (rc = raw_part(j, a, a, -1, 2, "a")) != EM_OK ||
        (rc = raw_part(j, a, info, EM_INT32, 0, "info")) != EM_OK)
        return rc;
    return EM_OK;
}

/* Eigenvalue c of a routine's output into the complex w: real routines
 * give real and imaginary parts apart. */
static void put_eig(int t, char *w, lint c, const char *re, const char *im)
{
    double x, y;
    if (CPLX(t)) {
        get(t, re, c, &x, &y);
        put(t, w, c, x, y);
    } else
        put(t | 2, w, c, get_real(t, re, c), get_real(t, im, c));
}

static void set_info(em_array *info, int64_t i, lint v)
{
    ((int32_t *)(void *)info->data)[i] = (int32_t)v;
}

/* A raw call's info, as check_info is the other entries': negative is
 * ember passing a bad argument; else it goes to info[i] (info NULL: the
 * caller stores it later). */
static em_status raw_info(const job *j, const char *routine, lint inf,
                          em_array *info, int64_t i)
{
    if (inf < 0)
        return bad_arg(j, routine, inf);
    if (info)
        set_info(info, i, inf);
    return EM_OK;
}

/* The loops that query their workspace run twice: pass 0 is the query
 * (on the first matrix: some LAPACKs look at it), whose answer in qw
 * sizes work; pass 1 calls on each matrix. */
static em_status raw_pass(job *j, int pass, const char *routine, lint inf,
                          em_array *info, int64_t i, const void *qw, lint *lw,
                          void **work)
{
    if (pass || inf < 0)
        return raw_info(j, routine, inf, info, i);
    *lw = query_len(j->t, qw);
    return walloc(j, work, *lw, t_size[j->t]);
}

typedef void (*gees_r_fn)(char *, char *, void *, lint *, void *, lint *,
                          lint *, void *, void *, void *, lint *, void *,
                          lint *, lint *, lint *, size_t, size_t);
typedef void (*gees_c_fn)(char *, char *, void *, lint *, void *, lint *,
                          lint *, void *, void *, lint *, void *, lint *,
                          void *, lint *, lint *, size_t, size_t);

em_status em_linalg_gees(em_array *a, em_array *w, em_array *vs,
                         em_array *info)
{
    job j;
    em_status rc;
    void *wr = NULL, *wi = NULL, *work = NULL, *rwork = NULL, *bwork = NULL;
    lint n, sdim = 0, inf = 0, lw = -1;
    char jv = 'V', so = 'N', qw[32];
    size_t es;
    if ((rc = raw_start(&j, "gees", a, info)) != EM_OK ||
        (rc = raw_mat(&j, a, w, t_cplx[j.t], 1, j.n, -1, "w")) != EM_OK ||
        (rc = raw_mat(&j, a, vs, -1, 2, j.n, j.n, "vs")) != EM_OK)
        return rc;
    n = j.n;
    es = t_size[j.t];
    if (j.batch == 0 || n == 0)
        return EM_OK;
    if ((rc = walloc(&j, &wr, n, es)) != EM_OK ||
        (rc = walloc(&j, &wi, n, es)) != EM_OK ||
        (rc = walloc(&j, &rwork, n, t_size[j.t & 1])) != EM_OK ||
        (rc = walloc(&j, &bwork, n, sizeof(lint))) != EM_OK)
        goto done;
    for (int pass = 0; pass < 2; pass++) /* the query, then each matrix */
        for (int64_t i = 0; i < (pass ? j.batch : 1); i++) {
            /* the query gets real matrices too: some LAPACKs look */
            char *pa = a->data + i * n * n * (int64_t)es;
            char *pv = vs->data + i * n * n * (int64_t)es;
            void *wk = pass ? work : qw;
            inf = 0;
            if (CPLX(j.t))
                ((gees_c_fn)fns[R_GEES][j.t])(&jv, &so, NULL, &n, pa, &n, &sdim,
                                              wr, pv, &n, wk, &lw, rwork, bwork,
                                              &inf, 1, 1);
            else
                ((gees_r_fn)fns[R_GEES][j.t])(&jv, &so, NULL, &n, pa, &n, &sdim,
                                              wr, wi, pv, &n, wk, &lw, bwork,
                                              &inf, 1, 1);
            if ((rc = raw_pass(&j, pass, "gees", inf, info, i, qw, &lw,
                               &work)) != EM_OK)
                goto done;
            if (!pass)
                continue;
            for (lint c = 0; c < n; c++)
                put_eig(j.t, w->data + i * n * (int64_t)t_size[j.t | 2], c, wr, wi);
        }
done:
    return finish(&j, rc, NULL, NULL, NULL, NULL);
}

typedef void (*trsen_r_fn)(char *, char *, const lint *, lint *, void *,
                           lint *, void *, lint *, void *, void *, lint *,
                           void *, void *, void *, lint *, lint *, lint *,
                           lint *, size_t, size_t);
typedef void (*trsen_c_fn)(char *, char *, const lint *, lint *, void *,
                           lint *, void *, lint *, void *, lint *, void *,
                           void *, void *, lint *, lint *, size_t, size_t);

em_status em_linalg_trsen(em_array *t, em_array *q, const em_array *select,
                          em_array *w, em_array *m, em_array *info)
{
    job j;
    em_status rc;
    void *wr = NULL, *wi = NULL, *work = NULL;
    lint n, mm = 0, inf = 0, lw = 0, iw = 1, liw = 1;
    char jb = 'N', cq = 'V';
    double s[2], sep[2];
    size_t es;
    if ((rc = raw_start(&j, "trsen", t, info)) != EM_OK ||
        (rc = raw_mat(&j, t, q, -1, 2, j.n, j.n, "q")) != EM_OK ||
        (rc = raw_mat(&j, t, select, EM_INT64, 1, j.n, -1, "select")) != EM_OK ||
        (rc = raw_mat(&j, t, w, t_cplx[j.t], 1, j.n, -1, "w")) != EM_OK ||
        (rc = raw_part(&j, t, m, EM_INT64, 0, "m")) != EM_OK)
        return rc;
    n = j.n;
    es = t_size[j.t];
    lw = MAX1(n); /* enough for job 'N' */
    if (j.batch == 0 || n == 0)
        return EM_OK;
    if ((rc = walloc(&j, &wr, n, es)) != EM_OK ||
        (rc = walloc(&j, &wi, n, es)) != EM_OK ||
        (rc = walloc(&j, &work, lw, es)) != EM_OK)
        goto done;
    for (int64_t i = 0; i < j.batch; i++) {
        char *pt = t->data + i * n * n * (int64_t)es;
        char *pq = q->data + i * n * n * (int64_t)es;
        const lint *sel = (const lint *)(const void *)select->data + i * n;
        inf = 0;
        if (CPLX(j.t))
            ((trsen_c_fn)fns[R_TRSEN][j.t])(&jb, &cq, sel, &n, pt, &n, pq, &n,
                                            wr, &mm, s, sep, work, &lw, &inf,
                                            1, 1);
        else
            ((trsen_r_fn)fns[R_TRSEN][j.t])(&jb, &cq, sel, &n, pt, &n, pq, &n,
                                            wr, wi, &mm, s, sep, work, &lw, &iw,
                                            &liw, &inf, 1, 1);
        if ((rc = raw_info(&j, "trsen", inf, info, i)) != EM_OK)
            goto done;
        ((int64_t *)(void *)m->data)[i] = mm;
        for (lint c = 0; c < n; c++)
            put_eig(j.t, w->data + i * n * (int64_t)t_size[j.t | 2], c, wr, wi);
    }
done:
    return finish(&j, rc, NULL, NULL, NULL, NULL);
}

typedef void (*gehrd_fn)(lint *, lint *, lint *, void *, lint *, void *,
                         void *, lint *, lint *);

em_status em_linalg_gehrd(em_array *a, em_array *q, em_array *info)
{
    job j;
    em_status rc;
    void *tau = NULL, *work = NULL;
    lint n, one = 1, inf = 0, lw = -1, l2 = -1;
    char qw[32], q2[32];
    size_t es;
    if ((rc = raw_start(&j, "gehrd", a, info)) != EM_OK ||
        (q && (rc = raw_mat(&j, a, q, -1, 2, j.n, j.n, "q")) != EM_OK))
        return rc;
    n = j.n;
    es = t_size[j.t];
    if (j.batch == 0 || n == 0)
        return EM_OK;
    if ((rc = walloc(&j, &tau, n, es)) != EM_OK)
        goto done;
    ((gehrd_fn)fns[R_GEHRD][j.t])(&n, &one, &n, NULL, &n, tau, qw, &lw, &inf);
    ((gehrd_fn)fns[R_ORGHR][j.t])(&n, &one, &n, NULL, &n, tau, q2, &l2, &inf);
    lw = query_len(j.t, qw);
    l2 = query_len(j.t, q2);
    lw = lw > l2 ? lw : l2;
    if ((rc = walloc(&j, &work, lw, es)) != EM_OK)
        goto done;
    for (int64_t i = 0; i < j.batch; i++) {
        char *pa = a->data + i * n * n * (int64_t)es;
        inf = 0;
        ((gehrd_fn)fns[R_GEHRD][j.t])(&n, &one, &n, pa, &n, tau, work, &lw, &inf);
        if ((rc = raw_info(&j, "gehrd", inf, NULL, i)) != EM_OK)
            goto done;
        if (q) {
            char *pq = q->data + i * n * n * (int64_t)es;
            memcpy(pq, pa, (size_t)(n * n) * es);
            ((gehrd_fn)fns[R_ORGHR][j.t])(&n, &one, &n, pq, &n, tau, work, &lw,
                                          &inf);
            if ((rc = raw_info(&j, "orghr", inf, NULL, i)) != EM_OK)
                goto done;
        }
        /* gehrd leaves its reflectors below the subdiagonal */
        for (lint c = 0; c < n; c++)
            for (lint r = c + 2; r < n; r++)
                put(j.t, pa, r + c * n, 0, 0);
        set_info(info, i, inf);
    }
done:
    return finish(&j, rc, NULL, NULL, NULL, NULL);
}

typedef void (*gges_r_fn)(char *, char *, char *, void *, lint *, void *,
                          lint *, void *, lint *, lint *, void *, void *,
                          void *, void *, lint *, void *, lint *, void *,
                          lint *, lint *, lint *, size_t, size_t, size_t);
typedef void (*gges_c_fn)(char *, char *, char *, void *, lint *, void *,
                          lint *, void *, lint *, lint *, void *, void *,
                          void *, lint *, void *, lint *, void *, lint *,
                          void *, lint *, lint *, size_t, size_t, size_t);

em_status em_linalg_gges(em_array *a, em_array *b, em_array *alpha,
                         em_array *beta, em_array *vsl, em_array *vsr,
                         em_array *info)
{
    job j;
    em_status rc;
    void *ar = NULL, *ai = NULL, *work = NULL, *rwork = NULL, *bwork = NULL;
    lint n, sdim = 0, inf = 0, lw = -1;
    char jv = 'V', so = 'N', qw[32];
    size_t es, cs;
    if ((rc = raw_start(&j, "gges", a, info)) != EM_OK ||
        (rc = raw_mat(&j, a, b, -1, 2, j.n, j.n, "b")) != EM_OK ||
        (rc = raw_mat(&j, a, alpha, t_cplx[j.t], 1, j.n, -1, "alpha")) != EM_OK ||
        (rc = raw_mat(&j, a, beta, -1, 1, j.n, -1, "beta")) != EM_OK ||
        (rc = raw_mat(&j, a, vsl, -1, 2, j.n, j.n, "vsl")) != EM_OK ||
        (rc = raw_mat(&j, a, vsr, -1, 2, j.n, j.n, "vsr")) != EM_OK)
        return rc;
    n = j.n;
    es = t_size[j.t];
    cs = t_size[j.t | 2];
    if (j.batch == 0 || n == 0)
        return EM_OK;
    if ((rc = walloc(&j, &ar, n, es)) != EM_OK ||
        (rc = walloc(&j, &ai, n, es)) != EM_OK ||
        (rc = walloc(&j, &rwork, 8 * n, t_size[j.t & 1])) != EM_OK ||
        (rc = walloc(&j, &bwork, n, sizeof(lint))) != EM_OK)
        goto done;
    for (int pass = 0; pass < 2; pass++)
        for (int64_t i = 0; i < (pass ? j.batch : 1); i++) {
            int64_t o = i * n * n * (int64_t)es;
            char *pa = a->data + o, *pb = b->data + o;
            char *pl = vsl->data + o, *pr = vsr->data + o;
            char *pbe = beta->data + i * n * (int64_t)es;
            void *wk = pass ? work : qw;
            inf = 0;
            if (CPLX(j.t))
                ((gges_c_fn)fns[R_GGES][j.t])(&jv, &jv, &so, NULL, &n, pa, &n, pb,
                                              &n, &sdim, ar, pbe, pl, &n, pr, &n,
                                              wk, &lw, rwork, bwork, &inf, 1, 1, 1);
            else
                ((gges_r_fn)fns[R_GGES][j.t])(&jv, &jv, &so, NULL, &n, pa, &n, pb,
                                              &n, &sdim, ar, ai, pbe, pl, &n, pr,
                                              &n, wk, &lw, bwork, &inf, 1, 1, 1);
            if ((rc = raw_pass(&j, pass, "gges", inf, info, i, qw, &lw,
                               &work)) != EM_OK)
                goto done;
            if (!pass)
                continue;
            for (lint c = 0; c < n; c++)
                put_eig(j.t, alpha->data + i * n * (int64_t)cs, c, ar, ai);
        }
done:
    return finish(&j, rc, NULL, NULL, NULL, NULL);
}

typedef void (*tgsen_r_fn)(lint *, lint *, lint *, const lint *, lint *,
                           void *, lint *, void *, lint *, void *, void *,
                           void *, void *, lint *, void *, lint *, lint *,
                           void *, void *, void *, void *, lint *, lint *,
                           lint *, lint *);
typedef void (*tgsen_c_fn)(lint *, lint *, lint *, const lint *, lint *,
                           void *, lint *, void *, lint *, void *, void *,
                           void *, lint *, void *, lint *, lint *, void *,
                           void *, void *, void *, lint *, lint *, lint *,
                           lint *);

em_status em_linalg_tgsen(em_array *a, em_array *b, em_array *q, em_array *z,
                          const em_array *select, em_array *alpha,
                          em_array *beta, em_array *info)
{
    job j;
    em_status rc;
    void *ar = NULL, *ai = NULL, *work = NULL;
    lint n, mm = 0, inf = 0, lw, ijob = 0, yes = 1, iw = 1, liw = 1;
    double pl[2], pr[2], dif[4];
    size_t es, cs;
    if ((rc = raw_start(&j, "tgsen", a, info)) != EM_OK ||
        (rc = raw_mat(&j, a, b, -1, 2, j.n, j.n, "b")) != EM_OK ||
        (rc = raw_mat(&j, a, q, -1, 2, j.n, j.n, "q")) != EM_OK ||
        (rc = raw_mat(&j, a, z, -1, 2, j.n, j.n, "z")) != EM_OK ||
        (rc = raw_mat(&j, a, select, EM_INT64, 1, j.n, -1, "select")) != EM_OK ||
        (rc = raw_mat(&j, a, alpha, t_cplx[j.t], 1, j.n, -1, "alpha")) != EM_OK ||
        (rc = raw_mat(&j, a, beta, -1, 1, j.n, -1, "beta")) != EM_OK)
        return rc;
    n = j.n;
    es = t_size[j.t];
    cs = t_size[j.t | 2];
    lw = 4 * n + 16; /* ijob 0's need, for real and complex */
    if (j.batch == 0 || n == 0)
        return EM_OK;
    if ((rc = walloc(&j, &ar, n, es)) != EM_OK ||
        (rc = walloc(&j, &ai, n, es)) != EM_OK ||
        (rc = walloc(&j, &work, lw, es)) != EM_OK)
        goto done;
    for (int64_t i = 0; i < j.batch; i++) {
        int64_t o = i * n * n * (int64_t)es;
        char *pbe = beta->data + i * n * (int64_t)es;
        const lint *sel = (const lint *)(const void *)select->data + i * n;
        inf = 0;
        if (CPLX(j.t))
            ((tgsen_c_fn)fns[R_TGSEN][j.t])(&ijob, &yes, &yes, sel, &n,
                                            a->data + o, &n, b->data + o, &n, ar,
                                            pbe, q->data + o, &n, z->data + o, &n,
                                            &mm, pl, pr, dif, work, &lw, &iw,
                                            &liw, &inf);
        else
            ((tgsen_r_fn)fns[R_TGSEN][j.t])(&ijob, &yes, &yes, sel, &n,
                                            a->data + o, &n, b->data + o, &n, ar,
                                            ai, pbe, q->data + o, &n, z->data + o,
                                            &n, &mm, pl, pr, dif, work, &lw, &iw,
                                            &liw, &inf);
        if ((rc = raw_info(&j, "tgsen", inf, info, i)) != EM_OK)
            goto done;
        for (lint c = 0; c < n; c++)
            put_eig(j.t, alpha->data + i * n * (int64_t)cs, c, ar, ai);
    }
done:
    return finish(&j, rc, NULL, NULL, NULL, NULL);
}

typedef void (*sytrf_fn)(char *, lint *, void *, lint *, lint *, void *,
                         lint *, lint *, size_t);

em_status em_linalg_sytrf(em_array *a, int lower, int hermitian,
                          em_array *ipiv, em_array *info)
{
    job j;
    em_status rc;
    void *work = NULL;
    lint n, inf = 0, lw = -1;
    char uplo = lower ? 'L' : 'U', qw[32];
    size_t es;
    int r;
    if ((rc = raw_start(&j, "sytrf", a, info)) != EM_OK ||
        (rc = raw_mat(&j, a, ipiv, EM_INT64, 1, j.n, -1, "ipiv")) != EM_OK)
        return rc;
    n = j.n;
    es = t_size[j.t];
    r = hermitian ? R_HETRF : R_SYTRF;
    if (j.batch == 0 || n == 0)
        return EM_OK;
    ((sytrf_fn)fns[r][j.t])(&uplo, &n, NULL, &n, NULL, qw, &lw, &inf, 1);
    if ((rc = raw_pass(&j, 0, "sytrf", inf, info, 0, qw, &lw, &work)) != EM_OK)
        goto done;
    for (int64_t i = 0; i < j.batch; i++) {
        inf = 0;
        ((sytrf_fn)fns[r][j.t])(&uplo, &n, a->data + i * n * n * (int64_t)es, &n,
                                (lint *)(void *)ipiv->data + i * n, work, &lw,
                                &inf, 1);
        if ((rc = raw_info(&j, "sytrf", inf, info, i)) != EM_OK)
            goto done;
    }
done:
    return finish(&j, rc, NULL, NULL, NULL, NULL);
}

typedef void (*trsyl_fn)(char *, char *, lint *, lint *, lint *, const void *,
                         lint *, const void *, lint *, void *, lint *, void *,
                         lint *, size_t, size_t);

em_status em_linalg_trsyl(const em_array *a, const em_array *b, em_array *c,
                          int trana, int tranb, int isgn, em_array *scale,
                          em_array *info)
{
    job j;
    em_status rc;
    lint m, n, sg = isgn < 0 ? -1 : 1, inf = 0;
    const char *ops = "NTC";
    char ta, tb;
    union { double d; float f; } sc; /* LAPACK's real of a's precision */
    size_t es;
    if (trana < 0 || trana > 2 || tranb < 0 || tranb > 2)
        return em_error(EM_ERR_INVALID_VALUE, "trsyl: trana and tranb are 0, "
                        "1 or 2, not %d and %d", trana, tranb);
    if ((rc = start(&j, "trsyl", c, 0)) != EM_OK ||
        (rc = raw_part(&j, c, c, -1, 2, "c")) != EM_OK ||
        (rc = raw_part(&j, c, info, EM_INT32, 0, "info")) != EM_OK)
        return rc;
    n = j.m; /* c is column-major: (n, m) in C order */
    m = j.n;
    if ((rc = raw_mat(&j, c, a, -1, 2, m, m, "a")) != EM_OK ||
        (rc = raw_mat(&j, c, b, -1, 2, n, n, "b")) != EM_OK ||
        (rc = raw_part(&j, c, scale, t_real[j.t], 0, "scale")) != EM_OK)
        return rc;
    if (CPLX(j.t) && (trana == 1 || tranb == 1))
        return em_error(EM_ERR_INVALID_VALUE, "trsyl: complex matrices take "
                        "trana/tranb 0 (N) or 2 (C), not 1 (T)");
    /* a real matrix's conjugate transpose is its transpose */
    ta = ops[trana == 2 && !CPLX(j.t) ? 1 : trana];
    tb = ops[tranb == 2 && !CPLX(j.t) ? 1 : tranb];
    es = t_size[j.t];
    for (int64_t i = 0; i < j.batch; i++) {
        inf = 0;
        if (DBL(j.t))
            sc.d = 1;
        else
            sc.f = 1;
        if (m > 0 && n > 0)
            ((trsyl_fn)fns[R_TRSYL][j.t])(&ta, &tb, &sg, &m, &n,
                                          a->data + i * m * m * (int64_t)es,
                                          &m, b->data + i * n * n * (int64_t)es,
                                          &n, c->data + i * m * n * (int64_t)es,
                                          &m, &sc, &inf, 1, 1);
        if ((rc = raw_info(&j, "trsyl", inf, info, i)) != EM_OK)
            return rc;
        put_real(j.t, scale->data, i, DBL(j.t) ? sc.d : sc.f);
    }
    return EM_OK;
}

typedef void (*gebal_fn)(char *, lint *, void *, lint *, lint *, lint *,
                         void *, lint *, size_t);

em_status em_linalg_gebal(em_array *a, em_array *scale, em_array *info)
{
    job j;
    em_status rc;
    lint n, lo = 0, hi = 0, inf = 0;
    char jb = 'S';
    size_t es;
    if ((rc = raw_start(&j, "gebal", a, info)) != EM_OK ||
        (rc = raw_mat(&j, a, scale, t_real[j.t], 1, j.n, -1, "scale")) != EM_OK)
        return rc;
    n = j.n;
    es = t_size[j.t];
    for (int64_t i = 0; i < j.batch && n > 0; i++) {
        inf = 0;
        ((gebal_fn)fns[R_GEBAL][j.t])(&jb, &n, a->data + i * n * n * (int64_t)es,
                                      &n, &lo, &hi, scale->data +
                                      i * n * (int64_t)t_size[j.t & 1], &inf, 1);
        if ((rc = raw_info(&j, "gebal", inf, info, i)) != EM_OK)
            return rc;
    }
    return EM_OK;
}
