"""Struct values for ember.cuda.compute: gpu_struct, and operators over
struct fields run on ember.parallel's tuple values.

A struct type is a NumPy structured dtype (gpu_struct makes one with
align=True, as cuda.compute does; a structured array's or a ZipIterator's
dtype serves as well). Its *leaves* are its scalar fields in order, nested
structs flattened. ember.parallel has no struct values, but it has tuple
values: a tuple of arrays, one per component, and a device function over
the components. So a struct value is kept as one array per leaf
(``Fields``), and an operator written over structs (``v.min_val``,
``p[0]``, ``MinMax(x, y)``, ``return a if c else b``) is rewritten, once
per (function, types), into a function over the leaves that returns a
tuple of leaves: ``op(p1, p2)`` over a struct of n leaves becomes
``op(p1_0, ..., p1_{n-1}, p2_0, ..., p2_{n-1})``, which is
ember.parallel's convention for tuple scans. Transforms with struct inputs
or results run that function in one generated ember.cuda.jit kernel that
reads each leaf in its own dtype and writes every result leaf."""
import ast
import hashlib
import types

import numpy as np

import ember
from ember import _ember as _e
from ember._struct_array import StructArray
from ember.cuda.compute import _ops


# ---- gpu_struct -----------------------------------------------------------

def _field_dtype(t, fn="gpu_struct"):
    """A field's type as a NumPy dtype: a number type (NumPy's, ember's,
    a name), a gpu_struct class, a structured dtype or a dict of fields
    (an anonymous nested struct)."""
    if isinstance(t, type) and getattr(t, "_ember_gpu_struct", False):
        return t.dtype
    if isinstance(t, dict):
        return _make_dtype(t)
    if isinstance(t, _e.dtype):
        return np.dtype(t.name)
    try:
        d = np.dtype(t)
    except TypeError:
        raise TypeError(f"{fn}: field type {t!r} is not a dtype, a NumPy or "
                        "ember number type or a gpu_struct") from None
    return d


def _make_dtype(fields):
    if not fields:
        raise ValueError("gpu_struct: a struct needs at least one field")
    return np.dtype([(str(k), _field_dtype(v)) for k, v in fields.items()],
                     align=True)


class _StructBase:
    """An instance of a gpu_struct type on the host: one record, kept as a
    0-d NumPy structured array. Fields read as NumPy scalars (a nested
    struct as its gpu_struct type, a view)."""
    _ember_gpu_struct = True
    __slots__ = ("_rec",)
    dtype = None
    _nested = {}

    def __init__(self, *args, **kwargs):
        names = self.dtype.names
        if len(args) > len(names):
            raise TypeError(f"{type(self).__name__}() takes {len(names)} "
                            f"fields, {len(args)} given")
        vals = dict(zip(names, args))
        for k, v in kwargs.items():
            if k not in names:
                raise TypeError(f"{type(self).__name__}() has no field {k!r}")
            if k in vals:
                raise TypeError(f"{type(self).__name__}(): field {k!r} given "
                                "twice")
            vals[k] = v
        missing = [k for k in names if k not in vals]
        if missing:
            raise TypeError(f"{type(self).__name__}() missing field(s) "
                            f"{', '.join(missing)}")
        object.__setattr__(self, "_rec", np.zeros((), self.dtype))
        for k in names:
            setattr(self, k, vals[k])

    @classmethod
    def _view(cls, rec):
        o = object.__new__(cls)
        object.__setattr__(o, "_rec", rec)
        return o

    def __getattr__(self, name):
        if name.startswith("_") or name not in self.dtype.names:
            raise AttributeError(f"{type(self).__name__!r} has no field "
                                 f"{name!r}")
        sub = self._nested.get(name)
        if sub is not None:
            return sub._view(self._rec[name])
        return self._rec[name][()]

    def __setattr__(self, name, value):
        if name not in self.dtype.names:
            raise AttributeError(f"{type(self).__name__!r} has no field "
                                 f"{name!r}")
        if isinstance(value, _StructBase):
            value = value._rec
        self._rec[name] = value

    def __getitem__(self, k):
        if isinstance(k, str):
            return getattr(self, k)
        return getattr(self, self.dtype.names[k])

    def __len__(self):
        return len(self.dtype.names)

    def __iter__(self):
        return (getattr(self, k) for k in self.dtype.names)

    def __array__(self, dtype=None, copy=None):
        r = self._rec.copy()
        return r if dtype is None else r.astype(dtype)

    def __eq__(self, other):
        o = other._rec if isinstance(other, _StructBase) else other
        try:
            return bool(self._rec == np.asarray(o, dtype=self.dtype))
        except (TypeError, ValueError):
            return NotImplemented

    __hash__ = None

    def __repr__(self):
        def show(v):
            return repr(v) if isinstance(v, _StructBase) else str(v)
        return f"{type(self).__name__}(" + ", ".join(
            f"{k}={show(getattr(self, k))}" for k in self.dtype.names) + ")"


def gpu_struct(fields, name="AnonymousStruct"):
    """cuda.compute's struct type factory: ``@gpu_struct`` over a class
    whose annotations are the fields (in order), or ``gpu_struct({'a':
    np.int32, 'b': np.float64}, name='Pair')``. A field is a number type
    (NumPy's or ember's), another gpu_struct (nested), or a dict of
    fields. The type's ``dtype`` is the NumPy structured dtype (align=True)
    for ``ember.empty(n, dtype=T.dtype)``; ``T(1, 2.0)`` is a host value
    (h_init); inside an operator ``T(x, y)`` (or a tuple where a nested
    struct is expected) builds a struct value."""
    if isinstance(fields, dict):
        cls_name, spec, doc = name, dict(fields), None
    elif isinstance(fields, type):
        spec = dict(getattr(fields, "__annotations__", {}))
        cls_name, doc = fields.__name__, fields.__doc__
    else:
        raise TypeError("gpu_struct takes a class with annotated fields or a "
                        f"dict of field types, not {type(fields).__name__}")
    dt = _make_dtype(spec)
    nested = {}
    for k, t in spec.items():
        if isinstance(t, type) and getattr(t, "_ember_gpu_struct", False):
            nested[str(k)] = t
        elif isinstance(t, dict):
            nested[str(k)] = gpu_struct(t, name=f"{cls_name}_{k}")
    ns = {"dtype": dt, "_nested": nested, "__slots__": (), "__doc__": doc}
    if isinstance(fields, type):
        ns["__module__"] = fields.__module__
        ns["__qualname__"] = fields.__qualname__
    return type(cls_name, (_StructBase,), ns)


def is_struct_type(o):
    return isinstance(o, type) and issubclass(o, _StructBase)


# ---- leaves -----------------------------------------------------------------

def leaves(dt):
    """[(path, dtype)] of a struct dtype's scalar fields, in order."""
    out = []
    for name in dt.names:
        ft = dt.fields[name][0]
        if ft.names is not None:
            out += [((name,) + p, d) for p, d in leaves(ft)]
        elif ft.shape:
            raise NotImplementedError(
                f"struct field {name!r} is an array ({ft}): operators over "
                "structs take scalar and struct fields only")
        else:
            out.append(((name,), ft))
    return out


def nleaves(dt):
    return len(leaves(dt))


def record_leaves(rec):
    """The leaf values (Python scalars) of a 0-d structured array."""
    vals = []
    for path, _ in leaves(rec.dtype):
        v = rec
        for k in path:
            v = v[k]
        vals.append(v[()].item())
    return vals


class Fields:
    """Struct values materialized: one ember array per leaf of dtype dt,
    all of one length."""

    def __init__(self, dt, arrays):
        self.dtype, self.arrays = dt, list(arrays)
        if len(self.arrays) != nleaves(dt):
            raise AssertionError("leaf count")

    @property
    def size(self):
        return self.arrays[0].size

    @property
    def device(self):
        return self.arrays[0].device

    def __getitem__(self, s):
        return Fields(self.dtype, [a[s] for a in self.arrays])


def struct_array_fields(sa, n=None):
    """The leaves of a struct array (flattened; its first n records) as
    Fields: views of its bytes where the fields are aligned."""
    if sa.ndim != 1:
        sa = sa.reshape(-1)
    if n is not None:
        sa = sa[:n]
    arrs = []
    for path, _ in leaves(sa.dtype):
        v = sa
        for k in path:
            v = v[k]
        arrs.append(v)
    return Fields(sa.dtype, arrs)


def write_struct_array(sa, r):
    """Fields r into the first r.size records of the struct array sa,
    leaf by leaf (each cast to the field's dtype)."""
    if sa.ndim != 1:
        if not sa.flags.c_contiguous:
            raise ValueError("a struct array written through must be "
                             "C-contiguous")
        sa = sa.reshape(-1)
    if r.size > sa.size:
        raise ValueError(f"{r.size} items to write into a struct array of "
                         f"{sa.size}")
    ls = leaves(sa.dtype)
    if len(ls) != len(r.arrays):
        raise TypeError(f"values of {len(r.arrays)} fields ({r.dtype}) do not "
                        f"fit a struct array of {len(ls)} ({sa.dtype})")
    head = sa[:r.size]
    for (path, _), a in zip(ls, r.arrays):
        tgt = head
        for k in path[:-1]:
            tgt = tgt[k]
        tgt[path[-1]] = a


def zipped_dtype(parts):
    """The struct type of a ZipIterator's values: fields f0, f1, ... of
    its components' types (a struct component nested)."""
    return np.dtype([(f"f{k}", p.dtype if isinstance(p, Fields)
                      else np.dtype(p.dtype.name))
                     for k, p in enumerate(parts)], align=True)


def as_fields(parts):
    """A ZipIterator's materialized components as one Fields."""
    arrs = []
    for p in parts:
        arrs += p.arrays if isinstance(p, Fields) else [p]
    return Fields(zipped_dtype(parts), arrs)


# ---- operators over structs -------------------------------------------------

class _Rewrite:
    """Rewrites a FunctionDef over struct values into one over their
    leaves (see the module docstring)."""

    def __init__(self, f, fn, what, lookup):
        self.f, self.fn, self.what, self.lookup = f, fn, what, lookup
        self.env = {}       # local name -> struct dtype
        self.ret = None     # struct dtype, or "scalar"
        self.tmp = 0

    def fail(self, node, why):
        return NotImplementedError(
            f"{self.fn}: {self.what} '{self.f.__name__}': {why} (at "
            f"'{ast.unparse(node)}'); ember rewrites struct operators into "
            "functions of their fields, which covers field reads, struct "
            "construction, struct variables and conditional expressions")

    def names(self, var, dt):
        return [f"_{var}_{k}" for k in range(nleaves(dt))]

    # -- expressions
    def _field(self, dt, lv, key, node):
        """(dtype, leaves) of field key (a name or a position) of a struct
        of dtype dt whose leaves are lv."""
        if isinstance(key, int):
            if not -len(dt.names) <= key < len(dt.names):
                raise IndexError(f"{self.fn}: {self.what}: field index {key} "
                                 f"out of range for a struct of "
                                 f"{len(dt.names)} fields")
            key = dt.names[key]
        if key not in dt.names:
            # p.zz as Python's attribute error, p['zz'] as NumPy's record
            err = AttributeError if isinstance(node, ast.Attribute) else \
                ValueError
            raise err(f"{self.fn}: {self.what} '{self.f.__name__}': no "
                      f"field of name {key} in the struct {list(dt.names)} "
                      f"(at '{ast.unparse(node)}')")
        start = 0
        for name in dt.names:
            ft = dt.fields[name][0]
            k = nleaves(ft) if ft.names is not None else 1
            if name == key:
                return (ft if ft.names is not None else None), \
                    lv[start:start + k]
            start += k

    def struct(self, node, want=None):
        """(dtype, [leaf expressions]) of a struct-valued expression, or
        None when node is not one. want: the struct type expected (a tuple
        builds it)."""
        if isinstance(node, ast.Name) and node.id in self.env:
            dt = self.env[node.id]
            return dt, [ast.Name(n, ast.Load()) for n in
                        self.names(node.id, dt)]
        if isinstance(node, (ast.Attribute, ast.Subscript)):
            r = self.access(node)
            if r is not None and r[0] is not None:
                return r
            return None
        if isinstance(node, ast.Call):
            cls = self.lookup(node.func)
            if is_struct_type(cls):
                return cls.dtype, self.build(cls.dtype, node.args,
                                             node.keywords, node)
            return None
        if isinstance(node, (ast.Tuple, ast.List)) and want is not None:
            return want, self.build(want, node.elts, [], node)
        if isinstance(node, ast.IfExp):
            a = self.struct(node.body, want)
            b = self.struct(node.orelse, want if a is None else a[0])
            if a is None and b is None:
                return None
            if a is None or b is None or a[0] != b[0]:
                raise self.fail(node, "the two branches are not structs of "
                                "one type")
            test = self.scalar(node.test)
            return a[0], [ast.IfExp(test, x, y) for x, y in zip(a[1], b[1])]
        return None

    def access(self, node):
        """A field read: (None, [leaf]) for a scalar field, (dtype,
        leaves) for a struct one; None when node reads no struct."""
        if isinstance(node, ast.Attribute):
            base = self.struct(node.value)
            if base is None:
                return None
            return self._field(base[0], base[1], node.attr, node)
        if isinstance(node, ast.Subscript):
            base = self.struct(node.value)
            if base is None:
                return None
            k = node.slice
            key = _ops._const_int(k)
            if key is None and isinstance(k, ast.Constant) and \
                    isinstance(k.value, str):
                key = k.value
            if key is None:
                raise self.fail(node, "a struct is indexed by a constant "
                                "position or field name only")
            return self._field(base[0], base[1], key, node)
        return None

    def build(self, dt, args, keywords, node):
        """The leaves of a struct of dtype dt built from positional args
        and keywords (T(...) or a tuple)."""
        names = dt.names
        if len(args) > len(names):
            raise self.fail(node, f"{len(args)} values for a struct of "
                            f"{len(names)} fields")
        given = dict(zip(names, args))
        for kw in keywords:
            if kw.arg not in names:
                raise self.fail(node, f"no field {kw.arg!r}")
            given[kw.arg] = kw.value
        out = []
        for name in names:
            if name not in given:
                raise self.fail(node, f"field {name!r} is not given")
            ft = dt.fields[name][0]
            e = given[name]
            if ft.names is not None:
                r = self.struct(e, want=ft)
                if r is None or r[0] != ft:
                    raise self.fail(e, f"field {name!r} needs a struct "
                                    f"{list(ft.names)}")
                out += r[1]
            else:
                out.append(self.scalar(e))
        return out

    def scalar(self, node):
        """node rewritten as a number expression (its field reads become
        leaf names)."""
        outer = self

        class T(ast.NodeTransformer):
            def visit_Attribute(self, n):
                r = outer.access(n)
                if r is None:
                    return self.generic_visit(n)
                if r[0] is not None:
                    raise outer.fail(n, "a struct where a number is needed")
                return ast.copy_location(r[1][0], n)

            visit_Subscript = visit_Attribute

            def visit_Name(self, n):
                if n.id in outer.env:
                    raise outer.fail(n, "a struct where a number is needed "
                                     "(a struct can be returned, assigned or "
                                     "have its fields read)")
                return n

            def visit_Call(self, n):
                if is_struct_type(outer.lookup(n.func)):
                    raise outer.fail(n, "a struct where a number is needed")
                return self.generic_visit(n)
        return T().visit(node)

    # -- statements
    def assign_struct(self, var, dt, lv, node):
        self.env[var] = dt
        names = self.names(var, dt)
        reads = {n.id for e in lv for n in ast.walk(e)
                 if isinstance(n, ast.Name)}
        out = []
        if reads & set(names):     # v = T(v.b, v.a): read all, then write
            tmps = []
            for e in lv:
                self.tmp += 1
                t = f"_t{self.tmp}"
                tmps.append(t)
                out.append(ast.Assign([ast.Name(t, ast.Store())], e))
            lv = [ast.Name(t, ast.Load()) for t in tmps]
        out += [ast.Assign([ast.Name(n, ast.Store())], e)
                for n, e in zip(names, lv)]
        return [ast.copy_location(s, node) for s in out]

    def stmt(self, s):
        if isinstance(s, ast.Return):
            if s.value is None:
                raise self.fail(s, "the operator returns nothing")
            want = self.ret if self.ret not in (None, "scalar") else None
            r = self.struct(s.value, want)
            if r is None:
                if want is not None:
                    raise self.fail(s, f"returns a number where the struct "
                                    f"{list(want.names)} is expected")
                self.ret = "scalar"
                return [ast.copy_location(ast.Return(self.scalar(s.value)),
                                          s)]
            if self.ret == "scalar":
                raise self.fail(s, "returns a struct here and a number "
                                "elsewhere")
            if want is not None and r[0] != want:
                if nleaves(r[0]) != nleaves(want):
                    raise self.fail(s, f"returns {r[0]} where {want} is "
                                    "expected")
            self.ret = want if want is not None else r[0]
            v = r[1][0] if len(r[1]) == 1 else ast.Tuple(r[1], ast.Load())
            return [ast.copy_location(ast.Return(v), s)]
        if isinstance(s, (ast.Assign, ast.AnnAssign)):
            targets = s.targets if isinstance(s, ast.Assign) else [s.target]
            if s.value is None:     # a bare annotation
                return []
            ann = self.lookup(s.annotation) if isinstance(s, ast.AnnAssign) \
                else None
            want = ann.dtype if is_struct_type(ann) else None
            r = self.struct(s.value, want)
            if len(targets) == 1:
                t = targets[0]
                if r is not None and isinstance(t, ast.Name):
                    return self.assign_struct(t.id, r[0], r[1], s)
                acc = self.access(t) if isinstance(
                    t, (ast.Attribute, ast.Subscript)) else None
                if acc is not None:
                    if acc[0] is None:
                        return [ast.copy_location(ast.Assign(
                            [ast.Name(acc[1][0].id, ast.Store())],
                            self.scalar(s.value)), s)]
                    if r is None:
                        r = self.struct(s.value, acc[0])
                    if r is None:
                        raise self.fail(s, "a struct field assigned a number")
                    return [ast.copy_location(ast.Assign(
                        [ast.Name(n.id, ast.Store())], e), s)
                        for n, e in zip(acc[1], r[1])]
            if r is not None:
                raise self.fail(s, "a struct assigned to several targets")
            if isinstance(s, ast.AnnAssign):
                s.value = self.scalar(s.value)
                return [s]
            s.value = self.scalar(s.value)
            return [s]
        if isinstance(s, ast.AugAssign):
            acc = self.access(s.target) if isinstance(
                s.target, (ast.Attribute, ast.Subscript)) else None
            if acc is not None:
                if acc[0] is not None:
                    raise self.fail(s, "augmented assignment to a struct")
                s.target = ast.Name(acc[1][0].id, ast.Store())
            s.value = self.scalar(s.value)
            return [s]
        if isinstance(s, (ast.If, ast.While)):
            s.test = self.scalar(s.test)
            s.body = self.stmts(s.body)
            s.orelse = self.stmts(s.orelse)
            return [s]
        if isinstance(s, ast.For):
            s.iter = self.scalar(s.iter)
            s.body = self.stmts(s.body)
            s.orelse = self.stmts(s.orelse)
            return [s]
        if isinstance(s, (ast.FunctionDef, ast.ClassDef)):
            raise self.fail(s, "nested definitions are not supported")
        return [self.scalar(s)]

    def stmts(self, body):
        out = []
        for s in body:
            out += self.stmt(s)
        return out or [ast.Pass()]


def _lookup_in(f):
    """Resolves Name/Attribute chains against f's closure, globals and
    builtins (None when unknown)."""
    cells = dict(zip(f.__code__.co_freevars,
                     (c.cell_contents for c in f.__closure__ or ())))
    g = f.__globals__
    b = g.get("__builtins__", {})

    def lookup(node):
        if isinstance(node, ast.Name):
            for ns in (cells, g):
                if node.id in ns:
                    return ns[node.id]
            return b.get(node.id) if isinstance(b, dict) else \
                getattr(b, node.id, None)
        if isinstance(node, ast.Attribute):
            base = lookup(node.value)
            return getattr(base, node.attr, None) if base is not None \
                else None
        return None
    return lookup


def _struct_key(t):
    return None if t is None else t.descr.__repr__()


def flatten(f, ptypes, ret, fn, what):
    """f (a plain function or lambda over struct values) as an ember
    device function over leaves: ptypes gives each parameter's struct
    dtype (None: a number), ret the struct dtype the result must be (None:
    infer; a number or a struct). Returns (device function, result struct
    dtype or None for a number). Made once per (f, types) and kept on
    f."""
    if _ops._devfn.is_devfn(f):
        f = f.py_func
    if not isinstance(f, types.FunctionType):
        raise TypeError(f"{fn}: {what} over struct values must be a Python "
                        f"function, not {type(f).__name__}")
    key = (tuple(_struct_key(t) for t in ptypes), _struct_key(ret))
    cache = f.__dict__.setdefault("__ember_compute_struct__", {})
    hit = cache.get(key)
    if hit is not None:
        return hit
    if f.__name__ == "<lambda>":
        # a lambda written in a loop's call is a new object each time:
        # rewritten once per (code, closure values, types)
        try:
            ck = (f.__code__, tuple(c.cell_contents for c in
                                    f.__closure__ or ()),
                  id(f.__globals__), key)
            hash(ck)
        except (TypeError, ValueError):
            ck = None
        hit = _BY_CODE.get(ck) if ck is not None else None
        if hit is None:
            hit = _flatten(f, ptypes, ret, fn, what)
            if ck is not None:
                _BY_CODE[ck] = hit
        cache[key] = hit
        return hit
    hit = cache[key] = _flatten(f, ptypes, ret, fn, what)
    return hit


_BY_CODE = {}


def _flatten(f, ptypes, ret, fn, what):
    d = _ops._def_node(f, fn, what)
    args = d.args
    params = [a.arg for a in args.args]
    if args.vararg or args.kwonlyargs or len(params) != len(ptypes):
        raise TypeError(f"{fn}: {what} '{f.__name__}' takes "
                        f"{len(params)} arguments; {len(ptypes)} are passed")
    rw = _Rewrite(f, fn, what, _lookup_in(f))
    rw.ret = ret
    flat = []
    for p, t in zip(params, ptypes):
        if t is None:
            flat.append(p)
        else:
            rw.env[p] = t
            flat += rw.names(p, t)
    d.body = rw.stmts(d.body)
    d.returns = None
    d.args = ast.parse("def g(%s): pass" % ", ".join(flat)).body[0].args
    out = rw.ret if rw.ret != "scalar" else None
    return _ops.jit_def(d, f), out


def returns_struct(op):
    """Whether the Python function op builds struct values (calls a
    gpu_struct type, or says it returns one): then a transform over plain
    arrays needs the struct rewrite. Found once per function."""
    if _ops._devfn.is_devfn(op):
        op = op.py_func
    if not isinstance(op, types.FunctionType):
        return False
    r = op.__dict__.get("__ember_compute_returns_struct__")
    if r is None:
        try:
            d = _ops._def_node(op, "", "op")
        except TypeError:
            d = None
        look = _lookup_in(op)
        r = d is not None and (
            (d.returns is not None and is_struct_type(look(d.returns))) or
            any(isinstance(n, ast.Call) and is_struct_type(look(n.func))
                for n in ast.walk(d)))
        op.__dict__["__ember_compute_returns_struct__"] = r
    return r


# ---- transforms over structs --------------------------------------------

def _result_dtype(dfn, in_dts, fn):
    from ember.parallel import _devfn
    codes = []
    for d in in_dts:
        c = _devfn._code(d)
        if c is None:
            raise _devfn._unsupported(dfn, fn, d)
        codes.append(c)
    rcode = _devfn._cached(dfn, ("struct-rt",) + tuple(codes),
                           lambda: _devfn._translate(dfn, codes)[2])
    return _devfn._result_dtype(dfn, fn, rcode)


def _kernel(dfn, nin, nout):
    """The ember.cuda.jit kernel that applies dfn at each position: reads
    nin arrays, writes its nout results; one per (dfn, nin, nout)."""
    cache = dfn.py_func.__dict__.setdefault("__ember_compute_kernels__", {})
    k = cache.get((nin, nout))
    if k is None:
        ins = [f"i{j}" for j in range(nin)]
        outs = [f"o{j}" for j in range(nout)]
        call = f"_f({', '.join(x + '[i]' for x in ins)})"
        if nout == 1:
            body = f"        {outs[0]}[i] = {call}\n"
        else:
            body = f"        r = {call}\n" + "".join(
                f"        {o}[i] = r[{j}]\n" for j, o in enumerate(outs))
        src = (f"def _k(n, {', '.join(ins + outs)}):\n"
               "    i = cuda.grid(1)\n"
               "    if i < n:\n" + body)
        name = "_kernel_" + hashlib.sha1(src.encode()).hexdigest()[:12]
        src = src.replace("def _k(", f"def {name}(", 1)
        import linecache
        filename = f"<ember.cuda.compute {name}>"
        linecache.cache[filename] = (len(src), None, src.splitlines(True),
                                     filename)
        ns = {"cuda": ember.cuda, "_f": dfn}
        exec(compile(src, filename, "exec"), ns)
        k = cache[(nin, nout)] = ember.cuda.jit(ns[name])
    return k


def apply(op, inputs, fn, what, out_dtype=None, ret=None):
    """op (a Python function) at each position of inputs (ember arrays and
    Fields of one length): an ember array (a number result, of dtype
    out_dtype or else op's result type) or Fields (a struct result; ret
    the struct expected, if known)."""
    ptypes = [x.dtype if isinstance(x, Fields) else None for x in inputs]
    dfn, rdt = flatten(op, ptypes, ret, fn, what)
    arrs = []
    for x in inputs:
        arrs += x.arrays if isinstance(x, Fields) else [x]
    n = arrs[0].size
    dev = arrs[0].device
    if rdt is not None:
        outs = [ember.empty(n, dtype=d.name, device=dev)
                for _, d in leaves(rdt)]
    else:
        dt = out_dtype if out_dtype is not None else _result_dtype(
            dfn, [a.dtype for a in arrs], fn)
        outs = [ember.empty(n, dtype=_e.dtype(dt).name, device=dev)]
    if n:
        k = _kernel(dfn, len(arrs), len(outs))
        threads = 256
        with dev:
            k[(n + threads - 1) // threads, threads](n, *arrs, *outs)
    return Fields(rdt, outs) if rdt is not None else outs[0]


def cast_fields(x, dt, fn, what="d_in"):
    """Fields x (or one array) read as struct dtype dt: leaf k of x is
    leaf k of dt (cast by the algorithm)."""
    if not isinstance(x, Fields):
        x = Fields(np.dtype([("f0", np.dtype(x.dtype.name))]), [x])
    want = leaves(dt)
    if len(want) != len(x.arrays):
        raise TypeError(
            f"{fn}: {what}'s values have {len(x.arrays)} fields "
            f"({', '.join(a.dtype.name for a in x.arrays)}) but the struct "
            f"type {dt} has {len(want)}")
    return Fields(dt, x.arrays)


def init_record(h):
    """A struct init value (a gpu_struct instance, a NumPy record or a
    one-element structured array) as a 0-d structured array; None when h
    is not a struct value."""
    if isinstance(h, _StructBase):
        return h._rec.copy()
    if isinstance(h, np.void) and h.dtype.names is not None:
        return np.asarray(h).reshape(())
    if isinstance(h, np.ndarray) and h.dtype.names is not None:
        if h.size != 1:
            raise ValueError(f"a struct init value must hold one record, not "
                             f"{h.size}")
        return h.reshape(())
    if isinstance(h, StructArray):
        return init_record(h.get())
    return None


_MAX = 4     # ember.parallel's tuple components (EM_SCAN_MAX_TUPLE)


def _layout(dts):
    """How the leaves of dtypes dts travel as at most _MAX scan
    components: a list of words, each ("raw", k) (leaf k as itself) or
    ("packed", [(k, shift, bits, signed), ...]) (integer leaves side by
    side in an int64, first fit in leaf order). None when they do not
    fit."""
    words = []
    for k, d in enumerate(dts):
        bits = 1 if d.kind == "b" else 8 * d.itemsize
        if d.kind not in "biu" or bits >= 64:
            words.append(("raw", k))
            continue
        for w in words:
            if w[0] == "packed" and w[2] + bits <= 64:
                w[1].append((k, w[2], bits, d.kind == "i"))
                w[2] += bits
                break
        else:
            words.append(["packed", [(k, 0, bits, d.kind == "i")], bits])
    out = []
    for w in words:
        if w[0] == "packed" and len(w[1]) == 1:
            out.append(("raw", w[1][0][0]))
        else:
            out.append((w[0], w[1]))
    return out if len(out) <= _MAX else None


def _unpack_expr(word, k, shift, bits, signed):
    v = f"(({word} >> {shift}) & {(1 << bits) - 1})" if shift else \
        f"({word} & {(1 << bits) - 1})"
    if signed:
        h = 1 << (bits - 1)
        v = f"(({v} ^ {h}) - {h})"
    return v


def _packed_op(dfn, lay, n):
    """A device function over the words of layout lay that unpacks both
    operands' leaves, calls dfn (over the n leaves of each) and packs its
    result back."""
    cache = dfn.py_func.__dict__.setdefault("__ember_compute_packed__", {})
    key = repr(lay)
    hit = cache.get(key)
    if hit is not None:
        return hit
    m = len(lay)

    def leaves_of(side):
        exprs = [None] * n
        for j, w in enumerate(lay):
            if w[0] == "raw":
                exprs[w[1]] = f"{side}{j}"
            else:
                for k, s, b, sg in w[1]:
                    exprs[k] = _unpack_expr(f"{side}{j}", k, s, b, sg)
        return exprs

    words = []
    for w in lay:
        if w[0] == "raw":
            words.append(f"r[{w[1]}]")
        else:
            words.append(" | ".join(
                f"((np.int64(r[{k}]) & {(1 << b) - 1}) << {s})" if s else
                f"(np.int64(r[{k}]) & {(1 << b) - 1})" for k, s, b, _ in w[1]))
    params = [f"a{j}" for j in range(m)] + [f"b{j}" for j in range(m)]
    ret = words[0] if m == 1 else "(" + ", ".join(words) + ")"
    src = (f"def _pk({', '.join(params)}):\n"
           f"    r = _g({', '.join(leaves_of('a') + leaves_of('b'))})\n"
           f"    return {ret}\n")
    name = "_packed_" + hashlib.sha1(src.encode()).hexdigest()[:12]
    src = src.replace("def _pk(", f"def {name}(", 1)
    import linecache
    filename = f"<ember.cuda.compute {name}>"
    linecache.cache[filename] = (len(src), None, src.splitlines(True),
                                 filename)
    ns = {"_g": dfn, "np": np}
    exec(compile(src, filename, "exec"), ns)
    hit = cache[key] = ember.cuda.jit(device=True)(ns[name])
    return hit


def _pack_arrays(arrs, dts, lay):
    out = []
    for w in lay:
        if w[0] == "raw":
            out.append(arrs[w[1]].astype(dts[w[1]].name))
            continue
        acc = None
        for k, s, b, _ in w[1]:
            v = arrs[k].astype(dts[k].name).astype("int64") & ((1 << b) - 1)
            v = v << s if s else v
            acc = v if acc is None else acc | v
        out.append(acc)
    return out


def _unpack_arrays(words, dts, lay):
    out = [None] * len(dts)
    for w, a in zip(lay, words):
        if w[0] == "raw":
            out[w[1]] = a
            continue
        for k, s, b, sg in w[1]:
            v = ((a >> s) if s else a) & ((1 << b) - 1)
            if sg:
                v = (v ^ (1 << (b - 1))) - (1 << (b - 1))
            out[k] = v.astype(dts[k].name)
    return out


def _pack_values(vals, dts, lay):
    out = []
    for w in lay:
        if w[0] == "raw":
            out.append(vals[w[1]])
            continue
        acc = 0
        for k, s, b, _ in w[1]:
            acc |= (int(vals[k]) & ((1 << b) - 1)) << s
        out.append(acc - (1 << 64) if acc >= 1 << 63 else acc)
    return out


def struct_op(op, dt, fn, what="op"):
    """The operator of a scan or reduction over struct values of dtype dt:
    a built-in name applied per leaf (OpKind.PLUS/MULTIPLIES/MINIMUM/
    MAXIMUM), else the device function of op rewritten over the leaves."""
    n = nleaves(dt)
    if isinstance(op, _ops.OpKind):
        if op in _ops._BUILTIN and n > 1:
            return _ops._BUILTIN[op]
        raise TypeError(f"{fn}: OpKind.{op.name} over struct values: pass a "
                        "Python function of two structs")
    return flatten(op, [dt, dt], dt, fn, what)[0]


def scan_values(fn, x, op, dt, init_rec, exclusive, reduce=False,
                keys=None):
    """Scan (or reduce) of Fields x as struct values of dtype dt with
    init_rec in front (None: none); with keys, restarting at each run of
    equal keys (init in front of each run). Fields of the results."""
    P = ember.parallel
    x = cast_fields(x, dt, fn)
    o = struct_op(op, dt, fn)
    ldt = [d for _, d in leaves(dt)]
    dts = tuple(d.name for d in ldt)
    init = None if init_rec is None else tuple(record_leaves(init_rec))

    def run(values, o, init, dtype):
        """ember.parallel's scan of one array or a tuple of them."""
        one = len(values) == 1
        v = values[0] if one else tuple(values)
        i = None if init is None else (init[0] if one else init)
        d = dtype[0] if one else dtype
        if keys is not None:
            r = P.scan_by_key(keys, v, o, init=i, exclusive=exclusive,
                              dtype=d)
        else:
            f = P.exclusive_scan if exclusive else P.inclusive_scan
            r = f(v, o, init=i, dtype=d)
        r = [r] if one else list(r)
        return [a[-1:] for a in r] if reduce else r

    if len(dts) <= _MAX:
        return Fields(dt, run(x.arrays, o, init, dts))
    # more leaves than tuple components: small integer leaves share int64
    # words, unpacked and packed around the operator
    lay = _layout(ldt)
    if lay is None or isinstance(o, str):
        raise NotImplementedError(
            f"{fn}: the struct {dt} has {len(dts)} scalar fields; "
            f"ember.parallel scans tuples of at most {_MAX} components, "
            "and its fields do not pack into that many 64-bit words")
    po = _packed_op(o, lay, len(dts))
    words = _pack_arrays(x.arrays, ldt, lay)
    winit = None if init is None else tuple(_pack_values(init, ldt, lay))
    wdts = tuple(dts[w[1]] if w[0] == "raw" else "int64" for w in lay)
    return Fields(dt, _unpack_arrays(run(words, po, winit, wdts), ldt, lay))


def segmented_values(fn, x, off, s, e, op, rec):
    """One struct value per segment [s[i], e[i]) of Fields x: rec op
    x[s[i]] op ... (rec alone for an empty segment). off interleaves s
    and e (non-decreasing): the by-key scan over the segment each item
    falls in (its place in off), then each segment's last item."""
    dev = s.device
    init = constant_fields(rec, s.size, dev)
    if x.size == 0:
        return init
    pos = ember.arange(x.size, dtype="int64", device=dev)
    keys = ember.searchsorted(off, pos, side="right")
    r = scan_values(fn, x, op, rec.dtype, rec, False, keys=keys)
    e = e.astype("int64")
    last = ember.maximum(e - 1, 0)
    full = e > s.astype("int64")
    return Fields(rec.dtype, [ember.where(full, a.take(last), c)
                              for a, c in zip(r.arrays, init.arrays)])


def constant_fields(rec, n, dev):
    """n copies of the record rec as Fields."""
    return Fields(rec.dtype, [ember.full(n, v, dtype=d.name, device=dev)
                              for v, (_, d) in zip(record_leaves(rec),
                                                   leaves(rec.dtype))])


__all__ = ["gpu_struct", "Fields", "flatten", "apply"]
