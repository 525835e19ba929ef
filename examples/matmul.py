"""Matrix multiplication: a naive kernel, then shared-memory tiles.

The tiled kernel is the one from Numba's documentation: each block loads a
TPB x TPB tile of A and of B into shared memory, synchronises, and every
thread accumulates its dot product from shared memory."""
import numpy as np

import ember
from ember import cuda
from _common import SMALL, devices, report, timed

TPB = 16   # threads per block side; a module-level constant, baked in


@cuda.jit
def matmul_naive(A, B, C):
    i, j = cuda.grid(2)
    if i < C.shape[0] and j < C.shape[1]:
        acc = np.float32(0)
        for k in range(A.shape[1]):
            acc += A[i, k] * B[k, j]
        C[i, j] = acc


@cuda.jit
def matmul_tiled(A, B, C):
    sA = cuda.shared.array((TPB, TPB), dtype=np.float32)
    sB = cuda.shared.array((TPB, TPB), dtype=np.float32)
    x, y = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    acc = np.float32(0)
    for t in range((A.shape[1] + TPB - 1) // TPB):
        # out-of-range elements of a partial tile count as zero
        sA[tx, ty] = 0
        sB[tx, ty] = 0
        if x < A.shape[0] and ty + t * TPB < A.shape[1]:
            sA[tx, ty] = A[x, ty + t * TPB]
        if y < B.shape[1] and tx + t * TPB < B.shape[0]:
            sB[tx, ty] = B[tx + t * TPB, y]
        cuda.syncthreads()
        for k in range(TPB):
            acc += sA[tx, k] * sB[k, ty]
        cuda.syncthreads()
    if x < C.shape[0] and y < C.shape[1]:
        C[x, y] = acc


def main():
    n = 64 if SMALL else 1024
    rng = np.random.default_rng(2)
    A = rng.random((n, n), dtype=np.float32)
    B = rng.random((n, n), dtype=np.float32)
    want = A.astype(np.float64) @ B.astype(np.float64)
    print(f"matrix multiplication, {n}x{n} float32")
    for dev in devices():
        if dev == "cpu" and n > 256:
            # the simulator runs every thread of every block: keep it short
            m = 256
            A_, B_, want_ = A[:m, :m], B[:m, :m], A[:m, :m].astype(np.float64) @ B[:m, :m]
        else:
            m, A_, B_, want_ = n, A, B, want
        with ember.Device(dev):
            dA, dB = cuda.to_device(A_), cuda.to_device(B_)
            dC = cuda.device_array((m, m), dtype=np.float32)
            grid = ((m + TPB - 1) // TPB, (m + TPB - 1) // TPB)
            for name, k in (("naive", matmul_naive), ("shared-memory tiles", matmul_tiled)):
                def run():
                    k[grid, (TPB, TPB)](dA, dB, dC)
                    cuda.synchronize()

                ms = timed(run)
                ok = np.allclose(dC.copy_to_host(), want_, rtol=1e-4)
                report(f"{name} ({m}x{m})", dev, ms, ok,
                       f"{2 * m ** 3 / ms / 1e6:.1f} GFLOP/s")


if __name__ == "__main__":
    main()
