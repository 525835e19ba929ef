"""cuda.core's spellings (ember.cuda.core and .experimental): Device,
Program/ProgramOptions/ObjectCode, LaunchConfig and launch with every kind
of argument, Stream, Event, Buffer, memory resources and system, on every
device, checked against NumPy."""
import numpy as np
import pytest

import ember
from ember.cuda import core
from conftest import HAVE_CUDA

VECTOR_ADD = r"""
template<typename T>
__global__ void vector_add(const T* A, const T* B, T* C, size_t N)
{
    const unsigned int tid = threadIdx.x + blockIdx.x * blockDim.x;
    for (size_t i = tid; i < N; i += gridDim.x * blockDim.x)
        C[i] = A[i] + B[i];
}
"""

SCALE = r"""
extern "C" __global__ void scale(float *x, float a, unsigned long long n)
{
    unsigned long long i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= a * FACTOR;
}
"""


# NVVM's magic number, 0x7F4E43ED, little-endian: the start of LTO-IR
LTOIR_MAGIC = b"\xedCN\x7f"

# Which block of its cluster each block is, and the cluster's size, from
# PTX's special registers (sm_90): only a cluster launch makes them other
# than 0 and 1.
CLUSTER_RANKS = r"""
extern "C" __global__ void ranks(unsigned *rank, unsigned *size)
{
    unsigned r, n;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(n));
    if (threadIdx.x == 0) {
        rank[blockIdx.x] = r;
        size[blockIdx.x] = n;
    }
}
"""

# Blocks and threads by position, for launches whose options a cpu kernel
# cannot see: the values show every block ran once, as an ordinary launch.
WHERE = r"""
extern "C" __global__ void where(int *out)
{
    int b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    int i = b * blockDim.x + threadIdx.x;
    out[i] = 1000 * b + threadIdx.x;
}
"""

# Two phases split by a grid-wide barrier: each thread reads an element
# another block wrote in phase one, which this_grid().sync() (valid only
# in a cooperative launch) makes safe.
GRID_SYNC = r"""
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void two_phase(const float *x, float *a, float *out,
                                     int n)
{
    cg::grid_group g = cg::this_grid();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] = 2.0f * x[i];
    g.sync();
    if (i < n)
        out[i] = a[i] + a[(i + blockDim.x) % n];
}
"""


def _where_expected(grid, block):
    nb = int(np.prod(grid))
    return (1000 * np.arange(nb)[:, None] + np.arange(block)[None, :]).ravel()


def _cuda_include_dirs():
    """The toolkit's include folder with cooperative_groups.h (and CCCL's,
    which it includes from CUDA 13 on), for NVRTC, which has neither."""
    import glob
    import os
    import sys
    cands = [os.path.join(os.environ[v], "include")
             for v in ("CUDA_HOME", "CUDA_PATH") if os.environ.get(v)]
    cands.append("/usr/local/cuda/include")
    for p in sys.path:
        cands += sorted(glob.glob(os.path.join(p, "nvidia", "*", "include")))
    for c in cands:
        if os.path.isfile(os.path.join(c, "cooperative_groups.h")):
            return [c] + [d for d in (os.path.join(c, "cccl"),)
                          if os.path.isdir(d)]
    pytest.skip("no CUDA headers with cooperative_groups.h (set CUDA_HOME)")


@pytest.fixture
def cdev(device):
    with ember.Device(device):
        d = core.Device(ember.Device(device))
        d.set_current()
        yield d


def test_experimental_path_has_the_same_names():
    from ember.cuda.core import experimental
    for n in core.__all__:
        assert getattr(experimental, n) is getattr(core, n), n


def test_device(cdev, device):
    d = ember.Device(device)
    assert core.Device(d) is cdev                    # one object per device
    assert core.Device() is cdev                     # the current device
    assert cdev.device_id == d.id and cdev.name == d.name
    cc = cdev.compute_capability
    assert (cc.major, cc.minor) == tuple(d.compute_capability)
    p = cdev.properties
    assert p.max_threads_per_block == d.properties["maxThreadsPerBlock"] > 0
    assert p.multiprocessor_count == d.properties["multiProcessorCount"]
    assert p.max_block_dim_x == d.properties["maxThreadsDim"][0]
    assert p.warp_size in (1, 32)
    assert isinstance(p.maximum_texture1d_width, int)   # CUDA's, by number
    with pytest.raises(AttributeError, match="texture_of_nothing"):
        p.maximum_texture_of_nothing
    import re
    assert re.fullmatch(r"[0-9A-F]{4}:[0-9A-F]{2}:[0-9A-F]{2}\.0", cdev.pci_bus_id)
    u = cdev.uuid
    assert len(u) == 36 and u.count("-") == 4
    cdev.sync()
    assert cdev.default_stream.handle == 0
    assert int(cdev) == d.id


def test_cpu_uuid_without_machine_id(cdev, device, monkeypatch):
    """A container may lack /etc/machine-id (the GPU machine does): the cpu
    device's uuid then comes from what is left, and never raises."""
    import socket
    import uuid
    from ember.cuda.core import _device

    def no_file(path, *a, **k):
        raise FileNotFoundError(path)

    monkeypatch.setattr(_device, "open", no_file, raising=False)
    u = cdev.uuid
    if device == "cpu":
        assert u == str(uuid.uuid5(uuid.NAMESPACE_DNS,
                                   "cpu.ember." + socket.gethostname()))
    assert len(u) == 36 and str(uuid.UUID(u)) == u and cdev.uuid == u
    monkeypatch.undo()
    assert len(cdev.uuid) == 36


def test_device_zero_without_gpu():
    if HAVE_CUDA:
        assert core.Device(0)._dev == ember.Device("cuda:0")
    else:
        assert core.Device(0)._dev == ember.Device("cpu")
    assert core.system.num_devices >= 1
    assert len(core.system.devices) == core.system.num_devices
    major, minor = core.system.driver_version
    assert (major > 0) == HAVE_CUDA or major >= 0


def test_create_stream_adopts_a_cuda_stream_protocol_object(cdev):
    # Device.create_stream(obj) takes any object with __cuda_stream__: here
    # another cuda.core Stream; launch() takes such an object as well
    mine = cdev.create_stream()
    other = cdev.create_stream(mine)
    assert other.handle == mine.handle and other.is_nonblocking
    prog = core.Program(VECTOR_ADD, code_type="c++")
    ker = prog.compile("cubin", name_expressions=("vector_add<float>",)
                       ).get_kernel("vector_add<float>")
    h = np.arange(3000, dtype=np.float32)
    a = ember.asarray(h)
    c = ember.empty_like(a)
    cdev.sync()

    class Foreign:
        def __init__(self, handle):
            self.handle = handle

        def __cuda_stream__(self):
            return (0, self.handle)

    core.launch(Foreign(mine.handle), core.LaunchConfig(grid=12, block=256),
                ker, a, a, c, np.uint64(h.size))
    other.sync()
    np.testing.assert_array_equal(ember.asnumpy(c), h + h)
    mine.close()
    other.sync()
    with pytest.raises(TypeError, match="__cuda_stream__"):
        cdev.create_stream(object())


def test_graph_builder_records_launches(cdev):
    # cuda.core's cuda_graphs example: launch(builder, ...) three times,
    # end_building().complete(), then upload and launch the Graph
    s = cdev.create_stream()
    ker = core.Program(VECTOR_ADD, code_type="c++").compile(
        "cubin", name_expressions=("vector_add<float>",)
    ).get_kernel("vector_add<float>")
    n = 5000
    h = np.arange(n, dtype=np.float32)
    a = ember.array(h)      # a copy: on cpu asarray would share h
    b, c = ember.empty_like(a), ember.empty_like(a)
    cdev.sync()
    cfg = core.LaunchConfig(grid=(n + 255) // 256, block=256)
    builder = s.create_graph_builder()
    with pytest.raises(RuntimeError, match="end_building"):
        builder.complete()
    builder.begin_building()
    assert builder.is_building
    core.launch(builder, cfg, ker, a, a, b, np.uint64(n))      # b = 2a
    core.launch(builder, cfg, ker, b, a, c, np.uint64(n))      # c = 3a
    graph = builder.end_building().complete()
    assert not builder.is_building
    graph.upload(s)
    graph.launch(s)
    s.sync()
    np.testing.assert_array_equal(ember.asnumpy(c), 3 * h)
    a[...] = ember.asarray(h + 1)          # a replay reads the inputs anew
    cdev.sync()
    graph.launch(s)
    s.sync()
    np.testing.assert_array_equal(ember.asnumpy(c), 3 * (h + 1))
    graph.close()
    with pytest.raises(RuntimeError, match="closed"):
        graph.launch(s)
    with pytest.raises(ValueError, match="mode"):
        s.create_graph_builder().begin_building(mode="eager")
    # the device's spelling, and begin_building's mode as cuda.core passes it
    g2 = cdev.create_graph_builder().begin_building("relaxed")
    core.launch(g2, cfg, ker, a, a, b, np.uint64(n))
    graph = g2.end_building().complete()
    graph.launch(s)
    s.sync()
    np.testing.assert_array_equal(ember.asnumpy(b), 2 * (h + 1))


def test_vector_add_lesson(cdev):
    s = cdev.create_stream()
    arch = "".join(str(i) for i in cdev.compute_capability)
    prog = core.Program(VECTOR_ADD, code_type="c++",
                        options=core.ProgramOptions(std="c++17",
                                                    arch=f"sm_{arch}"))
    mod = prog.compile("cubin", name_expressions=("vector_add<float>",
                                                  "vector_add<double>"))
    ker = mod.get_kernel("vector_add<float>")
    assert ker.num_arguments == 4
    assert ker.arguments_info == [(0, 8), (8, 8), (16, 8), (24, 8)]
    size = 50000
    rng = np.random.default_rng(0)
    ha, hb = rng.random(size, dtype=np.float32), rng.random(size, dtype=np.float32)
    a, b = ember.asarray(ha), ember.asarray(hb)
    c = ember.empty_like(a)
    # the arrays were made on the default stream and s does not wait for
    # it (StreamOptions' nonblocking=True), so wait as the lesson does
    cdev.sync()
    block = 256
    grid = (size + block - 1) // block
    config = core.LaunchConfig(grid=grid, block=block)
    # addresses as ints, as the lesson passes a.data.ptr
    core.launch(s, config, ker, a.data.ptr, b.data.ptr, c.data.ptr,
                np.uint64(size))
    s.sync()
    np.testing.assert_array_equal(ember.asnumpy(c), ha + hb)
    # ember arrays themselves, and the double instantiation
    kd = mod.get_kernel("vector_add<double>")
    x = ember.arange(10, dtype=ember.float64)
    y = ember.empty_like(x)
    cdev.sync()
    core.launch(s, core.LaunchConfig(grid=(2,), block=(4, 1, 1)), kd, x, x, y,
                np.uint64(10))
    s.sync()
    np.testing.assert_array_equal(ember.asnumpy(y), 2 * np.arange(10.0))


class _CAI:
    """Someone else's device array: only __cuda_array_interface__."""

    def __init__(self, arr):
        self._arr = arr
        self.__cuda_array_interface__ = {
            "shape": arr.shape, "typestr": "<f4", "version": 3,
            "data": (arr.data.ptr, False), "strides": None}


class _DLPack:
    def __init__(self, arr):
        self._arr = arr

    def __dlpack__(self, **kw):
        return self._arr.__dlpack__(**kw)

    def __dlpack_device__(self):
        return self._arr.__dlpack_device__()


def test_launch_argument_kinds(cdev, device):
    obj = core.Program(SCALE, options=core.ProgramOptions(
        define_macro=("FACTOR", "2"))).compile("cubin")
    k = obj.get_kernel("scale")
    s = cdev.create_stream(options=core.StreamOptions(nonblocking=False))
    assert not s.is_nonblocking
    cfg = core.LaunchConfig(grid=1, block=64)
    base = np.arange(8, dtype=np.float32)

    def run(arg, holder):
        core.launch(s, cfg, k, arg, np.float32(1.5), np.uint64(8))
        s.sync()
        np.testing.assert_array_equal(ember.asnumpy(holder), base * 3)

    # every array on the parametrized device, whatever the default is
    # (copies: on cpu, asarray of a NumPy array may share its memory)
    a = ember.asarray(base.copy(), device=device)
    run(a, a)
    if device != "cpu":
        # __cuda_array_interface__ describes CUDA memory, so only a GPU
        # array can be handed over through it
        a = ember.asarray(base.copy(), device=device)
        run(_CAI(a), a)
    a = ember.asarray(base.copy(), device=device)
    run(_DLPack(a), a)
    a = ember.asarray(base.copy(), device=device)
    run(a.data.ptr, a)                           # an address, as an int
    buf = cdev.allocate(base.nbytes, stream=s)
    buf.copy_from(_host_buffer(base), stream=s)
    core.launch(s, cfg, k, buf, 1.5, 8)          # Python numbers: by C type
    out = _host_buffer(np.zeros(8, np.float32))
    buf.copy_to(out, stream=s)
    s.sync()
    np.testing.assert_array_equal(np.frombuffer(out._mem, np.float32), base * 3)
    with pytest.raises(TypeError, match="3 arguments"):
        core.launch(s, cfg, k, buf, 1.5)
    with pytest.raises(TypeError):
        core.launch(s, cfg, k, 1.5, 1.5, 8)       # a float for a pointer
    with pytest.raises(TypeError, match="LaunchConfig"):
        core.launch(s, (1, 64), k, buf, 1.5, 8)
    buf.copy_from(_host_buffer(base), stream=s)
    core.launch(s, core.LaunchConfig(grid=2, block=4, cluster=2), k, buf,
                np.float32(1.5), np.uint64(8))
    buf.copy_to(out, stream=s)
    s.sync()
    np.testing.assert_array_equal(np.frombuffer(out._mem, np.float32),
                                  base * 3)
    with pytest.raises(ValueError, match="cluster"):
        core.launch(s, core.LaunchConfig(grid=3, block=64, cluster=2), k,
                    buf, 1.5, 8)
    with pytest.raises(ValueError):
        core.LaunchConfig(grid=0, block=64)
    with pytest.raises(ValueError):
        core.LaunchConfig(block=64)


def test_launch_uses_the_streams_device(cdev, device):
    """Addresses and foreign arrays are taken to be on the launch stream's
    device, whatever device the thread has current."""
    k = core.Program(SCALE.replace("FACTOR", "1")).compile(
        "cubin").get_kernel("scale")
    s = cdev.create_stream(options=core.StreamOptions(nonblocking=False))
    base = np.arange(8, dtype=np.float32)
    a = ember.asarray(base.copy(), device=device)
    other = "cpu" if device != "cpu" else ("cuda:0" if HAVE_CUDA else "cpu")
    with ember.Device(other):
        core.launch(s, core.LaunchConfig(grid=1, block=8), k, a.data.ptr,
                    np.float32(2), np.uint64(8))
        core.launch(s, core.LaunchConfig(grid=1, block=8), k, _DLPack(a),
                    np.float32(2), np.uint64(8))
    s.sync()
    np.testing.assert_array_equal(ember.asnumpy(a), base * 4)


def test_cluster_launch(cdev, device):
    """Every block of a cluster launch runs once, in clusters of each
    shape that divides the grid (on cpu an ordinary launch)."""
    k = core.Program(WHERE).compile("cubin").get_kernel("where")
    s = cdev.create_stream()
    for grid, cluster in ((8, 2), ((8,), (2, 1, 1)), ((4, 2), (2, 2)),
                          ((2, 2, 2), (1, 1, 2)), (8, 8), (6, (3,))):
        out = ember.full(int(np.prod(grid)) * 32, -1, dtype=ember.int32)
        cdev.sync()
        core.launch(s, core.LaunchConfig(grid=grid, block=32,
                                         cluster=cluster), k, out)
        s.sync()
        np.testing.assert_array_equal(ember.asnumpy(out),
                                      _where_expected(grid, 32))


def test_cluster_must_divide_grid(cdev, device):
    k = core.Program(WHERE).compile("cubin").get_kernel("where")
    s = cdev.create_stream()
    out = ember.zeros(16 * 32, dtype=ember.int32)
    cdev.sync()
    with pytest.raises(ValueError, match=r"cluster \(3, 1, 1\) does not "
                                         r"divide grid \(8, 1, 1\)"):
        core.launch(s, core.LaunchConfig(grid=8, block=32, cluster=3), k, out)
    with pytest.raises(ValueError, match=r"cluster \(1, 2, 1\) does not "
                                         r"divide grid \(8, 1, 1\)"):
        core.launch(s, core.LaunchConfig(grid=8, block=32, cluster=(1, 2)),
                    k, out)
    with pytest.raises(ValueError, match="cluster"):
        core.LaunchConfig(grid=8, block=32, cluster=0)
    if device == "cpu":
        # past CUDA's portable 8 blocks, which a GPU may allow
        with pytest.raises(ValueError, match="16 blocks; cpu allows at "
                                             "most 8"):
            core.launch(s, core.LaunchConfig(grid=16, block=32, cluster=16),
                        k, out)
    s.sync()
    assert not ember.asnumpy(out).any()      # nothing ran


def test_cluster_ranks_on_gpu(need_cuda):
    """The GPU sees the clusters: each block's rank in its cluster is
    blockIdx.x % cluster, past the portable 8 blocks too (an H100 runs
    16); without a cluster each block is alone."""
    with ember.Device("cuda:0"):
        d = core.Device(0)
        d.set_current()
        k = core.Program(CLUSTER_RANKS).compile("cubin").get_kernel("ranks")
        s = d.create_stream()
        rank = ember.full(32, 99, dtype=ember.uint32)
        size = ember.full(32, 99, dtype=ember.uint32)
        d.sync()
        if tuple(d.compute_capability) < (9, 0):
            with pytest.raises(NotImplementedError, match="9.0"):
                core.launch(s, core.LaunchConfig(grid=8, block=32, cluster=2),
                            k, rank, size)
            return
        for grid, cluster in ((8, 2), (32, 16), (8, 1)):
            core.launch(s, core.LaunchConfig(grid=grid, block=32,
                                             cluster=cluster), k, rank, size)
            s.sync()
            np.testing.assert_array_equal(ember.asnumpy(rank)[:grid],
                                          np.arange(grid) % cluster)
            np.testing.assert_array_equal(ember.asnumpy(size)[:grid],
                                          np.full(grid, cluster))


def test_cooperative_launch(cdev, device):
    """cooperative_launch=True runs every block (on cpu an ordinary
    launch, with a cluster too); on the GPU a kernel that synchronises its
    grid between two phases gives NumPy's result."""
    k = core.Program(WHERE).compile("cubin").get_kernel("where")
    s = cdev.create_stream()
    for cluster in (None, 2):
        out = ember.full(8 * 32, -1, dtype=ember.int32)
        cdev.sync()
        core.launch(s, core.LaunchConfig(grid=8, block=32, cluster=cluster,
                                         cooperative_launch=True), k, out)
        s.sync()
        np.testing.assert_array_equal(ember.asnumpy(out),
                                      _where_expected(8, 32))
    if device == "cpu":
        return
    opts = core.ProgramOptions(std="c++17", include_path=_cuda_include_dirs())
    k = core.Program(GRID_SYNC, options=opts).compile("cubin").get_kernel(
        "two_phase")
    n, block = 8 * 128, 128
    x = np.random.default_rng(7).random(n, dtype=np.float32)
    xa = ember.asarray(x)
    a = ember.zeros(n, dtype=ember.float32)
    out = ember.zeros(n, dtype=ember.float32)
    cdev.sync()
    core.launch(s, core.LaunchConfig(grid=n // block, block=block,
                                     cooperative_launch=True), k, xa, a, out,
                np.int32(n))
    s.sync()
    np.testing.assert_array_equal(ember.asnumpy(out),
                                  2 * x + 2 * np.roll(x, -block))


def test_kernel_call_cluster_and_cooperative_keywords(cdev, device):
    """The kernel call under launch() takes cluster= and cooperative= by
    keyword only."""
    k = ember.RawKernel(WHERE, "where")
    out = ember.full(8 * 32, -1, dtype=ember.int32)
    cdev.sync()
    k((8,), (32,), (out,), cluster=(2,), cooperative=True)
    k.__call__(8, 32, [out], cluster=None, cooperative=False)
    cdev.sync()
    np.testing.assert_array_equal(ember.asnumpy(out), _where_expected(8, 32))
    with pytest.raises(ValueError, match=r"cluster \(3, 1, 1\).*grid "
                                         r"\(8, 1, 1\)"):
        k(8, 32, (out,), cluster=3)
    with pytest.raises(TypeError, match="clusters"):
        k(8, 32, (out,), clusters=2)
    with pytest.raises(TypeError):
        k(8, 32, (out,), 0, None, 2)             # keyword only
    with pytest.raises(TypeError):
        k(8, 32, (out,), cluster="2")
    with pytest.raises(ValueError, match="1 to 3"):
        k(8, 32, (out,), cluster=(1, 1, 1, 1))


def test_ltoir(cdev, need_nvrtc):
    """compile('ltoir') is NVRTC's -dlto on every device: LTO-IR bytes for
    a linker, with no kernels of their own."""
    src = SCALE.replace("FACTOR", "1")
    oc = core.Program(src).compile("ltoir")
    assert oc.code_type == "ltoir"
    assert isinstance(oc.code, bytes) and len(oc.code) > 64
    assert oc.code[:4] == LTOIR_MAGIC
    with pytest.raises(ValueError, match="must be linked"):
        oc.get_kernel("scale")
    again = core.ObjectCode.from_ltoir(oc.code)
    assert again.code_type == "ltoir" and again.code == oc.code
    with pytest.raises(ValueError, match="must be linked"):
        again.get_kernel("scale")
    # cuda.core's spelling: the options that ask for LTO-IR
    lto = core.ProgramOptions(link_time_optimization=True, gen_opt_lto=True)
    assert core.Program(src, options=lto).compile("ltoir").code[:4] == \
        LTOIR_MAGIC
    with pytest.raises(ValueError, match="ltoir"):
        core.Program(src, options=lto).compile("cubin")
    # a name expression's instance is in the LTO-IR too
    plain = core.Program(VECTOR_ADD).compile("ltoir").code
    inst = core.Program(VECTOR_ADD).compile(
        "ltoir", name_expressions=("vector_add<float>",)).code
    assert len(inst) > len(plain)
    with pytest.raises(ember.CompileError):
        core.Program("__global__ void k( {").compile("ltoir")
    with pytest.raises(ember.CompileError, match="dlto"):
        core.Program(src, options=core.ProgramOptions(
            relocatable_device_code=False)).compile("ltoir")
    ptx = ember.cuda.Program(src).compile("ptx").code
    with pytest.raises(ValueError, match=r"C\+\+ source"):
        core.Program(ptx.decode(), code_type="ptx").compile("ltoir")


def test_name_expressions_instantiate_templates_in_the_code(need_nvrtc):
    """The bytes of a C++ Program compiled with name expressions hold the
    template instances under NVRTC's lowered names (vector_add<float> is
    _Z10vector_addIfEvPKT_S2_PS0_m); without them, no kernel at all."""
    prog = core.Program(VECTOR_ADD, code_type="c++")
    ptx = prog.compile("ptx", name_expressions=("vector_add<float>",
                                                "vector_add<double>")).code
    assert b".entry _Z10vector_addIfEvPKT_S2_PS0_m(" in ptx
    assert b".entry _Z10vector_addIdEvPKT_S2_PS0_m(" in ptx
    assert b".entry" not in prog.compile("ptx").code
    with pytest.raises(ember.CompileError):
        core.Program(VECTOR_ADD).compile(
            "ptx", name_expressions=("vector_add<no_such_type>",)).code


def _host_buffer(h):
    b = core.LegacyPinnedMemoryResource().allocate(h.nbytes)
    np.frombuffer(b._mem, h.dtype)[:] = h
    return b


def test_shared_memory(cdev):
    src = r"""
    extern "C" __global__ void rev(const int *in, int *out, int n)
    {
        extern __shared__ int tile[];
        int t = threadIdx.x;
        tile[t] = in[t];
        __syncthreads();
        out[t] = tile[n - 1 - t];
    }
    """
    k = core.Program(src).compile("ptx").get_kernel("rev")
    s = cdev.create_stream()
    x = ember.arange(32, dtype=ember.int32)
    y = ember.empty_like(x)
    cdev.sync()
    core.launch(s, core.LaunchConfig(grid=1, block=32, shmem_size=32 * 4), k,
                x, y, np.int32(32))
    s.sync()
    np.testing.assert_array_equal(ember.asnumpy(y), np.arange(32)[::-1])


def test_program_errors_and_options(cdev):
    with pytest.raises(ember.CompileError):
        core.Program("__global__ void k( {").compile("cubin")
    with pytest.raises(ValueError):
        core.Program(SCALE).compile("fatbin")
    assert core.Program(SCALE, options=core.ProgramOptions(
        define_macro="FACTOR=1")).compile("ltoir").code[:4] == LTOIR_MAGIC
    with pytest.raises(TypeError):
        core.Program(SCALE, options={"std": "c++17"})
    o = core.ProgramOptions(std="c++17", debug=True, lineinfo=True,
                            use_fast_math=True, define_macro=["TEST_FLAG_A", ("TEST_FLAG_B", "2")],
                            include_path=["/tmp"], max_register_count=32,
                            ftz=True, relocatable_device_code=False)
    opts = o._as_options()
    assert "--std=c++17" in opts and "-DTEST_FLAG_A" in opts and "-DTEST_FLAG_B=2" in opts
    assert "-I/tmp" in opts and "--maxrregcount=32" in opts
    assert "--ftz=true" in opts and "--use_fast_math" in opts
    k = core.Program(SCALE.replace("FACTOR", "1"), options=o).compile(
        "cubin").get_kernel("scale")
    x = ember.ones(4, dtype=ember.float32)
    s = cdev.create_stream()
    cdev.sync()
    core.launch(s, core.LaunchConfig(grid=1, block=4), k, x, np.float32(5),
                np.uint64(4))
    s.sync()
    np.testing.assert_array_equal(ember.asnumpy(x), np.full(4, 5, np.float32))
    with pytest.raises(AttributeError):
        core.Program(SCALE, options=core.ProgramOptions(
            define_macro="FACTOR=1")).compile("cubin").get_kernel("nope")


def test_object_code_from_ptx(cdev, device):
    src = 'extern "C" __global__ void one(int *a) { a[threadIdx.x] = 1; }'
    ptx = ember.cuda.Program(src).compile("ptx").code
    oc = core.ObjectCode.from_ptx(ptx)
    assert oc.code_type == "ptx" and oc.code == ptx
    if device == "cpu":
        with pytest.raises(ValueError, match="cpu"):
            oc.get_kernel("one")
        return
    k = oc.get_kernel("one")
    x = ember.zeros(8, dtype=ember.int32)
    s = cdev.create_stream()
    cdev.sync()
    core.launch(s, core.LaunchConfig(grid=1, block=8), k, x)
    s.sync()
    np.testing.assert_array_equal(ember.asnumpy(x), np.ones(8, np.int32))
    cubin = ember.cuda.Program(src).compile("cubin").code
    k2 = core.ObjectCode.from_cubin(cubin).get_kernel("one")
    assert k2.num_arguments == 1


def test_streams_and_events(cdev):
    s1 = cdev.create_stream()
    s2 = cdev.create_stream(options=core.StreamOptions(nonblocking=True))
    assert s1 != s2 and s1.handle != 0 and s1.__cuda_stream__() == (0, s1.handle)
    assert s1.device is cdev
    least, greatest = ember.cuda.runtime.deviceGetStreamPriorityRange()
    s3 = cdev.create_stream(options=core.StreamOptions(priority=-1))
    assert s3.priority == max(-1, greatest) and s1.priority == least == 0
    t = core.EventOptions(enable_timing=True)
    e0 = s1.record(options=t)
    x = ember.arange(100000, dtype=ember.float64)
    cdev.sync()
    with s1._s:
        y = (x * 2).sum()
    e1 = cdev.create_event(options=t)
    assert s1.record(e1) is e1
    e1.sync()
    assert e1.is_done and not e1.is_timing_disabled
    ms = e1 - e0
    assert isinstance(ms, float) and ms >= 0
    plain = s1.record()
    plain.sync()
    with pytest.raises(RuntimeError, match="enable_timing"):
        plain - e0
    s2.wait(e1)
    s2.wait(s1)
    s2.sync()
    assert float(y) == 2 * np.arange(100000.0).sum()
    with pytest.raises(NotImplementedError):
        cdev.create_event(options=core.EventOptions(support_ipc=True))
    with pytest.raises(RuntimeError):
        core.Stream()


def test_buffers(cdev, device):
    s = cdev.create_stream()
    mr = cdev.memory_resource
    assert isinstance(mr, core.DeviceMemoryResource)
    assert mr.device_id == cdev.device_id and mr.is_device_accessible
    assert mr.is_host_accessible == (device == "cpu")
    h = np.arange(16, dtype=np.int32)
    src = _host_buffer(h)
    assert src.is_host_accessible and src.size == 64
    d1 = cdev.allocate(64, stream=s)
    assert d1.handle != 0 and d1.size == 64 and d1.memory_resource is mr
    d1.copy_from(src, stream=s)
    d2 = d1.copy_to(stream=s)                   # a new buffer from mr
    assert d2.size == 64 and d2.handle != d1.handle
    back = _host_buffer(np.zeros(16, np.int32))
    d2.copy_to(back, stream=s)
    s.sync()
    np.testing.assert_array_equal(np.frombuffer(back._mem, np.int32), h)
    with pytest.raises(ValueError):
        d1.copy_to(stream=None)
    small = cdev.allocate(16)
    with pytest.raises(ValueError):
        small.copy_from(d1, stream=s)
    # DLPack: a 1-D int8 view of the bytes, on the buffer's device
    v = ember.from_dlpack(d2)
    assert v.shape == (64,) and v.dtype == ember.int8
    np.testing.assert_array_equal(ember.asnumpy(v).view(np.int32), h)
    assert d2.__dlpack_device__() == ember.asarray(h).__dlpack_device__()
    hv = np.from_dlpack(src)
    np.testing.assert_array_equal(hv.view(np.int32), h)
    d2.close()
    with pytest.raises(RuntimeError, match="closed"):
        d2.copy_to(stream=s)


def _cuda_core_program(cc, n=1000):
    """A vector add written only against cuda.core's API (host data through
    page-locked Buffers), run with whichever module is passed as cc."""
    import ctypes
    dev = cc.Device(0)
    dev.set_current()
    s = dev.create_stream()
    arch = "".join(str(i) for i in dev.compute_capability)
    prog = cc.Program(VECTOR_ADD, code_type="c++",
                      options=cc.ProgramOptions(std="c++17", arch=f"sm_{arch}"))
    k = prog.compile("cubin", name_expressions=("vector_add<float>",)
                     ).get_kernel("vector_add<float>")
    pinned = cc.LegacyPinnedMemoryResource()
    rng = np.random.default_rng(5)
    ha, hb = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    bufs = []
    for h in (ha, hb):
        pb = pinned.allocate(h.nbytes, stream=s)
        ctypes.memmove(int(pb.handle), h.ctypes.data, h.nbytes)
        db = dev.allocate(h.nbytes, stream=s)
        db.copy_from(pb, stream=s)
        bufs.append(db)
    dc = dev.allocate(ha.nbytes, stream=s)
    cc.launch(s, cc.LaunchConfig(grid=4, block=256), k, bufs[0], bufs[1], dc,
              np.uint64(n))
    hc = pinned.allocate(ha.nbytes, stream=s)
    dc.copy_to(hc, stream=s)
    s.sync()
    out = np.empty(n, np.float32)
    ctypes.memmove(out.ctypes.data, int(hc.handle), out.nbytes)
    return out, ha + hb


def test_program_written_for_cuda_core():
    out, expect = _cuda_core_program(core)
    np.testing.assert_array_equal(out, expect)


def test_same_results_as_installed_cuda_core(need_cuda):
    try:
        import cuda.core as real
        if not hasattr(real, "Device"):  # before 0.4: the experimental path
            from cuda.core import experimental as real
    except ImportError:
        pytest.skip("cuda.core is not installed")
    ours, expect = _cuda_core_program(core)
    theirs, _ = _cuda_core_program(real)
    np.testing.assert_array_equal(ours, theirs)
    np.testing.assert_array_equal(ours, expect)


def test_strided_memory_view(device):
    # cuda.core.utils' view: pointer, shape, element strides, dtype, device
    import ctypes
    from ember.cuda.core.utils import (StridedMemoryView,
                                       args_viewable_as_strided_memory)
    h = np.arange(24, dtype=np.int32).reshape(4, 6)
    v = StridedMemoryView(h, -1)
    assert (v.ptr, v.shape, v.strides, v.dtype) == \
        (h.ctypes.data, (4, 6), None, np.dtype(np.int32))
    assert v.device_id == -1 and not v.is_device_accessible and not v.readonly
    w = StridedMemoryView(h[:, ::2], -1)
    assert w.shape == (4, 3) and w.strides == (6, 2)
    ctypes.memmove(w.ptr + 4 * 2, np.int32(-7).tobytes(), 4)   # h[0, 2]
    assert h[0, 2] == -7
    ro = h.copy()
    ro.flags.writeable = False
    assert StridedMemoryView(ro, -1).readonly

    x = ember.asarray(np.arange(10, dtype=np.float64), device=device)
    on_gpu = device != "cpu"
    if on_gpu:
        with pytest.raises(BufferError, match="stream_ptr"):
            StridedMemoryView(x)
    s = ember.Stream(device=device)
    y = StridedMemoryView(x[::3], s.ptr)
    assert y.ptr == x.data.ptr and y.shape == (4,) and y.strides == (3,)
    assert y.is_device_accessible == on_gpu
    assert y.device_id == (ember.Device(device).id if on_gpu else -1)

    @args_viewable_as_strided_memory((0,))
    def first_and_size(arr, stream_ptr):
        view = arr.view(stream_ptr)
        assert isinstance(view, StridedMemoryView)
        return view.ptr, view.shape

    assert first_and_size(x, s.ptr) == (x.data.ptr, (10,))


def test_every_cuda_device_attribute(cdev):
    # cuda.core's show_device_properties example reads ~100 of them
    from ember.cuda._device_attributes import ATTRIBUTES
    p, d = cdev.properties, cdev._dev
    got = {n: getattr(p, n) for n in ATTRIBUTES}
    assert all(isinstance(v, int) for v in got.values())
    props = d.properties
    assert got["max_threads_per_block"] == props["maxThreadsPerBlock"]
    assert got["multiprocessor_count"] == props["multiProcessorCount"]
    assert got["warp_size"] == props["warpSize"] and got["max_grid_dim_y"] == \
        props["maxGridSize"][1]
    assert got["compute_capability_major"] == cdev.compute_capability[0]
    if d.type == "cpu":   # GPU features a cpu device has not
        assert got["ecc_enabled"] == got["managed_memory"] == 0
    assert ember.cuda.runtime.deviceGetAttribute(
        ATTRIBUTES["max_block_dim_x"], d.id) == props["maxThreadsDim"][0]
    with pytest.raises(ValueError, match="not a"):
        d.attribute(100000)
    with pytest.raises(TypeError):
        d.attribute(True)
    with pytest.raises(AttributeError, match="no_such_property"):
        p.no_such_property
    assert core.system.get_num_devices() == core.system.num_devices
