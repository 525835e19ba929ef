/* ember Python extension: the C base of ember.cuda.jit's Dispatcher (what
 * `@cuda.jit` makes; python/ember/cuda/dispatcher.py reads jit()'s
 * arguments and adds the cold methods): subscripting gives a launch
 * configuration (jit_launch.c), whose call finds or makes (jit_compile.c)
 * the specialisation. docs/jit-design.md is the contract. */
#include <stdlib.h>
#include <string.h>
#include "ember/util.h"
#include "jit/jit.h"
#include "kernels/launch.h"
#include "runtime/errors.h"

/* ---- Dispatcher ------------------------------------------------------------- */

static int disp_traverse(PyObject *self, visitproc visit, void *arg)
{
    empy_Dispatcher *k = DISP(self);
    int i;
    Py_VISIT(Py_TYPE(self));
    Py_VISIT(k->sigs);
    for (i = 0; i < EMPY_JIT_CONFIGS; i++)
        Py_VISIT(k->configs[i]);
    return 0;
}

static int disp_clear(PyObject *self)
{
    empy_Dispatcher *k = DISP(self);
    int i;
    for (i = 0; i < EMPY_JIT_CONFIGS; i++)
        Py_CLEAR(k->configs[i]);
    Py_CLEAR(k->sigs);
    return 0;
}

static void disp_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    empy_Dispatcher *k = DISP(self);
    empy_jit_entry *e = k->entries;
    PyObject_GC_UnTrack(self);
    disp_clear(self);
    while (e) {
        empy_jit_entry *next = e->next;
        empy_jit_entry_free(e);
        e = next;
    }
    PyMem_Free(k->pnames);
    Py_XDECREF(k->name);
    Py_XDECREF(k->params);
    tp->tp_free(self);
    Py_DECREF(tp);
}

/* Numba's kernel.max_cooperative_grid_blocks(blockdim, dynsmemsize=0):
 * how many blocks a grid that calls grid.sync() may have on the current
 * device (src/runtime/gridsync.c says how it is reckoned). */
static PyObject *disp_max_coop(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                               PyObject *kwnames)
{
    static const char *const names[] = {"blockdim", "dynsmemsize", NULL};
    empy_state *st = empy_state_of(self);
    PyObject *v[2];
    em_dim3 b;
    em_device *d;
    em_status rc;
    empy_jit_entry *e;
    size_t shared = 0;
    if (empy_parse_args("max_cooperative_grid_blocks", args, nargs, kwnames, names, 2, 1,
                        v) < 0 || empy_parse_dim(v[0], "blockdim", &b) < 0)
        return NULL;
    if (!b.x || !b.y || !b.z) {
        PyErr_Format(PyExc_ValueError, "blockdim must be positive, got %R", v[0]);
        return NULL;
    }
    if (v[1] && empy_jit_shared_arg(v[1], &shared) < 0)
        return NULL;
    if ((rc = em_current_device(&d)) != EM_OK)
        return empy_raise(st, rc);
    /* the newest specialisation on d that synchronises its grid, if any
     * (Numba asks this of one compiled kernel) */
    for (e = EMPY_LOAD_ACQUIRE(DISP(self)->entries); e; e = e->next)
        if (e->dev == d && e->grid_sync)
            break;
    return PyLong_FromLongLong(em_grid_sync_max_blocks(d, b, e ? e->fn : NULL, shared));
}

/* _precompile(): the explicit signatures for the current device, as Numba
 * compiles at decoration. */
static PyObject *disp_precompile(PyObject *self, PyObject *unused)
{
    empy_state *st = empy_state_of(self);
    em_device *d;
    em_status rc;
    if ((rc = em_current_device(&d)) != EM_OK)
        return empy_raise(st, rc);
    if (empy_jit_precompile(st, DISP(self), d) < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyMethodDef disp_methods[] = {
    {"max_cooperative_grid_blocks", (PyCFunction)(void (*)(void))disp_max_coop,
     METH_FASTCALL | METH_KEYWORDS,
     "max_cooperative_grid_blocks(blockdim, dynsmemsize=0): the most blocks a grid "
     "that calls cuda.cg.this_grid().sync() may have on the current device."},
    {"_precompile", disp_precompile, METH_NOARGS, NULL},
    {"_config", (PyCFunction)(void (*)(void))empy_jit_config_method, METH_FASTCALL,
     "_config(griddim, blockdim, stream, sharedmem, empty): forall's LaunchConfig."},
    {NULL},
};

/* _Dispatcher(py_func, sigs, fastmath, lineinfo, opt, max_registers):
 * python/ember/cuda/dispatcher.py has read jit()'s arguments and parsed
 * the signatures (None, or a list of argcode tuples); its subclass keeps
 * what only the slow path reads. */
static PyObject *disp_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    PyObject *func, *sigs, *code, *names;
    empy_Dispatcher *k;
    long argc;
    int fastmath, lineinfo, opt, maxreg;
    Py_ssize_t i;
    uint32_t codes[EMPY_JIT_MAX_ARGS];

    if (!PyArg_ParseTuple(args, "O!Oiiii:Dispatcher", &PyFunction_Type, &func, &sigs,
                          &fastmath, &lineinfo, &opt, &maxreg))
        return NULL;
    code = PyFunction_GET_CODE(func);
    argc = ((PyCodeObject *)code)->co_argcount;
    if (((PyCodeObject *)code)->co_kwonlyargcount || argc > EMPY_JIT_MAX_ARGS ||
        (((PyCodeObject *)code)->co_flags & (CO_VARARGS | CO_VARKEYWORDS))) {
        PyErr_Format(PyExc_TypeError, "kernel %R: a kernel takes up to %d positional "
                     "parameters (no *args, **kwargs or keyword-only ones)", func,
                     EMPY_JIT_MAX_ARGS);
        return NULL;
    }
    if (sigs != Py_None && !PyList_Check(sigs))
        return PyErr_Format(PyExc_TypeError, "Dispatcher: sigs must be a list or None");
    for (i = 0; sigs != Py_None && i < PyList_GET_SIZE(sigs); i++) {
        PyObject *c = PyList_GET_ITEM(sigs, i);
        if (!PyTuple_Check(c) || PyTuple_GET_SIZE(c) != argc)
            return PyErr_Format(PyExc_TypeError, "Dispatcher: signature %R is not a "
                                "tuple of %ld argcodes", c, argc);
        if (empy_jit_sig_codes(c, codes, (int)argc) < 0)
            return NULL;
    }
    if (!(k = (empy_Dispatcher *)type->tp_alloc(type, 0)))
        return NULL;
    k->nargs = (int)argc;
    k->fastmath = fastmath;
    k->lineinfo = lineinfo;
    k->opt = opt;
    k->maxreg = maxreg;
    snprintf(k->regopt, sizeof k->regopt, "-maxrregcount=%d", maxreg);
    k->sigs = sigs == Py_None ? NULL : Py_NewRef(sigs);
    k->name = PyObject_GetAttrString(func, "__name__");
    names = PyObject_GetAttrString(code, "co_varnames");
    if (!k->name || !names || !PyUnicode_Check(k->name) ||
        !(k->kname = PyUnicode_AsUTF8(k->name)))
        goto fail;
    k->params = PyTuple_GetSlice(names, 0, argc);
    k->pnames = PyMem_Malloc(sizeof *k->pnames * (size_t)(argc ? argc : 1));
    if (!k->params || !k->pnames)
        goto fail;
    for (i = 0; i < argc; i++)
        if (!(k->pnames[i] = PyUnicode_AsUTF8(PyTuple_GET_ITEM(k->params, i))))
            goto fail;
    Py_DECREF(names);
    return (PyObject *)k;
fail:
    Py_XDECREF(names);
    Py_DECREF(k);
    return NULL;
}

static PyType_Slot disp_slots[] = {
    {Py_tp_new, disp_new},
    {Py_mp_subscript, empy_jit_subscript},
    {Py_tp_dealloc, disp_dealloc},
    {Py_tp_traverse, disp_traverse},
    {Py_tp_clear, disp_clear},
    {Py_tp_methods, disp_methods},
    {0, NULL},
};

static PyType_Spec disp_spec = {
    "ember.cuda._Dispatcher", sizeof(empy_Dispatcher), 0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASETYPE, disp_slots,
};

static PyObject *mod_kernel_cache_stats(PyObject *m, PyObject *unused)
{
    em_kernel_cache_stats ks;
    em_kernel_cache_get_stats(&ks);
    return Py_BuildValue("{s:K,s:K,s:K,s:K,s:K}", "memory_hits",
                         (unsigned long long)ks.memory_hits, "disk_hits",
                         (unsigned long long)ks.disk_hits, "compiles",
                         (unsigned long long)ks.compiles, "disk_rejects",
                         (unsigned long long)ks.disk_rejects, "entries",
                         (unsigned long long)ks.entries);
}

/* _diskcache_load(name, ident) -> bytes or None; _diskcache_store(name,
 * ident, payload): the jit translations' disk index (python/ember/cuda/
 * jitcache.py) in the core's disk cache. A store that fails is ignored:
 * the index is an optimisation. */
static PyObject *mod_diskcache(PyObject *m, PyObject *const *args, Py_ssize_t n)
{
    const char *name;
    void *payload = NULL;
    size_t size = 0;
    em_status rc;
    PyObject *out;
    if ((n != 2 && n != 3) || !PyUnicode_Check(args[0]) || !PyBytes_Check(args[1]) ||
        (n == 3 && !PyBytes_Check(args[2])))
        return PyErr_Format(PyExc_TypeError, "_diskcache_load(name, ident) or "
                            "_diskcache_store(name, ident, payload): a str and bytes");
    if (!(name = PyUnicode_AsUTF8(args[0])))
        return NULL;
    if (n == 3) {
        Py_BEGIN_ALLOW_THREADS
        (void)em_diskcache_store(name, PyBytes_AS_STRING(args[1]),
                                 (size_t)PyBytes_GET_SIZE(args[1]),
                                 PyBytes_AS_STRING(args[2]), (size_t)PyBytes_GET_SIZE(args[2]));
        Py_END_ALLOW_THREADS
        Py_RETURN_NONE;
    }
    Py_BEGIN_ALLOW_THREADS
    rc = em_diskcache_load(name, PyBytes_AS_STRING(args[1]), (size_t)PyBytes_GET_SIZE(args[1]),
                           &payload, &size);
    Py_END_ALLOW_THREADS
    if (rc != EM_OK)
        Py_RETURN_NONE;
    out = PyBytes_FromStringAndSize(payload, (Py_ssize_t)size);
    free(payload);
    return out;
}

static PyMethodDef jit_functions[] = {
    {"_diskcache_load", (PyCFunction)(void (*)(void))mod_diskcache, METH_FASTCALL, NULL},
    {"_diskcache_store", (PyCFunction)(void (*)(void))mod_diskcache, METH_FASTCALL, NULL},
    {"_kernel_cache_stats", mod_kernel_cache_stats, METH_NOARGS,
     "This process's kernel cache counters: compiles, memory_hits, disk_hits, "
     "disk_rejects, entries."},
    {NULL},
};

static int add_private_type(PyObject *m, PyType_Spec *spec, const char *name,
                            PyTypeObject **slot)
{
    PyObject *t = PyType_FromModuleAndSpec(m, spec, NULL);
    if (!t)
        return -1;
    *slot = (PyTypeObject *)t;
    return PyModule_AddObjectRef(m, name, t);
}

int empy_jit_init(PyObject *m, empy_state *st)
{
    /* Private names in ember._ember: `ember.cuda` builds on them, and the
     * top-level `ember.jit` stays the translator package. */
    if (add_private_type(m, &disp_spec, "_Dispatcher", &st->Dispatcher) < 0 ||
        add_private_type(m, &empy_jit_config_spec, "_LaunchConfig", &st->LaunchConfig) < 0)
        return -1;
    return PyModule_AddFunctions(m, jit_functions);
}
