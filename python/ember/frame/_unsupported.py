"""pandas names ember.frame does not build, raising NotImplementedError
that names them (rather than AttributeError, which reads as a typo)."""


class MultiIndex:
    """pandas' MultiIndex: not built (ember.frame's index is one column)."""

    def __init__(self, *args, **kwargs):
        _no_multiindex()

    @classmethod
    def from_tuples(cls, *args, **kwargs):
        _no_multiindex()

    @classmethod
    def from_arrays(cls, *args, **kwargs):
        _no_multiindex()

    @classmethod
    def from_product(cls, *args, **kwargs):
        _no_multiindex()

    @classmethod
    def from_frame(cls, *args, **kwargs):
        _no_multiindex()


def _no_multiindex():
    raise NotImplementedError("MultiIndex is not supported by ember.frame: index by one "
                              "column (set_index) or keep the keys as columns "
                              "(groupby(..., as_index=False))")


def read_orc(*args, **kwargs):
    raise NotImplementedError("read_orc is not supported by ember.frame; use "
                              "read_parquet, or pyarrow.orc and ember.from_arrow")


def to_orc(self, *args, **kwargs):
    raise NotImplementedError("DataFrame.to_orc is not supported by ember.frame; use "
                              "to_parquet, or pyarrow.orc.write_table(df.to_arrow(), path)")
