"""KMeans' Lloyd kernels (python/ember/ml/cluster/_lloyd.py): one step
against NumPy on small-integer data, where every score, sum and tie is
exact in float32 too, for both kernel sets (the cpu's BLAS + host kernel,
and the GPU's labels + sums kernels, which the cpu's block simulator runs
here), on every device; whole fits against the composition and
scikit-learn."""
import pathlib

import numpy as np
import pytest

import ember
from ember.ml.cluster import _lloyd as L  # noqa: E402


def _want(X, C, w):
    """labels (lowest index among equal scores), sums, weights, as the
    kernels define them, in float64 (exact for these integers)."""
    X64, C64 = X.astype(np.float64), C.astype(np.float64)
    sc = (C64 * C64).sum(1)[None, :] - 2 * X64 @ C64.T
    lab = sc.argmin(axis=1)        # NumPy's argmin takes the first minimum
    k = C.shape[0]
    sums = np.zeros((k, X.shape[1]))
    np.add.at(sums, lab, X64 * w[:, None])
    ws = np.bincount(lab, weights=w, minlength=k)
    return lab, sums, ws


def _modes(device, d=1, k=1, dt=np.float32):
    """(gpu, HOST_FUSED_KP): the cpu's kernels (scoring in the kernel, or
    the BLAS chunks) run on cpu only; the GPU's on both, where the labels
    kernel's tile fits the block simulator's 48 KiB on cpu."""
    if device != "cpu":
        return [(True, L.HOST_FUSED_KP)]
    fits = L.labels_smem(d, k, np.dtype(dt).itemsize)[0] <= 48 * 1024
    return [(False, L.HOST_FUSED_KP), (False, 0)] + ([(True, 0)] if fits else [])


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("n,d,k", [(1000, 3, 5), (37, 33, 17), (300, 1, 40),
                                   (5, 2, 20), (513, 8, 1)])
@pytest.mark.parametrize("weighted", [False, True])
def test_step_equals_numpy(device, dt, n, d, k, weighted, monkeypatch):
    # n past and short of a tile (256 rows), d past a warp's 32 lanes, k not
    # a multiple of 16 and k > n (empty clusters keep their centers)
    rng = np.random.default_rng(n + d + k)
    X = rng.integers(0, 6, size=(n, d)).astype(dt)
    X[: n // 3] = X[0]                               # duplicate rows
    C = rng.integers(0, 6, size=(k, d)).astype(dt)
    w = rng.integers(1, 4, size=n).astype(dt) if weighted else np.ones(n, dt)
    lab, sums, ws = _want(X, C, w)
    Xe, Ce = ember.asarray(X, device=device), ember.asarray(C, device=device)
    we = ember.asarray(w, device=device) if weighted else None
    for gpu, kp_max in _modes(device, d, k, dt):
        monkeypatch.setattr(L, "HOST_FUSED_KP", kp_max)
        lp = L.Lloyd(Xe, we, k, gpu=gpu)
        Cn, n_empty, shift, moved = lp.step(Ce, False)
        np.testing.assert_array_equal(ember.asnumpy(lp.labels), lab)
        s, wsum = lp.sums()
        np.testing.assert_array_equal(ember.asnumpy(s), sums.astype(dt))
        np.testing.assert_array_equal(ember.asnumpy(wsum), ws.astype(dt))
        full = ws > 0
        want_c = np.where(full[:, None], sums / np.where(full, ws, 1)[:, None], C)
        np.testing.assert_allclose(ember.asnumpy(Cn), want_c, rtol=1e-6)
        assert n_empty == int((~full).sum())
        assert moved == 1                       # the first step: all moved
        np.testing.assert_allclose(shift, ((want_c.astype(dt) - C) ** 2).sum(),
                                   rtol=1e-5)
        # a second step counts the labels that moved
        lp.swap()
        C2 = np.ascontiguousarray(C[::-1])
        lab2 = _want(X, C2, w)[0]
        _, _, _, moved2 = lp.step(ember.asarray(C2, device=device), True)
        assert moved2 == int((lab2 != lab).sum())
        np.testing.assert_array_equal(ember.asnumpy(lp.labels_only(Ce)), lab)


def test_sums_are_the_same_every_run(device):
    rng = np.random.default_rng(5)
    X = ember.asarray(rng.standard_normal((3000, 6)).astype(np.float32), device=device)
    C = X[:7].copy()
    for gpu, kp_max in _modes(device):
        L.HOST_FUSED_KP, saved = kp_max, L.HOST_FUSED_KP
        try:
            a = [ember.asnumpy(L.Lloyd(X, None, 7, gpu=gpu).step(C, False)[0])
                 for _ in range(2)]
        finally:
            L.HOST_FUSED_KP = saved
        assert a[0].tobytes() == a[1].tobytes()


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("weighted", [False, True])
def test_fit_equals_composition_and_sklearn(device, dt, weighted, monkeypatch):
    sk = pytest.importorskip("sklearn.cluster")
    from ember.ml.cluster import KMeans
    # separated blobs and tol=0 (the fit ends when no label moves), so no
    # near-tie or near-tolerance decides a label or the iteration count
    rng = np.random.default_rng(2)
    cen = rng.uniform(-20, 20, (6, 4))
    X = (cen[rng.integers(0, 6, 1500)] + rng.standard_normal((1500, 4))).astype(dt)
    w = rng.uniform(0.5, 2, 1500).astype(dt) if weighted else None
    init = X[:6].copy()
    want = sk.KMeans(6, init=init, n_init=1, max_iter=50, tol=0).fit(X, sample_weight=w)
    assert want.n_iter_ > 2
    got = {}
    for on in (set(), {"cpu", "cuda"}):
        monkeypatch.setattr(L, "DEVICES", on)
        m = KMeans(6, init=init, n_init=1, max_iter=50, tol=0).fit(
            ember.asarray(X, device=device), sample_weight=w)
        got[bool(on)] = m
        np.testing.assert_array_equal(ember.asnumpy(m.labels_), want.labels_)
        np.testing.assert_allclose(ember.asnumpy(m.cluster_centers_),
                                   want.cluster_centers_, rtol=1e-5, atol=1e-5)
        assert m.n_iter_ == want.n_iter_
        np.testing.assert_allclose(m.inertia_, want.inertia_, rtol=1e-5)
    assert got[True].n_iter_ == got[False].n_iter_


def test_gpu_bound_sends_wide_data_to_the_composition():
    X = ember.zeros((10, 200), dtype=ember.float32, device="cpu")
    assert L.applies(X, X[:3])                  # cpu: any size
    gpu = type("D", (), {"type": "cuda"})()
    fake = type("A", (), {"device": gpu, "dtype": X.dtype, "ndim": 2,
                          "shape": (10, 200)})()
    assert not L.applies(fake, ember.zeros((3, 200)))       # d > 128
    fake.shape = (10, 64)
    assert L.applies(fake, ember.zeros((128, 64)))          # 128 x 64 = 8192
    assert not L.applies(fake, ember.zeros((129, 64)))


def test_kernels_compile_for_the_gpu(need_nvrtc):
    # the GPU's kernels through NVRTC (no GPU needed), each instantiation
    sig = {
        "kmeans_labels.cuh": ("em_kmeans_labels", "const {c} *, const {c} *, long long, "
                              "int, int, int, long long *, const long long *, int, "
                              "unsigned long long *", [f"{L._THREADS}, {L._R}"]),
        "kmeans_sums.cuh": ("em_kmeans_sums", "const {c} *, const long long *, "
                            "const {c} *, int, long long, int, int, long long, {c} *",
                            [str(L._SUM_U)]),
        "kmeans_finish.cuh": [
            ("em_kmeans_reduce", "const {c} *, int, const {c} *, int, int, {c} *, {c} *, "
             "{c} *", [str(L._GS)]),
            ("em_kmeans_figs", "const {c} *, int, const {c} *, int, int, double *, "
             "unsigned long long *, int", [str(L._FINISH_THREADS)])],
    }
    for file, kernels in sig.items():
        if isinstance(kernels, tuple):
            kernels = [kernels]
        src = (pathlib.Path(L._DIR) / file).read_text()
        inst = "".join(f"template __global__ void {fn}<{c}, {t}>({args.format(c=c)});\n"
                       for fn, args, tails in kernels
                       for c in ("float", "double") for t in tails)
        ptx = ember.cuda.Program(src + inst).compile("ptx").code
        assert ptx.count(b".entry") == 2 * sum(len(t) for _, _, t in kernels)
