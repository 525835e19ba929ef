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
 * kinds are read from an array per call. C packs what programs pass in
 * loops (ember memory, Python ints and floats, NumPy scalars of the
 * parameter's kind and size); the rest (structs, conversions, other
 * libraries' arrays, In/Out) and every refusal, with its message, are
 * python/ember/_api/launch_args.py's. */
#include <string.h>
#include "runtime/module.h"
#include "runtime/errors.h"
#include "array/ndarray.h"
#include "kernels/launch.h"
#include "runtime/args.h"

#define PACK_STACK 1024     /* bytes of arguments held on the stack */
#define ARGS_STACK 32       /* arguments held on the stack */

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

int empy_parse_launch(empy_state *st, const char *kname, PyObject *const *args,
                      size_t nargsf, PyObject *kwnames, empy_launch_call *lc)
{
    /* grid, block, args, shared_mem, stream: by position or by CuPy's
     * keywords (kern(grid, block, args=(...), shared_mem=0, stream=s));
     * cluster and cooperative (cuda.core's LaunchConfig) by keyword only. */
    static const char *const names[] = {"grid", "block", "args", "shared_mem", "stream",
                                        "cluster", "cooperative", NULL};
    PyObject *v[7] = {NULL};
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    int64_t shared = 0;

    lc->cluster.x = lc->cluster.y = lc->cluster.z = 1;
    lc->cooperative = 0;
    /* the usual calls without the general parser: all by position, or
     * k(grid, block, args, stream=s) (the keyword is the interned name) */
    if (nargs >= 3 && nargs <= 5 && !kwnames) {
        memcpy(v, args, (size_t)nargs * sizeof *v);
    } else if (nargs == 3 && kwnames && PyTuple_GET_SIZE(kwnames) == 1 &&
               PyTuple_GET_ITEM(kwnames, 0) == st->s_stream) {
        memcpy(v, args, 3 * sizeof *v);
        v[4] = args[3];
    } else if (empy_parse_args(kname, args, nargs, kwnames, names, 5, 3, v) < 0)
        return -1;
    if (empy_parse_dim(v[0], "grid", &lc->grid) < 0 ||
        empy_parse_dim(v[1], "block", &lc->block) < 0 ||
        (v[3] && v[3] != Py_None && empy_index_arg(v[3], "shared_mem", 0, &shared) < 0) ||
        (v[5] && v[5] != Py_None && empy_parse_dim(v[5], "cluster", &lc->cluster) < 0) ||
        (v[6] && (lc->cooperative = PyObject_IsTrue(v[6])) < 0))
        return -1;
    if (shared < 0) {
        PyErr_Format(PyExc_ValueError, "shared_mem must be >= 0, got %lld", (long long)shared);
        return -1;
    }
    lc->shared = (size_t)shared;
    lc->args = v[2];
    lc->stream = v[4];
    return 0;
}

/* ---- packing ------------------------------------------------------- */

typedef struct {
    empy_state *st;
    const empy_kslot *slot;
    PyObject *stream;   /* the call's stream= (NULL: not given) */
    char *buf;
    size_t cap, used;
    int buf_heap;
    PyObject *after;    /* callables to run once the kernel is queued, or NULL */
} pack_ctx;

#define SLOW (-2)       /* not a case for C: launch_args.py packs it or says why not */

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

static Py_ssize_t put_pointer(pack_ctx *c, const void *p, size_t want)
{
    return want && want != sizeof p ? SLOW : put_bytes(c, &p, sizeof p);
}

/* ember's own memory usable on the kernel's device: a Buffer (cuda:N
 * memory is reachable from another GPU, never across cpu and cuda), a
 * PinnedMemory, an ndarray of that device (on cpu too, where its buffer
 * protocol would make it look like a host array to copy). */
static Py_ssize_t put_memory(pack_ctx *c, PyObject *o, size_t want)
{
    PyTypeObject *t = Py_TYPE(o);
    em_device *d = c->slot->dev;
    if (t == c->st->Buffer) {
        em_device *bd = ((empy_Buffer *)o)->dev;
        if (bd != d && (c->slot->is_cpu || em_device_get_type(bd) != EM_DEVICE_CUDA))
            return SLOW;
        return put_pointer(c, ((empy_Buffer *)o)->ptr, want);
    }
    if (t == c->st->PinnedMemory)
        return put_pointer(c, ((empy_PinnedMemory *)o)->ptr, want);
    if (empy_is_ndarray(o) && EMPY_ARR(o)->device == d)
        return put_pointer(c, EMPY_ARR(o)->data, want);
    return SLOW;
}

/* An int into a want-byte integer (8 when unknown), if it fits. Two's
 * complement: the low bytes are the value at either sign. */
static Py_ssize_t put_int(pack_ctx *c, PyObject *o, size_t want, int is_unsigned)
{
    int ovf = 0, bits = 8 * (int)(want ? want : 8);
    long long v = PyLong_AsLongLongAndOverflow(o, &ovf);
    uint64_t u = (uint64_t)v;
    if (ovf || (v == -1 && PyErr_Occurred()) || (bits < 64 && (is_unsigned
            ? u >> bits : (u + (1ull << (bits - 1))) >> bits)) || (is_unsigned && v < 0)) {
        PyErr_Clear();
        return SLOW;
    }
    switch (bits) {
    case 64: return put_bytes(c, &u, 8);
    case 32: { uint32_t x = (uint32_t)u; return put_bytes(c, &x, 4); }
    case 16: { uint16_t x = (uint16_t)u; return put_bytes(c, &x, 2); }
    case 8: { uint8_t x = (uint8_t)u; return put_bytes(c, &x, 1); }
    }
    return SLOW;
}

static Py_ssize_t put_float(pack_ctx *c, double v, size_t want)
{
    float f = (float)v;
    if (v == -1.0 && PyErr_Occurred()) {   /* an int past double's range */
        PyErr_Clear();
        return SLOW;
    }
    return want == 0 || want == 8 ? put_bytes(c, &v, 8) : want == 4 ? put_bytes(c, &f, 4)
                                                                     : SLOW;
}

/* What a 0-d buffer (a NumPy scalar) holds, by its struct-module format;
 * bits of a mask of kinds. */
enum { NUM_OTHER = 1, NUM_INT = 2, NUM_FLOAT = 4, NUM_BOOL = 8, NUM_ANY = 15 };

static int scalar_kind(const char *f)
{
    if (!f || *f == '@' || *f == '=')
        f = f ? f + 1 : "B";
    else if (*f == '<' || *f == '>' || *f == '!')
        /* bytes to copy as they are only in the machine's own order */
        f = (*f == '<') == (PY_LITTLE_ENDIAN != 0) ? f + 1 : "";
    if (!f[0] || f[1])
        return NUM_OTHER;
    return strchr("bhilqnBHILQN", f[0]) ? NUM_INT : strchr("efdg", f[0]) ? NUM_FLOAT
           : f[0] == '?' ? NUM_BOOL : NUM_OTHER;
}

/* A NumPy scalar of exactly want bytes (any size when 0) whose kind is in
 * mask: its bytes as they are. A signed parameter takes an unsigned
 * scalar of its size, as it always has. */
static Py_ssize_t put_scalar(pack_ctx *c, PyObject *o, size_t want, int mask)
{
    Py_ssize_t off = SLOW;
    Py_buffer v;
    if (!PyObject_CheckBuffer(o))
        return SLOW;
    if (PyObject_GetBuffer(o, &v, PyBUF_RECORDS_RO) < 0) {
        PyErr_Clear();
        return SLOW;
    }
    if (v.ndim == 0 && (!want || (size_t)v.len == want) && (scalar_kind(v.format) & mask))
        off = put_bytes(c, v.buf, (size_t)v.len);
    PyBuffer_Release(&v);
    return off;
}

/* Anything the cases below leave, and every refusal: launch_args.py packs
 * it (its bytes, or bytes and a callable for after the launch) or raises
 * the message. */
static Py_ssize_t put_slow(pack_ctx *c, int i, PyObject *o)
{
    static const empy_pyattr w = {"ember._api.launch_args", "pack"};
    const empy_kslot *s = c->slot;
    int typed = s->n_params >= 0;
    PyObject *args, *r = NULL, *bytes;
    Py_ssize_t off = -1;

    args = Py_BuildValue("(sisinzzzNO)", Py_TYPE(o)->tp_name, PyObject_CheckBuffer(o),
                         s->name, i, (Py_ssize_t)(typed ? s->params[i].size : 0),
                         typed ? empy_param_kind_name(s->params[i].kind) : NULL,
                         typed ? em_function_param_type(s->fn, i) : NULL,
                         typed ? em_function_param_name(s->fn, i) : NULL,
                         empy_device_new(c->st, s->dev), c->stream ? c->stream : Py_None);
    if (args)
        r = empy_py_method_tuple(&w, o, args, NULL);
    Py_XDECREF(args);
    if (!r)
        return -1;
    bytes = r;
    if (PyTuple_Check(r)) {     /* (bytes, after) */
        bytes = PyTuple_GET_ITEM(r, 0);
        if ((!c->after && !(c->after = PyList_New(0))) ||
            PyList_Append(c->after, PyTuple_GET_ITEM(r, 1)) < 0)
            bytes = NULL;
    }
    if (bytes)
        off = put_bytes(c, PyBytes_AS_STRING(bytes), (size_t)PyBytes_GET_SIZE(bytes));
    Py_DECREF(r);
    return off;
}

static Py_ssize_t put_arg(pack_ctx *c, int i, PyObject *o)
{
    PyTypeObject *t = Py_TYPE(o);
    int typed = c->slot->n_params >= 0, exact_int = t == &PyLong_Type || t == &PyBool_Type;
    size_t want = typed ? c->slot->params[i].size : 0;
    Py_ssize_t off = SLOW;

    switch (typed ? c->slot->params[i].kind : EM_PARAM_UNKNOWN) {
    case EM_PARAM_POINTER:
        off = put_memory(c, o, sizeof(void *));
        break;
    case EM_PARAM_INT:
    case EM_PARAM_UINT:
        off = exact_int ? put_int(c, o, want, c->slot->params[i].kind == EM_PARAM_UINT)
                        : put_scalar(c, o, want, NUM_INT | NUM_BOOL);
        break;
    case EM_PARAM_FLOAT:
        off = t == &PyFloat_Type ? put_float(c, PyFloat_AS_DOUBLE(o), want)
              : t == &PyLong_Type ? put_float(c, PyLong_AsDouble(o), want)
                                  : put_scalar(c, o, want, NUM_FLOAT);
        break;
    case EM_PARAM_BOOL:
        off = t == &PyBool_Type ? put_bytes(c, o == Py_True ? "\1" : "\0", 1)
                                : put_scalar(c, o, 1, NUM_BOOL);
        break;
    case EM_PARAM_OTHER:
        break;
    default:    /* unknown: the argument's own type decides */
        if (exact_int)
            off = put_int(c, o, want ? want : t == &PyBool_Type ? 1 : 8, 0);
        else if (t == &PyFloat_Type)
            off = put_float(c, PyFloat_AS_DOUBLE(o), want);
        else if (t == c->st->Buffer || t == c->st->PinnedMemory || empy_is_ndarray(o))
            off = put_memory(c, o, want);
        else
            off = put_scalar(c, o, want, NUM_ANY);
    }
    return off == SLOW ? put_slow(c, i, o) : off;
}

PyObject *empy_launch(empy_state *st, empy_kslot *slot, const empy_launch_call *lc,
                      em_stream *stream)
{
    union { max_align_t a; char b[PACK_STACK]; } stack_buf;
    Py_ssize_t offs_stack[ARGS_STACK], *offs = offs_stack;
    void *argv_stack[ARGS_STACK], **argv = argv_stack;
    PyObject *seq = lc->args, *tmp = NULL, *result = NULL;
    PyObject *const *items;
    Py_ssize_t n, i;
    pack_ctx c = {st, slot, lc->stream, stack_buf.b, sizeof stack_buf.b, 0, 0, NULL};
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
    if (rc != EM_OK) {
        empy_raise(st, rc);
        goto done;
    }
    /* In/Out/InOut: the copies back, and the wait */
    for (i = 0; c.after && i < PyList_GET_SIZE(c.after); i++) {
        PyObject *r = PyObject_CallNoArgs(PyList_GET_ITEM(c.after, i));
        if (!r)
            goto done;
        Py_DECREF(r);
    }
    result = Py_NewRef(Py_None);

done:
    Py_XDECREF(c.after);
    if (c.buf_heap)
        PyMem_Free(c.buf);
    if (offs != offs_stack)
        PyMem_Free(offs);
    if (argv != argv_stack)
        PyMem_Free(argv);
    Py_XDECREF(tmp);
    return result;
}
