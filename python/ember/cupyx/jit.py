"""ember.cupyx.jit: CuPy's Python kernels (cupyx.jit) on ember's translator.

    from ember.cupyx import jit

    @jit.rawkernel()
    def copy(x, y, size):
        tid = jit.blockIdx.x * jit.blockDim.x + jit.threadIdx.x
        for i in range(tid, size, jit.gridDim.x * jit.blockDim.x):
            y[i] = x[i]

    copy((128,), (1024,), (x, y, size))     # CuPy's launch
    copy[128, 1024](x, y, size)             # also CuPy's

Inside a kernel `jit.threadIdx`, `blockIdx`, `blockDim`, `gridDim`,
`grid(n)`, `gridsize(n)`, `laneid`, `warpsize`, `syncthreads()`,
`syncwarp()`, the `shfl_*_sync` functions, `atomic_add` and the other
`atomic_*` functions and `shared_memory(dtype, size)` are read by the
translator as Numba's cuda.* equivalents (python/ember/jit/intrinsics.py),
so a cupyx.jit kernel is an ember.cuda.jit kernel with CuPy's launch. The
names here are what the translator sees; outside a kernel they only say
what they are."""
from ember.cuda.dispatcher import jit as _jit


class _KernelOnly:
    """A name that means something only inside a @jit.rawkernel function."""

    def __init__(self, name):
        self._name = name

    def __repr__(self):
        return "<cupyx.jit.%s (inside kernels only)>" % self._name

    def __call__(self, *args, **kwargs):
        raise RuntimeError("cupyx.jit.%s can only be used inside a @jit.rawkernel "
                           "function" % self._name)


_NAMES = ("threadIdx", "blockIdx", "blockDim", "gridDim", "grid", "gridsize", "laneid",
          "warpsize", "syncthreads", "syncwarp", "shfl_sync", "shfl_up_sync",
          "shfl_down_sync", "shfl_xor_sync", "shared_memory", "atomic_add", "atomic_sub",
          "atomic_exch", "atomic_min", "atomic_max", "atomic_inc", "atomic_dec",
          "atomic_cas", "atomic_and", "atomic_or", "atomic_xor")
for _n in _NAMES:
    globals()[_n] = _KernelOnly(_n)
del _n


def _dim(d, what):
    if isinstance(d, int):
        return d
    t = tuple(d)
    if not 1 <= len(t) <= 3:
        raise ValueError("%s must have 1 to 3 dimensions, got %r" % (what, d))
    return t


class RawKernel:
    """A kernel made by @jit.rawkernel(): `k(grid, block, args,
    shared_mem=0, stream=None)` as CuPy launches it, or `k[grid, block](*args)`."""

    def __init__(self, func, device=False):
        self._func = func
        self._disp = _jit(func, device=bool(device))
        self.__name__ = getattr(func, "__name__", "kernel")
        self.__doc__ = getattr(func, "__doc__", None)

    @property
    def py_func(self):
        return self._func

    def __call__(self, grid, block, args, shared_mem=0, stream=None):
        if not isinstance(args, tuple):
            raise TypeError("%s(grid, block, args): args must be a tuple, not %s"
                            % (self.__name__, type(args).__name__))
        cfg = (_dim(grid, "grid"), _dim(block, "block"), stream, shared_mem)
        return self._disp[cfg](*args)

    def __getitem__(self, cfg):
        return self._disp[cfg]

    def __repr__(self):
        return "<ember.cupyx.jit.RawKernel %s>" % self.__name__


def rawkernel(*, mode="python", device=False):
    """CuPy's decorator: a RawKernel of the function, or with device=True a
    device function that kernels call."""
    if mode != "python":
        raise ValueError("rawkernel(mode=%r): only 'python' is supported" % (mode,))

    def deco(func):
        if device:
            return _jit(func, device=True)
        return RawKernel(func)
    return deco


__all__ = ["rawkernel", "RawKernel"] + list(_NAMES)
