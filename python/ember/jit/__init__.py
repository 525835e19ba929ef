"""ember.jit: Python kernels translated to kernel C (docs/jit-design.md).

translate(pyfunc, argcodes, debug=False, target='cuda') gives the source of
one `extern "C" __global__` kernel specialised on the argument type codes
('Af4_1C', 'i8', ...), which NVRTC and the host C compiler both compile;
translate_device gives a `__device__` function for vectorize and the
parallel primitives; parse_signature reads Numba's signature strings.
"""
import sys as _sys
import types as _types
from collections import namedtuple

from .module import Module
from .types import (parse_argcode, parse_signature, parse_signature_full, argcode_of, NONE,
                    signature_strings)

__all__ = ["translate", "translate_device", "Translation", "parse_signature",
           "parse_signature_full", "signature_strings", "compile_times"]

Translation = namedtuple("Translation", "source name sites shared_dynamic")
Translation.__doc__ = """A translated kernel: `source` (C), `name` (of the
__global__ function), `sites` (tuple of (array name, file, line) by bounds
check site id), `shared_dynamic` (whether it uses cuda.shared.array(0, ...))."""


def _check_target(target):
    if target not in ("cuda", "cpu"):
        raise ValueError("target must be 'cuda' or 'cpu', not %r" % (target,))


def _argtypes(argcodes):
    if isinstance(argcodes, str):
        raise TypeError("argcodes must be a sequence of type codes, not a str")
    return [parse_argcode(c) for c in argcodes]


def translate(pyfunc, argcodes, *, debug=False, target="cuda", boundscheck=None):
    """The kernel C of Python function pyfunc for arguments of the given
    type codes. Bounds checks are on for target 'cpu' and, with debug, for
    'cuda', unless boundscheck is True or False; the kernel then takes
    `long long *__emjit_err` last."""
    from ember.cuda import compilelog
    t0 = compilelog.clock()
    from .emit import FunctionTranslator
    _check_target(target)
    checked = bool(debug) or target == "cpu" if boundscheck is None else bool(boundscheck)
    mod = Module(checked=checked, target=target)
    t1 = compilelog.clock()
    ft = FunctionTranslator(mod, pyfunc, _argtypes(argcodes), kind="kernel")
    t2 = compilelog.clock()
    text = ft.translate()
    t3 = compilelog.clock()
    compilelog.phase("import", t1 - t0)
    compilelog.phase("parse", t2 - t1)
    compilelog.phase("translate", t3 - t2)
    links = getattr(pyfunc, "__ember_link__", None)
    if links and mod.externs:
        # cuda.jit(link=...): only with a foreign function called, which
        # also keeps the translation off the disk index (the files may change)
        from ember.cuda.ffi import read_links
        for path, src in read_links(links):
            mod.links.setdefault(path, src)
    source = mod.source(text)
    compilelog.phase("emit", compilelog.clock() - t3)
    return Translation(source, ft.cname, tuple(mod.sites), mod.shared_dynamic)


def compile_times():
    """The kernels compiled in this process with their phases' times
    (ember/cuda/compilelog.py; EMBER_COMPILE_LOG=1 prints them)."""
    from ember.cuda.compilelog import compile_times
    return compile_times()


def translate_device(pyfunc, argcodes):
    """(source, C name, result code) of pyfunc as a __device__ function of
    the given argument types; the result code is 'none' when it returns
    nothing. Array accesses are not bounds-checked."""
    from ember._ember import CompileError
    mod = Module(checked=False, target="cuda")

    def fail(msg):
        raise CompileError(msg)
    cname, rt = mod.device(pyfunc, _argtypes(argcodes), fail)
    if mod.grid_sync:
        fail("%s calls cuda.cg.this_grid().sync(), which only a kernel launched "
             "with ember.cuda.jit can do" % pyfunc.__name__)
    return mod.source(""), cname, argcode_of(rt if rt is not None else NONE)


class _JitModule(_types.ModuleType):
    """`import ember as numba; @numba.jit` is Numba's CPU decorator
    (host.py); the module keeps being the translator package."""
    def __call__(self, *args, **kwargs):
        from .host import jit
        return jit(*args, **kwargs)


_sys.modules[__name__].__class__ = _JitModule
