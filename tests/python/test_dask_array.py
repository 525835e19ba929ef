"""dask.array with ember chunks (ember.dask.array) and one worker per
device (ember.dask.LocalCluster): the same programs on ember chunks and on
NumPy chunks give the same values, under dask's synchronous and threaded
schedulers and on distributed clusters (threads and processes); the
device store spills and honours its limit."""
from collections import Counter

import numpy as np
import pytest

import ember
import ember.frame as ef

dask = pytest.importorskip("dask")
da = pytest.importorskip("dask.array")
distributed = pytest.importorskip("distributed")
eda = pytest.importorskip("ember.dask.array")
import ember.dask as ed  # noqa: E402
from ember.dask.spill import DeviceSpillMap  # noqa: E402
from ember.dask import worker as ew  # noqa: E402


def _data(shape=(12, 8), seed=3):
    return np.random.default_rng(seed).standard_normal(shape)


def _pair(device, shape=(12, 8), chunks=(4, 3)):
    """The same data as a NumPy-chunked and an ember-chunked dask array."""
    h = _data(shape)
    return (da.from_array(h, chunks=chunks),
            da.from_array(ember.asarray(h, device=device), chunks=chunks))


def _check(got, want, device, rtol=1e-10):
    assert isinstance(got, ember.ndarray), type(got)
    assert str(got.device) == device
    np.testing.assert_allclose(ember.asnumpy(got), want, rtol=rtol, atol=1e-12)


@pytest.fixture(params=["sync", "threads"])
def scheduler(request):
    with dask.config.set(scheduler=request.param):
        yield request.param


CASES = {
    "square_sum": lambda x: (x ** 2).sum(),
    "mean_axis0": lambda x: x.mean(axis=0),
    "std": lambda x: x.std(),
    "var_axis1": lambda x: x.var(axis=1),
    "min_max": lambda x: x.min(axis=1) + x.max(axis=1),
    "argmax": lambda x: x.argmax(axis=1),
    "nanmean": lambda x: da.nanmean(da.where(x > 1, np.nan, x), axis=0),
    "any": lambda x: (x > 1.5).any(axis=0),
    "elementwise": lambda x: np.sin(x) * 2 - x / 3 + 1,
    "where": lambda x: da.where(x > 0, x, -x),
    "cumsum": lambda x: x.cumsum(axis=1),
    "map_blocks": lambda x: x.map_blocks(lambda b: b * b + 1),
    "rechunk": lambda x: x.rechunk((6, 8)).rechunk((3, 2)) + 0,
    "transpose": lambda x: x.T[::2] + 1,
    "concatenate": lambda x: da.concatenate([x, x * 2], axis=1),
    "matmul": lambda x: x @ x.T,
    "tensordot": lambda x: da.tensordot(x, x, axes=((0,), (0,))),
    "einsum": lambda x: da.einsum("ij,ij->i", x, x),
    "take": lambda x: x[[0, 5, 11]],
    "boolean": lambda x: x[x > 0.5],
    "percentile": lambda x: da.percentile(x.ravel(), [10, 50, 90]),
    "count_nonzero": lambda x: da.count_nonzero(x > 0, axis=0),
}


@pytest.mark.parametrize("case", list(CASES))
def test_chunks_match_numpy(device, scheduler, case):
    h, e = _pair(device)
    f = CASES[case]
    got = f(e)
    # dask builds x[bool_dask_array] with no meta (a NumPy one, for CuPy too);
    # its chunks are still ember's, which _check asserts
    assert isinstance(got._meta, ember.ndarray) or case == "boolean"
    want = f(h).compute()
    if case == "percentile":   # merged on the host (ember.dask.array)
        np.testing.assert_allclose(got.compute(), want, rtol=1e-10)
        return
    _check(got.compute(), want, device)


def test_linalg(device, scheduler):
    rng = np.random.default_rng(5)
    tall = rng.standard_normal((40, 4))
    h = da.from_array(tall, chunks=(10, 4))
    e = da.from_array(ember.asarray(tall, device=device), chunks=(10, 4))
    # tsqr: R up to the signs of its rows, so compare Q @ R and R's magnitudes
    q, r = da.linalg.qr(e)
    _check((q @ r).compute(), tall, device)
    np.testing.assert_allclose(np.abs(ember.asnumpy(r.compute())),
                               np.abs(np.linalg.qr(tall)[1]), rtol=1e-9)
    s = da.linalg.svd(e)[1]
    _check(s.compute(), np.linalg.svd(tall, compute_uv=False), device)
    a = rng.standard_normal((8, 8)) + 8 * np.eye(8)
    spd = a @ a.T
    es = da.from_array(ember.asarray(spd, device=device), chunks=(4, 4))
    if device == "cpu":
        _check(da.linalg.cholesky(es, lower=True).compute(), np.linalg.cholesky(spd),
               device, 1e-9)
    else:
        # dask's blocked cholesky calls scipy.linalg on each block, which
        # gives host arrays; ember refuses to mix them with device chunks
        # (docs/scale.md)
        with pytest.raises(TypeError, match="host memory"):
            da.linalg.cholesky(es, lower=True).compute()
    # a solve per chunk: a stack of systems split along the batch axis
    stack = rng.standard_normal((6, 4, 4)) + 4 * np.eye(4)
    rhs = rng.standard_normal((6, 4, 1))
    es = da.from_array(ember.asarray(stack, device=device), chunks=(2, 4, 4))
    er = da.from_array(ember.asarray(rhs, device=device), chunks=(2, 4, 1))
    got = da.map_blocks(np.linalg.solve, es, er, dtype=stack.dtype)
    _check(got.compute(), np.linalg.solve(stack, rhs), device, 1e-9)
    assert h.shape == e.shape


def test_backend_creation(device, scheduler):
    with ember.Device(device), dask.config.set({"array.backend": "ember"}):
        made = {"ones": da.ones((5, 4), chunks=2), "zeros": da.zeros(7, chunks=3),
                "full": da.full((3, 3), 2.5, chunks=2), "arange": da.arange(10, chunks=4),
                "empty": da.empty((4,), chunks=2)}
        with dask.config.set(scheduler="sync"):     # the device is this thread's
            got = {k: v.compute() for k, v in made.items()}
            r = da.random.random((6, 6), chunks=3)
            rv = r.compute()
    for k, v in made.items():
        assert isinstance(v._meta, ember.ndarray), k
        assert isinstance(got[k], ember.ndarray) and str(got[k].device) == device, k
    np.testing.assert_array_equal(ember.asnumpy(got["ones"]), np.ones((5, 4)))
    np.testing.assert_array_equal(ember.asnumpy(got["zeros"]), np.zeros(7))
    np.testing.assert_array_equal(ember.asnumpy(got["full"]), np.full((3, 3), 2.5))
    np.testing.assert_array_equal(ember.asnumpy(got["arange"]), np.arange(10))
    assert got["empty"].shape == (4,)
    assert isinstance(r._meta, ember.ndarray) and isinstance(rv, ember.ndarray)
    v = ember.asnumpy(rv)
    assert v.shape == (6, 6) and (v >= 0).all() and (v < 1).all() and v.std() > 0.1


def test_conversions(device):
    h = np.arange(12.0).reshape(3, 4)
    with ember.Device(device):
        x = da.asarray(h, like=ember.empty(0))
        assert isinstance(x._meta, ember.ndarray)
        y = da.from_array(h, chunks=2).to_backend("ember")
        with dask.config.set(scheduler="sync"):
            _check(y.compute(), h, device)
            _check(x.compute(), h, device)
    back = y.to_backend("numpy")
    assert isinstance(back._meta, np.ndarray)
    out = back.compute(scheduler="sync")
    assert type(out) is np.ndarray
    np.testing.assert_array_equal(out, h)
    assert eda.meta(2).shape == (0, 0)


def test_chunk_error_names_devices():
    # a wrong chunk function fails the graph with ember's own error
    e = da.from_array(ember.arange(6.0), chunks=3)
    with pytest.raises(ValueError, match=r"shape|broadcast"):
        (e + da.from_array(ember.arange(4.0), chunks=2)).compute(scheduler="sync")


# --- the spilling store ------------------------------------------------------

def test_spill_map_honours_limit_and_keeps_values(device):
    m = DeviceSpillMap(device_memory_limit=1000)
    arrs = {f"k{i}": np.arange(50, dtype=np.float64) + i for i in range(6)}  # 400 B
    for k, v in arrs.items():
        m[k] = ember.asarray(v, device=device)
        assert m.device_bytes <= 1000
    assert m.device_bytes == 800 and len(m) == 6
    assert m.spilled_keys == {"k0", "k1", "k2", "k3"} and m.spills == 4
    for k, v in arrs.items():                      # each read brings it back
        got = m[k]
        assert isinstance(got, ember.ndarray) and str(got.device) == device
        np.testing.assert_array_equal(ember.asnumpy(got), v)
        assert m.device_bytes <= 1000
    # LRU: k0..k3 come back and push k4, k5 out, which then come back too
    assert m.unspills == 6 and set(m) == set(arrs)
    m["big"] = ember.zeros(200, device=device)     # 1600 B: straight to host
    assert "big" in m.spilled_keys and m.device_bytes <= 1000
    np.testing.assert_array_equal(ember.asnumpy(m["big"]), np.zeros(200))
    m["meta"] = {"not": "an array"}
    assert m["meta"] == {"not": "an array"} and "meta" not in m.spilled_keys
    del m["k5"], m["k0"], m["meta"]
    assert "k5" not in m and len(m) == 5 and m.device_bytes <= 1000
    with pytest.raises(KeyError):
        m["k5"]


def test_spill_map_bad_limit():
    with pytest.raises(ValueError, match="device_memory_limit must be >= 0"):
        DeviceSpillMap(-1)
    m = DeviceSpillMap("1 KiB")
    assert m.device_memory_limit == 1024


def test_plan_splits_cpus():
    assert ew.parse_cpulist("0-3,8,10-11\n") == [0, 1, 2, 3, 8, 10, 11]
    assert ew._even_split([0, 1, 2, 3, 4], 2) == [[0, 1, 2], [3, 4]]
    plan = ew.plan(2) if not ember.cuda.runtime.getDeviceCount() else ew.plan(1)
    allowed = set(__import__("os").sched_getaffinity(0))
    for entry in plan:
        assert entry["cpus"] and set(entry["cpus"]) <= allowed
    with pytest.raises(ValueError, match="n_workers"):
        ew.plan(0)


# --- clusters ----------------------------------------------------------------

def _two():
    """Two workers, or one per GPU on a host with fewer than two."""
    n = ember.cuda.runtime.getDeviceCount()
    return min(n, 2) if n else 2


def _cluster_roundtrip(client, device):
    h, e = _pair(device, shape=(40, 6), chunks=(10, 6))
    got = client.compute((e ** 2).sum()).result()
    _check(got, (h ** 2).sum().compute(), device)
    got = client.compute(e @ e.T).result()
    _check(got, (h @ h.T).compute(), device)


@pytest.fixture(scope="module")
def thread_cluster():
    with ed.LocalCluster(n_workers=_two(), processes=False,
                         device_memory_limit=2000) as c, distributed.Client(c) as cl:
        yield c, cl


def test_cluster_threads_runs_and_reports(thread_cluster):
    c, cl = thread_cluster
    where = ed.worker_devices(cl)
    assert len(where) == len(c.ember_plan) == _two()
    want = "cuda:0" if ember.cuda.runtime.getDeviceCount() else "cpu"
    devs = sorted(w["device"] for w in where.values())
    assert devs[0].startswith(want[:3])
    _cluster_roundtrip(cl, "cpu")


def test_cluster_spills_under_limit(thread_cluster):
    c, cl = thread_cluster
    h = _data((100, 10))                          # chunks of 10 rows: 800 B
    e = da.from_array(ember.asarray(h), chunks=(10, 10))
    kept = cl.persist(e + 1)
    distributed.wait(kept)
    got = cl.compute(kept.sum(axis=0)).result()
    np.testing.assert_allclose(ember.asnumpy(got), (h + 1).sum(axis=0), rtol=1e-12)
    stats = cl.run(lambda dask_worker: (dask_worker.data.device_bytes,
                                        dask_worker.data.device_memory_limit,
                                        dask_worker.data.spills))
    assert sum(s[2] for s in stats.values()) > 0          # something spilled
    for used, limit, _ in stats.values():
        assert used <= limit == 2000
    np.testing.assert_allclose(ember.asnumpy(kept.compute()), h + 1, rtol=1e-12)
    del kept


def test_cluster_processes():
    with ed.LocalCluster(n_workers=_two(), processes=True) as c, \
            distributed.Client(c) as cl:
        where = ed.worker_devices(cl)
        assert len(where) == _two()
        cpus = [tuple(w["cpus"]) for w in where.values()]
        planned = sorted(tuple(p["cpus"]) for p in c.ember_plan)
        if not ember.cuda.runtime.getDeviceCount():
            assert sorted(cpus) == planned          # each process pinned
        _cluster_roundtrip(cl, "cpu")


def test_cluster_places_persisted_chunks_evenly():
    # root tasks go to the workers up front in contiguous runs (worker
    # saturation inf): 16 chunks made on 2 workers of one thread each are
    # 8 and 8, in a few long runs of neighbours (one at a time, by
    # distributed's queuing, they go to whichever worker asks first)
    with ed.LocalCluster(n_workers=_two(), processes=False,
                         threads_per_worker=1) as c, distributed.Client(c) as cl:
        assert c.scheduler.WORKER_SATURATION == float("inf")
        with dask.config.set({"array.backend": "ember"}):
            x = da.random.random((4, 64), chunks=(4, 4))
        x = cl.persist(x)
        distributed.wait(x)
        owner = {k[2]: next(iter(w)) for k, w in cl.who_has(x).items()}
        runs = [owner[i] for i in range(16)]
        n = _two()
        assert sorted(Counter(runs).values()) == [16 // n] * n
        assert sum(a != b for a, b in zip(runs, runs[1:])) < 2 * n
        got = cl.compute((x ** 2).sum()).result()
        want = (ember.asnumpy(cl.compute(x).result()) ** 2).sum()
        assert float(got) == pytest.approx(want, rel=1e-12)
    with ed.LocalCluster(n_workers=1, processes=False,
                         worker_saturation=1.1) as c:
        assert c.scheduler.WORKER_SATURATION == 1.1


def test_sizeof_counts_device_bytes(device):
    from dask.sizeof import sizeof
    a = ember.ones((1000, 8), device=device)
    assert sizeof(a) == 64000
    assert sizeof(a[:10]) == 640
    df = ef.DataFrame({"a": ember.arange(100, device=device),
                       "b": ember.ones(100, dtype=ember.float32, device=device)})
    assert sizeof(df) == int(df.memory_usage().sum()) == 132 + 800 + 400
    assert sizeof(df["b"]) == df["b"].memory_usage() == 132 + 400


def test_cluster_bad_arguments():
    with pytest.raises(ValueError, match="device_memory_limit must be >= 0"):
        ed.LocalCluster(n_workers=1, processes=False, device_memory_limit=-5)
    with pytest.raises(ValueError, match="n_workers"):
        ed.LocalCluster(n_workers=0, processes=False)
    for bad in (0, -1.5, "many", True):
        with pytest.raises(ValueError, match="worker_saturation must be a number > 0"):
            ed.LocalCluster(n_workers=1, processes=False, worker_saturation=bad)


def test_cluster_one_worker_per_gpu(need_cuda):
    n = ember.cuda.runtime.getDeviceCount()
    uuids = {ember.Device(f"cuda:{i}").uuid for i in range(n)}
    with ed.LocalCluster(processes=True, device_memory_limit="64 MiB") as c, \
            distributed.Client(c) as cl:
        where = ed.worker_devices(cl)
        assert len(where) == n
        # each process sees its one GPU, by UUID, as cuda:0
        assert {w["device"] for w in where.values()} == {"cuda:0"}
        assert {w["uuid"] for w in where.values()} == uuids
        h = _data((4096, 256))
        e = da.from_array(h, chunks=(256, 256)).to_backend("ember")
        got = cl.compute((e ** 2).sum()).result()
        assert isinstance(got, ember.ndarray) and got.device.type == "cuda"
        np.testing.assert_allclose(float(got), (h ** 2).sum(), rtol=1e-10)
        kept = cl.persist(e * 2)
        distributed.wait(kept)
        for used, limit in cl.run(lambda dask_worker: (
                dask_worker.data.device_bytes,
                dask_worker.data.device_memory_limit)).values():
            assert used <= limit
    with pytest.raises(ValueError, match="GPU"):
        ed.LocalCluster(n_workers=n + 1)


@pytest.mark.parametrize("dtype", ["float64", "float32", "int8", "bool", "complex128"])
def test_tokens_and_device_digest(device, dtype):
    """dask's token of an ember chunk: equal for equal values made apart,
    different for a changed value, order, shape or dtype; the device
    digest behind it (NumPy's token on cpu) by the values' bits."""
    from dask.base import tokenize
    from ember.dask._hash import array_digest
    r = _data((6, 5))
    h = r > np.median(r) if dtype == "bool" else (r * 10).astype(dtype)
    changed = h.copy()
    changed[2, 3] = (not h[2, 3]) if dtype == "bool" else h[2, 3] + 1
    variants = [changed, h[::-1], h.reshape(5, 6), h.T.copy(), h[:5]]
    if dtype != "bool":
        variants.append(h.astype("float16" if dtype != "complex128" else "complex64"))
    from dask.tokenize import normalize_token
    with ember.Device(device):
        a, b = ember.asarray(h), ember.asarray(h.copy())
        assert normalize_token(a)[0] == "ember.ndarray"   # ours, not a pickle
        assert tokenize(a) == tokenize(b)
        toks = {tokenize(ember.asarray(v)) for v in variants}
        assert len(toks | {tokenize(a)}) == len(variants) + 1
        # the digest itself: by value and position, not by storage
        assert array_digest(a) == array_digest(ember.asarray(np.asfortranarray(h)))
        assert array_digest(a) != array_digest(ember.asarray(changed))
        assert array_digest(a) != array_digest(ember.asarray(h[::-1]))
        assert array_digest(ember.zeros(0)) == (0, 0)
