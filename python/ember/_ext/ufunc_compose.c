/* ember Python extension: NumPy's elementwise functions that are not one
 * kernel but a few ufunc calls — real, imag, clip, round/around, divmod,
 * angle, deg2rad/radians, rad2deg/degrees, nan_to_num, the two-output
 * ufuncs modf and frexp.
 *
 * Each is composed from the ember ufuncs in C (no Python frame), so it has
 * their type resolution (NEP 50: a Python scalar takes the array's dtype),
 * their devices and their errors. They cost one launch per step; fusing
 * them into one kernel belongs to the fusion work that comes later. */
#include <float.h>
#include <math.h>
#include <string.h>
#include "module.h"
#include "errors.h"
#include "ndarray.h"

/* One ufunc call: new reference, NULL with an exception. out may be NULL. */
static PyObject *uf1(empy_state *st, em_op op, PyObject *a, PyObject *out)
{
    return empy_ufunc_call(st, op, &a, 1, out, NULL);
}

static PyObject *uf2(empy_state *st, em_op op, PyObject *a, PyObject *b, PyObject *out)
{
    PyObject *in[2] = {a, b};
    return empy_ufunc_call(st, op, in, 2, out, NULL);
}

/* An ember array of anything array-like (new reference). */
static PyObject *as_array(empy_state *st, PyObject *o)
{
    return empy_asarray(st, o, -1, NULL, EMPY_COPY_IF_NEEDED, 'K');
}

/* The loop and result dtypes of the one-input op o over the array x. */
static em_status resolve_unary(em_op o, PyObject *x, em_dtype *loop, em_dtype *res)
{
    em_operand op;
    memset(&op, 0, sizeof op);
    op.array = EMPY_ARR(x);
    op.dtype = op.array->dtype;
    return em_ufunc_resolve(o, &op, 1, loop, res);
}

static em_dtype_kind kind_of(PyObject *x)
{
    return em_dtype_get(EMPY_ARR(x)->dtype)->kind_id;
}

/* out[...] = x, returning out (new reference). */
static PyObject *assign_out(PyObject *out, PyObject *x)
{
    if (!empy_is_ndarray(out)) {
        PyErr_Format(PyExc_TypeError, "out must be an ember array, not %.100s",
                     Py_TYPE(out)->tp_name);
        return NULL;
    }
    if (PyObject_SetItem(out, Py_Ellipsis, x) < 0)
        return NULL;
    return Py_NewRef(out);
}

static PyObject *none_to_null(PyObject *o)
{
    return o == Py_None ? NULL : o;
}

/* ---- real, imag ---------------------------------------------------------- */

static PyObject *part(PyObject *m, PyObject *val, const char *which)
{
    PyObject *x = as_array(empy_state_of_module(m), val), *r;
    if (!x)
        return NULL;
    r = PyObject_GetAttrString(x, which);
    Py_DECREF(x);
    return r;
}

static PyObject *mod_real(PyObject *m, PyObject *val)
{
    return part(m, val, "real");
}

static PyObject *mod_imag(PyObject *m, PyObject *val)
{
    return part(m, val, "imag");
}

/* ---- clip ---------------------------------------------------------------- */

/* Whether a Python int bound cannot clip an integer array at all (a lower
 * bound below its dtype's range, an upper one above it): NumPy 2 drops
 * such bounds instead of raising OverflowError as the ufuncs would. */
static int int_bound_inert(PyObject *x, PyObject *bound, int lower)
{
    em_dtype d = EMPY_ARR(x)->dtype;
    em_dtype_kind k = em_dtype_get(d)->kind_id;
    int bits = 8 * (int)em_dtype_size(d), r;
    PyObject *lim;
    if (!PyLong_CheckExact(bound) || (k != EM_KIND_INT && k != EM_KIND_UINT))
        return 0;
    if (lower)
        /* -2^(bits-1), without negating INT64_MIN */
        lim = k == EM_KIND_UINT
                  ? PyLong_FromLong(0)
                  : PyLong_FromLongLong(-1 - (long long)((1ULL << (bits - 1)) - 1));
    else
        lim = PyLong_FromUnsignedLongLong(
            k == EM_KIND_UINT ? (bits == 64 ? ~0ULL : (1ULL << bits) - 1)
                              : (1ULL << (bits - 1)) - 1);
    if (!lim)
        return -1;
    r = PyObject_RichCompareBool(bound, lim, lower ? Py_LT : Py_GT);
    Py_DECREF(lim);
    return r;
}

/* clip(a, min, max, out=None, *, a_min=, a_max=): maximum then minimum, so
 * NaN propagates and min > max gives max, as in NumPy. The bounds by
 * position are the Array API's min and max (its signature test reads the
 * names); NumPy's keywords a_min and a_max are taken as keywords. */
static PyObject *mod_clip(PyObject *m, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"a", "min", "max", "out", "a_min", "a_max", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *a, *lo = NULL, *hi = NULL, *out = Py_None, *kmin = NULL, *kmax = NULL;
    PyObject *r, *t;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|OOO$OO:clip", kwlist, &a, &lo, &hi,
                                     &out, &kmin, &kmax))
        return NULL;
    if ((lo && kmin) || (hi && kmax)) {
        PyErr_SetString(PyExc_TypeError, "clip: pass a_min or min, a_max or max, "
                        "not both");
        return NULL;
    }
    lo = none_to_null(lo ? lo : kmin);
    hi = none_to_null(hi ? hi : kmax);
    out = none_to_null(out);
    if (!(t = as_array(st, a)))
        return NULL;
    {
        int li = lo ? int_bound_inert(t, lo, 1) : 0;
        int hn = hi ? int_bound_inert(t, hi, 0) : 0;
        if (li < 0 || hn < 0) {
            Py_DECREF(t);
            return NULL;
        }
        if (li)
            lo = NULL;
        if (hn)
            hi = NULL;
    }
    if (!lo && !hi) {
        r = out ? assign_out(out, t) : empy_asarray(st, t, -1, NULL, EMPY_COPY_ALWAYS, 'K');
        Py_DECREF(t);
        return r;
    }
    a = t;
    r = lo ? uf2(st, EM_OP_MAXIMUM, a, lo, hi ? NULL : out) : Py_NewRef(a);
    Py_DECREF(t);
    if (r && hi) {
        t = uf2(st, EM_OP_MINIMUM, r, hi, out);
        Py_DECREF(r);
        r = t;
    }
    return r;
}

/* ---- round --------------------------------------------------------------- */

/* Round a real float array p in place at 10**-decimals (f = 10**|decimals|),
 * scaling it first unless `scaled`, and write the result scaled back into
 * dst (p itself or out=). */
static int round_real(empy_state *st, PyObject *p, PyObject *f, int decimals, int scaled,
                      PyObject *dst)
{
    PyObject *t;
    if (!scaled) {
        t = uf2(st, decimals > 0 ? EM_OP_MULTIPLY : EM_OP_TRUE_DIVIDE, p, f, p);
        if (!t)
            return -1;
        Py_DECREF(t);
    }
    t = uf1(st, EM_OP_RINT, p, p);
    if (!t)
        return -1;
    Py_DECREF(t);
    t = uf2(st, decimals > 0 ? EM_OP_TRUE_DIVIDE : EM_OP_MULTIPLY, p, f, dst);
    Py_XDECREF(t);
    return t ? 0 : -1;
}

/* NumPy's rule: scale by 10**|decimals|, round half to even, scale back;
 * integers are returned as they are for decimals >= 0 and go through
 * float64 otherwise. */
static PyObject *round_impl(empy_state *st, PyObject *a, int decimals, PyObject *out)
{
    PyObject *x, *f = NULL, *y = NULL, *z = NULL, *r = NULL;
    em_dtype_kind k;
    out = none_to_null(out);
    if (!(x = as_array(st, a)))
        return NULL;
    k = kind_of(x);
    if (k != EM_KIND_FLOAT && k != EM_KIND_COMPLEX && decimals >= 0) {
        r = out ? assign_out(out, x) : empy_asarray(st, x, -1, NULL, EMPY_COPY_ALWAYS, 'K');
        Py_DECREF(x);
        return r;
    }
    if (decimals == 0) {
        r = uf1(st, EM_OP_RINT, x, out);
        Py_DECREF(x);
        return r;
    }
    /* fabs of the double: -INT_MIN is not an int */
    f = PyFloat_FromDouble(pow(10.0, fabs((double)decimals)));
    if (!f)
        goto done;
    if (k != EM_KIND_FLOAT && k != EM_KIND_COMPLEX) {
        /* integers, decimals < 0: through float64, back to their dtype */
        PyObject *c = NULL;
        if ((y = uf2(st, EM_OP_TRUE_DIVIDE, x, f, NULL)) &&
            (z = uf1(st, EM_OP_RINT, y, y))) {
            Py_DECREF(z);
            z = uf2(st, EM_OP_MULTIPLY, y, f, y);
        }
        if (z)
            c = empy_asarray(st, z, (int)EMPY_ARR(x)->dtype, NULL, EMPY_COPY_IF_NEEDED,
                             'K');
        if (c && out) {
            r = assign_out(out, c);
            Py_DECREF(c);
        } else {
            r = c;
        }
        goto done;
    }
    if (k == EM_KIND_COMPLEX) {
        /* Each part on its own, as NumPy: a complex product with f would
         * turn an infinite part times f's zero imaginary part into NaN. */
        PyObject *c = empy_asarray(st, x, -1, NULL, EMPY_COPY_ALWAYS, 'K');
        int i, ok = c != NULL;
        for (i = 0; ok && i < 2; i++) {
            PyObject *p = PyObject_GetAttrString(c, i ? "imag" : "real");
            ok = p && round_real(st, p, f, decimals, 0, p) == 0;
            Py_XDECREF(p);
        }
        if (ok && out) {
            r = assign_out(out, c);
            Py_DECREF(c);
        } else if (ok) {
            r = c;
        } else {
            Py_XDECREF(c);
        }
        goto done;
    }
    y = uf2(st, decimals > 0 ? EM_OP_MULTIPLY : EM_OP_TRUE_DIVIDE, x, f, NULL);
    if (y && round_real(st, y, f, decimals, 1, out ? out : y) == 0)
        r = Py_NewRef(out ? out : y);
done:
    Py_XDECREF(f);
    Py_XDECREF(y);
    Py_XDECREF(z);
    Py_DECREF(x);
    return r;
}

static PyObject *mod_round(PyObject *m, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"a", "decimals", "out", NULL};
    PyObject *a, *out = Py_None;
    int decimals = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|iO:round", kwlist, &a, &decimals, &out))
        return NULL;
    return round_impl(empy_state_of_module(m), a, decimals, out);
}

/* a.round(decimals=0, out=None). (NumPy's arrays have no __round__, so
 * neither have ember's.) */
static PyObject *nd_round(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"decimals", "out", NULL};
    PyObject *out = Py_None;
    int decimals = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|iO:round", kwlist, &decimals, &out))
        return NULL;
    return round_impl(empy_state_of(self), self, decimals, out);
}

PyMethodDef empy_compose_nd_methods[] = {
    {"round", (PyCFunction)(void (*)(void))nd_round, METH_VARARGS | METH_KEYWORDS,
     "round(decimals=0, out=None): ember.round(a, decimals, out)."},
    {NULL},
};

/* ---- divmod, angle ------------------------------------------------------- */

static PyObject *mod_divmod(PyObject *m, PyObject *args)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *a, *b, *q, *rem;
    if (!PyArg_ParseTuple(args, "OO:divmod", &a, &b))
        return NULL;
    if (!(q = uf2(st, EM_OP_FLOOR_DIVIDE, a, b, NULL)))
        return NULL;
    if (!(rem = uf2(st, EM_OP_REMAINDER, a, b, NULL))) {
        Py_DECREF(q);
        return NULL;
    }
    return Py_BuildValue("(NN)", q, rem);
}

static PyObject *mod_angle(PyObject *m, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"z", "deg", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *z, *x, *re = NULL, *im = NULL, *r = NULL;
    int deg = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|p:angle", kwlist, &z, &deg))
        return NULL;
    if (!(x = as_array(st, z)))
        return NULL;
    if (kind_of(x) == EM_KIND_COMPLEX) {
        re = PyObject_GetAttrString(x, "real");
        im = re ? PyObject_GetAttrString(x, "imag") : NULL;
    } else {
        /* NumPy: arctan2(0, z), the 0 a weak Python int */
        re = Py_NewRef(x);
        im = PyLong_FromLong(0);
    }
    if (im)
        r = uf2(st, EM_OP_ARCTAN2, im, re, NULL);
    if (r && deg) {
        PyObject *c = PyFloat_FromDouble(180.0 / 3.14159265358979323846);
        PyObject *t = c ? uf2(st, EM_OP_MULTIPLY, r, c, r) : NULL;
        Py_XDECREF(c);
        Py_XDECREF(t);
        if (!t)
            Py_CLEAR(r);
    }
    Py_XDECREF(re);
    Py_XDECREF(im);
    Py_DECREF(x);
    return r;
}

/* ---- degrees and radians ------------------------------------------------- */

/* x * c in the float type NumPy's one-input float loops pick (sqrt's: int8
 * and bool give float16, int16 float32, wider ints float64); complex has
 * no loop. */
static PyObject *scale_float(PyObject *m, PyObject *args, PyObject *kw, const char *name,
                             double c)
{
    static char *kwlist[] = {"x", "out", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *val, *out = Py_None, *x, *y, *cf, *r = NULL;
    em_dtype loop, res;
    em_status rc;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|O", kwlist, &val, &out))
        return NULL;
    if (!(x = as_array(st, val)))
        return NULL;
    rc = resolve_unary(EM_OP_SQRT, x, &loop, &res);
    if (rc != EM_OK || em_dtype_get(res)->kind_id == EM_KIND_COMPLEX) {
        PyErr_Format(PyExc_TypeError, "ufunc '%s' not supported for the input "
                     "types (%s)", name, em_dtype_get(EMPY_ARR(x)->dtype)->name);
        Py_DECREF(x);
        return NULL;
    }
    y = empy_asarray(st, x, (int)res, NULL, EMPY_COPY_IF_NEEDED, 'K');
    cf = y ? PyFloat_FromDouble(c) : NULL;
    if (cf)
        r = uf2(st, EM_OP_MULTIPLY, y, cf, none_to_null(out));
    Py_XDECREF(cf);
    Py_XDECREF(y);
    Py_DECREF(x);
    return r;
}

#define EMPY_PI 3.14159265358979323846

static PyObject *mod_deg2rad(PyObject *m, PyObject *args, PyObject *kw)
{
    return scale_float(m, args, kw, "deg2rad", EMPY_PI / 180.0);
}

static PyObject *mod_radians(PyObject *m, PyObject *args, PyObject *kw)
{
    return scale_float(m, args, kw, "radians", EMPY_PI / 180.0);
}

static PyObject *mod_rad2deg(PyObject *m, PyObject *args, PyObject *kw)
{
    return scale_float(m, args, kw, "rad2deg", 180.0 / EMPY_PI);
}

static PyObject *mod_degrees(PyObject *m, PyObject *args, PyObject *kw)
{
    return scale_float(m, args, kw, "degrees", 180.0 / EMPY_PI);
}

/* ---- nan_to_num ---------------------------------------------------------- */

static double largest(em_dtype d)
{
    switch (d) {
    case EM_FLOAT16: return 65504.0;
    case EM_BFLOAT16: return 3.3895313892515355e38;
    case EM_FLOAT32: return FLT_MAX;
    default: return DBL_MAX;
    }
}

/* p[mask] = value, with mask = op(p, cmp) (or isnan(p) when cmp is NULL). */
static int replace_where(empy_state *st, PyObject *p, em_op op, PyObject *cmp,
                         PyObject *value)
{
    PyObject *mask, *v, *r = NULL;
    mask = cmp ? uf2(st, op, p, cmp, NULL) : uf1(st, EM_OP_ISNAN, p, NULL);
    if (!mask)
        return -1;
    v = empy_asarray(st, value, (int)EMPY_ARR(p)->dtype, EMPY_ARR(p)->device,
                     EMPY_COPY_IF_NEEDED, 'K');
    if (v) {
        PyObject *in[1] = {v};
        r = empy_ufunc_call(st, EM_OP_POSITIVE, in, 1, p, mask);
    }
    Py_XDECREF(v);
    Py_DECREF(mask);
    Py_XDECREF(r);
    return r ? 0 : -1;
}

static PyObject *mod_nan_to_num(PyObject *m, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"x", "copy", "nan", "posinf", "neginf", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *val, *nan_v = NULL, *posinf = Py_None, *neginf = Py_None;
    PyObject *x, *res, *parts[2] = {NULL, NULL}, *pinf = NULL, *ninf = NULL;
    int copy = 1, n, i, ok = 0;
    em_dtype_kind k;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|pOOO:nan_to_num", kwlist, &val, &copy,
                                     &nan_v, &posinf, &neginf))
        return NULL;
    if (!(x = as_array(st, val)))
        return NULL;
    k = kind_of(x);
    if (k != EM_KIND_FLOAT && k != EM_KIND_COMPLEX) {
        if (!copy)
            return x;
        res = empy_asarray(st, x, -1, NULL, EMPY_COPY_ALWAYS, 'K');
        Py_DECREF(x);
        return res;
    }
    res = copy ? empy_asarray(st, x, -1, NULL, EMPY_COPY_ALWAYS, 'K') : Py_NewRef(x);
    Py_DECREF(x);
    if (!res)
        return NULL;
    if (k == EM_KIND_COMPLEX) {
        n = 2;
        parts[0] = PyObject_GetAttrString(res, "real");
        parts[1] = parts[0] ? PyObject_GetAttrString(res, "imag") : NULL;
    } else {
        n = 1;
        parts[0] = Py_NewRef(res);
    }
    pinf = PyFloat_FromDouble(INFINITY);
    ninf = PyFloat_FromDouble(-INFINITY);
    if (!parts[n - 1] || !pinf || !ninf)
        goto done;
    for (i = 0; i < n; i++) {
        double big = largest(EMPY_ARR(parts[i])->dtype);
        PyObject *zero = PyFloat_FromDouble(0.0);
        PyObject *hi = posinf == Py_None ? PyFloat_FromDouble(big) : Py_NewRef(posinf);
        PyObject *lo = neginf == Py_None ? PyFloat_FromDouble(-big) : Py_NewRef(neginf);
        int rc = zero && hi && lo &&
                 replace_where(st, parts[i], EM_OP_ISNAN, NULL, nan_v ? nan_v : zero) == 0 &&
                 replace_where(st, parts[i], EM_OP_EQUAL, pinf, hi) == 0 &&
                 replace_where(st, parts[i], EM_OP_EQUAL, ninf, lo) == 0;
        Py_XDECREF(zero);
        Py_XDECREF(hi);
        Py_XDECREF(lo);
        if (!rc)
            goto done;
    }
    ok = 1;
done:
    Py_XDECREF(parts[0]);
    Py_XDECREF(parts[1]);
    Py_XDECREF(pinf);
    Py_XDECREF(ninf);
    if (!ok)
        Py_CLEAR(res);
    return res;
}

/* ---- modf, frexp ------------------------------------------------------- */

/* The out= of a two-output ufunc: positional outs after x, or out= as a
 * tuple of two (None for a fresh array). */
static int two_outs(PyObject *pos1, PyObject *pos2, PyObject *kw_out, const char *name,
                    PyObject **o1, PyObject **o2)
{
    *o1 = none_to_null(pos1);
    *o2 = none_to_null(pos2);
    if (!kw_out || kw_out == Py_None)
        return 0;
    if (pos1 || pos2) {
        PyErr_Format(PyExc_TypeError, "%s: cannot specify 'out' as both a positional "
                     "and keyword argument", name);
        return -1;
    }
    if (!PyTuple_Check(kw_out) || PyTuple_GET_SIZE(kw_out) != 2) {
        PyErr_Format(PyExc_ValueError, "%s: out must be a tuple of two arrays (or "
                     "None), one per output", name);
        return -1;
    }
    *o1 = none_to_null(PyTuple_GET_ITEM(kw_out, 0));
    *o2 = none_to_null(PyTuple_GET_ITEM(kw_out, 1));
    return 0;
}

static int shares_storage(PyObject *out, PyObject *x)
{
    return out && empy_is_ndarray(out) && EMPY_ARR(out)->storage == EMPY_ARR(x)->storage;
}

/* NumPy's modf and frexp: two one-output ops over one input. The loop is
 * resolved once, under the public name, so a bad dtype is "ufunc 'modf'
 * not supported ...". The input is read by two kernels, so it is copied
 * first when an out= array shares its memory (modf(x, out=(x, y)) must
 * see x as it was). */
static PyObject *two_output(PyObject *m, PyObject *args, PyObject *kw, const char *name,
                            em_op first, em_op second)
{
    static char *kwlist[] = {"x", "out1", "out2", "out", "where", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *val, *p1 = NULL, *p2 = NULL, *kout = NULL, *where = NULL, *o1, *o2;
    PyObject *x, *xc = NULL, *r1 = NULL, *r2 = NULL;
    char fmt[32];
    em_dtype loop, res;
    snprintf(fmt, sizeof fmt, "O|OO$OO:%s", name);
    if (!PyArg_ParseTupleAndKeywords(args, kw, fmt, kwlist, &val, &p1, &p2, &kout, &where))
        return NULL;
    if (two_outs(p1, p2, kout, name, &o1, &o2) < 0)
        return NULL;
    if (!(x = as_array(st, val)))
        return NULL;
    if (resolve_unary(first, x, &loop, &res) != EM_OK) {
        PyErr_Format(PyExc_TypeError, "ufunc '%s' not supported for the input type %s",
                     name, em_dtype_get(EMPY_ARR(x)->dtype)->name);
        Py_DECREF(x);
        return NULL;
    }
    /* modf's integral part is trunc in the loop's float type (trunc of an
     * integer array would stay integer). */
    xc = empy_asarray(st, x, second == EM_OP_TRUNC ? (int)loop : -1, NULL,
                      shares_storage(o1, x) || shares_storage(o2, x)
                          ? EMPY_COPY_ALWAYS
                          : EMPY_COPY_IF_NEEDED,
                      'K');
    Py_DECREF(x);
    if (!xc)
        return NULL;
    if ((r1 = empy_ufunc_call(st, first, &xc, 1, o1, where)))
        r2 = empy_ufunc_call(st, second, &xc, 1, o2, where);
    Py_DECREF(xc);
    if (!r2) {
        Py_XDECREF(r1);
        return NULL;
    }
    return Py_BuildValue("(NN)", r1, r2);
}

static PyObject *mod_modf(PyObject *m, PyObject *args, PyObject *kw)
{
    return two_output(m, args, kw, "modf", EM_OP_MODF_FRAC, EM_OP_TRUNC);
}

static PyObject *mod_frexp(PyObject *m, PyObject *args, PyObject *kw)
{
    return two_output(m, args, kw, "frexp", EM_OP_FREXP_MANT, EM_OP_FREXP_EXP);
}

#define KW(f) (PyCFunction)(void (*)(void))(f), METH_VARARGS | METH_KEYWORDS

static PyMethodDef compose_functions[] = {
    {"real", mod_real, METH_O, "real(val): the real parts (a view for complex arrays)."},
    {"imag", mod_imag, METH_O, "imag(val): the imaginary parts."},
    {"clip", KW(mod_clip),
     "clip($module, a, min=None, max=None, out=None, *, a_min=None, a_max=None)\n"
     "--\n\nminimum(maximum(a, a_min), a_max), as numpy.clip and the Array "
     "API's clip."},
    {"round", KW(mod_round),
     "round(a, decimals=0, out=None): round half to even at 10**-decimals."},
    {"around", KW(mod_round), "around(a, decimals=0, out=None): ember.round."},
    {"divmod", mod_divmod, METH_VARARGS,
     "divmod(x1, x2): (floor_divide(x1, x2), remainder(x1, x2))."},
    {"angle", KW(mod_angle), "angle(z, deg=False): the argument of z."},
    {"deg2rad", KW(mod_deg2rad), "deg2rad(x, out=None): degrees to radians."},
    {"radians", KW(mod_radians), "radians(x, out=None): degrees to radians."},
    {"rad2deg", KW(mod_rad2deg), "rad2deg(x, out=None): radians to degrees."},
    {"degrees", KW(mod_degrees), "degrees(x, out=None): radians to degrees."},
    {"nan_to_num", KW(mod_nan_to_num),
     "nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None): NaN and "
     "infinities replaced by finite numbers (real and imaginary parts alike)."},
    {"modf", KW(mod_modf),
     "modf(x, out1=None, out2=None, /, *, out=None, where=True): (fractional "
     "part, integral part), both with x's sign."},
    {"frexp", KW(mod_frexp),
     "frexp(x, out1=None, out2=None, /, *, out=None, where=True): (mantissa, "
     "int32 exponent) with x = mantissa * 2**exponent, 0.5 <= |mantissa| < 1."},
    {NULL},
};

int empy_ufunc_compose_init(PyObject *m, empy_state *st)
{
    return PyModule_AddFunctions(m, compose_functions);
}
