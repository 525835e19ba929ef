"""Minka's choice of PCA's dimension (n_components='mle'), "Automatic
Choice of Dimensionality for PCA", NIPS 2000, as scikit-learn evaluates
it: the log-evidence of every rank 1..p-1 from the explained variances.

The spectrum has min(n_samples, n_features) values, so this runs on the
host as scikit-learn's does; the ranks' terms are cumulative sums and one
triangular block a rank rather than its double loop over pairs."""
import math

import numpy as np

_EPS = 1e-15


def infer_dimension(spectrum, n_samples):
    """The rank in [1, p-1] with the highest log-evidence (0 when p == 1
    or no rank is admissible), scikit-learn's _infer_dimension."""
    s = np.asarray(spectrum, dtype=np.float64)
    p = s.shape[0]
    if p < 2:
        return 0
    n = float(n_samples)
    ranks = np.arange(1, p)
    # the prior on the subspace: a uniform Stiefel-manifold term a rank
    half = (p - np.arange(1, p + 1) + 1) / 2.0
    stiefel = np.array([math.lgamma(h) for h in half]) - math.log(math.pi) * half
    pu = -ranks * math.log(2.0) + np.cumsum(stiefel)[:p - 1]
    with np.errstate(divide="ignore", invalid="ignore"):
        pl = -np.cumsum(np.log(s))[:p - 1] * n / 2.0
        tail = np.cumsum(s[::-1])[::-1][1:]          # sum of s[r:] for r = 1..p-1
        v = np.maximum(_EPS, tail / (p - ranks))
        pv = -np.log(v) * n * (p - ranks) / 2.0
        m = p * ranks - ranks * (ranks + 1.0) / 2.0
        pp = math.log(2.0 * math.pi) * (m + ranks) / 2.0
        pa = np.empty(p - 1)
        j = np.arange(p)
        for r in ranks:
            si = s[:r, None]
            sj = np.where(j < r, s, v[r - 1])[None, :]
            pairs = j[None, :] > np.arange(r)[:, None]
            terms = np.log((si - s[None, :]) * (1.0 / sj - 1.0 / si)) + math.log(n)
            pa[r - 1] = terms[pairs].sum()
        ll = pu + pl + pv + pp - pa / 2.0 - ranks * math.log(n) / 2.0
    ll = np.where(s[:p - 1] < _EPS, -np.inf, ll)
    return int(np.argmax(np.concatenate(([-np.inf], ll))))
