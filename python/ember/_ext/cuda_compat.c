/* ember Python extension: Numba-CUDA's data movement spellings
 * (cuda.to_device, device_array, device_array_like, pinned_array,
 * stream, default_stream, event, event_elapsed_time, synchronize,
 * current_context, get_current_device) and the ndarray methods
 * copy_to_host / copy_to_device. They return ember arrays, Streams and
 * Events on the current device (so without a GPU they work on 'cpu').
 *
 * The functions live in a private namespace, ember._ember._cuda_compat,
 * which ember.cuda re-exports under Numba's names: at the top level
 * `ember.stream` or `ember.event` would read as something else. */
#include <string.h>

#include "ckernel.h"
#include "errors.h"

/* Numba's stream=0 (and None): the current stream; else an ember.Stream. */
static int stream_arg(empy_state *st, PyObject *o, em_stream **s)
{
    *s = NULL;
    if (!o || o == Py_None || (PyLong_CheckExact(o) && PyLong_AsLong(o) == 0))
        return PyErr_Occurred() ? -1 : 0;
    return (*s = empy_stream_resolve(st, o)) ? 0 : -1;
}

static em_device *current(empy_state *st)
{
    em_device *d;
    return empy_device_arg(st, NULL, &d) < 0 ? NULL : d;
}

/* Host buffer of a NumPy-like object, writable if asked, with its dtype. */
static int host_view(PyObject *o, int writable, Py_buffer *v, em_dtype *dt)
{
    int flags = PyBUF_RECORDS_RO | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(o, v, flags) < 0)
        return -1;
    if (empy_format_dtype(v->format ? v->format : "B", v->itemsize, dt) < 0) {
        PyBuffer_Release(v);
        return -1;
    }
    return 0;
}

/* Copy host object o into a (same shape and dtype). */
static int fill_from_host(empy_state *st, em_array *a, PyObject *o,
                          em_stream *s, const char *what)
{
    Py_buffer v;
    em_dtype dt;
    int64_t strides[EM_MAX_NDIM];
    em_status rc;
    if (host_view(o, 0, &v, &dt) < 0)
        return -1;
    if (dt != a->dtype || v.ndim != a->ndim) {
        PyErr_Format(PyExc_TypeError,
                     "%s: the host array is %s of %d dimensions, the device "
                     "array %s of %d",
                     what, em_dtype_get(dt)->name, v.ndim,
                     em_dtype_get(a->dtype)->name, a->ndim);
        PyBuffer_Release(&v);
        return -1;
    }
    for (int i = 0; i < v.ndim; i++) {
        if (v.shape[i] != a->shape[i]) {
            PyErr_Format(PyExc_ValueError,
                         "%s: shapes differ (axis %d: %zd on the host, %lld "
                         "on the device)",
                         what, i, v.shape[i], (long long)a->shape[i]);
            PyBuffer_Release(&v);
            return -1;
        }
        strides[i] = v.strides ? v.strides[i] : 0;
    }
    if (!v.strides && v.ndim > 0)
        em_strides_contiguous(v.ndim, a->shape, (size_t)v.itemsize, 'C',
                              strides);
    EMPY_NOGIL(rc, em_array_from_host(a, v.buf, v.ndim ? strides : NULL, s));
    PyBuffer_Release(&v);
    return rc == EM_OK ? 0 : empy_fail(st, rc);
}

static const char *const to_device_kw[] = {"obj", "stream", "copy", "to",
                                           NULL};

static PyObject *cc_to_device(PyObject *m, PyObject *const *args,
                              Py_ssize_t nargs, PyObject *kwnames)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *v[4], *r;
    em_stream *s;
    int copy = 1;
    if (empy_parse_args("to_device", args, nargs, kwnames, to_device_kw, 4, 1,
                        v) < 0)
        return NULL;
    if (stream_arg(st, v[1], &s) < 0)
        return NULL;
    if (v[2] && (copy = PyObject_IsTrue(v[2])) < 0)
        return NULL;
    if (v[3] && v[3] != Py_None) {
        if (!empy_is_ndarray(v[3])) {
            PyErr_Format(PyExc_TypeError,
                         "to_device(to=): an ember ndarray is needed, not "
                         "'%.100s'",
                         Py_TYPE(v[3])->tp_name);
            return NULL;
        }
        if (copy && fill_from_host(st, EMPY_ARR(v[3]), v[0], s,
                                   "to_device") < 0)
            return NULL;
        return Py_NewRef(v[3]);
    }
    if (empy_is_ndarray(v[0]))   /* already on a device: as Numba, as is */
        return Py_NewRef(v[0]);
    if (!(r = empy_asarray(st, v[0], -1, current(st), EMPY_COPY_ALWAYS, 'K')))
        return NULL;
    (void)copy;   /* copy=False still gets the values: cheaper than a bug */
    return r;
}

/* shape, dtype and order of an allocation; strides only when contiguous. */
static int alloc_args(empy_state *st, const char *fn, PyObject *shape_o,
                      PyObject *dtype_o, PyObject *strides_o,
                      PyObject *order_o, int *nd, int64_t *shape,
                      em_dtype *dt, char *order)
{
    const char *os = "C";
    *dt = EM_FLOAT64;
    if (empy_shape_arg(shape_o, "shape", nd, shape) < 0)
        return -1;
    if (dtype_o && dtype_o != Py_None && empy_dtype_arg(st, dtype_o, dt) < 0)
        return -1;
    if (order_o && order_o != Py_None &&
        (!PyUnicode_Check(order_o) || !(os = PyUnicode_AsUTF8(order_o)) ||
         (strcmp(os, "C") && strcmp(os, "F")))) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_ValueError, "%s: order must be 'C' or 'F'", fn);
        return -1;
    }
    *order = os[0];
    if (strides_o && strides_o != Py_None) {
        int64_t want[EM_MAX_NDIM];
        PyObject *t = PySequence_Tuple(strides_o);
        int ok = t && PyTuple_GET_SIZE(t) == *nd;
        for (int pass = 0; ok && pass < 2; pass++) {
            char o = pass ? 'F' : 'C';
            int same = 1;
            em_strides_contiguous(*nd, shape, em_dtype_size(*dt), o, want);
            for (int i = 0; i < *nd && same; i++) {
                same = PyLong_AsLongLong(PyTuple_GET_ITEM(t, i)) == want[i];
                if (PyErr_Occurred())   /* not an int: no second pass */
                    ok = same = 0;
            }
            if (same) {
                *order = o;
                Py_XDECREF(t);
                return 0;
            }
        }
        Py_XDECREF(t);
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_NotImplementedError,
                         "%s: only C- or Fortran-contiguous strides are "
                         "supported",
                         fn);
        return -1;
    }
    return 0;
}

static const char *const device_array_kw[] = {"shape", "dtype", "strides",
                                              "order", "stream", NULL};

static PyObject *cc_device_array(PyObject *m, PyObject *const *args,
                                 Py_ssize_t nargs, PyObject *kwnames)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *v[5];
    int nd;
    int64_t shape[EM_MAX_NDIM];
    em_dtype dt;
    char order;
    em_stream *s;
    em_device *d;
    em_array a;
    em_status rc;
    if (empy_parse_args("device_array", args, nargs, kwnames, device_array_kw,
                        5, 1, v) < 0)
        return NULL;
    if (alloc_args(st, "device_array", v[0], v[1], v[2], v[3], &nd, shape,
                   &dt, &order) < 0 ||
        stream_arg(st, v[4], &s) < 0 || !(d = current(st)))
        return NULL;
    if ((rc = em_array_empty(d, dt, nd, shape, order, s, &a)) != EM_OK)
        return empy_raise(st, rc);
    return empy_ndarray_new(st, &a, NULL);
}

static const char *const like_kw[] = {"ary", "stream", NULL};

static PyObject *cc_device_array_like(PyObject *m, PyObject *const *args,
                                      Py_ssize_t nargs, PyObject *kwnames)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *v[2], *shape = NULL, *dtype = NULL, *r = NULL;
    int nd, fortran = 0;
    int64_t sh[EM_MAX_NDIM];
    em_dtype dt;
    em_stream *s;
    em_device *d;
    em_array a;
    em_status rc;
    if (empy_parse_args("device_array_like", args, nargs, kwnames, like_kw, 2,
                        1, v) < 0)
        return NULL;
    if (stream_arg(st, v[1], &s) < 0 || !(d = current(st)))
        return NULL;
    if (empy_is_ndarray(v[0])) {
        const em_array *src = EMPY_ARR(v[0]);
        nd = src->ndim;
        memcpy(sh, src->shape, sizeof(int64_t) * (size_t)nd);
        dt = src->dtype;
        fortran = !(src->flags & EM_ARRAY_C_CONTIGUOUS) &&
                  (src->flags & EM_ARRAY_F_CONTIGUOUS);
    } else {
        PyObject *flags = NULL, *f = NULL;
        if (!(shape = PyObject_GetAttrString(v[0], "shape")) ||
            !(dtype = PyObject_GetAttrString(v[0], "dtype")) ||
            empy_shape_arg(shape, "shape", &nd, sh) < 0 ||
            empy_dtype_arg(st, dtype, &dt) < 0)
            goto done;
        if ((flags = PyObject_GetAttrString(v[0], "flags")) &&
            (f = PyObject_GetAttrString(flags, "f_contiguous")))
            fortran = PyObject_IsTrue(f) == 1;
        Py_XDECREF(flags);
        Py_XDECREF(f);
        PyErr_Clear();
        if (nd > 1 && fortran && (f = PyObject_GetAttrString(
                                      v[0], "flags")) != NULL) {
            PyObject *c = PyObject_GetAttrString(f, "c_contiguous");
            fortran = !(c && PyObject_IsTrue(c) == 1);
            Py_XDECREF(c);
            Py_DECREF(f);
            PyErr_Clear();
        }
    }
    if ((rc = em_array_empty(d, dt, nd, sh, fortran ? 'F' : 'C', s, &a)) !=
        EM_OK) {
        empy_raise(st, rc);
        goto done;
    }
    r = empy_ndarray_new(st, &a, NULL);
done:
    Py_XDECREF(shape);
    Py_XDECREF(dtype);
    return r;
}

static const char *const pinned_kw[] = {"shape", "dtype", "strides", "order",
                                        NULL};

/* A NumPy array over ember's page-locked memory (the PinnedMemory object
 * is the array's base, so the memory lives as long as the array). */
static PyObject *cc_pinned_array(PyObject *m, PyObject *const *args,
                                 Py_ssize_t nargs, PyObject *kwnames)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *v[4], *np = NULL, *pm = NULL, *r = NULL, *shape_t = NULL;
    PyObject *kw = NULL, *nbytes_o = NULL, *ndarray = NULL, *empty = NULL;
    int nd;
    int64_t shape[EM_MAX_NDIM];
    int64_t n = 1;
    em_dtype dt;
    char order;
    if (empy_parse_args("pinned_array", args, nargs, kwnames, pinned_kw, 4, 1,
                        v) < 0)
        return NULL;
    if (alloc_args(st, "pinned_array", v[0], v[1], v[2], v[3], &nd, shape, &dt,
                   &order) < 0)
        return NULL;
    for (int i = 0; i < nd; i++)
        n *= shape[i];
    if (!(np = empy_numpy("ember.cuda.pinned_array")))
        return NULL;
    if (!(nbytes_o = PyLong_FromLongLong(
              n * (int64_t)em_dtype_size(dt) > 0 ? n * (int64_t)em_dtype_size(dt)
                                                 : 1)) ||
        !(pm = PyObject_CallMethod(m, "alloc_pinned_memory", "O", nbytes_o)) ||
        !(shape_t = PyTuple_New(nd)))
        goto done;
    for (int i = 0; i < nd; i++) {
        PyObject *e = PyLong_FromLongLong(shape[i]);
        if (!e)
            goto done;
        PyTuple_SET_ITEM(shape_t, i, e);
    }
    if (!(ndarray = PyObject_GetAttrString(np, "ndarray")) ||
        !(kw = Py_BuildValue("{s:O,s:s,s:O,s:s#}", "shape", shape_t, "dtype",
                             em_dtype_get(dt)->name, "buffer", pm, "order",
                             &order, (Py_ssize_t)1)) ||
        !(empty = PyTuple_New(0)))
        goto done;
    r = PyObject_Call(ndarray, empty, kw);
done:
    Py_XDECREF(np);
    Py_XDECREF(pm);
    Py_XDECREF(shape_t);
    Py_XDECREF(kw);
    Py_XDECREF(nbytes_o);
    Py_XDECREF(ndarray);
    Py_XDECREF(empty);
    return r;
}

static const char *const mapped_kw[] = {"shape", "dtype", "strides", "order",
                                        "stream", "portable", "wc", NULL};

/* Numba's mapped_array: here a pinned_array. Kernels given it copy it in
 * and out around the launch (as for any NumPy array) instead of reading
 * host memory in place, so results are the same, only not zero-copy. */
static PyObject *cc_mapped_array(PyObject *m, PyObject *const *args,
                                 Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *v[7], *pass[4];
    int n = 0;
    if (empy_parse_args("mapped_array", args, nargs, kwnames, mapped_kw, 7, 1,
                        v) < 0)
        return NULL;
    for (int i = 0; i < 4; i++)
        if ((pass[i] = v[i] ? v[i] : Py_None) != Py_None)
            n = i + 1;
    return cc_pinned_array(m, pass, n, NULL);
}

static PyObject *cc_stream(PyObject *m, PyObject *unused)
{
    empy_state *st = empy_state_of_module(m);
    return PyObject_CallNoArgs((PyObject *)st->Stream);
}

static PyObject *cc_default_stream(PyObject *m, PyObject *unused)
{
    empy_state *st = empy_state_of_module(m);
    return PyObject_GetAttrString((PyObject *)st->Stream, "null");
}

static const char *const event_kw[] = {"timing", NULL};

static PyObject *cc_event(PyObject *m, PyObject *const *args,
                          Py_ssize_t nargs, PyObject *kwnames)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *v[1], *kw, *empty, *r;
    int timing = 1;
    if (empy_parse_args("event", args, nargs, kwnames, event_kw, 1, 0, v) < 0)
        return NULL;
    if (v[0] && (timing = PyObject_IsTrue(v[0])) < 0)
        return NULL;
    if (!(kw = Py_BuildValue("{s:O}", "disable_timing",
                             timing ? Py_False : Py_True)))
        return NULL;
    if (!(empty = PyTuple_New(0))) {
        Py_DECREF(kw);
        return NULL;
    }
    r = PyObject_Call((PyObject *)st->Event, empty, kw);
    Py_DECREF(kw);
    Py_DECREF(empty);
    return r;
}

static PyObject *cc_event_elapsed_time(PyObject *m, PyObject *const *args,
                                       Py_ssize_t nargs)
{
    empy_state *st = empy_state_of_module(m);
    float ms = 0;
    em_status rc;
    if (nargs != 2 || !Py_IS_TYPE(args[0], st->Event) ||
        !Py_IS_TYPE(args[1], st->Event)) {
        PyErr_SetString(PyExc_TypeError,
                        "event_elapsed_time(evtstart, evtend) takes two "
                        "ember Events");
        return NULL;
    }
    EMPY_NOGIL(rc, em_event_elapsed_ms(((empy_Event *)args[0])->e,
                                       ((empy_Event *)args[1])->e, &ms));
    if (rc != EM_OK)
        return empy_raise(st, rc);
    return PyFloat_FromDouble(ms);
}

static PyObject *cc_synchronize(PyObject *m, PyObject *unused)
{
    empy_state *st = empy_state_of_module(m);
    em_device *d = current(st);
    em_status rc;
    if (!d)
        return NULL;
    EMPY_NOGIL(rc, em_device_synchronize(d));
    if (rc != EM_OK)
        return empy_raise(st, rc);
    Py_RETURN_NONE;
}

static PyObject *cc_current_device(PyObject *m, PyObject *unused)
{
    empy_state *st = empy_state_of_module(m);
    em_device *d = current(st);
    return d ? empy_device_new(st, d) : NULL;
}

static PyMethodDef cc_functions[] = {
    {"to_device", (PyCFunction)(void (*)(void))cc_to_device,
     METH_FASTCALL | METH_KEYWORDS,
     "to_device(obj, stream=0, copy=True, to=None): a copy of a host array "
     "on the current device (an ember ndarray); into `to` when given."},
    {"device_array", (PyCFunction)(void (*)(void))cc_device_array,
     METH_FASTCALL | METH_KEYWORDS,
     "device_array(shape, dtype=float64, strides=None, order='C', "
     "stream=0): an uninitialised ember ndarray on the current device."},
    {"device_array_like", (PyCFunction)(void (*)(void))cc_device_array_like,
     METH_FASTCALL | METH_KEYWORDS,
     "device_array_like(ary, stream=0): device_array of ary's shape, dtype "
     "and order."},
    {"pinned_array", (PyCFunction)(void (*)(void))cc_pinned_array,
     METH_FASTCALL | METH_KEYWORDS,
     "pinned_array(shape, dtype=float64, strides=None, order='C'): a NumPy "
     "array over page-locked host memory."},
    {"mapped_array", (PyCFunction)(void (*)(void))cc_mapped_array,
     METH_FASTCALL | METH_KEYWORDS,
     "mapped_array(shape, dtype=float64, strides=None, order='C', stream=0, "
     "portable=False, wc=False): as pinned_array (kernels copy it in and "
     "out rather than mapping it)."},
    {"stream", cc_stream, METH_NOARGS,
     "stream(): a new ember.Stream on the current device."},
    {"default_stream", cc_default_stream, METH_NOARGS,
     "default_stream(): the default stream (ember.Stream.null)."},
    {"event", (PyCFunction)(void (*)(void))cc_event,
     METH_FASTCALL | METH_KEYWORDS,
     "event(timing=True): a new ember.Event on the current device."},
    {"event_elapsed_time", (PyCFunction)(void (*)(void))cc_event_elapsed_time,
     METH_FASTCALL,
     "event_elapsed_time(evtstart, evtend): milliseconds between two "
     "recorded events."},
    {"synchronize", cc_synchronize, METH_NOARGS,
     "synchronize(): wait for all work on the current device."},
    {"get_current_device", cc_current_device, METH_NOARGS,
     "get_current_device(): the current ember.Device."},
    {"current_context", cc_current_device, METH_NOARGS,
     "current_context(): the current ember.Device (synchronize(), "
     "mem_info()), standing in for Numba's context."},
    {NULL, NULL, 0, NULL},
};

/* ---- ndarray methods -------------------------------------------------- */

static const char *const copy_to_host_kw[] = {"ary", "stream", NULL};

static PyObject *nd_copy_to_host(PyObject *self, PyObject *const *args,
                                 Py_ssize_t nargs, PyObject *kwnames)
{
    empy_state *st = empy_state_of(self);
    const em_array *a = EMPY_ARR(self);
    PyObject *v[2];
    Py_buffer buf;
    em_dtype dt;
    em_stream *s;
    int64_t strides[EM_MAX_NDIM];
    em_status rc;
    if (empy_parse_args("copy_to_host", args, nargs, kwnames, copy_to_host_kw,
                        2, 0, v) < 0)
        return NULL;
    if (stream_arg(st, v[1], &s) < 0)
        return NULL;
    if (!v[0] || v[0] == Py_None) {
        if (s) {   /* order the copy after the stream's work */
            EMPY_NOGIL(rc, em_stream_synchronize(s));
            if (rc != EM_OK)
                return empy_raise(st, rc);
        }
        return empy_ndarray_to_numpy(st, self, 0);
    }
    if (host_view(v[0], 1, &buf, &dt) < 0)
        return NULL;
    if (dt != a->dtype || buf.ndim != a->ndim) {
        PyErr_Format(PyExc_TypeError,
                     "copy_to_host: the host array is %s of %d dimensions, "
                     "the device array %s of %d",
                     em_dtype_get(dt)->name, buf.ndim,
                     em_dtype_get(a->dtype)->name, a->ndim);
        PyBuffer_Release(&buf);
        return NULL;
    }
    for (int i = 0; i < buf.ndim; i++) {
        if (buf.shape[i] != a->shape[i]) {
            PyErr_Format(PyExc_ValueError,
                         "copy_to_host: shapes differ (axis %d: %zd on the "
                         "host, %lld on the device)",
                         i, buf.shape[i], (long long)a->shape[i]);
            PyBuffer_Release(&buf);
            return NULL;
        }
        strides[i] = buf.strides ? buf.strides[i] : 0;
    }
    if (!buf.strides && buf.ndim > 0)
        em_strides_contiguous(buf.ndim, a->shape, (size_t)buf.itemsize, 'C',
                              strides);
    EMPY_NOGIL(rc, em_array_to_host(a, buf.buf, buf.ndim ? strides : NULL, s));
    PyBuffer_Release(&buf);
    if (rc != EM_OK)
        return empy_raise(st, rc);
    return Py_NewRef(v[0]);
}

static PyObject *nd_copy_to_device(PyObject *self, PyObject *const *args,
                                   Py_ssize_t nargs, PyObject *kwnames)
{
    empy_state *st = empy_state_of(self);
    PyObject *v[2];
    em_stream *s;
    if (empy_parse_args("copy_to_device", args, nargs, kwnames,
                        copy_to_host_kw, 2, 1, v) < 0)
        return NULL;
    if (stream_arg(st, v[1], &s) < 0)
        return NULL;
    if (empy_is_ndarray(v[0])) {
        em_status rc;
        EMPY_NOGIL(rc, em_array_copy(EMPY_ARR(self), EMPY_ARR(v[0]), s));
        if (rc != EM_OK)
            return empy_raise(st, rc);
        Py_RETURN_NONE;
    }
    if (fill_from_host(st, EMPY_ARR(self), v[0], s, "copy_to_device") < 0)
        return NULL;
    Py_RETURN_NONE;
}

PyMethodDef empy_cuda_compat_nd_methods[] = {
    {"copy_to_host", (PyCFunction)(void (*)(void))nd_copy_to_host,
     METH_FASTCALL | METH_KEYWORDS,
     "copy_to_host(ary=None, stream=0): the values as a NumPy array, or "
     "copied into the host array `ary` (same shape and dtype), as Numba's."},
    {"copy_to_device", (PyCFunction)(void (*)(void))nd_copy_to_device,
     METH_FASTCALL | METH_KEYWORDS,
     "copy_to_device(ary, stream=0): fill from a host or ember array of the "
     "same shape and dtype, as Numba's."},
    {NULL, NULL, 0, NULL},
};

int empy_cuda_compat_init(PyObject *m, empy_state *st)
{
    PyObject *ns = PyModule_New("ember._ember._cuda_compat"), *modname;
    int rc = -1;
    (void)st;
    if (!ns)
        return -1;
    if (!(modname = PyUnicode_FromString("ember._ember._cuda_compat")))
        goto done;
    for (PyMethodDef *def = cc_functions; def->ml_name; def++) {
        PyObject *f = PyCFunction_NewEx(def, m, modname);
        if (!f || PyModule_AddObjectRef(ns, def->ml_name, f) < 0) {
            Py_XDECREF(f);
            Py_DECREF(modname);
            goto done;
        }
        Py_DECREF(f);
    }
    Py_DECREF(modname);
    rc = PyModule_AddObjectRef(m, "_cuda_compat", ns);
done:
    Py_DECREF(ns);
    return rc;
}
