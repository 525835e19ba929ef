/* ember Python extension: the specialisations of ember.cuda.jit kernels
 * (the slow path of a launch). A miss on a dispatcher's list asks the
 * Python subclass for the translation (python/ember/cuda/dispatcher.py:
 * its own, the disk index's or ember.jit's), compiles it through the
 * kernel cache (NVRTC on cuda, the C compiler on cpu), checks the loaded
 * kernel's parameters against the flattened ABI of docs/jit-design.md and
 * publishes the entry, which launches then find with no Python code. */
#include <string.h>
#include <time.h>
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

PyObject *empy_jit_module(void)
{
    return PyImport_ImportModule("ember.jit");
}

/* The translation for (target, argcodes), from the Python subclass (the
 * dispatcher's own, the disk index's or the translator's), checked since
 * launches read it without checks. */
static PyObject *get_translation(empy_Dispatcher *k, PyObject *argcodes, const char *target)
{
    PyObject *t = PyObject_CallMethod((PyObject *)k, "_translation", "Os", argcodes, target);
    if (t && !(PyTuple_CheckExact(t) && PyTuple_GET_SIZE(t) == 4 &&
               PyUnicode_Check(PyTuple_GET_ITEM(t, 0)) &&
               PyUnicode_Check(PyTuple_GET_ITEM(t, 1)) && PyTuple_Check(PyTuple_GET_ITEM(t, 2)))) {
        PyErr_Format(PyExc_TypeError, "kernel '%s': _translation gave %R, not (source, "
                     "name, sites, shared_dynamic)", k->kname, t);
        Py_CLEAR(t);
    }
    return t;
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
    PyObject *argcodes, *t, *done;
    struct timespec t0, t1;
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
    clock_gettime(CLOCK_MONOTONIC, &t0);
    Py_BEGIN_ALLOW_THREADS
    rc = em_kernel_cache_get(d, src, 0, opts, nopts, JIT_GEN_VERSION, &mod, &log);
    Py_END_ALLOW_THREADS
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (rc != EM_OK) {
        empy_raise_compile(st, rc, log, src);
        free(log);
        goto fail;
    }
    free(log);
    /* once per specialisation, not per launch: the subclass keeps the
     * compile time for EMBER_COMPILE_LOG and ember.jit.compile_times() */
    done = PyObject_CallMethod((PyObject *)k, "_compiled", "Osdn", argcodes, target,
                               (double)(t1.tv_sec - t0.tv_sec) +
                               (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9,
                               (Py_ssize_t)strlen(src));
    if (!done)
        goto fail;
    Py_DECREF(done);
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

/* Explicit signatures: the signatures are compiled for d first, as Numba
 * does at decoration; the Python subclass picks the one that accepts the
 * call's codes (or raises "no matching definition"), whose kernel is then
 * published under the call's key (a memory hit in the kernel cache). */
int empy_jit_precompile(empy_state *st, empy_Dispatcher *k, em_device *d)
{
    uint32_t codes[EMPY_JIT_MAX_ARGS];
    Py_ssize_t s;
    for (s = 0; k->sigs && s < PyList_GET_SIZE(k->sigs); s++) {
        if (empy_jit_sig_codes(PyList_GET_ITEM(k->sigs, s), codes, k->nargs) < 0)
            return -1;
        if (!empy_jit_find(k, d, codes) && !empy_jit_build(st, k, d, codes, codes))
            return -1;
    }
    return 0;
}

empy_jit_entry *empy_jit_explicit(empy_state *st, empy_Dispatcher *k, em_device *d,
                                  const uint32_t *key)
{
    uint32_t codes[EMPY_JIT_MAX_ARGS];
    PyObject *have, *want;
    int n = k->nargs, rc;

    if (empy_jit_precompile(st, k, d) < 0 || !(have = empy_jit_argcodes(key, n)))
        return NULL;
    want = PyObject_CallMethod((PyObject *)k, "_explicit", "(O)", have);
    Py_DECREF(have);
    if (!want)
        return NULL;
    if (!PyTuple_Check(want) || PyTuple_GET_SIZE(want) != n) {
        PyErr_Format(PyExc_TypeError, "_explicit gave %R, not %d argcodes", want, n);
        Py_DECREF(want);
        return NULL;
    }
    rc = empy_jit_sig_codes(want, codes, n);
    Py_DECREF(want);
    return rc < 0 ? NULL : empy_jit_build(st, k, d, key, codes);
}
