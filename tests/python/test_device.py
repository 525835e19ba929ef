import threading

import pytest

import ember

from conftest import HAVE_CUDA


def test_parse_cpu():
    d = ember.Device("cpu")
    assert d.type == "cpu" and d.id == 0
    assert str(d) == "cpu"
    assert repr(d) == "<ember.Device cpu>"
    assert d == ember.Device("cpu") and hash(d) == hash(ember.Device("cpu"))
    assert ember.Device(d) is d


def test_parse_cuda_specs(need_cuda):
    assert ember.Device("cuda") == ember.Device("cuda:0") == ember.Device(0)
    assert ember.Device("gpu:0") == ember.Device("cuda:0")
    d = ember.Device(0)
    assert (d.type, d.id, str(d), repr(d)) == ("cuda", 0, "cuda:0", "<ember.Device cuda:0>")
    assert d != ember.Device("cpu")


@pytest.mark.parametrize("spec", ["tpu", "cuda:x", "", "cpu:1x"])
def test_bad_spec_is_value_error(spec):
    with pytest.raises(ValueError):
        ember.Device(spec)


def test_bad_ordinals():
    with pytest.raises((ValueError, ember.BackendUnavailableError)):
        ember.Device("cuda:99")
    with pytest.raises((ValueError, ember.BackendUnavailableError)):
        ember.Device(99)
    with pytest.raises(ValueError):
        ember.Device(-1)


@pytest.mark.parametrize("spec", [1.5, b"cpu", [0], True])
def test_bad_spec_type(spec):
    with pytest.raises(TypeError):
        ember.Device(spec)


def test_cuda_without_gpu_says_why():
    if HAVE_CUDA:
        pytest.skip("a GPU is present")
    with pytest.raises((ember.BackendUnavailableError, ValueError)) as e:
        ember.Device("cuda:0")
    assert str(e.value)


def test_current_and_default():
    cur = ember.get_current_device()
    assert ember.Device() == cur == ember.Device(None) == ember.get_device()
    assert ember.default_device() == cur      # nothing has changed it yet
    if not HAVE_CUDA:
        assert cur == ember.Device("cpu")


def test_properties(dev):
    p = dev.properties
    for key in ("name", "multiProcessorCount", "totalGlobalMem", "maxThreadsPerBlock",
                "warpSize", "sharedMemPerBlock", "l2CacheSize", "maxThreadsDim",
                "maxGridSize", "major", "minor", "clockRate", "regsPerBlock"):
        assert key in p, key
    assert p["name"] == dev.name and isinstance(dev.name, str) and dev.name
    assert p["maxThreadsPerBlock"] >= 1 and p["multiProcessorCount"] >= 1
    assert p["totalGlobalMem"] > 0
    assert len(p["maxThreadsDim"]) == 3 and len(p["maxGridSize"]) == 3
    a = dev.attributes
    assert a["MultiProcessorCount"] == p["multiProcessorCount"]
    assert a["MaxThreadsPerBlock"] == p["maxThreadsPerBlock"]
    cc = dev.compute_capability
    assert cc == (p["major"], p["minor"]) and (cc.major, cc.minor) == tuple(cc)
    if dev.type == "cpu":
        # arch on cpu: a digest of the CPU's model and flags (cache keys).
        assert cc == (0, 0) and p["warpSize"] == 1 and dev.arch >= 0
    else:
        assert cc.major >= 5 and p["warpSize"] == 32
        assert dev.arch == 10 * cc.major + cc.minor
        # CuPy's dict holds the name as bytes
        assert ember.cuda.runtime.getDeviceProperties(dev.id)["name"].decode() == dev.name


def test_mem_info(dev):
    free, total = dev.mem_info()
    assert 0 < free <= total
    assert total == dev.properties["totalGlobalMem"]


def test_synchronize(dev):
    dev.synchronize()


def test_with_device_restores(device):
    before = ember.get_current_device()
    with ember.Device(device) as d:
        assert ember.get_current_device() == d == ember.Device(device)
        with ember.Device("cpu"):
            assert ember.get_current_device() == ember.Device("cpu")
        assert ember.get_current_device() == d
    assert ember.get_current_device() == before


def test_with_device_restores_stream(device):
    s = ember.Stream(device=device)
    with s:
        assert ember.get_current_stream() is s
        with ember.Device(device):
            # entering the stream's own device keeps it current, as CuPy's
            # per-device current stream and torch.cuda.device do
            assert ember.get_current_stream() is s
        other = "cpu" if str(device) != "cpu" else None
        if other:
            with ember.Device(other):
                # another device: that device's default stream
                assert ember.get_current_stream().ptr == 0
        assert ember.get_current_stream() is s
    assert ember.get_current_stream() != s


def test_unbalanced_exit():
    with pytest.raises(RuntimeError):
        ember.Device("cpu").__exit__(None, None, None)


def test_use(need_cuda):
    before = ember.get_current_device()
    try:
        ember.Device("cuda:0").use()
        assert ember.get_current_device() == ember.Device("cuda:0")
        assert ember.cuda.runtime.getDevice() == 0
        ember.Device("cpu").use()
        assert ember.get_current_device() == ember.Device("cpu")
    finally:
        before.use()


def test_threads_have_their_own_device(need_cuda):
    main_before = ember.get_current_device()
    other = ember.Device("cpu") if main_before.type == "cuda" else ember.Device("cuda:0")
    seen = {}
    entered = threading.Event()
    release = threading.Event()

    def worker():
        other.use()
        seen["worker"] = ember.get_current_device()
        entered.set()
        release.wait(10)

    t = threading.Thread(target=worker)
    t.start()
    assert entered.wait(10)
    assert ember.get_current_device() == main_before
    release.set()
    t.join()
    assert seen["worker"] == other


def test_threads_have_their_own_stream(device):
    s = ember.Stream(device=device)
    seen = {}

    def worker():
        seen["worker"] = ember.get_current_stream()

    with ember.Device(device), s:
        t = threading.Thread(target=worker)
        t.start()
        t.join()
        assert ember.get_current_stream() is s
    assert seen["worker"] is not s and seen["worker"].ptr == 0


def test_runtime_module():
    rt = ember.cuda.runtime
    import ember.cuda.runtime as rt2
    assert rt2 is rt
    n = rt.getDeviceCount()
    assert isinstance(n, int) and n >= 0
    assert (n > 0) == HAVE_CUDA
    assert isinstance(rt.driverGetVersion(), int)
    assert isinstance(rt.runtimeGetVersion(), int)
    assert ember.cuda.is_available() == (n > 0)
    if n == 0:
        # Without a GPU, ordinal 0 is the cpu device (a one-GPU program runs
        # unchanged); other ordinals still fail.
        assert rt.getDeviceProperties(0)["name"].decode() == ember.Device("cpu").name
        assert rt.getDevice() == 0
        with pytest.raises((ember.BackendUnavailableError, ValueError)):
            rt.getDeviceProperties(1)
        with pytest.raises((ember.BackendUnavailableError, ValueError)):
            rt.setDevice(1)
    else:
        assert rt.getDeviceProperties(0)["totalGlobalMem"] > 0
        rt.deviceSynchronize()
    with pytest.raises(TypeError):
        rt.getDeviceProperties("0")
    with pytest.raises(ValueError):
        rt.setDevice(-1)


def test_backend_status():
    assert ember.backend_status("cpu") == "ok"
    assert (ember.backend_status("cuda") == "ok") == HAVE_CUDA
    with pytest.raises(ValueError):
        ember.backend_status("tpu")
