"""ember's Python layer: NumPy's and the Array API's composite functions,
written over ember's own functions and ufuncs (DESIGN.md, "Where C ends").

Each module holds one family. `import ember` imports only this table; a
name's module is imported on its first use (ember/__init__.py's
__getattr__ calls `load`), so the layer adds no import time, and NumPy is
never imported by it."""

# name -> the module of this package that defines it
_WHERE = {}
for _mod, _names in {
    "dispatch": "get_array_module",
    "indexing": "diag_indices diag_indices_from fill_diagonal indices ix_ place "
                "putmask "
                "ravel_multi_index tril_indices tril_indices_from triu_indices "
                "triu_indices_from unravel_index",
    "index_tricks": "c_ r_",
    "assign": "copyto",
    "average": "average",
    "arrayapi": "astype diff unstack",
    "dtype_info": "finfo finfo_t iinfo iinfo_t isdtype",
    "elementwise": "angle around clip deg2rad degrees divmod frexp imag modf "
                   "nan_to_num rad2deg radians real round",
    "namespace_info": "ArrayNamespaceInfo __array_namespace_info__",
    "compare": "allclose array_equal array_equiv isclose",
    "calculus": "convolve correlate ediff1d fix gradient i0 interp sinc trapezoid "
                "unwrap vander",
    "window": "bartlett blackman hamming hanning kaiser",
    "manip": "append asfortranarray broadcast delete insert repeat resize "
             "rollaxis tile trim_zeros",
    "typecheck": "iscomplex iscomplexobj isfortran isreal isrealobj isscalar ndim "
                 "real_if_close shape size",
    "histogramdd": "histogramdd",
    "histograms": "bincount digitize histogram histogram2d "
                  "histogram_bin_edges",
    "einsum": "einsum",
    "ranges": "geomspace linspace logspace",
    "creation": "arange copy empty_like full_like meshgrid ones_like zeros_like",
    "matrices": "diag diagflat eye identity trace tri tril triu",
    "joining": "atleast_1d atleast_2d atleast_3d column_stack concat concatenate "
               "dstack hstack stack vstack",
    "flipping": "flip fliplr flipud roll rot90",
    "views": "broadcast_arrays broadcast_shapes diagonal expand_dims moveaxis "
             "permute_dims ravel reshape squeeze swapaxes transpose",
    "pad": "pad",
    "quantiles": "median nanmedian nanpercentile nanquantile percentile "
                 "quantile",
    "sets": "in1d intersect1d isin setdiff1d setxor1d union1d unique unique_all "
            "unique_counts unique_inverse unique_values",
    "sorting": "argpartition argsort lexsort partition searchsorted sort",
    "products": "dot inner matmul matrix_transpose outer tensordot vdot "
                "vecdot",
    "cumulative": "cumprod cumsum cumulative_prod cumulative_sum nancumprod "
                  "nancumsum",
    "nanfunctions": "nanmax nanmean nanmin nanstd nanvar ptp",
    "promotion": "can_cast promote_types",
    "selection": "argwhere choose compress extract flatnonzero nonzero put "
                 "put_along_axis select take take_along_axis where",
    "splitting": "array_split dsplit hsplit split vsplit",
    "vectorize": "vectorize",
    "guvectorize": "guvectorize",
    "ufunc_reduce": "reduce",
    "program": "ObjectCode Program",
    "rawmodule": "RawModule",
    "wrappers": "In InOut Out",
    "stats": "std var",
    "sysinfo": "info",
    "memorypool": "MemoryPool get_default_memory_pool",
    "device_info": "ComputeCapability MemInfo",
    "devices": "backend_status cuda_is_available get_device",
    "timing": "get_elapsed_time",
    "dlpack": "from_dlpack",
    "interop": "asnumpy",
    "fusion": "fuse fusion",
    "covariance": "corrcoef cov",
    "vector_products": "cross kron matvec vecmat",
    "real_float": "fabs isneginf isposinf",
    "complex_sort": "sort_complex",
    "bits": "bitwise_count packbits unpackbits",
    "functional": "apply_along_axis apply_over_axes mask_indices piecewise",
    "block": "block row_stack",
    "emath": "emath",
    "fromdata": "asanyarray asarray_chkfinite frombuffer fromfile fromfunction "
                "fromiter fromregex fromstring require",
    "grids": "index_exp iterable mgrid ndenumerate ndindex ogrid s_",
    "npyio": "genfromtxt load loadtxt save savetxt savez savez_compressed",
    "array_print": "array2string array_repr array_str",
    "printing": "base_repr binary_repr format_float_positional "
                "format_float_scientific get_printoptions printoptions "
                "set_printoptions",
    "fperr": "errstate getbufsize geterr geterrcall setbufsize seterr seterrcall",
    "scalar_types": "False_ ScalarType True_ bytes_ character common_type "
                    "complexfloating flexible floating generic inexact integer "
                    "issubdtype min_scalar_type mintypecode number object_ "
                    "sctypeDict signedinteger str_ typecodes typename "
                    "unsignedinteger void",
    "memshare": "may_share_memory shares_memory",
    "showinfo": "show_config show_runtime",
    "polynomial_legacy": "poly polyadd polyder polydiv polyfit polyint "
                         "polymul polysub polyval roots",
    "poly1d": "poly1d",
}.items():
    for _name in _names.split():
        _WHERE[_name] = _mod
del _mod, _names, _name

__all__ = sorted(_WHERE)


def load(name):
    """The object `name` of this layer (its module imported on first use)."""
    mod = __import__("ember._api." + _WHERE[name], fromlist=[name])
    return getattr(mod, name)
