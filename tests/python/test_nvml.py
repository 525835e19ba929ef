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
