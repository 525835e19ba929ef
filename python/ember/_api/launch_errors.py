"""The messages of a kernel argument that does not suit its parameter
(launch_args.py decides which). Each entry: the exception and the text
after "kernel 'name' args[i]", with {d} the parameter's declaration from
the source (" (const float *x)", or "") and {0}, {1}, ... the values
passed."""

_SIZE = "{0} is {1} bytes but the parameter is {2} bytes"
_MESSAGES = {
    "ptr_size": (TypeError, ": a pointer was given but the parameter is {0} "
                 "bytes"),
    "int_size": (TypeError, "{d}: an int was given but the parameter is {0} "
                 "bytes (pass a NumPy scalar of that size)"),
    "int_range": (OverflowError, "{d}: {0} does not fit the {1}-byte {2} "
                  "integer parameter"),
    "float_size": (TypeError, "{d}: a float was given but the parameter is "
                   "{0} bytes"),
    "complex_size": (TypeError, ": a complex was given but the parameter is "
                     "{0} bytes"),
    "buffer_device": (TypeError, ": the Buffer is on {0} but the kernel runs "
                      "on {1}"),
    "wrapper_size": (TypeError, ": ember.{0}() passes a pointer but the "
                     "parameter is {1} bytes"),
    "wrapper_contiguous": (TypeError, ": ember.{0}() needs a contiguous{1} "
                           "host array"),
    "cai_malformed": (TypeError, ": {0} has a malformed "
                      "__cuda_array_interface__ (no data pointer)"),
    "cai_on_cpu": (TypeError, ": {0} is CUDA device memory "
                   "(__cuda_array_interface__) but the kernel runs on {1}"),
    "array_device": (ValueError, ": the ember array ({0} elements of {1}) is "
                     "on {2} but the kernel runs on {3}"),
    "host_array": (TypeError, ": a host array ({0}) cannot be passed "
                   "directly; wrap it as ember.In(a), ember.Out(a) or "
                   "ember.InOut(a), or copy it into an ember.Buffer"),
    "untyped_size": (TypeError, ": " + _SIZE),
    "scalar_size": (TypeError, "{d}: " + _SIZE),
    "cannot_pass": (TypeError, ": cannot pass {0} (expected an ember.Buffer, "
                    "an array with __cuda_array_interface__, "
                    "ember.In/Out/InOut, an int, a float or a NumPy scalar)"),
    "float_range": (OverflowError, "{d}: {0} is too large for a "
                    "floating-point parameter"),
    "bool_range": (OverflowError, "{d}: {0} does not fit the bool parameter "
                   "(0 or 1)"),
    "not_contiguous": (TypeError, "{d}: {0} is not contiguous"),
    "by_value": (TypeError, "{d} is passed by value ({0} bytes); got {1} "
                 "(pass bytes, or a NumPy array or structured scalar, of "
                 "exactly {0} bytes)"),
}

_INT_HINT = "pass an int or a NumPy integer of its size"
# A parameter of a known kind given the wrong thing: what it is, and how
# to pass one.
_KINDS = {
    "pointer": ("a pointer", "pass an ember.Buffer, ember.In/Out/InOut or an "
                "array with __cuda_array_interface__"),
    "int": ("an integer", _INT_HINT),
    "uint": ("an unsigned integer", _INT_HINT),
    "float": ("a floating-point number", "pass a float, an int or a NumPy "
              "scalar"),
    "bool": ("a bool", "pass True or False"),
}


def arg_error(kernel, which, i, decl, values):
    """Raise the message `which` for argument i of the kernel."""
    head = f"kernel '{kernel}' args[{i}]"
    if which == "kind":     # values: (kind name, size, type name)
        kind, size, tname = values
        if kind not in _KINDS:
            which, values = "by_value", (size, tname)
        else:
            what, hint = _KINDS[kind]
            raise TypeError(f"{head}{decl} is {what}; got {tname} ({hint})")
    exc, text = _MESSAGES[which]
    raise exc(head + text.format(*values, d=decl))
