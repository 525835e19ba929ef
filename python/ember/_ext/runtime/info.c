/* ember Python extension: the facts about this machine's CUDA, vendor
 * libraries, kernel cache and environment that `python -m ember info`
 * (python/ember/_api/sysinfo.py) and ember.cuda.runtime report. */
#include "runtime/module.h"
#include "runtime/errors.h"

/* The number of CUDA devices (0 without a driver or GPU). */
static PyObject *mod_cuda_device_count(PyObject *m, PyObject *unused)
{
    int n = 0;
    em_status rc = em_device_count(EM_DEVICE_CUDA, &n);
    if (rc != EM_OK)
        return empy_raise(empy_state_of_module(m), rc);
    return PyLong_FromLong(n);
}

/* _backend_status(is_cuda): 'ok' or why that backend is unusable. */
static PyObject *mod_backend_status(PyObject *m, PyObject *arg)
{
    int cuda = PyObject_IsTrue(arg);
    return cuda < 0 ? NULL : PyUnicode_FromString(em_backend_status(
                                 cuda ? EM_DEVICE_CUDA : EM_DEVICE_CPU));
}

/* (CUDA driver version, NVRTC version), 0 for one not found. */
static PyObject *mod_cuda_versions(PyObject *m, PyObject *unused)
{
    return Py_BuildValue("(ii)", em_cuda_driver_version(), em_nvrtc_version());
}

/* The disk cache's (folder, entries, bytes, None), or (folder, None,
 * None, why it is unreadable). */
static PyObject *mod_diskcache_usage(PyObject *m, PyObject *unused)
{
    uint64_t entries = 0, bytes = 0;
    if (em_diskcache_usage(&entries, &bytes) != EM_OK)
        return Py_BuildValue("(sOOs)", em_diskcache_dir(), Py_None, Py_None,
                             em_last_error());
    return Py_BuildValue("(sKKO)", em_diskcache_dir(), (unsigned long long)entries,
                         (unsigned long long)bytes, Py_None);
}

/* Every variable of the table as (name, meaning, value or None), for
 * tests that keep docs/knobs.md in step. */
static PyObject *mod_knobs(PyObject *m, PyObject *unused)
{
    PyObject *out = PyTuple_New(EM_KNOB_COUNT);
    for (int i = 0; out && i < EM_KNOB_COUNT; i++) {
        const char *v = em_knob_text((em_knob)i);
        PyObject *row = Py_BuildValue("(ssz)", em_knob_name((em_knob)i),
                                      em_knob_meaning((em_knob)i), v);
        if (!row)
            Py_CLEAR(out);
        else
            PyTuple_SET_ITEM(out, i, row);
    }
    return out;
}

/* _vendor_add_dir(folder): where pip's nvidia-* wheels are (ember/__init__
 * passes site-packages/nvidia of each path entry that has one). */
static PyObject *mod_vendor_add_dir(PyObject *m, PyObject *arg)
{
    const char *dir = PyUnicode_Check(arg) ? PyUnicode_AsUTF8(arg) : NULL;
    if (!dir) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "_vendor_add_dir: a str folder");
        return NULL;
    }
    return empy_none_or_raise(empy_state_of_module(m), em_vendor_add_dir(dir));
}

/* Each CUDA library as (name, file it was loaded from or None, why not or
 * None), opening it if it was not. */
static PyObject *mod_vendor_libs(PyObject *m, PyObject *unused)
{
    PyObject *out = PyTuple_New(EM_VENDOR_COUNT);
    for (int i = 0; out && i < EM_VENDOR_COUNT; i++) {
        void *h;
        int ok = em_vendor_open((em_vendor_lib)i, &h) == EM_OK;
        PyObject *row = Py_BuildValue("(szz)", em_vendor_name((em_vendor_lib)i),
                                      ok ? em_vendor_path((em_vendor_lib)i) : NULL,
                                      ok ? NULL : em_last_error());
        if (!row)
            Py_CLEAR(out);
        else
            PyTuple_SET_ITEM(out, i, row);
    }
    return out;
}

static PyMethodDef info_functions[] = {
    {"_backend_status", mod_backend_status, METH_O, NULL},
    {"_cuda_device_count", mod_cuda_device_count, METH_NOARGS, NULL},
    {"_cuda_versions", mod_cuda_versions, METH_NOARGS, NULL},
    {"_diskcache_usage", mod_diskcache_usage, METH_NOARGS, NULL},
    {"_vendor_add_dir", mod_vendor_add_dir, METH_O,
     "Also look in this folder (pip's site-packages/nvidia) for CUDA libraries."},
    {"_vendor_libs", mod_vendor_libs, METH_NOARGS,
     "The CUDA libraries as (name, path or None, why not or None)."},
    {"_knobs", mod_knobs, METH_NOARGS,
     "ember's environment variables as (name, meaning, value or None)."},
    {NULL},
};

int empy_info_init(PyObject *m, empy_state *st)
{
    return PyModule_AddFunctions(m, info_functions);
}
