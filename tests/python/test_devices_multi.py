"""Several devices in one process: copies between every pair of GPUs (peer
or staged), operations across devices raising ValueError naming both, and
host threads working at once (one a GPU, or many on one device)."""
import numpy as np
import pytest

import ember
from helpers import in_threads


def _gpus():
    try:
        return ember.cuda.runtime.getDeviceCount()
    except Exception:
        return 0


def _need(n):
    if _gpus() < n:
        pytest.skip("needs at least %d GPUs" % n)


def _threads(n, fn):
    return in_threads(list(range(n)), fn)


MIXES = ["cpu", pytest.param("cuda", marks=pytest.mark.cuda)]


def _pair(kind):
    """Two different devices: cpu and cuda:0, or cuda:0 and cuda:1."""
    if kind == "cpu":
        _need(1)
        return "cpu", "cuda:0"
    _need(2)
    return "cuda:0", "cuda:1"


@pytest.mark.parametrize("kind", MIXES)
def test_ops_across_devices_name_both(kind):
    d0, d1 = _pair(kind)
    a = ember.arange(6, dtype=ember.float32, device=d0)
    b = ember.arange(6, dtype=ember.float32, device=d1)
    pat = r"%s.*%s|%s.*%s" % (d0, d1, d1, d0)
    for f in (lambda: a + b, lambda: ember.matmul(a, b),
              lambda: ember.concatenate([a, b]), lambda: ember.union1d(a, b),
              lambda: ember.searchsorted(a, b), lambda: ember.where(a > 2, a, b)):
        with pytest.raises(ValueError, match=pat):
            f()


@pytest.mark.cuda
def test_copies_between_every_pair_of_gpus():
    _need(2)
    n = _gpus()
    host = np.random.default_rng(0).standard_normal((257, 1031)).astype(np.float32)
    for i in range(n):
        x = ember.asarray(host, device="cuda:%d" % i)
        for j in range(n):
            if i == j:
                continue
            y = x.to_device("cuda:%d" % j)
            assert y.device == ember.Device("cuda:%d" % j)
            np.testing.assert_array_equal(y.get(), host)
            # strided source, and a cast on the way in
            z = ember.asarray(x[::2, 1::3], device="cuda:%d" % j)
            np.testing.assert_array_equal(z.get(), host[::2, 1::3])
            # assignment is an operation: arrays of two devices meet only
            # through an explicit copy (the error names both)
            w = ember.empty((257, 1031), dtype=ember.float64, device="cuda:%d" % j)
            with pytest.raises(ValueError, match="cuda:%d.*cuda:%d" % (i, j)):
                w[...] = x
            w[...] = x.to_device("cuda:%d" % j)    # and a cast on the way in
            np.testing.assert_array_equal(w.get(), host.astype(np.float64))


@pytest.mark.cuda
def test_one_thread_per_gpu():
    _need(2)
    n = _gpus()
    host = np.arange(1 << 20, dtype=np.float64)

    def work(i):
        with ember.Device("cuda:%d" % i):
            x = ember.asarray(host) * (i + 1)
            s = 0.0
            for _ in range(20):
                s = float((x * 2).sum())
            return s, x.device

    for i, (s, dev) in enumerate(_threads(n, work)):
        assert dev == ember.Device("cuda:%d" % i)
        assert s == host.sum() * 2 * (i + 1)


@pytest.mark.parametrize("device", ["cpu", pytest.param("cuda", marks=pytest.mark.cuda)])
def test_many_threads_on_one_device(device):
    if device == "cuda":
        _need(1)
    rng = np.random.default_rng(1)
    data = [rng.standard_normal(5000) for _ in range(8)]

    def work(i):
        with ember.Device(device):
            x = ember.asarray(data[i])
            out = []
            for k in range(15):
                out.append(float(ember.sum(x * k + i)))
            return out

    for i, got in enumerate(_threads(8, work)):
        want = [float(np.sum(data[i] * k + i)) for k in range(15)]
        np.testing.assert_allclose(got, want, rtol=1e-12)



_FREE_THREADED = r"""
import sys, threading, numpy as np, ember
assert not sys._is_gil_enabled(), "the GIL is on"
data = [np.random.default_rng(i).standard_normal(4096) for i in range(8)]
out = [None] * 8
def work(i):
    x = ember.asarray(data[i])
    out[i] = [float(ember.sum(x * k)) for k in range(10)]
ts = [threading.Thread(target=work, args=(i,)) for i in range(8)]
[t.start() for t in ts]; [t.join() for t in ts]
for i in range(8):
    np.testing.assert_allclose(out[i], [float(np.sum(data[i] * k)) for k in range(10)])
print("ok")
"""


def test_threads_on_free_threaded_python():
    import os
    import shutil
    import subprocess
    import sys
    exe = next((shutil.which(n) for n in ("python3.14t", "python3.13t")
                if shutil.which(n)), None)
    if exe is None:
        pytest.skip("no free-threaded Python (python3.13t/3.14t) on PATH")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path), PYTHON_GIL="0")
    probe = subprocess.run([exe, "-c", "import ember"], env=env,
                           capture_output=True, text=True)
    if probe.returncode:
        pytest.skip("ember is not built for %s" % exe)
    r = subprocess.run([exe, "-c", _FREE_THREADED], env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and "ok" in r.stdout, r.stdout + r.stderr
