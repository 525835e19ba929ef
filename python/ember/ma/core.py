"""MaskedArray: numpy.ma's class over ember arrays. The data and the mask
are ember arrays on one device; the mask is `nomask` until an entry is
masked. Every operation is ember array work (where/fill, then the existing
kernel); only fill values and printing touch the host."""
import numpy as np

import ember

# NumPy's own nomask (np.False_), so `m is nomask` reads the same in code
# ported from numpy.ma, and `ember.ma.nomask is numpy.ma.nomask`.
nomask = np.False_
MaskType = ember.bool_


def _dev(x):
    return x.device


def _np_dtype(dt):
    return np.dtype(str(ember.dtype(dt)))


def default_fill_value(dtype):
    """numpy.ma's default filler for a dtype: True, 999999, 1e20, 1e20+0j."""
    dt = _np_dtype(dtype)
    if dt.kind == "b":
        return np.True_
    # numpy.ma's defaults are 64-bit scalars whatever the itemsize
    if dt.kind == "i":
        return np.int64(999999)
    if dt.kind == "u":
        return np.uint64(999999)
    if dt.kind == "c":
        return np.complex128(1e20 + 0j)
    return np.float64(1e20)


def _check_fill_value(value, dtype):
    dt = _np_dtype(dtype)
    if value is None:
        return default_fill_value(dtype)
    if isinstance(value, MaskedArray):
        value = value.filled()
    if isinstance(value, ember.ndarray):
        value = ember.asnumpy(value)
    if isinstance(value, (str, bytes)) or np.asarray(value).dtype.kind in "SUO":
        raise TypeError(f"Cannot set fill value of string with array of dtype {dt}")
    try:
        return np.asarray(value).astype(dt)[()]
    except (OverflowError, ValueError) as e:
        raise TypeError(f"Cannot convert fill_value {value!r} to dtype {dt}") from e


def _as_data(x, dtype=None, device=None, copy=False):
    if isinstance(x, MaskedArray):
        x = x._data
    kw = {} if device is None else {"device": device}
    out = ember.asarray(x, dtype=dtype, **kw)
    if copy and out is x:
        out = out.copy()
    return out


def _full_mask(shape, device, value=False):
    return ember.full(shape, value, dtype=ember.bool_, device=device)


def _to_mask(m, shape, device, copy=True):
    """An ember bool array of `shape` on `device` from any mask spelling."""
    if m is nomask or m is None:
        return nomask
    if m is masked:
        m = True
    if isinstance(m, MaskedArray):
        m = m.filled(True)
    if isinstance(m, ember.ndarray):
        if m.device != device:
            m = ember.asarray(m, device=device)
        out = m.astype(ember.bool_) if m.dtype != ember.bool_ else (m.copy() if copy else m)
    else:
        out = ember.asarray(np.asarray(m), device=device).astype(ember.bool_)
    if out.shape != tuple(shape):
        if out.size == int(np.prod(shape)) and out.ndim:
            out = out.reshape(shape)
        else:
            try:
                out = ember.broadcast_to(out, shape).copy()
            except ValueError as e:
                raise ValueError(f"Mask and data not compatible: data shape is "
                                 f"{tuple(shape)}, mask shape is {out.shape}.") from e
    return out


class MaskedArray:
    """An ember array with a bool mask of the same shape (True = invalid)."""
    __array_priority__ = 15

    def __init__(self, data=None, mask=nomask, dtype=None, copy=False,
                 fill_value=None, keep_mask=True, hard_mask=None, shrink=True,
                 device=None):
        if data is None:
            data = []
        src = data if isinstance(data, MaskedArray) else None
        d = _as_data(data, dtype=dtype, device=device, copy=copy)
        self._data = d
        self._hardmask = bool(hard_mask) if hard_mask is not None else \
            (src._hardmask if src is not None else False)
        new = _to_mask(mask, d.shape, d.device)
        if src is not None and keep_mask and src._mask is not nomask:
            old = src._mask if not copy else src._mask.copy()
            if src._data.shape != d.shape:
                old = old.reshape(d.shape)
            new = old if new is nomask else ember.logical_or(old, new)
        if new is nomask and not shrink:
            new = _full_mask(d.shape, d.device)
        self._mask = new
        if fill_value is None and src is not None:
            fill_value = src._fill_value
        self._fill_value = None if fill_value is None else _check_fill_value(fill_value, d.dtype)

    @classmethod
    def _wrap(cls, data, mask, fill_value=None, hard=False):
        self = cls.__new__(cls)
        self._data = data
        self._mask = mask
        self._fill_value = fill_value
        self._hardmask = hard
        return self

    # ---- attributes -------------------------------------------------------
    @property
    def data(self):
        return self._data

    @property
    def mask(self):
        return self._mask

    @mask.setter
    def mask(self, value):
        self.__setmask__(value)

    def __setmask__(self, value):
        if value is masked:
            value = True
        if value is nomask and self._mask is nomask:
            return
        new = _to_mask(value if value is not nomask else False, self.shape, self.device)
        if self._mask is nomask:
            self._mask = new
        elif self._hardmask:
            self._mask[...] = ember.logical_or(self._mask, new)
        else:
            self._mask[...] = new

    @property
    def recordmask(self):
        return self._mask

    @property
    def fill_value(self):
        if self._fill_value is None:
            self._fill_value = default_fill_value(self.dtype)
        return self._fill_value

    @fill_value.setter
    def fill_value(self, value):
        self._fill_value = _check_fill_value(value, self.dtype)

    def get_fill_value(self):
        return self.fill_value

    def set_fill_value(self, value=None):
        self.fill_value = value

    @property
    def hardmask(self):
        return self._hardmask

    def harden_mask(self):
        self._hardmask = True
        return self

    def soften_mask(self):
        self._hardmask = False
        return self

    def unshare_mask(self):
        if self._mask is not nomask:
            self._mask = self._mask.copy()
        return self

    @property
    def sharedmask(self):
        return False

    def shrink_mask(self):
        if self._mask is not nomask and not bool(ember.any(self._mask)):
            self._mask = nomask
        return self

    shape = property(lambda self: self._data.shape)
    dtype = property(lambda self: self._data.dtype)
    ndim = property(lambda self: self._data.ndim)
    size = property(lambda self: self._data.size)
    device = property(lambda self: self._data.device)
    itemsize = property(lambda self: self._data.itemsize)
    nbytes = property(lambda self: self._data.nbytes)

    @shape.setter
    def shape(self, value):
        self._data = self._data.reshape(value)
        if self._mask is not nomask:
            self._mask = self._mask.reshape(value)

    def __len__(self):
        return len(self._data)

    # ---- filling and compaction --------------------------------------------
    def filled(self, fill_value=None):
        """The data with masked entries replaced by fill_value (a copy)."""
        if self._mask is nomask:
            return self._data
        fv = self.fill_value if fill_value is None else _check_fill_value(fill_value, self.dtype)
        return ember.where(self._mask, _scalar(fv, self._data), self._data)

    def compressed(self):
        """The unmasked entries, flattened (one compaction)."""
        d = self._data.ravel()
        if self._mask is nomask:
            return d.copy()
        return d[ember.logical_not(self._mask.ravel())]

    def count(self, axis=None, keepdims=False):
        """Number of unmasked entries along axis (a Python int for axis=None)."""
        from ember.ma import reductions
        return reductions.count(self, axis=axis, keepdims=keepdims)

    def nonzero(self):
        return ember.nonzero(self.filled(0))

    def ids(self):
        return (id(self._data), id(self._mask))

    # ---- shape and type -----------------------------------------------------
    def _same_mask(self, fdata, fmask, keep_fill=True):
        d = fdata(self._data)
        m = nomask if self._mask is nomask else fmask(self._mask)
        return MaskedArray._wrap(d, m, self._fill_value if keep_fill else None, self._hardmask)

    def reshape(self, *shape, order="C"):
        return self._same_mask(lambda a: a.reshape(*shape, order=order),
                               lambda m: m.reshape(*shape, order=order))

    def ravel(self, order="C"):
        return self._same_mask(lambda a: a.ravel(order), lambda m: m.ravel(order))

    flatten = lambda self: self.ravel().copy()

    def transpose(self, *axes):
        return self._same_mask(lambda a: a.transpose(*axes), lambda m: m.transpose(*axes))

    @property
    def T(self):
        return self.transpose()

    def swapaxes(self, a1, a2):
        return self._same_mask(lambda a: a.swapaxes(a1, a2), lambda m: m.swapaxes(a1, a2))

    def squeeze(self, axis=None):
        return self._same_mask(lambda a: a.squeeze(axis), lambda m: m.squeeze(axis))

    def astype(self, dtype, copy=True):
        d = self._data.astype(dtype)
        m = self._mask if self._mask is nomask else self._mask.copy()
        fv = None if self._fill_value is None else \
            _check_fill_value(self._fill_value, d.dtype) if d.dtype.kind != "b" else None
        return MaskedArray._wrap(d, m, fv, self._hardmask)

    def copy(self):
        return MaskedArray._wrap(self._data.copy(),
                                 self._mask if self._mask is nomask else self._mask.copy(),
                                 self._fill_value, self._hardmask)

    __copy__ = copy

    def __deepcopy__(self, memo=None):
        return self.copy()

    def view(self, cls=None):
        return MaskedArray._wrap(self._data, self._mask, self._fill_value, self._hardmask)

    def toflex(self):
        raise NotImplementedError("ember.ma has no record (flexible-dtype) arrays")

    # ---- indexing -----------------------------------------------------------
    def __getitem__(self, key):
        key = _plain_key(key)
        d = self._data[key]
        m = nomask if self._mask is nomask else self._mask[key]
        if d.ndim == 0:
            if m is not nomask and bool(m):
                return masked
            return d
        return MaskedArray._wrap(d, m, self._fill_value, self._hardmask)

    def __setitem__(self, key, value):
        key = _plain_key(key)
        if value is masked:
            if self._mask is nomask:
                self._mask = _full_mask(self.shape, self.device)
            self._mask[key] = True
            return
        vmask = getmask(value)
        vdata = getdata(value) if isinstance(value, MaskedArray) else value
        if isinstance(vdata, ember.ndarray) and vdata.device != self.device:
            vdata = ember.asarray(vdata, device=self.device)
        if self._hardmask and self._mask is not nomask:
            cur = self._data[key]
            keep = self._mask[key]
            if isinstance(cur, ember.ndarray):
                self._data[key] = ember.where(keep, cur, _as_operand(vdata, cur))
            else:
                self._data[key] = vdata
            if vmask is not nomask:
                self._mask[key] = ember.logical_or(keep, _to_mask(vmask, vmask.shape, self.device))
            return
        self._data[key] = vdata
        if vmask is nomask:
            if self._mask is not nomask:
                self._mask[key] = False
        else:
            if self._mask is nomask:
                self._mask = _full_mask(self.shape, self.device)
            self._mask[key] = vmask

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]

    # ---- conversion and printing ----------------------------------------------
    def tolist(self, fill_value=None):
        """Nested lists with masked entries as None (or fill_value)."""
        if fill_value is not None:
            return self.filled(fill_value).tolist()
        if self._mask is nomask:
            return self._data.tolist()
        data = np.asarray(ember.asnumpy(self._data), dtype=object)
        data[ember.asnumpy(self._mask)] = None
        return data.tolist()

    def _host(self):
        m = nomask if self._mask is nomask else ember.asnumpy(self._mask)
        # an unset fill value is left to NumPy, which prints its 64-bit default
        # (np.float64(1e+20) beside a float32 array) as numpy.ma does
        return np.ma.MaskedArray(ember.asnumpy(self._data), mask=m,
                                 fill_value=self._fill_value)

    # Printing formats a host copy with NumPy's masked printer, as
    # ember.ndarray's repr formats a host copy with NumPy's (cold path).
    def __repr__(self):
        return repr(self._host())

    def __str__(self):
        return str(self._host())

    def __format__(self, spec):
        return format(self._host(), spec)

    def __array__(self, dtype=None, copy=None):
        a = ember.asnumpy(self._data)
        return a if dtype is None else a.astype(dtype)

    def __bool__(self):
        if self.size != 1:
            raise ValueError("The truth value of an array with more than one element "
                             "is ambiguous. Use a.any() or a.all()")
        return bool(self.filled(0).ravel()[0])

    def __float__(self):
        if self.size == 1 and self._mask is not nomask and bool(ember.any(self._mask)):
            return float("nan")
        return float(self._data)

    def __int__(self):
        if self.size == 1 and self._mask is not nomask and bool(ember.any(self._mask)):
            raise MaskError("Cannot convert masked element to a Python int.")
        return int(self._data)

    __hash__ = None

    def anom(self, axis=None, dtype=None):
        """Deviations from the mean along axis (masked where self is)."""
        m = self.mean(axis, dtype=dtype)
        if axis is None:
            return self - m
        return self - ember.ma.expand_dims(m, axis)


class MaskError(Exception):
    """numpy.ma's MaskError (an operation on a masked element)."""


class MAError(Exception):
    pass


def _plain_key(key):
    if isinstance(key, MaskedArray):
        return key.filled(False)
    if isinstance(key, tuple):
        return tuple(k.filled(False) if isinstance(k, MaskedArray) else k for k in key)
    return key


def _scalar(v, like):
    """A host fill value as a Python scalar ember broadcasts weakly."""
    v = np.asarray(v)[()]
    return v.item() if hasattr(v, "item") else v


def _as_operand(v, like):
    if isinstance(v, ember.ndarray):
        return v
    if isinstance(v, (bool, int, float, complex)):
        return v
    return ember.asarray(np.asarray(v), device=like.device)


class MaskedConstant(MaskedArray):
    """The single `masked`: a 0-d float entry whose mask is True."""
    _instance = None

    def __new__(cls):
        if cls._instance is None:
            self = object.__new__(cls)
            self._data = None
            self._mask = None
            self._fill_value = None
            self._hardmask = True
            cls._instance = self
        return cls._instance

    def __init__(self):
        pass

    shape = property(lambda self: ())
    ndim = property(lambda self: 0)
    size = property(lambda self: 1)
    dtype = property(lambda self: ember.float64)

    @property
    def data(self):
        return ember.asarray(0.0)

    @property
    def mask(self):
        return ember.asarray(True)

    def filled(self, fill_value=None):
        return ember.asarray(default_fill_value(ember.float64) if fill_value is None
                             else fill_value)

    def __repr__(self):
        return "masked"

    def __str__(self):
        return "--"

    def __format__(self, spec):
        return "--" if not spec else format("--", spec)

    def __bool__(self):
        return False

    def __float__(self):
        return float("nan")

    def __setitem__(self, key, value):
        raise MaskError("Cannot alter the masked element.")

    def copy(self):
        return self

    def __reduce__(self):
        return (MaskedConstant, ())

    def tolist(self, fill_value=None):
        return None

    def count(self, axis=None, keepdims=False):
        return 0

    def __len__(self):
        raise TypeError("len() of unsized object")


masked = masked_singleton = MaskedConstant()


def isMaskedArray(x):
    return isinstance(x, MaskedArray)


isMA = isarray = isMaskedArray


def getmask(a):
    """a's mask, or nomask for an array without one."""
    if a is masked:
        return np.True_
    return a._mask if isinstance(a, MaskedArray) else nomask


def getmaskarray(arr):
    """a's mask as a full bool ember array (all False for nomask)."""
    if isinstance(arr, MaskedArray) and arr is not masked:
        if arr._mask is nomask:
            return _full_mask(arr.shape, arr.device)
        return arr._mask
    d = ember.asarray(arr)
    return _full_mask(d.shape, d.device)


def getdata(a, subok=True):
    """a's data as an ember array."""
    if isinstance(a, MaskedArray):
        return a.data
    return ember.asarray(a)


def is_masked(x):
    """True when x has at least one masked entry."""
    if x is masked:
        return True
    m = getmask(x)
    return m is not nomask and bool(ember.any(m))


def filled(a, fill_value=None):
    if isinstance(a, MaskedArray):
        return a.filled(fill_value)
    return ember.asarray(a)


def count(a, axis=None, keepdims=False):
    return asanyarray(a).count(axis=axis, keepdims=keepdims)


def compressed(x):
    return asanyarray(x).compressed()


def asanyarray(a, dtype=None):
    if isinstance(a, MaskedArray) and (dtype is None or a.dtype == dtype):
        return a
    return MaskedArray(a, dtype=dtype)


asarray = asanyarray


def harden_mask(a):
    return a.harden_mask()


def soften_mask(a):
    return a.soften_mask()
