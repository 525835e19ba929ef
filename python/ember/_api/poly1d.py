"""numpy.poly1d over an ember coefficient array (highest power first):
its arithmetic is polynomial_legacy's functions, its call one Horner
kernel; repr and str are NumPy's text, formatted from the host copy of
the coefficients (a cold path, as ndarray's repr)."""
import re

from ember import _ember as _e
from ember._api._util import as_array, device_of
from ember._api import polynomial_legacy as _pl

_POWER = re.compile(r"\*\*([0-9]*)")


def _raise_power(text, wrap=70):
    """NumPy's two-line layout: each '**k' becomes k on the line above."""
    pos, top, bottom, out = 0, "", "", " "
    for mat in _POWER.finditer(text):
        power = mat.group(1)
        part = text[pos:mat.start()]
        pos = mat.end()
        add_bottom = part + " " * (len(power) - 1)
        add_top = " " * (len(part) - 1) + power
        if len(bottom) + len(add_bottom) > wrap or len(top) + len(add_top) > wrap:
            out += top + "\n" + bottom + "\n "
            top, bottom = add_top, add_bottom
        else:
            top += add_top
            bottom += add_bottom
    return out + top + "\n" + bottom + text[pos:]


def _fmt(q):
    s = f"{q:.4g}"
    return s[:-5] if s.endswith(".0000") else s


def _term(c):
    """A coefficient's text as NumPy's poly1d writes it."""
    if not isinstance(c, complex) or c.imag == 0:
        return _fmt(c.real if isinstance(c, complex) else c)
    if c.real == 0:
        return f"{_fmt(c.imag)}j"
    return f"({_fmt(c.real)} + {_fmt(c.imag)}j)"


class poly1d:
    """A one-variable polynomial, numpy.poly1d's spelling: poly1d([1, 2, 3])
    is x**2 + 2x + 3; poly1d(r, True) has roots r. Leading zeros are
    dropped (a zero polynomial keeps one coefficient)."""
    __hash__ = None

    def __init__(self, c_or_r, r=False, variable=None):
        if isinstance(c_or_r, poly1d):
            self._variable = c_or_r._variable
            self._coeffs = c_or_r._coeffs
            if variable is not None:
                self._variable = variable
            return
        if r:
            c_or_r = _pl.poly(c_or_r)
        c = _e.atleast_1d(as_array(c_or_r, device_of(c_or_r)))
        if c.ndim > 1:
            raise ValueError("Polynomial must be 1d only.")
        c = _e.trim_zeros(c, trim="f")
        if c.shape[0] == 0:
            c = _e.zeros(1, dtype=c.dtype, device=c.device)
        self._coeffs = c
        self._variable = "x" if variable is None else variable

    # -- attributes, as NumPy's aliases
    @property
    def coeffs(self):
        """The coefficients, highest power first (an ember array)."""
        return self._coeffs

    @coeffs.setter
    def coeffs(self, value):
        # NumPy allows only `p.coeffs += ...` style rebinding of the same array
        if value is not self._coeffs:
            raise AttributeError("Cannot set attribute")

    c = coef = coefficients = coeffs

    @property
    def variable(self):
        return self._variable

    @property
    def order(self):
        return self._coeffs.shape[0] - 1

    o = order

    @property
    def roots(self):
        return _pl.roots(self._coeffs)

    r = roots

    @property
    def device(self):
        return self._coeffs.device

    def __array__(self, dtype=None, copy=None):
        from ember._api.interop import to_numpy
        a = to_numpy(self._coeffs)
        return a if dtype is None else a.astype(dtype)

    def __len__(self):
        return self.order

    def __iter__(self):
        return iter(self._coeffs)

    def __repr__(self):
        from ember._api.interop import to_numpy
        return f"poly1d({repr(to_numpy(self._coeffs))[6:-1]})"

    def __str__(self):
        var = self._variable
        vals = self._coeffs.tolist()
        while vals and vals[0] == 0:
            vals.pop(0)
        n = len(vals) - 1
        text = "0"
        for k, coeff in enumerate(vals):
            cs = _term(coeff)
            power = n - k
            if power == 0:
                new = cs if cs != "0" else ("0" if k == 0 else "")
            elif cs == "0":
                new = ""
            elif power == 1:
                new = f"{cs} {var}"
            else:
                new = "%s %s**%d" % (cs, var, power)
            if k == 0:
                text = new
            elif new:
                text = (f"{text} - {new[1:]}" if new.startswith("-")
                        else f"{text} + {new}")
        return _raise_power(text)

    # -- evaluation and calculus
    def __call__(self, val):
        return _pl.polyval(self._coeffs, val)

    def deriv(self, m=1):
        return poly1d(_pl.polyder(self._coeffs, m=m))

    def integ(self, m=1, k=0):
        return poly1d(_pl.polyint(self._coeffs, m=m, k=k))

    # -- arithmetic
    def _other(self, other):
        if isinstance(other, poly1d):
            return other
        return poly1d(as_array(other, self.device))

    def __neg__(self):
        return poly1d(-self._coeffs)

    def __pos__(self):
        return self

    def __mul__(self, other):
        if _e.isscalar(other):
            return poly1d(self._coeffs * other)
        return poly1d(_pl.polymul(self._coeffs, self._other(other).coeffs))

    def __rmul__(self, other):
        if _e.isscalar(other):
            return poly1d(other * self._coeffs)
        return poly1d(_pl.polymul(self._other(other).coeffs, self._coeffs))

    def __add__(self, other):
        return poly1d(_pl.polyadd(self._coeffs, self._other(other).coeffs))

    __radd__ = __add__

    def __sub__(self, other):
        return poly1d(_pl.polysub(self._coeffs, self._other(other).coeffs))

    def __rsub__(self, other):
        return poly1d(_pl.polysub(self._other(other).coeffs, self._coeffs))

    def __pow__(self, val):
        if not _e.isscalar(val) or int(val) != val or val < 0:
            raise ValueError("Power to non-negative integers only.")
        val = int(val)
        res = _e.ones(1, dtype=_e.int64, device=self.device)
        base = self._coeffs
        while val:  # square-and-multiply: log2(val) products
            if val & 1:
                res = _pl.polymul(res, base)
            val >>= 1
            if val:
                base = _pl.polymul(base, base)
        return poly1d(res)

    def __truediv__(self, other):
        if _e.isscalar(other):
            return poly1d(self._coeffs / other)
        return _pl.polydiv(self, self._other(other))

    def __rtruediv__(self, other):
        if _e.isscalar(other):
            return poly1d(other / self._coeffs)
        return _pl.polydiv(self._other(other), self)

    def __eq__(self, other):
        if not isinstance(other, poly1d):
            return NotImplemented
        if self._coeffs.shape != other._coeffs.shape:
            return False
        return bool(_e.all(self._coeffs == other._coeffs))

    def __ne__(self, other):
        if not isinstance(other, poly1d):
            return NotImplemented
        return not self.__eq__(other)

    # -- coefficient access by power
    def __getitem__(self, val):
        if val > self.order or val < 0:
            return _e.zeros((), dtype=self._coeffs.dtype, device=self.device)
        return self._coeffs[self.order - val]

    def __setitem__(self, key, val):
        if key < 0:
            raise ValueError("Does not support negative powers.")
        if key > self.order:
            zr = _e.zeros(key - self.order, dtype=self._coeffs.dtype,
                          device=self.device)
            self._coeffs = _e.concatenate((zr, self._coeffs))
        self._coeffs[self.order - key] = val
