"""ember.scipy (issue 21) vs cupyx.scipy at the issue's sizes, in ms per
call, with the bytes the call must read and write at the run's copy
bandwidth as the floor: convolve2d 4096^2 float32 with 5x5 and 31x31
kernels ('same'), gaussian_filter 4096^2 float32 sigma 4, label 8192^2
binary (30% set), CSR @ vector float32 (10^8 non-zeros at full size).

usage: python bench/scipy.py [--out FILE] [--only SUBSTRING] [--n 4096]
       python bench/scipy.py --device cpu --n 256   (a check of the script)

Medians of 5 event-timed calls after 3 warm-ups (bench/arrays.py's
helpers); PyTorch has no such calls."""
import numpy as np

import arrays as A


def main():
    args = A.parse_case_args(n=4096)
    n = args.n
    libs = A.load_libs()
    libs["torch"] = "n/a (no such call)"
    ref, copy_bw = A.copy_reference(libs, n * n)
    rng = np.random.default_rng(0)
    img = rng.random((n, n), dtype=np.float32)
    k5 = rng.random((5, 5), dtype=np.float32)
    k31 = rng.random((31, 31), dtype=np.float32)
    big = 2 * n
    mask = rng.random((big, big)) < 0.3
    rows = n * 6
    nnz_row = max(1, min(10 ** 8 // rows, rows))
    indptr = np.arange(rows + 1, dtype=np.int64) * nnz_row
    indices = rng.integers(0, rows, rows * nnz_row).astype(np.int64)
    data = rng.random(rows * nnz_row, dtype=np.float32)
    vec = rng.random(rows, dtype=np.float32)

    def mods(lib, m):
        if lib == "cupy":
            import cupyx.scipy.ndimage as nd
            import cupyx.scipy.signal as sg
            import cupyx.scipy.sparse as sp
        else:
            import ember.scipy.ndimage as nd
            import ember.scipy.signal as sg
            import ember.scipy.sparse as sp
        return nd, sg, sp

    cases = [
        (f"convolve2d float32 {n}^2, 5x5, same", 8 * n * n,
         lambda lib, m, h: (lambda x=h["put"](img), k=h["put"](k5),
                            sg=mods(lib, m)[1]: sg.convolve2d(x, k, "same"))),
        (f"convolve2d float32 {n}^2, 31x31, same", 8 * n * n,
         lambda lib, m, h: (lambda x=h["put"](img), k=h["put"](k31),
                            sg=mods(lib, m)[1]: sg.convolve2d(x, k, "same"))),
        (f"gaussian_filter float32 {n}^2, sigma 4", 8 * n * n,
         lambda lib, m, h: (lambda x=h["put"](img), nd=mods(lib, m)[0]:
                            nd.gaussian_filter(x, 4))),
        (f"label {big}^2 binary, 30% set", 5 * big * big,
         lambda lib, m, h: (lambda x=h["put"](mask), nd=mods(lib, m)[0]:
                            nd.label(x))),
        # the matrix as SciPy and both libraries store it (float32 values,
        # int32 indices and row pointers), the vector read, the result
        (f"csr @ vector float32, {rows * nnz_row:.1e} non-zeros",
         8 * rows * nnz_row + 4 * (rows + 1) + 8 * rows,
         lambda lib, m, h: (lambda sp=mods(lib, m)[2], v=h["put"](vec): (
             _csr(sp, h, data, indices, indptr, rows) @ v))),
    ]
    lines = []
    for name, nbytes, make in cases:
        if args.only and not any(o in name for o in args.only.split(",")):
            continue
        print(name, flush=True)
        v = A.run_each(libs, lambda lib, h: A.gpu_ms(make(lib, h["mod"], h),
                                                     h["sync"], h["ev"],
                                                     reps=5))
        e, c = v["ember"], v["cupy"]
        floor = nbytes / (copy_bw * 1e6)
        vs = "" if isinstance(e, str) or isinstance(c, str) else \
            f"{c / e:.2f}x faster"
        at = "" if isinstance(e, str) else f"{floor / e:.0%}"
        lines.append(f"| {name} | {A.fmt(e)} | {A.fmt(c)} | {floor:.4g} | "
                     f"{at} | {vs} |")
        for lib in ("ember", "cupy"):
            if not isinstance(libs[lib], str):
                libs[lib]["free"]()
    A.write_table(["case", "ember ms", "cupyx ms", "floor ms (bytes at copy "
                   "bandwidth)", "floor / ember", "ember vs cupyx"], lines,
                  args.out)


_CSR = {}


def _csr(sp, h, data, indices, indptr, rows):
    """The matrix made once per library (its construction is not timed)."""
    key = id(sp)
    if key not in _CSR:
        _CSR[key] = sp.csr_matrix((h["put"](data), h["put"](indices),
                                   h["put"](indptr)), shape=(rows, rows))
    return _CSR[key]


if __name__ == "__main__":
    main()
