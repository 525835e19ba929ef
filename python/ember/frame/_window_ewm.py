"""Exponentially weighted means as linear recurrences y = c * y_prev + d,
each computed by one inclusive scan of (c, d) pairs: composing two steps
gives (c1 * c2, d1 * c2 + d2), which is associative. A long product of
decays underflows to 0, which is the weight such old rows have anyway."""
import ember
import ember.parallel as P

_AFFINE = ("a0 * b0", "a1 * b0 + b1")
_AFFINE2 = ("a0 * b0", "a1 * b0 + b1", "a2 * b0 + b2")


def ewm_mean(x, valid, alpha, adjust, ignore_na):
    """pandas' ewm(alpha, adjust, ignore_na).mean() of float64 x, where
    `valid` marks observations; rows before the first one are NaN, a
    missing row repeats the mean so far."""
    f = 1.0 - alpha
    xv = ember.where(valid, x, 0.0)
    vf = valid.astype("float64")
    n = x.shape[0]
    i = ember.arange(n, dtype="int64", device=x.device)
    last = P.inclusive_scan(ember.where(valid, i, -1), "max")
    if adjust:
        # the mean is S / W with S = sum of decayed values and W of decayed
        # weights; a row decays both unless it is missing and ignore_na
        decay = ember.where(valid, f, 1.0) if ignore_na else \
            ember.full(x.shape[0], f, dtype="float64", device=x.device)
        _, S, W = P.inclusive_scan((decay, xv, vf), _AFFINE2)
        # read at the last observation, where W >= 1: a gap decays S and W
        # alike and may underflow both to 0
        m = (S / ember.maximum(W, 1.0))[ember.maximum(last, 0)]
        return ember.where(last >= 0, m, float("nan"))
    # adjust=False: at an observation the old mean keeps weight f**g
    # against alpha, g the rows since the previous observation (1 when
    # ignore_na); the first observation starts the mean
    prev = ember.concatenate([ember.full(1, -1, dtype="int64", device=x.device),
                              last[:n - 1]])
    g = ember.ones(n, dtype="float64", device=x.device) if ignore_na else \
        (i - prev).astype("float64")
    old = ember.where(prev >= 0, ember.power(f, g), 0.0)
    c = ember.where(valid, old / (old + alpha), 1.0)
    d = ember.where(valid, (1.0 - c) * x, 0.0)
    _, y = P.inclusive_scan((c, d), _AFFINE)
    return ember.where(last >= 0, y, float("nan"))
