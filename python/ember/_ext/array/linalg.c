/* ember Python extension: products (dot, matmul, ...), cumulative sums and
 * the `ember.linalg` namespace, over include/ember/linalg.h.
 *
 * Operands follow the ufuncs' rule: ember arrays stay where they are,
 * sequences and scalars go to the ember operands' device, host arrays of
 * other libraries are never moved to a GPU behind the caller's back. */
#include "runtime/errors.h"
#include "array/ndarray.h"

/* ---- arguments -------------------------------------------------------------
 */

/* o as an ndarray on dev (a new reference), dev chosen by the caller. */
static PyObject *operand(empy_state *st, PyObject *o, em_device *dev)
{
    if (empy_is_ndarray(o)) {
        Py_INCREF(o);
        return o;
    }
    if (em_device_get_type(dev) != EM_DEVICE_CPU && !PyList_Check(o) &&
        !PyTuple_Check(o) && !PyLong_Check(o) && !PyFloat_Check(o) &&
        !PyComplex_Check(o) && !PyBool_Check(o) &&
        !PyObject_HasAttr(o, st->s_cai)) {
        PyErr_Format(PyExc_TypeError,
                     "an operand of type %.100s is in host memory and the "
                     "operation runs on %s; ember copies between devices only "
                     "when asked: use ember.asarray(x, device='%s')",
                     Py_TYPE(o)->tp_name, em_device_name(dev),
                     em_device_name(dev));
        return NULL;
    }
    return empy_asarray(st, o, -1, dev, EMPY_COPY_IF_NEEDED, 'K');
}

/* out= : None or an ndarray. */
static int out_arg(PyObject *o, PyObject **out)
{
    *out = NULL;
    if (!o || o == Py_None)
        return 0;
    if (PyTuple_Check(o) && PyTuple_GET_SIZE(o) == 1)
        o = PyTuple_GET_ITEM(o, 0);
    if (!empy_is_ndarray(o)) {
        PyErr_Format(PyExc_TypeError,
                     "out= must be an ember.ndarray, not %.100s",
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    *out = o;
    return 0;
}

/* Both operands as ndarrays on one device (new references). */
static int operands(empy_state *st, PyObject *a, PyObject *b, PyObject *out,
                    PyObject **ra, PyObject **rb)
{
    em_device *dev = NULL;
    *ra = *rb = NULL;
    if (empy_is_ndarray(a))
        dev = EMPY_ARR(a)->device;
    else if (empy_is_ndarray(b))
        dev = EMPY_ARR(b)->device;
    else if (out)
        dev = EMPY_ARR(out)->device;
    else if (empy_device_arg(st, Py_None, &dev) < 0)
        return -1;
    if (!(*ra = operand(st, a, dev)))
        return -1;
    if (!(*rb = operand(st, b, dev))) {
        Py_CLEAR(*ra);
        return -1;
    }
    return 0;
}

static int dtype_opt(empy_state *st, PyObject *o, int *has, em_dtype *d)
{
    *has = 0;
    if (!o || o == Py_None)
        return 0;
    if (empy_dtype_arg(st, o, d) < 0)
        return -1;
    *has = 1;
    return 0;
}

/* The call's result: out itself, or a new ndarray holding res. */
static PyObject *finish(empy_state *st, em_status s, em_array *res,
                        PyObject *out)
{
    if (s != EM_OK) {
        PyObject *r = empy_raise(st, s);
        em_array_release(res); /* out's reference, when out was given */
        return r;
    }
    if (out) {
        em_array_release(res);
        Py_INCREF(out);
        return out;
    }
    return empy_ndarray_new(st, res, NULL);
}

typedef em_status (*pair_fn)(const em_array *, const em_array *, em_array *,
                             em_stream *);

static PyObject *call_pair(empy_state *st, pair_fn fn, PyObject *a, PyObject *b,
                           PyObject *out_obj)
{
    PyObject *ra, *rb, *out, *r;
    em_array res = {0};
    em_status s;
    if (out_arg(out_obj, &out) < 0 || operands(st, a, b, out, &ra, &rb) < 0)
        return NULL;
    if (out)
        em_array_retain(EMPY_ARR(out), &res);
    EMPY_NOGIL(s, fn(EMPY_ARR(ra), EMPY_ARR(rb), &res, NULL));
    r = finish(st, s, &res, out);
    Py_DECREF(ra);
    Py_DECREF(rb);
    return r;
}

/* ---- products --------------------------------------------------------------
 */

PyObject *empy_matmul(empy_state *st, PyObject *a, PyObject *b, PyObject *out_obj,
                      PyObject *dtype_obj)
{
    PyObject *ra, *rb, *out, *r;
    em_array res = {0};
    em_product_args args = {0};
    em_status s;
    if (out_arg(out_obj, &out) < 0 ||
        dtype_opt(st, dtype_obj, &args.has_dtype, &args.dtype) < 0 ||
        operands(st, a, b, out, &ra, &rb) < 0)
        return NULL;
    if (out)
        em_array_retain(EMPY_ARR(out), &res);
    EMPY_NOGIL(s, em_matmul(EMPY_ARR(ra), EMPY_ARR(rb), &args, &res, NULL));
    r = finish(st, s, &res, out);
    Py_DECREF(ra);
    Py_DECREF(rb);
    return r;
}

static PyObject *la_matmul(PyObject *m, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"", "", "out", "dtype", "casting", "axes", NULL};
    PyObject *a, *b, *out = NULL, *dtype = NULL, *axes = NULL;
    const char *casting = "same_kind";
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|O$OsO:matmul", kwlist, &a, &b,
                                     &out, &dtype, &casting, &axes))
        return NULL;
    if (strcmp(casting, "same_kind")) {
        PyErr_Format(PyExc_ValueError,
                     "matmul: casting='%s' is not supported (only "
                     "'same_kind')",
                     casting);
        return NULL;
    }
    if (axes && axes != Py_None)   /* linalg_axes.c */
        return empy_matmul_axes(empy_state_of_module(m), a, b, out, dtype, axes);
    return empy_matmul(empy_state_of_module(m), a, b, out, dtype);
}

static PyObject *la_dot(PyObject *m, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"a", "b", "out", NULL};
    PyObject *a, *b, *out = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|O:dot", kwlist, &a, &b,
                                     &out))
        return NULL;
    return call_pair(empy_state_of_module(m), em_dot, a, b, out);
}

static PyObject *la_vdot(PyObject *m, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"a", "b", NULL};
    PyObject *a, *b;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO:vdot", kwlist, &a, &b))
        return NULL;
    return call_pair(empy_state_of_module(m), em_vdot, a, b, NULL);
}

static PyObject *la_inner(PyObject *m, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"a", "b", NULL};
    PyObject *a, *b;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO:inner", kwlist, &a, &b))
        return NULL;
    return call_pair(empy_state_of_module(m), em_inner, a, b, NULL);
}

static PyObject *la_outer(PyObject *m, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"a", "b", "out", NULL};
    PyObject *a, *b, *out = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|O:outer", kwlist, &a, &b,
                                     &out))
        return NULL;
    return call_pair(empy_state_of_module(m), em_outer, a, b, out);
}

/* One axis list of tensordot's axes=: an int or a sequence of ints. */
static int axes_list(PyObject *o, int *ax, int *n)
{
    PyObject *seq;
    if (PyLong_Check(o) || PyIndex_Check(o)) {
        long v = PyLong_AsLong(o);
        if (v == -1 && PyErr_Occurred())
            return -1;
        ax[0] = (int)v;
        *n = 1;
        return 0;
    }
    seq = PySequence_Fast(o, "tensordot: axes must be an int or a pair of "
                             "sequences of ints");
    if (!seq)
        return -1;
    *n = (int)PySequence_Fast_GET_SIZE(seq);
    if (*n > EM_MAX_NDIM) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "tensordot: too many axes");
        return -1;
    }
    for (int i = 0; i < *n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        ax[i] = (int)v;
    }
    Py_DECREF(seq);
    return 0;
}

static PyObject *la_tensordot(PyObject *m, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"a", "b", "axes", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *a, *b, *axes = NULL, *ra, *rb, *r;
    int axa[EM_MAX_NDIM], axb[EM_MAX_NDIM], na = 0, nb = 0;
    em_array res = {0};
    em_status s;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|O:tensordot", kwlist, &a, &b,
                                     &axes))
        return NULL;
    if (operands(st, a, b, NULL, &ra, &rb) < 0)
        return NULL;
    if (!axes || PyLong_Check(axes)) {
        /* axes=n: the last n of a with the first n of b. */
        long n = axes ? PyLong_AsLong(axes) : 2;
        int nda = EMPY_ARR(ra)->ndim;
        if (n == -1 && PyErr_Occurred())
            goto fail;
        if (n < 0 || n > nda || n > EMPY_ARR(rb)->ndim) {
            PyErr_Format(PyExc_ValueError,
                         "tensordot: axes=%ld is out of range for operands of "
                         "%d and %d dimensions",
                         n, nda, EMPY_ARR(rb)->ndim);
            goto fail;
        }
        na = nb = (int)n;
        for (int i = 0; i < na; i++) {
            axa[i] = nda - na + i;
            axb[i] = i;
        }
    } else {
        PyObject *seq = PySequence_Fast(axes, "tensordot: axes must be an "
                                              "int or a pair of sequences");
        int rc;
        if (!seq)
            goto fail;
        if (PySequence_Fast_GET_SIZE(seq) != 2) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError,
                            "tensordot: axes must be an int or a pair of "
                            "sequences of ints");
            goto fail;
        }
        rc = axes_list(PySequence_Fast_GET_ITEM(seq, 0), axa, &na);
        if (rc == 0)
            rc = axes_list(PySequence_Fast_GET_ITEM(seq, 1), axb, &nb);
        Py_DECREF(seq);
        if (rc < 0)
            goto fail;
        if (na != nb) {
            PyErr_SetString(PyExc_ValueError, "shape-mismatch for sum");
            goto fail;
        }
    }
    EMPY_NOGIL(
        s, em_tensordot(EMPY_ARR(ra), EMPY_ARR(rb), na, axa, axb, &res, NULL));
    r = finish(st, s, &res, NULL);
    Py_DECREF(ra);
    Py_DECREF(rb);
    return r;
fail:
    Py_DECREF(ra);
    Py_DECREF(rb);
    return NULL;
}

static PyObject *la_vecdot(PyObject *m, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"", "", "axis", "out", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *a, *b, *out_obj = NULL, *out, *ra, *rb, *r;
    int axis = -1;
    em_array res = {0};
    em_status s;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|$iO:vecdot", kwlist, &a, &b,
                                     &axis, &out_obj))
        return NULL;
    if (out_arg(out_obj, &out) < 0 || operands(st, a, b, out, &ra, &rb) < 0)
        return NULL;
    if (out)
        em_array_retain(EMPY_ARR(out), &res);
    EMPY_NOGIL(s, em_vecdot(EMPY_ARR(ra), EMPY_ARR(rb), axis, &res, NULL));
    r = finish(st, s, &res, out);
    Py_DECREF(ra);
    Py_DECREF(rb);
    return r;
}

static PyObject *la_matrix_transpose(PyObject *m, PyObject *x)
{
    empy_state *st = empy_state_of_module(m);
    em_array v = {0};
    const em_array *a;
    int perm[EM_MAX_NDIM];
    em_status s;
    if (!empy_is_ndarray(x)) {
        PyErr_Format(PyExc_TypeError,
                     "matrix_transpose: expected an ember.ndarray, not "
                     "%.100s",
                     Py_TYPE(x)->tp_name);
        return NULL;
    }
    a = EMPY_ARR(x);
    if (a->ndim < 2) {
        PyErr_Format(PyExc_ValueError,
                     "Input array must be at least 2-dimensional, but it is "
                     "%d",
                     a->ndim);
        return NULL;
    }
    for (int i = 0; i < a->ndim; i++)
        perm[i] = i;
    perm[a->ndim - 2] = a->ndim - 1;
    perm[a->ndim - 1] = a->ndim - 2;
    if ((s = em_array_transpose(a, perm, &v)) != EM_OK)
        return empy_raise(st, s);
    return empy_ndarray_new(st, &v, x);
}

/* ---- cumulative sums ---------------------------------------------------- */

static PyObject *do_cumulate(empy_state *st, em_cumulate_op op, PyObject *x,
                             PyObject *axis_obj, PyObject *dtype_obj,
                             PyObject *out_obj)
{
    PyObject *ra, *out, *r;
    em_device *dev = NULL;
    int has = 0, flatten = 1, axis = 0;
    em_dtype dt = EM_BOOL;
    em_array res = {0};
    em_status s;
    if (out_arg(out_obj, &out) < 0 || dtype_opt(st, dtype_obj, &has, &dt) < 0)
        return NULL;
    if (axis_obj && axis_obj != Py_None) {
        long v = PyBool_Check(axis_obj) ? -1 : PyLong_AsLong(axis_obj);
        if (PyBool_Check(axis_obj))     /* NumPy: not an axis */
            PyErr_SetString(PyExc_TypeError, "an integer is required for the axis");
        if (v == -1 && PyErr_Occurred()) {
            if (PyErr_ExceptionMatches(PyExc_TypeError)) {
                PyErr_Clear();
                PyErr_Format(PyExc_TypeError,
                             "%s: axis must be an int or None, not %.100s",
                             em_cumulate_name(op), Py_TYPE(axis_obj)->tp_name);
            }
            return NULL;
        }
        if (v < INT_MIN || v > INT_MAX)
            v = INT_MAX;
        axis = (int)v;
        flatten = 0;
    }
    if (empy_is_ndarray(x))
        dev = EMPY_ARR(x)->device;
    else if (out)
        dev = EMPY_ARR(out)->device;
    else if (empy_device_arg(st, Py_None, &dev) < 0)
        return NULL;
    if (!(ra = operand(st, x, dev)))
        return NULL;
    if (out)
        em_array_retain(EMPY_ARR(out), &res);
    EMPY_NOGIL(
        s, em_cumulate(op, EMPY_ARR(ra), axis, flatten, has, dt, &res, NULL));
    r = finish(st, s, &res, out);
    Py_DECREF(ra);
    return r;
}

#define CUM_FN(NAME, OP)                                                       \
    static PyObject *la_##NAME(PyObject *m, PyObject *args, PyObject *kw)      \
    {                                                                          \
        static char *kwlist[] = {"a", "axis", "dtype", "out", NULL};           \
        PyObject *a, *axis = NULL, *dtype = NULL, *out = NULL;                 \
        if (!PyArg_ParseTupleAndKeywords(args, kw, "O|OOO:" #NAME, kwlist, &a, \
                                         &axis, &dtype, &out))                 \
            return NULL;                                                       \
        return do_cumulate(empy_state_of_module(m), OP, a, axis, dtype, out);  \
    }

/* ndarray has cumsum and cumprod methods (not the nan forms), as NumPy's. */
#define ND_CUM_FN(NAME, OP)                                                    \
    static PyObject *nd_##NAME(PyObject *self, PyObject *args, PyObject *kw)   \
    {                                                                          \
        static char *kwlist[] = {"axis", "dtype", "out", NULL};                \
        PyObject *axis = NULL, *dtype = NULL, *out = NULL;                     \
        if (!PyArg_ParseTupleAndKeywords(args, kw, "|OOO:" #NAME, kwlist,      \
                                         &axis, &dtype, &out))                 \
            return NULL;                                                       \
        return do_cumulate(empy_state_of(self), OP, self, axis, dtype, out);   \
    }

CUM_FN(cumsum, EM_CUM_SUM)
CUM_FN(cumprod, EM_CUM_PROD)
CUM_FN(nancumsum, EM_CUM_NANSUM)
CUM_FN(nancumprod, EM_CUM_NANPROD)
ND_CUM_FN(cumsum, EM_CUM_SUM)
ND_CUM_FN(cumprod, EM_CUM_PROD)

/* Array API cumulative_sum / cumulative_prod: the axis may be left out
 * only for 1-D input; include_initial puts the identity first, so the
 * result is one longer along the axis. */
static PyObject *cumulative(PyObject *m, PyObject *args, PyObject *kw,
                            em_cumulate_op op, const char *fn)
{
    static char *kwlist[] = {"", "axis", "dtype", "include_initial", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *x, *axis_obj = Py_None, *dtype_obj = Py_None, *ra;
    int include = 0, has = 0, axis = 0;
    em_dtype dt = EM_BOOL;
    em_array res = {0}, tail = {0};
    const em_array *a;
    em_device *dev = NULL;
    em_status s = EM_OK;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|$OOp", kwlist, &x, &axis_obj,
                                     &dtype_obj, &include))
        return NULL;
    if (dtype_opt(st, dtype_obj, &has, &dt) < 0)
        return NULL;
    if (empy_is_ndarray(x))
        dev = EMPY_ARR(x)->device;
    else if (empy_device_arg(st, Py_None, &dev) < 0)
        return NULL;
    if (!(ra = operand(st, x, dev)))
        return NULL;
    a = EMPY_ARR(ra);
    if (a->ndim == 0 || (axis_obj == Py_None && a->ndim != 1)) {
        PyErr_Format(PyExc_ValueError, "%s: %s", fn,
                     a->ndim == 0 ? "the input must have at least one "
                                    "dimension"
                                  : "axis must be given for input of more "
                                    "than one dimension");
        Py_DECREF(ra);
        return NULL;
    }
    if (axis_obj != Py_None) {
        long v = PyLong_AsLong(axis_obj);
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(ra);
            return NULL;
        }
        if (v < -a->ndim || v >= a->ndim) {
            em_error(EM_ERR_AXIS,
                     "axis %ld is out of bounds for array of dimension %d", v,
                     a->ndim);
            Py_DECREF(ra);
            return empy_raise(st, EM_ERR_AXIS);
        }
        axis = (int)(v < 0 ? v + a->ndim : v);
    }
    if (!has)
        dt = em_cumulate_dtype(op, a->dtype);
    if (!include) {
        EMPY_NOGIL(s, em_cumulate(op, a, axis, 0, 1, dt, &res, NULL));
    } else {
        int64_t shape[EM_MAX_NDIM];
        em_slice sl[EM_MAX_NDIM];
        int64_t one = op == EM_CUM_PROD || op == EM_CUM_NANPROD;
        memcpy(shape, a->shape, sizeof(int64_t) * (size_t)a->ndim);
        shape[axis]++;
        for (int i = 0; i < a->ndim; i++) {
            sl[i].start = 0;
            sl[i].stop = shape[i];
            sl[i].step = 1;
        }
        s = em_array_empty(a->device, dt, a->ndim, shape, 'C', NULL, &res);
        if (s == EM_OK) {
            em_array head = {0};
            sl[axis].stop = 1;
            s = em_array_slice(&res, sl, &head);
            if (s == EM_OK)
                s = em_array_fill(&head, &one, EM_INT64, NULL);
            em_array_release(&head);
            sl[axis].start = 1;
            sl[axis].stop = shape[axis];
            if (s == EM_OK)
                s = em_array_slice(&res, sl, &tail);
            if (s == EM_OK)
                EMPY_NOGIL(s, em_cumulate(op, a, axis, 0, 1, dt, &tail, NULL));
            em_array_release(&tail);
        }
    }
    Py_DECREF(ra);
    if (s != EM_OK) {
        em_array_release(&res);
        return empy_raise(st, s);
    }
    return empy_ndarray_new(st, &res, NULL);
}

static PyObject *la_cumulative_sum(PyObject *m, PyObject *args, PyObject *kw)
{
    return cumulative(m, args, kw, EM_CUM_SUM, "cumulative_sum");
}

static PyObject *la_cumulative_prod(PyObject *m, PyObject *args, PyObject *kw)
{
    return cumulative(m, args, kw, EM_CUM_PROD, "cumulative_prod");
}

static PyObject *nd_dot(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"b", "out", NULL};
    PyObject *b, *out = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|O:dot", kwlist, &b, &out))
        return NULL;
    return call_pair(empy_state_of(self), em_dot, self, b, out);
}

/* ---- operators --------------------------------------------------------------
 */

static int matmul_operand(PyObject *o)
{
    return empy_is_ndarray(o) || PyList_Check(o) || PyTuple_Check(o) ||
           PyObject_CheckBuffer(o);
}

PyObject *empy_nd_matmul(PyObject *a, PyObject *b)
{
    PyObject *nd = empy_is_ndarray(a) ? a : b;
    if (!matmul_operand(a) || !matmul_operand(b))
        Py_RETURN_NOTIMPLEMENTED;
    return empy_matmul(empy_state_of(nd), a, b, NULL, NULL);
}

/* a @= b: into a, which NumPy allows only when the result keeps a's
 * shape (the product goes through a temporary, so reading a while
 * writing it is safe). */
PyObject *empy_nd_imatmul(PyObject *a, PyObject *b)
{
    if (!empy_is_ndarray(a) || !matmul_operand(b))
        Py_RETURN_NOTIMPLEMENTED;
    return empy_matmul(empy_state_of(a), a, b, a, NULL);
}

/* ---- tables
 * ------------------------------------------------------------------ */

#define KW (METH_VARARGS | METH_KEYWORDS)
#define F(name, fn, doc)                                                       \
    {                                                                          \
        name, (PyCFunction)(void (*)(void))fn, KW, doc                         \
    }

static PyMethodDef linalg_functions[] = {
    F("matmul", la_matmul,
      "matmul(x1, x2, /, out=None, *, dtype=None): the matrix product with "
      "NumPy's rules (1-D operands promoted, batches broadcast)."),
    F("dot", la_dot, "dot(a, b, out=None): numpy.dot."),
    F("vdot", la_vdot, "vdot(a, b): the flattened dot product, a conjugated."),
    F("inner", la_inner, "inner(a, b): the sum over both last axes."),
    F("outer", la_outer,
      "outer(a, b, out=None): a.ravel()[:, None] * "
      "b.ravel()[None, :]."),
    F("tensordot", la_tensordot,
      "tensordot(a, b, axes=2): the sum over the given axes."),
    F("vecdot", la_vecdot,
      "vecdot(x1, x2, /, *, axis=-1): sum of conj(x1) * x2 over axis."),
    {"matrix_transpose", (PyCFunction)la_matrix_transpose, METH_O,
     "matrix_transpose(x): x with its last two axes swapped (a view)."},
    F("cumsum", la_cumsum,
      "cumsum(a, axis=None, dtype=None, out=None): cumulative sum."),
    F("cumprod", la_cumprod,
      "cumprod(a, axis=None, dtype=None, out=None): cumulative product."),
    F("nancumsum", la_nancumsum,
      "nancumsum(a, axis=None, dtype=None, out=None): cumsum with NaN as 0."),
    F("cumulative_sum", la_cumulative_sum,
      "cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False):"
      " the Array API's cumsum."),
    F("cumulative_prod", la_cumulative_prod,
      "cumulative_prod(x, /, *, axis=None, dtype=None, "
      "include_initial=False): the Array API's cumprod."),
    F("nancumprod", la_nancumprod,
      "nancumprod(a, axis=None, dtype=None, out=None): cumprod with NaN as "
      "1."),
    {NULL},
};

/* What ember.linalg holds (its own module object, functions bound to the
 * extension module so they reach its state); norm comes from
 * python/ember/_api/norms.py, installed by ember/__init__.py. */
static PyMethodDef linalg_namespace[] = {
    F("matmul", la_matmul, "numpy.linalg.matmul"),
    F("vecdot", la_vecdot, "numpy.linalg.vecdot"),
    {"matrix_transpose", (PyCFunction)la_matrix_transpose, METH_O,
     "numpy.linalg.matrix_transpose"},
    F("outer", la_outer, "numpy.linalg.outer"),
    F("tensordot", la_tensordot, "numpy.linalg.tensordot"),
    {NULL},
};

PyMethodDef empy_linalg_nd_methods[] = {
    F("dot", nd_dot, "a.dot(b, out=None): ember.dot(a, b)."),
    F("cumsum", nd_cumsum, "a.cumsum(axis=None, dtype=None, out=None)."),
    F("cumprod", nd_cumprod, "a.cumprod(axis=None, dtype=None, out=None)."),
    {NULL},
};

int empy_linalg_init(PyObject *m, empy_state *st)
{
    PyObject *ns = PyModule_New("ember.linalg"), *modname;
    int rc;
    (void)st;
    if (!ns)
        return -1;
    modname = PyUnicode_FromString("ember.linalg");
    if (!modname)
        goto fail;
    for (PyMethodDef *def = linalg_namespace; def->ml_name; def++) {
        PyObject *f = PyCFunction_NewEx(def, m, modname);
        if (!f || PyModule_AddObjectRef(ns, def->ml_name, f) < 0) {
            Py_XDECREF(f);
            Py_DECREF(modname);
            goto fail;
        }
        Py_DECREF(f);
    }
    Py_DECREF(modname);
    rc = PyModule_AddObjectRef(m, "linalg", ns);
    Py_DECREF(ns);
    if (rc < 0)
        return -1;
    return PyModule_AddFunctions(m, linalg_functions);
fail:
    Py_DECREF(ns);
    return -1;
}
