/* ember Python extension: ember.Graph and Stream's capture methods
 * (begin_capture, end_capture, is_capturing), CuPy's spelling. The
 * runtime does the work (src/runtime/graph.c); this file holds the
 * handles. */
#include "runtime/module.h"
#include "runtime/errors.h"
#include "runtime/args.h"

typedef struct {
    PyObject_HEAD
    em_graph *g;
} empy_Graph;

#define GRAPH(o) ((empy_Graph *)(o))

/* ember._capture_hooks.run(stream): layers that hold work back issue it
 * before a capture begins and before it ends. */
static int run_hooks(PyObject *stream)
{
    static const empy_pyattr w = {"ember._capture_hooks", "run"};
    PyObject *r = empy_py_getter(stream, (void *)&w);
    Py_XDECREF(r);
    return r ? 0 : -1;
}

static em_stream *capture_stream(empy_state *st, PyObject *self)
{
    em_stream *s = empy_stream_resolve(st, self);
    return s && run_hooks(self) == 0 ? s : NULL;
}

/* mode: CuPy's cudaStreamCaptureMode (0 global, 1 thread-local, 2
 * relaxed), checked and otherwise unused: ember captures in relaxed mode
 * and refuses the unsafe calls itself, on every thread. */
static PyObject *Stream_begin_capture(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"mode", NULL};
    empy_state *st = empy_state_of(self);
    PyObject *mode = Py_None;
    em_stream *s;
    long m;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|O:begin_capture", kwlist, &mode))
        return NULL;
    if (mode != Py_None) {
        m = PyLong_Check(mode) ? PyLong_AsLong(mode) : -1;
        if (m == -1 && PyErr_Occurred())
            return NULL;
        if (m < 0 || m > 2)
            return PyErr_Format(PyExc_ValueError, "begin_capture: mode must be "
                                "None or a cudaStreamCaptureMode (0, 1 or 2), "
                                "not %R", mode);
    }
    if (!(s = capture_stream(st, self)))
        return NULL;
    return empy_none_or_raise(st, em_stream_begin_capture(s));
}

static PyObject *Stream_end_capture(PyObject *self, PyObject *unused)
{
    empy_state *st = empy_state_of(self);
    em_stream *s = capture_stream(st, self);
    em_graph *g = NULL;
    em_status rc;
    empy_Graph *o;
    if (!s)
        return NULL;
    if (!(o = PyObject_New(empy_Graph, st->Graph)))
        return NULL;
    o->g = NULL;
    EMPY_NOGIL(rc, em_stream_end_capture(s, &g));
    if (rc != EM_OK) {
        Py_DECREF(o);
        return empy_raise(st, rc);
    }
    o->g = g;
    return (PyObject *)o;
}

static PyObject *Stream_is_capturing(PyObject *self, PyObject *unused)
{
    empy_state *st = empy_state_of(self);
    em_stream *s = empy_stream_resolve(st, self);
    if (!s)
        return NULL;
    return PyBool_FromLong(em_stream_is_capturing(s));
}

/* launch and upload: stream None is the current stream when the graph's
 * device is current, else that device's default stream. */
static PyObject *graph_on(PyObject *self, PyObject *const *args,
                          Py_ssize_t nargs, PyObject *kwnames, int upload)
{
    static const char *const names[] = {"stream", NULL};
    empy_state *st = empy_state_of(self);
    em_graph *g = GRAPH(self)->g;
    PyObject *stream = Py_None;
    em_stream *s = NULL;
    em_status rc;
    if (nargs > 1 || (kwnames && (nargs + PyTuple_GET_SIZE(kwnames) > 1 ||
                                  !PyUnicode_Check(PyTuple_GET_ITEM(kwnames, 0)) ||
                                  PyUnicode_CompareWithASCIIString(
                                      PyTuple_GET_ITEM(kwnames, 0), names[0])))) {
        PyErr_Format(PyExc_TypeError, "Graph.%s() takes one argument, stream",
                     upload ? "upload" : "launch");
        return NULL;
    }
    if (nargs + (kwnames ? PyTuple_GET_SIZE(kwnames) : 0) == 1)
        stream = args[0];
    if (!g) {
        PyErr_SetString(PyExc_ValueError, "the graph was released");
        return NULL;
    }
    if (empy_stream_for_device(st, stream, em_graph_device(g), &s) < 0)
        return NULL;
    EMPY_NOGIL(rc, upload ? em_graph_upload(g, s) : em_graph_launch(g, s));
    return empy_none_or_raise(st, rc);
}

static PyObject *Graph_launch(PyObject *self, PyObject *const *args,
                              Py_ssize_t nargs, PyObject *kwnames)
{
    return graph_on(self, args, nargs, kwnames, 0);
}

static PyObject *Graph_upload(PyObject *self, PyObject *const *args,
                              Py_ssize_t nargs, PyObject *kwnames)
{
    return graph_on(self, args, nargs, kwnames, 1);
}

static PyObject *Graph_release(PyObject *self, PyObject *unused)
{
    em_graph *g = GRAPH(self)->g;
    em_status rc;
    GRAPH(self)->g = NULL;
    EMPY_NOGIL(rc, em_graph_destroy(g));
    return empy_none_or_raise(empy_state_of(self), rc);
}

static void Graph_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    em_graph *g = GRAPH(self)->g;
    if (g) {
        Py_BEGIN_ALLOW_THREADS
        em_graph_destroy(g);
        Py_END_ALLOW_THREADS
    }
    PyObject_Free(self);
    Py_DECREF(tp);
}

static PyObject *Graph_device(PyObject *self, void *unused)
{
    if (!GRAPH(self)->g) {
        PyErr_SetString(PyExc_ValueError, "the graph was released");
        return NULL;
    }
    return empy_device_new(empy_state_of(self), em_graph_device(GRAPH(self)->g));
}

static PyMethodDef Graph_methods[] = {
    {"launch", (PyCFunction)(void (*)(void))Graph_launch, METH_FASTCALL | METH_KEYWORDS,
     "launch(stream=None): run the captured work on the stream (None: the "
     "current stream)."},
    {"upload", (PyCFunction)(void (*)(void))Graph_upload, METH_FASTCALL | METH_KEYWORDS,
     "upload(stream=None): prepare the graph for launch on the stream ahead "
     "of time."},
    {"release", Graph_release, METH_NOARGS,
     "Release the graph now; the memory it held goes back to the pool."},
    {NULL},
};

static PyGetSetDef Graph_getset[] = {
    {"device", Graph_device, NULL, "The device the graph runs on.", NULL},
    {NULL},
};

static PyType_Slot Graph_slots[] = {
    {Py_tp_dealloc, Graph_dealloc},
    {Py_tp_methods, Graph_methods},
    {Py_tp_getset, Graph_getset},
    {Py_tp_doc, "A graph of work captured on a stream (Stream.end_capture); "
                "launch() replays it. docs/graphs.md."},
    {0, NULL},
};

static PyType_Spec Graph_spec = {
    "ember.Graph", sizeof(empy_Graph), 0,
    Py_TPFLAGS_DEFAULT | EMPY_TPFLAGS_IMMUTABLE, Graph_slots,
};

static PyMethodDef capture_methods[] = {
    {"begin_capture", (PyCFunction)(void (*)(void))Stream_begin_capture,
     METH_VARARGS | METH_KEYWORDS,
     "begin_capture(mode=None): record, instead of running, the work issued "
     "on this stream until end_capture()."},
    {"end_capture", Stream_end_capture, METH_NOARGS,
     "End the capture; returns the ember.Graph of the recorded work."},
    {"is_capturing", Stream_is_capturing, METH_NOARGS,
     "True while the stream captures a graph."},
    {NULL},
};

int empy_graph_init(PyObject *m, empy_state *st)
{
    if (empy_add_type(m, &Graph_spec, NULL, &st->Graph) < 0)
        return -1;
    /* Stream's own methods, kept here with the type they return. */
    for (PyMethodDef *def = capture_methods; def->ml_name; def++) {
        PyObject *descr = PyDescr_NewMethod(st->Stream, def);
        int rc = descr ? PyObject_SetAttrString((PyObject *)st->Stream,
                                                def->ml_name, descr) : -1;
        Py_XDECREF(descr);
        if (rc < 0)
            return -1;
    }
    return 0;
}
