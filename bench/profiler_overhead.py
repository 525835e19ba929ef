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
       python bench/profiler_overhead.py --device cpu   (a check on the host)

Each figure is the median over 7 rounds of the wall time of LAUNCHES
launches and one synchronize, divided by LAUNCHES. Rounds alternate off
and on so drift of the clock or the GPU touches both alike. "off, before"
is timed before any profile has run in the process and "off, after" once
several have: the hot path's test of the flag is the only difference a
profile can leave behind, so the two agree within noise when it costs
nothing. "stop ms" is what leaving the with-block takes (waiting for the
device, reading 2 x LAUNCHES events or CUPTI's records, merging the
threads' records and writing their names, and building the Python
records); the records column checks that the profile saw every launch
and "timed" that each got a device time. "device us" is the profiled
round's device span (first start to last end of its launches) per launch:
where it is close to "profiling us" the GPU, not the host, set the pace
while profiling. "also per step" lists the other records a step made (an
allocation, a copy or a fill beside the launch), each of which costs the
profiler too."""
import argparse
import os
import statistics
import time

import numpy as np

LAUNCHES = 10_000
ROUNDS = 7

_ADD1 = r'''
extern "C" __global__ void bench_add1(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += 1.0f;
}
'''


def timed(step, sync):
    sync()
    t0 = time.perf_counter()
    for _ in range(LAUNCHES):
        step()
    sync()
    return (time.perf_counter() - t0) / LAUNCHES


_MATCH = "EMBER_PROFILE_CUPTI_MATCH"


def case(ember, step, sync, name_of_launch, how):
    """(off before, off after, on, stop seconds, records, timed records,
    device span per launch) for one step, profiling as `how` says: 'events',
    'cupti' or 'cupti, callback'."""
    device_times = how.split(",")[0]
    step()                                  # compiles outside the timing
    sync()
    before = statistics.median(timed(step, sync) for _ in range(3))
    off, on, stops, counts, timed_counts, spans = [], [], [], [], [], []
    others = {}
    for _ in range(ROUNDS):
        off.append(timed(step, sync))
        p = ember.profile(device_times=device_times)
        if how.endswith("callback"):
            os.environ[_MATCH] = "callback"
        try:
            p.start()
        finally:
            os.environ.pop(_MATCH, None)
        on.append(timed(step, sync))
        t0 = time.perf_counter()
        p.stop()
        stops.append(time.perf_counter() - t0)
        mine = [r for r in p.records if r.kind == "kernel" and r.name == name_of_launch]
        counts.append(len(mine))
        for r in p.records:
            if r.kind != "kernel" or r.name != name_of_launch:
                key = r.kind if r.kind != "kernel" else "kernel " + r.name
                others[key] = others.get(key, 0) + 1
        mine = [r for r in mine if r.device_start is not None]
        timed_counts.append(len(mine))
        if mine:
            spans.append((max(r.device_end for r in mine)
                          - min(r.device_start for r in mine)) * 1e-9 / LAUNCHES)
    also = ", ".join("%s %.2f" % (k, n / (ROUNDS * LAUNCHES))
                     for k, n in sorted(others.items())) or "-"
    return (before, statistics.median(off), statistics.median(on),
            statistics.median(stops), min(counts), min(timed_counts),
            statistics.median(spans) if spans else float("nan"), also)


def cupti_usable(ember):
    """'' when device_times='cupti' starts here, else why not."""
    try:
        with ember.profile(device_times="cupti"):
            pass
    except RuntimeError as e:
        return str(e)
    return ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default="cuda:0")
    ap.add_argument("--out")
    args = ap.parse_args()
    import ember
    dev = ember.Device(args.device)
    dev.use()
    fusion = getattr(ember, "fusion", None)
    if fusion is not None:              # one launch per operation, as named
        fusion(False).__enter__()
    x = ember.zeros(1000, dtype=np.float32)
    k = ember.RawKernel(_ADD1, "bench_add1")
    n = np.int32(1000)
    cases = [
        ("x += 1 (1,000 float32)", lambda: x.__iadd__(1), "add float32"),
        ("x.sum() (1,000 float32)", lambda: x.sum(), "sum float32"),
        ("RawKernel (1,000 float32)", lambda: k((4,), (256,), (x, n)), "bench_add1"),
    ]
    timings = ["events"]
    why_not = cupti_usable(ember) if dev.type == "cuda" else "cpu device"
    if not why_not:
        timings += ["cupti", "cupti, callback"]
    lines = []
    for how in timings:
        for label, step, name in cases:
            before, off, on, stop, count, n_timed, span, also = case(
                ember, step, dev.synchronize, name, how)
            # a reduction may launch a second (final) pass: launches per step
            per_step = count / LAUNCHES
            lines.append("| %s | %s | %s | %.3f | %.3f | %.3f | %+.1f%% | %.1f | %d (%.0f per step) | %d | %.3f | %s |" % (
                label, args.device, how, before * 1e6, off * 1e6, on * 1e6,
                100.0 * (on - off) / off, stop * 1e3, count, per_step, n_timed,
                span * 1e6, also))
    columns = ("launch", "device", "device times", "off, before us", "off, after us",
               "profiling us", "overhead", "stop ms", "records", "timed", "device us",
               "also per step")
    table = "\n".join(["| " + " | ".join(columns) + " |",
                       "|" + "---|" * len(columns)] + lines)
    print(table)
    if args.out:
        with open(args.out, "w") as fh:
            fh.write(table + "\n")
    total = LAUNCHES * ROUNDS
    print("(%d launches per round, %d rounds of each; %d profiled launches per case)"
          % (LAUNCHES, ROUNDS, total))
    if why_not:
        print("device_times='cupti' not timed: %s" % why_not)
    with ember.profile() as p:
        pass
    print("ember.profile()'s default (device_times='auto') takes device times "
          "from: %s" % p.device_times)


if __name__ == "__main__":
    main()
