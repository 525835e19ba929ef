"""float32 kNN scores on a GPU through its TF32 tensor cores, at float32's
accuracy ("3xTF32"): each operand is split into a head of 11 significant
bits, which TF32 holds exactly, and the rest, x = hi + lo (Veltkamp's
split, exact in float32), and one GEMM over the pieces laid side by side,
[hi | lo | hi] @ [hi | hi | lo].T, sums hi.hi + lo.hi + hi.lo in float32.
What is left out is lo.lo (at most 2^-22 of |x||y|) and the rounding of
lo to TF32 (2^-21 at most): a float32 product's error, where a plain TF32
GEMM errs by 2^-11 and swaps neighbours whose distances nearly tie.

Why: cuBLAS's float32 GEMM of a block of kNN scores (K = 64, so a 4-byte
score is written for every 128 flops) reached 31 TFLOP/s on the H200,
8.9 of the 12.1 ms of bench/ml_gpu_parts.py's kNN row; three times the
multiply-adds on tensor cores (~500 TFLOP/s dense TF32) leave the GEMM
bound by writing its scores. The kernels read the pieces in TF32 however
cuBLAS rounds (nearest or toward zero): hi exactly, lo to 11 bits.

The products ask ember's matmul for TF32 (cuBLAS's COMPUTE_32F_FAST_TF32)
for that call only (em_product_args.tf32): other products, of this thread
or another, keep float32 unless EMBER_TF32=1."""
import ember
from ember import _ember as _e
from ember.ml.metrics.pairwise import normalize_rows

# devices whose float32 product metrics take the split (tests add cpu,
# where it checks the composition: OpenBLAS has no TF32)
SPLIT_DEVICES = {"cuda"}
# 2^13 + 1: x * C - (x * C - x) keeps the leading 24 - 13 = 11 bits of x
_VELTKAMP = 8193.0
_PRODUCTS = ("euclidean", "sqeuclidean", "cosine", "inner_product")
# the most bytes the pieces of a call may take (3 x its operands'): past
# it the float32 GEMM, which needs no copies (ember.ml bounds its memory)
MAX_PIECE_BYTES = 4 << 30


def pieces(X):
    """(hi, lo), hi + lo == X exactly, hi of 11 significant bits (exact in
    TF32), |lo| <= 2^-11 |X| in 12 bits (TF32 keeps 11 of them).
    Four separate float32 operations: ember contracts none into a
    multiply-add, which would break the split."""
    t = X * _VELTKAMP
    hi = t - (t - X)
    return hi, X - hi


def left(X):
    """[hi | lo | hi] of the query rows."""
    hi, lo = pieces(X)
    return ember.concatenate([hi, lo, hi], axis=1)


def right(W):
    """[hi | hi | lo] of the training rows (scaled as Prepared.W is)."""
    hi, lo = pieces(W)
    return ember.concatenate([hi, hi, lo], axis=1)


def with_norms(A, B, YY):
    """The pieces with the training norms summed in by the GEMM itself:
    [A | 1 1 1 0..] and [B | a b c 0..] with YY = a + b + c exactly, each
    of at most 11 significant bits (Veltkamp's split of YY, then of its
    rest), so TF32 reads them exactly; zero columns pad K to a
    multiple of 4 (rows of 16-byte multiples). The top-k pass then reads
    one float a score, not a score and the norm beside it."""
    a, r = pieces(YY)
    b, c = pieces(r)
    K = A.shape[1] + 3
    pad = -K % 4
    ones = ember.ones((A.shape[0], 3 + pad), dtype=A.dtype, device=A.device)
    if pad:
        ones[:, 3:] = 0
    cols = [a, b, c] + [ember.zeros_like(a)] * pad
    return (ember.concatenate([A, ones], axis=1),
            ember.concatenate([B] + [x.reshape(-1, 1) for x in cols], axis=1))


def tf32_matmul(A, B, out=None):
    """A @ B (into out) with float32 products allowed on TF32 tensor cores."""
    return _e._matmul(A, B, out, None, True)


def split_scores(A, BT):
    """A @ BT on TF32 tensor cores, one GEMM a block of queries. (Column
    slices whose training pieces stayed in L2 were slower on the H200:
    fit + kneighbors 7.570 ms against 7.237, a block's GEMM 0.587 against
    0.548; cuBLAS tiles the whole product well enough.)"""
    return tf32_matmul(A, BT)


def parts_of(prep, Q):
    """A function of a slice of Q's rows -> (G, add) as prep.parts of those
    rows: the split product for float32 product metrics on SPLIT_DEVICES
    (the pieces of Q and of the training rows made once a call, 3 x their
    bytes, up to MAX_PIECE_BYTES; euclidean's norms summed in by the GEMM,
    so add is None), prep.parts otherwise."""
    if (Q.device.type not in SPLIT_DEVICES or Q.dtype != ember.float32
            or prep.metric not in _PRODUCTS or prep.W.dtype != ember.float32
            or 3 * (prep.W.nbytes + Q.nbytes) > MAX_PIECE_BYTES):
        return lambda s: prep.parts(Q[s])
    A = left(normalize_rows(Q) if prep.metric == "cosine" else Q)
    B = right(prep.W)
    if prep.metric in ("euclidean", "sqeuclidean"):
        A, B = with_norms(A, B, prep.YY)
    return lambda s: (split_scores(A[s], B.T), None)
