"""PolynomialFeatures: every product of at most `degree` features, in
scikit-learn's column order (by degree, then lexicographic in the feature
indices). The terms of degree d that start with feature i are feature i
times a contiguous tail of the degree d-1 block, so each degree is one
broadcast product per feature, never one per term."""
import itertools
import numbers

import numpy as np

import ember
from ember.ml import _validation as V
from ember.ml.base import BaseEstimator, TransformerMixin


class PolynomialFeatures(TransformerMixin, BaseEstimator):

    def __init__(self, degree=2, *, interaction_only=False, include_bias=True,
                 order="C"):
        self.degree = degree
        self.interaction_only = interaction_only
        self.include_bias = include_bias
        self.order = order

    def _degrees(self):
        d = self.degree
        if isinstance(d, numbers.Integral) and not isinstance(d, bool):
            if d < 0:
                raise ValueError(f"degree must be a non-negative integer, got {d}.")
            lo, hi = 0, int(d)
        elif (isinstance(d, tuple) and len(d) == 2
              and all(isinstance(v, numbers.Integral) for v in d)
              and 0 <= d[0] <= d[1]):
            lo, hi = int(d[0]), int(d[1])
        else:
            raise ValueError("degree=(min_degree, max_degree) must be non-negative "
                             f"integers that fulfil min_degree <= max_degree, got {d}.")
        if hi == 0 and not self.include_bias:
            raise ValueError("Setting degree to zero and include_bias to False would "
                             "result in an empty output array.")
        return lo, hi

    def _terms(self, n):
        """The feature-index tuples of the output columns, in order."""
        lo, hi = self._degrees()
        comb = (itertools.combinations if self.interaction_only
                else itertools.combinations_with_replacement)
        terms = [()] if self.include_bias else []
        for d in range(max(1, lo), hi + 1):
            terms.extend(comb(range(n), d))
        return terms

    def fit(self, X, y=None):
        V.check_option(self.order, "order", ("C", "F"), self)
        Xa, _ = self._fit_input(X)
        self.n_output_features_ = len(self._terms(Xa.shape[1]))
        return self

    @property
    def powers_(self):
        V.check_is_fitted(self)
        terms = self._terms(self.n_features_in_)
        p = np.zeros((len(terms), self.n_features_in_), dtype=np.int64)
        for r, t in enumerate(terms):
            for i in t:
                p[r, i] += 1
        return p

    def transform(self, X):
        Xa = self._predict_input(X)
        n, m = Xa.shape
        lo, hi = self._degrees()
        blocks = []
        if self.include_bias:
            blocks.append(ember.ones((n, 1), dtype=Xa.dtype, device=Xa.device))
        prev, first = Xa, np.arange(m)
        if lo <= 1 and hi >= 1:
            blocks.append(Xa)
        step = 1 if self.interaction_only else 0
        for d in range(2, hi + 1):
            parts, firsts = [], []
            for i in range(m):
                start = int(np.searchsorted(first, i + step))
                if start == prev.shape[1]:
                    break
                parts.append(Xa[:, i:i + 1] * prev[:, start:])
                firsts.append(np.full(prev.shape[1] - start, i))
            if not parts:
                break
            prev, first = ember.concatenate(parts, axis=1), np.concatenate(firsts)
            if d >= lo:
                blocks.append(prev)
        if not blocks:
            out = ember.zeros((n, 0), dtype=Xa.dtype, device=Xa.device)
        else:
            out = blocks[0] if len(blocks) == 1 else ember.concatenate(blocks, axis=1)
        return self._out(out)

    def get_feature_names_out(self, input_features=None):
        from ember.ml.preprocessing._data import _same_names
        names = _same_names(self, input_features)
        out = []
        for row in self.powers_:
            nz = np.flatnonzero(row)
            out.append(" ".join(names[i] if row[i] == 1 else f"{names[i]}^{row[i]}"
                                for i in nz) if nz.size else "1")
        return np.asarray(out, dtype=object)
