"""Where the host time of the fusion `chain` case goes (issue 25: ten
elementwise ops and a sum on 1,000 float32, target <= 10 us on the H200
host): the chain, its ten records alone (the group is dropped unrun), one
record, a fused sum of a pending result (one record included) and an eager
sum of a stored array. Best of 5 rounds, us per call, no synchronize (the
GPU keeps up at this size).

usage: python bench/fusion_record.py                 (cuda:0)
       EMBER_TEST_FUSION_HOST_MIN=1 python bench/fusion_record.py --device cpu
       (on the cpu device groups of fewer than 65536 elements run op by op
       unless that knob lowers the threshold; the cpu has no fused sum, so
       its "sum on pending" runs the group and then sums)"""
import argparse
import time

import numpy as np

import ember


def best(f, n):
    for _ in range(300):
        f()
    t = 1e9
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(n):
            f()
        t = min(t, (time.perf_counter() - t0) / n * 1e6)
    return t


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--device", default="cuda:0")
    p.add_argument("-n", type=int, default=5000)
    a = p.parse_args()
    x = ember.ones(1000, dtype=np.float32, device=a.device) * 1.0
    _ = x.sum()

    def ten():
        y = x * 1.5; y = y + 2.0; y = y - x; y = y * y; y = y / 3.0
        y = y + 1.0; y = ember.sqrt(y); y = y * x; y = ember.abs(y); y = y - 0.5
        return y

    rows = []
    with ember.fusion(True):
        rows.append(("fused chain", best(lambda: ten().sum(), a.n)))
        rows.append(("ten records, no run", best(ten, a.n)))
        rows.append(("x * 1.5 alone", best(lambda: x * 1.5, 4 * a.n)))
        rows.append(("(x * 1.0).sum(), pending", best(lambda: (x * 1.0).sum(), 4 * a.n)))
    with ember.fusion(False):
        rows.append(("x.sum(), eager", best(lambda: x.sum(), 4 * a.n)))
        rows.append(("eager chain", best(lambda: ten().sum(), a.n)))
    for name, t in rows:
        print(f"{name:28s} {t:7.2f} us")


if __name__ == "__main__":
    main()
