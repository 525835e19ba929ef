"""ember.profiler.benchmark: cupyx.profiler.benchmark's signature, result
and printout, timing host time (time.perf_counter) and device time (a pair
of ember Events per device) for each repeat. On the cpu device the events
time the cpu device's stream, so the same call reports on both devices."""
import math
import time

from ember import _ember

__all__ = ["benchmark"]


class _PerfCaseResult:
    """Times of one benchmark: cpu_times (n_repeat,) and gpu_times
    (len(devices), n_repeat), in seconds, as NumPy arrays. str() prints one
    line: the name padded to 20 columns, then for the host and each device
    the mean in microseconds and, with more than one repeat, '+/- std
    (min: ... / max: ...) us'."""

    def __init__(self, name, ts, devices):
        self.name = name
        self._ts = ts
        # ordinals as CuPy keeps them, and the devices they meant (an
        # ordinal alone cannot tell the cpu device from cuda:0)
        self._dev_objs = [_ember.Device(d) for d in devices]
        self._devices = tuple(d.id for d in self._dev_objs)

    @property
    def cpu_times(self):
        return self._ts[0]

    @property
    def gpu_times(self):
        return self._ts[1:]

    @property
    def devices(self):
        return self._devices

    @staticmethod
    def _item(label, t):
        us = t * 1e6
        s = "    %s: %9.03f us" % (label, us.mean())
        if us.size > 1:
            s += "   +/- %6.03f (min: %9.03f / max: %9.03f) us" % (
                us.std(), us.min(), us.max())
        return s

    def _label(self, i):
        d = self._dev_objs[i]
        # CuPy names a GPU by its ordinal; the cpu device (ordinal 0 on a
        # machine without a GPU) says what it is.
        return "GPU-%d" % d.id if d.type == "cuda" else "CPU-device"

    def to_str(self, show_gpu=False):
        parts = [self._item("CPU", self._ts[0])]
        if show_gpu:
            parts += [self._item(self._label(i), self._ts[1 + i])
                      for i in range(len(self._devices))]
        return "%-20s:%s" % (self.name, " ".join(parts))

    def __str__(self):
        return self.to_str(show_gpu=True)

    def __repr__(self):
        return "<_PerfCaseResult %s>" % self.to_str(show_gpu=True)


def benchmark(func, args=(), kwargs={}, n_repeat=10000, *, name=None,
              n_warmup=10, max_duration=math.inf, devices=None):
    """Call func(*args, **kwargs) n_warmup times untimed, then up to
    n_repeat times (stopping once max_duration seconds have passed), timing
    each call on the host and on each device in devices (ordinals, ember
    Devices or specs; default: the current device)."""
    import numpy

    if not callable(func):
        raise ValueError("benchmark: func must be callable, not %s"
                         % type(func).__name__)
    if n_repeat < 1 or n_warmup < 0:
        raise ValueError("benchmark: n_repeat must be >= 1 and n_warmup >= 0, "
                         "got %d and %d" % (n_repeat, n_warmup))
    if name is None:
        name = getattr(func, "__name__", type(func).__name__)
    if devices is None:
        devs = [_ember.get_current_device()]
    else:
        devs = [_ember.Device(d) for d in (
            devices if isinstance(devices, (tuple, list)) else (devices,))]

    starts = [_ember.Event(device=d) for d in devs]
    ends = [_ember.Event(device=d) for d in devs]
    for _ in range(n_warmup):
        func(*args, **kwargs)
    for d in devs:
        d.synchronize()

    ts = numpy.empty((1 + len(devs), n_repeat), dtype=numpy.float64)
    spent = 0.0
    n = 0
    while n < n_repeat:
        for e in starts:
            e.record()
        t0 = time.perf_counter()
        func(*args, **kwargs)
        t1 = time.perf_counter()
        for e in ends:
            e.record()
        for e in ends:
            e.synchronize()
        ts[0, n] = t1 - t0
        for j, (a, b) in enumerate(zip(starts, ends)):
            ts[1 + j, n] = _ember.get_elapsed_time(a, b) * 1e-3
        n += 1
        spent += time.perf_counter() - t0
        if spent > max_duration:
            break
    return _PerfCaseResult(name, ts[:, :n].copy(), devs)
