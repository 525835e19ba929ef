"""NumPy's index-expression objects: mgrid and ogrid (grids from slices,
on the current device), s_ and index_exp (the key itself), ndindex (index
tuples of a shape), ndenumerate (index and host value of each element)
and iterable."""
import itertools
import math
import operator

from ember import _ember as _e


def _axis(sl):
    """(start, step, count, the numbers deciding the dtype) of one slice;
    an imaginary step asks for that many points, stop included."""
    start = 0 if sl.start is None else sl.start
    step = 1 if sl.step is None else sl.step
    if isinstance(step, complex):
        mag = abs(step)
        count = int(mag)
        step = 1 if count == 1 else (sl.stop - start) / float(count - 1)
        return start, step, count, (start, sl.stop, mag)
    # NumPy's count, float division included
    count = int(math.ceil((sl.stop - start) / (step * 1.0)))
    return start, step, count, (start, sl.stop, step)


class _Grid:
    def __init__(self, sparse):
        self.sparse = sparse

    def __getitem__(self, key):
        if isinstance(key, slice):
            return self._one(key)
        # NumPy's error for a key that is not slices is an AttributeError
        for k in key if isinstance(key, tuple) else (key,):
            if not isinstance(k, slice):
                raise AttributeError(f"a grid's key must be slices "
                                     f"(start:stop:step); got {type(k).__name__}")
        axes = [_axis(k) for k in key]
        nums = [0]
        for a in axes:
            nums += list(a[3])
        typ = _e.result_type(*nums)
        n = len(axes)
        if self.sparse:
            out = []
            for k, (start, step, count, _) in enumerate(axes):
                shape = [1] * n
                shape[k] = max(count, 0)
                r = _e.arange(count, dtype=typ) * step + start
                out.append(r.astype(typ, copy=False).reshape(tuple(shape)))
            return tuple(out)
        size = tuple(a[2] for a in axes)
        grid = _e.indices(size, dtype=typ)
        bshape = (n,) + (1,) * n
        steps = _e.asarray([a[1] for a in axes], dtype=typ).reshape(bshape)
        starts = _e.asarray([a[0] for a in axes], dtype=typ).reshape(bshape)
        return grid * steps + starts

    @staticmethod
    def _one(sl):
        start, step, count, nums = _axis(sl)
        if isinstance(sl.step, complex):
            typ = _e.result_type(*nums)
            return _e.arange(0, count, 1, dtype=typ) * step + start
        return _e.arange(start, sl.stop, sl.step)


class _MGrid(_Grid):
    """mgrid[a:b:s, ...]: the dense grid, shape (N, n1, n2, ...); an
    imaginary step s means |s| points with b included."""

    def __init__(self):
        super().__init__(sparse=False)


class _OGrid(_Grid):
    """ogrid[...]: the open grid, one broadcastable array per axis."""

    def __init__(self):
        super().__init__(sparse=True)


mgrid = _MGrid()
ogrid = _OGrid()


class IndexExpression:
    """s_[key] is key and index_exp[key] a tuple of it: index expressions
    built once and used on any array."""

    def __init__(self, maketuple):
        self.maketuple = maketuple

    def __getitem__(self, item):
        if self.maketuple and not isinstance(item, tuple):
            return (item,)
        return item


index_exp = IndexExpression(maketuple=True)
s_ = IndexExpression(maketuple=False)


class ndindex:
    """The index tuples of an array of `shape`, last axis fastest, as
    NumPy's: ndindex(2, 3) or ndindex((2, 3))."""

    def __init__(self, *shape):
        if len(shape) == 1 and isinstance(shape[0], tuple):
            shape = shape[0]
        shape = tuple(operator.index(s) for s in shape)
        if any(s < 0 for s in shape):
            raise ValueError("negative dimensions are not allowed")
        self._it = itertools.product(*(range(s) for s in shape))

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._it)


class ndenumerate:
    """(index, value) for each element, last axis fastest. The values are
    NumPy scalars of the array's dtype, read from one host copy made here
    (it waits for the work queued on the array): later writes to the array
    are not seen, where NumPy's, iterating the memory itself, sees them."""

    def __init__(self, arr):
        from ember._api.interop import _numpy, to_numpy
        np = _numpy("ndenumerate")
        if isinstance(arr, _e.ndarray):
            # NumPy has no bfloat16: its values come as float32 (exact)
            host = to_numpy(arr.astype(_e.float32) if arr.dtype == _e.bfloat16
                            else arr)
        else:
            host = np.asarray(arr)
        self._it = np.ndenumerate(host)

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._it)


def iterable(y):
    """Whether iter(y) works (False for a 0-d array, as NumPy's)."""
    try:
        iter(y)
    except TypeError:
        return False
    return True
