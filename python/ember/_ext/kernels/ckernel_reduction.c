/* ember Python extension: ember.ReductionKernel (CuPy's spelling), over
 * the em_ckernel reduction of include/ember/ckernel.h. */
#include <string.h>

#include "kernels/ckernel.h"
#include "runtime/errors.h"
#include "structmember.h"
#include "runtime/member_compat.h"

typedef empy_ck_object RKObject;

/* stream second, where empy_ck_call_args reads it */
static const char *const call_kw[] = {"axis", "stream", "keepdims", "out", NULL};

/* axis: None (all), an int, or a sequence of ints. */
static int parse_axes(PyObject *o, int *axes, int *naxis)
{
    PyObject *seq = NULL;
    Py_ssize_t n = 1, i;
    *naxis = -1;
    if (!o || o == Py_None)
        return 0;
    if (!PyLong_Check(o) && !(seq = PySequence_Tuple(o))) {
        PyErr_Format(PyExc_TypeError, "axis must be None, an int or a tuple of ints, not "
                     "'%.100s'", Py_TYPE(o)->tp_name);
        return -1;
    }
    if (seq && (n = PyTuple_GET_SIZE(seq)) > EM_MAX_NDIM)
        PyErr_SetString(PyExc_ValueError, "too many axes");
    for (i = 0; i < n && !PyErr_Occurred(); i++) {
        PyObject *e = seq ? PyTuple_GET_ITEM(seq, i) : o;
        if (PyLong_Check(e))
            axes[i] = (int)PyLong_AsLong(e);
        else
            PyErr_Format(PyExc_TypeError, "axis entries must be ints, not '%.100s'",
                         Py_TYPE(e)->tp_name);
    }
    Py_XDECREF(seq);
    *naxis = (int)n;
    return PyErr_Occurred() ? -1 : 0;
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

    if (empy_ck_call_args(rk, args, n, kwnames, call_kw, kw, &s) < 0 ||
        parse_axes(kw[0], axes, &naxis) < 0 ||
        (kw[2] && (keepdims = PyObject_IsTrue(kw[2])) < 0))
        return NULL;
    memset(&a, 0, sizeof a);
    if (empy_ck_inputs(st, rk->k, args, rk->nin, &a) < 0)
        goto done;
    if (kw[3] && kw[3] != Py_None) {    /* out=: the output, or a tuple of them */
        int one = rk->nout == 1;
        if (n > rk->nin) {
            PyErr_SetString(PyExc_TypeError,
                            "outputs given both positionally and as out=");
            goto done;
        }
        if (!one && (!PyTuple_Check(kw[3]) || PyTuple_GET_SIZE(kw[3]) != rk->nout)) {
            PyErr_Format(PyExc_TypeError, "'%s' has %d outputs: out= must be a tuple of "
                         "as many", em_ckernel_name(rk->k), rk->nout);
            goto done;
        }
        for (int j = 0; j < rk->nout; j++)
            if (empy_ck_output(rk->k, j, one ? kw[3] : PyTuple_GET_ITEM(kw[3], j), &a) < 0)
                goto done;
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

static PyObject *RK_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    em_ckernel_desc d;
    const char **const fields[] = {&d.in_params, &d.out_params, &d.map_expr,
                                   &d.reduce_expr, &d.post_map_expr, &d.identity,
                                   &d.name, &d.reduce_type, NULL, &d.preamble};
    return (PyObject *)empy_ck_new(type, args, kw, "reduction", RK_vectorcall, &d, fields,
                                   8, em_ckernel_create_reduction);
}

static PyObject *RK_repr(PyObject *self)
{
    PyObject *t = ((RKObject *)self)->spec;
    return PyUnicode_FromFormat("<ember.ReductionKernel '%U' (%U) -> (%U)>",
                                PyTuple_GET_ITEM(t, 6), PyTuple_GET_ITEM(t, 0),
                                PyTuple_GET_ITEM(t, 1));
}

static PyGetSetDef RK_getset[] = {
    EMPY_CK_SPEC("in_params", 0), EMPY_CK_SPEC("out_params", 1), EMPY_CK_SPEC("map_expr", 2),
    EMPY_CK_SPEC("reduce_expr", 3), EMPY_CK_SPEC("post_map_expr", 4), EMPY_CK_SPEC("identity", 5),
    EMPY_CK_SPEC("name", 6), EMPY_CK_SPEC("reduce_type", 7), EMPY_CK_SPEC("reduce_dims", 8),
    EMPY_CK_SPEC("preamble", 9), EMPY_CK_SPEC("options", 10), {NULL},
};

static PyMemberDef RK_members[] = {
    EMPY_VECTORCALL_MEMBER(RKObject),
    EMPY_CK_MEMBERS(RKObject),
    {NULL, 0, 0, 0, NULL},
};

static PyType_Slot RK_slots[] = {
    {Py_tp_new, RK_new},
    {Py_tp_dealloc, empy_ck_dealloc},
    {Py_tp_repr, RK_repr},
    {Py_tp_call, PyVectorcall_Call},
    {Py_tp_methods, empy_ck_methods},
    {Py_tp_members, RK_members},
    {Py_tp_getset, RK_getset},
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
