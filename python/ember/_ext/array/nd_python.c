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

/* a.round(decimals=0, out=None). (NumPy's arrays have no __round__, so
 * neither have ember's.) */
static PyObject *nd_round(PyObject *self, PyObject *args, PyObject *kw)
{
    return empy_call_python("ember._api.elementwise", "round", self, args, kw);
}

/* Numba's a.copy_to_host(ary=None, stream=0), a.copy_to_device(ary,
 * stream=0): composition over get() and assignment. */
static PyObject *nd_copy_to_host(PyObject *self, PyObject *args, PyObject *kw)
{
    return empy_call_python("ember.cuda.devicearray", "copy_to_host", self, args, kw);
}

static PyObject *nd_copy_to_device(PyObject *self, PyObject *args, PyObject *kw)
{
    return empy_call_python("ember.cuda.devicearray", "copy_to_device", self, args, kw);
}

static PyObject *nd_repeat(PyObject *self, PyObject *args, PyObject *kw)
{
    return empy_call_python("ember._api.manip", "repeat", self, args, kw);
}

/* a.trace(offset=0, axis1=0, axis2=1, dtype=None, out=None): the sum of
 * the diagonal view. */
static PyObject *nd_trace(PyObject *self, PyObject *args, PyObject *kw)
{
    return empy_call_python("ember._api.matrices", "trace", self, args, kw);
}

#define KW(f) (PyCFunction)(void (*)(void))(f), METH_VARARGS | METH_KEYWORDS

PyMethodDef empy_python_nd_methods[] = {
    {"round", KW(nd_round), "round(decimals=0, out=None): ember.round(a, decimals, out)."},
    {"repeat", KW(nd_repeat), "repeat(repeats, axis=None)"},
    {"trace", KW(nd_trace), "trace(offset=0, axis1=0, axis2=1, dtype=None, out=None)"},
    {"copy_to_host", KW(nd_copy_to_host),
     "copy_to_host(ary=None, stream=0): the values as a NumPy array, or "
     "copied into the host array `ary` (same shape and dtype), as Numba's."},
    {"copy_to_device", KW(nd_copy_to_device),
     "copy_to_device(ary, stream=0): fill from a host or ember array of the "
     "same shape and dtype, as Numba's."},
    {NULL},
};
