"""PyCUDA's ``pycuda.curandom``: rand() and the CURAND generator classes,
drawing from ember.random (counter-based, the same numbers on the cpu
device and on a GPU for the same seed).

ember has one family of generators, so the classes do not run CURAND's
XORWOW or MRG32k3a: each instance is an ember.random Generator over
Philox seeded from its seed_getter's values (and offset), and keeps
PyCUDA's method names, dtypes and ranges (uniform in (0, 1], as CURAND's
are). rand() draws from ember.random's global stream, so
ember.random.seed() makes it repeatable."""
import random as _pyrandom

import numpy

import ember
import ember.random

from . import gpuarray

__all__ = ["rand", "seed_getter_uniform", "seed_getter_unique",
           "XORWOWRandomNumberGenerator", "MRG32k3aRandomNumberGenerator"]

_F = (numpy.dtype(numpy.float32), numpy.dtype(numpy.float64))


def _on(stream, draw):
    """draw() with stream current, as PyCUDA's stream= asks."""
    if stream is None:
        return draw()
    with stream._s:
        return draw()


def rand(shape, dtype=numpy.float32, stream=None):
    """A GPUArray of shape: uniform in [0, 1) for float32 and float64,
    every 32-bit pattern equally likely for int32 and uint32 (the dtypes
    PyCUDA's rand has; others raise NotImplementedError)."""
    dt = numpy.dtype(dtype)
    rs = ember.random.get_random_state()
    if dt in _F:
        return gpuarray._wrap(_on(stream, lambda: rs.random_sample(
            shape, dtype=dt)))
    if dt == numpy.uint32:
        return gpuarray._wrap(_on(stream, lambda: rs.randint(
            0, 1 << 32, size=shape, dtype=dt)))
    if dt == numpy.int32:
        return gpuarray._wrap(_on(stream, lambda: rs.randint(
            -(1 << 31), 1 << 31, size=shape, dtype=dt)))
    raise NotImplementedError("rand(dtype=%s): PyCUDA's rand draws float32, "
                              "float64, int32 and uint32" % dt)


def seed_getter_uniform(n):
    """n copies of one random seed (PyCUDA's default seed_getter)."""
    return gpuarray.to_gpu(numpy.full(n, _pyrandom.randint(0, 2 ** 31 - 1),
                                      numpy.int32))


def seed_getter_unique(n):
    """n different random seeds."""
    return gpuarray.to_gpu(numpy.random.randint(0, 2 ** 31 - 1, n)
                           .astype(numpy.int32))


class _Generator:
    """PyCUDA's RandomNumberGenerator methods over one ember Generator."""

    def __init__(self, seed_getter=None, offset=0):
        if int(offset) < 0:
            raise ValueError("offset must be >= 0, got %r" % (offset,))
        dev = ember.get_current_device()
        self.block_count = max(1, dev.properties.get("multiProcessorCount", 1))
        self.generators_per_block = 256
        getter = seed_getter or seed_getter_uniform
        seeds = getter(self.block_count * self.generators_per_block)
        seeds = seeds.get() if hasattr(seeds, "get") else numpy.asarray(seeds)
        # every seed and the offset are entropy of one Philox stream: the
        # same seeds and offset give the same numbers, different offsets
        # independent ones (CURAND's offset skips ahead in one sequence)
        words = [int(s) & 0xFFFFFFFF for s in numpy.ravel(seeds)]
        self._gen = ember.random.Generator(
            ember.random.Philox(words + [int(offset)]))

    @staticmethod
    def _float(dtype, what):
        dt = numpy.dtype(dtype)
        if dt not in _F:
            raise NotImplementedError("%s: dtype %s (float32 or float64 only)"
                                      % (what, dt))
        return dt

    @staticmethod
    def _into(data, r, stream):
        _on(stream, lambda: data.__setitem__(Ellipsis, r))
        return data

    # ---- gen_*: a new GPUArray --------------------------------------------
    def gen_uniform(self, shape, dtype, stream=None):
        dt = self._float(dtype, "gen_uniform")
        # CURAND's range is (0, 1]; 1 - u maps NumPy's [0, 1) onto it
        # exactly (u is a multiple of the format's epsilon / 2)
        return gpuarray._wrap(_on(stream, lambda: 1 - self._gen.random(
            shape, dtype=dt)))

    def gen_normal(self, shape, dtype, stream=None):
        dt = self._float(dtype, "gen_normal")
        return gpuarray._wrap(_on(stream, lambda: self._gen.standard_normal(
            shape, dtype=dt)))

    def gen_log_normal(self, shape, dtype, mean, stddev, stream=None):
        dt = self._float(dtype, "gen_log_normal")
        return gpuarray._wrap(_on(stream, lambda: self._gen.lognormal(
            mean, stddev, shape).astype(dt)))

    def gen_poisson(self, shape, dtype, lambda_value, stream=None):
        dt = numpy.dtype(dtype)
        if dt not in (numpy.dtype(numpy.uint32), numpy.dtype(numpy.int32)):
            raise NotImplementedError("gen_poisson: dtype %s (uint32 or "
                                      "int32 only)" % dt)
        return gpuarray._wrap(_on(stream, lambda: self._gen.poisson(
            lambda_value, shape).astype(dt)))

    # ---- fill_*: into a given array -------------------------------------------
    def fill_uniform(self, data, stream=None):
        return self._into(data, self.gen_uniform(data.shape, data.dtype), stream)

    def fill_normal(self, data, stream=None):
        return self._into(data, self.gen_normal(data.shape, data.dtype), stream)

    def fill_log_normal(self, data, mean, stddev, stream=None):
        return self._into(data, self.gen_log_normal(
            data.shape, data.dtype, mean, stddev), stream)

    def fill_poisson(self, data, lambda_value=None, stream=None):
        if lambda_value is None:
            raise TypeError("fill_poisson: lambda_value is needed")
        return self._into(data, self.gen_poisson(
            data.shape, data.dtype, lambda_value), stream)


class XORWOWRandomNumberGenerator(_Generator):
    """PyCUDA's XORWOW generator's interface, over ember.random."""


class MRG32k3aRandomNumberGenerator(_Generator):
    """PyCUDA's MRG32k3a generator's interface, over ember.random."""
