"""Classification metrics: accuracy_score, confusion_matrix, log_loss.
Labels become integer codes (metrics/_base.py) and the counting is one
bincount on the device; results are Python floats, or the confusion
matrix in the output kind."""
import warnings

import numpy as np

import ember
from ember.ml.metrics import _base as B


def _pair(y_true, y_pred, ndim=(1,)):
    dev = B.device_of(y_true, y_pred)
    yt = B.as_values(y_true, dev, "y_true", ndim)
    yp = B.as_values(y_pred, dev, "y_pred", ndim)
    B.check_lengths(yt, yp)
    return dev, yt, yp


def _average(values, w, normalize):
    """sum(w * values) (or its mean) as a Python float."""
    if w is None:
        s = float(values.sum(dtype=ember.float64))
        return s / values.shape[0] if normalize else s
    total = (values.astype(w.dtype) * w).sum()
    if not normalize:
        return float(total)
    wsum = float(w.sum())
    if wsum == 0:
        raise ZeroDivisionError("Weights sum to zero, can't be normalized")
    return float(total) / wsum


def accuracy_score(y_true, y_pred, *, normalize=True, sample_weight=None):
    """The fraction (normalize=False: the weighted count) of exact matches;
    for 2-D label indicator arrays, of rows that match entirely."""
    dev, yt, yp = _pair(y_true, y_pred, ndim=(1, 2))
    if yt.ndim != yp.ndim or (yt.ndim == 2 and yt.shape != yp.shape):
        raise ValueError("Classification metrics can't handle a mix of "
                         "multilabel-indicator and multiclass targets")
    n = yt.shape[0]
    w = B.weights(sample_weight, n, dev)
    if n == 0:
        return 0.0 if not normalize else float("nan")
    if yt.ndim == 2:
        eq = ember.all(yt == yp, axis=1)
    else:
        B.check_classes(yt, yp)
        if isinstance(yt, ember.ndarray) and isinstance(yp, ember.ndarray):
            eq = yt == yp
        else:
            _, (ct, cp) = B.encode([yt, yp], dev)
            eq = ct == cp
    return _average(eq, w, normalize)


def label_codes(yt, yp, labels, dev):
    """(label values, code of y_true, code of y_pred): codes index `labels`
    (given: in their order; None: the sorted labels present) and are -1
    for values outside them."""
    if labels is None:
        classes, (ct, cp) = B.encode([yt, yp], dev)
        return classes, ct, cp
    lab = B.as_values(labels, dev, "labels")
    classes, (ct, cp, cl) = B.encode([yt, yp, lab], dev)
    lut = ember.full(classes.shape[0], -1, dtype=ember.int64, device=dev)
    lut[cl] = ember.arange(cl.shape[0], dtype=ember.int64, device=dev)
    return lab, lut[ct], lut[cp]


def confusion_matrix(y_true, y_pred, *, labels=None, sample_weight=None,
                     normalize=None):
    """C[i, j]: the (weighted) count of samples of true label i predicted
    as j, labels in the order given or sorted."""
    if normalize not in (None, "true", "pred", "all"):
        raise ValueError("normalize must be one of {'true', 'pred', 'all', None}")
    dev, yt, yp = _pair(y_true, y_pred)
    B.check_classes(yt, yp)
    n = yt.shape[0]
    w = B.weights(sample_weight, n, dev)
    if labels is not None and len(labels) == 0:
        raise ValueError("'labels' should contains at least one label.")
    lab, ct, cp = label_codes(yt, yp, labels, dev)
    L = lab.shape[0]
    if labels is not None and n and not bool((ct >= 0).any()):
        raise ValueError("At least one label specified must be in y_true")
    keep = (ct >= 0) & (cp >= 0)
    pair = ember.where(keep, ct * L + cp, L * L)
    wk = None
    if w is not None:
        wk = w.astype(ember.float64) if w.dtype.kind == "f" else w.astype(ember.int64)
    counts = ember.bincount(pair, weights=wk, minlength=L * L + 1)[:L * L]
    if w is None or w.dtype.kind != "f":
        counts = counts.astype(ember.int64)
    cm = counts.reshape(L, L)
    if normalize is not None:
        cm = cm.astype(ember.float64)
        if normalize == "true":
            cm = cm / cm.sum(axis=1, keepdims=True)
        elif normalize == "pred":
            cm = cm / cm.sum(axis=0, keepdims=True)
        else:
            cm = cm / cm.sum()
        cm = ember.where(ember.isnan(cm), 0.0, cm)
    return B.out(cm, y_true, y_pred)


def log_loss(y_true, y_proba=None, *, normalize=True, sample_weight=None,
             labels=None, y_pred="deprecated"):
    """Mean (or total) negative log-likelihood of the true labels under
    y_proba, probabilities clipped to [eps, 1 - eps] of their dtype."""
    if not (isinstance(y_pred, str) and y_pred == "deprecated"):
        if y_proba is not None:
            raise ValueError("Cannot use both `y_pred` and `y_proba`. `y_pred` is "
                             "deprecated, use `y_proba` instead.")
        warnings.warn("`y_pred` was renamed to `y_proba` in version 1.9 and will "
                      "be removed in 1.11. Use `y_proba` instead.", FutureWarning)
        y_proba = y_pred
    dev = B.device_of(y_proba, y_true)
    p = B.as_values(y_proba, dev, "y_proba", ndim=(1, 2))
    if not isinstance(p, ember.ndarray):
        raise ValueError("y_proba must be numeric")
    if p.dtype not in (ember.float32, ember.float64):
        p = p.astype(ember.float64)
    yt = B.as_values(y_true, dev, "y_true")
    B.check_lengths(yt, p)
    w = B.weights(sample_weight, yt.shape[0], dev)
    hi, lo = float(p.max()), float(p.min())
    if hi > 1:
        raise ValueError(f"y_prob contains values greater than 1: {hi}")
    if lo < 0:
        raise ValueError(f"y_prob contains values lower than 0: {lo}")
    if labels is not None:
        classes, (ct, cl) = B.encode([yt, B.as_values(labels, dev, "labels")], dev)
        present = ember.zeros(classes.shape[0], dtype=ember.bool_, device=dev)
        present[cl] = True
        if not bool(present[ct].all()):
            raise ValueError("y_true contains values not belonging to the passed "
                             f"labels {list(B.host(classes))}.")
    else:
        classes, (ct,) = B.encode([yt], dev)
    k = classes.shape[0]
    if k == 1:
        if labels is None:
            raise ValueError(f"y_true contains only one label ({B.host(classes)[0]}). "
                             "Please provide the list of all expected class labels "
                             "explicitly through the labels argument.")
        raise ValueError("The labels array needs to contain at least two labels "
                         f"for log_loss, got {list(B.host(classes))}.")
    if p.ndim == 1:
        p = p.reshape(-1, 1)
    if p.shape[1] == 1:
        p = ember.concatenate([1 - p, p], axis=1)
    eps = float(ember.finfo(p.dtype).eps)
    if not bool(ember.all(ember.abs(p.sum(axis=1) - 1) <= np.sqrt(eps))):
        warnings.warn("The y_prob values do not sum to one. Make sure to pass "
                      "probabilities.", UserWarning)
    if k != p.shape[1]:
        if labels is None:
            raise ValueError("y_true and y_prob contain different number of classes: "
                             f"{k} vs {p.shape[1]}. Please provide the true labels "
                             "explicitly through the labels argument. Classes found "
                             f"in y_true: {B.host(classes)}")
        raise ValueError("The number of classes in labels is different from that "
                         f"in y_prob. Classes found in labels: {B.host(classes)}")
    pt = ember.take_along_axis(p, ct.reshape(-1, 1), axis=1).reshape(-1)
    loss = -ember.log(ember.clip(pt, eps, 1 - eps))
    return _average(loss, w, normalize)
