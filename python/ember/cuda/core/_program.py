"""cuda.core's Program, ProgramOptions, ObjectCode and Kernel over ember's
compiler path: the source goes through ember.RawModule, so it is compiled
for whichever device loads it (NVRTC to CUBIN on a GPU, the host C++
compiler on the cpu device) and cached like every ember kernel. LTO-IR
(compile('ltoir')) is NVRTC's on every device: bytes for a linker, with
no kernels to launch until linked."""
from dataclasses import dataclass
from typing import Optional, Sequence, Tuple, Union

import ember

__all__ = ["Program", "ProgramOptions", "ObjectCode", "Kernel"]


def _flag(name, value):
    return "--%s=%s" % (name, "true" if value else "false")


@dataclass
class ProgramOptions:
    """NVRTC's options under cuda.core's names. arch is recorded but ember
    compiles for the device that loads the code; name names the program."""
    name: Optional[str] = "default_program"
    arch: Optional[str] = None
    relocatable_device_code: Optional[bool] = None
    extensible_whole_program: Optional[bool] = None
    debug: Optional[bool] = None
    lineinfo: Optional[bool] = None
    device_code_optimize: Optional[bool] = None
    ptxas_options: Optional[Union[str, Sequence[str]]] = None
    max_register_count: Optional[int] = None
    ftz: Optional[bool] = None
    prec_sqrt: Optional[bool] = None
    prec_div: Optional[bool] = None
    fma: Optional[bool] = None
    use_fast_math: Optional[bool] = None
    extra_device_vectorization: Optional[bool] = None
    link_time_optimization: Optional[bool] = None
    gen_opt_lto: Optional[bool] = None
    define_macro: Optional[Union[str, Tuple[str, str],
                                 Sequence[Union[str, Tuple[str, str]]]]] = None
    undefine_macro: Optional[Union[str, Sequence[str]]] = None
    include_path: Optional[Union[str, Sequence[str]]] = None
    pre_include: Optional[Union[str, Sequence[str]]] = None
    no_source_include: Optional[bool] = None
    std: Optional[str] = None
    builtin_move_forward: Optional[bool] = None
    builtin_initializer_list: Optional[bool] = None
    disable_warnings: Optional[bool] = None
    restrict: Optional[bool] = None
    device_as_default_execution_space: Optional[bool] = None
    device_int128: Optional[bool] = None
    optimization_info: Optional[str] = None
    no_display_error_number: Optional[bool] = None
    diag_error: Optional[Union[int, Sequence[int]]] = None
    diag_suppress: Optional[Union[int, Sequence[int]]] = None
    diag_warn: Optional[Union[int, Sequence[int]]] = None
    brief_diagnostics: Optional[bool] = None
    time: Optional[str] = None
    split_compile: Optional[int] = None
    fdevice_syntax_only: Optional[bool] = None
    minimal: Optional[bool] = None

    def _as_options(self, target="cubin"):
        """The NVRTC command-line options these stand for, compiling for
        target ('cubin', 'ptx' or 'ltoir')."""
        o = []

        def many(v):
            return [v] if isinstance(v, (str, int)) else list(v)

        if self.relocatable_device_code is not None:
            o.append(_flag("relocatable-device-code",
                           self.relocatable_device_code))
        if self.extensible_whole_program:
            o.append("--extensible-whole-program")
        if self.debug:
            o.append("--device-debug")
        if self.lineinfo:
            o.append("--generate-line-info")
        if self.device_code_optimize is not None:
            o.append("--dopt=%s" % ("on" if self.device_code_optimize
                                     else "off"))
        if self.ptxas_options is not None:
            o += ["--ptxas-options=%s" % p for p in many(self.ptxas_options)]
        if self.max_register_count is not None:
            o.append("--maxrregcount=%d" % self.max_register_count)
        for name, opt in (("ftz", "ftz"), ("prec_sqrt", "prec-sqrt"),
                          ("prec_div", "prec-div"), ("fma", "fmad")):
            v = getattr(self, name)
            if v is not None:
                o.append(_flag(opt, v))
        if self.use_fast_math:
            o.append("--use_fast_math")
        if self.extra_device_vectorization:
            o.append("--extra-device-vectorization")
        if self.link_time_optimization or self.gen_opt_lto:
            # NVRTC's -dlto makes LTO-IR instead of PTX or CUBIN; the
            # compile for 'ltoir' adds it
            if target != "ltoir":
                raise ValueError("ProgramOptions(link_time_optimization/"
                                 "gen_opt_lto) makes LTO-IR: compile('ltoir'),"
                                 " not %r" % target)
            if self.gen_opt_lto:
                o.append("--gen-opt-lto")
        if self.define_macro is not None:
            # a tuple is one (name, value) pair; a list holds several macros
            ms = [self.define_macro] if isinstance(self.define_macro, (
                str, tuple)) else list(self.define_macro)
            o += ["-D" + (m if isinstance(m, str) else "%s=%s" % m)
                  for m in ms]
        if self.undefine_macro is not None:
            o += ["-U" + m for m in many(self.undefine_macro)]
        if self.include_path is not None:
            o += ["-I" + str(p) for p in many(self.include_path)]
        if self.pre_include is not None:
            o += ["--pre-include=%s" % p for p in many(self.pre_include)]
        if self.no_source_include:
            o.append("--no-source-include")
        if self.std is not None:
            o.append("--std=%s" % self.std)
        for name, opt in (("builtin_move_forward", "builtin-move-forward"),
                          ("builtin_initializer_list",
                           "builtin-initializer-list")):
            v = getattr(self, name)
            if v is not None:
                o.append(_flag(opt, v))
        if self.disable_warnings:
            o.append("--disable-warnings")
        if self.restrict:
            o.append("--restrict")
        if self.device_as_default_execution_space:
            o.append("--device-as-default-execution-space")
        if self.device_int128:
            o.append("--device-int128")
        if self.no_display_error_number:
            o.append("--no-display-error-number")
        for name, opt in (("diag_error", "diag-error"),
                          ("diag_suppress", "diag-suppress"),
                          ("diag_warn", "diag-warn")):
            v = getattr(self, name)
            if v is not None:
                o.append("--%s=%s" % (opt, ",".join(str(x) for x in many(v))))
        if self.brief_diagnostics:
            o.append("--brief-diagnostics=true")
        return tuple(o)


_TARGETS = ("ptx", "cubin", "ltoir")


class Program:
    """Program(code, code_type='c++', options=None): CUDA C++ source (or PTX
    with code_type='ptx') to compile with .compile()."""

    def __init__(self, code, code_type="c++", options=None):
        code_type = code_type.lower()
        if code_type not in ("c++", "ptx"):
            raise NotImplementedError("Program(code_type=%r): ember compiles "
                                      "'c++' and loads 'ptx'" % code_type)
        if options is not None and not isinstance(options, ProgramOptions):
            raise TypeError("options must be a ProgramOptions, not %s"
                            % type(options).__name__)
        self._code = code
        self._code_type = code_type
        self._options = options if options is not None else ProgramOptions()

    @property
    def backend(self):
        return "NVRTC" if self._code_type == "c++" else "driver"

    @property
    def handle(self):
        return None

    def close(self):
        pass

    def compile(self, target_type, name_expressions=(), logs=None):
        """ObjectCode for target_type ('cubin', 'ptx' or 'ltoir'). The
        source is compiled here, so errors are raised here
        (ember.CompileError with the log): for 'cubin' and 'ptx' for the
        current device, for 'ltoir' by NVRTC with -dlto on any device
        (NotImplementedError from an NVRTC older than 12.0)."""
        if target_type not in _TARGETS:
            raise ValueError("target_type must be one of %s, not %r"
                             % (_TARGETS, target_type))
        if self._code_type == "ptx":
            if target_type == "ltoir":
                raise ValueError("Program(code_type='ptx') compiles to 'ptx' "
                                 "or 'cubin'; LTO-IR comes from C++ source")
            return ObjectCode._from(ptx=self._code, kind=target_type)
        oc = ObjectCode._from(source=self._code,
                              options=self._options._as_options(target_type),
                              exprs=tuple(name_expressions), kind=target_type,
                              name=self._options.name)
        if target_type == "ltoir":
            oc.code           # compile now
        else:
            oc._module()
        if logs is not None:
            logs.write(oc._log())
        return oc


# EM_HOST_OPTION_NAME_EXPR (include/ember/runtime.h): a name expression as
# a compile option, which NVRTC takes through nvrtcAddNameExpression
_NAME_EXPR_OPTION = "--name-expression="


class ObjectCode:
    """Compiled code and the kernels in it (get_kernel). Loaded on the
    device current at get_kernel (once per device)."""

    def __init__(self):
        raise RuntimeError("ObjectCode comes from Program.compile() or "
                           "ObjectCode.from_cubin/from_ptx")

    @classmethod
    def _from(cls, source=None, options=(), exprs=(), kind="cubin",
              cubin=None, ptx=None, path=None, name="", ltoir=None):
        obj = object.__new__(cls)
        obj._source, obj._options, obj._exprs = source, options, exprs
        obj._kind, obj._cubin, obj._ptx, obj._path = kind, cubin, ptx, path
        obj._name = name
        obj._mods = {}
        obj._code = ltoir
        obj._compile_log = ""
        return obj

    @classmethod
    def from_cubin(cls, module, *, name="", symbol_mapping=None):
        """From CUBIN bytes or the path of a .cubin file."""
        if isinstance(module, (bytes, bytearray, memoryview)):
            return cls._from(cubin=bytes(module), kind="cubin", name=name)
        return cls._from(path=str(module), kind="cubin", name=name)

    @classmethod
    def from_ltoir(cls, module, *, name="", symbol_mapping=None):
        """From LTO-IR bytes or the path of a file of them: code for a
        linker, with no kernels to get."""
        if isinstance(module, (bytes, bytearray, memoryview)):
            return cls._from(ltoir=bytes(module), kind="ltoir", name=name)
        return cls._from(path=str(module), kind="ltoir", name=name)

    @classmethod
    def from_ptx(cls, module, *, name="", symbol_mapping=None):
        """From PTX text (str or bytes) or the path of a .ptx file."""
        if isinstance(module, (bytes, bytearray, memoryview)) or (
                isinstance(module, str) and "\n" in module):
            return cls._from(ptx=module, kind="ptx", name=name)
        return cls._from(path=str(module), kind="ptx", name=name)

    @property
    def code_type(self):
        return self._kind

    @property
    def code(self):
        """The compiled bytes (NVRTC's PTX, CUBIN or LTO-IR for the
        source)."""
        if self._code is None:
            if self._cubin is not None:
                self._code = self._cubin
            elif self._ptx is not None:
                self._code = self._ptx.encode() if isinstance(self._ptx, str) \
                    else bytes(self._ptx)
            elif self._path is not None:
                with open(self._path, "rb") as f:
                    self._code = f.read()
            else:
                # the name expressions instantiate template kernels, so
                # the bytes hold vector_add<float> as RawModule's do
                opts = tuple(self._options) + tuple(
                    _NAME_EXPR_OPTION + e for e in self._exprs)
                oc = ember.cuda.Program(self._source,
                                        options=opts).compile(self._kind)
                self._code, self._compile_log = oc.code, oc.log
        return self._code

    def _module(self):
        d = ember.get_current_device()
        m = self._mods.get(d)
        if m is None:
            if self._source is not None:
                m = ember.RawModule(code=self._source, options=self._options,
                                    name_expressions=self._exprs or None)
            elif self._path is not None:
                m = ember.RawModule(path=self._path)
            elif self._cubin is not None:
                m = ember.RawModule(cubin=self._cubin)
            else:
                m = ember.RawModule(ptx=self._ptx)
            self._mods[d] = m
        return m

    def _log(self):
        return self._compile_log

    def get_kernel(self, name):
        """The kernel name (a plain extern "C" name, or one of the name
        expressions given to compile(), such as 'vector_add<float>')."""
        if self._kind == "ltoir":
            # no driver loads LTO-IR: nvJitLink makes a CUBIN of it
            raise ValueError("get_kernel(%r): this ObjectCode holds LTO-IR, "
                             "which must be linked into a CUBIN first "
                             "(cuda.core's Linker, which ember does not "
                             "have); compile('cubin') for kernels to launch"
                             % name)
        return Kernel(self._module().get_function(name), self)


class Kernel:
    """A kernel of an ObjectCode, for launch()."""

    def __init__(self, fn, code):
        self._fn = fn
        self._code = code

    @property
    def num_arguments(self):
        return self._fn.num_params

    @property
    def arguments_info(self):
        """(offset, size) of each parameter in the argument buffer, each at
        its natural alignment."""
        out, off = [], 0
        for size in self._fn.param_sizes:
            align = min(size, 8) or 1
            off = (off + align - 1) // align * align
            out.append((off, size))
            off += size
        return out

    @property
    def name(self):
        return self._fn.name

    def __repr__(self):
        return "<Kernel %s>" % self._fn.name

