"""ember.random against NumPy: the promised draws bit for bit (raw words,
random float64/float32, uniform, bytes, and the state afterwards), the
others by moments and a two-sample Kolmogorov-Smirnov test against
NumPy's draws (fixed seeds: deterministic, yet a wrong distribution
fails), and NumPy's errors."""
import math
import os
import pathlib
import re
import statistics
import subprocess
import sys

import numpy as np
import pytest

import ember
import ember.random as er
from conftest import HAVE_NVRTC

GENS = {
    "pcg64": (lambda s: er.default_rng(s), lambda s: np.random.default_rng(s)),
    "philox": (lambda s: er.Generator(er.Philox(s)),
               lambda s: np.random.Generator(np.random.Philox(s))),
}


def host(a):
    return ember.asnumpy(a)


def same_state(g, r):
    a, b = g.bit_generator.state, r.bit_generator.state
    assert str(a) == str(b)


def same_random_steps(g, r, steps):
    """g.random and NumPy's r.random agree over (count, dtype) steps, and
    leave the same state."""
    for n, dt in steps:
        got = host(g.random(n, dtype=dt))
        assert got.dtype == np.dtype(dt)
        np.testing.assert_array_equal(got, r.random(n, dtype=dt))
    same_state(g, r)


@pytest.mark.parametrize("kind", sorted(GENS))
@pytest.mark.parametrize("seed", [0, 1, 2 ** 40 + 3])
def test_raw_words_are_numpys(device, kind, seed):
    mk, nmk = GENS[kind]
    with ember.Device(device):
        g, r = mk(seed), nmk(seed)
        for n in (0, 1, 3, 4, 5, 17):
            a = g.bit_generator.random_raw(n)
            assert a.device == ember.Device(device)
            np.testing.assert_array_equal(host(a),
                                          r.bit_generator.random_raw(n))
        same_state(g, r)


@pytest.mark.parametrize("kind", sorted(GENS))
@pytest.mark.parametrize("seed", [0, 7, 123456789])
def test_successive_random_float32_float64_are_numpys(device, kind, seed):
    """Odd float32 counts leave NumPy's buffered half; float64 draws in
    between must not touch it; the state afterwards is NumPy's."""
    mk, nmk = GENS[kind]
    steps = [(3, "f4"), (5, "f8"), (1, "f4"), (0, "f4"), (2, "f8"), (9, "f4"),
             (4, "f4"), (1001, "f4"), (6, "f8"), (1, "f4"), (1, "f4")]
    with ember.Device(device):
        same_random_steps(mk(seed), nmk(seed), steps)


@pytest.mark.parametrize("kind", sorted(GENS))
def test_large_draws_are_numpys(device, kind):
    mk, nmk = GENS[kind]
    with ember.Device(device):
        same_random_steps(mk(2024), nmk(2024), [(10 ** 6, "f4"),
                                                (10 ** 6 + 1, "f8")])


@pytest.mark.parametrize("kind", sorted(GENS))
def test_uniform_and_bytes_are_numpys(device, kind):
    mk, nmk = GENS[kind]
    with ember.Device(device):
        g, r = mk(99), nmk(99)
        np.testing.assert_array_equal(host(g.uniform(-2.5, 7.25, 1001)),
                                      r.uniform(-2.5, 7.25, 1001))
        np.testing.assert_array_equal(host(g.uniform(size=(3, 5))),
                                      r.uniform(size=(3, 5)))
        g.random(1, dtype=np.float32)
        r.random(1, dtype=np.float32)
        for n in (0, 1, 5, 8, 13):
            assert g.bytes(n) == r.bytes(n)
        lo, hi = np.array([0.0, 1.0, -3.0]), np.array([[1.0], [2.0]])
        np.testing.assert_array_equal(host(g.uniform(ember.asarray(lo), hi)),
                                      r.uniform(lo, hi))
        same_state(g, r)


def test_state_set_from_numpy_midstream(device):
    """A Philox state with a part-used block and a buffered half, set from
    NumPy's state dict, continues as NumPy's does."""
    with ember.Device(device):
        r = np.random.Generator(np.random.Philox(5))
        r.random(3, dtype=np.float32)
        r.bit_generator.random_raw(2)
        g = er.Generator(er.Philox(0))
        g.bit_generator.state = r.bit_generator.state
        np.testing.assert_array_equal(host(g.random(11, dtype=np.float32)),
                                      r.random(11, dtype=np.float32))
        np.testing.assert_array_equal(host(g.random(6)), r.random(6))
        same_state(g, r)
        p = np.random.default_rng(3)
        p.random(1, dtype=np.float32)
        q = er.default_rng(4)
        q.bit_generator.state = p.bit_generator.state
        np.testing.assert_array_equal(host(q.random(7, dtype=np.float32)),
                                      p.random(7, dtype=np.float32))


def test_out_fills_in_place_and_checks_as_numpy(device):
    with ember.Device(device):
        g, r = er.default_rng(11), np.random.default_rng(11)
        out = ember.empty((4, 5), dtype=np.float32)
        assert g.random(out=out, dtype=np.float32) is out
        np.testing.assert_array_equal(host(out), r.random((4, 5), np.float32))
        out64 = ember.empty(7)
        assert g.random(7, out=out64) is out64
        np.testing.assert_array_equal(host(out64), r.random(7))
        z = ember.empty(6)
        assert g.standard_normal(out=z) is z
        with pytest.raises(TypeError):
            g.random(out=ember.empty(3, dtype=np.float32))
        with pytest.raises(ValueError):
            g.random(4, out=ember.empty(3))
        with pytest.raises(ValueError):
            g.random(out=ember.empty((3, 3))[:, 0])


def test_shapes_and_dtypes(device):
    with ember.Device(device):
        g = er.default_rng(1)
        assert g.random().shape == ()
        assert g.random((2, 3)).shape == (2, 3)
        assert g.standard_normal(4, dtype=np.float32).dtype == np.float32
        assert g.integers(0, 5, (2, 2)).dtype == np.int64
        for dt in (np.int8, np.uint16, np.int32, np.uint64, np.bool_):
            assert g.integers(0, 2, 3, dtype=dt).dtype == np.dtype(dt)
        assert g.poisson(2.0, 3).dtype == np.int64
        assert g.choice(5, (2, 3)).shape == (2, 3)
        assert g.normal(np.zeros(3), 1.0).shape == (3,)
        assert g.multivariate_normal([0, 0, 0], np.eye(3), (4, 2)).shape == \
            (4, 2, 3)
        assert er.rand(2, 3).shape == (2, 3) and er.rand().shape == ()
        assert er.randn(4).dtype == np.float64


def ks_stat(a, b):
    """Two-sample Kolmogorov-Smirnov D."""
    a, b = np.sort(a), np.sort(b)
    x = np.concatenate([a, b])
    fa = np.searchsorted(a, x, side="right") / a.size
    fb = np.searchsorted(b, x, side="right") / b.size
    return np.max(np.abs(fa - fb))


def ks_ok(a, b, c=1.95):  # alpha = 0.001
    n, m = len(a), len(b)
    return ks_stat(a, b) < c * math.sqrt((n + m) / (n * m))


N = 20000
DISTS = [
    ("standard_normal", (), {}),
    ("normal", (3.0, 2.5), {}),
    ("exponential", (2.0,), {}),
    ("gamma", (0.5, 2.0), {}),
    ("gamma", (3.0,), {}),
    ("gamma", (40.0, 0.5), {}),
    ("beta", (2.0, 5.0), {}),
    ("beta", (0.5, 0.5), {}),
    ("poisson", (3.5,), {}),
    ("poisson", (80.0,), {}),
    ("binomial", (20, 0.3), {}),
    ("binomial", (2000, 0.7), {}),
    ("binomial", (10 ** 9, 3e-9), {}),
    ("integers", (-7, 13), {}),
    ("uniform", (1.0, 4.0), {}),
]


@pytest.mark.parametrize("name,args,kw", DISTS,
                         ids=[f"{d[0]}{d[1]}" for d in DISTS])
def test_distribution_matches_numpys(device, name, args, kw):
    with ember.Device(device):
        got = host(getattr(er.default_rng(42), name)(*args, size=N, **kw))
    ref = getattr(np.random.default_rng(43), name)(*args, size=N, **kw)
    assert got.dtype == ref.dtype
    assert ks_ok(got, ref), (name, args, ks_stat(got, ref))
    sd = max(ref.std(), 1e-12)
    assert abs(got.mean() - ref.mean()) < 5 * sd * math.sqrt(2 / N)
    assert abs(got.std() / sd - 1) < 0.05


ARRAY_DISTS = [
    ("gamma", ([0.5, 4.0], [1.0, 3.0])),
    ("beta", ([0.5, 3.0], [2.0, 0.7])),
    ("poisson", ([2.0, 300.0],)),
    ("binomial", ([15, 5000], [0.9, 0.02])),
    ("integers", ([-5, 1000], [5, 1003])),
]


@pytest.mark.parametrize("name,args", ARRAY_DISTS,
                         ids=[d[0] for d in ARRAY_DISTS])
def test_array_parameters_broadcast_per_element(device, name, args):
    """Array-valued parameters: each column has its own parameters."""
    n = 8000
    with ember.Device(device):
        eargs = [ember.asarray(args[0])] + list(args[1:])
        got = host(getattr(er.default_rng(1), name)(*eargs, size=(n, 2)))
    ref = getattr(np.random.default_rng(2), name)(*args, size=(n, 2))
    assert got.shape == ref.shape and got.dtype == ref.dtype
    for c in range(2):
        assert ks_ok(got[:, c], ref[:, c]), (name, c, ks_stat(got[:, c], ref[:, c]))


def test_a_wrong_distribution_fails_the_check():
    """The check above rejects a close-but-wrong distribution."""
    r = np.random.default_rng(0)
    assert not ks_ok(r.gamma(3.0, size=N), r.gamma(3.3, size=N))
    assert not ks_ok(r.poisson(3.5, size=N), r.poisson(3.7, size=N))


def test_standard_normal_float32_and_exponential_float32(device):
    with ember.Device(device):
        g = er.default_rng(8)
        z = host(g.standard_normal(N, dtype=np.float32))
        e = host(g.standard_exponential(N, dtype=np.float32))
    r = np.random.default_rng(9)
    assert z.dtype == e.dtype == np.float32
    assert ks_ok(z, r.standard_normal(N)) and ks_ok(e, r.standard_exponential(N))


def test_normals_are_the_normal_quantile_of_the_stream(device):
    """ember's normal is AS241 of the word's uniform (0, 1): compare with
    Python's own quantile over libm's log, to a few ulps; float32 normals
    are ziggurat draws, one from each 32-bit half of a word, and float32
    exponentials -log of the word's top 24 bits."""
    with ember.Device(device):
        g = er.default_rng(21)
        z = host(g.standard_normal(3000))
        z32 = host(g.standard_normal(3000, dtype=np.float32))
        e32 = host(g.standard_exponential(3000, dtype=np.float32))
    raw = np.random.default_rng(21).bit_generator.random_raw(9000)
    u = ((raw[:3000] >> np.uint64(11)).astype(np.float64) + 0.5) * 2.0 ** -53
    nd = statistics.NormalDist()
    ref = np.array([nd.inv_cdf(x) for x in u])
    np.testing.assert_allclose(z, ref, rtol=4e-15, atol=1e-300)
    # each 32-bit half a ziggurat draw: about 99% taken at once, as
    # sign * abscissa * w[layer] in float32, which the tables give here
    halves = raw[3000:4500].view(np.uint32)  # low half first
    tab = (KERNELS / "random_ziggurat.cuh").read_text()

    def table(name, dt):
        body = re.search(name + r"\[256\] = \{([^}]*)\}", tab).group(1)
        return np.array([float(v.strip().rstrip("uf")) for v in
                         body.split(",")], dt)
    zk, zw = table("rnd_zk", np.uint64), table("rnd_zw", np.float32)
    layer, absc = halves & 255, halves >> 9
    now = absc < zk[layer]
    ref32 = absc.astype(np.float32) * zw[layer]
    ref32 = np.where(halves & 256, -ref32, ref32)
    assert z32.dtype == np.float32 and 0.98 < now.mean() < 1.0
    np.testing.assert_array_equal(z32[now], ref32[now])
    # the rest, from the wedges and the tail: normal draws all the same
    assert np.isfinite(z32).all() and (np.abs(z32[~now]) < 8).all()
    u24 = ((raw[4500:7500] >> np.uint64(40)).astype(np.float64) + 1.0) * 2.0 ** -24
    np.testing.assert_allclose(e32, -np.log(u24), rtol=2e-6, atol=2e-7)


def test_integers_cover_the_range_uniformly(device):
    with ember.Device(device):
        g = er.default_rng(3)
        x = host(g.integers(0, 10, 50000))
        y = host(g.integers(250, 255, 1000, dtype=np.uint8, endpoint=True))
        big = host(g.integers(-2 ** 63, 2 ** 63 - 1, 4000, endpoint=True))
    counts = np.bincount(x, minlength=10)
    assert x.min() == 0 and x.max() == 9
    chi2 = np.sum((counts - 5000) ** 2 / 5000)
    assert chi2 < 27.9  # 9 degrees of freedom, alpha = 0.001
    assert set(np.unique(y)) == {250, 251, 252, 253, 254, 255}
    assert (big < 0).mean() == pytest.approx(0.5, abs=0.05)


def test_same_seed_same_draws(device):
    with ember.Device(device):
        draws = []
        for _ in range(2):
            g = er.default_rng(77)
            draws.append([host(g.standard_normal(100)),
                          host(g.integers(0, 1000, 50)), host(g.gamma(0.7, 1, 50)),
                          host(g.poisson(30, 50)), host(g.binomial(100, .4, 50)),
                          host(g.permutation(40))])
        for a, b in zip(*draws):
            np.testing.assert_array_equal(a, b)


def test_keyed_draws_do_not_depend_on_the_device(device):
    """The same seed gives the same non-NumPy draws on cpu and this device
    (on the GPU host, the cuda case compares the two backends)."""
    out = {}
    for d in ("cpu", device):
        with ember.Device(d):
            g = er.default_rng(5)
            out[d] = [host(g.standard_normal(999, dtype=np.float32)),
                      host(g.exponential(1.5, 999)), host(g.gamma(2.5, 1, 99)),
                      host(g.poisson(25, 99)), host(g.binomial(500, .2, 99)),
                      host(g.integers(0, 7, 99))]
    for a, b in zip(out["cpu"], out[device]):
        np.testing.assert_array_equal(a, b)


def test_choice_permutation_shuffle(device):
    with ember.Device(device):
        g = er.default_rng(12)
        p = host(g.permutation(1000))
        assert sorted(p.tolist()) == list(range(1000))
        assert not np.array_equal(p, np.arange(1000))
        a = ember.arange(12).reshape(4, 3)
        pa = host(g.permutation(a))
        assert sorted(map(tuple, pa.tolist())) == \
            sorted(map(tuple, host(a).tolist()))
        pc = host(g.permutation(a, axis=1))
        assert sorted(pc[0].tolist()) == [0, 1, 2]
        x = ember.arange(100)
        g.shuffle(x)
        assert sorted(host(x).tolist()) == list(range(100))
        s = host(g.choice(50, 50, replace=False))
        assert sorted(s.tolist()) == list(range(50))
        w = host(g.choice([10, 20, 30], 30000, p=[0.2, 0.5, 0.3]))
        fr = [(w == v).mean() for v in (10, 20, 30)]
        np.testing.assert_allclose(fr, [0.2, 0.5, 0.3], atol=0.015)
        k = host(g.choice(5, 3, replace=False, p=[0.1, 0, 0.3, 0.4, 0.2]))
        assert len(set(k.tolist())) == 3 and 1 not in k
        # weighted without replacement: the first pick is p-distributed
        first = host(ember.concatenate([g.choice(3, 1, replace=False,
                                                 p=[0.6, 0.3, 0.1])
                                        for _ in range(300)]))
        assert 0.5 < (first == 0).mean() < 0.7
        assert g.choice(0, 0).shape == (0,)
        assert host(g.permutation(-1)).shape == (0,)
        assert host(g.permutation(True)).tolist() == [0]
        assert host(g.permutation(np.int8(3))).dtype == np.int64


def _both(fn):
    """The exception class NumPy raises for fn(generator) (None: none)."""
    try:
        fn(np.random.default_rng(0))
    except Exception as e:  # noqa: BLE001
        return type(e)
    return None


ERRORS = [
    lambda g: g.normal(0, -1),
    lambda g: g.exponential(-1),
    lambda g: g.uniform(0, np.inf),
    lambda g: g.uniform(2, 1),
    lambda g: g.integers(5, 3),
    lambda g: g.integers(0),
    lambda g: g.integers(0, 300, dtype=np.int8),
    lambda g: g.integers(-1, 3, dtype=np.uint8),
    lambda g: g.integers(0, 5, dtype=np.float64),
    lambda g: g.random(dtype=np.int32),
    lambda g: g.standard_normal(dtype=np.int32),
    lambda g: g.random(-1),
    lambda g: g.choice(5, 6, replace=False),
    lambda g: g.choice(3, p=[0.5, 0.6, 0.1]),
    lambda g: g.choice(3, p=[-0.5, 1, 0.5]),
    lambda g: g.choice(3, p=[0.5, 0.5]),
    lambda g: g.choice(2, p=[[0.5, 0.5]]),
    lambda g: g.choice(3, 2, replace=False, p=[1, 0, 0]),
    lambda g: g.choice(0),
    lambda g: g.choice([]),
    lambda g: g.gamma(-1),
    lambda g: g.gamma(1, -1),
    lambda g: g.beta(0, 1),
    lambda g: g.poisson(-1),
    lambda g: g.poisson(np.nan),
    lambda g: g.poisson(1e30),
    lambda g: g.binomial(-1, 0.5),
    lambda g: g.binomial(1, 1.5),
    lambda g: g.multivariate_normal([0, 0], [[1, 0]]),
    lambda g: g.permutation(np.float64(1.5)),
    lambda g: g.gamma([1.0, -1.0]),
    lambda g: g.poisson([1.0, np.nan]),
    lambda g: g.binomial([3, -1], 0.5),
    lambda g: g.binomial([3, 1], [0.5, 1.5]),
    lambda g: g.integers([0, 5], [3, 5]),
    lambda g: g.integers([0, 5], 300, dtype=np.int8),
    lambda g: g.beta([1.0, 0.0], 1.0),
    lambda g: g.gamma([1.0, 2.0], size=3),
    lambda g: g.normal(0, -0.0),
    lambda g: g.gamma(1.0, [1.0, -0.0]),
    lambda g: g.beta(-0.0, 1.0),
    lambda g: g.choice(3, p=[np.nan, 0.5, 0.5]),
]


@pytest.mark.parametrize("call", [
    "g.normal(0, np.nan)", "g.exponential(np.nan)", "g.gamma(np.nan)",
    "g.gamma(1, np.nan)", "g.beta(np.nan, 1)", "g.normal(0, [1, -np.nan])",
    "g.poisson(-0.0)", "g.binomial(5, -0.0)", "g.gamma(np.inf)",
])
def test_nan_and_signed_zero_parameters_as_numpy(device, call):
    """NaN scales and shapes give NaN, -0.0 is a valid lam or p, as in
    NumPy (whose checks let them through)."""
    ref = np.asarray(eval(call, {"g": np.random.default_rng(0), "np": np}))
    with ember.Device(device):
        got = host(eval(call, {"g": er.default_rng(0), "np": np}))
    assert got.shape == ref.shape
    np.testing.assert_array_equal(np.isnan(got), np.isnan(ref))
    if call.startswith(("g.poisson", "g.binomial", "g.gamma(np.inf")):
        np.testing.assert_array_equal(got, ref)


@pytest.mark.parametrize("i", range(len(ERRORS)))
def test_errors_are_numpys(device, i):
    want = _both(ERRORS[i])
    assert want is not None
    with ember.Device(device):
        with pytest.raises(want):
            ERRORS[i](er.default_rng(0))


def test_legacy_api(device):
    with ember.Device(device):
        er.seed(5)
        a = host(er.rand(3, 2))
        er.seed(5)
        np.testing.assert_array_equal(host(er.rand(3, 2)), a)
        assert a.dtype == np.float64 and ((a >= 0) & (a < 1)).all()
        # CuPy's dtype= on the legacy functions
        assert er.rand(3, dtype=np.float32).dtype == np.float32
        assert er.randn(3, dtype=np.float32).dtype == np.float32
        assert er.uniform(0, 1, 3, dtype=np.float32).dtype == np.float32
        with pytest.raises(TypeError):
            er.normal(0, 1, 3, dtype=np.int32)
        rs = er.RandomState(9)
        x = host(rs.randint(3, 8, size=2000))
        assert x.min() == 3 and x.max() == 7 and x.dtype == np.int64
        assert host(rs.randn(2, 2)).shape == (2, 2)
        assert host(er.uniform(2, 3, 10)).min() >= 2
        assert host(er.normal(0, 1, 4)).shape == (4,)
        assert host(er.random_sample(3)).shape == (3,)
        assert host(er.random((2,))).shape == (2,)
        assert sorted(host(er.permutation(5)).tolist()) == list(range(5))
        y = ember.arange(6)
        er.shuffle(y)
        assert sorted(host(y).tolist()) == list(range(6))
        assert host(er.choice(4, 3)).max() < 4
        with pytest.raises(ValueError):
            er.seed(-1)
        st = rs.get_state()
        u = host(rs.rand(5))
        rs.set_state(st)
        np.testing.assert_array_equal(host(rs.rand(5)), u)


def test_threads_share_a_generator():
    """Draws from several threads each take their own words: together
    they are NumPy's draws in some order, none twice."""
    import threading
    g = er.default_rng(31)
    parts = []

    def work():
        for _ in range(20):
            parts.append(host(g.bit_generator.random_raw(7)))
    ts = [threading.Thread(target=work) for _ in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    got = np.sort(np.concatenate(parts))
    want = np.sort(np.random.default_rng(31).bit_generator.random_raw(560))
    np.testing.assert_array_equal(got, want)


def test_random_is_an_attribute_without_import():
    code = ("import sys, ember as cupy\n"
            "assert 'ember.random' not in sys.modules\n"
            "cupy.random.seed(1); print(cupy.random.rand(2).shape)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip() == "(2,)"


KERNELS = pathlib.Path(__file__).resolve().parents[2] / "kernels"

CUDA_TWIN_DRAWS = """
import ember, ember.random as er
g = er.default_rng(5)
g.bit_generator.random_raw(8); g.integers(0, 2**32, 8, dtype="uint32")
for dt in ("int32", "int64", "uint32", "uint64"):
    g.integers(0, 9, 8, dtype=dt)
for dt in ("float32", "float64"):
    g.random(8, dtype=dt); g.standard_normal(8, dtype=dt)
    g.standard_exponential(8, dtype=dt); g.standard_gamma(2.5, 8, dtype=dt)
g.lognormal(size=8); g.poisson(3.0, 8); g.binomial(9, 0.5, 8)
g.geometric(0.3, 8); g.zipf(2.0, 8); g.logseries(0.5, 8)
print("ok")
"""


@pytest.mark.skipif(not HAVE_NVRTC, reason="NVRTC not found")
def test_cuda_kernels_compile_with_nvrtc():
    """Every distribution family and dtype, drawn on cpu with
    EMBER_CKERNEL_CHECK_CUDA=1, has its cuda variant (src/math/random.c's
    source for a GPU) compiled by NVRTC too: a CUDA-only slip such as a
    C99 type name fails here, not first on the GPU host."""
    env = dict(os.environ, EMBER_CKERNEL_CHECK_CUDA="1", EMBER_DEVICE="cpu")
    r = subprocess.run([sys.executable, "-c", CUDA_TWIN_DRAWS], env=env,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr[-3000:]


# The cuda schedule (runs of 64 bytes a thread, grid-stride, a warp's
# runs staged in shared memory and stored together) run by the host backend as a RawKernel: its draws must be
# the host schedule's. A wrapper passes the NULL parameter arrays, which
# a RawKernel call cannot.
WRAP = """
extern "C" __global__ void rnd_fill_t(RND_T *out, long long n, long long per,
    unsigned long long s0, unsigned long long s1,
    unsigned long long s2, unsigned long long s3, unsigned long long s4,
    unsigned long long s5, int npre, unsigned long long p0,
    unsigned long long p1, unsigned long long p2, int has32, unsigned int h32,
    double a, double b, unsigned long long c0, unsigned long long c1, int vec,
    unsigned long long j0, unsigned long long j1, unsigned long long j2,
    unsigned long long j3, int dist)
{
    rnd_fill(out, n, per, s0, s1, s2, s3, s4, s5, npre, p0, p1, p2,
             has32, h32, a, b, c0, c1, vec, 0, 0, j0, j1, j2, j3, dist);
}
"""
LANES_WRAP = """
extern "C" __global__ void rnd_fill_lanes_t(RND_T *out, long long n,
    unsigned long long s0, unsigned long long s1,
    unsigned long long s2, unsigned long long s3, double a, double b,
    unsigned long long j0, unsigned long long j1, unsigned long long j2,
    unsigned long long j3, int dist)
{
    rnd_fill_lanes(out, n, 0, s0, s1, s2, s3, 0, 0, 0, 0, 0, 0, 0, 0, a, b,
                   0, 0, 1, 0, 0, j0, j1, j2, j3, dist);
}
"""


# The one-word family (em_random_dist 10..19) is one kernel per dtype,
# the distribution an argument: one compile checks all of a dtype's.
FAMILY_F = (10, 11, 12, 13, 14, 15, 16, 17, 18)
FAMILY_I = (19,)
FAMILY_K = (20, 21)  # the keyed integer family
# the lane layout's words a lane per segment: fewer than random.c's 16, so
# that 1,001 elements span several segments and a warp strides to another
LANE_R = 4


@pytest.mark.parametrize("dist,ctype,vec,vw,npdt,gen", [
    (3, "float", "float4", 4, np.float32, "philox"),
    (3, "float", "float4", 4, np.float32, "pcg64"),
    (2, "double", "double2", 2, np.float64, "pcg64"),
    (4, "float", "float4", 4, np.float32, "pcg64"),
    (7, "long long", "longlong2", 2, np.int64, "pcg64"),
    (FAMILY_F, "double", "double2", 2, np.float64, "pcg64"),
    (FAMILY_F, "double", "double2", 2, np.float64, "philox"),
    (FAMILY_I, "long long", "longlong2", 2, np.int64, "pcg64"),
    (FAMILY_K, "long long", "longlong2", 2, np.int64, "pcg64"),
])
def test_cuda_schedule_draws_what_the_host_schedule_draws(dist, ctype, vec,
                                                          vw, npdt, gen):
    dists = dist if isinstance(dist, tuple) else (dist,)
    kd = 20 if dists[0] >= 20 else min(dists[0], 10)
    lanes = gen == "pcg64" and (kd < 6 or kd == 10) and \
        not (kd == 4 and ctype == "float")   # src/math/random.c's lane_kind
    body = "".join((KERNELS / f).read_text() for f in
                   ("random_bits.cuh", "random_math.cuh", "random_ziggurat.cuh",
                    "random_fill.cuh") + (("random_lanes.cuh",) if lanes else ()))
    src = (f"#define RND_CUDA 1\n#define RND_DIST {kd}\n#define RND_T {ctype}\n"
           f"#define RND_GEN {int(gen == 'philox')}\n"
           f"#define RND_F32 {int(ctype == 'float')}\n"
           f"#define RND_VEC {vec}\n#define RND_VW {vw}\n"
           f"#define RND_LANE_R {LANE_R}\n") + body + WRAP + (LANES_WRAP if lanes else "")
    k = ember.RawKernel(src, "rnd_fill_t")
    lk = ember.RawKernel(src, "rnd_fill_lanes_t") if lanes else None
    for d in dists:
        _cuda_schedule_case(k, lk, d, npdt, gen)


def _cuda_schedule_case(k, lk, dist, npdt, gen):
    # parameters every distribution takes (geometric's p = a in (0, 1])
    a, b = (0.3, 30.0) if dist in (19, 21) else (2.0, 30.0)
    for primed in (True, False):
        _cuda_schedule_state(k, lk, dist, npdt, gen, a, b, primed)


def _cuda_schedule_state(k, lk, dist, npdt, gen, a, b, primed):
    from ember import _ember
    with ember.Device("cpu"):
        bg = GENS[gen][0](17).bit_generator
        if primed:
            bg.random_raw(1)            # Philox: three buffered words
            er.Generator(bg).random(1, dtype=np.float32)  # a buffered half
        # else a fresh stream: the kernel's loops without buffered words
        words, pre = bg._words(), bg._prefix()
        half = bg._half if bg._has32 else None
        n = 1001
        want = ember.empty(n, dtype=npdt)
        _ember._random_fill(want, bg._gen, words, pre, half, dist, a, b,
                            0, 0)
        pw = list(pre) + [0] * (3 - len(pre))
        from ember.random._streams import M64, pcg_power
        # a cuda thread's runs are 64 bytes; blocks of 4 threads and of
        # 64 (two warps, whose pieces rnd_flush writes out each)
        per = 64 // np.dtype(npdt).itemsize
        # two elements a word: 32-bit draws, float32 ziggurat normals
        halves = dist in (1, 3) or (dist == 4 and npdt == np.float32)
        for blocks, threads in ((3, 4), (2, 64)):
            got = ember.zeros(n, dtype=npdt)
            # PCG64's jump between a thread's runs: the grid's runs of
            # per elements (per / 2 words for 32-bit draws)
            jm, ja = pcg_power(bg._inc if gen == "pcg64" else 1,
                               blocks * threads *
                               (per // 2 if halves else per))
            jw = [jm >> 64, jm & M64, ja >> 64, ja & M64]
            k((blocks,), (threads,), (got, np.int64(n), np.int64(per),
                           *[np.uint64(x) for x in words], np.int32(len(pre)),
                           *[np.uint64(x) for x in pw],
                           np.int32(half is not None), np.uint32(half or 0),
                           np.float64(a), np.float64(b), np.uint64(0),
                           np.uint64(0), np.int32(1),
                           *[np.uint64(x) for x in jw], np.int32(dist)),
              shared_mem=threads * 80)
            np.testing.assert_array_equal(
                host(got), host(want),
                err_msg=f"{dist} {threads} threads primed {primed}")
        # the lane layout's kernel, where random.c takes it: PCG64 word
        # draws starting on a word at element 0; warps of 32 lanes, a
        # lane's next segment (T - 32) LANE_R words on
        if lk is None or pre or (halves and half is not None):
            return
        for blocks, threads in ((2, 64), (3, 32)):
            got = ember.zeros(n, dtype=npdt)
            jm, ja = pcg_power(bg._inc, (blocks * threads - 32) * LANE_R)
            lk((blocks,), (threads,), (got, np.int64(n),
                                       *[np.uint64(x) for x in words[:4]],
                                       np.float64(a), np.float64(b),
                                       *[np.uint64(x) for x in (jm >> 64, jm & M64,
                                                                ja >> 64, ja & M64)],
                                       np.int32(dist)))
            np.testing.assert_array_equal(
                host(got), host(want),
                err_msg=f"{dist} lanes, {blocks} x {threads} threads")


def test_multivariate_normal_moments(device):
    mean = np.array([1.0, -2.0, 0.5])
    cov = np.array([[2.0, 0.6, 0.0], [0.6, 1.0, -0.3], [0.0, -0.3, 0.5]])
    for method in ("svd", "eigh", "cholesky"):
        with ember.Device(device):
            x = host(er.default_rng(4).multivariate_normal(mean, cov, 40000,
                                                           method=method))
        assert x.shape == (40000, 3)
        np.testing.assert_allclose(x.mean(axis=0), mean, atol=0.03)
        np.testing.assert_allclose(np.cov(x.T), cov, atol=0.05)
    with pytest.raises(ValueError):
        er.default_rng(0).multivariate_normal([0, 0], [[1, 2], [2, 1]],
                                              check_valid="raise")


def test_seeding_and_advance_as_numpy(device):
    with ember.Device(device):
        ss = np.random.SeedSequence(2024)
        ctr = np.array([2**64 - 1, 2**64 - 1, 3, 0], dtype=np.uint64)
        for g, r in [(er.Generator(er.PCG64(er.SeedSequence(2024))),
                      np.random.Generator(np.random.PCG64(ss))),
                     (er.default_rng([1, 2, 3]), np.random.default_rng([1, 2, 3])),
                     (er.Generator(er.Philox(key=7)),
                      np.random.Generator(np.random.Philox(key=7))),
                     # a counter whose next increment carries twice
                     (er.Generator(er.Philox(5, counter=ctr)),
                      np.random.Generator(np.random.Philox(5, counter=ctr)))]:
            np.testing.assert_array_equal(host(g.random(9)), r.random(9))
            same_state(g, r)
        g, r = er.default_rng(8), np.random.default_rng(8)
        g.bit_generator.advance(12345)
        r.bit_generator.advance(12345)
        np.testing.assert_array_equal(host(g.random(5)), r.random(5))
        assert er.default_rng(g) is g
        assert er.default_rng(g.bit_generator).bit_generator is g.bit_generator
        with pytest.raises(TypeError):
            er.Generator(np.random.PCG64(1))


def test_array_loc_and_scale_are_the_affine_of_the_standard_draw(device):
    """normal(loc, scale) with arrays is loc + scale * z of the same words,
    rounded once each, as NumPy's; exponential(scale) likewise."""
    loc, scale = np.array([0.0, 10.0, -3.5]), np.array([[1.0], [2.5]])
    with ember.Device(device):
        z = host(er.default_rng(6).standard_normal((2, 3)))
        x = host(er.default_rng(6).normal(ember.asarray(loc), scale))
        e = host(er.default_rng(6).standard_exponential((2, 3)))
        y = host(er.default_rng(6).exponential(scale, size=(2, 3)))
    np.testing.assert_array_equal(x, loc + scale * z)
    np.testing.assert_array_equal(y, scale * e)



# ---- the rest of NumPy's distributions --------------------------------
# (name, args, mean, variance): the closed forms (variance None where the
# sample variance is too noisy to check, or does not exist).
_G = math.gamma
MOMENTS = [
    ("lognormal", (0.5, 0.4), math.exp(0.58),
     (math.exp(0.16) - 1) * math.exp(1.16)),
    ("laplace", (1.0, 2.0), 1.0, 8.0),
    ("logistic", (1.0, 2.0), 1.0, 4 * math.pi ** 2 / 3),
    ("gumbel", (1.0, 2.0), 1.0 + 2 * 0.5772156649015329,
     math.pi ** 2 * 4 / 6),
    ("rayleigh", (2.0,), 2 * math.sqrt(math.pi / 2), (4 - math.pi) / 2 * 4),
    ("weibull", (1.5,), _G(1 + 1 / 1.5), _G(1 + 2 / 1.5) - _G(1 + 1 / 1.5) ** 2),
    ("weibull", (0.7,), _G(1 + 1 / 0.7), None),
    ("pareto", (5.0,), 1 / 4, 5 / (16 * 3)),
    ("power", (2.0,), 2 / 3, 2 / (9 * 4)),
    ("power", (0.3,), 0.3 / 1.3, 0.3 / (1.3 ** 2 * 2.3)),
    ("standard_cauchy", (), None, None),
    ("geometric", (0.2,), 5.0, 0.8 / 0.04),
    ("geometric", (0.7,), 1 / 0.7, 0.3 / 0.49),
    ("geometric", (1e-4,), 1e4, 0.9999 / 1e-8),
    ("chisquare", (3.0,), 3.0, 6.0),
    ("chisquare", (0.5,), 0.5, 1.0),
    ("standard_t", (5.0,), 0.0, 5 / 3),
    ("standard_t", (1.5,), 0.0, None),
    ("f", (5.0, 10.0), 1.25, None),
    ("noncentral_chisquare", (3.0, 2.0), 5.0, 14.0),
    ("noncentral_chisquare", (0.5, 2.0), 2.5, 9.0),
    ("noncentral_f", (3.0, 10.0, 2.0), 10 * 5 / (3 * 8), None),
    ("triangular", (0.0, 1.0, 3.0), 4 / 3, 7 / 18),
    ("wald", (1.3, 2.7), 1.3, 1.3 ** 3 / 2.7),
    ("negative_binomial", (3, 0.4), 4.5, 11.25),
    ("negative_binomial", (0.5, 0.9), 0.5 / 9, 0.5 * 0.1 / 0.81),
    # zeta(a-1) / zeta(a), and zeta(a-2) / zeta(a) - mean^2
    ("zipf", (3.0,), 1.6449340668482264 / 1.2020569031595942, None),
    ("zipf", (6.0,), 1.0369277551433699 / 1.0173430619844491,
     1.0823232337111381 / 1.0173430619844491 -
     (1.0369277551433699 / 1.0173430619844491) ** 2),
    ("zipf", (1.3,), None, None),
    ("logseries", (0.6,), -0.6 / (0.4 * math.log(0.4)),
     -0.6 * (0.6 + math.log(0.4)) / (0.16 * math.log(0.4) ** 2)),
    ("logseries", (0.99,), -0.99 / (0.01 * math.log(0.01)), None),
]


@pytest.mark.parametrize("name,args,mean,var", MOMENTS,
                         ids=[f"{m[0]}{m[1]}" for m in MOMENTS])
def test_more_distributions_moments_and_ks(device, name, args, mean, var):
    """Each draw against its closed-form mean and variance, and against
    NumPy's draws of the same distribution by the two-sample KS test."""
    with ember.Device(device):
        got = host(getattr(er.default_rng(42), name)(*args, size=N))
    ref = getattr(np.random.default_rng(43), name)(*args, size=N)
    assert got.dtype == ref.dtype and got.shape == (N,)
    assert ks_ok(got, ref), (name, args, ks_stat(got, ref))
    if mean is not None:
        sd = math.sqrt(var) if var is not None else max(ref.std(), 1e-12)
        assert abs(got.mean() - mean) < 5 * sd / math.sqrt(N), \
            (name, got.mean(), mean)
    if var is not None:
        assert abs(got.var() / var - 1) < 0.1, (name, got.var(), var)
    if name in ("geometric", "negative_binomial", "zipf", "logseries"):
        assert got.min() >= (0 if name == "negative_binomial" else 1)


def test_the_moment_and_ks_checks_catch_a_wrong_parameter():
    r = np.random.default_rng(0)
    assert not ks_ok(r.lognormal(0.5, 0.4, N), r.lognormal(0.5, 0.44, N))
    assert not ks_ok(r.geometric(0.2, N), r.geometric(0.21, N))
    assert not ks_ok(r.standard_cauchy(N), 1.25 * r.standard_cauchy(N))


def test_dirichlet_moments(device):
    alpha = np.array([0.5, 2.0, 3.5, 1.0, 4.0])
    with ember.Device(device):
        x = host(er.default_rng(3).dirichlet(alpha, size=(N // 2, 2)))
    assert x.shape == (N // 2, 2, 5) and x.dtype == np.float64
    np.testing.assert_allclose(x.sum(axis=-1), 1.0, rtol=1e-14)
    x = x.reshape(-1, 5)
    a0 = alpha.sum()
    np.testing.assert_allclose(x.mean(axis=0), alpha / a0, atol=0.004)
    np.testing.assert_allclose(x.var(axis=0),
                               alpha * (a0 - alpha) / (a0 ** 2 * (a0 + 1)),
                               rtol=0.1)
    ref = np.random.default_rng(4).dirichlet(alpha, N)
    for c in range(5):
        assert ks_ok(x[:, c], ref[:, c]), c


def test_triangular_is_numpys_bit_for_bit(device):
    """triangular is NumPy's steps over the uniform, which is NumPy's:
    the same numbers for the same seed, scalar and array parameters."""
    for kind in sorted(GENS):
        mk, nmk = GENS[kind]
        with ember.Device(device):
            g = mk(8)
            a = host(g.triangular(-1.0, 0.25, 2.0, size=1001))
            b = host(g.triangular(ember.asarray([0.0, -3.0, 1.0]),
                                  [1.0, -1.0, 1.0], [3.0, 5.0, 1.5],
                                  size=(4, 3)))
        r = nmk(8)
        np.testing.assert_array_equal(a, r.triangular(-1.0, 0.25, 2.0, 1001))
        np.testing.assert_array_equal(b, r.triangular([0.0, -3.0, 1.0],
                                                      [1.0, -1.0, 1.0],
                                                      [3.0, 5.0, 1.5],
                                                      size=(4, 3)))


NEW_NAMES = {
    "lognormal": (0.0, 1.0), "laplace": (0.0, 1.0), "logistic": (0.0, 1.0),
    "gumbel": (0.0, 1.0), "rayleigh": (1.0,), "weibull": (2.0,),
    "pareto": (3.0,), "power": (2.0,), "standard_cauchy": (),
    "geometric": (0.3,), "chisquare": (2.0,), "standard_t": (3.0,),
    "f": (2.0, 7.0), "noncentral_chisquare": (2.0, 1.0),
    "noncentral_f": (2.0, 7.0, 1.0), "triangular": (0.0, 0.5, 1.0),
    "wald": (1.0, 1.0), "negative_binomial": (2, 0.5), "zipf": (2.0,),
    "logseries": (0.5,),
}


def test_more_distributions_shapes_dtypes_and_seeding(device):
    with ember.Device(device):
        for name, args in NEW_NAMES.items():
            want = np.int64 if name in ("geometric", "negative_binomial",
                                        "zipf", "logseries") else np.float64
            x = getattr(er.default_rng(9), name)(*args, size=(3, 4))
            assert x.shape == (3, 4) and x.dtype == want, name
            assert x.device == ember.Device(device)
            y = getattr(er.default_rng(9), name)(*args, size=(3, 4))
            np.testing.assert_array_equal(host(x), host(y), err_msg=name)
            z = getattr(er.default_rng(9), name)(*args)
            assert z.shape == () and z.dtype == want, name
            assert getattr(er.default_rng(9), name)(*args, size=0).shape == (0,)
            # the legacy API and CuPy's dtype=
            rs = er.RandomState(1)
            u = getattr(rs, name)(*args, size=5)
            assert u.shape == (5,) and u.dtype == want, name
            ldt = np.int32 if want == np.int64 else np.float32
            v = getattr(er.RandomState(1), name)(*args, size=5, dtype=ldt)
            assert v.dtype == ldt, name
            np.testing.assert_array_equal(host(v), host(u).astype(ldt))
            assert getattr(er, name)(*args, size=2).shape == (2,)
            with pytest.raises(TypeError):
                getattr(rs, name)(*args, size=2, dtype=np.int16)
        d = er.default_rng(1).dirichlet([1.0, 2.0], size=3)
        assert d.shape == (3, 2) and er.dirichlet([1, 1]).shape == (2,)
        assert er.RandomState(0).dirichlet([1, 1], 2, dtype=np.float32).dtype \
            == np.float32


def test_cupy_stream_example():
    """CuPy's examples/stream/curand.py, on ember."""
    import ember as cupy
    rand = cupy.random.RandomState(seed=1)
    s = cupy.cuda.Stream()
    with s:
        y = rand.lognormal(size=(1, 3))
        s.synchronize()
    assert y.shape == (1, 3) and y.dtype == np.float64
    assert (host(y) > 0).all()


# parameter arrays: (name, per-column parameters)
MORE_ARRAYS = [
    ("lognormal", ([0.0, 1.0], [0.5, 0.2])),
    ("laplace", ([0.0, 5.0], [1.0, 0.5])),
    ("logistic", ([-1.0, 2.0], [2.0, 1.0])),
    ("gumbel", ([0.0, 3.0], [1.0, 4.0])),
    ("rayleigh", ([1.0, 3.0],)),
    ("weibull", ([0.8, 3.0],)),
    ("pareto", ([2.0, 6.0],)),
    ("power", ([0.5, 4.0],)),
    ("geometric", ([0.05, 0.6],)),
    ("chisquare", ([1.0, 9.0],)),
    ("standard_t", ([2.0, 30.0],)),
    ("f", ([2.0, 8.0], [5.0, 20.0])),
    ("noncentral_chisquare", ([0.7, 4.0], [3.0, 0.5])),
    ("noncentral_f", ([0.7, 4.0], [6.0, 12.0], [3.0, 0.5])),
    ("triangular", ([0.0, -2.0], [0.1, 0.0], [1.0, 3.0])),
    ("wald", ([0.5, 3.0], [1.0, 4.0])),
    ("negative_binomial", ([1.5, 20.0], [0.3, 0.8])),
    ("zipf", ([1.7, 4.0],)),
    ("logseries", ([0.2, 0.9],)),
]


@pytest.mark.parametrize("name,args", MORE_ARRAYS,
                         ids=[d[0] for d in MORE_ARRAYS])
def test_more_array_parameters_broadcast(device, name, args):
    n = 6000
    with ember.Device(device):
        eargs = [ember.asarray(args[0])] + list(args[1:])
        got = host(getattr(er.default_rng(1), name)(*eargs, size=(n, 2)))
        bare = host(getattr(er.default_rng(1), name)(*eargs))
        with pytest.raises(ValueError):
            getattr(er.default_rng(1), name)(*eargs, size=(n, 3))
    ref = getattr(np.random.default_rng(2), name)(*args, size=(n, 2))
    assert got.shape == ref.shape and got.dtype == ref.dtype
    assert bare.shape == (2,)
    for c in range(2):
        assert ks_ok(got[:, c], ref[:, c]), (name, c,
                                             ks_stat(got[:, c], ref[:, c]))


@pytest.mark.parametrize("name", ["lognormal", "laplace", "logistic", "gumbel",
                                  "rayleigh", "weibull", "pareto", "power",
                                  "geometric"])
def test_word_draws_per_element_parameters_are_the_scalar_draws(device, name):
    """A one-word draw with array parameters uses element i's word with
    element i's parameters: equal ones give the scalar call's numbers."""
    args = NEW_NAMES[name]
    with ember.Device(device):
        x = host(getattr(er.default_rng(5), name)(*args, size=7))
        arr = [ember.full(7, args[0])] + list(args[1:])
        y = host(getattr(er.default_rng(5), name)(*arr))
    np.testing.assert_array_equal(x, y)


MORE_ERRORS = [
    lambda g: g.lognormal(0, -1),
    lambda g: g.lognormal(0, [1, -0.0]),
    lambda g: g.laplace(0, -1),
    lambda g: g.logistic(0, -0.0),
    lambda g: g.gumbel(0, [-1, 1]),
    lambda g: g.rayleigh(-1),
    lambda g: g.weibull(-0.0),
    lambda g: g.pareto(0),
    lambda g: g.pareto([1, -1]),
    lambda g: g.power(0),
    lambda g: g.geometric(0),
    lambda g: g.geometric(1.5),
    lambda g: g.geometric(np.nan),
    lambda g: g.geometric([0.5, 0]),
    lambda g: g.chisquare(0),
    lambda g: g.chisquare([1, -1]),
    lambda g: g.standard_t(0),
    lambda g: g.f(0, 1),
    lambda g: g.f(1, -1),
    lambda g: g.noncentral_chisquare(0, 1),
    lambda g: g.noncentral_chisquare(1, -1),
    lambda g: g.noncentral_f(0, 1, 1),
    lambda g: g.noncentral_f(1, 0, 1),
    lambda g: g.noncentral_f(1, 1, -1),
    lambda g: g.triangular(1, 0, 2),
    lambda g: g.triangular(0, 3, 2),
    lambda g: g.triangular(1, 1, 1),
    lambda g: g.triangular([0, 1], 1, [2, 1]),
    lambda g: g.wald(0, 1),
    lambda g: g.wald(1, 0),
    lambda g: g.dirichlet([1, -1]),
    lambda g: g.dirichlet(1),
    lambda g: g.dirichlet([[1, 1]]),
    lambda g: g.negative_binomial(0, 0.5),
    lambda g: g.negative_binomial(np.nan, 0.5),
    lambda g: g.negative_binomial(1, 0),
    lambda g: g.negative_binomial(1, 1.5),
    lambda g: g.negative_binomial(1e30, 1e-10),
    lambda g: g.chisquare([1.0, 2.0], size=3),
    lambda g: g.laplace([1.0, 2.0], size=3),
    lambda g: g.zipf(1.0),
    lambda g: g.zipf(np.nan),
    lambda g: g.zipf([2.0, 0.5]),
    lambda g: g.logseries(1.0),
    lambda g: g.logseries(-0.1),
    lambda g: g.logseries(np.nan),
]


@pytest.mark.parametrize("i", range(len(MORE_ERRORS)))
def test_more_errors_are_numpys(device, i):
    want = _both(MORE_ERRORS[i])
    assert want is not None
    with ember.Device(device):
        with pytest.raises(want):
            MORE_ERRORS[i](er.default_rng(0))


@pytest.mark.parametrize("call", [
    "g.pareto(np.nan)", "g.weibull(np.inf)", "g.weibull(0.0)",
    "g.power(np.inf)", "g.pareto(np.inf)", "g.geometric(1.0)",
    "g.geometric(1e-300)", "g.chisquare(np.nan)", "g.wald(1, np.inf)",
    "g.dirichlet([0.0, 0.0])", "g.dirichlet([1.0, np.nan])",
    "g.noncentral_chisquare(0.5, np.nan)", "g.noncentral_chisquare(3, np.nan)",
    "g.lognormal(0, np.nan)", "g.negative_binomial(1.5, 1.0)",
    "g.triangular(np.nan, 0, 1)", "g.zipf(np.inf)", "g.zipf(2000.0)",
    "g.logseries(0.0)", "g.logseries(-0.0)", "g.logseries(1e-300)",
])
def test_edge_parameters_as_numpy(device, call):
    """Values NumPy's checks let through give NumPy's constant or NaN."""
    ref = np.asarray(eval(call, {"g": np.random.default_rng(0), "np": np}))
    with ember.Device(device):
        got = host(eval(call, {"g": er.default_rng(0), "np": np}))
    assert got.shape == ref.shape and got.dtype == ref.dtype
    np.testing.assert_array_equal(np.isnan(got), np.isnan(ref))
    if not call.startswith(("g.pareto(np.nan", "g.chisquare", "g.lognormal",
                            "g.noncentral", "g.triangular")):
        np.testing.assert_array_equal(got, ref)


def test_more_draws_do_not_depend_on_the_device(device):
    out = {}
    for d in ("cpu", device):
        with ember.Device(d):
            g = er.default_rng(5)
            out[d] = [host(getattr(g, n)(*a, size=99))
                      for n, a in NEW_NAMES.items()]
            out[d].append(host(g.dirichlet([0.5, 1.0, 2.0], 33)))
    for a, b in zip(out["cpu"], out[device]):
        np.testing.assert_array_equal(a, b)


def test_word_draws_are_their_formula_of_the_stream(device):
    """Each one-word draw is its transform of word i of NumPy's stream:
    compare with the same formula over libm (a few ulps apart; absolute
    where loc + scale x cancels)."""
    n = 2000
    raw = np.random.default_rng(21).bit_generator.random_raw(n)
    u = ((raw >> np.uint64(11)).astype(np.float64) + 0.5) * 2.0 ** -53
    e = -np.log(((raw >> np.uint64(11)).astype(np.float64) + 1.0) * 2.0 ** -53)
    z = np.array([statistics.NormalDist().inv_cdf(x) for x in u])
    want = {
        ("lognormal", (0.5, 0.7)): np.exp(0.5 + 0.7 * z),
        ("laplace", (1.0, 2.0)): np.where(u < 0.5, 1.0 + 2.0 * np.log(2 * u),
                                          1.0 - 2.0 * np.log(2.0 - 2 * u)),
        ("logistic", (1.0, 2.0)): 1.0 + 2.0 * np.log(u / (1.0 - u)),
        ("gumbel", (1.0, 2.0)): 1.0 - 2.0 * np.log(-np.log(u)),
        ("rayleigh", (3.0,)): 3.0 * np.sqrt(2.0 * e),
        ("weibull", (1.7,)): e ** (1 / 1.7),
        ("pareto", (2.5,)): np.expm1(e / 2.5),
        ("power", (0.6,)): u ** (1 / 0.6),
        ("standard_cauchy", ()): np.tan(np.pi * (u - 0.5)),
        ("geometric", (0.03,)): np.ceil(np.log(u) / np.log1p(-0.03)),
    }
    for (name, args), ref in want.items():
        with ember.Device(device):
            got = host(getattr(er.default_rng(21), name)(*args, size=n))
        if name == "geometric":
            # a ceil may fall either side where the quotient is an integer
            assert np.abs(got - ref).max() <= 1 and (got == ref).mean() > 0.99
        else:
            np.testing.assert_allclose(got, ref, rtol=2e-14 if name !=
                                       "standard_cauchy" else 1e-12,
                                       atol=1e-14, err_msg=name)


def test_compositions_are_numpys_formulas_of_ember_draws(device):
    """The compositions are NumPy's formulas, in NumPy's order of
    operations, over the draws they take: redraw those from the same seed
    and apply NumPy's formula in float64 on the host (each ember step is
    one IEEE operation, so the results are equal, not close)."""
    n = 500
    with ember.Device(device):
        w = host(er.default_rng(4).wald(1.3, 2.7, n))
        g = er.default_rng(4)
        z, u = host(g.standard_normal(n)), host(g.random(n))
        t = host(er.default_rng(5).standard_t(3.5, n))
        g = er.default_rng(5)
        z2, gg = host(g.standard_normal(n)), host(g.standard_gamma(1.75, n))
        c = host(er.default_rng(6).chisquare(3.0, n))
        c2 = host(er.default_rng(6).standard_gamma(1.5, n))
        f = host(er.default_rng(7).f(3.0, 5.0, n))
        g = er.default_rng(7)
        fx, fy = host(g.gamma(1.5, 2.0, n)), host(g.gamma(2.5, 2.0, n))
        nc = host(er.default_rng(8).noncentral_chisquare(3.0, 2.0, n))
        g = er.default_rng(8)
        nz, nx = host(g.standard_normal(n)), host(g.gamma(1.0, 2.0, n))
    y = 1.3 * z * z
    x = 1.3 * (1 - 2 / (1 + np.sqrt(1 + 4 * 2.7 / y)))
    np.testing.assert_array_equal(w, np.where(u <= 1.3 / (1.3 + x), x,
                                              1.3 * 1.3 / x))
    np.testing.assert_array_equal(t, np.sqrt(1.75) * z2 / np.sqrt(gg))
    np.testing.assert_array_equal(c, 2.0 * c2)
    np.testing.assert_array_equal(f, (fx * 5.0) / (fy * 3.0))
    m = nz + np.sqrt(2.0)
    np.testing.assert_array_equal(nc, nx + m * m)


def test_multinomial_moments_and_ks(device):
    p = np.array([0.1, 0.25, 0.05, 0.6])
    with ember.Device(device):
        x = host(er.default_rng(12).multinomial(40, p, size=N))
    ref = np.random.default_rng(13).multinomial(40, p, size=N)
    assert x.shape == (N, 4) and x.dtype == np.int64
    assert (x.sum(axis=1) == 40).all() and x.min() >= 0
    np.testing.assert_allclose(x.mean(axis=0), 40 * p, atol=0.1)
    cov = 40 * (np.diag(p) - np.outer(p, p))
    np.testing.assert_allclose(np.cov(x.T), cov, atol=0.25)
    for c in range(4):
        assert ks_ok(x[:, c], ref[:, c]), c


def test_multinomial_shapes_and_parameters(device):
    with ember.Device(device):
        g = er.default_rng(2)
        assert g.multinomial(5, [0.5, 0.5]).shape == (2,)
        assert g.multinomial(5, [0.2, 0.8], size=(3, 2)).shape == (3, 2, 2)
        n, pv = np.array([[3], [40]]), [[0.2, 0.8], [0.5, 0.5], [1.0, 0.0]]
        y = host(g.multinomial(ember.asarray(n), pv))
        assert y.shape == (2, 3, 2)
        np.testing.assert_array_equal(y.sum(axis=-1), np.broadcast_to(n, (2, 3)))
        assert (y[:, 2, 1] == 0).all()
        np.testing.assert_array_equal(host(g.multinomial(0, [0.5, 0.5])), [0, 0])
        np.testing.assert_array_equal(host(g.multinomial(7, [1.0])), [7])
        # a short sum leaves the rest to the last count, as NumPy's
        z = host(g.multinomial(9, [0.5, 0.5, 0.1], size=200))
        assert (z[:, 2] == 0).all() and (z.sum(axis=1) == 9).all()
        assert g.multinomial(4, [0.5, 0.5], size=0).shape == (0, 2)
        a = host(er.default_rng(3).multinomial(30, [0.3, 0.7], 9))
        b = host(er.default_rng(3).multinomial(30, [0.3, 0.7], 9))
        np.testing.assert_array_equal(a, b)
        assert er.multinomial(3, [0.5, 0.5], 4).shape == (4, 2)
        assert er.RandomState(1).multinomial(3, [0.5, 0.5]).shape == (2,)


@pytest.mark.parametrize("call", [
    "g.multinomial(-1, [0.5, 0.5])", "g.multinomial(5, [-0.1, 1.1])",
    "g.multinomial(5, [np.nan, 0.5])", "g.multinomial(5, [0.7, 0.7, 0.1])",
    "g.multinomial(5, 0.5)", "g.multinomial(5, [])",
    "g.multinomial([3, 4], [0.2, 0.8], size=3)",
    "g.multinomial(5, [[0.7, 0.7, 0.1]])",
])
def test_multinomial_errors_are_numpys(device, call):
    want = _both(lambda g: eval(call, {"g": g, "np": np}))
    assert want is not None
    with ember.Device(device):
        with pytest.raises(want):
            eval(call, {"g": er.default_rng(0), "np": np})
