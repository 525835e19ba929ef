"""ember.distributed: every collective and op against NumPy, with 1-4 thread
ranks and 2 process ranks on cpu; the cuda parametrization runs on every
visible GPU (skipped with fewer than 2)."""
import os
import subprocess
import sys

import numpy as np
import pytest

import ember
import ember.distributed as dist
from helpers import in_threads

OPS = {"sum": np.sum, "prod": np.prod, "max": np.max, "min": np.min}


def _gpus():
    try:
        return ember.cuda.runtime.getDeviceCount()
    except Exception:
        return 0


def _devices(kind, n):
    if kind == "cpu":
        return ["cpu"] * n
    if _gpus() < 2:
        pytest.skip("needs at least 2 GPUs")
    return ["cuda:%d" % i for i in range(_gpus())]


@pytest.fixture
def init_all():
    """dist.init_all whose communicators are destroyed after the test (NCCL's
    hold threads and GPU memory until then)."""
    made = []

    def make(devices):
        cs = dist.init_all(devices)
        made.extend(cs)
        return cs

    yield make
    for c in made:
        c.destroy()


def _on_ranks(comms, fn):
    """fn(comm) on a thread per rank, its device current; results in rank
    order."""
    def work(c):
        with ember.Device(c.device):
            return fn(c)
    return in_threads(sorted(comms, key=lambda c: c.rank), work)


def _data(rank, shape, dtype):
    rng = np.random.default_rng(rank + 7)
    if np.dtype(dtype).kind == "f":
        return rng.uniform(0.5, 2, shape).astype(dtype)
    return rng.integers(-3 if np.dtype(dtype).kind == "i" else 0, 4,
                        shape).astype(dtype)


def _check(got, want):
    got = np.asarray(got.to_device("cpu"))
    if got.dtype.kind == "f":
        np.testing.assert_allclose(got, want, rtol=1e-5 if got.itemsize > 2 else 1e-2)
    else:
        np.testing.assert_array_equal(got, want)


DEVICES = ["cpu", pytest.param("cuda", marks=pytest.mark.cuda)]


@pytest.mark.parametrize("kind", DEVICES)
@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_collectives_thread_ranks(init_all, kind, n):
    comms = init_all(_devices(kind, n))
    n = len(comms)
    shape = (n * 3, 2)
    xs = [_data(r, shape, "float32") for r in range(n)]
    ints = [_data(r, shape, "int64") for r in range(n)]

    def run(c):
        x = ember.asarray(xs[c.rank], device=c.device)
        i = ember.asarray(ints[c.rank], device=c.device)
        r = {op: c.all_reduce(x, op=op) for op in OPS}
        r["avg"] = c.all_reduce(x, op="avg")
        r["iavg"] = c.all_reduce(i, op=dist.ReduceOp.AVG)
        r["isum"] = c.all_reduce(i)
        r["reduce"] = c.reduce(x, op="max", root=n - 1)
        b = ember.array(xs[c.rank], device=c.device, copy=True)
        r["bcast"] = c.broadcast(b, root=n // 2)
        r["gather"] = c.all_gather(i)
        r["rs"] = c.reduce_scatter(x.reshape(n, -1), op="min")
        r["a2a"] = c.all_to_all(i.reshape(-1))
        inplace = ember.array(ints[c.rank], device=c.device, copy=True)
        r["inplace"] = c.all_reduce(inplace, inplace, op="prod")
        assert r["inplace"] is inplace
        return r

    res = _on_ranks(comms, run)
    X, I = np.stack(xs), np.stack(ints)
    for rank, r in enumerate(res):
        for op, f in OPS.items():
            _check(r[op], f(X, axis=0))
        _check(r["avg"], X.mean(axis=0))
        _check(r["iavg"], np.trunc(I.sum(axis=0) / n).astype(np.int64))
        _check(r["isum"], I.sum(axis=0))
        if rank == n - 1:
            _check(r["reduce"], X.max(axis=0))
        else:
            assert r["reduce"] is None
        _check(r["bcast"], xs[n // 2])
        _check(r["gather"], I)
        _check(r["rs"], X.reshape(n, n, -1)[:, rank].min(axis=0))
        flat = I.reshape(n, n, -1)
        _check(r["a2a"], flat[:, rank].reshape(-1))
        _check(r["inplace"], I.prod(axis=0))


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int32", "uint32",
                                   "uint64", "float16", "float64"])
def test_dtypes_thread_ranks(dtype):
    comms = dist.init_all(["cpu"] * 2)
    xs = [_data(r, (5,), dtype) for r in range(2)]
    res = _on_ranks(comms, lambda c: c.all_reduce(ember.asarray(xs[c.rank]),
                                                  op="sum"))
    for r in res:
        assert r.dtype == ember.dtype(dtype)
        _check(r, (xs[0] + xs[1]).astype(dtype))


@pytest.mark.parametrize("kind", DEVICES)
def test_send_recv_ring_grouped(init_all, kind):
    comms = init_all(_devices(kind, 3))
    n = len(comms)

    def run(c):
        out = ember.empty((4, 2), dtype=ember.float64, device=c.device)
        # every rank receives first: only the group keeps this from hanging
        with dist.group():
            c.recv(out, (c.rank - 1) % n)
            c.send(ember.full((4, 2), c.rank + 0.5, dtype=ember.float64,
                              device=c.device), (c.rank + 1) % n)
        return out

    for rank, r in enumerate(_on_ranks(comms, run)):
        _check(r, np.full((4, 2), (rank - 1) % n + 0.5))


@pytest.mark.parametrize("kind", DEVICES)
def test_one_thread_drives_all_ranks_in_a_group(init_all, kind):
    comms = init_all(_devices(kind, 2))
    xs = [ember.asarray(_data(c.rank, (6,), "float32"), device=c.device)
          for c in comms]
    dist.group_start()
    outs = [c.all_reduce(x) for c, x in zip(comms, xs)]
    dist.group_end()
    want = sum(np.asarray(x.to_device("cpu")) for x in xs)
    for o in outs:
        _check(o, want)


def test_bad_inputs():
    # cpu ranks, their arrays on cpu whatever the default device
    with ember.Device("cpu"):
        _bad_inputs()


def _bad_inputs():
    c0, c1 = dist.init_all(["cpu", "cpu"])
    x = ember.arange(6, dtype=ember.float32)
    with pytest.raises(TypeError, match="dtype complex64"):
        c0.all_reduce(x.astype(ember.complex64))
    with pytest.raises(TypeError, match="dtype int16"):
        c0.all_reduce(x.astype(ember.int16))
    with pytest.raises(ValueError, match="unknown reduction op 'mean'"):
        c0.all_reduce(x, op="mean")
    with pytest.raises(ValueError, match=r"shape \(5,\) .*6 are needed"):
        c0.all_reduce(x, ember.empty(5, dtype=ember.float32))
    with pytest.raises(TypeError, match="float64 differs from sendbuf's float32"):
        c0.all_reduce(x, ember.empty(6, dtype=ember.float64))
    with pytest.raises(ValueError, match="root 2 is out of range for 2 ranks"):
        c0.broadcast(x, root=2)
    with pytest.raises(ValueError, match="peer -1 is out of range"):
        c0.send(x, -1)
    with pytest.raises(ValueError, match=r"shape \(5,\) .*split into 2"):
        c0.reduce_scatter(x[:5])
    with pytest.raises(ValueError, match="C-contiguous"):
        c0.all_reduce(x, ember.empty(12, dtype=ember.float32)[::2])
    with pytest.raises(ValueError, match="rank 2 is out of range for 2 ranks"):
        dist.Communicator(2, dist.get_unique_id(), 2)
    with pytest.raises(ValueError, match="not made by ember"):
        dist.Communicator(2, b"\0" * 128, 1)
    with pytest.raises(TypeError, match="expected an ember.ndarray"):
        c0.all_reduce(np.zeros(3, np.float32))
    with pytest.raises(RuntimeError, match="group_end"):
        dist.group_end()
    c1.destroy()
    with pytest.raises(RuntimeError, match="destroyed communicator"):
        c1.all_reduce(x)


def test_mismatched_calls_raise_on_every_rank():
    comms = dist.init_all(["cpu"] * 2)

    def run(c):
        x = ember.zeros(4 + c.rank, dtype=ember.float32)
        try:
            c.all_reduce(x)
        except ValueError as e:
            return str(e)

    msgs = _on_ranks(comms, run)
    assert msgs[0] == msgs[1]
    assert "rank 0: all_reduce of 4 float32" in msgs[0]
    assert "rank 1: all_reduce of 5 float32" in msgs[0]


def test_recv_size_mismatch():
    comms = dist.init_all(["cpu"] * 2)

    def run(c):
        if c.rank == 0:
            c.send(ember.zeros(3, dtype=ember.int32), 1)
            return None
        with pytest.raises(ValueError, match="3 elements of int32 but the "
                           "buffer holds 4 of int32"):
            c.recv(ember.empty(4, dtype=ember.int32), 0)
        return True

    assert _on_ranks(comms, run)[1]


def test_device_mismatch_names_both():
    if _gpus() < 1:
        pytest.skip("needs a GPU")
    c0, = dist.init_all(["cpu"])
    with pytest.raises(ValueError, match="cuda:0 but the communicator is on cpu"):
        c0.all_reduce(ember.zeros(3, device="cuda:0"))


def test_nccl_env_default():
    assert os.environ.get("NCCL_NVLS_ENABLE") is not None


_WORKER = r"""
import sys, numpy as np, ember, ember.distributed as dist
n, rank, uid = int(sys.argv[1]), int(sys.argv[2]), bytes.fromhex(sys.argv[3])
dev = "cpu" if sys.argv[4] == "cpu" else "cuda:%d" % rank
ember.Device(dev).use()
c = dist.Communicator(n, uid, rank, dev)
rng = lambda r: np.random.default_rng(r).uniform(0.5, 2, 1000).astype(np.float32)
X = np.stack([rng(r) for r in range(n)])
x = ember.asarray(X[rank])
def same(a, b):
    np.testing.assert_allclose(a.get(), b, rtol=1e-5)
same(c.all_reduce(x), X.sum(0))
same(c.all_reduce(x, op="max"), X.max(0))
same(c.all_reduce(x, op="avg"), X.mean(0))
r = c.reduce(x, op="prod", root=1)
if rank == 1: same(r, X.prod(0))
same(c.broadcast(ember.array(X[rank], copy=True), root=1), X[1])
same(c.all_gather(x), X)
same(c.reduce_scatter(x), X.reshape(n, n, -1)[:, rank].sum(0))
same(c.all_to_all(x), X.reshape(n, n, -1)[:, rank].reshape(-1))
out = ember.empty(1000, dtype=ember.float32)
with dist.group():
    c.send(x, (rank + 1) % n)
    c.recv(out, (rank - 1) % n)
same(out, X[(rank - 1) % n])
if dev == "cpu":   # NCCL itself hangs on a mismatch
    try:
        c.all_reduce(ember.zeros(3 + rank, dtype=ember.float32))
        sys.exit("no error")
    except ValueError as e:
        assert "do not match" in str(e), e
c.destroy()
print("ok", rank)
"""


@pytest.mark.parametrize("kind", DEVICES)
def test_process_ranks(kind):
    n = 2
    if kind == "cuda":
        _devices(kind, n)   # skips below 2 GPUs
    uid = dist.get_unique_id("cpu" if kind == "cpu" else "cuda:0")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path),
               EMBER_DIST_SLOT_BYTES="1024", EMBER_DIST_TIMEOUT="60")
    ps = [subprocess.Popen([sys.executable, "-c", _WORKER, str(n), str(r),
                            uid.hex(), kind], env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
          for r in range(n)]
    outs = [p.communicate(timeout=120)[0] for p in ps]
    for r, (p, o) in enumerate(zip(ps, outs)):
        assert p.returncode == 0, o
        assert "ok %d" % r in o
    if kind == "cpu":
        assert not os.path.exists("/dev/shm/ember-dist-" + uid[14:46].decode())


def test_missing_nccl_names_library_and_package():
    rows = {r[0]: r for r in ember._ember._vendor_libs()}
    if rows["NCCL"][1] is not None:
        pytest.skip("NCCL is installed here")
    with pytest.raises(ember.BackendUnavailableError,
                       match=r"NCCL \(libnccl.so.2\) not found.*pip install "
                             r"nvidia-nccl-cu12"):
        ember._ember._nccl_unique_id()


@pytest.mark.cuda
def test_nccl_process_style_init_and_errors():
    if _gpus() < 2:
        pytest.skip("needs at least 2 GPUs")
    uid = dist.get_unique_id("cuda:0")
    assert isinstance(uid, bytes) and len(uid) == 128
    with pytest.raises(ValueError, match="not made by get_unique_id on a cuda"):
        dist.Communicator(2, dist.get_unique_id("cpu"), 0, "cuda:0")
    with pytest.raises(ValueError, match="devices of one kind"):
        dist.init_all(["cpu", "cuda:0"])
    c0, c1 = dist.init_all(["cuda:0", "cuda:1"])
    with pytest.raises(ValueError, match="is on cuda:1 but the communicator "
                                         "is on cuda:0"):
        c0.all_reduce(ember.zeros(3, device="cuda:1"))
    with pytest.raises(TypeError, match="dtype bool"):
        c0.all_reduce(ember.zeros(3, dtype=ember.bool_, device="cuda:0"))
    with ember.Device("cuda:1"):
        s1 = ember.Stream()
    with pytest.raises(ValueError, match="the stream is on cuda:1 but the "
                                         "communicator is on cuda:0"):
        c0.all_reduce(ember.zeros(3, device="cuda:0"), stream=s1)
    c0.destroy()
    c1.destroy()
    with pytest.raises(RuntimeError, match="destroyed"):
        c0.all_reduce(ember.zeros(3, device="cuda:0"))


@pytest.mark.parametrize("kind", DEVICES)
def test_cupy_nccl_spelling(kind):
    from ember.cuda import nccl
    comms = nccl.NcclCommunicator.initAll(_devices(kind, 2))
    n = len(comms)
    assert [c.rank_id() for c in comms] == list(range(n))
    assert comms[0].size() == n
    xs = [_data(r, (8,), "float32") for r in range(n)]

    def run(c):
        r = c.rank_id()
        dev = "cpu" if kind == "cpu" else "cuda:%d" % c.device_id()
        x = ember.asarray(xs[r], device=dev)
        y = ember.empty(8, dtype=ember.float32, device=dev)
        g = ember.empty(8 * n, dtype=ember.float32, device=dev)
        if kind == "cpu":
            c.allReduce(x, y, 8, nccl.NCCL_FLOAT32, nccl.NCCL_MAX, 0)
            c.allGather(x, g, 8, nccl.NCCL_FLOAT32, 0)
        else:   # CuPy passes device pointers
            c.allReduce(x.data.ptr, y.data.ptr, 8, nccl.NCCL_FLOAT32,
                        nccl.NCCL_MAX, 0)
            c.allGather(x.data.ptr, g.data.ptr, 8, nccl.NCCL_FLOAT32, 0)
        return y, g

    X = np.stack(xs)
    for y, g in _on_ranks([_Rank(c, kind) for c in comms], lambda rc: run(rc.c)):
        _check(y, X.max(axis=0))
        _check(g, X.reshape(-1))
    if kind == "cpu":
        with pytest.raises(TypeError, match="device pointers need a "
                                            "communicator on a cuda device"):
            comms[0].allReduce(1234, 5678, 8, nccl.NCCL_FLOAT32, 0, 0)
        with pytest.raises(ValueError, match="count 9 but the array has shape"):
            comms[0].allReduce(ember.zeros(8, dtype=ember.float32), None, 9,
                               nccl.NCCL_FLOAT32, 0, 0)
    uid = nccl.get_unique_id()
    assert len(uid) == 128 and all(-128 <= b < 128 for b in uid)
    for c in comms:
        c.destroy()


class _Rank:
    """A CuPy communicator seen as _on_ranks expects (rank, device)."""

    def __init__(self, c, kind):
        self.c, self.rank = c, c.rank_id()
        self.device = "cpu" if kind == "cpu" else "cuda:%d" % c.device_id()


@pytest.mark.parametrize("kind", DEVICES)
def test_stream_argument(init_all, kind):
    comms = init_all(_devices(kind, 2))

    def run(c):
        s = ember.Stream()
        with s:     # the input is made on s too, so s orders it before the call
            x = ember.full(1000, c.rank + 1.0, device=c.device)
        out = c.all_reduce(x, op="prod", stream=s)
        s.synchronize()
        return out

    want = float(np.prod(np.arange(1, len(comms) + 1)))
    for r in _on_ranks(comms, run):
        _check(r, np.full(1000, want))


def test_user_nvls_setting_wins():
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    env.pop("NCCL_NVLS_ENABLE", None)
    show = "import ember.distributed; print(os.environ['NCCL_NVLS_ENABLE'])"
    for pre, want in (("os.environ['NCCL_NVLS_ENABLE'] = '1'; ", "1"), ("", "0")):
        r = subprocess.run([sys.executable, "-c", "import os; " + pre + show],
                           env=env, capture_output=True, text=True)
        assert r.stdout.strip() == want, r.stderr


@pytest.mark.parametrize("kind", DEVICES)
def test_strided_send_buffers(init_all, kind):
    comms = init_all(_devices(kind, 2))
    n = len(comms)
    xs = [_data(r, (6, 4), "float64") for r in range(n)]

    def run(c):
        s = ember.Stream(non_blocking=True)
        # x is made on s too: a host-to-device copy returns while its DMA
        # still runs on the stream it was issued on, and a non-blocking s
        # is ordered after another stream's work only when told (on 2 GPUs
        # the strided copies below could read x before it had arrived).
        # Both collectives on s: one communicator's calls in one order.
        with s:
            x = ember.asarray(xs[c.rank], device=c.device)
        out = c.all_reduce(x[:, ::2], op="sum", stream=s)   # a copy on s
        g = c.all_gather(x.T, stream=s)
        s.synchronize()
        return out, g

    X = np.stack(xs)
    for out, g in _on_ranks(comms, run):
        _check(out, X[:, :, ::2].sum(axis=0))
        _check(g, np.stack([x.T for x in xs]))
