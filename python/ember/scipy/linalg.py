"""ember.scipy.linalg: scipy.linalg's functions over ember arrays, as
cupyx.scipy.linalg is CuPy's. The families live in their own files:
linalg_lu (LU, Cholesky, triangular and general solvers, inv, det),
linalg_decomp (lstsq, pinv, qr, svd, eigh, norm, banded and Toeplitz
solvers), linalg_expm, linalg_special (special matrices). Factorisations
are the vendor's (LAPACK on cpu, cuSOLVER on CUDA); docs/scipy.md says
where results and errors differ from SciPy's."""
from ember.scipy.linalg_lu import (  # noqa: F401
    LinAlgWarning, cho_factor, cho_solve, cholesky, det, inv, lu, lu_factor,
    lu_solve, solve, solve_triangular)
from ember.scipy.linalg_decomp import (  # noqa: F401
    eigh, lstsq, norm, pinv, qr, solve_banded, solve_toeplitz, svd)
from ember.scipy.linalg_expm import expm  # noqa: F401
from ember.scipy.linalg_bandwidth import bandwidth  # noqa: F401
from ember.scipy.linalg_special import (  # noqa: F401
    block_diag, circulant, companion, convolution_matrix, dft, fiedler,
    fiedler_companion, hadamard, hankel, helmert, hilbert, invhilbert,
    khatri_rao, kron, leslie, toeplitz)
from ember.scipy.linalg_eig import (  # noqa: F401
    cdf2rdf, eig, eigvals, eigvalsh)
from ember.scipy.linalg_more import (  # noqa: F401
    diagsvd, ishermitian, issymmetric, null_space, orth,
    orthogonal_procrustes, pinvh, polar, rq, subspace_angles, svdvals)
from ember.scipy.linalg_matfuncs import (  # noqa: F401
    cosm, coshm, sinhm, sinm, tanhm, tanm)
from ember.scipy.linalg_fftsolve import (  # noqa: F401
    matmul_toeplitz, solve_circulant)
from ember.scipy.linalg_pascal import invpascal, pascal  # noqa: F401
from ember.scipy.linalg_hbanded import (  # noqa: F401
    cho_solve_banded, cholesky_banded, solveh_banded)
from ember.scipy.linalg_schur import (  # noqa: F401
    hessenberg, ordqz, qz, rsf2csf, schur)
from ember.scipy.linalg_ldl import ldl  # noqa: F401
from ember.scipy.linalg_schurfuncs import (  # noqa: F401
    funm, logm, signm, sqrtm)
from ember.scipy.linalg_solvers import (  # noqa: F401
    solve_continuous_are, solve_continuous_lyapunov, solve_discrete_are,
    solve_discrete_lyapunov, solve_lyapunov, solve_sylvester)

__all__ = ["LinAlgError", "LinAlgWarning",
           "lu_factor", "lu_solve", "lu", "solve_triangular", "cho_factor",
           "cho_solve", "cholesky", "solve", "inv", "det", "lstsq", "pinv",
           "qr", "svd", "eigh", "norm", "solve_banded", "solve_toeplitz",
           "expm", "block_diag", "toeplitz", "circulant", "hankel",
           "hadamard", "leslie", "companion", "helmert", "hilbert",
           "invhilbert", "dft", "fiedler", "fiedler_companion",
           "convolution_matrix", "kron", "khatri_rao", "bandwidth",
           "eig", "eigvals", "eigvalsh", "cdf2rdf", "null_space", "orth",
           "svdvals", "diagsvd", "polar", "pinvh", "subspace_angles",
           "orthogonal_procrustes", "rq", "issymmetric", "ishermitian",
           "sinm", "cosm", "tanm", "sinhm", "coshm", "tanhm",
           "solve_circulant", "matmul_toeplitz", "pascal", "invpascal",
           "cholesky_banded", "cho_solve_banded", "solveh_banded",
           "schur", "rsf2csf", "hessenberg", "qz", "ordqz", "ldl", "sqrtm",
           "logm", "funm", "signm", "solve_sylvester",
           "solve_continuous_lyapunov", "solve_lyapunov",
           "solve_discrete_lyapunov", "solve_continuous_are",
           "solve_discrete_are"]


def __getattr__(name):
    if name == "LinAlgError":  # ember.linalg's: numpy.linalg's subclass
        from ember import _ember
        return _ember._np_exception("LinAlgError")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
