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

/* ---- the classes NumPy also has (python/ember/_errors.py says why each
 * comes in two and which is raised when) ----------------------------------- */

PyObject *empy_np_exc(empy_state *st, int which)
{
    empy_saved_error err;
    PyObject *cls;
    empy_error_save(&err);
    cls = PyObject_CallFunction(st->np_exc_current, "i", which);
    if (cls) {
        Py_DECREF(cls);    /* _errors keeps every class it made */
    } else {
        PyErr_Clear();
        cls = PyExc_RuntimeError;
    }
    empy_error_restore(&err);
    return cls;
}

/* The classes come from python/ember/_errors.py: ember's own, added to the
 * module as they are, and NumPy's, whose class to raise _errors.current
 * answers (ember._np_exception is its by_name, for ember's __getattr__). */
int empy_errors_init(PyObject *m, empy_state *st)
{
    static const char *const own[] = {"CUDAError", "CompileError",
                                      "BackendUnavailableError"};
    PyObject **slots[] = {&st->CUDAError, &st->CompileError, &st->BackendUnavailableError};
    PyObject *mod = PyImport_ImportModule("ember._errors"), *by_name, *names;
    int rc = -1, i;
    if (!mod)
        return -1;
    for (i = 0; i < 3; i++)
        if (!(*slots[i] = PyObject_GetAttrString(mod, own[i])) ||
            PyModule_AddObjectRef(m, own[i], *slots[i]) < 0)
            goto out;
    st->np_exc_current = PyObject_GetAttrString(mod, "current");
    by_name = PyObject_GetAttrString(mod, "by_name");
    names = PyObject_GetAttrString(mod, "names");
    if (st->np_exc_current && by_name && names &&
        PyModule_AddObjectRef(m, "_np_exception", by_name) == 0 &&
        PyModule_AddObjectRef(m, "_np_exception_names", names) == 0)
        rc = 0;
    Py_XDECREF(by_name);
    Py_XDECREF(names);
out:
    Py_DECREF(mod);
    return rc;
}
