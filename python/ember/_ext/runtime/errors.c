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
    case EM_ERR_CAPTURE: return st->StreamCaptureError;
    default: return PyExc_RuntimeError;
    }
}

/* C text as a str (bad bytes replaced); None for NULL. */
static PyObject *text(const char *s)
{
    return s ? PyUnicode_DecodeUTF8(s, (Py_ssize_t)strlen(s), "replace") : Py_NewRef(Py_None);
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
    if (!(pmsg = text(msg)))
        return NULL;
    if (cls == st->CUDAError || cls == st->CompileError) {
        /* _errors.py's _from_c sets .code and .name, or .log. */
        PyObject *exc = cls == st->CompileError
            ? PyObject_CallMethod(cls, "_from_c", "O", pmsg)
            : PyObject_CallMethod(cls, "_from_c", "Ols", pmsg, (long)em_last_error_native(),
                                  em_last_error_native_name());
        if (exc)
            PyErr_SetObject(cls, exc);
        Py_XDECREF(exc);
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

PyObject *empy_none_or_raise(empy_state *st, em_status s)
{
    return s == EM_OK ? Py_NewRef(Py_None) : empy_raise(st, s);
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
    exc = PyObject_CallMethod(mod, "compile_error", "NNN", text(msg), text(log),
                              text(source));
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

/* The classes come from python/ember/_errors.py, whose _install adds
 * ember's own to the module, with NumPy's lookups (_np_exception,
 * _np_exception_names, for ember's __getattr__), and returns those kept
 * here: the three classes and `current`, which answers the class of
 * NumPy's to raise. */
int empy_errors_init(PyObject *m, empy_state *st)
{
    PyObject *mod = PyImport_ImportModule("ember._errors"), *t;
    int ok;
    t = mod ? PyObject_CallMethod(mod, "_install", "O", m) : NULL;
    ok = t && PyArg_ParseTuple(t, "OOOOO", &st->CUDAError, &st->CompileError,
                               &st->BackendUnavailableError, &st->np_exc_current,
                               &st->StreamCaptureError);
    if (ok) {
        Py_INCREF(st->StreamCaptureError);
        Py_INCREF(st->CUDAError);
        Py_INCREF(st->CompileError);
        Py_INCREF(st->BackendUnavailableError);
        Py_INCREF(st->np_exc_current);
    }
    Py_XDECREF(t);
    Py_XDECREF(mod);
    return ok ? 0 : -1;
}
