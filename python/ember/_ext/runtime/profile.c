/* ember Python extension: the profiler (ember/profile.h) for
 * python/ember/profiler.py. Records come back as tuples; the summary and
 * the trace are composed in Python from them. */
#include <string.h>

#include "runtime/module.h"
#include "runtime/errors.h"
#include "ember/profile.h"

/* _prof_start(device_times="auto"): "auto", "events" or "cupti" */
static PyObject *pr_start(PyObject *m, PyObject *const *args, Py_ssize_t n)
{
    em_prof_times how = EM_PROF_TIMES_AUTO;
    em_status st;
    if (n > 1) {
        PyErr_SetString(PyExc_TypeError, "_prof_start takes at most 1 argument");
        return NULL;
    }
    if (n == 1) {
        const char *s = PyUnicode_Check(args[0]) ? PyUnicode_AsUTF8(args[0]) : NULL;
        if (s && !strcmp(s, "events"))
            how = EM_PROF_TIMES_EVENTS;
        else if (s && !strcmp(s, "cupti"))
            how = EM_PROF_TIMES_CUPTI;
        else if (!s || strcmp(s, "auto")) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_ValueError, "_prof_start: device_times must "
                             "be 'auto', 'events' or 'cupti', not %R", args[0]);
            return NULL;
        }
    }
    st = em_prof_start_with(how);
    if (st == EM_ERR_UNAVAILABLE) {
        /* CUPTI asked for and not usable: the message says why */
        PyErr_Format(PyExc_RuntimeError, "ember.profile(device_times='cupti'): %s",
                     em_last_error());
        return NULL;
    }
    if (st == EM_ERR_INVALID_VALUE) {
        /* the one failure: a profile records already */
        PyErr_SetString(PyExc_RuntimeError, "ember.profile(): a profile is "
                        "already recording; profiles cannot nest or overlap "
                        "(one at a time per process, in any thread)");
        return NULL;
    }
    return empy_none_or_raise(empy_state_of_module(m), st);
}

/* (kind, name, device, stream, thread, tid, depth, bytes, host_start,
 * host_end, dev_start, dev_end) per record; times in ns. */
static PyObject *pr_records(PyObject *m, PyObject *unused)
{
    size_t n = em_prof_count();
    const em_prof_record *r = em_prof_records();
    PyObject *out = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; out && i < n; i++) {
        PyObject *t = Py_BuildValue("(issiiliKLLLL)", (int)r[i].kind, r[i].name,
                                    r[i].device, r[i].stream, r[i].thread,
                                    r[i].tid, r[i].depth,
                                    (unsigned long long)r[i].bytes,
                                    (long long)r[i].host_start,
                                    (long long)r[i].host_end,
                                    (long long)r[i].dev_start,
                                    (long long)r[i].dev_end);
        if (!t) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, (Py_ssize_t)i, t);
    }
    return out;
}

/* Stop and return the records: waits for the profiled devices, without
 * the GIL. */
static PyObject *pr_stop(PyObject *m, PyObject *unused)
{
    em_status st;
    if (!em_prof_on) {
        PyErr_SetString(PyExc_RuntimeError, "ember.profile(): no profile is recording");
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    st = em_prof_stop();
    Py_END_ALLOW_THREADS
    if (st != EM_OK)
        return empy_raise(empy_state_of_module(m), st);
    return pr_records(m, NULL);
}

static PyObject *pr_active(PyObject *m, PyObject *unused)
{
    return PyBool_FromLong(em_prof_on);
}

static PyObject *pr_push(PyObject *m, PyObject *name)
{
    const char *s = PyUnicode_AsUTF8(name);
    if (!s)
        return NULL;
    em_prof_range_push(s);
    Py_RETURN_NONE;
}

static PyObject *pr_pop(PyObject *m, PyObject *unused)
{
    em_prof_range_pop();
    Py_RETURN_NONE;
}

static PyObject *pr_times(PyObject *m, PyObject *unused)
{
    return PyUnicode_FromString(em_prof_device_times() == EM_PROF_TIMES_CUPTI
                                ? "cupti" : "events");
}

static PyObject *pr_nvtx(PyObject *m, PyObject *unused)
{
    return PyBool_FromLong(em_prof_nvtx_attached());
}

static PyMethodDef profile_functions[] = {
    {"_prof_start", (PyCFunction)(void (*)(void))pr_start, METH_FASTCALL, NULL},
    {"_prof_device_times", pr_times, METH_NOARGS, NULL},
    {"_prof_stop", pr_stop, METH_NOARGS, NULL},
    {"_prof_records", pr_records, METH_NOARGS, NULL},
    {"_prof_active", pr_active, METH_NOARGS, NULL},
    {"_prof_range_push", pr_push, METH_O, NULL},
    {"_prof_range_pop", pr_pop, METH_NOARGS, NULL},
    {"_prof_nvtx", pr_nvtx, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL}};

int empy_profile_init(PyObject *m, empy_state *st)
{
    (void)st;
    return PyModule_AddFunctions(m, profile_functions);
}
