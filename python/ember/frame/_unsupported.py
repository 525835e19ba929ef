"""pandas names ember.frame does not build, raising NotImplementedError
that names them (rather than AttributeError, which reads as a typo)."""


def _no_multiindex(*args, **kwargs):
    raise NotImplementedError("MultiIndex is not supported by ember.frame: index by one "
                              "column (set_index) or keep the keys as columns "
                              "(groupby(..., as_index=False))")


class MultiIndex:
    """pandas' MultiIndex: not built (ember.frame's index is one column)."""
    __init__ = _no_multiindex
    from_tuples = from_arrays = from_product = from_frame = staticmethod(_no_multiindex)


def read_orc(*args, **kwargs):
    raise NotImplementedError("read_orc is not supported by ember.frame; use "
                              "read_parquet, or pyarrow.orc and ember.from_arrow")


def to_orc(self, *args, **kwargs):
    raise NotImplementedError("DataFrame.to_orc is not supported by ember.frame; use "
                              "to_parquet, or pyarrow.orc.write_table(df.to_arrow(), path)")
