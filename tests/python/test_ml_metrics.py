"""ember.ml.metrics against scikit-learn's on the same data, on every
device: values (exactly, up to float rounding), the kind of array that
comes back, labels of ints, floats and strings, and scikit-learn's errors."""
import warnings

import numpy as np
import pytest

import ember
import ember.ml
from ember.ml import metrics as M

sk = pytest.importorskip("sklearn.metrics")


def _lab(rng, n, k, kind):
    y = rng.integers(0, k, n)
    if kind == "float":
        return y.astype(np.float64) * 2 - 1
    if kind == "str":
        return np.array(["cat", "dog", "emu", "fox", "gnu"][:k])[y].astype(object)
    return y


@pytest.mark.parametrize("kind", ["int", "float", "str"])
def test_accuracy_confusion(device, kind):
    rng = np.random.default_rng(0)
    yt, yp = _lab(rng, 200, 4, kind), _lab(rng, 200, 4, kind)
    w = rng.random(200)
    et = yt if kind == "str" else ember.asarray(yt, device=device)
    ep = yp if kind == "str" else ember.asarray(yp, device=device)
    for nz in (True, False):
        assert M.accuracy_score(et, ep, normalize=nz) == pytest.approx(
            sk.accuracy_score(yt, yp, normalize=nz), rel=1e-12)
        got = M.accuracy_score(et, ep, normalize=nz, sample_weight=w)
        assert isinstance(got, float)
        assert got == pytest.approx(sk.accuracy_score(yt, yp, normalize=nz,
                                                      sample_weight=w), rel=1e-12)
    cm = M.confusion_matrix(et, ep)
    assert isinstance(cm, ember.ndarray if kind != "str" else np.ndarray)
    ref = sk.confusion_matrix(yt, yp)
    np.testing.assert_array_equal(ember.asnumpy(cm) if kind != "str" else cm, ref)
    assert ember.asnumpy(cm).dtype == np.int64 if kind != "str" else cm.dtype == np.int64
    labels = list(np.unique(yt)[::-1][:3])
    for norm in (None, "true", "pred", "all"):
        got = M.confusion_matrix(yt, yp, labels=labels, sample_weight=w, normalize=norm)
        np.testing.assert_allclose(got, sk.confusion_matrix(
            yt, yp, labels=labels, sample_weight=w, normalize=norm), rtol=1e-12)
    iw = rng.integers(0, 3, 200)
    got = M.confusion_matrix(yt, yp, sample_weight=iw)
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got, sk.confusion_matrix(yt, yp, sample_weight=iw))


def test_accuracy_multilabel_and_frames(device):
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(1)
    yt, yp = rng.integers(0, 2, (50, 3)), rng.integers(0, 2, (50, 3))
    yp[:20] = yt[:20]
    assert M.accuracy_score(ember.asarray(yt, device=device), yp) == sk.accuracy_score(
        yt, yp)
    a, b = rng.integers(0, 3, 40), rng.integers(0, 3, 40)
    assert M.accuracy_score(pd.Series(a), pd.Series(b)) == sk.accuracy_score(a, b)
    s = ember.frame.Series(a, device=device)
    cm = M.confusion_matrix(s, b)
    assert isinstance(cm, ember.ndarray)
    np.testing.assert_array_equal(ember.asnumpy(cm), sk.confusion_matrix(a, b))
    with ember.ml.config_context(output="numpy"):
        assert isinstance(M.confusion_matrix(s, b), np.ndarray)


@pytest.mark.parametrize("average", ["binary", "micro", "macro", "weighted", None])
def test_precision_recall_f1(device, average):
    rng = np.random.default_rng(2)
    k = 2 if average == "binary" else 4
    yt, yp = rng.integers(0, k, 150), rng.integers(0, k, 150)
    w = rng.random(150)
    et = ember.asarray(yt, device=device)
    for name in ("precision_score", "recall_score", "f1_score"):
        for sw in (None, w):
            got = getattr(M, name)(et, yp, average=average, sample_weight=sw)
            ref = getattr(sk, name)(yt, yp, average=average, sample_weight=sw)
            np.testing.assert_allclose(ember.asnumpy(got) if average is None else got,
                                       ref, rtol=1e-12)
    got = M.fbeta_score(yt, yp, beta=0.5, average=average)
    np.testing.assert_allclose(got, sk.fbeta_score(yt, yp, beta=0.5, average=average),
                               rtol=1e-12)


def test_prf_strings_labels_zero_division():
    yt = np.array(["a", "b", "a", "c", "b", "a"], dtype=object)
    yp = np.array(["a", "a", "a", "b", "b", "a"], dtype=object)
    for avg in ("macro", "weighted", "micro"):
        with warnings.catch_warnings(record=True) as rec:
            warnings.simplefilter("always")
            got = M.precision_score(yt, yp, average=avg)
        ref = sk.precision_score(yt, yp, average=avg, zero_division=0.0)
        assert got == pytest.approx(ref)
        if avg == "macro":
            assert any("ill-defined" in str(r.message) for r in rec)
        for zd in (0.0, 1.0):
            assert M.recall_score(yt, yp, average=avg, zero_division=zd,
                                  labels=["c", "a"]) == pytest.approx(
                sk.recall_score(yt, yp, average=avg, zero_division=zd, labels=["c", "a"]))
            assert M.f1_score(yt, yp, average=avg, zero_division=zd) == pytest.approx(
                sk.f1_score(yt, yp, average=avg, zero_division=zd))
    yb = np.where(yt == "a", "a", "b").astype(object)
    pb = np.where(yp == "a", "a", "b").astype(object)
    assert M.f1_score(yb, pb, pos_label="a") == pytest.approx(
        sk.f1_score(yb, pb, pos_label="a"))
    with pytest.raises(ValueError, match="pos_label"):
        M.f1_score(yb, pb)
    with pytest.raises(ValueError, match="multiclass"):
        M.f1_score(yt, yp)


def test_classification_errors():
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        M.accuracy_score([1, 2, 3], [1, 2])
    with pytest.raises(ValueError, match="continuous"):
        M.accuracy_score([0, 1, 1], [0.5, 1.0, 0.2])
    with pytest.raises(ValueError, match="Mix of label input types"):
        M.confusion_matrix(np.array(["a", "b"]), [0, 1])
    with pytest.raises(ValueError, match="At least one label"):
        M.confusion_matrix([0, 1], [0, 1], labels=[5])
    with pytest.raises(ValueError, match="at least one label"):
        M.confusion_matrix([0, 1], [0, 1], labels=[])
    with pytest.raises(ValueError):
        M.confusion_matrix([0, 1], [0, 1], normalize="rows")


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_log_loss(device, dtype):
    rng = np.random.default_rng(3)
    p = rng.random((80, 3)).astype(dtype)
    p /= p.sum(axis=1, keepdims=True)
    y = rng.integers(0, 3, 80)
    w = rng.random(80)
    ep = ember.asarray(p, device=device)
    rtol = 1e-5 if dtype == np.float32 else 1e-12
    for nz in (True, False):
        assert M.log_loss(y, ep, normalize=nz, sample_weight=w) == pytest.approx(
            sk.log_loss(y, p, normalize=nz, sample_weight=w), rel=rtol)
    pb = p[:, 0]
    pb[:3] = (0.0, 1.0, 1.0)
    yb = np.array(["no", "yes"], dtype=object)[y % 2]
    assert M.log_loss(yb, ember.asarray(pb, device=device)) == pytest.approx(
        sk.log_loss(yb, pb), rel=rtol)
    assert M.log_loss(y[:10] % 2, p[:10], labels=[0, 1, 2]) == pytest.approx(
        sk.log_loss(y[:10] % 2, p[:10], labels=[0, 1, 2]), rel=rtol)
    with pytest.raises(ValueError, match="only one label"):
        M.log_loss([1, 1], [0.5, 0.5])
    with pytest.raises(ValueError, match="different number of classes"):
        M.log_loss(y % 2, p)
    with pytest.raises(ValueError, match="greater than 1"):
        M.log_loss([0, 1], [0.5, 1.5])
    with pytest.warns(UserWarning, match="do not sum to one"):
        M.log_loss([0, 1], [[0.5, 0.6], [0.1, 0.9]])


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_regression(device, dtype):
    rng = np.random.default_rng(4)
    yt = rng.standard_normal((60, 3)).astype(dtype)
    yp = (yt + 0.3 * rng.standard_normal((60, 3))).astype(dtype)
    w = rng.random(60)
    et, ep = ember.asarray(yt, device=device), ember.asarray(yp, device=device)
    rtol = 1e-4 if dtype == np.float32 else 1e-10
    for name in ("r2_score", "mean_squared_error", "mean_absolute_error",
                 "root_mean_squared_error", "explained_variance_score",
                 "mean_absolute_percentage_error"):
        f, g = getattr(M, name), getattr(sk, name)
        for mo in ("uniform_average", "raw_values", [0.2, 0.3, 0.5]) + (
                ("variance_weighted",) if name in ("r2_score",
                                                   "explained_variance_score") else ()):
            for sw in (None, w):
                got = f(et, ep, sample_weight=sw, multioutput=mo)
                ref = g(yt, yp, sample_weight=sw, multioutput=mo)
                if mo == "raw_values":
                    assert isinstance(got, ember.ndarray)
                    assert ember.asnumpy(got).dtype == dtype
                    got = ember.asnumpy(got)
                else:
                    assert isinstance(got, float)
                np.testing.assert_allclose(got, ref, rtol=rtol)
        np.testing.assert_allclose(f(yt[:, 0], yp[:, 0]), g(yt[:, 0], yp[:, 0]),
                                   rtol=rtol)


def test_r2_edge_cases():
    y = np.array([[1.0, 2.0], [1.0, 3.0], [1.0, 4.0]])
    p = np.array([[1.0, 2.5], [1.0, 3.0], [1.0, 3.0]])
    for ff in (True, False):
        for mo in ("raw_values", "uniform_average", "variance_weighted"):
            for name in ("r2_score", "explained_variance_score"):
                np.testing.assert_allclose(
                    getattr(M, name)(y, p, force_finite=ff, multioutput=mo),
                    getattr(sk, name)(y, p, force_finite=ff, multioutput=mo))
    q = p.copy()
    q[0, 0] = 2.0
    np.testing.assert_allclose(M.r2_score(y, q, multioutput="raw_values",
                                          force_finite=False),
                               sk.r2_score(y, q, multioutput="raw_values",
                                           force_finite=False))
    with pytest.warns(UserWarning, match="less than two samples"):
        assert np.isnan(M.r2_score([1.0], [2.0]))
    with pytest.raises(ValueError, match="different number of output"):
        M.mean_squared_error(y, p[:, 0])
    with pytest.raises(ValueError, match="NaN"):
        M.mean_absolute_error([1.0, np.nan], [1.0, 2.0])
    with pytest.raises(ValueError, match="multioutput"):
        M.r2_score(y, p, multioutput="bogus")


@pytest.mark.parametrize("ties", [False, True])
def test_roc_auc_binary(device, ties):
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 300)
    s = rng.random(300) + 0.3 * y
    if ties:
        s = np.round(s, 1)
    w = rng.random(300)
    es = ember.asarray(s, device=device)
    assert M.roc_auc_score(y, es) == pytest.approx(sk.roc_auc_score(y, s), rel=1e-12)
    assert M.roc_auc_score(y, es, sample_weight=w) == pytest.approx(
        sk.roc_auc_score(y, s, sample_weight=w), rel=1e-12)
    for mf in (0.1, 0.35, 0.5):
        assert M.roc_auc_score(y, es, max_fpr=mf) == pytest.approx(
            sk.roc_auc_score(y, s, max_fpr=mf), rel=1e-10)
    ys = np.array(["neg", "pos"], dtype=object)[y]
    assert M.roc_auc_score(ys, s) == pytest.approx(sk.roc_auc_score(ys, s), rel=1e-12)
    with pytest.warns(UserWarning, match="Only one class"):
        assert np.isnan(M.roc_auc_score([1, 1, 1], [0.2, 0.3, 0.1]))


@pytest.mark.parametrize("mc", ["ovr", "ovo"])
def test_roc_auc_multiclass(device, mc):
    rng = np.random.default_rng(6)
    y = rng.integers(0, 4, 200)
    p = rng.random((200, 4)) + np.eye(4)[y] * 0.5
    p = np.round(p, 2)
    p /= p.sum(axis=1, keepdims=True)
    ep = ember.asarray(p, device=device)
    avgs = ("macro", "weighted") + (("micro", None) if mc == "ovr" else ())
    for avg in avgs:
        got = M.roc_auc_score(y, ep, multi_class=mc, average=avg)
        ref = sk.roc_auc_score(y, p, multi_class=mc, average=avg)
        np.testing.assert_allclose(ember.asnumpy(got) if avg is None else got, ref,
                                   rtol=1e-12)
    if mc == "ovr":
        w = rng.random(200)
        assert M.roc_auc_score(y, p, multi_class=mc, sample_weight=w) == pytest.approx(
            sk.roc_auc_score(y, p, multi_class=mc, sample_weight=w), rel=1e-12)
    m = y != 2
    for avg in avgs:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = M.roc_auc_score(y[m], p[m], multi_class=mc, labels=[0, 1, 2, 3],
                                  average=avg)
            ref = sk.roc_auc_score(y[m], p[m], multi_class=mc, labels=[0, 1, 2, 3],
                                   average=avg)
        np.testing.assert_allclose(got, ref, rtol=1e-12)
    with pytest.raises(ValueError, match="multi_class must be"):
        M.roc_auc_score(y, p)
    with pytest.raises(ValueError, match="probabilities"):
        M.roc_auc_score(y, p * 2, multi_class=mc)


def test_lazy_reexports():
    assert callable(M.r2_score)
    with pytest.raises(AttributeError):
        M.no_such_metric
