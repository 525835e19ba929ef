"""scipy.stats.skewtest, kurtosistest and normaltest (D'Agostino and
Pearson's omnibus test) over ember arrays: the sample moments are ember
reductions along the axis and the transforms to normal scores SciPy's
closed forms, so the whole test is a few fused passes on the device.
The alternative is two-sided only; nan_policy is 'propagate' or 'raise'."""
from collections import namedtuple
import math

import ember
from ember.scipy import special as _special
from ember.scipy.stats import _axis, _floating, _policy

SkewtestResult = namedtuple("SkewtestResult", ("statistic", "pvalue"))
KurtosistestResult = namedtuple("KurtosistestResult", ("statistic", "pvalue"))
NormaltestResult = namedtuple("NormaltestResult", ("statistic", "pvalue"))


def _prep(a, axis, nan_policy, least, name):
    x = _floating(a, a.device if isinstance(a, ember.ndarray) else None)
    _policy(nan_policy, x, omit_ok=False)
    x, ax = _axis(x, axis)
    n = x.shape[ax]
    if n < least:
        raise ValueError(f"{name} requires at least {least} observations; "
                         f"only n={n} observations were given.")
    d = x - ember.mean(x, axis=ax, keepdims=True)
    d2 = d * d
    m2 = ember.mean(d2, axis=ax)
    return d, d2, m2, ax, float(n)


def _two_sided(z):
    return 2 * _special.ndtr(-ember.abs(z))


def _skew_z(d, d2, m2, ax, n):
    b2 = ember.mean(d2 * d, axis=ax) / m2 ** 1.5
    y = b2 * math.sqrt((n + 1) * (n + 3) / (6.0 * (n - 2)))
    beta2 = (3.0 * (n * n + 27 * n - 70) * (n + 1) * (n + 3)
             / ((n - 2.0) * (n + 5) * (n + 7) * (n + 9)))
    w2 = -1 + math.sqrt(2 * (beta2 - 1))
    delta = 1 / math.sqrt(0.5 * math.log(w2))
    alpha = math.sqrt(2.0 / (w2 - 1))
    y = ember.where(y == 0, 1.0, y) / alpha
    return delta * ember.log(y + ember.sqrt(y * y + 1))


def _kurt_z(d, d2, m2, ax, n):
    b2 = ember.mean(d2 * d2, axis=ax) / (m2 * m2)
    e = 3.0 * (n - 1) / (n + 1)
    varb2 = 24.0 * n * (n - 2) * (n - 3) / ((n + 1) * (n + 1.0) * (n + 3) * (n + 5))
    x = (b2 - e) / math.sqrt(varb2)
    sb1 = (6.0 * (n * n - 5 * n + 2) / ((n + 7) * (n + 9))
           * math.sqrt(6.0 * (n + 3) * (n + 5) / (n * (n - 2) * (n - 3))))
    a = 6.0 + 8.0 / sb1 * (2.0 / sb1 + math.sqrt(1 + 4.0 / sb1 ** 2))
    term1 = 1 - 2 / (9.0 * a)
    denom = 1 + x * math.sqrt(2 / (a - 4.0))
    term2 = ember.sign(denom) * ember.where(
        denom == 0.0, ember.nan, ((1 - 2.0 / a) / ember.abs(denom)) ** (1 / 3.0))
    return (term1 - term2) / math.sqrt(2 / (9.0 * a))


def skewtest(a, axis=0, nan_policy="propagate", alternative="two-sided"):
    _two_sided_only(alternative)
    z = _skew_z(*_prep(a, axis, nan_policy, 8, "skewtest"))
    return SkewtestResult(z, _two_sided(z))


def kurtosistest(a, axis=0, nan_policy="propagate", alternative="two-sided"):
    _two_sided_only(alternative)
    z = _kurt_z(*_prep(a, axis, nan_policy, 5, "kurtosistest"))
    return KurtosistestResult(z, _two_sided(z))


def normaltest(a, axis=0, nan_policy="propagate"):
    """K^2 = skewtest's z^2 + kurtosistest's z^2, and its chi-squared
    (2 degrees of freedom) survival exp(-K^2 / 2)."""
    parts = _prep(a, axis, nan_policy, 8, "skewtest")
    k2 = _skew_z(*parts) ** 2 + _kurt_z(*parts) ** 2
    return NormaltestResult(k2, ember.exp(-0.5 * k2))


def _two_sided_only(alternative):
    if alternative not in ("two-sided", "less", "greater"):
        raise ValueError("alternative must be 'less', 'greater' or 'two-sided'")
    if alternative != "two-sided":
        raise NotImplementedError(f"alternative={alternative!r} is not in "
                                  "ember.scipy.stats yet")
