"""ember.scipy's own kernels (python/ember/scipy/kernels/*.cuh): each file
compiled once per device through RawModule (C++ templates instantiated by
name expressions), and one launch shape, a grid-stride 1-D grid over n
items, for every module of the layer."""
import pathlib
import re

import ember as _e

_DIR = pathlib.Path(__file__).parent / "kernels"
_modules = {}
_INCLUDE = re.compile(r'^#include "([\w.]+)"$', re.M)


def source(file):
    """kernels/`file`'s text with its #include "x.cuh" lines replaced by
    those files (RawModule compiles one string, on both backends)."""
    return _INCLUDE.sub(lambda m: source(m.group(1)),
                        (_DIR / file).read_text())


def function(dev, file, name, name_expressions=()):
    """Kernel `name` of kernels/`file`, compiled for dev on first use.
    One module a file and device holds every template instance asked of
    it so far: a call that names an instance the module lacks compiles
    it again with the union (else a file's plain kernel, used first,
    would leave its templates out: spline_filter before map_coordinates
    did)."""
    key = (str(dev), file)
    m, have = _modules.get(key, (None, frozenset()))
    want = have | frozenset(name_expressions)
    if m is None or want != have:
        kw = {"name_expressions": tuple(sorted(want))} if want else {}
        with dev:
            m = _e.RawModule(code=source(file), **kw)
        _modules[key] = (m, want)
    return m.get_function(name)


def launch(dev, file, name, n, args, threads=256, name_expressions=()):
    """Runs the kernel on dev over n items (at least one block, at most
    65,536: the kernels stride over the rest)."""
    blocks = max(1, min((n + threads - 1) // threads, 65536))
    with dev:
        function(dev, file, name, name_expressions)((blocks,), (threads,),
                                                    args)


def launch_tiles(dev, file, name, tiles, block, shared, args,
                 name_expressions=()):
    """Runs a tiled kernel on dev: one block of `block` threads a tile (at
    most 65,536 blocks, which stride over the rest) with `shared` bytes of
    dynamic shared memory.

    Both devices take the same tiled schedules. The host backend runs
    these blocks in its block simulator (each thread a fiber), which
    checks them on cpu, and they measured faster there than the one-thread-
    an-output kernels they replace (convolve2d of 1024^2 float32 by 5x5 on
    2 shared cores: 27 ms against 80 ms; 31x31: 0.55 s against 1.09 s)
    or as fast (gaussian_filter of 1024^2 float32, sigma 4: 0.30 s both):
    the tile keeps a block's reads in cache and the boundary off the inner
    loop, which pays for the fiber switches at each barrier."""
    blocks = max(1, min(tiles, 65536))
    with dev:
        function(dev, file, name, name_expressions)(
            (blocks,), tuple(block), args, shared_mem=shared)
