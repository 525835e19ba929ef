"""Interval categories, as cut and qcut make by default: the categories
column holds each interval's text ("(0.994, 3.0]"), so everything a
categorical does (repr, ==, value_counts, groupby, astype(str)) works on
it unchanged, and remembers the bin edges and the closed side, so that
to_pandas gives pandas' IntervalIndex categories. ember.frame has no
interval dtype: a category taken out of the column (decode, .cat.categories
moved to another device) is its text."""
import numpy as np

from ember.frame._column import Column


class IntervalLabels(Column):
    """A str Column of interval texts with breaks (a host NumPy array of
    k + 1 edges, the categories' k intervals) and closed ('right'/'left')."""
    __slots__ = ("breaks", "closed")

    def to_device(self, device):
        return _labels(Column.to_device(self, device), self.breaks, self.closed)

    def to_pandas_array(self):
        from ember.frame._pandas import pandas
        return pandas().arrays.IntervalArray.from_breaks(self.breaks, closed=self.closed)


def _text(x):
    # pandas prints an interval's edges as NumPy prints the scalars
    return str(x)


def make(breaks, closed, device):
    """The categories of the intervals between consecutive breaks."""
    from ember.frame._convert import column_from
    lo, hi = ("(", "]") if closed == "right" else ("[", ")")
    texts = [f"{lo}{_text(a)}, {_text(b)}{hi}" for a, b in zip(breaks[:-1], breaks[1:])]
    return _labels(column_from(texts, dtype="str", device=device), np.asarray(breaks),
                   closed)


def _labels(col, breaks, closed):
    out = IntervalLabels.__new__(IntervalLabels)
    for slot in Column.__slots__:
        setattr(out, slot, getattr(col, slot))
    out.breaks, out.closed = breaks, closed
    return out


def from_pandas(index, device):
    """pandas' IntervalIndex categories (of breaks: each interval's right
    edge is the next one's left) as IntervalLabels; None when they are not
    such a run of intervals, which ember.frame cannot hold."""
    left, right = np.asarray(index.left), np.asarray(index.right)
    if len(left) == 0 or not np.array_equal(left[1:], right[:-1]) or \
            index.closed not in ("left", "right"):
        return None
    return make(np.concatenate([left[:1], right]), index.closed, device)
