"""RandomForestClassifier and RandomForestRegressor: scikit-learn's
parameters over histogram trees (_grow.py) on binned features
(_binning.py). Prediction walks every tree at once, one gather a level,
over blocks of rows.

Each batch of trees draws its bootstrap from its own seed, kept with the
forest, so the in-bag counts can be drawn again on the device for the
out-of-bag estimate and estimators_samples_ instead of being stored
(trees x rows); warm_start keeps the grown tables, the bins and the next
seed, and grows only the trees added."""
import math
import numbers
import warnings

import ember
from ember._progress import progress
from ember.ml import _validation as V
from ember.ml._random import check_random_state
from ember.ml.base import BaseEstimator, ClassifierMixin, RegressorMixin, fitted
from ember.ml.ensemble import _binning
from ember.ml.ensemble._grow import grow
from ember.ml.tree import _outputs, _pruning


class _Forest(BaseEstimator):
    # scikit-learn takes a sparse X here; ember.ml makes it dense (_sparse_input.py)
    _accept_sparse = True

    feature_importances_ = fitted()

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.multi_output = True
        return tags

    def _check(self, n, p):
        V.check_scalar(self.n_estimators, "n_estimators", numbers.Integral, min_val=1,
                       est=self)
        if self.max_depth is not None:
            V.check_scalar(self.max_depth, "max_depth", numbers.Integral, min_val=1,
                           est=self)
        V.check_scalar(self.max_bins, "max_bins", numbers.Integral, min_val=2,
                       max_val=256, est=self)
        for name in ("max_leaf_nodes", "monotonic_cst"):
            if getattr(self, name) is not None:
                raise NotImplementedError(f"{type(self).__name__}: {name} is not in "
                                          "ember.ml")
        V.check_scalar(self.ccp_alpha, "ccp_alpha", numbers.Real, min_val=0.0, est=self)
        if self.oob_score and not self.bootstrap:
            raise ValueError("Out of bag estimation only available if bootstrap=True")
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
        """Grow the trees (or, warm_start, the ones n_estimators adds), prune
        them (ccp_alpha), lay them out for prediction and score the
        out-of-bag rows (oob_score)."""
        n, p = X.shape
        mss, msl, k = self._check(n, p)
        dev = X.device
        ns = n
        if self.max_samples is not None:
            ms = self.max_samples
            ns = max(1, round(ms * n)) if isinstance(ms, float) else int(ms)
            if not 1 <= ns <= n:
                raise ValueError(f"max_samples must be in (0, n_samples] = (0, {n}], got "
                                 f"{ms!r}")
        old = self.__dict__.get("_trees") if self.warm_start else None
        if old:
            n_more = self.n_estimators - len(old)
            if n_more < 0:
                raise ValueError(f"n_estimators={self.n_estimators} must be larger or equal "
                                 f"to len(estimators_)={len(old)} when warm_start==True")
            if n_more == 0:
                warnings.warn("Warm-start fitting without increasing n_estimators does not "
                              "fit new trees.", UserWarning)
            rng = check_random_state(self._next_seed, dev)
            E = self._edges
            trees = list(old)
        else:
            n_more = self.n_estimators
            rng = check_random_state(self.random_state, dev)
            E, _ = _binning.edges(X, self.max_bins, rng)
            self._edges = E
            self._batches, trees = [], []
        Xb = _binning.transform(X, E)
        # trees of a batch share each level's launches; a batch's
        # (tree, row) pairs stay near 2^23
        per = max(1, min(n_more, (1 << 23) // max(n, 1)))
        with progress(n_more, type(self).__name__ + ".fit", "tree") as bar:
            for t0 in range(0, n_more, per):
                g = min(per, n_more - t0)
                if self.bootstrap:
                    seed = _seed(rng)
                    W = _inbag(seed, g, ns, n, dev)[1].astype(w.dtype) * w[None, :]
                    self._batches.append((seed, g, ns))
                else:
                    W = ember.broadcast_to(w, (g, n))
                    self._batches.append((None, g, n))
                new = grow(Xb, y, W, n_classes=n_classes, max_bins=self.max_bins,
                           max_depth=self.max_depth, min_samples_split=mss,
                           min_samples_leaf=msl,
                           min_weight_fraction_leaf=self.min_weight_fraction_leaf,
                           min_impurity_decrease=self.min_impurity_decrease, k=k, rng=rng,
                           **self._grow_options(X, E))
                if self.ccp_alpha > 0:
                    tw = ember.asnumpy(W.sum(axis=1))
                    for t, total in zip(new, tw):
                        _pruning.prune_grown(t, self.ccp_alpha, total)
                trees += new
                bar.update(g)
        self._next_seed = _seed(rng)
        self._pack(trees, E, p, dev)
        # the grown tables (host arrays, ~2 nodes a leaf) are kept only for
        # a warm start to add to
        self._trees = trees if self.warm_start else None
        if self.oob_score and (n_more > 0 or not hasattr(self, "oob_score_")):
            self._set_oob(X, y)

    def _oob_values(self, X):
        """Each training row's mean leaf value over the trees whose
        bootstrap left it out (n x columns), as scikit-learn's
        _compute_oob_predictions, with its warning where no tree did."""
        n = X.shape[0]
        dev = X.device
        acc = ember.zeros((n, self._val.shape[1]), dtype=ember.float64, device=dev)
        cnt = ember.zeros(n, dtype=ember.float64, device=dev)
        t = 0
        for seed, g, ns in self._batches:
            oob = (_inbag(seed, g, ns, n, dev)[1] == 0).astype(ember.float64)
            acc = acc + self._leaf_values(X, (t, t + g), weights=oob)
            cnt = cnt + oob.sum(axis=0)
            t += g
        if bool((cnt == 0).any()):
            warnings.warn("Some inputs do not have OOB scores. This probably means too few "
                          "trees were used to compute any reliable OOB estimates.",
                          UserWarning)
        return acc / ember.where(cnt == 0, 1.0, cnt)[:, None]

    @property
    def estimators_samples_(self):
        """The rows each tree was grown on: its bootstrap draw (row indices,
        repeats included), or every row without bootstrap."""
        V.check_is_fitted(self, "feature_importances_")
        import numpy as np
        n, out = self._n_rows, []
        for seed, g, ns in self._batches:
            if seed is None:
                out += [np.arange(n)] * g
            else:
                draw = ember.asnumpy(_inbag(seed, g, ns, n, self._device)[0])
                out += list(draw)
        return out

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
                v = _outputs.normalize(v, self._ncs)
            val[i, :m] = v
            g = np.bincount(t.feature[sp], weights=t.gain[sp], minlength=p)
            if g.sum() > 0:
                imp += g / g.sum()
                self._tree_imp[i] = g / g.sum()
            self._tree_shape[i] = _depth(t.left)
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

    def _leaf_values(self, X, trees=None, weights=None):
        """Mean over trees (all, or the range `trees`) of each row's leaf
        value: n x C; with weights (trees x n), their weighted sum."""
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
            node = self._walk(flat, p, s, e, tN)
            v = ember.take(self._val, (tN + node).reshape(-1), axis=0).reshape(T, e - s, C)
            if weights is None:
                out.append(v.sum(axis=0) / T)
            else:
                out.append((v * weights[:, s:e, None]).sum(axis=0))
        return ember.concatenate(out) if len(out) > 1 else out[0]

    def _walk(self, flat, p, s, e, tN):
        """The leaf (node index within its tree) that rows s..e of the
        flattened X (p columns) reach in each tree of tN: trees x rows."""
        dev = flat.device
        rows = ember.arange(s, e, device=dev)[None, :] * p
        node = ember.zeros((tN.shape[0], e - s), dtype=ember.int64, device=dev)
        for _ in range(self._depth):
            idx = tN + node
            f = ember.take(self._feat.reshape(-1), idx)
            x = ember.take(flat, rows + f)
            lc = ember.take(self._left.reshape(-1), idx)
            go = lc + (x >= ember.take(self._thr.reshape(-1), idx).astype(x.dtype))
            node = ember.where(lc >= 0, go, node)
        return node

    def apply(self, X):
        """The leaf each row reaches in each tree (n_samples x n_estimators),
        as scikit-learn's apply; leaves are numbered in ember's trees,
        which are grown level by level, so the numbers are not
        scikit-learn's (its trees differ too) but name the same leaf for
        the same row every time (a leaf embedding's one-hot columns)."""
        X = self._predict_input(X)
        n, p = X.shape
        T, N = self._feat.shape
        tN = (ember.arange(T, device=X.device) * N)[:, None]
        flat = X.reshape(-1)
        block = max(1, (1 << 24) // max(T, 1))
        out = [self._walk(flat, p, s, min(n, s + block), tN).T
               for s in range(0, n, block)]
        return self._out(ember.concatenate(out) if len(out) > 1 else out[0])


def _depth(left):
    """(levels below the root, leaves) of a tree given its left-child array
    (a pruned tree's tables keep nodes no longer reached)."""
    import numpy as np
    front, d, leaves = np.array([0]), 0, 0
    while True:
        lc = left[front]
        leaves += int((lc < 0).sum())
        lc = lc[lc >= 0]
        if not len(lc):
            return d, leaves
        front, d = np.concatenate([lc, lc + 1]), d + 1


def _seed(rng):
    """A host seed drawn from the forest's generator."""
    return int(ember.asnumpy(rng.integers(0, 2 ** 31 - 1, 1))[0])


def _inbag(seed, g, ns, n, dev):
    """(draws, counts) of a batch's bootstrap from its seed: g x ns row
    indices and g x n in-bag counts."""
    draw = check_random_state(seed, dev).integers(0, n, (g, ns))
    flat = draw + (ember.arange(g, device=dev) * n)[:, None]
    return draw, ember.bincount(flat.reshape(-1), minlength=g * n).reshape(g, n)


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
    oob_decision_function_ = fitted()
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
        classes, codes, ncs = _outputs.encode_classes(y, X)
        multi = isinstance(ncs, list)
        self._classes, self._ncs = classes, ncs
        self.classes_ = [self._out(c) for c in classes] if multi else classes
        self.n_classes_ = ncs
        self._n_classes = sum(ncs) if multi else ncs
        w = V.check_sample_weight(sample_weight, X, ember.float64)
        if self.class_weight is not None and multi:
            raise NotImplementedError(f"{type(self).__name__}: class_weight with several "
                                      "outputs is not in ember.ml")
        if self.class_weight is not None:
            from ember.ml.linear_model._base import class_weights
            if self.class_weight == "balanced_subsample":
                raise NotImplementedError("class_weight='balanced_subsample' is not in "
                                          "ember.ml; use 'balanced'")
            w = w * class_weights(self.class_weight, classes, codes, ember.float64)
        self.n_outputs_ = len(ncs) if multi else 1
        self._n_rows = X.shape[0]
        self._fit_trees(X, codes, w, ncs)
        return self

    def _set_oob(self, X, codes):
        if isinstance(self._ncs, list):
            import numpy as np
            # scikit-learn takes several outputs only as 0/1 labels (a
            # multilabel indicator), scored by rows whose every label is right
            labels = [np.asarray(ember.asnumpy(c) if isinstance(c, ember.ndarray) else c)
                      for c in self._classes]
            indicator = all(c.dtype.kind in "biuf" and len(c) == 2 and
                            set(c.tolist()) == {0, 1} for c in labels)
            if not indicator:
                raise ValueError("The type of target cannot be used to compute OOB "
                                 "estimates. Got multiclass-multioutput while only the "
                                 "following are supported: continuous, "
                                 "continuous-multioutput, binary, multiclass, "
                                 "multilabel-indicator.")
            P = self._oob_values(X)
            cols = _outputs.columns(P, self._ncs)
            self.oob_decision_function_ = ember.stack(cols, axis=2)
            hit = ember.stack([ember.argmax(c, axis=1) for c in cols], axis=1) == codes
            self.oob_score_ = float(hit.all(axis=1).astype(ember.float64).mean())
            return
        P = self._oob_values(X)
        self.oob_decision_function_ = P
        hit = ember.argmax(P, axis=1) == codes
        self.oob_score_ = float(hit.astype(ember.float64).mean())

    def _per_output(self, v):
        if isinstance(self._ncs, list):
            return [self._out(c) for c in _outputs.columns(v, self._ncs)]
        return self._out(v)

    def predict_proba(self, X):
        X = self._predict_input(X)
        return self._per_output(self._leaf_values(X))

    def predict_log_proba(self, X):
        X = self._predict_input(X)
        return self._per_output(ember.log(self._leaf_values(X)))

    def predict(self, X):
        X = self._predict_input(X)
        return self._out(_outputs.predict_labels(self._leaf_values(X), self._classes,
                                                 self._ncs))


class RandomForestRegressor(RegressorMixin, _Forest):
    """sklearn.ensemble.RandomForestRegressor over histogram trees."""
    oob_prediction_ = fitted()
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
        X, y = self._fit_input(X, y, y_numeric=True, multi_output=True)
        if y.ndim == 2 and y.shape[1] == 1:
            y = y.reshape(-1)
        self._n_classes = 0
        self._ncs = 0
        self.n_outputs_ = 1 if y.ndim == 1 else y.shape[1]
        self._n_rows = X.shape[0]
        w = V.check_sample_weight(sample_weight, X, ember.float64)
        self._fit_trees(X, y.astype(ember.float64), w, 0)
        return self

    def _set_oob(self, X, y):
        from ember.ml.metrics import r2_score
        P = self._oob_values(X)
        P = P[:, 0] if self.n_outputs_ == 1 else P
        self.oob_prediction_ = P
        self.oob_score_ = float(r2_score(y, P))

    def predict(self, X):
        X = self._predict_input(X)
        v = self._leaf_values(X)
        return self._out((v[:, 0] if self.n_outputs_ == 1 else v).astype(X.dtype))
