"""ember.scipy.ndimage: scipy.ndimage's filters (ndimage_filters.py),
segmentation and measurements on ember arrays, on every device: label (a
parallel union-find, kernels/label.cuh), and sum_labels, mean, variance,
standard_deviation, minimum, maximum and center_of_mass over labelled
regions (bincounts and ufunc.at, composed); morphology
(ndimage_morph.py) and geometric transforms (ndimage_interp.py)."""
import math

import ember as _e
from ember._api._util import as_array as _arr
from ember.scipy._kernels import launch as _launch
from ember.scipy.ndimage_filters import *  # noqa: F401,F403
from ember.scipy import ndimage_filters as _filters
from ember.scipy.ndimage_morph import *  # noqa: F401,F403
from ember.scipy import ndimage_morph as _morph
from ember.scipy.ndimage_interp import *  # noqa: F401,F403
from ember.scipy import ndimage_interp as _interp
from ember.scipy.ndimage_fourier import *  # noqa: F401,F403
from ember.scipy import ndimage_fourier as _fourier
from ember.scipy.ndimage_generic import *  # noqa: F401,F403
from ember.scipy import ndimage_generic as _generic

__all__ = ["label", "generate_binary_structure", "sum_labels", "sum",
           "mean", "variance", "standard_deviation", "minimum", "maximum",
           "center_of_mass", "extrema", "histogram", "minimum_position",
           "maximum_position", "median", "labeled_comprehension",
           "value_indices", "watershed_ift", "distance_transform_cdt"] + \
    _filters.__all__ + _morph.__all__ + _interp.__all__ + \
    _fourier.__all__ + _generic.__all__

def generate_binary_structure(rank, connectivity):
    """scipy.ndimage.generate_binary_structure, as a NumPy bool array:
    the elements within `connectivity` unit steps of the centre."""
    import numpy
    if connectivity < 1:
        connectivity = 1
    if rank < 1:
        return numpy.array(True)
    idx = numpy.indices((3,) * rank)
    return numpy.abs(idx - 1).sum(axis=0) <= connectivity


def label(input, structure=None, output=None):
    """scipy.ndimage.label: (labels, number of features), the foreground's
    connected components numbered 1.. in the order of their first pixel
    in C order, connected through `structure` (default: faces only)."""
    import numpy
    x = _arr(input)
    if x.dtype.kind == "c":
        raise TypeError("Complex type not supported")
    if x.ndim > 3:
        raise NotImplementedError("ember.scipy.ndimage.label: at most 3 "
                                  "dimensions for now")
    if structure is None:
        structure = generate_binary_structure(x.ndim, 1)
    s = numpy.asarray(structure.get() if hasattr(structure, "get")
                      else _e.asnumpy(structure) if isinstance(
                          structure, _e.ndarray) else structure, bool)
    if s.ndim != x.ndim:
        raise RuntimeError("structure and input must have equal rank")
    if any(d != 3 for d in s.shape):
        raise ValueError("structure dimensions must be equal to 3")
    n = x.size
    shape3 = (1,) * (3 - x.ndim) + x.shape
    offs = []
    for c in numpy.argwhere(s):
        o = tuple(int(v) - 1 for v in c)
        o3 = (0,) * (3 - x.ndim) + o
        if o3 < (0, 0, 0):  # before the centre in C order
            offs.extend(o3)
    dev = x.device
    p = _e.empty(n, dtype=_e.int32, device=dev)
    if n:
        if n >= 2 ** 31:
            raise ValueError("ember.scipy.ndimage.label: at most 2**31 - 1 "
                             "pixels")
        # the foreground as bytes: a bool array's own (one pass fewer)
        fg = _e.ascontiguousarray(x if x.dtype == _e.bool else x != 0)
        fg = fg.reshape(-1).view(_e.uint8)
        off = _e.asarray(numpy.array(offs or [0, 0, 0], numpy.int32),
                         device=dev)
        # the left neighbour joins runs of a row already at init
        left = numpy.int32(any(tuple(offs[i:i + 3]) == (0, 0, -1)
                               for i in range(0, len(offs), 3)))
        _launch(dev, "label.cuh", "em_label_init", n,
                (fg, p, numpy.int64(n), numpy.int64(shape3[2]), left))
        _launch(dev, "label.cuh", "em_label_unite", n,
                (fg, p, numpy.int64(n), numpy.int64(shape3[0]),
                 numpy.int64(shape3[1]), numpy.int64(shape3[2]), off,
                 numpy.int32(len(offs) // 3), left))
        root = _e.empty(n, dtype=_e.int32, device=dev)
        _launch(dev, "label.cuh", "em_label_flatten", n,
                (p, root, numpy.int64(n)))
        ids = _e.cumsum(root, dtype=_e.int32)
        _launch(dev, "label.cuh", "em_label_number", n,
                (p, ids, p, numpy.int64(n)))
    labels = p.reshape(x.shape)
    num = int(ids[-1]) if n else 0
    if output is None:
        return labels, num
    if isinstance(output, _e.ndarray):
        output[...] = labels
        return num
    return labels.astype(output), num


def _regions(input, labels, index):
    """(flat values, flat labels or None, index as an ember array or None,
    scalar) for the measurement functions."""
    x = _arr(input)
    if labels is None:
        return x.reshape(-1), None, None, True
    lab = labels if isinstance(labels, _e.ndarray) else \
        _e.asarray(labels, device=x.device)
    if lab.device != x.device:
        raise ValueError(f"labels are on {lab.device} and input on "
                         f"{x.device} (ember does not copy between devices "
                         "implicitly)")
    lab = _e.broadcast_to(lab, x.shape).reshape(-1)
    if index is None:
        return x.reshape(-1)[lab > 0], None, None, True
    scalar = _e.ndim(index) == 0 if not isinstance(index, (list, tuple)) \
        else False
    idx = _e.asarray(index, device=x.device).reshape(-1)
    return x.reshape(-1), lab, idx, scalar


def _per_label(values, lab, idx):
    """Sums of values and counts per entry of idx."""
    big = int(_e.max(idx)) + 1 if idx.size else 1
    top = max(big, int(_e.max(lab)) + 1 if lab.size else 1)
    keep = (lab >= 0) & (lab < top)
    lab, values = lab[keep], values[keep]
    sums = _e.bincount(lab, weights=values.astype(_e.float64), minlength=top)
    counts = _e.bincount(lab, minlength=top)
    return sums[idx], counts[idx]


def _out(r, scalar):
    return r[0] if scalar else r


def sum_labels(input, labels=None, index=None):
    """scipy.ndimage.sum_labels: the sum of input over each labelled
    region (over labels > 0 when index is None)."""
    v, lab, idx, scalar = _regions(input, labels, index)
    if idx is None:
        return _e.sum(v)
    if scalar:
        # SciPy sums one region in the input's own type (int64 for ints),
        # a list of them through bincount's float64
        return _e.sum(v[lab == idx[0]])
    return _per_label(v, lab, idx)[0]


sum = sum_labels


def mean(input, labels=None, index=None):
    """scipy.ndimage.mean: the mean over each labelled region."""
    v, lab, idx, scalar = _regions(input, labels, index)
    if idx is None:
        return _e.mean(v.astype(_e.float64))
    s, c = _per_label(v, lab, idx)
    return _out(s / c, scalar)


def variance(input, labels=None, index=None):
    """scipy.ndimage.variance: the population variance over each region
    (two passes: the mean, then the squared deviations)."""
    v, lab, idx, scalar = _regions(input, labels, index)
    if idx is None:
        return _e.var(v.astype(_e.float64))
    s, c = _per_label(v, lab, idx)
    top = int(_e.max(lab)) + 1 if lab.size else 1
    full_s, full_c = _per_label(v, lab, _e.arange(max(top, 1),
                                                  device=v.device))
    m = full_s / _e.maximum(full_c, 1)
    inside = (lab >= 0) & (lab < top)
    lab_in = lab[inside]
    dev2 = (v[inside].astype(_e.float64) - m[lab_in]) ** 2
    sq = _e.bincount(lab_in, weights=dev2, minlength=top)
    sq = _e.concatenate([sq, _e.zeros(max(int(_e.max(idx)) + 1 - top, 0),
                                      device=v.device)]) if idx.size else sq
    return _out(sq[idx] / c, scalar)


def standard_deviation(input, labels=None, index=None):
    """scipy.ndimage.standard_deviation."""
    return _e.sqrt(variance(input, labels, index))


def _extreme(input, labels, index, ufunc, start):
    v, lab, idx, scalar = _regions(input, labels, index)
    if idx is None:
        return ufunc.reduce(v)
    top = max(int(_e.max(idx)) + 1 if idx.size else 1,
              int(_e.max(lab)) + 1 if lab.size else 1)
    keep = (lab >= 0) & (lab < top)
    acc = _e.full(top, start, dtype=_e.float64, device=v.device)
    ufunc.at(acc, lab[keep], v[keep].astype(_e.float64))
    # an empty region's extreme is 0, as SciPy's
    acc = _e.where(_e.bincount(lab[keep], minlength=top) > 0, acc, 0)
    r = acc[idx].astype(v.dtype)
    return _out(r, scalar)


def minimum(input, labels=None, index=None):
    """scipy.ndimage.minimum: the smallest value of each region."""
    return _extreme(input, labels, index, _e.minimum, float("inf"))


def maximum(input, labels=None, index=None):
    """scipy.ndimage.maximum: the largest value of each region."""
    return _extreme(input, labels, index, _e.maximum, float("-inf"))


def center_of_mass(input, labels=None, index=None):
    """scipy.ndimage.center_of_mass: input-weighted mean coordinates of
    each region, a tuple per index (a list of them for a sequence)."""
    x = _arr(input)
    coords = _e.indices(x.shape, dtype=_e.float64, device=x.device)
    norm = sum_labels(x, labels, index)
    per_dim = [sum_labels(x * coords[d], labels, index) / norm
               for d in range(x.ndim)]
    if index is None or _e.ndim(index) == 0 and \
            not isinstance(index, (list, tuple)):
        return tuple(float(c) for c in per_dim)
    hosts = [_e.asnumpy(c) for c in per_dim]
    return [tuple(float(h[i]) for h in hosts) for i in range(len(hosts[0]))]


def _positions(x, v, lab, idx, extreme):
    """The C-order coordinates of each region's first element equal to
    its extreme (per entry of idx)."""
    flat = _e.arange(x.size, dtype=_e.int64, device=x.device)
    top = int(_e.max(idx)) + 1 if idx.size else 1
    keep = (lab >= 0) & (lab < top)
    lab_k = lab[keep]
    hit = v[keep] == extreme[lab_k]
    first = _e.full(top, x.size, dtype=_e.int64, device=x.device)
    _e.minimum.at(first, lab_k[hit], flat[keep][hit])
    pos = _e.asnumpy(first[idx])
    import numpy
    # an empty region's position is the origin, as SciPy's
    return [tuple(int(c) for c in numpy.unravel_index(
        p if p < x.size else 0, x.shape)) for p in pos]


def extrema(input, labels=None, index=None):
    """scipy.ndimage.extrema: (minimums, maximums, their positions) of
    each region. Where several elements tie, ember gives the first in C
    order; SciPy's pick among ties follows its unstable sort of the
    values."""
    x = _arr(input)
    if labels is None or index is None:
        if labels is not None:
            lab = _e.broadcast_to(_arr(labels), x.shape)
            v = x[lab > 0]
            flat = _e.arange(x.size, device=x.device).reshape(x.shape)[lab > 0]
        else:
            v = x.reshape(-1)
            flat = _e.arange(x.size, device=x.device)
        lo, hi = _e.min(v), _e.max(v)
        import numpy
        pl = int(flat[int(_e.argmin(v))])
        ph = int(flat[int(_e.argmax(v))])
        return (lo, hi, tuple(int(c) for c in numpy.unravel_index(pl, x.shape)),
                tuple(int(c) for c in numpy.unravel_index(ph, x.shape)))
    v, lab, idx, scalar = _regions(x, labels, index)
    top = max(int(_e.max(idx)) + 1 if idx.size else 1,
              int(_e.max(lab)) + 1 if lab.size else 1)
    full = _e.arange(top, device=x.device)
    mins = minimum(x, labels, full)
    maxs = maximum(x, labels, full)
    pmin = _positions(x, v, lab, idx, mins.astype(_e.float64))
    pmax = _positions(x, v, lab, idx, maxs.astype(_e.float64))
    lo, hi = mins[idx], maxs[idx]
    if scalar:
        return lo[0], hi[0], pmin[0], pmax[0]
    return lo, hi, pmin, pmax


def histogram(input, min, max, bins, labels=None, index=None):
    """scipy.ndimage.histogram: the counts of bins equal-width bins over
    [min, max] (the last bin closed, as numpy.histogram's) of each
    region: one array, or a list of them for a sequence index."""
    x = _arr(input)
    if labels is None or index is None:
        v = x.reshape(-1) if labels is None else \
            x[_e.broadcast_to(_arr(labels), x.shape) > 0]
        lab = _e.zeros(v.size, dtype=_e.int64, device=x.device)
        idx = _e.zeros(1, dtype=_e.int64, device=x.device)
        scalar = True
    else:
        v, lab, idx, scalar = _regions(x, labels, index)
    vf = v.astype(_e.float64)
    b = _e.floor((vf - min) / (max - min) * bins).astype(_e.int64)
    b = _e.where(vf == max, bins - 1, b)
    top = int(_e.max(idx)) + 1 if idx.size else 1
    ok = (vf >= min) & (vf <= max) & (lab >= 0) & (lab < top)
    key = lab[ok].astype(_e.int64) * bins + b[ok]
    counts = _e.bincount(key, minlength=top * bins).reshape(top, bins)
    rows = counts[idx]
    if scalar:
        return rows[0]
    return [rows[i] for i in range(rows.shape[0])]


def minimum_position(input, labels=None, index=None):
    """scipy.ndimage.minimum_position: the coordinates of each region's
    smallest value (the first in C order where several tie)."""
    return extrema(input, labels, index)[2]


def maximum_position(input, labels=None, index=None):
    """scipy.ndimage.maximum_position: the coordinates of each region's
    largest value."""
    return extrema(input, labels, index)[3]


def median(input, labels=None, index=None):
    """scipy.ndimage.median: each region's median (the mean of the two
    middle values of an even count; an empty region's is 0), in the
    input's float type or float64: the values sorted by (label, value)
    once, each region's middle read at its offset."""
    v, lab, idx, scalar = _regions(input, labels, index)
    ft = v.dtype if v.dtype.kind == "f" else _e.float64
    if idx is None:
        if v.size == 0:
            return _e.asarray(float("nan"), dtype=ft, device=v.device)
        s = _e.sort(v.astype(ft))
        return (s[(v.size - 1) // 2] + s[v.size // 2]) / 2
    top = max(int(_e.max(idx)) + 1 if idx.size else 1,
              int(_e.max(lab)) + 1 if lab.size else 1)
    keep = (lab >= 0) & (lab < top)
    vk, lk = v[keep].astype(ft), lab[keep].astype(_e.int64)
    counts = _e.bincount(lk, minlength=top)
    c = counts[idx]
    if vk.size == 0:
        r = _e.zeros(idx.shape, dtype=ft, device=v.device)
    else:
        sv = vk[_e.lexsort((vk, lk))]
        st = (_e.cumsum(counts) - counts)[idx]
        last = vk.size - 1
        lo = sv[_e.clip(st + (c - 1) // 2, 0, last)]
        hi = sv[_e.clip(st + c // 2, 0, last)]
        r = _e.where(c > 0, (lo + hi) / 2, 0).astype(ft)
    return _out(r, scalar)


def labeled_comprehension(input, labels, index, func, out_dtype, default,
                          pass_positions=False):
    """scipy.ndimage.labeled_comprehension: func(values) (and their flat
    positions with pass_positions) of each region, as an array of
    out_dtype holding default where a label is absent. func gets ember
    arrays and runs once a region, as SciPy calls it."""
    import numpy
    x = _arr(input)
    scalar = numpy.isscalar(index)
    pos = _e.arange(x.size, device=x.device).reshape(x.shape) \
        if pass_positions else None

    def call(sel):
        if sel is None:
            return func(x.reshape(-1), pos.reshape(-1)) if pass_positions \
                else func(x.reshape(-1))
        return func(x[sel], pos[sel]) if pass_positions else func(x[sel])
    if labels is None:
        if index is not None:
            raise ValueError("index without defined labels")
        return call(None)
    lab = _e.broadcast_to(_arr(labels), x.shape)
    if index is None:
        return call(lab > 0)
    idx = _e.asnumpy(_e.asarray(index)).reshape(-1) \
        if isinstance(index, _e.ndarray) else numpy.atleast_1d(index)
    if numpy.any(idx.astype(_e.asnumpy(lab[:0]).dtype) != idx):
        raise ValueError(f"Cannot convert index values from <{idx.dtype}> "
                         f"to <{lab.dtype}> (labels' type) without loss of "
                         "precision")
    # One stable sort puts each region's elements together in C order;
    # every region is then a slice (SciPy sorts once too), not a mask of
    # the whole input a region. func still runs once a region.
    flat = lab.reshape(-1)
    order = _e.argsort(flat, kind="stable")
    keys = flat[order]
    want = _e.asarray(idx.astype(_e.asnumpy(lab[:0]).dtype), device=x.device)
    bounds = _e.asnumpy(_e.stack([_e.searchsorted(keys, want, side="left"),
                                  _e.searchsorted(keys, want, side="right")]))
    xs = x.reshape(-1)[order]
    out = _e.full(idx.shape, default, dtype=out_dtype, device=x.device)
    for i, (lo, hi) in enumerate(zip(bounds[0].tolist(), bounds[1].tolist())):
        if lo < hi:
            out[i] = func(xs[lo:hi], order[lo:hi]) if pass_positions \
                else func(xs[lo:hi])
    return out[0] if scalar else out


def value_indices(arr, *, ignore_value=None):
    """scipy.ndimage.value_indices: {value: the tuple of index arrays of
    its elements} for an integer array, from one stable sort of the
    values (each value's indices in C order, as SciPy's)."""
    import numpy
    x = _arr(arr)
    if x.dtype.kind not in "iu":
        raise ValueError("Parameter 'arr' must be an integer array")
    flat = x.reshape(-1)
    order = _e.argsort(flat, kind="stable")
    sv = flat[order]
    vals, counts = _e.unique(sv, return_counts=True)
    coords = [c.reshape(-1)[order] for c in
              _e.indices(x.shape, dtype=_e.int64, device=x.device)]
    hv = _e.asnumpy(vals)
    ends = numpy.cumsum(_e.asnumpy(counts))
    out = {}
    start = 0
    for v, end in zip(hv, ends):
        if ignore_value is None or v != ignore_value:
            out[v] = tuple(c[start:end] for c in coords)
        start = int(end)
    return out


_SIGNED = ("int8", "int16", "int32", "int64")


def watershed_ift(input, markers, structure=None, output=None):
    """scipy.ndimage.watershed_ift: labels grown from the markers by the
    image foresting transform over a uint8 or uint16 input
    (kernels/watershed.cuh: SciPy's bucket queue, in its order, on one
    thread; negative markers are background, processed after the
    others). The output has the markers' dtype unless output= says
    otherwise."""
    import numpy
    x = _arr(input)
    if x.dtype.name not in ("uint8", "uint16"):
        raise TypeError("only 8 and 16 unsigned inputs are supported")
    st = generate_binary_structure(x.ndim, 1) if structure is None else \
        numpy.asarray(_e.asnumpy(structure) if isinstance(
            structure, _e.ndarray) else structure, bool)
    if st.ndim != x.ndim:
        raise RuntimeError("structure and input must have equal rank")
    if any(d != 3 for d in st.shape):
        raise RuntimeError("structure dimensions must be equal to 3")
    m = markers if isinstance(markers, _e.ndarray) else \
        _e.asarray(markers, device=x.device)
    if tuple(m.shape) != tuple(x.shape):
        raise RuntimeError("input and markers must have equal shape")
    if m.dtype.name not in _SIGNED:
        raise RuntimeError("marker should be of integer type")
    if isinstance(output, _e.ndarray):
        if output.dtype.name not in _SIGNED:
            raise RuntimeError("output should be of integer type")
        if tuple(output.shape) != tuple(x.shape):
            raise RuntimeError("output shape not correct")
    if x.ndim > 7:
        raise RuntimeError("too many dimensions")
    out_t = output.dtype if isinstance(output, _e.ndarray) else \
        (m.dtype if output is None else _e.dtype(output))
    n = x.size
    lab = _e.ascontiguousarray(m.astype(_e.int64))
    if n:
        dev = x.device
        src = _e.ascontiguousarray(x.astype(_e.int32))
        maxval = int(_e.max(src))
        strides = [1] * x.ndim
        for d in range(x.ndim - 2, -1, -1):
            strides[d] = strides[d + 1] * x.shape[d + 1]
        nstr = []
        for c in numpy.argwhere(numpy.ones((3,) * x.ndim, bool)):
            if st[tuple(c)]:
                # (this module's sum is sum_labels)
                off = math.fsum((int(v) - 1) * s for v, s in zip(c, strides))
                off = int(off)
                if off != 0:
                    nstr.append(off)
        i64 = numpy.int64
        ws = [_e.empty(n, dtype=_e.int64, device=dev),
              _e.empty(n, dtype=_e.int64, device=dev),
              _e.empty(n, dtype=_e.int32, device=dev),
              _e.empty(n, dtype=_e.uint8, device=dev),
              _e.empty(maxval + 2, dtype=_e.int64, device=dev),
              _e.empty(maxval + 2, dtype=_e.int64, device=dev)]
        _launch(dev, "watershed.cuh", "em_watershed_ift", 1,
                (src, lab, i64(n),
                 _e.asarray(numpy.array(nstr + [0], numpy.int64), device=dev),
                 numpy.int32(len(nstr)),
                 _e.asarray(numpy.array(x.shape, numpy.int64), device=dev),
                 _e.asarray(numpy.array(strides, numpy.int64), device=dev),
                 numpy.int32(x.ndim), numpy.int32(maxval)) + tuple(ws),
                threads=1)
    y = lab.astype(out_t)
    if isinstance(output, _e.ndarray):
        output[...] = y
        return output
    return y


def distance_transform_cdt(input, metric="chessboard", return_distances=True,
                           return_indices=False, distances=None,
                           indices=None):
    """scipy.ndimage.distance_transform_cdt: the chamfer distance (int32)
    of each non-zero element to the nearest zero one over the metric's
    structure ('chessboard': every neighbour, 'taxicab': the faces, or a
    3 x ... x 3 array), and with return_indices the nearest zero's
    coordinates: SciPy's two raster passes (kernels/watershed.cuh's
    em_cdt_pass, sequential, so one thread), so ties pick SciPy's
    element. -1 where no zero element is reachable, as SciPy's."""
    import numpy
    x = _arr(input)
    dt_in, _ = _filters._transform_outputs(return_distances, return_indices,
                                           distances, indices)
    if isinstance(metric, str):
        if metric in ("taxicab", "cityblock", "manhattan"):
            st = generate_binary_structure(x.ndim, 1)
        elif metric == "chessboard":
            st = generate_binary_structure(x.ndim, x.ndim)
        else:
            raise ValueError("invalid metric provided")
    else:
        st = numpy.asarray(_e.asnumpy(metric) if isinstance(
            metric, _e.ndarray) else metric)
        if any(d != 3 for d in st.shape):
            raise ValueError("metric sizes must be equal to 3")
    if st.ndim != x.ndim:
        raise RuntimeError("structure and input must have equal rank")
    if x.ndim > 16:
        raise RuntimeError("too many dimensions")
    if dt_in:
        if distances.dtype != _e.int32:
            raise ValueError("distances must be of int32 type")
        if tuple(distances.shape) != tuple(x.shape):
            raise ValueError("distances has wrong shape")
    dt = _e.ascontiguousarray(_e.where(x != 0, -1, 0).astype(_e.int32))
    n = x.size
    ft = _e.arange(n, dtype=_e.int32, device=x.device) if return_indices \
        else _e.zeros(1, dtype=_e.int32, device=x.device)
    flat = st.reshape(-1) != 0
    offs = []
    for k in range(flat.size // 2):
        if flat[k]:
            offs.extend(int(v) - 1 for v in numpy.unravel_index(k, st.shape))
    if n and offs:
        dev = x.device
        args = (dt, ft, numpy.int32(return_indices), numpy.int64(n),
                _e.asarray(numpy.array(x.shape, numpy.int64), device=dev),
                numpy.int32(x.ndim),
                _e.asarray(numpy.array(offs, numpy.int64), device=dev),
                numpy.int32(len(offs) // x.ndim))
        for rev in (0, 1):
            _launch(dev, "watershed.cuh", "em_cdt_pass", 1,
                    args + (numpy.int32(rev),), threads=1)
    return _filters._transform_result(x, dt, ft, return_distances,
                                      return_indices, distances, indices,
                                      ValueError)
