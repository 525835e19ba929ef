"""merge, join and concat: rows of several frames put together in
pandas' order."""


class MergeMethods:
    """DataFrame.merge and DataFrame.join."""
