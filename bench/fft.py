"""FFTs (issue 20, 3): ember.fft (cuFFT) vs CuPy (cuFFT) vs PyTorch, in
milliseconds per call, with the bytes a transform must read and write at
the same run's device copy bandwidth as the floor beside them.

usage: python bench/fft.py [--out FILE] [--only SUBSTRING]  (on the GPU machine)
       python bench/fft.py --device cpu --log2n 12   (a check of the script)

Measurement as in bench/arrays.py (whose helpers this imports): the median
of 20 event-timed calls after 3 warm-ups, each call allocating its result
as the libraries' own fft functions do."""
import numpy as np

import arrays as A


def main():
    args = A.parse_case_args()
    log2n = min(args.log2n, 26)
    n, side = 1 << log2n, 1 << (log2n // 2 - 1)
    libs = A.load_libs()
    rows = []
    ref, copy_bw = A.copy_reference(libs, n)
    rng = np.random.default_rng(0)

    def case(name, host, call, nbytes):
        if args.only and not any(o in name for o in args.only.split(",")):
            return
        print(name, flush=True)

        def measure(lib, h):
            x = h["put"](host)
            fn = call(lib, h["mod"], x)
            return A.gpu_ms(fn, h["sync"], h["ev"])
        # a transform reads and writes its data at least once: that
        # traffic at copy bandwidth is the floor
        rows.append((name, A.run_each(libs, measure), "ms",
                     nbytes / (copy_bw * 1e6)))

    c64 = (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(np.complex64)
    case(f"fft complex64 2^{log2n}", c64,
         lambda lib, m, x: (lambda: m.fft.fft(x)), 16 * n)
    img = rng.standard_normal((side, side)).astype(np.float32)
    case(f"rfft2 float32 {side}^2", img,
         lambda lib, m, x: (lambda: m.fft.rfft2(x)), 4 * side * side + 8 * side * (side // 2 + 1))
    spec = np.fft.rfft2(img).astype(np.complex64)
    case(f"irfft2 complex64 {side}x{side // 2 + 1}", spec,
         lambda lib, m, x: (lambda: m.fft.irfft2(x)), 4 * side * side + 8 * side * (side // 2 + 1))
    lines = []
    for name, v, _, floor in rows:
        e, c, t = (v[k] for k in A.LIBS)
        vs = "" if isinstance(e, str) or isinstance(c, str) else \
            f"{c / e:.2f}x faster"
        at = "" if isinstance(e, str) else f"{floor / e:.0%}"
        lines.append(f"| {name} | {A.fmt(e)} | {A.fmt(c)} | {A.fmt(t)} | "
                     f"{floor:.4g} | {at} | {vs} |")
    lines.append(f"| (ref) device copy, read+write ({ref}) | {copy_bw:.0f} GB/s "
                 "| | | | | |")
    A.write_table(["case", "ember ms", "CuPy ms", "PyTorch ms",
                   "floor ms (bytes at copy bandwidth)", "floor / ember",
                   "ember vs CuPy"], lines, args.out)


if __name__ == "__main__":
    main()
