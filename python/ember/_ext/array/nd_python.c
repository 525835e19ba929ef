/* ember Python extension: the ndarray methods whose work is composition,
 * done by ember's Python layer (python/ember/_api/). Each method imports
 * its module on its first call and passes itself first: a cold path, so
 * `import ember` does not pay for the layer. */
#include "runtime/module.h"
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
    {NULL},
};
