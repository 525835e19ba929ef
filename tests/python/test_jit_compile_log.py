"""Per-kernel compile times: ember.jit.compile_times() and EMBER_COMPILE_LOG
(docs/jit-design.md, "first-compile time")."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import ember
from ember import cuda


def _kernel():
    # a new function object per test: its specialisations start empty
    @cuda.jit(cache=False)
    def scale_add(x, out, k):
        i = cuda.grid(1)
        if i < x.size:
            out[i] = x[i] * k + 1.0
    return scale_add


def test_compile_times_records_each_specialisation(device):
    k = _kernel()
    before = len(ember.jit.compile_times())
    a = np.arange(100, dtype=np.float32)
    x = ember.asarray(a, device=device)
    out = ember.empty(100, dtype="float32", device=device)
    k[1, 128](x, out, 2.0)
    np.testing.assert_array_equal(ember.asnumpy(out), a * 2.0 + 1.0)
    k[1, 128](x, out, 3.0)            # same types: no new compile
    recs = ember.jit.compile_times()[before:]
    assert len(recs) == 1
    r = recs[0]
    assert r["kernel"] == "scale_add"
    assert r["target"] == ("cpu" if device == "cpu" else "cuda")
    assert r["argcodes"] == ("Af4_1C", "Af4_1C", "f8")
    # cache=False: the translator ran, so every phase is there
    for p in ("import", "parse", "translate", "emit", "compile"):
        assert r["phases"][p] >= 0.0
    assert r["phases"]["compile"] > 0.0
    assert r["total"] == pytest.approx(sum(r["phases"].values()))
    assert r["source_bytes"] == len(k.inspect_source(r["argcodes"]).encode())
    # another dtype is another specialisation, another record
    xi = ember.asarray(np.arange(100, dtype=np.float64), device=device)
    outi = ember.empty(100, dtype="float64", device=device)
    k[1, 128](xi, outi, 2.0)
    recs = ember.jit.compile_times()[before:]
    assert [r["argcodes"][0] for r in recs] == ["Af4_1C", "Af8_1C"]


def test_compile_times_are_copies():
    recs = ember.jit.compile_times()
    if recs:
        recs[0]["phases"].clear()
        assert ember.jit.compile_times()[0]["phases"]


_SCRIPT = textwrap.dedent("""
    import ember
    from ember import cuda

    @cuda.jit
    def bump(x):
        i = cuda.grid(1)
        if i < x.size:
            x[i] += 1
    x = ember.zeros(10, dtype="int32", device=DEV)
    bump[1, 32](x)
    bump[1, 32](x)
    assert ember.asnumpy(x).tolist() == [2] * 10
    print(len(ember.jit.compile_times()))
    """)


@pytest.mark.parametrize("on", ["1", "0"])
def test_compile_log_env(device, tmp_path, on):
    env = dict(os.environ, EMBER_COMPILE_LOG=on, EMBER_CACHE_DIR=str(tmp_path / "cache"))
    script = tmp_path / "kernel.py"      # in a file: the translator reads its source
    script.write_text(_SCRIPT.replace("DEV", repr(device)))
    p = subprocess.run([sys.executable, str(script)],
                       env=env, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == ["1"]
    lines = [ln for ln in p.stderr.splitlines() if ln.startswith("ember: compiled")]
    if on == "0":
        assert lines == []
        return
    assert len(lines) == 1
    assert lines[0].startswith("ember: compiled bump(Ai4_1C) for %s in "
                               % ("cpu" if device == "cpu" else "cuda"))
    assert "compile " in lines[0] and "bytes of C" in lines[0]
    # the second process finds the translation in the disk index: no parse
    p2 = subprocess.run([sys.executable, str(script)],
                        env=env, capture_output=True, text=True, timeout=120)
    assert p2.returncode == 0, p2.stderr
    line2 = [ln for ln in p2.stderr.splitlines() if ln.startswith("ember: compiled")]
    assert len(line2) == 1 and "index " in line2[0] and "parse" not in line2[0]


# ---- the source reader that replaced inspect on the first compile ----------

def _deco(*a, **k):
    return lambda f: f


@_deco(
    "multi-line decorator",
)
def _decorated(x):
    return x + 1


def _outer():
    def inner(x, out):
# a comment at column 0 inside a nested def
        out[0] = x[0]

        out[1] = 2
    return inner


def _nested_plain():
    def inner2(x):
        y = (x +
             1)
        return y
    return inner2


def _slow_read(f):
    import inspect
    import textwrap
    import ast as _ast
    lines, first = inspect.getsourcelines(f)
    tree = _ast.parse(textwrap.dedent("".join(lines)))
    fdef = next(n for n in _ast.walk(tree) if isinstance(n, _ast.FunctionDef)
                and n.name == f.__name__)
    return fdef, first


@pytest.mark.parametrize("f", [_decorated, _outer(), _nested_plain(), _deco],
                         ids=["decorated", "column0", "nested", "plain"])
def test_read_function_matches_inspect(f):
    import ast as _ast
    from ember.jit.source import read_function
    fdef, where = read_function(f)
    if f.__name__ != "inner":      # inspect + dedent cannot read that one at all
        want, first = _slow_read(f)
        assert _ast.dump(fdef) == _ast.dump(want)
        assert where.first_line == first
    else:
        assert [type(n).__name__ for n in fdef.body] == ["Assign", "Assign"]
    # every statement maps back to its own file line
    src = open(__file__).read().splitlines()
    for node in _ast.walk(fdef):
        if isinstance(node, _ast.stmt):
            assert src[where.line(node) - 1].strip() == where.source_line(node).strip()


def test_read_function_errors():
    from ember.jit.source import read_function
    with pytest.raises(ember.CompileError, match="a lambda cannot be a kernel"):
        read_function(lambda x: x)
    ns = {}
    exec("def made(x):\n    return x\n", ns)
    with pytest.raises(ember.CompileError, match="cannot read the source of kernel 'made'"):
        read_function(ns["made"])
    with pytest.raises(TypeError, match="kernel must be a Python function, not int"):
        read_function(3)


def test_astlite_matches_ast():
    import ast as real
    from ember.jit import astlite
    src = "def f(a, b):\n    x = [a[i] + b for i in range(3)]\n    return (x, {1: a})\n"
    t1, t2 = real.parse(src), astlite.parse(src)
    assert real.dump(t1, include_attributes=True) == astlite.dump(t2, include_attributes=True)
    assert [type(n).__name__ for n in real.walk(t1)] == \
        [type(n).__name__ for n in astlite.walk(t2)]
    assert astlite.Name is real.Name and astlite.AST is real.AST
    node = t2.body[0].body[1]
    new = astlite.copy_location(astlite.Constant(value=1), node)
    assert (new.lineno, new.col_offset, new.end_lineno, new.end_col_offset) == \
        (3, 4, 3, 22)
    assert not any(isinstance(n, astlite.Index) for n in astlite.walk(t2))
    assert astlite.unparse(t2.body[0].body[1]) == "return (x, {1: a})"
    with pytest.raises(SyntaxError):
        astlite.parse("def f(:\n")


def test_compile_times_of_threads_stay_apart():
    import threading
    kernels = [_kernel() for _ in range(3)]
    before = len(ember.jit.compile_times())
    errors = []

    def run(k, dt):
        try:
            x = ember.asarray(np.arange(8, dtype=dt), device="cpu")
            out = ember.empty(8, dtype=dt, device="cpu")
            k[1, 8](x, out, 2.0)
            np.testing.assert_array_equal(ember.asnumpy(out), np.arange(8, dtype=dt) * 2 + 1)
        except Exception as e:       # surfaced below, in the test's thread
            errors.append(e)
    ts = [threading.Thread(target=run, args=(k, dt))
          for k, dt in zip(kernels, ("float32", "float64", "int64"))]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert errors == []
    recs = ember.jit.compile_times()[before:]
    assert sorted(r["argcodes"][0] for r in recs) == ["Af4_1C", "Af8_1C", "Ai8_1C"]
    for r in recs:     # each has its own translation's phases, once
        assert set(r["phases"]) == {"import", "parse", "translate", "emit", "index",
                                    "compile"}
