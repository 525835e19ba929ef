"""RandomForestClassifier and RandomForestRegressor: scikit-learn's
parameters over histogram trees (_grow.py) on binned features
(_binning.py). Prediction walks every tree at once, one gather a level,
over blocks of rows."""
import math
import numbers

import ember
from ember._progress import progress
from ember.ml import _labels
from ember.ml import _validation as V
from ember.ml._random import check_random_state
from ember.ml.base import BaseEstimator, ClassifierMixin, RegressorMixin, fitted
from ember.ml.ensemble import _binning
from ember.ml.ensemble._grow import grow


class _Forest(BaseEstimator):
    feature_importances_ = fitted()

    def _check(self, n, p):
        V.check_scalar(self.n_estimators, "n_estimators", numbers.Integral, min_val=1,
                       est=self)
        if self.max_depth is not None:
            V.check_scalar(self.max_depth, "max_depth", numbers.Integral, min_val=1,
                           est=self)
        V.check_scalar(self.max_bins, "max_bins", numbers.Integral, min_val=2,
                       max_val=256, est=self)
        for name in ("oob_score", "warm_start"):
            if getattr(self, name):
                raise NotImplementedError(f"{type(self).__name__}({name}=True) is not in "
                                          "ember.ml")
        for name in ("max_leaf_nodes", "monotonic_cst"):
            if getattr(self, name) is not None:
                raise NotImplementedError(f"{type(self).__name__}: {name} is not in "
                                          "ember.ml")
        if self.ccp_alpha:
            raise NotImplementedError(f"{type(self).__name__}: ccp_alpha (pruning) is "
                                      "not in ember.ml")
        mss = self.min_samples_split
        mss = math.ceil(mss * n) if isinstance(mss, float) else mss
        msl = self.min_samples_leaf
        msl = math.ceil(msl * n) if isinstance(msl, float) else msl
        if not isinstance(mss, numbers.Integral) or mss < 2:
            raise ValueError("The 'min_samples_split' parameter of "
                             f"{type(self).__name__} must be an int in the range [2, inf) "
                             f"or a float in the range (0.0, 1.0]. Got {self.min_samples_split!r} "
                             "instead.")
        if not isinstance(msl, numbers.Integral) or msl < 1:
            raise ValueError("The 'min_samples_leaf' parameter of "
                             f"{type(self).__name__} must be an int in the range [1, inf) "
                             f"or a float in the range (0.0, 1.0). Got {self.min_samples_leaf!r} "
                             "instead.")
        mf = self.max_features
        if mf == "sqrt":
            k = max(1, int(math.sqrt(p)))
        elif mf == "log2":
            k = max(1, int(math.log2(p)))
        elif mf is None:
            k = p
        elif isinstance(mf, numbers.Integral) and not isinstance(mf, bool):
            k = mf
        elif isinstance(mf, float) and 0 < mf <= 1:
            k = max(1, int(mf * p))
        else:
            raise ValueError(f"The 'max_features' parameter of {type(self).__name__} "
                             "must be an int, a float in (0.0, 1.0], a str among "
                             f"{{'sqrt', 'log2'}} or None. Got {mf!r} instead.")
        if not 1 <= k <= p:
            raise ValueError(f"max_features must be in (0, n_features], got {mf!r}")
        return mss, msl, k

    def _fit_trees(self, X, y, w, n_classes):
        n, p = X.shape
        mss, msl, k = self._check(n, p)
        rng = check_random_state(self.random_state, X.device)
        E, _ = _binning.edges(X, self.max_bins, rng)
        Xb = _binning.transform(X, E)
        self._edges = E
        ns = n
        if self.max_samples is not None:
            ms = self.max_samples
            ns = max(1, round(ms * n)) if isinstance(ms, float) else int(ms)
            if not 1 <= ns <= n:
                raise ValueError(f"max_samples must be in (0, n_samples] = (0, {n}], got "
                                 f"{ms!r}")
        trees = []
        # trees of a batch share each level's launches; a batch's
        # (tree, row) pairs stay near 2^23
        per = max(1, min(self.n_estimators, (1 << 23) // max(n, 1)))
        with progress(self.n_estimators, type(self).__name__ + ".fit", "tree") as bar:
            for t0 in range(0, self.n_estimators, per):
                g = min(per, self.n_estimators - t0)
                if self.bootstrap:
                    draw = rng.integers(0, n, (g, ns))
                    draw = draw + (ember.arange(g, device=X.device) * n)[:, None]
                    W = ember.bincount(draw.reshape(-1), minlength=g * n).reshape(g, n)
                    W = W.astype(w.dtype) * w[None, :]
                else:
                    W = ember.broadcast_to(w, (g, n))
                trees += grow(Xb, y, W, n_classes=n_classes, max_bins=self.max_bins,
                              max_depth=self.max_depth, min_samples_split=mss,
                              min_samples_leaf=msl,
                              min_weight_fraction_leaf=self.min_weight_fraction_leaf,
                              min_impurity_decrease=self.min_impurity_decrease, k=k, rng=rng,
                              **self._grow_options(X, E))
                bar.update(g)
        self._pack(trees, E, p, X.device)

    def _grow_options(self, X, E):
        """Further arguments of grow (criterion, random cuts) for subclasses."""
        return {}

    def _pack(self, trees, E, p, dev):
        """All trees as padded device tables (tree x node) for prediction,
        thresholds in feature values (x < threshold goes left, as bins)."""
        import numpy as np
        T, N = len(trees), max(len(t.feature) for t in trees)
        C = trees[0].value.shape[1]
        feat = np.zeros((T, N), np.int64)
        thr = np.zeros((T, N), E.dtype)
        left = np.full((T, N), -1, np.int64)
        val = np.zeros((T, N, C), np.float64)
        imp = np.zeros(p)
        self._tree_imp = np.zeros((T, p))
        self._tree_shape = np.zeros((T, 2), np.int64)   # depth, leaves
        for i, t in enumerate(trees):
            m = len(t.feature)
            sp = t.feature >= 0
            feat[i, :m] = np.where(sp, t.feature, 0)
            thr[i, :m][sp] = E[t.feature[sp], t.split_bin[sp]]
            left[i, :m] = t.left
            v = t.value
            if self._n_classes:
                v = v / np.maximum(v.sum(axis=1, keepdims=True), 1e-300)
            val[i, :m] = v
            g = np.bincount(t.feature[sp], weights=t.gain[sp], minlength=p)
            if g.sum() > 0:
                imp += g / g.sum()
                self._tree_imp[i] = g / g.sum()
            self._tree_shape[i] = (_depth(t.left), int((t.left < 0).sum()))
        self._feat = ember.asarray(feat, device=dev)
        self._thr = ember.asarray(thr, device=dev)
        self._left = ember.asarray(left, device=dev)
        self._val = ember.asarray(val.reshape(T * N, C), device=dev)
        self._nodes = N
        self._depth = max(t.depth for t in trees)
        self.n_estimators_ = T
        imp = imp / T
        self.feature_importances_ = ember.asarray(imp / imp.sum() if imp.sum() > 0 else imp,
                                                  device=dev)

    @property
    def estimators_(self):
        """One view a tree, with the per-tree attributes and predictions
        scikit-learn's DecisionTree estimators give (predict returns class
        indices, as the trees inside scikit-learn's forests do)."""
        V.check_is_fitted(self, "feature_importances_")
        from ember.ml.ensemble._tree_view import TreeView
        return [TreeView(self, t) for t in range(self.n_estimators_)]

    def _leaf_values(self, X, trees=None):
        """Mean over trees (all, or the range `trees`) of each row's leaf
        value: n x C."""
        n, p = X.shape
        t0, t1 = trees or (0, self._feat.shape[0])
        T, N = t1 - t0, self._feat.shape[1]
        C = self._val.shape[1]
        dev = X.device
        flat = X.reshape(-1)
        out = []
        block = max(1, (1 << 24) // (T * max(C, 2)))
        tN = (ember.arange(t0, t1, device=dev) * N)[:, None]
        for s in range(0, n, block):
            e = min(n, s + block)
            rows = ember.arange(s, e, device=dev)[None, :] * p
            node = ember.zeros((T, e - s), dtype=ember.int64, device=dev)
            for _ in range(self._depth):
                idx = tN + node
                f = ember.take(self._feat.reshape(-1), idx)
                x = ember.take(flat, rows + f)
                lc = ember.take(self._left.reshape(-1), idx)
                go = lc + (x >= ember.take(self._thr.reshape(-1), idx).astype(x.dtype))
                node = ember.where(lc >= 0, go, node)
            v = ember.take(self._val, (tN + node).reshape(-1), axis=0)
            out.append(v.reshape(T, e - s, C).sum(axis=0) / T)
        return ember.concatenate(out) if len(out) > 1 else out[0]


def _depth(left):
    """Levels below the root of a tree given its left-child array."""
    import numpy as np
    front, d = np.array([0]), 0
    while True:
        lc = left[front]
        lc = lc[lc >= 0]
        if not len(lc):
            return d
        front, d = np.concatenate([lc, lc + 1]), d + 1


def _common_init(self, n_estimators, criterion, max_depth, min_samples_split,
                 min_samples_leaf, min_weight_fraction_leaf, max_features, max_leaf_nodes,
                 min_impurity_decrease, bootstrap, oob_score, n_jobs, random_state,
                 verbose, warm_start, ccp_alpha, max_samples, monotonic_cst, max_bins):
    self.n_estimators = n_estimators
    self.criterion = criterion
    self.max_depth = max_depth
    self.min_samples_split = min_samples_split
    self.min_samples_leaf = min_samples_leaf
    self.min_weight_fraction_leaf = min_weight_fraction_leaf
    self.max_features = max_features
    self.max_leaf_nodes = max_leaf_nodes
    self.min_impurity_decrease = min_impurity_decrease
    self.bootstrap = bootstrap
    self.oob_score = oob_score
    self.n_jobs = n_jobs
    self.random_state = random_state
    self.verbose = verbose
    self.warm_start = warm_start
    self.ccp_alpha = ccp_alpha
    self.max_samples = max_samples
    self.monotonic_cst = monotonic_cst
    self.max_bins = max_bins


class RandomForestClassifier(ClassifierMixin, _Forest):
    """sklearn.ensemble.RandomForestClassifier over histogram trees
    (max_bins thresholds a feature, as cuML's n_bins)."""

    classes_ = fitted()
    _criteria = ("gini",)

    def __init__(self, n_estimators=100, *, criterion="gini", max_depth=None,
                 min_samples_split=2, min_samples_leaf=1, min_weight_fraction_leaf=0.0,
                 max_features="sqrt", max_leaf_nodes=None, min_impurity_decrease=0.0,
                 bootstrap=True, oob_score=False, n_jobs=None, random_state=None,
                 verbose=0, warm_start=False, class_weight=None, ccp_alpha=0.0,
                 max_samples=None, monotonic_cst=None, max_bins=256):
        _common_init(self, n_estimators, criterion, max_depth, min_samples_split,
                     min_samples_leaf, min_weight_fraction_leaf, max_features,
                     max_leaf_nodes, min_impurity_decrease, bootstrap, oob_score, n_jobs,
                     random_state, verbose, warm_start, ccp_alpha, max_samples,
                     monotonic_cst, max_bins)
        self.class_weight = class_weight

    def fit(self, X, y, sample_weight=None):
        if y is None:
            raise ValueError(f"{type(self).__name__} requires y to be passed, but the "
                             "target y is None")
        if self.criterion not in self._criteria:
            V.check_option(self.criterion, "criterion", ("gini", "entropy", "log_loss"),
                           self)
            raise NotImplementedError(f"{type(self).__name__}(criterion="
                                      f"{self.criterion!r}): ember.ml has "
                                      f"{', '.join(map(repr, self._criteria))}")
        X, _ = self._fit_input(X)
        classes, codes = _labels.fit_classes(y, X)
        self.classes_ = classes
        self.n_classes_ = len(classes)
        self._n_classes = len(classes)
        w = V.check_sample_weight(sample_weight, X, ember.float64)
        if self.class_weight is not None:
            from ember.ml.linear_model._base import class_weights
            if self.class_weight == "balanced_subsample":
                raise NotImplementedError("class_weight='balanced_subsample' is not in "
                                          "ember.ml; use 'balanced'")
            w = w * class_weights(self.class_weight, classes, codes, ember.float64)
        self.n_outputs_ = 1
        self._fit_trees(X, codes, w, len(classes))
        return self

    def predict_proba(self, X):
        X = self._predict_input(X)
        return self._out(self._leaf_values(X))

    def predict_log_proba(self, X):
        X = self._predict_input(X)
        return self._out(ember.log(self._leaf_values(X)))

    def predict(self, X):
        X = self._predict_input(X)
        best = ember.argmax(self._leaf_values(X), axis=1)
        return self._out(_labels.decode(self.__dict__["classes_"], best))


class RandomForestRegressor(RegressorMixin, _Forest):
    """sklearn.ensemble.RandomForestRegressor over histogram trees."""
    _criteria = ("squared_error",)

    def __init__(self, n_estimators=100, *, criterion="squared_error", max_depth=None,
                 min_samples_split=2, min_samples_leaf=1, min_weight_fraction_leaf=0.0,
                 max_features=1.0, max_leaf_nodes=None, min_impurity_decrease=0.0,
                 bootstrap=True, oob_score=False, n_jobs=None, random_state=None,
                 verbose=0, warm_start=False, ccp_alpha=0.0, max_samples=None,
                 monotonic_cst=None, max_bins=256):
        _common_init(self, n_estimators, criterion, max_depth, min_samples_split,
                     min_samples_leaf, min_weight_fraction_leaf, max_features,
                     max_leaf_nodes, min_impurity_decrease, bootstrap, oob_score, n_jobs,
                     random_state, verbose, warm_start, ccp_alpha, max_samples,
                     monotonic_cst, max_bins)

    def fit(self, X, y, sample_weight=None):
        if self.criterion not in self._criteria:
            V.check_option(self.criterion, "criterion",
                           ("squared_error", "absolute_error", "friedman_mse", "poisson"),
                           self)
            raise NotImplementedError(f"{type(self).__name__}(criterion="
                                      f"{self.criterion!r}): ember.ml has "
                                      f"{', '.join(map(repr, self._criteria))}")
        if y is None:
            raise ValueError(f"{type(self).__name__} requires y to be passed, but the "
                             "target y is None")
        X, y = self._fit_input(X, y, y_numeric=True)
        self._n_classes = 0
        self.n_outputs_ = 1
        w = V.check_sample_weight(sample_weight, X, ember.float64)
        self._fit_trees(X, y.astype(ember.float64), w, 0)
        return self

    def predict(self, X):
        X = self._predict_input(X)
        return self._out(self._leaf_values(X)[:, 0].astype(X.dtype))
