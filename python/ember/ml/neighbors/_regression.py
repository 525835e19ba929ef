"""KNeighborsRegressor: the (weighted) mean target of the k nearest rows."""
import ember
from ember.ml.base import BaseEstimator, RegressorMixin
from ember.ml.neighbors._base import KNeighborsBase, check_weights, neighbor_weights


class KNeighborsRegressor(KNeighborsBase, RegressorMixin, BaseEstimator):
    def fit(self, X, y):
        check_weights(self.weights, self)
        self._need_y(y)
        _, ya = self._fit_rows(X, y, multi_output=True)
        self._y = ya if ya.dtype.kind == "f" else ya.astype(ember.float64)
        return self

    def predict(self, X):
        dist, ind = self._kneighbors(X)
        n, k = ind.shape
        y = self._y
        Y = ember.take(y, ind.reshape(-1), axis=0).reshape((n, k) + tuple(y.shape[1:]))
        w = neighbor_weights(dist, self.weights)
        if w is None:
            return self._out(Y.mean(axis=1))
        w = w.astype(y.dtype)
        if y.ndim == 2:
            w = w.reshape(n, k, 1)
        return self._out((Y * w).sum(axis=1) / w.sum(axis=1))


    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.multi_output = True
        return tags
