/* ember Python extension: basic indexing of ndarrays (integers, slices,
 * `...`, None and tuples of them) for reading, which makes views, and for
 * assignment, which writes through them.
 *
 * A key becomes one em_slice per axis for em_array_slice (integers as
 * step 0, which drops the axis), then the new axes of None are inserted
 * into the view's layout. A key with an integer array, a list or a
 * boolean (array or scalar) goes the advanced way (see below): the basic
 * view first, then one gather or scatter. */
#include <string.h>
#include "runtime/module.h"
#include "runtime/errors.h"
#include "array/ndarray.h"

#define NDA(o) ((empy_ndarray *)(o))

static const char bad_index[] =
    "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) "
    "and integer or boolean arrays are valid indices";

enum { K_INT, K_SLICE, K_NONE, K_ELLIPSIS, K_ADV };

/* What one element of a key is; -1 with an exception for what ember
 * cannot index with. An int's value is stored in *iv. */
static int key_kind(PyObject *k, Py_ssize_t *iv)
{
    if (PyLong_CheckExact(k)) {
        *iv = PyLong_AsSsize_t(k);
        if (*iv == -1 && PyErr_Occurred()) {
            if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
                PyErr_Clear();
                PyErr_SetString(PyExc_IndexError, "cannot fit 'int' into an "
                                "index-sized integer");
            }
            return -1;
        }
        return K_INT;
    }
    if (PySlice_Check(k))
        return K_SLICE;
    if (k == Py_None)
        return K_NONE;
    if (k == Py_Ellipsis)
        return K_ELLIPSIS;
    if (PyBool_Check(k) || PyList_Check(k))
        return K_ADV;
    if (empy_is_ndarray(k)) {
        const em_array *a = EMPY_ARR(k);
        char kind = em_dtype_get(a->dtype)->kind;
        if (kind != 'i' && kind != 'u' && kind != 'b') {
            PyErr_SetString(PyExc_IndexError, "arrays used as indices must be "
                            "of integer (or boolean) type");
            return -1;
        }
        if (a->ndim != 0 || kind == 'b')
            return K_ADV;
    } else if (PyObject_CheckBuffer(k)) {
        /* A NumPy array: a 0-d integer one is an integer, others index
         * advanced-style. */
        Py_buffer v;
        int nd, isbool;
        if (PyObject_GetBuffer(k, &v, PyBUF_RECORDS_RO) < 0)
            return -1;
        nd = v.ndim;
        isbool = v.format && strchr(v.format, '?') != NULL;
        PyBuffer_Release(&v);
        if (nd != 0 || isbool)
            return K_ADV;
    }
    if (PyIndex_Check(k)) {
        PyObject *n = PyNumber_Index(k);
        if (!n)
            return -1;
        *iv = PyLong_AsSsize_t(n);
        Py_DECREF(n);
        if (*iv == -1 && PyErr_Occurred())
            return -1;
        return K_INT;
    }
    PyErr_SetString(PyExc_IndexError, bad_index);
    return -1;
}

/* The items of an index (a tuple's, or *key alone) and their count; -1
 * with NumPy's IndexError past max. */
static Py_ssize_t key_items(const em_array *a, PyObject *const *key, Py_ssize_t max,
                            PyObject *const **items)
{
    Py_ssize_t n = 1;
    *items = key;
    if (PyTuple_Check(*key)) {
        *items = &PyTuple_GET_ITEM(*key, 0);
        n = PyTuple_GET_SIZE(*key);
    }
    if (n > max) {
        PyErr_Format(PyExc_IndexError, "too many indices for array: array is "
                     "%d-dimensional, but %zd were indexed", a->ndim, n);
        return -1;
    }
    return n;
}

/* The view that key selects from a: fills *out with a new reference. */
static int index_view(empy_state *st, const em_array *a, PyObject *key,
                      em_array *out)
{
    PyObject *const *items;
    Py_ssize_t n, i, ivals[EM_MAX_NDIM * 2];
    int kinds[EM_MAX_NDIM * 2];
    em_slice sl[EM_MAX_NDIM];
    /* newaxis[p]: output axis p is a new extent-1 axis. */
    unsigned char newaxis[EM_MAX_NDIM * 3];
    int consumed = 0, ellipsis = 0, ax = 0, outpos = 0, nnew = 0, j;
    em_array v;
    em_status rc;

    if ((n = key_items(a, &key, EM_MAX_NDIM * 2, &items)) < 0)
        return -1;
    for (i = 0; i < n; i++) {
        int k = key_kind(items[i], &ivals[i]);
        if (k < 0)
            return -1;
        kinds[i] = k;
        if (k == K_INT || k == K_SLICE)
            consumed++;
        else if (k == K_ELLIPSIS && ellipsis++) {
            PyErr_SetString(PyExc_IndexError, "an index can only have a "
                            "single ellipsis ('...')");
            return -1;
        }
    }
    if (consumed > a->ndim) {
        PyErr_Format(PyExc_IndexError, "too many indices for array: array is "
                     "%d-dimensional, but %d were indexed", a->ndim, consumed);
        return -1;
    }
    memset(newaxis, 0, sizeof newaxis);
    for (i = 0; i < n; i++) {
        switch (kinds[i]) {
        case K_INT: {
            Py_ssize_t v_ = ivals[i], dim = (Py_ssize_t)a->shape[ax];
            if (v_ < -dim || v_ >= dim) {
                PyErr_Format(PyExc_IndexError, "index %zd is out of bounds for "
                             "axis %d with size %zd", v_, ax, dim);
                return -1;
            }
            sl[ax].start = v_ < 0 ? v_ + dim : v_;
            sl[ax].stop = sl[ax].start + 1;
            sl[ax].step = 0;
            ax++;
            break;
        }
        case K_SLICE: {
            Py_ssize_t start, stop, step;
            if (PySlice_Unpack(items[i], &start, &stop, &step) < 0)
                return -1;
            PySlice_AdjustIndices((Py_ssize_t)a->shape[ax], &start, &stop, step);
            sl[ax].start = start;
            sl[ax].stop = stop;
            sl[ax].step = step;
            ax++;
            outpos++;
            break;
        }
        case K_NONE:
            newaxis[outpos++] = 1;
            nnew++;
            break;
        default: /* the ellipsis: every axis the key does not name */
            for (j = 0; j < a->ndim - consumed; j++, ax++, outpos++) {
                sl[ax].start = 0;
                sl[ax].stop = a->shape[ax];
                sl[ax].step = 1;
            }
        }
    }
    for (; ax < a->ndim; ax++) {
        sl[ax].start = 0;
        sl[ax].stop = a->shape[ax];
        sl[ax].step = 1;
    }
    rc = em_array_slice(a, sl, &v);
    if (rc != EM_OK)
        return empy_fail(st, rc);
    if (nnew) {
        int total = v.ndim + nnew, src = v.ndim - 1, p;
        if (total > EM_MAX_NDIM) {
            em_array_release(&v);
            PyErr_Format(PyExc_IndexError, "indexing would give %d dimensions; "
                         "ember's limit is %d", total, EM_MAX_NDIM);
            return -1;
        }
        /* Back to front, so each axis moves at most once in place. */
        for (p = total - 1; p >= 0; p--) {
            if (p < (int)sizeof newaxis && newaxis[p]) {
                v.shape[p] = 1;
                v.strides[p] = 0;
            } else {
                v.shape[p] = v.shape[src];
                v.strides[p] = v.strides[src];
                src--;
            }
        }
        v.ndim = total;
        em_array_update_flags(&v);
    }
    *out = v;
    return 0;
}

/* ---- advanced indexing -------------------------------------------------- */

/* 1 if the key holds an integer array, a list or a boolean; 0 if it is
 * basic; -1 with an exception. */
static int key_is_advanced(PyObject *key)
{
    Py_ssize_t iv;
    if (!PyTuple_Check(key)) {
        int k = key_kind(key, &iv);
        return k < 0 ? -1 : k == K_ADV;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(key); i++) {
        int k = key_kind(PyTuple_GET_ITEM(key, i), &iv);
        if (k < 0)
            return -1;
        if (k == K_ADV)
            return 1;
    }
    return 0;
}

/* An advanced key resolved: the basic view it indexes, and the gather
 * geometry over that view (index arrays owned here). */
typedef struct adv_plan {
    em_array view;
    em_index_geom g;
    em_array idx[EM_MAX_NDIM];
    int nidx;
    /* a single boolean mask of the array's whole shape (for assignment
     * without compaction) */
    int whole_mask;
    em_array mask;
    /* whether any index came from the user as integers (mask coordinates
     * are in range by construction, so those need no check and no
     * synchronisation) */
    int user_ints;
} adv_plan;

static void adv_plan_free(adv_plan *p)
{
    em_array_release(&p->view);
    for (int k = 0; k < p->nidx; k++)
        em_array_release(&p->idx[k]);
    em_array_release(&p->mask);
}

static int shapes_str(char *buf, size_t n, int nd, const int64_t *shape)
{
    size_t l = strlen(buf);
    if (l >= n)
        return 0;
    em_shape_format(nd, shape, buf + l, n - l);
    l = strlen(buf);
    if (l + 1 < n) {
        buf[l] = ' ';
        buf[l + 1] = 0;
    }
    return 0;
}

/* One index item as an ember array on dev (new reference), or NULL. */
static PyObject *index_array(empy_state *st, PyObject *k, em_device *dev)
{
    PyObject *arr;
    char kind;
    if (empy_is_ndarray(k)) {
        if (EMPY_ARR(k)->device != dev) {
            PyErr_Format(PyExc_ValueError,
                         "the index array is on %s but the indexed array on "
                         "%s (ember does not copy between devices "
                         "implicitly)",
                         em_device_name(EMPY_ARR(k)->device),
                         em_device_name(dev));
            return NULL;
        }
        Py_INCREF(k);
        arr = k;
    } else {
        arr = empy_asarray(st, k, -1, dev, EMPY_COPY_IF_NEEDED, 'C');
        if (!arr)
            return NULL;
        /* [] is an empty integer index, as in NumPy. */
        if (EMPY_ARR(arr)->size == 0 &&
            em_dtype_get(EMPY_ARR(arr)->dtype)->kind == 'f') {
            Py_DECREF(arr);
            arr = empy_asarray(st, k, EM_INT64, dev, EMPY_COPY_IF_NEEDED, 'C');
            if (!arr)
                return NULL;
        }
    }
    kind = em_dtype_get(EMPY_ARR(arr)->dtype)->kind;
    if (kind != 'i' && kind != 'u' && kind != 'b') {
        Py_DECREF(arr);
        PyErr_SetString(PyExc_IndexError, "arrays used as indices must be of "
                        "integer (or boolean) type");
        return NULL;
    }
    return arr;
}

/* A new 1-d int64 array holding one 0 (n = 1) or nothing (n = 0). */
static em_status zero_index(em_device *dev, int64_t n, em_array *out)
{
    int64_t zero = 0;
    em_status rc = em_array_empty(dev, EM_INT64, 1, &n, 'C', NULL, out);
    if (rc == EM_OK && n)
        rc = em_array_fill(out, &zero, EM_INT64, NULL);
    return rc;
}

#define ADV_MAX_ITEMS (EM_MAX_NDIM * 2)

static int adv_resolve(empy_state *st, const em_array *a, PyObject *key,
                       adv_plan *p, int defer_whole_mask)
{
    PyObject *const *items;
    PyObject *arrs[ADV_MAX_ITEMS] = {0};
    PyObject *basic = NULL;
    Py_ssize_t n, i, iv;
    int kinds[ADV_MAX_ITEMS], consumed = 0, ellipsis = 0, ret = -1;
    int ax = 0, outpos = 0, first_adv = -1, last_adv = -1, nadv = 0;
    int insert_at = 0, nplain = 0, nb = 0, bpos = 0, nbasic = 0;
    int vaxis[EM_MAX_NDIM], srcaxis[EM_MAX_NDIM], is_adv_axis[EM_MAX_NDIM * 3];
    int64_t bshape[EM_MAX_NDIM];
    em_status rc;

    memset(p, 0, sizeof *p);
    if ((n = key_items(a, &key, ADV_MAX_ITEMS, &items)) < 0)
        return -1;
    for (i = 0; i < n; i++) {
        int k = key_kind(items[i], &iv);
        if (k < 0)
            goto done;
        kinds[i] = k;
        if (k == K_ADV) {
            if (!(arrs[i] = index_array(st, items[i], a->device)))
                goto done;
            if (EMPY_ARR(arrs[i])->dtype == EM_BOOL)
                consumed += EMPY_ARR(arrs[i])->ndim;
            else
                consumed++;
        } else if (k == K_INT || k == K_SLICE) {
            consumed++;
        } else if (k == K_ELLIPSIS && ellipsis++) {
            PyErr_SetString(PyExc_IndexError, "an index can only have a "
                            "single ellipsis ('...')");
            goto done;
        }
    }
    if (consumed > a->ndim) {
        PyErr_Format(PyExc_IndexError, "too many indices for array: array is "
                     "%d-dimensional, but %d were indexed", a->ndim, consumed);
        goto done;
    }
    /* The basic key: each array becomes full slices (a 0-d boolean a new
     * axis), whose view axes the arrays then index. */
    if (!(basic = PyTuple_New(n + a->ndim)))
        goto done;
    memset(is_adv_axis, 0, sizeof is_adv_axis);
    for (i = 0; i < n; i++) {
        PyObject *it = items[i];
        if (kinds[i] == K_ADV) {
            const em_array *ia = EMPY_ARR(arrs[i]);
            int isbool = ia->dtype == EM_BOOL;
            if (p->nidx + (isbool && ia->ndim ? ia->ndim : 1) > EM_MAX_NDIM) {
                PyErr_Format(PyExc_IndexError, "too many index arrays "
                             "(ember's limit is %d)", EM_MAX_NDIM);
                goto done;
            }
            if (first_adv < 0)
                first_adv = (int)i, insert_at = outpos;
            last_adv = (int)i;
            nadv++;
            if (isbool && ia->ndim == 0) {
                /* True: a new axis indexed by [0]; False: by []. */
                unsigned char t = 0;
                EMPY_NOGIL(rc, em_array_to_host(ia, &t, NULL, NULL));
                if (rc != EM_OK) {
                    empy_fail(st, rc);
                    goto done;
                }
                if ((rc = zero_index(a->device, t ? 1 : 0,
                                     &p->idx[p->nidx])) != EM_OK) {
                    empy_fail(st, rc);
                    goto done;
                }
                vaxis[p->nidx] = outpos;
                srcaxis[p->nidx] = ax;
                p->nidx++;
                is_adv_axis[outpos] = 1;
                Py_INCREF(Py_None);
                PyTuple_SET_ITEM(basic, nbasic++, Py_None);
                outpos++;
                continue;
            }
            if (isbool) {
                em_array nz;
                for (int d = 0; d < ia->ndim; d++)
                    if (ia->shape[d] != a->shape[ax + d]) {
                        PyErr_Format(PyExc_IndexError,
                                     "boolean index did not match indexed "
                                     "array along axis %d; size of axis is "
                                     "%lld but size of corresponding "
                                     "boolean axis is %lld",
                                     ax + d, (long long)a->shape[ax + d],
                                     (long long)ia->shape[d]);
                        goto done;
                    }
                if (ia->ndim == a->ndim && n == 1) {
                    p->whole_mask = 1;
                    em_array_retain(ia, &p->mask);
                    if (defer_whole_mask) {
                        /* The caller works from the mask itself: the
                         * coordinates (8 * ndim bytes per True) are not
                         * made (mask_assign). */
                        em_array_retain(a, &p->view);
                        ret = 0;
                        goto done;
                    }
                }
                EMPY_NOGIL(rc, em_nonzero(ia, &nz, NULL));
                if (rc != EM_OK) {
                    empy_fail(st, rc);
                    goto done;
                }
                for (int d = 0; d < ia->ndim; d++) {
                    em_array *row = &p->idx[p->nidx];
                    em_array_retain(&nz, row);
                    row->ndim = 1;
                    row->shape[0] = nz.shape[1];
                    row->strides[0] = 8;
                    row->data = nz.data + (int64_t)d * nz.shape[1] * 8;
                    em_array_update_flags(row);
                    vaxis[p->nidx] = outpos;
                    srcaxis[p->nidx] = ax;
                    p->nidx++;
                    is_adv_axis[outpos] = 1;
                    PyTuple_SET_ITEM(basic, nbasic++,
                                     PySlice_New(NULL, NULL, NULL));
                    outpos++;
                    ax++;
                }
                em_array_release(&nz);
                continue;
            }
            em_array_retain(ia, &p->idx[p->nidx]);
            p->user_ints = 1;
            vaxis[p->nidx] = outpos;
            srcaxis[p->nidx] = ax;
            p->nidx++;
            is_adv_axis[outpos] = 1;
            PyTuple_SET_ITEM(basic, nbasic++, PySlice_New(NULL, NULL, NULL));
            outpos++;
            ax++;
            continue;
        }
        Py_INCREF(it);
        PyTuple_SET_ITEM(basic, nbasic++, it);
        switch (kinds[i]) {
        case K_INT:
            /* With arrays present an integer is an advanced index too
             * (it decides where the broadcast axes go). */
            if (first_adv < 0)
                first_adv = (int)i, insert_at = outpos;
            last_adv = (int)i;
            nadv++;
            ax++;
            break;
        case K_SLICE:
            outpos++;
            ax++;
            break;
        case K_NONE:
            outpos++;
            break;
        default: {
            int e = a->ndim - consumed;
            outpos += e;
            ax += e;
        }
        }
    }
    if (_PyTuple_Resize(&basic, nbasic) < 0)
        goto done;
    if (index_view(st, a, basic, &p->view) < 0)
        goto done;
    /* the view's axes past the key's are plain too */
    /* Broadcast the index arrays. */
    for (int k = 0; k < p->nidx; k++) {
        rc = em_shape_broadcast(nb, bshape, p->idx[k].ndim, p->idx[k].shape,
                                &nb, bshape);
        if (rc != EM_OK) {
            char buf[1024] = "";
            for (int j = 0; j < p->nidx; j++)
                shapes_str(buf, sizeof buf, p->idx[j].ndim, p->idx[j].shape);
            PyErr_Format(PyExc_IndexError, "shape mismatch: indexing arrays "
                         "could not be broadcast together with shapes %s",
                         buf);
            goto done;
        }
    }
    /* Adjacent advanced items keep their place; separated ones go first. */
    if (last_adv - first_adv + 1 != nadv)
        insert_at = 0;
    for (int v = 0; v < p->view.ndim; v++)
        nplain += !is_adv_axis[v];
    if (nplain + nb > EM_MAX_NDIM) {
        PyErr_Format(PyExc_IndexError, "indexing would give %d dimensions; "
                     "ember's limit is %d", nplain + nb, EM_MAX_NDIM);
        goto done;
    }
    {
        em_index_geom *g = &p->g;
        int r = 0, plain_seen = 0;
        memset(g, 0, sizeof *g);
        for (int v = 0; v <= p->view.ndim; v++) {
            if (plain_seen == insert_at && bpos == 0) {
                for (int j = 0; j < nb; j++, r++) {
                    g->shape[r] = bshape[j];
                    for (int k = 0; k < p->nidx; k++) {
                        int off = nb - p->idx[k].ndim, jj = j - off;
                        g->idx_strides[k][r] =
                            jj < 0 || p->idx[k].shape[jj] == 1
                                ? 0
                                : p->idx[k].strides[jj];
                    }
                }
                bpos = 1;
            }
            if (v == p->view.ndim)
                break;
            if (is_adv_axis[v])
                continue;
            g->shape[r] = p->view.shape[v];
            g->src_strides[r] = p->view.strides[v];
            r++;
            plain_seen++;
        }
        g->ndim = r;
        g->nidx = p->nidx;
        for (int k = 0; k < p->nidx; k++) {
            g->idx[k] = &p->idx[k];
            g->extent[k] = p->view.shape[vaxis[k]];
            g->stride[k] = p->view.strides[vaxis[k]];
            g->axis[k] = srcaxis[k];
        }
    }
    ret = 0;
done:
    for (i = 0; i < n; i++)
        Py_XDECREF(arrs[i]);
    Py_XDECREF(basic);
    if (ret < 0)
        adv_plan_free(p);
    return ret;
}

/* The flat C-order positions of mask's True elements, 1-d int64 (8 bytes
 * a True, where coordinates take 8 * ndim). */
static em_status mask_positions(const em_array *mask, em_array *pos)
{
    em_array flat, nz;
    int64_t all = -1;
    em_status rc;
    memset(&flat, 0, sizeof flat);
    memset(&nz, 0, sizeof nz);
    rc = em_array_reshape_view(mask, 1, &all, 'C', &flat);
    if (rc == EM_ERR_NOT_SUPPORTED) {
        em_array c;
        rc = em_array_empty(mask->device, EM_BOOL, mask->ndim, mask->shape, 'C',
                            NULL, &c);
        if (rc == EM_OK) {
            EMPY_NOGIL(rc, em_array_copy(&c, mask, NULL));
            if (rc == EM_OK)
                rc = em_array_reshape_view(&c, 1, &all, 'C', &flat);
            em_array_release(&c);
        }
    }
    if (rc == EM_OK)
        EMPY_NOGIL(rc, em_nonzero(&flat, &nz, NULL));
    em_array_release(&flat);
    if (rc != EM_OK)
        return rc;
    *pos = nz;                         /* its one row, shape (count,) */
    pos->ndim = 1;
    pos->shape[0] = nz.shape[1];
    pos->strides[0] = 8;
    em_array_update_flags(pos);
    return EM_OK;
}

static int is_full_slice(PyObject *o)
{
    return PySlice_Check(o) && ((PySliceObject *)o)->start == Py_None &&
           ((PySliceObject *)o)->stop == Py_None && ((PySliceObject *)o)->step == Py_None;
}

/* A NumPy-style boolean key (not an ember array) as an ember array on
 * dev; NULL without an exception when it is not one (an integer index
 * array is left to the general path, which converts it once). */
static PyObject *bool_key(empy_state *st, PyObject *key, em_device *dev)
{
    PyObject *dt, *conv;
    int is_bool;
    if (!PyObject_HasAttr(key, st->s_array_interface))
        return NULL;
    dt = PyObject_GetAttrString(key, "dtype");
    is_bool = dt && PyObject_HasAttrString(dt, "kind");
    if (is_bool) {
        PyObject *kind = PyObject_GetAttrString(dt, "kind");
        is_bool = kind && PyUnicode_Check(kind) &&
                  PyUnicode_CompareWithASCIIString(kind, "b") == 0;
        Py_XDECREF(kind);
    }
    Py_XDECREF(dt);
    PyErr_Clear();
    if (!is_bool)
        return NULL;
    if (!(conv = index_array(st, key, dev)))
        PyErr_Clear();
    return conv;
}

/* a[mask], a[:, mask], a[..., mask, :]: one boolean array over axes
 * k..k+m-1 of a, every other item a full slice or one Ellipsis. k == 0:
 * one compaction of whole trailing rows (em_select). k > 0: the flat
 * positions of the mask's True elements (em_nonzero) and one take along
 * the mask's axes seen as one; neither builds coordinates. NULL without
 * an exception when the key is not of that form (the general path then
 * handles it, errors included). */
static PyObject *mask_get(empy_state *st, PyObject *self, PyObject *key)
{
    const em_array *a = EMPY_ARR(self), *m;
    PyObject *items[EM_MAX_NDIM + 2], *mkey = NULL, *conv = NULL, *r = NULL;
    Py_ssize_t n, i;
    int at = -1, ell = -1, before = 0, after = 0, k, md;
    int64_t shape[EM_MAX_NDIM], merged = 1;
    em_array out, view, pos;
    em_status rc;
    if (PyTuple_Check(key)) {
        n = PyTuple_GET_SIZE(key);
        if (n < 1 || n > EM_MAX_NDIM + 1)
            return NULL;
        for (i = 0; i < n; i++)
            items[i] = PyTuple_GET_ITEM(key, i);
    } else {
        n = 1;
        items[0] = key;
    }
    for (i = 0; i < n; i++) {
        if (items[i] == Py_Ellipsis && ell < 0) {
            ell = (int)i;
        } else if (is_full_slice(items[i])) {
            if (at < 0)
                before++;
            else
                after++;
        } else if (at < 0 && (empy_is_ndarray(items[i]) ||
                              PyObject_HasAttr(items[i], st->s_array_interface))) {
            at = (int)i;
        } else {
            return NULL;
        }
    }
    if (at < 0)
        return NULL;
    mkey = items[at];
    if (!empy_is_ndarray(mkey)) {
        if (!(conv = bool_key(st, mkey, a->device)))
            return NULL;
        mkey = conv;
    }
    m = EMPY_ARR(mkey);
    md = m->ndim;
    k = ell >= 0 && ell < at ? a->ndim - md - after : before;
    if (m->dtype != EM_BOOL || md < 1 || k < 0 || k + md + after > a->ndim ||
        m->device != a->device ||
        memcmp(m->shape, a->shape + k, (size_t)md * sizeof *m->shape)) {
        Py_XDECREF(conv);
        return NULL;
    }
    memset(&out, 0, sizeof out);
    if (k == 0) {
        EMPY_NOGIL(rc, em_select(a, NULL, m, &out, NULL));
        Py_XDECREF(conv);
        if (rc != EM_OK)
            return empy_fail(st, rc), NULL;
        return empy_ndarray_new(st, &out, NULL);
    }
    /* The mask's axes as one: a view where they are laid out as C order
     * lays them (a C-contiguous a always); otherwise the general path. */
    memset(&view, 0, sizeof view);
    memset(&pos, 0, sizeof pos);
    for (i = 0; i < md; i++)
        merged *= a->shape[k + i];
    for (i = 0; i < k; i++)
        shape[i] = a->shape[i];
    shape[k] = merged;
    for (i = k + md; i < a->ndim; i++)
        shape[i - md + 1] = a->shape[i];
    rc = em_array_reshape_view(a, a->ndim - md + 1, shape, 'C', &view);
    if (rc == EM_ERR_NOT_SUPPORTED) {
        Py_XDECREF(conv);
        return NULL;
    }
    if (rc == EM_OK)
        rc = mask_positions(m, &pos);
    if (rc == EM_OK)
        EMPY_NOGIL(rc, em_take(&view, &pos, k, EM_INDEX_CLIP, &out, NULL));
    em_array_release(&view);
    em_array_release(&pos);
    Py_XDECREF(conv);
    if (rc != EM_OK)
        return empy_fail(st, rc), NULL;
    r = empy_ndarray_new(st, &out, NULL);
    return r;
}

static PyObject *adv_get(empy_state *st, PyObject *self, PyObject *key)
{
    adv_plan p;
    em_array out;
    em_status rc;
    PyObject *r = mask_get(st, self, key);
    if (r || PyErr_Occurred())
        return r;
    if (adv_resolve(st, EMPY_ARR(self), key, &p, 0) < 0)
        return NULL;
    memset(&out, 0, sizeof out);
    EMPY_NOGIL(rc, em_index_gather(&p.view, &p.g,
                                   p.user_ints ? EM_INDEX_RAISE
                                               : EM_INDEX_CLIP,
                                   &out, NULL));
    adv_plan_free(&p);
    if (rc != EM_OK)
        return empy_fail(st, rc), NULL;
    return empy_ndarray_new(st, &out, NULL);
}

static int assign(empy_state *st, em_array *dst, PyObject *value);

/* a[mask] = values for a mask of a's whole shape and an array of values:
 * the flat positions of the mask's True elements (8 bytes each, where the
 * coordinates would take 8 * ndim), and one put. */
static int mask_assign(empy_state *st, em_array *a, const em_array *mask,
                       PyObject *value)
{
    em_array pos, vals;
    em_status rc;
    int ret = -1;
    memset(&pos, 0, sizeof pos);
    memset(&vals, 0, sizeof vals);
    rc = mask_positions(mask, &pos);
    if (rc != EM_OK)
        goto fail;
    rc = em_array_empty(a->device, a->dtype, 1, pos.shape, 'C', NULL, &vals);
    if (rc != EM_OK)
        goto fail;
    if (assign(st, &vals, value) < 0)
        goto done;
    EMPY_NOGIL(rc, em_put(a, &pos, &vals, EM_INDEX_CLIP, NULL));
    if (rc != EM_OK)
        goto fail;
    ret = 0;
    goto done;
fail:
    empy_fail(st, rc);
done:
    em_array_release(&pos);
    em_array_release(&vals);
    return ret;
}

static int adv_set(empy_state *st, PyObject *self, PyObject *key,
                   PyObject *value)
{
    adv_plan p;
    em_array vals;
    em_status rc;
    em_operand op;
    int k, ret = -1;
    if (adv_resolve(st, EMPY_ARR(self), key, &p, 1) < 0)
        return -1;
    /* A whole-shape mask with one value: a masked fill, no compaction. */
    if (p.whole_mask && !empy_is_ndarray(value) &&
        (k = empy_scalar_operand(value, &op)) != 0) {
        if (k < 0 || empy_check_weak_fits(&op, p.view.dtype) < 0)
            goto done;
        EMPY_NOGIL(rc, em_ufunc_apply(EM_OP_COPY, &op, 1, &p.view, &p.mask,
                                      NULL));
        ret = rc == EM_OK ? 0 : empy_fail(st, rc);
        goto done;
    }
    if (PyErr_Occurred())
        goto done;
    /* ... and with one element of an array on the same device. */
    if (p.whole_mask && empy_is_ndarray(value) &&
        EMPY_ARR(value)->size == 1 &&
        EMPY_ARR(value)->ndim <= p.view.ndim &&
        EMPY_ARR(value)->device == p.view.device) {
        memset(&op, 0, sizeof op);
        op.array = EMPY_ARR(value);
        op.dtype = op.array->dtype;
        EMPY_NOGIL(rc, em_ufunc_apply(EM_OP_COPY, &op, 1, &p.view, &p.mask,
                                      NULL));
        ret = rc == EM_OK ? 0 : empy_fail(st, rc);
        goto done;
    }
    if (p.whole_mask) {
        ret = mask_assign(st, &p.view, &p.mask, value);
        goto done;
    }
    rc = em_array_empty(p.view.device, p.view.dtype, p.g.ndim, p.g.shape, 'C',
                        NULL, &vals);
    if (rc != EM_OK) {
        empy_fail(st, rc);
        goto done;
    }
    if (assign(st, &vals, value) == 0) {
        EMPY_NOGIL(rc, em_index_scatter(&p.view, &p.g,
                                        p.user_ints ? EM_INDEX_RAISE
                                                    : EM_INDEX_CLIP,
                                        &vals, NULL));
        ret = rc == EM_OK ? 0 : empy_fail(st, rc);
    }
    em_array_release(&vals);
done:
    adv_plan_free(&p);
    return ret;
}

PyObject *empy_ndarray_subscript(PyObject *self, PyObject *key)
{
    empy_state *st = empy_state_of(self);
    em_array v;
    int adv = key_is_advanced(key);
    if (adv < 0)
        return NULL;
    if (adv)
        return adv_get(st, self, key);
    if (index_view(st, EMPY_ARR(self), key, &v) < 0)
        return NULL;
    return empy_ndarray_new(st, &v, self);
}

PyObject *empy_ndarray_item(PyObject *self, Py_ssize_t i)
{
    PyObject *key = PyLong_FromSsize_t(i), *r;
    if (!key)
        return NULL;
    r = empy_ndarray_subscript(self, key);
    Py_DECREF(key);
    return r;
}

/* dst[...] = value, with dst a view of the array being assigned. */
static int assign(empy_state *st, em_array *dst, PyObject *value)
{
    em_operand op;
    em_status rc;
    int k;
    if (empy_is_ndarray(value)) {
        const em_array *src = EMPY_ARR(value);
        if (src->device != dst->device) {
            PyErr_Format(PyExc_ValueError, "cannot assign an array on %s to an "
                         "array on %s; move it first with to_device()",
                         em_device_name(src->device), em_device_name(dst->device));
            return -1;
        }
        EMPY_NOGIL(rc, em_array_copy(dst, src, NULL));
        return rc == EM_OK ? 0 : empy_fail(st, rc);
    }
    k = empy_scalar_operand(value, &op);
    if (k < 0)
        return -1;
    if (k > 0) {
        if (empy_check_weak_fits(&op, dst->dtype) < 0)
            return -1;
        EMPY_NOGIL(rc, em_array_fill(dst, op.value.bytes, op.dtype, NULL));
        return rc == EM_OK ? 0 : empy_fail(st, rc);
    } else {
        /* Host data: lists take dst's dtype directly (so out-of-range
         * Python ints raise as in NumPy), arrays keep theirs and cast in
         * the copy. */
        int seq = PyList_Check(value) || PyTuple_Check(value);
        PyObject *arr = empy_asarray(st, value, seq ? (int)dst->dtype : -1,
                                     dst->device, EMPY_COPY_IF_NEEDED, 'K');
        if (!arr)
            return -1;
        EMPY_NOGIL(rc, em_array_copy(dst, EMPY_ARR(arr), NULL));
        Py_DECREF(arr);
        return rc == EM_OK ? 0 : empy_fail(st, rc);
    }
}

int empy_ndarray_ass_subscript(PyObject *self, PyObject *key, PyObject *value)
{
    empy_state *st = empy_state_of(self);
    em_array v;
    int rc;
    if (!value) {
        PyErr_SetString(PyExc_ValueError, "cannot delete array elements");
        return -1;
    }
    if (!(NDA(self)->a.flags & EM_ARRAY_WRITEABLE)) {
        PyErr_SetString(PyExc_ValueError, "assignment destination is read-only");
        return -1;
    }
    rc = key_is_advanced(key);
    if (rc < 0)
        return -1;
    if (rc)
        return adv_set(st, self, key, value);
    if (index_view(st, EMPY_ARR(self), key, &v) < 0)
        return -1;
    rc = assign(st, &v, value);
    em_array_release(&v);
    return rc;
}
