/* ember C tests of LAPACK (test_lapack, test_lapack_schur): small arrays
 * on the cpu from hand-written values, and the scipy-openblas64 wheel
 * found before any LAPACK call (a vendor library is looked for once). */
#ifndef EMBER_LAPACK_CHECK_H
#define EMBER_LAPACK_CHECK_H

#include <glob.h>

#include "check.h"

static em_device *dev;

/* A zeroed C-ordered array on dev, its first elements from vals (NULL:
 * none) for the real dtypes the tests write. */
static void make(em_array *a, em_dtype t, int nd, const int64_t *shape,
                 const double *vals)
{
    int64_t n = 1;
    CHECK_OK(em_array_empty(dev, t, nd, shape, 'C', NULL, a));
    if (!a->data)
        return;
    for (int i = 0; i < nd; i++)
        n *= shape[i];
    memset(a->data, 0, (size_t)n * em_dtype_size(t));
    for (int64_t i = 0; i < n && vals; i++) {
        if (t == EM_FLOAT64)
            ((double *)a->data)[i] = vals[i];
        else if (t == EM_FLOAT32)
            ((float *)a->data)[i] = (float)vals[i];
        else if (t == EM_INT32)
            ((int32_t *)a->data)[i] = (int32_t)vals[i];
        else if (t == EM_INT64)
            ((int64_t *)a->data)[i] = (int64_t)vals[i];
    }
}

/* The wheel's folder: $EMBER_TEST_OPENBLAS, then the checkout's .venv,
 * whose root is this file's path as the build gave it. */
static void add_dirs(void)
{
    const char *env = getenv("EMBER_TEST_OPENBLAS");
    const char *tail = strstr(__FILE__, "tests/c/");
    char pat[4096];
    glob_t g;
    if (env && *env)
        em_vendor_add_dir(env);
    snprintf(pat, sizeof pat, "%.*s.venv/lib/python3*/site-packages/"
             "scipy_openblas64/lib", tail ? (int)(tail - __FILE__) : 0,
             __FILE__);
    if (glob(pat, 0, NULL, &g) == 0) {
        for (size_t k = 0; k < g.gl_pathc; k++)
            em_vendor_add_dir(g.gl_pathv[k]);
        globfree(&g);
    }
}

/* Whether OpenBLAS opens (after add_dirs); if not, the LAPACK calls are
 * skipped and the message must name the pip package. */
static int find_openblas(void)
{
    void *h;
    int found = em_vendor_open(EM_VENDOR_OPENBLAS, &h) == EM_OK;
    if (!found) {
        CHECK(strstr(em_last_error(), "pip install scipy-openblas64") != NULL);
        printf("SKIP the LAPACK calls: %s\n", em_last_error());
    }
    return found;
}

#endif
