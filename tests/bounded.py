"""Running code under a memory cap and a time limit, so that a regression fails instead of
hanging CI or eating the machine (the reliability tests of issue #19 use these).

``run_cli`` runs ``sandtable`` in a child process with ``RLIMIT_AS`` set and a subprocess
timeout; ``deadline`` bounds in-process code with ``signal.alarm`` (pytest-timeout is not a
dependency). A blown limit shows up as a ``MemoryError`` line or a timeout failure, never
as a stuck run.
"""
from __future__ import annotations

import contextlib
import os
import resource
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MEMORY_MB = 1536  # address space: Python, numpy and jsonschema need about 600 MB of it


def _cap(memory_mb: int, as_in_a_terminal: bool = False):
    def apply():
        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        if as_in_a_terminal:
            # A shell's background job inherits SIGINT ignored, and Python then never raises
            # KeyboardInterrupt: the child would run on, deaf to the test's Ctrl-C.
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
    return apply


def run_cli(*argv, timeout: float = 30, memory_mb: int = MEMORY_MB, cwd=None, env=None,
            send_signal: tuple | None = None, signal_delay: float = 1.0,
            to_group: bool = False) -> subprocess.CompletedProcess:
    """``sandtable ARGV`` in a child process capped at memory_mb of address space and timeout seconds.

    send_signal=(after_seconds, signum) delivers a signal to the child after a delay (to test
    clean-up on SIGTERM or SIGINT); after may also be a condition on the child's pid, then the
    signal comes signal_delay seconds after it first holds; to_group sends it to the child's whole
    process group, as a terminal's Ctrl-C does. The result is whatever the child did.
    """
    environment = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", PYTHONFAULTHANDLER="1",
                       **(env or {}))
    cmd = [sys.executable, "-m", "sandtable", *[str(a) for a in argv]]
    if send_signal is None:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=cwd, env=environment,
                              preexec_fn=_cap(memory_mb), stdin=subprocess.DEVNULL)
    # Its own process group, so that whatever happens its workers never outlive the test.
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd,
                            env=environment, preexec_fn=_cap(memory_mb, as_in_a_terminal=True),
                            stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        result = _signalled(proc, cmd, send_signal, timeout, signal_delay, to_group)
        survivors = _group_lingers(proc.pid)
    finally:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
    assert not survivors, f"sandtable {' '.join(map(str, argv))}: its worker processes outlived it"
    return result


def _group_lingers(pgid: int, grace: float = 5.0) -> bool:
    """Whether processes of the group still run ``grace`` seconds after its leader ended
    (zombies waiting for init to reap them have ended)."""
    end = time.monotonic() + grace
    while time.monotonic() < end:
        if not _running_in_group(pgid):
            return False
        time.sleep(0.1)
    return True


def _running_in_group(pgid: int) -> bool:
    if not Path("/proc/self/stat").exists():
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return False
        return True
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            if int(fields[2]) == pgid and fields[0] != "Z":  # state, ppid, pgrp
                return True
    return False


def _signalled(proc, cmd, send_signal, timeout, signal_delay, to_group=False) -> subprocess.CompletedProcess:
    after, signum = send_signal
    if callable(after):  # a condition on the child's pid: signal as soon as it holds (or at the timeout)
        start = time.monotonic()
        while proc.poll() is None and not after(proc.pid) and time.monotonic() - start < timeout:
            time.sleep(0.1)
        after = signal_delay
    try:
        out, err = proc.communicate(timeout=after)
    except subprocess.TimeoutExpired:
        if to_group:  # as Ctrl-C in a terminal: the whole foreground group, workers included
            os.killpg(proc.pid, signum)
        else:
            proc.send_signal(signum)
        out, err = proc.communicate(timeout=timeout)
    return subprocess.CompletedProcess(cmd, proc.returncode, out, err)


def has_children(pid: int) -> bool:
    """Whether a process has started child processes (Linux /proc; False elsewhere)."""
    try:
        return any(Path(f"/proc/{pid}/task/{t}/children").read_text().strip()
                   for t in os.listdir(f"/proc/{pid}/task"))
    except OSError:
        return False


def run_python(code: str, timeout: float = 30, memory_mb: int = MEMORY_MB) -> subprocess.CompletedProcess:
    """A Python snippet in a capped child process (for library calls that could blow up)."""
    environment = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout,
                          env=environment, preexec_fn=_cap(memory_mb), stdin=subprocess.DEVNULL, cwd=ROOT)


class Timeout(Exception):
    pass


@contextmanager
def deadline(seconds: int):
    """Fail (raise Timeout) if the block runs longer than seconds: a hang becomes a test failure."""
    def fire(signum, frame):
        raise Timeout(f"still running after {seconds} s")
    previous = signal.signal(signal.SIGALRM, fire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def assert_clean(result: subprocess.CompletedProcess, codes=(0, 1, 2)) -> None:
    """No traceback, no MemoryError, an exit code from the documented set."""
    text = result.stdout + result.stderr
    assert "Traceback" not in text and "MemoryError" not in text, text[-3000:]
    assert result.returncode in codes, (result.returncode, text[-3000:])
