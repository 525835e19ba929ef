/* ember Python extension: the module `ember._ember`.
 *
 * Multi-phase initialisation (PEP 489) with all types and exceptions in the
 * module state, so nothing here is a process-wide Python object. Import does
 * no device work: CUDA is started by the first call that needs a device. */
#include <string.h>
#include "runtime/module.h"
#include "runtime/errors.h"
#include "array/ndarray.h"
#include "jit/jit.h"
#include "kernels/ckernel.h"
#include "kernels/launch.h"
#include "math/mathlibs.h"
#include "parallel/parallel.h"

int empy_add_type(PyObject *m, PyType_Spec *spec, PyObject *base,
                  PyTypeObject **slot)
{
    const char *dot = strrchr(spec->name, '.');
    PyObject *t = PyType_FromModuleAndSpec(m, spec, base);
    if (!t)
        return -1;
    *slot = (PyTypeObject *)t;
    return PyModule_AddObjectRef(m, dot ? dot + 1 : spec->name, t);
}

#if PY_VERSION_HEX < 0x030A0000
PyObject *empy_disallow_new(PyTypeObject *t, PyObject *a, PyObject *k)
{
    PyErr_Format(PyExc_TypeError, "cannot create '%s' instances", t->tp_name);
    return NULL;
}
#endif

static int intern(PyObject **slot, const char *s)
{
    *slot = PyUnicode_InternFromString(s);
    return *slot ? 0 : -1;
}

static int empy_exec(PyObject *m)
{
    empy_state *st = empy_state_of_module(m);

    if (intern(&st->s_cai, "__cuda_array_interface__") < 0 ||
        intern(&st->s_stream, "stream") < 0 ||
        intern(&st->s_key_stream, "ember.current_stream") < 0 ||
        intern(&st->s_key_stack, "ember.context_stack") < 0)
        return -1;
    if (empy_errors_init(m, st) < 0 || empy_device_init(m, st) < 0 ||
        empy_stream_init(m, st) < 0 || empy_graph_init(m, st) < 0 ||
        empy_memory_init(m, st) < 0 ||
        empy_program_init(m, st) < 0 ||
        empy_info_init(m, st) < 0 || empy_nvml_init(m, st) < 0 ||
        empy_nccl_init(m, st) < 0 || empy_profile_init(m, st) < 0 ||
        empy_dtype_init(m, st) < 0 || empy_ndarray_init(m, st) < 0 ||
        empy_ndarray_memory_init(m, st) < 0 ||
        empy_interop_init(m, st) < 0 || empy_creation_init(m, st) < 0 ||
        empy_ufunc_init(m, st) < 0 || empy_fusetape_init(m, st) < 0 ||
        empy_reduction_init(m, st) < 0 ||
        empy_linalg_init(m, st) < 0 || empy_lapack_init(m, st) < 0 ||
        empy_manip_init(m, st) < 0 ||
        empy_ranges_init(m, st) < 0 || empy_indexfn_init(m, st) < 0 ||
        empy_dlpack_init(m, st) < 0 ||
        empy_parallel_init(m, st) < 0 ||
        empy_jit_init(m, st) < 0 || empy_ckernel_init(m, st) < 0 ||
        empy_random_init(m, st) < 0 || empy_fft_init(m, st) < 0 ||
        empy_cusolver_init(m, st) < 0)
        return -1;
    /* The array struct's rank limit, for _api/namespace_info.py. */
    if (PyModule_AddIntConstant(m, "_MAX_NDIM", EM_MAX_NDIM) < 0)
        return -1;
    return PyModule_AddStringConstant(m, "__version__", EMBER_VERSION_STRING);
}

#define EMPY_STATE_OBJECTS(X)                                               \
    X(Device) X(Stream) X(Event) X(Graph) X(Buffer)                         \
    X(PinnedMemory) X(RawModule)                                           \
    X(RawKernel) X(Function) X(CUDAError)                                   \
    X(CompileError) X(BackendUnavailableError) X(s_cai)                     \
    X(s_stream) X(s_key_stream) X(s_key_stack)                              \
    X(DType) X(ndarray) X(ufunc) X(np_exc_current)                          \
    X(s_array_interface) X(s_array) X(Dispatcher) X(LaunchConfig)          \
    X(MemoryPointer) X(StreamCaptureError)                                  \
    X(UnownedMemory)

static int empy_traverse(PyObject *m, visitproc visit, void *arg)
{
    empy_state *st = empy_state_of_module(m);
    int i;
    if (!st)
        return 0;
#define VISIT(f) Py_VISIT(st->f);
    EMPY_STATE_OBJECTS(VISIT)
#undef VISIT
    for (i = 0; i < EM_DTYPE_COUNT; i++)
        Py_VISIT(st->dtypes[i]);
    for (i = 0; i < EM_OP_COUNT; i++)
        Py_VISIT(st->ufuncs[i]);
    return 0;
}

static int empy_clear(PyObject *m)
{
    empy_state *st = empy_state_of_module(m);
    int i;
    if (!st)
        return 0;
#define CLEAR(f) Py_CLEAR(st->f);
    EMPY_STATE_OBJECTS(CLEAR)
#undef CLEAR
    for (i = 0; i < EM_DTYPE_COUNT; i++)
        Py_CLEAR(st->dtypes[i]);
    for (i = 0; i < EM_OP_COUNT; i++)
        Py_CLEAR(st->ufuncs[i]);
    return 0;
}

static void empy_free(void *m)
{
    empy_clear((PyObject *)m);
}

static PyModuleDef_Slot empy_slots[] = {
    {Py_mod_exec, (void *)empy_exec},
#ifdef Py_mod_gil
    /* The C core is thread-safe and the extension keeps its shared state
     * in immutable or atomically published objects. */
    {Py_mod_gil, Py_MOD_GIL_NOT_USED},
#endif
    {0, NULL},
};

static PyModuleDef empy_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "ember._ember",
    .m_doc = "ember's C extension: devices, streams, events, memory, "
             "compilation and kernel launches over the ember C API.",
    .m_size = sizeof(empy_state),
    .m_slots = empy_slots,
    .m_traverse = empy_traverse,
    .m_clear = empy_clear,
    .m_free = empy_free,
};

PyMODINIT_FUNC PyInit__ember(void);

PyMODINIT_FUNC PyInit__ember(void)
{
    return PyModuleDef_Init(&empy_module);
}
