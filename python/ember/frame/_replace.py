"""Series.replace and DataFrame.replace (regex=False): each (old, new)
pair is one comparison of the column and one choice of each row's value
(where's dtype rules: an int column taking 1.5 becomes float64, int8
taking 500 int16, a nullable one raises TypeError). The masks are all
taken from the original column, so [0, 1] -> [1, 2] maps 0 to 1, not 2."""
import numbers

from ember.frame import _ops
from ember.frame._where import choose, _is_null

NO_VALUE = object()


def _kind(x):
    if _is_null(x) or type(x).__name__ == "NaTType":
        return "null"
    if isinstance(x, bool) or type(x).__name__ == "bool_":
        return "b"
    if isinstance(x, str):
        return "U"
    if isinstance(x, numbers.Number):
        return "n"
    return "t"   # a Timestamp, datetime, Timedelta...


def _matches(col, key):
    """Where the original column holds key (bool array), or None where it
    cannot (another kind of value: pandas finds no match)."""
    d, k = col.dtype, _kind(key)
    if k == "null":
        return col.null_mask()
    if not ((d.is_string and k == "U") or (d.kind == "b" and k == "b") or
            (d.kind in "iuf" and k == "n") or (d.kind in "Mm" and k == "t")):
        return None
    eq = _ops.binary("eq", col, key)
    m = eq.values
    return m if eq.validity is None else m & ~eq.isna()


def _many_numbers(col, pairs):
    """Many number -> number pairs on a plain number column: one search of
    every row among the sorted keys (O(n log k)) instead of a pass a pair;
    None where the pass-a-pair path must decide."""
    from ember.frame._apply import _find_numbers
    from ember.frame._convert import column_from
    from ember.frame._setitem import _fit
    from ember.frame._where import _choose_columns
    d = col.dtype
    if len(pairs) <= 8 or d.masked or d.kind not in "iuf" or not all(
            _kind(o) == "n" and _kind(v) == "n" for o, v in pairs):
        return None
    mapping = dict(pairs)    # a repeated key: the last pair's value, as the masks give
    keys = column_from(list(mapping), device=col.device)
    news = column_from(list(mapping.values()), device=col.device)
    found, pos = _find_numbers(col.values, keys.values)
    if not bool(found.any()):
        return col
    vals = news.take(pos)
    try:
        vals = _fit(d, vals)
    except TypeError:   # where's promotion is pandas' only from the widest dtypes
        if d.storage not in ("int64", "float64"):
            return None
    return _choose_columns(col, ~found, vals, "replace")


def replace_column(col, pairs):
    many = _many_numbers(col, pairs)
    if many is not None:
        return many
    d = col.dtype
    masks = [(m, new) for old, new in pairs
             for m in [_matches(col, old)] if m is not None]
    out = col
    for m, new in masks:
        if not bool(m.any()):
            continue
        if new is None and not (d.masked or d.is_string or d.kind in "Mm"):
            raise NotImplementedError(
                f"replace with None in a {d.name} column: pandas makes an object "
                "column of None, which ember.frame does not hold; replace with "
                "np.nan, or astype a nullable dtype (Float64, Int64) first")
        out = choose(out, ~m, new, "replace")
    return out


def _pairs(to_replace, value, what):
    """[(old, new)] from replace's arguments for one column."""
    if isinstance(to_replace, dict):
        if value is not NO_VALUE:
            raise ValueError(f"{what}: a dict to_replace takes no value")
        return list(to_replace.items())
    if value is NO_VALUE:
        raise ValueError(f"{what} must specify either 'value', a dict-like "
                         "'to_replace', or dict-like 'regex'.")
    if isinstance(to_replace, (list, tuple)):
        if isinstance(value, (list, tuple)):
            if len(value) != len(to_replace):
                raise ValueError(f"Replacement lists must match in length. Expecting "
                                 f"{len(to_replace)} got {len(value)} ")
            return list(zip(to_replace, value))
        return [(old, value) for old in to_replace]
    if isinstance(value, (list, tuple)):
        raise TypeError(f"{what}: a list value needs a list to_replace of its length")
    return [(to_replace, value)]


def _check(to_replace, regex):
    if regex is not False:
        raise NotImplementedError("replace with regex= is not supported; use "
                                  "Series.str.replace(pat, repl, regex=True)")
    if to_replace is None:
        raise TypeError("'regex' must be a string or a compiled regular expression "
                        "or a list or dict of strings or regular expressions, you "
                        "passed a 'bool'")


def _per_column(df, to_replace, value):
    """{column: [(old, new)]} for DataFrame.replace."""
    names = list(df._cols)
    if isinstance(to_replace, dict):
        nested = any(isinstance(v, dict) for v in to_replace.values())
        if value is NO_VALUE and not nested:    # {old: new} for every column
            return {k: list(to_replace.items()) for k in names}
        out = {}
        for k, olds in to_replace.items():
            if k not in df._cols:
                continue
            if isinstance(olds, dict):
                out[k] = list(olds.items())
                continue
            new = value.get(k, NO_VALUE) if isinstance(value, dict) else value
            if new is NO_VALUE:
                continue
            out[k] = _pairs(olds, new, "DataFrame.replace")
        return out
    if isinstance(value, dict):
        return {k: _pairs(to_replace, v, "DataFrame.replace") for k, v in value.items()
                if k in df._cols}
    pairs = _pairs(to_replace, value, "DataFrame.replace")
    return {k: pairs for k in names}


class ReplaceMethods:

    def replace(self, to_replace=None, value=NO_VALUE, *, inplace=False, limit=None,
                regex=False):
        from ember.frame.frame import DataFrame
        _check(to_replace, regex)
        if limit is not None:
            raise NotImplementedError("replace with limit=")
        if isinstance(self, DataFrame):
            plan = _per_column(self, to_replace, value)
            cols = {k: replace_column(c, plan[k]) if k in plan else c
                    for k, c in self._cols.items()}
            if inplace:
                self._cols = cols
                return None
            return DataFrame._make(cols, self._index)
        col = replace_column(self._col, _pairs(to_replace, value, "Series.replace"))
        if inplace:
            self._col = col
            return None
        return self._like(col)
