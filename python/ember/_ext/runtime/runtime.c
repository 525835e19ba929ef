/* ember Python extension: `ember.cuda.runtime`, the CUDA runtime API's
 * spellings (cupy.cuda.runtime) for code that talks in device ordinals.
 *
 * A plain module object made here and exposed as `_ember.runtime`; its
 * functions are bound to the extension module so they reach its state. */
#include "runtime/module.h"
#include "runtime/errors.h"

/* An ordinal as Device(n) reads it: cuda:n, or the cpu device for 0 when
 * there is no GPU (so setDevice(0) and getDeviceProperties(0) work there). */
static int cuda_device(empy_state *st, PyObject *arg, em_device **out)
{
    if (PyBool_Check(arg) || !PyLong_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "a device ordinal must be an int, not %.100s",
                     Py_TYPE(arg)->tp_name);
        return -1;
    }
    return empy_device_arg(st, arg, out);
}

static PyObject *rt_getDeviceCount(PyObject *m, PyObject *unused)
{
    int n = 0;
    em_status rc = em_device_count(EM_DEVICE_CUDA, &n);
    if (rc != EM_OK)
        return empy_raise(empy_state_of_module(m), rc);
    return PyLong_FromLong(n);
}

/* The current CUDA device's ordinal. When the thread's current device is
 * the cpu, CUDA's own notion still applies: device 0 if there is one, and
 * without a GPU 0 as well, the ordinal that names the cpu device. */
static PyObject *rt_getDevice(PyObject *m, PyObject *unused)
{
    empy_state *st = empy_state_of_module(m);
    em_device *d;
    if (empy_device_arg(st, NULL, &d) < 0)
        return NULL;
    if (em_device_get_type(d) == EM_DEVICE_CUDA)
        return PyLong_FromLong(em_device_get_id(d));
    return PyLong_FromLong(0);
}

static PyObject *rt_setDevice(PyObject *m, PyObject *arg)
{
    empy_state *st = empy_state_of_module(m);
    em_device *d;
    if (cuda_device(st, arg, &d) < 0)
        return NULL;
    empy_set_device(st, d);
    Py_RETURN_NONE;
}

static PyObject *rt_getDeviceProperties(PyObject *m, PyObject *arg)
{
    empy_state *st = empy_state_of_module(m);
    em_device_props p;
    em_device *d;
    em_status rc;
    PyObject *props, *name;
    if (cuda_device(st, arg, &d) < 0)
        return NULL;
    rc = em_device_get_props(d, &p);
    if (rc != EM_OK)
        return empy_raise(st, rc);
    if (!(props = empy_props_dict(&p)))
        return NULL;
    /* CuPy's dict holds the name as the C string's bytes (programs call
     * props['name'].decode()); Device.properties keeps it a str. */
    p.name[sizeof p.name - 1] = 0;
    name = PyBytes_FromString(p.name);
    if (!name || PyDict_SetItemString(props, "name", name) < 0) {
        Py_XDECREF(name);
        Py_DECREF(props);
        return NULL;
    }
    Py_DECREF(name);
    return props;
}

static PyObject *rt_driverGetVersion(PyObject *m, PyObject *unused)
{
    return PyLong_FromLong(em_cuda_driver_version());
}

/* ember has no CUDA runtime library; the run-time compiler is what stands
 * in for it, so its version is the one reported. */
static PyObject *rt_runtimeGetVersion(PyObject *m, PyObject *unused)
{
    return PyLong_FromLong(em_nvrtc_version());
}

/* The calling thread's current device; NULL with the exception set. */
static em_device *current(PyObject *m)
{
    em_device *d;
    return empy_device_arg(empy_state_of_module(m), NULL, &d) < 0 ? NULL : d;
}

/* 1 with the exception for rc set, 0 for EM_OK. */
static int failed(PyObject *m, em_status rc)
{
    if (rc == EM_OK)
        return 0;
    empy_raise(empy_state_of_module(m), rc);
    return 1;
}

static PyObject *rt_deviceSynchronize(PyObject *m, PyObject *unused)
{
    em_device *d = current(m);
    em_status rc;
    if (!d)
        return NULL;
    Py_BEGIN_ALLOW_THREADS
    rc = em_device_synchronize(d);
    Py_END_ALLOW_THREADS
    if (failed(m, rc))
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *rt_memGetInfo(PyObject *m, PyObject *unused)
{
    size_t free_b = 0, total_b = 0;
    em_device *d = current(m);
    if (!d || failed(m, em_device_mem_info(d, &free_b, &total_b)))
        return NULL;
    return Py_BuildValue("(nn)", (Py_ssize_t)free_b, (Py_ssize_t)total_b);
}

static PyObject *rt_deviceGetStreamPriorityRange(PyObject *m, PyObject *unused)
{
    int least = 0, greatest = 0;
    em_device *d = current(m);
    if (!d || failed(m, em_device_stream_priority_range(d, &least, &greatest)))
        return NULL;
    return Py_BuildValue("(ii)", least, greatest);
}

static PyMethodDef runtime_functions[] = {
    {"getDeviceCount", rt_getDeviceCount, METH_NOARGS,
     "The number of CUDA devices (0 without a driver or GPU)."},
    {"getDevice", rt_getDevice, METH_NOARGS, "The current CUDA device's ordinal."},
    {"setDevice", rt_setDevice, METH_O,
     "setDevice(n): make cuda:n current (0 without a GPU: the cpu device)."},
    {"getDeviceProperties", rt_getDeviceProperties, METH_O,
     "getDeviceProperties(n) -> dict of cuda:n's properties (0 without a "
     "GPU: the cpu device's)."},
    {"driverGetVersion", rt_driverGetVersion, METH_NOARGS,
     "The CUDA driver's version (12040 for 12.4); 0 without a driver."},
    {"runtimeGetVersion", rt_runtimeGetVersion, METH_NOARGS,
     "The NVRTC version (12040 for 12.4); 0 without NVRTC."},
    {"deviceSynchronize", rt_deviceSynchronize, METH_NOARGS,
     "Wait for all work on the current device."},
    {"memGetInfo", rt_memGetInfo, METH_NOARGS,
     "(free, total) bytes of the current device."},
    {"deviceGetStreamPriorityRange", rt_deviceGetStreamPriorityRange, METH_NOARGS,
     "(least, greatest) stream priorities of the current device; (0, 0) on "
     "cpu, which has one."},
    {NULL},
};

static PyObject *mod_cuda_is_available(PyObject *m, PyObject *unused)
{
    int n = 0;
    if (em_device_count(EM_DEVICE_CUDA, &n) != EM_OK)
        n = 0;
    return PyBool_FromLong(n > 0);
}

static PyMethodDef runtime_module_functions[] = {
    {"cuda_is_available", mod_cuda_is_available, METH_NOARGS,
     "True if a CUDA driver and at least one GPU work."},
    {NULL},
};

int empy_runtime_init(PyObject *m, empy_state *st)
{
    PyObject *rt = PyModule_New("ember.cuda.runtime"), *modname;
    PyMethodDef *def;
    int rc;

    if (!rt)
        return -1;
    modname = PyUnicode_FromString("ember.cuda.runtime");
    if (!modname)
        goto fail;
    for (def = runtime_functions; def->ml_name; def++) {
        PyObject *f = PyCFunction_NewEx(def, m, modname);
        if (!f || PyModule_AddObjectRef(rt, def->ml_name, f) < 0) {
            Py_XDECREF(f);
            Py_DECREF(modname);
            goto fail;
        }
        Py_DECREF(f);
    }
    Py_DECREF(modname);
    if (PyModule_AddIntConstant(rt, "cudaSuccess", 0) < 0 ||
        /* CuPy's flag that programs test before ROCm-specific paths */
        PyModule_AddObjectRef(rt, "is_hip", Py_False) < 0)
        goto fail;
    rc = PyModule_AddObjectRef(m, "runtime", rt);
    Py_DECREF(rt);
    if (rc < 0)
        return -1;
    return PyModule_AddFunctions(m, runtime_module_functions);

fail:
    Py_DECREF(rt);
    return -1;
}
