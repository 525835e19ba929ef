/* ember Python extension: Python device functions as ember.parallel
 * operators (see parallel_devfn.h). */
#include <string.h>

#include "runtime/errors.h"
#include "jit/jit.h"
#include "parallel/parallel_devfn.h"

_Static_assert(EM_DTYPE_COUNT <= 16, "cache keys hold a dtype in 4 bits");

int empy_par_is_devfn(empy_state *st, PyObject *o)
{
    return st->DeviceFunction && PyObject_TypeCheck(o, st->DeviceFunction);
}

/* The contract's type code of a value dtype (docs/jit-design.md section
 * 1), NULL for dtypes whose C type differs between the scan kernels and
 * the translator (float16 is bits there, complex a struct). */
static const char *code_of(em_dtype dt, char *buf)
{
    const em_dtype_info *i = em_dtype_get(dt);
    if (!i || (i->kind != 'b' && i->kind != 'i' && i->kind != 'u' &&
               !(i->kind == 'f' && (i->size == 4 || i->size == 8))) ||
        dt == EM_BFLOAT16)
        return NULL;
    snprintf(buf, 8, "%c%d", i->kind, (int)i->size);
    return buf;
}

static PyObject *fname(PyObject *f)
{
    return PyObject_GetAttrString(f, "__name__");
}

static int unsupported(PyObject *f, const char *fn, em_dtype dt)
{
    PyObject *nm = fname(f);
    if (nm) {
        PyErr_Format(PyExc_NotImplementedError,
                     "%s: device function '%U' on %s values is not supported "
                     "(bool, the integer types, float32 and float64 are)",
                     fn, nm, em_dtype_get(dt) ? em_dtype_get(dt)->name : "?");
        Py_DECREF(nm);
    }
    return -1;
}

/* f's cache dict (a borrowed reference, stored on the device function so
 * that it lives and dies with it), NULL with an exception. */
static PyObject *cache_of(PyObject *f)
{
    static PyObject *attr;
    PyObject *d;
    if (!attr && !(attr = PyUnicode_InternFromString("__ember_parallel_ops__")))
        return NULL;
    if ((d = PyObject_GetAttr(f, attr))) {
        Py_DECREF(d); /* the function's __dict__ holds it */
        if (PyDict_Check(d))
            return d;
        PyErr_SetString(PyExc_TypeError,
                        "a device function's __ember_parallel_ops__ "
                        "attribute was replaced");
        return NULL;
    }
    if (!PyErr_ExceptionMatches(PyExc_AttributeError))
        return NULL;
    PyErr_Clear();
    if (!(d = PyDict_New()))
        return NULL;
    if (PyObject_SetAttr(f, attr, d) < 0) {
        Py_DECREF(d);
        return NULL;
    }
    Py_DECREF(d);
    return d;
}

/* translate_device(py_func, codes) -> (source, c_name, result code). */
static PyObject *translate(PyObject *f, PyObject *codes)
{
    PyObject *mod = empy_jit_module(), *r, *pf;
    if (!mod)
        return NULL;
    pf = PyObject_GetAttrString(f, "py_func");
    r = pf ? PyObject_CallMethod(mod, "translate_device", "OO", pf, codes) : NULL;
    Py_XDECREF(pf);
    Py_DECREF(mod);
    if (r && (!PyTuple_Check(r) || PyTuple_GET_SIZE(r) != 3 ||
              !PyUnicode_Check(PyTuple_GET_ITEM(r, 0)) ||
              !PyUnicode_Check(PyTuple_GET_ITEM(r, 1)) ||
              !PyUnicode_Check(PyTuple_GET_ITEM(r, 2)))) {
        Py_DECREF(r);
        PyErr_SetString(PyExc_SystemError, "ember.jit.translate_device gave "
                                           "no (source, name, result) triple");
        return NULL;
    }
    return r;
}

/* "SOURCE" EM_PAR_PRELUDE_SEP "name(ARGS)SUFFIX" as bytes (src NULL: the
 * expression alone). */
static PyObject *joined(PyObject *src, PyObject *name, const char *args,
                        const char *suffix)
{
    const char *s = src ? PyUnicode_AsUTF8(src) : "";
    const char *n = PyUnicode_AsUTF8(name);
    if (!s || !n)
        return NULL;
    if (src && strchr(s, EM_PAR_PRELUDE_SEP)) {
        PyErr_SetString(PyExc_SystemError, "a translated device function "
                                           "holds a control character");
        return NULL;
    }
    return PyBytes_FromFormat("%s%s%s(%s)%s", s, src ? "\x1e" : "", n, args,
                              suffix);
}

static int check_cast(PyObject *f, const char *fn, em_dtype res, em_dtype want,
                      const char *what)
{
    PyObject *nm;
    if (em_dtype_can_cast(res, want, EM_CASTING_SAME_KIND))
        return 0;
    if ((nm = fname(f))) {
        PyErr_Format(PyExc_TypeError,
                     "%s: device function '%U' returns %s%s, which does not "
                     "cast to the value type %s (same_kind casting): make it "
                     "return %s, or give the values another dtype",
                     fn, nm, em_dtype_get(res)->name, what,
                     em_dtype_get(want)->name, em_dtype_get(want)->name);
        Py_DECREF(nm);
    }
    return -1;
}

/* The result code as a dtype, -1 with a TypeError. */
static int result_dtype(PyObject *f, const char *fn, const char *code,
                        em_dtype *out)
{
    PyObject *nm;
    char buf[8];
    if (em_dtype_from_name(code, out) == EM_OK && code_of(*out, buf))
        return 0;
    if ((nm = fname(f))) {
        PyErr_Format(PyExc_TypeError,
                     "%s: device function '%U' returns %s, not a scalar of "
                     "a supported type (bool, an integer, float32 or "
                     "float64)",
                     fn, nm, strcmp(code, "none") ? code : "nothing");
        Py_DECREF(nm);
    }
    return -1;
}

/* What an entry is made from, for make_expr and make_tuple. */
typedef struct {
    const char *fn;       /* the ember.parallel function, for errors */
    const char *code;     /* make_expr: the argument code */
    int n;                /* make_expr: the argument count; make_tuple:
                           * the components */
    const em_dtype *dts;  /* make_tuple: the component dtypes */
} entry_spec;

/* f's cache entry under key (a new reference): the one kept, or the one
 * make builds (translating f), kept for the next call. NULL with an
 * exception. */
static PyObject *cached_entry(PyObject *f, PyObject *key,
                              PyObject *(*make)(PyObject *f, const entry_spec *sp),
                              const entry_spec *sp)
{
    PyObject *cache = cache_of(f), *ent;
    if (!cache)
        return NULL;
    if ((ent = PyDict_GetItemWithError(cache, key)))
        return Py_NewRef(ent);
    if (PyErr_Occurred() || !(ent = make(f, sp)))
        return NULL;
    if (PyDict_SetItem(cache, key, ent) < 0)
        Py_CLEAR(ent);
    return ent;
}

/* (expression, result dtype) of f over sp->n arguments of code sp->code. */
static PyObject *make_expr(PyObject *f, const entry_spec *sp)
{
    PyObject *codes, *tr = NULL, *e = NULL, *ent = NULL;
    const char *code;
    char args[40];
    em_dtype r;
    if (!(codes = PyTuple_New(sp->n)))
        return NULL;
    for (int k = 0; k < sp->n; k++) {
        PyObject *c = PyUnicode_FromString(sp->code);
        if (!c)
            goto done;
        PyTuple_SET_ITEM(codes, k, c);
    }
    if (!(tr = translate(f, codes)))
        goto done;
    code = PyUnicode_AsUTF8(PyTuple_GET_ITEM(tr, 2));
    if (!code || result_dtype(f, sp->fn, code, &r) < 0)
        goto done;
    args[0] = 0;
    for (int k = 0; k < sp->n; k++)
        snprintf(args + strlen(args), sizeof args - strlen(args), "%s%c",
                 k ? ", " : "", 'a' + k);
    if ((e = joined(PyTuple_GET_ITEM(tr, 0), PyTuple_GET_ITEM(tr, 1), args, "")))
        ent = Py_BuildValue("(Oi)", e, (int)r);
done:
    Py_DECREF(codes);
    Py_XDECREF(tr);
    Py_XDECREF(e);
    return ent;
}

int empy_par_devfn_expr(empy_state *st, PyObject *f, const char *fn,
                        em_dtype dt, int nargs, int want, const char **expr,
                        em_dtype *res, PyObject **keep)
{
    entry_spec sp = {fn, NULL, nargs, NULL};
    PyObject *key, *ent;
    char buf[8];
    *keep = NULL;
    if (nargs < 1 || nargs > 8) {
        PyErr_Format(PyExc_ValueError, "%s: 1 to 8 inputs, not %d", fn, nargs);
        return -1;
    }
    if (!(sp.code = code_of(dt, buf)))
        return unsupported(f, fn, dt);
    /* an even key below 256: one of CPython's preallocated ints, so the
     * hit path allocates nothing (tuple keys are odd) */
    if (!(key = PyLong_FromLong(((long)(nargs - 1) << 4 | (long)dt) << 1)))
        return -1;
    ent = cached_entry(f, key, make_expr, &sp);
    Py_DECREF(key);
    if (!ent)
        return -1;
    *res = (em_dtype)PyLong_AsLong(PyTuple_GET_ITEM(ent, 1));
    if (want >= 0 && check_cast(f, fn, *res, (em_dtype)want, "") < 0) {
        Py_DECREF(ent);
        return -1;
    }
    *expr = PyBytes_AS_STRING(PyTuple_GET_ITEM(ent, 0));
    *keep = ent;
    return 0;
}

/* The n component dtypes of a tuple result code "(f4,i8)". */
static int tuple_result(PyObject *f, const char *fn, const char *code, int n,
                        const em_dtype *want)
{
    const char *p = code;
    char one[16];
    PyObject *nm;
    int k = 0;
    if (*p++ == '(')
        for (; k < n; k++) {
            size_t l = strcspn(p, ",)");
            em_dtype r;
            if (!l || l >= sizeof one)
                break;
            memcpy(one, p, l);
            one[l] = 0;
            if (result_dtype(f, fn, one, &r) < 0)
                return -1;
            if (check_cast(f, fn, r, want[k], " in a tuple component") < 0)
                return -1;
            p += l;
            if (*p == ')' ? k != n - 1 : *p != ',')
                break;
            p++;
        }
    if (k == n && !*p)
        return 0;
    if ((nm = fname(f))) {
        PyErr_Format(PyExc_TypeError,
                     "%s: device function '%U' returns %s for tuple values "
                     "of %d components: return a tuple of %d scalars",
                     fn, nm, strcmp(code, "none") ? code : "nothing", n, n);
        Py_DECREF(nm);
    }
    return -1;
}

/* The n component expressions of f over tuple values of dtypes sp->dts. */
static PyObject *make_tuple(PyObject *f, const entry_spec *sp)
{
    PyObject *codes, *tr = NULL, *ent;
    const char *code;
    char buf[8], args[64];
    int n = sp->n;
    if (!(codes = PyTuple_New(2 * n)))
        return NULL;
    if (!(ent = PyTuple_New(n)))
        goto fail;
    for (int k = 0; k < 2 * n; k++) {
        PyObject *c = PyUnicode_FromString(code_of(sp->dts[k % n], buf));
        if (!c)
            goto fail;
        PyTuple_SET_ITEM(codes, k, c);
    }
    if (!(tr = translate(f, codes)) ||
        !(code = PyUnicode_AsUTF8(PyTuple_GET_ITEM(tr, 2))) ||
        tuple_result(f, sp->fn, code, n, sp->dts) < 0)
        goto fail;
    args[0] = 0;
    for (int k = 0; k < 2 * n; k++)
        snprintf(args + strlen(args), sizeof args - strlen(args),
                 "%s%c%d", k ? ", " : "", k < n ? 'a' : 'b', k % n);
    for (int k = 0; k < n; k++) {
        char sfx[16];
        PyObject *e;
        snprintf(sfx, sizeof sfx, ".f%d", k & 0xff);
        if (!(e = joined(k ? NULL : PyTuple_GET_ITEM(tr, 0),
                         PyTuple_GET_ITEM(tr, 1), args, sfx)))
            goto fail;
        PyTuple_SET_ITEM(ent, k, e);
    }
    Py_DECREF(codes);
    Py_DECREF(tr);
    return ent;
fail:
    Py_XDECREF(ent);
    Py_DECREF(codes);
    Py_XDECREF(tr);
    return NULL;
}

int empy_par_devfn_tuple(empy_state *st, PyObject *f, const char *fn, int n,
                         const em_dtype *dts, const char **exprs,
                         PyObject **keep)
{
    entry_spec sp = {fn, NULL, n, dts};
    unsigned long long kv = 1ull | (unsigned long long)n << 1;
    PyObject *key, *ent;
    char buf[8];
    *keep = NULL;
    for (int k = 0; k < n; k++) {
        if (!code_of(dts[k], buf))
            return unsupported(f, fn, dts[k]);
        kv |= (unsigned long long)dts[k] << (8 + 8 * k);
    }
    if (!(key = PyLong_FromUnsignedLongLong(kv)))
        return -1;
    ent = cached_entry(f, key, make_tuple, &sp);
    Py_DECREF(key);
    if (!ent)
        return -1;
    for (int k = 0; k < n; k++)
        exprs[k] = PyBytes_AS_STRING(PyTuple_GET_ITEM(ent, k));
    *keep = ent;
    return 0;
}
