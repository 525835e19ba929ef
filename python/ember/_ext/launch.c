/* ember Python extension: kernel launches from Python, the extension's hot
 * path (RawKernel and Function calls land here).
 *
 * A call converts each Python argument straight into the bytes of its
 * parameter, in a stack buffer, and calls em_launch: no temporary Python
 * objects, no string lookups, exact types tested before any protocol.
 * Parameter sizes come from the loaded code (em_function_param_size), so a
 * Python int or float becomes exactly what the kernel declared. */
#include <string.h>
#include "module.h"
#include "errors.h"

#define PACK_STACK 1024     /* bytes of arguments held on the stack */
#define ARGS_STACK 32       /* arguments held on the stack */
#define PEND_STACK 4        /* In/Out/InOut arguments held on the stack */

empy_kslot *empy_kslot_new(em_device *d, em_function *f)
{
    int n = em_function_param_count(f), i;
    size_t nn = n > 0 ? (size_t)n : 0;
    empy_kslot *s = PyMem_RawMalloc(sizeof *s + nn * sizeof(size_t));
    if (!s) {
        PyErr_NoMemory();
        return NULL;
    }
    s->dev = d;
    s->fn = f;
    s->name = em_function_name(f);
    s->n_params = n;
    s->is_cpu = em_device_get_type(d) == EM_DEVICE_CPU;
    s->next = NULL;
    s->pack_bytes = 0;
    for (i = 0; i < n; i++) {
        size_t sz = em_function_param_size(f, i);
        s->sizes[i] = sz == (size_t)-1 ? 0 : sz;   /* 0: unknown */
        s->pack_bytes += (s->sizes[i] + 15) & ~(size_t)15;
    }
    return s;
}

/* ---- parsing k(grid, block, args, shared_mem=0, stream=None) ---------- */

static int parse_extent(PyObject *o, const char *what, int i, unsigned *out)
{
    long long v;
    if (PyLong_CheckExact(o)) {
        v = PyLong_AsLongLong(o);
    } else if (!PyBool_Check(o) && PyIndex_Check(o)) {
        PyObject *n = PyNumber_Index(o);
        if (!n)
            return -1;
        v = PyLong_AsLongLong(n);
        Py_DECREF(n);
    } else {
        PyErr_Format(PyExc_TypeError, "%s must be an int or a tuple of 1 to 3 ints, "
                     "not %.100s", what, Py_TYPE(o)->tp_name);
        return -1;
    }
    if (v == -1 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError))
            return -1;
        PyErr_Clear();
        v = -1;
    }
    if (v < 0 || v > 0xffffffffLL) {
        if (i < 0)
            PyErr_Format(PyExc_ValueError, "%s must be between 1 and 2**32-1, got %S",
                         what, o);
        else
            PyErr_Format(PyExc_ValueError, "%s[%d] must be between 1 and 2**32-1, got %S",
                         what, i, o);
        return -1;
    }
    *out = (unsigned)v;
    return 0;
}

static int parse_dim(PyObject *o, const char *what, em_dim3 *d)
{
    Py_ssize_t n, i;
    PyObject *const *items;
    unsigned *dst[3] = {&d->x, &d->y, &d->z};

    d->x = d->y = d->z = 1;
    if (PyLong_CheckExact(o))
        return parse_extent(o, what, -1, &d->x);
    if (PyTuple_CheckExact(o))
        items = &PyTuple_GET_ITEM(o, 0);
    else if (PyList_CheckExact(o))
        items = PySequence_Fast_ITEMS(o);
    else
        return parse_extent(o, what, -1, &d->x);   /* int-likes or the TypeError */
    n = Py_SIZE(o);
    if (n < 1 || n > 3) {
        PyErr_Format(PyExc_ValueError, "%s must have 1 to 3 dimensions, got %zd", what, n);
        return -1;
    }
    for (i = 0; i < n; i++)
        if (parse_extent(items[i], what, (int)i, dst[i]) < 0)
            return -1;
    return 0;
}

static int kw_is(PyObject *k, PyObject *interned)
{
    return k == interned || (PyUnicode_Check(k) && PyUnicode_Compare(k, interned) == 0);
}

int empy_parse_launch(empy_state *st, const char *kname, PyObject *const *args,
                      size_t nargsf, PyObject *kwnames, empy_launch_call *lc)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf), nkw, i;
    PyObject *shared = NULL;

    lc->stream = NULL;
    lc->shared = 0;
    if (nargs > 5 || nargs < 3) {
        PyErr_Format(PyExc_TypeError,
                     "kernel '%s' is called as k(grid, block, args, shared_mem=0, "
                     "stream=None) (%zd positional arguments given)", kname, nargs);
        return -1;
    }
    if (nargs > 3)
        shared = args[3];
    if (nargs > 4)
        lc->stream = args[4];
    nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (i = 0; i < nkw; i++) {
        PyObject *k = PyTuple_GET_ITEM(kwnames, i);
        PyObject **slot;
        if (kw_is(k, st->s_stream))
            slot = &lc->stream;
        else if (kw_is(k, st->s_shared_mem))
            slot = &shared;
        else {
            PyErr_Format(PyExc_TypeError, "kernel '%s' got an unexpected keyword "
                         "argument %R", kname, k);
            return -1;
        }
        if (*slot) {
            PyErr_Format(PyExc_TypeError, "kernel '%s' got multiple values for %R",
                         kname, k);
            return -1;
        }
        *slot = args[nargs + i];
    }
    if (parse_dim(args[0], "grid", &lc->grid) < 0 ||
        parse_dim(args[1], "block", &lc->block) < 0)
        return -1;
    lc->args = args[2];
    if (shared && shared != Py_None) {
        if (!PyLong_Check(shared) || PyBool_Check(shared)) {
            PyErr_Format(PyExc_TypeError, "shared_mem must be an int, not %.100s",
                         Py_TYPE(shared)->tp_name);
            return -1;
        }
        long long v = PyLong_AsLongLong(shared);
        if (v == -1 && PyErr_Occurred())
            return -1;
        if (v < 0) {
            PyErr_Format(PyExc_ValueError, "shared_mem must be >= 0, got %S", shared);
            return -1;
        }
        lc->shared = (size_t)v;
    }
    return 0;
}

/* ---- packing ------------------------------------------------------- */

typedef struct {
    PyObject *obj;      /* the wrapper (borrowed from the args tuple) */
    Py_buffer view;
    void *dptr;
    int dir;
} pending;

typedef struct {
    empy_state *st;
    const empy_kslot *slot;
    em_device *dev;
    em_stream *stream;
    char *buf;
    size_t cap, used;
    int buf_heap;
    pending *pend;
    int npend, cap_pend, pend_heap;
} pack_ctx;

/* Room for one value of sz bytes at its natural alignment; the offset, or
 * -1 with MemoryError. Offsets, not pointers: the buffer may move. */
static Py_ssize_t reserve(pack_ctx *c, size_t sz)
{
    size_t align = sz >= 16 ? 16 : sz >= 8 ? 8 : sz >= 4 ? 4 : sz >= 2 ? 2 : 1;
    size_t off = (c->used + align - 1) & ~(align - 1);
    if (off + sz > c->cap) {
        size_t ncap = (off + sz) * 2;
        char *nb = PyMem_Malloc(ncap);
        if (!nb) {
            PyErr_NoMemory();
            return -1;
        }
        memcpy(nb, c->buf, c->used);
        if (c->buf_heap)
            PyMem_Free(c->buf);
        c->buf = nb;
        c->cap = ncap;
        c->buf_heap = 1;
    }
    c->used = off + sz;
    return (Py_ssize_t)off;
}

static Py_ssize_t put_bytes(pack_ctx *c, const void *p, size_t sz)
{
    Py_ssize_t off = reserve(c, sz);
    if (off >= 0)
        memcpy(c->buf + off, p, sz);
    return off;
}

static Py_ssize_t put_pointer(pack_ctx *c, int i, const void *p, size_t want)
{
    if (want && want != sizeof(void *)) {
        PyErr_Format(PyExc_TypeError,
                     "kernel '%s' args[%d]: a pointer was given but the parameter "
                     "is %zu bytes", c->slot->name, i, want);
        return -1;
    }
    return put_bytes(c, &p, sizeof p);
}

static Py_ssize_t put_int(pack_ctx *c, int i, PyObject *o, size_t want)
{
    int ovf = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &ovf);
    long long lo, hi;

    if (v == -1 && !ovf && PyErr_Occurred())
        return -1;
    switch (want) {
    case 0:
    case 8: lo = INT64_MIN; hi = INT64_MAX; want = 8; break;
    case 4: lo = INT32_MIN; hi = INT32_MAX; break;
    case 2: lo = INT16_MIN; hi = INT16_MAX; break;
    case 1: lo = INT8_MIN; hi = INT8_MAX; break;
    default:
        PyErr_Format(PyExc_TypeError,
                     "kernel '%s' args[%d]: an int was given but the parameter is "
                     "%zu bytes (pass a NumPy scalar of that size)",
                     c->slot->name, i, want);
        return -1;
    }
    if (ovf || v < lo || v > hi) {
        PyErr_Format(PyExc_OverflowError,
                     "kernel '%s' args[%d]: %S does not fit the %zu-byte signed "
                     "integer parameter", c->slot->name, i, o, want);
        return -1;
    }
    switch (want) {
    case 8: { int64_t x = v; return put_bytes(c, &x, 8); }
    case 4: { int32_t x = (int32_t)v; return put_bytes(c, &x, 4); }
    case 2: { int16_t x = (int16_t)v; return put_bytes(c, &x, 2); }
    default: { int8_t x = (int8_t)v; return put_bytes(c, &x, 1); }
    }
}

static Py_ssize_t put_float(pack_ctx *c, int i, double v, size_t want)
{
    switch (want) {
    case 0:
    case 8: return put_bytes(c, &v, 8);
    case 4: { float f = (float)v; return put_bytes(c, &f, 4); }
#if PY_VERSION_HEX >= 0x030B0000
    case 2: {
        unsigned char h[2];
        if (PyFloat_Pack2(v, (char *)h, 1) < 0)
            return -1;
        return put_bytes(c, h, 2);
    }
#endif
    default:
        PyErr_Format(PyExc_TypeError,
                     "kernel '%s' args[%d]: a float was given but the parameter is "
                     "%zu bytes", c->slot->name, i, want);
        return -1;
    }
}

static Py_ssize_t put_complex(pack_ctx *c, int i, Py_complex z, size_t want)
{
    if (want == 8) {
        float f[2] = {(float)z.real, (float)z.imag};
        return put_bytes(c, f, sizeof f);
    }
    if (want == 16 || want == 0) {
        double d[2] = {z.real, z.imag};
        return put_bytes(c, d, sizeof d);
    }
    PyErr_Format(PyExc_TypeError,
                 "kernel '%s' args[%d]: a complex was given but the parameter is "
                 "%zu bytes", c->slot->name, i, want);
    return -1;
}

static Py_ssize_t put_buffer_arg(pack_ctx *c, int i, const empy_Buffer *b, size_t want)
{
    if (b->dev != c->dev &&
        (em_device_get_type(b->dev) != EM_DEVICE_CUDA ||
         em_device_get_type(c->dev) != EM_DEVICE_CUDA)) {
        /* cuda:N memory is reachable from another GPU (peer access), but
         * never across cpu and cuda. */
        PyErr_Format(PyExc_TypeError,
                     "kernel '%s' args[%d]: the Buffer is on %s but the kernel runs "
                     "on %s", c->slot->name, i, em_device_name(b->dev),
                     em_device_name(c->dev));
        return -1;
    }
    return put_pointer(c, i, b->ptr, want);
}

/* An In/Out/InOut: device memory of the array's size, filled now for In. */
static Py_ssize_t put_wrapper(pack_ctx *c, int i, PyObject *o, size_t want)
{
    empy_Wrapper *w = (empy_Wrapper *)o;
    pending *p;
    em_status rc = EM_OK;
    int flags = PyBUF_ANY_CONTIGUOUS | ((w->dir & EMPY_DIR_OUT) ? PyBUF_WRITABLE : 0);

    if (want && want != sizeof(void *)) {
        PyErr_Format(PyExc_TypeError,
                     "kernel '%s' args[%d]: %s() passes a pointer but the parameter "
                     "is %zu bytes", c->slot->name, i, Py_TYPE(o)->tp_name, want);
        return -1;
    }
    if (c->npend == c->cap_pend) {
        int ncap = c->cap_pend * 2;
        pending *np = PyMem_Malloc(sizeof *np * (size_t)ncap);
        if (!np) {
            PyErr_NoMemory();
            return -1;
        }
        memcpy(np, c->pend, sizeof *np * (size_t)c->npend);
        if (c->pend_heap)
            PyMem_Free(c->pend);
        c->pend = np;
        c->cap_pend = ncap;
        c->pend_heap = 1;
    }
    p = &c->pend[c->npend];
    if (PyObject_GetBuffer(w->array, &p->view, flags) < 0) {
        PyErr_Format(PyExc_TypeError,
                     "kernel '%s' args[%d]: %s() needs a contiguous%s host array",
                     c->slot->name, i, Py_TYPE(o)->tp_name,
                     (w->dir & EMPY_DIR_OUT) ? ", writable" : "");
        return -1;
    }
    p->obj = o;
    p->dir = w->dir;
    rc = em_malloc(c->dev, (size_t)p->view.len, c->stream, &p->dptr);
    if (rc != EM_OK) {
        PyBuffer_Release(&p->view);
        empy_raise(c->st, rc);
        return -1;
    }
    c->npend++;   /* from here on the cleanup owns view and dptr */
    if (w->dir & EMPY_DIR_IN) {
        Py_BEGIN_ALLOW_THREADS
        rc = em_memcpy_async(c->dev, p->dptr, p->view.buf, (size_t)p->view.len, c->stream);
        Py_END_ALLOW_THREADS
        if (rc != EM_OK) {
            empy_raise(c->st, rc);
            return -1;
        }
    }
    return put_pointer(c, i, p->dptr, want);
}

/* An object with __cuda_array_interface__ (CuPy, PyTorch, Numba): its data
 * pointer. 0 if it has none (no exception), 1 done, -1 error. */
static int put_cai(pack_ctx *c, int i, PyObject *o, size_t want, Py_ssize_t *off)
{
    PyObject *cai = PyObject_GetAttr(o, c->st->s_cai), *data, *ptr;
    void *p;

    if (!cai) {
        if (!PyErr_ExceptionMatches(PyExc_AttributeError))
            return -1;
        PyErr_Clear();
        return 0;
    }
    data = PyDict_Check(cai) ? PyDict_GetItemWithError(cai, c->st->s_data) : NULL;
    if (!data || !PyTuple_Check(data) || PyTuple_GET_SIZE(data) < 1 ||
        !PyLong_Check(ptr = PyTuple_GET_ITEM(data, 0))) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_TypeError,
                         "kernel '%s' args[%d]: %.100s has a malformed "
                         "__cuda_array_interface__ (no data pointer)",
                         c->slot->name, i, Py_TYPE(o)->tp_name);
        Py_DECREF(cai);
        return -1;
    }
    p = PyLong_AsVoidPtr(ptr);
    Py_DECREF(cai);
    if (!p && PyErr_Occurred())
        return -1;
    if (c->slot->is_cpu) {
        PyErr_Format(PyExc_TypeError,
                     "kernel '%s' args[%d]: %.100s is CUDA device memory "
                     "(__cuda_array_interface__) but the kernel runs on %s",
                     c->slot->name, i, Py_TYPE(o)->tp_name, em_device_name(c->dev));
        return -1;
    }
    *off = put_pointer(c, i, p, want);
    return *off < 0 ? -1 : 1;
}

/* Remember a type whose objects had __cuda_array_interface__, so the next
 * one goes straight to it: CuPy arrays also have a buffer slot that raises,
 * and an exception per argument would cost more than the launch. */
static void note_cai_type(empy_state *st, PyTypeObject *t)
{
#ifndef Py_GIL_DISABLED
    PyObject *old = st->cai_types[st->cai_next];
    st->cai_types[st->cai_next] = Py_NewRef((PyObject *)t);
    st->cai_next ^= 1;
    Py_XDECREF(old);
#else
    (void)st;
    (void)t;
#endif
}

static Py_ssize_t put_arg(pack_ctx *c, int i, PyObject *o)
{
    empy_state *st = c->st;
    PyTypeObject *t = Py_TYPE(o);
    size_t want = c->slot->n_params >= 0 ? c->slot->sizes[i] : 0;
    Py_ssize_t off;
    int r;

    /* the common cases, by exact type */
    if (t == st->Buffer)
        return put_buffer_arg(c, i, (empy_Buffer *)o, want);
    if (t == &PyLong_Type || t == &PyBool_Type)
        return put_int(c, i, o, want ? want : (t == &PyBool_Type ? 1 : 8));
    if (t == &PyFloat_Type)
        return put_float(c, i, PyFloat_AS_DOUBLE(o), want);
    if (t == st->PinnedMemory)
        return put_pointer(c, i, ((empy_PinnedMemory *)o)->ptr, want);
    if (t == st->In || t == st->Out || t == st->InOut)
        return put_wrapper(c, i, o, want);

    if ((PyObject *)t == st->cai_types[0] || (PyObject *)t == st->cai_types[1]) {
        r = put_cai(c, i, o, want, &off);
        if (r)
            return r < 0 ? -1 : off;
    }

    /* NumPy scalars (0-d buffers) carry their own size */
    if (PyObject_CheckBuffer(o)) {
        Py_buffer v;
        int ndim;
        if (PyObject_GetBuffer(o, &v, PyBUF_RECORDS_RO) < 0) {
            /* CuPy arrays have a buffer slot that always refuses: device
             * memory is reached through __cuda_array_interface__. */
            empy_saved_error err;
            empy_error_save(&err);
            r = put_cai(c, i, o, want, &off);
            if (r) {
                empy_error_drop(&err);
                if (r > 0)
                    note_cai_type(st, t);
                return r < 0 ? -1 : off;
            }
            empy_error_restore(&err);
            return -1;
        }
        ndim = v.ndim;
        if (ndim == 0) {
            if (want && (size_t)v.len != want) {
                PyErr_Format(PyExc_TypeError,
                             "kernel '%s' args[%d]: %.100s is %zd bytes but the "
                             "parameter is %zu bytes", c->slot->name, i, t->tp_name,
                             v.len, want);
                PyBuffer_Release(&v);
                return -1;
            }
            off = put_bytes(c, v.buf, (size_t)v.len);
            PyBuffer_Release(&v);
            return off;
        }
        PyBuffer_Release(&v);
        r = put_cai(c, i, o, want, &off);
        if (r)
            return r < 0 ? -1 : off;
        PyErr_Format(PyExc_TypeError,
                     "kernel '%s' args[%d]: a host array (%.100s) cannot be passed "
                     "directly; wrap it as ember.In(a), ember.Out(a) or "
                     "ember.InOut(a), or copy it into an ember.Buffer",
                     c->slot->name, i, t->tp_name);
        return -1;
    }
    if (PyComplex_Check(o))
        return put_complex(c, i, PyComplex_AsCComplex(o), want);
    if (PyLong_Check(o))
        return put_int(c, i, o, want);
    if (PyFloat_Check(o))
        return put_float(c, i, PyFloat_AS_DOUBLE(o), want);
    r = put_cai(c, i, o, want, &off);
    if (r > 0)
        note_cai_type(st, t);
    if (r)
        return r < 0 ? -1 : off;
    if (PyIndex_Check(o)) {
        PyObject *n = PyNumber_Index(o);
        if (!n)
            return -1;
        off = put_int(c, i, n, want);
        Py_DECREF(n);
        return off;
    }
    PyErr_Format(PyExc_TypeError,
                 "kernel '%s' args[%d]: cannot pass %.100s (expected an ember.Buffer, "
                 "an array with __cuda_array_interface__, ember.In/Out/InOut, an int, "
                 "a float or a NumPy scalar)", c->slot->name, i, t->tp_name);
    return -1;
}

/* Copy Out/InOut arrays back after a successful launch, then wait, so the
 * host arrays hold the results and the device memory can go. */
static em_status finish_pending(pack_ctx *c)
{
    em_status rc = EM_OK;
    int i;
    Py_BEGIN_ALLOW_THREADS
    for (i = 0; i < c->npend && rc == EM_OK; i++) {
        pending *p = &c->pend[i];
        if (p->dir & EMPY_DIR_OUT)
            rc = em_memcpy_async(c->dev, p->view.buf, p->dptr, (size_t)p->view.len,
                                 c->stream);
    }
    /* Also for In alone: the copy-in may read the array until the stream
     * gets there, and the array is only ours for this call. */
    if (rc == EM_OK)
        rc = em_stream_synchronize(c->stream ? c->stream : em_stream_default(c->dev));
    Py_END_ALLOW_THREADS
    return rc;
}

static void release_pending(pack_ctx *c)
{
    int i;
    for (i = 0; i < c->npend; i++) {
        (void)em_free(c->dev, c->pend[i].dptr, c->stream);
        PyBuffer_Release(&c->pend[i].view);
    }
    c->npend = 0;
}

PyObject *empy_launch(empy_state *st, empy_kslot *slot, const empy_launch_call *lc,
                      em_stream *stream)
{
    union { max_align_t a; char b[PACK_STACK]; } stack_buf;
    Py_ssize_t offs_stack[ARGS_STACK], *offs = offs_stack;
    void *argv_stack[ARGS_STACK], **argv = argv_stack;
    pending pend_stack[PEND_STACK];
    PyObject *seq = lc->args, *tmp = NULL, *result = NULL;
    PyObject *const *items;
    Py_ssize_t n, i;
    pack_ctx c;
    em_status rc;

    if (PyTuple_CheckExact(seq)) {
        items = &PyTuple_GET_ITEM(seq, 0);
    } else if (PyList_Check(seq) || PyTuple_Check(seq)) {
        /* A list could change under us while arguments convert. */
        tmp = PySequence_Tuple(seq);
        if (!tmp)
            return NULL;
        items = &PyTuple_GET_ITEM(tmp, 0);
        seq = tmp;
    } else {
        PyErr_Format(PyExc_TypeError,
                     "kernel '%s': args must be a tuple or list, not %.100s",
                     slot->name, Py_TYPE(seq)->tp_name);
        return NULL;
    }
    n = PyTuple_GET_SIZE(seq);
    if (slot->n_params >= 0 && n != slot->n_params) {
        PyErr_Format(PyExc_TypeError, "kernel '%s' takes %d argument%s (%zd given)",
                     slot->name, slot->n_params, slot->n_params == 1 ? "" : "s", n);
        Py_XDECREF(tmp);
        return NULL;
    }

    c.st = st;
    c.slot = slot;
    c.dev = slot->dev;
    c.stream = stream;
    c.buf = stack_buf.b;
    c.cap = sizeof stack_buf.b;
    c.used = 0;
    c.buf_heap = 0;
    c.pend = pend_stack;
    c.npend = 0;
    c.cap_pend = PEND_STACK;
    c.pend_heap = 0;
    if (n > ARGS_STACK) {
        offs = PyMem_Malloc(sizeof *offs * (size_t)n);
        argv = PyMem_Malloc(sizeof *argv * (size_t)n);
        if (!offs || !argv) {
            PyErr_NoMemory();
            goto done;
        }
    }

    for (i = 0; i < n; i++) {
        offs[i] = put_arg(&c, (int)i, items[i]);
        if (offs[i] < 0)
            goto done;
    }
    for (i = 0; i < n; i++)
        argv[i] = c.buf + offs[i];

    if (slot->is_cpu) {
        /* the host backend may run the kernel before returning */
        Py_BEGIN_ALLOW_THREADS
        rc = em_launch(slot->fn, lc->grid, lc->block, lc->shared, stream, argv);
        Py_END_ALLOW_THREADS
    } else {
        rc = em_launch(slot->fn, lc->grid, lc->block, lc->shared, stream, argv);
    }
    if (rc == EM_OK && c.npend)
        rc = finish_pending(&c);
    if (rc != EM_OK) {
        empy_raise(st, rc);
        goto done;
    }
    result = Py_NewRef(Py_None);

done:
    if (c.npend)
        release_pending(&c);
    if (c.pend_heap)
        PyMem_Free(c.pend);
    if (c.buf_heap)
        PyMem_Free(c.buf);
    if (offs != offs_stack)
        PyMem_Free(offs);
    if (argv != argv_stack)
        PyMem_Free(argv);
    Py_XDECREF(tmp);
    return result;
}
