"""OneHotEncoder. Each column becomes integer codes (-1 for a category not
in categories_): numeric columns by a searchsorted into their categories on
the device, columns of strings or objects on the host, where they live.
The output is then one comparison of the codes with 0..k-1 per column
(dense), or the codes offset per column as the indices of a CSR matrix
with one stored 1 per known value (sparse_output=True, ember.scipy.sparse;
a SciPy matrix after NumPy or pandas input, as scikit-learn)."""
import warnings

import numpy as np

import ember
from ember.ml import _validation as V
from ember.ml._config import get_config
from ember.ml.base import BaseEstimator, TransformerMixin

_UNKNOWN = ("error", "ignore", "infrequent_if_exist", "warn")


def _columns(X, device):
    """X as a list of columns: 1-D ember arrays for numbers, host arrays for
    anything else; and the number of rows."""
    if isinstance(X, ember.ndarray):
        if X.ndim != 2:
            raise ValueError(f"Expected 2D array, got {X.ndim}D array instead")
        return [X[:, j] for j in range(X.shape[1])], X.shape[0]
    mod = type(X).__module__ or ""
    if mod.startswith("ember.frame") or hasattr(X, "iloc"):
        if getattr(X, "ndim", 2) != 2:
            raise ValueError("Expected 2D array, got 1D array instead")
        cols = []
        for c in X.columns:
            s = X[c]
            if s.dtype.kind in "biuf" and not bool(s.isna().any()):
                v = s.values if mod.startswith("ember.frame") else s.to_numpy()
                cols.append(V.to_ember(v, None if mod.startswith("ember.frame")
                                       else device))
            else:
                h = (s.to_pandas() if mod.startswith("ember.frame") else s).to_numpy()
                cols.append(h if h.dtype.kind not in "biuf" else
                            V.to_ember(h, device))
        return cols, len(X)
    h = np.asarray(X)
    if h.dtype.kind == "U":
        h = np.asarray(X, dtype=object)
    if h.ndim != 2:
        raise ValueError(f"Expected 2D array, got {h.ndim}D array instead:\narray={X}.\n"
                         "Reshape your data either using array.reshape(-1, 1) if your "
                         "data has a single feature or array.reshape(1, -1) if it "
                         "contains a single sample.")
    if h.dtype.kind == "c":
        raise ValueError("Complex data not supported")
    if h.dtype.kind in "biuf":
        if h.dtype.kind == "f" and np.isinf(h).any():
            raise ValueError("Input X contains infinity or a value too large for "
                             f"dtype('{h.dtype}').")
        a = ember.asarray(h, device=device)
        return [a[:, j] for j in range(h.shape[1])], h.shape[0]
    return [h[:, j] for j in range(h.shape[1])], h.shape[0]


def _host_unique(col, j):
    try:
        return np.unique(col)
    except TypeError:
        kinds = sorted({type(v).__name__ for v in col.tolist()})
        raise TypeError("Encoders require their input argument must be uniformly "
                        f"strings or numbers. Got {kinds}") from None


def _sorted_unknown(vals):
    """The unknown values for the message, sorted; None (which does not
    order against strings) last, as scikit-learn lists it."""
    try:
        return list(np.unique(vals))
    except TypeError:
        seen = set(vals.tolist())
        return sorted(v for v in seen if v is not None) + [None] * (None in seen)


def _codes(col, cats, cats_dev):
    """int64 codes of col's values in cats (-1 where absent), on the device."""
    k = len(cats)
    if isinstance(col, ember.ndarray):
        if k == 0:
            return ember.full(col.shape[0], -1, dtype=ember.int64, device=col.device)
        idx = ember.minimum(ember.searchsorted(cats_dev, col), k - 1)
        hit = ember.take(cats_dev, idx) == col
        if cats.dtype.kind == "f" and np.isnan(cats[-1]):
            nan = ember.isnan(col)
            hit, idx = hit | nan, ember.where(nan, k - 1, idx)
        return ember.where(hit, idx, -1).astype(ember.int64)
    order = np.argsort(cats, kind="stable")
    s = cats[order]
    try:
        pos = np.minimum(np.searchsorted(s, col), max(k - 1, 0))
        hit = (s[pos] == col) if k else np.zeros(len(col), bool)
    except TypeError:
        # values that do not order against the categories (None among
        # strings): one table of first places, as scikit-learn's set lookups,
        # not a scan of the categories for every value
        first = {}
        for i, v in enumerate(s.tolist()):
            first.setdefault(v, i)
        at = np.fromiter((first.get(v, -1) for v in col.tolist()), np.int64,
                         count=len(col))
        hit, pos = at >= 0, np.maximum(at, 0)
    code = np.where(hit, order[pos] if k else 0, -1).astype(np.int64)
    return code


class OneHotEncoder(TransformerMixin, BaseEstimator):
    """scikit-learn's OneHotEncoder without infrequent categories
    (min_frequency, max_categories raise NotImplementedError)."""

    def __init__(self, *, categories="auto", drop=None, sparse_output=True,
                 dtype=np.float64, handle_unknown="error", min_frequency=None,
                 max_categories=None, feature_name_combiner="concat"):
        self.categories = categories
        self.drop = drop
        self.sparse_output = sparse_output
        self.dtype = dtype
        self.handle_unknown = handle_unknown
        self.min_frequency = min_frequency
        self.max_categories = max_categories
        self.feature_name_combiner = feature_name_combiner

    def fit(self, X, y=None):
        V.check_option(self.handle_unknown, "handle_unknown", _UNKNOWN, self)
        for p in ("min_frequency", "max_categories"):
            if getattr(self, p) is not None:
                raise NotImplementedError(f"OneHotEncoder({p}=...): infrequent "
                                          "categories are not supported by ember.ml")
        if not (self.feature_name_combiner == "concat"
                or callable(self.feature_name_combiner)):
            raise ValueError("The 'feature_name_combiner' parameter must be 'concat' "
                             f"or a callable. Got {self.feature_name_combiner!r}.")
        self._device = (V.to_ember(X).device if V.input_kind(X) == "ember"
                        and isinstance(X, ember.ndarray) else ember.get_device())
        cols, n = _columns(X, self._device)
        # a frame's numeric columns stay on its device, whichever column
        # comes first (string columns are host arrays)
        on = [c.device for c in cols if isinstance(c, ember.ndarray)]
        if on:
            self._device = on[0]
        if n < 1:
            raise ValueError(f"Found array with 0 sample(s) (shape=({n}, {len(cols)})) "
                             "while a minimum of 1 is required by OneHotEncoder.")
        if not cols:
            raise ValueError(f"Found array with 0 feature(s) (shape=({n}, 0)) while a "
                             "minimum of 1 is required by OneHotEncoder.")
        self._output_kind = V.input_kind(X)
        self.n_features_in_ = len(cols)
        names = V.feature_names(X)
        if names is not None:
            self.feature_names_in_ = names
        else:
            self.__dict__.pop("feature_names_in_", None)
        if self.categories != "auto" and len(self.categories) != len(cols):
            raise ValueError("Shape mismatch: if categories is an array, it has to be "
                             "of shape (n_features,).")
        cats, numeric = [], [isinstance(c, ember.ndarray) for c in cols]
        for j, col in enumerate(cols):
            if self.categories == "auto":
                c = (ember.asnumpy(ember.unique(col)) if isinstance(col, ember.ndarray)
                     else _host_unique(col, j))
            else:
                c = self._given(j, col)
            cats.append(c)
        self.categories_ = cats
        self._cats_dev = [ember.asarray(c, device=self._device) if num else None
                          for c, num in zip(cats, numeric)]
        self.drop_idx_ = self._drop_idx()
        return self

    def _given(self, j, col):
        c = np.asarray(self.categories[j])
        numeric = isinstance(col, ember.ndarray)
        if numeric:
            if c.dtype.kind not in "biuf":
                raise ValueError(f"Column {j} has numeric values but the categories "
                                 "given are not numbers")
            c = c.astype(ember.asnumpy(col[:0]).dtype)
            nan = np.isnan(c) if c.dtype.kind == "f" else np.zeros(len(c), bool)
            body = c[~nan]
            if (nan.any() and not nan[-1]) or np.any(body[1:] < body[:-1]):
                raise ValueError("Unsorted categories are not supported for numerical "
                                 "categories")
        elif c.dtype.kind == "U":
            c = c.astype(object)
        if self.handle_unknown == "error":
            codes = _codes(col, c, ember.asarray(c, device=self._device)
                           if numeric else None)
            bad = codes < 0
            if bool(bad.any()):
                vals = col[bad]
                vals = _sorted_unknown(ember.asnumpy(vals) if numeric else vals)
                raise ValueError(f"Found unknown categories {vals} in column {j} "
                                 "during fit")
        return c

    def _drop_idx(self):
        drop = self.drop
        if drop is None:
            return None
        if isinstance(drop, str):
            if drop == "first":
                return np.zeros(len(self.categories_), dtype=object)
            if drop == "if_binary":
                return np.array([0 if len(c) == 2 else None for c in self.categories_],
                                dtype=object)
            raise ValueError("Wrong input for parameter `drop`. Expected 'first', "
                             f"'if_binary', None or array of objects, got {drop!r}")
        drop = list(drop)
        if len(drop) != len(self.categories_):
            raise ValueError("`drop` should have length equal to the number of "
                             f"features ({len(self.categories_)}), got {len(drop)}")
        idx = []
        for j, (d, c) in enumerate(zip(drop, self.categories_)):
            if d is None:
                idx.append(None)
                continue
            hit = np.flatnonzero(c == d)
            if not hit.size:
                raise ValueError("The following categories were supposed to be "
                                 f"dropped, but were not found in the training data.\n"
                                 f"Category: {d}, Feature: {j}")
            idx.append(int(hit[0]))
        return np.array(idx, dtype=object)

    def _all_codes(self, X):
        V.check_is_fitted(self, "categories_")
        cols, n = _columns(X, self._device)
        if len(cols) != self.n_features_in_:
            raise ValueError(f"X has {len(cols)} features, but OneHotEncoder is "
                             f"expecting {self.n_features_in_} features as input.")
        codes = []
        for j, col in enumerate(cols):
            if isinstance(col, ember.ndarray) != (self._cats_dev[j] is not None):
                raise ValueError(f"Column {j} of X holds another kind of values "
                                 "(numbers or objects) than it held in fit")
            c = _codes(col, self.categories_[j], self._cats_dev[j])
            codes.append(c if isinstance(c, ember.ndarray)
                         else ember.asarray(c, device=self._device))
        return cols, codes, n

    def _check_unknown(self, cols, codes):
        unknown = [(j, c < 0) for j, c in enumerate(codes)]
        flags = ember.asnumpy(ember.stack([u.any() for _, u in unknown])) if unknown \
            else np.zeros(0, bool)
        if not flags.any():
            return
        if self.handle_unknown == "error":
            j = int(np.flatnonzero(flags)[0])
            col = cols[j]
            mask = unknown[j][1]
            vals = ember.asnumpy(col[mask]) if isinstance(col, ember.ndarray) else \
                col[ember.asnumpy(mask)]
            raise ValueError(f"Found unknown categories {_sorted_unknown(vals)} in "
                             f"column {j} during transform")
        if self.handle_unknown == "warn" or self.drop_idx_ is not None:
            warnings.warn(f"Found unknown categories in columns "
                          f"{np.flatnonzero(flags).tolist()} during transform. These "
                          "unknown categories will be encoded as all zeros",
                          UserWarning)

    def _widths(self):
        drop = self.drop_idx_
        return [len(c) - (drop is not None and drop[j] is not None)
                for j, c in enumerate(self.categories_)]

    def transform(self, X):
        cols, codes, n = self._all_codes(X)
        self._check_unknown(cols, codes)
        widths = self._widths()
        drop = self.drop_idx_
        dt = np.dtype(self.dtype)
        adj = []
        for j, c in enumerate(codes):
            if drop is not None and drop[j] is not None:
                d = drop[j]
                c = ember.where(c == d, -1, ember.where(c > d, c - 1, c))
            adj.append(c)
        if self.sparse_output:
            return self._sparse(adj, widths, n, dt)
        dev = self._device
        blocks = [(c.reshape(-1, 1) == ember.arange(w, device=dev).reshape(1, -1))
                  .astype(dt) for c, w in zip(adj, widths)]
        out = (ember.concatenate(blocks, axis=1) if blocks
               else ember.zeros((n, 0), dtype=dt, device=dev))
        return self._out(out)

    def _sparse(self, codes, widths, n, dt):
        from ember.scipy import sparse
        dev = self._device
        offsets = np.concatenate([[0], np.cumsum(widths)[:-1]]).astype(np.int64)
        cols = ember.stack([c + int(o) for c, o in zip(codes, offsets)], axis=1)
        valid = ember.stack([c >= 0 for c in codes], axis=1)
        indices = cols[valid]
        indptr = ember.concatenate([ember.zeros(1, dtype=ember.int64, device=dev),
                                    ember.cumsum(valid.sum(axis=1))])
        data = ember.ones(indices.shape[0], dtype=dt, device=dev)
        m = sparse.csr_matrix((data, indices, indptr), shape=(n, int(sum(widths))))
        want = get_config()["output"]
        if want == "input":
            want = self._output_kind
        return m if want == "ember" else m.get()

    def inverse_transform(self, X):
        V.check_is_fitted(self, "categories_")
        if hasattr(X, "toarray"):
            X = X.toarray()
        Xa = V.check_array(X, device=self._device)
        widths = self._widths()
        if Xa.shape[1] != sum(widths):
            raise ValueError("Shape of the passed X data is not correct. Expected "
                             f"{sum(widths)} columns, got {Xa.shape[1]}.")
        drop = self.drop_idx_
        outs, none_rows, start = [], [], 0
        for j, (c, w) in enumerate(zip(self.categories_, widths)):
            block = Xa[:, start:start + w]
            start += w
            d = None if drop is None else drop[j]
            if w:
                idx = ember.argmax(block, axis=1)
                empty = block.sum(axis=1) == 0
            else:
                idx = ember.zeros(Xa.shape[0], dtype=ember.int64, device=Xa.device)
                empty = ember.ones(Xa.shape[0], dtype=ember.bool_, device=Xa.device)
            if d is not None:
                idx = ember.where(empty, d, ember.where(idx >= d, idx + 1, idx))
                empty = ember.zeros_like(empty)
            outs.append(idx)
            none_rows.append(empty)
        hosts = ember.asnumpy(ember.stack(outs + none_rows, axis=1)) if outs else \
            np.zeros((Xa.shape[0], 0), np.int64)
        m = len(outs)
        idx_h, none_h = hosts[:, :m].astype(np.int64), hosts[:, m:].astype(bool)
        numeric = all(c is not None for c in self._cats_dev) and not none_h.any()
        if numeric:
            out = ember.stack([ember.take(self._cats_dev[j], outs[j])
                               for j in range(m)], axis=1)
            return self._out(out)
        res = np.empty((Xa.shape[0], m), dtype=object)
        for j, c in enumerate(self.categories_):
            vals = c[np.minimum(idx_h[:, j], max(len(c) - 1, 0))].astype(object)
            vals[none_h[:, j]] = None
            res[:, j] = vals
        return res

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.input_tags.categorical = True
        tags.input_tags.string = True
        return tags

    def get_feature_names_out(self, input_features=None):
        from ember.ml.preprocessing._data import _same_names
        names = _same_names(self, input_features)
        combine = self.feature_name_combiner
        if combine == "concat":
            def combine(f, c):
                return f"{f}_{c}"
        drop = self.drop_idx_
        out = []
        for j, c in enumerate(self.categories_):
            for i, v in enumerate(c):
                if drop is not None and drop[j] is not None and i == drop[j]:
                    continue
                out.append(combine(names[j], v.item() if hasattr(v, "item") else v))
        return np.asarray(out, dtype=object)
