"""Reshaping and user functions: pivot_table, melt, apply and map
through ember's kernel translator, query, where, mask."""


class ReshapeMethods:
    """apply, map, pivot_table, melt, query, where, mask."""
