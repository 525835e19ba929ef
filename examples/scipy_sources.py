"""Finding sources in a sky image, as a SciPy lesson does it, with
`ember.scipy` in place of `scipy`: smooth the image with a 2-D
convolution, threshold it, label the connected regions above the
threshold and measure each one (its total flux and centre).

The same program runs with `import scipy.signal, scipy.ndimage`; here each
step is checked against SciPy on the host and timed on every device."""
import numpy as np

import ember
import ember.scipy.ndimage as ndimage
import ember.scipy.signal as signal
from _common import SMALL, devices, report, timed


def synthetic_sky(n, sources, rng):
    """Noise around a background level, plus Gaussian point sources."""
    sky = rng.normal(10.0, 1.0, (n, n))
    yy, xx = np.mgrid[0:n, 0:n]
    for y, x, f in zip(rng.uniform(5, n - 5, sources),
                       rng.uniform(5, n - 5, sources),
                       rng.uniform(30, 200, sources)):
        sky += f * np.exp(-((yy - y) ** 2 + (xx - x) ** 2) / (2 * 1.5 ** 2))
    return sky.astype(np.float32)


def find_sources(sky, kernel, sp_signal, sp_ndimage, xp):
    """The lesson's pipeline, written once for SciPy/NumPy and ember."""
    smooth = sp_signal.convolve2d(sky, kernel, mode="same", boundary="symm")
    mean, std = float(xp.mean(smooth)), float(xp.std(smooth))
    mask = smooth > mean + 5 * std
    labels, n = sp_ndimage.label(mask)
    index = list(range(1, n + 1))
    flux = sp_ndimage.sum_labels(sky, labels, index)
    centres = sp_ndimage.center_of_mass(sky, labels, index)
    return n, labels, flux, centres


def main():
    import scipy.ndimage
    import scipy.signal
    n = 256 if SMALL else 2048
    rng = np.random.default_rng(7)
    sky = synthetic_sky(n, 12 if SMALL else 150, rng)
    g = np.exp(-0.5 * (np.arange(-2, 3) / 1.0) ** 2)
    kernel = (np.outer(g, g) / np.outer(g, g).sum()).astype(np.float32)
    want_n, want_labels, want_flux, want_c = find_sources(
        sky, kernel, scipy.signal, scipy.ndimage, np)
    print(f"sky {n}x{n}: {want_n} sources above 5 sigma (SciPy)")
    for dev in devices():
        with ember.Device(dev):
            d_sky = ember.asarray(sky)
            d_kernel = ember.asarray(kernel)
            out = {}

            def run():
                out["r"] = find_sources(d_sky, d_kernel, signal, ndimage,
                                        ember)
                ember.Device(dev).synchronize()

            ms = timed(run, repeat=1)
            got_n, labels, flux, centres = out["r"]
            ok = (got_n == want_n and
                  np.array_equal(ember.asnumpy(labels), want_labels) and
                  np.allclose(ember.asnumpy(flux), want_flux, rtol=1e-4) and
                  np.allclose(centres, want_c, atol=1e-3))
            report("convolve2d + label + measure", dev, ms, ok,
                   f"{got_n} sources")


if __name__ == "__main__":
    main()
