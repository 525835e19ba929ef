"""Series.str: string kernels over Arrow's offsets and characters
(docs/frames.md, "The .str accessor"). Each method is a few kernel
launches or gathers over the whole column; results take pandas' dtypes
for `str` (nulls as NaN, or False in bool answers) and `string` (NA)."""
import ember

from ember.frame import _str_ops, _str_slice
from ember.frame._str_kernels import bool_result, char_lengths, int_result


class StrMethods:
    """The .str accessor of a Series."""

    @property
    def str(self):
        if self.dtype.is_object:   # lists, or strings kept as objects
            from ember.frame._object_str import ObjectStrMethods
            return ObjectStrMethods(self)
        return StringMethods(self)


def _pattern(pat, case, flags, what):
    """(pattern text, case-sensitive) from a str or compiled pattern and
    flags; of the flags only IGNORECASE is taken."""
    import re
    if isinstance(pat, re.Pattern):
        flags |= pat.flags & ~re.UNICODE
        pat = pat.pattern
    if not isinstance(pat, str):
        raise TypeError("first argument must be string or compiled pattern")
    if flags & ~(re.IGNORECASE | re.UNICODE):
        raise NotImplementedError(f"str.{what} with flags other than re.IGNORECASE")
    return pat, bool(case) and not flags & re.IGNORECASE


class StringMethods:
    def __init__(self, series):
        if not series.dtype.is_string:
            raise AttributeError("Can only use .str accessor with string values!")
        self._s = series
        self._col = series._col

    def _wrap(self, col):
        from ember.frame.series import Series
        return Series._make(col, self._s.index, self._s.name)

    # ---- lengths, case, whitespace
    def len(self):
        return self._wrap(int_result(self._col, char_lengths(self._col)))

    def lower(self):
        return self._wrap(_str_ops.case(self._col, "lower"))

    def upper(self):
        return self._wrap(_str_ops.case(self._col, "upper"))

    def title(self):
        return self._wrap(_str_ops.case(self._col, "title"))

    def capitalize(self):
        return self._wrap(_str_ops.case(self._col, "capitalize"))

    def swapcase(self):
        return self._wrap(_str_ops.case(self._col, "swapcase"))

    def casefold(self):
        return self._wrap(_str_ops.casefold(self._col))

    def translate(self, table):
        return self._wrap(_str_ops.translate(self._col, table))

    def strip(self, to_strip=None):
        return self._wrap(_str_ops.strip(self._col, to_strip, 3))

    def lstrip(self, to_strip=None):
        return self._wrap(_str_ops.strip(self._col, to_strip, 1))

    def rstrip(self, to_strip=None):
        return self._wrap(_str_ops.strip(self._col, to_strip, 2))

    # ---- tests
    def _affix(self, pat, na, mode):
        pats = pat if isinstance(pat, tuple) else (pat,)
        for p in pats:
            if not isinstance(p, str):
                raise TypeError(f"expected a string or tuple, not {type(p).__name__}")
        out = ember.zeros(self._col.length, dtype="bool", device=self._col.device)
        for p in pats:
            out = out | (_str_ops.find_raw(self._col, p, mode) != 0)
        return self._wrap(bool_result(self._col, out, na))

    def startswith(self, pat, na=None):
        return self._affix(pat, na, 2)

    def endswith(self, pat, na=None):
        return self._affix(pat, na, 3)

    def contains(self, pat, case=True, flags=0, na=None, regex=True):
        from ember.frame import _str_regex
        pat, case = _pattern(pat, case, flags, "contains")
        if regex and _str_regex.groups(pat):
            import warnings
            warnings.warn("This pattern is interpreted as a regular expression, and has "
                          "match groups. To actually get the groups, use str.extract.",
                          UserWarning, stacklevel=2)
        lit = pat if not regex else (_str_regex.literal(pat) if case else None)
        if lit is not None and case:   # a literal runs as a plain search
            hit = _str_ops.find_raw(self._col, lit, 0) >= 0
            return self._wrap(bool_result(self._col, hit, na))
        if not regex:
            pat = _str_regex.escape(pat)
        return self._wrap(bool_result(self._col, _str_regex.run(self._col, pat, case,
                                                                "search"), na))

    def match(self, pat, case=True, flags=0, na=None):
        from ember.frame import _str_regex
        pat, case = _pattern(pat, case, flags, "match")
        return self._wrap(bool_result(self._col, _str_regex.run(self._col, pat, case,
                                                                "match"), na))

    def fullmatch(self, pat, case=True, flags=0, na=None):
        from ember.frame import _str_regex
        pat, case = _pattern(pat, case, flags, "fullmatch")
        return self._wrap(bool_result(self._col, _str_regex.run(self._col, pat, case,
                                                                "full"), na))

    def _isclass(self, name):
        return self._wrap(bool_result(self._col, _str_ops.isclass(self._col, name)))

    # ---- search
    def find(self, sub, start=0, end=None):
        return self._wrap(_str_ops.find(self._col, sub, start, end))

    def rfind(self, sub, start=0, end=None):
        return self._wrap(_str_ops.find(self._col, sub, start, end, last=True))

    def index(self, sub, start=0, end=None):
        return self._index(sub, start, end, False)

    def rindex(self, sub, start=0, end=None):
        return self._index(sub, start, end, True)

    def _index(self, sub, start, end, last):
        out = _str_ops.find(self._col, sub, start, end, last=last)
        missing = out.values < 0
        if out.validity is not None or out.dtype.kind == "f":   # nulls are not misses
            missing = missing & ~out.isna()
        if bool(missing.any()):
            raise ValueError("substring not found")
        return self._wrap(out)

    def join(self, sep):
        from ember.frame._str_build import join_chars
        return self._wrap(join_chars(self._col, sep))

    def removeprefix(self, prefix):
        return self._wrap(_str_ops.remove_affix(self._col, prefix, 2))

    def removesuffix(self, suffix):
        return self._wrap(_str_ops.remove_affix(self._col, suffix, 3))

    def partition(self, sep=" ", expand=True):
        return self._parts(sep, expand, "partition")

    def rpartition(self, sep=" ", expand=True):
        return self._parts(sep, expand, "rpartition")

    def _parts(self, sep, expand, what):
        from ember.frame.frame import DataFrame
        if not expand:
            raise NotImplementedError(f"str.{what} with expand=False (tuples are not a "
                                      "column type here): use expand=True")
        cols = _str_ops.partition(self._col, sep, what == "rpartition")
        valid = self._col.validity
        if not self._col.length:
            cols = []   # pandas: no columns at all
        elif valid is not None and not bool(self._s.notna().any()):
            cols = cols[:1]   # pandas: one column when every row is null
        return DataFrame._make(dict(enumerate(cols)), self._s.index)

    def extract(self, pat, flags=0, expand=True):
        from ember.frame._str_extract import extract
        return extract(self._s, pat, flags, expand)

    def extractall(self, pat, flags=0):
        from ember.frame._str_extract import extractall
        return extractall(self._s, pat, flags)

    def findall(self, pat, flags=0):
        """Each row's matches as a list (an object column, _object_str)."""
        from ember.frame._object_str import findall
        return findall(self._s, pat, flags)

    def count(self, pat, flags=0):
        from ember.frame import _str_regex, _str_regex_first
        pat, case = _pattern(pat, True, flags, "count")
        lit = _str_regex.literal(pat) if case else None
        if lit == "":   # pandas (Arrow) counts the empty pattern at every byte
            from ember.frame._strings import lengths
            return self._wrap(int_result(self._col, lengths(self._col) + 1))
        if lit is not None:
            return self._wrap(int_result(self._col, _str_ops.find_raw(self._col, lit, 1)))
        return self._wrap(int_result(self._col, _str_regex_first.count(self._col, pat,
                                                                       case)))

    def replace(self, pat, repl=None, n=-1, case=None, flags=0, regex=False):
        from ember.frame import _str_regex, _str_regex_first
        if isinstance(pat, dict):   # pandas: each pair in turn
            if repl is not None:
                raise ValueError("repl cannot be used when pat is a dictionary")
            out = self._s
            for k, v in pat.items():
                out = out.str.replace(k, v, n=n, case=case, flags=flags, regex=regex)
            return out
        if callable(repl):
            raise NotImplementedError("str.replace with a callable repl")
        if not isinstance(repl, str):
            raise TypeError("repl must be a string or callable")
        n = -1 if n is None else n
        if not regex:
            if not isinstance(pat, str):
                raise TypeError(f"pat must be a str, not {type(pat).__name__}")
            if case is not False and not flags:
                return self._wrap(_str_ops.replace(self._col, pat, repl, n))
            pat = _str_regex.escape(pat)   # pandas: then a regular expression
        import re
        # pandas reads repl as Python's re.sub does where it runs the call in
        # re (see _str_capture.replace), else as RE2's rewrite
        python = isinstance(pat, re.Pattern) or case is False or bool(flags) or \
            "\\g<" in repl or None
        pat, case = _pattern(pat, case is not False, flags, "replace")
        if n == 0:
            from ember.frame._str_capture import zero_count
            n = zero_count(python, pat)
        if "\\" in repl:
            from ember.frame._str_capture import replace
            return self._wrap(replace(self._col, pat, repl, n, case, python))
        lit = _str_regex.literal(pat) if case else None
        if lit is not None:
            return self._wrap(_str_ops.replace(self._col, lit, repl, n))
        return self._wrap(_str_regex_first.replace(self._col, pat, repl, n, case))

    # ---- slices
    def slice(self, start=None, stop=None, step=None):
        return self._wrap(_str_slice.slice_chars(self._col, start, stop, step))

    def get(self, i):
        if not isinstance(i, int):
            raise TypeError(f"str.get of a {type(i).__name__} key (integers only here)")
        return self._wrap(_str_slice.get_char(self._col, i))

    def __getitem__(self, key):
        if isinstance(key, slice):
            return self.slice(key.start, key.stop, key.step)
        return self.get(key)

    def __iter__(self):   # else Python would iterate through __getitem__ forever
        raise TypeError("'StringMethods' object is not iterable")

    # ---- building
    def get_dummies(self, sep="|", dtype=None):
        from ember.frame._str_build import get_dummies
        if dtype is not None:
            raise NotImplementedError("str.get_dummies with dtype= (int64 only)")
        return get_dummies(self._s, sep)

    def slice_replace(self, start=None, stop=None, repl=None):
        from ember.frame._str_build import slice_replace
        return self._wrap(slice_replace(self._col, start, stop, repl))

    def repeat(self, repeats):
        from ember.frame._str_build import repeat
        return self._wrap(repeat(self._col, repeats))

    def pad(self, width, side="left", fillchar=" "):
        from ember.frame._str_build import pad
        return self._wrap(pad(self._col, width, side, fillchar))

    def center(self, width, fillchar=" "):
        return self.pad(width, "both", fillchar)

    def ljust(self, width, fillchar=" "):
        return self.pad(width, "right", fillchar)

    def rjust(self, width, fillchar=" "):
        return self.pad(width, "left", fillchar)

    def zfill(self, width):
        from ember.frame._str_build import zfill
        return self._wrap(zfill(self._col, width))

    def cat(self, others=None, sep=None, na_rep=None, join="left"):
        from ember.frame._str_build import cat
        out = cat(self._s, others, sep, na_rep, join)
        return out if isinstance(out, str) else self._wrap(out)

    def split(self, pat=None, *, n=-1, expand=False, regex=None):
        from ember.frame._str_build import split
        return split(self._s, pat, n, expand, regex, right=False)

    def rsplit(self, pat=None, *, n=-1, expand=False):
        from ember.frame._str_build import split
        return split(self._s, pat, n, expand, False, right=True)


def _missing(name):
    def method(self, *args, **kwargs):
        raise NotImplementedError(f"str.{name} is not supported yet (use to_pandas() "
                                  "for it)")
    method.__name__ = name
    return method


# pandas' methods that ember does not build: named, never an AttributeError
for _name in ("wrap", "normalize",
              "encode", "decode"):
    setattr(StringMethods, _name, _missing(_name))
del _name


def _class_method(name):
    def method(self):
        return self._isclass(name)
    method.__name__ = name
    method.__doc__ = f"Python's str.{name} of every row (pandas' dtype: bool or boolean)."
    return method


for _name in ("isdigit", "isalpha", "isnumeric", "isdecimal", "isspace", "islower",
              "isupper", "isalnum", "istitle"):
    setattr(StringMethods, _name, _class_method(_name))
del _name
