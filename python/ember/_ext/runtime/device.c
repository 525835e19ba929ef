/* ember Python extension: ember.Device and the current-device functions.
 *
 * A Device object is a small handle on an em_device (which ember owns for
 * the life of the process), so objects are made freely and compare by
 * (type, id) rather than by identity. */
#include <limits.h>
#include "runtime/module.h"
#include "runtime/errors.h"
#include "runtime/args.h"

PyObject *empy_device_new(empy_state *st, em_device *dev)
{
    empy_Device *o = PyObject_New(empy_Device, st->Device);
    if (o)
        o->dev = dev;
    return (PyObject *)o;
}

PyObject *empy_device_getter(PyObject *self, void *offset)
{
    return empy_device_new(empy_state_of(self),
                           *(em_device **)((char *)self + (size_t)offset));
}

/* A CUDA ordinal. Without a GPU, 0 is the cpu device, so that a program
 * written for one GPU (cupy.cuda.Device(0).use(), runtime.setDevice(0))
 * runs unchanged; other ordinals still fail, naming why CUDA is missing. */
static em_status device_ordinal(int n, em_device **out)
{
    int count = 0;
    if (n == 0 && (em_device_count(EM_DEVICE_CUDA, &count) != EM_OK ||
                   count == 0))
        return em_device_get(EM_DEVICE_CPU, 0, out);
    return em_device_get(EM_DEVICE_CUDA, n, out);
}

int empy_device_arg(empy_state *st, PyObject *spec, em_device **out)
{
    em_status s;

    if (!spec || spec == Py_None)
        s = em_current_device(out);
    else if (Py_IS_TYPE(spec, st->Device)) {
        *out = ((empy_Device *)spec)->dev;
        return 0;
    } else if (PyUnicode_Check(spec)) {
        const char *text = PyUnicode_AsUTF8(spec);
        if (!text)
            return -1;
        s = em_device_parse(text, out);
    } else if (!PyBool_Check(spec) && PyIndex_Check(spec)) {
        /* An int is a CUDA ordinal, as in cupy.cuda.Device(0). */
        Py_ssize_t n = PyNumber_AsSsize_t(spec, PyExc_OverflowError);
        if (n == -1 && PyErr_Occurred())
            return -1;
        if (n < 0 || n > INT32_MAX) {
            PyErr_Format(PyExc_ValueError,
                         "device ordinal must be a CUDA device number >= 0, "
                         "got %zd", n);
            return -1;
        }
        s = device_ordinal((int)n, out);
    } else {
        PyErr_Format(PyExc_TypeError,
                     "device must be 'cpu', 'cuda', 'cuda:N', an int, an "
                     "ember.Device or None, not %.100s",
                     Py_TYPE(spec)->tp_name);
        return -1;
    }
    return s == EM_OK ? 0 : empy_fail(st, s);
}

static PyObject *Device_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"spec", NULL};
    empy_state *st = empy_state_of_type(type);
    PyObject *spec = Py_None;
    em_device *d;

    if (!PyArg_ParseTupleAndKeywords(args, kw, "|O:Device", kwlist, &spec))
        return NULL;
    if (Py_IS_TYPE(spec, st->Device))
        return Py_NewRef(spec);
    if (empy_device_arg(st, spec, &d) < 0)
        return NULL;
    return empy_device_new(st, d);
}

static void Device_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    tp->tp_free(self);
    Py_DECREF(tp);
}

#define DEV(self) (((empy_Device *)(self))->dev)

EMPY_PY_SLOT(Device_repr, "ember._api.device_info", "device_repr")

static PyObject *Device_str(PyObject *self)
{
    return PyUnicode_FromString(em_device_name(DEV(self)));
}

/* The C API hands out one em_device per device for the life of the
 * process, so its address is the device's identity. */
static Py_hash_t Device_hash(PyObject *self)
{
    return (Py_hash_t)((uintptr_t)DEV(self) >> 4);
}

static PyObject *Device_richcompare(PyObject *a, PyObject *b, int op)
{
    if (!Py_IS_TYPE(b, empy_state_of(a)->Device) || (op != Py_EQ && op != Py_NE))
        Py_RETURN_NOTIMPLEMENTED;
    return PyBool_FromLong((DEV(a) == DEV(b)) == (op == Py_EQ));
}

/* Device.type (the closure is NULL), .id and .arch. */
static const char device_id[] = "id", device_arch[] = "arch";

static PyObject *Device_get(PyObject *self, void *which)
{
    if (which == device_id)
        return PyLong_FromLong(em_device_get_id(DEV(self)));
    if (which == device_arch)
        return PyLong_FromLong(em_device_arch(DEV(self)));
    return PyUnicode_FromString(em_device_get_type(DEV(self)) == EM_DEVICE_CUDA ? "cuda"
                                                                                : "cpu");
}

/* The properties in the order of device_info._PROPS, which names them as
 * cudaGetDeviceProperties does; the name is the C string's bytes. */
static PyObject *Device_get_props(PyObject *self, void *c)
{
    em_device_props p;
    em_status s = em_device_get_props(DEV(self), &p);
    if (s != EM_OK)
        return empy_raise(empy_state_of(self), s);
    p.name[sizeof p.name - 1] = 0;
    return Py_BuildValue(
        "(yLiiiiii(iii)(iii)iiiiiiiiiiiy#)", p.name, (long long)p.total_memory,
        p.max_shared_per_block, p.max_shared_per_block_optin,
        p.max_shared_per_multiprocessor, p.regs_per_block, p.warp_size,
        p.max_threads_per_block, p.max_block_dim[0], p.max_block_dim[1],
        p.max_block_dim[2], p.max_grid_dim[0], p.max_grid_dim[1], p.max_grid_dim[2],
        p.clock_rate_khz, p.memory_clock_rate_khz, p.memory_bus_width,
        p.l2_cache_size, p.multiprocessor_count, p.cc_major, p.cc_minor,
        p.pci_bus_id, p.pci_device_id, p.pci_domain_id, p.unified_addressing,
        (const char *)p.uuid, (Py_ssize_t)sizeof p.uuid);
}

/* (free, total) bytes, which Device.mem_info wraps. */
static PyObject *Device_get_mem_info(PyObject *self, void *c)
{
    size_t free_b = 0, total_b = 0;
    em_status s = em_device_mem_info(DEV(self), &free_b, &total_b);
    if (s != EM_OK)
        return empy_raise(empy_state_of(self), s);
    return Py_BuildValue("(nn)", (Py_ssize_t)free_b, (Py_ssize_t)total_b);
}

/* (least, greatest) stream priorities (ember.cuda.runtime's
 * deviceGetStreamPriorityRange); (0, 0) on cpu, which has one. */
static PyObject *Device_get_priority_range(PyObject *self, void *c)
{
    int least = 0, greatest = 0;
    em_status s = em_device_stream_priority_range(DEV(self), &least, &greatest);
    if (s != EM_OK)
        return empy_raise(empy_state_of(self), s);
    return Py_BuildValue("(ii)", least, greatest);
}

static PyObject *Device_synchronize(PyObject *self, PyObject *unused)
{
    em_status s;
    EMPY_NOGIL(s, em_device_synchronize(DEV(self)));
    return empy_none_or_raise(empy_state_of(self), s);
}

/* Device.attribute(attr): CUDA's device attribute number attr
 * (em_device_attribute; cupy.cuda.runtime.deviceGetAttribute). */
static PyObject *Device_attribute(PyObject *self, PyObject *arg)
{
    int64_t attr;
    int v = 0;
    em_status s;
    if (empy_index_arg(arg, "attr", 0, &attr) < 0)
        return NULL;
    if (attr < INT_MIN || attr > INT_MAX)
        return PyErr_Format(PyExc_ValueError, "%lld is not a device attribute",
                            (long long)attr);
    if ((s = em_device_attribute(DEV(self), (int)attr, &v)) != EM_OK)
        return empy_raise(empy_state_of(self), s);
    return PyLong_FromLong(v);
}

static PyObject *Device_use(PyObject *self, PyObject *unused)
{
    empy_set_device(empy_state_of(self), DEV(self));
    Py_RETURN_NONE;
}

static PyObject *Device_enter(PyObject *self, PyObject *unused)
{
    empy_state *st = empy_state_of(self);
    if (empy_context_push(st) < 0)
        return NULL;
    empy_set_device(st, DEV(self));
    return Py_NewRef(self);
}

/* NVML's view of a GPU, /proc's and /sys's of the host. */
EMPY_PY_METHOD(Device_status, "ember._api.device_status", "status")

static PyMethodDef Device_methods[] = {
    {"synchronize", Device_synchronize, METH_NOARGS,
     "Wait for all work on every stream of the device."},
    {"use", Device_use, METH_NOARGS,
     "Make this the calling thread's current device."},
    {"attribute", Device_attribute, METH_O,
     "attribute(attr): CUDA's device attribute number attr (a "
     "CUdevice_attribute); on cpu what its properties hold, 0 for GPU "
     "features it has not."},
    {"status", EMPY_FASTKW(Device_status),
     "status(): memory, utilisation, temperature, power, clocks, processes "
     "(NVML on cuda, /proc and /sys on cpu; None where unknown)."},
    {"__enter__", Device_enter, METH_NOARGS, NULL},
    {"__exit__", (PyCFunction)(void (*)(void))empy_context_exit, METH_FASTCALL, NULL},
    {NULL},
};

#define COLD(name) static const empy_pyattr cold_##name = {"ember._api.device_info", #name};
COLD(name)
COLD(compute_capability)
COLD(mem_info)
COLD(uuid)
COLD(attributes)
COLD(properties)

static PyGetSetDef Device_getset[] = {
    {"type", Device_get, NULL, "'cpu' or 'cuda'.", NULL},
    {"id", Device_get, NULL, "The ordinal within its type.", (void *)device_id},
    {"name", empy_py_getter, NULL, "The hardware's name.", (void *)&cold_name},
    {"compute_capability", empy_py_getter, NULL, "(major, minor); (0, 0) on cpu.",
     (void *)&cold_compute_capability},
    {"arch", Device_get, NULL,
     "The compile target in kernel cache keys: 10*major+minor on cuda; on "
     "cpu a digest of the CPU's model and flags (0 if unknown).", (void *)device_arch},
    {"mem_info", empy_py_getter, NULL,
     "(free, total) bytes of the device (RAM on cpu), as CuPy's property; "
     "mem_info() gives the same.", (void *)&cold_mem_info},
    {"uuid", empy_py_getter, NULL,
     "The GPU's UUID ('8-4-4-4-12' hex digits); None on cpu.", (void *)&cold_uuid},
    {"properties", empy_py_getter, NULL,
     "Every device property, named as cudaGetDeviceProperties does.",
     (void *)&cold_properties},
    {"attributes", empy_py_getter, NULL,
     "Device attributes, named as cupy.cuda.Device.attributes does.",
     (void *)&cold_attributes},
    {"_props", Device_get_props, NULL, NULL, NULL},
    {"_mem_info", Device_get_mem_info, NULL, NULL, NULL},
    {"_priority_range", Device_get_priority_range, NULL, NULL, NULL},
    {NULL},
};

static PyType_Slot Device_slots[] = {
    {Py_tp_new, Device_new},
    {Py_tp_dealloc, Device_dealloc},
    {Py_tp_repr, Device_repr},
    {Py_tp_str, Device_str},
    {Py_tp_hash, Device_hash},
    {Py_tp_richcompare, Device_richcompare},
    {Py_tp_methods, Device_methods},
    {Py_tp_getset, Device_getset},
    {Py_tp_doc, "Device(spec=None)\n\nA device: 'cpu', 'cuda', 'cuda:N', "
                "'gpu:N', an int N (cuda:N; 0 is cpu when there is no GPU) "
                "or None (the current device).\n"
                "`with device:` makes it current for the block."},
    {0, NULL},
};

static PyType_Spec Device_spec = {
    "ember.Device", sizeof(empy_Device), 0,
    Py_TPFLAGS_DEFAULT | EMPY_TPFLAGS_IMMUTABLE, Device_slots,
};

/* ---- module functions ---------------------------------------------- */

static PyObject *mod_default_device(PyObject *m, PyObject *unused)
{
    empy_state *st = empy_state_of_module(m);
    em_device *d;
    em_status s = em_device_default(&d);
    if (s != EM_OK)
        return empy_raise(st, s);
    return empy_device_new(st, d);
}

static PyObject *mod_get_current_device(PyObject *m, PyObject *unused)
{
    empy_state *st = empy_state_of_module(m);
    em_device *d;
    if (empy_device_arg(st, NULL, &d) < 0)
        return NULL;
    return empy_device_new(st, d);
}

static PyMethodDef device_functions[] = {
    {"default_device", mod_default_device, METH_NOARGS,
     "The default device: $EMBER_DEVICE, else cuda:0 when a GPU works, else cpu."},
    {"get_current_device", mod_get_current_device, METH_NOARGS,
     "The calling thread's current device."},
    {NULL},
};

int empy_device_init(PyObject *m, empy_state *st)
{
    if (empy_add_type(m, &Device_spec, NULL, &st->Device) < 0)
        return -1;
    return PyModule_AddFunctions(m, device_functions);
}
