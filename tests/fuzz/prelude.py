"""Objects the fuzzer's recipes refer to as P.<name>: awkward Python
objects, kernels of each kind, a stream and an event. Imported once per
child process; recipes stay short source strings, so a failing call can be
printed as a reproducer that runs on its own (`from prelude import *`)."""
import numpy as np

import ember
from ember import cuda


class BadIndex:
    """__index__ raises: C code must check after calling it."""
    def __index__(self):
        raise RuntimeError("fuzz: __index__ raised")


class BadLen:
    def __len__(self):
        raise RuntimeError("fuzz: __len__ raised")

    def __getitem__(self, i):
        raise RuntimeError("fuzz: __getitem__ raised")


class BigLen:
    """Claims 2**62 elements."""
    def __len__(self):
        return 2**62

    def __getitem__(self, i):
        if i < 3:
            return i
        raise IndexError(i)


class BadIter:
    def __iter__(self):
        raise RuntimeError("fuzz: __iter__ raised")


class BadArray:
    def __array__(self, *a, **k):
        raise RuntimeError("fuzz: __array__ raised")


class BadBool:
    def __bool__(self):
        raise RuntimeError("fuzz: __bool__ raised")


class BadFloat:
    def __float__(self):
        raise RuntimeError("fuzz: __float__ raised")

    def __index__(self):
        return 2


class BadCAI:
    """A __cuda_array_interface__ that lies."""
    __cuda_array_interface__ = {"shape": (4,), "typestr": "<f4", "data": (0, False),
                                "version": 3}


def ro(a):
    """A read-only NumPy array."""
    a = np.array(a)
    a.flags.writeable = False
    return a


def swapped(a):
    """The same values in the other byte order."""
    a = np.asarray(a)
    return a.astype(a.dtype.newbyteorder())


EK = ember.ElementwiseKernel("T x, T y", "T z", "z = x + y", "fuzz_add")
EK1 = ember.ElementwiseKernel("float32 x", "float32 y", "y = x * 2", "fuzz_twice")
RK = ember.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "fuzz_sum")
RAW_SRC = r'''
extern "C" __global__ void fuzz_inc(float *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] += 1.0f;
}
'''
RAW = ember.RawKernel(RAW_SRC, "fuzz_inc")
MOD = ember.RawModule(code=RAW_SRC)


@cuda.jit
def JIT(a, b):
    i = cuda.grid(1)
    if i < a.size:
        a[i] += b


@cuda.jit
def JIT2(a, b, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a[i] * b[i]


S = ember.Stream()
E = ember.Event()
BUF = ember.alloc(64)
POOL = ember.get_default_memory_pool()
DEV = ember.Device("cpu")
RNG = ember.random.default_rng(0)
RS = ember.random.RandomState(0)
A = ember.arange(12, dtype=ember.float32).reshape(3, 4)
AI = ember.arange(10, dtype=ember.int64)
