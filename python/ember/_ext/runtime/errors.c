/* ember Python extension: em_status -> exception, and ember's own exception
 * classes. Every failure of the C API reaches Python through here, so the
 * mapping is the same everywhere (DESIGN.md, principle 5). */
#include <string.h>
#include "runtime/errors.h"

static PyObject *exc_class(empy_state *st, em_status s)
{
    switch (s) {
    case EM_ERR_INVALID_VALUE: return PyExc_ValueError;
    case EM_ERR_TYPE: return PyExc_TypeError;
    case EM_ERR_INDEX: return PyExc_IndexError;
    case EM_ERR_OUT_OF_MEMORY: return PyExc_MemoryError;
    /* The C API reports a missing kernel name this way; for a Python user
     * that is a missing attribute of the module, as with getattr. */
    case EM_ERR_NOT_FOUND: return PyExc_AttributeError;
    case EM_ERR_UNAVAILABLE: return st->BackendUnavailableError;
    case EM_ERR_CUDA:
    case EM_ERR_DEVICE_FAULT: return st->CUDAError;
    case EM_ERR_COMPILE: return st->CompileError;
    case EM_ERR_IO: return PyExc_OSError;
    case EM_ERR_NOT_SUPPORTED: return PyExc_NotImplementedError;
    case EM_ERR_OVERFLOW: return PyExc_OverflowError;
    case EM_ERR_AXIS: return empy_np_exc(st, EMPY_EXC_AXIS);
    case EM_ERR_LINALG: return empy_np_exc(st, EMPY_EXC_LINALG);
    default: return PyExc_RuntimeError;
    }
}

/* Raise cls(msg) and set extra attributes on the instance; attrs is a
 * NULL-terminated list of name, value pairs (values are stolen). */
static void raise_with_attrs(PyObject *cls, PyObject *msg, ...)
{
    va_list ap;
    PyObject *exc = msg ? PyObject_CallOneArg(cls, msg) : NULL;
    va_start(ap, msg);
    for (;;) {
        const char *name = va_arg(ap, const char *);
        PyObject *val;
        if (!name)
            break;
        val = va_arg(ap, PyObject *);
        if (exc && val && PyObject_SetAttrString(exc, name, val) < 0)
            Py_CLEAR(exc);
        Py_XDECREF(val);
    }
    va_end(ap);
    if (exc) {
        PyErr_SetObject(cls, exc);
        Py_DECREF(exc);
    }
}

PyObject *empy_raise(empy_state *st, em_status s)
{
    const char *msg = em_last_error();
    PyObject *cls, *pmsg;

    if (s == EM_OK) {
        PyErr_SetString(PyExc_SystemError, "ember: raise without a failure");
        return NULL;
    }
    if (!msg || !*msg)
        msg = em_status_name(s);
    cls = exc_class(st, s);
    /* EM_ERR_OVERFLOW is both a value out of a dtype's range, which NumPy
     * reports as OverflowError ("Python integer 300 out of bounds for
     * int8"), and a size or offset past int64, which NumPy reports as
     * ValueError ("array is too big", "Maximum allowed size exceeded"). */
    if (s == EM_ERR_OVERFLOW && strncmp(msg, "Python integer", 14) != 0)
        cls = PyExc_ValueError;
    pmsg = PyUnicode_DecodeUTF8(msg, (Py_ssize_t)strlen(msg), "replace");
    if (!pmsg)
        return NULL;
    if (cls == st->CUDAError) {
        const char *nname = em_last_error_native_name();
        raise_with_attrs(cls, pmsg,
                         "code", PyLong_FromLong(em_last_error_native()),
                         "name", PyUnicode_DecodeUTF8(nname, (Py_ssize_t)strlen(nname),
                                                      "replace"),
                         (const char *)NULL);
    } else if (cls == st->CompileError) {
        raise_with_attrs(cls, pmsg, "log", Py_NewRef(pmsg), (const char *)NULL);
    } else {
        PyErr_SetObject(cls, pmsg);
    }
    Py_DECREF(pmsg);
    return NULL;
}

int empy_fail(empy_state *st, em_status s)
{
    empy_raise(st, s);
    return -1;
}

/* The exception is built by python/ember/_compile_error.py: finding the
 * first error's line in the source is text work, once per failed compile. */
PyObject *empy_raise_compile(empy_state *st, em_status s, const char *log,
                             const char *source)
{
    const char *msg = em_last_error();
    PyObject *mod, *exc;
    if (s != EM_ERR_COMPILE)
        return empy_raise(st, s);
    if (!(mod = PyImport_ImportModule("ember._compile_error")))
        return NULL;
    exc = PyObject_CallMethod(mod, "compile_error", "NNN",
                              PyUnicode_DecodeUTF8(msg, (Py_ssize_t)strlen(msg), "replace"),
                              log ? PyUnicode_DecodeUTF8(log, (Py_ssize_t)strlen(log),
                                                         "replace") : Py_NewRef(Py_None),
                              source ? PyUnicode_DecodeUTF8(source, (Py_ssize_t)strlen(source),
                                                            "replace") : Py_NewRef(Py_None));
    Py_DECREF(mod);
    if (exc) {
        PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
        Py_DECREF(exc);
    }
    return NULL;
}

static int add_exception(PyObject *m, const char *name, const char *doc,
                         PyObject *base, PyObject *attrs, PyObject **slot)
{
    char full[64];
    PyOS_snprintf(full, sizeof full, "ember.%s", name);
    *slot = PyErr_NewExceptionWithDoc(full, doc, base, attrs);
    if (!*slot)
        return -1;
    return PyModule_AddObjectRef(m, name, *slot);
}

/* ---- the classes NumPy also has ----------------------------------------
 * ember.AxisError must be caught by `except numpy.exceptions.AxisError`, but
 * `import ember` imports no NumPy. So each such class comes in two: a base
 * class made at import (with the builtin bases NumPy's has), and, once NumPy
 * is loaded, a class derived from both the base and NumPy's. ember raises
 * (and warns with) the derived class whenever numpy is in sys.modules, the
 * base class otherwise; then every handler works: one written with NumPy's
 * class can only run once NumPy is imported, and one written with ember's
 * (whichever of the two it got) catches both. ember.AxisError itself is the
 * package's module __getattr__, answering the class ember raises now. */
static const struct {
    const char *name, *doc;
    PyObject **bases[2];   /* builtin bases, the second may be NULL */
    const char *module;    /* NumPy's module of it, if not numpy.exceptions */
} np_excs[EMPY_EXC_COUNT] = {
    [EMPY_EXC_AXIS] = {"AxisError", "An axis argument out of range for the "
                       "array (a ValueError and an IndexError, as NumPy's).",
                       {&PyExc_ValueError, &PyExc_IndexError}},
    [EMPY_EXC_COMPLEX_WARNING] = {"ComplexWarning", "A complex value cast to "
                                  "a real type: the imaginary part is lost.",
                                  {&PyExc_RuntimeWarning, NULL}},
    [EMPY_EXC_DTYPE_PROMOTION] = {"DTypePromotionError", "Two dtypes have no "
                                  "common dtype.", {&PyExc_TypeError, NULL}},
    [EMPY_EXC_TOO_HARD] = {"TooHardError", "max_work was exceeded "
                           "(shares_memory).", {&PyExc_RuntimeError, NULL}},
    [EMPY_EXC_VISIBLE_DEPRECATION] = {"VisibleDeprecationWarning", "A "
                                      "deprecation shown by default.",
                                      {&PyExc_UserWarning, NULL}},
    [EMPY_EXC_RANK_WARNING] = {"RankWarning", "A least-squares fit is poorly "
                               "conditioned.", {&PyExc_RuntimeWarning, NULL}},
    [EMPY_EXC_LINALG] = {"LinAlgError", "A matrix the linear-algebra function "
                         "cannot take: singular, not positive definite, or "
                         "no convergence (a ValueError, as NumPy's).",
                         {&PyExc_ValueError, NULL}, "numpy.linalg"},
};

PyObject *empy_np_exc(empy_state *st, int which)
{
    PyObject *npx, *npcls, *bases, *dict, *doc, *exc, *val, *tb;
    char full[64];
    if (st->np_exc[which][1])
        return st->np_exc[which][1];
    /* A lookup in sys.modules: never imports NumPy, and costs nothing on
     * the hot path (errors only). */
    PyErr_Fetch(&exc, &val, &tb);
    if (np_excs[which].module) {
        PyObject *mn = PyUnicode_FromString(np_excs[which].module);
        npx = mn ? PyImport_GetModule(mn) : NULL;
        Py_XDECREF(mn);
    } else
        npx = PyImport_GetModule(st->s_np_exceptions);
    if (!npx) {
        PyErr_Clear();
        PyErr_Restore(exc, val, tb);
        return st->np_exc[which][0];
    }
    npcls = PyObject_GetAttrString(npx, np_excs[which].name);
    Py_DECREF(npx);
    if (!npcls) {
        /* An older NumPy without this class: ember's own is all there is. */
        PyErr_Clear();
        PyErr_Restore(exc, val, tb);
        return st->np_exc[which][0];
    }
    bases = PyTuple_Pack(2, st->np_exc[which][0], npcls);
    dict = PyDict_New();
    PyOS_snprintf(full, sizeof full, "ember.%s%s",
                  np_excs[which].module ? "linalg." : "", np_excs[which].name);
    doc = PyUnicode_FromString(np_excs[which].doc);
    if (bases && dict && doc && PyDict_SetItemString(dict, "__doc__", doc) == 0)
        st->np_exc[which][1] = PyErr_NewException(full, bases, dict);
    Py_XDECREF(doc);
    Py_XDECREF(bases);
    Py_XDECREF(dict);
    Py_DECREF(npcls);
    PyErr_Clear();
    PyErr_Restore(exc, val, tb);
    return st->np_exc[which][1] ? st->np_exc[which][1] : st->np_exc[which][0];
}

/* ember._np_exception(name): the class ember raises now for NumPy's class
 * of that name (ember's module __getattr__). */
static PyObject *mod_np_exception(PyObject *m, PyObject *name)
{
    empy_state *st = empy_state_of_module(m);
    const char *s = PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : NULL;
    int i;
    if (!s)
        return NULL;
    for (i = 0; i < EMPY_EXC_COUNT; i++)
        if (!strcmp(s, np_excs[i].name))
            return Py_NewRef(empy_np_exc(st, i));
    PyErr_Format(PyExc_AttributeError, "module 'ember' has no attribute '%s'", s);
    return NULL;
}

static PyMethodDef errors_functions[] = {
    {"_np_exception", mod_np_exception, METH_O, NULL},
    {NULL},
};

static int np_excs_init(PyObject *m, empy_state *st)
{
    PyObject *names;
    int i;
    st->s_np_exceptions = PyUnicode_InternFromString("numpy.exceptions");
    if (!st->s_np_exceptions || PyModule_AddFunctions(m, errors_functions) < 0)
        return -1;
    names = PyList_New(0);
    if (!names)
        return -1;
    for (i = 0; i < EMPY_EXC_COUNT; i++) {
        char full[64];
        PyObject *bases = np_excs[i].bases[1]
            ? PyTuple_Pack(2, *np_excs[i].bases[0], *np_excs[i].bases[1])
            : PyTuple_Pack(1, *np_excs[i].bases[0]);
        if (!bases) {
            Py_DECREF(names);
            return -1;
        }
        PyOS_snprintf(full, sizeof full, "ember.%s%s",
                      np_excs[i].module ? "linalg." : "", np_excs[i].name);
        st->np_exc[i][0] = PyErr_NewExceptionWithDoc(full, np_excs[i].doc, bases, NULL);
        Py_DECREF(bases);
        if (!st->np_exc[i][0]) {
            Py_DECREF(names);
            return -1;
        }
        /* ember.X only for numpy.exceptions' classes (ember.linalg holds
         * LinAlgError) */
        if (!np_excs[i].module) {
            PyObject *nm = PyUnicode_FromString(np_excs[i].name);
            if (!nm || PyList_Append(names, nm) < 0) {
                Py_XDECREF(nm);
                Py_DECREF(names);
                return -1;
            }
            Py_DECREF(nm);
        }
    }
    /* Base classes never leave as module attributes: only through
     * _np_exception, so `ember.AxisError` is always the class raised now. */
    st->AxisError = Py_NewRef(st->np_exc[EMPY_EXC_AXIS][0]);
    {
        PyObject *t = PyList_AsTuple(names);
        Py_DECREF(names);
        return t ? PyModule_AddObject(m, "_np_exception_names", t) : -1;
    }
}

int empy_errors_init(PyObject *m, empy_state *st)
{
    PyObject *attrs;
    int rc;

    if (np_excs_init(m, st) < 0)
        return -1;

    attrs = Py_BuildValue("{s:i,s:s}", "code", 0, "name", "");
    if (!attrs)
        return -1;
    rc = add_exception(m, "CUDAError",
                       "A CUDA driver call failed. `.code` is the CUresult, "
                       "`.name` its symbolic name; the message names the call.",
                       PyExc_RuntimeError, attrs, &st->CUDAError);
    Py_DECREF(attrs);
    if (rc < 0)
        return -1;

    attrs = Py_BuildValue("{s:s,s:O,s:O}", "log", "", "lineno", Py_None,
                          "source_line", Py_None);
    if (!attrs)
        return -1;
    rc = add_exception(m, "CompileError",
                       "A compiler rejected kernel source. `.log` is the "
                       "compiler's log; `.lineno` and `.source_line` point at "
                       "the first error in the source, when the log names one.",
                       PyExc_RuntimeError, attrs, &st->CompileError);
    Py_DECREF(attrs);
    if (rc < 0)
        return -1;

    return add_exception(m, "BackendUnavailableError",
                         "A library, driver or device that the operation needs "
                         "is missing; the message says which and how to get it.",
                         PyExc_RuntimeError, NULL, &st->BackendUnavailableError);
}
