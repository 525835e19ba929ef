"""ember.cuda.Program and ObjectCode, cuda.core's spelling of NVRTC: CUDA C
source compiled to PTX, CUBIN or LTO-IR. The compile itself is the C
core's (_ember._compile_cuda); this is its argument handling."""
from ember import _ember as _e

_TARGETS = ("ptx", "cubin", "ltoir")


def str_tuple(o, what, kind="a tuple of str", lone=True):
    """o as a tuple of str, for the argument `what`: a lone str is one
    item when `lone` (CuPy's options), else refused as not `kind` (a name
    expression's characters are not names)."""
    if isinstance(o, str) and lone:
        return (o,)
    try:
        if isinstance(o, str):
            raise TypeError
        t = tuple(o)
    except TypeError:
        raise TypeError(f"{what} must be {kind}, not "
                        f"{type(o).__name__}") from None
    for e in t:
        if not isinstance(e, str):
            raise TypeError(f"{what} must be str, not {type(e).__name__}")
    return t


def options_tuple(options):
    """Options as a tuple of str: one str is one option (not its
    characters), as CuPy also accepts."""
    return () if options is None else str_tuple(options, "options")


def _arch(arch):
    """arch as 10*major+minor from 90, "90", "sm_90", "compute_90"; 0 for
    None."""
    if arch is None:
        return 0
    if isinstance(arch, str):
        digits = arch[3:] if arch.startswith("sm_") else \
            arch[8:] if arch.startswith("compute_") else arch
        n = len(digits) - len(digits.lstrip("0123456789"))
        v = int(digits[:n]) if n and digits[n:] in ("", "a", "f") else -1
    elif isinstance(arch, int) and not isinstance(arch, bool):
        v = arch
    else:
        raise TypeError("arch must be an int like 90 or a str like 'sm_90', "
                        f"not {type(arch).__name__}")
    if not 10 <= v <= 10000:
        raise ValueError(f"arch {arch!r} is not a GPU architecture (use e.g. "
                         "90 or 'sm_90')")
    return v


class ObjectCode:
    """Compiled code from Program.compile(); RawModule(ptx=...) or
    RawModule(cubin=...) loads it."""

    def __init__(self, code, log, kind, name):
        self.code, self.log, self.kind, self.name = code, log, kind, name

    def __repr__(self):
        return (f"<ember.ObjectCode {self.kind} of {self.name}, "
                f"{len(self.code)} bytes>")


class Program:
    """Program(source, options=(), name='program')

    CUDA C source for NVRTC; options are NVRTC's ('-DN=4',
    '--std=c++17')."""

    def __init__(self, source, options=None, name="program"):
        if not isinstance(source, str):
            raise TypeError("Program() argument 'source' must be str, not "
                            f"{type(source).__name__}")
        if not isinstance(name, str):
            raise TypeError("Program() argument 'name' must be str, not "
                            f"{type(name).__name__}")
        self.source, self.name = source, name
        self.options = options_tuple(options)

    def compile(self, target="ptx", arch=None):
        """compile(target='ptx', arch=None) -> ObjectCode. target is 'ptx',
        'cubin' or 'ltoir' (NVRTC's -dlto, for a linker; no device loads
        it); arch (90, 'sm_90') defaults to the current GPU's, or a recent
        one without a GPU. Needs NVRTC, not a GPU."""
        if target not in _TARGETS:
            raise ValueError("target must be 'ptx', 'cubin' or 'ltoir', not "
                             f"'{target}'")
        code, log = _e._compile_cuda(self.source, self.name, self.options,
                                     _arch(arch), target)
        return ObjectCode(code, log, target, self.name)


for _cls in (Program, ObjectCode):
    _cls.__module__ = "ember"
