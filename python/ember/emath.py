"""`import ember.emath` (numpy.emath's spelling): the module is
ember._api.emath, which `ember.emath` names too, so both are one object."""
import sys

from ember._api import emath as _impl

sys.modules[__name__] = _impl
