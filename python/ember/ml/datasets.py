"""scikit-learn's generated datasets (make_blobs, make_classification,
make_regression, make_low_rank_matrix), drawn on a device.

The recipes are scikit-learn's, so the sizes, the labels per cluster, the
informative and redundant columns and the errors are its; the draws are
ember.random's (the same random_state gives the same data on every
device, not NumPy's data), made where the data will be used: on `device`
(default: the current device). X is float64 as scikit-learn's unless
`dtype` asks for another (cuML's generators default to float32). The
few draws that only pick a layout (the classes' hypercube vertices) are
made on the host."""
import numbers

import numpy as np

import ember
from ember.ml import _validation as V
from ember.ml._random import check_random_state


def _device(device):
    return ember.Device(str(device) if device is not None else ember.get_device())


def _float(dtype):
    dt = np.dtype(np.float64 if dtype is None else dtype)
    if dt.kind != "f":
        raise ValueError(f"dtype must be a floating dtype, got {dt}")
    return dt


def _int_param(value, name, low):
    return int(V.check_scalar(value, name, numbers.Integral, min_val=low))


def _centers(centers, dev):
    """Given centers (any array) as float64 on dev."""
    return ember.asarray(np.asarray(ember.asnumpy(centers), dtype=np.float64), device=dev)


def _shuffle_rows(gen, n, *arrays):
    order = gen.permutation(n)
    return tuple(a[order] for a in arrays)


def make_blobs(n_samples=100, n_features=2, *, centers=None, cluster_std=1.0,
               center_box=(-10.0, 10.0), shuffle=True, random_state=None,
               return_centers=False, dtype=None, device=None):
    """Isotropic Gaussian blobs (scikit-learn's make_blobs): X (n_samples,
    n_features), y the blob of each row, and the centers when asked."""
    dev = _device(device)
    dt = _float(dtype)
    gen = check_random_state(random_state, dev)
    if isinstance(n_samples, numbers.Integral):
        n_samples = _int_param(n_samples, "n_samples", 1)
        if centers is None:
            centers = 3
        if isinstance(centers, numbers.Integral):
            n_centers = int(centers)
            c = gen.uniform(center_box[0], center_box[1], size=(n_centers, n_features))
        else:
            c = _centers(centers, dev)
            n_features, n_centers = c.shape[1], c.shape[0]
        counts = [n_samples // n_centers] * n_centers
        for i in range(n_samples % n_centers):
            counts[i] += 1
    else:
        counts = [int(v) for v in n_samples]
        n_centers = len(counts)
        if centers is None:
            c = gen.uniform(center_box[0], center_box[1], size=(n_centers, n_features))
        else:
            c = _centers(centers, dev)
            if c.shape[0] != n_centers:
                raise ValueError("Length of `n_samples` not consistent with number of "
                                 f"centers. Got n_samples = {n_samples} and centers = "
                                 f"{ember.asnumpy(c)}")
            n_features = c.shape[1]
        n_samples = sum(counts)
    if np.ndim(cluster_std) and len(np.asarray(cluster_std)) != n_centers:
        raise ValueError("Length of `clusters_std` not consistent with number of "
                         f"centers. Got centers = {ember.asnumpy(c)} and cluster_std = "
                         f"{cluster_std}")
    std = np.broadcast_to(np.asarray(cluster_std, dtype=np.float64), (n_centers,))
    # every row at once: row i is blob y[i]'s center plus its std times a
    # standard normal (one draw of the whole matrix, not a loop of blobs)
    y = ember.asarray(np.repeat(np.arange(n_centers), counts), device=dev)
    z = gen.standard_normal(size=(n_samples, n_features))
    X = z * ember.asarray(std, device=dev)[y][:, None] + c[y]
    if shuffle:
        X, y = _shuffle_rows(gen, n_samples, X, y)
    X = X.astype(dt)
    return (X, y, c.astype(dt)) if return_centers else (X, y)


def make_low_rank_matrix(n_samples=100, n_features=100, *, effective_rank=10,
                         tail_strength=0.5, random_state=None, dtype=None, device=None):
    """A matrix of bell-shaped singular values (scikit-learn's
    make_low_rank_matrix): U diag(s) V^T with random orthonormal U and V."""
    dev = _device(device)
    gen = check_random_state(random_state, dev)
    n = min(n_samples, n_features)
    u, _ = ember.linalg.qr(gen.standard_normal(size=(n_samples, n)))
    v, _ = ember.linalg.qr(gen.standard_normal(size=(n_features, n)))
    k = ember.arange(n, dtype=np.float64, device=dev)
    s = ((1 - tail_strength) * ember.exp(-1.0 * (k / effective_rank) ** 2)
         + tail_strength * ember.exp(-0.1 * k / effective_rank))
    return ((u * s) @ v.T).astype(_float(dtype))


def make_regression(n_samples=100, n_features=100, *, n_informative=10, n_targets=1,
                    bias=0.0, effective_rank=None, tail_strength=0.5, noise=0.0,
                    shuffle=True, coef=False, random_state=None, dtype=None,
                    device=None):
    """A linear regression problem (scikit-learn's make_regression): y =
    X w + bias (+ Gaussian noise), w nonzero on n_informative features."""
    dev = _device(device)
    dt = _float(dtype)
    n_samples = _int_param(n_samples, "n_samples", 1)
    n_features = _int_param(n_features, "n_features", 1)
    n_targets = _int_param(n_targets, "n_targets", 1)
    n_informative = min(n_features, _int_param(n_informative, "n_informative", 0))
    gen = check_random_state(random_state, dev)
    if effective_rank is None:
        X = gen.standard_normal(size=(n_samples, n_features))
    else:
        X = make_low_rank_matrix(n_samples, n_features, effective_rank=effective_rank,
                                 tail_strength=tail_strength, random_state=gen,
                                 device=dev)
    w = 100 * gen.uniform(size=(n_informative, n_targets))
    if n_informative < n_features:
        w = ember.concatenate([w, ember.zeros((n_features - n_informative, n_targets),
                                              dtype=np.float64, device=dev)])
    y = X @ w + bias
    if noise > 0.0:
        y = y + gen.normal(scale=noise, size=y.shape)
    if shuffle:
        X, y = _shuffle_rows(gen, n_samples, X, y)
        cols = gen.permutation(n_features)
        X, w = X[:, cols], w[cols]
    y = y[:, 0] if n_targets == 1 else y
    w = w[:, 0] if n_targets == 1 else w
    out = (X.astype(dt), y.astype(dt))
    return out + (w.astype(dt),) if coef else out


def _hypercube(n_vertices, dims, rs):
    """n_vertices distinct corners of the unit hypercube in dims
    dimensions, as scikit-learn picks them (distinct up to 30 bits)."""
    if dims > 30:
        return np.hstack([rs.randint(2, size=(n_vertices, dims - 30)),
                          _hypercube(n_vertices, 30, rs)])
    picks = rs.choice(2 ** dims, n_vertices, replace=False).astype(">u4")
    return np.unpackbits(picks.view(">u1")).reshape(-1, 32)[:, -dims:]


def make_classification(n_samples=100, n_features=20, *, n_informative=2, n_redundant=2,
                        n_repeated=0, n_classes=2, n_clusters_per_class=2, weights=None,
                        flip_y=0.01, class_sep=1.0, hypercube=True, shift=0.0,
                        scale=1.0, shuffle=True, random_state=None, return_X_y=True,
                        dtype=None, device=None):
    """A classification problem of Gaussian clusters at a hypercube's
    vertices (scikit-learn's make_classification): informative features,
    their linear combinations (redundant), copies (repeated) and noise."""
    dev = _device(device)
    dt = _float(dtype)
    n_samples = _int_param(n_samples, "n_samples", 1)
    n_features = _int_param(n_features, "n_features", 1)
    if n_informative + n_redundant + n_repeated > n_features:
        raise ValueError("Number of informative, redundant and repeated features "
                         "must sum to less than the number of total features")
    if n_informative < np.log2(n_classes * n_clusters_per_class):
        raise ValueError(f"n_classes({n_classes}) * n_clusters_per_class("
                         f"{n_clusters_per_class}) must be smaller or equal "
                         f"2**n_informative({n_informative})={2 ** n_informative}")
    if weights is not None:
        weights = list(weights)
        if len(weights) not in (n_classes, n_classes - 1):
            raise ValueError("Weights specified but incompatible with number of classes.")
        if len(weights) == n_classes - 1:
            weights.append(1.0 - sum(weights))
    else:
        weights = [1.0 / n_classes] * n_classes
    gen = check_random_state(random_state, dev)
    rs = np.random.RandomState(int(gen.integers(0, 2 ** 31 - 1)))
    n_useless = n_features - n_informative - n_redundant - n_repeated
    n_clusters = n_classes * n_clusters_per_class
    counts = [int(n_samples * weights[k % n_classes] / n_clusters_per_class)
              for k in range(n_clusters)]
    for i in range(n_samples - sum(counts)):
        counts[i % n_clusters] += 1
    centroids = _hypercube(n_clusters, n_informative, rs).astype(np.float64)
    centroids = centroids * 2 * class_sep - class_sep
    if not hypercube:
        centroids = centroids * rs.uniform(size=(n_clusters, 1)) \
            * rs.uniform(size=(1, n_informative))
    cluster = np.repeat(np.arange(n_clusters), counts)
    y = ember.asarray(cluster % n_classes, device=dev)
    # each cluster's rows are a standard normal times its own random
    # covariance factor A_k, moved to its vertex: one batched product over
    # the clusters' row blocks
    z = gen.standard_normal(size=(n_samples, n_informative))
    A = 2 * gen.uniform(size=(n_clusters, n_informative, n_informative)) - 1
    parts, start = [], 0
    for k in range(n_clusters):
        stop = start + counts[k]
        parts.append(z[start:stop] @ A[k])
        start = stop
    X_inf = ember.concatenate(parts) + ember.asarray(centroids, device=dev)[
        ember.asarray(cluster, device=dev)]
    cols = [X_inf]
    if n_redundant > 0:
        B = 2 * gen.uniform(size=(n_informative, n_redundant)) - 1
        cols.append(X_inf @ B)
    if n_repeated > 0:
        n = n_informative + n_redundant
        idx = ((n - 1) * rs.uniform(size=n_repeated) + 0.5).astype(np.intp)
        cols.append(ember.concatenate(cols, axis=1)[:, ember.asarray(idx, device=dev)])
    if n_useless > 0:
        cols.append(gen.standard_normal(size=(n_samples, n_useless)))
    X = ember.concatenate(cols, axis=1)
    if flip_y >= 0.0:
        flip = gen.uniform(size=n_samples) < flip_y
        y = ember.where(flip, gen.integers(0, n_classes, size=n_samples), y)
    if shift is None:
        shift = (2 * gen.uniform(size=n_features) - 1) * class_sep
    X = X + shift
    if scale is None:
        scale = 1 + 100 * gen.uniform(size=n_features)
    X = X * scale
    if shuffle:
        X, y = _shuffle_rows(gen, n_samples, X, y)
        X = X[:, gen.permutation(n_features)]
    return X.astype(dt), y
