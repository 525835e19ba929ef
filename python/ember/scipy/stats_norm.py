"""scipy.stats.norm over ember arrays: the normal distribution's pdf,
logpdf, cdf, sf, logcdf, ppf, isf, its moments, rvs (ember.random) and
the maximum-likelihood fit, called on the generator with loc= and
scale= or on a frozen distribution (norm(loc, scale)), as SciPy's. The
functions are elementwise compositions over ember.scipy.special's ndtr,
log_ndtr and ndtri, so they broadcast and stay on the operands' device;
a non-positive scale gives NaN, as SciPy's argument check does."""
import math

import ember
from ember.scipy import special as _special

_LOG_SQRT_2PI = 0.5 * math.log(2 * math.pi)


def _device(*xs):
    for x in xs:
        if isinstance(x, ember.ndarray):
            return x.device
    return None


def _args(x, loc, scale):
    """x, loc and scale as float ember arrays on one device (SciPy computes
    in float64 unless every operand is float32)."""
    dev = _device(x, loc, scale)
    arrs = [a if isinstance(a, ember.ndarray) else ember.asarray(a, device=dev)
            for a in (x, loc, scale)]
    dt = ember.result_type(*arrs)
    dt = dt if dt.kind == "f" and dt.itemsize >= 4 else ember.float64
    if dt.kind != "f":
        raise TypeError(f"scipy.stats.norm takes real numbers, not {dt}")
    return [a.astype(dt) for a in arrs]


def _checked(value, scale):
    # SciPy's rv_continuous answers NaN where its argument check fails
    return ember.where(scale > 0, value, ember.nan)


class norm_gen:
    """The normal distribution, scipy.stats.norm's spelling."""
    name = "norm"

    def __call__(self, loc=0, scale=1):
        return norm_frozen(self, loc, scale)

    def pdf(self, x, loc=0, scale=1):
        x, loc, scale = _args(x, loc, scale)
        z = (x - loc) / scale
        return _checked(ember.exp(-0.5 * z * z - _LOG_SQRT_2PI) / scale, scale)

    def logpdf(self, x, loc=0, scale=1):
        x, loc, scale = _args(x, loc, scale)
        z = (x - loc) / scale
        return _checked(-0.5 * z * z - _LOG_SQRT_2PI - ember.log(scale), scale)

    def cdf(self, x, loc=0, scale=1):
        x, loc, scale = _args(x, loc, scale)
        return _checked(_special.ndtr((x - loc) / scale), scale)

    def logcdf(self, x, loc=0, scale=1):
        x, loc, scale = _args(x, loc, scale)
        return _checked(_special.log_ndtr((x - loc) / scale), scale)

    def sf(self, x, loc=0, scale=1):
        # ndtr of the reflected point keeps the upper tail's precision
        x, loc, scale = _args(x, loc, scale)
        return _checked(_special.ndtr((loc - x) / scale), scale)

    def logsf(self, x, loc=0, scale=1):
        x, loc, scale = _args(x, loc, scale)
        return _checked(_special.log_ndtr((loc - x) / scale), scale)

    def ppf(self, q, loc=0, scale=1):
        q, loc, scale = _args(q, loc, scale)
        return _checked(loc + scale * _special.ndtri(q), scale)

    def isf(self, q, loc=0, scale=1):
        q, loc, scale = _args(q, loc, scale)
        return _checked(loc - scale * _special.ndtri(q), scale)

    def mean(self, loc=0, scale=1):
        _, loc, scale = _args(0.0, loc, scale)
        return _checked(loc + 0 * scale, scale)

    median = mean

    def var(self, loc=0, scale=1):
        _, loc, scale = _args(0.0, loc, scale)
        return _checked(scale * scale, scale)

    def std(self, loc=0, scale=1):
        _, loc, scale = _args(0.0, loc, scale)
        return _checked(scale + 0 * loc, scale)

    def rvs(self, loc=0, scale=1, size=None, random_state=None):
        """Normal variates from ember.random: random_state is a seed, an
        ember Generator or None (a fresh generator); the stream is
        ember's, not NumPy's, so values differ from SciPy's for one seed."""
        if isinstance(random_state, ember.random.Generator):
            rng = random_state
        else:
            rng = ember.random.default_rng(random_state)
        dev = _device(loc, scale)
        if dev is None:
            return rng.normal(loc, scale, size)
        with dev:
            return rng.normal(loc, scale, size)

    def fit(self, data, *, floc=None, fscale=None):
        """The maximum-likelihood (loc, scale): the mean and the standard
        deviation with ddof=0, over the flattened data, as SciPy's
        closed form; floc/fscale hold one fixed."""
        x = data if isinstance(data, ember.ndarray) else ember.asarray(data)
        x = x.reshape(-1).astype(ember.float64 if x.dtype.kind != "f" else x.dtype)
        if x.size == 0:
            raise ValueError("`data` must contain at least one value.")
        if not bool(ember.all(ember.isfinite(x))):
            raise ValueError("The data contains non-finite values.")
        loc = ember.mean(x) if floc is None else ember.asarray(floc, dtype=x.dtype,
                                                               device=x.device)
        if fscale is None:
            d = x - loc
            scale = ember.sqrt(ember.mean(d * d))
        else:
            scale = ember.asarray(fscale, dtype=x.dtype, device=x.device)
        return loc, scale


class norm_frozen:
    """norm(loc, scale): the distribution with its parameters bound."""

    def __init__(self, dist, loc, scale):
        self.dist, self.args, self.kwds = dist, (), {"loc": loc, "scale": scale}

    def __getattr__(self, name):
        if name in ("pdf", "logpdf", "cdf", "logcdf", "sf", "logsf", "ppf", "isf"):
            f = getattr(self.dist, name)
            return lambda x: f(x, **self.kwds)
        if name in ("mean", "median", "var", "std"):
            f = getattr(self.dist, name)
            return lambda: f(**self.kwds)
        raise AttributeError(f"'norm_frozen' object has no attribute {name!r}")

    def rvs(self, size=None, random_state=None):
        return self.dist.rvs(size=size, random_state=random_state, **self.kwds)


norm = norm_gen()
