"""ExtraTreesClassifier and ExtraTreesRegressor: the random forest's
grower with a random cut a drawn feature (ensemble/_grow.py, _random_cut)
and, as scikit-learn's, every row to every tree unless bootstrap=True."""
from ember.ml.ensemble._forest import RandomForestClassifier, RandomForestRegressor, \
    _common_init


class _Extra:
    def _grow_options(self, X, E):
        from ember.ml.tree._classes import bin_ranges
        # the grower reads the name for classes only
        crit = "entropy" if self.criterion in ("entropy", "log_loss") else "gini"
        return {"criterion": crit, "ranges": bin_ranges(X, E, side="right")}


class ExtraTreesClassifier(_Extra, RandomForestClassifier):
    """sklearn.ensemble.ExtraTreesClassifier over histogram trees: each
    drawn feature is cut once, at a threshold drawn uniform between the
    node's smallest and largest value and rounded to a bin edge."""
    _criteria = ("gini", "entropy", "log_loss")

    def __init__(self, n_estimators=100, *, criterion="gini", max_depth=None,
                 min_samples_split=2, min_samples_leaf=1, min_weight_fraction_leaf=0.0,
                 max_features="sqrt", max_leaf_nodes=None, min_impurity_decrease=0.0,
                 bootstrap=False, oob_score=False, n_jobs=None, random_state=None,
                 verbose=0, warm_start=False, class_weight=None, ccp_alpha=0.0,
                 max_samples=None, monotonic_cst=None, max_bins=256):
        _common_init(self, n_estimators, criterion, max_depth, min_samples_split,
                     min_samples_leaf, min_weight_fraction_leaf, max_features,
                     max_leaf_nodes, min_impurity_decrease, bootstrap, oob_score, n_jobs,
                     random_state, verbose, warm_start, ccp_alpha, max_samples,
                     monotonic_cst, max_bins)
        self.class_weight = class_weight


class ExtraTreesRegressor(_Extra, RandomForestRegressor):
    """sklearn.ensemble.ExtraTreesRegressor over histogram trees (random
    cuts as ExtraTreesClassifier's)."""
    _criteria = ("squared_error", "friedman_mse")

    def __init__(self, n_estimators=100, *, criterion="squared_error", max_depth=None,
                 min_samples_split=2, min_samples_leaf=1, min_weight_fraction_leaf=0.0,
                 max_features=1.0, max_leaf_nodes=None, min_impurity_decrease=0.0,
                 bootstrap=False, oob_score=False, n_jobs=None, random_state=None,
                 verbose=0, warm_start=False, ccp_alpha=0.0, max_samples=None,
                 monotonic_cst=None, max_bins=256):
        _common_init(self, n_estimators, criterion, max_depth, min_samples_split,
                     min_samples_leaf, min_weight_fraction_leaf, max_features,
                     max_leaf_nodes, min_impurity_decrease, bootstrap, oob_score, n_jobs,
                     random_state, verbose, warm_start, ccp_alpha, max_samples,
                     monotonic_cst, max_bins)
