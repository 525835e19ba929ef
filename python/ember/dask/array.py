"""ember arrays as dask.array chunks (ember.dask.array).

dask.array runs NumPy's functions on its chunks; ember.ndarray answers
them through __array_function__ and __array_ufunc__, so elementwise work,
reductions, rechunking, map_blocks, matmul and dask's linalg run on each
chunk's device. What dask looks up by chunk type instead goes through the
dispatch registered here: concatenation, tensordot, einsum, empty,
divide, percentile, element counts and conversion to and from NumPy.

Importing this module registers them, and `dask.config.set({
"array.backend": "ember"})` (found through the package's entry point, so
no import is needed) makes da.ones, da.zeros, da.full, da.empty, da.arange
and da.random produce ember chunks on the worker's current device.
`arr.to_backend("ember")` moves a NumPy-backed collection."""
import numpy as np

import dask.array as da
from dask import config
from dask.array import chunk_types
from dask.array import dispatch as _d
from dask.array.backends import ArrayBackendEntrypoint
from dask.array.backends import _nannumel, _numel_arraylike
from dask.array.core import Array
from dask.sizeof import sizeof
from dask.tokenize import normalize_token
from dask.utils import Dispatch

import ember
from ember.dask._sizeof import register as _register_sizeof
from ember._struct_array import StructArray as _StructArray, concatenate as _struct_concatenate

chunk_types.register_chunk_type(ember.ndarray)
_register_sizeof(sizeof)


def _concatenate(arrays, axis=0):
    """dask's concatenation of chunks (a tree reduction's partials, a
    rechunk's pieces). Workers of one process (LocalCluster(processes=
    False), one per GPU) hand each other chunks by reference, so partials
    made on two GPUs can meet in one task: they go to the first one's
    device, as a transfer between worker processes would have put them on
    the receiving worker's."""
    dev = next((a.device for a in arrays if isinstance(a, ember.ndarray)), None)
    arrays = [a.to_device(dev) if isinstance(a, ember.ndarray) and a.device != dev
              else a for a in arrays]
    return ember.concatenate(arrays, axis=axis)


_d.concatenate_lookup.register(ember.ndarray, _concatenate)
# dask's arg reductions make their partials structured arrays (values and
# indices) with empty_like of the chunk, which gives struct arrays here
_d.concatenate_lookup.register(_StructArray, _struct_concatenate)
_d.take_lookup.register(ember.ndarray, ember.take)
_d.tensordot_lookup.register(ember.ndarray, ember.tensordot)
_d.einsum_lookup.register(ember.ndarray, ember.einsum)
_d.empty_lookup.register(ember.ndarray, ember.empty)
_d.divide_lookup.register(ember.ndarray, ember.divide)
_d.numel_lookup.register(ember.ndarray, _numel_arraylike)
_d.nannumel_lookup.register(ember.ndarray, _nannumel)


@normalize_token.register(ember.ndarray)
def _tokenize(a):
    """dask's token of a chunk (da.from_array names its tasks by it, and a
    collection over persisted chunks is tokenized anew by each expression):
    dtype, shape and a digest hashed on the device, instead of the pickle
    of the whole chunk through the host that dask would make."""
    from ember.dask._hash import array_digest
    if a.device.type == "cpu":   # the bytes are host memory: NumPy's token
        return ("ember.ndarray",) + tuple(normalize_token(ember.asnumpy(a)))
    return ("ember.ndarray", str(a.dtype), a.shape) + array_digest(a)


@_d.percentile_lookup.register(ember.ndarray)
def _percentile(a, q, method="linear"):
    # dask merges the chunks' percentiles weighted by each chunk's length,
    # with NumPy calls on the host that would make their arrays on the
    # thread's current device, whatever the chunks': the few values a
    # chunk gives go to the host, and da.percentile's result is NumPy's
    if not len(a):
        return None, 0
    return ember.asnumpy(ember.percentile(a, list(q), method=method)), len(a)


@_d.to_numpy_dispatch.register(ember.ndarray)
def _ember_to_numpy(data, **kwargs):
    return ember.asnumpy(data)


to_ember_dispatch = Dispatch("to_ember")


@to_ember_dispatch.register((np.ndarray, ember.ndarray))
def to_ember(data, device=None, **kwargs):
    """A chunk as an ember array on device (default: the current one, which
    a worker of ember.dask.LocalCluster sets to its GPU)."""
    if device is None:
        return ember.asarray(data)
    return ember.asarray(data, device=device)


def meta(ndim=0, dtype=float):
    """The meta array dask keeps for an ember-backed collection."""
    return ember.empty((0,) * ndim, dtype=dtype)


def _with_meta(name, *args, meta=None, **kwargs):
    # dask's own constructors, run with an ember meta: each chunk is then
    # made by ember's function of the same name (through like=/meta)
    meta = ember.empty(()) if meta is None else meta
    with config.set({"array.backend": "numpy"}):
        return getattr(da, name)(*args, meta=meta, **kwargs)


class EmberBackend(ArrayBackendEntrypoint):
    """The 'ember' dask.array backend."""

    @classmethod
    def to_backend_dispatch(cls):
        return to_ember_dispatch

    @classmethod
    def to_backend(cls, data: Array, **kwargs):
        if isinstance(data._meta, ember.ndarray):
            return data
        return data.map_blocks(to_ember_dispatch, **kwargs)

    @property
    def RandomState(self):
        return ember.random.RandomState

    @property
    def default_bit_generator(self):
        return ember.random.PCG64

    @staticmethod
    def ones(*args, **kwargs):
        return _with_meta("ones", *args, **kwargs)

    @staticmethod
    def zeros(*args, **kwargs):
        return _with_meta("zeros", *args, **kwargs)

    @staticmethod
    def empty(*args, **kwargs):
        return _with_meta("empty", *args, **kwargs)

    @staticmethod
    def full(*args, **kwargs):
        return _with_meta("full", *args, **kwargs)

    @staticmethod
    def arange(*args, like=None, **kwargs):
        like = ember.empty(()) if like is None else like
        with config.set({"array.backend": "numpy"}):
            return da.arange(*args, like=like, **kwargs)


def _register_backend():
    """The 'ember' name in dask's array creation dispatcher, for a program
    that imported this module before setting the backend (an installed
    ember is also found through the entry point)."""
    from dask.array.backends import array_creation_dispatch
    array_creation_dispatch.register_backend("ember", EmberBackend())


_register_backend()
