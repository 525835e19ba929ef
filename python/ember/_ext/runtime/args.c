/* ember Python extension: keyword parsing for vectorcall functions, shared
 * by every module function that takes named arguments, and the checked
 * conversions of args.h. */
#include <string.h>

#include "runtime/module.h"
#include "runtime/args.h"

int empy_parse_args(const char *fname, PyObject *const *args, Py_ssize_t nargs,
                    PyObject *kwnames, const char *const *names, int npos,
                    int nrequired, PyObject **vals)
{
    Py_ssize_t i, nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    int n = 0, j;
    while (names[n])
        n++;
    for (j = 0; j < n; j++)
        vals[j] = NULL;
    if (nargs > npos) {
        PyErr_Format(PyExc_TypeError, "%s() takes at most %d positional arguments "
                     "(%zd given)", fname, npos, nargs);
        return -1;
    }
    for (i = 0; i < nargs; i++)
        vals[i] = args[i];
    for (i = 0; i < nkw; i++) {
        PyObject *k = PyTuple_GET_ITEM(kwnames, i);
        const char *ks = PyUnicode_AsUTF8(k);
        if (!ks)
            return -1;
        for (j = 0; j < n; j++)
            if (!strcmp(ks, names[j]))
                break;
        if (j == n) {
            PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword "
                         "argument '%s'", fname, ks);
            return -1;
        }
        if (vals[j]) {
            PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument "
                         "'%s'", fname, ks);
            return -1;
        }
        vals[j] = args[nargs + i];
    }
    for (j = 0; j < nrequired; j++) {
        if (!vals[j]) {
            PyErr_Format(PyExc_TypeError, "%s() missing required argument '%s'",
                         fname, names[j]);
            return -1;
        }
    }
    return 0;
}

int empy_opt_arg(const char *fname, const char *name, PyObject *const *args,
                 Py_ssize_t nargs, PyObject *kwnames, PyObject **val)
{
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    PyObject *k = nkw ? PyTuple_GET_ITEM(kwnames, 0) : NULL;
    if (nargs + nkw > 1 || (k && PyUnicode_CompareWithASCIIString(k, name))) {
        PyErr_Format(PyExc_TypeError, "%s() takes one optional argument, %s", fname,
                     name);
        return -1;
    }
    if (nargs + nkw)
        *val = args[0];
    return 0;
}

/* ---- numbers ------------------------------------------------------------ */

int empy_index_arg(PyObject *o, const char *what, int bool_ok, int64_t *out)
{
    PyObject *i;
    long long v;
    int overflow = 0;
    if ((!bool_ok && PyBool_Check(o)) || !PyIndex_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s must be an integer, not %.100s", what,
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    /* One call into Python (__index__), checked before anything else. */
    if (!(i = PyNumber_Index(o)))
        return -1;
    v = PyLong_AsLongLongAndOverflow(i, &overflow);
    Py_DECREF(i);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (overflow) {
        PyErr_Format(PyExc_OverflowError, "%s: Python int too large to convert "
                     "to int64", what);
        return -1;
    }
    *out = v;
    return 0;
}

int empy_size_arg(PyObject *o, const char *what, int64_t *out)
{
    if (empy_index_arg(o, what, 0, out) == 0)
        return 0;
    if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s: Maximum allowed dimension exceeded", what);
    }
    return -1;
}

int empy_nbytes_arg(PyObject *o, const char *what, size_t *out)
{
    int64_t n;
    if (empy_index_arg(o, what, 0, &n) < 0)
        return -1;
    if (n < 0) {
        PyErr_Format(PyExc_ValueError, "%s must be >= 0, got %lld", what, (long long)n);
        return -1;
    }
    *out = (size_t)n;
    return 0;
}

/* ---- cold properties in Python ------------------------------------------ */

/* w's function (a new reference): a sys.modules lookup once the module
 * is loaded, so a forwarded call costs no import machinery. */
static PyObject *py_function(const empy_pyattr *w)
{
    PyObject *name = PyUnicode_FromString(w->module), *mod, *fn;
    if (!name)
        return NULL;
    mod = PyImport_GetModule(name);
    if (!mod && !PyErr_Occurred())
        mod = PyImport_Import(name);
    Py_DECREF(name);
    if (!mod)
        return NULL;
    fn = PyObject_GetAttrString(mod, w->function);
    Py_DECREF(mod);
    return fn;
}

PyObject *empy_py_getter(PyObject *self, void *closure)
{
    PyObject *fn = py_function(closure), *r;
    if (!fn)
        return NULL;
    r = PyObject_CallOneArg(fn, self);
    Py_DECREF(fn);
    return r;
}

PyObject *empy_py_method(const empy_pyattr *w, PyObject *self, PyObject *const *args,
                         Py_ssize_t nargs, PyObject *kwnames)
{
    Py_ssize_t i, n = nargs + (kwnames ? PyTuple_GET_SIZE(kwnames) : 0);
    PyObject *stack[9], **all = stack, *fn, *r = NULL;
    if (n + 1 > 9 && !(all = PyMem_Malloc(sizeof *all * (size_t)(n + 1))))
        return PyErr_NoMemory();
    all[0] = self;
    for (i = 0; i < n; i++)
        all[i + 1] = args[i];
    if ((fn = py_function(w)) != NULL)
        r = PyObject_Vectorcall(fn, all, (size_t)nargs + 1, kwnames);
    Py_XDECREF(fn);
    if (all != stack)
        PyMem_Free(all);
    return r;
}

PyObject *empy_py_method_tuple(const empy_pyattr *w, PyObject *self, PyObject *args,
                               PyObject *kw)
{
    PyObject *fn = py_function(w), *t = NULL, *r = NULL;
    Py_ssize_t i, n = PyTuple_GET_SIZE(args);
    if (fn && (t = PyTuple_New(n + 1))) {
        PyTuple_SET_ITEM(t, 0, Py_NewRef(self));
        for (i = 0; i < n; i++)
            PyTuple_SET_ITEM(t, i + 1, Py_NewRef(PyTuple_GET_ITEM(args, i)));
        r = PyObject_Call(fn, t, kw);
    }
    Py_XDECREF(t);
    Py_XDECREF(fn);
    return r;
}
