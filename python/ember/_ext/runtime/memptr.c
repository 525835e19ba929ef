/* ember Python extension: ember.cuda.UnownedMemory(ptr, size, owner,
 * device_id) stands for memory someone else allocated (owner keeps it
 * alive); ember.cuda.MemoryPointer(mem, offset) is an address inside such
 * memory (or an ember Buffer), with CuPy's arithmetic, copies and memset.
 * On the cpu device the addresses are host addresses. */
#include <string.h>
#include "runtime/module.h"
#include "runtime/errors.h"
#include "runtime/memptr.h"
#include "runtime/args.h"
#include "runtime/member_compat.h"

/* Cold: Python's (python/ember/cuda/memory_objects.py). */
#define OBJECTS "ember.cuda.memory_objects"
static const empy_pyattr cold_device_id = {OBJECTS, "device_id"};

/* ---- UnownedMemory -------------------------------------------------------- */

/* Python checks the arguments (memory_objects.unowned_args): made once per
 * foreign allocation. */
static PyObject *Unowned_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    static const empy_pyattr check = {OBJECTS, "unowned_args"};
    empy_state *st = empy_state_of_type(type);
    PyObject *t = empy_py_method_tuple(&check, (PyObject *)type, args, kw), *owner, *dev;
    unsigned long long ptr;
    Py_ssize_t size;
    empy_Unowned *u = NULL;
    em_device *d;
    if (t && PyArg_ParseTuple(t, "KnOO", &ptr, &size, &owner, &dev) &&
        empy_device_arg(st, dev, &d) == 0 && (u = (empy_Unowned *)type->tp_alloc(type, 0))) {
        u->ptr = (uintptr_t)ptr;
        u->size = (size_t)size;
        u->owner = Py_NewRef(owner);
        u->dev = d;
    }
    Py_XDECREF(t);
    return (PyObject *)u;
}

static void Unowned_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    Py_CLEAR(((empy_Unowned *)self)->owner);
    tp->tp_free(self);
    Py_DECREF(tp);
}

static int Unowned_traverse(PyObject *self, visitproc visit, void *arg)
{
    Py_VISIT(((empy_Unowned *)self)->owner);
    Py_VISIT(Py_TYPE(self));
    return 0;
}

EMPY_PY_SLOT(Unowned_repr, OBJECTS, "unowned_repr")

static PyMemberDef Unowned_members[] = {
    {"ptr", EMPY_T_U64, offsetof(empy_Unowned, ptr), EMPY_READONLY, "The start address."},
    {"size", EMPY_T_U64, offsetof(empy_Unowned, size), EMPY_READONLY, "Bytes."},
    {"owner", EMPY_T_OBJECT, offsetof(empy_Unowned, owner), EMPY_READONLY,
     "What keeps the memory alive."},
    {NULL},
};

static PyGetSetDef Unowned_getset[] = {
    {"device", empy_device_getter, NULL, "The Device the memory is on.",
     EMPY_DEVICE_AT(empy_Unowned)},
    {"device_id", empy_py_getter, NULL, "The device's ordinal.", (void *)&cold_device_id},
    {NULL},
};

static PyType_Slot Unowned_slots[] = {
    {Py_tp_new, Unowned_new},
    {Py_tp_dealloc, Unowned_dealloc},
    {Py_tp_traverse, Unowned_traverse},
    {Py_tp_repr, Unowned_repr},
    {Py_tp_members, Unowned_members},
    {Py_tp_getset, Unowned_getset},
    {Py_tp_doc, "UnownedMemory(ptr, size, owner, device_id=None): memory ember "
                "did not allocate, kept alive by owner (CuPy's spelling). "
                "device_id: a CUDA ordinal, a Device or 'cpu'; None or -1: "
                "the current device."},
    {0, NULL},
};

static PyType_Spec Unowned_spec = {
    "ember.cuda.UnownedMemory", sizeof(empy_Unowned), 0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | EMPY_TPFLAGS_IMMUTABLE, Unowned_slots,
};

/* ---- MemoryPointer -------------------------------------------------------- */

/* The start, size (EMPY_SIZE_UNKNOWN: unknown) and device of a mem object. */
static int mem_facts(empy_state *st, PyObject *mem, uintptr_t *base, size_t *size,
                     em_device **dev)
{
    static const empy_pyattr foreign = {OBJECTS, "foreign_facts"};
    PyObject *o, *dev_o;
    unsigned long long p = 0;
    Py_ssize_t n = -1;
    int rc;
    if (Py_TYPE(mem) == st->UnownedMemory) {
        empy_Unowned *u = (empy_Unowned *)mem;
        *base = u->ptr;
        *size = u->size;
        *dev = u->dev;
        return 0;
    }
    if (Py_TYPE(mem) == st->Buffer) {
        empy_Buffer *b = (empy_Buffer *)mem;
        *base = (uintptr_t)b->ptr;
        *size = b->nbytes;
        *dev = b->dev;
        return 0;
    }
    /* A foreign allocation (CuPy's Memory): Python reads its .ptr, .size
     * and .device_id. */
    if (!(o = empy_py_getter(mem, (void *)&foreign)))
        return -1;
    rc = PyArg_ParseTuple(o, "KnO", &p, &n, &dev_o) ? empy_device_arg(st, dev_o, dev) : -1;
    Py_DECREF(o);
    *base = (uintptr_t)p;
    *size = n >= 0 ? (size_t)n : EMPY_SIZE_UNKNOWN;
    return rc;
}

PyObject *empy_memptr_make(empy_state *st, PyObject *mem, uintptr_t base, size_t size,
                             em_device *dev, uintptr_t ptr)
{
    empy_MemPtr *p = PyObject_GC_New(empy_MemPtr, st->MemoryPointer);
    if (!p)
        return NULL;
    p->mem = Py_NewRef(mem);
    p->base = base;
    p->size = size;
    p->dev = dev;
    p->ptr = ptr;
    PyObject_GC_Track(p);
    return (PyObject *)p;
}

static PyObject *MemPtr_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"mem", "offset", NULL};
    empy_state *st = empy_state_of_type(type);
    PyObject *mem;
    Py_ssize_t off;
    uintptr_t base;
    size_t size;
    em_device *dev;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "On:MemoryPointer", kwlist, &mem, &off) ||
        mem_facts(st, mem, &base, &size, &dev) < 0)
        return NULL;
    if (off < 0 || (size != EMPY_SIZE_UNKNOWN && (size_t)off > size)) {
        PyErr_Format(PyExc_ValueError, "MemoryPointer offset %zd is outside the "
                     "memory's %zu bytes", off, size);
        return NULL;
    }
    return empy_memptr_make(st, mem, base, size, dev, base + (uintptr_t)off);
}

static void MemPtr_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    Py_CLEAR(((empy_MemPtr *)self)->mem);
    tp->tp_free(self);
    Py_DECREF(tp);
}

static int MemPtr_traverse(PyObject *self, visitproc visit, void *arg)
{
    Py_VISIT(((empy_MemPtr *)self)->mem);
    Py_VISIT(Py_TYPE(self));
    return 0;
}

EMPY_PY_SLOT(MemPtr_repr, OBJECTS, "memptr_repr")

/* p + n, n + p, p - n: another pointer into the same memory (CuPy's
 * pointer arithmetic, bounds-checked when the size is known). */
static PyObject *memptr_shift(PyObject *p_o, PyObject *n_o, int sign)
{
    empy_MemPtr *p = (empy_MemPtr *)p_o;
    Py_ssize_t n;
    intptr_t off;
    if (!PyIndex_Check(n_o) || PyBool_Check(n_o))
        Py_RETURN_NOTIMPLEMENTED;
    n = PyNumber_AsSsize_t(n_o, PyExc_OverflowError);
    if (n == -1 && PyErr_Occurred())
        return NULL;
    off = (intptr_t)(p->ptr - p->base) + sign * (intptr_t)n;
    if (off < 0 || (p->size != EMPY_SIZE_UNKNOWN && (size_t)off > p->size)) {
        PyErr_Format(PyExc_ValueError, "MemoryPointer arithmetic out of range: "
                     "offset %zd of %zu bytes", (Py_ssize_t)off, p->size);
        return NULL;
    }
    return empy_memptr_make(empy_state_of(p_o), p->mem, p->base, p->size, p->dev,
                       p->base + (uintptr_t)off);
}

static int is_memptr(PyObject *o)
{
    return Py_TYPE(o)->tp_dealloc == MemPtr_dealloc;
}

static PyObject *MemPtr_add(PyObject *a, PyObject *b)
{
    return is_memptr(a) ? memptr_shift(a, b, 1) : memptr_shift(b, a, 1);
}

static PyObject *MemPtr_sub(PyObject *a, PyObject *b)
{
    if (!is_memptr(a))
        Py_RETURN_NOTIMPLEMENTED;
    return memptr_shift(a, b, -1);
}

static PyObject *MemPtr_int(PyObject *self)
{
    return PyLong_FromSize_t((size_t)((empy_MemPtr *)self)->ptr);
}

static int MemPtr_bool(PyObject *self)
{
    return ((empy_MemPtr *)self)->ptr != 0;
}

static PyObject *MemPtr_richcompare(PyObject *a, PyObject *b, int op)
{
    if (!is_memptr(a) || !is_memptr(b))
        Py_RETURN_NOTIMPLEMENTED;
    Py_RETURN_RICHCOMPARE(((empy_MemPtr *)a)->ptr, ((empy_MemPtr *)b)->ptr, op);
}

static Py_hash_t MemPtr_hash(PyObject *self)
{
    return (Py_hash_t)((empy_MemPtr *)self)->ptr;
}

/* CuPy's copy_from_device, copy_to_host, ...: cold, so argument checks in
 * Python over _copy_bytes and _set_bytes (python/ember/cuda/memcopy.py). */
#define COPIES "ember.cuda.memcopy"
EMPY_PY_METHOD(MemPtr_copy_from_device, COPIES, "memptr_copy_from_device")
EMPY_PY_METHOD(MemPtr_copy_from_device_async, COPIES, "memptr_copy_from_device_async")
EMPY_PY_METHOD(MemPtr_copy_from_host, COPIES, "memptr_copy_from_host")
EMPY_PY_METHOD(MemPtr_copy_from_host_async, COPIES, "memptr_copy_from_host_async")
EMPY_PY_METHOD(MemPtr_copy_to_host, COPIES, "memptr_copy_to_host")
EMPY_PY_METHOD(MemPtr_copy_to_host_async, COPIES, "memptr_copy_to_host_async")
EMPY_PY_METHOD(MemPtr_memset, COPIES, "memptr_memset")
EMPY_PY_METHOD(MemPtr_memset_async, COPIES, "memptr_memset_async")

static PyMethodDef MemPtr_methods[] = {
    {"copy_from_device", EMPY_FASTKW(MemPtr_copy_from_device),
     "copy_from_device(src, size): size bytes from the MemoryPointer src (same "
     "device), waiting for the copy."},
    {"copy_from_device_async", EMPY_FASTKW(MemPtr_copy_from_device_async),
     "copy_from_device_async(src, size, stream=None): ordered on the stream."},
    {"copy_from_host", EMPY_FASTKW(MemPtr_copy_from_host),
     "copy_from_host(mem, size): size bytes from a host address (an int, a "
     "ctypes pointer or a buffer such as a NumPy array)."},
    {"copy_from_host_async", EMPY_FASTKW(MemPtr_copy_from_host_async), NULL},
    {"copy_to_host", EMPY_FASTKW(MemPtr_copy_to_host),
     "copy_to_host(mem, size): size bytes to a host address or writable buffer."},
    {"copy_to_host_async", EMPY_FASTKW(MemPtr_copy_to_host_async), NULL},
    {"memset", EMPY_FASTKW(MemPtr_memset), "memset(value, size): size bytes set to value."},
    {"memset_async", EMPY_FASTKW(MemPtr_memset_async),
     "memset_async(value, size, stream=None)."},
    {NULL},
};

static PyMemberDef MemPtr_members[] = {
    {"ptr", EMPY_T_U64, offsetof(empy_MemPtr, ptr), EMPY_READONLY,
     "The address (on cpu, a host address)."},
    {"mem", EMPY_T_OBJECT, offsetof(empy_MemPtr, mem), EMPY_READONLY,
     "The memory this points into."},
    /* the memory's start and size (2**64 - 1: unknown), for the copies */
    {"_base", EMPY_T_U64, offsetof(empy_MemPtr, base), EMPY_READONLY, NULL},
    {"_size", EMPY_T_U64, offsetof(empy_MemPtr, size), EMPY_READONLY, NULL},
    {NULL},
};

static PyGetSetDef MemPtr_getset[] = {
    {"device", empy_device_getter, NULL, "The Device the memory is on.",
     EMPY_DEVICE_AT(empy_MemPtr)},
    {"device_id", empy_py_getter, NULL, "The device's ordinal.", (void *)&cold_device_id},
    {NULL},
};

static PyType_Slot MemPtr_slots[] = {
    {Py_tp_new, MemPtr_new},
    {Py_tp_dealloc, MemPtr_dealloc},
    {Py_tp_traverse, MemPtr_traverse},
    {Py_tp_repr, MemPtr_repr},
    {Py_tp_members, MemPtr_members},
    {Py_tp_getset, MemPtr_getset},
    {Py_tp_methods, MemPtr_methods},
    {Py_tp_richcompare, MemPtr_richcompare},
    {Py_tp_hash, MemPtr_hash},
    {Py_nb_add, MemPtr_add},
    {Py_nb_subtract, MemPtr_sub},
    {Py_nb_int, MemPtr_int},
    {Py_nb_bool, MemPtr_bool},
    {Py_tp_doc, "MemoryPointer(mem, offset): an address offset bytes into mem "
                "(UnownedMemory, Buffer, or any memory with .ptr), as CuPy's. "
                "p + n and p - n move it; int(p) is p.ptr."},
    {0, NULL},
};

static PyType_Spec MemPtr_spec = {
    "ember.cuda.MemoryPointer", sizeof(empy_MemPtr), 0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | EMPY_TPFLAGS_IMMUTABLE, MemPtr_slots,
};

int empy_memptr_init(PyObject *m, empy_state *st)
{
    if (empy_add_type(m, &Unowned_spec, NULL, &st->UnownedMemory) < 0)
        return -1;
    return empy_add_type(m, &MemPtr_spec, NULL, &st->MemoryPointer);
}
