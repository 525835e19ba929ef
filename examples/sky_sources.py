"""Radio-astronomy style image processing on a synthetic sky.

A sky image is noise around a background level plus a few point sources.
Step 1 estimates the background (mean and standard deviation) with a block
reduction in shared memory and one atomic add per block. Step 2 detects
sources: pixels brighter than mean + 5 sigma are compacted into a list of
(flat index, value) through an atomic counter."""
import math

import numpy as np

import ember
from ember import cuda
from _common import SMALL, devices, report, timed

TPB = 256


@cuda.jit
def background(img, acc):
    # acc[0] += sum(x), acc[1] += sum(x*x), in float64
    s = cuda.shared.array(TPB, dtype=np.float64)
    s2 = cuda.shared.array(TPB, dtype=np.float64)
    tid = cuda.threadIdx.x
    i = cuda.grid(1)
    stride = cuda.gridsize(1)
    a = 0.0
    b = 0.0
    while i < img.size:
        v = img[i]
        a += v
        b += v * v
        i += stride
    s[tid] = a
    s2[tid] = b
    cuda.syncthreads()
    half = TPB // 2
    while half > 0:
        if tid < half:
            s[tid] += s[tid + half]
            s2[tid] += s2[tid + half]
        cuda.syncthreads()
        half //= 2
    if tid == 0:
        cuda.atomic.add(acc, 0, s[0])
        cuda.atomic.add(acc, 1, s2[0])


@cuda.jit
def detect(img, threshold, idx, val, count):
    i = cuda.grid(1)
    if i < img.size and img[i] > threshold:
        k = cuda.atomic.add(count, 0, 1)
        if k < idx.size:
            idx[k] = i
            val[k] = img[i]


def synthetic_sky(h, w, nsrc, rng):
    sky = rng.normal(10.0, 1.0, (h, w)).astype(np.float32)
    ys = rng.integers(3, h - 3, nsrc)
    xs = rng.integers(3, w - 3, nsrc)
    for y, x in zip(ys, xs):
        sky[y - 1:y + 2, x - 1:x + 2] += np.float32(20.0)
        sky[y, x] += np.float32(30.0)
    return sky


def main():
    h, w = (256, 256) if SMALL else (2048, 2048)
    rng = np.random.default_rng(4)
    sky = synthetic_sky(h, w, 20 if SMALL else 200, rng).ravel()
    mean = sky.astype(np.float64).mean()
    sigma = sky.astype(np.float64).std()
    thr = mean + 5 * sigma
    want = np.flatnonzero(sky > np.float32(thr))
    print(f"sky image {h}x{w}: background {mean:.3f} +- {sigma:.3f}, "
          f"{want.size} pixels above 5 sigma")
    for dev in devices():
        with ember.Device(dev):
            d_sky = cuda.to_device(sky)
            d_acc = cuda.to_device(np.zeros(2))
            cap = 1 << 16
            d_idx = cuda.device_array(cap, dtype=np.int64)
            d_val = cuda.device_array(cap, dtype=np.float32)
            d_cnt = cuda.to_device(np.zeros(1, dtype=np.int32))
            blocks = 8 * 132 if dev != "cpu" else 16
            out = {}

            def run():
                d_acc.fill(0)
                background[blocks, TPB](d_sky, d_acc)
                s, s2 = d_acc.copy_to_host()
                m = s / sky.size
                sd = math.sqrt(s2 / sky.size - m * m)
                d_cnt.fill(0)
                detect[(sky.size + TPB - 1) // TPB, TPB](
                    d_sky, np.float32(m + 5 * sd), d_idx, d_val, d_cnt)
                n = int(d_cnt.copy_to_host()[0])
                out["m"], out["sd"], out["n"] = m, sd, n
                cuda.synchronize()

            ms = timed(run)
            n = out["n"]
            got = np.sort(d_idx.copy_to_host()[:n])
            ok = (abs(out["m"] - mean) < 1e-6 * mean and
                  abs(out["sd"] - sigma) < 1e-5 * sigma and
                  np.array_equal(got, want) and
                  np.array_equal(d_val.copy_to_host()[:n][np.argsort(d_idx.copy_to_host()[:n])],
                                 sky[want]))
            report("background + detection", dev, ms, ok, f"{n} source pixels")


if __name__ == "__main__":
    main()
