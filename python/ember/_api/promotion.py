"""NumPy's promote_types and can_cast: their arguments here, the rules in
the C core (em_dtype_promote through result_type, em_dtype_can_cast
through the extension's `_can_cast`)."""
from ember import _ember as _e

_CASTINGS = ("no", "equiv", "safe", "same_kind", "unsafe")


def promote_types(type1, type2):
    """The smallest dtype both cast to safely."""
    return _e.result_type(_e.dtype(type1), _e.dtype(type2))


def can_cast(from_, to, casting="safe"):
    """Whether the cast is allowed."""
    if not isinstance(casting, str):
        raise TypeError(f"can_cast() argument 'casting' must be str, not "
                        f"{type(casting).__name__}")
    if casting not in _CASTINGS:
        raise ValueError(f"casting must be one of 'no', 'equiv', 'safe', "
                         f"'same_kind', or 'unsafe', not '{casting}'")
    to = _e.dtype(to)
    if isinstance(from_, _e.ndarray):
        from_ = from_.dtype
    elif isinstance(from_, (int, float, complex)):
        # NumPy 2 refuses Python scalars: their dtype depends on the other
        # operand
        raise TypeError("can_cast() does not support Python ints, floats, "
                        "and complex because the result used to depend on "
                        "the value.\nThis change was part of adopting NEP 50, "
                        "we may explicitly allow them again in the future.")
    return _e._can_cast(_e.dtype(from_), to, casting)
