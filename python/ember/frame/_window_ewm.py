"""Exponentially weighted statistics as scans. Each row is a step that
decays what came before by D and adds the row with weight W: D = 1 - alpha
(adjust=True), or, for adjust=False, the share c the old mean keeps at an
observation (then W = 1 - c). The weighted sums are linear recurrences,
one inclusive scan of affine maps each (composing two steps gives
(D1 * D2, S1 * D2 + S2), which is associative); the variance merges
(decay, weight, mean, M2) summaries as Chan's update does, with the
earlier part's weight decayed. A long product of decays underflows to 0,
the weight such old rows have anyway; results are read at each row's
last observation, where the weight is at least the row's own."""
import ember
import ember.parallel as P

_AFFINE2 = ("a0 * b0", "a1 * b0 + b1", "a2 * b0 + b2")
_MERGE = ("a0 * b0",
          "a1 * b0 + b1",
          "(a1 * b0 + b1) > 0 ? a2 + (b2 - a2) * (b1 / (a1 * b0 + b1)) : 0.0",
          "a3 * b0 + b3 + ((a1 * b0 + b1) > 0 ? "
          "(b2 - a2) * (b2 - a2) * (a1 * b0 * b1 / (a1 * b0 + b1)) : 0.0)")
_NAN = float("nan")


def _steps(x, valid, alpha, adjust, ignore_na):
    """(D, W, last): each row's decay of the past and its own weight, and
    the index of the last observation up to each row (-1 before any)."""
    f = 1.0 - alpha
    n = x.shape[0]
    if bool(valid.all()):   # every row observed: the plain recurrence
        D = ember.full(n, f if adjust else 1.0 - alpha, dtype="float64", device=x.device)
        W = ember.full(n, 1.0 if adjust else alpha, dtype="float64", device=x.device)
        if not adjust and n:
            D[:1], W[:1] = 0.0, 1.0
        return D, W, None
    i = ember.arange(n, dtype="int64", device=x.device)
    last = P.inclusive_scan(_if(valid, i, -1), "max")
    if adjust:   # a missing row decays the past too unless ignore_na
        D = _if(valid, f, 1.0) if ignore_na else \
            ember.full(n, f, dtype="float64", device=x.device)
        return D, valid.astype("float64"), last
    # at an observation the old mean keeps weight f**g against alpha, g the
    # rows since the previous observation (1 when ignore_na)
    prev = ember.concatenate([ember.full(1, -1, dtype="int64", device=x.device),
                              last[:n - 1]])
    g = ember.ones(n, dtype="float64", device=x.device) if ignore_na else \
        (i - prev).astype("float64")
    old = _if(prev >= 0, ember.power(f, g), 0.0)
    c = _if(valid, old / (old + alpha), 1.0)
    return c, _if(valid, 1.0 - c, 0.0), last


def _if(cond, a, b):
    """where(cond, a, b) as one generated pass (where() with a scalar costs
    several on cpu); the result has a's dtype, or float64 for scalars."""
    dt = a.dtype if isinstance(a, ember.ndarray) else "float64"
    return P.transform("a != 0 ? b : c", cond, a, b, dtype=dt)


def _at_last(values, last):
    return values if last is None else values[ember.maximum(last, 0)]


def _observed(last, values):
    """NaN before the first observation (none such when last is None)."""
    return values if last is None else _if(last >= 0, values, _NAN)


def ewm_mean(x, valid, alpha, adjust, ignore_na):
    """pandas' ewm(alpha, adjust, ignore_na).mean() of float64 x, where
    `valid` marks observations: NaN before the first one, a missing row
    repeats the mean so far."""
    D, W, last = _steps(x, valid, alpha, adjust, ignore_na)
    xv = x if last is None else _if(valid, x, 0.0)
    _, S, Wsum = P.inclusive_scan((D, W * xv, W), _AFFINE2)
    return _observed(last, _at_last(S / ember.maximum(Wsum, 1e-300), last))


def ewm_var(x, valid, alpha, adjust, ignore_na, bias):
    """pandas' ewm(...).var(bias): the weighted variance, times
    W^2 / (W^2 - sum of squared weights) unless bias (NaN where that
    is not positive, as with one observation)."""
    D, W, last = _steps(x, valid, alpha, adjust, ignore_na)
    zero = ember.zeros(x.shape[0], dtype="float64", device=x.device)
    from ember.frame._window_kernels import centre
    c, vx = centre(x, valid)
    xv = x - c if last is None else _if(valid, vx - c, 0.0)
    _, Wsum, _, M2 = P.inclusive_scan((D, W, xv, zero), _MERGE)
    _, W2, _ = P.inclusive_scan((D * D, W * W, zero), _AFFINE2)
    Wl, M2l, W2l = _at_last(Wsum, last), _at_last(M2, last), _at_last(W2, last)
    if bias:
        return _observed(last, ember.maximum(M2l / ember.maximum(Wl, 1e-300), 0.0))
    den = Wl * Wl - W2l
    var = Wl * M2l / _if(den > 0, den, 1.0)
    return _observed(last, _if(den > 0, ember.maximum(var, 0.0), _NAN))
