"""ember.vectorize: ufuncs from scalar Python functions, with Numba's
spelling (also as a bare decorator).

The scalar function is translated once per signature by
ember.jit.translate_device into a __device__ function, the preamble of an
ElementwiseKernel `y = f(x0, x1, ...)`. A call picks the signature by the
inputs' dtypes (the first exact match, else the first that NumPy's safe
casting reaches; a vectorize without signatures compiles the inputs' own
types on first sight); the kernel object does the rest in C.

Devices: ember arrays stay where they are; other array-likes (NumPy
arrays) are copied to the target's device (target='cuda': the current
device, which is cpu on a machine without a GPU; 'cpu' and 'parallel':
cpu), and when no input was an ember array the result comes back as a
NumPy array, as Numba's CUDA ufuncs return host arrays for host inputs."""
from ember import _ember as _e

MAX_IN = 16
# The C type of each dtype the ufunc builders take (16-bit floats and
# complex are refused: their C types differ between kernels and the
# translator).
CTYPES = {"bool": "bool", "int8": "signed char", "int16": "short",
          "int32": "int", "int64": "long long", "uint8": "unsigned char",
          "uint16": "unsigned short", "uint32": "unsigned int",
          "uint64": "unsigned long long", "float32": "float",
          "float64": "double"}


def check_target(target):
    """Whether the target computes host inputs on the cpu device."""
    if target is None:
        return False
    if target not in ("cuda", "cpu", "parallel"):
        raise ValueError("target must be 'cuda', 'cpu' or 'parallel'")
    return target != "cuda"


def check_supported(what, name, dt):
    if dt.name not in CTYPES:
        raise NotImplementedError(
            f"{what} '{name}': {dt.name} is not supported yet (bool, the "
            "integer types, float32 and float64 are)")


def code(dt):
    return f"{dt.kind}{dt.itemsize}"


def translate(pyfunc, codes):
    """(source, C name, result code) of pyfunc over argument codes."""
    from ember.jit import translate_device
    return translate_device(pyfunc, tuple(codes))


def stream_arg(stream):
    return None if stream is None or (type(stream) is int and stream == 0) \
        else stream


def scalar_dtype(o):
    """(dtype, weak) of a scalar operand as the kernels read it (Python
    numbers weak, NumPy scalars strong); None for an array."""
    t = type(o)
    if t is bool:
        return _e.dtype("bool"), True
    if t is float:
        return _e.dtype("float64"), True
    if t is complex:
        return _e.dtype("complex128"), True
    if isinstance(o, (_e.ndarray, str, bytes)):
        return None
    if getattr(o, "ndim", None) == 0 and hasattr(o, "dtype"):
        return _e.dtype(o.dtype), False
    if isinstance(o, int):
        return _e.dtype("int64" if o < 2**63 else "uint64"), True
    if isinstance(o, float):
        return _e.dtype("float64"), True
    if isinstance(o, complex):
        return _e.dtype("complex128"), True
    return None


def operands(objs, cpu_target):
    """(operands, dtypes, weak flags, host_only, any_array): ember arrays
    and scalars as they are, other array-likes on the right device (all
    scalars: the first as a 0-d array, which sets the loop)."""
    ops, dts, weak, pending = list(objs), [], [], []
    dev = None
    for j, o in enumerate(objs):
        if isinstance(o, _e.ndarray):
            dev = dev or o.device
            dts.append(o.dtype)
            weak.append(False)
            continue
        s = scalar_dtype(o)
        if s is None:
            pending.append(j)
            dts.append(None)
            weak.append(False)
        else:
            dts.append(s[0])
            weak.append(s[1])
    host_only = dev is None
    any_array = not host_only or bool(pending)
    if dev is None:
        dev = "cpu" if cpu_target else None
    if not any_array and objs:
        pending = [0]
    for j in pending:
        ops[j] = _e.asarray(objs[j], device=dev)
        dts[j] = ops[j].dtype
        weak[j] = False
    return ops, dts, weak, host_only, any_array


def finish(r, to_host, scalar):
    """The call's result: as NumPy when every input came from the host."""
    if not to_host:
        return r
    r = r.get()
    return r[()] if scalar else r


def _weak_ok(frm, to):
    k, f = to.kind, frm.kind
    if f == "b":
        return True
    if f in "iu":
        return k in "iufc"
    if f == "f":
        return k in "fc"
    return k == "c"


def _argcount(f):
    code_obj = getattr(f, "__code__", None)
    if code_obj is None:
        raise TypeError("vectorize needs a Python function, not "
                        f"'{type(f).__name__}'")
    n = code_obj.co_argcount
    if n > MAX_IN:
        raise ValueError(f"vectorize: {n} arguments (at most {MAX_IN})")
    return n


def _parse_sig(sig):
    """A signature string -> (result dtype or None for void, input
    dtypes)."""
    from ember.jit import parse_signature_full
    rc, args = parse_signature_full(sig)
    out = None
    if rc != "void":
        try:
            out = _e.dtype(rc)
        except (TypeError, ValueError):
            raise TypeError(f"signature {sig!r}: the result must be a scalar "
                            "type") from None
    if len(args) > MAX_IN:
        raise ValueError(f"signature {sig!r}: more than {MAX_IN} inputs")
    ins = []
    for c in args:
        try:
            ins.append(_e.dtype(c))
        except (TypeError, ValueError):
            raise TypeError(f"signature {sig!r}: vectorize takes scalar "
                            f"types, not '{c}'") from None
    return out, tuple(ins)


class VectorizedUfunc:
    """A ufunc made by ember.vectorize: call it on ember arrays, NumPy
    arrays or scalars (broadcasting, out=)."""
    nout = 1

    def __init__(self, f, signatures, cpu_target):
        if not callable(f):
            raise TypeError("vectorize decorates a function")
        self.py_func = f
        self.__name__ = f.__name__
        self.nin = _argcount(f)
        self._cpu = cpu_target
        self._lazy = signatures is None
        self._sigs = []           # (input dtypes, result dtype, kernel)
        self._reducer = None
        if self._lazy:
            self._sigs_src = []
            return
        sigs = (signatures,) if isinstance(signatures, str) \
            else tuple(signatures)
        self._sigs_src = sigs
        for sig in sigs:
            out, ins = _parse_sig(sig)
            if len(ins) != self.nin or out is None:
                raise TypeError(f"signature {sig!r} does not suit "
                                f"'{self.__name__}' ({self.nin} arguments "
                                "and a result needed)")
            self._add(ins, out)

    def _add(self, ins, out=None):
        name = self.__name__
        for d in ins:
            check_supported("vectorize", name, d)
        src, cname, rcode = translate(self.py_func, [code(d) for d in ins])
        if rcode == "none":
            raise TypeError(f"vectorize '{name}': the function returns "
                            "nothing")
        if out is None:
            try:
                out = _e.dtype(rcode)
            except (TypeError, ValueError):
                raise TypeError(f"vectorize '{name}': the function returns "
                                f"{rcode}, which is not a scalar type") \
                    from None
        check_supported("vectorize", name, out)
        args = ", ".join(f"({CTYPES[d.name]})x{j}" for j, d in enumerate(ins))
        k = _e.ElementwiseKernel(
            ", ".join(f"T{j} x{j}" for j in range(len(ins))),
            f"{out.name} y", f"y = ({CTYPES[out.name]}){cname}({args})",
            name="ember_vectorize", preamble=src, reduce_dims=True)
        self._sigs.append((tuple(ins), out, k))
        return k

    def _pick(self, dts, weak):
        best = None
        for ins, _, k in self._sigs:
            exact, ok = True, True
            for d, w, want in zip(dts, weak, ins):
                if d != want:
                    exact = False
                    ok = _weak_ok(d, want) if w else \
                        _e.can_cast(d, want, "safe")
                    if not ok:
                        break
            if ok and exact:
                return k
            if ok and best is None:
                best = k
        return best

    def __call__(self, *args, out=None, stream=None):
        n = len(args)
        if n not in (self.nin, self.nin + 1):
            raise TypeError(f"{self.__name__}() takes {self.nin} arguments "
                            f"(and an optional out), {n} given")
        if n > self.nin:
            out, args = args[-1], args[:-1]
        if out is not None and not isinstance(out, _e.ndarray):
            raise TypeError(f"{self.__name__}(): out must be an ember "
                            f"ndarray, not '{type(out).__name__}'")
        stream = stream_arg(stream)
        ops, dts, weak, host_only, any_array = operands(args, self._cpu)
        if self._lazy:
            dts = tuple(dts)
            k = next((k for ins, _, k in self._sigs if ins == dts), None) \
                or self._add(dts)
        else:
            k = self._pick(dts, weak)
        if k is None:
            types = ", ".join(d.name for d in dts)
            raise TypeError(f"ufunc '{self.__name__}' not supported for the "
                            f"input types ({types}); its signatures are "
                            f"{self._sigs_src!r}")
        if out is not None:
            k(*ops, out, stream=stream)
            return out
        return finish(k(*ops, stream=stream), host_only, not any_array)

    @property
    def types(self):
        """The compiled loops as NumPy's ufunc.types strings ('ff->f')."""
        return ["".join(d.char for d in ins) + "->" + out.char
                for ins, out, _ in self._sigs]

    def reduce(self, *args, **kwargs):
        """As NumPy's ufunc.reduce, for binary functions (the reduction
        runs in the array's dtype)."""
        if self.nin != 2:
            raise ValueError("reduce only supported for binary functions "
                             f"('{self.__name__}' takes {self.nin} "
                             "arguments)")
        if self._reducer is None:
            from ember._api.ufunc_reduce import reduce
            self._reducer = reduce(self.py_func)
        return self._reducer.reduce(*args, **kwargs)

    def __repr__(self):
        return (f"<ember.vectorize ufunc '{self.__name__}' nin={self.nin}, "
                f"{len(self._sigs)} compiled signature(s)>")


def vectorize(signatures=None, target=None, identity=None, cache=None):
    """A decorator making a broadcasting ufunc of a scalar Python function
    (Numba's spelling); also usable bare as @vectorize. signatures:
    'float32(float32, float32)' strings; without them each new set of
    input dtypes compiles on first sight. target 'cpu' or 'parallel'
    computes host inputs on the cpu device."""
    cpu = check_target(target)
    if callable(signatures) and not isinstance(signatures, str):
        return VectorizedUfunc(signatures, None, cpu)
    return lambda f: VectorizedUfunc(f, signatures, cpu)
