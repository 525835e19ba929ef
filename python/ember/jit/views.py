"""Array views inside kernels: `a[1:5]`, `a[i, :]`, `sh[:n]`, `a[i]` of a
2-d array. A view is a data pointer, extents and strides (in elements)
held in C temporaries, or in a named variable's own C locals when it is
assigned (`row = a[i, :]`), so it can be indexed, sliced again, iterated,
measured and passed to device functions like any array. Slices follow
Python's rules (clipped, negative bounds and steps); an integer index in a
subscript that also slices is bounds-checked like an element access."""

from . import astlite as ast
from .ops import V, conv
from .types import Array, Scalar, Tuple, storage_c

I8 = Scalar("i8")


def subscript_items(tr, sl):
    """The items of a subscript: ast.Slice nodes as they are, everything
    else evaluated once (V); a tuple-valued index (`a[t]`) is spread."""
    if isinstance(sl, ast.Index):       # Python < 3.9
        sl = sl.value
    elts = list(sl.elts) if isinstance(sl, ast.Tuple) else [sl]
    out = []
    for e in elts:
        if isinstance(e, ast.Slice):
            out.append(e)
            continue
        v = tr.expr(e)
        if isinstance(v.type, Tuple) and not isinstance(sl, ast.Tuple):
            return list(v.code)
        out.append(v)
    return out


def _space(ref):
    s = ref.type.space
    return s if s in ("shared", "local", "const") else "param"


def make_view(tr, ref, elts, node):
    """The ArrayRef of view `ref[elts]` (subscript_items); its values are
    computed by statements emitted now (so a view cannot sit in a
    condition)."""
    nd = ref.type.ndim
    if len(elts) > nd:
        raise tr.error(node, "array '%s' has %d dimension%s but %d indices were given"
                       % (ref.name, nd, "" if nd == 1 else "s", len(elts)))
    if tr.cond_depth:
        raise tr.error(node, "a slice of array '%s' cannot be part of a condition, a "
                       "conditional expression or and/or: assign it to a variable first"
                       % ref.name)
    dt = ref.type.dtype
    data = tr.temp("%s *" % storage_c(dt))
    tr.emit("%s = %s;" % (data, ref.data))
    shapes, strides = [], []
    for k in range(nd):
        e = elts[k] if k < len(elts) else ast.Slice(lower=None, upper=None, step=None)
        if isinstance(e, ast.Slice):
            n_k, st_k = _slice_axis(tr, ref, k, e, data, node)
            shapes.append(n_k)
            strides.append(st_k)
        else:
            i = e
            if not isinstance(i.type, Scalar) or i.type.kind not in "biu":
                raise tr.error(node, "array '%s' index must be an integer or a slice, "
                               "not %r" % (ref.name, i.type))
            if tr.mod.checked:
                site = tr.mod.site(ref.name, tr.where, node) if tr.final else 0
                w = tr.temp("long long")
                # a failed check is recorded (IndexError after the launch);
                # the view then starts at the axis's first element
                tr.emit("%s = __emjit_ck(%s, %s, %d, %d, __emjit_err);"
                        % (w, conv(i, "i8"), ref.shapes[k], k, site))
                tr.emit("%s += (%s < 0 ? 0 : %s) * %s;" % (data, w, w, ref.strides[k]))
            else:
                tr.emit("%s += __emjit_wrap(%s, %s) * %s;" % (data, conv(i, "i8"),
                                                               ref.shapes[k], ref.strides[k]))
    from .emit import ArrayRef
    t = Array(dt, len(shapes), "A", _space(ref), None)
    return ArrayRef(ref.name, data, shapes, strides, t, ref.writable, is_view=True)


def _bound(tr, node, what, ref):
    if node is None:
        return None
    v = tr.expr(node)
    if not isinstance(v.type, Scalar) or v.type.kind not in "biu":
        raise tr.error(node, "slice %s of array '%s' must be an integer, not %r"
                       % (what, ref.name, v.type))
    return v


def _slice_axis(tr, ref, k, e, data, node):
    lo, hi = _bound(tr, e.lower, "start", ref), _bound(tr, e.upper, "stop", ref)
    step = _bound(tr, e.step, "step", ref)
    if step is not None and step.const == 0:
        raise tr.error(node, "slice step cannot be zero (array '%s')" % ref.name)
    if lo is None and hi is None and (step is None or step.const == 1):
        return ref.shapes[k], ref.strides[k]        # a whole axis
    n = tr.temp("long long")
    start = tr.temp("long long")
    st = conv(step, "i8") if step is not None else "1LL"
    tr.emit("%s = __emjit_slice(%s, %s, %s, %s, %d, %d, &%s);" % (
        n, ref.shapes[k], conv(lo, "i8") if lo is not None else "0LL",
        conv(hi, "i8") if hi is not None else "0LL", st, lo is not None,
        hi is not None, start))
    tr.emit("%s += %s * %s;" % (data, start, ref.strides[k]))
    if step is None or step.const == 1:
        return n, ref.strides[k]
    if step.const is not None:
        return n, "(%s * %s)" % (ref.strides[k], conv(step, "i8"))
    sv = tr.temp("long long")
    tr.emit("%s = %s;" % (sv, st))
    return n, "(%s * %s)" % (ref.strides[k], sv)


def bind(tr, name, ref, node):
    """Bind Python name to view (or array) ref: a variable that holds views
    gets C locals of its own, assigned here."""
    from .emit import ArrayRef
    vv = tr.view_vars.get(name)
    if vv is None:
        base = tr.cvar(name)
        t = Array(ref.type.dtype, ref.type.ndim, "A", _space(ref), None)
        vv = ArrayRef(name, base + "_data", ["%s_shape%d" % (base, k) for k in range(t.ndim)],
                      ["%s_stride%d" % (base, k) for k in range(t.ndim)], t, ref.writable,
                      is_view=True)
        tr.view_vars[name] = vv
    if vv.type.dtype != ref.type.dtype or vv.type.ndim != ref.type.ndim:
        raise tr.error(node, "variable '%s' would hold arrays of two kinds: %r and %r"
                       % (name, vv.type, ref.type))
    if vv.writable and not ref.writable:
        vv.writable = False
    tr.emit("%s = %s;" % (vv.data, ref.data))
    for a, b in zip(vv.shapes + vv.strides, ref.shapes + ref.strides):
        tr.emit("%s = %s;" % (a, b))
    tr.arrays[name] = vv
    return vv


def declarations(tr):
    """C declarations of the view variables."""
    out = []
    for vv in tr.view_vars.values():
        out.append("%s *%s = 0;" % (storage_c(vv.type.dtype), vv.data))
        for s in vv.shapes + vv.strides:
            out.append("long long %s = 0;" % s)
    return out


def element_or_row(tr, ref, idx_c, node):
    """ref[i] for the C index idx_c (in range by construction): an element
    of a 1-d array, else a view of the row."""
    if ref.type.ndim == 1:
        at, ld = tr.mod.access(ref.type.dtype, 1)
        from .emit import _from_storage
        c = "%s(%s)" % (ld, ", ".join(tr.access_args(ref, [idx_c], node)))
        return V(_from_storage(c, ref.type.dtype), Scalar(ref.type.dtype))
    dt = ref.type.dtype
    data = tr.temp("%s *" % storage_c(dt))
    tr.emit("%s = %s + %s * %s;" % (data, ref.data, idx_c, ref.strides[0]))
    from .emit import ArrayRef
    t = Array(dt, ref.type.ndim - 1, "A", _space(ref), None)
    return V(ArrayRef(ref.name, data, list(ref.shapes[1:]), list(ref.strides[1:]), t,
                      ref.writable, is_view=True), t)


def is_device_array(obj):
    """An ember array, or another library's GPU array (CuPy's, PyTorch's,
    Numba's: anything with __cuda_array_interface__ that is not NumPy's)."""
    from ember._ember import ndarray
    if isinstance(obj, ndarray):      # subclasses too (cuda.DeviceNDArray)
        return True
    t = type(obj)
    if t.__module__ == "numpy" or isinstance(obj, type):
        return False
    try:
        return isinstance(getattr(obj, "__cuda_array_interface__", None), dict)
    except Exception:     # a property that fails is no array
        return False


def captured_array(tr, arr, name, node):
    """An ember array read from the kernel's globals or closure: captured by
    pointer (as Numba captures device arrays), so the kernel reads and
    writes that memory. Its address, shape and strides are baked into the
    source; the function keeps a reference so the memory outlives it."""
    from .emit import ArrayRef
    from .types import code_of_name
    from ember._ember import ndarray
    ember_array = isinstance(arr, ndarray)
    dev = str(arr.device) if ember_array else "cuda"
    on_cpu = dev == "cpu"
    if on_cpu != (tr.mod.target == "cpu"):
        raise tr.error(node, "global array '%s' is on %s but the kernel is compiled for "
                       "%s: use an array on the kernel's device" % (name, dev, tr.mod.target))
    iface = arr.__array_interface__ if on_cpu else arr.__cuda_array_interface__
    ts = iface["typestr"]
    code = code_of_name(ts[1:]) if ts[:1] in ("<", ">", "|", "=") else None
    if code is None:
        raise tr.error(node, "global array '%s' of type %s cannot be used in kernels"
                       % (name, iface["typestr"]))
    item = int(code[1:])
    shape = tuple(int(d) for d in iface["shape"])
    if iface.get("strides") is None:
        strides, acc = [], 1
        for d in reversed(shape):
            strides.insert(0, acc)
            acc *= d
    else:
        if any(s % item for s in iface["strides"]):
            raise tr.error(node, "global array '%s' has strides %r that are not whole "
                           "elements" % (name, iface["strides"]))
        strides = [s // item for s in iface["strides"]]
    ptr = int(iface["data"][0])
    keep = tr.pyfunc.__dict__.setdefault("__ember_captured__", [])
    if not any(x is arr for x in keep):
        keep.append(arr)
    T = storage_c(code)
    t = Array(code, len(shape), "A", "param", None)
    return ArrayRef(name, "((%s *)%dULL)" % (T, ptr), ["%dLL" % d for d in shape],
                    ["(%dLL)" % s for s in strides], t, not iface["data"][1])
