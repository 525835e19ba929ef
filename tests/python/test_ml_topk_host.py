"""kNN's cpu top-k (python/ember/ml/kernels/topk_host.cuh, the host
compiler's only) against NumPy's stable argsort and against
kernels/topk_rows.cuh, whose results it replaces on cpu: rows around the
vector scan's step (4 vectors: 32 floats, 16 doubles), k at both list
sizes, ties that must keep their columns' order, bounds reached inside a
step, and rows shorter than k."""
import numpy as np
import pytest

import ember
from ember.ml.neighbors import _search


def _run(S, k, add, threads):
    v, i = _search.top_k_kernel(ember.asarray(S, device="cpu"), k,
                                None if add is None else ember.asarray(add, device="cpu"),
                                threads=threads)
    return ember.asnumpy(v), ember.asnumpy(i)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("n,k", [(n, k) for n in (1, 15, 16, 17, 31, 32, 33, 100, 1029)
                                 for k in (1, 3, 16, 17, 64) if k <= n])
@pytest.mark.parametrize("ties", [False, True])
def test_equals_stable_sort(dt, n, k, ties):
    rng = np.random.default_rng(n * 100 + k)
    b = 5
    S = (rng.integers(0, 4, (b, n)) if ties else rng.standard_normal((b, n))).astype(dt)
    if not ties:
        S[1] = np.sort(S[1])[::-1]        # every score a new best: inserts all along
        S[2] = np.sort(S[2])              # the first k best, then none
    add = rng.integers(0, 2, n).astype(dt)
    for a in (None, add):
        T = S if a is None else S + a
        want = np.argsort(T, axis=1, kind="stable")[:, :k]
        v, i = _run(S, k, a, 1)
        np.testing.assert_array_equal(i, want)
        np.testing.assert_array_equal(v, np.take_along_axis(T, want, 1))


def test_row_shorter_than_k_as_topk_rows():
    S = np.array([[3.0, 1.0, 2.0]])
    v1, i1 = _run(S, 5, None, 1)
    v0, i0 = _run(S, 5, None, 128)       # topk_rows.cuh in the block simulator
    np.testing.assert_array_equal(i1, i0)
    np.testing.assert_array_equal(v1, v0)
    np.testing.assert_array_equal(i1, [[1, 2, 0, -1, -1]])
