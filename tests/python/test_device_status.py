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


def test_cpu_temperature_and_power_from_fake_sysfs(monkeypatch):
    """RAPL energy counters two samples apart give watts, with the
    counter's wrap taken into account."""
    reads = {"/sys/class/powercap/intel-rapl:0/energy_uj": ["1000000", "500000"],
             "/sys/class/powercap/intel-rapl:0/max_energy_range_uj": ["2000000"] * 2}
    calls = {}

    def fake_read(path):
        v = reads.get(path)
        if v is None:
            return None
        i = calls.get(path, 0)
        calls[path] = i + 1
        return v[min(i, len(v) - 1)]
    monkeypatch.setattr(device_status, "_read", fake_read)
    monkeypatch.setattr(device_status.glob, "glob",
                        lambda p: ["/sys/class/powercap/intel-rapl:0"]
                        if "powercap" in p else [])
    e0 = device_status._rapl_energy()
    e1 = device_status._rapl_energy()
    assert e0["/sys/class/powercap/intel-rapl:0"] == (1000000, 2000000)
    assert e1["/sys/class/powercap/intel-rapl:0"][0] == 500000


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
