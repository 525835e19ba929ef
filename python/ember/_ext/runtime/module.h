/* ember Python extension: the module state and the object layouts that more
 * than one file of the extension needs. Everything here is internal to the
 * extension; its only view of the library is the public C API. */
#ifndef EMPY_MODULE_H
#define EMPY_MODULE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include "ember/ember.h"

/* Per-module state (PEP 573/630): every type, exception and interned name
 * the extension uses, so a second interpreter gets its own set. */
typedef struct empy_state {
    PyTypeObject *Device;
    PyTypeObject *Stream;
    PyTypeObject *Event;
    PyTypeObject *Graph;       /* graph.c */
    PyTypeObject *Buffer;
    PyTypeObject *PinnedMemory;
    PyTypeObject *RawModule;
    PyTypeObject *RawKernel;
    PyTypeObject *Function;
    PyObject *CUDAError;
    PyObject *CompileError;
    PyObject *StreamCaptureError;
    PyObject *BackendUnavailableError;
    /* interned names */
    PyObject *s_cai;           /* "__cuda_array_interface__" */
    PyObject *s_stream;
    PyObject *s_key_stream;    /* thread-dict key: current Stream object */
    PyObject *s_key_stack;     /* thread-dict key: with-block stack */
    /* arrays (ndarray.h) */
    PyTypeObject *DType;
    PyTypeObject *ndarray;
    PyTypeObject *ufunc;
    PyTypeObject *MemoryPointer;   /* ndarray_memory.c */
    PyTypeObject *UnownedMemory;
    PyObject *s_array_interface;   /* "__array_interface__" */
    PyObject *s_array;             /* "__array__" */
    /* ember.cuda.jit (jit_dispatch.c) */
    PyTypeObject *Dispatcher;
    PyTypeObject *LaunchConfig;
    PyObject *np_exc_current;      /* NumPy's exception classes (errors.c) */
    PyObject *dtypes[EM_DTYPE_COUNT];
    PyObject *ufuncs[EM_OP_COUNT];  /* NULL for ops with no ufunc object */
} empy_state;

static inline empy_state *empy_state_of_type(PyTypeObject *t)
{
    /* A Python subclass of an ember type (class MyArr(ember.ndarray)) has
     * no module of its own: the ember type among its bases has. */
    while (t && !((t->tp_flags & Py_TPFLAGS_HEAPTYPE) &&
                  ((PyHeapTypeObject *)t)->ht_module))
        t = t->tp_base;
    return t ? (empy_state *)PyModule_GetState(((PyHeapTypeObject *)t)->ht_module)
             : NULL;
}

static inline empy_state *empy_state_of(PyObject *self)
{
    return empy_state_of_type(Py_TYPE(self));
}

static inline empy_state *empy_state_of_module(PyObject *m)
{
    return (empy_state *)PyModule_GetState(m);
}

/* ---- object layouts ---------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    em_device *dev;
} empy_Device;

/* A Stream either owns its em_stream, wraps one it does not own (a
 * device's default stream), holds one adopted from a native handle
 * (ember.cuda.ExternalStream), or is the dynamic `Stream.null`, which
 * means the default stream of whatever device is current when it is
 * used. */
typedef struct {
    PyObject_HEAD
    em_stream *s;      /* NULL only for the dynamic null stream */
    int owned;         /* 1: em_stream_destroy it, 2: em_stream_release it */
    PyObject *owner;   /* Stream.from_external's foreign stream, kept alive */
} empy_Stream;

typedef struct {
    PyObject_HEAD
    em_event *e;
    em_device *dev;
} empy_Event;

typedef struct {
    PyObject_HEAD
    void *ptr;
    size_t nbytes;
    em_device *dev;
    em_stream *stream;     /* allocation stream: the free is ordered on it */
    PyObject *stream_ref;  /* keeps an owned stream alive until the free */
} empy_Buffer;

typedef struct {
    PyObject_HEAD
    void *ptr;
    size_t nbytes;
} empy_PinnedMemory;

/* ---- cross-file helpers ----------------------------------------------- */

/* Each file creates its types, stores them in the state and adds them to
 * the module; -1 with an exception on failure. */
int empy_errors_init(PyObject *m, empy_state *st);
int empy_device_init(PyObject *m, empy_state *st);
int empy_stream_init(PyObject *m, empy_state *st);
int empy_graph_init(PyObject *m, empy_state *st);   /* graph.c */
int empy_memory_init(PyObject *m, empy_state *st);
int empy_info_init(PyObject *m, empy_state *st);
int empy_nvml_init(PyObject *m, empy_state *st);    /* nvml.c */
int empy_nccl_init(PyObject *m, empy_state *st);    /* nccl.c */
int empy_profile_init(PyObject *m, empy_state *st); /* profile.c */

/* Resolve a device argument: None (the current device), "cpu"/"cuda:N"/
 * "gpu:N", an int N (cuda:N), or a Device. */
int empy_device_arg(empy_state *st, PyObject *spec, em_device **out);
PyObject *empy_device_new(empy_state *st, em_device *dev);
/* The getter of a .device property: the em_device * at byte offset
 * (the closure, EMPY_DEVICE_AT) in self, as a Device. */
PyObject *empy_device_getter(PyObject *self, void *offset);
#define EMPY_DEVICE_AT(type) ((void *)offsetof(type, dev))

/* The em_stream a Stream object stands for now (the null stream resolves
 * to the current device's default stream); NULL with an exception. */
em_stream *empy_stream_resolve(empy_state *st, PyObject *stream_obj);
/* Resolve an optional stream argument for work on device d: None means the
 * current stream when d is the current device, else d's default stream.
 * Returns 0 and sets *out (NULL: d's default) or -1 with an exception. */
int empy_stream_for_device(empy_state *st, PyObject *arg, em_device *d,
                           em_stream **out);
/* The calling thread's current stream as a Stream object (new ref). */
PyObject *empy_current_stream(empy_state *st);

/* The thread's with-block stack (stream.c): push saves the current device
 * and stream, pop restores the last saved pair. */
int empy_context_push(empy_state *st);
int empy_context_pop(empy_state *st);
/* Device's and Stream's __exit__: pop, and let the exception through. */
PyObject *empy_context_exit(PyObject *self, PyObject *const *args, Py_ssize_t nargs);
/* Make d current for this thread (its default stream becomes current). */
void empy_set_device(empy_state *st, em_device *d);
/* Make a Stream object (or None: the device's default) current. */
int empy_set_stream(empy_state *st, PyObject *stream_or_none);

/* Run an em_status-returning call with the GIL released. */
#define EMPY_NOGIL(rc, call)      \
    do {                          \
        Py_BEGIN_ALLOW_THREADS    \
        (rc) = (call);            \
        Py_END_ALLOW_THREADS      \
    } while (0)

/* Python 3.9 lacks a few conveniences of later versions. */
#if PY_VERSION_HEX < 0x030A0000
static inline PyObject *empy_newref(PyObject *o) { Py_INCREF(o); return o; }
#define Py_NewRef(o) empy_newref((PyObject *)(o))
static inline int empy_add_object_ref(PyObject *m, const char *name, PyObject *o)
{
    Py_INCREF(o);
    if (PyModule_AddObject(m, name, o) < 0) { Py_DECREF(o); return -1; }
    return 0;
}
#define PyModule_AddObjectRef empy_add_object_ref
#endif

/* Hold the pending exception aside while trying something else. */
typedef struct {
#if PY_VERSION_HEX >= 0x030C0000
    PyObject *exc;
#else
    PyObject *type, *value, *tb;
#endif
} empy_saved_error;

static inline void empy_error_save(empy_saved_error *e)
{
#if PY_VERSION_HEX >= 0x030C0000
    e->exc = PyErr_GetRaisedException();
#else
    PyErr_Fetch(&e->type, &e->value, &e->tb);
#endif
}

static inline void empy_error_restore(empy_saved_error *e)
{
#if PY_VERSION_HEX >= 0x030C0000
    PyErr_SetRaisedException(e->exc);
#else
    PyErr_Restore(e->type, e->value, e->tb);
#endif
}

static inline void empy_error_drop(empy_saved_error *e)
{
#if PY_VERSION_HEX >= 0x030C0000
    Py_XDECREF(e->exc);
#else
    Py_XDECREF(e->type);
    Py_XDECREF(e->value);
    Py_XDECREF(e->tb);
#endif
}

/* Types made only by ember (Buffer, Function, ...) refuse construction
 * from Python; before 3.10 that needs a tp_new that raises. */
#if PY_VERSION_HEX >= 0x030A0000
#define EMPY_TPFLAGS_IMMUTABLE Py_TPFLAGS_IMMUTABLETYPE
#define EMPY_TPFLAGS_NOINIT Py_TPFLAGS_DISALLOW_INSTANTIATION
#define EMPY_NOINIT_SLOT
#else
#define EMPY_TPFLAGS_IMMUTABLE 0
#define EMPY_TPFLAGS_NOINIT 0
PyObject *empy_disallow_new(PyTypeObject *t, PyObject *a, PyObject *k);
#define EMPY_NOINIT_SLOT {Py_tp_new, (void *)empy_disallow_new},
#endif

/* Create a heap type bound to module m, store it and add it to m. */
int empy_add_type(PyObject *m, PyType_Spec *spec, PyObject *base,
                  PyTypeObject **slot);

#endif
