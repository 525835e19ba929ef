/* ember Python extension: ufuncs from scalar Python functions, with
 * Numba's spellings: ember.vectorize (also as a bare decorator); the
 * helpers here serve ember.reduce (vectorize_reduce.c) and
 * ember.guvectorize (guvectorize.c) too.
 *
 * The scalar function is translated once per signature by
 * ember.jit.translate_device into a __device__ function, which becomes the
 * preamble of a C-string kernel (include/ember/ckernel.h): an elementwise
 * kernel `y = f(x0, x1, ...)` for vectorize, a reduction with reduce_expr
 * `f(a, b)` for reduce. A call picks the signature by the inputs' dtypes
 * (the first exact match, else the first that NumPy's safe casting
 * reaches; a vectorize without signatures compiles the inputs' own types
 * on first sight), and the kernel object's own cache does the rest, so a
 * repeated call runs no Python.
 *
 * Devices: ember arrays stay where they are; other array-likes (NumPy
 * arrays) are copied to the target's device (target='cuda': the current
 * device, which is cpu on a machine without a GPU; 'cpu' and 'parallel':
 * cpu), and when no input was an ember array the result comes back as a
 * NumPy array, as Numba's CUDA ufuncs return host arrays for host
 * inputs. */
#include <string.h>

#include "kernels/ckernel.h"
#include "runtime/errors.h"
#include "structmember.h"
#include "runtime/member_compat.h"

#define VZ_MAX_IN 16

typedef struct vz_sig {
    em_dtype in[VZ_MAX_IN];
    em_dtype out;
    em_ckernel *k;
} vz_sig;

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    PyObject *pyfunc, *name, *sigs_src;
    PyObject *reducer;   /* ember.reduce(pyfunc), made by the first .reduce */
    int nin, lazy, cpu_target;
    vz_sig *sigs;
    int nsigs, cap;
} VZObject;

/* ---- translation ------------------------------------------------------- */

static const char *code_of(em_dtype d, char *buf)
{
    const em_dtype_info *i = em_dtype_get(d);
    buf[0] = i->kind;
    snprintf(buf + 1, 8, "%d", (int)i->size);
    return buf;
}

/* translate_device(pyfunc, codes) -> (source, cname, result code). */
PyObject *empy_vz_translate(PyObject *pyfunc, const em_dtype *in, int n)
{
    PyObject *jit, *codes, *r = NULL;
    char buf[16];
    if (!(jit = PyImport_ImportModule("ember.jit")))
        return NULL;
    if ((codes = PyTuple_New(n))) {
        for (int j = 0; j < n; j++) {
            PyObject *c = PyUnicode_FromString(code_of(in[j], buf));
            if (!c) {
                Py_CLEAR(codes);
                break;
            }
            PyTuple_SET_ITEM(codes, j, c);
        }
    }
    if (codes)
        r = PyObject_CallMethod(jit, "translate_device", "OO", pyfunc, codes);
    Py_XDECREF(codes);
    Py_DECREF(jit);
    if (r && (!PyTuple_Check(r) || PyTuple_GET_SIZE(r) != 3 ||
              !PyUnicode_Check(PyTuple_GET_ITEM(r, 0)) ||
              !PyUnicode_Check(PyTuple_GET_ITEM(r, 1)) ||
              !PyUnicode_Check(PyTuple_GET_ITEM(r, 2)))) {
        Py_DECREF(r);
        PyErr_SetString(PyExc_SystemError,
                        "ember.jit.translate_device gave no (source, name, "
                        "result) triple");
        return NULL;
    }
    return r;
}

/* Not the C-string kernels' ck_ctype (src/codegen/ckernel_bind.c): that
 * one is internal to the library and also maps the 16-bit floats, which
 * the ufunc builders do not take (NULL here is what refuses them). */
const char *empy_vz_ctype(em_dtype d)
{
    switch (d) {
    case EM_BOOL: return "bool";
    case EM_INT8: return "signed char";
    case EM_INT16: return "short";
    case EM_INT32: return "int";
    case EM_INT64: return "long long";
    case EM_UINT8: return "unsigned char";
    case EM_UINT16: return "unsigned short";
    case EM_UINT32: return "unsigned int";
    case EM_UINT64: return "unsigned long long";
    case EM_FLOAT32: return "float";
    case EM_FLOAT64: return "double";
    default: return NULL;
    }
}

int empy_vz_check_supported(const char *what, PyObject *name, em_dtype d)
{
    if (empy_vz_ctype(d))
        return 0;
    PyErr_Format(PyExc_NotImplementedError,
                 "%s '%U': %s is not supported yet (bool, the integer types, "
                 "float32 and float64 are)",
                 what, name, em_dtype_get(d)->name);
    return -1;
}

static int grow(VZObject *v)
{
    if (v->nsigs < v->cap)
        return 0;
    int cap = v->cap ? 2 * v->cap : 4;
    vz_sig *p = PyMem_Realloc(v->sigs, (size_t)cap * sizeof *p);
    if (!p) {
        PyErr_NoMemory();
        return -1;
    }
    v->sigs = p;
    v->cap = cap;
    return 0;
}

/* Compile a signature (has_out: out is the declared result type). */
static int vz_add(VZObject *v, const em_dtype *in, int has_out, em_dtype out)
{
    PyObject *tr;
    const char *src, *cname, *rcode;
    char inp[VZ_MAX_IN * 24], opbuf[VZ_MAX_IN * 48 + 256], outp[64];
    em_ckernel_desc d;
    em_dtype rd;
    em_status rc;
    size_t n = 0;
    for (int j = 0; j < v->nin; j++)
        if (empy_vz_check_supported("vectorize", v->name, in[j]) < 0)
            return -1;
    if (!(tr = empy_vz_translate(v->pyfunc, in, v->nin)))
        return -1;
    src = PyUnicode_AsUTF8(PyTuple_GET_ITEM(tr, 0));
    cname = PyUnicode_AsUTF8(PyTuple_GET_ITEM(tr, 1));
    rcode = PyUnicode_AsUTF8(PyTuple_GET_ITEM(tr, 2));
    if (!src || !cname || !rcode)
        goto fail;
    if (!strcmp(rcode, "none")) {
        PyErr_Format(PyExc_TypeError,
                     "vectorize '%U': the function returns nothing", v->name);
        goto fail;
    }
    if (!has_out && em_dtype_from_name(rcode, &rd) != EM_OK) {
        PyErr_Format(PyExc_TypeError,
                     "vectorize '%U': the function returns %s, which is not "
                     "a scalar type",
                     v->name, rcode);
        goto fail;
    }
    if (has_out)
        rd = out;
    if (empy_vz_check_supported("vectorize", v->name, rd) < 0)
        goto fail;
    inp[0] = 0;
    for (int j = 0; j < v->nin; j++)
        n += (size_t)snprintf(inp + n, sizeof inp - n, "%sT%d x%d",
                              j ? ", " : "", j, j);
    snprintf(outp, sizeof outp, "%s y", em_dtype_get(rd)->name);
    n = (size_t)snprintf(opbuf, sizeof opbuf, "y = (%s)%s(",
                         empy_vz_ctype(rd), cname);
    for (int j = 0; j < v->nin; j++)
        n += (size_t)snprintf(opbuf + n, sizeof opbuf - n, "%s(%s)x%d",
                              j ? ", " : "", empy_vz_ctype(in[j]), j);
    snprintf(opbuf + n, sizeof opbuf - n, ")");
    memset(&d, 0, sizeof d);
    d.in_params = inp;
    d.out_params = outp;
    d.operation = opbuf;
    d.name = "ember_vectorize";
    d.preamble = src;
    d.reduce_dims = 1;
    if (grow(v) < 0)
        goto fail;
    rc = em_ckernel_create_elementwise(&d, &v->sigs[v->nsigs].k);
    if (rc != EM_OK) {
        empy_raise(empy_state_of((PyObject *)v), rc);
        goto fail;
    }
    memcpy(v->sigs[v->nsigs].in, in, sizeof(em_dtype) * (size_t)v->nin);
    v->sigs[v->nsigs].out = rd;
    v->nsigs++;
    Py_DECREF(tr);
    return 0;
fail:
    Py_DECREF(tr);
    return -1;
}

/* ---- argument handling ------------------------------------------------- */

/* The device for array-likes that are not ember arrays. */
static em_device *target_device(empy_state *st, int cpu_target,
                                const em_operand *ops, int n)
{
    em_device *d;
    for (int j = 0; j < n; j++)
        if (ops[j].array)
            return ops[j].array->device;
    if (cpu_target) {
        if (em_device_get(EM_DEVICE_CPU, 0, &d) != EM_OK) {
            empy_raise(st, EM_ERR_UNAVAILABLE);
            return NULL;
        }
        return d;
    }
    return empy_device_arg(st, NULL, &d) < 0 ? NULL : d;
}

/* Operands from objects: ember arrays and scalars as they are, then other
 * array-likes on the right device. *host_only: no ember array seen. */
int empy_vz_operands(empy_state *st, int cpu_target, PyObject *const *objs,
                     int n, em_operand *ops, PyObject **keep, int *host_only,
                     int *any_array)
{
    int pending[VZ_MAX_IN] = {0}, rank0 = 0;
    em_device *d;
    *host_only = 1;
    *any_array = 0;
    for (int j = 0; j < n; j++) {
        int r;
        memset(&ops[j], 0, sizeof ops[j]);
        if (empy_is_ndarray(objs[j])) {
            ops[j].array = EMPY_ARR(objs[j]);
            ops[j].dtype = ops[j].array->dtype;
            *host_only = 0;
            *any_array = 1;
            continue;
        }
        if ((r = empy_scalar_operand(objs[j], &ops[j])) < 0)
            return -1;
        if (r == 0)
            pending[j] = rank0 = 1;
    }
    if (!(d = target_device(st, cpu_target, ops, n)))
        return -1;
    if (!*any_array && n > 0 && !rank0)
        pending[0] = 1;   /* all scalars: a 0-d array sets the loop */
    for (int j = 0; j < n; j++) {
        if (!pending[j])
            continue;
        if (!(keep[j] = empy_asarray(st, objs[j], -1, d, EMPY_COPY_IF_NEEDED,
                                     'K')))
            return -1;
        ops[j].array = EMPY_ARR(keep[j]);
        ops[j].dtype = ops[j].array->dtype;
        *any_array = rank0;
    }
    return 0;
}

/* Whether a weak Python scalar of dtype `from` may go to `to`. */
static int weak_ok(em_dtype from, em_dtype to)
{
    char k = em_dtype_get(to)->kind, f = em_dtype_get(from)->kind;
    if (f == 'b')
        return 1;
    if (f == 'i' || f == 'u')
        return k == 'i' || k == 'u' || k == 'f' || k == 'c';
    if (f == 'f')
        return k == 'f' || k == 'c';
    return k == 'c';
}

static int pick(const vz_sig *sigs, int nsigs, int nin, const em_operand *ops)
{
    int best = -1;
    for (int s = 0; s < nsigs; s++) {
        int ok = 1, exact = 1;
        for (int j = 0; j < nin && ok; j++) {
            em_dtype want = sigs[s].in[j];
            if (ops[j].array || !ops[j].weak) {
                if (ops[j].dtype != want) {
                    exact = 0;
                    ok = empy_can_cast(ops[j].dtype, want, "safe") == 1;
                }
            } else {
                exact &= ops[j].dtype == want;
                ok = weak_ok(ops[j].dtype, want);
            }
        }
        if (ok && exact)
            return s;
        if (ok && best < 0)
            best = s;
    }
    return best;
}

int empy_vz_stream(empy_state *st, PyObject *o, em_stream **s)
{
    *s = NULL;
    if (!o || o == Py_None || (PyLong_CheckExact(o) && PyLong_AsLong(o) == 0))
        return 0;
    PyErr_Clear();      /* a huge int is not 0; resolve says what it is */
    return (*s = empy_stream_resolve(st, o)) ? 0 : -1;
}

/* The call's result: as NumPy when every input came from the host. */
PyObject *empy_vz_finish(empy_state *st, PyObject *r, int to_host,
                         int scalar)
{
    PyObject *np, *e;
    if (!r || !to_host)
        return r;
    np = empy_ndarray_to_numpy(st, r, 0);
    Py_DECREF(r);
    if (!np || !scalar)
        return np;
    if (!(e = PyTuple_New(0))) {
        Py_DECREF(np);
        return NULL;
    }
    r = PyObject_GetItem(np, e);
    Py_DECREF(e);
    Py_DECREF(np);
    return r;
}

/* ---- the vectorized ufunc ---------------------------------------------- */

static const char *const vz_kw[] = {"out", "stream", NULL};

static PyObject *VZ_vectorcall(PyObject *self, PyObject *const *args,
                               size_t nargsf, PyObject *kwnames)
{
    VZObject *v = (VZObject *)self;
    empy_state *st = empy_state_of(self);
    Py_ssize_t n = PyVectorcall_NARGS(nargsf);
    PyObject *kw[2], *keep[VZ_MAX_IN] = {0}, *res = NULL, *outo = NULL;
    em_operand ops[VZ_MAX_IN];
    em_array out;
    em_ckernel *kern;
    em_stream *s = NULL;
    em_status rc;
    int host_only, any_array, sel;

    if (n != v->nin && n != v->nin + 1) {
        PyErr_Format(PyExc_TypeError, "%U() takes %d arguments (and an "
                                      "optional out), %zd given",
                     v->name, v->nin, n);
        return NULL;
    }
    if (empy_parse_args(PyUnicode_AsUTF8(v->name), args + n, 0, kwnames,
                        vz_kw, 0, 0, kw) < 0)
        return NULL;
    outo = n > v->nin ? args[v->nin] : kw[0];
    if (outo == Py_None)
        outo = NULL;
    if (outo && !empy_is_ndarray(outo)) {
        PyErr_Format(PyExc_TypeError,
                     "%U(): out must be an ember ndarray, not '%.100s'",
                     v->name, Py_TYPE(outo)->tp_name);
        return NULL;
    }
    if (empy_vz_stream(st, kw[1], &s) < 0)
        return NULL;
    if (empy_vz_operands(st, v->cpu_target, args, v->nin, ops, keep,
                         &host_only, &any_array) < 0)
        goto done;
    if (outo)
        host_only = 0;
    if (v->lazy) {
        /* without signatures: the inputs' own dtypes, compiled once */
        sel = -1;
        for (int t = 0; t < v->nsigs && sel < 0; t++) {
            int exact = 1;
            for (int j = 0; j < v->nin && exact; j++)
                exact = v->sigs[t].in[j] == ops[j].dtype;
            if (exact)
                sel = t;
        }
        if (sel < 0) {
            em_dtype in[VZ_MAX_IN];
            for (int j = 0; j < v->nin; j++)
                in[j] = ops[j].dtype;
            if (vz_add(v, in, 0, EM_BOOL) < 0)
                goto done;
            sel = v->nsigs - 1;
        }
    } else {
        sel = pick(v->sigs, v->nsigs, v->nin, ops);
    }
    if (sel < 0) {
        char buf[256];
        size_t k = 0;
        for (int j = 0; j < v->nin && k < sizeof buf - 32; j++)
            k += (size_t)snprintf(buf + k, sizeof buf - k, "%s%s",
                                  j ? ", " : "",
                                  em_dtype_get(ops[j].dtype)->name);
        PyErr_Format(PyExc_TypeError,
                     "ufunc '%U' not supported for the input types (%s); "
                     "its signatures are %R",
                     v->name, v->nin ? buf : "", v->sigs_src);
        goto done;
    }
    memset(&out, 0, sizeof out);
    if (outo)
        out = *EMPY_ARR(outo);
    /* read under the GIL: another thread may grow v->sigs meanwhile */
    kern = v->sigs[sel].k;
    EMPY_NOGIL(rc, em_ckernel_elementwise(kern, ops, &out, -1, s));
    if (rc != EM_OK) {
        empy_raise(st, rc);
        goto done;
    }
    if (outo) {
        res = Py_NewRef(outo);
    } else {
        res = empy_vz_finish(st, empy_ndarray_new(st, &out, NULL), host_only,
                     !any_array);
    }
done:
    for (int j = 0; j < VZ_MAX_IN; j++)
        Py_XDECREF(keep[j]);
    return res;
}

static void VZ_dealloc(PyObject *self)
{
    VZObject *v = (VZObject *)self;
    PyTypeObject *tp = Py_TYPE(self);
    for (int s = 0; s < v->nsigs; s++)
        em_ckernel_destroy(v->sigs[s].k);
    PyMem_Free(v->sigs);
    Py_XDECREF(v->pyfunc);
    Py_XDECREF(v->name);
    Py_XDECREF(v->sigs_src);
    Py_XDECREF(v->reducer);
    tp->tp_free(self);
    Py_DECREF(tp);
}

static PyObject *VZ_repr(PyObject *self)
{
    VZObject *v = (VZObject *)self;
    return PyUnicode_FromFormat("<ember.vectorize ufunc '%U' nin=%d, %d "
                                "compiled signature(s)>",
                                v->name, v->nin, v->nsigs);
}

static PyObject *VZ_get_types(PyObject *self, void *c)
{
    VZObject *v = (VZObject *)self;
    PyObject *l = PyList_New(v->nsigs);
    if (!l)
        return NULL;
    for (int s = 0; s < v->nsigs; s++) {
        char buf[VZ_MAX_IN + 4];
        int k = 0;
        for (int j = 0; j < v->nin; j++)
            buf[k++] = em_dtype_get(v->sigs[s].in[j])->typechar;
        buf[k++] = '-';
        buf[k++] = '>';
        buf[k++] = em_dtype_get(v->sigs[s].out)->typechar;
        PyObject *e = PyUnicode_FromStringAndSize(buf, k);
        if (!e) {
            Py_DECREF(l);
            return NULL;
        }
        PyList_SET_ITEM(l, s, e);
    }
    return l;
}

static PyObject *VZ_get_nout(PyObject *self, void *c)
{
    return PyLong_FromLong(1);
}

/* ufunc.reduce of a binary vectorized function: ember.reduce's. */
static PyObject *VZ_reduce(PyObject *self, PyObject *const *args,
                           Py_ssize_t nargs, PyObject *kwnames)
{
    VZObject *v = (VZObject *)self;
    PyObject *meth, *r;
    if (v->nin != 2) {
        PyErr_Format(PyExc_ValueError,
                     "reduce only supported for binary functions ('%U' "
                     "takes %d arguments)",
                     v->name, v->nin);
        return NULL;
    }
    if (!v->reducer) {
        PyObject *mod = PyImport_ImportModule("ember._ember");
        if (!mod)
            return NULL;
        v->reducer = PyObject_CallMethod(mod, "reduce", "O", v->pyfunc);
        Py_DECREF(mod);
        if (!v->reducer)
            return NULL;
    }
    if (!(meth = PyObject_GetAttrString(v->reducer, "reduce")))
        return NULL;
    r = PyObject_Vectorcall(meth, args, (size_t)nargs, kwnames);
    Py_DECREF(meth);
    return r;
}

static PyMethodDef VZ_methods[] = {
    {"reduce", (PyCFunction)(void (*)(void))VZ_reduce,
     METH_FASTCALL | METH_KEYWORDS,
     "reduce(array, axis=0, dtype=None, out=None, keepdims=False, "
     "initial=None): as NumPy's ufunc.reduce, for binary functions (the "
     "reduction runs in the array's dtype)."},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef VZ_members[] = {
    EMPY_VECTORCALL_MEMBER(VZObject),
    {"__name__", T_OBJECT, offsetof(VZObject, name), READONLY, NULL},
    {"py_func", T_OBJECT, offsetof(VZObject, pyfunc), READONLY, NULL},
    {"nin", T_INT, offsetof(VZObject, nin), READONLY, NULL},
    {NULL, 0, 0, 0, NULL},
};

static PyGetSetDef VZ_getset[] = {
    {"types", VZ_get_types, NULL,
     "The compiled loops as NumPy's ufunc.types strings ('ff->f').", NULL},
    {"nout", VZ_get_nout, NULL, "1.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot VZ_slots[] = {
    {Py_tp_dealloc, VZ_dealloc},
    {Py_tp_repr, VZ_repr},
    {Py_tp_call, PyVectorcall_Call},
    {Py_tp_members, VZ_members},
    {Py_tp_methods, VZ_methods},
    {Py_tp_getset, VZ_getset},
    EMPY_NOINIT_SLOT
    {Py_tp_doc, "A ufunc made by ember.vectorize: call it on ember arrays, "
                "NumPy arrays or scalars (broadcasting, out=)."},
    {0, NULL},
};

static PyType_Spec VZ_spec = {
    "ember.VectorizedUfunc", sizeof(VZObject), 0,
    Py_TPFLAGS_DEFAULT | EMPY_TPFLAGS_IMMUTABLE | EMPY_TPFLAGS_NOINIT |
        Py_TPFLAGS_HAVE_VECTORCALL,
    VZ_slots,
};

/* ---- the decorators ---------------------------------------------------- */

int empy_vz_target(PyObject *t, int *cpu)
{
    const char *s;
    *cpu = 0;
    if (!t || t == Py_None)
        return 0;
    if (!PyUnicode_Check(t) || !(s = PyUnicode_AsUTF8(t)) ||
        (strcmp(s, "cuda") && strcmp(s, "cpu") && strcmp(s, "parallel"))) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError,
                            "target must be 'cuda', 'cpu' or 'parallel'");
        return -1;
    }
    *cpu = strcmp(s, "cuda") != 0;
    return 0;
}

/* A signature string -> (result dtype or -1 for void, input dtypes). */
static int parse_sig(PyObject *sig, int *nin, em_dtype *in, int *out)
{
    PyObject *jit, *r, *args;
    const char *rc;
    int ok = -1;
    if (!(jit = PyImport_ImportModule("ember.jit")))
        return -1;
    r = PyObject_CallMethod(jit, "parse_signature_full", "O", sig);
    Py_DECREF(jit);
    if (!r)
        return -1;
    if (!PyTuple_Check(r) || PyTuple_GET_SIZE(r) != 2 ||
        !(rc = PyUnicode_AsUTF8(PyTuple_GET_ITEM(r, 0))) ||
        !PyTuple_Check(args = PyTuple_GET_ITEM(r, 1))) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_SystemError, "bad parse_signature_full");
        goto done;
    }
    *out = -1;
    if (strcmp(rc, "void")) {
        em_dtype d;
        if (em_dtype_from_name(rc, &d) != EM_OK) {
            PyErr_Format(PyExc_TypeError,
                         "signature %R: the result must be a scalar type",
                         sig);
            goto done;
        }
        *out = (int)d;
    }
    *nin = (int)PyTuple_GET_SIZE(args);
    if (*nin > VZ_MAX_IN) {
        PyErr_Format(PyExc_ValueError, "signature %R: more than %d inputs",
                     sig, VZ_MAX_IN);
        goto done;
    }
    for (int j = 0; j < *nin; j++) {
        const char *c = PyUnicode_AsUTF8(PyTuple_GET_ITEM(args, j));
        if (!c || em_dtype_from_name(c, &in[j]) != EM_OK) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_TypeError,
                             "signature %R: vectorize takes scalar types, "
                             "not '%s'",
                             sig, c);
            goto done;
        }
    }
    ok = 0;
done:
    Py_DECREF(r);
    return ok;
}

static int argcount(PyObject *f, int *n)
{
    PyObject *code = PyObject_GetAttrString(f, "__code__"), *c;
    long v;
    if (!code) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError,
                     "vectorize needs a Python function, not '%.100s'",
                     Py_TYPE(f)->tp_name);
        return -1;
    }
    c = PyObject_GetAttrString(code, "co_argcount");
    Py_DECREF(code);
    if (!c)
        return -1;
    v = PyLong_AsLong(c);
    Py_DECREF(c);
    if (v < 0 || v > VZ_MAX_IN) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_ValueError,
                         "vectorize: %ld arguments (at most %d)", v,
                         VZ_MAX_IN);
        return -1;
    }
    *n = (int)v;
    return 0;
}

static PyObject *make_vectorized(empy_state *st, PyTypeObject *tp,
                                 PyObject *f, PyObject *sigs, int cpu)
{
    VZObject *v;
    PyObject *seq = NULL;
    if (!PyCallable_Check(f)) {
        PyErr_SetString(PyExc_TypeError, "vectorize decorates a function");
        return NULL;
    }
    if (!(v = PyObject_New(VZObject, tp)))
        return NULL;
    v->vectorcall = VZ_vectorcall;
    v->pyfunc = Py_NewRef(f);
    v->sigs = NULL;
    v->nsigs = v->cap = 0;
    v->cpu_target = cpu;
    v->sigs_src = NULL;
    v->reducer = NULL;
    if (!(v->name = PyObject_GetAttrString(f, "__name__")) ||
        argcount(f, &v->nin) < 0)
        goto fail;
    v->lazy = !sigs || sigs == Py_None;
    if (v->lazy) {
        v->sigs_src = PyList_New(0);
    } else {
        if (PyUnicode_Check(sigs))
            seq = PyTuple_Pack(1, sigs);
        else
            seq = PySequence_Tuple(sigs);
        if (!seq)
            goto fail;
        v->sigs_src = Py_NewRef(seq);
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(seq); i++) {
            em_dtype in[VZ_MAX_IN];
            int nin, out;
            if (parse_sig(PyTuple_GET_ITEM(seq, i), &nin, in, &out) < 0)
                goto fail;
            if (nin != v->nin || out < 0) {
                PyErr_Format(PyExc_TypeError,
                             "signature %R does not suit '%U' (%d arguments "
                             "and a result needed)",
                             PyTuple_GET_ITEM(seq, i), v->name, v->nin);
                goto fail;
            }
            if (vz_add(v, in, 1, (em_dtype)out) < 0)
                goto fail;
        }
        Py_CLEAR(seq);
    }
    if (!v->sigs_src)
        goto fail;
    (void)st;
    return (PyObject *)v;
fail:
    Py_XDECREF(seq);
    Py_DECREF(v);
    return NULL;
}

/* ---- module functions -------------------------------------------------- */

/* The decorator objects returned by vectorize(signatures) are closures:
 * a bound builtin over a tuple (signatures, target). */
static PyObject *vz_apply(PyObject *cfg, PyObject *f);
static PyMethodDef vz_apply_def = {"vectorize_decorator", vz_apply, METH_O,
                                   NULL};

static PyTypeObject *vz_type_of(PyObject *m)
{
    PyObject *t = PyObject_GetAttrString(m, "VectorizedUfunc");
    if (t)
        Py_DECREF(t);   /* the module keeps it */
    return (PyTypeObject *)t;
}

static PyObject *vz_apply(PyObject *cfg, PyObject *f)
{
    PyObject *m = PyTuple_GET_ITEM(cfg, 0);
    PyTypeObject *tp = vz_type_of(m);
    int cpu = PyTuple_GET_ITEM(cfg, 2) == Py_True;
    if (!tp)
        return NULL;
    return make_vectorized(empy_state_of_module(m), tp, f,
                           PyTuple_GET_ITEM(cfg, 1), cpu);
}

static const char *const vectorize_kw[] = {"signatures", "target", "identity",
                                           "cache", NULL};

static PyObject *mod_vectorize(PyObject *m, PyObject *const *args,
                               Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *v[4], *cfg, *r;
    int cpu;
    if (empy_parse_args("vectorize", args, nargs, kwnames, vectorize_kw, 1,
                        0, v) < 0)
        return NULL;
    if (empy_vz_target(v[1], &cpu) < 0)
        return NULL;
    /* @vectorize bare: the function itself */
    if (v[0] && PyCallable_Check(v[0]) && !PyUnicode_Check(v[0])) {
        PyTypeObject *tp = vz_type_of(m);
        return tp ? make_vectorized(empy_state_of_module(m), tp, v[0], NULL,
                                    cpu)
                  : NULL;
    }
    if (!(cfg = Py_BuildValue("(OOO)", m, v[0] ? v[0] : Py_None,
                              cpu ? Py_True : Py_False)))
        return NULL;
    r = PyCFunction_New(&vz_apply_def, cfg);
    Py_DECREF(cfg);
    return r;
}

static PyMethodDef vz_functions[] = {
    {"vectorize", (PyCFunction)(void (*)(void))mod_vectorize,
     METH_FASTCALL | METH_KEYWORDS,
     "vectorize(signatures=None, target='cuda'): a decorator making a "
     "broadcasting ufunc of a scalar Python function (Numba's spelling); "
     "also usable bare as @vectorize. signatures: 'float32(float32, "
     "float32)' strings; without them each new set of input dtypes "
     "compiles on first sight. target 'cpu' or 'parallel' computes "
     "host inputs on the cpu device."},
    {NULL, NULL, 0, NULL},
};

int empy_vectorize_init(PyObject *m, empy_state *st)
{
    PyTypeObject *t = NULL;
    (void)st;
    if (empy_add_type(m, &VZ_spec, NULL, &t) < 0)
        return -1;
    Py_DECREF(t);
    return PyModule_AddFunctions(m, vz_functions);
}
