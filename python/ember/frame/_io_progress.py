"""The progress bar of long reads."""
import sys
import time


class Progress:
    """A tqdm bar (when tqdm is installed and stderr is a terminal) that
    shows itself once a read has taken a second."""

    def __init__(self, total):
        self.total, self.done, self.bar = total, 0, None
        self.t0 = time.monotonic()

    def update(self, n):
        self.done += n
        if self.bar is not None:
            self.bar.update(n)
        elif time.monotonic() - self.t0 > 1.0 and sys.stderr.isatty():
            try:
                from tqdm import tqdm
            except ImportError:
                return
            self.bar = tqdm(total=self.total, unit="B", unit_scale=True,
                            desc="read_csv", file=sys.stderr)
            self.bar.update(self.done)

    def close(self):
        if self.bar is not None:
            self.bar.close()
