"""RGB to grayscale: a 2-D grid over an image, one thread per pixel."""
import numpy as np

import ember
from ember import cuda
from _common import SMALL, devices, report, timed


@cuda.jit
def to_gray(rgb, gray):
    y, x = cuda.grid(2)
    if y < gray.shape[0] and x < gray.shape[1]:
        r = rgb[y, x, 0]
        g = rgb[y, x, 1]
        b = rgb[y, x, 2]
        # ITU-R BT.601 luma weights
        gray[y, x] = np.float32(0.299) * r + np.float32(0.587) * g + \
            np.float32(0.114) * b


def main():
    h, w = (240, 320) if SMALL else (1080, 1920)
    rng = np.random.default_rng(1)
    img = rng.random((h, w, 3), dtype=np.float32)
    want = (np.float32(0.299) * img[..., 0] + np.float32(0.587) * img[..., 1]
            + np.float32(0.114) * img[..., 2])
    print(f"RGB to grayscale, {h}x{w}")
    for dev in devices():
        with ember.Device(dev):
            d_img = cuda.to_device(img)
            d_gray = cuda.device_array((h, w), dtype=np.float32)
            block = (16, 16)
            grid = ((h + 15) // 16, (w + 15) // 16)

            def run():
                to_gray[grid, block](d_img, d_gray)
                cuda.synchronize()

            ms = timed(run)
            ok = np.allclose(d_gray.copy_to_host(), want, rtol=1e-6, atol=1e-6)
            report("to_gray[(h/16, w/16), (16, 16)]", dev, ms, ok)


if __name__ == "__main__":
    main()
