"""The constructor arguments of the C kernel types (RawKernel,
ElementwiseKernel, ReductionKernel). A
constructor runs once per kernel object, so its CuPy signature is checked
here and the C type keeps only what a launch reads; each type's __new__
calls the matching function with the class first and stores the tuple it
returns, whose items its attributes read."""
from ember import _ember as _e
from ember._api.program import options_tuple
from ember._api.rawmodule import check_cupy_options
from ember._api.rawsource import expand_cupy_includes


def _str(who, what, v):
    if not isinstance(v, str):
        raise TypeError(f"{who}() argument '{what}' must be str, not "
                        f"{type(v).__name__}")
    return v


def rawkernel(cls, code, name, options=(), backend="nvrtc",
              translate_cucomplex=False, *, enable_cooperative_groups=False,
              jitify=False):
    """(code, name, options)."""
    _str("RawKernel", "code", code)
    _str("RawKernel", "name", name)
    _str("RawKernel", "backend", backend)
    check_cupy_options("RawKernel", backend, translate_cucomplex,
                       enable_cooperative_groups, jitify)
    return code, name, options_tuple(options)


def rawkernel_function(k, device):
    """The Function of RawKernel k on device, for its first launch there:
    its source compiled through the kernel cache as a module's."""
    with device:
        return _e._RawModule(expand_cupy_includes(k.code), None, None,
                             k.options).get_function(k.name)


def elementwise(cls, in_params, out_params, operation, name="kernel",
                reduce_dims=True, preamble="", no_return=False,
                return_tuple=False, loop_prep="", after_loop="", options=()):
    """The arguments in this order, options a tuple of str."""
    for what, v in (("in_params", in_params), ("out_params", out_params),
                    ("operation", operation), ("name", name),
                    ("preamble", preamble), ("loop_prep", loop_prep),
                    ("after_loop", after_loop)):
        _str("ElementwiseKernel", what, v)
    return (in_params, out_params, operation, name, bool(reduce_dims),
            preamble, bool(no_return), bool(return_tuple), loop_prep,
            after_loop, options_tuple(options))


def reduction(cls, in_params, out_params, map_expr, reduce_expr,
              post_map_expr, identity=None, name="reduce_kernel",
              reduce_type=None, reduce_dims=True, preamble="", options=()):
    """The arguments in this order: identity as its C text (str()),
    reduce_type as a C type name or a dtype's name."""
    for what, v in (("in_params", in_params), ("out_params", out_params),
                    ("map_expr", map_expr), ("reduce_expr", reduce_expr),
                    ("post_map_expr", post_map_expr), ("name", name),
                    ("preamble", preamble)):
        _str("ReductionKernel", what, v)
    if identity is not None:
        identity = str(identity)
    if reduce_type is not None and not isinstance(reduce_type, str):
        reduce_type = _e.dtype(reduce_type).name
    return (in_params, out_params, map_expr, reduce_expr, post_map_expr,
            identity, name, reduce_type, bool(reduce_dims), preamble,
            options_tuple(options))

