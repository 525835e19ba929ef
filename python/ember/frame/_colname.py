"""The name of a frame's columns (pandas' columns.name), which pivot,
pivot_table and unstack set to the key the columns came from. It is an
attribute of the frame, kept by the row selections (head, loc, iloc,
sort_values, copy) and shown by to_pandas and the columns Index, whose
name setter writes it back (so `df.columns.name = None` clears it, as in
pandas). Frames made otherwise start without one."""
from ember.frame._index import Index


class ColumnLabels(Index):
    """df.columns: the labels, and a name that is the frame's."""

    def __init__(self, frame, labels):
        self._frame = None
        super().__init__(labels, dtype=None if labels else "str", device=frame._device())
        self._frame = frame

    @property
    def name(self):
        return self._frame._colname if self._frame is not None else None

    @name.setter
    def name(self, value):
        if self._frame is not None:
            self._frame._colname = value


def keep(src, out):
    """out with src's columns name (a selection of src's rows), and the
    kind of columns Index it has when it has no columns (frame.py)."""
    if src._colname is not None:
        out._colname = src._colname
    if src._empty_columns is not None and not out._cols:
        out._empty_columns = src._empty_columns
    return out
