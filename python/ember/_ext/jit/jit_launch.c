/* ember Python extension: launching ember.cuda.jit kernels (the hot
 * path). `k[griddim, blockdim, stream, shared]` is a LaunchConfig (the
 * dispatcher keeps the last few, so the usual loop allocates nothing);
 * calling it classifies each argument into a 32-bit type code
 * (jit_args.c), finds the specialisation for (device, codes) in the
 * dispatcher's list, packs the flattened parameters on the stack and calls
 * em_launch: no Python code, no strings.
 *
 * Bounds checks: when the kernel has the error-record parameter (always on
 * cpu, with debug=True on cuda) the launch zeroes 16 int64s before and
 * reads them after, raising IndexError with the site's array name and
 * Python line. */
#include <string.h>
#include "jit/jit.h"
#include "kernels/launch.h"
#include "runtime/errors.h"
#include "runtime/member_compat.h"

#define ARGS_STACK 8         /* arguments classified on the stack */
#define PARAMS_STACK 64      /* flattened parameters packed on the stack */

/* ---- the bounds-error record --------------------------------------------- */

static PyObject *site_field(PyObject *site, Py_ssize_t i)
{
    if (site && PyTuple_Check(site) && PyTuple_GET_SIZE(site) > i)
        return PyTuple_GET_ITEM(site, i);
    return Py_None;
}

static void raise_bounds(const empy_Dispatcher *k, const empy_jit_entry *e, const long long *rec)
{
    PyObject *sites = PyTuple_GET_ITEM(e->trans, 2), *site = NULL, *arr, *file, *line;
    long long id = rec[0] - 1;
    if (id >= 0 && id < PyTuple_GET_SIZE(sites))
        site = PyTuple_GET_ITEM(sites, id);
    arr = site_field(site, 0);
    file = site_field(site, 1);
    line = site_field(site, 2);
    PyErr_Format(PyExc_IndexError,
                 "kernel '%s': index %lld is out of bounds for axis %lld with size %lld "
                 "of array %R (%S:%S), thread (%lld, %lld, %lld) of block (%lld, %lld, "
                 "%lld)", k->kname, rec[1], rec[2], rec[3], arr, file, line, rec[7],
                 rec[8], rec[9], rec[4], rec[5], rec[6]);
}

/* ---- the launch (the hot path) ---------------------------------------------- */

static PyObject *devices_error(empy_Dispatcher *k, int i, em_device *a, int j, em_device *b)
{
    PyErr_Format(PyExc_ValueError, "kernel '%s': arguments on different devices: '%s' "
                 "is on %s but '%s' is on %s (move them with ember.asarray(x, "
                 "device=...) or x.to_device(...))", k->kname, k->pnames[i],
                 em_device_name(a), k->pnames[j], em_device_name(b));
    return NULL;
}

static PyObject *launch(empy_LaunchConfig *cfg, PyObject *const *args, Py_ssize_t n)
{
    empy_Dispatcher *k = cfg->disp;
    empy_state *st = empy_state_of((PyObject *)cfg);
    empy_jarg ja_stack[ARGS_STACK], *ja = ja_stack;
    uint32_t key[EMPY_JIT_MAX_ARGS];
    union { long long a; char b[PARAMS_STACK * 16]; } pbuf_stack;
    void *argv_stack[PARAMS_STACK + 1], **argv = argv_stack;
    char *pbuf = pbuf_stack.b;
    long long rec[EMPY_JIT_ERR_SLOTS], *recp = NULL;
    em_device *dev = NULL, *cur;
    em_stream *s = NULL;
    empy_jit_entry *e;
    PyObject *result = NULL;
    int i, done = 0, dev_arg = -1, np = 0, host_inplace = 0, read_rec, cpu_async;
    int grid_slot = -1;
    size_t off = 0;
    em_status rc;

    if (n > ARGS_STACK && !(ja = PyMem_Malloc(sizeof *ja * (size_t)n)))
        return PyErr_NoMemory();
    for (; done < n; done++) {
        empy_jarg *a = &ja[done];
        int r = empy_jarg_classify(k->kname, k->pnames[done], done, args[done], a);
        if (r > 0) {
            /* another library's device array: an ember view of it */
            PyObject *view = empy_asarray(st, args[done], -1, NULL, EMPY_COPY_NEVER, 'K');
            if (!view || (r = empy_jarg_classify(k->kname, k->pnames[done], done, view,
                                                 a)) != 0) {
                if (view && r > 0)
                    PyErr_Format(PyExc_TypeError, "kernel '%s' argument '%s': cannot "
                                 "use %.100s", k->kname, k->pnames[done],
                                 Py_TYPE(args[done])->tp_name);
                Py_XDECREF(view);
                goto out;
            }
            a->owned = view;
        }
        if (r < 0)
            goto out;
        key[done] = a->code;
        if (a->src == EMPY_JA_EMBER) {
            if (!dev) {
                dev = a->a->device;
                dev_arg = done;
            } else if (a->a->device != dev) {
                devices_error(k, dev_arg, dev, done, a->a->device);
                done++;
                goto out;
            }
        }
    }
    if (cfg->stream) {
        s = ((empy_Stream *)cfg->stream)->s;
        if (s && !dev) {
            dev = em_stream_device(s);
        } else if (s && em_stream_device(s) != dev) {
            PyErr_Format(PyExc_ValueError, "kernel '%s': the stream is on %s but '%s' "
                         "is on %s", k->kname, em_device_name(em_stream_device(s)),
                         k->pnames[dev_arg], em_device_name(dev));
            goto out;
        }
    }
    if (!dev || !cfg->stream) {
        if ((rc = em_current_device(&cur)) != EM_OK) {
            empy_raise(st, rc);
            goto out;
        }
        if (!dev)
            dev = cur;
        if (!cfg->stream && cur == dev)
            s = em_current_stream();
    }
    if (cfg->empty) {
        result = Py_NewRef(Py_None);
        goto out;
    }
    for (i = 0; i < n; i++) {
        if (ja[i].src == EMPY_JA_HOST || (ja[i].src == EMPY_JA_EMBER &&
                                          !EMPY_JCODE_C(ja[i].code))) {
            if (empy_jarg_prepare(st, &ja[i], dev, s) < 0)
                goto out;
            key[i] = ja[i].code;
            host_inplace |= ja[i].src == EMPY_JA_HOST && !ja[i].has_tmp;
        }
    }

    e = EMPY_LOAD_ACQUIRE(k->last);
    if (!e || !empy_jit_matches(e, dev, key, (int)n)) {
        e = empy_jit_find(k, dev, key);
        if (!e) {
            e = k->sigs ? empy_jit_explicit(st, k, dev, key)
                        : empy_jit_build(st, k, dev, key, key);
            if (!e)
                goto out;
        }
        EMPY_STORE_RELEASE(k->last, e);
    }

    if (e->nparams + 1 > PARAMS_STACK) {
        pbuf = PyMem_Malloc((size_t)(e->nparams + 1) * 16);
        argv = PyMem_Malloc(sizeof *argv * (size_t)(e->nparams + 1));
        if (!pbuf || !argv) {
            PyErr_NoMemory();
            goto out;
        }
    }
    for (i = 0; i < n; i++)
        if (empy_jarg_pack(k->kname, k->pnames[i], &ja[i], e->pcode[i], pbuf, &off, argv,
                           &np) < 0)
            goto out;

    if (e->grid_sync) {
        /* grid.sync(): every block must run at once */
        long long nb = (long long)cfg->grid.x * cfg->grid.y * cfg->grid.z;
        long long lim = em_grid_sync_max_blocks(dev, cfg->block, e->fn, cfg->shared);
        void *gp = e->grid_dev;
        if (nb > lim) {
            PyErr_Format(PyExc_ValueError, "kernel '%s' synchronises its grid "
                         "(cuda.cg.this_grid().sync()), so all its blocks must run at "
                         "once: %lld blocks of %u threads exceed the %lld that %s runs "
                         "together (see kernel.max_cooperative_grid_blocks(blockdim))",
                         k->kname, nb, cfg->block.x * cfg->block.y * cfg->block.z, lim,
                         em_device_name(dev));
            goto out;
        }
        if (!e->is_cpu && (rc = em_memset_async(dev, gp, 0, sizeof(unsigned int), s)) != EM_OK) {
            empy_raise(st, rc);
            goto out;
        }
        off = (off + 15) & ~(size_t)15;
        memcpy(pbuf + off, &gp, sizeof gp);
        grid_slot = np;
        argv[np++] = pbuf + off;
        off += sizeof gp;
    }

    /* cpu work on a created stream runs on its worker thread: reading the
     * record, or handing in-place NumPy memory back, waits for it. */
    cpu_async = e->is_cpu && s && s != em_stream_default(dev);
    read_rec = e->has_err && (!e->is_cpu || PyTuple_GET_SIZE(PyTuple_GET_ITEM(e->trans, 2)));
    if (e->has_err) {
        if (!e->is_cpu) {
            recp = e->err_dev;
            rc = em_memset_async(dev, recp, 0, sizeof rec, s);
            if (rc != EM_OK) {
                empy_raise(st, rc);
                goto out;
            }
        } else if (read_rec) {
            memset(rec, 0, sizeof rec);
            recp = rec;
        } else {
            recp = e->spare;   /* never written: the kernel has no checks */
        }
        memcpy(pbuf + off, &recp, sizeof recp);
        argv[np++] = pbuf + off;
    }

    if (e->is_cpu && e->grid_sync) {
        /* after the stream's earlier work, every block on a thread of its
         * own (src/runtime/gridsync.c), done when this returns */
        Py_BEGIN_ALLOW_THREADS
        rc = cpu_async ? em_stream_synchronize(s) : EM_OK;
        if (rc == EM_OK)
            rc = em_grid_sync_launch_cpu(e->fn, cfg->grid, cfg->block, cfg->shared,
                                   em_stream_default(dev), argv, np, grid_slot);
        Py_END_ALLOW_THREADS
    } else if (e->is_cpu) {
        Py_BEGIN_ALLOW_THREADS
        rc = em_launch(e->fn, cfg->grid, cfg->block, cfg->shared, s, argv);
        if (rc == EM_OK && cpu_async && (read_rec || host_inplace))
            rc = em_stream_synchronize(s);
        Py_END_ALLOW_THREADS
    } else {
        if (e->grid_sync) {
            rc = em_launch_cooperative(e->fn, cfg->grid, cfg->block, cfg->shared, s, argv);
            /* a driver without cooperative launches: the grid is within
             * what the device holds, so an ordinary launch keeps it resident */
            if (rc == EM_ERR_NOT_SUPPORTED)
                rc = em_launch(e->fn, cfg->grid, cfg->block, cfg->shared, s, argv);
        } else {
            rc = em_launch(e->fn, cfg->grid, cfg->block, cfg->shared, s, argv);
        }
        if (rc == EM_OK && read_rec) {
            Py_BEGIN_ALLOW_THREADS
            rc = em_stream_synchronize(s ? s : em_stream_default(dev));
            if (rc == EM_OK)
                rc = em_memcpy_async(dev, rec, e->err_dev, sizeof rec, s);
            Py_END_ALLOW_THREADS
        }
    }
    if (rc != EM_OK) {
        empy_raise(st, rc);
        goto out;
    }
    for (i = 0; i < n; i++)
        if (ja[i].writeback && empy_jarg_finish(st, &ja[i], s) < 0)
            goto out;
    if (read_rec && rec[0] != 0) {
        raise_bounds(k, e, rec);
        goto out;
    }
    result = Py_NewRef(Py_None);

out:
    for (i = 0; i < done; i++)
        empy_jarg_release(&ja[i], s);
    if (ja != ja_stack)
        PyMem_Free(ja);
    if (pbuf != pbuf_stack.b)
        PyMem_Free(pbuf);
    if (argv != argv_stack)
        PyMem_Free(argv);
    return result;
}

static PyObject *LaunchConfig_vectorcall(PyObject *self, PyObject *const *args,
                                         size_t nargsf, PyObject *kwnames)
{
    Py_ssize_t n = PyVectorcall_NARGS(nargsf);
    empy_Dispatcher *k = CFG(self)->disp;
    if (kwnames && PyTuple_GET_SIZE(kwnames)) {
        PyErr_Format(PyExc_TypeError, "kernel '%s' takes positional arguments only "
                     "(got keyword %R)", k->kname, PyTuple_GET_ITEM(kwnames, 0));
        return NULL;
    }
    if (n != k->nargs) {
        PyErr_Format(PyExc_TypeError, "kernel '%s' takes %d argument%s (%zd given)",
                     k->kname, k->nargs, k->nargs == 1 ? "" : "s", n);
        return NULL;
    }
    return launch(CFG(self), args, n);
}

/* ---- LaunchConfig -------------------------------------------------------------- */

static int cfg_traverse(PyObject *self, visitproc visit, void *arg)
{
    Py_VISIT(Py_TYPE(self));
    Py_VISIT(CFG(self)->disp);
    Py_VISIT(CFG(self)->stream);
    return 0;
}

static int cfg_clear(PyObject *self)
{
    Py_CLEAR(CFG(self)->disp);
    Py_CLEAR(CFG(self)->stream);
    return 0;
}

static void cfg_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    cfg_clear(self);
    tp->tp_free(self);
    Py_DECREF(tp);
}

static PyObject *dim_tuple(em_dim3 d)
{
    return Py_BuildValue("(III)", d.x, d.y, d.z);
}

static PyObject *cfg_griddim(PyObject *self, void *c) { return dim_tuple(CFG(self)->grid); }
static PyObject *cfg_blockdim(PyObject *self, void *c) { return dim_tuple(CFG(self)->block); }
static PyObject *cfg_sharedmem(PyObject *self, void *c)
{
    return PyLong_FromSize_t(CFG(self)->shared);
}
static PyObject *cfg_stream(PyObject *self, void *c)
{
    return Py_NewRef(CFG(self)->stream ? CFG(self)->stream : Py_None);
}
static PyObject *cfg_dispatcher(PyObject *self, void *c)
{
    return Py_NewRef((PyObject *)CFG(self)->disp);
}

static PyObject *cfg_repr(PyObject *self)
{
    empy_LaunchConfig *c = CFG(self);
    return PyUnicode_FromFormat("<ember.cuda.LaunchConfig of '%s': griddim (%u, %u, %u), "
                                "blockdim (%u, %u, %u), sharedmem %zu>", c->disp->kname,
                                c->grid.x, c->grid.y, c->grid.z, c->block.x, c->block.y,
                                c->block.z, c->shared);
}

static PyGetSetDef cfg_getset[] = {
    {"griddim", cfg_griddim, NULL, "The grid's (x, y, z) blocks.", NULL},
    {"blockdim", cfg_blockdim, NULL, "The block's (x, y, z) threads.", NULL},
    {"sharedmem", cfg_sharedmem, NULL, "Dynamic shared memory bytes per block.", NULL},
    {"stream", cfg_stream, NULL, "The stream (None: the current one).", NULL},
    {"dispatcher", cfg_dispatcher, NULL, "The kernel.", NULL},
    {NULL},
};

static PyMemberDef cfg_members[] = {
    EMPY_VECTORCALL_MEMBER(empy_LaunchConfig),
    {NULL},
};

static PyType_Slot cfg_slots[] = {
    EMPY_NOINIT_SLOT
    {Py_tp_call, PyVectorcall_Call},
    {Py_tp_dealloc, cfg_dealloc},
    {Py_tp_traverse, cfg_traverse},
    {Py_tp_clear, cfg_clear},
    {Py_tp_repr, cfg_repr},
    {Py_tp_getset, cfg_getset},
    {Py_tp_members, cfg_members},
    {Py_tp_doc, "A kernel with its launch configuration: kernel[griddim, blockdim, "
                "stream, sharedmem]. Calling it launches the kernel."},
    {0, NULL},
};

PyType_Spec empy_jit_config_spec = {
    "ember.cuda.LaunchConfig", sizeof(empy_LaunchConfig), 0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | EMPY_TPFLAGS_IMMUTABLE |
        EMPY_TPFLAGS_NOINIT | Py_TPFLAGS_HAVE_VECTORCALL,
    cfg_slots,
};

/* griddim or blockdim: ValueError unless 1 to 3 positive ints. */
static int dim_arg(PyObject *o, const char *what, em_dim3 *d)
{
    if (empy_parse_dim(o, what, d) < 0) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_ValueError, "%s must be a positive int or a tuple of 1 "
                         "to 3 positive ints, not %R", what, o);
        }
        return -1;
    }
    if (!d->x || !d->y || !d->z) {
        PyErr_Format(PyExc_ValueError, "%s must be positive in every dimension, got %R",
                     what, o);
        return -1;
    }
    return 0;
}

int empy_jit_stream_arg(empy_state *st, PyObject *o, PyObject **out)
{
    *out = NULL;
    if (!o || o == Py_None)
        return 0;
    if (PyLong_CheckExact(o) && PyLong_AsLong(o) == 0)
        return 0;
    PyErr_Clear();
    if (!Py_IS_TYPE(o, st->Stream)) {
        PyErr_Format(PyExc_TypeError, "stream must be an ember.Stream, 0 or None, not "
                     "%.100s", Py_TYPE(o)->tp_name);
        return -1;
    }
    *out = o;
    return 0;
}

int empy_jit_shared_arg(PyObject *o, size_t *out)
{
    long long v;
    *out = 0;
    if (!o || o == Py_None)
        return 0;
    if (!PyLong_Check(o) || PyBool_Check(o)) {
        PyErr_Format(PyExc_TypeError, "dynamic shared memory must be an int of bytes, "
                     "not %.100s", Py_TYPE(o)->tp_name);
        return -1;
    }
    v = PyLong_AsLongLong(o);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (v < 0) {
        PyErr_Format(PyExc_ValueError, "dynamic shared memory must be >= 0 bytes, got %lld",
                     v);
        return -1;
    }
    *out = (size_t)v;
    return 0;
}

/* The config for these values: one of the last few, else a new one. */
PyObject *empy_jit_get_config(empy_Dispatcher *k, em_dim3 g, em_dim3 b, PyObject *stream,
                            size_t shared, int empty)
{
    empy_state *st = empy_state_of((PyObject *)k);
    empy_LaunchConfig *c;
    int i;
    EMPY_JIT_LOCK(k);
    for (i = 0; i < EMPY_JIT_CONFIGS; i++) {
        c = (empy_LaunchConfig *)k->configs[i];
        if (c && c->grid.x == g.x && c->grid.y == g.y && c->grid.z == g.z &&
            c->block.x == b.x && c->block.y == b.y && c->block.z == b.z &&
            c->stream == stream && c->shared == shared && c->empty == empty) {
            Py_INCREF(c);
            EMPY_JIT_UNLOCK(k);
            return (PyObject *)c;
        }
    }
    EMPY_JIT_UNLOCK(k);
    c = PyObject_GC_New(empy_LaunchConfig, st->LaunchConfig);
    if (!c)
        return NULL;
    c->vectorcall = LaunchConfig_vectorcall;
    c->disp = (empy_Dispatcher *)Py_NewRef((PyObject *)k);
    c->grid = g;
    c->block = b;
    c->stream = stream ? Py_NewRef(stream) : NULL;
    c->shared = shared;
    c->empty = empty;
    PyObject_GC_Track(c);
    EMPY_JIT_LOCK(k);
    i = k->next_config;
    k->next_config = (i + 1) % EMPY_JIT_CONFIGS;
    Py_XSETREF(k->configs[i], Py_NewRef((PyObject *)c));
    EMPY_JIT_UNLOCK(k);
    return (PyObject *)c;
}

/* The config of items (griddim, blockdim[, stream[, sharedmem]]). */
static PyObject *config_of(PyObject *self, PyObject *const *items, Py_ssize_t n, int empty)
{
    empy_state *st = empy_state_of(self);
    PyObject *stream;
    em_dim3 g, b;
    size_t shared;
    if (dim_arg(items[0], "griddim", &g) < 0 || dim_arg(items[1], "blockdim", &b) < 0 ||
        empy_jit_stream_arg(st, n > 2 ? items[2] : NULL, &stream) < 0 ||
        empy_jit_shared_arg(n > 3 ? items[3] : NULL, &shared) < 0)
        return NULL;
    return empy_jit_get_config(DISP(self), g, b, stream, shared, empty);
}

PyObject *empy_jit_subscript(PyObject *self, PyObject *key)
{
    Py_ssize_t n = PyTuple_Check(key) ? PyTuple_GET_SIZE(key) : 0;
    if (n < 2 || n > 4) {
        PyErr_Format(PyExc_ValueError, "kernel '%s' is launched as k[griddim, blockdim] "
                     "or k[griddim, blockdim, stream, sharedmem], got k[%R]",
                     DISP(self)->kname, key);
        return NULL;
    }
    return config_of(self, &PyTuple_GET_ITEM(key, 0), n, 0);
}

PyObject *empy_jit_config_method(PyObject *self, PyObject *const *args, Py_ssize_t n)
{
    int empty;
    if (n != 5)
        return PyErr_Format(PyExc_TypeError, "_config takes 5 arguments");
    if ((empty = PyObject_IsTrue(args[4])) < 0)
        return NULL;
    return config_of(self, args, 4, empty);
}
