"""What a progress bar costs: KMeans.fit and a chunked read_csv with the bar
off (EMBER_PROGRESS=0: the do-nothing object), and drawn on every update
(EMBER_PROGRESS=1, stderr sent to /dev/null), median of 5 each, warm caches.
Issue 24: zero cost when off; the drawn bar is one clock read a chunk or
iteration and a redraw at most every 0.1 s.

usage: python bench/progress.py [cpu|cuda:0]"""
import contextlib
import os
import sys
import tempfile

import numpy as np

import ember
import ember.frame as ef
from ember.ml.cluster import KMeans

import arrays as A


def main():
    dev = sys.argv[1] if len(sys.argv) > 1 else "cpu"
    sync = ember.Device(dev).synchronize
    X = ember.asarray(np.random.default_rng(0).random((100_000, 16), np.float32),
                      device=dev)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "t.csv")
        rng = np.random.default_rng(1)
        with open(path, "w") as f:
            f.write("a,b\n")
            np.savetxt(f, np.c_[rng.integers(0, 10**6, 1_000_000), rng.random(1_000_000)],
                       fmt=["%d", "%.6f"], delimiter=",")
        work = {
            "KMeans.fit (10^5 x 16, 8 clusters, 3 x 50 iter)":
                lambda: KMeans(8, n_init=3, max_iter=50, tol=0, random_state=0).fit(X),
            "read_csv, %.0f MiB in 4 MiB blocks" % (os.path.getsize(path) / 2**20):
                lambda: ef.read_csv(path, device=dev, chunk_bytes=4 << 20),
        }
        for name, f in work.items():
            times = {}
            for mode in ("0", "1"):
                os.environ["EMBER_PROGRESS"] = mode
                with open(os.devnull, "w") as null, contextlib.redirect_stderr(null):
                    times[mode] = A.wall_ms(f, sync)
            print("%-50s off %8.2f ms  drawn %8.2f ms  (%+.1f%%)  on %s" % (
                name, times["0"], times["1"],
                100 * (times["1"] / times["0"] - 1), dev))


if __name__ == "__main__":
    main()
