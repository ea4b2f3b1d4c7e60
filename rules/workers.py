"""What every worker process of a batch does first (the lab's runner, rules/lab/batch.py; a
ruleset's engine has no batch of its own)."""
from __future__ import annotations

import signal
import sys


def worker_signals() -> None:
    """A pool worker leaves Ctrl-C to its parent (which terminates the pool: no traceback per
    worker), dies at once on SIGTERM, and on Linux dies with its parent even if that one is
    killed outright (else it plays on through the tasks already queued to it)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if sys.platform.startswith("linux"):
        try:
            import ctypes
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
