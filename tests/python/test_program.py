import pytest

import ember
from ember.cuda import Program

pytestmark = pytest.mark.usefixtures("need_nvrtc")

SAXPY = r'''
extern "C" __global__ void saxpy(float a, const float *x, float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
'''


def test_ptx():
    obj = Program(SAXPY).compile("ptx")
    assert isinstance(obj, ember.ObjectCode) and obj.kind == "ptx"
    assert isinstance(obj.code, bytes) and b".entry" in obj.code and b"saxpy" in obj.code
    assert not obj.code.endswith(b"\0")
    assert isinstance(obj.log, str)


def test_default_target_is_ptx():
    assert Program(SAXPY).compile().kind == "ptx"


def test_cubin():
    obj = Program(SAXPY, name="saxpy.cu").compile("cubin", arch=80)
    assert obj.kind == "cubin" and obj.code[:4] == b"\x7fELF"
    assert obj.name == "saxpy.cu"


def test_arch_spellings():
    for arch in (75, "sm_75", "compute_75", "75"):
        assert b".target sm_75" in Program(SAXPY).compile("ptx", arch=arch).code


def test_bad_target_and_arch():
    with pytest.raises(ValueError):
        Program(SAXPY).compile("sass")
    with pytest.raises(ValueError):
        Program(SAXPY).compile("ptx", arch="sm_x")
    with pytest.raises(TypeError):
        Program(SAXPY).compile("ptx", arch=7.5)
    with pytest.raises(TypeError):
        Program(b"bytes source")
    with pytest.raises(TypeError):
        Program(SAXPY, options=(1,))


def test_compile_error_points_at_line():
    src = SAXPY.replace("a * x[i]", "a * undefined_thing[i]")
    with pytest.raises(ember.CompileError) as e:
        Program(src, name="bad.cu").compile("ptx")
    err = e.value
    assert "undefined_thing" in err.log
    assert err.lineno == 4
    assert "undefined_thing" in err.source_line
    assert "line 4" in str(err)
    assert isinstance(err, RuntimeError)


def test_options_honoured():
    src = r'''
#if N != 4
#error N must be 4
#endif
extern "C" __global__ void k(int *p) { p[0] = N; }
'''
    with pytest.raises(ember.CompileError):
        Program(src).compile("ptx")
    assert b".entry" in Program(src, options=("-DN=4",)).compile("ptx").code
    assert b".entry" in Program(src, options="-DN=4").compile("ptx").code
    assert Program(src, options=["-DN=4", "-O3"]).options == ("-DN=4", "-O3")


def test_load_compiled_code(need_cuda):
    import numpy as np
    from helpers import to_device, to_numpy
    with ember.Device("cuda:0"):
        for kind in ("ptx", "cubin"):
            obj = Program(SAXPY).compile(kind)
            mod = ember.RawModule(**{kind: obj.code})
            f = mod.get_function("saxpy")
            x = to_device(np.arange(8, dtype=np.float32), "cuda:0")
            y = to_device(np.ones(8, dtype=np.float32), "cuda:0")
            f(1, 8, (2.0, x, y, 8))
            assert to_numpy(y, np.float32).tolist() == [1 + 2 * i for i in range(8)]


def test_raw_module_from_path(tmp_path, need_cuda):
    import numpy as np
    from helpers import to_device, to_numpy
    path = tmp_path / "saxpy.ptx"
    path.write_bytes(Program(SAXPY).compile("ptx").code)
    with ember.Device("cuda:0"):
        f = ember.RawModule(path=str(path)).get_function("saxpy")
        x = to_device(np.ones(4, dtype=np.float32), "cuda:0")
        y = to_device(np.ones(4, dtype=np.float32), "cuda:0")
        f(1, 4, (3.0, x, y, 4))
        assert to_numpy(y, np.float32).tolist() == [4.0] * 4


def test_raw_module_path_errors(tmp_path):
    with pytest.raises(ValueError, match="cubin or .ptx"):
        ember.RawModule(path=str(tmp_path / "kernel.txt"))
    with pytest.raises(FileNotFoundError):
        ember.RawModule(path=str(tmp_path / "missing.cubin"))


def test_ptx_on_cpu_is_refused():
    ptx = Program(SAXPY).compile("ptx").code
    with ember.Device("cpu"):
        with pytest.raises((TypeError, ValueError, NotImplementedError)):
            ember.RawModule(ptx=ptx)
