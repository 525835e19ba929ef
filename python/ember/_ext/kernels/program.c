/* ember Python extension: compilation and kernels. The compile under
 * ember.cuda.Program (cuda.core's spelling: NVRTC to PTX or CUBIN; the
 * class is python/ember/_api/program.py), and CuPy's RawModule,
 * RawKernel and the Function a module hands out.
 *
 * RawModule compiles through the kernel cache (em_kernel_cache_get) for the
 * device it runs on, so the same source runs on cpu (the host C compiler)
 * and on cuda (NVRTC). A RawKernel launches the Function of such a module
 * for each device it meets, made at the first launch there. */
#include <stdlib.h>
#include <string.h>
#include "runtime/module.h"
#include "runtime/errors.h"
#include "runtime/member_compat.h"
#include "kernels/launch.h"
#include "kernels/ckernel.h"
#include "runtime/args.h"

/* The kernel cache's generator version for user source: the source is the
 * kernel as written, so this changes only if ember's wrapping of it does. */
#define EMPY_RAW_GEN_VERSION 1u

/* A RawKernel's last slot is published to other threads by one pointer. */
#if defined(__GNUC__) || defined(__clang__)
#define LOAD_ACQUIRE(p) __atomic_load_n(&(p), __ATOMIC_ACQUIRE)
#define STORE_RELEASE(p, v) __atomic_store_n(&(p), (v), __ATOMIC_RELEASE)
#else
#define LOAD_ACQUIRE(p) (p)
#define STORE_RELEASE(p, v) ((p) = (v))
#endif

/* ---- options ----------------------------------------------------------- */

const char **empy_options_array(PyObject *t, int *n)
{
    Py_ssize_t i, cnt = PyTuple_GET_SIZE(t);
    const char **v = PyMem_Malloc(sizeof *v * (size_t)(cnt + 1));
    if (!v) {
        PyErr_NoMemory();
        return NULL;
    }
    for (i = 0; i < cnt; i++) {
        v[i] = PyUnicode_AsUTF8(PyTuple_GET_ITEM(t, i));
        if (!v[i]) {
            PyMem_Free(v);
            return NULL;
        }
    }
    *n = (int)cnt;
    return v;
}

/* ---- Program.compile ---------------------------------------------------- */

/* _compile_cuda(source, name, options, arch, target): (code bytes, log)
 * for python/ember/_api/program.py, which checks the arguments (options a
 * tuple of str, arch 0 or 10*major+minor, target 'ptx', 'cubin' or
 * 'ltoir'). */
static PyObject *compile_cuda(PyObject *m, PyObject *args)
{
    empy_state *st = empy_state_of_module(m);
    const char *src, *name, *target, **opts;
    PyObject *options, *r;
    em_code_kind kind;
    em_code *code = NULL;
    char *log = NULL;
    int arch, nopts;
    em_status rc;

    if (!PyArg_ParseTuple(args, "ssO!is:_compile_cuda", &src, &name,
                          &PyTuple_Type, &options, &arch, &target))
        return NULL;
    kind = !strcmp(target, "cubin") ? EM_CODE_CUBIN
           : !strcmp(target, "ltoir") ? EM_CODE_LTOIR : EM_CODE_PTX;
    if (!(opts = empy_options_array(options, &nopts)))
        return NULL;
    Py_BEGIN_ALLOW_THREADS
    rc = em_compile_cuda(src, name, opts, nopts, arch, kind, &code, &log);
    Py_END_ALLOW_THREADS
    PyMem_Free(opts);
    if (rc != EM_OK) {
        empy_raise_compile(st, rc, log, src);
        free(log);
        return NULL;
    }
    free(log);
    r = Py_BuildValue("(y#N)", code->data, (Py_ssize_t)code->size,
                      PyUnicode_DecodeUTF8(code->log ? code->log : "",
                                           code->log ? (Py_ssize_t)strlen(code->log) : 0,
                                           "replace"));
    em_code_free(code);
    return r;
}

/* _lowered_names(code, options, exprs): NVRTC's names of the name
 * expressions (a tuple parallel to exprs), which rawmodule.py asks once:
 * the GPU module knows C++ kernels only by them. */
static PyObject *lowered_names(PyObject *mod, PyObject *args)
{
    PyObject *options, *exprs, *t = NULL;
    const char *src, **ov = NULL, **ex = NULL;
    char **low = NULL;
    int nopts, n = 0, i;
    em_status rc;

    if (!PyArg_ParseTuple(args, "sO!O!:_lowered_names", &src, &PyTuple_Type, &options,
                          &PyTuple_Type, &exprs) ||
        !(ov = empy_options_array(options, &nopts)) || !(ex = empy_options_array(exprs, &n)))
        goto done;
    if (!(low = PyMem_Calloc((size_t)n + 1, sizeof *low))) {
        PyErr_NoMemory();
        goto done;
    }
    EMPY_NOGIL(rc, em_cuda_lowered_names(src, ov, nopts, ex, n, low));
    if (rc != EM_OK)
        empy_raise_compile(empy_state_of_module(mod), rc, NULL, src);
    else if ((t = PyTuple_New(n)))
        for (i = 0; i < n; i++) {
            PyObject *v = PyUnicode_FromString(low[i]);
            if (!v) {
                Py_CLEAR(t);
                break;
            }
            PyTuple_SET_ITEM(t, i, v);
        }
    for (i = 0; i < n; i++)
        free(low[i]);
done:
    PyMem_Free(ov);
    PyMem_Free(ex);
    PyMem_Free(low);
    return t;
}

static PyMethodDef program_functions[] = {
    {"_compile_cuda", compile_cuda, METH_VARARGS, NULL},
    {"_lowered_names", lowered_names, METH_VARARGS, NULL},
    {NULL},
};

/* ---- Function ----------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    empy_kslot *slot;   /* its own */
    PyObject *owner;    /* the module the function lives in */
} empy_Function;

#define FUNC(o) ((empy_Function *)(o))

static PyObject *Function_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf,
                                     PyObject *kwnames)
{
    empy_state *st = empy_state_of(self);
    empy_kslot *slot = FUNC(self)->slot;
    empy_launch_call lc;
    em_stream *s;

    if (empy_parse_launch(st, slot->name, args, nargsf, kwnames, &lc) < 0 ||
        empy_stream_for_device(st, lc.stream, slot->dev, &s) < 0)
        return NULL;
    return empy_launch(st, slot, &lc, s);
}

static PyObject *function_new(empy_state *st, empy_kslot *slot, PyObject *owner)
{
    empy_Function *f = PyObject_GC_New(empy_Function, st->Function);
    if (!f) {
        PyMem_RawFree(slot);
        return NULL;
    }
    f->vectorcall = Function_vectorcall;
    f->slot = slot;
    f->owner = Py_NewRef(owner);
    PyObject_GC_Track(f);
    return (PyObject *)f;
}

static int Function_traverse(PyObject *self, visitproc visit, void *arg)
{
    Py_VISIT(Py_TYPE(self));
    Py_VISIT(FUNC(self)->owner);
    return 0;
}

static void Function_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    PyMem_RawFree(FUNC(self)->slot);
    Py_XDECREF(FUNC(self)->owner);
    tp->tp_free(self);
    Py_DECREF(tp);
}

/* Each parameter's (size, kind name or None), or None when the code does
 * not say how many there are: the facts _api/function_info.py reads. */
static PyObject *Function_get_params(PyObject *self, void *c)
{
    const empy_kslot *s = FUNC(self)->slot;
    PyObject *t;
    if (s->n_params < 0)
        Py_RETURN_NONE;
    t = PyTuple_New(s->n_params);
    for (int i = 0; t && i < s->n_params; i++) {
        PyObject *v = Py_BuildValue("(nz)", (Py_ssize_t)s->params[i].size,
                                    empy_param_kind_name(s->params[i].kind));
        if (!v) {
            Py_CLEAR(t);
            break;
        }
        PyTuple_SET_ITEM(t, i, v);
    }
    return t;
}

static PyObject *Function_get_name(PyObject *self, void *c)
{
    return PyUnicode_FromString(FUNC(self)->slot->name);
}

static PyObject *Function_get_device(PyObject *self, void *c)
{
    return empy_device_new(empy_state_of(self), FUNC(self)->slot->dev);
}

#define COLD(NAME) static const empy_pyattr cold_##NAME = {"ember._api.function_info", #NAME};
COLD(num_params) COLD(param_sizes) COLD(param_kinds) COLD(repr)

static PyObject *Function_repr(PyObject *self)
{
    return empy_py_getter(self, (void *)&cold_repr);
}

static PyGetSetDef Function_getset[] = {
    {"name", Function_get_name, NULL, "The kernel's name.", NULL},
    {"num_params", empy_py_getter, NULL,
     "The kernel's parameter count (None if the code does not say).", (void *)&cold_num_params},
    {"param_sizes", empy_py_getter, NULL,
     "Each parameter's size in bytes (None if unknown).", (void *)&cold_param_sizes},
    {"param_kinds", empy_py_getter, NULL,
     "What each parameter holds, read from the source: 'pointer', 'int', "
     "'uint', 'float', 'bool' or 'other' (by value), None where unknown (code "
     "loaded as PTX or CUBIN, templates, types from headers). Known kinds are "
     "enforced at launch. None if the parameter count is unknown.", (void *)&cold_param_kinds},
    {"device", Function_get_device, NULL, "The device the code is loaded on.", NULL},
    {"_params", Function_get_params, NULL, NULL, NULL},
    {NULL},
};

static PyMemberDef Function_members[] = {
    EMPY_VECTORCALL_MEMBER(empy_Function),
    {NULL},
};

static PyType_Slot Function_slots[] = {
    EMPY_NOINIT_SLOT
    {Py_tp_call, PyVectorcall_Call},
    {Py_tp_dealloc, Function_dealloc},
    {Py_tp_traverse, Function_traverse},
    {Py_tp_repr, Function_repr},
    {Py_tp_getset, Function_getset},
    {Py_tp_members, Function_members},
    {Py_tp_doc, "A kernel loaded on one device (RawModule.get_function). "
                "f(grid, block, args, shared_mem=0, stream=None) launches it."},
    {0, NULL},
};

static PyType_Spec Function_spec = {
    "ember.Function", sizeof(empy_Function), 0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | EMPY_TPFLAGS_IMMUTABLE |
        EMPY_TPFLAGS_NOINIT | Py_TPFLAGS_HAVE_VECTORCALL,
    Function_slots,
};

/* ---- RawModule ----------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    em_module *mod;
    int owned;            /* loaded here (cubin/ptx), not by the cache */
} empy_RawModule;

#define RMOD(o) ((empy_RawModule *)(o))

/* _RawModule(code, kind, data, options): the base of ember.RawModule
 * (python/ember/_api/rawmodule.py checks CuPy's arguments and keeps them).
 * Source code compiles through the kernel cache for the current device (on
 * cpu as C++, as NVRTC reads it); else data (bytes, NUL-ended as PTX must
 * be) loads as kind 'cubin' or 'ptx'. options: a tuple of str, with the
 * name expressions as EM_HOST_OPTION_NAME_EXPR options (the compiler
 * instantiates them, the cache key holds them). */
static PyObject *RawModule_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    empy_state *st = empy_state_of_type(type);
    PyObject *code, *data, *opts;
    const char *kind, *src, **ov;
    char *log = NULL;
    empy_RawModule *m;
    em_device *d;
    em_status rc;
    int n;

    if (!PyArg_ParseTuple(args, "OzOO!:_RawModule", &code, &kind, &data, &PyTuple_Type, &opts) ||
        empy_device_arg(st, NULL, &d) < 0 || !(m = (empy_RawModule *)type->tp_alloc(type, 0)))
        return NULL;
    if (code == Py_None) {
        em_code c = {kind && !strcmp(kind, "cubin") ? EM_CODE_CUBIN : EM_CODE_PTX, NULL, 0,
                     (char *)""};
        if (!PyBytes_Check(data)) {
            PyErr_SetString(PyExc_TypeError, "_RawModule: data must be bytes");
            goto fail;
        }
        c.data = PyBytes_AS_STRING(data);
        c.size = (size_t)PyBytes_GET_SIZE(data);
        EMPY_NOGIL(rc, em_module_load(d, &c, &m->mod));
        if (rc != EM_OK) {
            empy_raise(st, rc);
            goto fail;
        }
        m->owned = 1;
        return (PyObject *)m;
    }
    if (!(src = PyUnicode_AsUTF8(code)) || !(ov = empy_options_array(opts, &n)))
        goto fail;
    if (em_device_get_type(d) == EM_DEVICE_CPU)
        ov[n++] = EM_HOST_OPTION_CXX;
    EMPY_NOGIL(rc, em_kernel_cache_get(d, src, 0, ov, n, EMPY_RAW_GEN_VERSION, &m->mod, &log));
    PyMem_Free(ov);
    if (rc != EM_OK)
        empy_raise_compile(st, rc, log, src);
    free(log);
    if (rc == EM_OK)
        return (PyObject *)m;
fail:
    Py_DECREF(m);
    return NULL;
}

static void RawModule_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    empy_RawModule *m = RMOD(self);
    if (m->owned && m->mod)
        (void)em_module_unload(m->mod);
    tp->tp_free(self);
    Py_DECREF(tp);
}

static PyObject *RawModule_get_function(PyObject *self, PyObject *name)
{
    empy_state *st = empy_state_of(self);
    const char *s;
    em_function *f;
    empy_kslot *slot;
    em_status rc;

    if (!PyUnicode_Check(name)) {
        PyErr_Format(PyExc_TypeError, "get_function() needs a str, not %.100s",
                     Py_TYPE(name)->tp_name);
        return NULL;
    }
    if (!(s = PyUnicode_AsUTF8(name)))
        return NULL;
    rc = em_module_get_function(RMOD(self)->mod, s, &f);
    if (rc != EM_OK)
        return empy_raise(st, rc);
    slot = empy_kslot_new(em_module_device(RMOD(self)->mod), f);
    if (!slot)
        return NULL;
    return function_new(st, slot, self);
}

/* _global(name) -> (address, size) of the module's __device__ or
 * __constant__ variable; AttributeError if none (rawmodule.py's
 * get_global wraps it). */
static PyObject *RawModule_global(PyObject *self, PyObject *name)
{
    const char *s = PyUnicode_AsUTF8(name);
    size_t size;
    void *ptr;
    em_status rc;

    if (!s)
        return NULL;
    rc = em_module_get_global(RMOD(self)->mod, s, &ptr, &size);
    if (rc == EM_ERR_NOT_FOUND) {
        PyErr_Format(PyExc_AttributeError, "%s", em_last_error());
        return NULL;
    }
    if (rc != EM_OK)
        return empy_raise(empy_state_of(self), rc);
    return Py_BuildValue("(Nn)", PyLong_FromVoidPtr(ptr), (Py_ssize_t)size);
}

static PyObject *RawModule_get_device(PyObject *self, void *c)
{
    return empy_device_new(empy_state_of(self), em_module_device(RMOD(self)->mod));
}

static PyMethodDef RawModule_methods[] = {
    {"get_function", RawModule_get_function, METH_O,
     "get_function(name) -> Function; AttributeError if the module has no "
     "kernel of that name."},
    {"_global", RawModule_global, METH_O, NULL},
    {NULL},
};

static PyGetSetDef RawModule_getset[] = {
    {"device", RawModule_get_device, NULL, "The device the module is loaded on.", NULL},
    {NULL},
};

static PyType_Slot RawModule_slots[] = {
    {Py_tp_new, RawModule_new},
    {Py_tp_dealloc, RawModule_dealloc},
    {Py_tp_methods, RawModule_methods},
    {Py_tp_getset, RawModule_getset},
    {Py_tp_doc, "The base of ember.RawModule: a module compiled (through the "
                "kernel cache) or loaded for the current device."},
    {0, NULL},
};

static PyType_Spec RawModule_spec = {
    "ember._RawModule", sizeof(empy_RawModule), 0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | EMPY_TPFLAGS_IMMUTABLE,
    RawModule_slots,
};

/* ---- RawKernel ------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    empy_kslot *last;       /* the slot of the last launch's device */
    PyObject *functions;    /* {device address: Function}, kept for the
                             * kernel's life, so a slot never dies under it */
    PyObject *code, *name, *options;
    const char *kname;
} empy_RawKernel;

#define RK(o) ((empy_RawKernel *)(o))

/* The Function for device d (borrowed): an earlier one, else
 * kernel_args.rawkernel_function's, compiled there now. */
static PyObject *kernel_function(empy_state *st, empy_RawKernel *k, em_device *d)
{
    static const empy_pyattr w = {"ember._api.kernel_args", "rawkernel_function"};
    PyObject *key = PyLong_FromVoidPtr(d), *f = NULL, *dev, *fresh = NULL;

    if (key && !(f = PyDict_GetItemWithError(k->functions, key)) && !PyErr_Occurred() &&
        (dev = empy_device_new(st, d))) {
        fresh = empy_py_method(&w, (PyObject *)k, &dev, 1, NULL);
        Py_DECREF(dev);
        /* another thread may have got there first */
        f = fresh ? PyDict_SetDefault(k->functions, key, fresh) : NULL;
        Py_XDECREF(fresh);
    }
    Py_XDECREF(key);
    if (f)
        STORE_RELEASE(k->last, FUNC(f)->slot);
    return f;
}

static PyObject *RawKernel_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf,
                                      PyObject *kwnames)
{
    empy_RawKernel *k = RK(self);
    empy_state *st = empy_state_of(self);
    empy_kslot *slot;
    empy_launch_call lc;
    em_device *d;
    em_stream *s;
    em_status rc;
    PyObject *f;

    if (empy_parse_launch(st, k->kname, args, nargsf, kwnames, &lc) < 0)
        return NULL;
    if (!lc.stream || lc.stream == Py_None) {
        rc = em_current_device(&d);
        if (rc != EM_OK)
            return empy_raise(st, rc);
        s = em_current_stream();
    } else {
        if (!Py_IS_TYPE(lc.stream, st->Stream)) {
            PyErr_Format(PyExc_TypeError, "stream must be an ember.Stream or None, "
                         "not %.100s", Py_TYPE(lc.stream)->tp_name);
            return NULL;
        }
        s = ((empy_Stream *)lc.stream)->s;
        if (s) {
            d = em_stream_device(s);
        } else {            /* Stream.null: the current device's default */
            rc = em_current_device(&d);
            if (rc != EM_OK)
                return empy_raise(st, rc);
        }
    }
    slot = LOAD_ACQUIRE(k->last);
    if (!slot || slot->dev != d) {
        if (!(f = kernel_function(st, k, d)))
            return NULL;
        slot = FUNC(f)->slot;
    }
    return empy_launch(st, slot, &lc, s);
}

/* python/ember/_api/kernel_args.py reads CuPy's signature. */
static PyObject *RawKernel_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    static const empy_pyattr w = {"ember._api.kernel_args", "rawkernel"};
    PyObject *spec = empy_py_method_tuple(&w, (PyObject *)type, args, kw);
    empy_RawKernel *k;

    if (!spec || !(k = (empy_RawKernel *)type->tp_alloc(type, 0))) {
        Py_XDECREF(spec);
        return NULL;
    }
    k->vectorcall = RawKernel_vectorcall;
    k->code = Py_NewRef(PyTuple_GET_ITEM(spec, 0));
    k->name = Py_NewRef(PyTuple_GET_ITEM(spec, 1));
    k->options = Py_NewRef(PyTuple_GET_ITEM(spec, 2));
    Py_DECREF(spec);
    if (!(k->kname = PyUnicode_AsUTF8(k->name)) || !(k->functions = PyDict_New())) {
        Py_DECREF(k);
        return NULL;
    }
    return (PyObject *)k;
}

static void RawKernel_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    Py_XDECREF(RK(self)->functions);
    Py_XDECREF(RK(self)->code);
    Py_XDECREF(RK(self)->name);
    Py_XDECREF(RK(self)->options);
    tp->tp_free(self);
    Py_DECREF(tp);
}

static PyObject *RawKernel_repr(PyObject *self)
{
    return PyUnicode_FromFormat("<ember.RawKernel %R>", RK(self)->name);
}

/* The Function for the current device, compiled there if need be. */
static PyObject *RawKernel_get_kernel(PyObject *self, void *c)
{
    empy_state *st = empy_state_of(self);
    em_device *d;
    PyObject *f = empy_device_arg(st, NULL, &d) < 0 ? NULL : kernel_function(st, RK(self), d);
    return f ? Py_NewRef(c ? f : Py_None) : NULL;
}

static PyObject *RawKernel_compile(PyObject *self, PyObject *unused)
{
    return RawKernel_get_kernel(self, NULL);
}

static PyMethodDef RawKernel_methods[] = {
    {"compile", RawKernel_compile, METH_NOARGS,
     "Compile for the current device now rather than at the first launch."},
    {NULL},
};

static PyGetSetDef RawKernel_getset[] = {
    {"kernel", RawKernel_get_kernel, NULL,
     "The Function for the current device (compiled on first use).", (void *)1},
    {NULL},
};

static PyMemberDef RawKernel_members[] = {
    EMPY_VECTORCALL_MEMBER(empy_RawKernel),
    {"code", EMPY_T_OBJECT, offsetof(empy_RawKernel, code), EMPY_READONLY, "The source."},
    {"name", EMPY_T_OBJECT, offsetof(empy_RawKernel, name), EMPY_READONLY,
     "The kernel's name in the source."},
    {"options", EMPY_T_OBJECT, offsetof(empy_RawKernel, options), EMPY_READONLY,
     "The compile options."},
    {NULL},
};

static PyType_Slot RawKernel_slots[] = {
    {Py_tp_new, RawKernel_new},
    {Py_tp_call, PyVectorcall_Call},
    {Py_tp_dealloc, RawKernel_dealloc},
    {Py_tp_repr, RawKernel_repr},
    {Py_tp_methods, RawKernel_methods},
    {Py_tp_getset, RawKernel_getset},
    {Py_tp_members, RawKernel_members},
    {Py_tp_doc, "RawKernel(code, name, options=(), backend='nvrtc')\n\nOne kernel of "
                "CUDA C++ source, "
                "compiled for each device at its first launch there. "
                "k(grid, block, args, shared_mem=0, stream=None) launches it on "
                "the stream's device, or the current device and stream."},
    {0, NULL},
};

static PyType_Spec RawKernel_spec = {
    "ember.RawKernel", sizeof(empy_RawKernel), 0,
    Py_TPFLAGS_DEFAULT | EMPY_TPFLAGS_IMMUTABLE | Py_TPFLAGS_HAVE_VECTORCALL,
    RawKernel_slots,
};

int empy_program_init(PyObject *m, empy_state *st)
{
    if (PyModule_AddFunctions(m, program_functions) < 0 ||
        PyModule_AddStringConstant(m, "_NAME_EXPR_OPTION", EM_HOST_OPTION_NAME_EXPR) < 0 ||
        empy_add_type(m, &Function_spec, NULL, &st->Function) < 0 ||
        empy_add_type(m, &RawModule_spec, NULL, &st->RawModule) < 0 ||
        empy_add_type(m, &RawKernel_spec, NULL, &st->RawKernel) < 0)
        return -1;
    return 0;
}
