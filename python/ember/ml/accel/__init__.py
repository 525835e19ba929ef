"""scikit-learn's estimators replaced by ember's where ember has them, and
saying so: `python -m ember.ml.accel script.py` or `install()` before
importing sklearn.

Each patched name (sklearn.cluster.KMeans, ...) becomes a subclass of
scikit-learn's own class, so isinstance, get_params, clone, Pipeline and
GridSearchCV see scikit-learn's estimator. Its fit runs ember's estimator
when ember has every parameter that was set and the input is dense, and
scikit-learn's otherwise: that fallback is reported once per estimator
and reason on stderr, EMBER_ACCEL_STRICT=1 makes it an error, and the run
ends with one line of what ran where (docs/ml.md, "Accelerator mode")."""
import atexit
import functools
import importlib
import importlib.abc
import importlib.util
import inspect
import os
import sys
import threading

# scikit-learn's public modules that ember.ml mirrors
MODULES = ("cluster", "decomposition", "ensemble", "linear_model", "naive_bayes",
           "neighbors", "preprocessing", "tree")
# scikit-learn's own code calls these on small host arrays (metrics encode
# labels with LabelEncoder): sending those to the device would slow
# scikit-learn down, not the user's program
_KEEP = {"LabelEncoder", "LabelBinarizer"}
_METHODS = ("predict", "predict_proba", "predict_log_proba", "decision_function",
            "transform", "inverse_transform", "kneighbors", "kneighbors_graph",
            "radius_neighbors", "score_samples", "score", "get_feature_names_out",
            "apply", "decision_path")
# scikit-learn methods that read its own fitted internals (a forest's
# trees): after an ember fit they say so instead of failing inside
_SK_ONLY = ("apply", "decision_path")


class FallbackError(RuntimeError):
    """EMBER_ACCEL_STRICT=1 and an estimator could not run on ember."""


_lock = threading.Lock()
_counts = {}          # ("ember"|"sklearn", "KMeans.fit") -> calls
_told = set()
_installed = False


def _count(where, what):
    with _lock:
        _counts[(where, what)] = _counts.get((where, what), 0) + 1


def _fallback(name, why):
    if os.environ.get("EMBER_ACCEL_STRICT", "") not in ("", "0"):
        raise FallbackError(f"ember.ml.accel: {name} cannot run on ember: {why} "
                            "(EMBER_ACCEL_STRICT is set)")
    with _lock:
        new = (name, why) not in _told
        _told.add((name, why))
    if new:
        print(f"ember.ml.accel: {name} runs on scikit-learn: {why}", file=sys.stderr)


def summary():
    """One line: what ran on ember (and on which device), what did not."""
    import ember
    with _lock:
        items = sorted(_counts.items())
    def part(where):
        xs = [f"{what} x{n}" for (w, what), n in items if w == where]
        return ", ".join(xs) if xs else "nothing"
    return (f"ember.ml.accel: on ember ({ember.get_device()}): {part('ember')}; "
            f"on scikit-learn: {part('sklearn')}")


def _report_at_exit():
    # also when nothing was counted: a program using only estimators ember
    # lacks (LassoCV) would otherwise end without a word from the accelerator
    print(summary(), file=sys.stderr)


def _is_sparse(x):
    return (type(x).__module__ or "").startswith("scipy.sparse")


def _unsupported_params(est, ember_cls):
    """Parameters set away from scikit-learn's default that ember's class
    does not take."""
    ours = set(inspect.signature(ember_cls.__init__).parameters)
    sig = inspect.signature(type(est).__mro__[1].__init__).parameters
    out = []
    for k, v in est.get_params(deep=False).items():
        if k in ours or k not in sig:
            continue
        d = sig[k].default
        try:
            same = v is d or (type(v) is type(d) and bool(v == d))
        except Exception:
            same = False
        if not same:
            out.append(f"{k}={v!r}")
    return out


def _make(sk_cls, ember_cls, public):
    name = sk_cls.__name__

    # scikit-learn's signature, so has_fit_parameter(est, "sample_weight")
    # (AdaBoost, Bagging) answers as for scikit-learn's class
    @functools.wraps(sk_cls.fit)
    def fit(self, X, y=None, **kw):
        self.__dict__.pop("_ember", None)
        why = None
        bad = _unsupported_params(self, ember_cls)
        if bad:
            why = f"ember's {name} has no {', '.join(bad)}"
        elif _is_sparse(X):
            why = "sparse input (ember.ml takes dense arrays)"
        if why is None:
            ours = set(inspect.signature(ember_cls.__init__).parameters)
            est = ember_cls(**{k: v for k, v in self.get_params(deep=False).items()
                               if k in ours})
            try:
                est.fit(X, y, **kw) if y is not None else est.fit(X, **kw)
            except NotImplementedError as e:
                why = str(e)
            else:
                self._ember = est
                _copy_fitted(self, est)
                _count("ember", f"{name}.fit")
                return self
        _fallback(name, why)
        _count("sklearn", f"{name}.fit")
        return sk_cls.fit(self, X, y, **kw) if y is not None else sk_cls.fit(self, X, **kw)

    def __getattr__(self, k):
        # fitted attributes scikit-learn computes in a property (a forest's
        # feature_importances_) come from ember's estimator
        est = self.__dict__.get("_ember")
        if est is None or k.startswith("__"):
            raise AttributeError(f"{name!r} object has no attribute {k!r}")
        return getattr(est, k)

    def __reduce__(self):
        # by the rebuilding function, so a process without the accelerator
        # installed (a joblib worker) gets the same replacement back
        return (_rebuild, (public, name), self.__getstate__())

    # the public module, where pickle finds the patched name
    ns = {"fit": fit, "__getattr__": __getattr__, "__reduce__": __reduce__, "__module__": public, "__qualname__": name,
          "__doc__": f"scikit-learn's {name}, run by ember.ml where it can "
                     "(ember.ml.accel)."}
    for m in _METHODS:
        if hasattr(sk_cls, m) and hasattr(ember_cls, m):
            ns[m] = _route(name, m, sk_cls)
    for m in _SK_ONLY:
        if hasattr(sk_cls, m) and not hasattr(ember_cls, m):
            ns[m] = _sk_only(name, m, sk_cls)
    for m in ("fit_predict", "fit_transform"):
        if hasattr(sk_cls, m):
            ns[m] = _fit_then(m)
    if hasattr(sk_cls, "partial_fit") and hasattr(ember_cls, "partial_fit"):
        ns["partial_fit"] = _partial(name, sk_cls, ember_cls)
    return type(name, (sk_cls,), ns)


def _copy_fitted(proxy, est):
    """est's fitted attributes onto the proxy, but for those scikit-learn's
    class computes in a property (the proxy's __getattr__ answers them)."""
    cls = type(proxy)
    for k in _fitted_names(est):
        if isinstance(getattr(cls, k, None), property):
            continue
        object.__setattr__(proxy, k, getattr(est, k))


def _fitted_names(est):
    names = {k for k in vars(est) if k.endswith("_") and not k.startswith("_")}
    for cls in type(est).__mro__:
        for k, v in vars(cls).items():
            if k.endswith("_") and not k.startswith("_") and hasattr(v, "__get__") \
                    and k in est.__dict__:
                names.add(k)
    return sorted(names)


class _Routed:
    """A method run by ember's fitted estimator. Looked up on an instance it
    first asks scikit-learn's own descriptor, so a method scikit-learn
    makes unavailable (predict_proba of a hinge SGDClassifier) is missing
    here too, and the bound method has scikit-learn's signature."""

    def __init__(self, name, m, sk_cls):
        self.name, self.m = name, m
        self.sk = inspect.getattr_static(sk_cls, m)

    def __get__(self, obj, owner=None):
        if obj is None:
            # a plain function on the class: scikit-learn's set_output
            # wraps transform through getattr on the class
            routed = self

            @functools.wraps(self.sk.__get__(None, owner))
            def unbound(obj, *a, **kw):
                return routed.__get__(obj, type(obj))(*a, **kw)
            return unbound
        sk_bound = self.sk.__get__(obj, owner)
        est = obj.__dict__.get("_ember")
        if est is None:
            return sk_bound
        name, m = self.name, self.m

        @functools.wraps(sk_bound)
        def method(*a, **kw):
            _count("ember", f"{name}.{m}")
            return getattr(est, m)(*a, **kw)
        return method


def _route(name, m, sk_cls):
    return _Routed(name, m, sk_cls)


def _sk_only(name, m, sk_cls):
    @functools.wraps(getattr(sk_cls, m))
    def method(self, *a, **kw):
        if self.__dict__.get("_ember") is None:
            return getattr(sk_cls, m)(self, *a, **kw)
        raise NotImplementedError(
            f"ember.ml.accel: {name} was fitted by ember, which has no {m}(); "
            f"fit it with ember.ml.accel off for {m}()")
    return method


def _fit_then(m):
    def method(self, X, y=None, **kw):
        self.fit(X, y, **kw)
        est = self.__dict__.get("_ember")
        if m == "fit_predict":
            return self.labels_ if hasattr(self, "labels_") else self.predict(X)
        return est.transform(X) if est is not None and hasattr(est, "transform") \
            else self.transform(X)
    method.__name__ = m
    return method


def _partial(name, sk_cls, ember_cls):
    def partial_fit(self, X, y=None, **kw):
        est = self.__dict__.get("_ember")
        if est is None and not hasattr(self, "n_features_in_"):
            bad = _unsupported_params(self, ember_cls)
            if not bad and not _is_sparse(X):
                ours = set(inspect.signature(ember_cls.__init__).parameters)
                est = self._ember = ember_cls(**{k: v for k, v in
                                                 self.get_params(deep=False).items()
                                                 if k in ours})
        if est is None:
            _fallback(name, "partial_fit after a scikit-learn fit or with parameters "
                      "ember lacks")
            _count("sklearn", f"{name}.partial_fit")
            return sk_cls.partial_fit(self, X, y, **kw)
        est.partial_fit(X, y, **kw) if y is not None else est.partial_fit(X, **kw)
        _copy_fitted(self, est)
        _count("ember", f"{name}.partial_fit")
        return self
    return partial_fit


def _patch(module, short):
    """Replace the estimators of sklearn.<short> that ember.ml.<short> has."""
    try:
        ours = importlib.import_module("ember.ml." + short)
    except ImportError:
        return
    # packages that load estimators lazily list them in __all__ only
    for attr in getattr(ours, "__all__", None) or dir(ours):
        if attr.startswith("_") or attr in _KEEP:
            continue
        e, s = getattr(ours, attr), getattr(module, attr, None)
        if isinstance(e, type) and isinstance(s, type) and hasattr(e, "fit") and \
                not getattr(s, "_ember_accel", False):
            setattr(module, attr, _proxy(module.__name__, attr, s, e))


_proxies = {}


def _proxy(public, name, sk_cls, ember_cls):
    """The one replacement class of sklearn.<module>.<name>."""
    with _lock:
        p = _proxies.get((public, name))
        if p is None:
            p = _proxies[(public, name)] = _make(sk_cls, ember_cls, public)
            p._ember_accel = True
        return p


def _rebuild(public, name):
    """An empty replacement instance (pickle sets its state)."""
    cls = _proxies.get((public, name))
    if cls is None:
        sk = importlib.import_module(public)
        ours = importlib.import_module("ember.ml." + public.split(".")[1])
        base = getattr(sk, name)
        base = base.__mro__[1] if getattr(base, "_ember_accel", False) else base
        cls = _proxy(public, name, base, getattr(ours, name))
    return cls.__new__(cls)


class _Finder(importlib.abc.MetaPathFinder):
    """Patches sklearn.<module> right after scikit-learn has executed it."""

    def find_spec(self, fullname, path, target=None):
        if not fullname.startswith("sklearn.") or fullname.count(".") != 1 or \
                fullname.split(".")[1] not in MODULES:
            return None
        sys.meta_path.remove(self)
        try:
            spec = importlib.util.find_spec(fullname)
        finally:
            sys.meta_path.insert(0, self)
        if spec is None or spec.loader is None:
            return spec
        real = spec.loader

        class Loader(importlib.abc.Loader):
            def create_module(self, spec):
                return real.create_module(spec)

            def exec_module(self, module):
                real.exec_module(module)
                _patch(module, fullname.split(".")[1])
        spec.loader = Loader()
        return spec


def install():
    """From here on sklearn's modules give ember's estimators where ember
    has them (modules already imported are patched now)."""
    global _installed
    if _installed:
        return
    _installed = True
    sys.meta_path.insert(0, _Finder())
    for short in MODULES:
        mod = sys.modules.get("sklearn." + short)
        if mod is not None:
            _patch(mod, short)
    atexit.register(_report_at_exit)


__all__ = ["FallbackError", "install", "summary"]
