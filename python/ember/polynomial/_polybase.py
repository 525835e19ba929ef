"""The series class every basis shares (numpy.polynomial's ABCPolyBase
idea): coefficients, a domain mapped linearly onto a window before
evaluation, and arithmetic, calculus, fitting and roots delegated to the
basis' functions, which a subclass names as static methods (_add, _sub,
_mul, _div, _pow, _val, _int, _der, _fit, _line, _roots, _fromroots).
coef, domain and window are ember arrays on one device."""
import numbers
import os

import ember as _e
from ember._api._util import as_array, device_of
from ember.polynomial import polyutils as pu

_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
_SUBSCRIPT = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def _host(a):
    return _e.asnumpy(a)


class PolyBase:
    """A series in one basis; see numpy.polynomial.Polynomial for the
    interface. Subclasses set the basis functions, `_default` (domain and
    window as a pair) and `basis_name`."""
    __hash__ = None
    __array_ufunc__ = None   # ember and NumPy arrays defer to our operators
    maxpower = 100
    basis_name = None
    _default = (-1.0, 1.0)
    _use_unicode = os.name != "nt"

    def __init__(self, coef, domain=None, window=None, symbol="x"):
        [coef] = pu.as_series([coef], trim=False)
        self.coef = coef
        self.domain = self._interval(domain, coef.device, "Domain")
        self.window = self._interval(window, coef.device, "Window")
        try:
            if not symbol.isidentifier():
                raise ValueError("Symbol string must be a valid Python "
                                 "identifier")
        except AttributeError:
            raise TypeError("Symbol must be a non-empty string") from None
        self._symbol = symbol

    def _interval(self, v, device, what):
        if v is None:
            return _e.asarray(self._default, dtype=_e.float64, device=device)
        if isinstance(v, _e.ndarray) and v.device != device:
            raise ValueError(f"{what.lower()} is on {v.device}, the "
                             f"coefficients on {device}")
        [v] = pu.as_series([as_array(v, device) if not isinstance(v, _e.ndarray)
                            else v], trim=False)
        if v.shape[0] != 2:
            raise ValueError(f"{what} has wrong number of elements.")
        return v

    @property
    def symbol(self):
        return self._symbol

    # -- comparisons of the parts (each a small host read)
    def has_samecoef(self, other):
        return (self.coef.shape == other.coef.shape and
                bool(_e.all(self.coef == other.coef)))

    def has_samedomain(self, other):
        return bool(_e.all(self.domain == other.domain))

    def has_samewindow(self, other):
        return bool(_e.all(self.window == other.window))

    def has_sametype(self, other):
        return isinstance(other, self.__class__)

    def _get_coefficients(self, other):
        if isinstance(other, PolyBase):
            if not isinstance(other, self.__class__):
                raise TypeError("Polynomial types differ")
            if not self.has_samedomain(other):
                raise TypeError("Domains differ")
            if not self.has_samewindow(other):
                raise TypeError("Windows differ")
            if self.symbol != other.symbol:
                raise ValueError("Polynomial symbols differ")
            return other.coef
        return other

    def _new(self, coef):
        return self.__class__(coef, self.domain, self.window, self.symbol)

    # -- text
    def __repr__(self):
        def body(a):
            return repr(_host(a))[6:-1]
        return (f"{self.__class__.__name__}({body(self.coef)}, "
                f"domain={body(self.domain)}, window={body(self.window)}, "
                f"symbol='{self.symbol}')")

    def __format__(self, fmt_str):
        if fmt_str == "":
            return self.__str__()
        if fmt_str not in ("ascii", "unicode"):
            raise ValueError(
                f"Unsupported format string '{fmt_str}' passed to "
                f"{self.__class__}.__format__. Valid options are 'ascii' "
                "and 'unicode'")
        return self._text(fmt_str == "unicode")

    def __str__(self):
        return self._text(self._use_unicode)

    def _term(self, unicode, power, arg):
        if self.basis_name is None:   # the power basis writes x**k
            if power == "1":
                return f"·{arg}" if unicode else f" {arg}"
            return (f"·{arg}{power.translate(_SUPERSCRIPT)}" if unicode
                    else f" {arg}**{power}")
        if unicode:
            return f"·{self.basis_name}{power.translate(_SUBSCRIPT)}({arg})"
        return f" {self.basis_name}_{power}({arg})"

    def _text(self, unicode):
        """numpy.polynomial's str: terms from the host copy, wrapped at
        NumPy's print linewidth."""
        import numpy as np
        width = max(np.get_printoptions().get("linewidth", 75), 1)
        coef = _host(self.coef)
        off, scale = (_host(v)[()] for v in self.mapparms())
        f = pu.format_float
        if off == 0 and scale == 1:
            arg, parens = self.symbol, False
        elif scale == 1:
            arg, parens = f"{f(off)} + {self.symbol}", True
        elif off == 0:
            arg, parens = f"{f(scale)}{self.symbol}", True
        else:
            arg, parens = f"{f(off)} + {f(scale)}{self.symbol}", True
        if parens:
            arg = "(" + arg + ")"
        out = f(coef[0])
        rest = coef[1:]
        for i, c in enumerate(rest):
            out += " "
            try:
                term = ("+ " + f(c, parens=True) if c >= 0
                        else "- " + f(-c, parens=True))
            except TypeError:   # complex coefficients have no order
                term = f"+ {c}"
            term += self._term(unicode, str(i + 1), arg)
            n = len(out.split("\n")[-1]) + len(term)
            if i < len(rest) - 1:
                n += 2
            if n >= width:
                term = term.replace(" ", "\n", 1)
            out += term
        return out

    # -- containers and calls
    def __len__(self):
        return self.coef.shape[0]

    def __iter__(self):
        return iter(self.coef)

    def __call__(self, arg):
        arg = pu.mapdomain(arg, self.domain, self.window)
        return self._val(arg, self.coef)

    # -- arithmetic
    def __neg__(self):
        return self._new(-self.coef)

    def __pos__(self):
        return self

    def _binary(self, fn, other, swap=False):
        othercoef = self._get_coefficients(other)
        try:
            coef = fn(othercoef, self.coef) if swap else fn(self.coef, othercoef)
        except Exception:
            return NotImplemented
        return self._new(coef)

    def __add__(self, other):
        return self._binary(self._add, other)

    def __sub__(self, other):
        return self._binary(self._sub, other)

    def __mul__(self, other):
        return self._binary(self._mul, other)

    def __radd__(self, other):
        return self._binary(self._add, other, swap=True)

    def __rsub__(self, other):
        return self._binary(self._sub, other, swap=True)

    def __rmul__(self, other):
        return self._binary(self._mul, other, swap=True)

    def __truediv__(self, other):
        if not isinstance(other, numbers.Number) or isinstance(other, bool):
            raise TypeError(f"unsupported types for true division: "
                            f"'{type(self)}', '{type(other)}'")
        return self.__floordiv__(other)

    def __divmod__(self, other):
        othercoef = self._get_coefficients(other)
        try:
            quo, rem = self._div(self.coef, othercoef)
        except ZeroDivisionError:
            raise
        except Exception:
            return NotImplemented
        return self._new(quo), self._new(rem)

    def __rdivmod__(self, other):
        try:
            quo, rem = self._div(other, self.coef)
        except ZeroDivisionError:
            raise
        except Exception:
            return NotImplemented
        return self._new(quo), self._new(rem)

    def __floordiv__(self, other):
        res = self.__divmod__(other)
        return res if res is NotImplemented else res[0]

    def __mod__(self, other):
        res = self.__divmod__(other)
        return res if res is NotImplemented else res[1]

    def __rfloordiv__(self, other):
        res = self.__rdivmod__(other)
        return res if res is NotImplemented else res[0]

    def __rmod__(self, other):
        res = self.__rdivmod__(other)
        return res if res is NotImplemented else res[1]

    def __pow__(self, other):
        return self._new(self._pow(self.coef, other, maxpower=self.maxpower))

    def __eq__(self, other):
        return (isinstance(other, self.__class__) and
                self.has_samedomain(other) and self.has_samewindow(other) and
                self.has_samecoef(other) and self.symbol == other.symbol)

    def __ne__(self, other):
        return not self.__eq__(other)

    # -- the series as a whole
    def copy(self):
        return self.__class__(self.coef.copy(), self.domain.copy(),
                              self.window.copy(), self.symbol)

    def degree(self):
        return len(self) - 1

    def cutdeg(self, deg):
        return self.truncate(deg + 1)

    def trim(self, tol=0):
        return self._new(pu.trimcoef(self.coef, tol))

    def truncate(self, size):
        isize = int(size)
        if isize != size or isize < 1:
            raise ValueError("size must be a positive integer")
        return self._new(self.coef[:isize] if isize < len(self) else self.coef)

    def convert(self, domain=None, kind=None, window=None):
        """This series as one of `kind` (default this class) on domain and
        window (default the kind's)."""
        if kind is None:
            kind = self.__class__
        # lists and NumPy intervals go to this series' device, not the
        # current one, so the identity below composes with self
        dev = self.coef.device
        domain = kind._default if domain is None else domain
        window = kind._default if window is None else window
        domain, window = (_e.asarray(v, dtype=_e.float64, device=dev)
                          if not isinstance(v, _e.ndarray) else v
                          for v in (domain, window))
        return self(kind.identity(domain, window=window, symbol=self.symbol))

    def mapparms(self):
        """(off, scl) of the map from domain to window (0-d arrays)."""
        return pu.mapparms(self.domain, self.window)

    def integ(self, m=1, k=[], lbnd=None):
        off, scl = self.mapparms()
        lbnd = 0 if lbnd is None else off + scl * lbnd
        return self._new(self._int(self.coef, m, k, lbnd, 1. / scl))

    def deriv(self, m=1):
        off, scl = self.mapparms()
        return self._new(self._der(self.coef, m, scl))

    def roots(self):
        """The roots, mapped back from the window to the domain."""
        return pu.mapdomain(self._roots(self.coef), self.window, self.domain)

    def linspace(self, n=100, domain=None):
        """(x, self(x)) at n points spaced evenly over domain."""
        if domain is None:
            domain = self.domain
        lo, hi = _host(as_array(domain, self.coef.device)).tolist()
        x = _e.linspace(lo, hi, n, device=self.coef.device)
        return x, self(x)

    @classmethod
    def fit(cls, x, y, deg, domain=None, rcond=None, full=False, w=None,
            window=None, symbol="x"):
        """The least-squares series of degree deg through (x, y), on
        domain (default: the points' extent) mapped to window."""
        dev = device_of(x, y, w)
        x = as_array(x, dev)
        if domain is None:
            domain = pu.getdomain(x)
            if bool(domain[0] == domain[1]):
                domain = domain + _e.asarray([-1, 1], device=x.device)
        elif type(domain) is list and len(domain) == 0:
            domain = _e.asarray(cls._default, dtype=_e.float64, device=x.device)
        if window is None:
            window = _e.asarray(cls._default, dtype=_e.float64, device=x.device)
        xnew = pu.mapdomain(x, domain, window)
        res = cls._fit(xnew, y, deg, w=w, rcond=rcond, full=full)
        if full:
            coef, status = res
            return cls(coef, domain=domain, window=window, symbol=symbol), status
        return cls(res, domain=domain, window=window, symbol=symbol)

    @classmethod
    def fromroots(cls, roots, domain=[], window=None, symbol="x"):
        [roots] = pu.as_series([roots], trim=False)
        if domain is None:
            domain = pu.getdomain(roots)
        elif type(domain) is list and len(domain) == 0:
            domain = _e.asarray(cls._default, dtype=_e.float64, device=roots.device)
        if window is None:
            window = _e.asarray(cls._default, dtype=_e.float64, device=roots.device)
        deg = roots.shape[0]
        off, scl = pu.mapparms(domain, window)
        rnew = off + scl * roots
        coef = cls._fromroots(rnew) / scl ** deg
        return cls(coef, domain=domain, window=window, symbol=symbol)

    @classmethod
    def identity(cls, domain=None, window=None, symbol="x"):
        if domain is None:
            domain = cls._default
        if window is None:
            window = cls._default
        off, scl = pu.mapparms(window, domain)
        return cls(cls._line(off, scl), domain, window, symbol)

    @classmethod
    def basis(cls, deg, domain=None, window=None, symbol="x"):
        ideg = pu._as_int(deg, "deg")
        if ideg < 0:
            raise ValueError("deg must be non-negative")
        return cls([0] * ideg + [1], domain, window, symbol)

    @classmethod
    def cast(cls, series, domain=None, window=None):
        return series.convert(domain, cls, window)


_OPS = ("add", "sub", "mul", "div", "pow", "val", "int", "der", "fit", "line",
        "roots", "fromroots")


def series_class(name, doc, ns, prefix, basis_name):
    """The series class of a basis module (namespace ns, functions named
    prefix + 'add' ...): PolyBase over that module's functions and domain."""
    attrs = {"_" + op: staticmethod(ns[prefix + op]) for op in _OPS}
    # the default domain and window (Laguerre's is [0, 1])
    attrs["_default"] = tuple(_host(ns[prefix + "domain"]).tolist())
    attrs.update(__doc__=doc, __module__=ns["__name__"], __qualname__=name,
                 domain=ns[prefix + "domain"], window=ns[prefix + "domain"],
                 basis_name=basis_name)
    return type(name, (PolyBase,), attrs)
