"""r_ and c_: NumPy's index-expression concatenation objects."""
from ember import _ember as _e
from ember._api._util import as_array, device_of
from ember._api.ranges import linspace


def _is_scalar(x):
    return isinstance(x, (bool, int, float, complex))


class AxisConcatenator:
    """obj[...]: each item (a slice becomes arange/linspace, a scalar or a
    sequence an array of at least `ndmin` axes) joined along `axis`. A
    leading string sets 'axis[,ndmin[,trans1d]]' as NumPy's does."""

    def __init__(self, axis=0, ndmin=1, trans1d=-1):
        self.axis, self.ndmin, self.trans1d = axis, ndmin, trans1d

    def __getitem__(self, key):
        if not isinstance(key, tuple):
            key = (key,)
        axis, ndmin, trans1d = self.axis, self.ndmin, self.trans1d
        dev = device_of(*key)
        objs, scalars, arrays = [], [], []
        for k, item in enumerate(key):
            scalar = False
            if isinstance(item, slice):
                start = 0 if item.start is None else item.start
                step = 1 if item.step is None else item.step
                if isinstance(step, complex):
                    num = int(abs(step))
                    new = linspace(start, item.stop, num=num, device=dev)
                else:
                    new = _e.arange(start, item.stop, step, device=dev)
                if ndmin > 1:
                    new = new.reshape((1,) * (ndmin - 1) + new.shape)
                    if trans1d != -1:
                        new = new.swapaxes(-1, trans1d)
            elif isinstance(item, str):
                if k != 0:
                    raise ValueError("special directives must be the first entry.")
                if item in ("r", "c"):
                    raise NotImplementedError("ember has no matrix class: the 'r' "
                                              "and 'c' directives are not supported")
                try:
                    parts = [int(p) for p in item.split(",")]
                except ValueError:
                    raise ValueError(f"unknown special directive {item!r}") from None
                axis = parts[0]
                if len(parts) > 1:
                    ndmin = parts[1]
                if len(parts) > 2:
                    trans1d = parts[2]
                continue
            elif _is_scalar(item):
                new = _e.asarray(item, device=dev)
                new = new.reshape((1,) * max(ndmin, 1))
                scalar = True
            else:
                new = as_array(item, dev)
                if ndmin > 1:
                    new = self._ndmin(new, ndmin, trans1d)
                elif new.ndim == 0:
                    new = new.reshape((1,))
            objs.append(new)
            (scalars if scalar else arrays).append(item if scalar else new)
        if not objs:
            return _e.asarray([], device=dev)
        dtype = None
        if scalars and arrays:
            # Python scalars are weak beside arrays, as in NumPy 2.
            dtype = _e.result_type(*arrays, *scalars)
        return _e.concatenate(objs, axis=axis, dtype=dtype)

    @staticmethod
    def _ndmin(a, ndmin, trans1d):
        # NumPy's rule: axes are prepended up to ndmin, then the item's own
        # axes move to start at trans1d.
        k = a.ndim
        if k >= ndmin:
            return a
        a = a.reshape((1,) * (ndmin - k) + a.shape)
        if trans1d != -1:
            k2 = ndmin - k
            k1 = trans1d + k2 + 1 if trans1d < 0 else trans1d
            d = list(range(ndmin))
            a = a.transpose(d[:k1] + d[k2:] + d[k1:k2])
        return a

    def __len__(self):
        return 0


class RClass(AxisConcatenator):
    """r_[...]: join along the first axis."""


class CClass(AxisConcatenator):
    """c_[...]: join along the last axis, 1-d items as columns."""

    def __init__(self):
        super().__init__(-1, ndmin=2, trans1d=0)


r_ = RClass()
c_ = CClass()
