"""einsum, as numpy.einsum: the subscripts are parsed here, each operand's
repeated labels become diagonals and its private labels are summed first,
then operands are contracted pairwise as batched matrix products (matmul:
OpenBLAS's gemm on the cpu, the generated product kernel otherwise), and
the remaining labels are summed and put in the output's order."""
import operator

import ember as _e

_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _from_sublists(args):
    """The interleaved form (op, sublist, op, sublist, ..., [out]) as a
    subscripts string and the operands."""
    args = list(args)
    out = None
    if len(args) % 2 == 1:
        out = args.pop()
    ops, subs = args[0::2], args[1::2]

    def word(sub):
        s = []
        for x in sub:
            if x is Ellipsis:
                s.append("...")
            else:
                i = operator.index(x)
                if not 0 <= i < 52:
                    raise ValueError("subscript is not within the valid range "
                                     "[0, 52)")
                s.append(_LETTERS[i])
        return "".join(s)

    spec = ",".join(word(s) for s in subs)
    if out is not None:
        spec += "->" + word(out)
    return spec, ops


def _parse(spec, ops):
    """(labels of each operand as lists, output labels), with each '...'
    expanded to labels of its own (aligned from the right, as NumPy)."""
    spec = spec.replace(" ", "")
    if "->" in spec:
        ins, _, outs = spec.partition("->")
        if "->" in outs or "-" in outs.replace("->", "") or ">" in ins:
            raise ValueError("einstein sum subscripts string includes output "
                             "subscripts more than once")
        explicit = True
    else:
        ins, outs, explicit = spec, "", False
        if "-" in ins or ">" in ins:
            raise ValueError("einstein sum subscript string does not contain "
                             "proper '->' output specified")
    terms = ins.split(",")
    if len(terms) != len(ops):
        raise ValueError(f"{'more' if len(terms) > len(ops) else 'fewer'} "
                         "operands were provided than were specified in the "
                         "einstein sum subscripts string")
    ell_n = 0
    split = []
    for t, x in zip(terms, ops):
        if t.count("...") > 1 or t.replace("...", "").count(".") > 0:
            raise ValueError("einstein sum subscripts string contains a '.' "
                             "that is not part of an ellipsis ('...')")
        for c in t.replace("...", ""):
            if c not in _LETTERS:
                raise ValueError(f"invalid subscript '{c}' in einstein sum "
                                 "subscripts string, subscripts must be "
                                 "letters")
        named = len(t.replace("...", ""))
        if "..." in t:
            k = x.ndim - named
            if k < 0:
                raise ValueError("operand has more dimensions than subscripts "
                                 "given in einstein sum, but no '...' ellipsis "
                                 "provided to broadcast the extra dimensions.")
            ell_n = max(ell_n, k)
        elif named != x.ndim:
            raise ValueError("operand has more dimensions than subscripts "
                             "given in einstein sum, but no '...' ellipsis "
                             "provided to broadcast the extra dimensions."
                             if x.ndim > named else
                             "einstein sum subscripts string contains too many "
                             "subscripts for operand")
        split.append(t)
    used = set(ins)
    ell = ["." + str(i) for i in range(ell_n)]   # labels no letter can clash with
    labels = []
    for t, x in zip(split, ops):
        if "..." in t:
            a, _, b = t.partition("...")
            k = x.ndim - len(a) - len(b)
            labels.append(list(a) + ell[ell_n - k:] + list(b))
        else:
            labels.append(list(t))
    if explicit:
        for c in outs.replace("...", ""):
            if c not in _LETTERS:
                raise ValueError(f"invalid subscript '{c}' in einstein sum "
                                 "subscripts string, subscripts must be "
                                 "letters")
            if c not in used:
                raise ValueError(f"einstein sum subscripts string included "
                                 f"output subscript '{c}' which never appeared "
                                 "in an input")
        if len(set(outs.replace("...", ""))) != len(outs.replace("...", "")):
            raise ValueError("einstein sum subscripts string includes output "
                             "subscript more than once")
        if "..." in outs:
            a, _, b = outs.partition("...")
            out = list(a) + ell + list(b)
        else:
            if ell_n:
                raise ValueError("output has more dimensions than subscripts "
                                 "given in einstein sum, but no '...' ellipsis "
                                 "provided to broadcast the extra dimensions.")
            out = list(outs)
    else:
        counts = {}
        for ls in labels:
            for c in ls:
                counts[c] = counts.get(c, 0) + 1
        out = ell + sorted(c for c in counts if counts[c] == 1
                           and not c.startswith("."))
    return labels, out


def _sizes(labels, ops):
    """Each label's extent; extents of 1 broadcast, as NumPy's."""
    size = {}
    for ls, x in zip(labels, ops):
        for c, n in zip(ls, x.shape):
            old = size.get(c)
            if old is None or old == 1:
                size[c] = n
            elif n != 1 and n != old:
                raise ValueError("operands could not be broadcast together "
                                 f"with remapped shapes: label '{c}' has "
                                 f"extents {old} and {n}")
    return size


def _diagonals(x, ls):
    """x with each repeated label taken once (its diagonal)."""
    ls = list(ls)
    while True:
        dup = next((c for i, c in enumerate(ls) if c in ls[:i]), None)
        if dup is None:
            return x, ls
        i = ls.index(dup)
        j = ls.index(dup, i + 1)
        x = _e.diagonal(x, 0, i, j)   # the diagonal axis goes last
        ls = [c for k, c in enumerate(ls) if k not in (i, j)] + [dup]


def _sum_out(x, ls, keep):
    axes = tuple(i for i, c in enumerate(ls) if c not in keep)
    if axes:
        x = _e.sum(x, axis=axes, dtype=x.dtype)
        ls = [c for c in ls if c in keep]
    return x, ls


def _prod(vals):
    p = 1
    for v in vals:
        p *= v
    return p


def _contract(a, la, b, lb, keep, size):
    """a (labels la) times b (labels lb), summed over the shared labels not
    in keep: one batched matmul."""
    batch = [c for c in la if c in lb and c in keep]
    summed = [c for c in la if c in lb and c not in keep]
    a_only = [c for c in la if c not in lb]
    b_only = [c for c in lb if c not in la]
    bshape = tuple(size[c] for c in batch)
    a = _e.transpose(a, [la.index(c) for c in batch + a_only + summed])
    b = _e.transpose(b, [lb.index(c) for c in batch + summed + b_only])
    # broadcast size-1 ellipsis axes of either operand
    a = _e.broadcast_to(a, bshape + a.shape[len(batch):])
    b = _e.broadcast_to(b, bshape + b.shape[len(batch):])
    m = _prod(size[c] for c in a_only)
    n = _prod(size[c] for c in b_only)
    k = _prod(size[c] for c in summed)
    r = _e.matmul(a.reshape(bshape + (m, k)), b.reshape(bshape + (k, n)))
    r = r.reshape(bshape + tuple(size[c] for c in a_only + b_only))
    return r, batch + a_only + b_only


def einsum(*operands, out=None, optimize=False, dtype=None, order="K",
           casting="safe"):
    """numpy.einsum: the Einstein summation over the subscripts, as
    NumPy's (string or interleaved sublist form; ellipses; implicit
    output); contractions run as batched matmul."""
    if not operands:
        raise ValueError("must specify the einstein sum subscripts string "
                         "and at least one operand")
    if isinstance(operands[0], str):
        spec, ops = operands[0], list(operands[1:])
    else:
        spec, ops = _from_sublists(operands)
    if not ops:
        raise ValueError("must specify the einstein sum subscripts string "
                         "and at least one operand")
    like = next((x for x in ops if isinstance(x, _e.ndarray)), None)
    ops = [x if isinstance(x, _e.ndarray) else
           _e.asarray(x, device=like.device if like is not None else None)
           for x in ops]
    rt = _e.result_type(*ops) if dtype is None else _e.dtype(dtype)
    if dtype is not None:
        for x in ops:
            if not _e.can_cast(x.dtype, rt, casting=casting):
                raise TypeError(f"Cannot cast array data from "
                                f"dtype('{x.dtype}') to dtype('{rt}') "
                                f"according to the rule '{casting}'")
    ops = [x.astype(rt, copy=False) for x in ops]
    labels, outl = _parse(spec, ops)
    size = _sizes(labels, ops)
    work = []
    for i, (x, ls) in enumerate(zip(ops, labels)):
        x, ls = _diagonals(x, ls)
        x = _e.broadcast_to(x, tuple(size[c] for c in ls))
        later = set(outl).union(*[set(l) for j, l in enumerate(labels)
                                  if j != i])
        x, ls = _sum_out(x, ls, later)
        work.append((x, ls))
    x, ls = work[0]
    for i in range(1, len(work)):
        y, ly = work[i]
        keep = set(outl).union(*[set(l) for _, l in work[i + 1:]])
        x, ls = _sum_out(x, ls, keep | set(ly))
        y, ly = _sum_out(y, ly, keep | set(ls))
        x, ls = _contract(x, ls, y, ly, keep, size)
    x, ls = _sum_out(x, ls, set(outl))
    # ellipsis labels that were size 1 everywhere and absent from x
    for c in outl:
        if c not in ls:
            x = _e.expand_dims(x, -1)
            ls = ls + [c]
    r = _e.transpose(x, [ls.index(c) for c in outl]) if ls else x
    shape = tuple(size[c] for c in outl)
    if r.shape != shape:
        r = _e.broadcast_to(r, shape)
    if out is not None:
        _e.copyto(out, r, casting=casting)
        return out
    return r
