"""astype to and from pandas' object dtype (_object_column.py)."""
from ember.frame._object_column import ObjectColumn, boxed


def astype(col, to):
    """To object: the column's values read as Python objects (a box over
    the same column, nothing copied). From object: a box's values cast as
    its typed column would be (its nulls kept); lists and host objects
    only to object, as ember has no column of their converted values."""
    if to.is_object:
        return boxed(col)
    if not isinstance(col, ObjectColumn):
        raise TypeError(f"cannot astype {col.dtype.name} to {to.name}")
    if col.layout != "box":
        what = "lists" if col.layout == "list" else "mixed Python objects"
        raise NotImplementedError(f"astype of an object column of {what} to {to.name} "
                                  "(ember keeps those cells only as objects)")
    from ember.frame._convert import astype as typed_astype
    child = col.child
    nulls = col.null_mask()
    if nulls is not None:   # the box's nulls, read by the typed column's rules
        if child.dtype.kind == "f" and not child.dtype.masked:
            import ember
            child = type(child)(child.dtype, ember.where(nulls, float("nan"), child.values))
        else:
            child = child.with_validity(~nulls)
    return typed_astype(child, to)
