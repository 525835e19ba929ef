"""Per-kernel compile times of this process: the translator's phases, timed
by ember.jit and the disk index, and the C compile (NVRTC or the host C
compiler, or the kernel cache's load), timed by the dispatcher's C.
EMBER_COMPILE_LOG=1 prints each kernel's line to stderr as it compiles;
ember.jit.compile_times() returns the records."""
import os
import sys
import threading
import time

_records = []
# phase -> seconds of the translation under way, per thread: the GIL may
# pass between two threads' translations, and is released while they compile
_local = threading.local()
_LOG = os.environ.get("EMBER_COMPILE_LOG", "0") not in ("", "0")

clock = time.perf_counter


def _pending():
    p = getattr(_local, "phases", None)
    if p is None:
        p = _local.phases = {}
    return p


def phase(name, seconds):
    p = _pending()
    p[name] = p.get(name, 0.0) + seconds


def take():
    """The phases this thread timed since its last take (one translation's)."""
    p = _pending()
    out = dict(p)
    p.clear()
    return out


def record(kernel, target, argcodes, phases, source_bytes):
    rec = {"kernel": kernel, "target": target, "argcodes": tuple(argcodes),
           "phases": phases, "total": sum(phases.values()),
           "source_bytes": source_bytes}
    _records.append(rec)     # list.append is atomic under the GIL
    if _LOG:
        sys.stderr.write("ember: compiled %s%s for %s in %.1f ms (%s; %d bytes of C)\n" % (
            kernel, "(" + ", ".join(rec["argcodes"]) + ")", target, rec["total"] * 1e3,
            ", ".join("%s %.1f" % (k, v * 1e3) for k, v in phases.items()), source_bytes))
    return rec


def compile_times():
    """A list of {'kernel', 'target', 'argcodes', 'phases' (name -> seconds),
    'total', 'source_bytes'}, one per specialisation compiled (or loaded
    from the disk cache) in this process, oldest first."""
    return [dict(r, phases=dict(r["phases"])) for r in _records]
