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
from ember.random._util import norm_dtype


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
        return _as(self._gen.uniform(low, high, size), dtype)

    def normal(self, loc=0.0, scale=1.0, size=None, dtype=float):
        return _as(self._gen.normal(loc, scale, size), dtype)

    def standard_normal(self, size=None, dtype=float):
        return self._gen.standard_normal(size, dtype=dtype)

    def exponential(self, scale=1.0, size=None):
        return self._gen.exponential(scale, size)

    def standard_exponential(self, size=None):
        return self._gen.standard_exponential(size)

    def gamma(self, shape, scale=1.0, size=None):
        return self._gen.gamma(shape, scale, size)

    def standard_gamma(self, shape, size=None):
        return self._gen.standard_gamma(shape, size)

    def beta(self, a, b, size=None):
        return self._gen.beta(a, b, size)

    def poisson(self, lam=1.0, size=None):
        return self._gen.poisson(lam, size)

    def binomial(self, n, p, size=None):
        return self._gen.binomial(n, p, size)

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


def _as(a, dtype):
    dt = norm_dtype(dtype)
    if dt.kind != "f" or dt.itemsize not in (4, 8):
        raise TypeError(f"Unsupported dtype {dt!r}")
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
          "permutation", "shuffle", "bytes", "get_state", "set_state")
FUNCTIONS = {n: _forward(n) for n in _NAMES}
