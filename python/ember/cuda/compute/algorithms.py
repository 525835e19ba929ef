"""cuda.compute's algorithms (keyword-only, as there) over ember.parallel.

Each writes its results in place into the caller's output arrays or output
iterators. ember allocates its own scratch, so temp_storage is only
accepted: an object's first call (temp_storage=None) returns TEMP_BYTES
and the second runs with whatever buffer it is given, unread."""
import contextlib
import enum
import operator

import numpy as np

import ember
from ember import _ember as _e
from ember.cuda.compute import _ops, _struct
from ember.cuda.compute import iterators as _it
from ember.cuda.compute._struct import gpu_struct
from ember.cuda.compute._ops import OpKind
from ember.parallel._scan import rising_segmented_reduce

P = ember.parallel
TEMP_BYTES = 1   # what an object reports as its temp storage (none needed)


class SortOrder(enum.IntEnum):
    ASCENDING = 0
    DESCENDING = 1


class DoubleBuffer:
    """Two arrays of one size; current() holds the keys before a sort and
    the sorted keys after it (selector says which)."""

    def __init__(self, d_current, d_alternate):
        self.d_buffers = [d_current, d_alternate]
        self.selector = 0

    def current(self):
        return self.d_buffers[self.selector]

    def alternate(self):
        return self.d_buffers[1 - self.selector]


def _count(n, fn, what="num_items"):
    if isinstance(n, (bool, np.bool_)):
        raise TypeError(f"{fn}: {what} must be an int, not bool")
    try:
        n = operator.index(n)
    except TypeError:
        raise TypeError(f"{fn}: {what} must be an int, not "
                        f"{type(n).__name__}") from None
    if n < 0:
        raise ValueError(f"{fn}: {what} must be >= 0, not {n}")
    return n


def _init(h, fn, what="h_init"):
    """(Python value, NumPy dtype) of an init value: a NumPy array of one
    element or a NumPy scalar (a device array is read back once)."""
    if _struct.init_record(h) is not None:
        raise NotImplementedError(f"{fn}: struct values are supported by "
                                  "reduce_into, segmented_reduce, the scans "
                                  f"and the transforms, not by {fn}")
    if isinstance(h, np.generic):
        h = np.asarray(h)
    elif not isinstance(h, np.ndarray):
        if isinstance(h, _e.ndarray) or hasattr(h, "__cuda_array_interface__"):
            h = ember.asnumpy(ember.asarray(h))
        else:
            raise TypeError(f"{fn}: {what} must be a NumPy array of one "
                            "element or a NumPy scalar, not "
                            f"{type(h).__name__}")
    if h.size != 1:
        raise ValueError(f"{fn}: {what} must hold one value, not {h.size}")
    if h.dtype.kind not in "biuf":
        raise TypeError(f"{fn}: {what} of dtype {h.dtype} is not supported "
                        "(bool, integers, float32, float64)")
    return h.reshape(()).item(), h.dtype


def _stream(s):
    if s is None:
        return contextlib.nullcontext()
    if not hasattr(s, "__enter__"):
        raise TypeError(f"stream must be an ember.cuda.Stream or None, not "
                        f"{type(s).__name__}")
    return s


def _counts_out(arr, values, fn, what):
    a = _it._array(arr, fn, what)
    if a.size < len(values):
        raise ValueError(f"{fn}: {what} has {a.size} elements; {len(values)} "
                         "are written")
    a[:len(values)] = ember.asarray(values, dtype="int64", device=a.device)


def _dt(x):
    return None if x is None else np.dtype(x.name if hasattr(x, "name")
                                           else x).name


# ---- reduce and scan ----------------------------------------------------

def reduce_into(*, d_in, d_out, num_items, op, h_init, stream=None,
                **kwargs):
    """d_out[0] = h_init op d_in[0] op ... op d_in[num_items - 1]."""
    fn = "reduce_into"
    n = _count(num_items, fn)
    rec = _struct.init_record(h_init)
    if rec is not None:
        _reduce_struct(fn, d_in, d_out, n, op, rec, stream)
        return
    v, dt = _init(h_init, fn)
    o = _ops.binary(op, fn)
    dev = _it.device_of(d_in, d_out)
    with _stream(stream):
        x = _it.read(d_in, n, dev, fn, zipped=True)
        _not_struct(x, fn, "h_init")
        if n == 0:
            r = ember.full(1, v, dtype=dt.name, device=dev)
        elif o in _REDUCTION and dt.kind != "b":
            # ember's reduction kernel (one read, no scratch of n), then
            # init in front by the same operator
            part = _REDUCTION[o](x, dt.name).reshape(1).astype(dt.name)
            both = ember.concatenate(
                [ember.full(1, v, dtype=dt.name, device=x.device), part])
            r = P.inclusive_scan(both, o, dtype=dt.name)[1:]
        else:
            r = P.reduce(x, o, init=v, dtype=dt.name).reshape(1)
        _it.write(d_out, r, fn)


def _not_struct(x, fn, what):
    if isinstance(x, _struct.Fields):
        raise TypeError(f"{fn}: the values are structs ({x.dtype}) but {what} "
                        "is a number: give a struct init value (a gpu_struct "
                        "instance or a NumPy record)")


def _reduce_struct(fn, d_in, d_out, n, op, rec, stream):
    """reduce_into over struct values: the tuple scan of their leaves
    (ember.parallel), its last element kept."""
    dev = _it.device_of(d_in, d_out)
    with _stream(stream):
        x = _it.read(d_in, n, dev, fn, zipped=True)
        if n == 0:
            r = _struct.constant_fields(rec, 1, dev)
        else:
            r = _struct.scan_values(fn, x, op, rec.dtype, rec, False,
                                    reduce=True)
        _it.write(d_out, r, fn)


_REDUCTION = {"add": lambda x, dt: x.sum(dtype=dt),
              "mul": lambda x, dt: x.prod(dtype=dt),
              "min": lambda x, dt: x.min(), "max": lambda x, dt: x.max()}


def _scan(fn, d_in, d_out, op, init_value, num_items, stream, exclusive):
    n = _count(num_items, fn)
    if not callable(op) and not isinstance(op, OpKind):
        _ops.binary(op, fn)     # the TypeError of a bad operator
    dev = _it.device_of(d_in, d_out)
    with _stream(stream):
        x = _it.read(d_in, n, dev, fn, zipped=True)
        rec = None if init_value is None else \
            _struct.init_record(init_value)
        if rec is not None or (init_value is None and
                               isinstance(x, _struct.Fields)):
            if n:
                dt = rec.dtype if rec is not None else x.dtype
                _it.write(d_out, _struct.scan_values(fn, x, op, dt, rec,
                                                     exclusive), fn)
            return
        _not_struct(x, fn, "init_value")
        o = _ops.binary(op, fn)
        if init_value is None:
            v, dt = None, np.dtype(x.dtype.name)
        else:
            v, dt = _init(init_value, fn, "init_value")
        if n == 0:
            return
        f = P.exclusive_scan if exclusive else P.inclusive_scan
        _it.write(d_out, f(x, o, init=v, dtype=dt.name), fn)


def inclusive_scan(*, d_in, d_out, op, init_value=None, num_items,
                   stream=None):
    """d_out[i] = init_value op d_in[0] op ... op d_in[i] (no init_value:
    from d_in[0])."""
    _scan("inclusive_scan", d_in, d_out, op, init_value, num_items, stream,
          False)


def exclusive_scan(*, d_in, d_out, op, init_value, num_items, stream=None):
    """d_out[i] = init_value op d_in[0] op ... op d_in[i - 1]."""
    if init_value is None:
        raise TypeError("exclusive_scan: init_value is required")
    _scan("exclusive_scan", d_in, d_out, op, init_value, num_items, stream,
          True)


def segmented_reduce(*, d_in, d_out, num_segments, start_offsets_in,
                     end_offsets_in, op, h_init, max_segment_size=None,
                     stream=None):
    """d_out[i] = h_init op d_in[start[i]] op ... op d_in[end[i] - 1].
    The segments must be in order and must not overlap (one host read
    checks it)."""
    fn = "segmented_reduce"
    k = _count(num_segments, fn, "num_segments")
    rec = _struct.init_record(h_init)
    if rec is None:
        v, dt = _init(h_init, fn)
        o = _ops.binary(op, fn)
    dev = _it.device_of(d_in, start_offsets_in, d_out)
    with _stream(stream):
        s = _it.read(start_offsets_in, k, dev, fn, "start_offsets_in")
        e = _it.read(end_offsets_in, k, dev, fn, "end_offsets_in")
        if k == 0:
            return
        for a, w in ((s, "start_offsets_in"), (e, "end_offsets_in")):
            if a.dtype.kind not in "iu":
                raise TypeError(f"{fn}: {w} must be integers, not "
                                f"{a.dtype.name}")
        # [s0, e0, s1, e1, ...]: segments i and the gaps between them, as
        # ember.parallel's contiguous offsets; the gaps are dropped
        off = ember.stack([s.astype("int64"), e.astype("int64")],
                          axis=1).reshape(-1)
        if not bool((off[1:] >= off[:-1]).all()) or bool((off < 0).any()):
            raise NotImplementedError(
                f"{fn}: segments out of order, overlapping or with end < "
                "start are not supported (ember.parallel.segmented_reduce "
                "takes one non-decreasing offset array)")
        it = _it.as_iter(d_in, fn, "d_in")
        if rec is not None:     # struct values: a by-key scan of the leaves
            x = _it.struct_values(it.take(int(e.max()), dev, fn))
            _it.write(d_out, _struct.segmented_values(fn, x, off, s, e, op,
                                                      rec), fn)
            return
        if isinstance(it, _it._Pointer):
            x = it.a
        else:
            x = it.take(int(e.max()), dev, fn)
        r = rising_segmented_reduce(x, off, o, v, dtype=dt.name)  # checked above
        _it.write(d_out, r[::2], fn)


# ---- transform ----------------------------------------------------------

def unary_transform(*, d_in, d_out, op, num_items, stream=None):
    """d_out[i] = op(d_in[i]), cast to d_out's dtype."""
    fn = "unary_transform"
    n = _count(num_items, fn)
    if not isinstance(d_in, _it.ZipIterator):
        _ops.unary(op, fn)     # checked before anything runs
    out = _it.out_iter(d_out, fn)
    dev = _it.device_of(d_in, d_out)
    with _stream(stream):
        x = _it.read(d_in, n, dev, fn, zipped=True)
        if x is None:
            raise TypeError(f"{fn}: d_in is a DiscardIterator")
        if n:
            od = _it.out_dtype(out)
            if _is_struct_dt(od):
                r = _struct.apply(op, [x], fn, "op", ret=od)
            else:
                r = _it.apply_unary(op, x, fn, "op", _dt(od))
            _it.write(out, r, fn)


def binary_transform(*, d_in1, d_in2, d_out, op, num_items, stream=None):
    """d_out[i] = op(d_in1[i], d_in2[i]), cast to d_out's dtype."""
    fn = "binary_transform"
    n = _count(num_items, fn)
    o = _ops.binary(op, fn, builtin=False)
    out = _it.out_iter(d_out, fn)
    dev = _it.device_of(d_in1, d_in2, d_out)
    with _stream(stream):
        x = _it.read(d_in1, n, dev, fn, "d_in1", zipped=True)
        y = _it.read(d_in2, n, dev, fn, "d_in2", zipped=True)
        if x is None or y is None:
            raise TypeError(f"{fn}: an input is a DiscardIterator")
        if n:
            od = _it.out_dtype(out)
            if _is_struct_dt(od) or isinstance(x, _struct.Fields) or \
                    isinstance(y, _struct.Fields) or \
                    _struct.returns_struct(op):
                r = _struct.apply(op, [x, y], fn, "op",
                                  out_dtype=None if _is_struct_dt(od)
                                  else od,
                                  ret=od if _is_struct_dt(od) else None)
            else:
                r = P.transform(o, x, y, dtype=_dt(od))
            _it.write(out, r, fn)


def _is_struct_dt(d):
    return getattr(d, "names", None) is not None


# ---- selection ----------------------------------------------------------

def _mask(o, x, *more):
    """The bool mask of a predicate (a C expression or device function)
    over x (and more inputs)."""
    m = P.transform(o, x, *more)
    return m if m.dtype.name == "bool" else m != 0


def select(*, d_in, d_out, d_num_selected_out, cond, num_items, stream=None):
    """The items for which cond holds, in order, into d_out; their number
    into d_num_selected_out[0]."""
    fn = "select"
    n = _count(num_items, fn)
    o = _ops.unary(cond, fn, "cond")
    dev = _it.device_of(d_in, d_out)
    with _stream(stream):
        x = _it.read(d_in, n, dev, fn, zipped=True)
        if isinstance(x, _struct.Fields):
            r = _select_rows(x, _struct_mask(cond, x, fn, "cond")) if n \
                else x
        else:
            r = P.select(x, o) if n else x
        _it.write(d_out, r, fn)
        _counts_out(d_num_selected_out, [r.size], fn, "d_num_selected_out")


def _struct_mask(cond, x, fn, what):
    """The bool mask of a Python predicate over struct values."""
    m = _struct.apply(cond, [x], fn, what)
    return m if m.dtype.name == "bool" else m != 0


def _select_rows(x, mask):
    """The struct values where mask holds, in order (one compaction per
    field)."""
    return _struct.Fields(x.dtype, [P.select(a, mask) for a in x.arrays])


def three_way_partition(*, d_in, d_first_part_out, d_second_part_out,
                        d_unselected_out, d_num_selected_out,
                        select_first_part_op, select_second_part_op,
                        num_items, stream=None):
    """Items where the first predicate holds, items where only the second
    holds, the rest: each part in input order; the first two counts into
    d_num_selected_out[0:2]."""
    fn = "three_way_partition"
    n = _count(num_items, fn)
    o1 = _ops.unary(select_first_part_op, fn, "select_first_part_op")
    o2 = _ops.unary(select_second_part_op, fn, "select_second_part_op")
    dev = _it.device_of(d_in, d_first_part_out)
    with _stream(stream):
        x = _it.read(d_in, n, dev, fn, zipped=True)
        if n and isinstance(x, _struct.Fields):
            m1 = _struct_mask(select_first_part_op, x, fn,
                              "select_first_part_op")
            m2 = _struct_mask(select_second_part_op, x, fn,
                              "select_second_part_op") & ~m1
            parts = (_select_rows(x, m1), _select_rows(x, m2),
                     _select_rows(x, ~(m1 | m2)))
        elif n:
            m1 = _mask(o1, x)
            m2 = _mask(o2, x) & ~m1
            parts = (P.select(x, m1), P.select(x, m2),
                     P.select(x, ~(m1 | m2)))
        else:
            parts = (x, x, x)
        for p, d, w in zip(parts, (d_first_part_out, d_second_part_out,
                                   d_unselected_out),
                           ("d_first_part_out", "d_second_part_out",
                            "d_unselected_out")):
            _it.write(d, p, fn, w)
        _counts_out(d_num_selected_out, [parts[0].size, parts[1].size], fn,
                    "d_num_selected_out")


def unique_by_key(*, d_in_keys, d_in_items, d_out_keys, d_out_items,
                  d_out_num_selected, op, num_items, stream=None):
    """The first key and item of each run of consecutive keys equal under
    op; their number into d_out_num_selected[0]."""
    fn = "unique_by_key"
    n = _count(num_items, fn)
    eq = None if op is OpKind.EQUAL_TO else _ops.binary(op, fn,
                                                        builtin=False)
    dev = _it.device_of(d_in_keys, d_out_keys)
    with _stream(stream):
        k = _it.read(d_in_keys, n, dev, fn, "d_in_keys")
        v = _it.read(d_in_items, n, dev, fn, "d_in_items", zipped=True)
        if k is None:
            raise TypeError(f"{fn}: d_in_keys is a DiscardIterator")
        v, rows = _rows(v)
        if n == 0:
            uk, uv = k, v
        elif eq is None:
            r = P.unique_by_key(k, v)
            uk, uv = r if v is not None else (r, None)
            if isinstance(uk, tuple):
                uk = uk[0]
        else:
            heads = ember.empty(n, dtype="bool", device=k.device)
            heads[:1] = True
            if n > 1:
                heads[1:] = ~_mask(eq, k[:-1], k[1:])
            uk = P.select(k, heads)
            uv = None if v is None else P.select(v, heads)
        uv = _gather_rows(rows, uv)
        _it.write(d_out_keys, uk, fn, "d_out_keys")
        if uv is not None:
            _it.write(d_out_items, uv, fn, "d_out_items")
        _counts_out(d_out_num_selected, [uk.size], fn, "d_out_num_selected")


# ---- sorting and searching ----------------------------------------------

_COMPARATORS = {OpKind.LESS: None, OpKind.GREATER: "a > b"}


def merge_sort(*, d_in_keys, d_in_values=None, d_out_keys,
               d_out_values=None, num_items, op, stream=None):
    """A stable sort of keys (and values) by op: OpKind.LESS (ascending)
    or OpKind.GREATER (descending)."""
    fn = "merge_sort"
    n = _count(num_items, fn)
    cmp = _comparator(op, fn)
    dev = _it.device_of(d_in_keys, d_out_keys)
    with _stream(stream):
        k = _it.read(d_in_keys, n, dev, fn, "d_in_keys")
        v = None if d_in_values is None else _it.read(
            d_in_values, n, dev, fn, "d_in_values", zipped=True)
        if n == 0:
            return
        v, rows = _rows(v)
        r = P.merge_sort(k, v, comparator=cmp)
        ks, vs = r if v is not None else (r, None)
        vs = _gather_rows(rows, vs)
        _it.write(d_out_keys, ks, fn, "d_out_keys")
        if vs is not None:
            if d_out_values is None:
                raise ValueError(f"{fn}: d_in_values given without "
                                 "d_out_values")
            _it.write(d_out_values, vs, fn, "d_out_values")


def _rows(v):
    """Struct values sorted along with keys travel as their positions:
    (what the sort moves, the struct values or None)."""
    if isinstance(v, _struct.Fields):
        return ember.arange(v.size, dtype="int64", device=v.device), v
    return v, None


def _gather_rows(rows, vs):
    """The struct values in the order of the sorted positions vs."""
    if rows is None or vs is None:
        return vs
    return _struct.Fields(rows.dtype, [a.take(vs) for a in rows.arrays])


def _comparator(op, fn):
    if isinstance(op, OpKind):
        if op not in _COMPARATORS:
            raise ValueError(f"{fn}: op OpKind.{op.name} is not a sort "
                             "order (OpKind.LESS or OpKind.GREATER)")
        return _COMPARATORS[op]
    if callable(op):
        raise NotImplementedError(
            f"{fn}: a Python comparator is not supported: "
            "ember.parallel.merge_sort takes its comparator as a C "
            "expression only (its generator does not take device "
            "functions); use OpKind.LESS or OpKind.GREATER, or "
            "ember.parallel.merge_sort(keys, comparator='C expression')")
    raise TypeError(f"{fn}: op must be an OpKind or a Python function, not "
                    f"{type(op).__name__}")


def _order(order, fn):
    if not isinstance(order, SortOrder):
        raise TypeError(f"{fn}: order must be a SortOrder, not "
                        f"{type(order).__name__}")
    return order == SortOrder.DESCENDING


def _sort_io(d_in, d_out, n, dev, fn, what):
    """(keys or values read, where to write, the DoubleBuffer to flip)."""
    if isinstance(d_in, DoubleBuffer):
        if d_out is not None:
            raise ValueError(f"{fn}: d_out_{what} must be None when "
                             f"d_in_{what} is a DoubleBuffer")
        return (_it.read(d_in.current(), n, dev, fn, f"d_in_{what}",
                         zipped=what == "values"),
                d_in.alternate(), d_in)
    x = _it.read(d_in, n, dev, fn, f"d_in_{what}", zipped=what == "values")
    if d_out is None:
        raise TypeError(f"{fn}: d_out_{what} must be a device array")
    return x, d_out, None


def _sort_inputs(d_in_keys, d_out_keys, d_in_values, d_out_values, n, fn):
    """The keys' and the values' _sort_io (the values' all None when
    there are none): the two sorts read and write them alike."""
    dev = _it.device_of(d_in_keys.current() if isinstance(
        d_in_keys, DoubleBuffer) else d_in_keys)
    keys = _sort_io(d_in_keys, d_out_keys, n, dev, fn, "keys")
    if d_in_values is None:
        return keys, (None, None, None)
    return keys, _sort_io(d_in_values, d_out_values, n, dev, fn, "values")


def _sort_outputs(keys, values, ks, vs, fn):
    """Writes sorted keys (and values) where _sort_inputs said; each
    DoubleBuffer then names the output as its current()."""
    if ks is not None:
        _it.write(keys[1], ks, fn, "d_out_keys")
        if vs is not None:
            _it.write(values[1], vs, fn, "d_out_values")
    for db in (keys[2], values[2]):
        if db is not None:
            db.selector ^= 1


def radix_sort(*, d_in_keys, d_out_keys, d_in_values=None,
               d_out_values=None, num_items, order, begin_bit=None,
               end_bit=None, stream=None):
    """A stable radix sort of keys (and values); with DoubleBuffers the
    result is in their current() after the call."""
    fn = "radix_sort"
    n = _count(num_items, fn)
    desc = _order(order, fn)
    with _stream(stream):
        keys, values = _sort_inputs(d_in_keys, d_out_keys, d_in_values,
                                    d_out_values, n, fn)
        k, v = keys[0], values[0]
        ks = vs = None
        if n:
            v, rows = _rows(v)
            r = P.radix_sort(k, v, descending=desc, begin_bit=begin_bit,
                             end_bit=end_bit)
            ks, vs = r if v is not None else (r, None)
            vs = _gather_rows(rows, vs)
        _sort_outputs(keys, values, ks, vs, fn)


def segmented_sort(*, d_in_keys, d_out_keys=None, d_in_values=None,
                   d_out_values=None, num_items, num_segments,
                   start_offsets_in, end_offsets_in, order, stream=None):
    """Each segment [start[i], end[i]) sorted on its own (stable); items
    outside every segment are copied as they are. Segments must be in
    order and not overlap."""
    fn = "segmented_sort"
    n = _count(num_items, fn)
    k_seg = _count(num_segments, fn, "num_segments")
    desc = _order(order, fn)
    with _stream(stream):
        keys, values = _sort_inputs(d_in_keys, d_out_keys, d_in_values,
                                    d_out_values, n, fn)
        k, v = keys[0], values[0]
        dev = k.device
        s = _it.read(start_offsets_in, k_seg, dev, fn, "start_offsets_in")
        e = _it.read(end_offsets_in, k_seg, dev, fn, "end_offsets_in")
        ks = vs = None
        if n:
            v, rows = _rows(v)
            ks, vs = _segmented_sort(k, v, s, e, n, desc, fn)
            vs = _gather_rows(rows, vs)
        _sort_outputs(keys, values, ks, vs, fn)


def _segmented_sort(k, v, s, e, n, desc, fn):
    """Two stable radix sorts: by key, then by segment number, so each
    segment's items come out together and sorted."""
    dev = k.device
    pos = ember.arange(n, dtype="int64", device=dev)
    if s.size == 0:
        return k, v
    s, e = s.astype("int64"), e.astype("int64")
    off = ember.stack([s, e], axis=1).reshape(-1)
    if not bool((off[1:] >= off[:-1]).all()) or bool((off < 0).any()) or \
            int(e[-1]) > n:
        raise NotImplementedError(
            f"{fn}: segments out of order, overlapping, with end < start or "
            "past num_items are not supported")
    seg = ember.searchsorted(s, pos, side="right") - 1
    inside = (seg >= 0) & (pos < e.take(ember.maximum(seg, 0)))
    where = P.select(pos, inside)
    kin = k.take(where)
    _, p1 = P.radix_sort(kin, ember.arange(where.size, dtype="int64",
                                           device=dev), descending=desc)
    _, p2 = P.radix_sort(seg.take(where).take(p1), p1)
    ks = ember.array(k, copy=True)
    ks[where] = kin.take(p2)
    vs = None
    if v is not None:
        vs = ember.array(v, copy=True)
        vs[where] = v.take(where).take(p2)
    return ks, vs


def _search(fn, side, d_data, num_items, d_values, num_values, d_out, comp):
    n = _count(num_items, fn)
    m = _count(num_values, fn, "num_values")
    if comp is not None and comp not in (OpKind.LESS, OpKind.GREATER):
        if isinstance(comp, OpKind) or not callable(comp):
            raise ValueError(f"{fn}: comp must be None, OpKind.LESS or "
                             f"OpKind.GREATER, not {comp!r}")
        raise NotImplementedError(
            f"{fn}: a Python comparator is not supported (ember's binary "
            "search compares values in NumPy's order); use None/OpKind.LESS "
            "for ascending data or OpKind.GREATER for descending data")
    dev = _it.device_of(d_data, d_values, d_out)
    data = _it.read(d_data, n, dev, fn, "d_data")
    vals = _it.read(d_values, m, dev, fn, "d_values")
    if m == 0:
        return
    if comp == OpKind.GREATER:   # descending data: count from the end
        other = "right" if side == "left" else "left"
        r = n - ember.searchsorted(data[::-1], vals, side=other)
    else:
        r = ember.searchsorted(data, vals, side=side)
    _it.write(d_out, r, fn)


def lower_bound(*, d_data, num_items, d_values, num_values, d_out,
                comp=None, stream=None):
    """d_out[i]: the first position in d_data where d_values[i] could be
    inserted keeping the order."""
    with _stream(stream):
        _search("lower_bound", "left", d_data, num_items, d_values,
                num_values, d_out, comp)


def upper_bound(*, d_data, num_items, d_values, num_values, d_out,
                comp=None, stream=None):
    """d_out[i]: the last such position."""
    with _stream(stream):
        _search("upper_bound", "right", d_data, num_items, d_values,
                num_values, d_out, comp)


def histogram_even(*, d_samples, d_histogram, num_output_levels,
                   lower_level, upper_level, num_samples, stream=None):
    """Counts of num_output_levels - 1 equal bins over [lower_level,
    upper_level), added to nothing: d_histogram is overwritten."""
    fn = "histogram_even"
    n = _count(num_samples, fn, "num_samples")
    levels = _count(num_output_levels, fn, "num_output_levels")
    if levels < 2:
        raise ValueError(f"{fn}: num_output_levels must be >= 2, not "
                         f"{levels}")
    lo, hi = (_init(np.asarray(v) if isinstance(v, (int, float)) and
                    not isinstance(v, bool) else v, fn, w)[0]
              for v, w in ((lower_level, "lower_level"),
                           (upper_level, "upper_level")))
    if not lo < hi:
        raise ValueError(f"{fn}: lower_level ({lo}) must be below "
                         f"upper_level ({hi})")
    dev = _it.device_of(d_samples, d_histogram)
    with _stream(stream):
        x = _it.read(d_samples, n, dev, fn, "d_samples")
        if n == 0:
            r = ember.zeros(levels - 1, dtype="int64", device=dev)
        else:
            r = P.histogram_even(x, levels - 1, float(lo), float(hi))
        _it.write(d_histogram, r, fn, "d_histogram")


# ---- the object API -----------------------------------------------------

class _Algorithm:
    """What make_<algorithm> returns: called with the algorithm's keyword
    arguments (those left out are the ones given to make_). Algorithms
    with temp storage take temp_storage=: None returns TEMP_BYTES and runs
    nothing; a buffer is accepted and not used."""

    def __init__(self, run, temp, given, rename=None):
        self._run, self._temp, self._given = run, temp, given
        self._rename = rename or {}

    def __call__(self, *args, **kwargs):
        name = self._run.__name__
        if args:
            raise TypeError(f"{name}: the object takes keyword arguments "
                            f"only, got {len(args)} positional")
        if self._temp:
            if "temp_storage" not in kwargs:
                raise TypeError(f"{name}: missing the keyword argument "
                                "'temp_storage'")
            if kwargs.pop("temp_storage") is None:
                return TEMP_BYTES
        kw = dict(self._given)
        kw.update(kwargs)
        kw = {self._rename.get(k, k): v for k, v in kw.items()}
        self._run(**kw)
        return TEMP_BYTES if self._temp else None


def _make(run, temp, given, check=(), rename=None):
    fn = "make_" + run.__name__
    for key, kind in check:
        if kind == "binary":
            _ops.binary(given[key], fn, key)
        elif kind == "unary":
            _ops.unary(given[key], fn, key)
    given = {k: v for k, v in given.items() if k != "compute_capability"}
    return _Algorithm(run, temp, given, rename)


def make_reduce_into(*, d_in, d_out, op, h_init, **kwargs):
    if _struct.init_record(h_init) is None:
        _init(h_init, "make_reduce_into")
    return _make(reduce_into, True, dict(d_in=d_in, d_out=d_out, op=op,
                                         h_init=h_init), [("op", "binary")])


def make_inclusive_scan(*, d_in, d_out, op, init_value=None,
                        compute_capability=None):
    return _make(inclusive_scan, True, dict(d_in=d_in, d_out=d_out, op=op,
                                            init_value=init_value),
                 [("op", "binary")])


def make_exclusive_scan(*, d_in, d_out, op, init_value,
                        compute_capability=None):
    return _make(exclusive_scan, True, dict(d_in=d_in, d_out=d_out, op=op,
                                            init_value=init_value),
                 [("op", "binary")])


def make_segmented_reduce(*, d_in, d_out, start_offsets_in, end_offsets_in,
                          op, h_init, compute_capability=None):
    return _make(segmented_reduce, True,
                 dict(d_in=d_in, d_out=d_out,
                      start_offsets_in=start_offsets_in,
                      end_offsets_in=end_offsets_in, op=op, h_init=h_init),
                 [("op", "binary")])


def make_unary_transform(*, d_in, d_out, op, compute_capability=None):
    return _make(unary_transform, False, dict(d_in=d_in, d_out=d_out, op=op),
                 [("op", "unary")])


def make_binary_transform(*, d_in1, d_in2, d_out, op,
                          compute_capability=None):
    return _make(binary_transform, False,
                 dict(d_in1=d_in1, d_in2=d_in2, d_out=d_out, op=op))


def make_select(*, d_in, d_out, d_num_selected_out, cond,
                compute_capability=None):
    return _make(select, True, dict(d_in=d_in, d_out=d_out,
                                    d_num_selected_out=d_num_selected_out,
                                    cond=cond), [("cond", "unary")])


def make_three_way_partition(*, d_in, d_first_part_out, d_second_part_out,
                             d_unselected_out, d_num_selected_out,
                             select_first_part_op, select_second_part_op,
                             compute_capability=None):
    return _make(three_way_partition, True,
                 dict(d_in=d_in, d_first_part_out=d_first_part_out,
                      d_second_part_out=d_second_part_out,
                      d_unselected_out=d_unselected_out,
                      d_num_selected_out=d_num_selected_out,
                      select_first_part_op=select_first_part_op,
                      select_second_part_op=select_second_part_op),
                 [("select_first_part_op", "unary"),
                  ("select_second_part_op", "unary")])


def make_unique_by_key(*, d_in_keys, d_in_items, d_out_keys, d_out_items,
                       d_out_num_selected, op, compute_capability=None):
    return _make(unique_by_key, True,
                 dict(d_in_keys=d_in_keys, d_in_items=d_in_items,
                      d_out_keys=d_out_keys, d_out_items=d_out_items,
                      d_out_num_selected=d_out_num_selected, op=op))


def make_merge_sort(*, d_in_keys, d_in_values=None, d_out_keys,
                    d_out_values=None, op, compute_capability=None):
    _comparator(op, "make_merge_sort")
    return _make(merge_sort, True,
                 dict(d_in_keys=d_in_keys, d_in_values=d_in_values,
                      d_out_keys=d_out_keys, d_out_values=d_out_values,
                      op=op))


def make_radix_sort(*, d_in_keys, d_out_keys, d_in_values, d_out_values,
                    order, compute_capability=None):
    _order(order, "make_radix_sort")
    return _make(radix_sort, True,
                 dict(d_in_keys=d_in_keys, d_out_keys=d_out_keys,
                      d_in_values=d_in_values, d_out_values=d_out_values,
                      order=order))


def make_segmented_sort(*, d_in_keys, d_out_keys=None, d_in_values=None,
                        d_out_values=None, start_offsets_in, end_offsets_in,
                        order, compute_capability=None):
    _order(order, "make_segmented_sort")
    return _make(segmented_sort, True,
                 dict(d_in_keys=d_in_keys, d_out_keys=d_out_keys,
                      d_in_values=d_in_values, d_out_values=d_out_values,
                      start_offsets_in=start_offsets_in,
                      end_offsets_in=end_offsets_in, order=order))


def make_histogram_even(*, d_samples, d_histogram, h_num_output_levels,
                        h_lower_level, h_upper_level, num_samples,
                        compute_capability=None):
    levels = _init(h_num_output_levels, "make_histogram_even",
                   "h_num_output_levels")[0]
    _count(levels, "make_histogram_even", "h_num_output_levels")
    return _make(_histogram_object, True,
                 dict(d_samples=d_samples, d_histogram=d_histogram,
                      h_num_output_levels=h_num_output_levels,
                      h_lower_level=h_lower_level,
                      h_upper_level=h_upper_level, num_samples=num_samples))


def _histogram_object(*, d_samples, d_histogram, h_num_output_levels,
                      h_lower_level, h_upper_level, num_samples, stream=None):
    fn = "histogram_even"
    histogram_even(d_samples=d_samples, d_histogram=d_histogram,
                   num_output_levels=_init(h_num_output_levels, fn,
                                           "h_num_output_levels")[0],
                   lower_level=h_lower_level, upper_level=h_upper_level,
                   num_samples=num_samples, stream=stream)


_histogram_object.__name__ = "histogram_even"


def make_lower_bound(*, d_data, d_values, d_out, comp=None,
                     compute_capability=None):
    return _make(lower_bound, False, dict(d_data=d_data, d_values=d_values,
                                          d_out=d_out, comp=comp))


def make_upper_bound(*, d_data, d_values, d_out, comp=None,
                     compute_capability=None):
    return _make(upper_bound, False, dict(d_data=d_data, d_values=d_values,
                                          d_out=d_out, comp=comp))
