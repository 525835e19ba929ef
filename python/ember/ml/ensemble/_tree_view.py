"""One tree of a fitted forest seen as scikit-learn's DecisionTree
estimators inside its forests are: per-tree feature importances, depth and
leaves, and predictions. The forest keeps its trees as one set of tables;
a view reads its own rows of them."""
import numpy as np

import ember
from ember.ml.tree import _outputs


class TreeView:
    def __init__(self, forest, t):
        self._forest, self._t = forest, t
        self.n_features_in_ = forest.n_features_in_
        self.n_outputs_ = forest.n_outputs_
        if forest._n_classes:
            self.n_classes_ = forest.n_classes_
            ncs = forest._ncs
            self.classes_ = [np.arange(c, dtype=float) for c in ncs] \
                if isinstance(ncs, list) else np.arange(ncs, dtype=float)

    @property
    def feature_importances_(self):
        return self._forest._tree_imp[self._t].copy()

    def get_depth(self):
        return int(self._forest._tree_shape[self._t, 0])

    def get_n_leaves(self):
        return int(self._forest._tree_shape[self._t, 1])

    def _values(self, X):
        f = self._forest
        X = f._predict_input(X)
        return X, f._leaf_values(X, (self._t, self._t + 1))

    def predict_proba(self, X):
        if not self._forest._n_classes:
            raise AttributeError("a regression tree has no predict_proba")
        _, v = self._values(X)
        return self._forest._per_output(v)

    def predict(self, X):
        X, v = self._values(X)
        f = self._forest
        if f._n_classes:
            # class indices, as the trees inside scikit-learn's forests give
            if isinstance(f._ncs, list):
                idx = ember.stack([ember.argmax(c, axis=1)
                                   for c in _outputs.columns(v, f._ncs)], axis=1)
            else:
                idx = ember.argmax(v, axis=1)
            return f._out(idx.astype(ember.float64))
        return f._out((v[:, 0] if f.n_outputs_ == 1 else v).astype(X.dtype))

    def __repr__(self):
        kind = "Classifier" if self._forest._n_classes else "Regressor"
        return f"DecisionTree{kind}(tree {self._t} of {type(self._forest).__name__})"
