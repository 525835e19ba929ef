"""NumPy's shape functions as module functions: each is a view made by
ndarray's methods or by indexing (both C), so none copies or launches."""
from ember import _ember as _e
from ember._api._axes import axes, index, ints
from ember._api._util import as_array, normalize_axis


def reshape(a, shape=None, order="C", *, newshape=None, copy=None):
    if shape is not None and newshape is not None:
        raise TypeError("You cannot specify 'newshape' and 'shape' arguments at "
                        "the same time.")
    if shape is None and newshape is None:
        raise TypeError("reshape() missing 1 required positional argument: 'shape'")
    return as_array(a).reshape(newshape if shape is None else shape, order=order,
                               copy=copy)


def ravel(a, order="C"):
    return as_array(a).ravel(order)


def squeeze(a, axis=None):
    return as_array(a).squeeze(axis)


def swapaxes(a, axis1, axis2):
    return as_array(a).swapaxes(axis1, axis2)


def transpose(a, axes=None):
    a = as_array(a)
    return a.transpose() if axes is None else a.transpose(axes)


def permute_dims(a, axes):
    return as_array(a).transpose(axes)


def diagonal(a, offset=0, axis1=0, axis2=1):
    """Also a.diagonal: a read-only view (the extension's _diagonal)."""
    a = as_array(a)
    offset, axis1, axis2 = (dflt if v is None else index(v, what) for v, what, dflt in
                            ((offset, "offset", 0), (axis1, "axis1", 0),
                             (axis2, "axis2", 1)))
    if a.ndim < 2:
        raise ValueError("diag requires an array of at least two dimensions")
    return _e._diagonal(a, offset, normalize_axis(axis1, a.ndim),
                        normalize_axis(axis2, a.ndim))


def moveaxis(a, source, destination):
    a = as_array(a)
    src = axes(source, a.ndim, "source")
    dst = axes(destination, a.ndim, "destination")
    if len(src) != len(dst):
        raise ValueError("`source` and `destination` arguments must have the same "
                         "number of elements")
    order = [n for n in range(a.ndim) if n not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return a.transpose(order)


def expand_dims(a, axis):
    a = as_array(a)
    nd = a.ndim + len(ints(axis, "axis"))
    if nd > _e._MAX_NDIM:
        raise ValueError(f"expand_dims: {nd} dimensions exceed the maximum of "
                         f"{_e._MAX_NDIM}")
    new = axes(axis, nd, "axis")
    return a[tuple(None if k in new else slice(None) for k in range(nd))]


def broadcast_shapes(*args):
    shape = ()
    for s in args:
        s = ints(s, "shape")
        if any(n < 0 for n in s):
            raise ValueError(f"negative dimensions are not allowed in shape {s}")
        n = max(len(shape), len(s))
        x, y = (1,) * (n - len(shape)) + shape, (1,) * (n - len(s)) + s
        if any(p != q and p != 1 and q != 1 for p, q in zip(x, y)):
            raise ValueError(f"shapes {shape} and {s} do not broadcast")
        shape = tuple(q if p == 1 else p for p, q in zip(x, y))
    return shape


def broadcast_arrays(*args):
    """A list (the Array API's; NumPy 2's tuple unpacks the same)."""
    arrs = [as_array(a) for a in args]
    shape = broadcast_shapes(*(a.shape for a in arrs))
    return [a if a.shape == shape else _e.broadcast_to(a, shape) for a in arrs]
