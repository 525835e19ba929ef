"""Loops over the elements of an array inside a kernel: NumPy ufuncs on
arrays with an output array, `np.sin(x, out)`, `np.add(a[i, :], b,
out=row)` (a kernel cannot allocate, so the output is required, as in
Numba), and assignment to views, `a[i, :] = b[i, :]`, `sh[:] = 0`. Inputs
are arrays (views too) or numbers; an input array of fewer dimensions
lines up with the output's last ones, as NumPy broadcasts (an axis is not
stretched: its extent must equal the output's, which bounds checks
enforce on cpu)."""
import ast

from .ops import V, conv
from .types import Array, Scalar, storage_c

# ufuncs of two inputs; the others take one
BINARY = {"add", "subtract", "multiply", "divide", "true_divide", "floor_divide",
          "power", "arctan2", "atan2", "hypot", "copysign", "fmod", "minimum", "maximum",
          "fmin", "fmax", "pow"}


def has_out(name, node):
    """Whether np.<name>(...) names an output array (positional or out=)."""
    nin = 2 if name in BINARY else 1
    return len(node.args) > nin or any(k.arg == "out" for k in node.keywords)


def call(tr, name, node, scalar_fn):
    """np.<name>(inputs..., out): loops over out's elements; scalar_fn(tr,
    name, call_node) is the scalar translation, given the elements."""
    what = "numpy.%s()" % name
    nin = 2 if name in BINARY else 1
    out_node = None
    for k in node.keywords:
        if k.arg != "out":
            raise tr.error(node, "%s in kernels takes only the out= keyword" % what)
        out_node = k.value
    args = list(node.args)
    if len(args) == nin + 1 and out_node is None:
        out_node = args.pop()
    if len(args) != nin or out_node is None:
        raise tr.error(node, "%s takes %d input%s and an output array in kernels"
                       % (what, nin, "" if nin == 1 else "s"))
    ins = [tr.expr(a) for a in args]
    out = tr.expr(out_node)
    if not isinstance(out.type, Array):
        raise tr.error(node, "the output of %s must be an array, not %r" % (what, out.type))
    oref = out.code
    if not oref.writable:
        raise tr.error(node, "the output of %s, array '%s', is constant memory"
                       % (what, oref.name))
    fake = ast.copy_location(ast.Call(func=node.func, args=list(args), keywords=[]), node)

    def compute(elems):
        fake._emjit_vals = elems
        return scalar_fn(tr, name, fake)
    return loops(tr, oref, ins, args, node, compute, what)


def assign(tr, oref, v, op, node):
    """view[...] = v and view[...] op= v: v a number (every element) or an
    array lined up with the view's last axes."""
    from .ops import binop
    what = "assignment to a slice of '%s'" % oref.name

    def compute(elems):
        if op is None:
            return elems[1]
        return binop(op, elems[0], elems[1], tr.fail_at(node))
    return loops(tr, oref, [V(oref, oref.type), v], [node, node], node, compute, what)


def loops(tr, oref, ins, args, node, compute, what):
    """Loops over oref's elements storing compute([each input's element]);
    inputs are arrays (lined up with oref's last axes) or numbers."""
    if tr.cond_depth:
        raise tr.error(node, "%s cannot be part of a condition" % what)
    nd = oref.type.ndim
    # numbers are evaluated once, before the loops
    vals = []
    for v, a in zip(ins, args):
        if isinstance(v.type, Array):
            if v.type.ndim > nd:
                raise tr.error(a, "%s: input '%s' has %d dimensions, more than the "
                               "output's %d" % (what, v.code.name, v.type.ndim, nd))
        elif isinstance(v.type, Scalar):
            if v.const is None:
                tmp = tr.temp(_value_c(v.type.code))
                tr.emit("%s = %s;" % (tmp, v.code))
                v = V(tmp, v.type)
        else:
            raise tr.error(a, "%s takes arrays and numbers, not %r" % (what, v.type))
        vals.append(v)
    idx = [tr.temp("long long") for _ in range(nd)]
    for k in range(nd):
        tr.emit("for (%s = 0; %s < %s; %s++) {" % (idx[k], idx[k], oref.shapes[k], idx[k]))
        tr.depth += 1
    elems = []
    from .emit import _from_storage, _to_storage
    for v, a in zip(vals, args):
        if isinstance(v.type, Array):
            ref = v.code
            sub = idx[nd - ref.type.ndim:]
            at, ld = tr.mod.access(ref.type.dtype, ref.type.ndim)
            c = "%s(%s)" % (ld, ", ".join(tr.access_args(ref, sub, a)))
            elems.append(V(_from_storage(c, ref.type.dtype), Scalar(ref.type.dtype)))
        else:
            elems.append(v)
    r = compute(elems)
    if not isinstance(r.type, Scalar):
        raise tr.error(node, "%s does not give a number here" % what)
    dt = oref.type.dtype
    if r.type.kind == "c" and dt[0] != "c":
        raise tr.error(node, "%s gives %r, which array '%s' (%r) cannot hold"
                       % (what, r.type, oref.name, oref.type))
    at, ld = tr.mod.access(dt, nd)
    p = "%s(%s)" % (at, ", ".join(tr.access_args(oref, idx, node)))
    tr.emit("{")
    tr.emit("    %s *__emjit_p = %s;" % (storage_c(dt), p))
    tr.emit("    if (__emjit_p)")
    tr.emit("        *__emjit_p = %s;" % _to_storage(conv(r, dt), dt))
    tr.emit("}")
    for k in range(nd):
        tr.depth -= 1
        tr.emit("}")
    return V(oref, oref.type)


def _value_c(code):
    from .types import value_c
    return value_c(code)
