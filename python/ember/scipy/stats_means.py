"""scipy.stats.gmean over ember arrays: exp of the (weighted) mean of the
logarithms along an axis, one fused pass of ember's reductions."""
import ember
from ember.scipy.stats import _axis, _floating, _keep, _policy


def gmean(a, axis=0, dtype=None, weights=None, *, nan_policy="propagate",
          keepdims=False):
    """scipy.stats.gmean: a zero gives 0 and a negative value NaN (the
    logarithm's), integers compute in float64."""
    dev = a.device if isinstance(a, ember.ndarray) else None
    x = _floating(a, dev)
    if dtype is not None:
        x = x.astype(dtype)
    _policy(nan_policy, x, omit_ok=False)
    shape = x.shape
    x, ax = _axis(x, axis)
    with ember.errstate(divide="ignore", invalid="ignore"):
        logs = ember.log(x)
        if weights is None:
            m = ember.mean(logs, axis=ax)
        else:
            w = _floating(weights, x.device)
            # SciPy broadcasts weights against a before the axis is taken
            w = ember.broadcast_to(w, shape).reshape(x.shape)
            m = ember.sum(logs * w, axis=ax) / ember.sum(w, axis=ax)
        if keepdims and axis is None:
            return ember.exp(m).reshape((1,) * len(shape))
        return _keep(ember.exp(m), ax, keepdims)
