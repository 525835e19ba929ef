/* ember Python extension: elementwise operations — the ndarray operators
 * (+, -, ..., comparisons, in-place and reflected forms), the ember.ufunc
 * objects (ember.add, ember.sqrt, ...) and __array_ufunc__, so that
 * numpy.add(x, y) on ember arrays runs in ember.
 *
 * The operator path is the hot one: operands become em_operands on the
 * stack (Python scalars by value and weak, as NEP 50 wants; NumPy scalars
 * by value and strong), em_ufunc_apply runs, and the result is wrapped.
 * No temporary Python object is made for ember arrays and scalars. */
#include <string.h>
#include "runtime/module.h"
#include "structmember.h"
#include "runtime/member_compat.h"
#include "runtime/args.h"
#include "runtime/errors.h"
#include "array/ndarray.h"

#define MAX_IN 2

/* em_ufunc_apply with the GIL released: a first call compiles its kernel
 * (a blocking wait), and the host backend may run a large one on the
 * calling thread. The operands are embedded in objects the caller holds. */
static em_status apply_nogil(em_op op, const em_operand *in, int nin, em_array *out,
                             const em_array *where)
{
    em_status rc;
    int done = 0;
    /* A new result may be recorded for fusion (src/fuse/fuse.h). That is
     * tried with the GIL held, as it never waits (dropping and retaking
     * the GIL was a tenth of a recorded operation's time); where it
     * would, the call is made again without the GIL. */
    if (!out->storage && !where) {
        rc = em_ufunc_apply_try(op, in, nin, out, &done);
        if (rc != EM_OK || done)
            return rc;
        EMPY_NOGIL(rc, em_ufunc_apply_lazy(op, in, nin, out, NULL, NULL));
    } else
        EMPY_NOGIL(rc, em_ufunc_apply(op, in, nin, out, where, NULL));
    return rc;
}

/* op into a new ndarray, made first so the call fills its em_array in
 * place (empy_ndarray_fresh). With a scalar-only result's array already
 * made in o when o is given. */
static PyObject *apply_new(empy_state *st, em_op op, const em_operand *in, int nin,
                           const em_array *where, empy_ndarray *o)
{
    em_status rc;
    if (!o && !(o = empy_ndarray_fresh(st)))
        return NULL;
    rc = apply_nogil(op, in, nin, &o->a, where);
    if (rc != EM_OK) {
        PyObject *r = empy_raise(st, rc);
        Py_DECREF(o);
        return r;
    }
    return empy_ndarray_fresh_done(st, o);
}

/* ---- operands ----------------------------------------------------------- */

/* Fill op from o without making objects: 1 done, 0 not an ember array or
 * scalar, -1 error. */
static int quick_operand(PyObject *o, em_operand *op)
{
    if (empy_is_ndarray(o)) {
        /* raw: a pending input joins the group instead of running it */
        memset(op, 0, sizeof *op);
        op->array = EMPY_ARR_RAW(o);
        op->dtype = EMPY_ARR_RAW(o)->dtype;
        return 1;
    }
    return empy_scalar_operand(o, op);
}

/* Array-likes that an elementwise call converts to an array on the
 * operation's device: sequences, and host or device arrays of other
 * libraries. Anything else makes an operator return NotImplemented. */
static int array_like(empy_state *st, PyObject *o)
{
    PyTypeObject *t = Py_TYPE(o);
    if (PyList_Check(o) || PyTuple_Check(o))
        return 1;
    if (PyUnicode_Check(o) || PyBytes_Check(o))
        return 0;
    if (t->tp_as_buffer && t->tp_as_buffer->bf_getbuffer)
        return 1;
    return PyObject_HasAttr(o, st->s_cai) || PyObject_HasAttr(o, st->s_array_interface);
}

typedef struct {
    em_operand ops[MAX_IN];
    PyObject *tmp[MAX_IN];      /* arrays converted from array-likes */
    em_device *dev;             /* the device of the array operands */
    int nin;
} operands_t;

static void operands_clear(operands_t *o)
{
    int i;
    for (i = 0; i < MAX_IN; i++)
        Py_CLEAR(o->tmp[i]);
}

/* Parse n inputs. Ember arrays and scalars first; then array-likes go to
 * the device of the ember operands (or of out, or the current one). A
 * NumPy array becomes a zero-copy cpu array, but is never moved to a GPU
 * behind the caller's back (that is a TypeError saying how). out (or
 * NULL) is checked first, for every caller: an ember array or a TypeError.
 * Returns 1, 0 when an input is not array-like (no exception), -1 on
 * error. */
static int parse_operands(empy_state *st, PyObject *const *in, int n,
                          PyObject *out_o, operands_t *o)
{
    int i, k, pending = 0;
    const em_array *out = NULL;
    memset(o, 0, sizeof *o);
    o->nin = n;
    if (out_o) {
        if (!empy_is_ndarray(out_o)) {
            PyErr_Format(PyExc_TypeError, "out must be an ember array, not %.100s",
                         Py_TYPE(out_o)->tp_name);
            return -1;
        }
        out = EMPY_ARR(out_o);
    }
    for (i = 0; i < n; i++) {
        k = quick_operand(in[i], &o->ops[i]);
        if (k < 0)
            return -1;
        if (k == 0) {
            if (!array_like(st, in[i]))
                return 0;
            pending = 1;
            o->ops[i].array = NULL;
            o->ops[i].dtype = EM_DTYPE_COUNT;   /* to convert below */
            continue;
        }
        if (o->ops[i].array && !o->dev)
            o->dev = o->ops[i].array->device;
    }
    if (!o->dev && out)
        o->dev = out->device;
    if (!pending)
        return 1;
    if (!o->dev && empy_device_arg(st, Py_None, &o->dev) < 0)
        return -1;
    for (i = 0; i < n; i++) {
        PyObject *a;
        if (o->ops[i].dtype != EM_DTYPE_COUNT)
            continue;
        if (!(a = empy_operand_on(st, in[i], o->dev)))
            return -1;
        o->tmp[i] = a;
        memset(&o->ops[i], 0, sizeof o->ops[i]);
        o->ops[i].array = EMPY_ARR(a);
        o->ops[i].dtype = EMPY_ARR(a)->dtype;
    }
    return 1;
}

PyObject *empy_operand_on(empy_state *st, PyObject *o, em_device *dev)
{
    if (empy_is_ndarray(o))
        return Py_NewRef(o);
    if (em_device_get_type(dev) != EM_DEVICE_CPU && !PyList_Check(o) &&
        !PyTuple_Check(o) && !PyLong_Check(o) && !PyFloat_Check(o) &&
        !PyComplex_Check(o) && !PyObject_HasAttr(o, st->s_cai)) {
        PyErr_Format(PyExc_TypeError, "an operand of type %.100s is in host memory "
                     "and the operation runs on %s; ember copies between devices "
                     "only when asked: use ember.asarray(x, device='%s')",
                     Py_TYPE(o)->tp_name, em_device_name(dev), em_device_name(dev));
        return NULL;
    }
    return empy_asarray(st, o, -1, dev, EMPY_COPY_IF_NEEDED, 'K');
}

/* ---- applying ------------------------------------------------------------ */

/* Run op over parsed operands into out (a made array, written in place)
 * or a new array; where may be NULL. Returns the result object. */
static PyObject *apply(empy_state *st, em_op op, operands_t *o, PyObject *out_obj,
                       const em_array *where)
{
    em_array res;
    em_status rc;
    int i, any_array = 0;

    if (out_obj) {
        em_array *oa = EMPY_ARR(out_obj);
        if (!(oa->flags & EM_ARRAY_WRITEABLE)) {
            PyErr_SetString(PyExc_ValueError, "output array is read-only");
            return NULL;
        }
        /* A copy of the struct: apply writes through it, the object keeps
         * its reference. */
        res = *oa;
        rc = apply_nogil(op, o->ops, o->nin, &res, where);
        if (rc != EM_OK)
            return empy_raise(st, rc);
        return Py_NewRef(out_obj);
    }
    for (i = 0; i < o->nin; i++)
        any_array |= o->ops[i].array != NULL;
    if (!any_array) {
        /* Only scalars: the result is a 0-d array on the current device,
         * made here since the inputs name no device. */
        em_dtype loop[MAX_IN], outd;
        em_device *d = o->dev;
        empy_ndarray *r;
        if (!d && empy_device_arg(st, Py_None, &d) < 0)
            return NULL;
        if (!(r = empy_ndarray_fresh(st)))
            return NULL;
        rc = em_ufunc_resolve(op, o->ops, o->nin, loop, &outd);
        if (rc == EM_OK)
            rc = em_array_empty(d, outd, 0, NULL, 'C', NULL, &r->a);
        if (rc != EM_OK) {
            PyObject *e = empy_raise(st, rc);
            Py_DECREF(r);
            return e;
        }
        return apply_new(st, op, o->ops, o->nin, where, r);
    }
    return apply_new(st, op, o->ops, o->nin, where, NULL);
}

PyObject *empy_ufunc_call(empy_state *st, em_op op, PyObject *const *in, int nin,
                          PyObject *out, PyObject *where)
{
    operands_t o;
    PyObject *wtmp = NULL, *r;
    const em_array *w = NULL;
    int k;

    k = parse_operands(st, in, nin, out, &o);
    if (k <= 0) {
        if (k == 0) {
            int i;
            for (i = 0; i < nin; i++)
                if (!array_like(st, in[i]) && !empy_is_ndarray(in[i])) {
                    em_operand tmp;
                    if (empy_scalar_operand(in[i], &tmp) == 0)
                        break;
                }
            PyErr_Format(PyExc_TypeError, "ufunc '%s' not supported for the input "
                         "type %.100s", em_op_get(op)->name,
                         i < nin ? Py_TYPE(in[i])->tp_name : "?");
        }
        operands_clear(&o);
        return NULL;
    }
    if (where && where != Py_True) {
        if (empy_is_ndarray(where)) {
            w = EMPY_ARR(where);
        } else {
            em_device *d = o.dev;
            if (!d && empy_device_arg(st, Py_None, &d) < 0) {
                operands_clear(&o);
                return NULL;
            }
            wtmp = empy_asarray(st, where, EM_BOOL, d, EMPY_COPY_IF_NEEDED, 'K');
            if (!wtmp) {
                operands_clear(&o);
                return NULL;
            }
            w = EMPY_ARR(wtmp);
        }
    }
    r = apply(st, op, &o, out, w);
    Py_XDECREF(wtmp);
    operands_clear(&o);
    return r;
}

/* ---- operators ------------------------------------------------------------ */

static empy_state *state_of2(PyObject *a, PyObject *b)
{
    return empy_state_of(empy_is_ndarray(a) ? a : b);
}

static PyObject *binary(PyObject *a, PyObject *b, em_op op)
{
    em_operand ops[2];
    empy_state *st;
    int ka, kb;

    ka = quick_operand(a, &ops[0]);
    if (ka < 0)
        return NULL;
    kb = ka ? quick_operand(b, &ops[1]) : 0;
    if (kb < 0)
        return NULL;
    st = state_of2(a, b);
    if (!ka || !kb) {
        PyObject *in[2] = {a, b};
        if (!array_like(st, ka ? b : a))
            Py_RETURN_NOTIMPLEMENTED;
        if (!ka && !kb && !array_like(st, b))
            Py_RETURN_NOTIMPLEMENTED;
        return empy_ufunc_call(st, op, in, 2, NULL, NULL);
    }
    return apply_new(st, op, ops, 2, NULL, NULL);
}

static PyObject *inplace(PyObject *a, PyObject *b, em_op op)
{
    empy_state *st = empy_state_of(a);
    PyObject *in[2] = {a, b};
    em_operand tmp;
    int k;
    if (!empy_is_ndarray(b)) {
        k = empy_scalar_operand(b, &tmp);
        if (k < 0)
            return NULL;
        if (k == 0 && !array_like(st, b))
            Py_RETURN_NOTIMPLEMENTED;
    }
    return empy_ufunc_call(st, op, in, 2, a, NULL);
}

static PyObject *unary(PyObject *a, em_op op)
{
    em_operand in;
    memset(&in, 0, sizeof in);
    in.array = EMPY_ARR_RAW(a);
    in.dtype = EMPY_ARR_RAW(a)->dtype;
    return apply_new(empy_state_of(a), op, &in, 1, NULL, NULL);
}

#define BINOP(fn, OP)                                              \
    static PyObject *nb_##fn(PyObject *a, PyObject *b)            \
    {                                                              \
        return binary(a, b, OP);                                   \
    }                                                              \
    static PyObject *nb_inplace_##fn(PyObject *a, PyObject *b)    \
    {                                                              \
        return inplace(a, b, OP);                                  \
    }

BINOP(add, EM_OP_ADD)
BINOP(subtract, EM_OP_SUBTRACT)
BINOP(multiply, EM_OP_MULTIPLY)
BINOP(true_divide, EM_OP_TRUE_DIVIDE)
BINOP(floor_divide, EM_OP_FLOOR_DIVIDE)
BINOP(remainder, EM_OP_REMAINDER)
BINOP(and, EM_OP_BITWISE_AND)
BINOP(or, EM_OP_BITWISE_OR)
BINOP(xor, EM_OP_BITWISE_XOR)
BINOP(lshift, EM_OP_LEFT_SHIFT)
BINOP(rshift, EM_OP_RIGHT_SHIFT)

static PyObject *nb_power(PyObject *a, PyObject *b, PyObject *mod)
{
    if (mod != Py_None)
        Py_RETURN_NOTIMPLEMENTED;
    return binary(a, b, EM_OP_POWER);
}

static PyObject *nb_inplace_power(PyObject *a, PyObject *b, PyObject *mod)
{
    if (mod != Py_None)
        Py_RETURN_NOTIMPLEMENTED;
    return inplace(a, b, EM_OP_POWER);
}

static PyObject *nb_divmod(PyObject *a, PyObject *b)
{
    PyObject *q = binary(a, b, EM_OP_FLOOR_DIVIDE);
    if (!q || q == Py_NotImplemented)
        return q;
    /* NULL for N (the remainder failed) drops q and returns NULL */
    return Py_BuildValue("(NN)", q, binary(a, b, EM_OP_REMAINDER));
}

static PyObject *nb_negative(PyObject *a) { return unary(a, EM_OP_NEGATIVE); }
static PyObject *nb_positive(PyObject *a) { return unary(a, EM_OP_POSITIVE); }
static PyObject *nb_absolute(PyObject *a) { return unary(a, EM_OP_ABSOLUTE); }
static PyObject *nb_invert(PyObject *a) { return unary(a, EM_OP_INVERT); }

PyObject *empy_ndarray_richcompare(PyObject *a, PyObject *b, int op)
{
    static const em_op ops[] = {
        [Py_LT] = EM_OP_LESS, [Py_LE] = EM_OP_LESS_EQUAL, [Py_EQ] = EM_OP_EQUAL,
        [Py_NE] = EM_OP_NOT_EQUAL, [Py_GT] = EM_OP_GREATER,
        [Py_GE] = EM_OP_GREATER_EQUAL,
    };
    return binary(a, b, ops[op]);
}

PyType_Slot empy_ndarray_number_slots[] = {
    {Py_nb_add, nb_add},
    {Py_nb_inplace_add, nb_inplace_add},
    {Py_nb_subtract, nb_subtract},
    {Py_nb_inplace_subtract, nb_inplace_subtract},
    {Py_nb_multiply, nb_multiply},
    {Py_nb_inplace_multiply, nb_inplace_multiply},
    {Py_nb_true_divide, nb_true_divide},
    {Py_nb_inplace_true_divide, nb_inplace_true_divide},
    {Py_nb_floor_divide, nb_floor_divide},
    {Py_nb_inplace_floor_divide, nb_inplace_floor_divide},
    {Py_nb_remainder, nb_remainder},
    {Py_nb_inplace_remainder, nb_inplace_remainder},
    {Py_nb_power, nb_power},
    {Py_nb_inplace_power, nb_inplace_power},
    {Py_nb_divmod, nb_divmod},
    {Py_nb_and, nb_and},
    {Py_nb_inplace_and, nb_inplace_and},
    {Py_nb_or, nb_or},
    {Py_nb_inplace_or, nb_inplace_or},
    {Py_nb_xor, nb_xor},
    {Py_nb_inplace_xor, nb_inplace_xor},
    {Py_nb_lshift, nb_lshift},
    {Py_nb_inplace_lshift, nb_inplace_lshift},
    {Py_nb_rshift, nb_rshift},
    {Py_nb_inplace_rshift, nb_inplace_rshift},
    {Py_nb_matrix_multiply, empy_nd_matmul},
    {Py_nb_inplace_matrix_multiply, empy_nd_imatmul},
    {Py_nb_negative, nb_negative},
    {Py_nb_positive, nb_positive},
    {Py_nb_absolute, nb_absolute},
    {Py_nb_invert, nb_invert},
    {0, NULL},
};

/* ---- ember.ufunc ----------------------------------------------------------- */

#define UF(o) ((empy_Ufunc *)(o))

/* The out= argument: None, an array, or a tuple of one. */
static int out_arg(PyObject *o, PyObject **out)
{
    if (!o || o == Py_None) {
        *out = NULL;
        return 0;
    }
    if (PyTuple_Check(o)) {
        if (PyTuple_GET_SIZE(o) != 1) {
            PyErr_SetString(PyExc_ValueError, "out must be a tuple of one array "
                            "for ufuncs with one output");
            return -1;
        }
        o = PyTuple_GET_ITEM(o, 0);
        if (o == Py_None) {
            *out = NULL;
            return 0;
        }
    }
    *out = o;
    return 0;
}

/* _ufunc_operands(u, dtype, out, *inputs): u(*inputs, dtype=...)'s C
 * half (_api/ufunc_dtype.py casts): NumPy's TypeError unless u has a
 * loop over dtype giving dtype, then the inputs as a call places them
 * (parse_operands), scalars as given; None when one is not array-like. */
static PyObject *mod_ufunc_operands(PyObject *m, PyObject *const *args, Py_ssize_t n)
{
    empy_state *st = empy_state_of_module(m);
    em_operand ops[MAX_IN];
    operands_t o;
    em_dtype d, outd;
    PyObject *r = NULL;
    int i, k, nin = (int)n - 3;
    if (nin < 1 || nin > MAX_IN || !PyObject_TypeCheck(args[0], st->ufunc))
        return PyErr_Format(PyExc_TypeError, "_ufunc_operands(u, dtype, out, *inputs)");
    if (empy_dtype_arg(st, args[1], &d) < 0)
        return NULL;
    memset(ops, 0, sizeof ops);
    for (i = 0; i < nin; i++)
        ops[i].dtype = d;
    if (em_ufunc_resolve(UF(args[0])->op, ops, nin, NULL, &outd) != EM_OK || outd != d)
        return PyErr_Format(PyExc_TypeError, "No loop matching the specified signature "
                            "and casting was found for ufunc %U (dtype=%s)",
                            UF(args[0])->name, em_dtype_get(d)->name);
    k = parse_operands(st, args + 3, nin, args[2] == Py_None ? NULL : args[2], &o);
    if (k == 0)
        r = Py_NewRef(Py_None);
    else if (k > 0 && (r = PyTuple_New(nin)))
        for (i = 0; i < nin; i++)
            PyTuple_SET_ITEM(r, i, Py_NewRef(o.tmp[i] ? o.tmp[i] : args[3 + i]));
    operands_clear(&o);
    return r;
}

/* Call with inputs and keyword values already split out. */
static PyObject *ufunc_invoke(PyObject *self, PyObject *const *in, Py_ssize_t nin,
                              PyObject *out_o, PyObject *where, PyObject *dtype,
                              PyObject *casting)
{
    empy_Ufunc *u = UF(self);
    PyObject *out;
    if (nin != u->nin) {
        PyErr_Format(PyExc_TypeError, "%U() takes from %d to %d positional "
                     "arguments but %zd were given", u->name, u->nin,
                     u->nin + u->nout, nin);
        return NULL;
    }
    if (casting && casting != Py_None) {
        const char *c = PyUnicode_Check(casting) ? PyUnicode_AsUTF8(casting) : NULL;
        if (!c || strcmp(c, "same_kind")) {
            PyErr_Format(PyExc_NotImplementedError, "%U(): only casting='same_kind' "
                         "is supported by ember", u->name);
            return NULL;
        }
    }
    if (out_arg(out_o, &out) < 0)
        return NULL;
    if (dtype && dtype != Py_None) {
        static const empy_pyattr w = {"ember._api.ufunc_dtype", "call_with_dtype"};
        PyObject *a[3 + MAX_IN] = {dtype, out ? out : Py_None, where ? where : Py_True};
        memcpy(a + 3, in, (size_t)nin * sizeof *in);
        return empy_py_method(&w, self, a, 3 + nin, NULL);
    }
    return empy_ufunc_call(empy_state_of(self), u->op, in, (int)nin, out, where);
}

/* The ufunc keywords ember reads; order/subok/signature are accepted and
 * ignored (results are C-ordered ndarrays either way). Sets *unknown to the
 * first other keyword (NULL if none); -1 only on a Python error. Shared by
 * ember.<ufunc>(...) and __array_ufunc__, which differ only in what an
 * unknown keyword means. */
typedef struct ufunc_kw { PyObject *out, *where, *dtype, *casting; } ufunc_kw;

static int parse_ufunc_kw(PyObject *kwnames, PyObject *const *values,
                          ufunc_kw *kw, const char **unknown)
{
    Py_ssize_t i, nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    memset(kw, 0, sizeof *kw);
    *unknown = NULL;
    for (i = 0; i < nkw; i++) {
        const char *k = PyUnicode_AsUTF8(PyTuple_GET_ITEM(kwnames, i));
        if (!k)
            return -1;
        if (!strcmp(k, "out"))
            kw->out = values[i];
        else if (!strcmp(k, "where"))
            kw->where = values[i];
        else if (!strcmp(k, "dtype"))
            kw->dtype = values[i];
        else if (!strcmp(k, "casting"))
            kw->casting = values[i];
        else if (strcmp(k, "order") && strcmp(k, "subok") && strcmp(k, "signature")) {
            if (!*unknown)
                *unknown = k;
        }
    }
    return 0;
}

static PyObject *Ufunc_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf,
                                  PyObject *kwnames)
{
    empy_Ufunc *u = UF(self);
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    PyObject *out;
    ufunc_kw kw;
    const char *unknown;
    if (parse_ufunc_kw(kwnames, args + nargs, &kw, &unknown) < 0)
        return NULL;
    if (unknown) {
        PyErr_Format(PyExc_TypeError, "%U() got an unexpected keyword argument "
                     "'%s'", u->name, unknown);
        return NULL;
    }
    out = kw.out;
    if (nargs == u->nin + 1 && !out) {
        /* np.add(a, b, out) */
        out = args[u->nin];
        nargs = u->nin;
    }
    return ufunc_invoke(self, args, nargs, out, kw.where, kw.dtype, kw.casting);
}

static void Ufunc_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    Py_CLEAR(UF(self)->name);
    tp->tp_free(self);
    Py_DECREF(tp);
}

static PyObject *Ufunc_repr(PyObject *self)
{
    return PyUnicode_FromFormat("<ufunc '%U'>", UF(self)->name);
}

static PyObject *Ufunc_get_nin(PyObject *self, void *c)
{
    return PyLong_FromLong(UF(self)->nin);
}

static PyObject *Ufunc_get_nout(PyObject *self, void *c)
{
    return PyLong_FromLong(UF(self)->nout);
}

static PyObject *Ufunc_get_name(PyObject *self, void *c)
{
    return Py_NewRef(UF(self)->name);
}

static PyObject *Ufunc_reduce_pickle(PyObject *self, PyObject *unused)
{
    return Py_NewRef(UF(self)->name);
}

/* reduce, accumulate, reduceat, outer and at compose ember's reductions,
 * scans and elementwise calls: python/ember/_api/ufunc_methods.py. */
EMPY_PY_METHOD(Ufunc_reduce, "ember._api.ufunc_methods", "reduce")
EMPY_PY_METHOD(Ufunc_accumulate, "ember._api.ufunc_methods", "accumulate")
EMPY_PY_METHOD(Ufunc_reduceat, "ember._api.ufunc_methods", "reduceat")
EMPY_PY_METHOD(Ufunc_outer, "ember._api.ufunc_methods", "outer")
EMPY_PY_METHOD(Ufunc_at, "ember._api.ufunc_methods", "at")

static PyMethodDef Ufunc_methods[] = {
    {"reduce", EMPY_FASTKW(Ufunc_reduce),
     "reduce(array, axis=0, dtype=None, out=None, keepdims=False, initial=None): "
     "op folded along the axes (NumPy's)."},
    {"accumulate", EMPY_FASTKW(Ufunc_accumulate),
     "accumulate(array, axis=0, dtype=None, out=None): the running reduction."},
    {"reduceat", EMPY_FASTKW(Ufunc_reduceat),
     "reduceat(array, indices, axis=0, dtype=None, out=None): reductions over "
     "the slices indices[i]:indices[i+1] (one element where they do not increase)."},
    {"outer", EMPY_FASTKW(Ufunc_outer),
     "outer(A, B, **kwargs): op(a, b) for every pair, of shape A.shape + B.shape."},
    {"at", EMPY_FASTKW(Ufunc_at),
     "at(a, indices, b=None): op in place at the indices, once per occurrence."},
    {"__reduce__", Ufunc_reduce_pickle, METH_NOARGS, NULL},
    {NULL},
};

static const empy_pyattr cold_nargs = {"ember._api.ufunc_methods", "nargs"},
                         cold_doc = {"ember._api.ufunc_methods", "doc"};

static PyGetSetDef Ufunc_getset[] = {
    {"nin", Ufunc_get_nin, NULL, "Number of inputs.", NULL},
    {"nout", Ufunc_get_nout, NULL, "Number of outputs.", NULL},
    {"nargs", empy_py_getter, NULL, "nin + nout.", (void *)&cold_nargs},
    {"__name__", Ufunc_get_name, NULL, "NumPy's name of the ufunc.", NULL},
    {"__doc__", empy_py_getter, NULL, NULL, (void *)&cold_doc},
    {NULL},
};

static PyMemberDef Ufunc_members[] = {
    EMPY_VECTORCALL_MEMBER(empy_Ufunc),
    {NULL},
};

static PyType_Slot Ufunc_slots[] = {
    {Py_tp_dealloc, Ufunc_dealloc},
    {Py_tp_repr, Ufunc_repr},
    {Py_tp_call, PyVectorcall_Call},
    {Py_tp_methods, Ufunc_methods},
    {Py_tp_getset, Ufunc_getset},
    {Py_tp_members, Ufunc_members},
    EMPY_NOINIT_SLOT
    {0, NULL},
};

static PyType_Spec Ufunc_spec = {
    "ember.ufunc", sizeof(empy_Ufunc), 0,
    Py_TPFLAGS_DEFAULT | EMPY_TPFLAGS_IMMUTABLE | EMPY_TPFLAGS_NOINIT |
        Py_TPFLAGS_HAVE_VECTORCALL,
    Ufunc_slots,
};

/* ---- fusion's switches and counters (ember.fusion, ember.fuse, tests) --- */

/* _fusion_state([state]): with an int, sets this thread's override (1 on,
 * 0 off, -1 the environment's) and returns the previous override; without
 * one, returns whether this thread records now. */
static PyObject *mod_fusion_state(PyObject *m, PyObject *const *args, Py_ssize_t n)
{
    long v;
    if (n == 0)
        return PyBool_FromLong(em_fuse_enabled());
    if (n != 1) {
        PyErr_SetString(PyExc_TypeError, "_fusion_state takes at most one argument");
        return NULL;
    }
    v = PyLong_AsLong(args[0]);
    if (v == -1 && PyErr_Occurred())
        return NULL;
    return PyLong_FromLong(em_fuse_set_state(v < 0 ? -1 : v != 0));
}

/* _fusion_flush(kernel_name=None): runs the pending group now. */
static PyObject *mod_fusion_flush(PyObject *m, PyObject *const *args, Py_ssize_t n)
{
    const char *name = NULL;
    em_status rc;
    if (n > 1) {
        PyErr_SetString(PyExc_TypeError, "_fusion_flush takes at most one argument");
        return NULL;
    }
    if (n == 1 && args[0] != Py_None && !(name = PyUnicode_AsUTF8(args[0])))
        return NULL;
    EMPY_NOGIL(rc, name ? em_fuse_flush_named(name) : em_fuse_flush());
    if (rc != EM_OK)
        return empy_raise(empy_state_of_module(m), rc);
    Py_RETURN_NONE;
}

static PyObject *mod_fusion_launches(PyObject *m, PyObject *unused)
{
    return PyLong_FromUnsignedLongLong(em_fuse_launch_count());
}

static PyObject *mod_fusion_pending(PyObject *m, PyObject *unused)
{
    int n = atomic_load_explicit(&em_fuse_pending_n, memory_order_relaxed);
    return PyLong_FromLong(n < 0 ? 0 : n);
}

static PyMethodDef ufunc_functions[] = {
    {"_fusion_state", (PyCFunction)(void (*)(void))mod_fusion_state, METH_FASTCALL, NULL},
    {"_fusion_flush", (PyCFunction)(void (*)(void))mod_fusion_flush, METH_FASTCALL, NULL},
    {"_fusion_launches", mod_fusion_launches, METH_NOARGS, NULL},
    {"_fusion_pending", mod_fusion_pending, METH_NOARGS, NULL},
    {"_ufunc_operands", (PyCFunction)(void (*)(void))mod_ufunc_operands, METH_FASTCALL,
     NULL},
    {NULL},
};

/* NumPy 2's other names for ember's ufuncs. */
static const char *const aliases[] = {
    "divide", "mod", "abs", "conj", "bitwise_not", "bitwise_invert",
    "bitwise_left_shift", "bitwise_right_shift", "pow", "asin", "acos", "atan",
    "asinh", "acosh", "atanh", "atan2", NULL,
};

int empy_ufunc_init(PyObject *m, empy_state *st)
{
    int i;
    if (empy_add_type(m, &Ufunc_spec, NULL, &st->ufunc) < 0)
        return -1;
    for (i = 0; i < EM_OP_COUNT; i++) {
        const em_op_info *info = em_op_get((em_op)i);
        empy_Ufunc *u;
        /* copy is a cast, and ember.copy is a function. Ops named "_..."
         * are halves of two-output ufuncs, private ufuncs of _ember that
         * ember.modf and ember.frexp (python/ember/_api/elementwise.py)
         * call. */
        if (!info || i == EM_OP_COPY)
            continue;
        u = PyObject_New(empy_Ufunc, st->ufunc);
        if (!u)
            return -1;
        u->op = (em_op)i;
        u->nin = info->nin;
        u->nout = info->nout;
        u->vectorcall = Ufunc_vectorcall;
        u->name = PyUnicode_FromString(info->name);
        st->ufuncs[i] = (PyObject *)u;
        if (!u->name)
            return -1;
        if (info->scipy) {
            /* scipy.special's: _ember._sp_erf, which ember.scipy.special
             * names erf (ember.erf would be a name NumPy lacks) */
            char key[64];
            snprintf(key, sizeof key, "_sp_%s", info->name);
            if (PyModule_AddObjectRef(m, key, (PyObject *)u) < 0)
                return -1;
        } else if (PyModule_AddObjectRef(m, info->name, (PyObject *)u) < 0) {
            return -1;
        }
    }
    for (i = 0; aliases[i]; i++) {
        em_op op;
        if (em_op_from_name(aliases[i], &op) == EM_OK && st->ufuncs[op] &&
            PyModule_AddObjectRef(m, aliases[i], st->ufuncs[op]) < 0)
            return -1;
    }
    return PyModule_AddFunctions(m, ufunc_functions);
}
