"""ember.RawModule (CuPy's signature, plus cuda.core-style cubin= and
ptx=): the argument handling over the C module object
(_ember._RawModule), which compiles source through the kernel cache for
the current device or loads compiled code."""
import os

from ember import _ember as _e
from ember._api.program import options_tuple, str_tuple
from ember._api.rawsource import expand_cupy_includes


def check_cupy_options(who, backend, translate_cucomplex,
                       enable_cooperative_groups, jitify):
    """CuPy's compiler choices: the three features ember lacks are refused
    rather than ignored."""
    if backend not in ("nvrtc", "nvcc"):
        raise ValueError(f"{who}: backend must be 'nvrtc' or 'nvcc', not "
                         f"'{backend}'")
    for flag, on in (("translate_cucomplex", translate_cucomplex),
                     ("enable_cooperative_groups", enable_cooperative_groups),
                     ("jitify", jitify)):
        if on:
            raise NotImplementedError(f"{who}({flag}=True) is not supported "
                                      "by ember")


def _name_expressions(o):
    return None if o is None else str_tuple(
        o, "name_expressions", "a sequence of str (like ('axpy<float>',))",
        lone=False)


class RawModule(_e._RawModule):
    """RawModule(code=None, path=None, options=(), backend='nvrtc', *,
    name=None, cubin=None, ptx=None, name_expressions=None)

    Kernels compiled (through the kernel cache) or loaded for the current
    device: NVRTC on cuda, the host C++ compiler on cpu. name_expressions
    ('axpy<float>', ...) instantiate templates and C++ kernels for
    get_function by the same string."""
    __slots__ = ("code", "options", "_name", "_exprs", "_lowered", "_src")

    def __new__(cls, code=None, path=None, options=(), backend="nvrtc",
                translate_cucomplex=False, *, name=None, cubin=None,
                ptx=None, name_expressions=None,
                enable_cooperative_groups=False, jitify=False):
        check_cupy_options("RawModule", backend, translate_cucomplex,
                           enable_cooperative_groups, jitify)
        if sum(x is not None for x in (code, path, cubin, ptx)) != 1:
            raise TypeError("RawModule() takes exactly one of code, path, "
                            "cubin or ptx")
        if name is not None and not isinstance(name, str):
            raise TypeError("name must be a str")
        options = options_tuple(options)
        exprs = _name_expressions(name_expressions)
        if exprs is not None and code is None:
            raise ValueError("RawModule: name_expressions need code= (source "
                             "to instantiate them in)")
        kind = data = None
        if code is not None:
            if not isinstance(code, str):
                raise TypeError("kernel source must be a str, not "
                                f"{type(code).__name__}")
        elif path is not None:
            kind = os.path.splitext(os.fsdecode(path))[1][1:]
            if kind not in ("cubin", "ptx"):
                raise ValueError(f"RawModule(path={path!r}): the file must end "
                                 "in .cubin or .ptx")
            with open(path, "rb") as f:
                data = f.read()
        else:
            kind = "cubin" if cubin is not None else "ptx"
            data = cubin if cubin is not None else ptx
            data = data.encode() if isinstance(data, str) else bytes(data)
        # the compiler instantiates name expressions given as options
        src = expand_cupy_includes(code)
        self = super().__new__(cls, src, kind, data, options + tuple(
            _e._NAME_EXPR_OPTION + e for e in exprs or ()))
        self.code, self.options, self._name = code, options, name
        self._src = src
        self._exprs, self._lowered = exprs, None
        return self

    def __repr__(self):
        name = "" if self._name is None else f" {self._name!r}"
        return f"<ember.RawModule{name} on {self.device}>"

    def compile(self, log_stream=None):
        """CuPy's RawModule.compile(): ember compiled (or loaded) the module
        when it was made, so this only lowers the name expressions' names
        on cuda (what get_function would do at its first call). A compile
        error was raised then, as ember.CompileError with the log;
        log_stream, where CuPy writes the log, gets nothing."""
        if log_stream is not None and not callable(getattr(log_stream, "write", None)):
            raise TypeError("log_stream must have a write() method, not "
                            f"{type(log_stream).__name__}")
        exprs = self._exprs
        if exprs and self._lowered is None and self.device.type != "cpu":
            self._lowered = _e._lowered_names(self._src, self.options, exprs)

    def get_function(self, name):
        """get_function(name) -> Function; AttributeError if the module has
        no kernel of that name. On cuda a name expression's kernel goes by
        the name NVRTC lowered it to."""
        exprs = self._exprs
        if (exprs and isinstance(name, str) and name in exprs
                and self.device.type != "cpu"):
            if self._lowered is None:
                self._lowered = _e._lowered_names(self._src, self.options,
                                                  exprs)
            name = self._lowered[exprs.index(name)]
        return super().get_function(name)

    def get_global(self, name):
        """get_global(name) -> ember.cuda.MemoryPointer to the module's
        __device__ or __constant__ variable (ptr.mem.size bytes), over
        memory the module owns and keeps alive; ember.ndarray(shape, dtype,
        ptr) views it. AttributeError if the module has none of that
        name."""
        if not isinstance(name, str):
            raise TypeError(f"get_global() needs a str, not "
                            f"{type(name).__name__}")
        ptr, size = self._global(name)
        mem = _e.UnownedMemory(ptr, size, self, self.device)
        return _e.MemoryPointer(mem, 0)


RawModule.__module__ = "ember"
