"""PyCUDA's ``pycuda.sparse``: sparse matrix-vector products (packeted and
coordinate), operators, an asynchronous inner product and conjugate
gradients, over ember.scipy.sparse's CSR matrices (cuSPARSE on a GPU,
ember's host kernels on cpu).

PyCUDA's PacketedSpMV partitions the rows with METIS into packets that
fit in shared memory and keeps vectors in that permuted order; ember's
SpMV needs no such layout, so permute and unpermute are the identity and
every vector stays in the matrix's row order (a program that permutes
before and unpermutes after gets the same numbers)."""
