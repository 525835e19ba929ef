"""The cold attributes of ember.Function (a kernel loaded on one device),
from the per-parameter facts the C type hands out (_params: each
parameter's (size, kind), or None when the code does not say)."""


def num_params(f):
    p = f._params
    return None if p is None else len(p)


def param_sizes(f):
    p = f._params
    return None if p is None else tuple(size for size, _ in p)


def param_kinds(f):
    p = f._params
    return None if p is None else tuple(kind for _, kind in p)


def repr(f):
    return f"<ember.Function '{f.name}' on {f.device}>"
