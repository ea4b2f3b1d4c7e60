"""Batch workers and Ctrl-C: a worker forked while the parent holds SIGINT back (workers.sigint_held)
starts with it blocked, so a Ctrl-C sent to the process group while the pool forks cannot reach a
child before it ignores it (it reached Python's after-fork hooks and printed a KeyboardInterrupt
traceback); once worker_signals ignores it, it is let through."""
import multiprocessing
import signal
import sys

import pytest

from sandtable.rules.workers import sigint_held, worker_signals

pytestmark = pytest.mark.skipif(not hasattr(signal, "pthread_sigmask") or sys.platform == "win32",
                                reason="signal masks are POSIX")


def _report(queue):
    before = signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, set())
    worker_signals()
    after = signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, set())
    queue.put((before, after, signal.getsignal(signal.SIGINT) is signal.SIG_IGN))


def test_a_worker_forked_with_sigint_held_starts_with_it_blocked_and_ignores_it_before_letting_it_through():
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    with sigint_held():
        assert signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, set())
        child = ctx.Process(target=_report, args=(queue,))
        child.start()
    assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, set())  # the parent's mask restored
    blocked_at_start, blocked_after, ignored = queue.get(timeout=30)
    child.join(30)
    assert (blocked_at_start, blocked_after, ignored) == (True, False, True)


def test_a_ctrl_c_that_came_while_held_reaches_the_parent_once_released():
    # Python's own handler, whatever the suite was started with: a background job (nohup, `&`)
    # inherits SIGINT ignored, and an ignored signal is dropped on release, held or not
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            with sigint_held():
                signal.raise_signal(signal.SIGINT)  # pending while held
                pending = signal.SIGINT in signal.sigpending()
            pytest.fail("not delivered on release")  # pragma: no cover
    finally:
        signal.signal(signal.SIGINT, previous)
    assert pending
