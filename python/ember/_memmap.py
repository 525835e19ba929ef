"""ember.memmap: NumPy's memmap, an array over the bytes of a file.

On cpu the array is a zero-copy view of the mapping: what it is assigned
reaches the file (flush() forces it out), and it sees what others write to
the file. A GPU cannot map a file, so on a CUDA device only the two modes
whose writes never reach the file exist there, as an uploaded copy of the
file's bytes: 'r' (read-only) and 'c' (copy-on-write); 'r+' and 'w+' raise.
The default device is cpu whatever the current device is, because a
mapping is host memory; device= asks for the copy."""
import mmap
import operator
import os
import pathlib

import ember as _e

_MODES = {"readonly": "r", "copyonwrite": "c", "readwrite": "r+", "write": "w+"}
_VALID = ["r", "c", "r+", "w+"]


class memmap(_e.ndarray):
    """memmap(filename, dtype=uint8, mode='r+', offset=0, shape=None,
    order='C', *, device='cpu'): NumPy's memmap. filename is a path or an
    open binary file; attributes filename, offset and mode as NumPy's."""

    def __new__(cls, filename, dtype=_e.uint8, mode="r+", offset=0, shape=None,
                order="C", *, device="cpu"):
        mode = _MODES.get(mode, mode)
        if mode not in _VALID:
            raise ValueError(f"mode must be one of {_VALID + list(_MODES)!r} "
                             f"(got {mode!r})")
        if mode == "w+" and shape is None:
            raise ValueError("shape must be given if mode == 'w+'")
        if order not in ("C", "F"):
            raise ValueError(f"order must be 'C' or 'F', not {order!r}")
        dev = _e.Device(device)
        on_gpu = dev.type != "cpu"
        if on_gpu and mode not in ("r", "c"):
            raise ValueError(
                f"memmap(mode={mode!r}) on {dev}: a GPU cannot map a file, so "
                "writes could not reach it; use device='cpu', or mode 'r' or "
                "'c' for a copy of the file's bytes on the GPU")
        itemsize = _e.dtype(dtype).itemsize
        if hasattr(filename, "read"):
            fid, own = filename, False
        else:
            fid, own = open(os.fspath(filename), ("r" if mode == "c" else mode) + "b"), True
        try:
            fid.seek(0, 2)
            flen = fid.tell()
            if shape is None:
                nbytes = flen - offset
                if nbytes % itemsize:
                    raise ValueError("Size of available data is not a multiple "
                                     "of the data-type size.")
                shape = (nbytes // itemsize,)
            elif not isinstance(shape, (tuple, list)):
                shape = (operator.index(shape),)
            shape = tuple(operator.index(n) for n in shape)
            size = 1
            for n in shape:
                size *= n
            end = offset + size * itemsize
            if mode in ("r+", "w+") and flen < max(end, 1):
                # grow the file to the mapped length, as NumPy does (one
                # byte at least: an empty mapping would map the whole file)
                fid.seek(max(end, 1) - 1)
                fid.write(b"\0")
                fid.flush()
            # mmap's offset must be a multiple of the allocation granularity
            start = offset - offset % mmap.ALLOCATIONGRANULARITY
            length = max(end, 1) - start if mode in ("r+", "w+") else end - start
            if length == 0 and start > 0:
                length += mmap.ALLOCATIONGRANULARITY
                start -= mmap.ALLOCATIONGRANULARITY
            acc = {"r": mmap.ACCESS_READ, "c": mmap.ACCESS_COPY}.get(mode, mmap.ACCESS_WRITE)
            mm = mmap.mmap(fid.fileno(), length, access=acc, offset=start)
            name = (os.path.abspath(fid.name)
                    if isinstance(getattr(fid, "name", None), str) else None)
        finally:
            if own:
                fid.close()
        skip = offset - start
        raw = memoryview(mm)[skip:skip + size * itemsize]
        if on_gpu:
            # the bytes uploaded, the mapping closed: nothing maps the file
            flat = _e.asarray(raw, device=dev, copy=True)
            raw = mm = None
        else:
            flat = _e.asarray(raw, device=dev, copy=False)
        self = flat.view(_e.dtype(dtype)).reshape(shape, order=order).view(cls)
        if on_gpu and mode == "r":
            self.setflags(write=False)
        self._mmap = mm
        # NumPy keeps a path-like's type (resolved), else the absolute name
        self.filename = (pathlib.Path(filename).resolve()
                         if isinstance(filename, os.PathLike) else name)
        self.offset = offset
        self.mode = mode
        return self

    def __array_finalize__(self, obj):
        # a view of a memmap maps the same file (ember makes this call for
        # views only; new results are plain ember arrays)
        self._mmap = getattr(obj, "_mmap", None)
        self.filename = getattr(obj, "filename", None)
        self.offset = getattr(obj, "offset", None)
        self.mode = getattr(obj, "mode", None)

    def flush(self):
        """Write the array's changes out to the file (after the work queued
        on the array's device has finished)."""
        if self._mmap is not None:
            self.device.synchronize()
            if self.mode in ("r+", "w+"):
                self._mmap.flush()
