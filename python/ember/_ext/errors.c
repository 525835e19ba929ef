/* ember Python extension: em_status -> exception, and ember's own exception
 * classes. Every failure of the C API reaches Python through here, so the
 * mapping is the same everywhere (DESIGN.md, principle 5). */
#include <string.h>
#include "errors.h"

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
    case EM_ERR_AXIS: return st->AxisError;
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

/* The first line number a compiler's error line names: NVRTC writes
 * "name(12): error: ...", cc writes "name.c:12:5: error: ...". 0 if none. */
static long error_line(const char *log)
{
    const char *p = log;
    while (p && *p) {
        const char *eol = strchr(p, '\n');
        const char *err = strstr(p, "error");
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        if (err && (size_t)(err - p) < len) {
            const char *q;
            for (q = p; q < err; q++) {
                if ((*q == '(' || *q == ':') && q[1] >= '0' && q[1] <= '9') {
                    char *end;
                    long n = strtol(q + 1, &end, 10);
                    if (end < err && (*end == ')' || *end == ':') && n > 0)
                        return n;
                }
            }
        }
        p = eol ? eol + 1 : NULL;
    }
    return 0;
}

/* Line n (1-based) of src, as a new str without its newline; NULL (no
 * exception) if src is shorter. */
static PyObject *source_line(const char *src, long n)
{
    const char *p = src, *eol;
    long i;
    for (i = 1; i < n && p; i++) {
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    if (!p || !*p)
        return NULL;
    eol = strchr(p, '\n');
    return PyUnicode_DecodeUTF8(p, eol ? eol - p : (Py_ssize_t)strlen(p),
                                "replace");
}

PyObject *empy_raise_compile(empy_state *st, em_status s, const char *log,
                             const char *source)
{
    const char *msg = em_last_error();
    PyObject *plog, *pmsg, *line = NULL;
    long lineno;

    if (s != EM_ERR_COMPILE)
        return empy_raise(st, s);
    if (!log || !*log)
        log = msg;
    lineno = error_line(log);
    if (lineno > 0 && source)
        line = source_line(source, lineno);
    plog = PyUnicode_DecodeUTF8(log, (Py_ssize_t)strlen(log), "replace");
    if (!plog) {
        Py_XDECREF(line);
        return NULL;
    }
    if (line) {
        PyObject *stripped = PyObject_CallMethod(line, "strip", NULL);
        pmsg = stripped ? PyUnicode_FromFormat("%s\n  at line %ld: %U", msg,
                                               lineno, stripped)
                        : NULL;
        Py_XDECREF(stripped);
    } else {
        pmsg = PyUnicode_DecodeUTF8(msg, (Py_ssize_t)strlen(msg), "replace");
    }
    if (!pmsg) {
        Py_DECREF(plog);
        Py_XDECREF(line);
        return NULL;
    }
    raise_with_attrs(st->CompileError, pmsg, "log", plog,
                     "lineno", lineno > 0 ? PyLong_FromLong(lineno) : Py_NewRef(Py_None),
                     "source_line", line ? line : Py_NewRef(Py_None),
                     (const char *)NULL);
    Py_DECREF(pmsg);
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

int empy_errors_init(PyObject *m, empy_state *st)
{
    PyObject *attrs;
    int rc;

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
