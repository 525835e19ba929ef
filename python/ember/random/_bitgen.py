"""The bit generators: NumPy's PCG64, PCG64DXSM and Philox, seeded and
stated as NumPy's, whose words ember's kernels draw (em_random_fill).

A bit generator here holds only its state, as Python integers; a fill
passes the state to the kernel, which draws every word from its place in
the stream, and the state then moves past the words used, so successive
calls continue the stream exactly as NumPy's would (including NumPy's
buffered half of a 64-bit word after an odd number of 32-bit draws).
"""
import threading

import numpy as _np

from ember import _ember
from ember.random import _streams as _s

SeedSequence = _np.random.SeedSequence

# em_random_dist (include/ember/random.h)
BITS64, BITS32, UNIFORM, UNIFORM32, NORMAL, EXPONENTIAL = range(6)
GAMMA, POISSON, BINOMIAL, INTEGERS = range(6, 10)
(LOGNORMAL, LAPLACE, LOGISTIC, GUMBEL, RAYLEIGH, WEIBULL, PARETO, POWER,
 CAUCHY, GEOMETRIC) = range(10, 20)
ZIPF, LOGSERIES, HYPERGEOMETRIC, VONMISES = 20, 21, 22, 23
_HALVES = (BITS32, UNIFORM32)

_M64 = _s.M64


class BitGenerator:
    """What Generator needs of a bit generator: `_fill` and `_next64`."""

    _gen = None

    def __init__(self):
        self._has32 = False
        self._half = 0
        # As NumPy's: one draw at a time moves a shared generator's state.
        self.lock = threading.Lock()

    def _fill(self, out, dist, a=0.0, b=1.0, c0=0, c1=0, pa=None, pb=None):
        """Fill ember array `out` (C-contiguous) with draws of dist (its
        parameters a and b, or per element pa and pb) and move the state
        past the words they used."""
        with self.lock:
            self._fill_locked(out, dist, a, b, c0, c1, pa, pb)

    def _fill_locked(self, out, dist, a, b, c0, c1, pa, pb):
        n = out.size
        half = self._half if (self._has32 and dist in _HALVES) else None
        _ember._random_fill(out, self._gen, self._words(), self._prefix(),
                            half, dist, float(a), float(b), c0 & _M64,
                            c1 & _M64, pa, pb)
        if not n:
            return
        if dist not in _HALVES:
            # float32 normals: a Box-Muller pair a word
            pairs = dist == NORMAL and out.dtype == _np.float32
            self._advance((n + 1) // 2 if pairs else n)
            return
        # As NumPy's next_uint32: every word fetched leaves its high half
        # in `uinteger`, flagged as unread after an odd count.
        m = n - (1 if half is not None else 0)
        if m:
            self._half = self._advance((m + 1) // 2) >> 32
        self._has32 = bool(m % 2)

    def _key(self):
        """A Philox key for the keyed (rejection) draws: the next two
        words of the stream."""
        with self.lock:
            return self._next64(2)

    def random_raw(self, size=None, output=True):
        """The next `size` 64-bit words as an ember uint64 array."""
        import ember
        shape = () if size is None else size
        out = ember.empty(shape, dtype=ember.uint64)
        self._fill(out, BITS64)
        return out if output else None

    @property
    def seed_seq(self):
        """The SeedSequence this generator was seeded from (NumPy's)."""
        return self._seed_seq

    def spawn(self, n_children):
        """n_children new, independent bit generators of this type, seeded
        from this one's SeedSequence's children (NumPy's spawn)."""
        if not isinstance(self._seed_seq, _np.random.bit_generator.
                          ISpawnableSeedSequence):
            raise TypeError("The underlying SeedSequence does not implement "
                            "spawning.")
        return [type(self)(seed=s) for s in self._seed_seq.spawn(n_children)]

    def jumped(self, jumps=1):
        """A new bit generator of this type with this one's state moved
        jumps * (NumPy's jump) ahead, as NumPy's jumped; like NumPy's, it
        gets a fresh SeedSequence."""
        j = int(jumps)
        if j < 0:
            raise ValueError("jumps must be non-negative")
        new = type(self)()
        with self.lock:
            new.state = self.state
        new._jump(j)
        return new

    def _state_common(self, d):
        d["has_uint32"] = int(self._has32)
        d["uinteger"] = int(self._half)
        return d

    def _set_common(self, value, name):
        if not isinstance(value, dict) or value.get("bit_generator") != name:
            raise ValueError(f"state must be for a {name} RNG")
        self._has32 = bool(value.get("has_uint32", 0))
        self._half = int(value.get("uinteger", 0)) & 0xFFFFFFFF
        return value["state"]


class PCG64(BitGenerator):
    """NumPy's PCG64 (its default): seeded as NumPy seeds it, so
    `Generator(PCG64(seed))` draws NumPy's raw words and uniforms."""

    _gen = 0
    _name = "PCG64"
    _mult = _s.PCG_MULT

    def __init__(self, seed=None):
        super().__init__()
        ref = getattr(_np.random, self._name)(seed)
        self._seed_seq = ref.seed_seq
        self.state = ref.state

    @property
    def state(self):
        return self._state_common({
            "bit_generator": self._name,
            "state": {"state": self._st, "inc": self._inc}})

    @state.setter
    def state(self, value):
        st = self._set_common(value, self._name)
        self._st = int(st["state"]) & _s.M128
        self._inc = int(st["inc"]) & _s.M128

    def _words(self):
        return (self._st >> 64, self._st & _M64, self._inc >> 64,
                self._inc & _M64, 0, 0)

    def _prefix(self):
        return ()

    def _advance(self, k):
        self._st = _s.pcg_advance(self._st, self._inc, k, self._mult)
        return _s.pcg_output(self._st)

    def _next64(self, k):
        out = []
        for _ in range(k):
            out.append(self._advance(1))
        return out

    def advance(self, delta):
        """Move the state delta words ahead, as NumPy's advance."""
        self._st = _s.pcg_advance(self._st, self._inc,
                                  int(delta) % (1 << 128), self._mult)
        self._has32, self._half = False, 0
        return self

    def _jump(self, jumps):
        self.advance(_s.PCG_JUMP * jumps)

    def __repr__(self):
        return self._name


class PCG64DXSM(PCG64):
    """NumPy's PCG64DXSM: PCG64's 128-bit LCG with the 64-bit multiplier,
    and the DXSM output of the state before its step. Seeded, stated and
    jumped as NumPy's, and drawn in parallel as PCG64 is (every thread
    jumps to its place), so its words and uniforms are NumPy's."""

    _gen = 2
    _name = "PCG64DXSM"
    _mult = _s.DXSM_MULT

    def _advance(self, k):
        # word k - 1 is the output of the state k - 1 steps on
        prev = _s.pcg_advance(self._st, self._inc, k - 1, self._mult)
        self._st = _s.pcg_advance(prev, self._inc, 1, self._mult)
        return _s.dxsm_output(prev)


class Philox(BitGenerator):
    """NumPy's Philox (4x64, 10 rounds): seeded and stated as NumPy's."""

    _gen = 1

    def __init__(self, seed=None, counter=None, key=None):
        super().__init__()
        ref = _np.random.Philox(seed, counter=counter, key=key)
        self._seed_seq = ref.seed_seq
        self.state = ref.state

    @property
    def state(self):
        ctr = _np.array([(self._ctr >> (64 * i)) & _M64 for i in range(4)],
                        dtype=_np.uint64)
        return self._state_common({
            "bit_generator": "Philox",
            "state": {"counter": ctr,
                      "key": _np.array(self._keyw, dtype=_np.uint64)},
            "buffer": _np.array(self._buf, dtype=_np.uint64),
            "buffer_pos": self._pos})

    @state.setter
    def state(self, value):
        st = self._set_common(value, "Philox")
        c = [int(x) for x in st["counter"]]
        self._ctr = sum(x << (64 * i) for i, x in enumerate(c))
        self._keyw = [int(x) for x in st["key"]]
        self._buf = [int(x) for x in value["buffer"]]
        self._pos = int(value["buffer_pos"])

    def _words(self):
        c = (self._ctr + 1) & ((1 << 256) - 1)
        return tuple((c >> (64 * i)) & _M64 for i in range(4)) + \
            tuple(self._keyw)

    def _prefix(self):
        return tuple(self._buf[self._pos:4])

    def _advance(self, k):
        npre = 4 - self._pos
        if k <= npre:
            self._pos += k
        else:
            g = k - npre
            nb = (g + 3) // 4
            self._ctr = (self._ctr + nb) & ((1 << 256) - 1)
            self._buf = _s.philox_block(self._ctr, self._keyw)
            self._pos = g - 4 * (nb - 1)
        return self._buf[self._pos - 1]

    def _next64(self, k):
        return [self._advance(1) for _ in range(k)]

    def advance(self, delta):
        """Move the counter delta blocks (4 delta words) ahead, as NumPy's
        Philox.advance: the buffered block and half are dropped."""
        self._ctr = (self._ctr + int(delta)) & ((1 << 256) - 1)
        self._buf, self._pos = [0, 0, 0, 0], 4
        self._has32, self._half = False, 0
        return self

    def _jump(self, jumps):
        # NumPy's jump: 2^128 blocks
        self.advance(jumps << 128)

    def __repr__(self):
        return "Philox"
