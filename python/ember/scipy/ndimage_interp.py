"""ember.scipy.ndimage's geometric transforms (re-exported by
ember.scipy.ndimage): map_coordinates, affine_transform, shift, zoom and
rotate by B-splines of orders 0-5 in every SciPy mode, and the spline
prefilter (spline_filter, spline_filter1d) that orders above 1 need, on
every device. One kernel of kernels/interp.cuh interpolates, per output
element, at a coordinate from a matrix, a zoom and shift, or an array;
another prefilters, one thread a line. As in SciPy, the sums are float64,
the input is read in its own type (or prefiltered to float64), the output
has the input's dtype unless output= says otherwise, and an integer
output is the value rounded half away from zero and clipped to the
type's range. Complex input is its real and imaginary parts apart."""
import math
import warnings

import ember as _e
from ember._api._util import as_array as _arr, normalize_axis
from ember.scipy import _kernels
from ember.scipy.ndimage_filters import _line

__all__ = ["spline_filter1d", "spline_filter", "map_coordinates",
           "geometric_transform",
           "affine_transform", "shift", "zoom", "rotate"]

_FILE = "interp.cuh"
# SciPy's NI_ExtendMode numbers: the kernel treats the same name groups
# as SciPy does ('grid-mirror' is 'reflect'; 'wrap' is not 'grid-wrap')
_MODES = {"nearest": 0, "wrap": 1, "reflect": 2, "grid-mirror": 2,
          "mirror": 3, "constant": 4, "grid-wrap": 5, "grid-constant": 6}
# the input types em_interp is instantiated for, and the output kinds its
# store understands (their order is em_ip_put's)
_CTYPES = {"bool": "bool", "int8": "signed char", "uint8": "unsigned char",
           "int16": "short", "uint16": "unsigned short", "int32": "int",
           "uint32": "unsigned int", "int64": "long long",
           "uint64": "unsigned long long", "float32": "float",
           "float64": "double"}
_OKIND = {name: k for k, name in enumerate(_CTYPES)}
_NAMES = {name: f"em_interp<{c}>" for name, c in _CTYPES.items()}
_MAXRANK = 8  # EM_IP_MAXR
# SciPy pads these modes by 12 samples before prefiltering, since their
# prefilter boundary is only approximate
_PREPAD = 12


def _order(order):
    if order < 0 or order > 5:
        raise RuntimeError("spline order not supported")


def _mode(mode):
    if mode not in _MODES:
        raise RuntimeError("boundary mode not supported")
    return _MODES[mode]


def _host(a, dtype="float64"):
    """A matrix, offset or sequence argument as a NumPy array."""
    import numpy
    return numpy.asarray(_e.asnumpy(a) if isinstance(a, _e.ndarray) else a,
                         dtype)


def _sequence(v, rank):
    """SciPy's _normalize_sequence: one value an axis."""
    import numpy
    if not isinstance(v, str) and numpy.iterable(v):
        v = list(v)
        if len(v) != rank:
            raise RuntimeError("sequence argument must have length equal to "
                               "input rank")
        return v
    return [v] * rank


def _input(input):
    x = _arr(input)
    if x.dtype.kind != "c" and x.dtype.name not in _CTYPES:
        raise RuntimeError(f"array type {x.dtype} not supported")
    return x


def _output(output, x, shape):
    """(dtype, array to fill or None) for output= as SciPy's _get_output:
    None (the input's dtype), a dtype, or an array of the output's shape."""
    import numpy
    if output is None:
        return x.dtype, None
    if isinstance(output, (_e.ndarray, numpy.ndarray)):
        if tuple(output.shape) != tuple(shape):
            raise RuntimeError("output shape not correct")
        if x.dtype.kind == "c" and output.dtype.kind != "c":
            raise RuntimeError("output must have complex dtype")
        return _e.dtype(output.dtype.name), output
    dt = _e.dtype(output)
    if x.dtype.kind == "c" and dt.kind != "c":
        if isinstance(output, str):
            raise RuntimeError("output must have complex dtype")
        warnings.warn("promoting specified output dtype to complex",
                      stacklevel=3)
        dt = _e.result_type(dt, _e.complex64)
    return dt, None


def _deliver(y, target):
    if target is None:
        return y
    target[...] = y if isinstance(target, _e.ndarray) else _e.asnumpy(y)
    return target


def _real_or_complex(run, x, dt, cval):
    """run(x, dt, cval), or for complex input SciPy's way: run on the real
    and the imaginary parts (each with its part of cval) and joined."""
    if x.dtype.kind != "c":
        return run(x, dt, cval)
    ft = _e.float32 if dt == _e.complex64 else _e.float64
    re = run(_e.real(x), ft, complex(cval).real)
    im = run(_e.imag(x), ft, complex(cval).imag)
    return (re + 1j * im).astype(dt)


def _filter_axes(x, order, code, axes, dtype=_e.float64):
    """x's B-spline coefficients along each of axes, in float64, rounded
    to dtype after each axis (as SciPy keeps its intermediates)."""
    import numpy
    c = _e.empty(x.shape, dtype=_e.float64, device=x.device)
    c[...] = x
    for axis in axes:
        outer, n, inner = _line(c, axis)
        if c.size and n > 1:
            _kernels.launch(c.device, _FILE, "em_spline_filter",
                            outer * inner,
                            (c, numpy.int64(outer), numpy.int64(n),
                             numpy.int64(inner), numpy.int32(order),
                             numpy.int32(code)))
        if dtype != _e.float64:
            c = c.astype(dtype).astype(_e.float64)
    return c


def spline_filter1d(input, order=3, axis=-1, output=_e.float64,
                    mode="mirror"):
    """scipy.ndimage.spline_filter1d: the B-spline coefficients of the
    order along axis, the line extended as mode says (orders 0 and 1 are
    the samples themselves)."""
    _order(order)
    x = _input(input)
    dt, target = _output(output, x, x.shape)
    if order in (0, 1):
        return _deliver(x.astype(dt), target)
    code = _mode(mode)
    axis = normalize_axis(axis, x.ndim)
    return _deliver(_real_or_complex(
        lambda x, dt, _: _filter_axes(x, order, code, [axis]).astype(
            dt, copy=False), x, dt, 0), target)


def spline_filter(input, order=3, output=_e.float64, mode="mirror"):
    """scipy.ndimage.spline_filter: spline_filter1d along every axis."""
    if order < 2 or order > 5:
        raise RuntimeError("spline order not supported")
    x = _input(input)
    dt, target = _output(output, x, x.shape)
    if not x.ndim:
        return _deliver(x.astype(dt), target)
    code = _mode(mode)
    return _deliver(_real_or_complex(
        lambda x, dt, _: _filter_axes(x, order, code, range(x.ndim),
                                      dt).astype(dt, copy=False),
        x, dt, 0), target)


def _coefficients(x, order, mode, cval, prefilter, axes):
    """What the kernel interpolates, and the padding of each axis: the
    input itself, or for orders above 1 its spline coefficients (float64),
    of the input padded first along axes in 'nearest' and
    'grid-constant' modes, as SciPy does."""
    pads = [0] * x.ndim
    if not prefilter or order < 2:
        return x, pads
    if mode in ("nearest", "grid-constant"):
        width = [(_PREPAD, _PREPAD) if a in axes else (0, 0)
                 for a in range(x.ndim)]
        x = _e.pad(x, width, mode="edge") if mode == "nearest" else \
            _e.pad(x, width, mode="constant", constant_values=cval)
        pads = [_PREPAD if a in axes else 0 for a in range(x.ndim)]
    return _filter_axes(x, order, _mode(mode), axes), pads


def _interpolate(src, pads, out_shape, dtype, kind, params, flags, order,
                 mode, cval, axes=None):
    """em_interp over an output of out_shape and dtype (see interp.cuh for
    kind, params and flags), splines of the order along axes (all by
    default) and indices along the others."""
    import numpy
    irank, orank = src.ndim, len(out_shape)
    if irank > _MAXRANK or orank > _MAXRANK:
        raise NotImplementedError(f"ember.scipy.ndimage: at most {_MAXRANK} "
                                  "dimensions for now")
    if dtype.name not in _OKIND:
        raise RuntimeError(f"output type {dtype} not supported")
    dev = src.device
    src = _e.ascontiguousarray(src)
    y = _e.empty(out_shape, dtype=dtype, device=dev)
    if not y.size:
        return y
    if not src.size:  # nothing to interpolate: every point is outside
        y[...] = _e.asarray(numpy.full(1, cval), device=dev).astype(dtype)[0]
        return y
    strides = [math.prod(src.shape[h + 1:]) for h in range(irank)]
    orders = [order if axes is None or h in axes else 0
              for h in range(irank)]
    geo = numpy.array(list(src.shape) + list(out_shape) + list(pads) +
                      strides + orders, numpy.int64)
    if not isinstance(params, _e.ndarray):
        params = _e.asarray(numpy.ascontiguousarray(params, numpy.float64),
                            device=dev)
    _kernels.launch(dev, _FILE, _NAMES[src.dtype.name], y.size,
                    (src, y, numpy.int32(_OKIND[dtype.name]),
                     _e.asarray(geo, device=dev), numpy.int32(irank),
                     numpy.int32(orank), numpy.int64(y.size),
                     numpy.int32(kind), params, numpy.int32(flags),
                     numpy.int32(_MODES[mode]),
                     numpy.float64(cval)),
                    name_expressions=_NAMES.values())
    return y


def _rank_ok(x, out_shape):
    if x.ndim < 1 or len(out_shape) < 1:
        raise RuntimeError("input and output rank must be > 0")


def map_coordinates(input, coordinates, output=None, order=3,
                    mode="constant", cval=0.0, prefilter=True):
    """scipy.ndimage.map_coordinates: the input's spline at each column
    of coordinates (input.ndim x output shape)."""
    _order(order)
    x = _input(input)
    coords = _arr(coordinates, x.device)
    if coords.dtype.kind == "c":
        raise TypeError("Complex type not supported")
    out_shape = tuple(coords.shape[1:])
    _rank_ok(x, out_shape)
    if coords.shape[0] != x.ndim:
        raise RuntimeError("invalid shape for coordinate array")
    dt, target = _output(output, x, out_shape)
    _mode(mode)
    p = _e.ascontiguousarray(coords.astype(_e.float64)).reshape(-1)

    def run(x, dt, cval):
        src, pads = _coefficients(x, order, mode, cval, prefilter,
                                  range(x.ndim))
        return _interpolate(src, pads, out_shape, dt, 2, p, 0, order, mode,
                            cval)
    return _deliver(_real_or_complex(run, x, dt, cval), target)


def geometric_transform(input, mapping, output_shape=None, output=None,
                        order=3, mode="constant", cval=0.0, prefilter=True,
                        extra_arguments=(), extra_keywords=None):
    """scipy.ndimage.geometric_transform: out[o] = the input's spline at
    mapping(o). SciPy calls mapping once an output element with a tuple of
    ints; ember calls it once, with a tuple of int64 ember arrays (the
    output's indices along each axis, each of the output's shape, as
    ember.indices gives them), and takes back a sequence of input.ndim
    coordinate arrays (or numbers), broadcast to the output's shape, which
    map_coordinates then samples. So the mapping must work on arrays:
    arithmetic, ember's functions (ember.sqrt, ember.where, ...), no
    `if` on a coordinate's value and no math module; one that does not
    raises TypeError saying so."""
    if not callable(mapping):
        raise TypeError("mapping must be a callable taking a tuple of "
                        "coordinate arrays")
    x = _input(input)
    out_shape = tuple(x.shape) if output_shape is None else \
        tuple(int(n) for n in output_shape)
    _rank_ok(x, out_shape)
    kw = {} if extra_keywords is None else dict(extra_keywords)
    grid = tuple(_e.indices(out_shape, device=x.device))
    try:
        got = mapping(grid, *extra_arguments, **kw)
        coords = [c if isinstance(c, _e.ndarray) else
                  _e.asarray(c, device=x.device) for c in got]
        coords = [_e.broadcast_to(c.astype(_e.float64), out_shape)
                  for c in coords]
    except Exception as exc:
        raise TypeError(
            "geometric_transform: ember calls mapping once with a tuple of "
            "coordinate arrays (not once a point with a tuple of ints, as "
            "SciPy does); this mapping failed on arrays "
            f"({type(exc).__name__}: {exc}). Write it with array "
            "arithmetic and ember's functions (ember.where in place of "
            "if), or compute the coordinates and call "
            "map_coordinates.") from exc
    if len(coords) != x.ndim:
        raise RuntimeError(f"geometric_transform: mapping returned "
                           f"{len(coords)} coordinates for a {x.ndim}-d "
                           "input")
    return map_coordinates(x, _e.stack(coords), output=output, order=order,
                           mode=mode, cval=cval, prefilter=prefilter)


def _affine(x, matrix, offset, out_shape, dt, order, mode, cval,
            prefilter, axes):
    """The input's spline at matrix @ o + offset for each output index o
    (matrix irank x orank, or a 1-D diagonal), prefiltered along axes."""
    import numpy
    src, pads = _coefficients(x, order, mode, cval, prefilter, axes)
    if matrix.ndim == 1:
        # SciPy's separable path: (o + offset / m) * m, in that order
        with numpy.errstate(divide="ignore", invalid="ignore"):
            p = numpy.concatenate([matrix, offset / matrix])
        return _interpolate(src, pads, out_shape, dt, 1, p, 3, order, mode,
                            cval, axes)
    p = numpy.concatenate([matrix.reshape(-1), offset])
    return _interpolate(src, pads, out_shape, dt, 0, p, 0, order, mode, cval,
                        axes)


def affine_transform(input, matrix, offset=0.0, output_shape=None,
                     output=None, order=3, mode="constant", cval=0.0,
                     prefilter=True):
    """scipy.ndimage.affine_transform: the input's spline at matrix @ o +
    offset for each output index o. matrix is ndim x ndim, a 1-D diagonal,
    ndim x (ndim + 1) or the homogeneous (ndim + 1) x (ndim + 1) (their
    last column the offset)."""
    import numpy
    _order(order)
    x = _input(input)
    if output_shape is None:
        output_shape = output.shape if isinstance(
            output, (_e.ndarray, numpy.ndarray)) else x.shape
    out_shape = tuple(int(s) for s in output_shape)
    _rank_ok(x, out_shape)
    dt, target = _output(output, x, out_shape)
    _mode(mode)
    m = _host(matrix)
    if m.ndim not in (1, 2) or m.shape[0] < 1:
        raise RuntimeError("no proper affine matrix provided")
    n = x.ndim
    if m.ndim == 2 and m.shape[1] == n + 1 and m.shape[0] in (n, n + 1):
        if m.shape[0] == n + 1:
            want = [0] * n + [1]
            if not numpy.all(m[n] == want):
                raise ValueError(
                    f"Expected homogeneous transformation matrix with shape "
                    f"{m.shape} for image shape {x.shape}, but bottom row was "
                    f"not equal to {want}")
        offset = m[:n, n]
        m = m[:n, :n]
    if m.shape[0] != n:
        raise RuntimeError("affine matrix has wrong number of rows")
    if m.ndim == 2 and m.shape[1] != len(out_shape):
        raise RuntimeError("affine matrix has wrong number of columns")
    off = _host(_sequence(offset, n))
    if off.ndim != 1 or off.shape[0] < 1:
        raise RuntimeError("no proper offset provided")
    return _deliver(_real_or_complex(
        lambda x, dt, cval: _affine(x, m, off, out_shape, dt, order, mode,
                                    cval, prefilter, range(n)),
        x, dt, cval), target)


def shift(input, shift, output=None, order=3, mode="constant", cval=0.0,
          prefilter=True):
    """scipy.ndimage.shift: out[o] = the input's spline at o - shift."""
    import numpy
    _order(order)
    x = _input(input)
    if x.ndim < 1:
        raise RuntimeError("input and output rank must be > 0")
    dt, target = _output(output, x, x.shape)
    _mode(mode)
    p = numpy.concatenate([numpy.zeros(x.ndim),
                           -_host(_sequence(shift, x.ndim))])

    def run(x, dt, cval):
        src, pads = _coefficients(x, order, mode, cval, prefilter,
                                  range(x.ndim))
        return _interpolate(src, pads, x.shape, dt, 1, p, 1, order, mode,
                            cval)
    return _deliver(_real_or_complex(run, x, dt, cval), target)


def zoom(input, zoom, output=None, order=3, mode="constant", cval=0.0,
         prefilter=True, *, grid_mode=False):
    """scipy.ndimage.zoom: the input resampled to round(shape * zoom)
    samples an axis, its first and last samples kept in place (or, with
    grid_mode, its pixels' outer edges)."""
    import numpy
    _order(order)
    x = _input(input)
    if x.ndim < 1:
        raise RuntimeError("input and output rank must be > 0")
    z = _sequence(zoom, x.ndim)
    out_shape = tuple(int(round(n * f)) for n, f in zip(x.shape, z))
    dt, target = _output(output, x, out_shape)
    if all(f == 1 for f in z) and prefilter:
        # SciPy returns the input (as the output's type) for a zoom of 1
        return _deliver(x.astype(dt), target)
    _mode(mode)
    if grid_mode and mode in ("constant", "wrap"):
        better = "grid-" + mode
        warnings.warn(f"It is recommended to use mode = {better} instead of "
                      f"{mode} when grid_mode is True.", stacklevel=2)
    den = numpy.array(out_shape, numpy.float64)
    num = numpy.array(x.shape, numpy.float64)
    if not grid_mode:
        den -= 1
        num -= 1
    # an axis of one output sample keeps a zoom of 1, as SciPy's
    f = numpy.divide(num, den, out=numpy.ones(x.ndim), where=den != 0)
    p = numpy.concatenate([f, numpy.zeros(x.ndim)])

    def run(x, dt, cval):
        src, pads = _coefficients(x, order, mode, cval, prefilter,
                                  range(x.ndim))
        return _interpolate(src, pads, out_shape, dt, 1, p,
                            2 | (4 if grid_mode else 0), order, mode, cval)
    return _deliver(_real_or_complex(run, x, dt, cval), target)


def _cos_sin_degrees(angle):
    """cos and sin of angle degrees as SciPy's cosdg and sindg: exact at
    multiples of 90, and otherwise from the angle's distance r to the
    nearest multiple (ties upwards), so that a rounding apart from SciPy's
    values does not move a nearest-sample pick."""
    a = math.fmod(abs(float(angle)), 360.0)
    k = math.floor((a + 45.0) / 90.0)
    r = math.radians(a - 90.0 * k)
    c, s = math.cos(r), math.sin(r)
    c, s = [(c, s), (-s, c), (-c, -s), (s, -c)][k % 4]
    return c, -s if angle < 0 else s


def rotate(input, angle, axes=(1, 0), reshape=True, output=None, order=3,
           mode="constant", cval=0.0, prefilter=True):
    """scipy.ndimage.rotate: the input rotated by angle degrees in the
    plane of axes about its centre (the output grown to hold all of it
    when reshape). In more than two dimensions every plane turns alike,
    prefiltered within the plane as SciPy's plane-by-plane loop, in one
    launch."""
    import numpy
    x = _input(input)
    ndim = x.ndim
    if ndim < 2:
        raise ValueError("input array should be at least 2D")
    axes = list(axes)
    if len(axes) != 2:
        raise ValueError("axes should contain exactly two values")
    if not all(float(a).is_integer() for a in axes):
        raise ValueError("axes should contain only integer values")
    axes = [int(a) + ndim if a < 0 else int(a) for a in axes]
    if not all(0 <= a < ndim for a in axes):
        raise ValueError("invalid rotation plane specified")
    axes.sort()
    c, s = _cos_sin_degrees(angle)
    rot = numpy.array([[c, s], [-s, c]])
    shape = numpy.asarray(x.shape)
    in_plane = shape[axes]
    if reshape:
        iy, ix = in_plane
        bounds = rot @ [[0, 0, iy, iy], [0, ix, 0, ix]]
        out_plane = (numpy.ptp(bounds, axis=1) + 0.5).astype(int)
    else:
        out_plane = in_plane
    offset = (in_plane - 1) / 2 - rot @ ((out_plane - 1) / 2)
    out_shape = shape.copy()
    out_shape[axes] = out_plane
    out_shape = tuple(int(v) for v in out_shape)
    _order(order)
    dt, target = _output(output, x, out_shape)
    _mode(mode)
    m = numpy.eye(ndim)
    m[numpy.ix_(axes, axes)] = rot
    off = numpy.zeros(ndim)
    off[axes] = offset
    return _deliver(_real_or_complex(
        lambda x, dt, cval: _affine(x, m, off, out_shape, dt, order, mode,
                                    cval, prefilter, axes),
        x, dt, cval), target)
