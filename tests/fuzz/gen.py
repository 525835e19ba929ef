"""Recipes: each generated argument is a short Python expression, so a
call can be replayed, shrunk and printed. Sizes are capped (the largest
array built here has a few thousand elements); only the integers handed to
size parameters are huge, and those must fail fast, not allocate."""
import random

DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32",
          "int64", "uint64", "float16", "float32", "float64", "complex64",
          "complex128"]
ODD_DTYPES = ["'>i4'", "'>f8'", "'U3'", "object", "'M8[s]'", "'V4'", "'S2'"]
SHAPES = ["()", "(0,)", "(1,)", "(5,)", "(2, 3)", "(3, 0, 2)", "(1, 1, 1, 1)",
          "(2, 1, 3)", "(4, 4)", "(7,)", "(2, 2, 2)", "(33,)"]
SCALARS = ["0", "1", "-1", "2", "3", "7", "True", "False", "None", "1.5", "-0.0",
           "float('nan')", "float('inf')", "-float('inf')", "1j", "2**31",
           "2**63 - 1", "2**63", "-2**63 - 1", "2**64", "2**70", "-2**70",
           "-(2**31)", "''", "'abc'", "'C'", "'F'", "'K'", "'A'", "'float32'",
           "'int8'", "'cpu'", "'cuda:0'", "'cuda:7'", "'safe'", "'unsafe'",
           "'left'", "'right'", "'stable'", "b'x'", "[]", "()", "{}", "[1, 2]",
           "[[1, 2], [3]]", "[[1, 2], [3, 4]]", "(0, 1)", "(-1,)", "(0, 0)",
           "(2**40, 2**40)", "(2**62,)", "(-1, -1)", "(1, 2, 3, 4, 5, 6, 7, 8, 9)",
           "[0.5, 1.5]", "[True, False]", "[1, 'a']", "[None]", "object()",
           "P.BadIndex()", "P.BadLen()", "P.BigLen()", "P.BadIter()",
           "P.BadArray()", "P.BadBool()", "P.BadFloat()", "P.BadCAI()",
           "slice(None)", "slice(1, None, -1)", "slice(0, 2**70)", "Ellipsis",
           "np.float32(2)", "np.int64(-3)", "np.uint64(2**64 - 1)", "np.bool_(True)",
           "np.newaxis", "ember.float32", "ember.int64", "ember.bool_",
           "ember.complex128", "np.dtype('f8')", "np.dtype('>i2')", "int", "float",
           "complex", "bool", "str", "lambda *a, **k: 0", "print", "P.S", "P.E",
           "P.BUF", "P.POOL", "P.DEV", "ember.Stream.null", "P.A", "P.AI",
           "P.A.T", "P.AI[::3]", "range(3)", "iter([1, 2])", "{1: 2}", "{1, 2}",
           "memoryview(b'abcd')", "bytearray(8)", "(i for i in range(3))",
           "ember.In(np.zeros(4, 'f4'))", "ember.Out(np.zeros(4, 'f4'))"]
KW_NAMES = ["axis", "dtype", "out", "keepdims", "order", "copy", "device",
            "stream", "where", "casting", "kind", "side", "k", "n", "num",
            "endpoint", "ddof", "bins", "shape", "fill_value", "like", "axes",
            "initial", "sorter", "return_counts", "return_index", "size",
            "block", "grid", "shared_mem", "values", "init", "op", "zzz_unknown"]


def np_array(r):
    """A NumPy array recipe: every dtype, 0-d, empty, non-contiguous,
    read-only, byte-swapped, broadcast."""
    shape = r.choice(SHAPES)
    if r.random() < 0.08:
        dt = r.choice(ODD_DTYPES)
        base = f"np.zeros({shape}, dtype={dt})"
    else:
        dt = r.choice(DTYPES)
        if r.random() < 0.5:
            base = f"(np.arange(int(np.prod({shape}))) % 7 - 2).astype('{dt}').reshape({shape})"
        else:
            base = f"np.ones({shape}, dtype='{dt}')"
        if r.random() < 0.1 and dt.startswith("float"):
            base = f"np.full({shape}, np.nan, dtype='{dt}')"
    x = r.random()
    if x < 0.1:
        base = f"P.ro({base})"
    elif x < 0.2:
        base = f"P.swapped({base})"
    elif x < 0.3:
        base = f"np.broadcast_to({base}, (3,) + {base}.shape)"
    elif x < 0.4 and shape not in ("()",):
        base = f"{base}[::-1]"
    elif x < 0.45:
        base = f"{base}.T"
    return base


def ember_array(r):
    base = np_array(r)
    x = r.random()
    arr = f"ember.asarray({base})"
    if x < 0.15:
        arr = f"{arr}[..., ::2]"
    elif x < 0.25:
        arr = f"{arr}.T"
    elif x < 0.3:
        arr = f"{arr}[None]"
    elif x < 0.35:
        arr = f"ember.broadcast_to({arr}, (2,) + {arr}.shape)"
    elif x < 0.4:
        arr = f"ember.asarray({base}, device='cuda:0')"
    return arr


def value(r, depth=0):
    x = r.random()
    if x < 0.35:
        return ember_array(r)
    if x < 0.5:
        return np_array(r)
    if x < 0.55 and depth == 0:
        return "[" + ", ".join(value(r, 1) for _ in range(r.randint(0, 3))) + "]"
    if x < 0.58 and depth == 0:
        return "(" + "".join(value(r, 1) + ", " for _ in range(r.randint(1, 2))) + ")"
    return r.choice(SCALARS)


def call_args(r):
    """Positional and keyword recipes for one call."""
    n = r.choice([0, 1, 1, 2, 2, 2, 3, 3, 4])
    args = [value(r) for _ in range(n)]
    kwargs = {}
    if r.random() < 0.35:
        for _ in range(r.randint(1, 2)):
            kwargs[r.choice(KW_NAMES)] = value(r)
    return args, kwargs


def rng(seed, batch):
    return random.Random(f"{seed}:{batch}")
