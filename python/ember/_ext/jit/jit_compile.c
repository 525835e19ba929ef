/* ember Python extension: the specialisations of ember.cuda.jit kernels
 * (the slow path of a launch). A miss on a dispatcher's list translates
 * the kernel with ember.jit.translate (imported only then), or finds the
 * translation in the disk index (jit_cache.c), compiles it through the
 * kernel cache (NVRTC on cuda, the C compiler on cpu), checks the loaded
 * kernel's parameters against the flattened ABI of docs/jit-design.md and
 * publishes the entry, which launches then find with no Python code. */
#include <string.h>
#include "jit/jit.h"
#include "runtime/errors.h"

/* The kernel cache's generator version for jit kernels: the source is the
 * translator's, so this changes only if the dispatcher's use of it does. */
#define JIT_GEN_VERSION 1u

/* ---- translation and compilation (the slow path) ------------------------ */

PyObject *empy_jit_argcodes(const uint32_t *codes, int n)
{
    PyObject *t = PyTuple_New(n);
    int i;
    for (i = 0; t && i < n; i++) {
        char buf[24];
        PyObject *s;
        empy_jcode_str(codes[i], buf, sizeof buf);
        if (!(s = PyUnicode_FromString(buf))) {
            Py_CLEAR(t);
            break;
        }
        PyTuple_SET_ITEM(t, i, s);
    }
    return t;
}

static PyObject *attr_or(PyObject *o, const char *a, const char *b)
{
    PyObject *v = PyObject_GetAttrString(o, a);
    if (!v && b && PyErr_ExceptionMatches(PyExc_AttributeError)) {
        PyErr_Clear();
        v = PyObject_GetAttrString(o, b);
    }
    return v;
}

/* One site as a plain tuple (array, file, line), whatever the translator
 * hands out (tuples, or objects with those attributes), so it marshals. */
static PyObject *plain_site(PyObject *s)
{
    PyObject *a, *f, *l, *t;
    if (s == Py_None)
        return Py_NewRef(s);
    if (PyTuple_Check(s) || PyList_Check(s))
        return PySequence_Tuple(s);
    a = attr_or(s, "array", "name");
    f = a ? attr_or(s, "file", "filename") : NULL;
    l = f ? attr_or(s, "line", "lineno") : NULL;
    t = l ? PyTuple_Pack(3, a, f, l) : NULL;
    Py_XDECREF(a);
    Py_XDECREF(f);
    Py_XDECREF(l);
    return t;
}

/* The site table as a tuple indexed by site id. */
static PyObject *plain_sites(PyObject *sites)
{
    PyObject *seq, *out;
    Py_ssize_t i, n;
    if (!sites || sites == Py_None)
        return PyTuple_New(0);
    if (PyDict_Check(sites)) {
        PyObject *k, *v;
        Py_ssize_t pos = 0, max = -1;
        while (PyDict_Next(sites, &pos, &k, &v)) {
            Py_ssize_t id = PyLong_AsSsize_t(k);
            if (id < 0) {
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_ValueError, "negative site id");
                return NULL;
            }
            if (id > max)
                max = id;
        }
        out = PyTuple_New(max + 1);
        for (i = 0; out && i <= max; i++)
            PyTuple_SET_ITEM(out, i, Py_NewRef(Py_None));
        pos = 0;
        while (out && PyDict_Next(sites, &pos, &k, &v)) {
            PyObject *p = plain_site(v);
            if (!p) {
                Py_CLEAR(out);
                break;
            }
            i = PyLong_AsSsize_t(k);
            Py_SETREF(PyTuple_GET_ITEM(out, i), p);
        }
        return out;
    }
    if (!(seq = PySequence_Fast(sites, "Translation.sites must be a sequence or dict")))
        return NULL;
    n = PySequence_Fast_GET_SIZE(seq);
    out = PyTuple_New(n);
    for (i = 0; out && i < n; i++) {
        PyObject *p = plain_site(PySequence_Fast_GET_ITEM(seq, i));
        if (!p)
            Py_CLEAR(out);
        else
            PyTuple_SET_ITEM(out, i, p);
    }
    Py_DECREF(seq);
    return out;
}

PyObject *empy_jit_module(void)
{
    return PyImport_ImportModule("ember.jit");
}

/* Translate with ember.jit.translate into (source, name, sites, shared). */
static PyObject *translate(empy_Dispatcher *k, PyObject *argcodes, const char *target)
{
    PyObject *mod, *fn, *args = NULL, *kw = NULL, *res = NULL, *out = NULL;
    PyObject *src = NULL, *name = NULL, *sites = NULL, *shd = NULL, *psites = NULL;

    if (!(mod = empy_jit_module()))
        return NULL;
    fn = PyObject_GetAttrString(mod, "translate");
    Py_DECREF(mod);
    if (!fn)
        return NULL;
    args = PyTuple_Pack(2, k->py_func, argcodes);
    kw = Py_BuildValue("{s:O,s:s,s:O}", "debug", k->debug ? Py_True : Py_False, "target",
                       target, "boundscheck", k->boundscheck < 0 ? Py_None
                                              : k->boundscheck ? Py_True : Py_False);
    if (args && kw)
        res = PyObject_Call(fn, args, kw);
    Py_DECREF(fn);
    Py_XDECREF(args);
    Py_XDECREF(kw);
    if (!res)
        return NULL;
    src = PyObject_GetAttrString(res, "source");
    name = src ? PyObject_GetAttrString(res, "name") : NULL;
    sites = name ? PyObject_GetAttrString(res, "sites") : NULL;
    if (sites) {
        shd = PyObject_GetAttrString(res, "shared_dynamic");
        if (!shd && PyErr_ExceptionMatches(PyExc_AttributeError)) {
            PyErr_Clear();
            shd = Py_NewRef(Py_False);
        }
    }
    if (shd && (!PyUnicode_Check(src) || !PyUnicode_Check(name)))
        PyErr_Format(PyExc_TypeError, "ember.jit.translate returned source %.50s and "
                     "name %.50s; both must be str", Py_TYPE(src)->tp_name,
                     Py_TYPE(name)->tp_name);
    else if (shd && (psites = plain_sites(sites)) != NULL)
        out = Py_BuildValue("(OOOO)", src, name, psites,
                            PyObject_IsTrue(shd) ? Py_True : Py_False);
    Py_XDECREF(psites);
    Py_XDECREF(src);
    Py_XDECREF(name);
    Py_XDECREF(sites);
    Py_XDECREF(shd);
    Py_DECREF(res);
    return out;
}

/* The translation for (target, argcodes): this dispatcher's, else the
 * disk index's, else the translator's (then stored in both). */
static PyObject *get_translation(empy_Dispatcher *k, PyObject *argcodes, const char *target)
{
    PyObject *tkey = Py_BuildValue("(sO)", target, argcodes), *t, *ident = NULL;
    if (!tkey)
        return NULL;
    t = PyDict_GetItemWithError(k->translations, tkey);
    if (t) {
        Py_DECREF(tkey);
        return Py_NewRef(t);
    }
    if (PyErr_Occurred())
        goto fail;
    if (k->cache) {
        if (!(ident = empy_jit_cache_ident(k->py_func, argcodes, target, k->optstr)))
            goto fail;
        if (!(t = empy_jit_cache_load(ident)))
            goto fail;
        if (t == Py_None)
            Py_CLEAR(t);
    }
    if (!t) {
        if (!(t = translate(k, argcodes, target)))
            goto fail;
        if (ident)
            empy_jit_cache_store(ident, t);
    }
    Py_XDECREF(ident);
    if (PyDict_SetItem(k->translations, tkey, t) < 0) {
        Py_DECREF(t);
        Py_DECREF(tkey);
        return NULL;
    }
    Py_DECREF(tkey);
    return t;
fail:
    Py_XDECREF(ident);
    Py_DECREF(tkey);
    return NULL;
}

void empy_jit_entry_free(empy_jit_entry *e)
{
    if (e->err_dev)
        (void)em_free(e->dev, e->err_dev, NULL);
    if (e->grid_dev)
        (void)em_free(e->dev, e->grid_dev, NULL);
    Py_XDECREF(e->trans);
    PyMem_RawFree(e);
}

static empy_jit_entry *entry_alloc(int n)
{
    empy_jit_entry *e = PyMem_RawCalloc(1, sizeof *e + 2 * (size_t)(n ? n : 1) * sizeof(uint32_t));
    if (!e) {
        PyErr_NoMemory();
        return NULL;
    }
    e->nargs = n;
    e->pcode = e->key + n;
    return e;
}

static void entry_publish(empy_Dispatcher *k, empy_jit_entry *e)
{
    EMPY_JIT_LOCK(k);
    e->next = k->entries;
    EMPY_STORE_RELEASE(k->entries, e);
    EMPY_JIT_UNLOCK(k);
}

static int abi_error(empy_state *st, empy_Dispatcher *k, PyObject *argcodes, const char *what,
                     long got, long want)
{
    PyErr_Format(st->CompileError, "kernel '%U' for %R: the translated kernel has %s "
                 "%ld where the parameter ABI (docs/jit-design.md) needs %ld", k->name,
                 argcodes, what, got, want);
    return -1;
}

/* Compile the specialisation for pcode on d, selected by the call codes
 * key; published in k's list. */
empy_jit_entry *empy_jit_build(empy_state *st, empy_Dispatcher *k, em_device *d,
                              const uint32_t *key, const uint32_t *pcode)
{
    int is_cpu = em_device_get_type(d) == EM_DEVICE_CPU, n = k->nargs;
    const char *target = is_cpu ? "cpu" : "cuda", *opts[5], *src, *kname;
    PyObject *argcodes, *t;
    em_module *mod;
    em_function *fn;
    empy_jit_entry *e;
    char *log = NULL;
    int nopts = 0, expected = 0, pc, i, j, p, grid_sync;
    em_status rc;

    if (!(argcodes = empy_jit_argcodes(pcode, n)))
        return NULL;
    t = get_translation(k, argcodes, target);
    if (!t) {
        Py_DECREF(argcodes);
        return NULL;
    }
    if (!is_cpu && k->fastmath)
        opts[nopts++] = "--use_fast_math";
    if (!is_cpu && k->lineinfo)
        opts[nopts++] = "-lineinfo";
    if (!k->opt)
        opts[nopts++] = is_cpu ? "-O0" : "-G";
    if (!is_cpu && k->maxreg)
        opts[nopts++] = k->regopt;
    src = PyUnicode_AsUTF8(PyTuple_GET_ITEM(t, 0));
    kname = PyUnicode_AsUTF8(PyTuple_GET_ITEM(t, 1));
    if (!src || !kname)
        goto fail;
    /* CUDA C++ files linked by cuda.declare_device (ember/jit/module.py's
     * mark): on cpu the kernel and they compile as C++ together */
    if (is_cpu && strstr(src, "/* ember.jit: linked CUDA C++ */"))
        opts[nopts++] = EM_HOST_OPTION_CXX;
    Py_BEGIN_ALLOW_THREADS
    rc = em_kernel_cache_get(d, src, 0, opts, nopts, JIT_GEN_VERSION, &mod, &log);
    Py_END_ALLOW_THREADS
    if (rc != EM_OK) {
        empy_raise_compile(st, rc, log, src);
        free(log);
        goto fail;
    }
    free(log);
    if ((rc = em_module_get_function(mod, kname, &fn)) != EM_OK) {
        empy_raise(st, rc);
        goto fail;
    }
    for (i = 0; i < n; i++)
        expected += empy_jcode_nparams(pcode[i]);
    /* grid.sync()'s barrier, a hidden parameter (ember.jit's prelude
     * defines this function only for kernels that call it) */
    grid_sync = strstr(src, "__emjit_grid_sync(") != NULL;
    expected += grid_sync;
    pc = em_function_param_count(fn);
    if (pc >= 0 && pc != expected && pc != expected + 1) {
        abi_error(st, k, argcodes, "parameter count", pc, expected);
        goto fail;
    }
    /* Sizes too, where the code says: a mismatch would be a crash. */
    for (i = 0, p = 0; pc >= 0 && i < n; i++) {
        for (j = 0; j < empy_jcode_nparams(pcode[i]); j++, p++) {
            size_t sz = em_function_param_size(fn, p);
            if (sz != (size_t)-1 && sz != 0 && sz != empy_jcode_param_size(pcode[i], j)) {
                char what[64];
                snprintf(what, sizeof what, "parameter %d of size", p);
                abi_error(st, k, argcodes, what, (long)sz,
                          (long)empy_jcode_param_size(pcode[i], j));
                goto fail;
            }
        }
    }
    if (!(e = entry_alloc(n)))
        goto fail;
    e->dev = d;
    e->fn = fn;
    e->trans = t;
    e->kname = kname;
    e->nparams = expected;
    e->has_err = pc == expected + 1;
    e->is_cpu = is_cpu;
    e->grid_sync = grid_sync;
    memcpy(e->key, key, sizeof *key * (size_t)n);
    memcpy(e->pcode, pcode, sizeof *pcode * (size_t)n);
    if (e->has_err && !is_cpu) {
        rc = em_malloc(d, EMPY_JIT_ERR_SLOTS * sizeof(long long), NULL, &e->err_dev);
        if (rc != EM_OK) {
            e->trans = NULL;
            empy_jit_entry_free(e);
            empy_raise(st, rc);
            goto fail;
        }
    }
    if (grid_sync && !is_cpu &&
        (rc = em_malloc(d, sizeof(unsigned int), NULL, &e->grid_dev)) != EM_OK) {
        e->trans = NULL;
        empy_jit_entry_free(e);
        empy_raise(st, rc);
        goto fail;
    }
    Py_DECREF(argcodes);
    entry_publish(k, e);
    return e;
fail:
    Py_DECREF(t);
    Py_DECREF(argcodes);
    return NULL;
}

int empy_jit_matches(const empy_jit_entry *e, em_device *d, const uint32_t *key, int n)
{
    return e->dev == d && memcmp(e->key, key, sizeof *key * (size_t)n) == 0;
}

empy_jit_entry *empy_jit_find(empy_Dispatcher *k, em_device *d, const uint32_t *key)
{
    empy_jit_entry *e;
    for (e = EMPY_LOAD_ACQUIRE(k->entries); e; e = e->next)
        if (empy_jit_matches(e, d, key, k->nargs))
            return e;
    return NULL;
}

int empy_jit_sig_codes(PyObject *argcodes, uint32_t *codes, int n)
{
    int i;
    for (i = 0; i < n; i++)
        if (empy_jcode_parse(PyTuple_GET_ITEM(argcodes, i), &codes[i]) < 0)
            return -1;
    return 0;
}

/* Explicit signatures: the compiled signature that accepts these codes
 * (compiling the signatures for d first), shared under the call's key. */
empy_jit_entry *empy_jit_explicit(empy_state *st, empy_Dispatcher *k, em_device *d,
                                 const uint32_t *key)
{
    uint32_t codes[EMPY_JIT_MAX_ARGS];
    Py_ssize_t s;
    empy_jit_entry *e, *alias;
    int n = k->nargs, i;

    for (s = 0; s < PyList_GET_SIZE(k->sigs); s++) {
        if (empy_jit_sig_codes(PyList_GET_ITEM(k->sigs, s), codes, n) < 0)
            return NULL;
        if (!empy_jit_find(k, d, codes) && !empy_jit_build(st, k, d, codes, codes))
            return NULL;
    }
    for (e = EMPY_LOAD_ACQUIRE(k->entries); e; e = e->next) {
        if (e->dev != d)
            continue;
        for (i = 0; i < n && empy_jcode_accepts(e->pcode[i], key[i]); i++)
            ;
        if (i == n)
            break;
    }
    if (!e) {
        PyObject *have = empy_jit_argcodes(key, n);
        if (have)
            PyErr_Format(PyExc_TypeError, "kernel '%U': no matching definition for "
                         "argument types %R (compiled for %R)", k->name, have, k->sigs);
        Py_XDECREF(have);
        return NULL;
    }
    if (!(alias = entry_alloc(n)))
        return NULL;
    memcpy(alias, e, sizeof *e);
    alias->next = NULL;
    alias->pcode = alias->key + n;
    memcpy(alias->key, key, sizeof *key * (size_t)n);
    memcpy(alias->pcode, e->pcode, sizeof *key * (size_t)n);
    Py_INCREF(alias->trans);
    alias->err_dev = alias->grid_dev = NULL;    /* its own, freed with it */
    if (alias->has_err && !alias->is_cpu) {
        em_status rc = em_malloc(d, EMPY_JIT_ERR_SLOTS * sizeof(long long), NULL, &alias->err_dev);
        if (rc != EM_OK) {
            alias->err_dev = NULL;
            empy_jit_entry_free(alias);
            empy_raise(st, rc);
            return NULL;
        }
    }
    if (alias->grid_sync && !alias->is_cpu) {
        em_status rc = em_malloc(d, sizeof(unsigned int), NULL, &alias->grid_dev);
        if (rc != EM_OK) {
            alias->grid_dev = NULL;
            empy_jit_entry_free(alias);
            empy_raise(st, rc);
            return NULL;
        }
    }
    entry_publish(k, alias);
    return alias;
}
