"""scipy.special.factorial over ember arrays. exact=False is gamma(n + 1)
in float64 with SciPy's zero for negative n (extend='zero'), one
elementwise pass; exact=True gives int64 from a table of 0! .. 20!
(ember holds no Python integers, SciPy's object array past 20!), and a
Python int for a Python scalar. extend='complex' is not there yet."""
import math

import ember
from ember import _ember

_TABLE = [math.factorial(k) for k in range(21)]


def factorial(n, exact=False, extend="zero"):
    if extend not in ("zero", "complex"):
        raise ValueError("argument `extend` must be either 'zero' or 'complex', "
                         f"received: {extend}")
    if extend == "complex":
        raise NotImplementedError("factorial(extend='complex') is not in "
                                  "ember.scipy.special yet")
    if exact and isinstance(n, int):
        return math.factorial(n) if n >= 0 else 0
    x = n if isinstance(n, ember.ndarray) else ember.asarray(n)
    if x.dtype.kind not in "iuf":
        raise ValueError(f"Unsupported data type for `n` in factorial: {x.dtype}")
    if exact:
        if x.dtype.kind == "f":
            raise ValueError("`exact=True` only supports integral values")
        if x.size and int(ember.max(x)) > 20:
            raise OverflowError("factorial(exact=True) past 20! needs Python "
                                "integers, which ember arrays do not hold")
        table = ember.asarray(_TABLE, dtype=ember.int64, device=x.device)
        k = ember.clip(x, 0, 20).astype(ember.int64)
        return ember.where(x >= 0, ember.take(table, k), 0)
    # a float32 n is SciPy's float32 gamma, widened to its float64 result
    x1 = x + 1 if x.dtype.kind == "f" else x.astype(ember.float64) + 1
    g = _ember._sp_gamma(x1).astype(ember.float64)
    # NaN stays NaN: only a negative n is SciPy's zero
    return ember.where(x < 0, 0.0, g)
