/* ember Python extension: the ndarray methods whose work is composition,
 * done by ember's Python layer (python/ember/_api/). Each method imports
 * its module on its first call and passes itself first: a cold path, so
 * `import ember` does not pay for the layer. */
#include "module.h"
#include "ndarray.h"

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

static PyObject *nd_repeat(PyObject *self, PyObject *args, PyObject *kw)
{
    return empy_call_python("ember._api.manip", "repeat", self, args, kw);
}

#define KW(f) (PyCFunction)(void (*)(void))(f), METH_VARARGS | METH_KEYWORDS

PyMethodDef empy_python_nd_methods[] = {
    {"round", KW(nd_round), "round(decimals=0, out=None): ember.round(a, decimals, out)."},
    {"repeat", KW(nd_repeat), "repeat(repeats, axis=None)"},
    {NULL},
};
