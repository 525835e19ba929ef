"""ember.random: NumPy's random API on ember's devices, counter-based.

`default_rng(seed)`, `Generator(PCG64DXSM(seed))` and
`Generator(Philox(seed))` draw NumPy's own raw
words, uniform floats (float64 and float32) and bytes, bit for bit, and
leave the state where NumPy's would; the other distributions use ember's
counter-based methods, identical on cpu and GPU (docs/random.md). The
legacy RandomState and module functions (seed, rand, randn, randint, ...)
use ember's own Philox stream.
"""
from ember.random._bitgen import (PCG64, PCG64DXSM, BitGenerator, Philox,
                                  SeedSequence)
from ember.random._generator import Generator, default_rng
from ember.random._legacy import (FUNCTIONS as _FUNCTIONS, RandomState,
                                  get_random_state, seed, set_random_state)

globals().update(_FUNCTIONS)

__all__ = ["BitGenerator", "Generator", "PCG64", "PCG64DXSM", "Philox",
           "RandomState",
           "SeedSequence", "default_rng", "get_random_state", "seed",
           "set_random_state", *sorted(_FUNCTIONS)]
