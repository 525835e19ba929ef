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

static pthread_once_t once = PTHREAD_ONCE_INIT;
static gemm_fn gemm[4]; /* s d c z; all NULL without OpenBLAS */

static void load(void)
{
    static const char *const names[4] = {"scipy_sgemm_64_", "scipy_dgemm_64_",
                                         "scipy_cgemm_64_", "scipy_zgemm_64_"};
    void *h, *f[4];
    if (em_vendor_open(EM_VENDOR_OPENBLAS, &h) != EM_OK)
        return; /* the generated kernel serves; em_last_error keeps why */
    for (int i = 0; i < 4; i++)
        if (!(f[i] = dlsym(h, names[i])))
            return;
    for (int i = 0; i < 4; i++)
        *(void **)&gemm[i] = f[i];
}

/* Below this many multiply-adds the generated kernel (no call overhead,
 * one launch for the whole batch) is faster: on the 2-core development
 * machine a float64 batch of 4x4x4 products took 2.1 ms in the kernel and
 * 4.8 ms as gemm calls, one of 8x8x8 products 1.0 ms and 0.55 ms. */
#define MIN_WORK (8 * 8 * 8)

em_status em_host_gemm(em_dtype t, const void *A, const void *B, void *C,
                       const em_gen_mm_geom *g, em_stream *s, int *done)
{
    static const double one[2] = {1, 0}, zero[2] = {0, 0};
    static const float onef[2] = {1, 0}, zerof[2] = {0, 0};
    int ti;
    int64_t es;
    em_gemm_layout L;
    char ta, tb;
    lint m, n, k, lda, ldb, ldc;
    const void *al, *be;
    em_status rc;

    *done = 0;
    switch (t) {
    case EM_FLOAT32: ti = 0; break;
    case EM_FLOAT64: ti = 1; break;
    case EM_COMPLEX64: ti = 2; break;
    case EM_COMPLEX128: ti = 3; break;
    default: return EM_OK;
    }
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
    ta = L.ta;
    tb = L.tb;
    m = L.m;
    n = L.n;
    k = L.k;
    lda = L.lda;
    ldb = L.ldb;
    ldc = L.ldc;
    pthread_once(&once, load);
    if (!gemm[ti])
        return EM_OK;
    /* gemm runs here, on this thread: what the stream still has queued
     * (a created host stream's thread; the default stream's wait for the
     * blocking ones) comes first. */
    if ((rc = em_stream_synchronize(s)) != EM_OK)
        return rc;
    al = ti & 1 ? (const void *)one : (const void *)onef;
    be = ti & 1 ? (const void *)zero : (const void *)zerof;
    for (long long i = 0; i < g->nbatch; i++) {
        long long r = i;
        const char *a = A, *b = B;
        char *c = C;
        for (int d = (int)g->nbd - 1; d >= 0; d--) {
            long long x = r % g->shape[d];
            r /= g->shape[d];
            a += x * g->sa[d];
            b += x * g->sb[d];
            c += x * g->sc[d];
        }
        if (!L.swap)
            gemm[ti](&ta, &tb, &m, &n, &k, al, a, &lda, b, &ldb, be, c, &ldc,
                     1, 1);
        else
            gemm[ti](&ta, &tb, &m, &n, &k, al, b, &lda, a, &ldb, be, c, &ldc,
                     1, 1);
    }
    *done = 1;
    return EM_OK;
}
