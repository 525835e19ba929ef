"""One batch of fuzz calls, run in a child process by run.py.

    python child.py batch SEED BATCH NCALLS LOG RESULT
    python child.py one CALL_JSON RESULT

Before each call its recipe is appended to LOG (flushed), so when this
process dies of a signal or hangs the parent knows which call did it.
RESULT gets JSON: calls made, exception classes seen (name -> count) and
the calls that raised SystemError."""
import copy  # noqa: F401  (targets name copy.copy)
import gc
import inspect
import json
import operator  # noqa: F401
import os
import pickle  # noqa: F401
import sys
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import numpy as np  # noqa: E402

import ember  # noqa: E402
import prelude as P  # noqa: E402
import gen  # noqa: E402
import targets  # noqa: E402

NS = {"np": np, "ember": ember, "P": P, "operator": operator, "copy": copy,
      "pickle": pickle}


ARITY = {}


def arity(target):
    """(fewest, most) positional arguments from the signature, or None."""
    if target not in ARITY:
        ARITY[target] = None
        try:
            sig = inspect.signature(eval(target, NS))
            ps = [p for p in sig.parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
            lo = sum(p.default is p.empty for p in ps)
            var = any(p.kind == p.VAR_POSITIONAL for p in sig.parameters.values())
            ARITY[target] = (lo, len(ps) + (2 if var else 0))
        except Exception:
            pass
    return ARITY[target]


def make_call(r, tlist, methods):
    x = r.random()
    if x < 0.22:
        target = f"({gen.ember_array(r)}).{r.choice(methods)}"
        ar = arity(f"ember.ndarray.{target.rsplit('.', 1)[1]}")
        if ar:
            ar = (max(ar[0] - 1, 0), max(ar[1] - 1, 0))      # self
    else:
        target = r.choice(tlist)
        ar = arity(target)
    args, kwargs = gen.call_args(r)
    if ar and r.random() < 0.7:
        # Mostly the number of arguments the callable takes, so calls get
        # past the count check into the code that reads them.
        n = r.randint(ar[0], max(ar[0], min(ar[1], 5)))
        args = [gen.value(r) for _ in range(n)]
    return {"target": target, "args": args, "kwargs": kwargs}


def run_call(c):
    """The exception class name the call raised, or None; a SystemError
    is returned as such (the caller records it as a failure). Building
    an argument may raise too: that is ember code as well."""
    try:
        f = eval(c["target"], NS)
        args = [eval(a, NS) for a in c["args"]]
        kwargs = {k: eval(v, NS) for k, v in c["kwargs"].items()}
        r = f(*args, **kwargs)
        # Touch the result as a user would: its repr and, for an array,
        # its values (lazy errors surface here).
        if isinstance(r, ember.ndarray):
            ember.asnumpy(r)
        repr(r)
        return None
    except SystemError:
        return "SystemError"
    except RecursionError:
        return "RecursionError"
    except Exception as e:
        t = type(e)
        return f"{t.__module__}.{t.__qualname__}" if t.__module__ != "builtins" else t.__qualname__


def main():
    warnings.simplefilter("ignore")
    mode = sys.argv[1]
    # Nothing a call prints is of interest; the protocol is files.
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    if mode == "one":
        c = json.loads(sys.argv[2])
        res = run_call(c)
        with open(sys.argv[3], "w") as f:
            json.dump({"exc": res}, f)
        return
    seed, batch, ncalls = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    log_path, result_path = sys.argv[5], sys.argv[6]
    tlist, methods = targets.collect(ember, P)
    r = gen.rng(seed, batch)
    seen, syserr = {}, []
    with open(log_path, "w") as log:
        for i in range(ncalls):
            c = make_call(r, tlist, methods)
            log.write(json.dumps(c) + "\n")
            log.flush()
            res = run_call(c)
            if res is not None:
                seen[res] = seen.get(res, 0) + 1
            if res == "SystemError":
                syserr.append(c)
            if i % 50 == 49:
                gc.collect()
    with open(result_path, "w") as f:
        json.dump({"calls": ncalls, "seen": seen, "systemerror": syserr,
                   "ntargets": len(tlist) + len(methods)}, f)


if __name__ == "__main__":
    main()
