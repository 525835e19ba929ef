"""Input checking and output conversion shared by every estimator: one place
decides which arrays ember.ml accepts, on which device they are computed and
what kind of array comes back (docs/ml.md, "Inputs and outputs")."""
import numbers

import ember
from ember.ml._config import get_config
from ember.ml._sparse_input import densify, is_sparse
from ember.ml.exceptions import DataConversionWarning, NotFittedError, flavoured


def input_kind(X):
    """'ember' for ember arrays and ember frames, 'numpy' for everything else
    (NumPy, lists, pandas): the kind of array results come back as."""
    if isinstance(X, ember.ndarray):
        return "ember"
    mod = type(X).__module__ or ""
    return "ember" if mod.startswith(("ember.frame", "ember.scipy")) else "numpy"


def _frame_to_array(X):
    """An ember frame's numeric columns side by side on its device."""
    from ember.frame import Series
    cols = [X] if isinstance(X, Series) else [X[c] for c in X.columns]
    for c in cols:
        if c.dtype.kind not in "biuf":
            raise ValueError(f"could not convert column {c.name!r} of dtype "
                             f"{c.dtype.name} to a number")
        if c.isna().any():
            raise ValueError("Input X contains NaN.")
    vals = [c.values for c in cols]
    if isinstance(X, Series):
        return vals[0]
    if not vals:
        return ember.zeros((len(X), 0))
    return ember.stack(vals, axis=1)


def feature_names(X):
    """The column names of a pandas or ember DataFrame whose columns are all
    strings (scikit-learn's rule), else None."""
    cols = getattr(X, "columns", None)
    if cols is None or getattr(X, "ndim", 2) != 2:
        return None
    names = list(cols)
    if names and all(isinstance(n, str) for n in names):
        import numpy as np
        return np.asarray(names, dtype=object)
    return None


def to_ember(X, device=None, dtype=None, accept_sparse=False):
    """X as an ember array: ember arrays stay on their device (an explicit
    device other than theirs is a ValueError naming both), everything else is
    copied to `device` or ember's current device. A sparse X is made dense
    there when accept_sparse (the estimators scikit-learn lets take it;
    _sparse_input.py), else refused with scikit-learn's TypeError."""
    if accept_sparse and is_sparse(X):
        a = densify(X, device)
    elif isinstance(X, ember.ndarray):
        if device is not None and X.device != device:
            raise ValueError(f"input is on {X.device} but the estimator was fitted "
                             f"on {device}; move it with ember.asarray(x, device=...)")
        a = X
    elif (type(X).__module__ or "").startswith("ember.frame"):
        a = _frame_to_array(X)
        if device is not None and a.device != device:
            raise ValueError(f"input is on {a.device} but the estimator was fitted "
                             f"on {device}")
    else:
        import numpy as np
        if is_sparse(X) or hasattr(X, "toarray") and hasattr(X, "nnz"):
            raise TypeError("Sparse data was passed, but dense data is required. "
                            "Use '.toarray()' to convert to a dense array.")
        h = np.asarray(X)
        if h.dtype == object:
            # a TypeError (a dict among the numbers) stays NumPy's, as
            # scikit-learn's check_array lets it through
            try:
                h = h.astype(np.float64)
            except ValueError:
                raise ValueError("could not convert the input to a numeric array "
                                 f"(dtype object, shape {h.shape})") from None
        a = ember.asarray(h, device=device if device is not None else ember.get_device())
    if dtype is not None and a.dtype != dtype:
        a = a.astype(dtype)
    return a


def _float_dtype(a, dtype):
    """scikit-learn's dtype rule: float32 and float64 stay, the rest become
    float64; dtype=None keeps integers (labels, counts)."""
    if dtype is None:
        return a
    if dtype == "numeric":
        return a if a.dtype.kind in "fiub" else a.astype(ember.float64)
    if isinstance(dtype, (list, tuple)):
        if a.dtype in [ember.dtype(d) for d in dtype]:
            return a
        return a.astype(dtype[0])
    return a.astype(dtype) if a.dtype != ember.dtype(dtype) else a


def check_array(X, *, dtype=(ember.float64, ember.float32), ensure_2d=True,
                allow_nd=False, ensure_min_samples=1, ensure_min_features=1,
                allow_nan=False, device=None, input_name="X", estimator=None,
                accept_sparse=False):
    """X validated as scikit-learn's check_array does, as an ember array."""
    if hasattr(X, "dtype") and getattr(X.dtype, "kind", "") == "c":
        raise ValueError("Complex data not supported")
    if X is None:
        raise ValueError(f"Expected 2D array, got scalar array instead:\narray={X}.")
    a = to_ember(X, device, accept_sparse=accept_sparse)
    if a.dtype.kind == "c":
        raise ValueError("Complex data not supported")
    a = _float_dtype(a, dtype)
    name = type(estimator).__name__ if estimator is not None else None
    if ensure_2d:
        if a.ndim == 0:
            raise ValueError(f"Expected 2D array, got scalar array instead:\n"
                             f"array={X}.\nReshape your data.")
        if a.ndim == 1:
            raise ValueError("Expected 2D array, got 1D array instead:\n"
                             "Reshape your data either using array.reshape(-1, 1) if "
                             "your data has a single feature or array.reshape(1, -1) "
                             "if it contains a single sample.")
        if a.ndim > 2 and not allow_nd:
            raise ValueError(f"Found array with dim {a.ndim}."
                             + (f" {name} expected <= 2." if name else ""))
    n = a.shape[0] if a.ndim else 1
    by = f" while a minimum of {ensure_min_samples} is required" + (
        f" by {name}." if name else ".")
    if ensure_min_samples > 0 and n < ensure_min_samples:
        raise ValueError(f"Found array with {n} sample(s) (shape={tuple(a.shape)})" + by)
    if ensure_2d and ensure_min_features > 0 and a.shape[1] < ensure_min_features:
        raise ValueError(f"Found array with {a.shape[1]} feature(s) "
                         f"(shape={tuple(a.shape)}) while a minimum of "
                         f"{ensure_min_features} is required"
                         + (f" by {name}." if name else "."))
    if not allow_nan and a.dtype.kind == "f" and a.size:
        _check_finite(a, input_name)
    return a


def _check_finite(a, input_name):
    # One reduction and one sync: NaN and inf are told apart only on error.
    # A finite sum means every value is finite (NaN and inf carry through a
    # sum), and a sum is one pass without the boolean temporary of
    # isfinite(a).all(), which took a third of PCA's cpu fit (scikit-learn
    # tries the sum first too); only an inf or NaN sum, or one that
    # overflowed, looks at each value.
    # The columns' sums of a matrix: ember's cpu sum over all of a 2-D
    # array took 3-5x the time of its sum over axis 0 (12 against 2-4 ms
    # for 10^5 x 128 float32).
    if a.dtype.kind not in "fc" or a.size == 0:
        return
    if bool(ember.isfinite(a.sum(axis=0) if a.ndim == 2 else a.sum()).all()):
        return
    if not bool(ember.isfinite(a).all()):
        if bool(ember.isnan(a).any()):
            raise ValueError(f"Input {input_name} contains NaN.")
        raise ValueError(f"Input {input_name} contains infinity or a value too "
                         f"large for dtype('{a.dtype}').")


def column_or_1d(y, *, device=None, dtype=None, input_name="y"):
    """y as a 1-D ember array (a column vector is flattened, as scikit-learn
    does with a warning it does not need here)."""
    a = to_ember(y, device)
    if a.ndim == 2 and a.shape[1] == 1:
        column_warning()
        a = a.reshape(-1)
    if a.ndim != 1:
        raise ValueError(f"{input_name} should be a 1d array, got an array of shape "
                         f"{tuple(a.shape)} instead.")
    return _float_dtype(a, dtype)


def check_X_y(X, y, *, dtype=(ember.float64, ember.float32), y_numeric=False,
              multi_output=False, allow_nan=False, device=None, estimator=None,
              accept_sparse=False):
    """X and y checked together; y on X's device, the same number of rows."""
    if y is None:
        name = type(estimator).__name__ if estimator is not None else "estimator"
        raise ValueError(f"{name} requires y to be passed, but the target y is None")
    Xa = check_array(X, dtype=dtype, allow_nan=allow_nan, device=device,
                     estimator=estimator, accept_sparse=accept_sparse)
    if multi_output:
        ya = check_array(y, dtype=None, ensure_2d=False, device=Xa.device,
                         input_name="y", allow_nan=allow_nan)
    else:
        ya = column_or_1d(y, device=Xa.device)
    if y_numeric and ya.dtype.kind not in "f":
        ya = ya.astype(Xa.dtype if Xa.dtype.kind == "f" else ember.float64)
    if ya.dtype.kind == "f" and not allow_nan and ya.size:
        _check_finite(ya, "y")
    if ya.shape[0] != Xa.shape[0]:
        raise ValueError("Found input variables with inconsistent numbers of "
                         f"samples: [{Xa.shape[0]}, {ya.shape[0]}]")
    return Xa, ya


def output(est, a):
    """An ember result in the kind the config and the fit input ask for."""
    want = get_config()["output"]
    if want == "input":
        want = getattr(est, "_output_kind", "numpy")
    if want == "numpy" and isinstance(a, ember.ndarray):
        return ember.asnumpy(a)
    return a


def check_is_fitted(est, attributes=None):
    """NotFittedError with scikit-learn's message unless est was fitted."""
    if attributes is None:
        fitted = [k for k in vars(est) if k.endswith("_") and not k.startswith("__")]
    else:
        names = [attributes] if isinstance(attributes, str) else list(attributes)
        fitted = [k for k in names if hasattr(est, k)]
        fitted = fitted if len(fitted) == len(names) else []
    if not fitted:
        raise flavoured(NotFittedError)(
            f"This {type(est).__name__} instance is not fitted yet. "
            "Call 'fit' with appropriate arguments before using this estimator.")


def check_scalar(x, name, target_type, *, min_val=None, max_val=None,
                 include_boundaries="both", est=None):
    """A parameter checked as scikit-learn's parameter validation does: a
    TypeError for the wrong type, a ValueError (scikit-learn's
    InvalidParameterError is one) for a value out of range."""
    owner = f" of {type(est).__name__}" if est is not None else ""
    if not isinstance(x, target_type) or isinstance(x, bool) and bool not in (
            target_type if isinstance(target_type, tuple) else (target_type,)):
        raise ValueError(f"The '{name}' parameter{owner} must be of type "
                         f"{_tname(target_type)}. Got {x!r} instead.")
    lo_ok = min_val is None or (x >= min_val if include_boundaries in ("left", "both")
                                else x > min_val)
    hi_ok = max_val is None or (x <= max_val if include_boundaries in ("right", "both")
                                else x < max_val)
    if not (lo_ok and hi_ok):
        lb = "[" if include_boundaries in ("left", "both") else "("
        rb = "]" if include_boundaries in ("right", "both") else ")"
        lo = "-inf" if min_val is None else min_val
        hi = "inf" if max_val is None else max_val
        raise ValueError(f"The '{name}' parameter{owner} must be in the range "
                         f"{lb}{lo}, {hi}{rb}. Got {x!r} instead.")
    return x


def check_option(x, name, options, est=None):
    """A string parameter that must be one of `options`."""
    if x not in options:
        owner = f" of {type(est).__name__}" if est is not None else ""
        raise ValueError(f"The '{name}' parameter{owner} must be a str among "
                         f"{sorted(options, key=str)}. Got {x!r} instead.")
    return x


def _tname(t):
    ts = t if isinstance(t, tuple) else (t,)
    return " or ".join(getattr(k, "__name__", str(k)) for k in ts)


Integral = numbers.Integral
Real = numbers.Real


def column_warning():
    """scikit-learn's DataConversionWarning for a column-vector y."""
    import warnings
    warnings.warn("A column-vector y was passed when a 1d array was expected. Please "
                  "change the shape of y to (n_samples, ), for example using ravel().",
                  flavoured(DataConversionWarning), stacklevel=4)


def check_sample_weight(sample_weight, X, dtype=None, non_negative=True):
    """sample_weight as a 1-D ember array on X's device (ones when None),
    with scikit-learn's errors for a wrong length, non-finite, negative
    (unless non_negative=False) or all-zero weights."""
    n = X.shape[0]
    dt = dtype or (X.dtype if X.dtype.kind == "f" else ember.float64)
    if sample_weight is None:
        return ember.ones(n, dtype=dt, device=X.device)
    w = to_ember(sample_weight, X.device)
    if w.ndim == 0:
        return ember.full(n, float(w), dtype=dt, device=X.device)
    if w.ndim != 1:
        raise ValueError("Sample weights must be 1D array or scalar")
    if w.shape[0] != n:
        raise ValueError(f"sample_weight.shape == ({w.shape[0]},), expected ({n},)!")
    w = w.astype(dt)
    if n:
        _check_finite(w, "sample_weight")
        if non_negative and bool((w < 0).any()):
            raise ValueError("Negative values in data passed to `sample_weight`")
        if not bool((w != 0).any()):
            raise ValueError("Sample weights must contain at least one non-zero number.")
    return w
