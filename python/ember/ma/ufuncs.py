"""Ufuncs on MaskedArrays: the result's mask is the or of the operands'
masks, plus numpy.ma's domain (log of x <= 0, sqrt of x < 0, division by
zero, ...) and, for those domained ufuncs, non-finite results. Masked
entries keep the first operand's data, as numpy.ma leaves them."""
import numpy as np

import ember
from ember.ma.core import MaskedArray, MaskedConstant, masked, nomask, _full_mask

_TINY = float(np.finfo(np.float64).tiny)


def _abs64(x):
    # a Python scalar stays one: wrapped alone it would land on the current
    # device, not the other operand's
    if isinstance(x, (bool, int, float, complex)):
        return abs(complex(x)) if isinstance(x, complex) else abs(float(x))
    return ember.absolute(x).astype(ember.float64)


def _safe_divide(a, b):
    # numpy.ma's _DomainSafeDivide: |a| * tiny >= |b| (b zero, or tiny
    # enough that the quotient overflows)
    return ember.greater_equal(_abs64(a) * _TINY, _abs64(b))


UNARY_DOMAINS = {
    "sqrt": lambda x: ember.less(x, 0),
    "log": lambda x: ember.less_equal(x, 0),
    "log2": lambda x: ember.less_equal(x, 0),
    "log10": lambda x: ember.less_equal(x, 0),
    "tan": lambda x: ember.less(ember.absolute(ember.cos(x)), 1e-35),
    "arcsin": lambda x: ember.logical_or(ember.less(x, -1), ember.greater(x, 1)),
    "arccos": lambda x: ember.logical_or(ember.less(x, -1), ember.greater(x, 1)),
    "arccosh": lambda x: ember.less(x, 1),
    "arctanh": lambda x: ember.logical_or(ember.less(x, -1 + 1e-15),
                                          ember.greater(x, 1 - 1e-15)),
}
BINARY_DOMAINS = {n: _safe_divide for n in
                  ("divide", "true_divide", "floor_divide", "remainder", "fmod", "mod")}


def _operand(x, device):
    """(data, mask) of one operand; masked is (None, True)."""
    if x is masked:
        return None, True
    if isinstance(x, MaskedArray):
        return x._data, x._mask
    if isinstance(x, ember.ndarray):
        if x.device != device:
            x = ember.asarray(x, device=device)
        return x, nomask
    if isinstance(x, (bool, int, float, complex)):
        return x, nomask
    return ember.asarray(np.asarray(x), device=device), nomask


def _first_device(args):
    for a in args:
        if isinstance(a, MaskedArray) and not isinstance(a, MaskedConstant):
            return a.device
        if isinstance(a, ember.ndarray):
            return a.device
    return None


def _or(m1, m2):
    if m1 is nomask:
        return m2
    if m2 is nomask:
        return m1
    return ember.logical_or(m1, m2)


def _fill_value_of(args):
    for a in args:
        if isinstance(a, MaskedArray) and not isinstance(a, MaskedConstant):
            return a._fill_value
    return None


def apply(uf, *args, invalid=True, **kwargs):
    """uf (an ember ufunc) on MaskedArrays, with numpy.ma's masking. The
    ember.ma functions (invalid=True) also mask a domained ufunc's
    non-finite results; NumPy's ufuncs on a MaskedArray mask the domain only."""
    name = uf.__name__
    device = _first_device(args)
    ops = [_operand(a, device) for a in args]
    if any(d is None for d, _ in ops):
        return _all_masked(uf, ops, kwargs)
    datas = [d for d, _ in ops]
    with np.errstate(all="ignore"):
        res = uf(*datas, **kwargs)
    m = nomask
    for _, mk in ops:
        m = _or(m, mk)
    dom = UNARY_DOMAINS.get(name) if uf.nin == 1 else BINARY_DOMAINS.get(name)
    if dom is not None:
        bad = dom(*datas)
        if invalid and res.dtype.kind in "fc":
            bad = ember.logical_or(bad, ember.logical_not(ember.isfinite(res)))
        m = _or(m, bad)
    if m is not nomask and m.shape != res.shape:
        m = ember.broadcast_to(m, res.shape).copy()
    if m is not nomask and res.ndim:
        res = _keep_first(res, datas[0], m, name, ops)
    if res.ndim == 0:
        return masked if (m is not nomask and bool(m)) else res
    return MaskedArray._wrap(res, m, None, False)


def _keep_first(res, first, m, name, ops):
    if name in ("equal", "not_equal") and len(ops) == 2:
        # numpy.ma's __eq__: where masked, whether both sides were masked
        m0 = ops[0][1] if ops[0][1] is not nomask else False
        m1 = ops[1][1] if ops[1][1] is not nomask else False
        both = ember.equal(m0, m1) if name == "equal" else ember.not_equal(m0, m1)
        return ember.where(m, both, res)
    if not isinstance(first, ember.ndarray):
        return res
    try:
        return ember.where(m, first.astype(res.dtype), res)
    except (TypeError, ValueError):
        return res


def _all_masked(uf, ops, kwargs):
    """An operation with `masked`: everything masked, shaped as the others."""
    datas = [d for d, _ in ops if d is not None]
    if not datas or all(not isinstance(d, ember.ndarray) for d in datas):
        return masked
    shape = ember.broadcast_shapes(*[d.shape for d in datas if isinstance(d, ember.ndarray)])
    ref = next(d for d in datas if isinstance(d, ember.ndarray))
    if shape == ():
        return masked
    data = ember.broadcast_to(ref, shape).copy()
    return MaskedArray._wrap(data, _full_mask(shape, ref.device, True), None, False)


def _make_binop(name, reflected=False):
    uf = getattr(ember, name)

    def op(self, other):
        if reflected:
            return apply(uf, other, self)
        return apply(uf, self, other)
    op.__name__ = name
    return op


def _make_iop(name):
    uf = getattr(ember, name)

    def iop(self, other):
        r = apply(uf, self, other)
        if r is masked:
            self[...] = masked
            return self
        rdata = r._data.astype(self.dtype) if r._data.dtype != self.dtype else r._data
        if r._mask is nomask:
            self._data[...] = rdata
            return self
        if self._mask is nomask:
            self._mask = _full_mask(self.shape, self.device)
        self._data[...] = ember.where(r._mask, self._data, rdata)
        self._mask[...] = r._mask
        return self
    return iop


_BIN = {"add": "add", "sub": "subtract", "mul": "multiply", "truediv": "true_divide",
        "floordiv": "floor_divide", "mod": "remainder", "pow": "power",
        "and": "bitwise_and", "or": "bitwise_or", "xor": "bitwise_xor",
        "lshift": "left_shift", "rshift": "right_shift", "matmul": None}
_CMP = {"eq": "equal", "ne": "not_equal", "lt": "less", "le": "less_equal",
        "gt": "greater", "ge": "greater_equal"}


def _install():
    for short, name in _BIN.items():
        if name is None:
            continue
        setattr(MaskedArray, f"__{short}__", _make_binop(name))
        setattr(MaskedArray, f"__r{short}__", _make_binop(name, reflected=True))
        setattr(MaskedArray, f"__i{short}__", _make_iop(name))
    for short, name in _CMP.items():
        setattr(MaskedArray, f"__{short}__", _make_binop(name))
    MaskedArray.__div__ = MaskedArray.__truediv__
    for short, name in {"neg": "negative", "pos": "positive", "abs": "absolute",
                        "invert": "invert"}.items():
        uf = getattr(ember, name)
        setattr(MaskedArray, f"__{short}__", (lambda u: lambda self: apply(u, self))(uf))
    MaskedArray.__array_ufunc__ = _array_ufunc


def _array_ufunc(self, ufunc, method, *inputs, **kwargs):
    """NumPy's and ember's ufuncs on MaskedArrays run as ember's, masked."""
    if method != "__call__" or kwargs.get("out") is not None:
        return NotImplemented
    euf = getattr(ember, ufunc.__name__, None)
    if not isinstance(euf, ember.ufunc):
        return NotImplemented
    kwargs.pop("out", None)
    if euf.nout != 1:
        return NotImplemented
    return apply(euf, *inputs, invalid=False, **kwargs)


_install()


def _module_ufunc(name):
    uf = getattr(ember, name)

    def f(*args, **kwargs):
        return apply(uf, *args, **kwargs)
    f.__name__ = name
    f.__doc__ = f"numpy.ma.{name}: ember.{name} with the operands' masks (and its domain)."
    return f


UFUNC_NAMES = ("add subtract multiply divide true_divide floor_divide remainder mod fmod "
               "power negative absolute exp expm1 log log2 log10 log1p sqrt sin cos tan "
               "arcsin arccos arctan arcsinh arccosh arctanh sinh cosh tanh arctan2 hypot "
               "floor ceil rint fabs sign conjugate equal not_equal less less_equal greater "
               "greater_equal logical_and logical_or logical_xor logical_not maximum minimum "
               "bitwise_and bitwise_or bitwise_xor left_shift right_shift").split()
MODULE_UFUNCS = {n: _module_ufunc(n) for n in UFUNC_NAMES if hasattr(ember, n)}
