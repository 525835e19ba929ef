"""ember.ml.metrics.roc_curve and auc against scikit-learn's on the same
scores, on every device: ties, weights (zeros among them), pos_label and
string labels, drop_intermediate, one-class warnings, and its errors."""
import warnings

import numpy as np
import pytest

import ember
from ember.ml import metrics as M
from ember.ml.exceptions import UndefinedMetricWarning

sk = pytest.importorskip("sklearn.metrics")


def _cases(rng):
    y = rng.integers(0, 2, 300)
    yield y, rng.random(300), None
    yield y, np.round(rng.random(300), 1), None                 # many ties
    yield y, rng.integers(0, 5, 300), rng.random(300)           # int scores, weights
    w = rng.random(300)
    w[::7] = 0
    yield y * 2 - 1, rng.standard_normal(300).astype(np.float32), w


@pytest.mark.parametrize("drop", [True, False])
def test_roc_curve_and_auc_equal_sklearn(device, drop):
    rng = np.random.default_rng(0)
    for y, s, w in _cases(rng):
        want = sk.roc_curve(y, s, sample_weight=w, drop_intermediate=drop)
        got = M.roc_curve(ember.asarray(y, device=device),
                          ember.asarray(s, device=device),
                          sample_weight=w, drop_intermediate=drop)
        for g, r in zip(got, want):
            assert isinstance(g, ember.ndarray) and g.device == ember.Device(device)
            np.testing.assert_allclose(ember.asnumpy(g), r, rtol=1e-12)
        host = M.roc_curve(y, s, sample_weight=w, drop_intermediate=drop)
        assert all(isinstance(h, np.ndarray) for h in host)
        np.testing.assert_allclose(host[0], want[0], rtol=1e-12)
        assert M.auc(got[0], got[1]) == pytest.approx(sk.auc(want[0], want[1]),
                                                      rel=1e-12)
        assert M.auc(host[0], host[1]) == pytest.approx(
            sk.roc_auc_score(y, s, sample_weight=w), rel=1e-12)


def test_pos_label_strings_and_one_class(device):
    rng = np.random.default_rng(1)
    y = np.array(["ham", "spam"], dtype=object)[rng.integers(0, 2, 50)]
    s = rng.random(50)
    for g, r in zip(M.roc_curve(y, s, pos_label="spam"),
                    sk.roc_curve(y, s, pos_label="spam")):
        np.testing.assert_allclose(g, r)
    for g, r in zip(M.roc_curve(y == "spam", s), sk.roc_curve(y == "spam", s)):
        np.testing.assert_allclose(g, r)
    with pytest.raises(ValueError, match="pos_label is not specified"):
        M.roc_curve(y, s)
    with pytest.raises(ValueError, match="pos_label is not specified"):
        sk.roc_curve(y, s)
    with pytest.raises(ValueError, match="multiclass format is not supported"):
        M.roc_curve(np.arange(6) % 3, np.arange(6.0))
    with pytest.raises(ValueError, match="multiclass format is not supported"):
        sk.roc_curve(np.arange(6) % 3, np.arange(6.0))
    ones = ember.asarray(np.ones(5, int), device=device)
    from sklearn.exceptions import UndefinedMetricWarning as SkWarning
    for mod, cls in ((M, UndefinedMetricWarning), (sk, SkWarning)):
        with pytest.warns(cls, match="No negative samples"):
            fpr, tpr, _ = mod.roc_curve(ones if mod is M else np.ones(5, int),
                                        np.arange(5.0))
        assert np.isnan(ember.asnumpy(fpr) if mod is M else fpr).all()


def test_auc_errors_and_direction():
    x, y = np.array([0.0, 0.5, 1.0]), np.array([0.0, 0.8, 1.0])
    assert M.auc(x, y) == pytest.approx(sk.auc(x, y))
    assert M.auc(x[::-1], y[::-1]) == pytest.approx(sk.auc(x[::-1], y[::-1]))
    for mod in (M, sk):
        with pytest.raises(ValueError, match="At least 2 points"):
            mod.auc([1.0], [1.0])
        with pytest.raises(ValueError, match="neither increasing nor decreasing"):
            mod.auc([0.0, 1.0, 0.5], [0.0, 1.0, 1.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        M.auc(x, y)


def test_weighted_curve_never_falls(device):
    # Many float weights, several scan tiles on either device (the host's
    # chunks are 65536 long): a tiled cumulative sum may step down by an ulp
    # where a weight is 0 for that rate; roc_curve's rates must not, and auc
    # must take its own curve.
    rng = np.random.default_rng(7)
    n = 300_000
    y = rng.integers(0, 2, n)
    s = rng.random(n)
    w = rng.random(n) * 1e3 + rng.random(n)
    fpr, tpr, _ = M.roc_curve(ember.asarray(y, device=device),
                              ember.asarray(s, device=device), sample_weight=w,
                              drop_intermediate=False)
    for r in (ember.asnumpy(fpr), ember.asnumpy(tpr)):
        assert (np.diff(r) >= 0).all()
    want = sk.roc_auc_score(y, s, sample_weight=w)
    assert M.auc(fpr, tpr) == pytest.approx(want, rel=1e-9)
