"""NumPy's files: save, load (.npy, .npz, pickles), savez,
savez_compressed, savetxt, loadtxt and genfromtxt. The formats are
NumPy's, so NumPy's own readers and writers do the file work on host
copies; what is read becomes ember arrays on the current device, or on
device= (not NumPy's). On cpu an array NumPy made is taken without a
copy, so `load(..., mmap_mode='r')` there gives an ember array over the
mapped file."""
from collections.abc import Mapping

from ember import _ember as _e
from ember._api.interop import _numpy, to_numpy


def _np():
    return _numpy("reading and writing NumPy's files")


def _host(x):
    return to_numpy(x) if isinstance(x, _e.ndarray) else x


def _to_ember(x, device):
    np = _np()
    if isinstance(x, np.ndarray):
        return _e.asarray(x, device=device)
    if isinstance(x, (list, tuple)):   # unpack=True: one array per column
        return type(x)(_to_ember(v, device) for v in x)
    return x


def _device(device, like):
    if device is None and isinstance(like, _e.ndarray):
        return like.device
    return device


def save(file, arr, allow_pickle=True):
    """One array to a .npy file (the name gets '.npy' when it lacks it)."""
    _np().save(file, _host(arr), allow_pickle=allow_pickle)


def savez(file, *args, allow_pickle=True, **kwds):
    """Several arrays to an uncompressed .npz: positional ones as arr_0,
    arr_1, ..., keyword ones under their names."""
    _np().savez(file, *map(_host, args), allow_pickle=allow_pickle,
                **{k: _host(v) for k, v in kwds.items()})


def savez_compressed(file, *args, allow_pickle=True, **kwds):
    _np().savez_compressed(file, *map(_host, args), allow_pickle=allow_pickle,
                           **{k: _host(v) for k, v in kwds.items()})


class NpzFile(Mapping):
    """NumPy's NpzFile with ember arrays for values: each array is read and
    put on the device when its key is looked up (as NumPy reads lazily).
    Close it, or use it in a `with` block."""

    def __init__(self, npz, device):
        self._npz = npz
        self._device = device
        self.files = npz.files
        self.zip = npz.zip
        self.fid = npz.fid
        self.allow_pickle = npz.allow_pickle

    def __getitem__(self, key):
        return _to_ember(self._npz[key], self._device)

    def __iter__(self):
        return iter(self.files)

    def __len__(self):
        return len(self.files)

    def __contains__(self, key):
        return key in self._npz

    @property
    def f(self):
        """npz.f.name is npz['name'], as NumPy's BagObj."""
        owner = self

        class _Bag:
            def __getattribute__(self, key):
                try:
                    return owner[key]
                except KeyError:
                    raise AttributeError(key) from None

            def __dir__(self):
                return list(owner.files)
        return _Bag()

    def close(self):
        self._npz.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return repr(self._npz).replace("NpzFile", "ember NpzFile", 1)


def load(file, mmap_mode=None, allow_pickle=False, fix_imports=True,
         encoding="ASCII", *, max_header_size=10000, device=None):
    """A .npy file's array, an .npz file's NpzFile of arrays, or (with
    allow_pickle=True) a pickle's object, as NumPy's load; arrays as ember
    arrays. An object array has no ember dtype: TypeError."""
    np = _np()
    out = np.load(file, mmap_mode=mmap_mode, allow_pickle=allow_pickle,
                  fix_imports=fix_imports, encoding=encoding,
                  max_header_size=max_header_size)
    if isinstance(out, np.lib.npyio.NpzFile):
        return NpzFile(out, device)
    return _to_ember(out, device)


def savetxt(fname, X, fmt="%.18e", delimiter=" ", newline="\n", header="",
            footer="", comments="# ", encoding=None):
    _np().savetxt(fname, _host(X), fmt=fmt, delimiter=delimiter, newline=newline,
                  header=header, footer=footer, comments=comments,
                  encoding=encoding)


def loadtxt(fname, dtype=float, *args, like=None, device=None, **kwargs):
    """NumPy's loadtxt (all its arguments); the table as an ember array,
    or one per column with unpack=True."""
    return _to_ember(_np().loadtxt(fname, dtype, *args, **kwargs),
                     _device(device, like))


def genfromtxt(fname, dtype=float, *args, like=None, device=None, **kwargs):
    """NumPy's genfromtxt (all its arguments) as an ember array; missing
    values become the filling values (NaN for floats). ember has no
    masked arrays: usemask=True is a NotImplementedError."""
    if kwargs.get("usemask") or (len(args) > 16 and args[16]):
        raise NotImplementedError("ember has no masked arrays: genfromtxt's "
                                  "usemask=True is not supported")
    return _to_ember(_np().genfromtxt(fname, dtype, *args, **kwargs),
                     _device(device, like))
