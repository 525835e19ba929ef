"""NumPy's Generator over ember's kernels.

Bit for bit NumPy's (same seed, same state afterwards): random (float64
and float32), uniform, bytes and the bit generators' raw words. The other
draws use ember's own counter-based methods (docs/random.md): the same on
every ember device, NumPy's distribution, not NumPy's numbers. Arrays are
made on the current device; results of size=None are 0-d arrays (as
CuPy's), so no draw waits on the device.
"""
import operator

import numpy as _np

import ember
from ember.random import _bitgen as _b
from ember.random._util import (check, host, is_array, norm_dtype,
                                out_array, scalar, shape_of)

_F32, _F64 = _np.dtype(_np.float32), _np.dtype(_np.float64)
_INT_OUT = {_np.dtype(t) for t in ("int32", "int64", "uint32", "uint64")}


def _float_dtype(dtype, fname):
    dt = norm_dtype(dtype)
    if dt not in (_F32, _F64):
        raise TypeError(f"Unsupported dtype {dt!r} for {fname}")
    return dt


def _bshape(size, *params):
    """The result shape: size, or the parameters' broadcast shape."""
    if size is not None:
        return shape_of(size)
    return ember.broadcast_shapes(*(_np.shape(host(p)) if not
                                    isinstance(p, ember.ndarray) else p.shape
                                    for p in params))


class Generator:
    """Generator(bit_generator): NumPy's Generator API on ember arrays."""

    def __init__(self, bit_generator):
        if not isinstance(bit_generator, _b.BitGenerator):
            raise TypeError("Generator requires an ember.random bit generator"
                            " (PCG64 or Philox), not "
                            f"{type(bit_generator).__name__}")
        self._bit_generator = bit_generator

    @property
    def bit_generator(self):
        return self._bit_generator

    def __repr__(self):
        return f"Generator({self._bit_generator!r})"

    # ---- NumPy's draws, bit for bit ------------------------------------
    def random(self, size=None, dtype=_np.float64, out=None):
        dt = _float_dtype(dtype, "random")
        o = out_array(size, dt, out, "random")
        self._bit_generator._fill(o, _b.UNIFORM if dt == _F64 else _b.UNIFORM32)
        return o

    def uniform(self, low=0.0, high=1.0, size=None):
        if is_array(low) or is_array(high):
            shape, (lo, hi) = self._per_element(size, low, high)
            rng = hi - lo
            hr = host(rng)
            if not _np.all(_np.isfinite(hr)):
                raise OverflowError("high - low range exceeds valid bounds")
            check(not _np.any(hr < 0), "high - low < 0")
            o = ember.empty(shape, dtype=_F64)
            self._bit_generator._fill(o, _b.UNIFORM, pa=lo, pb=rng)
            return o
        lo, hi = scalar(low, "low"), scalar(high, "high")
        rng = hi - lo
        if not _np.isfinite(rng):
            raise OverflowError("high - low range exceeds valid bounds")
        check(rng >= 0, "high - low < 0")
        o = ember.empty(shape_of(size), dtype=_F64)
        self._bit_generator._fill(o, _b.UNIFORM, lo, rng)
        return o

    def bytes(self, length):
        n = operator.index(length)
        check(n >= 0, "negative dimensions are not allowed")
        # NumPy's count divides as C does: bytes(0) still draws one word.
        words = ember.empty((n - 1) // 4 + 1 if n else 1, dtype=_np.uint32)
        self._bit_generator._fill(words, _b.BITS32)
        return ember.asnumpy(words).astype("<u4").tobytes()[:n]

    # ---- ember's counter-based draws -------------------------------------
    def _affine(self, dist, loc, scale, size, dtype, out, fname, sname):
        """loc + scale * (a standard draw of dist), NumPy's checks."""
        dt = _float_dtype(dtype, fname)
        _nonneg(scale, f"{sname} < 0")
        if is_array(loc) or is_array(scale):
            shape, (pa, pb) = self._per_element(size, loc, scale)
            o = ember.empty(shape, dtype=dt)
            self._bit_generator._fill(o, dist, pa=pa, pb=pb)
            return o
        a, b = scalar(loc, "loc"), scalar(scale, sname)
        o = out_array(size, dt, out, fname)
        self._bit_generator._fill(o, dist, a, b)
        return o

    def standard_normal(self, size=None, dtype=_np.float64, out=None):
        return self._affine(_b.NORMAL, 0.0, 1.0, size, dtype, out,
                            "standard_normal", "scale")

    def normal(self, loc=0.0, scale=1.0, size=None):
        return self._affine(_b.NORMAL, loc, scale, size, _F64, None, "normal",
                            "scale")

    def standard_exponential(self, size=None, dtype=_np.float64,
                             method="zig", out=None):
        return self._affine(_b.EXPONENTIAL, 0.0, 1.0, size, dtype, out,
                            "standard_exponential", "scale")

    def exponential(self, scale=1.0, size=None):
        return self._affine(_b.EXPONENTIAL, 0.0, scale, size, _F64, None,
                            "exponential", "scale")

    def _keyed(self, dist, dt, size, a=0.0, b=1.0, c0=0, c1=0, out=None,
               fname="", pa=None, pb=None):
        o = out_array(size, dt, out, fname)
        k0, k1 = self._bit_generator._key()
        _ember_fill(o, dist, (0, 0, 0, 0, k0, k1), a, b, c0, c1, pa, pb)
        return o

    @staticmethod
    def _per_element(size, *params):
        """Array-valued parameters: the result's shape and each parameter
        as a C-contiguous float64 array of that shape on the device."""
        shape = _bshape(size, *params)
        return shape, [ember.ascontiguousarray(ember.broadcast_to(
            ember.asarray(q, dtype=_F64), shape)) for q in params]

    def integers(self, low, high=None, size=None, dtype=_np.int64,
                 endpoint=False):
        dt = norm_dtype(dtype)
        if dt.kind not in "iub":
            raise TypeError(f"Unsupported dtype {dt!r} for integers")
        if is_array(low) or is_array(high):
            return self._integers_arrays(low, high, size, dt, endpoint)
        if high is None:
            lo, hi = 0, operator.index(low)
        else:
            lo, hi = operator.index(low), operator.index(high)
        if not endpoint:
            if high is None:
                check(hi > 0, "high <= 0")
            else:
                check(lo < hi, "low >= high")
            hi -= 1
        else:
            check(lo <= hi, "low > high")
        info = _np.iinfo(dt) if dt.kind != "b" else None
        mn, mx = (0, 1) if info is None else (info.min, info.max)
        check(lo >= mn, f"low is out of bounds for {dt}")
        check(hi <= mx, f"high is out of bounds for {dt}")
        work = dt if dt in _INT_OUT else _np.dtype(_np.int32)
        o = self._keyed(_b.INTEGERS, work, size, c0=hi - lo + 1, c1=lo)
        return o if work == dt else o.astype(dt)

    def _integers_arrays(self, low, high, size, dt, endpoint):
        if high is None:
            low, high = 0, low
        lo, hi = host(low), host(high)
        if lo.dtype.kind not in "iub" or hi.dtype.kind not in "iub":
            raise TypeError("Unsupported array type for integers: low and "
                            "high must be integers")
        lo, hi = _np.broadcast_arrays(lo.astype(object), hi.astype(object))
        top = hi if endpoint else hi - 1
        check(_np.all(lo <= top), "low > high" if endpoint else "low >= high")
        info = _np.iinfo(dt) if dt.kind != "b" else None
        mn, mx = (0, 1) if info is None else (info.min, info.max)
        check(_np.all(lo >= mn), f"low is out of bounds for {dt}")
        check(_np.all(top <= mx), f"high is out of bounds for {dt}")
        # The kernel takes per-element bounds as float64: exact below 2^53.
        check(_np.all(_np.abs(lo) < 2 ** 53) and _np.all(_np.abs(top) < 2 ** 53),
              "array bounds beyond 2**53 are not supported by ember")
        shape, (pa, pb) = self._per_element(size, lo.astype(_F64),
                                            (top - lo + 1).astype(_F64))
        work = dt if dt in _INT_OUT else _np.dtype(_np.int32)
        o = self._keyed(_b.INTEGERS, work, shape, pa=pa, pb=pb)
        return o if work == dt else o.astype(dt)

    def standard_gamma(self, shape, size=None, dtype=_np.float64, out=None):
        dt = _float_dtype(dtype, "standard_gamma")
        return self._gamma(shape, 1.0, size, dt, out)

    def gamma(self, shape, scale=1.0, size=None):
        return self._gamma(shape, scale, size, _F64, None)

    def _gamma(self, shape, scale, size, dt, out):
        _nonneg(shape, "shape < 0")
        _nonneg(scale, "scale < 0")
        if is_array(shape) or is_array(scale):
            shp, (pa, pb) = self._per_element(size, shape, scale)
            return self._keyed(_b.GAMMA, dt, shp if out is None else None,
                               out=out, fname="standard_gamma", pa=pa, pb=pb)
        k, s = scalar(shape, "shape"), scalar(scale, "scale")
        return self._keyed(_b.GAMMA, dt, size, k, s, out=out,
                           fname="standard_gamma")

    def beta(self, a, b, size=None):
        _all(a, lambda v: ~(v <= 0), "a <= 0")
        _all(b, lambda v: ~(v <= 0), "b <= 0")
        if is_array(a) or is_array(b):
            size = _bshape(size, a, b)
        x = self._gamma(a, 1.0, size, _F64, None)
        y = self._gamma(b, 1.0, size, _F64, None)
        return x / (x + y)

    def poisson(self, lam=1.0, size=None):
        _all(lam, lambda v: v >= 0, "lam < 0 or lam is NaN")
        _all(lam, lambda v: v <= _POISSON_LAM_MAX, "lam value too large")
        i64 = _np.dtype(_np.int64)
        if is_array(lam):
            shp, (pa,) = self._per_element(size, lam)
            return self._keyed(_b.POISSON, i64, shp, pa=pa)
        return self._keyed(_b.POISSON, i64, size, scalar(lam, "lam"))

    def binomial(self, n, p, size=None):
        i64 = _np.dtype(_np.int64)
        if is_array(n) or is_array(p):
            hn = host(n)
            if hn.dtype.kind not in "iub":
                raise TypeError("binomial: n must be integers")
            check(_np.all(hn >= 0), "n < 0")
            _all(p, lambda v: (v >= 0) & (v <= 1), "p < 0, p > 1 or p is NaN")
            check(_np.all(hn < 2 ** 53),
                  "array-valued n beyond 2**53 is not supported by ember")
            shp, (pa, pb) = self._per_element(size, hn.astype(_F64), p)
            return self._keyed(_b.BINOMIAL, i64, shp, pa=pa, pb=pb)
        ni, fp = operator.index(n), scalar(p, "p")
        check(ni >= 0, "n < 0")
        check(0 <= fp <= 1, "p < 0, p > 1 or p is NaN")
        return self._keyed(_b.BINOMIAL, i64, size, 0.0, fp, c0=ni)

    # ---- composites ------------------------------------------------------
    def _perm_index(self, n):
        """A uniformly random permutation of range(n): the order of n
        random 64-bit keys (ties, about n^2/2^65 likely, keep index
        order)."""
        keys = ember.empty(n, dtype=_np.uint64)
        k0, k1 = self._bit_generator._key()
        _ember_fill(keys, _b.INTEGERS, (0, 0, 0, 0, k0, k1), 0.0, 1.0, 0, 0)
        return ember.argsort(keys, kind="stable")

    def permutation(self, x, axis=0):
        if isinstance(x, (int, _np.integer)):
            # the indices' order is the permuted arange(x) (empty below 1)
            return self._perm_index(max(int(x), 0))
        arr = ember.asarray(x)
        if arr.ndim < 1:
            raise ember.AxisError("x must be an integer or at least "
                                  "1-dimensional")
        ax = operator.index(axis)
        if not -arr.ndim <= ax < arr.ndim:
            raise ember.AxisError(f"axis {ax} is out of bounds for array of "
                                  f"dimension {arr.ndim}")
        return ember.take(arr, self._perm_index(arr.shape[ax]), axis=ax)

    def shuffle(self, x, axis=0):
        if not isinstance(x, ember.ndarray):
            raise TypeError("shuffle: x must be an ember.ndarray, not "
                            f"{type(x).__name__}")
        if x.ndim < 1:
            raise TypeError("shuffle: x must be at least 1-dimensional")
        x[...] = self.permutation(x, axis=axis)

    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True):
        if isinstance(a, (int, _np.integer)):
            pop, arr = int(a), None
            if pop <= 0 and _np.prod(shape_of(size)) != 0:
                raise ValueError("a must be a positive integer unless no "
                                 "samples are taken")
        else:
            arr = ember.asarray(a)
            if arr.ndim == 0:
                raise ValueError("a must be a sequence or an integer, not "
                                 "a 0-d array")
            pop = arr.shape[axis]
            if pop == 0 and _np.prod(shape_of(size)) != 0:
                raise ValueError("a cannot be empty unless no samples are "
                                 "taken")
        shape = shape_of(size)
        k = int(_np.prod(shape))
        pw = None
        if p is not None:
            ph = host(p, _F64)
            check(ph.ndim == 1, "p must be 1-dimensional")
            check(ph.size == pop, "a and p must have same size")
            check(not _np.any(_np.isnan(ph)), "Probabilities contain NaN")
            check(_np.all(ph >= 0), "Probabilities are not non-negative")
            check(abs(_np.sum(ph) - 1.0) <= _np.sqrt(_np.finfo(_F64).eps),
                  "Probabilities do not sum to 1. See Notes section of "
                  "docstring for more information.")
            pw = ember.asarray(ph)
        if replace:
            if pw is None:
                idx = self.integers(0, max(pop, 1), size=k)
            else:
                cdf = ember.cumsum(pw)
                u = self.random(k) * cdf[-1]
                idx = ember.minimum(ember.searchsorted(cdf, u, side="right"),
                                    pop - 1)
        else:
            if k > pop:
                raise ValueError("Cannot take a larger sample than population"
                                 " when replace is False")
            if pw is None:
                idx = self._perm_index(pop)[:k]
            else:
                check(int(_np.count_nonzero(ph)) >= k,
                      "Fewer non-zero entries in p than size")
                # Efraimidis-Spirakis: the k smallest E_i / p_i are a
                # weighted draw without replacement, in draw order.
                e = self.standard_exponential(pop)
                keys = ember.where(pw > 0, e / pw, _np.inf)
                idx = ember.argsort(keys, kind="stable")[:k]
        idx = idx.reshape(shape)
        if arr is None:
            return idx
        return ember.take(arr, idx, axis=axis)

    def multivariate_normal(self, mean, cov, size=None, check_valid="warn",
                            tol=1e-8, *, method="svd"):
        m, c = host(mean, _F64), host(cov, _F64)
        if m.ndim != 1:
            raise ValueError("mean must be 1 dimensional")
        if c.ndim != 2 or c.shape[0] != c.shape[1]:
            raise ValueError("cov must be 2 dimensional and square")
        if m.shape[0] != c.shape[0]:
            raise ValueError("mean and cov must have same length")
        if method not in ("svd", "eigh", "cholesky"):
            raise ValueError("method must be one of {'eigh', 'svd', "
                             "'cholesky'}")
        # The k x k factor is computed on the host, as NumPy does it
        # (ember.linalg has no decompositions yet); the draws and the
        # product run on the device.
        if method == "cholesky":
            f = _np.linalg.cholesky(c).T
        elif method == "eigh":
            s, v = _np.linalg.eigh(c)
            if check_valid != "ignore" and not _np.all(s >= -tol):
                _psd_fail(check_valid)
            f = (_np.sqrt(_np.abs(s))[:, None] * v.T)
        else:
            _u, s, vh = _np.linalg.svd(c)
            if check_valid != "ignore" and \
                    not _np.allclose((vh.T * s) @ vh, c, rtol=tol, atol=tol):
                _psd_fail(check_valid)
            f = _np.sqrt(s)[:, None] * vh
        shape = shape_of(size) + m.shape
        z = self.standard_normal(shape)
        return ember.matmul(z, ember.asarray(f)) + ember.asarray(m)


def _psd_fail(check_valid):
    if check_valid == "raise":
        raise ValueError("covariance is not symmetric positive-semidefinite.")
    if check_valid != "warn":
        raise ValueError("check_valid must equal 'warn', 'raise', or "
                         "'ignore'")
    import warnings
    warnings.warn("covariance is not symmetric positive-semidefinite.",
                  RuntimeWarning, stacklevel=3)


def _all(x, ok, msg):
    """NumPy's parameter check: ok(values) must hold everywhere (NaN
    fails it)."""
    v = host(x, _F64) if is_array(x) else _np.float64(scalar(x, "parameter"))
    check(bool(_np.all(ok(v))), msg)


def _nonneg(x, msg):
    """NumPy's non-negative check: -0.0 fails it, NaN passes."""
    _all(x, lambda v: _np.isnan(v) | ~_np.signbit(v), msg)


def _ember_fill(out, dist, words, a, b, c0, c1, pa=None, pb=None):
    """A keyed fill: the Philox key in words[4:], no stream state."""
    from ember import _ember
    _ember._random_fill(out, 1, words, (), None, dist, float(a), float(b),
                        c0 & _b._M64, c1 & _b._M64, pa, pb)


_POISSON_LAM_MAX = float(_np.iinfo(_np.int64).max) - \
    _np.sqrt(float(_np.iinfo(_np.int64).max)) * 10


def default_rng(seed=None):
    """A Generator over PCG64(seed), as numpy.random.default_rng."""
    if isinstance(seed, Generator):
        return seed
    if isinstance(seed, _b.BitGenerator):
        return Generator(seed)
    return Generator(_b.PCG64(seed))
