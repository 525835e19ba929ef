"""Class labels for classifiers: classes_ and the code (0..k-1) of each
sample. Numeric labels stay on the device (one unique with its inverse);
string or object labels have no ember dtype, so they are coded on the host,
the only place they exist."""
import ember


def encode(y, device):
    """(classes, codes): classes sorted as scikit-learn's classes_ (an ember
    array for numeric labels, a NumPy array for strings), codes an int64
    ember array on `device`."""
    if isinstance(y, ember.ndarray) or (type(y).__module__ or "").startswith("ember.frame"):
        from ember.ml._validation import column_or_1d
        ya = column_or_1d(y, device=device)
        classes, codes = ember.unique(ya, return_inverse=True)
        return classes, codes.astype(ember.int64).reshape(-1)
    import numpy as np
    h = np.asarray(y)
    if h.ndim == 2 and h.shape[1] == 1:
        from ember.ml._validation import column_warning
        column_warning()
        h = h.reshape(-1)
    if h.ndim != 1:
        raise ValueError(f"y should be a 1d array, got an array of shape {h.shape} "
                         "instead.")
    if h.dtype.kind in "biuf":
        if h.dtype.kind == "f" and not np.isfinite(h).all():
            raise ValueError("Input y contains NaN." if np.isnan(h).any()
                             else "Input y contains infinity.")
        ya = ember.asarray(h, device=device)
        classes, codes = ember.unique(ya, return_inverse=True)
        return classes, codes.astype(ember.int64).reshape(-1)
    classes, codes = np.unique(h, return_inverse=True)
    return classes, ember.asarray(codes.astype(np.int64), device=device)


def check_classification(classes, y):
    """scikit-learn's check_classification_targets for a float y that holds
    continuous values."""
    if isinstance(classes, ember.ndarray) and classes.dtype.kind == "f":
        if not bool((classes == ember.floor(classes)).all()):
            raise ValueError("Unknown label type: continuous. Maybe you are trying "
                             "to fit a classifier, which expects discrete classes on "
                             "a regression target with continuous values.")


def fit_classes(y, X):
    """(classes, codes) of a classifier's y for the rows of the ember array
    X: encode, check_classification and the length check of fit."""
    classes, codes = encode(y, X.device)
    check_classification(classes, y)
    if codes.shape[0] != X.shape[0]:
        raise ValueError("Found input variables with inconsistent numbers of "
                         f"samples: [{X.shape[0]}, {codes.shape[0]}]")
    return classes, codes


def decode(classes, codes):
    """The labels of integer codes (an ember array) in classes_' kind."""
    if isinstance(classes, ember.ndarray):
        return ember.take(classes, codes)
    return classes[ember.asnumpy(codes)]
