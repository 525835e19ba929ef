"""Python device functions (cuda.jit(device=True)) as ember.parallel
operators, predicates and transforms.

A device function is translated once per (function, argument dtypes) by
ember.jit.translate_device into a __device__ C function; the operator is
then the expression "name(a, b)" with that source as its definitions
(include/ember/parallel.h, EM_PAR_PRELUDE_SEP), so the kernels are
generated, keyed and cached as for a C expression. The joined string is
kept in a dict on the Python function, so a repeated call runs no
translator and builds no string."""
from ember import _ember as _e
from ember.cuda import DeviceFunction

_SEP = "\x1e"    # EM_PAR_PRELUDE_SEP


def is_devfn(o):
    return isinstance(o, DeviceFunction)


def not_devfn(o, fn, what):
    """The TypeError for a callable that is not a device function."""
    name = getattr(o, "__name__", "?")
    return TypeError(f"{fn}: {what} '{name}' is not a device function: "
                     "decorate a Python function with "
                     "@ember.cuda.jit(device=True), or pass a C expression "
                     "string")


def _name(f):
    return f.py_func.__name__


def _code(dt):
    """The translator's type code of a value dtype; None where the C type
    differs between the parallel kernels and the translator (float16 is
    bits there, complex a struct)."""
    d = _e.dtype(dt)
    if d.kind in "biu" or (d.kind == "f" and d.itemsize in (4, 8)):
        return f"{d.kind}{d.itemsize}"
    return None


def _unsupported(f, fn, dt):
    return NotImplementedError(
        f"{fn}: device function '{_name(f)}' on {_e.dtype(dt).name} values "
        "is not supported (bool, the integer types, float32 and float64 are)")


def _result_dtype(f, fn, code):
    try:
        d = _e.dtype(code)
    except (TypeError, ValueError):
        d = None
    if d is None or _code(d) is None:
        got = "nothing" if code == "none" else code
        raise TypeError(f"{fn}: device function '{_name(f)}' returns {got}, "
                        "not a scalar of a supported type (bool, an integer, "
                        "float32 or float64)")
    return d


def _check_cast(f, fn, res, want, what=""):
    if not _e.can_cast(res, want, "same_kind"):
        want = _e.dtype(want).name
        raise TypeError(f"{fn}: device function '{_name(f)}' returns "
                        f"{res.name}{what}, which does not cast to the value "
                        f"type {want} (same_kind casting): make it return "
                        f"{want}, or give the values another dtype")


def _cached(f, key, make):
    cache = f.py_func.__dict__.setdefault("__ember_parallel_ops__", {})
    ent = cache.get(key)
    if ent is None:
        ent = cache[key] = make()
    return ent


def _translate(f, codes):
    from ember.jit import translate_device
    return translate_device(f.py_func, tuple(codes))


def expr(f, fn, dt, nargs, want=None):
    """(expression, result dtype) of f applied to nargs arguments named a,
    b, c, ... of dtype dt; want: a dtype the result must cast to."""
    if not 1 <= nargs <= 8:
        raise ValueError(f"{fn}: 1 to 8 inputs, not {nargs}")
    code = _code(dt)
    if code is None:
        raise _unsupported(f, fn, dt)

    def make():
        src, cname, rcode = _translate(f, [code] * nargs)
        res = _result_dtype(f, fn, rcode)
        args = ", ".join("abcdefgh"[:nargs])
        return f"{src}{_SEP}{cname}({args})", res
    e, res = _cached(f, (nargs, _e.dtype(dt).name), make)
    if want is not None:
        _check_cast(f, fn, res, want)
    return e, res


def tuple_exprs(f, fn, dts):
    """The component expressions of f over tuple values of dtypes dts: f
    takes (a0, ..., b0, ...) and returns a tuple whose components cast to
    dts; the first expression carries the definitions."""
    n = len(dts)
    codes = [_code(d) for d in dts]
    for d, c in zip(dts, codes):
        if c is None:
            raise _unsupported(f, fn, d)

    def make():
        src, cname, rcode = _translate(f, codes + codes)
        parts = rcode[1:-1].split(",") if rcode[:1] == "(" else []
        if len(parts) != n or not rcode.endswith(")") or not all(parts):
            got = "nothing" if rcode == "none" else rcode
            raise TypeError(f"{fn}: device function '{_name(f)}' returns "
                            f"{got} for tuple values of {n} components: "
                            f"return a tuple of {n} scalars")
        for p, want in zip(parts, dts):
            _check_cast(f, fn, _result_dtype(f, fn, p), want,
                        " in a tuple component")
        args = ", ".join([f"a{k}" for k in range(n)] +
                         [f"b{k}" for k in range(n)])
        return tuple((src + _SEP if k == 0 else "") + f"{cname}({args}).f{k}"
                     for k in range(n))
    return _cached(f, ("tuple",) + tuple(_e.dtype(d).name for d in dts), make)
