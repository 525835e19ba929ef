"""The methods of ember's ufuncs, as NumPy's: reduce, accumulate,
reduceat, outer and at (the C ufunc type calls these).

add, multiply, maximum, minimum, logical_and and logical_or reduce
through the C reductions (sum, prod, ...), add and multiply accumulate
through cumsum and cumprod; every other binary ufunc folds left to right
with one elementwise launch per step along the axis, NumPy's order for
operations that are not associative (subtract, power, ...). The dtypes
are NumPy's: add and multiply of bool and small integers accumulate in
int64/uint64 unless dtype= or out= says otherwise, and a ufunc whose loop
over (dtype, dtype) gives another dtype has no reduction."""
import operator

import ember
from ember import _ember as _e
from ember._api._util import normalize_axis
from ember._api.selection import put, take, where as _where

# the C reduction standing for a ufunc's reduce
_RED = {"add": "sum", "multiply": "prod", "maximum": "max",
        "minimum": "min", "logical_and": "all", "logical_or": "any"}
# associative and commutative (NumPy's list): several axes at once
_REORDERABLE = frozenset((
    "add", "multiply", "maximum", "minimum", "fmax", "fmin", "logical_and",
    "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor",
    "gcd", "hypot", "logaddexp", "logaddexp2"))
# the identities of the ufuncs that fold here
_IDENTITY = {"bitwise_or": 0, "bitwise_xor": 0, "logical_xor": 0, "gcd": 0,
             "hypot": 0, "bitwise_and": -1, "logaddexp": -float("inf"),
             "logaddexp2": -float("inf")}
# where= fills masked-out elements with these, which change nothing
_FILL = {"add": 0, "logical_or": False, "multiply": 1, "logical_and": True}
_IDEMPOTENT = frozenset(("maximum", "minimum", "fmax", "fmin"))
_FIRST = object()   # reduce's axis left out: 0, or none for a 0-d array


def _binary(u, method):
    if u.nin != 2 or u.nout != 1:
        raise ValueError(f"{method} only supported for binary functions")


def _array_and_out(array, out):
    """out= (None, an ember array or a tuple of one) is read first: its
    device takes the array, its dtype picks the accumulator."""
    if isinstance(out, tuple) and len(out) == 1:
        out = out[0]
    if out is not None and not isinstance(out, _e.ndarray):
        raise TypeError(f"out must be an ember array, not "
                        f"{type(out).__name__}")
    a = _e.asarray(array, device=None if out is None else out.device)
    return a, out


def _acc_dtype(u, a, dtype, out):
    """NumPy's accumulator dtype of reduce, accumulate and reduceat."""
    if dtype is not None:
        return _e.dtype(dtype)
    if out is not None:
        return out.dtype
    # the logical ufuncs' only loop giving its input type back is bool's
    if u.__name__.startswith("logical_"):
        return _e.dtype(_e.bool_)
    k = a.dtype.kind
    if u.__name__ in ("add", "multiply") and (
            k == "b" or (k in "iu" and a.dtype.itemsize < 8)):
        return _e.dtype(_e.uint64 if k == "u" else _e.int64)
    return a.dtype


def _check_loop(u, otype, device):
    """The loop over (otype, otype) must give otype back."""
    e = _e.empty((0,), dtype=otype, device=device)
    try:
        ok = u(e, e).dtype == otype
    except TypeError:
        ok = False
    if not ok:
        raise TypeError(f"No loop matching the specified signature and "
                        f"casting was found for ufunc {u.__name__} (dtype "
                        f"{otype.name})")


def _at(axis, i):
    return (slice(None),) * axis + (i,)


def _fold(u, a, axis, initial, res):
    """res = u folded left to right over a (of res's dtype) along axis;
    initial, when given, starts the fold."""
    n = a.shape[axis]
    if n == 0 and initial is not None:
        res[...] = initial
    for i in range(n):
        v = a[_at(axis, i)]
        if i == 0 and initial is None:
            res[...] = v
        else:
            u(res if i else initial, v, out=res)
    return res


def _axes(axis, ndim):
    """axis= as distinct non-negative axes; None is all of them."""
    if axis is None:
        return list(range(ndim))
    seq = axis if isinstance(axis, (tuple, list)) else (axis,)
    axes = [normalize_axis(operator.index(v), ndim) for v in seq]
    if len(set(axes)) != len(axes):
        raise ValueError("duplicate value in 'axis'")
    return axes


def _scalar(o, what):
    if isinstance(o, (_e.ndarray, str, bytes, list, tuple)) or o is None:
        raise TypeError(f"{what} must be a scalar, not {type(o).__name__}")
    return o


def _masked(u, a, where, initial):
    """reduce's where=: a with the masked-out elements replaced by the
    ufunc's identity, which leaves the reduction of the others unchanged;
    maximum and friends have none, but an element equal to initial=
    changes nothing there either (NumPy asks for initial= then)."""
    name = u.__name__
    if name in _FILL:
        fill = _FILL[name]
    elif name in _IDEMPOTENT:
        if initial is None:
            raise ValueError(f"reduction operation '{name}' does not have an "
                             f"identity, so to use a where mask one has to "
                             f"specify 'initial'")
        fill = initial
    elif name in _IDENTITY:
        fill = _IDENTITY[name]
    else:
        raise NotImplementedError(f"{name}.reduce: where= needs a ufunc with "
                                  f"an identity (or maximum/minimum with "
                                  f"initial=) in ember")
    w = _e.asarray(where, dtype=_e.bool_, device=a.device)
    return _where(w, a, fill)


def _deliver(res, out):
    if out is None:
        return res
    out[...] = res
    return out


def _reduce(red, a, axis, otype, dtype, **kw):
    """The C reduction red: sum and prod accumulate in otype, min and max
    take no dtype (their input is cast), any and all answer bool unless
    dtype= asks otherwise."""
    if red in ("max", "min"):
        a = a.astype(otype, copy=False)
    elif red in ("sum", "prod"):
        kw["dtype"] = otype
    res = getattr(_e, red)(a, axis=axis, **kw)
    if red in ("all", "any") and dtype is not None:
        res = res.astype(otype)
    return res


# the ufuncs that accumulate as one inclusive scan (its operator), and of
# them the bitwise and logical ones reduce as one; the scan's max and min
# propagate NaN as maximum and minimum do
_SCANNED = {"maximum": "max", "minimum": "min", "logical_and": "and",
            "logical_or": "or", "logical_xor": "xor", "bitwise_and": "and",
            "bitwise_or": "or", "bitwise_xor": "xor"}


def reduce(u, array, axis=_FIRST, dtype=None, out=None, keepdims=False,
           initial=None, where=True):
    _binary(u, "reduce")
    a, out = _array_and_out(array, out)
    if axis is _FIRST:
        axis = 0 if a.ndim else None
    axes = _axes(axis, a.ndim)
    keepdims = bool(keepdims)
    otype = _acc_dtype(u, a, dtype, out)
    if initial is not None:
        _scalar(initial, "initial")
    if where is not True:
        a = _masked(u, a, where, initial)
    count = 1
    for ax in axes:
        count *= a.shape[ax]
    shape = tuple(1 if i in axes else n for i, n in enumerate(a.shape)
                  if keepdims or i not in axes)
    red = _RED.get(u.__name__)
    if red is not None and not (count == 0 and initial is not None):
        res = _reduce(red, a, tuple(axes), otype, dtype, keepdims=keepdims)
        if initial is not None:
            u(res, initial, out=res)
        return _deliver(res, out)
    _check_loop(u, otype, a.device)
    if len(axes) > 1 and u.__name__ not in _REORDERABLE:
        raise ValueError(f"reduction operation '{u.__name__}' is not "
                         f"reorderable, so at most one axis may be specified")
    if count == 0 and initial is None:
        initial = _IDENTITY.get(u.__name__)
        if initial is None and _size(shape):
            raise ValueError(f"zero-size array to reduction operation "
                             f"{u.__name__} which has no identity")
    # the reduced axes first, merged into one, then the others
    rest = [i for i in range(a.ndim) if i not in axes]
    m = a.astype(otype, copy=False).transpose(axes + rest).reshape(
        (count,) + tuple(a.shape[i] for i in rest))
    scan = _SCANNED.get(u.__name__)
    if scan in ("and", "or", "xor") and otype.kind in "iub" and count:
        from ember.parallel import reduce as par_reduce
        res = par_reduce(m, scan, axis=0, dtype=otype).reshape(shape)
        if initial is not None:   # cast to the reduction's dtype first
            res = u(res, _e.asarray(initial, device=a.device).astype(otype))
        return _deliver(res, out)
    res = _e.empty(shape, dtype=otype, device=a.device)
    # keepdims' extent-1 axes take no part in the fold
    _fold(u, m, 0, initial, res.reshape(m.shape[1:]))
    return _deliver(res, out)


def _size(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def accumulate(u, array, axis=0, dtype=None, out=None):
    _binary(u, "accumulate")
    a, out = _array_and_out(array, out)
    if a.ndim == 0:
        raise ValueError("accumulate needs an array of at least one "
                         "dimension, not a 0-d one")
    if axis is None:
        axis = 0
    axes = _axes(axis, a.ndim)
    if len(axes) != 1:
        raise ValueError("accumulate takes one axis")
    axis = axes[0]
    otype = _acc_dtype(u, a, dtype, out)
    name = u.__name__
    if name in ("add", "multiply") and otype.kind != "b":
        from ember._api.cumulative import cumprod, cumsum
        res = (cumsum if name == "add" else cumprod)(a, axis, otype)
        return _deliver(res, out)
    _check_loop(u, otype, a.device)
    c = a.astype(otype, copy=False)
    scan = _SCANNED.get(name)
    if scan is not None and c.size and (
            otype.kind in "iub" if scan in ("and", "or", "xor")
            else otype.kind in "iufb"):
        from ember.parallel import inclusive_scan
        return _deliver(inclusive_scan(c, scan, axis=axis, dtype=otype), out)
    res = _e.empty(a.shape, dtype=otype, device=a.device)
    for i in range(a.shape[axis]):
        if i == 0:
            res[_at(axis, 0)] = c[_at(axis, 0)]
        else:
            u(res[_at(axis, i - 1)], c[_at(axis, i)], out=res[_at(axis, i)])
    return _deliver(res, out)


# reduceat's ufuncs that reduce all segments at once (segmented_reduce's
# operator); the logical ones on bool values, max and min on integers
# (the operator's comparison does not propagate NaN as they do)
_SEGMENTED = {"add": "add", "multiply": "mul", "maximum": "max",
              "minimum": "min", "logical_and": "and", "logical_or": "or"}


def _segmented(op, c, bounds, axis):
    """reduceat of c (already of the accumulator's dtype) over strictly
    increasing bounds in one segmented reduction: the axis moved last and
    every row's segments laid end to end, each row's k bounds followed by
    its end, so the reduction also makes one segment between rows, which
    is dropped."""
    from ember.parallel._scan import rising_segmented_reduce
    dev = c.device
    n, k = c.shape[axis], len(bounds)
    m = ember.ascontiguousarray(ember.moveaxis(c, axis, -1))
    rows = m.size // n
    starts = _e.asarray(bounds + [n], dtype=_e.int64, device=dev)
    offs = (ember.arange(rows, dtype=_e.int64, device=dev)[:, None] * n
            + starts[None, :]).ravel()
    dt = c.dtype
    if op == "max":
        init = ember.iinfo(dt).min
    elif op == "min":
        init = ember.iinfo(dt).max
    else:
        init = {"add": 0, "mul": 1, "and": True, "or": False}[op]
    red = rising_segmented_reduce(m.reshape(-1), offs, op, init, dtype=dt)
    red = ember.concatenate([red, red[:1]]).reshape(rows, k + 1)[:, :k]
    return ember.moveaxis(red.reshape(m.shape[:-1] + (k,)), -1, axis)


def reduceat(u, array, indices, axis=0, dtype=None, out=None):
    _binary(u, "reduceat")
    a, out = _array_and_out(array, out)
    axis = normalize_axis(operator.index(axis), a.ndim)
    n = a.shape[axis]
    # the segment bounds steer a host loop: a list of them is read on
    # the cpu, not uploaded to the current device
    idx = indices if isinstance(indices, _e.ndarray) else _e.asarray(
        indices, device="cpu")
    if idx.ndim != 1 or idx.dtype.kind not in "iu":
        raise TypeError(f"{u.__name__}.reduceat: indices must be a 1-d array "
                        f"of integers, not {idx.ndim}-d {idx.dtype.name}")
    bounds = idx.tolist()
    otype = _acc_dtype(u, a, dtype, out)
    red = _RED.get(u.__name__)
    if red is None:
        _check_loop(u, otype, a.device)
    c = a if red in ("sum", "prod", "all", "any") else a.astype(otype,
                                                                copy=False)
    rtype = _e.bool_ if red in ("all", "any") and dtype is None else otype
    for i, s in enumerate(bounds):
        e = bounds[i + 1] if i + 1 < len(bounds) else n
        if not (0 <= s < n and 0 <= e <= n):
            raise IndexError(f"index {s if not 0 <= s < n else e} "
                             f"out-of-bounds in {u.__name__}.reduceat "
                             f"[0, {n})")
    seg = _SEGMENTED.get(u.__name__)
    # segmented_reduce's segments must follow one another: strictly
    # increasing bounds (a repeated or decreasing one folds below)
    rising = all(s < e for s, e in zip(bounds, bounds[1:]))
    if seg is not None and bounds and rising and (
            (seg in ("and", "or") and rtype == _e.bool_)
            or (seg in ("add", "mul") and otype.kind in "iuf")
            or (seg in ("min", "max") and otype.kind in "iu")):
        res = _segmented(seg, a.astype(otype, copy=False), bounds, axis)
        return _deliver(res.astype(rtype, copy=False), out)
    shape = list(a.shape)
    shape[axis] = len(bounds)
    res = _e.empty(tuple(shape), dtype=rtype, device=a.device)
    for i, s in enumerate(bounds):
        e = bounds[i + 1] if i + 1 < len(bounds) else n
        w = res[_at(axis, i)]
        if s >= e:
            w[...] = c[_at(axis, s)]
            continue
        seg = c[_at(axis, slice(s, e))]
        if red is not None:
            w[...] = _reduce(red, seg, axis, otype, dtype)
        else:
            _fold(u, seg, axis, None, w)
    return _deliver(res, out)


def outer(u, *args, **kw):
    _binary(u, "outer")
    if len(args) != 2:
        raise TypeError(f"{u.__name__}.outer() takes exactly two arguments "
                        f"({len(args)} given)")
    a = _e.asarray(args[0])
    b = _e.asarray(args[1], device=a.device)
    nd = a.ndim + b.ndim
    if nd > 32:
        raise ValueError(f"{u.__name__}.outer: the result would have {nd} "
                         f"dimensions, more than 32")
    # a's axes followed by b.ndim extent-1 axes: broadcasting does the rest
    return u(a.reshape(a.shape + (1,) * b.ndim), b, **kw)


# at()'s ufuncs whose repeated occurrences fold first (associative and
# commutative, so a[p] op b1 op b2 = a[p] op (b1 op b2)) and the operator
# of reduce_by_key doing it; maximum and minimum only for integers, as
# the operator's comparison does not propagate NaN as theirs do
_AT_FOLD = {"add": "add", "multiply": "mul", "bitwise_and": "and",
            "bitwise_or": "or", "bitwise_xor": "xor", "maximum": "max",
            "minimum": "min"}


def at(u, a, indices, b=None):
    """u in place at each index, once per occurrence (a repeated index
    accumulates, unlike a[i] = u(a[i], b)). The flat positions come from
    indexing an arange of a's shape, so every index NumPy takes works.
    They are sorted (stably, so a position's occurrences keep their
    order); a foldable ufunc (_AT_FOLD) whose result keeps a's dtype
    combines each position's operands by key and applies the result once
    (floats then round in another order than NumPy's one at a time),
    others apply in rounds of distinct positions: round r takes every
    position's r-th occurrence."""
    from ember.parallel import inclusive_scan, reduce_by_key
    if not isinstance(a, _e.ndarray):
        raise TypeError(f"{u.__name__}.at: the first argument must be an "
                        f"ember array (it is changed in place), not "
                        f"{type(a).__name__}")
    if u.nout != 1 or (u.nin == 2) != (b is not None):
        raise ValueError(f"{u.__name__}.at: " + (
            "second operand needed for ufunc" if u.nin == 2 else
            "second operand provided when ufunc is unary"))
    if not a.flags.writeable:
        raise ValueError("output array is read-only")
    dev = a.device
    pos = ember.arange(a.size, device=dev).reshape(a.shape)[indices]
    if not isinstance(pos, _e.ndarray):
        pos = _e.asarray(pos, device=dev)
    flat = pos.ravel().astype(_e.int64, copy=False)
    if flat.size == 0:
        return
    bf = None
    if b is not None:
        bf = ember.broadcast_to(_e.asarray(b, device=dev), pos.shape).ravel()
    order = ember.argsort(flat, kind="stable")
    ps = take(flat, order)
    op = _AT_FOLD.get(u.__name__)
    if (op is not None and a.dtype.kind in ("iu" if op in ("min", "max")
                                            else "iufc")
            and ember.result_type(a.dtype, bf.dtype) == a.dtype
            and not (op == "mul" and a.dtype.kind == "c")):
        keys, folded = reduce_by_key(ps, take(bf, order).astype(a.dtype), op)
        vals = take(a, keys)
        u(vals, folded, out=vals)
        put(a, keys, vals)
        return
    # each sorted entry's rank among its position's occurrences: its index
    # less the index where its run of equal positions starts
    idx = ember.arange(ps.size, device=dev)
    first = ember.concatenate([ember.ones(1, dtype=_e.bool_, device=dev),
                               ps[1:] != ps[:-1]])
    rank = idx - inclusive_scan(_where(first, idx, 0), "max")
    bs = None if bf is None else take(bf, order)
    for rd in range(int(rank.max()) + 1):
        sel = ember.flatnonzero(rank == rd)
        p_r = take(ps, sel)
        vals = take(a, p_r)
        args = (vals,) if bs is None else (vals, take(bs, sel))
        # NumPy's at() casts each result back to a's dtype unsafely
        put(a, p_r, u(*args).astype(a.dtype, copy=False))


def nargs(u):
    return u.nin + u.nout


def doc(u):
    args = "x" if u.nin == 1 else "x1, x2"
    return (f"{u.__name__}({args}, /, out=None, *, where=True)\n\nNumPy's "
            f"{u.__name__}, elementwise on ember arrays.")
