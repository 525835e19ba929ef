/* ember Python extension: ember.dtype and its instances (ember.float32, ...),
 * the parsing of dtype= arguments, buffer formats, and the conversions
 * between Python scalars and element bytes.
 *
 * NumPy is never imported to understand a dtype: its dtype objects are
 * read through their `.str` and its scalar types through their names. An
 * object whose type lives in a module named numpy can only exist when
 * NumPy is loaded, so asking it costs no import. */
#include <math.h>
#include <string.h>
#include "runtime/args.h"
#include "runtime/module.h"
#include "runtime/errors.h"
#include "array/ndarray.h"

#define DT(o) (((empy_DType *)(o))->id)

static const char *const dtype_formats[EM_DTYPE_COUNT] = {
    [EM_BOOL] = "?", [EM_INT8] = "b", [EM_INT16] = "h", [EM_INT32] = "i",
    [EM_INT64] = "q", [EM_UINT8] = "B", [EM_UINT16] = "H", [EM_UINT32] = "I",
    [EM_UINT64] = "Q", [EM_FLOAT16] = "e", [EM_BFLOAT16] = NULL,
    [EM_FLOAT32] = "f", [EM_FLOAT64] = "d", [EM_COMPLEX64] = "Zf",
    [EM_COMPLEX128] = "Zd",
};

static const char *const dtype_typestrs[EM_DTYPE_COUNT] = {
    [EM_BOOL] = "|b1", [EM_INT8] = "|i1", [EM_INT16] = "<i2", [EM_INT32] = "<i4",
    [EM_INT64] = "<i8", [EM_UINT8] = "|u1", [EM_UINT16] = "<u2",
    [EM_UINT32] = "<u4", [EM_UINT64] = "<u8", [EM_FLOAT16] = "<f2",
    [EM_BFLOAT16] = NULL, [EM_FLOAT32] = "<f4", [EM_FLOAT64] = "<f8",
    [EM_COMPLEX64] = "<c8", [EM_COMPLEX128] = "<c16",
};

const char *empy_dtype_format(em_dtype d)
{
    return (unsigned)d < EM_DTYPE_COUNT ? dtype_formats[d] : NULL;
}

const char *empy_dtype_typestr(em_dtype d)
{
    return (unsigned)d < EM_DTYPE_COUNT ? dtype_typestrs[d] : NULL;
}

/* ---- reading dtypes from other objects -------------------------------- */

/* Whether a type belongs to NumPy ("numpy.float32", "numpy.dtypes.X"). */
static int numpy_type(PyTypeObject *t)
{
    return strncmp(t->tp_name, "numpy.", 6) == 0;
}

/* The name that stands for a NumPy dtype or scalar type: a dtype's .str
 * ("<f4"), a scalar type's name ("float32"); NULL (no exception) for
 * anything else. */
static PyObject *numpy_name(PyObject *o)
{
    PyObject *str;
    if (PyType_Check(o)) {
        PyTypeObject *t = (PyTypeObject *)o;
        if (!numpy_type(t))
            return NULL;
        return PyUnicode_FromString(strrchr(t->tp_name, '.') + 1);
    }
    if (!numpy_type(Py_TYPE(o)))
        return NULL;
    str = PyObject_GetAttrString(o, "str");
    if (!str || !PyUnicode_Check(str)) {
        PyErr_Clear();
        Py_XDECREF(str);
        return NULL;
    }
    return str;
}

/* As empy_dtype_arg without raising: 1 if o names a dtype, 0 if not. */
static int dtype_match(empy_state *st, PyObject *o, em_dtype *out)
{
    PyObject *name;
    const char *s;
    int ok;
    if (Py_IS_TYPE(o, st->DType)) {
        *out = DT(o);
        return 1;
    }
    if (PyUnicode_Check(o)) {
        s = PyUnicode_AsUTF8(o);
        if (!s) {
            PyErr_Clear();
            return 0;
        }
        return em_dtype_from_name(s, out) == EM_OK;
    }
    if (PyType_Check(o)) {
        PyTypeObject *t = (PyTypeObject *)o;
        /* Python's own types mean NumPy's defaults for them. */
        if (t == &PyFloat_Type) { *out = EM_FLOAT64; return 1; }
        if (t == &PyLong_Type) { *out = EM_INT64; return 1; }
        if (t == &PyBool_Type) { *out = EM_BOOL; return 1; }
        if (t == &PyComplex_Type) { *out = EM_COMPLEX128; return 1; }
    }
    /* A NumPy scalar type (numpy.float32, numpy.intc) or dtype, whose
     * .str ("<f4", "|b1", ">i8") em_dtype_from_name reads, refusing the
     * foreign byte order. */
    name = numpy_name(o);
    if (!name)
        return 0;
    s = PyUnicode_AsUTF8(name);
    ok = s && em_dtype_from_name(s, out) == EM_OK;
    if (!s)
        PyErr_Clear();
    Py_DECREF(name);
    return ok;
}

int empy_dtype_arg(empy_state *st, PyObject *o, em_dtype *out)
{
    PyObject *name;
    if (dtype_match(st, o, out))
        return 0;
    name = PyUnicode_Check(o) ? Py_NewRef(o) : numpy_name(o);
    if (name) {
        /* The C parser says whether the name is unknown or unsupported. */
        const char *s = PyUnicode_AsUTF8(name);
        em_status rc;
        if (!s) {
            Py_DECREF(name);
            return -1;
        }
        rc = em_dtype_from_name(s, out);
        Py_DECREF(name);
        return rc == EM_OK ? 0 : empy_fail(st, rc);
    }
    PyErr_Format(PyExc_TypeError, "data type %R not understood (ember takes "
                 "an ember dtype, a name such as 'float32', a Python type, "
                 "or a NumPy dtype)", o);
    return -1;
}

int empy_format_dtype(const char *fmt, Py_ssize_t itemsize, em_dtype *out)
{
    const char *f = fmt ? fmt : "B";
    char c;
    int complex_ = 0;

    /* '@' and '=' are native; '<' is native on the little-endian hosts
     * ember runs on; '>' and '!' are refused below unless one byte. */
    char order = '@';
    if (*f && strchr("@=<>!", *f))
        order = *f++;
    if (*f == 'Z') {
        complex_ = 1;
        f++;
    }
    c = *f;
    if (!c || f[1])
        goto bad;
    if ((order == '>' || order == '!') && itemsize > 1)
        goto bad;
    if (complex_) {
        if (c == 'f' && itemsize == 8) { *out = EM_COMPLEX64; return 0; }
        if (c == 'd' && itemsize == 16) { *out = EM_COMPLEX128; return 0; }
        goto bad;
    }
    switch (c) {
    case '?': *out = EM_BOOL; break;
    case 'b': *out = EM_INT8; break;
    case 'B': *out = EM_UINT8; break;
    case 'e': *out = EM_FLOAT16; break;
    case 'f': *out = EM_FLOAT32; break;
    case 'd': *out = EM_FLOAT64; break;
    /* C integer types: their size decides (long is 4 or 8 bytes). */
    case 'h': case 'i': case 'l': case 'q': case 'n':
        switch (itemsize) {
        case 1: *out = EM_INT8; break;
        case 2: *out = EM_INT16; break;
        case 4: *out = EM_INT32; break;
        case 8: *out = EM_INT64; break;
        default: goto bad;
        }
        return 0;
    case 'H': case 'I': case 'L': case 'Q': case 'N':
        switch (itemsize) {
        case 1: *out = EM_UINT8; break;
        case 2: *out = EM_UINT16; break;
        case 4: *out = EM_UINT32; break;
        case 8: *out = EM_UINT64; break;
        default: goto bad;
        }
        return 0;
    default:
        goto bad;
    }
    if ((Py_ssize_t)em_dtype_size(*out) != itemsize)
        goto bad;
    return 0;
bad:
    PyErr_Format(PyExc_TypeError, "buffer format '%s' (item size %zd) has no "
                 "ember dtype; ember supports bool, integers, float16/32/64 "
                 "and complex64/128 in native byte order", fmt ? fmt : "B",
                 itemsize);
    return -1;
}

/* ---- element bytes <-> Python scalars --------------------------------- */

static double half_to_double(uint16_t h)
{
    int exp = (h >> 10) & 0x1f;
    double mant = h & 0x3ff;
    double v;
    if (exp == 0)
        v = ldexp(mant, -24);
    else if (exp == 31)
        v = mant ? NAN : INFINITY;
    else
        v = ldexp(mant + 1024, exp - 25);
    return (h & 0x8000) ? -v : v;
}

static double bf16_to_double(uint16_t b)
{
    uint32_t bits = (uint32_t)b << 16;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

PyObject *empy_item_to_py(em_dtype d, const void *p)
{
    switch (d) {
    case EM_BOOL: return PyBool_FromLong(*(const unsigned char *)p != 0);
    case EM_INT8: return PyLong_FromLong(*(const int8_t *)p);
    case EM_INT16: return PyLong_FromLong(*(const int16_t *)p);
    case EM_INT32: return PyLong_FromLong(*(const int32_t *)p);
    case EM_INT64: {
        int64_t v;
        memcpy(&v, p, sizeof v);
        return PyLong_FromLongLong(v);
    }
    case EM_UINT8: return PyLong_FromLong(*(const uint8_t *)p);
    case EM_UINT16: return PyLong_FromLong(*(const uint16_t *)p);
    case EM_UINT32: return PyLong_FromUnsignedLong(*(const uint32_t *)p);
    case EM_UINT64: {
        uint64_t v;
        memcpy(&v, p, sizeof v);
        return PyLong_FromUnsignedLongLong(v);
    }
    case EM_FLOAT16: {
        uint16_t v;
        memcpy(&v, p, sizeof v);
        return PyFloat_FromDouble(half_to_double(v));
    }
    case EM_BFLOAT16: {
        uint16_t v;
        memcpy(&v, p, sizeof v);
        return PyFloat_FromDouble(bf16_to_double(v));
    }
    case EM_FLOAT32: {
        float v;
        memcpy(&v, p, sizeof v);
        return PyFloat_FromDouble(v);
    }
    case EM_FLOAT64: {
        double v;
        memcpy(&v, p, sizeof v);
        return PyFloat_FromDouble(v);
    }
    case EM_COMPLEX64: {
        float v[2];
        memcpy(v, p, sizeof v);
        return PyComplex_FromDoubles(v[0], v[1]);
    }
    case EM_COMPLEX128: {
        double v[2];
        memcpy(v, p, sizeof v);
        return PyComplex_FromDoubles(v[0], v[1]);
    }
    default:
        PyErr_Format(PyExc_SystemError, "ember: invalid dtype %d", (int)d);
        return NULL;
    }
}

/* A weak Python int: int64 when it fits, else uint64 for 2**63..2**64-1
 * (so uint64 arrays take such values, as in NumPy); beyond, OverflowError
 * as NumPy raises for an int that fits no C integer. */
static int weak_int(PyObject *o, em_operand *op)
{
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    op->weak = 1;
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (!overflow) {
        op->dtype = EM_INT64;
        op->value.i = v;
        return 1;
    }
    if (overflow > 0) {
        unsigned long long u = PyLong_AsUnsignedLongLong(o);
        if (!(u == (unsigned long long)-1 && PyErr_Occurred())) {
            op->dtype = EM_UINT64;
            op->value.u = u;
            return 1;
        }
        PyErr_Clear();
    }
    PyErr_Format(PyExc_OverflowError, "Python integer %R out of bounds for "
                 "int64 and uint64", o);
    return -1;
}

/* A NumPy scalar or any 0-d buffer: a strong scalar of its own dtype. */
static int buffer_scalar(PyObject *o, em_operand *op)
{
    Py_buffer v;
    em_dtype d;
    int rc = 0;
    if (PyObject_GetBuffer(o, &v, PyBUF_RECORDS_RO) < 0) {
        PyErr_Clear();
        return 0;
    }
    if (v.ndim == 0 && v.itemsize <= 16) {
        if (empy_format_dtype(v.format, v.itemsize, &d) < 0) {
            rc = -1;
        } else {
            op->dtype = d;
            op->weak = 0;
            memcpy(op->value.bytes, v.buf, (size_t)v.itemsize);
            rc = 1;
        }
    }
    PyBuffer_Release(&v);
    return rc;
}

int empy_scalar_operand(PyObject *o, em_operand *op)
{
    PyTypeObject *t = Py_TYPE(o);
    memset(op, 0, sizeof *op);
    /* Exact builtins first: NumPy's float64 and complex128 subclass
     * Python's float and complex but are strong. */
    if (t == &PyFloat_Type) {
        op->dtype = EM_FLOAT64;
        op->weak = 1;
        op->value.f = PyFloat_AS_DOUBLE(o);
        return 1;
    }
    if (t == &PyLong_Type)
        return weak_int(o, op);
    if (t == &PyBool_Type) {
        op->dtype = EM_BOOL;
        op->weak = 1;
        op->value.bytes[0] = o == Py_True;
        return 1;
    }
    if (t == &PyComplex_Type) {
        Py_complex c = PyComplex_AsCComplex(o);
        op->dtype = EM_COMPLEX128;
        op->weak = 1;
        op->value.c[0] = c.real;
        op->value.c[1] = c.imag;
        return 1;
    }
    if (empy_is_ndarray(o) || PyUnicode_Check(o) || PyBytes_Check(o))
        return 0;
    if (t->tp_as_buffer && t->tp_as_buffer->bf_getbuffer) {
        int rc = buffer_scalar(o, op);
        if (rc != 0)
            return rc;
    }
    /* Subclasses of Python's numbers (IntEnum, ...) are Python scalars. */
    if (PyLong_Check(o))
        return weak_int(o, op);
    if (PyFloat_Check(o)) {
        op->dtype = EM_FLOAT64;
        op->weak = 1;
        op->value.f = PyFloat_AsDouble(o);
        return op->value.f == -1.0 && PyErr_Occurred() ? -1 : 1;
    }
    if (PyComplex_Check(o)) {
        Py_complex c = PyComplex_AsCComplex(o);
        if (c.real == -1.0 && PyErr_Occurred())
            return -1;
        op->dtype = EM_COMPLEX128;
        op->weak = 1;
        op->value.c[0] = c.real;
        op->value.c[1] = c.imag;
        return 1;
    }
    return 0;
}

int empy_check_weak_fits(const em_operand *op, em_dtype d)
{
    const em_dtype_info *info = em_dtype_get(d);
    int64_t lo;
    uint64_t hi;
    int neg;
    if (!op->weak)
        return 0;
    if (op->dtype == EM_FLOAT64 && (info->kind == 'i' || info->kind == 'u')) {
        /* As NumPy's integer setitem of a Python float. */
        if (isnan(op->value.f)) {
            PyErr_SetString(PyExc_ValueError, "cannot convert float NaN to integer");
            return -1;
        }
        if (isinf(op->value.f)) {
            PyErr_SetString(PyExc_OverflowError,
                            "cannot convert float infinity to integer");
            return -1;
        }
        return 0;
    }
    if (op->dtype != EM_INT64 && op->dtype != EM_UINT64)
        return 0;
    if (info->kind != 'i' && info->kind != 'u')
        return 0;
    if (info->kind == 'i') {
        lo = info->size == 8 ? INT64_MIN : -((int64_t)1 << (info->size * 8 - 1));
        hi = info->size == 8 ? (uint64_t)INT64_MAX
                             : ((uint64_t)1 << (info->size * 8 - 1)) - 1;
    } else {
        lo = 0;
        hi = info->size == 8 ? UINT64_MAX : ((uint64_t)1 << (info->size * 8)) - 1;
    }
    neg = op->dtype == EM_INT64 && op->value.i < 0;
    if (neg ? op->value.i >= lo
            : (op->dtype == EM_INT64 ? (uint64_t)op->value.i : op->value.u) <= hi)
        return 0;
    if (op->dtype == EM_INT64)
        PyErr_Format(PyExc_OverflowError, "Python integer %lld out of bounds "
                     "for %s", (long long)op->value.i, info->name);
    else
        PyErr_Format(PyExc_OverflowError, "Python integer %llu out of bounds "
                     "for %s", (unsigned long long)op->value.u, info->name);
    return -1;
}

/* ---- the dtype type ---------------------------------------------------- */

static const em_dtype_info *INFO(PyObject *o)
{
    return em_dtype_get(DT(o));
}

static PyObject *DType_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"dtype", NULL};
    empy_state *st = empy_state_of_type(type);
    PyObject *spec;
    em_dtype d;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O:dtype", kwlist, &spec))
        return NULL;
    if (spec == Py_None) {
        /* NumPy's dtype(None) is the default float. */
        d = EM_FLOAT64;
    } else if (empy_is_ndarray(spec)) {
        d = EMPY_ARR(spec)->dtype;
    } else if (empy_dtype_arg(st, spec, &d) < 0) {
        return NULL;
    }
    return Py_NewRef(empy_dtype_obj(st, d));
}

static void DType_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    tp->tp_free(self);
    Py_DECREF(tp);
}

static PyObject *DType_repr(PyObject *self)
{
    return PyUnicode_FromFormat("dtype('%s')", INFO(self)->name);
}

static PyObject *DType_str(PyObject *self)
{
    return PyUnicode_FromString(INFO(self)->name);
}

/* The hash of the name, so a dict keyed by dtype finds 'float32' too. */
static Py_hash_t DType_hash(PyObject *self)
{
    PyObject *name = PyUnicode_FromString(INFO(self)->name);
    Py_hash_t h;
    if (!name)
        return -1;
    h = PyObject_Hash(name);
    Py_DECREF(name);
    return h;
}

static PyObject *DType_richcompare(PyObject *a, PyObject *b, int op)
{
    empy_state *st = empy_state_of(a);
    em_dtype d;
    int eq;
    if (op != Py_EQ && op != Py_NE)
        Py_RETURN_NOTIMPLEMENTED;
    eq = dtype_match(st, b, &d) && d == DT(a);
    return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

static PyObject *DType_get_name(PyObject *self, void *c)
{
    return PyUnicode_FromString(INFO(self)->name);
}

static PyObject *DType_get_itemsize(PyObject *self, void *c)
{
    return PyLong_FromLong(INFO(self)->size);
}

static PyObject *DType_get_kind(PyObject *self, void *c)
{
    char k[2] = {INFO(self)->kind, 0};
    /* bfloat16 is a NumPy 'V' in ml_dtypes; ember calls it a float. */
    return PyUnicode_FromString(k);
}

/* ember.float32(1.5) is NumPy's float32(1.5), as cupy.float32 is
 * numpy.float32: a host scalar, strong in promotion. NumPy's side of a
 * dtype (char, str, type, ...) is cold: _api/dtype_props.py. */
static PyObject *DType_call(PyObject *self, PyObject *args, PyObject *kw)
{
    return empy_call_python("ember._api.dtype_props", "call", self, args, kw);
}

#define COLD(NAME) static const empy_pyattr cold_##NAME = {"ember._api.dtype_props", #NAME}
COLD(char);
COLD(str);
COLD(byteorder);
COLD(none);
COLD(true);
COLD(shape);
COLD(dtype);
COLD(type);
COLD(alignment);
COLD(num);
#define GET_COLD(ATTR, NAME, DOC) {ATTR, empy_py_getter, NULL, DOC, (void *)&cold_##NAME}

static PyObject *DType_reduce(PyObject *self, PyObject *unused)
{
    return Py_BuildValue("(O(s))", (PyObject *)Py_TYPE(self), INFO(self)->name);
}

static PyMethodDef DType_methods[] = {
    {"__reduce__", DType_reduce, METH_NOARGS, NULL},
    {NULL},
};

static PyGetSetDef DType_getset[] = {
    {"name", DType_get_name, NULL, "NumPy's name: 'float32'.", NULL},
    {"itemsize", DType_get_itemsize, NULL, "Bytes per element.", NULL},
    GET_COLD("alignment", alignment, "Alignment in bytes."),
    {"kind", DType_get_kind, NULL, "'b', 'i', 'u', 'f' or 'c'.", NULL},
    GET_COLD("char", char, "NumPy's type character: 'f'."),
    GET_COLD("str", str, "The array-interface string: '<f4'."),
    GET_COLD("byteorder", byteorder, "'=' (native) or '|'."),
    GET_COLD("num", num, "ember's dtype number."),
    GET_COLD("names", none, "None: ember has no structured dtypes."),
    GET_COLD("fields", none, "None."),
    GET_COLD("subdtype", none, "None."),
    GET_COLD("shape", shape, "()."),
    GET_COLD("isnative", true, "True."),
    GET_COLD("isbuiltin", true, "True."),
    GET_COLD("dtype", dtype, "The NumPy dtype (imports NumPy)."),
    GET_COLD("type", type, "The NumPy scalar type (imports NumPy)."),
    {NULL},
};

static PyType_Slot DType_slots[] = {
    {Py_tp_new, DType_new},
    {Py_tp_dealloc, DType_dealloc},
    {Py_tp_repr, DType_repr},
    {Py_tp_str, DType_str},
    {Py_tp_hash, DType_hash},
    {Py_tp_richcompare, DType_richcompare},
    {Py_tp_call, DType_call},
    {Py_tp_methods, DType_methods},
    {Py_tp_getset, DType_getset},
    {Py_tp_doc, "dtype(spec)\n\nAn element type: ember.float32, ... "
                "dtype(spec) finds the one a name ('f4'), Python type, NumPy "
                "dtype or array names. Equal to NumPy's dtypes and types and "
                "to their names; calling one makes a NumPy scalar."},
    {0, NULL},
};

static PyType_Spec DType_spec = {
    "ember.dtype", sizeof(empy_DType), 0,
    Py_TPFLAGS_DEFAULT | EMPY_TPFLAGS_IMMUTABLE, DType_slots,
};

/* ---- promotion functions ----------------------------------------------- */

/* The dtype of an argument of result_type/can_cast: an array's, a
 * scalar's (with weak set for Python scalars), or a dtype's. */
static int dtype_of(empy_state *st, PyObject *o, em_operand *op)
{
    int rc;
    memset(op, 0, sizeof *op);
    if (empy_is_ndarray(o)) {
        op->dtype = EMPY_ARR(o)->dtype;
        return 0;
    }
    if (!PyType_Check(o) && !PyUnicode_Check(o) && !Py_IS_TYPE(o, st->DType)) {
        rc = empy_scalar_operand(o, op);
        if (rc != 0)
            return rc < 0 ? -1 : 0;
        if (PyObject_HasAttrString(o, "dtype")) {
            PyObject *d = PyObject_GetAttrString(o, "dtype");
            if (!d)
                return -1;
            rc = empy_dtype_arg(st, d, &op->dtype);
            Py_DECREF(d);
            return rc;
        }
    }
    return empy_dtype_arg(st, o, &op->dtype);
}

static PyObject *mod_result_type(PyObject *m, PyObject *const *args,
                                 Py_ssize_t nargs)
{
    empy_state *st = empy_state_of_module(m);
    em_operand ops[EM_MAX_NDIM];
    em_dtype out;
    em_status rc;
    Py_ssize_t i;
    if (nargs == 0) {
        PyErr_SetString(PyExc_ValueError, "at least one array or dtype is required");
        return NULL;
    }
    if (nargs > EM_MAX_NDIM) {
        PyErr_Format(PyExc_ValueError, "result_type() takes at most %d arguments",
                     EM_MAX_NDIM);
        return NULL;
    }
    for (i = 0; i < nargs; i++)
        if (dtype_of(st, args[i], &ops[i]) < 0)
            return NULL;
    rc = em_result_type(ops, (int)nargs, &out);
    if (rc != EM_OK)
        return empy_raise(st, rc);
    return Py_NewRef(empy_dtype_obj(st, out));
}

int empy_can_cast(em_dtype from, em_dtype to, const char *casting)
{
    static const char *const names[] = {"no", "equiv", "safe", "same_kind", "unsafe"};
    int i;
    for (i = 0; i <= EM_CASTING_UNSAFE; i++)   /* em_casting's order */
        if (!strcmp(casting, names[i]))
            return em_dtype_can_cast(from, to, (em_casting)i) != 0;
    PyErr_Format(PyExc_ValueError, "casting must be one of 'no', 'equiv', 'safe', "
                 "'same_kind', or 'unsafe', not '%s'", casting);
    return -1;
}

/* _can_cast(from_, to, casting): two dtypes; _api/promotion.py reads
 * can_cast's arguments. */
static PyObject *mod_can_cast(PyObject *m, PyObject *args)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *from, *to;
    const char *casting;
    int ok;
    if (!PyArg_ParseTuple(args, "O!O!s:_can_cast", st->DType, &from, st->DType, &to,
                          &casting) ||
        (ok = empy_can_cast(DT(from), DT(to), casting)) < 0)
        return NULL;
    return PyBool_FromLong(ok);
}

static PyMethodDef dtype_functions[] = {
    {"result_type", (PyCFunction)(void (*)(void))mod_result_type, METH_FASTCALL,
     "result_type(*arrays_and_dtypes): the dtype NumPy 2 promotion gives."},
    {"_can_cast", mod_can_cast, METH_VARARGS, NULL},
    {NULL},
};

int empy_dtype_init(PyObject *m, empy_state *st)
{
    int i;
    if (!(st->s_array_interface = PyUnicode_InternFromString("__array_interface__"))
        || !(st->s_array = PyUnicode_InternFromString("__array__")))
        return -1;
    if (empy_add_type(m, &DType_spec, NULL, &st->DType) < 0)
        return -1;
    for (i = 0; i < EM_DTYPE_COUNT; i++) {
        const em_dtype_info *info = em_dtype_get((em_dtype)i);
        empy_DType *o = PyObject_New(empy_DType, st->DType);
        if (!o)
            return -1;
        o->id = (em_dtype)i;
        st->dtypes[i] = (PyObject *)o;
        if (PyModule_AddObjectRef(m, info->name, (PyObject *)o) < 0)
            return -1;
    }
    /* NumPy's other spellings of the same types. */
    if (PyModule_AddObjectRef(m, "bool_", st->dtypes[EM_BOOL]) < 0 ||
        PyModule_AddObjectRef(m, "intp", st->dtypes[EM_INT64]) < 0 ||
        PyModule_AddObjectRef(m, "uintp", st->dtypes[EM_UINT64]) < 0 ||
        PyModule_AddObjectRef(m, "int_", st->dtypes[EM_INT64]) < 0 ||
        PyModule_AddObjectRef(m, "half", st->dtypes[EM_FLOAT16]) < 0 ||
        PyModule_AddObjectRef(m, "single", st->dtypes[EM_FLOAT32]) < 0 ||
        PyModule_AddObjectRef(m, "double", st->dtypes[EM_FLOAT64]) < 0 ||
        PyModule_AddObjectRef(m, "csingle", st->dtypes[EM_COMPLEX64]) < 0 ||
        PyModule_AddObjectRef(m, "cdouble", st->dtypes[EM_COMPLEX128]) < 0)
        return -1;
    return PyModule_AddFunctions(m, dtype_functions);
}
