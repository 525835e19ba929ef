"""cuda.core's LaunchConfig and launch(stream, config, kernel, *args) over
ember's kernel launch. Arguments are converted by the kernel's parameter
types (read from its source): ember arrays, Buffers, objects with
__cuda_array_interface__ or __dlpack__ (viewed without a copy), addresses
as ints (a.data.ptr) for pointer parameters, NumPy scalars as they are
(np.float32(2.0) is 4 bytes, np.uint64(n) 8) and Python numbers as the
parameter's C type."""
import numpy

import ember

from ._memory import Buffer
from ._program import Kernel
from ._graph import GraphBuilder
from ._stream import Stream, _ember_stream

__all__ = ["LaunchConfig", "launch"]


def _dim3(v, what):
    t = (v,) if isinstance(v, (int, numpy.integer)) else tuple(v)
    if not 1 <= len(t) <= 3 or any(int(x) < 1 for x in t):
        raise ValueError("LaunchConfig: %s must be a positive int or 1 to 3 "
                         "positive ints, got %r" % (what, v))
    return tuple(int(x) for x in t)


class LaunchConfig:
    """LaunchConfig(grid=None, cluster=None, block=None, shmem_size=None,
    cooperative_launch=False). cluster is the thread block cluster's shape
    in blocks (Hopper and newer on the GPU)."""

    def __init__(self, grid=None, cluster=None, block=None, shmem_size=None,
                 cooperative_launch=False):
        if grid is None or block is None:
            raise ValueError("LaunchConfig needs grid= and block=")
        self.grid = _dim3(grid, "grid")
        self.block = _dim3(block, "block")
        self.cluster = None if cluster is None else _dim3(cluster, "cluster")
        self.shmem_size = 0 if shmem_size is None else int(shmem_size)
        self.cooperative_launch = bool(cooperative_launch)

    def __repr__(self):
        return ("LaunchConfig(grid=%s, cluster=%s, block=%s, shmem_size=%d, "
                "cooperative_launch=%s)" % (self.grid, self.cluster,
                                            self.block, self.shmem_size,
                                            self.cooperative_launch))


def _address(ptr, dev):
    """A device array at a raw address on dev, for a pointer parameter (the
    memory is the caller's; ember only passes its address)."""
    mem = ember.cuda.UnownedMemory(int(ptr), 1, None, dev)
    return ember.ndarray((1,), numpy.uint8,
                         memptr=ember.cuda.MemoryPointer(mem, 0))


def _arg(a, kind, dev):
    """One launch argument as the kernel takes it. Foreign memory is taken
    to be on the launch stream's device (dev), as cuda.core launches there,
    never on the thread's current or the default device."""
    if isinstance(a, Buffer):
        return a._kernel_arg()
    if isinstance(a, ember.ndarray):
        return a
    if kind == "pointer" and isinstance(a, (int, numpy.integer)) and \
            not isinstance(a, bool):
        return _address(a, dev)
    if hasattr(a, "__cuda_array_interface__"):
        # CUDA memory by the interface's definition: on a cpu stream the
        # array keeps its GPU and the launch names both devices
        return ember.asarray(a, device=dev if dev.type == "cuda" else None)
    if hasattr(a, "__dlpack__") and not isinstance(a, numpy.generic):
        return ember.from_dlpack(a)
    return a


def launch(stream, config, kernel, *kernel_args):
    """Queue kernel on stream with config's grid, block, dynamic shared
    memory, cluster and cooperative_launch. A cluster must divide the grid
    (ValueError). On cpu, whose kernels cannot see clusters or synchronise
    their grid, a cluster of at most 8 blocks or a cooperative launch runs
    as an ordinary launch."""
    if not isinstance(config, LaunchConfig):
        raise TypeError("launch(): config must be a LaunchConfig, not %s"
                        % type(config).__name__)
    if not isinstance(kernel, Kernel):
        raise TypeError("launch(): kernel must be a Kernel (from "
                        "ObjectCode.get_kernel), not %s" % type(kernel).__name__)
    if stream is None or not (isinstance(stream, (Stream, ember.Stream,
                                                  GraphBuilder)) or
                              hasattr(stream, "__cuda_stream__")):
        raise TypeError("launch(): stream must be a Stream, a GraphBuilder or "
                        "have __cuda_stream__, not %s" % type(stream).__name__)
    kinds = kernel._fn.param_kinds
    if len(kernel_args) != len(kinds):
        raise TypeError("launch(): kernel %s takes %d arguments, %d given"
                        % (kernel.name, len(kinds), len(kernel_args)))
    es = _ember_stream(stream)
    dev = es.device if es is not None else ember.get_current_device()
    args = tuple(_arg(a, k, dev) for a, k in zip(kernel_args, kinds))
    if config.cluster is None and not config.cooperative_launch:
        kernel._fn(config.grid, config.block, args,
                   shared_mem=config.shmem_size, stream=es)
    else:
        kernel._fn(config.grid, config.block, args,
                   shared_mem=config.shmem_size, stream=es,
                   cluster=config.cluster or 1,
                   cooperative=config.cooperative_launch)
