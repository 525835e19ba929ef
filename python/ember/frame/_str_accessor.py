"""Series.str: string kernels over Arrow's offsets and characters."""


class StrMethods:
    """The .str accessor of a Series."""
