"""Moving windows: rolling, expanding, ewm, and resample on a datetime
index."""


class WindowMethods:
    """rolling, expanding, ewm, resample for Series and DataFrame."""
