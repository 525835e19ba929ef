"""cuda.compute's iterators over ember arrays.

cuda.compute's iterators are lazy: the algorithm's kernel computes each
element where it reads it. ember.parallel takes arrays, so an input
iterator is materialized: the num_items elements it stands for become one
ember array, made by one ember call (arange, full, take, a transform) per
iterator in the chain. Output iterators are applied after the algorithm by
one transform, reversed view or scatter into the array underneath
(docs/algorithms.md, "cuda.compute's spelling", says what each costs)."""
import contextlib

import numpy as np

import ember
from ember import _ember as _e
from ember._struct_array import StructArray
from ember.cuda.compute import _ops
from ember.cuda.compute import _struct

P = ember.parallel


class IteratorBase:
    """What every iterator can do: give the first n elements (take) or the
    elements at positions idx (gather, an ember int64 array) as an ember
    array, on device dev."""
    is_input = True

    def take(self, n, dev, fn):
        return self.gather(ember.arange(n, dtype="int64", device=dev), dev,
                           fn)

    def gather(self, idx, dev, fn):
        raise NotImplementedError

    def device(self):
        return None

    def __add__(self, k):   # cuda.compute's it + offset
        return _Offset(self, k)


def _np_scalar(v, fn, what):
    if isinstance(v, np.ndarray) and v.size == 1:
        v = v.reshape(())[()]
    if isinstance(v, (bool, int, float)):
        v = np.asarray(v)[()]
    if not isinstance(v, np.generic) or v.dtype.kind not in "biuf":
        raise TypeError(f"{fn}: {what} must be a NumPy scalar of a number "
                        f"type, not {type(v).__name__}")
    return v


class CountingIterator(IteratorBase):
    """start, start + 1, ... of start's dtype."""

    def __init__(self, start):
        self.start = _np_scalar(start, "CountingIterator", "start")
        self.value_type = self.start.dtype

    def take(self, n, dev, fn):
        s = self.start.item()
        return ember.arange(s, s + n, dtype=self.value_type.name,
                            device=dev) if n else \
            ember.empty(0, dtype=self.value_type.name, device=dev)

    def gather(self, idx, dev, fn):
        return (idx + ember.asarray(self.start, device=idx.device)).astype(
            self.value_type.name)


class ConstantIterator(IteratorBase):
    """value, value, ..."""

    def __init__(self, value):
        self.value = _np_scalar(value, "ConstantIterator", "value")
        self.value_type = self.value.dtype

    def take(self, n, dev, fn):
        return ember.full(n, self.value, dtype=self.value_type.name,
                          device=dev)

    def gather(self, idx, dev, fn):
        return ember.full(idx.shape, self.value, dtype=self.value_type.name,
                          device=idx.device)


class ShuffleIterator(IteratorBase):
    """A random permutation of 0 .. num_items - 1 (int64), fixed by seed:
    ember's generator, so not cuda.compute's permutation for the same
    seed."""

    def __init__(self, num_items, seed=0):
        num_items = int(num_items)
        if num_items <= 0:
            raise ValueError("num_items must be > 0")
        self.num_items, self.seed = num_items, int(seed)
        self.value_type = np.dtype("int64")
        self._perm = {}

    def _p(self, dev):
        key = str(dev)
        if key not in self._perm:
            with ember.Device(dev) if dev is not None else \
                    contextlib.nullcontext():
                rng = ember.random.default_rng(self.seed)
                self._perm[key] = rng.permutation(self.num_items).astype(
                    "int64")
        return self._perm[key]

    def take(self, n, dev, fn):
        p = self._p(dev)
        if n > p.size:
            raise ValueError(f"{fn}: num_items {n} is past the ShuffleIterator"
                             f"'s {p.size} items")
        return p[:n]

    def gather(self, idx, dev, fn):
        return self._p(idx.device).take(idx)


def _array(a, fn, what):
    """An array argument as a flat ember array (a view: outputs are written
    through it)."""
    if isinstance(a, np.ndarray):
        raise TypeError(f"{fn}: {what} is a NumPy array (host memory): pass "
                        "a device array (ember.asarray(x)) or an iterator")
    if not isinstance(a, _e.ndarray):
        if not (hasattr(a, "__cuda_array_interface__") or
                hasattr(a, "__dlpack__")):
            raise TypeError(f"{fn}: {what} must be a device array or an "
                            f"iterator, not {type(a).__name__}")
        a = ember.asarray(a)
    if a.ndim != 1:
        if not a.flags.c_contiguous:    # a copy would drop what is written
            raise ValueError(f"{fn}: {what} of shape {tuple(a.shape)} is not "
                             "C-contiguous (cuda.compute reads and writes "
                             "arrays as one run of elements)")
        a = a.reshape(-1)
    return a


class _Pointer(IteratorBase):
    """An array as an iterator (what an array argument is)."""

    def __init__(self, a, fn="", what="d_in"):
        self.a = _array(a, fn, what)
        self.value_type = np.dtype(self.a.dtype.name)

    def device(self):
        return self.a.device

    def take(self, n, dev, fn):
        if n > self.a.size:
            raise ValueError(f"{fn}: num_items is {n} but the array has "
                             f"{self.a.size} elements")
        return self.a[:n]

    def gather(self, idx, dev, fn):
        return self.a.take(idx)

    def write(self, r, fn, what="d_out"):
        if isinstance(r, _struct.Fields):
            if len(r.arrays) != 1:
                raise TypeError(f"{fn}: struct values of {len(r.arrays)} "
                                f"fields ({r.dtype}) cannot be written into "
                                f"{what} of dtype {self.a.dtype.name}: give "
                                "a struct array (ember.empty(n, "
                                "dtype=T.dtype))")
            r = r.arrays[0]
        if r.size > self.a.size:
            raise ValueError(f"{fn}: {r.size} items to write into {what} of "
                             f"{self.a.size} elements")
        self.a[:r.size] = r


class CacheModifiedInputIterator(_Pointer):
    """An array read with a cache hint: ember's kernels choose their own
    loads, so the modifier is checked and otherwise has no effect."""

    def __init__(self, array, modifier="stream"):
        if modifier not in ("stream", "global", "volatile"):
            raise ValueError("CacheModifiedInputIterator: modifier must be "
                             "'stream', 'global' or 'volatile', not "
                             f"{modifier!r}")
        super().__init__(array, "CacheModifiedInputIterator", "array")
        self.modifier = modifier


class _StructPointer(IteratorBase):
    """A struct array as an iterator: its values are read and written
    leaf by leaf (Fields, one array per scalar field)."""

    def __init__(self, a, fn="", what="d_in"):
        if a.ndim != 1:
            if not a.flags.c_contiguous:
                raise ValueError(f"{fn}: {what} of shape {a.shape} is not "
                                 "C-contiguous")
            a = a.reshape(-1)
        self.a = a
        self.value_type = a.dtype

    def device(self):
        return self.a.device

    def take(self, n, dev, fn):
        if n > self.a.size:
            raise ValueError(f"{fn}: num_items is {n} but the array has "
                             f"{self.a.size} elements")
        return _struct.struct_array_fields(self.a, n)

    def gather(self, idx, dev, fn):
        return _struct.struct_array_fields(self.a[idx])

    def write(self, r, fn, what="d_out"):
        if not isinstance(r, _struct.Fields):
            r = _struct.cast_fields(r, self.a.dtype, fn, what)
        _struct.write_struct_array(self.a, r)

    def scatter(self, idx, r, fn):
        """Struct values r into the records at idx."""
        t = ember.empty(r.size, dtype=self.a.dtype, device=self.a.device)
        _StructPointer(t).write(r, fn)
        self.a[idx] = t


def _pointer(x, fn, what):
    if isinstance(x, StructArray):
        return _StructPointer(x, fn, what)
    return _Pointer(x, fn, what)


def as_iter(x, fn, what):
    """An input argument as an iterator."""
    if isinstance(x, IteratorBase):
        if not x.is_input:
            raise TypeError(f"{fn}: {what} is an output iterator "
                            f"({type(x).__name__})")
        return x
    if x is None:
        raise TypeError(f"{fn}: {what} must be a device array or an "
                        "iterator, not None")
    return _pointer(x, fn, what)


class TransformIterator(IteratorBase):
    """op(x) for each element x of underlying (an array or an iterator):
    one ember transform over the materialized elements (a kernel of the
    struct rewrite where the values or the result are structs)."""

    def __init__(self, underlying, transform_op, value_type=None):
        self.it = as_iter(underlying, "TransformIterator", "underlying")
        self.raw = transform_op
        if not isinstance(self.it, (ZipIterator, _StructPointer)):
            _ops.unary(transform_op, "TransformIterator", "transform_op")
        self.value_type = None if value_type is None else np.dtype(value_type)

    def device(self):
        return self.it.device()

    def _apply(self, x):
        dt = None if self.value_type is None else self.value_type.name
        return apply_unary(self.raw, x, "TransformIterator", "transform_op",
                           dt)

    def take(self, n, dev, fn):
        return self._apply(self.it.take(n, dev, fn))

    def gather(self, idx, dev, fn):
        return self._apply(self.it.gather(idx, dev, fn))


class PermutationIterator(IteratorBase):
    """values[indices[i]]: a gather as input, a scatter as output."""

    def __init__(self, values, indices):
        self.values = values if isinstance(values, IteratorBase) else \
            _pointer(values, "PermutationIterator", "values")
        self.indices = as_iter(indices, "PermutationIterator", "indices")

    def device(self):
        return self.values.device() or self.indices.device()

    def _idx(self, i):
        if i.dtype.kind not in "iu":
            raise TypeError("PermutationIterator: indices must be integers, "
                            f"not {i.dtype.name}")
        return i

    def take(self, n, dev, fn):
        return self.values.gather(self._idx(self.indices.take(n, dev, fn)),
                                  dev, fn)

    def gather(self, idx, dev, fn):
        return self.values.gather(self._idx(self.indices.gather(idx, dev,
                                                                fn)),
                                  dev, fn)

    def write(self, r, fn):
        if not isinstance(self.values, (_Pointer, _StructPointer)):
            raise TypeError(f"{fn}: a PermutationIterator written to must "
                            "have an array as its values")
        i = self._idx(self.indices.take(r.size, r.device, fn))
        if isinstance(self.values, _StructPointer):
            self.values.scatter(i, r, fn)
        else:
            self.values.a[i] = r


class ReverseIterator(IteratorBase):
    """An array read or written from its last element backwards."""

    def __init__(self, underlying):
        arrays = (_Pointer, _StructPointer)
        if isinstance(underlying, IteratorBase) and \
                not isinstance(underlying, arrays):
            raise NotImplementedError(
                "ReverseIterator: ember reverses arrays only (an iterator "
                "has no last element to start from)")
        self.it = underlying if isinstance(underlying, arrays) else \
            _pointer(underlying, "ReverseIterator", "underlying")

    def device(self):
        return self.it.device()

    def take(self, n, dev, fn):
        return self.it.take(self.it.a.size, dev, fn)[::-1][:n]

    def gather(self, idx, dev, fn):
        if isinstance(self.it, _StructPointer):
            return _struct.struct_array_fields(self.it.a[::-1][idx])
        return self.it.a[::-1].take(idx)

    def write(self, r, fn):
        a = self.it.a
        if r.size > a.size:
            raise ValueError(f"{fn}: {r.size} items to write through a "
                             f"ReverseIterator of {a.size}")
        if isinstance(self.it, _StructPointer):
            _StructPointer(a[::-1]).write(r, fn)
        else:
            a[::-1][:r.size] = r


ReverseInputIterator = ReverseOutputIterator = ReverseIterator


class TransformOutputIterator(IteratorBase):
    """Writes op(x) for each result x into underlying (an array)."""
    is_input = False

    def __init__(self, underlying, transform_op, output_value_type=None):
        self.out = underlying if isinstance(underlying, IteratorBase) else \
            _pointer(underlying, "TransformOutputIterator", "underlying")
        self.raw = transform_op
        self.op = _ops.unary(transform_op, "TransformOutputIterator",
                             "transform_op")

    def device(self):
        return self.out.device()

    def write(self, r, fn):
        if isinstance(r, _struct.Fields) or _struct.returns_struct(self.raw):
            od = out_dtype(self.out)
            st = getattr(od, "names", None) is not None
            r = _struct.apply(self.raw, [r], fn, "transform_op",
                              out_dtype=None if st else od,
                              ret=od if st else None)
            write(self.out, r, fn)
            return
        write(self.out, P.transform(self.op, r), fn)


class DiscardIterator(IteratorBase):
    """Reads nothing meaningful, writes nowhere."""

    def __init__(self, reference_iterator=None):
        self.ref = reference_iterator

    def take(self, n, dev, fn):
        return None

    def gather(self, idx, dev, fn):
        return None

    def write(self, r, fn):
        pass


class Zipped(tuple):
    """The materialized components of a ZipIterator, one array each."""


class ZipIterator(IteratorBase):
    """Tuples of 2 to 8 arrays or iterators, element by element: struct
    values with fields f0, f1, ... (a struct array's component nested).
    ember keeps each scalar field as its own array (Fields): operators read
    them as p[0], p[1], p[0].x or p.f0 in transforms, reductions and scans
    (python/ember/cuda/compute/_struct.py); sort and select of zipped
    values are not supported (NotImplementedError)."""

    def __init__(self, *iterators):
        if len(iterators) == 1 and isinstance(iterators[0], (list, tuple)):
            iterators = tuple(iterators[0])
        if not 2 <= len(iterators) <= 8:
            raise ValueError("ZipIterator: 2 to 8 iterators or arrays, not "
                             f"{len(iterators)}")
        self.its = [as_iter(x, "ZipIterator", f"argument {k}")
                    for k, x in enumerate(iterators)]

    def device(self):
        for it in self.its:
            if it.device() is not None:
                return it.device()
        return None

    def take(self, n, dev, fn):
        return Zipped(it.take(n, dev, fn) for it in self.its)

    def gather(self, idx, dev, fn):
        return Zipped(it.gather(idx, dev, fn) for it in self.its)


def zip_missing(fn):
    return NotImplementedError(
        f"{fn}: struct values (a ZipIterator's or a struct array's) cannot "
        "be sort keys, searched data or histogram samples; ember cannot "
        "sort or compare them as keys (they work as values, items and "
        "inputs of the other algorithms)")


def struct_values(x):
    """x as Fields when it holds struct values (a ZipIterator's
    components, a struct array's), else x."""
    if isinstance(x, Zipped):
        return _struct.as_fields(x)
    return x


def apply_unary(op, x, fn, what, dtype=None):
    """op (a C expression or device function, or a Python function of a
    struct value) over x."""
    x = struct_values(x)
    if isinstance(x, _struct.Fields) or _struct.returns_struct(op):
        return _struct.apply(op, [x], fn, what, out_dtype=dtype)
    return P.transform(_ops.unary(op, fn, what), x, dtype=dtype)


class _Offset(IteratorBase):
    def __init__(self, it, k):
        self.it, self.k = it, int(k)

    def device(self):
        return self.it.device()

    def take(self, n, dev, fn):
        return self.gather(ember.arange(n, dtype="int64", device=dev), dev,
                           fn)

    def gather(self, idx, dev, fn):
        if isinstance(self.it, _Pointer):
            return self.it.a[self.k:].take(idx)
        return self.it.gather(idx + self.k, dev, fn)


def device_of(*xs):
    """The device of the first array among the arguments (iterators
    looked into), else the current device."""
    for x in xs:
        if isinstance(x, (_e.ndarray, StructArray)):
            return x.device
        if isinstance(x, IteratorBase):
            d = x.device()
            if d is not None:
                return d
        elif hasattr(x, "__cuda_array_interface__") or \
                hasattr(x, "__dlpack__"):
            if not isinstance(x, np.ndarray):
                return ember.asarray(x).device
    return None


def read(x, n, dev, fn, what="d_in", zipped=False):
    """The first n elements of an input argument as an ember array (a
    ZipIterator's: Zipped arrays, where zipped says they are taken)."""
    r = as_iter(x, fn, what).take(n, dev, fn)
    if isinstance(r, (Zipped, _struct.Fields)) and not zipped:
        raise zip_missing(fn)
    return struct_values(r)


def out_iter(x, fn, what="d_out"):
    if isinstance(x, IteratorBase):
        if not hasattr(x, "write"):
            raise TypeError(f"{fn}: {what} is an input iterator "
                            f"({type(x).__name__}), not an output")
        return x
    if x is None:
        raise TypeError(f"{fn}: {what} must be a device array or an output "
                        "iterator, not None")
    return _pointer(x, fn, what)


def out_dtype(x):
    """The dtype an output stores (None: that of the result)."""
    if isinstance(x, _StructPointer):
        return x.a.dtype
    if isinstance(x, _Pointer):
        return x.a.dtype
    if isinstance(x, PermutationIterator) and isinstance(x.values, _Pointer):
        return x.values.a.dtype
    if isinstance(x, ReverseIterator):
        return x.it.a.dtype
    return None


def write(out, r, fn, what="d_out"):
    """Write the ember array r into an output argument, in place, cast to
    its dtype."""
    o = out_iter(out, fn, what)
    o.write(r, fn)

