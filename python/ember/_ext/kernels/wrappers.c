/* ember Python extension: ember.In, ember.Out, ember.InOut (PyCUDA's
 * argument wrappers). Each marks a host array for a launch: the launch
 * (launch.c) gives the kernel device memory of the same size, copied from
 * the array before (In, InOut) and back into it after (Out, InOut). The
 * array is reached through the buffer protocol, so NumPy is never
 * imported. */
#include "runtime/module.h"

#define WRAP(o) ((empy_Wrapper *)(o))

static PyObject *wrapper_new(PyTypeObject *type, PyObject *args, PyObject *kw, int dir)
{
    PyObject *array;
    empy_Wrapper *w;

    if (kw && PyDict_GET_SIZE(kw)) {
        PyErr_Format(PyExc_TypeError, "%s() takes no keyword arguments", type->tp_name);
        return NULL;
    }
    if (PyTuple_GET_SIZE(args) != 1) {
        PyErr_Format(PyExc_TypeError, "%s() takes one array (%zd given)", type->tp_name,
                     PyTuple_GET_SIZE(args));
        return NULL;
    }
    array = PyTuple_GET_ITEM(args, 0);
    if (!PyObject_CheckBuffer(array)) {
        PyErr_Format(PyExc_TypeError,
                     "%s() needs a host array with the buffer protocol (a NumPy "
                     "array, bytearray, ...), not %.100s", type->tp_name,
                     Py_TYPE(array)->tp_name);
        return NULL;
    }
    w = (empy_Wrapper *)type->tp_alloc(type, 0);
    if (!w)
        return NULL;
    w->array = Py_NewRef(array);
    w->dir = dir;
    return (PyObject *)w;
}

static PyObject *In_new(PyTypeObject *t, PyObject *a, PyObject *k)
{
    return wrapper_new(t, a, k, EMPY_DIR_IN);
}

static PyObject *Out_new(PyTypeObject *t, PyObject *a, PyObject *k)
{
    return wrapper_new(t, a, k, EMPY_DIR_OUT);
}

static PyObject *InOut_new(PyTypeObject *t, PyObject *a, PyObject *k)
{
    return wrapper_new(t, a, k, EMPY_DIR_IN | EMPY_DIR_OUT);
}

static int Wrapper_traverse(PyObject *self, visitproc visit, void *arg)
{
    Py_VISIT(Py_TYPE(self));
    Py_VISIT(WRAP(self)->array);
    return 0;
}

static int Wrapper_clear(PyObject *self)
{
    Py_CLEAR(WRAP(self)->array);
    return 0;
}

static void Wrapper_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    Wrapper_clear(self);
    tp->tp_free(self);
    Py_DECREF(tp);
}

static PyObject *Wrapper_repr(PyObject *self)
{
    return PyUnicode_FromFormat("%s(%R)", Py_TYPE(self)->tp_name, WRAP(self)->array);
}

static PyObject *Wrapper_get_array(PyObject *self, void *c)
{
    return Py_NewRef(WRAP(self)->array);
}

static PyGetSetDef Wrapper_getset[] = {
    {"array", Wrapper_get_array, NULL, "The wrapped host array.", NULL},
    {NULL},
};

#define WRAPPER_SPEC(NAME, DOC)                                                 \
    static PyType_Slot NAME##_slots[] = {                                       \
        {Py_tp_new, NAME##_new},                                                \
        {Py_tp_dealloc, Wrapper_dealloc},                                       \
        {Py_tp_traverse, Wrapper_traverse},                                     \
        {Py_tp_clear, Wrapper_clear},                                           \
        {Py_tp_repr, Wrapper_repr},                                             \
        {Py_tp_getset, Wrapper_getset},                                         \
        {Py_tp_doc, DOC},                                                       \
        {0, NULL},                                                              \
    };                                                                          \
    static PyType_Spec NAME##_spec = {                                          \
        "ember." #NAME, sizeof(empy_Wrapper), 0,                                \
        Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | EMPY_TPFLAGS_IMMUTABLE,       \
        NAME##_slots,                                                           \
    };

WRAPPER_SPEC(In, "In(array): a kernel argument copied to the device before "
                 "the launch.")
WRAPPER_SPEC(Out, "Out(array): a kernel argument copied back into the array "
                  "after the launch (which then waits for the kernel).")
WRAPPER_SPEC(InOut, "InOut(array): copied to the device before the launch and "
                    "back after it.")

int empy_wrappers_init(PyObject *m, empy_state *st)
{
    if (empy_add_type(m, &In_spec, NULL, &st->In) < 0 ||
        empy_add_type(m, &Out_spec, NULL, &st->Out) < 0 ||
        empy_add_type(m, &InOut_spec, NULL, &st->InOut) < 0)
        return -1;
    return 0;
}
