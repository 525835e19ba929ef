"""NearestNeighbors: scikit-learn's unsupervised neighbour search."""
from ember.ml.base import BaseEstimator
from ember.ml.neighbors._base import NeighborsBase


class NearestNeighbors(NeighborsBase, BaseEstimator):
    def __init__(self, *, n_neighbors=5, radius=1.0, algorithm="auto", leaf_size=30,
                 metric="minkowski", p=2, metric_params=None, n_jobs=None):
        self.n_neighbors = n_neighbors
        self.radius = radius
        self.algorithm = algorithm
        self.leaf_size = leaf_size
        self.metric = metric
        self.p = p
        self.metric_params = metric_params
        self.n_jobs = n_jobs

    def fit(self, X, y=None):
        self._fit_rows(X)
        return self
