"""What the fuzzer calls: every public callable of ember and of its
cuda, parallel and linalg modules, ndarray methods and operators, the
methods of streams, events, buffers, pools and devices, kernels'
constructors, calls and launches. Each target is a recipe string."""
import inspect

# Calls that legitimately never return or end the process, or whose only
# effect is on the machine rather than ember (none of them is a C entry
# point a user reaches by accident with a bad argument).
SKIP = {
    "ember.cuda.profile_start", "ember.cuda.profile_stop",
    "ember.cuda.close", "ember.cuda.detect", "ember.test",
    "ember.show_config", "ember.info",
}

OPERATORS = ["add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul",
             "and_", "or_", "xor", "lshift", "rshift", "lt", "le", "eq", "ne",
             "ge", "gt", "neg", "pos", "abs", "invert", "getitem", "setitem",
             "delitem", "contains", "iadd", "isub", "imul", "itruediv",
             "ifloordiv", "imod", "ipow", "iand", "ior", "ixor", "ilshift",
             "irshift", "imatmul", "index", "truth", "concat", "length_hint"]
BUILTINS = ["len", "list", "int", "float", "complex", "bool", "repr", "str",
            "hash", "bytes", "divmod", "round", "reversed", "sorted", "sum",
            "max", "min", "abs", "format", "dir", "memoryview", "iter", "copy.copy",
            "copy.deepcopy", "pickle.dumps"]
OBJECTS = {"P.S": "Stream", "P.E": "Event", "P.BUF": "Buffer",
           "P.POOL": "MemoryPool", "P.DEV": "Device", "P.RAW": "RawKernel",
           "P.MOD": "RawModule", "P.EK": "ElementwiseKernel",
           "P.RK": "ReductionKernel", "P.JIT": "Dispatcher",
           "P.RNG": "Generator", "P.RS": "RandomState"}
KERNEL_CALLS = ["P.EK", "P.EK1", "P.RK", "P.RAW", "P.JIT[1, 32]", "P.JIT[4, 4, P.S]",
                "P.JIT2[1, 64]", "P.JIT[2**31, 1]", "P.JIT[0, 0]", "P.JIT[1, 2048]",
                "P.JIT[(1, 1, 1), (1, 1, 2**20)]", "P.MOD.get_function('fuzz_inc')",
                "P.JIT.forall(5)", "P.JIT.forall(0)"]


def public(mod, prefix):
    out = []
    for name in sorted(dir(mod)):
        if name.startswith("_"):
            continue
        try:
            obj = getattr(mod, name)
        except Exception:
            continue
        if inspect.ismodule(obj) or not callable(obj):
            continue
        t = f"{prefix}.{name}"
        if t not in SKIP:
            out.append(t)
    return out


def collect(ember, P):
    """Module-level targets (strings), and the names of ndarray methods."""
    t = public(ember, "ember")
    for sub in ("cuda", "parallel", "linalg", "runtime", "random"):
        m = getattr(ember, sub, None)
        if m is not None:
            t += public(m, f"ember.{sub}")
    if hasattr(ember, "cuda") and hasattr(ember.cuda, "random"):
        t += public(ember.cuda.random, "ember.cuda.random")
    t += [f"operator.{o}" for o in OPERATORS]
    t += BUILTINS
    for recipe, _ in OBJECTS.items():
        obj = eval(recipe, {"P": P})
        for name in dir(obj):
            if not name.startswith("_") and callable(getattr(obj, name, None)):
                t.append(f"{recipe}.{name}")
    t += KERNEL_CALLS
    methods = [m for m in dir(ember.ndarray)
               if not m.startswith("_") or m in (
                   "__array__", "__dlpack__", "__array_ufunc__", "__array_function__",
                   "__setitem__", "__getitem__", "__index__", "__format__",
                   "__round__", "__copy__", "__deepcopy__", "__reduce__",
                   "__array_namespace__", "__len__", "__iter__", "__contains__",
                   "__complex__", "__float__", "__int__", "__bool__")]
    methods = [m for m in methods if callable(getattr(ember.ndarray, m, None))]
    return sorted(set(t)), methods
