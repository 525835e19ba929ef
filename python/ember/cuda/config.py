"""ember.cuda.config: the Numba settings that ember reads (numba.cuda's
`config`). Assign to change them, as Numba's examples do.

CUDA_NVRTC_EXTRA_SEARCH_PATHS
    Directories, ':'-separated, searched for the `#include "..."` and
    `#include <...>` files of the CUDA C++ sources that
    cuda.declare_device(link=...) links (quoted names first beside the
    including file), as Numba passes them to NVRTC as -I options. Read
    when a kernel is translated.
"""
import os

CUDA_NVRTC_EXTRA_SEARCH_PATHS = os.environ.get("NUMBA_CUDA_NVRTC_EXTRA_SEARCH_PATHS", "")
