"""scipy.linalg's FFT-based structured operations over ember.fft:
solve_circulant (a circulant system is diagonal in the Fourier basis,
so x = ifft(fft(b) / fft(c))) and matmul_toeplitz (a Toeplitz matrix
embeds in a circulant of order M + N - 1, so T x is a slice of a
circular convolution). Dtypes are SciPy's: solve_circulant keeps
NumPy's FFT precision (float32 stays float32), matmul_toeplitz computes
in float64 or complex128."""
import numpy as _np

import ember as _e
import ember.fft as _fft
from ember.scipy._linalg_common import (
    arrs, check_finite as _check, linalg_error)

__all__ = ["solve_circulant", "matmul_toeplitz"]


def _axis_len(name, a, axis):
    ax = axis + a.ndim if axis < 0 else axis
    if not 0 <= ax < a.ndim:
        raise ValueError(f"'{name}axis' entry is out of bounds")
    return a.shape[ax]


def _atleast_1d(x):
    return x.reshape((1,)) if x.ndim == 0 else x


def solve_circulant(c, b, singular="raise", tol=None, caxis=-1, baxis=0,
                    outaxis=0):
    """scipy.linalg.solve_circulant: C x = b for the circulant C whose
    first column is c (along caxis), b's system along baxis, the
    solution's along outaxis; leading axes broadcast. Fourier
    coefficients |fft(c)| <= tol (default max|fft(c)| * n * eps of
    float64) make C near singular: LinAlgError with singular='raise',
    else those coefficients are dropped (the least-squares solution)."""
    c, b = arrs(c, b)
    c, b = _atleast_1d(c), _atleast_1d(b)
    nc = _axis_len("c", c, caxis)
    nb = _axis_len("b", b, baxis)
    if nc != nb:
        raise ValueError(f"Shapes of c {c.shape} and b {b.shape} are "
                         "incompatible")
    cplx = c.dtype.kind == "c" or b.dtype.kind == "c"
    if b.size == 0:
        single = all(x.dtype.name in ("float32", "complex64")
                     for x in (c, b))
        dt = ((_e.complex64 if cplx else _e.float32) if single else
              (_e.complex128 if cplx else _e.float64))
        return _e.empty(b.shape, dtype=dt, device=b.device)
    fc = _fft.fft(_e.moveaxis(c, caxis, -1), axis=-1)
    abs_fc = _e.abs(fc)
    if tol is None:
        tol = (_e.max(abs_fc, axis=-1, keepdims=True) * nc
               * float(_np.finfo(_np.float64).eps))
    near = abs_fc <= tol
    singular_any = bool(_e.any(near))
    if singular_any:
        if singular == "raise":
            raise linalg_error("near singular circulant matrix.")
        fc = _e.where(near, _e.ones_like(fc), fc)
    fb = _fft.fft(_e.moveaxis(b, baxis, -1), axis=-1)
    q = fb / fc
    if singular_any:
        q = _e.where(near, _e.zeros_like(q), q)
    x = _fft.ifft(q, axis=-1)
    if not cplx:
        x = x.real
    if outaxis != -1:
        x = _e.moveaxis(x, -1, outaxis)
    return x


def matmul_toeplitz(c_or_cr, x, check_finite=False, workers=None):
    """scipy.linalg.matmul_toeplitz: T @ x for the Toeplitz T with first
    column c and first row r (r defaults to conj(c); r[0] is ignored) by
    the FFT of T's circulant embedding. c and r may carry batch axes
    (..., M) and (..., N); x is (..., N, K) when 2-D or more, else (N,),
    as SciPy's batching. workers is accepted and unused."""
    if isinstance(c_or_cr, tuple):
        c, r = c_or_cr
        c, r, x = arrs(c, r, x)
    else:
        c, x = arrs(c_or_cr, x)
        r = None if c is None else _e.conj(c)
    if x is None:
        raise ValueError("`b` must be an array, not None.")
    if check_finite:
        _check(c, r, x)
    c, r = _atleast_1d(c), _atleast_1d(r)
    vec = x.ndim < 2
    x = _atleast_1d(x)
    xm = x[..., None] if vec else x
    if xm.shape[-2] != r.shape[-1]:
        raise ValueError("Incompatible dimensions.")
    cplx = any(t.dtype.kind == "c" for t in (c, r, x))
    dt = _e.complex128 if cplx else _e.float64
    c, r, xm = (t.astype(dt, copy=False) for t in (c, r, xm))
    batch = _e.broadcast_shapes(c.shape[:-1], r.shape[:-1], xm.shape[:-2])
    if batch and 0 in batch:
        raise ValueError("`matmul_toeplitz` does not support zero-size "
                         "batches.")
    m, n = c.shape[-1], r.shape[-1]
    shape = batch + ((m,) if vec else (m, xm.shape[-1]))
    if xm.size == 0:
        return _e.empty(shape, dtype=dt, device=x.device)
    p = m + n - 1
    c = _e.broadcast_to(c, batch + (m,))
    r = _e.broadcast_to(r, batch + (n,))
    col = _e.concatenate([c, _e.flip(r[..., 1:], axis=-1)], axis=-1)
    if cplx:
        fm = _fft.fft(col, axis=-1)[..., :, None]
        y = _fft.ifft(fm * _fft.fft(xm, n=p, axis=-2), axis=-2)
    else:
        fm = _fft.rfft(col, axis=-1)[..., :, None]
        y = _fft.irfft(fm * _fft.rfft(xm, n=p, axis=-2), n=p, axis=-2)
    y = y[..., :m, :]
    return _e.broadcast_to(y, batch + y.shape[-2:]).reshape(shape)
