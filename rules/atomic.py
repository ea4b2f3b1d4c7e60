"""Atomic saves: everything sandtable writes goes through here.

Write to a temporary file in the same folder, flush and fsync it, rename it over the
target (atomic on POSIX and Windows), then fsync the folder so the rename survives a
crash. A reader sees the old file or the new one, never half of either.

Before any of that, ``check_target`` refuses what cannot or must not be written, with a
sentence naming the path (``OutputError``, an ``OSError``): an empty name or ".", a path
too long, a folder where a file is expected, a path under a file, a system folder
(/proc, /sys, /dev), and — unless ``force`` — an existing symbolic link, FIFO, device or
socket (renaming over ``/dev/stdout`` would replace the system's link) and a read-only
file. Commands call it before their work, so a bad ``-o`` fails at once, not after
minutes of rendering. A temporary is removed on any error and on SIGTERM/SIGHUP (SIGINT
already raises KeyboardInterrupt), so a killed export leaves no stray file.

A multi-file output (``export kit``) is built in a staging folder beside the target and
swapped in whole (``staged_dir``): a kit is never half old, half new.
"""
from __future__ import annotations

import contextlib
import contextvars
import errno
import json
import os
import shutil
import signal
import stat
import tempfile
import threading
from pathlib import Path

from .limits import file_kind

SYSTEM_FOLDERS = ("/proc", "/sys", "/dev")
MAX_PATH_BYTES = 4096
MAX_NAME_BYTES = 255


_FORCE: contextvars.ContextVar[bool] = contextvars.ContextVar("sandtable_force_output", default=False)


@contextlib.contextmanager
def forcing(force: bool = True):
    """Within this block, writes may replace links, special and read-only files (the CLI's --force)."""
    token = _FORCE.set(force)
    try:
        yield
    finally:
        _FORCE.reset(token)


class OutputError(OSError):
    """An output path that cannot or must not be written; the message names it and says why."""

    exit_code = 1

    def __init__(self, message: str, exit_code: int = 1):
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code

    def __str__(self) -> str:
        return self.message


class Terminated(SystemExit):
    """Raised in the main thread by SIGTERM/SIGHUP while a write is under way, so clean-up runs."""

    def __init__(self, signum: int | str | None = None):
        # A library may catch it and raise it again as type(e)(message) (ReportLab annotates an
        # error inside a paragraph so): the exit code then comes from the signal last received.
        if not isinstance(signum, int):
            signum = termination_received() or signal.SIGTERM
        super().__init__(128 + signum)


_received: list[int] = []  # termination signals received while terminate_raises was in force


def termination_received() -> int | None:
    """The last termination signal received since clear_termination(), or None. A library that
    catches everything (ReportLab opening a font) may have turned its Terminated into another error."""
    return _received[-1] if _received else None


def clear_termination() -> None:
    _received.clear()


def _describe(mode: int) -> str:
    return "a " + file_kind(mode)


def check_target(path: str | Path, *, force: bool = False, folder: bool = False) -> Path:
    """Refuse an output path that cannot or must not be written (OutputError); return it as a Path.

    folder=True: the target is a folder to be filled (``export kit``). Nothing is created.
    """
    text = os.fspath(path) if path is not None else ""
    if not text.strip() or text.strip() in (".", ".."):
        raise OutputError(f"{text!r} is not a {'folder' if folder else 'file'} name to write to", 2)
    if "\0" in text:
        raise OutputError("an output path cannot hold a NUL character", 2)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # bytes that are not UTF-8 (argv's surrogate escapes): reports quote the path
        raise OutputError(f"{os.fsencode(text).decode('utf-8', 'backslashreplace')}: the output path is not "
                          "UTF-8 text; give a name in UTF-8", 2) from None
    p = Path(text)
    raw = os.fsencode(text)
    if len(raw) >= MAX_PATH_BYTES or any(len(os.fsencode(part)) > MAX_NAME_BYTES for part in p.parts):
        raise OutputError(f"{text[:60]}...: the path is too long (at most {MAX_NAME_BYTES} bytes a name, "
                          f"{MAX_PATH_BYTES - 1} in all)", 2)
    if not folder and text.endswith(("/", os.sep)):
        raise OutputError(f"{text}: names a folder; give a file name", 2)
    # the nearest existing ancestor must be a folder (not "out.pdf/x.pdf" under a file)
    parent = p.parent
    while True:
        try:
            st = os.stat(parent)
        except FileNotFoundError:
            if parent == parent.parent:
                break
            parent = parent.parent
            continue
        except OSError as exc:
            raise OutputError(f"{text}: cannot use {parent}: {exc.strerror or exc}") from None
        if not stat.S_ISDIR(st.st_mode):
            raise OutputError(f"{text}: {parent} is not a folder", 2)
        break
    real = os.path.realpath(p.parent if not folder else p)
    system = next((s for s in SYSTEM_FOLDERS if real == s or real.startswith(s + "/")), None)
    if system is not None:
        raise OutputError(f"{text}: refusing to write in the system folder {system}")
    if folder and os.path.dirname(real) == real:  # '/': a folder output is swapped in whole beside its parent
        raise OutputError(f"{text}: refusing to fill the root of the file system; give a folder below it", 2)
    try:
        st = os.lstat(p)
    except FileNotFoundError:
        return p
    except OSError as exc:
        raise OutputError(f"{text}: {exc.strerror or exc}") from None
    if stat.S_ISLNK(st.st_mode):
        if not force:
            raise OutputError(f"{text} is a symbolic link; refusing to replace it (--force replaces the link "
                              "itself, not what it points to)")
        return p
    if stat.S_ISDIR(st.st_mode):
        if not folder:
            raise OutputError(f"{text} is a folder; give a file name", 2)
        return p
    if folder:
        raise OutputError(f"{text} is {'a file' if stat.S_ISREG(st.st_mode) else _describe(st.st_mode)}, "
                          "not a folder", 2)
    if not stat.S_ISREG(st.st_mode):
        if not force:
            raise OutputError(f"{text} is {_describe(st.st_mode)}; refusing to replace it (use --force)")
        return p
    if not st.st_mode & 0o222 and not force:
        raise OutputError(f"{text} is read-only; refusing to replace it (make it writable, or use --force)")
    return p


# --- clean-up on signals -----------------------------------------------------------------------

@contextlib.contextmanager
def terminate_raises():
    """SIGTERM and SIGHUP raise Terminated for a while, so ``finally`` clauses (removing a
    temporary, terminating a worker pool) run instead of the process just vanishing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {}

    def handler(signum, frame):
        _received.append(signum)
        raise Terminated(signum)
    for sig in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
        if sig is None:
            continue
        try:
            current = signal.getsignal(sig)
            if current in (signal.SIG_DFL, None):  # never take over a handler someone else installed
                previous[sig] = current
                signal.signal(sig, handler)
        except (ValueError, OSError):
            pass
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old if old is not None else signal.SIG_DFL)


def _explain(exc: OSError, path: Path) -> OutputError:
    if isinstance(exc, OutputError):
        return exc
    why = {errno.ENOSPC: "the disk is full", errno.EDQUOT: "the disk quota is exceeded",
           errno.EROFS: "the file system is read-only", errno.EACCES: "permission denied",
           errno.EPERM: "not permitted", errno.ENAMETOOLONG: "the name is too long",
           errno.EISDIR: "it is a folder", errno.ENOTDIR: "a part of the path is not a folder"}.get(exc.errno)
    return OutputError(f"cannot write {path}: {why or exc.strerror or exc}" + (" (the previous file, if any, is "
                       "unchanged)" if exc.errno in (errno.ENOSPC, errno.EDQUOT) else ""))


def write_bytes(path: str | Path, data: bytes, *, force: bool | None = None) -> None:
    force = _FORCE.get() if force is None else force
    path = check_target(path, force=force)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _explain(exc, path.parent) from None
    tmp = None
    with terminate_raises():
        try:
            clean_stale(path.parent, path.name)
            fd, tmp = tempfile.mkstemp(prefix=_temp_prefix(path.name), suffix=".tmp", dir=path.parent)
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            try:
                st = path.stat() if not path.is_symlink() else None
            except FileNotFoundError:
                st = None
            if st is not None and stat.S_ISREG(st.st_mode):
                os.chmod(tmp, st.st_mode & 0o7777)  # keep the file's permissions (read-only stays so)
            else:
                umask = os.umask(0)
                os.umask(umask)
                os.chmod(tmp, 0o666 & ~umask)
            os.replace(tmp, path)
            tmp = None
        except OSError as exc:
            raise _explain(exc, path) from None
        finally:
            if tmp is not None:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
    _fsync_dir(path.parent)


# --- what a kill leaves behind ------------------------------------------------------------------
# A temporary is named after its target and the writing process (".out.pdf.p1234.x8k2.tmp"): a
# SIGKILL leaves it behind (no handler runs), and the next write of the same target removes
# those whose process is gone. Older names without a process id are removed after an hour.

STALE_SECONDS = 3600
_SUFFIXES = (".tmp", ".staging", ".old")


def _temp_prefix(name: str) -> str:
    return f".{name[:200]}.p{os.getpid()}."


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True  # someone else's process (or a number no process can have): left alone
    return True


def clean_stale(folder: Path, name: str) -> list[str]:
    """Remove the temporaries of ``name`` in ``folder`` left by killed writers; returns their names."""
    head = f".{name[:200]}."
    removed = []
    try:
        entries = [e for e in os.scandir(folder) if e.name.startswith(head) and e.name.endswith(_SUFFIXES)]
    except OSError:
        return removed
    import re
    import time
    for entry in entries:
        rest = entry.name[len(head):]
        m = re.match(r"p(\d{1,10})\.", rest)
        try:
            if m:
                if _alive(int(m.group(1))):
                    continue
            elif time.time() - entry.stat(follow_symlinks=False).st_mtime < STALE_SECONDS:
                continue  # an old-style name: perhaps another writer at work right now
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path, ignore_errors=True)
            else:
                os.unlink(entry.path)
            removed.append(entry.name)
        except OSError:
            continue
    return removed


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


def write_text(path: str | Path, text: str, *, force: bool | None = None) -> None:
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError as exc:  # a lone surrogate: a command-line argument that was not UTF-8
        bad = text[exc.start:exc.end].encode("utf-8", "backslashreplace").decode("ascii")
        raise OutputError(f"cannot write {path}: the text holds {bad}, which is not a character (an argument "
                          "in another encoding than UTF-8?); nothing was written", 2) from None
    write_bytes(path, data, force=force)


def dumps_json(value) -> str:
    """The one JSON layout sandtable saves: 2-space indent, UTF-8 kept, trailing newline."""
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def write_json(path: str | Path, value, *, force: bool | None = None) -> None:
    write_text(path, dumps_json(value), force=force)


# --- a folder of outputs, swapped in whole ---------------------------------------------------------

def _refuse_foreign(target: Path, expected, force: bool) -> list[str]:
    """The names in target that this output does not write; OutputError unless force."""
    try:
        foreign = sorted(c.name for c in target.iterdir() if expected is not None and not expected(c.name))
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise _explain(exc, target) from None
    if foreign and not force:
        raise OutputError(f"{target} holds files this export does not write ({', '.join(foreign[:3])}"
                          f"{'...' if len(foreign) > 3 else ''}); choose a new or empty folder, or use "
                          "--force to keep them beside the new files")
    return foreign


@contextlib.contextmanager
def staged_dir(target: str | Path, *, force: bool | None = None, expected=None):
    """Yield a staging folder beside target; on success, it replaces target whole.

    The old folder is renamed aside, the staging folder renamed in, then the old one
    removed: at every instant target is the complete old output or the complete new one
    (or, for the moment between the two renames, absent) — never a mix. A target that holds
    files this output does not write (``expected(name) -> bool`` says which it writes) is
    refused unless force, so a kit written to ~/Documents never deletes the documents; with
    force, those files are carried over into the new folder. On error or signal the staging
    folder is removed and target is untouched.
    """
    force = _FORCE.get() if force is None else force
    target = check_target(target, force=force, folder=True)
    if target.is_symlink():
        target = Path(os.path.realpath(target))  # --force: fill the folder the link points to
    _refuse_foreign(target, expected, force)  # before the work, not only after it (checked again below)
    parent = target.parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
        clean_stale(parent, target.name)
        stage = Path(tempfile.mkdtemp(prefix=_temp_prefix(target.name), suffix=".staging", dir=parent))
        if target.is_dir():  # the new folder keeps the old one's permissions; a new one follows the umask
            os.chmod(stage, target.stat().st_mode & 0o7777)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(stage, 0o777 & ~umask)
    except OSError as exc:
        raise _explain(exc, target) from None
    done = False
    with terminate_raises():
        try:
            yield stage
            foreign = []
            if target.exists():
                foreign = _refuse_foreign(target, expected, force)
                for name in foreign:
                    src = target / name
                    (shutil.copytree if src.is_dir() and not src.is_symlink() else shutil.copy2)(
                        src, stage / name, **({"symlinks": True} if src.is_dir() and not src.is_symlink() else
                                              {"follow_symlinks": False}))
                old = Path(tempfile.mkdtemp(prefix=_temp_prefix(target.name), suffix=".old", dir=parent))
                os.rmdir(old)
                os.replace(target, old)
                try:
                    os.replace(stage, target)
                except OSError:
                    os.replace(old, target)  # put the old output back
                    raise
                shutil.rmtree(old, ignore_errors=True)
            else:
                os.replace(stage, target)
            done = True
            _fsync_dir(parent)
        except OSError as exc:
            raise _explain(exc, target) from None
        finally:
            if not done:
                shutil.rmtree(stage, ignore_errors=True)
