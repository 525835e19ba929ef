"""numpy.block (an array assembled from nested lists of blocks) and
numpy.row_stack (vstack's deprecated alias)."""
import warnings

from ember import _ember as _e
from ember._api._util import device_of


def _where(index):
    return "arrays" + "".join(f"[{i}]" for i in index)


def _leaves(arrays, index, out):
    """The depth of the nested lists (checked equal everywhere, NumPy's
    messages) and the leaves in order, with their index paths."""
    if type(arrays) is tuple:
        raise TypeError(f"{_where(index)} is a tuple. Only lists can be used to "
                        "arrange blocks, and np.block does not allow implicit "
                        "conversion from tuple to ndarray.")
    if type(arrays) is not list:
        out.append(arrays)
        return len(index)
    if not arrays:
        raise ValueError(f"List at {_where(index)} cannot be empty")
    depth = None
    for i, item in enumerate(arrays):
        d = _leaves(item, index + (i,), out)
        if depth is None:
            depth = d
        elif d != depth:
            raise ValueError(f"List depths are mismatched. First element was at "
                             f"depth {depth}, but there is an element at depth {d} "
                             f"({_where(_first_at(item, index + (i,)))})")
    return depth


def _first_at(item, index):
    while type(item) is list and item:
        item, index = item[0], index + (0,)
    return index


def block(arrays):
    """Blocks of the innermost lists joined along the last axis, the next
    lists' along the second last, and so on; each block first gets leading
    length-1 axes up to the result's number of axes (the larger of the
    list depth and the blocks' own)."""
    leaves = []
    depth = _leaves(arrays, (), leaves)
    dev = device_of(*leaves)
    leaves = [x if isinstance(x, _e.ndarray) else _e.asarray(x, device=dev)
              for x in leaves]
    ndim = max([depth] + [x.ndim for x in leaves])
    it = iter(x.reshape((1,) * (ndim - x.ndim) + x.shape) for x in leaves)

    def join(node, level):
        if type(node) is not list:
            return next(it)
        parts = [join(item, level + 1) for item in node]
        return _e.concatenate(parts, axis=ndim - depth + level)

    r = join(arrays, 0)
    return r.copy() if depth == 0 else r


def row_stack(tup, *, dtype=None, casting="same_kind"):
    warnings.warn("`row_stack` alias is deprecated. Use `np.vstack` directly.",
                  DeprecationWarning, stacklevel=2)
    return _e.vstack(tup, dtype=dtype, casting=casting)
