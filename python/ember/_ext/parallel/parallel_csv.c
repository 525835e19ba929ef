/* ember Python extension: the CSV kernels under ember.frame.read_csv
 * (python/ember/frame/_io_csv.py checks the arguments and composes them
 * with ember's scans); each releases the GIL around its C call. */
#include "ember/csv.h"
#include "parallel/parallel.h"
#include "runtime/errors.h"

/* _csv_count(bytes, sep, quote) -> (counts, chunk) */
static PyObject *py_csv_count(PyObject *m, PyObject *args)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *b, *c;
    int sep, quote;
    int64_t chunk = 0;
    em_array r;
    em_status s;
    if (!PyArg_ParseTuple(args, "O!ii:_csv_count", st->ndarray, &b, &sep,
                          &quote))
        return NULL;
    EMPY_NOGIL(s, em_csv_count(EMPY_ARR(b), sep, quote, &r, &chunk, NULL));
    if (s != EM_OK)
        return empy_raise(st, s);
    if (!(c = empy_ndarray_new(st, &r, NULL)))
        return NULL;
    return Py_BuildValue("(NL)", c, (long long)chunk);
}

/* _csv_fields(bytes, sep, quote, chunk, qpre, offs, total) -> (ends, rowend) */
static PyObject *py_csv_fields(PyObject *m, PyObject *args)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *b, *q, *o, *e, *f;
    int sep, quote;
    long long chunk, total;
    em_array re, rr;
    em_status s;
    if (!PyArg_ParseTuple(args, "O!iiLO!O!L:_csv_fields", st->ndarray, &b, &sep,
                          &quote, &chunk, st->ndarray, &q, st->ndarray, &o,
                          &total))
        return NULL;
    EMPY_NOGIL(s, em_csv_fields(EMPY_ARR(b), sep, quote, chunk, EMPY_ARR(q),
                                EMPY_ARR(o), total, &re, &rr, NULL));
    if (s != EM_OK)
        return empy_raise(st, s);
    if (!(e = empy_ndarray_new(st, &re, NULL))) {
        em_array_release(&rr);
        return NULL;
    }
    if (!(f = empy_ndarray_new(st, &rr, NULL))) {
        Py_DECREF(e);
        return NULL;
    }
    return Py_BuildValue("(NN)", e, f);
}

/* _csv_parse(bytes, starts, ends, base, nrows, ncols, col, quote, mode,
 * na, na_off, out, cls, soff): starts, out, cls and soff may be None. */
static PyObject *py_csv_parse(PyObject *m, PyObject *args)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *b, *so, *e, *na, *no, *oo, *co, *fo;
    const em_array *sa, *oa, *ca, *fa;
    long long base, nrows, ncols, col;
    int quote, mode;
    em_status s;
    if (!PyArg_ParseTuple(args, "O!OO!LLLLiiO!O!OOO:_csv_parse", st->ndarray,
                          &b, &so, st->ndarray, &e, &base, &nrows, &ncols, &col,
                          &quote, &mode, st->ndarray, &na, st->ndarray, &no,
                          &oo, &co, &fo))
        return NULL;
    if (empy_par_array(st, so, 1, &sa) < 0 ||
        empy_par_array(st, oo, 1, &oa) < 0 ||
        empy_par_array(st, co, 1, &ca) < 0 ||
        empy_par_array(st, fo, 1, &fa) < 0)
        return NULL;
    EMPY_NOGIL(s, em_csv_parse(EMPY_ARR(b), sa, EMPY_ARR(e), base, nrows, ncols,
                               col, quote, (em_csv_mode)mode, EMPY_ARR(na),
                               EMPY_ARR(no), (em_array *)oa, (em_array *)ca, fa,
                               NULL));
    if (s != EM_OK)
        return empy_raise(st, s);
    Py_RETURN_NONE;
}

PyMethodDef empy_par_csv_functions[] = {
    {"_csv_count", py_csv_count, METH_VARARGS, "CSV pass one (ember/csv.h)."},
    {"_csv_fields", py_csv_fields, METH_VARARGS, "CSV pass two (ember/csv.h)."},
    {"_csv_parse", py_csv_parse, METH_VARARGS,
     "CSV fields of a column (ember/csv.h)."},
    {NULL, NULL, 0, NULL}};
