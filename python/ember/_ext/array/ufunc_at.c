/* ember Python extension: ufunc.at(a, indices, b=None), NumPy's unbuffered
 * in-place operation, for ember's unary and binary ufuncs. */
#include <string.h>
#include <stdlib.h>
#include "runtime/module.h"
#include "runtime/errors.h"
#include "array/ndarray.h"

#define UF(o) ((empy_Ufunc *)(o))

static const char *uname(PyObject *self)
{
    return em_op_get(UF(self)->op)->name;
}

static PyObject *as_array(empy_state *st, PyObject *o, em_device *dev)
{
    return empy_asarray(st, o, -1, dev, EMPY_COPY_IF_NEEDED, 'K');
}

/* A new int64 array on dev from n host values. */
static PyObject *upload_i64(empy_state *st, em_device *dev, const int64_t *v, int64_t n)
{
    em_array a;
    em_status rc = em_array_empty(dev, EM_INT64, 1, &n, 'C', NULL, &a);
    if (rc == EM_OK && n) {
        EMPY_NOGIL(rc, em_array_from_host(&a, v, NULL, NULL));
        if (rc != EM_OK)
            em_array_release(&a);
    }
    if (rc != EM_OK)
        return empy_raise(st, rc);
    return empy_ndarray_new(st, &a, NULL);
}

typedef struct { int64_t pos, i; } pos_i;

static int cmp_pos(const void *x, const void *y)
{
    const pos_i *p = x, *q = y;
    if (p->pos != q->pos)
        return p->pos < q->pos ? -1 : 1;
    return p->i < q->i ? -1 : p->i > q->i;
}

/* One round of at: positions all distinct. a.flat[pos] = op(a.flat[pos], b). */
static int at_round(empy_state *st, PyObject *self, em_array *a, const em_array *pos,
                    const em_array *b)
{
    em_array vals;
    em_operand in[2];
    em_status rc;
    memset(&vals, 0, sizeof vals);
    memset(in, 0, sizeof in);
    EMPY_NOGIL(rc, em_take(a, pos, EM_TAKE_FLAT, EM_INDEX_RAISE, &vals, NULL));
    if (rc == EM_OK) {
        in[0].array = &vals;
        in[0].dtype = vals.dtype;
        if (b) {
            in[1].array = b;
            in[1].dtype = b->dtype;
        }
        EMPY_NOGIL(rc, em_ufunc_apply(UF(self)->op, in, UF(self)->nin, &vals, NULL, NULL));
    }
    if (rc == EM_OK)
        EMPY_NOGIL(rc, em_put(a, pos, &vals, EM_INDEX_RAISE, NULL));
    em_array_release(&vals);
    return rc == EM_OK ? 0 : empy_fail(st, rc);
}

/* ufunc.at(a, indices, b=None): op applied in place at each index, once per
 * occurrence (a repeated index accumulates, unlike a[i] = op(a[i], b)).
 * The flat positions come from indexing an arange of a's shape, so every
 * index NumPy takes works; occurrences of one position are applied in
 * rounds of distinct positions, in index order, as NumPy applies them. */
PyObject *empy_ufunc_at(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"a", "indices", "b", NULL};
    empy_state *st = empy_state_of(self);
    PyObject *a_o, *idx_o, *b_o = Py_None, *mod = NULL, *rng = NULL, *pos = NULL,
             *posf = NULL, *b = NULL, *bf = NULL, *host = NULL, *r = NULL;
    em_array *a;
    int64_t n, k, rounds = 0, *rank = NULL, *buf = NULL, *sel = NULL;
    pos_i *pi = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|O:at", kwlist, &a_o, &idx_o, &b_o))
        return NULL;
    if (!empy_is_ndarray(a_o)) {
        PyErr_Format(PyExc_TypeError, "%s.at: the first argument must be an ember array "
                     "(it is changed in place), not %.100s", uname(self),
                     Py_TYPE(a_o)->tp_name);
        return NULL;
    }
    a = EMPY_ARR(a_o);
    if (UF(self)->nout != 1 || (UF(self)->nin == 2) != (b_o != Py_None)) {
        PyErr_Format(PyExc_ValueError, "%s.at: %s", uname(self), UF(self)->nin == 2
                     ? "second operand needed for ufunc" : "second operand provided "
                                                           "when ufunc is unary");
        return NULL;
    }
    if (!(a->flags & EM_ARRAY_WRITEABLE)) {
        PyErr_SetString(PyExc_ValueError, "output array is read-only");
        return NULL;
    }
    mod = PyType_GetModule(st->ufunc);
    {
        /* ember.arange(a.size, device=a.device).reshape(a.shape)[indices] */
        PyObject *fn = mod ? PyObject_GetAttrString(mod, "arange") : NULL, *kwd = NULL,
                 *sz = NULL, *dev = NULL, *t = NULL, *shp = NULL;
        if (fn && (kwd = PyDict_New()) && (dev = empy_device_new(st, a->device)) &&
            PyDict_SetItemString(kwd, "device", dev) == 0 &&
            (sz = PyTuple_Pack(1, PyLong_FromLongLong(a->size))))
            t = PyObject_Call(fn, sz, kwd);
        if (sz)
            Py_DECREF(PyTuple_GET_ITEM(sz, 0));
        Py_XDECREF(fn);
        Py_XDECREF(kwd);
        Py_XDECREF(sz);
        Py_XDECREF(dev);
        if (t && (shp = PyObject_GetAttrString(a_o, "shape")))
            rng = PyObject_CallMethod(t, "reshape", "O", shp);
        Py_XDECREF(t);
        Py_XDECREF(shp);
    }
    if (!rng || !(pos = PyObject_GetItem(rng, idx_o)))
        goto done;
    if (!empy_is_ndarray(pos)) {
        PyObject *t = as_array(st, pos, a->device);
        Py_SETREF(pos, t);
        if (!pos)
            goto done;
    }
    if (!(posf = PyObject_CallMethod(pos, "ravel", NULL)))
        goto done;
    n = EMPY_ARR(posf)->size;
    if (b_o != Py_None) {
        PyObject *shp = PyObject_GetAttrString(pos, "shape"), *t = NULL;
        if (!shp || !(b = as_array(st, b_o, a->device)))
            goto at_shape_fail;
        t = PyObject_GetAttrString(mod, "broadcast_to");
        if (t) {
            PyObject *bb = PyObject_CallFunctionObjArgs(t, b, shp, NULL);
            Py_DECREF(t);
            Py_SETREF(b, bb);
        }
        if (b)
            bf = PyObject_CallMethod(b, "ravel", NULL);
    at_shape_fail:
        Py_XDECREF(shp);
        if (!bf)
            goto done;
    }
    /* Occurrence rank of each index, on the host. */
    if (!(host = PyObject_CallMethod(posf, "tolist", NULL)))
        goto done;
    pi = PyMem_Malloc(sizeof *pi * (size_t)(n ? n : 1));
    rank = PyMem_Malloc(sizeof *rank * (size_t)(n ? n : 1));
    buf = PyMem_Malloc(sizeof *buf * (size_t)(n ? n : 1));
    sel = PyMem_Malloc(sizeof *sel * (size_t)(n ? n : 1));
    if (!pi || !rank || !buf || !sel) {
        PyErr_NoMemory();
        goto done;
    }
    for (k = 0; k < n; k++) {
        pi[k].pos = PyLong_AsLongLong(PyList_GET_ITEM(host, k));
        pi[k].i = k;
    }
    qsort(pi, (size_t)n, sizeof *pi, cmp_pos);
    for (k = 0; k < n; k++) {
        rank[pi[k].i] = k && pi[k].pos == pi[k - 1].pos ? rank[pi[k - 1].i] + 1 : 0;
        if (rank[pi[k].i] + 1 > rounds)
            rounds = rank[pi[k].i] + 1;
    }
    for (int64_t rd = 0; rd < rounds; rd++) {
        PyObject *p_r, *b_r = NULL;
        int64_t m = 0;
        int ok;
        for (k = 0; k < n; k++)
            if (rank[k] == rd)
                sel[m++] = k;
        for (k = 0; k < m; k++)
            buf[k] = PyLong_AsLongLong(PyList_GET_ITEM(host, sel[k]));
        if (!(p_r = upload_i64(st, a->device, buf, m)))
            goto done;
        if (bf) {
            if (rounds == 1) {
                b_r = Py_NewRef(bf);
            } else {
                PyObject *s_r = upload_i64(st, a->device, sel, m);
                em_array t;
                em_status rc;
                memset(&t, 0, sizeof t);
                if (!s_r) {
                    Py_DECREF(p_r);
                    goto done;
                }
                EMPY_NOGIL(rc, em_take(EMPY_ARR(bf), EMPY_ARR(s_r), 0, EM_INDEX_RAISE, &t,
                                       NULL));
                Py_DECREF(s_r);
                b_r = rc == EM_OK ? empy_ndarray_new(st, &t, NULL) : empy_raise(st, rc);
                if (!b_r) {
                    Py_DECREF(p_r);
                    goto done;
                }
            }
        }
        ok = at_round(st, self, a, EMPY_ARR(p_r), b_r ? EMPY_ARR(b_r) : NULL);
        Py_DECREF(p_r);
        Py_XDECREF(b_r);
        if (ok < 0)
            goto done;
    }
    r = Py_NewRef(Py_None);
done:
    PyMem_Free(pi);
    PyMem_Free(rank);
    PyMem_Free(buf);
    PyMem_Free(sel);
    Py_XDECREF(rng);
    Py_XDECREF(pos);
    Py_XDECREF(posf);
    Py_XDECREF(b);
    Py_XDECREF(bf);
    Py_XDECREF(host);
    return r;
}
