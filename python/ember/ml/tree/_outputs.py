"""Several outputs (y of n x outputs) for trees and forests, as
scikit-learn's: a classifier's classes_ and n_classes_ become lists (one
entry an output), predict returns n x outputs and predict_proba a list of
each output's n x classes. The trees keep one table of values a node with
the outputs' class columns side by side; these helpers cut it."""
import numpy as np

import ember
from ember.ml import _labels


def n_outputs_of(y):
    """Outputs of y as scikit-learn's trees count them: 1 for a vector or a
    single column."""
    shape = getattr(y, "shape", None)
    if shape is None:
        shape = np.asarray(y).shape
    return shape[1] if len(shape) == 2 else 1


def encode_classes(y, X):
    """(classes, codes, ncs): for one output classes_ and the n codes as
    _labels.fit_classes gives them and ncs = len(classes); for several,
    lists of each output's classes and class count, codes n x outputs."""
    O = n_outputs_of(y)
    if O == 1:
        classes, codes = _labels.fit_classes(y, X)
        return classes, codes, len(classes)
    cols = [y[:, o] for o in range(O)] if isinstance(y, ember.ndarray) else \
        list(np.asarray(y).T)
    fits = [_labels.fit_classes(c, X) for c in cols]
    classes = [f[0] for f in fits]
    codes = ember.stack([f[1] for f in fits], axis=1)
    return classes, codes, [len(c) for c in classes]


def offsets(ncs):
    return np.concatenate([[0], np.cumsum(ncs)]).astype(np.int64)


def columns(vals, ncs):
    """Each output's columns of vals (n x sum(ncs))."""
    o = offsets(ncs)
    return [vals[:, o[i]:o[i + 1]] for i in range(len(ncs))]


def predict_labels(vals, classes, ncs):
    """Labels of the highest column of each output: n, or n x outputs in
    the first output's label dtype (as scikit-learn fills its array)."""
    if not isinstance(ncs, list):
        return _labels.decode(classes, ember.argmax(vals, axis=1))
    outs = [_labels.decode(c, ember.argmax(v, axis=1))
            for c, v in zip(classes, columns(vals, ncs))]
    if all(isinstance(o, ember.ndarray) for o in outs):
        return ember.stack([o.astype(outs[0].dtype) for o in outs], axis=1)
    host = [ember.asnumpy(o) if isinstance(o, ember.ndarray) else o for o in outs]
    return np.stack(host, axis=1).astype(host[0].dtype)


def normalize(value, ncs):
    """Host node values (nodes x sum(ncs) weighted counts) as each output's
    class fractions."""
    out = np.array(value, dtype=np.float64)
    o = offsets(ncs if isinstance(ncs, list) else [ncs])
    for i in range(len(o) - 1):
        seg = out[:, o[i]:o[i + 1]]
        out[:, o[i]:o[i + 1]] = seg / np.maximum(seg.sum(axis=1, keepdims=True), 1e-300)
    return out


def side_by_side(value, ncs):
    """tree_.value (nodes x outputs x K) as nodes x sum(ncs) columns."""
    if not isinstance(ncs, list):
        return value[:, 0, :]
    return np.concatenate([value[:, o, :c] for o, c in enumerate(ncs)], axis=1)
