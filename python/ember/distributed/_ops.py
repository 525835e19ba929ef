"""What a collective's arguments may be: NCCL's dtypes and reduction ops
(with their NCCL numbers, which CuPy's spellings pass), and the checks that
name the offending shapes, dtypes and devices."""
import ember

# NCCL's ncclDataType_t numbers; ember's cpu worlds use the same codes.
DTYPES = {"int8": 0, "uint8": 1, "int32": 2, "uint32": 3, "int64": 4,
          "uint64": 5, "float16": 6, "float32": 7, "float64": 8,
          "bfloat16": 9}
_BY_CODE = {v: k for k, v in DTYPES.items()}

# ncclRedOp_t: sum, prod, max, min, avg.
OPS = {"sum": 0, "prod": 1, "max": 2, "min": 3, "avg": 4}
_OP_NAMES = {v: k for k, v in OPS.items()}


def dtype_code(dt, what):
    code = DTYPES.get(str(dt))
    if code is None:
        raise TypeError("%s: NCCL has no type for dtype %s (it takes %s)"
                        % (what, dt, ", ".join(DTYPES)))
    return code


def dtype_of_code(code):
    return ember.dtype(_BY_CODE[code])


def op_code(op):
    """'sum'/'prod'/'max'/'min'/'avg', a ReduceOp, or NCCL's number."""
    if isinstance(op, str):
        c = OPS.get(op.lower())
    elif isinstance(op, int):
        c = int(op) if int(op) in _OP_NAMES else None
    else:
        c = None
    if c is None:
        raise ValueError("unknown reduction op %r: expected one of %s or "
                         "their NCCL numbers 0-4" % (op, ", ".join(OPS)))
    return c


def op_name(code):
    return _OP_NAMES[code]


def check_array(a, what, device, writeable=False):
    if not isinstance(a, ember.ndarray):
        raise TypeError("%s: expected an ember.ndarray, got %s"
                        % (what, type(a).__name__))
    if a.device != device:
        raise ValueError("%s is on %s but the communicator is on %s"
                         % (what, a.device, device))
    dtype_code(a.dtype, what)
    if writeable:
        if not a.flags.writeable:
            raise ValueError("%s is read-only" % what)
        if not a.flags.c_contiguous:
            raise ValueError("%s must be C-contiguous (NCCL writes a flat "
                             "buffer); its strides are %s" % (what, a.strides))


def check_pair(send, recv, what, want):
    """recv's dtype must be send's, and its size want."""
    if recv.dtype != send.dtype:
        raise TypeError("%s: recvbuf's dtype %s differs from sendbuf's %s"
                        % (what, recv.dtype, send.dtype))
    if recv.size != want:
        raise ValueError("%s: recvbuf has shape %s (%d elements) but %d are "
                         "needed for sendbuf of shape %s"
                         % (what, recv.shape, recv.size, want, send.shape))
