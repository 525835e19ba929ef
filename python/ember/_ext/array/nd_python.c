/* ember Python extension: the ndarray methods whose work is composition,
 * done by ember's Python layer (python/ember/_api/). Each method imports
 * its module on its first call and passes itself first: a cold path, so
 * `import ember` does not pay for the layer. */
#include <string.h>

#include "runtime/module.h"
#include "runtime/errors.h"
#include "array/ndarray.h"

PyObject *empy_call_python(const char *module, const char *name, PyObject *self,
                           PyObject *args, PyObject *kw)
{
    PyObject *mod = PyImport_ImportModule(module), *fn, *all, *r;
    fn = mod ? PyObject_GetAttrString(mod, name) : NULL;
    Py_XDECREF(mod);
    if (!fn)
        return NULL;
    all = PyTuple_New(PyTuple_GET_SIZE(args) + 1);
    if (!all) {
        Py_DECREF(fn);
        return NULL;
    }
    PyTuple_SET_ITEM(all, 0, Py_NewRef(self));
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(args); i++)
        PyTuple_SET_ITEM(all, i + 1, Py_NewRef(PyTuple_GET_ITEM(args, i)));
    r = PyObject_Call(fn, all, kw);
    Py_DECREF(all);
    Py_DECREF(fn);
    return r;
}

/* a.round(decimals=0, out=None) (NumPy's arrays have no __round__, so
 * neither have ember's); Numba's a.copy_to_host(ary=None, stream=0) and
 * a.copy_to_device(ary, stream=0), compositions over get() and
 * assignment; a.trace() as the sum of the diagonal view; the sorting
 * methods, whose argument handling is _api/sorting.py's. */
EMPY_PY_METHOD(nd_round, "ember._api.elementwise", "round")
EMPY_PY_METHOD(nd_repeat, "ember._api.manip", "repeat")
EMPY_PY_METHOD(nd_trace, "ember._api.matrices", "trace")
EMPY_PY_METHOD(nd_copy_to_host, "ember.cuda.devicearray", "copy_to_host")
EMPY_PY_METHOD(nd_copy_to_device, "ember.cuda.devicearray", "copy_to_device")
EMPY_PY_METHOD(nd_sort, "ember._api.sorting", "_nd_sort")
EMPY_PY_METHOD(nd_argsort, "ember._api.sorting", "argsort")
EMPY_PY_METHOD(nd_partition, "ember._api.sorting", "_nd_partition")
EMPY_PY_METHOD(nd_argpartition, "ember._api.sorting", "argpartition")
EMPY_PY_METHOD(nd_searchsorted, "ember._api.sorting", "searchsorted")
#define METHODS "ember._api.ndarray_methods"
EMPY_PY_METHOD(nd_clip, METHODS, "clip")
EMPY_PY_METHOD(nd_tobytes, METHODS, "tobytes")
EMPY_PY_METHOD(nd_tofile, METHODS, "tofile")
EMPY_PY_METHOD(nd_dump, METHODS, "dump")
EMPY_PY_METHOD(nd_dumps, METHODS, "dumps")
EMPY_PY_METHOD(nd_getfield, METHODS, "getfield")
EMPY_PY_METHOD(nd_setfield, METHODS, "setfield")

/* a.resize(*shape, refcheck=True), in place as NumPy's. The reference
 * count NumPy's refcheck reads is taken here, before any Python frame
 * adds to it; ndarray_methods.resized checks NumPy's rules and answers
 * with the new shape (same size: a's memory reinterpreted in a's order,
 * C unless a is Fortran-ordered, no copy) or a fresh array holding the
 * new contents, whose em_array then trades places with a's. A METH_VARARGS method, as NumPy's, so a call
 * `a.resize(...)` on a name holds two references: the name's and the
 * call's. */
static PyObject *nd_resize(PyObject *self, PyObject *args, PyObject *kw)
{
    Py_ssize_t refs = Py_REFCNT(self);
    PyObject *all, *r, *refobj = PyLong_FromSsize_t(refs);
    empy_ndarray *me = (empy_ndarray *)self;
    if (!refobj)
        return NULL;
    all = PyTuple_New(PyTuple_GET_SIZE(args) + 1);
    if (!all) {
        Py_DECREF(refobj);
        return NULL;
    }
    PyTuple_SET_ITEM(all, 0, refobj);
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(args); i++)
        PyTuple_SET_ITEM(all, i + 1, Py_NewRef(PyTuple_GET_ITEM(args, i)));
    r = empy_call_python(METHODS, "resized", self, all, kw);
    Py_DECREF(all);
    if (!r || r == Py_None)
        return r;
    /* pending fused work may still write a's storage: finish it first */
    (void)EMPY_ARR(self);
    if (PyTuple_Check(r)) {
        em_array *a = &me->a;
        int64_t shape[EM_MAX_NDIM];
        int nd = (int)PyTuple_GET_SIZE(r);
        em_status rc;
        for (int i = 0; i < nd; i++)
            shape[i] = PyLong_AsLongLong(PyTuple_GET_ITEM(r, i));
        Py_DECREF(r);
        if (PyErr_Occurred())
            return NULL;
        /* NumPy keeps a Fortran array's order: its memory read as F */
        char order = a->ndim > 1 && (a->flags & EM_ARRAY_F_CONTIGUOUS) &&
                     !(a->flags & EM_ARRAY_C_CONTIGUOUS) ? 'F' : 'C';
        rc = em_strides_contiguous(nd, shape, (int64_t)em_dtype_size(a->dtype), order,
                                   a->strides);
        if (rc != EM_OK)
            return empy_raise(empy_state_of(self), rc);
        a->ndim = nd;
        memcpy(a->shape, shape, sizeof(int64_t) * (size_t)nd);
        em_array_update_flags(a);
    } else if (empy_is_ndarray(r) && ((empy_ndarray *)r)->base == NULL) {
        empy_ndarray *fresh = (empy_ndarray *)r;
        em_array t;
        PyObject *st;
        (void)EMPY_ARR(r);
        t = me->a;
        me->a = fresh->a;
        fresh->a = t;
        st = me->stream;
        me->stream = fresh->stream;
        fresh->stream = st;
        Py_DECREF(r);   /* takes a's old storage with it */
    } else {
        Py_DECREF(r);
        PyErr_SetString(PyExc_SystemError, "ndarray_methods.resized: bad result");
        return NULL;
    }
    Py_RETURN_NONE;
}

/* a.setflags(write=None, align=None, uic=None), NumPy's rules: WRITEABLE
 * may be cleared on any array and set again where the memory may be
 * written (a's own, a writeable ndarray's, or a foreign object's writable
 * buffer); ALIGNED may be cleared, and set only on aligned data (the
 * layout's own test, em_array_update_flags); WRITEBACKIFCOPY (uic) is
 * never set on an ember array. */
static PyObject *nd_setflags(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"write", "align", "uic", NULL};
    PyObject *write = Py_None, *align = Py_None, *uic = Py_None;
    empy_ndarray *me = (empy_ndarray *)self;
    em_array *a;
    int w = -1, al = -1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|OOO:setflags", kwlist, &write, &align,
                                     &uic))
        return NULL;
    if ((write != Py_None && (w = PyObject_IsTrue(write)) < 0) ||
        (align != Py_None && (al = PyObject_IsTrue(align)) < 0))
        return NULL;
    if (uic != Py_None) {
        int u = PyObject_IsTrue(uic);
        if (u < 0)
            return NULL;
        if (u) {
            PyErr_SetString(PyExc_ValueError, "cannot set WRITEBACKIFCOPY flag to True");
            return NULL;
        }
    }
    a = EMPY_ARR(self);
    if (al == 1) {
        em_array probe = *a;
        em_array_update_flags(&probe);
        if (!(probe.flags & EM_ARRAY_ALIGNED)) {
            PyErr_SetString(PyExc_ValueError, "cannot set aligned flag of mis-aligned "
                                              "array to True");
            return NULL;
        }
        a->flags |= EM_ARRAY_ALIGNED;
    } else if (al == 0) {
        a->flags &= ~(unsigned)EM_ARRAY_ALIGNED;
    }
    if (w == 1) {
        PyObject *b = me->base;
        int ok = b == NULL;
        if (b && empy_is_ndarray(b)) {
            ok = (((empy_ndarray *)b)->a.flags & EM_ARRAY_WRITEABLE) != 0;
        } else if (b) {
            Py_buffer view;
            ok = PyObject_GetBuffer(b, &view, PyBUF_WRITABLE) == 0;
            if (ok)
                PyBuffer_Release(&view);
            else
                PyErr_Clear();
        }
        if (!ok) {
            PyErr_SetString(PyExc_ValueError, "cannot set WRITEABLE flag to True of "
                                              "this array");
            return NULL;
        }
        a->flags |= EM_ARRAY_WRITEABLE;
    } else if (w == 0) {
        a->flags &= ~(unsigned)EM_ARRAY_WRITEABLE;
    }
    Py_RETURN_NONE;
}


PyMethodDef empy_python_nd_methods[] = {
    {"round", EMPY_FASTKW(nd_round), "round(decimals=0, out=None): ember.round(a, decimals, out)."},
    {"repeat", EMPY_FASTKW(nd_repeat), "repeat(repeats, axis=None)"},
    {"trace", EMPY_FASTKW(nd_trace), "trace(offset=0, axis1=0, axis2=1, dtype=None, out=None)"},
    {"copy_to_host", EMPY_FASTKW(nd_copy_to_host),
     "copy_to_host(ary=None, stream=0): the values as a NumPy array, or "
     "copied into the host array `ary` (same shape and dtype), as Numba's."},
    {"copy_to_device", EMPY_FASTKW(nd_copy_to_device),
     "copy_to_device(ary, stream=0): fill from a host or ember array of the "
     "same shape and dtype, as Numba's."},
    {"sort", EMPY_FASTKW(nd_sort), "a.sort(axis=-1, kind=None, order=None): sort in place."},
    {"argsort", EMPY_FASTKW(nd_argsort), "a.argsort(axis=-1): indices that sort a."},
    {"partition", EMPY_FASTKW(nd_partition),
     "a.partition(kth, axis=-1): partition in place (a full sort)."},
    {"argpartition", EMPY_FASTKW(nd_argpartition),
     "a.argpartition(kth, axis=-1): indices that partition a."},
    {"searchsorted", EMPY_FASTKW(nd_searchsorted),
     "a.searchsorted(v, side='left', sorter=None): insertion indices."},
    {"clip", EMPY_FASTKW(nd_clip), "a.clip(min=None, max=None, out=None): ember.clip(a, ...)."},
    {"tobytes", EMPY_FASTKW(nd_tobytes),
     "a.tobytes(order='C'): the elements' bytes in that order (copied to the host)."},
    {"tofile", EMPY_FASTKW(nd_tofile),
     "a.tofile(fid, sep='', format='%s'): the elements written to a file, as NumPy's."},
    {"dump", EMPY_FASTKW(nd_dump), "a.dump(file): a's pickle written to file."},
    {"dumps", EMPY_FASTKW(nd_dumps), "a.dumps(): a's pickle as bytes."},
    {"getfield", EMPY_FASTKW(nd_getfield),
     "a.getfield(dtype, offset=0): each element's bytes at offset read as dtype (a view)."},
    {"setfield", EMPY_FASTKW(nd_setfield),
     "a.setfield(val, dtype, offset=0): val written as dtype at offset in each element."},
    {"resize", (PyCFunction)(void (*)(void))nd_resize, METH_VARARGS | METH_KEYWORDS,
     "a.resize(*shape, refcheck=True): change shape and size in place, as NumPy's."},
    {"setflags", (PyCFunction)(void (*)(void))nd_setflags, METH_VARARGS | METH_KEYWORDS,
     "a.setflags(write=None, align=None, uic=None): set WRITEABLE and ALIGNED."},
    {NULL},
};
