"""The clustering comparison scores of ember.ml.metrics (labels against
labels) against scikit-learn's on the same labellings, on every device:
ints, floats, strings, pandas and ember input, the degenerate labellings
scikit-learn special-cases, and its errors and warnings."""
import warnings

import numpy as np
import pytest

import ember
from ember.ml import metrics as M

sk = pytest.importorskip("sklearn.metrics")
pd = pytest.importorskip("pandas")

SCORES = ["rand_score", "adjusted_rand_score", "mutual_info_score",
          "normalized_mutual_info_score", "adjusted_mutual_info_score",
          "homogeneity_score", "completeness_score", "v_measure_score",
          "fowlkes_mallows_score"]


def _pairs(rng):
    """Labellings of several shapes: random, nested, identical, one
    cluster, all singletons, unequal sizes, a permutation of labels."""
    yt = rng.integers(0, 5, 300)
    yield yt, rng.integers(0, 7, 300)
    yield yt, yt * 2 + rng.integers(0, 2, 300)
    yield yt, (yt + 3) % 5
    yield yt, np.zeros(300, int)
    yield np.zeros(10, int), np.zeros(10, int)
    yield np.arange(12), np.arange(12) // 3
    yield rng.choice(3, 500, p=[0.9, 0.09, 0.01]), rng.integers(0, 40, 500)


@pytest.mark.parametrize("name", SCORES)
def test_scores_equal_sklearn(device, name):
    rng = np.random.default_rng(1)
    ours, ref = getattr(M, name), getattr(sk, name)
    for yt, yp in _pairs(rng):
        want = ref(yt, yp)
        et, ep = (ember.asarray(a, device=device) for a in (yt, yp))
        got = ours(et, ep)
        assert isinstance(got, float)
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-14)
        # host input, float labels and string labels give the same score
        np.testing.assert_allclose(ours(yt, yp), want, rtol=1e-12, atol=1e-14)
        np.testing.assert_allclose(ours(yt * 0.5, yp - 1.0), want, rtol=1e-12,
                                   atol=1e-14)
        names = np.array([f"c{i}" for i in range(max(yt.max(), yp.max()) + 1)],
                         dtype=object)
        np.testing.assert_allclose(ours(names[yt], pd.Series(names[yp])), want,
                                   rtol=1e-12, atol=1e-14)


def test_averages_beta_and_matrices(device):
    rng = np.random.default_rng(2)
    yt, yp = rng.integers(0, 4, 200), rng.integers(0, 6, 200)
    et, ep = (ember.asarray(a, device=device) for a in (yt, yp))
    for method in ("min", "geometric", "arithmetic", "max"):
        for f in ("normalized_mutual_info_score", "adjusted_mutual_info_score"):
            np.testing.assert_allclose(
                getattr(M, f)(et, ep, average_method=method),
                getattr(sk, f)(yt, yp, average_method=method), rtol=1e-12)
    np.testing.assert_allclose(M.v_measure_score(et, ep, beta=0.3),
                               sk.v_measure_score(yt, yp, beta=0.3), rtol=1e-12)
    np.testing.assert_allclose(M.homogeneity_completeness_v_measure(et, ep, beta=2),
                               sk.homogeneity_completeness_v_measure(yt, yp, beta=2),
                               rtol=1e-12)
    C = M.contingency_matrix(et, ep)
    assert isinstance(C, ember.ndarray) and C.device == ember.Device(device)
    ref = sk.cluster.contingency_matrix(yt, yp)
    np.testing.assert_array_equal(ember.asnumpy(C), ref)
    np.testing.assert_array_equal(M.contingency_matrix(yt, yp), ref)
    np.testing.assert_allclose(M.contingency_matrix(yt, yp, eps=0.5),
                               sk.cluster.contingency_matrix(yt, yp, eps=0.5))
    np.testing.assert_array_equal(M.contingency_matrix(yt, yp, sparse=True).toarray(),
                                  ref)
    np.testing.assert_array_equal(M.pair_confusion_matrix(et, ep),
                                  sk.pair_confusion_matrix(yt, yp))
    np.testing.assert_allclose(M.mutual_info_score(None, None, contingency=ref),
                               sk.mutual_info_score(None, None, contingency=ref),
                               rtol=1e-12)


def test_empty_labellings():
    for name in SCORES:
        if name == "fowlkes_mallows_score":
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                want = getattr(sk, name)([], [])
            except ValueError:
                # scikit-learn's mutual_info_score takes log(0) here
                with pytest.raises(ValueError):
                    getattr(M, name)([], [])
                continue
        assert getattr(M, name)([], []) == want, name


def test_errors_and_warnings(device):
    y = ember.asarray(np.arange(6) % 2, device=device)
    for name in SCORES:
        f, g = getattr(M, name), getattr(sk, name)
        with pytest.raises(ValueError, match="inconsistent numbers of samples"):
            f(y, np.arange(5))
        with pytest.raises(ValueError):
            g(np.arange(6) % 2, np.arange(5))
        with pytest.raises(ValueError, match="labels_true must be 1D"):
            f(np.zeros((6, 2)), np.arange(6))
        with pytest.raises(ValueError, match="labels_true must be 1D"):
            g(np.zeros((6, 2)), np.arange(6))
    with pytest.raises(ValueError, match="average_method"):
        M.adjusted_mutual_info_score([0, 1], [1, 0], average_method="mean")
    with pytest.raises(ValueError):
        sk.adjusted_mutual_info_score([0, 1], [1, 0], average_method="mean")
    with pytest.warns(UserWarning, match="continuous values"):
        M.adjusted_rand_score(np.linspace(0, 1, 6), np.arange(6) % 2)
    with pytest.warns(UserWarning, match="continuous values"):
        sk.adjusted_rand_score(np.linspace(0, 1, 6), np.arange(6) % 2)
    with pytest.raises(ValueError, match="eps"):
        M.contingency_matrix([0, 1], [0, 1], eps=1.0, sparse=True)


def test_large_ami_matches_sklearn():
    # many samples and uneven clusters: the expected mutual information sums
    # long overlap ranges (the part scikit-learn writes in Cython)
    rng = np.random.default_rng(3)
    yt = rng.choice(6, 20000, p=[0.4, 0.3, 0.1, 0.1, 0.05, 0.05])
    yp = np.where(rng.random(20000) < 0.7, yt, rng.integers(0, 9, 20000))
    np.testing.assert_allclose(M.adjusted_mutual_info_score(yt, yp),
                               sk.adjusted_mutual_info_score(yt, yp), rtol=1e-10)
