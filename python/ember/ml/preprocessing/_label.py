"""LabelEncoder: labels to 0..k-1 and back. Numeric labels are coded on
their device (a searchsorted into classes_); strings live on the host, so
they are coded there (ember.ml._labels)."""
import numpy as np

import ember
from ember.ml import _labels
from ember.ml import _validation as V
from ember.ml.base import BaseEstimator, TransformerMixin, fitted


def _host_y(y):
    h = np.asarray(y)
    if h.ndim == 2 and h.shape[1] == 1:
        h = h.reshape(-1)
    if h.ndim != 1:
        raise ValueError(f"y should be a 1d array, got an array of shape {h.shape} "
                         "instead.")
    return h


def _strings_to_host(y):
    """An ember Series of strings as a host array (strings are coded on the
    host); anything else unchanged."""
    if (type(y).__module__ or "").startswith("ember.frame") and \
            getattr(y.dtype, "kind", "f") not in "biuf":
        return y.to_pandas().to_numpy()
    return y


class LabelEncoder(TransformerMixin, BaseEstimator):
    """classes_ are the sorted distinct labels; transform gives each label's
    index in them, inverse_transform the label of each index."""
    classes_ = fitted()

    def fit(self, y):
        self._fit_y(y)
        return self

    def fit_transform(self, y):
        codes = self._fit_y(y)
        return self._out(codes)

    def _fit_y(self, y):
        self._output_kind = V.input_kind(y)
        y = _strings_to_host(y)
        self._device = V.to_ember(y).device if V.input_kind(y) == "ember" else (
            ember.get_device())
        classes, codes = _labels.encode(y, self._device)
        self.classes_ = classes
        return codes

    def transform(self, y):
        V.check_is_fitted(self, "classes_")
        classes = self.__dict__["classes_"]
        if isinstance(classes, ember.ndarray):
            ya = V.column_or_1d(y, device=self._device)
            if ya.shape[0] == 0:
                return self._out(ember.zeros(0, dtype=ember.int64, device=self._device))
            k = classes.shape[0]
            idx = ember.minimum(ember.searchsorted(classes, ya), k - 1)
            found = ember.take(classes, idx) == ya
            if not bool(found.all()):
                unseen = ember.unique(ya[~found])
                raise ValueError("y contains previously unseen labels: "
                                 f"{ember.asnumpy(unseen)}")
            return self._out(idx.astype(ember.int64))
        y = _strings_to_host(y)
        h = _host_y(y if not isinstance(y, ember.ndarray) else ember.asnumpy(y))
        if h.size == 0:
            return self._out(ember.zeros(0, dtype=ember.int64, device=self._device))
        h = h.astype(classes.dtype) if classes.dtype.kind in "US" else h
        try:
            idx = np.minimum(np.searchsorted(classes, h), len(classes) - 1)
            found = classes[idx] == h
        except TypeError:
            raise ValueError("y contains previously unseen labels: "
                             f"{sorted(set(h.tolist()), key=str)}") from None
        if not found.all():
            raise ValueError("y contains previously unseen labels: "
                             f"{np.unique(h[~found].astype(str))}")
        return self._out(ember.asarray(idx.astype(np.int64), device=self._device))

    def inverse_transform(self, y):
        V.check_is_fitted(self, "classes_")
        classes = self.__dict__["classes_"]
        codes = V.column_or_1d(y, device=self._device)
        if codes.shape[0] == 0:
            empty = classes[:0]
            return self._out(empty) if isinstance(empty, ember.ndarray) else empty
        k = classes.shape[0]
        bad = (codes < 0) | (codes >= k)
        if bool(bad.any()):
            raise ValueError("y contains previously unseen labels: "
                             f"{ember.asnumpy(ember.unique(codes[bad]))}")
        return self._out(_labels.decode(classes, codes.astype(ember.int64)))

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.two_d_array = False
        tags.target_tags.one_d_labels = True
        return tags
