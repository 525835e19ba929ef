"""ember.guvectorize: generalized ufuncs from Python functions over array
slices, with Numba's spelling:

    @ember.guvectorize(["void(float64[:], float64[:], float64[:])"],
                       "(n),(n)->()")
    def dot(a, b, res): ...

The function is translated per signature into a __device__ function
taking each operand as (data, shape..., strides...) (docs/jit-design.md
section 2). It runs inside an ElementwiseKernel over the loop dimensions
(the broadcast leading axes): each operand enters as a view of its loop
axes (core index 0), whose element pointer the kernel passes on with the
core extents and strides, given as scalars. A core of "()" is a
one-element array, as in Numba."""
import re

import ember
from ember import _ember as _e
from ember._api.vectorize import CTYPES, check_target, stream_arg, translate

MAX_OPERANDS, MAX_CORE, MAX_SIGS = 8, 4, 16
_GROUP = re.compile(r"\(\s*(\w+(?:\s*,\s*\w+)*)?\s*\)")


def _parse_layout(layout):
    """'(m,n),(n)->(m)' into (input cores, output cores): tuples of core
    dimension names per operand."""
    sides = layout.split("->")
    cores = []
    for side in sides:
        ops, pos, side = [], 0, side.strip()
        while pos < len(side):
            m = _GROUP.match(side, pos)
            if not m:
                break
            names = tuple(n.strip() for n in (m.group(1) or "").split(",")
                          if n.strip())
            if len(names) > MAX_CORE or any(len(n) > 31 for n in names):
                break
            ops.append(names)
            pos = m.end()
            while pos < len(side) and side[pos] in " ,":
                pos += 1
        else:
            cores.append(ops)
            continue
        cores = None
        break
    if (cores is None or len(sides) != 2 or not cores[1]
            or len(cores[0]) + len(cores[1]) > MAX_OPERANDS):
        raise ValueError(f"guvectorize: bad layout {layout!r} (expected like "
                         f"'(m,n),(n)->(m)', at most {MAX_OPERANDS} operands "
                         f"of {MAX_CORE} core dimensions)")
    return cores[0], cores[1]


class GUFunc:
    """A generalized ufunc made by ember.guvectorize."""

    def __init__(self, f, signatures, layout, cpu_target):
        self.py_func = f
        self.__name__ = f.__name__
        self.signature = layout
        self._cpu = cpu_target
        ins, outs = _parse_layout(layout)
        self.nin, self.nout = len(ins), len(outs)
        self._cores = ins + outs
        self._sigs = []              # (dtypes of all operands, kernel)
        self._sigs_src = (signatures,) if isinstance(signatures, str) \
            else tuple(signatures)
        for sig in self._sigs_src:
            self._build(self._sig_dtypes(sig))

    def _sig_dtypes(self, sig):
        """A signature's argument codes -> dtypes ('Af8_1A' and 'f8'
        alike)."""
        from ember.jit import parse_signature_full
        args = parse_signature_full(sig)[1]
        n = len(self._cores)
        if len(args) != n:
            raise TypeError(f"guvectorize: signature {sig!r} has {len(args)} "
                            f"arguments, the layout {self.signature!r} {n}")
        dts = []
        for j, c in enumerate(args):
            try:
                d = _e.dtype((c[1:] if c[:1] == "A" else c).split("_")[0])
            except (TypeError, ValueError):
                d = None
            if d is None or d.name not in CTYPES:
                raise NotImplementedError(
                    f"guvectorize: argument {j} of {sig!r}: bool, integer, "
                    "float32 and float64 arrays are supported")
            dts.append(d)
        return tuple(dts)

    def _build(self, dts):
        if len(self._sigs) == MAX_SIGS:
            raise ValueError(f"guvectorize: at most {MAX_SIGS} signatures")
        nds = [max(len(c), 1) for c in self._cores]
        src, cname, _ = translate(self.py_func, [
            f"A{d.kind}{d.itemsize}_{nd}A" for d, nd in zip(dts, nds)])
        params = [f"{d.name} g{j}" for j, d in enumerate(dts[:self.nin])]
        args = []
        for j, (d, nd) in enumerate(zip(dts, nds)):
            ns = [f"g{j}_n{t}" for t in range(nd)]
            ss = [f"g{j}_s{t}" for t in range(nd)]
            params += [f"int64 {p}" for p in ns + ss]
            args += [f"({CTYPES[d.name]} *)_ck_ptr_g{j}"] + ns + ss
        outs = ", ".join(f"{d.name} g{j + self.nin}"
                         for j, d in enumerate(dts[self.nin:]))
        k = _e.ElementwiseKernel(", ".join(params), outs,
                                 f"{cname}({', '.join(args)})",
                                 name="ember_guvectorize", preamble=src,
                                 reduce_dims=True)
        self._sigs.append((dts, k))

    def _pick(self, dts):
        for sig in self._sigs:
            if sig[0][:self.nin] == dts:
                return sig
        for sig in self._sigs:
            if all(_e.can_cast(d, w, "safe") for d, w in zip(dts, sig[0])):
                return sig
        raise TypeError(f"gufunc '{self.__name__}' not supported for these "
                        f"input types; its signatures are {self._sigs_src!r}")

    def _outputs(self, args, out):
        outs = []
        for j in range(self.nout):
            o = args[self.nin + j] if len(args) > self.nin else None
            if o is None and out is not None:
                o = out if self.nout == 1 else \
                    out[j] if isinstance(out, tuple) and len(out) == self.nout \
                    else None
            if o is not None and not isinstance(o, _e.ndarray):
                raise TypeError(f"{self.__name__}(): outputs must be ember "
                                f"ndarrays, not '{type(o).__name__}'")
            outs.append(o)
        return outs

    def _core_sizes(self, arrs):
        """The core dimensions' extents and the loop shape, from the
        inputs."""
        name, sizes, loop = self.__name__, {}, ()
        for j, (a, core) in enumerate(zip(arrs, self._cores)):
            if a.ndim < len(core):
                raise ValueError(f"{name}: input {j} has {a.ndim} "
                                 f"dimension(s), its core needs {len(core)} "
                                 f"(layout {self.signature!r})")
            for sym, e in zip(core, a.shape[a.ndim - len(core):]):
                if sizes.setdefault(sym, e) != e:
                    raise ValueError(
                        f"{name}: core dimension '{sym}' is {e} in input {j} "
                        f"but {sizes[sym]} before (layout {self.signature!r})")
            lead = a.shape[:a.ndim - len(core)]
            loop = lead if j == 0 else ember.broadcast_shapes(loop, lead)
        return sizes, tuple(loop)

    def __call__(self, *args, out=None, stream=None):
        name, nin, nt = self.__name__, self.nin, self.nin + self.nout
        if len(args) not in (nin, nt):
            raise TypeError(f"{name}() takes {nin} inputs (and optionally "
                            f"{self.nout} outputs), {len(args)} given")
        stream = stream_arg(stream)
        outs = self._outputs(args, out)
        dev = next((o.device for o in reversed(outs) if o is not None), None)
        dev = dev or next((a.device for a in args[:nin]
                           if isinstance(a, _e.ndarray)), None)
        host_only = all(o is None for o in outs) and not any(
            isinstance(a, _e.ndarray) for a in args[:nin])
        if dev is None and self._cpu:
            dev = "cpu"
        arrs = [_e.asarray(a, device=dev) for a in args[:nin]]
        dev = dev or arrs[0].device
        dts, k = self._pick(tuple(a.dtype for a in arrs))
        arrs = [a if a.dtype == d else _e.asarray(a, dtype=d, device=dev)
                for a, d in zip(arrs, dts)]
        sizes, loop = self._core_sizes(arrs)
        for j, (o, core) in enumerate(zip(outs, self._cores[nin:])):
            for sym in core:
                if sym not in sizes:
                    raise ValueError(f"{name}: no input sets core dimension "
                                     f"'{sym}' of output {j}")
            shape = loop + tuple(sizes[s] for s in core)
            d = dts[nin + j]
            if o is None:
                o = _e.empty(shape, dtype=d, device=dev)
            elif o.shape != shape:
                raise ValueError(f"{name}: output {j} has shape {o.shape}, "
                                 f"{shape} is needed")
            elif o.dtype != d:
                raise TypeError(f"{name}: output {j} is {o.dtype.name}, the "
                                f"signature's is {d.name}")
            arrs.append(o)
        views, geometry = [], []
        for a, core in zip(arrs, self._cores):
            nc = len(core)
            cshape = a.shape[a.ndim - nc:]
            if 0 in cshape:     # no element to point at, none to read
                views.append(_e.empty(a.shape[:a.ndim - nc], dtype=a.dtype,
                                      device=dev))
            else:
                views.append(a[(Ellipsis,) + (0,) * nc] if nc else a)
            if not nc:
                geometry += [1, 0]
                continue
            isz = a.dtype.itemsize
            cstrides = a.strides[a.ndim - nc:]
            if any(s % isz for s in cstrides):
                raise NotImplementedError("guvectorize: an operand's strides "
                                          "are not multiples of its item size")
            geometry += list(cshape) + [s // isz for s in cstrides]
        k(*views[:nin], *geometry, *views[nin:], stream=stream)
        res = [a.get() if host_only else a for a in arrs[nin:]]
        return res[0] if self.nout == 1 else tuple(res)

    def __repr__(self):
        return f"<ember.guvectorize gufunc '{self.__name__}' {self.signature}>"


def guvectorize(signatures, layout, target=None, nopython=None, cache=None):
    """A decorator making a generalized ufunc of a Python function over
    array slices, as Numba's: layout like '(n),(n)->()', signatures like
    'void(float64[:], float64[:], float64[:])'. Outputs are allocated (or
    given after the inputs, or as out=) and returned."""
    if not isinstance(layout, str):
        raise TypeError("guvectorize: the layout is a string like "
                        "'(n),(n)->()'")
    cpu = check_target(target)
    return lambda f: GUFunc(f, signatures, layout, cpu)
