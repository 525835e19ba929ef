"""scikit-learn's clustering comparison scores (labels against labels):
contingency_matrix, pair_confusion_matrix, rand_score,
adjusted_rand_score, mutual_info_score, normalized_mutual_info_score,
adjusted_mutual_info_score, homogeneity_score, completeness_score,
v_measure_score, homogeneity_completeness_v_measure, fowlkes_mallows_score.

The part that grows with the samples is one bincount on the device: the
labels become codes (metrics/_base.py) and the contingency table is the
count of each (true, predicted) code pair. Every score is then a formula
over that table, which has one row a class and one column a cluster; it is
copied to the host and evaluated in float64 by the same expressions as
scikit-learn's, so the scores agree with its to rounding."""
import math
import warnings

import numpy as np

import ember
from ember.ml.metrics import _base as B


def _labels(y, dev, name):
    a = B.as_values(y, dev, name, ndim=(1, 2))
    if a.ndim != 1:
        raise ValueError(f"{name} must be 1D: shape is {tuple(a.shape)}")
    if B._target_type(a) == "continuous":
        warnings.warn("Clustering metrics expects discrete values but received "
                      f"continuous values for label, and {name} values for target",
                      UserWarning)
    return a


def _codes(labels_true, labels_pred):
    """(codes_true, k_true, codes_pred, k_pred) on one device."""
    dev = B.device_of(labels_true, labels_pred)
    yt = _labels(labels_true, dev, "labels_true")
    yp = _labels(labels_pred, dev, "labels_pred")
    B.check_lengths(yt, yp)
    ct, (at,) = B.encode([yt], dev)
    cp, (ap,) = B.encode([yp], dev)
    return at, ct.shape[0], ap, cp.shape[0], dev, (labels_true, labels_pred)


def _table(at, kt, ap, kp):
    """The kt x kp contingency table as an int64 ember array: one bincount
    of the (true, predicted) code pairs."""
    if kt * kp == 0:
        return ember.zeros((kt, kp), dtype=ember.int64, device=at.device)
    key = at.astype(ember.int64) * kp + ap.astype(ember.int64)
    return ember.bincount(key, minlength=kt * kp).reshape(kt, kp).astype(ember.int64)


def _host_table(labels_true, labels_pred):
    at, kt, ap, kp, _, _ = _codes(labels_true, labels_pred)
    return ember.asnumpy(_table(at, kt, ap, kp)).astype(np.int64)


def contingency_matrix(labels_true, labels_pred, *, eps=None, sparse=False,
                       dtype=np.int64):
    """Counts of each (class, cluster) pair, classes and clusters sorted."""
    if eps is not None and sparse:
        raise ValueError("Cannot set 'eps' when sparse=True")
    at, kt, ap, kp, _, inputs = _codes(labels_true, labels_pred)
    C = _table(at, kt, ap, kp)
    if sparse:
        import scipy.sparse as sp
        return sp.csr_matrix(ember.asnumpy(C).astype(dtype))
    if eps is not None:
        C = C.astype(ember.float64) + eps
    elif dtype is not None:
        C = C.astype(np.dtype(dtype).name)
    return B.out(C, *inputs)


def pair_confusion_matrix(labels_true, labels_pred):
    """The 2 x 2 counts of ordered sample pairs by whether each labelling
    puts them together."""
    C = _host_table(labels_true, labels_pred)
    return _pairs(C)


def _pairs(C):
    n = np.int64(C.sum())
    n_c, n_k = C.sum(axis=1), C.sum(axis=0)
    sq = (C.astype(np.int64) ** 2).sum()
    P = np.empty((2, 2), dtype=np.int64)
    P[1, 1] = sq - n
    P[0, 1] = (C @ n_k).sum() - sq
    P[1, 0] = (C.T @ n_c).sum() - sq
    P[0, 0] = n ** 2 - P[0, 1] - P[1, 0] - sq
    return P


def rand_score(labels_true, labels_pred):
    P = pair_confusion_matrix(labels_true, labels_pred)
    num, den = P.diagonal().sum(), P.sum()
    if num == den or den == 0:
        return 1.0
    return float(num / den)


def adjusted_rand_score(labels_true, labels_pred):
    (tn, fp), (fn, tp) = pair_confusion_matrix(labels_true, labels_pred).tolist()
    if fn == 0 and fp == 0:
        return 1.0
    return 2.0 * (tp * tn - fn * fp) / ((tp + fn) * (fn + tn) + (tp + fp) * (fp + tn))


def _entropy_counts(pi):
    pi = pi[pi > 0].astype(np.float64)
    if pi.size <= 1:
        return 0.0
    s = pi.sum()
    return float(-np.sum((pi / s) * (np.log(pi) - math.log(s))))


def _mutual_info(C):
    C = np.asarray(C)
    pi, pj = C.sum(axis=1), C.sum(axis=0)
    if pi.size == 1 or pj.size == 1:
        return 0.0
    nzx, nzy = np.nonzero(C)
    nz = C[nzx, nzy]
    total = C.sum()
    log_nm = np.log(nz)
    nm = nz / total
    outer = pi.take(nzx).astype(np.int64) * pj.take(nzy).astype(np.int64)
    log_outer = -np.log(outer) + math.log(pi.sum()) + math.log(pj.sum())
    mi = nm * (log_nm - math.log(total)) + nm * log_outer
    mi = np.where(np.abs(mi) < np.finfo(mi.dtype).eps, 0.0, mi)
    return float(np.clip(mi.sum(), 0.0, None))


def mutual_info_score(labels_true, labels_pred, *, contingency=None):
    if contingency is None:
        C = _host_table(labels_true, labels_pred)
    else:
        C = contingency
        if isinstance(C, ember.ndarray):
            C = ember.asnumpy(C)
        elif hasattr(C, "toarray"):
            C = C.toarray()
        C = np.asarray(C)
        if C.dtype.kind not in "iuf":
            raise ValueError("Unsupported type for 'contingency': "
                             f"{type(contingency)}")
    return _mutual_info(C)


def homogeneity_completeness_v_measure(labels_true, labels_pred, *, beta=1.0):
    C = _host_table(labels_true, labels_pred)
    if C.sum() == 0:
        return 1.0, 1.0, 1.0
    h_c, h_k = _entropy_counts(C.sum(axis=1)), _entropy_counts(C.sum(axis=0))
    mi = _mutual_info(C)
    homogeneity = mi / h_c if h_c else 1.0
    completeness = mi / h_k if h_k else 1.0
    if homogeneity + completeness == 0.0:
        v = 0.0
    else:
        v = ((1 + beta) * homogeneity * completeness
             / (beta * homogeneity + completeness))
    return float(homogeneity), float(completeness), float(v)


def homogeneity_score(labels_true, labels_pred):
    return homogeneity_completeness_v_measure(labels_true, labels_pred)[0]


def completeness_score(labels_true, labels_pred):
    return homogeneity_completeness_v_measure(labels_true, labels_pred)[1]


def v_measure_score(labels_true, labels_pred, *, beta=1.0):
    return homogeneity_completeness_v_measure(labels_true, labels_pred, beta=beta)[2]


def _generalized_average(u, v, method):
    if method == "min":
        return min(u, v)
    if method == "geometric":
        return math.sqrt(u * v)
    if method == "arithmetic":
        return (u + v) / 2
    if method == "max":
        return max(u, v)
    raise ValueError("'average_method' must be 'min', 'geometric', 'arithmetic', "
                     "or 'max'")


def _check_average(method):
    if method not in ("min", "geometric", "arithmetic", "max"):
        raise ValueError("The 'average_method' parameter of this function must be a "
                         "str among {'min', 'geometric', 'arithmetic', 'max'}. Got "
                         f"{method!r} instead.")


def normalized_mutual_info_score(labels_true, labels_pred, *,
                                 average_method="arithmetic"):
    _check_average(average_method)
    C = _host_table(labels_true, labels_pred)
    if C.shape[0] == C.shape[1] and C.shape[0] <= 1:
        return 1.0
    mi = _mutual_info(C.astype(np.float64))
    if mi == 0:
        return 0.0
    h_t, h_p = _entropy_counts(C.sum(axis=1)), _entropy_counts(C.sum(axis=0))
    return float(mi / _generalized_average(h_t, h_p, average_method))


def _lgamma(x):
    from scipy.special import gammaln
    return gammaln(x)


def _expected_mutual_info(C, n):
    """The mutual information expected of two labellings with C's row and
    column sums drawn at random (the hypergeometric model), the sum over
    every (class, cluster, overlap) of scikit-learn's expected_mutual_info;
    rows one at a time, each a (clusters x overlaps) NumPy block."""
    a = C.sum(axis=1).astype(np.int64)
    b = C.sum(axis=0).astype(np.int64)
    if a.size == 1 or b.size == 1:
        return 0.0
    top = int(max(a.max(), b.max()))
    nijs = np.arange(0, top + 1, dtype=np.float64)
    nijs[0] = 1
    term1 = nijs / n
    log_a, log_b = np.log(a), np.log(b)
    log_nnij = math.log(n) + np.log(nijs)
    gln_a, gln_b = _lgamma(a + 1.0), _lgamma(b + 1.0)
    gln_na, gln_nb = _lgamma(n - a + 1.0), _lgamma(n - b + 1.0)
    gln_nnij = _lgamma(nijs + 1) + _lgamma(n + 1.0)
    emi = 0.0
    for i in range(a.size):
        start = np.maximum(a[i] - n + b, 1)
        end = np.minimum(a[i], b) + 1
        width = int((end - start).max(initial=0))
        if width <= 0:
            continue
        # every cluster's overlaps start..end-1, padded to the widest range
        nij = start[:, None] + np.arange(width)[None, :]
        ok = nij < end[:, None]
        nij = np.where(ok, nij, start[:, None])
        term2 = log_nnij[nij] - log_a[i] - log_b[:, None]
        gln = (gln_a[i] + gln_b[:, None] + gln_na[i] + gln_nb[:, None]
               - gln_nnij[nij] - _lgamma(a[i] - nij + 1.0)
               - _lgamma(b[:, None] - nij + 1.0)
               - _lgamma(n - a[i] - b[:, None] + nij + 1.0))
        emi += float(np.sum(np.where(ok, term1[nij] * term2 * np.exp(gln), 0.0)))
    return emi


def adjusted_mutual_info_score(labels_true, labels_pred, *,
                               average_method="arithmetic"):
    _check_average(average_method)
    C = _host_table(labels_true, labels_pred)
    n = int(C.sum())
    if C.shape[0] == C.shape[1] and C.shape[0] <= 1:
        return 1.0
    mi = _mutual_info(C)
    emi = _expected_mutual_info(C, n)
    h_t, h_p = _entropy_counts(C.sum(axis=1)), _entropy_counts(C.sum(axis=0))
    den = _generalized_average(h_t, h_p, average_method) - emi
    eps = np.finfo("float64").eps
    den = min(den, -eps) if den < 0 else max(den, eps)
    return float((mi - emi) / den)


def fowlkes_mallows_score(labels_true, labels_pred, *, sparse="deprecated"):
    C = _host_table(labels_true, labels_pred)
    n = int(C.sum())
    tk = int((C.astype(np.int64) ** 2).sum()) - n
    pk = int((C.sum(axis=0).astype(np.int64) ** 2).sum()) - n
    qk = int((C.sum(axis=1).astype(np.int64) ** 2).sum()) - n
    return float(np.sqrt(tk / pk) * np.sqrt(tk / qk)) if tk != 0.0 else 0.0
