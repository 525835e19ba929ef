"""precision, recall and F-scores: three per-label counts (true positives,
predicted, true) by bincount on the device; the arithmetic on those few
per-label numbers and scikit-learn's zero_division rules run on the host."""
import warnings

import numpy as np

import ember
from ember.ml.exceptions import UndefinedMetricWarning
from ember.ml.metrics import _base as B
from ember.ml.metrics._classification import _pair, label_codes

_AVERAGES = (None, "binary", "micro", "macro", "weighted", "samples")


def _counts(ct, cp, L, w):
    """Per label: weighted true positives, predictions and true samples."""
    wt = None if w is None else w.astype(ember.float64)

    def count(codes, mask=None):
        keep = codes >= 0 if mask is None else (codes >= 0) & mask
        c = ember.where(keep, codes, L)
        return ember.bincount(c, weights=wt, minlength=L + 1)[:L]
    stacked = ember.stack([count(ct, ct == cp), count(cp), count(ct)])
    return ember.asnumpy(stacked).astype(np.float64)


def _divide(num, den, what, zero_division, warn_for):
    """num / den with den == 0 giving zero_division's value (and a warning
    for 'warn', whose value is 0.0)."""
    bad = den == 0
    res = np.divide(num, np.where(bad, 1, den))
    if bad.any():
        zd = 0.0 if zero_division == "warn" else float(zero_division)
        res[bad] = zd
        if zero_division == "warn" and what[0] in warn_for:
            warnings.warn(f"{what[0].capitalize()} is ill-defined and being set to "
                          f"0.0 {what[1]}. Use `zero_division` parameter to control "
                          "this behavior.", UndefinedMetricWarning, stacklevel=3)
    return res


def _check_zero_division(z):
    if not (isinstance(z, str) and z == "warn") and not (
            isinstance(z, (int, float)) and (z in (0, 1) or np.isnan(z))):
        raise ValueError("The 'zero_division' parameter must be a str among "
                         "{'warn'}, a float among {0.0, 1.0, nan}. Got "
                         f"{z!r} instead.")


def precision_recall_fscore_support(y_true, y_pred, *, beta=1.0, labels=None,
                                    pos_label=1, average=None,
                                    warn_for=("precision", "recall", "f-score"),
                                    sample_weight=None, zero_division="warn"):
    """(precision, recall, F-beta, support) per label or averaged."""
    if average not in _AVERAGES:
        raise ValueError(f"average has to be one of {_AVERAGES}")
    if beta < 0:
        raise ValueError("beta should be >=0 in the F-beta score")
    _check_zero_division(zero_division)
    dev, yt, yp = _pair(y_true, y_pred)
    B.check_classes(yt, yp)
    w = B.weights(sample_weight, yt.shape[0], dev)
    if average == "samples":
        raise ValueError("Samplewise metrics are not available outside of "
                         "multilabel classification.")
    present, ct, cp = label_codes(yt, yp, None, dev)
    present = B.host(present)
    if average == "binary":
        if len(present) > 2:
            raise ValueError("Target is multiclass but average='binary'. Please "
                             "choose another average setting, one of [None, "
                             "'micro', 'macro', 'weighted'].")
        if pos_label not in present.tolist() and len(present) >= 2:
            raise ValueError(f"pos_label={pos_label!r} is not a valid label. It "
                             f"should be one of {list(present)}")
        labels = [pos_label]
    n_labels = len(present)
    if labels is not None:
        # recode onto the given labels with a table over the present ones:
        # one unique for both steps
        labels = list(labels)
        n_labels = len(labels)
        lut = np.full(max(len(present), 1), -1, dtype=np.int64)
        for j, lab in enumerate(labels):
            hit = np.flatnonzero(present == lab)
            if hit.size:
                lut[hit[0]] = j
        lut = ember.asarray(lut, device=dev)
        ct, cp = ember.take(lut, ct), ember.take(lut, cp)
    tp, pred, true = _counts(ct, cp, n_labels, w)
    if average == "micro":
        tp, pred, true = np.array([tp.sum()]), np.array([pred.sum()]), np.array(
            [true.sum()])
    where = "in labels with no predicted samples" if average != "micro" else ""
    precision = _divide(tp, pred, ("precision", where or "due to no predicted "
                                   "samples"), zero_division, warn_for)
    recall = _divide(tp, true, ("recall", "in labels with no true samples"
                                if average != "micro" else "due to no true samples"),
                     zero_division, warn_for)
    b2 = beta * beta
    if np.isinf(beta):
        f = recall
    else:
        f = _divide((1 + b2) * tp, (1 + b2) * tp + b2 * (true - tp) + (pred - tp),
                    ("f-score", "in labels with no true nor predicted samples"),
                    zero_division, warn_for)
    if average is None:
        return (B.out(precision, y_true, y_pred), B.out(recall, y_true, y_pred),
                B.out(f, y_true, y_pred), B.out(true.astype(np.int64), y_true, y_pred))
    if average == "weighted":
        if true.sum() == 0:
            zd = 0.0 if zero_division == "warn" else float(zero_division)
            return zd, zd, zd, None
        avg = [float(np.average(v, weights=true)) for v in (precision, recall, f)]
    else:
        avg = [float(np.mean(v)) for v in (precision, recall, f)]
    return avg[0], avg[1], avg[2], None


def fbeta_score(y_true, y_pred, *, beta, labels=None, pos_label=1,
                average="binary", sample_weight=None, zero_division="warn"):
    return precision_recall_fscore_support(
        y_true, y_pred, beta=beta, labels=labels, pos_label=pos_label,
        average=average, warn_for=("f-score",), sample_weight=sample_weight,
        zero_division=zero_division)[2]


def f1_score(y_true, y_pred, *, labels=None, pos_label=1, average="binary",
             sample_weight=None, zero_division="warn"):
    return fbeta_score(y_true, y_pred, beta=1, labels=labels, pos_label=pos_label,
                       average=average, sample_weight=sample_weight,
                       zero_division=zero_division)


def _one(i, what, y_true, y_pred, labels, pos_label, average, sample_weight,
         zero_division):
    return precision_recall_fscore_support(
        y_true, y_pred, labels=labels, pos_label=pos_label, average=average,
        warn_for=(what,), sample_weight=sample_weight, zero_division=zero_division)[i]


def precision_score(y_true, y_pred, *, labels=None, pos_label=1, average="binary",
                    sample_weight=None, zero_division="warn"):
    return _one(0, "precision", y_true, y_pred, labels, pos_label, average,
                sample_weight, zero_division)


def recall_score(y_true, y_pred, *, labels=None, pos_label=1, average="binary",
                 sample_weight=None, zero_division="warn"):
    return _one(1, "recall", y_true, y_pred, labels, pos_label, average,
                sample_weight, zero_division)
