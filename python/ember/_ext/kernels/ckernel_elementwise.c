/* ember Python extension: ember.ElementwiseKernel (CuPy's spelling), and
 * the argument handling the C-string kernel types share (ckernel.h).
 *
 * The object holds an em_ckernel, which caches its compiled
 * specialisations; a call converts its arguments to operands, releases
 * the GIL and runs it, so a repeated call runs no Python and builds no
 * strings. */
#include <string.h>

#include "kernels/ckernel.h"
#include "runtime/errors.h"
#include "structmember.h"
#include "runtime/member_compat.h"

/* ---- shared helpers ---------------------------------------------------- */

int empy_ck_inputs(empy_state *st, const em_ckernel *k, PyObject *const *objs,
                   int nin, empy_ck_args *a)
{
    for (int j = 0; j < nin; j++) {
        PyObject *o = objs[j];
        int r;
        if (empy_is_ndarray(o)) {
            memset(&a->in[j], 0, sizeof a->in[j]);
            a->in[j].array = EMPY_ARR(o);
            a->in[j].dtype = EMPY_ARR(o)->dtype;
            continue;
        }
        if ((r = empy_scalar_operand(o, &a->in[j])) < 0)
            return -1;
        if (r == 1)
            continue;
        if (o == Py_None) {
            PyErr_Format(PyExc_TypeError,
                         "'%s': None is not a valid argument for '%s'",
                         em_ckernel_name(k), em_ckernel_param_name(k, j));
            return -1;
        }
        a->keep[j] = empy_asarray(st, o, -1, NULL, EMPY_COPY_IF_NEEDED, 'K');
        if (!a->keep[j]) {
            if (PyErr_ExceptionMatches(PyExc_TypeError) ||
                PyErr_ExceptionMatches(PyExc_ValueError)) {
                PyErr_Clear();
                PyErr_Format(PyExc_TypeError,
                             "'%s': unsupported argument of type '%.100s' "
                             "for '%s' (an array or a scalar is needed)",
                             em_ckernel_name(k), Py_TYPE(o)->tp_name,
                             em_ckernel_param_name(k, j));
            }
            return -1;
        }
        memset(&a->in[j], 0, sizeof a->in[j]);
        a->in[j].array = EMPY_ARR(a->keep[j]);
        a->in[j].dtype = a->in[j].array->dtype;
    }
    return 0;
}

int empy_ck_output(const em_ckernel *k, int j, PyObject *o, empy_ck_args *a)
{
    if (!o || o == Py_None)
        return 0;
    if (!empy_is_ndarray(o)) {
        PyErr_Format(PyExc_TypeError,
                     "'%s': the output '%s' must be an ember ndarray, not "
                     "'%.100s'",
                     em_ckernel_name(k),
                     em_ckernel_param_name(k, em_ckernel_nin(k) + j),
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    a->out[j] = *EMPY_ARR(o);   /* borrowed view: never released here */
    a->outobj[j] = o;
    return 0;
}

void empy_ck_args_clear(empy_ck_args *a, int nout)
{
    for (int j = 0; j < EM_CK_MAX_PARAMS; j++)
        Py_CLEAR(a->keep[j]);
    for (int j = 0; j < nout; j++)
        if (!a->outobj[j])
            em_array_release(&a->out[j]);
}

PyObject *empy_ck_results(empy_state *st, empy_ck_args *a, int nout,
                          int as_tuple)
{
    PyObject *t = NULL;
    if (nout > 1 || as_tuple)
        if (!(t = PyTuple_New(nout)))
            return NULL;
    for (int j = 0; j < nout; j++) {
        PyObject *r;
        if (a->outobj[j])
            r = Py_NewRef(a->outobj[j]);
        else
            r = empy_ndarray_new(st, &a->out[j], NULL);
        if (!r) {
            Py_XDECREF(t);
            return NULL;
        }
        if (!t)
            return r;
        PyTuple_SET_ITEM(t, j, r);
    }
    return t;
}

int empy_ck_stream(empy_state *st, PyObject *o, em_stream **s)
{
    *s = NULL;
    if (!o || o == Py_None)
        return 0;
    if (!(*s = empy_stream_resolve(st, o)))
        return -1;
    return 0;
}

int empy_ck_options(PyObject *o, char ***out, int *n)
{
    PyObject *seq;
    Py_ssize_t m;
    *out = NULL;
    *n = 0;
    if (!o || o == Py_None)
        return 0;
    if (PyUnicode_Check(o))
        seq = PyTuple_Pack(1, o);
    else
        seq = PySequence_Tuple(o);
    if (!seq) {
        PyErr_SetString(PyExc_TypeError,
                        "options must be a string or a sequence of strings");
        return -1;
    }
    m = PyTuple_GET_SIZE(seq);
    if (m > 0 && !(*out = PyMem_Calloc((size_t)m, sizeof(char *)))) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < m; i++) {
        PyObject *e = PyTuple_GET_ITEM(seq, i);
        const char *s = PyUnicode_Check(e) ? PyUnicode_AsUTF8(e) : NULL;
        size_t len;
        if (!s) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_TypeError,
                             "options must be strings, not '%.100s'",
                             Py_TYPE(e)->tp_name);
            goto fail;
        }
        len = strlen(s) + 1;
        if (!((*out)[i] = PyMem_Malloc(len))) {
            PyErr_NoMemory();
            goto fail;
        }
        memcpy((*out)[i], s, len);
        (*n)++;
    }
    Py_DECREF(seq);
    return 0;
fail:
    Py_DECREF(seq);
    empy_ck_options_free(*out, *n);
    *out = NULL;
    *n = 0;
    return -1;
}

void empy_ck_options_free(char **opts, int n)
{
    for (int i = 0; i < n; i++)
        PyMem_Free(opts[i]);
    PyMem_Free(opts);
}

/* ---- ElementwiseKernel ------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    em_ckernel *k;
    PyObject *name, *in_params, *out_params, *operation, *preamble;
    PyObject *loop_prep, *after_loop, *options;
    int nin, nout, nargs, reduce_dims, no_return, return_tuple;
} EKObject;

_Static_assert(offsetof(EKObject, vectorcall) ==
                       offsetof(empy_ck_object, vectorcall) &&
                   offsetof(EKObject, k) == offsetof(empy_ck_object, k),
               "EKObject must begin as empy_ck_object");

static const char *const call_kw[] = {"size", "stream", "block_size",
                                      "shared_mem", NULL};

static PyObject *EK_vectorcall(PyObject *self, PyObject *const *args,
                               size_t nargsf, PyObject *kwnames)
{
    EKObject *ek = (EKObject *)self;
    empy_state *st = empy_state_of(self);
    Py_ssize_t n = PyVectorcall_NARGS(nargsf);
    PyObject *kw[4];
    empy_ck_args a;
    em_stream *s;
    long long size = -1;
    em_status rc;
    PyObject *res = NULL;

    if (n != ek->nin && n != ek->nin + ek->nout) {
        PyErr_Format(PyExc_TypeError,
                     "Wrong number of arguments for '%s': %d inputs (and "
                     "optionally %d outputs) expected, %zd given",
                     em_ckernel_name(ek->k), ek->nin, ek->nout, n);
        return NULL;
    }
    if (empy_parse_args(em_ckernel_name(ek->k), args + n, 0, kwnames,
                        call_kw, 0, 0, kw) < 0)
        return NULL;
    if (kw[0] && kw[0] != Py_None) {
        size = PyLong_AsLongLong(kw[0]);
        if (size == -1 && PyErr_Occurred())
            return NULL;
        if (size < 0) {
            PyErr_Format(PyExc_ValueError, "'%s': size must be >= 0, not %lld",
                         em_ckernel_name(ek->k), size);
            return NULL;
        }
    }
    if (empy_ck_stream(st, kw[1], &s) < 0)
        return NULL;
    memset(&a, 0, sizeof a);
    if (empy_ck_inputs(st, ek->k, args, ek->nin, &a) < 0)
        goto done;
    for (int j = 0; j < ek->nout && n > ek->nin; j++)
        if (empy_ck_output(ek->k, j, args[ek->nin + j], &a) < 0)
            goto done;
    EMPY_NOGIL(rc, em_ckernel_elementwise(ek->k, a.in, a.out, size, s));
    if (rc != EM_OK) {
        empy_raise(st, rc);
        goto done;
    }
    /* allocated outputs move into the result (their em_arrays are
     * zeroed then); with no_return the clear below drops them */
    res = ek->no_return ? Py_NewRef(Py_None)
                        : empy_ck_results(st, &a, ek->nout, ek->return_tuple);
done:
    empy_ck_args_clear(&a, ek->nout);
    return res;
}

static PyObject *EK_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"in_params", "out_params", "operation", "name",
                             "reduce_dims", "preamble", "no_return",
                             "return_tuple", "loop_prep", "after_loop",
                             "options", NULL};
    const char *in_p, *out_p, *op, *name = "kernel", *pre = "", *lp = "",
                                          *al = "";
    int reduce_dims = 1, no_return = 0, return_tuple = 0;
    PyObject *options = NULL;
    em_ckernel_desc d;
    char **opts = NULL;
    int nopts = 0;
    em_status rc;
    EKObject *ek;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "sss|spsppssO:ElementwiseKernel",
                                     kwlist, &in_p, &out_p, &op, &name,
                                     &reduce_dims, &pre, &no_return,
                                     &return_tuple, &lp, &al, &options))
        return NULL;
    if (empy_ck_options(options, &opts, &nopts) < 0)
        return NULL;
    memset(&d, 0, sizeof d);
    d.in_params = in_p;
    d.out_params = out_p;
    d.operation = op;
    d.name = name;
    d.preamble = pre;
    d.loop_prep = lp;
    d.after_loop = al;
    d.options = (const char *const *)opts;
    d.n_options = nopts;
    d.reduce_dims = reduce_dims;
    if (!(ek = (EKObject *)type->tp_alloc(type, 0))) {
        empy_ck_options_free(opts, nopts);
        return NULL;
    }
    ek->vectorcall = EK_vectorcall;
    rc = em_ckernel_create_elementwise(&d, &ek->k);
    empy_ck_options_free(opts, nopts);
    if (rc != EM_OK) {
        Py_DECREF(ek);
        return empy_raise(empy_state_of_type(type), rc);
    }
    ek->nin = em_ckernel_nin(ek->k);
    ek->nout = em_ckernel_nout(ek->k);
    ek->nargs = ek->nin + ek->nout;
    ek->reduce_dims = reduce_dims;
    ek->no_return = no_return;
    ek->return_tuple = return_tuple;
    ek->name = PyUnicode_FromString(name);
    ek->in_params = PyUnicode_FromString(in_p);
    ek->out_params = PyUnicode_FromString(out_p);
    ek->operation = PyUnicode_FromString(op);
    ek->preamble = PyUnicode_FromString(pre);
    ek->loop_prep = PyUnicode_FromString(lp);
    ek->after_loop = PyUnicode_FromString(al);
    ek->options = options && PyUnicode_Check(options)
                      ? PyTuple_Pack(1, options)
                      : options ? PySequence_Tuple(options) : PyTuple_New(0);
    if (!ek->name || !ek->in_params || !ek->out_params || !ek->operation ||
        !ek->preamble || !ek->loop_prep || !ek->after_loop || !ek->options) {
        Py_DECREF(ek);
        return NULL;
    }
    return (PyObject *)ek;
}

static void EK_dealloc(PyObject *self)
{
    EKObject *ek = (EKObject *)self;
    PyTypeObject *tp = Py_TYPE(self);
    em_ckernel_destroy(ek->k);
    Py_XDECREF(ek->name);
    Py_XDECREF(ek->in_params);
    Py_XDECREF(ek->out_params);
    Py_XDECREF(ek->operation);
    Py_XDECREF(ek->preamble);
    Py_XDECREF(ek->loop_prep);
    Py_XDECREF(ek->after_loop);
    Py_XDECREF(ek->options);
    tp->tp_free(self);
    Py_DECREF(tp);
}

static PyObject *EK_repr(PyObject *self)
{
    EKObject *ek = (EKObject *)self;
    return PyUnicode_FromFormat("<ember.ElementwiseKernel '%U' (%U) -> (%U)>",
                                ek->name, ek->in_params, ek->out_params);
}

static PyObject *ck_cached(PyObject *self, PyObject *unused)
{
    (void)unused;
    return PyLong_FromLong(em_ckernel_cached(((empy_ck_object *)self)->k));
}

static PyObject *ck_check_cuda(PyObject *self, PyObject *on)
{
    int v = PyObject_IsTrue(on);
    if (v < 0)
        return NULL;
    em_ckernel_set_check_cuda(((empy_ck_object *)self)->k, v);
    Py_RETURN_NONE;
}

PyMethodDef empy_ck_methods[] = {
    {"_set_check_cuda", ck_check_cuda, METH_O,
     "Tests: also compile each new cpu variant's CUDA twin with NVRTC."},
    {"_cached_count", ck_cached, METH_NOARGS,
     "How many specialisations this kernel has compiled."},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef EK_members[] = {
    EMPY_VECTORCALL_MEMBER(EKObject),
    {"name", T_OBJECT, offsetof(EKObject, name), READONLY, NULL},
    {"in_params", T_OBJECT, offsetof(EKObject, in_params), READONLY, NULL},
    {"out_params", T_OBJECT, offsetof(EKObject, out_params), READONLY, NULL},
    {"operation", T_OBJECT, offsetof(EKObject, operation), READONLY, NULL},
    {"preamble", T_OBJECT, offsetof(EKObject, preamble), READONLY, NULL},
    {"loop_prep", T_OBJECT, offsetof(EKObject, loop_prep), READONLY, NULL},
    {"after_loop", T_OBJECT, offsetof(EKObject, after_loop), READONLY, NULL},
    {"options", T_OBJECT, offsetof(EKObject, options), READONLY, NULL},
    {"nin", T_INT, offsetof(EKObject, nin), READONLY, NULL},
    {"nout", T_INT, offsetof(EKObject, nout), READONLY, NULL},
    {"nargs", T_INT, offsetof(EKObject, nargs), READONLY, NULL},
    {"reduce_dims", T_BOOL, offsetof(EKObject, reduce_dims), READONLY, NULL},
    {"no_return", T_BOOL, offsetof(EKObject, no_return), READONLY, NULL},
    {"return_tuple", T_BOOL, offsetof(EKObject, return_tuple), READONLY,
     NULL},
    {NULL, 0, 0, 0, NULL},
};

static PyType_Slot EK_slots[] = {
    {Py_tp_new, EK_new},
    {Py_tp_dealloc, EK_dealloc},
    {Py_tp_repr, EK_repr},
    {Py_tp_call, PyVectorcall_Call},
    {Py_tp_methods, empy_ck_methods},
    {Py_tp_members, EK_members},
    {Py_tp_doc, "ElementwiseKernel(in_params, out_params, operation, "
                "name='kernel', reduce_dims=True, preamble='', "
                "no_return=False, return_tuple=False, loop_prep='', "
                "after_loop='', options=())\n\nAn elementwise kernel from a "
                "C snippet, as CuPy's: parameters like 'T x, raw T y, "
                "float32 z', broadcasting, `i` and `_ind.size()`. Runs on "
                "the arguments' device (cpu or cuda)."},
    {0, NULL},
};

static PyType_Spec EK_spec = {
    "ember.ElementwiseKernel", sizeof(EKObject), 0,
    Py_TPFLAGS_DEFAULT | EMPY_TPFLAGS_IMMUTABLE | Py_TPFLAGS_HAVE_VECTORCALL,
    EK_slots,
};

int empy_ckernel_init(PyObject *m, empy_state *st)
{
    PyTypeObject *t = NULL;
    (void)st;
    if (empy_add_type(m, &EK_spec, NULL, &t) < 0)
        return -1;
    Py_DECREF(t);
    return empy_ckreduction_init(m);
}
