/* ember Python extension: the disk index of jit translations
 * (docs/jit-design.md section 5). A new process that calls a kernel it
 * has run before finds the translated source here, by a key computed from
 * what determines the translation, and so never imports the translator;
 * the source then finds its binary in the kernel cache as every kernel
 * does.
 *
 * Entries go through the core's disk cache (em_diskcache_*, file
 * "jit-<hash>.emk" beside the kernels), so they get its atomic writes, its
 * content hashes and `python -m ember info`'s count. The whole key is the
 * entry's identity: a hash collision is a miss, never a wrong kernel. A
 * kernel that reads a global ember cannot fingerprint (an arbitrary
 * object) is not cached on disk at all. */
#include "jit/jit.h"
#include <dirent.h>
#include <string.h>
#include <sys/stat.h>
#include <marshal.h>

/* Bump when the layout of identities or payloads changes. */
#define JIT_CACHE_VERSION 1
#define MARSHAL_V 2          /* version 2 writes no back-references, whose
                              * use depends on reference counts, so the
                              * bytes are the same in every process */
#define MAX_DEPTH 8          /* device functions calling device functions */

typedef struct {
    char *p;
    size_t n, cap;
    int failed;              /* MemoryError raised */
    int uncacheable;         /* read a value with no stable fingerprint */
} wbuf;

static void put(wbuf *b, const void *p, size_t n)
{
    if (b->failed)
        return;
    if (b->n + n > b->cap) {
        size_t cap = (b->n + n) * 2 + 256;
        char *np = PyMem_Realloc(b->p, cap);
        if (!np) {
            PyErr_NoMemory();
            b->failed = 1;
            return;
        }
        b->p = np;
        b->cap = cap;
    }
    memcpy(b->p + b->n, p, n);
    b->n += n;
}

static void put_str(wbuf *b, const char *s)
{
    put(b, s, strlen(s) + 1);
}

static void put_u64(wbuf *b, uint64_t v)
{
    put(b, &v, sizeof v);
}

static void put_obj_str(wbuf *b, PyObject *s)
{
    const char *u = s && PyUnicode_Check(s) ? PyUnicode_AsUTF8(s) : NULL;
    if (!u) {
        PyErr_Clear();
        u = "?";
    }
    put_str(b, u);
}

/* ---- the translator's fingerprint --------------------------------------- */

/* Names, sizes and modification times of the translator's files (its
 * modules and the prelude it copies into every kernel): a new translator
 * must not be handed an old translation. Summed per file, so
 * the order readdir returns them in does not matter. */
static uint64_t dir_fingerprint(const char *dir, int depth)
{
    uint64_t h = 0;
    DIR *d = opendir(dir);
    struct dirent *e;
    if (!d)
        return 0;
    while ((e = readdir(d)) != NULL) {
        char path[4096];
        struct stat sb;
        size_t len = strlen(e->d_name);
        if (e->d_name[0] == '.' || strcmp(e->d_name, "__pycache__") == 0)
            continue;
        if (snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= (int)sizeof path ||
            stat(path, &sb) != 0)
            continue;
        if (S_ISDIR(sb.st_mode)) {
            if (depth < 2)
                h += em_hash_combine(em_hash64(e->d_name, len, 7),
                                     dir_fingerprint(path, depth + 1));
        } else if (S_ISREG(sb.st_mode) && (len < 4 || strcmp(e->d_name + len - 4, ".pyc"))) {
            /* sources and what they read (prelude.h) */
            uint64_t fh = em_hash64(e->d_name, len, 11);
            fh = em_hash_combine(fh, (uint64_t)sb.st_size);
            fh = em_hash_combine(fh, (uint64_t)sb.st_mtim.tv_sec);
            fh = em_hash_combine(fh, (uint64_t)sb.st_mtim.tv_nsec);
            h += fh;
        }
    }
    closedir(d);
    return h;
}

/* Computed once per process; two threads racing both compute the same. */
static uint64_t translator_fingerprint(void)
{
    static uint64_t cached;
    static int ready;
    PyObject *mod, *file;
    const char *f, *slash;
    char dir[4096];
    uint64_t h = 1;

    if (__atomic_load_n(&ready, __ATOMIC_ACQUIRE))
        return cached;
    mod = PyImport_ImportModule("ember");
    file = mod ? PyObject_GetAttrString(mod, "__file__") : NULL;
    f = file && PyUnicode_Check(file) ? PyUnicode_AsUTF8(file) : NULL;
    if (f && (slash = strrchr(f, '/')) != NULL &&
        (size_t)(slash - f) + 5 < sizeof dir) {
        memcpy(dir, f, (size_t)(slash - f));
        strcpy(dir + (slash - f), "/jit");
        h = em_hash_combine(1, dir_fingerprint(dir, 0));
    }
    PyErr_Clear();
    Py_XDECREF(file);
    Py_XDECREF(mod);
    cached = h;
    __atomic_store_n(&ready, 1, __ATOMIC_RELEASE);
    return h;
}

/* ---- what a function's translation depends on ------------------------------ */

static void put_func(wbuf *b, PyObject *f, int depth);

static int put_marshal(wbuf *b, PyObject *v)
{
    PyObject *m = PyMarshal_WriteObjectToString(v, MARSHAL_V);
    if (!m) {
        PyErr_Clear();
        return -1;
    }
    put_u64(b, (uint64_t)PyBytes_GET_SIZE(m));
    put(b, PyBytes_AS_STRING(m), (size_t)PyBytes_GET_SIZE(m));
    Py_DECREF(m);
    return 0;
}

static int is_constant(PyObject *v)
{
    PyTypeObject *t = Py_TYPE(v);
    Py_ssize_t i;
    if (v == Py_None || t == &PyBool_Type || t == &PyLong_Type || t == &PyFloat_Type ||
        t == &PyComplex_Type || t == &PyUnicode_Type || t == &PyBytes_Type)
        return 1;
    if (t == &PyTuple_Type) {
        for (i = 0; i < PyTuple_GET_SIZE(v); i++)
            if (!is_constant(PyTuple_GET_ITEM(v, i)))
                return 0;
        return 1;
    }
    return 0;
}

static void put_qualname(wbuf *b, PyObject *v)
{
    PyObject *m = PyObject_GetAttrString(v, "__module__");
    PyObject *q = PyObject_GetAttrString(v, "__qualname__");
    if (!q) {
        PyErr_Clear();
        q = PyObject_GetAttrString(v, "__name__");
    }
    put_obj_str(b, m);
    put_obj_str(b, q);
    PyErr_Clear();
    Py_XDECREF(m);
    Py_XDECREF(q);
}

/* A buffer's format, shape and contents. 0 done, -1 not a buffer. */
static int put_buffer(wbuf *b, PyObject *v)
{
    Py_buffer view;
    Py_ssize_t k;
    if (!PyObject_CheckBuffer(v) || PyObject_GetBuffer(v, &view, PyBUF_RECORDS_RO) < 0) {
        PyErr_Clear();
        return -1;
    }
    put_str(b, "B");
    put_str(b, view.format ? view.format : "B");
    put_u64(b, (uint64_t)view.ndim);
    for (k = 0; k < view.ndim; k++)
        put_u64(b, (uint64_t)view.shape[k]);
    if (PyBuffer_IsContiguous(&view, 'C')) {
        put_u64(b, em_hash64(view.buf, (size_t)view.len, 3));
    } else {
        char *tmp = PyMem_Malloc(view.len ? (size_t)view.len : 1);
        if (tmp && PyBuffer_ToContiguous(tmp, &view, view.len, 'C') == 0)
            put_u64(b, em_hash64(tmp, (size_t)view.len, 3));
        else
            b->uncacheable = 1;
        PyErr_Clear();
        PyMem_Free(tmp);
    }
    PyBuffer_Release(&view);
    return 0;
}

static void put_value(wbuf *b, PyObject *v, int depth)
{
    const char *tn = Py_TYPE(v)->tp_name;
    if (is_constant(v)) {
        put_str(b, "V");
        if (put_marshal(b, v) < 0)
            b->uncacheable = 1;
    } else if (PyModule_Check(v)) {
        /* The modules kernels may use; a user's module could hold
         * constants the translator bakes in under attribute names. */
        static const char *const known[] = {"math", "cmath", "numpy", "ember", "numba",
                                            NULL};
        const char *name = PyModule_GetName(v);
        int k, ok = 0;
        for (k = 0; name && known[k]; k++) {
            size_t len = strlen(known[k]);
            ok |= strncmp(name, known[k], len) == 0 && (!name[len] || name[len] == '.');
        }
        put_str(b, "M");
        put_str(b, name ? name : "?");
        PyErr_Clear();
        if (!ok)
            b->uncacheable = 1;
    } else if (strcmp(tn, "ember.cuda.Dispatcher") == 0 ||
               strcmp(tn, "ember.cuda.DeviceFunction") == 0) {
        PyObject *pf = PyObject_GetAttrString(v, "py_func");
        PyObject *sigs = PyObject_GetAttrString(v, "signatures"), *t;
        put_str(b, "J");
        if (pf)
            put_func(b, pf, depth + 1);
        else {
            PyErr_Clear();
            b->uncacheable = 1;
        }
        /* a device function's signatures convert its arguments and result */
        t = sigs ? PySequence_Tuple(sigs) : NULL;
        if (t)
            put_value(b, t, depth);
        else
            b->uncacheable = 1;
        PyErr_Clear();
        Py_XDECREF(t);
        Py_XDECREF(sigs);
        Py_XDECREF(pf);
    } else if (PyFunction_Check(v)) {
        put_str(b, "F");
        put_func(b, v, depth + 1);
    } else if (PyType_Check(v) || PyCFunction_Check(v) ||
               strcmp(tn, "numpy.ufunc") == 0 || strcmp(tn, "ember.ufunc") == 0) {
        /* named things whose meaning is their name */
        put_str(b, PyType_Check(v) ? "T" : "C");
        put_qualname(b, v);
    } else if (PyObject_HasAttrString(v, "_ember_type_code")) {
        /* ember.cuda.types' objects: their meaning is their name */
        PyObject *r = PyObject_Str(v);
        put_str(b, "Y");
        put_obj_str(b, r);
        Py_XDECREF(r);
        PyErr_Clear();
    } else if (empy_is_ndarray(v)) {
        /* captured by address (ember.jit.views.captured_array): only this
         * process may reuse the translation. Subclasses too (a
         * cuda.DeviceNDArray on cpu exports a buffer, whose hash would
         * otherwise cache a stale address on disk). */
        b->uncacheable = 1;
    } else if (put_buffer(b, v) == 0) {
        /* NumPy arrays and scalars: cuda.const.array_like bakes values */
    } else {
        b->uncacheable = 1;
    }
}

/* Every global name a code object (or one nested in it) reads. */
static void put_names(wbuf *b, PyObject *code, PyObject *globals, int depth)
{
    PyObject *names = PyObject_GetAttrString(code, "co_names");
    PyObject *consts = PyObject_GetAttrString(code, "co_consts");
    Py_ssize_t i;
    if (names && PyTuple_Check(names)) {
        for (i = 0; i < PyTuple_GET_SIZE(names); i++) {
            PyObject *name = PyTuple_GET_ITEM(names, i);
            PyObject *v = PyDict_GetItemWithError(globals, name);
            if (!v) {
                PyErr_Clear();
                continue;
            }
            put_obj_str(b, name);
            put_value(b, v, depth);
        }
    } else {
        b->uncacheable = 1;
    }
    if (consts && PyTuple_Check(consts))
        for (i = 0; i < PyTuple_GET_SIZE(consts); i++)
            if (PyCode_Check(PyTuple_GET_ITEM(consts, i)))
                put_names(b, PyTuple_GET_ITEM(consts, i), globals, depth);
    PyErr_Clear();
    Py_XDECREF(names);
    Py_XDECREF(consts);
}

static void put_func(wbuf *b, PyObject *f, int depth)
{
    PyObject *code, *globals, *closure;
    Py_ssize_t i;
    if (depth > MAX_DEPTH || !PyFunction_Check(f)) {
        b->uncacheable = 1;
        return;
    }
    code = PyFunction_GET_CODE(f);
    globals = PyFunction_GET_GLOBALS(f);
    closure = PyFunction_GET_CLOSURE(f);
    put_str(b, "code");
    if (put_marshal(b, code) < 0)
        b->uncacheable = 1;
    put_names(b, code, globals, depth);
    if (closure && PyTuple_Check(closure)) {
        for (i = 0; i < PyTuple_GET_SIZE(closure); i++) {
            PyObject *cell = PyTuple_GET_ITEM(closure, i);
            PyObject *v = PyCell_Check(cell) ? PyCell_GET(cell) : NULL;
            put_str(b, "cell");
            if (v)
                put_value(b, v, depth);
        }
    }
    if (PyFunction_GET_DEFAULTS(f)) {
        put_str(b, "defaults");
        put_value(b, PyFunction_GET_DEFAULTS(f), depth);
    }
}

PyObject *empy_jit_cache_ident(PyObject *py_func, PyObject *argcodes, const char *target,
                               const char *options)
{
    wbuf b = {NULL, 0, 0, 0, 0};
    PyObject *out = NULL;
    Py_ssize_t i;

    put_str(&b, "ember.jit");
    put_u64(&b, JIT_CACHE_VERSION);
    put_str(&b, EMBER_VERSION_STRING);
    put_u64(&b, (uint64_t)PY_VERSION_HEX);
    put_u64(&b, translator_fingerprint());
    put_str(&b, target);
    put_str(&b, options);
    for (i = 0; i < PyTuple_GET_SIZE(argcodes); i++)
        put_obj_str(&b, PyTuple_GET_ITEM(argcodes, i));
    put_func(&b, py_func, 0);
    if (!b.failed && !b.uncacheable)
        out = PyBytes_FromStringAndSize(b.p, (Py_ssize_t)b.n);
    else if (!b.failed)
        out = Py_NewRef(Py_None);
    PyMem_Free(b.p);
    return out;
}

/* ---- load and store ---------------------------------------------------- */

static void entry_name(PyObject *ident, char *name, size_t n)
{
    const char *p = PyBytes_AS_STRING(ident);
    size_t len = (size_t)PyBytes_GET_SIZE(ident);
    snprintf(name, n, "jit-%016llx%016llx",
             (unsigned long long)em_hash64(p, len, 0x6a6974),
             (unsigned long long)em_hash64(p, len, 0x656d626572));
}

static int valid_translation(PyObject *t)
{
    return PyTuple_CheckExact(t) && PyTuple_GET_SIZE(t) == 4 &&
           PyUnicode_Check(PyTuple_GET_ITEM(t, 0)) &&
           PyUnicode_Check(PyTuple_GET_ITEM(t, 1)) &&
           PyTuple_Check(PyTuple_GET_ITEM(t, 2));
}

PyObject *empy_jit_cache_load(PyObject *ident)
{
    char name[48];
    void *payload = NULL;
    size_t size = 0;
    em_status rc;
    PyObject *t;

    if (ident == Py_None)
        Py_RETURN_NONE;
    entry_name(ident, name, sizeof name);
    Py_BEGIN_ALLOW_THREADS
    rc = em_diskcache_load(name, PyBytes_AS_STRING(ident),
                           (size_t)PyBytes_GET_SIZE(ident), &payload, &size);
    Py_END_ALLOW_THREADS
    if (rc != EM_OK)
        Py_RETURN_NONE;
    t = PyMarshal_ReadObjectFromString(payload, (Py_ssize_t)size);
    free(payload);
    if (!t || !valid_translation(t)) {
        /* a payload of another layout: translate again, and overwrite */
        PyErr_Clear();
        Py_XDECREF(t);
        Py_RETURN_NONE;
    }
    return t;
}

void empy_jit_cache_store(PyObject *ident, PyObject *translation)
{
    char name[48];
    PyObject *m;
    if (ident == Py_None)
        return;
    m = PyMarshal_WriteObjectToString(translation, MARSHAL_V);
    if (!m) {
        PyErr_Clear();
        return;
    }
    entry_name(ident, name, sizeof name);
    Py_BEGIN_ALLOW_THREADS
    (void)em_diskcache_store(name, PyBytes_AS_STRING(ident),
                             (size_t)PyBytes_GET_SIZE(ident), PyBytes_AS_STRING(m),
                             (size_t)PyBytes_GET_SIZE(m));
    Py_END_ALLOW_THREADS
    Py_DECREF(m);
}
