/* ember Python extension: the report behind `python -m ember info`. It says
 * what ember found and, for what it did not, why, so it must itself never
 * fail on a machine that lacks something: each failure becomes a line. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "runtime/module.h"
#include "runtime/errors.h"

typedef struct {
    char buf[16384];
    size_t len;
} report;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void say(report *r, const char *fmt, ...)
{
    va_list ap;
    int n;
    if (r->len >= sizeof r->buf - 1)
        return;
    va_start(ap, fmt);
    n = vsnprintf(r->buf + r->len, sizeof r->buf - r->len, fmt, ap);
    va_end(ap);
    if (n > 0)
        r->len += (size_t)n < sizeof r->buf - r->len ? (size_t)n
                                                      : sizeof r->buf - r->len - 1;
}

static void say_version(report *r, const char *what, int v)
{
    if (v > 0)
        say(r, "%-12s %d.%d (%d)\n", what, v / 1000, (v % 1000) / 10, v);
    else
        say(r, "%-12s not found\n", what);
}

static double gib(size_t b)
{
    return (double)b / (1024.0 * 1024.0 * 1024.0);
}

static void say_device(report *r, em_device *d)
{
    em_device_props p;
    size_t free_b = 0, total_b = 0;
    if (em_device_get_props(d, &p) != EM_OK) {
        say(r, "  %-8s (properties unavailable: %s)\n", em_device_name(d), em_last_error());
        return;
    }
    p.name[sizeof p.name - 1] = 0;
    say(r, "  %-8s %s", em_device_name(d), p.name);
    if (em_device_get_type(d) == EM_DEVICE_CUDA)
        say(r, ", compute capability %d.%d, %d SMs", p.cc_major, p.cc_minor,
            p.multiprocessor_count);
    else
        say(r, ", %d cores", p.multiprocessor_count);
    if (em_device_mem_info(d, &free_b, &total_b) == EM_OK)
        say(r, "; memory %.1f GiB total, %.1f GiB free\n", gib(total_b), gib(free_b));
    else
        say(r, "; memory unknown (%s)\n", em_last_error());
}

static PyObject *mod_info(PyObject *m, PyObject *unused)
{
    report *rp;
    em_kernel_cache_stats ks;
    em_device *d;
    uint64_t entries = 0, bytes = 0;
    int n = 0, i;
    PyObject *out;

    rp = PyMem_Malloc(sizeof *rp);
    if (!rp)
        return PyErr_NoMemory();
    rp->len = 0;
    rp->buf[0] = 0;
    say(rp, "ember %s (Python %s)\n", EMBER_VERSION_STRING, Py_GetVersion());
    say(rp, "backends:\n  cpu:  %s\n  cuda: %s\n", em_backend_status(EM_DEVICE_CPU),
        em_backend_status(EM_DEVICE_CUDA));
    say_version(rp, "CUDA driver:", em_cuda_driver_version());
    say_version(rp, "NVRTC:", em_nvrtc_version());

    say(rp, "devices:\n");
    if (em_device_get(EM_DEVICE_CPU, 0, &d) == EM_OK)
        say_device(rp, d);
    else
        say(rp, "  cpu      unavailable: %s\n", em_last_error());
    if (em_device_count(EM_DEVICE_CUDA, &n) != EM_OK)
        n = 0;
    for (i = 0; i < n; i++) {
        if (em_device_get(EM_DEVICE_CUDA, i, &d) == EM_OK)
            say_device(rp, d);
        else
            say(rp, "  cuda:%d   unavailable: %s\n", i, em_last_error());
    }
    if (n == 0)
        say(rp, "device 0 (Device(0), runtime.setDevice(0)): cpu, as there "
                "is no GPU\n");
    if (em_device_default(&d) == EM_OK)
        say(rp, "default device: %s\n", em_device_name(d));
    else
        say(rp, "default device: none (%s)\n", em_last_error());

    if (em_diskcache_usage(&entries, &bytes) == EM_OK)
        say(rp, "kernel cache: %s (%llu entries, %.1f MiB)\n", em_diskcache_dir(),
            (unsigned long long)entries, (double)bytes / (1024.0 * 1024.0));
    else
        say(rp, "kernel cache: %s (unreadable: %s)\n", em_diskcache_dir(), em_last_error());
    em_kernel_cache_get_stats(&ks);
    say(rp, "kernel cache this process: %llu compiles, %llu memory hits, %llu disk hits\n",
        (unsigned long long)ks.compiles, (unsigned long long)ks.memory_hits,
        (unsigned long long)ks.disk_hits);

    say(rp, "CUDA libraries (and the cpu's OpenBLAS):\n");
    for (i = 0; i < EM_VENDOR_COUNT; i++) {
        void *h;
        if (em_vendor_open((em_vendor_lib)i, &h) == EM_OK)
            say(rp, "  %-9s %s\n", em_vendor_name((em_vendor_lib)i),
                em_vendor_path((em_vendor_lib)i));
        else
            say(rp, "  %-9s %s\n", em_vendor_name((em_vendor_lib)i), em_last_error());
    }

    say(rp, "environment (docs/knobs.md lists ember's variables):");
    for (i = 0, n = 0; i < EM_KNOB_COUNT; i++) {
        const char *v = em_knob_text((em_knob)i);
        if (v)
            say(rp, "%s %s=%.200s", n++ ? "," : "", em_knob_name((em_knob)i), v);
    }
    say(rp, "%s\n", n ? "" : " none set");

    out = PyUnicode_DecodeUTF8(rp->buf, (Py_ssize_t)rp->len, "replace");
    PyMem_Free(rp);
    return out;
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
    em_status rc;
    if (!dir) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "_vendor_add_dir: a str folder");
        return NULL;
    }
    if ((rc = em_vendor_add_dir(dir)) != EM_OK)
        return empy_raise(empy_state_of_module(m), rc);
    Py_RETURN_NONE;
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
    {"info", mod_info, METH_NOARGS,
     "A report of ember's version, backends, library versions, devices and "
     "kernel cache (what `python -m ember info` prints)."},
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
