"""Device.status(): what a device is doing now. A GPU is asked through
NVML (ember.nvml), found by its UUID so that the card is the one CUDA and
ember call cuda:N whatever CUDA_VISIBLE_DEVICES hides or reorders; the
host is read from /proc and /sys. Fields the device or the host does not
report are None.

Asking about a cuda device needs that device's UUID, which ember reads
with the driver's cuDeviceGetUuid: the driver is initialised (cuInit,
as for any ember.Device("cuda:N")), but no context is ever created, and
NVML itself never touches CUDA."""
import dataclasses
import glob
import time

from ember import nvml

# NVML's clock event (throttle) reason bits, named as nvidia-smi does.
_THROTTLE = ((0x1, "gpu_idle"), (0x2, "applications_clocks_setting"),
             (0x4, "sw_power_cap"), (0x8, "hw_slowdown"), (0x10, "sync_boost"),
             (0x20, "sw_thermal_slowdown"), (0x40, "hw_thermal_slowdown"),
             (0x80, "hw_power_brake_slowdown"), (0x100, "display_clock_setting"))


@dataclasses.dataclass
class DeviceStatus:
    """One reading of a device. Memory in bytes, utilisation in percent,
    temperature in degrees C, power in watts, clocks in MHz, PCIe and
    NVLink (data, all links summed) in bytes per second. Also readable as a dict: status["memory_used"]."""
    device: str
    name: str = None
    memory_total: int = None
    memory_used: int = None
    memory_free: int = None
    utilization_sm: float = None      # the GPU's SMs busy; on cpu all cores
    utilization_memory: float = None  # the memory interface busy (GPU only)
    load_per_core: list = None        # cpu: percent busy of each core
    temperature: float = None
    power: float = None
    power_limit: float = None
    clock_sm: int = None
    clock_memory: int = None
    pcie_tx: int = None
    pcie_rx: int = None
    nvlink_tx: float = None
    nvlink_rx: float = None
    ecc_corrected: int = None
    ecc_uncorrected: int = None
    throttle_reasons: list = None
    processes: list = None            # [(pid, bytes of device memory or None)]

    def __getitem__(self, key):
        return getattr(self, key)

    def keys(self):
        return [f.name for f in dataclasses.fields(self)]

    def asdict(self):
        return dataclasses.asdict(self)


def status(device):
    if device.type == "cpu":
        return _cpu_status(device)
    return _gpu_status(device)


# ---- cuda ------------------------------------------------------------------

_nvml_ready = False


def _ask(f, *args):
    """f(*args), or None where NVML has no answer for this card."""
    try:
        return f(*args)
    except nvml.NVMLError:
        return None


def _gpu_handle(device):
    global _nvml_ready
    if not _nvml_ready:
        nvml.nvmlInit()   # counted by NVML; kept for the process's life
        _nvml_ready = True
    uuid = device.uuid
    if uuid is not None:
        return nvml.nvmlDeviceGetHandleByUUID("GPU-" + uuid)
    # No UUID from the driver: NVML's order is the physical one, right only
    # when CUDA_VISIBLE_DEVICES neither hides nor reorders cards.
    return nvml.nvmlDeviceGetHandleByIndex(device.id)


def _gpu_status(device):
    h = _gpu_handle(device)
    s = DeviceStatus("cuda:%d" % device.id, name=_ask(nvml.nvmlDeviceGetName, h))
    m = _ask(nvml.nvmlDeviceGetMemoryInfo, h)
    if m is not None:
        s.memory_total, s.memory_used, s.memory_free = m.total, m.used, m.free
    u = _ask(nvml.nvmlDeviceGetUtilizationRates, h)
    if u is not None:
        s.utilization_sm, s.utilization_memory = u.gpu, u.memory
    s.temperature = _ask(nvml.nvmlDeviceGetTemperature, h, nvml.NVML_TEMPERATURE_GPU)
    mw = _ask(nvml.nvmlDeviceGetPowerUsage, h)
    s.power = None if mw is None else mw / 1000.0
    mw = _ask(nvml.nvmlDeviceGetPowerManagementLimit, h)
    s.power_limit = None if mw is None else mw / 1000.0
    s.clock_sm = _ask(nvml.nvmlDeviceGetClockInfo, h, nvml.NVML_CLOCK_SM)
    s.clock_memory = _ask(nvml.nvmlDeviceGetClockInfo, h, nvml.NVML_CLOCK_MEM)
    for field, counter in (("pcie_tx", nvml.NVML_PCIE_UTIL_TX_BYTES),
                           ("pcie_rx", nvml.NVML_PCIE_UTIL_RX_BYTES)):
        kb = _ask(nvml.nvmlDeviceGetPcieThroughput, h, counter)
        setattr(s, field, None if kb is None else kb * 1024)
    s.nvlink_tx, s.nvlink_rx = _nvlink(h)
    s.ecc_corrected = _ask(nvml.nvmlDeviceGetTotalEccErrors, h,
                           nvml.NVML_MEMORY_ERROR_TYPE_CORRECTED, nvml.NVML_VOLATILE_ECC)
    s.ecc_uncorrected = _ask(nvml.nvmlDeviceGetTotalEccErrors, h,
                             nvml.NVML_MEMORY_ERROR_TYPE_UNCORRECTED,
                             nvml.NVML_VOLATILE_ECC)
    mask = _ask(nvml.nvmlDeviceGetCurrentClocksThrottleReasons, h)
    s.throttle_reasons = None if mask is None else [n for b, n in _THROTTLE if mask & b]
    procs = _ask(nvml.nvmlDeviceGetComputeRunningProcesses, h)
    s.processes = None if procs is None else [(p.pid, p.usedGpuMemory) for p in procs]
    return s


# NVLink's data counters summed over all links (scope 0xFFFFFFFF), in KiB
# since the driver loaded: a rate is their difference over the time since
# this card's previous reading (the first call samples twice).
_NVLINK_FIELDS = ((nvml.NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX, 0xFFFFFFFF),
                  (nvml.NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_RX, 0xFFFFFFFF))
_nvlink_last = {}


def _nvlink_sample(h):
    """(microseconds, tx KiB, rx KiB), or None: a driver without the field
    API, or a card without NVLink (the fields answer NOT_SUPPORTED)."""
    rows = _ask(nvml.nvmlDeviceGetFieldValues, h, _NVLINK_FIELDS)
    if rows is None or any(r.nvmlReturn != nvml.NVML_SUCCESS for r in rows):
        return None
    # NVML stamps each field; a driver that leaves it 0 gets the host clock
    t = rows[0].timestamp or time.monotonic() * 1e6
    return t, rows[0].value.ullVal, rows[1].value.ullVal


def _nvlink(h):
    """(tx, rx) in bytes per second, or (None, None)."""
    now = _nvlink_sample(h)
    if now is None:
        return None, None
    prev = _nvlink_last.get(int(h))
    if prev is None or now[0] <= prev[0]:
        time.sleep(_FIRST_INTERVAL)
        prev, now = now, _nvlink_sample(h)
        if now is None or now[0] <= prev[0]:
            return None, None
    _nvlink_last[int(h)] = now
    dt = (now[0] - prev[0]) / 1e6
    return tuple(max(b - a, 0) * 1024 / dt for a, b in zip(prev[1:], now[1:]))


# ---- cpu -------------------------------------------------------------------

def _read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return None


def meminfo():
    """/proc/meminfo's fields in bytes."""
    out = {}
    for line in (_read("/proc/meminfo") or "").splitlines():
        key, _, rest = line.partition(":")
        parts = rest.split()
        if parts and parts[0].isdigit():
            out[key] = int(parts[0]) * (1024 if parts[1:] == ["kB"] else 1)
    return out


def _cpu_times():
    """{core: (busy, total)} in jiffies from /proc/stat ('cpu' is all)."""
    out = {}
    for line in (_read("/proc/stat") or "").splitlines():
        if line.startswith("cpu"):
            name, *v = line.split()
            v = [int(x) for x in v]
            idle = v[3] + (v[4] if len(v) > 4 else 0)   # idle + iowait
            total = sum(v[:8])                          # guest time is in user
            out[name] = (total - idle, total)
    return out


def _rapl_energy():
    """{package: (microjoules, wrap range)} of the readable RAPL packages."""
    out = {}
    for d in glob.glob("/sys/class/powercap/intel-rapl:*"):
        if d.count(":") != 1:    # intel-rapl:0:0 is a part of package 0
            continue
        e, r = _read(d + "/energy_uj"), _read(d + "/max_energy_range_uj")
        if e is not None and e.strip().isdigit():
            out[d] = (int(e), int(r) if r and r.strip().isdigit() else 0)
    return out


# The last sample, so a reading covers the time since the previous call
# (as top does); the first call waits this long for two samples.
_FIRST_INTERVAL = 0.05
_last = None


def _sample():
    return time.monotonic(), _cpu_times(), _rapl_energy()


def _temperature():
    zones = sorted(glob.glob("/sys/class/thermal/thermal_zone*"))
    best = None
    for z in zones:
        t = _read(z + "/temp")
        if t is None or not t.strip().lstrip("-").isdigit():
            continue
        kind = (_read(z + "/type") or "").strip()
        if kind == "x86_pkg_temp" or best is None:
            best = int(t) / 1000.0
            if kind == "x86_pkg_temp":
                break
    return best


def _power_limit():
    limits = [_read(d + "/constraint_0_power_limit_uw") for d in _rapl_energy()]
    limits = [int(x) for x in limits if x and x.strip().isdigit()]
    return sum(limits) / 1e6 if limits else None


def _clock():
    mhz = [float(line.split(":")[1]) for line in
           (_read("/proc/cpuinfo") or "").splitlines() if line.startswith("cpu MHz")]
    return round(sum(mhz) / len(mhz)) if mhz else None


def _cpu_status(device):
    global _last
    if _last is None:
        _last = _sample()
        time.sleep(_FIRST_INTERVAL)
    (t0, c0, e0), (t1, c1, e1) = _last, _sample()
    _last = (t1, c1, e1)
    m = meminfo()
    s = DeviceStatus("cpu", name=device.name)
    if "MemTotal" in m:
        s.memory_total = m["MemTotal"]
        avail = m.get("MemAvailable", m.get("MemFree", 0))
        s.memory_free, s.memory_used = avail, m["MemTotal"] - avail

    def pct(name):
        (b0, n0), (b1, n1) = c0.get(name, (0, 0)), c1.get(name, (0, 0))
        return 100.0 * (b1 - b0) / (n1 - n0) if n1 > n0 else 0.0
    if "cpu" in c1:
        s.utilization_sm = pct("cpu")
        cores = sorted((k for k in c1 if k != "cpu"), key=lambda k: int(k[3:]))
        s.load_per_core = [pct(k) for k in cores]
    s.temperature = _temperature()
    if e1 and e0.keys() == e1.keys() and t1 > t0:
        joules = 0.0
        for d, (uj, wrap) in e1.items():
            delta = uj - e0[d][0]
            joules += (delta + wrap if delta < 0 else delta) / 1e6
        s.power = joules / (t1 - t0)
        s.power_limit = _power_limit()
    s.clock_sm = _clock()
    return s
