"""Linked CUDA C files whose headers come through
config.CUDA_NVRTC_EXTRA_SEARCH_PATHS (Numba passes the paths to NVRTC as
-I): an `#include <name>` found there is put in place as a quoted one is;
one found in no search path stays for the compiler. Numba-CUDA's FFI
documentation example includes its headers this way (docs/kernels.md)."""
import numpy as np

import ember
from ember import cuda


def test_angle_includes_from_the_search_paths(device, tmp_path, monkeypatch):
    scale_dir, shift_dir = tmp_path / "a" / "inc", tmp_path / "b" / "inc"
    scale_dir.mkdir(parents=True)
    shift_dir.mkdir(parents=True)
    (scale_dir / "scale.cuh").write_text(
        "template <typename T>\n__device__ T scaled(T k, T v) { return k * v; }\n")
    (shift_dir / "shift.cuh").write_text(
        "template <typename T>\n__device__ T shifted(T v, T by) { return v + by; }\n")
    src = tmp_path / "a" / "fma3.cu"
    src.write_text("#include <scale.cuh>\n#include <shift.cuh>\n"
                   'extern "C" __device__ int fma3(float *out, float k, float v, float by)\n'
                   "{\n    *out = shifted(scaled(k, v), by);\n    return 0;\n}\n")
    from ember.cuda import config
    monkeypatch.setattr(config, "CUDA_NVRTC_EXTRA_SEARCH_PATHS",
                        f"{scale_dir}:{shift_dir}")
    fma3 = cuda.declare_device("fma3", sig="float32(float32, float32, float32)",
                               link=str(src))

    @cuda.jit
    def apply(k, v, by, out):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = fma3(k, v[i], by[i])

    v = np.linspace(-4, 4, 777, dtype=np.float32)
    by = np.arange(777, dtype=np.float32)
    out = np.zeros(777, np.float32)
    with ember.Device(device):
        apply[25, 32](np.float32(2.5), v, by, out)
    # The linked file is compiled as Numba compiles it: on the GPU by NVRTC
    # with its defaults, which contract the inlined multiply and add into
    # one FMA; on cpu by the host compiler, each step rounded. (The FMA's
    # value: the float32 product is exact in float64 and here so is the
    # sum, so one rounding to float32 gives it.)
    if device == "cpu":
        want = np.float32(2.5) * v + by
    else:
        want = (np.float64(2.5) * v + by).astype(np.float32)
    np.testing.assert_array_equal(out, want)


def test_angle_include_outside_search_paths_left_to_compiler(tmp_path, monkeypatch):
    """A `<name>` in no search path (a system or CUDA header) stays an
    #include for the compiler; one in a search path is put in place."""
    from ember.cuda import config, ffi
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "h.cuh").write_text("// the header\n")
    cu = tmp_path / "f.cu"
    cu.write_text("#include <cuda_fp16.h>\n#include <h.cuh> /* here */\n"
                  "#include <h.cuh> /* open\n*/\n")
    monkeypatch.setattr(config, "CUDA_NVRTC_EXTRA_SEARCH_PATHS", str(tmp_path / "inc"))
    (_, text), = ffi.read_links([str(cu)])
    lines = text.split("\n")
    assert lines[0] == "#include <cuda_fp16.h>"
    assert "// the header" in lines
    assert "#include <h.cuh> /* open" in lines   # a comment that goes on: not touched
    # the file's own angle include is not looked up beside it
    monkeypatch.setattr(config, "CUDA_NVRTC_EXTRA_SEARCH_PATHS", "")
    (tmp_path / "h.cuh").write_text("// beside\n")
    (_, text), = ffi.read_links([str(cu)])
    assert "// beside" not in text and "#include <h.cuh> /* here */" in text
