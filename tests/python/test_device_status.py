"""Device.status(): the cpu's fields against /proc, and a GPU's against
the installed nvidia-ml-py (on the GPU machine), matched by UUID."""
import os

import pytest

import ember
from ember._api import device_status


def _proc_meminfo_kb(key):
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])


def test_cpu_memory_from_proc_meminfo():
    s = ember.Device("cpu").status()
    assert s.device == "cpu" and s["device"] == "cpu"
    assert s.memory_total == _proc_meminfo_kb("MemTotal") * 1024
    avail = _proc_meminfo_kb("MemAvailable") * 1024
    # memory moves between the two reads; a few MiB at most on a test box
    assert abs(s.memory_free - avail) < 256 << 20
    assert s.memory_used + s.memory_free == s.memory_total


def test_cpu_load_per_core():
    d = ember.Device("cpu")
    d.status()
    s = d.status()
    with open("/proc/stat") as f:
        cores = [line for line in f if line.startswith("cpu") and line[3].isdigit()]
    assert len(s.load_per_core) == len(cores)
    assert all(0.0 <= x <= 100.0 for x in s.load_per_core)
    assert 0.0 <= s.utilization_sm <= 100.0
    assert s.utilization_memory is None and s.processes is None


def test_cpu_fields_none_where_the_host_has_none():
    s = ember.Device("cpu").status()
    assert s.pcie_tx is None and s.ecc_corrected is None
    assert s.nvlink_tx is None and s.nvlink_rx is None
    thermal = [z for z in os.listdir("/sys/class/thermal")
               if z.startswith("thermal_zone")] if os.path.isdir("/sys/class/thermal") else []
    if not thermal:
        assert s.temperature is None
    else:
        assert s.temperature is None or -40 < s.temperature < 130
    if not device_status._rapl_energy():
        assert s.power is None and s.power_limit is None
    else:
        assert s.power is None or s.power >= 0
    assert set(s.keys()) == set(s.asdict())


def test_cpu_power_from_rapl_counters(monkeypatch):
    """Watts are the energy counters' difference over the time between two
    status() calls, the counter's wrap taken into account, summed over
    packages; the limit is the packages' constraint_0."""
    pkg0, pkg1 = "/sys/class/powercap/intel-rapl:0", "/sys/class/powercap/intel-rapl:1"
    samples = iter([(10.0, {"cpu": (0, 100)}, {pkg0: (1000000, 2000000), pkg1: (0, 0)}),
                    (12.0, {"cpu": (50, 200)}, {pkg0: (500000, 2000000),
                                                pkg1: (4000000, 0)})])
    monkeypatch.setattr(device_status, "_sample", lambda: next(samples))
    monkeypatch.setattr(device_status, "_last", None)
    monkeypatch.setattr(device_status, "_FIRST_INTERVAL", 0)
    monkeypatch.setattr(device_status, "_power_limit", lambda: 125.0)
    s = ember.Device("cpu").status()
    # package 0 wrapped: 2 J - 1 J + 0.5 J = 1.5 J; package 1: 4 J; over 2 s
    assert s.power == pytest.approx((1.5 + 4.0) / 2.0)
    assert s.power_limit == 125.0
    assert s.utilization_sm == pytest.approx(50.0)


def test_rapl_reader(monkeypatch):
    files = {"/sys/class/powercap/intel-rapl:0/energy_uj": "123\n",
             "/sys/class/powercap/intel-rapl:0/max_energy_range_uj": "1000\n",
             "/sys/class/powercap/intel-rapl:0/constraint_0_power_limit_uw": "65000000\n"}
    monkeypatch.setattr(device_status, "_read", files.get)
    monkeypatch.setattr(device_status.glob, "glob", lambda p: [
        "/sys/class/powercap/intel-rapl:0", "/sys/class/powercap/intel-rapl:0:0"])
    assert device_status._rapl_energy() == {
        "/sys/class/powercap/intel-rapl:0": (123, 1000)}
    assert device_status._power_limit() == 65.0


def _gpu_devices():
    try:
        n = ember._ember._cuda_device_count()
    except Exception:
        n = 0
    return [ember.Device("cuda:%d" % i) for i in range(n)]


@pytest.mark.skipif(not _gpu_devices(), reason="no GPU")
def test_gpu_status_against_nvidia_ml_py():
    pynvml = pytest.importorskip("pynvml")
    pynvml.nvmlInit()
    try:
        for d in _gpu_devices():
            s = d.status()
            h = pynvml.nvmlDeviceGetHandleByUUID("GPU-" + d.uuid)
            name = pynvml.nvmlDeviceGetName(h)
            assert s.name == (name.decode() if isinstance(name, bytes) else name)
            assert s.memory_total == pynvml.nvmlDeviceGetMemoryInfo(h).total
            assert 0 <= s.utilization_sm <= 100
            assert s.power_limit == pynvml.nvmlDeviceGetPowerManagementLimit(h) / 1000.0
            assert isinstance(s.processes, list)
    finally:
        pynvml.nvmlShutdown()


@pytest.mark.skipif(not _gpu_devices(), reason="no GPU")
def test_gpu_nvlink_against_nvidia_ml_py():
    """NVLink's fields read the same through ember.nvml and nvidia-ml-py,
    and status() gives rates exactly where nvidia-ml-py's fields answer."""
    pynvml = pytest.importorskip("pynvml")
    from ember import nvml
    pynvml.nvmlInit()
    nvml.nvmlInit()
    try:
        for d in _gpu_devices():
            ids = [(pynvml.NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX, 0xFFFFFFFF),
                   (pynvml.NVML_FI_DEV_NVLINK_LINK_COUNT, 0)]
            theirs = pynvml.nvmlDeviceGetFieldValues(
                pynvml.nvmlDeviceGetHandleByUUID("GPU-" + d.uuid), ids)
            mine = nvml.nvmlDeviceGetFieldValues(
                nvml.nvmlDeviceGetHandleByUUID("GPU-" + d.uuid), ids)
            assert [f.nvmlReturn for f in mine] == [f.nvmlReturn for f in theirs]
            if theirs[1].nvmlReturn == 0:
                assert mine[1].value.uiVal == theirs[1].value.uiVal
            if theirs[0].nvmlReturn == 0:
                assert mine[0].value.ullVal >= theirs[0].value.ullVal   # a counter
            s = d.status()
            if theirs[0].nvmlReturn == 0:
                assert s.nvlink_tx is not None and s.nvlink_tx >= 0
            else:
                assert s.nvlink_tx is None and s.nvlink_rx is None
            assert s.pcie_tx is None or s.pcie_tx >= 0
    finally:
        nvml.nvmlShutdown()
        pynvml.nvmlShutdown()
