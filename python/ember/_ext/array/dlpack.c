/* ember Python extension: DLPack, both ways — x.__dlpack__() and
 * x.__dlpack_device__() export an ndarray without copying, and
 * ember.from_dlpack (and ember.asarray) wrap any object that has
 * __dlpack__: NumPy, CuPy, PyTorch, JAX.
 *
 * The structs below are written from the layout the DLPack specification
 * documents (dmlc.github.io/dlpack, version 1.0 with the legacy unversioned
 * form); they must match it byte for byte, as other libraries read them.
 *
 * Lifetimes: an exported tensor holds a reference to the ndarray (which
 * holds the storage and the stream the storage is freed on); its deleter
 * takes the GIL to drop it, since consumers may call it on any thread. An
 * imported tensor's deleter runs when the last ember view of its storage
 * goes. The capsule is renamed "used_dltensor[_versioned]" once ember owns
 * the tensor, so the producer's capsule destructor leaves it alone.
 *
 * Streams (CUDA): the consumer names the stream it will use. ember's
 * public C API cannot make a stream it did not create wait on an event, so
 * unless the consumer's stream is the producer's own stream (or -1, "no
 * synchronisation"), the host waits for an event recorded on the
 * producer's current stream: correct for any stream, at the cost of one
 * host wait for the work already queued. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "runtime/module.h"
#include "runtime/errors.h"
#include "array/ndarray.h"
#include "runtime/args.h"

/* ---- the DLPack ABI ----------------------------------------------------- */

enum { EMPY_DL_CPU = 1, EMPY_DL_CUDA = 2, EMPY_DL_CUDA_HOST = 3,
       EMPY_DL_CUDA_MANAGED = 13 };
enum { EMPY_DL_INT = 0, EMPY_DL_UINT = 1, EMPY_DL_FLOAT = 2, EMPY_DL_BFLOAT = 4,
       EMPY_DL_COMPLEX = 5, EMPY_DL_BOOL = 6 };
#define EMPY_DL_FLAG_READ_ONLY ((uint64_t)1)
#define EMPY_DL_FLAG_IS_COPIED ((uint64_t)2)
#define EMPY_DL_MAJOR 1u
#define EMPY_DL_MINOR 0u

typedef struct {
    int32_t device_type;   /* a C enum in the specification: int-sized */
    int32_t device_id;
} empy_DLDevice;

typedef struct {
    uint8_t code;
    uint8_t bits;
    uint16_t lanes;
} empy_DLDataType;

typedef struct {
    void *data;
    empy_DLDevice device;
    int32_t ndim;
    empy_DLDataType dtype;
    int64_t *shape;
    int64_t *strides;      /* in elements; NULL: C-contiguous */
    uint64_t byte_offset;
} empy_DLTensor;

typedef struct empy_DLManagedTensor {
    empy_DLTensor dl_tensor;
    void *manager_ctx;
    void (*deleter)(struct empy_DLManagedTensor *self);
} empy_DLManagedTensor;

typedef struct {
    uint32_t major;
    uint32_t minor;
} empy_DLPackVersion;

typedef struct empy_DLManagedTensorVersioned {
    empy_DLPackVersion version;
    void *manager_ctx;
    void (*deleter)(struct empy_DLManagedTensorVersioned *self);
    uint64_t flags;
    empy_DLTensor dl_tensor;
} empy_DLManagedTensorVersioned;

static const char CAP_LEGACY[] = "dltensor";
static const char CAP_VERSIONED[] = "dltensor_versioned";
static const char CAP_USED_LEGACY[] = "used_dltensor";
static const char CAP_USED_VERSIONED[] = "used_dltensor_versioned";

/* ---- dtypes ------------------------------------------------------------- */

/* ember's dtypes as DLPack (type code, bits), both ways. */
static const struct { uint8_t code, bits; em_dtype d; } dl_types[] = {
    {EMPY_DL_BOOL, 8, EM_BOOL},        {EMPY_DL_INT, 8, EM_INT8},
    {EMPY_DL_INT, 16, EM_INT16},       {EMPY_DL_INT, 32, EM_INT32},
    {EMPY_DL_INT, 64, EM_INT64},       {EMPY_DL_UINT, 8, EM_UINT8},
    {EMPY_DL_UINT, 16, EM_UINT16},     {EMPY_DL_UINT, 32, EM_UINT32},
    {EMPY_DL_UINT, 64, EM_UINT64},     {EMPY_DL_FLOAT, 16, EM_FLOAT16},
    {EMPY_DL_FLOAT, 32, EM_FLOAT32},   {EMPY_DL_FLOAT, 64, EM_FLOAT64},
    {EMPY_DL_BFLOAT, 16, EM_BFLOAT16}, {EMPY_DL_COMPLEX, 64, EM_COMPLEX64},
    {EMPY_DL_COMPLEX, 128, EM_COMPLEX128},
};
#define N_DL_TYPES (sizeof dl_types / sizeof *dl_types)

static int dl_dtype_of(em_dtype d, empy_DLDataType *out)
{
    size_t i;
    for (i = 0; i < N_DL_TYPES; i++)
        if (dl_types[i].d == d) {
            out->code = dl_types[i].code;
            out->bits = dl_types[i].bits;
            out->lanes = 1;
            return 0;
        }
    PyErr_Format(PyExc_BufferError, "%s has no DLPack type", em_dtype_get(d)->name);
    return -1;
}

static int dtype_of_dl(empy_DLDataType t, em_dtype *out)
{
    size_t i;
    if (t.lanes == 1)
        for (i = 0; i < N_DL_TYPES; i++)
            if (dl_types[i].code == t.code && dl_types[i].bits == t.bits) {
                *out = dl_types[i].d;
                return 0;
            }
    PyErr_Format(PyExc_BufferError, "DLPack type (code %d, %d bits, %d lanes) "
                 "has no ember dtype", (int)t.code, (int)t.bits, (int)t.lanes);
    return -1;
}

/* ---- export ------------------------------------------------------------- */

typedef struct {
    empy_DLManagedTensorVersioned v;
    empy_DLManagedTensor legacy;
    PyObject *owner;   /* the ndarray whose memory this is */
    int64_t shape[EM_MAX_NDIM];
    int64_t strides[EM_MAX_NDIM];
} export_ctx;

static void export_free(export_ctx *x)
{
    if (Py_IsInitialized()) {
        PyGILState_STATE g = PyGILState_Ensure();
        Py_XDECREF(x->owner);
        PyGILState_Release(g);
    }
    free(x);
}

static void deleter_versioned(empy_DLManagedTensorVersioned *t)
{
    export_free((export_ctx *)t->manager_ctx);
}

static void deleter_legacy(empy_DLManagedTensor *t)
{
    export_free((export_ctx *)t->manager_ctx);
}

/* An unconsumed capsule frees its tensor; a renamed one is the
 * consumer's. Runs during deallocation: it must not disturb a pending
 * exception, and PyCapsule_IsValid sets none. */
static void capsule_destructor(PyObject *cap)
{
    if (PyCapsule_IsValid(cap, CAP_VERSIONED)) {
        empy_DLManagedTensorVersioned *t = PyCapsule_GetPointer(cap, CAP_VERSIONED);
        if (t->deleter)
            t->deleter(t);
    } else if (PyCapsule_IsValid(cap, CAP_LEGACY)) {
        empy_DLManagedTensor *t = PyCapsule_GetPointer(cap, CAP_LEGACY);
        if (t->deleter)
            t->deleter(t);
    }
}

static int dl_device_of(const em_array *a, empy_DLDevice *out)
{
    if (em_device_get_type(a->device) == EM_DEVICE_CPU) {
        out->device_type = EMPY_DL_CPU;
        out->device_id = 0;
    } else {
        out->device_type = EMPY_DL_CUDA;
        out->device_id = em_device_get_id(a->device);
    }
    return 0;
}

/* The stream ember orders work on for device d now. */
static em_stream *stream_on(em_device *d)
{
    em_stream *s = em_current_stream();
    return s && em_stream_device(s) == d ? s : em_stream_default(d);
}

/* Make the memory safe to use on the consumer's stream (see the top):
 * want is that stream's handle (1: CUDA's legacy default stream; for cpu
 * any int, meaning wait for the device), or None for no synchronisation.
 * _api/dlpack.py reads the consumer's stream= into it. */
static int sync_for_consumer(empy_state *st, const em_array *a, PyObject *want)
{
    em_stream *s;
    em_event *e;
    em_status rc;
    void *native, *w;
    if (want == Py_None)
        return 0;
    if (em_device_get_type(a->device) == EM_DEVICE_CPU) {
        EMPY_NOGIL(rc, em_device_synchronize(a->device));
        return rc == EM_OK ? 0 : empy_fail(st, rc);
    }
    if (!(w = PyLong_AsVoidPtr(want)) && PyErr_Occurred())
        return -1;
    s = stream_on(a->device);
    native = em_stream_native(s);
    /* ember's default stream is CUDA's legacy default stream. */
    if ((native == NULL && (uintptr_t)w == 1) || (native && native == w))
        return 0;
    rc = em_event_create(a->device, EM_EVENT_DISABLE_TIMING, &e);
    if (rc != EM_OK)
        return empy_fail(st, rc);
    rc = em_event_record(e, s);
    if (rc == EM_OK)
        EMPY_NOGIL(rc, em_event_synchronize(e));
    em_event_destroy(e);
    return rc == EM_OK ? 0 : empy_fail(st, rc);
}

static int strides_in_elements(const em_array *a, int64_t *out)
{
    int64_t item = (int64_t)em_dtype_size(a->dtype);
    int i;
    for (i = 0; i < a->ndim; i++) {
        if (a->strides[i] % item)
            return -1;
        out[i] = a->strides[i] / item;
    }
    return 0;
}

/* _dlpack_export(a, stream, versioned, copied): the capsule of
 * a.__dlpack__ once python/ember/_api/dlpack.py has read its arguments
 * and made the copy they ask for; stream as sync_for_consumer takes it. */
static PyObject *mod_dlpack_export(PyObject *m, PyObject *const *args, Py_ssize_t n)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *cap;
    int copied, versioned;
    const em_array *a;
    export_ctx *x;
    empy_DLTensor *t;

    if (n != 4 || !empy_is_ndarray(args[0]))
        return PyErr_Format(PyExc_TypeError, "_dlpack_export(a, stream, versioned, "
                            "copied)");
    if ((versioned = PyObject_IsTrue(args[2])) < 0 ||
        (copied = PyObject_IsTrue(args[3])) < 0)
        return NULL;
    a = empy_arr_computed(args[0]);
    if (!a || sync_for_consumer(st, a, args[1]) < 0)
        return NULL;
    x = calloc(1, sizeof *x);
    if (!x)
        return PyErr_NoMemory();
    x->owner = Py_NewRef(args[0]);
    memcpy(x->shape, a->shape, (size_t)a->ndim * sizeof *x->shape);
    if (strides_in_elements(a, x->strides) < 0) {
        /* _api/dlpack.py copies such an array; refuse anyway. */
        export_free(x);
        PyErr_SetString(PyExc_BufferError, "unexpected strides in a DLPack export");
        return NULL;
    }
    t = versioned ? &x->v.dl_tensor : &x->legacy.dl_tensor;
    if (dl_dtype_of(a->dtype, &t->dtype) < 0) {
        export_free(x);
        return NULL;
    }
    dl_device_of(a, &t->device);
    t->data = a->data;
    t->ndim = a->ndim;
    t->shape = x->shape;
    t->strides = x->strides;
    t->byte_offset = 0;
    if (versioned) {
        x->v.version.major = EMPY_DL_MAJOR;
        x->v.version.minor = EMPY_DL_MINOR;
        x->v.manager_ctx = x;
        x->v.deleter = deleter_versioned;
        x->v.flags = (copied ? EMPY_DL_FLAG_IS_COPIED : 0) |
                     ((a->flags & EM_ARRAY_WRITEABLE) ? 0 : EMPY_DL_FLAG_READ_ONLY);
        cap = PyCapsule_New(&x->v, CAP_VERSIONED, capsule_destructor);
    } else {
        x->legacy.manager_ctx = x;
        x->legacy.deleter = deleter_legacy;
        cap = PyCapsule_New(&x->legacy, CAP_LEGACY, capsule_destructor);
    }
    if (!cap)
        export_free(x);
    return cap;
}

static PyObject *nd_dlpack_device(PyObject *self, PyObject *unused)
{
    empy_DLDevice d;
    dl_device_of(EMPY_ARR(self), &d);
    return Py_BuildValue("(ii)", (int)d.device_type, (int)d.device_id);
}

EMPY_PY_METHOD(nd_dlpack, "ember._api.dlpack", "export")

/* ---- import ------------------------------------------------------------- */

typedef struct {
    void *tensor;      /* the DLManagedTensor[Versioned] */
    int versioned;
} import_ctx;

/* The storage's release: the producer's deleter, under the GIL, since
 * producers written in Python-aware C (NumPy's) expect a thread state. */
static void import_release(void *p)
{
    import_ctx *c = p;
    PyGILState_STATE g;
    if (!Py_IsInitialized()) {
        /* After finalisation a producer's deleter could not take the GIL
         * it may need; the process is ending, so the tensor is left. */
        free(c);
        return;
    }
    g = PyGILState_Ensure();
    if (c->versioned) {
        empy_DLManagedTensorVersioned *t = c->tensor;
        if (t->deleter)
            t->deleter(t);
    } else {
        empy_DLManagedTensor *t = c->tensor;
        if (t->deleter)
            t->deleter(t);
    }
    PyGILState_Release(g);
    free(c);
}

/* _dlpack_stream(device): the stream= _api/dlpack.py hands a producer on
 * a CUDA device: ember's current stream there, 1 for CUDA's legacy
 * default stream. */
static PyObject *mod_dlpack_stream(PyObject *m, PyObject *o)
{
    em_device *d;
    void *native;
    if (empy_device_arg(empy_state_of_module(m), o, &d) < 0)
        return NULL;
    native = em_stream_native(stream_on(d));
    return native ? PyLong_FromVoidPtr(native) : PyLong_FromLong(1);
}

PyObject *empy_dlpack_import(empy_state *st, PyObject *obj)
{
    static const empy_pyattr capsule_of = {"ember._api.dlpack", "capsule"};
    PyObject *pair, *cap, *devobj, *r;
    int versioned, readonly = 0;
    empy_DLTensor *t;
    void *tensor;
    em_device *dev;
    em_dtype dtype;
    em_array a;
    em_status rc;
    int64_t strides[EM_MAX_NDIM];
    import_ctx *ctx;
    int i;

    /* (capsule, device): the producer asked as the standard says */
    if (!(pair = empy_py_method(&capsule_of, obj, NULL, 0, NULL)))
        return NULL;
    if (!PyArg_ParseTuple(pair, "OO", &cap, &devobj) ||
        empy_device_arg(st, devobj, &dev) < 0) {
        Py_DECREF(pair);
        return NULL;
    }
    Py_INCREF(cap);
    Py_DECREF(pair);
    if (PyCapsule_IsValid(cap, CAP_VERSIONED)) {
        empy_DLManagedTensorVersioned *v = PyCapsule_GetPointer(cap, CAP_VERSIONED);
        if (v->version.major > EMPY_DL_MAJOR) {
            PyErr_Format(PyExc_BufferError, "DLPack version %u.%u is newer than "
                         "ember's %u.%u", v->version.major, v->version.minor,
                         EMPY_DL_MAJOR, EMPY_DL_MINOR);
            goto fail;
        }
        versioned = 1;
        tensor = v;
        t = &v->dl_tensor;
        readonly = (v->flags & EMPY_DL_FLAG_READ_ONLY) != 0;
    } else if (PyCapsule_IsValid(cap, CAP_LEGACY)) {
        empy_DLManagedTensor *l = PyCapsule_GetPointer(cap, CAP_LEGACY);
        versioned = 0;
        tensor = l;
        t = &l->dl_tensor;
    } else {
        PyErr_Format(PyExc_TypeError, "%.100s.__dlpack__() did not return an unused "
                     "DLPack capsule", Py_TYPE(obj)->tp_name);
        goto fail;
    }
    if (t->ndim < 0 || t->ndim > EM_MAX_NDIM) {
        PyErr_Format(PyExc_BufferError, "a DLPack tensor of %d dimensions is more "
                     "than ember's %d", (int)t->ndim, EM_MAX_NDIM);
        goto fail;
    }
    if (dtype_of_dl(t->dtype, &dtype) < 0)
        goto fail;
    for (i = 0; i < t->ndim; i++) {
        if (t->shape[i] < 0) {
            PyErr_SetString(PyExc_BufferError, "a DLPack tensor has a negative extent");
            goto fail;
        }
        if (t->strides)
            strides[i] = t->strides[i] * (int64_t)em_dtype_size(dtype);
    }
    ctx = malloc(sizeof *ctx);
    if (!ctx) {
        PyErr_NoMemory();
        goto fail;
    }
    ctx->tensor = tensor;
    ctx->versioned = versioned;
    {
        int64_t size = 1;
        char *data = (char *)t->data + t->byte_offset;
        for (i = 0; i < t->ndim; i++)
            size *= t->shape[i];
        rc = em_array_wrap(dev, size ? data : (t->data ? data : NULL), dtype,
                           (int)t->ndim, t->shape, t->strides ? strides : NULL,
                           readonly, import_release, ctx, &a);
    }
    if (rc != EM_OK) {
        free(ctx);
        empy_raise(st, rc);
        goto fail;
    }
    /* ember owns the tensor now: its storage calls the deleter. */
    if (PyCapsule_SetName(cap, versioned ? CAP_USED_VERSIONED : CAP_USED_LEGACY) < 0) {
        /* Cannot happen for a valid capsule; the storage still frees it. */
        PyErr_Clear();
    }
    Py_DECREF(cap);
    r = empy_ndarray_new(st, &a, obj);
    return r;
fail:
    Py_DECREF(cap);
    return NULL;
}

/* _dlpack_import(x): an ember array over x's memory (ember.from_dlpack,
 * python/ember/_api/dlpack.py, decides about copies). */
static PyObject *mod_dlpack_import(PyObject *m, PyObject *x)
{
    return empy_dlpack_import(empy_state_of_module(m), x);
}

static PyMethodDef dlpack_functions[] = {
    {"_dlpack_export", (PyCFunction)(void (*)(void))mod_dlpack_export, METH_FASTCALL, NULL},
    {"_dlpack_import", mod_dlpack_import, METH_O, NULL},
    {"_dlpack_stream", mod_dlpack_stream, METH_O, NULL},
    {NULL},
};

PyMethodDef empy_dlpack_nd_methods[] = {
    {"__dlpack__", (PyCFunction)(void (*)(void))nd_dlpack, METH_FASTCALL | METH_KEYWORDS,
     "__dlpack__(*, stream=None, max_version=None, dl_device=None, copy=None): "
     "a DLPack capsule over this array's memory ('dltensor_versioned' when "
     "max_version >= (1, 0), else 'dltensor')."},
    {"__dlpack_device__", nd_dlpack_device, METH_NOARGS,
     "(device_type, device_id): (1, 0) for cpu, (2, N) for cuda:N."},
    {NULL},
};

int empy_dlpack_init(PyObject *m, empy_state *st)
{
    return PyModule_AddFunctions(m, dlpack_functions);
}
