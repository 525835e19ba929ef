"""ember.nvml: pynvml's names over the driver's NVML, opened on first use.
Without NVML (CI) every name raises pynvml's NVMLError_LibraryNotFound; on
the GPU machine the values equal the installed nvidia-ml-py's."""
import subprocess
import sys

import pytest

import ember
from ember import nvml


def _have_nvml():
    try:
        nvml.nvmlInit()
    except nvml.NVMLError:
        return False
    nvml.nvmlShutdown()
    return True


HAVE_NVML = _have_nvml()
needs_nvml = pytest.mark.skipif(not HAVE_NVML, reason="no NVML (no NVIDIA driver)")
no_nvml = pytest.mark.skipif(HAVE_NVML, reason="NVML is present")


def test_import_does_not_open_nvml():
    code = ("import ember, sys; from ember import _ember; "
            "sys.exit(1 if _ember._nvml_loaded() else 0)")
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0


def test_error_classes_are_pynvmls():
    e = nvml.NVMLError(nvml.NVML_ERROR_NOT_SUPPORTED)
    assert type(e) is nvml.NVMLError_NotSupported and isinstance(e, nvml.NVMLError)
    assert e.value == 3 and str(e) == "Not Supported"
    for code, cls in ((1, nvml.NVMLError_Uninitialized),
                      (2, nvml.NVMLError_InvalidArgument),
                      (4, nvml.NVMLError_NoPermission), (6, nvml.NVMLError_NotFound),
                      (12, nvml.NVMLError_LibraryNotFound),
                      (13, nvml.NVMLError_FunctionNotFound),
                      (999, nvml.NVMLError_Unknown)):
        assert type(nvml.NVMLError(code)) is cls
    assert nvml.NVMLError(12) == nvml.NVMLError_LibraryNotFound(12)
    assert ember.nvml is nvml


CALLS = [
    ("nvmlInit", ()), ("nvmlShutdown", ()), ("nvmlDeviceGetCount", ()),
    ("nvmlDeviceGetHandleByIndex", (0,)), ("nvmlSystemGetDriverVersion", ()),
    ("nvmlDeviceGetName", (1,)), ("nvmlDeviceGetUUID", (1,)),
    ("nvmlDeviceGetMemoryInfo", (1,)), ("nvmlDeviceGetUtilizationRates", (1,)),
    ("nvmlDeviceGetTemperature", (1, nvml.NVML_TEMPERATURE_GPU)),
    ("nvmlDeviceGetPowerUsage", (1,)), ("nvmlDeviceGetPowerManagementLimit", (1,)),
    ("nvmlDeviceGetClockInfo", (1, nvml.NVML_CLOCK_SM)),
    ("nvmlDeviceGetComputeRunningProcesses", (1,)), ("nvmlDeviceGetPciInfo", (1,)),
]


@no_nvml
@pytest.mark.parametrize("name,args", CALLS, ids=[c[0] for c in CALLS])
def test_missing_library_is_library_not_found(name, args):
    with pytest.raises(nvml.NVMLError_LibraryNotFound) as ei:
        getattr(nvml, name)(*args)
    assert isinstance(ei.value, nvml.NVMLError)
    assert ei.value.value == nvml.NVML_ERROR_LIBRARY_NOT_FOUND
    assert "NVIDIA driver" in str(ei.value)


@no_nvml
def test_tutorial_program_fails_cleanly():
    """A pynvml tutorial's first lines after the import change: the only
    failure is the library's absence, at the first call."""
    import ember.nvml as pynvml
    with pytest.raises(pynvml.NVMLError_LibraryNotFound):
        pynvml.nvmlInit()


@pytest.fixture
def both():
    pynvml = pytest.importorskip("pynvml")
    pynvml.nvmlInit()
    nvml.nvmlInit()
    yield pynvml
    nvml.nvmlShutdown()
    pynvml.nvmlShutdown()


@needs_nvml
def test_values_equal_nvidia_ml_py(both):
    pynvml = both
    assert nvml.nvmlDeviceGetCount() == pynvml.nvmlDeviceGetCount()
    drv = pynvml.nvmlSystemGetDriverVersion()
    assert nvml.nvmlSystemGetDriverVersion() == (drv.decode() if isinstance(drv, bytes)
                                                 else drv)
    for i in range(nvml.nvmlDeviceGetCount()):
        h, p = nvml.nvmlDeviceGetHandleByIndex(i), pynvml.nvmlDeviceGetHandleByIndex(i)
        name, uuid = pynvml.nvmlDeviceGetName(p), pynvml.nvmlDeviceGetUUID(p)
        assert nvml.nvmlDeviceGetName(h) == (name.decode() if isinstance(name, bytes)
                                             else name)
        assert nvml.nvmlDeviceGetUUID(h) == (uuid.decode() if isinstance(uuid, bytes)
                                             else uuid)
        assert nvml.nvmlDeviceGetMemoryInfo(h).total == \
            pynvml.nvmlDeviceGetMemoryInfo(p).total
        m2 = nvml.nvmlDeviceGetMemoryInfo(h, version=nvml.nvmlMemory_v2)
        assert m2.total == pynvml.nvmlDeviceGetMemoryInfo(p).total
        assert nvml.nvmlDeviceGetPciInfo(h).busId == _text(pynvml.nvmlDeviceGetPciInfo(p).busId)
        assert nvml.nvmlDeviceGetPowerManagementLimit(h) == \
            pynvml.nvmlDeviceGetPowerManagementLimit(p)
        u = nvml.nvmlDeviceGetUtilizationRates(h)
        assert 0 <= u.gpu <= 100 and 0 <= u.memory <= 100
        assert 0 < nvml.nvmlDeviceGetTemperature(h, nvml.NVML_TEMPERATURE_GPU) < 130
        assert nvml.nvmlDeviceGetClockInfo(h, nvml.NVML_CLOCK_SM) > 0
        assert isinstance(nvml.nvmlDeviceGetComputeRunningProcesses(h), list)
    with pytest.raises(nvml.NVMLError_InvalidArgument):
        nvml.nvmlDeviceGetHandleByIndex(nvml.nvmlDeviceGetCount() + 7)


def _text(v):
    return v.decode() if isinstance(v, bytes) else v


@needs_nvml
def test_queries_leave_cuda_uninitialised():
    """NVML answers without CUDA: after every query the process has no CUDA
    context (cuCtxGetCurrent through the driver library is NULL) and ember's
    backend was never brought up."""
    code = r"""
import ctypes, sys
from ember import nvml
nvml.nvmlInit()
h = nvml.nvmlDeviceGetHandleByIndex(0)
nvml.nvmlDeviceGetMemoryInfo(h); nvml.nvmlDeviceGetUtilizationRates(h)
nvml.nvmlDeviceGetName(h); nvml.nvmlDeviceGetComputeRunningProcesses(h)
cu = ctypes.CDLL("libcuda.so.1")
ctx = ctypes.c_void_p()
rc = cu.cuCtxGetCurrent(ctypes.byref(ctx))
# 3 is CUDA_ERROR_NOT_INITIALIZED: nobody called cuInit
sys.exit(0 if rc == 3 or (rc == 0 and not ctx.value) else 1)
"""
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0


FAKE_PROGRAM = r"""
import json, sys
import ember
from ember import nvml as pynvml
out = {"loaded_at_import": ember._ember._nvml_loaded()}
pynvml.nvmlInit()
out["count"] = pynvml.nvmlDeviceGetCount()
out["driver"] = pynvml.nvmlSystemGetDriverVersion()
h = pynvml.nvmlDeviceGetHandleByIndex(1)
out["name"] = pynvml.nvmlDeviceGetName(h)
out["uuid"] = pynvml.nvmlDeviceGetUUID(h)
m = pynvml.nvmlDeviceGetMemoryInfo(h)
out["mem"] = [m.total, m.free, m.used]
m = pynvml.nvmlDeviceGetMemoryInfo(h, version=pynvml.nvmlMemory_v2)
out["mem2"] = [m.total, m.free, m.used, m.reserved]
u = pynvml.nvmlDeviceGetUtilizationRates(h)
out["util"] = [u.gpu, u.memory]
out["temp"] = pynvml.nvmlDeviceGetTemperature(h, pynvml.NVML_TEMPERATURE_GPU)
out["limit"] = pynvml.nvmlDeviceGetPowerManagementLimit(h)
out["clocks"] = [pynvml.nvmlDeviceGetClockInfo(h, k) for k in
                 (pynvml.NVML_CLOCK_GRAPHICS, pynvml.NVML_CLOCK_SM, pynvml.NVML_CLOCK_MEM)]
out["pcie"] = [pynvml.nvmlDeviceGetPcieThroughput(h, 0),
               pynvml.nvmlDeviceGetPcieThroughput(h, 1)]
out["ecc"] = pynvml.nvmlDeviceGetTotalEccErrors(h, 1, 1)
out["throttle"] = pynvml.nvmlDeviceGetCurrentClocksEventReasons(h)
p = pynvml.nvmlDeviceGetPciInfo(h)
out["pci"] = [p.busId, p.busIdLegacy, p.bus, p.pciDeviceId]
out["procs"] = [[q.pid, q.usedGpuMemory] for q in
                pynvml.nvmlDeviceGetComputeRunningProcesses(h)]
out["by_uuid"] = pynvml.nvmlDeviceGetName(pynvml.nvmlDeviceGetHandleByUUID(out["uuid"]))
errors = {}
for name, call in (("power", lambda: pynvml.nvmlDeviceGetPowerUsage(h)),
                   ("sensor", lambda: pynvml.nvmlDeviceGetTemperature(h, 1)),
                   ("index", lambda: pynvml.nvmlDeviceGetHandleByIndex(5)),
                   ("uuid", lambda: pynvml.nvmlDeviceGetHandleByUUID("GPU-x"))):
    try:
        call()
    except pynvml.NVMLError as e:
        errors[name] = [type(e).__name__, e.value]
out["errors"] = errors
pynvml.nvmlShutdown()
print(json.dumps(out))
"""


def _build_fake(tmp_path_factory, name, *flags):
    """A folder holding the stand-in libnvidia-ml.so.1 (tests/python/nvml_fake.c)."""
    import os
    import shutil
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler")
    d = tmp_path_factory.mktemp(name)
    src = os.path.join(os.path.dirname(__file__), "nvml_fake.c")
    subprocess.run([cc, "-shared", "-fPIC", "-O1", *flags, "-o",
                    str(d / "libnvidia-ml.so.1"), src], check=True)
    return str(d)


@pytest.fixture(scope="module")
def fake_nvml(tmp_path_factory):
    return _build_fake(tmp_path_factory, "fake_nvml")


def test_against_a_stand_in_library(fake_nvml):
    """The whole path, C front end to pynvml's shapes, over a library with
    known answers: versioned names and their fallbacks, the _v2 memory
    struct's version tag, the 24-byte process records, the PCI struct."""
    import json
    import os
    env = dict(os.environ, EMBER_CUDA_LIBS=fake_nvml)
    r = subprocess.run([sys.executable, "-c", FAKE_PROGRAM], env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout.splitlines()[-1])
    assert out["loaded_at_import"] is False
    assert out["count"] == 2 and out["driver"] == "999.1"
    assert out["name"] == "Fake GPU 1" and out["by_uuid"] == "Fake GPU 1"
    assert out["uuid"] == "GPU-00000001-0000-0000-0000-000000000000"
    assert out["mem"] == [1000, 300, 700] and out["mem2"] == [1000, 300, 600, 100]
    assert out["util"] == [43, 17] and out["temp"] == 55 and out["limit"] == 700000
    assert out["clocks"] == [1000, 1001, 1002] and out["pcie"] == [10, 11]
    assert out["ecc"] == 3 and out["throttle"] == 0x44
    assert out["pci"] == ["00000000:11:00.0", "0000:11:00.0", 0x11, 0x233010de]
    assert out["procs"] == [[111, 1 << 20], [222, None]]
    assert out["errors"] == {
        "power": ["NVMLError_FunctionNotFound", 13],
        "sensor": ["NVMLError_NotSupported", 3],
        "index": ["NVMLError_InvalidArgument", 2],
        "uuid": ["NVMLError_NotFound", 6]}


TUTORIAL = r"""
from ember import nvml as pynvml   # the one changed line

pynvml.nvmlInit()
print("Driver Version:", pynvml.nvmlSystemGetDriverVersion())
for i in range(pynvml.nvmlDeviceGetCount()):
    handle = pynvml.nvmlDeviceGetHandleByIndex(i)
    info = pynvml.nvmlDeviceGetMemoryInfo(handle)
    util = pynvml.nvmlDeviceGetUtilizationRates(handle)
    print(f"Device {i}: {pynvml.nvmlDeviceGetName(handle)}")
    print(f"  Total memory: {info.total / 1024**2:.0f} MiB, free {info.free}, used {info.used}")
    print(f"  GPU utilization: {util.gpu}%, memory utilization: {util.memory}%")
    for p in pynvml.nvmlDeviceGetComputeRunningProcesses(handle):
        print(f"  pid {p.pid}: {p.usedGpuMemory}")
pynvml.nvmlShutdown()
"""


def test_tutorial_program_runs_on_the_stand_in(fake_nvml):
    """A seed-style pynvml tutorial (memory and utilisation of each GPU)
    runs after the import change alone."""
    import os
    env = dict(os.environ, EMBER_CUDA_LIBS=fake_nvml)
    r = subprocess.run([sys.executable, "-c", TUTORIAL], env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[:4] == [
        "Driver Version: 999.1", "Device 0: Fake GPU 0",
        "  Total memory: 0 MiB, free 300, used 700",
        "  GPU utilization: 42%, memory utilization: 17%"]
    assert "  pid 111: 1048576" in r.stdout and "  pid 222: None" in r.stdout


NVLINK_PROGRAM = r"""
import json
from ember import nvml as pynvml
from ember._api import device_status, top
pynvml.nvmlInit()
out = {}
h0, h1 = pynvml.nvmlDeviceGetHandleByIndex(0), pynvml.nvmlDeviceGetHandleByIndex(1)
try:
    v = pynvml.nvmlDeviceGetFieldValues(h1, [pynvml.NVML_FI_DEV_NVLINK_LINK_COUNT,
                                             (pynvml.NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX,
                                              0xFFFFFFFF), (12345, 0)])
    out["fields"] = [[f.fieldId, f.scopeId, f.valueType, f.nvmlReturn] for f in v]
    out["values"] = [v[0].value.uiVal, v[1].value.ullVal, v[0].timestamp > 0]
    out["states"] = [pynvml.nvmlDeviceGetNvLinkState(h1, k) for k in range(4)]
except pynvml.NVMLError as e:
    out["fields"] = [type(e).__name__, e.value]
try:
    pynvml.nvmlDeviceGetNvLinkState(h0, 0)
except pynvml.NVMLError as e:
    out["state0"] = [type(e).__name__, e.value]
out["gpu1"] = list(device_status._nvlink(h1))
out["gpu1_again"] = list(device_status._nvlink(h1))
out["gpu0"] = list(device_status._nvlink(h0))
s = device_status.DeviceStatus("cuda:1", "Fake GPU 1", pcie_tx=10240, pcie_rx=0,
                               nvlink_tx=out["gpu1"][0], nvlink_rx=out["gpu1"][1])
out["top"] = [l for l in top.render([s]) if "tx" in l]
s = device_status.DeviceStatus("cuda:0", "Fake GPU 0")
out["top0"] = [l for l in top.render([s]) if "tx" in l]
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def old_fake_nvml(tmp_path_factory):
    """The stand-in built as an older driver: no field values, no NVLink."""
    return _build_fake(tmp_path_factory, "old_fake_nvml", "-DFAKE_OLD_DRIVER")


def _nvlink_run(libdir):
    import json
    import os
    env = dict(os.environ, EMBER_CUDA_LIBS=libdir)
    r = subprocess.run([sys.executable, "-c", NVLINK_PROGRAM], env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout.splitlines()[-1])


def test_nvlink_fields_and_rates_on_the_stand_in(fake_nvml):
    """Field values with pynvml's shape (the 40-byte struct read right: id,
    scope, type, per-field return, value), link states, and status()'s
    rates: 1000 KiB tx and 500 KiB rx between stamps 0.1 s apart."""
    out = _nvlink_run(fake_nvml)
    assert out["fields"] == [[91, 0, 1, 0], [138, 0xFFFFFFFF, 3, 0], [12345, 0, 3, 3]]
    assert out["values"] == [4, 1000, True]       # the library's first read
    assert out["states"] == [1, 1, 0, 1]
    assert out["state0"] == ["NVMLError_NotSupported", 3]
    assert out["gpu1"] == [1000 * 1024 / 0.1, 500 * 1024 / 0.1]
    assert out["gpu1_again"] == out["gpu1"]        # since the previous call
    assert out["gpu0"] == [None, None]             # no NVLink: None, no error
    assert out["top"] == ["  pcie tx 0.00 rx 0.00 GB/s  nvlink tx 0.01 rx 0.01 GB/s"]
    assert out["top0"] == []


def test_nvlink_none_on_an_older_driver(old_fake_nvml):
    """A driver without nvmlDeviceGetFieldValues: the pynvml name raises
    FunctionNotFound as pynvml would, and status() says None."""
    out = _nvlink_run(old_fake_nvml)
    assert out["fields"] == ["NVMLError_FunctionNotFound", 13]
    assert out["state0"] == ["NVMLError_FunctionNotFound", 13]
    assert out["gpu1"] == [None, None] and out["gpu0"] == [None, None]
