"""What the metrics share: where their inputs live, what kind of array
comes back, and how labels of any type become integer codes on the device.

Numeric labels are coded on their device (one ember.unique over both
arrays); strings and other objects can only come from host arrays, so they
are coded on the host by np.unique and the codes are copied to the device,
where the counting happens."""
import numpy as np

import ember
from ember.ml._config import get_config


def is_ember(x):
    return isinstance(x, ember.ndarray) or (
        type(x).__module__ or "").startswith("ember.frame")


def device_of(*xs):
    """The device of the first ember input, else ember's current device."""
    for x in xs:
        if isinstance(x, ember.ndarray):
            return x.device
        if is_ember(x):
            return _ember_values(x).device
    return ember.get_device()


def out(a, *inputs):
    """An array result as ember (an ember input, or set_output('ember')) or
    NumPy (otherwise, or set_output('numpy'))."""
    want = get_config()["output"]
    if want == "input":
        want = "ember" if any(is_ember(x) for x in inputs) else "numpy"
    if want == "numpy" and isinstance(a, ember.ndarray):
        return ember.asnumpy(a)
    if want == "ember" and isinstance(a, np.ndarray) and a.dtype.kind in "biuf":
        return ember.asarray(a, device=device_of(*inputs))
    return a


def _ember_values(s):
    """An ember Series' values as an ember array, a DataFrame's as a 2-D
    one; columns of strings come back as a host array of objects."""
    from ember.frame import Series
    if isinstance(s, Series):
        if s.dtype.kind in "biuf":
            return s.values
        return s.to_pandas().to_numpy()
    from ember.ml._validation import to_ember
    return to_ember(s)


def as_values(y, dev, name="y", ndim=(1,)):
    """y as an ember array on dev, or as a host array when its values are
    not numbers; a (n, 1) column is flattened where only 1-D is allowed."""
    if isinstance(y, ember.ndarray):
        a = y
        if a.device != dev:
            raise ValueError(f"{name} is on {a.device}, the other input on {dev}")
    elif is_ember(y):
        a = _ember_values(y)
    else:
        h = np.asarray(y.to_numpy() if hasattr(y, "to_numpy") else y)
        if h.dtype.kind in "biuf":
            a = ember.asarray(h, device=dev)
        elif h.dtype.kind == "c":
            raise ValueError("Complex data not supported")
        else:
            a = h
    if a.ndim == 2 and a.shape[1] == 1 and 2 not in ndim:
        a = a.reshape(-1)
    if a.ndim not in ndim:
        raise ValueError(f"{name} should be a {ndim[0]}d array, got an array of "
                         f"shape {tuple(a.shape)} instead.")
    return a


def check_lengths(*arrays):
    ns = [a.shape[0] if hasattr(a, "shape") else len(a) for a in arrays
          if a is not None]
    if len(set(ns)) > 1:
        raise ValueError("Found input variables with inconsistent numbers of "
                         f"samples: {ns}")


def weights(sample_weight, n, dev, dtype=None):
    """sample_weight as a float ember array of length n (None stays None)."""
    if sample_weight is None:
        return None
    w = as_values(sample_weight, dev, "sample_weight")
    if not isinstance(w, ember.ndarray):
        raise ValueError("sample_weight must be numeric")
    if w.shape[0] != n:
        raise ValueError(f"sample_weight.shape == ({w.shape[0]},), expected ({n},)!")
    if dtype is not None and w.dtype != dtype:
        w = w.astype(dtype)
    return w


def float_dtype(*arrays):
    """float32 when every float input is float32 and none is float64,
    else float64 (integers compute in float64, as scikit-learn)."""
    kinds = [a.dtype for a in arrays if isinstance(a, ember.ndarray)]
    if kinds and all(d == ember.float32 for d in kinds):
        return ember.float32
    return ember.float64


def _is_host(a):
    return isinstance(a, np.ndarray)


def _target_type(a):
    """'continuous' for floats that are not all whole numbers, else
    'binary' or 'multiclass' (by the number of distinct values)."""
    if _is_host(a):
        n = len(np.unique(a.astype(str) if a.dtype == object else a))
        return "binary" if n <= 2 else "multiclass"
    if a.dtype.kind == "f" and a.size and not bool(
            ember.all(ember.floor(a) == a)):
        return "continuous"
    return None  # whole numbers: binary or multiclass, known after coding


def check_classes(y_true, y_pred):
    """scikit-learn's refusal of continuous targets and of a mix of strings
    and numbers in classification metrics."""
    for a in (y_true, y_pred):
        if _is_host(a) and a.dtype == object:
            kinds = {isinstance(v, str) for v in a.tolist()}
            if len(kinds) > 1:
                raise ValueError("Mix of label input types (string and number)")
    if _is_host(y_true) != _is_host(y_pred) and min(y_true.size, y_pred.size):
        raise ValueError("Mix of label input types (string and number)")
    types = [_target_type(y_true), _target_type(y_pred)]
    if "continuous" in types:
        if types[0] == types[1]:
            raise ValueError("continuous is not supported")
        names = [t or ("binary" if ember.unique(a).shape[0] <= 2 else "multiclass")
                 for t, a in zip(types, (y_true, y_pred))]
        raise ValueError("Classification metrics can't handle a mix of "
                         f"{names[0]} and {names[1]} targets")


def encode(arrays, dev):
    """(classes, codes): the sorted distinct values over all arrays (an
    ember array, or a host array for strings) and each array as int64
    codes into them on dev."""
    sizes = [a.shape[0] for a in arrays]
    if any(_is_host(a) for a in arrays):
        hs = [a if _is_host(a) else ember.asnumpy(a) for a in arrays]
        joint = np.concatenate(hs)
        if joint.dtype == object:
            joint = joint.astype(str)
        classes, inv = np.unique(joint, return_inverse=True)
        inv = ember.asarray(inv.astype(np.int64), device=dev)
    else:
        joint = ember.concatenate(arrays) if len(arrays) > 1 else arrays[0]
        classes, inv = ember.unique(joint, return_inverse=True)
    codes, start = [], 0
    for n in sizes:
        codes.append(inv[start:start + n])
        start += n
    return classes, codes


def host(classes):
    return classes if _is_host(classes) else ember.asnumpy(classes)
