"""What every worker process of a batch does first (the lab's runner, rules/lab/batch.py; a
ruleset's engine has no batch of its own)."""
from __future__ import annotations

import signal
import sys
from contextlib import contextmanager


def worker_signals() -> None:
    """A pool worker leaves Ctrl-C to its parent (which terminates the pool: no traceback per
    worker), dies at once on SIGTERM, and on Linux dies with its parent even if that one is
    killed outright (else it plays on through the tasks already queued to it)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):  # forked under sigint_held: ignored now, so let it through
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    if sys.platform.startswith("linux"):
        try:
            import ctypes
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass


@contextmanager
def sigint_held():
    """Ctrl-C held back (SIGINT blocked in this thread) while a pool forks its workers. A child
    starts with it blocked and lets it through only once it ignores it (worker_signals): a Ctrl-C
    sent to the process group while a worker was being forked reached the child before its
    initializer, in Python's after-fork hooks, which printed 'Exception ignored in
    <function _releaseLock>' and a KeyboardInterrupt traceback. The parent gets a Ctrl-C that
    came meanwhile as soon as this ends. Threads started meanwhile (the pool's) keep it blocked:
    the main thread takes it. Where signals cannot be blocked (Windows), nothing is held."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)
