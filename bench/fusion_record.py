"""Where the host time of the fusion `chain` case goes (issue 25: ten
elementwise ops and a sum on 1,000 float32, target <= 10 us on the H200
host): the chain, its ten records alone (the group is dropped unrun), one
record, a fused sum of a pending result (one record included) and an eager
sum of a stored array. Best and median of 7 rounds, us per call; by
default on the device's default stream with no synchronize (the GPU keeps
up at this size). --stream nonblocking and --sync take bench/fusion.py's
conditions one at a time (its chain runs on a non-blocking stream and
each round ends with a synchronize, timed), to find which one costs.

usage: python bench/fusion_record.py [--stream nonblocking] [--sync] (cuda:0)
       EMBER_TEST_FUSION_HOST_MIN=1 python bench/fusion_record.py --device cpu
       (on the cpu device groups of fewer than 65536 elements run op by op
       unless that knob lowers the threshold; the cpu has no fused sum, so
       its "sum on pending" runs the group and then sums)"""
import argparse
import contextlib
import statistics
import time

import numpy as np

import ember


def timed(f, n, sync):
    """(best, median) of 7 rounds of n calls, us per call; sync() ends
    each round inside its time."""
    for _ in range(300):
        f()
    sync()
    ts = []
    for _ in range(7):
        t0 = time.perf_counter()
        for _ in range(n):
            f()
        sync()
        ts.append((time.perf_counter() - t0) / n * 1e6)
    return min(ts), statistics.median(ts)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--device", default="cuda:0")
    p.add_argument("-n", type=int, default=5000)
    p.add_argument("--stream", choices=("default", "nonblocking"),
                   default="default")
    p.add_argument("--sync", action="store_true",
                   help="end each round with the stream's synchronize")
    a = p.parse_args()
    with ember.Device(a.device):
        s = (ember.Stream(non_blocking=True) if a.stream == "nonblocking"
             else None)
        with s if s is not None else contextlib.nullcontext():
            run(a, (s or ember._ember.get_current_stream()).synchronize
                if a.sync else (lambda: None))


def run(a, sync):
    x = ember.ones(1000, dtype=np.float32, device=a.device) * 1.0
    _ = x.sum()

    def ten():
        y = x * 1.5; y = y + 2.0; y = y - x; y = y * y; y = y / 3.0
        y = y + 1.0; y = ember.sqrt(y); y = y * x; y = ember.abs(y); y = y - 0.5
        return y

    rows = []
    with ember.fusion(True):
        rows.append(("fused chain", timed(lambda: ten().sum(), a.n, sync)))
        rows.append(("ten records, no run", timed(ten, a.n, sync)))
        rows.append(("x * 1.5 alone", timed(lambda: x * 1.5, 4 * a.n, sync)))
        rows.append(("(x * 1.0).sum(), pending",
                     timed(lambda: (x * 1.0).sum(), 4 * a.n, sync)))
    with ember.fusion(False):
        rows.append(("x.sum(), eager", timed(lambda: x.sum(), 4 * a.n, sync)))
        rows.append(("eager chain", timed(lambda: ten().sum(), a.n, sync)))
    print(f"stream {a.stream}, {'a synchronize ending each round' if a.sync else 'no synchronize'}")
    print(f"{'':28s} {'best':>7s} {'median':>7s} us")
    for name, (b, m) in rows:
        print(f"{name:28s} {b:7.2f} {m:7.2f}")


if __name__ == "__main__":
    main()
