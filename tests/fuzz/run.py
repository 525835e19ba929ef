"""ember's fuzzer: every public callable called with generated arguments,
each batch in a child process so that a crash (a signal) is caught.

    python tests/fuzz/run.py --calls 200000          # a long run
    python tests/fuzz/run.py --seconds 120           # CI's short pass
    EMBER_FUZZ_SEED=1234 python tests/fuzz/run.py    # replay a seed

A crash, a hang (the batch's timeout) or a SystemError is a failure: the
call is replayed alone, shrunk (keyword and positional arguments dropped
or simplified while it still fails the same way) and printed as a
reproducer. The exit status is 1 if anything failed."""
import argparse
import concurrent.futures
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
CHILD = os.path.join(HERE, "child.py")
# Enough for any array the recipes build; a call asking for more must get
# MemoryError at once rather than swap or a kill by the OOM killer.
MEM_LIMIT = 6 << 30
SIMPLER = ["0", "1", "None", "ember.zeros(3)", "np.zeros(3)", "()"]


def limit_memory():
    # AddressSanitizer reserves terabytes of address space for its shadow
    # memory, so under it (make asan's LD_PRELOAD) the cap cannot apply.
    if "asan" not in os.environ.get("LD_PRELOAD", ""):
        resource.setrlimit(resource.RLIMIT_AS, (MEM_LIMIT, MEM_LIMIT))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def child_env():
    env = dict(os.environ)
    env.setdefault("EMBER_DEVICE", "cpu")
    env["PYTHONFAULTHANDLER"] = "1"
    return env


def run_one(call, timeout, workdir):
    """How one call alone fails: 'signal N', 'timeout', 'SystemError', or
    None (it did not fail)."""
    res = os.path.join(workdir, "one.json")
    if os.path.exists(res):
        os.unlink(res)
    workdir = os.path.join(workdir, "one")
    os.makedirs(workdir, exist_ok=True)
    try:
        p = subprocess.run([sys.executable, CHILD, "one", json.dumps(call), res],
                           cwd=workdir, env=child_env(), preexec_fn=limit_memory,
                           capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout"
    if p.returncode < 0:
        return f"signal {-p.returncode}"
    if p.returncode != 0 or not os.path.exists(res):
        return f"exit {p.returncode}"
    with open(res) as f:
        exc = json.load(f)["exc"]
    return "SystemError" if exc == "SystemError" else None


def shrink(call, how, timeout, workdir):
    """Drop or simplify arguments while the call still fails as `how`."""
    cur = json.loads(json.dumps(call))
    changed = True
    while changed:
        changed = False
        for k in list(cur["kwargs"]):
            trial = json.loads(json.dumps(cur))
            del trial["kwargs"][k]
            if run_one(trial, timeout, workdir) == how:
                cur, changed = trial, True
        for i in reversed(range(len(cur["args"]))):
            trial = json.loads(json.dumps(cur))
            del trial["args"][i]
            if run_one(trial, timeout, workdir) == how:
                cur, changed = trial, True
                break
        for i, a in enumerate(cur["args"]):
            for s in SIMPLER:
                if len(s) >= len(a):
                    continue
                trial = json.loads(json.dumps(cur))
                trial["args"][i] = s
                if run_one(trial, timeout, workdir) == how:
                    cur, changed = trial, True
                    break
    return cur


def reproducer(call):
    args = [*call["args"], *(f"{k}={v}" for k, v in call["kwargs"].items())]
    return ("import sys; sys.path.insert(0, %r)\n"
            "import numpy as np, ember, operator, copy, pickle\n"
            "import prelude as P\n"
            "%s(%s)" % (HERE, call["target"], ", ".join(args)))


def failure_key(call, how):
    """One report per callable and kind of failure: the 100th SystemError
    from the same method is the same bug."""
    t = call["target"]
    if t.startswith("("):
        t = "ndarray." + t.rsplit(".", 1)[1]
    return f"{how}: {t}"


def report_failure(call, how, timeout, workdir, out, seen_keys):
    key = failure_key(call, how)
    if key in seen_keys:
        seen_keys[key] += 1
        return None
    seen_keys[key] = 1
    alone = run_one(call, timeout, workdir)
    if alone == how:
        small = shrink(call, how, timeout, workdir)
        out.write(f"FAILURE ({how}), shrunk reproducer:\n{reproducer(small)}\n")
    else:
        out.write(f"FAILURE ({how}) that the call alone does not repeat "
                  f"(alone: {alone}); the call:\n{reproducer(call)}\n")
    out.flush()
    return {"how": how, "call": call}


def run_batch(seed, batch, ncalls, timeout, workdir):
    log = os.path.join(workdir, f"batch{batch}.log")
    res = os.path.join(workdir, f"batch{batch}.json")
    bdir = os.path.join(workdir, f"b{batch}")     # files calls may write
    os.makedirs(bdir, exist_ok=True)
    how = None
    try:
        p = subprocess.run([sys.executable, CHILD, "batch", str(seed), str(batch),
                            str(ncalls), log, res], cwd=bdir, env=child_env(),
                           preexec_fn=limit_memory, capture_output=True, text=True,
                           timeout=timeout)
        if p.returncode < 0:
            how = f"signal {-p.returncode}"
        elif p.returncode != 0:
            how = f"exit {p.returncode}"
            sys.stderr.write(p.stderr[-3000:])
    except subprocess.TimeoutExpired:
        how = "timeout"
    done = []
    if os.path.exists(log):
        with open(log) as f:
            done = [json.loads(line) for line in f if line.strip()]
    result = {"calls": len(done), "seen": {}, "systemerror": [], "crash": None}
    if how is None and os.path.exists(res):
        with open(res) as f:
            r = json.load(f)
        result.update(calls=r["calls"], seen=r["seen"], systemerror=r["systemerror"],
                      ntargets=r["ntargets"])
    elif done:
        result["crash"] = (how, done[-1])
    for path in (log, res):
        if os.path.exists(path):
            os.unlink(path)
    shutil.rmtree(bdir, ignore_errors=True)
    return result


def main(argv=None, out=sys.stdout):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--calls", type=int, default=200000)
    ap.add_argument("--seconds", type=float, default=None,
                    help="stop starting batches after this long")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--batch", type=int, default=250, help="calls per child")
    ap.add_argument("--timeout", type=float, default=300,
                    help="seconds a batch may take before it counts as a hang")
    ap.add_argument("--call-timeout", type=float, default=120)
    ap.add_argument("--jobs", type=int, default=1)
    a = ap.parse_args(argv)
    seed = a.seed
    if seed is None:
        env = os.environ.get("EMBER_FUZZ_SEED")
        seed = int(env) if env else random.SystemRandom().randrange(2**31)
    out.write(f"ember fuzz: seed {seed} (replay: EMBER_FUZZ_SEED={seed})\n")
    out.flush()
    t0 = time.time()
    total, seen, failures, batch, last_report = 0, {}, [], 0, 0
    keys = {}      # failure key -> how many times seen
    with tempfile.TemporaryDirectory(prefix="ember-fuzz-") as workdir, \
            concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        pending = set()
        planned = 0
        while True:
            # Keep `jobs` children busy while calls and time remain.
            while (len(pending) < a.jobs and planned < a.calls and
                   (a.seconds is None or time.time() - t0 < a.seconds)):
                n = min(a.batch, a.calls - planned)
                pending.add(pool.submit(run_batch, seed, batch, n, a.timeout, workdir))
                planned += n
                batch += 1
            if not pending:
                break
            done, pending = concurrent.futures.wait(
                pending, return_when=concurrent.futures.FIRST_COMPLETED)
            for fut in done:
                r = fut.result()
                total += r["calls"]
                for k, v in r["seen"].items():
                    seen[k] = seen.get(k, 0) + v
                for c in r["systemerror"]:
                    failures.append(report_failure(c, "SystemError", a.call_timeout,
                                                   workdir, out, keys))
                if r["crash"]:
                    how, c = r["crash"]
                    failures.append(report_failure(c, how, a.call_timeout, workdir,
                                                   out, keys))
                failures = [f for f in failures if f]
                reported = total // 5000
                if reported > last_report:
                    last_report = reported
                    out.write(f"  {total} calls, {len(failures)} failures, "
                              f"{time.time() - t0:.0f} s\n")
                    out.flush()
    out.write(f"ember fuzz: seed {seed}: {total} calls in {batch} batches, "
              f"{time.time() - t0:.0f} s, {len(failures)} failures\n")
    for k, v in keys.items():
        out.write(f"failure {k}: {v} times\n")
    out.write("exception classes seen: " + ", ".join(
        f"{k} {v}" for k, v in sorted(seen.items(), key=lambda kv: -kv[1])) + "\n")
    out.flush()
    return {"seed": seed, "calls": total, "seen": seen, "failures": failures,
            "failure_keys": keys}


if __name__ == "__main__":
    sys.exit(1 if main()["failures"] else 0)
