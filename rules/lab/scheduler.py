"""The Dask scheduler a sweep runs on: its address checked, and the peer asked who it is before
a Client is made, every wait bounded.

Only ``tcp://`` addresses are taken (``tls://`` too when Dask's TLS settings are configured);
another scheme (ucx, inproc, ws...) is a usage error. A peer that accepts a connection and
never answers, an HTTP server or anything that is not a Dask scheduler would otherwise hold
``distributed.Client`` for ever: the probe sends Dask's ``identity`` message and waits for
the answer at most the connect timeout, all under one ``asyncio.wait_for``.
"""
from __future__ import annotations

import re

_HOST_PORT = re.compile(r"(?P<host>\[[0-9a-fA-F:.]+\]|[A-Za-z0-9][A-Za-z0-9.\-]*):(?P<port>\d{1,5})/?")


class SchedulerError(Exception):
    """The scheduler cannot be used; the message is one line for the user."""


def tls_configured() -> bool:
    try:
        import dask.config
    except ImportError:
        return False
    return bool(dask.config.get("distributed.comm.tls.client.cert", None)
                or dask.config.get("distributed.comm.tls.ca-file", None))


def address_problem(address: str) -> str | None:
    """Why a --scheduler address is refused (a usage error), or None."""
    scheme, sep, rest = address.partition("://")
    if not sep:
        scheme, rest = "tcp", address
    if scheme not in ("tcp", "tls"):
        return (f"--scheduler takes tcp://HOST:PORT (or tls://HOST:PORT with Dask's TLS settings configured), "
                f"not the scheme {scheme[:20]!r}")
    if scheme == "tls" and not tls_configured():
        return ("--scheduler tls://... needs Dask's TLS settings (distributed.comm.tls.ca-file and "
                "client cert/key in the Dask configuration)")
    m = _HOST_PORT.fullmatch(rest)
    if not m or not 1 <= int(m["port"]) <= 65535:
        return f"--scheduler takes a Dask scheduler address, tcp://HOST:PORT (port 1-65535), not {address[:80]!r}"
    return None


def normalised(address: str) -> str:
    return address if "://" in address else f"tcp://{address}"


def probe(address: str, timeout: float) -> None:
    """Raise SchedulerError unless a Dask scheduler answers at address within timeout seconds."""
    import asyncio

    async def ask():
        from distributed.comm import connect
        from distributed.security import Security
        kwargs = Security().get_connection_args("client") if address.startswith("tls://") else {}
        comm = await connect(address, timeout=timeout, **kwargs)
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            comm.abort()

    _reachable(address, timeout)
    try:
        answer = asyncio.run(asyncio.wait_for(ask(), timeout))
    except (asyncio.TimeoutError, TimeoutError):
        raise SchedulerError(f"no answer from the Dask scheduler at {address} within {timeout:g} s "
                             "(is it a Dask scheduler? raise --connect-timeout if it is only slow)") from None
    except OSError as exc:
        raise SchedulerError(f"cannot reach the Dask scheduler at {address}: {_short(exc)}") from None
    except Exception as exc:  # noqa: BLE001 - garbage, an HTTP server, a closed stream: not a scheduler
        raise SchedulerError(f"{address} did not answer as a Dask scheduler ({type(exc).__name__}: "
                             f"{_short(exc)})") from None
    if not isinstance(answer, dict) or answer.get("type") != "Scheduler":
        kind = answer.get("type") if isinstance(answer, dict) else type(answer).__name__
        raise SchedulerError(f"{address} answered, but is not a Dask scheduler (it says {str(kind)[:40]!r})")


def _reachable(address: str, timeout: float) -> None:
    """A plain TCP connection first: a closed port is said as such (Dask's connect retries it
    until the timeout, which would read as a scheduler that does not answer)."""
    import socket
    m = _HOST_PORT.fullmatch(address.partition("://")[2])
    if m is None:
        return
    host = m["host"].strip("[]")
    try:
        with socket.create_connection((host, int(m["port"])), timeout=timeout):
            pass
    except OSError as exc:
        raise SchedulerError(f"cannot reach the Dask scheduler at {address}: {_short(exc)}") from None


def _short(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text[:200] + ("…" if len(text) > 200 else "")
