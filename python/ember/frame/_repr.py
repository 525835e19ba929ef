"""Text reprs. Only the rows shown (at most 10 of a long frame) leave the
device; pandas, when installed, lays them out, else a short summary."""
import ember

_MAX = 60
_EDGE = 5


def _shown(obj):
    n = len(obj)
    if n <= _MAX:
        return obj, False
    dev = obj._col.device if hasattr(obj, "_col") else obj._device()
    pos = ember.concatenate([ember.arange(_EDGE, dtype="int64", device=dev),
                             ember.arange(n - _EDGE, n, dtype="int64", device=dev)])
    return obj._take(pos), True


def _have_pandas():
    import importlib
    try:
        importlib.import_module("pandas")   # it lays the rows out
    except ImportError:
        return False
    return True


def series_repr(s):
    if not _have_pandas():
        return f"<ember.frame.Series {s.name!r}: {len(s)} rows, dtype {s.dtype}>"
    part, cut = _shown(s)
    text = repr(part.to_pandas())
    if cut:
        lines = text.splitlines()
        lines.insert(_EDGE, "...")
        text = "\n".join(lines).replace("dtype:", f"Length: {len(s)}, dtype:")
    return text + f"\n[ember, {s.device}]"


def frame_repr(df):
    if not _have_pandas():
        return f"<ember.frame.DataFrame: {len(df)} rows x {len(df._cols)} columns>"
    part, cut = _shown(df)
    text = part.to_pandas().to_string()
    if cut:
        lines = text.splitlines()
        lines.insert(_EDGE + 1, "..")
        text = "\n".join(lines)
    return text + f"\n\n[{len(df)} rows x {len(df._cols)} columns, ember, {df._device()}]"
