"""pandas names ember.frame does not build, raising NotImplementedError
that names them (rather than AttributeError, which reads as a typo)."""


def read_orc(*args, **kwargs):
    raise NotImplementedError("read_orc is not supported by ember.frame; use "
                              "read_parquet, or pyarrow.orc and ember.from_arrow")


def to_orc(self, *args, **kwargs):
    raise NotImplementedError("DataFrame.to_orc is not supported by ember.frame; use "
                              "to_parquet, or pyarrow.orc.write_table(df.to_arrow(), path)")
