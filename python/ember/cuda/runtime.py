"""ember.cuda.runtime: the CUDA runtime API's spellings (cupy.cuda.runtime)
for code that talks in device ordinals, over ember's Device. Device 0 is
the cpu device when there is no GPU, so setDevice(0) and
getDeviceProperties(0) work there."""
from ember import _ember

cudaSuccess = 0
# cudaStreamCaptureMode, for Stream.begin_capture(mode=) (docs/graphs.md)
streamCaptureModeGlobal = 0
streamCaptureModeThreadLocal = 1
streamCaptureModeRelaxed = 2
is_hip = False     # CuPy's flag that programs test before ROCm-specific paths


def _device(n):
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError("a device ordinal must be an int, not %s" % type(n).__name__)
    return _ember.Device(n)


def getDeviceCount():
    """The number of CUDA devices (0 without a driver or GPU)."""
    return _ember._cuda_device_count()


def getDevice():
    """The current CUDA device's ordinal. When the thread's current device
    is the cpu, CUDA's own notion still applies: device 0 if there is one,
    and without a GPU 0 as well, the ordinal that names the cpu device."""
    d = _ember.get_current_device()
    return d.id if d.type == "cuda" else 0


def setDevice(n):
    """setDevice(n): make cuda:n current (0 without a GPU: the cpu device)."""
    _device(n).use()


def getDeviceProperties(n):
    """getDeviceProperties(n) -> dict of cuda:n's properties (0 without a
    GPU: the cpu device's)."""
    props = _device(n).properties
    # CuPy's dict holds the name as the C string's bytes (programs call
    # props['name'].decode()); Device.properties keeps it a str.
    props["name"] = props["name"].encode()
    return props


def deviceGetAttribute(attrib, device):
    """deviceGetAttribute(attrib, device) -> CUDA's device attribute number
    attrib (a cudaDeviceAttr) of cuda:device (0 without a GPU: the cpu
    device's, where GPU features it has not read 0)."""
    return _device(device).attribute(attrib)


def driverGetVersion():
    """The CUDA driver's version (12040 for 12.4); 0 without a driver."""
    return _ember._cuda_versions()[0]


def runtimeGetVersion():
    """The NVRTC version (12040 for 12.4); 0 without NVRTC. ember has no
    CUDA runtime library; the run-time compiler stands in for it."""
    return _ember._cuda_versions()[1]


def deviceSynchronize():
    """Wait for all work on the current device."""
    _ember.get_current_device().synchronize()


def memGetInfo():
    """(free, total) bytes of the current device."""
    return tuple(_ember.get_current_device().mem_info)


def deviceGetStreamPriorityRange():
    """(least, greatest) stream priorities of the current device; (0, 0) on
    cpu, which has one."""
    return _ember.get_current_device()._priority_range
