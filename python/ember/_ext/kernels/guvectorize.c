/* ember Python extension: ember.guvectorize, generalized ufuncs from
 * Python functions over array slices, with Numba's spelling:
 *
 *     @ember.guvectorize(["void(float64[:], float64[:], float64[:])"],
 *                        "(n),(n)->()")
 *     def dot(a, b, res): ...
 *
 * The function is translated per signature into a __device__ function
 * taking each operand as (data, shape..., strides...) (docs/jit-design.md
 * section 2). It runs inside an elementwise C-string kernel over the loop
 * dimensions (the broadcast leading axes): each operand enters as a view
 * of its loop axes (core index 0), whose element pointer the kernel
 * passes on with the core extents and strides, given as scalars. A core
 * of "()" is a one-element array, as in Numba. */
#include <string.h>

#include "kernels/ckernel.h"
#include "runtime/errors.h"
#include "structmember.h"
#include "runtime/member_compat.h"

#define GU_MAX 8      /* operands */
#define GU_CORE 4     /* core dimensions per operand */

typedef struct gu_sig {
    em_dtype dt[GU_MAX];
    em_ckernel *k;
} gu_sig;

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    PyObject *pyfunc, *name, *layout, *sigs_src;
    int nin, nout, cpu_target, nsym;
    int ncore[GU_MAX], sym[GU_MAX][GU_CORE];
    char syms[GU_MAX * GU_CORE][32];
    gu_sig sigs[16];
    int nsigs;
} GUObject;

/* "(m,n),(n)->(m)" into per-operand symbol lists; -1 with ValueError. */
static int parse_layout(GUObject *g, const char *s)
{
    int side = 0, nop = 0;
    g->nin = g->nout = g->nsym = 0;
    while (*s) {
        if (*s == ' ' || *s == ',') {
            s++;
            continue;
        }
        if (s[0] == '-' && s[1] == '>') {
            if (side)
                goto bad;
            side = 1;
            g->nin = nop;
            s += 2;
            continue;
        }
        if (*s != '(' || nop == GU_MAX)
            goto bad;
        s++;
        g->ncore[nop] = 0;
        for (;;) {
            char name[32];
            int n = 0, k;
            while (*s == ' ' || *s == ',')
                s++;
            if (*s == ')') {
                s++;
                break;
            }
            while ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
                   (*s >= '0' && *s <= '9') || *s == '_') {
                if (n == 31)
                    goto bad;
                name[n++] = *s++;
            }
            name[n] = 0;
            if (!n || g->ncore[nop] == GU_CORE)
                goto bad;
            for (k = 0; k < g->nsym; k++)
                if (!strcmp(g->syms[k], name))
                    break;
            if (k == g->nsym)
                strcpy(g->syms[g->nsym++], name);
            g->sym[nop][g->ncore[nop]++] = k;
        }
        nop++;
    }
    if (!side || nop == g->nin)
        goto bad;
    g->nout = nop - g->nin;
    return 0;
bad:
    PyErr_Format(PyExc_ValueError,
                 "guvectorize: bad layout %R (expected like '(m,n),(n)->(m)', "
                 "at most %d operands of %d core dimensions)",
                 g->layout, GU_MAX, GU_CORE);
    return -1;
}

/* A signature's argument codes -> dtypes ('Af8_1A' and 'f8' alike). */
static int sig_dtypes(GUObject *g, PyObject *sig, em_dtype *dt)
{
    PyObject *jit = PyImport_ImportModule("ember.jit"), *r, *args;
    int rc = -1, n = g->nin + g->nout;
    if (!jit)
        return -1;
    r = PyObject_CallMethod(jit, "parse_signature_full", "O", sig);
    Py_DECREF(jit);
    if (!r)
        return -1;
    args = PyTuple_GET_ITEM(r, 1);
    if (PyTuple_GET_SIZE(args) != n) {
        PyErr_Format(PyExc_TypeError,
                     "guvectorize: signature %R has %zd arguments, the layout "
                     "%R %d",
                     sig, PyTuple_GET_SIZE(args), g->layout, n);
        goto done;
    }
    for (int j = 0; j < n; j++) {
        const char *c = PyUnicode_AsUTF8(PyTuple_GET_ITEM(args, j));
        char code[16];
        size_t k = 0;
        if (!c)
            goto done;
        if (*c == 'A')
            c++;
        while (c[k] && c[k] != '_' && k < sizeof code - 1) {
            code[k] = c[k];
            k++;
        }
        code[k] = 0;
        if (em_dtype_from_name(code, &dt[j]) != EM_OK ||
            !empy_vz_ctype(dt[j])) {
            PyErr_Format(PyExc_NotImplementedError,
                         "guvectorize: argument %d of %R: bool, integer, "
                         "float32 and float64 arrays are supported",
                         j, sig);
            goto done;
        }
    }
    rc = 0;
done:
    Py_DECREF(r);
    return rc;
}

static int gu_build(GUObject *g, const em_dtype *dt)
{
    PyObject *jit, *codes, *tr = NULL;
    int n = g->nin + g->nout, rc = -1;
    char inp[2048], outp[512], op[4096];
    size_t a = 0, b = 0, c = 0;
    em_ckernel_desc d;
    em_status st;
    gu_sig *s = &g->sigs[g->nsigs];
    if (g->nsigs == 16) {
        PyErr_SetString(PyExc_ValueError, "guvectorize: at most 16 signatures");
        return -1;
    }
    if (!(jit = PyImport_ImportModule("ember.jit")))
        return -1;
    if (!(codes = PyTuple_New(n))) {
        Py_DECREF(jit);
        return -1;
    }
    for (int j = 0; j < n; j++) {
        const em_dtype_info *i = em_dtype_get(dt[j]);
        int nd = g->ncore[j] ? g->ncore[j] : 1;
        PyObject *cs = PyUnicode_FromFormat("A%c%d_%dA", i->kind, (int)i->size,
                                            nd);
        if (!cs)
            goto done;
        PyTuple_SET_ITEM(codes, j, cs);
    }
    tr = PyObject_CallMethod(jit, "translate_device", "OO", g->pyfunc, codes);
    if (!tr)
        goto done;
    inp[0] = outp[0] = 0;
    for (int j = 0; j < n; j++) {
        const char *nm = em_dtype_get(dt[j])->name;
        if (j < g->nin)
            a += (size_t)snprintf(inp + a, sizeof inp - a, "%s%s g%d",
                                  a ? ", " : "", nm, j);
        else
            b += (size_t)snprintf(outp + b, sizeof outp - b, "%s%s g%d",
                                  b ? ", " : "", nm, j);
    }
    c = (size_t)snprintf(op, sizeof op, "%s(",
                         PyUnicode_AsUTF8(PyTuple_GET_ITEM(tr, 1)));
    for (int j = 0; j < n; j++) {
        int nd = g->ncore[j] ? g->ncore[j] : 1;
        c += (size_t)snprintf(op + c, sizeof op - c, "%s(%s *)_ck_ptr_g%d",
                              j ? ", " : "", empy_vz_ctype(dt[j]), j);
        for (int t = 0; t < nd; t++) {
            a += (size_t)snprintf(inp + a, sizeof inp - a,
                                  "%sint64 g%d_n%d", a ? ", " : "", j, t);
            c += (size_t)snprintf(op + c, sizeof op - c, ", g%d_n%d", j, t);
        }
        for (int t = 0; t < nd; t++) {
            a += (size_t)snprintf(inp + a, sizeof inp - a, ", int64 g%d_s%d",
                                  j, t);
            c += (size_t)snprintf(op + c, sizeof op - c, ", g%d_s%d", j, t);
        }
    }
    snprintf(op + c, sizeof op - c, ")");
    if (a >= sizeof inp || b >= sizeof outp || c >= sizeof op - 2) {
        PyErr_SetString(PyExc_ValueError, "guvectorize: too many operands");
        goto done;
    }
    memset(&d, 0, sizeof d);
    d.in_params = inp;
    d.out_params = outp;
    d.operation = op;
    d.name = "ember_guvectorize";
    d.preamble = PyUnicode_AsUTF8(PyTuple_GET_ITEM(tr, 0));
    d.reduce_dims = 1;
    if (!d.preamble)
        goto done;
    st = em_ckernel_create_elementwise(&d, &s->k);
    if (st != EM_OK) {
        empy_raise(empy_state_of((PyObject *)g), st);
        goto done;
    }
    memcpy(s->dt, dt, sizeof(em_dtype) * (size_t)n);
    g->nsigs++;
    rc = 0;
done:
    Py_XDECREF(tr);
    Py_DECREF(codes);
    Py_DECREF(jit);
    return rc;
}

/* A view of a's first nd - ncore axes at core index 0. */
static void loop_view(const em_array *a, int ncore, em_array *v)
{
    em_array_retain(a, v);
    v->ndim = a->ndim - ncore;
    em_array_update_flags(v);
}

static const char *const gu_kw[] = {"out", "stream", NULL};

static PyObject *GU_vectorcall(PyObject *self, PyObject *const *args,
                               size_t nargsf, PyObject *kwnames)
{
    GUObject *g = (GUObject *)self;
    empy_state *st = empy_state_of(self);
    Py_ssize_t n = PyVectorcall_NARGS(nargsf);
    PyObject *kw[2], *arrs[GU_MAX] = {0}, *res = NULL;
    PyObject *outs[GU_MAX] = {0};
    em_operand ops[GU_MAX * (1 + 2 * GU_CORE)];
    em_array views[GU_MAX];
    int64_t symv[GU_MAX * GU_CORE], loop[EM_MAX_NDIM];
    int symset[GU_MAX * GU_CORE] = {0}, lnd = 0, host_only = 1, sel = -1;
    int nops = 0, nviews = 0;
    em_device *dev = NULL;
    em_stream *s = NULL;
    em_status rc;
    int nt = g->nin + g->nout;

    memset(views, 0, sizeof views);
    if (n != g->nin && n != nt) {
        PyErr_Format(PyExc_TypeError,
                     "%U() takes %d inputs (and optionally %d outputs), %zd "
                     "given",
                     g->name, g->nin, g->nout, n);
        return NULL;
    }
    if (empy_parse_args(PyUnicode_AsUTF8(g->name), args + n, 0, kwnames,
                        gu_kw, 0, 0, kw) < 0)
        return NULL;
    if (empy_vz_stream(st, kw[1], &s) < 0)
        return NULL;
    for (int j = 0; j < g->nout; j++) {
        PyObject *o = n == nt ? args[g->nin + j] : NULL;
        if (!o && kw[0] && kw[0] != Py_None)
            o = g->nout == 1 ? kw[0]
                             : (PyTuple_Check(kw[0]) &&
                                PyTuple_GET_SIZE(kw[0]) == g->nout)
                                   ? PyTuple_GET_ITEM(kw[0], j)
                                   : NULL;
        if (o && !empy_is_ndarray(o)) {
            PyErr_Format(PyExc_TypeError,
                         "%U(): outputs must be ember ndarrays, not '%.100s'",
                         g->name, Py_TYPE(o)->tp_name);
            return NULL;
        }
        outs[j] = o;
        if (o) {
            host_only = 0;
            dev = EMPY_ARR(o)->device;
        }
    }
    /* the device: the first ember array's, else the target's */
    for (int j = 0; j < g->nin && !dev; j++)
        if (empy_is_ndarray(args[j]))
            dev = EMPY_ARR(args[j])->device;
    if (!dev) {
        if (g->cpu_target) {
            if ((rc = em_device_get(EM_DEVICE_CPU, 0, &dev)) != EM_OK)
                return empy_raise(st, rc);
        } else if (empy_device_arg(st, NULL, &dev) < 0) {
            return NULL;
        }
    }
    for (int j = 0; j < g->nin; j++) {
        if (empy_is_ndarray(args[j]))
            host_only = 0;
        if (!(arrs[j] = empy_asarray(st, args[j], -1, dev, EMPY_COPY_IF_NEEDED,
                                     'K')))
            goto done;
    }
    /* the signature: exact, else the first reached by safe casts */
    for (int t = 0; t < g->nsigs && sel < 0; t++) {
        int ok = 1;
        for (int j = 0; j < g->nin && ok; j++)
            ok = EMPY_ARR(arrs[j])->dtype == g->sigs[t].dt[j];
        if (ok)
            sel = t;
    }
    for (int t = 0; t < g->nsigs && sel < 0; t++) {
        int ok = 1;
        for (int j = 0; j < g->nin && ok; j++)
            ok = empy_can_cast(EMPY_ARR(arrs[j])->dtype, g->sigs[t].dt[j],
                               "safe") == 1;
        if (ok)
            sel = t;
    }
    if (sel < 0) {
        PyErr_Format(PyExc_TypeError,
                     "gufunc '%U' not supported for these input types; its "
                     "signatures are %R",
                     g->name, g->sigs_src);
        goto done;
    }
    for (int j = 0; j < g->nin; j++) {
        if (EMPY_ARR(arrs[j])->dtype != g->sigs[sel].dt[j]) {
            PyObject *c = empy_asarray(st, arrs[j], (int)g->sigs[sel].dt[j],
                                       dev, EMPY_COPY_IF_NEEDED, 'K');
            if (!c)
                goto done;
            Py_SETREF(arrs[j], c);
        }
    }
    /* core extents from the inputs, then the loop shape */
    for (int j = 0; j < g->nin; j++) {
        const em_array *a = EMPY_ARR(arrs[j]);
        int64_t tmp[EM_MAX_NDIM];
        int ntmp;
        if (a->ndim < g->ncore[j]) {
            PyErr_Format(PyExc_ValueError,
                         "%U: input %d has %d dimension(s), its core needs "
                         "%d (layout %R)",
                         g->name, j, a->ndim, g->ncore[j], g->layout);
            goto done;
        }
        for (int t = 0; t < g->ncore[j]; t++) {
            int sy = g->sym[j][t];
            int64_t e = a->shape[a->ndim - g->ncore[j] + t];
            if (symset[sy] && symv[sy] != e) {
                PyErr_Format(PyExc_ValueError,
                             "%U: core dimension '%s' is %lld in input %d "
                             "but %lld before (layout %R)",
                             g->name, g->syms[sy], (long long)e, j,
                             (long long)symv[sy], g->layout);
                goto done;
            }
            symset[sy] = 1;
            symv[sy] = e;
        }
        if (j == 0) {
            lnd = a->ndim - g->ncore[0];
            memcpy(loop, a->shape, sizeof(int64_t) * (size_t)lnd);
        } else if ((rc = em_shape_broadcast(lnd, loop, a->ndim - g->ncore[j],
                                            a->shape, &ntmp, tmp)) != EM_OK) {
            empy_raise(st, rc);
            goto done;
        } else {
            lnd = ntmp;
            memcpy(loop, tmp, sizeof(int64_t) * (size_t)lnd);
        }
    }
    /* outputs: given (checked) or made */
    for (int j = g->nin; j < nt; j++) {
        int64_t shape[EM_MAX_NDIM];
        int nd = lnd + g->ncore[j];
        char b1[128], b2[128];
        memcpy(shape, loop, sizeof(int64_t) * (size_t)lnd);
        for (int t = 0; t < g->ncore[j]; t++) {
            int sy = g->sym[j][t];
            if (!symset[sy]) {
                PyErr_Format(PyExc_ValueError,
                             "%U: no input sets core dimension '%s' of output "
                             "%d",
                             g->name, g->syms[sy], j - g->nin);
                goto done;
            }
            shape[lnd + t] = symv[sy];
        }
        if (outs[j - g->nin]) {
            const em_array *o = EMPY_ARR(outs[j - g->nin]);
            if (o->ndim != nd ||
                memcmp(o->shape, shape, sizeof(int64_t) * (size_t)nd)) {
                PyErr_Format(PyExc_ValueError,
                             "%U: output %d has shape %s, %s is needed",
                             g->name, j - g->nin,
                             em_shape_format(o->ndim, o->shape, b1, sizeof b1),
                             em_shape_format(nd, shape, b2, sizeof b2));
                goto done;
            }
            if (o->dtype != g->sigs[sel].dt[j]) {
                PyErr_Format(PyExc_TypeError,
                             "%U: output %d is %s, the signature's is %s",
                             g->name, j - g->nin, em_dtype_get(o->dtype)->name,
                             em_dtype_get(g->sigs[sel].dt[j])->name);
                goto done;
            }
            arrs[j] = Py_NewRef(outs[j - g->nin]);
        } else {
            em_array a;
            if ((rc = em_array_empty(dev, g->sigs[sel].dt[j], nd, shape, 'C',
                                     s, &a)) != EM_OK) {
                empy_raise(st, rc);
                goto done;
            }
            if (!(arrs[j] = empy_ndarray_new(st, &a, NULL)))
                goto done;
        }
    }
    /* operands: loop views (inputs, then outputs), then core geometry */
    for (int j = 0; j < nt; j++) {
        loop_view(EMPY_ARR(arrs[j]), g->ncore[j], &views[j]);
        nviews++;
    }
    for (int j = 0; j < g->nin; j++) {
        memset(&ops[nops], 0, sizeof ops[nops]);
        ops[nops].array = &views[j];
        ops[nops].dtype = views[j].dtype;
        nops++;
    }
    for (int j = 0; j < nt; j++) {
        const em_array *a = EMPY_ARR(arrs[j]);
        int nc = g->ncore[j] ? g->ncore[j] : 1;
        int64_t isz = (int64_t)em_dtype_size(a->dtype);
        for (int pass = 0; pass < 2; pass++)
            for (int t = 0; t < nc; t++) {
                int ax = a->ndim - g->ncore[j] + t;
                int64_t v = g->ncore[j] == 0 ? (pass ? 0 : 1)
                            : pass ? a->strides[ax] / isz
                                   : a->shape[ax];
                if (pass && g->ncore[j] && a->strides[ax] % isz) {
                    PyErr_SetString(PyExc_NotImplementedError,
                                    "guvectorize: an operand's strides are "
                                    "not multiples of its item size");
                    goto done;
                }
                memset(&ops[nops], 0, sizeof ops[nops]);
                ops[nops].dtype = EM_INT64;
                ops[nops].value.i = v;
                nops++;
            }
    }
    EMPY_NOGIL(rc, em_ckernel_elementwise(g->sigs[sel].k, ops,
                                          &views[g->nin], -1, s));
    if (rc != EM_OK) {
        empy_raise(st, rc);
        goto done;
    }
    if (g->nout == 1) {
        res = Py_NewRef(arrs[g->nin]);
        if (host_only)
            Py_SETREF(res, empy_ndarray_to_numpy(st, arrs[g->nin], 0));
    } else if ((res = PyTuple_New(g->nout))) {
        for (int j = 0; j < g->nout; j++) {
            PyObject *o = host_only
                              ? empy_ndarray_to_numpy(st, arrs[g->nin + j], 0)
                              : Py_NewRef(arrs[g->nin + j]);
            if (!o) {
                Py_CLEAR(res);
                break;
            }
            PyTuple_SET_ITEM(res, j, o);
        }
    }
done:
    for (int j = 0; j < nviews; j++)
        em_array_release(&views[j]);
    for (int j = 0; j < GU_MAX; j++)
        Py_XDECREF(arrs[j]);
    return res;
}

static void GU_dealloc(PyObject *self)
{
    GUObject *g = (GUObject *)self;
    PyTypeObject *tp = Py_TYPE(self);
    for (int s = 0; s < g->nsigs; s++)
        em_ckernel_destroy(g->sigs[s].k);
    Py_XDECREF(g->pyfunc);
    Py_XDECREF(g->name);
    Py_XDECREF(g->layout);
    Py_XDECREF(g->sigs_src);
    tp->tp_free(self);
    Py_DECREF(tp);
}

static PyObject *GU_repr(PyObject *self)
{
    GUObject *g = (GUObject *)self;
    return PyUnicode_FromFormat("<ember.guvectorize gufunc '%U' %U>", g->name,
                                g->layout);
}

static PyMemberDef GU_members[] = {
    EMPY_VECTORCALL_MEMBER(GUObject),
    {"__name__", T_OBJECT, offsetof(GUObject, name), READONLY, NULL},
    {"py_func", T_OBJECT, offsetof(GUObject, pyfunc), READONLY, NULL},
    {"signature", T_OBJECT, offsetof(GUObject, layout), READONLY, NULL},
    {"nin", T_INT, offsetof(GUObject, nin), READONLY, NULL},
    {"nout", T_INT, offsetof(GUObject, nout), READONLY, NULL},
    {NULL, 0, 0, 0, NULL},
};

static PyType_Slot GU_slots[] = {
    {Py_tp_dealloc, GU_dealloc},
    {Py_tp_repr, GU_repr},
    {Py_tp_call, PyVectorcall_Call},
    {Py_tp_members, GU_members},
    EMPY_NOINIT_SLOT
    {Py_tp_doc, "A generalized ufunc made by ember.guvectorize."},
    {0, NULL},
};

static PyType_Spec GU_spec = {
    "ember.GUFunc", sizeof(GUObject), 0,
    Py_TPFLAGS_DEFAULT | EMPY_TPFLAGS_IMMUTABLE | EMPY_TPFLAGS_NOINIT |
        Py_TPFLAGS_HAVE_VECTORCALL,
    GU_slots,
};

static PyObject *gu_make(PyObject *cfg, PyObject *f)
{
    PyObject *m = PyTuple_GET_ITEM(cfg, 0), *sigs = PyTuple_GET_ITEM(cfg, 1);
    PyObject *t = PyObject_GetAttrString(m, "GUFunc"), *seq = NULL;
    const char *lay;
    GUObject *g;
    if (!t)
        return NULL;
    g = PyObject_New(GUObject, (PyTypeObject *)t);
    Py_DECREF(t);
    if (!g)
        return NULL;
    g->vectorcall = GU_vectorcall;
    g->pyfunc = Py_NewRef(f);
    g->layout = Py_NewRef(PyTuple_GET_ITEM(cfg, 2));
    g->cpu_target = PyTuple_GET_ITEM(cfg, 3) == Py_True;
    g->nsigs = 0;
    g->sigs_src = NULL;
    if (!(g->name = PyObject_GetAttrString(f, "__name__")))
        goto fail;
    if (!(lay = PyUnicode_AsUTF8(g->layout)) || parse_layout(g, lay) < 0)
        goto fail;
    if (!(seq = PyUnicode_Check(sigs) ? PyTuple_Pack(1, sigs)
                                      : PySequence_Tuple(sigs)))
        goto fail;
    g->sigs_src = Py_NewRef(seq);
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(seq); i++) {
        em_dtype dt[GU_MAX];
        if (sig_dtypes(g, PyTuple_GET_ITEM(seq, i), dt) < 0 ||
            gu_build(g, dt) < 0)
            goto fail;
    }
    Py_DECREF(seq);
    return (PyObject *)g;
fail:
    Py_XDECREF(seq);
    Py_DECREF(g);
    return NULL;
}

static PyMethodDef gu_make_def = {"guvectorize_decorator", gu_make, METH_O,
                                  NULL};

static const char *const guvectorize_kw[] = {"signatures", "layout", "target",
                                             "nopython", "cache", NULL};

static PyObject *mod_guvectorize(PyObject *m, PyObject *const *args,
                                 Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *v[5], *cfg, *r;
    int cpu;
    if (empy_parse_args("guvectorize", args, nargs, kwnames, guvectorize_kw, 3,
                        2, v) < 0)
        return NULL;
    if (!PyUnicode_Check(v[1])) {
        PyErr_SetString(PyExc_TypeError,
                        "guvectorize: the layout is a string like '(n),(n)->()'");
        return NULL;
    }
    if (empy_vz_target(v[2], &cpu) < 0)
        return NULL;
    if (!(cfg = Py_BuildValue("(OOOO)", m, v[0], v[1],
                              cpu ? Py_True : Py_False)))
        return NULL;
    r = PyCFunction_New(&gu_make_def, cfg);
    Py_DECREF(cfg);
    return r;
}

static PyMethodDef gu_functions[] = {
    {"guvectorize", (PyCFunction)(void (*)(void))mod_guvectorize,
     METH_FASTCALL | METH_KEYWORDS,
     "guvectorize(signatures, layout, target='cuda'): a decorator making a "
     "generalized ufunc of a Python function over array slices, as Numba's: "
     "layout like '(n),(n)->()', signatures like 'void(float64[:], "
     "float64[:], float64[:])'. Outputs are allocated (or given after the "
     "inputs, or as out=) and returned."},
    {NULL, NULL, 0, NULL},
};

int empy_guvectorize_init(PyObject *m, empy_state *st)
{
    PyTypeObject *t = NULL;
    (void)st;
    if (empy_add_type(m, &GU_spec, NULL, &t) < 0)
        return -1;
    Py_DECREF(t);
    return PyModule_AddFunctions(m, gu_functions);
}
