"""cuda.core.experimental's path to ember.cuda.core's names (programs
written for cuda.core before 0.3 import from here)."""
from ember.cuda.core import *  # noqa: F401,F403
from ember.cuda.core import __all__  # noqa: F401
from ember.cuda.core import system  # noqa: F401
