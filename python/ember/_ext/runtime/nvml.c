/* ember Python extension: NVML (ember/nvml.h) for ember.nvml and
 * Device.status() (python/ember/nvml.py, _api/device_status.py). A device
 * handle travels as an int; a failure raises through empy_raise, and the
 * Python layer turns it into pynvml's NVMLError subclass by _nvml_code(). */
#include "runtime/module.h"
#include "runtime/errors.h"
#include "ember/nvml.h"

/* Run the NVML call `expr` with the GIL released (a query can wait on the
 * driver for milliseconds); raise on failure. */
#define NVML_CALL(m, expr)                                      \
    do {                                                        \
        em_status st_;                                          \
        Py_BEGIN_ALLOW_THREADS                                  \
        st_ = (expr);                                           \
        Py_END_ALLOW_THREADS                                    \
        if (st_ != EM_OK)                                       \
            return empy_raise(empy_state_of_module(m), st_);    \
    } while (0)

static int handle_arg(PyObject *o, em_nvml_device **d)
{
    if (!PyLong_Check(o)) {
        PyErr_Format(PyExc_TypeError, "an NVML device handle, not %.100s",
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    *d = (em_nvml_device *)PyLong_AsVoidPtr(o);
    return PyErr_Occurred() ? -1 : 0;
}

/* Two ints (handle, selector) of a FASTCALL call. */
static int handle_int_args(PyObject *const *a, Py_ssize_t n, const char *name,
                           em_nvml_device **d, int *k)
{
    if (n != 2) {
        PyErr_Format(PyExc_TypeError, "%s takes 2 arguments", name);
        return -1;
    }
    if (handle_arg(a[0], d) < 0)
        return -1;
    *k = PyLong_AsLong(a[1]);
    return *k == -1 && PyErr_Occurred() ? -1 : 0;
}

static PyObject *nv_init(PyObject *m, PyObject *unused)
{
    NVML_CALL(m, em_nvml_init());
    Py_RETURN_NONE;
}

static PyObject *nv_shutdown(PyObject *m, PyObject *unused)
{
    NVML_CALL(m, em_nvml_shutdown());
    Py_RETURN_NONE;
}

static PyObject *nv_code(PyObject *m, PyObject *unused)
{
    return PyLong_FromLong(em_nvml_code());
}

static PyObject *nv_loaded(PyObject *m, PyObject *unused)
{
    return PyBool_FromLong(em_nvml_loaded());
}

static PyObject *nv_count(PyObject *m, PyObject *unused)
{
    unsigned n = 0;
    NVML_CALL(m, em_nvml_count(&n));
    return PyLong_FromUnsignedLong(n);
}

static PyObject *nv_handle(PyObject *m, PyObject *arg)
{
    em_nvml_device *d = NULL;
    long i = PyLong_AsLong(arg);
    if (i == -1 && PyErr_Occurred())
        return NULL;
    if (i < 0)
        return PyErr_Format(PyExc_ValueError, "device index %ld < 0", i);
    NVML_CALL(m, em_nvml_handle_by_index((unsigned)i, &d));
    return PyLong_FromVoidPtr(d);
}

static PyObject *nv_handle_by_uuid(PyObject *m, PyObject *arg)
{
    em_nvml_device *d = NULL;
    const char *u = PyUnicode_Check(arg) ? PyUnicode_AsUTF8(arg) : NULL;
    if (!u)
        return PyErr_Occurred() ? NULL
                                : PyErr_Format(PyExc_TypeError, "a str uuid");
    NVML_CALL(m, em_nvml_handle_by_uuid(u, &d));
    return PyLong_FromVoidPtr(d);
}

static PyObject *nv_name(PyObject *m, PyObject *h)
{
    char buf[96] = "";
    em_nvml_device *d;
    if (handle_arg(h, &d) < 0)
        return NULL;
    NVML_CALL(m, em_nvml_name(d, buf, sizeof buf));
    return PyUnicode_FromString(buf);
}

static PyObject *nv_uuid(PyObject *m, PyObject *h)
{
    char buf[96] = "";
    em_nvml_device *d;
    if (handle_arg(h, &d) < 0)
        return NULL;
    NVML_CALL(m, em_nvml_uuid(d, buf, sizeof buf));
    return PyUnicode_FromString(buf);
}

static PyObject *nv_driver_version(PyObject *m, PyObject *unused)
{
    char buf[96] = "";
    NVML_CALL(m, em_nvml_driver_version(buf, sizeof buf));
    return PyUnicode_FromString(buf);
}

/* _nvml_memory(h, version): (total, free, used, reserved) in bytes. */
static PyObject *nv_memory(PyObject *m, PyObject *const *a, Py_ssize_t n)
{
    em_nvml_device *d;
    em_nvml_memory mem;
    int version;
    if (handle_int_args(a, n, "_nvml_memory", &d, &version) < 0)
        return NULL;
    NVML_CALL(m, em_nvml_memory_info(d, version, &mem));
    return Py_BuildValue("(KKKK)", (unsigned long long)mem.total,
                         (unsigned long long)mem.free, (unsigned long long)mem.used,
                         (unsigned long long)mem.reserved);
}

static PyObject *nv_utilization(PyObject *m, PyObject *h)
{
    em_nvml_device *d;
    unsigned gpu = 0, mem = 0;
    if (handle_arg(h, &d) < 0)
        return NULL;
    NVML_CALL(m, em_nvml_utilization(d, &gpu, &mem));
    return Py_BuildValue("(II)", gpu, mem);
}

/* _nvml_reading(h, what, k): one unsigned reading; what 0 temperature
 * of sensor k, 1 clock of type k, 2 PCIe counter k, 3 power, 4 power
 * limit (k unused for both), 5 whether NVLink k is active. */
static em_status reading(em_nvml_device *d, int what, int k, unsigned *v)
{
    switch (what) {
    case 0: return em_nvml_temperature(d, k, v);
    case 1: return em_nvml_clock(d, k, v);
    case 2: return em_nvml_pcie_throughput(d, k, v);
    case 3: return em_nvml_power_usage(d, v);
    case 4: return em_nvml_power_limit(d, v);
    case 5: {
        int a = 0;
        em_status st = em_nvml_nvlink_state(d, (unsigned)k, &a);
        *v = (unsigned)a;
        return st;
    }
    }
    return em_error(EM_ERR_INVALID_VALUE, "_nvml_reading: what %d", what);
}

static PyObject *nv_reading(PyObject *m, PyObject *const *a, Py_ssize_t n)
{
    em_nvml_device *d;
    long what, k;
    unsigned v = 0;
    if (n != 3) {
        PyErr_SetString(PyExc_TypeError, "_nvml_reading takes 3 arguments");
        return NULL;
    }
    if (handle_arg(a[0], &d) < 0 ||
        ((what = PyLong_AsLong(a[1])) == -1 && PyErr_Occurred()) ||
        ((k = PyLong_AsLong(a[2])) == -1 && PyErr_Occurred()))
        return NULL;
    NVML_CALL(m, reading(d, (int)what, (int)k, &v));
    return PyLong_FromUnsignedLong(v);
}

/* _nvml_ecc(h, error_type * 2 + counter): a count. */
static PyObject *nv_ecc(PyObject *m, PyObject *const *a, Py_ssize_t n)
{
    em_nvml_device *d;
    int k;
    uint64_t v = 0;
    if (handle_int_args(a, n, "_nvml_ecc", &d, &k) < 0)
        return NULL;
    NVML_CALL(m, em_nvml_ecc_errors(d, k / 2, k % 2, &v));
    return PyLong_FromUnsignedLongLong(v);
}

static PyObject *nv_throttle(PyObject *m, PyObject *h)
{
    em_nvml_device *d;
    uint64_t v = 0;
    if (handle_arg(h, &d) < 0)
        return NULL;
    NVML_CALL(m, em_nvml_throttle_reasons(d, &v));
    return PyLong_FromUnsignedLongLong(v);
}

/* (busIdLegacy, domain, bus, device, pciDeviceId, pciSubSystemId, busId) */
static PyObject *nv_pci(PyObject *m, PyObject *h)
{
    em_nvml_device *d;
    em_nvml_pci p;
    if (handle_arg(h, &d) < 0)
        return NULL;
    NVML_CALL(m, em_nvml_pci_info(d, &p));
    return Py_BuildValue("(sIIIIIs)", p.bus_id_legacy, p.domain, p.bus, p.device,
                         p.pci_device_id, p.pci_subsystem_id, p.bus_id);
}

/* ((pid, used bytes), ...) of the compute processes. */
static PyObject *nv_processes(PyObject *m, PyObject *h)
{
    em_nvml_device *d;
    em_nvml_process p[256];
    unsigned n = 256;
    PyObject *out;
    if (handle_arg(h, &d) < 0)
        return NULL;
    NVML_CALL(m, em_nvml_processes(d, p, &n));
    if (!(out = PyTuple_New(n)))
        return NULL;
    for (unsigned i = 0; i < n; i++) {
        PyObject *row = Py_BuildValue("(IK)", p[i].pid,
                                      (unsigned long long)p[i].used_memory);
        if (!row) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, row);
    }
    return out;
}

/* A field's value as Python sees it, by its value_type. */
static PyObject *field_value(const em_nvml_field *f)
{
    switch (f->value_type) {
    case 0: return PyFloat_FromDouble(f->value.d);
    case 1: return PyLong_FromUnsignedLong(f->value.u32);
    case 4: return PyLong_FromLongLong(f->value.i64);
    case 5: return PyLong_FromLong(f->value.i32);
    case 6: return PyLong_FromUnsignedLong(f->value.u16);
    default: return PyLong_FromUnsignedLongLong(f->value.u64);
    }
}

/* _nvml_fields(h, ((field_id, scope_id), ...)): one (fieldId, scopeId,
 * timestamp, latencyUsec, valueType, nvmlReturn, value) a field. */
static PyObject *nv_fields(PyObject *m, PyObject *const *a, Py_ssize_t n)
{
    em_nvml_device *d;
    em_nvml_field f[64];
    PyObject *seq, *out;
    Py_ssize_t k;
    if (n != 2) {
        PyErr_SetString(PyExc_TypeError, "_nvml_fields takes 2 arguments");
        return NULL;
    }
    if (handle_arg(a[0], &d) < 0 ||
        !(seq = PySequence_Fast(a[1], "_nvml_fields: a sequence of (id, scope)")))
        return NULL;
    k = PySequence_Fast_GET_SIZE(seq);
    if (k > 64) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "nvmlDeviceGetFieldValues: %zd fields, at "
                     "most 64 at once", k);
        return NULL;
    }
    memset(f, 0, sizeof f);
    for (Py_ssize_t i = 0; i < k; i++) {
        unsigned long id, scope;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "kk;_nvml_fields: "
                              "(field id, scope id)", &id, &scope)) {
            Py_DECREF(seq);
            return NULL;
        }
        f[i].field_id = (unsigned)id;
        f[i].scope_id = (unsigned)scope;
    }
    Py_DECREF(seq);
    NVML_CALL(m, em_nvml_field_values(d, (int)k, f));
    if (!(out = PyTuple_New(k)))
        return NULL;
    for (Py_ssize_t i = 0; i < k; i++) {
        PyObject *v = field_value(&f[i]), *row;
        row = v ? Py_BuildValue("(IILLiiN)", f[i].field_id, f[i].scope_id,
                                (long long)f[i].timestamp, (long long)f[i].latency_usec,
                                f[i].value_type, f[i].nvml_return, v) : NULL;
        if (!row) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, row);
    }
    return out;
}

#define FAST(f) (PyCFunction)(void (*)(void))(f), METH_FASTCALL
static PyMethodDef nvml_functions[] = {
    {"_nvml_init", nv_init, METH_NOARGS, NULL},
    {"_nvml_shutdown", nv_shutdown, METH_NOARGS, NULL},
    {"_nvml_code", nv_code, METH_NOARGS, NULL},
    {"_nvml_loaded", nv_loaded, METH_NOARGS, NULL},
    {"_nvml_count", nv_count, METH_NOARGS, NULL},
    {"_nvml_handle", nv_handle, METH_O, NULL},
    {"_nvml_handle_by_uuid", nv_handle_by_uuid, METH_O, NULL},
    {"_nvml_name", nv_name, METH_O, NULL},
    {"_nvml_uuid", nv_uuid, METH_O, NULL},
    {"_nvml_driver_version", nv_driver_version, METH_NOARGS, NULL},
    {"_nvml_memory", FAST(nv_memory), NULL},
    {"_nvml_utilization", nv_utilization, METH_O, NULL},
    {"_nvml_reading", FAST(nv_reading), NULL},
    {"_nvml_ecc", FAST(nv_ecc), NULL},
    {"_nvml_throttle", nv_throttle, METH_O, NULL},
    {"_nvml_pci", nv_pci, METH_O, NULL},
    {"_nvml_processes", nv_processes, METH_O, NULL},
    {"_nvml_fields", FAST(nv_fields), NULL},
    {NULL, NULL, 0, NULL}};

int empy_nvml_init(PyObject *m, empy_state *st)
{
    return PyModule_AddFunctions(m, nvml_functions);
}
