/* ember Python extension: joining, flipping and rolling arrays,
 * diagonals, the shape functions NumPy has as module functions (moveaxis,
 * expand_dims, broadcast_arrays, atleast_1d, ...) and the entry of pad's
 * kernels. The split family, tile and pad's arguments are Python
 * (python/ember/_api/splitting.py, manip.py, pad.py).
 *
 * Views are built here as layouts over the argument's storage; everything
 * that writes memory is one call of include/ember/manip.h. */
#include <string.h>
#include "array/manip_args.h"

/* ---- lists of arrays ---------------------------------------------------- */

typedef struct {
    PyObject **o;      /* new references */
    Py_ssize_t n;
} arrlist;

static void arrlist_free(arrlist *L)
{
    Py_ssize_t i;
    for (i = 0; i < L->n; i++)
        Py_XDECREF(L->o[i]);
    PyMem_Free(L->o);
    L->o = NULL;
    L->n = 0;
}

/* The items of seq as ember arrays. Items that are not ember arrays go to
 * the device of the first item that is (else the current device), so
 * concatenate([x_gpu, [1, 2]]) stays on x's device; ember arrays keep
 * their own, and the C call names both devices when they differ. */
static int arrlist_of(empy_state *st, PyObject *seq, const char *fname, arrlist *L)
{
    PyObject *fast;
    em_device *dev = NULL;
    Py_ssize_t i, n;
    L->o = NULL;
    L->n = 0;
    /* an ndarray is a sequence of its rows, as in NumPy */
    if (!empy_is_ndarray(seq) && (!PySequence_Check(seq) || PyUnicode_Check(seq))) {
        PyErr_Format(PyExc_TypeError, "%s() needs a sequence of arrays, not %.100s",
                     fname, Py_TYPE(seq)->tp_name);
        return -1;
    }
    fast = PySequence_Fast(seq, "");
    if (!fast)
        return -1;
    n = PySequence_Fast_GET_SIZE(fast);
    for (i = 0; i < n && !dev; i++) {
        PyObject *e = PySequence_Fast_GET_ITEM(fast, i);
        if (empy_is_ndarray(e))
            dev = EMPY_ARR(e)->device;
    }
    L->o = PyMem_Calloc((size_t)(n ? n : 1), sizeof(PyObject *));
    if (!L->o) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return -1;
    }
    for (i = 0; i < n; i++) {
        L->o[i] = manip_array(st, PySequence_Fast_GET_ITEM(fast, i), dev);
        L->n = i + 1;
        if (!L->o[i]) {
            Py_DECREF(fast);
            arrlist_free(L);
            return -1;
        }
    }
    L->n = n;
    Py_DECREF(fast);
    return 0;
}

/* ---- layouts (borrowed: no reference of their own) ---------------------- */

/* a with an extent-1 axis inserted at `at`. */
static void insert_axis(const em_array *a, int at, em_array *v)
{
    int i;
    *v = *a;
    for (i = a->ndim; i > at; i--) {
        v->shape[i] = a->shape[i - 1];
        v->strides[i] = a->strides[i - 1];
    }
    v->shape[at] = 1;
    v->strides[at] = 0;
    v->ndim = a->ndim + 1;
    em_array_update_flags(v);
    v->flags |= a->flags & EM_ARRAY_WRITEABLE;
}

/* NumPy's atleast_1d/2d/3d layouts (k = 1, 2, 3) and column_stack's
 * columns (k = -2: a 1-D array becomes (n, 1)). */
static void at_least(const em_array *a, int k, em_array *v)
{
    em_array t;
    *v = *a;
    switch (k) {
    case 1:
        if (a->ndim == 0)
            insert_axis(a, 0, v);
        break;
    case 2:
        if (a->ndim == 0) {
            insert_axis(a, 0, &t);
            insert_axis(&t, 0, v);
        } else if (a->ndim == 1) {
            insert_axis(a, 0, v);
        }
        break;
    case -2:
        if (a->ndim == 0) {
            insert_axis(a, 0, &t);
            insert_axis(&t, 0, v);
        } else if (a->ndim == 1) {
            insert_axis(a, 1, v);
        }
        break;
    case 3:
        if (a->ndim == 0) {
            insert_axis(a, 0, &t);
            insert_axis(&t, 0, v);
            t = *v;
            insert_axis(&t, 0, v);
        } else if (a->ndim == 1) {
            insert_axis(a, 0, &t);
            insert_axis(&t, 2, v);
        } else if (a->ndim == 2) {
            insert_axis(a, 2, v);
        }
        break;
    }
}

/* ---- concatenate and the stacks ----------------------------------------- */

static int casting_arg(PyObject *o, em_casting *out)
{
    static const char *const names[] = {"no", "equiv", "safe", "same_kind", "unsafe"};
    const char *s;
    int i;
    if (!manip_given(o)) {
        *out = EM_CASTING_SAME_KIND;
        return 0;
    }
    s = PyUnicode_Check(o) ? PyUnicode_AsUTF8(o) : NULL;
    for (i = 0; s && i < 5; i++) {
        if (!strcmp(s, names[i])) {
            *out = (em_casting)i;
            return 0;
        }
    }
    if (!PyErr_Occurred())
        PyErr_Format(PyExc_ValueError, "casting must be one of 'no', 'equiv', "
                     "'safe', 'same_kind', or 'unsafe'");
    return -1;
}

/* Concatenate n layouts (borrowed from arrays the caller holds). */
static PyObject *join(empy_state *st, const em_array *lay, Py_ssize_t n, int64_t axis,
                      PyObject *out_o, PyObject *dtype_o, PyObject *casting_o)
{
    const em_array *ptrs[64], **p = ptrs;
    em_casting casting;
    em_dtype dt;
    int dtype = -1;
    em_array res;
    em_status rc;
    Py_ssize_t i;
    if (n == 0) {
        PyErr_SetString(PyExc_ValueError, "need at least one array to concatenate");
        return NULL;
    }
    if (casting_arg(casting_o, &casting) < 0)
        return NULL;
    if (manip_given(dtype_o)) {
        if (manip_given(out_o)) {
            PyErr_SetString(PyExc_TypeError, "concatenate() only takes `out` or "
                            "`dtype` as an argument, but both were provided.");
            return NULL;
        }
        if (empy_dtype_arg(st, dtype_o, &dt) < 0)
            return NULL;
        dtype = (int)dt;
    }
    if (manip_given(out_o) && !empy_is_ndarray(out_o)) {
        PyErr_Format(PyExc_TypeError, "out must be an ember.ndarray, not %.100s",
                     Py_TYPE(out_o)->tp_name);
        return NULL;
    }
    if (n > 64 && !(p = PyMem_Malloc(sizeof(*p) * (size_t)n)))
        return PyErr_NoMemory();
    for (i = 0; i < n; i++)
        p[i] = &lay[i];
    if (axis < INT32_MIN || axis > INT32_MAX)
        axis = INT32_MAX;
    if (manip_given(out_o)) {
        EMPY_NOGIL(rc, em_array_concatenate(p, (int)n, (int)axis, -1, casting,
                                            EMPY_ARR(out_o), NULL));
        if (p != ptrs)
            PyMem_Free(p);
        if (rc != EM_OK)
            return empy_raise(st, rc);
        return Py_NewRef(out_o);
    }
    memset(&res, 0, sizeof res);
    EMPY_NOGIL(rc, em_array_concatenate(p, (int)n, (int)axis, dtype, casting,
                                        &res, NULL));
    if (p != ptrs)
        PyMem_Free(p);
    return manip_result(st, rc, &res);
}

/* A flat C-order view or copy of a (NumPy's ravel), as an ndarray. */
static PyObject *raveled(PyObject *a)
{
    return PyObject_CallMethod(a, "ravel", NULL);
}

/* kind: 0 plain, 1..3 atleast_Nd, -2 column_stack columns, 'S' stack. */
static PyObject *join_list(empy_state *st, const char *fname, PyObject *seq, int kind,
                           int64_t axis, int axis_none, PyObject *out_o,
                           PyObject *dtype_o, PyObject *casting_o)
{
    arrlist L;
    em_array *lay;
    PyObject *r = NULL;
    Py_ssize_t i;
    if (arrlist_of(st, seq, fname, &L) < 0)
        return NULL;
    if (L.n == 0) {
        PyErr_SetString(PyExc_ValueError, kind == 'S' ? "need at least one array to "
                        "stack" : "need at least one array to concatenate");
        goto done;
    }
    if (axis_none) {
        for (i = 0; i < L.n; i++) {
            PyObject *f = raveled(L.o[i]);
            if (!f)
                goto done;
            Py_SETREF(L.o[i], f);
        }
        axis = 0;
    }
    lay = PyMem_Malloc(sizeof(em_array) * (size_t)L.n);
    if (!lay) {
        PyErr_NoMemory();
        goto done;
    }
    for (i = 0; i < L.n; i++) {
        const em_array *a = EMPY_ARR(L.o[i]);
        if (kind == 'S') {
            const em_array *a0 = EMPY_ARR(L.o[0]);
            int ax, j;
            int same = a->ndim == a0->ndim;
            for (j = 0; same && j < a->ndim; j++)
                same = a->shape[j] == a0->shape[j];
            if (!same) {
                char s0[256], s1[256];
                em_shape_format(a0->ndim, a0->shape, s0, sizeof s0);
                em_shape_format(a->ndim, a->shape, s1, sizeof s1);
                PyErr_Format(PyExc_ValueError, "all input arrays must have the same "
                             "shape, but the array at index 0 has shape %s and the "
                             "array at index %zd has shape %s", s0, i, s1);
                PyMem_Free(lay);
                goto done;
            }
            if (a->ndim + 1 > EM_MAX_NDIM) {
                PyErr_Format(PyExc_ValueError, "stack: the result would have more than "
                             "%d dimensions", EM_MAX_NDIM);
                PyMem_Free(lay);
                goto done;
            }
            if (manip_axis(st, axis, a->ndim + 1, &ax) < 0) {
                PyMem_Free(lay);
                goto done;
            }
            insert_axis(a, ax, &lay[i]);
        } else if (kind) {
            at_least(a, kind, &lay[i]);
        } else {
            lay[i] = *a;
        }
    }
    if (kind == 'S') {
        int ax = 0;
        manip_axis(st, axis, EMPY_ARR(L.o[0])->ndim + 1, &ax);
        axis = ax;
    } else if (kind == 1 && fname[0] == 'h') {
        axis = lay[0].ndim == 1 ? 0 : 1;
    }
    r = join(st, lay, L.n, axis, out_o, dtype_o, casting_o);
    PyMem_Free(lay);
done:
    arrlist_free(&L);
    return r;
}

static PyObject *concat_impl(PyObject *m, const char *fname, PyObject *const *args,
                             Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"arrays", "axis",    "out",
                                        "dtype",  "casting", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *v[5];
    int64_t axis;
    if (empy_parse_args(fname, args, nargs, kwnames, names, 3, 1, v) < 0)
        return NULL;
    if (v[1] == Py_None)
        return join_list(st, fname, v[0], 0, 0, 1, v[2], v[3], v[4]);
    if (manip_int(v[1], "axis", 0, &axis) < 0)
        return NULL;
    return join_list(st, fname, v[0], 0, axis, 0, v[2], v[3], v[4]);
}

static PyObject *mod_concatenate(MANIP_FASTCALL)
{
    return concat_impl(m, "concatenate", args, nargs, kwnames);
}

static PyObject *mod_concat(MANIP_FASTCALL)
{
    return concat_impl(m, "concat", args, nargs, kwnames);
}

static PyObject *mod_stack(MANIP_FASTCALL)
{
    static const char *const names[] = {"arrays", "axis",    "out",
                                        "dtype",  "casting", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *v[5];
    int64_t axis;
    if (empy_parse_args("stack", args, nargs, kwnames, names, 3, 1, v) < 0 ||
        manip_int(v[1], "axis", 0, &axis) < 0)
        return NULL;
    return join_list(st, "stack", v[0], 'S', axis, 0, v[2], v[3], v[4]);
}

static PyObject *stack_like(PyObject *m, const char *fname, int kind, int64_t axis,
                            PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"tup", "dtype", "casting", NULL};
    PyObject *v[3];
    if (empy_parse_args(fname, args, nargs, kwnames, names, 1, 1, v) < 0)
        return NULL;
    return join_list(empy_state_of_module(m), fname, v[0], kind, axis, 0, NULL, v[1],
                     v[2]);
}

static PyObject *mod_hstack(MANIP_FASTCALL)
{
    return stack_like(m, "hstack", 1, 0, args, nargs, kwnames);
}

static PyObject *mod_vstack(MANIP_FASTCALL)
{
    return stack_like(m, "vstack", 2, 0, args, nargs, kwnames);
}

static PyObject *mod_dstack(MANIP_FASTCALL)
{
    return stack_like(m, "dstack", 3, 2, args, nargs, kwnames);
}

static PyObject *mod_column_stack(MANIP_FASTCALL)
{
    return stack_like(m, "column_stack", -2, 1, args, nargs, kwnames);
}

/* ---- flip, rot90, roll -------------------------------------------------- */

/* An int or a sequence of ints into v (at most max); -1 with TypeError. */
static int int_list(PyObject *o, const char *what, int max, int64_t *v, int *n)
{
    int k = manip_scalar_index(o, v);
    PyObject *list;
    if (k) {
        *n = 1;
        return k < 0 ? -1 : 0;
    }
    /* a list first: an array's own __index__ would refuse */
    if (!PySequence_Check(o) || !(list = PySequence_List(o))) {
        PyErr_Clear();
        list = Py_NewRef(o);
    }
    k = empy_shape_arg(list, what, n, v);
    Py_DECREF(list);
    if (k == 0 && *n > max) {
        PyErr_Format(PyExc_ValueError, "%s: at most %d entries", what, max);
        return -1;
    }
    return k;
}

/* A flip view of a over the given axes (NULL: all) as an ndarray. */
static PyObject *flip_view(empy_state *st, PyObject *a, const int *axes, int n)
{
    em_array v;
    em_status rc = em_array_flip(EMPY_ARR(a), axes, n, &v);
    PyObject *r;
    if (rc != EM_OK)
        return empy_raise(st, rc);
    r = empy_ndarray_new(st, &v, a);
    return r;
}

static PyObject *mod_flip(MANIP_FASTCALL)
{
    static const char *const names[] = {"m", "axis", NULL};
    empy_state *st = empy_state_of_module(m);
    int64_t ax64[EM_MAX_NDIM];
    int axes[EM_MAX_NDIM], n = -1, i;
    PyObject *v[2], *a, *r;
    if (empy_parse_args("flip", args, nargs, kwnames, names, 2, 1, v) < 0)
        return NULL;
    if (manip_given(v[1])) {
        if (int_list(v[1], "axis", EM_MAX_NDIM, ax64, &n) < 0)
            return NULL;
    }
    if (!(a = manip_array(st, v[0], NULL)))
        return NULL;
    for (i = 0; i < n; i++) {
        if (manip_axis(st, ax64[i], EMPY_ARR(a)->ndim, &axes[i]) < 0) {
            Py_DECREF(a);
            return NULL;
        }
    }
    r = flip_view(st, a, n < 0 ? NULL : axes, n);
    Py_DECREF(a);
    return r;
}

static PyObject *flip_one(PyObject *m, PyObject *arg, int axis, int need)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *a = manip_array(st, arg, NULL), *r;
    if (!a)
        return NULL;
    if (EMPY_ARR(a)->ndim < need) {
        PyErr_Format(PyExc_ValueError, "Input must be >= %d-d.", need);
        Py_DECREF(a);
        return NULL;
    }
    r = flip_view(st, a, &axis, 1);
    Py_DECREF(a);
    return r;
}

static PyObject *mod_fliplr(PyObject *m, PyObject *arg)
{
    return flip_one(m, arg, 1, 2);
}

static PyObject *mod_flipud(PyObject *m, PyObject *arg)
{
    return flip_one(m, arg, 0, 1);
}

static PyObject *mod_rot90(MANIP_FASTCALL)
{
    static const char *const names[] = {"m", "k", "axes", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *v[3], *a, *f = NULL, *r = NULL;
    int64_t k, ax[EM_MAX_NDIM];
    int n = 2, nd, a0, a1, perm[EM_MAX_NDIM], i;
    em_array t;
    em_status rc;
    if (empy_parse_args("rot90", args, nargs, kwnames, names, 3, 1, v) < 0 ||
        manip_int(v[1], "k", 1, &k) < 0)
        return NULL;
    ax[0] = 0;
    ax[1] = 1;
    if (manip_given(v[2]) && empy_shape_arg(v[2], "axes", &n, ax) < 0)
        return NULL;
    if (n != 2) {
        PyErr_SetString(PyExc_ValueError, "len(axes) must be 2.");
        return NULL;
    }
    if (!(a = manip_array(st, v[0], NULL)))
        return NULL;
    nd = EMPY_ARR(a)->ndim;
    if (ax[0] == ax[1] || (ax[0] - ax[1] == nd) || (ax[1] - ax[0] == nd)) {
        PyErr_SetString(PyExc_ValueError, "Axes must be different.");
        goto done;
    }
    if (ax[0] >= nd || ax[0] < -nd || ax[1] >= nd || ax[1] < -nd) {
        PyErr_Format(PyExc_ValueError, "Axes=(%lld, %lld) out of range for array of "
                     "ndim=%d.", (long long)ax[0], (long long)ax[1], nd);
        goto done;
    }
    a0 = (int)(ax[0] < 0 ? ax[0] + nd : ax[0]);
    a1 = (int)(ax[1] < 0 ? ax[1] + nd : ax[1]);
    k = ((k % 4) + 4) % 4;
    for (i = 0; i < nd; i++)
        perm[i] = i;
    perm[a0] = a1;
    perm[a1] = a0;
    if (k == 0) {
        r = manip_view(st, a, EMPY_ARR(a));
    } else if (k == 2) {
        int both[2] = {a0, a1};
        r = flip_view(st, a, both, 2);
    } else if (k == 1) {
        /* transpose(flip(m, axes[1]), perm) */
        if (!(f = flip_view(st, a, &a1, 1)))
            goto done;
        if ((rc = em_array_transpose(EMPY_ARR(f), perm, &t)) != EM_OK)
            empy_raise(st, rc);
        else
            r = empy_ndarray_new(st, &t, f);
    } else {
        /* flip(transpose(m, perm), axes[1]) */
        if ((rc = em_array_transpose(EMPY_ARR(a), perm, &t)) != EM_OK) {
            empy_raise(st, rc);
            goto done;
        }
        if (!(f = empy_ndarray_new(st, &t, a)))
            goto done;
        r = flip_view(st, f, &a1, 1);
    }
done:
    Py_XDECREF(f);
    Py_DECREF(a);
    return r;
}

static PyObject *mod_roll(MANIP_FASTCALL)
{
    static const char *const names[] = {"a", "shift", "axis", NULL};
    empy_state *st = empy_state_of_module(m);
    int64_t sh[EM_MAX_NDIM], ax64[EM_MAX_NDIM];
    int axes[EM_MAX_NDIM], ns, na = 0, n, i, flat;
    int64_t shifts[EM_MAX_NDIM];
    PyObject *v[3], *a, *src, *r = NULL;
    em_array res;
    em_status rc;
    if (empy_parse_args("roll", args, nargs, kwnames, names, 3, 2, v) < 0)
        return NULL;
    if (int_list(v[1], "shift", EM_MAX_NDIM, sh, &ns) < 0)
        return NULL;
    flat = !manip_given(v[2]);
    if (!flat && int_list(v[2], "axis", EM_MAX_NDIM, ax64, &na) < 0)
        return NULL;
    if (flat) {
        na = 1;
        ax64[0] = 0;
    }
    if (ns != na && ns != 1 && na != 1) {
        PyErr_SetString(PyExc_ValueError, "'shift' and 'axis' should be scalars or 1D "
                        "sequences of the same length");
        return NULL;
    }
    n = ns > na ? ns : na;
    if (!(a = manip_array(st, v[0], NULL)))
        return NULL;
    src = flat ? raveled(a) : Py_NewRef(a);
    if (!src)
        goto done;
    for (i = 0; i < n; i++) {
        shifts[i] = sh[ns == 1 ? 0 : i];
        if (manip_axis(st, ax64[na == 1 ? 0 : i], EMPY_ARR(src)->ndim, &axes[i]) < 0)
            goto done_src;
    }
    memset(&res, 0, sizeof res);
    EMPY_NOGIL(rc, em_array_roll(EMPY_ARR(src), shifts, axes, n, &res, NULL));
    r = manip_result(st, rc, &res);
    if (r && flat) {
        em_array back;
        rc = em_array_reshape_view(EMPY_ARR(r), EMPY_ARR(a)->ndim, EMPY_ARR(a)->shape,
                                   'C', &back);
        Py_SETREF(r, rc == EM_OK ? empy_ndarray_new(st, &back, r) : empy_raise(st, rc));
    }
done_src:
    Py_DECREF(src);
done:
    Py_DECREF(a);
    return r;
}

/* ---- pad ---------------------------------------------------------------- */

/* n ints of a list into out; -1 with ValueError when it holds another
 * count. */
static int int64_list(PyObject *l, Py_ssize_t n, int64_t *out)
{
    if (PyList_GET_SIZE(l) != n) {
        PyErr_Format(PyExc_ValueError, "_pad: %zd values for %zd pad sides",
                     PyList_GET_SIZE(l), n);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        out[i] = PyLong_AsLongLong(PyList_GET_ITEM(l, i));
        if (out[i] == -1 && PyErr_Occurred())
            return -1;
    }
    return 0;
}

/* _pad(a, widths, mode, values, dtype, stat_length): the pad kernels of
 * src/array/manip_pad.c for _api/pad.py, which parses NumPy's signature:
 * widths, values (None or numbers of dtype: int64, float64 or
 * complex128) and stat_length (None or ints, -1 for a whole axis) are
 * lists of 2 * a.ndim (before, after) entries; mode names an em_pad_mode
 * (reflect_odd and symmetric_odd for reflect_type='odd'). */
static PyObject *mod_pad(PyObject *m, PyObject *args)
{
    static const char *const modes[] = {
        "constant", "edge",  "reflect", "symmetric", "wrap", "reflect_odd",
        "symmetric_odd", "empty", "maximum", "minimum", "mean", "linear_ramp",
        NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *a, *wl, *vl, *dto, *sl;
    const char *name;
    int64_t width[2 * EM_MAX_NDIM], stat_len[2 * EM_MAX_NDIM];
    union { int64_t i[2 * EM_MAX_NDIM]; double f[2 * EM_MAX_NDIM];
            Py_complex c[2 * EM_MAX_NDIM]; } vals;
    em_dtype vd;
    em_array res;
    em_status rc;
    int mode = 0;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "O!O!sOOO:_pad", st->ndarray, &a, &PyList_Type, &wl,
                          &name, &vl, &dto, &sl) ||
        empy_dtype_arg(st, dto, &vd) < 0)
        return NULL;
    while (modes[mode] && strcmp(modes[mode], name))
        mode++;
    if (!modes[mode]) {
        PyErr_Format(PyExc_ValueError, "mode '%s' is not supported", name);
        return NULL;
    }
    n = 2 * (Py_ssize_t)EMPY_ARR(a)->ndim;
    if (int64_list(wl, n, width) < 0 ||
        (sl != Py_None && (!PyList_Check(sl) || int64_list(sl, n, stat_len) < 0)))
        return NULL;
    if (vl != Py_None) {
        if (!PyList_Check(vl) || PyList_GET_SIZE(vl) != n ||
            (vd != EM_INT64 && vd != EM_FLOAT64 && vd != EM_COMPLEX128)) {
            PyErr_SetString(PyExc_ValueError, "_pad: values must be a list of "
                            "int64, float64 or complex128 numbers, one per side");
            return NULL;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *o = PyList_GET_ITEM(vl, i);
            if (vd == EM_COMPLEX128)
                vals.c[i] = PyComplex_AsCComplex(o);
            else if (vd == EM_FLOAT64)
                vals.f[i] = PyFloat_AsDouble(o);
            else
                vals.i[i] = PyLong_AsLongLong(o);
            if (PyErr_Occurred())
                return NULL;
        }
    }
    memset(&res, 0, sizeof res);
    EMPY_NOGIL(rc, em_array_pad(EMPY_ARR(a), width, (em_pad_mode)mode,
                                vl != Py_None ? (const void *)&vals : NULL, vd,
                                sl != Py_None ? stat_len : NULL, &res, NULL));
    return manip_result(st, rc, &res);
}

/* ---- diagonals ---------------------------------------------------------- */

static PyObject *diagonal_of(empy_state *st, PyObject *a, PyObject *const *v)
{
    int64_t off, a1, a2;
    int x, y, nd = EMPY_ARR(a)->ndim;
    em_array d;
    em_status rc;
    if (manip_int(v[0], "offset", 0, &off) < 0 || manip_int(v[1], "axis1", 0, &a1) < 0 ||
        manip_int(v[2], "axis2", 1, &a2) < 0)
        return NULL;
    if (nd < 2) {
        PyErr_SetString(PyExc_ValueError, "diag requires an array of at least two "
                        "dimensions");
        return NULL;
    }
    if (manip_axis(st, a1, nd, &x) < 0 || manip_axis(st, a2, nd, &y) < 0)
        return NULL;
    if ((rc = em_array_diagonal(EMPY_ARR(a), off, x, y, &d)) != EM_OK)
        return empy_raise(st, rc);
    return empy_ndarray_new(st, &d, a);
}

typedef PyObject *(*array_fn)(empy_state *st, PyObject *a, PyObject *const *v);

/* fname(a, ...) and a.fname(...) parse one list of names, whose first is
 * the array: the method takes it from self (non-NULL), the function from
 * its first argument, converted. */
static PyObject *function_or_method(PyObject *m, PyObject *self, const char *fname,
                                    const char *const *names, int n, array_fn fn,
                                    PyObject *const *args, Py_ssize_t nargs,
                                    PyObject *kwnames)
{
    empy_state *st = self ? empy_state_of(self) : empy_state_of_module(m);
    PyObject *v[8], *a, *r;
    if (self) {
        if (empy_parse_args(fname, args, nargs, kwnames, names + 1, n - 1, 0, v) < 0)
            return NULL;
        return fn(st, self, v);
    }
    if (empy_parse_args(fname, args, nargs, kwnames, names, n, 1, v) < 0 ||
        !(a = manip_array(st, v[0], NULL)))
        return NULL;
    r = fn(st, a, v + 1);
    Py_DECREF(a);
    return r;
}

static const char *const diagonal_names[] = {"a", "offset", "axis1", "axis2", NULL};

static PyObject *mod_diagonal(MANIP_FASTCALL)
{
    return function_or_method(m, NULL, "diagonal", diagonal_names, 4, diagonal_of,
                              args, nargs, kwnames);
}

static PyObject *nd_diagonal(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                             PyObject *kwnames)
{
    return function_or_method(NULL, self, "diagonal", diagonal_names, 4, diagonal_of,
                              args, nargs, kwnames);
}

static PyObject *diag_impl(PyObject *m, const char *fname, int flat,
                           PyObject *const *args, Py_ssize_t nargs,
                           PyObject *kwnames)
{
    static const char *const names[] = {"v", "k", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *v[2], *a, *src;
    int64_t k;
    em_array res;
    em_status rc;
    if (empy_parse_args(fname, args, nargs, kwnames, names, 2, 1, v) < 0 ||
        manip_int(v[1], "k", 0, &k) < 0 || !(a = manip_array(st, v[0], NULL)))
        return NULL;
    src = flat ? raveled(a) : Py_NewRef(a);
    Py_DECREF(a);
    if (!src)
        return NULL;
    memset(&res, 0, sizeof res);
    EMPY_NOGIL(rc, em_array_diag(EMPY_ARR(src), k, &res, NULL));
    Py_DECREF(src);
    return manip_result(st, rc, &res);
}

static PyObject *mod_diag(MANIP_FASTCALL)
{
    return diag_impl(m, "diag", 0, args, nargs, kwnames);
}

static PyObject *mod_diagflat(MANIP_FASTCALL)
{
    return diag_impl(m, "diagflat", 1, args, nargs, kwnames);
}

/* trace: the sum of the diagonal view along its last axis (em_reduce). */
static PyObject *trace_of(empy_state *st, PyObject *a, PyObject *const *v)
{
    PyObject *d = diagonal_of(st, a, v), *out_o = v[4];
    em_reduce_args ra;
    em_array res;
    em_status rc;
    int last;
    if (!d)
        return NULL;
    memset(&ra, 0, sizeof ra);
    last = EMPY_ARR(d)->ndim - 1;
    ra.axes = &last;
    ra.naxes = 1;
    if (manip_given(v[3])) {
        if (empy_dtype_arg(st, v[3], &ra.dtype) < 0) {
            Py_DECREF(d);
            return NULL;
        }
        ra.has_dtype = 1;
    }
    if (manip_given(out_o)) {
        if (!empy_is_ndarray(out_o)) {
            PyErr_Format(PyExc_TypeError, "out must be an ember.ndarray, not %.100s",
                         Py_TYPE(out_o)->tp_name);
            Py_DECREF(d);
            return NULL;
        }
        EMPY_NOGIL(rc, em_reduce(EM_RED_SUM, EMPY_ARR(d), &ra, EMPY_ARR(out_o), NULL));
        Py_DECREF(d);
        if (rc != EM_OK)
            return empy_raise(st, rc);
        return Py_NewRef(out_o);
    }
    memset(&res, 0, sizeof res);
    EMPY_NOGIL(rc, em_reduce(EM_RED_SUM, EMPY_ARR(d), &ra, &res, NULL));
    Py_DECREF(d);
    return manip_result(st, rc, &res);
}

static const char *const trace_names[] = {"a", "offset", "axis1", "axis2", "dtype",
                                          "out", NULL};

static PyObject *mod_trace(MANIP_FASTCALL)
{
    return function_or_method(m, NULL, "trace", trace_names, 6, trace_of, args, nargs,
                              kwnames);
}

static PyObject *nd_trace(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                          PyObject *kwnames)
{
    return function_or_method(NULL, self, "trace", trace_names, 6, trace_of, args,
                              nargs, kwnames);
}

/* ---- shape functions as module functions -------------------------------- */

/* a.<method>(*margs, **kw) on ember.asarray(a). */
static PyObject *via_method(empy_state *st, PyObject *obj, const char *method,
                            PyObject *margs, PyObject *kw)
{
    PyObject *a = manip_array(st, obj, NULL), *f, *r;
    if (!a)
        return NULL;
    f = PyObject_GetAttrString(a, method);
    Py_DECREF(a);
    if (!f)
        return NULL;
    r = PyObject_Call(f, margs, kw);
    Py_DECREF(f);
    return r;
}

static PyObject *mod_reshape(MANIP_FASTCALL)
{
    static const char *const names[] = {"a", "shape", "order", "newshape", "copy", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *v[5], *margs, *kw, *r;
    if (empy_parse_args("reshape", args, nargs, kwnames, names, 3, 1, v) < 0)
        return NULL;
    if (v[1] && v[3]) {
        PyErr_SetString(PyExc_TypeError, "You cannot specify 'newshape' and 'shape' "
                        "arguments at the same time.");
        return NULL;
    }
    if (!v[1] && !v[3]) {
        PyErr_SetString(PyExc_TypeError, "reshape() missing 1 required positional "
                        "argument: 'shape'");
        return NULL;
    }
    margs = PyTuple_Pack(1, v[1] ? v[1] : v[3]);
    kw = PyDict_New();
    if (!margs || !kw || (v[2] && PyDict_SetItemString(kw, "order", v[2]) < 0) ||
        (v[4] && PyDict_SetItemString(kw, "copy", v[4]) < 0)) {
        Py_XDECREF(margs);
        Py_XDECREF(kw);
        return NULL;
    }
    r = via_method(st, v[0], "reshape", margs, kw);
    Py_DECREF(margs);
    Py_DECREF(kw);
    return r;
}

/* f(a, *rest) forwarded as a.method(*rest) (the keywords as given). */
static PyObject *forward(PyObject *m, const char *fname, const char *method,
                         PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                         const char *const *names, int npos, int nreq)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *v[4], *margs, *kw, *r;
    int n = 0, i;
    while (names[n])
        n++;
    if (empy_parse_args(fname, args, nargs, kwnames, names, npos, nreq, v) < 0)
        return NULL;
    margs = PyTuple_New(0);
    kw = PyDict_New();
    if (!margs || !kw)
        goto fail;
    for (i = 1; i < n; i++)
        if (v[i] && PyDict_SetItemString(kw, names[i], v[i]) < 0)
            goto fail;
    r = via_method(st, v[0], method, margs, kw);
    Py_DECREF(margs);
    Py_DECREF(kw);
    return r;
fail:
    Py_XDECREF(margs);
    Py_XDECREF(kw);
    return NULL;
}

static PyObject *mod_ravel(MANIP_FASTCALL)
{
    static const char *const names[] = {"a", "order", NULL};
    return forward(m, "ravel", "ravel", args, nargs, kwnames, names, 2, 1);
}

static PyObject *mod_squeeze(MANIP_FASTCALL)
{
    static const char *const names[] = {"a", "axis", NULL};
    return forward(m, "squeeze", "squeeze", args, nargs, kwnames, names, 2, 1);
}

static PyObject *mod_swapaxes(MANIP_FASTCALL)
{
    static const char *const names[] = {"a", "axis1", "axis2", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *v[3], *margs, *r;
    if (empy_parse_args("swapaxes", args, nargs, kwnames, names, 3, 3, v) < 0 ||
        !(margs = PyTuple_Pack(2, v[1], v[2])))
        return NULL;
    r = via_method(st, v[0], "swapaxes", margs, NULL);
    Py_DECREF(margs);
    return r;
}

static PyObject *transpose_common(PyObject *m, const char *fname, int need_axes,
                                  PyObject *const *args, Py_ssize_t nargs,
                                  PyObject *kwnames)
{
    static const char *const names[] = {"a", "axes", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *v[2], *margs, *r;
    if (empy_parse_args(fname, args, nargs, kwnames, names, 2, need_axes ? 2 : 1, v) < 0)
        return NULL;
    margs = manip_given(v[1]) ? PyTuple_Pack(1, v[1]) : PyTuple_New(0);
    if (!margs)
        return NULL;
    r = via_method(st, v[0], "transpose", margs, NULL);
    Py_DECREF(margs);
    return r;
}

static PyObject *mod_transpose(MANIP_FASTCALL)
{
    return transpose_common(m, "transpose", 0, args, nargs, kwnames);
}

static PyObject *mod_permute_dims(MANIP_FASTCALL)
{
    return transpose_common(m, "permute_dims", 1, args, nargs, kwnames);
}

/* A list of normalised, distinct axes from an int or sequence. */
static int axes_arg(empy_state *st, PyObject *o, int nd, const char *what, int *axes,
                    int *n)
{
    int64_t v[EM_MAX_NDIM];
    unsigned char seen[EM_MAX_NDIM];
    int i;
    if (int_list(o, what, EM_MAX_NDIM, v, n) < 0) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_ValueError, "too many axes in %s", what);
        return -1;
    }
    memset(seen, 0, sizeof seen);
    for (i = 0; i < *n; i++) {
        if (manip_axis(st, v[i], nd, &axes[i]) < 0)
            return -1;
        if (seen[axes[i]]++) {
            PyErr_Format(PyExc_ValueError, "repeated axis in `%s` argument", what);
            return -1;
        }
    }
    return 0;
}

static PyObject *mod_expand_dims(MANIP_FASTCALL)
{
    static const char *const names[] = {"a", "axis", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *v[2], *a, *r = NULL;
    int axes[EM_MAX_NDIM], n, nd, i, j = 0, k;
    unsigned char isnew[EM_MAX_NDIM];
    em_array lay;
    int64_t cnt[EM_MAX_NDIM];
    if (empy_parse_args("expand_dims", args, nargs, kwnames, names, 2, 2, v) < 0 ||
        !(a = manip_array(st, v[0], NULL)))
        return NULL;
    if (int_list(v[1], "axis", EM_MAX_NDIM, cnt, &n) < 0)
        goto done;
    nd = EMPY_ARR(a)->ndim + n;
    if (nd > EM_MAX_NDIM) {
        PyErr_Format(PyExc_ValueError, "expand_dims: %d dimensions exceed the maximum "
                     "of %d", nd, EM_MAX_NDIM);
        goto done;
    }
    if (axes_arg(st, v[1], nd, "axis", axes, &n) < 0)
        goto done;
    memset(isnew, 0, sizeof isnew);
    for (i = 0; i < n; i++)
        isnew[axes[i]] = 1;
    lay = *EMPY_ARR(a);
    for (k = 0; k < nd; k++) {
        if (isnew[k]) {
            lay.shape[k] = 1;
            lay.strides[k] = 0;
        } else {
            lay.shape[k] = EMPY_ARR(a)->shape[j];
            lay.strides[k] = EMPY_ARR(a)->strides[j++];
        }
    }
    lay.ndim = nd;
    em_array_update_flags(&lay);
    lay.flags = (lay.flags & ~(unsigned)EM_ARRAY_WRITEABLE)
                | (EMPY_ARR(a)->flags & EM_ARRAY_WRITEABLE);
    r = manip_view(st, a, &lay);
done:
    Py_DECREF(a);
    return r;
}

static PyObject *mod_moveaxis(MANIP_FASTCALL)
{
    static const char *const names[] = {"a", "source", "destination", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *v[3], *a, *r = NULL;
    int src[EM_MAX_NDIM], dst[EM_MAX_NDIM], order[EM_MAX_NDIM], ns, nd_, nd, i, j, k;
    unsigned char used[EM_MAX_NDIM];
    em_array t;
    em_status rc;
    if (empy_parse_args("moveaxis", args, nargs, kwnames, names, 3, 3, v) < 0 ||
        !(a = manip_array(st, v[0], NULL)))
        return NULL;
    nd = EMPY_ARR(a)->ndim;
    if (axes_arg(st, v[1], nd, "source", src, &ns) < 0 ||
        axes_arg(st, v[2], nd, "destination", dst, &nd_) < 0)
        goto done;
    if (ns != nd_) {
        PyErr_SetString(PyExc_ValueError, "`source` and `destination` arguments must "
                        "have the same number of elements");
        goto done;
    }
    memset(used, 0, sizeof used);
    for (i = 0; i < ns; i++)
        used[src[i]] = 1;
    for (i = 0; i < nd; i++)
        order[i] = -1;
    for (i = 0; i < ns; i++)
        order[dst[i]] = src[i];
    for (i = 0, k = 0; i < nd; i++) {
        if (order[i] >= 0)
            continue;
        while (used[k])
            k++;
        order[i] = k++;
    }
    (void)j;
    if ((rc = em_array_transpose(EMPY_ARR(a), order, &t)) != EM_OK)
        empy_raise(st, rc);
    else
        r = empy_ndarray_new(st, &t, a);
done:
    Py_DECREF(a);
    return r;
}

static PyObject *mod_broadcast_to(MANIP_FASTCALL)
{
    static const char *const names[] = {"array", "shape", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *v[2], *a;
    int64_t shape[EM_MAX_NDIM];
    int nd;
    em_array t;
    em_status rc;
    if (empy_parse_args("broadcast_to", args, nargs, kwnames, names, 2, 2, v) < 0 ||
        empy_shape_arg(v[1], "shape", &nd, shape) < 0 ||
        !(a = manip_array(st, v[0], NULL)))
        return NULL;
    for (int i = 0; i < nd; i++) {
        if (shape[i] < 0) {
            PyErr_SetString(PyExc_ValueError, "all elements of broadcast shape must be "
                            "non-negative");
            Py_DECREF(a);
            return NULL;
        }
    }
    rc = em_array_broadcast_to(EMPY_ARR(a), nd, shape, &t);
    if (rc != EM_OK) {
        Py_DECREF(a);
        return empy_raise(st, rc);
    }
    {
        PyObject *r = empy_ndarray_new(st, &t, a);
        Py_DECREF(a);
        return r;
    }
}

static PyObject *tuple_of_shape(int nd, const int64_t *s)
{
    PyObject *t = PyTuple_New(nd);
    int i;
    for (i = 0; t && i < nd; i++) {
        PyObject *e = PyLong_FromLongLong(s[i]);
        if (!e) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, e);
    }
    return t;
}

static PyObject *mod_broadcast_shapes(PyObject *m, PyObject *const *args, Py_ssize_t n)
{
    int64_t shape[EM_MAX_NDIM], s[EM_MAX_NDIM];
    int nd = 0, ns;
    Py_ssize_t i;
    em_status rc;
    for (i = 0; i < n; i++) {
        if (empy_shape_arg(args[i], "shape", &ns, s) < 0)
            return NULL;
        if ((rc = em_shape_broadcast(nd, shape, ns, s, &nd, shape)) != EM_OK)
            return empy_raise(empy_state_of_module(m), rc);
    }
    return tuple_of_shape(nd, shape);
}

static PyObject *mod_broadcast_arrays(PyObject *m, PyObject *const *args, Py_ssize_t n)
{
    empy_state *st = empy_state_of_module(m);
    int64_t shape[EM_MAX_NDIM];
    PyObject *tup = PyTuple_New(n);
    int nd = 0;
    Py_ssize_t i;
    em_status rc;
    if (!tup)
        return NULL;
    for (i = 0; i < n; i++) {
        PyObject *a = manip_array(st, args[i], NULL);
        if (!a)
            goto fail;
        PyTuple_SET_ITEM(tup, i, a);
        if ((rc = em_shape_broadcast(nd, shape, EMPY_ARR(a)->ndim, EMPY_ARR(a)->shape,
                                     &nd, shape)) != EM_OK) {
            empy_raise(st, rc);
            goto fail;
        }
    }
    for (i = 0; i < n; i++) {
        PyObject *a = PyTuple_GET_ITEM(tup, i), *b;
        em_array t;
        int same = EMPY_ARR(a)->ndim == nd, j;
        for (j = 0; same && j < nd; j++)
            same = EMPY_ARR(a)->shape[j] == shape[j];
        if (same)
            continue;
        if ((rc = em_array_broadcast_to(EMPY_ARR(a), nd, shape, &t)) != EM_OK) {
            empy_raise(st, rc);
            goto fail;
        }
        if (!(b = empy_ndarray_new(st, &t, a)))
            goto fail;
        manip_tuple_replace(tup, i, b);
    }
    return manip_list_of(tup);
fail:
    Py_DECREF(tup);
    return NULL;
}

static PyObject *atleast(PyObject *m, int k, PyObject *const *args, Py_ssize_t n)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *tup = PyTuple_New(n), *r;
    Py_ssize_t i;
    if (!tup)
        return NULL;
    for (i = 0; i < n; i++) {
        PyObject *a = manip_array(st, args[i], NULL), *b;
        em_array lay;
        if (!a)
            goto fail;
        if (EMPY_ARR(a)->ndim >= k) {
            PyTuple_SET_ITEM(tup, i, a);
            continue;
        }
        at_least(EMPY_ARR(a), k, &lay);
        b = manip_view(st, a, &lay);
        Py_DECREF(a);
        if (!b)
            goto fail;
        PyTuple_SET_ITEM(tup, i, b);
    }
    if (n != 1)
        return tup;
    r = Py_NewRef(PyTuple_GET_ITEM(tup, 0));
    Py_DECREF(tup);
    return r;
fail:
    Py_DECREF(tup);
    return NULL;
}

static PyObject *mod_atleast_1d(PyObject *m, PyObject *const *args, Py_ssize_t n)
{
    return atleast(m, 1, args, n);
}

static PyObject *mod_atleast_2d(PyObject *m, PyObject *const *args, Py_ssize_t n)
{
    return atleast(m, 2, args, n);
}

static PyObject *mod_atleast_3d(PyObject *m, PyObject *const *args, Py_ssize_t n)
{
    return atleast(m, 3, args, n);
}

#define FAST_ONLY(fn) {#fn, (PyCFunction)(void (*)(void))mod_##fn, METH_FASTCALL, NULL}
#define ONE_ARG(fn) {#fn, (PyCFunction)(void (*)(void))mod_##fn, METH_O, NULL}

static PyMethodDef manip_functions[] = {
    MANIP_FN(concatenate), MANIP_FN(concat), MANIP_FN(stack), MANIP_FN(hstack),
    MANIP_FN(vstack), MANIP_FN(dstack), MANIP_FN(column_stack),
    MANIP_FN(flip), ONE_ARG(fliplr), ONE_ARG(flipud),
    MANIP_FN(rot90), MANIP_FN(roll), MANIP_FN(diag), MANIP_FN(diagflat),
    MANIP_FN(diagonal), MANIP_FN(trace),
    MANIP_FN(reshape), MANIP_FN(ravel), MANIP_FN(squeeze), MANIP_FN(swapaxes),
    MANIP_FN(transpose), MANIP_FN(permute_dims),
    MANIP_FN(expand_dims), MANIP_FN(moveaxis), MANIP_FN(broadcast_to),
    FAST_ONLY(broadcast_shapes), FAST_ONLY(broadcast_arrays),
    FAST_ONLY(atleast_1d), FAST_ONLY(atleast_2d), FAST_ONLY(atleast_3d),
    {"_pad", mod_pad, METH_VARARGS,
     "_pad(a, widths, mode, values, dtype, stat_length)"},
    {NULL},
};

PyMethodDef empy_manip_nd_methods[] = {
    {"diagonal", (PyCFunction)(void (*)(void))nd_diagonal, METH_FASTCALL | METH_KEYWORDS,
     "diagonal(offset=0, axis1=0, axis2=1): a read-only view of the diagonal."},
    {"trace", (PyCFunction)(void (*)(void))nd_trace, METH_FASTCALL | METH_KEYWORDS,
     "trace(offset=0, axis1=0, axis2=1, dtype=None, out=None): the diagonal's sum."},
    {NULL},
};

int empy_manip_init(PyObject *m, empy_state *st)
{
    (void)st;
    return PyModule_AddFunctions(m, manip_functions);
}
