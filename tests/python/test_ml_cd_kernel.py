"""Lasso/ElasticNet's fit as one kernel launch (kernels/cd_fit.cuh through
linear_model/_cd_kernel.py) on wide data (n < p, the residual form) and
on the covariance form, against scikit-learn's coefficients at tight tol;
the launch count of a fit; the block's threaded path (run on cpu by the
block simulator); the kernels' GPU build through NVRTC."""
import warnings

import numpy as np
import pytest

import ember
from ember.ml import linear_model as LM
from ember.ml.exceptions import ConvergenceWarning
from ember.ml.linear_model import _cd_kernel

sk = pytest.importorskip("sklearn.linear_model")


def _wide(n=60, p=800, seed=0, zero_col=None):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    w = np.zeros(p)
    w[:10] = rng.normal(size=10) * 2
    y = X @ w + 0.5 * rng.normal(size=n) + 1.0
    if zero_col is not None:
        X[:, zero_col] = 0
    return X, y


def _on(device, *arrs):
    return [ember.asarray(a, device=device) for a in arrs]


def _close_coef(got, ref, rtol=1e-4):
    got = ember.asnumpy(got) if isinstance(got, ember.ndarray) else np.asarray(got)
    np.testing.assert_allclose(got, ref, rtol=rtol, atol=rtol * np.abs(ref).max())


# float32's gap stalls near 1e-7 |y|^2; its coefficients are then within
# 1e-4 of the largest
_TOL = {np.float64: 1e-10, np.float32: 1e-7}

_CASES = [
    ("Lasso", {"alpha": 0.1}),
    ("Lasso", {"alpha": 0.5}),
    ("ElasticNet", {"alpha": 0.1, "l1_ratio": 0.5}),
    ("ElasticNet", {"alpha": 0.3, "l1_ratio": 0.2}),
    ("ElasticNet", {"alpha": 0.05, "l1_ratio": 0.8, "positive": True}),
    ("Lasso", {"alpha": 0.2, "positive": True, "fit_intercept": False}),
    ("ElasticNet", {"alpha": 0.1, "l1_ratio": 0.5, "selection": "random",
                    "random_state": 0}),
    ("Lasso", {"alpha": 0.1, "selection": "random", "random_state": 7,
               "positive": True}),
]


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("cls,kw", _CASES)
def test_wide_matches_sklearn(device, dtype, cls, kw):
    X, y = _wide()
    tol = _TOL[dtype]
    ref = getattr(sk, cls)(tol=1e-12, max_iter=100000, **kw).fit(X, y)
    Xe, ye = _on(device, X.astype(dtype), y.astype(dtype))
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        m = getattr(LM, cls)(tol=tol, max_iter=100000, **kw).fit(Xe, ye)
    assert m.coef_.dtype == dtype and m.coef_.shape == (800,)
    _close_coef(m.coef_, ref.coef_)
    assert m.intercept_ == pytest.approx(ref.intercept_, rel=1e-4, abs=1e-4)
    if kw.get("positive"):
        assert ember.asnumpy(m.coef_).min() >= 0
    assert 0 < m.n_iter_ < 100000
    yc = y - y.mean() if kw.get("fit_intercept", True) else y
    assert 0 <= m.dual_gap_ <= 1.001 * tol * (yc @ yc) / len(y)


@pytest.mark.parametrize("cls,kw", _CASES[:6])
def test_wide_same_sweeps_as_sklearn(device, cls, kw):
    # the cyclic order's updates are scikit-learn's: the same sweep count
    # and gap at its default tol
    X, y = _wide()
    ref = getattr(sk, cls)(**kw).fit(X, y)
    m = getattr(LM, cls)(**kw).fit(*_on(device, X, y))
    assert m.n_iter_ == ref.n_iter_
    assert m.dual_gap_ == pytest.approx(ref.dual_gap_, rel=1e-4, abs=1e-12)
    _close_coef(m.coef_, ref.coef_, rtol=1e-6)


def test_wide_zero_column_weights_targets_warm_start(device):
    X, y = _wide(p=300, zero_col=4)
    rng = np.random.default_rng(1)
    sw = rng.uniform(0.5, 2.0, X.shape[0])
    Y = np.c_[y, 0.5 * y - X[:, 20]]
    Xe, Ye, swe = _on(device, X, Y, sw)
    kw = {"alpha": 0.1, "l1_ratio": 0.7, "tol": 1e-10, "max_iter": 100000}
    ref = sk.ElasticNet(**kw).fit(X, Y, sample_weight=sw)
    m = LM.ElasticNet(**kw).fit(Xe, Ye, sample_weight=swe)
    assert m.coef_.shape == (2, 300)
    _close_coef(m.coef_, ref.coef_)
    np.testing.assert_allclose(ember.asnumpy(m.intercept_), ref.intercept_, rtol=1e-6)
    assert (ember.asnumpy(m.coef_)[:, 4] == 0).all()
    assert len(m.n_iter_) == 2 and m.dual_gap_.shape == (2,)
    # a warm start from the fit meets the gap before any sweep
    w = LM.ElasticNet(warm_start=True, **kw).fit(Xe, Ye[:, 0])
    first = ember.asnumpy(w.coef_).copy()
    w.fit(Xe, Ye[:, 0])
    assert w.n_iter_ == 0
    np.testing.assert_array_equal(ember.asnumpy(w.coef_), first)


def test_wide_precomputed_gram(device):
    # a Gram matrix given for wide data runs the covariance form
    X, y = _wide(n=40, p=120)
    Xc, yc = X - X.mean(axis=0), y - y.mean()
    G = Xc.T @ Xc
    kw = {"alpha": 0.1, "tol": 1e-10, "max_iter": 100000, "fit_intercept": False}
    ref = sk.Lasso(precompute=G, **kw).fit(Xc, yc)
    Xe, ye = _on(device, Xc, yc)
    m = LM.Lasso(precompute=ember.asarray(G, device=device), **kw).fit(Xe, ye)
    _close_coef(m.coef_, ref.coef_)
    with pytest.raises(ValueError, match=r"shape \(119, 119\).*must be \(120, 120\)"):
        LM.Lasso(precompute=G[1:, 1:], **kw).fit(Xe, ye)


def test_random_order_is_seeded(device):
    X, y = _wide(p=200)
    Xe, ye = _on(device, X, y)
    kw = {"alpha": 0.1, "selection": "random", "tol": 1e-6}
    a = LM.Lasso(random_state=3, **kw).fit(Xe, ye)
    b = LM.Lasso(random_state=3, **kw).fit(Xe, ye)
    c = LM.Lasso(random_state=np.random.RandomState(3), **kw).fit(Xe, ye)
    np.testing.assert_array_equal(ember.asnumpy(a.coef_), ember.asnumpy(b.coef_))
    assert a.n_iter_ == b.n_iter_
    _close_coef(c.coef_, ember.asnumpy(a.coef_), rtol=1e-3)


def test_convergence_warning_names_the_gap(device):
    X, y = _wide(p=300)
    with pytest.warns(ConvergenceWarning, match=r"Duality gap: \d\.\d+e[-+]\d+, "
                                                r"tolerance: \d\.\d+e[-+]\d+"):
        m = LM.Lasso(alpha=1e-3, max_iter=3, tol=1e-12).fit(*_on(device, X, y))
    ref = sk.Lasso(alpha=1e-3, max_iter=3, tol=1e-12)
    with pytest.warns(Warning):
        ref.fit(X, y)
    assert m.n_iter_ == ref.n_iter_ == 3
    assert m.dual_gap_ == pytest.approx(ref.dual_gap_, rel=1e-6)


def test_bad_inputs_as_sklearn(device):
    X, y = _wide(p=100)
    Xe, ye = _on(device, X, y)
    for mod, (a, b) in ((sk, (X, y[:-1])), (LM, (Xe, ye[:-1]))):
        with pytest.raises(ValueError, match=r"inconsistent numbers of samples: \[60, 59\]"):
            mod.Lasso(alpha=0.1).fit(a, b)
    with pytest.raises(ValueError, match="max_iter"):
        LM.Lasso(max_iter=0).fit(Xe, ye)


@pytest.mark.parametrize("p", [200, 800])
def test_one_launch_a_fit(p):
    # the sweeps are one kernel launch whatever p and the sweep count; the
    # few others centre the data and form X^T once
    X, y = _wide(p=p)
    Xe, ye = _on("cpu", X, y)
    with ember.Device("cpu"):
        LM.ElasticNet(alpha=0.05).fit(Xe, ye)
        with ember.profile() as prof:
            m = LM.ElasticNet(alpha=0.05).fit(Xe, ye)
    kernels = [r.name for r in prof.records if r.kind == "kernel"]
    assert m.n_iter_ > 5
    assert sum(name.startswith("em_cd_resid") for name in kernels) == 1
    assert len(kernels) <= 30


@pytest.mark.parametrize("shape", [(40, 120), (90, 30)])
@pytest.mark.parametrize("kw", [{"alpha": 0.1, "l1_ratio": 0.6},
                                {"alpha": 0.05, "positive": True},
                                {"alpha": 0.1, "selection": "random",
                                 "random_state": 5}])
def test_block_threads_on_cpu(monkeypatch, shape, kw):
    # a GPU's block of threads (the warp sums, the shared slots, the
    # barriers), run on cpu by the block simulator: the same fit as one
    # thread, to rounding; with 96 threads some have no entries
    X, y = _wide(*shape, zero_col=2)
    Xe, ye = _on("cpu", X, y)
    fit = {"tol": 1e-10, "max_iter": 100000, **kw}
    with ember.Device("cpu"):
        one = LM.ElasticNet(**fit).fit(Xe, ye)
        for nt in (64, 96):
            monkeypatch.setattr(_cd_kernel, "_threads", lambda dev, length, nt=nt: nt)
            many = LM.ElasticNet(**fit).fit(Xe, ye)
            _close_coef(many.coef_, ember.asnumpy(one.coef_), rtol=1e-7)
            if "selection" not in kw:
                assert many.n_iter_ == one.n_iter_
    ref = sk.ElasticNet(**{k: v for k, v in fit.items() if k != "random_state"}).fit(X, y)
    _close_coef(one.coef_, ref.coef_)


def test_block_shapes():
    # whole warps on a GPU (the kernels' shuffles take full masks), up to
    # what the coordinate's length fills; one thread on cpu
    class Cuda:
        type = "cuda"
    assert _cd_kernel._threads(ember.Device("cpu"), 5000) == 1
    assert [_cd_kernel._threads(Cuda, m) for m in (1, 32, 33, 60, 200, 5000)] == \
        [32, 32, 64, 64, 224, 256]


def test_kernels_compile_for_the_gpu(need_nvrtc):
    src = _cd_kernel.kernel_source("cd_fit.cuh")
    inst = ""
    for c in ("float", "double"):
        inst += (f"template __global__ void em_cd_resid<{c}>(const {c} *, const {c} *, "
                 f"const {c} *, const double *, {c} *, {c} *, int, int, double, double, "
                 "double, int, int, unsigned long long, double *, int *);\n")
        inst += (f"template __global__ void em_cd_gram<{c}>(const {c} *, const {c} *, "
                 f"const double *, {c} *, {c} *, int, double, double, double, int, int, "
                 "unsigned long long, double *, int *);\n")
    ptx = ember.cuda.Program(src + inst).compile("ptx").code
    assert ptx.count(b".entry") == 4
