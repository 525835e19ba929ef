"""What ember.profile() shows of its records (src/runtime/profile.c):
the table its summary prints and the Chrome/Perfetto trace its export
writes. Records arrive as tuples from the C core; nothing here touches a
device."""
import collections
import json
import os

# em_prof_kind's order (include/ember/profile.h)
KINDS = ("kernel", "copy", "memset", "alloc", "synchronize", "range", "graph")
DEVICE_KINDS = frozenset(("kernel", "copy", "memset", "graph"))

Record = collections.namedtuple("Record", (
    "kind", "name", "device", "stream", "thread", "tid", "depth", "bytes",
    "host_start", "host_end", "device_start", "device_end"))
Record.__doc__ = """One recorded operation. Times are nanoseconds of the
host's monotonic clock; device_start/device_end are None where the
operation has no device time (allocations, synchronizes, ranges, work
recorded into a graph capture)."""


def records(raw):
    out = []
    for t in raw:
        dev_start, dev_end = t[10], t[11]
        out.append(Record(KINDS[t[0]], t[1], t[2], t[3], t[4], t[5], t[6],
                          t[7], t[8], t[9],
                          None if dev_start < 0 else dev_start,
                          None if dev_end < 0 else dev_end))
    return out


Row = collections.namedtuple("Row", (
    "name", "kind", "calls", "total", "mean", "max", "percent", "host"))
Row.__doc__ = """One line of the summary: the operations of one name.
total/mean/max are seconds of device time for kernels, copies and fills,
and of host time for the rest; percent is the share of all device time
(None for host-only rows); host is the host time of the calls (for a
launch, its launch cost)."""


def table(recs):
    """(device rows sorted by total device time, host rows sorted by
    total host time)."""
    groups = collections.OrderedDict()
    for r in recs:
        on_device = r.kind in DEVICE_KINDS
        g = groups.setdefault((on_device, r.kind, r.name), [0, [], 0])
        g[0] += 1
        if on_device:
            if r.device_start is not None:
                g[1].append(r.device_end - r.device_start)
        else:
            g[1].append(r.host_end - r.host_start)
        g[2] += r.host_end - r.host_start
    device_total = sum(sum(g[1]) for (dev, _, _), g in groups.items() if dev)
    dev_rows, host_rows = [], []
    for (on_device, kind, name), (calls, times, host) in groups.items():
        total = sum(times) * 1e-9
        mean = total / len(times) if times else 0.0
        mx = max(times) * 1e-9 if times else 0.0
        if on_device:
            pct = 100.0 * sum(times) / device_total if device_total else 0.0
            dev_rows.append(Row(name, kind, calls, total, mean, mx, pct, host * 1e-9))
        else:
            host_rows.append(Row(name, kind, calls, total, mean, mx, None, host * 1e-9))
    dev_rows.sort(key=lambda r: (-r.total, r.name))
    host_rows.sort(key=lambda r: (-r.total, r.name))
    return dev_rows, host_rows


def _us(s):
    return "%.3f" % (s * 1e6)


def summary_text(recs, device_times="events"):
    dev_rows, host_rows = table(recs)
    width = max([len(r.name) for r in dev_rows + host_rows] + [4])
    devices = sorted({r.device for r in recs if r.kind in DEVICE_KINDS})
    total = sum(r.total for r in dev_rows)
    lines = ["ember profile: %d operations on %s, %s us of device time%s"
             % (sum(r.calls for r in dev_rows), ", ".join(devices) or "no device",
                _us(total), " (GPU times from CUPTI)" if device_times == "cupti" and
                any(d != "cpu" for d in devices) else "")]
    head = "%-*s %6s %12s %12s %12s %6s %12s" % (
        width, "name", "calls", "total us", "mean us", "max us", "%", "launch us")
    lines += [head, "-" * len(head)]
    for r in dev_rows:
        lines.append("%-*s %6d %12s %12s %12s %6.1f %12s" % (
            width, r.name, r.calls, _us(r.total), _us(r.mean), _us(r.max),
            r.percent, _us(r.host)))
    if host_rows:
        lines.append("")
        head = "%-*s %6s %12s %12s %12s  %s" % (
            width, "host", "calls", "total us", "mean us", "max us", "kind")
        lines += [head, "-" * len(head)]
        for r in host_rows:
            lines.append("%-*s %6d %12s %12s %12s  %s" % (
                width, r.name, r.calls, _us(r.total), _us(r.mean), _us(r.max),
                r.kind))
    return "\n".join(lines) + "\n"


def trace_events(recs, version):
    """The Trace Event Format's object: one process for the host (a track
    per thread) and one per device (a track per stream); "X" complete
    events with ts/dur in microseconds from the profile's first instant,
    "M" metadata naming the processes and tracks, and a flow ("s" at the
    call on the host, "f" at the work on the device, one id each) from
    each launch or copy to where it ran, which the viewers draw as an
    arrow."""
    t0 = min([r.host_start for r in recs] +
             [r.device_start for r in recs if r.device_start is not None] or [0])
    devices = sorted({r.device for r in recs if r.device})
    # a device's tracks are its streams, tid = the stream's number; its
    # pid is above every such number, since viewers (Perfetto) take the
    # track whose tid equals its pid for the process's main thread
    top = max([r.stream for r in recs if r.device and r.stream is not None] + [0])
    dev_pid = {d: top + 2 + i for i, d in enumerate(devices)}
    host_pid = 1
    events = [{"ph": "M", "name": "process_name", "pid": host_pid, "tid": 0,
               "args": {"name": "host (pid %d)" % os.getpid()}},
              {"ph": "M", "name": "process_sort_index", "pid": host_pid, "tid": 0,
               "args": {"sort_index": 0}}]
    for d, pid in dev_pid.items():
        events.append({"ph": "M", "name": "process_name", "pid": pid, "tid": 0,
                       "args": {"name": d}})
        events.append({"ph": "M", "name": "process_sort_index", "pid": pid,
                       "tid": 0, "args": {"sort_index": pid}})
    threads = {}
    streams = set()
    for r in recs:
        threads.setdefault(r.thread, r.tid)
        if r.kind in DEVICE_KINDS and r.device_start is not None:
            streams.add((r.device, r.stream))
    for n, tid in sorted(threads.items()):
        events.append({"ph": "M", "name": "thread_name", "pid": host_pid,
                       "tid": tid, "args": {"name": "thread %d (tid %d)" % (n, tid)}})
    for d, s in sorted(streams):
        events.append({"ph": "M", "name": "thread_name", "pid": dev_pid[d],
                       "tid": s, "args": {"name": "stream %d%s" % (
                           s, " (default)" if s == 0 else "")}})

    def us(ns):
        return (ns - t0) / 1000.0

    for i, r in enumerate(recs):
        args = {"device": r.device} if r.device else {}
        if r.bytes:
            args["bytes"] = r.bytes
        if r.kind in DEVICE_KINDS:
            args["stream"] = r.stream
        events.append({"ph": "X", "name": r.name, "cat": r.kind, "pid": host_pid,
                       "tid": r.tid, "ts": us(r.host_start),
                       "dur": (r.host_end - r.host_start) / 1000.0, "args": args})
        if r.kind in DEVICE_KINDS and r.device_start is not None:
            events.append({"ph": "X", "name": r.name, "cat": r.kind,
                           "pid": dev_pid[r.device], "tid": r.stream,
                           "ts": us(r.device_start),
                           "dur": (r.device_end - r.device_start) / 1000.0,
                           "args": dict(args, launch_us=(r.host_end - r.host_start) / 1000.0)})
            events.append({"ph": "s", "id": i, "name": "launch", "cat": "flow",
                           "pid": host_pid, "tid": r.tid, "ts": us(r.host_start)})
            events.append({"ph": "f", "bp": "e", "id": i, "name": "launch",
                           "cat": "flow", "pid": dev_pid[r.device], "tid": r.stream,
                           "ts": us(r.device_start)})
    return {"traceEvents": events, "displayTimeUnit": "ms",
            "otherData": {"producer": "ember %s" % version}}


def write_trace(recs, path, version):
    with open(path, "w") as f:
        json.dump(trace_events(recs, version), f)
