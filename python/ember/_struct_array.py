"""Arrays of NumPy structured (record) dtypes, as CuPy has them.

ember's C arrays hold numbers only (include/ember/dtype.h), so a struct
array is a Python object over one: a uint8 ember array of shape
``shape + (itemsize,)`` whose last axis (the bytes of one record) is
contiguous, presented with NumPy's structured dtype. Everything that
moves bytes (allocation, copies to and from the host, slicing, assignment,
gathers and scatters) is the uint8 array's, so it runs on every device;
a field is an ember array of the field's dtype over the same bytes.

The constructors reach this module only on their cold path: ember.empty,
zeros, ones, full, asarray, array, ascontiguousarray and ndarray.view
first try ember's own dtypes, and when they refuse the dtype or the
object, python/ember/_ext/array/creation.c calls ``_route``, which answers
for a structured dtype (a NumPy dtype with fields, a list of
``(name, type)`` pairs, a dict, a comma string such as ``'i4,f8'``, or a
class with such a ``.dtype``, as gpu_struct makes) or a structured array
(NumPy's, a struct array, another library's with ``__cuda_array_interface__``)
and returns NotImplemented for anything else, so the original error stands.

Elementwise math on a whole struct array is a TypeError, as NumPy's
ufuncs have no loops for structured dtypes; work on its fields."""
import math
import operator

import numpy as np

from ember import _ember as _e

_U8 = "uint8"


def struct_dtype(d):
    """d as a NumPy structured dtype, or None when it is not one."""
    if isinstance(d, np.dtype):
        return d if d.names is not None else None
    if isinstance(d, (list, dict, str)) or \
            isinstance(getattr(d, "dtype", None), np.dtype):
        if not isinstance(d, (list, dict, str)):
            d = d.dtype
        try:
            d = np.dtype(d)
        except (TypeError, ValueError):
            return None
        return d if d.names is not None else None
    return None


def _is_struct_obj(o):
    if isinstance(o, StructArray):
        return True
    if isinstance(o, (np.ndarray, np.void)):
        return o.dtype.names is not None
    cai = getattr(o, "__cuda_array_interface__", None) \
        if not isinstance(o, _e.ndarray) else None
    return isinstance(cai, dict) and _cai_dtype(cai) is not None


def _cai_dtype(cai):
    """The structured dtype a __cuda_array_interface__ describes, or
    None."""
    descr = cai.get("descr")
    if not isinstance(descr, list) or not str(cai.get("typestr", "")).startswith("|V"):
        return None
    try:
        d = np.dtype(descr)
    except (TypeError, ValueError):
        return None
    return d if d.names is not None else None


def _shape(s):
    try:
        return (operator.index(s),)
    except TypeError:
        return tuple(operator.index(k) for k in s)


def _ufunc_error(name, *xs):
    types = ", ".join(repr(getattr(x, "dtype", type(x).__name__)) for x in xs)
    return TypeError(f"ufunc '{name}' did not contain a loop with signature "
                     f"matching types ({types}): structured dtypes have no "
                     "arithmetic (work on a field: a['name'])")


class _Flags:
    __slots__ = ("c_contiguous", "f_contiguous", "writeable", "owndata")

    def __init__(self, c, f, w):
        self.c_contiguous, self.f_contiguous, self.writeable = c, f, w
        self.owndata = False

    def __getitem__(self, k):
        k = {"C_CONTIGUOUS": "c_contiguous", "C": "c_contiguous",
             "F_CONTIGUOUS": "f_contiguous", "F": "f_contiguous",
             "WRITEABLE": "writeable", "OWNDATA": "owndata"}.get(k, k)
        return getattr(self, k)

    def __repr__(self):
        return (f"  C_CONTIGUOUS : {self.c_contiguous}\n"
                f"  F_CONTIGUOUS : {self.f_contiguous}\n"
                f"  WRITEABLE : {self.writeable}")


class StructArray:
    """An ember array of a NumPy structured dtype (see the module's
    docstring). ``a['x']`` is the field x: an ember array that is a view
    of a's bytes when the field's offset, a's strides and the data
    pointer are multiples of the field's itemsize (always so for a dtype
    made with align=True, and for gpu_struct's), else a copy (then writing
    into it does not change a; ``a['x'] = v`` always does). A nested
    struct field is a struct array view. ``a[i]``, ``a[1:3]``, ``a[mask]``
    index the records as NumPy does (a record is a 0-d struct array, as in
    CuPy). ``get()``/``ember.asnumpy``/``numpy.asarray`` give NumPy's
    structured array, ``set()`` copies one in; ``__cuda_array_interface__``
    (GPU arrays) and kernel arguments pass the data pointer."""
    __slots__ = ("_raw", "_dtype", "__weakref__")
    __array_priority__ = 100   # NumPy's operators defer to ours (TypeError)

    def __init__(self, raw, dtype):
        self._raw = raw       # uint8, shape + (itemsize,), last stride 1
        self._dtype = dtype

    # ---- what it is -------------------------------------------------------
    @property
    def dtype(self):
        return self._dtype

    @property
    def shape(self):
        return tuple(self._raw.shape[:-1])

    @property
    def ndim(self):
        return self._raw.ndim - 1

    @property
    def size(self):
        return math.prod(self.shape)

    @property
    def itemsize(self):
        return self._dtype.itemsize

    @property
    def nbytes(self):
        return self.size * self.itemsize

    @property
    def strides(self):
        return tuple(self._raw.strides[:-1])

    @property
    def device(self):
        return self._raw.device

    @property
    def data(self):
        """The memory pointer of the first record (CuPy's .data)."""
        return self._raw.data

    @property
    def __ember_array__(self):
        """The uint8 array holding the records' bytes: kernel launches
        pass its pointer (python/ember/_api/launch_args.py)."""
        return self._raw

    @property
    def flags(self):
        shape, st, isz = self.shape, self.strides, self.itemsize

        def contiguous(order):
            want = isz
            for n, s in (zip(reversed(shape), reversed(st)) if order == "C"
                         else zip(shape, st)):
                if n != 1 and s != want:
                    return False
                want *= n
            return True
        return _Flags(contiguous("C"), contiguous("F"),
                      bool(self._raw.flags.writeable))

    @property
    def base(self):
        return self._raw

    def __len__(self):
        if self.ndim == 0:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    def __iter__(self):
        if self.ndim == 0:
            raise TypeError("iteration over a 0-d array")
        for i in range(self.shape[0]):
            yield self[i]

    def __repr__(self):
        return "array(" + repr(self.get())[6:]

    def __str__(self):
        return str(self.get())

    def __bool__(self):
        raise TypeError("the truth value of a structured array is not "
                        "defined (NumPy has no loop for it either)")

    # ---- to and from the host ---------------------------------------------
    def get(self, stream=None, order="C", out=None, blocking=True):
        """NumPy's structured array of the same shape (a copy)."""
        b = self._raw.get(stream=stream, order="C", blocking=blocking)
        h = np.ascontiguousarray(b).view(self._dtype).reshape(self.shape)
        if order in ("F", "f"):
            h = np.asfortranarray(h)
        if out is not None:
            if not isinstance(out, np.ndarray) or out.dtype != self._dtype \
                    or out.shape != self.shape:
                raise ValueError("get(out=): out must be a NumPy array of "
                                 f"shape {self.shape} and dtype {self._dtype}")
            out[...] = h
            return out
        return h

    def set(self, arr, stream=None):
        """Copy the host array arr (converted to this dtype, NumPy's
        rules) into this array."""
        h = np.asarray(arr, dtype=self._dtype)
        if h.shape != self.shape:
            raise ValueError(f"set(): shape mismatch: {h.shape} into "
                             f"{self.shape}")
        self._raw[...] = _e.asarray(_host_bytes(h), device=self.device)

    def __array__(self, dtype=None, copy=None):
        if copy is False:
            raise ValueError("a struct array on an ember device cannot be "
                             "seen by NumPy without a copy")
        h = self.get()
        return h if dtype is None else h.astype(dtype)

    def __reduce__(self):
        return (_rebuild, (self.get(), str(self.device)))

    def tolist(self):
        return self.get().tolist()

    def item(self, *args):
        return self.get().item(*args)

    @property
    def __cuda_array_interface__(self):
        if self.device.type != "cuda":
            raise AttributeError("a struct array on the cpu device has no "
                                 "__cuda_array_interface__")
        c = self.flags.c_contiguous
        return {"shape": self.shape, "typestr": self._dtype.str,
                "descr": self._dtype.descr,
                "data": (self._raw.data.ptr if self.size else 0,
                         not self.flags.writeable),
                "strides": None if c else self.strides, "version": 3}

    # ---- views ------------------------------------------------------------
    def _wrap(self, raw, dtype=None):
        return StructArray(raw, self._dtype if dtype is None else dtype)

    def _key(self, key):
        return (key if isinstance(key, tuple) else (key,)) + (slice(None),)

    def field(self, name):
        """The field name (see the class docstring: a view when aligned,
        else a copy)."""
        return self._field(name)[0]

    def _field(self, name):
        """(the field, whether it is a view of the records' bytes)."""
        fields = self._dtype.fields
        if not isinstance(name, str):
            raise TypeError(f"field names are str, not {type(name).__name__}")
        if name not in fields:
            raise ValueError(f"no field of name {name}")
        ft, off = fields[name][:2]
        raw = self._raw[..., off:off + ft.itemsize]
        if ft.names is not None:
            return StructArray(raw, ft), True
        base, sub = ft.base, ft.shape
        try:
            edt = _e.dtype(base)
        except (TypeError, ValueError):
            raise TypeError(f"field {name!r} has dtype {base}, which ember "
                            "arrays do not hold (get() the struct array to "
                            "read it on the host)") from None
        isz = base.itemsize
        aligned = off % isz == 0 and all(
            s % isz == 0 for n, s in zip(raw.shape[:-1], raw.strides[:-1])
            if n > 1) and (raw.size == 0 or raw.data.ptr % isz == 0)
        v = None
        if aligned:
            try:
                v = raw.view(edt)
            except ValueError:
                v = None
        is_view = v is not None
        if v is None:     # a copy of the field's bytes, then the view
            v = _e.ascontiguousarray(raw).view(edt)
        if sub:
            return v.reshape(self.shape + sub), is_view
        return v[..., 0], is_view

    def __getitem__(self, key):
        if isinstance(key, str):
            return self.field(key)
        if isinstance(key, list) and key and all(isinstance(k, str)
                                                 for k in key):
            return self._wrap(self._raw, _subset_dtype(self._dtype, key))
        if isinstance(key, StructArray):
            raise IndexError("a struct array is not an index")
        return self._wrap(self._raw[self._key(key)])

    def __setitem__(self, key, value):
        if isinstance(key, str):
            self._set_field(key, value)
            return
        if isinstance(key, list) and key and all(isinstance(k, str)
                                                 for k in key):
            self[key][...] = value
            return
        self._raw[self._key(key)] = self._value_bytes(value)

    def _set_field(self, name, value):
        f, is_view = self._field(name)
        if is_view:         # written through the view
            f[...] = value
            return
        ft, off = self._dtype.fields[name][:2]
        v = _e.asarray(value, device=self.device)
        v = _e.broadcast_to(v.astype(_e.dtype(ft.base)), self.shape + ft.shape)
        b = _e.ascontiguousarray(v).reshape(-1).view(_U8).reshape(
            self.shape + (ft.itemsize,))
        self._raw[..., off:off + ft.itemsize] = b

    def _value_bytes(self, value):
        """value as uint8 bytes of records of this dtype (broadcastable
        over the records)."""
        if isinstance(value, StructArray):
            if value.device != self.device:
                value = value.to_device(self.device)
            if value.dtype == self._dtype:
                return value._raw
            return _by_position(value, self._dtype)._raw
        if isinstance(value, _e.ndarray) or isinstance(value, (int, float,
                                                                bool)):
            # NumPy puts a number into every field
            t = empty(getattr(value, "shape", ()), self._dtype,
                      device=self.device)
            for name in self._dtype.names:
                t[name] = value
            return t._raw
        h = np.asarray(value, dtype=self._dtype)
        return _e.asarray(_host_bytes(h), device=self.device)

    def view(self, dtype=None, type=None):
        """The same bytes as another dtype, NumPy's rules: a struct dtype
        of the same itemsize keeps the shape; another itemsize rescales
        the last axis (which must be contiguous)."""
        if dtype is None:
            return self._wrap(self._raw)
        sd = struct_dtype(dtype)
        if sd is not None and sd.itemsize == self.itemsize:
            return self._wrap(self._raw, sd)
        b = self._bytes_last_axis()
        if sd is not None:
            return view_bytes(b, sd)
        return b.view(dtype)

    def _bytes_last_axis(self):
        """The bytes with the last record axis and the byte axis merged
        (a view; the last axis must be contiguous)."""
        if self.ndim == 0:
            return self._raw
        sh = self.shape
        if sh[-1] > 1 and self.strides[-1] != self.itemsize:
            raise ValueError("To change to a dtype of a different size, the "
                             "last axis must be contiguous")
        return self._raw.reshape(sh[:-1] + (sh[-1] * self.itemsize,))

    def reshape(self, *shape, order="C"):
        if len(shape) == 1 and not isinstance(shape[0], int):
            shape = tuple(shape[0])
        shape = tuple(shape)
        if -1 in shape:
            known = math.prod(k for k in shape if k != -1)
            shape = tuple(self.size // known if k == -1 else k for k in shape) \
                if known else shape
        if math.prod(shape) != self.size:
            raise ValueError(f"cannot reshape array of size {self.size} into "
                             f"shape {shape}")
        if order in ("F", "f"):
            return self.transpose().reshape(shape[::-1]).transpose()
        return self._wrap(self._raw.reshape(shape + (self.itemsize,)))

    def ravel(self, order="C"):
        return self.reshape(-1, order=order)

    def flatten(self, order="C"):
        return self.ravel(order).copy()

    def transpose(self, *axes):
        if len(axes) == 1 and not isinstance(axes[0], int):
            axes = tuple(axes[0])
        if not axes:
            axes = tuple(range(self.ndim))[::-1]
        axes = tuple(a % self.ndim if self.ndim else a for a in axes)
        return self._wrap(self._raw.transpose(axes + (self.ndim,)))

    @property
    def T(self):
        return self.transpose()

    def squeeze(self, axis=None):
        if axis is None:
            axis = tuple(i for i, n in enumerate(self.shape) if n == 1)
        return self._wrap(self._raw.squeeze(axis))

    def copy(self, order="C"):
        r = empty(self.shape, self._dtype, order=order, device=self.device)
        r._raw[...] = self._raw
        return r

    def to_device(self, device):
        return StructArray(_e.asarray(self._raw, device=device), self._dtype)

    def astype(self, dtype, copy=True):
        sd = struct_dtype(dtype)
        if sd is None:
            raise TypeError(f"Cannot cast array data from {self._dtype!r} to "
                            f"{np.dtype(dtype)!r}: ember does not cast "
                            "structured arrays to numbers (read a field)")
        if sd == self._dtype:
            return self.copy() if copy else self
        return _by_position(self, sd)

    def fill(self, value):
        self[...] = value

    # ---- comparisons: NumPy's, field by field ------------------------------
    def _compare(self, other, eq):
        if not isinstance(other, StructArray):
            if isinstance(other, (np.ndarray, np.void, tuple, list)):
                other = asarray(other, dtype=self._dtype, device=self.device)
            else:
                return NotImplemented
        if len(other.dtype.names) != len(self._dtype.names):
            raise TypeError("cannot compare structured arrays with "
                            "different numbers of fields")
        r = None
        for a, b in zip(self._dtype.names, other.dtype.names):
            x, y = self[a], other[b]
            if isinstance(x, StructArray):
                c = x._compare(y, True)
            else:
                c = x == y
                if c.ndim > self.ndim:   # a subarray field: all of it
                    c = c.reshape(c.shape[:self.ndim] + (-1,)).all(axis=-1)
            r = c if r is None else r & c
        return r if eq else ~r

    def __eq__(self, other):
        return self._compare(other, True)

    def __ne__(self, other):
        return self._compare(other, False)

    __hash__ = None


def _ufunc_dunder(name):
    def op(self, *others):
        raise _ufunc_error(name, self, *others)
    op.__name__ = f"__{name}__"
    return op


for _name, _uf in (("add", "add"), ("radd", "add"), ("sub", "subtract"),
                   ("rsub", "subtract"), ("mul", "multiply"),
                   ("rmul", "multiply"), ("truediv", "true_divide"),
                   ("rtruediv", "true_divide"), ("floordiv", "floor_divide"),
                   ("rfloordiv", "floor_divide"), ("mod", "remainder"),
                   ("rmod", "remainder"), ("pow", "power"),
                   ("rpow", "power"), ("neg", "negative"),
                   ("pos", "positive"), ("abs", "absolute"),
                   ("invert", "invert"), ("and", "bitwise_and"),
                   ("or", "bitwise_or"), ("xor", "bitwise_xor"),
                   ("lt", "less"), ("le", "less_equal"),
                   ("gt", "greater"), ("ge", "greater_equal"),
                   ("matmul", "matmul"), ("lshift", "left_shift"),
                   ("rshift", "right_shift")):
    _f = _ufunc_dunder(_uf)
    setattr(StructArray, f"__{_name}__", _f)
    if _name[0] != "r" and _name not in ("neg", "pos", "abs", "invert",
                                         "lt", "le", "gt", "ge"):
        setattr(StructArray, f"__i{_name}__", _f)
del _name, _uf, _f


def _rebuild(h, device):
    """Unpickling: the host records onto a device."""
    return asarray(h, device=device)


def _subset_dtype(dt, names):
    for n in names:
        if n not in dt.fields:
            raise KeyError(n)      # NumPy's error for a list of names
    return np.dtype({"names": list(names),
                     "formats": [dt.fields[n][0] for n in names],
                     "offsets": [dt.fields[n][1] for n in names],
                     "itemsize": dt.itemsize})


def _by_position(src, dt):
    """src's records as dtype dt, field k from field k (NumPy's rule for
    struct-to-struct assignment)."""
    if len(src.dtype.names) != len(dt.names):
        raise ValueError(f"cannot assign a structure of {len(src.dtype.names)} "
                         f"fields to one of {len(dt.names)}")
    r = empty(src.shape, dt, device=src.device)
    for a, b in zip(dt.names, src.dtype.names):
        r[a] = src[b]
    return r


def _host_bytes(h):
    """A NumPy structured array's records as uint8 of shape shape +
    (itemsize,)."""
    if not h.flags.c_contiguous:
        h = h.copy()
    return h.reshape(-1).view(np.uint8).reshape(h.shape + (h.dtype.itemsize,))


def view_bytes(b, dt):
    """The uint8 (or any) ember array b seen as records of dt: its last
    axis holds whole records (NumPy's view to a larger dtype)."""
    if b.ndim == 0:
        raise ValueError("Changing the dtype of a 0d array is only supported "
                         "if the itemsize is unchanged")
    b = b.view(_U8) if b.dtype != _e.dtype(_U8) else b
    m = b.shape[-1]
    if m % dt.itemsize:
        raise ValueError("When changing to a larger dtype, its size must be a "
                         "divisor of the total size in bytes of the last axis "
                         "of the array.")
    if m > 1 and b.strides[-1] != 1:
        raise ValueError("To change to a dtype of a different size, the last "
                         "axis must be contiguous")
    return StructArray(b.reshape(b.shape[:-1] + (m // dt.itemsize,
                                                 dt.itemsize)), dt)


# ---- constructors --------------------------------------------------------

def empty(shape, dtype, order="C", *, device=None):
    dt = struct_dtype(dtype)
    shape = _shape(shape)
    if order in ("F", "f") and len(shape) > 1:
        rev = shape[::-1] + (dt.itemsize,)
        raw = _e.empty(rev, dtype=_U8, device=device).transpose(
            tuple(range(len(shape)))[::-1] + (len(shape),))
    else:
        raw = _e.empty(shape + (dt.itemsize,), dtype=_U8, device=device)
    return StructArray(raw, dt)


def concatenate(arrays, axis=0):
    """Struct arrays of one dtype joined along axis, as NumPy's
    concatenate: one concatenation of their bytes (dask joins a tree
    reduction's partials so, its arg reductions' among them)."""
    arrays = [asarray(a) for a in arrays]
    dt = arrays[0].dtype
    if any(a.dtype != dt for a in arrays):
        raise TypeError("concatenate: the struct arrays' dtypes differ: %s"
                        % ", ".join(sorted({str(a.dtype) for a in arrays})))
    nd = arrays[0].ndim
    if axis is None:
        arrays, axis, nd = [a.ravel() for a in arrays], 0, 1
    if not -nd <= axis < nd:
        raise np.exceptions.AxisError(axis, nd)
    return StructArray(_e.concatenate([a._raw for a in arrays], axis=axis % nd), dt)


def _filled(shape, dtype, order, device, value):
    r = empty(shape, dtype, order, device=device)
    rec = np.asarray(value, dtype=r.dtype)
    if rec.ndim == 0:
        r._raw[...] = _e.asarray(_host_bytes(rec), device=r.device)
    else:
        r[...] = rec
    return r


def asarray(a, dtype=None, order=None, *, device=None, copy=None, ndmin=0):
    """A struct array from a struct array, NumPy's structured array or
    record, another library's device array of a structured dtype, or
    anything NumPy makes a structured array of with dtype (a list of
    tuples)."""
    sd = None if dtype is None else struct_dtype(dtype)
    if dtype is not None and sd is None:
        raise TypeError(f"Cannot cast a structured array to {dtype!r}: "
                        "ember does not cast structured arrays to numbers "
                        "(read a field)")
    if isinstance(a, StructArray):
        r = a
        if device is not None:
            r = StructArray(_e.asarray(a._raw, device=device), a.dtype)
        if sd is not None and sd != r.dtype:
            r = _by_position(r, sd)
        elif copy and r is a:
            r = r.copy()
        if order in ("C", "c") and not r.flags.c_contiguous and r is a:
            r = r.copy()
    elif not isinstance(a, (np.ndarray, np.void)) and isinstance(
            getattr(a, "__cuda_array_interface__", None), dict):
        r = _from_cai(a, device, copy)
        if sd is not None and sd != r.dtype:
            r = _by_position(r, sd)
    else:
        h = np.asarray(a, dtype=sd)
        if h.dtype.names is None:
            return NotImplemented
        r = StructArray(_e.asarray(_host_bytes(h), device=device,
                                   copy=copy), h.dtype)
    while r.ndim < ndmin:
        r = r.reshape((1,) + r.shape)
    return r


class _ByteInterface:
    """A __cuda_array_interface__ of another library's struct array, seen
    as its bytes (uint8, one more axis)."""

    def __init__(self, cai, owner):
        shape = tuple(cai["shape"])
        isz = np.dtype(cai["typestr"]).itemsize
        st = cai.get("strides")
        self.owner = owner
        self.__cuda_array_interface__ = {
            "shape": shape + (isz,), "typestr": "|u1",
            "data": cai["data"], "version": 3,
            "strides": None if st is None else tuple(st) + (1,)}
        if "stream" in cai:
            self.__cuda_array_interface__["stream"] = cai["stream"]


def _from_cai(a, device, copy):
    cai = a.__cuda_array_interface__
    dt = _cai_dtype(cai)
    if dt is None:
        return NotImplemented
    raw = _e.asarray(_ByteInterface(cai, a), device=device, copy=copy)
    return StructArray(raw, dt)


def _route(fname, *args, **kw):
    """The constructors' fallback (see the module docstring): the struct
    array they were asked for, or NotImplemented."""
    if fname in ("empty", "zeros", "ones", "full"):
        names = ["shape", "fill_value", "dtype", "order", "device", "like"] \
            if fname == "full" else ["shape", "dtype", "order", "device",
                                     "like"]
        v = dict(zip(names, args))
        v.update(kw)
        sd = struct_dtype(v.get("dtype"))
        if sd is None:
            return NotImplemented
        order = v.get("order") or "C"
        dev = v.get("device")
        if fname == "empty":
            return empty(v["shape"], sd, order, device=dev)
        if fname == "zeros":
            if order in ("F", "f"):
                r = empty(v["shape"], sd, order, device=dev)
                r._raw[...] = 0
                return r
            return StructArray(_e.zeros(_shape(v["shape"]) + (sd.itemsize,),
                                        dtype=_U8, device=dev), sd)
        fill = np.ones((), sd) if fname == "ones" else v.get("fill_value")
        return _filled(v["shape"], sd, order, dev, fill)
    if fname in ("asarray", "array", "ascontiguousarray"):
        names = {"asarray": ["a", "dtype", "order"],
                 "array": ["object", "dtype", "copy", "order", "subok",
                           "ndmin"],
                 "ascontiguousarray": ["a", "dtype"]}[fname]
        v = dict(zip(names, args))
        v.update(kw)
        obj = v.get("a", v.get("object"))
        dtype = v.get("dtype")
        if struct_dtype(dtype) is None and not (
                dtype is None and _is_struct_obj(obj)):
            return NotImplemented
        copy = v.get("copy", True if fname == "array" else None)
        order = "C" if fname == "ascontiguousarray" else v.get("order")
        ndmin = 1 if fname == "ascontiguousarray" else v.get("ndmin") or 0
        return asarray(obj, dtype, order, device=v.get("device"),
                       copy=copy, ndmin=ndmin)
    if fname == "view":
        x, dt = args
        sd = struct_dtype(dt)
        if sd is None:
            return NotImplemented
        return view_bytes(x, sd)
    return NotImplemented
