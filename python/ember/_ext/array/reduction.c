/* ember Python extension: reductions (sum, mean, argmax, ...) over em_reduce.
 *
 * One table-driven argument parser serves every function and method: each
 * entry lists its parameters in NumPy's positional order and its
 * keyword-only ones. The input may be anything ember.asarray takes (a
 * list or a NumPy array goes to the current device); the result of a
 * reduction to 0-d is a 0-d ember array, as CuPy's. RuntimeWarnings follow
 * NumPy's: mean of an empty slice, degrees of freedom <= 0. nanmin,
 * nanmax, nanmean, nanvar and nanstd are entries _nanmin, ... here, whose
 * all-NaN warnings (a value read back) python/ember/_api/nanfunctions.py
 * adds, as it composes ptp. */
#include <math.h>
#include <string.h>

#include "ember/reduce.h"
#include "runtime/args.h"
#include "runtime/errors.h"
#include "array/ndarray.h"

enum {
    P_A,
    P_AXIS,
    P_DTYPE,
    P_OUT,
    P_KEEPDIMS,
    P_DDOF,
    P_INITIAL,
    P_WHERE,
    P_MEAN,
    P_CORRECTION,
    P_COUNT
};

static const char *const pnames[P_COUNT] = {
    "a",       "axis",  "dtype", "out",        "keepdims", "ddof",
    "initial", "where", "mean",  "correction"};

#define END (-1)

typedef struct spec {
    const char *name;
    int op;                /* em_reduce_op */
    signed char pos[8];    /* positional order (END-terminated) */
    signed char kwonly[6]; /* keyword-only (END-terminated) */
} spec;

#define SUM_POS                                                                \
    {                                                                          \
        P_A, P_AXIS, P_DTYPE, P_OUT, P_KEEPDIMS, P_INITIAL, P_WHERE, END       \
    }
#define MEAN_POS                                                               \
    {                                                                          \
        P_A, P_AXIS, P_DTYPE, P_OUT, P_KEEPDIMS, END                           \
    }
#define VAR_POS                                                                \
    {                                                                          \
        P_A, P_AXIS, P_DTYPE, P_OUT, P_DDOF, P_KEEPDIMS, END                   \
    }
#define MIN_POS                                                                \
    {                                                                          \
        P_A, P_AXIS, P_OUT, P_KEEPDIMS, P_INITIAL, P_WHERE, END                \
    }
#define ARG_POS                                                                \
    {                                                                          \
        P_A, P_AXIS, P_OUT, END                                                \
    }
#define ANY_POS                                                                \
    {                                                                          \
        P_A, P_AXIS, P_OUT, P_KEEPDIMS, END                                    \
    }

#define CNZ_POS {P_A, P_AXIS, END}
#define KW_NONE {END}
#define KW_WHERE {P_WHERE, END}
#define KW_VAR {P_WHERE, P_MEAN, P_CORRECTION, END}
#define KW_KEEP {P_KEEPDIMS, END}

/* Bind fastcall arguments to parameter slots. first: the first positional
 * slot (1 for methods, whose `a` is self). */
static int bind(const spec *sp, int first, PyObject *const *args,
                Py_ssize_t nargs, PyObject *kwnames, PyObject **v)
{
    int npos = 0;
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    memset(v, 0, P_COUNT * sizeof *v);
    while (sp->pos[first + npos] != END)
        npos++;
    if (nargs > npos) {
        PyErr_Format(PyExc_TypeError,
                     "%s() takes at most %d positional arguments (%zd given)",
                     sp->name, npos, nargs);
        return -1;
    }
    for (Py_ssize_t i = 0; i < nargs; i++)
        v[sp->pos[first + i]] = args[i];
    for (Py_ssize_t i = 0; i < nkw; i++) {
        const char *k = PyUnicode_AsUTF8(PyTuple_GET_ITEM(kwnames, i));
        int slot = -1;
        if (!k)
            return -1;
        for (int j = first; sp->pos[j] != END && slot < 0; j++)
            if (!strcmp(k, pnames[sp->pos[j]]))
                slot = sp->pos[j];
        for (int j = 0; sp->kwonly[j] != END && slot < 0; j++)
            if (!strcmp(k, pnames[sp->kwonly[j]]))
                slot = sp->kwonly[j];
        if (slot < 0) {
            PyErr_Format(PyExc_TypeError,
                         "%s() got an unexpected keyword argument '%s'",
                         sp->name, k);
            return -1;
        }
        if (v[slot]) {
            PyErr_Format(PyExc_TypeError,
                         "%s() got multiple values for argument '%s'", sp->name,
                         k);
            return -1;
        }
        v[slot] = args[nargs + i];
    }
    if (first == 0 && !v[P_A]) {
        PyErr_Format(PyExc_TypeError,
                     "%s() missing required argument 'a' (pos 1)", sp->name);
        return -1;
    }
    return 0;
}

typedef struct call {
    PyObject *a;   /* the input as an ndarray (new reference) */
    PyObject *out; /* borrowed, or NULL */
    int axes[EM_MAX_NDIM];
    em_reduce_args ra;
    int keepdims;
} call;

/* axis=: None, an int, or a tuple or list of them (bool is no axis, as in
 * NumPy); values past any ndim are clamped, still out of range. */
static int parse_axis(const spec *sp, PyObject *o, call *c)
{
    int arg = sp->op == EM_RED_ARGMIN || sp->op == EM_RED_ARGMAX ||
              sp->op == EM_RED_NANARGMIN || sp->op == EM_RED_NANARGMAX;
    int many = o && (PyTuple_Check(o) || PyList_Check(o));
    Py_ssize_t n = many ? PySequence_Fast_GET_SIZE(o) : 1;
    c->ra.axes = NULL;
    c->ra.naxes = 0;
    if (!o || o == Py_None)
        return 0;
    if (many && arg) {
        PyErr_Format(PyExc_TypeError, "'%.50s' object cannot be interpreted as an "
                     "integer (%s takes one axis or None)", Py_TYPE(o)->tp_name,
                     sp->name);
        return -1;
    }
    if (n > EM_MAX_NDIM) {
        PyErr_Format(PyExc_ValueError, "%s: too many axes (%zd)", sp->name, n);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *e = many ? PySequence_Fast_GET_ITEM(o, i) : o;
        int64_t v;
        /* a plain int, the usual axis, without the general path's calls */
        if (PyLong_CheckExact(e) ? (v = PyLong_AsLongLong(e)) == -1 && PyErr_Occurred()
                                 : empy_index_arg(e, "axis", 0, &v) < 0)
            return -1;
        c->axes[i] = (int)(v < -1000000 ? -1000000 : v > 1000000 ? 1000000 : v);
    }
    c->ra.axes = c->axes; /* an empty tuple reduces nothing */
    c->ra.naxes = (int)n;
    return 0;
}

static int parse(empy_state *st, const spec *sp, PyObject *self,
                 PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                 PyObject **v, call *c)
{
    memset(c, 0, sizeof *c);
    if (bind(sp, self ? 1 : 0, args, nargs, kwnames, v) < 0)
        return -1;
    if (self)
        v[P_A] = self;
    if (v[P_INITIAL]) {
        PyErr_Format(PyExc_NotImplementedError,
                     "ember.%s: initial= is not supported yet", sp->name);
        return -1;
    }
    if (v[P_WHERE] && v[P_WHERE] != Py_True) {
        PyErr_Format(PyExc_NotImplementedError,
                     "ember.%s: where= is not supported yet", sp->name);
        return -1;
    }
    if (v[P_MEAN] && v[P_MEAN] != Py_None) {
        PyErr_Format(PyExc_NotImplementedError,
                     "ember.%s: mean= is not supported yet", sp->name);
        return -1;
    }
    if (parse_axis(sp, v[P_AXIS], c) < 0)
        return -1;
    if (v[P_DTYPE] && v[P_DTYPE] != Py_None) {
        if (empy_dtype_arg(st, v[P_DTYPE], &c->ra.dtype) < 0)
            return -1;
        c->ra.has_dtype = 1;
    }
    if (v[P_KEEPDIMS]) {
        int k = PyObject_IsTrue(v[P_KEEPDIMS]);
        if (k < 0)
            return -1;
        c->ra.keepdims = c->keepdims = k;
    }
    if (v[P_DDOF] && v[P_CORRECTION]) {
        PyErr_Format(PyExc_ValueError,
                     "ember.%s: ddof and correction can't be provided "
                     "simultaneously.",
                     sp->name);
        return -1;
    }
    {
        PyObject *d = v[P_DDOF] ? v[P_DDOF] : v[P_CORRECTION];
        if (d && d != Py_None) {
            c->ra.ddof = PyFloat_AsDouble(d);
            if (c->ra.ddof == -1.0 && PyErr_Occurred())
                return -1;
        }
    }
    if (v[P_OUT] && v[P_OUT] != Py_None) {
        PyObject *o = v[P_OUT];
        if (PyTuple_Check(o) && PyTuple_GET_SIZE(o) == 1)
            o = PyTuple_GET_ITEM(o, 0);
        if (!empy_is_ndarray(o)) {
            PyErr_Format(PyExc_TypeError,
                         "ember.%s: out= must be an ember.ndarray, not %.100s",
                         sp->name, Py_TYPE(o)->tp_name);
            return -1;
        }
        c->out = o;
    }
    if (empy_is_ndarray(v[P_A])) {
        Py_INCREF(v[P_A]);
        c->a = v[P_A];
    } else {
        c->a = empy_asarray(st, v[P_A], -1,
                            c->out ? EMPY_ARR(c->out)->device : NULL,
                            EMPY_COPY_IF_NEEDED, 'K');
        if (!c->a)
            return -1;
    }
    return 0;
}

/* Reduced elements per output (for warnings), from the parsed axes. */
static int64_t reduced_count(const em_array *a, const em_reduce_args *ra)
{
    int64_t k = 1;
    if (!ra->axes) {
        return a->size;
    }
    for (int i = 0; i < ra->naxes; i++) {
        int ax = ra->axes[i] < 0 ? ra->axes[i] + a->ndim : ra->axes[i];
        if (ax >= 0 && ax < a->ndim)
            k *= a->shape[ax];
    }
    return k;
}

static int warn(const char *msg)
{
    return PyErr_WarnEx(PyExc_RuntimeWarning, msg, 1);
}

/* Run op on c into a new array or c->out; the result object. */
static PyObject *reduce_into(empy_state *st, em_reduce_op op, call *c,
                             PyObject *out)
{
    em_array res;
    empy_ndarray *o;
    em_status rc;
    if (out) {
        res = *EMPY_ARR(out);
        /* raw: a pending elementwise input may be computed inside the
         * reduction (src/fuse/reduce.c); every other path runs it first */
        EMPY_NOGIL(rc, em_reduce(op, EMPY_ARR_RAW(c->a), &c->ra, &res, NULL));
        if (rc != EM_OK)
            return empy_raise(st, rc);
        Py_INCREF(out);
        return out;
    }
    /* a new result is made in its object (empy_ndarray_fresh) */
    if (!(o = empy_ndarray_fresh(st)))
        return NULL;
    EMPY_NOGIL(rc, em_reduce(op, EMPY_ARR_RAW(c->a), &c->ra, &o->a, NULL));
    if (rc != EM_OK) {
        PyObject *e = empy_raise(st, rc);
        Py_DECREF(o);
        return e;
    }
    return empy_ndarray_fresh_done(st, o);
}

static PyObject *do_reduce(empy_state *st, const spec *sp, call *c)
{
    em_reduce_op op = (em_reduce_op)sp->op;
    PyObject *r = reduce_into(st, op, c, c->out);
    int64_t K;
    if (!r)
        return NULL;
    /* the shape only: EMPY_ARR would run a still-pending group, storing
     * the temporary a fused reduction just computed in registers (a whole
     * extra pass: ((a - b) ** 2).sum() read a and b twice) */
    K = reduced_count(EMPY_ARR_RAW(c->a), &c->ra);
    switch (op) {
    case EM_RED_MEAN:
        if (K == 0 && warn("Mean of empty slice.") < 0)
            goto fail;
        break;
    case EM_RED_VAR:
    case EM_RED_STD:
        if ((double)K - c->ra.ddof <= 0 &&
            warn("Degrees of freedom <= 0 for slice") < 0)
            goto fail;
        break;
    default:
        break;
    }
    return r;
fail:
    Py_DECREF(r);
    return NULL;
}

static PyObject *dispatch(empy_state *st, const spec *sp, PyObject *self,
                          PyObject *const *args, Py_ssize_t nargs,
                          PyObject *kwnames)
{
    PyObject *v[P_COUNT], *r;
    call c;
    if (parse(st, sp, self, args, nargs, kwnames, v, &c) < 0) {
        Py_XDECREF(c.a);
        return NULL;
    }
    r = do_reduce(st, sp, &c);
    Py_XDECREF(c.a);
    return r;
}

/* Each reduction: its spec (NumPy's parameter order) and module function;
 * METH adds the ndarray method over the same spec. */
#define FN(NAME, OP, POS, KWONLY)                                              \
    static const spec sp_##NAME = {#NAME, OP, POS, KWONLY};                    \
    static PyObject *fn_##NAME(PyObject *m, PyObject *const *args,             \
                               Py_ssize_t nargs, PyObject *kwnames)            \
    {                                                                          \
        return dispatch(empy_state_of_module(m), &sp_##NAME, NULL, args,       \
                        nargs, kwnames);                                       \
    }
#define METH(NAME)                                                             \
    static PyObject *nd_##NAME(PyObject *self, PyObject *const *args,          \
                               Py_ssize_t nargs, PyObject *kwnames)            \
    {                                                                          \
        return dispatch(empy_state_of(self), &sp_##NAME, self, args, nargs,    \
                        kwnames);                                              \
    }

FN(sum, EM_RED_SUM, SUM_POS, KW_NONE)
FN(prod, EM_RED_PROD, SUM_POS, KW_NONE)
FN(mean, EM_RED_MEAN, MEAN_POS, KW_WHERE)
FN(var, EM_RED_VAR, VAR_POS, KW_VAR)
FN(std, EM_RED_STD, VAR_POS, KW_VAR)
FN(min, EM_RED_MIN, MIN_POS, KW_NONE)
FN(max, EM_RED_MAX, MIN_POS, KW_NONE)
FN(amin, EM_RED_MIN, MIN_POS, KW_NONE)
FN(amax, EM_RED_MAX, MIN_POS, KW_NONE)
FN(argmin, EM_RED_ARGMIN, ARG_POS, KW_KEEP)
FN(argmax, EM_RED_ARGMAX, ARG_POS, KW_KEEP)
FN(any, EM_RED_ANY, ANY_POS, KW_WHERE)
FN(all, EM_RED_ALL, ANY_POS, KW_WHERE)
FN(count_nonzero, EM_RED_COUNT_NONZERO, CNZ_POS, KW_KEEP)
FN(nansum, EM_RED_NANSUM, SUM_POS, KW_NONE)
FN(nanprod, EM_RED_NANPROD, SUM_POS, KW_NONE)
FN(nanmean, EM_RED_NANMEAN, MEAN_POS, KW_WHERE)
FN(nanvar, EM_RED_NANVAR, VAR_POS, KW_VAR)
FN(nanstd, EM_RED_NANSTD, VAR_POS, KW_VAR)
FN(nanmin, EM_RED_NANMIN, MIN_POS, KW_NONE)
FN(nanmax, EM_RED_NANMAX, MIN_POS, KW_NONE)
FN(nanargmin, EM_RED_NANARGMIN, ARG_POS, KW_KEEP)
FN(nanargmax, EM_RED_NANARGMAX, ARG_POS, KW_KEEP)
METH(sum)
METH(prod)
METH(mean)
METH(var)
METH(std)
METH(min)
METH(max)
METH(argmin)
METH(argmax)
METH(any)
METH(all)

#define FENTRY(NAME, DOC) {#NAME, EMPY_FASTKW(fn_##NAME), DOC}
#define MENTRY(NAME, DOC) {#NAME, EMPY_FASTKW(nd_##NAME), DOC}

static PyMethodDef reduction_functions[] = {
    FENTRY(sum, "sum(a, axis=None, dtype=None, out=None, keepdims=False)\n--\n\n"
                "Sum of elements over the given axes (NumPy's accumulator dtypes)."),
    FENTRY(prod, "prod(a, axis=None, dtype=None, out=None, keepdims=False)\n--\n\n"
                 "Product of elements over the given axes."),
    FENTRY(mean, "mean(a, axis=None, dtype=None, out=None, keepdims=False)\n--\n\n"
                 "Arithmetic mean over the given axes."),
    FENTRY(var, "var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False)"
                "\n--\n\nVariance (divisor N - ddof)."),
    FENTRY(std, "std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False)"
                "\n--\n\nStandard deviation."),
    FENTRY(min, "min(a, axis=None, out=None, keepdims=False)\n--\n\n"
                "Minimum (NaN propagates)."),
    FENTRY(max, "max(a, axis=None, out=None, keepdims=False)\n--\n\n"
                "Maximum (NaN propagates)."),
    FENTRY(amin, "amin(a, axis=None, out=None, keepdims=False)\n--\n\nAlias of min."),
    FENTRY(amax, "amax(a, axis=None, out=None, keepdims=False)\n--\n\nAlias of max."),
    FENTRY(argmin, "argmin(a, axis=None, out=None, *, keepdims=False)\n--\n\n"
                   "Index of the first minimum (C-order flat index for axis=None)."),
    FENTRY(argmax, "argmax(a, axis=None, out=None, *, keepdims=False)\n--\n\n"
                   "Index of the first maximum."),
    FENTRY(any, "any(a, axis=None, out=None, keepdims=False)\n--\n\n"
                "Whether any element is nonzero."),
    FENTRY(all, "all(a, axis=None, out=None, keepdims=False)\n--\n\n"
                "Whether every element is nonzero."),
    FENTRY(count_nonzero, "count_nonzero(a, axis=None, *, keepdims=False)\n--\n\n"
                          "Number of nonzero elements."),
    FENTRY(nansum, "nansum(a, axis=None, dtype=None, out=None, keepdims=False)"
                   "\n--\n\nSum treating NaN as zero."),
    FENTRY(nanprod, "nanprod(a, axis=None, dtype=None, out=None, keepdims=False)"
                    "\n--\n\nProduct treating NaN as one."),
    FENTRY(nanargmin, "nanargmin(a, axis=None, out=None, *, keepdims=False)"
                      "\n--\n\nIndex of the minimum ignoring NaNs."),
    FENTRY(nanargmax, "nanargmax(a, axis=None, out=None, *, keepdims=False)"
                      "\n--\n\nIndex of the maximum ignoring NaNs."),
    {"_nanmean", EMPY_FASTKW(fn_nanmean), NULL},
    {"_nanvar", EMPY_FASTKW(fn_nanvar), NULL},
    {"_nanstd", EMPY_FASTKW(fn_nanstd), NULL},
    {"_nanmin", EMPY_FASTKW(fn_nanmin), NULL},
    {"_nanmax", EMPY_FASTKW(fn_nanmax), NULL},
    {NULL},
};

PyMethodDef empy_reduction_nd_methods[] = {
    MENTRY(sum, "sum(axis=None, dtype=None, out=None, keepdims=False)"),
    MENTRY(prod, "prod(axis=None, dtype=None, out=None, keepdims=False)"),
    MENTRY(mean, "mean(axis=None, dtype=None, out=None, keepdims=False)"),
    MENTRY(var, "var(axis=None, dtype=None, out=None, ddof=0, keepdims=False)"),
    MENTRY(std, "std(axis=None, dtype=None, out=None, ddof=0, keepdims=False)"),
    MENTRY(min, "min(axis=None, out=None, keepdims=False)"),
    MENTRY(max, "max(axis=None, out=None, keepdims=False)"),
    MENTRY(argmin, "argmin(axis=None, out=None, *, keepdims=False)"),
    MENTRY(argmax, "argmax(axis=None, out=None, *, keepdims=False)"),
    MENTRY(any, "any(axis=None, out=None, keepdims=False)"),
    MENTRY(all, "all(axis=None, out=None, keepdims=False)"),
    {NULL},
};

int empy_reduction_init(PyObject *m, empy_state *st)
{
    (void)st;
    return PyModule_AddFunctions(m, reduction_functions);
}
