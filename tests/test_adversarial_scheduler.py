"""Issue #29, class 5: a --scheduler that is not a usable Dask scheduler is one line, in bounded
time: a peer that accepts and never answers, an HTTP server, garbage, a closed port, another
scheme, a scheduler without workers. Every fake peer listens on loopback only."""
from __future__ import annotations

import contextlib
import socket
import threading
import time

import pytest

from bounded import deadline
from sandtable.cli import main
from sandtable.rules.lab.scheduler import address_problem

pytest.importorskip("distributed")
SMALL = ["sweep", "III", "--vary", "scenario:gazala/conditions/turns=11", "--games", "1", "--bots", "random,random",
         "--no-progress", "--no-charts", "--connect-timeout", "2"]


@contextlib.contextmanager
def fake_peer(reply: bytes | None, close: bool = False):
    """A loopback server: accepts, then sends reply (None: nothing, ever) and maybe closes."""
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    held, stop = [], threading.Event()

    def serve():
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            held.append(conn)
            with contextlib.suppress(OSError):
                conn.settimeout(0.5)
                with contextlib.suppress(OSError):
                    conn.recv(65536)
                if reply is not None:
                    conn.sendall(reply)
                if close:
                    conn.close()
    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        stop.set()
        thread.join(2)
        for c in held:
            c.close()
        server.close()


def run(capsys, tmp_path, address: str) -> tuple[int, str, float]:
    start = time.monotonic()
    with deadline(30):
        code = main([*SMALL, "--scheduler", address, "-o", str(tmp_path / "s")])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err and "internal error" not in err, err
    return code, err, time.monotonic() - start


@pytest.mark.parametrize("reply, close, words", [
    (None, False, "no answer"),  # accepts and never answers
    (b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n", True, "Dask scheduler"),
    (b"\x00\xff" * 4000, False, "Dask scheduler"),  # garbage
    (b"", True, "Dask scheduler"),  # accepts and hangs up
])
def test_a_peer_that_is_not_a_scheduler_is_one_line(capsys, tmp_path, reply, close, words):
    with fake_peer(reply, close) as address:
        code, err, seconds = run(capsys, tmp_path, address)
    assert code == 1 and words in err and err.strip().count("\n") == 0, err
    assert seconds < 10


def test_an_http_server(capsys, tmp_path):
    import http.server
    server = http.server.HTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        code, err, seconds = run(capsys, tmp_path, f"tcp://127.0.0.1:{server.server_port}")
    finally:
        server.shutdown()
        server.server_close()
    assert code == 1 and "scheduler" in err and seconds < 10


@pytest.mark.parametrize("address, words", [
    ("ucx://127.0.0.1:8786", "scheme"), ("inproc://x", "scheme"), ("http://127.0.0.1:80", "scheme"),
    ("tls://127.0.0.1:8786", "TLS settings"), ("tcp://127.0.0.1:99999", "port"), ("garbage", "HOST:PORT"),
    ("tcp://127.0.0.1:0", "port"), ("tcp://" + "a" * 500 + ":1", None),
])
def test_addresses(address, words):
    why = address_problem(address)
    assert (why is None) if words is None else (words in why)


def test_other_schemes_are_usage_errors(capsys, tmp_path):
    code, err, seconds = run(capsys, tmp_path, "ucx://127.0.0.1:8786")
    assert code == 2 and "scheme" in err and not (tmp_path / "s").exists()


def test_a_scheduler_without_workers(capsys, tmp_path):
    import subprocess
    import sys

    from sandtable.rules.lab.cluster import _stop, _wait_port, free_port
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "dask", "scheduler", "--host", "127.0.0.1", "--port", str(port),
                             "--no-dashboard"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    try:
        _wait_port(port, proc, time.monotonic() + 60)
        code, err, seconds = run(capsys, tmp_path, f"tcp://127.0.0.1:{port}")
    finally:
        _stop(proc)
    assert code == 1 and "no worker joined" in err and seconds < 15


def test_workers_that_leave_mid_sweep_end_it_in_one_line(tmp_path):
    """The only worker is killed while the sweep runs: the sweep says so within the connect timeout
    (the finished games kept) instead of waiting for ever."""
    import signal
    import subprocess
    import sys

    from bounded import assert_clean, run_cli
    from sandtable.rules.lab.cluster import _stop, _wait_port, free_port
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    scheduler = subprocess.Popen([sys.executable, "-m", "dask", "scheduler", "--host", "127.0.0.1", "--port",
                                  str(port), "--no-dashboard"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                 start_new_session=True)
    worker = None
    try:
        _wait_port(port, scheduler, time.monotonic() + 60)
        worker = subprocess.Popen([sys.executable, "-m", "dask", "worker", address, "--host", "127.0.0.1",
                                   "--nthreads", "1", "--no-nanny", "--no-dashboard"], stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL, start_new_session=True)
        folder = tmp_path / "s"

        def kill_worker_once_playing():
            deadline_at = time.monotonic() + 60
            while time.monotonic() < deadline_at:
                games = folder / "games.jsonl"
                if games.is_file() and games.stat().st_size > 0:
                    break
                time.sleep(0.1)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(worker.pid, signal.SIGKILL)
        import os
        killer = threading.Thread(target=kill_worker_once_playing, daemon=True)
        killer.start()
        start = time.monotonic()
        result = run_cli("sweep", "III", "--vary", "scenario:gazala/conditions/turns=11", "--games", "200",
                         "--chunk", "1", "--bots", "random,random", "--no-progress", "--no-charts",
                         "--connect-timeout", "3", "--scheduler", address, "-o", folder, timeout=90)
        assert_clean(result, codes=(1,))
        assert "worker" in result.stderr and result.stderr.strip().count("\n") == 0, result.stderr[:500]
        assert len(result.stderr) < 400
        assert time.monotonic() - start < 60
        assert (folder / "games.jsonl").read_text().strip()  # the finished games are kept
    finally:
        if worker is not None:
            _stop(worker)
        _stop(scheduler)
