"""ember.scipy.ndimage's filters (re-exported by ember.scipy.ndimage):
correlate1d and convolve1d, correlate and convolve (up to 3 dimensions),
gaussian, uniform, minimum and maximum filters (1-D passes along each
axis, as SciPy's), sobel, prewitt and laplace, on every device. The work
is kernels/ndfilter1d.cuh (the 1-D passes, a tile of a line in shared
memory) and ndfilter.cuh, in float64 as SciPy's line buffers are; the
output has the input's dtype unless output= says otherwise, a float
result cast to an integer dtype as C casts (towards zero), after each
pass, as SciPy's."""
import math
import ember as _e
from ember._api._util import as_array as _arr
from ember.scipy import _kernels
from ember._api._util import normalize_axis

__all__ = ["correlate1d", "convolve1d", "correlate", "convolve",
           "gaussian_filter1d", "gaussian_filter", "uniform_filter1d",
           "uniform_filter", "minimum_filter1d", "maximum_filter1d",
           "minimum_filter", "maximum_filter", "sobel", "prewitt", "laplace",
           "rank_filter", "median_filter", "percentile_filter",
           "generic_laplace", "generic_gradient_magnitude",
           "gaussian_laplace", "gaussian_gradient_magnitude",
           "distance_transform_edt", "distance_transform_bf"]

_MODES = {"reflect": 0, "grid-mirror": 0, "mirror": 1, "nearest": 2,
          "wrap": 3, "grid-wrap": 3, "constant": 4, "grid-constant": 4}


def _launch(dev, name, n, args):
    _kernels.launch(dev, "ndfilter.cuh", name, n, args)


def _mode(mode):
    if mode not in _MODES:
        raise RuntimeError(f"boundary mode not supported: {mode!r}")
    return _MODES[mode]


def _axis(axis, ndim):
    return normalize_axis(axis, ndim)


def _finish(y, like, output):
    """y (float64) as the output: the input's dtype, output's dtype, or
    written into output."""
    return _deliver(y.astype(_out_dtype(output, like), copy=False), output)


def _line(x, axis):
    """x's (outer, n, inner) sizes along axis."""
    return (math.prod(x.shape[:axis]), x.shape[axis],
            math.prod(x.shape[axis + 1:]))


# em_filter1d_tile's instances: input as float32 or float64, output too
_F1_TYPES = ("float32", "float64")
_F1_NAMES = {(i, o): "em_filter1d_tile<%s, %s>" % (
    {"float32": "float", "float64": "double"}[i],
    {"float32": "float", "float64": "double"}[o])
    for i in _F1_TYPES for o in _F1_TYPES}


def _symmetry(w):
    """SciPy's test of correlate1d's weights: 1 symmetric, -1
    antisymmetric (an odd count, within DBL_EPSILON), else 0; it picks
    the order of the kernel's sum."""
    import numpy
    n = w.size
    if not n & 1:
        return 0
    c = n // 2
    lo, hi = w[c - 1::-1] if c else w[:0], w[c + 1:]
    eps = numpy.finfo(numpy.float64).eps
    if numpy.all(numpy.abs(hi - lo) <= eps):
        return 1
    if numpy.all(numpy.abs(hi + lo) <= eps):
        return -1
    return 0


def _pass1d(x, axis, w, size, shift, mode, cval, op, out, sym=0):
    """One pass of kernels/ndfilter1d.cuh along axis (op 0 correlates with
    w, 1 and 2 take the minimum and maximum over size), summed in double;
    the result in dtype out where the kernel writes it (float32, float64),
    else float64 for _finish to cast. A float32 input is read as it is
    unless constant mode's cval has no float32 of the same value (the
    tile holds the input's type)."""
    import numpy
    tin = x.dtype.name if x.dtype.name in _F1_TYPES else "float64"
    if tin == "float32" and mode == 4 and \
            not float(numpy.float32(cval)) == float(cval):
        tin = "float64"
    tout = _e.dtype(out).name
    tout = tout if tout in _F1_TYPES else "float64"
    src = _e.ascontiguousarray(x.astype(tin, copy=False))
    y = _e.empty(x.shape, dtype=tout, device=x.device)
    if not x.size:
        return y
    outer, n, inner = _line(x, axis)
    bx = 1 << min(5, (inner - 1).bit_length())  # a power of two, up to 32
    by = 256 // bx
    tn, sz = 8 * by, numpy.dtype(tin).itemsize
    # the weights (8 bytes) and (tn + cl - 1) x bx values within 48 KiB
    cl = min(size, (49152 - (tn - 1) * bx * sz) // (8 + bx * sz))
    shared = 8 * cl + (tn + cl - 1) * bx * sz
    tiles = outer * -(-n // tn) * -(-inner // bx)
    _kernels.launch_tiles(
        x.device, "ndfilter1d.cuh", _F1_NAMES[tin, tout], tiles, (bx, by),
        shared, (src, y, numpy.int64(outer), numpy.int64(n),
                 numpy.int64(inner), w, numpy.int32(size),
                 numpy.int64(shift), numpy.int32(mode), numpy.float64(cval),
                 numpy.int32(op), numpy.int32(cl), numpy.int32(sym)),
        name_expressions=_F1_NAMES.values())
    return y


def _shift(size, origin):
    if not -(size // 2) <= origin <= (size - 1) // 2:
        raise ValueError("invalid origin")
    return size // 2 + origin


_WEIGHTS = {}


def _device_weights(w, device):
    """The float64 weights w on device, kept for their next use: a
    filter's weights are few and repeat (gaussian_filter's along every
    axis and call), and each upload from pageable memory waits for the
    device, which idled it between passes."""
    key = (w.tobytes(), str(device))
    got = _WEIGHTS.get(key)
    if got is None:
        if len(_WEIGHTS) >= 64:
            _WEIGHTS.clear()
        got = _WEIGHTS[key] = _e.asarray(w, device=device)
    return got


def correlate1d(input, weights, axis=-1, output=None, mode="reflect",
                cval=0.0, origin=0):
    """scipy.ndimage.correlate1d: out[i] = sum_j w[j] x[i + j - size//2 -
    origin] along axis."""
    import numpy
    x = _arr(input)
    # contiguous: the kernel reads the weights from their first element on
    w = numpy.ascontiguousarray(
        _e.asnumpy(weights) if isinstance(weights, _e.ndarray) else weights,
        numpy.float64)
    if w.ndim != 1 or w.size < 1:
        raise RuntimeError("no filter weights given")
    axis = _axis(axis, x.ndim)
    wd = _device_weights(w, x.device)
    y = _pass1d(x, axis, wd, w.size, _shift(w.size, origin), _mode(mode),
                cval, 0, _out_dtype(output, x), _symmetry(w))
    return _finish(y, x, output)


def convolve1d(input, weights, axis=-1, output=None, mode="reflect",
               cval=0.0, origin=0):
    """scipy.ndimage.convolve1d: correlate1d with the weights reversed
    (and the origin moved so an even filter lines up as SciPy's)."""
    import numpy
    w = numpy.asarray(_e.asnumpy(weights) if isinstance(weights, _e.ndarray)
                      else weights, numpy.float64)[::-1]
    origin = -origin
    if not w.size & 1:
        origin -= 1
    return correlate1d(input, w, axis, output, mode, cval, origin)


def _nd_weights(weights, ndim):
    import numpy
    w = numpy.asarray(_e.asnumpy(weights) if isinstance(weights, _e.ndarray)
                      else weights, numpy.float64)
    if w.ndim != ndim:
        raise RuntimeError("filter weights array has incorrect shape.")
    return w


def _origins(origin, ndim):
    return [origin] * ndim if isinstance(origin, int) else list(origin)


def correlate(input, weights, output=None, mode="reflect", cval=0.0,
              origin=0):
    """scipy.ndimage.correlate: the N-dimensional correlation (up to 3
    dimensions), zero weights left out as SciPy leaves them."""
    import numpy
    x = _arr(input)
    if x.ndim > 3 or x.ndim == 0:
        raise NotImplementedError("ember.scipy.ndimage.correlate: 1 to 3 "
                                  "dimensions for now")
    w = _nd_weights(weights, x.ndim)
    org = _origins(origin, x.ndim)
    pad = 3 - x.ndim
    d = (1,) * pad + x.shape
    k = (1,) * pad + w.shape
    s = [0] * pad + [_shift(n, o) for n, o in zip(w.shape, org)]
    src = _e.ascontiguousarray(x.astype(_e.float64))
    y = _e.empty(x.shape, dtype=_e.float64, device=x.device)
    if x.size:
        wd = _device_weights(numpy.ascontiguousarray(w), x.device)
        _launch(x.device, "em_correlate3d", x.size,
                (src, y) + tuple(numpy.int64(v) for v in d) + (wd,) +
                tuple(numpy.int64(v) for v in k) +
                tuple(numpy.int64(v) for v in s) +
                (numpy.int32(_mode(mode)), numpy.float64(cval)))
    return _finish(y, x, output)


def convolve(input, weights, output=None, mode="reflect", cval=0.0,
             origin=0):
    """scipy.ndimage.convolve: correlate with the weights reversed."""
    x = _arr(input)
    w = _nd_weights(weights, x.ndim)
    org = _origins(origin, x.ndim)
    org = [-o - (0 if n & 1 else 1) for o, n in zip(org, w.shape)]
    return correlate(x, w[(slice(None, None, -1),) * w.ndim], output, mode,
                     cval, org)


def _gaussian_weights(sigma, order, radius):
    import numpy
    x = numpy.arange(-radius, radius + 1)
    phi = numpy.exp(-0.5 / (sigma * sigma) * x ** 2)
    phi /= phi.sum()
    if order == 0:
        return phi
    # the order-th derivative: phi times a polynomial in x, as SciPy builds
    exponent = numpy.arange(order + 1)
    q = numpy.zeros(order + 1)
    q[0] = 1
    D = numpy.diag(exponent[1:], 1)
    P = numpy.diag(numpy.ones(order) / -sigma ** 2, -1)
    Q = D + P
    for _ in range(order):
        q = Q.dot(q)
    return (x[:, None] ** exponent).dot(q) * phi


def gaussian_filter1d(input, sigma, axis=-1, order=0, output=None,
                      mode="reflect", cval=0.0, truncate=4.0, *, radius=None):
    """scipy.ndimage.gaussian_filter1d: the Gaussian of standard deviation
    sigma (radius int(truncate * sigma + 0.5)), or its order-th
    derivative, along axis."""
    if order < 0:
        raise ValueError("order must be non-negative")
    lw = int(truncate * float(sigma) + 0.5) if radius is None else radius
    if lw < 0:
        raise ValueError("Radius must be a nonnegative integer.")
    w = _gaussian_weights(float(sigma), order, lw)[::-1]
    return correlate1d(input, w, axis, output, mode, cval, 0)


def _per_axis(v, ndim):
    return list(v) if isinstance(v, (list, tuple)) else [v] * ndim


def _out_dtype(output, x):
    """The dtype output= asks for: its own (an array or a dtype), or x's."""
    if output is None:
        return x.dtype
    return output.dtype if isinstance(output, _e.ndarray) else _e.dtype(output)


def _deliver(y, output):
    if isinstance(output, _e.ndarray):
        output[...] = y
        return output
    return y


def _separable(x, output, passes):
    """One 1-D pass an axis, each result in the output's dtype, as SciPy
    keeps its intermediates."""
    t = _out_dtype(output, x)
    y = x.astype(t) if not passes else x
    for f in passes:
        y = f(y, t)
    return _deliver(y, output)


def gaussian_filter(input, sigma, order=0, output=None, mode="reflect",
                    cval=0.0, truncate=4.0, *, radius=None, axes=None):
    """scipy.ndimage.gaussian_filter: gaussian_filter1d along each axis
    (sigma, order, mode per axis or for all)."""
    x = _arr(input)
    axes = list(range(x.ndim)) if axes is None else \
        [_axis(a, x.ndim) for a in _per_axis(axes, 1)]
    n = len(axes)
    sig, od, md, rd = (_per_axis(sigma, n), _per_axis(order, n),
                       _per_axis(mode, n), _per_axis(radius, n))
    passes = [(lambda y, t, a=a, s=s, o=o, m=m, r=r: gaussian_filter1d(
        y, s, a, o, t, m, cval, truncate, radius=r))
        for a, s, o, m, r in zip(axes, sig, od, md, rd) if s > 1e-15]
    return _separable(x, output, passes)


def _box(input, size, output, mode, cval, origin, axes, one):
    """A box filter as one(y, size, axis, dtype, mode, origin) passes
    along each axis whose size is over 1 (size, mode, origin per axis or
    for all)."""
    x = _arr(input)
    axes = list(range(x.ndim)) if axes is None else \
        [_axis(a, x.ndim) for a in _per_axis(axes, 1)]
    n = len(axes)
    sz, md, og = _per_axis(size, n), _per_axis(mode, n), _per_axis(origin, n)
    if not len(sz) == len(md) == len(og) == n:
        raise RuntimeError("sequence argument must have length equal to "
                           "input rank")
    passes = [(lambda y, t, a=a, s=s, m=m, o=o: one(y, s, a, t, m, o))
              for a, s, m, o in zip(axes, sz, md, og) if s > 1]
    return _separable(x, output, passes)


def uniform_filter1d(input, size, axis=-1, output=None, mode="reflect",
                     cval=0.0, origin=0):
    """scipy.ndimage.uniform_filter1d: the mean over size elements."""
    import numpy
    if size < 1:
        raise RuntimeError("incorrect filter size")
    # the window's sum over size, as SciPy's running sum divides (a sum
    # of x / size would round 84 / 3 to 27.999... and an int to 27)
    x = _arr(input)
    total = correlate1d(x, numpy.ones(size), axis, _e.float64, mode, cval,
                        origin)
    return _finish(total / size, x, output)


def uniform_filter(input, size=3, output=None, mode="reflect", cval=0.0,
                   origin=0, *, axes=None):
    """scipy.ndimage.uniform_filter: uniform_filter1d along each axis."""
    return _box(input, size, output, mode, cval, origin, axes,
                lambda y, s, a, t, m, o: uniform_filter1d(y, s, a, t, m,
                                                          cval, o))


def _minmax1d(input, size, axis, output, mode, cval, origin, ismax):
    x = _arr(input)
    if size < 1:
        raise RuntimeError("incorrect filter size")
    axis = _axis(axis, x.ndim)
    # op 1 (minimum) or 2 (maximum); no weights read
    y = _pass1d(x, axis, _e.zeros(1, device=x.device), size,
                _shift(size, origin), _mode(mode), cval, 1 + ismax,
                _out_dtype(output, x))
    return _finish(y, x, output)


def minimum_filter1d(input, size, axis=-1, output=None, mode="reflect",
                     cval=0.0, origin=0):
    """scipy.ndimage.minimum_filter1d."""
    return _minmax1d(input, size, axis, output, mode, cval, origin, 0)


def maximum_filter1d(input, size, axis=-1, output=None, mode="reflect",
                     cval=0.0, origin=0):
    """scipy.ndimage.maximum_filter1d."""
    return _minmax1d(input, size, axis, output, mode, cval, origin, 1)


def _minmax(input, size, footprint, output, mode, cval, origin, ismax,
            axes, structure=None):
    """SciPy's _min_or_max_filter: a box (size, or a footprint of all
    ones) as 1-D passes; any other footprint, or a structure (grey
    morphology: its values subtracted for the minimum, added for the
    maximum), by em_minmax3d over the footprint's offsets."""
    import numpy
    if size is not None and footprint is not None:
        import warnings
        warnings.warn("ignoring size because footprint is set",
                      UserWarning, stacklevel=3)
    if structure is None and footprint is not None:
        f = numpy.asarray(_e.asnumpy(footprint) if isinstance(
            footprint, _e.ndarray) else footprint, bool)
        if not f.any():
            raise ValueError("All-zero footprint is not supported.")
        if f.all():
            size, footprint = f.shape, None
    if structure is None and footprint is None:
        if size is None:
            raise RuntimeError("no footprint provided")
        return _box(input, size, output, mode, cval, origin, axes,
                    lambda y, s, a, t, m, o: _minmax1d(y, s, a, t, m, cval,
                                                       o, ismax))
    x = _arr(input)
    if axes is not None:
        raise NotImplementedError("minimum_filter/maximum_filter: axes= "
                                  "with a footprint or structure")
    sv = None
    if structure is not None:
        sv = numpy.asarray(_e.asnumpy(structure) if isinstance(
            structure, _e.ndarray) else structure, numpy.float64)
        if sv.ndim != x.ndim:
            raise RuntimeError("structure array has incorrect shape")
        f = numpy.ones(sv.shape, bool) if footprint is None else \
            numpy.asarray(_e.asnumpy(footprint) if isinstance(
                footprint, _e.ndarray) else footprint, bool)
    if f.ndim != x.ndim:
        raise RuntimeError("footprint array has incorrect shape.")
    if x.ndim > 3 or x.ndim == 0:
        raise NotImplementedError("minimum_filter/maximum_filter with a "
                                  "footprint: 1 to 3 dimensions for now")
    offs = _offsets(f, origin, x.ndim)
    vals = numpy.zeros(len(offs) // 3) if sv is None else sv[f]
    src = _e.ascontiguousarray(x.astype(_e.float64))
    y = _e.empty(x.shape, dtype=_e.float64, device=x.device)
    if x.size:
        d = (1,) * (3 - x.ndim) + x.shape
        _launch(x.device, "em_minmax3d", x.size,
                (src, y) + tuple(numpy.int64(v) for v in d) +
                (_e.asarray(numpy.array(offs, numpy.int64), device=x.device),
                 _e.asarray(numpy.ascontiguousarray(vals), device=x.device),
                 numpy.int32(len(vals)), numpy.int32(ismax),
                 numpy.int32(_mode(mode)), numpy.float64(cval)))
    return _finish(y, x, output)


def _offsets(f, origin, ndim):
    """The footprint's set elements as (3 x count) offsets from the output
    element, in C order, padded to three dimensions."""
    import numpy
    org = _origins(origin, ndim)
    if len(org) != ndim:
        raise RuntimeError("origin must have one value per axis")
    offs = []
    for c in numpy.argwhere(f):
        o = [int(v) - _shift(sz, og) for v, sz, og in zip(c, f.shape, org)]
        offs.extend([0] * (3 - ndim) + o)
    return offs


def minimum_filter(input, size=None, footprint=None, output=None,
                   mode="reflect", cval=0.0, origin=0, *, axes=None):
    """scipy.ndimage.minimum_filter over a box of `size` or a
    footprint."""
    return _minmax(input, size, footprint, output, mode, cval, origin, 0,
                   axes)


def maximum_filter(input, size=None, footprint=None, output=None,
                   mode="reflect", cval=0.0, origin=0, *, axes=None):
    """scipy.ndimage.maximum_filter over a box of `size` or a
    footprint."""
    return _minmax(input, size, footprint, output, mode, cval, origin, 1,
                   axes)


def _edge(input, axis, output, mode, cval, smooth):
    """sobel ([1, 2, 1] smoothing) and prewitt ([1, 1, 1]): the
    derivative [-1, 0, 1] along axis, smoothing along the others."""
    x = _arr(input)
    axis = _axis(axis, x.ndim)
    t = _out_dtype(output, x)
    y = correlate1d(x, [-1, 0, 1], axis, t, mode, cval, 0)
    for a in range(x.ndim):
        if a != axis:
            y = correlate1d(y, smooth, a, t, mode, cval, 0)
    return _deliver(y, output)


def sobel(input, axis=-1, output=None, mode="reflect", cval=0.0):
    """scipy.ndimage.sobel."""
    return _edge(input, axis, output, mode, cval, [1, 2, 1])


def prewitt(input, axis=-1, output=None, mode="reflect", cval=0.0):
    """scipy.ndimage.prewitt."""
    return _edge(input, axis, output, mode, cval, [1, 1, 1])


def laplace(input, output=None, mode="reflect", cval=0.0):
    """scipy.ndimage.laplace: the sum of the second differences [1, -2, 1]
    along each axis."""
    x = _arr(input)
    t = _out_dtype(output, x)
    y = x.astype(t) if x.ndim == 0 else None
    for a in range(x.ndim):
        d = correlate1d(x, [1, -2, 1], a, t, mode, cval, 0)
        y = d if y is None else (y + d).astype(t, copy=False)
    return _deliver(y, output)


def _get_output(output, x):
    """SciPy's _get_output: output itself (an array) or a new array of
    its dtype (default x's), for the generic filters' callbacks to write
    into."""
    if isinstance(output, _e.ndarray):
        if tuple(output.shape) != tuple(x.shape):
            raise RuntimeError("output shape not correct")
        return output
    return _e.empty(x.shape, dtype=_out_dtype(output, x), device=x.device)


def _generic(x, derivative, output, mode, cval, extra_arguments,
             extra_keywords, axes, square):
    """generic_laplace (the sum of derivative's results along each axis)
    and generic_gradient_magnitude (the root of the sum of their squares),
    as SciPy calls derivative: into output first, then returning new
    arrays of output's dtype."""
    kw = {} if extra_keywords is None else extra_keywords
    axes = list(range(x.ndim)) if axes is None else \
        [_axis(a, x.ndim) for a in _per_axis(axes, 1)]
    out = _get_output(output, x)
    if not axes:
        out[...] = x
        return out
    modes = _per_axis(mode, len(axes))
    if len(modes) != len(axes):
        raise RuntimeError("sequence argument must have length equal to "
                           "input rank")
    derivative(x, axes[0], out, modes[0], cval, *extra_arguments, **kw)
    if square:
        out[...] = out * out
    for a, m in zip(axes[1:], modes[1:]):
        t = _arr(derivative(x, a, out.dtype, m, cval, *extra_arguments,
                            **kw))
        out[...] = out + t * t if square else out + t
    if square:
        out[...] = _e.sqrt(out)
    return out


def generic_laplace(input, derivative2, output=None, mode="reflect",
                    cval=0.0, extra_arguments=(), extra_keywords=None, *,
                    axes=None):
    """scipy.ndimage.generic_laplace: the sum over the axes of
    derivative2(input, axis, output, mode, cval, *extra_arguments,
    **extra_keywords), a function of ember arrays (the callback runs once
    an axis, on whole arrays)."""
    return _generic(_arr(input), derivative2, output, mode, cval,
                    extra_arguments, extra_keywords, axes, False)


def generic_gradient_magnitude(input, derivative, output=None,
                               mode="reflect", cval=0.0, extra_arguments=(),
                               extra_keywords=None, *, axes=None):
    """scipy.ndimage.generic_gradient_magnitude: the root of the sum of
    the squared derivative(input, axis, ...) over the axes (sobel and
    prewitt fit its signature)."""
    return _generic(_arr(input), derivative, output, mode, cval,
                    extra_arguments, extra_keywords, axes, True)


def _gaussian_derivative(input, sigma, output, mode, cval, axes, kwargs,
                         order, square):
    x = _arr(input)
    axes_l = list(range(x.ndim)) if axes is None else \
        [_axis(a, x.ndim) for a in _per_axis(axes, 1)]
    sig = _per_axis(sigma, len(axes_l))
    if len(sig) != len(axes_l):
        raise RuntimeError("sequence argument must have length equal to "
                           "input rank")
    full = [0.0] * x.ndim
    for s, a in zip(sig, axes_l):
        full[a] = s

    def derivative(y, axis, out, m, c, sigma, **kw):
        od = [0] * y.ndim
        od[axis] = order
        return gaussian_filter(y, sigma, od, out, m, c, **kw)
    return _generic(x, derivative, output, mode, cval, (full,), kwargs,
                    axes_l, square)


def gaussian_laplace(input, sigma, output=None, mode="reflect", cval=0.0,
                     *, axes=None, **kwargs):
    """scipy.ndimage.gaussian_laplace: the sum of the second Gaussian
    derivatives along each axis."""
    return _gaussian_derivative(input, sigma, output, mode, cval, axes,
                                kwargs, 2, False)


def gaussian_gradient_magnitude(input, sigma, output=None, mode="reflect",
                                cval=0.0, *, axes=None, **kwargs):
    """scipy.ndimage.gaussian_gradient_magnitude: the root of the sum of
    the squared first Gaussian derivatives."""
    return _gaussian_derivative(input, sigma, output, mode, cval, axes,
                                kwargs, 1, True)


def _footprint(x, size, footprint):
    import numpy
    if footprint is None:
        if size is None:
            raise RuntimeError("no footprint provided")
        return numpy.ones(_per_axis(size, x.ndim), bool)
    f = numpy.asarray(_e.asnumpy(footprint) if isinstance(footprint,
                                                          _e.ndarray)
                      else footprint, bool)
    if f.ndim != x.ndim:
        raise RuntimeError("footprint array has incorrect shape.")
    return f


def _rank(input, rank, size, footprint, output, mode, cval, origin, who):
    """The rank-th smallest under the footprint (negative ranks from the
    top, as SciPy's), kernels/ndfilter.cuh's em_rank3d."""
    import numpy
    x = _arr(input)
    if x.ndim > 3 or x.ndim == 0:
        raise NotImplementedError(f"ember.scipy.ndimage.{who}: 1 to 3 "
                                  "dimensions for now")
    f = _footprint(x, size, footprint)
    n = int(f.sum())
    if rank < 0:
        rank += n
    if not 0 <= rank < n:
        raise RuntimeError("rank not within filter footprint size")
    if n > 343:
        raise NotImplementedError(f"{who}: footprints of at most 343 "
                                  "elements for now")
    offs = _offsets(f, origin, x.ndim)
    d = (1,) * (3 - x.ndim) + x.shape
    src = _e.ascontiguousarray(x.astype(_e.float64))
    y = _e.empty(x.shape, dtype=_e.float64, device=x.device)
    if x.size:
        od = _e.asarray(numpy.array(offs, numpy.int64), device=x.device)
        _launch(x.device, "em_rank3d", x.size,
                (src, y) + tuple(numpy.int64(v) for v in d) +
                (od, numpy.int32(n), numpy.int32(rank),
                 numpy.int32(_mode(mode)), numpy.float64(cval)))
    return _finish(y, x, output)


def rank_filter(input, rank, size=None, footprint=None, output=None,
                mode="reflect", cval=0.0, origin=0):
    """scipy.ndimage.rank_filter: the rank-th smallest under the
    footprint (up to 343 elements)."""
    return _rank(input, rank, size, footprint, output, mode, cval, origin,
                 "rank_filter")


def median_filter(input, size=None, footprint=None, output=None,
                  mode="reflect", cval=0.0, origin=0):
    """scipy.ndimage.median_filter: rank size // 2 of the footprint."""
    x = _arr(input)
    n = int(_footprint(x, size, footprint).sum())
    return _rank(x, n // 2, size, footprint, output, mode, cval, origin,
                 "median_filter")


def percentile_filter(input, percentile, size=None, footprint=None,
                      output=None, mode="reflect", cval=0.0, origin=0):
    """scipy.ndimage.percentile_filter: the rank of the percentile."""
    x = _arr(input)
    n = int(_footprint(x, size, footprint).sum())
    if percentile < 0.0:
        percentile += 100.0
    if not 0 <= percentile <= 100:
        raise RuntimeError("invalid percentile")
    rank = n - 1 if percentile == 100.0 else int(float(n) * percentile / 100.0)
    return _rank(x, rank, size, footprint, output, mode, cval, origin,
                 "percentile_filter")


def _transform_outputs(return_distances, return_indices, distances,
                       indices):
    """SciPy's checks of what a distance transform is asked to return;
    (distances given, indices given)."""
    dt_in = isinstance(distances, _e.ndarray)
    ft_in = isinstance(indices, _e.ndarray)
    if not (return_distances or return_indices):
        raise RuntimeError("at least one of return_distances/return_indices "
                           "must be True")
    if dt_in and not return_distances:
        raise RuntimeError("return_distances must be True if distances is "
                           "supplied")
    if ft_in and not return_indices:
        raise RuntimeError("return_indices must be True if indices is "
                           "supplied")
    return dt_in, ft_in


def _transform_result(x, dist, ft, return_distances, return_indices,
                      distances, indices, error):
    """A distance transform's answer as SciPy gives it: the distances and
    the nearest zero's coordinates (from its flat index ft), each written
    into distances=/indices= when given and returned otherwise (a pair,
    one array or None). error: SciPy's class for a bad indices=, which
    differs between its transforms."""
    result = []
    if return_distances:
        if isinstance(distances, _e.ndarray):
            distances[...] = dist
        else:
            result.append(dist)
    if return_indices:
        given = isinstance(indices, _e.ndarray)
        if given:
            if indices.dtype != _e.int32:
                raise error("indices array must be int32")
            if tuple(indices.shape) != (x.ndim,) + tuple(x.shape):
                raise error("indices array has wrong shape")
        c = _e.indices(x.shape, dtype=_e.int32, device=x.device)
        idx = _e.stack([c[k].reshape(-1)[ft.reshape(-1)].reshape(x.shape)
                        for k in range(x.ndim)]) if x.ndim else c
        if given:
            indices[...] = idx
        else:
            result.append(idx)
    if len(result) == 2:
        return tuple(result)
    return result[0] if result else None


def distance_transform_edt(input, sampling=None, return_distances=True,
                           return_indices=False, distances=None,
                           indices=None):
    """scipy.ndimage.distance_transform_edt: each non-zero element's
    Euclidean distance to the nearest zero one (sampling: the spacing
    along each axis), as squared distances minimised along one axis after
    another (em_edt_pass), then the square root; with return_indices the
    coordinates of that zero (int32, shape (ndim,) + input.shape), carried
    along by the same passes. Where two zeros are equally near, the one
    named may differ from SciPy's; its distance does not."""
    import numpy
    if not (return_distances or return_indices):
        raise RuntimeError("at least one of return_distances/return_indices "
                           "must be True")
    x = _arr(input)
    w = [1.0] * x.ndim if sampling is None else [float(v) for v in
                                                    _per_axis(sampling, x.ndim)]
    if len(w) != x.ndim:
        raise RuntimeError("sequence argument must have length equal to "
                           "input rank")
    want_ix = return_indices or indices is not None
    if indices is not None:
        if not isinstance(indices, _e.ndarray) or indices.dtype != _e.int32:
            raise RuntimeError("indices array must be int32")
        if indices.shape != (x.ndim,) + x.shape:
            raise RuntimeError("indices array has wrong shape")
    f = _e.where(x != 0, _e.inf, 0.0).astype(_e.float64)
    f = _e.ascontiguousarray(f)
    ix = (_e.ascontiguousarray(_e.indices(x.shape, dtype=_e.int32,
                                          device=x.device))
          if want_ix else _e.empty(1, dtype=_e.int32, device=x.device))
    for axis in range(x.ndim):
        if not x.size:
            break
        outer, n, inner = _line(x, axis)
        lines = outer * inner
        v = _e.empty(lines * n, dtype=_e.int32, device=x.device)
        z = _e.empty(lines * (n + 1), dtype=_e.float64, device=x.device)
        out = _e.empty(x.shape, dtype=_e.float64, device=x.device)
        ix_out = _e.empty_like(ix) if want_ix else ix
        _launch(x.device, "em_edt_pass", lines,
                (f, out, numpy.int64(outer), numpy.int64(n),
                 numpy.int64(inner), numpy.float64(w[axis] ** 2), v, z, ix,
                 ix_out, numpy.int32(x.ndim if want_ix else 0),
                 numpy.int64(x.size)))
        f, ix = out, ix_out
    if indices is not None:
        indices[...] = ix
    if not return_distances:
        return ix if return_indices and indices is None else None
    d = _e.sqrt(f)
    got = []
    if distances is not None:
        distances[...] = d
    else:
        got.append(d)
    if return_indices and indices is None:
        got.append(ix)
    return None if not got else got[0] if len(got) == 1 else tuple(got)


def distance_transform_bf(input, metric="euclidean", sampling=None,
                          return_distances=True, return_indices=False,
                          distances=None, indices=None):
    """scipy.ndimage.distance_transform_bf: each non-zero element's
    distance to the nearest background element that touches the
    foreground, by brute force (em_dist_bf, one thread an element over
    every such border element, in SciPy's order, so ties name SciPy's
    element): 'euclidean' (float64, with sampling), 'taxicab' or
    'chessboard' (uint32)."""
    import numpy
    from ember.scipy.ndimage_morph import binary_dilation
    from ember.scipy.ndimage import generate_binary_structure
    dt_in, _ = _transform_outputs(return_distances, return_indices,
                                  distances, indices)
    x = _arr(input) != 0
    if x.ndim > 16:
        raise RuntimeError("too many dimensions")
    border = binary_dilation(x, generate_binary_structure(x.ndim, x.ndim)) \
        ^ x
    kind = _e.ascontiguousarray(x.astype(_e.int8) - border.astype(_e.int8))
    m = metric.lower()
    code = {"euclidean": 1, "taxicab": 2, "cityblock": 2, "manhattan": 2,
            "chessboard": 3}.get(m)
    if code is None:
        raise RuntimeError("distance metric not supported")
    dev = x.device
    samp = None
    if sampling is not None:
        samp = _per_axis(sampling, x.ndim)
        if len(samp) != x.ndim:
            raise RuntimeError("sequence argument must have length equal to "
                               "input rank")
    dt_t = _e.float64 if code == 1 else _e.uint32
    if dt_in:
        if tuple(distances.shape) != tuple(x.shape):
            raise RuntimeError("distances array has wrong shape")
        if distances.dtype != dt_t:
            raise RuntimeError("distances array must be " + dt_t.name)
    n = x.size
    dd = _e.zeros(x.shape if code == 1 and return_distances else 1,
                  dtype=_e.float64, device=dev)
    du = _e.zeros(x.shape if code != 1 and return_distances else 1,
                  dtype=_e.uint32, device=dev)
    ft = _e.zeros(x.shape if return_indices else 1, dtype=_e.int32,
                  device=dev)
    if n:
        flat = _e.nonzero(kind.reshape(-1) < 0)[0].astype(_e.int64)
        coords = [c.reshape(-1)[flat] for c in
                  _e.indices(x.shape, dtype=_e.int64, device=dev)]
        bc = _e.ascontiguousarray(_e.stack(coords + [flat], axis=1)) \
            if flat.size else _e.zeros((1, x.ndim + 1), dtype=_e.int64,
                                       device=dev)
        sd = _e.asarray(numpy.array(samp if samp else [1.0], numpy.float64),
                        device=dev)
        _launch(dev, "em_dist_bf", n,
                (kind, _e.asarray(numpy.array(x.shape, numpy.int64),
                                  device=dev), numpy.int32(x.ndim),
                 numpy.int64(n), bc, numpy.int64(flat.size), sd,
                 numpy.int32(samp is not None), numpy.int32(code), dd, du,
                 ft, numpy.int32(return_distances),
                 numpy.int32(return_indices)))
    return _transform_result(x, dd if code == 1 else du, ft,
                             return_distances, return_indices, distances,
                             indices, RuntimeError)
