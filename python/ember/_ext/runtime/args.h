/* ember Python extension: the one argument parser (keywords of vectorcall
 * functions) and the conversions of Python arguments to C values with the
 * checks every entry point needs (args.c). Each calls back into Python at
 * most once and returns -1 with the exception that call raised, so no
 * caller goes on with an exception set (the SystemError "returned a result
 * with an exception set"). */
#ifndef EMPY_ARGS_H
#define EMPY_ARGS_H

#include <stdint.h>
#include <Python.h>

/* o as an int64 through __index__, as NumPy reads an axis or a count: 0,
 * or -1 with the exception __index__ raised, a TypeError naming `what`
 * for an object without __index__ (or a bool unless bool_ok), or an
 * OverflowError past int64. */
int empy_index_arg(PyObject *o, const char *what, int bool_ok, int64_t *out);

/* The same for a size or a shape's extent: past int64 is NumPy's
 * ValueError "Maximum allowed dimension exceeded", not OverflowError. */
int empy_size_arg(PyObject *o, const char *what, int64_t *out);

/* A byte count: as empy_index_arg, and a ValueError naming what if < 0. */
int empy_nbytes_arg(PyObject *o, const char *what, size_t *out);

/* Fill vals (borrowed, NULL when absent) from a vectorcall's positional
 * and keyword arguments by the NULL-ended names; the first npos may come
 * positionally, the first nrequired must be given. -1 with TypeError
 * naming fname (args.c). */
int empy_parse_args(const char *fname, PyObject *const *args, Py_ssize_t nargs,
                    PyObject *kwnames, const char *const *names, int npos,
                    int nrequired, PyObject **vals);

/* The one optional argument of a hot method, positional or by the keyword
 * name, without empy_parse_args's walk: *val is left as it is when the
 * argument is absent; -1 with TypeError naming fname for anything else. */
int empy_opt_arg(const char *fname, const char *name, PyObject *const *args,
                 Py_ssize_t nargs, PyObject *kwnames, PyObject **val);

/* A cold property computed in Python: a getset entry with this getter and
 * a closure pointing at an empy_pyattr calls module.function(self), the
 * module imported on first use (so `import ember` imports nothing more). */
typedef struct {
    const char *module, *function;
} empy_pyattr;

PyObject *empy_py_getter(PyObject *self, void *closure);

/* A cold method computed in Python: module.function(self, *args, **kw).
 * EMPY_PY_METHOD defines fn, a METH_FASTCALL | METH_KEYWORDS forwarder. */
PyObject *empy_py_method(const empy_pyattr *w, PyObject *self, PyObject *const *args,
                         Py_ssize_t nargs, PyObject *kwnames);
/* The same for a METH_VARARGS | METH_KEYWORDS method. */
PyObject *empy_py_method_tuple(const empy_pyattr *w, PyObject *self, PyObject *args,
                               PyObject *kw);
/* A METH_FASTCALL | METH_KEYWORDS method table entry's function and flags. */
#define EMPY_FASTKW(f) (PyCFunction)(void (*)(void))(f), METH_FASTCALL | METH_KEYWORDS

#define EMPY_PY_METHOD(fn, module, function)                                        \
    static PyObject *fn(PyObject *self, PyObject *const *args, Py_ssize_t nargs,    \
                        PyObject *kwnames)                                          \
    {                                                                               \
        static const empy_pyattr w = {module, function};                            \
        return empy_py_method(&w, self, args, nargs, kwnames);                      \
    }

/* A cold slot taking only self (tp_repr, tp_str) computed in Python. */
#define EMPY_PY_SLOT(fn, module, function)                                          \
    static PyObject *fn(PyObject *self)                                             \
    {                                                                               \
        static const empy_pyattr w = {module, function};                            \
        return empy_py_getter(self, (void *)&w);                                    \
    }

/* One of a table of module functions sharing an implementation:
 * fn(m, args, n) is impl(m, args, n, which). */
#define EMPY_TABLE_FUNCTION(fn, impl, which)                                    \
    static PyObject *fn(PyObject *m, PyObject *const *args, Py_ssize_t n)       \
    {                                                                           \
        return impl(m, args, n, which);                                         \
    }

#endif
