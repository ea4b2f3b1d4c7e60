"""A real Dask cluster on this machine, for the tests and the benchmark: one ``dask
scheduler`` and N ``dask worker`` processes on 127.0.0.1, on free ports, always torn down.

These are the same commands a cluster of several machines runs (docs/balance-lab.md);
only the addresses differ.
"""
from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_port(port: int, proc: subprocess.Popen, deadline: float) -> None:
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the dask scheduler exited with code {proc.returncode}")
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            s.settimeout(0.5)
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise TimeoutError(f"the dask scheduler did not listen on port {port} in time")


def _stop(proc: subprocess.Popen) -> None:
    """End a process we started, and its children (its own session), by its id."""
    if proc.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


# A worker's statistical profiler samples the task thread's stack every 10 ms, taking the
# interpreter lock each time: for pure-Python tasks such as games it costs CPU for nothing.
WORKER_ENV = {"DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED": "False"}


@contextlib.contextmanager
def local_cluster(workers: int = 2, threads: int = 1, timeout: float = 90.0, profile: bool = False):
    """Yield the scheduler address (tcp://127.0.0.1:PORT) once ``workers`` workers joined."""
    from distributed import Client
    dask = [sys.executable, "-m", "dask"]
    procs: list[subprocess.Popen] = []
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    deadline = time.monotonic() + timeout
    with tempfile.TemporaryDirectory(prefix="sandtable-dask-") as tmp:
        logs = Path(tmp)
        try:
            procs.append(subprocess.Popen(
                [*dask, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
                stdout=subprocess.DEVNULL, stderr=open(logs / "scheduler.log", "wb"), start_new_session=True))
            _wait_port(port, procs[0], deadline)
            for i in range(workers):
                procs.append(subprocess.Popen(
                    [*dask, "worker", address, "--host", "127.0.0.1", "--nthreads", str(threads), "--nworkers", "1",
                     "--no-dashboard", "--no-nanny", "--name", f"w{i}", "--local-directory", str(logs / f"w{i}")],
                    stdout=subprocess.DEVNULL, stderr=open(logs / f"worker{i}.log", "wb"), start_new_session=True,
                    env={**os.environ, **({} if profile else WORKER_ENV)}))
            with Client(address, timeout=max(5.0, deadline - time.monotonic()), set_as_default=False) as client:
                client.wait_for_workers(workers, timeout=max(5.0, deadline - time.monotonic()))
            yield address
        finally:
            for proc in reversed(procs):
                _stop(proc)
