"""The Arrow C Device Data Interface (`__arrow_c_device_array__`,
`__arrow_c_device_stream__`): PyCapsules holding ArrowSchema,
ArrowDeviceArray and ArrowDeviceArrayStream structs whose buffers are the
ember arrays' own memory, on the device that holds them (ARROW_DEVICE_CPU
or ARROW_DEVICE_CUDA and its ordinal), built with ctypes.

Lifetime: every struct's private_data is a key into _HELD, which keeps the
ember arrays and the ctypes memory its pointers reach. Its release
callback (called by the consumer, from any thread: ctypes takes the GIL)
releases the children not moved away, drops the key and marks the struct
released. A capsule's destructor releases a struct that nobody moved out
of it, then frees the capsule's own copy."""
import ctypes
import itertools

from ember.frame._dtypes import lookup

ARROW_DEVICE_CPU = 1
ARROW_DEVICE_CUDA = 2
_FLAG_NULLABLE = 2


class ArrowSchema(ctypes.Structure):
    pass


class ArrowArray(ctypes.Structure):
    pass


_SCHEMA_RELEASE = ctypes.CFUNCTYPE(None, ctypes.POINTER(ArrowSchema))
_ARRAY_RELEASE = ctypes.CFUNCTYPE(None, ctypes.POINTER(ArrowArray))
ArrowSchema._fields_ = [
    ("format", ctypes.c_char_p), ("name", ctypes.c_char_p),
    ("metadata", ctypes.c_char_p), ("flags", ctypes.c_int64),
    ("n_children", ctypes.c_int64),
    ("children", ctypes.POINTER(ctypes.POINTER(ArrowSchema))),
    ("dictionary", ctypes.POINTER(ArrowSchema)), ("release", _SCHEMA_RELEASE),
    ("private_data", ctypes.c_void_p)]
ArrowArray._fields_ = [
    ("length", ctypes.c_int64), ("null_count", ctypes.c_int64),
    ("offset", ctypes.c_int64), ("n_buffers", ctypes.c_int64),
    ("n_children", ctypes.c_int64), ("buffers", ctypes.POINTER(ctypes.c_void_p)),
    ("children", ctypes.POINTER(ctypes.POINTER(ArrowArray))),
    ("dictionary", ctypes.POINTER(ArrowArray)), ("release", _ARRAY_RELEASE),
    ("private_data", ctypes.c_void_p)]


class ArrowDeviceArray(ctypes.Structure):
    _fields_ = [("array", ArrowArray), ("device_id", ctypes.c_int64),
                ("device_type", ctypes.c_int32), ("sync_event", ctypes.c_void_p),
                ("reserved", ctypes.c_int64 * 3)]


class ArrowDeviceArrayStream(ctypes.Structure):
    pass


_GET_SCHEMA = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ArrowDeviceArrayStream),
                               ctypes.POINTER(ArrowSchema))
_GET_NEXT = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ArrowDeviceArrayStream),
                             ctypes.POINTER(ArrowDeviceArray))
_GET_ERROR = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.POINTER(ArrowDeviceArrayStream))
_STREAM_RELEASE = ctypes.CFUNCTYPE(None, ctypes.POINTER(ArrowDeviceArrayStream))
ArrowDeviceArrayStream._fields_ = [
    ("device_type", ctypes.c_int32), ("get_schema", _GET_SCHEMA),
    ("get_next", _GET_NEXT), ("get_last_error", _GET_ERROR),
    ("release", _STREAM_RELEASE), ("private_data", ctypes.c_void_p)]

_HELD = {}                 # private_data key -> what the struct's pointers reach
_CAPSULES = {}             # capsule pointer -> the ctypes struct it points to
_KEYS = itertools.count(1)


def _hold(objs):
    key = next(_KEYS)
    _HELD[key] = objs
    return key


def _release(p, released):
    """An ArrowSchema's or ArrowArray's release: the children first (those
    not moved away), then what the struct held."""
    s = p.contents
    for i in range(s.n_children):
        child = s.children[i]
        if child.contents.release:
            child.contents.release(child)
    _HELD.pop(s.private_data, None)
    s.release = released


_SCHEMA_RELEASE_C = _SCHEMA_RELEASE(lambda p: _release(p, _SCHEMA_RELEASE()))
_ARRAY_RELEASE_C = _ARRAY_RELEASE(lambda p: _release(p, _ARRAY_RELEASE()))


# ---- schemas

_FORMATS = {"bool": b"b", "int8": b"c", "uint8": b"C", "int16": b"s", "uint16": b"S",
            "int32": b"i", "uint32": b"I", "int64": b"l", "uint64": b"L",
            "float32": b"f", "float64": b"g"}


def _format(col):
    d = lookup(col.dtype)
    if d.is_string:
        return b"U" if str(col.offsets.dtype) == "int64" else b"u"
    if d.kind in "Mm":
        unit = d.name[d.name.index("[") + 1:-1][0].encode()
        return (b"ts" + unit + b":") if d.kind == "M" else (b"tD" + unit)
    return _FORMATS[d.storage]


def _fill_schema(s, fmt, name, children):
    """Fill ArrowSchema `s`: children a list of (format, name, [])."""
    fmt_b = fmt
    name_b = None if name is None else str(name).encode()
    kids = [ArrowSchema() for _ in children]
    for k, (f, n, sub) in zip(kids, children):
        _fill_schema(k, f, n, sub)
    ptrs = (ctypes.POINTER(ArrowSchema) * len(kids))(*[ctypes.pointer(k) for k in kids])
    s.format, s.name, s.metadata = fmt_b, name_b, None
    s.flags = _FLAG_NULLABLE
    s.n_children = len(kids)
    s.children = ctypes.cast(ptrs, ctypes.POINTER(ctypes.POINTER(ArrowSchema)))
    s.dictionary = None
    s.private_data = _hold((fmt_b, name_b, kids, ptrs))
    s.release = _SCHEMA_RELEASE_C


# ---- arrays

def _pointer(a):
    if a is None:
        return None
    if str(a.device) == "cpu":
        return a.__array_interface__["data"][0]
    return a.__cuda_array_interface__["data"][0]


def _fill_array(arr, length, null_count, buffers, children):
    """Fill ArrowArray `arr`: buffers are ember arrays (or None), children
    a list of (length, null_count, buffers, children)."""
    import ember
    bufs = [None if b is None else ember.ascontiguousarray(b) for b in buffers]
    ptrs = (ctypes.c_void_p * max(len(bufs), 1))(*[_pointer(b) for b in bufs])
    kids = [ArrowArray() for _ in children]
    for k, c in zip(kids, children):
        _fill_array(k, *c)
    kptrs = (ctypes.POINTER(ArrowArray) * len(kids))(*[ctypes.pointer(k) for k in kids])
    arr.length, arr.null_count, arr.offset = length, null_count, 0
    arr.n_buffers, arr.n_children = len(bufs), len(kids)
    arr.buffers = ctypes.cast(ptrs, ctypes.POINTER(ctypes.c_void_p))
    arr.children = ctypes.cast(kptrs, ctypes.POINTER(ctypes.POINTER(ArrowArray)))
    arr.dictionary = None
    arr.private_data = _hold((bufs, ptrs, kids, kptrs))
    arr.release = _ARRAY_RELEASE_C


def _column_parts(col):
    """(length, null_count, buffers, children) of one column."""
    from ember.frame._arrow import arrow_buffers
    bufs = arrow_buffers(col)
    nulls = 0 if bufs[0] is None else -1     # -1: not computed (no device sync)
    return col.length, nulls, bufs, []


def _device_of(cols, fallback):
    dev = str(cols[0].device) if cols else str(fallback or "cpu")
    if dev == "cpu":
        return ARROW_DEVICE_CPU, -1, dev
    return ARROW_DEVICE_CUDA, int(dev.split(":")[1]) if ":" in dev else 0, dev


def _synchronize(dev):
    """The consumer reads the buffers at once: the work that writes them
    must be done (sync_event is NULL, which says so)."""
    if dev != "cpu":
        import ember
        ember.Device(dev).synchronize()


def _parts(obj):
    """(schema format, name, children schemas, array parts, columns) of a
    Series (one array) or a DataFrame (a struct of its columns)."""
    if obj.ndim == 1:
        col = obj._col
        return _format(col), obj.name, [], _column_parts(col), [col]
    cols = list(obj._cols.values())
    kids = [(_format(c), k, []) for k, c in obj._cols.items()]
    return b"+s", "", kids, (len(obj), 0, [None], [_column_parts(c) for c in cols]), cols


# ---- capsules

# a handle of our own: setting argtypes on ctypes.pythonapi's functions
# would change them for every other user in the process
_py = ctypes.PyDLL(ctypes.pythonapi._name, handle=ctypes.pythonapi._handle)
_CAPSULE_DESTRUCTOR = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
_py.PyCapsule_New.restype = ctypes.py_object
_py.PyCapsule_New.argtypes = (ctypes.c_void_p, ctypes.c_char_p, _CAPSULE_DESTRUCTOR)
_py.PyCapsule_GetPointer.restype = ctypes.c_void_p
_py.PyCapsule_GetPointer.argtypes = (ctypes.c_void_p, ctypes.c_void_p)
_py.PyCapsule_GetName.restype = ctypes.c_void_p
_py.PyCapsule_GetName.argtypes = (ctypes.c_void_p,)
_NAMES = {"schema": b"arrow_schema", "array": b"arrow_device_array",
          "stream": b"arrow_device_array_stream"}


def _destroy(capsule, kind):
    # by the name it has now: a consumer may rename a capsule it used
    p = _py.PyCapsule_GetPointer(capsule, _py.PyCapsule_GetName(capsule))
    if not p:
        return
    struct = _CAPSULES.pop(p, None)
    if struct is None:
        return
    inner = struct.array if kind == "array" else struct
    if inner.release:   # nobody moved it out
        inner.release(ctypes.pointer(inner))


# the capsule keeps only a pointer, so the destructors live as long as
# the module (the capsules' names are module constants too)
_DESTRUCTORS = {k: _CAPSULE_DESTRUCTOR(lambda c, k=k: _destroy(c, k)) for k in _NAMES}


def _capsule(struct, kind):
    p = ctypes.addressof(struct)
    _CAPSULES[p] = struct
    return _py.PyCapsule_New(p, _NAMES[kind], _DESTRUCTORS[kind])


def _schema_capsule(fmt, name, kids):
    s = ArrowSchema()
    _fill_schema(s, fmt, name, kids)
    return _capsule(s, "schema")


def _device_array(obj):
    fmt, name, kids, parts, cols = _parts(obj)
    dtype, dev_id, dev = _device_of(cols, obj._dev())
    _synchronize(dev)
    d = ArrowDeviceArray()
    _fill_array(d.array, *parts)
    d.device_id, d.device_type, d.sync_event = dev_id, dtype, None
    return d, (fmt, name, kids), dtype


def device_array(obj, requested_schema=None, **kwargs):
    """(schema capsule, device array capsule) of a Series or DataFrame.
    requested_schema is not applied: the columns go as they are."""
    d, (fmt, name, kids), _ = _device_array(obj)
    return _schema_capsule(fmt, name, kids), _capsule(d, "array")


def device_stream(obj, requested_schema=None, **kwargs):
    """An ArrowDeviceArrayStream capsule of one batch: the whole object."""
    fmt, name, kids, _, cols = _parts(obj)
    dtype, _, _ = _device_of(cols, obj._dev())
    state = {"done": False, "error": None}

    def get_schema(stream, out):
        return _guarded(state, lambda: _fill_schema(out.contents, fmt, name, kids))

    def next_batch(out):
        if state["done"]:
            ctypes.memset(out, 0, ctypes.sizeof(ArrowDeviceArray))  # the end
            return
        d, _, _ = _device_array(obj)
        ctypes.memmove(out, ctypes.addressof(d), ctypes.sizeof(ArrowDeviceArray))
        state["done"] = True

    def get_next(stream, out):
        return _guarded(state, lambda: next_batch(out))

    def get_last_error(stream):
        return ctypes.cast(state["error"], ctypes.c_void_p).value

    def release(stream):
        s = stream.contents
        _HELD.pop(s.private_data, None)
        s.release = _STREAM_RELEASE()

    callbacks = (_GET_SCHEMA(get_schema), _GET_NEXT(get_next), _GET_ERROR(get_last_error),
                 _STREAM_RELEASE(release))
    st = ArrowDeviceArrayStream()
    st.device_type = dtype
    st.get_schema, st.get_next, st.get_last_error, st.release = callbacks
    st.private_data = _hold((obj, callbacks))
    return _capsule(st, "stream")


def _guarded(state, fn):
    """0, or EIO with the message kept for get_last_error (an exception
    must not cross into the consumer's C)."""
    try:
        fn()
        return 0
    except Exception as e:   # noqa: BLE001 - any failure is the stream's error
        state["error"] = ctypes.create_string_buffer(f"{type(e).__name__}: {e}".encode())
        return 5
