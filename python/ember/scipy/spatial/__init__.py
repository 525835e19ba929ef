"""ember.scipy.spatial: cupyx.scipy.spatial's KDTree and distance_matrix,
and the distance submodule (cdist, pdist, squareform and the common
metrics), over ember arrays on their device (docs/scipy.md, "spatial").
Delaunay is not built."""
from ember.scipy.spatial import distance
from ember.scipy.spatial._kdtree import KDTree, distance_matrix

__all__ = ["KDTree", "distance_matrix", "distance"]
