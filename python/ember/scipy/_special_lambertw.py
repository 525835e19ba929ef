"""scipy.special.lambertw: an ElementwiseKernel over kernels/lambertw.h
rather than a ufunc, since it takes three arguments (z, the branch k, the
tolerance) and ElementwiseKernel has no complex types: the kernel reads
z's real and imaginary parts and writes the two float64 views of one
complex128 result, SciPy's dtype for real and complex input alike."""
import numbers as _numbers

import ember as _e
from ember._api._util import device_of
from ember.scipy._special_beta import _kernel


def _lambertw_kernel():
    return _kernel("lambertw", "float64 zr, float64 zi, int64 k, "
                   "float64 tol", "float64 wr, float64 wi", ["lambertw.h"])


def lambertw(z, k=0, tol=1e-8):
    """The Lambert W function, branch k (an integer, scalar or array,
    broadcast against z; a float k truncated as SciPy's cast), of real
    or complex z, as complex128: Halley's iteration to a step below tol
    relative to w. SciPy's ends: W_k(0) is
    0 for k = 0 and -inf otherwise, an infinite z gives inf + i (arg z +
    2 pi k), NaN stays NaN."""
    dev = device_of(z, k)
    z = z if isinstance(z, _e.ndarray) else _e.asarray(z, device=dev)
    k = k if isinstance(k, _e.ndarray) else _e.asarray(k, device=dev)
    if k.dtype.kind not in "biuf":
        raise TypeError("ufunc 'lambertw' not supported for the input "
                        f"types: k must be an integer, not {k.dtype}")
    if z.dtype.kind not in "biufc":
        raise TypeError("ufunc 'lambertw' not supported for the input "
                        f"type {z.dtype}")
    if not isinstance(tol, _numbers.Real):
        raise TypeError(f"tol must be a real number, not {type(tol).__name__}")
    if z.dtype.kind == "c":
        z = z.astype(_e.complex128)
        zr, zi = _e.real(z), _e.imag(z)
    else:
        zr = z.astype(_e.float64)
        zi = _e.zeros(zr.shape, _e.float64, device=zr.device)
    zr, zi, k = _e.broadcast_arrays(zr, zi, k.astype(_e.int64))
    w = _e.empty(zr.shape, _e.complex128, device=zr.device)
    _lambertw_kernel()(zr, zi, k, float(tol), _e.real(w), _e.imag(w))
    return w
