"""ember.scipy.ndimage's generic_filter and generic_filter1d (re-exported
by ember.scipy.ndimage), as cupyx has them: the function is an
ember.RawKernel whose C body runs once an output element (once a line
for generic_filter1d), never a Python callable, since ember runs no
Python per element. Its source becomes a __device__ function of a
generated kernel that gathers the footprint's values (the line, extended
by the mode) into a buffer and calls it:

    generic_filter:   (const double *buffer, int filter_size,
                       double *return_value)
    generic_filter1d: (const double *input_line, ptrdiff_t input_length,
                       double *output_line, ptrdiff_t output_length)

(the parameters' exact types are the user's: the call converts). The
generated module is kept per function source, name, footprint size and
device."""
import re

import ember as _e
from ember._api._util import as_array as _arr
from ember.scipy import _kernels

__all__ = ["generic_filter", "generic_filter1d"]

_CACHE = {}
_GLOBAL = re.compile(r'extern\s+"C"\s+__global__|__global__')


def _user(function, who):
    if not isinstance(function, _e.RawKernel):
        raise TypeError(
            f"{who}: function must be an ember.RawKernel (as cupyx's "
            f"{who} takes a cupy.RawKernel); ember does not call a Python "
            f"function once an element. Got {type(function).__name__}.")
    return function.code, function.name


def _module(dev, code, name, body, n):
    key = (str(dev), code, name, body, n)
    m = _CACHE.get(key)
    if m is None:
        src = _kernels.source("ndindex.cuh") + "\n" + \
            _GLOBAL.sub("__device__", code) + "\n" + \
            body.replace("USER", name).replace("EM_GF_N", str(max(n, 1)))
        with dev:
            m = _e.RawModule(code=src)
        if len(_CACHE) >= 64:
            _CACHE.clear()
        _CACHE[key] = m
    return m


_BODY_ND = r'''
extern "C" __global__ void em_generic_filter(
    const double *x, double *y, long long d0, long long d1, long long d2,
    const long long *off, int noff, int mode, double cval)
{
    double buf[EM_GF_N];
    long long total = d0 * d1 * d2;
    for (long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;
         e < total; e += (long long)gridDim.x * blockDim.x) {
        long long c = e % d2, b = (e / d2) % d1, a = e / (d1 * d2);
        for (int k = 0; k < noff; k++) {
            long long p = em_nd_index(a + off[3 * k], d0, mode),
                      q = em_nd_index(b + off[3 * k + 1], d1, mode),
                      s = em_nd_index(c + off[3 * k + 2], d2, mode);
            buf[k] = p < 0 || q < 0 || s < 0 ? cval
                                             : x[(p * d1 + q) * d2 + s];
        }
        double r = 0.0;
        USER(buf, noff, &r);
        y[e] = r;
    }
}
'''

_BODY_1D = r'''
extern "C" __global__ void em_generic_filter1d(
    const double *x, double *y, long long outer, long long n,
    long long inner, int size, long long shift, int mode, double cval,
    double *ibuf, double *obuf)
{
    long long lines = outer * inner, L = n + size - 1;
    for (long long l = (long long)blockIdx.x * blockDim.x + threadIdx.x;
         l < lines; l += (long long)gridDim.x * blockDim.x) {
        long long o = l / inner, r = l % inner;
        const double *xl = x + o * n * inner + r;
        double *in = ibuf + l * L, *out = obuf + l * n;
        for (long long i = 0; i < L; i++) {
            long long q = em_nd_index(i - shift, n, mode);
            in[i] = q < 0 ? cval : xl[q * inner];
        }
        USER(in, L, out, n);
        for (long long i = 0; i < n; i++)
            y[o * n * inner + r + i * inner] = out[i];
    }
}
'''


def generic_filter(input, function, size=None, footprint=None, output=None,
                   mode="reflect", cval=0.0, origin=0):
    """scipy.ndimage.generic_filter with an ember.RawKernel function (1 to
    3 dimensions, footprints of up to 4096 elements): the function gets
    the footprint's values (float64, C order) and writes the output."""
    import numpy
    from ember.scipy.ndimage_filters import (_finish, _footprint, _mode,
                                             _offsets)
    code, name = _user(function, "generic_filter")
    x = _arr(input)
    if x.ndim > 3 or x.ndim == 0:
        raise NotImplementedError("ember.scipy.ndimage.generic_filter: 1 to "
                                  "3 dimensions for now")
    f = _footprint(x, size, footprint)
    n = int(f.sum())
    if n > 4096:
        raise NotImplementedError("generic_filter: footprints of at most "
                                  "4096 elements for now")
    offs = _offsets(f, origin, x.ndim)
    src = _e.ascontiguousarray(x.astype(_e.float64))
    y = _e.empty(x.shape, dtype=_e.float64, device=x.device)
    if x.size:
        m = _module(x.device, code, name, _BODY_ND, n)
        d = (1,) * (3 - x.ndim) + x.shape
        k = m.get_function("em_generic_filter")
        blocks = max(1, min((x.size + 255) // 256, 65536))
        with x.device:
            k((blocks,), (256,), (src, y) +
              tuple(numpy.int64(v) for v in d) +
              (_e.asarray(numpy.array(offs or [0], numpy.int64),
                          device=x.device),
               numpy.int32(n), numpy.int32(_mode(mode)),
               numpy.float64(cval)))
    return _finish(y, x, output)


def generic_filter1d(input, function, filter_size, axis=-1, output=None,
                     mode="reflect", cval=0.0, origin=0):
    """scipy.ndimage.generic_filter1d with an ember.RawKernel function: it
    gets each line along axis extended by filter_size - 1 values as the
    mode says (float64) and writes the line's output, one thread a
    line."""
    import numpy
    from ember.scipy.ndimage_filters import (_axis, _finish, _line, _mode,
                                             _shift)
    code, name = _user(function, "generic_filter1d")
    x = _arr(input)
    if filter_size < 1:
        raise RuntimeError("invalid filter size")
    axis = _axis(axis, x.ndim)
    shift = _shift(filter_size, origin)
    src = _e.ascontiguousarray(x.astype(_e.float64))
    y = _e.empty(x.shape, dtype=_e.float64, device=x.device)
    if x.size:
        outer, n, inner = _line(x, axis)
        lines = outer * inner
        ib = _e.empty(lines * (n + filter_size - 1), dtype=_e.float64,
                      device=x.device)
        ob = _e.empty(lines * n, dtype=_e.float64, device=x.device)
        m = _module(x.device, code, name, _BODY_1D, 0)
        k = m.get_function("em_generic_filter1d")
        blocks = max(1, min((lines + 127) // 128, 65536))
        with x.device:
            k((blocks,), (128,), (src, y, numpy.int64(outer), numpy.int64(n),
                                  numpy.int64(inner),
                                  numpy.int32(filter_size),
                                  numpy.int64(shift),
                                  numpy.int32(_mode(mode)),
                                  numpy.float64(cval), ib, ob))
    return _finish(y, x, output)
