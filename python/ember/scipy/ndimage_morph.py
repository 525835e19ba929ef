"""ember.scipy.ndimage's binary morphology and object boxes (re-exported
by ember.scipy.ndimage), composed: a dilation is the convolution of the
mask with the structure (any structure element over a set pixel), an
erosion the correlation reaching the structure's full count, both with
the border taken as border_value; fill_holes labels the background and
keeps what does not touch the border; find_objects reads each label's
smallest and largest coordinates."""
import operator

import ember as _e
from ember._api._util import as_array as _arr

__all__ = ["binary_dilation", "binary_erosion", "binary_opening",
           "binary_closing", "binary_fill_holes", "find_objects",
           "binary_propagation", "iterate_structure", "grey_erosion",
           "grey_dilation", "grey_opening", "grey_closing",
           "morphological_gradient", "morphological_laplace",
           "white_tophat", "black_tophat", "binary_hit_or_miss"]



def _structure(structure, ndim):
    import numpy
    from ember.scipy.ndimage import generate_binary_structure
    s = generate_binary_structure(ndim, 1) if structure is None else \
        numpy.asarray(_e.asnumpy(structure) if isinstance(structure,
                                                          _e.ndarray)
                      else structure, bool)
    if s.ndim != ndim:
        raise RuntimeError("structure and input must have same dimensionality")
    if not s.any():
        raise ValueError("structure must not be empty")
    return s


def _iterate(step, x, iterations, mask):
    """step applied iterations times (until nothing changes when < 1),
    pixels outside mask left as they were."""
    x = x.astype(_e.bool_)
    m = None if mask is None else _arr(mask).astype(_e.bool_)
    n = 0
    while True:
        y = step(x)
        if m is not None:
            y = _e.where(m, y, x)
        n += 1
        if iterations >= 1 and n >= iterations:
            return y
        if iterations < 1 and bool(_e.all(y == x)):
            return y
        x = y


def _deliver(y, output):
    if output is None:
        return y
    if isinstance(output, _e.ndarray):
        output[...] = y
        return output
    return y.astype(output)


def _morph(input, structure, iterations, mask, output, border_value,
           origin, dilate):
    """A dilation (the convolution with the structure over 0) or an
    erosion (the correlation reaching the structure's count), the border
    taken as border_value."""
    from ember.scipy.ndimage_filters import convolve, correlate
    x = _arr(input)
    s = _structure(structure, x.ndim)
    count = float(s.sum())
    f = convolve if dilate else correlate

    def step(y):
        r = f(y.astype(_e.float64), s.astype(float), mode="constant",
              cval=float(bool(border_value)), origin=origin)
        return r > 0 if dilate else r >= count
    return _deliver(_iterate(step, x, iterations, mask), output)


def binary_dilation(input, structure=None, iterations=1, mask=None,
                    output=None, border_value=0, origin=0,
                    brute_force=False):
    """scipy.ndimage.binary_dilation: a pixel is set where the structure,
    placed on a set pixel, covers it."""
    return _morph(input, structure, iterations, mask, output, border_value,
                  origin, dilate=True)


def binary_erosion(input, structure=None, iterations=1, mask=None,
                   output=None, border_value=0, origin=0,
                   brute_force=False):
    """scipy.ndimage.binary_erosion: a pixel stays set where the structure
    centred on it covers only set pixels."""
    return _morph(input, structure, iterations, mask, output, border_value,
                  origin, dilate=False)


def _then(first, second, input, structure, iterations, output, origin,
          mask, border_value):
    """second(first(input)) with the same structure, as opening and closing
    compose them; only the second writes to output."""
    t = first(_arr(input), structure, iterations, mask, None, border_value,
              origin)
    return second(t, structure, iterations, mask, output, border_value,
                  origin)


def binary_opening(input, structure=None, iterations=1, output=None,
                   origin=0, mask=None, border_value=0, brute_force=False):
    """scipy.ndimage.binary_opening: erosion, then dilation."""
    return _then(binary_erosion, binary_dilation, input, structure,
                 iterations, output, origin, mask, border_value)


def binary_closing(input, structure=None, iterations=1, output=None,
                   origin=0, mask=None, border_value=0, brute_force=False):
    """scipy.ndimage.binary_closing: dilation, then erosion."""
    return _then(binary_dilation, binary_erosion, input, structure,
                 iterations, output, origin, mask, border_value)


def binary_fill_holes(input, structure=None, output=None, origin=0):
    """scipy.ndimage.binary_fill_holes: the background regions (connected
    through structure) that do not reach the border become set: the
    background's labels that touch no face (a symmetric structure), or
    SciPy's flood from the border (a one-sided one)."""
    from ember.scipy.ndimage import label
    x = _arr(input).astype(_e.bool_)
    s = _structure(structure, x.ndim)
    if not (s == s[(slice(None, None, -1),) * s.ndim]).all():
        # a one-sided structure floods one way: SciPy's own route, the
        # background dilated in from the border until it stops
        outside = binary_dilation(_e.zeros(x.shape, dtype=_e.bool_,
                                           device=x.device), s, -1, ~x,
                                  None, 1, origin)
        return _deliver(~outside, output)
    lab, n = label(~x, s)
    if n == 0 or x.ndim == 0:
        return _deliver(x, output)
    faces = []
    for ax in range(x.ndim):
        for end in (0, -1):
            faces.append(_e.take(lab, [end], axis=ax).reshape(-1))
    outside = _e.unique(_e.concatenate(faces))
    holes = (lab > 0) & ~_e.isin(lab, outside)
    return _deliver(x | holes, output)


def find_objects(input, max_label=0):
    """scipy.ndimage.find_objects: for each label 1..max_label (the
    largest present when 0), the tuple of slices bounding its pixels, or
    None where it has none."""
    x = _arr(input)
    max_label = operator.index(max_label)
    if x.dtype.kind == "c":
        raise TypeError("Complex type not supported")
    if max_label < 1 and x.dtype.kind not in "iu":
        # SciPy takes the input's largest value as the label count and
        # refuses one that is not an integer ("'numpy.float64' object
        # cannot be interpreted as an integer"); with max_label it reads
        # any real input, each value truncated to an integer label
        raise TypeError(f"find_objects: the largest label of a {x.dtype} "
                        "input cannot be interpreted as an integer; give "
                        "max_label or an integer input")
    if max_label < 1 and not x.size:
        raise ValueError("zero-size array to reduction operation maximum "
                         "which has no identity")
    if x.dtype.kind == "b":
        x = x.astype(_e.uint8)
    top = max_label if max_label > 0 else int(_e.max(x))
    if top <= 0:
        return []
    nd = x.ndim
    flat = x.reshape(-1)
    x = flat if nd == 0 else x      # a 0-d label's box is ()
    # SciPy's label index is the value less one, truncated: 0.5 is label
    # 1 and -0.5 none; compared before the cast, so NaN and values past
    # int64 are no label
    keep = (flat > 0) & (flat < top + 1)
    lab = (flat[keep] - 1).astype(_e.int64)
    coords = _e.indices(x.shape, dtype=_e.int64, device=x.device)
    lo, hi = [], []
    for d in range(x.ndim):
        c = coords[d].reshape(-1)[keep]
        mn = _e.full(top, 2 ** 62, dtype=_e.int64, device=x.device)
        mx = _e.full(top, -1, dtype=_e.int64, device=x.device)
        _e.minimum.at(mn, lab, c)
        _e.maximum.at(mx, lab, c)
        lo.append(_e.asnumpy(mn))
        hi.append(_e.asnumpy(mx))
    out = []
    for i in range(top):
        if hi[0][i] < 0:
            out.append(None)
        else:
            out.append(tuple(slice(int(lo[d][i]), int(hi[d][i]) + 1)
                             for d in range(nd)))
    return out


def binary_propagation(input, structure=None, mask=None, output=None,
                       border_value=0, origin=0):
    """scipy.ndimage.binary_propagation: binary_dilation repeated until
    nothing changes, within mask."""
    return binary_dilation(input, structure, -1, mask, output, border_value,
                           origin)


def iterate_structure(structure, iterations, origin=None):
    """scipy.ndimage.iterate_structure: structure dilated by itself
    iterations - 1 times (and the origin times iterations when one is
    given). A NumPy structure gives a NumPy one, as
    generate_binary_structure does; an ember one stays on its device."""
    import numpy
    host = not isinstance(structure, _e.ndarray)
    s = _e.asarray(numpy.asarray(structure)) if host else structure
    if iterations < 2:
        out = s.copy()
    else:
        ni = iterations - 1
        shape = [n + ni * (n - 1) for n in s.shape]
        pos = [ni * (n // 2) for n in s.shape]
        out = _e.zeros(shape, dtype=_e.bool_, device=s.device)
        out[tuple(slice(p, p + n) for p, n in zip(pos, s.shape))] = s != 0
        out = binary_dilation(out, s, iterations=ni)
    if host:
        out = _e.asnumpy(out)
    if origin is None:
        return out
    org = [origin] * s.ndim if numpy.isscalar(origin) else list(origin)
    return out, [iterations * o for o in org]


def _grey(input, size, footprint, structure, output, mode, cval, origin,
          dilate):
    """SciPy's grey_erosion (the minimum of x - structure over the
    footprint) and grey_dilation (the maximum of x + structure over the
    mirrored footprint, the origin negated and moved one back along
    even-sized axes), through the min/max filters' kernels."""
    import numpy
    from ember.scipy.ndimage_filters import _minmax
    if size is None and footprint is None and structure is None:
        raise ValueError("size, footprint, or structure must be specified")
    x = _arr(input)
    if not dilate:
        return _minmax(x, size, footprint, output, mode, cval, origin, 0,
                       None, structure)

    def host(a):
        return None if a is None else numpy.asarray(
            _e.asnumpy(a) if isinstance(a, _e.ndarray) else a)
    structure, footprint = host(structure), host(footprint)
    if structure is not None:
        structure = structure[(slice(None, None, -1),) * structure.ndim]
    if footprint is not None:
        footprint = footprint[(slice(None, None, -1),) * footprint.ndim]
    org = [origin] * x.ndim if numpy.isscalar(origin) else list(origin)
    if len(org) != x.ndim:
        raise RuntimeError("sequence argument must have length equal to "
                           "input rank")
    for i in range(x.ndim):
        org[i] = -org[i]
        if footprint is not None:
            sz = footprint.shape[i]
        elif structure is not None:
            sz = structure.shape[i]
        elif numpy.isscalar(size):
            sz = size
        else:
            sz = size[i]
        if not sz & 1:
            org[i] -= 1
    return _minmax(x, size, footprint, output, mode, cval, org, 1, None,
                   structure)


def grey_erosion(input, size=None, footprint=None, structure=None,
                 output=None, mode="reflect", cval=0.0, origin=0):
    """scipy.ndimage.grey_erosion: the minimum over the footprint of the
    input less the structure (flat: minimum_filter)."""
    return _grey(input, size, footprint, structure, output, mode, cval,
                 origin, False)


def grey_dilation(input, size=None, footprint=None, structure=None,
                  output=None, mode="reflect", cval=0.0, origin=0):
    """scipy.ndimage.grey_dilation: the maximum over the mirrored
    footprint of the input plus the mirrored structure."""
    return _grey(input, size, footprint, structure, output, mode, cval,
                 origin, True)


def _warn_size(size, footprint):
    if size is not None and footprint is not None:
        import warnings
        warnings.warn("ignoring size because footprint is set",
                      UserWarning, stacklevel=3)


def grey_opening(input, size=None, footprint=None, structure=None,
                 output=None, mode="reflect", cval=0.0, origin=0):
    """scipy.ndimage.grey_opening: erosion, then dilation."""
    _warn_size(size, footprint)
    t = grey_erosion(input, size, footprint, structure, None, mode, cval,
                     origin)
    return grey_dilation(t, size, footprint, structure, output, mode, cval,
                         origin)


def grey_closing(input, size=None, footprint=None, structure=None,
                 output=None, mode="reflect", cval=0.0, origin=0):
    """scipy.ndimage.grey_closing: dilation, then erosion."""
    _warn_size(size, footprint)
    t = grey_dilation(input, size, footprint, structure, None, mode, cval,
                      origin)
    return grey_erosion(t, size, footprint, structure, output, mode, cval,
                        origin)


def _into(y, output):
    if isinstance(output, _e.ndarray):
        output[...] = y
        return output
    return y


def morphological_gradient(input, size=None, footprint=None,
                           structure=None, output=None, mode="reflect",
                           cval=0.0, origin=0):
    """scipy.ndimage.morphological_gradient: dilation less erosion (in
    the input's dtype, as SciPy subtracts)."""
    a = (input, size, footprint, structure, None, mode, cval, origin)
    return _into(grey_dilation(*a) - grey_erosion(*a), output)


def morphological_laplace(input, size=None, footprint=None,
                          structure=None, output=None, mode="reflect",
                          cval=0.0, origin=0):
    """scipy.ndimage.morphological_laplace: dilation plus erosion less
    twice the input, term by term in the input's dtype as SciPy's."""
    x = _arr(input)
    a = (x, size, footprint, structure, None, mode, cval, origin)
    return _into(grey_dilation(*a) + grey_erosion(*a) - x - x, output)


def _tophat(input, size, footprint, structure, output, mode, cval, origin,
            white):
    _warn_size(size, footprint)
    x = _arr(input)
    a = (size, footprint, structure, None, mode, cval, origin)
    if white:
        t = grey_dilation(grey_erosion(x, *a), *a)
    else:
        t = grey_erosion(grey_dilation(x, *a), *a)
    if x.dtype == _e.bool_ and t.dtype == _e.bool_:
        y = x ^ t
    else:
        y = x - t if white else t - x
    return _into(y, output)


def white_tophat(input, size=None, footprint=None, structure=None,
                 output=None, mode="reflect", cval=0.0, origin=0):
    """scipy.ndimage.white_tophat: the input less its grey opening."""
    return _tophat(input, size, footprint, structure, output, mode, cval,
                   origin, True)


def black_tophat(input, size=None, footprint=None, structure=None,
                 output=None, mode="reflect", cval=0.0, origin=0):
    """scipy.ndimage.black_tophat: the grey closing less the input."""
    return _tophat(input, size, footprint, structure, output, mode, cval,
                   origin, False)


def binary_hit_or_miss(input, structure1=None, structure2=None, output=None,
                       origin1=0, origin2=None):
    """scipy.ndimage.binary_hit_or_miss: where structure1 fits the set
    pixels and structure2 (default: structure1's complement) the unset
    ones: the erosion of the input by structure1 and of its complement by
    structure2, the border counting as unset for the first and as set for
    the second, as SciPy's inverted erosion takes it. An all-zero
    structure2 constrains nothing."""
    import numpy
    from ember.scipy.ndimage import generate_binary_structure
    x = _arr(input).astype(_e.bool_)

    def host(st):
        return numpy.asarray(_e.asnumpy(st) if isinstance(st, _e.ndarray)
                             else st, bool)
    s1 = generate_binary_structure(x.ndim, 1) if structure1 is None \
        else host(structure1)
    s2 = ~s1 if structure2 is None else host(structure2)
    if origin2 is None:
        origin2 = origin1
    hit = binary_erosion(x, s1, origin=origin1) if s1.any() else \
        _e.ones(x.shape, dtype=_e.bool_, device=x.device)
    if s2.any():
        hit = hit & binary_erosion(~x, s2, border_value=1, origin=origin2)
    return _deliver(hit, output)
