"""ember.scipy.signal's recursive filters (re-exported by
ember.scipy.signal): lfilter (kernels/lfilter.cuh, one thread a line) and
sosfilt as its cascade of second-order sections, with zi/zf states, in
float64 (complex signals, lfilter_zi and sosfilt_zi not yet)."""
import ember as _e
from ember.scipy import _kernels

__all__ = ["lfilter", "sosfilt"]

def _coeffs(b, a):
    import numpy
    b = numpy.atleast_1d(numpy.asarray(_e.asnumpy(b) if isinstance(
        b, _e.ndarray) else b, numpy.float64))
    a = numpy.atleast_1d(numpy.asarray(_e.asnumpy(a) if isinstance(
        a, _e.ndarray) else a, numpy.float64))
    if b.ndim != 1 or a.ndim != 1 or a.size == 0 or b.size == 0:
        raise ValueError("object of too small depth for desired array")
    if a[0] == 0:
        raise ValueError("BUG: filter coefficient a[0] == 0 not supported "
                         "yet")
    m = max(a.size, b.size)
    if m > 64:
        raise NotImplementedError("lfilter: at most 64 coefficients")
    bb = numpy.zeros(m)
    aa = numpy.zeros(m)
    bb[:b.size] = b / a[0]
    aa[:a.size] = a / a[0]
    return bb, aa, m


def lfilter(b, a, x, axis=-1, zi=None):
    """scipy.signal.lfilter: y (and the final state zf when zi is given)
    of the filter b/a along axis."""
    import numpy
    x = x if isinstance(x, _e.ndarray) else _e.asarray(x)
    if x.dtype.kind == "c":
        raise NotImplementedError("lfilter: complex signals are not there "
                                  "yet")
    bb, aa, m = _coeffs(b, a)
    axis = axis % x.ndim
    xs = _e.ascontiguousarray(x.astype(_e.float64))
    n = x.shape[axis]
    outer = 1
    for s in x.shape[:axis]:
        outer *= s
    inner = 1
    for s in x.shape[axis + 1:]:
        inner *= s
    y = _e.empty(x.shape, dtype=_e.float64, device=x.device)
    zshape = x.shape[:axis] + (m - 1,) + x.shape[axis + 1:]
    zf = None
    zin = None
    if zi is not None:
        z = zi if isinstance(zi, _e.ndarray) else _e.asarray(zi,
                                                              device=x.device)
        if z.shape != zshape:
            raise ValueError(f"Unexpected shape for zi: expected {zshape}, "
                             f"found {tuple(z.shape)}.")
        # each line's state contiguous: (lines, m - 1)
        zin = _e.ascontiguousarray(_e.moveaxis(z.astype(_e.float64), axis,
                                               -1)).reshape(-1, m - 1)
        zf = _e.empty(zin.shape, dtype=_e.float64, device=x.device)
    lines = outer * inner
    if lines and n:
        _kernels.launch(x.device, "lfilter.cuh", "em_lfilter", lines, (
            _e.asarray(bb, device=x.device), _e.asarray(aa, device=x.device),
            numpy.int32(m), xs, y, numpy.int64(outer), numpy.int64(n),
            numpy.int64(inner), y if zin is None else zin,
            y if zf is None else zf, numpy.int32(zin is not None)),
            threads=128)
    elif zf is not None:
        zf[...] = zin
    rt = x.dtype if x.dtype.kind == "f" else _e.float64
    y = y.astype(rt)
    if zi is None:
        return y
    zf = _e.moveaxis(zf.reshape(
        tuple(s for i, s in enumerate(x.shape) if i != axis) + (m - 1,)),
        -1, axis)
    return y, zf.astype(rt)


def sosfilt(sos, x, axis=-1, zi=None):
    """scipy.signal.sosfilt: the cascade of second-order sections, each
    row (b0, b1, b2, a0, a1, a2)."""
    import numpy
    s = numpy.asarray(_e.asnumpy(sos) if isinstance(sos, _e.ndarray)
                      else sos, numpy.float64)
    if s.ndim != 2 or s.shape[1] != 6:
        raise ValueError("sos array must be shape (n_sections, 6)")
    y = x if isinstance(x, _e.ndarray) else _e.asarray(x)
    zfs = []
    for k, sec in enumerate(s):
        if zi is None:
            y = lfilter(sec[:3], sec[3:], y, axis)
        else:
            z = zi[k] if isinstance(zi, _e.ndarray) else _e.asarray(
                zi[k], device=y.device)
            # SciPy's zi[k] is x's shape with the axis's length 2, as
            # lfilter's state is (a last-axis state once read zi wrongly
            # for axis != -1)
            y, zf = lfilter(sec[:3], sec[3:], y, axis, z)
            zfs.append(zf)
    return y if zi is None else (y, _e.stack(zfs))
