/* ember Python extension: ember.cuda.jit, Numba-CUDA's decorator over
 * ember's translator and kernel cache (docs/jit-design.md): the jit()
 * function and its decorator object, the Dispatcher (what `@cuda.jit`
 * makes: subscripting gives a launch configuration, jit_launch.c) and the
 * DeviceFunction of jit(device=True). Specialisations are made in
 * jit_compile.c. */
#include <stdlib.h>
#include <string.h>
#include "ember/util.h"
#include "jit/jit.h"
#include "kernels/launch.h"
#include "runtime/errors.h"

#define FORALL_BLOCK 256

/* ---- Dispatcher ------------------------------------------------------------- */

static PyObject *disp_forall(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                             PyObject *kwnames)
{
    static const char *const names[] = {"ntasks", "tpb", "stream", "sharedmem", NULL};
    empy_state *st = empy_state_of(self);
    PyObject *v[4], *stream;
    long long ntasks, tpb = 0;
    size_t shared;
    em_dim3 g = {1, 1, 1}, b = {1, 1, 1};

    if (empy_parse_args("forall", args, nargs, kwnames, names, 4, 1, v) < 0)
        return NULL;
    ntasks = PyLong_AsLongLong(v[0]);
    if (ntasks == -1 && PyErr_Occurred())
        return NULL;
    if (v[1] && (tpb = PyLong_AsLongLong(v[1])) == -1 && PyErr_Occurred())
        return NULL;
    if (ntasks < 0 || tpb < 0 || tpb > 1024) {
        PyErr_Format(PyExc_ValueError, "forall(ntasks=%lld, tpb=%lld): ntasks must be "
                     ">= 0 and tpb 0 (choose) to 1024", ntasks, tpb);
        return NULL;
    }
    if (empy_jit_stream_arg(st, v[2], &stream) < 0 || empy_jit_shared_arg(v[3], &shared) < 0)
        return NULL;
    /* No occupancy query in the runtime yet: 256 threads per block keeps
     * every SM of current GPUs busy for grids of a few blocks or more. */
    b.x = (unsigned)(tpb ? tpb : FORALL_BLOCK);
    if ((ntasks + b.x - 1) / b.x > 0xffffffffLL) {
        PyErr_Format(PyExc_ValueError, "forall(%lld) needs more than 2**32-1 blocks",
                     ntasks);
        return NULL;
    }
    g.x = ntasks ? (unsigned)((ntasks + b.x - 1) / b.x) : 1;
    return empy_jit_get_config(DISP(self), g, b, stream, shared, ntasks == 0);
}

/* Numba's older spelling of k[griddim, blockdim, stream, sharedmem]. */
static PyObject *disp_configure(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                PyObject *kwnames)
{
    static const char *const names[] = {"griddim", "blockdim", "stream", "sharedmem",
                                        NULL};
    PyObject *v[4], *key;
    int n = 2;
    if (empy_parse_args("configure", args, nargs, kwnames, names, 4, 2, v) < 0)
        return NULL;
    if (v[3]) {
        n = 4;
        if (!v[2])
            v[2] = Py_None;
    } else if (v[2]) {
        n = 3;
    }
    key = n == 2 ? PyTuple_Pack(2, v[0], v[1]) : n == 3 ? PyTuple_Pack(3, v[0], v[1], v[2])
                                                        : PyTuple_Pack(4, v[0], v[1], v[2], v[3]);
    if (!key)
        return NULL;
    Py_SETREF(key, empy_jit_subscript(self, key));
    return key;
}

static PyObject *disp_call(PyObject *self, PyObject *args, PyObject *kw)
{
    PyErr_Format(PyExc_TypeError, "kernel '%s' is launched with a configuration: "
                 "k[griddim, blockdim](...) or k.forall(n)(...)", DISP(self)->kname);
    return NULL;
}

/* {argcodes: source}, over every target compiled for. */
static PyObject *disp_sources(empy_Dispatcher *k)
{
    PyObject *out = PyDict_New(), *key, *t;
    Py_ssize_t pos = 0;
    while (out && PyDict_Next(k->translations, &pos, &key, &t)) {
        if (PyDict_SetItem(out, PyTuple_GET_ITEM(key, 1), PyTuple_GET_ITEM(t, 0)) < 0)
            Py_CLEAR(out);
    }
    return out;
}

/* Numba's mapping: lookups by the declared type tuple too, and values that
 * answer max_cooperative_grid_blocks (python/ember/jit/overloads.py). */
static PyObject *disp_overloads(PyObject *self, void *c)
{
    PyObject *src = disp_sources(DISP(self)), *mod, *r = NULL;
    if (!src)
        return NULL;
    if ((mod = PyImport_ImportModule("ember.jit.overloads")) != NULL) {
        r = PyObject_CallMethod(mod, "overloads", "OO", self, src);
        Py_DECREF(mod);
    }
    Py_DECREF(src);
    return r;
}

static PyObject *disp_inspect_source(PyObject *self, PyObject *const *args,
                                     Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"argcodes", "target", NULL};
    empy_Dispatcher *k = DISP(self);
    PyObject *v[2], *codes, *key, *t;
    const char *targets[2] = {"cpu", "cuda"};
    int i;

    if (empy_parse_args("inspect_source", args, nargs, kwnames, names, 2, 0, v) < 0)
        return NULL;
    if (!v[0] || v[0] == Py_None)
        return disp_sources(k);
    if (!(codes = PySequence_Tuple(v[0])))
        return NULL;
    if (v[1] && v[1] != Py_None) {
        if (!PyUnicode_Check(v[1]) || !(targets[0] = targets[1] = PyUnicode_AsUTF8(v[1]))) {
            Py_DECREF(codes);
            PyErr_SetString(PyExc_TypeError, "target must be 'cpu' or 'cuda'");
            return NULL;
        }
    }
    for (i = 0; i < 2; i++) {
        if (!(key = Py_BuildValue("(sO)", targets[i], codes))) {
            Py_DECREF(codes);
            return NULL;
        }
        t = PyDict_GetItemWithError(k->translations, key);
        Py_DECREF(key);
        if (t) {
            Py_DECREF(codes);
            return Py_NewRef(PyTuple_GET_ITEM(t, 0));
        }
        if (PyErr_Occurred()) {
            Py_DECREF(codes);
            return NULL;
        }
    }
    PyErr_Format(PyExc_KeyError, "kernel '%s' has no specialisation for %R", k->kname,
                 codes);
    Py_DECREF(codes);
    return NULL;
}

static PyObject *options_dict(int debug, int fastmath, int lineinfo, int cache, int opt)
{
    return Py_BuildValue("{s:O,s:O,s:O,s:O,s:O}", "debug", debug ? Py_True : Py_False,
                         "fastmath", fastmath ? Py_True : Py_False, "lineinfo",
                         lineinfo ? Py_True : Py_False, "cache", cache ? Py_True : Py_False,
                         "opt", opt ? Py_True : Py_False);
}

static PyObject *disp_targetoptions(PyObject *self, void *c)
{
    empy_Dispatcher *k = DISP(self);
    return options_dict(k->debug, k->fastmath, k->lineinfo, k->cache, k->opt);
}

static PyObject *disp_py_func(PyObject *self, void *c) { return Py_NewRef(DISP(self)->py_func); }
static PyObject *disp_name(PyObject *self, void *c) { return Py_NewRef(DISP(self)->name); }
static PyObject *disp_doc(PyObject *self, void *c)
{
    return PyObject_GetAttrString(DISP(self)->py_func, "__doc__");
}
static PyObject *disp_signatures(PyObject *self, void *c)
{
    empy_Dispatcher *k = DISP(self);
    return k->sigs ? PySequence_List(k->sigs) : PyList_New(0);
}

static PyObject *disp_repr(PyObject *self)
{
    return PyUnicode_FromFormat("<ember.cuda.Dispatcher '%s'>", DISP(self)->kname);
}

static int disp_traverse(PyObject *self, visitproc visit, void *arg)
{
    empy_Dispatcher *k = DISP(self);
    int i;
    Py_VISIT(Py_TYPE(self));
    Py_VISIT(k->py_func);
    Py_VISIT(k->translations);
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
    Py_CLEAR(k->translations);
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
    Py_XDECREF(k->py_func);
    Py_XDECREF(k->name);
    Py_XDECREF(k->params);
    tp->tp_free(self);
    Py_DECREF(tp);
}

/* Numba's kernel.max_cooperative_grid_blocks(blockdim, dynsmemsize=0):
 * how many blocks a grid that calls grid.sync() may have on the current
 * device (jit_coop.c says how it is reckoned). */
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
    return PyLong_FromLongLong(empy_jit_coop_limit(d, b, e ? e->fn : NULL, shared));
}

static PyMethodDef disp_methods[] = {
    {"max_cooperative_grid_blocks", (PyCFunction)(void (*)(void))disp_max_coop,
     METH_FASTCALL | METH_KEYWORDS,
     "max_cooperative_grid_blocks(blockdim, dynsmemsize=0): the most blocks a grid "
     "that calls cuda.cg.this_grid().sync() may have on the current device."},
    {"forall", (PyCFunction)(void (*)(void))disp_forall, METH_FASTCALL | METH_KEYWORDS,
     "forall(ntasks, tpb=0, stream=0, sharedmem=0) -> LaunchConfig: a 1-D launch of "
     "at least ntasks threads (256 per block unless tpb says)."},
    {"configure", (PyCFunction)(void (*)(void))disp_configure, METH_FASTCALL | METH_KEYWORDS,
     "configure(griddim, blockdim, stream=0, sharedmem=0): k[griddim, blockdim, "
     "stream, sharedmem]."},
    {"inspect_source", (PyCFunction)(void (*)(void))disp_inspect_source,
     METH_FASTCALL | METH_KEYWORDS,
     "inspect_source(argcodes=None, target=None): the translated C of one "
     "specialisation (argcodes like ('Af4_1C', 'i8')), or {argcodes: source}."},
    {NULL},
};

static PyGetSetDef disp_getset[] = {
    {"py_func", disp_py_func, NULL, "The Python function.", NULL},
    {"__name__", disp_name, NULL, NULL, NULL},
    {"__doc__", disp_doc, NULL, NULL, NULL},
    {"overloads", disp_overloads, NULL,
     "{argcodes: translated source} of every specialisation so far.", NULL},
    {"definitions", disp_overloads, NULL, "The same as overloads.", NULL},
    {"signatures", disp_signatures, NULL,
     "The explicit signatures as argcode tuples ([] when specialised on calls).", NULL},
    {"targetoptions", disp_targetoptions, NULL, "The options given to jit.", NULL},
    {NULL},
};

static PyType_Slot disp_slots[] = {
    EMPY_NOINIT_SLOT
    {Py_tp_call, disp_call},
    {Py_mp_subscript, empy_jit_subscript},
    {Py_tp_dealloc, disp_dealloc},
    {Py_tp_traverse, disp_traverse},
    {Py_tp_clear, disp_clear},
    {Py_tp_repr, disp_repr},
    {Py_tp_methods, disp_methods},
    {Py_tp_getset, disp_getset},
    {0, NULL},
};

static PyType_Spec disp_spec = {
    "ember.cuda.Dispatcher", sizeof(empy_Dispatcher), 0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | EMPY_TPFLAGS_IMMUTABLE | EMPY_TPFLAGS_NOINIT,
    disp_slots,
};

/* ---- DeviceFunction ----------------------------------------------------------- */

static PyObject *devfn_refuse(PyObject *self)
{
    PyObject *name = PyObject_GetAttrString(((empy_DeviceFunction *)self)->py_func, "__name__");
    if (name) {
        PyErr_Format(PyExc_TypeError, "'%U' is a device function (jit(device=True)): "
                     "call it from a kernel, it cannot be launched or called from "
                     "Python (its Python function is .py_func)", name);
        Py_DECREF(name);
    }
    return NULL;
}

static PyObject *devfn_call(PyObject *self, PyObject *a, PyObject *k) { return devfn_refuse(self); }
static PyObject *devfn_subscript(PyObject *self, PyObject *key) { return devfn_refuse(self); }
static PyObject *devfn_py_func(PyObject *self, void *c)
{
    return Py_NewRef(((empy_DeviceFunction *)self)->py_func);
}
static PyObject *devfn_name(PyObject *self, void *c)
{
    return PyObject_GetAttrString(((empy_DeviceFunction *)self)->py_func, "__name__");
}
static PyObject *devfn_sigs(PyObject *self, void *c)
{
    empy_DeviceFunction *f = (empy_DeviceFunction *)self;
    return f->sigs ? PySequence_List(f->sigs) : PyList_New(0);
}
static PyObject *devfn_options(PyObject *self, void *c)
{
    return Py_NewRef(((empy_DeviceFunction *)self)->options);
}

static int devfn_traverse(PyObject *self, visitproc visit, void *arg)
{
    empy_DeviceFunction *f = (empy_DeviceFunction *)self;
    Py_VISIT(Py_TYPE(self));
    Py_VISIT(f->py_func);
    Py_VISIT(f->sigs);
    Py_VISIT(f->options);
    return 0;
}

static int devfn_clear(PyObject *self)
{
    empy_DeviceFunction *f = (empy_DeviceFunction *)self;
    Py_CLEAR(f->py_func);
    Py_CLEAR(f->sigs);
    Py_CLEAR(f->options);
    return 0;
}

static void devfn_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    devfn_clear(self);
    tp->tp_free(self);
    Py_DECREF(tp);
}

static PyObject *devfn_repr(PyObject *self)
{
    return PyUnicode_FromFormat("<ember.cuda.DeviceFunction %R>",
                                ((empy_DeviceFunction *)self)->py_func);
}

static PyObject *devfn_true(PyObject *self, void *c) { Py_RETURN_TRUE; }

static PyGetSetDef devfn_getset[] = {
    {"py_func", devfn_py_func, NULL, "The Python function.", NULL},
    {"device", devfn_true, NULL, "True: a device function.", NULL},
    {"_ember_device", devfn_true, NULL, NULL, NULL},
    {"__name__", devfn_name, NULL, NULL, NULL},
    {"signatures", devfn_sigs, NULL, "The signatures given to jit, as written.", NULL},
    {"targetoptions", devfn_options, NULL, "The options given to jit.", NULL},
    {NULL},
};

static PyType_Slot devfn_slots[] = {
    EMPY_NOINIT_SLOT
    {Py_tp_call, devfn_call},
    {Py_mp_subscript, devfn_subscript},
    {Py_tp_dealloc, devfn_dealloc},
    {Py_tp_traverse, devfn_traverse},
    {Py_tp_clear, devfn_clear},
    {Py_tp_repr, devfn_repr},
    {Py_tp_getset, devfn_getset},
    {Py_tp_doc, "A function compiled into the kernels that call it "
                "(jit(device=True)); the translator inlines .py_func."},
    {0, NULL},
};

static PyType_Spec devfn_spec = {
    "ember.cuda.DeviceFunction", sizeof(empy_DeviceFunction), 0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | EMPY_TPFLAGS_IMMUTABLE | EMPY_TPFLAGS_NOINIT,
    devfn_slots,
};

/* ---- making kernels ------------------------------------------------------------ */

/* The argument codes of one signature, through ember.jit.parse_signature
 * (a tuple of codes, or an object/pair that holds them). */
static PyObject *signature_codes(PyObject *sig)
{
    PyObject *mod = empy_jit_module(), *r, *codes = NULL;
    if (!mod)
        return NULL;
    r = PyObject_CallMethod(mod, "parse_signature", "O", sig);
    Py_DECREF(mod);
    if (!r)
        return NULL;
    if (PyObject_HasAttrString(r, "argcodes"))
        codes = PyObject_GetAttrString(r, "argcodes");
    else if (PyTuple_Check(r) && PyTuple_GET_SIZE(r) == 2 &&
             !PyUnicode_Check(PyTuple_GET_ITEM(r, 1)) &&
             PySequence_Check(PyTuple_GET_ITEM(r, 1)))
        codes = Py_NewRef(PyTuple_GET_ITEM(r, 1));
    else
        codes = Py_NewRef(r);
    Py_DECREF(r);
    if (codes)
        Py_SETREF(codes, PySequence_Tuple(codes));
    return codes;
}

/* $EMBER_BOUNDSCHECK=0|1 wins over the decorator's boundscheck=, as
 * NUMBA_BOUNDSCHECK does in Numba; anything else leaves it. */
static int env_boundscheck(int given)
{
    const char *e = em_knob_text(EM_KNOB_BOUNDSCHECK);
    if (e && (e[0] == '0' || e[0] == '1') && !e[1])
        return e[0] - '0';
    return given;
}

static PyObject *make_dispatcher(empy_state *st, PyObject *func, PyObject *sigs,
                                 const empy_JitDecorator *o)
{
    PyObject *code, *names = NULL;
    empy_Dispatcher *k;
    long argc, kwonly, flags;
    Py_ssize_t i;
    em_device *d;
    em_status rc;

    if (!PyFunction_Check(func)) {
        PyErr_Format(PyExc_TypeError, "jit needs a Python function, not %.100s",
                     Py_TYPE(func)->tp_name);
        return NULL;
    }
    /* jit(link=...): the files ember.jit.translate appends for the
     * cuda.declare_device functions the kernel calls */
    if (o->link && PyObject_SetAttrString(func, "__ember_link__", o->link) < 0)
        return NULL;
    if (o->device) {
        empy_DeviceFunction *f = PyObject_GC_New(empy_DeviceFunction, st->DeviceFunction);
        if (!f)
            return NULL;
        f->py_func = Py_NewRef(func);
        f->sigs = sigs ? Py_NewRef(sigs) : NULL;
        f->options = options_dict(o->debug, o->fastmath, o->lineinfo, o->cache, o->opt);
        PyObject_GC_Track(f);
        if (!f->options) {
            Py_DECREF(f);
            return NULL;
        }
        return (PyObject *)f;
    }
    code = PyFunction_GET_CODE(func);
    argc = ((PyCodeObject *)code)->co_argcount;
    kwonly = ((PyCodeObject *)code)->co_kwonlyargcount;
    flags = ((PyCodeObject *)code)->co_flags;
    if (kwonly || (flags & (CO_VARARGS | CO_VARKEYWORDS)) || argc > EMPY_JIT_MAX_ARGS) {
        PyErr_Format(PyExc_TypeError, "kernel %R: a kernel takes up to %d positional "
                     "parameters (no *args, **kwargs or keyword-only ones)", func,
                     EMPY_JIT_MAX_ARGS);
        return NULL;
    }
    k = PyObject_GC_New(empy_Dispatcher, st->Dispatcher);
    if (!k)
        return NULL;
    memset((char *)k + sizeof(PyObject), 0, sizeof *k - sizeof(PyObject));
    k->py_func = Py_NewRef(func);
    k->nargs = (int)argc;
    k->debug = o->debug;
    k->fastmath = o->fastmath;
    k->lineinfo = o->lineinfo;
    k->cache = o->cache;
    k->opt = o->opt;
    k->maxreg = o->maxreg;
    k->boundscheck = env_boundscheck(o->boundscheck);
    snprintf(k->optstr, sizeof k->optstr, "debug=%d fastmath=%d lineinfo=%d opt=%d "
             "maxreg=%d boundscheck=%d", o->debug, o->fastmath, o->lineinfo, o->opt,
             o->maxreg, k->boundscheck);
    snprintf(k->regopt, sizeof k->regopt, "-maxrregcount=%d", o->maxreg);
    PyObject_GC_Track(k);
    k->name = PyObject_GetAttrString(func, "__name__");
    k->translations = PyDict_New();
    names = PyObject_GetAttrString(code, "co_varnames");
    if (!k->name || !k->translations || !names || !PyUnicode_Check(k->name) ||
        !(k->kname = PyUnicode_AsUTF8(k->name)))
        goto fail;
    k->params = PyTuple_GetSlice(names, 0, argc);
    k->pnames = PyMem_Malloc(sizeof *k->pnames * (size_t)(argc ? argc : 1));
    if (!k->params || !k->pnames)
        goto fail;
    for (i = 0; i < argc; i++)
        if (!(k->pnames[i] = PyUnicode_AsUTF8(PyTuple_GET_ITEM(k->params, i))))
            goto fail;
    Py_CLEAR(names);

    if (sigs) {
        uint32_t codes[EMPY_JIT_MAX_ARGS];
        if (!(k->sigs = PyList_New(0)))
            goto fail;
        for (i = 0; i < PyList_GET_SIZE(sigs); i++) {
            PyObject *c = signature_codes(PyList_GET_ITEM(sigs, i));
            if (!c)
                goto fail;
            if (PyTuple_GET_SIZE(c) != argc) {
                PyErr_Format(PyExc_TypeError, "kernel '%s' has %ld parameters but the "
                             "signature %R gives %zd", k->kname, argc,
                             PyList_GET_ITEM(sigs, i), PyTuple_GET_SIZE(c));
                Py_DECREF(c);
                goto fail;
            }
            if (empy_jit_sig_codes(c, codes, (int)argc) < 0 || PyList_Append(k->sigs, c) < 0) {
                Py_DECREF(c);
                goto fail;
            }
            Py_DECREF(c);
        }
        /* eagerly, for the current device, as Numba compiles at decoration */
        if ((rc = em_current_device(&d)) != EM_OK) {
            empy_raise(st, rc);
            goto fail;
        }
        for (i = 0; i < PyList_GET_SIZE(k->sigs); i++) {
            if (empy_jit_sig_codes(PyList_GET_ITEM(k->sigs, i), codes, (int)argc) < 0)
                goto fail;
            if (!empy_jit_find(k, d, codes) && !empy_jit_build(st, k, d, codes, codes))
                goto fail;
        }
    }
    return (PyObject *)k;
fail:
    Py_XDECREF(names);
    Py_DECREF(k);
    return NULL;
}

/* ---- the decorator ---------------------------------------------------------------- */

static PyObject *deco_call(PyObject *self, PyObject *args, PyObject *kw)
{
    PyObject *func;
    if (kw && PyDict_GET_SIZE(kw)) {
        PyErr_SetString(PyExc_TypeError, "jit(...)(func) takes the function only");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "O:jit", &func))
        return NULL;
    return make_dispatcher(empy_state_of(self), func, ((empy_JitDecorator *)self)->sigs,
                           (empy_JitDecorator *)self);
}

static void deco_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    Py_XDECREF(((empy_JitDecorator *)self)->sigs);
    Py_XDECREF(((empy_JitDecorator *)self)->link);
    tp->tp_free(self);
    Py_DECREF(tp);
}

static PyType_Slot deco_slots[] = {
    EMPY_NOINIT_SLOT
    {Py_tp_call, deco_call},
    {Py_tp_dealloc, deco_dealloc},
    {Py_tp_doc, "jit's options and signatures, waiting for the function."},
    {0, NULL},
};

static PyType_Spec deco_spec = {
    "ember.cuda.JitDecorator", sizeof(empy_JitDecorator), 0,
    Py_TPFLAGS_DEFAULT | EMPY_TPFLAGS_IMMUTABLE | EMPY_TPFLAGS_NOINIT, deco_slots,
};

static int flag_arg(PyObject *o, int dflt, int *out)
{
    int v;
    if (!o) {
        *out = dflt;
        return 0;
    }
    if ((v = PyObject_IsTrue(o)) < 0)
        return -1;
    *out = v;
    return 0;
}

static PyObject *mod_jit(PyObject *m, PyObject *const *args, Py_ssize_t nargs,
                         PyObject *kwnames)
{
    static const char *const names[] = {"func_or_sig", "device", "debug", "fastmath",
                                        "lineinfo", "cache", "opt", "max_registers",
                                        "inline", "link", "boundscheck", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *v[11], *f, *sigs = NULL, *out;
    empy_JitDecorator o, *deco;

    if (empy_parse_args("jit", args, nargs, kwnames, names, 1, 0, v) < 0)
        return NULL;
    if (flag_arg(v[1], 0, &o.device) < 0 || flag_arg(v[2], 0, &o.debug) < 0 ||
        flag_arg(v[3], 0, &o.fastmath) < 0 || flag_arg(v[4], 0, &o.lineinfo) < 0 ||
        flag_arg(v[5], 1, &o.cache) < 0 || flag_arg(v[6], 1, &o.opt) < 0)
        return NULL;
    o.boundscheck = -1;
    if (v[10] && v[10] != Py_None && flag_arg(v[10], 0, &o.boundscheck) < 0)
        return NULL;
    o.maxreg = 0;
    if (v[7] && v[7] != Py_None) {
        long r = PyLong_AsLong(v[7]);
        if (r == -1 && PyErr_Occurred())
            return NULL;
        if (r < 1 || r > 255) {
            PyErr_Format(PyExc_ValueError, "max_registers must be 1 to 255, got %ld", r);
            return NULL;
        }
        o.maxreg = (int)r;
    }
    /* inline= is accepted and ignored: device functions are always
     * compiled into their callers. */
    o.link = NULL;
    if (v[9] && v[9] != Py_None) {
        int t = PyObject_IsTrue(v[9]);
        if (t < 0)
            return NULL;
        if (t) {
            /* checked now (files exist, .cu), as Numba does at decoration */
            PyObject *ffi = PyImport_ImportModule("ember.cuda.ffi");
            o.link = ffi ? PyObject_CallMethod(ffi, "link_paths", "O", v[9]) : NULL;
            Py_XDECREF(ffi);
            if (!o.link)
                return NULL;
        }
    }
    f = v[0];
    if (f && f != Py_None && !PyFunction_Check(f)) {
        /* a str, a Signature, a tuple of types or a list of them: the
         * translator package spells each as a signature string */
        PyObject *mod = empy_jit_module(), *fn;
        fn = mod ? PyObject_GetAttrString(mod, "signature_strings") : NULL;
        sigs = fn ? PyObject_CallOneArg(fn, f) : NULL;
        Py_XDECREF(fn);
        Py_XDECREF(mod);
        if (sigs && !PyList_Check(sigs)) {
            PyErr_SetString(PyExc_TypeError, "ember.jit.signature_strings must return a list");
            Py_CLEAR(sigs);
        }
        if (!sigs) {
            Py_XDECREF(o.link);
            return NULL;
        }
        f = NULL;
    }
    if (f && f != Py_None) {
        out = make_dispatcher(st, f, NULL, &o);
        Py_XDECREF(o.link);
        return out;
    }
    deco = PyObject_New(empy_JitDecorator, st->JitDecorator);
    if (!deco) {
        Py_XDECREF(sigs);
        Py_XDECREF(o.link);
        return NULL;
    }
    deco->sigs = sigs;
    deco->link = o.link;
    deco->device = o.device;
    deco->debug = o.debug;
    deco->fastmath = o.fastmath;
    deco->lineinfo = o.lineinfo;
    deco->cache = o.cache;
    deco->opt = o.opt;
    deco->maxreg = o.maxreg;
    deco->boundscheck = o.boundscheck;
    out = (PyObject *)deco;
    return out;
}

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

static PyMethodDef jit_functions[] = {
    {"_jit", (PyCFunction)(void (*)(void))mod_jit, METH_FASTCALL | METH_KEYWORDS,
     "jit(func=None, *, device=False, debug=False, fastmath=False, lineinfo=False, "
     "cache=True, opt=True, boundscheck=None), also jit('void(float32[:], int32)') or a list of "
     "signatures: a Python kernel (ember.cuda.jit)."},
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
    /* Private names in ember._ember: `ember.cuda` re-exports them, and the
     * top-level `ember.jit` stays the translator package. */
    if (add_private_type(m, &disp_spec, "_Dispatcher", &st->Dispatcher) < 0 ||
        add_private_type(m, &empy_jit_config_spec, "_LaunchConfig", &st->LaunchConfig) < 0 ||
        add_private_type(m, &devfn_spec, "_DeviceFunction", &st->DeviceFunction) < 0 ||
        add_private_type(m, &deco_spec, "_JitDecorator", &st->JitDecorator) < 0)
        return -1;
    return PyModule_AddFunctions(m, jit_functions);
}
