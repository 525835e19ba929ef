/* ember Python extension: kernel launches from Python, the extension's hot
 * path (RawKernel and Function calls land here).
 *
 * A call converts each Python argument straight into the bytes of its
 * parameter, in a stack buffer, and calls em_launch: no temporary Python
 * objects, no string lookups, exact types tested before any protocol.
 * Parameter sizes come from the loaded code (em_function_param_size), so a
 * Python int or float becomes exactly what the kernel declared.
 *
 * Where the source says what a parameter is (em_function_param_kind: the
 * kernel cache's modules), that decides what it accepts, before anything
 * reaches the device: a float for a pointer would make the kernel
 * dereference garbage (a crash on cpu, a context lost on the GPU), and an
 * int's bits in a float parameter would be a silently wrong answer. Code
 * without source (RawModule(ptx=...)) keeps the rules by size alone. The
 * kinds are read from an array per call; messages, with the parameter's C
 * declaration, are built only when an argument is refused. */
#include <stdarg.h>
#include <string.h>
#include "runtime/module.h"
#include "runtime/errors.h"
#include "array/ndarray.h"
#include "kernels/launch.h"
#include "runtime/args.h"

#define PACK_STACK 1024     /* bytes of arguments held on the stack */
#define ARGS_STACK 32       /* arguments held on the stack */
#define PEND_STACK 4        /* In/Out/InOut arguments held on the stack */

empy_kslot *empy_kslot_new(em_device *d, em_function *f)
{
    int n = em_function_param_count(f), i;
    size_t nn = n > 0 ? (size_t)n : 0;
    empy_kslot *s = PyMem_RawMalloc(sizeof *s + nn * sizeof(empy_kparam));
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
        s->params[i].size = sz == (size_t)-1 ? 0 : sz;   /* 0: unknown */
        s->params[i].kind = (int)em_function_param_kind(f, i);
        s->pack_bytes += (s->params[i].size + 15) & ~(size_t)15;
    }
    return s;
}

const char *empy_param_kind_name(int k)
{
    static const char *const names[] = {
        [EM_PARAM_POINTER] = "pointer", [EM_PARAM_INT] = "int", [EM_PARAM_UINT] = "uint",
        [EM_PARAM_FLOAT] = "float", [EM_PARAM_BOOL] = "bool", [EM_PARAM_OTHER] = "other",
    };
    return k > 0 && k <= EM_PARAM_OTHER ? names[k] : NULL;
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

int empy_parse_dim(PyObject *o, const char *what, em_dim3 *d)
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
    /* grid, block, args, shared_mem, stream: by position or by CuPy's
     * keywords (kern(grid, block, args=(...), shared_mem=0, stream=s));
     * cluster and cooperative (cuda.core's LaunchConfig) by keyword only. */
    static const char *const names[7] = {"grid", "block", "args", "shared_mem",
                                         "stream", "cluster", "cooperative"};
    PyObject *given[7] = {NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    PyObject *shared;

    lc->stream = NULL;
    lc->shared = 0;
    lc->cluster.x = lc->cluster.y = lc->cluster.z = 1;
    lc->cooperative = 0;
    if (nargs > 5) {
        PyErr_Format(PyExc_TypeError,
                     "kernel '%s' is called as k(grid, block, args, shared_mem=0, "
                     "stream=None) (%zd positional arguments given)", kname, nargs);
        return -1;
    }
    for (i = 0; i < nargs; i++)
        given[i] = args[i];
    nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (i = 0; i < nkw; i++) {
        PyObject *k = PyTuple_GET_ITEM(kwnames, i);
        int w;
        if (kw_is(k, st->s_stream))
            w = 4;
        else if (kw_is(k, st->s_shared_mem))
            w = 3;
        else {
            for (w = 0; w < 7; w++)
                if ((w < 3 || w > 4) && PyUnicode_Check(k) &&
                    PyUnicode_CompareWithASCIIString(k, names[w]) == 0)
                    break;
            if (w == 7) {
                PyErr_Format(PyExc_TypeError, "kernel '%s' got an unexpected keyword "
                             "argument %R", kname, k);
                return -1;
            }
        }
        if (given[w]) {
            PyErr_Format(PyExc_TypeError, "kernel '%s' got multiple values for %R",
                         kname, k);
            return -1;
        }
        given[w] = args[nargs + i];
    }
    for (i = 0; i < 3; i++)
        if (!given[i]) {
            PyErr_Format(PyExc_TypeError,
                         "kernel '%s' is called as k(grid, block, args, shared_mem=0, "
                         "stream=None): '%s' is missing", kname, names[i]);
            return -1;
        }
    shared = given[3];
    lc->stream = given[4];
    if (empy_parse_dim(given[0], "grid", &lc->grid) < 0 ||
        empy_parse_dim(given[1], "block", &lc->block) < 0)
        return -1;
    lc->args = given[2];
    if (given[5] && given[5] != Py_None &&
        empy_parse_dim(given[5], "cluster", &lc->cluster) < 0)
        return -1;
    if (given[6]) {
        int on = PyObject_IsTrue(given[6]);
        if (on < 0)
            return -1;
        lc->cooperative = on;
    }
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

/* " (const float *x)": parameter i's declaration for messages, or "" when
 * the source's signature is unknown. */
static const char *param_decl(const pack_ctx *c, int i, char *buf, size_t n)
{
    const char *type = em_function_param_type(c->slot->fn, i);
    const char *name = em_function_param_name(c->slot->fn, i);
    size_t tl;
    if (!type) {
        buf[0] = 0;
        return buf;
    }
    if (!name)
        name = "";
    tl = strlen(type);
    snprintf(buf, n, " (%s%s%s)", type, *name && tl && type[tl - 1] != '*' ? " " : "",
             name);
    return buf;
}

/* Raise launch_errors.py's message `which` for argument i, with the
 * values fmt builds (a Py_BuildValue tuple): a launch that fails is cold,
 * so the wording is Python. -1. */
static Py_ssize_t arg_error(pack_ctx *c, int i, const char *which, const char *fmt, ...)
{
    static const empy_pyattr w = {"ember._api.launch_errors", "arg_error"};
    char decl[160];
    PyObject *kname, *vals, *all = NULL;
    va_list ap;
    PyErr_Clear();      /* a conversion's own error gives way to the message */
    kname = PyUnicode_FromString(c->slot->name);
    va_start(ap, fmt);
    vals = Py_VaBuildValue(fmt, ap);
    va_end(ap);
    if (kname && vals &&
        (all = Py_BuildValue("(sisO)", which, i, param_decl(c, i, decl, sizeof decl), vals)))
        Py_XDECREF(empy_py_method_tuple(&w, kname, all, NULL));
    Py_XDECREF(kname);
    Py_XDECREF(vals);
    Py_XDECREF(all);
    return -1;
}

static Py_ssize_t put_pointer(pack_ctx *c, int i, const void *p, size_t want)
{
    if (want && want != sizeof(void *)) {
        return arg_error(c, i, "ptr_size", "(n)", (Py_ssize_t)want);
    }
    return put_bytes(c, &p, sizeof p);
}

/* A Python int (or the result of __index__) into a want-byte integer,
 * range-checked as signed or unsigned. */
static Py_ssize_t put_int(pack_ctx *c, int i, PyObject *o, size_t want, int is_unsigned)
{
    int ovf = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &ovf);
    unsigned long long u = 0;
    int fits;

    if (v == -1 && !ovf && PyErr_Occurred())
        return -1;
    if (want == 0)
        want = 8;
    if (want != 1 && want != 2 && want != 4 && want != 8) {
        return arg_error(c, i, "int_size", "(n)", (Py_ssize_t)want);
    }
    if (is_unsigned) {
        if (ovf > 0) {
            u = PyLong_AsUnsignedLongLong(o);
            fits = !(u == (unsigned long long)-1 && PyErr_Occurred());
            if (!fits)
                PyErr_Clear();
        } else {
            u = (unsigned long long)v;
            fits = !ovf && v >= 0;
        }
        fits = fits && (want == 8 || u < 1ull << (8 * want));
    } else {
        long long lim = want == 8 ? 0 : 1ll << (8 * want - 1);
        fits = !ovf && (want == 8 || (v >= -lim && v < lim));
        u = (unsigned long long)v;
    }
    if (!fits)
        return arg_error(c, i, "int_range", "(Ons)", o, (Py_ssize_t)want,
                         is_unsigned ? "unsigned" : "signed");
    /* Two's complement: the low bytes of u are the value at either sign. */
    switch (want) {
    case 8: { uint64_t x = u; return put_bytes(c, &x, 8); }
    case 4: { uint32_t x = (uint32_t)u; return put_bytes(c, &x, 4); }
    case 2: { uint16_t x = (uint16_t)u; return put_bytes(c, &x, 2); }
    default: { uint8_t x = (uint8_t)u; return put_bytes(c, &x, 1); }
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
        return arg_error(c, i, "float_size", "(n)", (Py_ssize_t)want);
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
    return arg_error(c, i, "complex_size", "(n)", (Py_ssize_t)want);
}

static Py_ssize_t put_buffer_arg(pack_ctx *c, int i, const empy_Buffer *b, size_t want)
{
    if (b->dev != c->dev &&
        (em_device_get_type(b->dev) != EM_DEVICE_CUDA ||
         em_device_get_type(c->dev) != EM_DEVICE_CUDA)) {
        /* cuda:N memory is reachable from another GPU (peer access), but
         * never across cpu and cuda. */
        return arg_error(c, i, "buffer_device", "(ss)", em_device_name(b->dev),
                         em_device_name(c->dev));
    }
    return put_pointer(c, i, b->ptr, want);
}

/* An In/Out/InOut: device memory of the array's size, filled now for In. */
static Py_ssize_t put_wrapper(pack_ctx *c, int i, PyObject *o, size_t want)
{
    PyTypeObject *t = Py_TYPE(o);
    int dir = t == c->st->In ? EMPY_DIR_IN
              : t == c->st->Out ? EMPY_DIR_OUT : EMPY_DIR_IN | EMPY_DIR_OUT;
    int flags = PyBUF_ANY_CONTIGUOUS | ((dir & EMPY_DIR_OUT) ? PyBUF_WRITABLE : 0);
    PyObject *array;
    pending *p;
    em_status rc = EM_OK;
    int bad;

    if (want && want != sizeof(void *))
        return arg_error(c, i, "wrapper_size", "(sn)", t->tp_name, (Py_ssize_t)want);
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
    if (!(array = PyObject_GetAttrString(o, "array")))
        return -1;
    bad = PyObject_GetBuffer(array, &p->view, flags) < 0;
    Py_DECREF(array);   /* the view holds the exporter */
    if (bad)
        return arg_error(c, i, "wrapper_contiguous", "(ss)", t->tp_name,
                         (dir & EMPY_DIR_OUT) ? ", writable" : "");
    p->obj = o;
    p->dir = dir;
    rc = em_malloc(c->dev, (size_t)p->view.len, c->stream, &p->dptr);
    if (rc != EM_OK) {
        PyBuffer_Release(&p->view);
        empy_raise(c->st, rc);
        return -1;
    }
    c->npend++;   /* from here on the cleanup owns view and dptr */
    if (dir & EMPY_DIR_IN) {
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
        Py_DECREF(cai);
        return PyErr_Occurred()
                   ? -1 : (int)arg_error(c, i, "cai_malformed", "(s)", Py_TYPE(o)->tp_name);
    }
    p = PyLong_AsVoidPtr(ptr);
    Py_DECREF(cai);
    if (!p && PyErr_Occurred())
        return -1;
    if (c->slot->is_cpu)
        return (int)arg_error(c, i, "cai_on_cpu", "(ss)", Py_TYPE(o)->tp_name,
                              em_device_name(c->dev));
    *off = put_pointer(c, i, p, want);
    return *off < 0 ? -1 : 1;
}

/* An ember array is device memory on its own device, whichever that is:
 * its data pointer is passed as is (on cpu too, where its buffer protocol
 * would otherwise make it look like a host array to copy). 1 when o is one
 * (*off set), 0 when it is not, -1 with ValueError when it lives on
 * another device than the kernel's. */
static int put_ndarray(pack_ctx *c, int i, PyObject *o, size_t want, Py_ssize_t *off)
{
    const em_array *a;
    if (!empy_is_ndarray(o))
        return 0;
    a = EMPY_ARR(o);
    if (a->device != c->dev)
        return (int)arg_error(c, i, "array_device", "(nsss)", (Py_ssize_t)a->size,
                              em_dtype_get(a->dtype)->name, em_device_name(a->device),
                              em_device_name(c->dev));
    *off = put_pointer(c, i, a->data, want);
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

/* An object with __index__ that is not an int, as an integer. */
static Py_ssize_t put_index(pack_ctx *c, int i, PyObject *o, size_t want, int is_unsigned)
{
    PyObject *n = PyNumber_Index(o);
    Py_ssize_t off;
    if (!n)
        return -1;
    off = put_int(c, i, n, want, is_unsigned);
    Py_DECREF(n);
    return off;
}

/* An argument for a parameter of unknown kind: its Python type decides,
 * checked against the parameter's size where that is known. */
static Py_ssize_t put_untyped(pack_ctx *c, int i, PyObject *o, size_t want)
{
    empy_state *st = c->st;
    PyTypeObject *t = Py_TYPE(o);
    Py_ssize_t off;
    int r;

    /* the common cases, by exact type */
    if (t == st->Buffer)
        return put_buffer_arg(c, i, (empy_Buffer *)o, want);
    if (t == &PyLong_Type || t == &PyBool_Type)
        return put_int(c, i, o, want ? want : (t == &PyBool_Type ? 1 : 8), 0);
    if (t == &PyFloat_Type)
        return put_float(c, i, PyFloat_AS_DOUBLE(o), want);
    if (t == st->PinnedMemory)
        return put_pointer(c, i, ((empy_PinnedMemory *)o)->ptr, want);
    if (t == st->In || t == st->Out || t == st->InOut)
        return put_wrapper(c, i, o, want);

    if ((r = put_ndarray(c, i, o, want, &off)) != 0)
        return r < 0 ? -1 : off;
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
                PyBuffer_Release(&v);
                return arg_error(c, i, "untyped_size", "(snn)", t->tp_name, v.len,
                                 (Py_ssize_t)want);
            }
            off = put_bytes(c, v.buf, (size_t)v.len);
            PyBuffer_Release(&v);
            return off;
        }
        /* CuPy passes a NumPy array's bytes by value, so a struct built
         * as a structured array fills a by-value parameter of its size
         * (CuPy's packed_matrix example). A pointer-sized parameter keeps
         * the error below: a host array there is the common mistake of
         * one meant as device memory. */
        if (want && want != sizeof(void *) && (size_t)v.len == want &&
            PyBuffer_IsContiguous(&v, 'C')) {
            off = put_bytes(c, v.buf, want);
            PyBuffer_Release(&v);
            return off;
        }
        PyBuffer_Release(&v);
        r = put_cai(c, i, o, want, &off);
        if (r)
            return r < 0 ? -1 : off;
        /* a host array where device memory was meant: the common mistake */
        return arg_error(c, i, "host_array", "(s)", t->tp_name);
    }
    if (PyComplex_Check(o))
        return put_complex(c, i, PyComplex_AsCComplex(o), want);
    if (PyLong_Check(o))
        return put_int(c, i, o, want, 0);
    if (PyFloat_Check(o))
        return put_float(c, i, PyFloat_AS_DOUBLE(o), want);
    r = put_cai(c, i, o, want, &off);
    if (r > 0)
        note_cai_type(st, t);
    if (r)
        return r < 0 ? -1 : off;
    if (PyIndex_Check(o))
        return put_index(c, i, o, want, 0);
    return arg_error(c, i, "cannot_pass", "(s)", t->tp_name);
}

/* ---- parameters of known kinds --------------------------------------- */

/* What a 0-d buffer (a NumPy scalar) holds, by its struct-module format. */
enum { NUM_NONE, NUM_INT, NUM_UINT, NUM_FLOAT, NUM_BOOL };

static int scalar_kind(const Py_buffer *v)
{
    const char *f = v->format ? v->format : "B";
    if (*f == '@' || *f == '=')
        f++;
    else if (*f == '<' || *f == '>' || *f == '!')
        /* bytes to copy as they are only in the machine's own order */
        f = (*f == '<') == (PY_LITTLE_ENDIAN != 0) ? f + 1 : "";
    if (!f[0] || f[1])
        return NUM_NONE;
    switch (f[0]) {
    case 'b': case 'h': case 'i': case 'l': case 'q': case 'n': return NUM_INT;
    case 'B': case 'H': case 'I': case 'L': case 'Q': case 'N': return NUM_UINT;
    case 'e': case 'f': case 'd': case 'g': return NUM_FLOAT;
    case '?': return NUM_BOOL;
    }
    return NUM_NONE;
}

/* The value of an integer or bool scalar of 1, 2, 4 or 8 bytes. */
static double scalar_int_value(const Py_buffer *v, int is_unsigned)
{
    const char *p = v->buf;
    switch (v->len) {
    case 1: { uint8_t x; memcpy(&x, p, 1); return is_unsigned ? (double)x : (double)(int8_t)x; }
    case 2: { uint16_t x; memcpy(&x, p, 2); return is_unsigned ? (double)x : (double)(int16_t)x; }
    case 4: { uint32_t x; memcpy(&x, p, 4); return is_unsigned ? (double)x : (double)(int32_t)x; }
    default: { uint64_t x; memcpy(&x, p, 8); return is_unsigned ? (double)x : (double)(int64_t)x; }
    }
}

/* The argument does not suit the parameter's kind. */
static Py_ssize_t kind_error(pack_ctx *c, int i, PyObject *o)
{
    const empy_kparam *p = &c->slot->params[i];
    return arg_error(c, i, "kind", "(zns)", empy_param_kind_name(p->kind),
                     (Py_ssize_t)p->size, Py_TYPE(o)->tp_name);
}

/* A NumPy scalar's buffer, or 0 with no exception when o has none (or
 * refuses, as device arrays do). -1 only for a failure that must stand. */
static int get_scalar(PyObject *o, Py_buffer *v)
{
    if (!PyObject_CheckBuffer(o))
        return 0;
    if (PyObject_GetBuffer(o, v, PyBUF_RECORDS_RO) < 0) {
        if (PyErr_ExceptionMatches(PyExc_MemoryError))
            return -1;
        PyErr_Clear();
        return 0;
    }
    if (v->ndim != 0) {
        PyBuffer_Release(v);
        return 0;
    }
    return 1;
}

/* A buffer's bytes as they are, for a parameter of exactly its size. */
static Py_ssize_t put_exact(pack_ctx *c, int i, PyObject *o, const Py_buffer *v)
{
    size_t size = c->slot->params[i].size;
    return (size_t)v->len == size ? put_bytes(c, v->buf, size)
                                  : arg_error(c, i, "scalar_size", "(snn)", Py_TYPE(o)->tp_name,
                                              v->len, (Py_ssize_t)size);
}

static int is_memory(const empy_state *st, PyTypeObject *t)
{
    return t == st->Buffer || t == st->PinnedMemory || t == st->In || t == st->Out ||
           t == st->InOut;
}

static Py_ssize_t put_pointer_param(pack_ctx *c, int i, PyObject *o)
{
    empy_state *st = c->st;
    PyTypeObject *t = Py_TYPE(o);
    Py_ssize_t off;
    Py_buffer v;
    int r;

    if (t == st->Buffer)
        return put_buffer_arg(c, i, (empy_Buffer *)o, sizeof(void *));
    if (t == st->PinnedMemory)
        return put_pointer(c, i, ((empy_PinnedMemory *)o)->ptr, sizeof(void *));
    if (t == st->In || t == st->Out || t == st->InOut)
        return put_wrapper(c, i, o, sizeof(void *));
    if (PyLong_Check(o) || PyFloat_Check(o) || PyComplex_Check(o) || o == Py_None)
        return kind_error(c, i, o);
    if ((r = put_ndarray(c, i, o, sizeof(void *), &off)) != 0)
        return r < 0 ? -1 : off;
    /* Device arrays first: CuPy's also have a buffer slot that refuses. */
    r = put_cai(c, i, o, sizeof(void *), &off);
    if (r)
        return r < 0 ? -1 : off;
    if (PyObject_CheckBuffer(o) && PyObject_GetBuffer(o, &v, PyBUF_RECORDS_RO) == 0) {
        int ndim = v.ndim;
        PyBuffer_Release(&v);
        if (ndim > 0)
            return arg_error(c, i, "host_array", "(s)", t->tp_name);
    }
    PyErr_Clear();
    return kind_error(c, i, o);
}

static Py_ssize_t put_int_param(pack_ctx *c, int i, PyObject *o, const empy_kparam *p)
{
    PyTypeObject *t = Py_TYPE(o);
    int is_unsigned = p->kind == EM_PARAM_UINT, r, k;
    Py_ssize_t off;
    Py_buffer v;

    if (t == &PyLong_Type || t == &PyBool_Type)
        return put_int(c, i, o, p->size, is_unsigned);
    if (PyFloat_Check(o) || PyComplex_Check(o) || is_memory(c->st, t))
        return kind_error(c, i, o);
    if ((r = get_scalar(o, &v)) != 0) {
        if (r < 0)
            return -1;
        k = scalar_kind(&v);
        if (k != NUM_INT && k != NUM_UINT && k != NUM_BOOL)
            off = kind_error(c, i, o);
        else
            off = put_exact(c, i, o, &v);
        PyBuffer_Release(&v);
        return off;
    }
    if (PyLong_Check(o))
        return put_int(c, i, o, p->size, is_unsigned);
    if (PyIndex_Check(o))
        return put_index(c, i, o, p->size, is_unsigned);
    return kind_error(c, i, o);
}

static Py_ssize_t put_float_param(pack_ctx *c, int i, PyObject *o, const empy_kparam *p)
{
    PyTypeObject *t = Py_TYPE(o);
    Py_ssize_t off;
    Py_buffer v;
    double d;
    int r, k;

    if (t == &PyFloat_Type)
        return put_float(c, i, PyFloat_AS_DOUBLE(o), p->size);
    if (PyComplex_Check(o) || is_memory(c->st, t))
        return kind_error(c, i, o);
    /* NumPy scalars before float subclasses: numpy.float64 is both, and
     * its size must match as any NumPy scalar's does. */
    if ((r = get_scalar(o, &v)) != 0) {
        if (r < 0)
            return -1;
        k = scalar_kind(&v);
        if (k == NUM_FLOAT)     /* the same format only: its bytes as they are */
            off = put_exact(c, i, o, &v);
        else if ((k == NUM_INT || k == NUM_UINT || k == NUM_BOOL) &&
                 (v.len == 1 || v.len == 2 || v.len == 4 || v.len == 8))
            /* NumPy's same_kind casting: integers become floats */
            off = put_float(c, i, scalar_int_value(&v, k != NUM_INT), p->size);
        else
            off = kind_error(c, i, o);
        PyBuffer_Release(&v);
        return off;
    }
    if (PyFloat_Check(o))
        return put_float(c, i, PyFloat_AsDouble(o), p->size);
    if (!PyLong_Check(o) && !PyIndex_Check(o))
        return kind_error(c, i, o);
    {
        PyObject *n = PyNumber_Index(o);
        if (!n)
            return -1;
        d = PyLong_AsDouble(n);
        Py_DECREF(n);
    }
    if (d == -1.0 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError))
            return -1;
        PyErr_Clear();
        return arg_error(c, i, "float_range", "(O)", o);
    }
    return put_float(c, i, d, p->size);
}

static Py_ssize_t put_bool_param(pack_ctx *c, int i, PyObject *o)
{
    unsigned char b;
    Py_buffer v;
    int r;
    if (PyBool_Check(o)) {
        b = o == Py_True;
        return put_bytes(c, &b, 1);
    }
    if (PyLong_Check(o)) {
        int ovf = 0;
        long long x = PyLong_AsLongLongAndOverflow(o, &ovf);
        if (x == -1 && !ovf && PyErr_Occurred())
            return -1;
        if (ovf || (x != 0 && x != 1))
            return arg_error(c, i, "bool_range", "(O)", o);
        b = (unsigned char)x;
        return put_bytes(c, &b, 1);
    }
    if (!PyFloat_Check(o) && !is_memory(c->st, Py_TYPE(o)) &&
        (r = get_scalar(o, &v)) != 0) {
        Py_ssize_t off;
        if (r < 0)
            return -1;
        off = scalar_kind(&v) == NUM_BOOL && v.len == 1 ? put_bytes(c, v.buf, 1)
                                                          : kind_error(c, i, o);
        PyBuffer_Release(&v);
        return off;
    }
    return kind_error(c, i, o);
}

/* A struct, vector or other by-value parameter: exactly its bytes. A
 * NumPy number is refused even at the right size, since its bytes are a
 * number, not the struct (a float16 is not a __nv_bfloat16). */
static Py_ssize_t put_value_param(pack_ctx *c, int i, PyObject *o, const empy_kparam *p)
{
    Py_ssize_t off;
    Py_buffer v;
    if (is_memory(c->st, Py_TYPE(o)) || !PyObject_CheckBuffer(o))
        return kind_error(c, i, o);
    if (PyObject_GetBuffer(o, &v, PyBUF_RECORDS_RO) < 0) {
        if (PyErr_ExceptionMatches(PyExc_MemoryError))
            return -1;
        PyErr_Clear();
        return kind_error(c, i, o);
    }
    if (v.ndim == 0 && scalar_kind(&v) != NUM_NONE)
        off = kind_error(c, i, o);
    else if (!PyBuffer_IsContiguous(&v, 'C'))
        off = arg_error(c, i, "not_contiguous", "(s)", Py_TYPE(o)->tp_name);
    else
        off = put_exact(c, i, o, &v);
    PyBuffer_Release(&v);
    return off;
}

static Py_ssize_t put_arg(pack_ctx *c, int i, PyObject *o)
{
    const empy_kparam *p;
    if (c->slot->n_params < 0)
        return put_untyped(c, i, o, 0);
    p = &c->slot->params[i];
    switch (p->kind) {
    case EM_PARAM_POINTER: return put_pointer_param(c, i, o);
    case EM_PARAM_INT:
    case EM_PARAM_UINT: return put_int_param(c, i, o, p);
    case EM_PARAM_FLOAT: return put_float_param(c, i, o, p);
    case EM_PARAM_BOOL: return put_bool_param(c, i, o);
    case EM_PARAM_OTHER: return put_value_param(c, i, o, p);
    default: return put_untyped(c, i, o, p->size);
    }
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

    if ((lc->cluster.x ^ 1u) | (lc->cluster.y ^ 1u) | (lc->cluster.z ^ 1u) |
        (unsigned)lc->cooperative) {
        const em_launch_config cfg = {lc->grid, lc->block, lc->cluster, lc->shared,
                                      lc->cooperative};
        Py_BEGIN_ALLOW_THREADS
        rc = em_launch_ex(slot->fn, &cfg, stream, argv);
        Py_END_ALLOW_THREADS
    } else if (slot->is_cpu) {
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
