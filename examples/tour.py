"""`make demo`: a short tour of the examples, each on the CPU and, when a
GPU works, on the GPU, with small sizes (run each file alone for full ones)."""
import runpy
import sys
import os

HERE = os.path.dirname(os.path.abspath(__file__))
TOUR = ["demo", "vector_add", "grayscale", "matmul", "convolution",
        "histogram", "block_reduce", "sky_sources", "scipy_sources", "streams"]

if __name__ == "__main__":
    sys.path.insert(0, HERE)
    sys.argv = [sys.argv[0], "--small"]
    for name in TOUR:
        print(f"\n== examples/{name}.py")
        runpy.run_path(os.path.join(HERE, name + ".py"), run_name="__main__")
