"""groupby: split rows by keys, reduce or transform each group (owner:
issue 22's groupby). Methods reach Series and DataFrame through the
mixin below."""


class GroupbyMethods:
    """Series.groupby and DataFrame.groupby."""
