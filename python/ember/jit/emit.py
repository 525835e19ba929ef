"""The translator of one Python function (a kernel or a device function)
to C: statements and expressions, with type inference by running the same
walk until the local variables' types stop changing."""

from . import astlite as ast
from .errors import compile_error
from .module import zero_of
from .ops import V, binop, compare, conv, is_simple, literal, truth, unary
from .source import PyObj, classify, lookup_global, read_function
from .types import (Array, Scalar, Tuple, NONE, make_strong, storage_c, unify,
                    value_c)
from . import intrinsics, views

# C and C++ keywords and names the preludes define: a Python variable of
# such a name gets a suffix.
_RESERVED = set("""auto break case char const continue default do double else enum
extern float for goto if inline int long register restrict return short signed
sizeof static struct switch typedef union unsigned void volatile while bool true
false class delete new template this throw try catch namespace operator private
protected public virtual friend typename using explicit mutable asm export
constexpr nullptr noexcept decltype alignas alignof static_assert thread_local
threadIdx blockIdx blockDim gridDim warpSize dim3 min max exp expf umin umax
llmin llmax ullmin ullmax rsqrt rsqrtf clock64 main errno assert NULL EOF
isnan isinf isfinite signbit fpclassify stdin stdout stderr FILE abs labs
int2 int3 int4 uint2 uint3 uint4 float2 float3 float4 double2 longlong2
ulonglong2 offsetof M_PI INFINITY NAN HUGE_VAL rint rintf fmin fminf fmax fmaxf
fma fmaf ldexp frexp modf nan nanf signbit atomicAdd atomicSub atomicExch
atomicMin atomicMax atomicInc atomicDec atomicCAS atomicAnd atomicOr atomicXor
memcpy memset size_t int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t
uint64_t linux unix i386 INT_MAX INT_MIN UINT_MAX LONG_MAX LONG_MIN ULONG_MAX
LLONG_MAX LLONG_MIN ULLONG_MAX CHAR_BIT CHAR_MAX CHAR_MIN SCHAR_MAX SCHAR_MIN
UCHAR_MAX SHRT_MAX SHRT_MIN USHRT_MAX FLT_MAX FLT_MIN DBL_MAX DBL_MIN RAND_MAX
BUFSIZ PATH_MAX M_E""".split())
# the C math functions calls are written with (sqrt and sqrtf, ...), so a
# Python variable of such a name does not hide them
_RESERVED.update(n + sfx for n in list(intrinsics.MATH_FLOAT1.values()) +
                 list(intrinsics.MATH_FLOAT2.values()) + list(intrinsics.MATH_INT1.values())
                 + ["fabs", "log", "rint"] for sfx in ("", "f"))


class _Unknown(Exception):
    """A type is not known yet (inference pass): skip this statement."""


def _is_docstring(stmt):
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and \
        isinstance(stmt.value.value, str)


class ArrayRef:
    """How to reach an array in C: its data pointer and the C expressions
    of each axis's extent and stride (in elements)."""
    __slots__ = ("name", "data", "shapes", "strides", "type", "writable", "decl_text",
                 "is_view")

    def __init__(self, name, data, shapes, strides, type, writable=True, decl_text=None,
                 is_view=False):
        self.name, self.data, self.shapes = name, data, shapes
        self.strides, self.type, self.writable = strides, type, writable
        self.decl_text = decl_text
        self.is_view = is_view     # C temporaries or a view variable's locals

    def __eq__(self, other):
        return isinstance(other, ArrayRef) and self.data == other.data

    def __hash__(self):
        return hash(self.data)


class FunctionTranslator:
    def __init__(self, module, pyfunc, argtypes, kind="kernel", cname=None):
        self.mod = module
        self.pyfunc = pyfunc
        self.kind = kind
        what = "kernel" if kind == "kernel" else "device function"
        self.fdef, self.where = read_function(pyfunc, what)
        self.argtypes = list(argtypes)
        self.cname = cname or self._c_ident(pyfunc.__name__)
        self.return_type = None
        a = self.fdef.args
        if a.vararg or a.kwarg or a.kwonlyargs or getattr(a, "posonlyargs", None):
            raise self.error(self.fdef, "%s '%s': *args, **kwargs, keyword-only and "
                             "positional-only parameters are not supported"
                             % (what, pyfunc.__name__))
        self.params = [p.arg for p in a.args]
        if len(self.params) != len(self.argtypes):
            raise self.error(self.fdef, "%s '%s' takes %d arguments, got %d argument "
                             "types" % (what, pyfunc.__name__, len(self.params),
                                        len(self.argtypes)))
        self.assigned = self._assigned_names()
        self.vartypes = {}
        self.arrays = {}       # name -> ArrayRef (params and bound arrays)
        self.decls = {}        # name -> (ArrayRef, its call) of shared/local/const
        self.cnames = {}
        self.used_cnames = set()
        # names bound to compile-time objects (bi = cuda.blockIdx, f = math.sqrt)
        self.aliases = {}
        self.view_vars = {}    # name -> ArrayRef of a variable holding views
        self.uses_grid = False # a device function calling grid.sync(), maybe
                               # through another
        for p, t in zip(self.params, self.argtypes):
            if isinstance(t, Array):
                self.arrays[p] = self._param_array(p, t)
            else:
                self.vartypes[p] = t
        self.final = False

    # ---- errors and names ------------------------------------------------

    def error(self, node, msg):
        return compile_error(self.where, node, msg)

    def fail_at(self, node):
        def fail(msg):
            raise self.error(node, msg)
        return fail

    @staticmethod
    def _c_ident(name):
        if name in _RESERVED or name.startswith("_"):
            return "u" + name
        return name

    def cvar(self, name):
        """The C name of Python local `name`."""
        c = self.cnames.get(name)
        if c is None:
            base = self._c_ident(name)
            c, k = base, 1
            while c in self.used_cnames:
                c = "%s_%d" % (base, k)
                k += 1
            self.cnames[name] = c
            self.used_cnames.add(c)
        return c

    def _param_array(self, p, t):
        base = self._c_ident(p)
        data = "%s_data" % base
        shapes = ["%s_shape%d" % (base, k) for k in range(t.ndim)]
        strides = ["%s_stride%d" % (base, k) for k in range(t.ndim)]
        for n in [data] + shapes + strides:
            self.used_cnames.add(n)
        self.used_cnames.add(base)
        if t.layout == "C" and t.ndim:
            strides[-1] = "1"
        return ArrayRef(p, data, shapes, strides, t)

    def _assigned_names(self):
        names = set()
        for node in ast.walk(self.fdef):
            if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
                names.add(node.id)
            elif isinstance(node, (ast.Global, ast.Nonlocal)):
                kw = "global" if isinstance(node, ast.Global) else "nonlocal"
                raise self.error(node, "'%s' statements are not supported in kernels" % kw)
        return names

    # ---- the passes ------------------------------------------------------

    def translate(self):
        """The C definition of the function."""
        for _ in range(50):
            before = (dict(self.vartypes), self.return_type)
            self._run(final=False)
            if (dict(self.vartypes), self.return_type) == before:
                break
        else:
            raise self.error(self.fdef, "the types of the variables of '%s' do not settle"
                             % self.pyfunc.__name__)
        return self._run(final=True)

    def _run(self, final):
        self.final = final
        self.out = []
        self.temps = []
        self.ntemp = 0
        self.depth = 1
        self.cond_depth = 0
        self.decls_text = []
        self.loops = 0
        self.block(self.fdef.body)
        if not final:
            return None
        return self._function_text()

    def temp(self, ctype):
        self.ntemp += 1
        name = "__emjit_t%d" % self.ntemp
        self.temps.append((ctype, name))
        return name

    def emit(self, line):
        self.out.append("    " * self.depth + line)

    def line(self, node):
        self.out.append('#line %d "%s"' % (self.where.line(node),
                                           self.where.filename.replace("\\", "\\\\")
                                           .replace('"', '\\"')))

    # ---- variables -------------------------------------------------------

    def set_type(self, name, t, node):
        if isinstance(t, Array):
            raise self.error(node, "internal: array type for scalar variable")
        old = self.vartypes.get(name)
        new = unify(old, make_strong(t))
        if new is None:
            raise self.error(node, "variable '%s' would have two incompatible types: %r "
                             "and %r" % (name, old, make_strong(t)))
        if isinstance(new, Tuple) and any(not isinstance(x, Scalar) for x in new.items):
            raise self.error(node, "variable '%s': tuples of %r cannot be stored in a "
                             "variable" % (name, new))
        self.vartypes[name] = new
        return new

    def _function_text(self):
        mod = self.mod
        params = []
        prologue = []
        for p, t in zip(self.params, self.argtypes):
            if isinstance(t, Array):
                ref = self.arrays[p]
                params.append("%s *%s" % (storage_c(t.dtype), ref.data))
                params += ["long long %s_shape%d" % (self._c_ident(p), k) for k in range(t.ndim)]
                params += ["long long %s_stride%d" % (self._c_ident(p), k) for k in range(t.ndim)]
                continue
            vt = self.vartypes.get(p, t)
            cv = self.cvar(p)
            if t.code in ("c8", "c16") and self.kind == "device" and vt == t:
                # device functions are internal: a complex is one parameter
                params.append("%s %s" % (value_c(t.code), cv))
                continue
            if t.code in ("c8", "c16") and self.kind == "device":
                params.append("%s %s__arg" % (value_c(t.code), cv))
                prologue.append("%s %s = %s;" % (value_c(vt.code), cv,
                                                 conv(V("%s__arg" % cv, t), vt.code)))
                continue
            if t.code in ("c8", "c16"):
                part = "float" if t.code == "c8" else "double"
                params += ["%s %s_re" % (part, cv), "%s %s_im" % (part, cv)]
                src = V("__emjit_mk_%s(%s_re, %s_im)" % (t.code, cv, cv), t)
                prologue.append("%s %s = %s;" % (value_c(vt.code), cv, conv(src, vt.code)))
                continue
            # bool as a byte, float16 as its bits (docs/jit-design.md)
            pt = {"b1": "unsigned char", "f2": "unsigned short"}.get(t.code, value_c(t.code))
            if vt == t and t.code not in ("b1", "f2"):
                params.append("%s %s" % (pt, cv))
            else:
                params.append("%s %s__arg" % (pt, cv))
                src = V("%s__arg" % cv, t)
                if t.code == "b1":
                    src = V("(%s__arg != 0)" % cv, t)
                elif t.code == "f2":
                    src = V("__emjit_h2f(%s__arg)" % cv, t)
                prologue.append("%s %s = %s;" % (value_c(vt.code), cv, conv(src, vt.code)))
        if self.kind == "device" and self.uses_grid:
            params.append("void *__emjit_grid")
        if self.kind == "kernel" and mod.grid_sync:
            # the grid's barrier (docs/jit-design.md): on cpu the block's
            # launch record, which also gives its place in the grid
            params.append("void *__emjit_grid")
            if mod.target == "cpu":
                prologue.insert(0, "__emjit_grid_enter(__emjit_grid);")
        if mod.checked:
            params.append("long long *__emjit_err")
        decls = []
        pset = set(self.params)
        for name, t in sorted(self.vartypes.items()):
            if name in pset:
                continue
            decls += self._declare(name, t)
        decls += views.declarations(self)
        for ctype, name in self.temps:
            decls.append("%s %s;" % (ctype, name))
        body = ["    " + d for d in decls + prologue + self.decls_text]
        if self.kind == "kernel":
            head = 'extern "C" __global__ void %s(%s)' % (self.cname, ", ".join(params) or "void")
        else:
            rt = self.return_type
            if isinstance(rt, Tuple):
                rc = self.mod.tuple_struct([it.code for it in rt.items])
            else:
                rc = "void" if rt in (None, NONE) else value_c(rt.code)
            head = "__device__ %s %s(%s)" % (rc, self.cname, ", ".join(params) or "void")
        tail = []
        if self.kind == "device" and isinstance(self.return_type, Tuple):
            codes = [it.code for it in self.return_type.items]
            name = self.mod.tuple_struct(codes)
            tail = ["    return __emjit_mk_%s(%s);" % (name[8:], ", ".join(
                zero_of(c).replace("(%s)" % storage_c(c), "(%s)" % value_c(c))
                for c in codes))]
        elif self.kind == "device" and self.return_type not in (None, NONE):
            # Python would return None here; a typed function returns 0.
            tail = ["    return %s;" % zero_of(self.return_type.code).replace(
                "(%s)" % storage_c(self.return_type.code), "(%s)" % value_c(self.return_type.code))]
        self.line(self.fdef)
        lines = [self.out.pop(), head, "{"] + body + self.out + tail + ["}"]
        return "\n".join(lines)

    def _declare(self, name, t):
        if isinstance(t, Scalar):
            z = zero_of(t.code).replace("(%s)" % storage_c(t.code), "(%s)" % value_c(t.code))
            return ["%s %s = %s;" % (value_c(t.code), self.cvar(name), z)]
        if isinstance(t, Tuple):
            out = []
            for k, it in enumerate(t.items):
                out += self._declare("%s__%d" % (name, k), it)
            return out
        return []

    # ---- statements ------------------------------------------------------

    def block(self, stmts):
        for s in stmts:
            if _is_docstring(s):
                continue
            try:
                self.stmt(s)
            except _Unknown:
                if self.final:
                    raise
                # the statement's own type is not known yet: still look
                # inside compound statements for assignments
                for field in ("body", "orelse"):
                    sub = getattr(s, field, None)
                    if isinstance(sub, list) and sub:
                        self.block(sub)

    def stmt(self, s):
        self.line(s)
        m = getattr(self, "s_" + type(s).__name__, None)
        if m is None:
            raise _unsupported(self, s, "statements")
        m(s)

    def s_Pass(self, s):
        self.emit(";")

    def s_Break(self, s):
        if not self.loops:
            raise self.error(s, "'break' outside a loop")
        self.emit("break;")

    def s_Continue(self, s):
        if not self.loops:
            raise self.error(s, "'continue' outside a loop")
        self.emit("continue;")

    def s_Expr(self, s):
        v = self.expr(s.value)
        if isinstance(v.type, (Scalar,)) or v.type == NONE:
            if v.code:
                self.emit("%s;" % v.code if isinstance(s.value, ast.Call) else "(void)(%s);" % v.code)
        elif isinstance(v.type, Tuple):
            pass

    def s_Return(self, s):
        if self.kind == "kernel":
            if s.value is not None and not (isinstance(s.value, ast.Constant) and s.value.value is None):
                raise self.error(s, "a kernel cannot return a value (kernels return None)")
            self.emit("return;")
            return
        if s.value is None or (isinstance(s.value, ast.Constant) and s.value.value is None):
            if self.return_type not in (None, NONE):
                raise self.error(s, "device function '%s' returns both None and %r"
                                 % (self.pyfunc.__name__, self.return_type))
            self.return_type = NONE
            self.emit("return;")
            return
        v = self.expr(s.value)
        if isinstance(v.type, Tuple) and v.type.items and all(
                isinstance(x, Scalar) for x in v.type.items):
            return self._return_tuple(v, s)
        if isinstance(v.type, (Tuple, Array)) or isinstance(v.type, PyObj):
            raise self.error(s, "device functions may return numbers or tuples of numbers "
                             "only, not %r" % (v.type,))
        if self.return_type == NONE:
            raise self.error(s, "device function '%s' returns both None and %r"
                             % (self.pyfunc.__name__, v.type))
        self.return_type = unify(self.return_type, make_strong(v.type))
        if self.return_type is None:
            raise self.error(s, "device function '%s' returns incompatible types"
                             % self.pyfunc.__name__)
        self.emit("return %s;" % conv(v, self.return_type.code))

    def _return_tuple(self, v, s):
        rt = self.return_type
        if rt == NONE or (rt is not None and not isinstance(rt, Tuple)):
            raise self.error(s, "device function '%s' returns both %r and %r"
                             % (self.pyfunc.__name__, rt, v.type))
        self.return_type = unify(rt, make_strong(v.type))
        if self.return_type is None:
            raise self.error(s, "device function '%s' returns tuples %r and %r"
                             % (self.pyfunc.__name__, rt, v.type))
        codes = [it.code for it in self.return_type.items]
        name = self.mod.tuple_struct(codes)
        self.emit("return __emjit_mk_%s(%s);" % (name[8:], ", ".join(
            conv(e, c) for e, c in zip(v.code, codes))))

    def s_If(self, s):
        self.emit("if (%s) {" % self.branch_cond(s.test))
        self.nested(s.body)
        if s.orelse:
            self.emit("} else {")
            self.nested(s.orelse)
        self.emit("}")

    def nested(self, stmts):
        self.depth += 1
        self.block(stmts)
        self.depth -= 1

    def s_While(self, s):
        if s.orelse:
            raise self.error(s, "'while ... else' is not supported in kernels")
        self.cond_depth += 1
        try:
            c = self.branch_cond(s.test)
        finally:
            self.cond_depth -= 1
        self.emit("while (%s) {" % c)
        self.loops += 1
        self.nested(s.body)
        self.loops -= 1
        self.emit("}")

    def s_For(self, s):
        if s.orelse:
            raise self.error(s, "'for ... else' is not supported in kernels")
        it = s.iter
        f = None
        if isinstance(it, ast.Call):
            f = self.expr(it.func)
        if not (f is not None and isinstance(f.type, PyObj) and f.type.kind == "builtin"
                and f.type.name == "range"):
            arr = self.expr(it)
            if isinstance(arr.type, Array) and arr.type.ndim >= 1:
                return self._for_array(s, arr.code)
            raise self.error(s, "kernels can loop only over range(...) and arrays, not %s"
                             % ast.unparse(it) if hasattr(ast, "unparse") else "this")
        if it.keywords or not 1 <= len(it.args) <= 3:
            raise self.error(s, "range() takes 1 to 3 positional arguments")
        if not isinstance(s.target, ast.Name):
            raise self.error(s, "the target of a for loop over range() must be a name")
        args = [self.expr(a) for a in it.args]
        for a, node in zip(args, it.args):
            if not isinstance(a.type, Scalar) or a.type.kind not in "biu":
                raise self.error(node, "range() arguments must be integers, not %r" % (a.type,))
        if len(args) == 1:
            start, stop, step = V("0LL", Scalar("i8", True), 0), args[0], V("1LL", Scalar("i8", True), 1)
        elif len(args) == 2:
            start, stop, step = args[0], args[1], V("1LL", Scalar("i8", True), 1)
        else:
            start, stop, step = args
        t = start.type
        for a in (stop, step):
            t = _promote_any(t, a.type)
        t = make_strong(t)
        if t.code == "b1" or t.kind == "u" and (step.const is None or step.const < 0):
            t = Scalar("i8")
        if step.const == 0:
            raise self.error(s, "range() step must not be zero")
        name = s.target.id
        vt = self.set_type(name, t, s)
        ct = value_c(t.code)
        # range() evaluates its arguments once; constants need no temporary
        i = self.temp(ct)
        e = conv(stop, t.code) if stop.const is not None else self.temp(ct)
        st = conv(step, t.code) if step.const is not None else self.temp(ct)
        if stop.const is None:
            self.emit("%s = %s;" % (e, conv(stop, t.code)))
        if step.const is None:
            self.emit("%s = %s;" % (st, conv(step, t.code)))
        if step.const is not None:
            cond = "%s %s %s" % (i, "<" if step.const > 0 else ">", e)
        else:
            cond = "(%s > 0 ? %s < %s : (%s < 0 && %s > %s))" % (st, i, e, st, i, e)
        self.emit("for (%s = %s; %s; %s += %s) {" % (i, conv(start, t.code), cond, i, st))
        self.depth += 1
        self.emit("%s = %s;" % (self.cvar(name), conv(V(i, t), vt.code)))
        self.depth -= 1
        self.loops += 1
        self.nested(s.body)
        self.loops -= 1
        self.emit("}")

    def _for_array(self, s, ref):
        """for x in a: the elements of a 1-d array, the rows (views) of
        others, over the first axis's extent when the loop starts."""
        i = self.temp("long long")
        n = self.temp("long long")
        self.emit("%s = %s;" % (n, ref.shapes[0]))
        self.emit("for (%s = 0; %s < %s; %s++) {" % (i, i, n, i))
        self.depth += 1
        self.store(s.target, views.element_or_row(self, ref, i, s), s)
        self.depth -= 1
        self.loops += 1
        self.nested(s.body)
        self.loops -= 1
        self.emit("}")

    def s_AnnAssign(self, s):
        if s.value is None:
            return
        self.assign([s.target], s.value, s)

    def s_Assign(self, s):
        self.assign(s.targets, s.value, s)

    def assign(self, targets, value, s):
        # declarations of arrays: x = cuda.shared.array(...) etc.
        if isinstance(value, ast.Call):
            f = self.expr(value.func)
            if isinstance(f.type, PyObj) and f.type.kind == "cuda" and \
                    f.type.name == "shared_memory":
                value, f = intrinsics.cupyx_shared_memory(self, value, s)
            if isinstance(f.type, PyObj) and f.type.kind == "cuda" and f.type.name in (
                    "shared.array", "local.array", "const.array_like"):
                if len(targets) != 1 or not isinstance(targets[0], ast.Name):
                    raise self.error(s, "cuda.%s(...) must be assigned to one variable"
                                     % f.type.name)
                self.declare_array(targets[0].id, f.type.name, value, s)
                return
        v = self.expr(value)
        if len(targets) > 1 and isinstance(v.type, Scalar) and not is_simple(v.code):
            tmp = self.temp(value_c(v.type.code))
            self.emit("%s = %s;" % (tmp, v.code))
            v = V(tmp, v.type, v.const)
        for t in targets:
            self.store(t, v, s)

    def store(self, target, v, s):
        if isinstance(target, ast.Name):
            name = target.id
            if isinstance(v.type, Array) and (v.code.is_view or name in self.view_vars):
                if name in self.vartypes or name in self.aliases:
                    raise self.error(s, "variable '%s' would have two incompatible types: "
                                     "%r and %r" % (name, self.vartypes.get(name) or
                                                    self.aliases[name].type, v.type))
                views.bind(self, name, v.code, s)
                return
            if isinstance(v.type, Array):
                ref = v.code
                old = self.arrays.get(name)
                if name in self.vartypes:
                    raise self.error(s, "variable '%s' would have two incompatible types: %r "
                                     "and %r" % (name, self.vartypes[name], v.type))
                if old is not None and old != ref:
                    if (old.type.dtype, old.type.ndim) != (ref.type.dtype, ref.type.ndim):
                        raise self.error(s, "variable '%s' would hold arrays of two kinds: "
                                         "%r and %r" % (name, old.type, ref.type))
                    # Numba lets a variable name another array of its type
                    # (swapping buffers each step): from the next pass on it
                    # holds a pointer, extents and strides of its own
                    views.bind(self, name, ref, s)
                    return
                self.arrays[name] = ref
                return
            if isinstance(v.type, PyObj) and v.code is None:
                # a second name for a compile-time object: `bi = cuda.blockIdx`
                old = self.aliases.get(name)
                if name in self.vartypes or name in self.arrays or (
                        old is not None and old.type != v.type):
                    raise self.error(s, "variable '%s' would name both %r and %r"
                                     % (name, old.type if old is not None else
                                        self.vartypes.get(name) or self.arrays[name].type,
                                        v.type))
                self.aliases[name] = v
                return
            if isinstance(v.type, PyObj) or v.type == NONE:
                raise self.error(s, "cannot assign %r to variable '%s' in a kernel"
                                 % (v.type, name))
            if name in self.arrays or name in self.aliases:
                raise self.error(s, "variable '%s' would have two incompatible types: %r "
                                 "and %r" % (name, self.arrays[name].type if name in
                                             self.arrays else self.aliases[name].type,
                                             make_strong(v.type)))
            vt = self.set_type(name, v.type, s)
            self.assign_var(name, vt, v, s)
            return
        if isinstance(target, (ast.Tuple, ast.List)):
            if not isinstance(v.type, Tuple):
                raise self.error(s, "cannot unpack %r into %d targets" % (v.type, len(target.elts)))
            if len(v.type.items) != len(target.elts):
                raise self.error(s, "cannot unpack a tuple of %d into %d targets"
                                 % (len(v.type.items), len(target.elts)))
            # evaluate every element first (a, b = b, a)
            items = []
            for e in v.code:
                if isinstance(e.type, Scalar) and not (is_simple(e.code) and e.const is not None):
                    tmp = self.temp(value_c(e.type.code))
                    self.emit("%s = %s;" % (tmp, e.code))
                    e = V(tmp, e.type, e.const)
                items.append(e)
            for t, e in zip(target.elts, items):
                self.store(t, e, s)
            return
        if isinstance(target, ast.Subscript):
            self.store_element(target, v, s, None)
            return
        if isinstance(target, ast.Starred):
            raise self.error(s, "starred assignment is not supported in kernels")
        raise self.error(s, "cannot assign to %s in a kernel" % type(target).__name__.lower())

    def assign_var(self, name, vt, v, s):
        if isinstance(vt, Tuple):
            if not isinstance(v.type, Tuple):
                raise self.error(s, "variable '%s' would have two incompatible types: %r and %r"
                                 % (name, vt, v.type))
            for k, (it, e) in enumerate(zip(vt.items, v.code)):
                self.assign_var("%s__%d" % (name, k), it, e, s)
            return
        self.emit("%s = %s;" % (self.cvar(name), conv(v, vt.code)))

    def s_AugAssign(self, s):
        t = s.target
        if isinstance(t, ast.Name):
            cur = self.expr(ast.copy_location(ast.Name(id=t.id, ctx=ast.Load()), t))
            r = binop(type(s.op), cur, self.expr(s.value), self.fail_at(s))
            self.store(t, r, s)
            return
        if isinstance(t, ast.Subscript):
            self.store_element(t, self.expr(s.value), s, type(s.op))
            return
        raise self.error(s, "augmented assignment to %s is not supported"
                         % type(t).__name__.lower())

    # ---- arrays ----------------------------------------------------------

    def declare_array(self, name, what, call, s):
        if name in self.vartypes or (name in self.arrays and name not in self.decls):
            raise self.error(s, "variable '%s' would have two incompatible types: %r and %s"
                             % (name, self.vartypes.get(name) or self.arrays[name].type, what))
        ref, first = self.decls.get(name, (None, None))
        if ref is None:
            ref = intrinsics.make_array(self, name, what, call, s)
            self.decls[name] = (ref, ast.dump(call))
        elif first != ast.dump(call):
            raise self.error(s, "variable '%s' names two different cuda.%s() arrays; "
                             "use another name" % (name, what))
        self.arrays[name] = ref
        for d in ref.decl_text or ():
            if d not in self.decls_text:
                self.decls_text.append(d)

    def index_values(self, ref, sl, node):
        """The C index expressions (long long) for subscript sl of ref."""
        if isinstance(sl, ast.Index):       # Python < 3.9
            sl = sl.value
        if isinstance(sl, ast.Slice) or (isinstance(sl, ast.Tuple) and any(
                isinstance(e, ast.Slice) for e in sl.elts)):
            raise self.error(node, "a slice of array '%s' cannot be used here: give the "
                             "index of one element" % ref.name)
        v = self.expr(sl)
        return self._item_indices(ref, v.code if isinstance(v.type, Tuple) else [v],
                                  node)

    def access_args(self, ref, idx, node):
        args = [ref.data] + list(ref.shapes) + list(ref.strides) + idx
        if self.mod.checked:
            site = self.mod.site(ref.name, self.where, node) if self.final else 0
            args += [str(site), "__emjit_err"]
        return args

    def _item_indices(self, ref, items, node):
        """The C indices (long long) of integer items already evaluated (V)."""
        nd = ref.type.ndim
        if len(items) != nd:
            raise self.error(node, "array '%s' has %d dimension%s but %d %s given"
                             % (ref.name, nd, "" if nd == 1 else "s", len(items),
                                "index was" if len(items) == 1 else "indices were"))
        idx = []
        for e in items:
            if not isinstance(e.type, Scalar) or e.type.kind not in "biu":
                raise self.error(node, "array '%s' index must be an integer, not %r"
                                 % (ref.name, e.type))
            idx.append(conv(e, "i8"))
        return idx

    def load_items(self, ref, items, node):
        """The element ref[items]."""
        idx = self._item_indices(ref, items, node)
        at, ld = self.mod.access(ref.type.dtype, ref.type.ndim)
        c = "%s(%s)" % (ld, ", ".join(self.access_args(ref, idx, node)))
        return V(_from_storage(c, ref.type.dtype), Scalar(ref.type.dtype))

    def pointer_items(self, ref, items, node):
        """The C pointer to the element ref[items]."""
        idx = self._item_indices(ref, items, node)
        at, ld = self.mod.access(ref.type.dtype, ref.type.ndim)
        return "%s(%s)" % (at, ", ".join(self.access_args(ref, idx, node)))

    def pointer(self, ref, sl, node):
        idx = self.index_values(ref, sl, node)
        at, ld = self.mod.access(ref.type.dtype, ref.type.ndim)
        return "%s(%s)" % (at, ", ".join(self.access_args(ref, idx, node)))

    def store_element(self, target, v, s, op):
        base = self.expr(target.value)
        if isinstance(base.type, Tuple):
            raise self.error(s, "tuples cannot be changed (item assignment)")
        if not isinstance(base.type, Array):
            raise self.error(s, "cannot assign to an element of %r" % (base.type,))
        ref = base.code
        if not ref.writable:
            raise self.error(s, "array '%s' is constant memory and cannot be written"
                             % ref.name)
        items = views.subscript_items(self, target.slice)
        if any(isinstance(e, ast.Slice) for e in items) or len(items) < ref.type.ndim:
            from . import elementwise
            view = views.make_view(self, ref, items, target)
            elementwise.assign(self, view, v, op, s)
            return
        dt = ref.type.dtype
        T = storage_c(dt)
        p = self.pointer_items(ref, items, target)
        if op is not None:
            cur = V(_from_storage("(*__emjit_p)", dt), Scalar(dt))
            v = binop(op, cur, v, self.fail_at(s))
        if not isinstance(v.type, Scalar):
            raise self.error(s, "cannot store %r in an element of array '%s' (%r)"
                             % (v.type, ref.name, ref.type))
        if v.type.kind == "c" and dt[0] != "c":
            raise self.error(s, "cannot store %r in an element of array '%s' (%r) without "
                             "losing the imaginary part: store .real" % (v.type, ref.name,
                                                                        ref.type))
        val = _to_storage(conv(v, dt), dt)
        if self.mod.checked or op is not None:
            self.emit("{")
            self.emit("    %s *__emjit_p = %s;" % (T, p))
            if self.mod.checked:
                self.emit("    if (__emjit_p)")
                self.emit("        *__emjit_p = %s;" % val)
            else:
                self.emit("    *__emjit_p = %s;" % val)
            self.emit("}")
        else:
            self.emit("*%s = %s;" % (p, val))

    # ---- expressions -----------------------------------------------------

    def cond(self, node):
        v = self.expr(node)
        if not isinstance(v.type, Scalar):
            raise self.error(node, "the truth of %r is not defined in kernels" % (v.type,))
        return truth(v)

    def branch_cond(self, node):
        """cond(node) for an if or while; a condition whose types an early
        pass does not know yet reads as true there, so that the pass still
        walks the body for its assignments (the final pass raises)."""
        try:
            return self.cond(node)
        except _Unknown:
            if self.final:
                raise
            return "1"

    def expr(self, node):
        m = getattr(self, "e_" + type(node).__name__, None)
        if m is None:
            raise _unsupported(self, node, "expressions")
        return m(node)

    def e_Constant(self, node):
        x = node.value
        if isinstance(x, bool):
            return V("true" if x else "false", Scalar("b1", True), x)
        if isinstance(x, int):
            lit = literal(x, "i8") if -(1 << 63) <= x < (1 << 63) else None
            if lit is None:
                if 0 <= x < (1 << 64):
                    return V("%dULL" % x, Scalar("u8"), x)
                raise self.error(node, "integer %d does not fit in 64 bits" % x)
            return V(lit, Scalar("i8", True), x)
        if isinstance(x, float):
            return V(literal(x, "f8"), Scalar("f8", True), x)
        if isinstance(x, complex):
            return V(literal(x, "c16"), Scalar("c16", True), x)
        if x is None:
            return V("", NONE)
        if isinstance(x, (str, bytes)):
            raise self.error(node, "strings are not supported in kernels")
        raise self.error(node, "the constant %r is not supported in kernels" % (x,))

    def e_Name(self, node):
        name = node.id
        if name in self.aliases:
            return self.aliases[name]
        if name in self.arrays:
            ref = self.arrays[name]
            return V(ref, ref.type)
        if name in self.vartypes:
            t = self.vartypes[name]
            return self._var_value(name, t)
        if name in self.assigned or name in self.params:
            if self.final:
                raise self.error(node, "variable '%s' is used before it is assigned" % name)
            raise _Unknown()
        found, obj = lookup_global(self.pyfunc, name)
        if not found:
            raise self.error(node, "name '%s' is not defined" % name)
        return self.global_value(obj, name, node)

    def _var_value(self, name, t):
        if isinstance(t, Tuple):
            return V([self._var_value("%s__%d" % (name, k), it) for k, it in enumerate(t.items)], t)
        return V(self.cvar(name), t)

    def global_value(self, obj, name, node):
        if views.is_device_array(obj):
            ref = views.captured_array(self, obj, name, node)
            return V(ref, ref.type)
        c = classify(obj)
        if c is None:
            raise self.error(node, "global '%s' (%s) cannot be used in a kernel: only "
                             "numbers, tuples of numbers, NumPy arrays (as constants), "
                             "the math, numpy and cuda modules and device functions can"
                             % (name, type(obj).__name__))
        return self.constant_value(c, node, name)

    def constant_value(self, c, node, name="constant"):
        if isinstance(c, PyObj):
            return V(None, c)
        if isinstance(c, (bool, int, float, complex)):
            return self.e_Constant(ast.copy_location(ast.Constant(value=c), node))
        if isinstance(c, tuple):
            items = [self.constant_value(classify(x), node) for x in c]
            return V(items, Tuple(e.type for e in items))
        if type(c).__name__ == "ndarray":
            return self._const_array_value(c, node, name)
        if hasattr(c, "dtype"):   # a NumPy scalar: a constant of its own type
            code = c.dtype.str[1:]
            py = c.item()
            return V(literal(py, code), Scalar(code), py)
        raise self.error(node, "unsupported constant %r" % (c,))

    def _const_array_value(self, arr, node, name):
        ref = intrinsics.const_array_ref(self, arr, node, name)
        return V(ref, ref.type)

    def e_Attribute(self, node):
        base = self.expr(node.value)
        return intrinsics.attribute(self, base, node.attr, node)

    def e_Subscript(self, node):
        base = self.expr(node.value)
        t = base.type
        if isinstance(t, Array):
            items = views.subscript_items(self, node.slice)
            if any(isinstance(e, ast.Slice) for e in items) or len(items) < t.ndim:
                ref = views.make_view(self, base.code, items, node)
                return V(ref, ref.type)
            return self.load_items(base.code, items, node)
        if isinstance(t, Tuple):
            sl = node.slice.value if isinstance(node.slice, ast.Index) else node.slice
            if isinstance(sl, ast.Slice):
                raise self.error(node, "slicing tuples is not supported in kernels")
            k = self.expr(sl)
            n = len(t.items)
            if not isinstance(k.const, int) or isinstance(k.const, bool):
                return self._tuple_at(base, k, node)
            i = k.const + n if k.const < 0 else k.const
            if not 0 <= i < n:
                raise self.error(node, "tuple index %d out of range for a tuple of %d"
                                 % (k.const, n))
            return base.code[i]
        raise self.error(node, "%r is not subscriptable" % (t,))

    def _tuple_at(self, base, k, node):
        """A tuple of numbers indexed by a run-time integer (Numba's
        homogeneous tuples): a chain of selects on the wrapped index."""
        t = base.type
        n = len(t.items)
        if not isinstance(k.type, Scalar) or k.type.kind not in "biu":
            raise self.error(node, "a tuple index must be an integer, not %r" % (k.type,))
        if not n or not all(isinstance(x, Scalar) for x in t.items):
            raise self.error(node, "only tuples of numbers can be indexed by a variable, "
                             "not %r" % (t,))
        rt = t.items[0]
        for x in t.items[1:]:
            rt = _promote_any(rt, x)
        rt = make_strong(rt)
        idx = self.temp("long long")
        if self.mod.checked:
            site = self.mod.site("tuple", self.where, node) if self.final else 0
            w = "__emjit_ck(%s, %dLL, 0, %d, __emjit_err)" % (conv(k, "i8"), n, site)
        else:
            w = "__emjit_wrap(%s, %dLL)" % (conv(k, "i8"), n)
        code = conv(base.code[n - 1], rt.code)
        for i in range(n - 2, -1, -1):
            code = "%s == %d ? %s : %s" % (idx, i, conv(base.code[i], rt.code), code)
        return V("((%s = %s), %s)" % (idx, w, code), rt)

    def e_Tuple(self, node):
        items = [self.expr(e) for e in node.elts]
        for e, n in zip(items, node.elts):
            if not isinstance(e.type, (Scalar, Tuple, PyObj)):
                raise self.error(n, "tuples of %r are not supported in kernels" % (e.type,))
        return V(items, Tuple(e.type for e in items))

    def e_BinOp(self, node):
        a, b = self.expr(node.left), self.expr(node.right)
        return binop(type(node.op), a, b, self.fail_at(node))

    def e_UnaryOp(self, node):
        return unary(node.op, self.expr(node.operand), self.fail_at(node))

    def e_Compare(self, node):
        left = self.expr(node.left)
        parts = []
        for k, (op, rnode) in enumerate(zip(node.ops, node.comparators)):
            right = self.expr(rnode)
            if k < len(node.ops) - 1 and isinstance(right.type, Scalar) and \
                    not is_simple(right.code):
                tmp = self.temp(value_c(right.type.code))
                parts.append(compare(type(op), left, V("(%s = %s)" % (tmp, right.code),
                                                       right.type), self.fail_at(node)).code)
                right = V(tmp, right.type, right.const)
            else:
                parts.append(compare(type(op), left, right, self.fail_at(node)).code)
            left = right
        code = parts[0] if len(parts) == 1 else "(%s)" % " && ".join(parts)
        return V(code, Scalar("b1"))

    def e_BoolOp(self, node):
        vals = [self.expr(node.values[0])]
        self.cond_depth += 1
        try:
            vals += [self.expr(v) for v in node.values[1:]]
        finally:
            self.cond_depth -= 1
        for v, n in zip(vals, node.values):
            if not isinstance(v.type, Scalar):
                raise self.error(n, "the truth of %r is not defined in kernels" % (v.type,))
        is_and = isinstance(node.op, ast.And)
        if all(v.type.code == "b1" for v in vals):
            cop = " && " if is_and else " || "
            return V("(%s)" % cop.join(v.code for v in vals), Scalar("b1"))
        t = vals[0].type
        for v in vals[1:]:
            t = _promote_any(t, v.type)
        acc = vals[0]
        for v in vals[1:]:
            tmp = self.temp(value_c(t.code))
            first = V(tmp, t)
            if is_and:
                code = "((%s = %s), %s ? %s : %s)" % (tmp, conv(acc, t.code), truth(first),
                                                     conv(v, t.code), tmp)
            else:
                code = "((%s = %s), %s ? %s : %s)" % (tmp, conv(acc, t.code), truth(first),
                                                     tmp, conv(v, t.code))
            acc = V(code, t)
        return acc

    def e_IfExp(self, node):
        c = self.cond(node.test)
        self.cond_depth += 1
        try:
            a, b = self.expr(node.body), self.expr(node.orelse)
        finally:
            self.cond_depth -= 1
        if not isinstance(a.type, Scalar) or not isinstance(b.type, Scalar):
            raise self.error(node, "conditional expressions of %r and %r are not supported"
                             % (a.type, b.type))
        t = _promote_any(a.type, b.type)
        return V("(%s ? %s : %s)" % (c, conv(a, t.code), conv(b, t.code)), t)

    def e_Call(self, node):
        f = self.expr(node.func)
        if not isinstance(f.type, PyObj):
            raise self.error(node, "%r is not callable" % (f.type,))
        return intrinsics.call(self, f.type, node)

    def e_NamedExpr(self, node):
        v = self.expr(node.value)
        self.store(node.target, v, node)
        return self.expr(ast.copy_location(ast.Name(id=node.target.id, ctx=ast.Load()),
                                           node.target))


def _promote_any(a, b):
    from .types import promote
    return promote(a, b)


# The dtypes whose array element is not their value type: (load, store)
# wrappers; every other dtype is stored as it computes.
_STORAGE_CONV = {
    "b1": ("(%s != 0)", "(unsigned char)(%s)"),
    "f2": ("__emjit_h2f(%s)", "__emjit_f2h(%s)"),
}


def _from_storage(c, dt):
    return _STORAGE_CONV[dt][0] % c if dt in _STORAGE_CONV else c


def _to_storage(c, dt):
    return _STORAGE_CONV[dt][1] % c if dt in _STORAGE_CONV else c


# What an error calls each statement and expression the translator has
# no method for (the others are named by their class).
_UNSUPPORTED_NAMES = {
    "Try": "try statements", "TryStar": "try statements", "Raise": "raise statements",
    "With": "with statements", "AsyncWith": "async with statements",
    "ClassDef": "class definitions", "FunctionDef": "nested function definitions",
    "AsyncFunctionDef": "nested function definitions", "Delete": "del statements",
    "Import": "import statements", "ImportFrom": "import statements",
    "Assert": "assert statements", "Match": "match statements",
    "AsyncFor": "async for loops", "Global": "global statements",
    "Nonlocal": "nonlocal statements",
    "Dict": "dicts", "Set": "sets", "List": "lists", "ListComp": "list comprehensions",
    "SetComp": "set comprehensions", "DictComp": "dict comprehensions",
    "GeneratorExp": "generator expressions", "Lambda": "lambdas",
    "Yield": "generators (yield)", "YieldFrom": "generators (yield from)",
    "Await": "await expressions", "JoinedStr": "strings (f-strings)",
    "FormattedValue": "strings (f-strings)", "Starred": "starred expressions",
    "Slice": "slices",
}


def _unsupported(tr, node, kind):
    """The error for a node of a kind (statements, expressions) that
    kernels cannot have."""
    name = type(node).__name__
    return tr.error(node, "%s are not supported in kernels" %
                    _UNSUPPORTED_NAMES.get(name, "'%s' %s" % (name, kind)))
