/* ember Python extension: the launch's view of ember.In, ember.Out and
 * ember.InOut (PyCUDA's argument wrappers, python/ember/_api/wrappers.py).
 * Their module registers the three classes here; the launch (launch.c)
 * tells them by type, and reads the host array from their `array`. */
#include "runtime/module.h"

/* _register_wrappers(In, Out, InOut) */
static PyObject *register_wrappers(PyObject *m, PyObject *args)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *t[3];
    if (!PyArg_ParseTuple(args, "O!O!O!:_register_wrappers", &PyType_Type,
                          &t[0], &PyType_Type, &t[1], &PyType_Type, &t[2]))
        return NULL;
    Py_XSETREF(st->In, (PyTypeObject *)Py_NewRef(t[0]));
    Py_XSETREF(st->Out, (PyTypeObject *)Py_NewRef(t[1]));
    Py_XSETREF(st->InOut, (PyTypeObject *)Py_NewRef(t[2]));
    Py_RETURN_NONE;
}

static PyMethodDef wrapper_functions[] = {
    {"_register_wrappers", register_wrappers, METH_VARARGS, NULL},
    {NULL},
};

int empy_wrappers_init(PyObject *m, empy_state *st)
{
    (void)st;
    return PyModule_AddFunctions(m, wrapper_functions);
}
