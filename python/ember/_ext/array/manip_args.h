/* ember Python extension: argument helpers shared by manip.c and
 * creation_ranges.c (axes, ints, array lists; keywords: empy_parse_args). */
#ifndef EMPY_MANIP_ARGS_H
#define EMPY_MANIP_ARGS_H

#include <string.h>
#include "array/ndarray.h"
#include "runtime/errors.h"
#include "runtime/args.h"

#define MANIP_FASTCALL PyObject *m, PyObject *const *args, Py_ssize_t nargs, \
                       PyObject *kwnames
#define MANIP_FN(fn) {#fn, (PyCFunction)(void (*)(void))mod_##fn, \
                      METH_FASTCALL | METH_KEYWORDS, NULL}

static inline int manip_given(PyObject *o)
{
    return o && o != Py_None;
}

/* An int argument (not bool); dflt when absent or None. */
static inline int manip_int(PyObject *o, const char *what, int64_t dflt, int64_t *out)
{
    if (!manip_given(o)) {
        *out = dflt;
        return 0;
    }
    return empy_index_arg(o, what, 0, out);
}

/* 1 with *out when o is one integer (an int, a NumPy integer, a 0-d
 * integer array), 0 when it is something else (arrays of several
 * elements included: they have __index__ but refuse it), -1 on overflow. */
static inline int manip_scalar_index(PyObject *o, int64_t *out)
{
    PyObject *i;
    long long v;
    if (PyBool_Check(o) || !PyIndex_Check(o))
        return 0;
    if (!(i = PyNumber_Index(o))) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            return 0;
        }
        return -1;
    }
    v = PyLong_AsLongLong(i);
    Py_DECREF(i);
    if (v == -1 && PyErr_Occurred())
        return -1;
    *out = v;
    return 1;
}

/* Normalise axis against ndim, raising ember.AxisError as NumPy does. */
static inline int manip_axis(empy_state *st, int64_t axis, int ndim, int *out)
{
    if (axis < -ndim || axis >= ndim) {
        PyErr_Format(empy_np_exc(st, EMPY_EXC_AXIS), "axis %lld is out of bounds for array of "
                     "dimension %d", (long long)axis, ndim);
        return -1;
    }
    *out = (int)(axis < 0 ? axis + ndim : axis);
    return 0;
}

/* An ember array of o (new reference): itself, or converted onto dev
 * (NULL: the current device). */
static inline PyObject *manip_array(empy_state *st, PyObject *o, em_device *dev)
{
    if (empy_is_ndarray(o))
        return Py_NewRef(o);
    return empy_asarray(st, o, -1, dev, EMPY_COPY_IF_NEEDED, 'K');
}

/* A view of base's storage with layout v (no reference yet) as an ndarray. */
static inline PyObject *manip_view(empy_state *st, PyObject *base, const em_array *v)
{
    em_array r;
    em_array_retain(v, &r);
    return empy_ndarray_new(st, &r, base);
}

/* Put r (a new reference) in place of item i of tup, a tuple not yet
 * shared. */
static inline void manip_tuple_replace(PyObject *tup, Py_ssize_t i, PyObject *r)
{
    PyObject *old = PyTuple_GET_ITEM(tup, i);
    PyTuple_SET_ITEM(tup, i, r);
    Py_DECREF(old);
}

/* The arrays of tup (its reference moves in) as a list: the Array API
 * returns a list where NumPy 2 returns a tuple; both unpack. */
static inline PyObject *manip_list_of(PyObject *tup)
{
    PyObject *l = PySequence_List(tup);
    Py_DECREF(tup);
    return l;
}

/* The result of a C call that made *a: the new ndarray, or the exception. */
static inline PyObject *manip_result(empy_state *st, em_status rc, em_array *a)
{
    if (rc != EM_OK)
        return empy_raise(st, rc);
    return empy_ndarray_new(st, a, NULL);
}

#endif
