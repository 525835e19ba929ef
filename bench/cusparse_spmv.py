"""cuSPARSE SpMV's algorithms (default, CSR_ALG1, CSR_ALG2, each with and
without cusparseSpMV_preprocess) on bench/scipy.py's csr @ vector matrix
(24576 rows of ~4069 entries, float32, int32 indices), through ctypes and
CuPy's memory, with CuPy's own csr @ vector beside them: which setting
src/math/cusparse.c should use (it takes the default, which gave 73% of
the bandwidth floor in bench/scipy.py against the issue's 80%).

usage: python bench/cusparse_spmv.py   (on the GPU machine)

On an H100 (2026-11-28; the floor's 4.1 TB/s is the H200's, so the
percentages read low there): default 0.341 ms, CSR_ALG1 0.345, CSR_ALG2
0.306 (0.302 after preprocess), CuPy 0.317. ember takes CSR_ALG2."""
import ctypes, glob, os
import numpy as np, cupy as cp, cupyx.scipy.sparse as csp
cands = glob.glob("/usr/local/cuda/lib64/libcusparse.so*") + glob.glob(
    os.path.join(os.path.dirname(cp.__file__), "..", "nvidia", "*", "lib", "libcusparse.so*"))
lib = ctypes.CDLL(sorted(cands)[-1])
vp = ctypes.c_void_p
h = vp(); assert lib.cusparseCreate(ctypes.byref(h)) == 0
n = 4096; rows = n * 6; nnz_row = max(1, min(10 ** 8 // rows, rows))
rng = np.random.default_rng(0)
indptr = cp.asarray(np.arange(rows + 1, dtype=np.int32) * nnz_row)
indices = cp.asarray(rng.integers(0, rows, rows * nnz_row).astype(np.int32))
data = cp.asarray(rng.random(rows * nnz_row, dtype=np.float32))
x = cp.asarray(rng.random(rows, dtype=np.float32)); y = cp.empty(rows, cp.float32)
A = vp(); vx = vp(); vy = vp()
i64 = ctypes.c_int64
assert lib.cusparseCreateCsr(ctypes.byref(A), i64(rows), i64(rows), i64(data.size), vp(indptr.data.ptr),
                             vp(indices.data.ptr), vp(data.data.ptr), 2, 2, 0, 0) == 0
assert lib.cusparseCreateDnVec(ctypes.byref(vx), i64(rows), vp(x.data.ptr), 0) == 0
assert lib.cusparseCreateDnVec(ctypes.byref(vy), i64(rows), vp(y.data.ptr), 0) == 0
one, zero = ctypes.c_float(1), ctypes.c_float(0)
floor = (8 * data.size + 4 * (rows + 1) + 8 * rows) / 4.1e12 * 1e3
def timed(fn):
    for _ in range(3): fn()
    e0, e1 = cp.cuda.Event(), cp.cuda.Event(); ts = []
    for _ in range(20):
        e0.record(); fn(); e1.record(); e1.synchronize(); ts.append(cp.cuda.get_elapsed_time(e0, e1))
    return float(np.median(ts))
for alg in (0, 2, 3):
    sz = ctypes.c_size_t()
    assert lib.cusparseSpMV_bufferSize(h, 0, ctypes.byref(one), A, vx, ctypes.byref(zero), vy, 0, alg, ctypes.byref(sz)) == 0
    buf = cp.empty(max(1, sz.value), cp.uint8)
    f = lambda: lib.cusparseSpMV(h, 0, ctypes.byref(one), A, vx, ctypes.byref(zero), vy, 0, alg, vp(buf.data.ptr))
    t = timed(f)
    r = lib.cusparseSpMV_preprocess(h, 0, ctypes.byref(one), A, vx, ctypes.byref(zero), vy, 0, alg, vp(buf.data.ptr))
    tp = timed(f)
    print(f"alg {alg}: {t:.4f} ms ({floor / t:.0%} of floor), after preprocess (rc {r}) {tp:.4f} ms ({floor / tp:.0%})", flush=True)
C = csp.csr_matrix((data, indices, indptr), shape=(rows, rows))
print(f"cupyx csr @ x: {timed(lambda: C @ x):.4f} ms; CUPY_ACCELERATORS={os.environ.get('CUPY_ACCELERATORS')}", flush=True)
