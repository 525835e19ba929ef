"""DecisionTreeClassifier/Regressor and ExtraTreeClassifier/Regressor: one
tree grown by the random forest's grower (ensemble/_grow.py) on binned
features, with every row and (by default) every feature, then laid out as
scikit-learn's tree (_structure.py). Prediction walks the device tables,
one gather a level."""
import math
import numbers

import numpy as np

import ember
from ember.ml import _validation as V
from ember.ml._random import check_random_state
from ember.ml.base import BaseEstimator, ClassifierMixin, RegressorMixin, fitted
from ember.ml.ensemble import _binning
from ember.ml.ensemble._grow import grow
from ember.ml.tree import _outputs, _pruning, _structure

_CLF_CRITERIA = ("gini", "entropy", "log_loss")
_REG_CRITERIA = ("squared_error", "friedman_mse", "absolute_error", "poisson")


def split_params(est, n, p):
    """(min_samples_split, min_samples_leaf, features drawn a node) from a
    tree's or forest's parameters, with scikit-learn's errors."""
    name = type(est).__name__
    if est.max_depth is not None:
        V.check_scalar(est.max_depth, "max_depth", numbers.Integral, min_val=1, est=est)
    V.check_scalar(est.max_bins, "max_bins", numbers.Integral, min_val=2, max_val=256,
                   est=est)
    mln = getattr(est, "max_leaf_nodes", None)
    if mln is not None:
        V.check_scalar(mln, "max_leaf_nodes", numbers.Integral, min_val=2, est=est)
    V.check_scalar(est.min_weight_fraction_leaf, "min_weight_fraction_leaf",
                   numbers.Real, min_val=0.0, max_val=0.5, est=est)
    V.check_scalar(est.min_impurity_decrease, "min_impurity_decrease", numbers.Real,
                   min_val=0.0, est=est)
    mss = est.min_samples_split
    if isinstance(mss, numbers.Integral) and not isinstance(mss, bool) and mss >= 2:
        pass
    elif isinstance(mss, float) and 0.0 < mss <= 1.0:
        mss = max(2, math.ceil(mss * n))
    else:
        raise ValueError(f"The 'min_samples_split' parameter of {name} must be an int in "
                         "the range [2, inf) or a float in the range (0.0, 1.0]. Got "
                         f"{est.min_samples_split!r} instead.")
    msl = est.min_samples_leaf
    if isinstance(msl, numbers.Integral) and not isinstance(msl, bool) and msl >= 1:
        pass
    elif isinstance(msl, float) and 0.0 < msl < 1.0:
        msl = max(1, math.ceil(msl * n))
    else:
        raise ValueError(f"The 'min_samples_leaf' parameter of {name} must be an int in "
                         "the range [1, inf) or a float in the range (0.0, 1.0). Got "
                         f"{est.min_samples_leaf!r} instead.")
    mss = max(mss, 2 * msl)
    mf = est.max_features
    if mf == "sqrt":
        k = max(1, int(math.sqrt(p)))
    elif mf == "log2":
        k = max(1, int(math.log2(p)))
    elif mf is None:
        k = p
    elif isinstance(mf, numbers.Integral) and not isinstance(mf, bool) and mf >= 1:
        k = mf
    elif isinstance(mf, float) and 0.0 < mf <= 1.0:
        k = max(1, int(mf * p))
    else:
        raise ValueError(f"The 'max_features' parameter of {name} must be an int in the "
                         "range [1, inf), a float in the range (0.0, 1.0], a str among "
                         f"{{'sqrt', 'log2'}} or None. Got {mf!r} instead.")
    if k > p:
        raise ValueError(f"max_features must be in (0, n_features], got {mf!r}")
    return mss, msl, k


def bin_ranges(X, E, side="left"):
    """(lo, hi): each bin's smallest and largest value of X (p x B, the bins
    _binning.transform(X, E, side) makes, B = len(E[0]) + 1), for random
    cuts. An empty bin takes the next bin's smallest value as both."""
    n, p = X.shape
    Xs = ember.sort(X, axis=0)
    Ed = ember.asarray(E, device=X.device).astype(X.dtype)
    zero = ember.zeros(1, dtype=ember.int64, device=X.device)
    end = ember.full(1, n, dtype=ember.int64, device=X.device)
    los, his = [], []
    for f in range(p):
        col = Xs[:, f]
        s = ember.searchsorted(col, Ed[f], side="right" if side == "left" else "left")
        s = s.astype(ember.int64)
        starts = ember.concatenate([zero, s])
        ends = ember.concatenate([s, end])
        los.append(ember.take(col, ember.minimum(starts, n - 1)))
        his.append(ember.take(col, ember.maximum(ember.minimum(ends - 1, n - 1), 0)))
    return ember.stack(los), ember.stack(his)


def check_criterion(est, classes):
    """'gini', 'entropy' or 'squared_error' (the grower's names) for a
    tree's or forest's criterion, or scikit-learn's error."""
    c = est.criterion
    name = type(est).__name__
    if classes:
        V.check_option(c, "criterion", _CLF_CRITERIA, est)
        return "gini" if c == "gini" else "entropy"
    V.check_option(c, "criterion", _REG_CRITERIA, est)
    # friedman_mse is squared_error (scikit-learn 1.9 maps it so: the same
    # splits, its score being the squared error's times the node weight)
    if c in ("absolute_error", "poisson"):
        raise NotImplementedError(f"{name}(criterion={c!r}): ember.ml has "
                                  "'squared_error' and 'friedman_mse'")
    return "squared_error"


class BaseDecisionTree(BaseEstimator):
    # scikit-learn takes a sparse X here; ember.ml makes it dense (_sparse_input.py)
    _accept_sparse = True

    feature_importances_ = fitted()
    _splitter_default = "best"

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.multi_output = True
        return tags

    def _check_unsupported(self):
        name = type(self).__name__
        if self.monotonic_cst is not None:
            raise NotImplementedError(f"{name}: monotonic_cst is not in ember.ml")
        V.check_scalar(self.ccp_alpha, "ccp_alpha", numbers.Real, min_val=0.0, est=self)
        V.check_option(self.splitter, "splitter", ("best", "random"), self)

    def _fit_tree(self, X, y, w, n_classes):
        """Grow, lay out and (ccp_alpha) prune the tree; n_classes is 0, an
        int (one output) or each output's classes (y n x outputs)."""
        n, p = X.shape
        self._check_unsupported()
        crit = check_criterion(self, n_classes)
        mss, msl, k = split_params(self, n, p)
        rng = check_random_state(self.random_state, X.device)
        E, _ = _binning.edges(X, self.max_bins, rng, side="left")
        Xb = _binning.transform(X, E, side="left")
        # each bin's extreme values: the random splitter draws between them,
        # and thresholds are placed between a node's own values with them
        ranges = bin_ranges(X, E)
        W = w[None, :]
        t = grow(Xb, y, W, n_classes=n_classes, max_bins=self.max_bins,
                 max_depth=self.max_depth, min_samples_split=mss, min_samples_leaf=msl,
                 min_weight_fraction_leaf=self.min_weight_fraction_leaf,
                 min_impurity_decrease=self.min_impurity_decrease, k=k, rng=rng,
                 criterion=crit, ranges=ranges if self.splitter == "random" else None)[0]
        if self.max_leaf_nodes is not None:
            order, split = _structure.best_first(t.left, t.right, t.gain,
                                                 self.max_leaf_nodes)
        else:
            order, split = _structure.preorder(t.left, t.right), None
        feat, sbin, left, right = _structure.renumber(t, order, split)
        depth = _depth_of(left, right)
        cnt, wn, value, imp, thr = _structure.node_stats(
            Xb, y, w, feat, sbin, left, right, depth, n_classes, crit,
            (ember.asnumpy(ranges[0]), ember.asnumpy(ranges[1])))
        self.tree_ = _structure.Tree(p, n_classes, feat, thr, left, right, value, imp, cnt,
                                     wn)
        if self.ccp_alpha > 0:
            self.tree_ = _pruning.prune_tree(self.tree_, self.ccp_alpha)
        self.max_features_ = k
        self.n_outputs_ = 1 if y.ndim == 1 else y.shape[1]
        self._ncs = n_classes
        self._to_device(X.device)
        self.feature_importances_ = ember.asarray(
            self.tree_.compute_feature_importances(), device=X.device)

    def _to_device(self, dev):
        t = self.tree_
        self._feat = ember.asarray(np.maximum(t.feature, 0).astype(np.int64), device=dev)
        self._thr = ember.asarray(t.threshold, device=dev)
        self._left = ember.asarray(t.children_left.astype(np.int64), device=dev)
        self._right = ember.asarray(t.children_right.astype(np.int64), device=dev)
        ncs = self.__dict__.get("_ncs", 1)
        self._val = ember.asarray(_outputs.side_by_side(t.value, ncs) if ncs else
                                  t.value[:, :, 0], device=dev)
        self._levels = t.max_depth

    def __setstate__(self, state):
        super().__setstate__(state)
        # the device tables are rebuilt from tree_ on the estimator's device
        if "tree_" in state and "_feat" not in state:
            self._to_device(self._device)

    def __getstate__(self):
        state = super().__getstate__()
        for k in ("_feat", "_thr", "_left", "_right", "_val"):
            state.pop(k, None)
        return state

    def _apply(self, X):
        """Each row's leaf (device int64)."""
        n, p = X.shape
        dev = X.device
        flat = X.reshape(-1)
        rows = ember.arange(n, device=dev) * p
        node = ember.zeros(n, dtype=ember.int64, device=dev)
        for _ in range(self._levels):
            lc = ember.take(self._left, node)
            # compared as float32, as scikit-learn's trees compare X
            x = ember.take(flat, rows + ember.take(self._feat, node))
            x = (x if x.dtype == ember.float32 else x.astype(ember.float32)).astype(ember.float64)
            go = ember.where(x <= ember.take(self._thr, node), lc,
                             ember.take(self._right, node))
            node = ember.where(lc >= 0, go, node)
        return node

    def _check_fitted_input(self, X, check_input=True):
        V.check_is_fitted(self, "tree_")
        return self._predict_input(X)

    def apply(self, X, check_input=True):
        """The leaf each row lands in (scikit-learn's node numbering)."""
        X = self._check_fitted_input(X)
        return self._out(self._apply(X))

    def decision_path(self, X, check_input=True):
        """scipy.sparse CSR indicator (rows x nodes) of the nodes each row
        passes through, as scikit-learn's."""
        X = self._check_fitted_input(X)
        return self.tree_.decision_path(ember.asnumpy(X))

    def get_depth(self):
        V.check_is_fitted(self, "tree_")
        return self.tree_.max_depth

    def get_n_leaves(self):
        V.check_is_fitted(self, "tree_")
        return self.tree_.n_leaves

    def _values(self, X):
        return ember.take(self._val, self._apply(X), axis=0)

    def cost_complexity_pruning_path(self, X, y, sample_weight=None):
        """scikit-learn's minimal cost-complexity pruning path: a Bunch of
        ccp_alphas (the effective alphas at which the grown tree's
        weakest links are pruned, ascending, from 0) and impurities (the
        total weighted leaf impurity of each pruned tree). The tree grows on
        the device; the pruning sequence is bookkeeping over its node arrays
        (at most a few thousand nodes), run on the host as scikit-learn runs
        it (tree/_pruning.py)."""
        from ember.ml.base import clone
        est = clone(self).set_params(ccp_alpha=0.0)
        est.fit(X, y, sample_weight=sample_weight)
        alphas, imps = _pruning.pruning_path(est.tree_)
        return _pruning.Bunch(ccp_alphas=alphas, impurities=imps)


def _depth_of(left, right):
    return int(_structure.node_depths(left, right).max()) if len(left) else 0


class DecisionTreeClassifier(ClassifierMixin, BaseDecisionTree):
    """sklearn.tree.DecisionTreeClassifier over a histogram tree: split
    points are midpoints between distinct values where a feature has at
    most max_bins of them, else at max_bins - 1 of its quantiles
    (docs/ml.md, "Trees")."""

    classes_ = fitted()

    def __init__(self, *, criterion="gini", splitter="best", max_depth=None,
                 min_samples_split=2, min_samples_leaf=1, min_weight_fraction_leaf=0.0,
                 max_features=None, random_state=None, max_leaf_nodes=None,
                 min_impurity_decrease=0.0, class_weight=None, ccp_alpha=0.0,
                 monotonic_cst=None, max_bins=256):
        self.criterion = criterion
        self.splitter = splitter
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.max_features = max_features
        self.random_state = random_state
        self.max_leaf_nodes = max_leaf_nodes
        self.min_impurity_decrease = min_impurity_decrease
        self.class_weight = class_weight
        self.ccp_alpha = ccp_alpha
        self.monotonic_cst = monotonic_cst
        self.max_bins = max_bins

    def fit(self, X, y, sample_weight=None, check_input=True):
        name = type(self).__name__
        if y is None:
            raise ValueError(f"{name} requires y to be passed, but the target y is None")
        V.check_option(self.criterion, "criterion", _CLF_CRITERIA, self)
        X, _ = self._fit_input(X)
        classes, codes, ncs = _outputs.encode_classes(y, X)
        if codes.shape[0] != X.shape[0]:
            raise ValueError("Found input variables with inconsistent numbers of samples: "
                             f"[{X.shape[0]}, {codes.shape[0]}]")
        self._classes = classes
        if isinstance(ncs, list):
            self.classes_ = [self._out(c) for c in classes]
        else:
            self.classes_ = classes
        # an intp array for several outputs, as scikit-learn's trees (its
        # forests keep a list)
        self.n_classes_ = np.array(ncs, dtype=np.intp) if isinstance(ncs, list) else ncs
        w = V.check_sample_weight(sample_weight, X, ember.float64)
        if self.class_weight is not None:
            if isinstance(ncs, list):
                raise NotImplementedError(f"{name}: class_weight with several outputs is "
                                          "not in ember.ml")
            from ember.ml.linear_model._base import class_weights
            w = w * class_weights(self.class_weight, classes, codes, ember.float64)
        self._fit_tree(X, codes, w, ncs)
        return self

    def _per_output(self, v):
        if isinstance(self._ncs, list):
            return [self._out(c) for c in _outputs.columns(v, self._ncs)]
        return self._out(v)

    def predict_proba(self, X, check_input=True):
        X = self._check_fitted_input(X)
        return self._per_output(self._values(X))

    def predict_log_proba(self, X):
        X = self._check_fitted_input(X)
        return self._per_output(ember.log(self._values(X)))

    def predict(self, X, check_input=True):
        X = self._check_fitted_input(X)
        return self._out(_outputs.predict_labels(self._values(X), self._classes,
                                                 self._ncs))


class DecisionTreeRegressor(RegressorMixin, BaseDecisionTree):
    """sklearn.tree.DecisionTreeRegressor over a histogram tree (split
    points as DecisionTreeClassifier's)."""

    def __init__(self, *, criterion="squared_error", splitter="best", max_depth=None,
                 min_samples_split=2, min_samples_leaf=1, min_weight_fraction_leaf=0.0,
                 max_features=None, random_state=None, max_leaf_nodes=None,
                 min_impurity_decrease=0.0, ccp_alpha=0.0, monotonic_cst=None,
                 max_bins=256):
        self.criterion = criterion
        self.splitter = splitter
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.max_features = max_features
        self.random_state = random_state
        self.max_leaf_nodes = max_leaf_nodes
        self.min_impurity_decrease = min_impurity_decrease
        self.ccp_alpha = ccp_alpha
        self.monotonic_cst = monotonic_cst
        self.max_bins = max_bins

    def fit(self, X, y, sample_weight=None, check_input=True):
        name = type(self).__name__
        if y is None:
            raise ValueError(f"{name} requires y to be passed, but the target y is None")
        V.check_option(self.criterion, "criterion", _REG_CRITERIA, self)
        X, y = self._fit_input(X, y, y_numeric=True, multi_output=True)
        if y.ndim == 2 and y.shape[1] == 1:
            y = y.reshape(-1)
        w = V.check_sample_weight(sample_weight, X, ember.float64)
        self._fit_tree(X, y.astype(ember.float64), w, 0)
        return self

    def predict(self, X, check_input=True):
        X = self._check_fitted_input(X)
        v = self._values(X)
        return self._out((v[:, 0] if self.n_outputs_ == 1 else v).astype(X.dtype))


class ExtraTreeClassifier(DecisionTreeClassifier):
    """sklearn.tree.ExtraTreeClassifier: random cuts (one a drawn feature)."""

    def __init__(self, *, criterion="gini", splitter="random", max_depth=None,
                 min_samples_split=2, min_samples_leaf=1, min_weight_fraction_leaf=0.0,
                 max_features="sqrt", random_state=None, max_leaf_nodes=None,
                 min_impurity_decrease=0.0, class_weight=None, ccp_alpha=0.0,
                 monotonic_cst=None, max_bins=256):
        super().__init__(criterion=criterion, splitter=splitter, max_depth=max_depth,
                         min_samples_split=min_samples_split,
                         min_samples_leaf=min_samples_leaf,
                         min_weight_fraction_leaf=min_weight_fraction_leaf,
                         max_features=max_features, random_state=random_state,
                         max_leaf_nodes=max_leaf_nodes,
                         min_impurity_decrease=min_impurity_decrease,
                         class_weight=class_weight, ccp_alpha=ccp_alpha,
                         monotonic_cst=monotonic_cst, max_bins=max_bins)


class ExtraTreeRegressor(DecisionTreeRegressor):
    """sklearn.tree.ExtraTreeRegressor: random cuts (one a drawn feature)."""

    def __init__(self, *, criterion="squared_error", splitter="random", max_depth=None,
                 min_samples_split=2, min_samples_leaf=1, min_weight_fraction_leaf=0.0,
                 max_features=1.0, random_state=None, max_leaf_nodes=None,
                 min_impurity_decrease=0.0, ccp_alpha=0.0, monotonic_cst=None,
                 max_bins=256):
        super().__init__(criterion=criterion, splitter=splitter, max_depth=max_depth,
                         min_samples_split=min_samples_split,
                         min_samples_leaf=min_samples_leaf,
                         min_weight_fraction_leaf=min_weight_fraction_leaf,
                         max_features=max_features, random_state=random_state,
                         max_leaf_nodes=max_leaf_nodes,
                         min_impurity_decrease=min_impurity_decrease,
                         ccp_alpha=ccp_alpha, monotonic_cst=monotonic_cst,
                         max_bins=max_bins)
