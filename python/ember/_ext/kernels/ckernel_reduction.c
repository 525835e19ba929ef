/* ember Python extension: ember.ReductionKernel (CuPy's spelling), over
 * the em_ckernel reduction of include/ember/ckernel.h. */
#include <string.h>

#include "kernels/ckernel.h"
#include "runtime/errors.h"
#include "structmember.h"
#include "runtime/member_compat.h"

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    em_ckernel *k;
    PyObject *name, *in_params, *out_params, *map_expr, *reduce_expr;
    PyObject *post_map_expr, *identity, *reduce_type, *preamble, *options;
    int nin, nout, nargs, reduce_dims;
} RKObject;

_Static_assert(offsetof(RKObject, vectorcall) ==
                       offsetof(empy_ck_object, vectorcall) &&
                   offsetof(RKObject, k) == offsetof(empy_ck_object, k),
               "RKObject must begin as empy_ck_object");

static const char *const call_kw[] = {"axis", "keepdims", "out", "stream",
                                      NULL};

/* axis: None (all), an int, or a sequence of ints. */
static int parse_axes(PyObject *o, int *axes, int *naxis)
{
    PyObject *seq;
    if (!o || o == Py_None) {
        *naxis = -1;
        return 0;
    }
    if (PyLong_Check(o)) {
        long v = PyLong_AsLong(o);
        if (v == -1 && PyErr_Occurred())
            return -1;
        axes[0] = (int)v;
        *naxis = 1;
        return 0;
    }
    if (!(seq = PySequence_Tuple(o))) {
        PyErr_Format(PyExc_TypeError,
                     "axis must be None, an int or a tuple of ints, not "
                     "'%.100s'",
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    if (PyTuple_GET_SIZE(seq) > EM_MAX_NDIM) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "too many axes");
        return -1;
    }
    *naxis = (int)PyTuple_GET_SIZE(seq);
    for (int i = 0; i < *naxis; i++) {
        PyObject *e = PyTuple_GET_ITEM(seq, i);
        long v;
        if (!PyLong_Check(e)) {
            /* e belongs to seq: name its type before letting seq go */
            PyErr_Format(PyExc_TypeError, "axis entries must be ints, not "
                                          "'%.100s'",
                         Py_TYPE(e)->tp_name);
            Py_DECREF(seq);
            return -1;
        }
        v = PyLong_AsLong(e);
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        axes[i] = (int)v;
    }
    Py_DECREF(seq);
    return 0;
}

static PyObject *RK_vectorcall(PyObject *self, PyObject *const *args,
                               size_t nargsf, PyObject *kwnames)
{
    RKObject *rk = (RKObject *)self;
    empy_state *st = empy_state_of(self);
    Py_ssize_t n = PyVectorcall_NARGS(nargsf);
    PyObject *kw[4], *res = NULL;
    empy_ck_args a;
    em_stream *s;
    int axes[EM_MAX_NDIM], naxis = -1, keepdims = 0;
    em_status rc;

    if (n != rk->nin && n != rk->nin + rk->nout) {
        PyErr_Format(PyExc_TypeError,
                     "Wrong number of arguments for '%s': %d inputs (and "
                     "optionally %d outputs) expected, %zd given",
                     em_ckernel_name(rk->k), rk->nin, rk->nout, n);
        return NULL;
    }
    if (empy_parse_args(em_ckernel_name(rk->k), args + n, 0, kwnames,
                        call_kw, 0, 0, kw) < 0)
        return NULL;
    if (parse_axes(kw[0], axes, &naxis) < 0)
        return NULL;
    if (kw[1] && (keepdims = PyObject_IsTrue(kw[1])) < 0)
        return NULL;
    if (empy_ck_stream(st, kw[3], &s) < 0)
        return NULL;
    memset(&a, 0, sizeof a);
    if (empy_ck_inputs(st, rk->k, args, rk->nin, &a) < 0)
        goto done;
    if (kw[2] && kw[2] != Py_None) {
        if (n > rk->nin) {
            PyErr_SetString(PyExc_TypeError,
                            "outputs given both positionally and as out=");
            goto done;
        }
        if (rk->nout == 1) {
            if (empy_ck_output(rk->k, 0, kw[2], &a) < 0)
                goto done;
        } else {
            if (!PyTuple_Check(kw[2]) ||
                PyTuple_GET_SIZE(kw[2]) != rk->nout) {
                PyErr_Format(PyExc_TypeError,
                             "'%s' has %d outputs: out= must be a tuple of "
                             "as many",
                             em_ckernel_name(rk->k), rk->nout);
                goto done;
            }
            for (int j = 0; j < rk->nout; j++)
                if (empy_ck_output(rk->k, j, PyTuple_GET_ITEM(kw[2], j),
                                   &a) < 0)
                    goto done;
        }
    }
    for (int j = 0; j < rk->nout && n > rk->nin; j++)
        if (empy_ck_output(rk->k, j, args[rk->nin + j], &a) < 0)
            goto done;
    EMPY_NOGIL(rc, em_ckernel_reduce(rk->k, a.in, a.out, axes, naxis,
                                     keepdims, s));
    if (rc != EM_OK) {
        empy_raise(st, rc);
        goto done;
    }
    res = empy_ck_results(st, &a, rk->nout, 0);
done:
    empy_ck_args_clear(&a, rk->nout);
    return res;
}

static PyObject *RK_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"in_params", "out_params", "map_expr",
                             "reduce_expr", "post_map_expr", "identity",
                             "name", "reduce_type", "reduce_dims", "preamble",
                             "options", NULL};
    const char *in_p, *out_p, *map_e, *red_e, *post_e, *name = "reduce_kernel",
                                                       *pre = "";
    PyObject *identity = Py_None, *reduce_type = Py_None, *options = NULL;
    PyObject *id_str = NULL, *rt_str = NULL;
    int reduce_dims = 1;
    em_ckernel_desc d;
    char **opts = NULL;
    int nopts = 0;
    em_status rc;
    RKObject *rk;
    if (!PyArg_ParseTupleAndKeywords(
            args, kwds, "sssss|OsOpsO:ReductionKernel", kwlist, &in_p, &out_p,
            &map_e, &red_e, &post_e, &identity, &name, &reduce_type,
            &reduce_dims, &pre, &options))
        return NULL;
    if (identity != Py_None && !(id_str = PyObject_Str(identity)))
        return NULL;
    if (reduce_type != Py_None) {
        if (!PyUnicode_Check(reduce_type)) {
            em_dtype rd;
            if (empy_dtype_arg(empy_state_of_type(type), reduce_type, &rd) <
                    0 ||
                !(rt_str = PyUnicode_FromString(em_dtype_get(rd)->name))) {
                Py_XDECREF(id_str);
                return NULL;
            }
        } else {
            rt_str = Py_NewRef(reduce_type);
        }
    }
    if (empy_ck_options(options, &opts, &nopts) < 0)
        goto fail0;
    memset(&d, 0, sizeof d);
    d.in_params = in_p;
    d.out_params = out_p;
    d.map_expr = map_e;
    d.reduce_expr = red_e;
    d.post_map_expr = post_e;
    d.identity = id_str ? PyUnicode_AsUTF8(id_str) : NULL;
    d.reduce_type = rt_str ? PyUnicode_AsUTF8(rt_str) : NULL;
    d.name = name;
    d.preamble = pre;
    d.options = (const char *const *)opts;
    d.n_options = nopts;
    d.reduce_dims = reduce_dims;
    if ((id_str && !d.identity) || (rt_str && !d.reduce_type))
        goto fail0;
    if (!(rk = (RKObject *)type->tp_alloc(type, 0)))
        goto fail0;
    rk->vectorcall = RK_vectorcall;
    rc = em_ckernel_create_reduction(&d, &rk->k);
    empy_ck_options_free(opts, nopts);
    opts = NULL;
    if (rc != EM_OK) {
        Py_DECREF(rk);
        Py_XDECREF(id_str);
        Py_XDECREF(rt_str);
        return empy_raise(empy_state_of_type(type), rc);
    }
    rk->nin = em_ckernel_nin(rk->k);
    rk->nout = em_ckernel_nout(rk->k);
    rk->nargs = rk->nin + rk->nout;
    rk->reduce_dims = reduce_dims;
    rk->identity = id_str ? id_str : Py_NewRef(Py_None);
    rk->reduce_type = rt_str ? rt_str : Py_NewRef(Py_None);
    rk->name = PyUnicode_FromString(name);
    rk->in_params = PyUnicode_FromString(in_p);
    rk->out_params = PyUnicode_FromString(out_p);
    rk->map_expr = PyUnicode_FromString(map_e);
    rk->reduce_expr = PyUnicode_FromString(red_e);
    rk->post_map_expr = PyUnicode_FromString(post_e);
    rk->preamble = PyUnicode_FromString(pre);
    rk->options = options && PyUnicode_Check(options)
                      ? PyTuple_Pack(1, options)
                      : options ? PySequence_Tuple(options) : PyTuple_New(0);
    if (!rk->name || !rk->in_params || !rk->out_params || !rk->map_expr ||
        !rk->reduce_expr || !rk->post_map_expr || !rk->preamble ||
        !rk->options) {
        Py_DECREF(rk);
        return NULL;
    }
    return (PyObject *)rk;
fail0:
    empy_ck_options_free(opts, nopts);
    Py_XDECREF(id_str);
    Py_XDECREF(rt_str);
    return NULL;
}

static void RK_dealloc(PyObject *self)
{
    RKObject *rk = (RKObject *)self;
    PyTypeObject *tp = Py_TYPE(self);
    em_ckernel_destroy(rk->k);
    Py_XDECREF(rk->name);
    Py_XDECREF(rk->in_params);
    Py_XDECREF(rk->out_params);
    Py_XDECREF(rk->map_expr);
    Py_XDECREF(rk->reduce_expr);
    Py_XDECREF(rk->post_map_expr);
    Py_XDECREF(rk->identity);
    Py_XDECREF(rk->reduce_type);
    Py_XDECREF(rk->preamble);
    Py_XDECREF(rk->options);
    tp->tp_free(self);
    Py_DECREF(tp);
}

static PyObject *RK_repr(PyObject *self)
{
    RKObject *rk = (RKObject *)self;
    return PyUnicode_FromFormat("<ember.ReductionKernel '%U' (%U) -> (%U)>",
                                rk->name, rk->in_params, rk->out_params);
}

static PyMemberDef RK_members[] = {
    EMPY_VECTORCALL_MEMBER(RKObject),
    {"name", T_OBJECT, offsetof(RKObject, name), READONLY, NULL},
    {"in_params", T_OBJECT, offsetof(RKObject, in_params), READONLY, NULL},
    {"out_params", T_OBJECT, offsetof(RKObject, out_params), READONLY, NULL},
    {"map_expr", T_OBJECT, offsetof(RKObject, map_expr), READONLY, NULL},
    {"reduce_expr", T_OBJECT, offsetof(RKObject, reduce_expr), READONLY,
     NULL},
    {"post_map_expr", T_OBJECT, offsetof(RKObject, post_map_expr), READONLY,
     NULL},
    {"identity", T_OBJECT, offsetof(RKObject, identity), READONLY, NULL},
    {"reduce_type", T_OBJECT, offsetof(RKObject, reduce_type), READONLY,
     NULL},
    {"preamble", T_OBJECT, offsetof(RKObject, preamble), READONLY, NULL},
    {"options", T_OBJECT, offsetof(RKObject, options), READONLY, NULL},
    {"nin", T_INT, offsetof(RKObject, nin), READONLY, NULL},
    {"nout", T_INT, offsetof(RKObject, nout), READONLY, NULL},
    {"nargs", T_INT, offsetof(RKObject, nargs), READONLY, NULL},
    {"reduce_dims", T_BOOL, offsetof(RKObject, reduce_dims), READONLY, NULL},
    {NULL, 0, 0, 0, NULL},
};

static PyType_Slot RK_slots[] = {
    {Py_tp_new, RK_new},
    {Py_tp_dealloc, RK_dealloc},
    {Py_tp_repr, RK_repr},
    {Py_tp_call, PyVectorcall_Call},
    {Py_tp_methods, empy_ck_methods},
    {Py_tp_members, RK_members},
    {Py_tp_doc, "ReductionKernel(in_params, out_params, map_expr, "
                "reduce_expr, post_map_expr, identity, name='reduce_kernel', "
                "reduce_type=None, reduce_dims=True, preamble='', "
                "options=())\n\nA reduction from C snippets, as CuPy's: "
                "map_expr over the inputs, reduce_expr over `a` and `b`, "
                "post_map_expr from `a` to the outputs. Call with "
                "(*args, axis=None, keepdims=False, out=None, stream=None)."},
    {0, NULL},
};

static PyType_Spec RK_spec = {
    "ember.ReductionKernel", sizeof(RKObject), 0,
    Py_TPFLAGS_DEFAULT | EMPY_TPFLAGS_IMMUTABLE | Py_TPFLAGS_HAVE_VECTORCALL,
    RK_slots,
};

int empy_ckreduction_init(PyObject *m)
{
    PyTypeObject *t = NULL;
    if (empy_add_type(m, &RK_spec, NULL, &t) < 0)
        return -1;
    Py_DECREF(t);
    return 0;
}
