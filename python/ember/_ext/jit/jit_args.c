/* ember Python extension: the arguments of ember.cuda.jit kernels. Each
 * Python argument becomes a type code word (jit.h; the contract's "Af4_1C"
 * in 32 bits) and then the flattened by-value parameters of
 * docs/jit-design.md section 2: an array is its data pointer, its shape and
 * its strides in elements; a scalar is its C value (complex: two).
 *
 * Classification runs on every launch, so it tests exact types first and
 * builds nothing: an ember ndarray is read in place, Python scalars by
 * value, and only other objects go through the buffer protocol (NumPy
 * arrays and scalars). */
#include <string.h>
#include "jit/jit.h"
#include "runtime/errors.h"

/* ---- type codes ----------------------------------------------------------- */

static void dtype_code(em_dtype dt, char *buf, size_t n)
{
    const em_dtype_info *in = em_dtype_get(dt);
    snprintf(buf, n, "%c%u", in ? in->kind : '?', in ? (unsigned)in->size : 0u);
}

void empy_jcode_str(uint32_t code, char *buf, size_t n)
{
    char dt[8];
    dtype_code(EMPY_JCODE_DTYPE(code), dt, sizeof dt);
    if (EMPY_JCODE_KIND(code) == EMPY_JK_ARRAY)
        snprintf(buf, n, "A%s_%d%c", dt, EMPY_JCODE_NDIM(code),
                 EMPY_JCODE_C(code) ? 'C' : 'A');
    else
        snprintf(buf, n, "%s", dt);
}

static int code_error(PyObject *str)
{
    PyErr_Format(PyExc_TypeError, "%R is not an argument type code (use e.g. 'Af4_1C' "
                 "for a C-contiguous 1-d float32 array, 'Ai8_2A' for any 2-d int64 "
                 "array, 'f8' for a float)", str);
    return -1;
}

static int parse_dtype(const char *s, size_t len, em_dtype *dt)
{
    char tmp[16];
    if (len == 0 || len >= sizeof tmp)
        return -1;
    memcpy(tmp, s, len);
    tmp[len] = 0;
    if (em_dtype_from_name(tmp, dt) != EM_OK || *dt == EM_BFLOAT16)
        return -1;
    return 0;
}

int empy_jcode_parse(PyObject *str, uint32_t *code)
{
    const char *s, *us;
    em_dtype dt;
    char *end;
    long nd;

    if (!PyUnicode_Check(str))
        return code_error(str);
    if (!(s = PyUnicode_AsUTF8(str)))
        return -1;
    if (s[0] != 'A') {
        if (parse_dtype(s, strlen(s), &dt) < 0)
            return code_error(str);
        *code = EMPY_JCODE(EMPY_JK_SCALAR, dt, 0, 0);
        return 0;
    }
    us = strchr(s, '_');
    if (!us || parse_dtype(s + 1, (size_t)(us - s - 1), &dt) < 0)
        return code_error(str);
    nd = strtol(us + 1, &end, 10);
    if (end == us + 1 || nd < 0 || nd > EM_MAX_NDIM ||
        (end[0] != 'C' && end[0] != 'A' && end[0] != 'F') || end[1])
        return code_error(str);
    *code = EMPY_JCODE(EMPY_JK_ARRAY, dt, nd, end[0] == 'C');
    return 0;
}

int empy_jcode_nparams(uint32_t code)
{
    if (EMPY_JCODE_KIND(code) == EMPY_JK_ARRAY)
        return 1 + 2 * EMPY_JCODE_NDIM(code);
    return em_dtype_get(EMPY_JCODE_DTYPE(code))->kind == 'c' ? 2 : 1;
}

size_t empy_jcode_param_size(uint32_t code, int j)
{
    size_t sz;
    if (EMPY_JCODE_KIND(code) == EMPY_JK_ARRAY)
        return j == 0 ? sizeof(void *) : sizeof(long long);
    sz = em_dtype_size(EMPY_JCODE_DTYPE(code));
    return em_dtype_get(EMPY_JCODE_DTYPE(code))->kind == 'c' ? sz / 2 : sz;
}

/* ---- classification --------------------------------------------------------- */

static int arg_error(const char *kname, const char *pname, int i, PyObject *o,
                     const char *why)
{
    PyErr_Format(PyExc_TypeError, "kernel '%s' argument '%s' (position %d): %s, got "
                 "%.100s", kname, pname, i, why, Py_TYPE(o)->tp_name);
    return -1;
}

/* A scalar's value, normalised by kind, from its bytes of dtype dt. */
static void scalar_from_bytes(empy_jarg *ja, em_dtype dt, const void *p)
{
    ja->sdt = dt;
    switch (dt) {
    case EM_BOOL: ja->v.u = *(const unsigned char *)p != 0; break;
    case EM_INT8: ja->v.i = *(const int8_t *)p; break;
    case EM_INT16: { int16_t x; memcpy(&x, p, 2); ja->v.i = x; break; }
    case EM_INT32: { int32_t x; memcpy(&x, p, 4); ja->v.i = x; break; }
    case EM_INT64: { int64_t x; memcpy(&x, p, 8); ja->v.i = x; break; }
    case EM_UINT8: ja->v.u = *(const uint8_t *)p; break;
    case EM_UINT16: { uint16_t x; memcpy(&x, p, 2); ja->v.u = x; break; }
    case EM_UINT32: { uint32_t x; memcpy(&x, p, 4); ja->v.u = x; break; }
    case EM_UINT64: { uint64_t x; memcpy(&x, p, 8); ja->v.u = x; break; }
#if PY_VERSION_HEX >= 0x030B0000
    case EM_FLOAT16: ja->v.f = PyFloat_Unpack2((const char *)p, 1); break;
#endif
    case EM_FLOAT32: { float x; memcpy(&x, p, 4); ja->v.f = x; break; }
    case EM_FLOAT64: memcpy(&ja->v.f, p, 8); break;
    case EM_COMPLEX64: {
        float x[2];
        memcpy(x, p, 8);
        ja->v.c[0] = x[0];
        ja->v.c[1] = x[1];
        break;
    }
    default: memcpy(ja->v.c, p, 16); break;
    }
}

static int is_numpy_ndarray(PyTypeObject *t)
{
    return strcmp(t->tp_name, "numpy.ndarray") == 0;
}

static int from_buffer(const char *kname, const char *pname, int i, PyObject *o,
                       empy_jarg *ja)
{
    Py_buffer *v = &ja->view;
    em_dtype dt;
    int k, c;

    if (PyObject_GetBuffer(o, v, PyBUF_RECORDS_RO) < 0) {
        if (PyErr_ExceptionMatches(PyExc_MemoryError))
            return -1;
        PyErr_Clear();
        if (PyObject_HasAttrString(o, "__cuda_array_interface__"))
            return 1;     /* CuPy's arrays refuse the buffer protocol */
        return arg_error(kname, pname, i, o, "expected an ember or NumPy array or a "
                         "number (a device array of another library: convert it "
                         "with ember.asarray)");
    }
    if (empy_format_dtype(v->format, v->itemsize, &dt) < 0) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "kernel '%s' argument '%s' (position %d): "
                     "%.100s of element format '%s' has no ember dtype", kname, pname,
                     i, Py_TYPE(o)->tp_name, v->format ? v->format : "B");
        PyBuffer_Release(v);
        return -1;
    }
    if (dt == EM_BFLOAT16) {
        PyBuffer_Release(v);
        return arg_error(kname, pname, i, o, "bfloat16 is not supported in jit kernels "
                         "(use float32 or float16)");
    }
    if (v->ndim == 0 && !is_numpy_ndarray(Py_TYPE(o))) {
        scalar_from_bytes(ja, dt, v->buf);
        PyBuffer_Release(v);
        if (dt == EM_FLOAT16 && PY_VERSION_HEX < 0x030B0000)
            return arg_error(kname, pname, i, o, "float16 scalars need Python 3.11+");
        ja->src = EMPY_JA_SCALAR;
        ja->code = EMPY_JCODE(EMPY_JK_SCALAR, dt, 0, 0);
        return 0;
    }
    if (v->ndim > EM_MAX_NDIM) {
        PyBuffer_Release(v);
        return arg_error(kname, pname, i, o, "arrays of more than 32 dimensions are "
                         "not supported");
    }
    c = PyBuffer_IsContiguous(v, 'C');
    ja->src = EMPY_JA_HOST;
    ja->has_view = 1;
    ja->a = NULL;
    ja->code = EMPY_JCODE(EMPY_JK_ARRAY, dt, v->ndim, c);
    for (k = 0; k < v->ndim; k++)
        if (v->strides[k] % v->itemsize)
            ja->code &= ~1u;
    return 0;
}

int empy_jarg_classify(const char *kname, const char *pname, int i, PyObject *o,
                       empy_jarg *ja)
{
    PyTypeObject *t = Py_TYPE(o);
    ja->has_view = ja->has_tmp = ja->writeback = 0;
    ja->owned = NULL;
    if (empy_is_ndarray(o)) {
        const em_array *a = EMPY_ARR(o);
        if (a->dtype == EM_BFLOAT16)
            return arg_error(kname, pname, i, o, "bfloat16 arrays are not supported "
                             "in jit kernels (use float32 or float16)");
        ja->src = EMPY_JA_EMBER;
        ja->a = a;
        ja->code = EMPY_JCODE(EMPY_JK_ARRAY, a->dtype, a->ndim,
                              (a->flags & EM_ARRAY_C_CONTIGUOUS) != 0);
        return 0;
    }
    ja->src = EMPY_JA_SCALAR;
    if (t == &PyFloat_Type) {
        ja->sdt = EM_FLOAT64;
        ja->v.f = PyFloat_AS_DOUBLE(o);
    } else if (t == &PyLong_Type) {
        int ovf = 0;
        ja->v.i = PyLong_AsLongLongAndOverflow(o, &ovf);
        ja->sdt = EM_INT64;
        if (ovf > 0) {
            /* past int64: uint64 when it fits, as NumPy types such ints */
            ja->v.u = PyLong_AsUnsignedLongLong(o);
            if (ja->v.u == (unsigned long long)-1 && PyErr_Occurred()) {
                if (!PyErr_ExceptionMatches(PyExc_OverflowError))
                    return -1;
                PyErr_Clear();
                ovf = -1;
            }
            ja->sdt = EM_UINT64;
        }
        if (ovf < 0) {
            PyErr_Format(PyExc_OverflowError, "kernel '%s' argument '%s' (position "
                         "%d): %S does not fit in 64 bits", kname, pname, i, o);
            return -1;
        } else if (ja->v.i == -1 && PyErr_Occurred()) {
            return -1;
        }
    } else if (t == &PyBool_Type) {
        ja->sdt = EM_BOOL;
        ja->v.u = o == Py_True;
    } else if (t == &PyComplex_Type) {
        ja->sdt = EM_COMPLEX128;
        ja->v.c[0] = PyComplex_RealAsDouble(o);
        ja->v.c[1] = PyComplex_ImagAsDouble(o);
    } else if (PyObject_CheckBuffer(o)) {
        return from_buffer(kname, pname, i, o, ja);
    } else if (PyFloat_Check(o)) {
        ja->sdt = EM_FLOAT64;
        if ((ja->v.f = PyFloat_AsDouble(o)) == -1.0 && PyErr_Occurred())
            return -1;
    } else if (PyLong_Check(o) && !PyBool_Check(o)) {
        int ovf = 0;
        ja->sdt = EM_INT64;
        ja->v.i = PyLong_AsLongLongAndOverflow(o, &ovf);
        if (ovf)
            return arg_error(kname, pname, i, o, "an int subclass past int64");
        if (ja->v.i == -1 && PyErr_Occurred())
            return -1;
    } else if (PyObject_HasAttrString(o, "__cuda_array_interface__")) {
        return 1;
    } else {
        return arg_error(kname, pname, i, o, "expected an ember or NumPy array or a "
                         "number");
    }
    ja->code = EMPY_JCODE(EMPY_JK_SCALAR, ja->sdt, 0, 0);
    return 0;
}

/* ---- moving arrays --------------------------------------------------------- */

static int strides_whole(const em_array *a)
{
    int64_t isz = (int64_t)em_dtype_size(a->dtype);
    int k;
    for (k = 0; k < a->ndim; k++)
        if (a->strides[k] % isz)
            return 0;
    return 1;
}

/* The host buffer's byte strides as int64 (NULL when C-contiguous). */
static const int64_t *host_strides(const empy_jarg *ja, int64_t *out)
{
    int k;
    if (PyBuffer_IsContiguous(&ja->view, 'C'))
        return NULL;
    for (k = 0; k < ja->view.ndim; k++)
        out[k] = ja->view.strides[k];
    return out;
}

int empy_jarg_prepare(empy_state *st, empy_jarg *ja, em_device *d, em_stream *s)
{
    int64_t shape[EM_MAX_NDIM], hs[EM_MAX_NDIM];
    em_dtype dt = EMPY_JCODE_DTYPE(ja->code);
    int nd = EMPY_JCODE_NDIM(ja->code), k;
    em_status rc;

    if (ja->src == EMPY_JA_EMBER) {
        if (strides_whole(ja->a))
            return 0;
        /* Strides that are not whole elements (a reinterpreted buffer):
         * the kernel gets a C-contiguous copy, copied back afterwards. */
        rc = em_array_empty(d, dt, nd, ja->a->shape, 'C', s, &ja->arr);
        if (rc == EM_OK) {
            ja->has_tmp = 1;
            rc = em_array_copy(&ja->arr, ja->a, s);
        }
        if (rc != EM_OK)
            return empy_fail(st, rc);
        ja->writeback = (ja->a->flags & EM_ARRAY_WRITEABLE) != 0;
        ja->orig = ja->a;
        ja->a = &ja->arr;
        ja->code |= 1u;
        return 0;
    }
    for (k = 0; k < nd; k++)
        shape[k] = ja->view.shape[k];
    if (em_device_get_type(d) == EM_DEVICE_CPU && !ja->view.readonly) {
        int whole = 1;
        for (k = 0; k < nd; k++)
            whole &= ja->view.strides[k] % ja->view.itemsize == 0;
        if (whole) {
            /* cpu memory is host memory: the kernel uses the buffer itself */
            em_array *a = &ja->arr;
            a->storage = NULL;
            a->device = d;
            a->data = ja->view.buf;
            a->dtype = dt;
            a->ndim = nd;
            a->flags = EM_ARRAY_WRITEABLE;
            a->size = 1;
            for (k = 0; k < nd; k++) {
                a->shape[k] = shape[k];
                a->strides[k] = ja->view.strides[k];
                a->size *= shape[k];
            }
            ja->a = a;
            return 0;
        }
    }
    rc = em_array_empty(d, dt, nd, shape, 'C', s, &ja->arr);
    if (rc != EM_OK)
        return empy_fail(st, rc);
    ja->has_tmp = 1;
    Py_BEGIN_ALLOW_THREADS
    rc = em_array_from_host(&ja->arr, ja->view.buf, host_strides(ja, hs), s);
    Py_END_ALLOW_THREADS
    if (rc != EM_OK)
        return empy_fail(st, rc);
    ja->writeback = !ja->view.readonly;
    ja->a = &ja->arr;
    ja->code |= 1u;
    return 0;
}

int empy_jarg_finish(empy_state *st, empy_jarg *ja, em_stream *s)
{
    int64_t hs[EM_MAX_NDIM];
    em_status rc;
    if (!ja->writeback)
        return 0;
    if (ja->src == EMPY_JA_HOST) {
        Py_BEGIN_ALLOW_THREADS
        rc = em_array_to_host(&ja->arr, ja->view.buf, host_strides(ja, hs), s);
        Py_END_ALLOW_THREADS
    } else {
        rc = em_array_copy((em_array *)ja->orig, &ja->arr, s);
    }
    return rc == EM_OK ? 0 : empy_fail(st, rc);
}

void empy_jarg_release(empy_jarg *ja, em_stream *s)
{
    (void)s;
    if (ja->has_tmp) {
        em_array_release(&ja->arr);
        ja->has_tmp = 0;
    }
    if (ja->has_view) {
        PyBuffer_Release(&ja->view);
        ja->has_view = 0;
    }
    Py_CLEAR(ja->owned);
}

/* ---- packing ----------------------------------------------------------------- */

static int fits_error(const char *kname, const char *pname, const empy_jarg *ja,
                      uint32_t want)
{
    char code[16];
    empy_jcode_str(want, code, sizeof code);
    if (em_dtype_get(ja->sdt)->kind == 'u')
        PyErr_Format(PyExc_OverflowError, "kernel '%s' argument '%s': %llu does not fit "
                     "the parameter's type %s", kname, pname, ja->v.u, code);
    else
        PyErr_Format(PyExc_OverflowError, "kernel '%s' argument '%s': %lld does not fit "
                     "the parameter's type %s", kname, pname, ja->v.i, code);
    return -1;
}

int empy_jarg_pack(const char *kname, const char *pname, const empy_jarg *ja,
                   uint32_t want, char *buf, size_t *off, void **argv, int *np)
{
    char *p = buf + *off;
    em_dtype wd = EMPY_JCODE_DTYPE(want);
    char sk;
    double re, im;
    long long iv;
    int is_neg, k;

    if (EMPY_JCODE_KIND(want) == EMPY_JK_ARRAY && ja->src == EMPY_JA_SCALAR) {
        /* an address for a CPointer (Dispatcher._explicit): no extent is
         * known, so the bounds are the address space's, as in Numba */
        long long n = INT64_MAX, one = 1;
        if (em_dtype_get(ja->sdt)->kind == 'i' && ja->v.i < 0) {
            PyErr_Format(PyExc_ValueError, "kernel '%s' argument '%s': the address "
                         "%lld is negative", kname, pname, ja->v.i);
            return -1;
        }
        memcpy(p, &ja->v.u, 8);
        memcpy(p + 8, &n, 8);
        memcpy(p + 16, &one, 8);
        argv[(*np)++] = p;
        argv[(*np)++] = p + 8;
        argv[(*np)++] = p + 16;
        *off += 24;
        return 0;
    }
    if (EMPY_JCODE_KIND(want) == EMPY_JK_ARRAY) {
        const em_array *a = ja->a;
        int64_t isz = (int64_t)em_dtype_size(a->dtype);
        void *data = a->data;
        memcpy(p, &data, sizeof data);
        argv[(*np)++] = p;
        p += 8;
        for (k = 0; k < a->ndim; k++, p += 8) {
            long long v = a->shape[k];
            memcpy(p, &v, 8);
            argv[(*np)++] = p;
        }
        for (k = 0; k < a->ndim; k++, p += 8) {
            long long v = a->strides[k] / isz;
            memcpy(p, &v, 8);
            argv[(*np)++] = p;
        }
        *off = (size_t)(p - buf);
        return 0;
    }

    /* a scalar: the value of its own kind, cast to the parameter's type */
    sk = em_dtype_get(ja->sdt)->kind;
    re = sk == 'u' || sk == 'b' ? (double)ja->v.u : sk == 'i' ? (double)ja->v.i
                                                                : ja->v.c[0];
    im = sk == 'c' ? ja->v.c[1] : 0.0;
    is_neg = sk == 'i' && ja->v.i < 0;
    iv = ja->v.i;
    switch (em_dtype_get(wd)->kind) {
    case 'b':
        *(unsigned char *)p = (unsigned char)(sk == 'u' || sk == 'b' || sk == 'i'
                                                  ? ja->v.u != 0 : (re != 0 || im != 0));
        break;
    case 'i': {
        size_t sz = em_dtype_size(wd);
        long long lim = sz == 8 ? 0 : 1ll << (8 * sz - 1);
        if (sk == 'u' || sk == 'b') {
            if (ja->v.u > (unsigned long long)INT64_MAX ||
                (sz < 8 && ja->v.u >= (unsigned long long)lim))
                return fits_error(kname, pname, ja, want);
            iv = (long long)ja->v.u;
        } else if (sz < 8 && (iv < -lim || iv >= lim)) {
            return fits_error(kname, pname, ja, want);
        }
        switch (sz) {
        case 1: *(int8_t *)p = (int8_t)iv; break;
        case 2: { int16_t x = (int16_t)iv; memcpy(p, &x, 2); break; }
        case 4: { int32_t x = (int32_t)iv; memcpy(p, &x, 4); break; }
        default: memcpy(p, &iv, 8); break;
        }
        break;
    }
    case 'u': {
        size_t sz = em_dtype_size(wd);
        unsigned long long uv = sk == 'i' ? (unsigned long long)iv : ja->v.u;
        if (is_neg || (sz < 8 && uv >> (8 * sz)))
            return fits_error(kname, pname, ja, want);
        switch (sz) {
        case 1: *(uint8_t *)p = (uint8_t)uv; break;
        case 2: { uint16_t x = (uint16_t)uv; memcpy(p, &x, 2); break; }
        case 4: { uint32_t x = (uint32_t)uv; memcpy(p, &x, 4); break; }
        default: memcpy(p, &uv, 8); break;
        }
        break;
    }
    case 'f':
        if (wd == EM_FLOAT64) {
            memcpy(p, &re, 8);
        } else if (wd == EM_FLOAT32) {
            float x = (float)re;
            memcpy(p, &x, 4);
        } else {
#if PY_VERSION_HEX >= 0x030B0000
            if (PyFloat_Pack2(re, p, 1) < 0)
                return -1;
#else
            PyErr_SetString(PyExc_TypeError, "float16 parameters need Python 3.11+");
            return -1;
#endif
        }
        break;
    default:
        if (wd == EM_COMPLEX64) {
            float x = (float)re, y = (float)im;
            memcpy(p, &x, 4);
            memcpy(p + 8, &y, 4);
        } else {
            memcpy(p, &re, 8);
            memcpy(p + 8, &im, 8);
        }
        argv[(*np)++] = p;
        argv[(*np)++] = p + 8;
        *off += 16;
        return 0;
    }
    argv[(*np)++] = p;
    *off += 8;
    return 0;
}
