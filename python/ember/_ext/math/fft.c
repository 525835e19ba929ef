/* ember Python extension: ember._ember._fft_exec, the one C call under
 * ember.fft on CUDA devices (python/ember/fft composes NumPy's semantics
 * over it). */
#include "array/ndarray.h"
#include "math/mathlibs.h"
#include "runtime/errors.h"
#include "ember/fft.h"

/* _fft_exec(in, out, rank, type, sign): em_fft_exec on the thread's
 * current stream; type 0 C2C, 1 R2C, 2 C2R (em_fft_type). */
static PyObject *py_fft_exec(PyObject *m, PyObject *const *args,
                             Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"in", "out", "rank", "type", "sign",
                                        NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *v[5];
    long rank, type, sign;
    em_status s;
    if (empy_parse_args("_fft_exec", args, nargs, kwnames, names, 5, 5, v) < 0)
        return NULL;
    if (!empy_is_ndarray(v[0]) || !empy_is_ndarray(v[1]))
        return PyErr_Format(PyExc_TypeError,
                            "_fft_exec: in and out must be ember.ndarray");
    rank = PyLong_AsLong(v[2]);
    type = PyLong_AsLong(v[3]);
    sign = PyLong_AsLong(v[4]);
    if (PyErr_Occurred())
        return NULL;
    EMPY_NOGIL(s, em_fft_exec(EMPY_ARR(v[0]), EMPY_ARR(v[1]), (int)rank,
                              (em_fft_type)type, (int)sign, NULL));
    if (s != EM_OK)
        return empy_raise(st, s);
    Py_RETURN_NONE;
}

/* _fft_plans(capacity=None, clear=False): the plan cache's (capacity,
 * plans held), after setting the capacity and clearing it when asked. */
static PyObject *py_fft_plans(PyObject *m, PyObject *const *args,
                              Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"capacity", "clear", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *v[2];
    int cap, held;
    em_status s = EM_OK;
    if (empy_parse_args("_fft_plans", args, nargs, kwnames, names, 2, 0, v) < 0)
        return NULL;
    if (v[0] && v[0] != Py_None) {
        long c = PyLong_AsLong(v[0]);
        if (c == -1 && PyErr_Occurred())
            return NULL;
        if (c < 0 || c > EM_FFT_PLANS)
            return PyErr_Format(PyExc_ValueError, "the FFT plan cache holds "
                                "0 to %d plans, not %ld", EM_FFT_PLANS, c);
        EMPY_NOGIL(s, em_fft_plans_resize((int)c));
    }
    if (s == EM_OK && v[1] && PyObject_IsTrue(v[1]) == 1)
        EMPY_NOGIL(s, em_fft_plans_clear());
    if (s != EM_OK)
        return empy_raise(st, s);
    em_fft_plans(&cap, &held);
    return Py_BuildValue("(ii)", cap, held);
}

static PyMethodDef fft_functions[] = {
    {"_fft_exec", (PyCFunction)(void (*)(void))py_fft_exec,
     METH_FASTCALL | METH_KEYWORDS,
     "_fft_exec(in, out, rank, type, sign): one cuFFT plan execution over "
     "the last rank axes (ember.fft's one C call on CUDA devices)."},
    {"_fft_plans", (PyCFunction)(void (*)(void))py_fft_plans,
     METH_FASTCALL | METH_KEYWORDS,
     "_fft_plans(capacity=None, clear=False): the cuFFT plan cache's "
     "(capacity, plans held), resized or cleared first when asked."},
    {NULL, NULL, 0, NULL},
};

int empy_fft_init(PyObject *m, empy_state *st)
{
    (void)st;
    return PyModule_AddFunctions(m, fft_functions);
}
