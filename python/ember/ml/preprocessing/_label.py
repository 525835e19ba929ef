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


class _OneDLabels:
    """scikit-learn's tags of a transformer of 1-d labels (not of X)."""

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.two_d_array = False
        tags.target_tags.one_d_labels = True
        return tags


class LabelEncoder(_OneDLabels, TransformerMixin, BaseEstimator):
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


class LabelBinarizer(_OneDLabels, TransformerMixin, BaseEstimator):
    """One column a class (pos_label where the sample has it, neg_label
    elsewhere); two classes give the one column of classes_[1], one class a
    column of neg_label, as scikit-learn's. A label unseen at fit gives a row
    of neg_label. The indicator is one comparison of the label codes with
    0..k-1 on the device; multilabel targets are not built."""
    classes_ = fitted()

    def __init__(self, *, neg_label=0, pos_label=1, sparse_output=False):
        self.neg_label = neg_label
        self.pos_label = pos_label
        self.sparse_output = sparse_output

    def _check_params(self):
        if self.neg_label >= self.pos_label:
            raise ValueError(f"neg_label={self.neg_label} must be strictly less than "
                             f"pos_label={self.pos_label}.")
        if self.sparse_output and (self.pos_label == 0 or self.neg_label != 0):
            raise ValueError("Sparse binarization is only supported with non zero "
                             f"pos_label and zero neg_label, got pos_label="
                             f"{self.pos_label} and neg_label={self.neg_label}")

    @staticmethod
    def _check_y(y):
        shape = getattr(y, "shape", None) or np.shape(y)
        if len(shape) == 2 and shape[1] > 1:
            raise NotImplementedError("multilabel targets are not supported by "
                                      "ember.ml's LabelBinarizer")
        if shape and shape[0] == 0:
            raise ValueError(f"y has 0 samples: {y!r}")
        kind = getattr(getattr(y, "dtype", None), "kind", None)
        if kind is None and not isinstance(y, ember.ndarray):
            kind = np.asarray(y).dtype.kind
        if kind == "f":
            ya = y if isinstance(y, ember.ndarray) else V.to_ember(np.asarray(y))
            if not bool((ember.floor(ya) == ya).all()):
                raise ValueError("Unknown label type: continuous")

    def fit(self, y):
        self._check_params()
        self._check_y(y)
        enc = LabelEncoder()
        enc._fit_y(y)
        self._output_kind, self._device = enc._output_kind, enc._device
        self.classes_ = enc.__dict__["classes_"]
        k = self.classes_.shape[0]
        self.y_type_ = "binary" if k <= 2 else "multiclass"
        return self

    def fit_transform(self, y):
        return self.fit(y).transform(y)

    def transform(self, y):
        V.check_is_fitted(self, "classes_")
        self._check_y(y)
        classes = self.__dict__["classes_"]
        k = classes.shape[0]
        codes, found = self._codes(y, classes)
        ks = ember.arange(k, device=codes.device)
        hot = (codes[:, None] == ks[None, :]) & found[:, None]
        Y = ember.where(hot, self.pos_label, self.neg_label).astype(ember.int64)
        if k == 1:
            Y = ember.full((codes.shape[0], 1), self.neg_label, dtype=ember.int64,
                           device=codes.device)
        elif k == 2:
            Y = Y[:, 1:]
        if self.sparse_output:
            import scipy.sparse as sp
            return sp.csr_matrix(ember.asnumpy(Y))
        return self._out(Y)

    def _codes(self, y, classes):
        """(index of each label in classes, whether it is there) on the device."""
        k = classes.shape[0]
        if isinstance(classes, ember.ndarray):
            ya = V.column_or_1d(y, device=self._device)
            idx = ember.minimum(ember.searchsorted(classes, ya), k - 1)
            return idx.astype(ember.int64), ember.take(classes, idx) == ya
        y = _strings_to_host(y)
        h = _host_y(y if not isinstance(y, ember.ndarray) else ember.asnumpy(y))
        h = h.astype(classes.dtype) if classes.dtype.kind in "US" else h
        idx = np.minimum(np.searchsorted(classes, h), k - 1)
        found = classes[idx] == h
        return (ember.asarray(idx.astype(np.int64), device=self._device),
                ember.asarray(np.asarray(found, dtype=bool), device=self._device))

    def inverse_transform(self, Y, threshold=None):
        """The label of each row: the column of the largest value (several
        classes), or classes_[1] where the one column exceeds threshold
        (default halfway between neg_label and pos_label)."""
        V.check_is_fitted(self, "classes_")
        classes = self.__dict__["classes_"]
        if hasattr(Y, "toarray"):
            Y = Y.toarray()
        Ya = V.check_array(Y, device=self._device, ensure_2d=False)
        if threshold is None:
            threshold = (self.pos_label + self.neg_label) / 2.0
        k = classes.shape[0]
        if k > 2:
            codes = ember.argmax(Ya, axis=1)
        else:
            col = Ya.reshape(Ya.shape[0], -1)
            if col.shape[1] != 1:
                raise ValueError(f"output_type='binary', but y.shape = {tuple(Ya.shape)}")
            codes = (col[:, 0] > threshold).astype(ember.int64)
            if k == 1:
                codes = codes * 0
        return self._out(_labels.decode(classes, codes.astype(ember.int64)))
