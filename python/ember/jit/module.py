"""One translation unit: the prelude, the helpers the kernel's accesses and
atomics need, constant arrays, the device functions (callees first) and
the kernel; plus the bounds-check site table."""
import os
import zlib

from .types import storage_c, value_c, Scalar, NAMES

_PRELUDE = None

# Which prelude section a kernel needs, by the helpers its code calls
# (named __emjit_<suffix>); string tests rather than regular expressions,
# since importing re and compiling patterns cost more than a small kernel's
# whole translation.
_INT_OPS = ("fdiv_", "mod_", "pow_", "shl_", "shr_", "abs_")
_FLOAT_OPS = ("fdiv_f", "mod_f", "round_f")


def _sections_of(suffix):
    out = []
    if suffix in ("h2f", "f2h", "rh", "f2h_d"):
        out.append("half")
    if suffix.startswith(("min_", "max_")) or any(
            suffix.startswith(p) and suffix[len(p):len(p) + 1] in ("i", "u") and
            suffix[len(p) + 1:len(p) + 2].isdigit() for p in _INT_OPS):
        out.append("int")
    if any(suffix.startswith(p) and suffix[len(p):len(p) + 1].isdigit()
           for p in _FLOAT_OPS):
        out.append("float")
    if suffix.endswith(("c8", "c16")):
        out.append("complex")
    if suffix.startswith(("amax_", "amin_", "ainc_", "adec_")):
        out.append("atomic")
    if suffix == "slice":
        out.append("slice")
    if suffix in ("grid_sync", "grid_enter"):
        out.append("grid")
    return tuple(out)


_SUFFIX_SECTIONS = {}   # helper suffix -> its sections, once per process
_WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")


def _sections_used(code):
    used = set()
    n, pos = len(code), code.find("__emjit_")
    while pos >= 0:
        start = end = pos + 8
        while end < n and code[end] in _WORD:
            end += 1
        suffix = code[start:end]
        secs = _SUFFIX_SECTIONS.get(suffix)
        if secs is None:
            secs = _SUFFIX_SECTIONS[suffix] = _sections_of(suffix)
        used.update(secs)
        pos = code.find("__emjit_", end)
    return used


def prelude():
    """(base, {section name: text}) of prelude.h; each section gets an
    include guard named for it, so translations pasted into one program
    define its helpers once."""
    global _PRELUDE
    if _PRELUDE is None:
        with open(os.path.join(os.path.dirname(__file__), "prelude.h")) as f:
            text = f.read()
        parts = text.split("/* @emjit-section ")
        sections = {}
        for p in parts[1:]:
            name = p[:p.index(" ")]
            guard = "EMBER_JIT_PRELUDE_" + name.upper()
            head, body = p.split("\n", 1)
            sections[name] = "/* @emjit-section %s\n#ifndef %s\n#define %s\n%s#endif\n" % (
                head, guard, guard, body)
        _PRELUDE = (parts[0], sections)
    return _PRELUDE


def prelude_for(code):
    """The prelude text that code (the rest of a translation) needs."""
    base, sections = prelude()
    used = _sections_used(code)
    out = [base]
    for name, text in sections.items():
        if name in used:
            out.append(text)
    return "".join(out)


def zero_of(dtype):
    if dtype in ("c8", "c16"):
        return "__emjit_mk_%s(0, 0)" % dtype
    return "(%s)0" % storage_c(dtype)


class Module:
    def __init__(self, checked, target):
        self.checked = checked
        self.target = target
        self.helpers = {}          # name -> C text, in order of need
        self.consts = []           # C definitions of constant arrays
        self.const_ids = {}
        self.devfuncs = {}         # key -> (cname, rettype)
        self.devtexts = []         # definitions, callees first
        self.in_progress = set()
        self.sites = []            # (array name, file, line)
        self.shared_dynamic = False
        self.grid_sync = False     # the kernel calls grid.sync()
        self.devgrid = set()       # device functions that take the grid barrier
        self.externs = {}          # cuda.declare_device name -> its C declaration
        self.links = {}            # linked CUDA C++ file -> its text

    # ---- array element access --------------------------------------------

    def access(self, dtype, ndim):
        """(pointer helper, load helper) names for arrays of dtype/ndim: the
        pointer to an element (NULL when a check fails) and its value (0
        then). Checked helpers take the site id and the record last."""
        sfx = "%s_%d%s" % (dtype, ndim, "c" if self.checked else "")
        at, ld = "__emjit_at_" + sfx, "__emjit_ld_" + sfx
        if at in self.helpers:
            return at, ld
        T = storage_c(dtype)
        ps = ["%s *d" % T]
        ps += ["long long n%d" % k for k in range(ndim)]
        ps += ["long long s%d" % k for k in range(ndim)]
        ps += ["long long i%d" % k for k in range(ndim)]
        args = ["d"] + ["n%d" % k for k in range(ndim)] + ["s%d" % k for k in range(ndim)]
        args += ["i%d" % k for k in range(ndim)]
        if self.checked:
            ps += ["int site", "long long *err"]
            args += ["site", "err"]
        lines = ["#ifndef EMJ_HAVE_%s" % at.upper(), "#define EMJ_HAVE_%s" % at.upper()]
        lines.append("EMJ_FN %s *%s(%s)" % (T, at, ", ".join(ps)))
        lines.append("{")
        if self.checked:
            if ndim:
                lines.append("    long long %s;" % ", ".join("w%d" % k for k in range(ndim)))
            for k in range(ndim):
                lines.append("    if ((w%d = __emjit_ck(i%d, n%d, %d, site, err)) < 0)" % (k, k, k, k))
                lines.append("        return 0;")
            off = " + ".join("w%d * s%d" % (k, k) for k in range(ndim)) or "0"
        else:
            off = " + ".join("__emjit_wrap(i%d, n%d) * s%d" % (k, k, k)
                             for k in range(ndim)) or "0"
        lines.append("    return d + (%s);" % off)
        lines.append("}")
        lines.append("EMJ_FN %s %s(%s)" % (T, ld, ", ".join(ps)))
        lines.append("{")
        lines.append("    %s *p = %s(%s);" % (T, at, ", ".join(args)))
        if self.checked:
            lines.append("    return p ? *p : %s;" % zero_of(dtype))
        else:
            lines.append("    return *p;")
        lines.append("}")
        lines.append("#endif")
        self.helpers[at] = "\n".join(lines)
        return at, ld

    # ---- atomics ---------------------------------------------------------

    def atomic(self, op, dtype):
        """The wrapper for cuda.atomic.<op> on elements of dtype: skips a
        NULL pointer (a failed bounds check) and returns the old value; None
        when CUDA has no way to do it."""
        T = storage_c(dtype)
        ull = "unsigned long long"
        body = None
        if op == "add":
            if dtype in ("i4", "u4", "u8", "f4", "f8"):
                body = "atomicAdd(p, v)"
            elif dtype == "i8":
                body = "(long long)atomicAdd((%s *)p, (%s)v)" % (ull, ull)
        elif op == "sub":
            if dtype in ("i4", "u4"):
                body = "atomicSub(p, v)"
            elif dtype in ("f4", "f8"):
                body = "atomicAdd(p, -v)"
            elif dtype in ("i8", "u8"):
                body = "(%s)atomicAdd((%s *)p, 0ull - (%s)v)" % (T, ull, ull)
        elif op in ("max", "min"):
            fn = "atomicMax" if op == "max" else "atomicMin"
            if dtype in ("i4", "u4", "i8", "u8"):
                body = "%s(p, v)" % fn
            elif dtype in ("f4", "f8"):
                body = "__emjit_a%s_%s(p, v)" % (op, dtype)
        elif op in ("and", "or", "xor"):
            fn = {"and": "atomicAnd", "or": "atomicOr", "xor": "atomicXor"}[op]
            if dtype in ("i4", "u4", "u8"):
                body = "%s(p, v)" % fn
            elif dtype == "i8":
                body = "(long long)%s((%s *)p, (%s)v)" % (fn, ull, ull)
        elif op == "exch":
            if dtype in ("i4", "u4", "u8", "f4"):
                body = "atomicExch(p, v)"
            elif dtype == "i8":
                body = "(long long)atomicExch((%s *)p, (%s)v)" % (ull, ull)
            elif dtype == "f8":
                body = ("__longlong_as_double((long long)atomicExch((%s *)p, "
                        "(%s)__double_as_longlong(v)))" % (ull, ull))
        elif op in ("inc", "dec"):
            if dtype == "u4":
                body = "atomic%s(p, v)" % ("Inc" if op == "inc" else "Dec")
            elif dtype == "u8":
                body = "__emjit_a%s_u8(p, v)" % op
        elif op == "cas":
            if dtype in ("i4", "u4", "u8"):
                body = "atomicCAS(p, c, v)"
            elif dtype == "i8":
                body = "(long long)atomicCAS((%s *)p, (%s)c, (%s)v)" % (ull, ull, ull)
        if body is None:
            return None
        name = "__emjit_atomic_%s_%s" % (op, dtype)
        if name not in self.helpers:
            params = "%s *p, %s c, %s v" % (T, T, T) if op == "cas" else "%s *p, %s v" % (T, T)
            self.helpers[name] = "\n".join([
                "#ifndef EMJ_HAVE_%s" % name.upper(), "#define EMJ_HAVE_%s" % name.upper(),
                "EMJ_FN %s %s(%s)" % (T, name, params),
                "{", "    return p ? (%s)(%s) : (%s)0;" % (T, body, T), "}", "#endif"])
        return name

    # ---- tuples returned by device functions ------------------------------

    def tuple_struct(self, codes):
        """The C struct type of a returned tuple of scalar codes, and its
        maker __emjit_mk_<...>."""
        name = "__emjit_tup_" + "_".join(codes)
        if name not in self.helpers:
            fields = " ".join("%s f%d;" % (value_c(c), k) for k, c in enumerate(codes))
            params = ", ".join("%s a%d" % (value_c(c), k) for k, c in enumerate(codes))
            sets = " ".join("t.f%d = a%d;" % (k, k) for k in range(len(codes)))
            self.helpers[name] = "\n".join([
                "#ifndef EMJ_HAVE_%s" % name.upper(), "#define EMJ_HAVE_%s" % name.upper(),
                "typedef struct %s { %s } %s;" % (name, fields, name),
                "EMJ_FN %s __emjit_mk_%s(%s) { %s t; %s return t; }" % (
                    name, name[8:], params, name, sets),
                "#endif"])
        return name

    # ---- sites, constants, device functions -------------------------------

    def site(self, array_name, where, node):
        self.sites.append((array_name, where.filename, where.line(node)))
        return len(self.sites) - 1

    def const_array(self, arr):
        """The C name of a __constant__ array holding arr's values (C order)."""
        from .ops import literal
        dt = arr.dtype.str[1:]
        key = (dt, arr.shape, arr.tobytes())
        if key in self.const_ids:
            return self.const_ids[key]
        name = "__emjit_const%d" % len(self.consts)
        flat = arr.ravel(order="C").tolist()
        if dt == "b1":
            vals = ["1" if x else "0" for x in flat]
        elif dt == "f2":
            vals = ["%du" % int(x) for x in arr.ravel(order="C").view("u2").tolist()]
        elif dt in ("c8", "c16"):
            vals = ["{%s, %s}" % (literal(complex(x).real, "f4" if dt == "c8" else "f8"),
                                  literal(complex(x).imag, "f4" if dt == "c8" else "f8"))
                    for x in flat]
        else:
            vals = [literal(x, dt) for x in flat]
        n = max(1, len(vals))
        body = ",\n    ".join(", ".join(vals[i:i + 8]) for i in range(0, len(vals), 8))
        self.consts.append("__constant__ %s %s[%d] = {\n    %s\n};" % (
            storage_c(dt), name, n, body or "0"))
        self.const_ids[key] = name
        return name

    def device_name(self, pyfunc, argtypes):
        # a stable name (it is part of the source, hence of cache keys)
        key = repr((getattr(pyfunc, "__module__", ""), getattr(pyfunc, "__qualname__", ""),
                    [repr(t) for t in argtypes])).encode()
        h = "%08x%02x" % (zlib.crc32(key), len(key) & 0xff)
        base = "".join(ch if ch.isalnum() else "_" for ch in pyfunc.__name__)
        return "__emjit_dev_%s_%s" % (base, h)

    def device(self, pyfunc, argtypes, fail):
        """(C name, result type) of device function pyfunc specialised on
        argtypes, translating it (and what it calls) on first use."""
        from .emit import FunctionTranslator
        key = (pyfunc, tuple(argtypes))
        if key in self.devfuncs:
            return self.devfuncs[key]
        if key in self.in_progress:
            fail("device function '%s' calls itself; recursion is not supported"
                 % pyfunc.__name__)
        self.in_progress.add(key)
        try:
            ft = FunctionTranslator(self, pyfunc, argtypes, kind="device",
                                    cname=self.device_name(pyfunc, argtypes))
            text = ft.translate()
        finally:
            self.in_progress.discard(key)
        self.devfuncs[key] = (ft.cname, ft.return_type)
        if ft.uses_grid:
            self.devgrid.add(ft.cname)
        self.devtexts.append((ft.cname, text))
        return ft.cname, ft.return_type

    def extern(self, ext, decl):
        """Declare a cuda.declare_device function and take in its files."""
        old = self.externs.get(ext.name)
        if old is not None and old != decl:
            raise ValueError("foreign function %s is declared twice, differently" % ext.name)
        self.externs[ext.name] = decl
        for path, text in ext.sources():
            self.links.setdefault(path, text)

    def source(self, main_text):
        parts = list(self.externs.values())
        if self.helpers:
            parts.append('#line 1 "ember/jit/helpers"')
            parts.extend(self.helpers.values())
        parts.extend(self.consts)
        # Device functions callees first; a specialisation that only an
        # early inference pass asked for (a variable's type was still
        # widening) is left out.
        used, keep = main_text or "", []
        for k, (cname, text) in enumerate(reversed(self.devtexts)):
            if not main_text and k == 0 or cname + "(" in used:
                keep.append(text)
                used += text
        parts.extend(reversed(keep))
        if main_text:
            parts.append(main_text)
        if self.links:
            # one translation unit with the linked files; the marker has
            # the host compile it as C++ (python/ember/_ext/jit/jit_compile.c)
            parts.append(LINKED_CXX_MARK)
            for path, text in self.links.items():
                parts.append('#line 1 "%s"' % path.replace("\\", "\\\\").replace('"', '\\"'))
                parts.append(text)
        body = "\n".join(parts) + "\n"
        return '#line 1 "ember/jit/prelude.h"\n' + prelude_for(body) + body


# What tells the compile step that the source holds linked CUDA C++
LINKED_CXX_MARK = "/* ember.jit: linked CUDA C++ */"


def describe(t):
    if isinstance(t, Scalar):
        return NAMES[t.code]
    return repr(t)
