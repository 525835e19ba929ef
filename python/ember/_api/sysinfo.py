"""ember.info(): the report behind `python -m ember info`. It says what
ember found and, for what it did not, why, so it must itself never fail
on a machine that lacks something: each failure becomes a line."""
import sys

from ember import _ember

__all__ = ["info"]

_GIB = 1024.0 ** 3


def _version(what, v):
    if v > 0:
        return "%-12s %d.%d (%d)\n" % (what, v // 1000, v % 1000 // 10, v)
    return "%-12s not found\n" % what


def _device(d):
    try:
        p = d.properties
    except Exception as e:
        return "  %-8s (properties unavailable: %s)\n" % (d, e)
    out = "  %-8s %s" % (d, p["name"])
    if d.type == "cuda":
        out += ", compute capability %d.%d, %d SMs" % (p["major"], p["minor"],
                                                        p["multiProcessorCount"])
    else:
        out += ", %d cores" % p["multiProcessorCount"]
    try:
        free, total = d.mem_info
    except Exception as e:
        return out + "; memory unknown (%s)\n" % e
    return out + "; memory %.1f GiB total, %.1f GiB free\n" % (total / _GIB, free / _GIB)


def _devices():
    out = "devices:\n"
    try:
        out += _device(_ember.Device("cpu"))
    except Exception as e:
        out += "  cpu      unavailable: %s\n" % e
    try:
        n = _ember._cuda_device_count()
    except Exception:
        n = 0
    for i in range(n):
        try:
            out += _device(_ember.Device("cuda:%d" % i))
        except Exception as e:
            out += "  cuda:%d   unavailable: %s\n" % (i, e)
    if n == 0:
        out += "device 0 (Device(0), runtime.setDevice(0)): cpu, as there is no GPU\n"
    try:
        out += "default device: %s\n" % _ember.default_device()
    except Exception as e:
        out += "default device: none (%s)\n" % e
    return out


def _caches():
    folder, entries, nbytes, err = _ember._diskcache_usage()
    if err is None:
        out = "kernel cache: %s (%d entries, %.1f MiB)\n" % (folder, entries,
                                                            nbytes / 1048576.0)
    else:
        out = "kernel cache: %s (unreadable: %s)\n" % (folder, err)
    s = _ember._kernel_cache_stats()
    out += ("kernel cache this process: %d compiles, %d memory hits, %d disk hits\n"
            % (s["compiles"], s["memory_hits"], s["disk_hits"]))
    out += "CUDA libraries (and the cpu's OpenBLAS):\n"
    for name, path, why in _ember._vendor_libs():
        out += "  %-9s %s\n" % (name, path if path is not None else why)
    return out


def info():
    """A report of ember's version, backends, library versions, devices and
    kernel cache (what `python -m ember info` prints)."""
    driver, nvrtc = _ember._cuda_versions()
    out = ("ember %s (Python %s)\n" % (_ember.__version__, sys.version) +
           "backends:\n  cpu:  %s\n  cuda: %s\n" % (_ember.backend_status("cpu"),
                                                   _ember.backend_status("cuda")) +
           _version("CUDA driver:", driver) + _version("NVRTC:", nvrtc) +
           _devices() + _caches())
    knobs = ["%s=%.200s" % (name, v) for name, _, v in _ember._knobs() if v is not None]
    return (out + "environment (docs/knobs.md lists ember's variables):" +
            (" " + ", ".join(knobs) if knobs else " none set") + "\n")
