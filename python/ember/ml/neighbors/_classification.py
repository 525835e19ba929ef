"""KNeighborsClassifier: the vote of the k nearest training rows."""
import ember
from ember.ml import _labels
from ember.ml.base import BaseEstimator, ClassifierMixin
from ember.ml.neighbors._base import KNeighborsBase, check_weights, neighbor_weights


class KNeighborsClassifier(KNeighborsBase, ClassifierMixin, BaseEstimator):
    def fit(self, X, y):
        check_weights(self.weights, self)
        self._need_y(y)
        Xa, _ = self._fit_rows(X)
        if getattr(y, "ndim", 1) == 2 and y.shape[1] > 1:
            raise NotImplementedError("KNeighborsClassifier: multi-output y is not "
                                      "supported")
        classes, codes = _labels.fit_classes(y, Xa)
        self.classes_ = classes
        self.outputs_2d_ = False
        self._codes = codes
        return self

    def _proba(self, X):
        dist, ind = self._kneighbors(X)
        n, k = ind.shape
        c = len(self.classes_)
        w = neighbor_weights(dist, self.weights)
        w = ember.ones((n, k), dtype=ember.float64, device=ind.device) if w is None \
            else w.astype(ember.float64)
        # one bincount over (query, class) pairs: the per-class sums of every
        # row at once
        key = ember.take(self._codes, ind) + \
            (ember.arange(n, dtype=ember.int64, device=ind.device) * c).reshape(-1, 1)
        P = ember.bincount(key.reshape(-1), weights=w.reshape(-1),
                           minlength=n * c).reshape(n, c)
        tot = P.sum(axis=1, keepdims=True)
        return P / ember.where(tot == 0, ember.ones_like(tot), tot)

    def predict_proba(self, X):
        return self._out(self._proba(X))

    def predict(self, X):
        # argmax takes the first class among equal votes: scikit-learn's
        # smallest label
        codes = ember.argmax(self._proba(X), axis=1)
        return self._out(_labels.decode(self._dev_classes(), codes))

    def _dev_classes(self):
        c = self.__dict__["classes_"]
        return c if not isinstance(c, ember.ndarray) else self._dev("classes_")
