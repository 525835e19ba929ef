"""2-D convolution with the filter in constant memory.

`cuda.const.array_like` bakes the host array's values into the kernel as
constant memory, read through the constant cache by every thread."""
import numpy as np

import ember
from ember import cuda
from _common import SMALL, devices, report, timed

R = 2                                   # filter radius: a 5x5 filter
_g = np.exp(-0.5 * (np.arange(-R, R + 1) / 1.2) ** 2)
FILTER = np.outer(_g, _g).astype(np.float32)
FILTER /= FILTER.sum()


@cuda.jit
def convolve(img, out):
    f = cuda.const.array_like(FILTER)
    y, x = cuda.grid(2)
    h, w = img.shape
    if y < h and x < w:
        acc = np.float32(0)
        for dy in range(-R, R + 1):
            for dx in range(-R, R + 1):
                # clamp to the border, as mode='nearest' does
                yy = min(max(y + dy, 0), h - 1)
                xx = min(max(x + dx, 0), w - 1)
                acc += f[dy + R, dx + R] * img[yy, xx]
        out[y, x] = acc


def reference(img):
    h, w = img.shape
    pad = np.pad(img.astype(np.float64), R, mode="edge")
    out = np.zeros((h, w))
    for dy in range(2 * R + 1):
        for dx in range(2 * R + 1):
            out += FILTER[dy, dx] * pad[dy:dy + h, dx:dx + w]
    return out


def main():
    h, w = (128, 160) if SMALL else (1024, 1536)
    img = np.random.default_rng(3).random((h, w), dtype=np.float32)
    want = reference(img)
    print(f"2-D convolution, {h}x{w}, {2 * R + 1}x{2 * R + 1} filter in constant memory")
    for dev in devices():
        with ember.Device(dev):
            d_img = cuda.to_device(img)
            d_out = cuda.device_array_like(d_img)
            grid = ((h + 15) // 16, (w + 15) // 16)

            def run():
                convolve[grid, (16, 16)](d_img, d_out)
                cuda.synchronize()

            ms = timed(run)
            ok = np.allclose(d_out.copy_to_host(), want, rtol=1e-5, atol=1e-6)
            report("convolve[grid, (16, 16)]", dev, ms, ok)


if __name__ == "__main__":
    main()
