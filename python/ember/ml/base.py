"""What every ember.ml estimator shares: scikit-learn's parameter protocol
(get_params/set_params from the __init__ signature, so clone, Pipeline and
GridSearchCV work), the input checks of fit and predict, the device an
estimator lives on and the kind of array its results come back as."""
import inspect

import numpy as np

import ember
from ember.ml import _validation as V


class fitted:
    """A fitted array attribute (coef_, cluster_centers_, ...): stored as an
    ember array on the estimator's device, returned in the output kind (a
    NumPy array after a NumPy fit). Absent until set, so hasattr and
    check_is_fitted see an unfitted estimator as scikit-learn's do.
    Estimators compute with self._dev('coef_'), the stored ember array."""

    def __set_name__(self, owner, name):
        self.name = name

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        try:
            v = obj.__dict__[self.name]
        except KeyError:
            raise AttributeError(f"{type(obj).__name__!r} object has no attribute "
                                 f"{self.name!r}") from None
        return V.output(obj, v)

    def __set__(self, obj, value):
        obj.__dict__[self.name] = value

    def __delete__(self, obj):
        obj.__dict__.pop(self.name, None)


class BaseEstimator:
    """get_params/set_params/repr as scikit-learn's BaseEstimator."""

    # True where scikit-learn takes a sparse X: it is then made dense on
    # the estimator's device (_sparse_input.py), else refused as there
    _accept_sparse = False

    @classmethod
    def _param_names(cls):
        init = cls.__init__
        if init is object.__init__:
            return []
        sig = inspect.signature(init)
        return sorted(p.name for p in sig.parameters.values()
                      if p.name != "self" and p.kind != p.VAR_KEYWORD)

    def get_params(self, deep=True):
        out = {}
        for k in self._param_names():
            v = getattr(self, k)
            if deep and hasattr(v, "get_params") and not isinstance(v, type):
                out.update((f"{k}__{kk}", vv) for kk, vv in v.get_params().items())
            out[k] = v
        return out

    def set_params(self, **params):
        valid = self.get_params(deep=True)
        nested = {}
        for key, value in params.items():
            key, sep, sub = key.partition("__")
            if key not in valid:
                raise ValueError(f"Invalid parameter {key!r} for estimator {self}. "
                                 "Valid parameters are: "
                                 f"{self._param_names()!r}.")
            if sep:
                nested.setdefault(key, {})[sub] = value
            else:
                setattr(self, key, value)
                valid[key] = value
        for key, sub in nested.items():
            valid[key].set_params(**sub)
        return self

    def __repr__(self):
        sig = inspect.signature(type(self).__init__)
        changed = []
        for p in sig.parameters.values():
            if p.name == "self" or p.kind == p.VAR_KEYWORD:
                continue
            v = getattr(self, p.name, p.default)
            if p.default is p.empty or not _same(v, p.default):
                changed.append(f"{p.name}={v!r}")
        return f"{type(self).__name__}({', '.join(changed)})"

    def __sklearn_tags__(self):
        # Only scikit-learn calls this, so importing it here costs nothing
        # to a program that does not use it.
        from sklearn.utils._tags import Tags, TargetTags
        tags = Tags(estimator_type=getattr(self, "_estimator_type", None),
                    target_tags=TargetTags(required=False))
        tags.input_tags.sparse = self._accept_sparse
        return tags

    def __getstate__(self):
        # Devices pickle by name; the arrays pickle themselves.
        state = dict(self.__dict__)
        if "_device" in state:
            state["_device"] = str(state["_device"])
        return state

    def __setstate__(self, state):
        dev = state.get("_device")
        if dev is not None:
            state["_device"] = ember.get_device(dev)
        self.__dict__.update(state)

    # ---- input handling shared by fit and predict
    def _fit_input(self, X, y=None, *, dtype=(ember.float64, ember.float32),
                   y_numeric=False, multi_output=False, reset=True, **kw):
        """Check fit's X (and y); remember its device, output kind, feature
        count and names; return ember arrays."""
        kw.setdefault("accept_sparse", self._accept_sparse)
        if y is None:
            Xa = V.check_array(X, dtype=dtype, estimator=self, **kw)
            ya = None
        else:
            Xa, ya = V.check_X_y(X, y, dtype=dtype, y_numeric=y_numeric,
                                 multi_output=multi_output, estimator=self, **kw)
        if reset:
            self._device = Xa.device
            self._output_kind = V.input_kind(X)
            self.n_features_in_ = Xa.shape[1] if Xa.ndim == 2 else 1
            names = V.feature_names(X)
            if names is not None:
                self.feature_names_in_ = names
            else:
                self.__dict__.pop("feature_names_in_", None)
        return Xa, ya

    def _predict_input(self, X, *, dtype=(ember.float64, ember.float32), **kw):
        """Check predict's or transform's X against what fit saw."""
        V.check_is_fitted(self)
        kw.setdefault("accept_sparse", self._accept_sparse)
        Xa = V.check_array(X, dtype=dtype, estimator=self,
                           device=getattr(self, "_device", None), **kw)
        n = getattr(self, "n_features_in_", None)
        if n is not None and Xa.ndim == 2 and Xa.shape[1] != n:
            raise ValueError(f"X has {Xa.shape[1]} features, but {type(self).__name__} "
                             f"is expecting {n} features as input.")
        return Xa

    def _dev(self, name):
        """A fitted attribute as the ember array the estimator computes with
        (a value a user assigned is moved to the estimator's device once)."""
        v = self.__dict__[name]
        if not isinstance(v, ember.ndarray):
            v = ember.asarray(v, device=getattr(self, "_device", None) or ember.get_device())
            self.__dict__[name] = v
        return v

    def _out(self, a):
        return V.output(self, a)


def _same(a, b):
    try:
        return bool(a == b) and type(a) is type(b)
    except Exception:
        return a is b


class ClassifierMixin:
    _estimator_type = "classifier"

    def score(self, X, y, sample_weight=None):
        from ember.ml.metrics import accuracy_score
        return accuracy_score(y, self.predict(X), sample_weight=sample_weight)

    def __sklearn_tags__(self):
        from sklearn.utils._tags import ClassifierTags
        tags = super().__sklearn_tags__()
        tags.estimator_type = "classifier"
        tags.classifier_tags = ClassifierTags()
        tags.target_tags.required = True
        return tags


class RegressorMixin:
    _estimator_type = "regressor"

    def score(self, X, y, sample_weight=None):
        from ember.ml.metrics import r2_score
        return r2_score(y, self.predict(X), sample_weight=sample_weight)

    def __sklearn_tags__(self):
        from sklearn.utils._tags import RegressorTags
        tags = super().__sklearn_tags__()
        tags.estimator_type = "regressor"
        tags.regressor_tags = RegressorTags()
        tags.target_tags.required = True
        return tags


class ClusterMixin:
    _estimator_type = "clusterer"

    def fit_predict(self, X, y=None, **kw):
        self.fit(X, y, **kw)
        return self.labels_

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.estimator_type = "clusterer"
        return tags


class TransformerMixin:
    """fit_transform, and scikit-learn's set_output: set_output(transform=
    "pandas") makes transform and fit_transform return a pandas DataFrame
    (columns from get_feature_names_out, the index of a DataFrame input),
    as scikit-learn's transformers do, so a ColumnTransformer or Pipeline
    set to pandas output can hold ember's transformers. Like scikit-learn,
    it exists only on transformers with get_feature_names_out, and with
    no per-estimator setting scikit-learn's global transform_output
    (sklearn.set_config) applies when scikit-learn is imported."""

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        for name in ("transform", "fit_transform"):
            f = cls.__dict__.get(name)
            if f is not None and not getattr(f, "_ember_set_output", False):
                setattr(cls, name, _wrap_output(f))

    def fit_transform(self, X, y=None, **kw):
        return self.fit(X, y, **kw).transform(X)

    @property
    def set_output(self):
        if not hasattr(self, "get_feature_names_out"):
            raise AttributeError(f"'{type(self).__name__}' has no attribute 'set_output'")
        return self._set_output

    def _set_output(self, *, transform=None):
        if transform is None:
            return self
        # checked when a transform uses it, as scikit-learn does
        self._sklearn_output_config = {"transform": transform}
        return self

    def __sklearn_tags__(self):
        from sklearn.utils._tags import TransformerTags
        tags = super().__sklearn_tags__()
        tags.transformer_tags = TransformerTags()
        return tags


def _output_container(est):
    """'pandas', 'polars' or 'default': the estimator's set_output, else
    scikit-learn's global transform_output when scikit-learn is loaded."""
    conf = est.__dict__.get("_sklearn_output_config", {}).get("transform")
    if conf is None:
        import sys
        sk = sys.modules.get("sklearn")
        conf = sk.get_config().get("transform_output", "default") if sk else "default"
    if conf not in ("default", "pandas", "polars"):
        raise ValueError("output config must be in ['default', 'pandas', 'polars'], "
                         f"got {conf}")
    return conf


def _wrap_output(method):
    import functools

    @functools.wraps(method)
    def wrapped(self, X, *args, **kwargs):
        res = method(self, X, *args, **kwargs)
        if not hasattr(self, "get_feature_names_out"):
            return res
        kind = _output_container(self)
        if kind == "default" or isinstance(res, tuple):
            return res
        if kind == "pandas":
            import pandas as pd
            if isinstance(res, pd.DataFrame):
                return res
        if hasattr(res, "tocsr") or hasattr(res, "toarray"):
            raise ValueError("Pandas output does not support sparse data. Set "
                             "sparse_output=False to output pandas dataframes or "
                             "disable Pandas output via set_output(transform=\"default\")")
        data = ember.asnumpy(res) if isinstance(res, ember.ndarray) else np.asarray(res)
        cols = list(self.get_feature_names_out())
        if kind == "polars":
            import polars as pl
            return pl.DataFrame(data, schema=cols, orient="row")
        import pandas as pd
        index = X.index if isinstance(X, pd.DataFrame) else None
        return pd.DataFrame(data, columns=cols, index=index)
    wrapped._ember_set_output = True
    return wrapped


def clone(estimator):
    """A new unfitted estimator with the same parameters."""
    params = {k: v for k, v in estimator.get_params(deep=False).items()}
    params = {k: clone(v) if isinstance(v, BaseEstimator) else v
              for k, v in params.items()}
    new = type(estimator)(**params)
    if "_sklearn_output_config" in estimator.__dict__:
        new._sklearn_output_config = dict(estimator._sklearn_output_config)
    return new


def is_classifier(est):
    return getattr(est, "_estimator_type", None) == "classifier"


def is_regressor(est):
    return getattr(est, "_estimator_type", None) == "regressor"
