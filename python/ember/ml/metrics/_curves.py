"""roc_curve and auc as scikit-learn's. The curve is one stable sort of the
scores on the device and two cumulative sums (metrics/_ranking.py's
_curve, which roc_auc_score integrates); the thresholds are the distinct
scores, highest first, and drop_intermediate keeps the corners, as
scikit-learn's do."""
import warnings

import numpy as np

import ember
from ember.ml.exceptions import UndefinedMetricWarning
from ember.ml.metrics import _base as B
from ember.ml.metrics._ranking import _steps


def _positive(yt, pos_label, dev):
    """y_true as a boolean ember array of 'is pos_label', with scikit-learn's
    default pos_label (1 for {0, 1}, {-1, 1} and their subsets)."""
    classes, (codes,) = B.encode([yt], dev)
    host = B.host(classes)
    if len(host) > 2:
        raise ValueError("multiclass format is not supported")
    if pos_label is None:
        vals = set(host.tolist())
        if host.dtype.kind in "OUS" or not (vals <= {0, 1} or vals <= {-1, 1}):
            shown = "{" + ", ".join(repr(v) if isinstance(v, str) else str(v)
                                    for v in host.tolist()) + "}"
            raise ValueError(f"y_true takes value in {shown} and pos_label is not "
                             "specified: either make y_true take value in {0, 1} or "
                             "{-1, 1} or pass pos_label explicitly.")
        pos_label = 1
    hit = np.flatnonzero(host == pos_label)
    if hit.size == 0:
        return ember.zeros(codes.shape, dtype=ember.bool_, device=codes.device)
    return codes == int(hit[0])


def _rate(counts, total, sample, rate):
    """counts / total, or NaNs with scikit-learn's warning when total is 0."""
    if total > 0:
        return counts / total
    warnings.warn(f"No {sample} samples in y_true, {rate} value should be "
                  "meaningless", UndefinedMetricWarning)
    return ember.full(counts.shape, np.nan, dtype=ember.float64, device=counts.device)


def roc_curve(y_true, y_score, *, pos_label=None, sample_weight=None,
              drop_intermediate=True):
    """(fpr, tpr, thresholds) of a binary problem, as scikit-learn's."""
    dev = B.device_of(y_true, y_score)
    yt = B.as_values(y_true, dev, "y_true")
    sc = B.as_values(y_score, dev, "y_score")
    if not isinstance(sc, ember.ndarray):
        raise ValueError("y_score must be numeric")
    B.check_lengths(yt, sc)
    if B._target_type(yt) == "continuous":
        raise ValueError("continuous format is not supported")
    if sc.size and not bool(ember.isfinite(sc).all()):
        raise ValueError("Input contains NaN.")
    sc = sc.astype(ember.float64) if sc.dtype.kind != "f" else sc
    pos = _positive(yt, pos_label, dev)
    w = B.weights(sample_weight, yt.shape[0], dev)
    if w is not None:
        # samples of weight 0 leave no threshold behind, as in scikit-learn
        keep = w != 0
        pos, sc, w = pos[keep], sc[keep], w[keep]
    fps, tps, thr = _steps(pos, sc, w)
    if drop_intermediate and fps.shape[0] > 2:
        # the points where the curve turns (second differences not both 0)
        bend = ((fps[2:] - 2 * fps[1:-1] + fps[:-2]) != 0) | (
            (tps[2:] - 2 * tps[1:-1] + tps[:-2]) != 0)
        one = ember.ones(1, dtype=ember.bool_, device=sc.device)
        keep = ember.concatenate([one, bend, one])
        tps, fps, thr = tps[keep], fps[keep], thr[keep]
    zero = ember.zeros(1, dtype=ember.float64, device=sc.device)
    tps, fps = ember.concatenate([zero, tps]), ember.concatenate([zero, fps])
    thr = ember.concatenate([ember.full(1, np.inf, dtype=thr.dtype, device=sc.device),
                             thr])
    n_neg, n_pos = (float(v) for v in ember.asnumpy(ember.stack([fps[-1], tps[-1]])))
    fpr = _rate(fps, n_neg, "negative", "false positive")
    tpr = _rate(tps, n_pos, "positive", "true positive")
    return (B.out(fpr, y_true, y_score), B.out(tpr, y_true, y_score),
            B.out(thr, y_true, y_score))


def auc(x, y):
    """The area under the curve through the points (x, y) by the trapezoid
    rule; x increasing or decreasing, as scikit-learn's."""
    dev = B.device_of(x, y)
    xa = B.as_values(x, dev, "x")
    ya = B.as_values(y, dev, "y")
    for a in (xa, ya):
        if not isinstance(a, ember.ndarray):
            raise ValueError("could not convert string to float")
    B.check_lengths(xa, ya)
    if xa.shape[0] < 2:
        raise ValueError("At least 2 points are needed to compute area under curve, "
                         f"but x.shape = {xa.shape[0]}")
    xa, ya = xa.astype(ember.float64), ya.astype(ember.float64)
    dx = xa[1:] - xa[:-1]
    direction = 1.0
    if bool((dx < 0).any()):
        if bool((dx <= 0).all()):
            direction = -1.0
        else:
            raise ValueError(f"x is neither increasing nor decreasing : "
                             f"{ember.asnumpy(xa)}.")
    return direction * float((dx * (ya[1:] + ya[:-1])).sum()) / 2
