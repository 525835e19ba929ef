"""ember.parallel's scan family: argument handling over the C calls
(python/ember/_ext/parallel/parallel_scan.c), which take ndarrays on one
device, the operator as a string (a built-in's name or a C expression) or
a tuple of expressions, ember dtypes and init values as size-1 arrays."""
import operator

from ember import _ember as _e
from ember.parallel import _devfn

MAX_TUPLE = 4
_BUILTINS = ("add", "mul", "min", "max", "and", "or", "xor", "argmin",
             "argmax")
_IDENTITY = {"add": 0, "or": 0, "xor": 0, "mul": 1}
_WIDE = {"bool": "int64", "int8": "int64", "int16": "int64",
         "int32": "int64", "uint8": "uint64", "uint16": "uint64",
         "uint32": "uint64"}
_FLAT = None


def as_nd(x, dev=None):
    """x as an ndarray: ember arrays as they are, anything else through
    asarray on dev (None: the current device)."""
    return x if isinstance(x, _e.ndarray) else _e.asarray(x, device=dev)


def _device_of(xs, dev=None):
    for x in xs:
        if dev is not None:
            break
        if isinstance(x, _e.ndarray):
            dev = x.device
    return dev


def op_arg(o, fn):
    """The operator: a device function, or a str naming a built-in or
    holding a C expression (returned as it is)."""
    if _devfn.is_devfn(o):
        return o
    if callable(o):
        raise _devfn.not_devfn(o, fn, "op")
    if not isinstance(o, str):
        raise TypeError(f"{fn}: op must be a str (a built-in such as 'add' or "
                        "a C expression over a and b) or a device function "
                        "(ember.cuda.jit(device=True)), not "
                        f"{type(o).__name__}")
    if not o:
        raise ValueError(f"{fn}: op is an empty string")
    return o


def default_dtype(op, dt):
    """cumsum's rule: add and mul widen small integers."""
    dt = _e.dtype(dt)
    return _e.dtype(_WIDE.get(dt.name, dt.name)) if op in ("add", "mul") \
        else dt


def value_op(op, dto, fn, in_dt):
    """(C operator string, value dtype): dtype= or the operator's default,
    a device function translated over it."""
    dt = _e.dtype(dto) if dto is not None else default_dtype(op, in_dt)
    if _devfn.is_devfn(op):
        op = _devfn.expr(op, fn, dt, 2, want=dt)[0]
    return op, dt


def scalar(o, dt):
    """A Python scalar as a size-1 cpu array of dtype dt."""
    a = _e.asarray(o, dtype=dt, device="cpu")
    if a.size != 1:
        raise ValueError(f"init must be a scalar, not an array of {a.size} "
                         "elements")
    return a


def init_arg(init, opo, op, dt, exclusive, fn):
    """init as a size-1 array, or None. An exclusive scan without one
    starts from the identity of add/or/xor (0) or mul (1)."""
    if init is not None:
        return scalar(init, dt)
    if not exclusive:
        return None
    if op in _IDENTITY:
        v = _IDENTITY[op]
        return scalar(bool(v) if dt.name == "bool" else v, dt)
    if _devfn.is_devfn(opo):
        raise TypeError(f"{fn}: device function '{opo.py_func.__name__}' as "
                        "the operator needs an init value (it has no known "
                        "identity)")
    what = op if op not in _BUILTINS else "min/max/and"
    raise TypeError(f"{fn}: operator '{what}' needs an init value")


def axis_arg(o, fn):
    if o is None:
        return _FLAT
    if isinstance(o, bool):    # NumPy: "an integer is required for the axis"
        raise TypeError(f"{fn}: axis must be an int or None, not bool")
    try:
        v = operator.index(o)
    except TypeError:
        raise TypeError(f"{fn}: axis must be an int or None, not "
                        f"{type(o).__name__}") from None
    return v if abs(v) < 1 << 30 else 1 << 30


def tuple_args(fn, values, opo, dto, init, exclusive, dev=None):
    """(arrays, operator, dtypes, inits) of tuple values: the operator a
    built-in's name or one C expression per component, inits a tuple of
    size-1 arrays or None."""
    n = len(values)
    if not 2 <= n <= MAX_TUPLE:
        raise ValueError(f"{fn}: tuple values have 2 to {MAX_TUPLE} arrays, "
                         f"not {n}")
    dev = _device_of(values, dev)
    arrs = tuple(as_nd(v, dev) for v in values)
    if opo is None:
        op = "add"
    elif _devfn.is_devfn(opo):
        op = None     # translated once the component dtypes are known
    elif isinstance(opo, str):
        op = op_arg(opo, fn)
        if op not in _BUILTINS:
            raise ValueError(f"{fn}: 1 expression for tuple values of {n} "
                             f"components: give a tuple of {n} C expressions "
                             "over a0, b0, a1, b1, ... or a built-in ('add', "
                             "'mul', 'min', 'max', 'argmin', 'argmax')")
    elif isinstance(opo, tuple):
        if len(opo) != n:
            raise ValueError(f"{fn}: {len(opo)} expressions for tuple values "
                             f"of {n} components (one per component)")
        for k, e in enumerate(opo):
            if not isinstance(e, str):
                raise TypeError(f"{fn}: expression {k} must be a str, not "
                                f"{type(e).__name__}")
        op = opo
    elif callable(opo):
        raise _devfn.not_devfn(opo, fn, "op")
    else:
        raise TypeError(f"{fn}: op must be a str (a built-in), a tuple of C "
                        "expressions or a device function, not "
                        f"{type(opo).__name__}")
    if dto is not None:
        if not isinstance(dto, tuple) or len(dto) != n:
            raise TypeError(f"{fn}: dtype for tuple values is a tuple of {n} "
                            f"dtypes, not {type(dto).__name__}")
        dts = tuple(_e.dtype(d) for d in dto)
    else:
        dts = tuple(default_dtype(op, a.dtype) for a in arrs)
    if op is None:
        op = _devfn.tuple_exprs(opo, fn, dts)
    if init is not None:
        if not isinstance(init, tuple) or len(init) != n:
            raise ValueError(f"{fn}: init for tuple values is a tuple of {n} "
                             "scalars")
        inits = tuple(scalar(v, d) for v, d in zip(init, dts))
    elif exclusive:
        if op not in _IDENTITY:
            raise TypeError(f"{fn}: this operator needs an init value (a "
                            f"tuple of {n} scalars)")
        v = _IDENTITY[op]
        inits = tuple(scalar(bool(v) if d.name == "bool" else v, d)
                      for d in dts)
    else:
        inits = None
    return arrs, op, dts, inits


def _scan(fn, x, op, init, axis, dtype, exclusive):
    if isinstance(x, tuple):
        if axis is not None:
            raise NotImplementedError(f"{fn}: tuple values are scanned "
                                      "flattened (axis=None) only")
        arrs, op, dts, inits = tuple_args(fn, x, op, dtype, init, exclusive)
        return _e._par_scan(arrs, op, inits, dts, exclusive, None)
    opo = op_arg(op, fn)
    axis = axis_arg(axis, fn)
    x = as_nd(x)
    op, dt = value_op(opo, dtype, fn, x.dtype)
    init = init_arg(init, opo, op, dt, exclusive, fn)
    return _e._par_scan(x, op, init, dt, exclusive, axis)


def inclusive_scan(x, op, init=None, axis=None, dtype=None):
    """Element i is x[0] op ... op x[i] (init, when given, in front). op:
    'add', 'mul', 'min', 'max', 'and', 'or', 'xor', a C expression over a
    and b (associative; a is the lower index) or a device function.
    axis=None scans the flattened array. dtype: add/mul default to
    cumsum's (int -> int64). x may be a tuple of 2 to 4 arrays of one
    length (zipped values): op is then a built-in per component,
    'argmin'/'argmax' on (value, index), or a tuple of C expressions over
    a0, b0, a1, b1, ...; init and dtype are tuples; the result is a tuple
    of arrays."""
    return _scan("inclusive_scan", x, op, init, axis, dtype, False)


def exclusive_scan(x, op, init=None, axis=None, dtype=None):
    """Element i is init op x[0] op ... op x[i-1]; element 0 is init. init
    defaults to 0 for add/or/xor and 1 for mul, and is required otherwise.
    Tuple values as for inclusive_scan."""
    return _scan("exclusive_scan", x, op, init, axis, dtype, True)


_REDUCTIONS = {"add": "sum", "mul": "prod", "min": "min", "max": "max",
               "argmin": "argmin", "argmax": "argmax"}


def _tuple_reduce(x, op, init, axis, dtype):
    if axis is not None:
        raise NotImplementedError("reduce: tuple values are reduced "
                                  "flattened (axis=None) only")
    arrs, op, dts, inits = tuple_args("reduce", x, op, dtype, init, False)
    scans = _e._par_scan(arrs, op, inits, dts, False, None)
    if arrs[0].size:
        return tuple(s[-1] for s in scans)
    if inits is None:
        raise ValueError("reduce: zero-size arrays and no init value")
    return tuple(_e.asarray(v, dtype=d, device=arrs[0].device)
                 for v, d in zip(init, dts))


def reduce(x, op, init=None, axis=None, dtype=None):
    """x[0] op x[1] op ... in index order along axis (None: all elements),
    init in front. Tuple values (see inclusive_scan) give a tuple:
    reduce((x, idx), 'argmin'), reduce((x, ones), ('a0 + b0', 'a1 + b1'))."""
    if isinstance(x, tuple):
        return _tuple_reduce(x, op, init, axis, dtype)
    opo = op_arg(op, "reduce")
    ax = axis_arg(axis, "reduce")
    x = as_nd(x)
    if ax is None:
        n = x.size
    else:
        n = x.shape[ax] if -x.ndim <= ax < x.ndim else 1
    if n == 0 and init is None:
        raise ValueError("reduce: zero-size array and no init value")
    # built-ins without init: the dedicated reductions (one read of the
    # data; pairwise float sums)
    if init is None and dtype is None and opo in _REDUCTIONS:
        return getattr(x, _REDUCTIONS[opo])(axis=ax)
    sc = inclusive_scan(x, opo, init=init, axis=axis, dtype=dtype)
    if ax is None:
        if x.size == 0:     # only init: one element, scanned as itself
            sc = inclusive_scan([init], opo, dtype=dtype)
        return sc[-1]
    ax = ax + x.ndim if ax < 0 else ax
    if x.shape[ax] == 0:
        raise NotImplementedError("reduce: an empty axis with init is not "
                                  "supported yet")
    return sc[tuple(-1 if i == ax else slice(None) for i in range(x.ndim))]


def transform(*args, dtype=None, out=None):
    """transform(op, *inputs, dtype=None, out=None): elementwise C
    expression (or device function) over the inputs named a, b, c, ...
    (broadcast, cast to their common dtype; the result is dtype or that
    common dtype)."""
    nin = len(args) - 1
    if not 1 <= nin <= 8:
        raise TypeError("transform(op, *inputs): 1 to 8 inputs, got "
                        f"{max(nin, 0)}")
    op = args[0]
    if not _devfn.is_devfn(op):
        if callable(op):
            raise _devfn.not_devfn(op, "transform", "op")
        if not isinstance(op, str):
            raise TypeError("transform: op must be a str (a C expression "
                            "over a, b, ...) or a device function, not "
                            f"{type(op).__name__}")
    dev = _device_of(args[1:])
    ins = tuple(as_nd(a, dev) for a in args[1:])
    common = ins[0].dtype
    for a in ins[1:]:
        common = _e.promote_types(common, a.dtype)
    out_typed = isinstance(out, _e.ndarray)
    if dtype is not None:
        dt = _e.dtype(dtype)
    else:
        dt = out.dtype if out_typed else common
    if _devfn.is_devfn(op):
        # over the inputs' common dtype (the one the kernel casts them
        # to); its result type is the result's unless dtype= or out= say
        op, rt = _devfn.expr(op, "transform", common, nin,
                             want=dt if dtype is not None else None)
        if dtype is None and not out_typed:
            dt = rt
    r = _e._par_transform(op, ins, dt)
    if out is None:
        return r
    if not out_typed:
        raise TypeError("transform: out must be an ember.ndarray")
    out[...] = r
    return out


def _compact(fn, x, predicate, partition):
    x = as_nd(x)
    if _devfn.is_devfn(predicate):
        # one argument; its result is taken as a truth value, as a C
        # expression's is
        predicate = _devfn.expr(predicate, fn, x.dtype, 1)[0]
    elif callable(predicate):
        raise _devfn.not_devfn(predicate, fn, "predicate")
    elif isinstance(predicate, str):
        if not predicate:
            raise ValueError(f"{fn}: the predicate is empty")
    else:
        predicate = as_nd(predicate, x.device)
    return _e._par_select(x, predicate, partition)


def select(x, predicate):
    """The elements of x (flattened) for which predicate holds, in order;
    predicate is a C expression over a, a device function or a bool array
    of x's shape."""
    return _compact("select", x, predicate, False)


def partition(x, predicate):
    """(selected, rejected), each in its original order, views of one
    array of x.size elements."""
    r, k = _compact("partition", x, predicate, True)
    return r[:k], r[k:]


def scan_by_key(keys, values, op=None, init=None, exclusive=False,
                dtype=None):
    """A scan of values restarting at each run of equal consecutive keys
    (init in front of every run). values may be a tuple of arrays (see
    inclusive_scan)."""
    fn, exclusive = "scan_by_key", bool(exclusive)
    if isinstance(values, tuple):
        k = as_nd(keys)
        arrs, op, dts, inits = tuple_args(fn, values, op, dtype, init,
                                          exclusive, k.device)
        return _e._par_scan_by_key(k, arrs, op, inits, dts, exclusive)
    opo = "add" if op is None else op_arg(op, fn)
    k = as_nd(keys)
    v = as_nd(values, k.device)
    op, dt = value_op(opo, dtype, fn, v.dtype)
    init = init_arg(init, opo, op, dt, exclusive, fn)
    return _e._par_scan_by_key(k, v, op, init, dt, exclusive)


def reduce_by_key(keys, values, op=None, dtype=None):
    """(unique_keys, reduced): one key per run of equal consecutive keys
    and its values combined in order. values may be a tuple of arrays
    (then (unique_keys, (reduced0, reduced1, ...)))."""
    fn = "reduce_by_key"
    if isinstance(values, tuple):
        k = as_nd(keys)
        arrs, op, dts, _ = tuple_args(fn, values, op, dtype, None, False,
                                      k.device)
        return _e._par_reduce_by_key(k, arrs, op, dts)
    opo = "add" if op is None else op_arg(op, fn)
    k = as_nd(keys)
    v = as_nd(values, k.device)
    op, dt = value_op(opo, dtype, fn, v.dtype)
    return _e._par_reduce_by_key(k, v, op, dt)


def unique_by_key(keys, values=None):
    """The first key (and value) of each run of equal consecutive keys."""
    k = as_nd(keys)
    return _e._par_unique_by_key(k, None if values is None
                                 else as_nd(values, k.device))


def segmented_reduce(values, offsets, op, init, dtype=None):
    """One value per segment [offsets[i], offsets[i+1]): init op
    values[begin] op ... (init alone for an empty segment). Offsets are
    clamped to [0, len(values)] and must not decrease (ValueError): the
    segments are read off one segmented scan, so one cannot go back over
    another. Checking reads one value back; callers whose offsets rise by
    construction use rising_segmented_reduce."""
    values = as_nd(values)
    o = as_nd(offsets, values.device)
    if o.size > 2 and bool((o[1:] < o[:-1]).any()):
        raise ValueError("segmented_reduce: offsets must not decrease (segment "
                         "[offsets[i], offsets[i+1]) follows segment i-1)")
    return rising_segmented_reduce(values, o, op, init, dtype)


def rising_segmented_reduce(values, offsets, op, init, dtype=None):
    """segmented_reduce for offsets known not to decrease, unchecked."""
    fn = "segmented_reduce"
    opo = op_arg(op, fn)
    v = as_nd(values)
    o = as_nd(offsets, v.device)
    op, dt = value_op(opo, dtype, fn, v.dtype)
    return _e._par_segmented_reduce(v, o, op, scalar(init, dt), dt)


def run_length_encode(x):
    """(values, counts) of the runs of x (1-D)."""
    return _e._par_run_length_encode(as_nd(x))
