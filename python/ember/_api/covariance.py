"""numpy.cov and numpy.corrcoef: NumPy's steps (weighted means by
ember.average, the centred product by one matmul, the scaling and the
clipping as elementwise expressions) over ember arrays, so the results
have NumPy's dtypes: float64 (complex128 for complex data) unless dtype=
says otherwise. The few scalars NumPy inspects on the host (the weights'
checks, the degrees of freedom) are read back here too."""
import math
import warnings

from ember import _ember as _e
from ember._api._util import as_array, device_of


def _rows(x, dtype, rowvar):
    """x as a 2-d array of variables (rows) by observations (columns)."""
    x = x.astype(dtype, copy=False)
    if x.ndim < 2:
        x = x.reshape((1, -1) if x.ndim else (1, 1))
        return x
    return x if rowvar else x.T


def _weights(w, name, n, device):
    w = as_array(w, device, _e.float64)
    if w.ndim > 1:
        raise RuntimeError(f"cannot handle multidimensional {name}")
    if w.ndim == 0 or w.shape[0] != n:
        raise RuntimeError(f"incompatible numbers of samples and {name}")
    if name == "fweights" and not bool(_e.all(w == _e.round(w))):
        raise TypeError("fweights must be integer")
    if bool(_e.any(w < 0)):
        raise ValueError(f"{name} cannot be negative")
    return w


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None,
        aweights=None, *, dtype=None):
    """The covariance matrix of the variables in m's rows (columns when
    rowvar is False), with y's variables appended; NumPy's weights and
    normalisation: ddof defaults to 1 (0 with bias), fweights are integer
    repeat counts, aweights relative weights."""
    if ddof is not None and ddof != int(ddof):
        raise ValueError("ddof must be integer")
    device = device_of(m, y, fweights, aweights)
    m = as_array(m, device)
    if m.ndim > 2:
        raise ValueError("m has more than 2 dimensions")
    if y is not None:
        y = as_array(y, m.device)
        if y.ndim > 2:
            raise ValueError("y has more than 2 dimensions")
    if dtype is None:
        dtype = _e.result_type(m.dtype, _e.float64) if y is None else \
            _e.result_type(m.dtype, y.dtype, _e.float64)
    x = _rows(m, dtype, rowvar or m.ndim == 1)
    if x.shape[0] == 0:
        return _e.empty((0, 0), _e.float64, device=m.device)
    if y is not None:
        yy = _rows(y, dtype, True)
        x = _e.concatenate((x, yy if rowvar or yy.shape[0] == 1 else yy.T), axis=0)
    if ddof is None:
        ddof = 0 if bias else 1
    ddof = int(ddof)
    n = x.shape[1]
    w = aw = None
    if fweights is not None:
        w = _weights(fweights, "fweights", n, m.device)
    if aweights is not None:
        aw = _weights(aweights, "aweights", n, m.device)
        w = aw if w is None else w * aw
    avg, wsum = _e.average(x, axis=1, weights=w, returned=True)
    wsum = float(wsum[0].real) if wsum.size else 0.0
    if w is None:
        fact = n - ddof
    elif ddof == 0:
        fact = wsum
    elif aw is None:
        fact = wsum - ddof
    else:
        fact = wsum - ddof * float(_e.sum(w * aw).real) / wsum
    if fact <= 0:
        warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning,
                      stacklevel=2)
        fact = 0.0
    xc = x - avg[:, None]
    xt = (xc if w is None else xc * w).T
    c = _e.matmul(xc, _e.conj(xt))
    # NumPy multiplies by 1/fact (inf when fact is 0: inf and NaN entries)
    return (c * (1.0 / fact if fact else math.inf)).squeeze()


def corrcoef(x, y=None, rowvar=True, *, dtype=None):
    """Pearson's correlation coefficients: cov scaled by the outer product
    of the standard deviations, clipped to [-1, 1] (each part of a complex
    result), as numpy.corrcoef."""
    c = cov(x, y, rowvar, dtype=dtype)
    if c.ndim == 0:
        return c / c
    d = _e.sqrt(_e.diagonal(c).real)
    r = c / d[:, None] / d[None, :]
    if r.dtype.kind != "c":
        return _e.clip(r, -1, 1)
    _e.clip(r.real, -1, 1, out=r.real)
    _e.clip(r.imag, -1, 1, out=r.imag)
    return r

