"""scipy.sparse's random, rand and random_array on ember.random: the
number of stored elements SciPy stores (round(density * m * n)), at
distinct positions drawn uniformly without replacement, with SciPy's
values (uniform [0, 1) floats, integers over the whole range of an
integer dtype, complex numbers of two uniform parts) or a caller's
sampler's. The draws are ember.random's, made on the device: the same
seed gives the same matrix on every ember device, and no draw is SciPy's
(SciPy's positions come from NumPy's sequential choice(replace=False)).

Positions: where the matrix is at least a third full, the first k of a
random permutation of all positions; else rounds of random integers
over the positions, made distinct by one unique each round, until k
exist, and a random k of those (a uniform k-subset: the distinct values
of uniform draws are a uniform subset of their count). ember.scipy.sparse
loads it on first use."""
from contextlib import nullcontext as _nullcontext

import numpy as _np

import ember as _e
from ember._api._util import as_array as _arr
from ember.scipy import sparse as _sp
from ember.scipy.sparse_construct import asformat
from ember.scipy.sparse_dia import device_arg

_UNSET = object()


def _rng_arg(fname, rng, random_state):
    """SciPy's transition from random_state= to rng=: either, not both."""
    if random_state is not _UNSET:
        if rng is not _UNSET:
            raise TypeError(f"{fname}() got multiple values for argument now "
                            "known as `rng`. Specify one of `rng` or "
                            "`random_state`.")
        return random_state
    return None if rng is _UNSET else rng


def _generator(seed):
    """An ember.random generator for SciPy's random_state/rng argument:
    None is ember.random's global RandomState (SciPy's is NumPy's); an
    integer seeds a RandomState, as SciPy's check_random_state does; an
    ember Generator or RandomState is used as it is; a NumPy Generator or
    RandomState gives up one 63-bit seed of its own stream to a new
    ember default_rng (so it advances as a NumPy draw would)."""
    if seed is None:
        return _e.random.get_random_state()
    if isinstance(seed, (int, _np.integer)) and not isinstance(seed, bool):
        return _e.random.RandomState(int(seed))
    if isinstance(seed, (_e.random.Generator, _e.random.RandomState)):
        return seed
    if isinstance(seed, _np.random.Generator):
        return _e.random.default_rng(int(seed.integers(0, 2 ** 63 - 1)))
    if isinstance(seed, _np.random.RandomState):
        return _e.random.default_rng(
            int(seed.randint(0, 2 ** 63 - 1, dtype=_np.int64)))
    raise ValueError(f"{seed!r} cannot be used to seed an ember.random "
                     "generator")


def _integers(gen, low, high, size, dtype):
    if isinstance(gen, _e.random.Generator):
        return gen.integers(low, high, size=size, dtype=dtype)
    return gen.randint(low, high, size=size, dtype=dtype)


def _positions(gen, total, k):
    """k distinct integers of [0, total), uniformly, in random order."""
    if 3 * k >= total:
        return gen.permutation(total)[:k].astype(_e.int64)
    have = _e.zeros(0, dtype=_e.int64)
    while have.size < k:
        more = k - int(have.size)
        draw = _integers(gen, 0, total, more + more // 8 + 16, _np.int64)
        have = _e.unique(_e.concatenate([have, draw.astype(_e.int64)]))
    return have[gen.permutation(int(have.size))[:k]]


def _values(gen, k, dtype, sampler):
    if sampler is not None:
        return sampler(k)
    t = _np.dtype(str(_e.dtype(dtype))) if dtype is not None else None
    if t is not None and t.kind in "iu":
        info = _np.iinfo(t)
        return _integers(gen, int(info.min), int(info.max), k, t)
    if t is not None and t.kind == "c":
        return gen.uniform(size=k) + gen.uniform(size=k) * 1j
    return gen.uniform(size=k)


def _random(shape, density, dtype, seed, sampler, device):
    if not 0 <= density <= 1:
        raise ValueError("density expected to be 0 <= density <= 1")
    if len(shape) != 2:
        raise NotImplementedError(
            f"ember.scipy.sparse holds 2-D matrices only, not shape "
            f"{tuple(shape)} (SciPy's COO arrays take any number of axes)")
    m, n = (int(s) for s in shape)
    total = m * n
    k = int(round(density * total))
    gen = _generator(seed)
    dev = device_arg(device)
    # ember.random draws on the current device
    with dev if dev is not None else _nullcontext():
        flat = _positions(gen, total, k)
        vals = _arr(_values(gen, k, dtype, sampler), flat.device)
    # SciPy unravels in Fortran order: row fastest
    vals = vals.astype(_e.float64 if dtype is None else dtype)
    out = _sp.coo_matrix((vals, (flat % max(m, 1), flat // max(m, 1))),
                         shape=(m, n))
    return out


def random_array(shape, *, density=0.01, format="coo", dtype=None,
                 rng=_UNSET, data_sampler=None, random_state=_UNSET,
                 device=None):
    """SciPy's random_array: a random sparse matrix of `shape` (2-D here)
    with round(density * size) stored values."""
    seed = _rng_arg("random_array", rng, random_state)
    sampler = None if data_sampler is None else \
        (lambda k: data_sampler(size=k))
    return _sp._sparray.as_array(
        asformat(_random(shape, density, dtype, seed, sampler, device),
                 format))


def random(m, n, density=0.01, format="coo", dtype=None, rng=_UNSET,
           data_rvs=None, *, random_state=_UNSET, device=None):
    """SciPy's random: an m x n random sparse matrix; data_rvs(k) draws
    the values when given."""
    seed = _rng_arg("random", rng, random_state)
    return asformat(_random((m, n), density, dtype, seed, data_rvs, device),
                    format)


def rand(m, n, density=0.01, format="coo", dtype=None, rng=_UNSET, *,
         random_state=_UNSET, device=None):
    """SciPy's rand: random with uniform values."""
    seed = _rng_arg("rand", rng, random_state)
    return asformat(_random((m, n), density, dtype, seed, None, device),
                    format)


__all__ = ["random", "rand", "random_array"]
