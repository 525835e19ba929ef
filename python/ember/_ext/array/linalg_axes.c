/* ember Python extension: matmul(a, b, axes=[(i, j), (k, l), (m, n)]), the
 * axes= of NumPy's matmul gufunc: which axes of each operand (and of the
 * result) hold the matrices. The core axes are moved to the end (views),
 * the product is the plain one, and the result's core axes are moved to
 * where axes says (a view of it, as NumPy's result is laid out). */
#include <string.h>
#include "runtime/module.h"
#include "runtime/errors.h"
#include "array/ndarray.h"
#include "array/manip_args.h"

/* Entry e of axes= for an operand of ndim dims with ncore core dims:
 * ncore axes, made non-negative. An int stands for a 1-tuple. */
static int core_axes(empy_state *st, PyObject *e, int ndim, int ncore, int *core,
                     const char *what)
{
    int64_t v[EM_MAX_NDIM];
    int n, i;
    if (empy_shape_arg(e, "axes", &n, v) < 0)
        return -1;
    if (n != ncore) {
        PyErr_Format(PyExc_ValueError, "matmul: axes item for %s should be a tuple with "
                     "%d elements, not %d", what, ncore, n);
        return -1;
    }
    for (i = 0; i < n; i++) {
        if (manip_axis(st, v[i], ndim, &core[i]) < 0)
            return -1;
        if (i && core[i] == core[0]) {
            PyErr_SetString(PyExc_ValueError, "matmul: repeated axis in axes");
            return -1;
        }
    }
    return 0;
}

/* The permutation putting the core axes last (to_end) or, inversely,
 * taking the last ncore axes to the core positions. */
static void core_perm(int ndim, const int *core, int ncore, int to_end, int *perm)
{
    unsigned char is_core[EM_MAX_NDIM] = {0};
    int i, k = 0;
    for (i = 0; i < ncore; i++)
        is_core[core[i]] = 1;
    if (to_end) {
        for (i = 0; i < ndim; i++)
            if (!is_core[i])
                perm[k++] = i;
        for (i = 0; i < ncore; i++)
            perm[k++] = core[i];
        return;
    }
    for (i = 0; i < ndim; i++) {
        if (is_core[i]) {
            int j;
            for (j = 0; core[j] != i; j++)
                ;
            perm[i] = ndim - ncore + j;
        } else {
            perm[i] = k++;
        }
    }
}

static PyObject *permuted(empy_state *st, PyObject *a, const int *perm)
{
    em_array v;
    em_status rc = em_array_transpose(EMPY_ARR(a), perm, &v);
    if (rc != EM_OK)
        return empy_raise(st, rc);
    return empy_ndarray_new(st, &v, a);
}

PyObject *empy_matmul_axes(empy_state *st, PyObject *a_o, PyObject *b_o, PyObject *out,
                           PyObject *dtype, PyObject *axes)
{
    PyObject *a = NULL, *b = NULL, *seq = NULL, *am = NULL, *bm = NULL, *om = NULL,
             *r = NULL, *res = NULL;
    int ca[2], cb[2], co[2], na, nb, no, perm[EM_MAX_NDIM], nd;
    Py_ssize_t n;
    if (!(a = empy_asarray(st, a_o, -1, NULL, EMPY_COPY_IF_NEEDED, 'K')) ||
        !(b = empy_asarray(st, b_o, -1, EMPY_ARR(a)->device, EMPY_COPY_IF_NEEDED, 'K')))
        goto done;
    na = EMPY_ARR(a)->ndim < 2 ? 1 : 2;
    nb = EMPY_ARR(b)->ndim < 2 ? 1 : 2;
    no = (na == 2) + (nb == 2);
    if (EMPY_ARR(a)->ndim == 0 || EMPY_ARR(b)->ndim == 0) {
        PyErr_SetString(PyExc_ValueError, "matmul: Input operand does not have enough "
                        "dimensions");
        goto done;
    }
    if (!(seq = PySequence_Fast(axes, "matmul: axes must be a list of tuples")))
        goto done;
    n = PySequence_Fast_GET_SIZE(seq);
    if (n != 3 && !(n == 2 && no == 0)) {
        PyErr_Format(PyExc_ValueError, "matmul: axes should be a list with an entry for "
                     "each operand and the output (3), not %zd", n);
        goto done;
    }
    if (core_axes(st, PySequence_Fast_GET_ITEM(seq, 0), EMPY_ARR(a)->ndim, na, ca,
                  "operand 0") < 0 ||
        core_axes(st, PySequence_Fast_GET_ITEM(seq, 1), EMPY_ARR(b)->ndim, nb, cb,
                  "operand 1") < 0)
        goto done;
    core_perm(EMPY_ARR(a)->ndim, ca, na, 1, perm);
    if (!(am = permuted(st, a, perm)))
        goto done;
    core_perm(EMPY_ARR(b)->ndim, cb, nb, 1, perm);
    if (!(bm = permuted(st, b, perm)))
        goto done;
    if (out && out != Py_None) {
        /* out in the axes' layout: viewed with its core axes last, the
         * product writes straight into it. */
        if (!empy_is_ndarray(out)) {
            PyErr_Format(PyExc_TypeError, "out must be an ember array, not %.100s",
                         Py_TYPE(out)->tp_name);
            goto done;
        }
        nd = EMPY_ARR(out)->ndim;
        if (no && core_axes(st, PySequence_Fast_GET_ITEM(seq, 2), nd, no, co, "the output")
                < 0)
            goto done;
        core_perm(nd, co, no, 1, perm);
        if (!(om = permuted(st, out, perm)) || !(res = empy_matmul(st, am, bm, om, dtype)))
            goto done;
        r = Py_NewRef(out);
        goto done;
    }
    if (!(res = empy_matmul(st, am, bm, NULL, dtype)))
        goto done;
    if (!no) {
        r = Py_NewRef(res);
        goto done;
    }
    nd = EMPY_ARR(res)->ndim;
    if (core_axes(st, PySequence_Fast_GET_ITEM(seq, 2), nd, no, co, "the output") < 0)
        goto done;
    core_perm(nd, co, no, 0, perm);
    r = permuted(st, res, perm);
done:
    Py_XDECREF(a);
    Py_XDECREF(b);
    Py_XDECREF(seq);
    Py_XDECREF(am);
    Py_XDECREF(bm);
    Py_XDECREF(om);
    Py_XDECREF(res);
    return r;
}
