"""DataFrame.iterrows: (label, row) pairs, each row a pandas Series.

Per-row Python is what the API is, so the rows are host objects built
from one host copy of the frame: to_numpy(), the 2-D array in pandas'
interleaved dtype (a float64 frame gives float64 rows, a frame of mixed
columns object rows), copied once, not a transfer a row. Each row is
pandas' Series of that row's values, as pandas builds it, so values and
dtypes are pandas' own, object rows included. An ember Series cannot
hold an object row (ember has no object dtype), and one built a row on
`cpu` would cost kernel calls for every label lookup; itertuples keeps
each column's own type instead (per-column host lists)."""


def iterrows(df):
    from ember.frame._pandas import pandas
    pd = pandas()
    values = df.to_numpy()
    columns = df.columns.to_pandas()
    labels = df._index.tolist()
    for label, row in zip(labels, values):
        yield label, pd.Series(row, index=columns, name=label)
