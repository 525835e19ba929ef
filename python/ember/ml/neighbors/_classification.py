"""KNeighborsClassifier: the vote of the k nearest training rows."""
import ember
from ember.ml import _labels
from ember.ml.base import BaseEstimator, ClassifierMixin
from ember.ml.neighbors._base import KNeighborsBase, check_weights, neighbor_weights


def _columns(y):
    """The columns of a 2-D y with several, else None (a 1-D y, or one
    column, is one output as scikit-learn's)."""
    if getattr(y, "ndim", 1) != 2 or y.shape[1] == 1:
        return None
    if isinstance(y, ember.ndarray):
        return [y[:, j] for j in range(y.shape[1])]
    if (type(y).__module__ or "").startswith("ember.frame"):
        return [y[c] for c in y.columns]
    import numpy as np
    h = np.asarray(y)
    return [h[:, j] for j in range(h.shape[1])]


class KNeighborsClassifier(KNeighborsBase, ClassifierMixin, BaseEstimator):
    def fit(self, X, y):
        check_weights(self.weights, self)
        self._need_y(y)
        Xa, _ = self._fit_rows(X)
        cols = _columns(y)
        fits = [_labels.fit_classes(c, Xa) for c in (cols or [y])]
        self.outputs_2d_ = cols is not None
        self._classes = [c for c, _ in fits]
        self._codes = [codes for _, codes in fits]
        return self

    def _probas(self, X):
        """One (n, classes) array of votes per output; the neighbours and
        their weights are found once for all outputs."""
        dist, ind = self._kneighbors(X)
        n, k = ind.shape
        w = neighbor_weights(dist, self.weights)
        w = ember.ones((n, k), dtype=ember.float64, device=ind.device) if w is None \
            else w.astype(ember.float64)
        rows = ember.arange(n, dtype=ember.int64, device=ind.device).reshape(-1, 1)
        out = []
        for codes, classes in zip(self._codes, self._classes_list()):
            c = len(classes)
            # one bincount over (query, class) pairs: the per-class sums of
            # every row at once
            key = ember.take(codes, ind) + rows * c
            P = ember.bincount(key.reshape(-1), weights=w.reshape(-1),
                               minlength=n * c).reshape(n, c)
            tot = P.sum(axis=1, keepdims=True)
            out.append(P / ember.where(tot == 0, ember.ones_like(tot), tot))
        return out

    @property
    def classes_(self):
        """In the output kind (a list of them for several outputs)."""
        try:
            cs = self.__dict__["_classes"]
        except KeyError:
            raise AttributeError("'KNeighborsClassifier' object has no attribute "
                                 "'classes_'") from None
        cs = [self._out(c) for c in cs]
        return cs if self.outputs_2d_ else cs[0]

    def _classes_list(self):
        return self.__dict__["_classes"]

    def predict_proba(self, X):
        P = [self._out(p) for p in self._probas(X)]
        return P if self.outputs_2d_ else P[0]

    def predict(self, X):
        # argmax takes the first class among equal votes: scikit-learn's
        # smallest label
        labels = [_labels.decode(c, ember.argmax(p, axis=1))
                  for p, c in zip(self._probas(X), self._classes_list())]
        if not self.outputs_2d_:
            return self._out(labels[0])
        if all(isinstance(v, ember.ndarray) for v in labels):
            return self._out(ember.stack(labels, axis=1))
        import numpy as np
        return np.stack([ember.asnumpy(v) if isinstance(v, ember.ndarray) else v
                         for v in labels], axis=1)
