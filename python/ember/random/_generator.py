"""NumPy's Generator over ember's kernels.

Bit for bit NumPy's (same seed, same state afterwards): random (float64
and float32), uniform, bytes and the bit generators' raw words. The other
draws use ember's own counter-based methods (docs/random.md): the same on
every ember device, NumPy's distribution, not NumPy's numbers. Arrays are
made on the current device; results of size=None are 0-d arrays (as
CuPy's), so no draw waits on the device.
"""
import math
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
                            " (PCG64, PCG64DXSM or Philox), not "
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

    def _gamma(self, shape, scale, size, dt, out, checked=False):
        if not checked:
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

    # ---- one word an element: the one-word transforms ------------------
    def _word(self, dist, dt, size, a=0.0, b=1.0):
        """A one-word draw of dist with parameters a and b (scalars, or
        arrays broadcast per element)."""
        if is_array(a) or is_array(b):
            shape, (pa, pb) = self._per_element(size, a, b)
            o = ember.empty(shape, dtype=dt)
            self._bit_generator._fill(o, dist, pa=pa, pb=pb)
            return o
        o = ember.empty(shape_of(size), dtype=dt)
        self._bit_generator._fill(o, dist, scalar(a, "a"), scalar(b, "b"))
        return o

    def lognormal(self, mean=0.0, sigma=1.0, size=None):
        _nonneg(sigma, "sigma < 0")
        return self._word(_b.LOGNORMAL, _F64, size, mean, sigma)

    def laplace(self, loc=0.0, scale=1.0, size=None):
        _nonneg(scale, "scale < 0")
        return self._word(_b.LAPLACE, _F64, size, loc, scale)

    def logistic(self, loc=0.0, scale=1.0, size=None):
        _nonneg(scale, "scale < 0")
        return self._word(_b.LOGISTIC, _F64, size, loc, scale)

    def gumbel(self, loc=0.0, scale=1.0, size=None):
        _nonneg(scale, "scale < 0")
        return self._word(_b.GUMBEL, _F64, size, loc, scale)

    def rayleigh(self, scale=1.0, size=None):
        _nonneg(scale, "scale < 0")
        return self._word(_b.RAYLEIGH, _F64, size, 0.0, scale)

    def weibull(self, a, size=None):
        _nonneg(a, "a < 0")
        return self._word(_b.WEIBULL, _F64, size, a)

    def pareto(self, a, size=None):
        _positive(a, "a <= 0")
        return self._word(_b.PARETO, _F64, size, a)

    def power(self, a, size=None):
        _positive(a, "a <= 0")
        return self._word(_b.POWER, _F64, size, a)

    def standard_cauchy(self, size=None):
        return self._word(_b.CAUCHY, _F64, size)

    def geometric(self, p, size=None):
        _all(p, lambda v: (v > 0) & (v <= 1),
             "p <= 0, p > 1 or p contains NaNs")
        return self._word(_b.GEOMETRIC, _np.dtype(_np.int64), size, p)

    def _keyed_int(self, dist, size, a):
        i64 = _np.dtype(_np.int64)
        if is_array(a):
            shp, (pa,) = self._per_element(size, a)
            return self._keyed(dist, i64, shp, pa=pa)
        return self._keyed(dist, i64, size, scalar(a, "a"))

    def zipf(self, a, size=None):
        _all(a, lambda v: v > 1, "a <= 1 or a is NaN")
        return self._keyed_int(_b.ZIPF, size, a)

    def logseries(self, p, size=None):
        _all(p, lambda v: (v >= 0) & (v < 1), "p < 0, p >= 1 or p is NaN")
        return self._keyed_int(_b.LOGSERIES, size, p)

    def vonmises(self, mu, kappa, size=None):
        _nonneg(kappa, "kappa < 0")
        if is_array(mu) or is_array(kappa):
            shp, (pa, pb) = self._per_element(self._cshape_host(size, mu,
                                                                kappa),
                                              mu, kappa)
            return self._keyed(_b.VONMISES, _F64, shp, pa=pa, pb=pb)
        return self._keyed(_b.VONMISES, _F64, size, scalar(mu, "mu"),
                           scalar(kappa, "kappa"))

    def hypergeometric(self, ngood, nbad, nsample, size=None):
        return self._hypergeometric(ngood, nbad, nsample, size, False)

    def _hypergeometric(self, ngood, nbad, nsample, size, legacy):
        g, b, n = (_np.asarray(host(x)).astype(_np.int64)
                   for x in (ngood, nbad, nsample))
        # NumPy's checks, in its order
        check(not _np.any(g + b < n), "ngood + nbad < nsample")
        check(not _np.any(g < 0), "ngood < 0")
        check(not _np.any(b < 0), "nbad < 0")
        if legacy:
            check(not _np.any(n < 1), "nsample < 1 or nsample is NaN")
        else:
            check(not _np.any(n < 0), "nsample < 0")
        # (the kernel packs ngood and nbad into one 64-bit word)
        check(not (_np.any(g >= _HYPER_MAX) or _np.any(b >= _HYPER_MAX)),
              f"both ngood and nbad must be less than {_HYPER_MAX}")
        i64 = _np.dtype(_np.int64)
        if not (is_array(ngood) or is_array(nbad) or is_array(nsample)):
            return self._keyed(_b.HYPERGEOMETRIC, i64, size, 0.0, float(n),
                               c0=(int(g) << 32) | int(b))
        shape = self._cshape_host(size, ngood, nbad, nsample)
        return self._hyper_fill(shape, g, b, n)

    def _hyper_fill(self, shape, g, b, n):
        """Hypergeometric draws of shape; g, b NumPy int64 arrays (or
        0-d) that broadcast to it, n one too or an ember float64 array of
        the shape (multivariate_hypergeometric's samples' remainders).
        ngood and nbad go to the kernel as one
        word, ngood << 32 | nbad, per element as an int64 array viewed as
        float64 (the kernel reads its bits), or as c0 when both are
        scalars; nsample as float64 (exact: below 2^31)."""
        i64 = _np.dtype(_np.int64)
        o = ember.empty(shape, dtype=i64)
        c0, pa, pb, bn = 0, None, None, 0.0
        if g.ndim or b.ndim:
            w = _np.broadcast_to((g << 32) | b, shape)
            pa = ember.asarray(_np.ascontiguousarray(w)).view(_F64)
        else:
            c0 = (int(g) << 32) | int(b)
        if isinstance(n, ember.ndarray):
            pb = n
        elif n.ndim:
            pb = ember.asarray(_np.ascontiguousarray(
                _np.broadcast_to(n, shape), dtype=_F64))
        else:
            bn = float(n)
        k0, k1 = self._bit_generator._key()
        _ember_fill(o, _b.HYPERGEOMETRIC, (0, 0, 0, 0, k0, k1), 0.0, bn, c0,
                    0, pa, pb)
        return o

    @staticmethod
    def _cshape_host(size, *params):
        """As _cshape, with the parameters' shapes from the host."""
        b = _np.broadcast_shapes(*(tuple(q.shape) if isinstance(
            q, ember.ndarray) else _np.shape(q) for q in params))
        if size is None:
            return b
        s = shape_of(size)
        if _np.broadcast_shapes(s, b) != s:
            raise ValueError("shape mismatch: objects cannot be broadcast "
                             "to a single shape")
        return s

    def multivariate_hypergeometric(self, colors, nsample, size=None,
                                    method="marginals"):
        if method not in ("count", "marginals"):
            raise ValueError('method must be "count" or "marginals".')
        try:
            ns = operator.index(nsample)
        except TypeError:
            raise ValueError("nsample must be an integer") from None
        check(ns >= 0, "nsample must be nonnegative.")
        c = host(colors)
        bad = c.ndim != 1 or (c.size > 0 and c.dtype.kind not in "iu") or \
            bool(_np.any(c < 0))
        check(not bad, "colors must be a one-dimensional sequence of "
              "nonnegative integers not exceeding 9223372036854775807.")
        c = c.astype(_np.int64)
        total = int(sum(int(v) for v in c))
        check(total <= _np.iinfo(_np.int64).max,
              "sum(colors) must not exceed the maximum value of a 64 bit "
              "signed integer (9223372036854775807)")
        if method == "marginals":
            check(total < _HYPER_MAX, 'When method is "marginals", '
                  f'sum(colors) must be less than {_HYPER_MAX}.')
        check(ns <= total, "nsample > sum(colors)")
        shape = shape_of(size)
        k = c.size
        i64 = _np.dtype(_np.int64)
        if k == 0 or 0 in shape:
            return ember.zeros(shape + (k,), dtype=i64)
        if method == "count":
            return self._mvh_count(c, ns, shape)
        # NumPy's marginals: color j's count is Hypergeometric(colors[j],
        # the colors after it, what is left to sample); the last color
        # takes the rest. One keyed fill a color, over all samples.
        left = ember.zeros(shape, dtype=_F64) + float(ns)
        after = total
        cols = []
        for j in range(k - 1):
            after -= int(c[j])
            x = self._hyper_fill(shape, _np.int64(c[j]), _np.int64(after),
                                 left)
            cols.append(x)
            left = left - x.astype(_F64)  # exact: counts below 2^31
        cols.append(left.astype(i64))
        return ember.stack(cols, axis=-1)

    def _mvh_count(self, c, ns, shape):
        """ember's 'count' method: each sample takes the nsample items of
        smallest random key among sum(colors) items (one argsort along
        the items), and counts each color's among them; memory grows as
        samples times sum(colors), as NumPy's method grows as
        sum(colors)."""
        m = int(_np.prod(shape))
        total = int(c.sum())
        keys = ember.empty((m, total), dtype=_np.uint64)
        k0, k1 = self._bit_generator._key()
        _ember_fill(keys, _b.INTEGERS, (0, 0, 0, 0, k0, k1), 0.0, 1.0, 0, 0)
        pick = ember.argsort(keys, axis=-1, kind="stable")[:, :ns]
        color_of = ember.asarray(_np.repeat(_np.arange(c.size), c))
        # every sample's colors counted in one bincount of (sample, color)
        # keys, not one pass over all the picks a color
        row = ember.arange(m, dtype=_np.int64).reshape(m, 1) * c.size
        keys = (ember.take(color_of, pick) + row).reshape(-1)
        counts = ember.bincount(keys, minlength=m * c.size).astype(_np.int64)
        return counts.reshape(shape + (c.size,))

    def permuted(self, x, *, axis=None, out=None):
        """x with each slice along axis shuffled independently (axis None:
        all its elements): ember's method, the order of random 64-bit keys
        along the axis (one argsort), not NumPy's numbers."""
        arr = x if isinstance(x, ember.ndarray) else ember.asarray(x)
        if arr.ndim == 0:
            raise TypeError("len() of unsized object")
        if out is not None:
            if not isinstance(out, ember.ndarray):
                raise TypeError("out must be an ember.ndarray, not "
                                f"{type(out).__name__}")
            if tuple(out.shape) != tuple(arr.shape):
                raise ValueError("out must have the same shape as x")
            src, dst = _np.dtype(str(arr.dtype)), _np.dtype(str(out.dtype))
            if not _np.can_cast(src, dst, "safe"):
                raise TypeError(f"Cannot cast array data from {src!r} to "
                                f"{dst!r} according to the rule 'safe'")
        if axis is None:
            flat = arr.reshape(-1)
            res = ember.take(flat, self._perm_index(
                flat.size, arr.device)).reshape(arr.shape)
        else:
            ax = operator.index(axis)
            if not -arr.ndim <= ax < arr.ndim:
                raise ember.AxisError(f"axis {ax} is out of bounds for array "
                                      f"of dimension {arr.ndim}")
            keys = ember.empty(arr.shape, dtype=_np.uint64,
                               device=arr.device)
            k0, k1 = self._bit_generator._key()
            _ember_fill(keys, _b.INTEGERS, (0, 0, 0, 0, k0, k1), 0.0, 1.0, 0,
                        0)
            order = ember.argsort(keys, axis=ax, kind="stable")
            res = ember.take_along_axis(arr, order, axis=ax)
        if out is None:
            return res
        out[...] = res
        return out

    def spawn(self, n_children):
        """n_children new Generators over bit generators seeded from this
        one's SeedSequence's children (NumPy's spawn)."""
        return [type(self)(g) for g in self._bit_generator.spawn(n_children)]

    # ---- compositions: existing fills and single-operation ufunc steps --
    # Each arithmetic step below is one ember ufunc call of one IEEE
    # operation (+ - * / sqrt), never a fused expression, so it rounds the
    # same on every device (no contraction into a fused multiply-add).
    @staticmethod
    def _cshape(size, *params):
        """The result shape of a composite: size, which the parameters'
        shapes must broadcast to, or their broadcast shape."""
        b = ember.broadcast_shapes(*(q.shape if isinstance(q, ember.ndarray)
                                     else () for q in params))
        if size is None:
            return b
        s = shape_of(size)
        if ember.broadcast_shapes(s, b) != s:
            raise ValueError("shape mismatch: objects cannot be broadcast "
                             "to a single shape")
        return s

    def _chi2(self, df, shape):
        """Chi-square(df) as 2 Gamma(df / 2): the halving is exact and the
        doubling is the gamma kernel's scale."""
        return self._gamma(df * 0.5, 2.0, shape, _F64, None, checked=True)

    def chisquare(self, df, size=None):
        _positive(df, "df <= 0")
        d = _param(df)
        return self._chi2(d, self._cshape(size, d))

    def standard_t(self, df, size=None):
        _positive(df, "df <= 0")
        d = _param(df)
        shape = self._cshape(size, d)
        z = self.standard_normal(shape)
        h = d * 0.5
        g = self._gamma(h, 1.0, shape, _F64, None, checked=True)
        # NumPy's sqrt(df/2) z / sqrt(G)
        return (z * _sqrt(h)) / ember.sqrt(g)

    def f(self, dfnum, dfden, size=None):
        _positive(dfnum, "dfnum <= 0")
        _positive(dfden, "dfden <= 0")
        n, d = _param(dfnum), _param(dfden)
        shape = self._cshape(size, n, d)
        x = self._chi2(n, shape)
        y = self._chi2(d, shape)
        return (x * d) / (y * n)

    def _ncx2(self, d, c, shape):
        """NumPy's method: Chi2(df - 1) + (z + sqrt(nonc))^2 where df > 1,
        else Chi2(df + 2 Poisson(nonc / 2)); NaN where nonc is NaN."""
        hd, hc = host(d, _F64), host(c, _F64)
        if 0 in shape:
            return ember.empty(shape, dtype=_F64)
        dd = ember.broadcast_to(ember.asarray(d, dtype=_F64), shape)
        cc = ember.broadcast_to(ember.asarray(c, dtype=_F64), shape)
        big = dd > 1.0
        res = None
        if _np.any(hd > 1):
            dm = ember.where(big, dd - 1.0, 0.0)
            n = self.standard_normal(shape) + ember.sqrt(cc)
            res = self._chi2(dm, shape) + n * n
        if not _np.all(hd > 1):
            lam = ember.where(big | ember.isnan(cc), 0.0,
                              ember.minimum(cc * 0.5, _POISSON_LAM_MAX))
            i = self._keyed(_b.POISSON, _np.dtype(_np.int64), shape,
                            pa=ember.ascontiguousarray(lam))
            sh = i.astype(_F64) + dd * 0.5
            small = self._gamma(sh, 2.0, shape, _F64, None, checked=True)
            res = small if res is None else ember.where(big, res, small)
        if _np.any(_np.isnan(hc)):
            res = ember.where(ember.isnan(cc), _np.nan, res)
        return res

    def noncentral_chisquare(self, df, nonc, size=None):
        _positive(df, "df <= 0")
        _nonneg(nonc, "nonc < 0")
        d, c = _param(df), _param(nonc)
        return self._ncx2(d, c, self._cshape(size, d, c))

    def noncentral_f(self, dfnum, dfden, nonc, size=None):
        _positive(dfnum, "dfnum <= 0")
        _positive(dfden, "dfden <= 0")
        _nonneg(nonc, "nonc < 0")
        n, d, c = _param(dfnum), _param(dfden), _param(nonc)
        shape = self._cshape(size, n, d, c)
        t = self._ncx2(n, c, shape) * d
        return t / (self._chi2(d, shape) * n)

    def triangular(self, left, mode, right, size=None):
        hl, hm, hr = host(left, _F64), host(mode, _F64), host(right, _F64)
        check(not _np.any(hl > hm), "left > mode")
        check(not _np.any(hm > hr), "mode > right")
        check(not _np.any(hl == hr), "left == right")
        lo, md, hi = _param(left), _param(mode), _param(right)
        shape = self._cshape(size, lo, md, hi)
        # NumPy's steps, in its order
        base = hi - lo
        leftbase = md - lo
        ratio = leftbase / base
        leftprod = leftbase * base
        rightprod = (hi - md) * base
        u = self.random(shape)
        a = lo + ember.sqrt(u * leftprod)
        b = hi - ember.sqrt((1.0 - u) * rightprod)
        return ember.where(u <= ratio, a, b)

    def wald(self, mean, scale, size=None):
        _positive(mean, "mean <= 0")
        _positive(scale, "scale <= 0")
        mu, sc = _param(mean), _param(scale)
        shape = self._cshape(size, mu, sc)
        # NumPy's steps, in its order: Y = mean z z, X = mean (1 - 2 / (1
        # + sqrt(1 + 4 scale / Y))) (the form without cancellation)
        z = self.standard_normal(shape)
        y = (mu * z) * z
        t = ember.sqrt(1.0 + (4.0 * sc) / y)
        x = mu * (1.0 - 2.0 / (1.0 + t))
        u = self.random(shape)
        return ember.where(u <= mu / (mu + x), x, (mu * mu) / x)

    def dirichlet(self, alpha, size=None):
        ha = host(alpha, _F64)
        k = len(ha)
        if ha.ndim != 1:
            raise ValueError("alpha must be a one-dimensional sequence of "
                             "floats")
        check(not _np.any(ha < 0), "alpha < 0")
        shape = shape_of(size) + (k,)
        g = self._gamma(ember.asarray(ha), 1.0, shape, _F64, None,
                        checked=True)
        if k == 0 or 0 in shape or not _np.any(ha):
            return g  # all-zero alphas: zeros, as NumPy's
        # The row sums by a fixed pairwise order of single additions, so
        # they round the same on every device.
        s = g
        while s.shape[-1] > 1:
            m = s.shape[-1] // 2
            t = s[..., :m] + s[..., m:2 * m]
            if s.shape[-1] % 2:
                t = ember.concatenate([t, s[..., 2 * m:]], axis=-1)
            s = t
        return g / s

    def negative_binomial(self, n, p, size=None):
        hn, hp = host(n, _F64), host(p, _F64)
        check(not _np.any(_np.isnan(hn)), "n must not be NaN")
        check(not _np.any(hn <= 0), "n <= 0")
        _all(p, lambda v: (v > 0) & (v <= 1),
             "p <= 0, p > 1 or p contains NaNs")
        with _np.errstate(all="ignore"):
            lam = (1 - hp) / hp * (hn + 10 * _np.sqrt(hn))
        check(not _np.any(lam > _POISSON_LAM_MAX),
              "n too large or p too small, see Generator.negative_binomial "
              "Notes")
        nn, pp = _param(n), _param(p)
        shape = self._cshape(size, nn, pp)
        # the gamma-Poisson mixture: Poisson(Gamma(n, (1 - p) / p))
        y = self._gamma(nn, (1.0 - pp) / pp, shape, _F64, None, checked=True)
        return self._keyed(_b.POISSON, _np.dtype(_np.int64), shape, pa=y)

    def multinomial(self, n, pvals, size=None):
        hp = host(pvals, _F64)
        if hp.ndim == 0 or hp.shape[-1] == 0:
            raise ValueError("pvals must have at least 1 dimension and the "
                             "last dimension of pvals must be greater than "
                             "0.")
        hn = host(n)
        if hn.dtype.kind not in "iub":
            hn = hn.astype(_np.int64)  # NumPy truncates a float n
        check(not _np.any(hn < 0), "n < 0")
        check(bool(_np.all((hp >= 0) & (hp <= 1))),
              "pvals < 0, pvals > 1 or pvals contains NaNs")
        check(not _np.any(_np.sum(hp[..., :-1], axis=-1) > 1.0 + 1e-12),
              "sum(pvals[:-1]) > 1.0" if hp.ndim == 1 else
              "sum(pvals[...,:-1]) > 1.0")
        check(not _np.any(hn >= 2 ** 53),
              "multinomial n beyond 2**53 is not supported by ember")
        k = hp.shape[-1]
        b = _np.broadcast_shapes(hn.shape, hp.shape[:-1])
        shape = b if size is None else shape_of(size)
        if _np.broadcast_shapes(shape, b) != shape:
            raise ValueError("shape mismatch: objects cannot be broadcast "
                             "to a single shape")
        i64 = _np.dtype(_np.int64)
        if 0 in shape:
            return ember.empty(shape + (k,), dtype=i64)
        # NumPy's conditional binomials: count j is Binomial(what is left,
        # p_j / (1 - p_0 - ... - p_{j-1})), the last count what remains.
        # The step probabilities are the host's float64 arithmetic, in
        # NumPy's order (capped at 1 where rounding or a short sum lifts
        # them past it).
        rem = _np.ones(hp.shape[:-1])
        # (copies, not ascontiguousarray, which makes a 0-d shape 1-d)
        dn = ember.broadcast_to(ember.asarray(hn.astype(_F64)), shape).copy()
        cols = []
        for j in range(k - 1):
            with _np.errstate(all="ignore"):
                q = _np.where(rem > 0, _np.minimum(hp[..., j] / rem, 1.0),
                              1.0)
            rem = rem - hp[..., j]
            if q.ndim == 0:
                x = self._keyed(_b.BINOMIAL, i64, shape, 0.0, float(q),
                                pa=dn)
            else:
                pq = ember.broadcast_to(ember.asarray(q), shape).copy()
                x = self._keyed(_b.BINOMIAL, i64, shape, pa=dn, pb=pq)
            cols.append(x)
            dn = dn - x.astype(_F64)  # exact: counts below 2^53
        cols.append(dn.astype(i64))
        return ember.stack(cols, axis=-1)

    # ---- composites ------------------------------------------------------
    def _perm_index(self, n, device=None):
        """A uniformly random permutation of range(n): the order of n
        random 64-bit keys (ties, about n^2/2^65 likely, keep index
        order), on device (None: the current one)."""
        keys = ember.empty(n, dtype=_np.uint64, device=device)
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


def _positive(x, msg):
    """NumPy's positive check: 0 and -0.0 fail it, NaN passes."""
    _all(x, lambda v: ~(v <= 0), msg)


def _param(x):
    """A parameter of a composite: a Python float, or, array-valued, a
    float64 ember array (the steps are ember ufunc calls on it)."""
    if is_array(x):
        return ember.asarray(host(x, _F64) if not isinstance(x, ember.ndarray)
                             else x, dtype=_F64)
    return scalar(x, "parameter")


def _sqrt(x):
    """sqrt of a parameter: IEEE's correctly rounded root either way."""
    return ember.sqrt(x) if isinstance(x, ember.ndarray) else math.sqrt(x) \
        if x >= 0 else float("nan")


def _nonneg(x, msg):
    """NumPy's non-negative check: -0.0 fails it, NaN passes."""
    if not is_array(x):
        # a scalar without NumPy: its ufuncs cost more than a GPU fill's
        # launch (standard_normal's event-timed call waits for them)
        v = scalar(x, "parameter")
        check(math.isnan(v) or math.copysign(1.0, v) > 0, msg)
        return
    _all(x, lambda v: _np.isnan(v) | ~_np.signbit(v), msg)


def _ember_fill(out, dist, words, a, b, c0, c1, pa=None, pb=None):
    """A keyed fill: the Philox key in words[4:], no stream state."""
    from ember import _ember
    _ember._random_fill(out, 1, words, (), None, dist, float(a), float(b),
                        c0 & _b._M64, c1 & _b._M64, pa, pb)


# NumPy's bound on ngood and nbad (and on sum(colors), 'marginals')
_HYPER_MAX = 1000000000

_POISSON_LAM_MAX = float(_np.iinfo(_np.int64).max) - \
    _np.sqrt(float(_np.iinfo(_np.int64).max)) * 10


def default_rng(seed=None):
    """A Generator over PCG64(seed), as numpy.random.default_rng."""
    if isinstance(seed, Generator):
        return seed
    if isinstance(seed, _b.BitGenerator):
        return Generator(seed)
    return Generator(_b.PCG64(seed))
