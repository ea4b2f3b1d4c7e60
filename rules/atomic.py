"""Atomic saves: everything sandtable writes goes through here.

Write to a temporary file in the same folder, flush and fsync it, rename it over the
target (atomic on POSIX and Windows), then fsync the folder so the rename survives a
crash. A reader sees the old file or the new one, never half of either.
"""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path


def write_bytes(path: str | Path, data: bytes) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if path.exists():
            os.chmod(tmp, path.stat().st_mode & 0o7777)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    _fsync_dir(path.parent)


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # Windows cannot open folders; the rename is still atomic there
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_text(path: str | Path, text: str) -> None:
    write_bytes(path, text.encode("utf-8"))


def dumps_json(value) -> str:
    """The one JSON layout sandtable saves: 2-space indent, UTF-8 kept, trailing newline."""
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def write_json(path: str | Path, value) -> None:
    write_text(path, dumps_json(value))
