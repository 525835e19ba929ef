"""Array manipulation composites: append, delete, insert, repeat, resize,
tile, trim_zeros, asfortranarray and the broadcast object."""
import operator

from ember import _ember as _e
from ember._api.cumulative import cumsum
from ember._api.selection import flatnonzero, nonzero, take, where
from ember._api._util import as_array, device_of, normalize_axis


def append(arr, values, axis=None):
    dev = device_of(arr, values)
    arr, values = as_array(arr, dev), as_array(values, dev)
    if axis is None:
        if arr.ndim != 1:
            arr = _e.ravel(arr)
        values = _e.ravel(values)
        axis = arr.ndim - 1
    return _e.concatenate((arr, values), axis=axis)


def _axis_of(arr, axis):
    if axis is None:
        return _e.ravel(arr), 0
    return arr, normalize_axis(operator.index(axis), arr.ndim)


def delete(arr, obj, axis=None):
    """arr without the entries obj (an int, a slice, integers or a boolean
    mask) along axis: one boolean-mask gather."""
    arr = as_array(arr, device_of(arr, obj))
    arr, axis = _axis_of(arr, axis)
    n = arr.shape[axis]
    key = [slice(None)] * arr.ndim
    if isinstance(obj, slice):
        keep = _e.ones((n,), dtype=_e.bool_, device=arr.device)
        keep[obj] = False
    else:
        o = as_array(obj, arr.device)
        if o.dtype == _e.bool_:
            if o.ndim != 1 or o.size != n:
                raise ValueError("boolean array argument obj to delete must be "
                                 f"one dimensional and match the axis length of {n}")
            keep = _e.logical_not(o)
        else:
            if o.dtype.kind not in "iu":
                if o.size == 0:
                    o = o.astype(_e.int64)
                else:
                    raise IndexError("arrays used as indices must be of integer "
                                     f"(or boolean) type (got {o.dtype})")
            if o.ndim == 0:
                i = int(o)
                if not -n <= i < n:
                    raise IndexError(f"index {i} is out of bounds for axis {axis} "
                                     f"with size {n}")
            keep = _e.ones((n,), dtype=_e.bool_, device=arr.device)
            keep[o] = False
    key[axis] = keep
    return arr[tuple(key)]


def insert(arr, obj, values, axis=None):
    """NumPy's insert: a scalar index puts `values` in as one block; a
    sequence or slice of indices puts one value before each (stable in
    the given order)."""
    dev = device_of(arr, obj, values)
    arr = as_array(arr, dev)
    arr, axis = _axis_of(arr, axis)
    nd = arr.ndim
    N = arr.shape[axis]
    if isinstance(obj, slice):
        idx = _e.arange(*obj.indices(N), device=arr.device)
    else:
        idx = as_array(obj, arr.device)
        if idx.dtype == _e.bool_:
            # NumPy 2: a boolean obj is a mask over the axis' positions.
            if idx.ndim != 1:
                raise ValueError("boolean array argument obj to insert must be "
                                 f"one dimensional (got shape {idx.shape})")
            idx = flatnonzero(idx)
        if idx.size == 0 and idx.dtype.kind not in "iu":
            idx = idx.astype(_e.int64)
        if idx.dtype.kind not in "iu":
            raise IndexError("index array argument obj to insert must be one "
                             f"dimensional or scalar (got dtype {idx.dtype})")
        if idx.ndim > 1:
            raise ValueError("index array argument obj to insert must be one "
                             "dimensional or scalar")
    if idx.size == 1:
        # One index (also [i]) inserts `values` as a block, as NumPy does.
        i = int(idx.reshape(()))
        if not -N <= i <= N:
            raise IndexError(f"index {i} is out of bounds for axis {axis} with "
                             f"size {N}")
        if i < 0:
            i += N
        v = as_array(values, arr.device, arr.dtype)
        v = v.reshape((1,) * (nd - v.ndim) + v.shape) if v.ndim < nd else v
        if idx.ndim == 0 and v.ndim and nd:
            # a[:, i] = v broadcasts v unlike a[:, [i]] = v: NumPy moves
            # v's first axis to `axis` so both behave as the latter.
            v = _e.moveaxis(v, 0, axis)
        numnew = v.shape[axis] if v.ndim else 1
        shape = list(arr.shape)
        shape[axis] = numnew
        v = _e.broadcast_to(v, tuple(shape))
        sl = [slice(None)] * nd
        pre, post = list(sl), list(sl)
        pre[axis], post[axis] = slice(None, i), slice(i, None)
        return _e.concatenate((arr[tuple(pre)], v, arr[tuple(post)]), axis=axis)
    idx = idx.astype(_e.int64)
    numnew = idx.size
    if numnew and bool(_e.any((idx < -N) | (idx > N))):
        bad = int(idx[_e.argmax((idx < -N) | (idx > N))])
        raise IndexError(f"index {bad} is out of bounds for axis {axis} with "
                         f"size {N}")
    idx = where(idx < 0, idx + N, idx)
    order = _e.argsort(idx, stable=True)
    pos = _e.empty_like(idx)
    pos[order] = idx[order] + _e.arange(numnew, device=arr.device)
    shape = list(arr.shape)
    shape[axis] = N + numnew
    new = _e.empty(tuple(shape), dtype=arr.dtype, device=arr.device)
    old = _e.ones((N + numnew,), dtype=_e.bool_, device=arr.device)
    old[pos] = False
    key = [slice(None)] * nd
    key[axis] = pos
    v = as_array(values, arr.device, arr.dtype)
    if v.ndim < nd:
        v = v.reshape((1,) * (nd - v.ndim) + v.shape)
    new[tuple(key)] = v
    key[axis] = old
    new[tuple(key)] = arr
    return new


def resize(a, new_shape):
    """A new array of new_shape filled with a's elements repeated in C
    order (zeros when a is empty)."""
    a = as_array(a, device_of(a))
    if isinstance(new_shape, int) or hasattr(new_shape, "__index__"):
        new_shape = (operator.index(new_shape),)
    new_shape = tuple(operator.index(s) for s in new_shape)
    n = 1
    for s in new_shape:
        if s < 0:
            raise ValueError("all elements of `new_shape` must be non-negative "
                             f"(got {new_shape})")
        n *= s
    flat = _e.ravel(a)
    if a.size == 0 or n == 0:
        return _e.zeros(new_shape, dtype=a.dtype, device=a.device)
    reps = -(-n // a.size)
    return tile(flat, reps)[:n].reshape(new_shape)


def tile(A, reps):
    """A repeated reps times along each axis, in one copy: the result,
    viewed with a (repeats, extent) pair of axes for each axis that
    repeats, is assigned A broadcast over the repeats (NumPy's
    axis-by-axis repeats would take a kernel per axis)."""
    a = as_array(A)
    try:
        reps = tuple(reps)
    except TypeError:
        reps = (reps,)
    reps = tuple(operator.index(r) for r in reps)
    for r in reps:
        if r < 0:
            raise ValueError(f"negative dimensions are not allowed (tile reps "
                             f"{r})")
    nd = max(len(reps), a.ndim)
    reps = (1,) * (nd - len(reps)) + reps
    shape = (1,) * (nd - a.ndim) + a.shape
    view, spread, out = [], [], []
    for r, s in zip(reps, shape):
        if r != 1:
            view.append(1)
            spread.append(r)
        view.append(s)
        spread.append(s)
        out.append(r * s)
    res = _e.empty(tuple(out), dtype=a.dtype, device=a.device)
    res.reshape(tuple(spread))[...] = a.reshape(tuple(view))
    return res


def _repeat_counts(repeats):
    """One count for all, a list of one per element, or, for an ember
    array of counts, that array as int64 where it is (its values stay on
    the device: repeat reads only their sum and whether one is negative)."""
    if isinstance(repeats, _e.ndarray) and repeats.ndim == 1 and \
            repeats.size > 1:
        if repeats.dtype.kind not in "biu" or repeats.dtype == _e.uint64:
            raise TypeError("Cannot cast array data from dtype("
                            f"'{repeats.dtype}') to dtype('int64') according "
                            "to the rule 'safe'")
        return repeats.astype(_e.int64, copy=False)
    if hasattr(repeats, "tolist"):
        repeats = repeats.tolist()
    if isinstance(repeats, int) or (hasattr(type(repeats), "__index__")
                                    and not hasattr(repeats, "__len__")):
        return operator.index(repeats)
    try:
        counts = list(repeats)
    except TypeError:
        raise TypeError("repeats must be an integer or a sequence of "
                        "integers") from None
    for c in counts:
        if isinstance(c, float):
            raise TypeError("Cannot cast array data from dtype('float64') to "
                            "dtype('int64') according to the rule 'safe'")
    return [operator.index(c) for c in counts]


def repeat(a, repeats, axis=None):
    """Each element of a (flattened when axis is None), or each slice
    along axis, repeated: one broadcast copy for a single count, a gather
    by the counts' running sums otherwise."""
    a = as_array(a)
    counts = _repeat_counts(repeats)
    if axis is None:
        a, axis = _e.ravel(a), 0
    else:
        axis = normalize_axis(operator.index(axis), a.ndim)
    n = a.shape[axis]
    single = isinstance(counts, int)
    if not single and len(counts) not in (1, n):
        raise ValueError("operands could not be broadcast together with "
                         f"shape ({n},) ({len(counts)},)")
    if isinstance(counts, _e.ndarray):
        return _repeat_by(a, _e.asarray(counts, device=a.device), axis)
    if single or len(counts) == 1:
        c = counts if single else counts[0]
        if c < 0:
            raise ValueError("repeats may not contain negative values.")
        total = c * n
    else:
        if any(c < 0 for c in counts):
            raise ValueError("repeats may not contain negative values.")
        total = sum(counts)
    # An 8-byte index per result element must stay addressable.
    if total > (2**63 - 1) // 8:
        raise ValueError("array is too big; `arr.size * arr.dtype.itemsize` "
                         "is larger than the maximum possible size.")
    pre, post = a.shape[:axis], a.shape[axis + 1:]
    if single or len(counts) == 1:
        res = _e.empty(pre + (total,) + post, dtype=a.dtype, device=a.device)
        res.reshape(pre + (n, c) + post)[...] = a.reshape(pre + (n, 1) + post)
        return res
    return _gather_repeats(a, _e.asarray(counts, dtype=_e.int64,
                                         device=a.device), total, axis)


def _repeat_by(a, counts, axis):
    """repeat by an int64 array of counts on a's device: two scalars come
    back to the host (any negative, the total, its float64 twin that an
    int64 sum past 2**63 cannot fool)."""
    if bool((counts < 0).any()):
        raise ValueError("repeats may not contain negative values.")
    if float(counts.astype(_e.float64).sum()) > (2**63 - 1) // 8:
        raise ValueError("array is too big; `arr.size * arr.dtype.itemsize` "
                         "is larger than the maximum possible size.")
    return _gather_repeats(a, counts, int(counts.sum()), axis)


def _gather_repeats(a, counts, total, axis):
    """a's slices along axis, slice i counts[i] times: a gather by the
    counts' running sums."""
    ends = cumsum(counts)
    idx = _e.searchsorted(ends, _e.arange(total, device=a.device), side="right")
    return take(a, idx, axis=axis)


def trim_zeros(filt, trim="fb", axis=None):
    """filt without its leading ('f') and trailing ('b') zeros; over every
    axis (or the given ones) for n-d input. A view."""
    trim = trim.lower()
    if trim not in ("fb", "bf", "f", "b"):
        raise ValueError(f"unexpected character(s) in `trim`: {trim!r}")
    f = as_array(filt, device_of(filt))
    if f.ndim == 0:
        raise ValueError("trim_zeros of a 0-d array")
    axes = range(f.ndim) if axis is None else [
        normalize_axis(operator.index(a), f.ndim)
        for a in (axis if isinstance(axis, (tuple, list)) else (axis,))]
    nz = nonzero(f)
    key = [slice(None)] * f.ndim
    empty = nz[0].size == 0
    for ax in axes:
        if empty:
            # NumPy keeps nothing along a trimmed axis of an all-zero array.
            key[ax] = slice(0, 0) if ("f" in trim or "b" in trim) else slice(None)
            continue
        lo = int(_e.min(nz[ax])) if "f" in trim else 0
        hi = int(_e.max(nz[ax])) + 1 if "b" in trim else f.shape[ax]
        key[ax] = slice(lo, hi)
    return f[tuple(key)]


def asfortranarray(a, dtype=None, *, like=None):
    a = as_array(a, device_of(a))
    if a.flags.f_contiguous and a.ndim >= 1 and (dtype is None or a.dtype == dtype):
        return a
    return a.astype(a.dtype if dtype is None else dtype, order="F", copy=True) \
        if a.ndim >= 1 else a.reshape((1,)).astype(a.dtype if dtype is None else dtype)


class broadcast:
    """NumPy's broadcast object: the shape the arguments broadcast to, its
    size and number of axes, and the broadcast views (CuPy's `values`);
    iterating yields tuples of 0-d views (no copy to the host)."""

    def __init__(self, *args):
        if len(args) > 64:
            raise ValueError("Need at most 64 array objects.")
        dev = device_of(*args)
        arrs = [a if isinstance(a, broadcast) else as_array(a, dev) for a in args]
        flat = []
        for a in arrs:
            flat.extend(a.values if isinstance(a, broadcast) else [a])
        self.values = tuple(_e.broadcast_arrays(*flat)) if flat else ()
        self.shape = self.values[0].shape if flat else ()
        self.numiter = len(args)
        self.index = 0

    @property
    def nd(self):
        return len(self.shape)

    ndim = nd

    @property
    def size(self):
        n = 1
        for s in self.shape:
            n *= s
        return n

    @property
    def iters(self):
        return tuple(iter(_e.ravel(v)) for v in self.values)

    def reset(self):
        self.index = 0

    def __iter__(self):
        return self

    def __next__(self):
        if self.index >= self.size:
            raise StopIteration
        i = self.index
        self.index += 1
        coords = []
        for s in reversed(self.shape):
            coords.append(i % s)
            i //= s
        key = tuple(reversed(coords))
        return tuple(v[key] for v in self.values)


def rollaxis(a, axis, start=0):
    """NumPy's rollaxis (moveaxis is the clearer spelling): axis moved to
    just before `start`. A view."""
    a = as_array(a, device_of(a))
    n = a.ndim
    axis = normalize_axis(operator.index(axis), n)
    start = operator.index(start)
    if start < 0:
        start += n
    if not 0 <= start < n + 1:
        import ember
        raise ember.AxisError(f"'start' arg requires {-n} <= start < {n + 1}, but "
                              f"{start} was passed in")
    if axis < start:
        start -= 1
    if axis == start:
        return a[...]
    axes = list(range(n))
    axes.remove(axis)
    axes.insert(start, axis)
    return a.transpose(axes)
