"""ember.nvml: NVIDIA's management library under pynvml's names.

`from ember import nvml as pynvml` runs a pynvml program unchanged:
nvmlInit, nvmlDeviceGetHandleByIndex, nvmlDeviceGetMemoryInfo and the
rest return what pynvml returns (str names, objects with .total/.free/.used,
.gpu/.memory, .pid/.usedGpuMemory, .busId), and a failure raises pynvml's
NVMLError subclass for NVML's return code: NVMLError_LibraryNotFound where
the driver's libnvidia-ml.so.1 is absent. The library is opened by ember's
C core on the first call, never at import, and asking never initialises
CUDA. Handles number GPUs as NVML does (physically); ember.Device(...)
.status() matches them to CUDA's numbering."""
from collections import namedtuple as _nt

from ember import _ember as _x

# NVML's return codes (nvmlReturn_t), as pynvml names them.
NVML_SUCCESS = 0
NVML_ERROR_UNINITIALIZED = 1
NVML_ERROR_INVALID_ARGUMENT = 2
NVML_ERROR_NOT_SUPPORTED = 3
NVML_ERROR_NO_PERMISSION = 4
NVML_ERROR_ALREADY_INITIALIZED = 5
NVML_ERROR_NOT_FOUND = 6
NVML_ERROR_INSUFFICIENT_SIZE = 7
NVML_ERROR_INSUFFICIENT_POWER = 8
NVML_ERROR_DRIVER_NOT_LOADED = 9
NVML_ERROR_TIMEOUT = 10
NVML_ERROR_IRQ_ISSUE = 11
NVML_ERROR_LIBRARY_NOT_FOUND = 12
NVML_ERROR_FUNCTION_NOT_FOUND = 13
NVML_ERROR_CORRUPTED_INFOROM = 14
NVML_ERROR_GPU_IS_LOST = 15
NVML_ERROR_RESET_REQUIRED = 16
NVML_ERROR_OPERATING_SYSTEM = 17
NVML_ERROR_LIB_RM_VERSION_MISMATCH = 18
NVML_ERROR_IN_USE = 19
NVML_ERROR_MEMORY = 20
NVML_ERROR_NO_DATA = 21
NVML_ERROR_VGPU_ECC_NOT_ENABLED = 22
NVML_ERROR_INSUFFICIENT_RESOURCES = 23
NVML_ERROR_FREQ_NOT_SUPPORTED = 24
NVML_ERROR_ARGUMENT_VERSION_MISMATCH = 25
NVML_ERROR_DEPRECATED = 26
NVML_ERROR_NOT_READY = 27
NVML_ERROR_GPU_NOT_FOUND = 28
NVML_ERROR_INVALID_STATE = 29
NVML_ERROR_UNKNOWN = 999

NVML_TEMPERATURE_GPU = 0
NVML_CLOCK_GRAPHICS, NVML_CLOCK_SM, NVML_CLOCK_MEM, NVML_CLOCK_VIDEO = 0, 1, 2, 3
NVML_PCIE_UTIL_TX_BYTES, NVML_PCIE_UTIL_RX_BYTES = 0, 1
NVML_MEMORY_ERROR_TYPE_CORRECTED, NVML_MEMORY_ERROR_TYPE_UNCORRECTED = 0, 1
NVML_VOLATILE_ECC, NVML_AGGREGATE_ECC = 0, 1
NVML_VALUE_NOT_AVAILABLE_ulonglong = 0xFFFFFFFFFFFFFFFF
# NVLink: the field ids of nvmlDeviceGetFieldValues (throughput counters
# are cumulative KiB; scope id a link, or 0xFFFFFFFF for all links), and
# nvmlDeviceGetNvLinkState's answers.
NVML_NVLINK_MAX_LINKS = 18
NVML_FI_DEV_NVLINK_LINK_COUNT = 91
NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX = 138
NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_RX = 139
NVML_FI_DEV_NVLINK_THROUGHPUT_RAW_TX = 140
NVML_FI_DEV_NVLINK_THROUGHPUT_RAW_RX = 141
NVML_FEATURE_DISABLED, NVML_FEATURE_ENABLED = 0, 1
(NVML_VALUE_TYPE_DOUBLE, NVML_VALUE_TYPE_UNSIGNED_INT, NVML_VALUE_TYPE_UNSIGNED_LONG,
 NVML_VALUE_TYPE_UNSIGNED_LONG_LONG, NVML_VALUE_TYPE_SIGNED_LONG_LONG,
 NVML_VALUE_TYPE_SIGNED_INT, NVML_VALUE_TYPE_UNSIGNED_SHORT) = range(7)
# nvmlMemory_v2: the versioned struct's tag (its size | 2 << 24).
nvmlMemory_v2 = 40 | (2 << 24)


class NVMLError(Exception):
    """NVML's failure; NVMLError(code) makes the subclass for that code,
    as pynvml's does, so `except NVMLError_NotSupported` works."""
    _by_code = {}

    def __new__(cls, value=NVML_ERROR_UNKNOWN, *args):
        if cls is NVMLError:
            cls = NVMLError._by_code.get(value, NVMLError)
        obj = Exception.__new__(cls)
        obj.value = value
        return obj

    def __init__(self, value=NVML_ERROR_UNKNOWN, message=None):
        self.value = value
        self._message = message
        Exception.__init__(self, value)

    def __str__(self):
        return self._message or _ERROR_TEXT.get(self.value, "Unknown Error")

    def __eq__(self, other):
        return isinstance(other, NVMLError) and self.value == other.value

    __hash__ = Exception.__hash__


_ERROR_TEXT = {}


def _error_class(code, name, text):
    cls = type("NVMLError_" + name, (NVMLError,), {"__module__": __name__})
    NVMLError._by_code[code] = cls
    _ERROR_TEXT[code] = text
    globals()[cls.__name__] = cls


for _code, _name, _text in (
        (1, "Uninitialized", "Uninitialized"),
        (2, "InvalidArgument", "Invalid Argument"),
        (3, "NotSupported", "Not Supported"),
        (4, "NoPermission", "Insufficient Permissions"),
        (5, "AlreadyInitialized", "Already Initialized"),
        (6, "NotFound", "Not Found"),
        (7, "InsufficientSize", "Insufficient Size"),
        (8, "InsufficientPower", "Insufficient External Power"),
        (9, "DriverNotLoaded", "Driver Not Loaded"),
        (10, "Timeout", "Timeout"),
        (11, "IrqIssue", "Interrupt Request Issue"),
        (12, "LibraryNotFound", "NVML Shared Library Not Found"),
        (13, "FunctionNotFound", "Function Not Found"),
        (14, "CorruptedInforom", "Corrupted infoROM"),
        (15, "GpuIsLost", "GPU is lost"),
        (16, "ResetRequired", "GPU requires restart"),
        (17, "OperatingSystem", "The operating system has blocked the request."),
        (18, "LibRmVersionMismatch", "RM has detected an NVML/RM version mismatch."),
        (19, "InUse", "In Use"),
        (20, "Memory", "Insufficient Memory"),
        (21, "NoData", "No Data"),
        (22, "VgpuEccNotEnabled", "vGPU ECC Not Enabled"),
        (23, "InsufficientResources", "Insufficient Resources"),
        (24, "FreqNotSupported", "Frequency Not Supported"),
        (25, "ArgumentVersionMismatch", "Argument Version Mismatch"),
        (26, "Deprecated", "Deprecated"),
        (27, "NotReady", "Not Ready"),
        (28, "GpuNotFound", "GPU Not Found"),
        (29, "InvalidState", "Invalid State"),
        (999, "Unknown", "Unknown Error")):
    _error_class(_code, _name, _text)
del _code, _name, _text

# What ember's C layer raises for a failed NVML call; turned into NVMLError.
_CFAIL = (_x.BackendUnavailableError, NotImplementedError)


def _raise(e):
    code = _x._nvml_code() or NVML_ERROR_UNKNOWN
    raise NVMLError(code, "%s (%s)" % (_ERROR_TEXT.get(code, "Unknown Error"), e)) from None


class c_nvmlDevice_t(int):
    """A GPU's handle (an int, so it costs nothing to pass back to C)."""
    __slots__ = ()

    def __repr__(self):
        return "<c_nvmlDevice_t %#x>" % int(self)


c_nvmlMemory_t = _nt("c_nvmlMemory_t", "total free used")
c_nvmlMemory_v2_t = _nt("c_nvmlMemory_v2_t", "total free used reserved")
c_nvmlUtilization_t = _nt("c_nvmlUtilization_t", "gpu memory")
c_nvmlProcessInfo_t = _nt("c_nvmlProcessInfo_t",
                          "pid usedGpuMemory gpuInstanceId computeInstanceId")
c_nvmlPciInfo_t = _nt("c_nvmlPciInfo_t", "busIdLegacy domain bus device "
                      "pciDeviceId pciSubSystemId busId")
_new = tuple.__new__


class c_nvmlValue_t:
    """A field's value under every name of pynvml's union (dval, uiVal,
    ulVal, ullVal, sllVal, siVal, usVal): already converted by the
    field's valueType, so the member that type names reads it right."""
    __slots__ = ("_v",)

    def __init__(self, v):
        self._v = v

    dval = uiVal = ulVal = ullVal = sllVal = siVal = usVal = property(
        lambda self: self._v)

    def __repr__(self):
        return "c_nvmlValue_t(%r)" % (self._v,)


class c_nvmlFieldValue_t:
    """One answer of nvmlDeviceGetFieldValues, with pynvml's attributes."""
    __slots__ = ("fieldId", "scopeId", "timestamp", "latencyUsec", "valueType",
                 "nvmlReturn", "value")

    def __init__(self, row):
        (self.fieldId, self.scopeId, self.timestamp, self.latencyUsec,
         self.valueType, self.nvmlReturn, v) = row
        self.value = c_nvmlValue_t(v)

    def __repr__(self):
        return ("c_nvmlFieldValue_t(fieldId=%d, scopeId=%d, nvmlReturn=%d, value=%r)"
                % (self.fieldId, self.scopeId, self.nvmlReturn, self.value._v))


def _passthrough(name, f, wrap=None):
    """pynvml's function `name` over the extension's f: the value as is
    (or wrap(value)), or NVMLError for NVML's code."""
    def call(*args):
        try:
            v = f(*args)
        except _CFAIL as e:
            _raise(e)
        return v if wrap is None else wrap(v)
    call.__name__ = call.__qualname__ = name
    return call


def _text(v):
    return v.decode() if isinstance(v, bytes) else v


nvmlInit = _passthrough("nvmlInit", _x._nvml_init)
nvmlShutdown = _passthrough("nvmlShutdown", _x._nvml_shutdown)
nvmlSystemGetDriverVersion = _passthrough("nvmlSystemGetDriverVersion", _x._nvml_driver_version)
nvmlDeviceGetCount = _passthrough("nvmlDeviceGetCount", _x._nvml_count)
nvmlDeviceGetHandleByIndex = _passthrough("nvmlDeviceGetHandleByIndex", _x._nvml_handle, c_nvmlDevice_t)
_handle_by_uuid = _passthrough("_handle_by_uuid", _x._nvml_handle_by_uuid, c_nvmlDevice_t)
nvmlDeviceGetName = _passthrough("nvmlDeviceGetName", _x._nvml_name)
nvmlDeviceGetUUID = _passthrough("nvmlDeviceGetUUID", _x._nvml_uuid)
nvmlDeviceGetCurrentClocksThrottleReasons = _passthrough("nvmlDeviceGetCurrentClocksThrottleReasons", _x._nvml_throttle)
_reading = _passthrough("_reading", _x._nvml_reading)
_ecc = _passthrough("_ecc", _x._nvml_ecc)
nvmlDeviceGetCurrentClocksEventReasons = nvmlDeviceGetCurrentClocksThrottleReasons


def nvmlInitWithFlags(flags=0):
    nvmlInit()


def nvmlDeviceGetHandleByUUID(uuid):
    return _handle_by_uuid(_text(uuid))


def nvmlDeviceGetTemperature(handle, sensor=NVML_TEMPERATURE_GPU):
    return _reading(handle, 0, sensor)


def nvmlDeviceGetClockInfo(handle, type):
    return _reading(handle, 1, type)


def nvmlDeviceGetFieldValues(handle, fieldIds):
    """pynvml's: fieldIds are ids or (id, scope id) pairs; a field the card
    lacks answers with its own nvmlReturn, the call itself does not fail."""
    ids = [(f[0], f[1]) if isinstance(f, (tuple, list)) else (f, 0) for f in fieldIds]
    try:
        rows = _x._nvml_fields(handle, ids)
    except _CFAIL as e:
        _raise(e)
    return [c_nvmlFieldValue_t(r) for r in rows]


def nvmlDeviceGetNvLinkState(handle, link):
    return _reading(handle, 5, link)


def nvmlDeviceGetPcieThroughput(handle, counter):
    return _reading(handle, 2, counter)


def nvmlDeviceGetPowerUsage(handle):
    return _reading(handle, 3, 0)


def nvmlDeviceGetPowerManagementLimit(handle):
    return _reading(handle, 4, 0)


def nvmlDeviceGetTotalEccErrors(handle, errorType, counterType):
    return _ecc(handle, errorType * 2 + counterType)


def nvmlDeviceGetMemoryInfo(handle, version=None):
    """pynvml's default is NVML's first struct (used includes what the
    driver reserves); version=nvmlMemory_v2 asks the _v2 function, with
    .reserved apart."""
    try:
        if version == nvmlMemory_v2:
            return _new(c_nvmlMemory_v2_t, _x._nvml_memory(handle, 2))
        return _new(c_nvmlMemory_t, _x._nvml_memory(handle, 1)[:3])
    except _CFAIL as e:
        _raise(e)


def nvmlDeviceGetUtilizationRates(handle):
    try:
        return _new(c_nvmlUtilization_t, _x._nvml_utilization(handle))
    except _CFAIL as e:
        _raise(e)


def nvmlDeviceGetComputeRunningProcesses(handle):
    """pynvml's list; usedGpuMemory is None where NVML cannot tell (in a
    container without the host's pid namespace, for one)."""
    try:
        rows = _x._nvml_processes(handle)
    except _CFAIL as e:
        _raise(e)
    return [c_nvmlProcessInfo_t(pid, None if used == NVML_VALUE_NOT_AVAILABLE_ulonglong
                                else used, 0xFFFFFFFF, 0xFFFFFFFF)
            for pid, used in rows]


def nvmlDeviceGetPciInfo(handle):
    try:
        return _new(c_nvmlPciInfo_t, _x._nvml_pci(handle))
    except _CFAIL as e:
        _raise(e)


nvmlDeviceGetPciInfo_v3 = nvmlDeviceGetPciInfo


def _loaded():
    """Whether this process has opened libnvidia-ml (for tests)."""
    return _x._nvml_loaded()
