"""ember.random's later names against NumPy: PCG64DXSM's words and
uniforms and every bit generator's jumped() bit for bit, spawn as
NumPy's; hypergeometric, vonmises, multivariate_hypergeometric and
permuted (ember's own methods) by exact distributions (SciPy's pmf and
cdf: chi-square and Kolmogorov-Smirnov tests with fixed seeds) and
moments; NumPy's errors; the same draws on cpu and the device."""
import math
import os
import subprocess
import sys

import numpy as np
import pytest
from scipy import stats

import ember
import ember.random as er
from conftest import HAVE_NVRTC
from test_random import KERNELS, WRAP, ks_ok

SEEDS = [0, 7, 2 ** 70 + 3]


def host(a):
    return ember.asnumpy(a)


def same_state(a, b):
    assert str(a.state) == str(b.state)


# ---- PCG64DXSM: NumPy's words, bit for bit ------------------------------
@pytest.mark.parametrize("seed", SEEDS)
def test_pcg64dxsm_raw_words_and_uniforms_are_numpys(device, seed):
    with ember.Device(device):
        g = er.Generator(er.PCG64DXSM(seed))
        r = np.random.Generator(np.random.PCG64DXSM(seed))
        # sizes past a host thread's run (16384) and odd float32 counts,
        # which leave NumPy's buffered half
        for n, dt in ((5, np.float64), (777, np.float32), (3, np.float32),
                      (40001, np.float64), (1, np.float32),
                      (70001, np.float32)):
            np.testing.assert_array_equal(host(g.random(n, dtype=dt)),
                                          r.random(n, dtype=dt))
            same_state(g.bit_generator, r.bit_generator)
        np.testing.assert_array_equal(
            host(g.bit_generator.random_raw(50000)),
            r.bit_generator.random_raw(50000))
        np.testing.assert_array_equal(host(g.uniform(-2.0, 3.0, 999)),
                                      r.uniform(-2.0, 3.0, 999))
        assert g.bytes(13) == r.bytes(13)
        same_state(g.bit_generator, r.bit_generator)
        assert repr(g) == "Generator(PCG64DXSM)"


def test_pcg64dxsm_state_from_numpy_and_advance(device):
    r = np.random.PCG64DXSM(11)
    r.random_raw(3)
    np.random.Generator(r).random(1, dtype=np.float32)  # a buffered half
    with ember.Device(device):
        b = er.PCG64DXSM(0)
        b.state = r.state
        g, rg = er.Generator(b), np.random.Generator(r)
        np.testing.assert_array_equal(host(g.random(9, dtype=np.float32)),
                                      rg.random(9, dtype=np.float32))
        b.advance(2 ** 100 + 5)
        r.advance(2 ** 100 + 5)
        same_state(b, r)
        np.testing.assert_array_equal(host(b.random_raw(7)),
                                      r.random_raw(7))
        with pytest.raises(ValueError, match="PCG64DXSM"):
            b.state = np.random.PCG64(1).state


# ---- jumped, spawn, seed_seq ---------------------------------------------
@pytest.mark.parametrize("name", ["PCG64", "PCG64DXSM", "Philox"])
@pytest.mark.parametrize("jumps", [1, 3, 2 ** 65 + 1])
def test_jumped_is_numpys(device, name, jumps):
    with ember.Device(device):
        e, n = getattr(er, name)(123), getattr(np.random, name)(123)
        # part-way through a Philox block, with a buffered half
        e.random_raw(5)
        n.random_raw(5)
        er.Generator(e).random(1, dtype=np.float32)
        np.random.Generator(n).random(1, dtype=np.float32)
        je, jn = e.jumped(jumps), n.jumped(jumps)
        assert type(je) is type(e)
        same_state(je, jn)
        same_state(e, n)  # the original is left where it was
        np.testing.assert_array_equal(host(je.random_raw(1000)),
                                      jn.random_raw(1000))
        np.testing.assert_array_equal(
            host(er.Generator(je).random(33, dtype=np.float32)),
            np.random.Generator(jn).random(33, dtype=np.float32))
    with pytest.raises(ValueError):
        e.jumped(-1)


@pytest.mark.parametrize("name", ["PCG64", "PCG64DXSM", "Philox"])
def test_spawn_and_seed_seq_are_numpys(device, name):
    with ember.Device(device):
        e, n = getattr(er, name)(99), getattr(np.random, name)(99)
        assert str(e.seed_seq) == str(n.seed_seq)
        for ce, cn in zip(e.spawn(3), n.spawn(3)):
            assert type(ce) is type(e)
            same_state(ce, cn)
            assert str(ce.seed_seq) == str(cn.seed_seq)
        # a second spawn continues NumPy's child numbering
        (ce,), (cn,) = e.spawn(1), n.spawn(1)
        same_state(ce, cn)
        g, r = er.Generator(getattr(er, name)(5)), \
            np.random.Generator(getattr(np.random, name)(5))
        ge, rn = g.spawn(2), r.spawn(2)
        assert all(isinstance(x, er.Generator) for x in ge)
        for a, b in zip(ge, rn):
            np.testing.assert_array_equal(host(a.random(100)), b.random(100))
        d = er.default_rng(5).spawn(1)[0]
        np.testing.assert_array_equal(
            host(d.random(10)),
            np.random.default_rng(5).spawn(1)[0].random(10))
    with pytest.raises(AttributeError):
        e.seed_seq = None
    # a Philox keyed by hand has no SeedSequence to spawn from
    with pytest.raises(TypeError, match="does not implement spawning"):
        er.Philox(key=7).spawn(1)
    with pytest.raises(TypeError, match="does not implement spawning"):
        er.Generator(er.Philox(key=7)).spawn(1)


# ---- vonmises ----------------------------------------------------------
VM = [(0.0, 0.5), (0.0, 4.0), (1.0, 2.0), (-2.5, 30.0), (3.0, 1e-6),
      (0.5, 1e-9), (2.0, 1e7), (0.0, 3e5)]


@pytest.mark.parametrize("mu,kappa", VM)
def test_vonmises_distribution(device, mu, kappa):
    n = 20000
    with ember.Device(device):
        x = host(er.default_rng(3).vonmises(mu, kappa, size=n))
    assert x.dtype == np.float64 and x.shape == (n,)
    assert np.all(np.abs(x) <= np.pi)
    # the angle from mu, on [-pi, pi): von Mises(0, kappa) (the uniform
    # below 1e-8 whatever mu)
    d = np.mod(x - mu + np.pi, 2 * np.pi) - np.pi
    if kappa > 1e5:
        # nearly normal, of variance 1/kappa
        p = stats.kstest(d * math.sqrt(kappa), "norm").pvalue
    else:
        p = stats.kstest(d, stats.vonmises(kappa).cdf).pvalue
    assert p > 1e-3, (mu, kappa, p)
    # the mean resultant length, I1(kappa) / I0(kappa)
    from scipy.special import i0e, i1e
    want = i1e(kappa) / i0e(kappa)
    got = np.mean(np.cos(d))
    assert abs(got - want) < 5 * math.sqrt(0.5 / n) + 1e-12
    # against NumPy's draws too (two-sample)
    ref = np.random.default_rng(4).vonmises(mu, kappa, size=n)
    dr = np.mod(ref - mu + np.pi, 2 * np.pi) - np.pi
    assert ks_ok(d, dr)


def test_vonmises_arrays_broadcast_and_nan(device):
    with ember.Device(device):
        g = er.default_rng(8)
        x = host(g.vonmises(ember.asarray([0.0, 2.0]), [[0.5], [8.0]],
                            size=(3000, 2, 2)))
        assert x.shape == (3000, 2, 2)
        for i, k in enumerate((0.5, 8.0)):
            for j, m in enumerate((0.0, 2.0)):
                d = np.mod(x[:, i, j] - m + np.pi, 2 * np.pi) - np.pi
                assert stats.kstest(d, stats.vonmises(k).cdf).pvalue > 1e-3
        assert g.vonmises([0.0, 1.0], 1.0).shape == (2,)
        assert g.vonmises(0.0, 1.0).shape == ()
        v = host(g.vonmises([np.nan, 0.0], [1.0, np.nan]))
        assert np.isnan(v).all()
        with pytest.raises(ValueError, match="shape mismatch"):
            g.vonmises([0.0, 1.0], 1.0, size=(3, 3))


# ---- hypergeometric --------------------------------------------------------
HG = [(20, 30, 5), (20, 30, 25), (50, 5, 40), (500, 1500, 900),
      (1, 10 ** 6, 5000), (7, 3, 9), (10 ** 8, 3 * 10 ** 8, 10 ** 6),
      (999_999_999, 999_999_999, 3), (40, 60, 95), (3, 4, 0), (0, 9, 4),
      (9, 0, 4), (6, 6, 12)]


def chi2_ok(x, pmf_at, lo, hi):
    """Pearson's chi-square of the draws x against a pmf on [lo, hi],
    cells pooled to at least 20 expected draws, passes at alpha 1e-3."""
    n = x.size
    ks = np.arange(lo, hi + 1)
    exp = pmf_at(ks) * n
    obs = np.bincount(x - lo, minlength=ks.size)[:ks.size].astype(float)
    assert obs.sum() == n
    cells_o, cells_e, o, e = [], [], 0.0, 0.0
    for a, b in zip(obs, exp):
        o, e = o + a, e + b
        if e >= 20:
            cells_o.append(o)
            cells_e.append(e)
            o = e = 0.0
    if cells_e:
        cells_o[-1] += o
        cells_e[-1] += e
    if len(cells_e) < 2:
        return True
    cells_e = np.array(cells_e) * (n / np.sum(cells_e))
    p = stats.chisquare(cells_o, cells_e).pvalue
    return p > 1e-3


def test_the_checks_refuse_a_close_but_wrong_distribution():
    r = np.random.default_rng(0)
    x = r.hypergeometric(20, 30, 25, size=20000)
    assert chi2_ok(x, stats.hypergeom(50, 20, 25).pmf, 0, 20)
    assert not chi2_ok(x, stats.hypergeom(50, 21, 25).pmf, 0, 20)
    d = r.vonmises(0.0, 2.0, size=20000)
    assert stats.kstest(d, stats.vonmises(2.0).cdf).pvalue > 1e-3
    assert stats.kstest(d, stats.vonmises(2.3).cdf).pvalue < 1e-3


# (SciPy's hypergeom moments divide by zero computing the kurtosis of
# the degenerate cases)
@pytest.mark.filterwarnings("ignore:divide by zero:RuntimeWarning")
@pytest.mark.parametrize("ngood,nbad,nsample", HG)
def test_hypergeometric_distribution(device, ngood, nbad, nsample):
    n = 20000
    with ember.Device(device):
        x = host(er.default_rng(6).hypergeometric(ngood, nbad, nsample,
                                                   size=n))
    assert x.dtype == np.int64 and x.shape == (n,)
    lo, hi = max(0, nsample - nbad), min(nsample, ngood)
    assert x.min() >= lo and x.max() <= hi
    rv = stats.hypergeom(ngood + nbad, ngood, nsample)
    mean, var = rv.mean(), rv.var()
    assert abs(x.mean() - mean) <= 5 * math.sqrt(var / n) + 1e-12
    if var > 0:
        assert abs(x.var() / var - 1) < 0.06
    # the exact pmf over the draws' range and the cells around it
    span_lo = max(lo, int(mean - 12 * math.sqrt(var)) - 1)
    span_hi = min(hi, int(mean + 12 * math.sqrt(var)) + 1)
    assert x.min() >= span_lo and x.max() <= span_hi
    assert chi2_ok(x, rv.pmf, span_lo, span_hi), (ngood, nbad, nsample)


def test_hypergeometric_arrays_broadcast(device):
    with ember.Device(device):
        g = er.default_rng(12)
        ngood = ember.asarray([10, 300])
        x = host(g.hypergeometric(ngood, [20, 5], [[5], [25]],
                                  size=(4000, 2, 2)))
        assert x.shape == (4000, 2, 2) and x.dtype == np.int64
        for i, ns in enumerate((5, 25)):
            for j, (gd, bd) in enumerate(((10, 20), (300, 5))):
                rv = stats.hypergeom(gd + bd, gd, ns)
                c = x[:, i, j]
                lo, hi = max(0, ns - bd), min(ns, gd)
                assert chi2_ok(c, rv.pmf, lo, hi), (gd, bd, ns)
        # NumPy's shapes
        r = np.random.default_rng(0)
        for args in (([1, 2], [3, 4], [[1], [2]]), (5, [3, 4, 5], 2),
                     (5, 5, [1, 2, 3])):
            assert g.hypergeometric(*args).shape == \
                r.hypergeometric(*args).shape
        assert g.hypergeometric(5, 5, 3).shape == ()
        # a float ngood is truncated, as NumPy's
        assert host(g.hypergeometric(5.5, 0, 4)) == 4


# ---- multivariate_hypergeometric --------------------------------------------
@pytest.mark.parametrize("method", ["marginals", "count"])
def test_multivariate_hypergeometric(device, method):
    colors = np.array([16, 8, 0, 25, 3])
    m, ns = 6000, 20
    with ember.Device(device):
        g = er.default_rng(21)
        x = host(g.multivariate_hypergeometric(colors, ns, size=(m // 2, 2),
                                               method=method))
        assert x.shape == (m // 2, 2, 5) and x.dtype == np.int64
        x = x.reshape(m, 5)
        assert np.all(x.sum(axis=1) == ns)
        assert np.all((x >= 0) & (x <= colors))
        total = colors.sum()
        # each color's count is hypergeometric on its own
        for j, c in enumerate(colors):
            rv = stats.hypergeom(total, c, ns)
            assert chi2_ok(x[:, j], rv.pmf, 0, min(c, ns)), (method, j)
        # the covariance of two colors: -n (N-n)/(N-1) p_i p_j
        p = colors / total
        cov = -ns * (total - ns) / (total - 1) * p[0] * p[1]
        got = np.cov(x[:, 0], x[:, 1])[0, 1]
        assert abs(got - cov) < 0.15 * abs(cov) + 0.05
        one = host(g.multivariate_hypergeometric([3, 4], 7, method=method))
        np.testing.assert_array_equal(one, [3, 4])
        assert host(g.multivariate_hypergeometric([], 0, method=method)
                    ).shape == (0,)
        assert host(g.multivariate_hypergeometric([5, 6], 0, size=3,
                                                  method=method)).sum() == 0


# ---- permuted ---------------------------------------------------------------
def test_permuted(device):
    with ember.Device(device):
        g = er.default_rng(31)
        a = np.arange(60).reshape(3, 4, 5)
        x = ember.asarray(a)
        for ax in (0, 1, 2, -1):
            y = host(g.permuted(x, axis=ax))
            np.testing.assert_array_equal(np.sort(y, axis=ax), a)
            assert not np.array_equal(y, a)
        y = host(g.permuted(x))
        assert y.shape == a.shape and not np.array_equal(y, a)
        np.testing.assert_array_equal(np.sort(y.ravel()), a.ravel())
        # rows are shuffled independently
        y = host(g.permuted(ember.asarray(np.tile(np.arange(10), (50, 1))),
                            axis=1))
        assert len({tuple(r) for r in y}) > 40
        out = ember.empty((3, 4, 5), dtype=np.float64)
        r = g.permuted(x, axis=1, out=out)
        assert r is out
        np.testing.assert_array_equal(np.sort(host(out), axis=1), a)
        z = ember.asarray(a.copy())
        g.permuted(z, axis=2, out=z)  # in place
        np.testing.assert_array_equal(np.sort(host(z), axis=2), a)
        assert host(g.permuted([3, 1, 2])).tolist() != []
        # uniform: every position of a 4-element row equally likely
        rows = host(g.permuted(ember.asarray(np.tile(np.arange(4),
                                                     (8000, 1))), axis=1))
        counts = np.array([np.bincount(rows[:, i], minlength=4)
                           for i in range(4)])
        assert stats.chisquare(counts.ravel()).pvalue > 1e-3
        with pytest.raises(ValueError, match="same shape as x"):
            g.permuted(x, out=ember.empty((5, 4, 3)))
        with pytest.raises(TypeError, match="safe"):
            g.permuted(x, out=ember.empty((3, 4, 5), dtype=np.int32))
        with pytest.raises(np.exceptions.AxisError):
            g.permuted(x, axis=3)


# ---- the same draws on cpu and the device --------------------------------
def test_new_draws_do_not_depend_on_the_device(device):
    """The same seed gives the same draws on cpu and this device (on the
    GPU host, the cuda case compares the two backends)."""
    out = {}
    for d in ("cpu", device):
        with ember.Device(d):
            g = er.default_rng(5)
            x = ember.asarray(np.arange(40).reshape(5, 8))
            out[d] = [host(g.vonmises(0.5, 2.0, 999)),
                      host(g.vonmises([0.0, 1.0], [1e-6, 2e7], (50, 2))),
                      host(g.hypergeometric(30, 50, 7, 999)),
                      host(g.hypergeometric([500, 5], 700, [[300], [40]])),
                      host(g.multivariate_hypergeometric([4, 9, 30], 20, 77)),
                      host(g.multivariate_hypergeometric([4, 9, 3], 9, 7,
                                                         method="count")),
                      host(g.permuted(x, axis=1)), host(g.permuted(x)),
                      host(er.Generator(er.PCG64DXSM(3)).standard_normal(99))]
    for a, b in zip(out["cpu"], out[device]):
        np.testing.assert_array_equal(a, b)


# ---- NumPy's errors ------------------------------------------------------
ERRORS = [
    ("hypergeometric", (-1, 2, 1)), ("hypergeometric", (1, -1, 1)),
    ("hypergeometric", (1, -1, 0)), ("hypergeometric", (1, 2, -1)),
    ("hypergeometric", (1, 2, 4)), ("hypergeometric", (10 ** 9, 1, 1)),
    ("hypergeometric", (1, 10 ** 9, 1)),
    ("hypergeometric", ([1, -2], 3, 1)),
    ("hypergeometric", ([1, 2], [3, 4], [[1], [9]])),
    ("vonmises", (0.0, -1.0)), ("vonmises", (0.0, -0.0)),
    ("vonmises", (0.0, [1.0, -2.0])),
    ("multivariate_hypergeometric", ([1, 2], -1)),
    ("multivariate_hypergeometric", ([1, -2], 1)),
    ("multivariate_hypergeometric", ([[1, 2]], 1)),
    ("multivariate_hypergeometric", ([1.5, 2], 1)),
    ("multivariate_hypergeometric", ([1, 2], 4)),
    ("multivariate_hypergeometric", ([1, 2], 1.5)),
    ("multivariate_hypergeometric", ([10 ** 9, 3], 2)),
]


@pytest.mark.parametrize("i", range(len(ERRORS)))
def test_errors_are_numpys(device, i):
    name, args = ERRORS[i]
    with pytest.raises(Exception) as ref:
        getattr(np.random.default_rng(0), name)(*args)
    with ember.Device(device):
        with pytest.raises(type(ref.value)) as got:
            getattr(er.default_rng(0), name)(*args)
    assert str(got.value) == str(ref.value)


def test_multivariate_hypergeometric_method_error():
    with pytest.raises(ValueError, match='"count" or "marginals"'):
        er.default_rng(0).multivariate_hypergeometric([1, 2], 1, method="x")


LEGACY_ERRORS = [
    ("hypergeometric", (-1, 2, 1)), ("hypergeometric", (1, -1, 0)),
    ("hypergeometric", (1, 2, 0)), ("hypergeometric", (1, 2, 4)),
    ("vonmises", (0.0, -1.0)),
]


@pytest.mark.parametrize("i", range(len(LEGACY_ERRORS)))
def test_legacy_errors_are_numpys(device, i):
    name, args = LEGACY_ERRORS[i]
    with pytest.raises(Exception) as ref:
        getattr(np.random.RandomState(0), name)(*args)
    with ember.Device(device):
        with pytest.raises(type(ref.value)) as got:
            getattr(er.RandomState(0), name)(*args)
    assert str(got.value) == str(ref.value)


def test_legacy_hypergeometric_and_vonmises(device):
    with ember.Device(device):
        er.seed(4)
        x = host(er.hypergeometric(20, 30, 25, size=20000))
        assert x.dtype == np.int64
        assert chi2_ok(x, stats.hypergeom(50, 20, 25).pmf, 0, 20)
        v = er.vonmises(0.0, 3.0, size=5000, dtype=np.float32)
        assert v.dtype == np.float32
        assert stats.kstest(host(v).astype(float),
                            stats.vonmises(3.0).cdf).pvalue > 1e-3
        rs = er.RandomState(1)
        assert rs.hypergeometric(5, 5, 3, size=4, dtype=np.int32).dtype == \
            np.int32
        a, b = er.RandomState(9), er.RandomState(9)
        np.testing.assert_array_equal(host(a.vonmises(1.0, 2.0, 50)),
                                      host(b.vonmises(1.0, 2.0, 50)))


# ---- the cuda kernels, on this machine -------------------------------------
CUDA_TWIN = """
import numpy as np, ember.random as er
g = er.default_rng(5)
g.vonmises(0.5, 2.0, 8); g.hypergeometric(30, 50, 7, 8)
g.hypergeometric(300, 500, 70, 8)
d = er.Generator(er.PCG64DXSM(1))
d.bit_generator.random_raw(8); d.random(8); d.random(8, dtype=np.float32)
d.standard_normal(8); d.standard_normal(8, dtype=np.float32)
d.lognormal(size=8)
print("ok")
"""


@pytest.mark.skipif(not HAVE_NVRTC, reason="NVRTC not found")
def test_cuda_kernels_compile_with_nvrtc():
    """The new kernels' cuda variants (vonmises, the keyed family with
    hypergeometric, PCG64DXSM's word draws) compile with NVRTC."""
    env = dict(os.environ, EMBER_CKERNEL_CHECK_CUDA="1", EMBER_DEVICE="cpu")
    r = subprocess.run([sys.executable, "-c", CUDA_TWIN], env=env,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr[-3000:]


@pytest.mark.parametrize("dist,ctype,vec,vw,npdt,gen", [
    (0, "unsigned long long", "ulonglong2", 2, np.uint64, 2),
    (2, "double", "double2", 2, np.float64, 2),
    (3, "float", "float4", 4, np.float32, 2),
    (4, "float", "float4", 4, np.float32, 2),
    (23, "double", "double2", 2, np.float64, 0),
    (22, "long long", "longlong2", 2, np.int64, 0),
])
def test_cuda_schedule_draws_what_the_host_draws(dist, ctype, vec, vw, npdt,
                                                 gen):
    """The cuda schedule (runs of 64 bytes a thread, grid-stride, a
    PCG64DXSM thread reaching its next run by the stride's LCG power)
    run on the host as a RawKernel draws what the host's fill draws."""
    from ember import _ember
    from ember.random._streams import DXSM_MULT, M64, pcg_power
    kd = 20 if dist == 22 else dist
    body = "".join((KERNELS / f).read_text() for f in
                   ("random_bits.cuh", "random_math.cuh",
                    "random_ziggurat.cuh", "random_fill.cuh"))
    src = (f"#define RND_CUDA 1\n#define RND_DIST {kd}\n#define RND_T {ctype}\n"
           f"#define RND_GEN {gen}\n#define RND_F32 {int(ctype == 'float')}\n"
           f"#define RND_VEC {vec}\n#define RND_VW {vw}\n"
           "#define RND_LANE_R 4\n") + body + WRAP
    with ember.Device("cpu"):
        k = ember.RawKernel(src, "rnd_fill_t")
        for primed in (False, True):
            bg = er.PCG64DXSM(17)
            if primed:
                er.Generator(bg).random(1, dtype=np.float32)
            words, half = bg._words(), (bg._half if bg._has32 else None)
            if gen == 0:  # keyed: the key only
                words = (0, 0, 0, 0, 12345, 678)
            a, b, c0 = (0.7, 3.0, 0) if dist != 22 else \
                (0.0, 60.0, (40 << 32) | 90)
            n = 1001
            want = ember.empty(n, dtype=npdt)
            _ember._random_fill(want, 2 if gen else 1, words, (), half, dist,
                                a, b, c0, 0)
            per = 64 // np.dtype(npdt).itemsize
            halves = dist in (1, 3) or (dist == 4 and npdt == np.float32)
            for blocks, threads in ((3, 4), (2, 64)):
                got = ember.zeros(n, dtype=npdt)
                jm, ja = pcg_power(bg._inc, blocks * threads *
                                   (per // 2 if halves else per), DXSM_MULT)
                jw = [jm >> 64, jm & M64, ja >> 64, ja & M64]
                k((blocks,), (threads,),
                  (got, np.int64(n), np.int64(per),
                   *[np.uint64(x) for x in words], np.int32(0),
                   *[np.uint64(0)] * 3, np.int32(half is not None),
                   np.uint32(half or 0), np.float64(a), np.float64(b),
                   np.uint64(c0), np.uint64(0), np.int32(1),
                   *[np.uint64(x) for x in jw], np.int32(dist)),
                  shared_mem=threads * 80)
                np.testing.assert_array_equal(
                    host(got), host(want),
                    err_msg=f"{dist} {threads} threads primed {primed}")
