"""ember.ma: numpy.ma's masked arrays over ember arrays (a data array and
a bool mask on one device); see docs/arrays.md, "Masked arrays (ember.ma)"."""
from ember.ma.core import (  # noqa: F401
    MaskedArray, MaskedConstant, MaskError, MAError, MaskType, nomask, masked,
    masked_singleton, default_fill_value, isMaskedArray, isMA, isarray, getmask,
    getmaskarray, getdata, is_masked, filled, compressed, asanyarray, asarray,
    harden_mask, soften_mask)
from ember.ma.constructors import (  # noqa: F401
    masked_array, array, make_mask, make_mask_none, mask_or, masked_where,
    masked_equal, masked_not_equal, masked_greater, masked_greater_equal,
    masked_less, masked_less_equal, masked_inside, masked_outside, masked_invalid,
    masked_values, masked_object)
from ember.ma import ufuncs as _ufuncs
from ember.ma.reductions import (  # noqa: F401
    count, sum, prod, product, min, max, amin, amax, ptp, argmin, argmax, any, all,
    alltrue, sometrue, mean, var, std, cumsum, cumprod, average, median)
from ember.ma.shape import (  # noqa: F401
    reshape, ravel, transpose, expand_dims, anom, anomalies, concatenate, where,
    zeros, ones, empty, arange, nonzero, sort, argsort)

globals().update(_ufuncs.MODULE_UFUNCS)
