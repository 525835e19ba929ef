/* ember Python extension: ember._ember._random_fill, the one C call under
 * ember.random (python/ember/random/ keeps the generators' states and
 * composes the distributions). */
#include "array/ndarray.h"
#include "math/mathlibs.h"
#include "runtime/errors.h"

/* An int below 2^64 (the Python layer masks its state integers). */
static int u64_arg(PyObject *o, const char *what, unsigned long long *out)
{
    *out = PyLong_AsUnsignedLongLong(o);
    if (*out == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Format(PyExc_ValueError,
                     "_random_fill: %s must be an int in [0, 2**64)", what);
        return -1;
    }
    return 0;
}

/* _random_fill(out, gen, words, pre, half, dist, a, b, c0, c1, pa=None,
 * pb=None): words a 6-tuple, pre a tuple of up to 3 buffered words, half
 * None or the buffered 32-bit half (em_random_stream's fields); pa, pb
 * ember arrays of per-element parameters (em_random_params). */
static PyObject *py_random_fill(PyObject *m, PyObject *const *args,
                                Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"out", "gen",  "words", "pre", "half",
                                        "dist", "a",   "b",     "c0",  "c1",
                                        "pa",   "pb",  NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *v[12];
    em_random_stream rs;
    em_random_params p;
    unsigned long long x;
    int dist;
    em_status s;

    if (empy_parse_args("_random_fill", args, nargs, kwnames, names, 12, 10,
                        v) < 0)
        return NULL;
    memset(&p, 0, sizeof p);
    for (int i = 10; i < 12; i++) {
        if (!v[i] || v[i] == Py_None)
            continue;
        if (!empy_is_ndarray(v[i]))
            return PyErr_Format(PyExc_TypeError,
                                "_random_fill: %s must be an ember.ndarray "
                                "or None", names[i]);
        if (i == 10)
            p.pa = EMPY_ARR(v[i]);
        else
            p.pb = EMPY_ARR(v[i]);
    }
    if (!empy_is_ndarray(v[0]))
        return PyErr_Format(PyExc_TypeError,
                            "_random_fill: out must be an ember.ndarray, not %s",
                            Py_TYPE(v[0])->tp_name);
    memset(&rs, 0, sizeof rs);
    rs.gen = (em_random_gen)PyLong_AsLong(v[1]);
    dist = (int)PyLong_AsLong(v[5]);
    p.a = PyFloat_AsDouble(v[6]);
    p.b = PyFloat_AsDouble(v[7]);
    if (PyErr_Occurred())
        return NULL;
    if (!PyTuple_Check(v[2]) || PyTuple_GET_SIZE(v[2]) != 6 ||
        !PyTuple_Check(v[3]) || PyTuple_GET_SIZE(v[3]) > 3)
        return PyErr_Format(PyExc_TypeError,
                            "_random_fill: words must be a 6-tuple and pre "
                            "a tuple of at most 3 ints");
    for (int i = 0; i < 6; i++)
        if (u64_arg(PyTuple_GET_ITEM(v[2], i), "a state word", &x) < 0)
            return NULL;
        else
            rs.words[i] = x;
    rs.npre = (int)PyTuple_GET_SIZE(v[3]);
    for (int i = 0; i < rs.npre; i++)
        if (u64_arg(PyTuple_GET_ITEM(v[3], i), "a buffered word", &x) < 0)
            return NULL;
        else
            rs.pre[i] = x;
    if (v[4] != Py_None) {
        if (u64_arg(v[4], "the buffered half", &x) < 0)
            return NULL;
        rs.has32 = 1;
        rs.half = (uint32_t)x;
    }
    if (u64_arg(v[8], "c0", &x) < 0)
        return NULL;
    p.c0 = x;
    if (u64_arg(v[9], "c1", &x) < 0)
        return NULL;
    p.c1 = x;
    EMPY_NOGIL(s, em_random_fill(EMPY_ARR(v[0]), &rs, (em_random_dist)dist,
                                 &p, NULL));
    if (s != EM_OK)
        return empy_raise(st, s);
    Py_RETURN_NONE;
}

static PyMethodDef random_functions[] = {
    {"_random_fill", (PyCFunction)(void (*)(void))py_random_fill,
     METH_FASTCALL | METH_KEYWORDS,
     "_random_fill(out, gen, words, pre, half, dist, a, b, c0, c1): fill out "
     "with draws from a place in a bit generator's stream (ember.random's "
     "one C call)."},
    {NULL, NULL, 0, NULL},
};

int empy_random_init(PyObject *m, empy_state *st)
{
    (void)st;
    return PyModule_AddFunctions(m, random_functions);
}
