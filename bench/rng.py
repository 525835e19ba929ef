"""Random numbers (issue 20, 4): ember.random vs CuPy vs PyTorch filling
float32 arrays of 2^28 elements, as bytes written per second, with the
same run's device copy bandwidth as the reference.

usage: python bench/rng.py [--out FILE] [--only SUBSTRING]  (on the GPU machine)
       python bench/rng.py --device cpu --log2n 16   (a check of the script)

Measurement as in bench/arrays.py (whose helpers this imports): the median
of 20 event-timed calls after 3 warm-ups. Generator rows fill a
preallocated output (out=; torch.rand/randn(out=)); legacy rows are the
module functions (cupy.random.random_sample / standard_normal with
dtype=float32), which allocate their result. A peer without the call
shows n/a."""
import numpy as np

import arrays as A


def main():
    args = A.parse_case_args()
    n = 1 << args.log2n
    libs = A.load_libs()
    rows = []

    ref, copy_bw = A.copy_reference(libs, n)

    def case(name, op):
        """op(lib, mod, out) -> callable writing n float32 values (None:
        the library lacks it); the figure is bytes written per second."""
        if args.only and not any(o in name for o in args.only.split(",")):
            return
        print(name, flush=True)

        def measure(lib, h):
            out = h["put"](np.zeros(n, np.float32))
            fn = op(lib, h["mod"], out)
            if fn is None:
                raise A.Missing("no such call")
            return 4 * n / 1e6 / A.gpu_ms(fn, h["sync"], h["ev"])
        rows.append((name, A.run_each(libs, measure), "GB/s", copy_bw))

    def generator(method, torch_fn):
        def op(lib, mod, out):
            if lib == "torch":
                return lambda: getattr(mod, torch_fn)(n, out=out)
            f = getattr(A.need(mod, "random.default_rng")(0), method)
            return lambda: f(n, dtype=np.float32, out=out)
        return op
    case(f"Generator.random float32 2^{args.log2n} (torch.rand)",
         generator("random", "rand"))
    case(f"Generator.standard_normal float32 2^{args.log2n} (torch.randn)",
         generator("standard_normal", "randn"))

    def legacy(name):
        def op(lib, mod, out):
            if lib == "torch":
                return None
            f = A.need(mod, "random." + name)
            return lambda: f(n, dtype=np.float32)
        return op
    for name in ("random_sample", "standard_normal"):
        case(f"legacy {name} float32 2^{args.log2n}", legacy(name))

    A.write_ratio_table(rows, ref, copy_bw, args.out)


if __name__ == "__main__":
    main()
