/* ember math: products on CUDA devices through cuBLAS (blas_cuda.h),
 * opened at run time and laid out by math/gemm_layout.h. cuBLAS's types
 * are declared here from its documented ABI, so ember builds without
 * CUDA's headers. One handle a device (math/lib_handle.h). */
#include <pthread.h>
#include <stddef.h>
#include <string.h>

#include "math/blas_cuda.h"
#include "math/gemm_layout.h"
#include "math/lib_handle.h"
#include "ember/runtime.h"
#include "ember/util.h"

typedef void *cublas_handle;
/* cublasComputeType_t values (cublas_api.h); the cudaDataType of each
 * dtype is in the dtype table */
enum { COMPUTE_32F = 68, COMPUTE_32F_FAST_TF32 = 77, COMPUTE_64F = 70,
       GEMM_DEFAULT = -1 };

typedef struct cublas_fns {
    int (*create)(cublas_handle *);
    int (*set_stream)(cublas_handle, void *);
    int (*gemm)(cublas_handle, int, int, int, int, int, const void *,
                const void *, int, int, long long, const void *, int, int,
                long long, const void *, void *, int, int, long long, int,
                int, int);
} cublas_fns;

static cublas_fns cu;

static const em_vendor_sym syms[] = {
    {"cublasCreate_v2", offsetof(cublas_fns, create)},
    {"cublasSetStream_v2", offsetof(cublas_fns, set_stream)},
    {"cublasGemmStridedBatchedEx", offsetof(cublas_fns, gemm)},
};

static em_vendor_lazy lib = EM_VENDOR_LAZY(EM_VENDOR_CUBLAS, syms, &cu);

static em_status create(em_lib_handle *slot)
{
    int r = cu.create(&slot->h);
    if (r == 0)
        return EM_OK;
    slot->h = NULL;
    /* cublasStatus_t 3 is CUBLAS_STATUS_ALLOC_FAILED */
    return em_error_native(r == 3 ? EM_ERR_OUT_OF_MEMORY : EM_ERR_CUDA, r,
                           "cublasStatus_t", "cublasCreate failed (%d)", r);
}

static em_status bind(void *h, void *stream)
{
    int r = cu.set_stream(h, stream);
    return r == 0 ? EM_OK : em_error_native(EM_ERR_CUDA, r, "cublasStatus_t",
                                            "cublasSetStream failed (%d)", r);
}

static em_lib_handles handles = EM_LIB_HANDLES_INIT("cuBLAS", create, bind);

/* The batch axes as one uniform stride per operand (A, B, C in st), or 0
 * when they are not: each axis's stride is the next inner one's times its
 * extent (axes of extent 1 aside). A broadcast operand's strides are all
 * 0, which cuBLAS takes. */
static int uniform_batch(const em_gen_mm_geom *g, long long st[3])
{
    const long long *s[3] = {g->sa, g->sb, g->sc};
    for (int o = 0; o < 3; o++) {
        long long inner = 0, span = 0;
        int have = 0;
        for (int d = (int)g->nbd - 1; d >= 0; d--) {
            if (g->shape[d] == 1)
                continue;
            if (have && s[o][d] != span)
                return 0;
            if (!have)
                inner = s[o][d];
            have = 1;
            span = s[o][d] * g->shape[d];
        }
        st[o] = inner;
    }
    return 1;
}

em_status em_cuda_gemm(em_dtype t, const void *A, const void *B, void *C,
                       const em_gen_mm_geom *g, int tf32, em_stream *s,
                       int *done)
{
    static const double one[2] = {1, 0}, zero[2] = {0, 0};
    static const float onef[2] = {1, 0}, zerof[2] = {0, 0};
    em_gemm_layout L;
    em_lib_handle *dh;
    long long st[3], nb = g->nbatch;
    const em_dtype_info *ti;
    int type, compute, r;
    int64_t es = (int64_t)em_dtype_size(t);
    em_status rc;

    *done = 0;
    if (!(ti = em_dtype_get(t)) || ti->cuda_type < 0)
        return EM_OK;
    type = ti->cuda_type;
    /* double and complex128 (BLAS's d and z) accumulate in double */
    compute = ti->blas == 1 || ti->blas == 3 ? COMPUTE_64F : COMPUTE_32F;
    if (t == EM_FLOAT32 || t == EM_COMPLEX64) {
        /* read at each call, as the configuration variables are */
        const char *tf = tf32 ? NULL : em_knob_text(EM_KNOB_TF32);
        if (tf32 || (tf && !strcmp(tf, "1")))
            compute = COMPUTE_32F_FAST_TF32;
    }
    if (g->M <= 0 || g->N <= 0 || g->K <= 0 || g->nbatch <= 0 ||
        (g->M == 1 && g->N == 1) ||
        ((uintptr_t)A | (uintptr_t)B | (uintptr_t)C) % (uintptr_t)(es > 8 ? 8 : es) ||
        !s || !em_gemm_plan(g, es, &L) || !uniform_batch(g, st))
        return EM_OK;
    if (L.m > INT32_MAX || L.n > INT32_MAX || L.k > INT32_MAX ||
        L.lda > INT32_MAX || L.ldb > INT32_MAX || L.ldc > INT32_MAX ||
        nb > INT32_MAX || st[0] % es || st[1] % es || st[2] % es ||
        st[0] < 0 || st[1] < 0 || (st[2] <= 0 && nb > 1))
        return EM_OK;
    /* without cuBLAS the generated kernel serves; ember info says why */
    if (em_vendor_ready(&lib) != EM_OK)
        return EM_OK;
    if ((rc = em_lib_handle_take(&handles, s, &dh)) != EM_OK)
        return rc;
    {
        /* alpha and beta in the compute type's precision */
        const void *al = compute == COMPUTE_64F ? (const void *)one
                                                : (const void *)onef;
        const void *be = compute == COMPUTE_64F ? (const void *)zero
                                                : (const void *)zerof;
        const void *a1 = L.swap ? B : A, *b1 = L.swap ? A : B;
        long long s1 = L.swap ? st[1] : st[0], s2 = L.swap ? st[0] : st[1];
        r = cu.gemm(dh->h, L.ta == 'T', L.tb == 'T', (int)L.m, (int)L.n,
                    (int)L.k, al, a1, type, (int)L.lda, s1 / es, b1, type,
                    (int)L.ldb, s2 / es, be, C, type, (int)L.ldc, st[2] / es,
                    (int)nb, compute, GEMM_DEFAULT);
    }
    if (r != 0)
        rc = em_error_native(EM_ERR_CUDA, r, "cublasStatus_t",
                             "cublasGemmStridedBatchedEx(%lld x %lld x %lld, "
                             "batch %lld, %s) failed (%d)", (long long)L.m,
                             (long long)L.n, (long long)L.k, nb,
                             em_dtype_get(t)->name, r);
    else
        *done = 1;
    em_lib_handle_give(dh);
    return rc;
}
