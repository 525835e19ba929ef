"""The frame's own row kernels (frame/kernels/*.cuh other than the string
ones, which _str_kernels compiles together): each file a RawModule, built
once a device (NVRTC on cuda, the host compiler on cpu), and the launch
geometry they share: on cuda 256 threads a block striding over the rows
(chunk 0), on cpu one thread a block, each block a contiguous run of rows
(chunk > 0), so that a pool thread walks memory in order."""
import os
import pathlib

import ember

_modules = {}


_DIR = pathlib.Path(__file__).parent / "kernels"


def source(name):
    """frame/kernels/<name> as it is compiled: rows.cuh (the row range
    every one of these kernels takes) and then the file."""
    return (_DIR / "rows.cuh").read_text() + "\n" + (_DIR / name).read_text()


def module(dev, name):
    """The RawModule of frame/kernels/<name> on device dev."""
    key = (str(dev), name)
    m = _modules.get(key)
    if m is None:
        code = source(name)
        with ember.Device(dev):
            m = ember.RawModule(code=code)
        _modules[key] = m
    return m


def geometry(dev, n, most=65536):
    """(grid, block, chunk) of a pass over n rows (most: blocks on cuda)."""
    if dev.type != "cpu":
        return (max(1, min((n + 255) // 256, most)),), (256,), 0
    threads = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") \
        else (os.cpu_count() or 1)
    # four runs a pool thread, so that they even out; none under 64 Ki rows
    chunk = max(-(-n // (4 * threads)), 1 << 16)
    return (max(-(-n // chunk), 1),), (1,), chunk


def launch(dev, name, kernel, grid, block, args):
    with ember.Device(dev):
        module(dev, name).get_function(kernel)(grid, block, args)
