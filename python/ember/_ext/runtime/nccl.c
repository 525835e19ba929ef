/* ember Python extension: NCCL (ember/nccl.h) for ember.distributed on
 * cuda (python/ember/distributed/_nccl.py). A communicator travels as an
 * int; buffers as device pointers with NCCL's counts and type numbers,
 * which the Python layer derives from ember arrays and checks. Every call
 * runs with the GIL released: NCCL's calls can wait on the other ranks,
 * which may be threads of this process. */
#include "runtime/module.h"
#include "runtime/errors.h"
#include "ember/nccl.h"

/* Run `expr` with the GIL released; raise on failure. */
#define NCCL_CALL(m, expr)                                              \
    do {                                                                \
        em_status rc_;                                                  \
        EMPY_NOGIL(rc_, expr);                                          \
        if (rc_ != EM_OK)                                               \
            return empy_raise(empy_state_of_module(m), rc_);            \
    } while (0)

static int comm_arg(PyObject *o, em_nccl_comm **c)
{
    if (!PyLong_Check(o)) {
        PyErr_Format(PyExc_TypeError, "an NCCL communicator handle, not %.100s",
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    *c = (em_nccl_comm *)PyLong_AsVoidPtr(o);
    if (!*c && !PyErr_Occurred())
        PyErr_SetString(PyExc_ValueError, "a NULL NCCL communicator");
    return PyErr_Occurred() ? -1 : 0;
}

static PyObject *nc_version(PyObject *m, PyObject *unused)
{
    int v = 0;
    NCCL_CALL(m, em_nccl_version(&v));
    return PyLong_FromLong(v);
}

static PyObject *nc_unique_id(PyObject *m, PyObject *unused)
{
    unsigned char id[EM_NCCL_ID_BYTES];
    NCCL_CALL(m, em_nccl_unique_id(id));
    return PyBytes_FromStringAndSize((const char *)id, EM_NCCL_ID_BYTES);
}

/* _nccl_init_rank(device, nranks, id, rank) -> handle */
static PyObject *nc_init_rank(PyObject *m, PyObject *const *a, Py_ssize_t n)
{
    empy_state *st = empy_state_of_module(m);
    em_nccl_comm *c = NULL;
    em_device *d;
    const char *id;
    Py_ssize_t len;
    long nranks, rank;
    if (n != 4) {
        PyErr_SetString(PyExc_TypeError, "_nccl_init_rank takes 4 arguments");
        return NULL;
    }
    if (empy_device_arg(st, a[0], &d) < 0 ||
        ((nranks = PyLong_AsLong(a[1])) == -1 && PyErr_Occurred()) ||
        PyBytes_AsStringAndSize(a[2], (char **)&id, &len) < 0 ||
        ((rank = PyLong_AsLong(a[3])) == -1 && PyErr_Occurred()))
        return NULL;
    if (len != EM_NCCL_ID_BYTES)
        return PyErr_Format(PyExc_ValueError, "an NCCL unique id is %d bytes, "
                            "got %zd", EM_NCCL_ID_BYTES, len);
    NCCL_CALL(m, em_nccl_init_rank(d, (int)nranks, (const unsigned char *)id,
                                   (int)rank, &c));
    return PyLong_FromVoidPtr(c);
}

/* _nccl_init_all(devices) -> [handle, ...] */
static PyObject *nc_init_all(PyObject *m, PyObject *arg)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *seq = PySequence_Fast(arg, "_nccl_init_all: a list of devices");
    PyObject *out = NULL;
    em_device **devs = NULL;
    em_nccl_comm **cs = NULL;
    Py_ssize_t i, n;
    em_status rc;
    if (!seq)
        return NULL;
    n = PySequence_Fast_GET_SIZE(seq);
    devs = PyMem_Calloc((size_t)n + 1, sizeof *devs);
    cs = PyMem_Calloc((size_t)n + 1, sizeof *cs);
    if (!devs || !cs) {
        PyErr_NoMemory();
        goto done;
    }
    for (i = 0; i < n; i++)
        if (empy_device_arg(st, PySequence_Fast_GET_ITEM(seq, i), &devs[i]) < 0)
            goto done;
    EMPY_NOGIL(rc, em_nccl_init_all(devs, (int)n, cs));
    if (rc != EM_OK) {
        empy_raise(st, rc);
        goto done;
    }
    if (!(out = PyList_New(n)))
        goto done;
    for (i = 0; i < n; i++) {
        PyObject *h = PyLong_FromVoidPtr(cs[i]);
        if (!h) {
            Py_CLEAR(out);
            goto done;
        }
        PyList_SET_ITEM(out, i, h);
    }
done:
    Py_DECREF(seq);
    PyMem_Free(devs);
    PyMem_Free(cs);
    return out;
}

/* _nccl_destroy(handle, abort) */
static PyObject *nc_destroy(PyObject *m, PyObject *const *a, Py_ssize_t n)
{
    em_nccl_comm *c;
    int abort;
    if (n != 2) {
        PyErr_SetString(PyExc_TypeError, "_nccl_destroy takes 2 arguments");
        return NULL;
    }
    if (comm_arg(a[0], &c) < 0 || (abort = PyObject_IsTrue(a[1])) < 0)
        return NULL;
    NCCL_CALL(m, em_nccl_destroy(c, abort));
    Py_RETURN_NONE;
}

/* _nccl_call(handle, kind, send, recv, count, dtype, op, root, stream):
 * pointers as ints; stream an ember.Stream or None. */
static PyObject *nc_call(PyObject *m, PyObject *const *a, Py_ssize_t n)
{
    empy_state *st = empy_state_of_module(m);
    em_nccl_comm *c;
    em_stream *s = NULL;
    void *send, *recv;
    long kind, dtype, op, root;
    size_t count;
    if (n != 9) {
        PyErr_SetString(PyExc_TypeError, "_nccl_call takes 9 arguments");
        return NULL;
    }
    if (comm_arg(a[0], &c) < 0 ||
        ((kind = PyLong_AsLong(a[1])) == -1 && PyErr_Occurred()) ||
        (!(send = PyLong_AsVoidPtr(a[2])) && PyErr_Occurred()) ||
        (!(recv = PyLong_AsVoidPtr(a[3])) && PyErr_Occurred()) ||
        ((count = PyLong_AsSize_t(a[4])) == (size_t)-1 && PyErr_Occurred()) ||
        ((dtype = PyLong_AsLong(a[5])) == -1 && PyErr_Occurred()) ||
        ((op = PyLong_AsLong(a[6])) == -1 && PyErr_Occurred()) ||
        ((root = PyLong_AsLong(a[7])) == -1 && PyErr_Occurred()) ||
        empy_stream_for_device(st, a[8], em_nccl_comm_device(c), &s) < 0)
        return NULL;
    NCCL_CALL(m, em_nccl_call(c, (em_nccl_kind)kind, send, recv, count,
                              (int)dtype, (int)op, (int)root, s));
    Py_RETURN_NONE;
}

static PyObject *nc_group_start(PyObject *m, PyObject *unused)
{
    NCCL_CALL(m, em_nccl_group_start());
    Py_RETURN_NONE;
}

static PyObject *nc_group_end(PyObject *m, PyObject *unused)
{
    NCCL_CALL(m, em_nccl_group_end());
    Py_RETURN_NONE;
}

#define FAST(f) (PyCFunction)(void (*)(void))f, METH_FASTCALL

static PyMethodDef nccl_functions[] = {
    {"_nccl_version", nc_version, METH_NOARGS, NULL},
    {"_nccl_unique_id", nc_unique_id, METH_NOARGS, NULL},
    {"_nccl_init_rank", FAST(nc_init_rank), NULL},
    {"_nccl_init_all", nc_init_all, METH_O, NULL},
    {"_nccl_destroy", FAST(nc_destroy), NULL},
    {"_nccl_call", FAST(nc_call), NULL},
    {"_nccl_group_start", nc_group_start, METH_NOARGS, NULL},
    {"_nccl_group_end", nc_group_end, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

int empy_nccl_init(PyObject *m, empy_state *st)
{
    return PyModule_AddFunctions(m, nccl_functions);
}
