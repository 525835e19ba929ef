"""ember.profiler: what ember's work costs.

- ``profile()`` (also ``ember.profile``): records every kernel launch,
  copy, fill, allocation and synchronize ember makes while it is on, on
  every device, stream and host thread (src/runtime/profile.c); its
  ``summary()`` is a table sorted by device time and its ``export(path)`` a
  Chrome/Perfetto trace.
- ``range(name)`` (``time_range`` as cupyx.profiler spells it): a context
  manager and decorator marking a span that shows in the profile and, when
  Nsight Systems or another NVTX tool is attached, in its timeline.
- ``benchmark``: cupyx.profiler.benchmark's signature, result and printout,
  timing host time (time.perf_counter) and device time (a pair of ember
  Events per device) for each repeat. On the cpu device the events time the
  cpu device's stream, so the same call reports on both devices.
"""
import builtins
import functools
import math
import time

from ember import _ember

__all__ = ["benchmark", "profile", "range", "time_range"]


class profile:
    """``with ember.profile() as p:`` records ember's work in the block;
    ``p.summary()`` and ``p.export("trace.json")`` show it afterwards.
    One profile records at a time in a process: entering a second one
    (nested, or from another thread) raises RuntimeError. ``start()`` and
    ``stop()`` do what the with-block does, for code that cannot use one.

    Device times on a GPU come from CUPTI's activity records where CUPTI
    can be used (``device_times="auto"``, the default: no events in the
    streams, the cheapest way to a launch's device time), else from a pair
    of events around each operation; ``device_times="cupti"`` insists on
    CUPTI (RuntimeError says why it cannot: no libcupti, or another CUPTI
    client such as Nsight Systems holds it) and ``"events"`` on events. The
    cpu device reads the host clock. After ``start()``, ``device_times``
    says which was used ("events" or "cupti"). Leaving the block waits
    for the profiled work."""

    def __init__(self, device_times="auto"):
        if device_times not in ("auto", "events", "cupti"):
            raise ValueError("ember.profile: device_times must be 'auto', "
                             "'events' or 'cupti', not %r" % (device_times,))
        self._asked = device_times
        self.device_times = device_times
        self._records = None

    def start(self):
        _ember._prof_start(self._asked)
        self.device_times = _ember._prof_device_times()
        self._records = None
        return self

    def stop(self):
        from ember import _profile_report
        self._records = _profile_report.records(_ember._prof_stop())
        return self

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
        return False

    def _recs(self):
        if self._records is None:
            raise RuntimeError("ember.profile: nothing recorded yet (use it as "
                               "`with ember.profile() as p:` or call start() "
                               "and stop())")
        return self._records

    @property
    def records(self):
        """The operations recorded, in the order their calls returned
        (ranges: when they began), as Record named tuples."""
        return list(self._recs())

    def table(self):
        """(device rows, host rows): Row named tuples (name, kind, calls,
        total, mean, max, percent, host), times in seconds; device rows
        (kernels, copies, fills) sorted by total device time, host rows
        (synchronizes, allocations, ranges) by total host time."""
        from ember import _profile_report
        return _profile_report.table(self._recs())

    def summary(self, file=None, print_=True):
        """Print (to file, default stdout; nothing with print_=False) and
        return the table: name, calls, total, mean and max device time, its
        share of all device time and the calls' host time, then the host's
        waits, allocations and ranges."""
        import sys
        from ember import _profile_report
        text = _profile_report.summary_text(self._recs(), self.device_times)
        if print_:
            (file or sys.stdout).write(text)
        return text

    def export(self, path):
        """Write a Chrome/Perfetto trace (JSON, the Trace Event Format) to
        path: one track per host thread with each call's host time, and one
        per device stream with the work's device time. Open it in
        https://ui.perfetto.dev or chrome://tracing."""
        from ember import _profile_report
        _profile_report.write_trace(self._recs(), path, _ember.__version__)


class range:
    """``with ember.profiler.range("load"):`` or ``@ember.profiler.range("step")``
    marks a span of host time (the builtin range is builtins.range here): in a profile's records and trace (nested
    ranges keep their depth), and in NVTX when a tool such as Nsight Systems
    is attached (NVTX_INJECTION64_PATH set, NVTX's library found). Costs one
    C call each way otherwise."""

    def __init__(self, name):
        if not isinstance(name, str):
            raise TypeError("ember.profiler.range: name must be str, not %s"
                            % type(name).__name__)
        self.name = name

    def __enter__(self):
        _ember._prof_range_push(self.name)
        return self

    def __exit__(self, *exc):
        _ember._prof_range_pop()
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapped(*args, **kwargs):
            with self:
                return fn(*args, **kwargs)
        return wrapped


def time_range(message=None, color_id=None, argb_color=None, sync=False):
    """cupyx.profiler.time_range's spelling of range(message): a context
    manager and decorator (a decorated function's name when message is
    None). Colours are NVTX's concern and ignored; sync=True waits for the
    current device on entry and exit, as CuPy does."""
    class _timed(range):
        def __enter__(self):
            if sync:
                _ember.get_current_device().synchronize()
            return super().__enter__()

        def __exit__(self, *exc):
            if sync:
                _ember.get_current_device().synchronize()
            return super().__exit__(*exc)

        def __call__(self, fn):
            if message is None:
                self.name = fn.__name__
            return super().__call__(fn)

    return _timed(message if message is not None else "")


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
                      for i in builtins.range(len(self._devices))]
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
    for _ in builtins.range(n_warmup):
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
