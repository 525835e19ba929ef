/* ember Python extension: ember.fuse's tapes (include/ember/fuse.h), so a
 * fused function's later calls skip its Python body.
 *
 *   _fuse_tape_begin()                 start taping this thread
 *   _fuse_tape_end(arrays, outs)       a tape (a capsule) or None; arrays
 *                                      None abandons the tape
 *   _fuse_replay(tape, arrays)         the outputs, or None when the tape
 *                                      does not apply to these arrays
 * arrays: the call's ndarray arguments, in order (a tuple); outs: what the
 * body returned, an ndarray or a tuple of them. A tape answers with the
 * shape of what the body returned. */
#include "ember/fuse.h"
#include "runtime/errors.h"
#include "array/ndarray.h"

#define TAPE_NAME "ember.fuse tape"

typedef struct tape_box {
    em_fuse_tape *t;
    int tuple; /* the body returned a tuple */
} tape_box;

static void tape_free(PyObject *cap)
{
    tape_box *b = PyCapsule_GetPointer(cap, TAPE_NAME);
    if (b) {
        em_fuse_tape_free(b->t);
        PyMem_Free(b);
    }
}

/* The em_arrays of a tuple of ndarrays into a[]; -1 (no exception) when
 * the tuple holds anything else or too many. */
static int arrays_of(PyObject *tup, const em_array **a, int max)
{
    Py_ssize_t n;
    if (!PyTuple_Check(tup) || (n = PyTuple_GET_SIZE(tup)) > max)
        return -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *o = PyTuple_GET_ITEM(tup, i);
        if (!empy_is_ndarray(o))
            return -1;
        a[i] = EMPY_ARR_RAW(o);
    }
    return (int)n;
}

static PyObject *mod_tape_begin(PyObject *m, PyObject *unused)
{
    em_status rc = em_fuse_tape_begin();
    if (rc != EM_OK)
        return empy_raise(empy_state_of_module(m), rc);
    Py_RETURN_NONE;
}

static PyObject *mod_tape_end(PyObject *m, PyObject *const *args, Py_ssize_t n)
{
    const em_array *in[EM_FUSE_TAPE_MAX_ARGS], *out[EM_FUSE_TAPE_MAX_OUTS];
    em_fuse_tape *t = NULL;
    int nin = -1, nout = -1, tuple = 0;
    tape_box *b;
    PyObject *cap;
    if (n != 2) {
        PyErr_SetString(PyExc_TypeError, "_fuse_tape_end takes two arguments");
        return NULL;
    }
    if (args[0] != Py_None) {
        nin = arrays_of(args[0], in, EM_FUSE_TAPE_MAX_ARGS);
        if (empy_is_ndarray(args[1])) {
            out[0] = EMPY_ARR_RAW(args[1]);
            nout = 1;
        } else {
            tuple = 1;
            nout = arrays_of(args[1], out, EM_FUSE_TAPE_MAX_OUTS);
        }
    }
    /* always called, so the thread stops taping whatever the body did */
    em_fuse_tape_end(nin < 0 || nout < 0 ? NULL : in, nin, out, nout, &t);
    if (!t)
        Py_RETURN_NONE;
    if (!(b = PyMem_Malloc(sizeof *b))) {
        em_fuse_tape_free(t);
        return PyErr_NoMemory();
    }
    b->t = t;
    b->tuple = tuple;
    if (!(cap = PyCapsule_New(b, TAPE_NAME, tape_free))) {
        em_fuse_tape_free(t);
        PyMem_Free(b);
    }
    return cap;
}

static PyObject *mod_replay(PyObject *m, PyObject *const *args, Py_ssize_t n)
{
    empy_state *st = empy_state_of_module(m);
    const em_array *in[EM_FUSE_TAPE_MAX_ARGS];
    em_array outs[EM_FUSE_TAPE_MAX_OUTS];
    PyObject *objs[EM_FUSE_TAPE_MAX_OUTS], *r;
    tape_box *b;
    em_status rc;
    int nin, nout, done = 0;
    if (n != 2) {
        PyErr_SetString(PyExc_TypeError, "_fuse_replay takes two arguments");
        return NULL;
    }
    if (!(b = PyCapsule_GetPointer(args[0], TAPE_NAME)))
        return NULL;
    if ((nin = arrays_of(args[1], in, EM_FUSE_TAPE_MAX_ARGS)) < 0)
        Py_RETURN_NONE;
    nout = em_fuse_tape_nouts(b->t);
    memset(outs, 0, sizeof outs);
    EMPY_NOGIL(rc, em_fuse_replay(b->t, in, nin, outs, &done));
    if (rc != EM_OK)
        return empy_raise(st, rc);
    if (!done)
        Py_RETURN_NONE;
    for (int i = 0; i < nout; i++) {
        int same = em_fuse_tape_same_out(b->t, i);
        if (same != i) {
            objs[i] = Py_NewRef(objs[same]);
        } else if (!(objs[i] = empy_ndarray_new(st, &outs[i], NULL))) {
            for (int k = 0; k < i; k++)
                Py_DECREF(objs[k]);
            for (int k = i + 1; k < nout; k++)
                em_array_release(&outs[k]);
            return NULL;
        }
    }
    if (!b->tuple)
        return objs[0];
    if (!(r = PyTuple_New(nout))) {
        for (int k = 0; k < nout; k++)
            Py_DECREF(objs[k]);
        return NULL;
    }
    for (int k = 0; k < nout; k++)
        PyTuple_SET_ITEM(r, k, objs[k]);
    return r;
}

static PyMethodDef fusetape_functions[] = {
    {"_fuse_tape_begin", mod_tape_begin, METH_NOARGS, NULL},
    {"_fuse_tape_end", (PyCFunction)(void (*)(void))mod_tape_end, METH_FASTCALL,
     NULL},
    {"_fuse_replay", (PyCFunction)(void (*)(void))mod_replay, METH_FASTCALL,
     NULL},
    {NULL},
};

int empy_fusetape_init(PyObject *m, empy_state *st)
{
    return PyModule_AddFunctions(m, fusetape_functions);
}
