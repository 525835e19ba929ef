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
#include "runtime/args.h"

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

int empy_ck_call_args(const empy_ck_object *o, PyObject *const *args, Py_ssize_t n,
                      PyObject *kwnames, const char *const *names, PyObject **kw,
                      em_stream **s)
{
    if (n != o->nin && n != o->nin + o->nout) {
        PyErr_Format(PyExc_TypeError,
                     "Wrong number of arguments for '%s': %d inputs (and "
                     "optionally %d outputs) expected, %zd given",
                     em_ckernel_name(o->k), o->nin, o->nout, n);
        return -1;
    }
    /* CuPy's kernels run on the current stream unless given one (a graph
     * captures work only from the stream it records) */
    *s = em_current_stream();
    if (empy_parse_args(em_ckernel_name(o->k), args + n, 0, kwnames, names, 0, 0, kw) < 0)
        return -1;
    return kw[1] && kw[1] != Py_None &&
           !(*s = empy_stream_resolve(empy_state_of((PyObject *)o), kw[1])) ? -1 : 0;
}

empy_ck_object *empy_ck_new(PyTypeObject *type, PyObject *args, PyObject *kw,
                            const char *function, vectorcallfunc call,
                            em_ckernel_desc *d, const char **const *fields,
                            int reduce_dims_at,
                            em_status (*create)(const em_ckernel_desc *,
                                                em_ckernel **))
{
    const empy_pyattr w = {"ember._api.kernel_args", function};
    PyObject *spec = empy_py_method_tuple(&w, (PyObject *)type, args, kw);
    empy_ck_object *o;
    const char **opts = NULL;
    em_status rc;
    if (!spec || !(o = (empy_ck_object *)type->tp_alloc(type, 0))) {
        Py_XDECREF(spec);
        return NULL;
    }
    o->vectorcall = call;
    o->spec = spec;
    memset(d, 0, sizeof *d);
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(spec) - 1; i++) {
        PyObject *v = PyTuple_GET_ITEM(spec, i);
        if (fields[i] && v != Py_None && !(*fields[i] = PyUnicode_AsUTF8(v)))
            goto fail;
    }
    d->reduce_dims = PyTuple_GET_ITEM(spec, reduce_dims_at) == Py_True;
    if (!(opts = empy_options_array(PyTuple_GET_ITEM(spec, PyTuple_GET_SIZE(spec) - 1),
                                    &d->n_options)))
        goto fail;
    d->options = opts;
    rc = create(d, &o->k);
    PyMem_Free(opts);
    if (rc != EM_OK) {
        empy_raise(empy_state_of_type(type), rc);
        goto fail;
    }
    o->nin = em_ckernel_nin(o->k);
    o->nout = em_ckernel_nout(o->k);
    o->nargs = o->nin + o->nout;
    return o;
fail:
    Py_DECREF(o);
    return NULL;
}

void empy_ck_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    if (((empy_ck_object *)self)->k)
        em_ckernel_destroy(((empy_ck_object *)self)->k);
    Py_XDECREF(((empy_ck_object *)self)->spec);
    tp->tp_free(self);
    Py_DECREF(tp);
}

PyObject *empy_ck_spec_item(PyObject *self, void *closure)
{
    return Py_NewRef(PyTuple_GET_ITEM(((empy_ck_object *)self)->spec, (intptr_t)closure));
}

/* ---- ElementwiseKernel ------------------------------------------------- */

typedef struct {
    EMPY_CK_HEAD
    int no_return, return_tuple;
} EKObject;

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

    if (empy_ck_call_args((empy_ck_object *)ek, args, n, kwnames, call_kw, kw, &s) < 0)
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

static PyObject *EK_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    em_ckernel_desc d;
    const char **const fields[] = {&d.in_params, &d.out_params, &d.operation, &d.name,
                                   NULL, &d.preamble, NULL, NULL, &d.loop_prep,
                                   &d.after_loop};
    EKObject *ek = (EKObject *)empy_ck_new(type, args, kw, "elementwise", EK_vectorcall,
                                           &d, fields, 4, em_ckernel_create_elementwise);
    if (ek) {
        ek->no_return = PyTuple_GET_ITEM(ek->spec, 6) == Py_True;
        ek->return_tuple = PyTuple_GET_ITEM(ek->spec, 7) == Py_True;
    }
    return (PyObject *)ek;
}

static PyObject *EK_repr(PyObject *self)
{
    PyObject *t = ((EKObject *)self)->spec;
    return PyUnicode_FromFormat("<ember.ElementwiseKernel '%U' (%U) -> (%U)>",
                                PyTuple_GET_ITEM(t, 3), PyTuple_GET_ITEM(t, 0),
                                PyTuple_GET_ITEM(t, 1));
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

static PyGetSetDef EK_getset[] = {
    EMPY_CK_SPEC("in_params", 0), EMPY_CK_SPEC("out_params", 1), EMPY_CK_SPEC("operation", 2), EMPY_CK_SPEC("name", 3),
    EMPY_CK_SPEC("reduce_dims", 4), EMPY_CK_SPEC("preamble", 5), EMPY_CK_SPEC("no_return", 6),
    EMPY_CK_SPEC("return_tuple", 7), EMPY_CK_SPEC("loop_prep", 8), EMPY_CK_SPEC("after_loop", 9),
    EMPY_CK_SPEC("options", 10), {NULL},
};

static PyMemberDef EK_members[] = {
    EMPY_VECTORCALL_MEMBER(EKObject),
    EMPY_CK_MEMBERS(EKObject),
    {NULL, 0, 0, 0, NULL},
};

static PyType_Slot EK_slots[] = {
    {Py_tp_new, EK_new},
    {Py_tp_dealloc, empy_ck_dealloc},
    {Py_tp_repr, EK_repr},
    {Py_tp_call, PyVectorcall_Call},
    {Py_tp_methods, empy_ck_methods},
    {Py_tp_members, EK_members},
    {Py_tp_getset, EK_getset},
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
