"""What the linear models share: centring X and y (weighted), the
sample_weight check, predict and decision_function through one matmul."""
import ember
from ember.ml import _labels
from ember.ml import _validation as V
from ember.ml.base import fitted


def check_sample_weight(sw, X):
    """sample_weight checked as everywhere in ember.ml, but None stays None
    (the solvers skip the multiplications) and negative weights pass, as
    scikit-learn's linear models let them."""
    return None if sw is None else V.check_sample_weight(sw, X, non_negative=False)


def require_y(est, y):
    if y is None:
        raise ValueError(f"{type(est).__name__} requires y to be passed, but the "
                         "target y is None.")


class MultiOutputTags:
    """Tells scikit-learn that a 2-D y is accepted (several targets)."""

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.multi_output = True
        return tags


def center(X, y, sw, fit_intercept):
    """(Xc, yc, X_offset, y_offset): X and y less their (weighted) means when
    fit_intercept, each row scaled by sqrt(sample_weight), so that least
    squares on (Xc, yc) is the weighted problem; offsets are zeros without
    an intercept. y may be 1-D or 2-D."""
    p = X.shape[1]
    if fit_intercept:
        if sw is None:
            Xo, yo = X.mean(axis=0), y.mean(axis=0)
        else:
            tot = sw.sum()
            Xo = (sw @ X) / tot
            yo = (sw @ y) / tot
        Xc, yc = X - Xo, y - yo
    else:
        Xo = ember.zeros((p,), dtype=X.dtype, device=X.device)
        yo = ember.zeros(y.shape[1:], dtype=X.dtype, device=X.device)
        Xc, yc = X, y
    if sw is not None:
        r = ember.sqrt(sw)
        Xc = Xc * r[:, None]
        yc = yc * (r if y.ndim == 1 else r[:, None])
    return Xc, yc, Xo, yo


def as_2d_target(y):
    return y[:, None] if y.ndim == 1 else y


class LinearModel:
    """predict = X @ coef_.T + intercept_ for regressors."""

    # scikit-learn takes a sparse X here; ember.ml makes it dense (_sparse_input.py)
    _accept_sparse = True

    coef_ = fitted()
    intercept_ = fitted()

    def _set_coef(self, W, Xo, yo, one_target):
        """coef_ (targets x features) from W (features x targets) and the
        intercept that undoes the centring."""
        coef = W.T
        icpt = yo - coef @ Xo if self.fit_intercept else ember.zeros(
            (coef.shape[0],), dtype=coef.dtype, device=coef.device)
        if one_target:
            # scikit-learn's intercept_ is a float for a 1-D y
            coef, icpt = coef[0], float(icpt[0])
        self.coef_ = ember.ascontiguousarray(coef)
        self.intercept_ = icpt

    def _decision(self, X):
        Xa = self._predict_input(X)
        coef = self._dev("coef_")
        icpt = self.__dict__["intercept_"]
        if not isinstance(icpt, (int, float)):
            icpt = self._dev("intercept_")
            icpt = icpt.astype(Xa.dtype) if icpt.dtype != Xa.dtype else icpt
        coef = coef.astype(Xa.dtype) if coef.dtype != Xa.dtype else coef
        return Xa @ coef.T + icpt

    def predict(self, X):
        return self._out(self._decision(X))


class LinearClassifierMixin:
    """decision_function, predict from coef_ (classes x features; one row for
    two classes) and classes_."""

    # scikit-learn takes a sparse X here; ember.ml makes it dense (_sparse_input.py)
    _accept_sparse = True

    coef_ = fitted()
    intercept_ = fitted()
    classes_ = fitted()

    def decision_function(self, X):
        return self._out(self._scores(X))

    def _scores(self, X):
        Xa = self._predict_input(X)
        coef = self._dev("coef_")
        coef = coef.astype(Xa.dtype) if coef.dtype != Xa.dtype else coef
        icpt = self._dev("intercept_")
        icpt = icpt.astype(Xa.dtype) if icpt.dtype != Xa.dtype else icpt
        s = Xa @ coef.T + icpt
        return s[:, 0] if s.ndim == 2 and s.shape[1] == 1 else s

    def predict(self, X):
        s = self._scores(X)
        idx = (s > 0).astype(ember.int64) if s.ndim == 1 else ember.argmax(s, axis=1)
        return self._out(_labels.decode(self.__dict__["classes_"], idx))


def classes_in_fit(est, y, X):
    """classes_ set on est, and the int64 code of each sample of X."""
    require_y(est, y)
    classes, codes = _labels.fit_classes(y, X)
    est.classes_ = classes
    return classes, codes


def classifier_fit(est, X, y, sample_weight):
    """What every linear classifier's fit starts with: classes_ set, the
    codes of y, at least two classes, and per-sample weights with
    class_weight folded in (None when neither is given)."""
    classes, codes = classes_in_fit(est, y, X)
    need_two_classes(classes)
    sw = check_sample_weight(sample_weight, X)
    cw = class_weights(est.class_weight, classes, codes, X.dtype)
    if cw is not None:
        sw = cw if sw is None else sw * cw
    return classes, codes, sw


def need_two_classes(classes):
    if len(classes) < 2:
        c0 = classes[0]
        c0 = c0.item() if hasattr(c0, "item") else c0
        raise ValueError("This solver needs samples of at least 2 classes in the "
                         f"data, but the data contains only one class: {c0!r}")


def class_weights(class_weight, classes, codes, dtype):
    """Per-sample weights from class_weight ('balanced', a dict or None) as
    scikit-learn's compute_class_weight, or None."""
    if class_weight is None:
        return None
    k = len(classes)
    if class_weight == "balanced":
        counts = ember.bincount(codes, minlength=k).astype(dtype)
        w = codes.shape[0] / (k * counts)
    elif isinstance(class_weight, dict):
        host = ember.asnumpy(classes) if isinstance(classes, ember.ndarray) else classes
        keys = list(host.tolist())
        for c in class_weight:
            if c not in keys:
                raise ValueError(f"The classes, {[c]}, are not in class_weight")
        w = ember.asarray([float(class_weight.get(c, 1.0)) for c in keys],
                          dtype=dtype, device=codes.device)
    else:
        raise ValueError("The 'class_weight' parameter must be a str among "
                         "{'balanced'}, an instance of 'dict' or None. Got "
                         f"{class_weight!r} instead.")
    return ember.take(w, codes)
