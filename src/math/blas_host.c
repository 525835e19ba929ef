/* ember math: products on the cpu device through OpenBLAS's ?gemm
 * (blas_host.h), laid out by math/gemm_layout.h. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "math/blas_host.h"
#include "math/gemm_layout.h"

typedef int64_t lint;
typedef void (*gemm_fn)(const char *, const char *, const lint *, const lint *,
                        const lint *, const void *, const void *, const lint *,
                        const void *, const lint *, const void *, void *,
                        const lint *, size_t, size_t);
typedef void (*gemv_fn)(const char *, const lint *, const lint *, const void *,
                        const void *, const lint *, const void *, const lint *,
                        const void *, void *, const lint *, size_t);

typedef void (*syrk_fn)(const char *, const char *, const lint *,
                        const lint *, const void *, const void *,
                        const lint *, const void *, void *, const lint *,
                        size_t, size_t);

static pthread_once_t once = PTHREAD_ONCE_INIT;
static gemm_fn gemm[4]; /* s d c z; all NULL without OpenBLAS */
static gemv_fn gemv[4];
static syrk_fn syrk[2]; /* s d; NULL where the library lacks them */

static void load(void)
{
    static const char *const names[8] = {
        "scipy_sgemm_64_", "scipy_dgemm_64_", "scipy_cgemm_64_",
        "scipy_zgemm_64_", "scipy_sgemv_64_", "scipy_dgemv_64_",
        "scipy_cgemv_64_", "scipy_zgemv_64_"};
    void *h, *f[8];
    if (em_vendor_open(EM_VENDOR_OPENBLAS, &h) != EM_OK)
        return; /* the generated kernel serves; em_last_error keeps why */
    for (int i = 0; i < 8; i++)
        if (!(f[i] = dlsym(h, names[i])))
            return;
    for (int i = 0; i < 4; i++) {
        *(void **)&gemm[i] = f[i];
        *(void **)&gemv[i] = f[4 + i];
    }
    *(void **)&syrk[0] = dlsym(h, "scipy_ssyrk_64_");
    *(void **)&syrk[1] = dlsym(h, "scipy_dsyrk_64_");
}

/* X^T X and X X^T of one real operand as ?syrk, as NumPy does: half the
 * multiply-adds of gemm (PCA's covariance), and an exactly symmetric
 * result. syrk writes the upper triangle of column-major c; the loop
 * mirrors it into the lower one. 0 when the product is not of that
 * form. */
static int gram_product(int ti, const em_gemm_layout *L, const void *p,
                         const void *q, void *c, const void *al,
                         const void *be)
{
    const char up = 'U';
    size_t es = ti ? 8 : 4;
    if (ti > 1 || !syrk[ti] || p != q || L->m != L->n ||
        L->lda != L->ldb || L->ta == L->tb)
        return 0;
    /* c = op(p) op(p)^T with op(p) = p ('N', m x k) or p^T ('T') */
    syrk[ti](&up, &L->ta, &L->m, &L->k, al, p, &L->lda, be, c, &L->ldc, 1,
             1);
    for (lint j = 0; j < L->m; j++)
        for (lint i = j + 1; i < L->m; i++)
            memcpy((char *)c + (size_t)(i + j * L->ldc) * es,
                   (const char *)c + (size_t)(j + i * L->ldc) * es, es);
    return 1;
}

/* A product with one row or one column as ?gemv: OpenBLAS's gemm walks
 * such a product as a 1-wide panel, 3 to 6 times slower than gemv on a
 * 2000 x 2000 float64 matrix (NumPy calls gemv there too). L's operands
 * are ga (m x k) and gb (k x n); a column operand's elements sit 1 apart
 * ('N') or ld apart ('T'), and C, stored 'N', likewise. */
static void vector_product(int ti, const em_gemm_layout *L, const void *ga,
                           const void *gb, void *c, const void *al,
                           const void *be)
{
    static const lint one = 1;
    char tr;
    lint rows, cols, inc;
    if (L->n == 1) { /* c = op(ga) gb */
        tr = L->ta == 'N' ? 'N' : 'T';
        rows = L->ta == 'N' ? L->m : L->k;
        cols = L->ta == 'N' ? L->k : L->m;
        inc = L->tb == 'N' ? 1 : L->ldb;
        gemv[ti](&tr, &rows, &cols, al, ga, &L->lda, gb, &inc, be, c, &one, 1);
    } else { /* c^T = op(gb)^T ga^T */
        tr = L->tb == 'N' ? 'T' : 'N';
        rows = L->tb == 'N' ? L->k : L->n;
        cols = L->tb == 'N' ? L->n : L->k;
        inc = L->ta == 'N' ? L->lda : 1;
        gemv[ti](&tr, &rows, &cols, al, gb, &L->ldb, ga, &inc, be, c, &L->ldc,
                 1);
    }
}

/* Below this many multiply-adds the generated kernel (no call overhead,
 * one launch for the whole batch) is faster: on the 2-core development
 * machine a float64 batch of 4x4x4 products took 2.1 ms in the kernel and
 * 4.8 ms as gemm calls, one of 8x8x8 products 1.0 ms and 0.55 ms. */
#define MIN_WORK (8 * 8 * 8)

/* One product's plan and operands: run on the calling thread, or in the
 * stream's order when a capture must record it (em_stream_host_call). */
typedef struct gemm_call {
    int ti;
    const void *A, *B;
    void *C;
    em_gen_mm_geom g;
    em_gemm_layout L;
} gemm_call;

static em_status gemm_run(void *ctx)
{
    static const double one[2] = {1, 0}, zero[2] = {0, 0};
    static const float onef[2] = {1, 0}, zerof[2] = {0, 0};
    const gemm_call *gc = ctx;
    const em_gen_mm_geom *g = &gc->g;
    const em_gemm_layout L = gc->L;
    int ti = gc->ti;
    char ta = L.ta, tb = L.tb;
    lint m = L.m, n = L.n, k = L.k, lda = L.lda, ldb = L.ldb, ldc = L.ldc;
    const void *al = ti & 1 ? (const void *)one : (const void *)onef;
    const void *be = ti & 1 ? (const void *)zero : (const void *)zerof;
    for (long long i = 0; i < g->nbatch; i++) {
        long long r = i;
        const char *a = gc->A, *b = gc->B, *p, *q;
        char *c = gc->C;
        for (int d = (int)g->nbd - 1; d >= 0; d--) {
            long long x = r % g->shape[d];
            r /= g->shape[d];
            a += x * g->sa[d];
            b += x * g->sb[d];
            c += x * g->sc[d];
        }
        p = L.swap ? b : a; /* gemm's first operand, then its second */
        q = L.swap ? a : b;
        if (n == 1 || m == 1)
            vector_product(ti, &L, p, q, c, al, be);
        else if (!gram_product(ti, &L, p, q, c, al, be))
            gemm[ti](&ta, &tb, &m, &n, &k, al, p, &lda, q, &ldb, be, c, &ldc,
                     1, 1);
    }
    return EM_OK;
}

em_status em_host_gemm(em_dtype t, const void *A, const void *B, void *C,
                       const em_gen_mm_geom *g, em_stream *s, int *done)
{
    int ti;
    int64_t es;
    em_gemm_layout L;
    gemm_call call;
    em_status rc;

    *done = 0;
    if ((ti = em_dtype_get(t) ? em_dtype_get(t)->blas : -1) < 0)
        return EM_OK;
    es = (int64_t)em_dtype_size(t);
    if (g->M <= 0 || g->N <= 0 || g->K <= 0 || g->nbatch <= 0 ||
        (double)g->M * (double)g->N * (double)g->K < MIN_WORK ||
        ((uintptr_t)A | (uintptr_t)B | (uintptr_t)C) % (uintptr_t)(es > 8 ? 8 : es))
        return EM_OK;
    for (int d = 0; d < g->nbd; d++)
        if (g->sa[d] < 0 || g->sb[d] < 0 || g->sc[d] < 0)
            return EM_OK;
    if (!em_gemm_plan(g, es, &L))
        return EM_OK;
    pthread_once(&once, load);
    if (!gemm[ti])
        return EM_OK;
    call.ti = ti;
    call.A = A;
    call.B = B;
    call.C = C;
    call.g = *g;
    call.L = L;
    /* A capture records the product as stream work, replayed in order. */
    if (em_stream_is_capturing(s)) {
        rc = em_stream_host_call(s, gemm_run, &call, sizeof call);
        *done = rc == EM_OK;
        return rc;
    }
    /* gemm runs here, on this thread: what the stream still has queued
     * (a created host stream's thread; the default stream's wait for the
     * blocking ones) comes first. */
    if ((rc = em_stream_synchronize(s)) != EM_OK)
        return rc;
    rc = gemm_run(&call);
    *done = rc == EM_OK;
    return rc;
}
