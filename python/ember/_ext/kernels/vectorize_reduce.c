/* ember Python extension: ember.reduce (also ember.cuda.reduce), a
 * reduction from a binary scalar Python function with Numba's spelling:
 *
 *     @ember.reduce
 *     def vmax(a, b):
 *         return a if a > b else b
 *
 *     vmax(arr, size=None, res=None, init=0, stream=0)   # numba.cuda.reduce
 *     vmax.reduce(arr, axis=0, initial=None, keepdims=False, out=None)
 *
 * The function is translated per dtype by ember.jit.translate_device and
 * becomes reduce_expr `f(a, b)` of two C-string reduction kernels
 * (include/ember/ckernel.h): one plain, one combining `initial` once
 * after the reduction (an identity would enter once per partial). */
#include <string.h>

#include "kernels/ckernel.h"
#include "runtime/errors.h"
#include "structmember.h"
#include "runtime/member_compat.h"

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    PyObject *pyfunc, *name;
    em_ckernel *plain[EM_DTYPE_COUNT], *init[EM_DTYPE_COUNT];
} RDObject;

static int rd_kernels(RDObject *r, em_dtype d)
{
    PyObject *tr;
    const char *src, *cname;
    char red[256], post[256];
    em_ckernel_desc desc;
    em_status rc;
    em_dtype in[2] = {d, d};
    if (r->plain[d])
        return 0;
    if (empy_vz_check_supported("reduce", r->name, d) < 0)
        return -1;
    if (!(tr = empy_vz_translate(r->pyfunc, in, 2)))
        return -1;
    src = PyUnicode_AsUTF8(PyTuple_GET_ITEM(tr, 0));
    cname = PyUnicode_AsUTF8(PyTuple_GET_ITEM(tr, 1));
    if (!src || !cname) {
        Py_DECREF(tr);
        return -1;
    }
    if (!strcmp(PyUnicode_AsUTF8(PyTuple_GET_ITEM(tr, 2)), "none")) {
        Py_DECREF(tr);
        PyErr_Format(PyExc_TypeError,
                     "reduce '%U': the function returns nothing", r->name);
        return -1;
    }
    snprintf(red, sizeof red, "(T)%s(a, b)", cname);
    memset(&desc, 0, sizeof desc);
    desc.in_params = "T x";
    desc.out_params = "T y";
    desc.map_expr = "x";
    desc.reduce_expr = red;
    desc.post_map_expr = "y = a";
    desc.name = "ember_reduce";
    desc.preamble = src;
    rc = em_ckernel_create_reduction(&desc, &r->plain[d]);
    if (rc == EM_OK) {
        snprintf(post, sizeof post, "y = (T)%s(init, a)", cname);
        desc.in_params = "T x, T init";
        desc.post_map_expr = post;
        rc = em_ckernel_create_reduction(&desc, &r->init[d]);
    }
    Py_DECREF(tr);
    if (rc != EM_OK) {
        em_ckernel_destroy(r->plain[d]);
        r->plain[d] = NULL;
        empy_raise(empy_state_of((PyObject *)r), rc);
        return -1;
    }
    return 0;
}

/* Reduce x over axes (naxis < 0: all) with an optional initial value
 * (NULL: none). */
static PyObject *rd_run(RDObject *r, PyObject *xo, const int *axes, int naxis,
                        int keepdims, PyObject *initial, PyObject *outo,
                        em_stream *s, int *host_only)
{
    empy_state *st = empy_state_of((PyObject *)r);
    PyObject *keep = NULL, *res = NULL;
    em_operand ops[2];
    em_array out;
    em_status rc;
    int any;
    memset(&out, 0, sizeof out);
    if (empy_vz_operands(st, 0, &xo, 1, ops, &keep, host_only, &any) < 0)
        return NULL;
    if (!ops[0].array) {
        PyErr_Format(PyExc_TypeError, "reduce '%U' needs an array", r->name);
        goto done;
    }
    if (rd_kernels(r, ops[0].array->dtype) < 0)
        goto done;
    if (outo)
        out = *EMPY_ARR(outo);
    if (initial) {
        int64_t red = 1;
        const em_array *a = ops[0].array;
        int rsel[EM_MAX_NDIM] = {0};
        if (empy_scalar_operand(initial, &ops[1]) != 1) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_TypeError, "initial must be a scalar");
            goto done;
        }
        for (int t = 0; t < (naxis < 0 ? a->ndim : naxis); t++) {
            int ax = naxis < 0 ? t : axes[t] < 0 ? axes[t] + a->ndim : axes[t];
            if (ax >= 0 && ax < a->ndim && !rsel[ax]) {
                rsel[ax] = 1;
                red *= a->shape[ax];
            }
        }
        if (red == 0) {
            /* nothing to combine: `initial` everywhere, as NumPy */
            int64_t osh[EM_MAX_NDIM];
            int ond = 0;
            for (int ax = 0; ax < a->ndim; ax++)
                if (!rsel[ax])
                    osh[ond++] = a->shape[ax];
                else if (keepdims)
                    osh[ond++] = 1;
            if (!outo && (rc = em_array_empty(a->device, a->dtype, ond, osh,
                                              'C', s, &out)) != EM_OK) {
                empy_raise(st, rc);
                goto done;
            }
            if ((rc = em_array_fill(&out, ops[1].value.bytes, ops[1].dtype,
                                    s)) != EM_OK) {
                if (!outo)
                    em_array_release(&out);
                empy_raise(st, rc);
                goto done;
            }
            res = outo ? Py_NewRef(outo) : empy_ndarray_new(st, &out, NULL);
            goto done;
        }
        EMPY_NOGIL(rc, em_ckernel_reduce(r->init[a->dtype], ops, &out, axes,
                                         naxis, keepdims, s));
    } else {
        EMPY_NOGIL(rc, em_ckernel_reduce(r->plain[ops[0].array->dtype], ops,
                                         &out, axes, naxis, keepdims, s));
    }
    if (rc != EM_OK) {
        empy_raise(st, rc);
        goto done;
    }
    res = outo ? Py_NewRef(outo) : empy_ndarray_new(st, &out, NULL);
done:
    Py_XDECREF(keep);
    return res;
}

static int axes_arg(PyObject *o, int *axes, int *naxis, int dflt0)
{
    if (!o) {
        *naxis = dflt0 ? 1 : -1;
        axes[0] = 0;
        return 0;
    }
    if (o == Py_None) {
        *naxis = -1;
        return 0;
    }
    if (PyLong_Check(o)) {
        axes[0] = (int)PyLong_AsLong(o);
        *naxis = 1;
        return PyErr_Occurred() ? -1 : 0;
    }
    PyObject *t = PySequence_Tuple(o);
    if (!t)
        return -1;
    *naxis = (int)PyTuple_GET_SIZE(t);
    for (int i = 0; i < *naxis && i < EM_MAX_NDIM; i++) {
        axes[i] = (int)PyLong_AsLong(PyTuple_GET_ITEM(t, i));
        if (PyErr_Occurred()) {     /* not an int: stop before the next call */
            Py_DECREF(t);
            return -1;
        }
    }
    Py_DECREF(t);
    if (*naxis > EM_MAX_NDIM) {
        PyErr_SetString(PyExc_ValueError, "too many axes");
        return -1;
    }
    return PyErr_Occurred() ? -1 : 0;
}

static const char *const rd_reduce_kw[] = {"array", "axis", "dtype", "out",
                                           "keepdims", "initial", NULL};

static PyObject *RD_reduce(PyObject *self, PyObject *const *args,
                           Py_ssize_t nargs, PyObject *kwnames)
{
    RDObject *r = (RDObject *)self;
    empy_state *st = empy_state_of(self);
    PyObject *v[6], *res;
    int axes[EM_MAX_NDIM], naxis, keepdims = 0, host_only;
    if (empy_parse_args("reduce", args, nargs, kwnames, rd_reduce_kw, 6, 1,
                        v) < 0)
        return NULL;
    if (axes_arg(v[1], axes, &naxis, 1) < 0)
        return NULL;
    if (v[2] && v[2] != Py_None) {
        PyErr_SetString(PyExc_NotImplementedError,
                        "reduce(dtype=) is not supported: the reduction "
                        "runs in the array's dtype");
        return NULL;
    }
    if (v[3] == Py_None)
        v[3] = NULL;
    if (v[3] && !empy_is_ndarray(v[3])) {
        PyErr_SetString(PyExc_TypeError, "out must be an ember ndarray");
        return NULL;
    }
    if (v[4] && (keepdims = PyObject_IsTrue(v[4])) < 0)
        return NULL;
    res = rd_run(r, v[0], axes, naxis, keepdims,
                 v[5] == Py_None ? NULL : v[5], v[3], NULL, &host_only);
    return empy_vz_finish(st, res, host_only && !v[3], 0);
}

static const char *const rd_call_kw[] = {"arr", "size", "res", "init",
                                         "stream", NULL};

/* Numba's Reduce.__call__(arr, size=None, res=None, init=0, stream=0):
 * the whole of arr[:size] to one value, returned, or stored in res[0]. */
static PyObject *RD_vectorcall(PyObject *self, PyObject *const *args,
                               size_t nargsf, PyObject *kwnames)
{
    RDObject *r = (RDObject *)self;
    empy_state *st = empy_state_of(self);
    PyObject *v[5], *x = NULL, *res = NULL, *item = NULL, *np = NULL;
    em_stream *s = NULL;
    int host_only;
    Py_ssize_t n = PyVectorcall_NARGS(nargsf);
    if (empy_parse_args(PyUnicode_AsUTF8(r->name), args, n, kwnames,
                        rd_call_kw, 5, 1, v) < 0)
        return NULL;
    if (empy_vz_stream(st, v[4], &s) < 0)
        return NULL;
    x = Py_NewRef(v[0]);
    if (v[1] && v[1] != Py_None) {
        PyObject *sl = PySlice_New(NULL, v[1], NULL);
        PyObject *y = sl ? PyObject_GetItem(x, sl) : NULL;
        Py_XDECREF(sl);
        Py_DECREF(x);
        if (!(x = y))
            return NULL;
    }
    {
        Py_ssize_t len = PyObject_Size(x);
        if (len < 0)
            goto done;
        if (len == 0) {
            /* Numba gives init (0 by default) for an empty array */
            item = v[3] ? Py_NewRef(v[3]) : PyLong_FromLong(0);
            goto store;
        }
    }
    res = rd_run(r, x, NULL, -1, 0, v[3] == Py_None ? NULL : v[3], NULL, s,
                 &host_only);
    if (!res)
        goto done;
    if (!(np = empy_ndarray_to_numpy(st, res, 0)))
        goto done;
    {
        PyObject *e = PyTuple_New(0);
        item = e ? PyObject_GetItem(np, e) : NULL;
        Py_XDECREF(e);
    }
store:
    if (item && v[2] && v[2] != Py_None) {
        PyObject *zero = PyLong_FromLong(0);
        int rc = zero ? PyObject_SetItem(v[2], zero, item) : -1;
        Py_XDECREF(zero);
        Py_CLEAR(item);
        if (rc == 0)
            item = Py_NewRef(Py_None);
    }
done:
    Py_XDECREF(x);
    Py_XDECREF(res);
    Py_XDECREF(np);
    return item;
}

static void RD_dealloc(PyObject *self)
{
    RDObject *r = (RDObject *)self;
    PyTypeObject *tp = Py_TYPE(self);
    for (int d = 0; d < EM_DTYPE_COUNT; d++) {
        em_ckernel_destroy(r->plain[d]);
        em_ckernel_destroy(r->init[d]);
    }
    Py_XDECREF(r->pyfunc);
    Py_XDECREF(r->name);
    tp->tp_free(self);
    Py_DECREF(tp);
}

static PyObject *RD_repr(PyObject *self)
{
    return PyUnicode_FromFormat("<ember.reduce '%U'>",
                                ((RDObject *)self)->name);
}

static PyMethodDef RD_methods[] = {
    {"reduce", (PyCFunction)(void (*)(void))RD_reduce,
     METH_FASTCALL | METH_KEYWORDS,
     "reduce(array, axis=0, dtype=None, out=None, keepdims=False, "
     "initial=None): as NumPy's ufunc.reduce (axis=None: all axes)."},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef RD_members[] = {
    EMPY_VECTORCALL_MEMBER(RDObject),
    {"__name__", T_OBJECT, offsetof(RDObject, name), READONLY, NULL},
    {"py_func", T_OBJECT, offsetof(RDObject, pyfunc), READONLY, NULL},
    {NULL, 0, 0, 0, NULL},
};

static PyType_Slot RD_slots[] = {
    {Py_tp_dealloc, RD_dealloc},
    {Py_tp_repr, RD_repr},
    {Py_tp_call, PyVectorcall_Call},
    {Py_tp_methods, RD_methods},
    {Py_tp_members, RD_members},
    EMPY_NOINIT_SLOT
    {Py_tp_doc, "A reduction made by ember.reduce from a binary function: "
                "f(arr, size=None, res=None, init=0, stream=0) as "
                "numba.cuda.reduce, f.reduce(array, axis=0, ...) as a "
                "ufunc's."},
    {0, NULL},
};

static PyType_Spec RD_spec = {
    "ember.Reduce", sizeof(RDObject), 0,
    Py_TPFLAGS_DEFAULT | EMPY_TPFLAGS_IMMUTABLE | EMPY_TPFLAGS_NOINIT |
        Py_TPFLAGS_HAVE_VECTORCALL,
    RD_slots,
};

/* ---- the decorator ----------------------------------------------------- */

static PyObject *mod_reduce(PyObject *m, PyObject *f)
{
    PyObject *t = PyObject_GetAttrString(m, "Reduce"), *name;
    RDObject *r;
    if (!t)
        return NULL;
    if (!PyCallable_Check(f) || !(name = PyObject_GetAttrString(f, "__name__"))) {
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError,
                        "ember.reduce decorates a binary Python function");
        Py_DECREF(t);
        return NULL;
    }
    r = PyObject_New(RDObject, (PyTypeObject *)t);
    Py_DECREF(t);
    if (!r) {
        Py_DECREF(name);
        return NULL;
    }
    r->vectorcall = RD_vectorcall;
    r->pyfunc = Py_NewRef(f);
    r->name = name;
    memset(r->plain, 0, sizeof r->plain);
    memset(r->init, 0, sizeof r->init);
    return (PyObject *)r;
}

static PyMethodDef rd_functions[] = {
    {"reduce", mod_reduce, METH_O,
     "reduce(func): a reduction from a binary scalar function, as "
     "numba.cuda.reduce: f(arr) reduces all of arr, f.reduce(arr, axis=0, "
     "initial=None, keepdims=False, out=None) as a ufunc's reduce."},
    {NULL, NULL, 0, NULL},
};

int empy_vzreduce_init(PyObject *m, empy_state *st)
{
    PyTypeObject *t = NULL;
    (void)st;
    if (empy_add_type(m, &RD_spec, NULL, &t) < 0)
        return -1;
    Py_DECREF(t);
    return PyModule_AddFunctions(m, rd_functions);
}
