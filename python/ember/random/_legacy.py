"""NumPy's legacy RandomState and the module functions CuPy programs call
(cupy.random.seed, rand, randn, randint, uniform, normal, choice, ...).

Its stream is ember's own, not NumPy's MT19937: a RandomState(seed) is a
Generator over Philox seeded with `seed`, so it is reproducible and the
same on every ember device, but its numbers differ from NumPy's
RandomState (docs/random.md).
"""

import numpy as _np

from ember.random._bitgen import Philox
from ember.random._generator import Generator
from ember.random._util import host, norm_dtype


class RandomState:
    """RandomState(seed=None): the legacy API over a Philox stream."""

    def __init__(self, seed=None):
        self.seed(seed)

    def seed(self, seed=None):
        if seed is not None and not isinstance(seed, (int, _np.integer)):
            seed = _np.asarray(seed)
            if seed.dtype.kind not in "iu" or _np.any(seed < 0):
                raise ValueError("Seed must be between 0 and 2**32 - 1")
        elif seed is not None and not 0 <= int(seed) < 2 ** 32:
            raise ValueError("Seed must be between 0 and 2**32 - 1")
        self._gen = Generator(Philox(seed))

    def get_state(self):
        return self._gen.bit_generator.state

    def set_state(self, state):
        self._gen.bit_generator.state = state

    # dtype= as CuPy's legacy functions take it (NumPy's have none).
    def rand(self, *args, dtype=float):
        return self._gen.random(args if args else None, dtype=dtype)

    def randn(self, *args, dtype=float):
        return self._gen.standard_normal(args if args else None, dtype=dtype)

    def random_sample(self, size=None, dtype=float):
        return self._gen.random(size, dtype=dtype)

    random = ranf = sample = random_sample

    def randint(self, low, high=None, size=None, dtype=int):
        return self._gen.integers(low, high, size=size, dtype=dtype)

    def random_integers(self, low, high=None, size=None):
        if high is None:
            low, high = 1, low
        return self._gen.integers(low, high, size=size, endpoint=True)

    def uniform(self, low=0.0, high=1.0, size=None, dtype=float):
        dt = _fdt(dtype)
        return _as(self._gen.uniform(low, high, size), dt)

    def normal(self, loc=0.0, scale=1.0, size=None, dtype=float):
        dt = _fdt(dtype)
        return _as(self._gen.normal(loc, scale, size), dt)

    def standard_normal(self, size=None, dtype=float):
        return self._gen.standard_normal(size, dtype=dtype)

    def exponential(self, scale=1.0, size=None, dtype=float):
        dt = _fdt(dtype)
        return _as(self._gen.exponential(scale, size), dt)

    def standard_exponential(self, size=None, dtype=float):
        return self._gen.standard_exponential(size, dtype=_fdt(dtype))

    def gamma(self, shape, scale=1.0, size=None, dtype=float):
        dt = _fdt(dtype)
        return _as(self._gen.gamma(shape, scale, size), dt)

    def standard_gamma(self, shape, size=None, dtype=float):
        return self._gen.standard_gamma(shape, size, dtype=_fdt(dtype))

    def beta(self, a, b, size=None, dtype=float):
        dt = _fdt(dtype)
        return _as(self._gen.beta(a, b, size), dt)

    def poisson(self, lam=1.0, size=None, dtype=int):
        dt = _idt(dtype)
        return _as(self._gen.poisson(lam, size), dt)

    def binomial(self, n, p, size=None, dtype=int):
        dt = _idt(dtype)
        return _as(self._gen.binomial(n, p, size), dt)

    # NumPy's (and CuPy's) other legacy distributions, with CuPy's dtype=.
    def lognormal(self, mean=0.0, sigma=1.0, size=None, dtype=float):
        dt = _fdt(dtype)
        return _as(self._gen.lognormal(mean, sigma, size), dt)

    def laplace(self, loc=0.0, scale=1.0, size=None, dtype=float):
        dt = _fdt(dtype)
        return _as(self._gen.laplace(loc, scale, size), dt)

    def logistic(self, loc=0.0, scale=1.0, size=None, dtype=float):
        dt = _fdt(dtype)
        return _as(self._gen.logistic(loc, scale, size), dt)

    def gumbel(self, loc=0.0, scale=1.0, size=None, dtype=float):
        dt = _fdt(dtype)
        return _as(self._gen.gumbel(loc, scale, size), dt)

    def rayleigh(self, scale=1.0, size=None, dtype=float):
        dt = _fdt(dtype)
        return _as(self._gen.rayleigh(scale, size), dt)

    def weibull(self, a, size=None, dtype=float):
        dt = _fdt(dtype)
        return _as(self._gen.weibull(a, size), dt)

    def pareto(self, a, size=None, dtype=float):
        dt = _fdt(dtype)
        return _as(self._gen.pareto(a, size), dt)

    def power(self, a, size=None, dtype=float):
        dt = _fdt(dtype)
        return _as(self._gen.power(a, size), dt)

    def standard_cauchy(self, size=None, dtype=float):
        dt = _fdt(dtype)
        return _as(self._gen.standard_cauchy(size), dt)

    def geometric(self, p, size=None, dtype=int):
        dt = _idt(dtype)
        return _as(self._gen.geometric(p, size), dt)

    def chisquare(self, df, size=None, dtype=float):
        dt = _fdt(dtype)
        return _as(self._gen.chisquare(df, size), dt)

    def standard_t(self, df, size=None, dtype=float):
        dt = _fdt(dtype)
        return _as(self._gen.standard_t(df, size), dt)

    def f(self, dfnum, dfden, size=None, dtype=float):
        dt = _fdt(dtype)
        return _as(self._gen.f(dfnum, dfden, size), dt)

    def noncentral_chisquare(self, df, nonc, size=None, dtype=float):
        dt = _fdt(dtype)
        return _as(self._gen.noncentral_chisquare(df, nonc, size), dt)

    def noncentral_f(self, dfnum, dfden, nonc, size=None, dtype=float):
        dt = _fdt(dtype)
        return _as(self._gen.noncentral_f(dfnum, dfden, nonc, size), dt)

    def triangular(self, left, mode, right, size=None, dtype=float):
        dt = _fdt(dtype)
        return _as(self._gen.triangular(left, mode, right, size), dt)

    def wald(self, mean, scale, size=None, dtype=float):
        dt = _fdt(dtype)
        return _as(self._gen.wald(mean, scale, size), dt)

    def dirichlet(self, alpha, size=None, dtype=float):
        dt = _fdt(dtype)
        # the legacy API refuses a zero alpha too (NumPy's RandomState)
        if not isinstance(alpha, (int, float, _np.number)) and \
                _np.any(host(alpha, _np.float64) <= 0):
            raise ValueError("alpha <= 0")
        return _as(self._gen.dirichlet(alpha, size), dt)

    def zipf(self, a, size=None, dtype=int):
        dt = _idt(dtype)
        return _as(self._gen.zipf(a, size), dt)

    def logseries(self, p, size=None, dtype=int):
        dt = _idt(dtype)
        return _as(self._gen.logseries(p, size), dt)

    def hypergeometric(self, ngood, nbad, nsample, size=None, dtype=int):
        dt = _idt(dtype)
        # legacy NumPy's checks (nsample at least 1)
        return _as(self._gen._hypergeometric(ngood, nbad, nsample, size,
                                             True), dt)

    def vonmises(self, mu, kappa, size=None, dtype=float):
        dt = _fdt(dtype)
        return _as(self._gen.vonmises(mu, kappa, size), dt)

    def multinomial(self, n, pvals, size=None):
        return self._gen.multinomial(n, pvals, size)

    def negative_binomial(self, n, p, size=None, dtype=int):
        dt = _idt(dtype)
        return _as(self._gen.negative_binomial(n, p, size), dt)

    def multivariate_normal(self, mean, cov, size=None, check_valid="warn",
                            tol=1e-8):
        return self._gen.multivariate_normal(mean, cov, size, check_valid, tol)

    def choice(self, a, size=None, replace=True, p=None):
        return self._gen.choice(a, size, replace, p)

    def permutation(self, x):
        return self._gen.permutation(x)

    def shuffle(self, x):
        self._gen.shuffle(x)

    def bytes(self, length):
        return self._gen.bytes(length)

    def tomaxint(self, size=None):
        return self._gen.integers(0, _np.iinfo(_np.int64).max, size=size)


def _fdt(dtype):
    """CuPy's float dtype= (float32 or float64), checked before a draw."""
    dt = norm_dtype(dtype)
    if dt.kind != "f" or dt.itemsize not in (4, 8):
        raise TypeError(f"Unsupported dtype {dt!r}")
    return dt


def _idt(dtype):
    """CuPy's int dtype= of the discrete draws (int32 or int64)."""
    dt = norm_dtype(dtype)
    if dt.kind != "i" or dt.itemsize not in (4, 8):
        raise TypeError(f"Unsupported dtype {dt!r}: int32 or int64")
    return dt


def _as(a, dt):
    """a as dtype dt (checked by _fdt or _idt before the draw)."""
    return a if a.dtype == dt else a.astype(dt)


_global = None


def _rs():
    global _global
    if _global is None:
        _global = RandomState()
    return _global


def get_random_state():
    """The RandomState the module functions draw from (CuPy's name)."""
    return _rs()


def set_random_state(rs):
    global _global
    if not isinstance(rs, RandomState):
        raise TypeError("set_random_state needs an ember.random.RandomState")
    _global = rs


def seed(seed=None):
    _rs().seed(seed)


def _forward(name):
    def f(*args, **kwargs):
        return getattr(_rs(), name)(*args, **kwargs)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"numpy.random.{name} on ember's global RandomState."
    return f


_NAMES = ("rand", "randn", "randint", "random_integers", "random_sample",
          "random", "ranf", "sample", "uniform", "normal", "standard_normal",
          "exponential", "standard_exponential", "gamma", "standard_gamma",
          "beta", "poisson", "binomial", "multivariate_normal", "choice",
          "permutation", "shuffle", "bytes", "get_state", "set_state",
          "lognormal", "laplace", "logistic", "gumbel", "rayleigh",
          "weibull", "pareto", "power", "standard_cauchy", "geometric",
          "chisquare", "standard_t", "f", "noncentral_chisquare",
          "noncentral_f", "triangular", "wald", "dirichlet",
          "negative_binomial", "multinomial", "zipf", "logseries",
          "hypergeometric", "vonmises")
FUNCTIONS = {n: _forward(n) for n in _NAMES}
