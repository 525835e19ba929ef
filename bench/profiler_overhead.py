"""ember.profile()'s cost (issue 24 part 4): a loop of 10,000 small launches
timed with no profile recording and inside `with ember.profile():`, in the
same run, for three launch paths: an in-place ufunc (`x += 1` on 1,000
float32), a reduction (`x.sum()`) and a RawKernel; on a GPU with device
times from events and, where CUPTI can be used, from CUPTI (what the
default, device_times='auto', takes where it can; the last line printed
says which the default took). The target is at most 10% more per launch
while profiling, and nothing when not profiling. CUPTI's rows come twice:
as the profiler pairs CUPTI's records with its own (by each stream's order,
no CUPTI call per launch) and, for comparison, as it did before
(EMBER_PROFILE_CUPTI_MATCH=callback: a CUPTI callback on every launch
call, to learn its correlation id).

usage: python bench/profiler_overhead.py [--device cuda:0] [--out FILE]
            [--rounds N] [--launches N]
            [--variants default,callback,notimestamp,nocb+nots,kernel]
            [--variant-rounds N] [--variant-passes N] [--skip-base]
       python bench/profiler_overhead.py --device cpu   (a check on the host)

--variants measures ways of running CUPTI side by side
(EMBER_PROFILE_CUPTI_VARIANT, docs/knobs.md: nocallback, notimestamp,
kernel, nocopy, '+' between parts). The knob is read once per process, so
each variant runs in a process of its own: the three launches, each in
rounds of an unprofiled and a CUPTI-profiled loop (ABBA) as in the main
table, VARIANT_ROUNDS rounds in all, split over PASSES processes per
variant, the passes walking the list forwards then backwards so a drift
over the minutes of the run falls on the variants alike. After the main
table (left out with --skip-base) a compact table gives each variant's
overhead per launch path (median, IQR) and extra time per step, what
CUPTI said it took (its log line at the first start), whether every
launch got a device time, and "lag us", the median of device start less
host start of the launches: a variant whose clock conversion were wrong
would show there (and "early" counts launches whose device start came
before their call began, which cannot be). On the cpu device there is no
CUPTI: the variants' processes time events (the host clock), which checks
the plumbing only.

A round times LAUNCHES launches and one synchronize twice, once without a
profile and once inside one, back to back, and takes the ratio of the
two: the unprofiled time of a step drifts by more than the effect measured
(on the H200 it moved by up to 1.5 us of 6 within one row, seconds apart),
and two loops a tenth of a second apart see the same drift. Rounds
alternate which of the two goes first (ABBA...), so a trend within a round
falls on both sides alike. "overhead" is the median over ROUNDS of the
per-round ratios less one, "IQR" their interquartile range, and "<= 10%"
decides from both: met when even the upper quartile is at most 10%, not
met when even the lower quartile is above, else the median's side with
"within noise". "off, after us" and "profiling us" are the medians of the
rounds' two loops, per launch. "off, before" is timed before any profile
has run in the process (for the first row; later rows after the earlier
rows' profiles): the hot path's test of the flag is the only difference a
profile can leave behind, so it agrees with "off, after" within noise
when that costs nothing. "stop ms" is what leaving the with-block takes
(waiting for the device, reading 2 x LAUNCHES events or CUPTI's records,
merging the threads' records and writing their names, and building the
Python records); the records column checks that the profile saw every
launch and "timed" that each got a device time. "device us" is the
profiled loop's device span (first start to last end of its launches) per
launch: where it is close to "profiling us" the GPU, not the host, set the
pace while profiling. "also per step" lists the other records a step made
(an allocation, a copy or a fill beside the launch), each of which costs
the profiler too. The collector is off while loops are timed. After the
table, from the profiled loops' own records, each row's launch calls'
host time: the first call of a round, the median and the mean call, and
(mean - median) as a share of the step. A cost paid once per profile
inside the loop (CUPTI readying itself at the first launch after its
enable) shows there as a first call far above the median, and would
shrink with longer loops (--launches), where a cost per launch would
not. On a GPU a
line after the table gives ember's own recording per launch on the same
host (the `x += 1` loop on the cpu device, whose default stream runs the
operation inside the call: the CUPTI path's recording but for two cached
comparisons), and each CUPTI row's extra time per step beside it: the
difference is CUPTI's work in the driver. The last lines give the host's
clock source and what one read of CLOCK_MONOTONIC costs from Python: the
profiler reads that clock twice per operation, which is cheap through the
vDSO (tsc) and a system call otherwise."""
import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np

LAUNCHES = 10_000
ROUNDS = 21
TARGET = 0.10

_ADD1 = r'''
extern "C" __global__ void bench_add1(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += 1.0f;
}
'''


def timed(step, sync, launches):
    """Seconds per step of `launches` steps and one synchronize."""
    sync()
    t0 = time.perf_counter()
    for _ in range(launches):
        step()
    sync()
    return (time.perf_counter() - t0) / launches


_MATCH = "EMBER_PROFILE_CUPTI_MATCH"


def quartiles(xs):
    """(lower quartile, median, upper quartile) of xs."""
    if len(xs) < 2:
        return xs[0], xs[0], xs[0]
    q1, q2, q3 = statistics.quantiles(xs, n=4, method="inclusive")
    return q1, q2, q3


def verdict(q1, med, q3):
    """The target decided from a row's per-round overheads."""
    if q3 <= TARGET:
        return "met"
    if q1 > TARGET:
        return "not met"
    return ("met" if med <= TARGET else "not met") + ", within noise"


class Round:
    """One profiled loop's figures."""

    def __init__(self, ember, how, step, sync, name_of_launch, launches):
        self.profile = ember.profile(device_times=how.split(",")[0])
        if how.endswith("callback"):
            os.environ[_MATCH] = "callback"
        try:
            self.profile.start()
        finally:
            os.environ.pop(_MATCH, None)
        self.time = timed(step, sync, launches)
        t0 = time.perf_counter()
        self.profile.stop()
        self.stop = time.perf_counter() - t0
        recs = self.profile.records
        mine = [r for r in recs if r.kind == "kernel" and r.name == name_of_launch]
        self.count = len(mine)
        self.others = {}
        for r in recs:
            if r.kind != "kernel" or r.name != name_of_launch:
                key = r.kind if r.kind != "kernel" else "kernel " + r.name
                self.others[key] = self.others.get(key, 0) + 1
        # the launch calls' own host time: a cost paid once per profile
        # (the first launch after CUPTI's enable) shows as a first call far
        # above the median and a mean above it
        host = [r.host_end - r.host_start for r in mine]
        self.host = ((host[0], statistics.median(host), statistics.fmean(host))
                     if host else None)
        mine = [r for r in mine if r.device_start is not None]
        self.timed = len(mine)
        # device start less host start: where CUPTI's times are put on the
        # host clock wrongly this moves (a launch cannot start on the device
        # before its call began: "early")
        lags = [r.device_start - r.host_start for r in mine]
        self.lag = statistics.median(lags) if lags else None
        self.early = sum(1 for x in lags if x < 0)
        self.span = ((max(r.device_end for r in mine) - min(r.device_start for r in mine))
                     * 1e-9 / launches if mine else None)


def case(ember, step, sync, name_of_launch, how, rounds, launches):
    """A row's figures for one step, profiling as `how` says: 'events',
    'cupti' or 'cupti, callback'."""
    return summarize(case_raw(ember, step, sync, name_of_launch, how, rounds,
                              launches), launches)


def case_raw(ember, step, sync, name_of_launch, how, rounds, launches):
    """The rounds' own figures for one step (lists, one entry a round; JSON
    as it is, so rounds from several processes can be pooled)."""
    step()                                  # compiles outside the timing
    sync()
    gc.collect()
    gc.disable()
    try:
        before = statistics.median(timed(step, sync, launches) for _ in range(3))
        off, on, ratios, diffs, profiled = [], [], [], [], []
        for i in range(rounds):
            if i % 2 == 0:
                t_off = timed(step, sync, launches)
                p = Round(ember, how, step, sync, name_of_launch, launches)
            else:
                p = Round(ember, how, step, sync, name_of_launch, launches)
                t_off = timed(step, sync, launches)
            off.append(t_off)
            on.append(p.time)
            ratios.append(p.time / t_off - 1.0)
            diffs.append(p.time - t_off)
            p.profile = None                # its records are summed already
            profiled.append(p)
            gc.collect()
    finally:
        gc.enable()
    others = {}
    for p in profiled:
        for k, n in p.others.items():
            others[k] = others.get(k, 0) + n
    return {
        "before": [before], "off": off, "on": on, "ratios": ratios, "diffs": diffs,
        "stop": [p.stop for p in profiled], "count": [p.count for p in profiled],
        "timed": [p.timed for p in profiled], "others": others,
        "span": [p.span for p in profiled if p.span is not None],
        "host": [list(p.host) for p in profiled if p.host is not None],
        "lag": [p.lag for p in profiled if p.lag is not None],
        "early": [p.early for p in profiled],
    }


def pool(raws):
    """One case_raw of several (the same step, rounds from other processes)."""
    out = {}
    for raw in raws:
        for k, v in raw.items():
            if k == "others":
                o = out.setdefault(k, {})
                for name, n in v.items():
                    o[name] = o.get(name, 0) + n
            else:
                out.setdefault(k, []).extend(v)
    return out


def summarize(raw, launches):
    """A row's figures from its rounds (case_raw, or several pooled)."""
    rounds = len(raw["ratios"])
    also = ", ".join("%s %.2f" % (k, n / (rounds * launches))
                     for k, n in sorted(raw["others"].items())) or "-"
    spans, hosts = raw["span"], raw["host"]
    return {
        "before": statistics.median(raw["before"]),
        "off": statistics.median(raw["off"]), "on": statistics.median(raw["on"]),
        "overhead": quartiles(raw["ratios"]), "extra": quartiles(raw["diffs"]),
        "stop": statistics.median(raw["stop"]),
        "count": min(raw["count"]), "timed": min(raw["timed"]),
        "span": statistics.median(spans) if spans else float("nan"), "also": also,
        # medians over rounds of: first call, median call, mean call (ns)
        "host": tuple(statistics.median(h[k] for h in hosts) for k in range(3))
        if hosts else None,
        "lag": statistics.median(raw["lag"]) if raw["lag"] else float("nan"),
        "early": sum(raw["early"]),
        "rounds": rounds,
    }


def clock_cost():
    """(clock source, ns per CLOCK_MONOTONIC read from Python less the
    loop's own cost)."""
    try:
        with open("/sys/devices/system/clocksource/clocksource0/current_clocksource") as fh:
            source = fh.read().strip()
    except OSError:
        source = "unknown"
    n = 200_000
    read, mono = time.clock_gettime_ns, time.CLOCK_MONOTONIC
    best = float("inf")
    for _ in range(5):
        t0 = time.perf_counter_ns()
        for _ in range(n):
            read(mono)
        t1 = time.perf_counter_ns()
        for _ in range(n):
            abs(mono)
        t2 = time.perf_counter_ns()
        best = min(best, ((t1 - t0) - (t2 - t1)) / n)
    return source, best


def cupti_usable(ember):
    """'' when device_times='cupti' starts here, else why not."""
    try:
        with ember.profile(device_times="cupti"):
            pass
    except RuntimeError as e:
        return str(e)
    return ""


def own_recording(ember, dev, rows, args):
    """Print what ember's own recording costs a launch on this host: the
    same `x += 1` loop on the cpu device, whose default stream runs the
    operation inside the call and reads the host clock, is the CUPTI
    path's recording but for two cached comparisons. What a CUPTI row adds
    beyond it is CUPTI's work in the driver."""
    cpu = ember.Device("cpu")
    cpu.use()
    try:
        xc = ember.zeros(1000, dtype=np.float32)
        r = case(ember, lambda: xc.__iadd__(1), cpu.synchronize, "add float32",
                 "events", args.rounds, args.launches)
    finally:
        dev.use()
    q1, med, q3 = r["extra"]
    own = med
    print("ember's own recording per launch on this host (x += 1 on the cpu "
          "device, profiled less unprofiled, median of the rounds): %+.3f us "
          "(IQR %+.3f..%+.3f)" % (med * 1e6, q1 * 1e6, q3 * 1e6))
    for label, how, r in rows:
        if how.startswith("cupti"):
            q1, med, q3 = r["extra"]
            print("  %s, %s: %+.3f us per step profiled (IQR %+.3f..%+.3f), "
                  "CUPTI's share about %+.3f" % (label, how, med * 1e6, q1 * 1e6,
                                                  q3 * 1e6, (med - own) * 1e6))


def make_cases(ember):
    """The three launch paths on the current device: (row label, step,
    the name its launches are recorded under)."""
    fusion = getattr(ember, "fusion", None)
    if fusion is not None:              # one launch per operation, as named
        fusion(False).__enter__()
    x = ember.zeros(1000, dtype=np.float32)
    k = ember.RawKernel(_ADD1, "bench_add1")
    n = np.int32(1000)
    return [
        ("x += 1 (1,000 float32)", lambda: x.__iadd__(1), "add float32"),
        ("x.sum() (1,000 float32)", lambda: x.sum(), "sum float32"),
        ("RawKernel (1,000 float32)", lambda: k((4,), (256,), (x, n)), "bench_add1"),
    ]


_VARIANT = "EMBER_PROFILE_CUPTI_VARIANT"
_MARK = "VARIANT-JSON "


def variant_child(args):
    """--child-variant: the three launch paths' rounds with CUPTI run as
    EMBER_PROFILE_CUPTI_VARIANT (set by the parent) says, printed as one
    JSON line (events on the cpu device: the plumbing's check)."""
    import ember
    dev = ember.Device(args.device)
    dev.use()
    cases = make_cases(ember)
    how, why = "events", ""
    if dev.type == "cuda":
        how, why = "cupti", cupti_usable(ember)
    out = {"variant": args.child_variant, "why_not": why, "how": how, "cases": {}}
    if not why:
        for label, step, name in cases:
            out["cases"][label] = case_raw(ember, step, dev.synchronize, name, how,
                                           args.rounds, args.launches)
    print(_MARK + json.dumps(out), flush=True)


def run_variants(args, names):
    """Each variant's rounds, from processes of its own: {name: [cases of a
    process]}, what CUPTI said each took, why any was not timed, and the
    warnings the processes printed."""
    passes = min(args.variant_passes, args.variant_rounds)
    raws = {n: [] for n in names}
    took, why, warns = {}, {}, []
    for k in range(passes):
        # VARIANT_ROUNDS in all, shared out over the passes
        per = args.variant_rounds // passes + (k < args.variant_rounds % passes)
        for name in names if k % 2 == 0 else names[::-1]:
            env = dict(os.environ, EMBER_LOG="info")
            env[_VARIANT] = name
            env.pop(_MATCH, None)
            cmd = [sys.executable, os.path.abspath(__file__), "--device", args.device,
                   "--rounds", str(per), "--launches", str(args.launches),
                   "--child-variant", name]
            try:
                r = subprocess.run(cmd, env=env, capture_output=True, text=True,
                                   timeout=600)
            except subprocess.TimeoutExpired:
                why[name] = "its process ran past 600 s"
                continue
            got = [ln for ln in r.stdout.splitlines() if ln.startswith(_MARK)]
            for ln in r.stderr.splitlines():
                if "CUPTI variant:" in ln:
                    took[name] = ln.split("CUPTI variant:", 1)[1].strip()
                elif "ember[warn]" in ln and ln not in warns:
                    warns.append("%s: %s" % (name, ln))
            if r.returncode != 0 or not got:
                tail = r.stderr.strip().splitlines()[-1:] or ["no output"]
                why[name] = "its process failed (rc %d): %s" % (r.returncode, tail[0])
                continue
            data = json.loads(got[-1][len(_MARK):])
            if data["why_not"]:
                why[name] = data["why_not"]
                continue
            if data["how"] != "cupti":
                took.setdefault(name, "no CUPTI on %s: events" % args.device)
            raws[name].append(data["cases"])
    return raws, took, why, warns


def print_variants(args, names, raws, took, why, warns, seconds):
    """The compact table of the variants, and each one's time per step
    against the default's."""
    def short(label):
        return label.split(" (")[0]

    mark = {"met": "y", "not met": "n", "met, within noise": "~y",
            "not met, within noise": "~n"}
    rows, labels = {}, []
    for name in names:
        if not raws[name]:
            continue
        rows[name] = {}
        for label in raws[name][0]:
            if label not in labels:
                labels.append(label)
            rows[name][label] = summarize(pool(c[label] for c in raws[name]),
                                          args.launches)
    columns = (["variant", "CUPTI took"] + [short(lb) for lb in labels] +
               ["<= 10%", "timed", "lag us", "early", "stop ms", "rounds"])
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    for name in names:
        if name not in rows:
            lines.append("| %s | not timed: %s |" % (name, why.get(name, "?")))
            continue
        cells, verdicts, timed, lags, stops = [], [], [], [], []
        for lb in labels:
            r = rows[name][lb]
            q1, med, q3 = r["overhead"]
            cells.append("%+.1f%% (%+.1f..%+.1f) %+.2f us" % (
                100 * med, 100 * q1, 100 * q3, r["extra"][1] * 1e6))
            verdicts.append(mark[verdict(q1, med, q3)])
            timed.append(r["timed"] == r["count"])
            lags.append("%.1f" % (r["lag"] * 1e-3))
            stops.append("%.1f" % (r["stop"] * 1e3))
        first = rows[name][labels[0]]
        lines.append("| %s | %s | %s | %s | %s | %s | %d | %s | %d |" % (
            name, took.get(name, "?"), " | ".join(cells), "/".join(verdicts),
            "all" if all(timed) else "NOT ALL",
            "/".join(lags), sum(rows[name][lb]["early"] for lb in labels),
            "/".join(stops), first["rounds"]))
    table = "\n".join(lines)
    print()
    print("CUPTI variants (EMBER_PROFILE_CUPTI_VARIANT), %d launches per loop, "
          "each variant's rounds from %d process(es), ABBA within each; a cell: "
          "overhead median (IQR) and the extra time per step; <= 10%%: y met, n "
          "not, ~ within noise; lag: device start less host start, median, per "
          "launch path; %.0f s in all:" % (
              args.launches, min(args.variant_passes, args.variant_rounds), seconds))
    print(table)
    if "default" in rows:
        base = rows["default"]
        print("extra time per step against default's (median of the rounds' "
              "differences, us; negative: cheaper):")
        for name in names:
            if name == "default" or name not in rows:
                continue
            print("  %s: %s" % (name, ", ".join(
                "%s %+.3f" % (short(lb), (rows[name][lb]["extra"][1] -
                                          base[lb]["extra"][1]) * 1e6)
                for lb in labels if lb in base)))
    for w in warns:
        print("  warning from " + w)
    if args.out:
        with open(args.out, "w" if args.skip_base else "a") as fh:
            fh.write("\n" + table + "\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default="cuda:0")
    ap.add_argument("--out")
    ap.add_argument("--rounds", type=int, default=ROUNDS,
                    help="rounds per row (pairs of loops), default %d" % ROUNDS)
    ap.add_argument("--launches", type=int, default=LAUNCHES,
                    help="launches per loop, default %d" % LAUNCHES)
    ap.add_argument("--variants",
                    help="EMBER_PROFILE_CUPTI_VARIANT values to compare, ',' "
                         "between (e.g. default,nocallback,notimestamp,"
                         "nocb+nots,kernel)")
    ap.add_argument("--variant-rounds", type=int,
                    help="rounds per variant and launch path (default --rounds)")
    ap.add_argument("--variant-passes", type=int, default=2,
                    help="processes per variant, the list walked forwards then "
                         "backwards (default 2)")
    ap.add_argument("--skip-base", action="store_true",
                    help="with --variants: only the variants' table")
    ap.add_argument("--child-variant", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.rounds < 1 or args.launches < 1:
        ap.error("--rounds and --launches must be at least 1")
    if args.variant_rounds is None:
        args.variant_rounds = args.rounds
    if args.variant_rounds < 1 or args.variant_passes < 1:
        ap.error("--variant-rounds and --variant-passes must be at least 1")
    if args.child_variant is not None:
        variant_child(args)
        return
    names = [v.strip() for v in (args.variants or "").split(",") if v.strip()]
    if args.skip_base and not names:
        ap.error("--skip-base needs --variants")
    if not args.skip_base:
        base(args)
    if names:
        t0 = time.perf_counter()
        raws, took, why, warns = run_variants(args, names)
        print_variants(args, names, raws, took, why, warns, time.perf_counter() - t0)


def base(args):
    """The main table and the lines after it."""
    import ember
    dev = ember.Device(args.device)
    dev.use()
    cases = make_cases(ember)
    lines, rows = [], []
    why_not = ""
    for how in ("events", "cupti", "cupti, callback"):
        # asked only now, so the first row's "off, before" precedes any profile
        if how == "cupti":
            why_not = cupti_usable(ember) if dev.type == "cuda" else "cpu device"
        if why_not:
            break
        for label, step, name in cases:
            r = case(ember, step, dev.synchronize, name, how, args.rounds, args.launches)
            q1, med, q3 = r["overhead"]
            rows.append((label, how, r))
            # a reduction may launch a second (final) pass: launches per step
            per_step = r["count"] / args.launches
            lines.append("| %s | %s | %s | %.3f | %.3f | %.3f | %+.1f%% | %+.1f..%+.1f%% "
                         "| %.1f | %d (%.0f per step) | %d | %.3f | %s | %s |" % (
                             label, args.device, how, r["before"] * 1e6, r["off"] * 1e6,
                             r["on"] * 1e6, 100.0 * med, 100.0 * q1, 100.0 * q3,
                             r["stop"] * 1e3, r["count"], per_step, r["timed"],
                             r["span"] * 1e6, r["also"], verdict(q1, med, q3)))
    columns = ("launch", "device", "device times", "off, before us", "off, after us",
               "profiling us", "overhead", "IQR", "stop ms", "records", "timed",
               "device us", "also per step", "<= 10%")
    table = "\n".join(["| " + " | ".join(columns) + " |",
                       "|" + "---|" * len(columns)] + lines)
    print(table)
    if args.out:
        with open(args.out, "w") as fh:
            fh.write(table + "\n")
    print("(%d launches per loop; %d rounds per row, each an unprofiled and a "
          "profiled loop, ABBA order; overhead: median of the rounds' ratios)"
          % (args.launches, args.rounds))
    if why_not:
        print("device_times='cupti' not timed: %s" % why_not)
    print("The launch calls' host time while profiling, from the records "
          "(medians over the rounds): first call of a round, median call, mean "
          "call, and the calls above the median as a share of the profiled loop:")
    for label, how, r in rows:
        if r["host"]:
            first, med, mean = r["host"]
            print("  %s, %s: %.1f / %.2f / %.2f us, %.1f%%" % (
                label, how, first * 1e-3, med * 1e-3, mean * 1e-3,
                100.0 * (mean - med) * 1e-9 / r["on"]))
    if dev.type == "cuda":
        own_recording(ember, dev, rows, args)
    source, ns = clock_cost()
    print("host clock source: %s; one CLOCK_MONOTONIC read from Python %.0f ns "
          "(the profiler reads it twice per operation)" % (source, ns))
    with ember.profile() as p:
        pass
    print("ember.profile()'s default (device_times='auto') takes device times "
          "from: %s" % p.device_times)


if __name__ == "__main__":
    main()
