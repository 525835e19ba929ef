"""ember.get_elapsed_time: ember.cuda.stream's (imported with ember)."""
from ember.cuda.stream import get_elapsed_time

__all__ = ["get_elapsed_time"]
