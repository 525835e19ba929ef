"""ember.fft: NumPy's and the Array API's discrete Fourier transforms.

On the cpu device a transform is pocketfft, through NumPy, on a zero-copy
view of the array's host memory, and its result is adopted without a copy:
the values, dtypes (float32 and float16 give complex64, as NumPy 2 and CuPy
do) and errors are NumPy's own. On a CUDA device a transform is cuFFT
(opened at run time), with NumPy's semantics composed in _cufft.py over one
C call. The frequency and shift helpers are compositions of ember's
functions and run on every device (docs/fft.md).
"""
import operator

import ember

from . import config  # noqa: E402  (cupy.fft.config's plan cache)

__all__ = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft",
           "rfft2", "irfft2", "rfftn", "irfftn", "hfft", "ihfft", "fftfreq",
           "rfftfreq", "fftshift", "ifftshift", "config"]


def _numpy():
    import numpy
    return numpy


def _out_check(out, x, name):
    if not isinstance(out, ember.ndarray):
        raise TypeError(f"ember.fft.{name}: out must be an ember.ndarray, not "
                        f"{type(out).__name__}")
    if out.device != x.device:
        raise ValueError(f"ember.fft.{name}: out is on {out.device}, the "
                         f"transform on {x.device}")


def _run(name, a, out, *args):
    """The transform of a on its device: numpy.fft.<name> on a view of the
    host memory (cpu; out= written in place and NumPy's result adopted
    without a copy), or cuFFT (cuda)."""
    x = a if isinstance(a, ember.ndarray) else ember.asarray(a)
    if out is not None:
        _out_check(out, x, name)
    if x.device.type != "cpu":
        from . import _cufft
        r = getattr(_cufft, name)(x, *args)
        if out is None:
            return r
        out[...] = r
        return out
    np = _numpy()
    r = getattr(np.fft, name)(np.asarray(x), *args,
                              out=None if out is None else np.asarray(out))
    return out if out is not None else ember.asarray(r, device=x.device)


def _named(f, name, sizes):
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"numpy.fft.{name}(a, {sizes}, norm=None, out=None) on ember arrays."
    return f


def _one_axis(name):
    def transform(a, n=None, axis=-1, norm=None, out=None):
        return _run(name, a, out, n, axis, norm)
    return _named(transform, name, "n=None, axis=-1")


def _n_axes(name, default_axes):
    def transform(a, s=None, axes=default_axes, norm=None, out=None):
        return _run(name, a, out, s, axes, norm)
    return _named(transform, name, f"s=None, axes={default_axes!r}")


fft, ifft, rfft, irfft, hfft, ihfft = (
    _one_axis(n) for n in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft"))
fft2, ifft2, rfft2, irfft2 = (
    _n_axes(n, (-2, -1)) for n in ("fft2", "ifft2", "rfft2", "irfft2"))
fftn, ifftn, rfftn, irfftn = (
    _n_axes(n, None) for n in ("fftn", "ifftn", "rfftn", "irfftn"))


def _length(n):
    try:
        n = operator.index(n)
    except TypeError:
        raise ValueError(f"n should be an integer, not {type(n).__name__}") \
            from None
    return n


def _freq_dtype(dtype):
    dt = ember.dtype("float64" if dtype is None else dtype)
    if dt.kind != "f":
        raise ValueError(f"fftfreq: dtype must be a real floating-point "
                         f"dtype, not {dt}")
    return dt


def fftfreq(n, d=1.0, device=None, *, dtype=None):
    """The sample frequencies of an n-point transform with spacing d:
    [0, 1, ..., (n-1)//2, -(n//2), ..., -1] / (d*n), as NumPy computes
    them (integers times 1/(n*d)), made on `device`."""
    n = _length(n)
    val = 1.0 / (n * d)
    k = ember.arange(n, dtype=ember.int64, device=device)
    # the upper half counts up from -(n//2): k - n for k > (n-1)//2
    k = ember.where(k > (n - 1) // 2, k - n, k)
    return (k * val).astype(_freq_dtype(dtype), copy=False)


def rfftfreq(n, d=1.0, device=None, *, dtype=None):
    """The sample frequencies of rfft's output: [0, 1, ..., n//2] / (d*n)."""
    n = _length(n)
    val = 1.0 / (n * d)
    k = ember.arange(n // 2 + 1, dtype=ember.int64, device=device)
    return (k * val).astype(_freq_dtype(dtype), copy=False)


def _shifts(x, axes, sign):
    if axes is None:
        axes = tuple(range(x.ndim))
    if isinstance(axes, int):
        return sign * (x.shape[axes] // 2), axes
    return tuple(sign * (x.shape[ax] // 2) for ax in axes), axes


def fftshift(x, axes=None):
    """Move the zero-frequency term to the centre: a roll by n//2 along
    each axis (all by default)."""
    x = x if isinstance(x, ember.ndarray) else ember.asarray(x)
    shift, axes = _shifts(x, axes, 1)
    return ember.roll(x, shift, axes)


def ifftshift(x, axes=None):
    """fftshift's inverse: a roll by -(n//2) along each axis."""
    x = x if isinstance(x, ember.ndarray) else ember.asarray(x)
    shift, axes = _shifts(x, axes, -1)
    return ember.roll(x, shift, axes)
