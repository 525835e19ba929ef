"""ember.cuda.random: Numba-CUDA's xoroshiro128+ generators for kernels.

Each thread owns one generator state; the state of generator i is the
state of generator 0 advanced by i jumps of 2**64 steps, so the threads'
streams never overlap for fewer than 2**64 draws each. The algorithm is
the one Numba documents (xoroshiro128+ with rotations 55 and 36 and shift
14; a state seeded by one splitmix64 step, both words alike; the
2**64-step jump polynomial; uniform floats from the top 53 bits; normal
floats by Box-Muller, keeping the cosine half), so one seed gives the same
numbers as in Numba, on the GPU and on `cpu` alike.

A state array here is uint64 of shape (n, 2) (s0, s1 per row), where Numba
uses n records of two uint64 fields; kernels pass it and an index to the
functions below exactly as in Numba. The states are computed on the host
(a `cpu` kernel) and copied to the current device, as Numba does.
"""
import math

import ember
from ember.cuda.dispatcher import jit as _jit

__all__ = ["create_xoroshiro128p_states", "init_xoroshiro128p_states",
           "xoroshiro128p_next", "xoroshiro128p_jump", "xoroshiro128p_uniform_float32",
           "xoroshiro128p_uniform_float64", "xoroshiro128p_normal_float32",
           "xoroshiro128p_normal_float64", "xoroshiro128p_dtype"]

# Kernel code below spells its types ember.uint64(...), not NumPy's, so
# that importing ember (which imports this module) imports no NumPy.

# The jump polynomial: 2**64 calls of next() in one.
_JUMP = (0xbeac0467eba5facb, 0xd86b048b86aa9922)
_TWO_PI = 2 * math.pi


def __getattr__(name):
    # Numba's record type of one state (the rows here hold the same two
    # fields); made on first use, as it needs NumPy
    if name == "xoroshiro128p_dtype":
        import numpy as np
        return np.dtype([("s0", np.uint64), ("s1", np.uint64)])
    raise AttributeError("module %r has no attribute %r" % (__name__, name))

_device = _jit(device=True)


@_device
def xoroshiro128p_next(states, index):
    """The next raw uint64 of generator `index`, advancing its state."""
    s0 = states[index, 0]
    s1 = states[index, 1]
    result = s0 + s1
    s1 ^= s0
    states[index, 0] = ((s0 << 55) | (s0 >> 9)) ^ s1 ^ (s1 << 14)
    states[index, 1] = (s1 << 36) | (s1 >> 28)
    return result


@_device
def xoroshiro128p_jump(states, index):
    """Advance generator `index` by 2**64 steps."""
    s0 = ember.uint64(0)
    s1 = ember.uint64(0)
    for i in range(2):
        word = _JUMP[i]
        for b in range(64):
            if (word >> ember.uint64(b)) & ember.uint64(1):
                s0 ^= states[index, 0]
                s1 ^= states[index, 1]
            xoroshiro128p_next(states, index)
    states[index, 0] = s0
    states[index, 1] = s1


@_device
def _uint64_to_unit_float64(x):
    return (x >> ember.uint64(11)) * (1.0 / 9007199254740992.0)


@_device
def xoroshiro128p_uniform_float64(states, index):
    """A float64 uniform on [0, 1)."""
    return _uint64_to_unit_float64(xoroshiro128p_next(states, index))


@_device
def xoroshiro128p_uniform_float32(states, index):
    """A float32 uniform on [0, 1] (the float64 draw rounded, as Numba)."""
    return ember.float32(_uint64_to_unit_float64(xoroshiro128p_next(states, index)))


@_device
def xoroshiro128p_normal_float32(states, index):
    """A float32 standard normal (Box-Muller's first value)."""
    u1 = xoroshiro128p_uniform_float32(states, index)
    u2 = xoroshiro128p_uniform_float32(states, index)
    two_pi = ember.float32(_TWO_PI)
    return math.sqrt(ember.float32(-2.0) * math.log(u1)) * math.cos(two_pi * u2)


@_device
def xoroshiro128p_normal_float64(states, index):
    """A float64 standard normal (Box-Muller's first value)."""
    u1 = xoroshiro128p_uniform_float64(states, index)
    u2 = xoroshiro128p_uniform_float64(states, index)
    return math.sqrt(-2.0 * math.log(u1)) * math.cos(_TWO_PI * u2)


@_device
def _seed_state(states, index, seed):
    # one splitmix64 step; Numba starts both words from it
    z = seed + ember.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> ember.uint64(30))) * ember.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> ember.uint64(27))) * ember.uint64(0x94D049BB133111EB)
    z = z ^ (z >> ember.uint64(31))
    states[index, 0] = z
    states[index, 1] = z


# Sequential by nature (each state is its predecessor jumped): launched as
# one thread, compiled for cpu, without bounds checks (the loops stay in range).
@_jit(boundscheck=False)
def _init_states(states, seed, subsequence_start):
    n = states.shape[0]
    if n >= 1:
        _seed_state(states, 0, seed)
        for _ in range(subsequence_start):
            xoroshiro128p_jump(states, 0)
        for i in range(1, n):
            states[i, 0] = states[i - 1, 0]
            states[i, 1] = states[i - 1, 1]
            xoroshiro128p_jump(states, i)


def _host_states(n, seed, subsequence_start):
    import numpy as np
    n = int(n)
    if n < 0:
        raise ValueError("the number of generators must be >= 0, got %d" % n)
    seed, sub = int(seed), int(subsequence_start)
    if not 0 <= sub < 1 << 64:
        raise ValueError("subsequence_start must be in [0, 2**64), got %d" % sub)
    host = np.zeros((n, 2), np.uint64)
    if n:
        with ember.Device("cpu"):
            _init_states[1, 1](host, np.uint64(seed % (1 << 64)), np.uint64(sub))
    return host


def init_xoroshiro128p_states(states, seed, subsequence_start=0, stream=0):
    """Seed the generators of an existing state array (a device array or a
    NumPy array of shape (n, 2), uint64): generator i starts
    subsequence_start + i jumps of 2**64 after the seed's state."""
    import numpy as np
    shape = tuple(states.shape)
    if len(shape) != 2 or shape[1] != 2 or np.dtype(str(states.dtype)) != np.uint64:
        raise TypeError("a state array is uint64 of shape (n, 2), not %s of shape %s"
                        % (states.dtype, shape))
    host = _host_states(shape[0], seed, subsequence_start)
    if isinstance(states, np.ndarray):
        states[...] = host
    else:
        states.copy_to_device(host, stream=stream)


def create_xoroshiro128p_states(n, seed, subsequence_start=0, stream=0):
    """A new array of n generator states on the current device."""
    from ember import cuda
    return cuda.to_device(_host_states(n, seed, subsequence_start), stream=stream)
