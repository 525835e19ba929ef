/* ember math (internal): how a product em_gen_mm_geom describes maps onto
 * a column-major ?gemm call, shared by the cpu's OpenBLAS (blas_host.c)
 * and CUDA's cuBLAS (blas_cuda.c). gemm is column-major; a C-ordered
 * result is computed as its transpose, C^T = B^T A^T, so either order of C
 * costs no copy, and each operand is passed as stored, 'N' or 'T' by
 * which of its axes is contiguous. */
#ifndef EMBER_MATH_GEMM_LAYOUT_H
#define EMBER_MATH_GEMM_LAYOUT_H

#include "codegen/matmul.h"

typedef struct em_gemm_layout {
    int swap;            /* C row-major: gemm's A is our B, its B our A */
    char ta, tb;         /* 'N' or 'T' for gemm's first and second operand */
    int64_t m, n, k, lda, ldb, ldc;
} em_gemm_layout;

/* How gemm reads a rows x cols matrix with byte strides rs, cs and
 * elements of es bytes: column-major as is ('N', leading dimension cs), or
 * the transpose of a column-major cols x rows one ('T', leading dimension
 * rs). 0 if neither fits. An axis of extent 1 takes any stride. */
static inline int em_gemm_operand(int64_t rows, int64_t cols, int64_t rs,
                                  int64_t cs, int64_t es, char *trans,
                                  int64_t *ld)
{
    if (rs < 0 || cs < 0 || rs % es || cs % es)
        return 0;
    if (rows == 1 || rs == es) {
        int64_t l = cols == 1 ? rows : cs / es;
        if (l >= rows && l >= 1) {
            *trans = 'N';
            *ld = l;
            return 1;
        }
    }
    if (cols == 1 || cs == es) {
        int64_t l = rows == 1 ? cols : rs / es;
        if (l >= cols && l >= 1) {
            *trans = 'T';
            *ld = l;
            return 1;
        }
    }
    return 0;
}

/* The gemm call of g's matrices (batch axes aside), or 0 where gemm
 * cannot read them as stored. */
static inline int em_gemm_plan(const em_gen_mm_geom *g, int64_t es,
                               em_gemm_layout *L)
{
    char tc;
    if (em_gemm_operand(g->M, g->N, g->cm, g->cn, es, &tc, &L->ldc) && tc == 'N')
        L->swap = 0;
    else if (em_gemm_operand(g->N, g->M, g->cn, g->cm, es, &tc, &L->ldc) &&
             tc == 'N')
        L->swap = 1;
    else
        return 0;
    L->k = g->K;
    if (!L->swap) {
        L->m = g->M;
        L->n = g->N;
        return em_gemm_operand(g->M, g->K, g->am, g->ak, es, &L->ta, &L->lda) &&
               em_gemm_operand(g->K, g->N, g->bk, g->bn, es, &L->tb, &L->ldb);
    }
    L->m = g->N;
    L->n = g->M;
    return em_gemm_operand(g->N, g->K, g->bn, g->bk, es, &L->ta, &L->lda) &&
           em_gemm_operand(g->K, g->M, g->ak, g->am, es, &L->tb, &L->ldb);
}

#endif
