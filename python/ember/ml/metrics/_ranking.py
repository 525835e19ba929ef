"""roc_auc_score: the area under the ROC curve from one sort of the scores
per binary problem. Samples of equal score form one step of the curve (ties
count half, as the trapezoid over scikit-learn's thresholds does), so the
area is sum over distinct scores of negatives(score) * (positives above +
positives(score) / 2), from cumulative sums at the ends of the groups."""
import itertools
import warnings

import numpy as np

import ember
from ember.ml.exceptions import UndefinedMetricWarning
from ember.ml.metrics import _base as B


def _steps(pos, score, w):
    """(fps, tps, thresholds): the weighted counts of negatives and
    positives scoring at least each distinct score, highest score first
    (one stable sort of the scores, cumulative sums, the ends of groups)."""
    order = ember.argsort(-score, stable=True)
    s = score[order]
    wp = pos[order].astype(ember.float64)
    wn = 1.0 - wp
    if w is not None:
        ww = w[order].astype(ember.float64)
        wp, wn = wp * ww, wn * ww
    tps, fps = ember.cumsum(wp), ember.cumsum(wn)
    if w is not None:
        # A scan in tiles (the GPU's, or the host's in chunks of 65536) rounds
        # each tile's carry apart from the running sum, so a weight of 0 can
        # step the sum down by an ulp; the curve must not fall (auc refuses
        # an x that does), so each count is at least the one before it.
        tps, fps = ember.maximum.accumulate(tps), ember.maximum.accumulate(fps)
    last = ember.concatenate([s[1:] != s[:-1],
                              ember.ones(min(s.shape[0], 1), dtype=ember.bool_,
                                         device=s.device)])
    return fps[last], tps[last], s[last]


def _curve(pos, score, w):
    """(fpr, tpr) at the distinct scores, highest first, from (0, 0); and the
    weighted counts of positives and negatives."""
    fps, tps, s = _steps(pos, score, w)
    zero = ember.zeros(1, dtype=ember.float64, device=s.device)
    return ember.concatenate([zero, fps]), ember.concatenate([zero, tps])


def _binary_auc(pos, score, w=None, max_fpr=None):
    fps, tps = _curve(pos, score, w)
    ends = ember.asnumpy(ember.stack([fps[-1], tps[-1]]))
    n_neg, n_pos = float(ends[0]), float(ends[1])
    if n_neg <= 0 or n_pos <= 0:
        warnings.warn("Only one class is present in y_true. ROC AUC score is not "
                      "defined in that case.", UndefinedMetricWarning)
        return float("nan")
    fpr, tpr = fps / n_neg, tps / n_pos
    if max_fpr is None or max_fpr == 1:
        return float(((fpr[1:] - fpr[:-1]) * (tpr[1:] + tpr[:-1])).sum()) / 2
    if max_fpr <= 0 or max_fpr > 1:
        raise ValueError(f"Expected max_fpr in range (0, 1], got: {max_fpr!r}")
    stop = int(ember.searchsorted(fpr, max_fpr, side="right"))
    x0, x1, y0, y1 = ember.asnumpy(ember.stack([fpr[stop - 1], fpr[stop],
                                                tpr[stop - 1], tpr[stop]]))
    y_at = y0 + (y1 - y0) * (max_fpr - x0) / (x1 - x0) if x1 != x0 else y1
    head = float(((fpr[1:stop] - fpr[:stop - 1])
                  * (tpr[1:stop] + tpr[:stop - 1])).sum()) / 2
    part = head + (max_fpr - float(x0)) * (float(y0) + y_at) / 2
    lo, hi = 0.5 * max_fpr ** 2, max_fpr
    return 0.5 * (1 + (part - lo) / (hi - lo))


def roc_auc_score(y_true, y_score, *, average="macro", sample_weight=None,
                  max_fpr=None, multi_class="raise", labels=None):
    """scikit-learn's roc_auc_score for binary and multiclass ('ovr', 'ovo')
    targets; multilabel indicator targets are not supported here."""
    dev = B.device_of(y_true, y_score)
    yt = B.as_values(y_true, dev, "y_true")
    sc = B.as_values(y_score, dev, "y_score", ndim=(1, 2))
    if not isinstance(sc, ember.ndarray):
        raise ValueError("y_score must be numeric")
    sc = sc.astype(ember.float64) if sc.dtype.kind != "f" else sc
    B.check_lengths(yt, sc)
    if sc.size and not bool(ember.isfinite(sc).all()):
        raise ValueError("Input contains NaN.")
    w = B.weights(sample_weight, yt.shape[0], dev)
    if B._target_type(yt) == "continuous":
        raise ValueError("continuous format is not supported")
    classes, (ct,) = B.encode([yt], dev)
    k = classes.shape[0]
    if k > 2 or (sc.ndim == 2 and sc.shape[1] > 2):
        if max_fpr is not None and max_fpr != 1.0:
            raise ValueError("Partial AUC computation not available in multiclass "
                             "setting, 'max_fpr' must be set to `None`, received "
                             f"`max_fpr={max_fpr}` instead")
        if multi_class == "raise":
            raise ValueError("multi_class must be in ('ovo', 'ovr')")
        res = _multiclass(yt, ct, classes, sc, labels, multi_class, average, w)
        return B.out(res, y_true, y_score) if isinstance(res, np.ndarray) else res
    if sc.ndim == 2:
        raise ValueError(f"y should be a 1d array, got an array of shape "
                         f"{tuple(sc.shape)} instead.")
    # the positive class is the larger label
    return _binary_auc(ct == k - 1 if k == 2 else ct < 0, sc, w, max_fpr)


def _multiclass(yt, ct, classes, sc, labels, multi_class, average, w):
    if sc.ndim != 2:
        raise ValueError("`y_score` needs to be of shape `(n_samples, n_classes)`, "
                         "since `y_true` contains multiple classes. Got "
                         f"`y_score.shape={tuple(sc.shape)}`.")
    if not bool(ember.all(ember.abs(sc.sum(axis=1) - 1) <= 1e-8 + 1e-5)):
        raise ValueError("Target scores need to be probabilities for multiclass "
                         "roc_auc, i.e. they should sum up to 1.0 over classes")
    options = ("macro", "weighted", None) + (("micro",) if multi_class == "ovr"
                                             else ())
    if average not in options:
        raise ValueError(f"average must be one of {options} for multiclass problems")
    if multi_class not in ("ovo", "ovr"):
        raise ValueError(f"multi_class='{multi_class}' is not supported for "
                         "multiclass ROC AUC, multi_class must be in ('ovo', 'ovr')")
    if average is None and multi_class == "ovo":
        raise NotImplementedError("average=None is not implemented for "
                                  "multi_class='ovo'.")
    if labels is not None:
        lab = B.as_values(labels, yt.device if isinstance(yt, ember.ndarray)
                          else sc.device, "labels")
        lh = B.host(lab)
        if len(np.unique(lh)) != len(lh):
            raise ValueError("Parameter 'labels' must be unique")
        if not np.array_equal(np.sort(lh), lh):
            raise ValueError("Parameter 'labels' must be ordered")
        if len(lh) != sc.shape[1]:
            raise ValueError(f"Number of given labels, {len(lh)}, not equal to the "
                             f"number of columns in 'y_score', {sc.shape[1]}")
        if not set(B.host(classes).tolist()) <= set(lh.tolist()):
            raise ValueError("'y_true' contains labels not in parameter 'labels'")
        # codes into labels: y_true's classes are a subset of them
        col = ember.asarray(np.searchsorted(lh, B.host(classes)), device=sc.device)
        ct = col[ct]
        present = np.searchsorted(lh, B.host(classes))
    else:
        if classes.shape[0] != sc.shape[1]:
            raise ValueError("Number of classes in y_true not equal to the number "
                             "of columns in 'y_score'")
        present = np.arange(sc.shape[1])
    if multi_class == "ovo":
        if w is not None:
            raise ValueError("sample_weight is not supported for multiclass "
                             "one-vs-one ROC AUC, 'sample_weight' must be None in "
                             "this case.")
        return _ovo(ct, sc, present, average)
    return _ovr(ct, sc, average, w)


def _ovr(ct, sc, average, w):
    k = sc.shape[1]
    if average == "micro":
        onehot = ct.reshape(-1, 1) == ember.arange(k, device=sc.device).reshape(1, -1)
        ww = None if w is None else ember.repeat(w, k)
        return _binary_auc(onehot.reshape(-1), sc.reshape(-1), ww)
    scores = np.array([_binary_auc(ct == c, sc[:, c], w) for c in range(k)])
    if average is None:
        return scores
    if average == "weighted":
        wt = ember.bincount(ct, weights=None if w is None else w.astype(ember.float64),
                            minlength=k)
        prev = ember.asnumpy(wt).astype(np.float64)
        if prev.sum() == 0:
            return 0.0
        # a class absent from y_true weighs nothing, its NaN included
        scores[prev == 0] = 0.0
        return float(np.average(scores, weights=prev))
    return float(np.mean(scores))


def _ovo(ct, sc, present, average):
    n = ct.shape[0]
    pairs, prevalence = [], []
    for a, b in itertools.combinations(present.tolist(), 2):
        ma, mb = ct == a, ct == b
        mab = ma | mb
        pos = ma[mab]
        both = (_binary_auc(pos, sc[mab][:, a]) + _binary_auc(~pos, sc[mab][:, b])) / 2
        pairs.append(both)
        if average == "weighted":
            prevalence.append(float(mab.sum()) / n)
    if average == "weighted":
        return float(np.average(pairs, weights=prevalence))
    return float(np.mean(pairs))
