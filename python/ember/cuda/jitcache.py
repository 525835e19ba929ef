"""The disk index of ember.cuda.jit translations (docs/jit-design.md
section 5). A new process that calls a kernel it has run before finds the
translated source here, by a key computed from what determines the
translation, and so never imports the translator (ember.jit); the source
then finds its binary in the kernel cache as every kernel does.

Entries go through the core's disk cache (file "jit-<hash>.emk" beside
the kernels), so they get its atomic writes, its content hashes and
`python -m ember info`'s count. The whole key is the entry's identity: a
hash collision is a miss, never a wrong kernel. A kernel that reads a
global ember cannot fingerprint (an arbitrary object) is not cached on
disk at all."""
import hashlib
import marshal
import os
import sys
import types

from ember import _ember
from ember.cuda import compilelog

_VERSION = 2          # bump when the layout of identities or payloads changes
_MARSHAL = 2          # writes no back-references, so the bytes are the same
                      # in every process
_MAX_DEPTH = 8        # device functions calling device functions
_MODULES = ("math", "cmath", "numpy", "ember", "numba")
_fingerprint = None


class _Uncacheable(Exception):
    """The function reads a value with no stable fingerprint."""


def _translator_fingerprint():
    """Names, sizes and modification times of the translator's files (its
    modules and the prelude it copies into every kernel): a new translator
    must not be handed an old translation. Computed once per process."""
    global _fingerprint
    if _fingerprint is None:
        root = os.path.join(os.path.dirname(os.path.dirname(__file__)), "jit")
        rows = []
        for d, dirs, files in os.walk(root):
            dirs[:] = [x for x in dirs if x != "__pycache__" and not x.startswith(".")]
            for f in files:
                if not f.startswith(".") and not f.endswith(".pyc"):
                    s = os.stat(os.path.join(d, f))
                    rows.append((os.path.relpath(os.path.join(d, f), root), s.st_size,
                                 s.st_mtime_ns))
        _fingerprint = hashlib.blake2b(repr(sorted(rows)).encode()).digest()
    return _fingerprint


def _is_constant(v):
    if v is None or type(v) in (bool, int, float, complex, str, bytes):
        return True
    return type(v) is tuple and all(_is_constant(x) for x in v)


def _qualname(v):
    return (str(getattr(v, "__module__", "?")),
            str(getattr(v, "__qualname__", getattr(v, "__name__", "?"))))


def _value(v, depth):
    from ember.cuda.dispatcher import Dispatcher, DeviceFunction
    if _is_constant(v):
        return ("V", marshal.dumps(v, _MARSHAL))
    if isinstance(v, types.ModuleType):
        # a user's module could hold constants the translator bakes in
        if not v.__name__.split(".")[0] in _MODULES:
            raise _Uncacheable
        return ("M", v.__name__)
    if isinstance(v, (Dispatcher, DeviceFunction)):
        # a device function's signatures convert its arguments and result
        return ("J", _function(v.py_func, depth + 1), _value(tuple(v.signatures), depth))
    if isinstance(v, types.FunctionType):
        return ("F", _function(v, depth + 1))
    if (isinstance(v, (type, types.BuiltinFunctionType)) or
            type(v).__name__ == "ufunc"):
        return ("T" if isinstance(v, type) else "C",) + _qualname(v)
    if hasattr(v, "_ember_type_code"):      # ember.cuda.types: their name
        return ("Y", str(v))
    if isinstance(v, _ember.ndarray):
        # captured by address (ember.jit.views.captured_array): only this
        # process may reuse the translation
        raise _Uncacheable
    try:
        m = memoryview(v)   # NumPy arrays and scalars: const.array_like bakes values
    except TypeError:
        raise _Uncacheable from None
    with m:
        return ("B", m.format, m.shape, hashlib.blake2b(m.tobytes()).digest())


def _names(code, globals_, depth):
    """Every global a code object (or one nested in it) reads."""
    out = []
    for name in code.co_names:
        if name in globals_:
            out.append((name, _value(globals_[name], depth)))
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            out.extend(_names(c, globals_, depth))
    return out


def _function(f, depth):
    if depth > _MAX_DEPTH or not isinstance(f, types.FunctionType):
        raise _Uncacheable
    cells = tuple(_value(c.cell_contents, depth) if _filled(c) else None
                  for c in f.__closure__ or ())
    return (marshal.dumps(f.__code__, _MARSHAL), _names(f.__code__, f.__globals__, depth),
            cells, _value(f.__defaults__, depth) if f.__defaults__ else None)


def _filled(cell):
    try:
        cell.cell_contents
    except ValueError:
        return False
    return True


def identity(py_func, argcodes, target, options):
    """The bytes that determine the translation, or None when the function
    reads something without a stable fingerprint."""
    try:
        parts = ("ember.jit", _VERSION, _ember.__version__, sys.hexversion,
                 _translator_fingerprint(), target, options, tuple(argcodes),
                 _function(py_func, 0))
        return repr(parts).encode()
    except Exception:   # _Uncacheable, or a value that fails to describe itself
        return None


def _name(ident):
    return "jit-" + hashlib.blake2b(ident, digest_size=16).hexdigest()


def _valid(t):
    return (type(t) is tuple and len(t) == 4 and isinstance(t[0], str) and
            isinstance(t[1], str) and isinstance(t[2], tuple))


def translation(py_func, argcodes, target, debug, boundscheck, options):
    """(source, name, sites, shared_dynamic): from the disk index when
    options (the jit options, None: cache=False) and the function's
    identity match an entry, else from the translator (then stored)."""
    t0 = compilelog.clock()
    ident = None if options is None else identity(py_func, argcodes, target, options)
    if ident is not None:
        payload = _ember._diskcache_load(_name(ident), ident)
        if payload is not None:
            try:
                t = marshal.loads(payload)
            except (EOFError, ValueError, TypeError):
                t = None
            if _valid(t):
                compilelog.phase("index", compilelog.clock() - t0)
                return t   # else a payload of another layout: translate again
    t1 = compilelog.clock()
    from ember.jit import translate
    t2 = compilelog.clock()
    r = translate(py_func, argcodes, debug=debug, target=target, boundscheck=boundscheck)
    t3 = compilelog.clock()
    t = (r.source, r.name, tuple(tuple(s) for s in r.sites),
         bool(getattr(r, "shared_dynamic", False)))
    if ident is not None:
        _ember._diskcache_store(_name(ident), ident, marshal.dumps(t, _MARSHAL))
    compilelog.phase("index", (t1 - t0) + (compilelog.clock() - t3))
    compilelog.phase("import", t2 - t1)
    return t
